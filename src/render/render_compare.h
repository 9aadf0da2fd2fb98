/*
 * render_compare — draws the diff table (view_compare.h, compare_table.h) into
 * the grid, the view only read, like render.c (which calls it when
 * v->mode is VIEW_MODE_COMPARE_TABLE).
 *
 * The first row says what is compared (view_compare_what()) and which rows are
 * on screen; below it the table scrolls so that the cursor row stays in
 * view.  Each section's heading row names its columns.  Steps
 * ("#A -> #B") and layers ("name phase xcount") show, per metric, the value
 * of B and the change B - A; the metrics, most telling first: time, exposed
 * comm, own exposed comm (layers), compute, comm, idle.  As many metrics as
 * fit are shown, then as many of them (from the left) as fit get B beside
 * the change; a narrow terminal shows only the changes of the first ones.
 * Kernels show the count A -> B, the time of A and of B and the change
 * (only B and the change when narrow), the name in the columns left.  A
 * change that makes time, exposed comm or idle grow is drawn as bad, one
 * that shrinks it as good.  O(rows) per frame.
 */
#ifndef GANTTY_RENDER_COMPARE_H
#define GANTTY_RENDER_COMPARE_H

struct grid;
struct view;

/* The label column's width, and the widths of a metric with and without B. */
#define RENDER_DT_LABEL_W 22
#define RENDER_DT_FULL_W 19
#define RENDER_DT_DELTA_W 10

/*
 * Draws the table into rows [y, y + rows) of g, the full width.  Without a
 * table (never built) only says how to get one.
 */
void render_compare(struct grid *g, int y, int rows, const struct view *v,
    int ascii);

#endif
