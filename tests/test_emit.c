/*
 * emit: names elided in the middle for text (emit_text_name()) against a
 * brute-force oracle built on emit_text_str(): random names of ASCII,
 * multi-byte characters, controls, C1 controls and broken UTF-8, elided
 * to random widths, must come out as the whole text when it fits, else as
 * its first and last characters around the mark, max characters in all,
 * the start as long as the end or one longer.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/emit.h"
#include "testrng.h"

/* What emit_text_name(s, max, ascii) or, with max 0, emit_text_str(s) writes. */
static char *
emitted(const char *s, size_t max, int ascii, size_t *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	cr_assert_not_null(out);
	if (max == 0)
		emit_text_str(out, s);
	else
		*ret = emit_text_name(out, s, max, ascii);
	fclose(out);
	return buf;
}

static void
expect_name(const char *s, size_t max, int ascii, const char *want)
{
	size_t ret;
	char *got = emitted(s, max, ascii, &ret);

	cr_expect_str_eq(got, want, "max %zu ascii %d", max, ascii);
	free(got);
}

Test(emit, examples)
{
	const char *longname = "void at::native::vectorized_elementwise_kernel<4, "
	    "at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3> >(int)";

	expect_name("sm90_gemm", 120, 0, "sm90_gemm");
	expect_name("sm90_gemm", 9, 1, "sm90_gemm");
	expect_name("sm90_gemm_x", 9, 1, "sm9...m_x");
	expect_name("sm90_gemm_x", 9, 0, "sm90\xe2\x80\xa6mm_x");
	expect_name(longname, 40, 0, "void at::native::vec\xe2\x80\xa6"
	    "ay<char*, 3> >(int)");
	expect_name("a\033[2Jb_and_a_long_tail", 10, 1, "a?[2...ail");
	expect_name("\xc3\xa9t\xc3\xa9_\xe4\xb8\xad_end", 7, 0,
	    "\xc3\xa9t\xc3\xa9\xe2\x80\xa6" "end");
	expect_name("abcdefgh", 1, 1, "a...h");     /* 5 characters at least */
}

/* The characters of the well-formed UTF-8 text s: start offsets, n + 1 of them. */
static size_t
chars(const char *s, size_t *at)
{
	size_t n = 0;

	for (size_t i = 0; s[i] != '\0'; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			at[n++] = i;
	at[n] = strlen(s);
	return n;
}

Test(emit, oracle)
{
	static const char *const pieces[] = {
		"a", "Z", "_", "<", " ", "::", "\xc3\xa9", "\xe4\xb8\xad",
		"\xf0\x9f\x99\x82", "\n", "\033", "\x7f", "\xc2\x85", "\xff", "\x80",
		"\xe4\xb8", "\xed\xa0\x80", "\xc0\xaf",
	};
	uint64_t seed = 0xe117de5eedULL;

	for (int round = 0; round < 5000; round++) {
		char name[400], *full, *got, *mark;
		size_t len = 0, n, max = (size_t)rng_below(&seed, 40) + 1, ret, nout,
		    *at = calloc(400, sizeof *at), *oat = calloc(400, sizeof *oat);
		int ascii = (int)rng_below(&seed, 2);
		size_t npieces = (size_t)rng_below(&seed, 70);

		for (size_t i = 0; i < npieces; i++) {
			const char *p = pieces[rng_below(&seed,
			    round % 2 ? 6 : (int64_t)(sizeof pieces / sizeof *pieces))];

			memcpy(name + len, p, strlen(p));
			len += strlen(p);
		}
		name[len] = '\0';
		full = emitted(name, 0, 0, NULL);
		got = emitted(name, max, ascii, &ret);
		n = chars(full, at);
		nout = chars(got, oat);
		mark = ascii ? "..." : "\xe2\x80\xa6";
		if (max < (ascii ? 5u : 3u))
			max = ascii ? 5 : 3;
		if (n <= max) {
			cr_assert_str_eq(got, full, "fits: the name as emit_text_str() writes it");
			cr_assert_eq(ret, n);
		} else {
			size_t m = ascii ? 3 : 1, h, t;
			int ok = 0;

			cr_assert_eq(ret, max, "returns max");
			cr_assert_eq(nout, max, "max characters in all: %s", got);
			/* some split h + t = max - m, h - t in {0, 1}, must give it */
			for (h = 0; h <= max - m && !ok; h++) {
				t = max - m - h;
				if (h != t && h != t + 1)
					continue;
				ok = strncmp(got, full, at[h]) == 0 &&
				    strncmp(got + at[h], mark, strlen(mark)) == 0 &&
				    strcmp(got + at[h] + strlen(mark), full + at[n - t]) == 0;
			}
			cr_assert(ok, "start, mark and end of \"%s\": \"%s\"", full, got);
		}
		free(full);
		free(got);
		free(at);
		free(oat);
	}
}
