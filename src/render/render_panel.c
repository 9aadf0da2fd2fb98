/*
 * render_panel — the panel under the lanes: its tabs, the window's metrics,
 * the top kernels, the selection; see render_int.h.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/compare.h"
#include "analysis/bandwidth.h"
#include "analysis/crossrank.h"
#include "analysis/findings.h"
#include "analysis/launch.h"
#include "analysis/layers.h"
#include "analysis/metrics.h"
#include "analysis/steps.h"
#include "analysis/whatif.h"
#include "base/units.h"
#include "model/trace.h"
#include "render/grid.h"
#include "render/render.h"
#include "render/render_diag.h"
#include "render/render_int.h"
#include "view/view.h"
#include "view/view_lanes.h"
#include "view/view_select.h"
#include "load/source.h"
#include "view/view_compare.h"
#include "view/view_diag.h"
#include "view/view_whatif.h"

/* ---- the panel --------------------------------------------------------- */

/* Writes a one-line summary of the selection; returns 0 if there is none. */
static int
selection_summary(struct rctx *c, struct pen *p)
{
	const struct view *v = c->v;
	const struct analysis *an;
	char a[48];

	if (v->nan == 0 || v->sel == SEL_NONE)
		return 0;
	an = view_current(v);
	switch (v->sel) {
	case SEL_STEP: {
		const struct step *s;
		struct window_metrics m;
		int64_t sa, sb;

		if (v->sel_index < 0 || (size_t)v->sel_index >= an->nsteps)
			return 0;
		s = &an->steps[v->sel_index];
		render_step_range(s, &sa, &sb);
		metrics_window(&an->dev, sa, sb, &m);
		render_pen_put(p, ROLE_PANEL, "selected ");
		render_pen_put(p, ROLE_VALUE, "step %lld", (long long)s->number);
		render_pen_put(p, ROLE_PANEL, ": ");
		render_pen_dur(p, ROLE_VALUE, s->end_ns - s->start_ns);
		render_pen_put(p, ROLE_PANEL, ", exposed ");
		render_pen_dur(p, render_bad_if(render_pct(m.exposed_comm_ns, sb - sa) >= 5), m.exposed_comm_ns);
		render_pen_put(p, ROLE_PANEL, ", idle ");
		render_pen_dur(p, render_bad_if(render_pct(m.idle_ns, sb - sa) >= 5), m.idle_ns);
		if (s->outlier)
			render_pen_put(p, ROLE_BAD, ", outlier z %.1f", s->z);
		return 1;
	}
	case SEL_LAYER: {
		const struct layer *l;

		if (v->sel_index < 0 || (size_t)v->sel_index >= an->nlayers)
			return 0;
		l = &an->layers[v->sel_index];
		render_pen_put(p, ROLE_PANEL, "selected ");
		render_pen_put(p, ROLE_VALUE, "%s %s", trace_str(an->t, l->name),
		    layers_phase_name(l->phase));
		if (l->step >= 0)
			render_pen_put(p, ROLE_PANEL, " (step %lld)", (long long)l->step);
		render_pen_put(p, ROLE_PANEL, ": comm ");
		render_pen_dur(p, ROLE_VALUE, l->comm_ns);
		render_pen_put(p, ROLE_PANEL, ", exposed ");
		render_pen_dur(p, render_bad_if(l->exposed_comm_ns > 0), l->exposed_comm_ns);
		render_pen_put(p, ROLE_PANEL, ", own exposed ");
		render_pen_dur(p, render_bad_if(l->own_exposed_comm_ns > 0), l->own_exposed_comm_ns);
		return 1;
	}
	case SEL_GAP:
		render_pen_put(p, ROLE_PANEL, "selected gap at %s: ",
		    render_fmt_rel(a, sizeof a, v, v->sel_gap.start_ns));
		render_pen_dur(p, ROLE_BAD, v->sel_gap.dur_ns);
		render_pen_put(p, ROLE_PANEL, " idle");
		return 1;
	case SEL_EVENT: {
		const struct event *e;
		char sbuf[256], tbuf[64];
		const char *name;

		if (v->sel_index < 0 || (size_t)v->sel_index >= an->t->nevents)
			return 0;
		e = &an->t->events[v->sel_index];
		name = render_display_name(an->t, e, sbuf, sizeof sbuf);
		render_pen_put(p, ROLE_PANEL, "selected ");
		render_pen_put(p, ROLE_VALUE, "%s", name);
		render_pen_put(p, ROLE_PANEL, ": ");
		if (event_is_activity(e))
			render_pen_put(p, ROLE_PANEL, "%s, ", trace_class_name((enum event_class)e->cls));
		render_pen_dur(p, ROLE_VALUE, e->dur_ns);
		render_pen_put(p, ROLE_PANEL, " at %s on %s", render_fmt_rel(a, sizeof a, v, e->ts_ns),
		    render_track_name(an->t, &an->t->tracks[e->track], tbuf, sizeof tbuf));
		if (v->match_ev == v->sel_index && v->query[0] != '\0')
			render_pen_put(p, ROLE_MATCH, "  /%s: match %llu of %llu",
			    v->query, (unsigned long long)v->match_k,
			    (unsigned long long)v->match_n);
		if (event_is_activity(e)) {
			/* the op that launched it, the details one Tab away */
			struct launch_context lc;

			launch_context(an->t, an->layers, an->nlayers,
			    (uint32_t)v->sel_index, &lc);
			if (lc.op != EV_NONE)
				render_pen_put(p, ROLE_PANEL, ", launched in %s",
				    render_display_name(an->t, &an->t->events[lc.op],
				    sbuf, sizeof sbuf));
		}
		if (v->panel != PANEL_SELECTION)
			render_pen_put(p, ROLE_PANEL, "  (%s: its details)",
			    v->panel == PANEL_WINDOW ? "Tab Tab" : "Tab");
		return 1;
	}
	case SEL_FINDING: {
		char fbuf[512];

		render_diag_finding_text(fbuf, sizeof fbuf, v);
		render_pen_put(p, ROLE_PANEL, "%s", fbuf);
		return 1;
	}
	default:
		return 0;
	}
}

enum wline {
	WL_WARNINGS, WL_WHICH, WL_EXPOSED, WL_BUSY, WL_GAPS, WL_IDLE, WL_MFU,
	WL_BANDWIDTH, WL_LEGEND, WL_SEL, WL_STEP_WHY, WL_RANKS, WL_MEMORY,
	WL_COMPARE, WL_UNLIKE, WL_BASELINE, WL_MARKS, WL_COUNTERS, WL_PATH,
	WL_WHATIF, WL_COUNT
};

/* "critical path #12 612.3 ms: compute 401 ms 66%, comm ..., replay 612.1 ms" */
static void
path_line(struct rctx *c, struct pen *p)
{
	const struct view *v = c->v;
	long s;
	const struct dg_path *path = view_whatif_path(v, &s);
	struct whatif_step ws;
	const char *sc;
	size_t k, n;

	if (path == NULL) {
		render_pen_put(p, ROLE_LABEL, "critical path");
		render_pen_put(p, ROLE_PANEL, ": no step in view (] selects one)");
		return;
	}
	render_pen_put(p, ROLE_LABEL, "critical path");
	render_pen_put(p, ROLE_PANEL, " #%lld ",
	    (long long)view_current(v)->steps[s].number);
	render_pen_dur(p, ROLE_VALUE, path->ns);
	render_pen_put(p, ROLE_PANEL, ":");
	for (int k2 = 0; k2 < DG_PARTS; k2++) {
		if (path->part_ns[k2] == 0)
			continue;
		render_pen_put(p, render_path_role(k2), " %s ",
		    depgraph_part_name((enum dg_part)k2));
		render_pen_dur(p, ROLE_VALUE, path->part_ns[k2]);
		render_pen_put(p, ROLE_PANEL, " %.0f%%", path->ns > 0 ?
		    100.0 * (double)path->part_ns[k2] / (double)path->ns : 0.0);
	}
	if (view_whatif_current(v, &ws, &sc, &k, &n) == 0) {
		render_pen_put(p, ROLE_PANEL, "; replayed ");
		render_pen_dur(p, ROLE_VALUE, ws.replayed_ns);
	}
}

/* "what-if 1/4 comm=2: -7.6 ms (-9.0%) (i: next)" */
static void
whatif_line(struct rctx *c, struct pen *p)
{
	struct whatif_step ws;
	const char *sc;
	size_t k, n;
	char line[160];

	if (view_whatif_current(c->v, &ws, &sc, &k, &n) != 0)
		return;
	render_pen_put(p, ROLE_LABEL, "what-if");
	render_pen_put(p, ROLE_PANEL, " %zu/%zu ", k + 1, n);
	render_pen_put(p, ws.predicted_ns < ws.replayed_ns ? ROLE_VALUE : ROLE_PANEL,
	    "%s", whatif_gain_format(line, sizeof line, sc, &ws));
	render_pen_put(p, ROLE_PANEL, " against the replay (i: next)");
}

/* "+1.2 ms" / "-40 us" / "+0" */
static void
pen_delta(struct pen *p, enum role role, int64_t d)
{
	char b[48];

	render_pen_put(p, role, "%s%s", d > 0 ? "+" : d < 0 ? "-" : "+",
	    units_format(b, sizeof b, d < 0 ? -d : d));
}

/*
 * The selected step against the median step (steps_median()), over their
 * CPU spans as the outlier finding measures: its time, compute, comm,
 * exposed comm and idle, and the kernel whose time changed most.
 */
static void
step_why(struct rctx *c, struct pen *p)
{
	const struct view *v = c->v;
	const struct analysis *an = view_current(v);
	const struct step *s = &an->steps[v->sel_index];
	const struct step *m = &an->steps[an->median_step];
	struct window_metrics ws, wm;
	struct kernel_total ts[METRICS_TOP_K], tm[METRICS_TOP_K];
	size_t ns, nm;
	int64_t best = 0;
	uint32_t best_name = 0;
	char nbuf[512];

	if (s == m) {
		render_pen_put(p, ROLE_PANEL, "this is the median step");
		return;
	}
	metrics_window(&an->dev, s->start_ns, s->end_ns, &ws);
	metrics_window(&an->dev, m->start_ns, m->end_ns, &wm);
	render_pen_put(p, ROLE_PANEL, "vs median step %lld: ", (long long)m->number);
	pen_delta(p, render_bad_if((s->end_ns - s->start_ns) > 1.1 * (double)(m->end_ns - m->start_ns)),
	    (s->end_ns - s->start_ns) - (m->end_ns - m->start_ns));
	render_pen_put(p, ROLE_PANEL, "; compute ");
	pen_delta(p, ROLE_VALUE, ws.compute_ns - wm.compute_ns);
	render_pen_put(p, ROLE_PANEL, ", comm ");
	pen_delta(p, ROLE_VALUE, ws.comm_ns - wm.comm_ns);
	render_pen_put(p, ROLE_PANEL, ", exposed ");
	pen_delta(p, render_bad_if(ws.exposed_comm_ns > wm.exposed_comm_ns),
	    ws.exposed_comm_ns - wm.exposed_comm_ns);
	render_pen_put(p, ROLE_PANEL, ", idle ");
	pen_delta(p, render_bad_if(ws.idle_ns > wm.idle_ns), ws.idle_ns - wm.idle_ns);
	/* the kernel whose time changed most, over both steps' top kernels */
	ns = metrics_top_kernels(&an->dev, s->start_ns, s->end_ns, ts, METRICS_TOP_K);
	nm = metrics_top_kernels(&an->dev, m->start_ns, m->end_ns, tm, METRICS_TOP_K);
	for (size_t i = 0; i < ns + nm; i++) {
		uint32_t name = i < ns ? ts[i].name : tm[i - ns].name;
		int64_t a = 0, b = 0;

		for (size_t k = 0; k < ns; k++)
			if (ts[k].name == name)
				a += ts[k].total_ns;
		for (size_t k = 0; k < nm; k++)
			if (tm[k].name == name)
				b += tm[k].total_ns;
		if ((a - b < 0 ? b - a : a - b) > (best < 0 ? -best : best)) {
			best = a - b;
			best_name = name;
		}
	}
	if (best != 0) {
		render_pen_put(p, ROLE_PANEL, "; most: %s ", render_medium_kernel_name(
		    trace_str(an->t, best_name), nbuf, sizeof nbuf));
		pen_delta(p, ROLE_VALUE, best);
	}
}

/*
 * --compare: what makes A and B unlike (GPU model, world size, step
 * count) into buf, "" when nothing does.
 */
static void
unlike_text(const struct view *v, char *buf, size_t n)
{
	buf[0] = '\0';
	if (v->compare && v->nan >= 2)
		compare_unlike(&v->an[0], &v->an[1], buf, n);
}

/* The view window's collective bandwidth rows (bandwidth.h); 0 if none. */
static size_t
window_bandwidth(const struct view *v, struct bw_row *rows)
{
	const struct analysis *an;

	if (v->nan == 0 || (an = view_current(v))->device < 0)
		return 0;
	return bandwidth_window(&an->bw, v->m.start_ns, v->m.end_ns, 0, rows);
}

static void
draw_window_line(struct rctx *c, struct pen *p, enum wline line)
{
	const struct view *v = c->v;
	const struct window_metrics *m = &v->m;
	int64_t span = m->end_ns - m->start_ns;
	char a[48], b[48];

	if (span <= 0)
		span = v->end_ns - v->start_ns;
	switch (line) {
	case WL_UNLIKE: {
		char ub[256];

		unlike_text(v, ub, sizeof ub);
		render_pen_put(p, ROLE_BAD, "A and B differ: ");
		render_pen_put(p, ROLE_PANEL, "%s", ub);
		break;
	}
	case WL_MARKS: {
		int64_t ma, mb;

		if (!view_marked_range(v, &ma, &mb))
			break;
		render_pen_put(p, ROLE_MARK, "marked");
		render_pen_put(p, ROLE_PANEL, " %s .. %s (", render_fmt_rel(a, sizeof a, v, ma),
		    render_fmt_rel(b, sizeof b, v, mb));
		render_pen_dur(p, ROLE_VALUE, mb - ma);
		render_pen_put(p, ROLE_PANEL, "): the numbers below are the range's, not the window's; Esc clears");
		break;
	}
	case WL_COUNTERS: {
		const struct analysis *an = view_current(v);
		const struct trace *t = an->t;
		const char *sep = "counters at the cursor: ";

		for (size_t k = 0; k < t->ntracks; k++) {
			const struct track *tr = &t->tracks[k];
			double x, peak;

			if (tr->kind != TRACK_COUNTER || tr->count == 0)
				continue;
			peak = view_counter_peak(v, v->rank, (uint32_t)k);
			render_pen_put(p, ROLE_PANEL, "%s%s ", sep, tr->tid_str != 0 ?
			    trace_str(t, tr->tid_str) : trace_str(t, tr->name));
			if (view_counter_at(v, v->rank, (uint32_t)k, view_cursor_ns(v), &x))
				render_pen_put(p, ROLE_VALUE, "%.6g", x);
			else
				render_pen_put(p, ROLE_PANEL, "-");
			render_pen_put(p, ROLE_PANEL, " (peak %.6g)", peak);
			sep = "; ";
		}
		break;
	}
	case WL_WHICH: {
		/* several ranks: the window is theirs, not this rank's own span */
		const struct analysis *an = view_current(v);

		render_pen_put(p, ROLE_PANEL, "rank %lld over the screen's window;  "
		    "its own GPU span, the report's window (F): %s .. %s",
		    (long long)an->t->rank,
		    render_fmt_rel(a, sizeof a, v, an->dev.first_ns),
		    render_fmt_rel(b, sizeof b, v, an->dev.last_ns));
		break;
	}
	case WL_WARNINGS: {
		const struct trace *t = view_current(v)->t;
		const char *sep = "";

		render_pen_put(p, ROLE_BAD, "load: ");
#define X(f, k, txt) \
		if (t->warn.f != 0) { \
			render_pen_put(p, ROLE_PANEL, "%s", sep); \
			render_pen_put(p, ROLE_BAD, "%llu", (unsigned long long)t->warn.f); \
			render_pen_put(p, ROLE_PANEL, " %s", txt); \
			sep = "; "; \
		}
		TRACE_WARNINGS(X)
#undef X
		if (t->stop_reason != NULL)
			render_pen_put(p, ROLE_PANEL, "%sstopped reading at %s", sep,
			    t->stop_reason);
		if (trace_events_lost(t) && view_current(v)->nsteps > 0)
			render_pen_put(p, ROLE_BAD, "; the last step may be incomplete");
		break;
	}
	case WL_EXPOSED:
		render_pen_put(p, ROLE_PANEL, "T_exposed ");
		render_pen_dur(p, render_bad_if(render_pct(m->exposed_comm_ns, span) >= 5), m->exposed_comm_ns);
		render_pen_put(p, ROLE_PANEL, " (%.1f%%)  overlap ", render_pct(m->exposed_comm_ns, span));
		if (m->overlap_pct >= 0) {
			render_pen_put(p, render_bad_if(m->overlap_pct < 50), "%.1f%%", m->overlap_pct);
			render_pen_put(p, ROLE_PANEL, " of comm");
		} else
			render_pen_put(p, ROLE_VALUE, "-");
		render_pen_put(p, ROLE_PANEL, "  idle ");
		render_pen_dur(p, render_bad_if(render_pct(m->idle_ns, span) >= 5), m->idle_ns);
		render_pen_put(p, ROLE_PANEL, " (%.1f%%)", render_pct(m->idle_ns, span));
		break;
	case WL_BUSY:
		render_pen_put(p, ROLE_PANEL, "busy ");
		render_pen_dur(p, ROLE_VALUE, m->busy_ns);
		render_pen_put(p, ROLE_PANEL, " (%.1f%%)  compute ", render_pct(m->busy_ns, span));
		render_pen_dur(p, ROLE_VALUE, m->compute_ns);
		render_pen_put(p, ROLE_PANEL, "  comm ");
		render_pen_dur(p, ROLE_VALUE, m->comm_ns);
		render_pen_put(p, ROLE_PANEL, "  memory ");
		render_pen_dur(p, ROLE_VALUE, m->memory_ns);
		break;
	case WL_GAPS:
		render_pen_put(p, ROLE_PANEL, "gaps \xe2\x89\xa5 %s: ",
		    units_format(a, sizeof a, v->nan ? view_current(v)->dev.min_gap_ns : 0));
		render_pen_put(p, render_bad_if(m->gap_count > 0), "%zu", m->gap_count);
		if (m->gap_count > 0) {
			render_pen_put(p, ROLE_PANEL, ", total ");
			render_pen_dur(p, ROLE_VALUE, m->gap_total_ns);
			render_pen_put(p, ROLE_PANEL, ", largest ");
			render_pen_dur(p, ROLE_BAD, m->top[0].dur_ns);
			render_pen_put(p, ROLE_PANEL, " at %s",
			    render_fmt_rel(b, sizeof b, v, m->top[0].start_ns));
		}
		break;
	case WL_IDLE:
		render_pen_put(p, ROLE_PANEL, "idle: host wait ");
		render_pen_dur(p, ROLE_VALUE, m->idle_by_kind_ns[IDLE_HOST_WAIT]);
		render_pen_put(p, ROLE_PANEL, "  short kernel wait ");
		render_pen_dur(p, ROLE_VALUE, m->idle_by_kind_ns[IDLE_KERNEL_WAIT]);
		render_pen_put(p, ROLE_PANEL, "  other ");
		render_pen_dur(p, ROLE_VALUE, m->idle_by_kind_ns[IDLE_OTHER]);
		break;
	case WL_MFU:
		render_pen_put(p, ROLE_PANEL, "kernels ");
		render_pen_put(p, ROLE_VALUE, "%zu", v->kernels_in_view);
		render_pen_put(p, ROLE_PANEL, "  MFU ");
		if (v->mfu.has_value) {
			render_pen_put(p, ROLE_VALUE, "%.1f%%", 100.0 * v->mfu.value);
			render_pen_put(p, ROLE_PANEL, " (%s)", v->mfu.source ? v->mfu.source : "?");
			if (v->mfu.has_achieved) {
				render_pen_put(p, ROLE_PANEL, "  achieved ");
				render_pen_put(p, ROLE_VALUE, "%.1f", v->mfu.achieved_tflops);
				if (v->mfu.has_peak)
					render_pen_put(p, ROLE_PANEL, " of %.0f", v->mfu.peak_tflops);
				render_pen_put(p, ROLE_PANEL, " TFLOP/s");
			} else if (v->mfu.has_peak)
				render_pen_put(p, ROLE_PANEL, "  peak %.0f TFLOP/s", v->mfu.peak_tflops);
		} else {
			render_pen_put(p, ROLE_VALUE, "n/a");
			if (v->mfu.reason[0])
				render_pen_put(p, ROLE_PANEL, " (%s)", v->mfu.reason);
		}
		break;
	case WL_BANDWIDTH: {
		struct bw_row rows[COLL_NTYPES];
		size_t n = window_bandwidth(v, rows);

		const struct crossrank *x = v->compare ? NULL : v->xr;
		double link = -1;

		if (x != NULL && x->busbw_gbps >= 0) {
			/* several ranks: measured from the last arrival */
			int32_t lo = -1;

			for (size_t q = 0; q < x->nparts; q++)
				if (x->parts[q].bw_count > 0 && (lo < 0 ||
				    x->parts[q].busbw_gbps < x->parts[lo].busbw_gbps))
					lo = (int32_t)q;
			render_pen_put(p, ROLE_PANEL, "busbw from the last arrival: median ");
			render_pen_put(p, ROLE_VALUE, "%.1f", x->busbw_gbps);
			render_pen_put(p, ROLE_PANEL, ", slowest rank %lld ",
			    (long long)x->parts[lo].rank);
			render_pen_put(p, render_bad_if(x->parts[lo].bw_ratio < 0.5),
			    "%.1f", x->parts[lo].busbw_gbps);
			render_pen_put(p, ROLE_PANEL, " GB/s");
			if (x->expected_gbps >= 0)
				render_pen_put(p, ROLE_PANEL, ", link %.0f", x->expected_gbps);
			break;
		}
		/* one rank's kernels include their wait for peers: a lower bound */
		render_pen_put(p, ROLE_PANEL, "busbw (waits included)");
		for (size_t i = 0; i < n; i++) {
			render_pen_put(p, ROLE_PANEL, "%s %s ", i ? "," : "",
			    bandwidth_type_key(rows[i].type));
			if (rows[i].busbw_gbps < 0)
				render_pen_put(p, ROLE_VALUE, "-");
			else
				render_pen_put(p, ROLE_VALUE, "%.1f", rows[i].busbw_gbps);
			if (rows[i].expected_gbps > link)
				link = rows[i].expected_gbps;
		}
		render_pen_put(p, ROLE_PANEL, " GB/s");
		if (link >= 0)
			render_pen_put(p, ROLE_PANEL, ", link %.0f", link);
		break;
	}
	case WL_LEGEND: {
		char g[8];

		render_pen_put(p, ROLE_PANEL, "bubbles: ");
		snprintf(g, sizeof g, "%s", c->ascii ? "_" : "\xe2\x96\x91");
		render_pen_put(p, ROLE_BUBBLE, "%s", g);
		render_pen_put(p, ROLE_PANEL, " idle  ");
		render_pen_put(p, ROLE_EXPOSED, "%s", c->ascii ? "!" : "\xe2\x96\x80");
		render_pen_put(p, ROLE_PANEL, " exposed comm  ");
		render_pen_put(p, ROLE_OVERLAP, "%s", c->ascii ? "~" : "\xe2\x96\x93");
		render_pen_put(p, ROLE_PANEL, " overlapped comm  ");
		render_pen_put(p, ROLE_BUSY, "%s", c->ascii ? "=" : "\xe2\x96\x88");
		render_pen_put(p, ROLE_PANEL, " compute or memory only");
		break;
	}
	case WL_SEL:
		selection_summary(c, p);
		break;
	case WL_STEP_WHY:
		step_why(c, p);
		break;
	case WL_PATH:
		path_line(c, p);
		break;
	case WL_WHATIF:
		whatif_line(c, p);
		break;
	case WL_COMPARE: {
		char dbuf[256];

		render_diag_compare_text(dbuf, sizeof dbuf, v);
		render_pen_put(p, ROLE_VALUE, "%s", dbuf);
		break;
	}
	case WL_BASELINE: {
		char bbuf[256];

		render_diag_baseline_text(bbuf, sizeof bbuf, v);
		render_pen_put(p, ROLE_STEP, "%s", bbuf);
		break;
	}
	case WL_MEMORY: {
		char mbuf[160];

		render_diag_memory_text(mbuf, sizeof mbuf, v,
		    v->cursor >= 0 && v->cursor < c->ncols ? c->col_ns[v->cursor] :
		    v->start_ns);
		render_pen_put(p, ROLE_PANEL, "%s", mbuf[0] ? mbuf :
		    "memory: no [memory] events for this device");
		break;
	}
	case WL_RANKS: {
		const struct crossrank *x = v->xr;

		render_pen_put(p, ROLE_PANEL, "ranks %zu", x->nparts);
		if (x->straggler >= 0)
			render_pen_put(p, ROLE_PANEL, ", straggler rank %lld",
			    (long long)x->parts[x->straggler].rank);

		if (v->xr_worst >= 0) {
			const struct crossrank_coll *cc = &x->colls[v->xr_worst];
			char nm[512];

			render_pen_put(p, ROLE_PANEL, "  worst skew in view ");
			render_pen_dur(p, ROLE_BAD, cc->skew_ns);
			if (cc->last >= 0)
				render_pen_put(p, ROLE_PANEL, ", rank %lld last at ",
				    (long long)x->parts[cc->last].rank);
			else
				render_pen_put(p, ROLE_PANEL, " at ");
			render_pen_put(p, ROLE_PANEL, "%s", render_medium_kernel_name(
			    crossrank_str(x, cc->name), nm, sizeof nm));
		} else {
			render_pen_put(p, ROLE_PANEL, "  no arrival skew in view");
		}
		break;
	}
	default:
		break;
	}
}

/* The kernels table: a header and up to rows-1 of the top kernels. */
static void
draw_kernels(struct rctx *c, int x, int y, int w, int rows)
{
	const struct view *v = c->v;
	int64_t ma, mb;
	int marked = view_marked_range(v, &ma, &mb);
	/* the numbers are the marked range's when both marks are set (view.h) */
	int64_t span = marked ? mb - ma : v->end_ns - v->start_ns;
	struct pen p = { c, x, y, x + w };

	if (rows <= 0)
		return;
	render_pen_put(&p, ROLE_LABEL, "%10s %6s %7s %-8s %s", "time", marked ? "range" :
	    "window", "count", "class", marked ? "top kernels in the marked range" :
	    "top kernels in view");
	if (v->ntop == 0 && rows > 1) {
		p.x = x;
		p.y = y + 1;
		render_pen_put(&p, ROLE_PANEL, marked ? "no GPU activity in the marked range" :
		    "no GPU activity in the window");
	}
	for (size_t i = 0; i < v->ntop && (int)i + 1 < rows; i++) {
		const struct kernel_total *k = &v->top[i];
		char d[48], mbuf[512];

		p.x = x;
		p.y = y + 1 + (int)i;
		render_pen_put(&p, ROLE_VALUE, "%10s", units_format(d, sizeof d, k->total_ns));
		render_pen_put(&p, ROLE_PANEL, " %5.1f%% %6llux ", render_pct(k->total_ns, span),
		    (unsigned long long)k->count);
		render_pen_put(&p, render_class_role(k->cls), "%-8s",
		    trace_class_name((enum event_class)k->cls));
		render_pen_put(&p, ROLE_PANEL, " ");
		if (v->nan > 0 && p.x < p.x1)
			p.x += render_put_fit(c, p.x, p.y, p.x1 - p.x, ROLE_PANEL,
			    render_medium_kernel_name(trace_str(view_current(v)->t, k->name),
			    mbuf, sizeof mbuf));
	}
}

/* A panel line drawn once at full length: its cells, to wrap. */
#define LINE_MAX_COLS 1024
struct drawn_line {
	struct grid g;          /* 1 row of LINE_MAX_COLS */
	int len;                /* up to its last non-blank cell */
};

static void
draw_line_full(struct rctx *c, enum wline line, struct drawn_line *d)
{
	struct grid *real = c->g;
	struct pen p = { c, 0, 0, LINE_MAX_COLS };

	grid_init(&d->g, LINE_MAX_COLS, 1);
	c->g = &d->g;
	draw_window_line(c, &p, line);
	c->g = real;
	d->len = LINE_MAX_COLS;
	while (d->len > 0 && d->g.cells[d->len - 1].ch == ' ')
		d->len--;
}

/*
 * Where line d breaks into pieces of at most w columns (continuations
 * indented by 2): between fields (two spaces, "; " or ", "), else at a
 * space, else anywhere.  Fills brk[] with the end of each piece; returns the count.
 */
static int
wrap_line(const struct drawn_line *d, int w, int *brk, int maxp)
{
	int pos = 0, n = 0;

	while (pos < d->len && n < maxp) {
		int room = n == 0 ? w : w - 2, end = pos + room, b = -1;

		if (room < 8)
			room = w, end = pos + w;
		if (end >= d->len) {
			brk[n++] = d->len;
			break;
		}
		/* between fields (two spaces, "; ", ", "), else between words */
		for (int k = end; k > pos + room / 3 && b < 0; k--) {
			uint32_t a = d->g.cells[k - 1].ch, sp = d->g.cells[k].ch;

			if ((a == ';' || a == ',' || a == ' ') && sp == ' ')
				b = k + 1;
		}
		for (int k = end; k > pos + room / 3 && b < 0; k--)
			if (d->g.cells[k].ch == ' ')
				b = k + 1;
		brk[n++] = b > 0 ? b : end;
		pos = brk[n - 1];
		while (pos < d->len && d->g.cells[pos].ch == ' ')
			pos++;
		if (n < maxp)
			brk[n] = pos;   /* the next piece's start, overwritten */
	}
	return n;
}

/*
 * Copies line d, wrapped at w columns, to rows y.. of the panel at x, at
 * most maxrows of them.
 */
static void
put_wrapped(struct rctx *c, const struct drawn_line *d, int x, int y, int w,
    int maxrows)
{
	int brk[16], n = wrap_line(d, w, brk, 16), pos = 0;

	if (n > maxrows)
		n = maxrows;
	for (int r = 0; r < n; r++) {
		int at = x + (r > 0 ? 2 : 0);

		while (pos < d->len && r > 0 && d->g.cells[pos].ch == ' ')
			pos++;
		for (int k = pos; k < brk[r] && at < x + w; k++, at++) {
			struct cell *dst = grid_at(c->g, at, y + r);

			if (dst != NULL)
				*dst = d->g.cells[k];
		}
		pos = brk[r];
	}
}

/* The rows line d takes wrapped at w columns. */
static int
wrapped_rows(const struct drawn_line *d, int w)
{
	int brk[16];

	return d->len == 0 ? 1 : wrap_line(d, w, brk, 16);
}

/*
 * The current rank's findings (e selects them), most severe first, each
 * wrapped, in rows [y, y + nrows) at x, w columns wide: when the panel has
 * rows to spare, the answer shows without a key.
 */
static void
draw_findings_rows(struct rctx *c, int x, int y, int w, int nrows)
{
	const struct view *v = c->v;
	const struct finding *f;
	size_t nf = 0;
	int row = 1;
	struct pen p = { c, x, y, x + w };

	if (v->nan == 0 || (f = view_diag_findings_known(v, v->rank, &nf)) == NULL ||
	    nf == 0)
		return;
	render_pen_put(&p, ROLE_LABEL, "findings (e):");
	for (size_t i = 0; i < nf && row < nrows; i++) {
		struct drawn_line d;
		struct grid *real = c->g;
		struct pen q = { c, 0, 0, LINE_MAX_COLS };
		int need;

		grid_init(&d.g, LINE_MAX_COLS, 1);
		c->g = &d.g;
		render_pen_put(&q, f[i].severity == SEV_CRITICAL ? ROLE_BAD : ROLE_VALUE,
		    "%s", findings_kind_id(f[i].kind));
		render_pen_put(&q, ROLE_PANEL, ": %s", f[i].summary);
		c->g = real;
		d.len = LINE_MAX_COLS;
		while (d.len > 0 && d.g.cells[d.len - 1].ch == ' ')
			d.len--;
		need = wrapped_rows(&d, w);
		if (need > nrows - row)
			need = nrows - row;
		put_wrapped(c, &d, x, y + row, w, need);
		row += need;
		grid_free(&d.g);
	}
}

static int
has_counters(const struct view *v)
{
	const struct trace *t = view_current(v)->t;

	for (size_t k = 0; k < t->ntracks; k++)
		if (t->tracks[k].kind == TRACK_COUNTER && t->tracks[k].count > 0)
			return 1;
	return 0;
}

static void
draw_window_panel(struct rctx *c, int y, int rows)
{
	static const struct {
		enum wline line;
		int prio;       /* lower shows first when rows are short */
	} lines[] = {
		{ WL_WARNINGS, 0 }, { WL_WHICH, 2 }, { WL_EXPOSED, 0 }, { WL_BUSY, 3 },
		{ WL_GAPS, 2 },
		{ WL_IDLE, 5 }, { WL_MFU, 4 }, { WL_BANDWIDTH, 6 }, { WL_LEGEND, 6 },
		{ WL_SEL, 1 }, { WL_STEP_WHY, 1 }, { WL_RANKS, 2 }, { WL_MEMORY, 1 },
		{ WL_COMPARE, 0 }, { WL_UNLIKE, 0 }, { WL_BASELINE, 0 },
		{ WL_MARKS, 0 }, { WL_COUNTERS, 3 }, { WL_PATH, 1 }, { WL_WHATIF, 1 },
	};
	enum { N = sizeof lines / sizeof lines[0] };
	const struct view *v = c->v;
	int show[N] = { 0 }, cost[N] = { 0 }, wanted[N] = { 0 };
	int used = 0, sel = v->sel != SEL_NONE;
	struct view_baseline bl;
	int has_base = view_compare_baseline(v, &bl);
	struct bw_row bwr[COLL_NTYPES];
	int has_bw = window_bandwidth(v, bwr) > 0 || (v->xr != NULL &&
	    !v->compare && v->xr->busbw_gbps >= 0);
	int w = c->g->w, left = w, row = 0;
	struct drawn_line dl[N];
	char ub[256];
	int64_t ma, mb;
	struct whatif_step wws;
	const char *wsc;
	size_t wk, wn;

	if (v->nan > 0 && view_current(v)->device < 0) {
		struct pen p = { c, 1, y, w };

		render_pen_put(&p, ROLE_PANEL, "no GPU activity in this trace; ");
		render_pen_put(&p, ROLE_VALUE, "c");
		render_pen_put(&p, ROLE_PANEL, " %s the CPU lanes%s",
		    v->show_cpu ? "hides" : "shows",
		    v->nan > 1 ? ", r goes to the next rank" : "");
		if (sel && rows > 1) {
			p.x = 1;
			p.y++;
			selection_summary(c, &p);
		}
		return;
	}
	/* wide terminals: the top kernels on the right */
	if (w >= 160)
		left = w / 2 - 1;
	for (int i = 0; i < N; i++) {
		enum wline l = lines[i].line;

		wanted[i] = (l != WL_SEL || sel) &&
		    (l != WL_STEP_WHY || (v->sel == SEL_STEP && v->nan > 0 &&
		    v->sel_index >= 0 &&
		    (size_t)v->sel_index < view_current(v)->nsteps)) &&
		    (l != WL_RANKS || (v->xr != NULL && !v->compare)) &&
		    (l != WL_MEMORY || v->show_memory) &&
		    (l != WL_BANDWIDTH || has_bw) &&
		    (l != WL_WARNINGS || (v->nan > 0 &&
		    trace_warning_kinds(view_current(v)->t) > 0)) &&
		    (l != WL_COMPARE || v->compare) &&
		    (l != WL_UNLIKE || (unlike_text(v, ub, sizeof ub), ub[0] != '\0')) &&
		    (l != WL_WHICH || (v->nan > 1 && !v->compare &&
		    (v->start_ns != view_current(v)->dev.first_ns ||
		    v->end_ns != view_current(v)->dev.last_ns))) &&
		    (l != WL_BASELINE || has_base) &&
		    (l != WL_MARKS || view_marked_range(v, &ma, &mb)) &&
		    (l != WL_COUNTERS || (v->show_counters && has_counters(v))) &&
		    (l != WL_PATH || view_whatif_shown(v)) &&
		    (l != WL_WHATIF || view_whatif_current(v, &wws, &wsc, &wk, &wn) == 0);
		if (!wanted[i])
			continue;
		/* drawn whole once, then wrapped rather than cut */
		draw_line_full(c, l, &dl[i]);
		cost[i] = wrapped_rows(&dl[i], left - 1);
	}
	/*
	 * By priority, each line whole or not at all; but the first lines
	 * (priority 0: T_exposed, warnings, the comparison) take the rows left
	 * even when that cuts them, a tiny panel's only numbers.
	 */
	for (int prio = 0; prio <= 6; prio++)
		for (int i = 0; i < N; i++) {
			if (!wanted[i] || lines[i].prio != prio || used >= rows)
				continue;
			if (used + cost[i] > rows && prio > 0)
				continue;
			if (used + cost[i] > rows)
				cost[i] = rows - used;
			show[i] = 1;
			used += cost[i];
		}
	if (w >= 160)
		draw_kernels(c, left + 2, y, w - left - 2, rows);
	for (int i = 0; i < N; i++) {
		if (show[i]) {
			put_wrapped(c, &dl[i], 1, y + row, left - 1, cost[i]);
			row += cost[i];
		}
		if (wanted[i])
			grid_free(&dl[i].g);
	}
	/* tall panels: the top kernels below, after a blank row */
	if (w < 160 && rows - row >= 4) {
		int nk = (int)v->ntop + 2 < rows - row - 1 ? (int)v->ntop + 2 :
		    rows - row - 1;

		draw_kernels(c, 1, y + row + 1, w - 2, nk);
		row += nk + 1;
	}
	/* rows still left: the rank's findings, the screen used */
	if (rows - row >= 3)
		draw_findings_rows(c, 1, y + row + 1, left - 1, rows - row - 1);
}

/*
 * The rows of an event's context (launch.h): for a kernel, the op, module
 * and layer around its launch call; for a CPU event, those around it and
 * the kernels it launched with their GPU time.  *r counts the rows used.
 */
static void
event_context_rows(struct rctx *c, struct pen *p, int y, int *r, int rows)
{
	const struct view *v = c->v;
	const struct analysis *an = view_current(v);
	const struct trace *t = an->t;
	uint32_t ev = (uint32_t)v->sel_index;
	const struct event *e = &t->events[ev];
	struct launch_context lc;
	struct launched lk;
	char sbuf[256];
	int w = c->g->w;

	launch_context(t, an->layers, an->nlayers, ev, &lc);
	if ((lc.op != EV_NONE || lc.module != EV_NONE || lc.layer >= 0) &&
	    (p->x = 1, p->y = y + *r, p->x1 = w, (*r)++ < rows)) {
		render_pen_put(p, ROLE_PANEL, "%s", event_is_activity(e) ?
		    "launched in " : "inside ");
		if (lc.op != EV_NONE && lc.op != ev) {
			render_pen_put(p, ROLE_PANEL, "op ");
			render_pen_put(p, ROLE_VALUE, "%s", render_display_name(t,
			    &t->events[lc.op], sbuf, sizeof sbuf));
			render_pen_put(p, ROLE_PANEL, "  ");
		}
		if (lc.module != EV_NONE) {
			render_pen_put(p, ROLE_PANEL, "module ");
			render_pen_put(p, ROLE_VALUE, "%s", render_display_name(t,
			    &t->events[lc.module], sbuf, sizeof sbuf));
			render_pen_put(p, ROLE_PANEL, "  ");
		}
		if (lc.layer >= 0) {
			const struct layer *l = &an->layers[lc.layer];

			render_pen_put(p, ROLE_PANEL, "layer ");
			render_pen_put(p, ROLE_VALUE, "%s %s", trace_str(t, l->name),
			    layers_phase_name(l->phase));
			if (l->step >= 0)
				render_pen_put(p, ROLE_PANEL, " (step %lld)", (long long)l->step);
		}
	}
	if (event_is_activity(e)) {
		const struct source_args *oa;
		uint32_t op = view_launch_op_args(v, &oa);

		/* the launching op's shapes: which aten::mm of many this was */
		if (op == EV_NONE || oa == NULL || !oa->found)
			return;
		for (size_t i = 0; i < oa->n; i++) {
			if (strcmp(oa->v[i].key, "Input Dims") != 0 &&
			    strcmp(oa->v[i].key, "Input type") != 0)
				continue;
			if (p->x = 1, p->y = y + *r, p->x1 = w, (*r)++ >= rows)
				return;
			render_pen_put(p, ROLE_PANEL, "op's %s  ", oa->v[i].key);
			render_pen_put(p, ROLE_VALUE, "%s", oa->v[i].value);
		}
		if (p->x = 1, p->y = y + *r, p->x1 = w, (*r)++ < rows)
			render_pen_put(p, ROLE_PANEL, "(u: the op)");
		return;
	}
	launch_kernels(t, ev, &lk);
	if (lk.kernels > 0 && (p->x = 1, p->y = y + *r, p->x1 = w, (*r)++ < rows)) {
		render_pen_put(p, ROLE_PANEL, "launched %llu kernel%s%s, GPU time ",
		    (unsigned long long)lk.kernels, lk.kernels == 1 ? "" : "s",
		    lk.partial ? " (counted in part)" : "");
		render_pen_dur(p, ROLE_VALUE, lk.gpu_ns);
		for (int i = 0; i < LAUNCH_TOP && lk.top[i] != EV_NONE; i++) {
			render_pen_put(p, ROLE_PANEL, i == 0 ? ": " : ", ");
			render_pen_put(p, ROLE_PANEL, "%s ", render_display_name(t,
			    &t->events[lk.top[i]], sbuf, sizeof sbuf));
			render_pen_dur(p, ROLE_VALUE, t->events[lk.top[i]].dur_ns);
		}
		if (lk.kernels > LAUNCH_TOP)
			render_pen_put(p, ROLE_PANEL, ", ...");
		render_pen_put(p, ROLE_PANEL, "  (J: the first)");
	}
}

/*
 * The event's args as its file has them (view_event_args()), one a row,
 * each cut to the panel's width; when rows run out, the last row says how
 * many are left.  *r counts the rows used.
 */
static void
event_args_rows(struct rctx *c, int y, int *r, int rows)
{
	const struct source_args *sa = view_event_args(c->v);
	int w = c->g->w;

	if (*r >= rows)
		return;
	if (sa == NULL) {
		render_put_fit(c, 1, y + (*r)++, w - 2, ROLE_PANEL,
		    "args: being read from the file");
		return;
	}
	if (!sa->found) {
		render_put_fit(c, 1, y + (*r)++, w - 2, ROLE_PANEL, sa->msg);
		return;
	}
	if (sa->n == 0) {
		render_put_fit(c, 1, y + (*r)++, w - 2, ROLE_PANEL, "args: none in the trace");
		return;
	}
	for (size_t i = 0; i < sa->n && *r < rows; i++) {
		struct pen p = { c, 1, y + *r, w - 1 };

		if (*r == rows - 1 && i + 1 < sa->n) {
			render_pen_put(&p, ROLE_PANEL, "(%zu more args: a taller terminal shows them)",
			    sa->n - i);
			(*r)++;
			return;
		}
		render_pen_put(&p, ROLE_LABEL, "%s", sa->v[i].key);
		render_pen_put(&p, ROLE_PANEL, "  %s", sa->v[i].value);
		(*r)++;
	}
}

/* Prints "label value" pairs for the selection panel. */
static void
draw_event_details(struct rctx *c, int y, int rows)
{
	const struct view *v = c->v;
	const struct analysis *an = view_current(v);
	const struct trace *t = an->t;
	const struct event *e = &t->events[v->sel_index];
	struct event_args ea_buf;
	const struct event_args *ea = trace_args(t, e, &ea_buf);
	const struct track *tr = &t->tracks[e->track];
	int w = c->g->w, r = 0;
	char a[48], b[48], tn[64];
	struct pen p;

#define NEXT_ROW() (p.x = 1, p.y = y + r, p.x1 = w, r++ < rows)
	p.c = c;
	if (NEXT_ROW())
		render_put_fit(c, 1, p.y, w - 2, ROLE_VALUE, trace_str(t, e->name));
	if (NEXT_ROW()) {
		if (event_is_activity(e)) {
			render_pen_put(&p, render_class_role(e->cls), "%s",
			    trace_class_name((enum event_class)e->cls));
			render_pen_put(&p, ROLE_PANEL, " on %s", render_track_name(t, tr, tn, sizeof tn));
		} else
			render_pen_put(&p, ROLE_PANEL, "%s on %s, depth %d",
			    trace_str(t, t->cats[e->cat]), render_track_name(t, tr, tn, sizeof tn),
			    e->depth);
		render_pen_put(&p, ROLE_PANEL, "  start %s  duration ",
		    render_fmt_rel(a, sizeof a, v, e->ts_ns));
		render_pen_dur(&p, ROLE_VALUE, e->dur_ns);
		if (event_is_activity(e) && e->depth > 0)
			render_pen_put(&p, ROLE_PANEL, "  (row %d: overlaps another kernel)",
			    e->depth + 1);
	}
	if (NEXT_ROW()) {
		if (ea != NULL && ea->correlation != ID_NONE)
			render_pen_put(&p, ROLE_PANEL, "correlation %lld  ",
			    (long long)ea->correlation);
		if (e->link != EV_NONE && event_is_activity(e)) {
			const struct event *l = &t->events[e->link];

			render_pen_put(&p, ROLE_PANEL, "launched by %s at %s, latency ",
			    trace_str(t, l->name), render_fmt_rel(b, sizeof b, v, l->ts_ns));
			render_pen_dur(&p, render_bad_if(e->ts_ns - l->ts_ns >= 1000000),
			    e->ts_ns - l->ts_ns);
		} else if (e->link != EV_NONE) {
			const struct event *k = &t->events[e->link];
			char sbuf[256];

			render_pen_put(&p, ROLE_PANEL, "launches %s at %s (latency ",
			    render_display_name(t, k, sbuf, sizeof sbuf),
			    render_fmt_rel(b, sizeof b, v, k->ts_ns));
			render_pen_dur(&p, ROLE_VALUE, k->ts_ns - e->ts_ns);
			render_pen_put(&p, ROLE_PANEL, ")");
		} else if (e->flags & EVF_SYNC)
			render_pen_put(&p, ROLE_SYNC, "CUDA synchronisation: the CPU waits for the GPU");
	}
	event_context_rows(c, &p, y, &r, rows);
	if (ea != NULL && ea->comm != EV_NONE && ea->comm < t->ncomms && NEXT_ROW()) {
		const struct comm_args *cm = &t->comms[ea->comm];

		render_pen_put(&p, ROLE_PANEL, "collective ");
		render_pen_put(&p, ROLE_VALUE, "%s", trace_str(t, cm->collective));
		if (cm->pg_name)
			render_pen_put(&p, ROLE_PANEL, "  group %s", trace_str(t, cm->pg_name));
		if (cm->group_size >= 0)
			render_pen_put(&p, ROLE_PANEL, " (%d ranks)", (int)cm->group_size);
		if (cm->dtype)
			render_pen_put(&p, ROLE_PANEL, "  %s", trace_str(t, cm->dtype));
		if (cm->in_nelems >= 0)
			render_pen_put(&p, ROLE_PANEL, "  in %lld", (long long)cm->in_nelems);
		if (cm->out_nelems >= 0)
			render_pen_put(&p, ROLE_PANEL, "  out %lld elements", (long long)cm->out_nelems);
		if (cm->seq >= 0)
			render_pen_put(&p, ROLE_PANEL, "  seq %lld", (long long)cm->seq);
	}
	if (e->cls == CLASS_COMM && event_is_activity(e)) {
		struct coll_bw bw;

		bandwidth_of(&an->dev, e, &bw);
		if (bw.bytes >= 0 && NEXT_ROW()) {
			render_pen_put(&p, ROLE_PANEL, "%s: %lld bytes", bandwidth_type_key(bw.type),
			    (long long)bw.bytes);
			if (bw.algbw_gbps >= 0)
				render_pen_put(&p, ROLE_PANEL, "  algbw %.1f GB/s", bw.algbw_gbps);
			if (bw.busbw_gbps >= 0) {
				render_pen_put(&p, ROLE_PANEL, "  busbw ");
				render_pen_put(&p, render_bad_if(bw.expected_gbps > 0 &&
				    bw.busbw_gbps < 0.25 * bw.expected_gbps), "%.1f GB/s",
				    bw.busbw_gbps);
			}
			if (bw.expected_gbps >= 0)
				render_pen_put(&p, ROLE_PANEL, "  (%s gives %.0f)", bw.link,
				    bw.expected_gbps);
		}
	}
	event_args_rows(c, y, &r, rows);
#undef NEXT_ROW
}

static void
draw_selection_panel(struct rctx *c, int y, int rows)
{
	const struct view *v = c->v;
	const struct analysis *an;
	struct pen p = { c, 1, y, c->g->w };
	char a[48], b[48];

	if (v->nan == 0 || rows <= 0)
		return;
	an = view_current(v);
	switch (v->sel) {
	case SEL_STEP:
		if (v->sel_index >= 0 && (size_t)v->sel_index < an->nsteps) {
			const struct step *s = &an->steps[v->sel_index];
			struct window_metrics m;
			int64_t sa, sb;

			render_pen_put(&p, ROLE_VALUE, "%s", trace_str(an->t, an->t->events[s->event].name));
			render_pen_put(&p, ROLE_PANEL, "  CPU ");
			render_pen_dur(&p, ROLE_VALUE, s->end_ns - s->start_ns);
			render_pen_put(&p, ROLE_PANEL, " (%s .. %s)", render_fmt_rel(a, sizeof a, v, s->start_ns),
			    render_fmt_rel(b, sizeof b, v, s->end_ns));
			if (rows < 2)
				return;
			p.x = 1;
			p.y++;
			if (s->has_gpu) {
				render_pen_put(&p, ROLE_PANEL, "GPU extent ");
				render_pen_dur(&p, ROLE_VALUE, s->gpu_end_ns - s->gpu_start_ns);
				render_pen_put(&p, ROLE_PANEL, " (%s .. %s)",
				    render_fmt_rel(a, sizeof a, v, s->gpu_start_ns),
				    render_fmt_rel(b, sizeof b, v, s->gpu_end_ns));
			} else
				render_pen_put(&p, ROLE_PANEL, "no GPU activity launched in this step");
			if (rows < 3)
				return;
			render_step_range(s, &sa, &sb);
			metrics_window(&an->dev, sa, sb, &m);
			p.x = 1;
			p.y++;
			render_pen_put(&p, ROLE_PANEL, "exposed comm ");
			render_pen_dur(&p, render_bad_if(render_pct(m.exposed_comm_ns, sb - sa) >= 5), m.exposed_comm_ns);
			render_pen_put(&p, ROLE_PANEL, " (%.1f%%)  idle ", render_pct(m.exposed_comm_ns, sb - sa));
			render_pen_dur(&p, render_bad_if(render_pct(m.idle_ns, sb - sa) >= 5), m.idle_ns);
			render_pen_put(&p, ROLE_PANEL, "  gaps %zu", m.gap_count);
			if (rows < 4)
				return;
			p.x = 1;
			p.y++;
			render_pen_put(&p, ROLE_PANEL, "step time z-score ");
			render_pen_put(&p, render_bad_if(s->outlier), "%.2f", s->z);
			if (s->outlier)
				render_pen_put(&p, ROLE_BAD, "  outlier: slower than the others");
		}
		return;
	case SEL_LAYER:
		if (v->sel_index >= 0 && (size_t)v->sel_index < an->nlayers) {
			const struct layer *l = &an->layers[v->sel_index];

			render_pen_put(&p, ROLE_VALUE, "%s", trace_str(an->t, l->name));
			render_pen_put(&p, ROLE_PANEL, "  %s", layers_phase_name(l->phase));
			if (l->step >= 0)
				render_pen_put(&p, ROLE_PANEL, "  step %lld", (long long)l->step);
			render_pen_put(&p, ROLE_PANEL, "  (%s)", layers_source_name(l->source));
			if (rows < 2)
				return;
			p.x = 1;
			p.y++;
			if (l->has_gpu) {
				render_pen_put(&p, ROLE_PANEL, "GPU extent ");
				render_pen_dur(&p, ROLE_VALUE, l->gpu_end_ns - l->gpu_start_ns);
				render_pen_put(&p, ROLE_PANEL, " (%s .. %s)",
				    render_fmt_rel(a, sizeof a, v, l->gpu_start_ns),
				    render_fmt_rel(b, sizeof b, v, l->gpu_end_ns));
			} else
				render_pen_put(&p, ROLE_PANEL, "no GPU activity launched by this layer");
			render_pen_put(&p, ROLE_PANEL, "  CPU ");
			render_pen_dur(&p, ROLE_VALUE, l->cpu_end_ns - l->cpu_start_ns);
			if (rows < 3)
				return;
			p.x = 1;
			p.y++;
			render_pen_put(&p, ROLE_PANEL, "compute ");
			render_pen_dur(&p, ROLE_VALUE, l->compute_ns);
			render_pen_put(&p, ROLE_PANEL, "  comm ");
			render_pen_dur(&p, ROLE_VALUE, l->comm_ns);
			render_pen_put(&p, ROLE_PANEL, "  exposed in extent ");
			render_pen_dur(&p, render_bad_if(l->exposed_comm_ns > 0), l->exposed_comm_ns);
			if (rows < 4)
				return;
			p.x = 1;
			p.y++;
			render_pen_put(&p, ROLE_PANEL, "own collectives ");
			render_pen_dur(&p, ROLE_VALUE, l->own_comm_ns);
			render_pen_put(&p, ROLE_PANEL, ", exposed ");
			render_pen_dur(&p, render_bad_if(l->own_exposed_comm_ns > 0), l->own_exposed_comm_ns);
			render_pen_put(&p, ROLE_PANEL, "  estimate max(0, comm - compute) ");
			render_pen_dur(&p, render_bad_if(l->estimate_exposed_ns > 0), l->estimate_exposed_ns);
		}
		return;
	case SEL_GAP: {
		const struct metrics *d = &an->dev;
		int64_t gs = v->sel_gap.start_ns, ge = gs + v->sel_gap.dur_ns;
		size_t lo = 0, hi = d->nacts;

		render_pen_put(&p, ROLE_PANEL, "gap at %s .. %s: ", render_fmt_rel(a, sizeof a, v, gs),
		    render_fmt_rel(b, sizeof b, v, ge));
		render_pen_dur(&p, ROLE_BAD, v->sel_gap.dur_ns);
		render_pen_put(&p, ROLE_PANEL, " with no GPU activity");
		/* the activities on either side: acts are sorted by start */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (an->t->events[d->acts[mid]].ts_ns < ge)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (rows >= 2 && lo > 0) {
			uint32_t best = d->acts[lo - 1];
			char sbuf[256];

			for (size_t k = lo - 1, seen = 0; seen < 64; k--, seen++) {
				if (event_end(&an->t->events[d->acts[k]]) >
				    event_end(&an->t->events[best]))
					best = d->acts[k];
				if (k == 0)
					break;
			}
			p.x = 1;
			p.y++;
			render_pen_put(&p, ROLE_PANEL, "before: %s, ended at %s",
			    render_display_name(an->t, &an->t->events[best], sbuf, sizeof sbuf),
			    render_fmt_rel(a, sizeof a, v, event_end(&an->t->events[best])));
		}
		if (rows >= 3 && lo < d->nacts) {
			const struct event *e = &an->t->events[d->acts[lo]];
			char sbuf[256];

			p.x = 1;
			p.y++;
			render_pen_put(&p, ROLE_PANEL, "after: %s at %s",
			    render_display_name(an->t, e, sbuf, sizeof sbuf),
			    render_fmt_rel(a, sizeof a, v, e->ts_ns));
			if (e->link != EV_NONE) {
				const struct event *l = &an->t->events[e->link];

				render_pen_put(&p, ROLE_PANEL, ", launched %s",
				    render_fmt_rel(b, sizeof b, v, l->ts_ns));
				if (l->ts_ns >= gs)
					render_pen_put(&p, ROLE_BAD, " in the gap: host wait");
				else
					render_pen_put(&p, ROLE_PANEL, " before the gap");
			}
		}
		return;
	}
	case SEL_EVENT:
		if (v->sel_index >= 0 && (size_t)v->sel_index < an->t->nevents)
			draw_event_details(c, y, rows);
		return;
	case SEL_FINDING:
		render_diag_findings_panel(c->g, 1, y, c->g->w - 2, rows, v, c->ascii);
		return;
	default:
		render_pen_put(&p, ROLE_PANEL, "nothing selected: ] [ a step, } { a layer, g a gap, "
		    "x the worst layer, / a name, or click an event");
		return;
	}
}

void
render_draw_panel(struct rctx *c, int y0, int rows)
{
	static const char *const tabs[PANEL_COUNT] = { "window", "kernels", "selection" };
	const struct view *v = c->v;
	const struct layout *lay = c->lay;
	int w = c->g->w, x = 0;
	char right[160], a[48];

	/* the title row: tabs (the current one in brackets), then where we are */
	for (int i = 0; i < w; i++)
		grid_put(c->g, i, y0, c->gl->hrule, ROLE_RULER);
	x = 1;
	if (v->mode == VIEW_MODE_MATRIX) {
		render_put_text(c, x, y0, w - x, ROLE_LABEL, "[rank x step]");
		if (lay->nlanes > lay->lanes_h) {
			int f = render_first_lane(lay, v);

			snprintf(right, sizeof right, " ranks %d-%d of %d ", f + 1,
			    f + lay->lanes_h, lay->nlanes);
			if (render_text_cols(right) + 16 < w)
				render_put_text(c, w - 1 - render_text_cols(right), y0, w, ROLE_RULER, right);
		}
		if (rows > 0)
			render_draw_matrix_panel(c, y0 + 1, rows);
		return;
	}
	for (int i = 0; i < PANEL_COUNT; i++) {
		char t[32];
		int n;

		snprintf(t, sizeof t, (int)v->panel == i ? "[%s]" : " %s ", tabs[i]);
		n = render_put_text(c, x, y0, w - x, (int)v->panel == i ? ROLE_LABEL : ROLE_RULER, t);
		if ((int)v->panel == i)
			grid_reverse(c->g, x + 1, x + n - 1, y0);
		x += n + 1;
	}
	right[0] = '\0';
	if (lay->nlanes > lay->lanes_h) {
		int f = render_first_lane(lay, v);

		snprintf(right, sizeof right, " lanes %d-%d of %d \xe2\x94\x80", f + 1,
		    f + lay->lanes_h, lay->nlanes);
	}
	if (v->cursor >= 0 && v->cursor < c->ncols) {
		size_t l = strlen(right);

		snprintf(right + l, sizeof right - l, " cursor %s ",
		    render_fmt_rel(a, sizeof a, v, c->col_ns[v->cursor]));
	}
	if (right[0] && x + render_text_cols(right) + 1 < w)
		render_put_text(c, w - 1 - render_text_cols(right), y0, w, ROLE_RULER, right);

	if (rows <= 0 || v->nan == 0)
		return;
	switch (v->panel) {
	case PANEL_KERNELS: {
		int sel = v->sel != SEL_NONE, kr = rows - sel;

		if (kr > (int)v->ntop + 1)
			kr = (int)(v->ntop > 0 ? v->ntop : 1) + 1;
		draw_kernels(c, 1, y0 + 1, w - 2, kr);
		if (sel) {
			struct pen p = { c, 1, y0 + 1 + kr, w };

			selection_summary(c, &p);
		}
		break;
	}
	case PANEL_SELECTION:
		draw_selection_panel(c, y0 + 1, rows);
		break;
	default:
		draw_window_panel(c, y0 + 1, rows);
		break;
	}
}
