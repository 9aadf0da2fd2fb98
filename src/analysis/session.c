/*
 * session — load a set of traces, align them, analyse every device.
 */
#include "config.h"

#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/align.h"
#include "analysis/crossrank.h"
#include "analysis/metrics.h"
#include "analysis/session.h"
#include "base/ranges.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "base/job.h"
#include "load/cache.h"
#include "load/load.h"
#include "model/comm.h"

void
session_init(struct session *s)
{
	memset(s, 0, sizeof *s);
}

static void
warn(struct session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
warn(struct session *s, const char *fmt, ...)
{
	va_list ap;
	char buf[8192];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	s->warnings = xreallocarray(s->warnings, s->nwarnings + 1, sizeof *s->warnings);
	s->warnings[s->nwarnings++] = xstrdup(buf);
}

/*
 * Loading runs on a small pool of threads (one per core, at most one per
 * file): each worker takes the next file, loads and finalises it, with the
 * cores beyond one per file shared out among the files (load_opts.threads).
 * Results are then taken in input order, so ranks, errors and warnings do
 * not depend on which thread finished first.
 */
struct loader {
	const struct input_list *in;
	const struct session_hooks *hooks;
	const char *cache_dir;          /* NULL: no cache */
	const regex_t *comm_pattern;    /* s->comm_pattern */
	struct trace **slot;            /* per input: the trace, or NULL */
	struct load_error *err;         /* per input */
	size_t next, done;
	int file_threads;               /* load_opts.threads of each file */
	pthread_mutex_t mu;
};

/* One file's progress, for the hook that wants its path. */
struct file_progress {
	const struct session_hooks *hooks;
	const char *path;
};

static void
file_progress(uint64_t done, uint64_t total, void *ctx)
{
	struct file_progress *p = ctx;

	p->hooks->progress(p->path, done, total, p->hooks->ctx);
}

static void *
load_worker(void *arg)
{
	struct loader *L = arg;

	for (;;) {
		size_t i;
		struct trace *t;
		struct file_progress prog;
		/* files in parallel, the cores shared out among them */
		struct load_opts lopts = { NULL, &prog, L->file_threads };
		char note[PATH_MAX + 1024];

		pthread_mutex_lock(&L->mu);
		i = L->next++;
		pthread_mutex_unlock(&L->mu);
		if (i >= L->in->n)
			return NULL;
		t = xmalloc(sizeof *t);
		prog.hooks = L->hooks;
		prog.path = L->in->v[i].path;
		/* per-file progress only when there is one file (one line to update) */
		if (L->in->n == 1 && L->hooks->progress != NULL)
			lopts.progress = file_progress;
		if (cache_load_trace(t, L->in->v[i].path, &lopts, &L->err[i],
		    L->cache_dir, note, sizeof note) < 0) {
			free(t);
			t = NULL;
		} else if (L->comm_pattern != NULL) {
			comm_classify(t, L->comm_pattern);
		}
		pthread_mutex_lock(&L->mu);
		L->slot[i] = t;
		L->done++;
		if (L->hooks->loaded != NULL)
			L->hooks->loaded(L->in->v[i].path, note, L->done, L->in->n,
			    L->hooks->ctx);
		pthread_mutex_unlock(&L->mu);
	}
}

/* A loaded trace's warnings, as the user reads them. */
static void
trace_warnings(struct session *s, const struct trace *t)
{
#define X(f, k, txt) \
	if (t->warn.f != 0) \
		warn(s, "%s: %llu %s", t->path, (unsigned long long)t->warn.f, txt);
	TRACE_WARNINGS(X)
#undef X
	if (t->stop_reason != NULL)
		warn(s, "stopped reading at %s", t->stop_reason);
}

int
session_load(struct session *s, const struct input_list *in,
    const char *cache_dir, const struct session_hooks *hooks)
{
	static const struct session_hooks none;
	struct loader L;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	size_t nthreads = ncpu < 1 ? 1 : (size_t)ncpu;
	pthread_t tids[16];
	size_t started = 0;
	int rc = 0;

	if (nthreads > 16)
		nthreads = 16;
	if (nthreads > in->n)
		nthreads = in->n;
	memset(&L, 0, sizeof L);
	L.in = in;
	L.hooks = hooks != NULL ? hooks : &none;
	L.cache_dir = cache_dir;
	L.comm_pattern = s->comm_pattern;
	/* one file: its own choice; several: the cores left to each */
	L.file_threads = in->n <= 1 ? 0 :
	    ncpu >= 2 * (long)in->n ? (int)(ncpu / (long)in->n) : 1;
	L.slot = xcalloc(in->n, sizeof *L.slot);
	L.err = xcalloc(in->n, sizeof *L.err);
	pthread_mutex_init(&L.mu, NULL);
	for (size_t i = 1; i < nthreads; i++)
		if (job_thread(&tids[started], load_worker, &L) == 0)
			started++;
	load_worker(&L);
	for (size_t i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	pthread_mutex_destroy(&L.mu);

	s->traces = xcalloc(in->n, sizeof *s->traces);
	for (size_t i = 0; i < in->n; i++) {
		struct trace *t = L.slot[i];

		if (t == NULL) {
			if (rc < 0)
				continue;
			/* found in a directory: a JSON that is no trace, a
			   subdirectory or a dangling link named *.json */
			if (in->v[i].from_dir && (L.err[i].not_trace ||
			    L.err[i].not_file)) {
				warn(s, "%s, skipped", L.err[i].msg);
				continue;
			}
			snprintf(s->err, sizeof s->err, "%s", L.err[i].msg);
			rc = -1;
			continue;
		}
		if (rc < 0) {
			trace_free(t);
			free(t);
			continue;
		}
		input_assign_rank(t, s->ntraces);
		trace_warnings(s, t);
		if (t->nevents > 0) {
			if (s->ntraces == 0 || t->start_ns < s->origin_ns)
				s->origin_ns = t->start_ns;
			if (s->ntraces == 0 || t->end_ns > s->last_ns)
				s->last_ns = t->end_ns;
		}
		s->traces[s->ntraces++] = t;
	}
	free(L.slot);
	free(L.err);
	if (rc == 0 && s->ntraces == 0) {
		snprintf(s->err, sizeof s->err, "no traces loaded");
		rc = -1;
	}
	return rc;
}

void
session_analyse_traces(struct analysis **an, size_t *n_an, size_t *cap,
    struct trace *const *traces, size_t n, const struct analysis_opts *o,
    int64_t rank)
{
	for (size_t i = 0; i < n; i++) {
		int32_t *devs = NULL;
		size_t ndev;

		if (rank >= 0 && traces[i]->rank != rank)
			continue;
		ndev = metrics_devices(traces[i], &devs);
		for (size_t d = 0; d < (ndev ? ndev : 1); d++) {
			xgrow(an, cap, *n_an + 1, sizeof **an);
			analysis_build(&(*an)[(*n_an)++], traces[i], ndev ? devs[d] : -1, o);
		}
		free(devs);
	}
}

void
session_align(struct session *s, const struct analysis_opts *o)
{
	struct analysis_opts dflt = *o;
	struct analysis *an = NULL;
	size_t n_an = 0, cap = 0, n = s->ntraces;
	size_t *first;
	struct crossrank x;
	int64_t *off;

	if (n < 2)
		return;
	dflt.window = WINDOW_DEFAULT;
	dflt.layer_pattern = NULL;
	first = xcalloc(n, sizeof *first);
	for (size_t i = 0; i < n; i++) {
		first[i] = n_an;
		session_analyse_traces(&an, &n_an, &cap, &s->traces[i], 1, &dflt, -1);
	}
	crossrank_build(&x, an, n_an);
	off = xcalloc(n_an + 1, sizeof *off);
	align_offsets(&x, off, &s->unaligned);
	crossrank_free(&x);
	for (size_t i = 0; i < n_an; i++)
		analysis_free(&an[i]);
	free(an);
	/* one clock per trace: its first (rank, device) decides */
	for (size_t i = 0; i < n; i++)
		align_shift(s->traces[i], off[first[i]]);
	for (size_t i = 0; i < n; i++) {
		size_t end = i + 1 < n ? first[i + 1] : n_an;

		for (size_t k = first[i] + 1; k < end; k++)
			off[k] = off[first[i]];
	}
	free(first);
	free(s->align_ns);
	s->align_ns = off;
	s->origin_ns = s->traces[0]->start_ns;
	s->last_ns = s->traces[0]->end_ns;
	for (size_t i = 1; i < n; i++) {
		if (s->traces[i]->nevents == 0)
			continue;
		if (s->traces[i]->start_ns < s->origin_ns)
			s->origin_ns = s->traces[i]->start_ns;
		if (s->traces[i]->end_ns > s->last_ns)
			s->last_ns = s->traces[i]->end_ns;
	}
}

void
session_compare_align(struct session *s, const struct analysis_opts *o)
{
	struct analysis a[2];
	struct analysis_opts dflt = *o;
	struct trace **t = s->traces;
	int32_t *devs;

	if (s->ntraces != 2)
		return;
	dflt.window = WINDOW_DEFAULT;
	for (int k = 0; k < 2; k++) {
		devs = NULL;
		analysis_build(&a[k], t[k], metrics_devices(t[k], &devs) ? devs[0] : -1,
		    &dflt);
		free(devs);
	}
	align_shift(t[1], compare_align_offset(&a[0], &a[1]));
	for (int k = 0; k < 2; k++)
		analysis_free(&a[k]);
	s->origin_ns = t[0]->start_ns < t[1]->start_ns ? t[0]->start_ns : t[1]->start_ns;
	s->last_ns = t[0]->end_ns > t[1]->end_ns ? t[0]->end_ns : t[1]->end_ns;
}

/* origin + d, saturated to the model's time range (SPEC: +-2^62 ns). */
static int64_t
clamp_add(int64_t origin, int64_t d)
{
	if (d > TRACE_TIME_MAX - origin)
		return TRACE_TIME_MAX;
	if (d < -TRACE_TIME_MAX - origin)
		return -TRACE_TIME_MAX;
	return origin + d;
}

int
session_window(struct session *s, const char *option, const char *text,
    struct analysis_opts *o)
{
	char *copy = xstrdup(text), *colon = strchr(copy, ':');
	int64_t a = 0, b = s->last_ns - s->origin_ns;
	const char *bad = NULL;

	if (colon == NULL) {
		snprintf(s->err, sizeof s->err,
		    "%s needs START:END (e.g. 10ms:25ms), not '%s'", option, text);
		free(copy);
		return -1;
	}
	*colon = '\0';
	if (*copy != '\0' && units_parse_duration(copy, &a) != UNITS_OK)
		bad = copy;
	else if (colon[1] != '\0' && units_parse_duration(colon + 1, &b) != UNITS_OK)
		bad = colon + 1;
	if (bad != NULL)
		snprintf(s->err, sizeof s->err,
		    "%s: '%s' is not a duration with a unit", option, bad);
	else if (b <= a)
		snprintf(s->err, sizeof s->err,
		    "%s must end after it starts: '%s'", option, text);
	free(copy);
	if (bad != NULL || b <= a)
		return -1;
	o->window = WINDOW_ABSOLUTE;
	o->start_ns = clamp_add(s->origin_ns, a);
	o->end_ns = clamp_add(s->origin_ns, b);
	return 0;
}

static int
cmp_i64(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;

	return (a > b) - (a < b);
}

/* How many step runs the message of a missing step writes at most. */
#define STEP_LIST_RUNS 20

/*
 * Whether one of tr[0..n) whose rank is rank (-1: any) has ProfilerStep#step;
 * if none has, and there is one at least, "no ProfilerStep#N in FILE; its
 * steps are 10-17" (of several: in any of them, and the steps they have
 * between them) after prefix in err.  Returns 1 if one has it or there is
 * none of that rank, else 0.
 */
static int
step_present(char *err, size_t size, const char *prefix, int64_t step,
    struct trace *const *tr, size_t n, int64_t rank)
{
	int64_t *all = NULL, *v, *v0 = NULL;
	size_t nall = 0, cap = 0, ntraces = 0, first = 0, nv, nv0 = 0;
	int same = 1, found = 0;
	char *text = NULL;
	size_t len = 0;
	FILE *out;
	struct ranges r;

	for (size_t i = 0; i < n && !found; i++) {
		if (rank >= 0 && tr[i]->rank != rank)
			continue;
		nv = steps_numbers(tr[i], &v);
		for (size_t k = 0; k < nv; k++)
			found |= v[k] == step;
		if (ntraces++ == 0) {
			first = i;
			nv0 = nv;
			v0 = xcalloc(nv + 1, sizeof *v0);
			memcpy(v0, v, nv * sizeof *v);
		} else if (nv != nv0 || memcmp(v, v0, nv * sizeof *v) != 0) {
			same = 0;       /* not the steps of the first trace */
		}
		xgrow(&all, &cap, nall + nv + 1, sizeof *all);
		memcpy(all + nall, v, nv * sizeof *v);
		nall += nv;
		free(v);
	}
	free(v0);
	if (found || ntraces == 0) {
		free(all);
		return 1;
	}
	if (nall > 0)
		qsort(all, nall, sizeof *all, cmp_i64);
	out = open_memstream(&text, &len);
	if (out == NULL) {
		snprintf(err, size, "%sno ProfilerStep#%lld in the traces", prefix,
		    (long long)step);
		free(all);
		return 0;
	}
	if (ntraces == 1)
		fprintf(out, "%sno ProfilerStep#%lld in %s; ", prefix, (long long)step,
		    tr[first]->path);
	else
		fprintf(out, "%sno ProfilerStep#%lld in any of the %zu traces; ",
		    prefix, (long long)step, ntraces);
	if (nall == 0) {
		fputs(ntraces == 1 ? "it has no steps" : "none of them has steps", out);
	} else {
		fputs(ntraces == 1 ? "its steps are " : "their steps are ", out);
		ranges_begin(&r, out, STEP_LIST_RUNS);
		for (size_t k = 0; k < nall; k++)
			ranges_add(&r, all[k]);
		ranges_end(&r);
		if (!same)
			fputs(" (not all on every trace)", out);
	}
	fclose(out);
	snprintf(err, size, "%s", text);
	free(text);
	free(all);
	return 0;
}

int
session_analyse(struct session *s, const struct analysis_opts *o, int64_t rank)
{
	size_t cap = 0;

	if (o->window == WINDOW_STEP && !step_present(s->err, sizeof s->err, "",
	    o->step, s->traces, s->ntraces, rank))
		return -1;
	session_analyse_traces(&s->an, &s->n_analyses, &cap, s->traces, s->ntraces,
	    o, rank);
	for (size_t i = 0; i < s->n_analyses; i++)
		if (o->window == WINDOW_STEP && !s->an[i].has_window)
			warn(s, "%s: %s", s->an[i].t->path, s->an[i].problem);
	if (s->n_analyses == 0) {
		snprintf(s->err, sizeof s->err, "no rank %lld among the traces loaded",
		    (long long)rank);
		return -1;
	}
	return 0;
}

int
session_diff(struct session *s, const struct analysis_opts *o,
    const int64_t *steps, int64_t rank, struct session_diff *d)
{
	memset(d, 0, sizeof *d);
	if (steps != NULL) {
		/* two steps of one trace: its first analysed device, twice */
		for (int k = 0; k < 2; k++) {
			struct analysis_opts so = *o;

			if (s->n_analyses == 0 || s->an[0].device < 0) {
				snprintf(s->err, sizeof s->err, "--diff-steps: no GPU activity");
				session_diff_free(d);
				return -1;
			}
			so.window = WINDOW_STEP;
			so.step = steps[k];
			analysis_build(&d->step[k], s->an[0].t, s->an[0].device, &so);
			d->nstep++;
			if (!d->step[k].has_window) {
				size_t i = 0;

				while (i + 1 < s->ntraces && s->traces[i] != s->an[0].t)
					i++;        /* the analysed trace */
				if (step_present(s->err, sizeof s->err, "--diff-steps: ",
				    steps[k], &s->traces[i], 1, -1))
					snprintf(s->err, sizeof s->err, "--diff-steps: %s",
					    d->step[k].problem);
				session_diff_free(d);
				return -1;
			}
		}
		d->a = &d->step[0];
		d->b = &d->step[1];
	} else {
		if (s->ntraces != 2) {
			snprintf(s->err, sizeof s->err,
			    "--diff compares two trace files, not %zu traces", s->ntraces);
			return -1;
		}
		const struct analysis *side[2] = { NULL, NULL };

		for (size_t i = 0; i < s->n_analyses; i++)
			for (int k = 0; k < 2; k++)
				if (side[k] == NULL && s->an[i].t == s->traces[k])
					side[k] = &s->an[i];
		if (side[0] == NULL || side[1] == NULL) {
			snprintf(s->err, sizeof s->err, "--diff: %s has no rank %lld",
			    s->traces[side[0] == NULL ? 0 : 1]->path, (long long)rank);
			return -1;
		}
		d->a = side[0];
		d->b = side[1];
	}
	/* two windows of one trace have other numbers by design: by position */
	compare_build(&d->d, d->a, d->b,
	    d->nstep == 2 ? COMPARE_BY_POSITION : COMPARE_BY_NUMBER);
	return 0;
}

void
session_diff_free(struct session_diff *d)
{
	if (d->a != NULL)
		compare_free(&d->d);
	for (int k = 0; k < d->nstep; k++)
		analysis_free(&d->step[k]);
	memset(d, 0, sizeof *d);
}

void
session_title(const struct session *s, char *buf, size_t size)
{
	const char *base = strrchr(s->traces[0]->path, '/');

	base = base ? base + 1 : s->traces[0]->path;
	if (strcmp(base, "-") == 0)
		base = "standard input";
	if (s->ntraces == 1)
		snprintf(buf, size, "%s", base);
	else
		snprintf(buf, size, "%s +%zu more", base, s->ntraces - 1);
}

void
session_free(struct session *s)
{
	for (size_t i = 0; i < s->n_analyses; i++)
		analysis_free(&s->an[i]);
	free(s->an);
	free(s->align_ns);
	for (size_t i = 0; i < s->ntraces; i++) {
		trace_free(s->traces[i]);
		free(s->traces[i]);
	}
	free(s->traces);
	for (size_t i = 0; i < s->nwarnings; i++)
		free(s->warnings[i]);
	free(s->warnings);
	memset(s, 0, sizeof *s);
}
