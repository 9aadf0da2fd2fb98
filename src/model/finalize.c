/*
 * finalize — trace_finalize() (declared in trace.h): the last step of a
 * load.  It sorts the trace (trace_sort(), trace.c), then builds what is
 * derived from the sorted events: the tracks' depths, sub-rows, interval
 * indexes and busy sets (track.h), the launch links (link.h, after which
 * the flow endpoints are freed), the kernels' COMM class (comm.h), the
 * events by name (byname.h), and the
 * lists and counts the analysis reads instead of scanning (count_events()).
 *
 * It lives apart from trace.c because it runs the modules that work on a
 * trace (track, link), which include trace.h: so trace.c needs none of
 * them and the model's include graph has no cycle.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/byname.h"
#include "model/comm.h"
#include "model/link.h"
#include "model/trace.h"
#include "model/track.h"
#include "base/bigarray.h"
#include "base/strtab.h"
#include "base/xalloc.h"

/* Appends event i to list k. */
static void
list_add(struct trace *t, enum trace_list k, size_t *cap, size_t i)
{
	xgrow(&t->lists[k], cap, t->nlist[k] + 1, sizeof *t->lists[k]);
	t->lists[k][t->nlist[k]++] = (uint32_t)i;
}

static int
is_alloc_name(const char *name, const void *arg)
{
	(void)arg;
	return strcmp(name, "cudaMalloc") == 0 ||
	    strcmp(name, "cudaMallocAsync") == 0 ||
	    strcmp(name, "cudaFree") == 0 || strcmp(name, "cudaFreeAsync") == 0;
}

/*
 * The counts and lists of the trace (after link_build(), as links count,
 * and byname_build(), which finds the named events).
 */
static void
count_events(struct trace *t)
{
	size_t cap = 0, n;
	uint32_t *sel;
	const uint32_t *ev;

	t->cat_slices = xcalloc(t->ncats ? t->ncats : 1, sizeof *t->cat_slices);
	t->nactivities = t->nlinked = 0;
	for (size_t i = 0; i < t->nevents; i++) {
		const struct event *e = &t->events[i];
		struct event_args a_buf;
		const struct event_args *a;

		if (event_ph(e) == 'X' && !(e->flags & EVF_FROM_BE))
			t->cat_slices[e->cat]++;
		if (event_is_activity(e)) {
			t->nactivities++;
			t->nlinked += e->link != EV_NONE;
		}
		if ((a = trace_args(t, e, &a_buf)) != NULL && a->external_id != ID_NONE &&
		    trace_args_flops(t, a) > 0 &&
		    t->tracks[e->track].kind == TRACK_CPU)
			list_add(t, LIST_FLOP_OPS, &cap, i);
	}
	ev = byname_events(&t->byname, strtab_find(&t->strs, "[memory]", 8), &n);
	cap = 0;
	for (size_t j = 0; j < n; j++)
		if ((t->events[ev[j]].flags & EVF_INSTANT) &&
		    t->args[ev[j]].device != ARGS_NONE)
			list_add(t, LIST_MEMORY, &cap, ev[j]);
	n = byname_select(&t->byname, &t->strs, is_alloc_name, NULL, &sel);
	cap = 0;
	for (size_t j = 0; j < n; j++) {
		struct event *e = &t->events[sel[j]];
		uint8_t kind = t->cat_kinds[e->cat];

		if (event_ph(e) != 'X' ||
		    (kind != CAT_CUDA_RUNTIME && kind != CAT_CUDA_DRIVER))
			continue;
		if (strstr(trace_str(t, e->name), "Free") != NULL)
			e->flags |= EVF_FREE_CALL;
		list_add(t, LIST_ALLOC_CALLS, &cap, sel[j]);
	}
	free(sel);
}

void
trace_finalize(struct trace *t)
{
	t->src_off = UINT64_MAX;        /* the loading is over */
	trace_sort(t);
	track_build_all(t);
	link_build(t);
	/* bound: what they said is in event.link now (flows are ~1 in 4 of
	   a Kineto trace's objects: issue 6's memory) */
	t->flow_count = t->nflows;
	bigarray_free(t->flows, t->flows_cap, sizeof *t->flows);
	t->flows = NULL;
	t->nflows = t->flows_cap = 0;
	comm_classify(t, NULL);
	byname_build(&t->byname, t->events, t->nevents, t->strs.count);
	count_events(t);
}
