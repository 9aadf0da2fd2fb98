#include "config.h"

#include "model/track.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/itree.h"
#include "base/ivset.h"
#include "model/trace.h"
#include "base/xalloc.h"
#include "base/job.h"

/*
 * The deepest depth stored: rows (a uint16_t) must be able to count depths
 * 0..TRACK_DEPTH_MAX, so deeper events share the last row.
 */
#define TRACK_DEPTH_MAX (UINT16_MAX - 1)

/* A stack of open slices, by end; reused from track to track. */
struct track_stack {
	int64_t *end_ns;
	size_t n, cap;
};

struct row_busy;

/* Scratch shared by all tracks of one track_build_all() call. */
struct track_scratch {
	struct track_stack open;        /* open CPU slices or GPU annotations */
	int64_t *row_end_ns;            /* GPU sub-row -> end of its last activity */
	size_t nrows, rows_cap;
	struct row_busy *busy;          /* min-heap by end: rows in use */
	size_t nbusy, busy_cap;
	uint32_t *free_rows;            /* min-heap: rows free again */
	size_t nfree, free_cap;
	struct ival *iv;                /* intervals for the busy set */
	size_t niv, iv_cap;
};

static inline uint16_t
track_clamp(size_t depth)
{
	return depth > TRACK_DEPTH_MAX ? TRACK_DEPTH_MAX : (uint16_t)depth;
}

/*
 * Returns the nesting depth of e among the slices before it on st: slices
 * that ended at or before e's start are closed first, and the depth is what
 * stays open.  A slice that ends after the one it starts in sets *bad; it
 * still nests one level deeper.  Only slices with dur_ns > 0 are pushed:
 * instants, counters and zero-length slices are leaves.
 */
static uint16_t
track_nest(struct track_stack *st, const struct event *e, int *bad)
{
	int64_t end = event_end(e);
	size_t depth;

	while (st->n > 0 && st->end_ns[st->n - 1] <= e->ts_ns)
		st->n--;
	depth = st->n;
	*bad = st->n > 0 && end > st->end_ns[st->n - 1];
	if (e->dur_ns > 0 && !(e->flags & (EVF_INSTANT | EVF_COUNTER))) {
		xgrow(&st->end_ns, &st->cap, st->n + 1, sizeof *st->end_ns);
		st->end_ns[st->n++] = end;
	}
	return track_clamp(depth);
}

/* A sub-row in use, until end_ns. */
struct row_busy {
	int64_t end_ns;
	uint32_t row;
};

static void
busy_push(struct track_scratch *sc, int64_t end_ns, uint32_t row)
{
	size_t i = sc->nbusy;

	xgrow(&sc->busy, &sc->busy_cap, sc->nbusy + 1, sizeof *sc->busy);
	sc->nbusy++;
	for (; i > 0 && sc->busy[(i - 1) / 2].end_ns > end_ns; i = (i - 1) / 2)
		sc->busy[i] = sc->busy[(i - 1) / 2];
	sc->busy[i] = (struct row_busy){ end_ns, row };
}

static void
busy_pop(struct track_scratch *sc)
{
	struct row_busy last = sc->busy[--sc->nbusy];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < sc->nbusy) {
		if (c + 1 < sc->nbusy && sc->busy[c + 1].end_ns < sc->busy[c].end_ns)
			c++;
		if (sc->busy[c].end_ns >= last.end_ns)
			break;
		sc->busy[i] = sc->busy[c];
		i = c;
	}
	sc->busy[i] = last;
}

static void
free_push(struct track_scratch *sc, uint32_t row)
{
	size_t i = sc->nfree;

	xgrow(&sc->free_rows, &sc->free_cap, sc->nfree + 1, sizeof *sc->free_rows);
	sc->nfree++;
	for (; i > 0 && sc->free_rows[(i - 1) / 2] > row; i = (i - 1) / 2)
		sc->free_rows[i] = sc->free_rows[(i - 1) / 2];
	sc->free_rows[i] = row;
}

static uint32_t
free_pop(struct track_scratch *sc)
{
	uint32_t top = sc->free_rows[0], last = sc->free_rows[--sc->nfree];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < sc->nfree) {
		if (c + 1 < sc->nfree && sc->free_rows[c + 1] < sc->free_rows[c])
			c++;
		if (sc->free_rows[c] >= last)
			break;
		sc->free_rows[i] = sc->free_rows[c];
		i = c;
	}
	sc->free_rows[i] = last;
	return top;
}

/*
 * Returns the lowest sub-row free at e's start and marks it busy to e's end.
 * Activities come by start: rows whose end has passed move from the busy
 * heap (by end) to the free heap (by row), so each activity costs
 * O(log rows), however many overlap.  A busy entry is stale once its row was
 * extended (only the saturated last row is) and is then dropped.
 */
static uint16_t
track_row(struct track_scratch *sc, const struct event *e)
{
	uint32_t r;

	while (sc->nbusy > 0 && sc->busy[0].end_ns <= e->ts_ns) {
		struct row_busy b = sc->busy[0];

		busy_pop(sc);
		if (sc->row_end_ns[b.row] == b.end_ns)
			free_push(sc, b.row);
	}
	if (sc->nfree > 0) {
		r = free_pop(sc);
	} else if (sc->nrows <= TRACK_DEPTH_MAX) {
		xgrow(&sc->row_end_ns, &sc->rows_cap, sc->nrows + 1,
		    sizeof *sc->row_end_ns);
		r = (uint32_t)sc->nrows;
		sc->row_end_ns[sc->nrows++] = INT64_MIN;
	} else {
		/* Saturated: share the last row, which stays busy. */
		r = TRACK_DEPTH_MAX;
		if (event_end(e) > sc->row_end_ns[r]) {
			sc->row_end_ns[r] = event_end(e);
			busy_push(sc, sc->row_end_ns[r], r);
		}
		return (uint16_t)r;
	}
	if (event_end(e) > sc->row_end_ns[r])
		sc->row_end_ns[r] = event_end(e);
	busy_push(sc, sc->row_end_ns[r], r);
	return (uint16_t)r;
}

/*
 * Adds e to the busy intervals.  Events come by start, so one wholly inside
 * what is already covered changes nothing and is skipped.
 */
static void
track_cover(struct track_scratch *sc, const struct event *e, int64_t *cover_ns)
{
	if (e->dur_ns <= 0 || event_end(e) <= *cover_ns)
		return;
	xgrow(&sc->iv, &sc->iv_cap, sc->niv + 1, sizeof *sc->iv);
	sc->iv[sc->niv++] = (struct ival){ e->ts_ns, event_end(e) };
	*cover_ns = event_end(e);
}

static void
track_build(struct trace *t, struct track *tr, struct track_scratch *sc,
    uint64_t *bad_nesting)
{
	struct event *ev = tr->count > 0 ? &t->events[tr->first] : NULL;
	int64_t cover_ns = INT64_MIN;
	uint32_t i;
	size_t rows = 0;
	int bad;

	sc->open.n = 0;
	sc->nrows = 0;
	sc->nbusy = sc->nfree = 0;
	sc->niv = 0;
	tr->activity = 0;

	for (i = 0; i < tr->count; i++) {
		struct event *e = &ev[i];

		if (event_is_activity(e))
			tr->activity++;
		if (tr->kind == TRACK_GPU) {
			if (event_is_activity(e)) {
				e->depth = track_row(sc, e);
				track_cover(sc, e, &cover_ns);
			} else if (e->flags & EVF_ANNOTATION) {
				/* Flagged, but the warning counts CPU spans only. */
				e->depth = track_nest(&sc->open, e, &bad);
				if (bad)
					e->flags |= EVF_BAD_NEST;
			} else
				e->depth = 0;
		} else {
			e->depth = track_nest(&sc->open, e, &bad);
			if (bad) {
				e->flags |= EVF_BAD_NEST;
				(*bad_nesting)++;
			}
			if (tr->kind == TRACK_CPU)
				track_cover(sc, e, &cover_ns);
		}
		if ((size_t)e->depth + 1 > rows)
			rows = (size_t)e->depth + 1;
	}
	tr->rows = (uint16_t)rows;      /* <= TRACK_DEPTH_MAX + 1 */
	itree_build(&tr->index, ev, tr->count);
	ivset_build(&tr->busy, sc->iv, sc->niv);
}

/*
 * One half of the tracks, built by one thread.  Tracks share nothing but
 * the bad_nesting count (kept per half, then added), so the two halves
 * build at once and the result does not depend on which finishes first.
 */
struct track_half {
	struct trace *t;
	const uint8_t *half;            /* per track: which half builds it */
	uint8_t which;
	uint64_t bad_nesting;
};

static void *
track_build_half(void *arg)
{
	struct track_half *h = arg;
	struct track_scratch sc = { 0 };

	for (size_t i = 0; i < h->t->ntracks; i++)
		if (h->half[i] == h->which)
			track_build(h->t, &h->t->tracks[i], &sc, &h->bad_nesting);
	free(sc.open.end_ns);
	free(sc.row_end_ns);
	free(sc.busy);
	free(sc.free_rows);
	free(sc.iv);
	return NULL;
}

/* Below this many events, a second thread is not worth starting. */
#define TRACK_PARALLEL_MIN 100000

void
track_build_all(struct trace *t)
{
	uint8_t *half = xcalloc(t->ntracks ? t->ntracks : 1, 1);
	struct track_half h[2] = { { t, half, 0, 0 }, { t, half, 1, 0 } };
	uint64_t load[2] = { 0, 0 };
	pthread_t helper;
	int two = t->nevents >= TRACK_PARALLEL_MIN && t->ntracks > 1;

	/* largest tracks first, each to the lighter half (the order does not matter) */
	if (two) {
		uint32_t *order = xcalloc(t->ntracks, sizeof *order);

		for (size_t i = 0; i < t->ntracks; i++)
			order[i] = (uint32_t)i;
		for (size_t i = 1; i < t->ntracks; i++)         /* few tracks */
			for (size_t j = i; j > 0 &&
			    t->tracks[order[j]].count > t->tracks[order[j - 1]].count; j--) {
				uint32_t x = order[j];

				order[j] = order[j - 1];
				order[j - 1] = x;
			}
		for (size_t i = 0; i < t->ntracks; i++) {
			int w = load[1] < load[0];

			half[order[i]] = (uint8_t)w;
			load[w] += t->tracks[order[i]].count;
		}
		free(order);
		two = job_thread(&helper, track_build_half, &h[1]) == 0;
		if (!two)
			memset(half, 0, t->ntracks);
	}
	track_build_half(&h[0]);
	if (two)
		pthread_join(helper, NULL);
	t->warn.bad_nesting += h[0].bad_nesting + h[1].bad_nesting;
	free(half);
}

int64_t
track_busy_ns(const struct track *tr, int64_t a_ns, int64_t b_ns)
{
	return ivset_measure(&tr->busy, a_ns, b_ns);
}
