/*
 * cudasync — cuda_sync rows resolved to their waits (cudasync.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/cudasync.h"
#include "analysis/metrics.h"
#include "base/xalloc.h"
#include "model/trace.h"

/* A runtime call by its correlation. */
struct corr {
	int64_t correlation;
	uint32_t event;
};

/* The linked activities of one stream, in d->acts order (launch order). */
struct stream_acts {
	int64_t stream;
	size_t *pos;            /* into d->acts */
	size_t n;
};

static int
cmp_corr(const void *x, const void *y)
{
	const struct corr *a = x, *b = y;

	if (a->correlation != b->correlation)
		return a->correlation < b->correlation ? -1 : 1;
	return (a->event > b->event) - (a->event < b->event);
}

static int
cmp_wait(const void *x, const void *y)
{
	const struct cudasync_wait *a = x, *b = y;

	if (a->waiter != b->waiter)
		return a->waiter < b->waiter ? -1 : 1;
	return (a->waited > b->waited) - (a->waited < b->waited);
}

/* The call of correlation c (the first), or EV_NONE. */
static uint32_t
call_of(const struct corr *v, size_t n, int64_t c)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;

		if (v[m].correlation < c)
			lo = m + 1;
		else
			hi = m;
	}
	return lo < n && v[lo].correlation == c ? v[lo].event : EV_NONE;
}

static const struct stream_acts *
stream_find(const struct stream_acts *s, size_t n, int64_t stream)
{
	for (size_t i = 0; i < n; i++)
		if (s[i].stream == stream)
			return &s[i];
	return NULL;
}

/*
 * The position in sa of the last activity launched before t (before: 1)
 * or of the first launched after it (before: 0), or SIZE_MAX.
 */
static size_t
launched(const struct metrics *d, const struct stream_acts *sa, int64_t t,
    int before)
{
	size_t lo = 0, hi = sa->n;

	while (lo < hi) {       /* first launched at or after t (+1: after) */
		size_t m = lo + (hi - lo) / 2;
		int64_t l = d->launch_ns[sa->pos[m]];

		if (before ? l < t : l <= t)
			lo = m + 1;
		else
			hi = m;
	}
	if (before)
		return lo > 0 ? sa->pos[lo - 1] : SIZE_MAX;
	return lo < sa->n ? sa->pos[lo] : SIZE_MAX;
}

/* The cuda_sync category of t, or -1. */
static long
sync_category(const struct trace *t)
{
	for (size_t c = 0; c < t->ncats; c++)
		if (strcmp(trace_str(t, t->cats[c]), "cuda_sync") == 0)
			return (long)c;
	return -1;
}

/* The streams of d and their linked activities: *n of them (free each pos). */
static struct stream_acts *
streams_build(const struct metrics *d, size_t *n)
{
	const struct trace *t = d->t;
	struct stream_acts *s = xcalloc(d->ntracks + 1, sizeof *s);
	size_t *count = xcalloc(d->ntracks + 1, sizeof *count);

	for (size_t i = 0; i < d->nacts; i++)
		if (d->launch_ns[i] != METRICS_UNLINKED)
			count[metrics_track_pos(d, t->events[d->acts[i]].track)]++;
	for (size_t k = 0; k < d->ntracks; k++) {
		s[k].stream = t->tracks[d->tracks[k]].tid;
		s[k].pos = xmalloc((count[k] + 1) * sizeof *s[k].pos);
	}
	for (size_t i = 0; i < d->nacts; i++)
		if (d->launch_ns[i] != METRICS_UNLINKED) {
			struct stream_acts *sa =
			    &s[metrics_track_pos(d, t->events[d->acts[i]].track)];

			sa->pos[sa->n++] = i;
		}
	free(count);
	*n = d->ntracks;
	return s;
}

/* The runtime and driver calls of t by correlation: *n of them. */
static struct corr *
calls_build(const struct trace *t, size_t *n)
{
	struct corr *v = NULL;
	size_t cap = 0;

	*n = 0;
	for (uint32_t i = 0; i < t->nevents; i++) {
		const struct event *e = &t->events[i];
		uint8_t ck = t->cat_kinds[e->cat];
		struct event_args ab;
		const struct event_args *a;

		if (ck != CAT_CUDA_RUNTIME && ck != CAT_CUDA_DRIVER)
			continue;
		a = trace_args(t, e, &ab);
		if (a == NULL || a->correlation == ID_NONE)
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 256;
			v = xreallocarray(v, cap, sizeof *v);
		}
		v[(*n)++] = (struct corr){ a->correlation, i };
	}
	qsort(v, *n, sizeof *v, cmp_corr);
	return v;
}

static void
wait_push(struct cudasync *cs, size_t *cap, uint32_t waited, uint32_t waiter,
    int kind)
{
	if (cs->n == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		cs->v = xreallocarray(cs->v, *cap, sizeof *cs->v);
	}
	cs->v[cs->n++] = (struct cudasync_wait){ waited, waiter, (uint8_t)kind };
}

void
cudasync_build(struct cudasync *cs, const struct metrics *d)
{
	const struct trace *t = d->t;
	long cat = sync_category(t);
	struct stream_acts *streams = NULL;
	struct corr *calls = NULL;
	size_t nstreams = 0, ncalls = 0, cap = 0;

	memset(cs, 0, sizeof *cs);
	if (cat < 0)
		return;
	for (uint32_t i = 0; i < t->nevents; i++) {
		const struct event *e = &t->events[i];
		struct event_args ab;
		const struct event_args *a;
		struct arg_nums nums;
		const char *name;
		const struct stream_acts *on;
		int kind;
		int64_t before;
		uint32_t waiter, rec, call;
		size_t w;

		if (e->cat != (uint32_t)cat || (a = trace_args(t, e, &ab)) == NULL ||
		    a->device != d->device)
			continue;
		cs->rows++;
		name = trace_str(t, e->name);
		kind = strcmp(name, "Stream Wait Event") == 0 ? CUDASYNC_STREAM_WAIT :
		    strcmp(name, "Event Sync") == 0 ? CUDASYNC_EVENT_SYNC :
		    strcmp(name, "Stream Sync") == 0 ? CUDASYNC_STREAM_SYNC : -1;
		if (kind == CUDASYNC_STREAM_WAIT)
			cs->stream_wait_rows++;
		if (streams == NULL) {
			streams = streams_build(d, &nstreams);
			calls = calls_build(t, &ncalls);
		}
		nums = trace_args_nums(t, a);
		call = a->correlation != ID_NONE ?
		    call_of(calls, ncalls, a->correlation) : EV_NONE;
		on = NULL;
		before = 0;
		if (kind == CUDASYNC_STREAM_SYNC && call != EV_NONE) {
			on = stream_find(streams, nstreams, a->stream);
			before = t->events[call].ts_ns;
		} else if (kind >= 0 && nums.value > 0 &&
		    (rec = call_of(calls, ncalls, nums.seq)) != EV_NONE) {
			on = stream_find(streams, nstreams, (int64_t)nums.value - 1);
			before = t->events[rec].ts_ns;
		}
		w = on != NULL ? launched(d, on, before, 1) : SIZE_MAX;
		waiter = call;
		if (w != SIZE_MAX && kind == CUDASYNC_STREAM_WAIT) {
			const struct stream_acts *s = stream_find(streams, nstreams,
			    a->stream);
			size_t k = s != NULL && call != EV_NONE ?
			    launched(d, s, t->events[call].ts_ns, 0) : SIZE_MAX;

			waiter = k != SIZE_MAX ? d->acts[k] : EV_NONE;
		}
		if (w == SIZE_MAX || waiter == EV_NONE) {
			cs->unresolved++;
			continue;
		}
		wait_push(cs, &cap, d->acts[w], waiter, kind);
	}
	if (streams != NULL)
		for (size_t k = 0; k < nstreams; k++)
			free(streams[k].pos);
	free(streams);
	free(calls);
	qsort(cs->v, cs->n, sizeof *cs->v, cmp_wait);
}

void
cudasync_free(struct cudasync *cs)
{
	free(cs->v);
	memset(cs, 0, sizeof *cs);
}
