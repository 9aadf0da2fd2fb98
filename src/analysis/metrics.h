/*
 * metrics — the numbers of SPEC §3 for any window of one (rank, device).
 *
 * A struct metrics is built once per (trace, device) from the trace's GPU
 * activity (events that event_is_activity() and whose trace_event_device()
 * is the device, on any stream).  It holds the disjoint unions
 *
 *   comp = U_comp, comm = U_comm, mem = U_mem, all = comp ∪ comm ∪ mem,
 *   exposed = comm \ comp,
 *
 * as ivsets (sorted disjoint half-open intervals with prefix sums), the holes
 * of `all` (the idle intervals between consecutive busy intervals), each
 * classified for the idle breakdown, with per-kind prefix sums, and the holes
 * of length >= min_gap_ns with prefix sums and a sparse table for range
 * maxima.  From these any window W = [a, b) costs:
 *
 *   busy, compute, comm, memory, overlap, exposed       O(log n)
 *   idle breakdown (host wait / kernel wait / other)     O(log n)
 *   gap count, total, largest                            O(log n)
 *   top-K gaps                                           O(log n + K log K)
 *
 * for n activities, whatever the window's size.
 *
 * Definitions (all sets clipped to W):
 *   busy = |all|, idle = |W| - busy, compute = |comp|, comm = |comm|,
 *   memory = |mem|, overlap = |comm ∩ comp| = comm - exposed,
 *   exposed_comm = |comm \ comp|, overlap_pct = 100 * overlap / comm (null
 *   when comm = 0).
 *   Gaps: maximal sub-intervals of W with no activity (including those at
 *   W's edges, clipped to W) of length >= min_gap_ns.
 *   Idle breakdown, as HTA: each hole [e, s) between busy intervals is
 *   "host wait" when the launch call of the activity starting at s started
 *   at or after e (the GPU waited for the CPU), else "kernel wait" when the
 *   hole is shorter than METRICS_SHORT_WAIT_NS, else "other".  Idle before
 *   the first or after the last activity is "other".  A hole cut by W's edge
 *   keeps its kind.  host + kernel + other = idle, exactly.
 *
 * The metrics only reads the trace, which must outlive it.
 */
#ifndef GANTTY_METRICS_H
#define GANTTY_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "base/ivset.h"
#include "model/trace.h"

struct trace;

#define METRICS_TOP_K 10
#define METRICS_DEFAULT_MIN_GAP_NS INT64_C(10000)       /* 10 us */
#define METRICS_SHORT_WAIT_NS INT64_C(30000)            /* 30 us */

enum idle_kind {
	IDLE_HOST_WAIT = 0,
	IDLE_KERNEL_WAIT,
	IDLE_OTHER,
	IDLE_KINDS
};

/* One idle interval between two busy intervals of a device. */
struct hole {
	int64_t start_ns, end_ns;
	uint8_t kind;           /* enum idle_kind */
};

/* launch_ns of an activity with no launch call. */
#define METRICS_UNLINKED INT64_MIN

struct metrics {
	const struct trace *t;
	int32_t device;
	const char *name;       /* its deviceProperties name: the entry whose id
	                           is the device, else the only entry, else "" */
	uint32_t nnames;        /* t's string count when built: every event's
	                           name is below it (read here once, as
	                           layers_find() may add names meanwhile) */
	int64_t min_gap_ns;
	int64_t first_ns, last_ns;      /* first activity start, last activity end:
	                                   the default window (0, 0 if none) */
	uint32_t *acts;         /* this device's activity events, by ts_ns then index */
	int64_t *launch_ns;     /* of acts[i]: its launch call's start,
	                           METRICS_UNLINKED if it has none */
	size_t nacts;
	uint32_t *tracks;       /* the tracks holding any of acts, ascending */
	size_t ntracks;
	struct ivset comp, comm, mem, all, exposed;
	struct hole *holes;     /* all.n - 1 holes (none if all.n < 2) */
	size_t nholes;
	int64_t *hole_prefix[IDLE_KINDS]; /* nholes + 1 each: length sums by kind */
	uint32_t *gaps;         /* indices of holes with length >= min_gap_ns */
	size_t ngaps;
	int64_t *gap_prefix;    /* ngaps + 1: length sums */
	uint32_t **gap_rmq;     /* sparse table: gap_rmq[k][i] = the index into
	                           gaps[] of the longest of gaps[i .. i + 2^k) */
	int gap_rmq_levels;
};

/* A gap: where the device was idle. */
struct gap {
	int64_t start_ns, dur_ns;
};

struct window_metrics {
	int64_t start_ns, end_ns;
	int64_t busy_ns, idle_ns;
	int64_t compute_ns, comm_ns, memory_ns;
	int64_t overlap_ns, exposed_comm_ns;
	double overlap_pct;     /* < 0 when comm_ns == 0 (JSON null) */
	int64_t idle_by_kind_ns[IDLE_KINDS];
	size_t gap_count;
	int64_t gap_total_ns;
	struct gap top[METRICS_TOP_K]; /* longest first (ties: earlier first) */
	size_t ntop;            /* min(gap_count, METRICS_TOP_K); top[0] is the largest */
};

/* One kernel name's share of a window. */
struct kernel_total {
	uint32_t name;          /* strtab id */
	uint8_t cls;            /* enum event_class */
	uint64_t count;         /* activities of that name overlapping the window */
	int64_t total_ns;       /* their durations clipped to the window */
};

/*
 * Returns the devices that have GPU activity in t, ascending, in a malloc'd
 * array (*out; NULL when none), and their number: at most TRACE_MAX_DEVICES,
 * the lowest (the rest are counted in t->warn.devices_skipped).  O(devices).
 */
size_t metrics_devices(const struct trace *t, int32_t **out);
/*
 * Builds d for device of t with gaps of at least min_gap_ns (>= 0).  d is
 * overwritten.  Cannot fail.  O(n log n).
 */
void metrics_build(struct metrics *d, const struct trace *t, int32_t device,
    int64_t min_gap_ns);
/* Frees what metrics_build() allocated; d may be zeroed. */
void metrics_free(struct metrics *d);
/*
 * The position of track (a track holding some of d's activities) in
 * d->tracks, so that callers can gather d's activities track by track: each
 * track's come sorted by start (and nearly by launch, end).  O(log tracks).
 */
static inline size_t
metrics_track_pos(const struct metrics *d, uint32_t track)
{
	size_t lo = 0, hi = d->ntracks;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->tracks[mid] < track)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The first index into d->acts whose activity starts at or after ts_ns
 * (d->nacts if none).  O(log n).
 */
static inline size_t
metrics_first_at(const struct metrics *d, int64_t ts_ns)
{
	return trace_lower_bound(d->t, d->acts, 0, d->nacts, ts_ns);
}

/*
 * Computes the window's sums only: busy, idle, compute, comm, memory,
 * exposed and overlap (the rest of m zeroed, as for metrics_window()):
 * for the many small windows of steps and layers.  O(log n).
 */
void metrics_window_sums(const struct metrics *d, int64_t a_ns,
    int64_t b_ns, struct window_metrics *m);
/*
 * Computes every number above for the window [a_ns, b_ns) into m.  An empty
 * or inverted window gives all zeros (and overlap_pct < 0).
 * O(log n + K log K), K = METRICS_TOP_K.
 */
void metrics_window(const struct metrics *d, int64_t a_ns, int64_t b_ns,
    struct window_metrics *m);
/*
 * Fills out[0..k) with the k kernel names (of any class) with the largest
 * total time inside [a_ns, b_ns), largest first (ties by name id), and
 * returns how many it filled (<= k).  O(m log m) for the m activities
 * overlapping the window.
 */
size_t metrics_top_kernels(const struct metrics *d, int64_t a_ns,
    int64_t b_ns, struct kernel_total *out, size_t k);

/*
 * A kernel index: the device's activities grouped by (name, class) key,
 * each group by start, with prefix sums of their durations and each key's
 * longest duration.  It answers metrics_top_kernels() for a window in
 * O(K log n + B) for K keys and the B activities of a key that cross a
 * window edge (those starting within the key's longest duration before it),
 * instead of O(m) for the m activities in the window: so a frame of a
 * gigabyte trace zoomed out costs what a zoomed-in one does.  Built in
 * O(n + K), 12 bytes per activity.  Unusable (and ignored) when the
 * durations' total does not fit int64.
 */
struct kernel_index {
	size_t nkeys;
	uint32_t *first;        /* nkeys + 1: key k's activities are order[first[k] .. first[k+1]) */
	uint32_t *name;         /* nkeys: strtab id */
	uint8_t *cls;           /* nkeys: enum event_class */
	int64_t *maxdur;        /* nkeys: the longest duration of the key */
	uint32_t *order;        /* nacts: event indices, by key, then as in acts */
	int64_t *prefix;        /* nacts + 1: prefix[i] = sum of durations of order[0 .. i) */
	int usable;
};

/* Builds ki over d's activities.  ki is overwritten. */
void metrics_kernel_index_build(struct kernel_index *ki,
    const struct metrics *d);
void metrics_kernel_index_free(struct kernel_index *ki);
/*
 * metrics_top_kernels() with the help of ki (built over d): the same result,
 * from the index where the window holds many activities per key, else by
 * the scan.
 */
size_t metrics_top_kernels_indexed(const struct metrics *d,
    const struct kernel_index *ki, int64_t a_ns, int64_t b_ns,
    struct kernel_total *out, size_t k);
/* The index's answer alone, whatever the window (ki must be usable). */
size_t metrics_top_kernels_by_index(const struct metrics *d,
    const struct kernel_index *ki, int64_t a_ns, int64_t b_ns,
    struct kernel_total *out, size_t k);

#endif
