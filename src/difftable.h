/*
 * difftable — the viewer's before/after table: a diff (diff.h) of analysis
 * a over [a0, a1) against analysis b over [b0, b1), laid out as the rows of
 * one scrolling table in three sections: the steps (A's i-th against B's
 * i-th), the layers (matched by name and phase) and the kernels (by name,
 * largest |time B - time A| first, as diff.h sorts them).  Each section
 * opens with a heading row; a section with nothing in it gets one DT_EMPTY
 * row instead of items.
 *
 * Each side is measured exactly as analysis_build() with WINDOW_ABSOLUTE
 * [a0, a1) (or WINDOW_STEP, when that is a step's GPU extent) would measure
 * it, without rebuilding anything: an analysis's steps, layers and device
 * index do not depend on its window, so the table's sides are the given
 * analyses with another window and its metrics.  A side without GPU
 * activity, or with an empty window, is all zeros (diff.h).
 *
 * Ownership: the table owns its diff and rows and keeps no pointer into the
 * analyses.  Cost: diff_build()'s, O(n log n) for the n activities in the
 * two windows.
 */
#ifndef GANTTY_DIFFTABLE_H
#define GANTTY_DIFFTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "diff.h"

struct analysis;

enum difftable_kind {
	DT_HEAD_STEPS = 0,      /* a section heading */
	DT_HEAD_LAYERS,
	DT_HEAD_KERNELS,
	DT_STEP,                /* index: into d.steps */
	DT_LAYER,               /* index: into d.layers */
	DT_KERNEL,              /* index: into d.kernels */
	DT_EMPTY,               /* "nothing on either side" under a heading;
	                           index: the heading's kind */
};

struct difftable_row {
	enum difftable_kind kind;
	size_t index;
};

struct difftable {
	struct diff d;
	struct difftable_row *rows;     /* nrows, in display order */
	size_t nrows;
	int64_t a0_ns, a1_ns, b0_ns, b1_ns;     /* the two windows */
};

/*
 * Builds t (overwritten) from a over [a0_ns, a1_ns) against b over
 * [b0_ns, b1_ns).  An empty or reversed window leaves its side without a
 * window (zeros).  a and b are only read and may be the same analysis.
 * Cannot fail.
 */
void difftable_build(struct difftable *t, const struct analysis *a,
    int64_t a0_ns, int64_t a1_ns, const struct analysis *b, int64_t b0_ns,
    int64_t b1_ns);
/* Frees what difftable_build() allocated; t may be zeroed. */
void difftable_free(struct difftable *t);
/*
 * Returns the first row of the section whose heading is kind (DT_HEAD_*),
 * or t->nrows.
 */
size_t difftable_section(const struct difftable *t, enum difftable_kind kind);

#endif
