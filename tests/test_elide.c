/*
 * tests/test_elide.c: base/elide against brute-force readings of its
 * contract: the cut fits its width, shows its parts in order, keeps a
 * name that fits whole, keeps the characters asked for in view, and keeps
 * families of names that differ only in their middles apart (the hta
 * trace_diff pair's split_embedding kernels: cta/warp, 2ul/5ul).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/elide.h"

/* What the cut shows, with mark between the parts. */
static void
shown(const char *s, const struct elide_cut *c, const char *mark, char *out, size_t n)
{
	size_t len = 0;

	out[0] = '\0';
	for (size_t i = 0; i < c->nparts; i++) {
		size_t k = c->part[i].to - c->part[i].from;

		if (i > 0)
			len += (size_t)snprintf(out + len, n - len, "%s", mark);
		cr_assert_lt(len + k, n);
		memcpy(out + len, s + c->part[i].from, k);
		len += k;
		out[len] = '\0';
	}
}

/* The parts are in order, apart, and within s; the first starts s, the last ends it. */
static void
check_parts(const char *s, const struct elide_cut *c)
{
	cr_assert_gt(c->nparts, 0);
	cr_assert_eq(c->part[0].from, 0);
	cr_assert_eq(c->part[c->nparts - 1].to, strlen(s));
	for (size_t i = 0; i < c->nparts; i++) {
		cr_assert_leq(c->part[i].from, c->part[i].to);
		if (i > 0)
			cr_assert_lt(c->part[i - 1].to, c->part[i].from, "part %zu of %s", i, s);
	}
}

Test(elide, fits_whole_or_cut_within_the_width)
{
	char name[200], out[400];
	struct elide_cut c;

	srand(7);
	for (int n = 0; n < 2000; n++) {
		size_t len = (size_t)(rand() % 150), max = (size_t)(3 + rand() % 80);
		size_t keep = (size_t)rand() % (len + 1);

		for (size_t i = 0; i < len; i++)
			name[i] = (char)('a' + rand() % 3);
		name[len] = '\0';
		if (elide_plan(name, max, 1, &keep, 1, &c)) {
			cr_assert_gt(len, max);
			cr_assert_leq(c.cols, max, "%zu columns of %zu", c.cols, max);
			check_parts(name, &c);
			shown(name, &c, "~", out, sizeof out);
			cr_assert_eq(strlen(out), c.cols, "%s", out);
		} else {
			cr_assert_leq(len, max);
			cr_assert_eq(c.nparts, 1);
			cr_assert_eq(c.cols, len);
		}
	}
}

Test(elide, default_cut_is_start_and_end)
{
	struct elide_cut c;
	char out[64];

	cr_assert(elide_plan("abcdefghijklmnopqrstuvwxyz", 10, 1, NULL, 0, &c));
	shown("abcdefghijklmnopqrstuvwxyz", &c, "~", out, sizeof out);
	cr_assert_str_eq(out, "abcde~wxyz");    /* the start as long as the end, or one more */
	cr_assert_eq(c.cols, 10);
	/* a wide character takes two columns: it is not split */
	cr_assert(elide_plan("\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad", 5, 1,
	    NULL, 0, &c));
	cr_assert_leq(c.cols, 5);
}

/* One difference kept: the start runs on past it, or a middle shows it. */
Test(elide, a_kept_character_is_in_view)
{
	char name[300], out[400];
	struct elide_cut c;

	srand(11);
	for (int n = 0; n < 2000; n++) {
		size_t len = 60 + (size_t)(rand() % 200), max = (size_t)(20 + rand() % 60);
		size_t keep = (size_t)rand() % len;
		int seen = 0;

		for (size_t i = 0; i < len; i++)
			name[i] = (char)('a' + rand() % 26);
		name[len] = '\0';
		if (!elide_plan(name, max, 1, &keep, 1, &c))
			continue;
		cr_assert_leq(c.cols, max);
		check_parts(name, &c);
		for (size_t i = 0; i < c.nparts; i++)
			seen |= c.part[i].from <= keep && keep < c.part[i].to;
		shown(name, &c, "~", out, sizeof out);
		cr_assert(seen, "byte %zu of a %zu-byte name not in view in %zu columns: %s",
		    keep, len, max, out);
	}
}

/*
 * A family of names alike but for up to three places in their middles:
 * each cut with the keeps elide_keeps() gives against the others shows a
 * text no other shows.
 */
Test(elide, names_alike_stay_apart)
{
	static const char *const a[] = { "unweighted", "weighted" };
	static const char *const b[] = { "cta_per_row", "warp_per_row" };
	static const char *const k[] = { "2ul", "5ul" };
	char names[8][400], out[8][400];
	const char *p[8];
	size_t keeps[ELIDE_PARTS], nk;
	struct elide_cut c;

	for (int i = 0; i < 8; i++) {
		snprintf(names[i], sizeof names[i], "void split_embedding_backward_codegen_"
		    "rowwise_adagrad_%s_kernel_%s_1<float, float, float, long, %s>("
		    "at::GenericPackedTensorAccessor<float, 1ul, at::RestrictPtrTraits, "
		    "long>, float, float, float, long)", a[i & 1], b[(i >> 1) & 1], k[i >> 2]);
		p[i] = names[i];
	}
	for (size_t max = 40; max <= 100; max += 5) {
		for (int i = 0; i < 8; i++) {
			nk = elide_keeps(names[i], p, 8, max, 1, keeps, ELIDE_PARTS);
			/* u/w, cta/warp and 2ul/5ul: three places */
			cr_assert_eq(nk, 3, "name %d at %zu columns: %zu keeps", i, max, nk);
			elide_plan(names[i], max, 1, keeps, nk, &c);
			cr_assert_leq(c.cols, max);
			check_parts(names[i], &c);
			shown(names[i], &c, "~", out[i], sizeof out[i]);
		}
		for (int i = 0; i < 8; i++)
			for (int j = 0; j < i; j++)
				cr_expect_str_neq(out[i], out[j], "at %zu columns: %s", max, out[i]);
	}
}

Test(elide, differs_at_a_character_start)
{
	cr_assert_eq(elide_differs_at("abcx", "abcy"), 3);
	cr_assert_eq(elide_differs_at("abc", "abc"), 3);
	/* U+00E9 against U+00E8: the same lead byte, the difference is in the character */
	cr_assert_eq(elide_differs_at("ab\xc3\xa9", "ab\xc3\xa8"), 2);
	/* names shown whole need no keeps */
	{
		const char *o[] = { "abcx" };
		size_t keeps[2];

		cr_assert_eq(elide_keeps("abcy", o, 1, 10, 1, keeps, 2), 0);
	}
}
