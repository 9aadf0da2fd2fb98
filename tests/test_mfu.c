/* MFU: the peak table, model FLOPs by steps, op FLOPs by kernels, and every reason. */
#include "config.h"

#include <criterion/criterion.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load/load.h"
#include "analysis/metrics.h"
#include "analysis/mfu.h"
#include "analysis/steps.h"
#include "model/trace.h"

#define US INT64_C(1000)        /* ns per us */

/* Asserts a == e to 1e-12 relative. */
#define assert_near(a, e) \
	cr_assert(fabs((double)(a) - (double)(e)) <= 1e-12 * fabs((double)(e)) + 1e-300, \
	    "%s = %.17g, expected %.17g", #a, (double)(a), (double)(e))

/* ---- fixtures ------------------------------------------------------------ */

struct fix {
	struct trace t;
	struct metrics d;
	struct mfu_flops fl;
	struct step *s;
	size_t ns;
	struct mfu_opts o;      /* no flags after fix_open(); a test sets some */
	struct mfu_result r;    /* of the last fix_compute() */
};

static void
load_text(struct trace *t, const char *text)
{
	char path[64] = "/tmp/gantty-test-mfu-XXXXXX";
	struct load_error err;
	int fd = mkstemp(path);
	size_t len = strlen(text);

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, text, len), (ssize_t)len);
	close(fd);
	cr_assert_eq(load_trace(t, path, NULL, &err), 0, "load failed: %s", err.msg);
	unlink(path);
}

static void
fix_open(struct fix *f, const char *text, int32_t device)
{
	memset(f, 0, sizeof *f);
	load_text(&f->t, text);
	metrics_build(&f->d, &f->t, device, METRICS_DEFAULT_MIN_GAP_NS);
	mfu_flops_build(&f->fl, &f->d);
	f->ns = steps_find(&f->d, &f->s);
}

static void
fix_close(struct fix *f)
{
	free(f->s);
	mfu_flops_free(&f->fl);
	metrics_free(&f->d);
	trace_free(&f->t);
}

/*
 * mfu_compute_with() of f's device, steps and options over [a_us, b_us) us
 * into f->r; without f's op FLOPs (mfu_compute()) the same, bit for bit.
 */
static void
fix_compute(struct fix *f, int64_t a_us, int64_t b_us)
{
	struct mfu_result once;

	mfu_compute_with(&f->d, &f->fl, f->s, f->ns, &f->o, a_us * US, b_us * US, &f->r);
	mfu_compute(&f->d, f->s, f->ns, &f->o, a_us * US, b_us * US, &once);
	cr_assert(memcmp(&once, &f->r, sizeof once) == 0,
	    "[%lld, %lld) us: %.17g TFLOP/s built once, %.17g with the op FLOPs",
	    (long long)a_us, (long long)b_us, once.achieved_tflops,
	    f->r.achieved_tflops);
}

/* ---- the peak table ------------------------------------------------------ */

static void
expect_peak(const char *name, const char *match, double tflops)
{
	const struct mfu_peak *p = mfu_lookup_peak(name);

	cr_assert_not_null(p, "no peak for '%s'", name);
	cr_assert_str_eq(p->match, match, "'%s' matched row '%s', expected '%s'",
	    name, p->match, match);
	assert_near(p->tflops, tflops);
}

Test(peak, real_device_names)
{
	expect_peak("NVIDIA H100 80GB HBM3", "H100", 989.4);
	expect_peak("NVIDIA H100", "H100", 989.4);
	expect_peak("NVIDIA H100 PCIe", "H100 PCIe", 756);
	expect_peak("NVIDIA H100 NVL", "H100 NVL", 835);
	expect_peak("NVIDIA H800", "H800", 989.4);
	expect_peak("NVIDIA H200", "H200", 989.4);
	expect_peak("NVIDIA H200 NVL", "H200 NVL", 835);
	expect_peak("NVIDIA GH200 480GB", "GH200", 989.4);
	expect_peak("NVIDIA B200", "B200", 2250);
	expect_peak("NVIDIA GB200", "GB200", 2500);
	expect_peak("NVIDIA A100-SXM4-80GB", "A100", 312);
	expect_peak("NVIDIA A100 80GB PCIe", "A100", 312);
	expect_peak("NVIDIA A10", "A10", 125);
	expect_peak("NVIDIA A10G", "A10G", 70);
	expect_peak("NVIDIA L4", "L4", 121);
	expect_peak("NVIDIA L40S", "L40S", 362.05);
	expect_peak("NVIDIA L40", "L40", 181.05);
	expect_peak("NVIDIA RTX A6000", "RTX A6000", 154.8);
	expect_peak("Tesla V100-SXM2-32GB", "V100", 125);
	expect_peak("Tesla V100-PCIE-16GB", "V100-PCIE", 112);
	expect_peak("Tesla V100S-PCIE-32GB", "V100S", 130);
	expect_peak("Tesla T4", "T4", 65);
	expect_peak("AMD Instinct MI300X", "MI300X", 1307.4);
	expect_peak("AMD Instinct MI300A", "MI300A", 980.6);
	expect_peak("AMD Instinct MI325X", "MI325X", 1307.4);
	expect_peak("AMD Instinct MI355X", "MI355X", 2516.6);
	expect_peak("AMD Instinct MI250X / MI250", "MI250X / MI250", 191.5);
	expect_peak("AMD Instinct MI250X", "MI250X", 191.5);
	expect_peak("AMD Instinct MI250", "MI250", 181.05);
	/* seen in the corpus of real traces */
	expect_peak("NVIDIA A100-PG509-200", "A100", 312);
	expect_peak("Tesla V100-SXM2-16GB", "V100", 125);
	expect_peak("AMD Instinct MI300X VF", "MI300X", 1307.4);
	expect_peak("AMD Instinct MI210", "MI210", 181);
}

Test(peak, case_insensitive)
{
	expect_peak("nvidia h100 pcie", "H100 PCIe", 756);
	expect_peak("amd instinct mi300x", "MI300X", 1307.4);
}

/* The traps of plain substring matching. */
Test(peak, near_names_do_not_match)
{
	/* A10 is inside A100, H200 inside GH200, B200 inside GB200, L40 inside L40S */
	cr_assert_str_eq(mfu_lookup_peak("NVIDIA A100-SXM4-40GB")->match, "A100");
	cr_assert_str_eq(mfu_lookup_peak("NVIDIA GH200 144G HBM3e")->match, "GH200");
	cr_assert_str_eq(mfu_lookup_peak("NVIDIA GB200")->match, "GB200");
	cr_assert_str_eq(mfu_lookup_peak("NVIDIA L40S")->match, "L40S");
	cr_assert_str_eq(mfu_lookup_peak("NVIDIA H100 PCIe")->match, "H100 PCIe");
	/* unknown devices, some holding a known name glued to other characters */
	cr_assert_null(mfu_lookup_peak("NVIDIA GeForce RTX 4090"));
	cr_assert_null(mfu_lookup_peak("NVIDIA GeForce RTX 2080 Ti"));
	cr_assert_null(mfu_lookup_peak("NVIDIA RTX A4000"));       /* not A40 */
	cr_assert_null(mfu_lookup_peak("NVIDIA A1000"));           /* not A100 nor A10 */
	cr_assert_null(mfu_lookup_peak("NVIDIA H20"));             /* not H200 */
	cr_assert_null(mfu_lookup_peak("NVIDIA XH100"));           /* glued on the left */
	cr_assert_null(mfu_lookup_peak("AMD Radeon Graphics"));
	cr_assert_null(mfu_lookup_peak(""));
	cr_assert_null(mfu_lookup_peak(NULL));
}

/* Every row is reachable: no earlier row swallows it; every row has a source. */
Test(peak, table_rows_reachable_and_sourced)
{
	cr_assert_geq(mfu_peak_table_len, 25);
	for (size_t i = 0; i < mfu_peak_table_len; i++) {
		const struct mfu_peak *r = &mfu_peak_table[i];

		cr_assert_eq(mfu_lookup_peak(r->match), r, "row '%s' is shadowed", r->match);
		cr_assert_gt(r->tflops, 0);
		cr_assert_gt(strlen(r->device), 0);
		cr_assert_gt(strlen(r->source), 10, "row '%s' has no source", r->match);
	}
}

/* ---- model FLOPs ----------------------------------------------------------- */

/*
 * Three steps on one CPU thread, kernels on device 0 (times in us):
 *   step 1: CPU [1000, 2000), launches a [1200, 1300) and b [1500, 1800):
 *           GPU extent [1200, 1800), 600 us
 *   step 2: CPU [2000, 3000), launches c [2100, 2500) and d [2600, 3000):
 *           GPU extent [2100, 3000), 900 us
 *   step 3: CPU [3000, 4000), launches nothing: CPU span, 1000 us
 */
static const char model_trace[] =
    "{\"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H100 80GB HBM3\"}],\n"
    " \"traceEvents\": [\n"
    "  {\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#1\", \"pid\": 10, \"tid\": 11, \"ts\": 1000, \"dur\": 1000},\n"
    "  {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 10, \"tid\": 11, \"ts\": 1100, \"dur\": 5, \"args\": {\"correlation\": 1}},\n"
    "  {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 10, \"tid\": 11, \"ts\": 1150, \"dur\": 5, \"args\": {\"correlation\": 2}},\n"
    "  {\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#2\", \"pid\": 10, \"tid\": 11, \"ts\": 2000, \"dur\": 1000},\n"
    "  {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 10, \"tid\": 11, \"ts\": 2050, \"dur\": 5, \"args\": {\"correlation\": 3}},\n"
    "  {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 10, \"tid\": 11, \"ts\": 2200, \"dur\": 5, \"args\": {\"correlation\": 4}},\n"
    "  {\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#3\", \"pid\": 10, \"tid\": 11, \"ts\": 3000, \"dur\": 1000},\n"
    "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm_a\", \"pid\": 0, \"tid\": 7, \"ts\": 1200, \"dur\": 100, \"args\": {\"correlation\": 1, \"device\": 0}},\n"
    "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm_b\", \"pid\": 0, \"tid\": 7, \"ts\": 1500, \"dur\": 300, \"args\": {\"correlation\": 2, \"device\": 0}},\n"
    "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm_c\", \"pid\": 0, \"tid\": 7, \"ts\": 2100, \"dur\": 400, \"args\": {\"correlation\": 3, \"device\": 0}},\n"
    "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm_d\", \"pid\": 0, \"tid\": 7, \"ts\": 2600, \"dur\": 400, \"args\": {\"correlation\": 4, \"device\": 0}}\n"
    " ]}\n";

static void
check_model_steps(const struct fix *f)
{
	cr_assert_eq(f->ns, 3);
	cr_assert(f->s[0].has_gpu);
	cr_assert_eq(f->s[0].gpu_start_ns, 1200 * US);
	cr_assert_eq(f->s[0].gpu_end_ns, 1800 * US);
	cr_assert(f->s[1].has_gpu);
	cr_assert_eq(f->s[1].gpu_start_ns, 2100 * US);
	cr_assert_eq(f->s[1].gpu_end_ns, 3000 * US);
	cr_assert_not(f->s[2].has_gpu);
	cr_assert_eq(f->s[2].start_ns, 3000 * US);
	cr_assert_eq(f->s[2].end_ns, 4000 * US);
}

/*
 * F = 8e11 global, 4 ranks: 2e11 per rank per step.  W = [1500, 2500) us,
 * 1 ms, cuts both GPU extents:
 *   step 1: |[1200, 1800) ∩ W| = 300 of 600 us  -> 2e11 * 1/2 = 1e11
 *   step 2: |[2100, 3000) ∩ W| = 400 of 900 us  -> 2e11 * 4/9 = 8.888...e10
 *   step 3: outside
 * FLOPs in W = 1e11 + 8e11/9 = 1.8888...e11; achieved = that / 1e-3 s
 * = 188.888... TFLOP/s; H100 SXM peak 989.4: MFU = 188.888... / 989.4
 * = 0.190912...  (Measuring by CPU spans instead would give
 * 2e11 * (1/2 + 1/2) / 1e-3 = 200 TFLOP/s.)
 */
Test(model, window_cuts_gpu_extents)
{
	struct fix f;
	double achieved = (1e11 + 8e11 / 9) / 1e-3 / 1e12;

	fix_open(&f, model_trace, 0);
	check_model_steps(&f);
	f.o.flops_per_step = 8e11;
	f.o.world_size = 4;
	fix_compute(&f, 1500, 2500);
	cr_assert_str_eq(f.r.source, "model");
	cr_assert_str_eq(f.r.reason, "");
	cr_assert(f.r.has_achieved);
	assert_near(f.r.achieved_tflops, achieved);
	assert_near(f.r.achieved_tflops, 188.88888888888889);
	cr_assert(f.r.has_peak);
	assert_near(f.r.peak_tflops, 989.4);
	cr_assert_str_eq(f.r.peak_from, "NVIDIA H100 SXM5");
	cr_assert(f.r.has_value);
	assert_near(f.r.value, achieved / 989.4);
	fix_close(&f);
}

/*
 * Step 3 has no GPU extent: its CPU span [3000, 4000) counts.  W = [3500,
 * 4500) us holds half of it: 2e11 / 2 = 1e11 FLOPs in 1 ms = 100 TFLOP/s;
 * with --peak-tflops=400, MFU = 0.25.
 */
Test(model, cpu_span_without_gpu_extent)
{
	struct fix f;

	fix_open(&f, model_trace, 0);
	f.o.flops_per_step = 8e11;
	f.o.world_size = 4;
	f.o.peak_tflops = 400;
	fix_compute(&f, 3500, 4500);
	assert_near(f.r.achieved_tflops, 100);
	cr_assert_str_eq(f.r.peak_from, "--peak-tflops");
	assert_near(f.r.peak_tflops, 400);
	assert_near(f.r.value, 0.25);
	fix_close(&f);
}

/* The whole trace, [1000, 4000) us: 3 steps * 2e11 in 3 ms = 200 TFLOP/s. */
Test(model, whole_steps)
{
	struct fix f;

	fix_open(&f, model_trace, 0);
	f.o.flops_per_step = 8e11;
	f.o.world_size = 4;
	fix_compute(&f, 1000, 4000);
	assert_near(f.r.achieved_tflops, 200);
	assert_near(f.r.value, 200 / 989.4);
	fix_close(&f);
}

/*
 * P = 1e8, D = 1000: 6PD = 6e11 global, 1.5e11 per rank; W = [1500, 2500)
 * takes 1/2 + 4/9 = 17/18 of a step's FLOPs: 1.5e11 * 17/18 / 1e-3 s =
 * 141.666... TFLOP/s.  --recompute: 8PD = 8e11, 2e11 per rank: 188.888...
 */
Test(model, params_tokens_and_recompute)
{
	struct fix f;

	fix_open(&f, model_trace, 0);
	f.o.model_params = 1e8;
	f.o.tokens_per_step = 1000;
	f.o.world_size = 4;
	fix_compute(&f, 1500, 2500);
	cr_assert_str_eq(f.r.source, "model");
	assert_near(f.r.achieved_tflops, 1.5e11 * 17 / 18 / 1e-3 / 1e12);
	assert_near(f.r.value, 1.5e11 * 17 / 18 / 1e-3 / 1e12 / 989.4);

	f.o.recompute = 1;
	fix_compute(&f, 1500, 2500);
	assert_near(f.r.achieved_tflops, 2e11 * 17 / 18 / 1e-3 / 1e12);

	/* --flops-per-step wins over P and D */
	f.o.flops_per_step = 4e11;
	fix_compute(&f, 1500, 2500);
	assert_near(f.r.achieved_tflops, 1e11 * 17 / 18 / 1e-3 / 1e12);
	fix_close(&f);
}

/*
 * Hand-made steps: one of zero length (CPU span, no GPU extent) contributes
 * nothing, one whose GPU extent is empty falls back to nothing either.  Only
 * the [0, 1000) us step counts: 1e12 (F = 2e12, 2 ranks) in W = [0, 2000)
 * us, 2 ms: 500 TFLOP/s.
 */
Test(model, zero_length_steps)
{
	struct fix f;
	struct step s[3];

	fix_open(&f, model_trace, 0);
	memset(s, 0, sizeof s);
	s[0].start_ns = 0;
	s[0].end_ns = 1000 * US;
	s[1].start_ns = s[1].end_ns = 1500 * US;
	s[2].start_ns = 1600 * US;
	s[2].end_ns = 1900 * US;
	s[2].has_gpu = 1;
	s[2].gpu_start_ns = s[2].gpu_end_ns = 1700 * US;
	f.o.flops_per_step = 2e12;
	f.o.world_size = 2;
	mfu_compute_with(&f.d, &f.fl, s, 3, &f.o, 0, 2000 * US, &f.r);
	cr_assert(f.r.has_value);
	assert_near(f.r.achieved_tflops, 500);
	fix_close(&f);
}

/* ---- op FLOPs ------------------------------------------------------------- */

/*
 * aten::mm (External id 7, 1e12 FLOPs) launches gemm1 (1 ms) and gemm2
 * (3 ms) and a memcpy on device 0; aten::linear encloses it with the same
 * External id and 9e12 FLOPs (the innermost op wins); a record_function
 * shares it too, without FLOPs.  aten::addmm (External id 8, 2e12) launches
 * gemm3 on device 1.
 */
static const char op_trace[] =
    "{\"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H100 80GB HBM3\"},"
    "                        {\"id\": 1, \"name\": \"NVIDIA H100 PCIe\"}],\n"
    " \"traceEvents\": [\n"
    "  {\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"block\", \"pid\": 10, \"tid\": 11, \"ts\": 990, \"dur\": 400, \"args\": {\"External id\": 7}},\n"
    "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::linear\", \"pid\": 10, \"tid\": 11, \"ts\": 1000, \"dur\": 300, \"args\": {\"External id\": 7, \"flops\": 9e12}},\n"
    "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 10, \"tid\": 11, \"ts\": 1010, \"dur\": 100, \"args\": {\"External id\": 7, \"flops\": 1e12}},\n"
    "  {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 10, \"tid\": 11, \"ts\": 1020, \"dur\": 5, \"args\": {\"correlation\": 71, \"External id\": 7}},\n"
    "  {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 10, \"tid\": 11, \"ts\": 1040, \"dur\": 5, \"args\": {\"correlation\": 72, \"External id\": 7}},\n"
    "  {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaMemcpyAsync\", \"pid\": 10, \"tid\": 11, \"ts\": 1060, \"dur\": 5, \"args\": {\"correlation\": 73, \"External id\": 7}},\n"
    "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::addmm\", \"pid\": 10, \"tid\": 11, \"ts\": 1400, \"dur\": 50, \"args\": {\"External id\": 8, \"flops\": 2e12}},\n"
    "  {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 10, \"tid\": 11, \"ts\": 1410, \"dur\": 5, \"args\": {\"correlation\": 81, \"External id\": 8}},\n"
    "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm1\", \"pid\": 0, \"tid\": 7, \"ts\": 2000, \"dur\": 1000, \"args\": {\"correlation\": 71, \"External id\": 7, \"device\": 0}},\n"
    "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm2\", \"pid\": 0, \"tid\": 7, \"ts\": 3000, \"dur\": 3000, \"args\": {\"correlation\": 72, \"External id\": 7, \"device\": 0}},\n"
    "  {\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy DtoD\", \"pid\": 0, \"tid\": 7, \"ts\": 6000, \"dur\": 1000, \"args\": {\"correlation\": 73, \"External id\": 7, \"device\": 0}},\n"
    "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm3\", \"pid\": 1, \"tid\": 7, \"ts\": 2500, \"dur\": 1000, \"args\": {\"correlation\": 81, \"External id\": 8, \"device\": 1}}\n"
    " ]}\n";

/*
 * Asserts f->r holds MFU by op FLOPs: achieved TFLOP/s, the peak named
 * peak_from, and MFU their ratio.
 */
static void
expect_op_flops(const struct fix *f, double achieved, double peak, const char *peak_from)
{
	cr_assert_str_eq(f->r.source, "op_flops");
	assert_near(f->r.achieved_tflops, achieved);
	assert_near(f->r.peak_tflops, peak);
	cr_assert_str_eq(f->r.peak_from, peak_from);
	assert_near(f->r.value, achieved / peak);
}

/*
 * aten::mm's 1e12 FLOPs spread by duration: gemm1 gets 1/4 = 0.25e12,
 * gemm2 3/4 = 0.75e12 (the memcpy takes none).  W = [1500, 4500) us, 3 ms,
 * holds all of gemm1 and half of gemm2: 0.25e12 + 0.375e12 = 0.625e12
 * FLOPs, achieved 0.625e12 / 3e-3 s = 208.333... TFLOP/s, MFU = 208.333...
 * / 989.4 = 0.21056...  (Taking aten::linear's 9e12 would give 9x that; the
 * memcpy taking a share, 1/5 + 3/10 = 0.5e12: 166.7.)
 */
Test(op_flops, spread_over_kernels_and_cut_by_window)
{
	struct fix f;

	fix_open(&f, op_trace, 0);
	/* gemm1, gemm2, the memcpy; ops 7 and 8 */
	cr_assert_eq(f.d.nacts, 3);
	cr_assert_eq(f.fl.nops, 2);
	assert_near(f.fl.share[0], 0.25e12);
	assert_near(f.fl.share[1], 0.75e12);
	cr_assert_eq(f.fl.share[2], 0, "a memcpy takes no FLOPs");
	cr_assert_eq(f.fl.max_dur_ns, 3000 * US);
	fix_compute(&f, 1500, 4500);
	cr_assert_str_eq(f.r.source, "op_flops");
	cr_assert_str_eq(f.r.reason, "");
	cr_assert(f.r.has_achieved);
	assert_near(f.r.achieved_tflops, (0.25e12 + 0.375e12) / 3e-3 / 1e12);
	assert_near(f.r.achieved_tflops, 208.33333333333333);
	cr_assert(f.r.has_peak);
	assert_near(f.r.peak_tflops, 989.4);
	cr_assert(f.r.has_value);
	assert_near(f.r.value, 208.33333333333333 / 989.4);

	/* the same without a prebuilt mfu_flops */
	mfu_compute(&f.d, f.s, f.ns, &f.o, 1500 * US, 4500 * US, &f.r);
	cr_assert_str_eq(f.r.source, "op_flops");
	assert_near(f.r.achieved_tflops, 208.33333333333333);

	/* the window [4500, 6000) holds the other half of gemm2 only */
	fix_compute(&f, 4500, 6000);
	assert_near(f.r.achieved_tflops, 0.375e12 / 1.5e-3 / 1e12);

	/* a window with no kernel: op FLOPs apply, and are 0 */
	fix_compute(&f, 6000, 7000);
	cr_assert_str_eq(f.r.source, "op_flops");
	cr_assert(f.r.has_value);
	assert_near(f.r.achieved_tflops, 0);
	assert_near(f.r.value, 0);
	fix_close(&f);
}

/*
 * Device 1 ("NVIDIA H100 PCIe", peak 756) has gemm3 [2500, 3500) with all of
 * aten::addmm's 2e12; W = [3000, 5000) holds half: 1e12 / 2e-3 s = 500
 * TFLOP/s; device 0's aten::mm does not count here.
 */
Test(op_flops, per_device_and_its_name)
{
	struct fix f;

	fix_open(&f, op_trace, 1);
	fix_compute(&f, 3000, 5000);
	expect_op_flops(&f, 500, 756, "NVIDIA H100 PCIe");
	fix_close(&f);
}

/*
 * A kernel without an External id of its own takes its launch call's.  The
 * only deviceProperties entry has id 3, not 0: it is still the device's.
 * op 9, 4e11 FLOPs, one kernel [100, 300) us; W = [200, 1200): half of it,
 * 2e11 / 1e-3 s = 200 TFLOP/s on an MI300X (1307.4).
 */
static const char launch_ext_trace[] =
    "{\"deviceProperties\": [{\"id\": 3, \"name\": \"AMD Instinct MI300X\"}],\n"
    " \"traceEvents\": [\n"
    "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 10, \"tid\": 11, \"ts\": 10, \"dur\": 50, \"args\": {\"External id\": 9, \"flops\": 4e11}},\n"
    "  {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"hipLaunchKernel\", \"pid\": 10, \"tid\": 11, \"ts\": 20, \"dur\": 5, \"args\": {\"correlation\": 91, \"External id\": 9}},\n"
    "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"Cijk_gemm\", \"pid\": 0, \"tid\": 1, \"ts\": 100, \"dur\": 200, \"args\": {\"correlation\": 91, \"device\": 0}}\n"
    " ]}\n";

Test(op_flops, kernel_takes_its_launch_external_id)
{
	struct fix f;

	fix_open(&f, launch_ext_trace, 0);
	fix_compute(&f, 200, 1200);
	expect_op_flops(&f, 200, 1307.4, "AMD Instinct MI300X");
	fix_close(&f);
}

/*
 * op 10 (3e11) has two zero-length kernels, at 100 and 500 us: 1.5e11 each.
 * op 11 (2e11) has a zero-length kernel at 100 us (share 0: the op's kernels
 * last 200 us in all) and one [600, 800) us with all 2e11.
 *   W = [100, 500): the kernels at 100 (start in W, 1.5e11 + 0), not the one
 *                   at 500 (b is excluded): 1.5e11 / 4e-4 s = 375 TFLOP/s
 *   W = [0, 700):   3e11 + half of 2e11 = 4e11 / 7e-4 s = 571.428... TFLOP/s
 *   W = [200, 700): the kernel at 500 and half of k11b: 1.5e11 + 1e11 =
 *                   2.5e11 / 5e-4 s = 500 TFLOP/s (the ones at 100 are out)
 */
static const char zero_trace[] =
    "{\"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA B200\"}],\n"
    " \"traceEvents\": [\n"
    "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op10\", \"pid\": 10, \"tid\": 11, \"ts\": 1, \"dur\": 10, \"args\": {\"External id\": 10, \"flops\": 3e11}},\n"
    "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op11\", \"pid\": 10, \"tid\": 11, \"ts\": 20, \"dur\": 10, \"args\": {\"External id\": 11, \"flops\": 2e11}},\n"
    "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k10a\", \"pid\": 0, \"tid\": 7, \"ts\": 100, \"dur\": 0, \"args\": {\"External id\": 10, \"device\": 0}},\n"
    "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k10b\", \"pid\": 0, \"tid\": 7, \"ts\": 500, \"dur\": 0, \"args\": {\"External id\": 10, \"device\": 0}},\n"
    "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k11a\", \"pid\": 0, \"tid\": 8, \"ts\": 100, \"dur\": 0, \"args\": {\"External id\": 11, \"device\": 0}},\n"
    "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k11b\", \"pid\": 0, \"tid\": 8, \"ts\": 600, \"dur\": 200, \"args\": {\"External id\": 11, \"device\": 0}}\n"
    " ]}\n";

Test(op_flops, zero_length_kernels)
{
	struct fix f;

	fix_open(&f, zero_trace, 0);
	cr_assert_eq(f.d.nacts, 4);
	fix_compute(&f, 100, 500);
	assert_near(f.r.achieved_tflops, 375);
	assert_near(f.r.value, 375 / 2250.0);
	fix_compute(&f, 0, 700);
	assert_near(f.r.achieved_tflops, 4e11 / 7e-4 / 1e12);
	fix_compute(&f, 200, 700);
	assert_near(f.r.achieved_tflops, 500);
	fix_close(&f);
}

/*
 * Against a brute-force oracle: 30 ops with 1..4 kernels each on 3 streams of
 * device 0 (some of zero length, op 1's all of zero length) and memcpys
 * sharing their External ids; random windows.  The oracle spreads each op's
 * FLOPs over its kernels by duration and clips every kernel to the window.
 */
struct okernel {
	int op;
	int64_t ts, dur;        /* us */
};

static uint64_t rng = 88172645463325252ULL;

static unsigned
rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/* Appends printf-style text to buf (capacity cap) at *len. */
static void __attribute__((format(printf, 4, 5)))
emit(char *buf, size_t *len, size_t cap, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	*len += (size_t)vsnprintf(buf + *len, cap - *len, fmt, ap);
	va_end(ap);
	cr_assert_lt(*len, cap);
}

Test(op_flops, brute_force_oracle)
{
	enum { NOPS = 30, MAXK = 4 * NOPS };
	struct okernel k[MAXK];
	double flops[NOPS], tot[NOPS] = { 0 }, cnt[NOPS] = { 0 }, all = 0;
	size_t nk = 0, len = 0, cap = 1 << 16;
	char *text = malloc(cap);
	struct fix f;

#define EMIT(...) emit(text, &len, cap, __VA_ARGS__)
	EMIT("{\"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H100\"}],\n"
	    "\"traceEvents\": [\n");
	for (int j = 0; j < NOPS; j++) {
		int n = 1 + (int)rnd(4);

		flops[j] = (j + 1) * 1e10;
		EMIT("{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op%d\", \"pid\": 10, "
		    "\"tid\": 11, \"ts\": %d, \"dur\": 5, \"args\": {\"External id\": %d, "
		    "\"flops\": %.17g}},\n", j, j * 10, 100 + j, flops[j]);
		for (int i = 0; i < n; i++, nk++) {
			k[nk].op = j;
			k[nk].ts = rnd(10000);
			k[nk].dur = j == 1 || rnd(5) == 0 ? 0 : 1 + rnd(800);
			tot[j] += (double)k[nk].dur;
			cnt[j]++;
			EMIT("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k%zu\", \"pid\": 0, "
			    "\"tid\": %u, \"ts\": %" PRId64 ", \"dur\": %" PRId64 ", "
			    "\"args\": {\"External id\": %d, \"device\": 0}},\n",
			    nk, 7 + rnd(3), k[nk].ts, k[nk].dur, 100 + j);
		}
		EMIT("{\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy\", \"pid\": 0, "
		    "\"tid\": 9, \"ts\": %u, \"dur\": 300, \"args\": {\"External id\": %d, "
		    "\"device\": 0}},\n", rnd(10000), 100 + j);
	}
	len -= 2;               /* the last ",\n" */
	EMIT("\n]}\n");
#undef EMIT
	for (int j = 0; j < NOPS; j++)
		all += flops[j];
	fix_open(&f, text, 0);
	free(text);
	cr_assert_eq(f.fl.nops, NOPS);
	cr_assert_eq(f.d.nacts, nk + NOPS);

	for (int w = 0; w < 2000; w++) {
		int64_t a = (int64_t)rnd(11000) - 500, b = a + 1 + rnd(w % 2 ? 300 : 4000);
		double want = 0, got;

		for (size_t i = 0; i < nk; i++) {
			int j = k[i].op;
			double share = tot[j] > 0 ? flops[j] * (double)k[i].dur / tot[j]
			    : flops[j] / cnt[j];
			int64_t lo = k[i].ts > a ? k[i].ts : a;
			int64_t hi = k[i].ts + k[i].dur < b ? k[i].ts + k[i].dur : b;

			if (k[i].dur == 0)
				want += k[i].ts >= a && k[i].ts < b ? share : 0;
			else if (hi > lo)
				want += share * (double)(hi - lo) / (double)k[i].dur;
		}
		fix_compute(&f, a, b);
		cr_assert_str_eq(f.r.source, "op_flops");
		cr_assert(f.r.has_achieved);
		got = f.r.achieved_tflops * 1e12 * (double)(b - a) * 1e-6;
		cr_assert(fabs(got - want) <= 1e-9 * all,
		    "window [%" PRId64 ", %" PRId64 ") us: %.17g FLOPs, oracle %.17g",
		    a, b, got, want);
	}
	fix_close(&f);
}

/* ---- unknown values and their reasons ---------------------------------------- */

Test(reasons, world_size_unknown)
{
	struct fix f;

	fix_open(&f, model_trace, 0);
	f.o.flops_per_step = 8e11;
	fix_compute(&f, 1500, 2500);
	cr_assert_str_eq(f.r.source, "model");
	cr_assert_not(f.r.has_value);
	cr_assert_not(f.r.has_achieved);
	cr_assert(f.r.has_peak, "the peak is known all the same");
	cr_assert_str_eq(f.r.reason, "world size unknown: give --world-size");
	fix_close(&f);
}

Test(reasons, no_steps)
{
	struct fix f;

	fix_open(&f, op_trace, 0);
	cr_assert_eq(f.ns, 0);
	f.o.flops_per_step = 8e11;
	f.o.world_size = 8;
	fix_compute(&f, 1500, 2500);
	cr_assert_str_eq(f.r.source, "model", "model flags win over op FLOPs");
	cr_assert_not(f.r.has_value);
	cr_assert_not(f.r.has_achieved);
	cr_assert_str_eq(f.r.reason, "no ProfilerStep annotations: MFU by steps needs steps");
	fix_close(&f);
}

Test(reasons, params_without_tokens)
{
	struct fix f;

	fix_open(&f, model_trace, 0);
	f.o.model_params = 1e9;
	f.o.world_size = 4;
	fix_compute(&f, 1500, 2500);
	cr_assert_str_eq(f.r.source, "model");
	cr_assert_not(f.r.has_value);
	cr_assert_str_eq(f.r.reason, "--model-params and --tokens-per-step go together");
	fix_close(&f);
}

/* A device the table does not know: achieved is known, MFU is not. */
Test(reasons, peak_unknown_model)
{
	struct fix f;
	char text[sizeof model_trace + 64];

	/* model_trace with another deviceProperties line */
	snprintf(text, sizeof text, "%s%s",
	    "{\"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA GeForce RTX 4090\"}],\n",
	    strchr(model_trace, '\n') + 1);
	fix_open(&f, text, 0);
	f.o.flops_per_step = 8e11;
	f.o.world_size = 4;
	fix_compute(&f, 1000, 4000);
	cr_assert_str_eq(f.r.source, "model");
	cr_assert(f.r.has_achieved);
	assert_near(f.r.achieved_tflops, 200);
	cr_assert_not(f.r.has_peak);
	cr_assert_null(f.r.peak_from);
	cr_assert_not(f.r.has_value);
	cr_assert_str_eq(f.r.reason, "peak of 'NVIDIA GeForce RTX 4090' unknown: give --peak-tflops");

	/* --peak-tflops fills it in */
	f.o.peak_tflops = 400;
	fix_compute(&f, 1000, 4000);
	cr_assert(f.r.has_value);
	assert_near(f.r.value, 0.5);
	cr_assert_str_eq(f.r.reason, "");
	fix_close(&f);
}

/* No deviceProperties at all: the reason names the device by number. */
Test(reasons, peak_unknown_no_device_name)
{
	static const char text[] =
	    "{\"traceEvents\": [\n"
	    "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 10, \"tid\": 11, \"ts\": 10, \"dur\": 50, \"args\": {\"External id\": 9, \"flops\": 4e11}},\n"
	    "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm\", \"pid\": 2, \"tid\": 1, \"ts\": 100, \"dur\": 200, \"args\": {\"External id\": 9, \"device\": 2}}\n"
	    " ]}\n";
	struct fix f;

	fix_open(&f, text, 2);
	fix_compute(&f, 0, 1000);
	cr_assert_str_eq(f.r.source, "op_flops");
	cr_assert(f.r.has_achieved);
	assert_near(f.r.achieved_tflops, 400);
	cr_assert_not(f.r.has_peak);
	cr_assert_not(f.r.has_value);
	cr_assert_str_eq(f.r.reason,
	    "peak of device 2 unknown (no device name in the trace): give --peak-tflops");
	fix_close(&f);
}

/* Several deviceProperties, none with the device's id: no name. */
Test(reasons, peak_unknown_device_not_listed)
{
	static const char text[] =
	    "{\"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H100 80GB HBM3\"},"
	    "                        {\"id\": 1, \"name\": \"NVIDIA H100 80GB HBM3\"}],\n"
	    " \"traceEvents\": [\n"
	    "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 10, \"tid\": 11, \"ts\": 10, \"dur\": 50, \"args\": {\"External id\": 9, \"flops\": 4e11}},\n"
	    "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm\", \"pid\": 5, \"tid\": 1, \"ts\": 100, \"dur\": 200, \"args\": {\"External id\": 9, \"device\": 5}}\n"
	    " ]}\n";
	struct fix f;

	fix_open(&f, text, 5);
	fix_compute(&f, 0, 1000);
	cr_assert_not(f.r.has_peak);
	cr_assert_str_eq(f.r.reason,
	    "peak of device 5 unknown (no device name in the trace): give --peak-tflops");
	fix_close(&f);
}

/* No model flags and no op with flops: nothing applies. */
Test(reasons, no_flops)
{
	struct fix f;

	fix_open(&f, model_trace, 0);
	f.o.world_size = 4;
	fix_compute(&f, 1000, 4000);
	cr_assert_null(f.r.source);
	cr_assert_not(f.r.has_value);
	cr_assert_not(f.r.has_achieved);
	cr_assert(f.r.has_peak);
	assert_near(f.r.peak_tflops, 989.4);
	cr_assert_str_eq(f.r.reason,
	    "no FLOPs: give --flops-per-step or --model-params/--tokens-per-step, or profile with with_flops=True");
	fix_close(&f);
}

Test(reasons, empty_window)
{
	struct fix f;

	fix_open(&f, op_trace, 0);
	fix_compute(&f, 2000, 2000);
	cr_assert_str_eq(f.r.source, "op_flops");
	cr_assert_not(f.r.has_value);
	cr_assert_not(f.r.has_achieved);
	cr_assert_str_eq(f.r.reason, "empty window");
	fix_compute(&f, 3000, 2000);
	cr_assert_str_eq(f.r.reason, "empty window");
	fix_close(&f);

	fix_open(&f, model_trace, 0);
	f.o.flops_per_step = 8e11;
	f.o.world_size = 4;
	fix_compute(&f, 1500, 1500);
	cr_assert_str_eq(f.r.source, "model");
	cr_assert_not(f.r.has_value);
	cr_assert_str_eq(f.r.reason, "empty window");
	fix_close(&f);
}
