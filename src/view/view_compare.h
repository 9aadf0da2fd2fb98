/*
 * view_compare — the viewer's comparison mode (issue 8, before and after): the
 * baseline step (b), the diff table (D) and what the aligned baseline lanes
 * need.
 *
 * The step in view of the current rank is the selected step (after ] [ or
 * o), else the step whose GPU extent holds the window's centre, else the
 * one whose CPU span holds it.  b marks it as the baseline A
 * (v->base_rank, v->base_step); b on the baseline unmarks it.
 *
 * The diff table (compare_table.h) compares, B - A:
 *  - with --compare (v->compare): trace A (an[0]) with trace B (the first
 *    analysis of another trace).  With a step selected (] [ o) that both
 *    have with a GPU extent, A's ProfilerStep#N with B's #N, each over its
 *    own GPU extent (view_compare_trace_steps(): the traces are aligned at
 *    their first steps only, so their N-th steps drift apart on screen);
 *    else both over the window on screen (they share one time axis), their
 *    steps paired by number where they share numbers;
 *  - else the baseline step A with the step in view B, each over its GPU
 *    extent (as --diff-steps measures them); without a baseline, the
 *    current rank's median step (analysis.median_step, as the panel's "vs
 *    median step"; the first step with a GPU extent when the median has
 *    none) is A, and the table says so and how to mark one.
 * It is rebuilt whenever the window changes while it is shown
 * (view_compare_refresh() from view_recalc(), command.h), so ] [ move B.
 * Up / Down and PgUp / PgDn move its cursor row; Enter on a step or layer
 * row shows the lanes zoomed to it (on B's rank; with --compare the window
 * covers A's and B's); D shows the lanes again.
 *
 * The baseline lanes: with a baseline and a step in view (another step, or
 * another rank's), the baseline device's GPU streams are drawn again under
 * the current device's lanes, shifted by offset_ns = B's GPU start - A's
 * GPU start so that the two steps start together, and clipped to A's GPU
 * extent.  Nothing is copied: the lanes are drawn with shifted columns.
 *
 * A view owns its view_compare (v->cmp, NULL until first used), freed by
 * view_free() through view_compare_free().  The analyses are only read.
 */
#ifndef GANTTY_VIEW_COMPARE_H
#define GANTTY_VIEW_COMPARE_H

#include <stddef.h>
#include <stdint.h>

struct compare_table;
struct view;

struct view_baseline {
	size_t rank;            /* the analysis holding A's step */
	long step_a;            /* index into an[rank].steps */
	long step_b;            /* the step in view, in the current rank; -1 */
	int64_t number_a, number_b;     /* their ProfilerStep numbers (-1) */
	int64_t a0_ns, a1_ns;   /* A's GPU extent */
	int64_t offset_ns;      /* add to A's times to line up with B (0 without B) */
	int aligned;            /* B exists, differs from A and both have GPU
	                           extents: the baseline lanes are drawn */
};

/*
 * Returns the step in view of the current rank (see the top) as an index
 * into its steps, or -1 (no steps, no GPU activity, none under the centre).
 */
long view_compare_step_in_view(const struct view *v);
/*
 * With --compare and a selected step whose number both traces have with a
 * GPU extent: sets *a to its index in an[0]'s steps, *b to the index of the
 * other trace's analysis (*bi) and its step, and returns 1.  Else returns 0.
 */
int view_compare_trace_steps(const struct view *v, long *a, size_t *bi, long *b);
/*
 * Fills *b and returns 1 when a baseline is marked (not with --compare);
 * else returns 0.
 */
int view_compare_baseline(const struct view *v, struct view_baseline *b);
/* b: marks (or unmarks) the step in view as the baseline; says so. */
int view_compare_mark(struct view *v);
/*
 * D: shows the diff table (VIEW_MODE_COMPARE_TABLE, building it) in place
 * of the matrix or over the lanes, or leaves it for the mode under it.
 */
int view_compare_toggle(struct view *v);
/* Moves the table's cursor by rows (clamped).  Returns VIEW_REPAINT. */
int view_compare_move(struct view *v, long rows);
/* Enter in the table: the lanes at the cursor's step or layer (see top). */
int view_compare_enter(struct view *v);
/*
 * Rebuilds the table for the current window and steps: the diff table
 * mode's refresh (command.c), while it is shown.
 */
void view_compare_refresh(struct view *v);
/*
 * Returns the table (NULL when it has not been built) and sets *row to its
 * cursor row and *top to the first row the view last scrolled to.
 */
const struct compare_table *view_compare_table(const struct view *v, size_t *row,
    size_t *top);
/*
 * Returns one line that says what the table compares ("A = ..., B = ...")
 * and any note (no baseline marked, no step in view); "" before the first
 * build.
 */
const char *view_compare_what(const struct view *v);
/* Frees v->cmp (the diff table mode's free); v->cmp may be NULL. */
void view_compare_free(struct view *v);

#endif
