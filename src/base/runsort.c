#include "config.h"

#include "base/runsort.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

/* The comparison and its context, passed down as one. */
struct order {
	int (*cmp)(const void *, const void *, void *);
	void *ctx;
};

#define CMP(x, y) (o->cmp((x), (y), o->ctx))

/*
 * The end of the ascending run of a[0..n) that holds from, where everything
 * from the run's start to from is known to ascend already.
 */
static size_t
run_end(const char *a, size_t from, size_t n, size_t size,
    const struct order *o)
{
	size_t i = from + 1;

	while (i < n && CMP(a + (i - 1) * size, a + i * size) <= 0)
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
    const struct order *o)
{
	size_t i, j, k, s;

	if (mid - lo <= hi - mid) {
		size_t nl = mid - lo;

		memcpy(buf, a + lo * size, nl * size);
		for (i = 0, j = mid, k = lo; i < nl && j < hi;) {
			for (s = i; i < nl && CMP(buf + i * size, a + j * size) <= 0;
			    i++)
				;
			memcpy(a + k * size, buf + s * size, (i - s) * size);
			k += i - s;
			if (i == nl)
				break;
			for (s = j; j < hi && CMP(a + j * size, buf + i * size) < 0;
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
			    CMP(a + (i - 1) * size, buf + (j - 1) * size) <= 0; j--)
				;
			k -= s - j;
			memcpy(a + k * size, buf + j * size, (s - j) * size);
			if (j == 0)
				break;
			for (s = i; i > lo &&
			    CMP(a + (i - 1) * size, buf + (j - 1) * size) > 0; i--)
				;
			k -= s - i;
			memmove(a + k * size, a + i * size, (s - i) * size);
		}
		/* the left run's rest is in place already */
		memcpy(a + (k - j) * size, buf, j * size);
	}
}

void
runsort_r(void *base, size_t n, size_t size,
    int (*cmp)(const void *, const void *, void *), void *ctx)
{
	const struct order ord = { cmp, ctx }, *o = &ord;
	char *a = base, *buf;
	size_t first;

	if (n < 2)
		return;
	first = run_end(a, 0, n, size, o);
	if (first == n)
		return;                 /* sorted already: nothing to allocate */
	/* the shorter of two runs: at most half the array */
	buf = xreallocarray(NULL, n / 2, size);
	/* Each pass merges neighbouring runs, halving their number at least. */
	for (;;) {
		size_t lo = 0, nruns = 0, first_hi = n;

		while (lo < n) {
			size_t mid = lo == 0 ? first : run_end(a, lo, n, size, o);
			size_t hi = mid < n ? run_end(a, mid, n, size, o) : n;

			merge(a, buf, lo, mid, hi, size, o);
			if (lo == 0)
				first_hi = hi;
			nruns++;
			lo = hi;
		}
		if (nruns == 1)
			break;
		/* the first merged pair is one run; it may reach further */
		first = first_hi < n ? run_end(a, first_hi - 1, n, size, o) : n;
	}
	free(buf);
}

/* runsort()'s comparison, as runsort_r() calls it: ctx points to it. */
static int
plain(const void *a, const void *b, void *ctx)
{
	int (*const *cmp)(const void *, const void *) = ctx;

	return (*cmp)(a, b);
}

void
runsort(void *base, size_t n, size_t size,
    int (*cmp)(const void *, const void *))
{
	runsort_r(base, n, size, plain, &cmp);
}
