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
 * Merges the neighbouring runs a[lo..mid) and a[mid..hi) in place, stably:
 * a left element goes first unless the right one is strictly smaller.  The
 * shorter run is copied to buf first; a left one is merged forwards, a
 * right one backwards, so nothing is written over before it is read.
 * Each stretch taken from one side is copied with one memcpy or memmove.
 */
static void
merge(char *a, char *buf, size_t lo, size_t mid, size_t hi, size_t size,
    runsort_cmp cmp)
{
	size_t i, j, k, s;

	if (mid - lo <= hi - mid) {
		size_t nl = mid - lo;

		memcpy(buf, a + lo * size, nl * size);
		for (i = 0, j = mid, k = lo; i < nl && j < hi;) {
			for (s = i; i < nl && cmp(buf + i * size, a + j * size) <= 0;
			    i++)
				;
			memcpy(a + k * size, buf + s * size, (i - s) * size);
			k += i - s;
			if (i == nl)
				break;
			for (s = j; j < hi && cmp(a + j * size, buf + i * size) < 0;
			    j++)
				;
			memmove(a + k * size, a + s * size, (j - s) * size);
			k += j - s;
		}
		/* the right run's rest is in place already */
		memcpy(a + k * size, buf + i * size, (nl - i) * size);
	} else {
		size_t nr = hi - mid;

		memcpy(buf, a + mid * size, nr * size);
		for (i = mid, j = nr, k = hi; i > lo && j > 0;) {
			for (s = j; j > 0 &&
			    cmp(a + (i - 1) * size, buf + (j - 1) * size) <= 0; j--)
				;
			k -= s - j;
			memcpy(a + k * size, buf + j * size, (s - j) * size);
			if (j == 0)
				break;
			for (s = i; i > lo &&
			    cmp(a + (i - 1) * size, buf + (j - 1) * size) > 0; i--)
				;
			k -= s - i;
			memmove(a + k * size, a + i * size, (s - i) * size);
		}
		/* the left run's rest is in place already */
		memcpy(a + (k - j) * size, buf, j * size);
	}
}

void
runsort(void *base, size_t n, size_t size, runsort_cmp cmp)
{
	char *a = base, *buf;
	size_t first;

	if (n < 2)
		return;
	first = run_end(a, 0, n, size, cmp);
	if (first == n)
		return;                 /* sorted already: nothing to allocate */
	/* the shorter of two runs: at most half the array */
	buf = xreallocarray(NULL, n / 2, size);
	/* Each pass merges neighbouring runs, halving their number at least. */
	for (;;) {
		size_t lo = 0, nruns = 0, first_hi = n;

		while (lo < n) {
			size_t mid = lo == 0 ? first : run_end(a, lo, n, size, cmp);
			size_t hi = mid < n ? run_end(a, mid, n, size, cmp) : n;

			merge(a, buf, lo, mid, hi, size, cmp);
			if (lo == 0)
				first_hi = hi;
			nruns++;
			lo = hi;
		}
		if (nruns == 1)
			break;
		/* the first merged pair is one run; it may reach further */
		first = first_hi < n ? run_end(a, first_hi - 1, n, size, cmp) : n;
	}
	free(buf);
}
