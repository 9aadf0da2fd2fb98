/*
 * command — the top of view/: the viewer's modes as one table, as tmux's
 * struct window_mode, and the entry points that must reach every mode:
 * running a command (view_do()), recomputing after a change
 * (view_recalc()), a resize (view_resize()) and freeing (view_free()).
 *
 * Each mode (enum view_mode, view.h) has one entry: its name; its keys (the
 * commands it takes over from the ones every mode shares, NULL for none);
 * its refresh (what view_recalc() must rebuild for it while it is shown,
 * NULL for nothing); and its free (the state it keeps, even while it is not
 * shown, freed by view_free(), NULL for none).  A new mode is one entry
 * here and one in render.c's table of draw functions: render/ is above
 * view/ in the layer map, so this table cannot point at them.
 *
 * This file sits above view.c, view_nav.c, view_compare.c and view_diag.c,
 * so that the core (view.c) does not include the state built on it.  The functions keep the view_ prefix: they act on the whole view.
 */
#ifndef GANTTY_COMMAND_H
#define GANTTY_COMMAND_H

#include "view/view.h"

/*
 * Runs a command; returns the enum view_change flags.  The mode shown gets
 * it first: the diff table takes Up / Down, PgUp / PgDn and Enter, the
 * matrix Enter (open the current rank's lanes), the lanes Enter on a
 * selected finding.  Then the commands that change modes (v, m, D) and the
 * comparison and diagnosis commands (b, F, M) run here, the navigation
 * through view_nav_do() (view_nav.h) and every other one through
 * view_do_common() (view.h); see there for what each does and costs.  The
 * message is cleared first.
 */
int view_do(struct view *v, enum view_cmd cmd);
/*
 * Recomputes the current rank's numbers for the window (view_measure()) and
 * rebuilds what the mode shown needs (the diff table for the new window).
 */
void view_recalc(struct view *v);
/* Sets the number of time columns (a resize) and recomputes (view_recalc()). */
void view_resize(struct view *v, int cols);
/* Frees what the view owns (not the analyses); v may be NULL or zeroed. */
void view_free(struct view *v);
/* Returns the name of mode m ("lanes", "matrix"...). */
const char *view_mode_name(enum view_mode m);

#endif
