/*
 * view_lanes — which lanes the viewer shows, top to bottom, and the
 * folding of the CPU threads' Python frames: what render/ draws and what
 * the keyboard focus (Up / Down) moves over, with no drawing.
 *
 * Per (rank, device), in this order: a header; each GPU stream with
 * activity, one lane per sub-row in use; the bubble lane; the step band and
 * the layer band (the steps' and layers' GPU extents, when there are steps
 * or layers); the critical path of the step in view (P, the current
 * rank's device only); a lane per nesting depth of the device's
 * gpu_user_annotation events, per stream that has them; the memory lane (M); the baseline
 * step's streams (b).  With the CPU lanes on (c), each thread of a trace
 * after its first device's lanes: one lane per depth present in the window
 * (the thread's deepest when more than VIEW_LANES_SCAN of its events lie in
 * the window), then the counters (C) of that trace, one lane per series.
 * The CPU lanes also show by themselves (v->cpu_auto, until c is pressed)
 * when every lane, theirs included, fits v->lane_room rows: a screen with
 * room to spare is used.
 *
 * Folding (SPEC 6): unless v->show_python, the python_function events
 * (with_stack's frames) of a CPU thread are hidden and every other event
 * sits at its folded depth, the number of its ancestors that are not
 * Python frames, so ProfilerStep, annotations, FSDP hooks, aten ops and
 * runtime calls are reached at any depth.  The folded depths are computed
 * once per trace, O(n), by view_lanes_prepare() (the commands call it), and
 * kept in v->lanes.
 */
#ifndef GANTTY_VIEW_LANES_H
#define GANTTY_VIEW_LANES_H

#include <stddef.h>
#include <stdint.h>

struct event;
struct trace;
struct view;

#define VIEW_LANES_SCAN 200000  /* events scanned for a thread's depths in view */

/* What one screen row shows, for drawing, the focus, clicks and tests. */
enum row_kind {
	ROW_OTHER = 0,          /* title, ruler, panel, hint... */
	ROW_STEPS,              /* the step strip */
	ROW_RANK,               /* a (rank, device) header */
	ROW_GPU,                /* a GPU stream sub-row */
	ROW_BUBBLE,             /* the bubble lane */
	ROW_CPU,                /* a CPU thread at one (folded) depth */
	ROW_MATRIX,             /* a participant's row of the rank x step matrix
	                           (analysis: the participant, see crossrank.h) */
	ROW_MEMORY,             /* a device's memory lane (M; render_diag.h) */
	ROW_BASELINE,           /* a GPU stream of the baseline step A (b),
	                           shifted to start with the step in view
	                           (view_compare.h); analysis: A's */
	ROW_ANNOT,              /* gpu_user_annotation events of a stream at one
	                           depth */
	ROW_STEP_BAND,          /* the steps' GPU extents of a device */
	ROW_LAYER_BAND,         /* the layers' GPU extents of a device */
	ROW_COUNTER,            /* a counter track (C events), track: its index */
	ROW_PATH,               /* the critical path of the step in view (P;
	                           view_whatif.h), under the current device's bands */
};

struct row_info {
	enum row_kind kind;
	int analysis;           /* index into v->an, -1 if none */
	uint32_t track;         /* ROW_GPU, ROW_CPU, ROW_ANNOT, ROW_COUNTER */
	int depth;              /* sub-row or nesting depth */
};

/*
 * Lists every lane row of v, top to bottom, into *out (malloc'd); returns
 * how many.  pack = g >= 1 (the overview only) puts two groups of g ranks a
 * row (depth g, analysis the first position in view_rank_order(), track
 * the number of positions the row covers); a lone last rank of g = 1 keeps
 * a row of its own.  Pure: reads v and v->lanes (view_lanes_prepare()).
 */
size_t view_lanes(const struct view *v, struct row_info **out, int pack);
/*
 * The order the overview and the matrix list n ranks in: by rank, or with
 * v->sort_waited by the time the others waited for them (crossrank
 * lost_ns, largest first).  Returns a malloc'd array of n positions.
 */
size_t *view_rank_order(const struct view *v, size_t n);
/* Whether the CPU lanes are shown: c, or by themselves when they fit. */
int view_cpu_shown(const struct view *v);
/* Builds what the lanes need that is not built yet (the folded depths). */
void view_lanes_prepare(struct view *v);
/* Frees v->lanes (view_free() calls it). */
void view_lanes_free(struct view *v);
/*
 * The lane depth of CPU event ev of t (an index into t->events): its folded
 * depth, its depth with v->show_python, or -1 when it is not drawn (a Python
 * frame folded away, or not an 'X' slice).
 */
int view_cpu_depth(const struct view *v, const struct trace *t, uint32_t ev);
/* Whether row ri holds event ev of its analysis' trace (drawn there). */
int view_row_has(const struct view *v, const struct row_info *ri, uint32_t ev);

/* The largest value of counter track `track` of analysis a's trace. */
double view_counter_peak(const struct view *v, size_t a, uint32_t track);
/*
 * The value of counter track `track` at ts_ns (its last sample at or
 * before it): returns 0 when it has none yet.
 */
int view_counter_at(const struct view *v, size_t a, uint32_t track,
    int64_t ts_ns, double *value);
/*
 * The largest value the counter has in [a_ns, b_ns) (the one in effect at
 * a_ns and the samples in it: all, or 64 spread evenly when more); returns 0
 * when it has none.
 */
int view_counter_max(const struct view *v, size_t a, uint32_t track,
    int64_t a_ns, int64_t b_ns, double *value);

#endif
