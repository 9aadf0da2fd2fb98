/*
 * render — draws one frame of the viewer into a grid, from a view.
 *
 * Top to bottom: the title line (files, window, span); the step strip (one
 * cell per step of the current rank, height by step time scaled from the
 * shortest step to the slowest, outliers marked,
 * the steps in view highlighted); the time ruler (adaptive units, readable
 * tick labels); the lanes of view_lanes.h, grouped by rank: a header per
 * (rank, device), each GPU stream with activity (one lane per sub-row in
 * use), a bubble lane whose every column shows whether the device was idle
 * (a bubble), only communicating (exposed comm), overlapped, or computing,
 * the step and layer bands (render_bands.c), the gpu_user_annotation
 * lanes; with CPU lanes on, each CPU thread's slices by folded depth
 * (ProfilerStep, FSDP and module annotations, aten ops, CUDA runtime with
 * synchronisation calls marked), and the counter lanes; the lane the
 * keyboard is on is marked at its left edge, the marks on the ruler; the metrics
 * panel for the window on screen; the key hint line.  The viewer's mode
 * (v->mode, view.h) decides what fills the area under the title, through
 * render.c's table of one draw function per mode.  With the matrix shown
 * (VIEW_MODE_MATRIX), the lanes give way to the rank x step matrix
 * (matrix.h): one row per participant, one cell per step (or per group of
 * steps), its level as a block height and colour, outliers marked, and the
 * panel describes the current participant across ranks.  With a baseline
 * step marked (b), the current device's lanes are followed by the baseline
 * device's GPU streams over the baseline step, shifted to start with the
 * step in view and labelled "A#N <stream>".  With the diff table shown
 * (VIEW_MODE_COMPARE_TABLE), the whole area between the title and the hint
 * line is the table (render_compare.h).  The help overlay is drawn on top
 * of any mode when v->help is set.  A grid smaller than RENDER_MIN_W x
 * RENDER_MIN_H gets a "terminal too small" message instead.
 *
 * Every column aggregates everything under it (busy fraction as shading,
 * from track_busy_ns() and the device's ivsets, O(log n) per column and
 * lane), never "last event wins"; events wide enough carry their names.  A
 * frame costs O(rows * cols * log n) whatever the zoom.
 *
 * Glyphs: UTF-8 blocks by default, ASCII with opts.ascii.  Without colour
 * (opts.mono) bubbles and exposed comm still differ by glyph.
 */
#ifndef GANTTY_RENDER_H
#define GANTTY_RENDER_H

#include <stddef.h>
#include <stdint.h>

#include "view/view_lanes.h"

struct grid;
struct view;

#define RENDER_MIN_W 40
#define RENDER_MIN_H 12
#define RENDER_LABEL_W 14       /* lane label column width (before the time area) */

struct render_opts {
	int ascii;              /* ASCII glyphs only */
	int mono;               /* no colours: glyphs must carry the meaning */
	const char *title;      /* the files, for the title line */
};

struct layout {
	int w, h;
	int time_x;             /* first column of the time area */
	int time_cols;          /* its width: what view.cols must be */
	int lanes_y, lanes_h;   /* the lane area */
	int nlanes;             /* lane rows in total (scrollable) */
	struct row_info *rows;  /* h entries, owned */
};

/*
 * Computes the layout of a w x h frame for v (time_cols is what view_resize
 * needs).  lay is overwritten; free with render_layout_free().
 */
void render_layout(struct layout *lay, const struct view *v, int w, int h);
void render_layout_free(struct layout *lay);
/*
 * The rows the lanes of an h rows high frame may fill while the panel keeps
 * 16 rows (its window lines and the findings): what the loop puts in
 * v->lane_room, for the lanes that show by themselves (view_lanes.h).
 */
int render_lane_room(int h);
/*
 * Returns the lane row (before scrolling) of rank's header, so the loop can
 * scroll the current rank into view after r / R.
 */
int render_rank_lane(const struct view *v, size_t rank);
/* Draws the frame of v into g (sized w x h) using lay.  Never fails. */
void render_frame(struct grid *g, const struct layout *lay,
    const struct view *v, const struct render_opts *opts);
/*
 * Returns the event (index into v->an[a].t->events) drawn at screen cell
 * (x, y), the longest of those under that column, or UINT32_MAX; *a is the
 * analysis index.  For clicks.
 */
uint32_t render_event_at(const struct layout *lay, const struct view *v, int x,
    int y, int *a);

#endif
