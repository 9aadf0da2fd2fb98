#include "config.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/byname.h"
#include "jtrace.h"
#include "load/load.h"
#include "testrng.h"
#include "model/trace.h"
#include "base/xalloc.h"

/*
 * The oracle: a scan of every event.  byname must list, for each name, its
 * events and no other, ascending; byname_select the events of the names
 * that pass, ascending.
 */
static void
check_index(const struct byname *x, const struct event *ev, size_t n,
    uint32_t nnames)
{
	size_t total = 0;

	cr_assert_eq(x->nnames, nnames);
	for (uint32_t id = 0; id < nnames; id++) {
		size_t m, k = 0;
		const uint32_t *got = byname_events(x, id, &m);

		for (size_t i = 0; i < n; i++) {
			if (ev[i].name != id)
				continue;
			cr_assert_lt(k, m, "name %u: more events than listed", id);
			cr_assert_eq(got[k], i, "name %u, #%zu: %u, want %zu", id, k,
			    got[k], i);
			k++;
		}
		cr_assert_eq(k, m, "name %u: %zu listed, %zu are", id, m, k);
		total += m;
	}
	cr_assert_eq(total, n);
	{
		size_t m;

		cr_assert_null(byname_events(x, nnames, &m));
		cr_assert_eq(m, 0);
		cr_assert_null(byname_events(x, UINT32_MAX, &m));
		cr_assert_eq(m, 0);
	}
}

/* Names whose id is a multiple of *arg (read back from the table). */
struct every {
	const struct strtab *strs;
	uint32_t k;
};

static int
every_kth(const char *name, const void *arg)
{
	const struct every *e = arg;
	uint32_t id = strtab_find(e->strs, name, strlen(name));

	return id != UINT32_MAX && id % e->k == 0;
}

static int
none(const char *name, const void *arg)
{
	(void)name;
	(void)arg;
	return 0;
}

static void
check_select(const struct trace *t, int (*test)(const char *, const void *),
    const void *arg)
{
	uint32_t *got;
	size_t n = byname_select(&t->byname, &t->strs, test, arg, &got), k = 0;

	for (size_t i = 0; i < t->nevents; i++) {
		if (!test(trace_str(t, t->events[i].name), arg))
			continue;
		cr_assert_lt(k, n);
		cr_assert_eq(got[k], i, "#%zu: %u, want %zu", k, got[k], i);
		k++;
	}
	cr_assert_eq(k, n);
	cr_assert_eq(got == NULL, n == 0);
	free(got);
}

/*
 * The oracle of trace_finalize()'s counts and lists: one scan, the names
 * compared as strings.
 */
static void
check_lists(const struct trace *t)
{
	uint64_t act = 0, linked = 0;
	size_t k[TRACE_LISTS] = { 0 };

	for (size_t c = 0; c < t->ncats; c++) {
		uint64_t n = 0;

		for (size_t i = 0; i < t->nevents; i++)
			n += t->events[i].cat == c && event_ph(&t->events[i]) == 'X' &&
			    !(t->events[i].flags & EVF_FROM_BE);
		cr_assert_eq(t->cat_slices[c], n, "category %zu", c);
	}
	for (size_t i = 0; i < t->nevents; i++) {
		const struct event *e = &t->events[i];
		const char *name = trace_str(t, e->name);
		struct event_args a_buf;
		const struct event_args *a = trace_args(t, e, &a_buf);
		enum cat_kind kind = (enum cat_kind)t->cat_kinds[e->cat];
		int in[TRACE_LISTS], alloc;

		act += event_is_activity(e) != 0;
		linked += event_is_activity(e) && e->link != EV_NONE;
		in[LIST_FLOP_OPS] = a != NULL && a->external_id != ID_NONE &&
		    trace_args_flops(t, a) > 0 &&
		    t->tracks[e->track].kind == TRACK_CPU;
		in[LIST_MEMORY] = strcmp(name, "[memory]") == 0 &&
		    (e->flags & EVF_INSTANT) && a != NULL;
		alloc = strcmp(name, "cudaMalloc") == 0 ||
		    strcmp(name, "cudaMallocAsync") == 0 ||
		    strcmp(name, "cudaFree") == 0 || strcmp(name, "cudaFreeAsync") == 0;
		in[LIST_ALLOC_CALLS] = alloc && event_ph(e) == 'X' &&
		    (kind == CAT_CUDA_RUNTIME || kind == CAT_CUDA_DRIVER);
		cr_assert_eq((e->flags & EVF_FREE_CALL) != 0,
		    in[LIST_ALLOC_CALLS] && strncmp(name, "cudaFree", 8) == 0,
		    "event %zu (%s): free flag", i, name);
		for (int l = 0; l < TRACE_LISTS; l++) {
			if (!in[l])
				continue;
			cr_assert_lt(k[l], t->nlist[l], "list %d: event %zu missing", l, i);
			cr_assert_eq(t->lists[l][k[l]], i, "list %d #%zu: %u, want %zu",
			    l, k[l], t->lists[l][k[l]], i);
			k[l]++;
		}
	}
	for (int l = 0; l < TRACE_LISTS; l++)
		cr_assert_eq(k[l], t->nlist[l], "list %d: %zu listed, %zu are", l,
		    t->nlist[l], k[l]);
	cr_assert_eq(t->nactivities, act);
	cr_assert_eq(t->nlinked, linked);
}

static void
check_file(const char *rel)
{
	struct trace t;
	struct load_error err;
	char path[4096];

	snprintf(path, sizeof path, "%s/%s", SRCDIR, rel);
	cr_assert_eq(load_trace(&t, path, NULL, &err), 0, "%s", err.msg);
	cr_assert_gt(t.nevents, 0);
	check_index(&t.byname, t.events, t.nevents, t.strs.count);
	for (uint32_t k = 1; k <= 5; k++) {
		struct every e = { &t.strs, k };

		check_select(&t, every_kth, &e);
	}
	check_select(&t, byname_prefix, "aten::");
	check_select(&t, byname_contains, "::");
	check_select(&t, byname_equals, "aten::mm");
	check_select(&t, none, NULL);
	check_lists(&t);
	trace_free(&t);
}

/* A raw event: the JSON object's fields after the opening brace. */
static void
raw(const char *fields)
{
	j_sep();
	fprintf(jf, "{%s}", fields);
}

Test(byname, lists_and_counts_match_a_scan)
{
	struct trace t;

	j_begin();
	step(1, 0, 1000);
	kernel(1, 10, "gemm", 20, 40);
	kernel(1, 50, "ncclKernel_AllGather", 60, 90);
	/* FLOPs: an op with both, one without an External id, one of 0 FLOPs */
	raw("\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 100,"
	    " \"tid\": 1, \"ts\": 5, \"dur\": 9, \"args\": {\"External id\": 7,"
	    " \"flops\": 1000}");
	raw("\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 100,"
	    " \"tid\": 1, \"ts\": 100, \"dur\": 9, \"args\": {\"flops\": 1000}");
	raw("\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::add\", \"pid\": 100,"
	    " \"tid\": 2, \"ts\": 200, \"dur\": 9, \"args\": {\"External id\": 8,"
	    " \"flops\": 0}");
	/* memory samples, and a [memory] slice that is none */
	raw("\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"name\": \"[memory]\","
	    " \"pid\": 100, \"tid\": 1, \"ts\": 30, \"s\": \"t\", \"args\": {"
	    "\"Device Type\": 1, \"Device Id\": 0, \"Total Allocated\": 10,"
	    " \"Total Reserved\": 20, \"Bytes\": 10}");
	raw("\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"name\": \"[memory]\","
	    " \"pid\": 100, \"tid\": 2, \"ts\": 31, \"s\": \"t\", \"args\": {"
	    "\"Device Type\": 0, \"Total Allocated\": 5, \"Bytes\": 5}");
	cpu("user_annotation", "[memory]", 1, 32, 1);
	/* allocator calls, and names or categories that are none */
	cpu("cuda_runtime", "cudaMalloc", 1, 300, 5);
	cpu("cuda_driver", "cudaFreeAsync", 2, 310, 5);
	cpu("cuda_runtime", "cudaMallocAsync", 1, 320, 5);
	cpu("cuda_runtime", "cudaFree", 1, 330, 5);
	cpu("cpu_op", "cudaMalloc", 1, 340, 5);
	cpu("cuda_runtime", "cudaFreeHost", 1, 350, 5);
	cpu("cuda_runtime", "cudaMallocManaged", 1, 360, 5);
	j_load(&t);
	cr_assert_eq(t.nlist[LIST_FLOP_OPS], 1);
	cr_assert_eq(t.nlist[LIST_MEMORY], 2);
	cr_assert_eq(t.nlist[LIST_ALLOC_CALLS], 4);
	check_lists(&t);
	trace_free(&t);
}

Test(byname, matches_a_scan_on_the_example_and_fixtures)
{
	check_file("share/example.json.gz");
	check_file("tests/fixtures/small.json");
}

Test(byname, random_names_and_edge_cases)
{
	uint64_t rng = 42;

	for (int round = 0; round < 200; round++) {
		size_t n = (size_t)rng_below(&rng, round < 10 ? 3 : 500);
		uint32_t nnames = 1 + (uint32_t)rng_below(&rng, round % 3 ? 8 : 300);
		struct event *ev = xcalloc(n ? n : 1, sizeof *ev);
		struct byname x;

		for (size_t i = 0; i < n; i++)
			ev[i].name = (uint32_t)rng_below(&rng, nnames);
		byname_build(&x, ev, n, nnames);
		check_index(&x, ev, n, nnames);
		byname_free(&x);
		byname_free(&x);        /* twice: zeroed */
		free(ev);
	}
}
