#include "config.h"

#include "analysis/steps.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/metrics.h"
#include "model/trace.h"
#include "base/xalloc.h"

/* Returns 1 and sets *num if name is exactly "ProfilerStep#<digits>". */
static int
step_number(const char *name, int64_t *num)
{
	static const char prefix[] = "ProfilerStep#";
	const char *p;
	int64_t n = 0;

	/* the first byte rules out nearly every CPU event without a call */
	if (name[0] != 'P' || strncmp(name, prefix, sizeof prefix - 1) != 0)
		return 0;
	p = name + sizeof prefix - 1;
	if (*p == '\0')
		return 0;
	for (; *p != '\0'; p++) {
		int digit = *p - '0';

		if (digit < 0 || digit > 9)
			return 0;
		if (n > (INT64_MAX - digit) / 10)
			return 0;       /* beyond int64: not a step we can number */
		n = n * 10 + digit;
	}
	*num = n;
	return 1;
}

static int
i64_cmp(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;

	return a < b ? -1 : a > b;
}

/* By CPU start, then longer first, then event index: deterministic. */
static int
step_cmp(const void *pa, const void *pb)
{
	const struct step *a = pa, *b = pb;

	if (a->start_ns != b->start_ns)
		return a->start_ns < b->start_ns ? -1 : 1;
	if (a->end_ns != b->end_ns)
		return a->end_ns > b->end_ns ? -1 : 1;
	return a->event < b->event ? -1 : a->event > b->event;
}

/* Returns the index of the last step starting at or before ts_ns, or -1. */
static long
last_started(const struct step *s, size_t n, int64_t ts_ns)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s[mid].start_ns <= ts_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (long)lo - 1;
}

long
steps_at(const struct step *s, size_t n, int64_t ts_ns)
{
	long i = last_started(s, n, ts_ns);

	/*
	 * Steps do not overlap in real traces; where they do, only the latest
	 * starting one is considered, so that this stays O(log n).
	 */
	if (i >= 0 && ts_ns < s[i].end_ns)
		return i;
	return -1;
}

static void
extend(struct step *s, const struct event *act)
{
	int64_t a = act->ts_ns, b = event_end(act);

	if (!s->has_gpu) {
		s->has_gpu = 1;
		s->gpu_start_ns = a;
		s->gpu_end_ns = b;
		return;
	}
	if (a < s->gpu_start_ns)
		s->gpu_start_ns = a;
	if (b > s->gpu_end_ns)
		s->gpu_end_ns = b;
}

/*
 * The step annotations of t, unsorted, into a malloc'd *out (NULL if none):
 * the X events on CPU tracks named "ProfilerStep#N".  Returns how many.
 */
static size_t
annotations(const struct trace *t, struct step **out)
{
	struct step *s = NULL;
	size_t n = 0, cap = 0;

	/* the step annotations: a few names among the trace's */
	for (uint32_t id = 0; id < t->byname.nnames; id++) {
		size_t m;
		const uint32_t *ev = byname_events(&t->byname, id, &m);
		int64_t num;

		if (m == 0 || !step_number(trace_str(t, id), &num))
			continue;
		for (size_t j = 0; j < m; j++) {
			const struct event *e = &t->events[ev[j]];

			if (event_ph(e) != 'X' || t->tracks[e->track].kind != TRACK_CPU)
				continue;
			xgrow(&s, &cap, n + 1, sizeof *s);
			memset(&s[n], 0, sizeof s[n]);
			s[n].event = ev[j];
			s[n].number = num;
			s[n].start_ns = e->ts_ns;
			s[n].end_ns = event_end(e);
			n++;
		}
	}
	*out = s;
	return n;
}

size_t
steps_numbers(const struct trace *t, int64_t **out)
{
	struct step *s;
	size_t n = annotations(t, &s), k = 0;
	int64_t *v = n > 0 ? xreallocarray(NULL, n, sizeof *v) : NULL;

	for (size_t i = 0; i < n; i++)
		v[i] = s[i].number;
	free(s);
	if (n > 0)
		qsort(v, n, sizeof *v, i64_cmp);
	for (size_t i = 0; i < n; i++)
		if (k == 0 || v[k - 1] != v[i])
			v[k++] = v[i];
	*out = v;
	return k;
}

/*
 * Ends each step's GPU extent (s[0..n) in start order) where the next step
 * with GPU activity starts, when its own work runs on past that (another
 * stream of the next step began while this one's queue drained): the
 * extents partition time, so per-step sums never exceed the window's.
 */
static void
no_overlap(struct step *s, size_t n)
{
	int64_t prev_end = INT64_MIN;

	for (size_t i = 0; i < n; i++) {
		size_t k = i + 1;

		if (!s[i].has_gpu)
			continue;
		if (s[i].gpu_start_ns < prev_end)
			s[i].gpu_start_ns = prev_end;
		while (k < n && !s[k].has_gpu)
			k++;
		if (k < n && s[k].gpu_start_ns < s[i].gpu_end_ns)
			s[i].gpu_end_ns = s[k].gpu_start_ns;
		if (s[i].gpu_end_ns < s[i].gpu_start_ns)
			s[i].gpu_end_ns = s[i].gpu_start_ns;
		prev_end = s[i].gpu_end_ns;
	}
}

size_t
steps_find(const struct metrics *d, struct step **out)
{
	const struct trace *t = d->t;
	struct step *s;
	size_t n;
	int linked = 0;

	*out = NULL;
	if (t == NULL)
		return 0;
	n = annotations(t, &s);
	if (n == 0)
		return 0;
	qsort(s, n, sizeof *s, step_cmp);

	for (size_t i = 0; i < d->nacts && !linked; i++)
		linked = d->launch_ns[i] != METRICS_UNLINKED;
	for (size_t i = 0; i < d->nacts; i++) {
		const struct event *act = &t->events[d->acts[i]];
		long k;

		if (linked) {
			if (d->launch_ns[i] == METRICS_UNLINKED)
				continue;
			k = steps_at(s, n, d->launch_ns[i]);
		} else {
			/* [step start, next step start), the last open-ended */
			k = last_started(s, n, act->ts_ns);
		}
		if (k >= 0)
			extend(&s[k], act);
	}
	no_overlap(s, n);
	if (n > 0 && trace_events_lost(t)) {
		s[n - 1].incomplete = 1;
		steps_outliers(s, n - 1);
	} else {
		steps_outliers(s, n);
	}
	*out = s;
	return n;
}

static int
dbl_cmp(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return a < b ? -1 : a > b;
}

void
steps_outliers(struct step *s, size_t n)
{
	int64_t *dur;
	double *dev;
	double median, mad, scale;

	for (size_t i = 0; i < n; i++) {
		s[i].z = 0;
		s[i].outlier = 0;
	}
	if (n < STEPS_MIN_FOR_OUTLIERS)
		return;

	dur = xreallocarray(NULL, n, sizeof *dur);
	dev = xreallocarray(NULL, n, sizeof *dev);
	for (size_t i = 0; i < n; i++)
		dur[i] = s[i].end_ns - s[i].start_ns;
	qsort(dur, n, sizeof *dur, i64_cmp);
	median = n % 2 ? (double)dur[n / 2] :
	    ((double)dur[n / 2 - 1] + (double)dur[n / 2]) / 2;
	for (size_t i = 0; i < n; i++)
		dev[i] = fabs((double)dur[i] - median);
	qsort(dev, n, sizeof *dev, dbl_cmp);
	mad = n % 2 ? dev[n / 2] : (dev[n / 2 - 1] + dev[n / 2]) / 2;
	if (mad > 0) {
		scale = 1.4826 * mad;
	} else {
		double mean = 0, meanad = 0;

		for (size_t i = 0; i < n; i++)
			mean += (double)dur[i];
		mean /= (double)n;
		for (size_t i = 0; i < n; i++)
			meanad += fabs((double)dur[i] - mean);
		meanad /= (double)n;
		scale = 1.2533 * meanad;
	}
	free(dur);
	free(dev);
	if (!(scale > 0))
		return;         /* every step as long as the others */
	for (size_t i = 0; i < n; i++) {
		double t = (double)(s[i].end_ns - s[i].start_ns);

		s[i].z = (t - median) / scale;
		s[i].outlier = s[i].z > 3.5 && t > 1.1 * median;
	}
}

long
steps_median(const struct step *s, size_t n)
{
	int64_t *dur, m;
	long k = -1;

	if (n == 0)
		return -1;
	dur = xreallocarray(NULL, n, sizeof *dur);
	for (size_t i = 0; i < n; i++)
		dur[i] = s[i].end_ns - s[i].start_ns;
	qsort(dur, n, sizeof *dur, i64_cmp);
	m = dur[n / 2];
	free(dur);
	for (size_t i = 0; i < n && k < 0; i++)
		if (s[i].end_ns - s[i].start_ns == m)
			k = (long)i;
	return k;
}
