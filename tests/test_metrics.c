#include "config.h"

#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/ivset.h"
#include "analysis/metrics.h"
#include "base/strtab.h"
#include "model/trace.h"
#include "model/track.h"
#include "base/xalloc.h"
#include "testrng.h"

#define NO_LAUNCH INT64_MIN     /* b_act(): the activity has no launch call */
#define DANGLING (INT64_MIN + 1) /* b_act(): a correlation with no launch */
#define BIG_GAP INT64_C(1000000000000)

/* ---- random numbers ---------------------------------------------------- */

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- building traces the way the loader does --------------------------- */

struct builder {
	struct trace t;
	uint32_t cpu;           /* the thread that launches everything */
	int64_t next_corr;
};

static void
b_init(struct builder *b)
{
	trace_init(&b->t, "test");
	b->cpu = trace_track(&b->t, 1000, NULL, 1, NULL);
	b->next_corr = 1;
}

static struct event
b_event(struct builder *b, uint32_t track, const char *category,
    const char *name, int64_t ts_ns, int64_t dur_ns)
{
	struct event ev;
	enum cat_kind kind = trace_cat_kind(category);

	memset(&ev, 0, sizeof ev);
	ev.ts_ns = ts_ns;
	ev.dur_ns = dur_ns;
	ev.name = strtab_intern(&b->t.strs, name, strlen(name));
	ev.track = track;
	ev.link = EV_NONE;
	ev.cat = trace_category(&b->t, category, strlen(category));
	ev.cls = (uint8_t)trace_classify(kind);
	return ev;
}

static struct args_rec
b_args(struct builder *b, int64_t corr, int32_t device)
{
	struct event_args a;

	memset(&a, 0, sizeof a);
	a.correlation = corr;
	a.external_id = ID_NONE;
	a.device = device;
	a.stream = -1;
	a.comm = EV_NONE;
	return trace_make_args(&b->t, &a, &ARG_NUMS_NONE);
}

/*
 * Adds a GPU activity on stream (pid, tid): device is its args.device (-1:
 * none, so the pid), launch_ts the start of its launch call (NO_LAUNCH: no
 * correlation at all; DANGLING: a correlation that no launch carries).
 */
static void
b_act(struct builder *b, int64_t pid, int64_t tid, const char *category,
    const char *name, int64_t ts_ns, int64_t dur_ns, int32_t device,
    int64_t launch_ts)
{
	uint32_t track = trace_track(&b->t, pid, NULL, tid, NULL);
	struct event ev = b_event(b, track, category, name, ts_ns, dur_ns);
	int64_t corr = ID_NONE;
	struct args_rec r = ARGS_REC_NONE;

	cr_assert(event_is_activity(&ev), "%s/%s is no activity", category, name);
	if (launch_ts != NO_LAUNCH)
		corr = b->next_corr++;
	if (launch_ts != NO_LAUNCH && launch_ts != DANGLING) {
		struct event l = b_event(b, b->cpu, "cuda_runtime",
		    "cudaLaunchKernel", launch_ts, 3);

		r = b_args(b, corr, -1);
		cr_assert_neq(trace_add_event(&b->t, &l, &r), EV_NONE);
	} else if (launch_ts == DANGLING) {
		corr += INT64_C(1) << 40;       /* nobody has it */
	}
	r = ARGS_REC_NONE;
	if (corr != ID_NONE || device >= 0)
		r = b_args(b, corr, device);
	cr_assert_neq(trace_add_event(&b->t, &ev, &r), EV_NONE);
}

static void
b_kernel(struct builder *b, int64_t tid, const char *name, int64_t ts_ns,
    int64_t dur_ns)
{
	b_act(b, 0, tid, "kernel", name, ts_ns, dur_ns, -1, NO_LAUNCH);
}

/* Finalizes b's trace and builds device 0's metrics of it into d. */
static void
b_metrics(struct builder *b, struct metrics *d, int64_t min_gap_ns)
{
	trace_finalize(&b->t);
	metrics_build(d, &b->t, 0, min_gap_ns);
}

/* Frees what b_metrics() built and b's trace. */
static void
b_free(struct builder *b, struct metrics *d)
{
	metrics_free(d);
	trace_free(&b->t);
}

/* The event of the given name starting at ts_ns (unique in these tests). */
static uint32_t
find_act(const struct trace *t, const char *name, int64_t ts_ns)
{
	uint32_t id = strtab_find(&t->strs, name, strlen(name));

	for (uint32_t i = 0; i < t->nevents; i++)
		if (t->events[i].name == id && t->events[i].ts_ns == ts_ns)
			return i;
	cr_assert_fail("no %s at %lld", name, (long long)ts_ns);
	return EV_NONE;
}

/* ---- the oracle: one byte per nanosecond ------------------------------- */

struct oracle {
	const struct trace *t;
	int32_t device;
	int64_t lo, hi;         /* the arrays cover [lo, hi); idle at both ends */
	uint8_t *cls;           /* bit c set: some activity of class c runs */
	uint8_t *kind;          /* an idle ns: the kind of its maximal idle run */
};

static int
oracle_is_act(const struct oracle *o, const struct event *e)
{
	return event_is_activity(e) && trace_event_device(o->t, e) == o->device;
}

/*
 * The kind of the maximal idle run [rs, re) that has activity on both sides:
 * the first activity (by index) starting at re that has a launch decides.
 */
static uint8_t
oracle_run_kind(const struct oracle *o, int64_t rs, int64_t re)
{
	const struct trace *t = o->t;

	for (uint32_t i = 0; i < t->nevents; i++) {
		const struct event *e = &t->events[i];

		if (!oracle_is_act(o, e) || e->ts_ns != re || e->link == EV_NONE)
			continue;
		if (t->events[e->link].ts_ns >= rs)
			return IDLE_HOST_WAIT;
		break;
	}
	return re - rs < METRICS_SHORT_WAIT_NS ? IDLE_KERNEL_WAIT : IDLE_OTHER;
}

static void
oracle_init(struct oracle *o, const struct trace *t, int32_t device,
    int64_t lo, int64_t hi)
{
	size_t n = (size_t)(hi - lo);
	int64_t x;

	o->t = t;
	o->device = device;
	o->lo = lo;
	o->hi = hi;
	o->cls = xcalloc(n, 1);
	o->kind = xcalloc(n, 1);
	for (uint32_t i = 0; i < t->nevents; i++) {
		const struct event *e = &t->events[i];

		if (!oracle_is_act(o, e))
			continue;
		cr_assert(e->ts_ns > lo && event_end(e) < hi);
		for (x = e->ts_ns; x < event_end(e); x++)
			o->cls[x - lo] |= (uint8_t)(1u << e->cls);
	}
	cr_assert(o->cls[0] == 0 && o->cls[n - 1] == 0);
	/* Walk the maximal idle runs; those touching the array's ends are "other". */
	for (x = lo; x < hi;) {
		int64_t rs = x, re;
		uint8_t k;

		if (o->cls[x - lo] != 0) {
			x++;
			continue;
		}
		while (x < hi && o->cls[x - lo] == 0)
			x++;
		re = x;
		k = rs == lo || re == hi ? IDLE_OTHER : oracle_run_kind(o, rs, re);
		for (int64_t y = rs; y < re; y++)
			o->kind[y - lo] = k;
	}
}

static void
oracle_free(struct oracle *o)
{
	free(o->cls);
	free(o->kind);
}

static int
gap_order(const void *pa, const void *pb)
{
	const struct gap *a = pa, *b = pb;

	if (a->dur_ns != b->dur_ns)
		return a->dur_ns > b->dur_ns ? -1 : 1;
	return (a->start_ns > b->start_ns) - (a->start_ns < b->start_ns);
}

/*
 * What metrics_window() must give, by walking every nanosecond of the
 * window that the arrays cover (the rest is idle, "other").  The window must
 * lie within [INT64_MIN/2, INT64_MAX/2].
 */
static void
oracle_window(const struct oracle *o, int64_t a, int64_t b, int64_t min_gap,
    struct window_metrics *m)
{
	struct gap *runs = NULL;
	size_t nruns = 0, cap = 0;
	int64_t ca = a > o->lo ? a : o->lo, cb = b < o->hi ? b : o->hi;
	int64_t comp = 0, comm = 0, mem = 0, busy = 0, ov = 0;

	memset(m, 0, sizeof *m);
	m->start_ns = a;
	m->end_ns = b;
	m->overlap_pct = -1;
	if (b <= a)
		return;
	if (ca >= cb) {                 /* beside the arrays: all idle */
		xgrow(&runs, &cap, 1, sizeof *runs);
		runs[nruns++] = (struct gap){ a, b - a };
		m->idle_by_kind_ns[IDLE_OTHER] = b - a;
	} else {
		m->idle_by_kind_ns[IDLE_OTHER] = (ca - a) + (b - cb);
		for (int64_t x = ca; x < cb; x++) {
			uint8_t c = o->cls[x - o->lo];
			int cp = (c >> CLASS_COMPUTE) & 1, cm = (c >> CLASS_COMM) & 1;

			comp += cp;
			comm += cm;
			mem += (c >> CLASS_MEMORY) & 1;
			ov += cp & cm;
			if (c != 0) {
				busy++;
				continue;
			}
			m->idle_by_kind_ns[o->kind[x - o->lo]]++;
			if (nruns > 0 && runs[nruns - 1].start_ns +
			    runs[nruns - 1].dur_ns == x)
				runs[nruns - 1].dur_ns++;
			else {
				xgrow(&runs, &cap, nruns + 1, sizeof *runs);
				runs[nruns++] = (struct gap){ x, 1 };
			}
		}
		/* A run at an end of the arrays reaches on to the window's end. */
		if (nruns > 0 && runs[0].start_ns == ca) {
			runs[0].dur_ns += ca - a;
			runs[0].start_ns = a;
		}
		if (nruns > 0 && runs[nruns - 1].start_ns +
		    runs[nruns - 1].dur_ns == cb)
			runs[nruns - 1].dur_ns += b - cb;
	}
	m->busy_ns = busy;
	m->idle_ns = (b - a) - busy;
	m->compute_ns = comp;
	m->comm_ns = comm;
	m->memory_ns = mem;
	m->overlap_ns = ov;
	m->exposed_comm_ns = comm - ov;
	if (comm > 0)
		m->overlap_pct = 100.0 * (double)ov / (double)comm;
	{
		size_t k = 0;

		for (size_t i = 0; i < nruns; i++)
			if (runs[i].dur_ns >= min_gap)
				runs[k++] = runs[i];
		nruns = k;
	}
	if (nruns > 0)
		qsort(runs, nruns, sizeof *runs, gap_order);
	m->gap_count = nruns;
	for (size_t i = 0; i < nruns; i++)
		m->gap_total_ns += runs[i].dur_ns;
	m->ntop = nruns < METRICS_TOP_K ? nruns : METRICS_TOP_K;
	if (m->ntop > 0)
		memcpy(m->top, runs, m->ntop * sizeof *runs);
	free(runs);
}

/* Asserts that every field of got equals want. */
static void
check_window(const struct window_metrics *got, const struct window_metrics *want,
    const char *ctx)
{
#define EQ(f) cr_assert_eq(got->f, want->f, "%s: " #f " %lld, want %lld", ctx, \
	    (long long)got->f, (long long)want->f)
	EQ(start_ns);
	EQ(end_ns);
	EQ(busy_ns);
	EQ(idle_ns);
	EQ(compute_ns);
	EQ(comm_ns);
	EQ(memory_ns);
	EQ(overlap_ns);
	EQ(exposed_comm_ns);
	EQ(idle_by_kind_ns[IDLE_HOST_WAIT]);
	EQ(idle_by_kind_ns[IDLE_KERNEL_WAIT]);
	EQ(idle_by_kind_ns[IDLE_OTHER]);
	EQ(gap_count);
	EQ(gap_total_ns);
	EQ(ntop);
	for (size_t i = 0; i < want->ntop; i++) {
		EQ(top[i].start_ns);
		EQ(top[i].dur_ns);
	}
#undef EQ
	if (want->comm_ns == 0)
		cr_assert_lt(got->overlap_pct, 0, "%s: overlap_pct %g", ctx,
		    got->overlap_pct);
	else
		cr_assert_eq(got->overlap_pct, want->overlap_pct,
		    "%s: overlap_pct %g, want %g", ctx, got->overlap_pct,
		    want->overlap_pct);
	/* And the identities that hold whatever the oracle says. */
	cr_assert_eq(got->idle_by_kind_ns[0] + got->idle_by_kind_ns[1] +
	    got->idle_by_kind_ns[2], got->idle_ns, "%s: kinds sum", ctx);
	cr_assert_eq(got->overlap_ns + got->exposed_comm_ns, got->comm_ns,
	    "%s: overlap + exposed", ctx);
}

/* ---- top kernels by brute force ---------------------------------------- */

static int
ktotal_order(const void *pa, const void *pb)
{
	const struct kernel_total *a = pa, *b = pb;

	if (a->total_ns != b->total_ns)
		return a->total_ns > b->total_ns ? -1 : 1;
	if (a->name != b->name)
		return a->name < b->name ? -1 : 1;
	return (a->cls > b->cls) - (a->cls < b->cls);
}

static size_t
brute_top_kernels(const struct trace *t, int32_t device, int64_t a, int64_t b,
    struct kernel_total *out, size_t k)
{
	struct kernel_total *v = NULL;
	size_t n = 0, cap = 0;

	if (b <= a)
		return 0;
	for (uint32_t i = 0; i < t->nevents; i++) {
		const struct event *e = &t->events[i];
		int64_t lo, hi;
		size_t j;

		if (!event_is_activity(e) || trace_event_device(t, e) != device)
			continue;
		if (e->dur_ns == 0 ? !(a <= e->ts_ns && e->ts_ns < b) :
		    !(e->ts_ns < b && event_end(e) > a))
			continue;
		for (j = 0; j < n; j++)
			if (v[j].name == e->name && v[j].cls == e->cls)
				break;
		if (j == n) {
			xgrow(&v, &cap, n + 1, sizeof *v);
			memset(&v[n], 0, sizeof *v);
			v[n].name = e->name;
			v[n].cls = e->cls;
			n++;
		}
		lo = e->ts_ns > a ? e->ts_ns : a;
		hi = event_end(e) < b ? event_end(e) : b;
		v[j].count++;
		v[j].total_ns += hi > lo ? hi - lo : 0;
	}
	if (n > 0)
		qsort(v, n, sizeof *v, ktotal_order);
	if (k > n)
		k = n;
	if (k > 0)
		memcpy(out, v, k * sizeof *v);
	free(v);
	return k;
}

static void
check_top_kernels(const struct metrics *d, int64_t a, int64_t b, size_t k,
    const char *ctx)
{
	struct kernel_total got[64], want[64];
	size_t ng, nw;

	struct kernel_index ki;

	cr_assert_leq(k, 64);
	nw = brute_top_kernels(d->t, d->device, a, b, want, k);
	metrics_kernel_index_build(&ki, d);
	cr_assert(ki.usable, "%s: the kernel index is usable", ctx);
	/* the scan, the index alone, and the two together */
	for (int how = 0; how < 3; how++) {
		ng = how == 0 ? metrics_top_kernels(d, a, b, got, k) :
		    how == 1 ? metrics_top_kernels_by_index(d, &ki, a, b, got, k) :
		    metrics_top_kernels_indexed(d, &ki, a, b, got, k);
		cr_assert_eq(ng, nw, "%s (%d): %zu kernels, want %zu", ctx, how, ng, nw);
		for (size_t i = 0; i < nw; i++) {
			cr_assert_eq(got[i].name, want[i].name, "%s (%d): #%zu name", ctx, how, i);
			cr_assert_eq(got[i].cls, want[i].cls, "%s (%d): #%zu cls", ctx, how, i);
			cr_assert_eq(got[i].count, want[i].count, "%s (%d): #%zu count", ctx, how, i);
			cr_assert_eq(got[i].total_ns, want[i].total_ns,
			    "%s (%d): #%zu total", ctx, how, i);
		}
	}
	metrics_kernel_index_free(&ki);
}

/* ---- random traces ----------------------------------------------------- */

struct gen {
	int64_t span;           /* activity starts in [0, span) */
	int nacts;
	int64_t maxdur;
	int two_devices;        /* streams of device 1 too, one named by args only */
	int64_t launch_spread;  /* launch calls start up to this before their activity */
};

static const char *const compute_names[] = {
	"ampere_bf16_gemm", "vectorized_elementwise_kernel", "flash_fwd_kernel",
};
static const char *const comm_names[] = {
	"ncclDevKernel_AllReduce_Sum_bf16_RING_LL",
	"ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL",
};

/* Builds a random trace into b; returns the largest end of any activity. */
static int64_t
gen_trace(struct builder *b, const struct gen *g, uint64_t seed)
{
	uint64_t s = seed * 0x9e3779b97f4a7c15ull + 1;
	int64_t *starts = xcalloc((size_t)g->nacts, sizeof *starts);
	int64_t *ends = xcalloc((size_t)g->nacts, sizeof *ends);
	int64_t maxend = 0;

	b_init(b);
	for (int i = 0; i < g->nacts; i++) {
		int64_t r = rng_below(&s, 100), ts, dur, launch;
		int64_t pid = 0, tid, q;
		int32_t dev = -1;
		const char *cat = "kernel", *name;

		/* Same starts and touching ends make the corner cases. */
		if (i > 0 && r < 12)
			ts = starts[rng_below(&s, i)];
		else if (i > 0 && r < 22)
			ts = ends[rng_below(&s, i)];
		else
			ts = rng_below(&s, g->span);
		r = rng_below(&s, 100);
		if (r < 6)
			dur = 0;
		else if (r < 12)
			dur = 1 + rng_below(&s, g->maxdur * 6);
		else
			dur = 1 + rng_below(&s, g->maxdur);

		/* Streams 7, 8 compute, 9 comm, 10 memory; device 1 on pid 1. */
		tid = 7 + rng_below(&s, 4);
		if (g->two_devices && rng_below(&s, 3) == 0) {
			pid = 1;
			if (tid == 10) {        /* pid 0's stream 11 says device 1 */
				pid = 0;
				tid = 11;
				dev = 1;
			}
		} else if (g->two_devices && tid == 8 && rng_below(&s, 5) == 0) {
			dev = 1;                /* pid 0's stream 8 mixes devices */
		} else if (rng_below(&s, 4) == 0) {
			dev = (int32_t)pid;     /* args.device equal to the pid */
		}
		q = rng_below(&s, 100);
		if (tid == 9 || (tid != 10 && tid != 11 && q < 8))
			name = comm_names[rng_below(&s, 2)];
		else if (tid == 10 || tid == 11 || q < 16) {
			cat = rng_below(&s, 2) ? "gpu_memcpy" : "gpu_memset";
			name = cat[4] == 'c' ? "Memcpy DtoD (Device -> Device)" :
			    "Memset (Device)";
		} else
			name = compute_names[rng_below(&s, 3)];

		r = rng_below(&s, 100);
		if (r < 12)
			launch = NO_LAUNCH;
		else if (r < 18)
			launch = DANGLING;
		else
			launch = ts - rng_below(&s, g->launch_spread);
		b_act(b, pid, tid, cat, name, ts, dur, dev, launch);
		starts[i] = ts;
		ends[i] = ts + dur;
		if (ends[i] > maxend)
			maxend = ends[i];
	}
	free(starts);
	free(ends);
	trace_finalize(&b->t);
	return maxend;
}

/* A random window endpoint: near an activity boundary half the time. */
static int64_t
rand_point(uint64_t *s, const struct trace *t, int64_t lo, int64_t hi)
{
	if (t->nevents > 0 && rng_below(s, 2) == 0) {
		const struct event *e = &t->events[rng_below(s, (int64_t)t->nevents)];
		int64_t base = rng_below(s, 2) ? e->ts_ns : event_end(e);

		return base + rng_below(s, 3) - 1;
	}
	return lo + rng_below(s, hi - lo);
}

/* Checks d against the oracle for many windows. */
static void
check_random_windows(const struct metrics *d, const struct oracle *o,
    uint64_t seed, int nwin)
{
	uint64_t s = seed ^ 0x5bd1e995u;
	struct window_metrics got, want;
	char ctx[160];
	int64_t lo = o->lo, hi = o->hi;
	int64_t special[][2] = {
		{ d->first_ns, d->last_ns },
		{ lo, hi },
		{ lo + 1, hi - 1 },
		{ INT64_MIN / 2, INT64_MAX / 2 },
		{ INT64_MIN / 2, lo + 3 },
		{ hi - 3, INT64_MAX / 2 },
		{ hi + 10, hi + 20 },           /* after all activity */
		{ lo - 20, lo - 10 },           /* before it */
		{ d->first_ns, d->first_ns },   /* empty */
		{ d->last_ns, d->first_ns },    /* inverted */
		{ 0, 1 },
	};
	size_t nspecial = sizeof special / sizeof special[0];

	for (int w = 0; w < nwin + (int)nspecial; w++) {
		int64_t a, b;

		if (w < (int)nspecial) {
			a = special[w][0];
			b = special[w][1];
		} else {
			a = rand_point(&s, d->t, lo, hi);
			if (rng_below(&s, 4) == 0)
				b = a + rng_below(&s, 60);
			else
				b = rand_point(&s, d->t, lo, hi);
			if (rng_below(&s, 10) != 0 && b < a) {
				int64_t x = a;

				a = b;
				b = x;
			}
		}
		snprintf(ctx, sizeof ctx, "seed %llu device %d min_gap %lld "
		    "window [%lld, %lld)", (unsigned long long)seed, d->device,
		    (long long)d->min_gap_ns, (long long)a, (long long)b);
		metrics_window(d, a, b, &got);
		oracle_window(o, a, b, d->min_gap_ns, &want);
		check_window(&got, &want, ctx);
		if (w % 4 == 0) {
			check_top_kernels(d, a, b, 3, ctx);
			check_top_kernels(d, a, b, 64, ctx);
		}
	}
}

/* Checks what metrics_build() gathered against the trace. */
static void
check_acts(const struct metrics *d)
{
	const struct trace *t = d->t;
	size_t n = 0;
	int64_t first = 0, last = 0;

	for (uint32_t i = 0; i < t->nevents; i++) {
		const struct event *e = &t->events[i];

		if (!event_is_activity(e) || trace_event_device(t, e) != d->device)
			continue;
		if (n == 0 || e->ts_ns < first)
			first = e->ts_ns;
		if (n == 0 || event_end(e) > last)
			last = event_end(e);
		n++;
	}
	cr_assert_eq(d->nacts, n);
	cr_assert_eq(d->first_ns, first);
	cr_assert_eq(d->last_ns, last);
	for (size_t i = 0; i < d->nacts; i++) {
		const struct event *e = &t->events[d->acts[i]];

		cr_assert(event_is_activity(e));
		cr_assert_eq(trace_event_device(t, e), d->device);
		if (i > 0) {
			const struct event *p = &t->events[d->acts[i - 1]];

			cr_assert(p->ts_ns < e->ts_ns || (p->ts_ns == e->ts_ns &&
			    d->acts[i - 1] < d->acts[i]), "acts out of order at %zu", i);
		}
	}
	cr_assert_eq(d->nholes, d->all.n > 1 ? d->all.n - 1 : 0);
}

/* Checks nseeds random traces; each kind in want_kinds (bits) must occur. */
static void
run_random(const struct gen *g, uint64_t seed0, int nseeds, int nwin,
    unsigned want_kinds)
{
	static const int64_t min_gaps[] = { 0, 1, 5, 40, 300, BIG_GAP };
	int kinds_seen[IDLE_KINDS] = { 0, 0, 0 };

	for (uint64_t seed = seed0; seed < seed0 + (uint64_t)nseeds; seed++) {
		struct builder b;
		int32_t *devs;
		size_t ndev;
		int64_t maxend = gen_trace(&b, g, seed);

		ndev = metrics_devices(&b.t, &devs);
		cr_assert_geq(ndev, 1);
		cr_assert_leq(ndev, 2);
		cr_assert_eq(devs[0], 0);
		if (ndev == 2)
			cr_assert_eq(devs[1], 1);
		for (size_t di = 0; di < ndev; di++) {
			struct oracle o;

			oracle_init(&o, &b.t, devs[di], -300, maxend + 300);
			for (size_t mi = 0; mi < sizeof min_gaps / sizeof *min_gaps; mi++) {
				struct metrics d;

				metrics_build(&d, &b.t, devs[di], min_gaps[mi]);
				check_acts(&d);
				for (size_t h = 0; h < d.nholes; h++)
					kinds_seen[d.holes[h].kind]++;
				check_random_windows(&d, &o, seed * 7 + mi, nwin);
				metrics_free(&d);
			}
			oracle_free(&o);
		}
		free(devs);
		trace_free(&b.t);
	}
	cr_log_info("hole kinds seen: host %d kernel %d other %d", kinds_seen[0],
	    kinds_seen[1], kinds_seen[2]);
	for (int k = 0; k < IDLE_KINDS; k++)
		if (want_kinds & (1u << k))
			cr_assert_gt(kinds_seen[k], 0, "no hole of kind %d", k);
}

Test(metrics, random_dense_vs_oracle)
{
	struct gen g = { .span = 5000, .nacts = 150, .maxdur = 60,
		.two_devices = 0, .launch_spread = 120 };

	run_random(&g, 1, 12, 250, 3);
}

Test(metrics, random_two_devices_vs_oracle)
{
	struct gen g = { .span = 5000, .nacts = 200, .maxdur = 90,
		.two_devices = 1, .launch_spread = 200 };

	run_random(&g, 100, 10, 200, 3);
}

Test(metrics, random_sparse_long_holes_vs_oracle)
{
	/* Holes beyond METRICS_SHORT_WAIT_NS make "other" between activity. */
	struct gen g = { .span = 400000, .nacts = 20, .maxdur = 3000,
		.two_devices = 0, .launch_spread = 60000 };

	run_random(&g, 500, 6, 60, 7);
}

Test(metrics, random_crowded_vs_oracle)
{
	/* Mostly busy: few holes, lots of overlap and touching. */
	struct gen g = { .span = 3000, .nacts = 300, .maxdur = 40,
		.two_devices = 1, .launch_spread = 30 };

	run_random(&g, 900, 8, 200, 3);
}

/* ---- hand-made cases --------------------------------------------------- */

static void
window(const struct metrics *d, int64_t a, int64_t b, struct window_metrics *m)
{
	metrics_window(d, a, b, m);
	cr_assert_eq(m->idle_by_kind_ns[0] + m->idle_by_kind_ns[1] +
	    m->idle_by_kind_ns[2], m->idle_ns);
	cr_assert_eq(m->busy_ns + m->idle_ns, b > a ? b - a : 0);
}

Test(metrics, comm_hidden_under_compute)
{
	struct builder b;
	struct metrics d;
	struct window_metrics m;

	b_init(&b);
	b_kernel(&b, 7, "gemm", 0, 1000);
	b_kernel(&b, 9, "ncclDevKernel_AllReduce", 100, 800);
	b_metrics(&b, &d, 0);

	window(&d, 0, 1000, &m);
	cr_assert_eq(m.compute_ns, 1000);
	cr_assert_eq(m.comm_ns, 800);
	cr_assert_eq(m.overlap_ns, 800);
	cr_assert_eq(m.exposed_comm_ns, 0);
	cr_assert_float_eq(m.overlap_pct, 100.0, 1e-12);
	cr_assert_eq(m.busy_ns, 1000);
	cr_assert_eq(m.idle_ns, 0);
	cr_assert_eq(m.gap_count, 0);
	cr_assert_eq(m.ntop, 0);

	window(&d, 850, 1200, &m);      /* the comm tail and idle after */
	cr_assert_eq(m.comm_ns, 50);
	cr_assert_eq(m.exposed_comm_ns, 0);
	cr_assert_eq(m.idle_ns, 200);
	cr_assert_eq(m.idle_by_kind_ns[IDLE_OTHER], 200);
	cr_assert_eq(m.gap_count, 1);
	cr_assert_eq(m.top[0].start_ns, 1000);
	cr_assert_eq(m.top[0].dur_ns, 200);

	window(&d, 1000, 2000, &m);     /* no comm: overlap_pct is null */
	cr_assert_lt(m.overlap_pct, 0);
	cr_assert_eq(m.comm_ns, 0);
	b_free(&b, &d);
}

Test(metrics, comm_exposed)
{
	struct builder b;
	struct metrics d;
	struct window_metrics m;

	b_init(&b);
	b_kernel(&b, 9, "ncclDevKernel_AllReduce", 0, 500);
	b_kernel(&b, 7, "gemm", 600, 400);
	b_act(&b, 0, 10, "gpu_memcpy", "Memcpy HtoD", 450, 250, -1, NO_LAUNCH);
	b_metrics(&b, &d, 0);

	window(&d, 0, 1000, &m);
	cr_assert_eq(m.comm_ns, 500);
	cr_assert_eq(m.overlap_ns, 0);
	cr_assert_eq(m.exposed_comm_ns, 500);
	cr_assert_eq(m.overlap_pct, 0.0);
	cr_assert_eq(m.memory_ns, 250);
	cr_assert_eq(m.compute_ns, 400);
	cr_assert_eq(m.busy_ns, 1000, "memcpy bridges comm and compute");
	cr_assert_eq(m.gap_count, 0);
	b_free(&b, &d);

	/* Part hidden: compute [400, 450) under comm [0, 500). */
	b_init(&b);
	b_kernel(&b, 9, "ncclDevKernel_AllReduce", 0, 500);
	b_kernel(&b, 7, "gemm", 400, 50);
	b_kernel(&b, 7, "gemm", 600, 400);
	b_metrics(&b, &d, 0);
	window(&d, 0, 1000, &m);
	cr_assert_eq(m.overlap_ns, 50);
	cr_assert_eq(m.exposed_comm_ns, 450);
	cr_assert_float_eq(m.overlap_pct, 10.0, 1e-12);
	cr_assert_eq(m.idle_ns, 100);
	window(&d, 420, 430, &m);
	cr_assert_float_eq(m.overlap_pct, 100.0, 1e-12);
	window(&d, 420, 470, &m);
	cr_assert_eq(m.exposed_comm_ns, 20);
	cr_assert_eq(m.overlap_ns, 30);
	b_free(&b, &d);
}

Test(metrics, nested_and_overlapping_on_one_stream)
{
	struct builder b;
	struct metrics d;
	struct window_metrics m;
	struct kernel_total k[8];
	uint32_t outer, other;

	b_init(&b);
	b_kernel(&b, 7, "outer", 0, 100);
	b_kernel(&b, 7, "inner", 10, 10);       /* nested */
	b_kernel(&b, 7, "other", 50, 100);      /* overlaps "outer" on the stream */
	b_kernel(&b, 7, "zero", 300, 0);        /* zero-length: no busy time */
	b_kernel(&b, 7, "outer", 400, 100);
	b_kernel(&b, 7, "inner", 450, 10);
	b_kernel(&b, 7, "touch", 500, 20);      /* touches: no hole at 500 */
	b_metrics(&b, &d, 0);
	cr_assert_eq(d.all.n, 2);
	cr_assert_eq(d.nholes, 1);
	cr_assert_eq(d.holes[0].start_ns, 150);
	cr_assert_eq(d.holes[0].end_ns, 400);
	cr_assert_eq(d.first_ns, 0);
	cr_assert_eq(d.last_ns, 520);

	window(&d, 0, 600, &m);
	cr_assert_eq(m.busy_ns, 270);
	cr_assert_eq(m.compute_ns, 270);
	cr_assert_eq(m.idle_ns, 330);
	cr_assert_eq(m.idle_by_kind_ns[IDLE_KERNEL_WAIT], 250);
	cr_assert_eq(m.idle_by_kind_ns[IDLE_OTHER], 80);
	cr_assert_eq(m.gap_count, 2);
	cr_assert_eq(m.gap_total_ns, 330);
	cr_assert_eq(m.ntop, 2);
	cr_assert_eq(m.top[0].start_ns, 150);
	cr_assert_eq(m.top[0].dur_ns, 250);
	cr_assert_eq(m.top[1].start_ns, 520);
	cr_assert_eq(m.top[1].dur_ns, 80);

	/* Top kernels: outer 200 (2), other 100, touch 20, inner 20 (2), zero 0. */
	cr_assert_eq(metrics_top_kernels(&d, 0, 600, k, 8), 5);
	outer = strtab_find(&b.t.strs, "outer", 5);
	other = strtab_find(&b.t.strs, "other", 5);
	cr_assert_eq(k[0].name, outer);
	cr_assert_eq(k[0].count, 2);
	cr_assert_eq(k[0].total_ns, 200);
	cr_assert_eq(k[0].cls, CLASS_COMPUTE);
	cr_assert_eq(k[1].name, other);
	cr_assert_eq(k[1].total_ns, 100);
	cr_assert_eq(k[2].total_ns, 20);
	cr_assert_eq(k[3].total_ns, 20);
	cr_assert_lt(k[2].name, k[3].name, "ties by name id");
	cr_assert_eq(k[4].name, strtab_find(&b.t.strs, "zero", 4));
	cr_assert_eq(k[4].count, 1);
	cr_assert_eq(k[4].total_ns, 0);
	/* Clipped: [60, 305) holds outer 40, other 90, zero 0 (inner ends at 20). */
	cr_assert_eq(metrics_top_kernels(&d, 60, 305, k, 8), 3);
	cr_assert_eq(k[0].name, other);
	cr_assert_eq(k[0].total_ns, 90);
	cr_assert_eq(k[1].total_ns, 40);
	cr_assert_eq(k[2].total_ns, 0);
	cr_assert_eq(metrics_top_kernels(&d, 60, 305, k, 1), 1);
	cr_assert_eq(k[0].name, other);
	cr_assert_eq(metrics_top_kernels(&d, 60, 305, k, 0), 0);
	cr_assert_eq(metrics_top_kernels(&d, 305, 60, k, 8), 0);
	cr_assert_eq(metrics_top_kernels(&d, 301, 305, k, 8), 0);
	b_free(&b, &d);
}

Test(metrics, idle_kinds)
{
	struct builder b;
	struct metrics d;
	struct window_metrics m;
	uint32_t i7, i8;
	int host_decides;

	b_init(&b);
	b_act(&b, 0, 7, "kernel", "A", 1000, 100, -1, 900);
	/* [1100, 1200): B launched at 1150 >= 1100: host wait 100. */
	b_act(&b, 0, 7, "kernel", "B", 1200, 100, -1, 1150);
	/* [1300, 1310): C launched before: kernel wait 10. */
	b_act(&b, 0, 7, "kernel", "C", 1310, 90, -1, 1250);
	/* [1400, 50000): D launched exactly at 1400: host wait 48600. */
	b_act(&b, 0, 7, "kernel", "D", 50000, 100, -1, 1400);
	/* [50100, 90000): E launched before, long: other 39900. */
	b_act(&b, 0, 7, "kernel", "E", 90000, 50, -1, 50050);
	/* [90050, 90060): F unlinked, short: kernel wait 10. */
	b_act(&b, 0, 7, "kernel", "F", 90060, 10, -1, NO_LAUNCH);
	/* [90070, 130000): G's correlation has no launch, long: other 39930. */
	b_act(&b, 0, 7, "kernel", "G", 130000, 10, -1, DANGLING);
	/*
	 * [130010, 130020): H1 unlinked and H2 linked start at 130020; the
	 * first linked one decides: host wait 10.
	 */
	b_act(&b, 0, 7, "kernel", "H1", 130020, 5, -1, NO_LAUNCH);
	b_act(&b, 0, 8, "kernel", "H2", 130020, 10, -1, 130015);
	/* [130030, 130100): two linked, the lower index decides. */
	b_act(&b, 0, 7, "kernel", "I7", 130100, 10, -1, 130000);
	b_act(&b, 0, 8, "kernel", "I8", 130100, 5, -1, 130050);
	trace_finalize(&b.t);
	i7 = find_act(&b.t, "I7", 130100);
	i8 = find_act(&b.t, "I8", 130100);
	cr_assert_neq(b.t.events[i7].link, EV_NONE);
	cr_assert_neq(b.t.events[i8].link, EV_NONE);
	host_decides = i8 < i7;         /* I8 launched after the hole began */
	cr_assert_eq(b.t.events[find_act(&b.t, "G", 130000)].link, EV_NONE);

	metrics_build(&d, &b.t, 0, METRICS_DEFAULT_MIN_GAP_NS);
	cr_assert_eq(d.nholes, 8);
	cr_assert_eq(d.holes[0].kind, IDLE_HOST_WAIT);
	cr_assert_eq(d.holes[1].kind, IDLE_KERNEL_WAIT);
	cr_assert_eq(d.holes[2].kind, IDLE_HOST_WAIT);
	cr_assert_eq(d.holes[3].kind, IDLE_OTHER);
	cr_assert_eq(d.holes[4].kind, IDLE_KERNEL_WAIT);
	cr_assert_eq(d.holes[5].kind, IDLE_OTHER);
	cr_assert_eq(d.holes[6].kind, IDLE_HOST_WAIT);
	cr_assert_eq(d.holes[7].kind,
	    host_decides ? IDLE_HOST_WAIT : IDLE_KERNEL_WAIT);
	cr_assert_eq(d.ngaps, 3);

	window(&d, 0, 200000, &m);
	cr_assert_eq(m.idle_by_kind_ns[IDLE_HOST_WAIT],
	    100 + 48600 + 10 + (host_decides ? 70 : 0));
	cr_assert_eq(m.idle_by_kind_ns[IDLE_KERNEL_WAIT],
	    10 + 10 + (host_decides ? 0 : 70));
	cr_assert_eq(m.idle_by_kind_ns[IDLE_OTHER],
	    1000 + 39900 + 39930 + (200000 - 130110));
	/* 3 holes and the idle after the last, >= 10 us; not [0, 1000). */
	cr_assert_eq(m.gap_count, 4);
	cr_assert_eq(m.ntop, 4);
	cr_assert_eq(m.top[0].start_ns, 130110);
	cr_assert_eq(m.top[0].dur_ns, 200000 - 130110);
	cr_assert_eq(m.top[1].start_ns, 1400);
	cr_assert_eq(m.top[2].start_ns, 90070);
	cr_assert_eq(m.top[3].start_ns, 50100);
	cr_assert_eq(m.top[3].dur_ns, 39900);
	cr_assert_eq(m.gap_total_ns, 69890 + 48600 + 39930 + 39900);

	/* Cut holes keep their kind; the cut parts count as gaps when long. */
	window(&d, 1150, 50050, &m);
	cr_assert_eq(m.busy_ns, 100 + 90 + 50);
	cr_assert_eq(m.idle_by_kind_ns[IDLE_HOST_WAIT], 50 + 48600);
	cr_assert_eq(m.idle_by_kind_ns[IDLE_KERNEL_WAIT], 10);
	cr_assert_eq(m.idle_by_kind_ns[IDLE_OTHER], 0);
	cr_assert_eq(m.gap_count, 1);
	cr_assert_eq(m.gap_total_ns, 48600);
	window(&d, 60000, 70000, &m);   /* inside a hole: all "other" */
	cr_assert_eq(m.idle_by_kind_ns[IDLE_OTHER], 10000);
	cr_assert_eq(m.gap_count, 1, "exactly min_gap long");
	cr_assert_eq(m.top[0].start_ns, 60000);
	cr_assert_eq(m.top[0].dur_ns, 10000);
	window(&d, 60000, 69999, &m);
	cr_assert_eq(m.gap_count, 0);
	cr_assert_eq(m.ntop, 0);
	window(&d, 1110, 1120, &m);     /* inside the host wait hole */
	cr_assert_eq(m.idle_by_kind_ns[IDLE_HOST_WAIT], 10);
	metrics_free(&d);

	/* min_gap 50: the cut part [1150, 1200) counts, [1300, 1310) not. */
	metrics_build(&d, &b.t, 0, 50);
	window(&d, 1150, 50050, &m);
	cr_assert_eq(m.gap_count, 2);
	cr_assert_eq(m.top[1].start_ns, 1150);
	cr_assert_eq(m.top[1].dur_ns, 50);
	window(&d, 1151, 50050, &m);
	cr_assert_eq(m.gap_count, 1);
	b_free(&b, &d);
}

Test(metrics, top_gaps_ties_by_start)
{
	struct builder b;
	struct metrics d;
	struct window_metrics m;

	b_init(&b);
	for (int i = 0; i < 15; i++)
		b_kernel(&b, 7, "k", i * 100, 50);
	b_kernel(&b, 7, "k", 2000, 10);
	b_metrics(&b, &d, 50);

	window(&d, -50, 1500, &m);
	/* [-50, 0), 14 holes [50 + 100i, 100 + 100i), [1450, 1500): all 50. */
	cr_assert_eq(m.gap_count, 16);
	cr_assert_eq(m.gap_total_ns, 800);
	cr_assert_eq(m.ntop, METRICS_TOP_K);
	cr_assert_eq(m.top[0].start_ns, -50, "the edge is earliest");
	for (int i = 1; i < METRICS_TOP_K; i++) {
		cr_assert_eq(m.top[i].start_ns, 50 + 100 * (i - 1));
		cr_assert_eq(m.top[i].dur_ns, 50);
	}
	window(&d, -49, 1500, &m);      /* the leading edge is too short now */
	cr_assert_eq(m.gap_count, 15);
	cr_assert_eq(m.top[0].start_ns, 50);
	window(&d, 0, 3000, &m);        /* [1450, 2000) leads, then [2010, 3000) */
	cr_assert_eq(m.top[0].start_ns, 2010);
	cr_assert_eq(m.top[0].dur_ns, 990);
	cr_assert_eq(m.top[1].start_ns, 1450);
	cr_assert_eq(m.top[1].dur_ns, 550);
	cr_assert_eq(m.top[2].start_ns, 50);
	cr_assert_eq(m.top[9].start_ns, 750);
	cr_assert_eq(m.gap_count, 16);
	b_free(&b, &d);
}

Test(metrics, two_devices)
{
	struct builder b;
	struct metrics d0, d1;
	struct window_metrics m;
	struct kernel_total k[4];
	int32_t *devs;

	b_init(&b);
	b_kernel(&b, 7, "gemm0", 0, 100);                               /* dev 0 */
	b_act(&b, 1, 7, "kernel", "gemm1", 50, 150, -1, NO_LAUNCH);     /* dev 1: pid */
	b_act(&b, 0, 9, "kernel", "ncclDevKernel_AllReduce", 300, 100, 1,
	    NO_LAUNCH);                                                 /* dev 1: args */
	b_act(&b, 3, 7, "gpu_memset", "Memset (Device)", 0, 10, -1, NO_LAUNCH);
	trace_finalize(&b.t);
	cr_assert_eq(metrics_devices(&b.t, &devs), 3);
	cr_assert_eq(devs[0], 0);
	cr_assert_eq(devs[1], 1);
	cr_assert_eq(devs[2], 3);
	free(devs);

	metrics_build(&d0, &b.t, 0, 0);
	metrics_build(&d1, &b.t, 1, 0);
	cr_assert_eq(d0.nacts, 1);
	cr_assert_eq(d1.nacts, 2);
	cr_assert_eq(d1.ntracks, 2);
	cr_assert_eq(d1.first_ns, 50);
	cr_assert_eq(d1.last_ns, 400);
	window(&d0, 0, 400, &m);
	cr_assert_eq(m.busy_ns, 100);
	cr_assert_eq(m.comm_ns, 0);
	cr_assert_eq(m.memory_ns, 0);
	window(&d1, 0, 400, &m);
	cr_assert_eq(m.busy_ns, 250);
	cr_assert_eq(m.compute_ns, 150);
	cr_assert_eq(m.comm_ns, 100);
	cr_assert_eq(m.exposed_comm_ns, 100);
	cr_assert_eq(m.idle_by_kind_ns[IDLE_OTHER], 50);
	cr_assert_eq(m.idle_by_kind_ns[IDLE_KERNEL_WAIT], 100);
	cr_assert_eq(metrics_top_kernels(&d1, 0, 400, k, 4), 2);
	cr_assert_eq(k[0].name, strtab_find(&b.t.strs, "gemm1", 5));
	cr_assert_eq(k[0].total_ns, 150);
	cr_assert_eq(k[1].cls, CLASS_COMM);
	cr_assert_eq(k[1].total_ns, 100);
	metrics_free(&d0);
	metrics_free(&d1);
	trace_free(&b.t);
}

Test(metrics, no_activity)
{
	struct builder b;
	struct metrics d;
	struct window_metrics m;
	struct kernel_total k[2];
	int32_t dummy = 7, *devs = &dummy;      /* must be overwritten */

	b_init(&b);
	trace_finalize(&b.t);
	cr_assert_eq(metrics_devices(&b.t, &devs), 0);
	cr_assert_null(devs);
	metrics_build(&d, &b.t, 0, 10);
	cr_assert_eq(d.nacts, 0);
	cr_assert_eq(d.first_ns, 0);
	cr_assert_eq(d.last_ns, 0);
	window(&d, 0, 100, &m);
	cr_assert_eq(m.idle_ns, 100);
	cr_assert_eq(m.idle_by_kind_ns[IDLE_OTHER], 100);
	cr_assert_eq(m.gap_count, 1);
	cr_assert_eq(m.top[0].start_ns, 0);
	cr_assert_eq(m.top[0].dur_ns, 100);
	window(&d, 0, 9, &m);
	cr_assert_eq(m.gap_count, 0);
	cr_assert_eq(metrics_top_kernels(&d, 0, 100, k, 2), 0);
	metrics_free(&d);
	metrics_free(&d);               /* zeroed: a no-op */
	trace_free(&b.t);
}

Test(metrics, empty_inverted_and_extreme_windows)
{
	struct builder b;
	struct metrics d;
	struct window_metrics m;

	b_init(&b);
	b_kernel(&b, 7, "gemm", 1000, 100);
	b_kernel(&b, 9, "ncclDevKernel_AllReduce", 1050, 100);
	b_kernel(&b, 7, "gemm", 5000, 100);
	b_metrics(&b, &d, 0);

	metrics_window(&d, 1050, 1050, &m);
	cr_assert_eq(m.busy_ns, 0);
	cr_assert_eq(m.idle_ns, 0);
	cr_assert_eq(m.gap_count, 0);
	cr_assert_lt(m.overlap_pct, 0);
	metrics_window(&d, 2000, 1000, &m);
	cr_assert_eq(m.busy_ns, 0);
	cr_assert_eq(m.comm_ns, 0);
	cr_assert_eq(m.idle_by_kind_ns[IDLE_OTHER], 0);
	cr_assert_eq(m.ntop, 0);

	window(&d, INT64_MIN / 2, INT64_MAX / 2, &m);
	cr_assert_eq(m.busy_ns, 250);
	cr_assert_eq(m.comm_ns, 100);
	cr_assert_eq(m.overlap_ns, 50);
	cr_assert_eq(m.gap_count, 3);
	cr_assert_eq(m.top[0].start_ns, INT64_MIN / 2);
	cr_assert_eq(m.top[0].dur_ns, 1000 - INT64_MIN / 2);
	cr_assert_eq(m.top[1].start_ns, 5100);
	cr_assert_eq(m.top[1].dur_ns, INT64_MAX / 2 - 5100);
	cr_assert_eq(m.top[2].start_ns, 1150);
	cr_assert_eq(m.top[2].dur_ns, 3850);

	/* The whole int64 range: sums saturate, nothing overflows. */
	metrics_window(&d, INT64_MIN, INT64_MAX, &m);
	cr_assert_eq(m.busy_ns, 250);
	cr_assert_eq(m.compute_ns, 200);
	cr_assert_eq(m.exposed_comm_ns, 50);
	cr_assert_eq(m.idle_ns, INT64_MAX - 250);
	cr_assert_eq(m.gap_count, 3);
	cr_assert_eq(m.top[0].start_ns, INT64_MIN);
	cr_assert_eq(m.top[0].dur_ns, INT64_MAX, "saturated");
	cr_assert_eq(m.top[1].dur_ns, INT64_MAX - 5100);
	cr_assert_eq(m.idle_by_kind_ns[IDLE_KERNEL_WAIT], 3850);
	cr_assert_eq(m.top[2].dur_ns, 3850);
	metrics_window(&d, INT64_MAX - 1, INT64_MAX, &m);
	cr_assert_eq(m.idle_ns, 1);
	cr_assert_eq(m.gap_count, 1);
	metrics_window(&d, INT64_MIN, INT64_MIN + 1, &m);
	cr_assert_eq(m.top[0].start_ns, INT64_MIN);
	cr_assert_eq(m.top[0].dur_ns, 1);
	b_free(&b, &d);
}

Test(metrics, short_wait_boundary_and_negative_times)
{
	struct builder b;
	struct metrics d;
	struct window_metrics m;

	b_init(&b);
	/* Times before 0 are legal: last_ns is negative here. */
	/* Holes: [-99900, -69901) 29999 ns, [-69900, -9900) 60000 ns. */
	b_kernel(&b, 7, "k", -100000, 100);
	b_kernel(&b, 7, "k", -69901, 1);
	b_kernel(&b, 7, "k", -9900, 10);
	b_metrics(&b, &d, METRICS_SHORT_WAIT_NS);
	cr_assert_eq(d.first_ns, -100000);
	cr_assert_eq(d.last_ns, -100000 + 100 + 3 * METRICS_SHORT_WAIT_NS + 10);
	cr_assert_lt(d.last_ns, 0);
	cr_assert_eq(d.nholes, 2);
	cr_assert_eq(d.holes[0].kind, IDLE_KERNEL_WAIT, "29999 ns is short");
	cr_assert_eq(d.holes[1].end_ns - d.holes[1].start_ns,
	    2 * METRICS_SHORT_WAIT_NS);
	cr_assert_eq(d.holes[1].kind, IDLE_OTHER);
	cr_assert_eq(d.ngaps, 1, "29999 < min_gap 30000");
	window(&d, d.first_ns, d.last_ns, &m);
	cr_assert_eq(m.idle_by_kind_ns[IDLE_KERNEL_WAIT], METRICS_SHORT_WAIT_NS - 1);
	cr_assert_eq(m.idle_by_kind_ns[IDLE_OTHER], 2 * METRICS_SHORT_WAIT_NS);
	cr_assert_eq(m.gap_count, 1);
	b_free(&b, &d);

	/* A hole of exactly METRICS_SHORT_WAIT_NS is not short. */
	b_init(&b);
	b_kernel(&b, 7, "k", 0, 100);
	b_kernel(&b, 7, "k", 100 + METRICS_SHORT_WAIT_NS, 100);
	b_metrics(&b, &d, METRICS_SHORT_WAIT_NS);
	cr_assert_eq(d.holes[0].kind, IDLE_OTHER);
	cr_assert_eq(d.ngaps, 1, "exactly min_gap is a gap");
	b_free(&b, &d);
}

/* ---- scale ------------------------------------------------------------- */

/* What the second method collects from ivset_holes(). */
struct holes_acc {
	const struct ivset *all;
	const int64_t (*linked)[2];     /* (ts, index) of linked activity, sorted */
	size_t nlinked;
	const struct trace *t;
	int64_t total, by_kind[IDLE_KINDS];
	size_t count;
	struct gap top[METRICS_TOP_K];
	size_t ntop;
};

static void
acc_gap(int64_t s, int64_t e, void *ctx)
{
	struct holes_acc *h = ctx;
	struct gap g = { s, e - s };
	size_t i;

	h->count++;
	h->total += e - s;
	/* Insert into the sorted top list (longest, then earliest). */
	for (i = h->ntop; i > 0 && gap_order(&g, &h->top[i - 1]) < 0; i--)
		if (i < METRICS_TOP_K)
			h->top[i] = h->top[i - 1];
	if (i < METRICS_TOP_K) {
		h->top[i] = g;
		if (h->ntop < METRICS_TOP_K)
			h->ntop++;
	}
}

static void
acc_kind(int64_t s, int64_t e, void *ctx)
{
	struct holes_acc *h = ctx;
	size_t i = ivset_find(h->all, s), lo = 0, hi = h->nlinked;
	int64_t hs, he;
	int kind = IDLE_OTHER;

	if (i > 0 && i < h->all->n) {
		hs = h->all->end_ns[i - 1];
		he = h->all->start_ns[i];
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (h->linked[mid][0] < he)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < h->nlinked && h->linked[lo][0] == he &&
		    h->t->events[h->t->events[h->linked[lo][1]].link].ts_ns >= hs)
			kind = IDLE_HOST_WAIT;
		else
			kind = he - hs < METRICS_SHORT_WAIT_NS ? IDLE_KERNEL_WAIT :
			    IDLE_OTHER;
	}
	h->by_kind[kind] += e - s;
}

static int
pair_order(const void *pa, const void *pb)
{
	const int64_t *a = pa, *b = pb;

	if (a[0] != b[0])
		return a[0] < b[0] ? -1 : 1;
	return (a[1] > b[1]) - (a[1] < b[1]);
}

static const struct track *
track_of(const struct trace *t, int64_t tid)
{
	for (size_t i = 0; i < t->ntracks; i++)
		if (t->tracks[i].kind == TRACK_GPU && t->tracks[i].tid == tid)
			return &t->tracks[i];
	cr_assert_fail("no stream %lld", (long long)tid);
	return NULL;
}

/* The second method's sets for the scale test. */
struct second {
	const struct trace *t;
	const struct track *comm, *mem;
	struct ivset comp, all, comm_comp;
	int64_t (*linked)[2];
	size_t nlinked;
};

/*
 * Checks metrics_window() on d against the second method for nwin random
 * windows (the first 10 cover everything) and returns the mean time of one
 * metrics_window() call in seconds.
 */
static double
scale_windows(const struct metrics *d, const struct second *sec,
    uint64_t *s, int nwin)
{
	double t0, win_s = 0;
	int64_t span = d->last_ns - d->first_ns;

	for (int w = 0; w < nwin; w++) {
		int64_t a = d->first_ns - 1000 + rng_below(s, span + 2000);
		int64_t len = (int64_t)1 << rng_below(s, 26), b;
		struct window_metrics m;
		struct holes_acc h;

		if (w < 10) {
			a = d->first_ns - 2000 + w;
			len = span + 4000 - 2 * w;
		}
		b = a + len;
		t0 = now_s();
		metrics_window(d, a, b, &m);
		win_s += now_s() - t0;

		cr_assert_eq(m.busy_ns, ivset_measure(&sec->all, a, b));
		cr_assert_eq(m.idle_ns, len - m.busy_ns);
		cr_assert_eq(m.compute_ns, ivset_measure(&sec->comp, a, b));
		cr_assert_eq(m.comm_ns, track_busy_ns(sec->comm, a, b));
		cr_assert_eq(m.memory_ns, track_busy_ns(sec->mem, a, b));
		cr_assert_eq(m.overlap_ns, ivset_measure(&sec->comm_comp, a, b));

		memset(&h, 0, sizeof h);
		h.all = &sec->all;
		h.linked = (const int64_t (*)[2])sec->linked;
		h.nlinked = sec->nlinked;
		h.t = sec->t;
		ivset_holes(&sec->all, a, b, d->min_gap_ns, acc_gap, &h);
		cr_assert_eq(m.gap_count, h.count, "window %d", w);
		cr_assert_eq(m.gap_total_ns, h.total);
		cr_assert_eq(m.ntop, h.ntop);
		for (size_t i = 0; i < h.ntop; i++) {
			cr_assert_eq(m.top[i].start_ns, h.top[i].start_ns);
			cr_assert_eq(m.top[i].dur_ns, h.top[i].dur_ns);
		}
		ivset_holes(&sec->all, a, b, 0, acc_kind, &h);
		for (int k = 0; k < IDLE_KINDS; k++)
			cr_assert_eq(m.idle_by_kind_ns[k], h.by_kind[k],
			    "window %d kind %d", w, k);
	}
	return win_s / nwin;
}

/*
 * 1M activities on 4 streams (GANTTY_TEST_SCALE=n for fewer, e.g. under
 * valgrind).  Asserts nothing about time; logs it.
 */
Test(metrics, scale_one_million, .timeout = 600)
{
	const char *env = getenv("GANTTY_TEST_SCALE");
	int64_t n = env != NULL ? atoll(env) : 1000000;
	uint64_t s = 42;
	struct builder b;
	struct second sec;
	struct ivset u01;
	int64_t cursor[4] = { 0, 0, 0, 0 };
	static const int64_t min_gaps[] = { 2000, 0 };
	static const char *const names[4] = { "ampere_bf16_gemm",
		"flash_fwd_kernel", "ncclDevKernel_AllReduce", "Memcpy DtoD" };

	b_init(&b);
	for (int64_t i = 0; i < n; i++) {
		int st = (int)rng_below(&s, 4);
		int64_t gap = rng_below(&s, 50) == 0 ? 20000 + rng_below(&s, 40000) :
		    rng_below(&s, 3000);
		int64_t dur = 1 + rng_below(&s, 4000);
		int64_t ts = cursor[st] + gap;
		int64_t launch = rng_below(&s, 8) == 0 ? NO_LAUNCH :
		    ts - rng_below(&s, 8000);

		b_act(&b, 0, 7 + st, st == 3 ? "gpu_memcpy" : "kernel", names[st],
		    ts, dur, -1, launch);
		cursor[st] = ts + dur;
	}
	trace_finalize(&b.t);

	/* The second method: the streams' own busy sets (track.c), combined. */
	memset(&sec, 0, sizeof sec);
	sec.t = &b.t;
	sec.comm = track_of(&b.t, 9);
	sec.mem = track_of(&b.t, 10);
	ivset_union(&sec.comp, &track_of(&b.t, 7)->busy, &track_of(&b.t, 8)->busy);
	ivset_union(&u01, &sec.comp, &sec.comm->busy);
	ivset_union(&sec.all, &u01, &sec.mem->busy);
	ivset_intersect(&sec.comm_comp, &sec.comm->busy, &sec.comp);
	sec.linked = xreallocarray(NULL, (size_t)n, sizeof *sec.linked);
	for (uint32_t i = 0; i < b.t.nevents; i++)
		if (event_is_activity(&b.t.events[i]) &&
		    b.t.events[i].link != EV_NONE) {
			sec.linked[sec.nlinked][0] = b.t.events[i].ts_ns;
			sec.linked[sec.nlinked][1] = i;
			sec.nlinked++;
		}
	qsort(sec.linked, sec.nlinked, sizeof *sec.linked, pair_order);

	for (size_t mi = 0; mi < sizeof min_gaps / sizeof *min_gaps; mi++) {
		struct metrics d;
		double t0 = now_s(), build_s, win_s;

		metrics_build(&d, &b.t, 0, min_gaps[mi]);
		build_s = now_s() - t0;
		cr_assert_eq(d.nacts, (size_t)n);
		cr_assert_eq(d.all.n, sec.all.n);
		win_s = scale_windows(&d, &sec, &s, 1000);
		cr_log_info("%lld activities, min_gap %lld: metrics_build %.1f ms "
		    "(%zu holes, %zu gaps); metrics_window mean %.2f us over 1000 "
		    "windows", (long long)n, (long long)min_gaps[mi], build_s * 1e3,
		    d.nholes, d.ngaps, win_s * 1e6);
		metrics_free(&d);
	}
	free(sec.linked);
	ivset_free(&sec.comp);
	ivset_free(&u01);
	ivset_free(&sec.all);
	ivset_free(&sec.comm_comp);
	trace_free(&b.t);
}
