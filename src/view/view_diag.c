#include "config.h"

#include "view/view_diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/findings.h"
#include "analysis/memory.h"
#include "view/view.h"
#include "base/xalloc.h"

struct view_diag {
	size_t n;               /* v->nan when created */
	int *have;              /* findings computed for analysis i */
	struct finding **f;
	size_t *nf;
	int mem_built;
	struct memory *mem;     /* n, built with the first m */
	size_t range;           /* the range of the selected finding shown */
};

static struct view_diag *
diag(struct view *v)
{
	struct view_diag *d = v->diag;

	if (d != NULL)
		return d;
	d = xcalloc(1, sizeof *d);
	d->n = v->nan;
	d->have = xcalloc(v->nan + 1, sizeof *d->have);
	d->f = xcalloc(v->nan + 1, sizeof *d->f);
	d->nf = xcalloc(v->nan + 1, sizeof *d->nf);
	v->diag = d;
	return d;
}

const struct finding *
view_diag_findings(struct view *v, size_t a, size_t *n)
{
	struct view_diag *d = diag(v);

	*n = 0;
	if (a >= d->n)
		return NULL;
	if (!d->have[a]) {
		/* compared traces are not ranks of one job: no straggler */
		d->nf[a] = findings_find(&v->an[a], v->compare ? NULL : v->xr, a,
		    &d->f[a]);
		d->have[a] = 1;
	}
	*n = d->nf[a];
	return d->f[a];
}

const struct finding *
view_diag_findings_known(const struct view *v, size_t a, size_t *n)
{
	const struct view_diag *d = v->diag;

	*n = 0;
	if (d == NULL || a >= d->n || !d->have[a])
		return NULL;
	*n = d->nf[a];
	return d->f[a];
}

const struct memory *
view_diag_memory(const struct view *v, size_t a)
{
	const struct view_diag *d = v->diag;

	if (!v->show_memory || d == NULL || !d->mem_built || a >= d->n)
		return NULL;
	return &d->mem[a];
}

const struct finding *
view_diag_selected(const struct view *v)
{
	const struct finding *f;
	size_t n;

	if (v->sel != SEL_FINDING || v->nan == 0)
		return NULL;
	f = view_diag_findings_known(v, v->rank, &n);
	if (f == NULL || v->sel_index < 0 || (size_t)v->sel_index >= n)
		return NULL;
	return &f[v->sel_index];
}

int
view_diag_range(const struct view *v, int64_t *a, int64_t *b, size_t *k)
{
	const struct finding *f = view_diag_selected(v);
	size_t r;

	if (f == NULL || f->nranges == 0)
		return 0;
	r = v->diag->range % f->nranges;
	*a = f->ranges[r].start_ns;
	*b = f->ranges[r].end_ns > *a ? f->ranges[r].end_ns : *a + 1;
	if (k != NULL)
		*k = r;
	return 1;
}

/* Zooms to the selected finding's current range, with a margin. */
static int
go(struct view *v)
{
	const struct finding *f = view_diag_selected(v);
	int64_t a, b, m;
	size_t k = 0;
	int ch;

	if (!view_diag_range(v, &a, &b, &k)) {
		if (f != NULL)
			snprintf(v->message, sizeof v->message, "%s: %.100s",
			    findings_kind_id(f->kind), f->summary);
		return VIEW_REPAINT;
	}
	m = (b - a) / 10;
	ch = view_set_window(v, a - m, b + m, 1);
	view_set_cursor(v, view_ns_col(v, a));
	snprintf(v->message, sizeof v->message, "finding %ld, range %zu of %zu: %.60s",
	    v->sel_index + 1, k + 1, f->nranges, f->summary);
	return ch | VIEW_REPAINT;
}

int
view_diag_next_finding(struct view *v)
{
	size_t n;

	if (v->nan == 0) {
		snprintf(v->message, sizeof v->message, "no trace");
		return VIEW_REPAINT;
	}
	view_diag_findings(v, v->rank, &n);
	if (n == 0) {
		snprintf(v->message, sizeof v->message, "no findings for this rank");
		return VIEW_REPAINT;
	}
	if (v->sel == SEL_FINDING && v->sel_index >= 0)
		v->sel_index = (v->sel_index + 1) % (long)n;
	else
		v->sel_index = 0;
	v->sel = SEL_FINDING;
	v->diag->range = 0;
	return go(v);
}

int
view_diag_zoom(struct view *v)
{
	const struct finding *f = view_diag_selected(v);

	if (f == NULL) {
		snprintf(v->message, sizeof v->message, "nothing selected");
		return VIEW_REPAINT;
	}
	v->diag->range = (v->diag->range + 1) % (f->nranges ? f->nranges : 1);
	return go(v);
}

int
view_diag_toggle_memory(struct view *v)
{
	struct view_diag *d = diag(v);

	if (!d->mem_built) {
		d->mem = xcalloc(d->n + 1, sizeof *d->mem);
		for (size_t i = 0; i < d->n; i++)
			memory_build(&d->mem[i], v->an[i].t, v->an[i].device);
		d->mem_built = 1;
	}
	v->show_memory = !v->show_memory;
	if (v->show_memory && v->nan > 0 && d->mem[v->rank].n == 0)
		snprintf(v->message, sizeof v->message,
		    "no [memory] events for this device (profile_memory=True records them)");
	return VIEW_REPAINT;
}

void
view_diag_free(struct view *v)
{
	struct view_diag *d = v->diag;

	if (d == NULL)
		return;
	for (size_t i = 0; i < d->n; i++) {
		free(d->f[i]);
		if (d->mem_built)
			memory_free(&d->mem[i]);
	}
	free(d->have);
	free(d->f);
	free(d->nf);
	free(d->mem);
	free(d);
	v->diag = NULL;
}
