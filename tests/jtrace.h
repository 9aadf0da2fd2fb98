/*
 * jtrace — a tiny Kineto trace writer for the unit tests (included by each
 * test that needs it; every test is its own program).
 *
 * JSON text with times in whole microseconds, loaded from a temporary file
 * with the real loader.  CPU events in pid 100 (tid 1 main, tid 2
 * autograd); GPU activity of device 0 on stream 7 (compute) and 22 (NCCL).
 * Usage: j_begin(); cpu(...) / ann(...) / step(...) / kernel(...);
 * j_load(&trace).
 */
#ifndef GANTTY_TESTS_JTRACE_H
#define GANTTY_TESTS_JTRACE_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "load/load.h"
#include "analysis/metrics.h"
#include "model/trace.h"

#define J_UNUSED __attribute__((unused))

static FILE *jf;
static char *jtext;
static size_t jlen;
static int jcount;
static int next_corr;

static J_UNUSED void
j_begin(void)
{
	jf = open_memstream(&jtext, &jlen);
	cr_assert_not_null(jf);
	fputs("{\"traceEvents\": [\n", jf);
	jcount = 0;
	next_corr = 1;
}

static J_UNUSED void
j_sep(void)
{
	if (jcount++ > 0)
		fputs(",\n", jf);
}

/* A CPU X event of category cat on tid, [ts, ts + dur). */
static J_UNUSED void
cpu(const char *cat, const char *name, int tid, long long ts, long long dur)
{
	j_sep();
	fprintf(jf, "{\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"%s\", \"pid\": 100,"
	    " \"tid\": %d, \"ts\": %lld, \"dur\": %lld}", cat, name, tid, ts, dur);
}

/* A user_annotation on tid, [ts, end). */
static J_UNUSED void
ann(const char *name, int tid, long long ts, long long end)
{
	cpu("user_annotation", name, tid, ts, end - ts);
}

/* ProfilerStep#n on the main thread, [ts, end). */
static J_UNUSED void
step(int n, long long ts, long long end)
{
	char name[64];

	snprintf(name, sizeof name, "ProfilerStep#%d", n);
	ann(name, 1, ts, end);
}

/*
 * A cudaLaunchKernel of 1 us at launch_ts on tid, and the kernel it
 * launched on device 0 at [ts, end): a collective on stream 22 when its
 * name has "nccl", else compute on stream 7.
 */
static J_UNUSED void
kernel(int tid, long long launch_ts, const char *name, long long ts,
    long long end)
{
	int corr = next_corr++;
	int stream = strstr(name, "nccl") ? 22 : 7;

	j_sep();
	fprintf(jf, "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\","
	    " \"pid\": 100, \"tid\": %d, \"ts\": %lld, \"dur\": 1,"
	    " \"args\": {\"correlation\": %d}},\n", tid, launch_ts, corr);
	fprintf(jf, "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"%s\", \"pid\": 0,"
	    " \"tid\": %d, \"ts\": %lld, \"dur\": %lld, \"args\": {\"device\": 0,"
	    " \"stream\": %d, \"correlation\": %d}}", name, stream, ts, end - ts,
	    stream, corr);
}

/*
 * Ends the text with tail (the closing "]}", or a cut-short event) and
 * loads it into t (asserting success).
 */
static J_UNUSED void
j_load_ending(struct trace *t, const char *tail)
{
	char path[] = "/tmp/gantty-jtrace-XXXXXX";
	struct load_error err;
	int fd, rc;

	fputs(tail, jf);
	cr_assert_eq(fclose(jf), 0);
	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, jtext, jlen), (ssize_t)jlen);
	close(fd);
	free(jtext);
	rc = load_trace(t, path, NULL, &err);
	unlink(path);
	cr_assert_eq(rc, 0, "load failed: %s", err.msg);
}

/* Closes the array and loads it into t (asserting success). */
static J_UNUSED void
j_load(struct trace *t)
{
	j_load_ending(t, "\n]}\n");
}

/* The default analysis of one loaded rank (the CLI's without options). */
static J_UNUSED struct analysis_opts
j_opts(void)
{
	struct analysis_opts o;

	memset(&o, 0, sizeof o);
	o.min_gap_ns = METRICS_DEFAULT_MIN_GAP_NS;
	o.window = WINDOW_DEFAULT;
	o.ranks_loaded = 1;
	return o;
}

#endif
