#include "config.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/itree.h"
#include "model/trace.h"
#include "base/xalloc.h"
#include "testrng.h"

/* The definition, written out plainly: the oracle. */
static int
overlaps(const struct event *e, int64_t a, int64_t b)
{
	if (b <= a)
		return 0;
	if (e->dur_ns == 0)
		return a <= e->ts_ns && e->ts_ns < b;
	return e->ts_ns < b && e->ts_ns + e->dur_ns > a;
}

static int
by_ts(const void *pa, const void *pb)
{
	const struct event *a = pa, *b = pb;

	if (a->ts_ns != b->ts_ns)
		return a->ts_ns < b->ts_ns ? -1 : 1;
	return 0;
}

/*
 * Checks one window against a scan: the same indices, in increasing order,
 * appended after what *out already held, and the same count.
 */
static void
check_window(const struct itree *t, const struct event *ev, uint32_t n,
    int64_t a, int64_t b)
{
	uint32_t *out = NULL;
	size_t len, cap = 0, got, want = 0, k;

	/* Something already in the array must be kept. */
	xgrow(&out, &cap, 2, sizeof *out);
	out[0] = 77;
	out[1] = 78;
	len = 2;
	got = itree_overlap(t, ev, a, b, &out, &len, &cap);
	cr_assert_eq(len, 2 + got);
	cr_assert_eq(out[0], 77);
	cr_assert_eq(out[1], 78);
	k = 2;
	for (uint32_t i = 0; i < n; i++) {
		if (!overlaps(&ev[i], a, b))
			continue;
		want++;
		cr_assert_lt(k, len, "window [%lld, %lld): event %u missing "
		    "(n %u)", (long long)a, (long long)b, i, n);
		cr_assert_eq(out[k], i, "window [%lld, %lld): got %u, want %u "
		    "(n %u)", (long long)a, (long long)b, out[k], i, n);
		k++;
	}
	cr_assert_eq(got, want, "window [%lld, %lld): %zu found, want %zu",
	    (long long)a, (long long)b, got, want);
	cr_assert_eq(itree_count(t, ev, a, b), want);
	free(out);
}

/* Fills ev[0..n) with random events over [base, base + span), sorted. */
static void
random_events(uint64_t *rng, struct event *ev, uint32_t n, int64_t base,
    int64_t span)
{
	int64_t typical = span / (n + 1) * 4 + 1;

	memset(ev, 0, n * sizeof *ev);
	for (uint32_t i = 0; i < n; i++) {
		int64_t r = rng_below(rng, 100);

		ev[i].ts_ns = base + rng_below(rng, span);
		if (r < 25)
			ev[i].dur_ns = 0;
		else if (r < 80)
			ev[i].dur_ns = 1 + rng_below(rng, typical);
		else if (r < 97)
			ev[i].dur_ns = 1 + rng_below(rng, typical * 20);
		else
			ev[i].dur_ns = 1 + rng_below(rng, span);
	}
	qsort(ev, n, sizeof *ev, by_ts);
}

/* A random window around [base, base + span), sometimes empty or inverted. */
static void
random_window(uint64_t *rng, int64_t base, int64_t span, int64_t *a,
    int64_t *b)
{
	int64_t r = rng_below(rng, 100);

	*a = base - span / 10 + rng_below(rng, span + span / 5);
	if (r < 5)
		*b = *a;
	else if (r < 10)
		*b = *a - 1 - rng_below(rng, 100);
	else if (r < 50)
		*b = *a + 1 + rng_below(rng, 3);
	else if (r < 90)
		*b = *a + 1 + rng_below(rng, span / 20 + 1);
	else
		*b = *a + 1 + rng_below(rng, span);
}

/* The largest end in [lo, hi] ∩ [0, n), a zero-length event ending at s + 1. */
static int64_t
brute_maxend(const struct event *ev, uint64_t n, uint64_t lo, uint64_t hi)
{
	int64_t m = INT64_MIN;

	for (uint64_t i = lo; i <= hi && i < n; i++) {
		int64_t e = ev[i].ts_ns + (ev[i].dur_ns > 0 ? ev[i].dur_ns : 1);

		if (e > m)
			m = e;
	}
	return m;
}

Test(itree, maxend_matches_definition)
{
	uint64_t rng = 0x1234567;
	struct event *ev = xcalloc(300, sizeof *ev);

	for (uint32_t n = 1; n <= 300; n++) {
		struct itree t;
		int levels = 0;

		random_events(&rng, ev, n, 0, 10000);
		itree_build(&t, ev, n);
		cr_assert_eq(t.n, n);
		while (((uint64_t)2 << levels) <= n)
			levels++;
		cr_assert_eq(t.max_level, levels, "n %u: root level %d, want %d",
		    n, t.max_level, levels);
		cr_assert((t.maxend_ns == NULL) == (n < 8));
		for (uint64_t i = 0; i < n; i++) {
			int k = 0;

			while ((i >> k) & 1)
				k++;
			if (k < ITREE_BLOCK_LEVEL)
				continue;       /* in a block: scanned, not kept */
			cr_assert_lt(i >> ITREE_BLOCK_LEVEL, itree_slots(n));
			cr_assert_eq(t.maxend_ns[i >> ITREE_BLOCK_LEVEL], brute_maxend(ev, n,
			    i - (((uint64_t)1 << k) - 1), i + (((uint64_t)1 << k) - 1)),
			    "n %u, node %llu (level %d)", n, (unsigned long long)i, k);
		}
		itree_free(&t);
	}
	free(ev);
}

/* A shifted index is the index of the shifted events, slot for slot. */
Test(itree, shift_equals_a_rebuild)
{
	static const uint32_t sizes[] = { 0, 1, 7, 8, 9, 15, 16, 100, 1025 };
	static const int64_t offs[] = { 5000000, -5000000, 1 };
	struct event *ev = xcalloc(1025, sizeof *ev);

	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		for (size_t o = 0; o < sizeof offs / sizeof offs[0]; o++) {
			uint64_t rng = 0x51f7 + s * 31 + o;
			uint32_t n = sizes[s];
			struct itree t, want;

			random_events(&rng, ev, n, 1000000000, 100000);
			itree_build(&t, ev, n);
			for (uint32_t i = 0; i < n; i++)
				ev[i].ts_ns += offs[o];
			itree_shift(&t, offs[o]);
			itree_build(&want, ev, n);
			cr_assert_eq(t.n, want.n);
			cr_assert_eq(t.max_level, want.max_level);
			for (uint64_t k = 0; k < itree_slots(n); k++)
				cr_assert_eq(t.maxend_ns[k], want.maxend_ns[k],
				    "n %u, slot %llu", n, (unsigned long long)k);
			itree_free(&t);
			itree_free(&want);
		}
	}
	free(ev);
}

Test(itree, random_against_scan)
{
	static const uint32_t sizes[] = { 2, 3, 7, 8, 9, 15, 16, 17, 31, 33,
	    100, 255, 256, 257, 1000, 1023, 1025, 4099 };
	struct event *ev = xcalloc(4099, sizeof *ev);

	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		for (uint64_t seed = 1; seed <= 4; seed++) {
			uint64_t rng = seed * 0x9e3779b97f4a7c15ULL;
			/* Also epoch-scale times, as in real traces. */
			int64_t base = seed % 2 ? 0 : INT64_C(1700000000000000000);
			int64_t span = 100000, a, b;
			uint32_t n = sizes[s];
			struct itree t;

			random_events(&rng, ev, n, base, span);
			itree_build(&t, ev, n);
			for (int w = 0; w < 300; w++) {
				random_window(&rng, base, span, &a, &b);
				check_window(&t, ev, n, a, b);
			}
			itree_free(&t);
		}
	}
	free(ev);
}

Test(itree, empty)
{
	struct itree t;
	uint32_t *out = NULL;
	size_t len = 0, cap = 0;

	itree_build(&t, NULL, 0);
	cr_assert_eq(t.n, 0);
	cr_assert_eq(itree_overlap(&t, NULL, INT64_MIN, INT64_MAX, &out, &len,
	    &cap), 0);
	cr_assert_eq(len, 0);
	cr_assert_null(out);
	cr_assert_eq(itree_count(&t, NULL, 0, 100), 0);
	itree_free(&t);
	itree_free(&t);         /* a freed index may be freed again */
}

Test(itree, one_event)
{
	struct event ev = { .ts_ns = 5, .dur_ns = 10 };     /* [5, 15) */
	struct itree t;

	itree_build(&t, &ev, 1);
	cr_assert_eq(itree_count(&t, &ev, 0, 5), 0);
	cr_assert_eq(itree_count(&t, &ev, 0, 6), 1);
	cr_assert_eq(itree_count(&t, &ev, 14, 20), 1);
	cr_assert_eq(itree_count(&t, &ev, 15, 20), 0);
	cr_assert_eq(itree_count(&t, &ev, 7, 8), 1);
	itree_free(&t);

	ev.dur_ns = 0;                                      /* an instant at 5 */
	itree_build(&t, &ev, 1);
	cr_assert_eq(itree_count(&t, &ev, 5, 6), 1);
	cr_assert_eq(itree_count(&t, &ev, 4, 5), 0);
	cr_assert_eq(itree_count(&t, &ev, 0, 100), 1);
	cr_assert_eq(itree_count(&t, &ev, 6, 100), 0);
	cr_assert_eq(itree_count(&t, &ev, 5, 5), 0);
	itree_free(&t);
}

Test(itree, all_zero_length)
{
	uint64_t rng = 99;
	struct event ev[500] = { { 0 } };
	struct itree t;

	/* Instants at 0, 0, 20, 30, 40, 50, 60, 70, 70, 90, ... */
	for (int i = 0; i < 500; i++)
		ev[i].ts_ns = (i - (i % 7 == 1)) * 10;
	itree_build(&t, ev, 500);
	cr_assert_eq(itree_count(&t, ev, 0, 1), 2);
	cr_assert_eq(itree_count(&t, ev, 1, 20), 0);
	cr_assert_eq(itree_count(&t, ev, 20, 21), 1);
	cr_assert_eq(itree_count(&t, ev, 19, 20), 0);
	cr_assert_eq(itree_count(&t, ev, 70, 71), 2);
	cr_assert_eq(itree_count(&t, ev, 61, 80), 2);
	cr_assert_eq(itree_count(&t, ev, 0, 5000), 500);
	cr_assert_eq(itree_count(&t, ev, 4990, 4991), 1);
	for (int w = 0; w < 2000; w++) {
		int64_t a = rng_below(&rng, 5100) - 50;

		check_window(&t, ev, 500, a, a + rng_below(&rng, 60));
	}
	itree_free(&t);
}

Test(itree, touching_ends)
{
	struct event ev[2] = {
		{ .ts_ns = 0, .dur_ns = 10 },
		{ .ts_ns = 10, .dur_ns = 10 },
	};
	struct itree t;
	uint32_t *out = NULL;
	size_t len = 0, cap = 0;

	itree_build(&t, ev, 2);
	cr_assert_eq(itree_overlap(&t, ev, 10, 11, &out, &len, &cap), 1);
	cr_assert_eq(out[0], 1);
	len = 0;
	cr_assert_eq(itree_overlap(&t, ev, 9, 10, &out, &len, &cap), 1);
	cr_assert_eq(out[0], 0);
	len = 0;
	cr_assert_eq(itree_overlap(&t, ev, 9, 11, &out, &len, &cap), 2);
	cr_assert_eq(out[0], 0);
	cr_assert_eq(out[1], 1);
	cr_assert_eq(itree_count(&t, ev, 20, 30), 0);
	free(out);
	itree_free(&t);
}

Test(itree, empty_and_inverted_windows)
{
	struct event ev[3] = {
		{ .ts_ns = 0, .dur_ns = 100 },
		{ .ts_ns = 5, .dur_ns = 0 },
		{ .ts_ns = 5, .dur_ns = 10 },
	};
	struct itree t;
	uint32_t *out = NULL;
	size_t len = 0, cap = 0;

	itree_build(&t, ev, 3);
	cr_assert_eq(itree_overlap(&t, ev, 5, 5, &out, &len, &cap), 0);
	cr_assert_eq(itree_overlap(&t, ev, 6, 5, &out, &len, &cap), 0);
	cr_assert_eq(itree_overlap(&t, ev, INT64_MAX, INT64_MIN, &out, &len,
	    &cap), 0);
	cr_assert_eq(len, 0);
	cr_assert_eq(itree_count(&t, ev, 5, 6), 3);
	free(out);
	itree_free(&t);
}

Test(itree, windows_outside)
{
	struct event ev[64];
	struct itree t;

	memset(ev, 0, sizeof ev);
	for (int i = 0; i < 64; i++) {
		ev[i].ts_ns = 1000 + i * 10;
		ev[i].dur_ns = i % 3 == 0 ? 0 : 15;
	}
	itree_build(&t, ev, 64);
	cr_assert_eq(itree_count(&t, ev, 0, 1000), 0);
	cr_assert_eq(itree_count(&t, ev, INT64_MIN, 1000), 0);
	cr_assert_eq(itree_count(&t, ev, 1000 + 63 * 10 + 15, INT64_MAX), 0);
	/* The last two are [1620, 1635) and the instant at 1630. */
	cr_assert_eq(itree_count(&t, ev, 1634, INT64_MAX), 1);
	cr_assert_eq(itree_count(&t, ev, 1630, INT64_MAX), 2);
	cr_assert_eq(itree_count(&t, ev, 1635, INT64_MAX), 0);
	cr_assert_eq(itree_count(&t, ev, INT64_MIN, INT64_MAX), 64);
	cr_assert_eq(itree_count(&t, ev, INT64_MIN, INT64_MIN + 1), 0);
	cr_assert_eq(itree_count(&t, ev, INT64_MAX - 1, INT64_MAX), 0);
	itree_free(&t);
}

Test(itree, huge_narrow_windows)
{
	uint32_t n = 200000;
	uint64_t rng = 42;
	struct event *ev = xcalloc(n, sizeof *ev);
	struct itree t;
	int64_t span = (int64_t)n * 100, a, b;

	random_events(&rng, ev, n, INT64_C(1700000000000000000), span);
	itree_build(&t, ev, n);
	for (int w = 0; w < 300; w++) {
		a = INT64_C(1700000000000000000) + rng_below(&rng, span);
		b = a + 1 + rng_below(&rng, 500);
		check_window(&t, ev, n, a, b);
	}
	/* The whole range, once. */
	check_window(&t, ev, n, INT64_MIN, INT64_MAX);
	itree_free(&t);
	free(ev);
}

Test(itree, identical_starts)
{
	uint64_t rng = 7;
	struct event ev[1000];
	struct itree t;

	/* All at 100, longest first as trace_finalize() sorts them. */
	memset(ev, 0, sizeof ev);
	for (int i = 0; i < 1000; i++) {
		ev[i].ts_ns = 100;
		ev[i].dur_ns = 1000 - i;
	}
	ev[999].dur_ns = 0;
	itree_build(&t, ev, 1000);
	cr_assert_eq(itree_count(&t, ev, 100, 101), 1000);
	cr_assert_eq(itree_count(&t, ev, 0, 100), 0);
	cr_assert_eq(itree_count(&t, ev, 101, 102), 999);   /* not the instant */
	cr_assert_eq(itree_count(&t, ev, 600, 601), 500);   /* dur > 500 */
	cr_assert_eq(itree_count(&t, ev, 1099, 2000), 1);
	for (int w = 0; w < 500; w++) {
		int64_t a = rng_below(&rng, 1200);

		check_window(&t, ev, 1000, a, a + rng_below(&rng, 50));
	}
	itree_free(&t);
}

Test(itree, one_long_event_over_many_short)
{
	uint32_t n = 100001;
	uint64_t rng = 5;
	struct event *ev = xcalloc(n, sizeof *ev);
	struct itree t;
	uint32_t *out = NULL;
	size_t len = 0, cap = 0;

	/* [0, 1e9) first, then [i*1000, i*1000 + 10) for i >= 1. */
	ev[0].dur_ns = 1000000000;
	for (uint32_t i = 1; i < n; i++) {
		ev[i].ts_ns = (int64_t)i * 1000;
		ev[i].dur_ns = 10;
	}
	itree_build(&t, ev, n);
	cr_assert_eq(itree_overlap(&t, ev, 500500, 500600, &out, &len, &cap), 1);
	cr_assert_eq(out[0], 0);
	len = 0;
	cr_assert_eq(itree_overlap(&t, ev, 500005, 500006, &out, &len, &cap), 2);
	cr_assert_eq(out[0], 0);
	cr_assert_eq(out[1], 500);
	cr_assert_eq(itree_count(&t, ev, 1000000000, INT64_MAX), 0);
	cr_assert_eq(itree_count(&t, ev, 999999999, INT64_MAX), 1);
	for (int w = 0; w < 200; w++) {
		int64_t a = rng_below(&rng, 110000000);

		check_window(&t, ev, n, a, a + rng_below(&rng, 5000));
	}
	free(out);
	itree_free(&t);
	free(ev);
}

/*
 * A few long events spread through many short ones that end early: the
 * maxend pruning must still find every long one and nothing else.
 */
Test(itree, scattered_long_events)
{
	uint32_t n = 65537;
	struct event *ev = xcalloc(n, sizeof *ev);
	struct itree t;
	uint32_t *out = NULL;
	size_t len = 0, cap = 0;

	for (uint32_t i = 0; i < n; i++) {
		ev[i].ts_ns = i;
		ev[i].dur_ns = i % 4096 == 17 ? 10000000 : 2;
	}
	itree_build(&t, ev, n);
	cr_assert_eq(itree_overlap(&t, ev, 5000000, 5000001, &out, &len, &cap),
	    16);
	for (size_t i = 0; i < len; i++)
		cr_assert_eq(out[i], 17 + 4096 * i);
	check_window(&t, ev, n, 70000, 80000);
	check_window(&t, ev, n, 40000, 40001);
	free(out);
	itree_free(&t);
	free(ev);
}
