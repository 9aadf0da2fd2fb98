/*
 * ranges: the written list against a brute-force oracle.  Random ascending
 * lists (with repeats, negatives, and values at the ends of int64) are
 * written, the text is parsed back, and it must hold exactly the distinct
 * values, in runs that are maximal (no two runs touch) and, with max_runs,
 * only the first max_runs runs, with the rest counted.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ranges.h"
#include "testrng.h"

/* Writes v[0..n) with max_runs into a malloc'd string; *count: ranges_end(). */
static char *
write_list(const int64_t *v, size_t n, size_t max_runs, size_t *count)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct ranges r;

	cr_assert_not_null(out);
	ranges_begin(&r, out, max_runs);
	for (size_t i = 0; i < n; i++)
		ranges_add(&r, v[i]);
	*count = ranges_end(&r);
	fclose(out);
	return buf;
}

static void
expect_text(const int64_t *v, size_t n, size_t max_runs, const char *want)
{
	size_t count;
	char *got = write_list(v, n, max_runs, &count);

	cr_expect_str_eq(got, want);
	free(got);
}

Test(ranges, examples)
{
	int64_t a[] = { 2, 3, 4, 5, 127 }, b[] = { 10, 11, 12, 13, 14, 15, 16, 17 },
	    c[] = { 1, 1, 1, 3, 3, 5, 6 }, d[] = { -3, -2, -1, 0, 4 },
	    e[] = { 0, 2, 4, 6, 8, 10 }, f[] = { INT64_MAX - 1, INT64_MAX };

	expect_text(a, 0, 0, "");
	expect_text(a, 5, 0, "2-5, 127");
	expect_text(b, 8, 0, "10-17");
	expect_text(c, 7, 0, "1, 3, 5-6");
	expect_text(d, 5, 0, "-3 to 0, 4");
	expect_text(e, 6, 3, "0, 2, 4, ... (3 more)");
	expect_text(e, 6, 6, "0, 2, 4, 6, 8, 10");
	expect_text(f, 2, 0, "9223372036854775806-9223372036854775807");
}

/* Parses one number at *p (a leading '-' is a sign); advances *p. */
static int64_t
number(const char **p)
{
	char *end;
	long long x = strtoll(*p, &end, 10);

	cr_assert(end != *p, "a number at \"%s\"", *p);
	*p = end;
	return (int64_t)x;
}

Test(ranges, oracle)
{
	uint64_t seed = 0x5eed1234abcdULL;

	for (int round = 0; round < 3000; round++) {
		size_t n = (size_t)rng_below(&seed, 40), max_runs =
		    round % 3 == 0 ? (size_t)rng_below(&seed, 6) : 0, count, nd = 0,
		    runs = 0, shown = 0, left = 0;
		int64_t *v = calloc(n + 1, sizeof *v), *d = calloc(n + 1, sizeof *d),
		    x = round % 7 == 0 ? INT64_MAX - 60 : round % 5 == 0 ? INT64_MIN :
		    rng_below(&seed, 40) - 20;
		const char *p;
		char *text;
		int64_t prev_hi = 0;

		for (size_t i = 0; i < n; i++) {
			v[i] = x;
			if (rng_below(&seed, 3) != 0 && x < INT64_MAX - 2)
				x += rng_below(&seed, 3);       /* repeats, runs, gaps */
		}
		for (size_t i = 0; i < n; i++)          /* the distinct values */
			if (nd == 0 || d[nd - 1] != v[i])
				d[nd++] = v[i];
		for (size_t i = 0; i < nd; i++)         /* the oracle's runs */
			if (i == 0 || d[i] != d[i - 1] + 1)
				runs++;
		text = write_list(v, n, max_runs, &count);
		cr_assert_eq(count, nd, "ranges_end() counts the distinct values");

		/* parse the runs back and check them against d[] */
		p = text;
		size_t k = 0;
		while (*p != '\0' && strncmp(p, "... (", 5) != 0) {
			int64_t lo = number(&p), hi = lo;

			if (strncmp(p, " to ", 4) == 0) {
				p += 4;
				hi = number(&p);
			} else if (*p == '-') {
				p++;
				hi = number(&p);
			}
			cr_assert(lo <= hi, "%s", text);
			cr_assert(shown == 0 || lo > prev_hi + 1,
			    "runs are maximal and ascending: %s", text);
			for (int64_t y = lo;; y++) {
				cr_assert(k < nd && d[k] == y, "%" PRId64 " in %s", y, text);
				k++;
				if (y == hi)
					break;
			}
			prev_hi = hi;
			shown++;
			if (strncmp(p, ", ", 2) == 0)
				p += 2;
		}
		if (*p != '\0') {
			cr_assert_eq(sscanf(p, "... (%zu more)", &left), 1, "%s", text);
		}
		cr_assert_eq(k + left, nd, "every value shown or counted: %s", text);
		cr_assert_eq(shown, max_runs > 0 && runs > max_runs ? max_runs : runs,
		    "runs shown: %s", text);
		cr_assert_eq(left > 0, max_runs > 0 && runs > max_runs, "%s", text);
		free(text);
		free(v);
		free(d);
	}
}
