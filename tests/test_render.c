#include "config.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "render/grid.h"
#include "load/input.h"
#include "view/keymap.h"
#include "load/load.h"
#include "analysis/metrics.h"
#include "render/render.h"
#include "render/render_int.h"
#include "model/trace.h"
#include "view/command.h"
#include "view/view.h"

#include "gridtext.h"

/*
 * The fixture: one rank, device 0, a window W = [T0, T0 + 1000 ns) drawn on
 * 100 columns, so that column c is exactly [T0 + 10c, T0 + 10c + 10).
 *
 *   stream 7 (compute)  gemm_big   [0, 300)    cols  0..29
 *                       tiny       [505, 506)  col  50, 1 ns
 *                       blip       [655, 656)  col  65, 1 ns, in the bubble
 *                       gemm_late  [700, 1000) cols 70..99
 *                       pdl_kernel [800, 900)  overlaps gemm_late: row 2
 *   stream 22 (comm)    ncclDevKernel_AllGather_RING_LL [200, 600)
 *
 * so the bubble lane reads: compute only 0..19, overlapped 20..29, exposed
 * comm 30..59 (col 50: 9 ns exposed, 1 ns overlapped), idle 60..69 (col 65:
 * 9 ns idle, 1 ns busy), compute only 70..99.
 */
#define T0 INT64_C(1000000)     /* ns: ts 1000 us */
#define COLS 100
#define W (RENDER_LABEL_W + COLS)
#define H 30

static const char fixture_json[] =
    "{\"distributedInfo\": {\"rank\": 0, \"world_size\": 1},\n"
    "\"traceEvents\": [\n"
    "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 100, \"tid\": 1, \"args\": {\"name\": \"python3\"}},\n"
    "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#1\", \"pid\": 100, \"tid\": 1, \"ts\": 999.900, \"dur\": 1.150},\n"
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 100, \"tid\": 1, \"ts\": 999.910, \"dur\": 0.005, \"args\": {\"correlation\": 1}},\n"
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 100, \"tid\": 1, \"ts\": 999.920, \"dur\": 0.005, \"args\": {\"correlation\": 2}},\n"
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 100, \"tid\": 1, \"ts\": 999.930, \"dur\": 0.005, \"args\": {\"correlation\": 3}},\n"
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaStreamSynchronize\", \"pid\": 100, \"tid\": 1, \"ts\": 1000.100, \"dur\": 0.900},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm_big\", \"pid\": 0, \"tid\": 7, \"ts\": 1000.000, \"dur\": 0.300, \"args\": {\"device\": 0, \"stream\": 7, \"correlation\": 1}},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"tiny\", \"pid\": 0, \"tid\": 7, \"ts\": 1000.505, \"dur\": 0.001, \"args\": {\"device\": 0, \"stream\": 7}},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"blip\", \"pid\": 0, \"tid\": 7, \"ts\": 1000.655, \"dur\": 0.001, \"args\": {\"device\": 0, \"stream\": 7}},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm_late\", \"pid\": 0, \"tid\": 7, \"ts\": 1000.700, \"dur\": 0.300, \"args\": {\"device\": 0, \"stream\": 7, \"correlation\": 3}},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"pdl_kernel\", \"pid\": 0, \"tid\": 7, \"ts\": 1000.800, \"dur\": 0.100, \"args\": {\"device\": 0, \"stream\": 7}},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)\", \"pid\": 0, \"tid\": 22, \"ts\": 1000.200, \"dur\": 0.400, \"args\": {\"device\": 0, \"stream\": 22, \"correlation\": 2}}\n"
    "]}\n";

struct fx {
	struct trace t;
	struct analysis an[4];
	size_t nan;
	struct view v;
	struct layout lay;
	struct grid g;
	struct render_opts ro;
};

static struct fx F;

static void
fx_load(void)
{
	char path[] = "/tmp/gantty-render-XXXXXX";
	int fd = mkstemp(path);
	struct load_error err;
	struct analysis_opts o;
	int32_t *devs = NULL;
	FILE *f;

	cr_assert(fd >= 0);
	f = fdopen(fd, "w");
	fputs(fixture_json, f);
	fclose(f);
	cr_assert_eq(load_trace(&F.t, path, NULL, &err), 0, "%s", err.msg);
	unlink(path);
	input_assign_rank(&F.t, 0);
	cr_assert_eq(F.t.rank, 0);
	memset(&o, 0, sizeof o);
	o.min_gap_ns = METRICS_DEFAULT_MIN_GAP_NS;
	o.ranks_loaded = 1;
	F.nan = metrics_devices(&F.t, &devs);
	cr_assert_eq(F.nan, 1);
	analysis_build(&F.an[0], &F.t, devs[0], &o);
	free(devs);
}

/* Lays out and draws the frame of F.v at w x h. */
static void
fx_draw(int w, int h)
{
	render_layout_free(&F.lay);
	grid_free(&F.g);
	render_layout(&F.lay, &F.v, w, h);
	grid_init(&F.g, w, h);
	render_frame(&F.g, &F.lay, &F.v, &F.ro);
}

/* Loads the fixture and draws it at W x H over exactly [T0, T0 + 1000). */
static void
fx_setup(int ascii, int cpu)
{
	memset(&F, 0, sizeof F);
	fx_load();
	F.ro.ascii = ascii;
	F.ro.mono = 1;
	F.ro.title = "fixture.json";
	view_init(&F.v, F.an, F.nan, F.t.start_ns, F.t.end_ns, 1);
	F.v.show_cpu = cpu;
	render_layout(&F.lay, &F.v, W, H);
	cr_assert_eq(F.lay.time_x, RENDER_LABEL_W);
	cr_assert_eq(F.lay.time_cols, COLS);
	view_resize(&F.v, F.lay.time_cols);
	view_set_window(&F.v, T0, T0 + 1000, 0);
	view_recalc(&F.v);
	cr_assert_eq(F.v.start_ns, T0);
	cr_assert_eq(F.v.end_ns, T0 + 1000);
	cr_assert_eq(view_col_ns(&F.v, 37), T0 + 370, "10 ns per column");
	fx_draw(W, H);
}

static void
fx_teardown(void)
{
	render_layout_free(&F.lay);
	grid_free(&F.g);
	view_free(&F.v);
	for (size_t i = 0; i < F.nan; i++)
		analysis_free(&F.an[i]);
	trace_free(&F.t);
}

static void setup_utf8(void) { fx_setup(0, 0); }
static void setup_ascii(void) { fx_setup(1, 0); }
static void setup_cpu(void) { fx_setup(0, 1); }

/* The first row of kind (and, for GPU rows, of the stream and sub-row). */
static int
find_row(enum row_kind kind, int64_t tid, int depth)
{
	for (int y = 0; y < F.lay.h; y++) {
		const struct row_info *r = &F.lay.rows[y];

		if (r->kind != kind)
			continue;
		if (kind == ROW_GPU && (F.t.tracks[r->track].tid != tid ||
		    r->depth != depth))
			continue;
		if (kind == ROW_CPU && r->depth != depth)
			continue;
		return y;
	}
	cr_assert_fail("no row of kind %d (tid %lld, depth %d)", kind,
	    (long long)tid, depth);
	return -1;
}

/* The glyph of time column col on row y. */
static uint32_t
glyph(int y, int col)
{
	return grid_at(&F.g, F.lay.time_x + col, y)->ch;
}

static enum role
role_at(int y, int col)
{
	return (enum role)grid_at(&F.g, F.lay.time_x + col, y)->role;
}

/* Row y's cells [x0, x1) as UTF-8 (static buffer). */
static const char *
text(int y, int x0, int x1)
{
	static char buf[4096];

	return row_utf8(&F.g, y, x0, x1, buf, sizeof buf);
}

static const char *
row(int y)
{
	return text(y, 0, F.g.w);
}

static const char *
label(int y)
{
	return text(y, 0, F.lay.time_x);
}

/* 1 if some row of the frame contains s. */
static int
frame_has(const char *s)
{
	for (int y = 0; y < F.g.h; y++)
		if (strstr(row(y), s) != NULL)
			return 1;
	return 0;
}

#define BUBBLE_IDLE 0x2591      /* ░ */
#define BUBBLE_EXPOSED 0x2580   /* ▀ */
#define BUBBLE_OVERLAP 0x2593   /* ▓ */
#define BUBBLE_BUSY 0x2588      /* █ */

TestSuite(render, .init = setup_utf8, .fini = fx_teardown);

Test(render, bubble_lane_columns_are_exact)
{
	int y = find_row(ROW_BUBBLE, 0, 0);

	for (int c = 0; c < COLS; c++) {
		uint32_t want;
		enum role role;

		if (c < 20)
			want = BUBBLE_BUSY, role = ROLE_BUSY;
		else if (c < 30)
			want = BUBBLE_OVERLAP, role = ROLE_OVERLAP;
		else if (c < 60)
			want = BUBBLE_EXPOSED, role = ROLE_EXPOSED;
		else if (c < 70)
			want = BUBBLE_IDLE, role = ROLE_BUBBLE;
		else
			want = BUBBLE_BUSY, role = ROLE_BUSY;
		cr_expect_eq(glyph(y, c), want, "bubble lane column %d: U+%04X, wanted U+%04X",
		    c, glyph(y, c), want);
		cr_expect_eq(role_at(y, c), role, "bubble lane column %d role %d", c,
		    role_at(y, c));
	}
}

Test(render, lane_labels_in_the_label_column)
{
	cr_assert(strstr(label(find_row(ROW_BUBBLE, 0, 0)), "bubbles"));
	cr_assert(strstr(label(find_row(ROW_GPU, 7, 0)), "compute s7"),
	    "got '%s'", label(find_row(ROW_GPU, 7, 0)));
	cr_assert(strstr(label(find_row(ROW_GPU, 22, 0)), "nccl s22"),
	    "got '%s'", label(find_row(ROW_GPU, 22, 0)));
	cr_assert(strstr(label(find_row(ROW_GPU, 7, 1)), "s7 row 2"));
	cr_assert(strstr(label(find_row(ROW_RANK, 0, 0)), "rank 0 dev 0"));
	cr_assert(strstr(label(1), "steps"));
	/* the lanes start right after the label column */
	cr_assert_eq(grid_at(&F.g, F.lay.time_x - 1, find_row(ROW_GPU, 7, 0))->ch, ' ');
}

Test(render, one_ns_kernel_still_shades_its_column)
{
	int y = find_row(ROW_GPU, 7, 0);

	cr_assert_eq(glyph(y, 50), 0x2591, "tiny: 1 ns of 10 is a light shade");
	cr_assert_eq(role_at(y, 50), ROLE_COMPUTE);
	cr_assert_eq(glyph(y, 65), 0x2591, "blip, alone in the bubble");
	for (int c = 31; c < 50; c++)
		cr_assert_eq(glyph(y, c), ' ', "column %d of stream 7 is idle", c);
	for (int c = 51; c < 65; c++)
		cr_assert_eq(glyph(y, c), ' ', "column %d of stream 7 is idle", c);
}

Test(render, busy_columns_shaded_by_class)
{
	int yc = find_row(ROW_GPU, 7, 0), yn = find_row(ROW_GPU, 22, 0);

	cr_assert_eq(glyph(yc, 0), 0x2588);
	cr_assert_eq(role_at(yc, 0), ROLE_COMPUTE);
	cr_assert_eq(glyph(yc, 99), 0x2588);
	cr_assert_eq(glyph(yn, 20), 0x2588);
	cr_assert_eq(role_at(yn, 20), ROLE_COMM);
	cr_assert_eq(role_at(yn, 59), ROLE_COMM);
	cr_assert_eq(glyph(yn, 19), ' ');
	cr_assert_eq(glyph(yn, 60), ' ');
	/* the overlapping kernel has its own sub-row, 80..89 */
	{
		int y2 = find_row(ROW_GPU, 7, 1);

		cr_assert_eq(glyph(y2, 79), ' ');
		cr_assert_eq(glyph(y2, 80), 0x2588);
		cr_assert_eq(glyph(y2, 89), 0x2588);
		cr_assert_eq(glyph(y2, 90), ' ');
	}
}

Test(render, names_inside_wide_events)
{
	const char *c = text(find_row(ROW_GPU, 7, 0), F.lay.time_x, F.g.w);
	const char *n;

	cr_assert(strstr(c, "gemm_big"), "compute lane: %s", c);
	cr_assert(strstr(c, "gemm_late"), "compute lane: %s", c);
	/* the name sits inside the event's columns, in reverse video */
	cr_assert_eq(glyph(find_row(ROW_GPU, 7, 0), 1), 'g');
	cr_assert(grid_at(&F.g, F.lay.time_x + 1, find_row(ROW_GPU, 7, 0))->reverse);
	n = text(find_row(ROW_GPU, 22, 0), F.lay.time_x + 20, F.lay.time_x + 60);
	cr_assert(strstr(n, "AllGather_RING_LL"), "nccl lane: %s", n);
	cr_assert(!strstr(n, "ncclDevKernelArgsStorage"), "no parameter list: %s", n);
	/* 10 columns: the name is cut with an ellipsis */
	n = text(find_row(ROW_GPU, 7, 1), F.lay.time_x + 80, F.lay.time_x + 90);
	cr_assert(strstr(n, "pdl_ker\xe2\x80\xa6"), "sub-row: %s", n);
}

Test(render, title_ruler_and_panel)
{
	cr_assert(strstr(row(0), "gantty"));
	cr_assert(strstr(row(0), "fixture.json"));
	cr_assert(strstr(row(0), "window"));
	cr_assert(strstr(row(0), "rank 0 dev 0"));
	cr_assert(strstr(row(2), "ns/col"), "ruler: %s", row(2));
	/* comm [200, 600) less compute [200, 300) and tiny's 1 ns */
	cr_assert(frame_has("T_exposed 299 ns (29.9%)"), "exposed comm");
	cr_assert(frame_has("overlap 25.2% of comm"));
	cr_assert(frame_has("idle 99 ns (9.9%)"));
	cr_assert(frame_has("kernels 6"));
	cr_assert(strstr(row(1), "1 step, median 1.15 us"), "steps: %s", row(1));
	cr_assert(strstr(row(F.g.h - 1), "? help"), "hint: %s", row(F.g.h - 1));
	cr_assert(strstr(row(F.g.h - 1), "q quit"));
}

Test(render, ruler_ticks_at_round_times)
{
	const char *r = text(2, F.lay.time_x, F.g.w);

	/* t0 is the step at 999.9 us: the window starts at +100 ns */
	cr_assert(strstr(r, "+200ns") || strstr(r, "+0.2us"), "ruler: %s", r);
	cr_assert_eq(grid_at(&F.g, F.lay.time_x + F.v.cursor, 2)->role, ROLE_CURSOR);
	cr_assert(grid_at(&F.g, F.lay.time_x + F.v.cursor, 2)->reverse);
}

Test(render, event_at_a_kernel_cell)
{
	int a = -2, y = find_row(ROW_GPU, 7, 0);
	uint32_t ev = render_event_at(&F.lay, &F.v, F.lay.time_x + 10, y, &a);

	cr_assert_neq(ev, UINT32_MAX);
	cr_assert_eq(a, 0);
	cr_assert_str_eq(trace_str(&F.t, F.t.events[ev].name), "gemm_big");
	ev = render_event_at(&F.lay, &F.v, F.lay.time_x + 50, y, &a);
	cr_assert_str_eq(trace_str(&F.t, F.t.events[ev].name), "tiny");
	ev = render_event_at(&F.lay, &F.v, F.lay.time_x + 85,
	    find_row(ROW_GPU, 7, 1), &a);
	cr_assert_str_eq(trace_str(&F.t, F.t.events[ev].name), "pdl_kernel");
	ev = render_event_at(&F.lay, &F.v, F.lay.time_x + 85, y, &a);
	cr_assert_str_eq(trace_str(&F.t, F.t.events[ev].name), "gemm_late",
	    "row 1 holds only the overlapping kernel");
	ev = render_event_at(&F.lay, &F.v, F.lay.time_x + 40,
	    find_row(ROW_GPU, 22, 0), &a);
	cr_assert(strstr(trace_str(&F.t, F.t.events[ev].name), "AllGather"));
	/* nothing there, the label column, the bubble lane, the title */
	cr_assert_eq(render_event_at(&F.lay, &F.v, F.lay.time_x + 40, y, &a), UINT32_MAX);
	cr_assert_eq(a, -1);
	cr_assert_eq(render_event_at(&F.lay, &F.v, 3, y, &a), UINT32_MAX);
	cr_assert_eq(render_event_at(&F.lay, &F.v, F.lay.time_x + 10,
	    find_row(ROW_BUBBLE, 0, 0), &a), UINT32_MAX);
	cr_assert_eq(render_event_at(&F.lay, &F.v, F.lay.time_x + 10, 0, &a), UINT32_MAX);
	cr_assert_eq(render_event_at(&F.lay, &F.v, F.g.w + 5, y, &a), UINT32_MAX);
}

Test(render, selected_event_and_its_range)
{
	int y = find_row(ROW_GPU, 7, 0);
	uint32_t ev = render_event_at(&F.lay, &F.v, F.lay.time_x + 10, y, NULL);

	view_select_event(&F.v, ev);
	fx_draw(W, H);
	for (int c = 0; c < 30; c++) {
		cr_assert_eq(role_at(y, c), ROLE_SELECTED, "column %d", c);
		if (c != F.v.cursor)
			cr_assert_eq(role_at(2, c), ROLE_SELECTED, "ruler column %d", c);
	}
	cr_assert_neq(role_at(y, 30), ROLE_SELECTED);
	cr_assert_neq(role_at(2, 30), ROLE_SELECTED);
	/* its name, dark on the highlight from its first column: readable */
	cr_assert(strncmp(text(y, F.lay.time_x, F.lay.time_x + 30), "gemm_big", 8) == 0,
	    "selected: %s", text(y, F.lay.time_x, F.lay.time_x + 30));
	cr_assert(!grid_at(&F.g, F.lay.time_x, y)->reverse);
	cr_assert(frame_has("selected gemm_big"), "the summary line");
	/* narrow (the lane names an event from its second column, and not below 8) */
	{
		const struct event *e = &F.t.events[ev];
		int c0, c1;

		view_resize(&F.v, RENDER_MIN_W - RENDER_LABEL_W);  /* 38.5 ns a column */
		fx_draw(RENDER_MIN_W, H);
		y = find_row(ROW_GPU, 7, 0);
		c0 = view_ns_col(&F.v, e->ts_ns);
		c1 = view_ns_col(&F.v, e->ts_ns + e->dur_ns - 1);
		cr_assert(c1 - c0 + 1 >= 3 && c1 - c0 + 1 <= 8, "%d columns", c1 - c0 + 1);
		cr_assert(strncmp(text(y, F.lay.time_x + c0, F.lay.time_x + c1 + 1), "gem", 3) == 0,
		    "selected, narrow: %s", text(y, F.lay.time_x + c0, F.lay.time_x + c1 + 1));
		cr_assert_eq(role_at(y, c0), ROLE_SELECTED);
		view_resize(&F.v, COLS);
		fx_draw(W, H);
	}
	F.v.panel = PANEL_SELECTION;
	fx_draw(W, H);
	cr_assert(frame_has("correlation 1"));
	cr_assert(frame_has("launched by cudaLaunchKernel"));
}

Test(render, panels)
{
	F.v.panel = PANEL_KERNELS;
	fx_draw(W, H);
	cr_assert(frame_has("top kernels in view"));
	cr_assert(frame_has("gemm_big"));
	cr_assert(frame_has("[kernels]"));
	F.v.panel = PANEL_SELECTION;
	fx_draw(W, H);
	cr_assert(frame_has("nothing selected"));
	F.v.sel = SEL_STEP;
	F.v.sel_index = 0;
	fx_draw(W, H);
	cr_assert(frame_has("ProfilerStep#1  CPU 1.15 us"), "%s", row(F.lay.lanes_y + F.lay.lanes_h + 1));
}

Test(render, help_overlay)
{
	F.v.help = 1;
	fx_draw(W, (int)keymap_len + 4);        /* every binding in one column */
	cr_assert(frame_has("gantty keys"));
	for (size_t i = 0; i < keymap_len; i++)
		cr_assert(frame_has(keymap_help(keymap[i].cmd)), "help for %s",
		    keymap[i].keys_text);
}

/*
 * At 80x24 the whole text does not fit, so every binding shows its keys and
 * its brief, whole (the overlay once lost the last dozen, { and q among
 * them); the footer says where the whole text is.
 */
Test(render, help_overlay_fits_80x24)
{
	F.v.help = 1;
	fx_draw(80, 24);
	cr_assert(frame_has("gantty keys"));
	cr_assert(frame_has("--keys prints it whole"));
	for (size_t i = 0; i < keymap_len; i++) {
		char want[64];

		snprintf(want, sizeof want, " %s ", keymap[i].keys_brief ?
		    keymap[i].keys_brief : keymap[i].keys_text);
		cr_expect(frame_has(want), "keys '%s'", want);
		cr_expect(frame_has(keymap_brief(keymap[i].cmd)), "brief '%s' of %s",
		    keymap_brief(keymap[i].cmd), keymap[i].keys_text);
	}
	cr_expect(frame_has(" { "));
	cr_expect(frame_has(" q Ctrl-C "));
}

/* The first key of a hint's key text, as keymap_lookup() takes it. */
static int
hint_key(const char *k)
{
	if (strcmp(k, "Enter") == 0)
		return KEYMAP_ENTER;
	if (strcmp(k, "Tab") == 0)
		return KEYMAP_TAB;
	if (strcmp(k, "Esc") == 0)
		return KEYMAP_ESC;
	if ((unsigned char)k[0] >= 0x80)
		return KEYMAP_LEFT;     /* the arrows */
	return (unsigned char)k[0];
}

/*
 * Every hint names a key that the key table binds to the hint's command
 * (the hint line is built from the key table), and the line shows only
 * hints whose state holds: one rank shows no r, no baseline no D, no query
 * no n/N; a query brings n/N in.
 */
Test(render, hints_follow_the_key_table_and_the_state)
{
	for (size_t i = 0; i < render_hints_len; i++)
		cr_expect_eq(keymap_lookup(hint_key(render_hints[i].keys)),
		    render_hints[i].cmd, "hint '%s %s'", render_hints[i].keys,
		    render_hints[i].what);
	fx_draw(200, H);
	cr_assert(strstr(row(F.g.h - 1), "? help") != NULL, "%s", row(F.g.h - 1));
	cr_assert(strstr(row(F.g.h - 1), "r rank") == NULL);
	cr_assert(strstr(row(F.g.h - 1), "D diff") == NULL);
	cr_assert(strstr(row(F.g.h - 1), "n/N match") == NULL);
	snprintf(F.v.query, sizeof F.v.query, "gemm");
	fx_draw(200, H);
	cr_assert(strstr(row(F.g.h - 1), "n/N match") != NULL, "%s", row(F.g.h - 1));
	F.v.query[0] = '\0';
}

Test(render, too_small)
{
	static const int sizes[][2] = { { 39, 12 }, { 40, 11 }, { 30, 8 }, { 10, 3 } };

	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		char have[32];
		int w = sizes[i][0], h = sizes[i][1];

		fx_draw(w, h);
		snprintf(have, sizeof have, "(have %dx%d)", w, h);
		cr_assert(frame_has("terminal too small") || w < 20, "%dx%d", w, h);
		cr_assert(frame_has(have) || w < 12, "%dx%d", w, h);
		if (w >= 30)
			cr_assert(frame_has("need at least 40x12"));
	}
	fx_draw(60, 12);
	cr_assert(!frame_has("terminal too small"));
	cr_assert(frame_has("compute"));
	fx_draw(60, 16);
	cr_assert(frame_has("bubbles"));
}

Test(render, every_size_draws)
{
	for (int w = RENDER_MIN_W; w <= 250; w += 37)
		for (int h = RENDER_MIN_H; h <= 70; h += 9) {
			fx_draw(w, h);
			cr_assert(strstr(row(0), "gantty"), "%dx%d", w, h);
			cr_assert(strstr(row(h - 1), "help"), "%dx%d: %s", w, h, row(h - 1));
		}
}

Test(render_ascii, ascii_mode_is_ascii_only, .init = setup_ascii, .fini = fx_teardown)
{
	int y = find_row(ROW_BUBBLE, 0, 0);

	for (int yy = 0; yy < F.g.h; yy++)
		for (int x = 0; x < F.g.w; x++)
			cr_assert_lt(grid_at(&F.g, x, yy)->ch, 0x80, "(%d, %d) U+%04X", x, yy,
			    grid_at(&F.g, x, yy)->ch);
	cr_assert_eq(glyph(y, 0), '=');
	cr_assert_eq(glyph(y, 25), '~');
	cr_assert_eq(glyph(y, 45), '!');
	cr_assert_eq(glyph(y, 65), '_');
	cr_assert_eq(glyph(find_row(ROW_GPU, 7, 0), 50), '.');
	F.v.help = 1;
	F.v.show_cpu = 1;
	F.v.sel = SEL_STEP;
	F.v.sel_index = 0;
	for (int p = 0; p < PANEL_COUNT; p++) {
		F.v.panel = (enum view_panel)p;
		fx_draw(W, H);
		for (int yy = 0; yy < F.g.h; yy++)
			for (int x = 0; x < F.g.w; x++)
				cr_assert_lt(grid_at(&F.g, x, yy)->ch, 0x80);
	}
}

Test(render_cpu, cpu_lanes, .init = setup_cpu, .fini = fx_teardown)
{
	int y0 = find_row(ROW_CPU, 0, 0), y1 = find_row(ROW_CPU, 0, 1);

	/* the thread's name and tid, then its depths under it */
	cr_assert(strstr(label(y0), "python3 1"), "label '%s'", label(y0));
	cr_assert(strstr(label(y1), "+1"), "label '%s'", label(y1));
	cr_assert(strstr(text(y0, F.lay.time_x, F.g.w), "ProfilerStep#1"));
	/* the synchronisation call covers [100, 1000): columns 10..99 */
	cr_assert_eq(role_at(y1, 50), ROLE_SYNC);
	cr_assert(strstr(text(y1, F.lay.time_x, F.g.w), "cudaStreamSynchronize"));
	cr_assert_eq(glyph(y1, 5), ' ');
	{
		int a;
		uint32_t ev = render_event_at(&F.lay, &F.v, F.lay.time_x + 50, y1, &a);

		cr_assert_str_eq(trace_str(&F.t, F.t.events[ev].name),
		    "cudaStreamSynchronize");
	}
}

Test(render_cpu, lanes_scroll_and_clamp, .init = setup_cpu, .fini = fx_teardown)
{
	int small_h = 14, last;

	fx_draw(W, small_h);
	cr_assert_lt(F.lay.lanes_h, F.lay.nlanes);
	cr_assert_eq(F.lay.rows[F.lay.lanes_y].kind, ROW_RANK);
	F.v.lane_scroll = 1000;
	fx_draw(W, small_h);
	last = F.lay.lanes_y + F.lay.lanes_h - 1;
	cr_assert_eq(F.lay.rows[last].kind, ROW_CPU, "the last lane stays visible");
	cr_assert_neq(F.lay.rows[F.lay.lanes_y].kind, ROW_RANK);
	cr_assert(frame_has("lanes "), "the panel says which lanes show");
}
