/*
 * track — what is derived per track once a trace is loaded and sorted.
 *
 * Input: trace->events sorted by (track, ts_ns, dur_ns descending), each
 * track's range [first, first + count) set.  For every track this fills:
 *  - depth of each event: for CPU tracks the nesting depth of its slice
 *    (a stack of open slices; a slice that starts inside its parent but ends
 *    after it is counted in trace->warn.bad_nesting and flagged EVF_BAD_NEST,
 *    and still nests one level deeper; instants, counters and zero-length
 *    slices are leaves that get the depth of the stack);
 *    for GPU tracks the sub-row of each activity (the lowest row free at its
 *    start, so kernels that overlap on one stream, e.g. programmatic
 *    dependent launch, go to row 1, 2, ...), and for gpu_user_annotation
 *    events their own nesting depth among annotations (flagged EVF_BAD_NEST
 *    when improperly nested, but not counted: the warning is about CPU
 *    spans); other events on a GPU track get 0.  Depths saturate at 65534,
 *    so that rows fits its uint16_t;
 *  - track->rows: the number of rows (depths) used, max depth + 1 over all
 *    its events (0 for no events): on a GPU track the larger of the activity
 *    sub-rows and the annotation levels;
 *  - track->activity: the number of GPU activities;
 *  - track->index: the itree over the track's events;
 *  - track->busy: the union of the track's GPU activity (GPU tracks) or of
 *    its slices with dur > 0 (CPU tracks); empty for counters.
 *
 * track_busy_ns() is the per-track summary the renderer and metrics call per
 * screen column: O(log n) whatever the zoom.
 */
#ifndef GANTTY_TRACK_H
#define GANTTY_TRACK_H

#include <stdint.h>

struct trace;
struct track;

/*
 * Derives depths, rows, index and busy set for every track (whose index and
 * busy must not be built yet); adds to t->warn.bad_nesting.  Cannot fail.
 * O(n log r) for n events and r GPU sub-rows in use (1 or 2 in practice;
 * a heap of busy rows and one of free rows keep a pile of overlapping
 * kernels from costing n x r).  From 100,000 events on, the tracks are
 * built by two threads, in two halves of about equal events.
 */
void track_build_all(struct trace *t);
/* Returns the busy time of tr inside [a_ns, b_ns).  O(log n). */
int64_t track_busy_ns(const struct track *tr, int64_t a_ns, int64_t b_ns);

#endif
