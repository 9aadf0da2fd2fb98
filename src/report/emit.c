#include "config.h"

#include "report/emit.h"

#include <stdint.h>
#include <string.h>

#include "base/utf8.h"

/*
 * Writes s as a JSON string, escaping quotes, backslashes and controls.
 * Names come from the trace as they were, so a byte that is not part of
 * well-formed UTF-8 becomes U+FFFD: the report is always valid JSON.
 */
void
emit_json_str(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	putc('"', out);
	while (*p != '\0') {
		unsigned char c = *p;
		size_t n;

		if (c >= 0x80) {
			if ((n = utf8_valid_len(p, SIZE_MAX, NULL)) == 0) {
				fputs("\\ufffd", out);
				n = 1;
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
			putc(c, out);
		p++;
	}
	putc('"', out);
}

/*
 * The bytes of the character of text at p: a well-formed UTF-8 sequence,
 * or 1 for a byte that does not start one (shown as '?').
 */
static size_t
text_char(const unsigned char *p)
{
	size_t n = *p >= 0x80 ? utf8_valid_len(p, SIZE_MAX, NULL) : 1;

	return n == 0 ? 1 : n;
}

/*
 * Writes s[0..len) (or up to its NUL) for a terminal, a log or a CSV field:
 * control bytes, C1 controls (U+0080 to U+009F) and bytes that are not
 * well-formed UTF-8 become '?', so a name in a trace cannot send escape
 * sequences to the terminal.  With csv_quote, '"' is doubled.  len is at a
 * character's end (text_char()).
 */
static void
text_put(FILE *out, const char *s, size_t len, int csv_quote)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	for (; len > 0 && *p != '\0'; p += n, len -= n < len ? n : len) {
		n = text_char(p);
		if ((*p >= 0x80 && utf8_valid_len(p, SIZE_MAX, NULL) == 0) ||
		    *p < 0x20 || *p == 0x7f || (*p == 0xc2 && p[1] < 0xa0)) {
			putc('?', out);
			continue;
		}
		if (csv_quote && *p == '"')
			putc('"', out);
		fwrite(p, 1, n, out);
	}
}

void
emit_text_str(FILE *out, const char *s)
{
	text_put(out, s, SIZE_MAX, 0);
}

size_t
emit_text_name(FILE *out, const char *s, size_t max, int ascii)
{
	const unsigned char *p = (const unsigned char *)s;
	const char *mark = ascii ? "..." : "\xe2\x80\xa6";   /* U+2026 */
	size_t nchars = 0, head, tail, k = 0, mark_chars = ascii ? 3 : 1;
	const char *cut = s, *resume = s;

	for (const unsigned char *q = p; *q != '\0'; q += text_char(q))
		nchars++;
	if (max < mark_chars + 2)
		max = mark_chars + 2;
	if (nchars <= max) {
		text_put(out, s, SIZE_MAX, 0);
		return nchars;
	}
	head = (max - mark_chars + 1) / 2;      /* the start, as long as the end or one more */
	tail = max - mark_chars - head;
	for (const unsigned char *q = p; *q != '\0'; q += text_char(q), k++) {
		if (k == head)
			cut = (const char *)q;
		if (k == nchars - tail)
			resume = (const char *)q;
	}
	text_put(out, s, (size_t)(cut - s), 0);
	fputs(mark, out);
	text_put(out, resume, SIZE_MAX, 0);
	return max;
}

/* Writes s as one CSV field (quoted when it holds , or "). */
void
emit_csv_str(FILE *out, const char *s)
{
	if (strpbrk(s, ",\"") == NULL) {
		text_put(out, s, SIZE_MAX, 0);
		return;
	}
	putc('"', out);
	text_put(out, s, SIZE_MAX, 1);
	putc('"', out);
}
