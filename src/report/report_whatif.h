/*
 * report_whatif — the text and CSV forms of --what-if: each step's
 * critical path split by kind, and what each scenario buys (the JSON form
 * is in report_json.c).
 *
 * Both write nothing unless o->replays holds the analysis (--what-if).
 */
#ifndef GANTTY_REPORT_WHATIF_H
#define GANTTY_REPORT_WHATIF_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/analysis.h"

/*
 * The text report's "critical path" and "what-if" sections of a (one rank's
 * entry): one line per step in the window, then one per scenario with its
 * gain over the steps in the window (whatif_gain_format()).
 */
void report_whatif_text(FILE *out, const struct analysis *a,
    const struct analysis_opts *o);
/*
 * The CSV report's two tables for a[0..n): "rank,device,number,ns,
 * compute_ns,comm_ns,host_ns,sync_ns,idle_ns,replayed_ns" per step, and
 * "rank,device,scenario,number,measured_ns,replayed_ns,predicted_ns" per
 * scenario and step, each after a blank line.
 */
void report_whatif_csv(FILE *out, const struct analysis *a, size_t n,
    const struct analysis_opts *o);

#endif
