#include "config.h"

#include "render/render.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/compare_table.h"
#include "analysis/crossrank.h"
#include "analysis/layers.h"
#include "analysis/metrics.h"
#include "base/xalloc.h"
#include "model/itree.h"
#include "model/trace.h"
#include "render/grid.h"
#include "render/render_compare.h"
#include "render/render_diag.h"
#include "render/render_int.h"
#include "view/view.h"
#include "view/view_compare.h"
#include "view/view_diag.h"

/* ---- glyphs ------------------------------------------------------------ */

static const struct glyphs utf8_glyphs = {
	{ ' ', 0x2591, 0x2592, 0x2593, 0x2588 },        /* ░ ▒ ▓ █ */
	0x2591, 0x2580, 0x2593, 0x2588,                 /* ░ ▀ ▓ █ */
	{ 0x2581, 0x2582, 0x2583, 0x2584, 0x2585, 0x2586, 0x2587, 0x2588, 0 },
	8, '!',
	0x2500, 0x2502, 0x250c, 0x2510, 0x2514, 0x2518, /* ─ │ ┌ ┐ └ ┘ */
	0x258f, 0x00b7, 0x25bc, 0x25b6, 0x2026, 0x2591, /* ▏ · ▼ ▶ … ░ */
	0x25b8,                                         /* ▸ */
};

static const struct glyphs ascii_glyphs = {
	{ ' ', '.', ':', '+', '#' },
	'_', '!', '~', '=',
	{ '1', '2', '3', '4', '5', '6', '7', '8', '9' },
	9, '!',
	'-', '|', '+', '+', '+', '+',
	'|', '.', 'v', '>', '~', '*',
	'*',
};

/* ---- lanes ------------------------------------------------------------- */

/* The mode shown if it has lanes, else the first under it that has. */
static enum view_mode
lanes_mode(const struct view *v)
{
	enum view_mode m = v->mode;

	for (int i = v->nunder; !render_modes[m].lanes && i > 0; )
		m = v->under[--i];
	return m;
}

static int
panel_base_rows(int h)
{
	int r = (h - 12) / 2 + PANEL_MIN_ROWS;

	return r < PANEL_MIN_ROWS ? PANEL_MIN_ROWS : r > PANEL_ROWS ? PANEL_ROWS : r;
}

int
render_lane_room(int h)
{
	/* the panel keeps room for its window lines and the findings */
	int r = h - TOP_ROWS - 2 - PANEL_AUTO_ROWS;

	return h < RENDER_MIN_H || r < 0 ? 0 : r;
}

/* The diff table: every row between the title and the hint line. */
static void
table_layout(struct layout *lay, const struct view *v)
{
	size_t row, top;
	const struct compare_table *t = view_compare_table(v, &row, &top);

	lay->lanes_y = 1;
	lay->lanes_h = lay->h - 2;
	lay->nlanes = t != NULL ? (int)t->nrows : 0;
}

/* The lanes (or the matrix's rows) between the ruler and the panel. */
static void
lanes_layout(struct layout *lay, const struct view *v)
{
	struct row_info *lanes = NULL;
	int content, scroll, h = lay->h;

	lay->nlanes = (int)view_lanes(v, &lanes, 0);
	content = panel_base_rows(h);
	lay->lanes_y = TOP_ROWS;
	lay->lanes_h = h - TOP_ROWS - 2 - content;
	/* more ranks than rows: the overview packs two ranks a row */
	if (lanes_mode(v) == VIEW_MODE_OVERVIEW && lay->nlanes > lay->lanes_h) {
		free(lanes);
		lay->nlanes = (int)view_lanes(v, &lanes, 1);
		/* still more: groups of g ranks in each half of a row */
		if (lay->nlanes > lay->lanes_h && lay->lanes_h > 0) {
			size_t per = 2 * (size_t)lay->lanes_h;
			int g = (int)((v->nan + per - 1) / per);

			free(lanes);
			lay->nlanes = (int)view_lanes(v, &lanes, g < 2 ? 2 : g);
		}
	}
	/* few lanes: the panel follows them, htop-like, blank rows below */
	if (lay->nlanes < lay->lanes_h)
		lay->lanes_h = lay->nlanes;
	if (v->nan > 0 && v->mode != VIEW_MODE_MATRIX) {
		lay->rows[1].kind = ROW_STEPS;
		lay->rows[1].analysis = (int)v->rank;
	}
	scroll = render_first_lane(lay, v);
	for (int i = 0; i < lay->lanes_h && scroll + i < lay->nlanes; i++)
		lay->rows[lay->lanes_y + i] = lanes[scroll + i];
	free(lanes);
}

void
render_layout(struct layout *lay, const struct view *v, int w, int h)
{
	memset(lay, 0, sizeof *lay);
	lay->w = w;
	lay->h = h;
	lay->rows = xcalloc(h > 0 ? (size_t)h : 1, sizeof *lay->rows);
	for (int y = 0; y < h; y++) {
		lay->rows[y].kind = ROW_OTHER;
		lay->rows[y].analysis = -1;
		lay->rows[y].track = UINT32_MAX;
	}
	lay->time_x = RENDER_LABEL_W;
	lay->time_cols = w - RENDER_LABEL_W > 1 ? w - RENDER_LABEL_W : 1;
	if (w < RENDER_MIN_W || h < RENDER_MIN_H)
		return;
	render_modes[v->mode].layout(lay, v);
}

int
render_rank_lane(const struct view *v, size_t rank)
{
	struct row_info *lanes = NULL;
	size_t n = view_lanes(v, &lanes, 0);
	int at = 0;

	for (size_t i = 0; i < n; i++)
		if ((lanes[i].kind == ROW_RANK || lanes[i].kind == ROW_MATRIX) &&
		    lanes[i].analysis == (int)rank) {
			at = (int)i;
			break;
		}
	free(lanes);
	return at;
}

void
render_layout_free(struct layout *lay)
{
	if (lay == NULL)
		return;
	free(lay->rows);
	lay->rows = NULL;
}

/* ---- the frame --------------------------------------------------------- */

static void
selection_range(const struct view *v, int64_t *a, int64_t *b)
{
	const struct analysis *an;

	*a = *b = 0;
	if (v->nan == 0)
		return;
	an = view_current(v);
	switch (v->sel) {
	case SEL_STEP:
		if (v->sel_index >= 0 && (size_t)v->sel_index < an->nsteps)
			render_step_range(&an->steps[v->sel_index], a, b);
		break;
	case SEL_LAYER:
		if (v->sel_index >= 0 && (size_t)v->sel_index < an->nlayers) {
			const struct layer *l = &an->layers[v->sel_index];

			*a = l->has_gpu ? l->gpu_start_ns : l->cpu_start_ns;
			*b = l->has_gpu ? l->gpu_end_ns : l->cpu_end_ns;
		}
		break;
	case SEL_GAP:
		*a = v->sel_gap.start_ns;
		*b = v->sel_gap.start_ns + v->sel_gap.dur_ns;
		break;
	case SEL_EVENT:
		if (v->sel_index >= 0 && (size_t)v->sel_index < an->t->nevents) {
			const struct event *e = &an->t->events[v->sel_index];

			*a = e->ts_ns;
			*b = event_end(e) > e->ts_ns ? event_end(e) : e->ts_ns + 1;
		}
		break;
	case SEL_FINDING:
		view_diag_range(v, a, b, NULL);
		break;
	default:
		break;
	}
}

void
render_frame(struct grid *g, const struct layout *lay, const struct view *v,
    const struct render_opts *opts)
{
	static const struct render_opts none = { 0, 0, NULL };
	struct rctx c;

	if (opts == NULL)
		opts = &none;
	grid_clear(g);
	if (g->w < RENDER_MIN_W || g->h < RENDER_MIN_H || lay->lanes_y == 0 ||
	    lay->rows == NULL) {
		render_draw_too_small(g, opts->ascii);
		return;
	}
	memset(&c, 0, sizeof c);
	c.g = g;
	c.lay = lay;
	c.v = v;
	c.ascii = opts->ascii;
	c.mono = opts->mono;
	c.gl = opts->ascii ? &ascii_glyphs : &utf8_glyphs;
	c.x0 = lay->time_x;
	c.ncols = v->cols < lay->time_cols ? v->cols : lay->time_cols;
	if (c.ncols < 1)
		c.ncols = 1;
	c.col_ns = xcalloc((size_t)c.ncols + 1, sizeof *c.col_ns);
	c.ev_mid = xcalloc((size_t)c.ncols, sizeof *c.ev_mid);
	c.cache = xcalloc((size_t)c.ncols, sizeof *c.cache);
	c.cache_track = UINT32_MAX;
	for (int col = 0; col <= c.ncols; col++)
		c.col_ns[col] = view_col_ns(v, col);
	selection_range(v, &c.sel_start, &c.sel_end);

	render_draw_title(&c, opts);
	render_modes[v->mode].draw(&c);
	render_draw_hint(&c, g->h - 1);
	if (v->help)
		render_draw_help(&c);
	free(c.col_ns);
	free(c.ev_mid);
	free(c.cache);
	free(c.buf);
}

/* The lane rows laid out, then the panel under them. */
static void
draw_lane_area(struct rctx *c)
{
	const struct layout *lay = c->lay;
	const struct view *v = c->v;
	int panel_y, panel_rows;

	for (int i = 0; i < lay->lanes_h; i++) {
		int y = lay->lanes_y + i;
		const struct row_info *ri = &lay->rows[y];

		if (ri->kind == ROW_MATRIX) {
			render_draw_matrix_row(c, y, ri);
			continue;
		}
		if (ri->analysis < 0 || (size_t)ri->analysis >= v->nan)
			continue;
		switch (ri->kind) {
		case ROW_RANK:
			render_draw_rank_header(c, y, ri);
			break;
		case ROW_GPU:
			render_draw_gpu_lane(c, y, ri);
			break;
		case ROW_BASELINE:
			render_draw_baseline_lane(c, y, ri);
			break;
		case ROW_BUBBLE:
			render_draw_bubble_lane(c, y, ri);
			break;
		case ROW_CPU:
			render_draw_cpu_lane(c, y, ri);
			break;
		case ROW_ANNOT:
			render_draw_annot_lane(c, y, ri);
			break;
		case ROW_STEP_BAND:
			render_draw_step_band(c, y, ri);
			break;
		case ROW_LAYER_BAND:
			render_draw_layer_band(c, y, ri);
			break;
		case ROW_COUNTER:
			render_draw_counter_lane(c, y, ri);
			break;
		case ROW_PATH:
			render_draw_path_band(c, y, ri);
			break;
		case ROW_MEMORY:
			render_diag_memory_lane(c->g, y, RENDER_LABEL_W, c->x0, c->ncols, v,
			    (size_t)ri->analysis, c->ascii);
			break;
		default:
			break;
		}
		if (v->focus.kind == (int)ri->kind && v->focus.analysis == ri->analysis &&
		    v->focus.track == ri->track && v->focus.depth == ri->depth &&
		    v->mode == VIEW_MODE_LANES)
			/* the lane the keyboard is on (Up / Down) */
			grid_put(c->g, 0, y, c->gl->focus, ROLE_SELECTED);
	}
	panel_y = lay->lanes_y + lay->lanes_h;
	panel_rows = c->g->h - 1 - panel_y - 1;
	if (panel_rows > PANEL_MAX_ROWS)
		panel_rows = PANEL_MAX_ROWS;
	render_draw_panel(c, panel_y, panel_rows);
}

/* All lanes or the overview: the step strip and the ruler over them. */
static void
draw_lanes_mode(struct rctx *c)
{
	render_draw_steps(c);
	render_draw_ruler(c);
	draw_lane_area(c);
}

/* The matrix: its head over the participants' rows. */
static void
draw_matrix_mode(struct rctx *c)
{
	render_draw_matrix_head(c);
	draw_lane_area(c);
}

/* The diff table fills the area. */
static void
draw_table_mode(struct rctx *c)
{
	render_compare(c->g, 1, c->g->h - 2, c->v, c->ascii);
}

/* The steps or layers table fills the area. */
static void
draw_vtable_mode(struct rctx *c)
{
	render_draw_table(c, 1, c->g->h - 2);
}

const struct render_mode render_modes[VIEW_MODE_COUNT] = {
	[VIEW_MODE_LANES] = { 1, lanes_layout, draw_lanes_mode, NULL },
	[VIEW_MODE_OVERVIEW] = { 1, lanes_layout, draw_lanes_mode, NULL },
	[VIEW_MODE_MATRIX] = { 1, lanes_layout, draw_matrix_mode, render_matrix_hint },
	[VIEW_MODE_COMPARE_TABLE] = { 0, table_layout, draw_table_mode, render_table_hint },
	[VIEW_MODE_TABLE] = { 0, table_layout, draw_vtable_mode, render_vtable_hint },
};

uint32_t
render_event_at(const struct layout *lay, const struct view *v, int x, int y,
    int *a)
{
	const struct row_info *ri;
	const struct trace *t;
	const struct track *tr;
	uint32_t *buf = NULL, best = EV_NONE;
	size_t len = 0, cap = 0, n;
	int64_t s, e, bestdur = -1;
	int col, ncols;

	if (a != NULL)
		*a = -1;
	if (y < 0 || y >= lay->h || lay->rows == NULL)
		return EV_NONE;
	ri = &lay->rows[y];
	if ((ri->kind != ROW_GPU && ri->kind != ROW_CPU && ri->kind != ROW_ANNOT) ||
	    ri->analysis < 0 ||
	    (size_t)ri->analysis >= v->nan)
		return EV_NONE;
	ncols = v->cols < lay->time_cols ? v->cols : lay->time_cols;
	col = x - lay->time_x;
	if (col < 0 || col >= ncols)
		return EV_NONE;
	t = v->an[ri->analysis].t;
	tr = &t->tracks[ri->track];
	s = view_col_ns(v, col);
	e = view_col_ns(v, col + 1);
	if (tr->count == 0 || e <= s)
		return EV_NONE;
	n = itree_overlap(&tr->index, &t->events[tr->first], s, e, &buf, &len, &cap);
	for (size_t i = 0; i < n; i++) {
		const struct event *ev = &t->events[tr->first + buf[i]];

		if (!view_row_has(v, ri, tr->first + buf[i]))
			continue;
		if (ev->dur_ns > bestdur) {
			bestdur = ev->dur_ns;
			best = tr->first + buf[i];
		}
	}
	free(buf);
	if (best != EV_NONE && a != NULL)
		*a = ri->analysis;
	return best;
}
