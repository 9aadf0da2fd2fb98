/* launch — a kernel's launch context, a CPU event's kernels; see launch.h. */
#include "config.h"

#include "analysis/launch.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/layers.h"
#include "model/itree.h"
#include "model/trace.h"

static enum cat_kind
kind_of(const struct trace *t, const struct event *e)
{
	return e->cat < t->ncats ? (enum cat_kind)t->cat_kinds[e->cat] : CAT_OTHER;
}

static int
is_module(const struct trace *t, const struct event *e)
{
	const char *name = trace_str(t, e->name);
	enum cat_kind k = kind_of(t, e);

	if (k == CAT_PYTHON_FUNCTION)
		return strncmp(name, "nn.Module: ", 11) == 0;
	return k == CAT_USER_ANNOTATION && strncmp(name, "ProfilerStep#", 13) != 0;
}

void
launch_context(const struct trace *t, const struct layer *layers,
    size_t nlayers, uint32_t ev, struct launch_context *out)
{
	const struct event *e = &t->events[ev], *at;
	const struct track *tr;
	uint32_t *buf = NULL, around;
	size_t len = 0, cap = 0, n;
	int op_depth = -1, mod_depth = -1;
	int64_t best_len = 0;

	out->launch = out->op = out->module = EV_NONE;
	out->layer = -1;
	around = ev;
	if (event_is_activity(e)) {
		if (e->link == EV_NONE || e->link >= t->nevents)
			return;
		around = out->launch = e->link;
	} else if (e->link != EV_NONE && e->link < t->nevents &&
	    event_is_activity(&t->events[e->link])) {
		out->launch = ev;       /* a launch call: the context of itself */
	}
	at = &t->events[around];
	tr = &t->tracks[at->track];
	if (tr->count > 0) {
		n = itree_overlap(&tr->index, &t->events[tr->first], at->ts_ns,
		    at->ts_ns + 1, &buf, &len, &cap);
		for (size_t i = 0; i < n; i++) {
			uint32_t k = tr->first + buf[i];
			const struct event *p = &t->events[k];

			if (k == around || event_ph(p) != 'X' || p->ts_ns > at->ts_ns ||
			    event_end(p) < event_end(at) || p->depth >= at->depth)
				continue;
			if (kind_of(t, p) == CAT_CPU_OP && p->depth > op_depth) {
				op_depth = p->depth;
				out->op = k;
			}
			if (is_module(t, p) && p->depth > mod_depth) {
				mod_depth = p->depth;
				out->module = k;
			}
		}
		free(buf);
	}
	/* the innermost layer whose CPU span holds the start */
	for (size_t i = 0; i < nlayers; i++) {
		const struct layer *l = &layers[i];
		int64_t d = l->cpu_end_ns - l->cpu_start_ns;

		if (l->cpu_start_ns <= at->ts_ns && at->ts_ns < l->cpu_end_ns &&
		    (out->layer < 0 || d < best_len)) {
			out->layer = (long)i;
			best_len = d;
		}
	}
}

/* Keeps k among the LAUNCH_TOP longest of out->top. */
static void
top_add(const struct trace *t, struct launched *out, uint32_t k)
{
	int64_t d = t->events[k].dur_ns;

	for (int i = 0; i < LAUNCH_TOP; i++) {
		if (out->top[i] == EV_NONE || t->events[out->top[i]].dur_ns < d) {
			memmove(&out->top[i + 1], &out->top[i],
			    (LAUNCH_TOP - 1 - i) * sizeof out->top[0]);
			out->top[i] = k;
			return;
		}
	}
}

void
launch_kernels(const struct trace *t, uint32_t ev, struct launched *out)
{
	const struct event *e = &t->events[ev];
	const struct track *tr = &t->tracks[e->track];
	uint32_t end, seen = 0;

	memset(out, 0, sizeof *out);
	for (int i = 0; i < LAUNCH_TOP; i++)
		out->top[i] = EV_NONE;
	if (event_is_activity(e) || tr->kind != TRACK_CPU)
		return;
	end = (uint32_t)trace_track_lower_bound(t, tr, event_end(e) + (e->dur_ns == 0));
	/* the events after ev in track order start inside it until its end */
	for (uint32_t k = ev; k < end; k++) {
		const struct event *c = &t->events[k];
		const struct event *g;

		if (++seen > LAUNCH_SCAN) {
			out->partial = 1;
			break;
		}
		if (k != ev && (c->depth <= e->depth || event_end(c) > event_end(e)))
			continue;
		if (c->link == EV_NONE || c->link >= t->nevents)
			continue;
		g = &t->events[c->link];
		if (!event_is_activity(g))
			continue;
		out->kernels++;
		out->gpu_ns += g->dur_ns;
		top_add(t, out, c->link);
	}
}
