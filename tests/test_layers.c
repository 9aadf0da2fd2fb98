/* Layers: FSDP2, FSDP1, nn.Module and pattern layers and their costs. */
#include "config.h"

#include <criterion/criterion.h>
#include <json-c/json.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/layers.h"
#include "base/job.h"
#include "load/load.h"
#include "analysis/metrics.h"
#include "analysis/steps.h"
#include "model/trace.h"

#include "fsdp2.h"               /* the FSDP2 step, shared with test_view.c */

#define US 1000LL

/* Everything one test needs: the trace, device 0, its steps and layers. */
struct fix {
	struct trace t;
	struct metrics d;
	struct step *s;
	size_t ns;
	struct layer *l;
	size_t nl;
};

static void
fix_find(struct fix *f, const char *pattern)
{
	regex_t re;

	metrics_build(&f->d, &f->t, 0, METRICS_DEFAULT_MIN_GAP_NS);
	f->ns = steps_find(&f->d, &f->s);
	if (pattern) {
		cr_assert_eq(regcomp(&re, pattern, REG_EXTENDED), 0);
		f->nl = layers_find(&f->d, f->s, f->ns, &re, &f->l, NULL);
		regfree(&re);
	} else {
		f->nl = layers_find(&f->d, f->s, f->ns, NULL, &f->l, NULL);
	}
}

static void
fix_free(struct fix *f)
{
	free(f->s);
	free(f->l);
	metrics_free(&f->d);
	trace_free(&f->t);
}

/* Expected values of one layer; times in us, -1 for "no GPU extent". */
struct want {
	const char *name;
	enum layer_phase phase;
	long long step;
	long long cpu_start, cpu_end;
	long long gpu_start, gpu_end;
	long long compute, comm, exposed, own, own_exposed, estimate;
};

static void
check(const struct fix *f, size_t i, enum layer_source src, const struct want *w)
{
	const struct layer *l = &f->l[i];

	cr_assert_lt(i, f->nl);
	cr_assert_str_eq(trace_str(&f->t, l->name), w->name, "layer %zu", i);
	cr_assert_eq(l->phase, w->phase, "layer %zu (%s) phase", i, w->name);
	cr_assert_eq(l->source, src, "layer %zu (%s) source", i, w->name);
	cr_assert_eq(l->step, w->step, "layer %zu (%s) step", i, w->name);
	cr_assert_eq(l->cpu_start_ns, w->cpu_start * US, "layer %zu (%s) cpu start %lld",
	    i, w->name, (long long)l->cpu_start_ns);
	cr_assert_eq(l->cpu_end_ns, w->cpu_end * US, "layer %zu (%s) cpu end %lld",
	    i, w->name, (long long)l->cpu_end_ns);
	if (w->gpu_start < 0) {
		cr_assert_not(l->has_gpu, "layer %zu (%s) has a GPU extent", i, w->name);
		cr_assert_eq(l->gpu_start_ns, 0);
		cr_assert_eq(l->gpu_end_ns, 0);
	} else {
		cr_assert(l->has_gpu, "layer %zu (%s) has no GPU extent", i, w->name);
		cr_assert_eq(l->gpu_start_ns, w->gpu_start * US, "layer %zu (%s) gpu start %lld",
		    i, w->name, (long long)l->gpu_start_ns);
		cr_assert_eq(l->gpu_end_ns, w->gpu_end * US, "layer %zu (%s) gpu end %lld",
		    i, w->name, (long long)l->gpu_end_ns);
	}
	cr_assert_eq(l->compute_ns, w->compute * US, "layer %zu (%s) compute %lld",
	    i, w->name, (long long)l->compute_ns);
	cr_assert_eq(l->comm_ns, w->comm * US, "layer %zu (%s) comm %lld",
	    i, w->name, (long long)l->comm_ns);
	cr_assert_eq(l->exposed_comm_ns, w->exposed * US, "layer %zu (%s) exposed %lld",
	    i, w->name, (long long)l->exposed_comm_ns);
	cr_assert_eq(l->own_comm_ns, w->own * US, "layer %zu (%s) own %lld",
	    i, w->name, (long long)l->own_comm_ns);
	cr_assert_eq(l->own_exposed_comm_ns, w->own_exposed * US,
	    "layer %zu (%s) own exposed %lld", i, w->name,
	    (long long)l->own_exposed_comm_ns);
	cr_assert_eq(l->estimate_exposed_ns, w->estimate * US,
	    "layer %zu (%s) estimate %lld", i, w->name,
	    (long long)l->estimate_exposed_ns);
}

/* Asserts that f found exactly n layers, w[0..n) in order, all from src. */
static void
check_all(const struct fix *f, enum layer_source src, const struct want *w, size_t n)
{
	cr_assert_eq(f->nl, n, "got %zu layers", f->nl);
	for (size_t i = 0; i < n; i++)
		check(f, i, src, &w[i]);
}

Test(layers, fsdp2_hand_computed)
{
	/*
	 * (root) forward [2,160): launches 14..92 -> GPU [20,150); compute
	 *   [50,150) = 100; comm [20,50) + [55,85) = 60; exposed [20,50) = 30;
	 *   estimate max(0, 60 - 100) = 0; no collective under a root hook.
	 * layers.0 forward [10,75): launches 14, 24, 38, 62 -> GPU [20,100);
	 *   compute [50,100) = 50; comm 30 + 30 = 60; exposed [20,50) = 30
	 *   (AG1 hides under F0); estimate 60 - 50 = 10.  Own: AG0 only (AG1
	 *   sits in all_gather (layers.1)): 30, exposed 30.
	 * layers.1 forward [80,100): launches 83, 92 -> GPU [100,150);
	 *   compute 50, no comm.  Own: the prefetched AG1 [55,85), hidden
	 *   under F0: own 30, own exposed 0.
	 * layers.1 backward [200,250) (to the end of post_backward_reduce):
	 *   launches 204, 214, 222, 240 -> GPU [230,340); compute B1 40 + B0
	 *   20 = 60; comm [230,290) + [300,340) = 100; exposed [230,260) +
	 *   [300,310) + [330,340) = 50; estimate 40.  Own: AG1b + RS1 = 30 +
	 *   40 = 70, exposed 30 + 20 = 50 (AG0b, prefetched here, is layers.0's).
	 * layers.0 backward [260,295): launches 272, 290 -> GPU [310,380);
	 *   compute 20; comm [310,380) = 70 (RS1's tail shows up here too);
	 *   exposed 50; estimate 50.  Own: AG0b [260,290) (hidden under B1)
	 *   + RS0 [340,380) = 70, exposed 0 + 40 = 40.
	 */
	static const struct want w[] = {
		{ "(root)", LAYER_FORWARD, 1, 2, 160, 20, 150, 100, 60, 30, 0, 0, 0 },
		{ "layers.0", LAYER_FORWARD, 1, 10, 75, 20, 100, 50, 60, 30, 30, 30, 10 },
		{ "layers.1", LAYER_FORWARD, 1, 80, 100, 100, 150, 50, 0, 0, 30, 0, 0 },
		{ "layers.1", LAYER_BACKWARD, 1, 200, 250, 230, 340, 60, 100, 50, 70, 50, 40 },
		{ "layers.0", LAYER_BACKWARD, 1, 260, 295, 310, 380, 20, 70, 50, 70, 40, 50 },
	};
	struct fix f;

	fsdp2_trace(&f.t, FSDP2_MODULE_SPAN);
	fix_find(&f, NULL);
	cr_assert_eq(f.ns, 1);
	check_all(&f, LAYER_FSDP2, w, 5);
	/* The interned names are shared: one id per fqn. */
	cr_assert_eq(f.l[1].name, f.l[4].name);
	cr_assert_eq(f.l[2].name, f.l[3].name);
	fix_free(&f);
}

/*
 * Occurrences, unpaired and cross-step hooks, on the main thread:
 *   step 1 [0,100)
 *     layers.0 pre_forward [10,20) > all_gather [11,15): 12 -> AG [30,40);
 *       post_forward [20,25)
 *     layers.5 pre_forward [30,33), never closed
 *     layers.7 pre_backward [40,42), post_backward_reshard [43,44),
 *       pre_backward [45,46), post_backward_reduce [47,49): two backwards
 *     layers.0 pre_backward [50,55), post_backward_reduce [60,70):
 *       65 -> RS [80,90)
 *     layers.6 pre_forward [90,95), whose post_forward is in step 2
 *   step 2 [100,200)
 *     layers.6 post_forward [102,104): pairs with nothing
 *     layers.0 again, 100 later: AG [130,140), RS [180,190)
 * No compute anywhere: every collective is exposed.
 */
Test(layers, fsdp2_occurrences_and_unpaired_hooks)
{
	static const struct want w[] = {
		{ "layers.0", LAYER_FORWARD, 1, 10, 25, 30, 40, 0, 10, 10, 10, 10, 10 },
		{ "layers.5", LAYER_FORWARD, 1, 30, 33, -1, -1, 0, 0, 0, 0, 0, 0 },
		{ "layers.7", LAYER_BACKWARD, 1, 40, 44, -1, -1, 0, 0, 0, 0, 0, 0 },
		{ "layers.7", LAYER_BACKWARD, 1, 45, 49, -1, -1, 0, 0, 0, 0, 0, 0 },
		{ "layers.0", LAYER_BACKWARD, 1, 50, 70, 80, 90, 0, 10, 10, 10, 10, 10 },
		{ "layers.6", LAYER_FORWARD, 1, 90, 95, -1, -1, 0, 0, 0, 0, 0, 0 },
		{ "layers.0", LAYER_FORWARD, 2, 110, 125, 130, 140, 0, 10, 10, 10, 10, 10 },
		{ "layers.0", LAYER_BACKWARD, 2, 150, 170, 180, 190, 0, 10, 10, 10, 10, 10 },
	};
	struct fix f;

	next_corr = 1;
	j_begin();
	step(1, 0, 100);
	step(2, 100, 200);
	for (int k = 0; k < 2; k++) {
		long long o = 100 * k;

		ann("FSDP::pre_forward (layers.0)", 1, o + 10, o + 20);
		ann("FSDP::all_gather (layers.0)", 1, o + 11, o + 15);
		kernel(1, o + 12, "ncclDevKernel_AllGather", o + 30, o + 40);
		ann("FSDP::post_forward (layers.0)", 1, o + 20, o + 25);
		ann("FSDP::pre_backward (layers.0)", 1, o + 50, o + 55);
		ann("FSDP::post_backward_reduce (layers.0)", 1, o + 60, o + 70);
		kernel(1, o + 65, "ncclDevKernel_ReduceScatter", o + 80, o + 90);
	}
	ann("FSDP::pre_forward (layers.5)", 1, 30, 33);
	ann("FSDP::pre_backward (layers.7)", 1, 40, 42);
	ann("FSDP::post_backward_reshard (layers.7)", 1, 43, 44);
	ann("FSDP::pre_backward (layers.7)", 1, 45, 46);
	ann("FSDP::post_backward_reduce (layers.7)", 1, 47, 49);
	ann("FSDP::pre_forward (layers.6)", 1, 90, 95);
	ann("FSDP::post_forward (layers.6)", 1, 102, 104);
	j_load(&f.t);
	fix_find(&f, NULL);
	cr_assert_eq(f.ns, 2);
	check_all(&f, LAYER_FSDP2, w, 8);
	fix_free(&f);
}

/*
 * FSDP1: no module names.  Forward: FullyShardedDataParallel.forward spans,
 * the root [10,200) holding units [20,80) and [90,150).  Backward on the
 * autograd thread: pre hooks at [300,305) (root) and [310,315), post
 * [350,360), pre [370,375), post [400,410), post [420,430) (root): each post
 * closes the latest open pre.  Numbered per step: forwards by start,
 * backwards by end, latest first, so each unit's backward gets its
 * forward's number.
 *   launch 30 -> gemm [40,70)
 *   launch 355 (in the post hook at [350,360)) -> RS nccl [380,420)
 *   launch 372 -> gemm_bwd [400,410)
 * Step 2 holds one more forward [1010,1050): unit 0 again.
 */
Test(layers, fsdp1)
{
	/*
	 * Backward root [300,430): launches 355, 372 -> GPU [380,420);
	 * compute [400,410) = 10; comm 40; exposed 30; estimate 30; nothing
	 * of its own: the RS launched at 355 is unit 2's, the innermost
	 * layer around its launch.  Unit 2's backward [310,360): the same
	 * extent and sums, and the RS its own, 40, exposed 30.  Unit 1's backward [370,410): GPU [400,410),
	 * compute 10, comm 10 (RS's middle), exposed 0, nothing of its own.
	 */
	static const struct want w[] = {
		{ "FSDP unit 0", LAYER_FORWARD, 1, 10, 200, 40, 70, 30, 0, 0, 0, 0, 0 },
		{ "FSDP unit 1", LAYER_FORWARD, 1, 20, 80, 40, 70, 30, 0, 0, 0, 0, 0 },
		{ "FSDP unit 2", LAYER_FORWARD, 1, 90, 150, -1, -1, 0, 0, 0, 0, 0, 0 },
		{ "FSDP unit 0", LAYER_BACKWARD, 1, 300, 430, 380, 420, 10, 40, 30, 0, 0, 30 },
		{ "FSDP unit 2", LAYER_BACKWARD, 1, 310, 360, 380, 420, 10, 40, 30, 40, 30, 30 },
		{ "FSDP unit 1", LAYER_BACKWARD, 1, 370, 410, 400, 410, 10, 10, 0, 0, 0, 0 },
		{ "FSDP unit 0", LAYER_FORWARD, 2, 1010, 1050, -1, -1, 0, 0, 0, 0, 0, 0 },
	};
	struct fix f;

	next_corr = 1;
	j_begin();
	step(1, 0, 1000);
	step(2, 1000, 2000);
	cpu("python_function", "nn.Module: Model_0", 1, 9, 192);
	ann("FullyShardedDataParallel.forward", 1, 10, 200);
	ann("FullyShardedDataParallel._root_pre_forward", 1, 11, 15);
	ann("FullyShardedDataParallel.forward", 1, 20, 80);
	ann("FullyShardedDataParallel._pre_forward", 1, 21, 25);
	kernel(1, 30, "gemm", 40, 70);
	ann("FullyShardedDataParallel.forward", 1, 90, 150);
	ann("FullyShardedDataParallel._pre_backward_hook", 2, 300, 305);
	ann("FullyShardedDataParallel._pre_backward_hook", 2, 310, 315);
	ann("FullyShardedDataParallel._post_backward_hook", 2, 350, 360);
	kernel(2, 355, "ncclDevKernel_ReduceScatter", 380, 420);
	ann("FullyShardedDataParallel._pre_backward_hook", 2, 370, 375);
	kernel(2, 372, "gemm_bwd", 400, 410);
	ann("FullyShardedDataParallel._post_backward_hook", 2, 400, 410);
	ann("FullyShardedDataParallel._post_backward_hook", 2, 420, 430);
	ann("FullyShardedDataParallel.forward", 1, 1010, 1050);
	j_load(&f.t);
	fix_find(&f, NULL);
	check_all(&f, LAYER_FSDP1, w, 7);
	fix_free(&f);
}

/*
 * nn.Module python_function events, no steps and no FSDP hooks (FSDP:: names
 * without a unit, and a cpu_op and a GPU annotation that look like modules,
 * do not count):
 *   Transformer_0 [10,200) > Linear_0 [20,50), Linear_1 [60,90)
 *   launch 25 -> gemm [30,40); 65 -> AR nccl [70,90); 66 -> gemm [80,100)
 */
Test(layers, modules)
{
	/*
	 * Transformer_0: GPU [30,100); compute [30,40) + [80,100) = 30; comm
	 * 20; exposed [70,80) = 10; estimate max(0, 20 - 30) = 0; nothing of
	 * its own: the AR is Linear_1's, the innermost layer around its
	 * launch.  Linear_0: GPU [30,40), compute 10.  Linear_1: GPU
	 * [70,100), compute 20, comm 20, exposed 10, own 20 / 10.
	 */
	static const struct want w[] = {
		{ "Transformer_0", LAYER_FORWARD, -1, 10, 200, 30, 100, 30, 20, 10, 0, 0, 0 },
		{ "Linear_0", LAYER_FORWARD, -1, 20, 50, 30, 40, 10, 0, 0, 0, 0, 0 },
		{ "Linear_1", LAYER_FORWARD, -1, 60, 90, 70, 100, 20, 20, 10, 20, 10, 0 },
	};
	struct fix f;

	next_corr = 1;
	j_begin();
	ann("FSDP::root_pre_forward", 1, 1, 4);
	ann("FSDP::backward_prefetch for layers.0", 1, 5, 6);
	cpu("python_function", "nn.Module: Transformer_0", 1, 10, 190);
	cpu("python_function", "nn.Module: Linear_0", 1, 20, 30);
	kernel(1, 25, "gemm", 30, 40);
	cpu("python_function", "nn.Module: Linear_1", 1, 60, 30);
	kernel(1, 65, "ncclDevKernel_AllReduce", 70, 90);
	kernel(1, 66, "gemm", 80, 100);
	cpu("cpu_op", "nn.Module: Fake_0", 1, 100, 10);
	cpu("python_function", "forward", 1, 120, 10);
	j_sep();
	fputs("{\"ph\": \"X\", \"cat\": \"gpu_user_annotation\", \"name\": \"nn.Module: Gpu_0\","
	    " \"pid\": 0, \"tid\": 7, \"ts\": 30, \"dur\": 10}", jf);
	j_load(&f.t);
	fix_find(&f, NULL);
	cr_assert_eq(f.ns, 0);
	check_all(&f, LAYER_MODULE, w, 3);
	fix_free(&f);
}

/* An autograd op (cpu_op) with its Sequence number and Fwd thread id. */
static void
autograd_op(const char *name, int tid, long long ts, long long dur, int seq,
    int fwd_tid)
{
	j_sep();
	fprintf(jf, "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"%s\", \"pid\": 100,"
	    " \"tid\": %d, \"ts\": %lld, \"dur\": %lld, \"args\": {\"External id\": %d,"
	    " \"Sequence number\": %d, \"Fwd thread id\": %d}}", name, tid, ts, dur,
	    1000 + seq * 2 + (fwd_tid > 0), seq, fwd_tid);
}

/*
 * Modules get backward layers from the autograd ops: a backward op (Fwd
 * thread id 1) belongs to the module around the forward op of its sequence
 * number on the thread that shares most of them (tid 1, not the decoy tid
 * 3); a module's backward runs to the next backward op of its thread (the
 * last to the end of that thread's work in the step), so the all-reduce
 * DDP launches right after a module's gradient is its own.
 *   Linear_1 bwd [300, 360): gemm [400,420) + AR [420,470): compute 20,
 *     comm 50, all exposed, own 50 / 50, estimate 30.
 *   Linear_0 bwd [360, 410): gemm [470,480) + AR [480,530): compute 10,
 *     comm 50, own 50 / 50, estimate 40.
 *   Net_0 bwd [300, 410): GPU [400,530), compute 30, comm 100, estimate
 *     70, nothing of its own: each all-reduce is owned by the innermost
 *     layer around its launch, the Linear's (own exposed partitions the
 *     exposed time).
 */
Test(layers, modules_backward)
{
	static const struct want w[] = {
		{ "Net_0", LAYER_FORWARD, 1, 10, 200, 100, 130, 30, 0, 0, 0, 0, 0 },
		{ "Linear_0", LAYER_FORWARD, 1, 20, 60, 100, 110, 10, 0, 0, 0, 0, 0 },
		{ "Linear_1", LAYER_FORWARD, 1, 70, 120, 110, 130, 20, 0, 0, 0, 0, 0 },
		{ "Net_0", LAYER_BACKWARD, 1, 300, 410, 400, 530, 30, 100, 100, 0, 0, 70 },
		{ "Linear_1", LAYER_BACKWARD, 1, 300, 360, 400, 470, 20, 50, 50, 50, 50, 30 },
		{ "Linear_0", LAYER_BACKWARD, 1, 360, 410, 470, 530, 10, 50, 50, 50, 50, 40 },
	};
	struct fix f;

	next_corr = 1;
	j_begin();
	step(1, 0, 1000);
	cpu("python_function", "nn.Module: Net_0", 1, 10, 190);
	cpu("python_function", "nn.Module: Linear_0", 1, 20, 40);
	autograd_op("aten::linear", 1, 25, 10, 5, 0);
	kernel(1, 26, "gemm", 100, 110);
	cpu("python_function", "nn.Module: Linear_1", 1, 70, 50);
	autograd_op("aten::linear", 1, 75, 10, 6, 0);
	kernel(1, 76, "gemm", 110, 130);
	autograd_op("aten::decoy", 3, 30, 5, 5, 0);
	autograd_op("autograd::engine::evaluate_function: AddmmBackward0", 2, 300, 40, 6, 1);
	kernel(2, 305, "gemm", 400, 420);
	cpu("cpu_op", "record_param_comms", 2, 345, 5);
	kernel(2, 346, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", 420, 470);
	autograd_op("autograd::engine::evaluate_function: AddmmBackward0", 2, 360, 40, 5, 1);
	kernel(2, 365, "gemm", 470, 480);
	cpu("cpu_op", "record_param_comms", 2, 405, 5);
	kernel(2, 406, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", 480, 530);
	j_load(&f.t);
	fix_find(&f, NULL);
	check_all(&f, LAYER_MODULE, w, 6);
	fix_free(&f);
}

/* The pattern replaces the built-in sources; its group names the layer. */
Test(layers, pattern_with_group)
{
	/*
	 * The four all-gather annotations of fsdp2_trace ("all_gather_copy_out"
	 * does not match); each owns what it launched: AG0 [20,50) exposed 30,
	 * AG1 [55,85) under F0, AG1b [230,260) exposed 30, AG0b [260,290)
	 * under B1.  Their GPU extents are those collectives.
	 */
	static const struct want w[] = {
		{ "layers.0", LAYER_SPAN, 1, 12, 20, 20, 50, 0, 30, 30, 30, 30, 30 },
		{ "layers.1", LAYER_SPAN, 1, 35, 45, 55, 85, 30, 30, 0, 30, 0, 0 },
		{ "layers.1", LAYER_SPAN, 1, 202, 210, 230, 260, 0, 30, 30, 30, 30, 30 },
		{ "layers.0", LAYER_SPAN, 1, 212, 218, 260, 290, 30, 30, 0, 30, 0, 0 },
	};
	struct fix f;

	fsdp2_trace(&f.t, FSDP2_MODULE_SPAN);
	fix_find(&f, "^FSDP::all_gather \\((.*)\\)$");
	check_all(&f, LAYER_PATTERN, w, 4);
	fix_free(&f);
}

Test(layers, pattern_names)
{
	struct fix f;

	/* An empty group names the layer by the whole event name. */
	fsdp2_trace(&f.t, FSDP2_MODULE_SPAN);
	fix_find(&f, "^FSDP::pre_forward \\((.*)\\)$");
	cr_assert_eq(f.nl, 3, "got %zu layers", f.nl);
	cr_assert_str_eq(trace_str(&f.t, f.l[0].name), "FSDP::pre_forward ()");
	cr_assert_str_eq(trace_str(&f.t, f.l[1].name), "layers.0");
	cr_assert_str_eq(trace_str(&f.t, f.l[2].name), "layers.1");
	free(f.l);

	/*
	 * No group: the whole name.  CPU events of any category match, GPU
	 * events (the gemm_* kernels) never do.
	 */
	f.nl = layers_find(&f.d, f.s, f.ns, NULL, &f.l, NULL);
	cr_assert_eq(f.nl, 5);
	free(f.l);
	{
		regex_t re;

		cr_assert_eq(regcomp(&re, "nn\\.Module|gemm", REG_EXTENDED), 0);
		f.nl = layers_find(&f.d, f.s, f.ns, &re, &f.l, NULL);
		regfree(&re);
	}
	cr_assert_eq(f.nl, 1, "got %zu layers", f.nl);
	cr_assert_str_eq(trace_str(&f.t, f.l[0].name), "nn.Module: Block_0");
	cr_assert_eq(f.l[0].phase, LAYER_SPAN);
	cr_assert_eq(f.l[0].cpu_start_ns, 9 * US);
	cr_assert_eq(f.l[0].cpu_end_ns, 76 * US);
	cr_assert_eq(f.l[0].gpu_start_ns, 20 * US);     /* launches 14 .. 62 */
	cr_assert_eq(f.l[0].gpu_end_ns, 100 * US);
	free(f.l);
	f.l = NULL;

	/* Nothing matches: no layers, *out NULL. */
	{
		regex_t re;

		cr_assert_eq(regcomp(&re, "^no such name$", REG_EXTENDED), 0);
		f.nl = layers_find(&f.d, f.s, f.ns, &re, &f.l, NULL);
		regfree(&re);
	}
	cr_assert_eq(f.nl, 0);
	cr_assert_null(f.l);
	fix_free(&f);
}

/* The caller's job given as before: joined by layers_find(), on every path. */
static void *
slow_mark(void *arg)
{
	usleep(50000);
	*(int *)arg = 1;
	return NULL;
}

Test(layers, before_is_joined)
{
	struct fix f;
	struct metrics none;
	struct layer *l;
	struct job j;
	int done = 0;
	regex_t re;

	fsdp2_trace(&f.t, FSDP2_MODULE_SPAN);
	metrics_build(&f.d, &f.t, 0, METRICS_DEFAULT_MIN_GAP_NS);
	f.ns = steps_find(&f.d, &f.s);
	job_start(&j, slow_mark, &done);
	f.nl = layers_find(&f.d, f.s, f.ns, NULL, &f.l, &j);
	cr_assert_gt(f.nl, 0);
	cr_assert_eq(done, 1, "layers found, the job not joined");
	/* no layers */
	done = 0;
	cr_assert_eq(regcomp(&re, "^no such name$", REG_EXTENDED), 0);
	job_start(&j, slow_mark, &done);
	cr_assert_eq(layers_find(&f.d, f.s, f.ns, &re, &l, &j), 0);
	regfree(&re);
	cr_assert_eq(done, 1, "no layers, the job not joined");
	/* no trace */
	done = 0;
	memset(&none, 0, sizeof none);
	job_start(&j, slow_mark, &done);
	cr_assert_eq(layers_find(&none, NULL, 0, NULL, &l, &j), 0);
	cr_assert_eq(done, 1, "no trace, the job not joined");
	fix_free(&f);
}

/* ------------------------------------------------------------------ */
/* The generator's ground truth. */

static json_object *
jget(json_object *o, const char *key)
{
	json_object *v = NULL;

	cr_assert(json_object_object_get_ex(o, key, &v), "manifest has no %s", key);
	return v;
}

Test(layers, generator_exposed_allgather)
{
	const char *gen = getenv("GEN_TRACE");
	char dir[] = "/tmp/gantty-gen-XXXXXX", cmd[1024], path[512], mpath[512];
	struct load_error err;
	json_object *m, *ex, *r0, *msteps;
	const char *ex_layer;
	int64_t ex_step, ex_ns, slow;
	int32_t *devs;
	struct fix f;
	size_t nfwd = 0, best = SIZE_MAX;

	if (gen == NULL || *gen == '\0')
		cr_skip_test("GEN_TRACE is not set");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(mpath, sizeof mpath, "%s/manifest.json", dir);
	snprintf(cmd, sizeof cmd, "'%s' --ranks=2 --seed=1 --out='%s' --manifest='%s'",
	    gen, dir, mpath);
	cr_assert_eq(system(cmd), 0, "%s failed", cmd);

	m = json_object_from_file(mpath);
	cr_assert_not_null(m);
	ex = jget(m, "exposed_allgather");
	ex_step = json_object_get_int64(jget(ex, "step"));
	ex_layer = json_object_get_string(jget(ex, "layer"));
	ex_ns = json_object_get_int64(jget(ex, "exposed_ns"));
	cr_assert_str_eq(json_object_get_string(jget(ex, "phase")), "forward");
	cr_assert_eq(ex_step, 12, "the default seed injects it in step 12");
	cr_assert_str_eq(ex_layer, "layers.2");
	slow = json_object_get_int64(jget(jget(m, "slow_step"), "number"));
	cr_assert_eq(slow, 15);
	r0 = json_object_array_get_idx(jget(m, "per_rank"), 0);
	msteps = jget(r0, "steps");

	snprintf(path, sizeof path, "%s/rank-0.json", dir);
	cr_assert_eq(load_trace(&f.t, path, NULL, &err), 0, "%s", err.msg);
	cr_assert_geq(metrics_devices(&f.t, &devs), 1);
	cr_assert_eq(devs[0], json_object_get_int(jget(r0, "device")));
	free(devs);
	fix_find(&f, NULL);

	/* Steps: the manifest's spans, exactly; only the slow step is an outlier. */
	cr_assert_eq(f.ns, 8);
	cr_assert_eq(json_object_array_length(msteps), 8);
	for (size_t i = 0; i < f.ns; i++) {
		json_object *ms = json_object_array_get_idx(msteps, i);

		cr_assert_eq(f.s[i].number, 10 + (int64_t)i);
		cr_assert_eq(f.s[i].number, json_object_get_int64(jget(ms, "number")));
		cr_assert_eq(f.s[i].start_ns, json_object_get_int64(jget(ms, "cpu_start_ns")));
		cr_assert_eq(f.s[i].end_ns, json_object_get_int64(jget(ms, "cpu_end_ns")));
		cr_assert(f.s[i].has_gpu);
		cr_assert_eq(f.s[i].gpu_start_ns, json_object_get_int64(jget(ms, "gpu_start_ns")),
		    "step %lld gpu start", (long long)f.s[i].number);
		cr_assert_eq(f.s[i].gpu_end_ns, json_object_get_int64(jget(ms, "gpu_end_ns")),
		    "step %lld gpu end", (long long)f.s[i].number);
		cr_assert_eq(f.s[i].outlier, f.s[i].number == slow,
		    "step %lld z %.3f", (long long)f.s[i].number, f.s[i].z);
	}

	/* Layers: 4 units x forward and backward x 8 steps. */
	cr_assert_eq(f.nl, 64, "got %zu layers", f.nl);
	for (size_t i = 0; i < f.nl; i++) {
		const struct layer *l = &f.l[i];

		cr_assert_eq(l->source, LAYER_FSDP2);
		cr_assert(l->has_gpu);
		cr_assert_geq(l->own_comm_ns, l->own_exposed_comm_ns);
		cr_assert_geq(l->comm_ns, l->exposed_comm_ns);
		if (l->step != ex_step || l->phase != LAYER_FORWARD)
			continue;
		nfwd++;
		if (best == SIZE_MAX ||
		    l->own_exposed_comm_ns > f.l[best].own_exposed_comm_ns)
			best = i;
	}
	cr_assert_eq(nfwd, 4);
	cr_assert_str_eq(trace_str(&f.t, f.l[best].name), ex_layer);
	/* Its own exposed time is the generator's measurement, to the ns. */
	cr_assert_eq(f.l[best].own_exposed_comm_ns, ex_ns, "own exposed %lld, manifest %lld",
	    (long long)f.l[best].own_exposed_comm_ns, (long long)ex_ns);

	fix_free(&f);
	json_object_put(m);
	unlink(path);
	snprintf(path, sizeof path, "%s/rank-1.json", dir);
	unlink(path);
	unlink(mpath);
	rmdir(dir);
}

/*
 * layers_cmp_worst() against a brute-force oracle: over random layers with
 * many ties, the worst of each set found by a scan (most own exposed comm,
 * then earliest start, GPU start where it has one, then lowest index) is
 * what qsort with layers_qsort_worst() puts first, and the order is total.
 */
Test(layers, worst_ranking_is_one_total_order)
{
	enum { N = 40 };
	struct layer ly[N];
	const struct layer *p[N];

	srand(7);
	for (int round = 0; round < 200; round++) {
		memset(ly, 0, sizeof ly);
		for (int i = 0; i < N; i++) {
			ly[i].own_exposed_comm_ns = rand() % 4;
			ly[i].has_gpu = rand() % 3 != 0;
			ly[i].cpu_start_ns = rand() % 5;
			ly[i].gpu_start_ns = ly[i].has_gpu ? rand() % 5 : 0;
			p[i] = &ly[i];
		}
		int best = 0;
		for (int i = 1; i < N; i++) {
			int64_t si = ly[i].has_gpu ? ly[i].gpu_start_ns : ly[i].cpu_start_ns;
			int64_t sb = ly[best].has_gpu ? ly[best].gpu_start_ns : ly[best].cpu_start_ns;
			if (ly[i].own_exposed_comm_ns > ly[best].own_exposed_comm_ns ||
			    (ly[i].own_exposed_comm_ns == ly[best].own_exposed_comm_ns && si < sb))
				best = i;
		}
		qsort(p, N, sizeof *p, layers_qsort_worst);
		cr_assert_eq(p[0], &ly[best], "round %d: qsort's first is layer %d, the scan's %d",
		    round, (int)(p[0] - ly), best);
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++) {
				int a = layers_cmp_worst(&ly[i], &ly[j]);
				int b = layers_cmp_worst(&ly[j], &ly[i]);
				cr_assert((a < 0) == (b > 0) && (a == 0) == (i == j));
			}
		for (int i = 1; i < N; i++)
			cr_assert_lt(layers_cmp_worst(p[i - 1], p[i]), 0);
	}
}
