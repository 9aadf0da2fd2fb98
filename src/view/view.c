#include "config.h"

#include "view/view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/crossrank.h"
#include "analysis/matrix.h"
#include "base/runsort.h"
#include "base/xalloc.h"
#include "model/trace.h"

/* Each side of a zoomed-to step, layer, gap or event: 2% of its length. */
#define MARGIN_PCT 2

/*
 * What one analysis needs on every recalc that analysis_build() does not
 * keep, built the first time its rank is shown:
 *   flops: the op FLOPs of its device (mfu_compute_with()): the
 *          analysis's when it kept them (analysis_opts.keep_flops), else own;
 *   ends:  the ends of its activities, ascending, a zero-length one counted
 *          as ending at ts + 1 (as the itree does), for kernels_in_view.
 */
struct view_cache {
	int built;
	const struct mfu_flops *flops;
	struct mfu_flops own;
	int64_t *ends;
	struct kernel_index kernels;    /* the top kernels of wide windows */
};

struct view_priv {
	struct view_cache *cache;       /* nan entries */
	struct mfu_opts mfu;
	int64_t ranks_loaded;
};

/* ---- time arithmetic ---- */

/* b - a as unsigned: exact for any a <= b. */
static inline uint64_t
udiff(int64_t a, int64_t b)
{
	return (uint64_t)b - (uint64_t)a;
}

/* The effective upper bound: the bounds are at least cols wide. */
static int64_t
bound_hi(const struct view *v)
{
	if (v->t1_ns < v->t0_ns || udiff(v->t0_ns, v->t1_ns) < (uint64_t)v->cols)
		return v->t0_ns + v->cols;
	return v->t1_ns;
}

static inline uint64_t
win_span(const struct view *v)
{
	return udiff(v->start_ns, v->end_ns);
}

static int64_t
col_ns_in(int64_t start, uint64_t span, int cols, int col)
{
	if (col < 0)
		col = 0;
	if (col > cols)
		col = cols;
	return (int64_t)((uint64_t)start +
	    (uint64_t)((unsigned __int128)(unsigned)col * span / (unsigned)cols));
}

int64_t
view_col_ns(const struct view *v, int col)
{
	return col_ns_in(v->start_ns, win_span(v), v->cols, col);
}

/*
 * Column c covers [start + floor(c S / C), start + floor((c + 1) S / C)),
 * S >= C so none is empty.  For d = ts - start, the column is the largest c
 * with floor(c S / C) <= d, i.e. c S < (d + 1) C: c = ((d + 1) C - 1) / S.
 */
int
view_ns_col(const struct view *v, int64_t ts_ns)
{
	uint64_t span = win_span(v), d;

	if (ts_ns < v->start_ns)
		return -1;
	if (ts_ns >= v->end_ns || span == 0)
		return v->cols;
	d = udiff(v->start_ns, ts_ns);
	return (int)(((unsigned __int128)(d + 1) * (unsigned)v->cols - 1) / span);
}

/* ---- the window ---- */

void
view_here(const struct view *v, struct view_place *p)
{
	memset(p, 0, sizeof *p);
	p->start_ns = v->start_ns;
	p->end_ns = v->end_ns;
	p->rank = v->rank;
	p->sel = v->sel;
	p->sel_index = v->sel_index;
	p->sel_gap = v->sel_gap;
	p->cursor = v->cursor;
}

/* The place shown goes on the places to go back to (view_history.h). */
static int
push_zoom(struct view *v)
{
	if (v->nzoom == VIEW_ZOOM_DEPTH) {
		memmove(&v->zooms[0], &v->zooms[1],
		    (VIEW_ZOOM_DEPTH - 1) * sizeof v->zooms[0]);
		v->nzoom--;
	}
	view_here(v, &v->zooms[v->nzoom]);
	return ++v->nzoom;
}

/*
 * Clamps [*s, *e) into the bounds: at least cols wide (widened around its
 * centre), at most the bounds (then the bounds), then shifted inside.
 */
static void
clamp_window(const struct view *v, int64_t *s, int64_t *e)
{
	int64_t lo = v->t0_ns, hi = bound_hi(v), start = *s, end = *e;
	uint64_t span, full = udiff(lo, hi);

	if (end < start) {
		int64_t x = start;

		start = end;
		end = x;
	}
	span = udiff(start, end);
	if (span < (uint64_t)v->cols) {
		int64_t mid = (int64_t)((uint64_t)start + span / 2);

		span = (uint64_t)v->cols;
		start = mid - v->cols / 2;
	}
	if (span >= full) {
		start = lo;
		span = full;
	} else {
		if (start < lo)
			start = lo;
		if (udiff(start, hi) < span || start > hi)
			start = (int64_t)((uint64_t)hi - span);
	}
	*s = start;
	*e = (int64_t)((uint64_t)start + span);
}

int
view_set_window(struct view *v, int64_t start_ns, int64_t end_ns, int push)
{
	clamp_window(v, &start_ns, &end_ns);
	if (start_ns == v->start_ns && end_ns == v->end_ns)
		return VIEW_NONE;
	if (push)
		push_zoom(v);
	v->start_ns = start_ns;
	v->end_ns = end_ns;
	return VIEW_RECALC;
}

/* Zooms to [a, b) with MARGIN_PCT each side, pushing the old window. */
int
view_zoom_to(struct view *v, int64_t a, int64_t b)
{
	int64_t m = (int64_t)(udiff(a, b) * MARGIN_PCT / 100);

	return view_set_window(v, a - m, b + m, 1);
}

void
view_list_move(const struct view *v, size_t *row, size_t *top, size_t n,
    long by)
{
	long page = v->page > 0 ? v->page : VIEW_PAGE_DEFAULT;
	long r = (long)*row + by;

	r = r >= (long)n ? (long)n - 1 : r;
	r = r < 0 ? 0 : r;
	*row = (size_t)r;
	if (*row < *top)
		*top = *row;
	if ((long)*row >= (long)*top + page)
		*top = *row - (size_t)page + 1;
}

/* The column of ts, clamped onto the screen. */
static int
col_on_screen(const struct view *v, int64_t ts)
{
	int c = view_ns_col(v, ts);

	return c < 0 ? 0 : c >= v->cols ? v->cols - 1 : c;
}

/*
 * Centres [a, b) keeping the zoom (no push: it is a pan), or fits it with
 * margins (pushed) when it is wider than the window.  The cursor goes to a.
 */
int
view_centre_on(struct view *v, int64_t a, int64_t b)
{
	uint64_t span = win_span(v);
	int64_t mid = (int64_t)((uint64_t)a + udiff(a, b) / 2);
	int ch;

	if (udiff(a, b) > span)
		ch = view_zoom_to(v, a, b);
	else
		ch = view_set_window(v, (int64_t)((uint64_t)mid - span / 2),
		    (int64_t)((uint64_t)mid - span / 2 + span), 0);
	v->cursor = col_on_screen(v, a);
	return ch | VIEW_REPAINT;
}

int
view_shows_only(const struct view *v, int64_t a, int64_t b)
{
	int64_t m = (int64_t)(udiff(a, b) * MARGIN_PCT / 100) + 1;

	return v->start_ns >= a - m && v->end_ns <= b + m;
}

int64_t
view_win_centre(const struct view *v)
{
	return (int64_t)((uint64_t)v->start_ns + win_span(v) / 2);
}

/* The time of the cursor: the first nanosecond of its column. */
int64_t
view_cursor_ns(const struct view *v)
{
	return view_col_ns(v, v->cursor);
}

/* The first GPU activity to the last of all analyses; 0 if there is none. */
static int
gpu_extent(const struct view *v, int64_t *a, int64_t *b)
{
	int any = 0;

	for (size_t i = 0; i < v->nan; i++) {
		const struct metrics *d = &v->an[i].dev;

		if (v->an[i].device < 0 || d->nacts == 0)
			continue;
		if (!any || d->first_ns < *a)
			*a = d->first_ns;
		if (!any || d->last_ns > *b)
			*b = d->last_ns;
		any = 1;
	}
	return any;
}

/* ---- set up ---- */

static struct view_priv *
priv(struct view *v)
{
	if (v->priv == NULL) {
		v->priv = xcalloc(1, sizeof *v->priv);
		v->priv->cache = xcalloc(v->nan ? v->nan : 1, sizeof *v->priv->cache);
	}
	return v->priv;
}

/* The number of distinct traces: the world size when nothing says better. */
static int64_t
count_traces(const struct analysis *an, size_t nan)
{
	int64_t n = 0;

	for (size_t i = 0; i < nan; i++) {
		size_t j = 0;

		while (j < i && an[j].t != an[i].t)
			j++;
		n += j == i;
	}
	return n;
}

void
view_init(struct view *v, const struct analysis *an, size_t nan,
    int64_t t0_ns, int64_t t1_ns, int cols)
{
	int64_t a = 0, b = 0;

	memset(v, 0, sizeof *v);
	v->an = an;
	v->nan = nan;
	v->t0_ns = t0_ns;
	v->t1_ns = t1_ns;
	v->cols = cols < 1 ? 1 : cols;
	v->cursor = v->cols / 2;
	v->start_ns = t0_ns;
	v->end_ns = bound_hi(v);
	priv(v)->ranks_loaded = count_traces(an, nan);
	v->xr_worst = -1;
	v->base_step = -1;
	v->match_ev = -1;
	v->cpu_auto = 1;
	v->mode = nan > VIEW_OVERVIEW_RANKS ? VIEW_MODE_OVERVIEW : VIEW_MODE_LANES;
	if (nan > 1) {
		v->xr = xmalloc(sizeof *v->xr);
		crossrank_build(v->xr, an, nan);
		v->mx = xmalloc(sizeof *v->mx);
		matrix_build(v->mx, v->xr);
	}
	if (gpu_extent(v, &a, &b))
		view_set_window(v, a, b, 0);
	view_measure(v);
}

void
view_set_opts(struct view *v, const struct analysis_opts *opts)
{
	struct view_priv *p = priv(v);

	p->mfu = opts->mfu;
	if (opts->ranks_loaded > 0)
		p->ranks_loaded = opts->ranks_loaded;
	view_measure(v);
}

void
view_set_crossrank(struct view *v, struct crossrank *x)
{
	if (v->mx != NULL) {
		matrix_free(v->mx);
		free(v->mx);
	}
	if (v->xr != NULL) {
		crossrank_free(v->xr);
		free(v->xr);
	}
	v->xr = x;
	v->mx = xmalloc(sizeof *v->mx);
	matrix_build(v->mx, x);
	view_push_mode(v, VIEW_MODE_MATRIX);
	v->rank = 0;
	v->lane_scroll = 0;
}

size_t
view_nranks(const struct view *v)
{
	if (v->nan > 0)
		return v->nan;
	return v->xr != NULL ? v->xr->nparts : 0;
}

void
view_release(struct view *v)
{
	struct view_priv *p;

	if (v == NULL)
		return;
	if (v->xr != NULL) {
		crossrank_free(v->xr);
		free(v->xr);
		v->xr = NULL;
	}
	if (v->mx != NULL) {
		matrix_free(v->mx);
		free(v->mx);
		v->mx = NULL;
	}
	if ((p = v->priv) == NULL)
		return;
	for (size_t i = 0; i < v->nan; i++) {
		mfu_flops_free(&p->cache[i].own);
		metrics_kernel_index_free(&p->cache[i].kernels);
		free(p->cache[i].ends);
	}
	free(p->cache);
	free(p);
	v->priv = NULL;
}

int
view_set_cursor(struct view *v, int col)
{
	v->cursor = col < 0 ? 0 : col >= v->cols ? v->cols - 1 : col;
	return VIEW_REPAINT;
}

int
view_select_event(struct view *v, uint32_t ev)
{
	v->sel = SEL_EVENT;
	v->sel_index = (long)ev;
	return VIEW_REPAINT;
}

/* ---- recalc ---- */

static int
cmp_i64(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;

	return (a > b) - (a < b);
}

static void
cache_build(struct view_cache *c, const struct analysis *a)
{
	const struct metrics *d = &a->dev;
	size_t *at;

	c->built = 1;
	if (a->device < 0)
		return;
	if (a->has_flops) {
		c->flops = &a->flops;
	} else {
		mfu_flops_build(&c->own, d);
		c->flops = &c->own;
	}
	metrics_kernel_index_build(&c->kernels, d);
	/*
	 * Gathered track by track (at[p]: where track p's ends go): work on one
	 * stream does not overlap, so each track's ends come sorted and
	 * runsort merges a few runs.
	 */
	at = xcalloc(d->ntracks + 1, sizeof *at);
	for (size_t i = 0; i < d->nacts; i++)
		at[metrics_track_pos(d, d->t->events[d->acts[i]].track) + 1]++;
	for (size_t p = 0; p < d->ntracks; p++)
		at[p + 1] += at[p];
	c->ends = xreallocarray(NULL, d->nacts ? d->nacts : 1, sizeof *c->ends);
	for (size_t i = 0; i < d->nacts; i++) {
		const struct event *e = &d->t->events[d->acts[i]];

		c->ends[at[metrics_track_pos(d, e->track)]++] =
		    e->ts_ns + (e->dur_ns > 0 ? e->dur_ns : 1);
	}
	free(at);
	runsort(c->ends, d->nacts, sizeof *c->ends, cmp_i64);
}

/* The number of ends[0..n) that are <= a. */
static size_t
ends_upto(const int64_t *ends, size_t n, int64_t a)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ends[mid] <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int
view_marked_range(const struct view *v, int64_t *a, int64_t *b)
{
	int64_t x, y;

	if ((v->marks & 3) != 3)
		return 0;
	x = v->mark_ns[0] < v->mark_ns[1] ? v->mark_ns[0] : v->mark_ns[1];
	y = v->mark_ns[0] < v->mark_ns[1] ? v->mark_ns[1] : v->mark_ns[0];
	*a = x;
	*b = y > x ? y : x + 1;
	return 1;
}

/*
 * The current rank's numbers for the window (m, mfu, top), or for the
 * marked range when both marks are set.
 */
static void
recalc_current(struct view *v)
{
	struct view_priv *p = priv(v);
	const struct analysis *a;
	struct view_cache *c;
	struct mfu_opts mo;
	int64_t ms = v->start_ns, me = v->end_ns;

	memset(&v->m, 0, sizeof v->m);
	memset(&v->mfu, 0, sizeof v->mfu);
	v->m.start_ns = v->start_ns;
	v->m.end_ns = v->end_ns;
	v->m.overlap_pct = -1;
	v->ntop = 0;
	v->kernels_in_view = 0;
	v->xr_worst = -1;
	if (v->xr != NULL) {
		/* O(C) over the matched collectives: a few thousand at most */
		for (size_t i = 0; i < v->xr->ncolls; i++) {
			const struct crossrank_coll *xc = &v->xr->colls[i];

			if (xc->first_start_ns < v->start_ns ||
			    xc->first_start_ns >= v->end_ns || xc->skew_ns <= 0)
				continue;
			if (v->xr_worst < 0 ||
			    xc->skew_ns > v->xr->colls[v->xr_worst].skew_ns)
				v->xr_worst = (long)i;
		}
	}
	if (v->nan == 0) {
		snprintf(v->mfu.reason, sizeof v->mfu.reason, "no trace");
		return;
	}
	a = view_current(v);
	if (a->device < 0) {
		snprintf(v->mfu.reason, sizeof v->mfu.reason, "no GPU activity");
		return;
	}
	c = &p->cache[v->rank];
	if (!c->built)
		cache_build(c, a);
	(void)view_marked_range(v, &ms, &me);
	metrics_window(&a->dev, ms, me, &v->m);
	v->ntop = metrics_top_kernels_indexed(&a->dev, &c->kernels, ms, me,
	    v->top, METRICS_TOP_K);
	/*
	 * Activities overlapping [s, e): those starting before e, less those
	 * ending at or before s (which all start before e).
	 */
	v->kernels_in_view = metrics_first_at(&a->dev, me) -
	    ends_upto(c->ends, a->dev.nacts, ms);
	mo = p->mfu;
	if (mo.world_size <= 0)
		mo.world_size = a->t->world_size > 0 ? a->t->world_size :
		    p->ranks_loaded;
	mfu_compute_with(&a->dev, c->flops, a->steps, a->nsteps, &mo, ms, me,
	    &v->mfu);
}

void
view_measure(struct view *v)
{
	recalc_current(v);
}

/* ---- zoom and pan ---- */

static int
zoom(struct view *v, int in)
{
	uint64_t span = win_span(v), full = udiff(v->t0_ns, bound_hi(v)), ns;
	int64_t t = view_cursor_ns(v), start;

	if (in) {
		ns = span / 2;
		if (ns < (uint64_t)v->cols)
			ns = (uint64_t)v->cols;
		if (ns == span) {
			snprintf(v->message, sizeof v->message,
			    "zoomed in as far as it goes (1 ns a column)");
			return VIEW_NONE;
		}
	} else {
		ns = span > full / 2 ? full : span * 2;
		if (ns == span) {
			snprintf(v->message, sizeof v->message,
			    "zoomed out as far as it goes");
			return VIEW_NONE;
		}
		/*
		 * Undo a zoom in exactly: when the window we zoomed in from
		 * holds this one, had the cursor's time at the cursor and is
		 * about twice as wide, go back to it rather than to an
		 * arithmetic double that may differ by a nanosecond.
		 */
		if (v->nzoom > 0) {
			const struct view_place *z = &v->zooms[v->nzoom - 1];
			uint64_t zs = udiff(z->start_ns, z->end_ns);

			if (z->start_ns <= v->start_ns && z->end_ns >= v->end_ns &&
			    zs > span && zs <= 2 * span + 1 &&
			    col_ns_in(z->start_ns, zs, v->cols, v->cursor) == t)
				return view_set_window(v, z->start_ns, z->end_ns, 1);
		}
	}
	start = (int64_t)((uint64_t)t - (uint64_t)((unsigned __int128)
	    (unsigned)v->cursor * ns / (unsigned)v->cols));
	return view_set_window(v, start, (int64_t)((uint64_t)start + ns), 1);
}

static int
pan(struct view *v, int dir)
{
	int64_t d = (int64_t)(win_span(v) / 8);
	int ch;

	if (d < 1)
		d = 1;
	ch = view_set_window(v, v->start_ns + dir * d, v->end_ns + dir * d, 0);
	if (ch == VIEW_NONE)
		snprintf(v->message, sizeof v->message, "%s",
		    dir < 0 ? "at the start of the trace" : "at the end of the trace");
	return ch;
}

static int
fit(struct view *v)
{
	int64_t a = 0, b = 0;

	if (!gpu_extent(v, &a, &b)) {
		a = v->t0_ns;
		b = bound_hi(v);
	}
	return view_set_window(v, a, b, 1);
}

/* ---- commands ---- */

static int
cycle_rank(struct view *v, int dir)
{
	size_t n = view_nranks(v);

	if (n <= 1) {
		snprintf(v->message, sizeof v->message, "only one rank");
		return VIEW_REPAINT;
	}
	v->rank = dir > 0 ? (v->rank + 1) % n : (v->rank + n - 1) % n;
	v->sel = SEL_NONE;
	v->sel_index = 0;
	return VIEW_RECALC;
}

int
view_do_common(struct view *v, enum view_cmd cmd)
{
	switch (cmd) {
	case CMD_PAN_LEFT:
		return pan(v, -1);
	case CMD_PAN_RIGHT:
		return pan(v, 1);
	case CMD_CURSOR_LEFT:
	case CMD_CURSOR_RIGHT:
		/* the window stays: at its edge the cursor does too */
		if (cmd == CMD_CURSOR_LEFT ? v->cursor == 0 : v->cursor >= v->cols - 1) {
			snprintf(v->message, sizeof v->message,
			    "the cursor is at the window's edge (pan with Left and Right)");
			return VIEW_REPAINT;
		}
		v->cursor += cmd == CMD_CURSOR_LEFT ? -1 : 1;
		return VIEW_REPAINT;
	case CMD_LANE_UP:
		if (v->lane_scroll == 0)
			return VIEW_NONE;
		v->lane_scroll--;
		return VIEW_REPAINT;
	case CMD_LANE_DOWN:
		v->lane_scroll++;
		return VIEW_REPAINT;
	case CMD_PAGE_UP:
		if (v->lane_scroll == 0)
			return VIEW_NONE;
		v->lane_scroll -= v->page > 0 ? v->page : VIEW_PAGE_DEFAULT;
		if (v->lane_scroll < 0)
			v->lane_scroll = 0;
		return VIEW_REPAINT;
	case CMD_PAGE_DOWN:
		v->lane_scroll += v->page > 0 ? v->page : VIEW_PAGE_DEFAULT;
		return VIEW_REPAINT;
	case CMD_ZOOM_IN:
		return zoom(v, 1);
	case CMD_ZOOM_OUT:
		return zoom(v, 0);
	case CMD_FIT:
		return fit(v);
	case CMD_FIT_RANK: {
		/* the rank's own default window: the panel equals its report */
		const struct analysis *an = v->nan > 0 ? view_current(v) : NULL;

		if (an == NULL || an->device < 0 || an->dev.last_ns <= an->dev.first_ns) {
			snprintf(v->message, sizeof v->message,
			    "no GPU activity on this rank");
			return VIEW_REPAINT;
		}
		return view_set_window(v, an->dev.first_ns, an->dev.last_ns, 1) |
		    VIEW_REPAINT;
	}
	case CMD_SEARCH:
		return VIEW_REPAINT;
	case CMD_NEXT_RANK:
		return cycle_rank(v, 1);
	case CMD_PREV_RANK:
		return cycle_rank(v, -1);
	case CMD_WORST_SKEW: {
		const struct crossrank_coll *xc;
		int ch;

		if (v->xr == NULL || v->xr->ntop == 0) {
			snprintf(v->message, sizeof v->message, v->xr == NULL ?
			    "one rank: no arrival skew to show" :
			    "no collective arrived with a skew");
			return VIEW_REPAINT;
		}
		if (v->xr_next >= (int)v->xr->ntop)
			v->xr_next = 0;
		xc = &v->xr->colls[v->xr->top[v->xr_next]];
		/* the whole collective on every rank, from first arrival to last end */
		ch = view_zoom_to(v, xc->first_start_ns, xc->last_end_ns > xc->first_start_ns ?
		    xc->last_end_ns : xc->first_start_ns + 1);
		v->cursor = col_on_screen(v, xc->last_start_ns);
		snprintf(v->message, sizeof v->message,
		    "worst skew #%d of %zu: %.3f ms, rank %lld arrived last",
		    v->xr_next + 1, v->xr->ntop, (double)xc->skew_ns / 1e6,
		    xc->last >= 0 ? (long long)v->xr->parts[xc->last].rank : -1LL);
		v->xr_next++;
		return ch | VIEW_REPAINT;
	}
	case CMD_TOGGLE_CPU:
		v->show_cpu = !v->show_cpu;
		return VIEW_REPAINT;
	case CMD_PANEL:
		v->panel = (enum view_panel)((v->panel + 1) % PANEL_COUNT);
		return VIEW_REPAINT;
	case CMD_HELP:
		v->help = !v->help;
		return VIEW_REPAINT;
	case CMD_QUIT:
		return VIEW_QUIT;
	default:        /* the modes' and view_nav's: view_do() */
		break;
	}
	return VIEW_NONE;
}

/* ---- the mode stack ---- */

void
view_push_mode(struct view *v, enum view_mode m)
{
	if (v->mode == m)
		return;
	v->under[v->nunder++] = v->mode;
	v->mode = m;
}

void
view_pop_mode(struct view *v)
{
	if (v->nunder > 0)
		v->mode = v->under[--v->nunder];
}

void
view_reset_mode(struct view *v, enum view_mode m)
{
	v->mode = m;
	v->nunder = 0;
}

int
view_mode_on(const struct view *v, enum view_mode m)
{
	if (v->mode == m)
		return 1;
	for (int i = 0; i < v->nunder; i++)
		if (v->under[i] == m)
			return 1;
	return 0;
}

enum view_mode
view_base_mode(const struct view *v)
{
	return v->nunder > 0 ? v->under[0] : v->mode;
}

void
view_set_base_mode(struct view *v, enum view_mode m)
{
	if (v->nunder > 0)
		v->under[0] = m;
	else
		v->mode = m;
}
