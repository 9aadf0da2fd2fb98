#include "config.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/bigarray.h"
#include "testrng.h"

/* The value item i of array generation g holds. */
static uint32_t
item(uint32_t g, size_t i)
{
	return (uint32_t)(i * 2654435761u) ^ g;
}

/*
 * The first growth takes BIGARRAY_FIRST bytes at once (no small blocks left
 * behind in malloc's heap); later ones double, as xgrow() does.
 */
Test(bigarray, first_growth_takes_a_megabyte)
{
	uint64_t *v = NULL;
	size_t cap = 0, first = BIGARRAY_FIRST / sizeof *v;

	bigarray_grow(&v, &cap, 1, sizeof *v);
	cr_assert_eq(cap, first, "first capacity %zu, want %zu", cap, first);
	v[0] = 7;
	bigarray_grow(&v, &cap, first, sizeof *v);
	cr_assert_eq(cap, first, "grown within its capacity");
	bigarray_grow(&v, &cap, first + 1, sizeof *v);
	cr_assert_eq(cap, 2 * first);
	cr_assert_eq(v[0], 7);
	bigarray_free(v, cap, sizeof *v);
}

/* Appended one by one past BIGARRAY_MIN: every item still there. */
Test(bigarray, appends_keep_every_item)
{
	uint32_t *v = NULL;
	size_t cap = 0, n = 3 * BIGARRAY_MIN / sizeof *v + 12345;

	for (size_t i = 0; i < n; i++) {
		bigarray_grow(&v, &cap, i + 1, sizeof *v);
		cr_assert_geq(cap, i + 1);
		v[i] = item(1, i);
	}
	for (size_t i = 0; i < n; i++)
		if (v[i] != item(1, i))
			cr_assert_fail("item %zu of %zu lost", i, n);
	bigarray_free(v, cap, sizeof *v);
}

/*
 * Resized at random across BIGARRAY_MIN both ways (malloc to mapping,
 * mapping to mapping, mapping to malloc, malloc to malloc, to 0), new
 * items written after each step: the kept ones are the oracle's.
 */
Test(bigarray, resizes_keep_the_prefix)
{
	uint64_t rng = 0x9e3779b97f4a7c15u;
	size_t max = 3 * BIGARRAY_MIN / sizeof(uint32_t);
	uint32_t *v = NULL, *want = calloc(max, sizeof *want);
	size_t cap = 0, n = 0;

	cr_assert_not_null(want);
	for (uint32_t step = 1; step <= 60; step++) {
		size_t m;

		switch (rng_below(&rng, 4)) {
		case 0:
			m = (size_t)rng_below(&rng, 4096);
			break;
		case 1:
			m = BIGARRAY_MIN / sizeof *v - 2 + (size_t)rng_below(&rng, 4);
			break;
		case 2:
			m = 0;
			break;
		default:
			m = (size_t)rng_below(&rng, (int64_t)max);
			break;
		}
		if (rng_below(&rng, 2) == 0 && m >= cap)
			bigarray_grow(&v, &cap, m, sizeof *v);
		else
			bigarray_resize(&v, &cap, m, sizeof *v);
		cr_assert_geq(cap, m);
		for (size_t i = 0; i < (n < m ? n : m); i++)
			if (v[i] != want[i])
				cr_assert_fail("step %u: item %zu of %zu lost (%zu -> %zu)",
				    step, i, n, n, m);
		for (size_t i = n < m ? n : m; i < m; i++)
			v[i] = want[i] = item(step, i);
		n = m;
	}
	bigarray_free(v, cap, sizeof *v);
	bigarray_free(NULL, 0, sizeof *v);
	free(want);
}

/* Freed at every kind of size: each block is given back the way it came. */
Test(bigarray, frees_at_every_size)
{
	size_t sizes[] = { 0, 1, BIGARRAY_MIN - 1, BIGARRAY_MIN,
	    BIGARRAY_MIN + 1, 2 * BIGARRAY_MIN - 1, 5 * BIGARRAY_MIN + 3 };

	for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
		char *v = NULL;
		size_t cap = 0;

		bigarray_resize(&v, &cap, sizes[k], 1);
		cr_assert_eq(cap, sizes[k]);
		memset(v, 0x5a, sizes[k]);
		bigarray_free(v, cap, 1);
	}
}
