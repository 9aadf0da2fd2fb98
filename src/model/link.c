#include "config.h"

#include "model/link.h"

#include <stdlib.h>
#include <string.h>

#include "model/trace.h"
#include "base/xalloc.h"

/* correlation id -> launch event: open addressing, key ID_NONE = empty. */
struct corr_map {
	int64_t *keys;
	uint32_t *vals;
	size_t nslots;
};

static size_t
corr_slot(const struct corr_map *m, int64_t key)
{
	uint64_t h = (uint64_t)key * 0x9e3779b97f4a7c15ull;

	return (size_t)(h ^ (h >> 31)) & (m->nslots - 1);
}

static uint32_t *
corr_lookup(struct corr_map *m, int64_t key, int insert)
{
	size_t i = corr_slot(m, key);

	while (m->keys[i] != ID_NONE) {
		if (m->keys[i] == key)
			return &m->vals[i];
		i = (i + 1) & (m->nslots - 1);
	}
	if (!insert)
		return NULL;
	m->keys[i] = key;
	m->vals[i] = EV_NONE;
	return &m->vals[i];
}

static int
is_launch(const struct trace *t, const struct event *e)
{
	enum cat_kind k = t->cat_kinds[e->cat];

	return k == CAT_CUDA_RUNTIME || k == CAT_CUDA_DRIVER;
}

static void
set_link(struct trace *t, uint32_t gpu, uint32_t cpu)
{
	struct event *g = &t->events[gpu], *c = &t->events[cpu];

	g->link = cpu;
	if (c->link == EV_NONE || t->events[c->link].ts_ns > g->ts_ns)
		c->link = gpu;
}

static void
link_correlations(struct trace *t)
{
	struct corr_map m;
	size_t nlaunch = 0;

	for (size_t i = 0; i < t->nevents; i++) {
		const struct event *e = &t->events[i];
		struct event_args a_buf;
		const struct event_args *a = trace_args(t, e, &a_buf);

		if (a != NULL && a->correlation != ID_NONE && !event_is_activity(e))
			nlaunch++;
	}
	if (nlaunch == 0)
		return;
	m.nslots = 64;
	while (m.nslots < nlaunch * 2)
		m.nslots *= 2;
	m.keys = xmalloc(m.nslots * sizeof *m.keys);
	m.vals = xmalloc(m.nslots * sizeof *m.vals);
	for (size_t i = 0; i < m.nslots; i++)
		m.keys[i] = ID_NONE;

	/* Launch calls first; other CPU events with a correlation only fill gaps. */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < t->nevents; i++) {
			const struct event *e = &t->events[i];
			struct event_args a_buf;
			const struct event_args *a = trace_args(t, e, &a_buf);
			uint32_t *v;

			if (a == NULL || a->correlation == ID_NONE ||
			    (event_is_activity(e) || (e->flags & EVF_ANNOTATION)) ||
			    t->tracks[e->track].kind == TRACK_GPU ||
			    is_launch(t, e) != (pass == 0))
				continue;
			v = corr_lookup(&m, a->correlation, 1);
			if (*v == EV_NONE)
				*v = (uint32_t)i;
		}
	}
	for (size_t i = 0; i < t->nevents; i++) {
		const struct event *e = &t->events[i];
		struct event_args a_buf;
		const struct event_args *a = trace_args(t, e, &a_buf);
		uint32_t *v;

		if (!event_is_activity(e) || a == NULL ||
		    a->correlation == ID_NONE)
			continue;
		v = corr_lookup(&m, a->correlation, 0);
		if (v != NULL)
			set_link(t, (uint32_t)i, *v);
	}
	free(m.keys);
	free(m.vals);
}

/* The deepest event of track enclosing ts (activity preferred on GPU). */
static uint32_t
bind_enclosing(const struct trace *t, uint32_t track, int64_t ts,
    uint32_t **buf, size_t *cap)
{
	const struct track *tr = &t->tracks[track];
	const struct event *ev;
	size_t len = 0;
	uint32_t best = EV_NONE;
	int best_score = -1;

	if (tr->count == 0)
		return EV_NONE;         /* (and t->events may be NULL) */
	ev = &t->events[tr->first];
	itree_overlap(&tr->index, ev, ts, ts + 1, buf, &len, cap);
	for (size_t i = 0; i < len; i++) {
		const struct event *e = &ev[(*buf)[i]];
		int score = e->depth + (event_is_activity(e) ? 1 << 17 : 0);

		if (e->flags & (EVF_INSTANT | EVF_COUNTER))
			continue;
		if (score > best_score) {
			best_score = score;
			best = tr->first + (*buf)[i];
		}
	}
	return best;
}

/* The first event of track starting at or after ts. */
static uint32_t
bind_next(const struct trace *t, uint32_t track, int64_t ts)
{
	const struct track *tr = &t->tracks[track];
	uint32_t i = trace_track_lower_bound(t, tr, ts);

	return i < tr->first + tr->count ? i : EV_NONE;
}

static int
flow_order(const void *pa, const void *pb, void *ctx)
{
	const struct flow *f = ctx;
	const struct flow *a = &f[*(const uint32_t *)pa], *b = &f[*(const uint32_t *)pb];

	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	if (a->ts_ns != b->ts_ns)
		return a->ts_ns < b->ts_ns ? -1 : 1;
	return *(const uint32_t *)pa < *(const uint32_t *)pb ? -1 : 1;
}

static void
link_flows(struct trace *t)
{
	uint32_t *buf = NULL, *order;
	size_t cap = 0;

	/* the pairs' order first: it reads the times, which binding replaces */
	order = xmalloc((t->nflows ? t->nflows : 1) * sizeof *order);
	for (size_t i = 0; i < t->nflows; i++)
		order[i] = (uint32_t)i;
	qsort_r(order, t->nflows, sizeof *order, flow_order, t->flows);
	for (size_t i = 0; i < t->nflows; i++) {
		struct flow *f = &t->flows[i];
		uint32_t ev;

		if (f->ph == 'f' && !f->enclosing)
			ev = bind_next(t, f->track, f->ts_ns);
		else
			ev = bind_enclosing(t, f->track, f->ts_ns, &buf, &cap);
		f->event = ev;          /* its time is not read again */
		if (ev == EV_NONE)
			t->warn.unbound_flows++;
	}
	free(buf);

	/* ac2g pairs link activity that its correlation did not. */
	for (size_t i = 0; i < t->nflows;) {
		size_t j = i;
		uint32_t cpu = EV_NONE;

		while (j < t->nflows && t->flows[order[j]].id == t->flows[order[i]].id)
			j++;
		for (size_t k = i; k < j; k++) {
			const struct flow *f = &t->flows[order[k]];

			if (t->cat_kinds[f->cat] == CAT_FLOW_AC2G && f->ph == 's' &&
			    f->event != EV_NONE)
				cpu = f->event;
		}
		for (size_t k = i; k < j && cpu != EV_NONE; k++) {
			const struct flow *f = &t->flows[order[k]];

			if (t->cat_kinds[f->cat] != CAT_FLOW_AC2G || f->ph != 'f' ||
			    f->event == EV_NONE)
				continue;
			if (event_is_activity(&t->events[f->event]) &&
			    t->events[f->event].link == EV_NONE)
				set_link(t, f->event, cpu);
		}
		i = j;
	}
	free(order);
}

void
link_build(struct trace *t)
{
	link_correlations(t);
	if (t->nflows > 0)
		link_flows(t);
}
