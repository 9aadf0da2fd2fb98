#include "config.h"

#include "base/ivset.h"

#include <stdint.h>
#include <stdlib.h>

#include "base/xalloc.h"

/* Makes s an empty set with room for cap intervals (no prefix sums yet). */
static void
ivset_alloc(struct ivset *s, size_t cap)
{
	s->n = 0;
	s->start_ns = xreallocarray(NULL, cap, sizeof *s->start_ns);
	s->end_ns = xreallocarray(NULL, cap, sizeof *s->end_ns);
	s->prefix_ns = NULL;
}

/*
 * Appends [a, b) (a < b, a no earlier than the last start), merged into the
 * last interval when it overlaps or touches it.
 */
static inline void
ivset_push(struct ivset *s, int64_t a, int64_t b)
{
	if (s->n > 0 && ivset_joins(s->end_ns[s->n - 1], a)) {
		if (b > s->end_ns[s->n - 1])
			s->end_ns[s->n - 1] = b;
		return;
	}
	s->start_ns[s->n] = a;
	s->end_ns[s->n] = b;
	s->n++;
}

/* Trims the arrays from cap to n and computes the prefix sums. */
static void
ivset_finish(struct ivset *s, size_t cap)
{
	size_t i;

	if (s->n < cap) {
		s->start_ns = xreallocarray(s->start_ns, s->n, sizeof *s->start_ns);
		s->end_ns = xreallocarray(s->end_ns, s->n, sizeof *s->end_ns);
	}
	s->prefix_ns = xreallocarray(NULL, s->n + 1, sizeof *s->prefix_ns);
	s->prefix_ns[0] = 0;
	for (i = 0; i < s->n; i++)
		s->prefix_ns[i + 1] = s->prefix_ns[i] +
		    (s->end_ns[i] - s->start_ns[i]);
}

static int
ival_cmp(const void *pa, const void *pb)
{
	const struct ival *a = pa, *b = pb;

	if (a->start_ns != b->start_ns)
		return a->start_ns < b->start_ns ? -1 : 1;
	if (a->end_ns != b->end_ns)
		return a->end_ns < b->end_ns ? -1 : 1;
	return 0;
}

void
ivset_build(struct ivset *s, struct ival *iv, size_t n)
{
	size_t i, m = 0;
	int sorted = 1;

	/* Drop empty and inverted intervals; note whether the rest is sorted. */
	for (i = 0; i < n; i++) {
		if (iv[i].start_ns >= iv[i].end_ns)
			continue;
		if (m > 0 && iv[i].start_ns < iv[m - 1].start_ns)
			sorted = 0;
		iv[m++] = iv[i];
	}
	if (!sorted)
		qsort(iv, m, sizeof *iv, ival_cmp);

	ivset_alloc(s, m);
	for (i = 0; i < m; i++)
		ivset_push(s, iv[i].start_ns, iv[i].end_ns);
	ivset_finish(s, m);
}

void
ivset_begin(struct ivset *s, size_t cap)
{
	ivset_alloc(s, cap);
}

void
ivset_add(struct ivset *s, int64_t start_ns, int64_t end_ns)
{
	if (start_ns < end_ns)
		ivset_push(s, start_ns, end_ns);
}

void
ivset_end(struct ivset *s, size_t cap)
{
	ivset_finish(s, cap);
}

void
ivset_free(struct ivset *s)
{
	if (s == NULL)
		return;
	free(s->start_ns);
	free(s->end_ns);
	free(s->prefix_ns);
	s->start_ns = s->end_ns = s->prefix_ns = NULL;
	s->n = 0;
}

int64_t
ivset_total(const struct ivset *s)
{
	return s->n > 0 ? s->prefix_ns[s->n] : 0;
}

size_t
ivset_find(const struct ivset *s, int64_t t_ns)
{
	size_t lo = 0, hi = s->n, mid;

	/* The ends increase strictly: the first end > t_ns. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s->end_ns[mid] > t_ns)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * Returns |s ∩ (-inf, t_ns)|: the whole intervals ending at or before t_ns,
 * plus the part of the one containing t_ns.  t_ns - start < end - start there,
 * so nothing overflows even for an extreme t_ns.
 */
static int64_t
ivset_before(const struct ivset *s, int64_t t_ns)
{
	size_t i = ivset_find(s, t_ns);
	int64_t m = s->prefix_ns[i];

	if (i < s->n && s->start_ns[i] < t_ns)
		m += t_ns - s->start_ns[i];
	return m;
}

int64_t
ivset_measure(const struct ivset *s, int64_t a_ns, int64_t b_ns)
{
	if (s->n == 0 || b_ns <= a_ns)
		return 0;
	return ivset_before(s, b_ns) - ivset_before(s, a_ns);
}

void
ivset_union(struct ivset *out, const struct ivset *x, const struct ivset *y)
{
	size_t i = 0, j = 0;

	ivset_alloc(out, x->n + y->n);
	while (i < x->n || j < y->n) {
		if (j >= y->n || (i < x->n && x->start_ns[i] <= y->start_ns[j])) {
			ivset_push(out, x->start_ns[i], x->end_ns[i]);
			i++;
		} else {
			ivset_push(out, y->start_ns[j], y->end_ns[j]);
			j++;
		}
	}
	ivset_finish(out, x->n + y->n);
}

void
ivset_intersect(struct ivset *out, const struct ivset *x, const struct ivset *y)
{
	size_t i = 0, j = 0;
	int64_t lo, hi;

	ivset_alloc(out, x->n + y->n);
	while (i < x->n && j < y->n) {
		lo = x->start_ns[i] > y->start_ns[j] ? x->start_ns[i] : y->start_ns[j];
		hi = x->end_ns[i] < y->end_ns[j] ? x->end_ns[i] : y->end_ns[j];
		if (lo < hi)
			ivset_push(out, lo, hi);
		/* The one that ends first can meet nothing further on. */
		if (x->end_ns[i] < y->end_ns[j])
			i++;
		else
			j++;
	}
	ivset_finish(out, x->n + y->n);
}

void
ivset_subtract(struct ivset *out, const struct ivset *x, const struct ivset *y)
{
	size_t i, j = 0;
	int64_t cur, end;

	/* Each y interval splits at most one piece in two: <= nx + ny pieces. */
	ivset_alloc(out, x->n + y->n);
	for (i = 0; i < x->n; i++) {
		cur = x->start_ns[i];
		end = x->end_ns[i];
		while (j < y->n && y->end_ns[j] <= cur)
			j++;
		/* y[j] may reach into the next x interval: j is kept, not passed. */
		for (; j < y->n && y->start_ns[j] < end; j++) {
			if (y->start_ns[j] > cur)
				ivset_push(out, cur, y->start_ns[j]);
			if (y->end_ns[j] > cur)
				cur = y->end_ns[j];
			if (cur >= end)
				break;
		}
		if (cur < end)
			ivset_push(out, cur, end);
	}
	ivset_finish(out, x->n + y->n);
}

/* Whether [a, b) (a < b) is at least min_ns long; b - a may exceed INT64_MAX. */
static inline int
ivset_long_enough(int64_t a, int64_t b, int64_t min_ns)
{
	return min_ns <= 0 || (uint64_t)b - (uint64_t)a >= (uint64_t)min_ns;
}

size_t
ivset_holes(const struct ivset *s, int64_t a_ns, int64_t b_ns,
    int64_t min_ns, void (*fn)(int64_t start_ns, int64_t end_ns, void *ctx),
    void *ctx)
{
	size_t i, count = 0;
	int64_t cur = a_ns;

	if (b_ns <= a_ns)
		return 0;
	/* cur: the start of the part of the window not yet looked at. */
	for (i = ivset_find(s, a_ns); i < s->n && s->start_ns[i] < b_ns; i++) {
		if (s->start_ns[i] > cur &&
		    ivset_long_enough(cur, s->start_ns[i], min_ns)) {
			if (fn != NULL)
				fn(cur, s->start_ns[i], ctx);
			count++;
		}
		cur = s->end_ns[i];     /* > cur: the ends increase, end[first] > a */
	}
	if (cur < b_ns && ivset_long_enough(cur, b_ns, min_ns)) {
		if (fn != NULL)
			fn(cur, b_ns, ctx);
		count++;
	}
	return count;
}
