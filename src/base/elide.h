/*
 * elide — where to cut a name too wide for its column, so that names which
 * look alike stay apart.
 *
 * A name of more than max terminal columns keeps its first and last whole
 * characters around one mark (mark_cols wide: "\u2026" or "..."), the
 * start as long as the end or one column more: kernel names of thousands
 * of characters are mostly template arguments, so their start and end say
 * what they are.  Names that differ only in their middle (one template
 * argument, one kernel variant) would then look the same, so the caller
 * may pass keeps: the byte offsets where the name first differs from each
 * name it would otherwise look like (elide_differs_at()).  The cut then
 * keeps the character at each in view: one near the start lengthens the
 * start; else each gets a part of its own from there on, between marks
 * ("void split_em…cta_per_r…2ul>(at…long)"), at most ELIDE_PARTS parts in
 * all, the keeps nearest the start first.  Widths are the columns a
 * terminal shows (utf8_shown()).  Pure; nothing is allocated.
 */
#ifndef GANTTY_ELIDE_H
#define GANTTY_ELIDE_H

#include <stddef.h>

#define ELIDE_PARTS 5   /* the start, up to three middles, the end */

/* The parts of s shown, in order, a mark between each two. */
struct elide_cut {
	struct {
		size_t from, to;        /* s[from, to) */
	} part[ELIDE_PARTS];
	size_t nparts;
	size_t cols;            /* the columns of all that, marks included */
};

/*
 * Plans the cut of s to at most max columns (taken as mark_cols + 2 at
 * least) around marks of mark_cols, keeping the characters at the byte
 * offsets keeps[0, nkeeps) (any order) in view as far as the width allows.
 * Returns 0 when s fits (one part, all of it), else 1.  O(|s| nkeeps).
 */
int elide_plan(const char *s, size_t max, size_t mark_cols, const size_t *keeps,
    size_t nkeeps, struct elide_cut *c);
/*
 * The keeps for s (at most cap distinct ones, into keeps; returns how
 * many) against the names others[0, n): each of those that could look
 * like s once cut to max columns (it starts as s's default cut starts and
 * ends as s does over the shortest end a cut shows) gives the offset where
 * it first differs from s.  Names that start or end apart are left as
 * they are.  O(n |s|).
 */
size_t elide_keeps(const char *s, const char *const *others, size_t n, size_t max,
    size_t mark_cols, size_t *keeps, size_t cap);
/*
 * The byte offset where s first differs from other, at the start of a
 * character (its longest common prefix with other).  O(|s|).
 */
size_t elide_differs_at(const char *s, const char *other);

#endif
