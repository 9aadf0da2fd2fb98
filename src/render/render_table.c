/*
 * render_table — the steps and layers tables (view_table.h) on screen.
 *
 * The first row says what the table holds, the column it is sorted by and
 * which rows are shown; the second names the columns, the sorted one
 * marked; below, one row per step or layer, scrolled so that the cursor row
 * (reversed) stays in view.  The lanes' selected step or layer is marked at
 * the left edge.  The first column is the step ("#14", "<<" when it is an
 * outlier) or the layer ("name bwd"), cut from the middle when narrow; the
 * numbers take NUM_W columns each, as many as fit, in the table's order.
 * O(rows) per frame.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/layers.h"
#include "analysis/steps.h"
#include "base/units.h"
#include "model/trace.h"
#include "render/grid.h"
#include "render/render_int.h"
#include "view/view.h"
#include "view/view_table.h"

#define NUM_W 10        /* a number column: a space and 9 right-aligned */
#define NAME_MIN 16     /* the first column at its narrowest */

/* Writes s right-aligned in [x, x + w). */
static void
put_right(struct rctx *c, int x, int y, int w, enum role role, const char *s)
{
	int n = render_text_cols(s);

	if (n > w)
		n = w;
	render_put_text(c, x + w - n, y, n, role, s);
}

/* The columns shown at width w: the numbers that fit after NAME_MIN. */
static int
plan(const struct vt_table *t, int w, enum vt_col *cols)
{
	int n = 0, room = (w - NAME_MIN) / NUM_W;

	for (int k = VT_TIME; k < VT_NCOLS && n < room; k++)
		if (view_table_has_col(t->kind, (enum vt_col)k))
			cols[n++] = (enum vt_col)k;
	return n;
}

static void
heading(struct rctx *c, int y, const struct vt_table *t, const enum vt_col *cols,
    int n, int name_w)
{
	char s[32];
	int x = name_w;

	snprintf(s, sizeof s, "%s%s", t->kind == VT_STEPS ? "step" : "layer",
	    t->sort == VT_NAME ? (c->ascii ? " v" : " \xe2\x86\x93") : "");
	render_put_text(c, 1, y, name_w - 1, t->sort == VT_NAME ? ROLE_VALUE :
	    ROLE_LABEL, s);
	for (int i = 0; i < n; i++, x += NUM_W) {
		snprintf(s, sizeof s, "%s%s", view_table_col_name(cols[i]),
		    t->sort == cols[i] ? (c->ascii ? " v" : "\xe2\x86\x93") : "");
		put_right(c, x + 1, y, NUM_W - 1, t->sort == cols[i] ? ROLE_VALUE :
		    ROLE_LABEL, s);
	}
}

static void
row_text(const struct analysis *an, const struct vt_table *t,
    const struct vt_row *r, char *buf, size_t n)
{
	if (t->kind == VT_STEPS) {
		const struct step *s = &an->steps[r->index];

		snprintf(buf, n, "#%lld%s", (long long)s->number,
		    s->outlier ? "  << outlier" : s->incomplete ? "  (cut short)" : "");
	} else {
		const struct layer *l = &an->layers[r->index];

		snprintf(buf, n, "%s %s", trace_str(an->t, l->name),
		    l->phase == LAYER_FORWARD ? "fwd" :
		    l->phase == LAYER_BACKWARD ? "bwd" : "span");
	}
}

static void
draw_row(struct rctx *c, int y, const struct vt_table *t, size_t i,
    const enum vt_col *cols, int n, int name_w)
{
	const struct view *v = c->v;
	const struct analysis *an = &v->an[t->rank];
	const struct vt_row *r = &t->rows[i];
	char s[512];
	int x = name_w;

	row_text(an, t, r, s, sizeof s);
	render_put_fit(c, 1, y, name_w - 1, ROLE_PANEL, s);
	for (int k = 0; k < n; k++, x += NUM_W) {
		enum vt_col col = cols[k];
		enum role role = ROLE_PANEL;

		if (col == VT_BUSBW) {
			if (r->busbw_gbps < 0)
				snprintf(s, sizeof s, "-");
			else
				snprintf(s, sizeof s, "%.1f GB/s", r->busbw_gbps);
		} else {
			units_format(s, sizeof s, r->ns[col]);
			if ((col == VT_EXPOSED || col == VT_OWN) && r->ns[col] > 0)
				role = ROLE_BAD;
		}
		put_right(c, x + 1, y, NUM_W - 1, role, s);
	}
	/* the lanes' selection is this row */
	if (v->rank == t->rank && ((t->kind == VT_STEPS && v->sel == SEL_STEP) ||
	    (t->kind == VT_LAYERS && v->sel == SEL_LAYER)) && v->sel_index == r->index)
		grid_put(c->g, 0, y, c->gl->focus, ROLE_SELECTED);
}

void
render_draw_table(struct rctx *c, int y, int rows)
{
	const struct vt_table *t = view_table_get(c->v);
	enum vt_col cols[VT_NCOLS];
	size_t top, vis;
	char title[256], pos[64];
	int w = c->g->w, n, name_w;

	if (rows <= 0)
		return;
	if (t == NULL || c->v->nan == 0 || t->rank >= c->v->nan) {
		render_put_fit(c, 1, y, w - 1, ROLE_PANEL, "no table: T the steps, L the layers");
		return;
	}
	n = plan(t, w, cols);
	name_w = w - n * NUM_W;
	vis = rows > 2 ? (size_t)(rows - 2) : 0;
	top = render_scroll_top(t->row, t->top, vis, t->n);
	pos[0] = '\0';
	if (t->n > vis)
		snprintf(pos, sizeof pos, " rows %zu-%zu of %zu", top + 1,
		    top + vis < t->n ? top + vis : t->n, t->n);
	snprintf(title, sizeof title, "%s, by %s", t->what,
	    t->sort == VT_NAME ? (t->kind == VT_STEPS ? "step number" : "trace order") :
	    view_table_col_name(t->sort));
	render_put_fit(c, 1, y, w - 1 - (int)strlen(pos), ROLE_VALUE, title);
	put_right(c, 0, y, w, ROLE_RULER, pos);
	if (rows < 2)
		return;
	heading(c, y + 1, t, cols, n, name_w);
	for (size_t i = 0; i < vis && top + i < t->n; i++) {
		int yy = y + 2 + (int)i;

		draw_row(c, yy, t, top + i, cols, n, name_w);
		if (top + i == t->row)
			grid_reverse(c->g, 0, w, yy);
	}
}
