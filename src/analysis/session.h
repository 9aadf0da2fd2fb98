/*
 * session — one run of gantty over a set of traces: load them (several at
 * once, on a small pool of threads), align their clocks, and analyse every
 * device of every trace.
 *
 * The session owns its traces, its analyses (in trace order, then device
 * order: the order of the report and the viewer's ranks), the --align
 * offsets and the warnings; session_free() frees them all.  It never prints:
 * the warnings are kept in order, each without the "gantty: warning: "
 * prefix, for the caller to show (or not, with -q), and a failure leaves its
 * message in err ("FILE: byte N (line L): what went wrong" for a trace that
 * does not load), for the caller to print.  Progress while loading goes to
 * the caller's hooks.
 */
#ifndef GANTTY_SESSION_H
#define GANTTY_SESSION_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/analysis.h"
#include "analysis/compare.h"
#include "load/input.h"
#include "model/trace.h"

/* The caller's view of a load in progress; any hook may be NULL. */
struct session_hooks {
	/*
	 * Bytes of path read so far, of total (0 when unknown); called only when
	 * there is one file, from the thread that loads it.
	 */
	void (*progress)(const char *path, uint64_t done, uint64_t total, void *ctx);
	/*
	 * path is loaded, or failed (done of n files are finished); note says
	 * what the cache did, or is empty.  Called under the session's lock, so
	 * one at a time, from any loader thread.
	 */
	void (*loaded)(const char *path, const char *note, size_t done, size_t n,
	    void *ctx);
	void *ctx;
};

struct session {
	struct trace **traces;          /* in input order, ranks assigned */
	size_t ntraces;
	int64_t origin_ns, last_ns;     /* span of the traces' events */
	struct analysis *an;            /* session_analyse(): rank, then device */
	size_t n_analyses;
	int64_t *align_ns;              /* session_align(): per analysis, or NULL */
	size_t unaligned;               /* participants --align could not place */
	char **warnings;
	size_t nwarnings;
	char err[8192];                 /* the last failure's message */
	const regex_t *comm_pattern;    /* --comm-pattern (comm.h): set before
	                                   session_load(), NULL for none */
};

/* The two sides of --diff, and their comparison. */
struct session_diff {
	const struct analysis *a, *b;
	struct analysis step[2];        /* --diff-steps: its own two analyses */
	int nstep;                      /* how many of step[] are built */
	struct compare d;
};

/* Zeroes s. */
void session_init(struct session *s);

/*
 * Loads every input, in parallel, with the cache in cache_dir (NULL: none);
 * non-traces found in a directory are skipped with a warning, every loaded
 * trace's warnings follow it, in input order.  Returns 0, or -1 with the
 * first failure in input order (or "no traces loaded") in s->err; the traces
 * loaded before it are kept.  Called once per session.
 */
int session_load(struct session *s, const struct input_list *in,
    const char *cache_dir, const struct session_hooks *hooks);

/*
 * --align=collective: analyses every (rank, device) with o's default window,
 * matches their collectives, and shifts each trace by the offset of its
 * first (rank, device) against the first trace's; recomputes the span.
 * Keeps the offsets per analysis of all ranks in s->align_ns.  Does nothing
 * for fewer than two traces.
 */
void session_align(struct session *s, const struct analysis_opts *o);

/*
 * --compare: shifts the second of two traces so that its first step starts
 * with the first trace's (compare_align_offset()), and recomputes the span
 * of both.  Does nothing unless there are exactly two traces.
 */
void session_compare_align(struct session *s, const struct analysis_opts *o);

/*
 * --window=START:END (or another option of that form, named by option, as
 * "--marks"): sets o's absolute window from durations relative to the
 * session's origin (END empty: its last event).  Returns 0, or -1 with the
 * usage error in s->err.
 */
int session_window(struct session *s, const char *option, const char *text,
    struct analysis_opts *o);

/*
 * Analyses every device of every one of traces[0..n) (a trace without GPU
 * activity: one analysis of device -1) whose rank is rank (-1: all), with
 * o; appends them to *an (count *n_an, capacity *cap, growing it).  Each
 * analysis refers to its trace, which must outlive it.  O(events) per
 * analysis.
 */
void session_analyse_traces(struct analysis **an, size_t *n_an, size_t *cap,
    struct trace *const *traces, size_t n, const struct analysis_opts *o,
    int64_t rank);

/*
 * Analyses the session's traces (session_analyse_traces()) into s->an, with
 * a warning for each whose step window o names no step.  Returns 0, or -1
 * with the message in s->err: "no rank N among the traces loaded" when none
 * has rank, or, for o's step window, when none of those of rank has the
 * step, "no ProfilerStep#99 in FILE; its steps are 10-17" ("in any of the N
 * traces; their steps are ...", with " (not all on every trace)" when they
 * differ; at most 20 runs of steps, then a count).
 */
int session_analyse(struct session *s, const struct analysis_opts *o,
    int64_t rank);

/*
 * --diff: the first analysis of the first trace against that of the
 * second, or with steps (--diff-steps=N:M) step steps[0] against steps[1]
 * of the first analysis, each with o's other options.  Fills d, which
 * refers to s's analyses.  Returns 0, or -1 with the message in s->err (d
 * needs no freeing then; a step the trace lacks is named with the steps it
 * has, as in session_analyse()).  rank is --rank (-1: none), for the
 * message.
 */
int session_diff(struct session *s, const struct analysis_opts *o,
    const int64_t *steps, int64_t rank, struct session_diff *d);

/* Frees what d built. */
void session_diff_free(struct session_diff *d);

/* A short title into buf: the first trace's file, and how many more. */
void session_title(const struct session *s, char *buf, size_t size);

/* Frees everything s owns; s may be zeroed. */
void session_free(struct session *s);

#endif
