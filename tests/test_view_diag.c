/*
 * The viewer's diagnosis: F selects a finding and jumps to its evidence,
 * Enter walks its ranges, the selection panel lists the findings with the
 * remedy, and m shows a memory lane drawn in eighth blocks.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/findings.h"
#include "render/grid.h"
#include "load/load.h"
#include "analysis/memory.h"
#include "render/render.h"
#include "model/trace.h"
#include "view/command.h"
#include "view/view.h"
#include "view/view_diag.h"

#include "jtrace.h"

#define US 1000LL
#define COLS 100
#define W (RENDER_LABEL_W + COLS)
#define H 30

/* A [memory] sample of device 0 at ts (us). */
static void
mem(long long ts, long long alloc, long long reserved)
{
	j_sep();
	fprintf(jf, "{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"name\": "
	    "\"[memory]\", \"pid\": 100, \"tid\": 1, \"ts\": %lld, \"s\": \"t\", "
	    "\"args\": {\"Total Reserved\": %lld, \"Total Allocated\": %lld, "
	    "\"Bytes\": 1, \"Device Type\": 1, \"Device Id\": 0}}", ts, reserved,
	    alloc);
}

struct fx {
	struct trace t;
	struct analysis a;
	struct view v;
	struct layout lay;
	struct grid g;
	struct render_opts ro;
	char *text;
	size_t len;
};

static struct fx F;

/*
 * Four 1000 us steps from 0: compute [0, 800) and an exposed all-gather
 * [800, 1000) in each; allocated memory climbs to 4 GiB (reserved 4 GiB)
 * in each step's forward half and falls back to 1 GiB.
 */
static void
setup(void)
{
	struct analysis_opts o;

	memset(&F, 0, sizeof F);
	next_corr = 1;
	j_begin();
	for (int n = 0; n < 4; n++) {
		long long t0 = n * 1000LL;

		step(n + 1, t0, t0 + 1000);
		kernel(1, t0 + 1, "gemm", t0, t0 + 800);
		kernel(1, t0 + 2, "ncclDevKernel_AllGather_RING_LL", t0 + 800, t0 + 1000);
		mem(t0 + 10, 1LL << 30, 4LL << 30);
		mem(t0 + 400, 4LL << 30, 4LL << 30);
		mem(t0 + 700, 1LL << 30, 4LL << 30);
	}
	j_load(&F.t);
	memset(&o, 0, sizeof o);
	o.min_gap_ns = METRICS_DEFAULT_MIN_GAP_NS;
	o.ranks_loaded = 1;
	analysis_build(&F.a, &F.t, 0, &o);
	F.ro.mono = 1;
	F.ro.title = "t.json";
	view_init(&F.v, &F.a, 1, F.t.start_ns, F.t.end_ns, 1);
	render_layout(&F.lay, &F.v, W, H);
	view_resize(&F.v, F.lay.time_cols);
}

static void
draw(void)
{
	FILE *out;

	render_layout_free(&F.lay);
	grid_free(&F.g);
	render_layout(&F.lay, &F.v, W, H);
	grid_init(&F.g, W, H);
	render_frame(&F.g, &F.lay, &F.v, &F.ro);
	free(F.text);
	F.text = NULL;
	out = open_memstream(&F.text, &F.len);
	cr_assert_eq(grid_write(&F.g, out, 0), 0);
	fclose(out);
}

static void
teardown(void)
{
	free(F.text);
	render_layout_free(&F.lay);
	grid_free(&F.g);
	view_free(&F.v);
	analysis_free(&F.a);
	trace_free(&F.t);
}

TestSuite(view_diag, .init = setup, .fini = teardown);

Test(view_diag, next_finding_jumps_to_its_evidence)
{
	const struct finding *f;
	size_t n;
	int64_t a, b;

	cr_assert_eq(view_do(&F.v, CMD_NEXT_FINDING) & VIEW_RECALC, VIEW_RECALC);
	cr_assert_eq(F.v.sel, SEL_FINDING);
	cr_assert_eq(F.v.sel_index, 0);
	f = view_diag_findings(&F.v, 0, &n);
	cr_assert_geq(n, 1);
	cr_assert_eq(f[0].kind, FIND_EXPOSED_COMM, "%s", findings_kind_id(f[0].kind));
	cr_assert_eq(f[0].nranges, 4);  /* one exposed all-gather per step */
	cr_assert(view_diag_range(&F.v, &a, &b, NULL));
	cr_assert_eq(a, f[0].ranges[0].start_ns);
	cr_assert_leq(F.v.start_ns, a);
	cr_assert_geq(F.v.end_ns, b);
	cr_assert_lt(F.v.end_ns - F.v.start_ns, 400 * US, "zoomed in on it");
	cr_assert_not_null(strstr(F.v.message, "finding 1, range 1 of 4"), "%s",
	    F.v.message);

	/* Enter: the next range */
	view_do(&F.v, CMD_ZOOM_SELECTED);
	cr_assert(view_diag_range(&F.v, &a, &b, NULL));
	cr_assert_eq(a, f[0].ranges[1].start_ns);
	cr_assert_leq(F.v.start_ns, a);
	cr_assert_geq(F.v.end_ns, b);
	cr_assert_not_null(strstr(F.v.message, "range 2 of 4"), "%s", F.v.message);

	/* the selection panel lists the findings and the remedy */
	F.v.panel = PANEL_SELECTION;
	draw();
	cr_assert_not_null(strstr(F.text, "> warning  exposed_comm"), "%s", F.text);
	cr_assert_not_null(strstr(F.text, "remedy: All-gathers are exposed"), "%s",
	    F.text);
	cr_assert_not_null(strstr(F.text, "all_gather_exposed_ns 800 us"), "%s",
	    F.text);
}

Test(view_diag, no_findings_says_so)
{
	/* F on a view whose rank has none: move to a finding-free trace */
	struct view v;
	struct trace t;
	struct analysis a;
	struct analysis_opts o;

	next_corr = 1;
	j_begin();
	step(1, 0, 100);
	kernel(1, 1, "gemm", 0, 100);
	j_load(&t);
	memset(&o, 0, sizeof o);
	o.min_gap_ns = METRICS_DEFAULT_MIN_GAP_NS;
	analysis_build(&a, &t, 0, &o);
	view_init(&v, &a, 1, t.start_ns, t.end_ns, 50);
	cr_assert_eq(view_do(&v, CMD_NEXT_FINDING), VIEW_REPAINT);
	cr_assert_eq(v.sel, SEL_NONE);
	cr_assert_str_eq(v.message, "no findings for this rank");
	view_free(&v);
	analysis_free(&a);
	trace_free(&t);
}

Test(view_diag, memory_lane_in_eighths)
{
	int y = -1;
	const char *line, *nl;

	draw();
	cr_assert_null(strstr(F.text, " mem 4.0G"), "off by default");
	view_do(&F.v, CMD_TOGGLE_MEMORY);
	cr_assert(F.v.show_memory);
	/* the first step: 10 us per column */
	view_set_window(&F.v, 0, 1000 * US, 0);
	view_recalc(&F.v);
	view_set_cursor(&F.v, 50);
	draw();
	for (int r = 0; r < F.lay.h; r++)
		if (F.lay.rows[r].kind == ROW_MEMORY)
			y = r;
	cr_assert_geq(y, 0, "no memory row");
	line = F.text;
	for (int r = 0; r < y; r++)
		line = strchr(line, '\n') + 1;
	nl = strchr(line, '\n');
	cr_assert(strncmp(line, " mem 4.0G", 9) == 0, "%.*s", (int)(nl - line), line);
	/* 1 GiB of 4 is two eighths, 4 of 4 eight */
	cr_assert_eq(grid_at(&F.g, F.lay.time_x + 5, y)->ch, 0x2582);   /* 50 us */
	cr_assert_eq(grid_at(&F.g, F.lay.time_x + 50, y)->ch, 0x2588);  /* 500 us */
	cr_assert_eq(grid_at(&F.g, F.lay.time_x + 90, y)->ch, 0x2582);  /* 900 us */
	cr_assert_eq(grid_at(&F.g, F.lay.time_x + 0, y)->ch, ' ',
	    "nothing in effect before the first sample");
	cr_assert_not_null(strstr(F.text, "memory at cursor: allocated 4.0G reserved 4.0G"),
	    "%s", F.text);
	cr_assert_not_null(strstr(F.text, "window peak 4.0G / 4.0G"), "%s", F.text);
	view_do(&F.v, CMD_TOGGLE_MEMORY);
	draw();
	cr_assert_null(strstr(F.text, " mem 4.0G"));
}
