/*
 * emit: names elided in the middle for text (emit_text_name()) against a
 * brute-force oracle built on emit_text_str(): random names of ASCII,
 * multi-byte characters, controls, C1 controls and broken UTF-8, elided
 * to random widths, must come out as the whole text when it fits, else as
 * its first and last characters around the mark, max terminal columns at
 * most (CJK and emoji take two), the start within (max - mark + 1) / 2
 * columns.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
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
		    *at = calloc(400, sizeof *at), *oat = calloc(400, sizeof *oat),
		    w[400], cw[401] = { 0 };
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
		for (size_t i = 0; i < n; i++) {
			uint32_t cp = 0;

			utf8_valid_len((const unsigned char *)full + at[i], SIZE_MAX, &cp);
			w[i] = (size_t)utf8_width(cp);
			cw[i + 1] = cw[i] + w[i];
		}
		if (cw[n] <= max) {
			cr_assert_str_eq(got, full, "fits: the name as emit_text_str() writes it");
			cr_assert_eq(ret, cw[n]);
		} else {
			/* the longest start within head columns, the shortest end
			   within tail columns (columns: CJK and emoji take two) */
			size_t m = ascii ? 3 : 1, hc = (max - m + 1) / 2, tc = max - m - hc,
			    h = 0, k;
			char want[1200];

			while (h < n && cw[h + 1] <= hc)
				h++;
			for (k = h; k < n && cw[n] - cw[k] > tc; k++)
				;
			snprintf(want, sizeof want, "%.*s%s%s", (int)at[h], full, mark,
			    full + at[k]);
			cr_assert_str_eq(got, want, "start, mark and end of \"%s\"", full);
			cr_assert_eq(ret, cw[h] + m + cw[n] - cw[k], "returns the columns");
			cr_assert_leq(ret, max, "max columns at most");
			(void)nout;
		}
		free(full);
		free(got);
		free(at);
		free(oat);
	}
}

/* What emit_json_str(s) writes. */
static char *
json_of(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	cr_assert_not_null(out);
	emit_json_str(out, s);
	fclose(out);
	return buf;
}

/*
 * Controls that drive or reorder a terminal never reach one as themselves:
 * C1 (U+0085, U+009B CSI, U+009D OSC) and the bidirectional controls
 * (U+202E, U+2066, U+200F) are \uXXXX in JSON (they were raw) and '?' in
 * text (the bidi ones were raw); names of any script stay themselves.
 */
Test(emit, terminal_controls)
{
	char *got;
	size_t ret;

	got = json_of("a\xc2\x85" "b\xc2\x9b" "c\xc2\x9d" "d");
	cr_expect_str_eq(got, "\"a\\u0085b\\u009bc\\u009dd\"");
	free(got);
	got = json_of("x\xe2\x80\xaey\xe2\x81\xa6z\xe2\x80\x8f");
	cr_expect_str_eq(got, "\"x\\u202ey\\u2066z\\u200f\"");
	free(got);
	got = json_of("\xe4\xb8\xad\xe6\x96\x87 e\xcc\x81");
	cr_expect_str_eq(got, "\"\xe4\xb8\xad\xe6\x96\x87 e\xcc\x81\"");
	free(got);
	got = emitted("evil\xe2\x80\xae" "gnp.exe", 0, 0, NULL);
	cr_expect_str_eq(got, "evil?gnp.exe");
	free(got);
	got = emitted("\xe2\x81\xa6" "a\xe2\x81\xa9", 0, 0, NULL);
	cr_expect_str_eq(got, "?a?");
	free(got);
	/* columns: CJK takes two, a combining mark none */
	got = emitted("\xe4\xb8\xad\xe6\x96\x87", 10, 0, &ret);
	cr_expect_str_eq(got, "\xe4\xb8\xad\xe6\x96\x87");
	cr_expect_eq(ret, 4);
	free(got);
	got = emitted("e\xcc\x81t\xc3\xa9", 10, 0, &ret);
	cr_expect_eq(ret, 3);
	free(got);
	/* elided by columns, never half a wide character */
	got = emitted("\xe4\xb8\x80\xe4\xb8\x81\xe4\xb8\x82\xe4\xb8\x83\xe4\xb8\x84", 7, 1, &ret);
	cr_expect_str_eq(got, "\xe4\xb8\x80...\xe4\xb8\x84");
	cr_expect_eq(ret, 7);
	free(got);
	got = emitted("\xe4\xb8\x80\xe4\xb8\x81\xe4\xb8\x82\xe4\xb8\x83\xe4\xb8\x84", 6, 1, &ret);
	cr_expect_str_eq(got, "\xe4\xb8\x80...");
	cr_expect_eq(ret, 5);
	free(got);
}
