/*
 * report_analyses — the report of a set of analyses, as --report writes
 * it: every (rank, device) and, when there are several, the cross-rank
 * analysis built from them (with the --align offsets, when given).
 *
 * Borrows everything it is given; the cross-rank analysis it builds is
 * freed before it returns.
 */
#ifndef GANTTY_REPORT_ANALYSES_H
#define GANTTY_REPORT_ANALYSES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "report/report.h"

/*
 * Writes the report of an[0..n) (report_write(), times from origin_ns) to
 * out; for n > 1 with the cross-rank analysis, and align_ns (per analysis,
 * of session_align()) and unaligned when align_ns is not NULL; ascii as in
 * report_write().  Returns 0, or -1 if writing failed.
 * O(collectives x participants) for the matching.
 */
int report_analyses_write(FILE *out, enum report_format fmt,
    const struct analysis_opts *o, int64_t origin_ns, const struct analysis *an,
    size_t n, const int64_t *align_ns, size_t unaligned, int ascii);

#endif
