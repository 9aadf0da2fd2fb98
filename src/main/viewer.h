/*
 * viewer — what main does with a view: the view the command line asks for
 * (its window, step, marks, selection, toggles and modes), one frame of it
 * as text on standard output (--render, and the viewer on a terminal that
 * cannot move its cursor), and --render of a session.
 *
 * Beside main.c and cli, in its layer: it prints the command line's
 * warnings (--baseline, --select: unless --quiet) and the error of a frame
 * that cannot be written.
 */
#ifndef GANTTY_MAIN_VIEWER_H
#define GANTTY_MAIN_VIEWER_H

#include <stddef.h>
#include <stdint.h>

struct analysis;
struct cli;
struct session;
struct view;

/*
 * Initialises v over an[0..n) with bounds [t0, t1) for a w x h frame, as
 * the options of c ask (view_init(), then --window / --step, the toggles,
 * --matrix, --compare, --baseline, --diff-table, --marks, --what-if and
 * --select, in that order), and computes it.  Free v with view_free().
 */
void main_view_setup(struct view *v, const struct cli *c, struct session *s,
    struct analysis *an, size_t n, int64_t t0, int64_t t1, int w, int h);
/*
 * Writes the frame of v (c->width x c->height, coloured as c->color says)
 * on standard output.  Returns EXIT_OK, or EXIT_INPUT when it cannot be
 * written (said on standard error).
 */
int main_view_frame(const struct cli *c, struct view *v, const char *title);
/* --render: the frame the viewer would first draw for session s. */
int main_view_render(const struct cli *c, struct session *s, const char *title);

#endif
