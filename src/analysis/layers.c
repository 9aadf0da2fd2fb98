#include "config.h"

#include "analysis/layers.h"

#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/pattern.h"
#include "base/ivset.h"
#include "base/job.h"
#include "base/pattern.h"
#include "analysis/fsdp_hook.h"
#include "analysis/metrics.h"
#include "base/runsort.h"
#include "analysis/steps.h"
#include "base/strtab.h"
#include "model/trace.h"
#include "base/xalloc.h"

/*
 * How it works.  The device's activities are put once in launch-time order
 * (the start of their launch call; their own start when the device has no
 * linked activity at all), with a segment tree of their starts (min) and
 * ends (max) on top: a layer's GPU extent is then two binary searches and
 * one O(log n) range query, however layers nest.  The collectives get a
 * second, smaller launch-ordered array for the span-based own collectives.
 * FSDP2 own collectives go the other way round: each collective's launch
 * call finds its innermost FSDP hook annotation (binary search among the
 * hook annotations, then up their parents), whose fqn and start find the
 * layer (binary search among that fqn's layers).
 */

#define NAME_UNKNOWN UINT32_MAX         /* name cache: not looked at yet */
#define NAME_NO (UINT32_MAX - 1)        /* name cache: not one of ours */
#define NONE UINT32_MAX

/*
 * Activities sorted by key (the start of their launch call, their own
 * start if unlinked), then start, then end: their positions in d->acts,
 * 4 bytes a key (the key is d->launch_ns's, start and end the event's,
 * where a copy of the three took 24 bytes: fresh memory at the analysis'
 * peak).  With an optional min-start / max-end tree over blocks of
 * LAUNCH_BLOCK keys: a bottom-up segment tree whose leaves nb..2nb-1 are
 * the blocks' extents and whose inner nodes are 1..nb-1.  A query scans
 * the keys of the blocks at its two ends and asks the tree for the whole
 * blocks between.
 */
#define LAUNCH_BLOCK 64

struct launch_index {
	const struct trace *t;
	const struct metrics *d;
	int linked;             /* keys are launch times */
	size_t n;
	uint32_t *pos;          /* n positions in d->acts, by key */
	size_t nb;              /* blocks: ceil(n / LAUNCH_BLOCK); 0 if no tree */
	int64_t *tmin, *tmax;   /* 2 nb entries (0 unused); NULL if no tree */
};

struct ctx {
	const struct metrics *d;
	const struct trace *t;
	struct strtab *strs;    /* t's, for interning the layer names */
	const struct step *steps;
	size_t nsteps;
	uint32_t nnames;        /* strings in the table before we added any */
	int linked;             /* some activity of the device has a launch */
	struct layer *l;
	size_t n, cap;
};

static int64_t
min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

static int64_t
max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/* qsort(), which must not be given a NULL base, even for no elements. */
static void
sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

static uint32_t
intern(struct ctx *c, const char *s, size_t len)
{
	return strtab_intern(c->strs, s, len);
}

static long
step_index(const struct ctx *c, int64_t ts_ns)
{
	return steps_at(c->steps, c->nsteps, ts_ns);
}

static struct layer *
add_layer(struct ctx *c, uint32_t name, enum layer_phase phase,
    enum layer_source source, int64_t start_ns, int64_t end_ns)
{
	struct layer *l;

	xgrow(&c->l, &c->cap, c->n + 1, sizeof *c->l);
	l = &c->l[c->n++];
	memset(l, 0, sizeof *l);
	l->name = name;
	l->phase = phase;
	l->source = source;
	l->step = -1;
	l->cpu_start_ns = start_ns;
	l->cpu_end_ns = max64(start_ns, end_ns);
	return l;
}

/*
 * The CPU slices (not instants) whose names pass test, the events layers
 * come from, in index order (so track by track, each by start): returns
 * how many and sets *out (malloc'd, NULL when none).
 */
static size_t
cpu_slices_named(const struct ctx *c, int (*test)(const char *, const void *),
    const void *arg, uint32_t **out)
{
	const struct trace *t = c->t;
	size_t n = byname_select(&t->byname, &t->strs, test, arg, out), k = 0;

	for (size_t j = 0; j < n; j++) {
		const struct event *e = &t->events[(*out)[j]];

		trace_prefetch(t, *out, j, n);
		if (event_ph(e) == 'X' && t->tracks[e->track].kind == TRACK_CPU)
			(*out)[k++] = (*out)[j];
	}
	return k;
}

static uint32_t *
name_cache(const struct ctx *c)
{
	uint32_t *cache = xreallocarray(NULL, c->nnames, sizeof *cache);

	for (uint32_t i = 0; i < c->nnames; i++)
		cache[i] = NAME_UNKNOWN;
	return cache;
}

/* ------------------------------------------------------------------ */
/* The launch index. */

/* The activity at position p of d->acts. */
static const struct event *
act_event(const struct launch_index *x, uint32_t p)
{
	return &x->t->events[x->d->acts[p]];
}

/* The activity of x's key k. */
static const struct event *
key_event(const struct launch_index *x, size_t k)
{
	return act_event(x, x->pos[k]);
}

/* The key of d->acts[p]. */
static int64_t
key_at(const struct launch_index *x, uint32_t p)
{
	return x->linked ? x->d->launch_ns[p] : act_event(x, p)->ts_ns;
}

/* Key order (runsort_r(), ctx the index): key, then start, then end. */
static int
key_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct launch_index *x = ctx;
	uint32_t p = *(const uint32_t *)pa, q = *(const uint32_t *)pb;
	int64_t kp = key_at(x, p), kq = key_at(x, q);
	const struct event *a, *b;

	if (kp != kq)
		return kp < kq ? -1 : 1;
	a = act_event(x, p);
	b = act_event(x, q);
	if (a->ts_ns != b->ts_ns)
		return a->ts_ns < b->ts_ns ? -1 : 1;
	return event_end(a) < event_end(b) ? -1 : event_end(a) > event_end(b);
}

/* Whether activity e goes into the launch index (see launch_index_build). */
static int
in_launch_index(const struct ctx *c, const struct event *e, int comm_only)
{
	if (comm_only && e->cls != CLASS_COMM)
		return 0;
	return !(c->linked && e->link == EV_NONE);
}

/* Widens [*lo, *hi] by the extents of keys [l, r) of x, one by one. */
static void
keys_extent(const struct launch_index *x, size_t l, size_t r, int64_t *lo,
    int64_t *hi)
{
	for (size_t k = l; k < r; k++) {
		const struct event *e = key_event(x, k);

		*lo = min64(*lo, e->ts_ns);
		*hi = max64(*hi, event_end(e));
	}
}

/*
 * Builds x from the device's activities (only its collectives when
 * comm_only): linked ones by launch time when c->linked, else all by their
 * own start.  With tree, also the min-start / max-end segment tree.
 *
 * The keys are gathered track by track: a stream runs its work in launch
 * order, so each track's keys come (nearly) sorted and runsort merges a few
 * runs.  key_cmp orders by every value a query reads (keys equal in all
 * three may come in either order), so the answers are the same in whatever
 * order the keys were gathered.
 */
static void
launch_index_build(struct launch_index *x, const struct ctx *c, int comm_only,
    int tree)
{
	const struct trace *t = c->t;
	const struct metrics *d = c->d;
	size_t *at = xcalloc(d->ntracks + 1, sizeof *at);

	memset(x, 0, sizeof *x);
	x->t = t;
	x->d = d;
	x->linked = c->linked;
	/* at[p + 1]: how many keys track p has; then where its run starts */
	for (size_t i = 0; i < d->nacts; i++) {
		const struct event *e = &t->events[d->acts[i]];

		if (in_launch_index(c, e, comm_only))
			at[metrics_track_pos(d, e->track) + 1]++;
	}
	for (size_t p = 0; p < d->ntracks; p++)
		at[p + 1] += at[p];
	x->n = at[d->ntracks];
	x->pos = xreallocarray(NULL, x->n ? x->n : 1, sizeof *x->pos);
	for (size_t i = 0; i < d->nacts; i++) {
		const struct event *e = &t->events[d->acts[i]];

		if (in_launch_index(c, e, comm_only))
			x->pos[at[metrics_track_pos(d, e->track)]++] = (uint32_t)i;
	}
	free(at);
	runsort_r(x->pos, x->n, sizeof *x->pos, key_cmp, x);
	if (!tree || x->n == 0)
		return;
	x->nb = (x->n + LAUNCH_BLOCK - 1) / LAUNCH_BLOCK;
	x->tmin = xreallocarray(NULL, 2 * x->nb, sizeof *x->tmin);
	x->tmax = xreallocarray(NULL, 2 * x->nb, sizeof *x->tmax);
	for (size_t b = 0; b < x->nb; b++) {
		size_t end = b + 1 < x->nb ? (b + 1) * LAUNCH_BLOCK : x->n;

		x->tmin[x->nb + b] = INT64_MAX;
		x->tmax[x->nb + b] = INT64_MIN;
		keys_extent(x, b * LAUNCH_BLOCK, end, &x->tmin[x->nb + b],
		    &x->tmax[x->nb + b]);
	}
	for (size_t i = x->nb - 1; i >= 1; i--) {
		x->tmin[i] = min64(x->tmin[2 * i], x->tmin[2 * i + 1]);
		x->tmax[i] = max64(x->tmax[2 * i], x->tmax[2 * i + 1]);
	}
}

static void
launch_index_free(struct launch_index *x)
{
	free(x->pos);
	free(x->tmin);
	free(x->tmax);
	memset(x, 0, sizeof *x);
}

/*
 * The first index whose key is >= ts_ns, knowing that every key before
 * from is < ts_ns: galloping from there, O(log d) for an answer d places
 * on (layers come by start, so each search starts where the last ended).
 */
static size_t
launch_lower_bound(const struct launch_index *x, int64_t ts_ns, size_t from)
{
	size_t lo = from, hi = from, step = 1;

	while (hi < x->n && key_at(x, x->pos[hi]) < ts_ns) {
		lo = hi + 1;
		hi = x->n - hi > step ? hi + step : x->n;
		step *= 2;
	}
	while (lo < hi) {       /* keys before lo are < ts_ns; key hi >= ts_ns or hi == n */
		size_t mid = lo + (hi - lo) / 2;

		if (key_at(x, x->pos[mid]) < ts_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The extent (first start, last end) of the activities launched in
 * [a_ns, b_ns); returns 0 if there are none.  *from: as for
 * launch_lower_bound() with a_ns, and set to its answer.  O(log n).
 */
static int
launch_extent(const struct launch_index *x, int64_t a_ns, int64_t b_ns,
    size_t *from, int64_t *start_ns, int64_t *end_ns)
{
	size_t l, r, lb, rb;
	int64_t lo = INT64_MAX, hi = INT64_MIN;

	if (x->n == 0)
		return 0;
	*from = launch_lower_bound(x, a_ns, *from);
	if (b_ns <= a_ns)
		return 0;
	l = *from;
	r = launch_lower_bound(x, b_ns, *from);
	if (l >= r)
		return 0;
	lb = l / LAUNCH_BLOCK + (l % LAUNCH_BLOCK != 0);   /* first whole block */
	rb = r / LAUNCH_BLOCK;                             /* past the last */
	if (lb >= rb) {
		keys_extent(x, l, r, &lo, &hi);
	} else {
		keys_extent(x, l, lb * LAUNCH_BLOCK, &lo, &hi);
		keys_extent(x, rb * LAUNCH_BLOCK, r, &lo, &hi);
		/* Bottom-up segment tree: blocks [lb, rb) over the leaves. */
		for (lb += x->nb, rb += x->nb; lb < rb; lb >>= 1, rb >>= 1) {
			if (lb & 1) {
				lo = min64(lo, x->tmin[lb]);
				hi = max64(hi, x->tmax[lb]);
				lb++;
			}
			if (rb & 1) {
				rb--;
				lo = min64(lo, x->tmin[rb]);
				hi = max64(hi, x->tmax[rb]);
			}
		}
	}
	*start_ns = lo;
	*end_ns = hi;
	return 1;
}

/* ------------------------------------------------------------------ */
/* Own collectives: |U_comm(own)| and |U_comm(own) \ U_comp|. */

struct own {
	uint32_t layer;
	int64_t start_ns, end_ns;
};

static int
own_cmp(const void *pa, const void *pb)
{
	const struct own *a = pa, *b = pb;

	if (a->layer != b->layer)
		return a->layer < b->layer ? -1 : 1;
	if (a->start_ns != b->start_ns)
		return a->start_ns < b->start_ns ? -1 : 1;
	return a->end_ns < b->end_ns ? -1 : a->end_ns > b->end_ns;
}

/*
 * Sums the union of each layer's own collectives, and the part of it that
 * no compute covers: the union is disjoint, so the exposed part is each
 * merged interval's length less the compute inside it (O(log n) each).
 */
static void
own_totals(struct ctx *c, struct own *o, size_t n)
{
	const struct ivset *comp = &c->d->comp;
	size_t i = 0;

	sort(o, n, sizeof *o, own_cmp);
	while (i < n) {
		struct layer *l = &c->l[o[i].layer];
		uint32_t id = o[i].layer;

		while (i < n && o[i].layer == id) {
			int64_t s = o[i].start_ns, e = o[i].end_ns;

			for (i++; i < n && o[i].layer == id &&
			    o[i].start_ns <= e; i++)
				e = max64(e, o[i].end_ns);
			if (e <= s)
				continue;
			l->own_comm_ns += e - s;
			l->own_exposed_comm_ns += e - s -
			    ivset_measure(comp, s, e);
		}
	}
}

/*
 * Own collectives: each is the innermost layer's (the shortest CPU span,
 * the later start on a tie) of those whose CPU span holds its launch, so
 * that own exposed time partitions the exposed time and a model-wide
 * layer (DistributedDataParallel, the root module) owns only what no layer
 * inside it launched.
 */
static void
own_by_span(struct ctx *c)
{
	struct launch_index x;
	struct own *o;
	uint32_t *best;
	size_t n = 0;

	launch_index_build(&x, c, 1, 0);
	best = xreallocarray(NULL, x.n > 0 ? x.n : 1, sizeof *best);
	for (size_t j = 0; j < x.n; j++)
		best[j] = UINT32_MAX;
	for (size_t i = 0, from = 0; i < c->n && x.n > 0; i++) {
		const struct layer *l = &c->l[i];
		size_t a = from = launch_lower_bound(&x, l->cpu_start_ns, from);
		size_t b = launch_lower_bound(&x, l->cpu_end_ns, a);
		int64_t len = l->cpu_end_ns - l->cpu_start_ns;

		for (size_t j = a; j < b; j++) {
			const struct layer *q = best[j] == UINT32_MAX ? NULL :
			    &c->l[best[j]];

			if (q == NULL || len < q->cpu_end_ns - q->cpu_start_ns ||
			    (len == q->cpu_end_ns - q->cpu_start_ns &&
			    l->cpu_start_ns > q->cpu_start_ns))
				best[j] = (uint32_t)i;
		}
	}
	o = xreallocarray(NULL, x.n > 0 ? x.n : 1, sizeof *o);
	for (size_t j = 0; j < x.n; j++)
		if (best[j] != UINT32_MAX) {
			o[n].layer = best[j];
			o[n].start_ns = key_event(&x, j)->ts_ns;
			o[n].end_ns = event_end(key_event(&x, j));
			n++;
		}
	own_totals(c, o, n);
	free(o);
	free(best);
	launch_index_free(&x);
}

/* ------------------------------------------------------------------ */
/* FSDP2: "FSDP::<hook> (<fqn>)" (fsdp_hook.h). */

/* A span hook of one fqn. */
struct rec {
	uint32_t fqn;           /* strtab id of the layer name */
	uint8_t hook;
	long step;              /* index into steps, -1 */
	int64_t ts_ns, end_ns;
	uint32_t ev;
};

static int
rec_cmp(const void *pa, const void *pb)
{
	const struct rec *a = pa, *b = pb;

	if (a->fqn != b->fqn)
		return a->fqn < b->fqn ? -1 : 1;
	if (a->ts_ns != b->ts_ns)
		return a->ts_ns < b->ts_ns ? -1 : 1;
	if (a->end_ns != b->end_ns)
		return a->end_ns > b->end_ns ? -1 : 1;
	return a->ev < b->ev ? -1 : a->ev > b->ev;
}

struct fsdp2 {
	uint32_t *hooks;        /* every hook annotation (with fqn), by index */
	size_t nhooks, hooks_cap;
	uint32_t *fqn;          /* name id -> layer name id */
	uint8_t *hook;          /* name id -> enum fsdp_hook */
};

/* The hook of an event name, and its layer name in *fqn; cached per name. */
static enum fsdp_hook
fsdp2_info(struct ctx *c, struct fsdp2 *f, uint32_t name, uint32_t *fqn)
{
	if (f->fqn[name] == NAME_UNKNOWN) {
		const char *q;
		size_t len;
		enum fsdp_hook h = fsdp_hook_parse(trace_str(c->t, name), &q, &len);

		f->hook[name] = (uint8_t)h;
		f->fqn[name] = h == FSDP_HOOK_NONE ? NAME_NO :
		    len == 0 ? intern(c, "(root)", 6) : intern(c, q, len);
	}
	*fqn = f->fqn[name];
	return (enum fsdp_hook)f->hook[name];
}

/*
 * Pairs the span hooks of each fqn into layers: forward from a pre_forward
 * to the next post_forward, backward from a pre_backward to the end of the
 * last post_backward_* before the next pre_backward.  A pair never crosses
 * a step boundary; a pre_* left unpaired is a layer of its own annotation.
 */
static void
fsdp2_pair(struct ctx *c, const struct rec *r, size_t n)
{
	size_t i = 0;

	while (i < n) {
		uint32_t fqn = r[i].fqn;
		const struct rec *fwd = NULL, *bwd = NULL;
		int64_t bwd_end = 0;

		for (; i < n && r[i].fqn == fqn; i++) {
			const struct rec *x = &r[i];

			if (fwd && fwd->step != x->step) {
				add_layer(c, fqn, LAYER_FORWARD, LAYER_FSDP2,
				    fwd->ts_ns, fwd->end_ns);
				fwd = NULL;
			}
			if (bwd && bwd->step != x->step) {
				add_layer(c, fqn, LAYER_BACKWARD, LAYER_FSDP2,
				    bwd->ts_ns, bwd_end);
				bwd = NULL;
			}
			switch (x->hook) {
			case FSDP_HOOK_PRE_FWD:
				if (fwd)
					add_layer(c, fqn, LAYER_FORWARD,
					    LAYER_FSDP2, fwd->ts_ns, fwd->end_ns);
				fwd = x;
				break;
			case FSDP_HOOK_POST_FWD:
				if (fwd)
					add_layer(c, fqn, LAYER_FORWARD,
					    LAYER_FSDP2, fwd->ts_ns,
					    max64(fwd->end_ns, x->end_ns));
				fwd = NULL;
				break;
			case FSDP_HOOK_PRE_BWD:
				if (bwd)
					add_layer(c, fqn, LAYER_BACKWARD,
					    LAYER_FSDP2, bwd->ts_ns, bwd_end);
				bwd = x;
				bwd_end = x->end_ns;
				break;
			case FSDP_HOOK_POST_BWD:
				if (bwd)
					bwd_end = max64(bwd_end, x->end_ns);
				break;
			default:
				break;
			}
		}
		if (fwd)
			add_layer(c, fqn, LAYER_FORWARD, LAYER_FSDP2, fwd->ts_ns,
			    fwd->end_ns);
		if (bwd)
			add_layer(c, fqn, LAYER_BACKWARD, LAYER_FSDP2, bwd->ts_ns,
			    bwd_end);
	}
}

static void
fsdp2_collect(struct ctx *c, struct fsdp2 *f)
{
	const struct trace *t = c->t;
	struct rec *r = NULL;
	uint32_t *sel;
	size_t n = 0, cap = 0, nsel = cpu_slices_named(c, byname_prefix, "FSDP::", &sel);

	f->fqn = name_cache(c);
	f->hook = xcalloc(c->nnames, sizeof *f->hook);
	for (size_t j = 0; j < nsel; j++) {
		uint32_t fqn, i = sel[j];
		const struct event *e = &t->events[i];
		enum fsdp_hook h;

		trace_prefetch(t, sel, j, nsel);
		h = fsdp2_info(c, f, e->name, &fqn);

		if (h == FSDP_HOOK_NONE)
			continue;
		xgrow(&f->hooks, &f->hooks_cap, f->nhooks + 1, sizeof *f->hooks);
		f->hooks[f->nhooks++] = i;
		if (h == FSDP_HOOK_OTHER)
			continue;
		xgrow(&r, &cap, n + 1, sizeof *r);
		r[n].fqn = fqn;
		r[n].hook = (uint8_t)h;
		r[n].step = step_index(c, e->ts_ns);
		r[n].ts_ns = e->ts_ns;
		r[n].end_ns = event_end(e);
		r[n].ev = i;
		n++;
	}
	free(sel);
	sort(r, n, sizeof *r, rec_cmp);
	fsdp2_pair(c, r, n);
	free(r);
}

/* A layer's place among the layers of its name, by CPU start. */
struct by_name {
	uint32_t name;
	uint32_t layer;
	int64_t start_ns, end_ns;
};

static int
by_name_cmp(const void *pa, const void *pb)
{
	const struct by_name *a = pa, *b = pb;

	if (a->name != b->name)
		return a->name < b->name ? -1 : 1;
	if (a->start_ns != b->start_ns)
		return a->start_ns < b->start_ns ? -1 : 1;
	return a->layer < b->layer ? -1 : a->layer > b->layer;
}

/*
 * The layer of fqn that an annotation starting at ts_ns belongs to: the one
 * whose CPU span holds ts_ns, else the next one of that fqn (a prefetched
 * all-gather runs before its layer starts), else the last one; NONE when
 * fqn has no layer.  bn[0..n) is sorted by (name, start).  O(log n).
 */
static uint32_t
fsdp2_owner(const struct by_name *bn, size_t n, uint32_t fqn, int64_t ts_ns)
{
	size_t lo = 0, hi = n, first;

	while (lo < hi) {       /* the first layer of fqn */
		size_t mid = lo + (hi - lo) / 2;

		if (bn[mid].name < fqn)
			lo = mid + 1;
		else
			hi = mid;
	}
	first = lo;
	hi = n;
	while (lo < hi) {       /* the first layer of fqn starting after ts_ns */
		size_t mid = lo + (hi - lo) / 2;

		if (bn[mid].name == fqn && bn[mid].start_ns <= ts_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > first && bn[lo - 1].end_ns > ts_ns)
		return bn[lo - 1].layer;        /* holds it */
	if (lo < n && bn[lo].name == fqn)
		return bn[lo].layer;            /* the next one */
	if (lo > first)
		return bn[lo - 1].layer;        /* the last one */
	return NONE;
}

/* A hook annotation, for the searches of fsdp2_own(). */
struct hook_key {
	int64_t ts_ns, end_ns;
	uint32_t track, name;
};

/*
 * FSDP2 own collectives: the collective's launch call lies in an FSDP hook
 * annotation of the layer's fqn (the innermost one holding it).
 */
static void
fsdp2_own(struct ctx *c, const struct fsdp2 *f)
{
	const struct trace *t = c->t;
	const struct metrics *d = c->d;
	uint32_t *parent, *stack;
	struct hook_key *hk;
	struct by_name *bn;
	size_t depth = 0;
	struct own *o = NULL;
	size_t n = 0, cap = 0;

	/*
	 * The hooks' keys, in index order (so by track, then start), and
	 * their parents among the hook annotations, per track.
	 */
	hk = xreallocarray(NULL, f->nhooks ? f->nhooks : 1, sizeof *hk);
	parent = xreallocarray(NULL, f->nhooks ? f->nhooks : 1, sizeof *parent);
	stack = xreallocarray(NULL, f->nhooks ? f->nhooks : 1, sizeof *stack);
	for (size_t k = 0; k < f->nhooks; k++) {
		const struct event *e = &t->events[f->hooks[k]];

		trace_prefetch(t, f->hooks, k, f->nhooks);
		hk[k].ts_ns = e->ts_ns;
		hk[k].end_ns = event_end(e);
		hk[k].track = e->track;
		hk[k].name = e->name;
		while (depth > 0) {
			const struct hook_key *top = &hk[stack[depth - 1]];

			if (top->track == e->track && top->end_ns > e->ts_ns)
				break;
			depth--;
		}
		parent[k] = depth > 0 ? stack[depth - 1] : NONE;
		stack[depth++] = (uint32_t)k;
	}
	free(stack);
	bn = xreallocarray(NULL, c->n, sizeof *bn);
	for (size_t i = 0; i < c->n; i++) {
		bn[i].name = c->l[i].name;
		bn[i].layer = (uint32_t)i;
		bn[i].start_ns = c->l[i].cpu_start_ns;
		bn[i].end_ns = c->l[i].cpu_end_ns;
	}
	sort(bn, c->n, sizeof *bn, by_name_cmp);
	/* the collectives (their launch call: one miss each) */
	for (size_t i = 0; i < d->nacts; i++) {
		const struct event *a = &t->events[d->acts[i]], *launch;
		size_t lo = 0, hi = f->nhooks;
		uint32_t k, layer;

		if (a->cls != CLASS_COMM || a->link == EV_NONE)
			continue;
		launch = &t->events[a->link];
		while (lo < hi) {       /* the last hook at or before the launch */
			size_t mid = lo + (hi - lo) / 2;
			const struct hook_key *m = &hk[mid];

			if (m->track < launch->track || (m->track == launch->track &&
			    m->ts_ns <= launch->ts_ns))
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == 0)
			continue;
		/*
		 * Up its parents to the innermost one still open at the launch
		 * (parents share the track).
		 */
		k = (uint32_t)(lo - 1);
		if (hk[k].track != launch->track)
			continue;
		while (k != NONE && hk[k].end_ns <= launch->ts_ns)
			k = parent[k];
		if (k == NONE)
			continue;
		layer = fsdp2_owner(bn, c->n, f->fqn[hk[k].name], hk[k].ts_ns);
		if (layer == NONE)
			continue;
		xgrow(&o, &cap, n + 1, sizeof *o);
		o[n].layer = layer;
		o[n].start_ns = a->ts_ns;
		o[n].end_ns = event_end(a);
		n++;
	}
	own_totals(c, o, n);
	free(o);
	free(bn);
	free(parent);
	free(hk);
}

static void
fsdp2_free(struct fsdp2 *f)
{
	free(f->hooks);
	free(f->fqn);
	free(f->hook);
	memset(f, 0, sizeof *f);
}

/* ------------------------------------------------------------------ */
/* FSDP1: "FullyShardedDataParallel.*". */

enum { F1_NONE = 0, F1_FORWARD, F1_PRE_BWD, F1_POST_BWD };

static int
ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

static int
fsdp1_kind(const char *name)
{
	static const char prefix[] = "FullyShardedDataParallel.";
	size_t len;

	if (strncmp(name, prefix, sizeof prefix - 1) != 0)
		return F1_NONE;
	if (strcmp(name + sizeof prefix - 1, "forward") == 0)
		return F1_FORWARD;
	len = strlen(name);
	if (ends_with(name, len, "pre_backward_hook"))
		return F1_PRE_BWD;
	if (ends_with(name, len, "post_backward_hook"))
		return F1_POST_BWD;
	return F1_NONE;
}

static int
rec_time_cmp(const void *pa, const void *pb)
{
	const struct rec *a = pa, *b = pb;

	if (a->ts_ns != b->ts_ns)
		return a->ts_ns < b->ts_ns ? -1 : 1;
	if (a->end_ns != b->end_ns)
		return a->end_ns > b->end_ns ? -1 : 1;
	return a->ev < b->ev ? -1 : a->ev > b->ev;
}

/*
 * FSDP1 names its units nowhere, so they are numbered per step: forwards by
 * start, backwards by end, latest first.  Where the backward mirrors the
 * forward (the usual nesting: root first, then the units in reverse order,
 * each post_backward_hook closing the latest open pre_backward_hook), a
 * unit's backward gets the number of its forward.
 */
struct f1_order {
	int64_t step;
	int phase;
	int64_t start_ns, end_ns;
	uint32_t layer;
};

static int
fsdp1_order_cmp(const void *pa, const void *pb)
{
	const struct f1_order *a = pa, *b = pb;

	if (a->step != b->step)
		return a->step < b->step ? -1 : 1;
	if (a->phase != b->phase)
		return a->phase < b->phase ? -1 : 1;
	if (a->phase == LAYER_FORWARD) {
		if (a->start_ns != b->start_ns)
			return a->start_ns < b->start_ns ? -1 : 1;
		if (a->end_ns != b->end_ns)
			return a->end_ns > b->end_ns ? -1 : 1;
	} else {
		if (a->end_ns != b->end_ns)
			return a->end_ns > b->end_ns ? -1 : 1;
		if (a->start_ns != b->start_ns)
			return a->start_ns < b->start_ns ? -1 : 1;
	}
	return a->layer < b->layer ? -1 : a->layer > b->layer;
}

static void
fsdp1_collect(struct ctx *c)
{
	const struct trace *t = c->t;
	uint32_t *kind = name_cache(c), *sel;
	struct f1_order *order;
	struct rec *r = NULL, **stack;
	size_t n = 0, cap = 0, depth = 0;
	size_t nsel = cpu_slices_named(c, byname_prefix, "FullyShardedDataParallel.", &sel);
	long stack_step = -1;

	for (size_t j = 0; j < nsel; j++) {
		uint32_t i = sel[j];
		const struct event *e = &t->events[i];

		if (kind[e->name] == NAME_UNKNOWN)
			kind[e->name] = (uint32_t)fsdp1_kind(trace_str(t, e->name));
		if (kind[e->name] == F1_NONE)
			continue;
		if (kind[e->name] == F1_FORWARD) {
			add_layer(c, 0, LAYER_FORWARD, LAYER_FSDP1, e->ts_ns,
			    event_end(e));
			continue;
		}
		xgrow(&r, &cap, n + 1, sizeof *r);
		r[n].fqn = 0;
		r[n].hook = (uint8_t)kind[e->name];
		r[n].step = step_index(c, e->ts_ns);
		r[n].ts_ns = e->ts_ns;
		r[n].end_ns = event_end(e);
		r[n].ev = i;
		n++;
	}
	free(sel);
	free(kind);

	/* Backward: each post_backward_hook closes the latest open pre. */
	sort(r, n, sizeof *r, rec_time_cmp);
	stack = xreallocarray(NULL, n, sizeof *stack);
	for (size_t i = 0; i <= n; i++) {
		if (depth > 0 && (i == n || r[i].step != stack_step)) {
			while (depth > 0) {     /* unpaired: their own span */
				const struct rec *p = stack[--depth];

				add_layer(c, 0, LAYER_BACKWARD, LAYER_FSDP1,
				    p->ts_ns, p->end_ns);
			}
		}
		if (i == n)
			break;
		if (r[i].hook == F1_PRE_BWD) {
			stack[depth++] = &r[i];
			stack_step = r[i].step;
		} else if (depth > 0) {
			const struct rec *p = stack[--depth];

			add_layer(c, 0, LAYER_BACKWARD, LAYER_FSDP1, p->ts_ns,
			    max64(p->end_ns, r[i].end_ns));
		}
	}
	free(stack);
	free(r);

	/* Names by occurrence within (step, phase). */
	order = xreallocarray(NULL, c->n, sizeof *order);
	for (size_t i = 0; i < c->n; i++) {
		long s = step_index(c, c->l[i].cpu_start_ns);

		order[i].step = s;      /* the index: steps may share a number */
		order[i].phase = (int)c->l[i].phase;
		order[i].start_ns = c->l[i].cpu_start_ns;
		order[i].end_ns = c->l[i].cpu_end_ns;
		order[i].layer = (uint32_t)i;
	}
	sort(order, c->n, sizeof *order, fsdp1_order_cmp);
	for (size_t i = 0, k = 0; i < c->n; i++) {
		struct layer *l = &c->l[order[i].layer];
		char buf[64];
		int len;

		if (i > 0 && (order[i - 1].step != order[i].step ||
		    order[i - 1].phase != order[i].phase))
			k = 0;
		len = snprintf(buf, sizeof buf, "FSDP unit %zu", k++);
		l->name = intern(c, buf, (size_t)len);
	}
	free(order);
}

/* ------------------------------------------------------------------ */
/* nn.Module and pattern layers. */

/* A module's forward span: what its backward is found from. */
struct mod_span {
	uint32_t track;
	int64_t start_ns, end_ns;
	uint32_t layer;         /* its forward layer */
	uint32_t parent;        /* the innermost span around it, or NONE */
	int64_t bwd_start, bwd_end;     /* INT64_MAX, INT64_MIN: none yet */
	uint32_t bwd_track;     /* the thread of its backward ops */
};

/* An autograd op: its sequence number, and its thread or forward thread. */
struct seq_op {
	int64_t seq;            /* "Sequence number" */
	uint32_t key;           /* forward ops: the track; backward: Fwd thread id */
	uint32_t ev;
};

static int
seq_op_cmp(const void *pa, const void *pb)
{
	const struct seq_op *a = pa, *b = pb;

	if (a->seq != b->seq)
		return a->seq < b->seq ? -1 : 1;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->ev < b->ev ? -1 : a->ev > b->ev;
}

/*
 * The end of the last work of track k that starts before ts_ns: the
 * outermost event there (nesting: it ends last), at least the end of the
 * events after it.
 */
static int64_t
last_work(const struct trace *t, uint32_t k, int64_t ts_ns)
{
	const struct track *tr = &t->tracks[k];
	uint32_t i = trace_track_lower_bound(t, tr, ts_ns);
	int64_t end = INT64_MIN;

	while (i > tr->first) {
		const struct event *e = &t->events[--i];

		end = max64(end, event_end(e));
		if (e->depth == 0)
			break;
	}
	return end;
}

static int
seq_op_ev_cmp(const void *pa, const void *pb)
{
	const struct seq_op *a = pa, *b = pb;

	return a->ev < b->ev ? -1 : a->ev > b->ev;
}

/* (Fwd thread id, track) pairs, counted to tell which track each id is. */
struct tid_pair {
	uint32_t tid, track;
};

static int
tid_pair_cmp(const void *pa, const void *pb)
{
	const struct tid_pair *a = pa, *b = pb;

	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return a->track < b->track ? -1 : a->track > b->track;
}

/* The first forward op of f[0..n) with seq s on track (n if none). */
static size_t
seq_find(const struct seq_op *f, size_t n, int64_t s, uint32_t track)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f[mid].seq < s || (f[mid].seq == s && f[mid].key < track))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && f[lo].seq == s && f[lo].key == track ? lo : n;
}

/*
 * The forward thread of each Fwd thread id (a profiler-internal number,
 * not a tid): the track whose forward ops share the most sequence numbers
 * with the backward ops of that id (ties: the first track).  Returns a
 * malloc'd map of *nmap (Fwd thread id -> track or NONE).
 */
static uint32_t *
fwd_tracks(const struct seq_op *f, size_t nf, const struct seq_op *b,
    size_t nb, uint32_t *nmap)
{
	struct tid_pair *p = NULL;
	size_t np = 0, cap = 0;
	uint32_t *map, best = 0;

	*nmap = 0;
	for (size_t i = 0; i < nb; i++) {
		size_t lo = 0, hi = nf;

		if (b[i].key + 1 > *nmap)
			*nmap = b[i].key + 1;
		while (lo < hi) {       /* the first forward op with its seq */
			size_t mid = lo + (hi - lo) / 2;

			if (f[mid].seq < b[i].seq)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (size_t j = lo; j < nf && f[j].seq == b[i].seq; j++) {
			if (j > lo && f[j].key == f[j - 1].key)
				continue;
			xgrow(&p, &cap, np + 1, sizeof *p);
			p[np].tid = b[i].key;
			p[np++].track = f[j].key;
		}
	}
	map = xreallocarray(NULL, *nmap ? *nmap : 1, sizeof *map);
	for (uint32_t k = 0; k < *nmap; k++)
		map[k] = NONE;
	sort(p, np, sizeof *p, tid_pair_cmp);
	for (size_t i = 0, j, most = 0; i < np; i = j) {
		for (j = i; j < np && p[j].tid == p[i].tid &&
		    p[j].track == p[i].track; j++)
			;
		if (i == 0 || p[i].tid != p[i - 1].tid)
			most = 0;
		if (j - i > most) {
			most = j - i;
			best = p[i].track;
			map[p[i].tid] = best;
		}
	}
	free(p);
	return map;
}

/*
 * The backward of the module spans s[0..n) (by track, then start, parents
 * set), as layers.h says: each backward op (Fwd thread id > 0) belongs to
 * the forward op of its sequence number on its forward thread, so to every
 * module span around that op; a span's backward runs from the first start
 * of its backward ops to the next backward op on their thread after its
 * last one (or, for the last, to the end of that thread's last work in the
 * step), since DDP launches a bucket's all-reduce right after the op whose
 * gradient fills it.
 */
static void
module_backward(struct ctx *c, struct mod_span *s, size_t n)
{
	const struct trace *t = c->t;
	struct seq_op *f = NULL, *b = NULL;
	size_t nf = 0, nb = 0, fcap = 0, bcap = 0;
	uint32_t *map, nmap;

	for (size_t i = 0; i < t->nevents; i++) {
		const struct event *e = &t->events[i];
		struct event_args a_buf;
		const struct event_args *a = trace_args(t, e, &a_buf);
		int64_t seq;

		if (a == NULL || a->nums == EV_NONE || event_ph(e) != 'X' ||
		    (seq = trace_args_nums(t, a).seq) < 0 ||
		    t->tracks[e->track].kind != TRACK_CPU)
			continue;
		if (ARG_SEQ_FWD_TID(seq) == 0) {
			xgrow(&f, &fcap, nf + 1, sizeof *f);
			f[nf++] = (struct seq_op){ ARG_SEQ_NR(seq), e->track, (uint32_t)i };
		} else {
			xgrow(&b, &bcap, nb + 1, sizeof *b);
			b[nb++] = (struct seq_op){ ARG_SEQ_NR(seq),
			    (uint32_t)ARG_SEQ_FWD_TID(seq), (uint32_t)i };
		}
	}
	sort(f, nf, sizeof *f, seq_op_cmp);
	map = fwd_tracks(f, nf, b, nb, &nmap);
	for (size_t i = 0; i < nb; i++) {
		const struct event *be = &t->events[b[i].ev];
		uint32_t track = b[i].key < nmap ? map[b[i].key] : NONE;
		size_t k = track == NONE ? nf : seq_find(f, nf, b[i].seq, track);
		int64_t ts;
		size_t lo = 0, hi = n;
		uint32_t m;

		if (k == nf)
			continue;
		ts = t->events[f[k].ev].ts_ns;
		while (lo < hi) {       /* the last span of the track from before ts */
			size_t mid = lo + (hi - lo) / 2;

			if (s[mid].track < track ||
			    (s[mid].track == track && s[mid].start_ns <= ts))
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == 0 || s[lo - 1].track != track)
			continue;
		/* up to the innermost span holding the op, then every one above */
		for (m = (uint32_t)(lo - 1); m != NONE && s[m].end_ns <= ts;
		    m = s[m].parent)
			;
		for (; m != NONE; m = s[m].parent) {
			s[m].bwd_start = min64(s[m].bwd_start, be->ts_ns);
			s[m].bwd_end = max64(s[m].bwd_end, event_end(be));
			s[m].bwd_track = be->track;
		}
	}
	/* the backward ops by event index: by track, then start */
	sort(b, nb, sizeof *b, seq_op_ev_cmp);
	for (size_t i = 0; i < n; i++) {
		int64_t end = s[i].bwd_end, cut;
		long st;
		size_t lo = 0, hi = nb;

		if (s[i].bwd_start > s[i].bwd_end)
			continue;
		st = step_index(c, s[i].bwd_start);
		cut = st >= 0 ? last_work(t, s[i].bwd_track, c->steps[st].end_ns) :
		    INT64_MAX;
		while (lo < hi) {       /* the first op of its thread from its end */
			size_t mid = lo + (hi - lo) / 2;
			const struct event *e = &t->events[b[mid].ev];

			if (e->track < s[i].bwd_track ||
			    (e->track == s[i].bwd_track && e->ts_ns < s[i].bwd_end))
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < nb && t->events[b[lo].ev].track == s[i].bwd_track)
			end = max64(end, min64(t->events[b[lo].ev].ts_ns, cut));
		else if (cut != INT64_MAX)
			end = max64(end, cut);
		add_layer(c, c->l[s[i].layer].name, LAYER_BACKWARD, LAYER_MODULE,
		    s[i].bwd_start, end);
	}
	free(map);
	free(f);
	free(b);
}

static void
module_collect(struct ctx *c)
{
	static const char prefix[] = "nn.Module: ";
	const struct trace *t = c->t;
	uint32_t *cache = name_cache(c), *sel, *stack;
	size_t nsel = cpu_slices_named(c, byname_prefix, prefix, &sel), ns = 0, depth = 0;
	struct mod_span *s = xreallocarray(NULL, nsel ? nsel : 1, sizeof *s);

	stack = xreallocarray(NULL, nsel ? nsel : 1, sizeof *stack);
	/* sel is in index order: by track, then start (longest first) */
	for (size_t j = 0; j < nsel; j++) {
		const struct event *e = &t->events[sel[j]];

		if (t->cat_kinds[e->cat] != CAT_PYTHON_FUNCTION)
			continue;
		if (cache[e->name] == NAME_UNKNOWN) {
			const char *str = trace_str(t, e->name);

			if (strncmp(str, prefix, sizeof prefix - 1) != 0)
				cache[e->name] = NAME_NO;
			else if (str[sizeof prefix - 1] == '\0')
				cache[e->name] = e->name;
			else
				cache[e->name] = intern(c, str + sizeof prefix - 1,
				    strlen(str + sizeof prefix - 1));
		}
		if (cache[e->name] == NAME_NO)
			continue;
		add_layer(c, cache[e->name], LAYER_FORWARD, LAYER_MODULE,
		    e->ts_ns, event_end(e));
		while (depth > 0 && (s[stack[depth - 1]].track != e->track ||
		    s[stack[depth - 1]].end_ns <= e->ts_ns))
			depth--;
		s[ns] = (struct mod_span){ e->track, e->ts_ns, event_end(e),
		    (uint32_t)(c->n - 1), depth > 0 ? stack[depth - 1] : NONE,
		    INT64_MAX, INT64_MIN, 0 };
		stack[depth++] = (uint32_t)ns++;
	}
	if (ns > 0)
		module_backward(c, s, ns);
	free(stack);
	free(s);
	free(sel);
	free(cache);
}

static int
matches(const char *name, const void *re)
{
	return pattern_exec(re, name, 0, NULL) == 0;
}

static void
pattern_collect(struct ctx *c, const regex_t *re)
{
	const struct trace *t = c->t;
	uint32_t *cache = name_cache(c), *sel;
	size_t nsel = cpu_slices_named(c, matches, re, &sel);

	for (size_t j = 0; j < nsel; j++) {
		const struct event *e = &t->events[sel[j]];

		if (cache[e->name] == NAME_UNKNOWN) {
			const char *s = trace_str(t, e->name);
			regmatch_t m[2];

			m[1].rm_so = m[1].rm_eo = -1;
			if (pattern_exec(re, s, 2, m) != 0)
				cache[e->name] = NAME_NO;
			else if (re->re_nsub > 0 && m[1].rm_so >= 0 &&
			    m[1].rm_eo > m[1].rm_so)
				cache[e->name] = intern(c, s + m[1].rm_so,
				    (size_t)(m[1].rm_eo - m[1].rm_so));
			else
				cache[e->name] = e->name;
		}
		if (cache[e->name] != NAME_NO)
			add_layer(c, cache[e->name], LAYER_SPAN, LAYER_PATTERN,
			    e->ts_ns, event_end(e));
	}
	free(sel);
	free(cache);
}

/* ------------------------------------------------------------------ */

/* The own collectives of the layers (after their collection). */
struct own_job {
	struct ctx *c;
	const struct fsdp2 *f;  /* NULL: by span */
};

static void *
own_main(void *arg)
{
	struct own_job *j = arg;

	if (j->f != NULL)
		fsdp2_own(j->c, j->f);
	else
		own_by_span(j->c);
	return NULL;
}

/* Execution order: CPU start, then longer first; then fixed tie-breaks. */
static int
exec_cmp(const void *pa, const void *pb)
{
	const struct layer *a = pa, *b = pb;

	if (a->cpu_start_ns != b->cpu_start_ns)
		return a->cpu_start_ns < b->cpu_start_ns ? -1 : 1;
	if (a->cpu_end_ns != b->cpu_end_ns)
		return a->cpu_end_ns > b->cpu_end_ns ? -1 : 1;
	if (a->phase != b->phase)
		return a->phase < b->phase ? -1 : 1;
	if (a->name != b->name)
		return a->name < b->name ? -1 : 1;
	return 0;
}

size_t
layers_find(const struct metrics *d, const struct step *steps,
    size_t nsteps, const regex_t *pattern, struct layer **out,
    struct job *before)
{
	struct ctx c;
	struct fsdp2 f;
	struct launch_index x;
	struct own_job oj;
	struct job own;
	int fsdp2 = 0;

	*out = NULL;
	if (d->t == NULL) {
		if (before != NULL)
			job_join(before);
		return 0;
	}
	memset(&c, 0, sizeof c);
	memset(&f, 0, sizeof f);
	c.d = d;
	c.t = d->t;
	/* The names are interned into the trace's table: its one write. */
	c.strs = (struct strtab *)&d->t->strs;
	c.steps = steps;
	c.nsteps = nsteps;
	c.nnames = d->t->strs.count;
	for (size_t i = 0; i < d->nacts && !c.linked; i++)
		c.linked = d->t->events[d->acts[i]].link != EV_NONE;

	if (pattern != NULL) {
		pattern_collect(&c, pattern);
	} else {
		fsdp2_collect(&c, &f);
		fsdp2 = c.n > 0;
		if (c.n == 0)
			fsdp1_collect(&c);
		if (c.n == 0)
			module_collect(&c);
	}
	if (before != NULL)
		job_join(before);
	if (c.n == 0) {
		fsdp2_free(&f);
		return 0;
	}
	sort(c.l, c.n, sizeof *c.l, exec_cmp);
	/*
	 * The own collectives beside the extents: they write other fields of
	 * the layers, and neither adds a string nor reads one.
	 */
	oj.c = &c;
	oj.f = fsdp2 && c.linked ? &f : NULL;
	job_start(&own, own_main, &oj);
	launch_index_build(&x, &c, 0, 1);
	/* by start: each search of the launches goes on from the last */
	for (size_t i = 0, from = 0; i < c.n; i++) {
		struct layer *l = &c.l[i];
		long s = step_index(&c, l->cpu_start_ns);

		l->step = s < 0 ? -1 : steps[s].number;
		l->has_gpu = launch_extent(&x, l->cpu_start_ns, l->cpu_end_ns, &from,
		    &l->gpu_start_ns, &l->gpu_end_ns);
		if (l->has_gpu) {
			struct window_metrics m;

			metrics_window_sums(d, l->gpu_start_ns, l->gpu_end_ns, &m);
			l->compute_ns = m.compute_ns;
			l->comm_ns = m.comm_ns;
			l->exposed_comm_ns = m.exposed_comm_ns;
			l->estimate_exposed_ns = max64(0, m.comm_ns - m.compute_ns);
		}
	}
	launch_index_free(&x);
	job_join(&own);
	fsdp2_free(&f);
	*out = c.l;
	return c.n;
}

static int64_t
layer_start(const struct layer *l)
{
	return l->has_gpu ? l->gpu_start_ns : l->cpu_start_ns;
}

int
layers_cmp_worst(const struct layer *a, const struct layer *b)
{
	if (a->own_exposed_comm_ns != b->own_exposed_comm_ns)
		return a->own_exposed_comm_ns > b->own_exposed_comm_ns ? -1 : 1;
	if (layer_start(a) != layer_start(b))
		return layer_start(a) < layer_start(b) ? -1 : 1;
	return (a > b) - (a < b);
}

int
layers_whole_step(const struct layer *l, const struct step *steps,
    size_t nsteps)
{
	for (size_t i = 0; i < nsteps && l->has_gpu && l->step >= 0; i++)
		if (steps[i].number == l->step)
			return steps[i].has_gpu &&
			    l->gpu_start_ns <= steps[i].gpu_start_ns &&
			    l->gpu_end_ns >= steps[i].gpu_end_ns;
	return 0;
}

int
layers_rank_skip(const struct layer *l, const struct layer *const *listed,
    size_t n, const struct step *steps, size_t nsteps)
{
	if (layers_whole_step(l, steps, nsteps))
		return 1;
	for (size_t j = 0; j < n; j++)
		if (l->has_gpu && listed[j]->has_gpu &&
		    l->gpu_start_ns == listed[j]->gpu_start_ns &&
		    l->gpu_end_ns == listed[j]->gpu_end_ns)
			return 1;
	return 0;
}

int
layers_qsort_worst(const void *pa, const void *pb)
{
	return layers_cmp_worst(*(const struct layer *const *)pa,
	    *(const struct layer *const *)pb);
}
