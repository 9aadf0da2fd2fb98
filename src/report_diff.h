/*
 * report_diff — the output of gantty --diff: a struct diff (diff.h) as
 * readable text or as one JSON object (keys in man/gantty.1).  Times are
 * int64 ns; every delta is B - A.  Only reads its arguments.
 */
#ifndef GANTTY_REPORT_DIFF_H
#define GANTTY_REPORT_DIFF_H

#include <stdio.h>

#include "report.h"

struct analysis;
struct diff;

/*
 * Writes the diff d of a (before) and b (after) to out as text or JSON
 * (REPORT_CSV is written as text).  Returns 0, or -1 if writing failed.
 */
int report_diff_write(FILE *out, enum report_format fmt,
    const struct analysis *a, const struct analysis *b, const struct diff *d);

#endif
