#include "config.h"

#include "model/itree.h"

#include <stdlib.h>

#include "model/event.h"
#include "base/xalloc.h"

/*
 * The end used by the index: a zero-length event [s, s) counts as [s, s + 1),
 * so that "end > a" is the one test for both kinds of event (time is integer
 * nanoseconds, so a <= s < b iff s < b and s + 1 > a).
 */
static inline int64_t
itree_end(const struct event *e)
{
	return e->ts_ns + (e->dur_ns > 0 ? e->dur_ns : 1);
}

/* The largest end among ev[lo .. hi), INT64_MIN when empty. */
static int64_t
scan_maxend(const struct event *ev, uint64_t lo, uint64_t hi)
{
	int64_t m = INT64_MIN;

	for (uint64_t i = lo; i < hi; i++)
		if (itree_end(&ev[i]) > m)
			m = itree_end(&ev[i]);
	return m;
}

/* The max end of the node x (real, on level ITREE_BLOCK_LEVEL or above). */
static inline int64_t
node_maxend(const int64_t *maxend, uint64_t x)
{
	return maxend[x >> ITREE_BLOCK_LEVEL];
}

/*
 * The largest end in the subtree of the virtual node x (x >= n) on level
 * k >= ITREE_BLOCK_LEVEL.  Its right half and x itself are past n - 1, so
 * only the left spine can hold real nodes; the first real one found
 * already covers everything real below, and a block with none scans what
 * is real of it.  INT64_MIN when the subtree holds nothing.
 */
static int64_t
itree_virtual_maxend(const struct event *ev, const int64_t *maxend,
    uint64_t n, uint64_t x, int k)
{
	const uint64_t half_block = ((uint64_t)1 << ITREE_BLOCK_LEVEL) - 1;

	while (x >= n && k > ITREE_BLOCK_LEVEL) {
		k--;
		x -= (uint64_t)1 << k;
	}
	if (x < n)
		return node_maxend(maxend, x);
	return x - half_block < n ? scan_maxend(ev, x - half_block, n) : INT64_MIN;
}

void
itree_build(struct itree *t, const struct event *ev, uint32_t n)
{
	const uint64_t half_block = ((uint64_t)1 << ITREE_BLOCK_LEVEL) - 1;
	uint64_t i, half;
	int k;

	t->n = n;
	t->max_level = -1;
	t->maxend_ns = NULL;
	if (n == 0)
		return;
	for (k = 1; ((uint64_t)1 << k) - 1 < n; k++)
		;
	t->max_level = k - 1;
	if (itree_slots(n) == 0)
		return;         /* a block or less: scanned whole */
	t->maxend_ns = xreallocarray(NULL, itree_slots(n), sizeof *t->maxend_ns);

	/* The block level: each node's subtree scanned. */
	for (i = half_block; i < n; i += (uint64_t)2 << ITREE_BLOCK_LEVEL)
		t->maxend_ns[i >> ITREE_BLOCK_LEVEL] = scan_maxend(ev,
		    i - half_block, i + half_block + 1 < n ? i + half_block + 1 : n);

	/*
	 * Level k: indices with exactly k trailing 1 bits, 2^k - 1 apart by
	 * 2^(k+1); children at i -/+ 2^(k-1).  The left child is always real;
	 * the right one may be virtual.
	 */
	for (k = ITREE_BLOCK_LEVEL + 1; k <= t->max_level; k++) {
		half = (uint64_t)1 << (k - 1);
		for (i = ((uint64_t)1 << k) - 1; i < n; i += (uint64_t)1 << (k + 1)) {
			int64_t e = itree_end(&ev[i]), l, r;

			l = node_maxend(t->maxend_ns, i - half);
			if (i + half < n)
				r = node_maxend(t->maxend_ns, i + half);
			else
				r = itree_virtual_maxend(ev, t->maxend_ns, n,
				    i + half, k - 1);
			if (l > e)
				e = l;
			if (r > e)
				e = r;
			t->maxend_ns[i >> ITREE_BLOCK_LEVEL] = e;
		}
	}
}

void
itree_free(struct itree *t)
{
	if (t == NULL)
		return;
	free(t->maxend_ns);
	t->maxend_ns = NULL;
	t->n = 0;
	t->max_level = -1;
}

void
itree_shift(struct itree *t, int64_t off_ns)
{
	for (uint64_t k = 0; k < itree_slots(t->n); k++)
		t->maxend_ns[k] += off_ns;
}

/* One pending node of the in-order walk. */
struct itree_cell {
	uint64_t x;             /* node index, maybe virtual (>= n) */
	int k;                  /* its level */
	int left_done;          /* its left subtree has been walked */
};

/*
 * The walk: in-order over the implicit tree, so indices come out increasing.
 *
 * Overlap: [s, e) overlaps [a, b) iff s < b && e > a, where a zero-length
 * event has e = s + 1 (see itree_end()).  Hence, with the events sorted by
 * start:
 *  - a subtree whose maxend_ns <= a holds no overlap (every e <= a): it is
 *    not entered;
 *  - once a node has ts_ns >= b, neither it nor anything right of it (all
 *    starts >= b) overlaps: its right subtree is not entered.
 * Every subtree entered thus either holds a result or lies on the path to
 * the first start >= b, so the walk visits O(log n) nodes plus the ancestors
 * of the results.
 *
 * Levels strictly decrease from the bottom of the stack to its top, so it
 * never holds more than max_level + 1 <= 32 cells (n < 2^32).
 */
static size_t
itree_walk(const struct itree *t, const struct event *ev, int64_t a, int64_t b,
    uint32_t **out, size_t *len, size_t *cap)
{
	struct itree_cell stack[64], z;
	const int64_t *maxend = t->maxend_ns;
	uint64_t n = t->n, i, i0, i1, child;
	size_t found = 0, top = 0;

	if (n == 0 || b <= a || (t->max_level > ITREE_BLOCK_LEVEL &&
	    node_maxend(maxend, ((uint64_t)1 << t->max_level) - 1) <= a))
		return 0;
	stack[top++] = (struct itree_cell){ ((uint64_t)1 << t->max_level) - 1,
	    t->max_level, 0 };
	while (top > 0) {
		z = stack[--top];
		if (z.k <= ITREE_BLOCK_LEVEL) {
			/* The whole subtree [x - 2^k + 1, x + 2^k - 1]. */
			i0 = z.x - (((uint64_t)1 << z.k) - 1);
			i1 = z.x + ((uint64_t)1 << z.k);
			if (i1 > n)
				i1 = n;
			for (i = i0; i < i1 && ev[i].ts_ns < b; i++) {
				if (itree_end(&ev[i]) <= a)
					continue;
				if (out != NULL) {
					xgrow(out, cap, *len + 1, sizeof **out);
					(*out)[(*len)++] = (uint32_t)i;
				}
				found++;
			}
		} else if (!z.left_done) {
			/* Come back to x after its left subtree. */
			stack[top++] = (struct itree_cell){ z.x, z.k, 1 };
			child = z.x - ((uint64_t)1 << (z.k - 1));
			if (child >= n || node_maxend(maxend, child) > a)
				stack[top++] = (struct itree_cell){ child,
				    z.k - 1, 0 };
		} else if (z.x < n && ev[z.x].ts_ns < b) {
			if (itree_end(&ev[z.x]) > a) {
				if (out != NULL) {
					xgrow(out, cap, *len + 1, sizeof **out);
					(*out)[(*len)++] = (uint32_t)z.x;
				}
				found++;
			}
			/* The right subtree starts at x + 1. */
			child = z.x + ((uint64_t)1 << (z.k - 1));
			if (z.x + 1 < n && ev[z.x + 1].ts_ns < b &&
			    (child >= n || node_maxend(maxend, child) > a))
				stack[top++] = (struct itree_cell){ child,
				    z.k - 1, 0 };
		}
	}
	return found;
}

size_t
itree_overlap(const struct itree *t, const struct event *ev,
    int64_t a_ns, int64_t b_ns, uint32_t **out, size_t *len, size_t *cap)
{
	return itree_walk(t, ev, a_ns, b_ns, out, len, cap);
}

size_t
itree_count(const struct itree *t, const struct event *ev,
    int64_t a_ns, int64_t b_ns)
{
	return itree_walk(t, ev, a_ns, b_ns, NULL, NULL, NULL);
}
