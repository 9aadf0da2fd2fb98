/*
 * viewer — the view a command line asks for, and its frame as text; see
 * viewer.h.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/session.h"
#include "main/cli.h"
#include "main/viewer.h"
#include "render/grid.h"
#include "render/render.h"
#include "tui/style.h"
#include "view/command.h"
#include "view/view.h"
#include "view/view_nav.h"
#include "view/view_select.h"
#include "view/view_whatif.h"

/* Sets up the view for the command line's window, step and toggles. */
void
main_view_setup(struct view *v, const struct cli *c, struct session *s, struct analysis *an,
    size_t n_analyses, int64_t t0, int64_t t1, int w, int h)
{
	struct layout lay;

	view_init(v, an, n_analyses, t0, t1, 1);
	view_set_opts(v, &c->opts);
	v->show_cpu = c->cpu || c->python;
	v->show_python = c->python;
	v->show_counters = c->counters;
	v->panel = (enum view_panel)c->panel;
	v->lane_room = render_lane_room(h);
	if (c->matrix && v->xr != NULL)
		view_push_mode(v, VIEW_MODE_MATRIX);
	v->compare = c->compare && n_analyses >= 2;
	render_layout(&lay, v, w, h);
	view_resize(v, lay.time_cols > 0 ? lay.time_cols : 1);
	view_set_cursor(v, v->cols / 2);
	render_layout_free(&lay);
	if (c->opts.window == WINDOW_ABSOLUTE) {
		view_set_window(v, c->opts.start_ns, c->opts.end_ns, 0);
	} else if (c->opts.window == WINDOW_STEP) {
		for (size_t i = 0; i < n_analyses; i++) {
			if (!an[i].has_window)
				continue;
			v->rank = i;
			view_set_window(v, an[i].start_ns, an[i].end_ns, 0);
			for (size_t k = 0; k < an[i].nsteps; k++)
				if (an[i].steps[k].number == c->opts.step) {
					v->sel = SEL_STEP;
					v->sel_index = (long)k;
				}
			break;
		}
	}
	if (c->has_baseline && v->nan > 0) {
		const struct analysis *a = view_current(v);

		for (size_t k = 0; k < a->nsteps; k++)
			if (a->steps[k].number == c->baseline) {
				v->base_rank = v->rank;
				v->base_step = (long)k;
			}
		if (v->base_step < 0 && !c->quiet)
			fprintf(stderr, "gantty: warning: --baseline: no ProfilerStep#%lld\n",
			    (long long)c->baseline);
	}
	if (c->difftable)
		view_push_mode(v, VIEW_MODE_COMPARE_TABLE);
	if (c->marks != NULL && v->nan > 0) {
		/* checked by main() already, as --window is */
		struct analysis_opts mo = c->opts;

		if (session_window(s, "--marks", c->marks, &mo) == 0) {
			v->mark_ns[0] = mo.start_ns;
			v->mark_ns[1] = mo.end_ns;
			v->marks = 3;
		}
	}
	if (c->nwhatif > 0 && v->nan > 0)
		view_whatif_set(v, c->whatif, c->nwhatif, 1);
	view_recalc(v);
	if (c->select != NULL && v->nan > 0) {
		view_search(v, c->select);
		if (v->sel == SEL_EVENT)
			view_select_goto(v, v->rank, (uint32_t)v->sel_index);
		else if (!c->quiet)
			fprintf(stderr, "gantty: warning: --select: %s\n", v->message);
		view_recalc(v);
	}
}

/* Writes the frame of v (c->width x c->height) as text on stdout. */
int
main_view_frame(const struct cli *c, struct view *v, const char *title)
{
	struct layout lay;
	struct grid g;
	struct render_opts ro;
	int ansi = c->color == STYLE_COLOR_ALWAYS ||
	    (c->color == STYLE_COLOR_AUTO && isatty(STDOUT_FILENO) &&
	    (getenv("NO_COLOR") == NULL || *getenv("NO_COLOR") == '\0'));
	int rc;

	memset(&ro, 0, sizeof ro);
	ro.ascii = c->ascii;
	ro.mono = !ansi;
	ro.title = title;
	render_layout(&lay, v, c->width, c->height);
	grid_init(&g, c->width, c->height);
	render_frame(&g, &lay, v, &ro);
	rc = grid_write(&g, stdout, ansi);
	grid_free(&g);
	render_layout_free(&lay);
	if (rc < 0 || fflush(stdout) != 0) {
		perror("gantty: writing the frame");
		return EXIT_INPUT;
	}
	return EXIT_OK;
}

/* --render: the frame the viewer would draw, as text on stdout. */
int
main_view_render(const struct cli *c, struct session *s, const char *title)
{
	struct view v;
	int rc;

	main_view_setup(&v, c, s, s->an, s->n_analyses, s->origin_ns, s->last_ns, c->width,
	    c->height);
	rc = main_view_frame(c, &v, title);
	view_free(&v);
	return rc;
}
