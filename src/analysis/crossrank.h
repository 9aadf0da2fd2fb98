/*
 * crossrank — the same training seen from every rank at once: step times by
 * rank, collectives matched across ranks, their arrival skew, the straggler.
 *
 * A crossrank is built from analyses an[0..n), one per (rank, device); each
 * analysis is one participant, labelled (rank, device), in the order given
 * (a rank with two devices is two participants).
 *
 * Steps.  Every step number found on any participant gets a row: each
 * participant's step time (the CPU span of ProfilerStep#N; -1 where the
 * participant lacks the step, its first one where it has two), the slowest
 * participant and the spread (max - min over the participants that have it).
 *
 * Collectives.  A participant's collectives are its device's COMM activities
 * (dev.acts) in time order.  Their fields (collective name, process group,
 * Seq, group size) are the kernel's collective args (comm.h: its own, else
 * those of the CPU op enclosing its launch call).  A kernel without any is
 * named by its kernel name, has no group name and no Seq.
 *
 * Matching.  The key of a collective is its group (the Process Group Name,
 * or without one the kernel's stream: args.stream, else the track's tid) and
 *   - with a Seq: the Seq (names are not compared);
 *   - without: the collective name (kernel name when it has none);
 * plus its occurrence k: it is the k-th (from 0) with that group and Seq /
 * name on its participant.  So the k-th all-gather of process group "0" on
 * every rank is one collective; two kernels sharing one Seq (a coalesced
 * collective) match by their order.  Collectives with equal keys on
 * different participants are one matched collective when every participant
 * that must take part has one: the participants with any COMM activity at
 * all, or exactly group size of them when the args give a group size smaller
 * than that (a subgroup).  A key held by fewer is unmatched: it is never
 * forced, only counted (per key, and per participant for each of its
 * collectives in such a key).  A key with a Seq never matches one without.
 *
 * Skew.  For a matched collective: arrival skew = latest start - earliest
 * start; the last participant is the one with the latest start (ties: the
 * first in participant order; none when the skew is 0); every other member
 * waited (latest start - its start).  Per participant: how often it was last,
 * the time the others waited for it in those collectives (lost_ns), and the
 * time it waited for others (wait_ns).  The straggler is the participant last
 * most often (ties: most lost time, then the first); -1 when no collective
 * had a skew.
 *
 * Bandwidth.  A matched collective whose members give its message size
 * (bandwidth.h) of at least CROSSRANK_BW_MIN_BYTES is measured on each
 * member from the last arrival, so that waiting for a late peer does not
 * count: busbw = bytes x NCCL's factor (for the group size, else the
 * members) / (the member's kernel end - the latest start).  Per
 * participant, the median of its measures and of its collectives' expected
 * busbw; for the job, the medians of those over the participants measured.
 * Collectives of one shape (type, group size, bytes) should run alike on
 * every rank: per shape measured on >= CROSSRANK_BW_MIN_PARTS participants,
 * each participant's median against the median of those; a participant's
 * worst shape is kept (bw_ratio).  One far below the others has a slow link
 * (or a slow peer on it); all of them far below the expected, a slow
 * network.
 *
 * Clocks: the traces' absolute timestamps are used as they are, with no
 * alignment; a clock offset between hosts shows up as skew.
 *
 * Ownership: a crossrank owns its arrays and the strings it reports (its own
 * strtab); it keeps no pointer to the analyses or traces after
 * crossrank_build() returns, except that `event` indices refer to the events
 * of each participant's trace.
 *
 * Cost: O(N log N) for N collectives over all participants (two sorts) plus
 * O(P * C) for the per-participant tables of C matched collectives, and
 * O(S log S + P * R) for the S steps and R step numbers.
 */
#ifndef GANTTY_CROSSRANK_H
#define GANTTY_CROSSRANK_H

#include <stddef.h>
#include <stdint.h>

#include "base/strtab.h"

struct analysis;

#define CROSSRANK_TOP_K 10
/* Collectives smaller than this are latency bound: not measured. */
#define CROSSRANK_BW_MIN_BYTES (INT64_C(16) << 20)
/* A shape is compared across ranks when this many have it. */
#define CROSSRANK_BW_MIN_PARTS 3

/* One (rank, device) and its totals. */
struct crossrank_part {
	int64_t rank;
	int32_t device;
	size_t collectives;     /* its COMM activities */
	size_t unmatched;       /* of them, in keys that did not match */
	size_t last_count;      /* matched collectives it arrived last at */
	int64_t lost_ns;        /* time the others waited for it there */
	int64_t wait_ns;        /* time it waited for others, over all matched */
	size_t bw_count;        /* matched collectives measured for bandwidth */
	double busbw_gbps;      /* their median busbw from the last arrival, or -1 */
	double expected_gbps;   /* the median expected busbw of them, or -1 */
	/* its worst shape (below): its median there over the participants' */
	double bw_ratio;        /* 1 when no shape has enough participants */
	double bw_worst_gbps, bw_others_gbps; /* its median, theirs (-1: none) */
	int64_t bw_bytes, bw_group; /* the shape's bytes and group size */
	uint8_t bw_type;        /* and type (enum coll_type) */
};

/* One step number. */
struct crossrank_step {
	int64_t number;         /* N of ProfilerStep#N */
	size_t present;         /* participants that have it */
	int32_t slowest;        /* participant with the longest step time (ties: the first) */
	int64_t min_ns, max_ns; /* over the participants that have it */
	int64_t spread_ns;      /* max_ns - min_ns */
};

/* One collective key: matched (on every required participant) or not. */
struct crossrank_coll {
	uint32_t name;          /* x->strs id: collective name, else kernel name */
	uint32_t group;         /* x->strs id: process group name, or "stream N" */
	int by_stream;          /* 1: the group is a stream (no process group name) */
	int64_t seq;            /* Seq, -1 when matched by name and occurrence */
	int64_t occurrence;     /* k: the k-th with this group and Seq / name */
	int32_t group_size;     /* from the args, -1 if unknown */
	size_t members;         /* participants holding it */
	int64_t first_start_ns, last_start_ns; /* earliest and latest kernel start */
	int64_t skew_ns;        /* last_start_ns - first_start_ns */
	int64_t first_end_ns, last_end_ns;     /* earliest and latest kernel end */
	int32_t last;           /* participant that arrived last, -1 if skew is 0 */
	int64_t bytes;          /* the largest of its members', -1 if none has */
	uint8_t type;           /* enum coll_type (bandwidth.h) */
	double expected_gbps;   /* the largest of its members', -1 if none has */
};

struct crossrank {
	struct crossrank_part *parts;   /* nparts: the analyses, in order */
	size_t nparts;

	struct crossrank_step *steps;   /* by number, ascending */
	size_t nsteps;
	int64_t *step_ns;       /* nsteps * nparts: step_ns[s * nparts + p] is
	                           participant p's step time, -1 if missing */
	size_t steps_incomplete; /* steps missing on some participant */

	struct crossrank_coll *colls;   /* matched, by first_start_ns (then key) */
	size_t ncolls;
	int64_t *start_ns, *end_ns;     /* ncolls * nparts: [c * nparts + p] is
	                                   participant p's kernel; INT64_MIN if p is
	                                   not a member (subgroups) */
	uint32_t *event;        /* ncolls * nparts: its event index in p's trace,
	                           or EV_NONE */

	size_t unmatched_keys;  /* keys held by too few participants */
	size_t unmatched;       /* collectives in them, over all participants */
	struct crossrank_coll miss[CROSSRANK_TOP_K]; /* the earliest unmatched keys */
	size_t nmiss;

	size_t top[CROSSRANK_TOP_K];    /* indices into colls, largest skew first
	                                   (ties: earlier first); skew > 0 only */
	size_t ntop;

	int32_t straggler;      /* participant, -1 if none */
	int64_t world_size;     /* the largest distributedInfo.world_size, 0 if none */
	const int64_t *align_ns; /* set by the caller when the traces were shifted
	                           by --align=collective: the offset applied to
	                           each participant (not owned), else NULL */
	size_t unaligned;       /* participants that could not be aligned */
	int64_t total_skew_ns;  /* sum of skews over matched collectives */
	double busbw_gbps;      /* median of the participants' busbw_gbps, or -1 */
	double expected_gbps;   /* median of their expected_gbps, or -1 */

	struct strtab strs;     /* names and groups */
};

/*
 * The raw material of one participant: its steps and its collectives, taken
 * from its analysis (crossrank_in_from_analysis) or read back from a per-rank
 * JSON report (report_set.h), so that thousands of ranks can be matched without
 * loading their traces.
 */
struct crossrank_step_in {
	int64_t number;         /* N of ProfilerStep#N */
	int64_t start_ns, end_ns; /* its CPU span */
};
struct crossrank_coll_in {
	int64_t ts_ns, end_ns;  /* the kernel */
	int64_t seq;            /* Seq, -1 if none */
	int32_t group_size;     /* -1 if unknown */
	uint32_t name, group;   /* ids in the input's strs: collective name (else
	                           kernel name); process group name, else "stream N" */
	uint32_t event;         /* the kernel's event index, EV_NONE from a report */
	uint8_t by_stream;      /* 1: group is a stream */
	uint8_t type;           /* enum coll_type (bandwidth.h) */
	int64_t bytes;          /* bandwidth.h, -1 if unknown */
	double expected_gbps;   /* bandwidth.h, -1 if unknown */
};
struct crossrank_in {
	int64_t rank;
	int32_t device;
	int64_t world_size;     /* -1 if unknown */
	struct crossrank_step_in *steps;
	size_t nsteps;
	struct crossrank_coll_in *colls; /* in time order */
	size_t ncolls, colls_cap;
	struct strtab strs;
};

/* Initialises an empty input (no steps, no collectives). */
void crossrank_in_init(struct crossrank_in *in, int64_t rank, int32_t device,
    int64_t world_size);
/* Appends a collective (copied; its name and group are ids in in->strs). */
void crossrank_in_add(struct crossrank_in *in, const struct crossrank_coll_in *c);
/*
 * Fills in (overwritten) from analysis a: every step of a, every COMM
 * activity of its device with the fields the top of this file describes.
 */
void crossrank_in_from_analysis(struct crossrank_in *in, const struct analysis *a);
/* Adds off_ns to every time of in (--align's shift of a rank's clock). */
void crossrank_in_shift(struct crossrank_in *in, int64_t off_ns);
/* Frees what in owns; in may be zeroed. */
void crossrank_in_free(struct crossrank_in *in);

/*
 * Builds x from in[0..n) (n may be 0), one participant each, in that order.
 * x is overwritten.  Cannot fail.  Cost: see the top.
 */
void crossrank_build_from(struct crossrank *x, const struct crossrank_in *in,
    size_t n);
/*
 * Builds x from an[0..n): crossrank_build_from() of their inputs.  The
 * analyses and their traces are only read.
 */
void crossrank_build(struct crossrank *x, const struct analysis *an, size_t n);
/* Frees what crossrank_build() allocated; x may be zeroed. */
void crossrank_free(struct crossrank *x);

/* Returns the string of a name or group id of x. */
static inline const char *
crossrank_str(const struct crossrank *x, uint32_t id)
{
	return strtab_get(&x->strs, id);
}
/* Returns participant p's step time in step row s, -1 if it lacks it. */
static inline int64_t
crossrank_step_ns(const struct crossrank *x, size_t s, size_t p)
{
	return x->step_ns[s * x->nparts + p];
}
/*
 * Returns how long participant p waited at matched collective c (the latest
 * start minus its start; 0 for the last), or -1 if p is not a member.
 */
static inline int64_t
crossrank_wait_ns(const struct crossrank *x, size_t c, size_t p)
{
	int64_t s = x->start_ns[c * x->nparts + p];

	return s == INT64_MIN ? -1 : x->colls[c].last_start_ns - s;
}

#endif
