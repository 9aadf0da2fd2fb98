/*
 * bench-frame — the two costs the viewer pays on every key: drawing a frame
 * and one window's metrics, at several zoom levels, on a real trace file.
 *
 *   bench/bench-frame [-n REPS] TRACE
 *
 * The file is loaded as gantty loads it (through the cache, unless
 * --no-cache is given first: bench/run warms it), analysed per device as
 * main.c does, and put in a view of a 200x60 terminal.  For four windows
 * centred on the middle of the trace's GPU activity (the whole trace, one
 * training step, 1 ms, 10 us) it times, over REPS repetitions (default 50
 * frames, 20 x as many metrics):
 *
 *   frame     view_set_window + view_recalc + render_layout + render_frame
 *             (what a zoom or pan costs: recompute, then repaint);
 *   frame+cpu the same with everything on: the CPU lanes (Python frames
 *             folded), the counter lanes and two marks a third of the
 *             window apart (the panel measuring their range); the step and
 *             layer bands are always shown.  The folded depths are built
 *             once, when the CPU lanes are first shown: that one-time cost
 *             is printed apart ("cpu lanes prepared in").
 *   metrics   metrics_window() of the first (rank, device) alone.
 *
 * Times are the thread's CPU time (clock_gettime(CLOCK_THREAD_CPUTIME_ID)),
 * so that on a shared machine the worst case is the code's, not the time
 * other processes took.  It prints the worst and the median of each, then
 * one "summary" line with
 * the worst frame (ms) and the worst metrics (us) over all windows, for
 * bench/run.  A trace without GPU activity gets frames of its whole span
 * (the CPU lanes) and no metrics.  SPEC 7's targets: a frame <= 10 ms, window metrics <= 1 ms.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/analysis.h"
#include "load/cache.h"
#include "render/grid.h"
#include "load/load.h"
#include "analysis/metrics.h"
#include "analysis/session.h"
#include "render/render.h"
#include "model/trace.h"
#include "view/command.h"
#include "view/view.h"
#include "view/view_lanes.h"
#include "base/xalloc.h"

#define W 200
#define H 60

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * The CPU time of this thread: what a frame costs, without the time other
 * processes of a shared machine take from it (which the worst wall time of
 * many repetitions would mostly measure).
 */
static double
cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int
dbl_cmp(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/* Sorts v[0..n) and returns the median; v[n-1] is then the worst. */
static double
median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, dbl_cmp);
	return v[n / 2];
}

/*
 * Times reps frames for [a, b); fills the worst and median frame and the
 * median of its recalc part (view_set_window + view_recalc), in seconds.
 */
static void
time_frames(struct view *v, int64_t a, int64_t b, int cpu, int reps,
    double *worst, double *med, double *recalc)
{
	double *s = xcalloc((size_t)reps, sizeof *s);
	double *rc = xcalloc((size_t)reps, sizeof *rc);
	struct render_opts ro;
	struct grid g;

	memset(&ro, 0, sizeof ro);
	ro.title = "bench";
	grid_init(&g, W, H);
	v->show_cpu = cpu;
	v->show_counters = cpu;
	v->marks = cpu ? 3 : 0;
	for (int i = 0; i < reps; i++) {
		struct layout lay;
		double t = cpu_now();

		/* Alternate with a neighbouring window so each frame recomputes. */
		view_set_window(v, a + (i & 1), b + (i & 1), 0);
		v->mark_ns[0] = a + (b - a) / 3;
		v->mark_ns[1] = a + 2 * ((b - a) / 3);
		view_recalc(v);
		rc[i] = cpu_now() - t;
		render_layout(&lay, v, W, H);
		render_frame(&g, &lay, v, &ro);
		render_layout_free(&lay);
		s[i] = cpu_now() - t;
	}
	grid_free(&g);
	*med = median(s, (size_t)reps);
	*worst = s[reps - 1];
	*recalc = median(rc, (size_t)reps);
	free(s);
	free(rc);
}

static void
time_metrics(const struct metrics *d, int64_t a, int64_t b, int reps,
    double *worst, double *med)
{
	double *s = xcalloc((size_t)reps, sizeof *s);
	struct window_metrics m;

	for (int i = 0; i < reps; i++) {
		double t = cpu_now();

		metrics_window(d, a + (i & 1), b + (i & 1), &m);
		s[i] = cpu_now() - t;
	}
	*med = median(s, (size_t)reps);
	*worst = s[reps - 1];
	free(s);
}

int
main(int argc, char **argv)
{
	struct trace t, *tp = &t;
	struct load_error err;
	struct analysis_opts opts;
	struct analysis *an = NULL;
	struct view v;
	struct layout lay;
	char dir[4096], note[8192];
	const char *path;
	size_t n_analyses = 0, cap = 0;
	int reps = 50, use_cache = 1, argi = 1;
	int64_t mid, a0, a1, step_ns = 0;
	double t0, worst_frame = 0, worst_metrics = 0;
	struct {
		const char *name;
		int64_t span;
	} win[4];

	while (argi < argc && argv[argi][0] == '-') {
		if (strcmp(argv[argi], "-n") == 0 && argi + 1 < argc)
			reps = atoi(argv[++argi]);
		else if (strcmp(argv[argi], "--no-cache") == 0)
			use_cache = 0;
		else
			break;
		argi++;
	}
	if (argi + 1 != argc || reps < 1) {
		fprintf(stderr, "usage: bench-frame [-n REPS] [--no-cache] TRACE\n");
		return 2;
	}
	path = argv[argi];

	t0 = now();
	if (cache_load_trace(&t, path, NULL, &err,
	    use_cache && cache_dir(dir, sizeof dir, NULL, 0) == 0 ? dir : NULL,
	    note, sizeof note) < 0) {
		fprintf(stderr, "bench-frame: %s\n", err.msg);
		return 1;
	}
	printf("%s: %zu events, %zu tracks, loaded in %.3f s (%s)\n", path,
	    t.nevents, t.ntracks, now() - t0, note[0] ? note : "no cache");

	memset(&opts, 0, sizeof opts);
	opts.min_gap_ns = METRICS_DEFAULT_MIN_GAP_NS;
	opts.ranks_loaded = 1;
	session_analyse_traces(&an, &n_analyses, &cap, &tp, 1, &opts, -1);

	/* As main.c's setup_view() for a 200 x 60 terminal. */
	view_init(&v, an, n_analyses, t.start_ns, t.end_ns, 1);
	view_set_opts(&v, &opts);
	render_layout(&lay, &v, W, H);
	view_resize(&v, lay.time_cols > 0 ? lay.time_cols : 1);
	render_layout_free(&lay);
	view_recalc(&v);
	{
		/* the one-time cost of the first c: the folded CPU depths */
		double t1 = cpu_now();

		v.show_cpu = 1;
		view_lanes_prepare(&v);
		printf("cpu lanes prepared in %.2f ms\n", (cpu_now() - t1) * 1e3);
		v.show_cpu = 0;
	}

	a0 = an[0].has_window ? an[0].start_ns : t.start_ns;
	a1 = an[0].has_window ? an[0].end_ns : t.end_ns;
	mid = a0 + (a1 - a0) / 2;
	for (size_t s = 0; s < an[0].nsteps; s++)
		if (an[0].steps[s].has_gpu && an[0].steps[s].gpu_end_ns > mid &&
		    an[0].steps[s].gpu_start_ns <= mid) {
			step_ns = an[0].steps[s].gpu_end_ns - an[0].steps[s].gpu_start_ns;
			break;
		}
	if (step_ns == 0)
		step_ns = (a1 - a0) / 10;       /* no step there: a tenth */
	win[0].name = "whole trace";
	win[0].span = a1 - a0;
	win[1].name = "one step";
	win[1].span = step_ns;
	win[2].name = "1 ms";
	win[2].span = 1000000;
	win[3].name = "10 us";
	win[3].span = 10000;

	printf("%-12s %14s | %-28s | %-28s | %-19s\n", "window", "span ns",
	    "frame worst/median (recalc)", "frame+cpu worst/med (recalc)",
	    "metrics worst/median");
	for (int i = 0; i < 4; i++) {
		int64_t a = mid - win[i].span / 2, b = a + win[i].span;
		double fw, fm, fr, cw, cm, cr, mw = 0, mm = 0;

		if (i == 0) {
			a = a0;
			b = a1;
		}
		time_frames(&v, a, b, 0, reps, &fw, &fm, &fr);
		time_frames(&v, a, b, 1, reps, &cw, &cm, &cr);
		if (an[0].device >= 0)
			time_metrics(&an[0].dev, a, b, reps * 20, &mw, &mm);
		printf("%-12s %14lld | %6.2f / %6.2f ms (%6.2f) | %6.2f / %6.2f ms (%6.2f) | ",
		    win[i].name, (long long)(b - a), fw * 1e3, fm * 1e3, fr * 1e3,
		    cw * 1e3, cm * 1e3, cr * 1e3);
		if (an[0].device >= 0)
			printf("%6.1f / %6.1f us\n", mw * 1e6, mm * 1e6);
		else
			printf("no GPU activity\n");
		if (fw > worst_frame)
			worst_frame = fw;
		if (cw > worst_frame)
			worst_frame = cw;
		if (mw > worst_metrics)
			worst_metrics = mw;
	}
	if (an[0].device >= 0)
		printf("summary frame_ms=%.2f metrics_us=%.1f\n", worst_frame * 1e3,
		    worst_metrics * 1e6);
	else
		printf("summary frame_ms=%.2f metrics_us=-\n", worst_frame * 1e3);

	view_free(&v);
	for (size_t d = 0; d < n_analyses; d++)
		analysis_free(&an[d]);
	free(an);
	trace_free(&t);
	return 0;
}
