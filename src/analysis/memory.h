/*
 * memory — GPU memory of one (rank, device) over time, from the profiler's
 * `[memory]` instant events (profile_memory=True), and the CUDA allocator
 * calls (cudaMalloc / cudaFree) made during each step.
 *
 * Samples.  Every instant event named "[memory]" whose "Device Id" is the
 * device (events of "Device Type" 0, the CPU, have none) is one sample: its
 * time, "Total Allocated", "Total Reserved" and "Bytes" (the size of the
 * allocation, negative for a free).  Between samples the values hold: the
 * value at time t is that of the last sample at or before t (none before the
 * first sample).  Samples are sorted by time (file order kept for equal
 * times).
 *
 * Steps.  For each step (see steps.h), over its CPU span [start, end): the
 * allocated value in effect at its start, at its end, its peak (the largest
 * value in effect anywhere in the span), its minimum, and the peak reserved;
 * the peak minus the start value is the step's sawtooth (activations
 * allocated in forward, freed in backward).  Allocator calls: CPU events of
 * category cuda_runtime or cuda_driver named cudaMalloc, cudaMallocAsync,
 * cudaFree or cudaFreeAsync, counted in the step whose CPU span holds their
 * start.  A step after the first MEMORY_WARMUP_STEPS that makes any such call
 * has churn (the caching allocator should have reached its steady state and
 * reuse its blocks).
 *
 * Both come from the trace's lists (LIST_MEMORY, LIST_ALLOC_CALLS, made by
 * trace_finalize()): nothing here reads a string, so that the memory can be
 * built beside layers_find(), which adds some.
 *
 * Ownership: a memory owns its sample arrays and reads the samples' values
 * from the trace (12 bytes a sample, where a copy of them took 24: 10 MB
 * at 1 GB, at the analysis' peak), which must outlive it.  Costs: building
 * O(m log k) for m samples on k tracks; a value at a time O(log m); a
 * window's peak O(log m + k) for the k samples inside it.
 */
#ifndef GANTTY_MEMORY_H
#define GANTTY_MEMORY_H

#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"

struct trace;
struct step;

#define MEMORY_WARMUP_STEPS 2   /* steps before the allocator's steady state */

struct mem_sample {
	int64_t ts_ns;
	double allocated;       /* Total Allocated, bytes */
	double reserved;        /* Total Reserved, bytes */
};

struct memory {
	int32_t device;
	const struct trace *t;  /* the samples' */
	int64_t *ts_ns;         /* n sample times, ascending */
	uint32_t *nums;         /* n: their values' nums (trace_nums()) */
	size_t n;
	double peak_allocated, peak_reserved;   /* over all samples; 0 if none */
};

/* The memory of one step. */
struct mem_step {
	int64_t number;         /* N of ProfilerStep#N */
	int64_t start_ns, end_ns;       /* the step's CPU span */
	int has_samples;        /* a value is in effect somewhere in the span */
	double start_allocated, end_allocated;  /* in effect at start / at end - 1 */
	double min_allocated, peak_allocated, peak_reserved;
	uint32_t mallocs, frees;        /* allocator calls starting in the span */
	int64_t alloc_call_ns;  /* their total duration */
	int churn;              /* a call after the warm-up steps */
};

/*
 * Collects the samples of device of t into m (overwritten); t must outlive
 * m.  Cannot fail.
 */
void memory_build(struct memory *m, const struct trace *t, int32_t device);
/* Frees what memory_build() allocated; m may be zeroed. */
void memory_free(struct memory *m);
/*
 * Sets *out to the sample in effect at ts_ns (the last one at or before it)
 * and returns 1, or returns 0 when there is none.  O(log m).
 */
int memory_at(const struct memory *m, int64_t ts_ns, struct mem_sample *out);
/*
 * Sets *alloc and *reserved to the largest values in effect anywhere in
 * [a_ns, b_ns) and returns 1, or returns 0 (and sets both to 0) when no value
 * is in effect there.  O(log m + k).
 */
int memory_peak(const struct memory *m, int64_t a_ns, int64_t b_ns,
    double *alloc, double *reserved);
/*
 * Fills a malloc'd array (*out, NULL when n is 0) with the memory of the
 * steps s[0..n) (sorted by start) and returns n.  O(N log n + n (log m + k)).
 */
size_t memory_steps(const struct memory *m, const struct trace *t,
    const struct step *s, size_t n, struct mem_step **out);

#endif
