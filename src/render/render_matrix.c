/*
 * render_matrix — the rank x step matrix: its head, one row per
 * participant, its panel; see render_int.h.
 */
#include "config.h"

#include <stdio.h>

#include "analysis/crossrank.h"
#include "analysis/matrix.h"
#include "render/grid.h"
#include "render/render.h"
#include "render/render_int.h"
#include "view/view.h"

/* ---- the rank x step matrix ------------------------------------------- */

/* Cells of the matrix on screen: one per step, or groups of steps. */
static int
matrix_cols(const struct rctx *c)
{
	size_t n = c->v->mx->nsteps;

	return n < (size_t)c->ncols ? (int)n : c->ncols;
}

static void
part_label(const struct crossrank *x, size_t p, char *buf, size_t size)
{
	if (x->parts[p].device >= 0)
		snprintf(buf, size, "rank %lld/%d", (long long)x->parts[p].rank,
		    (int)x->parts[p].device);
	else
		snprintf(buf, size, "rank %lld", (long long)x->parts[p].rank);
}

/* Rows 1 and 2: which steps the columns are, and what the glyphs mean. */
void
render_draw_matrix_head(struct rctx *c)
{
	const struct crossrank *x = c->v->xr;
	const struct matrix *m = c->v->mx;
	int cols = matrix_cols(c);
	struct pen p = { c, c->x0, 1, c->g->w };
	static const int height[MATRIX_LEVELS] = { 1, 2, 4, 6, 8 };

	render_draw_label(c, 1, ROLE_LABEL, "rank x step");
	if (m->nsteps == 0) {
		render_pen_put(&p, ROLE_PANEL, "no ProfilerStep annotations on any rank");
		return;
	}
	render_pen_put(&p, ROLE_PANEL, "steps #%lld .. #%lld", (long long)x->steps[0].number,
	    (long long)x->steps[m->nsteps - 1].number);
	if ((size_t)cols < m->nsteps)
		render_pen_put(&p, ROLE_PANEL, ", %.1f steps a cell (the slowest shown)",
		    (double)m->nsteps / cols);
	render_pen_put(&p, ROLE_PANEL, "; %zu steps incomplete", x->steps_incomplete);
	render_draw_label(c, 2, ROLE_LABEL, "vs median");
	p.x = c->x0;
	p.y = 2;
	for (int l = 0; l < MATRIX_LEVELS; l++) {
		static const char *const what[MATRIX_LEVELS] = {
			"<=2%", "<=5%", "<=10%", "<=25%", ">25% ",
		};
		uint32_t ch = c->ascii ? (uint32_t)".:+#@"[l] :
		    c->gl->step[height[l] - 1];

		grid_put(c->g, p.x, 2, ch, l < 2 ? ROLE_BUSY : l < 3 ? ROLE_EXPOSED :
		    ROLE_BUBBLE);
		p.x += 1;
		render_pen_put(&p, ROLE_PANEL, " %s  ", what[l]);
	}
	grid_put(c->g, p.x, 2, c->gl->outlier, ROLE_OUTLIER);
	p.x++;
	render_pen_put(&p, ROLE_PANEL, " outlier of its rank  ");
	grid_put(c->g, p.x, 2, c->ascii ? '-' : c->gl->minor, ROLE_DEFAULT);
	p.x++;
	render_pen_put(&p, ROLE_PANEL, " missing  ");
	render_pen_put(&p, ROLE_OVERLAP, "cyan");
	render_pen_put(&p, ROLE_PANEL, ": slower because it waited for others");
}

void
render_draw_matrix_row(struct rctx *c, int y, const struct row_info *ri)
{
	static const int height[MATRIX_LEVELS] = { 1, 2, 4, 6, 8 };
	const struct crossrank *x = c->v->xr;
	const struct matrix *m = c->v->mx;
	size_t part = (size_t)ri->analysis;
	int cols = matrix_cols(c), cur = part == c->v->rank, waited;
	char label[64];
	struct pen p = { c, 0, y, c->g->w };

	if (part >= x->nparts)
		return;
	part_label(x, part, label, sizeof label);
	if (cur)
		grid_put(c->g, 0, y, c->gl->current, ROLE_LABEL);
	/* the straggler: ! before its label, in the bad colour */
	if ((int32_t)part == x->straggler) {
		grid_put(c->g, 1, y, '!', ROLE_BAD);
		render_put_fit(c, 2, y, LABEL_COLS - 2, ROLE_BAD, label);
	} else {
		render_put_fit(c, 1, y, LABEL_COLS - 1, cur ? ROLE_LABEL : ROLE_PANEL,
		    label);
	}
	/*
	 * A rank that waited for the others more than they waited for it is
	 * slower because of them: its slow cells are drawn apart (cyan), so
	 * that the colour of blame stays on who made them wait.
	 */
	waited = x->parts[part].wait_ns > x->parts[part].lost_ns;
	for (int k = 0; k < cols; k++) {
		int out, l = matrix_cell(m, part, k, cols, &out);
		uint32_t ch;
		enum role role;

		if (l == 0) {
			ch = c->ascii ? '-' : c->gl->minor;
			role = ROLE_DEFAULT;
		} else if (out) {
			ch = c->gl->outlier;
			role = ROLE_OUTLIER;
		} else {
			ch = c->ascii ? (uint32_t)".:+#@"[l - 1] :
			    c->gl->step[height[l - 1] - 1];
			role = l <= 2 ? ROLE_BUSY : waited ? ROLE_OVERLAP :
			    l == 3 ? ROLE_EXPOSED : ROLE_BUBBLE;
		}
		grid_put(c->g, c->x0 + k, y, ch, role);
		if (cur) {
			struct cell *cl = grid_at(c->g, c->x0 + k, y);

			if (cl != NULL)
				cl->reverse = 1;
		}
	}
	/* what the row adds up to, where there is room */
	p.x = c->x0 + cols + 2;
	if (p.x + 20 < c->g->w) {
		const struct crossrank_part *q = &x->parts[part];

		render_pen_put(&p, ROLE_PANEL, "outliers ");
		render_pen_put(&p, render_bad_if(m->noutliers[part] > 0), "%zu", m->noutliers[part]);
		render_pen_put(&p, ROLE_PANEL, "  last ");
		render_pen_put(&p, render_bad_if((int32_t)part == x->straggler), "%zu",
		    q->last_count);
		render_pen_put(&p, ROLE_PANEL, "  others waited ");
		render_pen_dur(&p, render_bad_if((int32_t)part == x->straggler), q->lost_ns);
	}
}

/* The panel of the matrix: the current participant against the others. */
void
render_draw_matrix_panel(struct rctx *c, int y, int rows)
{
	const struct crossrank *x = c->v->xr;
	const struct matrix *m = c->v->mx;
	size_t part = c->v->rank < x->nparts ? c->v->rank : 0;
	const struct crossrank_part *q;
	int64_t slow = -1, slow_ratio_num = 0, slow_ratio_den = 1;
	size_t slow_s = 0, worst = 0, have = 0;
	char label[64];
	int r = 0, w = c->g->w;
	struct pen p = { c, 1, y, w };

	if (x->nparts == 0)
		return;
	q = &x->parts[part];
	part_label(x, part, label, sizeof label);
	/* its slowest step against that step's median */
	for (size_t s = 0; s < m->nsteps; s++) {
		int64_t t = crossrank_step_ns(x, s, part);

		if (t < 0)
			continue;
		have++;
		if (m->median[s] > 0 && (slow < 0 ||
		    (double)t * (double)slow_ratio_den >
		    (double)slow_ratio_num * (double)m->median[s])) {
			slow = t;
			slow_s = s;
			slow_ratio_num = t;
			slow_ratio_den = m->median[s];
		}
		if (x->steps[s].spread_ns > x->steps[worst].spread_ns)
			worst = s;
	}
	render_pen_put(&p, ROLE_VALUE, "%s", label);
	render_pen_put(&p, ROLE_PANEL, ": %zu of %zu steps", have, m->nsteps);
	if (slow >= 0) {
		render_pen_put(&p, ROLE_PANEL, ", slowest vs the others #%lld: ",
		    (long long)x->steps[slow_s].number);
		render_pen_dur(&p, ROLE_VALUE, slow);
		render_pen_put(&p, ROLE_PANEL, " (median ");
		render_pen_dur(&p, ROLE_PANEL, m->median[slow_s]);
		render_pen_put(&p, ROLE_PANEL, ")");
	}
	render_pen_put(&p, ROLE_PANEL, ", outlier steps ");
	render_pen_put(&p, render_bad_if(m->noutliers[part] > 0), "%zu", m->noutliers[part]);
	if (++r >= rows)
		return;
	p.x = 1;
	p.y = y + r;
	render_pen_put(&p, ROLE_PANEL, "collectives %zu (%zu unmatched), last to arrive at ",
	    q->collectives, q->unmatched);
	render_pen_put(&p, render_bad_if((int32_t)part == x->straggler), "%zu", q->last_count);
	render_pen_put(&p, ROLE_PANEL, ": the others waited ");
	render_pen_dur(&p, render_bad_if((int32_t)part == x->straggler), q->lost_ns);
	render_pen_put(&p, ROLE_PANEL, " for it; it waited ");
	render_pen_dur(&p, ROLE_VALUE, q->wait_ns);
	if (++r >= rows)
		return;
	p.x = 1;
	p.y = y + r;
	if (x->straggler >= 0) {
		part_label(x, (size_t)x->straggler, label, sizeof label);
		render_pen_put(&p, ROLE_PANEL, "straggler ");
		render_pen_put(&p, ROLE_BAD, "%s", label);
		render_pen_put(&p, ROLE_PANEL, ": last at %zu of %zu collectives, the others waited ",
		    x->parts[x->straggler].last_count, x->ncolls);
		render_pen_dur(&p, ROLE_BAD, x->parts[x->straggler].lost_ns);
	} else {
		render_pen_put(&p, ROLE_PANEL, "no straggler: %zu collectives matched, none with a skew",
		    x->ncolls);
	}
	if (++r >= rows || m->nsteps == 0)
		return;
	p.x = 1;
	p.y = y + r;
	render_pen_put(&p, ROLE_PANEL, "widest step spread #%lld: ",
	    (long long)x->steps[worst].number);
	render_pen_dur(&p, ROLE_VALUE, x->steps[worst].spread_ns);
	if (x->steps[worst].slowest >= 0) {
		part_label(x, (size_t)x->steps[worst].slowest, label, sizeof label);
		render_pen_put(&p, ROLE_PANEL, ", slowest %s", label);
	}
}
