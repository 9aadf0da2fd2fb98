/*
 * align — removes the clock offset between ranks.
 *
 * Collectives finish together on every rank that takes part, so after
 * matching them (crossrank.h) the offset of a participant's clock against
 * the first participant's is the median, over the collectives both took part
 * in, of (first's end - its end).  Shifting a trace adds an offset to every
 * time it holds (events, flows, its span, the tracks' index max-ends and
 * busy sets), which keeps all derived data valid: analyses built on the
 * trace must be rebuilt afterwards (steps, layers and metrics hold times).
 */
#ifndef GANTTY_ALIGN_H
#define GANTTY_ALIGN_H

#include <stddef.h>
#include <stdint.h>

struct crossrank;

#define ALIGN_MAX_NS INT64_C(3600000000000)     /* offsets beyond an hour are refused */
struct trace;

/*
 * Fills off[0..x->nparts) with each participant's offset in ns (0 for the
 * first, and for one that shares no matched collective with it or whose
 * offset would exceed ALIGN_MAX_NS: *unaligned counts those).  O(C log C) per participant for C matched collectives.
 */
void align_offsets(const struct crossrank *x, int64_t *off, size_t *unaligned);
/* Adds off_ns to every time held by t.  O(n). */
void align_shift(struct trace *t, int64_t off_ns);

#endif
