/*
 * render_diag — the diagnosis parts of a frame: the memory lane of a
 * (rank, device) and the findings in the panel.  Drawn into the grid with
 * the view only read, like render.c (which calls these).
 *
 * Memory lane: one row; each column shows the largest allocated value in
 * effect in its time range (memory_peak()) as a bar of eighths
 * (U+2581..U+2588; ASCII ".:-=+*#@"), scaled to the device's peak reserved
 * (its peak allocated when nothing is reserved); blank where no value is in
 * effect.  Its label gives the scale.
 */
#ifndef GANTTY_RENDER_DIAG_H
#define GANTTY_RENDER_DIAG_H

#include <stddef.h>
#include <stdint.h>

struct grid;
struct view;

/*
 * Draws analysis a's memory lane at row y: the label in columns
 * [0, label_w), the ncols time columns from x0.
 */
void render_diag_memory_lane(struct grid *g, int y, int label_w, int x0,
    int ncols, const struct view *v, size_t a, int ascii);
/*
 * Writes the memory line of the window panel into buf ("" when the memory
 * lanes are off or the current device has no samples): allocated and
 * reserved at the cursor's time, and the window's peak.
 */
void render_diag_memory_text(char *buf, size_t n, const struct view *v,
    int64_t cursor_ns);
/*
 * Writes the compare line of the window panel into buf: B - A of time,
 * compute, comm, exposed comm and idle over the window on screen (an[0] is
 * A, an[1] is B, on one time axis).
 */
void render_diag_compare_text(char *buf, size_t n, const struct view *v);
/*
 * Writes the baseline line of the window panel into buf ("" without a
 * baseline, view_compare.h): the baseline step A and the step in view B, and
 * B - A of their step time (CPU span) and of the exposed comm and idle over
 * their GPU extents.
 */
void render_diag_baseline_text(char *buf, size_t n, const struct view *v);
/* Writes a one-line summary of the selected finding into buf. */
void render_diag_finding_text(char *buf, size_t n, const struct view *v);
/*
 * Draws the findings panel into [x, x+w) x [y, y+rows): the current rank's
 * findings, the selected one marked, then its evidence, ranges and remedy.
 */
void render_diag_findings_panel(struct grid *g, int x, int y, int w, int rows,
    const struct view *v, int ascii);

#endif
