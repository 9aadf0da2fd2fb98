/*
 * Diff: a trace against itself is all zeros; an exposed all-gather against
 * one hidden by prefetching shows the saving in that layer.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/align.h"
#include "analysis/analysis.h"
#include "analysis/compare.h"
#include "load/load.h"
#include "model/trace.h"

#include "jtrace.h"

#define US 1000LL

/*
 * Two FSDP2 forward units in one step.  layers.0 gathers AG0 [20,50), then
 * computes F0 [50,100).  layers.1's all-gather AG1 is launched in its own
 * pre_forward and runs exposed at [100,130) before F1 [130,180) (prefetch
 * 0), or is prefetched from inside layers.0 and runs [60,90) under F0, F1
 * following at [100,150) (prefetch 1).
 */
static void
fsdp(struct trace *t, int prefetch)
{
	next_corr = 1;
	j_begin();
	step(1, 0, 1000);
	ann("FSDP::pre_forward (layers.0)", 1, 10, 40);
	ann("FSDP::all_gather (layers.0)", 1, 12, 20);
	kernel(1, 14, "ncclDevKernel_AllGather_RING_LL", 20, 50);
	if (prefetch) {
		ann("FSDP::all_gather (layers.1)", 1, 30, 38);
		kernel(1, 32, "ncclDevKernel_AllGather_RING_LL", 60, 90);
	}
	kernel(1, 42, "gemm_fwd", 50, 100);
	ann("FSDP::post_forward (layers.0)", 1, 45, 48);
	ann("FSDP::pre_forward (layers.1)", 1, 50, 80);
	if (!prefetch) {
		ann("FSDP::all_gather (layers.1)", 1, 52, 60);
		kernel(1, 54, "ncclDevKernel_AllGather_RING_LL", 100, 130);
		kernel(1, 70, "gemm_fwd", 130, 180);
	} else {
		kernel(1, 70, "gemm_fwd", 100, 150);
	}
	ann("FSDP::post_forward (layers.1)", 1, 85, 90);
	j_load(t);
}


static void
zero(const struct compare_metrics *a, const struct compare_metrics *b, const char *what)
{
	struct compare_metrics d = compare_delta(a, b);

	cr_assert_eq(d.time_ns, 0, "%s time", what);
	cr_assert_eq(d.compute_ns, 0, "%s compute", what);
	cr_assert_eq(d.comm_ns, 0, "%s comm", what);
	cr_assert_eq(d.exposed_comm_ns, 0, "%s exposed", what);
	cr_assert_eq(d.idle_ns, 0, "%s idle", what);
	cr_assert_eq(d.own_exposed_comm_ns, 0, "%s own exposed", what);
}

static void
check_self(const struct analysis *a, const struct analysis *b)
{
	struct compare d;

	compare_build(&d, a, b, COMPARE_BY_NUMBER);
	zero(&d.wa, &d.wb, "window");
	cr_assert_gt(d.wa.time_ns, 0);
	cr_assert_eq(d.nsteps, a->nsteps);
	for (size_t i = 0; i < d.nsteps; i++) {
		cr_assert(d.steps[i].has_a && d.steps[i].has_b);
		cr_assert_eq(d.steps[i].number_a, d.steps[i].number_b);
		zero(&d.steps[i].a, &d.steps[i].b, "step");
	}
	cr_assert_geq(d.nlayers, 2);
	for (size_t i = 0; i < d.nlayers; i++) {
		cr_assert_eq(d.layers[i].count_a, d.layers[i].count_b);
		zero(&d.layers[i].a, &d.layers[i].b, compare_str(&d, d.layers[i].name));
	}
	cr_assert_eq(d.nkernels, 2);
	for (size_t i = 0; i < d.nkernels; i++) {
		cr_assert_eq(d.kernels[i].count_a, d.kernels[i].count_b);
		cr_assert_eq(d.kernels[i].total_a_ns, d.kernels[i].total_b_ns);
		cr_assert_gt(d.kernels[i].total_a_ns, 0);
	}
	compare_free(&d);
}

Test(compare, self_is_all_zeros)
{
	struct trace t1, t2;
	struct analysis a1, a2;
	struct analysis_opts o = j_opts();

	fsdp(&t1, 0);
	fsdp(&t2, 0);
	analysis_build(&a1, &t1, 0, &o);
	analysis_build(&a2, &t2, 0, &o);
	check_self(&a1, &a1);   /* the same analysis */
	check_self(&a1, &a2);   /* the same file loaded twice */
	analysis_free(&a1);
	analysis_free(&a2);
	trace_free(&t1);
	trace_free(&t2);
}

static const struct compare_layer *
layer(const struct compare *d, const char *name, int phase)
{
	for (size_t i = 0; i < d->nlayers; i++)
		if (strcmp(compare_str(d, d->layers[i].name), name) == 0 &&
		    d->layers[i].phase == phase)
			return &d->layers[i];
	cr_assert_fail("no layer %s", name);
	return NULL;
}

Test(compare, hidden_all_gather_saves_in_its_layer)
{
	struct trace ta, tb;
	struct analysis a, b;
	struct analysis_opts o = j_opts();
	struct compare d;
	const struct compare_layer *l1, *l0;
	struct compare_metrics dl;

	fsdp(&ta, 0);
	fsdp(&tb, 1);
	analysis_build(&a, &ta, 0, &o);
	analysis_build(&b, &tb, 0, &o);
	compare_build(&d, &a, &b, COMPARE_BY_NUMBER);

	/* the window: AG1's 30 us no longer exposed, the step 30 us shorter */
	dl = compare_delta(&d.wa, &d.wb);
	cr_assert_eq(d.wa.exposed_comm_ns, 60 * US);
	cr_assert_eq(d.wb.exposed_comm_ns, 30 * US);
	cr_assert_eq(dl.exposed_comm_ns, -30 * US);
	cr_assert_eq(dl.time_ns, -30 * US);     /* [20,180) -> [20,150) */
	cr_assert_eq(dl.compute_ns, 0);
	cr_assert_eq(dl.comm_ns, 0);

	/* layers.1 forward owned the exposed all-gather: the saving is there */
	l1 = layer(&d, "layers.1", LAYER_FORWARD);
	cr_assert_eq(l1->count_a, 1);
	cr_assert_eq(l1->count_b, 1);
	cr_assert_eq(l1->a.own_exposed_comm_ns, 30 * US);
	cr_assert_eq(l1->b.own_exposed_comm_ns, 0);
	dl = compare_delta(&l1->a, &l1->b);
	cr_assert_eq(dl.own_exposed_comm_ns, -30 * US);
	cr_assert_eq(dl.exposed_comm_ns, -30 * US);     /* [100,130) gone */
	cr_assert_eq(dl.time_ns, -30 * US);     /* GPU [100,180) -> [100,150) */

	/* layers.0 keeps its own exposed AG0 */
	l0 = layer(&d, "layers.0", LAYER_FORWARD);
	cr_assert_eq(l0->a.own_exposed_comm_ns, 30 * US);
	cr_assert_eq(l0->b.own_exposed_comm_ns, 30 * US);

	/* kernels by name: the same all-gathers and gemms, same time */
	cr_assert_eq(d.nkernels, 2);
	for (size_t i = 0; i < d.nkernels; i++) {
		cr_assert_eq(d.kernels[i].count_a, d.kernels[i].count_b);
		cr_assert_eq(d.kernels[i].total_a_ns, d.kernels[i].total_b_ns);
	}
	compare_free(&d);
	analysis_free(&a);
	analysis_free(&b);
	trace_free(&ta);
	trace_free(&tb);
}

Test(compare, align_offset_lines_up_the_first_steps)
{
	struct trace ta, tb;
	struct analysis a, b;
	struct analysis_opts o = j_opts();
	int64_t off;

	fsdp(&ta, 0);
	fsdp(&tb, 0);
	align_shift(&tb, 7654321);      /* B recorded 7.65 ms later */
	analysis_build(&a, &ta, 0, &o);
	analysis_build(&b, &tb, 0, &o);
	off = compare_align_offset(&a, &b);
	cr_assert_eq(off, -7654321);
	analysis_free(&b);
	align_shift(&tb, off);
	analysis_build(&b, &tb, 0, &o);
	cr_assert_eq(compare_align_offset(&a, &b), 0);
	check_self(&a, &b);             /* on one axis, the same trace */
	analysis_free(&a);
	analysis_free(&b);
	trace_free(&ta);
	trace_free(&tb);
}

/* Steps numbered first .. first + n - 1, each d us long with one kernel. */
static void
steps_from(struct trace *t, int64_t first, int n, int64_t d)
{
	next_corr = 1;
	j_begin();
	for (int i = 0; i < n; i++) {
		int64_t s = 10 + (int64_t)i * 200;

		step((int)first + i, s, s + d);
		kernel(1, s + 1, "gemm_fwd", s + 5, s + d - 5);
	}
	j_load(t);
}

static void
pair(int64_t fa, int na, int64_t da, int64_t fb, int nb, int64_t db,
    struct compare *d, struct trace *ta, struct trace *tb,
    struct analysis *a, struct analysis *b)
{
	struct analysis_opts o = j_opts();

	steps_from(ta, fa, na, da);
	steps_from(tb, fb, nb, db);
	analysis_build(a, ta, 0, &o);
	analysis_build(b, tb, 0, &o);
	compare_build(d, a, b, COMPARE_BY_NUMBER);
}

/*
 * Steps pair by number when A and B share one: A's #1-#3 against B's #2-#4
 * gives #1 (A only), #2, #3 and #4 (B only); the verdict measures #2 and
 * #3 only.  Without a common number, or when asked, they pair by position.
 */
Test(compare, steps_pair_by_number_else_by_position)
{
	struct trace ta, tb;
	struct analysis a, b;
	struct compare d;
	struct compare_verdict v;

	pair(1, 3, 100, 2, 3, 110, &d, &ta, &tb, &a, &b);
	cr_assert(d.by_number);
	cr_assert_eq(d.nsteps, 4);
	cr_expect(d.steps[0].has_a && !d.steps[0].has_b && d.steps[0].number_a == 1);
	for (int i = 1; i <= 2; i++)
		cr_expect(d.steps[i].has_a && d.steps[i].has_b &&
		    d.steps[i].number_a == i + 1 && d.steps[i].number_b == i + 1);
	cr_expect(!d.steps[3].has_a && d.steps[3].has_b && d.steps[3].number_b == 4);
	compare_verdict(&d, &v);
	cr_expect_eq(v.steps, 2);
	cr_expect_eq(v.a_ns, 2 * 100 * US);
	cr_expect_eq(v.b_ns, 2 * 110 * US);
	cr_expect_float_eq(v.change_pct, 10.0, 1e-9);
	/* one step against another, whatever the pairing: A's #2, B's #4 */
	compare_keep_step(&d, 2, 4);
	cr_assert_eq(d.nsteps, 1);
	cr_expect(d.steps[0].has_a && d.steps[0].has_b && !d.by_number);
	cr_expect(d.steps[0].number_a == 2 && d.steps[0].number_b == 4);
	cr_expect_eq(d.steps[0].a.time_ns, 100 * US);
	cr_expect_eq(d.steps[0].b.time_ns, 110 * US);
	compare_free(&d);

	/* asked for position (two windows of one trace): #1 against #2 */
	compare_build(&d, &a, &b, COMPARE_BY_POSITION);
	cr_assert(!d.by_number);
	cr_assert_eq(d.nsteps, 3);
	for (int i = 0; i < 3; i++)
		cr_expect(d.steps[i].number_a == i + 1 && d.steps[i].number_b == i + 2);
	compare_free(&d);
	analysis_free(&a);
	analysis_free(&b);
	trace_free(&ta);
	trace_free(&tb);

	pair(1, 2, 100, 5, 3, 90, &d, &ta, &tb, &a, &b);
	cr_assert(!d.by_number);
	cr_assert_eq(d.nsteps, 3);
	cr_expect(d.steps[0].number_a == 1 && d.steps[0].number_b == 5);
	cr_expect(d.steps[1].number_a == 2 && d.steps[1].number_b == 6);
	cr_expect(!d.steps[2].has_a && d.steps[2].number_b == 7);
	compare_verdict(&d, &v);
	cr_expect_eq(v.steps, 2);
	cr_expect_float_eq(v.change_pct, -10.0, 1e-9);
	compare_free(&d);
	analysis_free(&a);
	analysis_free(&b);
	trace_free(&ta);
	trace_free(&tb);
}
