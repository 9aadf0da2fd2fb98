/*
 * runsort — a stable sort for arrays that come in a few sorted runs: the
 * concatenation of per-track (or per-stream) arrays, each already in order.
 *
 * It is a natural merge sort: each pass finds the ascending runs (maximal
 * stretches with cmp(a[i - 1], a[i]) <= 0) and merges neighbouring pairs,
 * ties taken from the left run, so equal elements keep their input order
 * (as glibc's merge-sort qsort() does, which gantty's orders were written
 * against).  Stretches taken from one run are copied with one memcpy each.
 * Each pair is merged in place, through a copy of its shorter run.
 *
 * Costs: n - 1 comparisons and no allocation for a sorted array; else
 * O(n log r) comparisons for r runs (O(n log n) at worst, a reversed array)
 * and a temporary buffer of half the array (n / 2 * size bytes, of which
 * the longest shorter run is used), freed on return.  Out of memory is
 * fatal (xalloc).
 */
#ifndef GANTTY_RUNSORT_H
#define GANTTY_RUNSORT_H

#include <stddef.h>

/*
 * Sorts base[0..n) of size-byte elements into ascending cmp order, stably.
 * base may be NULL when n is 0.  cmp returns < 0, 0 or > 0 as qsort's does.
 */
void runsort(void *base, size_t n, size_t size,
    int (*cmp)(const void *, const void *));
/* runsort() with a comparison that is given ctx too, as qsort_r()'s is. */
void runsort_r(void *base, size_t n, size_t size,
    int (*cmp)(const void *, const void *, void *), void *ctx);

#endif
