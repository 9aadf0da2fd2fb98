/*
 * Findings: each kind raised on a generated trace with that symptom, with
 * the right evidence and ranges, and none on a clean trace.  Memory: samples,
 * values in effect, peaks and per-step allocator calls against brute force.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/crossrank.h"
#include "analysis/findings.h"
#include "load/load.h"
#include "analysis/memory.h"
#include "report/report.h"
#include "model/trace.h"

#include "jtrace.h"
#include "testrng.h"

#define US 1000LL
#define NSTEPS 8
#define DL_NAME "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"

/* Which symptoms to inject into the generated trace. */
struct sym {
	int starved, launch, exposed_ag, exposed_rs, exposed_a2a, serial, sync;
	int churn, loader;
	int outlier, attention, flash, softmax_alone;
	long long comm_shift;   /* delays every collective (a straggler) */
};

/*
 * NSTEPS steps of 1000 us from t = 100 us (step 5 lasts 2000 us with
 * outlier).  Clean: ten contiguous 100 us compute kernels per step, each
 * launched before it starts, and one all-reduce [200, 300) hidden under
 * them (not with starved or launch); cudaMalloc only in the first two steps.  The symptoms change that as
 * described at each line.
 */
static void
gen(struct trace *t, const struct sym *s)
{
	long long t0 = 100;

	next_corr = 1;
	j_begin();
	for (int n = 0; n < NSTEPS; n++) {
		long long len = s->outlier && n == 4 ? 2000 : 1000;
		long long cs = s->comm_shift;

		step(n + 1, t0, t0 + len);
		if (s->loader)          /* the step waits 200 us for data */
			cpu("user_annotation", DL_NAME, 1, t0, 200);
		if (s->churn || n < 2)  /* allocations after warm-up */
			cpu("cuda_runtime", "cudaMalloc", 1, t0 + 3, 2);
		if (s->attention) {     /* unfused attention: bmm, softmax, bmm */
			cpu("cpu_op", "aten::bmm", 1, t0 + 4, 1);
			cpu("cpu_op", "aten::_softmax", 1, t0 + 5, 1);
			cpu("cpu_op", "aten::bmm", 1, t0 + 7, 1);
		}
		if (s->softmax_alone) { /* a softmax then a plain mm; bmm far off */
			cpu("cpu_op", "aten::_softmax", 1, t0 + 5, 1);
			cpu("cpu_op", "aten::mm", 1, t0 + 7, 1);
			cpu("cpu_op", "aten::bmm", 1, t0 + 500, 1);
		}
		if (s->flash)
			kernel(1, t0 + 6, "flash_fwd_kernel", t0 + 6, t0 + 7);
		if (s->launch) {        /* 60 kernels of 10 us, 5 us apart */
			for (int j = 0; j < 60; j++)
				kernel(1, t0 + j * 15, "tiny", t0 + 1 + j * 15,
				    t0 + 11 + j * 15);
		} else if (s->starved) { /* 40 us kernels launched 60 us late */
			for (int k = 0; k < 10; k++)
				kernel(1, t0 + k * 100, "gemm", t0 + k * 100 + 1,
				    t0 + k * 100 + 41);
		} else {
			for (int k = 0; k < 10; k++) {
				long long ks = t0 + k * 100, launch = t0 + k;

				if ((s->exposed_ag || s->exposed_rs || s->exposed_a2a ||
				    s->serial) && k >= 8)
					continue;       /* comm alone at [800, 1000) */
				if (s->sync && (k == 5 || k == 6))
					continue;       /* idle [500, 700) after the sync */
				if (s->sync && k >= 7)
					launch = ks - 1;
				if (s->outlier && n == 4 && k >= 5)
					ks += 1000, launch = ks - 1; /* a 1000 us gap */
				kernel(1, launch, "gemm", ks, ks + 100);
			}
			if (s->sync)
				cpu("cuda_runtime", "cudaStreamSynchronize", 1, t0 + 10, 490);
		}
		if (!s->serial && !s->starved && !s->launch)
			kernel(1, t0 + 20, "ncclDevKernel_AllReduce_RING_LL",
			    t0 + 200 + cs, t0 + 300 + cs);
		if (s->exposed_ag)
			kernel(1, t0 + 30, "ncclDevKernel_AllGather_RING_LL",
			    t0 + 800 + cs, t0 + 1000);
		if (s->exposed_rs)
			kernel(1, t0 + 30, "ncclDevKernel_ReduceScatter_RING_LL",
			    t0 + 800 + cs, t0 + 1000);
		if (s->exposed_a2a)
			kernel(1, t0 + 30, "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t",
			    t0 + 800 + cs, t0 + 1000);
		if (s->serial)
			kernel(1, t0 + 30, "ncclDevKernel_AllReduce_RING_LL",
			    t0 + 800 + cs, t0 + 1000);
		t0 += len;
	}
	j_load(t);
}


struct fx {
	struct trace t;
	struct analysis a;
	struct finding *f;
	size_t n;
};

static void
fx_run(struct fx *x, const struct sym *s, const struct analysis_opts *o)
{
	struct analysis_opts d = j_opts();

	memset(x, 0, sizeof *x);
	gen(&x->t, s);
	analysis_build(&x->a, &x->t, 0, o ? o : &d);
	x->n = findings_find(&x->a, NULL, 0, &x->f);
}

static void
fx_free(struct fx *x)
{
	free(x->f);
	analysis_free(&x->a);
	trace_free(&x->t);
}

static const struct finding *
must(const struct fx *x, enum finding_kind k)
{
	const struct finding *f = findings_get(x->f, x->n, k);

	cr_assert_not_null(f, "%s not raised", findings_kind_id(k));
	cr_assert_gt(strlen(f->summary), 10);
	cr_assert_not_null(f->remedy);
	return f;
}

static int64_t
num(const struct finding *f, const char *key)
{
	const struct finding_num *n = findings_num(f, key);

	cr_assert_not_null(n, "%s: no %s", findings_kind_id(f->kind), key);
	return n->i;
}

static double
real(const struct finding *f, const char *key)
{
	const struct finding_num *n = findings_num(f, key);

	cr_assert_not_null(n, "%s: no %s", findings_kind_id(f->kind), key);
	cr_assert(n->is_real);
	return n->d;
}

/* Asserts that kind k is not among x's findings. */
static void
none(const struct fx *x, enum finding_kind k)
{
	const struct finding *f = findings_get(x->f, x->n, k);

	cr_assert_null(f, "%s raised: %s", findings_kind_id(k), f ? f->summary : "");
}

Test(findings, clean_trace_raises_nothing)
{
	struct sym s = { 0 };
	struct fx x;

	fx_run(&x, &s, NULL);
	cr_assert_eq(x.a.nsteps, NSTEPS);
	cr_assert_eq(x.n, 0, "raised %zu, first %s: %s", x.n,
	    x.n ? findings_kind_id(x.f[0].kind) : "", x.n ? x.f[0].summary : "");
	fx_free(&x);
}

Test(findings, gpu_starved)
{
	struct sym s = { .starved = 1 };
	struct fx x;
	const struct finding *f;

	fx_run(&x, &s, NULL);
	f = must(&x, FIND_GPU_STARVED);
	cr_assert_eq(f->severity, SEV_CRITICAL);        /* 60% idle */
	cr_assert_float_eq(real(f, "host_wait_share_of_idle"), 1.0, 1e-9);
	/* 10 kernels of 40 us per 100 us: 60 us holes, the last step's end is W's */
	cr_assert_eq(num(f, "idle_ns"), (NSTEPS * 10 - 1) * 60 * US);
	cr_assert_eq(f->nranges, FINDINGS_MAX_RANGES);
	cr_assert_eq(f->ranges[0].end_ns - f->ranges[0].start_ns, 60 * US);
	cr_assert_eq(f->ranges[0].start_ns, 141 * US);  /* the first gap */
	none(&x, FIND_LAUNCH_BOUND);    /* 40 us kernels are not tiny */
	fx_free(&x);
}

Test(findings, launch_bound)
{
	struct sym s = { .launch = 1 };
	struct fx x;
	const struct finding *f;

	fx_run(&x, &s, NULL);
	f = must(&x, FIND_LAUNCH_BOUND);
	cr_assert_eq(num(f, "kernels"), NSTEPS * 60);
	cr_assert_eq(num(f, "median_kernel_ns"), 10 * US);
	cr_assert_eq(num(f, "launch_gaps"), NSTEPS * 59);
	cr_assert_eq(num(f, "launch_gap_ns"), NSTEPS * 59 * 5 * US);
	/* a range is one step's run: 60 kernels from +1 to +896 */
	cr_assert_geq(f->nranges, 1);
	cr_assert_eq(f->ranges[0].start_ns, 101 * US);
	cr_assert_eq(f->ranges[0].end_ns, (100 + 896) * US);
	fx_free(&x);
}

Test(findings, exposed_all_gather)
{
	struct sym s = { .exposed_ag = 1 };
	struct fx x;
	const struct finding *f;

	fx_run(&x, &s, NULL);
	f = must(&x, FIND_EXPOSED_COMM);
	cr_assert_eq(num(f, "exposed_comm_ns"), NSTEPS * 200 * US);
	cr_assert_eq(num(f, "all_gather_exposed_ns"), NSTEPS * 200 * US);
	cr_assert_eq(num(f, "reduce_scatter_exposed_ns"), 0);
	cr_assert_eq(num(f, "all_reduce_exposed_ns"), 0);   /* hidden */
	cr_assert_float_eq(real(f, "exposed_share"), 0.2, 1e-9);
	cr_assert_eq(f->severity, SEV_WARNING);
	cr_assert_not_null(strstr(f->remedy, "prefetch"));
	cr_assert_not_null(strstr(f->summary, "all-gather"));
	cr_assert_eq(f->nranges, FINDINGS_MAX_RANGES);  /* no layers: exposed intervals */
	cr_assert_eq(f->ranges[0].end_ns - f->ranges[0].start_ns, 200 * US);
	none(&x, FIND_SERIALISED_COMM);         /* the all-reduce overlaps */
	fx_free(&x);
}

/*
 * "% of step time" is of the steps' own time (their CPU spans, as the
 * steps table and the report's steps give it), not of their GPU extents:
 * a step of 500 us on the CPU whose GPU work runs 1000 us (a GEMM, then an
 * exposed all-gather of 200 us) has 40% of its step time exposed, not 20%.
 */
Test(findings, exposed_share_is_of_the_steps_own_time)
{
	struct analysis_opts o = j_opts();
	struct fx x;
	const struct finding *f;

	memset(&x, 0, sizeof x);
	next_corr = 1;
	j_begin();
	step(1, 100, 600);
	kernel(1, 110, "gemm", 150, 950);
	kernel(1, 120, "ncclDevKernel_AllGather_RING_LL", 950, 1150);
	j_load(&x.t);
	analysis_build(&x.a, &x.t, 0, &o);
	x.n = findings_find(&x.a, NULL, 0, &x.f);
	cr_assert_eq(x.a.nsteps, 1);
	cr_assert_eq(x.a.steps[0].gpu_end_ns - x.a.steps[0].gpu_start_ns, 1000 * US);
	f = must(&x, FIND_EXPOSED_COMM);
	cr_assert_eq(num(f, "exposed_comm_ns"), 200 * US);
	cr_assert_eq(num(f, "step_time_ns"), 500 * US);
	cr_assert_float_eq(real(f, "exposed_share"), 0.4, 1e-9);
	cr_assert_not_null(strstr(f->summary, "40.0% of step time"), "%s", f->summary);
	fx_free(&x);
}

/* One collective alone: n kernels of comm_us each, 10 us apart, no steps. */
static void
fx_lone_comm(struct fx *x, int n, long long comm_us, long long compute_us)
{
	struct analysis_opts o = j_opts();

	memset(x, 0, sizeof *x);
	j_begin();
	for (int i = 0; i < n; i++)
		kernel(1, 100 + i * (comm_us + 10), "ncclDevKernel_AllReduce_RING_LL",
		    101 + i * (comm_us + 10), 101 + i * (comm_us + 10) + comm_us);
	if (compute_us > 0)     /* compute after the collectives, hiding none */
		kernel(1, 100, "gemm", 101 + n * (comm_us + 10),
		    101 + n * (comm_us + 10) + compute_us);
	j_load(&x->t);
	analysis_build(&x->a, &x->t, 0, &o);
	x->n = findings_find(&x->a, NULL, 0, &x->f);
}

/*
 * The large_integer_trace false alarm: a window of one 50 us collective is
 * 100% exposed, with nothing there that could hide it.  Below
 * EXPOSED_MIN_BASE_NS of window (or EXPOSED_MIN_NS exposed) the rule stays
 * quiet; just above both it speaks.
 */
Test(findings, exposed_needs_a_minimum_window_and_time)
{
	struct fx x;
	const struct finding *f;

	fx_lone_comm(&x, 1, 50, 0);
	cr_assert_eq(x.a.m.exposed_comm_ns, 50 * US);   /* all of it exposed */
	none(&x, FIND_EXPOSED_COMM);
	fx_free(&x);

	/* a long window, exposed 15% of it but under EXPOSED_MIN_NS */
	fx_lone_comm(&x, 1, 90, 510);
	cr_assert_geq(x.a.end_ns - x.a.start_ns, FINDINGS_EXPOSED_MIN_BASE_NS);
	cr_assert_lt(x.a.m.exposed_comm_ns, FINDINGS_EXPOSED_MIN_NS);
	none(&x, FIND_EXPOSED_COMM);
	fx_free(&x);

	/* both minimums met: raised, with the exposed time as evidence */
	fx_lone_comm(&x, 2, 60, 500);
	cr_assert_geq(x.a.end_ns - x.a.start_ns, FINDINGS_EXPOSED_MIN_BASE_NS);
	cr_assert_geq(x.a.m.exposed_comm_ns, FINDINGS_EXPOSED_MIN_NS);
	f = must(&x, FIND_EXPOSED_COMM);
	cr_assert_eq(num(f, "exposed_comm_ns"), 120 * US);
	fx_free(&x);
}

Test(findings, exposed_reduce_scatter_gets_its_remedy)
{
	struct sym s = { .exposed_rs = 1 };
	struct fx x;
	const struct finding *f;

	fx_run(&x, &s, NULL);
	f = must(&x, FIND_EXPOSED_COMM);
	cr_assert_eq(num(f, "reduce_scatter_exposed_ns"), NSTEPS * 200 * US);
	cr_assert_eq(num(f, "all_gather_exposed_ns"), 0);
	cr_assert_not_null(strstr(f->remedy, "micro-batch"));
	cr_assert_null(strstr(f->remedy, "prefetch"));
	fx_free(&x);
}

Test(findings, exposed_all_to_all_gets_its_remedy)
{
	struct sym s = { .exposed_a2a = 1 };
	struct fx x;
	const struct finding *f;

	fx_run(&x, &s, NULL);
	f = must(&x, FIND_EXPOSED_COMM);
	cr_assert_eq(num(f, "all_to_all_exposed_ns"), NSTEPS * 200 * US);
	cr_assert_eq(num(f, "other_comm_exposed_ns"), 0);
	cr_assert_not_null(strstr(f->remedy, "pipeline"));
	cr_assert_not_null(strstr(f->summary, "all-to-all"));
	fx_free(&x);
}

Test(findings, serialised_comm)
{
	struct sym s = { .serial = 1 };
	struct fx x;
	const struct finding *f;

	fx_run(&x, &s, NULL);
	f = must(&x, FIND_SERIALISED_COMM);
	cr_assert_eq(num(f, "overlap_ns"), 0);
	cr_assert_eq(num(f, "comm_ns"), NSTEPS * 200 * US);
	cr_assert_eq(f->ranges[0].end_ns - f->ranges[0].start_ns, 200 * US);
	fx_free(&x);
}

Test(findings, sync_stall)
{
	struct sym s = { .sync = 1 };
	struct fx x;
	const struct finding *f;

	fx_run(&x, &s, NULL);
	f = must(&x, FIND_SYNC_STALL);
	cr_assert_eq(num(f, "calls"), NSTEPS);
	cr_assert_eq(num(f, "longest_ns"), 490 * US);
	cr_assert_eq(num(f, "idle_after_ns"), NSTEPS * 200 * US);
	/* the idle after the call: from its end to the next kernel */
	cr_assert_eq(f->ranges[0].start_ns, 600 * US);
	cr_assert_eq(f->ranges[0].end_ns, 800 * US);
	cr_assert_float_eq(real(f, "worst_step_share"), 0.2, 1e-9);
	fx_free(&x);
}

Test(findings, sync_that_leaves_the_gpu_busy_is_no_stall)
{
	struct sym s = { 0 };
	struct fx x;

	/* the clean trace with a long sync in each step: the GPU stays busy */
	memset(&x, 0, sizeof x);
	next_corr = 1;
	j_begin();
	for (int n = 0; n < 3; n++) {
		long long t0 = 100 + n * 1000;

		step(n + 1, t0, t0 + 1000);
		for (int k = 0; k < 10; k++)
			kernel(1, t0 + k, "gemm", t0 + k * 100, t0 + k * 100 + 100);
		cpu("cuda_runtime", "cudaDeviceSynchronize", 1, t0 + 20, 500);
	}
	j_load(&x.t);
	(void)s;
	{
		struct analysis_opts o = j_opts();

		analysis_build(&x.a, &x.t, 0, &o);
	}
	x.n = findings_find(&x.a, NULL, 0, &x.f);
	none(&x, FIND_SYNC_STALL);
	fx_free(&x);
}

Test(findings, allocator_churn_after_warm_up_only)
{
	struct sym s = { .churn = 1 };
	struct fx x;
	const struct finding *f;
	struct memory m;
	struct mem_step *ms;

	fx_run(&x, &s, NULL);
	f = must(&x, FIND_ALLOCATOR_CHURN);
	cr_assert_eq(num(f, "calls"), NSTEPS - MEMORY_WARMUP_STEPS);
	cr_assert_eq(num(f, "mallocs"), NSTEPS - MEMORY_WARMUP_STEPS);
	cr_assert_eq(num(f, "steps"), NSTEPS - MEMORY_WARMUP_STEPS);
	cr_assert_eq(f->nranges, NSTEPS - MEMORY_WARMUP_STEPS);
	memory_build(&m, &x.t, 0);
	cr_assert_eq(memory_steps(&m, &x.t, x.a.steps, x.a.nsteps, &ms), NSTEPS);
	for (int i = 0; i < NSTEPS; i++) {
		cr_assert_eq(ms[i].mallocs, 1);
		cr_assert_eq(ms[i].frees, 0);
		cr_assert_eq(ms[i].churn, i >= MEMORY_WARMUP_STEPS, "step %d", i);
		cr_assert_eq(ms[i].alloc_call_ns, 2 * US);
	}
	free(ms);
	memory_free(&m);
	fx_free(&x);
}

Test(findings, dataloader_wait)
{
	struct sym s = { .loader = 1 };
	struct fx x;
	const struct finding *f;

	fx_run(&x, &s, NULL);
	f = must(&x, FIND_DATALOADER_WAIT);
	cr_assert_eq(num(f, "spans"), NSTEPS);
	cr_assert_eq(num(f, "dataloader_ns"), NSTEPS * 200 * US);
	cr_assert_float_eq(real(f, "share"), 0.2, 1e-9);
	cr_assert_eq(f->ranges[0].end_ns - f->ranges[0].start_ns, 200 * US);
	fx_free(&x);
}

Test(findings, outlier_step_says_what_differs)
{
	struct sym s = { .outlier = 1 };
	struct fx x;
	const struct finding *f;

	fx_run(&x, &s, NULL);
	f = must(&x, FIND_OUTLIER_STEP);
	cr_assert_eq(num(f, "outliers"), 1);
	cr_assert_eq(num(f, "step"), 5);
	cr_assert_eq(num(f, "step_ns"), 2000 * US);
	cr_assert_eq(num(f, "median_step_ns"), 1000 * US);
	cr_assert_eq(num(f, "idle_delta_ns"), 1000 * US);
	cr_assert_eq(num(f, "largest_gap_delta_ns"), 1000 * US);
	cr_assert_eq(num(f, "compute_delta_ns"), 0);
	cr_assert_eq(f->nranges, 1);
	cr_assert_eq(f->ranges[0].start_ns, 4100 * US);
	cr_assert_eq(f->ranges[0].end_ns, 6100 * US);
	cr_assert_not_null(strstr(f->summary, "ProfilerStep#5"));
	fx_free(&x);
}

Test(findings, straggler_rank)
{
	struct sym s0 = { .serial = 1 }, s1 = { .serial = 1, .comm_shift = 50 };
	struct trace t[2];
	struct analysis an[2];
	struct analysis_opts o = j_opts();
	struct crossrank xr;
	struct finding *f;
	size_t n;
	const struct finding *g;

	gen(&t[0], &s0);
	gen(&t[1], &s1);
	t[0].rank = 0;
	t[1].rank = 1;
	for (int i = 0; i < 2; i++)
		analysis_build(&an[i], &t[i], 0, &o);
	crossrank_build(&xr, an, 2);
	cr_assert_eq(xr.straggler, 1);
	n = findings_find(&an[1], &xr, 1, &f);
	g = findings_get(f, n, FIND_STRAGGLER_RANK);
	cr_assert_not_null(g);
	cr_assert_eq(num(g, "rank"), 1);
	cr_assert_eq(num(g, "last_count"), NSTEPS);
	cr_assert_eq(num(g, "lost_ns"), NSTEPS * 50 * US);
	cr_assert_eq(g->ranges[0].end_ns - g->ranges[0].start_ns, 50 * US);
	free(f);
	n = findings_find(&an[0], &xr, 0, &f);  /* the punctual rank */
	cr_assert_null(findings_get(f, n, FIND_STRAGGLER_RANK));
	free(f);
	n = findings_find(&an[1], NULL, 0, &f); /* one rank alone */
	cr_assert_null(findings_get(f, n, FIND_STRAGGLER_RANK));
	free(f);
	/* the report's cross_rank.findings: from x alone, the same */
	n = findings_cross(&xr, &f);
	cr_assert_eq(n, 1);
	cr_assert_eq(f[0].kind, FIND_STRAGGLER_RANK);
	cr_assert_eq(num(&f[0], "rank"), 1);
	cr_assert_eq(num(&f[0], "lost_ns"), NSTEPS * 50 * US);
	cr_assert_eq(num(&f[0], "step_time_ns"), NSTEPS * 1000 * US);
	free(f);
	crossrank_free(&xr);
	for (int i = 0; i < 2; i++) {
		analysis_free(&an[i]);
		trace_free(&t[i]);
	}
}

Test(findings, attention_unfused)
{
	struct sym s = { .attention = 1 };
	struct fx x;
	const struct finding *f;

	fx_run(&x, &s, NULL);
	f = must(&x, FIND_ATTENTION_UNFUSED);
	cr_assert_eq(num(f, "softmax_ops"), NSTEPS);
	cr_assert_eq(num(f, "bmm_ops"), 2 * NSTEPS);
	cr_assert_eq(f->ranges[0].start_ns, 105 * US);
	fx_free(&x);
}

Test(findings, softmax_not_between_bmms_is_no_attention)
{
	struct sym s = { .softmax_alone = 1 };
	struct fx x;

	fx_run(&x, &s, NULL);
	none(&x, FIND_ATTENTION_UNFUSED);
	fx_free(&x);
}

Test(findings, attention_with_a_flash_kernel_is_fused)
{
	struct sym s = { .attention = 1, .flash = 1 };
	struct fx x;

	fx_run(&x, &s, NULL);
	none(&x, FIND_ATTENTION_UNFUSED);
	fx_free(&x);
}

Test(findings, low_mfu)
{
	struct sym s = { 0 };
	struct analysis_opts o = j_opts();
	struct fx x;
	const struct finding *f;

	/* 1 TFLOP/s peak, 1 ms steps: 1e9 FLOPs per step is 100% */
	o.mfu.peak_tflops = 1;
	o.mfu.world_size = 1;
	o.mfu.flops_per_step = 1e8;
	fx_run(&x, &s, &o);
	f = must(&x, FIND_LOW_MFU);
	cr_assert_eq(f->severity, SEV_CRITICAL);
	cr_assert_float_eq(real(f, "mfu"), 0.1, 1e-3);
	cr_assert_eq(f->ranges[0].start_ns, x.a.start_ns);
	fx_free(&x);

	o.mfu.flops_per_step = 5e8;     /* 50%: fine */
	fx_run(&x, &s, &o);
	none(&x, FIND_LOW_MFU);
	cr_assert_eq(x.n, 0);
	fx_free(&x);
}

Test(findings, most_severe_first)
{
	struct sym s = { .starved = 1, .attention = 1 };
	struct fx x;

	fx_run(&x, &s, NULL);
	cr_assert_geq(x.n, 2);
	for (size_t i = 1; i < x.n; i++)
		cr_assert_geq(x.f[i - 1].severity, x.f[i].severity);
	cr_assert_eq(x.f[0].kind, FIND_GPU_STARVED);
	fx_free(&x);
}

Test(findings, json_report_lists_them)
{
	struct sym s = { .exposed_ag = 1 };
	struct analysis_opts o = j_opts();
	struct fx x;
	char *buf = NULL;
	size_t len = 0;
	FILE *out;
	json_object *root, *r, *fs, *f0, *v;

	o.memory = 1;           /* as --report builds them */
	fx_run(&x, &s, &o);
	out = open_memstream(&buf, &len);
	cr_assert_eq(report_write(out, REPORT_JSON, &o, x.t.start_ns, &x.a, 1,
	    NULL, 0), 0);
	fclose(out);
	root = json_tokener_parse(buf);
	cr_assert_not_null(root, "invalid JSON");
	r = json_object_array_get_idx(json_object_object_get(root, "ranks"), 0);
	cr_assert(json_object_object_get_ex(r, "findings", &fs));
	cr_assert_eq(json_object_array_length(fs), 1);
	f0 = json_object_array_get_idx(fs, 0);
	cr_assert_str_eq(json_object_get_string(json_object_object_get(f0, "kind")),
	    "exposed_comm");
	v = json_object_object_get(json_object_object_get(f0, "evidence"),
	    "all_gather_exposed_ns");
	cr_assert_eq(json_object_get_int64(v), NSTEPS * 200 * US);
	cr_assert_eq(json_object_array_length(json_object_object_get(f0, "ranges")),
	    FINDINGS_MAX_RANGES);
	cr_assert(json_object_object_get_ex(r, "memory", &v));
	cr_assert_eq(json_object_array_length(json_object_object_get(v, "steps")),
	    NSTEPS);
	json_object_put(root);
	free(buf);
	fx_free(&x);
}

/* ---- memory ---------------------------------------------------------- */

static int mem_tid = 1;         /* the thread mem() writes on */

/* A [memory] instant at ts (us) on device dev (type 1) or the CPU (type 0). */
static void
mem(long long ts, int type, int dev, long long alloc, long long reserved,
    long long bytes)
{
	j_sep();
	fprintf(jf, "{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"name\": "
	    "\"[memory]\", \"pid\": 100, \"tid\": %d, \"ts\": %lld, \"s\": \"t\", "
	    "\"args\": {\"Total Reserved\": %lld, \"Total Allocated\": %lld, "
	    "\"Bytes\": %lld, \"Device Type\": %d, \"Device Id\": %d, "
	    "\"Addr\": 1}}", mem_tid, ts, reserved, alloc, bytes, type, dev);
}

Test(memory, samples_values_and_steps)
{
	struct trace t;
	struct memory m;
	struct mem_sample x;
	struct metrics d;
	struct step *s;
	struct mem_step *ms;
	double a, r;
	size_t ns;

	next_corr = 1;
	j_begin();
	step(1, 0, 100);
	step(2, 100, 200);
	kernel(1, 1, "gemm", 10, 20);
	kernel(1, 101, "gemm", 110, 120);
	mem(5, 1, 0, 1000, 4000, 1000);
	mem(30, 1, 0, 3000, 4000, 2000);
	mem(30, 0, -1, 99999, 99999, 5);        /* CPU: not device 0 */
	mem(60, 1, 0, 500, 4000, -2500);
	mem(150, 1, 0, 2500, 8000, 2000);
	mem(150, 1, 1, 77777, 88888, 1);        /* device 1 */
	cpu("cuda_runtime", "cudaFree", 1, 160, 3);
	j_load(&t);

	memory_build(&m, &t, 0);
	cr_assert_eq(m.n, 4);
	cr_assert_float_eq(m.peak_allocated, 3000, 0);
	cr_assert_float_eq(m.peak_reserved, 8000, 0);
	cr_assert_not(memory_at(&m, 4 * US, &x));
	cr_assert(memory_at(&m, 30 * US, &x));
	cr_assert_float_eq(x.allocated, 3000, 0);
	cr_assert_float_eq(x.reserved, 4000, 0);
	cr_assert(memory_at(&m, 149 * US, &x));
	cr_assert_float_eq(x.allocated, 500, 0);
	/* the value in effect at the window's start counts */
	cr_assert(memory_peak(&m, 40 * US, 70 * US, &a, &r));
	cr_assert_float_eq(a, 3000, 0);
	cr_assert(memory_peak(&m, 61 * US, 150 * US, &a, &r));
	cr_assert_float_eq(a, 500, 0);
	cr_assert_float_eq(r, 4000, 0);
	cr_assert_not(memory_peak(&m, 0, 5 * US, &a, &r));

	metrics_build(&d, &t, 0, METRICS_DEFAULT_MIN_GAP_NS);
	ns = steps_find(&d, &s);
	cr_assert_eq(ns, 2);
	cr_assert_eq(memory_steps(&m, &t, s, ns, &ms), 2);
	cr_assert(ms[0].has_samples);
	cr_assert_float_eq(ms[0].start_allocated, 0, 0); /* nothing yet at 0 */
	cr_assert_float_eq(ms[0].peak_allocated, 3000, 0);
	cr_assert_float_eq(ms[0].min_allocated, 500, 0);
	cr_assert_float_eq(ms[0].end_allocated, 500, 0);
	cr_assert_float_eq(ms[1].start_allocated, 500, 0);
	cr_assert_float_eq(ms[1].peak_allocated, 2500, 0);
	cr_assert_float_eq(ms[1].peak_reserved, 8000, 0);
	cr_assert_eq(ms[1].frees, 1);
	cr_assert_eq(ms[1].mallocs, 0);
	cr_assert_not(ms[1].churn);     /* still warm-up */
	free(ms);
	free(s);
	metrics_free(&d);
	memory_free(&m);
	memory_build(&m, &t, 1);
	cr_assert_eq(m.n, 1);
	memory_free(&m);
	trace_free(&t);
}

Test(memory, peak_matches_brute_force)
{
	struct trace t;
	struct memory m;
	uint64_t g = 7;
	long long ts[200], al[200];

	/*
	 * On three threads, merged into time order: ts mod 3 is the thread,
	 * so that equal times (kept in file order) are on one thread.
	 */
	j_begin();
	for (int i = 0; i < 200; i++) {
		mem_tid = 1 + (int)rng_below(&g, 3);
		ts[i] = 3 * rng_below(&g, 333) + mem_tid - 1;
		al[i] = rng_below(&g, 100000);
		mem(ts[i], 1, 0, al[i], al[i] + 10, 1);
	}
	mem_tid = 1;
	j_load(&t);
	memory_build(&m, &t, 0);
	cr_assert_eq(m.n, 200);
	for (int q = 0; q < 500; q++) {
		long long a = rng_below(&g, 1100), b = a + rng_below(&g, 300);
		long long want = -1, last_ts = -1;
		int last = -1, got;
		double pa, pr;

		/* in effect at a: the last in file order of the latest ts <= a */
		for (int i = 0; i < 200; i++)
			if (ts[i] <= a && ts[i] >= last_ts)
				last_ts = ts[i], last = i;
		if (last >= 0 && b > a)
			want = al[last];
		/* and every sample inside (a, b) */
		for (int i = 0; i < 200; i++)
			if (ts[i] > a && ts[i] < b && al[i] > want)
				want = al[i];
		got = memory_peak(&m, a * US, b * US, &pa, &pr);
		if (want < 0) {
			cr_assert_not(got, "a %lld b %lld", a, b);
			continue;
		}
		cr_assert(got, "a %lld b %lld", a, b);
		cr_assert_float_eq(pa, (double)want, 0, "a %lld b %lld", a, b);
	}
	memory_free(&m);
	trace_free(&t);
}
