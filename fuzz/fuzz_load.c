/*
 * fuzz_load — libFuzzer target for the whole --report path.
 *
 * The input is one trace file (plain JSON, or gzip when it starts with the
 * magic bytes).  It is written to a memfd and loaded by path, exactly as the
 * command line loads a file; every device of the trace is then analysed
 * (default options; then an absolute window over the first half of the
 * trace, with the trace given twice so that the cross-rank analysis runs;
 * then the window of step 1) and written as a JSON, text and CSV report to
 * /dev/null.  A crash, a sanitizer report, a leak or a
 * timeout is a finding; a load error is not.
 *
 * Built and run by fuzz/run, which see.
 */
#define _GNU_SOURCE 1
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "analysis/metrics.h"
#include "analysis/session.h"
#include "load/input.h"
#include "load/load.h"
#include "model/trace.h"
#include "report/report_analyses.h"

#include "memfile.h"

static FILE *devnull;

/*
 * Analyses every device of t (copies times over: the same trace given again,
 * as a user passing one file twice does) and writes the three reports, with
 * the cross-rank analysis when there are several participants, as main does.
 */
static void
analyse_and_report(struct trace *t, const struct analysis_opts *o, int copies)
{
	struct trace *traces[2] = { t, t };
	struct analysis *an = NULL;
	size_t n_analyses = 0, cap = 0;

	session_analyse_traces(&an, &n_analyses, &cap, traces, (size_t)copies, o, -1);
	report_analyses_write(devnull, REPORT_JSON, o, t->start_ns, an, n_analyses,
	    NULL, 0, 0);
	report_analyses_write(devnull, REPORT_TEXT, o, t->start_ns, an, n_analyses,
	    NULL, 0, 0);
	report_analyses_write(devnull, REPORT_CSV, o, t->start_ns, an, n_analyses,
	    NULL, 0, 0);
	for (size_t i = 0; i < n_analyses; i++)
		analysis_free(&an[i]);
	free(an);
}

/* Aborts unless a and b (one file, loaded two ways) are the same model. */
static void
same_model(const struct trace *a, const struct trace *b)
{
	if (a->nevents != b->nevents ||
	    a->nnums != b->nnums || a->ncomms != b->ncomms ||
	    a->ntracks != b->ntracks || a->strs.count != b->strs.count ||
	    a->objects != b->objects || a->flow_count != b->flow_count ||
	    memcmp(&a->warn, &b->warn, sizeof a->warn) != 0 ||
	    (a->nevents > 0 && memcmp(a->events, b->events,
	    a->nevents * sizeof *a->events) != 0) ||
	    (a->nevents > 0 && memcmp(a->args, b->args, a->nevents * sizeof *a->args) != 0) ||
	    (a->nnums > 0 && memcmp(a->nums, b->nums, a->nnums * sizeof *a->nums) != 0) ||
	    a->nseqs != b->nseqs ||
	    (a->nseqs > 0 && memcmp(a->seqs, b->seqs, a->nseqs * sizeof *a->seqs) != 0) ||
	    a->npairs != b->npairs ||
	    (a->npairs > 0 && memcmp(a->pairs, b->pairs, a->npairs * sizeof *a->pairs) != 0) ||
	    (a->stop_reason == NULL) != (b->stop_reason == NULL) ||
	    (a->stop_reason != NULL && strcmp(a->stop_reason, b->stop_reason) != 0))
		abort();
	for (uint32_t i = 0; i < a->strs.count; i++)
		if (strcmp(trace_str(a, i), trace_str(b, i)) != 0)
			abort();
}

/*
 * Loads path again in two chunks at once (chunks.c; gzip too, where ISA-L
 * is built in): the same result, or the same error, as the one-thread load
 * (rc, t, err).
 */
static void
check_halves(const char *path, int rc, const struct trace *t,
    const struct load_error *err)
{
	struct trace h;
	struct load_error herr;
	int hrc;

	setenv("GANTTY_SPLIT_MIN", "1", 1);
	setenv("GANTTY_LOAD_THREADS", "2", 1);
	hrc = load_trace(&h, path, NULL, &herr);
	setenv("GANTTY_LOAD_THREADS", "1", 1);
	if (hrc != rc || strcmp(herr.msg, err->msg) != 0)
		abort();
	if (hrc == 0) {
		same_model(t, &h);
		trace_free(&h);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct trace t;
	struct load_error err;
	struct analysis_opts o;
	char path[64];
	int fd;

	if (devnull == NULL && (devnull = fopen("/dev/null", "w")) == NULL)
		abort();
	fd = memfile("trace", data, size, path, sizeof path);
	setenv("GANTTY_LOAD_THREADS", "1", 1);
	if (load_trace(&t, path, NULL, &err) < 0) {
		check_halves(path, -1, NULL, &err);
		/* A failed load names the file, and says where unless it is empty. */
		if (strncmp(err.msg, path, strlen(path)) != 0)
			abort();
		close(fd);
		return 0;
	}
	check_halves(path, 0, &t, &err);
	close(fd);
	input_assign_rank(&t, 0);

	memset(&o, 0, sizeof o);
	o.min_gap_ns = METRICS_DEFAULT_MIN_GAP_NS;
	o.ranks_loaded = 1;
	o.memory = 1;           /* as --report builds them */
	analyse_and_report(&t, &o, 1);

	if (t.end_ns > t.start_ns) {
		o.window = WINDOW_ABSOLUTE;
		o.start_ns = t.start_ns;
		o.end_ns = t.start_ns +
		    (int64_t)(((uint64_t)t.end_ns - (uint64_t)t.start_ns) / 2) + 1;
		o.min_gap_ns = 0;
		o.mfu.flops_per_step = 1e12;
		o.mfu.peak_tflops = 989;
		analyse_and_report(&t, &o, 2);
	}
	memset(&o, 0, sizeof o);
	o.min_gap_ns = METRICS_DEFAULT_MIN_GAP_NS;
	o.window = WINDOW_STEP;
	o.step = 1;
	o.ranks_loaded = 2;
	o.memory = 1;
	analyse_and_report(&t, &o, 1);

	trace_free(&t);
	return 0;
}
