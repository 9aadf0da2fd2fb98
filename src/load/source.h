/*
 * source — an event's arguments read back from its trace file.
 *
 * The model keeps only the arguments the analysis needs (event.h); the
 * viewer's details show every argument of the selected event as the trace
 * has it (Input Dims, Input type, grid, block, registers per thread...).
 * They are read back on demand.  A plain file with the trace's block index
 * (trace.h src, kept at load and in the cache) is read only in the blocks
 * whose events' ts range holds the event's ts, one seek each (a few
 * hundred KB, whatever the file's size); otherwise, and for an event no
 * such block has, the file is read again from its start (inflated when it
 * is gzip).  Either way each element of the event array is cut out with a
 * string-aware bracket count, and the first whose name, ts and dur are the
 * event's is parsed with json-c: O(block) per event read in the first
 * case, O(file) in the second, no more than one element's text (or one
 * block) in memory at a time.
 */
#ifndef GANTTY_SOURCE_H
#define GANTTY_SOURCE_H

#include <stddef.h>
#include <stdint.h>

struct trace;

#define SOURCE_MAX_OBJECT (4u << 20)  /* longer elements are not looked at */

struct source_arg {
	char *key;              /* as in the file (UTF-8) */
	char *value;            /* the value as compact JSON */
};

struct source_args {
	struct source_arg *v;
	size_t n;
	int found;              /* the event was found in the file */
	char msg[200];          /* why not, when not found */
};

/*
 * Reads the args of event ev of t from t->path into *out (cleared first):
 * returns 1 when the event was found (n may be 0: it has no args), else 0
 * with out->msg saying why (standard input, the file gone or changed, no
 * such element).  Never fails otherwise; free with source_args_free().
 */
int source_read_args(const struct trace *t, uint32_t ev, struct source_args *out);
/*
 * The same for the events ev[0..n) of t in one pass over the file (the
 * viewer reads a kernel's and its launching op's together): out[k] for
 * ev[k].  Returns how many were found.
 */
size_t source_read_args_n(const struct trace *t, const uint32_t *ev, size_t n,
    struct source_args *out);
void source_args_free(struct source_args *a);

#endif
