/* Tests for session.c: loading a set of traces, aligning, analysing. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/align.h"
#include "analysis/analysis.h"
#include "analysis/crossrank.h"
#include "analysis/metrics.h"
#include "analysis/session.h"
#include "load/input.h"
#include "load/load.h"
#include "model/trace.h"

static const char *const fixture[2] = {
	SRCDIR "/tests/fixtures/small.json",
	SRCDIR "/share/example.json.gz",
};

static struct analysis_opts
default_opts(void)
{
	struct analysis_opts o;

	memset(&o, 0, sizeof o);
	o.min_gap_ns = METRICS_DEFAULT_MIN_GAP_NS;
	o.window = WINDOW_DEFAULT;
	o.ranks_loaded = 2;
	return o;
}

/* The inputs of paths[0..n), in that order (no directory to expand). */
static void
inputs(struct input_list *in, const char *const *paths, size_t n)
{
	char err[1024];

	memset(in, 0, sizeof *in);
	cr_assert_eq(input_expand(in, (char *const *)paths, n, err, sizeof err), 0,
	    "%s", err);
	cr_assert_eq(in->n, n);
}

/* The oracle: trace i loaded alone, as the session numbers it. */
static void
load_alone(struct trace *t, size_t i)
{
	struct load_error err;

	cr_assert_eq(load_trace(t, fixture[i], NULL, &err), 0, "%s", err.msg);
	input_assign_rank(t, i);
}

/* Every device of t alone, in metrics_devices() order; returns how many. */
static size_t
analyse_alone(struct analysis *an, size_t max, const struct trace *t,
    const struct analysis_opts *o)
{
	int32_t *devs = NULL;
	size_t ndev = metrics_devices(t, &devs), n = ndev ? ndev : 1;

	cr_assert_leq(n, max);
	for (size_t d = 0; d < n; d++)
		analysis_build(&an[d], t, ndev ? devs[d] : -1, o);
	free(devs);
	return n;
}

static void
same_analysis(const struct analysis *a, const struct analysis *b)
{
	cr_expect_eq(a->device, b->device);
	cr_expect_eq(a->has_window, b->has_window);
	cr_expect_eq(a->start_ns, b->start_ns);
	cr_expect_eq(a->end_ns, b->end_ns);
	cr_expect_eq(a->nsteps, b->nsteps);
	cr_expect_eq(a->nlayers, b->nlayers);
	cr_expect_eq(a->m.busy_ns, b->m.busy_ns);
	cr_expect_eq(a->m.idle_ns, b->m.idle_ns);
	cr_expect_eq(a->m.compute_ns, b->m.compute_ns);
	cr_expect_eq(a->m.comm_ns, b->m.comm_ns);
	cr_expect_eq(a->m.exposed_comm_ns, b->m.exposed_comm_ns);
	cr_expect_eq(a->m.gap_count, b->m.gap_count);
	cr_expect_eq(a->m.gap_total_ns, b->m.gap_total_ns);
	for (size_t s = 0; s < a->nsteps && s < b->nsteps; s++) {
		cr_expect_eq(a->steps[s].number, b->steps[s].number);
		cr_expect_eq(a->steps[s].gpu_start_ns, b->steps[s].gpu_start_ns);
		cr_expect_eq(a->steps[s].gpu_end_ns, b->steps[s].gpu_end_ns);
	}
}

/* The hook sees every file once, done counting up to n. */
struct seen {
	size_t calls, last_done, n;
};

static void
loaded(const char *path, const char *note, size_t done, size_t n, void *ctx)
{
	struct seen *s = ctx;

	cr_expect_not_null(path);
	cr_expect_str_empty(note, "no cache, no note");
	cr_expect_eq(done, s->last_done + 1);
	s->calls++;
	s->last_done = done;
	s->n = n;
}

Test(session, analyses_equal_each_trace_alone)
{
	struct input_list in;
	struct session s;
	struct seen seen = { 0, 0, 0 };
	struct session_hooks hooks = { NULL, loaded, &seen };
	struct analysis_opts o = default_opts();
	struct trace alone[2];
	struct analysis an[16];
	size_t k = 0;

	inputs(&in, fixture, 2);
	session_init(&s);
	cr_assert_eq(session_load(&s, &in, NULL, &hooks), 0, "%s", s.err);
	cr_expect_eq(seen.calls, 2);
	cr_expect_eq(seen.n, 2);
	cr_assert_eq(s.ntraces, 2);
	cr_assert_eq(session_analyse(&s, &o, -1), 0, "%s", s.err);
	for (size_t i = 0; i < 2; i++) {
		size_t n;

		load_alone(&alone[i], i);
		cr_expect_str_eq(s.traces[i]->path, fixture[i], "input order");
		cr_expect_eq(s.traces[i]->rank, alone[i].rank);
		cr_expect_eq(s.traces[i]->nevents, alone[i].nevents);
		n = analyse_alone(an, 16, &alone[i], &o);
		/* the trace's analyses follow the previous trace's, devices in order */
		for (size_t d = 0; d < n; d++, k++) {
			cr_assert_lt(k, s.n_analyses);
			cr_expect_eq(s.an[k].t, s.traces[i]);
			if (d > 0)
				cr_expect_gt(s.an[k].device, s.an[k - 1].device);
			same_analysis(&s.an[k], &an[d]);
			analysis_free(&an[d]);
		}
	}
	cr_expect_eq(k, s.n_analyses, "one analysis per device, no more");
	/* the span covers both traces exactly */
	cr_expect_eq(s.origin_ns, alone[0].start_ns < alone[1].start_ns ?
	    alone[0].start_ns : alone[1].start_ns);
	cr_expect_eq(s.last_ns, alone[0].end_ns > alone[1].end_ns ?
	    alone[0].end_ns : alone[1].end_ns);
	cr_expect_eq(s.nwarnings, 0);
	for (size_t i = 0; i < 2; i++)
		trace_free(&alone[i]);
	session_free(&s);
	input_free(&in);
}

Test(session, rank_filter)
{
	struct input_list in;
	struct session s;
	struct analysis_opts o = default_opts();

	inputs(&in, fixture, 2);
	session_init(&s);
	cr_assert_eq(session_load(&s, &in, NULL, NULL), 0, "%s", s.err);
	cr_assert_eq(session_analyse(&s, &o, s.traces[1]->rank), 0, "%s", s.err);
	cr_assert_geq(s.n_analyses, 1);
	for (size_t i = 0; i < s.n_analyses; i++)
		cr_expect_eq(s.an[i].t, s.traces[1]);
	session_free(&s);

	session_init(&s);
	cr_assert_eq(session_load(&s, &in, NULL, NULL), 0, "%s", s.err);
	cr_expect_eq(session_analyse(&s, &o, 77), -1);
	cr_expect_str_eq(s.err, "no rank 77 among the traces loaded");
	session_free(&s);
	input_free(&in);
}

Test(session, align_equals_brute_force)
{
	struct input_list in;
	struct session s;
	struct analysis_opts o = default_opts();
	struct trace alone[2];
	struct analysis an[16];
	size_t n = 0, first[2], unaligned = 0;
	int64_t off[17];
	struct crossrank x;

	for (size_t i = 0; i < 2; i++) {
		load_alone(&alone[i], i);
		first[i] = n;
		n += analyse_alone(an + n, 16 - n, &alone[i], &o);
	}
	crossrank_build(&x, an, n);
	memset(off, 0, sizeof off);
	align_offsets(&x, off, &unaligned);
	crossrank_free(&x);
	for (size_t k = 0; k < n; k++)
		analysis_free(&an[k]);

	inputs(&in, fixture, 2);
	session_init(&s);
	cr_assert_eq(session_load(&s, &in, NULL, NULL), 0, "%s", s.err);
	session_align(&s, &o);
	cr_assert_not_null(s.align_ns);
	cr_expect_eq(s.unaligned, unaligned);
	for (size_t i = 0; i < 2; i++) {
		size_t end = i + 1 < 2 ? first[i + 1] : n;

		/* one clock per trace: its first (rank, device) decides */
		cr_expect_eq(s.traces[i]->start_ns, alone[i].start_ns + off[first[i]]);
		cr_expect_eq(s.traces[i]->end_ns, alone[i].end_ns + off[first[i]]);
		for (size_t k = first[i]; k < end; k++)
			cr_expect_eq(s.align_ns[k], off[first[i]]);
	}
	for (size_t i = 0; i < 2; i++)
		trace_free(&alone[i]);
	session_free(&s);
	input_free(&in);
}

/*
 * A --step that no trace has is an error naming the steps there are (the
 * fixtures: small.json has step 3, the example 10 to 17); one that only
 * some traces have is not, and those without it have no window.
 */
Test(session, step_no_trace_has)
{
	struct input_list in;
	struct session s;
	struct analysis_opts o = default_opts();

	inputs(&in, fixture, 2);
	o.window = WINDOW_STEP;
	o.step = 999;
	session_init(&s);
	cr_assert_eq(session_load(&s, &in, NULL, NULL), 0, "%s", s.err);
	cr_assert_eq(session_analyse(&s, &o, -1), -1);
	cr_expect_str_eq(s.err, "no ProfilerStep#999 in any of the 2 traces; their "
	    "steps are 3, 10-17 (not all on every trace)");
	cr_expect_eq(s.n_analyses, 0, "nothing analysed");
	cr_assert_eq(session_analyse(&s, &o, 0), -1, "rank 0 alone");
	cr_expect_str_eq(s.err, "no ProfilerStep#999 in " SRCDIR
	    "/share/example.json.gz; its steps are 10-17");
	o.step = 3;                     /* small.json (rank 1) has it */
	cr_assert_eq(session_analyse(&s, &o, 0), -1, "not rank 0");
	cr_expect_str_eq(s.err, "no ProfilerStep#3 in " SRCDIR
	    "/share/example.json.gz; its steps are 10-17");
	cr_assert_eq(session_analyse(&s, &o, -1), 0, "%s", s.err);
	cr_assert_eq(s.n_analyses, 2);
	cr_expect(s.an[0].has_window, "small.json has step 3");
	cr_expect_not(s.an[1].has_window, "the example has not");
	cr_expect(strstr(s.warnings[s.nwarnings - 1], "no ProfilerStep#3 in this trace")
	    != NULL, "%s", s.warnings[s.nwarnings - 1]);
	session_free(&s);
	input_free(&in);
}

Test(session, diff_steps_of_one_trace)
{
	static const char *const one[1] = { SRCDIR "/share/example.json.gz" };
	struct input_list in;
	struct session s;
	struct session_diff d;
	struct analysis_opts o = default_opts();
	int64_t steps[2] = { 11, 12 }, none[2] = { 11, 9999 };

	inputs(&in, one, 1);
	session_init(&s);
	cr_assert_eq(session_load(&s, &in, NULL, NULL), 0, "%s", s.err);
	cr_assert_eq(session_analyse(&s, &o, -1), 0, "%s", s.err);
	cr_assert_eq(session_diff(&s, &o, steps, -1, &d), 0, "%s", s.err);
	/* each side's window is its step's GPU extent in the default analysis */
	for (size_t k = 0; k < 2; k++) {
		const struct analysis *side = k == 0 ? d.a : d.b;
		int found = 0;

		for (size_t i = 0; i < s.an[0].nsteps; i++)
			if (s.an[0].steps[i].number == steps[k]) {
				cr_expect_eq(side->start_ns, s.an[0].steps[i].gpu_start_ns);
				cr_expect_eq(side->end_ns, s.an[0].steps[i].gpu_end_ns);
				found = 1;
			}
		cr_expect(found, "step %lld in the trace", (long long)steps[k]);
	}
	cr_expect_neq(d.a->start_ns, d.b->start_ns);
	session_diff_free(&d);
	cr_expect_eq(session_diff(&s, &o, none, -1, &d), -1);
	cr_expect_str_eq(s.err, "--diff-steps: no ProfilerStep#9999 in " SRCDIR
	    "/share/example.json.gz; its steps are 10-17");
	cr_expect_eq(session_diff(&s, &o, NULL, -1, &d), -1);
	cr_expect_str_eq(s.err, "--diff compares two trace files, not 1 traces");
	session_free(&s);
	input_free(&in);
}

Test(session, missing_file_names_it)
{
	static const char *const paths[2] = {
		SRCDIR "/tests/fixtures/small.json",
		SRCDIR "/tests/fixtures/no-such-trace.json",
	};
	struct input_list in;
	struct session s;

	inputs(&in, paths, 2);
	session_init(&s);
	cr_assert_eq(session_load(&s, &in, NULL, NULL), -1);
	cr_expect(strncmp(s.err, paths[1], strlen(paths[1])) == 0,
	    "the error names the file: %s", s.err);
	session_free(&s);
	input_free(&in);
}
