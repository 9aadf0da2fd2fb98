/*
 * report_json — the JSON of gantty --report and --reports (keys in
 * man/gantty.1, JSON REPORT), written through the one JSON writer (json.h).
 * report.c chooses the format; this writes one document.  The analyses are
 * only read.
 */
#ifndef GANTTY_REPORT_JSON_H
#define GANTTY_REPORT_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct analysis;
struct analysis_opts;
struct crossrank;
struct report_set;

/*
 * Writes {"version", "trace_start_ns", "window", ["step",] "ranks": [...],
 * "cross_rank"} for a[0..n) and x (NULL: "cross_rank": null), as
 * report_write() says.  Write errors stay in out.
 */
void report_json_write(FILE *out, const struct analysis_opts *o,
    int64_t trace_start_ns, const struct analysis *a, size_t n,
    const struct crossrank *x);
/*
 * Writes {"version", "reports": [...], "cross_rank": {...}} for the
 * participants read back in set and their cross-rank analysis x.
 */
void report_json_write_cross(FILE *out, const struct report_set *set,
    const struct crossrank *x);

#endif
