/*
 * ivset — a set of nanoseconds kept as sorted, disjoint half-open intervals
 * with prefix sums of their lengths.
 *
 * Invariants: start_ns[i] < end_ns[i] <= start_ns[i+1] is NOT enough: touching
 * intervals are merged, so end_ns[i] < start_ns[i+1] strictly; no interval
 * is empty.  prefix_ns[i] is the total length of intervals 0..i-1 (n + 1
 * entries, prefix_ns[0] = 0).  A set owns its three arrays.  A zeroed struct
 * is a valid empty set.  Sums stay in int64 as long as the set lies within a
 * span of 2^63 ns (any real trace); windows may be anything, INT64_MIN to
 * INT64_MAX included.
 *
 * Costs: building from m intervals O(m log m), O(m) when they come sorted by
 * start; the measure of the set inside
 * any window O(log n); union / intersection / difference O(n1 + n2); listing
 * the holes of a window O(log n + holes listed).
 */
#ifndef GANTTY_IVSET_H
#define GANTTY_IVSET_H

#include <stddef.h>
#include <stdint.h>

struct ivset {
	size_t n;
	int64_t *start_ns;
	int64_t *end_ns;
	int64_t *prefix_ns;     /* n + 1 entries */
};

/* A half-open interval, for building sets and reporting holes. */
struct ival {
	int64_t start_ns, end_ns;
};

/*
 * Builds the union of iv[0..n) into s (overwritten, not freed).  The input
 * may be in any order, overlap, touch or hold empty or inverted intervals
 * (those are ignored).  iv is reordered in place (and not sorted again when
 * already sorted by start).
 */
void ivset_build(struct ivset *s, struct ival *iv, size_t n);
/*
 * The same for intervals that come sorted by start, without an array:
 * ivset_begin() with room for at most cap of them, ivset_add() each (empty
 * or inverted ones are ignored), then ivset_end() with the same cap.  O(1)
 * each, O(cap) in all.
 */
void ivset_begin(struct ivset *s, size_t cap);
void ivset_add(struct ivset *s, int64_t start_ns, int64_t end_ns);
void ivset_end(struct ivset *s, size_t cap);
/*
 * How many intervals the set of those ivset_add() calls will hold, to pass
 * as cap: a counter zeroed, then ivset_count_add() with the same intervals
 * in the same order; n is the count.  A set built with room for exactly
 * that many leaves no unused room behind it (in a heap of huge pages,
 * unused room that was touched stays resident: heap.h).
 */
struct ivset_count {
	size_t n;
	int64_t end_ns;         /* of the last interval counted */
};

/*
 * Whether an interval starting at start_ns joins the last one, ending at
 * last_end_ns (they overlap or touch): the one merge rule of ivset_add()
 * and ivset_count_add().
 */
static inline int
ivset_joins(int64_t last_end_ns, int64_t start_ns)
{
	return start_ns <= last_end_ns;
}

static inline void
ivset_count_add(struct ivset_count *c, int64_t start_ns, int64_t end_ns)
{
	if (start_ns >= end_ns)
		return;
	if (c->n > 0 && ivset_joins(c->end_ns, start_ns)) {
		if (end_ns > c->end_ns)
			c->end_ns = end_ns;
		return;
	}
	c->n++;
	c->end_ns = end_ns;
}
/* Frees the set's arrays and zeroes it; s may be zeroed. */
void ivset_free(struct ivset *s);
/* Returns the total length of the set. */
int64_t ivset_total(const struct ivset *s);
/* Returns |s ∩ [a_ns, b_ns)|, 0 for an empty window.  O(log n). */
int64_t ivset_measure(const struct ivset *s, int64_t a_ns, int64_t b_ns);
/*
 * out = x ∪ y.  For all three operations out is overwritten (not freed) and
 * must not alias x or y.
 */
void ivset_union(struct ivset *out, const struct ivset *x, const struct ivset *y);
/* out = x ∩ y. */
void ivset_intersect(struct ivset *out, const struct ivset *x, const struct ivset *y);
/* out = x \ y. */
void ivset_subtract(struct ivset *out, const struct ivset *x, const struct ivset *y);
/*
 * Returns the index of the first interval whose end is > t_ns (n if none):
 * the interval containing t_ns, or the next one after it.  O(log n).
 */
size_t ivset_find(const struct ivset *s, int64_t t_ns);
/*
 * Calls fn(start, end, ctx) for each maximal hole of the set inside
 * [a_ns, b_ns) (the parts of the window not in the set) whose length is
 * >= min_ns, in time order, and returns how many there were (fn may be NULL
 * to only count them).  An empty window (b_ns <= a_ns) has none.
 * O(log n + holes visited).
 */
size_t ivset_holes(const struct ivset *s, int64_t a_ns, int64_t b_ns,
    int64_t min_ns, void (*fn)(int64_t start_ns, int64_t end_ns, void *ctx),
    void *ctx);

#endif
