#include "config.h"

#include "report/emit.h"

#include <stdint.h>
#include <string.h>

#include "base/elide.h"
#include "base/utf8.h"

/* The writers are their FILE's only users while they write (see json.c). */
#ifdef __GLIBC__
#define fwrite fwrite_unlocked
#define fputs fputs_unlocked
#endif

/*
 * Writes s as a JSON string, escaping quotes, backslashes and controls:
 * C0, DEL, C1 (U+0080 to U+009F) and the bidirectional controls
 * (utf8_unsafe()) as \uXXXX, so that a report shown on a terminal cannot
 * drive it.  Names come from the trace as they were, so a byte that is not
 * part of well-formed UTF-8 becomes U+FFFD: the report is always valid JSON.
 */
void
emit_json_str(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	putc_unlocked('"', out);
	while (*p != '\0') {
		unsigned char c = *p;
		uint32_t cp;
		size_t n;

		/* a run of characters written as they are, in one write */
		for (n = 0; p[n] >= 0x20 && p[n] < 0x7f && p[n] != '"' && p[n] != '\\'; n++)
			;
		if (n > 0) {
			fwrite(p, 1, n, out);
			p += n;
			continue;
		}
		if (c >= 0x80) {
			if ((n = utf8_valid_len(p, SIZE_MAX, &cp)) == 0) {
				fputs("\\ufffd", out);
				n = 1;
			} else if (utf8_unsafe(cp)) {
				fprintf(out, "\\u%04x", (unsigned)cp);
			} else {
				fwrite(p, 1, n, out);
			}
			p += n;
			continue;
		}
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\u%04x", c);
		else
			putc_unlocked(c, out);
		p++;
	}
	putc_unlocked('"', out);
}

/*
 * Writes s[0..len) (or up to its NUL) for a terminal, a log or a CSV field:
 * control bytes, C1 controls (U+0080 to U+009F), bidirectional controls and
 * bytes that are not well-formed UTF-8 become '?', so a name in a trace
 * cannot send escape sequences to the terminal nor reorder what follows it.
 * With csv_quote, '"' is doubled.  len is at a character's end.
 */
static void
text_put(FILE *out, const char *s, size_t len, int csv_quote)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;
	int cols, shown;

	for (; len > 0 && *p != '\0'; p += n, len -= n < len ? n : len) {
		n = utf8_shown(p, &cols, &shown);
		if (!shown) {
			putc_unlocked('?', out);
			continue;
		}
		if (csv_quote && *p == '"')
			putc_unlocked('"', out);
		fwrite(p, 1, n, out);
	}
}

void
emit_text_str(FILE *out, const char *s)
{
	text_put(out, s, SIZE_MAX, 0);
}

size_t
emit_text_name_keep(FILE *out, const char *s, size_t max, int ascii, const size_t *keeps,
    size_t nkeeps)
{
	const char *mark = ascii ? "..." : "\xe2\x80\xa6";   /* U+2026 */
	struct elide_cut c;

	elide_plan(s, max, ascii ? 3 : 1, keeps, nkeeps, &c);
	for (size_t i = 0; i < c.nparts; i++) {
		if (i > 0)
			fputs(mark, out);
		text_put(out, s + c.part[i].from, c.part[i].to - c.part[i].from, 0);
	}
	return c.cols;
}

size_t
emit_text_name(FILE *out, const char *s, size_t max, int ascii)
{
	return emit_text_name_keep(out, s, max, ascii, NULL, 0);
}

/* Writes s as one CSV field (quoted when it holds , or "). */
void
emit_csv_str(FILE *out, const char *s)
{
	if (strpbrk(s, ",\"") == NULL) {
		text_put(out, s, SIZE_MAX, 0);
		return;
	}
	putc_unlocked('"', out);
	text_put(out, s, SIZE_MAX, 1);
	putc_unlocked('"', out);
}
