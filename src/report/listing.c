#include "config.h"

#include "report/listing.h"

#include <stdlib.h>

#include "analysis/analysis.h"
#include "analysis/crossrank.h"
#include "model/trace.h"
#include "base/xalloc.h"

int
listing_track(const struct analysis *a, const struct track *tr)
{
	const struct trace *t = a->t;
	size_t lo = 0, hi = t->ndevices_seen < TRACE_MAX_DEVICES ?
	    t->ndevices_seen : TRACE_MAX_DEVICES;

	if (a->device < 0 || tr->kind != TRACK_GPU || tr->device == a->device)
		return 1;
	if (hi == 0 || a->device != t->devices_seen[0])
		return 0;
	while (lo < hi) {               /* is tr->device analysed? */
		size_t mid = lo + (hi - lo) / 2;

		if (t->devices_seen[mid] < tr->device)
			lo = mid + 1;
		else
			hi = mid;
	}
	return !(lo < t->ndevices_seen && lo < TRACE_MAX_DEVICES &&
	    t->devices_seen[lo] == tr->device);
}

int
listing_metadata_track(const struct track *tr)
{
	return tr->kind == TRACK_CPU && tr->pid_str != 0 && tr->tid_str != 0 &&
	    tr->count <= 1;
}

static int
cmp_i64(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;

	return (a > b) - (a < b);
}

size_t
listing_ranks(const struct crossrank *x, int dup,
    void (*put)(void *arg, int64_t rank), void *arg)
{
	int64_t *r = xcalloc(x->nparts + 1, sizeof *r), world = 0;
	size_t n = 0;

	for (size_t p = 0; p < x->nparts; p++) {
		r[p] = x->parts[p].rank * 65536 + (x->parts[p].device & 0xffff);
		if (x->parts[p].rank + 1 > world)
			world = x->parts[p].rank + 1;
	}
	if (x->world_size > world)
		world = x->world_size;
	qsort(r, x->nparts, sizeof *r, cmp_i64);
	if (dup) {
		for (size_t p = 1; p < x->nparts; p++)
			if (r[p] == r[p - 1] && (p < 2 || r[p - 2] != r[p])) {
				put(arg, r[p] / 65536);
				n++;
			}
	} else {
		size_t p = 0;

		for (int64_t k = 0; k < world && k < (int64_t)1 << 20; k++) {
			while (p < x->nparts && r[p] / 65536 < k)
				p++;
			if (p >= x->nparts || r[p] / 65536 != k) {
				put(arg, k);
				n++;
			}
		}
	}
	free(r);
	return n;
}
