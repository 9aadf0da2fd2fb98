#include "config.h"

#include "analysis/analysis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/job.h"
#include "model/trace.h"
#include "base/xalloc.h"

/*
 * The device's memory and its steps', built by a thread of its own that
 * analysis_build() leaves running.  Apart from struct analysis, which the
 * caller may move meanwhile (an array of them grows).
 */
struct analysis_memory {
	const struct trace *t;
	int32_t device;
	const struct step *steps;
	size_t nsteps;
	struct memory m;
	struct mem_step *ms;
	size_t nms;
	struct job job;
	int joined;
};

static void *
memory_main(void *arg)
{
	struct analysis_memory *am = arg;

	memory_build(&am->m, am->t, am->device);
	am->nms = memory_steps(&am->m, am->t, am->steps, am->nsteps, &am->ms);
	return NULL;
}

const struct memory *
analysis_memory(const struct analysis *a, const struct mem_step **ms,
    size_t *nms)
{
	struct analysis_memory *am = a->memory;

	*ms = NULL;
	*nms = 0;
	if (am == NULL)
		return NULL;
	if (!am->joined) {
		job_join(&am->job);
		am->joined = 1;
	}
	*ms = am->ms;
	*nms = am->nms;
	return &am->m;
}

/* The window's metrics, top kernels and MFU of a (after its steps). */
struct window_job {
	struct analysis *a;
	const struct mfu_opts *mo;
	int keep_flops;
};

static void *
window_main(void *arg)
{
	struct window_job *j = arg;
	struct analysis *a = j->a;

	metrics_window(&a->dev, a->start_ns, a->end_ns, &a->m);
	a->ntop = metrics_top_kernels(&a->dev, a->start_ns, a->end_ns, a->top,
	    METRICS_TOP_K);
	if (j->keep_flops) {
		mfu_flops_build(&a->flops, &a->dev);
		a->has_flops = 1;
	}
	mfu_compute_with(&a->dev, a->has_flops ? &a->flops : NULL, a->steps,
	    a->nsteps, j->mo, a->start_ns, a->end_ns, &a->mfu);
	return NULL;
}

void
analysis_build(struct analysis *a, const struct trace *t, int32_t device,
    const struct analysis_opts *opts)
{
	struct mfu_opts mo = opts->mfu;
	struct job window;

	memset(a, 0, sizeof *a);
	a->t = t;
	a->device = device;
	a->median_step = -1;
	if (device < 0) {
		snprintf(a->problem, sizeof a->problem, "no GPU activity");
		return;
	}
	metrics_build(&a->dev, t, device, opts->min_gap_ns);
	a->nsteps = steps_find(&a->dev, &a->steps);
	a->median_step = steps_median(a->steps, a->nsteps);

	switch (opts->window) {
	case WINDOW_DEFAULT:
		a->start_ns = a->dev.first_ns;
		a->end_ns = a->dev.last_ns;
		a->has_window = 1;
		break;
	case WINDOW_ABSOLUTE:
		a->start_ns = opts->start_ns;
		a->end_ns = opts->end_ns;
		a->has_window = 1;
		break;
	case WINDOW_STEP:
		for (size_t i = 0; i < a->nsteps; i++) {
			if (a->steps[i].number != opts->step)
				continue;
			if (!a->steps[i].has_gpu) {
				snprintf(a->problem, sizeof a->problem,
				    "ProfilerStep#%lld has no GPU activity on device %d",
				    (long long)opts->step, device);
				break;
			}
			a->start_ns = a->steps[i].gpu_start_ns;
			a->end_ns = a->steps[i].gpu_end_ns;
			a->has_window = 1;
			break;
		}
		if (!a->has_window && a->problem[0] == '\0')
			snprintf(a->problem, sizeof a->problem,
			    "no ProfilerStep#%lld in this trace", (long long)opts->step);
		break;
	}
	if (mo.world_size <= 0)
		mo.world_size = t->world_size > 0 ? t->world_size : opts->ranks_loaded;
	{
		struct window_job wj = { a, &mo, opts->keep_flops };

		/*
		 * The layers here, the window's numbers on a second thread:
		 * they share only what they read.  layers_find() interns the
		 * layer names (the one write to the trace); the other thread
		 * reads no string (the device's name was read by
		 * metrics_build()), nor does the memory's (from the trace's
		 * event lists), which goes on after this returns.  The window
		 * is joined before the layers' extents, which take the most
		 * memory: at 1 GB, 9 MB for the MFU's op map beside 16 for
		 * the launch index and own collectives would be the analysis'
		 * peak.
		 */
		if (a->has_window)
			job_start(&window, window_main, &wj);
		a->nlayers = layers_find(&a->dev, a->steps, a->nsteps,
		    opts->layer_pattern, &a->layers,
		    a->has_window ? &window : NULL);
	}
	bandwidth_index(&a->bw, &a->dev);
	if (opts->memory) {
		struct analysis_memory *am = xcalloc(1, sizeof *am);

		am->t = t;
		am->device = device;
		am->steps = a->steps;
		am->nsteps = a->nsteps;
		a->memory = am;
		job_start(&am->job, memory_main, am);
	}
}

void
analysis_free(struct analysis *a)
{
	if (a == NULL)
		return;
	if (a->memory != NULL) {
		const struct mem_step *ms;
		size_t nms;

		(void)analysis_memory(a, &ms, &nms);    /* its thread is done */
		memory_free(&a->memory->m);
		free(a->memory->ms);
		free(a->memory);
	}
	metrics_free(&a->dev);
	bandwidth_index_free(&a->bw);
	free(a->steps);
	free(a->layers);
	mfu_flops_free(&a->flops);
	memset(a, 0, sizeof *a);
}

int
analysis_in_window(const struct analysis *a, const struct analysis_opts *o,
    int64_t s, int64_t e)
{
	if (o->window == WINDOW_DEFAULT)
		return 1;
	if (!a->has_window)
		return 0;
	if (e == s)
		return s >= a->start_ns && s < a->end_ns;
	return s < a->end_ns && e > a->start_ns;
}
