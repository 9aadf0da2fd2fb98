/*
 * report_compare — the output of gantty --diff: a struct compare (compare.h) as
 * readable text or as one JSON object (keys in man/gantty.1).  Times are
 * int64 ns; every delta is B - A.  Only reads its arguments.
 */
#ifndef GANTTY_REPORT_COMPARE_H
#define GANTTY_REPORT_COMPARE_H

#include <stdio.h>

#include "report/report.h"

struct analysis;
struct compare;

/*
 * Writes the diff d of a (before) and b (after) to out as text or JSON
 * (REPORT_CSV is written as text); the text elides long names, with "..."
 * for ascii (report_write()).  Both end with the verdict (compare_verdict())
 * against limit_pct (--fail-above; < 0: none).  Returns 0, or -1 if writing
 * failed.
 */
int report_compare_write(FILE *out, enum report_format fmt,
    const struct analysis *a, const struct analysis *b, const struct compare *d,
    double limit_pct, int ascii);

#endif
