/*
 * The viewer's comparison mode (issue 8): the diff table's rows against
 * compare_build() of analyses built over the same windows from scratch (the
 * oracle), with --compare (two traces over the window on screen) and with
 * one trace (b marks the baseline step, the step in view is B); a step
 * against itself is all zeros; Enter goes to a layer; the baseline lanes;
 * traces without steps or GPU activity and tiny terminals.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/compare.h"
#include "analysis/compare_table.h"
#include "render/grid.h"
#include "load/load.h"
#include "render/render.h"
#include "model/trace.h"
#include "view/command.h"
#include "view/view.h"
#include "view/view_compare.h"

#include "jtrace.h"
#include "testrng.h"

#define US 1000LL
#define NSTEPS 3

/*
 * NSTEPS steps of about 1000 us from 100 us (jitter from seed): in each,
 * module Block_0 launches two gemms, Block_1 a gemm and an all-gather; the
 * all-gather runs after Block_1's gemm (exposed) when exposed_step is the
 * step's number, else under it (hidden).  CPU lanes on tid 1.
 */
static void
gen(struct trace *t, uint64_t seed, int exposed_step)
{
	uint64_t r = seed;
	long long t0 = 100;

	j_begin();
	for (int n = 1; n <= NSTEPS; n++) {
		long long g = 200 + rng_below(&r, 50), len = 1000 + rng_below(&r, 40);
		long long x = t0 + 2 * g + 20;

		step(n, t0, t0 + len);
		cpu("python_function", "nn.Module: Block_0", 1, t0 + 1, 10);
		kernel(1, t0 + 2, "gemm_a", t0 + 10, t0 + 10 + g);
		kernel(1, t0 + 3, "gemm_b", t0 + 10 + g, t0 + 10 + 2 * g);
		cpu("python_function", "nn.Module: Block_1", 1, t0 + 20, 10);
		kernel(1, t0 + 21, "gemm_a", x, x + 300);
		if (n == exposed_step)
			kernel(1, t0 + 22, "ncclDevKernel_AllGather_RING_LL", x + 300,
			    x + 450);
		else
			kernel(1, t0 + 22, "ncclDevKernel_AllGather_RING_LL", x + 50,
			    x + 200);
		t0 += len;
	}
	j_load(t);
}


static void
same_metrics(const struct compare_metrics *x, const struct compare_metrics *y,
    const char *what, size_t i)
{
	cr_expect_eq(x->time_ns, y->time_ns, "%s %zu time", what, i);
	cr_expect_eq(x->compute_ns, y->compute_ns, "%s %zu compute", what, i);
	cr_expect_eq(x->comm_ns, y->comm_ns, "%s %zu comm", what, i);
	cr_expect_eq(x->exposed_comm_ns, y->exposed_comm_ns, "%s %zu exposed", what, i);
	cr_expect_eq(x->idle_ns, y->idle_ns, "%s %zu idle", what, i);
	cr_expect_eq(x->own_exposed_comm_ns, y->own_exposed_comm_ns,
	    "%s %zu own exposed", what, i);
}

/* The table's diff equals the oracle's, and its rows list it in sections. */
static void
same_as(const struct compare_table *t, const struct compare *o)
{
	size_t r = 0;

	same_metrics(&t->d.wa, &o->wa, "window A", 0);
	same_metrics(&t->d.wb, &o->wb, "window B", 0);
	cr_assert_gt(o->wa.time_ns, 0);
	cr_assert_eq(t->d.nsteps, o->nsteps);
	cr_assert_eq(t->d.nlayers, o->nlayers);
	cr_assert_eq(t->d.nkernels, o->nkernels);
	for (size_t i = 0; i < o->nsteps; i++) {
		cr_expect_eq(t->d.steps[i].number_a, o->steps[i].number_a);
		cr_expect_eq(t->d.steps[i].number_b, o->steps[i].number_b);
		same_metrics(&t->d.steps[i].a, &o->steps[i].a, "step A", i);
		same_metrics(&t->d.steps[i].b, &o->steps[i].b, "step B", i);
	}
	for (size_t i = 0; i < o->nlayers; i++) {
		cr_expect_str_eq(compare_str(&t->d, t->d.layers[i].name),
		    compare_str(o, o->layers[i].name));
		cr_expect_eq(t->d.layers[i].phase, o->layers[i].phase);
		cr_expect_eq(t->d.layers[i].count_a, o->layers[i].count_a);
		cr_expect_eq(t->d.layers[i].count_b, o->layers[i].count_b);
		same_metrics(&t->d.layers[i].a, &o->layers[i].a, "layer A", i);
		same_metrics(&t->d.layers[i].b, &o->layers[i].b, "layer B", i);
	}
	for (size_t i = 0; i < o->nkernels; i++) {
		cr_expect_str_eq(compare_str(&t->d, t->d.kernels[i].name),
		    compare_str(o, o->kernels[i].name));
		cr_expect_eq(t->d.kernels[i].count_a, o->kernels[i].count_a);
		cr_expect_eq(t->d.kernels[i].count_b, o->kernels[i].count_b);
		cr_expect_eq(t->d.kernels[i].total_a_ns, o->kernels[i].total_a_ns);
		cr_expect_eq(t->d.kernels[i].total_b_ns, o->kernels[i].total_b_ns);
	}
	/* heading, items (or one empty row), three times */
	{
		static const enum compare_table_kind head[3] = { CT_HEAD_STEPS,
			CT_HEAD_LAYERS, CT_HEAD_KERNELS };
		static const enum compare_table_kind item[3] = { CT_STEP, CT_LAYER,
			CT_KERNEL };
		size_t n[3] = { o->nsteps, o->nlayers, o->nkernels };

		for (int s = 0; s < 3; s++) {
			cr_assert_lt(r, t->nrows);
			cr_expect_eq(t->rows[r].kind, head[s]);
			cr_expect_eq(compare_table_section(t, head[s]), r);
			r++;
			for (size_t i = 0; i < n[s]; i++, r++) {
				cr_assert_lt(r, t->nrows);
				cr_expect_eq(t->rows[r].kind, item[s]);
				cr_expect_eq(t->rows[r].index, i);
			}
			if (n[s] == 0)
				cr_expect_eq(t->rows[r++].kind, CT_EMPTY);
		}
		cr_expect_eq(r, t->nrows);
	}
}

/* The oracle: analyses of t over a window built from scratch, then diffed. */
static void
oracle(struct compare *d, const struct trace *ta, const struct analysis_opts *oa,
    const struct trace *tb, const struct analysis_opts *ob)
{
	struct analysis a, b;

	analysis_build(&a, ta, 0, oa);
	analysis_build(&b, tb, 0, ob);
	cr_assert(a.has_window && b.has_window);
	compare_build(d, &a, &b, COMPARE_BY_POSITION);
	analysis_free(&a);
	analysis_free(&b);
}

static int
all_zero(const struct compare *d)
{
	struct compare_metrics z;

	for (size_t i = 0; i < d->nsteps; i++) {
		z = compare_delta(&d->steps[i].a, &d->steps[i].b);
		if (z.time_ns || z.compute_ns || z.comm_ns || z.exposed_comm_ns ||
		    z.idle_ns || d->steps[i].number_a != d->steps[i].number_b)
			return 0;
	}
	for (size_t i = 0; i < d->nlayers; i++) {
		z = compare_delta(&d->layers[i].a, &d->layers[i].b);
		if (z.time_ns || z.compute_ns || z.comm_ns || z.exposed_comm_ns ||
		    z.idle_ns || z.own_exposed_comm_ns ||
		    d->layers[i].count_a != d->layers[i].count_b)
			return 0;
	}
	for (size_t i = 0; i < d->nkernels; i++)
		if (d->kernels[i].count_a != d->kernels[i].count_b ||
		    d->kernels[i].total_a_ns != d->kernels[i].total_b_ns)
			return 0;
	return 1;
}

/* The frame of v at w x h as text (malloc'd). */
static char *
frame(struct view *v, int w, int h)
{
	struct layout lay;
	struct grid g;
	struct render_opts ro = { 0, 1, "t.json" };
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	render_layout(&lay, v, w, h);
	if (lay.time_cols >= 1 && lay.time_cols != v->cols)
		view_resize(v, lay.time_cols);
	grid_init(&g, w, h);
	render_frame(&g, &lay, v, &ro);
	out = open_memstream(&text, &len);
	cr_assert_eq(grid_write(&g, out, 0), 0);
	fclose(out);
	grid_free(&g);
	render_layout_free(&lay);
	return text;
}

/* --compare: trace A (step 2's all-gather exposed) against B (all hidden). */
Test(compare_table, compare_matches_the_oracle_over_the_window)
{
	struct trace ta, tb;
	struct analysis an[2];
	struct analysis_opts o = j_opts(), w;
	const struct compare_table *t;
	struct view v;
	struct compare d;
	size_t row, top, lr;
	const struct step *s2;
	int found = 0;

	gen(&ta, 7, 2);
	gen(&tb, 7, 0);
	analysis_build(&an[0], &ta, 0, &o);
	analysis_build(&an[1], &tb, 0, &o);
	view_init(&v, an, 2, ta.start_ns, ta.end_ns, 100);
	v.compare = 1;
	cr_assert_eq(view_do(&v, CMD_TOGGLE_DIFF), VIEW_REPAINT);
	cr_assert_eq(v.mode, VIEW_MODE_COMPARE_TABLE);

	/* the whole window, then zoomed to step 2: each against the oracle */
	for (int k = 0; k < 2; k++) {
		if (k == 1) {
			s2 = &an[0].steps[1];
			cr_assert_eq(view_set_window(&v, s2->gpu_start_ns, s2->gpu_end_ns, 1),
			    VIEW_RECALC);
			view_recalc(&v);
		}
		t = view_compare_table(&v, &row, &top);
		cr_assert_not_null(t);
		w = o;
		w.window = WINDOW_ABSOLUTE;
		w.start_ns = v.start_ns;
		w.end_ns = v.end_ns;
		oracle(&d, &ta, &w, &tb, &w);
		same_as(t, &d);
		compare_free(&d);
	}
	/* Block_1's own exposed all-gather: 150 us in A, hidden in B */
	for (size_t i = 0; i < t->d.nlayers; i++)
		if (strcmp(compare_str(&t->d, t->d.layers[i].name), "Block_1") == 0) {
			cr_expect_eq(t->d.layers[i].a.own_exposed_comm_ns, 150 * US);
			cr_expect_eq(t->d.layers[i].b.own_exposed_comm_ns, 0);
			found = 1;
		}
	cr_assert(found, "no Block_1 row");
	cr_assert_not_null(strstr(view_compare_what(&v), "A = "));

	/* Enter on the first layer row: its lanes, the window covering it */
	lr = compare_table_section(t, CT_HEAD_LAYERS) + 1;
	view_compare_move(&v, (long)lr - (long)row);
	t = view_compare_table(&v, &row, &top);
	cr_assert_eq(row, lr);
	cr_assert_eq(view_do(&v, CMD_ZOOM_SELECTED), VIEW_RECALC);
	cr_assert_neq(v.mode, VIEW_MODE_COMPARE_TABLE);
	cr_assert_eq(v.sel, SEL_LAYER);
	cr_assert_eq(v.rank, 1);        /* B's lanes */
	{
		const struct layer *l = &an[1].layers[v.sel_index];

		cr_expect_leq(v.start_ns, l->gpu_start_ns);
		cr_expect_geq(v.end_ns, l->gpu_end_ns);
	}
	/* b is for one trace */
	view_do(&v, CMD_MARK_BASELINE);
	cr_expect_eq(v.base_step, -1);
	cr_expect_not_null(strstr(v.message, "--compare"));

	view_free(&v);
	analysis_free(&an[0]);
	analysis_free(&an[1]);
	trace_free(&ta);
	trace_free(&tb);
}

/* One trace: b on step 1, ] to step 2, D compares them as --diff-steps does. */
Test(compare_table, baseline_step_against_the_step_in_view)
{
	struct trace tr;
	struct analysis an;
	struct analysis_opts o = j_opts(), oa, ob;
	const struct compare_table *t;
	struct view v;
	struct compare d;
	size_t row, top;
	char *text;

	gen(&tr, 11, 2);
	analysis_build(&an, &tr, 0, &o);
	cr_assert_eq(an.nsteps, NSTEPS);
	view_init(&v, &an, 1, tr.start_ns, tr.end_ns, 100);
	view_set_window(&v, an.steps[0].gpu_start_ns, an.steps[0].gpu_end_ns, 0);
	cr_assert_eq(view_compare_step_in_view(&v), 0);
	view_do(&v, CMD_MARK_BASELINE);
	cr_assert_eq(v.base_step, 0);
	cr_assert_not_null(strstr(v.message, "ProfilerStep#1"));
	view_do(&v, CMD_NEXT_STEP);
	view_recalc(&v);
	cr_assert_eq(view_compare_step_in_view(&v), 1);

	text = frame(&v, 120, 40);
	cr_expect_not_null(strstr(text, "A#1 s7"), "no baseline lane:\n%s", text);
	cr_expect_not_null(strstr(text, "A#1 s22"), "no baseline nccl lane:\n%s", text);
	cr_expect_not_null(strstr(text, "baseline A #1, B #2"), "no panel line:\n%s", text);
	free(text);

	view_do(&v, CMD_TOGGLE_DIFF);
	t = view_compare_table(&v, &row, &top);
	cr_assert_not_null(t);
	oa = o;
	oa.window = WINDOW_STEP;
	oa.step = 1;
	ob = oa;
	ob.step = 2;
	oracle(&d, &tr, &oa, &tr, &ob);
	same_as(t, &d);
	cr_assert_not(all_zero(&d), "steps 1 and 2 differ (step 2 exposes comm)");
	compare_free(&d);
	cr_expect_not_null(strstr(view_compare_what(&v), "A = ProfilerStep#1, B = ProfilerStep#2"));
	text = frame(&v, 120, 40);
	cr_expect_not_null(strstr(text, "steps ("), "%s", text);
	cr_expect_not_null(strstr(text, "layers ("), "%s", text);
	cr_expect_not_null(strstr(text, "kernels, by |change|"), "%s", text);
	cr_expect_not_null(strstr(text, "#1 -> #2"), "%s", text);
	free(text);

	/* ] in the table moves B: step 3 now, still against the oracle */
	view_do(&v, CMD_NEXT_STEP);
	view_recalc(&v);
	t = view_compare_table(&v, &row, &top);
	ob.step = 3;
	oracle(&d, &tr, &oa, &tr, &ob);
	same_as(t, &d);
	compare_free(&d);

	/* b again on the baseline's own step unmarks it */
	v.sel_index = 0;
	view_do(&v, CMD_MARK_BASELINE);
	cr_expect_eq(v.base_step, -1);
	view_free(&v);
	analysis_free(&an);
	trace_free(&tr);
}

/* A step against itself: every change is zero, the table too. */
Test(compare_table, a_step_against_itself_is_all_zeros)
{
	struct trace tr;
	struct analysis an;
	struct analysis_opts o = j_opts();
	const struct compare_table *t;
	struct view v;
	size_t row, top;

	gen(&tr, 5, 2);
	analysis_build(&an, &tr, 0, &o);
	view_init(&v, &an, 1, tr.start_ns, tr.end_ns, 100);
	for (size_t s = 0; s < an.nsteps; s++) {
		v.sel = SEL_STEP;
		v.sel_index = (long)s;
		v.base_step = -1;
		view_do(&v, CMD_MARK_BASELINE);
		cr_assert_eq(v.base_step, (long)s);
		if (v.mode != VIEW_MODE_COMPARE_TABLE)
			view_do(&v, CMD_TOGGLE_DIFF);
		view_recalc(&v);
		t = view_compare_table(&v, &row, &top);
		cr_assert_not_null(t);
		cr_assert_gt(t->d.nsteps, 0);
		cr_assert_gt(t->d.nkernels, 0);
		cr_assert(all_zero(&t->d), "step %zu against itself", s);
	}
	view_free(&v);
	analysis_free(&an);
	trace_free(&tr);
}

/* Without a baseline the first step is A, and the table says how to mark one. */
Test(compare_table, without_a_baseline_the_median_step_is_a)
{
	struct trace tr;
	struct analysis an;
	struct analysis_opts o = j_opts();
	const struct compare_table *t;
	struct view v;
	size_t row, top;
	char want[96];
	int64_t median;

	gen(&tr, 3, 0);
	analysis_build(&an, &tr, 0, &o);
	view_init(&v, &an, 1, tr.start_ns, tr.end_ns, 100);
	v.sel = SEL_STEP;
	v.sel_index = 2;
	view_do(&v, CMD_TOGGLE_DIFF);
	t = view_compare_table(&v, &row, &top);
	cr_assert_not_null(t);
	cr_expect_not_null(strstr(view_compare_what(&v), "b marks"));
	/* the panel's "vs median step": the middle of the 3 step times */
	cr_assert_geq(an.median_step, 0);
	median = an.steps[an.median_step].number;
	snprintf(want, sizeof want, "A = ProfilerStep#%lld (the median), B = ProfilerStep#3",
	    (long long)median);
	cr_expect_not_null(strstr(view_compare_what(&v), want), "%s", view_compare_what(&v));
	cr_expect_eq(t->d.steps[0].number_a, median);
	cr_expect_eq(t->d.steps[0].number_b, 3);
	/* the cursor: clamped at both ends, a page at a time */
	v.page = 4;
	view_do(&v, CMD_PAGE_DOWN);
	t = view_compare_table(&v, &row, &top);
	cr_expect_eq(row, 4);
	for (int i = 0; i < 100; i++)
		view_do(&v, CMD_LANE_DOWN);
	t = view_compare_table(&v, &row, &top);
	cr_expect_eq(row, t->nrows - 1);
	cr_expect_eq(top, t->nrows - 4);
	view_do(&v, CMD_PAGE_UP);
	view_do(&v, CMD_PAGE_UP);
	for (int i = 0; i < 100; i++)
		view_do(&v, CMD_LANE_UP);
	t = view_compare_table(&v, &row, &top);
	cr_expect_eq(row, 0);
	cr_expect_eq(top, 0);
	/* D goes back to the lanes */
	view_do(&v, CMD_TOGGLE_DIFF);
	cr_expect_neq(v.mode, VIEW_MODE_COMPARE_TABLE);
	view_free(&v);
	analysis_free(&an);
	trace_free(&tr);
}

/* No steps, no GPU activity, tiny terminals: said on screen, no crash. */
Test(compare_table, nothing_to_compare_is_said)
{
	struct trace tr, tc;
	struct analysis an, ac;
	struct analysis_opts o = j_opts();
	struct view v;
	char *text;

	j_begin();
	kernel(1, 100, "gemm", 110, 500);
	kernel(1, 120, "ncclDevKernel_AllReduce_RING_LL", 200, 300);
	j_load(&tr);
	analysis_build(&an, &tr, 0, &o);
	view_init(&v, &an, 1, tr.start_ns, tr.end_ns, 100);
	view_do(&v, CMD_MARK_BASELINE);
	cr_expect_not_null(strstr(v.message, "no ProfilerStep"));
	view_do(&v, CMD_TOGGLE_DIFF);
	cr_expect_not_null(strstr(view_compare_what(&v), "no ProfilerStep"));
	text = frame(&v, 120, 40);
	cr_expect_not_null(strstr(text, "no steps on either side"), "%s", text);
	free(text);
	text = frame(&v, 40, 12);
	cr_expect_not_null(strstr(text, "no ProfilerStep"), "%s", text);
	free(text);
	text = frame(&v, 30, 8);
	cr_expect_not_null(strstr(text, "terminal too small"), "%s", text);
	free(text);
	view_free(&v);
	analysis_free(&an);

	j_begin();
	cpu("cpu_op", "aten::mm", 1, 100, 50);
	j_load(&tc);
	analysis_build(&ac, &tc, -1, &o);
	view_init(&v, &ac, 1, tc.start_ns, tc.end_ns, 100);
	view_do(&v, CMD_MARK_BASELINE);
	cr_expect_not_null(strstr(v.message, "no GPU activity"));
	view_do(&v, CMD_TOGGLE_DIFF);
	text = frame(&v, 80, 24);
	cr_expect_not_null(strstr(text, "no GPU activity"), "%s", text);
	free(text);
	view_free(&v);
	analysis_free(&ac);
	trace_free(&tr);
	trace_free(&tc);
}
