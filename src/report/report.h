/*
 * report — the non-interactive output of gantty --report.
 *
 * Writes, for each analysed (rank, device), what was loaded and what the
 * analysis found for its window: as readable text, as the JSON object of
 * SPEC §5, or as CSV (the step table, a blank line, the layer table).  Times
 * in JSON and CSV are absolute int64 ns; keys are added, never renamed.  The
 * text is for reading (man/gantty.1, TEXT REPORT): the cross-rank section
 * first, then one entry per (rank, device); long names elided in their
 * middle, rank lists as ranges, metadata pseudo-tracks counted and not
 * listed, no table without rows.  JSON and CSV hold everything whole.  The
 * analyses are only read.
 */
#ifndef GANTTY_REPORT_H
#define GANTTY_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct analysis;
struct analysis_opts;
struct crossrank;

enum report_format {
	REPORT_TEXT,
	REPORT_JSON,
	REPORT_CSV,
};

/*
 * Writes the report of a[0..n) to out, built with analysis_opts.memory for
 * their memory (else JSON "memory": null and no memory line in text).
 * trace_start_ns is the earliest event of all loaded traces (the origin of
 * --window).  x is the cross-rank
 * analysis of a[0..n), or NULL with a single participant (JSON cross_rank:
 * null).  The text elides long names in their middle (emit_text_name()),
 * with "..." for ascii, else "\u2026"; JSON and CSV write them whole.
 * Returns 0, or -1 if writing failed (errno set).
 */
int report_write(FILE *out, enum report_format fmt,
    const struct analysis_opts *opts, int64_t trace_start_ns,
    const struct analysis *a, size_t n, const struct crossrank *x, int ascii);

struct report_set;
/*
 * Writes the cross-rank report x of the participants set read back from
 * per-rank reports (gantty --reports; x built from them in the same order):
 * JSON {"version", "reports": [...], "cross_rank": {...}} with cross_rank as
 * in report_write(), text, or CSV (step, rank, device, time_ns; one line per
 * participant's step); ascii as in report_write().  Returns 0, or -1 if
 * writing failed.
 */
int report_write_cross(FILE *out, enum report_format fmt,
    const struct report_set *set, const struct crossrank *x, int ascii);

#endif
