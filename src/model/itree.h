/*
 * itree — a static interval index over one track's events.
 *
 * The events are a contiguous array sorted by ts_ns (ties in any order), each
 * the half-open interval [ts_ns, ts_ns + dur_ns).  The index is the implicit
 * binary tree of lh3/cgranges over that array: the node at index i on level k
 * (k = number of trailing 1 bits of i) covers indices [i - 2^k + 1, i + 2^k - 1];
 * maxend_ns[i] is the largest end within that subtree, a zero-length event
 * [s, s) counting as ending at s + 1.  Nodes past n - 1 are virtual.  The
 * index does not own the events; it owns maxend_ns.
 *
 * Invariant used by the search: a subtree whose maxend_ns <= a cannot hold an
 * interval overlapping [a, b), and nothing at or right of an index whose
 * ts_ns >= b can either.  An interval [s, e) overlaps [a, b) iff s < b and
 * e > a; a zero-length interval [s, s) overlaps [a, b) iff a <= s < b (so
 * instants are found by the windows that contain them).
 *
 * Build O(n), memory 8 bytes per event.  A query visits O(log n) nodes plus
 * the ancestors of its k results: O(log n + k) when the results lie close
 * together in start order (one window over nested slices or a stream), at
 * worst O(log n + k log(n/k)) when they are scattered (a few long events
 * far apart among many short ones).
 */
#ifndef GANTTY_ITREE_H
#define GANTTY_ITREE_H

#include <stddef.h>
#include <stdint.h>

struct event;

struct itree {
	uint32_t n;
	int max_level;          /* level of the root */
	int64_t *maxend_ns;     /* n entries */
};

/*
 * Builds the index of ev[0..n) (sorted by ts_ns; ev may be NULL when n is 0).
 * t is overwritten, not freed.  Cannot fail.
 */
void itree_build(struct itree *t, const struct event *ev, uint32_t n);
/* Frees the index and leaves it empty; t may be zeroed or already freed. */
void itree_free(struct itree *t);
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
