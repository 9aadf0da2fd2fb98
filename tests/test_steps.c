/* Steps: GPU extents by launch time, the unlinked fallback, outliers. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load/load.h"
#include "analysis/metrics.h"
#include "analysis/steps.h"
#include "model/trace.h"

#include "jtrace.h"
#include "testrng.h"

/*
 * The writers jtrace.h lacks: a launch and a kernel as separate events, so
 * that a kernel can sit on any device and stream, or be linked to nothing.
 */

/* A cudaLaunchKernel call of 1 us on tid with correlation corr. */
static void
launch(int tid, long long ts, int corr)
{
	j_sep();
	fprintf(jf, "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\","
	    " \"pid\": 100, \"tid\": %d, \"ts\": %lld, \"dur\": 1,"
	    " \"args\": {\"correlation\": %d}}", tid, ts, corr);
}

/* A kernel on device dev, stream; corr < 0: not linked to any launch. */
static void
dev_kernel(const char *name, int dev, int stream, long long ts, long long dur,
    int corr)
{
	j_sep();
	fprintf(jf, "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"%s\", \"pid\": %d,"
	    " \"tid\": %d, \"ts\": %lld, \"dur\": %lld, \"args\": {\"device\": %d,"
	    " \"stream\": %d", name, dev, stream, ts, dur, dev, stream);
	if (corr >= 0)
		fprintf(jf, ", \"correlation\": %d", corr);
	fputs("}}", jf);
}

#define US 1000LL               /* ns per us */

static void
assert_gpu(const struct step *s, long long a_us, long long b_us)
{
	cr_assert(s->has_gpu, "step %lld has no GPU extent", (long long)s->number);
	cr_assert_eq(s->gpu_start_ns, a_us * US, "step %lld gpu start %lld",
	    (long long)s->number, (long long)s->gpu_start_ns);
	cr_assert_eq(s->gpu_end_ns, b_us * US, "step %lld gpu end %lld",
	    (long long)s->number, (long long)s->gpu_end_ns);
}

static void
assert_no_gpu(const struct step *s)
{
	cr_assert_not(s->has_gpu, "step %lld has a GPU extent", (long long)s->number);
	cr_assert_eq(s->gpu_start_ns, 0);
	cr_assert_eq(s->gpu_end_ns, 0);
}

/*
 * The steps of t with their GPU extents on device dev, found through
 * metrics at the default gap.  Returns their number; *s is malloc'd.
 */
static size_t
find_steps(const struct trace *t, int32_t dev, struct step **s)
{
	struct metrics d;
	size_t n;

	metrics_build(&d, t, dev, METRICS_DEFAULT_MIN_GAP_NS);
	n = steps_find(&d, s);
	metrics_free(&d);
	return n;
}

/* Asserts that none of s[0..n) has a z-score or is an outlier. */
static void
assert_no_z(const struct step *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		cr_assert_eq(s[i].z, 0.0, "step %zu", i);
		cr_assert_not(s[i].outlier, "step %zu", i);
	}
}

/*
 * Device 0: step 1 launches on the main thread at 10 and, as a backward
 * pass would, on the autograd thread at 50; its last launch at 95 runs at
 * [150, 170), during step 2's CPU span, and still belongs to step 1.  An
 * unlinked kernel at [5, 8) counts for no step (some activity is linked).
 * Device 1 gets one kernel launched in step 1.
 */
static void
linked_trace(struct trace *t)
{
	j_begin();
	step(2, 100, 200);      /* out of order in the file */
	step(1, 0, 100);
	step(3, 300, 400);
	cpu("user_annotation", "ProfilerStep#4x", 1, 400, 50);
	cpu("user_annotation", "ProfilerStep#", 1, 450, 10);
	cpu("user_annotation", "ProfilerStep#99999999999999999999", 1, 460, 10);
	cpu("user_annotation", "xProfilerStep#5", 1, 470, 10);
	/* The GPU-side copy of the step annotation is not a step. */
	j_sep();
	fputs("{\"ph\": \"X\", \"cat\": \"gpu_user_annotation\", \"name\": \"ProfilerStep#1\","
	    " \"pid\": 0, \"tid\": 7, \"ts\": 20, \"dur\": 150}", jf);

	launch(1, 10, 1);
	dev_kernel("gemm_a", 0, 7, 20, 10, 1);
	launch(2, 50, 2);
	dev_kernel("gemm_bwd", 0, 7, 60, 30, 2);
	launch(1, 95, 3);
	dev_kernel("gemm_late", 0, 7, 150, 20, 3);
	dev_kernel("unlinked", 0, 7, 5, 3, -1);
	launch(1, 110, 4);
	dev_kernel("gemm_b", 0, 7, 175, 10, 4);
	launch(2, 120, 5);
	dev_kernel("ncclDevKernel_ReduceScatter", 0, 22, 190, 40, 5);
	launch(1, 30, 6);
	dev_kernel("gemm_dev1", 1, 7, 35, 265, 6);
	j_load(t);
}

Test(steps, gpu_extent_by_launch_time)
{
	struct trace t;
	struct step *s;
	size_t n;

	linked_trace(&t);
	n = find_steps(&t, 0, &s);
	cr_assert_eq(n, 3);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(s[i].number, (int64_t)i + 1, "sorted by start");
	cr_assert_eq(s[0].start_ns, 0);
	cr_assert_eq(s[0].end_ns, 100 * US);
	cr_assert_eq(s[1].start_ns, 100 * US);
	cr_assert_eq(s[1].end_ns, 200 * US);
	cr_assert_str_eq(trace_str(&t, t.events[s[1].event].name), "ProfilerStep#2");
	/* main [20, 30), autograd [60, 90), late [150, 170); not [5, 8) */
	assert_gpu(&s[0], 20, 170);
	/* [175, 185) and the collective [190, 230); not device 1's kernel */
	assert_gpu(&s[1], 175, 230);
	assert_no_gpu(&s[2]);
	assert_no_z(s, n);
	free(s);
	trace_free(&t);
}

Test(steps, two_devices)
{
	struct trace t;
	struct step *s;
	int32_t *devs;
	size_t n;

	linked_trace(&t);
	cr_assert_eq(metrics_devices(&t, &devs), 2);
	cr_assert_eq(devs[0], 0);
	cr_assert_eq(devs[1], 1);
	free(devs);
	n = find_steps(&t, 1, &s);
	cr_assert_eq(n, 3);
	assert_gpu(&s[0], 35, 300);     /* launched at 30, in step 1 */
	assert_no_gpu(&s[1]);
	assert_no_gpu(&s[2]);
	free(s);
	trace_free(&t);
}

/*
 * No activity of device 0 is linked: each step takes the activity starting
 * in [its start, the next step's start), the last step open-ended.
 * Device 1 has a linked kernel, which does not switch device 0 to the rule
 * by launch time.
 */
Test(steps, unlinked_fallback)
{
	struct trace t;
	struct step *s;
	size_t n;

	j_begin();
	step(1, 50, 100);
	step(2, 100, 200);
	step(3, 250, 300);
	dev_kernel("before_first_step", 0, 7, 10, 10, -1);
	dev_kernel("k1", 0, 7, 60, 10, -1);
	dev_kernel("k1_long", 0, 7, 90, 60, -1);    /* runs into step 2 */
	dev_kernel("k2", 0, 7, 150, 10, -1);
	dev_kernel("k2_gap", 0, 7, 220, 20, -1);    /* after step 2's end, before step 3 */
	dev_kernel("k3_after", 0, 7, 400, 10, -1);  /* after the last step's end */
	launch(1, 60, 9);
	dev_kernel("dev1", 1, 7, 70, 10, 9);
	j_load(&t);

	n = find_steps(&t, 0, &s);
	cr_assert_eq(n, 3);
	assert_gpu(&s[0], 60, 150);
	assert_gpu(&s[1], 150, 240);
	assert_gpu(&s[2], 400, 410);
	free(s);

	n = find_steps(&t, 1, &s);
	cr_assert_eq(n, 3);
	assert_gpu(&s[0], 70, 80);
	assert_no_gpu(&s[1]);
	assert_no_gpu(&s[2]);
	free(s);
	trace_free(&t);
}

Test(steps, no_steps)
{
	struct trace t;
	struct step *s = (struct step *)&t;

	j_begin();
	cpu("user_annotation", "Optimizer.step", 1, 0, 10);
	launch(1, 1, 1);
	dev_kernel("k", 0, 7, 5, 5, 1);
	j_load(&t);
	cr_assert_eq(find_steps(&t, 0, &s), 0);
	cr_assert_null(s);
	trace_free(&t);
}

/*
 * steps_numbers(): the trace's step numbers, whatever the device, against
 * the oracle of steps_find() on each device (sorted, repeats dropped); a
 * repeated step and a trace without GPU activity.
 */
Test(steps, numbers)
{
	struct trace t;
	struct step *s;
	int64_t *v;
	size_t n, nv;

	linked_trace(&t);
	nv = steps_numbers(&t, &v);
	cr_assert_eq(nv, 3);
	for (int32_t dev = 0; dev < 2; dev++) {
		n = find_steps(&t, dev, &s);
		cr_assert_eq(n, nv);
		for (size_t i = 0; i < n; i++)
			cr_expect_eq(s[i].number, v[i], "device %d step %zu", dev, i);
		free(s);
	}
	free(v);
	trace_free(&t);

	j_begin();                      /* CPU only; step 7 twice */
	step(7, 0, 10);
	step(5, 20, 30);
	step(7, 40, 50);
	cpu("user_annotation", "ProfilerStep#6x", 1, 60, 5);
	j_load(&t);
	nv = steps_numbers(&t, &v);
	cr_assert_eq(nv, 2);
	cr_expect_eq(v[0], 5);
	cr_expect_eq(v[1], 7);
	free(v);
	trace_free(&t);

	j_begin();
	cpu("user_annotation", "Optimizer.step", 1, 0, 10);
	j_load(&t);
	v = (int64_t *)&t;
	cr_assert_eq(steps_numbers(&t, &v), 0);
	cr_assert_null(v);
	trace_free(&t);
}

/* Seven steps of a trace, the last one three times as long. */
Test(steps, find_flags_the_slow_step)
{
	static const long long dur[] = { 100, 101, 99, 100, 102, 98, 300 };
	struct trace t;
	struct step *s;
	long long ts = 1000;
	size_t n;

	j_begin();
	for (int i = 0; i < 7; i++) {
		step(i + 10, ts, ts + dur[i]);
		ts += dur[i];
	}
	launch(1, 1001, 1);
	dev_kernel("k", 0, 7, 1005, 5, 1);
	j_load(&t);
	n = find_steps(&t, 0, &s);
	cr_assert_eq(n, 7);
	/*
	 * Sorted: 98 99 100 100 101 102 300, median 100; deviations
	 * 0 0 1 1 2 2 200, MAD 1: z(300) = 200 / 1.4826 = 134.898.
	 */
	for (size_t i = 0; i < 6; i++)
		cr_assert_not(s[i].outlier, "step %zu", i);
	cr_assert(s[6].outlier);
	cr_assert_eq(s[6].number, 16);
	cr_assert_float_eq(s[6].z, 134.89815, 1e-4);
	cr_assert_float_eq(s[4].z, 2 / 1.4826, 1e-9);   /* 102 */
	cr_assert_float_eq(s[5].z, -2 / 1.4826, 1e-9);  /* 98 */
	free(s);
	trace_free(&t);
}

Test(steps, steps_at)
{
	struct step s[3];

	memset(s, 0, sizeof s);
	s[0].start_ns = 0;
	s[0].end_ns = 100;
	s[1].start_ns = 100;
	s[1].end_ns = 200;
	s[2].start_ns = 300;
	s[2].end_ns = 400;
	cr_assert_eq(steps_at(s, 3, -5), -1);
	cr_assert_eq(steps_at(s, 3, 0), 0);
	cr_assert_eq(steps_at(s, 3, 99), 0);
	cr_assert_eq(steps_at(s, 3, 100), 1);     /* half-open: the next step */
	cr_assert_eq(steps_at(s, 3, 199), 1);
	cr_assert_eq(steps_at(s, 3, 200), -1);    /* between steps */
	cr_assert_eq(steps_at(s, 3, 250), -1);
	cr_assert_eq(steps_at(s, 3, 300), 2);
	cr_assert_eq(steps_at(s, 3, 399), 2);
	cr_assert_eq(steps_at(s, 3, 400), -1);
	cr_assert_eq(steps_at(s, 0, 50), -1);
	/* Overlapping spans: the latest starting one. */
	s[1].start_ns = 50;
	s[1].end_ns = 150;
	cr_assert_eq(steps_at(s, 3, 60), 1);
	cr_assert_eq(steps_at(s, 3, 40), 0);
}

/* Steps of the given durations (ns), back to back from 0. */
static struct step *
make_steps(const long long *dur, size_t n)
{
	struct step *s = calloc(n, sizeof *s);
	long long ts = 0;

	cr_assert_not_null(s);
	for (size_t i = 0; i < n; i++) {
		s[i].number = (int64_t)i;
		s[i].start_ns = ts;
		s[i].end_ns = ts + dur[i];
		ts += dur[i];
		s[i].z = 99;            /* must be overwritten */
		s[i].outlier = 1;
	}
	return s;
}

Test(outliers, robust_z_with_mad)
{
	static const long long dur[] = { 100, 102, 98, 101, 99, 100, 103, 160 };
	struct step *s = make_steps(dur, 8);

	steps_outliers(s, 8);
	/*
	 * Sorted: 98 99 100 100 101 102 103 160: median (100 + 101) / 2 =
	 * 100.5.  |t - median|: 0.5 0.5 0.5 1.5 1.5 2.5 2.5 59.5, MAD =
	 * (1.5 + 1.5) / 2 = 1.5.  z(160) = 59.5 / (1.4826 * 1.5) = 26.7548;
	 * z(103) = 2.5 / 2.2239 = 1.12415; z(98) = -1.12415.
	 */
	cr_assert_float_eq(s[7].z, 26.7548, 1e-4);
	cr_assert(s[7].outlier);
	cr_assert_float_eq(s[6].z, 1.12415, 1e-5);
	cr_assert_float_eq(s[2].z, -1.12415, 1e-5);
	cr_assert_float_eq(s[0].z, -0.5 / (1.4826 * 1.5), 1e-12);
	for (int i = 0; i < 7; i++)
		cr_assert_not(s[i].outlier, "step %d", i);
	free(s);
}

Test(outliers, need_ten_percent_over_median)
{
	static const long long dur[] = { 1000, 1002, 998, 1001, 999, 1003, 997, 1050 };
	struct step *s = make_steps(dur, 8);

	steps_outliers(s, 8);
	/*
	 * Median 1000.5; deviations .5 .5 1.5 1.5 2.5 2.5 3.5 49.5, MAD 2:
	 * z(1050) = 49.5 / 2.9652 = 16.694 > 3.5, but 1050 < 1.1 * 1000.5.
	 */
	cr_assert_float_eq(s[7].z, 16.69365, 1e-4);
	for (int i = 0; i < 8; i++)
		cr_assert_not(s[i].outlier, "step %d", i);
	free(s);
}

Test(outliers, mad_zero_uses_mean_deviation)
{
	static const long long dur[] = { 100, 100, 100, 100, 100, 100, 100, 100, 100, 1000 };
	static const long long dur2[] = { 100, 100, 100, 100, 200 };
	struct step *s = make_steps(dur, 10);

	steps_outliers(s, 10);
	/*
	 * Median 100, MAD 0.  Mean 190, mean |t - mean| = (9 * 90 + 810) / 10
	 * = 162: z(1000) = 900 / (1.2533 * 162) = 4.43274.
	 */
	cr_assert_float_eq(s[9].z, 4.43274, 1e-4);
	cr_assert(s[9].outlier);
	assert_no_z(s, 9);
	free(s);

	s = make_steps(dur2, 5);
	steps_outliers(s, 5);
	/* Mean 120, mean deviation 32: z(200) = 100 / (1.2533 * 32) = 2.49342. */
	cr_assert_float_eq(s[4].z, 2.49342, 1e-4);
	cr_assert_not(s[4].outlier);
	free(s);
}

Test(outliers, all_equal)
{
	static const long long dur[] = { 100, 100, 100, 100, 100, 100 };
	struct step *s = make_steps(dur, 6);

	steps_outliers(s, 6);
	assert_no_z(s, 6);
	free(s);
}

Test(outliers, fewer_than_five_steps)
{
	static const long long dur[] = { 100, 100, 101, 5000 };
	struct step *s = make_steps(dur, 4);

	steps_outliers(s, 4);
	assert_no_z(s, 4);
	free(s);
	steps_outliers(NULL, 0);
}

Test(outliers, slow_side_only)
{
	static const long long dur[] = { 100, 101, 99, 100, 102, 98, 10 };
	struct step *s = make_steps(dur, 7);

	steps_outliers(s, 7);
	/* Median 100, MAD 1: z(10) = -90 / 1.4826 = -60.704. */
	cr_assert_float_eq(s[6].z, -90 / 1.4826, 1e-9);
	for (int i = 0; i < 7; i++)
		cr_assert_not(s[i].outlier, "step %d", i);
	free(s);
}

/*
 * A file cut short in the middle of an event: its last step may be missing
 * its end, so it is marked incomplete and is never an outlier; the others'
 * outliers are found without it.  The same steps read whole make step 6
 * (three times the others) an outlier.  cut 2: the file ends after its event
 * array closed (its trailing metadata lost, every event read): cut short,
 * but no event is missing, so the last step is whole.
 */
static void
outlier_steps(int cut, struct trace *t)
{
	j_begin();
	for (int i = 1; i <= 6; i++) {
		long long s = (i - 1) * 1000LL, d = i == 6 ? 600 : 200 + i;

		step(i, s, s + d);
		launch(1, s + 10, i);
		dev_kernel("gemm", 0, 7, s + 20, d - 30, i);
	}
	j_load_ending(t, cut == 1 ? ",\n{\"ph\": \"X\", \"cat\": \"ker" :
	    cut == 2 ? "\n],\n\"traceName\": \"rank-0.js" : "\n]}\n");
	cr_assert_eq(trace_cut_short(t), cut != 0);
	cr_assert_eq(trace_events_lost(t), cut == 1);
}

Test(steps, the_last_step_of_a_cut_file_is_incomplete)
{
	struct trace t;
	struct step *s;
	size_t n;

	outlier_steps(0, &t);
	n = find_steps(&t, 0, &s);
	cr_assert_eq(n, 6);
	cr_assert(s[5].outlier, "whole: step 6 is an outlier");
	cr_assert_not(s[5].incomplete);
	free(s);
	trace_free(&t);

	outlier_steps(1, &t);
	n = find_steps(&t, 0, &s);
	cr_assert_eq(n, 6);
	cr_assert(s[5].incomplete);
	cr_assert_not(s[5].outlier, "cut: step 6 may be incomplete, not an outlier");
	cr_assert_eq(s[5].z, 0.0);
	for (size_t i = 0; i < 5; i++) {
		cr_assert_not(s[i].incomplete);
		cr_assert_not(s[i].outlier);
	}
	free(s);
	trace_free(&t);

	outlier_steps(2, &t);
	n = find_steps(&t, 0, &s);
	cr_assert_eq(n, 6);
	cr_assert_not(s[5].incomplete, "the array closed: step 6 is whole");
	cr_assert(s[5].outlier, "cut after the array: step 6 is an outlier still");
	free(s);
	trace_free(&t);
}

/* steps_median() against a brute force: the n/2-th smallest, first of ties. */
Test(steps, median_step_is_the_upper_middle)
{
	uint64_t r = 12345;

	cr_assert_eq(steps_median(NULL, 0), -1);
	for (int round = 0; round < 200; round++) {
		struct step s[9];
		size_t n = 1 + (size_t)rng_below(&r, 9);
		long k, want = -1;

		memset(s, 0, sizeof s);
		for (size_t i = 0; i < n; i++)
			s[i].end_ns = 10 + rng_below(&r, 5);    /* ties on purpose */
		k = steps_median(s, n);
		/* brute force: the first step with exactly n/2 shorter than it, or
		   fewer shorter and enough of its length to cover the n/2-th */
		for (size_t i = 0; i < n && want < 0; i++) {
			size_t below = 0, same = 0;

			for (size_t j = 0; j < n; j++) {
				below += s[j].end_ns < s[i].end_ns;
				same += s[j].end_ns == s[i].end_ns;
			}
			if (below <= n / 2 && n / 2 < below + same)
				want = (long)i;
		}
		cr_assert_eq(k, want, "round %d", round);
	}
}

/*
 * Steps whose GPU work overlaps (the hta negative-queue trace's shape): step
 * 1's kernels on stream 7 run [20, 300) and, queued, [700, 900), while step
 * 2's first kernel runs on stream 9 at [400, 500).  Step 1's extent ends at
 * 400, so the extents partition time and the idle [500, 700) is counted
 * once, in step 2: the steps' idle adds up to at most the window's (before,
 * step 1's extent ran to 900 and both steps counted it).
 */
Test(steps, extents_never_overlap)
{
	struct trace t;
	struct step *s;
	struct metrics d;
	size_t n;
	int64_t idle = 0;

	j_begin();
	step(1, 0, 300);
	launch(1, 10, 1);
	dev_kernel("gemm_a", 0, 7, 20, 280, 1);
	launch(1, 15, 5);
	dev_kernel("gemm_late", 0, 7, 700, 200, 5);
	step(2, 300, 600);
	launch(1, 310, 2);
	dev_kernel("gemm_b", 0, 9, 400, 100, 2);
	launch(1, 320, 3);
	dev_kernel("gemm_c", 0, 7, 900, 100, 3);
	step(3, 600, 900);
	launch(1, 610, 4);
	dev_kernel("gemm_d", 0, 9, 1100, 50, 4);
	j_load(&t);
	n = find_steps(&t, 0, &s);
	cr_assert_eq(n, 3);
	cr_assert_eq(s[0].gpu_start_ns, 20 * US);
	cr_assert_eq(s[0].gpu_end_ns, 400 * US, "step 1 ends where step 2 starts");
	cr_assert_eq(s[1].gpu_start_ns, 400 * US);
	cr_assert_eq(s[1].gpu_end_ns, 1000 * US);
	cr_assert_eq(s[2].gpu_start_ns, 1100 * US);
	cr_assert_eq(s[2].gpu_end_ns, 1150 * US);
	metrics_build(&d, &t, 0, METRICS_DEFAULT_MIN_GAP_NS);
	for (size_t i = 0; i < n; i++) {
		struct window_metrics m;

		if (i > 0)
			cr_assert_geq(s[i].gpu_start_ns, s[i - 1].gpu_end_ns);
		metrics_window(&d, s[i].gpu_start_ns, s[i].gpu_end_ns, &m);
		idle += m.idle_ns;
	}
	{
		struct window_metrics w;

		metrics_window(&d, 20 * US, 1150 * US, &w);
		cr_assert_leq(idle, w.idle_ns);
		/* [300, 400) in step 1, [500, 700) in step 2; [1000, 1100) in none */
		cr_assert_eq(idle, 300 * US);
		cr_assert_eq(w.idle_ns, 400 * US);
	}
	metrics_free(&d);
	free(s);
	trace_free(&t);
}
