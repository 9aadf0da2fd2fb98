/*
 * listing — what the report lists the same way in every format (text and
 * JSON): the tracks of an analysis's entry, and the ranks a cross-rank
 * analysis has twice or lacks; and which tracks are only the trace's
 * metadata, which the text leaves out.  Only reads the analyses.
 */
#ifndef GANTTY_LISTING_H
#define GANTTY_LISTING_H

#include <stddef.h>
#include <stdint.h>

struct analysis;
struct crossrank;
struct track;

/*
 * Whether the entry of analysis a lists track tr: CPU and counter tracks,
 * and the GPU streams of its device; GPU streams of no analysed device go
 * with the trace's first device.  So a trace's GPU streams are listed once,
 * however many devices it has.
 */
int listing_track(const struct analysis *a, const struct track *tr);

/*
 * Whether tr is a metadata pseudo-track: a CPU track whose pid and tid are
 * both strings, not process and thread ids, holding at most one event.
 * Kineto writes three for the profiling session itself, not for any
 * thread: pid "Spans" (the profiler's span), pid "Traces" (the iteration
 * start, an instant) and pid "" (the record window's end), each with one
 * event.  The text report leaves them out of its track list and counts
 * them; the JSON lists them as any other track (its keys do not change).
 */
int listing_metadata_track(const struct track *tr);

/*
 * Calls put(arg, rank) for each rank, ascending, that appears more than
 * once with the same device (dup), or that is below the world size and no
 * participant has (!dup; the first 2^20 ranks only).  The world size is
 * the largest distributedInfo.world_size of the participants' traces, known
 * here as the largest rank + 1 at least.  Returns how many it put.
 */
size_t listing_ranks(const struct crossrank *x, int dup,
    void (*put)(void *arg, int64_t rank), void *arg);

#endif
