#include "config.h"

#include "analysis/metrics.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/itree.h"
#include "base/ivset.h"
#include "model/trace.h"
#include "base/xalloc.h"

/* Saturating int64 helpers: windows may reach INT64_MIN .. INT64_MAX. */

/* b - a for a <= b, INT64_MAX when it does not fit. */
static inline int64_t
span_ns(int64_t a, int64_t b)
{
	uint64_t d = (uint64_t)b - (uint64_t)a;

	return d > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)d;
}

/* x + y for x, y >= 0, INT64_MAX when it does not fit. */
static inline int64_t
sat_add(int64_t x, int64_t y)
{
	return x > INT64_MAX - y ? INT64_MAX : x + y;
}

static inline int64_t
max64(int64_t x, int64_t y)
{
	return x > y ? x : y;
}

static inline int64_t
min64(int64_t x, int64_t y)
{
	return x < y ? x : y;
}

/* floor(log2(x)) for x >= 1. */
static inline int
log2_floor(size_t x)
{
	return 63 - __builtin_clzll((unsigned long long)x);
}

/*
 * Whether event e of track tr is an activity of the device: on a track
 * whose activity is all on one device, its args need not be read.
 */
static inline int
is_device_activity(const struct trace *t, const struct track *tr,
    const struct event *e, int32_t device)
{
	if (!event_is_activity(e))
		return 0;
	if (tr->flags & TRACK_ONE_DEVICE)
		return tr->device == device;
	return trace_event_device(t, e) == device;
}

size_t
metrics_devices(const struct trace *t, int32_t **out)
{
	size_t n = t->ndevices_seen < TRACE_MAX_DEVICES ? t->ndevices_seen :
	    TRACE_MAX_DEVICES;

	*out = NULL;
	if (n == 0)
		return 0;
	*out = xreallocarray(NULL, n, sizeof **out);
	memcpy(*out, t->devices_seen, n * sizeof **out);
	return n;
}

/* Whether activity x comes before y in d->acts: by ts_ns, then index. */
static inline int
act_before(const struct event *ev, uint32_t x, uint32_t y)
{
	if (ev[x].ts_ns != ev[y].ts_ns)
		return ev[x].ts_ns < ev[y].ts_ns;
	return x < y;
}

/*
 * Sorts a[0..n) whose runs a[bound[r] .. bound[r + 1]) (r < nruns) are each
 * sorted already, merging neighbouring runs: O(n log nruns).  bound has
 * nruns + 1 entries and is overwritten.
 */
static void
merge_runs(const struct event *ev, uint32_t *a, size_t n, size_t *bound,
    size_t nruns)
{
	uint32_t *tmp, *src = a, *dst;

	if (nruns <= 1)
		return;
	tmp = xreallocarray(NULL, n, sizeof *tmp);
	dst = tmp;
	while (nruns > 1) {
		size_t r, m = 0;

		for (r = 0; r + 1 < nruns; r += 2) {
			size_t i = bound[r], j = bound[r + 1], k = bound[r];
			size_t ie = bound[r + 1], je = bound[r + 2];

			while (i < ie && j < je)
				dst[k++] = act_before(ev, src[j], src[i]) ?
				    src[j++] : src[i++];
			while (i < ie)
				dst[k++] = src[i++];
			while (j < je)
				dst[k++] = src[j++];
			bound[m++] = bound[r];
		}
		if (r < nruns) {        /* an odd run out: copied as is */
			memcpy(&dst[bound[r]], &src[bound[r]],
			    (bound[r + 1] - bound[r]) * sizeof *src);
			bound[m++] = bound[r];
		}
		bound[m] = n;
		nruns = m;
		{
			uint32_t *swap = src;

			src = dst;
			dst = swap;
		}
	}
	if (src != a)
		memcpy(a, src, n * sizeof *a);
	free(tmp);
}

/*
 * Fills d->launch_ns.  The launch calls lie scattered among millions of CPU
 * events, a cache miss each: they are fetched some way ahead, so that
 * many misses are in flight at once (several times faster than in turn).
 */
static void
launches_read(struct metrics *d)
{
	enum { AHEAD = 16 };
	const struct event *ev = d->t->events;
	const uint32_t *a = d->acts;

	d->launch_ns = xreallocarray(NULL, d->nacts ? d->nacts : 1,
	    sizeof *d->launch_ns);
	for (size_t i = 0; i < d->nacts; i++) {
		uint32_t link = ev[a[i]].link;

		if (i + AHEAD < d->nacts && ev[a[i + AHEAD]].link != EV_NONE)
			__builtin_prefetch(&ev[ev[a[i + AHEAD]].link].ts_ns);
		d->launch_ns[i] = link == EV_NONE ? METRICS_UNLINKED :
		    ev[link].ts_ns;
	}
}

/*
 * Gathers the device's activities into d->acts (sorted by ts_ns, then index)
 * and the tracks holding them into d->tracks.
 */
static void
gather_acts(struct metrics *d)
{
	const struct trace *t = d->t;
	size_t n = 0, cap = 0, ncap = 0, *bound = NULL, nruns = 0, bcap = 0;

	for (size_t k = 0; k < t->ntracks; k++) {
		const struct track *tr = &t->tracks[k];
		size_t before = n;

		if (tr->activity == 0 || ((tr->flags & TRACK_ONE_DEVICE) &&
		    tr->device != d->device))
			continue;
		/* A track is sorted by ts_ns, its indices increase: one run. */
		for (uint32_t i = tr->first; i < tr->first + tr->count; i++) {
			if (!is_device_activity(t, tr, &t->events[i], d->device))
				continue;
			xgrow(&d->acts, &cap, n + 1, sizeof *d->acts);
			d->acts[n++] = i;
		}
		if (n == before)
			continue;
		xgrow(&d->tracks, &ncap, d->ntracks + 1, sizeof *d->tracks);
		d->tracks[d->ntracks++] = (uint32_t)k;
		xgrow(&bound, &bcap, nruns + 2, sizeof *bound);
		bound[nruns++] = before;
	}
	d->nacts = n;
	if (nruns > 0) {
		bound[nruns] = n;
		merge_runs(t->events, d->acts, n, bound, nruns);
	}
	free(bound);
	launches_read(d);
}

/*
 * metrics_first_at() knowing that every activity before from starts
 * before ts_ns: galloping from there, O(log d) for an answer d places on
 * (the holes come in order, each search goes on from the last).
 */
static size_t
acts_lower_bound_from(const struct metrics *d, int64_t ts_ns, size_t from)
{
	const struct event *ev = d->t->events;
	size_t lo = from, hi = from, step = 1;

	while (hi < d->nacts && ev[d->acts[hi]].ts_ns < ts_ns) {
		lo = hi + 1;
		hi = d->nacts - hi > step ? hi + step : d->nacts;
		step *= 2;
	}
	return trace_lower_bound(d->t, d->acts, lo, hi, ts_ns);
}

/*
 * The kind of the hole [e, s): host wait when the launch call of the first
 * linked activity starting at s (in index order) started at or after e; else
 * kernel wait when short; else other.  *from: as for acts_lower_bound_from()
 * with s, and set to its answer.
 */
static uint8_t
hole_kind(const struct metrics *d, int64_t e, int64_t s, size_t *from)
{
	const struct event *ev = d->t->events;

	*from = acts_lower_bound_from(d, s, *from);
	for (size_t i = *from; i < d->nacts && ev[d->acts[i]].ts_ns == s; i++) {
		if (d->launch_ns[i] == METRICS_UNLINKED)
			continue;
		if (d->launch_ns[i] >= e)
			return IDLE_HOST_WAIT;
		break;
	}
	return span_ns(e, s) < METRICS_SHORT_WAIT_NS ? IDLE_KERNEL_WAIT :
	    IDLE_OTHER;
}

static inline int64_t
hole_len(const struct hole *h)
{
	return span_ns(h->start_ns, h->end_ns);
}

/* Of the gaps x <= y (indices into d->gaps), the longer; x on a tie. */
static inline uint32_t
gap_better(const struct metrics *d, uint32_t x, uint32_t y)
{
	return hole_len(&d->holes[d->gaps[x]]) >=
	    hole_len(&d->holes[d->gaps[y]]) ? x : y;
}

/* The index into d->gaps of the longest (earliest on a tie) of gaps[l .. r). */
static uint32_t
gap_argmax(const struct metrics *d, size_t l, size_t r)
{
	int k = log2_floor(r - l);

	return gap_better(d, d->gap_rmq[k][l],
	    d->gap_rmq[k][r - ((size_t)1 << k)]);
}

static void
build_holes(struct metrics *d)
{
	const struct ivset *all = &d->all;
	size_t gcap;

	d->nholes = all->n > 1 ? all->n - 1 : 0;
	d->holes = xreallocarray(NULL, d->nholes ? d->nholes : 1,
	    sizeof *d->holes);
	for (int k = 0; k < IDLE_KINDS; k++) {
		d->hole_prefix[k] = xreallocarray(NULL, d->nholes + 1,
		    sizeof *d->hole_prefix[k]);
		d->hole_prefix[k][0] = 0;
	}
	gcap = d->nholes ? d->nholes : 1;
	d->gaps = xreallocarray(NULL, gcap, sizeof *d->gaps);
	d->ngaps = 0;
	for (size_t i = 0, from = 0; i < d->nholes; i++) {
		struct hole *h = &d->holes[i];
		int64_t len;

		h->start_ns = all->end_ns[i];
		h->end_ns = all->start_ns[i + 1];
		h->kind = hole_kind(d, h->start_ns, h->end_ns, &from);
		len = hole_len(h);
		for (int k = 0; k < IDLE_KINDS; k++)
			d->hole_prefix[k][i + 1] = sat_add(d->hole_prefix[k][i],
			    h->kind == k ? len : 0);
		if (len >= d->min_gap_ns)
			d->gaps[d->ngaps++] = (uint32_t)i;
	}

	d->gap_prefix = xreallocarray(NULL, d->ngaps + 1,
	    sizeof *d->gap_prefix);
	d->gap_prefix[0] = 0;
	for (size_t i = 0; i < d->ngaps; i++)
		d->gap_prefix[i + 1] = sat_add(d->gap_prefix[i],
		    hole_len(&d->holes[d->gaps[i]]));

	/* The sparse table: level k answers ranges of length 2^k. */
	d->gap_rmq_levels = d->ngaps ? log2_floor(d->ngaps) + 1 : 0;
	d->gap_rmq = xcalloc(d->gap_rmq_levels ? (size_t)d->gap_rmq_levels : 1,
	    sizeof *d->gap_rmq);
	for (int k = 0; k < d->gap_rmq_levels; k++) {
		size_t w = (size_t)1 << k, cnt = d->ngaps - w + 1;
		uint32_t *row = xreallocarray(NULL, cnt, sizeof *row);

		for (size_t i = 0; i < cnt; i++)
			row[i] = k == 0 ? (uint32_t)i :
			    gap_better(d, d->gap_rmq[k - 1][i],
			    d->gap_rmq[k - 1][i + w / 2]);
		d->gap_rmq[k] = row;
	}
}

void
metrics_build(struct metrics *d, const struct trace *t, int32_t device,
    int64_t min_gap_ns)
{
	struct ivset *set[4];
	struct ivset_count count[4] = { { 0, 0 } };

	memset(d, 0, sizeof *d);
	d->t = t;
	d->device = device;
	d->name = NULL;
	for (size_t i = 0; i < t->ndevices && d->name == NULL; i++)
		if (t->devices[i].id == device)
			d->name = trace_str(t, t->devices[i].name);
	if (d->name == NULL)
		d->name = t->ndevices == 1 ? trace_str(t, t->devices[0].name) : "";
	d->nnames = t->strs.count;
	d->min_gap_ns = min_gap_ns > 0 ? min_gap_ns : 0;
	gather_acts(d);

	/* set[cls] per class, set[0] all: the acts come in start order */
	set[0] = &d->all;
	set[CLASS_COMPUTE] = &d->comp;
	set[CLASS_COMM] = &d->comm;
	set[CLASS_MEMORY] = &d->mem;
	/* each set the room it takes, no more (ivset_count_add()) */
	for (size_t i = 0; i < d->nacts; i++) {
		const struct event *e = &t->events[d->acts[i]];

		ivset_count_add(&count[0], e->ts_ns, event_end(e));
		if (e->cls >= CLASS_COMPUTE)
			ivset_count_add(&count[e->cls], e->ts_ns, event_end(e));
	}
	for (int c = 0; c < 4; c++)
		ivset_begin(set[c], count[c].n);
	for (size_t i = 0; i < d->nacts; i++) {
		const struct event *e = &t->events[d->acts[i]];

		if (i == 0 || e->ts_ns < d->first_ns)
			d->first_ns = e->ts_ns;
		if (i == 0 || event_end(e) > d->last_ns)
			d->last_ns = event_end(e);
		ivset_add(&d->all, e->ts_ns, event_end(e));
		if (e->cls >= CLASS_COMPUTE)
			ivset_add(set[e->cls], e->ts_ns, event_end(e));
	}
	for (int c = 0; c < 4; c++)
		ivset_end(set[c], count[c].n);
	ivset_subtract(&d->exposed, &d->comm, &d->comp);
	build_holes(d);
}

void
metrics_free(struct metrics *d)
{
	if (d == NULL)
		return;
	free(d->acts);
	free(d->launch_ns);
	free(d->tracks);
	ivset_free(&d->comp);
	ivset_free(&d->comm);
	ivset_free(&d->mem);
	ivset_free(&d->all);
	ivset_free(&d->exposed);
	free(d->holes);
	for (int k = 0; k < IDLE_KINDS; k++)
		free(d->hole_prefix[k]);
	free(d->gaps);
	free(d->gap_prefix);
	if (d->gap_rmq != NULL)
		for (int k = 0; k < d->gap_rmq_levels; k++)
			free(d->gap_rmq[k]);
	free(d->gap_rmq);
	memset(d, 0, sizeof *d);
}

/* The first index into d->gaps whose hole index is >= h. */
static size_t
gaps_lower_bound(const struct metrics *d, size_t h)
{
	size_t lo = 0, hi = d->ngaps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->gaps[mid] < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * A candidate for the top-K: a single gap (an edge segment, or a full gap
 * found as the maximum of its range), or a range gaps[l .. r) represented by
 * its longest gap m.
 */
struct cand {
	int64_t start_ns, dur_ns;
	size_t l, r;            /* the range; l == r for an edge segment */
	size_t m;
};

/* Whether x ranks before y: longer, then earlier. */
static inline int
cand_before(const struct cand *x, const struct cand *y)
{
	if (x->dur_ns != y->dur_ns)
		return x->dur_ns > y->dur_ns;
	return x->start_ns < y->start_ns;
}

/* A max-heap of candidates; small: at most 2 + 2K entries. */
struct cand_heap {
	struct cand v[2 + 2 * METRICS_TOP_K + 2];
	size_t n;
};

static void
heap_push(struct cand_heap *h, const struct cand *c)
{
	size_t i = h->n++;

	h->v[i] = *c;
	while (i > 0 && cand_before(&h->v[i], &h->v[(i - 1) / 2])) {
		struct cand tmp = h->v[i];

		h->v[i] = h->v[(i - 1) / 2];
		h->v[(i - 1) / 2] = tmp;
		i = (i - 1) / 2;
	}
}

static struct cand
heap_pop(struct cand_heap *h)
{
	struct cand top = h->v[0];
	size_t i = 0;

	h->v[0] = h->v[--h->n];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, best = i;

		if (l < h->n && cand_before(&h->v[l], &h->v[best]))
			best = l;
		if (r < h->n && cand_before(&h->v[r], &h->v[best]))
			best = r;
		if (best == i)
			break;
		struct cand tmp = h->v[i];
		h->v[i] = h->v[best];
		h->v[best] = tmp;
		i = best;
	}
	return top;
}

/* Pushes the range gaps[l .. r) (if not empty) as one candidate. */
static void
push_range(const struct metrics *d, struct cand_heap *h, size_t l, size_t r)
{
	struct cand c;
	const struct hole *g;

	if (l >= r)
		return;
	c.l = l;
	c.r = r;
	c.m = gap_argmax(d, l, r);
	g = &d->holes[d->gaps[c.m]];
	c.start_ns = g->start_ns;
	c.dur_ns = hole_len(g);
	heap_push(h, &c);
}

void
metrics_window_sums(const struct metrics *d, int64_t a_ns, int64_t b_ns,
    struct window_metrics *m)
{
	memset(m, 0, sizeof *m);
	m->start_ns = a_ns;
	m->end_ns = b_ns;
	m->overlap_pct = -1;
	if (b_ns <= a_ns)
		return;
	m->busy_ns = ivset_measure(&d->all, a_ns, b_ns);
	m->idle_ns = span_ns(a_ns, b_ns) - m->busy_ns;
	m->compute_ns = ivset_measure(&d->comp, a_ns, b_ns);
	m->comm_ns = ivset_measure(&d->comm, a_ns, b_ns);
	m->memory_ns = ivset_measure(&d->mem, a_ns, b_ns);
	m->exposed_comm_ns = ivset_measure(&d->exposed, a_ns, b_ns);
	m->overlap_ns = m->comm_ns - m->exposed_comm_ns;
	if (m->comm_ns > 0)
		m->overlap_pct = 100.0 * (double)m->overlap_ns /
		    (double)m->comm_ns;
}

void
metrics_window(const struct metrics *d, int64_t a_ns, int64_t b_ns,
    struct window_metrics *m)
{
	const struct ivset *all = &d->all;
	size_t n = all->n, ja, jb, i, gl = 0, gr = 0;
	struct cand edge[2];
	size_t nedge = 0;
	struct cand_heap heap;

	metrics_window_sums(d, a_ns, b_ns, m);
	if (b_ns <= a_ns)
		return;

	/*
	 * The idle regions of the timeline: region j (0 <= j <= n) is
	 * [end[j-1], start[j]), with end[-1] = -inf and start[n] = +inf; for
	 * 1 <= j < n it is hole j - 1.  Region j meets W iff start[j] > a and
	 * end[j-1] < b, that is ja <= j <= jb.  Every region strictly between
	 * ja and jb lies inside W whole (ja < j gives end[j-1] > start[ja] > a,
	 * j < jb gives start[j] < end[j] < b), so only ja and jb can be cut.
	 */
	i = ivset_find(all, a_ns);
	ja = i < n && all->start_ns[i] <= a_ns ? i + 1 : i;
	jb = ivset_find(all, b_ns - 1);         /* first end >= b (b > a) */

	if (ja <= jb) {
		size_t js[2] = { ja, jb };

		for (int e = 0; e < (ja == jb ? 1 : 2); e++) {
			size_t j = js[e];
			int64_t lo = j == 0 ? a_ns :
			    max64(a_ns, all->end_ns[j - 1]);
			int64_t hi = j == n ? b_ns :
			    min64(b_ns, all->start_ns[j]);
			int64_t len = span_ns(lo, hi);  /* > 0: it meets W */
			int kind = j == 0 || j == n ? IDLE_OTHER :
			    d->holes[j - 1].kind;
			struct cand *c = &edge[nedge];

			m->idle_by_kind_ns[kind] =
			    sat_add(m->idle_by_kind_ns[kind], len);
			if (len < d->min_gap_ns)
				continue;
			c->start_ns = lo;
			c->dur_ns = len;
			c->l = c->r = c->m = 0;
			nedge++;
		}
	}
	if (jb >= ja + 2) {
		/* Full holes: regions ja+1 .. jb-1, holes ja .. jb-2. */
		size_t h0 = ja, h1 = jb - 1;

		for (int k = 0; k < IDLE_KINDS; k++)
			m->idle_by_kind_ns[k] = sat_add(m->idle_by_kind_ns[k],
			    d->hole_prefix[k][h1] - d->hole_prefix[k][h0]);
		gl = gaps_lower_bound(d, h0);
		gr = gaps_lower_bound(d, h1);
		m->gap_count = gr - gl;
		m->gap_total_ns = d->gap_prefix[gr] - d->gap_prefix[gl];
	}
	for (size_t e = 0; e < nedge; e++) {
		m->gap_count++;
		m->gap_total_ns = sat_add(m->gap_total_ns, edge[e].dur_ns);
	}

	/* Top-K: the edges and the full range, split around each maximum. */
	heap.n = 0;
	for (size_t e = 0; e < nedge; e++)
		heap_push(&heap, &edge[e]);
	push_range(d, &heap, gl, gr);
	while (m->ntop < METRICS_TOP_K && heap.n > 0) {
		struct cand c = heap_pop(&heap);

		m->top[m->ntop].start_ns = c.start_ns;
		m->top[m->ntop].dur_ns = c.dur_ns;
		m->ntop++;
		if (c.l < c.r) {
			push_range(d, &heap, c.l, c.m);
			push_range(d, &heap, c.m + 1, c.r);
		}
	}
}

static int
ktotal_cmp(const void *pa, const void *pb)
{
	const struct kernel_total *a = pa, *b = pb;

	if (a->total_ns != b->total_ns)
		return a->total_ns > b->total_ns ? -1 : 1;
	if (a->name != b->name)
		return a->name < b->name ? -1 : 1;
	return (a->cls > b->cls) - (a->cls < b->cls);
}

size_t
metrics_top_kernels(const struct metrics *d, int64_t a_ns, int64_t b_ns,
    struct kernel_total *out, size_t k)
{
	const struct trace *t = d->t;
	uint32_t *hit = NULL, *slot;
	size_t nhit = 0, hcap = 0, ntot = 0, totcap = 0;
	size_t nslots = (size_t)d->nnames * 4;  /* (name, class) keys */
	struct kernel_total *tot = NULL;

	if (k == 0 || b_ns <= a_ns || d->ntracks == 0)
		return 0;
	/* Group by (name, class) in O(1) each: no sort of the m activities. */
	slot = xmalloc(nslots * sizeof *slot);
	memset(slot, 0xff, nslots * sizeof *slot);
	for (size_t ti = 0; ti < d->ntracks; ti++) {
		const struct track *tr = &t->tracks[d->tracks[ti]];
		const struct event *ev = &t->events[tr->first];

		nhit = 0;
		itree_overlap(&tr->index, ev, a_ns, b_ns, &hit, &nhit, &hcap);
		for (size_t i = 0; i < nhit; i++) {
			const struct event *e = &ev[hit[i]];
			size_t key = (size_t)e->name * 4 + (e->cls & 3);
			int64_t lo, hi;

			if (!is_device_activity(t, tr, e, d->device))
				continue;
			if (slot[key] == UINT32_MAX) {
				xgrow(&tot, &totcap, ntot + 1, sizeof *tot);
				tot[ntot].name = e->name;
				tot[ntot].cls = e->cls;
				tot[ntot].count = 0;
				tot[ntot].total_ns = 0;
				slot[key] = (uint32_t)ntot++;
			}
			lo = max64(a_ns, e->ts_ns);
			hi = min64(b_ns, event_end(e));
			tot[slot[key]].count++;
			tot[slot[key]].total_ns = sat_add(tot[slot[key]].total_ns,
			    hi > lo ? hi - lo : 0);
		}
	}
	free(hit);
	free(slot);
	if (ntot == 0) {
		free(tot);
		return 0;
	}
	qsort(tot, ntot, sizeof *tot, ktotal_cmp);
	if (k > ntot)
		k = ntot;
	memcpy(out, tot, k * sizeof *out);
	free(tot);
	return k;
}

/* ---- the kernel index ------------------------------------------------ */

void
metrics_kernel_index_build(struct kernel_index *ki, const struct metrics *d)
{
	const struct trace *t = d->t;
	size_t nslots = (size_t)d->nnames * 4, n = d->nacts;
	uint32_t *slot, *keyof, *fill;
	int64_t sum = 0;

	memset(ki, 0, sizeof *ki);
	ki->usable = 1;
	slot = xmalloc((nslots ? nslots : 1) * sizeof *slot);
	memset(slot, 0xff, (nslots ? nslots : 1) * sizeof *slot);
	keyof = xmalloc((n ? n : 1) * sizeof *keyof);
	/* keys in order of first appearance; counts into first[k + 1] */
	for (size_t i = 0; i < n; i++) {
		const struct event *e = &t->events[d->acts[i]];
		size_t key = (size_t)e->name * 4 + (e->cls & 3);

		if (slot[key] == UINT32_MAX)
			slot[key] = (uint32_t)ki->nkeys++;
		keyof[i] = slot[key];
	}
	free(slot);
	ki->first = xcalloc(ki->nkeys + 1, sizeof *ki->first);
	ki->name = xcalloc(ki->nkeys ? ki->nkeys : 1, sizeof *ki->name);
	ki->cls = xcalloc(ki->nkeys ? ki->nkeys : 1, sizeof *ki->cls);
	ki->maxdur = xcalloc(ki->nkeys ? ki->nkeys : 1, sizeof *ki->maxdur);
	for (size_t i = 0; i < n; i++) {
		const struct event *e = &t->events[d->acts[i]];
		uint32_t k = keyof[i];

		ki->first[k + 1]++;
		ki->name[k] = e->name;
		ki->cls[k] = e->cls;
		if (e->dur_ns > ki->maxdur[k])
			ki->maxdur[k] = e->dur_ns;
	}
	for (size_t k = 0; k < ki->nkeys; k++)
		ki->first[k + 1] += ki->first[k];
	/* a stable counting sort keeps each key's activities by start */
	ki->order = xmalloc((n ? n : 1) * sizeof *ki->order);
	fill = xmalloc((ki->nkeys ? ki->nkeys : 1) * sizeof *fill);
	memcpy(fill, ki->first, ki->nkeys * sizeof *fill);
	for (size_t i = 0; i < n; i++)
		ki->order[fill[keyof[i]]++] = d->acts[i];
	free(fill);
	free(keyof);
	ki->prefix = xmalloc((n + 1) * sizeof *ki->prefix);
	ki->prefix[0] = 0;
	for (size_t i = 0; i < n; i++) {
		int64_t dur = t->events[ki->order[i]].dur_ns;

		if (dur > INT64_MAX - sum) {
			ki->usable = 0;         /* hostile durations: scan instead */
			dur = 0;
		}
		sum += dur;
		ki->prefix[i + 1] = sum;
	}
}

void
metrics_kernel_index_free(struct kernel_index *ki)
{
	free(ki->first);
	free(ki->name);
	free(ki->cls);
	free(ki->maxdur);
	free(ki->order);
	free(ki->prefix);
	memset(ki, 0, sizeof *ki);
}

size_t
metrics_top_kernels_indexed(const struct metrics *d,
    const struct kernel_index *ki, int64_t a_ns, int64_t b_ns,
    struct kernel_total *out, size_t k)
{
	size_t starting;

	if (k == 0 || b_ns <= a_ns || d->nacts == 0)
		return 0;
	/* few activities per key in the window: the scan is cheaper */
	starting = metrics_first_at(d, b_ns) - metrics_first_at(d, a_ns);
	if (!ki->usable || starting < 8 * ki->nkeys)
		return metrics_top_kernels(d, a_ns, b_ns, out, k);
	return metrics_top_kernels_by_index(d, ki, a_ns, b_ns, out, k);
}

size_t
metrics_top_kernels_by_index(const struct metrics *d,
    const struct kernel_index *ki, int64_t a_ns, int64_t b_ns,
    struct kernel_total *out, size_t k)
{
	const struct trace *t = d->t;
	struct kernel_total *tot;
	size_t ntot = 0;

	if (k == 0 || b_ns <= a_ns || ki->nkeys == 0)
		return 0;
	tot = xmalloc(ki->nkeys * sizeof *tot);
	for (size_t key = 0; key < ki->nkeys; key++) {
		size_t f = ki->first[key], l = ki->first[key + 1];
		size_t lo = trace_lower_bound(t, ki->order, f, l, a_ns);
		size_t hi = trace_lower_bound(t, ki->order, lo, l, b_ns);
		uint64_t reach = (uint64_t)ki->maxdur[key];
		uint64_t count = hi - lo;
		int64_t total = ki->prefix[hi] - ki->prefix[lo];

		/* those starting inside and ending after b: clip their ends */
		for (size_t i = hi; i > lo; i--) {
			const struct event *e = &t->events[ki->order[i - 1]];

			if ((uint64_t)b_ns - (uint64_t)e->ts_ns >= reach)
				break;
			if (event_end(e) > b_ns)
				total -= event_end(e) - b_ns;
		}
		/* those starting before a and ending after it */
		for (size_t i = lo; i > f; i--) {
			const struct event *e = &t->events[ki->order[i - 1]];

			if ((uint64_t)a_ns - (uint64_t)e->ts_ns >= reach)
				break;
			if (event_end(e) > a_ns) {
				count++;
				total += min64(b_ns, event_end(e)) - a_ns;
			}
		}
		if (count == 0)
			continue;
		tot[ntot].name = ki->name[key];
		tot[ntot].cls = ki->cls[key];
		tot[ntot].count = count;
		tot[ntot].total_ns = total;
		ntot++;
	}
	if (ntot > 0)
		qsort(tot, ntot, sizeof *tot, ktotal_cmp);
	if (k > ntot)
		k = ntot;
	if (k > 0)
		memcpy(out, tot, k * sizeof *out);
	free(tot);
	return k;
}
