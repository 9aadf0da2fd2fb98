/*
 * render_bands — the step band and the layer band under a device's GPU
 * lanes, and the counter lanes; see render_int.h.
 *
 * The bands are drawn from the steps' and layers' GPU extents (steps.h,
 * layers.h), so a kernel's step and layer are read straight under it: each
 * column shows the step, and the innermost layer, whose extent covers the
 * column's middle, its name written where the run is wide enough.  A
 * layer's cells are as dense as its exposed communication is a share of
 * its extent (light: hidden or none; full: all exposed) and coloured as
 * exposed when it has any of its own.
 *
 * The critical path band (P) draws the segments of the path of the step in
 * view (view_whatif.h), each in its part's colour and glyph (compute full,
 * comm dense, host and sync medium, idle the bubble's), named where wide
 * enough: a kernel or call by its name, a gap by its part.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/depgraph.h"
#include "analysis/layers.h"
#include "analysis/steps.h"
#include "model/trace.h"
#include "render/grid.h"
#include "render/render.h"
#include "render/render_int.h"
#include "view/view.h"
#include "view/view_lanes.h"
#include "view/view_whatif.h"

/* Writes label over run [c0, c1) of row y when it fits (one cell kept each side). */
static void
run_label(struct rctx *c, int y, int c0, int c1, enum role role, const char *label)
{
	int w = c1 - c0 - 2, n;

	if (w < 2)
		return;
	n = render_put_fit(c, c->x0 + c0 + 1, y, w, role, label);
	for (int i = 0; i < n; i++) {
		struct cell *cl = grid_at(c->g, c->x0 + c0 + 1 + i, y);

		if (cl != NULL)
			cl->reverse = role != ROLE_SELECTED;
	}
}

/*
 * Paints index i into at[] over the columns whose middle lies in [s, e):
 * where the column holds nothing yet, or (len >= 0) something longer than
 * len (lens[] keeps each column's).  O(columns painted).
 */
static void
paint(const struct rctx *c, long *at, int64_t *lens, long i, int64_t s,
    int64_t e, int64_t len)
{
	int col;

	if (e <= s || e <= c->col_ns[0] || s >= c->col_ns[c->ncols])
		return;
	col = render_col_of(c, s);
	for (; col < c->ncols; col++) {
		int64_t a = c->col_ns[col], b = c->col_ns[col + 1], mid = a + (b - a) / 2;

		if (b <= a || mid < s)
			continue;
		if (mid >= e)
			break;
		if (at[col] < 0 || (len >= 0 && len < lens[col])) {
			at[col] = i;
			lens[col] = len;
		}
	}
}

/* How a band draws the run of item i: its role, glyph and label. */
struct band_run {
	enum role role;
	uint32_t glyph;
	char label[96];
};

/* The columns of a band, each -1 (nothing) until painted; NULL if out of memory. */
static long *
band_cols(const struct rctx *c, int64_t **lens)
{
	long *at = malloc((size_t)c->ncols * sizeof *at);

	*lens = malloc((size_t)c->ncols * sizeof **lens);
	if (at == NULL || *lens == NULL) {
		free(at);
		free(*lens);
		return NULL;
	}
	for (int col = 0; col < c->ncols; col++)
		at[col] = -1;
	return at;
}

/* Draws the runs of at[] on row y, each as style says; frees at and lens. */
static void
band_runs(struct rctx *c, int y, const struct row_info *ri, long *at,
    int64_t *lens, void (*style)(const struct rctx *, const struct row_info *,
    long, struct band_run *))
{
	for (int col = 0; col < c->ncols; ) {
		long i = at[col];
		int end = col + 1;

		while (end < c->ncols && at[end] == i)
			end++;
		if (i >= 0) {
			struct band_run r;

			style(c, ri, i, &r);
			for (int k = col; k < end; k++)
				grid_put(c->g, c->x0 + k, y, r.glyph, r.role);
			run_label(c, y, col, end, r.role, r.label);
		}
		col = end;
	}
	free(at);
	free(lens);
}

/* A step: alternate shades, outliers marked, the selected one highlighted. */
static void
step_style(const struct rctx *c, const struct row_info *ri, long s,
    struct band_run *r)
{
	const struct view *v = c->v;
	const struct step *st = &v->an[ri->analysis].steps[s];
	int sel = v->sel == SEL_STEP && v->sel_index == s &&
	    (size_t)ri->analysis == v->rank;

	r->role = sel ? ROLE_SELECTED : st->outlier ? ROLE_OUTLIER : ROLE_BAND;
	r->glyph = c->gl->shade[(s & 1) ? 2 : 3];
	snprintf(r->label, sizeof r->label, "#%lld", (long long)st->number);
}

void
render_draw_step_band(struct rctx *c, int y, const struct row_info *ri)
{
	const struct analysis *an = &c->v->an[ri->analysis];
	int64_t *lens;
	long *at = band_cols(c, &lens);

	render_draw_label(c, y, ROLE_LABEL, " steps");
	if (at == NULL)
		return;
	/* steps do not overlap: the first that holds a column keeps it */
	for (size_t i = 0; i < an->nsteps; i++) {
		int64_t a, b;

		render_step_range(&an->steps[i], &a, &b);
		paint(c, at, lens, (long)i, a, b, -1);
	}
	band_runs(c, y, ri, at, lens, step_style);
}

/* A layer: as dense as its exposed share, exposed when some is its own. */
static void
layer_style(const struct rctx *c, const struct row_info *ri, long li,
    struct band_run *r)
{
	const struct view *v = c->v;
	const struct analysis *an = &v->an[ri->analysis];
	const struct layer *l = &an->layers[li];
	int sel = v->sel == SEL_LAYER && v->sel_index == li &&
	    (size_t)ri->analysis == v->rank;
	int64_t span = l->gpu_end_ns - l->gpu_start_ns;
	int lvl = span > 0 ? (int)((l->exposed_comm_ns * 4 + span - 1) / span) : 0;

	lvl = lvl < 1 ? 1 : lvl > 4 ? 4 : lvl;
	r->role = sel ? ROLE_SELECTED : l->own_exposed_comm_ns > 0 ? ROLE_EXPOSED :
	    ROLE_BAND;
	r->glyph = c->gl->shade[lvl];
	snprintf(r->label, sizeof r->label, "%s%s", trace_str(an->t, l->name),
	    l->phase == LAYER_FORWARD ? " fwd" :
	    l->phase == LAYER_BACKWARD ? " bwd" : "");
}

void
render_draw_layer_band(struct rctx *c, int y, const struct row_info *ri)
{
	const struct analysis *an = &c->v->an[ri->analysis];
	int64_t *lens;
	long *at = band_cols(c, &lens);

	render_draw_label(c, y, ROLE_LABEL, " layers");
	if (at == NULL)
		return;
	/* each layer paints its columns; the innermost (shortest) wins a column */
	for (size_t i = 0; i < an->nlayers; i++) {
		const struct layer *l = &an->layers[i];

		if (l->has_gpu)
			paint(c, at, lens, (long)i, l->gpu_start_ns, l->gpu_end_ns,
			    l->gpu_end_ns - l->gpu_start_ns);
	}
	band_runs(c, y, ri, at, lens, layer_style);
}

void
render_draw_counter_lane(struct rctx *c, int y, const struct row_info *ri)
{
	const struct view *v = c->v;
	const struct trace *t = v->an[ri->analysis].t;
	const struct track *tr = &t->tracks[ri->track];
	double peak = view_counter_peak(v, (size_t)ri->analysis, ri->track);
	char label[64];

	snprintf(label, sizeof label, " %s", tr->tid_str != 0 ?
	    trace_str(t, tr->tid_str) : trace_str(t, tr->name));
	render_draw_label(c, y, ROLE_LABEL, label);
	for (int col = 0; col < c->ncols; col++) {
		int64_t a = c->col_ns[col], b = c->col_ns[col + 1];
		double x;
		int lvl;

		if (b <= a || !view_counter_max(v, (size_t)ri->analysis, ri->track, a, b, &x))
			continue;
		if (peak <= 0 || x <= 0)
			continue;
		lvl = (int)(x / peak * c->gl->step_levels + 0.5);
		lvl = lvl < 1 ? 1 : lvl > c->gl->step_levels ? c->gl->step_levels : lvl;
		grid_put(c->g, c->x0 + col, y, c->gl->step[lvl - 1], ROLE_COUNTER);
	}
}

/* A segment of the critical path: its part's colour, its event's name. */
static void
path_style(const struct rctx *c, const struct row_info *ri, long i,
    struct band_run *r)
{
	const struct view *v = c->v;
	long s;
	const struct dg_path *path = view_whatif_path(v, &s);
	const struct dg_segment *sg = &path->seg[i];
	static const int shade[DG_PARTS] = {
		[DG_COMPUTE] = 4, [DG_COMM] = 3, [DG_HOST] = 2, [DG_SYNC_PART] = 2,
		[DG_IDLE] = 1,
	};

	(void)ri;
	r->role = render_path_role(sg->part);
	r->glyph = sg->part == DG_IDLE ? c->gl->idle : c->gl->shade[shade[sg->part]];
	if (sg->part == DG_COMPUTE || sg->part == DG_COMM || sg->part == DG_SYNC_PART)
		snprintf(r->label, sizeof r->label, "%s",
		    view_whatif_node_name(v, sg->node));
	else
		snprintf(r->label, sizeof r->label, "%s",
		    depgraph_part_name((enum dg_part)sg->part));
}

void
render_draw_path_band(struct rctx *c, int y, const struct row_info *ri)
{
	long s;
	const struct dg_path *path = view_whatif_path(c->v, &s);
	int64_t *lens;
	long *at;

	render_draw_label(c, y, ROLE_LABEL, " crit path");
	if (path == NULL || (at = band_cols(c, &lens)) == NULL)
		return;
	/* the longest segment around a column's middle keeps the column */
	for (size_t i = 0; i < path->nseg; i++)
		paint(c, at, lens, (long)i, path->seg[i].start_ns,
		    path->seg[i].start_ns + path->seg[i].dur_ns,
		    INT64_MAX - path->seg[i].dur_ns);
	band_runs(c, y, ri, at, lens, path_style);
}
