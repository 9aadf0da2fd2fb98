#include "config.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "byname.h"
#include "load.h"
#include "testrng.h"
#include "trace.h"
#include "xalloc.h"

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
starts_aten(const char *name, const void *arg)
{
	(void)arg;
	return strncmp(name, "aten::", 6) == 0;
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
	check_select(&t, starts_aten, NULL);
	check_select(&t, none, NULL);
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
