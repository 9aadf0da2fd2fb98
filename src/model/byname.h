/*
 * byname — the model's events by name.
 *
 * Every event index, grouped by its name's strtab id and ascending within
 * a name, with each name's start: the events of one name are a slice, and
 * the analysis finds its few named events (steps, FSDP hooks, nn.Modules,
 * [memory] samples, synchronisations, cudaMalloc) by testing each distinct
 * name once rather than each of millions of events.  trace_finalize()
 * builds it (O(n), a counting sort), the cache stores it.  4 bytes per
 * event.
 */
#ifndef GANTTY_BYNAME_H
#define GANTTY_BYNAME_H

#include <stddef.h>
#include <stdint.h>

struct byname {
	uint32_t nnames;        /* the names indexed: ids below this */
	uint32_t *start;        /* nnames + 1 entries: id -> first slot in ev */
	uint32_t *ev;           /* every event index, by name, ascending within */
};

struct event;
struct strtab;

/*
 * Builds x over ev[0..n), whose names are all < nnames.  O(n + nnames).
 * Out of memory is fatal (xalloc).
 */
void byname_build(struct byname *x, const struct event *ev, size_t n,
    uint32_t nnames);
/* Frees x's arrays; x may be zeroed. */
void byname_free(struct byname *x);

/* The events named id, ascending; none (*n = 0) for a name not indexed. */
static inline const uint32_t *
byname_events(const struct byname *x, uint32_t id, size_t *n)
{
	*n = id < x->nnames ? x->start[id + 1] - x->start[id] : 0;
	return *n ? x->ev + x->start[id] : NULL;
}

/*
 * Every event whose name passes test (called once per distinct name with
 * at least one event, with arg), in ascending index order: returns how
 * many and sets *out (malloc'd; NULL when none).  Reads the names from
 * strs, which must hold every indexed id.  O(names + k log r) for k events
 * under r names.
 */
size_t byname_select(const struct byname *x, const struct strtab *strs,
    int (*test)(const char *name, const void *arg), const void *arg,
    uint32_t **out);

/* Tests for byname_select(), arg the text: name starts with it, holds it, is it. */
int byname_prefix(const char *name, const void *text);
int byname_contains(const char *name, const void *text);
int byname_equals(const char *name, const void *text);

#endif
