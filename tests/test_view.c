/* The view: column mapping, clamping, zoom, navigation, search, recalc. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "load/load.h"
#include "analysis/metrics.h"
#include "model/trace.h"
#include "view/command.h"
#include "view/view.h"
#include "view/view_nav.h"
#include "view/view_lanes.h"
#include "view/view_select.h"
#include "view/view_whatif.h"
#include "analysis/crossrank.h"
#include "analysis/depgraph.h"
#include "analysis/whatif.h"

#define US 1000LL               /* ns per us */

#include "fsdp2.h"

/*
 * The navigation trace: steps 1..7, step i at [3000 i, 3000 i + d_i) with
 * d = 900, 2000, 910, 890, 2100, 905, 895 us: steps 2 and 5 are the
 * outliers (median 905, MAD 10).  Each step launches kernels A
 * "sm90_gemm_A" [s+50, s+400) and B "Fused_GEMM_B" [s+500, s+d-50); step 3
 * also C "nvjet_C" [s+405, s+495), which leaves it only 5 us holes.  GPU
 * activity runs [3050, 21845) us.  The gaps (>= 10 us), in order:
 *   0 [3400,3500)   1 [3850,6050)   2 [6400,6500)   3 [7950,9050)
 *   4 [9860,12050)  5 [12400,12500) 6 [12840,15050) 7 [15400,15500)
 *   8 [17050,18050) 9 [18400,18500) 10 [18855,21050) 11 [21400,21500)
 */
static const long long nav_dur[7] = { 900, 2000, 910, 890, 2100, 905, 895 };

static void
nav_trace(struct trace *t)
{
	j_begin();
	for (int i = 1; i <= 7; i++) {
		long long s = 3000LL * i, d = nav_dur[i - 1];

		step(i, s, s + d);
		kernel(1, s + 10, "sm90_gemm_A", s + 50, s + 400);
		kernel(1, s + 20, "Fused_GEMM_B", s + 500, s + d - 50);
		if (i == 3)
			kernel(1, s + 30, "nvjet_C", s + 405, s + 495);
	}
	j_load(t);
}

/*
 * The FSDP2 step of fsdp2.h (shared with test_layers.c), without its
 * nn.Module span.  Layers, in order (GPU extents in us;
 * own exposed comm):
 *   0 (root) forward   [20,150)   0
 *   1 layers.0 forward [20,100)  30
 *   2 layers.1 forward [100,150)  0
 *   3 layers.1 backward [230,340) 50
 *   4 layers.0 backward [310,380) 40
 * GPU activity [20,520); gaps [150,230) and [380,500).
 */

/* Up to two traces, their analyses (device 0, default options) and a view. */
struct fix {
	struct trace t[2];
	struct analysis an[2];
	size_t n;
	struct view v;
};

static void
fix_view(struct fix *f, size_t n, int cols)
{
	struct analysis_opts o;
	int64_t t0 = INT64_MAX, t1 = INT64_MIN;

	memset(&o, 0, sizeof o);
	o.min_gap_ns = METRICS_DEFAULT_MIN_GAP_NS;
	o.ranks_loaded = (int64_t)n;
	f->n = n;
	for (size_t i = 0; i < n; i++) {
		int32_t *devs = NULL;

		/* each trace's first device with activity (device 0 if none) */
		analysis_build(&f->an[i], &f->t[i],
		    metrics_devices(&f->t[i], &devs) > 0 ? devs[0] : 0, &o);
		free(devs);
		if (f->t[i].start_ns < t0)
			t0 = f->t[i].start_ns;
		if (f->t[i].end_ns > t1)
			t1 = f->t[i].end_ns;
	}
	view_init(&f->v, f->an, n, t0, t1, cols);
}

/* The navigation trace alone in a view cols columns wide. */
static void
fix_nav(struct fix *f, int cols)
{
	nav_trace(&f->t[0]);
	fix_view(f, 1, cols);
}

static void
fix_free(struct fix *f)
{
	view_free(&f->v);
	for (size_t i = 0; i < f->n; i++) {
		analysis_free(&f->an[i]);
		trace_free(&f->t[i]);
	}
}

#define assert_window(v, a, b) do { \
	cr_assert_eq((v)->start_ns, (int64_t)(a), "start %lld, want %lld", \
	    (long long)(v)->start_ns, (long long)(a)); \
	cr_assert_eq((v)->end_ns, (int64_t)(b), "end %lld, want %lld", \
	    (long long)(v)->end_ns, (long long)(b)); \
} while (0)

/* The window of zooming to [a, b) us: 2% margin each side. */
#define assert_zoomed_to(v, a_us, b_us) do { \
	int64_t m_ = ((b_us) - (a_us)) * US * 2 / 100; \
	assert_window(v, (a_us) * US - m_, (b_us) * US + m_); \
} while (0)

/* ---- column mapping ---- */

static uint64_t rng = 0x243f6a8885a308d3ULL;

static uint64_t
rnd(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A view with no analyses over the bounds [t0, t1). */
static void
bare_view(struct view *v, int64_t t0, int64_t t1, int cols)
{
	view_init(v, NULL, 0, t0, t1, cols);
}

static void
check_mapping(const struct view *v)
{
	int64_t span = v->end_ns - v->start_ns, sum = 0;

	cr_assert_eq(view_col_ns(v, 0), v->start_ns);
	cr_assert_eq(view_col_ns(v, v->cols), v->end_ns);
	for (int c = 0; c < v->cols; c++) {
		int64_t a = view_col_ns(v, c), b = view_col_ns(v, c + 1);

		/* Exactly floor(c * span / cols), computed here without overflow. */
		cr_assert_eq((unsigned __int128)(a - v->start_ns),
		    (unsigned __int128)c * (uint64_t)span / (unsigned)v->cols,
		    "col %d", c);
		cr_assert_gt(b, a, "column %d of %d is empty (span %lld)", c,
		    v->cols, (long long)span);
		sum += b - a;
		cr_assert_eq(view_ns_col(v, a), c, "round trip of col %d", c);
		cr_assert_eq(view_ns_col(v, b - 1), c, "last ns of col %d", c);
	}
	cr_assert_eq(sum, span);
	cr_assert_eq(view_ns_col(v, v->start_ns - 1), -1);
	cr_assert_eq(view_ns_col(v, v->end_ns), v->cols);
	cr_assert_eq(view_ns_col(v, INT64_MIN), -1);
	cr_assert_eq(view_ns_col(v, INT64_MAX), v->cols);
}

Test(mapping, small_exact)
{
	struct view v;

	bare_view(&v, 0, 1000, 3);
	assert_window(&v, 0, 1000);
	/* 1000 / 3: columns [0,333) [333,666) [666,1000). */
	cr_assert_eq(view_col_ns(&v, 1), 333);
	cr_assert_eq(view_col_ns(&v, 2), 666);
	cr_assert_eq(view_ns_col(&v, 332), 0);
	cr_assert_eq(view_ns_col(&v, 333), 1);
	cr_assert_eq(view_ns_col(&v, 665), 1);
	cr_assert_eq(view_ns_col(&v, 666), 2);
	cr_assert_eq(view_ns_col(&v, 999), 2);
	cr_assert_eq(view_ns_col(&v, 1000), 3);
	cr_assert_eq(view_ns_col(&v, -1), -1);
	cr_assert_eq(v.cursor, 1);
	check_mapping(&v);
	/* The narrowest window: one ns per column. */
	view_set_window(&v, 100, 103, 0);
	assert_window(&v, 100, 103);
	check_mapping(&v);
	view_free(&v);
}

Test(mapping, random_spans_round_trip)
{
	for (int k = 0; k < 300; k++) {
		struct view v;
		int cols = 1 + (int)(rnd() % 400);
		int64_t start = INT64_C(1700000000000000000) +
		    (int64_t)(rnd() % INT64_C(100000000000000000));
		/* Spans from cols to 1e15 ns, spread over the magnitudes. */
		int64_t max = (int64_t)cols << (rnd() % 50);
		int64_t span;

		if (max > INT64_C(1000000000000000) || max < cols)
			max = INT64_C(1000000000000000);
		span = cols + (int64_t)(rnd() % (uint64_t)(max - cols + 1));
		if (k == 0)
			span = INT64_C(1000000000000000);
		if (k == 1)
			span = cols;
		bare_view(&v, start, start + span, cols);
		assert_window(&v, start, start + span);
		check_mapping(&v);
		/* And random times inside: their column holds them. */
		for (int j = 0; j < 50; j++) {
			int64_t ts = start + (int64_t)(rnd() % (uint64_t)span);
			int c = view_ns_col(&v, ts);

			cr_assert(c >= 0 && c < cols);
			cr_assert_leq(view_col_ns(&v, c), ts);
			cr_assert_gt(view_col_ns(&v, c + 1), ts);
		}
		view_free(&v);
	}
}

/* ---- the window: clamping, zoom and the zoom stack ---- */

Test(window, clamping)
{
	struct view v;
	const int64_t t0 = 1000000, t1 = 2000000;

	bare_view(&v, t0, t1, 100);
	assert_window(&v, t0, t1);
	/* Wider than the bounds: the bounds; unchanged returns VIEW_NONE. */
	cr_assert_eq(view_set_window(&v, 0, 5000000, 1), VIEW_NONE);
	cr_assert_eq(v.nzoom, 0, "an unchanged window is not pushed");
	/* Past the left end: shifted in, same width. */
	cr_assert_eq(view_set_window(&v, t0 - 500, t0 + 9500, 1), VIEW_RECALC);
	assert_window(&v, t0, t0 + 10000);
	cr_assert_eq(v.nzoom, 1);
	/* Past the right end. */
	view_set_window(&v, t1 - 100, t1 + 9900, 0);
	assert_window(&v, t1 - 10000, t1);
	/* Narrower than cols ns: widened around its centre. */
	view_set_window(&v, 1500000, 1500010, 0);
	assert_window(&v, 1500005 - 50, 1500005 + 50);
	/* ... and then shifted in at an end. */
	view_set_window(&v, t1 - 4, t1 - 2, 0);
	assert_window(&v, t1 - 100, t1);
	/* Inverted: taken as [end, start). */
	view_set_window(&v, 1600000, 1400000, 0);
	assert_window(&v, 1400000, 1600000);

	/* Panning stops at the ends and says so. */
	view_set_window(&v, t0, t0 + 80000, 0);
	cr_assert_eq(view_do(&v, CMD_PAN_LEFT), VIEW_NONE);
	cr_assert_str_eq(v.message, "at the start of the trace");
	cr_assert_eq(view_do(&v, CMD_PAN_RIGHT), VIEW_RECALC);
	cr_assert_str_eq(v.message, "", "a command clears the message");
	assert_window(&v, t0 + 10000, t0 + 90000);
	for (int i = 0; i < 200; i++)
		view_do(&v, CMD_PAN_RIGHT);
	assert_window(&v, t1 - 80000, t1);
	cr_assert_eq(view_do(&v, CMD_PAN_RIGHT), VIEW_NONE);
	cr_assert_str_eq(v.message, "at the end of the trace");
	cr_assert_eq(view_do(&v, CMD_PAN_LEFT), VIEW_RECALC);
	assert_window(&v, t1 - 90000, t1 - 10000);

	/* Zooming out beyond the bounds stops at them. */
	for (int i = 0; i < 20; i++)
		view_do(&v, CMD_ZOOM_OUT);
	assert_window(&v, t0, t1);
	cr_assert_eq(view_do(&v, CMD_ZOOM_OUT), VIEW_NONE);
	cr_assert_str_eq(v.message, "zoomed out as far as it goes");
	/* Zooming in stops at one ns a column. */
	for (int i = 0; i < 30; i++)
		view_do(&v, CMD_ZOOM_IN);
	cr_assert_eq(v.end_ns - v.start_ns, 100);
	cr_assert_eq(view_do(&v, CMD_ZOOM_IN), VIEW_NONE);

	/* A resize keeps the window at least cols wide. */
	view_resize(&v, 150);
	cr_assert_eq(v.end_ns - v.start_ns, 150);
	cr_assert_lt(v.cursor, 150);
	view_free(&v);
}

Test(window, bounds_narrower_than_cols)
{
	struct view v;

	bare_view(&v, 500, 540, 100);
	assert_window(&v, 500, 600);
	check_mapping(&v);
	view_free(&v);
}

Test(window, zoom_keeps_the_cursor_time_and_inverts)
{
	for (int k = 0; k < 200; k++) {
		struct view v;
		int cols = 20 + (int)(rnd() % 300);
		int64_t t0 = INT64_C(1712195495505582988);
		int64_t span = cols * 4 + (int64_t)(rnd() % INT64_C(100000000000));
		int64_t s0, e0, t;

		bare_view(&v, t0, t0 + 4 * span, cols);
		/* A window well inside the bounds, odd widths included. */
		view_set_window(&v, t0 + span, t0 + 2 * span + (int64_t)(rnd() % 2), 0);
		view_set_cursor(&v, (int)(rnd() % (unsigned)cols));
		s0 = v.start_ns;
		e0 = v.end_ns;
		t = view_col_ns(&v, v.cursor);

		cr_assert_eq(view_do(&v, CMD_ZOOM_IN), VIEW_RECALC);
		cr_assert_eq(v.end_ns - v.start_ns, (e0 - s0) / 2);
		cr_assert_eq(view_col_ns(&v, v.cursor), t, "the cursor's time moved");
		cr_assert_eq(view_ns_col(&v, t), v.cursor);
		cr_assert_eq(v.nzoom, 1);

		cr_assert_eq(view_do(&v, CMD_ZOOM_OUT), VIEW_RECALC);
		assert_window(&v, s0, e0);
		cr_assert_eq(v.nzoom, 2, "zooming out pushes too");

		/* Out then in around another cursor column. */
		view_set_cursor(&v, (int)(rnd() % (unsigned)cols));
		t = view_col_ns(&v, v.cursor);
		view_do(&v, CMD_ZOOM_OUT);
		cr_assert_eq(v.end_ns - v.start_ns, 2 * (e0 - s0));
		cr_assert_eq(view_col_ns(&v, v.cursor), t);
		view_do(&v, CMD_ZOOM_IN);
		assert_window(&v, s0, e0);
		view_free(&v);
	}
}

Test(window, zoom_in_at_the_minimum_inverts)
{
	struct view v;

	bare_view(&v, 0, 1000000, 100);
	view_set_window(&v, 5000, 5150, 0);
	view_set_cursor(&v, 37);
	cr_assert_eq(view_do(&v, CMD_ZOOM_IN), VIEW_RECALC);
	cr_assert_eq(v.end_ns - v.start_ns, 100, "not below one ns a column");
	cr_assert_eq(view_col_ns(&v, 37), 5000 + 37 * 150 / 100);
	view_do(&v, CMD_ZOOM_OUT);
	assert_window(&v, 5000, 5150);
	view_free(&v);
}

Test(window, zoom_stack)
{
	struct view v;

	bare_view(&v, 0, 1000000000, 100);
	cr_assert_eq(view_do(&v, CMD_UNZOOM), VIEW_NONE);
	cr_assert_str_eq(v.message, "nothing to go back to");

	view_set_window(&v, 1000, 2000, 1);
	view_set_window(&v, 1500, 1800, 1);
	cr_assert_eq(v.nzoom, 2);
	cr_assert_eq(v.zooms[0].start_ns, 0);
	cr_assert_eq(v.zooms[0].end_ns, 1000000000);
	cr_assert_eq(v.zooms[1].start_ns, 1000);
	cr_assert_eq(view_do(&v, CMD_UNZOOM), VIEW_RECALC);
	assert_window(&v, 1000, 2000);
	cr_assert_eq(view_do(&v, CMD_UNZOOM), VIEW_RECALC);
	assert_window(&v, 0, 1000000000);
	cr_assert_eq(v.nzoom, 0);

	/* Overflow: 70 pushes keep the latest VIEW_ZOOM_DEPTH windows. */
	for (int i = 1; i <= 70; i++)
		view_set_window(&v, i * 1000, i * 1000 + 500, 1);
	cr_assert_eq(v.nzoom, VIEW_ZOOM_DEPTH);
	/* The window before push i (i = 2..70) was i - 1's. */
	for (int i = 69; i >= 70 - VIEW_ZOOM_DEPTH; i--) {
		cr_assert_eq(view_do(&v, CMD_UNZOOM), VIEW_RECALC);
		assert_window(&v, i * 1000, i * 1000 + 500);
	}
	cr_assert_eq(v.nzoom, 0);
	cr_assert_eq(view_do(&v, CMD_UNZOOM), VIEW_NONE);
	assert_window(&v, 6000, 6500);
	view_free(&v);
}

Test(window, simple_commands)
{
	struct view v;

	bare_view(&v, 0, 1000000, 100);
	cr_assert_eq(view_do(&v, CMD_LANE_UP), VIEW_NONE);
	cr_assert_eq(v.lane_scroll, 0);
	cr_assert_eq(view_do(&v, CMD_LANE_DOWN), VIEW_REPAINT);
	cr_assert_eq(view_do(&v, CMD_LANE_DOWN), VIEW_REPAINT);
	cr_assert_eq(view_do(&v, CMD_LANE_UP), VIEW_REPAINT);
	cr_assert_eq(v.lane_scroll, 1);
	cr_assert_eq(v.show_cpu, 0);
	cr_assert_eq(view_do(&v, CMD_TOGGLE_CPU), VIEW_REPAINT);
	cr_assert_eq(v.show_cpu, 1);
	cr_assert_eq(v.panel, PANEL_WINDOW);
	view_do(&v, CMD_PANEL);
	cr_assert_eq(v.panel, PANEL_KERNELS);
	view_do(&v, CMD_PANEL);
	view_do(&v, CMD_PANEL);
	cr_assert_eq(v.panel, PANEL_WINDOW);
	view_do(&v, CMD_HELP);
	cr_assert_eq(v.help, 1);
	view_do(&v, CMD_HELP);
	cr_assert_eq(v.help, 0);
	cr_assert_eq(view_do(&v, CMD_SEARCH), VIEW_REPAINT);
	cr_assert_eq(view_do(&v, CMD_QUIT), VIEW_QUIT);
	cr_assert_eq(view_set_cursor(&v, 500), VIEW_REPAINT);
	cr_assert_eq(v.cursor, 99);
	view_set_cursor(&v, -3);
	cr_assert_eq(v.cursor, 0);
	/* Without analyses, navigation says so instead of crashing. */
	cr_assert_eq(view_do(&v, CMD_NEXT_STEP), VIEW_REPAINT);
	cr_assert_str_eq(v.message, "no trace");
	cr_assert_eq(view_do(&v, CMD_NEXT_RANK), VIEW_REPAINT);
	cr_assert_eq(v.rank, 0);
	view_free(&v);
}

/* ---- navigation ---- */

/* Sets the cursor onto the column holding ts_us. */
static void
cursor_at(struct view *v, long long ts_us)
{
	int c = view_ns_col(v, ts_us * US);

	cr_assert(c >= 0 && c < v->cols);
	view_set_cursor(v, c);
}

Test(nav, init_fits_gpu_activity)
{
	struct fix f;

	fix_nav(&f, 200);
	cr_assert_eq(f.v.t0_ns, 3000 * US);
	cr_assert_eq(f.v.t1_ns, 21895 * US);
	assert_window(&f.v, 3050 * US, 21845 * US);
	cr_assert_eq(f.v.cursor, 100);
	cr_assert_eq(f.v.rank, 0);
	cr_assert_eq(f.v.sel, SEL_NONE);
	cr_assert_eq(f.an[0].nsteps, 7);
	/* FIT after a zoom comes back, pushed. */
	view_do(&f.v, CMD_ZOOM_IN);
	cr_assert_eq(view_do(&f.v, CMD_FIT), VIEW_RECALC);
	assert_window(&f.v, 3050 * US, 21845 * US);
	cr_assert_eq(f.v.nzoom, 2);
	fix_free(&f);
}

Test(nav, steps_forward_and_backward)
{
	struct fix f;

	fix_nav(&f, 200);
	/*
	 * The cursor (column 100 of the fit view) is at 12447.5 us, in step 4
	 * ([12050,12840) on the GPU): ] selects the step under it, then the
	 * next one, step 5, GPU [15050,17050).
	 */
	cr_assert_eq(view_do(&f.v, CMD_NEXT_STEP), VIEW_RECALC);
	cr_assert_eq(f.v.sel, SEL_STEP);
	cr_assert_eq(f.v.sel_index, 3);
	assert_zoomed_to(&f.v, 12050, 12840);
	cr_assert_eq(f.v.nzoom, 1);
	view_do(&f.v, CMD_NEXT_STEP);
	cr_assert_eq(f.v.sel_index, 4);
	assert_zoomed_to(&f.v, 15050, 17050);
	view_do(&f.v, CMD_NEXT_STEP);
	cr_assert_eq(f.v.sel_index, 5);
	assert_zoomed_to(&f.v, 18050, 18855);
	view_do(&f.v, CMD_NEXT_STEP);
	cr_assert_eq(f.v.sel_index, 6);
	cr_assert_eq(view_do(&f.v, CMD_NEXT_STEP) & VIEW_RECALC, VIEW_REPAINT);
	cr_assert_str_eq(f.v.message, "no next step");
	cr_assert_eq(f.v.sel_index, 6);
	assert_zoomed_to(&f.v, 21050, 21845);
	view_do(&f.v, CMD_PREV_STEP);
	cr_assert_eq(f.v.sel_index, 5);
	cr_assert_str_eq(f.v.message, "");
	cr_assert_eq(f.v.nzoom, 5);
	/* z goes back through the steps. */
	view_do(&f.v, CMD_UNZOOM);
	assert_zoomed_to(&f.v, 21050, 21845);

	/*
	 * With nothing selected, backward: the step under the cursor too,
	 * then step 3 [9050,9860); with the cursor between steps (13500 us),
	 * the last step whose GPU extent ends at or before it.
	 */
	view_do(&f.v, CMD_FIT);
	f.v.sel = SEL_NONE;
	view_do(&f.v, CMD_PREV_STEP);
	cr_assert_eq(f.v.sel, SEL_STEP);
	cr_assert_eq(f.v.sel_index, 3);
	view_do(&f.v, CMD_PREV_STEP);
	cr_assert_eq(f.v.sel_index, 2);
	assert_zoomed_to(&f.v, 9050, 9860);
	view_do(&f.v, CMD_FIT);
	f.v.sel = SEL_NONE;
	cursor_at(&f.v, 13500);
	view_do(&f.v, CMD_PREV_STEP);
	cr_assert_eq(f.v.sel_index, 3);
	view_do(&f.v, CMD_FIT);
	f.v.sel = SEL_NONE;
	cursor_at(&f.v, 13500);
	view_do(&f.v, CMD_NEXT_STEP);
	cr_assert_eq(f.v.sel_index, 4);
	/*
	 * A window already on the step under the cursor (as --step=N opens)
	 * makes it the current one: ] goes on to the next, [ to the previous.
	 */
	view_zoom_to(&f.v, 12050 * US, 12840 * US);
	f.v.sel = SEL_NONE;
	cursor_at(&f.v, 12400);
	view_do(&f.v, CMD_NEXT_STEP);
	cr_assert_eq(f.v.sel_index, 4);
	view_zoom_to(&f.v, 12050 * US, 12840 * US);
	f.v.sel = SEL_NONE;
	cursor_at(&f.v, 12400);
	view_do(&f.v, CMD_PREV_STEP);
	cr_assert_eq(f.v.sel_index, 2);
	view_do(&f.v, CMD_PREV_STEP);
	view_do(&f.v, CMD_PREV_STEP);
	cr_assert_eq(f.v.sel_index, 0);
	cr_assert_eq(view_do(&f.v, CMD_PREV_STEP), VIEW_REPAINT);
	cr_assert_str_eq(f.v.message, "no previous step");

	/* Enter zooms back to the selection after wandering off. */
	view_do(&f.v, CMD_ZOOM_OUT);
	view_do(&f.v, CMD_ZOOM_OUT);
	cr_assert_eq(view_do(&f.v, CMD_ZOOM_SELECTED), VIEW_RECALC);
	assert_zoomed_to(&f.v, 3050, 3850);
	f.v.sel = SEL_NONE;
	cr_assert_eq(view_do(&f.v, CMD_ZOOM_SELECTED), VIEW_REPAINT);
	cr_assert_str_eq(f.v.message, "nothing selected");
	fix_free(&f);
}

/*
 * z and y walk the places visited as a browser's Back and Forward: the
 * window, the selection and the cursor come back; a new visit drops the
 * places ahead; jumps that select without zooming are visits too, panning
 * and the cursor are not.
 */
Test(nav, history_back_and_forward)
{
	struct fix f;
	int cur;

	fix_nav(&f, 200);
	view_do(&f.v, CMD_NEXT_STEP);           /* step 4, index 3 */
	view_do(&f.v, CMD_NEXT_STEP);           /* step 5 */
	cr_assert_eq(f.v.sel_index, 4);
	cr_assert_eq(f.v.nzoom, 2);
	cr_assert_eq(view_do(&f.v, CMD_UNZOOM), VIEW_RECALC);
	cr_assert_eq(f.v.sel, SEL_STEP);
	cr_assert_eq(f.v.sel_index, 3, "back: the step selected there");
	assert_zoomed_to(&f.v, 12050, 12840);
	cr_assert_eq(f.v.nahead, 1);
	cr_assert_eq(view_do(&f.v, CMD_FORWARD), VIEW_RECALC);
	cr_assert_eq(f.v.sel_index, 4, "forward: step 5 again");
	assert_zoomed_to(&f.v, 15050, 17050);
	cr_assert_eq(view_do(&f.v, CMD_FORWARD), VIEW_NONE);
	cr_assert_str_eq(f.v.message, "nothing to go forward to (z goes back)");
	/* back twice: where it started, nothing selected, the cursor as it was */
	view_do(&f.v, CMD_UNZOOM);
	view_do(&f.v, CMD_UNZOOM);
	cr_assert_eq(f.v.sel, SEL_NONE);
	assert_window(&f.v, 3050 * US, 21845 * US);
	cr_assert_eq(f.v.cursor, 100);
	cr_assert_eq(f.v.nahead, 2);
	/* panning and the cursor are not visits; a new visit drops what was ahead */
	view_do(&f.v, CMD_PAN_RIGHT);
	view_do(&f.v, CMD_CURSOR_LEFT);
	cr_assert_eq(f.v.nzoom, 0);
	cr_assert_eq(f.v.nahead, 2);
	view_do(&f.v, CMD_NEXT_STEP);
	cr_assert_eq(f.v.nzoom, 1);
	cr_assert_eq(f.v.nahead, 0);
	/* the cursor moves a column, the window stays; at the edge it stops */
	cur = f.v.cursor;
	{
		int64_t s = f.v.start_ns, e = f.v.end_ns;

		cr_assert_eq(view_do(&f.v, CMD_CURSOR_RIGHT), VIEW_REPAINT);
		cr_assert_eq(f.v.cursor, cur + 1);
		assert_window(&f.v, s, e);
		view_set_cursor(&f.v, 0);
		cr_assert_eq(view_do(&f.v, CMD_CURSOR_LEFT), VIEW_REPAINT);
		cr_assert_eq(f.v.cursor, 0);
		cr_assert_str_eq(f.v.message,
		    "the cursor is at the window's edge (pan with Left and Right)");
	}
	fix_free(&f);
}

/*
 * The marks: a drag across columns 20..59 marks exactly those columns; Z
 * zooms to them (pushed: z comes back), the window then the range itself.
 */
Test(nav, drag_marks_and_zoom_to_them)
{
	struct fix f;
	int64_t a, b, s0, e0;

	fix_nav(&f, 200);
	s0 = f.v.start_ns;
	e0 = f.v.end_ns;
	cr_assert_eq(view_do(&f.v, CMD_ZOOM_MARKS), VIEW_REPAINT);
	cr_assert_str_eq(f.v.message,
	    "no range: set both marks (< and >, or drag across the lanes)");
	cr_assert_eq(view_select_mark_columns(&f.v, 59, 20), VIEW_RECALC);
	cr_assert(view_marked_range(&f.v, &a, &b));
	cr_assert_eq(a, view_col_ns(&f.v, 20));
	cr_assert_eq(b, view_col_ns(&f.v, 60));
	cr_assert_eq(f.v.cursor, 20);
	cr_assert_eq(view_do(&f.v, CMD_ZOOM_MARKS), VIEW_RECALC);
	assert_window(&f.v, a, b);
	cr_assert_eq(f.v.nzoom, 1);
	view_do(&f.v, CMD_UNZOOM);
	assert_window(&f.v, s0, e0);
	fix_free(&f);
}

Test(nav, outliers_wrap)
{
	struct fix f;

	fix_nav(&f, 200);
	for (size_t i = 0; i < 7; i++)
		cr_assert_eq(f.an[0].steps[i].outlier, i == 1 || i == 4,
		    "step %zu z %.2f", i + 1, f.an[0].steps[i].z);
	/* From the centre (in step 4): step 5, then around to step 2. */
	cr_assert_eq(view_do(&f.v, CMD_NEXT_OUTLIER), VIEW_RECALC);
	cr_assert_eq(f.v.sel, SEL_STEP);
	cr_assert_eq(f.v.sel_index, 4);
	cr_assert_str_eq(f.v.message, "");
	assert_zoomed_to(&f.v, 15050, 17050);
	view_do(&f.v, CMD_NEXT_OUTLIER);
	cr_assert_eq(f.v.sel_index, 1);
	cr_assert_str_eq(f.v.message, "wrapped to the first outlier step");
	assert_zoomed_to(&f.v, 6050, 7950);
	view_do(&f.v, CMD_NEXT_OUTLIER);
	cr_assert_eq(f.v.sel_index, 4);
	/* A selected step that is not an outlier: the next outlier after it. */
	f.v.sel_index = 2;
	view_do(&f.v, CMD_NEXT_OUTLIER);
	cr_assert_eq(f.v.sel_index, 4);
	fix_free(&f);
}

Test(nav, no_outliers_no_steps_no_layers)
{
	struct fix f;

	j_begin();
	step(1, 0, 100);
	step(2, 100, 200);
	kernel(1, 10, "k", 20, 30);
	j_load(&f.t[0]);
	fix_view(&f, 1, 80);
	cr_assert_eq(view_do(&f.v, CMD_NEXT_OUTLIER), VIEW_REPAINT);
	cr_assert_str_eq(f.v.message,
	    "no outlier steps (outliers need at least 5 steps)");
	cr_assert_eq(f.v.sel, SEL_NONE);
	cr_assert_eq(view_do(&f.v, CMD_NEXT_LAYER), VIEW_REPAINT);
	cr_assert_str_eq(f.v.message, "no layers in this trace");
	cr_assert_eq(view_do(&f.v, CMD_WORST_LAYER), VIEW_REPAINT);
	cr_assert_str_eq(f.v.message, "no layers in this trace");
	/* One kernel: no gaps at all. */
	cr_assert_eq(view_do(&f.v, CMD_NEXT_GAP), VIEW_REPAINT);
	cr_assert_str_eq(f.v.message, "no gaps >= 10 us");
	cr_assert_eq(view_do(&f.v, CMD_PREV_GAP), VIEW_REPAINT);
	cr_assert_str_eq(f.v.message, "no gaps >= 10 us");
	cr_assert_eq(f.v.sel, SEL_NONE);
	fix_free(&f);

	j_begin();
	kernel(1, 10, "k", 20, 30);
	j_load(&f.t[0]);
	fix_view(&f, 1, 80);
	cr_assert_eq(view_do(&f.v, CMD_NEXT_STEP), VIEW_REPAINT);
	cr_assert_str_eq(f.v.message, "no ProfilerStep annotations in this trace");
	cr_assert_eq(view_do(&f.v, CMD_NEXT_OUTLIER), VIEW_REPAINT);
	cr_assert_str_eq(f.v.message,
	    "no outlier steps (outliers need at least 5 steps)");
	fix_free(&f);
}

Test(nav, layers_in_execution_order)
{
	struct fix f;

	fsdp2_trace(&f.t[0], FSDP2_PLAIN);
	fix_view(&f, 1, 100);
	cr_assert_eq(f.an[0].nlayers, 5);
	assert_window(&f.v, 20 * US, 520 * US);
	/*
	 * The cursor at 270 us is in layers.1 bwd [230,340): } selects it,
	 * then the next in the array, layers.0 bwd.
	 */
	cr_assert_eq(view_do(&f.v, CMD_NEXT_LAYER), VIEW_RECALC);
	cr_assert_eq(f.v.sel, SEL_LAYER);
	cr_assert_eq(f.v.sel_index, 3);
	assert_zoomed_to(&f.v, 230, 340);
	view_do(&f.v, CMD_NEXT_LAYER);
	cr_assert_eq(f.v.sel_index, 4);
	assert_zoomed_to(&f.v, 310, 380);
	cr_assert_eq(view_do(&f.v, CMD_NEXT_LAYER), VIEW_REPAINT);
	cr_assert_str_eq(f.v.message, "no next layer");
	/* Backward through the array: layers.1 bwd, layers.1 fwd, ... */
	view_do(&f.v, CMD_PREV_LAYER);
	cr_assert_eq(f.v.sel_index, 3);
	assert_zoomed_to(&f.v, 230, 340);
	view_do(&f.v, CMD_PREV_LAYER);
	cr_assert_eq(f.v.sel_index, 2);
	assert_zoomed_to(&f.v, 100, 150);
	view_do(&f.v, CMD_PREV_LAYER);
	cr_assert_eq(f.v.sel_index, 1);
	assert_zoomed_to(&f.v, 20, 100);
	view_do(&f.v, CMD_PREV_LAYER);
	cr_assert_eq(f.v.sel_index, 0);
	assert_zoomed_to(&f.v, 20, 150);
	cr_assert_eq(view_do(&f.v, CMD_PREV_LAYER), VIEW_REPAINT);
	cr_assert_str_eq(f.v.message, "no previous layer");
	view_do(&f.v, CMD_NEXT_LAYER);
	cr_assert_eq(f.v.sel_index, 1);

	/* Nothing selected, { takes the layer under the cursor too... */
	view_do(&f.v, CMD_FIT);
	f.v.sel = SEL_NONE;
	view_do(&f.v, CMD_PREV_LAYER);
	cr_assert_eq(f.v.sel_index, 3);
	/* ... and from between layers (200 us) the last that ended before. */
	view_do(&f.v, CMD_FIT);
	f.v.sel = SEL_NONE;
	cursor_at(&f.v, 200);
	view_do(&f.v, CMD_PREV_LAYER);
	cr_assert_eq(f.v.sel_index, 2);
	/*
	 * From a selected step, } starts at its first layer and { at its
	 * last, whatever the cursor; then on through the array.
	 */
	view_do(&f.v, CMD_FIT);
	f.v.sel = SEL_STEP;
	f.v.sel_index = 0;
	view_do(&f.v, CMD_NEXT_LAYER);
	cr_assert_eq(f.v.sel, SEL_LAYER);
	cr_assert_eq(f.v.sel_index, 0);
	view_do(&f.v, CMD_NEXT_LAYER);
	cr_assert_eq(f.v.sel_index, 1);
	f.v.sel = SEL_STEP;
	f.v.sel_index = 0;
	view_do(&f.v, CMD_PREV_LAYER);
	cr_assert_eq(f.v.sel, SEL_LAYER);
	cr_assert_eq(f.v.sel_index, 4);
	fix_free(&f);
}

Test(nav, worst_layer_in_view)
{
	struct fix f;

	fsdp2_trace(&f.t[0], FSDP2_PLAIN);
	fix_view(&f, 1, 100);
	/* Everything in view: layers.1 backward, 50 us. */
	cr_assert_eq(view_do(&f.v, CMD_WORST_LAYER), VIEW_RECALC);
	cr_assert_eq(f.v.sel, SEL_LAYER);
	cr_assert_eq(f.v.sel_index, 3);
	assert_zoomed_to(&f.v, 230, 340);
	/* The forward only: layers.0 forward (30) beats the rest (0). */
	view_set_window(&f.v, 0, 200 * US, 0);
	view_do(&f.v, CMD_WORST_LAYER);
	cr_assert_eq(f.v.sel_index, 1);
	/* [345, 400): only layers.0 backward's extent [310,380) overlaps. */
	view_set_window(&f.v, 345 * US, 400 * US, 0);
	view_do(&f.v, CMD_WORST_LAYER);
	cr_assert_eq(f.v.sel_index, 4);
	/* [340, 400): layers.1 backward ends at 340, so is not in view. */
	view_set_window(&f.v, 340 * US, 400 * US, 0);
	view_do(&f.v, CMD_WORST_LAYER);
	cr_assert_eq(f.v.sel_index, 4);
	assert_zoomed_to(&f.v, 310, 380);
	/* [339, 400): both; layers.1 backward wins. */
	view_set_window(&f.v, 339 * US, 400 * US, 0);
	view_do(&f.v, CMD_WORST_LAYER);
	cr_assert_eq(f.v.sel_index, 3);
	/* Only layers.1 forward (own exposed 0): nothing to blame. */
	view_set_window(&f.v, 120 * US, 140 * US, 0);
	f.v.sel = SEL_NONE;
	cr_assert_eq(view_do(&f.v, CMD_WORST_LAYER), VIEW_REPAINT);
	cr_assert_str_eq(f.v.message,
	    "no layer in view has exposed communication of its own");
	cr_assert_eq(f.v.sel, SEL_NONE);
	assert_window(&f.v, 120 * US, 140 * US);
	/* No layer at all in [400, 520). */
	view_set_window(&f.v, 400 * US, 520 * US, 0);
	cr_assert_eq(view_do(&f.v, CMD_WORST_LAYER), VIEW_REPAINT);
	cr_assert_str_eq(f.v.message, "no layer with GPU activity in view");
	fix_free(&f);
}

#define assert_gap(v, i, a_us, b_us) do { \
	cr_assert_eq((v)->sel, SEL_GAP); \
	cr_assert_eq((v)->sel_index, (i)); \
	cr_assert_eq((v)->sel_gap.start_ns, (a_us) * US); \
	cr_assert_eq((v)->sel_gap.dur_ns, ((b_us) - (a_us)) * US); \
	assert_window(v, (a_us) * US - ((b_us) - (a_us)) * US, \
	    (b_us) * US + ((b_us) - (a_us)) * US); \
} while (0)

Test(nav, gaps)
{
	struct fix f;

	fix_nav(&f, 200);
	cr_assert_eq(f.an[0].dev.ngaps, 12);
	/*
	 * The cursor at 9000 us is in gap 3 [7950,9050): g selects it (a third
	 * of the screen), then gap 4 [9860,12050).
	 */
	cursor_at(&f.v, 9000);
	cr_assert_eq(view_do(&f.v, CMD_NEXT_GAP), VIEW_RECALC);
	assert_gap(&f.v, 3, 7950, 9050);
	cr_assert_eq(f.v.nzoom, 1);
	view_do(&f.v, CMD_NEXT_GAP);
	assert_gap(&f.v, 4, 9860, 12050);
	view_do(&f.v, CMD_NEXT_GAP);
	assert_gap(&f.v, 5, 12400, 12500);
	view_do(&f.v, CMD_PREV_GAP);
	assert_gap(&f.v, 4, 9860, 12050);
	/* The 5 us holes of step 3 are not gaps. */
	view_do(&f.v, CMD_PREV_GAP);
	assert_gap(&f.v, 3, 7950, 9050);

	/* From the cursor inside step 3 (9450 us), both ways. */
	view_do(&f.v, CMD_FIT);
	f.v.sel = SEL_NONE;
	cursor_at(&f.v, 9450);
	view_do(&f.v, CMD_PREV_GAP);
	assert_gap(&f.v, 3, 7950, 9050);
	view_do(&f.v, CMD_FIT);
	f.v.sel = SEL_NONE;
	cursor_at(&f.v, 9450);
	view_do(&f.v, CMD_NEXT_GAP);
	assert_gap(&f.v, 4, 9860, 12050);

	/* The ends. */
	view_do(&f.v, CMD_FIT);
	f.v.sel = SEL_NONE;
	view_set_cursor(&f.v, 0);
	/* none before the cursor: the nearest the other way, said */
	view_do(&f.v, CMD_PREV_GAP);
	assert_gap(&f.v, 0, 3400, 3500);
	cr_assert_str_eq(f.v.message,
	    "no gap before the cursor: the first one after it");
	cr_assert_eq(view_do(&f.v, CMD_PREV_GAP), VIEW_REPAINT);
	cr_assert_str_eq(f.v.message, "no previous gap");
	view_do(&f.v, CMD_FIT);
	f.v.sel = SEL_NONE;
	view_set_cursor(&f.v, f.v.cols - 1);
	view_do(&f.v, CMD_NEXT_GAP);
	cr_assert_eq(f.v.sel, SEL_GAP);
	cr_assert_eq(f.v.sel_index, 11);
	cr_assert_eq(f.v.sel_gap.start_ns, 21400 * US);
	cr_assert_str_eq(f.v.message,
	    "no gap after the cursor: the last one before it");
	f.v.sel_index = 11;
	f.v.sel_gap.start_ns = 21400 * US;
	cr_assert_eq(view_do(&f.v, CMD_NEXT_GAP), VIEW_REPAINT);
	cr_assert_str_eq(f.v.message, "no next gap");
	/* Near the end the window is shifted in, the gap still selected. */
	view_do(&f.v, CMD_PREV_GAP);
	cr_assert_eq(f.v.sel_index, 10);
	cr_assert_eq(f.v.sel_gap.start_ns, 18855 * US);
	assert_window(&f.v, 21895 * US - 3 * 2195 * US, 21895 * US);
	/* Enter on a gap: the gap with margins. */
	view_do(&f.v, CMD_PREV_GAP);
	assert_gap(&f.v, 9, 18400, 18500);
	view_do(&f.v, CMD_ZOOM_OUT);
	view_do(&f.v, CMD_ZOOM_SELECTED);
	assert_zoomed_to(&f.v, 18400, 18500);
	fix_free(&f);
}

/* ---- search ---- */

static const char *
sel_name(const struct fix *f, size_t a)
{
	cr_assert_eq(f->v.sel, SEL_EVENT);
	return trace_str(&f->t[a], f->t[a].events[f->v.sel_index].name);
}

static int64_t
sel_ts(const struct fix *f, size_t a)
{
	return f->t[a].events[f->v.sel_index].ts_ns;
}

Test(search, next_previous_case_insensitive)
{
	struct fix f;

	fix_nav(&f, 200);
	view_set_window(&f.v, 10000 * US, 14000 * US, 0);
	view_set_cursor(&f.v, 100);     /* 12000 us */
	/*
	 * The first match at or after the cursor: A of step 4 at 12050, the
	 * 7th of the 14 (an A and a B per step): in the window and wider than
	 * a column, so the window stays (its numbers do not change by a
	 * search).
	 */
	cr_assert_eq(view_search(&f.v, "gemm"), VIEW_REPAINT);
	cr_assert_str_eq(f.v.query, "gemm");
	cr_assert_str_eq(sel_name(&f, 0), "sm90_gemm_A");
	cr_assert_eq(sel_ts(&f, 0), 12050 * US);
	cr_assert_eq(f.v.match_k, 7);
	cr_assert_eq(f.v.match_n, 14);
	cr_assert_str_eq(f.v.message, "");
	assert_window(&f.v, 10000 * US, 14000 * US);
	cr_assert_eq(f.v.nzoom, 1, "the search is a visit: z goes back to no selection");
	cr_assert_eq(f.v.zooms[0].sel, SEL_NONE);
	cr_assert_eq(f.v.show_cpu, 0, "a GPU match leaves the CPU lanes off");
	/* n: B of step 4, "Fused_GEMM_B" (upper case), in view too. */
	view_do(&f.v, CMD_NEXT_MATCH);
	cr_assert_str_eq(sel_name(&f, 0), "Fused_GEMM_B");
	cr_assert_eq(sel_ts(&f, 0), 12500 * US);
	cr_assert_eq(f.v.match_k, 8);
	cr_assert_eq(f.v.match_n, 14);
	cr_assert_str_eq(f.v.message, "");
	assert_window(&f.v, 10000 * US, 14000 * US);
	/* Out of view: centred, same zoom, not pushed ([15050,15400)). */
	view_do(&f.v, CMD_NEXT_MATCH);
	cr_assert_str_eq(sel_name(&f, 0), "sm90_gemm_A");
	cr_assert_eq(sel_ts(&f, 0), 15050 * US);
	assert_window(&f.v, 13225 * US, 17225 * US);
	cr_assert_eq(f.v.nzoom, 3, "each match is a visit (the window not zoomed)");
	cr_assert_eq(view_ns_col(&f.v, 15050 * US), f.v.cursor);
	/* N, N, N: back past step 4 to B of step 3 (nvjet_C does not match). */
	view_do(&f.v, CMD_PREV_MATCH);
	cr_assert_eq(sel_ts(&f, 0), 12500 * US);
	assert_window(&f.v, 10670 * US, 14670 * US);
	view_do(&f.v, CMD_PREV_MATCH);
	cr_assert_eq(sel_ts(&f, 0), 12050 * US);
	assert_window(&f.v, 10670 * US, 14670 * US);
	view_do(&f.v, CMD_PREV_MATCH);
	cr_assert_str_eq(sel_name(&f, 0), "Fused_GEMM_B");
	cr_assert_eq(sel_ts(&f, 0), 9500 * US);
	assert_window(&f.v, 7680 * US, 11680 * US);
	cr_assert_eq(f.v.match_k, 6);
	cr_assert_eq(f.v.match_n, 14);
	cr_assert_str_eq(f.v.message, "");

	/* An extended regular expression, ignoring case. */
	cr_assert_eq(view_search(&f.v, "^(fused|sm90)_GEMM_[b]$") & VIEW_REPAINT, VIEW_REPAINT);
	cr_assert_str_eq(sel_name(&f, 0), "Fused_GEMM_B");
	cr_assert_eq(f.v.match_k, 3);
	cr_assert_eq(f.v.match_n, 7);
	cr_assert_str_eq(f.v.message, "");
	/* Not a regular expression: searched as text, and said. */
	cr_assert_eq(view_search(&f.v, "gemm_a("), VIEW_REPAINT);
	cr_assert_str_eq(f.v.message,
	    "no match for /gemm_a( (as text: not a regular expression)");

	/* A match narrower than a column (360 us here) is zoomed to, pushed. */
	view_resize(&f.v, 50);
	view_set_window(&f.v, 3000 * US, 21000 * US, 0);
	view_set_cursor(&f.v, 0);
	f.v.sel = SEL_NONE;
	{
		int nz = f.v.nzoom;

		view_search(&f.v, "nvjet");
		cr_assert_lt(f.v.end_ns - f.v.start_ns, 3000 * US);
		cr_assert(f.v.start_ns <= sel_ts(&f, 0) && f.v.end_ns >=
		    sel_ts(&f, 0) + f.t[0].events[f.v.sel_index].dur_ns);
		cr_assert_eq(f.v.nzoom, nz + 1);
	}
	view_resize(&f.v, 200);

	/* Wider than the window: fitted, pushed. */
	view_set_window(&f.v, 12000 * US, 12100 * US, 0);
	view_set_cursor(&f.v, 0);
	{
		int nz = f.v.nzoom;

		cr_assert_eq(view_search(&f.v, "GEMM_a"), VIEW_RECALC);
		cr_assert_eq(sel_ts(&f, 0), 12050 * US);
		assert_zoomed_to(&f.v, 12050, 12400);
		cr_assert_eq(f.v.nzoom, nz + 1);
	}

	/* A CPU match wraps around and turns the CPU lanes on. */
	cr_assert_eq(view_search(&f.v, "PROFILERSTEP#3") & VIEW_REPAINT, VIEW_REPAINT);
	cr_assert_str_eq(sel_name(&f, 0), "ProfilerStep#3");
	cr_assert_str_eq(f.v.message, "/PROFILERSTEP#3: match 1 of 1, wrapped to the start");
	cr_assert_eq(f.v.show_cpu, 1);
	cr_assert_eq(view_do(&f.v, CMD_NEXT_MATCH) & VIEW_REPAINT, VIEW_REPAINT);
	cr_assert_str_eq(sel_name(&f, 0), "ProfilerStep#3");
	cr_assert_str_eq(f.v.message, "/PROFILERSTEP#3: match 1 of 1, wrapped to the start");

	/*
	 * No match: the last search's match is no longer selected (it is no
	 * match of this query: the panel would call it "match 1 of 1"), and
	 * the search's counts are gone.
	 */
	cr_assert_eq(view_search(&f.v, "xyz"), VIEW_REPAINT);
	cr_assert_str_eq(f.v.message, "no match for /xyz");
	cr_assert_eq(f.v.sel, SEL_NONE);
	cr_assert_eq(f.v.match_ev, -1);
	cr_assert_eq(f.v.match_n, 0);
	cr_assert_eq(view_do(&f.v, CMD_PREV_MATCH), VIEW_REPAINT);
	cr_assert_str_eq(f.v.message, "no match for /xyz");
	/* a selection that is no match (a step) stays */
	view_do(&f.v, CMD_NEXT_STEP);
	cr_assert_eq(f.v.sel, SEL_STEP);
	view_search(&f.v, "xyz");
	cr_assert_eq(f.v.sel, SEL_STEP);
	fix_free(&f);
}

Test(search, wraps_backward_and_repeats)
{
	struct fix f;

	fix_nav(&f, 200);
	cr_assert_eq(view_do(&f.v, CMD_NEXT_MATCH), VIEW_REPAINT);
	cr_assert_str_eq(f.v.message, "no search yet: / searches");
	view_set_cursor(&f.v, 0);       /* 3050 us */
	view_search(&f.v, "nvjet");
	cr_assert_eq(sel_ts(&f, 0), 9405 * US);
	/* The only match: n and N wrap onto it. */
	view_do(&f.v, CMD_PREV_MATCH);
	cr_assert_eq(sel_ts(&f, 0), 9405 * US);
	cr_assert_str_eq(f.v.message, "/nvjet: match 1 of 1, wrapped to the end");
	/* An empty text repeats the last query from the cursor. */
	view_search(&f.v, "gemm_a");
	view_set_cursor(&f.v, 0);
	view_search(&f.v, "");
	cr_assert_str_eq(f.v.query, "gemm_a");
	cr_assert_str_eq(sel_name(&f, 0), "sm90_gemm_A");
	/* Before the first A (3050): N wraps to the last, step 7's at 21050. */
	view_set_window(&f.v, 3000 * US, 4000 * US, 0);
	f.v.sel = SEL_NONE;
	view_set_cursor(&f.v, 0);
	view_do(&f.v, CMD_PREV_MATCH);
	cr_assert_eq(sel_ts(&f, 0), 21050 * US);
	cr_assert_str_eq(f.v.message, "/gemm_a: match 7 of 7, wrapped to the end");
	fix_free(&f);
}

/* ---- ranks and recalc ---- */

/* v's numbers equal the modules' for the current analysis and window. */
static void
check_recalc(const struct fix *f)
{
	const struct analysis *a = &f->an[f->v.rank];
	struct window_metrics m;
	struct kernel_total top[METRICS_TOP_K];
	size_t ntop, count = 0;

	metrics_window(&a->dev, f->v.start_ns, f->v.end_ns, &m);
	cr_assert_eq(f->v.m.start_ns, f->v.start_ns);
	cr_assert_eq(f->v.m.end_ns, m.end_ns);
	cr_assert_eq(f->v.m.busy_ns, m.busy_ns);
	cr_assert_eq(f->v.m.idle_ns, m.idle_ns);
	cr_assert_eq(f->v.m.compute_ns, m.compute_ns);
	cr_assert_eq(f->v.m.comm_ns, m.comm_ns);
	cr_assert_eq(f->v.m.memory_ns, m.memory_ns);
	cr_assert_eq(f->v.m.overlap_ns, m.overlap_ns);
	cr_assert_eq(f->v.m.exposed_comm_ns, m.exposed_comm_ns);
	cr_assert_eq(memcmp(&f->v.m.overlap_pct, &m.overlap_pct, sizeof m.overlap_pct), 0);
	for (int k = 0; k < IDLE_KINDS; k++)
		cr_assert_eq(f->v.m.idle_by_kind_ns[k], m.idle_by_kind_ns[k]);
	cr_assert_eq(f->v.m.gap_count, m.gap_count);
	cr_assert_eq(f->v.m.gap_total_ns, m.gap_total_ns);
	cr_assert_eq(f->v.m.ntop, m.ntop);
	for (size_t k = 0; k < m.ntop; k++) {
		cr_assert_eq(f->v.m.top[k].start_ns, m.top[k].start_ns);
		cr_assert_eq(f->v.m.top[k].dur_ns, m.top[k].dur_ns);
	}
	ntop = metrics_top_kernels(&a->dev, f->v.start_ns, f->v.end_ns, top,
	    METRICS_TOP_K);
	cr_assert_eq(f->v.ntop, ntop);
	for (size_t i = 0; i < ntop; i++) {
		cr_assert_eq(f->v.top[i].name, top[i].name);
		cr_assert_eq(f->v.top[i].count, top[i].count);
		cr_assert_eq(f->v.top[i].total_ns, top[i].total_ns);
	}
	for (size_t i = 0; i < a->dev.nacts; i++) {
		const struct event *e = &a->t->events[a->dev.acts[i]];

		if (e->ts_ns < f->v.end_ns && (e->dur_ns > 0 ?
		    event_end(e) > f->v.start_ns : e->ts_ns >= f->v.start_ns))
			count++;
	}
	cr_assert_eq(f->v.kernels_in_view, count, "kernels in view %zu, want %zu",
	    f->v.kernels_in_view, count);
}

Test(ranks, cycle_and_recalc)
{
	struct fix f;
	int64_t s, e;

	nav_trace(&f.t[0]);
	fsdp2_trace(&f.t[1], FSDP2_PLAIN);
	fix_view(&f, 2, 120);
	/* Bounds over both traces; the window over both's GPU activity. */
	cr_assert_eq(f.v.t0_ns, 0);
	assert_window(&f.v, 20 * US, 21845 * US);
	check_recalc(&f);
	cr_assert_eq(f.v.kernels_in_view, 15);
	cr_assert_eq(f.v.m.compute_ns, f.an[0].m.compute_ns);

	view_do(&f.v, CMD_NEXT_STEP);
	cr_assert_eq(f.v.sel, SEL_STEP);
	s = f.v.start_ns;
	e = f.v.end_ns;
	cr_assert_eq(view_do(&f.v, CMD_NEXT_RANK), VIEW_RECALC);
	cr_assert_eq(f.v.rank, 1);
	cr_assert_eq(f.v.sel, SEL_NONE, "the selection belongs to a rank");
	assert_window(&f.v, s, e);
	view_recalc(&f.v);
	check_recalc(&f);
	view_do(&f.v, CMD_NEXT_RANK);
	cr_assert_eq(f.v.rank, 0);
	view_do(&f.v, CMD_PREV_RANK);
	cr_assert_eq(f.v.rank, 1);

	/* Windows cutting kernels, on the FSDP2 rank. */
	view_set_window(&f.v, 0, 400 * US, 0);
	view_recalc(&f.v);
	check_recalc(&f);
	/* [20,50) + [230,260) + [300,310) + [330,380) */
	cr_assert_eq(f.v.m.exposed_comm_ns, 120 * US);
	view_set_window(&f.v, 57 * US, 301 * US, 0);
	view_recalc(&f.v);
	check_recalc(&f);
	/* gemm_fwd_0 ends at 100 and gemm_fwd_1 starts at 105... */
	view_set_window(&f.v, 100 * US, 105 * US, 0);
	view_recalc(&f.v);
	check_recalc(&f);
	cr_assert_eq(f.v.kernels_in_view, 1, "only copy_out_1 [100,105)");
	view_set_window(&f.v, 150 * US, 230 * US, 0);
	view_recalc(&f.v);
	check_recalc(&f);
	cr_assert_eq(f.v.kernels_in_view, 0);
	cr_assert_eq(f.v.m.gap_count, 1);
	cr_assert_eq(f.v.m.idle_ns, 80 * US);

	/* Rank 0 and the gap navigation use its own gaps. */
	view_do(&f.v, CMD_NEXT_RANK);
	view_do(&f.v, CMD_FIT);
	cursor_at(&f.v, 9500);
	view_do(&f.v, CMD_NEXT_GAP);
	assert_gap(&f.v, 4, 9860, 12050);
	fix_free(&f);
}

/*
 * The modes: one shown at a time, each with a name; v, m, D and Enter move
 * between them as they always did (the lanes the matrix and the diff table
 * go back to are the ones v last chose).
 */
Test(modes, one_at_a_time_and_where_each_key_goes)
{
	struct fix f;

	for (int i = 0; i < VIEW_MODE_COUNT; i++) {
		cr_assert_not_null(view_mode_name((enum view_mode)i), "mode %d", i);
		for (int j = 0; j < i; j++)
			cr_assert_str_neq(view_mode_name((enum view_mode)i),
			    view_mode_name((enum view_mode)j));
	}
	nav_trace(&f.t[0]);
	fsdp2_trace(&f.t[1], FSDP2_PLAIN);
	fix_view(&f, 2, 120);
	cr_assert_eq(f.v.mode, VIEW_MODE_LANES);
	view_do(&f.v, CMD_TOGGLE_OVERVIEW);
	cr_assert_eq(f.v.mode, VIEW_MODE_OVERVIEW);
	view_do(&f.v, CMD_TOGGLE_MATRIX);
	cr_assert_eq(f.v.mode, VIEW_MODE_MATRIX);
	/* v under the matrix: the matrix stays, the lanes under it change */
	f.v.lane_scroll = 1;
	cr_assert_eq(view_do(&f.v, CMD_TOGGLE_OVERVIEW), VIEW_REPAINT);
	cr_assert_eq(f.v.mode, VIEW_MODE_MATRIX);
	cr_assert_eq(f.v.lane_scroll, 0);
	view_do(&f.v, CMD_TOGGLE_MATRIX);
	cr_assert_eq(f.v.mode, VIEW_MODE_LANES);
	/* D in the overview, and back */
	view_do(&f.v, CMD_TOGGLE_OVERVIEW);
	view_do(&f.v, CMD_TOGGLE_DIFF);
	cr_assert_eq(f.v.mode, VIEW_MODE_COMPARE_TABLE);
	view_do(&f.v, CMD_TOGGLE_DIFF);
	cr_assert_eq(f.v.mode, VIEW_MODE_OVERVIEW);
	/* m in the table shows the matrix; D there replaces it */
	view_do(&f.v, CMD_TOGGLE_DIFF);
	view_do(&f.v, CMD_TOGGLE_MATRIX);
	cr_assert_eq(f.v.mode, VIEW_MODE_MATRIX);
	view_do(&f.v, CMD_TOGGLE_DIFF);
	cr_assert_eq(f.v.mode, VIEW_MODE_COMPARE_TABLE);
	view_do(&f.v, CMD_TOGGLE_DIFF);
	cr_assert_eq(f.v.mode, VIEW_MODE_OVERVIEW, "not back to the matrix");
	/* Enter in the matrix: all lanes of the current rank */
	view_do(&f.v, CMD_TOGGLE_MATRIX);
	cr_assert_eq(view_do(&f.v, CMD_ZOOM_SELECTED), VIEW_RECALC);
	cr_assert_eq(f.v.mode, VIEW_MODE_LANES);
	cr_assert_eq(f.v.nunder, 0);
	/* --matrix --diff-table: the table over the matrix */
	view_push_mode(&f.v, VIEW_MODE_MATRIX);
	view_push_mode(&f.v, VIEW_MODE_COMPARE_TABLE);
	view_recalc(&f.v);
	cr_assert(view_mode_on(&f.v, VIEW_MODE_MATRIX));
	view_do(&f.v, CMD_TOGGLE_DIFF);
	cr_assert_eq(f.v.mode, VIEW_MODE_MATRIX, "D goes back to the matrix");
	view_push_mode(&f.v, VIEW_MODE_COMPARE_TABLE);
	view_do(&f.v, CMD_TOGGLE_MATRIX);
	cr_assert_eq(f.v.mode, VIEW_MODE_LANES, "m leaves both");
	cr_assert_eq(f.v.nunder, 0);
	fix_free(&f);
}

Test(ranks, mfu_follows_the_options)
{
	struct fix f;
	struct analysis_opts o;
	struct mfu_result want;

	fix_nav(&f, 100);
	/* No FLOPs anywhere: unknown, with a reason. */
	cr_assert_eq(f.v.mfu.has_value, 0);
	cr_assert_neq(f.v.mfu.reason[0], '\0');

	memset(&o, 0, sizeof o);
	o.mfu.flops_per_step = 1e15;
	o.mfu.peak_tflops = 1000;
	o.ranks_loaded = 4;
	view_set_opts(&f.v, &o);
	view_set_window(&f.v, 5000 * US, 14000 * US, 0);
	view_recalc(&f.v);
	o.mfu.world_size = 4;
	mfu_compute(&f.an[0].dev, f.an[0].steps, f.an[0].nsteps, &o.mfu,
	    5000 * US, 14000 * US, &want);
	cr_assert(want.has_value);
	cr_assert(f.v.mfu.has_value);
	cr_assert_float_eq(f.v.mfu.value, want.value, 1e-12);
	cr_assert_str_eq(f.v.mfu.source, "model");
	fix_free(&f);
}

Test(ranks, analysis_without_gpu)
{
	struct fix f;
	struct analysis_opts o;

	j_begin();
	step(1, 0, 100);
	j_load(&f.t[0]);
	memset(&o, 0, sizeof o);
	o.min_gap_ns = METRICS_DEFAULT_MIN_GAP_NS;
	analysis_build(&f.an[0], &f.t[0], -1, &o);
	f.n = 1;
	view_init(&f.v, f.an, 1, f.t[0].start_ns, f.t[0].end_ns, 50);
	assert_window(&f.v, 0, 100 * US);
	cr_assert_eq(f.v.m.busy_ns, 0);
	cr_assert_eq(f.v.m.idle_ns, 0);
	cr_assert_eq(f.v.kernels_in_view, 0);
	cr_assert_eq(f.v.ntop, 0);
	cr_assert_eq(f.v.mfu.has_value, 0);
	cr_assert_eq(view_do(&f.v, CMD_NEXT_GAP), VIEW_REPAINT);
	cr_assert_str_eq(f.v.message, "no GPU activity in this trace");
	cr_assert_eq(view_do(&f.v, CMD_NEXT_STEP), VIEW_REPAINT);
	cr_assert_str_eq(f.v.message, "no GPU activity in this trace");
	cr_assert_eq(view_do(&f.v, CMD_WORST_LAYER), VIEW_REPAINT);
	cr_assert_str_eq(f.v.message, "no GPU activity in this trace");
	fix_free(&f);
}

/* ---- the generator ---- */

Test(generator, outlier_and_backward_layers)
{
	const char *gen = getenv("GEN_TRACE");
	char dir[] = "/tmp/gantty-view-gen-XXXXXX", cmd[1024], path[512];
	struct load_error err;
	struct fix f;
	const struct analysis *a;
	long i12 = -1;

	if (gen == NULL || *gen == '\0')
		cr_skip_test("GEN_TRACE is not set");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(cmd, sizeof cmd, "'%s' --ranks=2 --seed=1 --out='%s'", gen, dir);
	cr_assert_eq(system(cmd), 0, "%s failed", cmd);
	snprintf(path, sizeof path, "%s/rank-0.json", dir);
	cr_assert_eq(load_trace(&f.t[0], path, NULL, &err), 0, "%s", err.msg);
	fix_view(&f, 1, 200);
	a = &f.an[0];
	cr_assert_eq(a->nsteps, 8);

	/* o: the slow step, 15. */
	cr_assert_eq(view_do(&f.v, CMD_NEXT_OUTLIER), VIEW_RECALC);
	cr_assert_eq(f.v.sel, SEL_STEP);
	cr_assert_eq(a->steps[f.v.sel_index].number, 15);
	assert_window(&f.v, a->steps[f.v.sel_index].gpu_start_ns -
	    (a->steps[f.v.sel_index].gpu_end_ns - a->steps[f.v.sel_index].gpu_start_ns) / 50,
	    a->steps[f.v.sel_index].gpu_end_ns +
	    (a->steps[f.v.sel_index].gpu_end_ns - a->steps[f.v.sel_index].gpu_start_ns) / 50);
	/* It is the only one: o again wraps onto it. */
	view_do(&f.v, CMD_NEXT_OUTLIER);
	cr_assert_eq(a->steps[f.v.sel_index].number, 15);
	/* [ [ [ : step 12. */
	for (int k = 0; k < 3; k++)
		view_do(&f.v, CMD_PREV_STEP);
	cr_assert_eq(a->steps[f.v.sel_index].number, 12);
	/*
	 * x in step 12: its last reduce-scatter (layers.0 backward, nothing
	 * left to hide it) beats the late forward all-gather of layers.2...
	 */
	cr_assert_eq(view_do(&f.v, CMD_WORST_LAYER), VIEW_RECALC);
	cr_assert_eq(f.v.sel, SEL_LAYER);
	cr_assert_str_eq(trace_str(&f.t[0], a->layers[f.v.sel_index].name), "layers.0");
	cr_assert_eq(a->layers[f.v.sel_index].phase, LAYER_BACKWARD);
	cr_assert_eq(a->layers[f.v.sel_index].step, 12);
	/* ... which wins over the forward pass alone (layers.0's first gather). */
	for (size_t i = 0; i < a->nlayers; i++)
		if (a->layers[i].step == 12 && a->layers[i].phase == LAYER_FORWARD &&
		    strcmp(trace_str(&f.t[0], a->layers[i].name), "layers.0") == 0)
			i12 = (long)i;
	cr_assert_geq(i12, 0);
	view_set_window(&f.v, a->layers[i12].gpu_start_ns,
	    a->layers[i12 + 3].gpu_end_ns, 1);
	view_do(&f.v, CMD_WORST_LAYER);
	cr_assert_str_eq(trace_str(&f.t[0], a->layers[f.v.sel_index].name), "layers.2");
	cr_assert_eq(a->layers[f.v.sel_index].phase, LAYER_FORWARD);
	cr_assert_eq(a->layers[f.v.sel_index].step, 12);
	i12 = -1;

	/* From layers.3 forward of step 12, } walks the backward down. */
	for (size_t i = 0; i < a->nlayers; i++)
		if (a->layers[i].step == 12 && a->layers[i].phase == LAYER_FORWARD &&
		    strcmp(trace_str(&f.t[0], a->layers[i].name), "layers.3") == 0)
			i12 = (long)i;
	cr_assert_geq(i12, 0);
	f.v.sel = SEL_LAYER;
	f.v.sel_index = i12;
	for (int k = 3; k >= 0; k--) {
		const struct layer *l;
		char want[32];

		cr_assert_eq(view_do(&f.v, CMD_NEXT_LAYER), VIEW_RECALC);
		cr_assert_eq(f.v.sel, SEL_LAYER);
		l = &a->layers[f.v.sel_index];
		snprintf(want, sizeof want, "layers.%d", k);
		cr_assert_str_eq(trace_str(&f.t[0], l->name), want);
		cr_assert_eq(l->phase, LAYER_BACKWARD, "%s is not the backward", want);
		cr_assert_eq(l->step, 12);
		assert_window(&f.v, l->gpu_start_ns - (l->gpu_end_ns - l->gpu_start_ns) / 50,
		    l->gpu_end_ns + (l->gpu_end_ns - l->gpu_start_ns) / 50);
		view_recalc(&f.v);      /* what the loop does on VIEW_RECALC */
		check_recalc(&f);
	}
	/* Then step 13's forward begins. */
	view_do(&f.v, CMD_NEXT_LAYER);
	cr_assert_eq(a->layers[f.v.sel_index].step, 13);
	cr_assert_eq(a->layers[f.v.sel_index].phase, LAYER_FORWARD);
	cr_assert_str_eq(trace_str(&f.t[0], a->layers[f.v.sel_index].name), "layers.0");

	/* Search across the whole trace stays fast and exact. */
	view_do(&f.v, CMD_FIT);
	view_set_cursor(&f.v, 0);
	view_search(&f.v, "ncclDevKernel_AllGather");
	cr_assert_eq(f.v.sel, SEL_EVENT);
	cr_assert(strstr(sel_name(&f, 0), "AllGather") != NULL);

	fix_free(&f);
	unlink(path);
	snprintf(path, sizeof path, "%s/rank-1.json", dir);
	unlink(path);
	rmdir(dir);
}

Test(generator, worst_skew_across_ranks)
{
	const char *gen = getenv("GEN_TRACE");
	char dir[] = "/tmp/gantty-view-skew-XXXXXX", cmd[1024], path[512];
	struct load_error err;
	struct fix f;
	const struct crossrank_coll *c0, *c1;

	if (gen == NULL || *gen == '\0')
		cr_skip_test("GEN_TRACE is not set");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(cmd, sizeof cmd, "'%s' --ranks=2 --seed=1 --out='%s'", gen, dir);
	cr_assert_eq(system(cmd), 0, "%s failed", cmd);
	for (int r = 0; r < 2; r++) {
		snprintf(path, sizeof path, "%s/rank-%d.json", dir, r);
		cr_assert_eq(load_trace(&f.t[r], path, NULL, &err), 0, "%s", err.msg);
		f.t[r].rank = r;
	}
	fix_view(&f, 2, 200);
	cr_assert_not_null(f.v.xr);
	cr_assert_gt(f.v.xr->ntop, 1, "ncolls %zu unmatched %zu nparts %zu", f.v.xr->ncolls, f.v.xr->unmatched, f.v.xr->nparts);
	c0 = &f.v.xr->colls[f.v.xr->top[0]];
	c1 = &f.v.xr->colls[f.v.xr->top[1]];
	/* S: the worst skew, from first arrival to last end, in view and named */
	cr_assert(view_do(&f.v, CMD_WORST_SKEW) & VIEW_RECALC);
	view_recalc(&f.v);
	cr_assert_leq(f.v.start_ns, c0->first_start_ns);
	cr_assert_geq(f.v.end_ns, c0->last_end_ns);
	cr_assert_eq(f.v.xr_worst, (long)f.v.xr->top[0]);
	cr_assert(strstr(f.v.message, "worst skew #1 of") != NULL, "%s", f.v.message);
	/* S again: the next worst, with a skew no larger */
	view_do(&f.v, CMD_WORST_SKEW);
	cr_assert_leq(f.v.start_ns, c1->first_start_ns);
	cr_assert_geq(f.v.end_ns, c1->last_end_ns);
	cr_assert_leq(c1->skew_ns, c0->skew_ns);
	cr_assert(strstr(f.v.message, "worst skew #2 of") != NULL, "%s", f.v.message);
	/* with two ranks i reaches no-straggler, the fourth scenario; r keeps it */
	{
		struct whatif_step ws;
		const char *sc = NULL;
		size_t k, n;

		for (int i = 0; i < 4; i++)
			view_do(&f.v, CMD_NEXT_WHATIF);
		cr_assert_eq(view_whatif_current(&f.v, &ws, &sc, &k, &n), 0);
		cr_assert_eq(n, 4);
		cr_assert_str_eq(sc, "no-straggler");
		view_do(&f.v, CMD_NEXT_RANK);
		cr_assert_eq(f.v.rank, 1);
		cr_assert_eq(view_whatif_current(&f.v, &ws, &sc, &k, &n), 0);
		cr_assert_str_eq(sc, "no-straggler");
	}
	fix_free(&f);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

/* ---- the critical path and what-if (P, i; view_whatif.h) ---- */

/* How many rows of kind k the lanes of v have. */
static size_t
rows_of(const struct view *v, enum row_kind k)
{
	struct row_info *rows;
	size_t n = view_lanes(v, &rows, 0), c = 0;

	for (size_t i = 0; i < n; i++)
		c += rows[i].kind == k;
	free(rows);
	return c;
}

/*
 * Checks the path and the current scenario of the view against a whatif
 * built here from the same analyses (the oracle): the step in view, its
 * parts adding up to its span, and the scenario's replays of that step.
 */
static void
check_whatif(const struct view *v, const struct whatif *w, long want_step,
    size_t want_k, const char *want_sc)
{
	long s;
	const struct dg_path *p = view_whatif_path(v, &s);
	struct whatif_step got, exp;
	const char *sc;
	size_t k, n;
	int64_t sum = 0;

	cr_assert_not_null(p, "no path for step %ld", want_step);
	cr_assert_eq(s, want_step);
	for (int i = 0; i < DG_PARTS; i++)
		sum += p->part_ns[i];
	cr_assert_eq(sum, p->ns);
	cr_assert_eq(p->ns, v->an[v->rank].steps[s].end_ns - v->an[v->rank].steps[s].start_ns);
	cr_assert_eq(view_whatif_current(v, &got, &sc, &k, &n), 0);
	cr_assert_eq(k, want_k);
	cr_assert_str_eq(sc, want_sc);
	cr_assert_eq(whatif_step(w, v->rank, (size_t)s, k, &exp), 0);
	cr_assert_eq(got.replayed_ns, exp.replayed_ns);
	cr_assert_eq(got.predicted_ns, exp.predicted_ns);
	cr_assert_eq(got.measured_ns, exp.measured_ns);
}

Test(whatif, path_lane_and_scenarios_follow_the_step_in_view)
{
	static const char *const texts[] = { "kernels=GEMM_B:2", "comm=2",
		"comm=inf", "no-host-wait" };
	struct dg_whatif sc[4], given;
	struct whatif w;
	struct fix f;
	char err[160], line[400];

	fix_nav(&f, 200);
	for (int i = 0; i < 4; i++)
		cr_assert_eq(depgraph_whatif_parse(&sc[i], texts[i], err, sizeof err), 0);
	cr_assert_eq(depgraph_whatif_parse(&given, "kernels=GEMM_B:2", err, sizeof err), 0);
	whatif_build(&w, f.an, 1, NULL, sc, 4);
	view_whatif_set(&f.v, &given, 1, 0);
	/* nothing is built or shown before P */
	cr_assert_eq(view_whatif_shown(&f.v), 0);
	cr_assert_eq(rows_of(&f.v, ROW_PATH), 0);
	view_whatif_finding(&f.v, FIND_GPU_STARVED, line, sizeof line);
	cr_assert(strstr(line, "P builds") != NULL, "%s", line);

	/* P: the path of the step under the centre (step 4, index 3) */
	cr_assert_eq(view_do(&f.v, CMD_CRITICAL_PATH), VIEW_REPAINT);
	cr_assert(strstr(f.v.message, "dependency graph:") != NULL, "%s", f.v.message);
	cr_assert_eq(view_whatif_shown(&f.v), 1);
	cr_assert_eq(rows_of(&f.v, ROW_PATH), 1);
	check_whatif(&f.v, &w, 3, 0, "kernels=GEMM_B:2");
	/* ] ] : step 5, then i cycles --what-if's, then the defaults, and wraps */
	view_do(&f.v, CMD_NEXT_STEP);
	view_do(&f.v, CMD_NEXT_STEP);
	check_whatif(&f.v, &w, 4, 0, "kernels=GEMM_B:2");
	for (size_t k = 1; k <= 4; k++) {
		cr_assert_eq(view_do(&f.v, CMD_NEXT_WHATIF), VIEW_REPAINT);
		check_whatif(&f.v, &w, 4, k % 4, texts[k % 4]);
		cr_assert(strstr(f.v.message, texts[k % 4]) != NULL, "%s", f.v.message);
	}
	/* a remedy quotes the gain over every step, as whatif_total() says */
	{
		struct whatif_step t;
		char want[160];

		cr_assert_eq(whatif_total(&w, 0, 3, NULL, &t), 7);
		whatif_gain_format(want, sizeof want, "no-host-wait", &t);
		cr_assert_eq(view_whatif_finding(&f.v, FIND_GPU_STARVED, line, sizeof line), 1);
		cr_assert(strncmp(line, want, strlen(want)) == 0, "%s / %s", line, want);
		cr_assert(strstr(line, "over 7 steps") != NULL, "%s", line);
		cr_assert_eq(view_whatif_finding(&f.v, FIND_LOW_MFU, line, sizeof line), 0);
		cr_assert_str_eq(line, "");
	}
	/* P again: hidden, no lane, no path; i shows it again */
	view_do(&f.v, CMD_CRITICAL_PATH);
	cr_assert_eq(rows_of(&f.v, ROW_PATH), 0);
	{
		long s;

		cr_assert_null(view_whatif_path(&f.v, &s));
		cr_assert_eq(s, -1);
	}
	view_do(&f.v, CMD_NEXT_WHATIF);
	cr_assert_eq(rows_of(&f.v, ROW_PATH), 1);
	fix_free(&f);
	whatif_free(&w);
	for (int i = 0; i < 4; i++)
		depgraph_whatif_free(&sc[i]);
	depgraph_whatif_free(&given);
}

/* e builds the graph on a small trace, so the remedy quotes its gain. */
Test(whatif, findings_build_the_graph_on_small_traces)
{
	struct fix f;
	char line[400];

	fix_nav(&f, 200);
	cr_assert_eq(view_whatif_eager(&f.v), 1);
	cr_assert_eq(view_whatif_shown(&f.v), 0);
	cr_assert_eq(view_whatif_finding(&f.v, FIND_EXPOSED_COMM, line, sizeof line), 1);
	cr_assert(strstr(line, "comm=2: ") == line && strstr(line, "; comm=inf: ") != NULL,
	    "%s", line);
	fix_free(&f);
}

/* ---- u: the op that launched a kernel, then the events around it ---- */

Test(select, u_goes_to_the_launching_op_then_outwards)
{
	struct fix f;
	const struct trace *t;

	j_begin();
	step(1, 0, 1000);
	cpu("cpu_op", "aten::linear", 1, 5, 95);
	cpu("cpu_op", "aten::mm", 1, 10, 20);
	kernel(1, 12, "gemm_a", 200, 300);
	cpu("cpu_op", "aten::mm", 1, 40, 20);
	kernel(1, 45, "gemm_b", 300, 400);
	j_load(&f.t[0]);
	fix_view(&f, 1, 200);
	t = &f.t[0];
	view_search(&f.v, "^gemm_b$");
	cr_assert_eq(f.v.sel, SEL_EVENT);
	cr_assert_str_eq(trace_str(t, t->events[f.v.sel_index].name), "gemm_b");
	/* the second aten::mm, whose launch it was, not the first of the column */
	view_do(&f.v, CMD_LAUNCH_OP);
	cr_assert_eq(f.v.sel, SEL_EVENT);
	cr_assert_str_eq(trace_str(t, t->events[f.v.sel_index].name), "aten::mm");
	cr_assert_eq(t->events[f.v.sel_index].ts_ns, 40 * US);
	cr_assert_eq(view_cpu_shown(&f.v), 1, "its lane is shown");
	view_do(&f.v, CMD_LAUNCH_OP);
	cr_assert_str_eq(trace_str(t, t->events[f.v.sel_index].name), "aten::linear");
	view_do(&f.v, CMD_LAUNCH_OP);
	cr_assert_str_eq(trace_str(t, t->events[f.v.sel_index].name), "ProfilerStep#1");
	view_do(&f.v, CMD_LAUNCH_OP);
	cr_assert_str_eq(trace_str(t, t->events[f.v.sel_index].name), "ProfilerStep#1");
	cr_assert_str_eq(f.v.message, "nothing around this event on its thread");
	/* from gemm_a: the first aten::mm */
	view_search(&f.v, "^gemm_a$");
	view_do(&f.v, CMD_LAUNCH_OP);
	cr_assert_eq(t->events[f.v.sel_index].ts_ns, 10 * US);
	fix_free(&f);
}
