/*
 * view_whatif — the critical path and the what-if replays in the viewer
 * (issue 32): what P and i do, and what the lanes and the panel read.
 *
 * The dependency graph (whatif.h) of every analysis of the view is built
 * the first time it is needed, not at start: P (the critical path), i (the
 * next scenario), or e on a trace of at most VIEW_WHATIF_EAGER events (so
 * that a finding's remedy can quote its gain).  On a bigger trace e does
 * not build it (SPEC 7: a key stays instant), and the remedy says that P
 * does.  With several ranks the graph joins collectives across them
 * (v->xr); with --compare the two traces are replayed apart.
 *
 * The scenarios are, in this order, those of --what-if (view_whatif_set())
 * and then those of VIEW_WHATIF_DEFAULTS not given already, no-straggler
 * only with several ranks.  i cycles over them; the panel's what-if line is
 * the current one's gain over the step in view (view_compare.h), predicted
 * minus replayed (whatif_gain_format()).
 *
 * P shows (or hides) the critical path of the step in view of the current
 * rank: a lane under its bands and a panel line splitting the step by kind.
 * The path is recomputed by view_whatif_refresh() when the step in view or
 * the rank changes (view_do() and view_recalc() call it), so render/ only
 * reads it.
 *
 * A view owns its view_whatif (v->wi, NULL until first used), freed by
 * view_free() through view_whatif_free().
 */
#ifndef GANTTY_VIEW_WHATIF_H
#define GANTTY_VIEW_WHATIF_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/findings.h"

struct dg_path;
struct dg_whatif;
struct view;
struct whatif_step;

#define VIEW_WHATIF_EAGER 1000000       /* events: e builds the graph up to this */
#define VIEW_WHATIF_DEFAULTS { "comm=2", "comm=inf", "no-host-wait", "no-straggler" }

/*
 * The scenarios of --what-if, sc[0..n) (borrowed: they must outlive v), go
 * first; with show, the critical path is shown from the start (the graph
 * built now).  Call before the first command.
 */
void view_whatif_set(struct view *v, const struct dg_whatif *sc, size_t n,
    int show);
/* P: shows or hides the critical path (building the graph first). */
int view_whatif_toggle(struct view *v);
/* i: the next scenario (building the graph and showing the path first). */
int view_whatif_next(struct view *v);
/*
 * Builds the graph if the view's traces have at most VIEW_WHATIF_EAGER
 * events together (e calls it); returns whether it is built.
 */
int view_whatif_eager(struct view *v);
/* Keeps the path of the step in view current (cheap when it has not moved). */
void view_whatif_refresh(struct view *v);
/* Whether the critical path is shown (P). */
int view_whatif_shown(const struct view *v);
/*
 * The critical path of the step in view of the current rank, or NULL (not
 * shown, not built, no step in view, or the step has no marks); *step gets
 * its index into the rank's steps (-1 with NULL).
 */
const struct dg_path *view_whatif_path(const struct view *v, long *step);
/* The name of node n of the graph (depgraph_node_name()); "" unbuilt. */
const char *view_whatif_node_name(const struct view *v, uint32_t n);
/*
 * The replays of the step in view under the current scenario into *out,
 * with the scenario's text in *scenario, its position in *k and the number
 * of scenarios in *n; returns 0, or -1 as view_whatif_path() is NULL.
 */
int view_whatif_current(const struct view *v, struct whatif_step *out,
    const char **scenario, size_t *k, size_t *n);
/*
 * The what-if line that quotes what a remedy of finding kind f would buy
 * over every step of the current rank ("comm=inf: -51.67 ms (-8.4%), over
 * 5 steps"), into buf (size > 0); returns 1, or 0 with buf "" when no
 * scenario applies, and 0 with why in buf when the graph is not built.
 */
int view_whatif_finding(const struct view *v, enum finding_kind f, char *buf,
    size_t size);
/* Frees v->wi. */
void view_whatif_free(struct view *v);

#endif
