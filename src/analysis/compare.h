/*
 * compare — before and after: two analyses (two traces, or one trace's two
 * windows) side by side, with the change from A to B (delta = B - A).
 *
 * Compared, each as {time, compute, comm, exposed comm, idle} (struct
 * diff_metrics):
 *  - the windows of A and B (time = the window's length);
 *  - steps, paired by number with COMPARE_BY_NUMBER (ProfilerStep#N of A
 *    against #N of B, one row per number of either side, ascending) when
 *    the windows of A and B share a step number and neither repeats one
 *    (two traces of one job); else, and always with COMPARE_BY_POSITION
 *    (two windows of one trace, whose numbers differ by design), by position from
 *    their starts: A's i-th step in its window against B's i-th (so #12 of
 *    A meets #40 of B when those are the first of each); by_number says
 *    which; time = the step's CPU span; the rest measured over its GPU
 *    extent (zeros without one);
 *  - layers, matched by (name, phase) and summed over their occurrences in
 *    the window: time = the sum of their GPU extents, compute, comm and
 *    exposed comm as in layers.h, own exposed comm too, and idle inside
 *    their GPU extents; count = occurrences;
 *  - kernels, aggregated by name over the window: count and total time
 *    (clipped to the window), as metrics_top_kernels() counts them.
 * Steps and layers of A missing in B (or the reverse) are listed with zeros
 * on the side that lacks them.  A diff of an analysis with itself is all
 * zeros.
 *
 * Ownership: a diff owns its arrays and its string table (layer and kernel
 * names, copied); it keeps no pointer into the analyses.  Cost: O(n log n)
 * for the n activities and layers of both analyses.
 */
#ifndef GANTTY_COMPARE_H
#define GANTTY_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "base/strtab.h"

struct analysis;

struct compare_metrics {
	int64_t time_ns;
	int64_t compute_ns, comm_ns, exposed_comm_ns, idle_ns;
	int64_t own_exposed_comm_ns;    /* layers only (0 elsewhere) */
};

struct compare_step {
	size_t index;           /* position among the window's steps */
	int has_a, has_b;
	int64_t number_a, number_b;     /* N of ProfilerStep#N, -1 if missing */
	struct compare_metrics a, b;
};

struct compare_layer {
	uint32_t name;          /* d->strs id */
	int phase;              /* enum layer_phase */
	size_t count_a, count_b;
	struct compare_metrics a, b;
};

struct compare_kernel {
	uint32_t name;          /* d->strs id */
	uint8_t cls;            /* enum event_class */
	uint64_t count_a, count_b;
	int64_t total_a_ns, total_b_ns;
	size_t name_pos;        /* its place in d->by_name */
};

struct compare {
	struct compare_metrics wa, wb;     /* the windows */
	struct compare_step *steps;
	size_t nsteps;
	int by_number;                     /* steps paired by number, else by position */
	struct compare_layer *layers;      /* A's order, then B's new ones */
	size_t nlayers;
	struct compare_kernel *kernels;    /* largest |total_b - total_a| first,
	                                   ties by name */
	size_t nkernels;
	size_t *by_name;                   /* kernel indices in name order */
	struct strtab strs;
};

enum compare_pairing {
	COMPARE_BY_POSITION = 0,    /* A's i-th step against B's i-th */
	COMPARE_BY_NUMBER,          /* #N against #N where A and B share numbers */
};

/*
 * Compares a (before) with b (after) into d (overwritten), pairing their
 * steps as pairing says.  Either may lack a window (no GPU activity): its
 * side is then all zeros.  Cannot fail.
 */
void compare_build(struct compare *d, const struct analysis *a,
    const struct analysis *b, enum compare_pairing pairing);
/*
 * The kernels whose names are next to kernel k's in name order (so those
 * with the longest common starts), nearest first, at most cap, into out
 * (d->kernels indices); returns how many.  What an elided name must stay
 * apart from (elide_keeps()).  O(cap).
 */
#define COMPARE_NEIGHBOURS 16   /* the neighbours a report or view asks for */
size_t compare_kernel_neighbours(const struct compare *d, size_t k, size_t *out,
    size_t cap);
/*
 * Keeps one step row in d: A's ProfilerStep#number_a against B's
 * #number_b, whatever the pairing made of them (a side without its step is
 * zeros, has_a or has_b 0).  For comparing one step with another, whose
 * windows (their GPU extents) may overlap their neighbours'.  O(steps).
 */
void compare_keep_step(struct compare *d, int64_t number_a, int64_t number_b);
/*
 * For comparing two traces on one time axis: returns the offset to add to
 * every time of b so that its reference lines up with a's.  The reference
 * of an analysis is its first step's CPU start, else its first GPU
 * activity, else its trace's first event.  O(1).
 */
int64_t compare_align_offset(const struct analysis *a, const struct analysis *b);
/* Frees what compare_build() allocated; d may be zeroed. */
void compare_free(struct compare *d);
/*
 * The regression verdict of --diff: B's time against A's, over the steps
 * that both sides have (their CPU spans, summed), else over the windows.
 * change_pct = 100 (b - a) / a, 0 when a is 0.
 */
struct compare_verdict {
	int64_t a_ns, b_ns;
	size_t steps;           /* the steps measured; 0: the windows */
	double change_pct;
};
void compare_verdict(const struct compare *d, struct compare_verdict *v);

/*
 * What makes A and B unlike runs, for a warning: their GPUs, world sizes
 * and step counts where they differ, as "GPU X vs Y; world size 8 vs 1;
 * 8 vs 3 steps"; "" when none does.  Writes at most n bytes (n > 0).
 */
void compare_unlike(const struct analysis *a, const struct analysis *b,
    char *buf, size_t n);

/* b - a of each field. */
static inline struct compare_metrics
compare_delta(const struct compare_metrics *a, const struct compare_metrics *b)
{
	struct compare_metrics d;

	d.time_ns = b->time_ns - a->time_ns;
	d.compute_ns = b->compute_ns - a->compute_ns;
	d.comm_ns = b->comm_ns - a->comm_ns;
	d.exposed_comm_ns = b->exposed_comm_ns - a->exposed_comm_ns;
	d.idle_ns = b->idle_ns - a->idle_ns;
	d.own_exposed_comm_ns = b->own_exposed_comm_ns - a->own_exposed_comm_ns;
	return d;
}

/* Returns the string of a name id of d. */
static inline const char *
compare_str(const struct compare *d, uint32_t id)
{
	return strtab_get(&d->strs, id);
}

#endif
