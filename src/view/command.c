/* command — the viewer's mode table and its entry points; see command.h. */
#include "config.h"

#include "view/command.h"

#include <stdio.h>

#include "view/view.h"
#include "view/view_compare.h"
#include "view/view_diag.h"
#include "view/view_history.h"
#include "view/view_lanes.h"
#include "view/view_nav.h"
#include "view/view_select.h"
#include "view/view_table.h"
#include "view/view_whatif.h"

struct view_mode_ops {
	const char *name;
	/* Runs cmd if the mode takes it over, else returns -1. */
	int (*key)(struct view *v, enum view_cmd cmd);
	void (*refresh)(struct view *v);
	void (*free)(struct view *v);
};

/* All lanes and the overview: Enter on a selected finding goes to its next range. */
static int
lanes_key(struct view *v, enum view_cmd cmd)
{
	if (cmd == CMD_ZOOM_SELECTED && v->sel == SEL_FINDING && v->nan > 0)
		return view_diag_zoom(v);
	return -1;
}

/* The matrix: Enter shows the current rank in full. */
static int
matrix_key(struct view *v, enum view_cmd cmd)
{
	if (cmd != CMD_ZOOM_SELECTED || v->xr == NULL)
		return -1;
	if (v->nan == 0) {
		v->open_rank = 1;
		return VIEW_QUIT;
	}
	view_reset_mode(v, VIEW_MODE_LANES);
	return VIEW_RECALC;
}

/* The diff table takes the keys that move in it. */
static int
table_key(struct view *v, enum view_cmd cmd)
{
	long page = v->page > 0 ? v->page : VIEW_PAGE_DEFAULT;

	switch (cmd) {
	case CMD_LANE_UP: return view_compare_move(v, -1);
	case CMD_LANE_DOWN: return view_compare_move(v, 1);
	case CMD_PAGE_UP: return view_compare_move(v, -page);
	case CMD_PAGE_DOWN: return view_compare_move(v, page);
	case CMD_ZOOM_SELECTED: return view_compare_enter(v);
	default: return -1;
	}
}

/* The steps or layers table takes the keys that move and sort in it. */
static int
vt_key(struct view *v, enum view_cmd cmd)
{
	long page = v->page > 0 ? v->page : VIEW_PAGE_DEFAULT;

	switch (cmd) {
	case CMD_LANE_UP: return view_table_move(v, -1);
	case CMD_LANE_DOWN: return view_table_move(v, 1);
	case CMD_PAGE_UP: return view_table_move(v, -page);
	case CMD_PAGE_DOWN: return view_table_move(v, page);
	case CMD_PAN_LEFT: return view_table_sort(v, -1);
	case CMD_PAN_RIGHT: return view_table_sort(v, 1);
	case CMD_ZOOM_SELECTED: return view_table_enter(v);
	default: return -1;
	}
}

static const struct view_mode_ops modes[VIEW_MODE_COUNT] = {
	[VIEW_MODE_LANES] = { "lanes", lanes_key, NULL, NULL },
	[VIEW_MODE_OVERVIEW] = { "overview", lanes_key, NULL, NULL },
	[VIEW_MODE_MATRIX] = { "matrix", matrix_key, NULL, NULL },
	[VIEW_MODE_COMPARE_TABLE] = { "diff table", table_key,
	    view_compare_refresh, view_compare_free },
	[VIEW_MODE_TABLE] = { "table", vt_key, view_table_refresh, view_table_free },
};

/* m: the matrix, or the lanes again (from the diff table too). */
static int
toggle_matrix(struct view *v)
{
	if (v->xr == NULL) {
		snprintf(v->message, sizeof v->message,
		    "one rank: no rank x step matrix");
		return VIEW_REPAINT;
	}
	if (v->nan == 0) {
		snprintf(v->message, sizeof v->message,
		    "reports only: Enter opens the current rank's trace");
		return VIEW_REPAINT;
	}
	if (view_mode_on(v, VIEW_MODE_MATRIX)) {
		view_reset_mode(v, view_base_mode(v));
	} else {
		if (v->mode == VIEW_MODE_COMPARE_TABLE)
			view_pop_mode(v);
		view_push_mode(v, VIEW_MODE_MATRIX);
	}
	v->lane_scroll = 0;
	return VIEW_REPAINT;
}

static int do_cmd(struct view *v, enum view_cmd cmd);

int
view_do(struct view *v, enum view_cmd cmd)
{
	struct view_place before;
	int nzoom = v->nzoom, ch;

	view_here(v, &before);
	ch = do_cmd(v, cmd);
	if (cmd != CMD_UNZOOM && cmd != CMD_FORWARD)
		view_history_after(v, &before, nzoom, view_history_jump(cmd));

	view_lanes_prepare(v);
	view_select_refresh(v);
	view_whatif_refresh(v);
	return ch;
}

static int
do_cmd(struct view *v, enum view_cmd cmd)
{
	const struct view_mode_ops *m = &modes[v->mode];
	int ch;

	v->message[0] = '\0';
	if (m->key != NULL && (ch = m->key(v, cmd)) >= 0)
		return ch;
	switch (cmd) {
	case CMD_TOGGLE_OVERVIEW:
		view_set_base_mode(v, view_base_mode(v) == VIEW_MODE_OVERVIEW ?
		    VIEW_MODE_LANES : VIEW_MODE_OVERVIEW);
		v->lane_scroll = 0;
		return VIEW_REPAINT;
	case CMD_TOGGLE_MATRIX:
		return toggle_matrix(v);
	case CMD_SORT_WAITED:
		if (v->xr == NULL) {
			snprintf(v->message, sizeof v->message,
			    "one rank: nobody waits for it");
			return VIEW_REPAINT;
		}
		v->sort_waited = !v->sort_waited;
		v->lane_scroll = 0;
		snprintf(v->message, sizeof v->message, "%s", v->sort_waited ?
		    "ranks by the time the others waited for them, the straggler first" :
		    "ranks in rank order");
		return VIEW_REPAINT;
	case CMD_NEXT_FINDING:
		ch = view_diag_next_finding(v);
		(void)view_whatif_eager(v);     /* the remedy quotes its gain */
		return ch;
	case CMD_CRITICAL_PATH:
		return view_whatif_toggle(v);
	case CMD_NEXT_WHATIF:
		return view_whatif_next(v);
	case CMD_TOGGLE_MEMORY:
		return view_diag_toggle_memory(v);
	case CMD_MARK_BASELINE:
		return view_compare_mark(v);
	case CMD_TOGGLE_DIFF:
		if (v->mode == VIEW_MODE_TABLE)
			view_pop_mode(v);
		return view_compare_toggle(v);
	case CMD_UNZOOM:
		return view_history_back(v);
	case CMD_FORWARD:
		return view_history_forward(v);
	case CMD_TABLE_STEPS:
		return view_table_toggle(v, VT_STEPS);
	case CMD_TABLE_LAYERS:
		return view_table_toggle(v, VT_LAYERS);
	default:
		if ((ch = view_select_do(v, cmd)) >= 0)
			return ch;
		if ((ch = view_nav_do(v, cmd)) >= 0)
			return ch;
		return view_do_common(v, cmd);
	}
}

void
view_recalc(struct view *v)
{
	size_t nf;

	view_lanes_prepare(v);
	view_select_refresh(v);
	view_whatif_refresh(v);
	view_measure(v);
	/* the current rank's findings, once: the panel lists them when it has room */
	if (v->nan > 0 && view_current(v)->device >= 0)
		(void)view_diag_findings(v, v->rank, &nf);
	if (modes[v->mode].refresh != NULL)
		modes[v->mode].refresh(v);
}

void
view_resize(struct view *v, int cols)
{
	int old = v->cols;

	v->cols = cols < 1 ? 1 : cols;
	v->cursor = (int)((long long)v->cursor * v->cols / old);
	if (v->cursor >= v->cols)
		v->cursor = v->cols - 1;
	view_set_window(v, v->start_ns, v->end_ns, 0);
	view_recalc(v);
}

void
view_free(struct view *v)
{
	if (v == NULL)
		return;
	for (int m = 0; m < VIEW_MODE_COUNT; m++)
		if (modes[m].free != NULL)
			modes[m].free(v);
	view_diag_free(v);
	view_whatif_free(v);
	view_nav_free(v);
	view_lanes_free(v);
	view_select_free(v);
	view_release(v);
}

const char *
view_mode_name(enum view_mode m)
{
	return modes[m].name;
}
