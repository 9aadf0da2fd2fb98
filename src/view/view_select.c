/* view_select — focus, events in a lane, the launch jump, marks; see view_select.h. */
#include "config.h"

#include "view/view_select.h"

#include <stdio.h>
#include <stdlib.h>

#include "analysis/analysis.h"
#include "analysis/launch.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "load/source.h"
#include "model/itree.h"
#include "model/trace.h"
#include "view/view_lanes.h"

static int
page_rows(const struct view *v)
{
	return v->page > 0 ? v->page : VIEW_PAGE_DEFAULT;
}

static int
focus_is(const struct view *v, const struct row_info *r)
{
	return v->focus.kind == (int)r->kind && v->focus.analysis == r->analysis &&
	    v->focus.track == r->track && v->focus.depth == r->depth;
}

/* The focus' position among the n lanes, or -1. */
static long
focus_index(const struct view *v, const struct row_info *rows, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (focus_is(v, &rows[i]))
			return (long)i;
	return -1;
}

/* Puts the focus on lane i of rows, scrolled into view; its rank current. */
static int
focus_set(struct view *v, const struct row_info *rows, size_t n, long i)
{
	int ch = VIEW_REPAINT, page = page_rows(v);
	const struct row_info *r;

	if (n == 0)
		return VIEW_NONE;
	i = i < 0 ? 0 : (size_t)i >= n ? (long)n - 1 : i;
	r = &rows[i];
	v->focus.kind = (int)r->kind;
	v->focus.analysis = r->analysis;
	v->focus.track = r->track;
	v->focus.depth = r->depth;
	if (i < v->lane_scroll)
		v->lane_scroll = (int)i;
	else if (i >= v->lane_scroll + page)
		v->lane_scroll = (int)(i - page + 1);
	if (r->analysis >= 0 && (size_t)r->analysis < v->nan &&
	    (size_t)r->analysis != v->rank && r->kind != ROW_MATRIX) {
		v->rank = (size_t)r->analysis;
		if (v->sel != SEL_EVENT)
			v->sel = SEL_NONE;
		ch = VIEW_RECALC;
	}
	return ch;
}

/* Up / Down / PgUp / PgDn in the lanes: the focus moves by delta lanes. */
static int
focus_move(struct view *v, long delta)
{
	struct row_info *rows = NULL;
	size_t n = view_lanes(v, &rows, 0);
	long at = focus_index(v, rows, n);
	int ch;

	if (n == 0) {
		free(rows);
		return VIEW_NONE;
	}
	if (at < 0)
		/* no focus yet (or its lane is gone): the first lane shown */
		at = v->lane_scroll < (int)n ? v->lane_scroll : 0;
	else
		at += delta;
	if (at < 0 || (size_t)at >= n) {
		free(rows);
		snprintf(v->message, sizeof v->message, at < 0 ? "the first lane" :
		    "the last lane");
		return VIEW_REPAINT;
	}
	ch = focus_set(v, rows, n, at);
	free(rows);
	return ch;
}

/* The focus on the current rank's first GPU lane (else the first lane with events). */
static int
focus_default(struct view *v)
{
	struct row_info *rows = NULL;
	size_t n = view_lanes(v, &rows, 0);
	long pick = -1;
	int ch = VIEW_NONE;

	for (size_t i = 0; i < n && pick < 0; i++)
		if (rows[i].kind == ROW_GPU && rows[i].analysis == (int)v->rank)
			pick = (long)i;
	for (size_t i = 0; i < n && pick < 0; i++)
		if (rows[i].kind == ROW_GPU || rows[i].kind == ROW_CPU ||
		    rows[i].kind == ROW_ANNOT)
			pick = (long)i;
	if (pick >= 0)
		ch = focus_set(v, rows, n, pick);
	free(rows);
	return ch;
}

/* Whether the focused lane holds events (GPU, annotation or CPU). */
static int
focus_has_events(const struct view *v, struct row_info *r)
{
	r->kind = (enum row_kind)v->focus.kind;
	r->analysis = v->focus.analysis;
	r->track = v->focus.track;
	r->depth = v->focus.depth;
	if (r->kind != ROW_GPU && r->kind != ROW_CPU && r->kind != ROW_ANNOT)
		return 0;
	return r->analysis >= 0 && (size_t)r->analysis < v->nan &&
	    r->track < v->an[r->analysis].t->ntracks;
}

/* The longest event of lane r covering instant ts, or EV_NONE. */
static uint32_t
event_under(const struct view *v, const struct row_info *r, int64_t ts)
{
	const struct trace *t = v->an[r->analysis].t;
	const struct track *tr = &t->tracks[r->track];
	uint32_t *buf = NULL, best = EV_NONE;
	size_t len = 0, cap = 0, n;

	if (tr->count == 0)
		return EV_NONE;
	n = itree_overlap(&tr->index, &t->events[tr->first], ts, ts + 1, &buf,
	    &len, &cap);
	for (size_t i = 0; i < n; i++) {
		uint32_t k = tr->first + buf[i];

		if (view_row_has(v, r, k) && (best == EV_NONE ||
		    t->events[k].dur_ns > t->events[best].dur_ns))
			best = k;
	}
	free(buf);
	return best;
}

/*
 * The next (dir > 0) or previous event of lane r in track order after /
 * before event from, or from the instant ts when from is EV_NONE: the first
 * starting at or after it, the last starting before it.
 */
static uint32_t
event_step(const struct view *v, const struct row_info *r, uint32_t from,
    int64_t ts, int dir)
{
	const struct trace *t = v->an[r->analysis].t;
	const struct track *tr = &t->tracks[r->track];
	uint32_t lo = tr->first, hi = tr->first + tr->count, k;

	if (from != EV_NONE)
		k = dir > 0 ? from + 1 : from;
	else
		k = (uint32_t)trace_track_lower_bound(t, tr, ts);
	if (dir > 0) {
		for (; k < hi; k++)
			if (view_row_has(v, r, k))
				return k;
	} else {
		while (k > lo)
			if (view_row_has(v, r, --k))
				return k;
	}
	return EV_NONE;
}

int
view_select_goto(struct view *v, size_t a, uint32_t ev)
{
	const struct trace *t = v->an[a].t;
	const struct event *e = &t->events[ev];
	int64_t end = e->dur_ns > 0 ? event_end(e) : e->ts_ns + 1;
	struct row_info *rows = NULL;
	size_t n;
	int ch = VIEW_REPAINT;

	if (a != v->rank) {
		v->rank = a;
		ch = VIEW_RECALC;
	}
	view_select_event(v, ev);
	if (t->tracks[e->track].kind == TRACK_CPU && !v->show_cpu) {
		/*
		 * a launch call or an op: its lane is shown, for good (the
		 * CPU lanes shown by themselves may not stay: they go when
		 * they stop fitting, and the target with them)
		 */
		v->show_cpu = 1;
		view_lanes_prepare(v);
	}
	if (end <= v->start_ns || e->ts_ns >= v->end_ns)
		ch |= view_centre_on(v, e->ts_ns, end);
	else
		view_set_cursor(v, view_ns_col(v, e->ts_ns));
	/* the focus follows the event to its lane */
	n = view_lanes(v, &rows, 0);
	for (size_t i = 0; i < n; i++)
		if (rows[i].analysis == (int)a && view_row_has(v, &rows[i], ev)) {
			ch |= focus_set(v, rows, n, (long)i);
			break;
		}
	free(rows);
	return ch;
}

/* . and ,: the event under the cursor first, then the next / previous one. */
static int
select_step(struct view *v, int dir)
{
	struct row_info r;
	uint32_t ev = EV_NONE, cur = EV_NONE;

	if (v->mode != VIEW_MODE_LANES || v->nan == 0) {
		snprintf(v->message, sizeof v->message, "events are selected in the lanes (v leaves the overview)");
		return VIEW_REPAINT;
	}
	if (!focus_has_events(v, &r)) {
		int ch = focus_default(v);

		if (!focus_has_events(v, &r)) {
			snprintf(v->message, sizeof v->message,
			    "Up / Down: put the focus on a lane with events first");
			return ch | VIEW_REPAINT;
		}
	}
	if (v->sel == SEL_EVENT && v->an[r.analysis].t == view_current(v)->t &&
	    v->sel_index >= 0 && view_row_has(v, &r, (uint32_t)v->sel_index))
		cur = (uint32_t)v->sel_index;
	if (cur == EV_NONE)
		ev = event_under(v, &r, view_cursor_ns(v));
	if (ev == EV_NONE)
		ev = event_step(v, &r, cur, view_cursor_ns(v), dir);
	if (ev == EV_NONE) {
		snprintf(v->message, sizeof v->message, dir > 0 ?
		    "no next event in this lane" : "no previous event in this lane");
		return VIEW_REPAINT;
	}
	return view_select_goto(v, (size_t)r.analysis, ev);
}

/* J: a kernel to its launch call and back; an op to the first kernel it launched. */
static int
follow_link(struct view *v)
{
	const struct trace *t;
	const struct event *e;
	uint32_t to = EV_NONE;

	if (v->nan == 0 || v->sel != SEL_EVENT) {
		snprintf(v->message, sizeof v->message, "select an event first (. or a click)");
		return VIEW_REPAINT;
	}
	t = view_current(v)->t;
	if (v->sel_index < 0 || (size_t)v->sel_index >= t->nevents)
		return VIEW_NONE;
	e = &t->events[v->sel_index];
	if (e->link != EV_NONE && e->link < t->nevents) {
		to = e->link;
	} else if (!event_is_activity(e)) {
		/* an op: the first launch inside it that launched something */
		const struct track *tr = &t->tracks[e->track];
		uint32_t end = (uint32_t)trace_track_lower_bound(t, tr,
		    event_end(e) + (e->dur_ns == 0));

		for (uint32_t k = (uint32_t)v->sel_index + 1; k < end && to == EV_NONE; k++)
			if (t->events[k].depth > e->depth && t->events[k].link != EV_NONE &&
			    t->events[k].link < t->nevents &&
			    event_is_activity(&t->events[t->events[k].link]))
				to = t->events[k].link;
	}
	if (to == EV_NONE) {
		snprintf(v->message, sizeof v->message, event_is_activity(e) ?
		    "no launch call linked to this kernel" :
		    "this event launched nothing on the GPU");
		return VIEW_REPAINT;
	}
	/* the analysis of the target: the GPU activity's device, or this rank */
	for (size_t a = 0; a < v->nan; a++)
		if (v->an[a].t == t && (!event_is_activity(&t->events[to]) ||
		    v->an[a].device == trace_event_device(t, &t->events[to])))
			return view_select_goto(v, a, to);
	return view_select_goto(v, v->rank, to);
}

/*
 * The event one lane up that holds CPU event ev of t (its parent as the
 * lanes draw it: Python frames folded away are passed over), or EV_NONE.
 * The events of a track are consecutive and in start order, so it is the
 * nearest before ev with a smaller lane depth.
 */
static uint32_t
parent_of(const struct view *v, const struct trace *t, uint32_t ev)
{
	const struct event *e = &t->events[ev];
	int d = view_cpu_depth(v, t, ev);

	for (uint32_t k = ev; k-- > 0 && t->events[k].track == e->track; ) {
		const struct event *p = &t->events[k];
		int pd;

		if (p->depth >= e->depth || (pd = view_cpu_depth(v, t, k)) < 0 ||
		    (d >= 0 && pd >= d))
			continue;
		if (event_end(p) >= event_end(e))
			return k;
	}
	return EV_NONE;
}

/* u: a kernel's launching op; a CPU event's parent. */
static int
launch_op(struct view *v)
{
	const struct analysis *an;
	const struct trace *t;
	struct launch_context lc;
	uint32_t ev, to;

	if (v->nan == 0 || v->sel != SEL_EVENT) {
		snprintf(v->message, sizeof v->message, "select an event first (. or a click)");
		return VIEW_REPAINT;
	}
	an = view_current(v);
	t = an->t;
	if (v->sel_index < 0 || (size_t)v->sel_index >= t->nevents)
		return VIEW_NONE;
	ev = (uint32_t)v->sel_index;
	if (event_is_activity(&t->events[ev])) {
		launch_context(t, an->layers, an->nlayers, ev, &lc);
		to = lc.op != EV_NONE ? lc.op : lc.launch;
	} else {
		to = parent_of(v, t, ev);
	}
	if (to == EV_NONE || to >= t->nevents) {
		snprintf(v->message, sizeof v->message, "%s",
		    event_is_activity(&t->events[ev]) ?
		    "no op or launch call is linked to this kernel" :
		    "nothing around this event on its thread");
		return VIEW_REPAINT;
	}
	return view_select_goto(v, v->rank, to);
}

/* Says what the marks measure; VIEW_RECALC with both set, else VIEW_REPAINT. */
static int
marks_said(struct view *v, int k)
{
	char a[32], b[32];
	int64_t x, y;

	if (view_marked_range(v, &x, &y)) {
		units_format(a, sizeof a, x - v->t0_ns);
		units_format(b, sizeof b, y - x);
		snprintf(v->message, sizeof v->message,
		    "marked +%s, %s long: the panel measures it (Z zooms to it, Esc clears)",
		    a, b);
		return VIEW_RECALC;
	}
	snprintf(v->message, sizeof v->message, "mark %d set; %c sets the other",
	    k + 1, k == 0 ? '>' : '<');
	return VIEW_REPAINT;
}

static int
set_mark(struct view *v, int k)
{
	v->mark_ns[k] = view_cursor_ns(v);
	v->marks |= 1 << k;
	return marks_said(v, k);
}

int
view_select_mark_columns(struct view *v, int col_a, int col_b)
{
	int lo = col_a < col_b ? col_a : col_b, hi = col_a < col_b ? col_b : col_a;

	lo = lo < 0 ? 0 : lo >= v->cols ? v->cols - 1 : lo;
	hi = hi < 0 ? 0 : hi >= v->cols ? v->cols - 1 : hi;
	v->mark_ns[0] = view_col_ns(v, lo);
	v->mark_ns[1] = view_col_ns(v, hi + 1);
	v->marks = 3;
	v->cursor = col_b < 0 ? 0 : col_b >= v->cols ? v->cols - 1 : col_b;
	return marks_said(v, 1);
}

int
view_select_do(struct view *v, enum view_cmd cmd)
{
	switch (cmd) {
	case CMD_LANE_UP:
	case CMD_LANE_DOWN:
	case CMD_PAGE_UP:
	case CMD_PAGE_DOWN:
		if (v->mode != VIEW_MODE_LANES || v->nan == 0)
			return -1;      /* the overview and the matrix scroll */
		return focus_move(v, cmd == CMD_LANE_UP ? -1 : cmd == CMD_LANE_DOWN ? 1 :
		    cmd == CMD_PAGE_UP ? -page_rows(v) : page_rows(v));
	case CMD_NEXT_EVENT:
		return select_step(v, 1);
	case CMD_PREV_EVENT:
		return select_step(v, -1);
	case CMD_FOLLOW_LINK:
		return follow_link(v);
	case CMD_LAUNCH_OP:
		return launch_op(v);
	case CMD_MARK_A:
		return set_mark(v, 0);
	case CMD_MARK_B:
		return set_mark(v, 1);
	case CMD_ZOOM_MARKS: {
		int64_t a, b;

		if (!view_marked_range(v, &a, &b)) {
			snprintf(v->message, sizeof v->message,
			    "no range: set both marks (< and >, or drag across the lanes)");
			return VIEW_REPAINT;
		}
		/* the window is the range itself: the panel's numbers stay */
		return view_set_window(v, a, b, 1) | VIEW_REPAINT;
	}
	case CMD_CLEAR_MARKS:
		if (v->marks == 0)
			return VIEW_NONE;
		v->marks = 0;
		snprintf(v->message, sizeof v->message, "marks cleared: the panel measures the window");
		return VIEW_RECALC;
	case CMD_TOGGLE_PYTHON:
		v->show_python = !v->show_python;
		snprintf(v->message, sizeof v->message, v->show_python ?
		    "CPU lanes: with_stack's Python frames shown" :
		    "CPU lanes: Python frames folded away");
		if (!v->show_cpu)
			v->show_cpu = 1;
		v->cpu_auto = 0;
		return VIEW_REPAINT;
	case CMD_TOGGLE_CPU:
		if (v->nan == 0)
			return -1;
		/* c flips what is on screen; the lanes stop showing by themselves */
		v->show_cpu = !view_cpu_shown(v);
		v->cpu_auto = 0;
		return VIEW_REPAINT;
	case CMD_TOGGLE_COUNTERS:
		v->show_counters = !v->show_counters;
		return VIEW_REPAINT;
	case CMD_CLICK:
		return VIEW_NONE;       /* tui.c: it needs the pointer */
	default:
		return -1;
	}
}

void
view_select_refresh(struct view *v)
{
	const struct trace *t;

	const struct analysis *an;
	struct launch_context lc;
	struct source_args got[2];
	uint32_t ev[2];

	if (v->nan == 0 || v->sel != SEL_EVENT || v->panel != PANEL_SELECTION)
		return;
	an = view_current(v);
	t = an->t;
	if (v->sel_index < 0 || (size_t)v->sel_index >= t->nevents ||
	    (v->args != NULL && v->args_t == t && v->args_ev == v->sel_index))
		return;
	view_select_free(v);
	ev[0] = (uint32_t)v->sel_index;
	ev[1] = EV_NONE;
	if (event_is_activity(&t->events[ev[0]])) {
		launch_context(t, an->layers, an->nlayers, ev[0], &lc);
		ev[1] = lc.op;
	}
	source_read_args_n(t, ev, ev[1] != EV_NONE ? 2 : 1, got);
	v->args = xmalloc(sizeof *v->args);
	*v->args = got[0];
	if (ev[1] != EV_NONE) {
		v->op_args = xmalloc(sizeof *v->op_args);
		*v->op_args = got[1];
		v->op_ev = ev[1];
	}
	v->args_t = t;
	v->args_ev = v->sel_index;
}

uint32_t
view_launch_op_args(const struct view *v, const struct source_args **args)
{
	*args = NULL;
	if (view_event_args(v) == NULL || v->op_args == NULL)
		return EV_NONE;
	*args = v->op_args;
	return v->op_ev;
}

const struct source_args *
view_event_args(const struct view *v)
{
	if (v->args == NULL || v->nan == 0 || v->sel != SEL_EVENT ||
	    v->args_t != view_current(v)->t || v->args_ev != v->sel_index)
		return NULL;
	return v->args;
}

void
view_select_free(struct view *v)
{
	if (v->args != NULL) {
		source_args_free(v->args);
		free(v->args);
		v->args = NULL;
	}
	if (v->op_args != NULL) {
		source_args_free(v->op_args);
		free(v->op_args);
		v->op_args = NULL;
	}
	v->op_ev = EV_NONE;
	v->args_t = NULL;
	v->args_ev = -1;
}
