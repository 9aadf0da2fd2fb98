/*
 * findings — what is wrong with one (rank, device), said plainly, with the
 * numbers that prove it, the time ranges it is about and the usual remedy.
 *
 * A finding has a kind (a stable id string, below), a severity, a one-line
 * summary, named evidence numbers, up to FINDINGS_MAX_RANGES time ranges
 * [start_ns, end_ns) (absolute, like every time in gantty; the viewer jumps
 * to them) and a remedy.  Each kind is raised at most once per analysis.
 * Every rule looks only at the analysis window W = [a->start_ns, a->end_ns)
 * (no window: no findings) and at the steps whose CPU span overlaps it
 * ("the steps"); step time = the sum of their CPU spans (|W| without steps).
 *
 * The rules (thresholds are the constants below; the man page says the same):
 *
 *  gpu_starved        idle >= STARVED_IDLE_SHARE of |W| and host wait (see
 *                     metrics.h) >= STARVED_HOST_SHARE of idle.  Critical
 *                     when idle >= STARVED_CRIT_SHARE.  Ranges: largest gaps.
 *  launch_bound       >= LAUNCH_MIN_KERNELS compute kernels start in W, their
 *                     median duration <= LAUNCH_SHORT_NS, and >= half of
 *                     them follow the previous activity of the device after
 *                     an idle hole of 0 < h <= LAUNCH_GAP_NS, those holes
 *                     adding up to >= LAUNCH_IDLE_SHARE of |W|.  Ranges: the
 *                     longest runs of short kernels separated by such holes.
 *  exposed_comm       exposed comm (T_exposed) >= EXPOSED_SHARE of the step
 *                     time (of |W| without steps); critical from
 *                     EXPOSED_CRIT_SHARE.  Not raised when that base is
 *                     shorter than EXPOSED_MIN_BASE_NS or the exposed time
 *                     is below EXPOSED_MIN_NS: a lone collective in a tiny
 *                     window is all "exposed" with nothing there to hide it.  Evidence splits the exposed time
 *                     by collective (all-gather, reduce-scatter, all-reduce,
 *                     all-to-all (SendRecv too), other; by kernel name, else
 *                     the Collective name argument; time covered by two
 *                     goes to the earlier) and names the worst layers (by
 *                     own exposed comm); the remedy follows what dominates.
 *                     Ranges: the worst layers' GPU extents (at most
 *                     EXPOSED_PER_LAYER occurrences of one layer and phase,
 *                     so that other layers show too), else the longest
 *                     exposed intervals.
 *  serialised_comm    comm and compute each >= SERIAL_MIN_SHARE of |W| and
 *                     overlap < SERIAL_MAX_OVERLAP of comm.  Ranges: the
 *                     longest exposed intervals.
 *  sync_stall         cudaStreamSynchronize / cudaEventSynchronize /
 *                     cudaDeviceSynchronize (any cuda_runtime call with
 *                     Synchronize in its name) starting inside the steps'
 *                     CPU spans, each >= SYNC_MIN_NS, after which the device
 *                     is idle (the queue drained while the CPU waited): the
 *                     idle from the call's end to the device's next activity
 *                     adds up to >= SYNC_SHARE of the step time, or after
 *                     one call is >= SYNC_STEP_SHARE of its own step.  A sync that
 *                     returns while the GPU is still busy costs nothing.
 *                     Ranges: the idle after each call (from its end to
 *                     the device's next activity), longest first.
 *  allocator_churn    cudaMalloc / cudaFree calls (memory.h) in steps after
 *                     the first MEMORY_WARMUP_STEPS, at least CHURN_MIN_CALLS.
 *                     Ranges: those calls.
 *  dataloader_wait    CPU spans whose name holds "DataLoader" and "__next__"
 *                     (outermost only), inside W, adding up to
 *                     >= DATALOADER_SHARE of the step time.  Evidence also
 *                     gives the GPU idle between consecutive steps.  Ranges:
 *                     the longest spans.
 *  outlier_step       any of the steps is an outlier (steps.h).  Evidence for
 *                     the slowest: its time, the median, and how its idle,
 *                     largest gap, compute, comm and exposed comm differ
 *                     from the median step's (measured over CPU spans); the
 *                     summary names the largest difference.  Ranges: the
 *                     outlier steps.
 *  straggler_rank     from the cross-rank analysis x alone (findings_cross();
 *                     findings_find() raises it on the straggler's own
 *                     participant when given x): the straggler (crossrank.h)
 *                     arrived last at >= STRAGGLER_MIN_LAST collectives and
 *                     the others waited >= STRAGGLER_SHARE of its step time
 *                     in x (the span of the matched collectives without
 *                     steps) for it.  Ranges: its worst collectives (from
 *                     the earliest to the latest arrival).
 *  slow_collective    from x alone, like straggler_rank, on the bandwidth
 *                     of the matched collectives measured from the last
 *                     arrival (crossrank.h): with >= SLOW_MIN_PARTS
 *                     participants measured, those whose busbw is below
 *                     SLOW_LINK_SHARE of the median of all (a slow link,
 *                     or a slow peer on it); else, when the median is below
 *                     SLOW_NET_SHARE of the expected busbw (bandwidth.h),
 *                     the whole job (a slow or misconfigured network).
 *                     findings_find() raises it on the slow participants,
 *                     or on every one for the whole job.  Ranges: the slow
 *                     participants' slowest collectives (last arrival to
 *                     their end).
 *  attention_unfused  >= ATTN_MIN_SOFTMAX CPU ops named aten::_softmax (what
 *                     F.softmax runs; log_softmax is another op) starting in
 *                     W (widened to the steps) that sit between batched
 *                     matmuls, as in attention (QK^T, softmax, AV): on the
 *                     same CPU track an aten::bmm / aten::baddbmm ends at
 *                     most ATTN_NEAR_NS before the softmax starts and another
 *                     starts at most ATTN_NEAR_NS after it ends (looking at
 *                     most ATTN_SCAN events either way); and no fused
 *                     attention: no CPU op or kernel whose name holds flash,
 *                     fmha, efficient_attention, fused_attention or
 *                     scaled_dot_product (any case).  Ranges: the first such
 *                     softmax ops (CPU spans).
 *  low_mfu            MFU is known and < LOW_MFU; critical below
 *                     LOW_MFU_CRIT.  Range: W.
 *
 * Ownership: findings_find() returns a malloc'd array the caller frees; the
 * strings it points to (remedies) are static.  Costs: O(n log n) for the n
 * events of the trace.
 */
#ifndef GANTTY_FINDINGS_H
#define GANTTY_FINDINGS_H

#include <stddef.h>
#include <stdint.h>

#include "base/ivset.h"

struct analysis;
struct crossrank;

#define FINDINGS_STARVED_IDLE_SHARE 0.20
#define FINDINGS_STARVED_HOST_SHARE 0.50
#define FINDINGS_STARVED_CRIT_SHARE 0.50
#define FINDINGS_LAUNCH_MIN_KERNELS 100
#define FINDINGS_LAUNCH_SHORT_NS INT64_C(20000)     /* 20 us */
#define FINDINGS_LAUNCH_GAP_NS INT64_C(10000)       /* 10 us */
#define FINDINGS_LAUNCH_IDLE_SHARE 0.10
#define FINDINGS_EXPOSED_SHARE 0.10
#define FINDINGS_EXPOSED_CRIT_SHARE 0.25
#define FINDINGS_EXPOSED_PER_LAYER 2
#define FINDINGS_EXPOSED_MIN_BASE_NS INT64_C(500000)  /* 500 us */
#define FINDINGS_EXPOSED_MIN_NS INT64_C(100000)       /* 100 us */
#define FINDINGS_SERIAL_MIN_SHARE 0.05
#define FINDINGS_SERIAL_MAX_OVERLAP 0.05
#define FINDINGS_SYNC_MIN_NS INT64_C(100000)        /* 100 us */
#define FINDINGS_SYNC_SHARE 0.05
#define FINDINGS_SYNC_STEP_SHARE 0.03
#define FINDINGS_CHURN_MIN_CALLS 2
#define FINDINGS_DATALOADER_SHARE 0.05
#define FINDINGS_STRAGGLER_MIN_LAST 2
#define FINDINGS_STRAGGLER_SHARE 0.01
#define FINDINGS_SLOW_LINK_SHARE 0.5
#define FINDINGS_SLOW_NET_SHARE 0.25
#define FINDINGS_SLOW_MIN_PARTS 3
#define FINDINGS_ATTN_MIN_SOFTMAX 2
#define FINDINGS_ATTN_NEAR_NS INT64_C(300000)      /* 300 us */
#define FINDINGS_ATTN_SCAN 256
#define FINDINGS_LOW_MFU 0.30
#define FINDINGS_LOW_MFU_CRIT 0.15

#define FINDINGS_MAX_RANGES 8
#define FINDINGS_MAX_NUMS 12

/*
 * The kinds, in the order of the man page's FINDINGS section (ties between
 * findings of one severity go by it): X(name, id), the id being the stable
 * string of the reports.  tests/mancheck.sh reads the ids from this list.
 */
#define FINDINGS_KINDS(X) \
	X(GPU_STARVED, "gpu_starved") \
	X(LAUNCH_BOUND, "launch_bound") \
	X(EXPOSED_COMM, "exposed_comm") \
	X(SERIALISED_COMM, "serialised_comm") \
	X(SYNC_STALL, "sync_stall") \
	X(ALLOCATOR_CHURN, "allocator_churn") \
	X(DATALOADER_WAIT, "dataloader_wait") \
	X(OUTLIER_STEP, "outlier_step") \
	X(STRAGGLER_RANK, "straggler_rank") \
	X(SLOW_COLLECTIVE, "slow_collective") \
	X(ATTENTION_UNFUSED, "attention_unfused") \
	X(LOW_MFU, "low_mfu")

enum finding_kind {
#define X(name, id) FIND_##name,
	FINDINGS_KINDS(X)
#undef X
	FIND_KINDS
};

enum finding_severity {
	SEV_INFO = 0,
	SEV_WARNING,
	SEV_CRITICAL,
};

/* One evidence number: an integer (ns, a count) or a real (a share 0..1). */
struct finding_num {
	const char *key;        /* static, e.g. "idle_ns"; the unit is in the name */
	int is_real;
	int64_t i;
	double d;
};

struct finding {
	enum finding_kind kind;
	enum finding_severity severity;
	char summary[320];      /* one line of text, UTF-8 */
	struct finding_num nums[FINDINGS_MAX_NUMS];
	size_t nnums;
	struct ival ranges[FINDINGS_MAX_RANGES];
	size_t nranges;
	const char *remedy;     /* static text */
};

/*
 * Applies every rule to a (x: the cross-rank analysis of a set of analyses
 * of which a is participant part, or NULL).  Returns the number of findings
 * and a malloc'd array in *out (NULL if none), most severe first (ties: kind
 * order).  Cannot fail.
 */
size_t findings_find(const struct analysis *a, const struct crossrank *x,
    size_t part, struct finding **out);

/*
 * The findings of the job as a whole, from x alone (the straggler, slow
 * collectives): the
 * report's cross_rank.findings, equal whether x comes from the traces or
 * from per-rank reports.  Returns their number and a malloc'd array in *out
 * (NULL if none).
 */
size_t findings_cross(const struct crossrank *x, struct finding **out);

/* The kind's id, e.g. "gpu_starved". */
const char *findings_kind_id(enum finding_kind k);
/* "info", "warning" or "critical". */
const char *findings_severity_name(enum finding_severity s);
/* Returns the evidence number key of f, or NULL. */
const struct finding_num *findings_num(const struct finding *f, const char *key);
/* Returns the finding of kind k in f[0..n), or NULL. */
const struct finding *findings_get(const struct finding *f, size_t n,
    enum finding_kind k);

#endif
