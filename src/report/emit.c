#include "config.h"

#include "report/emit.h"

#include <stdint.h>
#include <string.h>

/*
 * Returns the length (2 to 4) of the well-formed UTF-8 sequence at s (whose
 * first byte is >= 0x80), or 0 if it is not one: a stray continuation byte,
 * an overlong form, a surrogate, beyond U+10FFFF or cut short.
 */
static size_t
utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	size_t n;
	uint32_t cp;

	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)      /* also stops at the NUL */
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

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
			if ((n = utf8_len(p)) == 0) {
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
 * Writes s for a terminal, a log or a CSV field: control bytes, C1 controls
 * (U+0080 to U+009F) and bytes that are not well-formed UTF-8 become '?', so
 * a name in a trace cannot send escape sequences to the terminal.  With
 * csv_quote, '"' is doubled.
 */
static void
text_put(FILE *out, const char *s, int csv_quote)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p != '\0') {
		size_t n = *p >= 0x80 ? utf8_len(p) : 1;

		if (n == 0 || *p < 0x20 || *p == 0x7f || (*p == 0xc2 && p[1] < 0xa0)) {
			putc('?', out);
			p += n == 0 ? 1 : n;
			continue;
		}
		if (csv_quote && *p == '"')
			putc('"', out);
		fwrite(p, 1, n, out);
		p += n;
	}
}

void
emit_text_str(FILE *out, const char *s)
{
	text_put(out, s, 0);
}

/* Writes s as one CSV field (quoted when it holds , or "). */
void
emit_csv_str(FILE *out, const char *s)
{
	if (strpbrk(s, ",\"") == NULL) {
		text_put(out, s, 0);
		return;
	}
	putc('"', out);
	text_put(out, s, 1);
	putc('"', out);
}
