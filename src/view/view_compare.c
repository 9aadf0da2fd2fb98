/* view_compare — the viewer's comparison mode; see view_compare.h. */
#include "config.h"

#include "view/view_compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/compare_table.h"
#include "model/trace.h"
#include "base/units.h"
#include "view/view.h"
#include "base/xalloc.h"

/* Each side of a step or layer Enter shows: 2%, as view.c zooms. */
#define MARGIN_PCT 2

struct view_compare {
	int built;
	struct compare_table t;
	size_t row, top;        /* the cursor row, the first row scrolled to */
	size_t a, b;            /* the analyses of sides A and B */
	char what[240];
};

static struct view_compare *
cmp(struct view *v)
{
	if (v->cmp == NULL)
		v->cmp = xcalloc(1, sizeof *v->cmp);
	return v->cmp;
}

/* ---- steps ---- */

static void
extent(const struct step *s, int64_t *a, int64_t *b)
{
	*a = s->has_gpu ? s->gpu_start_ns : s->start_ns;
	*b = s->has_gpu ? s->gpu_end_ns : s->end_ns;
}

long
view_compare_step_in_view(const struct view *v)
{
	const struct analysis *an;
	int64_t mid;

	if (v->nan == 0 || (an = view_current(v))->device < 0 || an->nsteps == 0)
		return -1;
	if (v->sel == SEL_STEP && v->sel_index >= 0 &&
	    (size_t)v->sel_index < an->nsteps)
		return v->sel_index;
	mid = v->start_ns + (int64_t)(((uint64_t)v->end_ns - (uint64_t)v->start_ns) / 2);
	for (size_t i = 0; i < an->nsteps; i++)
		if (an->steps[i].has_gpu && an->steps[i].gpu_start_ns <= mid &&
		    mid < an->steps[i].gpu_end_ns)
			return (long)i;
	return steps_at(an->steps, an->nsteps, mid);
}

int
view_compare_baseline(const struct view *v, struct view_baseline *b)
{
	const struct step *sa, *sb;

	memset(b, 0, sizeof *b);
	if (v->compare || v->base_step < 0 || v->base_rank >= v->nan ||
	    (size_t)v->base_step >= v->an[v->base_rank].nsteps)
		return 0;
	b->rank = v->base_rank;
	b->step_a = v->base_step;
	sa = &v->an[b->rank].steps[b->step_a];
	b->number_a = sa->number;
	extent(sa, &b->a0_ns, &b->a1_ns);
	b->step_b = view_compare_step_in_view(v);
	b->number_b = -1;
	if (b->step_b < 0)
		return 1;
	sb = &view_current(v)->steps[b->step_b];
	b->number_b = sb->number;
	if (sa->has_gpu && sb->has_gpu &&
	    (b->rank != v->rank || b->step_a != b->step_b)) {
		b->offset_ns = sb->gpu_start_ns - sa->gpu_start_ns;
		b->aligned = 1;
	}
	return 1;
}

int
view_compare_mark(struct view *v)
{
	long s;

	if (v->compare) {
		snprintf(v->message, sizeof v->message,
		    "--compare: D compares trace A with B in view; b marks steps of one trace");
		return VIEW_REPAINT;
	}
	if (v->nan == 0 || view_current(v)->device < 0) {
		snprintf(v->message, sizeof v->message, "no GPU activity: no steps to compare");
		return VIEW_REPAINT;
	}
	if ((s = view_compare_step_in_view(v)) < 0) {
		snprintf(v->message, sizeof v->message, "%s",
		    view_current(v)->nsteps == 0 ?
		    "no ProfilerStep annotations in this trace" :
		    "no step in view: ] goes to one");
		return VIEW_REPAINT;
	}
	if (v->base_step == s && v->base_rank == v->rank) {
		v->base_step = -1;
		snprintf(v->message, sizeof v->message, "baseline unmarked");
	} else {
		v->base_step = s;
		v->base_rank = v->rank;
		snprintf(v->message, sizeof v->message,
		    "baseline A: ProfilerStep#%lld; go to another step and press D",
		    (long long)view_current(v)->steps[s].number);
	}
	if (v->mode == VIEW_MODE_COMPARE_TABLE)
		view_compare_refresh(v);
	return VIEW_REPAINT;
}

/* ---- the table ---- */

/* The file name of t's path, with its folder when parts > 1. */
static const char *
base_name(const struct trace *t, int parts)
{
	const char *path = t->path != NULL ? t->path : "?";
	const char *p = path + strlen(path);

	while (p > path && parts > 0)
		if (*--p == '/')
			parts--;
	return *p == '/' ? p + 1 : p;
}

/* --compare: A is an[0], B the first analysis of another trace. */
static size_t
other_trace(const struct view *v)
{
	for (size_t i = 1; i < v->nan; i++)
		if (v->an[i].t != v->an[0].t)
			return i;
	return v->nan > 1 ? 1 : 0;
}

/* The index of ProfilerStep#number with a GPU extent in an, or -1. */
static long
gpu_step_numbered(const struct analysis *an, int64_t number)
{
	for (size_t i = 0; i < an->nsteps; i++)
		if (an->steps[i].number == number)
			return an->steps[i].has_gpu ? (long)i : -1;
	return -1;
}

int
view_compare_trace_steps(const struct view *v, long *a, size_t *bi, long *b)
{
	const struct analysis *cur;

	if (!v->compare || v->nan < 2 || v->sel != SEL_STEP || v->sel_index < 0)
		return 0;
	cur = view_current(v);
	if ((size_t)v->sel_index >= cur->nsteps)
		return 0;
	*bi = other_trace(v);
	*a = gpu_step_numbered(&v->an[0], cur->steps[v->sel_index].number);
	*b = gpu_step_numbered(&v->an[*bi], cur->steps[v->sel_index].number);
	return *a >= 0 && *b >= 0;
}

/* The first step of an with a GPU extent, or -1. */
static long
first_gpu_step(const struct analysis *an)
{
	for (size_t i = 0; i < an->nsteps; i++)
		if (an->steps[i].has_gpu)
			return (long)i;
	return -1;
}

static void
build_compare(struct view *v, struct view_compare *c)
{
	char s[32], w[32];
	int parts = 1;
	long ia, ib;

	c->a = 0;
	c->b = other_trace(v);
	/* same file names: show their folders too */
	if (strcmp(base_name(v->an[c->a].t, 1), base_name(v->an[c->b].t, 1)) == 0)
		parts = 2;
	if (view_compare_trace_steps(v, &ia, &c->b, &ib)) {
		const struct step *sa = &v->an[c->a].steps[ia], *sb = &v->an[c->b].steps[ib];

		compare_table_build_steps(&c->t, &v->an[c->a], sa, &v->an[c->b], sb);
		snprintf(c->what, sizeof c->what, "A = %s, B = %s, ProfilerStep#%lld of "
		    "each, over its own GPU extent", base_name(v->an[c->a].t, parts),
		    base_name(v->an[c->b].t, parts), (long long)sa->number);
		return;
	}
	compare_table_build(&c->t, &v->an[c->a], v->start_ns, v->end_ns,
	    &v->an[c->b], v->start_ns, v->end_ns, COMPARE_BY_NUMBER);
	snprintf(c->what, sizeof c->what, "A = %s, B = %s, in view +%s (%s); "
	    "steps paired %s",
	    base_name(v->an[c->a].t, parts), base_name(v->an[c->b].t, parts),
	    units_format(s, sizeof s, v->start_ns - v->t0_ns),
	    units_format(w, sizeof w, v->end_ns - v->start_ns),
	    c->t.d.by_number ? "by number" : "in order from the first in view");
}

static void
build_steps(struct view *v, struct view_compare *c)
{
	struct view_baseline bl;
	const struct analysis *aa, *ab;
	const struct step *sa, *sb;
	long ia, ib = view_compare_step_in_view(v);
	int marked = view_compare_baseline(v, &bl);

	c->b = v->rank;
	if (marked) {
		c->a = bl.rank;
		ia = bl.step_a;
	} else {
		/* as the panel's "vs median step": the median, else the first */
		const struct analysis *an = v->nan > 0 ? &v->an[v->rank] : NULL;

		c->a = v->rank;
		ia = an == NULL ? -1 : an->median_step >= 0 &&
		    an->steps[an->median_step].has_gpu ? an->median_step :
		    first_gpu_step(an);
	}
	if (v->nan == 0 || ia < 0 || ib < 0) {
		/* nothing to compare: empty sections, and why */
		static const struct analysis none = { .device = -1 };

		compare_table_build(&c->t, &none, 0, 0, &none, 0, 0, COMPARE_BY_POSITION);
		snprintf(c->what, sizeof c->what, "%s",
		    v->nan == 0 || view_current(v)->device < 0 ?
		    "no GPU activity in this trace: nothing to compare" :
		    view_current(v)->nsteps == 0 ?
		    "no ProfilerStep annotations: nothing to compare (--compare compares two traces)" :
		    ib < 0 ? "no step in view: ] goes to one, b marks it as the baseline A" :
		    "no step with GPU activity to compare with");
		return;
	}
	aa = &v->an[c->a];
	ab = &v->an[c->b];
	sa = &aa->steps[ia];
	sb = &ab->steps[ib];
	compare_table_build_steps(&c->t, aa, sa, ab, sb);
	snprintf(c->what, sizeof c->what,
	    "%sA = ProfilerStep#%lld%s%s, B = ProfilerStep#%lld%s (the step in view)%s",
	    marked ? "" : "no baseline marked (b marks the step in view): ",
	    (long long)sa->number, !marked && ia == aa->median_step ? " (the median)" : "",
	    sa->has_gpu ? "" : " (no GPU activity)",
	    (long long)sb->number, sb->has_gpu ? "" : " (no GPU activity)",
	    c->a != c->b ? ", another rank" : "");
}

void
view_compare_refresh(struct view *v)
{
	struct view_compare *c = cmp(v);

	if (c->built)
		compare_table_free(&c->t);
	if (v->compare && v->nan >= 2)
		build_compare(v, c);
	else
		build_steps(v, c);
	c->built = 1;
	if (c->row >= c->t.nrows)
		c->row = c->t.nrows > 0 ? c->t.nrows - 1 : 0;
	if (c->top > c->row)
		c->top = c->row;
}

int
view_compare_toggle(struct view *v)
{
	if (v->mode == VIEW_MODE_COMPARE_TABLE) {
		view_pop_mode(v);
		return VIEW_REPAINT;
	}
	/* the table takes the matrix's place */
	if (v->mode == VIEW_MODE_MATRIX)
		view_pop_mode(v);
	view_push_mode(v, VIEW_MODE_COMPARE_TABLE);
	view_compare_refresh(v);
	return VIEW_REPAINT;
}

int
view_compare_move(struct view *v, long rows)
{
	struct view_compare *c = cmp(v);

	view_list_move(v, &c->row, &c->top, c->t.nrows, rows);
	return VIEW_REPAINT;
}

/* [*s, *e) grows to hold [a, b) (*s > *e: empty). */
static void
unite(int64_t *s, int64_t *e, int64_t a, int64_t b)
{
	if (*s > *e) {
		*s = a;
		*e = b;
		return;
	}
	*s = a < *s ? a : *s;
	*e = b > *e ? b : *e;
}

static long
step_numbered(const struct analysis *an, int64_t number)
{
	for (size_t i = 0; i < an->nsteps; i++)
		if (an->steps[i].number == number)
			return (long)i;
	return -1;
}

/* The first occurrence of layer (name, phase) of an overlapping [s, e), or -1. */
static long
layer_in(const struct analysis *an, const char *name, int phase, int64_t s,
    int64_t e)
{
	for (size_t i = 0; i < an->nlayers; i++) {
		const struct layer *l = &an->layers[i];
		int64_t a = l->has_gpu ? l->gpu_start_ns : l->cpu_start_ns;
		int64_t b = l->has_gpu ? l->gpu_end_ns : l->cpu_end_ns;

		if (l->phase == phase && (b > a ? a < e && b > s : a >= s && a < e) &&
		    strcmp(trace_str(an->t, l->name), name) == 0)
			return (long)i;
	}
	return -1;
}

int
view_compare_enter(struct view *v)
{
	struct view_compare *c = cmp(v);
	const struct compare_table_row *r;
	const struct analysis *an;
	int64_t s = 1, e = 0, a, b, m;
	long ia = -1, ib = -1;
	enum view_sel sel;
	size_t rank;
	int both = v->compare;

	if (!c->built || c->row >= c->t.nrows) {
		snprintf(v->message, sizeof v->message, "nothing to go to");
		return VIEW_REPAINT;
	}
	r = &c->t.rows[c->row];
	if (r->kind == CT_STEP) {
		const struct compare_step *d = &c->t.d.steps[r->index];

		sel = SEL_STEP;
		if (d->has_b)
			ib = step_numbered(&v->an[c->b], d->number_b);
		if (d->has_a && (both || ib < 0))
			ia = step_numbered(&v->an[c->a], d->number_a);
	} else if (r->kind == CT_LAYER) {
		const struct compare_layer *d = &c->t.d.layers[r->index];
		const char *name = compare_str(&c->t.d, d->name);

		sel = SEL_LAYER;
		if (d->count_b > 0)
			ib = layer_in(&v->an[c->b], name, d->phase, c->t.b0_ns, c->t.b1_ns);
		if (d->count_a > 0 && (both || ib < 0))
			ia = layer_in(&v->an[c->a], name, d->phase, c->t.a0_ns, c->t.a1_ns);
	} else {
		snprintf(v->message, sizeof v->message,
		    "Enter goes to a step or layer row; D shows the lanes");
		return VIEW_REPAINT;
	}
	if (ia < 0 && ib < 0) {
		snprintf(v->message, sizeof v->message, "not found in either trace");
		return VIEW_REPAINT;
	}
	for (int k = 0; k < 2; k++) {
		long i = k ? ib : ia;

		if (i < 0)
			continue;
		an = &v->an[k ? c->b : c->a];
		if (sel == SEL_STEP) {
			extent(&an->steps[i], &a, &b);
		} else {
			const struct layer *l = &an->layers[i];

			a = l->has_gpu ? l->gpu_start_ns : l->cpu_start_ns;
			b = l->has_gpu ? l->gpu_end_ns : l->cpu_end_ns;
		}
		unite(&s, &e, a, b > a ? b : a + 1);
	}
	rank = ib >= 0 ? c->b : c->a;
	view_pop_mode(v);
	v->rank = rank;
	v->sel = sel;
	v->sel_index = ib >= 0 ? ib : ia;
	m = (int64_t)(((uint64_t)e - (uint64_t)s) * MARGIN_PCT / 100);
	view_set_window(v, s - m, e + m, 1);
	view_set_cursor(v, view_ns_col(v, s));
	return VIEW_RECALC;
}

const struct compare_table *
view_compare_table(const struct view *v, size_t *row, size_t *top)
{
	*row = *top = 0;
	if (v->cmp == NULL || !v->cmp->built)
		return NULL;
	*row = v->cmp->row;
	*top = v->cmp->top;
	return &v->cmp->t;
}

const char *
view_compare_what(const struct view *v)
{
	return v->cmp != NULL && v->cmp->built ? v->cmp->what : "";
}

void
view_compare_free(struct view *v)
{
	if (v->cmp == NULL)
		return;
	if (v->cmp->built)
		compare_table_free(&v->cmp->t);
	free(v->cmp);
	v->cmp = NULL;
}
