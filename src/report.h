/*
 * report — the non-interactive output of gantty --report.
 *
 * Writes what was loaded (and, as the analysis grows, what it found) for a
 * set of loaded traces, as readable text or as the JSON object of SPEC §5.
 * Times in JSON are absolute int64 ns; keys are added, never renamed.  The
 * traces are only read.
 */
#ifndef GANTTY_REPORT_H
#define GANTTY_REPORT_H

#include <stddef.h>
#include <stdio.h>

struct trace;

enum report_format {
	REPORT_TEXT,
	REPORT_JSON,
};

/*
 * Writes the report of traces[0..n) to out.  Returns 0, or -1 if writing
 * failed (errno set).
 */
int report_write(FILE *out, enum report_format fmt, struct trace *const *traces,
    size_t n);

#endif
