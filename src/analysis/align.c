#include "config.h"

#include "analysis/align.h"

#include <stdlib.h>

#include "analysis/crossrank.h"
#include "model/trace.h"
#include "base/xalloc.h"

static int
cmp_i64(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;

	return (a > b) - (a < b);
}

void
align_offsets(const struct crossrank *x, int64_t *off, size_t *unaligned)
{
	int64_t *d = xcalloc(x->ncolls + 1, sizeof *d);

	*unaligned = 0;
	for (size_t p = 0; p < x->nparts; p++) {
		size_t n = 0;

		off[p] = 0;
		if (p == 0)
			continue;
		for (size_t c = 0; c < x->ncolls; c++) {
			int64_t e0 = x->end_ns[c * x->nparts];
			int64_t ep = x->end_ns[c * x->nparts + p];

			if (x->start_ns[c * x->nparts] == INT64_MIN ||
			    x->start_ns[c * x->nparts + p] == INT64_MIN)
				continue;
			d[n++] = e0 - ep;
		}
		if (n == 0) {
			(*unaligned)++;
			continue;
		}
		qsort(d, n, sizeof *d, cmp_i64);
		/* the median; the lower middle for an even count (an exact ns) */
		off[p] = d[(n - 1) / 2];
		/* no host clock is an hour off: that is no match, not an offset */
		if (off[p] > ALIGN_MAX_NS || off[p] < -ALIGN_MAX_NS) {
			off[p] = 0;
			(*unaligned)++;
		}
	}
	free(d);
}

static void
shift_set(struct ivset *s, int64_t off)
{
	for (size_t i = 0; i < s->n; i++) {
		s->start_ns[i] += off;
		s->end_ns[i] += off;
	}
}

void
align_shift(struct trace *t, int64_t off)
{
	if (off == 0)
		return;
	for (size_t i = 0; i < t->nevents; i++)
		t->events[i].ts_ns += off;
	for (size_t i = 0; i < t->nflows; i++)
		t->flows[i].ts_ns += off;
	for (size_t i = 0; i < t->ntracks; i++) {
		struct track *tr = &t->tracks[i];

		itree_shift(&tr->index, off);
		shift_set(&tr->busy, off);
	}
	if (t->nevents > 0) {
		t->start_ns += off;
		t->end_ns += off;
	}
}
