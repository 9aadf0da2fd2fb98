/*
 * itree — a static interval index over one track's events.
 *
 * The events are a contiguous array sorted by ts_ns (ties in any order), each
 * the half-open interval [ts_ns, ts_ns + dur_ns).  The index is the implicit
 * binary tree of lh3/cgranges over that array: the node at index i on level k
 * (k = number of trailing 1 bits of i) covers indices [i - 2^k + 1, i + 2^k - 1];
 * its max end is the largest end within that subtree, a zero-length event
 * [s, s) counting as ending at s + 1.  Nodes past n - 1 are virtual.
 *
 * Subtrees up to level ITREE_BLOCK_LEVEL (15 events) are scanned, never
 * descended, so only the nodes on that level and above keep their max end:
 * maxend_ns[i >> ITREE_BLOCK_LEVEL] for the node i (its low
 * ITREE_BLOCK_LEVEL bits all 1), itree_slots(n) of them, one 8-byte entry
 * per 8 events.  The index does not own the events; it owns maxend_ns.
 *
 * Invariant used by the search: a subtree whose max end <= a cannot hold an
 * interval overlapping [a, b), and nothing at or right of an index whose
 * ts_ns >= b can either.  An interval [s, e) overlaps [a, b) iff s < b and
 * e > a; a zero-length interval [s, s) overlaps [a, b) iff a <= s < b (so
 * instants are found by the windows that contain them).
 *
 * Build O(n), memory 1 byte per event.  A query visits O(log n) nodes plus
 * the ancestors of its k results and scans at most 15 events a block
 * visited: O(log n + k) when the results lie close together in start order
 * (one window over nested slices or a stream), at worst O(log n + k
 * log(n/k)) when they are scattered (a few long events far apart among
 * many short ones).
 */
#ifndef GANTTY_ITREE_H
#define GANTTY_ITREE_H

#include <stddef.h>
#include <stdint.h>

struct event;

/* The level whose subtrees (2^(k+1) - 1 events) are scanned, not descended. */
#define ITREE_BLOCK_LEVEL 3

struct itree {
	uint32_t n;
	int max_level;          /* level of the root */
	int64_t *maxend_ns;     /* itree_slots(n) entries: the nodes on level
	                           ITREE_BLOCK_LEVEL and above, by i >> ITREE_BLOCK_LEVEL */
};

/* How many nodes of an index over n events keep a max end. */
static inline uint64_t
itree_slots(uint64_t n)
{
	return n >> ITREE_BLOCK_LEVEL;
}

/*
 * Builds the index of ev[0..n) (sorted by ts_ns; ev may be NULL when n is 0).
 * t is overwritten, not freed.  Cannot fail.
 */
void itree_build(struct itree *t, const struct event *ev, uint32_t n);
/* Frees the index and leaves it empty; t may be zeroed or already freed. */
void itree_free(struct itree *t);
/*
 * Keeps the index right after every event of its array was moved by off_ns
 * (ts_ns += off_ns, the caller checked that nothing overflows).
 */
void itree_shift(struct itree *t, int64_t off_ns);
/*
 * Finds the events of ev[0..n) (the array given to itree_build) that overlap
 * [a_ns, b_ns).  Their indices (relative to ev) are appended to *out (grown
 * with xgrow; *cap is its capacity), in increasing index order.  Returns how
 * many were appended.  An empty window (b_ns <= a_ns) finds nothing.
 */
size_t itree_overlap(const struct itree *t, const struct event *ev,
    int64_t a_ns, int64_t b_ns, uint32_t **out, size_t *len, size_t *cap);
/*
 * Returns the number of events overlapping [a_ns, b_ns) without listing them;
 * the same walk, so the same cost as itree_overlap().
 */
size_t itree_count(const struct itree *t, const struct event *ev,
    int64_t a_ns, int64_t b_ns);

#endif
