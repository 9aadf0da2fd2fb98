/* view_table — the tables of steps and of layers; see view_table.h. */
#include "config.h"

#include "view/view_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/bandwidth.h"
#include "analysis/layers.h"
#include "analysis/metrics.h"
#include "analysis/steps.h"
#include "base/xalloc.h"
#include "model/trace.h"
#include "view/view.h"
#include "view/view_compare.h"
#include "view/view_nav.h"

static const char *const col_name[VT_NCOLS] = {
	[VT_NAME] = "", [VT_TIME] = "time", [VT_COMPUTE] = "compute",
	[VT_COMM] = "comm", [VT_EXPOSED] = "exposed", [VT_OWN] = "own exp",
	[VT_IDLE] = "idle", [VT_BUSBW] = "busbw",
};

const char *
view_table_col_name(enum vt_col c)
{
	return c >= 0 && c < VT_NCOLS ? col_name[c] : "";
}

int
view_table_has_col(enum vt_kind kind, enum vt_col c)
{
	return c >= 0 && c < VT_NCOLS && (c != VT_OWN || kind == VT_LAYERS);
}

static struct vt_table *
table(struct view *v)
{
	if (v->table == NULL) {
		v->table = xcalloc(1, sizeof *v->table);
		v->table->sort = VT_TIME;
	}
	return v->table;
}

/* The time-weighted busbw of the collectives starting in [a, b), or -1. */
static double
busbw_of(const struct analysis *an, int64_t a, int64_t b)
{
	struct bw_row rows[COLL_NTYPES];
	size_t n = b > a ? bandwidth_window(&an->bw, a, b, 0, rows) : 0;
	double num = 0, den = 0;

	for (size_t i = 0; i < n; i++)
		if (rows[i].busbw_gbps >= 0 && rows[i].time_ns > 0) {
			num += rows[i].busbw_gbps * (double)rows[i].time_ns;
			den += (double)rows[i].time_ns;
		}
	return den > 0 ? num / den : -1;
}

/* Idle and busbw of a GPU extent [a, b) into r (nothing without one). */
static void
extent_numbers(const struct analysis *an, int has_gpu, int64_t a, int64_t b,
    struct vt_row *r)
{
	struct window_metrics m;

	r->busbw_gbps = -1;
	if (!has_gpu)
		return;
	metrics_window_sums(&an->dev, a, b, &m);
	r->ns[VT_IDLE] = m.idle_ns;
	r->busbw_gbps = busbw_of(an, a, b);
	if (r->ns[VT_COMPUTE] < 0) {    /* a step: the extent's sums */
		r->ns[VT_COMPUTE] = m.compute_ns;
		r->ns[VT_COMM] = m.comm_ns;
		r->ns[VT_EXPOSED] = m.exposed_comm_ns;
	}
}

static void
add_row(struct vt_table *t, size_t *cap, const struct vt_row *r)
{
	xgrow(&t->rows, cap, t->n + 1, sizeof *t->rows);
	t->rows[t->n++] = *r;
}

static void
build_steps(const struct analysis *an, struct vt_table *t, size_t *cap)
{
	for (size_t i = 0; i < an->nsteps; i++) {
		const struct step *s = &an->steps[i];
		struct vt_row r;

		memset(&r, 0, sizeof r);
		r.index = (long)i;
		r.ns[VT_TIME] = s->end_ns - s->start_ns;
		r.ns[VT_COMPUTE] = -1;
		extent_numbers(an, s->has_gpu, s->gpu_start_ns, s->gpu_end_ns, &r);
		if (r.ns[VT_COMPUTE] < 0)
			r.ns[VT_COMPUTE] = 0;
		add_row(t, cap, &r);
	}
	snprintf(t->what, sizeof t->what, "steps of %s (%zu)",
	    an->t->path != NULL ? an->t->path : "the trace", t->n);
}

static void
build_layers(const struct view *v, const struct analysis *an,
    struct vt_table *t, size_t *cap)
{
	long k = view_compare_step_in_view(v);
	int64_t num = k >= 0 ? an->steps[k].number : -1;

	for (size_t i = 0; i < an->nlayers; i++) {
		const struct layer *l = &an->layers[i];
		int64_t a = l->has_gpu ? l->gpu_start_ns : l->cpu_start_ns,
		    b = l->has_gpu ? l->gpu_end_ns : l->cpu_end_ns;
		struct vt_row r;

		if (an->nsteps > 0 && (k < 0 || l->step != num))
			continue;       /* not of the step in view */
		if (an->nsteps == 0 && (a >= v->end_ns || (b > a ? b : a + 1) <= v->start_ns))
			continue;       /* no steps: not in the window */
		memset(&r, 0, sizeof r);
		r.index = (long)i;
		r.ns[VT_TIME] = b - a;
		r.ns[VT_COMPUTE] = l->compute_ns;
		r.ns[VT_COMM] = l->comm_ns;
		r.ns[VT_EXPOSED] = l->exposed_comm_ns;
		r.ns[VT_OWN] = l->own_exposed_comm_ns;
		extent_numbers(an, l->has_gpu, l->gpu_start_ns, l->gpu_end_ns, &r);
		add_row(t, cap, &r);
	}
	if (an->nsteps == 0)
		snprintf(t->what, sizeof t->what, "layers in the window (%zu)", t->n);
	else if (k < 0)
		snprintf(t->what, sizeof t->what,
		    "layers: no step in view (] [ go to one)");
	else
		snprintf(t->what, sizeof t->what, "layers of step #%lld (%zu)",
		    (long long)num, t->n);
}

/* The sort key of r in column c: larger first (VT_NAME: trace order). */
static int
cmp_rows(const struct vt_row *a, const struct vt_row *b, enum vt_col c)
{
	if (c == VT_BUSBW) {
		if (a->busbw_gbps != b->busbw_gbps)
			return a->busbw_gbps > b->busbw_gbps ? -1 : 1;
	} else if (c != VT_NAME && a->ns[c] != b->ns[c]) {
		return a->ns[c] > b->ns[c] ? -1 : 1;
	}
	if (c != VT_NAME && c != VT_TIME && a->ns[VT_TIME] != b->ns[VT_TIME])
		return a->ns[VT_TIME] > b->ns[VT_TIME] ? -1 : 1;
	return (a->index > b->index) - (a->index < b->index);
}

static int
qsort_rows(const void *pa, const void *pb, void *ctx)
{
	return cmp_rows(pa, pb, *(const enum vt_col *)ctx);
}

/* Sorts t by its column; the cursor stays on the row of index keep (-1: the first row). */
static void
sort_table(struct vt_table *t, long keep)
{
	if (t->n > 1)
		qsort_r(t->rows, t->n, sizeof *t->rows, qsort_rows, &t->sort);
	t->row = 0;
	for (size_t i = 0; i < t->n && keep >= 0; i++)
		if (t->rows[i].index == keep)
			t->row = i;
	if (t->top > t->row)
		t->top = t->row;
}

/* The index the lanes' selection gives kind's table, or -1. */
static long
selected_index(const struct view *v, enum vt_kind kind)
{
	if (kind == VT_STEPS && v->sel == SEL_STEP)
		return v->sel_index;
	if (kind == VT_LAYERS && v->sel == SEL_LAYER)
		return v->sel_index;
	return -1;
}

static void
build(struct view *v, struct vt_table *t, long keep)
{
	const struct analysis *an;
	size_t cap = 0;

	free(t->rows);
	t->rows = NULL;
	t->n = 0;
	t->rank = v->rank;
	t->what[0] = '\0';
	if (v->nan == 0 || (an = view_current(v))->device < 0) {
		snprintf(t->what, sizeof t->what, "no GPU activity: no steps or layers to list");
		return;
	}
	if (t->kind == VT_STEPS)
		build_steps(an, t, &cap);
	else
		build_layers(v, an, t, &cap);
	sort_table(t, keep);
}

void
view_table_refresh(struct view *v)
{
	struct vt_table *t = table(v);
	long keep = t->row < t->n && t->rank == v->rank ? t->rows[t->row].index : -1;

	if (selected_index(v, t->kind) >= 0)
		keep = selected_index(v, t->kind);
	build(v, t, keep);
}

int
view_table_toggle(struct view *v, enum vt_kind kind)
{
	struct vt_table *t = table(v);

	if (v->mode == VIEW_MODE_TABLE && t->kind == kind) {
		view_pop_mode(v);
		return VIEW_REPAINT;
	}
	if (v->mode != VIEW_MODE_TABLE) {
		/* the table takes the place of the matrix or the diff table */
		if (v->mode == VIEW_MODE_COMPARE_TABLE)
			view_pop_mode(v);
		if (v->mode == VIEW_MODE_MATRIX)
			view_pop_mode(v);
		view_push_mode(v, VIEW_MODE_TABLE);
	}
	if (t->kind != kind) {
		t->kind = kind;
		t->sort = kind == VT_STEPS ? VT_TIME : VT_OWN;
	}
	t->top = 0;
	build(v, t, selected_index(v, kind));
	return VIEW_REPAINT;
}

int
view_table_move(struct view *v, long rows)
{
	struct vt_table *t = table(v);

	view_list_move(v, &t->row, &t->top, t->n, rows);
	return VIEW_REPAINT;
}

int
view_table_sort(struct view *v, int dir)
{
	struct vt_table *t = table(v);
	long keep = t->row < t->n ? t->rows[t->row].index : -1;
	int c = (int)t->sort;

	do
		c = (c + (dir > 0 ? 1 : VT_NCOLS - 1)) % VT_NCOLS;
	while (!view_table_has_col(t->kind, (enum vt_col)c));
	t->sort = (enum vt_col)c;
	sort_table(t, keep);
	snprintf(v->message, sizeof v->message, "sorted by %s",
	    c == VT_NAME ? (t->kind == VT_STEPS ? "step number" : "trace order") :
	    view_table_col_name(t->sort));
	return VIEW_REPAINT;
}

int
view_table_enter(struct view *v)
{
	struct vt_table *t = table(v);
	long i;

	if (t->row >= t->n || t->rank != v->rank) {
		snprintf(v->message, sizeof v->message, "nothing to go to");
		return VIEW_REPAINT;
	}
	i = t->rows[t->row].index;
	view_pop_mode(v);
	return t->kind == VT_STEPS ? view_nav_select_step(v, i) :
	    view_nav_select_layer(v, i);
}

const struct vt_table *
view_table_get(const struct view *v)
{
	return v->table;
}

void
view_table_free(struct view *v)
{
	if (v->table == NULL)
		return;
	free(v->table->rows);
	free(v->table);
	v->table = NULL;
}
