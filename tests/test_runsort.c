#include "config.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/runsort.h"
#include "testrng.h"

/*
 * The oracle: qsort() by (key, seq), seq being the input position, which is
 * what a stable sort by key alone must give.  runsort sorts by key only.
 */
struct item {
	int64_t key;
	uint32_t seq;
	char pad[12];           /* an odd element size: 24 bytes, as act_key */
};

static int
by_key(const void *pa, const void *pb)
{
	const struct item *a = pa, *b = pb;

	return (a->key > b->key) - (a->key < b->key);
}

static int
by_key_seq(const void *pa, const void *pb)
{
	const struct item *a = pa, *b = pb;

	if (a->key != b->key)
		return (a->key > b->key) - (a->key < b->key);
	return (a->seq > b->seq) - (a->seq < b->seq);
}

static int
by_i64(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;

	return (a > b) - (a < b);
}

enum shape { RANDOM, SORTED, REVERSED, NEARLY, DUPS, RUNS, LOPSIDED };

/* Fills v[0..n) in the shape, keys in [0, range). */
static void
fill(uint64_t *rng, struct item *v, size_t n, enum shape sh, int64_t range)
{
	size_t nruns = 1 + (size_t)rng_below(rng, 8), per = n / nruns + 1;

	for (size_t i = 0; i < n; i++) {
		switch (sh) {
		case RANDOM:
			v[i].key = rng_below(rng, range);
			break;
		case SORTED:
			v[i].key = (int64_t)i * range / (int64_t)(n ? n : 1);
			break;
		case REVERSED:
			v[i].key = (int64_t)(n - i) * range / (int64_t)(n ? n : 1);
			break;
		case NEARLY:    /* sorted, then a few neighbours swapped below */
			v[i].key = (int64_t)i;
			break;
		case DUPS:
			v[i].key = rng_below(rng, 3);
			break;
		case LOPSIDED:  /* runs of 1/2, 1/4, ... of the array, or the reverse */
			v[i].key = rng_below(rng, range);
			break;
		case RUNS:      /* a few sorted runs one after another */
			v[i].key = (int64_t)(i % per) * 7 + rng_below(rng, 7);
			if (i % per > 0 && v[i].key < v[i - 1].key)
				v[i].key = v[i - 1].key;
			break;
		}
		memset(v[i].pad, 0x5a, sizeof v[i].pad);
	}
	if (sh == LOPSIDED) {
		/* runs of 1/2, 1/4, ... of the array, long to short (merged
		   backwards, through the right run) or short to long (forwards,
		   through the left) */
		size_t len[64], nlen = 0, lo = 0;
		int up = rng_below(rng, 2) == 0;

		for (size_t rest = n; rest > 0 && nlen < 64; nlen++) {
			len[nlen] = nlen == 63 ? rest : rest / 2 + 1;
			rest -= len[nlen] < rest ? len[nlen] : rest;
		}
		for (size_t r = 0; r < nlen; r++) {
			size_t m = len[up ? nlen - 1 - r : r];

			m = lo + m <= n ? m : n - lo;
			qsort(v + lo, m, sizeof *v, by_key);
			lo += m;
		}
	}
	if (sh == NEARLY)
		for (size_t k = 0; n > 1 && k < n / 20 + 1; k++) {
			size_t i = (size_t)rng_below(rng, (int64_t)n - 1);
			struct item x = v[i];

			v[i] = v[i + 1];
			v[i + 1] = x;
		}
	for (size_t i = 0; i < n; i++)
		v[i].seq = (uint32_t)i;
}

static void
check(uint64_t *rng, size_t n, enum shape sh, int64_t range)
{
	struct item *v = malloc((n ? n : 1) * sizeof *v);
	struct item *o = malloc((n ? n : 1) * sizeof *o);

	fill(rng, v, n, sh, range);
	memcpy(o, v, n * sizeof *v);
	if (n > 0)
		qsort(o, n, sizeof *o, by_key_seq);
	runsort(v, n, sizeof *v, by_key);
	for (size_t i = 0; i < n; i++) {
		cr_assert_eq(v[i].key, o[i].key, "shape %d n %zu at %zu", sh, n, i);
		cr_assert_eq(v[i].seq, o[i].seq, "shape %d n %zu at %zu: not stable",
		    sh, n, i);
	}
	cr_assert_eq(memcmp(v, o, n * sizeof *v), 0);
	free(v);
	free(o);
}

Test(runsort, empty_and_one)
{
	struct item one = { .key = 5, .seq = 0 };

	runsort(NULL, 0, sizeof one, by_key);
	runsort(&one, 1, sizeof one, by_key);
	cr_assert_eq(one.key, 5);
}

Test(runsort, every_shape_against_qsort)
{
	uint64_t rng = 0x9e3779b97f4a7c15u;
	static const size_t sizes[] = { 0, 1, 2, 3, 5, 17, 100, 1000, 4099 };

	for (int sh = RANDOM; sh <= LOPSIDED; sh++)
		for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
			for (int rep = 0; rep < 8; rep++)
				check(&rng, sizes[s], (enum shape)sh,
				    rep & 1 ? 10 : INT64_C(1) << 40);
}

Test(runsort, plain_int64s)
{
	uint64_t rng = 42;
	int64_t v[777], o[777];

	for (int rep = 0; rep < 50; rep++) {
		size_t n = (size_t)rng_below(&rng, 778);

		for (size_t i = 0; i < n; i++)
			v[i] = rep & 1 ? rng_below(&rng, 50) - 25 :
			    (int64_t)(i % 97) - (int64_t)rng_below(&rng, 3);
		memcpy(o, v, sizeof v);
		qsort(o, n, sizeof *o, by_i64);
		runsort(v, n, sizeof *v, by_i64);
		cr_assert_eq(memcmp(v, o, n * sizeof *v), 0, "rep %d", rep);
	}
}

/* runsort_r(): indices sorted by the values they point to (the context). */
static int
by_value_at(const void *pa, const void *pb, void *ctx)
{
	const int64_t *v = ctx;
	int64_t a = v[*(const uint32_t *)pa], b = v[*(const uint32_t *)pb];

	return (a > b) - (a < b);
}

static int
by_u32(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	return (a > b) - (a < b);
}

Test(runsort, with_context_stably)
{
	uint64_t rng = 7;
	int64_t v[600];
	uint32_t idx[600], o[600];

	for (int rep = 0; rep < 30; rep++) {
		size_t n = (size_t)rng_below(&rng, 601);

		/* two runs of values, as two streams' keys */
		for (size_t i = 0; i < n; i++)
			v[i] = i < n / 2 ? (int64_t)i * 3 : (int64_t)(i - n / 2) * 2 +
			    rng_below(&rng, 2);
		for (size_t i = 0; i < n; i++)
			idx[i] = (uint32_t)i;
		runsort_r(idx, n, sizeof *idx, by_value_at, v);
		/* the oracle: for each value in order, its indices ascending */
		memcpy(o, idx, n * sizeof *o);
		qsort(o, n, sizeof *o, by_u32);
		for (size_t i = 0; i < n; i++)
			cr_assert_eq(o[i], i, "a permutation");
		for (size_t i = 1; i < n; i++) {
			cr_assert_leq(v[idx[i - 1]], v[idx[i]], "rep %d at %zu", rep, i);
			if (v[idx[i - 1]] == v[idx[i]])
				cr_assert_lt(idx[i - 1], idx[i], "stable, rep %d", rep);
		}
	}
}
