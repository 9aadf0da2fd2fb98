#include "config.h"

#include "model/byname.h"

#include <stdlib.h>
#include <string.h>

#include "base/runsort.h"
#include "base/strtab.h"
#include "model/event.h"
#include "base/xalloc.h"

void
byname_build(struct byname *x, const struct event *ev, size_t n,
    uint32_t nnames)
{
	uint32_t *start;

	memset(x, 0, sizeof *x);
	x->nnames = nnames;
	x->start = start = xcalloc((size_t)nnames + 1, sizeof *start);
	x->ev = xreallocarray(NULL, n ? n : 1, sizeof *x->ev);
	/* start[id + 1]: how many are named id; then, summed, where id starts */
	for (size_t i = 0; i < n; i++)
		start[ev[i].name + 1]++;
	for (uint32_t id = 0; id < nnames; id++)
		start[id + 1] += start[id];
	/*
	 * Placing event i at start[name]++ leaves start[id] where id + 1
	 * starts: shifted back by one slot afterwards.
	 */
	for (size_t i = 0; i < n; i++)
		x->ev[start[ev[i].name]++] = (uint32_t)i;
	memmove(start + 1, start, (size_t)nnames * sizeof *start);
	start[0] = 0;
}

void
byname_free(struct byname *x)
{
	if (x == NULL)
		return;
	free(x->start);
	free(x->ev);
	memset(x, 0, sizeof *x);
}

int
byname_prefix(const char *name, const void *text)
{
	return strncmp(name, text, strlen(text)) == 0;
}

int
byname_contains(const char *name, const void *text)
{
	return strstr(name, text) != NULL;
}

int
byname_equals(const char *name, const void *text)
{
	return strcmp(name, text) == 0;
}

static int
u32_cmp(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	return a < b ? -1 : a > b;
}

size_t
byname_select(const struct byname *x, const struct strtab *strs,
    int (*test)(const char *name, const void *arg), const void *arg,
    uint32_t **out)
{
	uint32_t *ids = NULL, *sel;
	size_t nids = 0, cap = 0, n = 0, k = 0;

	*out = NULL;
	for (uint32_t id = 0; id < x->nnames; id++) {
		size_t count = x->start[id + 1] - x->start[id];

		if (count == 0 || !test(strtab_get(strs, id), arg))
			continue;
		xgrow(&ids, &cap, nids + 1, sizeof *ids);
		ids[nids++] = id;
		n += count;
	}
	if (n == 0) {
		free(ids);
		return 0;
	}
	sel = xreallocarray(NULL, n, sizeof *sel);
	for (size_t i = 0; i < nids; i++) {
		size_t count;
		const uint32_t *ev = byname_events(x, ids[i], &count);

		memcpy(sel + k, ev, count * sizeof *sel);
		k += count;
	}
	free(ids);
	/* one ascending run per name: merged */
	runsort(sel, n, sizeof *sel, u32_cmp);
	*out = sel;
	return n;
}
