/*
 * report_analyses — --report of every (rank, device), cross-rank included.
 */
#include "config.h"

#include "analysis/crossrank.h"
#include "report/report_analyses.h"

int
report_analyses_write(FILE *out, enum report_format fmt,
    const struct analysis_opts *o, int64_t origin_ns, const struct analysis *an,
    size_t n, const int64_t *align_ns, size_t unaligned, int ascii)
{
	struct crossrank x;
	int rc;

	if (n < 2)
		return report_write(out, fmt, o, origin_ns, an, n, NULL, ascii);
	crossrank_build(&x, an, n);
	if (align_ns != NULL) {
		x.align_ns = align_ns;
		x.unaligned = unaligned;
	}
	rc = report_write(out, fmt, o, origin_ns, an, n, &x, ascii);
	crossrank_free(&x);
	return rc;
}
