#include "config.h"

#include "analysis/memory.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/steps.h"
#include "model/trace.h"
#include "base/xalloc.h"

/* A run of the list: its next position and its end. */
struct run {
	size_t at, end;
};

/* Whether run x's next sample comes before run y's: by time, then index. */
static int
run_before(const struct trace *t, const uint32_t *ev, const struct run *x,
    const struct run *y)
{
	const struct event *a = &t->events[ev[x->at]], *b = &t->events[ev[y->at]];

	if (a->ts_ns != b->ts_ns)
		return a->ts_ns < b->ts_ns;
	return ev[x->at] < ev[y->at];
}

static void
heap_down(const struct trace *t, const uint32_t *ev, struct run *h, size_t k,
    size_t i)
{
	for (;;) {
		size_t c = 2 * i + 1, m = i;
		struct run tmp;

		if (c < k && run_before(t, ev, &h[c], &h[m]))
			m = c;
		if (c + 1 < k && run_before(t, ev, &h[c + 1], &h[m]))
			m = c + 1;
		if (m == i)
			return;
		tmp = h[i], h[i] = h[m], h[m] = tmp;
		i = m;
	}
}

/*
 * The events of ev[0..n) (ascending, so track by track, each track's by
 * time) in time order, equal times in event order, one at a time
 * (merge_next()): a merge of the per-track runs, O(log k) each for k
 * tracks.
 */
struct merge {
	const struct trace *t;
	const uint32_t *ev;
	struct run *h;          /* a heap of the runs not yet exhausted */
	size_t k;
};

static void
merge_start(struct merge *g, const struct trace *t, const uint32_t *ev,
    size_t n)
{
	size_t cap = 0;

	memset(g, 0, sizeof *g);
	g->t = t;
	g->ev = ev;
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && t->events[ev[i]].track == t->events[ev[i - 1]].track)
			continue;
		if (g->k > 0)
			g->h[g->k - 1].end = i;
		xgrow(&g->h, &cap, g->k + 1, sizeof *g->h);
		g->h[g->k].at = i;
		g->h[g->k++].end = n;
	}
	for (size_t i = g->k; i-- > 0;)
		heap_down(t, ev, g->h, g->k, i);
}

/* The next event of the merge, or EV_NONE when none is left (freed then). */
static uint32_t
merge_next(struct merge *g)
{
	uint32_t i;

	if (g->k == 0) {
		free(g->h);
		g->h = NULL;
		return EV_NONE;
	}
	i = g->ev[g->h[0].at++];
	if (g->h[0].at == g->h[0].end)
		g->h[0] = g->h[--g->k];
	heap_down(g->t, g->ev, g->h, g->k, 0);
	return i;
}

/* Sample i of m. */
static struct mem_sample
sample(const struct memory *m, size_t i)
{
	struct arg_nums v = trace_nums(m->t, m->nums[i]);

	/* Total Reserved takes flops' place (load/event.c) */
	return (struct mem_sample){ m->ts_ns[i], v.value, v.flops };
}

void
memory_build(struct memory *m, const struct trace *t, int32_t device)
{
	size_t n = t->nlist[LIST_MEMORY];
	struct merge g;
	uint32_t i;

	memset(m, 0, sizeof *m);
	m->device = device;
	m->t = t;
	if (n == 0)
		return;
	/* in time order, the samples need no sort (nor its copy of them) */
	m->ts_ns = xreallocarray(NULL, n, sizeof *m->ts_ns);
	m->nums = xreallocarray(NULL, n, sizeof *m->nums);
	merge_start(&g, t, t->lists[LIST_MEMORY], n);
	while ((i = merge_next(&g)) != EV_NONE) {
		const struct event *e = &t->events[i];
		struct event_args a_buf;
		const struct event_args *a;

		if (!(e->flags & EVF_INSTANT) ||
		    (a = trace_args(t, e, &a_buf)) == NULL)
			continue;
		if (a->device != device)
			continue;
		m->ts_ns[m->n] = e->ts_ns;
		m->nums[m->n++] = a->nums;
	}
	for (size_t k = 0; k < m->n; k++) {
		struct mem_sample x = sample(m, k);

		if (x.allocated > m->peak_allocated)
			m->peak_allocated = x.allocated;
		if (x.reserved > m->peak_reserved)
			m->peak_reserved = x.reserved;
	}
}

void
memory_free(struct memory *m)
{
	if (m == NULL)
		return;
	free(m->ts_ns);
	free(m->nums);
	memset(m, 0, sizeof *m);
}

/* Returns the number of samples with ts_ns <= t_ns. */
static size_t
upto(const struct memory *m, int64_t t_ns)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->ts_ns[mid] <= t_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int
memory_at(const struct memory *m, int64_t ts_ns, struct mem_sample *out)
{
	size_t k = upto(m, ts_ns);

	if (k == 0)
		return 0;
	*out = sample(m, k - 1);
	return 1;
}

int
memory_peak(const struct memory *m, int64_t a_ns, int64_t b_ns,
    double *alloc, double *reserved)
{
	size_t k, i;
	int any = 0;

	*alloc = *reserved = 0;
	if (b_ns <= a_ns || m->n == 0)
		return 0;
	k = upto(m, a_ns);
	i = k > 0 ? k - 1 : 0;  /* the sample in effect at a_ns, if any */
	for (; i < m->n && m->ts_ns[i] < b_ns; i++) {
		struct mem_sample x = sample(m, i);

		if (!any || x.allocated > *alloc)
			*alloc = x.allocated;
		if (!any || x.reserved > *reserved)
			*reserved = x.reserved;
		any = 1;
	}
	return any;
}

size_t
memory_steps(const struct memory *m, const struct trace *t,
    const struct step *s, size_t n, struct mem_step **out)
{
	struct mem_step *ms;
	const uint32_t *calls = t->lists[LIST_ALLOC_CALLS];
	size_t ncalls = t->nlist[LIST_ALLOC_CALLS];

	*out = NULL;
	if (n == 0)
		return 0;
	ms = xcalloc(n, sizeof *ms);
	for (size_t i = 0; i < n; i++) {
		struct mem_step *p = &ms[i];
		struct mem_sample x;
		size_t k, j;

		p->number = s[i].number;
		p->start_ns = s[i].start_ns;
		p->end_ns = s[i].end_ns;
		if (p->end_ns <= p->start_ns || m->n == 0)
			continue;
		k = upto(m, p->start_ns);
		j = k > 0 ? k - 1 : 0;
		for (; j < m->n && m->ts_ns[j] < p->end_ns; j++) {
			const struct mem_sample y = sample(m, j), *q = &y;

			if (!p->has_samples) {
				p->min_allocated = p->peak_allocated = q->allocated;
				p->peak_reserved = q->reserved;
				p->has_samples = 1;
				continue;
			}
			if (q->allocated > p->peak_allocated)
				p->peak_allocated = q->allocated;
			if (q->allocated < p->min_allocated)
				p->min_allocated = q->allocated;
			if (q->reserved > p->peak_reserved)
				p->peak_reserved = q->reserved;
		}
		if (memory_at(m, p->start_ns, &x))
			p->start_allocated = x.allocated;
		if (memory_at(m, p->end_ns - 1, &x))
			p->end_allocated = x.allocated;
	}
	for (size_t j = 0; j < ncalls; j++) {
		const struct event *e = &t->events[calls[j]];
		long k;

		k = steps_at(s, n, e->ts_ns);
		if (k < 0 || e->ts_ns >= s[k].end_ns)
			continue;
		if (e->flags & EVF_FREE_CALL)
			ms[k].frees++;
		else
			ms[k].mallocs++;
		if (ms[k].alloc_call_ns <= INT64_MAX - e->dur_ns)
			ms[k].alloc_call_ns += e->dur_ns;
		if ((size_t)k >= MEMORY_WARMUP_STEPS)
			ms[k].churn = 1;
	}
	*out = ms;
	return n;
}
