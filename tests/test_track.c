#include "config.h"

#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/itree.h"
#include "base/ivset.h"
#include "model/trace.h"
#include "model/track.h"
#include "base/xalloc.h"
#include "testrng.h"

static uint16_t
cat(struct trace *t, const char *name)
{
	return trace_category(t, name, strlen(name));
}

/* add()'s flag for a GPU activity (its class is set from its category) */
#define T_ACTIVITY (1 << 8)

/* Appends one event the way the loader would. */
static void
add(struct trace *t, uint32_t track, const char *category, const char *name,
    int64_t ts_ns, int64_t dur_ns, uint16_t flags)
{
	struct event ev;

	memset(&ev, 0, sizeof ev);
	ev.ts_ns = ts_ns;
	ev.dur_ns = dur_ns;
	ev.name = strtab_intern(&t->strs, name, strlen(name));
	ev.track = track;
	ev.link = EV_NONE;
	ev.cat = cat(t, category);
	ev.flags = flags & ~T_ACTIVITY;
	if (flags & T_ACTIVITY)
		ev.cls = strcmp(category, "kernel") == 0 ? CLASS_COMPUTE :
		    CLASS_MEMORY;
	cr_assert_neq(trace_add_event(t, &ev, &ARGS_REC_NONE), EV_NONE);
}

static void
add_kernel(struct trace *t, uint32_t track, const char *name, int64_t ts_ns,
    int64_t dur_ns)
{
	add(t, track, "kernel", name, ts_ns, dur_ns, T_ACTIVITY);
}

static void
add_annotation(struct trace *t, uint32_t track, const char *name,
    int64_t ts_ns, int64_t dur_ns)
{
	add(t, track, "gpu_user_annotation", name, ts_ns, dur_ns,
	    EVF_ANNOTATION);
}

/* The track (pid, tid) after trace_finalize() has reordered the tracks. */
static struct track *
find_track(struct trace *t, int64_t pid, int64_t tid)
{
	for (size_t i = 0; i < t->ntracks; i++)
		if (t->tracks[i].pid == pid && t->tracks[i].tid == tid)
			return &t->tracks[i];
	cr_assert_fail("no track %lld/%lld", (long long)pid, (long long)tid);
	return NULL;
}

/* The event named name on tr (names are unique in these tests). */
static const struct event *
find_event(struct trace *t, const struct track *tr, const char *name)
{
	uint32_t id = strtab_find(&t->strs, name, strlen(name));

	for (uint32_t i = tr->first; i < tr->first + tr->count; i++)
		if (t->events[i].name == id)
			return &t->events[i];
	cr_assert_fail("no event %s", name);
	return NULL;
}

Test(track, cpu_nesting)
{
	struct trace t;
	struct track *tr;
	uint32_t k;

	trace_init(&t, "test");
	k = trace_track(&t, 1, NULL, 1, NULL);
	/* In file order, not time order: trace_finalize() sorts. */
	add(&t, k, "cpu_op", "E", 130, 10, 0);
	add(&t, k, "cpu_op", "C1", 10, 30, 0);
	add(&t, k, "cpu_op", "P", 0, 100, 0);
	add(&t, k, "cpu_op", "G", 20, 10, 0);
	add(&t, k, "cpu_instant_event", "I", 25, 0, EVF_INSTANT);
	add(&t, k, "cpu_instant_event", "J", 40, 0, EVF_INSTANT);
	add(&t, k, "cpu_op", "C2", 50, 70, 0);  /* [50, 120) leaves P at 100 */
	add(&t, k, "cpu_op", "D", 60, 10, 0);
	add(&t, k, "cpu_op", "Z", 135, 0, 0);   /* a zero-length slice */
	add(&t, k, "cpu_op", "F", 136, 2, 0);
	trace_finalize(&t);

	tr = find_track(&t, 1, 1);
	cr_assert_eq(tr->kind, TRACK_CPU);
	cr_assert_eq(tr->count, 10);
	cr_assert_eq(find_event(&t, tr, "P")->depth, 0);
	cr_assert_eq(find_event(&t, tr, "C1")->depth, 1);
	cr_assert_eq(find_event(&t, tr, "G")->depth, 2);
	cr_assert_eq(find_event(&t, tr, "I")->depth, 3);   /* inside P, C1, G */
	cr_assert_eq(find_event(&t, tr, "J")->depth, 1);   /* C1 ended at 40 */
	cr_assert_eq(find_event(&t, tr, "C2")->depth, 1);
	cr_assert_eq(find_event(&t, tr, "D")->depth, 2);   /* under C2 */
	cr_assert_eq(find_event(&t, tr, "E")->depth, 0);
	cr_assert_eq(find_event(&t, tr, "Z")->depth, 1);   /* inside E */
	cr_assert_eq(find_event(&t, tr, "F")->depth, 1);
	cr_assert_eq(tr->rows, 4);

	/* C2 only: counted once, flagged; its child D is properly nested. */
	cr_assert_eq(t.warn.bad_nesting, 1);
	cr_assert(find_event(&t, tr, "C2")->flags & EVF_BAD_NEST);
	cr_assert_not(find_event(&t, tr, "D")->flags & EVF_BAD_NEST);
	cr_assert_not(find_event(&t, tr, "P")->flags & EVF_BAD_NEST);
	cr_assert_not(find_event(&t, tr, "G")->flags & EVF_BAD_NEST);

	/* Busy: [0, 120) ∪ [130, 140); instants add nothing. */
	cr_assert_eq(tr->activity, 0);
	cr_assert_eq(tr->busy.n, 2);
	cr_assert_eq(track_busy_ns(tr, INT64_MIN, INT64_MAX), 130);
	cr_assert_eq(track_busy_ns(tr, 110, 135), 15);
	cr_assert_eq(track_busy_ns(tr, 120, 130), 0);
	trace_free(&t);
}

Test(track, gpu_rows_and_annotations)
{
	struct trace t;
	struct track *tr, *tr8;
	uint32_t k, k8;

	trace_init(&t, "test");
	k = trace_track(&t, 0, NULL, 7, NULL);
	k8 = trace_track(&t, 0, NULL, 8, NULL);
	add_kernel(&t, k, "K1", 0, 10);
	add_kernel(&t, k, "K2", 5, 10);         /* [5, 15): overlaps K1 */
	add_kernel(&t, k, "K3", 12, 8);         /* [12, 20): row 0 is free */
	add(&t, k, "gpu_memcpy", "M", 30, 10, T_ACTIVITY);
	add_annotation(&t, k, "A1", 0, 50);
	add_annotation(&t, k, "A2", 2, 6);
	add_annotation(&t, k, "A3", 3, 1);
	add_annotation(&t, k, "A4", 45, 15);    /* leaves A1 at 50 */

	add_kernel(&t, k8, "L1", 0, 100);
	add_kernel(&t, k8, "L2", 10, 10);
	add_kernel(&t, k8, "L3", 15, 15);       /* rows 0 and 1 busy */
	add_kernel(&t, k8, "L4", 25, 15);       /* row 1 free again at 20 */
	add_kernel(&t, k8, "L5", 100, 5);       /* row 0 free at 100 */
	trace_finalize(&t);

	tr = find_track(&t, 0, 7);
	cr_assert_eq(tr->kind, TRACK_GPU);
	cr_assert_eq(find_event(&t, tr, "K1")->depth, 0);
	cr_assert_eq(find_event(&t, tr, "K2")->depth, 1);
	cr_assert_eq(find_event(&t, tr, "K3")->depth, 0);
	cr_assert_eq(find_event(&t, tr, "M")->depth, 0);
	/* Annotations nest among themselves, whatever the kernels do. */
	cr_assert_eq(find_event(&t, tr, "A1")->depth, 0);
	cr_assert_eq(find_event(&t, tr, "A2")->depth, 1);
	cr_assert_eq(find_event(&t, tr, "A3")->depth, 2);
	cr_assert_eq(find_event(&t, tr, "A4")->depth, 1);
	cr_assert(find_event(&t, tr, "A4")->flags & EVF_BAD_NEST);
	cr_assert_eq(t.warn.bad_nesting, 0);    /* counts CPU spans only */
	cr_assert_eq(tr->activity, 4);
	cr_assert_eq(tr->rows, 3);              /* the annotations' depth 2 */

	/* Busy is the activity only: [0, 20) ∪ [30, 40), not the annotations. */
	cr_assert_eq(track_busy_ns(tr, INT64_MIN, INT64_MAX), 30);
	cr_assert_eq(track_busy_ns(tr, 8, 35), 17);
	cr_assert_eq(track_busy_ns(tr, 40, 60), 0);

	tr8 = find_track(&t, 0, 8);
	cr_assert_eq(find_event(&t, tr8, "L1")->depth, 0);
	cr_assert_eq(find_event(&t, tr8, "L2")->depth, 1);
	cr_assert_eq(find_event(&t, tr8, "L3")->depth, 2);
	cr_assert_eq(find_event(&t, tr8, "L4")->depth, 1);
	cr_assert_eq(find_event(&t, tr8, "L5")->depth, 0);
	cr_assert_eq(tr8->rows, 3);
	cr_assert_eq(tr8->activity, 5);
	cr_assert_eq(track_busy_ns(tr8, INT64_MIN, INT64_MAX), 105);
	trace_free(&t);
}

Test(track, counters_and_empty_tracks)
{
	struct trace t;
	struct track *tr;
	uint32_t k;

	trace_init(&t, "test");
	k = trace_track(&t, 1, NULL, 0, "mem");
	t.tracks[k].kind = TRACK_COUNTER;
	add(&t, k, "cpu_instant_event", "v0", 0, 0, EVF_COUNTER);
	add(&t, k, "cpu_instant_event", "v1", 10, 0, EVF_COUNTER);
	add(&t, k, "cpu_instant_event", "v2", 20, 0, EVF_COUNTER);
	add(&t, k, "cpu_instant_event", "v3", 30, 5, EVF_COUNTER);  /* odd */
	(void)trace_track(&t, 1, NULL, 99, NULL);       /* no events at all */
	trace_finalize(&t);

	for (size_t i = 0; i < t.ntracks; i++) {
		tr = &t.tracks[i];
		if (tr->kind == TRACK_COUNTER) {
			const struct event *ev = &t.events[tr->first];

			cr_assert_eq(tr->count, 4);
			cr_assert_eq(tr->rows, 1);
			cr_assert_eq(tr->activity, 0);
			cr_assert_eq(tr->busy.n, 0);
			cr_assert_eq(track_busy_ns(tr, INT64_MIN, INT64_MAX), 0);
			for (int j = 0; j < 4; j++)
				cr_assert_eq(ev[j].depth, 0);
			cr_assert_eq(itree_count(&tr->index, ev, 0, 11), 2);
		} else {
			cr_assert_eq(tr->count, 0);
			cr_assert_eq(tr->rows, 0);
			cr_assert_eq(tr->index.n, 0);
			cr_assert_eq(track_busy_ns(tr, INT64_MIN, INT64_MAX), 0);
		}
	}
	trace_free(&t);
}

/*
 * Random properly nested slices inside [lo, hi) on track k, depth levels
 * deep at most, with a few instants; marks each slice's time in bits.
 */
static void
add_nested(struct trace *t, uint64_t *rng, uint32_t k, int64_t lo, int64_t hi,
    int levels, bool annotations, bool *bits, int *serial)
{
	int64_t cur = lo, s, e;
	char name[32];

	while (cur < hi && rng_below(rng, 8) != 0) {
		s = cur + rng_below(rng, 20);
		if (s >= hi)
			break;
		e = s + 1 + rng_below(rng, (hi - s) < 300 ? hi - s : 300);
		snprintf(name, sizeof name, "s%d", (*serial)++);
		if (annotations)
			add_annotation(t, k, name, s, e - s);
		else if (rng_below(rng, 10) == 0)
			add(t, k, "cpu_instant_event", name, s, 0, EVF_INSTANT);
		else {
			add(t, k, "cpu_op", name, s, e - s, 0);
			if (bits != NULL)
				for (int64_t x = s; x < e; x++)
					bits[x] = true;
		}
		if (levels > 1 && rng_below(rng, 2) == 0)
			add_nested(t, rng, k, s, e, levels - 1, annotations, bits,
			    serial);
		/* Sometimes the next sibling starts where this one ends. */
		cur = rng_below(rng, 3) == 0 ? e : e + rng_below(rng, 30);
	}
}

#define DOM 6000

/* Depth of ev[i] by brute force: the earlier slices (dur > 0) holding it. */
static int
brute_depth(const struct event *ev, uint32_t i, uint16_t only_flag)
{
	int d = 0;

	for (uint32_t j = 0; j < i; j++) {
		if (ev[j].dur_ns <= 0 || (only_flag && !(ev[j].flags & only_flag)))
			continue;
		if (ev[j].ts_ns > ev[i].ts_ns)
			continue;
		if (ev[i].dur_ns > 0 ? event_end(&ev[i]) <= event_end(&ev[j]) :
		    ev[i].ts_ns < event_end(&ev[j]))
			d++;
	}
	return d;
}

static void
check_busy_and_index(const struct track *tr, const struct event *ev,
    const bool *bits, uint64_t *rng)
{
	uint32_t *out = NULL;
	size_t len, cap = 0;

	for (int w = 0; w < 300; w++) {
		int64_t a = rng_below(rng, DOM + 200) - 100;
		int64_t b = a + rng_below(rng, w % 2 ? 40 : DOM);
		int64_t want = 0;
		size_t k = 0;

		for (int64_t x = a < 0 ? 0 : a; x < b && x < DOM; x++)
			want += bits[x];
		cr_assert_eq(track_busy_ns(tr, a, b), want, "[%lld, %lld)",
		    (long long)a, (long long)b);

		len = 0;
		itree_overlap(&tr->index, ev, a, b, &out, &len, &cap);
		for (uint32_t i = 0; i < tr->count; i++) {
			bool hit = b > a && (ev[i].dur_ns == 0 ?
			    a <= ev[i].ts_ns && ev[i].ts_ns < b :
			    ev[i].ts_ns < b && event_end(&ev[i]) > a);

			if (!hit)
				continue;
			cr_assert_lt(k, len);
			cr_assert_eq(out[k], i);
			k++;
		}
		cr_assert_eq(k, len);
	}
	free(out);
}

Test(track, random_tracks_against_brute_force)
{
	for (uint64_t seed = 1; seed <= 12; seed++) {
		uint64_t rng = seed * 0x9e3779b97f4a7c15ULL;
		static bool cpu_bits[DOM], gpu_bits[DOM];
		struct trace t;
		uint32_t kc, kg, kother;
		int serial = 0;

		memset(cpu_bits, 0, sizeof cpu_bits);
		memset(gpu_bits, 0, sizeof gpu_bits);
		trace_init(&t, "test");
		/* A track before the others, so theirs do not start at 0. */
		kother = trace_track(&t, 0, NULL, 1, NULL);
		kg = trace_track(&t, 0, NULL, 7, NULL);
		kc = trace_track(&t, 5, NULL, 5, NULL);
		add_nested(&t, &rng, kother, 0, DOM, 3, false, NULL, &serial);
		add_nested(&t, &rng, kc, 0, DOM, 6, false, cpu_bits, &serial);
		add_nested(&t, &rng, kg, 0, DOM, 4, true, NULL, &serial);
		for (int i = 0; i < 300; i++) {
			int64_t s = rng_below(&rng, DOM - 100);
			int64_t d = rng_below(&rng, 5) == 0 ? 0 :
			    1 + rng_below(&rng, 60);

			add_kernel(&t, kg, "k", s, d);
			for (int64_t x = s; x < s + d; x++)
				gpu_bits[x] = true;
		}
		trace_finalize(&t);
		cr_assert_eq(t.warn.bad_nesting, 0);

		for (size_t ti = 0; ti < t.ntracks; ti++) {
			struct track *tr = &t.tracks[ti];
			const struct event *ev = &t.events[tr->first];
			int maxd = -1, maxrow = -1;
			uint32_t activity = 0;

			if (tr->pid == 0 && tr->tid == 1)
				continue;
			for (uint32_t i = 0; i < tr->count; i++) {
				if (ev[i].depth > maxd)
					maxd = ev[i].depth;
				if (event_is_activity(&ev[i])) {
					activity++;
					if (ev[i].depth > maxrow)
						maxrow = ev[i].depth;
				}
				if (tr->kind == TRACK_CPU)
					cr_assert_eq(ev[i].depth,
					    brute_depth(ev, i, 0), "seed %llu, "
					    "event %u", (unsigned long long)seed, i);
				else if (ev[i].flags & EVF_ANNOTATION)
					cr_assert_eq(ev[i].depth,
					    brute_depth(ev, i, EVF_ANNOTATION));
				cr_assert_not(ev[i].flags & EVF_BAD_NEST);
			}
			cr_assert_eq(tr->rows, maxd + 1);
			cr_assert_eq(tr->activity, activity);
			if (tr->kind == TRACK_GPU) {
				cr_assert_eq(activity, 300);
				/*
				 * The lowest free row: every lower row is taken
				 * at the start, its own row is not.
				 */
				for (uint32_t i = 0; i < tr->count; i++) {
					bool taken[64] = { false };

					if (!event_is_activity(&ev[i]))
						continue;
					cr_assert_lt(ev[i].depth, 64);
					for (uint32_t j = 0; j < i; j++)
						if (event_is_activity(&ev[j]) &&
						    event_end(&ev[j]) > ev[i].ts_ns)
							taken[ev[j].depth] = true;
					cr_assert_not(taken[ev[i].depth],
					    "seed %llu: row %u taken at %lld",
					    (unsigned long long)seed, ev[i].depth,
					    (long long)ev[i].ts_ns);
					for (int r = 0; r < ev[i].depth; r++)
						cr_assert(taken[r]);
				}
				cr_assert_gt(maxrow, 0);        /* some overlap */
				check_busy_and_index(tr, ev, gpu_bits, &rng);
			} else {
				cr_assert_eq(activity, 0);
				check_busy_and_index(tr, ev, cpu_bits, &rng);
			}
		}
		trace_free(&t);
	}
}

Test(track, depth_saturates)
{
	struct trace t;
	struct track *tr;
	const struct event *ev;
	uint32_t k, n = 70000;

	trace_init(&t, "test");
	k = trace_track(&t, 1, NULL, 1, NULL);
	/* [i, 2n - i): each inside the one before, n deep. */
	for (uint32_t i = 0; i < n; i++)
		add(&t, k, "cpu_op", "deep", i, 2 * (int64_t)(n - i), 0);
	add(&t, k, "cpu_instant_event", "leaf", n, 0, EVF_INSTANT);
	trace_finalize(&t);

	tr = find_track(&t, 1, 1);
	ev = &t.events[tr->first];
	cr_assert_eq(ev[0].depth, 0);
	cr_assert_eq(ev[65534].depth, 65534);
	cr_assert_eq(ev[65535].depth, 65534);   /* saturated */
	cr_assert_eq(ev[n - 1].depth, 65534);
	cr_assert_eq(ev[n].depth, 65534);       /* the instant */
	cr_assert_eq(tr->rows, 65535);          /* every depth has a row */
	cr_assert_eq(t.warn.bad_nesting, 0);
	cr_assert_eq(track_busy_ns(tr, INT64_MIN, INT64_MAX), 2 * (int64_t)n);
	trace_free(&t);
}

/* ---- the events' order: trace_finalize() against the definition --------- */

struct placed {
	int64_t ts_ns, dur_ns;
	uint32_t track;         /* as added (trace_track()'s index) */
	bool seen;
};

/*
 * layout 0: the tracks' events interleaved, each track in time order;
 * 1: interleaved, two tracks out of order, many ties of start and length;
 * 2: the tracks one after another (in track order), the last out of order.
 */
static void
check_sorted(uint64_t seed, uint32_t n, int layout)
{
	uint64_t rng = seed * 0x9e3779b97f4a7c15ULL + n + (uint64_t)layout;
	struct placed *p = xcalloc(n ? n : 1, sizeof *p);
	uint32_t tracks[5];
	int64_t clock[5] = { 0 };
	struct trace t;
	char name[32];

	trace_init(&t, "test");
	for (int k = 0; k < 5; k++)
		tracks[k] = trace_track(&t, 1 + k % 2, NULL, 100 - k, NULL);
	for (uint32_t i = 0; i < n; i++) {
		int k = layout == 2 ? (int)((uint64_t)i * 5 / n) : (int)rng_below(&rng, 5);
		bool jumbled = (layout == 1 && k >= 3) || (layout == 2 && k == 4);

		if (jumbled) {
			p[i].ts_ns = rng_below(&rng, 50);
			p[i].dur_ns = rng_below(&rng, 4);
		} else {
			clock[k] += rng_below(&rng, layout == 1 ? 2 : 100);
			p[i].ts_ns = clock[k];
			p[i].dur_ns = rng_below(&rng, 3) == 0 ? 0 : rng_below(&rng, 5);
		}
		p[i].track = tracks[k];
		snprintf(name, sizeof name, "e%u", i);
		add(&t, tracks[k], "cpu_op", name, p[i].ts_ns, p[i].dur_ns, 0);
	}
	trace_finalize(&t);
	cr_assert_eq(t.nevents, n);
	for (size_t ti = 0; ti < t.ntracks; ti++) {
		const struct track *tr = &t.tracks[ti];

		for (uint32_t j = 0; j < tr->count; j++) {
			const struct event *e = &t.events[tr->first + j];
			uint32_t id = (uint32_t)strtoul(trace_str(&t, e->name) + 1, NULL, 10);

			cr_assert_lt(id, n);
			cr_assert_not(p[id].seen, "event %u twice", id);
			p[id].seen = true;
			cr_assert_eq(e->ts_ns, p[id].ts_ns);
			cr_assert_eq(e->dur_ns, p[id].dur_ns);
			/* its own track: the same (pid, tid) as it was added to */
			cr_assert_eq(tr->pid, 1 + (100 - tr->tid) % 2);
			cr_assert_eq(tracks[100 - tr->tid], p[id].track,
			    "seed %llu, n %u, layout %d: event %u on another track",
			    (unsigned long long)seed, n, layout, id);
			if (j > 0) {
				const struct event *d = e - 1;
				uint32_t did = (uint32_t)strtoul(trace_str(&t, d->name) + 1,
				    NULL, 10);

				/* by start, the longest first, then in file order */
				cr_assert(d->ts_ns < e->ts_ns || (d->ts_ns == e->ts_ns &&
				    (d->dur_ns > e->dur_ns || (d->dur_ns == e->dur_ns &&
				    did < id))), "seed %llu, n %u, layout %d: events %u, "
				    "%u out of order", (unsigned long long)seed, n, layout,
				    did, id);
			}
		}
	}
	for (uint32_t i = 0; i < n; i++)
		cr_assert(p[i].seen, "event %u lost", i);
	trace_free(&t);
	free(p);
}

Test(track, events_sorted_against_brute_force)
{
	/* 150000 events (6 MB): the old array is given back as it is copied */
	static const uint32_t sizes[] = { 0, 1, 2, 7, 300, 5000, 150000 };

	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
		for (int layout = 0; layout < 3; layout++)
			for (uint64_t seed = 1; seed <= (sizes[s] > 10000 ? 1 : 3); seed++)
				check_sorted(seed, sizes[s], layout);
}
