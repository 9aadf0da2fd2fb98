/*
 * mfu — model FLOPs utilisation of one (rank, device) for a window.
 *
 * Two sources, the first that applies wins:
 *  - "model": the user gives the global FLOPs of one step, F, directly
 *    (--flops-per-step) or as F = 6 * P * D (8 * P * D with --recompute) from
 *    --model-params=P and --tokens-per-step=D (global tokens).  With
 *    world_size ranks, each rank does F / world_size per step, and
 *      MFU(W) = sum over steps s of (F / world_size) * |s ∩ W| / |s|
 *               / (|W| * peak)
 *    where s is the step's GPU extent (its CPU span when it has none).
 *  - "op_flops": without model flags, where CPU ops carry args.flops
 *    (with_flops=True): each such op's FLOPs are spread over the GPU time of
 *    the kernels it launched (kernels whose "External id" equals the op's, as
 *    Kineto writes, else whose launch call's does; each kernel gets flops *
 *    its duration / the total duration of the op's kernels on the device;
 *    memcpy/memset get none; of several CPU events sharing an External id the
 *    innermost with flops counts), and the window gets each kernel's share
 *    proportionally to the part of the kernel inside it.  achieved TFLOP/s =
 *    FLOPs in W / |W|; MFU = achieved / peak.
 * Peak: --peak-tflops, else looked up from the deviceProperties name of the
 * device in mfu_peak_table (dense BF16 tensor TFLOP/s, each entry with its
 * source).  Unknown peak, no steps, or no FLOPs: value is unknown (has_value
 * = 0) with a reason.
 */
#ifndef GANTTY_MFU_H
#define GANTTY_MFU_H

#include <stddef.h>
#include <stdint.h>

struct metrics;
struct step;

struct mfu_opts {
	double flops_per_step;  /* global; <= 0: not given */
	double model_params;    /* P; <= 0: not given */
	double tokens_per_step; /* D, global; <= 0: not given */
	int recompute;          /* 8PD instead of 6PD */
	double peak_tflops;     /* <= 0: look up */
	int64_t world_size;     /* <= 0: unknown */
};

struct mfu_result {
	int has_value;
	double value;           /* 0..1 (can exceed 1 with wrong flags) */
	const char *source;     /* "model", "op_flops" or NULL */
	int has_peak;
	double peak_tflops;
	const char *peak_from;  /* "--peak-tflops" or the table entry's device */
	int has_achieved;
	double achieved_tflops;
	char reason[160];       /* why value is unknown; "" when known */
};

/* One row of the peak table. */
struct mfu_peak {
	const char *match;      /* case-insensitive substring of the device name,
	                           not glued to a letter or digit on either side
	                           ("A10" does not match "A100", nor "H200" "GH200") */
	const char *device;     /* what it is */
	double tflops;          /* dense BF16 (FP16 where BF16 is not supported) */
	const char *source;     /* where the number comes from */
};

extern const struct mfu_peak mfu_peak_table[];
extern const size_t mfu_peak_table_len;

/*
 * Returns the peak row for a deviceProperties name, or NULL.  More specific
 * rows (e.g. "H100 PCIe") are listed, and matched, before general ones.
 */
const struct mfu_peak *mfu_lookup_peak(const char *device_name);

/*
 * The op FLOPs of one device's kernels (the "op_flops" source), built once
 * per device so that a window costs O(log n + k), whatever its size.  Each
 * kernel of d->acts gets its share of its op's FLOPs; prefix[i] is the sum of
 * the shares of d->acts[0 .. i).  Only reads d and its trace, which must
 * outlive it.
 */
struct mfu_flops {
	size_t nops;            /* CPU ops with args.flops > 0 in the trace (0: no
	                           op FLOPs; the arrays are then NULL) */
	double *share;          /* d->nacts: FLOPs of each activity (0 if none) */
	double *prefix;         /* d->nacts + 1 */
	int64_t max_dur_ns;     /* longest activity with a share */
};

/*
 * Builds f for d.  Cannot fail.  O(N + F log F + n log F) for N events, F ops
 * with FLOPs, n activities of d.
 */
void mfu_flops_build(struct mfu_flops *f, const struct metrics *d);
/* Frees what mfu_flops_build() allocated; f may be zeroed. */
void mfu_flops_free(struct mfu_flops *f);

/*
 * Computes the MFU of d for [a_ns, b_ns) with the steps s[0..nsteps).  Never
 * fails: an unknown value comes with a reason.  O(s) for model FLOPs; for op
 * FLOPs O(N + F log F), the same value as with a struct mfu_flops built
 * beforehand, in 4 bytes an activity (not its 16).
 */
void mfu_compute(const struct metrics *d, const struct step *s,
    size_t nsteps, const struct mfu_opts *opts, int64_t a_ns, int64_t b_ns,
    struct mfu_result *out);
/*
 * The same with the op FLOPs f of d built beforehand (NULL: as
 * mfu_compute()): O(log n + k) for op FLOPs, k activities starting within
 * f->max_dur_ns of the window's edges.  For a viewer that recomputes as the
 * window moves.
 */
void mfu_compute_with(const struct metrics *d, const struct mfu_flops *f,
    const struct step *s, size_t nsteps, const struct mfu_opts *opts,
    int64_t a_ns, int64_t b_ns, struct mfu_result *out);

#endif
