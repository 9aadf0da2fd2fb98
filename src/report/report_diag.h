/*
 * report_diag — the diagnosis parts of gantty --report: the "memory" and
 * "findings" keys of each rank's JSON entry and the matching text sections.
 *
 * Both recompute what they print from the analysis (memory.h, findings.h);
 * the analyses and the cross-rank analysis are only read.  x may be NULL (a
 * single participant); part is a's index among x's participants.
 */
#ifndef GANTTY_REPORT_DIAG_H
#define GANTTY_REPORT_DIAG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct analysis;
struct crossrank;
struct json;

/*
 * Writes the members "memory" ({...} or null) and "findings" ([...]) of the
 * rank entry open in j (see man/gantty.1).  Never fails (errors stay in
 * j's FILE).
 */
void report_diag_json(struct json *j, const struct analysis *a,
    const struct crossrank *x, size_t part);
/*
 * Writes the "memory:" line and the "findings:" section of a text entry;
 * times are shown relative to origin_ns.
 */
void report_diag_text(FILE *out, const struct analysis *a,
    const struct crossrank *x, size_t part, int64_t origin_ns);

/* Writes the member "findings" ([...]) of the cross_rank object open in j. */
void report_diag_cross_json(struct json *j, const struct crossrank *x);
/* Writes the cross-rank findings as text ("" when none). */
void report_diag_cross_text(FILE *out, const struct crossrank *x);

#endif
