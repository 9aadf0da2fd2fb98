/*
 * view_diag — the viewer's diagnosis state: each analysis's findings
 * (findings.h) and memory samples (memory.h), computed the first time they
 * are asked for, and the commands that use them: F selects the next finding
 * of the current rank and jumps to its evidence, Enter on a selected finding
 * goes to its next time range, M shows or hides the memory lanes.
 *
 * A view owns its view_diag (v->diag, NULL until first used), freed by
 * view_free() through view_diag_free().  Everything here only reads the
 * analyses.  With a selected finding (v->sel == SEL_FINDING), v->sel_index
 * is its index among the current rank's findings.
 */
#ifndef GANTTY_VIEW_DIAG_H
#define GANTTY_VIEW_DIAG_H

#include <stddef.h>
#include <stdint.h>

struct finding;
struct memory;
struct view;

/*
 * Returns the findings of analysis a of v (computed once, with v->xr for the
 * straggler) and sets *n; NULL with *n = 0 when there are none.
 */
const struct finding *view_diag_findings(struct view *v, size_t a, size_t *n);
/*
 * Returns the findings of analysis a if they were computed already (for
 * drawing, which never computes), else NULL with *n = 0.
 */
const struct finding *view_diag_findings_known(const struct view *v, size_t a,
    size_t *n);
/* Returns the memory of analysis a when the memory lanes are on, else NULL. */
const struct memory *view_diag_memory(const struct view *v, size_t a);
/* Returns the selected finding, or NULL. */
const struct finding *view_diag_selected(const struct view *v);
/* Sets [*a, *b) to the selected finding's current range; 0 if none. */
int view_diag_range(const struct view *v, int64_t *a, int64_t *b, size_t *k);
/*
 * F: selects the next finding of the current rank (wrapping) and zooms to
 * its first range; message says which.  Returns the view_change flags.
 */
int view_diag_next_finding(struct view *v);
/*
 * Enter on a selected finding: zooms to its next range (wrapping; F showed
 * the first).
 */
int view_diag_zoom(struct view *v);
/* M: shows or hides the memory lanes (building the samples once). */
int view_diag_toggle_memory(struct view *v);
/* Frees v->diag; v->diag may be NULL. */
void view_diag_free(struct view *v);

#endif
