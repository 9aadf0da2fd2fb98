/*
 * The keyboard's selection (view_select.h) and the lanes (view_lanes.h):
 * folded CPU depths against a brute-force nesting of the non-Python
 * slices, the focus, events walked in a lane, the launch jump, the marks'
 * numbers against an oracle, and what launched a kernel (launch.h).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "analysis/analysis.h"
#include "analysis/launch.h"
#include "analysis/metrics.h"
#include "load/load.h"
#include "load/source.h"
#include "model/trace.h"
#include "view/command.h"
#include "view/view.h"
#include "view/view_lanes.h"
#include "view/view_select.h"

#include "jtrace.h"

#define US 1000LL

struct fix {
	struct trace t;
	struct analysis an;
	struct view v;
};

static void
fix_view(struct fix *f, int cols)
{
	struct analysis_opts o = j_opts();

	analysis_build(&f->an, &f->t, 0, &o);
	view_init(&f->v, &f->an, 1, f->t.start_ns, f->t.end_ns, cols);
	view_recalc(&f->v);
}

static void
fix_free(struct fix *f)
{
	view_free(&f->v);
	analysis_free(&f->an);
	trace_free(&f->t);
}

/*
 * Thread 1: with_stack frames around everything.
 *   [0,1000)   py <module>
 *     [10,990)   ProfilerStep#1
 *       [20,400)   py forward
 *         [30,390)   py nn.Module: Linear_0
 *           [40,300)   aten::linear (cpu_op)
 *             [50,60)   py helper
 *               [52,58)  cudaLaunchKernel -> k0 [100,200)
 *             [70,80)   cudaLaunchKernel -> k1 [200,260)
 *       [500,600)  py short      (a frame that ends early...)
 *         [510,700)  aten::mul   (...overrun by its child: bad nesting)
 *           [520,521) cudaLaunchKernel -> k2 [700,720)
 */
static void
folded_trace(struct trace *t)
{
	j_begin();
	cpu("python_function", "<module>", 1, 0, 1000);
	step(1, 10, 990);
	cpu("python_function", "forward", 1, 20, 380);
	cpu("python_function", "nn.Module: Linear_0", 1, 30, 360);
	cpu("cpu_op", "aten::linear", 1, 40, 260);
	cpu("python_function", "helper", 1, 50, 10);
	kernel(1, 52, "sm90_k0", 100, 200);
	kernel(1, 70, "sm90_k1", 200, 260);
	cpu("python_function", "short", 1, 500, 100);
	cpu("cpu_op", "aten::mul", 1, 510, 190);
	kernel(1, 520, "sm90_k2", 700, 720);
	j_load(t);
}

/* The event named name (the first). */
static uint32_t
named(const struct trace *t, const char *name)
{
	for (uint32_t i = 0; i < t->nevents; i++)
		if (strcmp(trace_str(t, t->events[i].name), name) == 0)
			return i;
	cr_assert_fail("no event %s", name);
	return EV_NONE;
}

/*
 * The oracle: the number of non-Python 'X' slices of e's thread with a
 * duration that start at or before e (before it in track order) and end
 * after its start.
 */
static int
oracle_depth(const struct trace *t, uint32_t ev)
{
	const struct event *e = &t->events[ev];
	const struct track *tr = &t->tracks[e->track];
	int d = 0;

	for (uint32_t k = tr->first; k < ev; k++) {
		const struct event *p = &t->events[k];

		if (event_ph(p) == 'X' && p->dur_ns > 0 && event_end(p) > e->ts_ns &&
		    t->cat_kinds[p->cat] != CAT_PYTHON_FUNCTION)
			d++;
	}
	return d;
}

Test(lanes, python_frames_fold_away)
{
	struct fix f;
	struct trace *t = &f.t;

	folded_trace(t);
	fix_view(&f, 100);
	f.v.show_cpu = 1;
	view_lanes_prepare(&f.v);
	for (uint32_t i = 0; i < t->nevents; i++) {
		const struct event *e = &t->events[i];

		if (t->tracks[e->track].kind != TRACK_CPU || event_ph(e) != 'X')
			continue;
		if (t->cat_kinds[e->cat] == CAT_PYTHON_FUNCTION)
			cr_assert_eq(view_cpu_depth(&f.v, t, i), -1, "%s shown",
			    trace_str(t, e->name));
		else
			cr_assert_eq(view_cpu_depth(&f.v, t, i), oracle_depth(t, i),
			    "%s: %d, want %d", trace_str(t, e->name),
			    view_cpu_depth(&f.v, t, i), oracle_depth(t, i));
	}
	cr_assert_eq(view_cpu_depth(&f.v, t, named(t, "ProfilerStep#1")), 0);
	cr_assert_eq(view_cpu_depth(&f.v, t, named(t, "aten::linear")), 1);
	/* the Python frames shown again (p): the raw nesting */
	view_do(&f.v, CMD_TOGGLE_PYTHON);
	cr_assert_eq(view_cpu_depth(&f.v, t, named(t, "aten::linear")),
	    t->events[named(t, "aten::linear")].depth);
	cr_assert_eq(view_cpu_depth(&f.v, t, named(t, "helper")),
	    t->events[named(t, "helper")].depth);
	fix_free(&f);
}

Test(lanes, bands_and_cpu_lanes_listed)
{
	struct fix f;
	struct row_info *rows = NULL;
	size_t n;
	int cpu = 0, steps = 0;

	folded_trace(&f.t);
	fix_view(&f, 100);
	f.v.show_cpu = 1;
	view_lanes_prepare(&f.v);
	n = view_lanes(&f.v, &rows, 0);
	for (size_t i = 0; i < n; i++) {
		cpu += rows[i].kind == ROW_CPU;
		steps += rows[i].kind == ROW_STEP_BAND;
	}
	/* the window holds folded depths 0 .. 2 (ProfilerStep, ops, launches) */
	cr_assert_eq(cpu, 3);
	cr_assert_eq(steps, 1);
	free(rows);
	fix_free(&f);
}

Test(launch, context_and_kernels)
{
	struct fix f;
	struct trace *t;
	struct launch_context lc;
	struct launched lk;
	uint32_t k0, lin;

	folded_trace(&f.t);
	fix_view(&f, 100);
	t = &f.t;
	k0 = named(t, "sm90_k0");
	lin = named(t, "aten::linear");
	launch_context(t, f.an.layers, f.an.nlayers, k0, &lc);
	cr_assert_eq(lc.launch, t->events[k0].link);
	cr_assert_eq(lc.op, lin);
	cr_assert_eq(lc.module, named(t, "nn.Module: Linear_0"));
	launch_kernels(t, lin, &lk);
	cr_assert_eq(lk.kernels, 2);
	cr_assert_eq(lk.gpu_ns, 160 * US);
	cr_assert_eq(lk.top[0], k0);
	cr_assert_eq(lk.top[1], named(t, "sm90_k1"));
	cr_assert_eq(lk.top[2], EV_NONE);
	launch_kernels(t, k0, &lk);
	cr_assert_eq(lk.kernels, 0);
	fix_free(&f);
}

/* Focus on the first GPU lane, then walk its kernels and jump to launches. */
Test(select, events_in_a_lane_and_the_launch_jump)
{
	struct fix f;
	struct trace *t;
	uint32_t k0, k1, k2;

	folded_trace(&f.t);
	fix_view(&f, 100);
	t = &f.t;
	k0 = named(t, "sm90_k0");
	k1 = named(t, "sm90_k1");
	k2 = named(t, "sm90_k2");
	view_set_cursor(&f.v, view_ns_col(&f.v, 150 * US));
	/* no focus yet: . puts it on the GPU lane and takes the kernel under the cursor */
	view_do(&f.v, CMD_NEXT_EVENT);
	cr_assert_eq(f.v.focus.kind, ROW_GPU);
	cr_assert_eq(f.v.sel, SEL_EVENT);
	cr_assert_eq(f.v.sel_index, (long)k0);
	view_do(&f.v, CMD_NEXT_EVENT);
	cr_assert_eq(f.v.sel_index, (long)k1);
	view_do(&f.v, CMD_NEXT_EVENT);
	cr_assert_eq(f.v.sel_index, (long)k2);
	view_do(&f.v, CMD_NEXT_EVENT);
	cr_assert_eq(f.v.sel_index, (long)k2, "past the last kernel");
	cr_assert_str_eq(f.v.message, "no next event in this lane");
	view_do(&f.v, CMD_PREV_EVENT);
	cr_assert_eq(f.v.sel_index, (long)k1);
	/* J: to the launch and back */
	view_do(&f.v, CMD_FOLLOW_LINK);
	cr_assert_eq(f.v.sel_index, (long)t->events[k1].link);
	cr_assert_eq(f.v.focus.kind, ROW_CPU, "the focus follows to the CPU lane");
	view_do(&f.v, CMD_FOLLOW_LINK);
	cr_assert_eq(f.v.sel_index, (long)k1);
	cr_assert_eq(f.v.focus.kind, ROW_GPU);
	/* an op: J goes to the first kernel it launched */
	view_select_goto(&f.v, 0, named(t, "aten::linear"));
	view_do(&f.v, CMD_FOLLOW_LINK);
	cr_assert_eq(f.v.sel_index, (long)k0);
	fix_free(&f);
}

Test(select, up_down_move_the_focus_and_scroll)
{
	struct fix f;
	struct row_info *rows = NULL;
	size_t n;

	folded_trace(&f.t);
	fix_view(&f, 100);
	f.v.show_cpu = 1;
	f.v.page = 2;
	view_lanes_prepare(&f.v);
	n = view_lanes(&f.v, &rows, 0);
	view_do(&f.v, CMD_LANE_DOWN);   /* the first lane */
	cr_assert_eq(f.v.focus.kind, (int)rows[0].kind);
	for (size_t i = 1; i < n; i++) {
		view_do(&f.v, CMD_LANE_DOWN);
		cr_assert_eq(f.v.focus.kind, (int)rows[i].kind, "lane %zu", i);
		cr_assert_eq(f.v.focus.depth, rows[i].depth, "lane %zu", i);
		/* in view: the page of 2 rows holds it */
		cr_assert(f.v.lane_scroll <= (int)i && (int)i < f.v.lane_scroll + 2);
	}
	view_do(&f.v, CMD_LANE_DOWN);
	cr_assert_str_eq(f.v.message, "the last lane");
	view_do(&f.v, CMD_LANE_UP);
	cr_assert_eq(f.v.focus.kind, (int)rows[n - 2].kind);
	free(rows);
	fix_free(&f);
}

/* Busy time of the folded trace's kernels inside [a, b): the oracle. */
static int64_t
oracle_busy(int64_t a, int64_t b)
{
	static const int64_t k[][2] = { { 100, 200 }, { 200, 260 }, { 700, 720 } };
	int64_t sum = 0;

	for (size_t i = 0; i < 3; i++) {
		int64_t s = k[i][0] * US > a ? k[i][0] * US : a;
		int64_t e = k[i][1] * US < b ? k[i][1] * US : b;

		sum += e > s ? e - s : 0;
	}
	return sum;
}

Test(select, marks_measure_their_range)
{
	struct fix f;
	struct window_metrics w, m;
	int64_t a, b;

	folded_trace(&f.t);
	fix_view(&f, 97);
	w = f.v.m;
	view_set_cursor(&f.v, 60);
	view_do(&f.v, CMD_MARK_B);      /* either order */
	cr_assert_eq(f.v.marks, 2);
	cr_assert_eq(view_marked_range(&f.v, &a, &b), 0);
	view_set_cursor(&f.v, 11);
	cr_assert_eq(view_do(&f.v, CMD_MARK_A) & VIEW_RECALC, VIEW_RECALC);
	view_recalc(&f.v);
	cr_assert_eq(view_marked_range(&f.v, &a, &b), 1);
	cr_assert_eq(a, view_col_ns(&f.v, 11));
	cr_assert_eq(b, view_col_ns(&f.v, 60));
	cr_assert_eq(f.v.m.start_ns, a);
	cr_assert_eq(f.v.m.end_ns, b);
	cr_assert_eq(f.v.m.busy_ns, oracle_busy(a, b), "busy %lld, want %lld",
	    (long long)f.v.m.busy_ns, (long long)oracle_busy(a, b));
	cr_assert_eq(f.v.m.idle_ns, (b - a) - oracle_busy(a, b));
	/* the report's --window of the same range */
	metrics_window(&f.an.dev, a, b, &m);
	cr_assert_eq(m.busy_ns, f.v.m.busy_ns);
	cr_assert_eq(m.compute_ns, f.v.m.compute_ns);
	cr_assert_eq(m.comm_ns, f.v.m.comm_ns);
	cr_assert_eq(m.exposed_comm_ns, f.v.m.exposed_comm_ns);
	cr_assert_eq(m.gap_count, f.v.m.gap_count);
	cr_assert_eq(m.gap_total_ns, f.v.m.gap_total_ns);
	/* Esc: the window's numbers again */
	view_do(&f.v, CMD_CLEAR_MARKS);
	view_recalc(&f.v);
	cr_assert_eq(f.v.m.busy_ns, w.busy_ns);
	cr_assert_eq(f.v.m.start_ns, f.v.start_ns);
	fix_free(&f);
}

/* ---- the args read back from the file (load/source.h) ---- */

static const char args_trace[] =
    "{\"traceEvents\": [\n"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1,"
    " \"ts\": 10.5, \"dur\": 5, \"args\": {\"Input Dims\": [[4, 8], [8, 2]],"
    " \"Input type\": [\"float\", \"float\"], \"nested\": {\"a}\": \"]{\"}}},\n"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1,"
    " \"ts\": 20.5, \"dur\": 5, \"args\": {\"Input Dims\": [[1, 1], [1, 1]]}},\n"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"quo\\\"te\", \"pid\": 1, \"tid\": 1,"
    " \"ts\": 30, \"dur\": 1},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7,"
    " \"ts\": 40, \"dur\": 2, \"args\": {\"grid\": [22, 64, 1], \"device\": 0}}\n"
    "], \"deviceProperties\": [{\"id\": 0, \"name\": \"x\"}]}\n";

/* Writes args_trace to path, gzip'd when gz. */
static void
write_args_trace(const char *path, int gz)
{
	if (gz) {
		gzFile f = gzopen(path, "wb");

		cr_assert_not_null(f);
		cr_assert_eq(gzwrite(f, args_trace, sizeof args_trace - 1),
		    (int)(sizeof args_trace - 1));
		gzclose(f);
	} else {
		FILE *f = fopen(path, "w");

		cr_assert_not_null(f);
		fputs(args_trace, f);
		fclose(f);
	}
}

/* The value of arg key in a, or NULL. */
static const char *
arg_of(const struct source_args *a, const char *key)
{
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i].key, key) == 0)
			return a->v[i].value;
	return NULL;
}

static void
check_args_file(int gz)
{
	char path[] = "/tmp/gantty-args-XXXXXX";
	struct trace t;
	struct load_error err;
	struct source_args a;
	uint32_t first = EV_NONE, second = EV_NONE, quote, k;
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	close(fd);
	write_args_trace(path, gz);
	cr_assert_eq(load_trace(&t, path, NULL, &err), 0, "%s", err.msg);
	for (uint32_t i = 0; i < t.nevents; i++)
		if (strcmp(trace_str(&t, t.events[i].name), "aten::mm") == 0) {
			if (t.events[i].ts_ns == 10500)
				first = i;
			else
				second = i;
		}
	quote = named(&t, "quo\"te");
	k = named(&t, "k");
	/* the first of two same-named ops: told apart by their ts */
	cr_assert_eq(source_read_args(&t, first, &a), 1, "%s", a.msg);
	cr_assert_eq(a.n, 3);
	cr_assert_str_eq(arg_of(&a, "Input Dims"), "[[4,8],[8,2]]");
	cr_assert_str_eq(arg_of(&a, "Input type"), "[\"float\",\"float\"]");
	cr_assert_str_eq(arg_of(&a, "nested"), "{\"a}\":\"]{\"}");
	source_args_free(&a);
	cr_assert_eq(source_read_args(&t, second, &a), 1);
	cr_assert_str_eq(arg_of(&a, "Input Dims"), "[[1,1],[1,1]]");
	source_args_free(&a);
	/* an escaped name, no args */
	cr_assert_eq(source_read_args(&t, quote, &a), 1, "%s", a.msg);
	cr_assert_eq(a.n, 0);
	source_args_free(&a);
	cr_assert_eq(source_read_args(&t, k, &a), 1);
	cr_assert_str_eq(arg_of(&a, "grid"), "[22,64,1]");
	source_args_free(&a);
	/* the file gone: said, not guessed */
	unlink(path);
	cr_assert_eq(source_read_args(&t, k, &a), 0);
	cr_assert(strstr(a.msg, "cannot open") != NULL, "%s", a.msg);
	source_args_free(&a);
	trace_free(&t);
}

Test(args, read_back_from_a_plain_file)
{
	check_args_file(0);
}

Test(args, read_back_from_a_gzip_file)
{
	check_args_file(1);
}

/*
 * The block index (trace.h src): a 10 MB plain trace, loaded in one thread
 * and in four chunks, gets the same blocks (in file order, each 256 KB of
 * the file, its events' ts range); an event's args read through the blocks
 * (one seek) are those the whole file's scan finds, for events all over the
 * file, and a kernel's and its op's come in one call.
 */
Test(args, read_back_through_the_block_index)
{
	char path[] = "/tmp/gantty-src-XXXXXX";
	struct trace t[2];
	struct load_error err;
	struct load_opts o[2];
	int fd = mkstemp(path);
	FILE *f;
	const int n = 60000;

	cr_assert_geq(fd, 0);
	cr_assert_not_null(f = fdopen(fd, "w"));
	fputs("{\"traceEvents\": [\n", f);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k%d\","
		    " \"pid\": 0, \"tid\": 7, \"ts\": %d, \"dur\": 5, \"args\":"
		    " {\"device\": 0, \"stream\": 7, \"grid\": [%d,1,1],"
		    " \"pad\": \"%0100d\"}}", i ? ",\n" : "", i % 97, 10 * i, i, i);
	fputs("\n]}\n", f);
	cr_assert_eq(fclose(f), 0);
	memset(o, 0, sizeof o);
	o[0].threads = 1;
	o[1].threads = 4;
	for (int k = 0; k < 2; k++)
		cr_assert_eq(load_trace(&t[k], path, &o[k], &err), 0, "%s", err.msg);
	cr_assert_gt(err.chunks, 1, "read in %d chunks", err.chunks);
	cr_assert_gt(t[0].nsrc, 30, "%zu blocks", t[0].nsrc);
	cr_assert_eq(t[1].nsrc, t[0].nsrc);
	cr_assert_eq(memcmp(t[0].src, t[1].src, t[0].nsrc * sizeof *t[0].src), 0,
	    "the blocks depend on the threads");
	for (size_t b = 1; b < t[0].nsrc; b++) {
		cr_assert_gt(t[0].src[b].off, t[0].src[b - 1].off);
		cr_assert_neq(t[0].src[b].off / TRACE_SRC_BLOCK,
		    t[0].src[b - 1].off / TRACE_SRC_BLOCK);
		cr_assert_leq(t[0].src[b].min_ts_ns, t[0].src[b].max_ts_ns);
	}
	for (uint32_t i = 0; i < t[1].nevents; i += 4999) {
		struct source_args fast, whole;
		struct trace no_index = t[1];
		char want[32];

		snprintf(want, sizeof want, "[%lld,1,1]",
		    (long long)(t[1].events[i].ts_ns / 10000));
		cr_assert_eq(source_read_args(&t[1], i, &fast), 1, "%s", fast.msg);
		no_index.nsrc = 0;      /* the whole file's scan, the oracle */
		cr_assert_eq(source_read_args(&no_index, i, &whole), 1, "%s", whole.msg);
		cr_assert_str_eq(arg_of(&fast, "grid"), want);
		cr_assert_eq(fast.n, whole.n);
		for (size_t a = 0; a < fast.n; a++) {
			cr_assert_str_eq(fast.v[a].key, whole.v[a].key);
			cr_assert_str_eq(fast.v[a].value, whole.v[a].value);
		}
		source_args_free(&fast);
		source_args_free(&whole);
	}
	{
		/* two at once: the first event and the last */
		uint32_t ev[2] = { 0, (uint32_t)t[1].nevents - 1 };
		struct source_args two[2];

		cr_assert_eq(source_read_args_n(&t[1], ev, 2, two), 2);
		cr_assert_str_eq(arg_of(&two[0], "grid"), "[0,1,1]");
		cr_assert_str_eq(arg_of(&two[1], "grid"), "[59999,1,1]");
		source_args_free(&two[0]);
		source_args_free(&two[1]);
	}
	unlink(path);
	for (int k = 0; k < 2; k++)
		trace_free(&t[k]);
}

/* ---- counters ---- */

/* A 'C' event of series name in process 100 at ts (us) with value. */
static void
counter(const char *name, long long ts, double value)
{
	j_sep();
	fprintf(jf, "{\"ph\": \"C\", \"name\": \"%s\", \"pid\": 100, \"ts\": %lld,"
	    " \"args\": {\"v\": %g}}", name, ts, value);
}

Test(counters, lanes_values_and_peaks)
{
	struct fix f;
	struct row_info *rows = NULL;
	size_t n, nc = 0;
	uint32_t track = UINT32_MAX;
	double x;

	j_begin();
	step(1, 0, 100);
	kernel(1, 1, "sm90_k", 10, 90);
	counter("queue", 0, 1);
	counter("queue", 20, 7);
	counter("queue", 40, 3);
	counter("queue", 60, 5);
	j_load(&f.t);
	fix_view(&f, 100);
	n = view_lanes(&f.v, &rows, 0);
	for (size_t i = 0; i < n; i++)
		nc += rows[i].kind == ROW_COUNTER;
	cr_assert_eq(nc, 0, "no counter lanes until C");
	free(rows);
	view_do(&f.v, CMD_TOGGLE_COUNTERS);
	n = view_lanes(&f.v, &rows, 0);
	for (size_t i = 0; i < n; i++)
		if (rows[i].kind == ROW_COUNTER) {
			nc++;
			track = rows[i].track;
		}
	free(rows);
	cr_assert_eq(nc, 1);
	cr_assert_eq(view_counter_peak(&f.v, 0, track), 7);
	/* the value in effect: the last sample at or before the instant */
	cr_assert_eq(view_counter_at(&f.v, 0, track, 19 * US, &x), 1);
	cr_assert_eq(x, 1);
	cr_assert_eq(view_counter_at(&f.v, 0, track, 20 * US, &x), 1);
	cr_assert_eq(x, 7);
	cr_assert_eq(view_counter_at(&f.v, 0, track, 59 * US, &x), 1);
	cr_assert_eq(x, 3);
	cr_assert_eq(view_counter_at(&f.v, 0, track, -1, &x), 0, "before the first sample");
	/* the largest in a range: the one in effect at its start counts */
	cr_assert_eq(view_counter_max(&f.v, 0, track, 45 * US, 70 * US, &x), 1);
	cr_assert_eq(x, 5);
	cr_assert_eq(view_counter_max(&f.v, 0, track, 21 * US, 30 * US, &x), 1);
	cr_assert_eq(x, 7);
	fix_free(&f);
}

/*
 * A 'C' event with several numeric series (Kineto's memory counters: total
 * allocated and reserved in one event) gets a lane per series, each with
 * its own values; a string arg is no series.
 */
Test(counters, every_numeric_series_gets_a_lane)
{
	static const char *const want[2] = { "mem allocated", "mem reserved" };
	struct fix f;
	struct row_info *rows = NULL;
	size_t n, nc = 0;
	double x;

	j_begin();
	step(1, 0, 100);
	kernel(1, 1, "sm90_k", 10, 90);
	for (int i = 0; i < 3; i++) {
		j_sep();
		fprintf(jf, "{\"ph\": \"C\", \"name\": \"mem\", \"pid\": 100, \"ts\": %d,"
		    " \"args\": {\"allocated\": %d, \"reserved\": %d, \"unit\": \"MB\"}}",
		    i * 20, 10 + i, 100 + 2 * i);
	}
	j_load(&f.t);
	fix_view(&f, 100);
	view_do(&f.v, CMD_TOGGLE_COUNTERS);
	n = view_lanes(&f.v, &rows, 0);
	for (size_t i = 0; i < n; i++) {
		const struct track *tr;

		if (rows[i].kind != ROW_COUNTER)
			continue;
		cr_assert_lt(nc, 2, "a lane for a string arg");
		tr = &f.t.tracks[rows[i].track];
		cr_assert_str_eq(trace_str(&f.t, tr->name), want[nc]);
		cr_assert_eq(view_counter_peak(&f.v, 0, rows[i].track),
		    nc == 0 ? 12 : 104);
		cr_assert_eq(view_counter_at(&f.v, 0, rows[i].track, 25 * US, &x), 1);
		cr_assert_eq(x, nc == 0 ? 11 : 102);
		nc++;
	}
	free(rows);
	cr_assert_eq(nc, 2);
	fix_free(&f);
}

/* The CPU lanes show by themselves when every lane fits, until c. */
Test(lanes, cpu_lanes_use_spare_rows)
{
	struct fix f;
	struct row_info *rows = NULL;
	size_t all;

	folded_trace(&f.t);
	fix_view(&f, 100);
	cr_assert_eq(view_cpu_shown(&f.v), 0, "room unknown: off");
	f.v.show_cpu = 1;
	all = view_lanes(&f.v, &rows, 0);
	free(rows);
	f.v.show_cpu = 0;
	f.v.lane_room = (int)all - 1;
	cr_assert_eq(view_cpu_shown(&f.v), 0, "one row short: off");
	f.v.lane_room = (int)all;
	cr_assert_eq(view_cpu_shown(&f.v), 1, "they fit: on");
	cr_assert_eq(view_lanes(&f.v, &rows, 0), all);
	free(rows);
	/* c hides what is shown, and the lanes no longer come by themselves */
	view_do(&f.v, CMD_TOGGLE_CPU);
	cr_assert_eq(view_cpu_shown(&f.v), 0);
	view_do(&f.v, CMD_TOGGLE_CPU);
	cr_assert_eq(view_cpu_shown(&f.v), 1);
	cr_assert_eq(f.v.show_cpu, 1);
	view_do(&f.v, CMD_TOGGLE_CPU);
	f.v.lane_room = 1000;
	cr_assert_eq(view_cpu_shown(&f.v), 0, "after c, room does not bring them back");
	fix_free(&f);
}
