/*
 * view_nav — going to things on the current rank: the next or previous
 * step, layer, outlier step, gap and search match, the worst exposed-comm
 * layer in view, and Enter's zoom to the selection.  Each selects what it
 * goes to (v->sel) and moves the window to it (view.h's view_zoom_to(),
 * view_centre_on()).
 *
 * A view owns its search state (v->nav: the query compiled and the set of
 * names matching it, built once per trace and query), NULL until the first
 * search, freed by view_free() (command.h) through view_nav_free().  The
 * analyses are only read.
 */
#ifndef GANTTY_VIEW_NAV_H
#define GANTTY_VIEW_NAV_H

#include <stdint.h>

#include "model/event.h"
#include "view/view.h"

struct trace;

/*
 * Runs cmd if it goes somewhere (ZOOM_SELECTED, NEXT/PREV_STEP, _LAYER,
 * _GAP, _MATCH, NEXT_OUTLIER, WORST_LAYER, SLOWEST_STEP, LONGEST_KERNEL)
 * and returns the enum
 * view_change flags; returns -1 for any other command.  Without analyses it
 * says "no trace", without GPU activity "no GPU activity in this trace"
 * (matches and Enter excepted).  Where there is nothing to go to ("no next
 * step", "no gaps >= 10 us", ...), the window and selection stay and
 * message says why.  Navigation (steps, layers, outliers) starts from the
 * selection of its kind, else from the window's centre; gaps and matches
 * from the selected gap or event, else from the cursor's time.  Outliers
 * and matches wrap around.  WORST_LAYER picks, among the layers whose GPU
 * extent overlaps the window, the one with the largest own_exposed_comm_ns
 * (ties: the earlier); when none has any, it only says so.  SLOWEST_STEP
 * selects the step of the largest own time (ties: the first).
 * LONGEST_KERNEL selects (view_select_goto()) the longest GPU activity
 * starting in the selected step's GPU extent, or the selected layer's
 * (among those launched inside the layer's CPU span when any is), else in
 * the window (ties: the first).  Enter on a
 * selected finding is not here (the lanes modes take it, command.c).
 * Costs: O(log n) per command, O(s) for steps/layers, O(n) per search
 * jump (one scan of the string table per new query).
 */
int view_nav_do(struct view *v, enum view_cmd cmd);
/*
 * Searches event names of the current rank for text, a POSIX extended
 * regular expression ignoring case ("Gather.*RING"), or, when it is not
 * one, the text itself ignoring case; selects the first match at or after
 * the cursor and shows it: the window is left alone when the match is in
 * it and at least a column wide, zoomed to a match narrower than a column,
 * else centred on it.  Sets message to "/QUERY: match k of n" (k in time
 * order among the rank's n matches; ", wrapped ..." when it wrapped), or
 * why nothing matches.  An empty text repeats the last query.  Counter
 * samples are not searched; a match on a CPU lane turns the CPU lanes on.
 * Every rank's matching names are kept for the lanes (view_match_names()).
 */
int view_search(struct view *v, const char *text);
/*
 * The names of t that match the view's query (one bit per strtab id), or
 * NULL when there is no query or t was not searched for it yet.
 */
const uint8_t *view_match_names(const struct view *v, const struct trace *t);
/* Whether event e's name is in set (view_match_names()); counters never are. */
static inline int
view_name_match(const uint8_t *set, const struct event *e)
{
	return (set[e->name / 8] >> (e->name % 8)) & 1 && !(e->flags & EVF_COUNTER);
}
/*
 * Selects step i (layer i) of the current rank and zooms to its extent, as
 * ] and } do; for the tables' Enter (view_table.h).  Returns the change.
 */
int view_nav_select_step(struct view *v, long i);
int view_nav_select_layer(struct view *v, long i);
/* Frees v->nav; v->nav may be NULL. */
void view_nav_free(struct view *v);

#endif
