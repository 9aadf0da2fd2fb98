/*
 * fold — text report lines folded to a width (see fold.h).
 */
#include "config.h"

#include "report/fold.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "base/xalloc.h"

struct fold {
	FILE *out;
	int width;
	char *line;             /* the line being written, without its newline */
	size_t len, cap;
};

/* The columns of the character at s (n bytes left); *bytes its length. */
static int
char_cols(const char *s, size_t n, size_t *bytes)
{
	uint32_t cp = 0;
	size_t k = utf8_valid_len((const unsigned char *)s, n, &cp);

	if (k == 0) {
		*bytes = 1;
		return 1;
	}
	*bytes = k;
	return cp < 0x20 ? 0 : utf8_width(cp);
}

/*
 * Writes the n bytes at s as lines of at most width columns: the first as
 * it is, the next ones after indent spaces.
 */
static void
put_folded(struct fold *f, const char *s, size_t n)
{
	size_t lead = 0, indent;
	int first = 1;

	while (lead < n && s[lead] == ' ')
		lead++;
	indent = lead + 2;
	if ((int)indent > f->width / 2)
		indent = (size_t)f->width / 2;
	while (n > 0) {
		int room = first ? f->width : f->width - (int)indent, cols = 0;
		size_t i = 0, cut = 0, fits = 0;

		/* how much fits, and the last space in it after the indent */
		while (i < n) {
			size_t b;
			int c = char_cols(s + i, n - i, &b);

			if (cols + c > room)
				break;
			if (s[i] == ' ' && (!first || i > lead))
				cut = i;
			cols += c;
			i += b;
		}
		fits = i;
		if (fits == n) {
			cut = n;
		} else if (cut == 0) {
			cut = fits > 0 ? fits : 1;      /* a word wider than the room */
		}
		if (!first)
			for (size_t k = 0; k < indent; k++)
				putc(' ', f->out);
		fwrite(s, 1, cut, f->out);
		putc('\n', f->out);
		s += cut;
		n -= cut;
		while (n > 0 && *s == ' ') {
			s++;
			n--;
		}
		first = 0;
	}
}

static void
end_line(struct fold *f)
{
	put_folded(f, f->line, f->len);
	f->len = 0;
}

static ssize_t
fold_write(void *cookie, const char *buf, size_t size)
{
	struct fold *f = cookie;

	for (size_t i = 0; i < size; i++) {
		if (buf[i] == '\n') {
			if (f->len == 0)
				putc('\n', f->out);
			else
				end_line(f);
			continue;
		}
		xgrow(&f->line, &f->cap, f->len + 1, 1);
		f->line[f->len++] = buf[i];
	}
	return (ssize_t)size;
}

static int
fold_cookie_close(void *cookie)
{
	struct fold *f = cookie;

	if (f->len > 0)
		end_line(f);    /* a last line without its newline gets one */
	free(f->line);
	free(f);
	return 0;
}

FILE *
fold_open(FILE *out, int width)
{
	cookie_io_functions_t io = { NULL, fold_write, NULL, fold_cookie_close };
	struct fold *f = xcalloc(1, sizeof *f);
	FILE *s;

	f->out = out;
	f->width = width < 20 ? 20 : width;
	s = fopencookie(f, "w", io);
	if (s == NULL) {
		free(f);
		return out;
	}
	return s;
}

int
fold_close(FILE *f, FILE *out)
{
	int bad = 0;

	if (f != out) {
		fflush(f);
		bad = ferror(f) != 0;
		fclose(f);
	}
	fflush(out);
	return bad || ferror(out) ? -1 : 0;
}
