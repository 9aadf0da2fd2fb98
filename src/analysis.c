#include "config.h"

#include "analysis.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

/* The window's metrics, top kernels and MFU of a (see analysis_build()). */
struct window_job {
	struct analysis *a;
	const struct mfu_opts *mo;
};

static void *
window_main(void *arg)
{
	struct window_job *j = arg;
	struct analysis *a = j->a;

	metrics_window(&a->dev, a->start_ns, a->end_ns, &a->m);
	a->ntop = metrics_top_kernels(&a->dev, a->start_ns, a->end_ns, a->top,
	    METRICS_TOP_K);
	mfu_compute(&a->dev, a->steps, a->nsteps, j->mo, a->start_ns, a->end_ns,
	    &a->mfu);
	return NULL;
}

void
analysis_build(struct analysis *a, const struct trace *t, int32_t device,
    const struct analysis_opts *opts)
{
	struct mfu_opts mo = opts->mfu;

	memset(a, 0, sizeof *a);
	a->t = t;
	a->device = device;
	if (device < 0) {
		snprintf(a->problem, sizeof a->problem, "no GPU activity");
		return;
	}
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
	if (!a->has_window) {
		a->nlayers = layers_find(&a->dev, a->steps, a->nsteps,
		    opts->layer_pattern, &a->layers);
		return;
	}
	if (mo.world_size <= 0)
		mo.world_size = t->world_size > 0 ? t->world_size : opts->ranks_loaded;
	/*
	 * The layers here, the window's numbers in a second thread: they
	 * share only what is read.  layers_find() interns the layer names
	 * (the one write to the trace); the window's part reads no string
	 * (the device's name was read by metrics_build()).
	 */
	{
		struct window_job job = { a, &mo };
		pthread_t th;
		int threaded = pthread_create(&th, NULL, window_main, &job) == 0;

		a->nlayers = layers_find(&a->dev, a->steps, a->nsteps,
		    opts->layer_pattern, &a->layers);
		if (threaded)
			pthread_join(th, NULL);
		else
			window_main(&job);
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
