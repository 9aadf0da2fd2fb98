/*
 * report_set — per-rank JSON reports read back: the scale-out path.
 *
 * A job of thousands of ranks is not loaded on one node.  Each rank's
 * `gantty --report --format=json TRACE` is run where the trace is (under
 * srun, xargs -P, ...); its report holds, per (rank, device), the steps and
 * every collective kernel with its matching key ("collectives", see
 * crossrank.h).  report_set_load() reads such a report back as cross-rank inputs,
 * so that crossrank_build_from() gives the same tables as loading every
 * trace would, in memory proportional to the collectives, not the traces.
 *
 * A report file may hold several participants (a multi-device rank, or a
 * report of several traces); each becomes one entry.  Ownership: the set owns
 * its entries and their strings.
 */
#ifndef GANTTY_REPORT_SET_H
#define GANTTY_REPORT_SET_H

#include <stddef.h>

#include "analysis/crossrank.h"

struct report_rank {
	struct crossrank_in in; /* rank, device, world size, steps, collectives */
	char *trace;            /* the trace the report was made from ("path") */
	char *file;             /* the report file it was read from */
};

struct report_set {
	struct report_rank *v;
	size_t n, cap;
};

/*
 * Appends the participants of the JSON report in file to set.  Returns 0,
 * or -1 with a message naming the file (and the byte offset of a JSON error)
 * in err; on error nothing is appended.
 */
int report_set_load(struct report_set *set, const char *file, char *err,
    size_t errsize);
/* Orders the entries by (rank, device, file): participant order. */
void report_set_sort(struct report_set *set);
/* Frees everything the set owns; set may be zeroed. */
void report_set_free(struct report_set *set);

#endif
