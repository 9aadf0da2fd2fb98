/*
 * render_lanes — the lanes: which events each column holds, and the GPU,
 * bubble, baseline and CPU lanes and rank headers drawn from them; see
 * render_int.h.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/crossrank.h"
#include "analysis/depgraph.h"
#include "analysis/metrics.h"
#include "base/ivset.h"
#include "base/xalloc.h"
#include "model/itree.h"
#include "model/trace.h"
#include "model/track.h"
#include "render/grid.h"
#include "render/render.h"
#include "render/render_int.h"
#include "view/view.h"
#include "view/view_nav.h"
#include "view/view_compare.h"

/* ---- looking events up per column -------------------------------------- */

/* Appends the events of tr covering the instant ts_ns to c->buf (absolute). */
static size_t
probe(struct rctx *c, const struct trace *t, const struct track *tr,
    int64_t ts_ns)
{
	size_t n;

	c->len = 0;
	if (tr->count == 0)
		return 0;
	n = itree_overlap(&tr->index, &t->events[tr->first], ts_ns, ts_ns + 1,
	    &c->buf, &c->len, &c->cap);
	for (size_t i = 0; i < n; i++)
		c->buf[i] += tr->first;
	return n;
}

/* Adds ev unless it is among the first `among` candidates. */
static void
cand_add(struct cands *cs, int among, uint32_t ev, double w)
{
	for (int i = 0; i < among; i++)
		if (cs->v[i].ev == ev)
			return;
	if (cs->n < (int)(sizeof cs->v / sizeof cs->v[0])) {
		cs->v[cs->n].ev = ev;
		cs->v[cs->n].weight = w;
		cs->n++;
	}
}

/*
 * The events of tr that tell what column [a, b) holds, in O(log n): those
 * covering its middle and its start (two point queries of the itree), and
 * those starting inside it, tr's events [lo, hi) (indices into t->events):
 * all of them, or COL_SAMPLES spread evenly, each then weighing for the
 * ones skipped.
 */
static void
column_cands(struct rctx *c, const struct trace *t, const struct track *tr,
    int64_t a, int64_t b, uint32_t lo, uint32_t hi, struct cands *cs)
{
	uint32_t n = hi - lo;
	int np;
	size_t k;

	cs->n = 0;
	k = probe(c, t, tr, a + (b - a) / 2);
	for (size_t i = 0; i < k; i++)
		cand_add(cs, cs->n, c->buf[i], 1.0);
	k = probe(c, t, tr, a);
	for (size_t i = 0; i < k; i++)
		cand_add(cs, cs->n, c->buf[i], 1.0);
	np = cs->n;     /* the starts below are distinct: check the probes only */
	if (n <= COL_SAMPLES) {
		for (uint32_t i = lo; i < hi; i++)
			cand_add(cs, np, i, 1.0);
	} else {
		double w = (double)n / COL_SAMPLES;

		for (uint32_t s = 0; s < COL_SAMPLES; s++)
			cand_add(cs, np, lo + (uint32_t)((uint64_t)s * n / COL_SAMPLES), w);
	}
}

/*
 * The candidates of column col of track ti of t.  The rows of one track are
 * drawn one after the other, so every column's candidates are found once
 * per track and frame; the columns' bounds increase, so each one's first
 * event is searched for once, right of the one before.
 */
static const struct cands *
track_cands(struct rctx *c, const struct trace *t, uint32_t ti, int col)
{
	if (c->cache_t != t || c->cache_track != ti) {
		const struct track *tr = &t->tracks[ti];
		uint32_t lo = tr->first, hi;

		if (c->ncols > 0 && tr->count > 0)
			lo = trace_track_lower_bound_from(t, tr, lo, c->col_ns[0]);
		for (int k = 0; k < c->ncols; k++) {
			c->cache[k].n = 0;
			if (tr->count == 0)
				continue;
			hi = trace_track_lower_bound_from(t, tr, lo, c->col_ns[k + 1]);
			if (c->col_ns[k + 1] > c->col_ns[k])
				column_cands(c, t, tr, c->col_ns[k], c->col_ns[k + 1],
				    lo, hi, &c->cache[k]);
			lo = hi;
		}
		c->cache_t = t;
		c->cache_track = ti;
	}
	return &c->cache[col];
}

/*
 * The longest candidate that row ri holds (view_row_has()) and that covers
 * the instant mid, or EV_NONE.
 */
static uint32_t
mid_event(const struct rctx *c, const struct row_info *ri, const struct cands *cs,
    int64_t mid)
{
	const struct trace *t = c->v->an[ri->analysis].t;
	uint32_t best = EV_NONE;
	int64_t bd = -1;

	for (int i = 0; i < cs->n; i++) {
		const struct event *e = &t->events[cs->v[i].ev];

		if (e->ts_ns > mid || e->dur_ns <= bd ||
		    !view_row_has(c->v, ri, cs->v[i].ev))
			continue;
		if (event_end(e) > mid || (e->dur_ns == 0 && e->ts_ns == mid)) {
			bd = e->dur_ns;
			best = cs->v[i].ev;
		}
	}
	return best;
}

/* The part of event e inside [a, b). */
static int64_t
clipped(const struct event *e, int64_t a, int64_t b)
{
	int64_t s = e->ts_ns > a ? e->ts_ns : a;
	int64_t en = event_end(e) < b ? event_end(e) : b;

	return en > s ? en - s : 0;
}

enum role
render_class_role(int cls)
{
	switch (cls) {
	case CLASS_COMM:
		return ROLE_COMM;
	case CLASS_MEMORY:
		return ROLE_MEMORY;
	default:
		return ROLE_COMPUTE;
	}
}

/*
 * The class that carries most of a stream's activity, from up to
 * TRACK_SAMPLES of its events weighted by duration.  O(TRACK_SAMPLES).
 */
static int
track_class(const struct trace *t, const struct track *tr)
{
	double w[4] = { 0, 0, 0, 0 };
	uint32_t n = tr->count, step = n > TRACK_SAMPLES ? n / TRACK_SAMPLES : 1;
	int best = CLASS_COMPUTE;

	for (uint32_t i = 0; i < n; i += step) {
		const struct event *e = &t->events[tr->first + i];

		if (event_is_activity(e))
			w[e->cls] += (double)e->dur_ns + 1.0;
	}
	for (int k = CLASS_COMPUTE; k <= CLASS_MEMORY; k++)
		if (w[k] > w[best])
			best = k;
	return best;
}

/* The shading level 0..4 of busy ns out of a column of width ns. */
static int
shade_level(int64_t busy, int64_t width)
{
	int64_t l;

	if (busy <= 0 || width <= 0)
		return 0;
	if (busy >= width)
		return 4;
	l = (busy * 4 + width - 1) / width;
	return l < 1 ? 1 : l > 4 ? 4 : (int)l;
}

/* The time area column of ts_ns, clamped to the area. */
int
render_col_of(const struct rctx *c, int64_t ts_ns)
{
	int col = view_ns_col(c->v, ts_ns);

	return col < 0 ? 0 : col >= c->ncols ? c->ncols - 1 : col;
}

/*
 * Writes the names of the events in ev_mid[] that cover NAME_MIN_COLS
 * columns or more, inside their columns (one shaded column kept at each
 * end), in reverse video so that they read as a labelled bar.
 */
static void
draw_names(struct rctx *c, int y, const struct trace *t)
{
	const uint8_t *set = view_match_names(c->v, t);
	int col = 0;

	while (col < c->ncols) {
		uint32_t ev = c->ev_mid[col];
		int end = col + 1;

		while (end < c->ncols && c->ev_mid[end] == ev)
			end++;
		if (ev != EV_NONE && end - col >= NAME_MIN_COLS) {
			char sbuf[256];
			const char *name = render_display_name(t, &t->events[ev], sbuf, sizeof sbuf);
			struct cell *cl;
			enum role role;
			int n, x = c->x0 + col + 1, w = end - col - 2;

			cl = grid_at(c->g, x, y);
			role = cl ? (enum role)cl->role : ROLE_CPU;
			if (set != NULL && view_name_match(set, &t->events[ev]))
				role = ROLE_MATCH;      /* a search match */
			n = render_put_fit(c, x, y, w, role, name);
			for (int i = 0; i < n; i++)
				if ((cl = grid_at(c->g, x + i, y)) != NULL)
					cl->reverse = role != ROLE_MATCH;
		}
		col = end;
	}
}

/*
 * Marks the columns of row y where an event of the row (depth d) matches
 * the search (view_match_names()), the events too small to carry a name
 * included; cells keep their glyph.  A column's candidates are its events
 * (track_cands()): O(k) per column for its k events.
 */
static void
draw_matches(struct rctx *c, int y, const struct row_info *ri)
{
	const struct trace *t = c->v->an[ri->analysis].t;
	const uint8_t *set = view_match_names(c->v, t);

	if (set == NULL)
		return;
	for (int col = 0; col < c->ncols; col++) {
		int64_t a = c->col_ns[col], b = c->col_ns[col + 1];
		const struct cands *cs;
		struct cell *cl;
		int hit = 0;

		if (b <= a || (cl = grid_at(c->g, c->x0 + col, y)) == NULL ||
		    cl->ch == ' ')
			continue;
		cs = track_cands(c, t, ri->track, col);
		for (int i = 0; i < cs->n && !hit; i++) {
			const struct event *e = &t->events[cs->v[i].ev];

			if (!view_row_has(c->v, ri, cs->v[i].ev))
				continue;
			hit = view_name_match(set, e) && event_end(e) >= a &&
			    e->ts_ns < b;
		}
		if (hit) {
			cl->role = ROLE_MATCH;
			cl->reverse = 0;
		}
	}
}

/* Marks the selected event's columns on row y if it is drawn there. */
static void
draw_selected_event(struct rctx *c, int y, const struct row_info *ri)
{
	const struct view *v = c->v;
	const struct trace *t;
	const struct event *e;
	int c0, c1;

	if (v->sel != SEL_EVENT || ri->analysis < 0 ||
	    v->an[ri->analysis].t != v->an[v->rank].t)
		return;
	t = v->an[v->rank].t;
	if (v->sel_index < 0 || (size_t)v->sel_index >= t->nevents ||
	    !view_row_has(v, ri, (uint32_t)v->sel_index))
		return;
	e = &t->events[v->sel_index];
	if (event_end(e) <= v->start_ns || e->ts_ns >= v->end_ns)
		return;
	c0 = render_col_of(c, e->ts_ns);
	c1 = render_col_of(c, e->dur_ns > 0 ? event_end(e) - 1 : e->ts_ns);
	for (int col = c0; col <= c1; col++) {
		struct cell *cl = grid_at(c->g, c->x0 + col, y);

		if (cl == NULL)
			continue;
		if (!cl->reverse) {
			cl->ch = c->gl->selected;
			memset(cl->mark, 0, sizeof cl->mark);
		}
		cl->role = ROLE_SELECTED;
		cl->reverse = 0;
	}
	/*
	 * Its name across its columns, dark on the highlight, whether or not
	 * the lane had room to name it (it names the event at each column's
	 * middle): the selected event always says what it is.
	 */
	if (c1 - c0 + 1 >= 3) {
		char sbuf[256];

		render_put_fit(c, c->x0 + c0, y, c1 - c0 + 1, ROLE_SELECTED,
		    render_display_name(t, e, sbuf, sizeof sbuf));
	}
}

/* ---- the lanes --------------------------------------------------------- */

void
render_draw_label(struct rctx *c, int y, enum role role, const char *s)
{
	render_put_fit(c, 0, y, LABEL_COLS, role, s);
}

void
render_draw_gpu_lane(struct rctx *c, int y, const struct row_info *ri)
{
	const struct analysis *an = &c->v->an[ri->analysis];
	const struct trace *t = an->t;
	const struct track *tr = &t->tracks[ri->track];
	int dom = track_class(t, tr), d = ri->depth;
	char label[96], sname[72], nbuf[64];
	const char *name = render_track_name(t, tr, nbuf, sizeof nbuf);

	if (strncmp(name, "stream ", 7) == 0)
		snprintf(sname, sizeof sname, "s%s", name + 7);
	else
		snprintf(sname, sizeof sname, "%s", name);
	if (d == 0)
		snprintf(label, sizeof label, " %s %s",
		    dom == CLASS_COMM ? "nccl" : dom == CLASS_MEMORY ? "memory" :
		    "compute", sname);
	else
		snprintf(label, sizeof label, "   %s row %d", sname, d + 1);
	render_draw_label(c, y, ROLE_LABEL, label);

	for (int col = 0; col < c->ncols; col++) {
		int64_t a = c->col_ns[col], b = c->col_ns[col + 1], busy = 0;
		double w[4] = { 0, 0, 0, 0 }, sum = 0;
		int cls = dom, lvl;
		const struct cands *cs;

		c->ev_mid[col] = EV_NONE;
		if (b <= a)
			continue;
		if (d == 0 && (busy = track_busy_ns(tr, a, b)) == 0)
			continue;
		cs = track_cands(c, t, ri->track, col);
		c->ev_mid[col] = mid_event(c, ri, cs, a + (b - a) / 2);
		for (int i = 0; i < cs->n; i++) {
			const struct event *e = &t->events[cs->v[i].ev];
			double x;

			if (!event_is_activity(e) || (d > 0 && e->depth != d))
				continue;
			x = (double)clipped(e, a, b) * cs->v[i].weight;
			if (x == 0 && e->dur_ns == 0 && e->ts_ns >= a && e->ts_ns < b)
				x = 0.5;        /* an instant-length kernel still counts */
			w[e->cls] += x;
			sum += x;
		}
		if (d > 0) {
			busy = sum >= (double)(b - a) ? b - a : (int64_t)(sum + 0.5);
			if (busy == 0 && sum > 0)
				busy = 1;
		}
		if ((lvl = shade_level(busy, b - a)) == 0)
			continue;
		if (sum > 0) {
			cls = CLASS_COMPUTE;
			for (int k = CLASS_COMM; k <= CLASS_MEMORY; k++)
				if (w[k] > w[cls])
					cls = k;
		}
		grid_put(c->g, c->x0 + col, y, c->gl->shade[lvl], render_class_role(cls));
	}
	draw_names(c, y, t);
	draw_matches(c, y, ri);
	draw_selected_event(c, y, ri);
}

/*
 * A GPU stream of the baseline step: drawn as render_draw_gpu_lane() draws it, with
 * every column's time range shifted back by the alignment offset and
 * clipped to the baseline step's GPU extent (columns outside it stay blank).
 */
void
render_draw_baseline_lane(struct rctx *c, int y, const struct row_info *ri)
{
	struct view_baseline bl;
	int64_t *cols = c->col_ns, *shifted;
	char label[96], nbuf[64];
	const struct trace *t;
	const char *name;

	if (!view_compare_baseline(c->v, &bl) || !bl.aligned)
		return;
	shifted = xcalloc((size_t)c->ncols + 1, sizeof *shifted);
	for (int k = 0; k <= c->ncols; k++) {
		/* saturated: the offset is a difference of two step starts */
		int64_t x = cols[k];

		if (bl.offset_ns > 0 && x < INT64_MIN + bl.offset_ns)
			x = INT64_MIN;
		else if (bl.offset_ns < 0 && x > INT64_MAX + bl.offset_ns)
			x = INT64_MAX;
		else
			x -= bl.offset_ns;
		shifted[k] = x < bl.a0_ns ? bl.a0_ns : x > bl.a1_ns ? bl.a1_ns : x;
	}
	c->col_ns = shifted;
	c->cache_t = NULL;
	c->cache_track = UINT32_MAX;
	render_draw_gpu_lane(c, y, ri);
	c->col_ns = cols;
	c->cache_t = NULL;
	c->cache_track = UINT32_MAX;
	free(shifted);
	t = c->v->an[ri->analysis].t;
	name = render_track_name(t, &t->tracks[ri->track], nbuf, sizeof nbuf);
	snprintf(label, sizeof label, " A#%lld %s%s", (long long)bl.number_a,
	    strncmp(name, "stream ", 7) == 0 ? "s" : "",
	    strncmp(name, "stream ", 7) == 0 ? name + 7 : name);
	grid_fill(c->g, 0, y, LABEL_COLS, 1, ' ', ROLE_DEFAULT);
	render_draw_label(c, y, ROLE_STEP, label);
}

/* A bubble-lane column's state: what it shows (render_draw_bubble_lane()). */
enum bubble_state { BS_IDLE, BS_EXPOSED, BS_OVERLAP, BS_BUSY };

/*
 * The state of column [a, b) of device d: problems first (a column that is
 * a quarter idle, or a quarter exposed communication, shows it, so a stall
 * is never hidden by the busy time around it at a coarse zoom); otherwise
 * the largest share wins, ties going to the worse state.
 */
static enum bubble_state
bubble_state(const struct metrics *d, int64_t a, int64_t b)
{
	int64_t all = ivset_measure(&d->all, a, b);
	int64_t comm = ivset_measure(&d->comm, a, b);
	int64_t exposed = ivset_measure(&d->exposed, a, b);
	int64_t idle = (b - a) - all, overlap = comm - exposed, other = all - comm;
	enum bubble_state s = BS_EXPOSED;
	int64_t best = exposed;

	if (idle * 4 >= b - a || exposed * 4 >= b - a)
		return idle >= exposed ? BS_IDLE : BS_EXPOSED;
	if (idle > best) {
		best = idle;
		s = BS_IDLE;
	}
	if (overlap > best) {
		best = overlap;
		s = BS_OVERLAP;
	}
	if (other > best)
		s = BS_BUSY;
	return s;
}

static void
put_state(struct rctx *c, int x, int y, enum bubble_state s)
{
	static const enum role role[] = { ROLE_BUBBLE, ROLE_EXPOSED, ROLE_OVERLAP,
		ROLE_BUSY };
	uint32_t ch = s == BS_IDLE ? c->gl->idle : s == BS_EXPOSED ?
	    c->gl->exposed : s == BS_OVERLAP ? c->gl->overlap : c->gl->busy;

	grid_put(c->g, x, y, ch, role[s]);
}

/*
 * Two ranks on one row, or two groups of g ranks (the overview of more
 * ranks than rows): an upper half block in the upper group's colour over
 * the lower group's, each group's worst state (idle, exposed, overlapped,
 * busy, in that order); without colour (or in ASCII) the worse of the
 * two.  The label names the two ranks (g = 1), else the row's ranks, the
 * upper half the first g (by position with W); > marks the current rank,
 * ! the straggler.
 */
static void
draw_group_lane(struct rctx *c, int y, const struct row_info *ri)
{
	const struct view *v = c->v;
	size_t k = (size_t)ri->analysis, n = ri->track, g = (size_t)ri->depth;
	size_t *ord = view_rank_order(v, v->nan);
	size_t nu = n < g ? n : g, nl = n - nu;
	int strag = 0, cur = 0;
	char label[48];

	for (size_t i = k; i < k + n; i++) {
		strag |= v->xr != NULL && v->xr->straggler == (int32_t)ord[i];
		cur |= v->rank == ord[i];
	}
	if (g == 1)
		snprintf(label, sizeof label, "%c%crank %lld,%lld", cur ? '>' : ' ',
		    strag ? '!' : ' ', (long long)v->an[ord[k]].t->rank,
		    (long long)v->an[ord[k + n - 1]].t->rank);
	else if (v->sort_waited)
		snprintf(label, sizeof label, "%c%c#%zu-%zu", cur ? '>' : ' ',
		    strag ? '!' : ' ', k + 1, k + n);
	else
		snprintf(label, sizeof label, "%c%cr%lld-%lld", cur ? '>' : ' ',
		    strag ? '!' : ' ', (long long)v->an[ord[k]].t->rank,
		    (long long)v->an[ord[k + n - 1]].t->rank);
	render_draw_label(c, y, strag ? ROLE_BAD : ROLE_LABEL, label);
	for (int col = 0; col < c->ncols; col++) {
		static const enum role pk[4][4] = {
			{ ROLE_PK_II, ROLE_PK_IE, ROLE_PK_IO, ROLE_PK_IB },
			{ ROLE_PK_EI, ROLE_PK_EE, ROLE_PK_EO, ROLE_PK_EB },
			{ ROLE_PK_OI, ROLE_PK_OE, ROLE_PK_OO, ROLE_PK_OB },
			{ ROLE_PK_BI, ROLE_PK_BE, ROLE_PK_BO, ROLE_PK_BB },
		};
		int64_t a = c->col_ns[col], b = c->col_ns[col + 1];
		enum bubble_state su = BS_BUSY, sl = BS_BUSY, s;

		if (b <= a)
			continue;
		for (size_t i = k; i < k + n; i++) {
			s = bubble_state(&v->an[ord[i]].dev, a, b);
			if (i < k + nu)
				su = s < su ? s : su;
			else
				sl = s < sl ? s : sl;
		}
		if (nl == 0)
			sl = su;
		if (c->ascii || c->mono)
			put_state(c, c->x0 + col, y, su < sl ? su : sl);
		else
			grid_put(c->g, c->x0 + col, y, 0x2580u, pk[su][sl]);
	}
	free(ord);
}

void
render_draw_bubble_lane(struct rctx *c, int y, const struct row_info *ri)
{
	const struct metrics *d = &c->v->an[ri->analysis].dev;

	if (c->v->mode == VIEW_MODE_OVERVIEW && ri->depth >= 1 &&
	    (size_t)ri->analysis < c->v->nan) {
		draw_group_lane(c, y, ri);
		return;
	}
	if (c->v->mode == VIEW_MODE_OVERVIEW) {
		char label[32];
		const struct analysis *an = &c->v->an[ri->analysis];
		int strag = c->v->xr != NULL && c->v->xr->straggler == ri->analysis;

		snprintf(label, sizeof label, "%c%crank %lld d%d",
		    (size_t)ri->analysis == c->v->rank ? '>' : ' ', strag ? '!' : ' ',
		    (long long)an->t->rank, an->device);
		render_draw_label(c, y, strag ? ROLE_BAD : ROLE_LABEL, label);
	} else {
		render_draw_label(c, y, ROLE_LABEL, " bubbles");
	}
	for (int col = 0; col < c->ncols; col++) {
		int64_t a = c->col_ns[col], b = c->col_ns[col + 1];

		if (b <= a)
			continue;
		put_state(c, c->x0 + col, y, bubble_state(d, a, b));
	}
}

/*
 * The label of a CPU thread's lane at depth d: its name and tid on its
 * first lane, so that two threads of one name differ ("python3 4242"), the
 * name cut to leave the tid whole; "+d" under it.
 */
static void
cpu_label(const struct trace *t, const struct track *tr, int d, char *out,
    size_t size)
{
	char tbuf[64], tid[24], cut[48];
	const char *tname = render_thread_label(trace_str(t, tr->name), tbuf, sizeof tbuf);
	int tw, n = 0;
	size_t k = 0;

	if (d > 0) {
		snprintf(out, size, "   +%d", d);
		return;
	}
	if (tr->tid_str != 0)
		snprintf(tid, sizeof tid, "%s", trace_str(t, tr->tid_str));
	else
		snprintf(tid, sizeof tid, "%lld", (long long)tr->tid);
	if (strstr(tname, tid) != NULL) {
		/* the default name ("thread 12") holds the tid already */
		tid[0] = '\0';
	}
	tw = LABEL_COLS - 2 - (tid[0] != '\0' ? (int)strlen(tid) + 1 : 0);
	if (tw < 3)
		tw = 3;
	if (render_text_cols(tname) <= tw) {
		snprintf(out, size, " %s%s%s", tname, tid[0] ? " " : "", tid);
		return;
	}
	/* cut by code points, then the ellipsis */
	for (const char *q = tname; *q != '\0' && k + 4 < sizeof cut; q++) {
		if (((unsigned char)*q & 0xc0) != 0x80 && ++n > tw - 1)
			break;
		cut[k++] = *q;
	}
	cut[k] = '\0';
	snprintf(out, size, " %s\xe2\x80\xa6%s%s", cut, tid[0] ? " " : "", tid);
}

/*
 * A lane of spans: a CPU thread at one (folded) depth, or a stream's
 * gpu_user_annotation events at one depth.  Each column shades the part of
 * it the row's events cover; synchronisation calls are marked.
 */
static void
draw_span_lane(struct rctx *c, int y, const struct row_info *ri)
{
	const struct trace *t = c->v->an[ri->analysis].t;
	const struct track *tr = &t->tracks[ri->track];

	for (int col = 0; col < c->ncols; col++) {
		int64_t a = c->col_ns[col], b = c->col_ns[col + 1], busy;
		double sum = 0;
		int sync = 0, any = 0;
		const struct cands *cs;

		c->ev_mid[col] = EV_NONE;
		if (b <= a || (ri->depth > 0 && track_busy_ns(tr, a, b) == 0))
			continue;
		cs = track_cands(c, t, ri->track, col);
		c->ev_mid[col] = mid_event(c, ri, cs, a + (b - a) / 2);
		for (int i = 0; i < cs->n; i++) {
			const struct event *e = &t->events[cs->v[i].ev];
			int64_t x;

			if (!view_row_has(c->v, ri, cs->v[i].ev))
				continue;
			x = clipped(e, a, b);
			if (x == 0 && !(e->ts_ns >= a && e->ts_ns < b))
				continue;
			any = 1;
			sum += (double)x * cs->v[i].weight;
			if (e->flags & EVF_SYNC)
				sync = 1;
		}
		if (!any)
			continue;
		busy = sum >= (double)(b - a) ? b - a : (int64_t)(sum + 0.5);
		grid_put(c->g, c->x0 + col, y,
		    c->gl->shade[busy > 0 ? shade_level(busy, b - a) : 1],
		    sync ? ROLE_SYNC : ri->kind == ROW_ANNOT ? ROLE_ANNOT : ROLE_CPU);
	}
	draw_names(c, y, t);
	draw_matches(c, y, ri);
	draw_selected_event(c, y, ri);
}

void
render_draw_cpu_lane(struct rctx *c, int y, const struct row_info *ri)
{
	const struct trace *t = c->v->an[ri->analysis].t;
	char label[96];

	cpu_label(t, &t->tracks[ri->track], ri->depth, label, sizeof label);
	render_draw_label(c, y, ROLE_LABEL, label);
	draw_span_lane(c, y, ri);
}

void
render_draw_annot_lane(struct rctx *c, int y, const struct row_info *ri)
{
	const struct trace *t = c->v->an[ri->analysis].t;
	char label[96], sname[72], nbuf[64];
	const char *name = render_track_name(t, &t->tracks[ri->track], nbuf, sizeof nbuf);

	if (strncmp(name, "stream ", 7) == 0)
		snprintf(sname, sizeof sname, "s%s", name + 7);
	else
		snprintf(sname, sizeof sname, "%s", name);
	if (ri->depth == 0)
		snprintf(label, sizeof label, " annot %s", sname);
	else
		snprintf(label, sizeof label, "   annot +%d", ri->depth);
	render_draw_label(c, y, ROLE_LABEL, label);
	draw_span_lane(c, y, ri);
}

/* The window metrics of analysis i (the view's own for the current rank). */
static void
window_of(const struct rctx *c, size_t i, struct window_metrics *m)
{
	if (i == c->v->rank) {
		*m = c->v->m;
		return;
	}
	metrics_window(&c->v->an[i].dev, c->v->start_ns, c->v->end_ns, m);
}

enum role
render_bad_if(int bad)
{
	return bad ? ROLE_BAD : ROLE_VALUE;
}

void
render_draw_rank_header(struct rctx *c, int y, const struct row_info *ri)
{
	const struct analysis *an = &c->v->an[ri->analysis];
	int cur = (size_t)ri->analysis == c->v->rank;
	struct pen p = { c, 0, y, c->g->w };
	char label[64];

	if (c->v->compare && c->v->nan == 2)
		/* --compare: which side (its file follows) */
		snprintf(label, sizeof label, "%c rank %lld", ri->analysis == 0 ?
		    'A' : 'B', (long long)an->t->rank);
	else if (an->device >= 0)
		snprintf(label, sizeof label, "rank %lld dev %d",
		    (long long)an->t->rank, (int)an->device);
	else
		snprintf(label, sizeof label, "rank %lld", (long long)an->t->rank);
	if (cur)
		grid_put(c->g, 0, y, c->gl->current, ROLE_LABEL);
	render_put_fit(c, 1, y, LABEL_COLS - 1, ROLE_LABEL, label);
	p.x = c->x0;
	if (c->v->compare && c->v->nan == 2) {
		const char *base = strrchr(an->t->path, '/');

		render_pen_put(&p, ROLE_LABEL, " %s", base != NULL ? base + 1 : an->t->path);
	}
	if (an->device < 0) {
		render_pen_put(&p, ROLE_PANEL, " no GPU activity ");
	} else {
		struct window_metrics m;
		int64_t span;

		window_of(c, (size_t)ri->analysis, &m);
		span = m.end_ns - m.start_ns;
		render_pen_put(&p, ROLE_PANEL, " exposed ");
		render_pen_dur(&p, render_bad_if(render_pct(m.exposed_comm_ns, span) >= 5), m.exposed_comm_ns);
		render_pen_put(&p, ROLE_PANEL, " (%.1f%%)  idle ", render_pct(m.exposed_comm_ns, span));
		render_pen_dur(&p, render_bad_if(render_pct(m.idle_ns, span) >= 5), m.idle_ns);
		render_pen_put(&p, ROLE_PANEL, " (%.1f%%)", render_pct(m.idle_ns, span));
		if (m.overlap_pct >= 0)
			render_pen_put(&p, ROLE_PANEL, "  overlap %.0f%% ", m.overlap_pct);
		else
			render_pen_put(&p, ROLE_PANEL, " ");
	}
	for (int x = p.x; x < c->g->w; x++)
		grid_put(c->g, x, y, c->gl->hrule, ROLE_RULER);
}

/* The first lane row shown: the view's scroll, kept in range. */
int
render_first_lane(const struct layout *lay, const struct view *v)
{
	int s = v->lane_scroll, max = lay->nlanes - lay->lanes_h;

	if (s > max)
		s = max;
	return s < 0 ? 0 : s;
}

/* The role a part of the critical path is drawn in (the band's too). */
enum role
render_path_role(int part)
{
	static const enum role roles[DG_PARTS] = {
		[DG_COMPUTE] = ROLE_COMPUTE, [DG_COMM] = ROLE_EXPOSED,
		[DG_HOST] = ROLE_CPU, [DG_SYNC_PART] = ROLE_SYNC, [DG_IDLE] = ROLE_BUBBLE,
	};

	return part >= 0 && part < DG_PARTS ? roles[part] : ROLE_PANEL;
}
