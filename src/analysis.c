#include "config.h"

#include "analysis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "trace.h"

/* The device's memory samples of a (they need nothing else). */
static void *
memory_main(void *arg)
{
	struct analysis *a = arg;

	memory_build(&a->mem, a->t, a->device);
	return NULL;
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
	struct job memory, window;

	memset(a, 0, sizeof *a);
	a->t = t;
	a->device = device;
	if (device < 0) {
		snprintf(a->problem, sizeof a->problem, "no GPU activity");
		return;
	}
	/*
	 * Three parts at once, sharing only what they read: the memory (from
	 * the trace's event lists, reading no string) from the start; the
	 * window's numbers once the steps are known; the layers here.
	 * layers_find() interns the layer names (the one write to the trace);
	 * the others read no string (the device's name was read by
	 * metrics_build()).
	 */
	if (opts->memory)
		job_start(&memory, memory_main, a);
	metrics_build(&a->dev, t, device, opts->min_gap_ns);
	a->nsteps = steps_find(&a->dev, &a->steps);

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

		if (a->has_window)
			job_start(&window, window_main, &wj);
		a->nlayers = layers_find(&a->dev, a->steps, a->nsteps,
		    opts->layer_pattern, &a->layers);
		if (a->has_window)
			job_join(&window);
	}
	if (opts->memory) {
		job_join(&memory);
		a->nmem_steps = memory_steps(&a->mem, t, a->steps, a->nsteps,
		    &a->mem_steps);
		a->has_memory = 1;
	}
}

void
analysis_free(struct analysis *a)
{
	if (a == NULL)
		return;
	metrics_free(&a->dev);
	free(a->steps);
	free(a->layers);
	mfu_flops_free(&a->flops);
	memory_free(&a->mem);
	free(a->mem_steps);
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
