/*
 * render_ruler — the three rows on top: the title, the step strip and the
 * time ruler; see render_int.h.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/crossrank.h"
#include "analysis/steps.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "model/trace.h"
#include "render/grid.h"
#include "render/render.h"
#include "render/render_int.h"
#include "view/view.h"

/* ---- title, steps, ruler ----------------------------------------------- */

static void ruler_label(char *buf, size_t n, int64_t rel, int64_t unit, int dec,
    const char *uname);

/*
 * A window edge relative to t0: units_format()'s 4 digits ("+224 ms"),
 * unless the window is too narrow for them to tell its edges apart; then
 * as many decimals as its span needs ("+224.00001 ms").
 */
static char *
fmt_pos(char *buf, size_t n, const struct view *v, int64_t ts_ns)
{
	static const struct {
		int64_t ns;
		const char *name;
	} units[] = {
		{ 1000000000, " s" }, { 1000000, " ms" }, { 1000, " us" },
	};
	int64_t rel = ts_ns - v->t0_ns, span = v->end_ns - v->start_ns;
	int64_t mag = rel < 0 ? -rel : rel;

	if (span <= 0 || span >= mag / 1000)
		return render_fmt_rel(buf, n, v, ts_ns);
	for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
		int dec = 0;
		int64_t q = units[u].ns;

		if (mag < units[u].ns)
			continue;
		/* decimals down to a tenth of the span */
		while (dec < 9 && q > span / 10 && q > 1) {
			q /= 10;
			dec++;
		}
		ruler_label(buf, n, rel, units[u].ns, dec, units[u].name);
		return buf;
	}
	return render_fmt_rel(buf, n, v, ts_ns);
}

void
render_draw_title(struct rctx *c, const struct render_opts *o)
{
	const struct view *v = c->v;
	char files[512], win[256], rank[96], a[48], b[48], s[48], badge[48];
	int w = c->g->w, fw, x, ncut = 0, nwarn = 0, bw = 0;

	grid_fill(c->g, 0, 0, w, 1, ' ', ROLE_TITLE);
	if (o->title != NULL)
		snprintf(files, sizeof files, "%s", o->title);
	else if (v->nan > 0)
		snprintf(files, sizeof files, "%s", v->an[0].t->path);
	else
		files[0] = '\0';
	if (v->nan == 0 && v->xr != NULL)
		snprintf(win, sizeof win, "%zu ranks, %zu steps, %zu collectives matched",
		    v->xr->nparts, v->xr->nsteps, v->xr->ncolls);
	else
		snprintf(win, sizeof win, "window %s .. %s (%s)",
		    fmt_pos(a, sizeof a, v, v->start_ns),
		    fmt_pos(b, sizeof b, v, v->end_ns),
		    units_format(s, sizeof s, v->end_ns - v->start_ns));
	rank[0] = '\0';
	if (v->nan > 0) {
		const struct analysis *an = view_current(v);

		if (an->device >= 0)
			snprintf(rank, sizeof rank, "rank %lld dev %d",
			    (long long)an->t->rank, (int)an->device);
		else
			snprintf(rank, sizeof rank, "rank %lld", (long long)an->t->rank);
		if (v->nan > 1) {
			size_t l = strlen(rank);

			snprintf(rank + l, sizeof rank - l, " (%zu/%zu)", v->rank + 1,
			    v->nan);
		}
	}
	/* a badge when the loaded traces had problems (the panel lists them) */
	badge[0] = '\0';
	for (size_t i = 0; i < v->nan; i++)
		if (i == 0 || v->an[i].t != v->an[i - 1].t) {
			ncut += trace_cut_short(v->an[i].t);
			nwarn += trace_warning_kinds(v->an[i].t) > 0;
		}
	if (v->nan > 0 && trace_cut_short(view_current(v)->t))
		snprintf(badge, sizeof badge, "%s", c->ascii ? "! cut short" :
		    "\xe2\x9a\xa0 cut short");
	else if (ncut > 0)
		snprintf(badge, sizeof badge, "%s %d cut short", c->ascii ? "!" :
		    "\xe2\x9a\xa0", ncut);
	else if (nwarn > 0)
		snprintf(badge, sizeof badge, "%s load warnings", c->ascii ? "!" :
		    "\xe2\x9a\xa0");
	if (badge[0] != '\0') {
		bw = render_text_cols(badge) + 1;
		if (bw < w)
			render_put_text(c, w - bw, 0, bw, ncut > 0 ? ROLE_BAD : ROLE_TITLE,
			    badge);
		else
			bw = 0;
		w -= bw;
	}
	/* "gantty  FILES  WINDOW  RANK": the files give way first */
	x = render_put_text(c, 0, 0, w, ROLE_TITLE, "gantty  ");
	fw = w - x - 2 - render_text_cols(win) - (rank[0] ? 2 + render_text_cols(rank) : 0);
	if (fw > render_text_cols(files))
		fw = render_text_cols(files);
	if (fw >= 4) {
		x += render_put_fit(c, x, 0, fw, ROLE_TITLE, files);
		x += 2;
	}
	x += render_put_fit(c, x, 0, w - x, ROLE_TITLE, win);
	if (rank[0] && x + 2 + render_text_cols(rank) <= w)
		render_put_text(c, x + 2, 0, w - x - 2, ROLE_TITLE, rank);
}

/* The time range a step is drawn and selected by: its GPU extent, else CPU. */
void
render_step_range(const struct step *s, int64_t *a, int64_t *b)
{
	*a = s->has_gpu ? s->gpu_start_ns : s->start_ns;
	*b = s->has_gpu ? s->gpu_end_ns : s->end_ns;
}

void
render_draw_steps(struct rctx *c)
{
	const struct view *v = c->v;
	const struct analysis *an;
	int64_t max = 0, min = INT64_MAX;
	long slowest = 0;
	int cells, x, y = 1;
	long first_in = -1, last_in = -1;
	size_t nout = 0;
	int cut;
	char text[256], d[48];

	render_draw_label(c, y, ROLE_LABEL, "steps");
	if (v->nan == 0)
		return;
	an = view_current(v);
	if (an->nsteps == 0) {
		render_put_text(c, c->x0, y, c->ncols, ROLE_PANEL, "no ProfilerStep annotations");
		return;
	}
	for (size_t i = 0; i < an->nsteps; i++) {
		int64_t a, b;

		if (an->steps[i].end_ns - an->steps[i].start_ns > max) {
			max = an->steps[i].end_ns - an->steps[i].start_ns;
			slowest = (long)i;
		}
		if (an->steps[i].end_ns - an->steps[i].start_ns < min)
			min = an->steps[i].end_ns - an->steps[i].start_ns;
		render_step_range(&an->steps[i], &a, &b);
		if (a < v->end_ns && b > v->start_ns) {
			if (first_in < 0)
				first_in = (long)i;
			last_in = (long)i;
		}
		nout += an->steps[i].outlier != 0;
	}
	cut = trace_events_lost(an->t);
	cells = an->nsteps < (size_t)c->ncols ? (int)an->nsteps : c->ncols;
	for (int k = 0; k < cells; k++) {
		size_t s0 = (size_t)k * an->nsteps / (size_t)cells;
		size_t s1 = (size_t)(k + 1) * an->nsteps / (size_t)cells;
		int64_t t = 0;
		int outlier = 0, inview = 0, sel = 0, base = 0, lvl;
		enum role role;
		uint32_t ch;

		for (size_t i = s0; i < s1; i++) {
			int64_t dur = an->steps[i].end_ns - an->steps[i].start_ns;

			if (dur > t)
				t = dur;
			outlier |= an->steps[i].outlier;
			inview |= (long)i >= first_in && (long)i <= last_in;
			sel |= v->sel == SEL_STEP && v->sel_index == (long)i;
			/* b's baseline step, where it is one of this rank's */
			base |= !v->compare && v->base_step == (long)i &&
			    v->base_rank == v->rank;
		}
		/*
		 * Scaled to the steps' spread, the shortest 1, the longest full,
		 * so that the slowest stands out (all alike: all full).  A step
		 * may last up to 2^63 ns: the product in 128 bits.
		 */
		lvl = max > min ? 1 + (int)(((__int128)(t - min) *
		    (c->gl->step_levels - 1) + (max - min) - 1) / (max - min)) :
		    c->gl->step_levels;
		if (lvl < 1)
			lvl = 1;
		if (lvl > c->gl->step_levels)
			lvl = c->gl->step_levels;
		ch = c->gl->step[lvl - 1];
		if (outlier && (c->ascii || c->mono))
			ch = c->gl->outlier;
		role = sel ? ROLE_SELECTED : outlier ? ROLE_OUTLIER :
		    inview ? ROLE_STEP : ROLE_DEFAULT;
		if (base)
			ch = 'A';       /* the baseline, in every glyph set */
		if (cut && s1 == an->nsteps && !sel) {
			ch = '?';       /* the file was cut short: it may be incomplete */
			role = ROLE_BAD;
		}
		grid_put(c->g, c->x0 + k, y, ch, role);
	}

	/* then what the strip means: the selected step, else a summary */
	x = c->x0 + cells + 2;
	if (v->sel == SEL_STEP && v->sel_index >= 0 &&
	    (size_t)v->sel_index < an->nsteps) {
		const struct step *s = &an->steps[v->sel_index];
		struct pen p = { c, x, y, c->g->w };

		render_pen_put(&p, ROLE_VALUE, "%s", trace_str(an->t, an->t->events[s->event].name));
		render_pen_put(&p, ROLE_PANEL, "  ");
		render_pen_dur(&p, ROLE_VALUE, s->end_ns - s->start_ns);
		if (s->outlier)
			render_pen_put(&p, ROLE_BAD, "  outlier (z %.1f)", s->z);
		if (cut && (size_t)v->sel_index + 1 == an->nsteps)
			render_pen_put(&p, ROLE_BAD, "  may be incomplete (file cut short)");
		return;
	}
	{
		const struct step *med = &an->steps[an->median_step];

		snprintf(text, sizeof text, "%zu step%s, median %s (#%lld)", an->nsteps,
		    an->nsteps == 1 ? "" : "s",
		    units_format(d, sizeof d, med->end_ns - med->start_ns),
		    (long long)med->number);
	}
	{
		/*
		 * The summary's parts, shown whole or not at all, as many as fit:
		 * first the count and median, then the range and the slowest
		 * step, an incomplete last step, the outliers, and which steps
		 * are in view.
		 */
		char inc[64] = "", out[96] = "", view[64] = "", slow[96] = "";
		int room = c->g->w - x, left;
		struct pen p = { c, x, y, c->g->w };

		if (x + 8 > c->g->w)
			return;
		if (cut)
			snprintf(inc, sizeof inc, ", #%lld may be incomplete",
			    (long long)an->steps[an->nsteps - 1].number);
		if (nout > 0) {
			size_t l = (size_t)snprintf(out, sizeof out, ", %zu outlier%s", nout,
			    nout > 1 ? "s" : "");

			for (size_t i = 0, shown = 0; i < an->nsteps && shown < 3 &&
			    l + 24 < sizeof out; i++)
				if (an->steps[i].outlier) {
					l += (size_t)snprintf(out + l, sizeof out - l, " #%lld",
					    (long long)an->steps[i].number);
					shown++;
				}
		}
		if (an->nsteps > 1 && max > min) {
			char d0[48], d1[48];

			snprintf(slow, sizeof slow, ", %s..%s, slowest #%lld (O)",
			    units_format(d0, sizeof d0, min), units_format(d1, sizeof d1, max),
			    (long long)an->steps[slowest].number);
		}
		if (first_in >= 0) {
			int64_t n0 = an->steps[first_in].number, n1 = an->steps[last_in].number;

			if (n0 == n1)
				snprintf(view, sizeof view, ", in view #%lld", (long long)n0);
			else
				snprintf(view, sizeof view, ", in view #%lld..#%lld",
				    (long long)n0, (long long)n1);
		}
		left = room - render_text_cols(text);
		if (left < 0)
			return;
		if (render_text_cols(slow) > left)
			slow[0] = '\0';
		left -= render_text_cols(slow);
		if (render_text_cols(inc) > left)
			inc[0] = '\0';
		left -= render_text_cols(inc);
		if (render_text_cols(out) > left)
			out[0] = '\0';
		left -= render_text_cols(out);
		if (render_text_cols(view) > left)
			view[0] = '\0';
		render_pen_put(&p, ROLE_PANEL, "%s%s%s", text, slow, view);
		if (inc[0] != '\0') {
			render_pen_put(&p, ROLE_PANEL, ",");
			render_pen_put(&p, ROLE_BAD, "%s", inc + 1);
		}
		if (out[0] != '\0') {
			render_pen_put(&p, ROLE_PANEL, ",");
			render_pen_put(&p, ROLE_BAD, "%s", out + 1);
		}
	}
}

/* Formats a ruler label: rel_ns in unit (ns per unit), decimals digits. */
static void
ruler_label(char *buf, size_t n, int64_t rel, int64_t unit, int dec,
    const char *uname)
{
	uint64_t a = rel < 0 ? (uint64_t)0 - (uint64_t)rel : (uint64_t)rel;
	uint64_t ip = a / (uint64_t)unit, frac = a % (uint64_t)unit, div = (uint64_t)unit;

	if (dec < 0 || dec > 9)
		dec = dec < 0 ? 0 : 9;
	for (int i = 0; i < dec; i++)
		div /= 10;
	if (dec > 0)
		snprintf(buf, n, "%s%llu.%0*llu%s", rel < 0 ? "-" : "+",
		    (unsigned long long)ip, dec,
		    (unsigned long long)(div ? frac / div : 0), uname);
	else
		snprintf(buf, n, "%s%llu%s", rel < 0 ? "-" : "+",
		    (unsigned long long)ip, uname);
}

void
render_draw_ruler(struct rctx *c)
{
	static const struct {
		int64_t ns;
		const char *name;
	} units[] = {
		{ 1000000000, "s" }, { 1000000, "ms" }, { 1000, "us" }, { 1, "ns" },
	};
	const struct view *v = c->v;
	int y = 2;
	int64_t span = v->end_ns - v->start_ns, step = 0, unit = 1, minor = 0;
	int64_t rs = v->start_ns - v->t0_ns, re = v->end_ns - v->t0_ns;
	const char *uname = "ns";
	int dec = 0;
	char d[48], lab[64];

	snprintf(lab, sizeof lab, "%s/col",
	    render_fmt_compact(d, sizeof d, c->ncols > 0 ? span / c->ncols : span));
	render_put_fit(c, 0, y, LABEL_COLS, ROLE_RULER, lab);
	if (span <= 0)
		return;

	/* the unit of the labels: that of the largest position shown */
	{
		int64_t big = re > -rs ? re : -rs;

		for (size_t u = 0; u < sizeof units / sizeof units[0]; u++)
			if (big >= units[u].ns || units[u].ns == 1) {
				unit = units[u].ns;
				uname = units[u].name;
				break;
			}
	}
	/* the smallest round step (1, 2, 5 x 10^k) whose labels do not collide */
	for (int64_t p = 1; p > 0 && p <= INT64_MAX / 10 && step == 0; p *= 10) {
		static const int mult[] = { 1, 2, 5 };

		for (int m = 0; m < 3 && step == 0; m++) {
			int64_t st = p * mult[m], q;
			double cols = (double)st * c->ncols / (double)span;
			int dd = 0, wl;

			if (cols < 3)
				continue;
			for (q = unit; dd < 9 && (st % q) != 0; dd++)
				q /= 10;
			ruler_label(lab, sizeof lab, re, unit, dd, uname);
			wl = render_text_cols(lab);
			if (cols >= wl + 2 || (double)st >= (double)span) {
				step = st;
				dec = dd;
				minor = mult[m] == 2 ? st / 4 : st / 5;
			}
		}
	}
	if (step <= 0)
		return;

	{
		int64_t k0 = rs >= 0 ? (rs + step - 1) / step : -((-rs) / step);

		int64_t rel;

		/* k * step may pass int64 before it passes re: stop there */
		for (int64_t k = k0; !__builtin_mul_overflow(k, step, &rel) &&
		    rel < re; k++) {
			int col = view_ns_col(v, v->t0_ns + rel);

			if (col < 0 || col >= c->ncols)
				continue;
			grid_put(c->g, c->x0 + col, y, c->gl->tick, ROLE_RULER);
			ruler_label(lab, sizeof lab, rel, unit, dec, uname);
			if (col + 1 + render_text_cols(lab) <= c->ncols)
				render_put_text(c, c->x0 + col + 1, y, render_text_cols(lab), ROLE_RULER, lab);
		}
	}
	/* minor ticks where they stand 4 columns apart or more, between blanks */
	if (minor > 0 && (double)minor * c->ncols / (double)span >= 4) {
		int64_t k0 = rs >= 0 ? (rs + minor - 1) / minor : -((-rs) / minor);

		for (int64_t k = k0; k * minor < re; k++) {
			int x = c->x0 + render_col_of(c, v->t0_ns + k * minor);
			struct cell *l = grid_at(c->g, x - 1, y), *m = grid_at(c->g, x, y);
			struct cell *r = grid_at(c->g, x + 1, y);

			if (m != NULL && m->ch == ' ' && (l == NULL || l->ch == ' ') &&
			    (r == NULL || r->ch == ' ' || x + 1 >= c->x0 + c->ncols))
				grid_put(c->g, x, y, c->gl->minor, ROLE_RULER);
		}
	}

	/* the selection's range, then the cursor */
	if (c->sel_end > c->sel_start && c->sel_start < v->end_ns &&
	    c->sel_end > v->start_ns) {
		int c0 = render_col_of(c, c->sel_start), c1 = render_col_of(c, c->sel_end - 1);

		for (int col = c0; col <= c1; col++) {
			struct cell *cl = grid_at(c->g, c->x0 + col, y);

			if (cl != NULL) {
				cl->role = ROLE_SELECTED;
				if (cl->ch == ' ' || cl->ch == c->gl->minor)
					cl->ch = c->gl->hrule;
			}
		}
	}
	/* the marks (< >): each a bar, the range between them shaded */
	for (int k = 0; k < 2; k++) {
		int64_t ma, mb;
		int col;

		if (k == 0 && view_marked_range(v, &ma, &mb) && ma < v->end_ns &&
		    mb > v->start_ns)
			for (col = render_col_of(c, ma); col <= render_col_of(c, mb - 1); col++) {
				struct cell *cl = grid_at(c->g, c->x0 + col, y);

				if (cl != NULL)
					cl->role = ROLE_MARK;
			}
		if (!(v->marks & (1 << k)) || v->mark_ns[k] < v->start_ns ||
		    v->mark_ns[k] >= v->end_ns)
			continue;
		col = render_col_of(c, v->mark_ns[k]);
		grid_put(c->g, c->x0 + col, y, k == 0 ? '<' : '>', ROLE_MARK);
	}
	if (v->cursor >= 0 && v->cursor < c->ncols) {
		struct cell *cl = grid_at(c->g, c->x0 + v->cursor, y);

		if (cl != NULL) {
			if (cl->ch == ' ' || cl->ch == c->gl->minor ||
			    (cl->ch == c->gl->hrule && cl->role == ROLE_SELECTED))
				cl->ch = c->gl->cursor;
			cl->role = ROLE_CURSOR;
			cl->reverse = 1;
		}
	}
}
