/*
 * reports — per-rank JSON reports as one cross-rank analysis.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/align.h"
#include "base/xalloc.h"
#include "report/report_input.h"

int
report_input_load(struct report_input *r, const struct input_list *in, char *err,
    size_t errsize)
{
	memset(r, 0, sizeof *r);
	for (size_t i = 0; i < in->n; i++)
		if (report_set_load(&r->set, in->v[i].path, err, errsize) < 0)
			return -1;
	if (r->set.n == 0) {
		snprintf(err, errsize, "no ranks in the reports");
		return -1;
	}
	report_set_sort(&r->set);
	return 0;
}

const struct report_rank *
report_input_find(const struct report_input *r, int64_t rank)
{
	for (size_t i = 0; i < r->set.n; i++)
		if (r->set.v[i].in.rank == rank)
			return &r->set.v[i];
	return NULL;
}

struct crossrank *
report_input_match(struct report_input *r, int align)
{
	struct crossrank *x = xmalloc(sizeof *x);
	struct crossrank_in *ins = xcalloc(r->set.n, sizeof *ins);
	size_t n = r->set.n, unaligned = 0;

	for (size_t i = 0; i < n; i++)
		ins[i] = r->set.v[i].in;        /* shallow: the set keeps ownership */
	crossrank_build_from(x, ins, n);
	if (align && n > 1) {
		free(r->align_ns);
		r->align_ns = xcalloc(n, sizeof *r->align_ns);
		align_offsets(x, r->align_ns, &unaligned);
		for (size_t i = 0; i < n; i++)
			crossrank_in_shift(&ins[i], r->align_ns[i]);
		crossrank_free(x);
		crossrank_build_from(x, ins, n);
		x->align_ns = r->align_ns;
		x->unaligned = unaligned;
	}
	free(ins);
	return x;
}

int
report_input_trace_path(const struct report_rank *rr, char *buf, size_t size,
    char *err, size_t errsize)
{
	const char *slash = strrchr(rr->file, '/');

	snprintf(buf, size, "%s", rr->trace);
	if (access(buf, R_OK) != 0 && rr->trace[0] != '/' && slash != NULL) {
		char alt[4096];

		snprintf(alt, sizeof alt, "%.*s/%s", (int)(slash - rr->file), rr->file,
		    rr->trace);
		if (access(alt, R_OK) == 0)
			snprintf(buf, size, "%s", alt);
	}
	if (access(buf, R_OK) != 0) {
		snprintf(err, errsize, "rank %lld: its trace %s (named in %s): %s",
		    (long long)rr->in.rank, rr->trace, rr->file, strerror(errno));
		return -1;
	}
	return 0;
}

void
report_input_free(struct report_input *r)
{
	report_set_free(&r->set);
	free(r->align_ns);
	memset(r, 0, sizeof *r);
}
