/*
 * view_table — the tables of steps and of layers (T, L; issue 35): one row
 * per step of the current rank, or per layer of the step in view, with
 * their numbers side by side, sorted by any column, Enter to go to a row.
 *
 * The steps table holds every step of the current rank: its time is the
 * step's own (the ProfilerStep's CPU span, as `steps` and the report give
 * it); compute, comm, exposed comm and idle are those of its GPU extent
 * (metrics_window_sums(), as the report's step rows); busbw is the
 * time-weighted bus bandwidth of the collectives starting in that extent
 * (bandwidth_window(); "-" without one).
 *
 * The layers table holds the layers of the step in view
 * (view_compare_step_in_view()), or, in a trace without steps, the layers
 * whose extent overlaps the window.  A layer's time is its GPU extent (its
 * CPU span when it launched nothing); compute, comm, exposed and own
 * exposed are the layer's (layers.h); idle and busbw are its GPU extent's,
 * as for a step.
 *
 * Sorting: Left / Right choose the column.  The first column (the step's
 * number, the layer's name) sorts in trace order; every other column
 * sorts largest first, ties by time, then by trace order, so a table is
 * one total order.  The steps table opens sorted by time (the slowest step
 * first), the layers table by own exposed communication (the ranking of
 * x and the exposed_comm finding; ties by time).  The table keeps its
 * column when it is rebuilt.
 *
 * The cursor opens on the selected step or layer when it is in the table
 * (the lanes' selection is the table's row), else on the first row.  Up /
 * Down and PgUp / PgDn move it; Enter shows the lanes zoomed to its step or
 * layer, selected (as ] or } would); T or L again, or the other key, show
 * the lanes or the other table.  The table is rebuilt when the window or
 * the rank changes while it is shown (view_table_refresh(), the mode's
 * refresh), so ] [ in the layers table move it to the next step's layers.
 *
 * A view owns its view_table (v->table, NULL until first used), freed by
 * view_free() through view_table_free().  The analyses are only read.
 */
#ifndef GANTTY_VIEW_TABLE_H
#define GANTTY_VIEW_TABLE_H

#include <stddef.h>
#include <stdint.h>

struct view;

enum vt_kind { VT_STEPS, VT_LAYERS };

/* The columns, in display order; VT_OWN only in the layers table. */
enum vt_col {
	VT_NAME, VT_TIME, VT_COMPUTE, VT_COMM, VT_EXPOSED, VT_OWN, VT_IDLE,
	VT_BUSBW, VT_NCOLS
};

struct vt_row {
	long index;             /* into an[rank].steps or an[rank].layers */
	int64_t ns[VT_BUSBW];   /* VT_TIME .. VT_IDLE (VT_NAME: unused) */
	double busbw_gbps;      /* -1: no collective with a bus bandwidth */
};

struct vt_table {
	enum vt_kind kind;
	size_t rank;            /* the analysis the rows are of */
	struct vt_row *rows;
	size_t n;
	enum vt_col sort;       /* the column sorted by */
	size_t row, top;        /* the cursor row, the first row shown */
	char what[160];         /* what the table holds, for its title */
};

/* The column's heading ("time", "own exp", ...). */
const char *view_table_col_name(enum vt_col c);
/* Whether kind's table has column c. */
int view_table_has_col(enum vt_kind kind, enum vt_col c);
/*
 * T (VT_STEPS) or L (VT_LAYERS): shows that table (VIEW_MODE_TABLE) in
 * place of the matrix or the diff table, or over the lanes; the same key
 * again shows the mode under it.  Returns VIEW_REPAINT.
 */
int view_table_toggle(struct view *v, enum vt_kind kind);
/* Moves the cursor by rows (clamped).  Returns VIEW_REPAINT. */
int view_table_move(struct view *v, long rows);
/* Sorts by the next (dir > 0) or previous column, keeping the cursor's row. */
int view_table_sort(struct view *v, int dir);
/* Enter: the lanes zoomed to the cursor's step or layer, selected. */
int view_table_enter(struct view *v);
/* Rebuilds the table for the current rank and window (the mode's refresh). */
void view_table_refresh(struct view *v);
/* The table, or NULL before the first T or L. */
const struct vt_table *view_table_get(const struct view *v);
/* Frees v->table; it may be NULL. */
void view_table_free(struct view *v);

#endif
