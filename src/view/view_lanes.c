/* view_lanes — the lanes shown and the folded CPU depths; see view_lanes.h. */
#include "config.h"

#include "view/view_lanes.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/crossrank.h"
#include "base/xalloc.h"
#include "model/itree.h"
#include "model/trace.h"
#include "view/view.h"
#include "view/view_compare.h"
#include "view/view_diag.h"
#include "view/view_whatif.h"

/* What the lanes keep of one trace (the first analysis of it holds it). */
struct lanes_trace {
	const struct trace *t;
	uint16_t *act_rows;     /* ntracks: GPU activity sub-rows in use */
	uint16_t *annot_rows;   /* ntracks: gpu_user_annotation depths in use */
	uint16_t *fdepth;       /* nevents: folded depth (CPU 'X' slices), or NULL */
	uint16_t *frows;        /* ntracks: folded depths in use, or NULL */
	double *peak;           /* ntracks: a counter track's largest value */
};

struct view_lanes {
	size_t n;               /* v->nan entries, by analysis */
	struct lanes_trace *per;
};

static int
is_python(const struct trace *t, const struct event *e)
{
	return e->cat < t->ncats && t->cat_kinds[e->cat] == CAT_PYTHON_FUNCTION;
}

static double
counter_value(const struct trace *t, uint32_t ev)
{
	struct event_args a_buf;
	const struct event_args *a = trace_args(t, &t->events[ev], &a_buf);

	return a == NULL ? 0.0 : trace_args_nums(t, a).value;
}

/* The sub-rows and annotation depths of every GPU track, counters' peaks: one pass. */
static void
build_rows(struct lanes_trace *lt)
{
	const struct trace *t = lt->t;

	lt->act_rows = xcalloc(t->ntracks ? t->ntracks : 1, sizeof *lt->act_rows);
	lt->annot_rows = xcalloc(t->ntracks ? t->ntracks : 1, sizeof *lt->annot_rows);
	lt->peak = xcalloc(t->ntracks ? t->ntracks : 1, sizeof *lt->peak);
	for (size_t k = 0; k < t->ntracks; k++) {
		const struct track *tr = &t->tracks[k];

		if (tr->kind == TRACK_COUNTER) {
			for (uint32_t i = 0; i < tr->count; i++) {
				double x = counter_value(t, tr->first + i);

				if (i == 0 || x > lt->peak[k])
					lt->peak[k] = x;
			}
			continue;
		}
		if (tr->kind != TRACK_GPU)
			continue;
		lt->act_rows[k] = 1;
		for (uint32_t i = 0; i < tr->count; i++) {
			const struct event *e = &t->events[tr->first + i];
			uint16_t r = (uint16_t)(e->depth < UINT16_MAX ? e->depth + 1 : e->depth);

			if (event_is_activity(e) && r > lt->act_rows[k])
				lt->act_rows[k] = r;
			else if ((e->flags & EVF_ANNOTATION) && r > lt->annot_rows[k])
				lt->annot_rows[k] = r;
		}
	}
}

/*
 * Folded depths of every CPU thread: the nesting of its slices that are not
 * Python frames among themselves, by track.c's rule (a track's events come
 * in start order, longest first; the slices open at an event's start, that
 * is, pushed with a duration and not ended by then, are its ancestors).
 * O(n).
 */
static void
build_folded(struct lanes_trace *lt)
{
	const struct trace *t = lt->t;
	int64_t *open = NULL;
	size_t cap = 0;

	lt->fdepth = xcalloc(t->nevents ? t->nevents : 1, sizeof *lt->fdepth);
	lt->frows = xcalloc(t->ntracks ? t->ntracks : 1, sizeof *lt->frows);
	for (size_t k = 0; k < t->ntracks; k++) {
		const struct track *tr = &t->tracks[k];
		size_t n = 0;

		if (tr->kind != TRACK_CPU)
			continue;
		for (uint32_t i = 0; i < tr->count; i++) {
			uint32_t ev = tr->first + i;
			const struct event *e = &t->events[ev];
			uint16_t d;

			if (event_ph(e) != 'X' || is_python(t, e))
				continue;
			while (n > 0 && open[n - 1] <= e->ts_ns)
				n--;
			d = n < UINT16_MAX - 1 ? (uint16_t)n : UINT16_MAX - 1;
			lt->fdepth[ev] = d;
			if (d + 1 > lt->frows[k])
				lt->frows[k] = (uint16_t)(d + 1);
			if (e->dur_ns > 0 && !(e->flags & (EVF_INSTANT | EVF_COUNTER))) {
				xgrow(&open, &cap, n + 1, sizeof *open);
				open[n++] = event_end(e);
			}
		}
	}
	free(open);
}

static struct lanes_trace *
lanes_of(const struct view *v, size_t a)
{
	const struct view_lanes *l = v->lanes;

	if (l == NULL || a >= l->n)
		return NULL;
	while (a > 0 && v->an[a - 1].t == v->an[a].t)
		a--;
	return l->per[a].t == v->an[a].t ? &l->per[a] : NULL;
}

static struct lanes_trace *
lanes_of_trace(const struct view *v, const struct trace *t)
{
	const struct view_lanes *l = v->lanes;

	if (l == NULL)
		return NULL;
	for (size_t a = 0; a < l->n; a++)
		if (l->per[a].t == t)
			return &l->per[a];
	return NULL;
}

void
view_lanes_prepare(struct view *v)
{
	struct view_lanes *l = v->lanes;

	if (v->nan == 0)
		return;
	if (l == NULL) {
		l = v->lanes = xcalloc(1, sizeof *l);
		l->n = v->nan;
		l->per = xcalloc(v->nan, sizeof *l->per);
	}
	for (size_t a = 0; a < l->n; a++) {
		struct lanes_trace *lt = &l->per[a];

		if (a > 0 && v->an[a - 1].t == v->an[a].t)
			continue;
		if (lt->t == NULL) {
			lt->t = v->an[a].t;
			build_rows(lt);
		}
		if ((v->show_cpu || v->cpu_auto) && lt->fdepth == NULL)
			build_folded(lt);
	}
}

void
view_lanes_free(struct view *v)
{
	struct view_lanes *l = v->lanes;

	if (l == NULL)
		return;
	for (size_t a = 0; a < l->n; a++) {
		free(l->per[a].act_rows);
		free(l->per[a].annot_rows);
		free(l->per[a].fdepth);
		free(l->per[a].frows);
		free(l->per[a].peak);
	}
	free(l->per);
	free(l);
	v->lanes = NULL;
}

int
view_cpu_depth(const struct view *v, const struct trace *t, uint32_t ev)
{
	const struct event *e = &t->events[ev];
	const struct lanes_trace *lt;

	if (event_ph(e) != 'X')
		return -1;
	if (v->show_python || (lt = lanes_of_trace(v, t)) == NULL ||
	    lt->fdepth == NULL)
		return e->depth;
	return is_python(t, e) ? -1 : lt->fdepth[ev];
}

int
view_row_has(const struct view *v, const struct row_info *ri, uint32_t ev)
{
	const struct trace *t;
	const struct event *e;

	if (ri->analysis < 0 || (size_t)ri->analysis >= v->nan)
		return 0;
	t = v->an[ri->analysis].t;
	if (ev >= t->nevents)
		return 0;
	e = &t->events[ev];
	if (e->track != ri->track)
		return 0;
	switch (ri->kind) {
	case ROW_GPU:
		return event_is_activity(e) && e->depth == ri->depth;
	case ROW_ANNOT:
		return (e->flags & EVF_ANNOTATION) && e->depth == ri->depth;
	case ROW_CPU:
		return view_cpu_depth(v, t, ev) == ri->depth;
	default:
		return 0;
	}
}

double
view_counter_peak(const struct view *v, size_t a, uint32_t track)
{
	const struct lanes_trace *lt = lanes_of(v, a);
	const struct trace *t = v->an[a].t;
	const struct track *tr = &t->tracks[track];
	double peak = 0;

	if (lt != NULL)
		return lt->peak[track];
	for (uint32_t i = 0; i < tr->count; i++) {
		double x = counter_value(t, tr->first + i);

		if (i == 0 || x > peak)
			peak = x;
	}
	return peak;
}

int
view_counter_at(const struct view *v, size_t a, uint32_t track, int64_t ts_ns,
    double *value)
{
	const struct trace *t = v->an[a].t;
	const struct track *tr = &t->tracks[track];
	uint32_t i = trace_track_lower_bound(t, tr, ts_ns + 1);

	if (i <= tr->first)
		return 0;
	*value = counter_value(t, i - 1);
	return 1;
}

int
view_counter_max(const struct view *v, size_t a, uint32_t track, int64_t a_ns,
    int64_t b_ns, double *value)
{
	const struct trace *t = v->an[a].t;
	const struct track *tr = &t->tracks[track];
	uint32_t lo = trace_track_lower_bound(t, tr, a_ns),
	    hi = trace_track_lower_bound(t, tr, b_ns), n = hi - lo, step;
	int any = view_counter_at(v, a, track, a_ns, value);

	/* every sample, or 64 spread evenly over a column dense with them */
	step = n > 64 ? n / 64 : 1;
	for (uint32_t i = lo; i < hi; i += step) {
		double x = counter_value(t, i);

		if (!any || x > *value)
			*value = x;
		any = 1;
	}
	return any;
}

/* ---- the list ---------------------------------------------------------- */

static void
push_lane(struct row_info **v, size_t *n, size_t *cap, enum row_kind kind,
    int a, uint32_t track, int depth)
{
	xgrow(v, cap, *n + 1, sizeof **v);
	(*v)[*n].kind = kind;
	(*v)[*n].analysis = a;
	(*v)[*n].track = track;
	(*v)[*n].depth = depth;
	(*n)++;
}

/* 1 if a CPU track gets lanes: a thread with slices (not a lone marker). */
static int
cpu_track_shown(const struct track *tr)
{
	return tr->kind == TRACK_CPU && tr->count >= 2 && tr->busy.n > 0 &&
	    tr->rows > 0;
}

/*
 * The lanes thread k of t gets: 1 + the deepest lane depth among its events
 * in the window (those starting in it, and those open at its start), at
 * least 1, or its deepest overall when more than VIEW_LANES_SCAN start in
 * the window.
 */
static int
cpu_rows(const struct view *v, const struct trace *t, uint32_t k)
{
	const struct track *tr = &t->tracks[k];
	const struct lanes_trace *lt = lanes_of_trace(v, t);
	int all = v->show_python || lt == NULL || lt->frows == NULL ?
	    tr->rows : lt->frows[k], rows = 0;
	uint32_t lo = trace_track_lower_bound(t, tr, v->start_ns),
	    hi = trace_track_lower_bound(t, tr, v->end_ns);
	uint32_t *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (hi - lo > VIEW_LANES_SCAN)
		return all;
	for (uint32_t i = lo; i < hi; i++) {
		int d = view_cpu_depth(v, t, i);

		if (d + 1 > rows)
			rows = d + 1;
	}
	n = itree_overlap(&tr->index, &t->events[tr->first], v->start_ns,
	    v->start_ns + 1, &buf, &len, &cap);
	for (size_t i = 0; i < n; i++) {
		int d = view_cpu_depth(v, t, tr->first + buf[i]);

		if (d + 1 > rows)
			rows = d + 1;
	}
	free(buf);
	/* a thread idle in the window keeps its first lane, labelled */
	return rows > 0 ? rows : 1;
}

/* The rows of GPU track k of t: activity sub-rows (kind ROW_GPU) or annotation depths. */
static int
gpu_track_rows(const struct view *v, size_t a, uint32_t k, enum row_kind kind)
{
	const struct lanes_trace *lt = lanes_of(v, a);
	const struct trace *t = v->an[a].t;
	const struct track *tr = &t->tracks[k];
	int rows = kind == ROW_GPU ? 1 : 0;

	if (lt != NULL)
		return kind == ROW_GPU ? lt->act_rows[k] : lt->annot_rows[k];
	/* not prepared yet: scan (only the first frame of a --render can get here) */
	for (uint32_t i = 0; i < tr->count; i++) {
		const struct event *e = &t->events[tr->first + i];
		int want = kind == ROW_GPU ? event_is_activity(e) :
		    (e->flags & EVF_ANNOTATION);

		if (want && e->depth + 1 > rows)
			rows = e->depth + 1;
	}
	return rows;
}

/* Sorts participants by the time the others waited for them (W). */
static const struct crossrank *sort_x;

static int
waited_cmp(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int64_t la = sort_x->parts[a].lost_ns, lb = sort_x->parts[b].lost_ns;

	if (la != lb)
		return la > lb ? -1 : 1;
	return a < b ? -1 : a > b;
}

size_t *
view_rank_order(const struct view *v, size_t n)
{
	size_t *o = xcalloc(n ? n : 1, sizeof *o);

	for (size_t i = 0; i < n; i++)
		o[i] = i;
	if (v->sort_waited && v->xr != NULL && v->xr->nparts >= n && n > 1) {
		sort_x = v->xr;         /* the viewer runs on one thread */
		qsort(o, n, sizeof *o, waited_cmp);
		sort_x = NULL;
	}
	return o;
}

/* The mode shown if it has lanes, else the first under it that has. */
static enum view_mode
lanes_mode(const struct view *v)
{
	enum view_mode m = v->mode;

	for (int i = v->nunder; (m == VIEW_MODE_COMPARE_TABLE || m == VIEW_MODE_TABLE) && i > 0; )
		m = v->under[--i];
	return m;
}

/* The overview: a row per rank, or two (or two groups) a row with pack. */
static void
overview_lanes(const struct view *v, struct row_info **rows, size_t *n,
    size_t *cap, int pack)
{
	size_t *ord = view_rank_order(v, v->nan);

	for (size_t k = 0; k < v->nan; ) {
		size_t per = 2 * (size_t)(pack > 0 ? pack : 1);
		size_t left = v->nan - k, cover = left < per ? left : per;

		if (pack == 0 || (pack == 1 && cover == 1)) {
			/* a rank of its own: the analysis itself */
			push_lane(rows, n, cap, ROW_BUBBLE, (int)ord[k], UINT32_MAX, 0);
			k++;
			continue;
		}
		push_lane(rows, n, cap, ROW_BUBBLE, (int)k, (uint32_t)cover, pack);
		k += cover;
	}
	free(ord);
}

/* A device's lanes: header, streams, bubbles, bands, annotations, memory, baseline. */
static void
device_lanes(const struct view *v, size_t i, struct row_info **rows, size_t *n,
    size_t *cap)
{
	const struct analysis *an = &v->an[i];
	struct view_baseline bl;

	push_lane(rows, n, cap, ROW_RANK, (int)i, UINT32_MAX, 0);
	if (an->device < 0)
		return;
	for (size_t k = 0; k < an->dev.ntracks; k++) {
		uint32_t ti = an->dev.tracks[k];
		int nr = gpu_track_rows(v, i, ti, ROW_GPU);

		for (int d = 0; d < nr; d++)
			push_lane(rows, n, cap, ROW_GPU, (int)i, ti, d);
	}
	push_lane(rows, n, cap, ROW_BUBBLE, (int)i, UINT32_MAX, 0);
	if (an->nsteps > 0)
		push_lane(rows, n, cap, ROW_STEP_BAND, (int)i, UINT32_MAX, 0);
	if (an->nlayers > 0)
		push_lane(rows, n, cap, ROW_LAYER_BAND, (int)i, UINT32_MAX, 0);
	if (i == v->rank && view_whatif_shown(v))
		push_lane(rows, n, cap, ROW_PATH, (int)i, UINT32_MAX, 0);
	for (size_t k = 0; k < an->dev.ntracks; k++) {
		uint32_t ti = an->dev.tracks[k];
		int nr = gpu_track_rows(v, i, ti, ROW_ANNOT);

		for (int d = 0; d < nr; d++)
			push_lane(rows, n, cap, ROW_ANNOT, (int)i, ti, d);
	}
	if (view_diag_memory(v, i) != NULL)
		push_lane(rows, n, cap, ROW_MEMORY, (int)i, UINT32_MAX, 0);
	if (i == v->rank && view_compare_baseline(v, &bl) && bl.aligned) {
		const struct metrics *bd = &v->an[bl.rank].dev;

		for (size_t k = 0; k < bd->ntracks; k++)
			push_lane(rows, n, cap, ROW_BASELINE, (int)bl.rank,
			    bd->tracks[k], 0);
	}
}

/* A trace's CPU threads (c) and counters (C), after its first device. */
static void
trace_lanes(const struct view *v, size_t i, struct row_info **rows, size_t *n,
    size_t *cap, int cpu)
{
	const struct trace *t = v->an[i].t;

	if (cpu)
		for (size_t k = 0; k < t->ntracks; k++) {
			int nr;

			if (!cpu_track_shown(&t->tracks[k]))
				continue;
			nr = cpu_rows(v, t, (uint32_t)k);
			for (int d = 0; d < nr; d++)
				push_lane(rows, n, cap, ROW_CPU, (int)i, (uint32_t)k, d);
		}
	if (v->show_counters)
		for (size_t k = 0; k < t->ntracks; k++)
			if (t->tracks[k].kind == TRACK_COUNTER && t->tracks[k].count > 0)
				push_lane(rows, n, cap, ROW_COUNTER, (int)i, (uint32_t)k, 0);
}

size_t
view_lanes(const struct view *v, struct row_info **out, int pack)
{
	struct row_info *rows = NULL;
	size_t n = 0, cap = 0;
	enum view_mode mode = lanes_mode(v);

	if (mode == VIEW_MODE_MATRIX && v->xr != NULL && v->mx != NULL) {
		size_t *ord = view_rank_order(v, v->xr->nparts);

		for (size_t p = 0; p < v->xr->nparts; p++)
			push_lane(&rows, &n, &cap, ROW_MATRIX, (int)ord[p], UINT32_MAX, 0);
		free(ord);
	} else if (mode == VIEW_MODE_OVERVIEW) {
		overview_lanes(v, &rows, &n, &cap, pack);
	} else {
		int cpu = view_cpu_shown(v);

		for (size_t i = 0; i < v->nan; i++) {
			device_lanes(v, i, &rows, &n, &cap);
			if (i == 0 || v->an[i - 1].t != v->an[i].t)
				trace_lanes(v, i, &rows, &n, &cap, cpu);
		}
	}
	*out = rows;
	return n;
}

/* All the lanes mode's lanes, with or without the CPU threads. */
static size_t
count_lanes(const struct view *v, int cpu)
{
	struct row_info *rows = NULL;
	size_t n = 0, cap = 0;

	for (size_t i = 0; i < v->nan; i++) {
		device_lanes(v, i, &rows, &n, &cap);
		if (i == 0 || v->an[i - 1].t != v->an[i].t)
			trace_lanes(v, i, &rows, &n, &cap, cpu);
	}
	free(rows);
	return n;
}

int
view_cpu_shown(const struct view *v)
{
	if (v->show_cpu)
		return 1;
	return v->cpu_auto && v->lane_room > 0 && v->nan > 0 &&
	    lanes_mode(v) == VIEW_MODE_LANES &&
	    count_lanes(v, 1) <= (size_t)v->lane_room;
}
