/*
 * view_select — the keyboard's selection: a focus that moves between lanes
 * (Up / Down, the lanes scrolling to keep it in view), from event to event
 * within the focused lane (. and ,), the jump between a kernel and its
 * launch call (J), the op around (u: a kernel's launching op, the innermost
 * cpu_op that holds its launch call; a CPU event's parent, the event one
 * lane up that holds it), the two marks that measure a range (< and >, or
 * a mouse drag; Esc clears them, Z zooms to them), and the toggles of the lanes that only this selection needs
 * (Python frames p, counters C).
 *
 * The focus names a lane of view_lanes.h (struct view_focus in view.h): it
 * stays on its lane while lanes come and go, and when its lane is gone the
 * next Up / Down starts from the first lane shown.  Moving onto a lane of
 * another rank makes that rank the current one (the panel follows).  An
 * event is selected in the focused lane: the one under the cursor first
 * (navigation never skips it), then the next or previous one; the window
 * pans to it when it is off screen (zooming out when it is wider).
 */
#ifndef GANTTY_VIEW_SELECT_H
#define GANTTY_VIEW_SELECT_H

#include <stdint.h>

#include "view/view.h"

/*
 * Runs the commands above (and Up / Down / PgUp / PgDn in the lanes mode);
 * returns the enum view_change flags, or -1 for a command it does not run.
 */
int view_select_do(struct view *v, enum view_cmd cmd);
/*
 * Selects event ev of analysis a's trace as the keyboard does: the focus
 * goes to its lane, the rank becomes a, the window pans to it when it is
 * off screen and the cursor goes to its start.  Returns the change.
 */
int view_select_goto(struct view *v, size_t a, uint32_t ev);
/*
 * A drag across the lanes from column col_a to col_b (either order, clamped
 * to the window): the marks at the start of the first column and the end
 * of the last, so the range is every column the drag crossed; the cursor
 * goes to col_b.  Returns the change (VIEW_RECALC: the panel measures it).
 */
int view_select_mark_columns(struct view *v, int col_a, int col_b);
/*
 * With an event selected and the selection panel shown, reads its args
 * back from its file (load/source.h) unless they are read already, and a
 * GPU activity's launching op's with them (one pass): the commands call
 * it, so that drawing never reads a file.  O(file) once per event shown.
 */
void view_select_refresh(struct view *v);
/* The selected event's args as last read (NULL: not read, or another event). */
const struct source_args *view_event_args(const struct view *v);
/*
 * The selected GPU activity's launching op (launch.h) and its args as read
 * with the event's: returns the op's event index and sets *args (NULL when
 * not read), or EV_NONE when the selection is no activity or has no op.
 */
uint32_t view_launch_op_args(const struct view *v, const struct source_args **args);
/* Frees what view_select_refresh() read (view_free() calls it). */
void view_select_free(struct view *v);

#endif
