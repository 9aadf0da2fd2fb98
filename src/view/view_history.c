#include "config.h"

#include "view/view_history.h"

#include <stdio.h>
#include <string.h>

/* Pushes p on the stack st of *n places, dropping the oldest when full. */
static void
push(struct view_place *st, int *n, const struct view_place *p)
{
	if (*n == VIEW_ZOOM_DEPTH) {
		memmove(&st[0], &st[1], (VIEW_ZOOM_DEPTH - 1) * sizeof st[0]);
		(*n)--;
	}
	st[(*n)++] = *p;
}

static int
same_selection(const struct view_place *a, const struct view *v)
{
	return a->rank == v->rank && a->sel == v->sel &&
	    (a->sel == SEL_NONE || (a->sel == SEL_GAP ?
	    a->sel_gap.start_ns == v->sel_gap.start_ns &&
	    a->sel_gap.dur_ns == v->sel_gap.dur_ns : a->sel_index == v->sel_index));
}

void
view_history_after(struct view *v, const struct view_place *before, int nzoom_before,
    int jump)
{
	if (v->nzoom != nzoom_before) {
		/*
		 * view_set_window() pushed the window left, with whatever was
		 * selected when it was called: the place is the one before.
		 */
		if (v->nzoom > 0)
			v->zooms[v->nzoom - 1] = *before;
		v->nahead = 0;
	} else if (jump && !same_selection(before, v)) {
		push(v->zooms, &v->nzoom, before);
		v->nahead = 0;
	}
}

int
view_history_jump(enum view_cmd cmd)
{
	switch (cmd) {
	case CMD_FOLLOW_LINK: case CMD_LAUNCH_OP: case CMD_CLICK:
	case CMD_ZOOM_SELECTED: case CMD_NEXT_STEP: case CMD_PREV_STEP:
	case CMD_NEXT_LAYER: case CMD_PREV_LAYER: case CMD_NEXT_OUTLIER:
	case CMD_SLOWEST_STEP: case CMD_NEXT_GAP: case CMD_PREV_GAP:
	case CMD_WORST_LAYER: case CMD_LONGEST_KERNEL: case CMD_WORST_SKEW:
	case CMD_NEXT_FINDING: case CMD_NEXT_MATCH: case CMD_PREV_MATCH:
	case CMD_ZOOM_MARKS:
		return 1;
	default:
		return 0;
	}
}

/* Shows place p (its window not pushed). */
static int
go(struct view *v, const struct view_place *p)
{
	int ch = view_set_window(v, p->start_ns, p->end_ns, 0);

	if (p->rank != v->rank && p->rank < view_nranks(v))
		ch |= VIEW_RECALC;
	if (p->rank < view_nranks(v))
		v->rank = p->rank;
	v->sel = p->sel;
	v->sel_index = p->sel_index;
	v->sel_gap = p->sel_gap;
	v->cursor = p->cursor < 0 ? 0 : p->cursor >= v->cols ? v->cols - 1 : p->cursor;
	return ch | VIEW_REPAINT;
}

int
view_history_back(struct view *v)
{
	struct view_place here;

	if (v->nzoom == 0) {
		snprintf(v->message, sizeof v->message, "nothing to go back to");
		return VIEW_NONE;
	}
	view_here(v, &here);
	push(v->ahead, &v->nahead, &here);
	return go(v, &v->zooms[--v->nzoom]);
}

int
view_history_forward(struct view *v)
{
	struct view_place here;

	if (v->nahead == 0) {
		snprintf(v->message, sizeof v->message, "nothing to go forward to (z goes back)");
		return VIEW_NONE;
	}
	view_here(v, &here);
	push(v->zooms, &v->nzoom, &here);
	return go(v, &v->ahead[--v->nahead]);
}
