/* view_nav — going to steps, layers, gaps and matches; see view_nav.h. */
#include "config.h"

#include "view/view_nav.h"

#include <ctype.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/layers.h"
#include "base/pattern.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "model/trace.h"
#include "view/view.h"
#include "view/view_history.h"
#include "view/view_select.h"

/* The names of one trace that match the query: one bit per strtab id. */
struct match_names {
	const struct trace *t;
	uint32_t count;                 /* strtab size when built */
	uint8_t *bits;
	uint64_t nmatch;                /* its events that match */
};

/* The search: the query compiled, and its names per trace searched. */
struct view_nav {
	char query[sizeof ((struct view *)0)->query];
	regex_t re;
	int compiled;                   /* re holds query; else a literal */
	struct match_names *sets;
	size_t nsets;
};

static struct view_nav *
nav(struct view *v)
{
	if (v->nav == NULL)
		v->nav = xcalloc(1, sizeof *v->nav);
	return v->nav;
}

/* ---- steps and layers ---- */

static void
step_extent(const struct step *s, int64_t *a, int64_t *b)
{
	*a = s->has_gpu ? s->gpu_start_ns : s->start_ns;
	*b = s->has_gpu ? s->gpu_end_ns : s->end_ns;
}

static void
layer_extent(const struct layer *l, int64_t *a, int64_t *b)
{
	*a = l->has_gpu ? l->gpu_start_ns : l->cpu_start_ns;
	*b = l->has_gpu ? l->gpu_end_ns : l->cpu_end_ns;
}

/*
 * The next (dir > 0) or previous item of n after/before the selected one
 * (cur >= 0); with none selected, the first item (in array order) whose
 * extent holds the cursor time t, unless the window is already on it
 * (view_shows_only(): then it counts as the current one and the next or
 * previous is taken), else the first whose extent starts after t / the
 * last whose extent ends at or before it; -1 if none.  An item of no
 * length holds t when it starts there.
 */
static long
pick(const struct view *v, long cur, size_t n, int dir, int64_t t,
    void (*ext)(const void *, size_t, int64_t *, int64_t *), const void *items)
{
	int64_t a, b;

	if (cur >= 0) {
		long i = cur + dir;

		return i >= 0 && (size_t)i < n ? i : -1;
	}
	for (size_t i = 0; i < n; i++) {
		ext(items, i, &a, &b);
		if (!(a <= t && (t < b || a == b)))
			continue;
		if (!view_shows_only(v, a, b))
			return (long)i;
		/* the window is on it: move on from it */
		a = (int64_t)i + dir;
		return a >= 0 && (size_t)a < n ? (long)a : -1;
	}
	if (dir > 0) {
		for (size_t i = 0; i < n; i++) {
			ext(items, i, &a, &b);
			if (a > t)
				return (long)i;
		}
	} else {
		for (size_t i = n; i-- > 0;) {
			ext(items, i, &a, &b);
			if (b <= t)
				return (long)i;
		}
	}
	return -1;
}

static void
step_ext_at(const void *items, size_t i, int64_t *a, int64_t *b)
{
	step_extent(&((const struct step *)items)[i], a, b);
}

static void
layer_ext_at(const void *items, size_t i, int64_t *a, int64_t *b)
{
	layer_extent(&((const struct layer *)items)[i], a, b);
}

int
view_nav_select_step(struct view *v, long i)
{
	int64_t a, b;

	step_extent(&view_current(v)->steps[i], &a, &b);
	v->sel = SEL_STEP;
	v->sel_index = i;
	return view_zoom_to(v, a, b) | VIEW_REPAINT;
}

int
view_nav_select_layer(struct view *v, long i)
{
	int64_t a, b;

	layer_extent(&view_current(v)->layers[i], &a, &b);
	v->sel = SEL_LAYER;
	v->sel_index = i;
	return view_zoom_to(v, a, b) | VIEW_REPAINT;
}

static int
nav_step(struct view *v, int dir)
{
	const struct analysis *an = view_current(v);
	long i;

	if (an->nsteps == 0) {
		snprintf(v->message, sizeof v->message,
		    "no ProfilerStep annotations in this trace");
		return VIEW_REPAINT;
	}
	i = pick(v, v->sel == SEL_STEP ? v->sel_index : -1, an->nsteps, dir,
	    view_cursor_ns(v), step_ext_at, an->steps);
	if (i < 0) {
		snprintf(v->message, sizeof v->message, "%s",
		    dir > 0 ? "no next step" : "no previous step");
		return VIEW_REPAINT;
	}
	return view_nav_select_step(v, i);
}

static int
nav_layer(struct view *v, int dir)
{
	const struct analysis *an = view_current(v);
	long i;

	if (an->nlayers == 0) {
		snprintf(v->message, sizeof v->message, "no layers in this trace");
		return VIEW_REPAINT;
	}
	/* from a selected step: its first layer (}) or its last ({) */
	if (v->sel == SEL_STEP && v->sel_index >= 0 &&
	    (size_t)v->sel_index < an->nsteps) {
		int64_t num = an->steps[v->sel_index].number;

		for (size_t k = 0; k < an->nlayers; k++) {
			size_t j = dir > 0 ? k : an->nlayers - 1 - k;

			if (an->layers[j].step == num)
				return view_nav_select_layer(v, (long)j);
		}
	}
	i = pick(v, v->sel == SEL_LAYER ? v->sel_index : -1, an->nlayers, dir,
	    view_cursor_ns(v), layer_ext_at, an->layers);
	if (i < 0) {
		snprintf(v->message, sizeof v->message, "%s",
		    dir > 0 ? "no next layer" : "no previous layer");
		return VIEW_REPAINT;
	}
	return view_nav_select_layer(v, i);
}

static int
next_outlier(struct view *v)
{
	const struct analysis *an = view_current(v);
	int64_t t = view_cursor_ns(v), a, b;
	long first = -1, found = -1;

	for (size_t i = 0; i < an->nsteps; i++) {
		if (!an->steps[i].outlier)
			continue;
		if (first < 0)
			first = (long)i;
		if (v->sel == SEL_STEP) {
			if ((long)i > v->sel_index) {
				found = (long)i;
				break;
			}
		} else {
			/* the outlier under the cursor, else the next one */
			step_extent(&an->steps[i], &a, &b);
			if (b > t) {
				found = (long)i;
				break;
			}
		}
	}
	if (first < 0) {
		snprintf(v->message, sizeof v->message, "%s",
		    an->nsteps < STEPS_MIN_FOR_OUTLIERS ?
		    "no outlier steps (outliers need at least 5 steps)" :
		    "no outlier steps");
		return VIEW_REPAINT;
	}
	if (found < 0) {
		found = first;
		snprintf(v->message, sizeof v->message,
		    "wrapped to the first outlier step");
	}
	return view_nav_select_step(v, found);
}

/* O: the slowest step (by its own time; ties: the first). */
static int
slowest_step(struct view *v)
{
	const struct analysis *an = view_current(v);
	long best = -1;

	for (size_t i = 0; i < an->nsteps; i++)
		if (best < 0 || an->steps[i].end_ns - an->steps[i].start_ns >
		    an->steps[best].end_ns - an->steps[best].start_ns)
			best = (long)i;
	if (best < 0) {
		snprintf(v->message, sizeof v->message,
		    "no ProfilerStep annotations in this trace");
		return VIEW_REPAINT;
	}
	snprintf(v->message, sizeof v->message, "the slowest of %zu steps: #%lld",
	    an->nsteps, (long long)an->steps[best].number);
	return view_nav_select_step(v, best);
}

/*
 * The longest of the activities of d starting in [a, b); with cb >= ca,
 * only those whose launch call starts in [ca, cb] when any does.  EV_NONE
 * if none.
 */
static uint32_t
longest_in(const struct metrics *d, int64_t a, int64_t b, int64_t ca,
    int64_t cb)
{
	const struct event *ev = d->t->events;
	uint32_t best = EV_NONE, any = EV_NONE;

	for (size_t k = metrics_first_at(d, a); k < d->nacts &&
	    ev[d->acts[k]].ts_ns < b; k++) {
		uint32_t i = d->acts[k];
		const struct event *e = &ev[i];

		if (any == EV_NONE || e->dur_ns > ev[any].dur_ns)
			any = i;
		if (cb >= ca && e->link != EV_NONE && ev[e->link].ts_ns >= ca &&
		    ev[e->link].ts_ns <= cb &&
		    (best == EV_NONE || e->dur_ns > ev[best].dur_ns))
			best = i;
	}
	return best != EV_NONE ? best : any;
}

/* K: the longest kernel of the selected step or layer, else of the window. */
static int
longest_kernel(struct view *v)
{
	const struct analysis *an = view_current(v);
	int64_t a = v->start_ns, b = v->end_ns, ca = 0, cb = -1;
	char of[160] = "in view";
	uint32_t ev;
	int ch;

	if (v->sel == SEL_STEP && v->sel_index >= 0 &&
	    (size_t)v->sel_index < an->nsteps && an->steps[v->sel_index].has_gpu) {
		const struct step *s = &an->steps[v->sel_index];

		a = s->gpu_start_ns;
		b = s->gpu_end_ns;
		snprintf(of, sizeof of, "of step #%lld", (long long)s->number);
	} else if (v->sel == SEL_LAYER && v->sel_index >= 0 &&
	    (size_t)v->sel_index < an->nlayers && an->layers[v->sel_index].has_gpu) {
		const struct layer *l = &an->layers[v->sel_index];

		a = l->gpu_start_ns;
		b = l->gpu_end_ns > a ? l->gpu_end_ns : a + 1;
		ca = l->cpu_start_ns;
		cb = l->cpu_end_ns;
		snprintf(of, sizeof of, "of %.100s %s", trace_str(an->t, l->name),
		    layers_phase_name(l->phase));
	}
	ev = longest_in(&an->dev, a, b, ca, cb);
	if (ev == EV_NONE) {
		snprintf(v->message, sizeof v->message, "no kernel %s", of);
		return VIEW_REPAINT;
	}
	ch = view_select_goto(v, v->rank, ev);
	snprintf(v->message, sizeof v->message, "the longest kernel %s "
	    "(u: the op that launched it)", of);
	return ch | VIEW_REPAINT;
}

static int
worst_layer(struct view *v)
{
	const struct analysis *an = view_current(v);
	long best = -1;
	int in_view = 0;

	if (an->nlayers == 0) {
		snprintf(v->message, sizeof v->message, "no layers in this trace");
		return VIEW_REPAINT;
	}
	for (size_t i = 0; i < an->nlayers; i++) {
		const struct layer *l = &an->layers[i];
		int overlaps;

		if (!l->has_gpu)
			continue;
		if (l->gpu_end_ns == l->gpu_start_ns)
			overlaps = l->gpu_start_ns >= v->start_ns &&
			    l->gpu_start_ns < v->end_ns;
		else
			overlaps = l->gpu_start_ns < v->end_ns &&
			    l->gpu_end_ns > v->start_ns;
		if (!overlaps)
			continue;
		in_view = 1;
		if (l->own_exposed_comm_ns > 0 &&
		    !layers_whole_step(l, an->steps, an->nsteps) && (best < 0 ||
		    layers_cmp_worst(l, &an->layers[best]) < 0))
			best = (long)i;
	}
	if (best < 0) {
		snprintf(v->message, sizeof v->message, "%s", in_view ?
		    "no layer in view has exposed communication of its own" :
		    "no layer with GPU activity in view");
		return VIEW_REPAINT;
	}
	return view_nav_select_layer(v, best);
}

/* ---- gaps ---- */

static int64_t
gap_start(const struct metrics *d, size_t i)
{
	return d->holes[d->gaps[i]].start_ns;
}

static int
nav_gap(struct view *v, int dir)
{
	const struct analysis *an = view_current(v);
	const struct metrics *d = &an->dev;
	int64_t from = v->sel == SEL_GAP ? v->sel_gap.start_ns : view_cursor_ns(v);
	size_t lo = 0, hi = d->ngaps;
	const struct hole *h;
	long i;
	int64_t len;

	if (d->ngaps == 0) {
		char buf[32];

		snprintf(v->message, sizeof v->message, "no gaps >= %s",
		    units_format(buf, sizeof buf, d->min_gap_ns));
		return VIEW_REPAINT;
	}
	/* lo = the first gap starting after from (dir > 0), or at/after it. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (dir > 0 ? gap_start(d, mid) <= from : gap_start(d, mid) < from)
			lo = mid + 1;
		else
			hi = mid;
	}
	i = dir > 0 ? (long)lo : (long)lo - 1;
	/* nothing selected: the gap under the cursor comes first */
	if (v->sel != SEL_GAP && lo > 0 &&
	    d->holes[d->gaps[lo - 1]].end_ns > from)
		i = (long)lo - 1;
	if (i < 0 || (size_t)i >= d->ngaps) {
		if (v->sel == SEL_GAP) {
			snprintf(v->message, sizeof v->message, "%s",
			    dir > 0 ? "no next gap" : "no previous gap");
			return VIEW_REPAINT;
		}
		/* none that way from the cursor: the nearest the other way */
		i = dir > 0 ? (long)d->ngaps - 1 : 0;
		snprintf(v->message, sizeof v->message, "%s",
		    dir > 0 ? "no gap after the cursor: the last one before it" :
		    "no gap before the cursor: the first one after it");
	}
	h = &d->holes[d->gaps[i]];
	len = h->end_ns - h->start_ns;
	v->sel = SEL_GAP;
	v->sel_index = i;
	v->sel_gap.start_ns = h->start_ns;
	v->sel_gap.dur_ns = len;
	/* The gap takes the middle third of the screen. */
	return view_set_window(v, h->start_ns - len, h->end_ns + len, 1) |
	    VIEW_REPAINT;
}

/* ---- search ---- */

/* Whether hay contains the lower-cased needle (length n), ignoring case. */
static int
contains_ci(const char *hay, const char *needle, size_t n)
{
	if (n == 0)
		return 1;
	for (; *hay != '\0'; hay++) {
		size_t k = 0;

		while (k < n && hay[k] != '\0' &&
		    tolower((unsigned char)hay[k]) == (unsigned char)needle[k])
			k++;
		if (k == n)
			return 1;
		if (hay[k] == '\0')
			return 0;
	}
	return 0;
}

/* Forgets the sets and the compiled query. */
static void
match_reset(struct view_nav *p)
{
	for (size_t i = 0; i < p->nsets; i++)
		free(p->sets[i].bits);
	free(p->sets);
	p->sets = NULL;
	p->nsets = 0;
	if (p->compiled)
		regfree(&p->re);
	p->compiled = 0;
	p->query[0] = '\0';
}

/*
 * The set of t's names matching v->query (view_nav.h: an ERE, ignoring
 * case, else the text itself), built once per trace and query, with the
 * number of its events that match.
 */
static const struct match_names *
match_set(struct view *v, const struct trace *t)
{
	struct view_nav *p = nav(v);
	struct match_names *m;
	char low[sizeof v->query], why[256];
	size_t n = 0;

	if (strcmp(p->query, v->query) != 0) {
		match_reset(p);
		memcpy(p->query, v->query, sizeof p->query);
		p->compiled = pattern_compile(&p->re, p->query,
		    REG_ICASE | REG_NOSUB, why, sizeof why) == 0;
	}
	for (size_t i = 0; i < p->nsets; i++)
		if (p->sets[i].t == t && p->sets[i].count == t->strs.count)
			return &p->sets[i];
	for (; p->query[n] != '\0'; n++)
		low[n] = (char)tolower((unsigned char)p->query[n]);
	low[n] = '\0';
	p->sets = xreallocarray(p->sets, p->nsets + 1, sizeof *p->sets);
	m = &p->sets[p->nsets++];
	m->t = t;
	m->count = t->strs.count;
	m->bits = xcalloc((size_t)t->strs.count / 8 + 1, 1);
	m->nmatch = 0;
	for (uint32_t id = 0; id < t->strs.count; id++) {
		const char *s = strtab_get(&t->strs, id);

		if (p->compiled ? pattern_exec(&p->re, s, 0, NULL) == 0 :
		    contains_ci(s, low, n))
			m->bits[id / 8] |= (uint8_t)(1u << (id % 8));
	}
	for (size_t i = 0; i < t->nevents; i++)
		m->nmatch += view_name_match(m->bits, &t->events[i]);
	return m;
}

const uint8_t *
view_match_names(const struct view *v, const struct trace *t)
{
	const struct view_nav *p = v->nav;

	if (p == NULL || v->query[0] == '\0' || strcmp(p->query, v->query) != 0)
		return NULL;
	for (size_t i = 0; i < p->nsets; i++)
		if (p->sets[i].t == t && p->sets[i].count == t->strs.count)
			return p->sets[i].bits;
	return NULL;
}

/* (ts, index) order: the order of matches. */
static inline int
key_lt(int64_t ts1, uint32_t i1, int64_t ts2, uint32_t i2)
{
	return ts1 < ts2 || (ts1 == ts2 && i1 < i2);
}

/*
 * In (ts, index) order, the first matching event of t after the key
 * (ts, idx) for dir > 0, the last before it for dir < 0, the key itself
 * included when incl; EV_NONE if none.  Per track (sorted by ts, so by key):
 * a binary search to the key, then a scan that stops at the first match or
 * once past the best found so far.  O(n) at worst.
 */
static uint32_t
find_match(const struct trace *t, const uint8_t *set, int dir, int64_t ts,
    uint32_t idx, int incl)
{
	uint32_t best = EV_NONE;

	for (size_t k = 0; k < t->ntracks; k++) {
		const struct track *tr = &t->tracks[k];
		uint32_t lo = tr->first, hi = tr->first + tr->count;

		if (tr->kind == TRACK_COUNTER || tr->count == 0)
			continue;
		/*
		 * lo = the first event past the key for dir > 0 (at or past
		 * it when incl), the first at or past it for dir < 0 (past
		 * it when incl): the scan goes up from lo, or down from lo - 1.
		 */
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;
			const struct event *e = &t->events[mid];
			int below = (dir > 0) == (incl != 0) ?
			    key_lt(e->ts_ns, mid, ts, idx) :
			    !key_lt(ts, idx, e->ts_ns, mid);

			if (below)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (dir > 0) {
			for (uint32_t i = lo; i < tr->first + tr->count; i++) {
				const struct event *e = &t->events[i];

				if (best != EV_NONE &&
				    !key_lt(e->ts_ns, i, t->events[best].ts_ns, best))
					break;
				if (view_name_match(set, e)) {
					best = i;
					break;
				}
			}
		} else {
			for (uint32_t i = lo; i-- > tr->first;) {
				const struct event *e = &t->events[i];

				if (best != EV_NONE &&
				    !key_lt(t->events[best].ts_ns, best, e->ts_ns, i))
					break;
				if (view_name_match(set, e)) {
					best = i;
					break;
				}
			}
		}
	}
	return best;
}

/* How many matches of t come before event ev in (ts, index) order. */
static uint64_t
matches_before(const struct trace *t, const uint8_t *set, uint32_t ev)
{
	const struct event *k = &t->events[ev];
	uint64_t n = 0;

	for (uint32_t i = 0; i < t->nevents; i++) {
		const struct event *e = &t->events[i];

		if (key_lt(e->ts_ns, i, k->ts_ns, ev) && view_name_match(set, e))
			n++;
	}
	return n;
}

/*
 * Shows event e: the window is left alone when e is in it and at least a
 * column wide; one narrower than a column is zoomed to (with room either
 * side, so that it reads as a bar); else the window is centred on it.
 */
static int
show_match(struct view *v, const struct event *e)
{
	int64_t span = v->end_ns - v->start_ns;
	int64_t col = span / (v->cols > 0 ? v->cols : 1);
	int64_t d = e->dur_ns > 100 ? e->dur_ns : 100;

	if (e->dur_ns < col || e->dur_ns == 0) {
		int64_t m = d * 10;

		if (e->ts_ns >= v->start_ns && event_end(e) <= v->end_ns &&
		    e->dur_ns > 0 && e->dur_ns * (v->cols > 0 ? v->cols : 1) >= span)
			return VIEW_REPAINT;
		return view_zoom_to(v, e->ts_ns - m, event_end(e) + m) | VIEW_REPAINT;
	}
	if (e->ts_ns >= v->start_ns && event_end(e) <= v->end_ns)
		return VIEW_REPAINT;
	return view_centre_on(v, e->ts_ns, event_end(e));
}

/*
 * Jumps to the next (dir > 0) or previous match: after/before the selected
 * event, else (or with from_cursor) at or after / before the cursor's time;
 * wraps around.  Says "match k of n".
 */
static int
jump_match(struct view *v, int dir, int from_cursor)
{
	const struct trace *t = view_current(v)->t;
	const struct match_names *m;
	const uint8_t *set;
	const struct event *e;
	uint32_t ev;
	const char *wrapped = "";

	if (v->query[0] == '\0') {
		snprintf(v->message, sizeof v->message, "no search yet: / searches");
		return VIEW_REPAINT;
	}
	/* every rank's lanes mark their matches */
	for (size_t i = 0; i < v->nan; i++)
		(void)match_set(v, v->an[i].t);
	m = match_set(v, t);
	set = m->bits;
	if (!from_cursor && v->sel == SEL_EVENT && (size_t)v->sel_index < t->nevents)
		ev = find_match(t, set, dir, t->events[v->sel_index].ts_ns,
		    (uint32_t)v->sel_index, 0);
	else
		ev = find_match(t, set, dir, view_cursor_ns(v), 0, dir > 0);
	if (ev == EV_NONE) {
		ev = dir > 0 ? find_match(t, set, 1, INT64_MIN, 0, 1) :
		    find_match(t, set, -1, INT64_MAX, UINT32_MAX, 1);
		if (ev == EV_NONE) {
			snprintf(v->message, sizeof v->message, "no match for /%.60s%s",
			    v->query, nav(v)->compiled ? "" : " (as text: not a regular expression)");
			/* the last search's match is not one of this query's */
			if (v->sel == SEL_EVENT && v->match_ev == v->sel_index)
				v->sel = SEL_NONE;
			v->match_ev = -1;
			v->match_k = v->match_n = 0;
			return VIEW_REPAINT;
		}
		wrapped = dir > 0 ? ", wrapped to the start" : ", wrapped to the end";
	}
	e = &t->events[ev];
	view_select_event(v, ev);
	v->match_ev = (long)ev;
	v->match_k = matches_before(t, set, ev) + 1;
	v->match_n = m->nmatch;
	/* the panel's selection line says "match k of n"; here what is news */
	if (*wrapped != '\0' || !nav(v)->compiled)
		snprintf(v->message, sizeof v->message, "/%.60s: match %llu of %llu%s%s",
		    v->query, (unsigned long long)v->match_k,
		    (unsigned long long)v->match_n, wrapped,
		    nav(v)->compiled ? "" : " (as text: not a regular expression)");
	if (t->tracks[e->track].kind == TRACK_CPU)
		v->show_cpu = 1;
	return show_match(v, e);
}

static int
search(struct view *v, const char *text)
{
	v->message[0] = '\0';
	if (v->nan == 0) {
		snprintf(v->message, sizeof v->message, "no trace");
		return VIEW_REPAINT;
	}
	if (text != NULL && text[0] != '\0')
		snprintf(v->query, sizeof v->query, "%s", text);
	return jump_match(v, 1, 1);
}

/* ---- Enter, and the commands ---- */

static int
zoom_selected(struct view *v)
{
	const struct analysis *an = view_current(v);
	int64_t a, b;

	switch (v->sel) {
	case SEL_STEP:
		if ((size_t)v->sel_index >= an->nsteps)
			break;
		step_extent(&an->steps[v->sel_index], &a, &b);
		return view_zoom_to(v, a, b);
	case SEL_LAYER:
		if ((size_t)v->sel_index >= an->nlayers)
			break;
		layer_extent(&an->layers[v->sel_index], &a, &b);
		return view_zoom_to(v, a, b);
	case SEL_GAP:
		return view_zoom_to(v, v->sel_gap.start_ns,
		    v->sel_gap.start_ns + v->sel_gap.dur_ns);
	case SEL_EVENT:
		if ((size_t)v->sel_index >= an->t->nevents)
			break;
		a = an->t->events[v->sel_index].ts_ns;
		b = event_end(&an->t->events[v->sel_index]);
		return view_zoom_to(v, a, b);
	case SEL_FINDING:      /* the lanes modes zoom to it (command.c) */
	case SEL_NONE:
		break;
	}
	snprintf(v->message, sizeof v->message, "nothing selected");
	return VIEW_REPAINT;
}

/* Commands that need an analysis to look at. */
static int
needs_analysis(enum view_cmd cmd)
{
	switch (cmd) {
	case CMD_NEXT_STEP: case CMD_PREV_STEP: case CMD_NEXT_OUTLIER:
	case CMD_NEXT_LAYER: case CMD_PREV_LAYER: case CMD_WORST_LAYER:
	case CMD_NEXT_GAP: case CMD_PREV_GAP: case CMD_ZOOM_SELECTED:
	case CMD_NEXT_MATCH: case CMD_PREV_MATCH: case CMD_SLOWEST_STEP:
	case CMD_LONGEST_KERNEL:
		return 1;
	default:
		return 0;
	}
}

int
view_nav_do(struct view *v, enum view_cmd cmd)
{
	if (!needs_analysis(cmd))
		return -1;
	if (v->nan == 0) {
		snprintf(v->message, sizeof v->message, "no trace");
		return VIEW_REPAINT;
	}
	/* Without a device there are no steps, layers or gaps to go to. */
	if (cmd != CMD_NEXT_MATCH && cmd != CMD_PREV_MATCH &&
	    cmd != CMD_ZOOM_SELECTED && view_current(v)->device < 0) {
		snprintf(v->message, sizeof v->message,
		    "no GPU activity in this trace");
		return VIEW_REPAINT;
	}
	switch (cmd) {
	case CMD_ZOOM_SELECTED:
		return zoom_selected(v);
	case CMD_NEXT_STEP:
		return nav_step(v, 1);
	case CMD_PREV_STEP:
		return nav_step(v, -1);
	case CMD_NEXT_LAYER:
		return nav_layer(v, 1);
	case CMD_PREV_LAYER:
		return nav_layer(v, -1);
	case CMD_NEXT_OUTLIER:
		return next_outlier(v);
	case CMD_NEXT_GAP:
		return nav_gap(v, 1);
	case CMD_PREV_GAP:
		return nav_gap(v, -1);
	case CMD_WORST_LAYER:
		return worst_layer(v);
	case CMD_SLOWEST_STEP:
		return slowest_step(v);
	case CMD_LONGEST_KERNEL:
		return longest_kernel(v);
	case CMD_NEXT_MATCH:
		return jump_match(v, 1, 0);
	case CMD_PREV_MATCH:
		return jump_match(v, -1, 0);
	default:
		return -1;
	}
}

void
view_nav_free(struct view *v)
{
	if (v->nav == NULL)
		return;
	match_reset(v->nav);
	free(v->nav);
	v->nav = NULL;
}

int
view_search(struct view *v, const char *text)
{
	struct view_place before;
	int nzoom = v->nzoom, ch;

	view_here(v, &before);
	ch = search(v, text);
	view_history_after(v, &before, nzoom, 1);      /* a search goes to its match */
	return ch;
}
