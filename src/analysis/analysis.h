/*
 * analysis — everything gantty computes for one (rank, device), for one
 * window: the metrics, the steps, the layers, MFU, the top kernels and, when
 * asked, the device's memory.
 *
 * It ties the pure modules together (metrics, steps, layers, mfu) so that the
 * report and the viewer ask one place.  An analysis reads its trace, which
 * must outlive it, and owns the rest.
 */
#ifndef GANTTY_ANALYSIS_H
#define GANTTY_ANALYSIS_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/bandwidth.h"
#include "analysis/layers.h"
#include "analysis/memory.h"
#include "analysis/metrics.h"
#include "analysis/mfu.h"
#include "analysis/steps.h"

struct trace;
struct analysis_memory;
struct dg_whatif;
struct whatif;

enum window_mode {
	WINDOW_DEFAULT = 0,     /* first to last GPU activity of the device */
	WINDOW_ABSOLUTE,        /* [start_ns, end_ns) for every rank */
	WINDOW_STEP,            /* the GPU extent of ProfilerStep#step */
};

struct analysis_opts {
	int64_t min_gap_ns;
	enum window_mode window;
	int64_t start_ns, end_ns;       /* WINDOW_ABSOLUTE */
	int64_t step;                   /* WINDOW_STEP */
	const regex_t *layer_pattern;   /* NULL: built-in layer sources */
	struct mfu_opts mfu;            /* world_size <= 0: from the trace */
	int64_t ranks_loaded;           /* world size when neither the flag
	                                   nor distributedInfo gives one */
	int memory;                     /* also build the device's memory */
	int keep_flops;                 /* keep the op FLOPs (for the viewer) */
	const struct dg_whatif *whatif; /* --what-if scenarios (whatif.h), nwhatif */
	size_t nwhatif;
	int critical_path;              /* --what-if given: the report adds each
	                                   step's critical path and the what_if table */
	const struct whatif *replays;   /* set by the report while it writes: the
	                                   replays of the analyses it reports */
};

struct analysis {
	const struct trace *t;
	int32_t device;         /* -1: the trace has no GPU activity */
	int has_window;         /* 0: no activity, or the step has no GPU extent */
	int64_t start_ns, end_ns;
	struct metrics dev;
	struct window_metrics m;
	struct step *steps;
	size_t nsteps;
	long median_step;       /* steps_median() of steps, -1 without steps */
	struct layer *layers;
	size_t nlayers;
	struct mfu_result mfu;
	struct bw_index bw;     /* the device's collectives with message sizes */
	struct kernel_total top[METRICS_TOP_K];
	size_t ntop;
	int has_flops;          /* opts.keep_flops and a window: flops kept */
	struct mfu_flops flops; /* the op FLOPs MFU was computed with */
	struct analysis_memory *memory; /* opts.memory: see analysis_memory() */
	char problem[160];      /* why there is no window, "" otherwise */
};

/*
 * Analyses device of t (-1 for a trace without GPU activity: only the
 * window-independent parts are filled) with opts.  a is overwritten.
 * Cannot fail: a missing step leaves has_window 0 with a problem text.
 */
void analysis_build(struct analysis *a, const struct trace *t, int32_t device,
    const struct analysis_opts *opts);
/*
 * The device's memory and its steps' (*ms, *nms), asked for by
 * opts.memory, else NULL.  analysis_build() leaves a thread building them
 * (after the layers, whose temporary arrays are gone by then: peak memory),
 * so that they are made while the caller writes the report; this waits for
 * it: the one call that changes a, not to be made from two threads at once.
 */
const struct memory *analysis_memory(const struct analysis *a,
    const struct mem_step **ms, size_t *nms);
/* Frees what analysis_build() allocated (waiting for its thread); a may be zeroed. */
void analysis_free(struct analysis *a);
/*
 * Returns 1 if [s, e) (a CPU span or GPU extent) is to be listed for the
 * window: everything for the default window, else what overlaps it.
 */
int analysis_in_window(const struct analysis *a, const struct analysis_opts *o,
    int64_t s, int64_t e);

#endif
