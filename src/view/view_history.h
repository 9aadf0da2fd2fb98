/*
 * view_history — back and forward through the places visited, as a
 * browser's history (z or Backspace back, y forward).
 *
 * A place (struct view_place, view.h) is the window, the current rank, the
 * selection and the cursor.  The places to go back to are the view's zoom
 * stack (v->zooms, v->nzoom), so zooming out after zooming in still finds
 * the window it came from; the places to go forward to are v->ahead,
 * v->nahead.  What is recorded, by view_history_after() around every
 * command (command.c) and search: the place left when a command pushed the
 * window (a zoom, a fit, a jump that zooms: view_set_window() with push),
 * and the place left when a jump (view_history_jump(): ] [ } { o O g G x K
 * S e n N J u Enter, a click, a search) selected something else without
 * pushing.  Panning, moving the cursor, stepping through the events of a
 * lane (. ,) and the toggles are not visits.  A visit clears the forward
 * places; going back puts the place left on them.  VIEW_ZOOM_DEPTH places
 * each way; the oldest is dropped.
 */
#ifndef GANTTY_VIEW_HISTORY_H
#define GANTTY_VIEW_HISTORY_H

#include "view/view.h"

/*
 * After a command (or search) that started at place before with nzoom_before
 * places behind: records the visit (see the top).  jump: the command goes
 * somewhere (view_history_jump()).
 */
void view_history_after(struct view *v, const struct view_place *before,
    int nzoom_before, int jump);
/* Whether cmd goes somewhere: its selection, if it changes, is a visit. */
int view_history_jump(enum view_cmd cmd);
/* z: back to the last place left; y: forward again.  Returns the change. */
int view_history_back(struct view *v);
int view_history_forward(struct view *v);

#endif
