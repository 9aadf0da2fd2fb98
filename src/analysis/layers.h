/*
 * layers — FSDP units and modules of one (rank, device): where each forward
 * and backward ran, and what its communication cost.
 *
 * Sources, in this order of preference (the first that is present in the
 * trace is used, unless a pattern is given, which replaces them):
 *  1. FSDP2 (fully_shard): CPU annotations "FSDP::<hook> (<fqn>)".  A unit's
 *     forward runs from its FSDP::pre_forward start to its FSDP::post_forward
 *     end; its backward from its FSDP::pre_backward start to the end of its
 *     last FSDP::post_backward_* (accumulate, reshard, reduce) before its next
 *     pre_backward.  One layer per (fqn, phase, occurrence).
 *  2. FSDP1: "FullyShardedDataParallel.*" annotations: the CPU span of
 *     "FullyShardedDataParallel.forward" (and "..._pre_backward_hook" ..
 *     "..._post_backward_hook" for backward); named by occurrence order,
 *     since FSDP1 writes no module name.
 *  3. Modules: python_function events "nn.Module: Name_k" give forward
 *     layers, and their backward comes from the autograd ops (SPEC 3): a
 *     backward op (a CPU op whose "Fwd thread id" is not 0) belongs to the
 *     forward op with its "Sequence number" on its forward thread (the
 *     thread whose forward ops share the most sequence numbers with the
 *     backward ops of that Fwd thread id, a profiler-internal number), and
 *     so to every module span around that forward op.  A module's backward
 *     layer runs from the start of its first backward op to the start of the
 *     next backward op on that thread after its last one, or, for the last
 *     of a step, to the end of that thread's last work in the step: DDP
 *     launches a bucket's all-reduce right after the op whose gradient
 *     completes it, and that all-reduce is then the layer's own.
 *  4. A user pattern (POSIX extended regex) matched against the names of CPU
 *     events of any category; the first parenthesised group, if any, is the
 *     layer name, else the whole event name; phase "span".
 *
 * A layer's GPU extent is derived like a step's (see steps.h): the first
 * start to the last end of the device's activity whose launch call starts
 * inside the layer's CPU span.  Per layer, measured with metrics_window()
 * over its GPU extent: compute_ns, comm_ns, exposed_comm_ns (a neighbour's
 * late collective shows up here too).  own_exposed_comm_ns is
 * |U_comm(own) \ U_comp|, the part of the collectives the layer itself
 * launched that no compute on the device hides (the root cause): a
 * collective is the layer's own when its launch call lies inside an FSDP
 * annotation naming the layer's fqn and phase (for FSDP2), else inside the
 * layer's CPU span.  estimate_exposed_ns = max(0, comm_ns - compute_ns).
 * step is the number of the step whose CPU span holds the layer's start, or
 * -1.
 *
 * Layers are listed in execution order (CPU start, then longest first).
 * O(n log n) in the trace's events.
 */
#ifndef GANTTY_LAYERS_H
#define GANTTY_LAYERS_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

struct metrics;
struct step;

enum layer_phase {
	LAYER_FORWARD = 0,
	LAYER_BACKWARD,
	LAYER_SPAN,             /* a pattern match: no phase known */
};

enum layer_source {
	LAYER_FSDP2 = 0,
	LAYER_FSDP1,
	LAYER_MODULE,
	LAYER_PATTERN,
};

struct layer {
	uint32_t name;          /* strtab id of the fqn / module / match */
	enum layer_phase phase;
	enum layer_source source;
	int64_t step;           /* step number, -1 if outside every step */
	int64_t cpu_start_ns, cpu_end_ns;
	int64_t gpu_start_ns, gpu_end_ns;       /* both 0 and has_gpu = 0 if none */
	int has_gpu;
	int64_t compute_ns, comm_ns, exposed_comm_ns;
	int64_t own_comm_ns;    /* |U_comm(own)| */
	int64_t own_exposed_comm_ns;
	int64_t estimate_exposed_ns;
};

/*
 * Finds the layers of d's trace on d's device (steps[0..nsteps) give the step
 * numbers; may be empty).  pattern, if not NULL, replaces the built-in
 * sources.  Returns their number and a malloc'd array in *out (NULL if
 * none).  Cannot fail.  The layer names are interned into d->t's string
 * table, its one write to the trace: not while another thread reads it.
 *
 * before, if not NULL, is the caller's job on another thread: joined once
 * the layers are found, before their GPU extents are (the index of the
 * launches and the own collectives, the most memory), so that the two do
 * not hold theirs at once.
 */
struct job;
size_t layers_find(const struct metrics *d, const struct step *steps,
    size_t nsteps, const regex_t *pattern, struct layer **out,
    struct job *before);

/*
 * The one ranking of layers by exposed communication, for the findings, the
 * report and the viewer's x: a is worse than b (negative), better
 * (positive) or the same layer (0).  Worse means more exposed
 * communication of its own; on a tie, the earlier start (the GPU start
 * where it has one, else the CPU start), then the earlier in the array (a
 * and b point into one array of layers).  A total order, so every caller
 * names the same worst layer.
 */
int layers_cmp_worst(const struct layer *a, const struct layer *b);
/* layers_cmp_worst() for qsort() over an array of const struct layer *. */
int layers_qsort_worst(const void *pa, const void *pb);
/*
 * Whether l's GPU extent covers the whole GPU extent of its step (of
 * steps[0..nsteps)): a model-wide module (DistributedDataParallel, the root
 * module), which the rankings of the worst layers pass over, as they pass
 * over a layer whose GPU extent one listed before already has.
 */
int layers_whole_step(const struct layer *l, const struct step *steps,
    size_t nsteps);
/*
 * Whether a ranking of the worst layers passes over l, after listed[0..n):
 * l is model-wide (layers_whole_step()) or has the GPU extent of one
 * listed already.
 */
int layers_rank_skip(const struct layer *l, const struct layer *const *listed,
    size_t n, const struct step *steps, size_t nsteps);

static inline const char *
layers_phase_name(enum layer_phase p)
{
	static const char *const names[] = { "forward", "backward", "span" };
	return names[p];
}

static inline const char *
layers_source_name(enum layer_source s)
{
	static const char *const names[] = { "fsdp2", "fsdp1", "module", "pattern" };
	return names[s];
}

#endif
