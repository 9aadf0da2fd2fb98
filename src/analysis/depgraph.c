/*
 * depgraph — the dependency graph, its replay and the critical path (see
 * depgraph.h for the model).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/crossrank.h"
#include "analysis/cudasync.h"
#include "analysis/depgraph.h"
#include "base/xalloc.h"
#include "model/trace.h"

enum dg_edge_kind {
	EK_OWN = 0,             /* start -> end: the node's own duration */
	EK_THREAD,              /* host time between two CPU nodes */
	EK_LAUNCH,              /* launch call -> activity */
	EK_STREAM,              /* previous activity of the stream -> activity */
	EK_WAIT,                /* another stream's activity -> activity */
	EK_SYNC,                /* waited activity's end -> sync's end */
	EK_ANCHOR,              /* last sync's end -> activity (no-host-wait) */
	EK_GROUP,               /* member's start -> the group */
	EK_XFER,                /* the group -> member's end: its transfer */
};

#define VS(n) ((uint32_t)(2 * (n)))     /* start vertex of node n */
#define VE(n) ((uint32_t)(2 * (n) + 1)) /* end vertex */

/* An edge while building: to which vertex. */
struct pending {
	uint32_t to;
	struct dg_edge e;
};

struct builder {
	struct depgraph *g;
	size_t nodes_cap;
	struct pending *pe;
	size_t npe, pe_cap;
};

static uint32_t
node_add(struct builder *b, const struct dg_node *n)
{
	struct depgraph *g = b->g;

	if (g->nnodes == b->nodes_cap) {
		b->nodes_cap = b->nodes_cap ? 2 * b->nodes_cap : 1024;
		g->nodes = xreallocarray(g->nodes, b->nodes_cap, sizeof *g->nodes);
	}
	g->nodes[g->nnodes] = *n;
	return (uint32_t)g->nnodes++;
}

/* Adds from -> to with lag (the measured one) and the lag a replay uses. */
static void
edge_add(struct builder *b, uint32_t from, uint32_t to, int kind,
    int64_t lag_ns, int64_t replay_ns)
{
	struct pending *p;

	if (b->npe == b->pe_cap) {
		b->pe_cap = b->pe_cap ? 2 * b->pe_cap : 4096;
		b->pe = xreallocarray(b->pe, b->pe_cap, sizeof *b->pe);
	}
	p = &b->pe[b->npe++];
	p->to = to;
	p->e.from = from;
	p->e.kind = (uint8_t)kind;
	p->e.unexplained = replay_ns != lag_ns;
	p->e.lag_ns = lag_ns;
	p->e.replay_ns = replay_ns;
}

/* The measured time of vertex v. */
static int64_t
vtime(const struct depgraph *g, uint32_t v)
{
	const struct dg_node *n = &g->nodes[v / 2];

	return v & 1 ? n->end_ns : n->start_ns;
}

static int
cmp_i64(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;

	return (a > b) - (a < b);
}

/* The CPU nodes of one part in program order: by start, marks first. */
struct cpu_item {
	int64_t ts_ns;
	uint32_t node;
	uint32_t track;         /* UINT32_MAX for marks */
	uint8_t rank;           /* 0 end mark, 1 start mark, 2 call */
};

static int
cmp_cpu(const void *x, const void *y)
{
	const struct cpu_item *a = x, *b = y;

	if (a->ts_ns != b->ts_ns)
		return a->ts_ns < b->ts_ns ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	return (a->node > b->node) - (a->node < b->node);
}

/* Activity node indices of one part, by end (for the wait search). */
static const struct dg_node *sort_nodes;

static int
cmp_by_end(const void *x, const void *y)
{
	const struct dg_node *a = &sort_nodes[*(const uint32_t *)x];
	const struct dg_node *b = &sort_nodes[*(const uint32_t *)y];

	if (a->end_ns != b->end_ns)
		return a->end_ns < b->end_ns ? -1 : 1;
	return (*(const uint32_t *)x > *(const uint32_t *)y) -
	    (*(const uint32_t *)x < *(const uint32_t *)y);
}

/* Per part while building. */
struct part_build {
	uint32_t *of_event;     /* event -> node, EV_NONE */
	uint32_t *anchor;       /* call node - first_node -> last sync node, EV_NONE */
	uint32_t first_node;
	uint32_t *acts;         /* activity nodes in d->acts order */
	size_t nacts;
	int64_t max_dur;
	struct cudasync cs;     /* the waits the trace records */
};

/* The recorded waits of waiter event ev: cs->v[*lo .. return). */
static size_t
recorded_waits(const struct cudasync *cs, uint32_t ev, size_t *lo)
{
	size_t l = 0, h = cs->n;

	while (l < h) {
		size_t m = l + (h - l) / 2;

		if (cs->v[m].waiter < ev)
			l = m + 1;
		else
			h = m;
	}
	*lo = l;
	while (h < cs->n && cs->v[h].waiter == ev)
		h++;
	return h;
}

/* Adds the CPU calls and step marks of part p and chains them. */
static void
build_cpu(struct builder *b, struct part_build *pb, size_t p)
{
	struct depgraph *g = b->g;
	const struct analysis *a = &g->an[p];
	const struct trace *t = a->t;
	struct cpu_item *it = NULL;
	size_t nit = 0, cap = 0;
	uint32_t *thread_last;
	uint32_t last_sync = EV_NONE;

	pb->first_node = (uint32_t)g->nnodes;
	for (size_t k = 0; k < t->ntracks; k++) {
		const struct track *tr = &t->tracks[k];

		if (tr->kind != TRACK_CPU)
			continue;
		for (uint32_t i = tr->first; i < tr->first + tr->count; i++) {
			const struct event *e = &t->events[i];
			uint8_t ck = t->cat_kinds[e->cat];
			struct dg_node n = { 0 };

			if ((ck != CAT_CUDA_RUNTIME && ck != CAT_CUDA_DRIVER) ||
			    event_ph(e) != 'X')
				continue;
			n.start_ns = e->ts_ns;
			n.end_ns = event_end(e);
			n.own_ns = e->dur_ns;
			n.event = i;
			n.part = (uint32_t)p;
			n.step = (int32_t)steps_at(a->steps, a->nsteps, e->ts_ns);
			n.kind = e->flags & EVF_SYNC ? DG_SYNC : DG_CALL;
			pb->of_event[i] = node_add(b, &n);
			if (nit == cap) {
				cap = cap ? 2 * cap : 1024;
				it = xreallocarray(it, cap, sizeof *it);
			}
			it[nit++] = (struct cpu_item){ e->ts_ns, pb->of_event[i],
			    (uint32_t)k, 2 };
		}
	}
	g->mark_first[p] = g->nmarks_used;
	for (size_t s = 0; s < a->nsteps; s++) {
		for (int end = 0; end < 2; end++) {
			struct dg_node n = { 0 };
			int64_t ts = end ? a->steps[s].end_ns : a->steps[s].start_ns;

			n.start_ns = n.end_ns = ts;
			n.event = EV_NONE;
			n.part = (uint32_t)p;
			n.step = (int32_t)s;
			n.kind = DG_MARK;
			g->marks[g->nmarks_used++] = node_add(b, &n);
			if (nit == cap) {
				cap = cap ? 2 * cap : 1024;
				it = xreallocarray(it, cap, sizeof *it);
			}
			it[nit++] = (struct cpu_item){ ts, g->marks[g->nmarks_used - 1],
			    UINT32_MAX, (uint8_t)(end ? 0 : 1) };
		}
	}
	qsort(it, nit, sizeof *it, cmp_cpu);
	pb->anchor = xmalloc((g->nnodes - pb->first_node + 1) * sizeof *pb->anchor);
	thread_last = xmalloc((t->ntracks + 1) * sizeof *thread_last);
	for (size_t k = 0; k < t->ntracks; k++)
		thread_last[k] = EV_NONE;
	for (size_t i = 0; i < nit; i++) {
		uint32_t c = it[i].node;
		const struct dg_node *cn = &g->nodes[c];

		if (i > 0) {
			const struct dg_node *pn = &g->nodes[it[i - 1].node];

			if (cn->start_ns >= pn->end_ns)
				edge_add(b, VE(it[i - 1].node), VS(c), EK_THREAD,
				    cn->start_ns - pn->end_ns, cn->start_ns - pn->end_ns);
			else
				edge_add(b, VS(it[i - 1].node), VS(c), EK_THREAD,
				    cn->start_ns - pn->start_ns, cn->start_ns - pn->start_ns);
		}
		if (it[i].track != UINT32_MAX) {
			uint32_t tp = thread_last[it[i].track];

			/* order only: a thread's idle time between its calls is
			   spent waiting for the other threads, whose host time the
			   merged edge above carries */
			if (tp != EV_NONE && (i == 0 || tp != it[i - 1].node) &&
			    cn->start_ns >= g->nodes[tp].end_ns)
				edge_add(b, VE(tp), VS(c), EK_THREAD, 0, 0);
			thread_last[it[i].track] = c;
			/* the last sync that ended before this call began */
			pb->anchor[c - pb->first_node] = last_sync != EV_NONE &&
			    g->nodes[last_sync].end_ns <= cn->start_ns ? last_sync : EV_NONE;
			if (cn->kind == DG_SYNC)
				last_sync = c;
		}
		if (cn->kind != DG_SYNC)
			edge_add(b, VS(c), VE(c), EK_OWN, cn->own_ns, cn->own_ns);
	}
	free(thread_last);
	free(it);
}

/* Adds the device's activities of part p as nodes. */
static void
build_acts(struct builder *b, struct part_build *pb, size_t p)
{
	struct depgraph *g = b->g;
	const struct analysis *a = &g->an[p];
	const struct trace *t = a->t;
	const struct metrics *d = &a->dev;

	pb->acts = xmalloc((d->nacts + 1) * sizeof *pb->acts);
	pb->nacts = d->nacts;
	pb->max_dur = 0;
	for (size_t i = 0; i < d->nacts; i++) {
		const struct event *e = &t->events[d->acts[i]];
		struct dg_node n = { 0 };
		int64_t at = e->ts_ns;

		if (e->link != EV_NONE && pb->of_event[e->link] != EV_NONE)
			at = t->events[e->link].ts_ns;
		n.start_ns = e->ts_ns;
		n.end_ns = event_end(e);
		n.own_ns = e->dur_ns;
		n.event = d->acts[i];
		n.part = (uint32_t)p;
		n.step = (int32_t)steps_at(a->steps, a->nsteps, at);
		if (n.step >= 0 && at >= a->steps[n.step].end_ns)
			n.step = -1;
		n.kind = DG_ACT;
		n.cls = (uint8_t)e->cls;
		pb->acts[i] = node_add(b, &n);
		pb->of_event[d->acts[i]] = pb->acts[i];
		if (e->dur_ns > pb->max_dur)
			pb->max_dur = e->dur_ns;
	}
}

/*
 * Binds the synchronisation call c to the waits the trace records for it:
 * returns 0 when it records none.
 */
static int
bind_recorded_sync(struct builder *b, struct part_build *pb, uint32_t c)
{
	struct depgraph *g = b->g;
	const struct dg_node *cn = &g->nodes[c];
	int64_t s = cn->start_ns, e = cn->end_ns, best = INT64_MIN;
	uint32_t w = EV_NONE;
	size_t lo, hi = recorded_waits(&pb->cs, cn->event, &lo);

	if (lo == hi)
		return 0;
	for (size_t i = lo; i < hi; i++) {
		uint32_t u = pb->of_event[pb->cs.v[i].waited];
		int64_t end = g->nodes[u].end_ns;

		if (end > s && end <= e && end > best) {
			best = end;
			w = u;
		}
	}
	/* the binding one first, each at most the call's span after the
	   activity it waited for */
	edge_add(b, VS(c), VE(c), EK_OWN, w != EV_NONE ? e - best : e - s,
	    w != EV_NONE ? e - best : e - s);
	if (w != EV_NONE)
		edge_add(b, VE(w), VE(c), EK_SYNC, e - best, e - best);
	for (size_t i = lo; i < hi; i++) {
		uint32_t u = pb->of_event[pb->cs.v[i].waited];
		int64_t lag = e - g->nodes[u].end_ns;

		if (u == w)
			continue;
		lag = lag < e - s ? lag : e - s;
		edge_add(b, VE(u), VE(c), EK_SYNC, lag, lag);
	}
	g->syncs++;
	g->recorded++;
	return 1;
}

/* Binds each synchronisation call of part p to the activity it waited for. */
static void
build_syncs(struct builder *b, struct part_build *pb, size_t p)
{
	struct depgraph *g = b->g;
	const struct metrics *d = &g->an[p].dev;

	for (uint32_t c = pb->first_node; c < g->nnodes; c++) {
		const struct dg_node *cn = &g->nodes[c];
		int64_t s = cn->start_ns, e = cn->end_ns, best = INT64_MIN, tail;
		uint32_t w = EV_NONE;
		size_t hi;

		if (cn->kind != DG_SYNC || bind_recorded_sync(b, pb, c))
			continue;
		hi = metrics_first_at(d, e);
		while (hi > 0) {
			const struct dg_node *an = &g->nodes[pb->acts[--hi]];

			if (an->start_ns < s - pb->max_dur)
				break;
			if (d->launch_ns[hi] == METRICS_UNLINKED ||
			    d->launch_ns[hi] >= s || an->end_ns > e || an->end_ns <= s)
				continue;
			if (an->end_ns > best) {
				best = an->end_ns;
				w = pb->acts[hi];
			}
		}
		tail = e - (w != EV_NONE ? best : s);
		edge_add(b, VS(c), VE(c), EK_OWN, w != EV_NONE ? tail : e - s,
		    w != EV_NONE ? tail : e - s);
		if (w != EV_NONE) {
			edge_add(b, VE(w), VE(c), EK_SYNC, tail, tail);
			g->syncs++;
		}
	}
}

/* The median launch latency of the device: where stream and launch allowed. */
static int64_t
median_latency(const struct depgraph *g, const struct part_build *pb,
    const struct metrics *d)
{
	int64_t *lat = xmalloc((pb->nacts + 1) * sizeof *lat), med = 0;
	int64_t *last_end = xcalloc(d->ntracks + 1, sizeof *last_end);
	size_t n = 0;

	for (size_t k = 0; k < d->ntracks; k++)
		last_end[k] = INT64_MIN;
	for (size_t i = 0; i < pb->nacts; i++) {
		const struct dg_node *an = &g->nodes[pb->acts[i]];
		const struct event *e = &d->t->events[an->event];
		size_t tp = metrics_track_pos(d, e->track);

		if (d->launch_ns[i] != METRICS_UNLINKED &&
		    d->launch_ns[i] >= last_end[tp] && an->start_ns >= d->launch_ns[i])
			lat[n++] = an->start_ns - d->launch_ns[i];
		if (an->end_ns > last_end[tp])
			last_end[tp] = an->end_ns;
	}
	if (n) {
		qsort(lat, n, sizeof *lat, cmp_i64);
		med = lat[n / 2];
	}
	free(last_end);
	free(lat);
	return med;
}

/*
 * The activity of another stream of the device whose end is the latest in
 * [lo, hi], or EV_NONE: by_end sorted by end.
 */
static uint32_t
find_wait(const struct depgraph *g, const uint32_t *by_end, size_t n,
    int64_t lo, int64_t hi, uint32_t track, const struct trace *t)
{
	size_t l = 0, h = n;

	while (l < h) {         /* first whose end > hi */
		size_t m = l + (h - l) / 2;

		if (g->nodes[by_end[m]].end_ns <= hi)
			l = m + 1;
		else
			h = m;
	}
	while (l > 0) {
		const struct dg_node *c = &g->nodes[by_end[--l]];

		if (c->end_ns < lo)
			break;
		if (t->events[c->event].track != track)
			return by_end[l];
	}
	return EV_NONE;
}

/* The edges into each activity of part p (see the top of depgraph.h). */
static void
build_act_edges(struct builder *b, struct part_build *pb, size_t p,
    const uint32_t *group_of)
{
	struct depgraph *g = b->g;
	const struct metrics *d = &g->an[p].dev;
	const struct trace *t = d->t;
	uint32_t *last = xmalloc((d->ntracks + 1) * sizeof *last);
	uint32_t *by_end = xmalloc((pb->nacts + 1) * sizeof *by_end);
	int64_t lmed = median_latency(g, pb, d);

	if (p == 0 || lmed > g->launch_lat_ns)
		g->launch_lat_ns = lmed;
	memcpy(by_end, pb->acts, pb->nacts * sizeof *by_end);
	sort_nodes = g->nodes;
	qsort(by_end, pb->nacts, sizeof *by_end, cmp_by_end);
	for (size_t k = 0; k < d->ntracks; k++)
		last[k] = EV_NONE;
	for (size_t i = 0; i < pb->nacts; i++) {
		uint32_t k = pb->acts[i], prev, l = EV_NONE, w = EV_NONE;
		const struct dg_node *kn = &g->nodes[k];
		const struct event *e = &t->events[kn->event];
		size_t tp = metrics_track_pos(d, e->track);
		int64_t m = kn->start_ns, A = INT64_MIN, B = INT64_MIN;
		int64_t C = INT64_MIN, base;
		int overlap = 0;
		size_t rlo, rhi;

		prev = last[tp];
		last[tp] = k;
		if (e->link != EV_NONE && pb->of_event[e->link] != EV_NONE &&
		    t->events[e->link].ts_ns <= m) {
			l = pb->of_event[e->link];
			A = g->nodes[l].start_ns;
		}
		if (prev != EV_NONE) {
			B = g->nodes[prev].end_ns;
			if (B > m) {
				overlap = 1;
				B = g->nodes[prev].start_ns;
			}
		}
		base = B;
		if (A != INT64_MIN && A + lmed > base)
			base = A + lmed;
		rlo = 0;
		rhi = recorded_waits(&pb->cs, kn->event, &rlo);
		for (size_t r = rlo; r < rhi; r++) {    /* the latest recorded one */
			uint32_t u = pb->of_event[pb->cs.v[r].waited];

			if (w == EV_NONE || g->nodes[u].end_ns > g->nodes[w].end_ns)
				w = u;
		}
		if (w != EV_NONE) {
			if (base != INT64_MIN && g->nodes[w].end_ns < base)
				w = EV_NONE;    /* recorded, but not what held it */
			g->recorded++;
		} else if (base != INT64_MIN && m - base > DEPGRAPH_SLACK_NS &&
		    pb->cs.stream_wait_rows == 0) {
			w = find_wait(g, by_end, pb->nacts, base, m, e->track, t);
		}
		if (w != EV_NONE)
			C = g->nodes[w].end_ns;
		/* the binding edge first: the critical path takes the first exact one */
		if (C != INT64_MIN) {
			edge_add(b, VE(w), VS(k), EK_WAIT, m - C, m - C <= DEPGRAPH_GAP_NS ? m - C : 0);
			g->waits++;
			if (m - C > DEPGRAPH_GAP_NS) {
				g->unexplained++;
				g->unexplained_ns += m - C;
			}
			if (prev != EV_NONE)
				edge_add(b, overlap ? VS(prev) : VE(prev), VS(k), EK_STREAM, 0, 0);
			if (l != EV_NONE) {
				int64_t lag = lmed < m - A ? lmed : m - A;

				edge_add(b, VS(l), VS(k), EK_LAUNCH, lag, lag);
			}
		} else if (A != INT64_MIN && (B == INT64_MIN || A + lmed >= B)) {
			int64_t lag = m - A, rl = lag;

			if (lag - lmed > DEPGRAPH_GAP_NS) {
				g->unexplained++;
				g->unexplained_ns += lag - lmed;
				rl = lmed;
			}
			edge_add(b, VS(l), VS(k), EK_LAUNCH, lag, rl);
			if (prev != EV_NONE)
				edge_add(b, overlap ? VS(prev) : VE(prev), VS(k), EK_STREAM, 0, 0);
		} else if (B != INT64_MIN) {
			int64_t lag = m - B, rl = lag;

			if (lag > DEPGRAPH_GAP_NS) {
				g->unexplained++;
				g->unexplained_ns += lag;
				rl = 0;
			}
			edge_add(b, overlap ? VS(prev) : VE(prev), VS(k), EK_STREAM, lag, rl);
			if (l != EV_NONE) {
				int64_t ll = lmed < m - A ? lmed : m - A;

				edge_add(b, VS(l), VS(k), EK_LAUNCH, ll, ll);
			}
		}
		for (size_t r = rlo; r < rhi; r++) {    /* the others: order */
			uint32_t u = pb->of_event[pb->cs.v[r].waited];
			int64_t lag = m - g->nodes[u].end_ns;

			if (u != w)
				edge_add(b, VE(u), VS(k), EK_WAIT, lag < 0 ? lag : 0,
				    lag < 0 ? lag : 0);
		}
		if (l != EV_NONE && pb->anchor[l - pb->first_node] != EV_NONE) {
			uint32_t s = pb->anchor[l - pb->first_node];

			if (g->nodes[s].end_ns <= m)
				edge_add(b, VE(s), VS(k), EK_ANCHOR, 0, 0);
		}
		if (group_of[k] != EV_NONE) {
			uint32_t gr = group_of[k];

			edge_add(b, VS(k), VS(gr), EK_GROUP, 0, 0);
			edge_add(b, VS(gr), VE(k), EK_XFER, kn->own_ns, kn->own_ns);
		}
		edge_add(b, VS(k), VE(k), EK_OWN, kn->own_ns, kn->own_ns);
	}
	free(by_end);
	free(last);
}

/* One group node per matched collective; members' own time their transfer. */
static void
build_groups(struct builder *b, struct part_build *pbs, const struct crossrank *x,
    uint32_t **group_of)
{
	struct depgraph *g = b->g;

	for (size_t c = 0; c < x->ncolls; c++) {
		const struct crossrank_coll *cc = &x->colls[c];
		struct dg_node n = { 0 };
		uint32_t gr;

		n.start_ns = n.end_ns = cc->last_start_ns;
		n.event = EV_NONE;
		n.step = -1;
		n.kind = DG_GROUP;
		n.cls = CLASS_COMM;
		gr = node_add(b, &n);
		edge_add(b, VS(gr), VE(gr), EK_OWN, 0, 0);
		for (size_t p = 0; p < x->nparts && p < g->nparts; p++) {
			uint32_t ev = x->event[c * x->nparts + p], k;

			if (ev == EV_NONE || x->start_ns[c * x->nparts + p] == INT64_MIN)
				continue;
			k = pbs[p].of_event[ev];
			if (k == EV_NONE || g->nodes[k].kind != DG_ACT)
				continue;
			*group_of = xreallocarray(*group_of, g->nnodes, sizeof **group_of);
			(*group_of)[k] = gr;
			g->nodes[k].own_ns = g->nodes[k].end_ns > cc->last_start_ns ?
			    g->nodes[k].end_ns - cc->last_start_ns : 0;
		}
	}
}

/* CSR of the in-edges and a topological order (Kahn). */
static void
build_csr(struct builder *b)
{
	struct depgraph *g = b->g;
	size_t nv = 2 * g->nnodes;
	uint32_t *outdeg_first, *out, *indeg, *fill;
	size_t head = 0;

	g->in_first = xcalloc(nv + 1, sizeof *g->in_first);
	for (size_t i = 0; i < b->npe; i++)
		g->in_first[b->pe[i].to + 1]++;
	for (size_t v = 0; v < nv; v++)
		g->in_first[v + 1] += g->in_first[v];
	g->nedges = b->npe;
	g->edges = xmalloc((b->npe + 1) * sizeof *g->edges);
	fill = xmalloc((nv + 1) * sizeof *fill);
	memcpy(fill, g->in_first, nv * sizeof *fill);
	for (size_t i = 0; i < b->npe; i++)
		g->edges[fill[b->pe[i].to]++] = b->pe[i].e;
	/* out-edges for Kahn */
	outdeg_first = xcalloc(nv + 1, sizeof *outdeg_first);
	for (size_t i = 0; i < b->npe; i++)
		outdeg_first[b->pe[i].e.from + 1]++;
	for (size_t v = 0; v < nv; v++)
		outdeg_first[v + 1] += outdeg_first[v];
	out = xmalloc((b->npe + 1) * sizeof *out);
	memcpy(fill, outdeg_first, nv * sizeof *fill);
	for (size_t i = 0; i < b->npe; i++)
		out[fill[b->pe[i].e.from]++] = b->pe[i].to;
	free(b->pe);
	b->pe = NULL;
	indeg = fill;
	for (size_t v = 0; v < nv; v++)
		indeg[v] = g->in_first[v + 1] - g->in_first[v];
	g->order = xmalloc((nv + 1) * sizeof *g->order);
	g->norder = 0;
	for (size_t v = 0; v < nv; v++)
		if (indeg[v] == 0)
			g->order[g->norder++] = (uint32_t)v;
	while (head < g->norder) {
		uint32_t v = g->order[head++];

		for (uint32_t i = outdeg_first[v]; i < outdeg_first[v + 1]; i++)
			if (--indeg[out[i]] == 0)
				g->order[g->norder++] = out[i];
	}
	free(out);
	free(outdeg_first);
	free(indeg);
}

void
depgraph_build(struct depgraph *g, const struct analysis *an, size_t n,
    const struct crossrank *x)
{
	struct builder b = { g, 0, NULL, 0, 0 };
	struct part_build *pbs = xcalloc(n + 1, sizeof *pbs);
	uint32_t *group_of = NULL;
	size_t nmarks = 0, acts_end;

	memset(g, 0, sizeof *g);
	g->an = an;
	g->nparts = n;
	for (size_t p = 0; p < n; p++)
		nmarks += 2 * an[p].nsteps;
	g->marks = xmalloc((nmarks + 1) * sizeof *g->marks);
	g->mark_first = xcalloc(n + 1, sizeof *g->mark_first);
	for (size_t p = 0; p < n; p++) {
		const struct trace *t = an[p].t;

		pbs[p].of_event = xmalloc((t->nevents + 1) * sizeof *pbs[p].of_event);
		for (size_t i = 0; i < t->nevents; i++)
			pbs[p].of_event[i] = EV_NONE;
		build_cpu(&b, &pbs[p], p);
		build_acts(&b, &pbs[p], p);
		cudasync_build(&pbs[p].cs, &an[p].dev);
		build_syncs(&b, &pbs[p], p);
	}
	g->mark_first[n] = g->nmarks_used;
	acts_end = g->nnodes;
	group_of = xmalloc((acts_end + 1) * sizeof *group_of);
	for (size_t i = 0; i < acts_end; i++)
		group_of[i] = EV_NONE;
	if (x != NULL && n > 1)
		build_groups(&b, pbs, x, &group_of);
	for (size_t p = 0; p < n; p++) {
		build_act_edges(&b, &pbs[p], p, group_of);
		cudasync_free(&pbs[p].cs);
		free(pbs[p].acts);
		free(pbs[p].anchor);
		free(pbs[p].of_event);
	}
	free(group_of);
	free(pbs);
	build_csr(&b);
}

void
depgraph_free(struct depgraph *g)
{
	free(g->nodes);
	free(g->in_first);
	free(g->edges);
	free(g->order);
	free(g->marks);
	free(g->mark_first);
	memset(g, 0, sizeof *g);
}

/* ---------------------------------------------------------------------- */
/* Scenarios and the replay. */

int
depgraph_whatif_parse(struct dg_whatif *w, const char *text, char *err,
    size_t errsz)
{
	const char *k = NULL;
	char *end;

	memset(w, 0, sizeof *w);
	snprintf(w->text, sizeof w->text, "%s", text);
	if (strcmp(text, "none") == 0) {
		w->kind = DG_NONE;
		return 0;
	}
	if (strcmp(text, "no-straggler") == 0) {
		w->kind = DG_NO_STRAGGLER;
		return 0;
	}
	if (strcmp(text, "no-host-wait") == 0) {
		w->kind = DG_NO_HOST_WAIT;
		return 0;
	}
	if (strncmp(text, "comm=", 5) == 0) {
		w->kind = DG_COMM_X;
		k = text + 5;
	} else if (strncmp(text, "kernels=", 8) == 0) {
		const char *colon = strrchr(text + 8, ':');
		char re[sizeof w->text];
		int rc;

		if (colon == NULL || colon == text + 8) {
			snprintf(err, errsz, "what-if '%s': expected kernels=REGEX:K", text);
			return -1;
		}
		snprintf(re, sizeof re, "%.*s", (int)(colon - (text + 8)), text + 8);
		rc = regcomp(&w->re, re, REG_EXTENDED | REG_ICASE | REG_NOSUB);
		if (rc != 0) {
			char why[128];

			regerror(rc, &w->re, why, sizeof why);
			snprintf(err, errsz, "what-if '%s': bad regular expression: %s", text, why);
			return -1;
		}
		w->has_re = 1;
		w->kind = DG_KERNELS_X;
		k = colon + 1;
	} else {
		snprintf(err, errsz, "unknown what-if scenario '%s' (none, comm=K, "
		    "kernels=REGEX:K, no-straggler, no-host-wait)", text);
		return -1;
	}
	if (strcmp(k, "inf") == 0) {
		w->factor = INFINITY;
		return 0;
	}
	w->factor = strtod(k, &end);
	if (*k == '\0' || *end != '\0' || !(w->factor > 0) || !isfinite(w->factor)) {
		snprintf(err, errsz, "what-if '%s': K must be a number above 0 or inf", text);
		depgraph_whatif_free(w);
		return -1;
	}
	return 0;
}

void
depgraph_whatif_free(struct dg_whatif *w)
{
	if (w->has_re)
		regfree(&w->re);
	w->has_re = 0;
}

static int64_t
scaled(int64_t ns, double f)
{
	if (isinf(f))
		return 0;
	return (int64_t)llround((double)ns / f);
}

/* Each node's own-duration factor under w (1 for most). */
static double *
node_factors(const struct depgraph *g, const struct dg_whatif *w)
{
	double *f = xmalloc((g->nnodes + 1) * sizeof *f);

	for (size_t i = 0; i < g->nnodes; i++)
		f[i] = 1.0;
	if (w == NULL)
		return f;
	if (w->kind == DG_COMM_X || w->kind == DG_KERNELS_X) {
		for (size_t i = 0; i < g->nnodes; i++) {
			const struct dg_node *n = &g->nodes[i];
			const struct trace *t;

			if (n->kind != DG_ACT)
				continue;
			if (w->kind == DG_COMM_X && n->cls == CLASS_COMM)
				f[i] = w->factor;
			if (w->kind == DG_KERNELS_X && n->cls == CLASS_COMPUTE) {
				t = g->an[n->part].t;
				if (regexec(&w->re, trace_str(t, t->events[n->event].name),
				    0, NULL, 0) == 0)
					f[i] = w->factor;
			}
		}
	} else if (w->kind == DG_NO_STRAGGLER && g->nparts > 1) {
		/* compute per (part, step), the median over parts by step number */
		size_t *sfirst = xcalloc(g->nparts + 1, sizeof *sfirst);
		int64_t *tot, *col;
		double *fac;

		for (size_t p = 0; p < g->nparts; p++)
			sfirst[p + 1] = sfirst[p] + g->an[p].nsteps;
		tot = xcalloc(sfirst[g->nparts] + 1, sizeof *tot);
		col = xmalloc((g->nparts + 1) * sizeof *col);
		for (size_t i = 0; i < g->nnodes; i++) {
			const struct dg_node *n = &g->nodes[i];

			if (n->kind == DG_ACT && n->cls == CLASS_COMPUTE && n->step >= 0)
				tot[sfirst[n->part] + (size_t)n->step] += n->own_ns;
		}
		fac = xmalloc((sfirst[g->nparts] + 1) * sizeof *fac);
		for (size_t p = 0; p < g->nparts; p++) {
			for (size_t s = 0; s < g->an[p].nsteps; s++) {
				int64_t num = g->an[p].steps[s].number, me = tot[sfirst[p] + s];
				size_t nc = 0;

				fac[sfirst[p] + s] = 1.0;
				for (size_t q = 0; q < g->nparts; q++)
					for (size_t r = 0; r < g->an[q].nsteps; r++)
						if (g->an[q].steps[r].number == num) {
							col[nc++] = tot[sfirst[q] + r];
							break;
						}
				qsort(col, nc, sizeof *col, cmp_i64);
				/* the lower middle: of two ranks, the faster one */
				if (nc > 0 && me > 0 && col[(nc - 1) / 2] > 0)
					fac[sfirst[p] + s] = (double)me / (double)col[(nc - 1) / 2];
			}
		}
		for (size_t i = 0; i < g->nnodes; i++) {
			const struct dg_node *n = &g->nodes[i];

			if (n->kind == DG_ACT && n->cls == CLASS_COMPUTE && n->step >= 0)
				f[i] = fac[sfirst[n->part] + (size_t)n->step];
		}
		free(fac);
		free(col);
		free(tot);
		free(sfirst);
	}
	return f;
}

void
depgraph_replay(const struct depgraph *g, const struct dg_whatif *w, int64_t *t)
{
	size_t nv = 2 * g->nnodes;
	double *f = node_factors(g, w);
	int nohost = w != NULL && w->kind == DG_NO_HOST_WAIT;

	for (size_t v = 0; v < nv; v++)
		t[v] = vtime(g, (uint32_t)v);
	for (size_t i = 0; i < g->norder; i++) {
		uint32_t v = g->order[i];
		int64_t best = INT64_MIN;
		int anchored = 0;

		/* no-host-wait: work launched after a synchronisation follows it
		   instead of its launch; before the first one, its launch */
		for (uint32_t k = g->in_first[v]; nohost && k < g->in_first[v + 1]; k++)
			if (g->edges[k].kind == EK_ANCHOR)
				anchored = 1;
		for (uint32_t k = g->in_first[v]; k < g->in_first[v + 1]; k++) {
			const struct dg_edge *e = &g->edges[k];
			int64_t lag = e->replay_ns, at;

			if (anchored && e->kind == EK_LAUNCH)
				continue;
			if ((e->kind == EK_OWN || e->kind == EK_XFER) &&
			    f[v / 2] != 1.0 && g->nodes[v / 2].kind == DG_ACT)
				lag = scaled(lag, f[v / 2]);
			at = t[e->from] + lag;
			if (at > best)
				best = at;
		}
		if (best != INT64_MIN)
			t[v] = best;
	}
	free(f);
}

int64_t
depgraph_step_ns(const struct depgraph *g, const int64_t *t, size_t p, size_t s)
{
	size_t m = g->mark_first[p] + 2 * s;

	if (m + 1 >= g->mark_first[p + 1])
		return -1;
	return t[VS(g->marks[m + 1])] - t[VS(g->marks[m])];
}

/* ---------------------------------------------------------------------- */
/* The critical path. */

const char *
depgraph_part_name(enum dg_part part)
{
	static const char *const names[DG_PARTS] = {
		"compute", "comm", "host", "sync", "idle",
	};

	return part < DG_PARTS ? names[part] : "?";
}

const char *
depgraph_node_name(const struct depgraph *g, uint32_t n)
{
	const struct dg_node *nd = &g->nodes[n];
	const struct trace *t;

	if (nd->event != EV_NONE) {
		t = g->an[nd->part].t;
		return trace_str(t, t->events[nd->event].name);
	}
	if (nd->kind == DG_GROUP)
		return "collective";
	return "step boundary";
}

/* The part of the interval an edge into vertex v covers, and whose it is. */
static enum dg_part
edge_part(const struct depgraph *g, const struct dg_edge *e, uint32_t v,
    uint32_t *node)
{
	const struct dg_node *n = &g->nodes[v / 2];

	*node = v / 2;
	switch (e->kind) {
	case EK_OWN:
		if (n->kind == DG_ACT)
			return n->cls == CLASS_COMM ? DG_COMM : DG_COMPUTE;
		return n->kind == DG_SYNC ? DG_SYNC_PART : DG_HOST;
	case EK_XFER:
		return DG_COMM;
	case EK_SYNC:
		return DG_SYNC_PART;
	case EK_LAUNCH:
		*node = e->from / 2;
		return DG_HOST;
	case EK_STREAM:
	case EK_WAIT:
		return DG_IDLE;
	case EK_THREAD:
	case EK_ANCHOR:
	case EK_GROUP:
	default:
		return DG_HOST;
	}
}

static void
seg_push(struct dg_path *path, size_t *cap, int64_t start, int64_t dur,
    uint32_t node, enum dg_part part)
{
	struct dg_segment *last = path->nseg ? &path->seg[path->nseg - 1] : NULL;

	if (dur <= 0)
		return;
	path->part_ns[part] += dur;
	/* walking back: the new one comes before the last one pushed */
	if (last != NULL && last->node == node && last->part == part &&
	    start + dur == last->start_ns) {
		last->start_ns = start;
		last->dur_ns += dur;
		return;
	}
	if (path->nseg == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		path->seg = xreallocarray(path->seg, *cap, sizeof *path->seg);
	}
	path->seg[path->nseg++] = (struct dg_segment){ start, dur, node, (uint8_t)part };
}

int
depgraph_path(const struct depgraph *g, size_t p, size_t s, struct dg_path *path)
{
	size_t m = g->mark_first[p] + 2 * s, cap = 0, steps = 0;
	int64_t lo, now;
	uint32_t v;

	memset(path, 0, sizeof *path);
	if (m + 1 >= g->mark_first[p + 1])
		return -1;
	lo = g->nodes[g->marks[m]].start_ns;
	v = VS(g->marks[m + 1]);
	now = vtime(g, v);
	path->ns = now - lo;
	while (now > lo && steps++ <= 2 * g->nnodes) {
		const struct dg_edge *found = NULL;
		uint32_t node;
		enum dg_part part;
		int64_t from;

		for (uint32_t k = g->in_first[v]; k < g->in_first[v + 1]; k++) {
			const struct dg_edge *e = &g->edges[k];

			if (vtime(g, e->from) + e->lag_ns == now) {
				found = e;
				break;
			}
		}
		if (found == NULL) {
			/* a root: the time before the first recorded call */
			seg_push(path, &cap, lo, now - lo, v / 2, DG_HOST);
			now = lo;
			break;
		}
		part = edge_part(g, found, v, &node);
		from = vtime(g, found->from);
		if (from < lo)
			from = lo;
		seg_push(path, &cap, from, now - from, node, part);
		v = found->from;
		now = vtime(g, v) < lo ? lo : vtime(g, v);
	}
	if (now > lo)           /* a cycle guard tripped: the rest is unexplained */
		seg_push(path, &cap, lo, now - lo, v / 2, DG_IDLE);
	/* time order */
	for (size_t i = 0, j = path->nseg ? path->nseg - 1 : 0; i < j; i++, j--) {
		struct dg_segment tmp = path->seg[i];

		path->seg[i] = path->seg[j];
		path->seg[j] = tmp;
	}
	return 0;
}

void
depgraph_path_free(struct dg_path *path)
{
	free(path->seg);
	memset(path, 0, sizeof *path);
}
