/*
 * compare_table — the viewer's before/after table: a diff (compare.h) of analysis
 * a over [a0, a1) against analysis b over [b0, b1), laid out as the rows of
 * one scrolling table in three sections: the steps (paired as pairing
 * says, compare.h), the layers (matched by name and phase) and the kernels (by name,
 * largest |time B - time A| first, as compare.h sorts them).  Each section
 * opens with a heading row; a section with nothing in it gets one CT_EMPTY
 * row instead of items.
 *
 * Each side is measured exactly as analysis_build() with WINDOW_ABSOLUTE
 * [a0, a1) (or WINDOW_STEP, when that is a step's GPU extent) would measure
 * it, without rebuilding anything: an analysis's steps, layers and device
 * index do not depend on its window, so the table's sides are the given
 * analyses with another window and its metrics.  A side without GPU
 * activity, or with an empty window, is all zeros (compare.h).
 *
 * Ownership: the table owns its diff and rows and keeps no pointer into the
 * analyses.  Cost: compare_build()'s, O(n log n) for the n activities in the
 * two windows.
 */
#ifndef GANTTY_COMPARE_TABLE_H
#define GANTTY_COMPARE_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/compare.h"

struct analysis;
struct step;

enum compare_table_kind {
	CT_HEAD_STEPS = 0,      /* a section heading */
	CT_HEAD_LAYERS,
	CT_HEAD_KERNELS,
	CT_STEP,                /* index: into d.steps */
	CT_LAYER,               /* index: into d.layers */
	CT_KERNEL,              /* index: into d.kernels */
	CT_EMPTY,               /* "nothing on either side" under a heading;
	                           index: the heading's kind */
};

struct compare_table_row {
	enum compare_table_kind kind;
	size_t index;
};

struct compare_table {
	struct compare d;
	struct compare_table_row *rows;     /* nrows, in display order */
	size_t nrows;
	int64_t a0_ns, a1_ns, b0_ns, b1_ns;     /* the two windows */
};

/*
 * Builds t (overwritten) from a over [a0_ns, a1_ns) against b over
 * [b0_ns, b1_ns), its steps paired as pairing says.  An empty or reversed window leaves its side without a
 * window (zeros).  a and b are only read and may be the same analysis.
 * Cannot fail.
 */
void compare_table_build(struct compare_table *t, const struct analysis *a,
    int64_t a0_ns, int64_t a1_ns, const struct analysis *b, int64_t b0_ns,
    int64_t b1_ns, enum compare_pairing pairing);
/*
 * Builds t (overwritten) from step sa of a against step sb of b, each over
 * its GPU extent (zeros without one), with one step row: sa against sb
 * (compare_keep_step()), not the neighbours whose extents overlap theirs.
 */
void compare_table_build_steps(struct compare_table *t, const struct analysis *a,
    const struct step *sa, const struct analysis *b, const struct step *sb);
/* Frees what compare_table_build() allocated; t may be zeroed. */
void compare_table_free(struct compare_table *t);
/*
 * Returns the first row of the section whose heading is kind (CT_HEAD_*),
 * or t->nrows.
 */
size_t compare_table_section(const struct compare_table *t, enum compare_table_kind kind);

#endif
