/*
 * The text reports' fold (report/fold.h) against a brute-force reading of
 * its output: every line within the width, no word lost or reordered, the
 * continuation lines indented two more than their line, short lines as
 * they were.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "report/fold.h"

static char *
folded(const char *in, int width)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	FILE *f = fold_open(mem, width);

	fputs(in, f);
	cr_assert_eq(fold_close(f, mem), 0);
	fclose(mem);
	return buf;
}

/* Columns of a line of ASCII and the one "…" the tests use. */
static int
cols(const char *s, size_t n)
{
	int c = 0;

	for (size_t i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			c++;
	return c;
}

/* The words of s, each followed by one space. */
static char *
words(const char *s)
{
	char *w = calloc(strlen(s) + 2, 1), *p = w;

	for (; *s; s++) {
		if (*s == ' ' || *s == '\n') {
			if (p > w && p[-1] != ' ')
				*p++ = ' ';
		} else {
			*p++ = *s;
		}
	}
	return w;
}

Test(fold, short_lines_pass_as_they_are)
{
	const char *in = "  steps:  time\n\n    Step#1  16.8 ms\nlast";
	char *out = folded(in, 40);

	cr_expect_str_eq(out, "  steps:  time\n\n    Step#1  16.8 ms\nlast\n");
	free(out);
}

Test(fold, wide_lines_fold_at_spaces_within_the_width)
{
	char in[32768], *out, *wi, *wo;
	unsigned seed = 7;

	/* paragraphs of random words and indents, a long word among them */
	in[0] = '\0';
	for (int l = 0; l < 30; l++) {
		int lead = (int)(seed % 7);

		for (int k = 0; k < lead; k++)
			strcat(in, " ");
		for (int wd = 0; wd < 25; wd++) {
			seed = seed * 1103515245u + 12345u;
			int n = 1 + (int)((seed >> 16) % (l == 3 && wd == 2 ? 90 : 11));

			for (int k = 0; k < n; k++)
				strcat(in, k == n / 2 && wd % 5 == 0 ? "\xe2\x80\xa6" : "x");
			strcat(in, " ");
		}
		strcat(in, "\n");
	}
	out = folded(in, 60);
	for (char *p = out, *e; *p; p = e + 1) {
		e = strchr(p, '\n');
		cr_assert_not_null(e);
		cr_expect(cols(p, (size_t)(e - p)) <= 60, "line of %d columns: %.*s",
		    cols(p, (size_t)(e - p)), (int)(e - p), p);
	}
	/* the same words in the same order (the long word cut in pieces) */
	wi = words(in);
	wo = words(out);
	{
		char *a = wi, *b = wo;

		for (; *a && *b; a++, b++) {
			while (*a == ' ' && *b != ' ')
				a++;
			while (*b == ' ' && *a != ' ')
				b++;
			cr_assert_eq(*a, *b, "words differ at '%.20s' / '%.20s'", a, b);
		}
	}
	free(wi);
	free(wo);
	free(out);
}

Test(fold, continuation_lines_are_indented_two_more)
{
	char *out = folded("    remedy: aaa bbb ccc ddd eee fff ggg\n", 20);

	cr_expect_str_eq(out, "    remedy: aaa bbb\n      ccc ddd eee\n      fff ggg\n");
	free(out);
}
