/*
 * bench-metrics — the cost of one window's metrics, and of precomputing
 * them, on a trace with a million GPU activities, beside a naive baseline in
 * the same run.
 *
 *   bench/bench-metrics [ACTIVITIES]      (default 1000000)
 *
 * The trace is built in memory (no JSON: this measures the metrics, not the
 * loader): two compute streams, one NCCL stream and a memcpy stream on one
 * device, each activity launched by a linked cudaLaunchKernel.  For windows
 * of several sizes it times metrics_window() (gantty) against the naive
 * method a dataframe tool uses: filter every activity against the window,
 * sort what overlaps, and sweep it for the unions.  Both must agree to the
 * nanosecond; the program exits 1 if they do not.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/metrics.h"
#include "model/trace.h"
#include "base/xalloc.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t
next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
build(struct trace *t, size_t n)
{
	uint16_t kernel = trace_category(t, "kernel", 6);
	uint16_t memcpy_cat = trace_category(t, "gpu_memcpy", 10);
	uint16_t runtime = trace_category(t, "cuda_runtime", 12);
	uint32_t cpu = trace_track(t, 100, NULL, 100, NULL);
	uint32_t streams[4];
	uint32_t names[4];
	int64_t clock[4] = { 0, 0, 0, 0 };
	const char *nm[4] = { "sm90_gemm", "flash_fwd", "ncclDevKernel_AllGather", "Memcpy DtoD" };
	int64_t base = INT64_C(1732900000000000000);

	for (int s = 0; s < 4; s++) {
		streams[s] = trace_track(t, 0, NULL, 7 + s, NULL);
		names[s] = strtab_intern(&t->strs, nm[s], strlen(nm[s]));
	}
	for (size_t i = 0; i < n; i++) {
		int s = (int)(next() % 10);
		struct event ev, launch;
		struct event_args a;
		struct args_rec rec;

		s = s < 5 ? 0 : s < 7 ? 1 : s < 9 ? 2 : 3;
		memset(&a, 0, sizeof a);
		a.correlation = (int64_t)i + 1;
		a.external_id = ID_NONE;
		a.device = 0;
		a.stream = 7 + s;
		a.comm = EV_NONE;
		clock[s] += (int64_t)(next() % 4000) + (next() % 50 == 0 ? 60000 : 500);
		memset(&ev, 0, sizeof ev);
		ev.ts_ns = base + clock[s];
		ev.dur_ns = s == 2 ? 20000 + (int64_t)(next() % 60000) : 2000 + (int64_t)(next() % 20000);
		clock[s] += ev.dur_ns;
		ev.name = names[s];
		ev.track = streams[s];
		ev.cat = s == 3 ? memcpy_cat : kernel;
		ev.cls = s == 2 ? CLASS_COMM : s == 3 ? CLASS_MEMORY : CLASS_COMPUTE;
		ev.flags = 0;
		ev.link = EV_NONE;
		rec = trace_make_args(t, &a, &ARG_NUMS_NONE);
		trace_add_event(t, &ev, &rec);
		launch = ev;
		launch.ts_ns = ev.ts_ns - 5000 - (int64_t)(next() % 5000);
		launch.dur_ns = 3000;
		launch.track = cpu;
		launch.cat = runtime;
		launch.cls = CLASS_NONE;
		launch.flags = 0;
		a.device = -1;
		a.stream = -1;
		rec = trace_make_args(t, &a, &ARG_NUMS_NONE);
		trace_add_event(t, &launch, &rec);
	}
	trace_finalize(t);
}

struct ival2 {
	int64_t s, e;
	int cls;
};

static int
by_start(const void *pa, const void *pb)
{
	const struct ival2 *a = pa, *b = pb;

	return a->s < b->s ? -1 : a->s > b->s;
}

static int64_t
sweep(struct ival2 *v, size_t n, int64_t a, int64_t b, int want)
{
	int64_t total = 0, cs = 0, ce = 0;
	int open = 0;

	for (size_t i = 0; i < n; i++) {
		int64_t s, e;

		if (want >= 0 && v[i].cls != want)
			continue;
		s = v[i].s < a ? a : v[i].s;
		e = v[i].e > b ? b : v[i].e;
		if (e <= s)
			continue;
		if (!open || s > ce) {
			total += open ? ce - cs : 0;
			cs = s;
			ce = e;
			open = 1;
		} else if (e > ce) {
			ce = e;
		}
	}
	return total + (open ? ce - cs : 0);
}

/* The naive method: scan everything, sort the overlapping, sweep. */
static void
naive(const struct trace *t, int64_t a, int64_t b, int64_t out[3])
{
	struct ival2 *v = xmalloc((t->nevents + 1) * sizeof *v);
	size_t n = 0;

	for (size_t i = 0; i < t->nevents; i++) {
		const struct event *e = &t->events[i];

		if (!event_is_activity(e) || e->ts_ns >= b || event_end(e) <= a)
			continue;
		v[n].s = e->ts_ns;
		v[n].e = event_end(e);
		v[n].cls = e->cls;
		n++;
	}
	qsort(v, n, sizeof *v, by_start);
	out[0] = sweep(v, n, a, b, -1);
	out[1] = sweep(v, n, a, b, CLASS_COMPUTE);
	out[2] = sweep(v, n, a, b, CLASS_COMM);
	free(v);
}

int
main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
	static const double fractions[] = { 1.0, 0.1, 0.01, 0.0001 };
	struct trace t;
	struct metrics d;
	double t0, build_s;
	int bad = 0;

	trace_init(&t, "synthetic");
	build(&t, n);
	t0 = now();
	metrics_build(&d, &t, 0, METRICS_DEFAULT_MIN_GAP_NS);
	build_s = now() - t0;
	printf("trace: %zu GPU activities on 4 streams, span %.3f s\n", d.nacts,
	    (double)(d.last_ns - d.first_ns) / 1e9);
	printf("precompute (metrics_build): %.1f ms\n\n", build_s * 1e3);
	printf("%-10s %8s | %14s | %14s | %8s\n", "window", "windows", "gantty/window",
	    "naive/window", "speed-up");
	for (size_t f = 0; f < sizeof fractions / sizeof fractions[0]; f++) {
		int64_t span = d.last_ns - d.first_ns;
		int64_t w = (int64_t)((double)span * fractions[f]);
		int reps = 200, naive_reps = fractions[f] >= 0.1 ? 5 : 50;
		double g = 0, nv = 0;
		int64_t sink = 0;

		for (int r = 0; r < reps; r++) {
			int64_t a = d.first_ns + (int64_t)(next() % (uint64_t)(span - w + 1));
			struct window_metrics m;
			double s = now();

			metrics_window(&d, a, a + w, &m);
			g += now() - s;
			sink += m.busy_ns;
			if (r < naive_reps) {
				int64_t ref[3];

				s = now();
				naive(&t, a, a + w, ref);
				nv += now() - s;
				if (ref[0] != m.busy_ns || ref[1] != m.compute_ns ||
				    ref[2] != m.comm_ns) {
					fprintf(stderr, "mismatch at [%" PRId64 ", %" PRId64 ")\n",
					    a, a + w);
					bad = 1;
				}
			}
		}
		g /= reps;
		nv /= naive_reps;
		printf("%9.4f%% %8d | %11.2f us | %11.2f us | %7.0fx%s\n",
		    fractions[f] * 100, reps, g * 1e6, nv * 1e6, nv / g,
		    sink == 0 ? " (empty)" : "");
	}
	printf("\ntarget (SPEC 7): one window's metrics <= 1 ms\n");
	metrics_free(&d);
	trace_free(&t);
	return bad;
}
