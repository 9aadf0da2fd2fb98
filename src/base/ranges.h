/*
 * ranges — ascending integers written compactly, as runs: "2-127",
 * "10-17, 20, 22-23".  A run of consecutive values is "LO-HI" (" to " in
 * place of "-" when LO is negative, so that "-3 to -1" reads right), a
 * lone value is itself, runs are separated by ", ".
 *
 * The values arrive one at a time (ranges_add()), so a list of any length
 * is written without being held: a run is written once the next value
 * does not extend it.  Values must come in ascending order; a repeated
 * value counts once.  With max_runs, runs after the first max_runs are
 * counted, not written, and ranges_end() writes ", ... (N more)" with
 * their values.  Writes only to its FILE; owns nothing.
 */
#ifndef GANTTY_RANGES_H
#define GANTTY_RANGES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct ranges {
	FILE *out;
	size_t max_runs;        /* 0: write every run */
	int open;               /* a run lo..hi is open */
	int64_t lo, hi;
	size_t runs;            /* runs closed or open so far */
	size_t n;               /* distinct values so far */
	size_t left;            /* values of the runs past max_runs */
};

/* Starts an empty list written to out, every run or the first max_runs. */
void ranges_begin(struct ranges *r, FILE *out, size_t max_runs);
/*
 * Adds v, which is not below any value added before (an equal one is
 * ignored); may write the run that v does not extend.
 */
void ranges_add(struct ranges *r, int64_t v);
/*
 * Writes the last run and the count of those not written; returns how many
 * distinct values were added (0: nothing was written).
 */
size_t ranges_end(struct ranges *r);

#endif
