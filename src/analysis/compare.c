#include "config.h"

#include "analysis/compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "model/trace.h"
#include "base/xalloc.h"

#define NO_SLOT SIZE_MAX

/* a + b, saturated: hostile traces can hold many huge layers. */
static int64_t
sat(int64_t a, int64_t b)
{
	if (b > 0 && a > INT64_MAX - b)
		return INT64_MAX;
	if (b < 0 && a < INT64_MIN - b)
		return INT64_MIN;
	return a + b;
}

/* A map from d->strs ids to an index, grown with the table. */
struct slots {
	size_t *at;
	size_t cap;
};

static size_t *
slot(struct slots *s, uint32_t id)
{
	if (id >= s->cap) {
		size_t old = s->cap, cap = old ? old : 64;

		while (cap <= id)
			cap *= 2;
		s->at = xreallocarray(s->at, cap, sizeof *s->at);
		for (size_t i = old; i < cap; i++)
			s->at[i] = NO_SLOT;
		s->cap = cap;
	}
	return &s->at[id];
}

static int
overlaps(const struct analysis *a, int64_t s, int64_t e)
{
	if (e == s)
		return s >= a->start_ns && s < a->end_ns;
	return s < a->end_ns && e > a->start_ns;
}

static void
measure(const struct analysis *a, int64_t s, int64_t e, struct compare_metrics *m)
{
	struct window_metrics w;

	metrics_window(&a->dev, s, e, &w);
	m->compute_ns = sat(m->compute_ns, w.compute_ns);
	m->comm_ns = sat(m->comm_ns, w.comm_ns);
	m->exposed_comm_ns = sat(m->exposed_comm_ns, w.exposed_comm_ns);
	m->idle_ns = sat(m->idle_ns, w.idle_ns);
}

static void
window_of(const struct analysis *a, struct compare_metrics *m)
{
	memset(m, 0, sizeof *m);
	if (a->device < 0 || !a->has_window)
		return;
	m->time_ns = a->end_ns - a->start_ns;
	m->compute_ns = a->m.compute_ns;
	m->comm_ns = a->m.comm_ns;
	m->exposed_comm_ns = a->m.exposed_comm_ns;
	m->idle_ns = a->m.idle_ns;
}

static int
step_listed(const struct analysis *a, const struct step *s)
{
	if (a->device < 0 || !a->has_window)
		return 0;
	return overlaps(a, s->start_ns, s->end_ns) ||
	    (s->has_gpu && overlaps(a, s->gpu_start_ns, s->gpu_end_ns));
}

static void
add_steps(struct compare *d, const struct analysis *a, int side)
{
	size_t k = 0;

	for (size_t i = 0; i < a->nsteps; i++) {
		const struct step *s = &a->steps[i];
		struct compare_step *p;
		struct compare_metrics *m;

		if (!step_listed(a, s))
			continue;
		if (k == d->nsteps) {
			d->steps = xreallocarray(d->steps, d->nsteps + 1, sizeof *d->steps);
			memset(&d->steps[d->nsteps], 0, sizeof *d->steps);
			d->steps[d->nsteps].index = d->nsteps;
			d->steps[d->nsteps].number_a = d->steps[d->nsteps].number_b = -1;
			d->nsteps++;
		}
		p = &d->steps[k++];
		m = side ? &p->b : &p->a;
		if (side)
			p->has_b = 1, p->number_b = s->number;
		else
			p->has_a = 1, p->number_a = s->number;
		m->time_ns = s->end_ns - s->start_ns;
		if (s->has_gpu)
			measure(a, s->gpu_start_ns, s->gpu_end_ns, m);
	}
}

/* A side of a step row, to pair by number. */
struct side_step {
	int64_t number;
	struct compare_metrics m;
};

static int
by_number(const void *x, const void *y)
{
	int64_t a = ((const struct side_step *)x)->number;
	int64_t b = ((const struct side_step *)y)->number;

	return (a > b) - (a < b);
}

/* Side side's steps of the rows, sorted by number; 0 if a number repeats. */
static int
side_steps(const struct compare *d, int side, struct side_step *out, size_t *n)
{
	*n = 0;
	for (size_t i = 0; i < d->nsteps; i++) {
		const struct compare_step *p = &d->steps[i];

		if (side ? !p->has_b : !p->has_a)
			continue;
		out[*n].number = side ? p->number_b : p->number_a;
		out[*n].m = side ? p->b : p->a;
		(*n)++;
	}
	qsort(out, *n, sizeof *out, by_number);
	for (size_t i = 1; i < *n; i++)
		if (out[i].number == out[i - 1].number)
			return 0;
	return 1;
}

/*
 * Pairs the step rows by step number when A and B have one in common and
 * neither repeats a number: one row per number of either side, in order.
 * Else they stay paired by position.
 */
static void
pair_by_number(struct compare *d)
{
	struct side_step *sa, *sb;
	struct compare_step *rows;
	size_t na, nb, i = 0, k = 0, n = 0;
	int common = 0;

	if (d->nsteps == 0)
		return;
	sa = xcalloc(d->nsteps, sizeof *sa);
	sb = xcalloc(d->nsteps, sizeof *sb);
	if (!side_steps(d, 0, sa, &na) || !side_steps(d, 1, sb, &nb))
		goto out;
	for (size_t x = 0, y = 0; x < na && y < nb && !common;) {
		if (sa[x].number == sb[y].number)
			common = 1;
		else if (sa[x].number < sb[y].number)
			x++;
		else
			y++;
	}
	if (!common)
		goto out;
	rows = xcalloc(na + nb, sizeof *rows);
	while (i < na || k < nb) {
		struct compare_step *p = &rows[n];
		int take_a = i < na && (k >= nb || sa[i].number <= sb[k].number);
		int take_b = k < nb && (i >= na || sb[k].number <= sa[i].number);

		p->index = n++;
		p->number_a = p->number_b = -1;
		if (take_a) {
			p->has_a = 1;
			p->number_a = sa[i].number;
			p->a = sa[i++].m;
		}
		if (take_b) {
			p->has_b = 1;
			p->number_b = sb[k].number;
			p->b = sb[k++].m;
		}
	}
	free(d->steps);
	d->steps = rows;
	d->nsteps = n;
	d->by_number = 1;
out:
	free(sa);
	free(sb);
}

static void
add_layers(struct compare *d, const struct analysis *a, int side,
    struct slots sl[3])
{
	const struct trace *t = a->t;

	if (a->device < 0 || !a->has_window)
		return;
	for (size_t i = 0; i < a->nlayers; i++) {
		const struct layer *l = &a->layers[i];
		const char *name = trace_str(t, l->name);
		struct compare_layer *p;
		struct compare_metrics *m;
		uint32_t id;
		size_t *at;

		if (l->has_gpu ? !overlaps(a, l->gpu_start_ns, l->gpu_end_ns) :
		    !overlaps(a, l->cpu_start_ns, l->cpu_end_ns))
			continue;
		id = strtab_intern(&d->strs, name, strlen(name));
		at = slot(&sl[l->phase], id);
		if (*at == NO_SLOT) {
			d->layers = xreallocarray(d->layers, d->nlayers + 1,
			    sizeof *d->layers);
			memset(&d->layers[d->nlayers], 0, sizeof *d->layers);
			d->layers[d->nlayers].name = id;
			d->layers[d->nlayers].phase = l->phase;
			*at = d->nlayers++;
		}
		p = &d->layers[*at];
		m = side ? &p->b : &p->a;
		if (side)
			p->count_b++;
		else
			p->count_a++;
		if (!l->has_gpu)
			continue;
		m->time_ns = sat(m->time_ns, l->gpu_end_ns - l->gpu_start_ns);
		m->own_exposed_comm_ns = sat(m->own_exposed_comm_ns,
		    l->own_exposed_comm_ns);
		measure(a, l->gpu_start_ns, l->gpu_end_ns, m);
	}
}

static void
add_kernels(struct compare *d, const struct analysis *a, int side,
    struct slots *sl)
{
	const struct trace *t = a->t;

	if (a->device < 0 || !a->has_window)
		return;
	for (size_t i = 0; i < a->dev.nacts; i++) {
		const struct event *e = &t->events[a->dev.acts[i]];
		int64_t s = e->ts_ns, x = event_end(e);
		const char *name;
		struct compare_kernel *k;
		uint32_t id;
		size_t *at;

		if (!overlaps(a, s, x))
			continue;
		s = s < a->start_ns ? a->start_ns : s;
		x = x > a->end_ns ? a->end_ns : x;
		name = trace_str(t, e->name);
		id = strtab_intern(&d->strs, name, strlen(name));
		at = slot(sl, id);
		if (*at == NO_SLOT) {
			d->kernels = xreallocarray(d->kernels, d->nkernels + 1,
			    sizeof *d->kernels);
			memset(&d->kernels[d->nkernels], 0, sizeof *d->kernels);
			d->kernels[d->nkernels].name = id;
			d->kernels[d->nkernels].cls = e->cls;
			*at = d->nkernels++;
		}
		k = &d->kernels[*at];
		if (side) {
			k->count_b++;
			k->total_b_ns = sat(k->total_b_ns, x > s ? x - s : 0);
		} else {
			k->count_a++;
			k->total_a_ns = sat(k->total_a_ns, x > s ? x - s : 0);
		}
	}
}

static const struct strtab *sort_strs;

static int
by_change(const void *pa, const void *pb)
{
	const struct compare_kernel *a = pa, *b = pb;
	int64_t da = a->total_b_ns - a->total_a_ns, db = b->total_b_ns - b->total_a_ns;

	da = da < 0 ? -da : da;
	db = db < 0 ? -db : db;
	if (da != db)
		return da > db ? -1 : 1;
	return strcmp(strtab_get(sort_strs, a->name), strtab_get(sort_strs, b->name));
}

static int
by_kernel_name(const void *x, const void *y)
{
	const struct compare_kernel *const *a = x, *const *b = y;

	return strcmp(strtab_get(sort_strs, (*a)->name), strtab_get(sort_strs, (*b)->name));
}

/* d->by_name and each kernel's place in it. */
static void
sort_by_name(struct compare *d)
{
	struct compare_kernel **by = xcalloc(d->nkernels ? d->nkernels : 1, sizeof *by);

	for (size_t i = 0; i < d->nkernels; i++)
		by[i] = &d->kernels[i];
	if (d->nkernels > 1)
		qsort(by, d->nkernels, sizeof *by, by_kernel_name);
	d->by_name = xcalloc(d->nkernels ? d->nkernels : 1, sizeof *d->by_name);
	for (size_t i = 0; i < d->nkernels; i++) {
		d->by_name[i] = (size_t)(by[i] - d->kernels);
		by[i]->name_pos = i;
	}
	free(by);
}

size_t
compare_kernel_neighbours(const struct compare *d, size_t k, size_t *out, size_t cap)
{
	size_t pos = d->kernels[k].name_pos, n = 0;

	for (size_t off = 1; n < cap && (off <= pos || pos + off < d->nkernels); off++) {
		if (off <= pos)
			out[n++] = d->by_name[pos - off];
		if (n < cap && pos + off < d->nkernels)
			out[n++] = d->by_name[pos + off];
	}
	return n;
}

void
compare_build(struct compare *d, const struct analysis *a, const struct analysis *b,
    enum compare_pairing pairing)
{
	struct slots ls[3], ks;

	memset(d, 0, sizeof *d);
	memset(ls, 0, sizeof ls);
	memset(&ks, 0, sizeof ks);
	strtab_init(&d->strs);
	window_of(a, &d->wa);
	window_of(b, &d->wb);
	add_steps(d, a, 0);
	add_steps(d, b, 1);
	if (pairing == COMPARE_BY_NUMBER)
		pair_by_number(d);
	add_layers(d, a, 0, ls);
	add_layers(d, b, 1, ls);
	add_kernels(d, a, 0, &ks);
	add_kernels(d, b, 1, &ks);
	sort_strs = &d->strs;
	if (d->nkernels > 1)
		qsort(d->kernels, d->nkernels, sizeof *d->kernels, by_change);
	sort_by_name(d);
	sort_strs = NULL;
	for (int i = 0; i < 3; i++)
		free(ls[i].at);
	free(ks.at);
}

static int64_t
reference(const struct analysis *a)
{
	if (a->nsteps > 0)
		return a->steps[0].start_ns;
	if (a->device >= 0 && a->dev.nacts > 0)
		return a->dev.first_ns;
	return a->t->start_ns;
}

void
compare_keep_step(struct compare *d, int64_t number_a, int64_t number_b)
{
	struct compare_step row;

	memset(&row, 0, sizeof row);
	row.number_a = row.number_b = -1;
	for (size_t i = 0; i < d->nsteps; i++) {
		const struct compare_step *p = &d->steps[i];

		if (p->has_a && p->number_a == number_a && !row.has_a) {
			row.has_a = 1;
			row.number_a = number_a;
			row.a = p->a;
		}
		if (p->has_b && p->number_b == number_b && !row.has_b) {
			row.has_b = 1;
			row.number_b = number_b;
			row.b = p->b;
		}
	}
	if (d->nsteps == 0)
		d->steps = xcalloc(1, sizeof *d->steps);
	d->steps[0] = row;
	d->nsteps = 1;
	d->by_number = 0;
}

int64_t
compare_align_offset(const struct analysis *a, const struct analysis *b)
{
	return reference(a) - reference(b);
}

void
compare_free(struct compare *d)
{
	if (d == NULL)
		return;
	free(d->steps);
	free(d->layers);
	free(d->kernels);
	free(d->by_name);
	strtab_free(&d->strs);
	memset(d, 0, sizeof *d);
}

void
compare_unlike(const struct analysis *a, const struct analysis *b, char *buf,
    size_t n)
{
	size_t l = 0;

	if (n == 0)
		return;
	buf[0] = '\0';
	if (strcmp(a->dev.name ? a->dev.name : "", b->dev.name ? b->dev.name : "") != 0)
		l += (size_t)snprintf(buf + l, n - l, "GPU %s vs %s; ",
		    a->dev.name && *a->dev.name ? a->dev.name : "unknown",
		    b->dev.name && *b->dev.name ? b->dev.name : "unknown");
	if (l < n && a->t->world_size != b->t->world_size)
		l += (size_t)snprintf(buf + l, n - l, "world size %lld vs %lld; ",
		    (long long)a->t->world_size, (long long)b->t->world_size);
	if (l < n && a->nsteps != b->nsteps)
		l += (size_t)snprintf(buf + l, n - l, "%zu vs %zu steps; ",
		    a->nsteps, b->nsteps);
	if (l >= 2 && l < n)
		buf[l - 2] = '\0';     /* the last "; " */
}

void
compare_verdict(const struct compare *d, struct compare_verdict *v)
{
	memset(v, 0, sizeof *v);
	for (size_t i = 0; i < d->nsteps; i++)
		if (d->steps[i].has_a && d->steps[i].has_b) {
			v->a_ns += d->steps[i].a.time_ns;
			v->b_ns += d->steps[i].b.time_ns;
			v->steps++;
		}
	if (v->steps == 0) {
		v->a_ns = d->wa.time_ns;
		v->b_ns = d->wb.time_ns;
	}
	if (v->a_ns > 0)
		v->change_pct = 100.0 * (double)(v->b_ns - v->a_ns) / (double)v->a_ns;
}
