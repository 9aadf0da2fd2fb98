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
		size_t n = *p >= 0x80 ? utf8_valid_len(p, SIZE_MAX, NULL) : 1;

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
