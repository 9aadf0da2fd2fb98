#include "config.h"

#include "base/runsort.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

typedef int (*runsort_cmp)(const void *, const void *);

/*
 * The end of the ascending run of a[0..n) that holds from, where everything
 * from the run's start to from is known to ascend already.
 */
static size_t
run_end(const char *a, size_t from, size_t n, size_t size, runsort_cmp cmp)
{
	size_t i = from + 1;

	while (i < n && cmp(a + (i - 1) * size, a + i * size) <= 0)
		i++;
	return i;
}

/*
 * Merges the runs src[lo..mid) and src[mid..hi) into dst[lo..hi), stably:
 * a left element goes first unless the right one is strictly smaller.  Each
 * stretch taken from one side is copied with one memcpy.
 */
static void
merge(char *dst, const char *src, size_t lo, size_t mid, size_t hi,
    size_t size, runsort_cmp cmp)
{
	size_t i = lo, j = mid, k = lo, s;

	while (i < mid && j < hi) {
		for (s = i; i < mid && cmp(src + i * size, src + j * size) <= 0; i++)
			;
		memcpy(dst + k * size, src + s * size, (i - s) * size);
		k += i - s;
		if (i == mid)
			break;
		for (s = j; j < hi && cmp(src + j * size, src + i * size) < 0; j++)
			;
		memcpy(dst + k * size, src + s * size, (j - s) * size);
		k += j - s;
	}
	memcpy(dst + k * size, src + i * size, (mid - i) * size);
	k += mid - i;
	memcpy(dst + k * size, src + j * size, (hi - j) * size);
}

void
runsort(void *base, size_t n, size_t size, runsort_cmp cmp)
{
	char *src = base, *dst, *tmp;
	size_t first;

	if (n < 2)
		return;
	first = run_end(src, 0, n, size, cmp);
	if (first == n)
		return;                 /* sorted already: nothing to allocate */
	tmp = xreallocarray(NULL, n, size);
	dst = tmp;
	/* Each pass merges neighbouring runs, halving their number at least. */
	for (;;) {
		size_t lo = 0, nruns = 0, first_hi = n;

		while (lo < n) {
			size_t mid = lo == 0 ? first : run_end(src, lo, n, size, cmp);
			size_t hi = mid < n ? run_end(src, mid, n, size, cmp) : n;

			merge(dst, src, lo, mid, hi, size, cmp);
			if (lo == 0)
				first_hi = hi;
			nruns++;
			lo = hi;
		}
		{
			char *swap = src;

			src = dst;
			dst = swap;
		}
		if (nruns == 1)
			break;
		/* the first merged pair is one run; it may reach further */
		first = first_hi < n ? run_end(src, first_hi - 1, n, size, cmp) : n;
	}
	if (src != base)
		memcpy(base, src, n * size);
	free(tmp);
}
