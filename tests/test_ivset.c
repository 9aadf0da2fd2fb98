#include "config.h"

#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/ivset.h"
#include "base/xalloc.h"
#include "testrng.h"

/*
 * The oracle: a set over the small domain [0, DOM) as one bool per
 * nanosecond.  Random sets stay inside the domain; windows reach past it.
 */
#define DOM 2000

/*
 * Fills iv with m random intervals in [0, DOM): some empty or inverted, some
 * touching the one before, in random order; marks the valid ones in bits.
 */
static size_t
random_ivals(uint64_t *rng, struct ival *iv, size_t maxn, bool *bits)
{
	size_t m = (size_t)rng_below(rng, (int64_t)maxn + 1);
	int64_t width = 1 + rng_below(rng, 200);

	memset(bits, 0, DOM * sizeof *bits);
	for (size_t i = 0; i < m; i++) {
		int64_t r = rng_below(rng, 100), s, e;

		s = rng_below(rng, DOM);
		if (r >= 20 && r < 40 && i > 0 && iv[i - 1].end_ns < DOM &&
		    iv[i - 1].start_ns < iv[i - 1].end_ns)
			s = iv[i - 1].end_ns;           /* touching */
		e = s + 1 + rng_below(rng, width);
		if (r < 10)
			e = s;                          /* empty */
		else if (r < 20)
			e = s - 1 - rng_below(rng, 50); /* inverted */
		if (e > DOM)
			e = DOM;
		iv[i] = (struct ival){ s, e };
		for (int64_t t = s; t < e; t++)
			bits[t] = true;
	}
	return m;
}

/*
 * Builds s from up to maxn (at most 80) random intervals of random_ivals(),
 * marking its points in bits.
 */
static void
random_set(uint64_t *rng, size_t maxn, struct ivset *s, bool *bits)
{
	struct ival iv[80];

	ivset_build(s, iv, random_ivals(rng, iv, maxn, bits));
}

/* Checks the invariants of s and that it holds exactly bits. */
static void
check_set(const struct ivset *s, const bool *bits)
{
	bool got[DOM];
	int64_t total = 0;

	memset(got, 0, sizeof got);
	cr_assert_eq(s->prefix_ns[0], 0);
	for (size_t i = 0; i < s->n; i++) {
		cr_assert_lt(s->start_ns[i], s->end_ns[i], "interval %zu empty", i);
		if (i + 1 < s->n)
			cr_assert_lt(s->end_ns[i], s->start_ns[i + 1],
			    "intervals %zu and %zu touch or overlap", i, i + 1);
		cr_assert_eq(s->prefix_ns[i], total);
		total += s->end_ns[i] - s->start_ns[i];
		cr_assert_geq(s->start_ns[i], 0);
		cr_assert_leq(s->end_ns[i], DOM);
		for (int64_t t = s->start_ns[i]; t < s->end_ns[i]; t++)
			got[t] = true;
	}
	cr_assert_eq(s->prefix_ns[s->n], total);
	cr_assert_eq(ivset_total(s), total);
	for (int t = 0; t < DOM; t++)
		cr_assert_eq(got[t], bits[t], "at %d: set has %d, want %d", t,
		    got[t], bits[t]);
}

static int64_t
brute_measure(const bool *bits, int64_t a, int64_t b)
{
	int64_t m = 0;

	for (int64_t t = a < 0 ? 0 : a; t < b && t < DOM; t++)
		m += bits[t];
	return m;
}

static void
random_window(uint64_t *rng, int64_t *a, int64_t *b)
{
	int64_t r = rng_below(rng, 100);

	*a = rng_below(rng, DOM + 200) - 100;
	if (r < 5)
		*b = *a;
	else if (r < 10)
		*b = *a - rng_below(rng, 100);
	else if (r < 40)
		*b = *a + 1 + rng_below(rng, 20);
	else
		*b = *a + 1 + rng_below(rng, DOM);
}

Test(ivset, build_against_bits)
{
	bool bits[DOM];

	for (uint64_t seed = 1; seed <= 400; seed++) {
		uint64_t rng = seed * 0x9e3779b97f4a7c15ULL;
		struct ivset s;

		random_set(&rng, 80, &s, bits);
		check_set(&s, bits);
		ivset_free(&s);
	}
}

static int
by_start(const void *pa, const void *pb)
{
	const struct ival *a = pa, *b = pb;

	return (a->start_ns > b->start_ns) - (a->start_ns < b->start_ns);
}

/* ivset_begin/add/end on intervals sorted by start, against the bits. */
Test(ivset, streaming_build_against_bits)
{
	bool bits[DOM];
	struct ival iv[80];

	for (uint64_t seed = 1; seed <= 400; seed++) {
		uint64_t rng = seed * 0x9e3779b97f4a7c15ULL;
		size_t n = random_ivals(&rng, iv, 80, bits);
		struct ivset s;

		struct ivset_count c = { 0, 0 };

		qsort(iv, n, sizeof *iv, by_start);
		ivset_begin(&s, n);
		for (size_t i = 0; i < n; i++)
			ivset_add(&s, iv[i].start_ns, iv[i].end_ns);
		ivset_end(&s, n);
		check_set(&s, bits);
		/* the count is the set's size, so it can be the room it is built in */
		for (size_t i = 0; i < n; i++)
			ivset_count_add(&c, iv[i].start_ns, iv[i].end_ns);
		cr_assert_eq(c.n, s.n, "seed %llu: counted %zu, built %zu",
		    (unsigned long long)seed, c.n, s.n);
		ivset_free(&s);
		ivset_begin(&s, c.n);
		for (size_t i = 0; i < n; i++)
			ivset_add(&s, iv[i].start_ns, iv[i].end_ns);
		ivset_end(&s, c.n);
		check_set(&s, bits);
		ivset_free(&s);
	}
}

Test(ivset, build_merges_touching_and_drops_empty)
{
	struct ival iv[] = {
		{ 10, 20 }, { 0, 10 }, { 30, 30 }, { 40, 35 }, { 20, 25 },
		{ 50, 60 }, { 55, 58 }, { 61, 70 },
	};
	struct ivset s;

	ivset_build(&s, iv, sizeof iv / sizeof iv[0]);
	cr_assert_eq(s.n, 3);
	cr_assert_eq(s.start_ns[0], 0);
	cr_assert_eq(s.end_ns[0], 25);
	cr_assert_eq(s.start_ns[1], 50);
	cr_assert_eq(s.end_ns[1], 60);
	cr_assert_eq(s.start_ns[2], 61);        /* 60 and 61 do not touch */
	cr_assert_eq(s.end_ns[2], 70);
	cr_assert_eq(ivset_total(&s), 25 + 10 + 9);
	cr_assert_eq(s.prefix_ns[2], 35);
	ivset_free(&s);
}

Test(ivset, empty_sets)
{
	struct ival bad[] = { { 5, 5 }, { 9, 3 } };
	struct ivset s, z = { 0 };

	ivset_build(&s, bad, 2);
	cr_assert_eq(s.n, 0);
	cr_assert_eq(ivset_total(&s), 0);
	cr_assert_eq(ivset_measure(&s, 0, 100), 0);
	cr_assert_eq(ivset_find(&s, 4), 0);
	cr_assert_eq(ivset_holes(&s, 0, 100, 0, NULL, NULL), 1);
	ivset_free(&s);

	ivset_build(&s, NULL, 0);
	cr_assert_eq(s.n, 0);
	cr_assert_eq(ivset_total(&s), 0);
	ivset_free(&s);

	/* A zeroed set is an empty one. */
	cr_assert_eq(ivset_total(&z), 0);
	cr_assert_eq(ivset_measure(&z, INT64_MIN, INT64_MAX), 0);
	cr_assert_eq(ivset_find(&z, 0), 0);
	cr_assert_eq(ivset_holes(&z, 10, 20, 11, NULL, NULL), 0);
	cr_assert_eq(ivset_holes(&z, 10, 20, 10, NULL, NULL), 1);
	ivset_free(&z);
	ivset_free(&z);
}

Test(ivset, measure_against_bits)
{
	bool bits[DOM];

	for (uint64_t seed = 1; seed <= 200; seed++) {
		uint64_t rng = seed * 0xd1b54a32d192ed03ULL;
		struct ivset s;
		int64_t a, b;

		random_set(&rng, 80, &s, bits);
		for (int w = 0; w < 200; w++) {
			random_window(&rng, &a, &b);
			cr_assert_eq(ivset_measure(&s, a, b),
			    b <= a ? 0 : brute_measure(bits, a, b),
			    "seed %llu, window [%lld, %lld)",
			    (unsigned long long)seed, (long long)a, (long long)b);
		}
		cr_assert_eq(ivset_measure(&s, INT64_MIN, INT64_MAX),
		    brute_measure(bits, 0, DOM));
		ivset_free(&s);
	}
}

Test(ivset, measure_cuts_intervals)
{
	struct ival iv[] = { { 100, 200 }, { 300, 400 } };
	struct ivset s;

	ivset_build(&s, iv, 2);
	cr_assert_eq(ivset_measure(&s, 150, 350), 50 + 50);
	cr_assert_eq(ivset_measure(&s, 150, 160), 10);
	cr_assert_eq(ivset_measure(&s, 200, 300), 0);
	cr_assert_eq(ivset_measure(&s, 199, 301), 2);
	cr_assert_eq(ivset_measure(&s, 350, 350), 0);
	cr_assert_eq(ivset_measure(&s, 360, 340), 0);
	cr_assert_eq(ivset_measure(&s, 0, 1000), 200);
	ivset_free(&s);
}

Test(ivset, epoch_scale_times)
{
	int64_t base = INT64_C(1712195495505582988);
	struct ival iv[] = { { base, base + 1000 }, { base + 5000, base + 6000 } };
	struct ivset s;

	ivset_build(&s, iv, 2);
	cr_assert_eq(ivset_measure(&s, INT64_MIN, INT64_MAX), 2000);
	cr_assert_eq(ivset_measure(&s, base + 500, base + 5500), 1000);
	cr_assert_eq(ivset_measure(&s, INT64_MIN, base + 1), 1);
	/* The whole int64 line: a hole longer than INT64_MAX is still one. */
	cr_assert_eq(ivset_holes(&s, INT64_MIN, INT64_MAX, INT64_MAX, NULL,
	    NULL), 1);
	cr_assert_eq(ivset_holes(&s, INT64_MIN, INT64_MAX, 4000, NULL, NULL), 3);
	cr_assert_eq(ivset_holes(&s, INT64_MIN, INT64_MAX, 4001, NULL, NULL), 2);
	ivset_free(&s);
}

enum op { OP_UNION, OP_INTERSECT, OP_SUBTRACT };

Test(ivset, set_operations_against_bits)
{
	bool bx[DOM], by[DOM], want[DOM];

	for (uint64_t seed = 1; seed <= 300; seed++) {
		uint64_t rng = seed * 0xbf58476d1ce4e5b9ULL;
		struct ivset x, y, out;

		random_set(&rng, 60, &x, bx);
		random_set(&rng, 60, &y, by);
		for (int op = OP_UNION; op <= OP_SUBTRACT; op++) {
			for (int t = 0; t < DOM; t++)
				want[t] = op == OP_UNION ? bx[t] || by[t] :
				    op == OP_INTERSECT ? bx[t] && by[t] :
				    bx[t] && !by[t];
			if (op == OP_UNION)
				ivset_union(&out, &x, &y);
			else if (op == OP_INTERSECT)
				ivset_intersect(&out, &x, &y);
			else
				ivset_subtract(&out, &x, &y);
			check_set(&out, want);
			ivset_free(&out);
		}
		ivset_free(&x);
		ivset_free(&y);
	}
}

Test(ivset, set_operations_edges)
{
	struct ival a[] = { { 0, 10 }, { 20, 30 } };
	struct ival b[] = { { 10, 20 } };
	struct ival c[] = { { 5, 25 } };
	struct ivset x, y, z, e, out;

	ivset_build(&x, a, 2);
	ivset_build(&y, b, 1);
	ivset_build(&z, c, 1);
	ivset_build(&e, NULL, 0);

	/* Touching pieces from both sides merge into one. */
	ivset_union(&out, &x, &y);
	cr_assert_eq(out.n, 1);
	cr_assert_eq(out.start_ns[0], 0);
	cr_assert_eq(out.end_ns[0], 30);
	ivset_free(&out);

	/* Touching is not overlapping. */
	ivset_intersect(&out, &x, &y);
	cr_assert_eq(out.n, 0);
	ivset_free(&out);

	/* [5, 25) cut out of [0, 10) ∪ [20, 30). */
	ivset_subtract(&out, &x, &z);
	cr_assert_eq(out.n, 2);
	cr_assert_eq(out.start_ns[0], 0);
	cr_assert_eq(out.end_ns[0], 5);
	cr_assert_eq(out.start_ns[1], 25);
	cr_assert_eq(out.end_ns[1], 30);
	cr_assert_eq(ivset_total(&out), 10);
	ivset_free(&out);

	/* One y interval reaching over two x intervals. */
	ivset_subtract(&out, &z, &x);
	cr_assert_eq(out.n, 1);
	cr_assert_eq(out.start_ns[0], 10);
	cr_assert_eq(out.end_ns[0], 20);
	ivset_free(&out);

	ivset_union(&out, &e, &x);
	cr_assert_eq(out.n, 2);
	cr_assert_eq(ivset_total(&out), 20);
	ivset_free(&out);
	ivset_intersect(&out, &x, &e);
	cr_assert_eq(out.n, 0);
	ivset_free(&out);
	ivset_subtract(&out, &x, &e);
	cr_assert_eq(out.n, 2);
	ivset_free(&out);
	ivset_subtract(&out, &x, &x);
	cr_assert_eq(out.n, 0);
	cr_assert_eq(ivset_total(&out), 0);
	ivset_free(&out);

	ivset_free(&x);
	ivset_free(&y);
	ivset_free(&z);
	ivset_free(&e);
}

Test(ivset, find_against_scan)
{
	bool bits[DOM];

	for (uint64_t seed = 1; seed <= 100; seed++) {
		uint64_t rng = seed * 0x94d049bb133111ebULL;
		struct ivset s;

		random_set(&rng, 80, &s, bits);
		for (int64_t t = -3; t < DOM + 3; t++) {
			size_t want = 0;

			while (want < s.n && s.end_ns[want] <= t)
				want++;
			cr_assert_eq(ivset_find(&s, t), want, "t %lld",
			    (long long)t);
			/* In the set iff the found interval holds it. */
			cr_assert_eq(want < s.n && s.start_ns[want] <= t,
			    t >= 0 && t < DOM && bits[t]);
		}
		ivset_free(&s);
	}
}

struct holes {
	struct ival v[DOM];
	size_t n;
};

static void
collect(int64_t start_ns, int64_t end_ns, void *ctx)
{
	struct holes *h = ctx;

	cr_assert_lt(h->n, DOM);
	h->v[h->n++] = (struct ival){ start_ns, end_ns };
}

/* The maximal runs of the window [a, b) not in bits, at least min long. */
static void
brute_holes(const bool *bits, int64_t a, int64_t b, int64_t min,
    struct holes *h)
{
	int64_t t = a, s;

	h->n = 0;
	while (t < b) {
		if (t >= 0 && t < DOM && bits[t]) {
			t++;
			continue;
		}
		s = t;
		while (t < b && !(t >= 0 && t < DOM && bits[t]))
			t++;
		if (t - s >= min)
			h->v[h->n++] = (struct ival){ s, t };
	}
}

Test(ivset, holes_against_bits)
{
	static const int64_t mins[] = { 0, 1, 2, 5, 50, 200, 3000 };
	static struct holes got, want;
	bool bits[DOM];

	for (uint64_t seed = 1; seed <= 150; seed++) {
		uint64_t rng = seed * 0x2545f4914f6cdd1dULL;
		struct ivset s;
		size_t n;
		int64_t a, b, min;

		random_set(&rng, 80, &s, bits);
		for (int w = 0; w < 60; w++) {
			random_window(&rng, &a, &b);
			min = mins[rng_below(&rng, 7)];
			got.n = 0;
			n = ivset_holes(&s, a, b, min, collect, &got);
			if (b <= a)
				want.n = 0;
			else
				brute_holes(bits, a, b, min, &want);
			cr_assert_eq(n, got.n);
			cr_assert_eq(got.n, want.n, "seed %llu, [%lld, %lld) "
			    "min %lld: %zu holes, want %zu",
			    (unsigned long long)seed, (long long)a,
			    (long long)b, (long long)min, got.n, want.n);
			for (size_t i = 0; i < want.n; i++) {
				cr_assert_eq(got.v[i].start_ns, want.v[i].start_ns);
				cr_assert_eq(got.v[i].end_ns, want.v[i].end_ns);
			}
		}
		ivset_free(&s);
	}
}

Test(ivset, holes_min_filter)
{
	struct ival iv[] = { { 10, 20 }, { 25, 30 }, { 40, 50 } };
	static struct holes h;
	struct ivset s;

	/* Holes of [0, 60): [0,10) [20,25) [30,40) [50,60). */
	ivset_build(&s, iv, 3);
	cr_assert_eq(ivset_holes(&s, 0, 60, 0, collect, &h), 4);
	cr_assert_eq(h.v[1].start_ns, 20);
	cr_assert_eq(h.v[1].end_ns, 25);
	h.n = 0;
	cr_assert_eq(ivset_holes(&s, 0, 60, 6, collect, &h), 3);
	cr_assert_eq(h.v[0].start_ns, 0);
	cr_assert_eq(h.v[1].start_ns, 30);
	cr_assert_eq(h.v[2].end_ns, 60);
	h.n = 0;
	cr_assert_eq(ivset_holes(&s, 0, 60, 10, collect, &h), 3);   /* >= */
	cr_assert_eq(ivset_holes(&s, 0, 60, 11, NULL, NULL), 0);
	/* A window starting and ending inside intervals. */
	h.n = 0;
	cr_assert_eq(ivset_holes(&s, 15, 45, 0, collect, &h), 2);
	cr_assert_eq(h.v[0].start_ns, 20);
	cr_assert_eq(h.v[0].end_ns, 25);
	cr_assert_eq(h.v[1].start_ns, 30);
	cr_assert_eq(h.v[1].end_ns, 40);
	/* A window cut inside a hole. */
	h.n = 0;
	cr_assert_eq(ivset_holes(&s, 32, 35, 0, collect, &h), 1);
	cr_assert_eq(h.v[0].start_ns, 32);
	cr_assert_eq(h.v[0].end_ns, 35);
	cr_assert_eq(ivset_holes(&s, 12, 18, 0, NULL, NULL), 0);
	cr_assert_eq(ivset_holes(&s, 35, 35, 0, NULL, NULL), 0);
	cr_assert_eq(ivset_holes(&s, 35, 30, 0, NULL, NULL), 0);
	ivset_free(&s);
}
