/*
 * utf8: utf8_valid_len() against a brute-force oracle, the set of the
 * encodings of every Unicode scalar value, over all 1-, 2- and 3-byte
 * inputs and all or random 4-byte ones.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "testrng.h"

/* The encoding of scalar value cp as Unicode's table 3-6 lays out its bits. */
static size_t
encode(uint32_t cp, unsigned char *b)
{
	if (cp <= 0x7f) {
		b[0] = (unsigned char)cp;
		return 1;
	}
	if (cp <= 0x7ff) {
		b[0] = (unsigned char)(0xc0 | cp >> 6);
		b[1] = (unsigned char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp <= 0xffff) {
		b[0] = (unsigned char)(0xe0 | cp >> 12);
		b[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		b[2] = (unsigned char)(0x80 | (cp & 0x3f));
		return 3;
	}
	b[0] = (unsigned char)(0xf0 | cp >> 18);
	b[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
	b[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
	b[3] = (unsigned char)(0x80 | (cp & 0x3f));
	return 4;
}

/* Every well-formed sequence, by length: byte tables and a sorted array. */
static uint8_t valid1[1 << 8], valid2[1 << 16];
static uint8_t *valid3;                 /* bit set of 1 << 24 */
static uint32_t *valid4;                /* big-endian values, ascending */
static size_t nvalid4;

static void
setup(void)
{
	valid3 = calloc((size_t)1 << 21, 1);
	valid4 = malloc(((size_t)0x110000 - 0x10000) * sizeof *valid4);
	cr_assert(valid3 != NULL && valid4 != NULL);
	for (uint32_t cp = 0; cp <= 0x10ffff; cp++) {
		unsigned char b[4];
		size_t n;

		if (cp >= 0xd800 && cp <= 0xdfff)
			continue;       /* surrogates are no scalar values */
		n = encode(cp, b);
		if (n == 1) {
			valid1[b[0]] = 1;
		} else if (n == 2) {
			valid2[b[0] << 8 | b[1]] = 1;
		} else if (n == 3) {
			uint32_t v = (uint32_t)b[0] << 16 | (uint32_t)b[1] << 8 | b[2];

			valid3[v >> 3] |= (uint8_t)(1u << (v & 7));
		} else {
			/* encoding keeps code point order: the array is sorted */
			valid4[nvalid4++] = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
			    (uint32_t)b[2] << 8 | b[3];
		}
	}
}

static void
teardown(void)
{
	free(valid3);
	free(valid4);
}

TestSuite(utf8, .init = setup, .fini = teardown);

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Whether the k bytes at s are the encoding of a scalar value. */
static int
oracle_valid(const unsigned char *s, size_t k)
{
	uint32_t v;

	switch (k) {
	case 1:
		return valid1[s[0]];
	case 2:
		return valid2[s[0] << 8 | s[1]];
	case 3:
		v = (uint32_t)s[0] << 16 | (uint32_t)s[1] << 8 | s[2];
		return valid3[v >> 3] >> (v & 7) & 1;
	default:
		v = (uint32_t)s[0] << 24 | (uint32_t)s[1] << 16 |
		    (uint32_t)s[2] << 8 | s[3];
		return bsearch(&v, valid4, nvalid4, sizeof v, cmp_u32) != NULL;
	}
}

/* The length of the well-formed sequence the n bytes at s start with, or 0. */
static size_t
oracle_len(const unsigned char *s, size_t n)
{
	for (size_t k = 1; k <= n && k <= 4; k++)
		if (oracle_valid(s, k))
			return k;       /* UTF-8 is prefix-free: no other k fits */
	return 0;
}

/* Checks utf8_valid_len() on the n bytes at s (at most 4) against the oracle. */
static void
check(const unsigned char *s, size_t n)
{
	uint32_t cp = 0xdeadbeef;
	size_t want = oracle_len(s, n), got = utf8_valid_len(s, n, &cp);
	unsigned char b[4];

	if (got == want && (got == 0 ? cp == 0xdeadbeef :
	    encode(cp, b) == got && memcmp(b, s, got) == 0))
		return;
	cr_assert_fail("%02x %02x %02x %02x (n %zu): got %zu (U+%04X), want %zu",
	    s[0], n > 1 ? s[1] : 0, n > 2 ? s[2] : 0, n > 3 ? s[3] : 0, n,
	    got, (unsigned)cp, want);
}

Test(utf8, named_cases)
{
	static const struct {
		const char *s;
		size_t n, len;
	} cases[] = {
		{ "A", 1, 1 },
		{ "\x00", 1, 1 },
		{ "\xc2\xa9", 2, 2 },                   /* U+00A9 */
		{ "\xe2\x82\xac", 3, 3 },               /* U+20AC */
		{ "\xf0\x9f\x98\x80", 4, 4 },           /* U+1F600 */
		{ "\xf4\x8f\xbf\xbf", 4, 4 },           /* U+10FFFF */
		{ "\xed\x9f\xbf", 3, 3 },               /* U+D7FF */
		{ "\xee\x80\x80", 3, 3 },               /* U+E000 */
		{ "\x80", 1, 0 },                       /* a stray continuation */
		{ "\xc0\x80", 2, 0 },                   /* overlong NUL */
		{ "\xc1\xbf", 2, 0 },                   /* overlong U+007F */
		{ "\xe0\x9f\xbf", 3, 0 },               /* overlong U+07FF */
		{ "\xf0\x8f\xbf\xbf", 4, 0 },           /* overlong U+FFFF */
		{ "\xed\xa0\x80", 3, 0 },               /* U+D800, a surrogate */
		{ "\xed\xbf\xbf", 3, 0 },               /* U+DFFF */
		{ "\xf4\x90\x80\x80", 4, 0 },           /* U+110000 */
		{ "\xf5\x80\x80\x80", 4, 0 },
		{ "\xff", 1, 0 },
		{ "\xe2\x82", 2, 0 },                   /* cut short */
		{ "\xe2\x82\xac", 2, 0 },               /* cut short by n */
		{ "\xc2\xa9\x80", 3, 2 },               /* only the first sequence */
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		cr_expect_eq(utf8_valid_len((const unsigned char *)cases[i].s,
		    cases[i].n, NULL), cases[i].len, "case %zu", i);
}

Test(utf8, all_one_and_two_byte_inputs)
{
	unsigned char s[2];

	for (unsigned a = 0; a < 256; a++) {
		s[0] = (unsigned char)a;
		check(s, 1);
		for (unsigned b = 0; b < 256; b++) {
			s[1] = (unsigned char)b;
			check(s, 2);
		}
	}
}

/* Also as NUL-terminated strings (n = SIZE_MAX): a NUL ends a sequence. */
Test(utf8, all_three_byte_inputs)
{
	unsigned char s[4] = { 0 };

	for (uint32_t v = 0; v < (1u << 24); v++) {
		s[0] = (unsigned char)(v >> 16);
		s[1] = (unsigned char)(v >> 8);
		s[2] = (unsigned char)v;
		check(s, 3);
		if (utf8_valid_len(s, SIZE_MAX, NULL) != oracle_len(s, 4))
			cr_assert_fail("%02x %02x %02x 00 (n SIZE_MAX)", s[0], s[1], s[2]);
	}
}

/* Every lead byte from 0xf0 with continuation bytes, then random inputs. */
Test(utf8, four_byte_inputs)
{
	unsigned char s[4];
	uint64_t rng = 0x9e3779b97f4a7c15ull;

	for (uint32_t v = 0; v < (8u << 18); v++) {
		s[0] = (unsigned char)(0xf0 | v >> 18);
		s[1] = (unsigned char)(0x80 | (v >> 12 & 0x3f));
		s[2] = (unsigned char)(0x80 | (v >> 6 & 0x3f));
		s[3] = (unsigned char)(0x80 | (v & 0x3f));
		check(s, 4);
	}
	for (int i = 0; i < 4000000; i++) {
		uint64_t r = rng_next(&rng);

		memcpy(s, &r, 4);
		if (i % 2 == 0) {
			/* near the edges: a 4-byte lead, mostly continuations */
			s[0] = (unsigned char)(0xf0 | (s[0] & 0x07));
			for (int k = 1; k < 4; k++)
				if ((r >> (32 + k * 8) & 0xf) != 0)
					s[k] = (unsigned char)(0x80 | (s[k] & 0x3f));
		}
		check(s, 4);
	}
}
