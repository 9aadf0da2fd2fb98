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
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/layers.h"
#include "analysis/steps.h"
#include "model/trace.h"
#include "render/grid.h"
#include "render/render.h"
#include "render/render_int.h"
#include "view/view.h"
#include "view/view_lanes.h"

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

/* The index of the step of an whose GPU extent holds mid, or -1. */
static long
step_at(const struct analysis *an, int64_t mid)
{
	for (size_t i = 0; i < an->nsteps; i++) {
		int64_t a, b;

		render_step_range(&an->steps[i], &a, &b);
		if (a <= mid && mid < b)
			return (long)i;
	}
	return -1;
}

void
render_draw_step_band(struct rctx *c, int y, const struct row_info *ri)
{
	const struct view *v = c->v;
	const struct analysis *an = &v->an[ri->analysis];
	long *at = calloc((size_t)c->ncols, sizeof *at);

	render_draw_label(c, y, ROLE_LABEL, " steps");
	if (at == NULL)
		return;
	for (int col = 0; col < c->ncols; col++) {
		int64_t a = c->col_ns[col], b = c->col_ns[col + 1];

		at[col] = b > a ? step_at(an, a + (b - a) / 2) : -1;
	}
	for (int col = 0; col < c->ncols; ) {
		long s = at[col];
		int end = col + 1;

		while (end < c->ncols && at[end] == s)
			end++;
		if (s >= 0) {
			const struct step *st = &an->steps[s];
			int sel = v->sel == SEL_STEP && v->sel_index == s &&
			    (size_t)ri->analysis == v->rank;
			enum role role = sel ? ROLE_SELECTED : st->outlier ? ROLE_OUTLIER :
			    ROLE_BAND;
			char label[32];

			for (int k = col; k < end; k++)
				grid_put(c->g, c->x0 + k, y,
				    c->gl->shade[(s & 1) ? 2 : 3], role);
			snprintf(label, sizeof label, "#%lld", (long long)st->number);
			run_label(c, y, col, end, role, label);
		}
		col = end;
	}
	free(at);
}

/* The index of the innermost (shortest) layer of an with a GPU extent holding mid, or -1. */
static long
layer_at(const struct analysis *an, const long *in, size_t nin, int64_t mid)
{
	long best = -1;
	int64_t bd = 0;

	for (size_t k = 0; k < nin; k++) {
		const struct layer *l = &an->layers[in[k]];
		int64_t d = l->gpu_end_ns - l->gpu_start_ns;

		if (l->gpu_start_ns <= mid && mid < l->gpu_end_ns && (best < 0 || d < bd)) {
			best = in[k];
			bd = d;
		}
	}
	return best;
}

void
render_draw_layer_band(struct rctx *c, int y, const struct row_info *ri)
{
	const struct view *v = c->v;
	const struct analysis *an = &v->an[ri->analysis];
	long *at = calloc((size_t)c->ncols, sizeof *at);
	long *in = calloc(an->nlayers ? an->nlayers : 1, sizeof *in);
	size_t nin = 0;

	render_draw_label(c, y, ROLE_LABEL, " layers");
	if (at == NULL || in == NULL) {
		free(at);
		free(in);
		return;
	}
	/* the layers in the window, once: each column looks among them */
	for (size_t i = 0; i < an->nlayers; i++) {
		const struct layer *l = &an->layers[i];

		if (l->has_gpu && l->gpu_end_ns > v->start_ns && l->gpu_start_ns < v->end_ns)
			in[nin++] = (long)i;
	}
	for (int col = 0; col < c->ncols; col++) {
		int64_t a = c->col_ns[col], b = c->col_ns[col + 1];

		at[col] = b > a && nin > 0 ? layer_at(an, in, nin, a + (b - a) / 2) : -1;
	}
	for (int col = 0; col < c->ncols; ) {
		long li = at[col];
		int end = col + 1;

		while (end < c->ncols && at[end] == li)
			end++;
		if (li >= 0) {
			const struct layer *l = &an->layers[li];
			int sel = v->sel == SEL_LAYER && v->sel_index == li &&
			    (size_t)ri->analysis == v->rank;
			int64_t span = l->gpu_end_ns - l->gpu_start_ns;
			int lvl = span > 0 ? (int)((l->exposed_comm_ns * 4 + span - 1) / span) : 0;
			enum role role = sel ? ROLE_SELECTED :
			    l->own_exposed_comm_ns > 0 ? ROLE_EXPOSED : ROLE_BAND;
			char label[96];

			lvl = lvl < 1 ? 1 : lvl > 4 ? 4 : lvl;
			for (int k = col; k < end; k++)
				grid_put(c->g, c->x0 + k, y, c->gl->shade[lvl], role);
			snprintf(label, sizeof label, "%s%s", trace_str(an->t, l->name),
			    l->phase == LAYER_FORWARD ? " fwd" :
			    l->phase == LAYER_BACKWARD ? " bwd" : "");
			run_label(c, y, col, end, role, label);
		}
		col = end;
	}
	free(at);
	free(in);
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
