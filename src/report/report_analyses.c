/*
 * report_analyses — --report of every (rank, device), cross-rank included.
 */
#include "config.h"

#include "analysis/crossrank.h"
#include "analysis/whatif.h"
#include "report/report_analyses.h"

int
report_analyses_write(FILE *out, enum report_format fmt,
    const struct analysis_opts *o, int64_t origin_ns, const struct analysis *an,
    size_t n, const int64_t *align_ns, size_t unaligned, int ascii)
{
	struct crossrank x;
	struct whatif w;
	struct analysis_opts ow = *o;
	int rc;

	if (n >= 2) {
		crossrank_build(&x, an, n);
		if (align_ns != NULL) {
			x.align_ns = align_ns;
			x.unaligned = unaligned;
		}
	}
	if (o->critical_path) {
		whatif_build(&w, an, n, n >= 2 ? &x : NULL, o->whatif, o->nwhatif);
		ow.replays = &w;
	}
	rc = report_write(out, fmt, &ow, origin_ns, an, n, n >= 2 ? &x : NULL, ascii);
	if (o->critical_path)
		whatif_free(&w);
	if (n >= 2)
		crossrank_free(&x);
	return rc;
}
