/*
 * report_input — the --reports input: per-rank JSON reports (of --report
 * --format=json) read back into one set, matched across ranks and, with
 * --align=collective, aligned, without the traces they were made from.
 *
 * struct report_input owns its set (report_set.h) and the alignment offsets; the
 * cross-rank analysis report_input_match() builds is the caller's (its
 * align_ns points into the reports, which must outlive it).  Nothing here
 * prints: failures come back as messages in err.
 */
#ifndef GANTTY_REPORT_INPUT_H
#define GANTTY_REPORT_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/crossrank.h"
#include "load/input.h"
#include "report/report_set.h"

struct report_input {
	struct report_set set;          /* participant order (rank, device, file) */
	int64_t *align_ns;              /* report_input_match() with align, else NULL */
};

/*
 * Reads every input (a report file each) into r, which it initialises, and
 * sorts the participants.  Returns 0, or -1 with the first failure (naming
 * the file), or "no ranks in the reports", in err (size errsize).
 */
int report_input_load(struct report_input *r, const struct input_list *in, char *err,
    size_t errsize);

/* Returns the participant of rank rank, or NULL. */
const struct report_rank *report_input_find(const struct report_input *r, int64_t rank);

/*
 * Matches the participants' collectives into a new cross-rank analysis
 * (malloc'd, the caller frees it with crossrank_free() and free()); with
 * align and several participants, first shifts each by its --align offset.
 */
struct crossrank *report_input_match(struct report_input *r, int align);

/*
 * The trace rr was made from, as it can be opened: its path, or, when that
 * is relative and not there, the same path beside the report.  Returns 0
 * with the path in buf (size size), or -1 with why it cannot be read in err.
 */
int report_input_trace_path(const struct report_rank *rr, char *buf, size_t size,
    char *err, size_t errsize);

/* Frees what r owns; r may be zeroed. */
void report_input_free(struct report_input *r);

#endif
