/* Tests for view_table (T, L) and the keys O and K (view_nav.h), on a generated job. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "analysis/layers.h"
#include "analysis/metrics.h"
#include "analysis/steps.h"
#include "load/load.h"
#include "model/trace.h"
#include "view/command.h"
#include "view/view.h"
#include "view/view_table.h"

/* One generated rank (tools/gen-trace --ranks=2 --seed=1), analysed and in a view. */
struct fix {
	char dir[64];
	struct trace t;
	struct analysis an;
	struct view v;
};

static void
fix_open(struct fix *f)
{
	const char *gen = getenv("GEN_TRACE");
	char cmd[1024], path[512];
	struct load_error err;
	struct analysis_opts o;
	int32_t *devs = NULL;

	if (gen == NULL || *gen == '\0')
		cr_skip_test("GEN_TRACE is not set");
	snprintf(f->dir, sizeof f->dir, "/tmp/gantty-vtable-XXXXXX");
	cr_assert_not_null(mkdtemp(f->dir));
	snprintf(cmd, sizeof cmd, "'%s' --ranks=2 --seed=1 --out='%s'", gen, f->dir);
	cr_assert_eq(system(cmd), 0, "%s failed", cmd);
	snprintf(path, sizeof path, "%s/rank-0.json", f->dir);
	cr_assert_eq(load_trace(&f->t, path, NULL, &err), 0, "%s", err.msg);
	memset(&o, 0, sizeof o);
	o.min_gap_ns = METRICS_DEFAULT_MIN_GAP_NS;
	o.ranks_loaded = 1;
	cr_assert_gt(metrics_devices(&f->t, &devs), 0);
	analysis_build(&f->an, &f->t, devs[0], &o);
	free(devs);
	view_init(&f->v, &f->an, 1, f->t.start_ns, f->t.end_ns, 200);
}

static void
fix_close(struct fix *f)
{
	char path[600];

	view_free(&f->v);
	analysis_free(&f->an);
	trace_free(&f->t);
	for (int r = 0; r < 2; r++) {
		snprintf(path, sizeof path, "%s/rank-%d.json", f->dir, r);
		unlink(path);
	}
	rmdir(f->dir);
}

/* A key as the loop runs it: the command, then a recalc when it asks. */
static int
key(struct view *v, enum view_cmd cmd)
{
	int ch = view_do(v, cmd);

	if ((ch & VIEW_RECALC) == VIEW_RECALC)
		view_recalc(v);
	return ch;
}

static int64_t
step_time(const struct step *s)
{
	return s->end_ns - s->start_ns;
}

/* The table is in its order: column c largest first, ties by time, then index. */
static void
assert_sorted(const struct vt_table *t, enum vt_col c)
{
	for (size_t i = 1; i < t->n; i++) {
		const struct vt_row *a = &t->rows[i - 1], *b = &t->rows[i];

		if (c == VT_NAME) {
			cr_assert_lt(a->index, b->index);
			continue;
		}
		if (c == VT_BUSBW) {
			cr_assert_geq(a->busbw_gbps, b->busbw_gbps, "row %zu", i);
			if (a->busbw_gbps != b->busbw_gbps)
				continue;
		} else {
			cr_assert_geq(a->ns[c], b->ns[c], "row %zu of column %d", i, c);
			if (a->ns[c] != b->ns[c])
				continue;
		}
		if (c != VT_TIME && a->ns[VT_TIME] != b->ns[VT_TIME]) {
			cr_assert_gt(a->ns[VT_TIME], b->ns[VT_TIME]);
			continue;
		}
		cr_assert_lt(a->index, b->index, "ties in trace order");
	}
}

Test(table, steps_rows_are_the_steps_numbers_sorted_by_any_column)
{
	struct fix f;
	const struct vt_table *t;
	const struct analysis *a;
	long slow = 0;

	fix_open(&f);
	a = &f.an;
	cr_assert_eq(a->nsteps, 8);
	cr_assert_eq(key(&f.v, CMD_TABLE_STEPS), VIEW_REPAINT);
	cr_assert_eq(f.v.mode, VIEW_MODE_TABLE);
	t = view_table_get(&f.v);
	cr_assert_not_null(t);
	cr_assert_eq(t->kind, VT_STEPS);
	cr_assert_eq(t->n, a->nsteps);
	cr_assert_eq(t->sort, VT_TIME);
	assert_sorted(t, VT_TIME);
	for (size_t i = 0; i < a->nsteps; i++)
		if (step_time(&a->steps[i]) > step_time(&a->steps[slow]))
			slow = (long)i;
	cr_assert_eq(t->rows[0].index, slow, "the slowest step first");
	cr_assert_eq(a->steps[slow].number, 15);
	/* each row's numbers: the step's time, its GPU extent's sums */
	for (size_t i = 0; i < t->n; i++) {
		const struct vt_row *r = &t->rows[i];
		const struct step *s = &a->steps[r->index];
		struct window_metrics m;

		cr_assert(s->has_gpu);
		metrics_window_sums(&a->dev, s->gpu_start_ns, s->gpu_end_ns, &m);
		cr_assert_eq(r->ns[VT_TIME], step_time(s));
		cr_assert_eq(r->ns[VT_COMPUTE], m.compute_ns);
		cr_assert_eq(r->ns[VT_COMM], m.comm_ns);
		cr_assert_eq(r->ns[VT_EXPOSED], m.exposed_comm_ns);
		cr_assert_eq(r->ns[VT_IDLE], m.idle_ns);
		cr_assert_gt(r->busbw_gbps, 0, "every generated step has collectives");
	}
	/* Right: compute, comm, exposed, idle, busbw, then the step number */
	for (int c = VT_COMPUTE; c < VT_NCOLS; c++) {
		if (c == VT_OWN)
			continue;
		key(&f.v, CMD_PAN_RIGHT);
		cr_assert_eq(t->sort, (enum vt_col)c, "no own exposed column for steps");
		assert_sorted(t, (enum vt_col)c);
	}
	key(&f.v, CMD_PAN_RIGHT);
	cr_assert_eq(t->sort, VT_NAME);
	assert_sorted(t, VT_NAME);
	cr_assert_str_eq(f.v.message, "sorted by step number");
	key(&f.v, CMD_PAN_LEFT);
	cr_assert_eq(t->sort, VT_BUSBW);
	key(&f.v, CMD_PAN_RIGHT);
	/* the cursor stayed on its step through the sorts */
	cr_assert_eq(t->rows[t->row].index, slow);
	/* PgUp Down Down Enter: the third step, selected, the window on it */
	key(&f.v, CMD_PAGE_UP);
	cr_assert_eq(t->row, 0);
	key(&f.v, CMD_LANE_DOWN);
	key(&f.v, CMD_LANE_DOWN);
	cr_assert_eq(t->row, 2);
	cr_assert_eq(key(&f.v, CMD_ZOOM_SELECTED), VIEW_RECALC);
	cr_assert_eq(f.v.mode, VIEW_MODE_LANES);
	cr_assert_eq(f.v.sel, SEL_STEP);
	cr_assert_eq(f.v.sel_index, 2);
	{
		const struct step *s = &a->steps[2];
		int64_t m = (s->gpu_end_ns - s->gpu_start_ns) * 2 / 100;

		cr_assert_eq(f.v.start_ns, s->gpu_start_ns - m);
		cr_assert_eq(f.v.end_ns, s->gpu_end_ns + m);
	}
	/* T again opens on the selected step, kept sorted by number */
	key(&f.v, CMD_TABLE_STEPS);
	cr_assert_eq(t->sort, VT_NAME);
	cr_assert_eq(t->rows[t->row].index, 2, "the lanes' selection is the cursor row");
	/* PgDn stops at the last row, T shows the lanes */
	key(&f.v, CMD_PAGE_DOWN);
	cr_assert_eq(t->row, t->n - 1);
	cr_assert_eq(key(&f.v, CMD_TABLE_STEPS), VIEW_REPAINT);
	cr_assert_eq(f.v.mode, VIEW_MODE_LANES);
	fix_close(&f);
}

Test(table, layers_of_the_step_in_view_follow_the_step)
{
	struct fix f;
	const struct vt_table *t;
	const struct analysis *a;
	size_t want = 0;
	int64_t best = -1;

	fix_open(&f);
	a = &f.an;
	/* o: step 15 (the outlier), then [ [ [ : step 12 */
	key(&f.v, CMD_NEXT_OUTLIER);
	for (int k = 0; k < 3; k++)
		key(&f.v, CMD_PREV_STEP);
	cr_assert_eq(a->steps[f.v.sel_index].number, 12);
	key(&f.v, CMD_TABLE_LAYERS);
	t = view_table_get(&f.v);
	cr_assert_eq(f.v.mode, VIEW_MODE_TABLE);
	cr_assert_eq(t->kind, VT_LAYERS);
	cr_assert_eq(t->sort, VT_OWN);
	for (size_t i = 0; i < a->nlayers; i++)
		if (a->layers[i].step == 12) {
			want++;
			if (a->layers[i].own_exposed_comm_ns > best)
				best = a->layers[i].own_exposed_comm_ns;
		}
	cr_assert_gt(want, 0);
	cr_assert_eq(t->n, want, "every layer of step 12 and no other");
	assert_sorted(t, VT_OWN);
	cr_assert_eq(t->rows[0].ns[VT_OWN], best);
	cr_assert_gt(best, 0);
	for (size_t i = 0; i < t->n; i++) {
		const struct layer *l = &a->layers[t->rows[i].index];

		cr_assert_eq(l->step, 12);
		cr_assert_eq(t->rows[i].ns[VT_TIME], l->gpu_end_ns - l->gpu_start_ns);
		cr_assert_eq(t->rows[i].ns[VT_EXPOSED], l->exposed_comm_ns);
		cr_assert_eq(t->rows[i].ns[VT_COMM], l->comm_ns);
	}
	/* the same worst layer as x in step 12 */
	{
		long top = t->rows[0].index;

		key(&f.v, CMD_TABLE_LAYERS);
		key(&f.v, CMD_WORST_LAYER);
		cr_assert_eq(f.v.sel, SEL_LAYER);
		cr_assert_eq(a->layers[f.v.sel_index].own_exposed_comm_ns,
		    a->layers[top].own_exposed_comm_ns);
		f.v.sel = SEL_STEP;     /* step 12 again */
		for (size_t i = 0; i < a->nsteps; i++)
			if (a->steps[i].number == 12)
				f.v.sel_index = (long)i;
		key(&f.v, CMD_TABLE_LAYERS);
		cr_assert_eq(t->n, want);
	}
	/* ] in the table: step 13's layers */
	key(&f.v, CMD_NEXT_STEP);
	cr_assert_eq(f.v.mode, VIEW_MODE_TABLE);
	cr_assert_gt(t->n, 0);
	for (size_t i = 0; i < t->n; i++)
		cr_assert_eq(a->layers[t->rows[i].index].step, 13);
	/* Enter: the first row's layer, selected and zoomed to */
	{
		long li = t->rows[0].index;

		cr_assert_eq(key(&f.v, CMD_ZOOM_SELECTED), VIEW_RECALC);
		cr_assert_eq(f.v.mode, VIEW_MODE_LANES);
		cr_assert_eq(f.v.sel, SEL_LAYER);
		cr_assert_eq(f.v.sel_index, li);
	}
	/* L from the diff table replaces it; D from the table shows the diff table */
	key(&f.v, CMD_TOGGLE_DIFF);
	cr_assert_eq(f.v.mode, VIEW_MODE_COMPARE_TABLE);
	key(&f.v, CMD_TABLE_LAYERS);
	cr_assert_eq(f.v.mode, VIEW_MODE_TABLE);
	cr_assert_eq(t->rows[t->row].index, f.v.sel_index, "the selected layer's row");
	key(&f.v, CMD_TOGGLE_DIFF);
	cr_assert_eq(f.v.mode, VIEW_MODE_COMPARE_TABLE);
	key(&f.v, CMD_TOGGLE_DIFF);
	cr_assert_eq(f.v.mode, VIEW_MODE_LANES, "nothing left over");
	fix_close(&f);
}

/* The longest activity of a's device starting in [x, y), launched in [ca, cb] if cb >= ca. */
static long
brute_longest(const struct analysis *a, int64_t x, int64_t y, int64_t ca, int64_t cb)
{
	const struct event *ev = a->t->events;
	long best = -1;

	for (size_t k = 0; k < a->dev.nacts; k++) {
		const struct event *e = &ev[a->dev.acts[k]];

		if (e->ts_ns < x || e->ts_ns >= y)
			continue;
		if (cb >= ca && (e->link == EV_NONE || ev[e->link].ts_ns < ca ||
		    ev[e->link].ts_ns > cb))
			continue;
		if (best < 0 || e->dur_ns > ev[best].dur_ns)
			best = (long)a->dev.acts[k];
	}
	return best;
}

Test(nav, slowest_step_and_longest_kernel)
{
	struct fix f;
	const struct analysis *a;
	long slow = 0, want, li = -1;
	const struct step *s;
	const struct layer *l;

	fix_open(&f);
	a = &f.an;
	for (size_t i = 0; i < a->nsteps; i++)
		if (step_time(&a->steps[i]) > step_time(&a->steps[slow]))
			slow = (long)i;
	cr_assert_eq(key(&f.v, CMD_SLOWEST_STEP), VIEW_RECALC);
	cr_assert_eq(f.v.sel, SEL_STEP);
	cr_assert_eq(f.v.sel_index, slow);
	cr_assert_str_eq(f.v.message, "the slowest of 8 steps: #15");
	s = &a->steps[slow];
	/* K on the step: its longest activity */
	want = brute_longest(a, s->gpu_start_ns, s->gpu_end_ns, 0, -1);
	cr_assert_geq(want, 0);
	key(&f.v, CMD_LONGEST_KERNEL);
	cr_assert_eq(f.v.sel, SEL_EVENT);
	cr_assert_eq(f.v.sel_index, want);
	cr_assert_str_eq(f.v.message, "the longest kernel of step #15 (u: the op that launched it)");
	/* K on a layer: among those it launched */
	for (size_t i = 0; i < a->nlayers; i++)
		if (a->layers[i].step == 15 && a->layers[i].phase == LAYER_BACKWARD &&
		    a->layers[i].has_gpu && li < 0)
			li = (long)i;
	cr_assert_geq(li, 0);
	l = &a->layers[li];
	f.v.sel = SEL_LAYER;
	f.v.sel_index = li;
	want = brute_longest(a, l->gpu_start_ns, l->gpu_end_ns, l->cpu_start_ns,
	    l->cpu_end_ns);
	cr_assert_geq(want, 0, "the layer launched kernels");
	key(&f.v, CMD_LONGEST_KERNEL);
	cr_assert_eq(f.v.sel, SEL_EVENT);
	cr_assert_eq(f.v.sel_index, want);
	/* u: the op that launched it holds its launch call */
	{
		const struct event *k = &a->t->events[want], *launch, *op;

		cr_assert_neq(k->link, EV_NONE);
		launch = &a->t->events[k->link];
		key(&f.v, CMD_LAUNCH_OP);
		cr_assert_eq(f.v.sel, SEL_EVENT);
		op = &a->t->events[f.v.sel_index];
		cr_assert_leq(op->ts_ns, launch->ts_ns);
		cr_assert_geq(event_end(op), event_end(launch));
		cr_assert_eq(op->track, launch->track);
	}
	/* K with nothing selected: the window's longest */
	key(&f.v, CMD_FIT);
	f.v.sel = SEL_NONE;
	want = brute_longest(a, f.v.start_ns, f.v.end_ns, 0, -1);
	key(&f.v, CMD_LONGEST_KERNEL);
	cr_assert_eq(f.v.sel_index, want);
	cr_assert_str_eq(f.v.message, "the longest kernel in view (u: the op that launched it)");
	fix_close(&f);
}
