/* render_compare — the diff table on screen; see render_compare.h. */
#include "config.h"

#include "render/render_compare.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "analysis/compare_table.h"
#include "render/grid.h"
#include "render/render_int.h"
#include "analysis/layers.h"
#include "base/elide.h"
#include "base/units.h"
#include "view/view.h"
#include "view/view_compare.h"

enum metric { M_TIME, M_EXPOSED, M_OWN, M_COMPUTE, M_COMM, M_IDLE, M_COUNT };

static const char *const metric_name[M_COUNT] = {
	"time", "exposed", "own exp", "compute", "comm", "idle"
};

static int64_t
metric_of(const struct compare_metrics *m, enum metric k)
{
	switch (k) {
	case M_TIME: return m->time_ns;
	case M_EXPOSED: return m->exposed_comm_ns;
	case M_OWN: return m->own_exposed_comm_ns;
	case M_COMPUTE: return m->compute_ns;
	case M_COMM: return m->comm_ns;
	default: return m->idle_ns;
	}
}

/* The columns of a section at width w: which metrics, each full or not. */
struct cols {
	enum metric m[M_COUNT];
	int full[M_COUNT];
	int n, label_w;
};

static void
plan(struct cols *c, int w, int layers)
{
	int avail, k, extra;

	memset(c, 0, sizeof *c);
	for (int i = 0; i < M_COUNT; i++)
		if (layers || i != M_OWN)
			c->m[c->n++] = (enum metric)i;
	c->label_w = RENDER_DT_LABEL_W < w ? RENDER_DT_LABEL_W : w;
	avail = w - c->label_w;
	k = avail / RENDER_DT_DELTA_W;
	c->n = k < c->n ? (k < 0 ? 0 : k) : c->n;
	extra = avail - c->n * RENDER_DT_DELTA_W;
	for (int i = 0; i < c->n && extra >= RENDER_DT_FULL_W - RENDER_DT_DELTA_W; i++) {
		c->full[i] = 1;
		extra -= RENDER_DT_FULL_W - RENDER_DT_DELTA_W;
	}
	/* everything full: the label takes what is left, up to twice its width */
	if (c->n > 0 && c->full[c->n - 1]) {
		int grow = extra < RENDER_DT_LABEL_W ? extra : RENDER_DT_LABEL_W;

		c->label_w += grow;
	}
}

/* The role of a change: growth of a cost is bad, shrinking it good. */
static enum role
delta_role(enum metric k, int64_t d)
{
	if (d == 0)
		return ROLE_PANEL;
	if (k == M_COMPUTE || k == M_COMM)
		return ROLE_VALUE;
	return d > 0 ? ROLE_BAD : ROLE_BUSY;
}

/* The columns of s: its code points (gantty's texts are single-width). */
static int
cols_of(const char *s)
{
	int n = 0;

	for (; *s != '\0'; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* Writes s right-aligned in [x, x + w). */
static void
right(struct grid *g, int x, int y, int w, enum role role, int ascii,
    const char *s)
{
	int n = cols_of(s);

	if (n > w)
		n = w;
	grid_print(g, x + w - n, y, n, role, ascii, s);
}

/* Writes s in [x, x + w), cut with a marker when longer. */
/*
 * Writes s in [x, x + w): too long, the middle gives way (elide.h), so
 * that names which differ only at the end (template arguments, a suffix)
 * stay apart, and the characters at keeps[0, nkeeps) stay in view.
 */
static void
fit_keep(struct grid *g, int x, int y, int w, enum role role, int ascii,
    const char *s, const size_t *keeps, size_t nkeeps)
{
	struct elide_cut c;
	char part[4096];
	int x1 = x + w;

	if (w <= 0)
		return;
	if (!elide_plan(s, (size_t)w, 1, keeps, nkeeps, &c)) {
		grid_print(g, x, y, w, role, ascii, s);
		return;
	}
	for (size_t i = 0; i < c.nparts; i++) {
		size_t n = c.part[i].to - c.part[i].from;

		if (i > 0 && x < x1)
			grid_put(g, x++, y, ascii ? '~' : 0x2026u, role);
		if (n >= sizeof part)
			n = sizeof part - 1;
		memcpy(part, s + c.part[i].from, n);
		part[n] = '\0';
		x += grid_print(g, x, y, x1 - x, role, ascii, part);
	}
}

static void
fit(struct grid *g, int x, int y, int w, enum role role, int ascii, const char *s)
{
	fit_keep(g, x, y, w, role, ascii, s, NULL, 0);
}

static void
metrics_row(struct grid *g, int y, const struct cols *c,
    const struct compare_metrics *a, const struct compare_metrics *b, int ascii)
{
	int x = c->label_w;
	char s[32];

	for (int i = 0; i < c->n; i++) {
		enum metric k = c->m[i];
		int64_t vb = metric_of(b, k), d = vb - metric_of(a, k);

		if (c->full[i]) {
			right(g, x + 1, y, 8, ROLE_PANEL, ascii, units_format(s, sizeof s, vb));
			x += 9;
		}
		right(g, x + 1, y, 9, delta_role(k, d), ascii,
		    units_format_signed(s, sizeof s, d));
		x += 10;
	}
}

static void
heading_row(struct grid *g, int y, const struct cols *c, const char *title,
    int ascii)
{
	int x = c->label_w;
	char s[32];

	snprintf(s, sizeof s, "%s", c->n > 0 && !c->full[0] ? ", B-A" : "");
	fit(g, 0, y, c->label_w - (int)strlen(s), ROLE_LABEL, ascii, title);
	grid_print(g, cols_of(title) < c->label_w - (int)strlen(s) ? cols_of(title) :
	    c->label_w - (int)strlen(s), y, -1, ROLE_LABEL, ascii, s);
	for (int i = 0; i < c->n; i++) {
		if (c->full[i]) {
			right(g, x + 1, y, 8, ROLE_LABEL, ascii, metric_name[c->m[i]]);
			x += 9;
			right(g, x + 1, y, 9, ROLE_LABEL, ascii, "B-A");
		} else {
			snprintf(s, sizeof s, "%s B-A", metric_name[c->m[i]]);
			right(g, x + 1, y, 9, ROLE_LABEL, ascii, strlen(s) <= 9 ? s :
			    metric_name[c->m[i]]);
		}
		x += 10;
	}
}

static void
number(char *buf, size_t n, int has, int64_t v)
{
	if (has && v >= 0)
		snprintf(buf, n, "#%" PRId64, v);
	else
		snprintf(buf, n, "-");
}

/*
 * Kernel k's name in [x, x + w): without void, at::native:: and the
 * parameters, then the middle gives way, kept apart from the names next to
 * it in name order (elide_keeps()).
 */
static void
kernel_name(struct grid *g, int x, int y, int w, const struct compare *d,
    const struct compare_kernel *k, int ascii)
{
	size_t near[COMPARE_NEIGHBOURS], keeps[ELIDE_PARTS], n, nk;
	char name[4096], others[COMPARE_NEIGHBOURS][4096];
	const char *o[COMPARE_NEIGHBOURS];

	if (w <= 0)
		return;
	render_medium_kernel_name(compare_str(d, k->name), name, sizeof name);
	n = compare_kernel_neighbours(d, (size_t)(k - d->kernels), near, COMPARE_NEIGHBOURS);
	for (size_t j = 0; j < n; j++)
		o[j] = render_medium_kernel_name(compare_str(d, d->kernels[near[j]].name),
		    others[j], sizeof others[j]);
	nk = elide_keeps(name, o, n, (size_t)w, 1, keeps, ELIDE_PARTS);
	fit_keep(g, x, y, w, ROLE_PANEL, ascii, name, keeps, nk);
}

static void
kernel_row(struct grid *g, int y, int w, const struct compare *d,
    const struct compare_kernel *k, int head, int ascii)
{
	int full = w >= 42 + 16, rw = full ? 42 : 19, x = w - rw;
	char s[48], t[32];

	if (x < 0)
		return;
	if (head) {
		fit(g, 0, y, x, ROLE_LABEL, ascii, "kernels, by |change|");
		if (full) {
			right(g, x + 1, y, 13, ROLE_LABEL, ascii, "count A->B");
			right(g, x + 15, y, 8, ROLE_LABEL, ascii, "time A");
		}
		right(g, w - 19 + 1, y, 8, ROLE_LABEL, ascii, "time B");
		right(g, w - 10 + 1, y, 9, ROLE_LABEL, ascii, "B-A");
		return;
	}
	kernel_name(g, 1, y, x - 1, d, k, ascii);
	if (full) {
		snprintf(s, sizeof s, "%" PRIu64 "->%" PRIu64, k->count_a, k->count_b);
		right(g, x + 1, y, 13, k->count_a != k->count_b ? ROLE_VALUE :
		    ROLE_PANEL, ascii, s);
		right(g, x + 15, y, 8, ROLE_PANEL, ascii,
		    units_format(t, sizeof t, k->total_a_ns));
	}
	right(g, w - 19 + 1, y, 8, ROLE_PANEL, ascii,
	    units_format(t, sizeof t, k->total_b_ns));
	right(g, w - 10 + 1, y, 9, delta_role(M_TIME, k->total_b_ns - k->total_a_ns),
	    ascii, units_format_signed(s, sizeof s, k->total_b_ns - k->total_a_ns));
}

static void
draw_row(struct grid *g, int y, int w, const struct compare_table *t, size_t i,
    int ascii)
{
	const struct compare_table_row *r = &t->rows[i];
	const struct compare *d = &t->d;
	struct cols c;
	char label[300], a[24], b[24];

	switch (r->kind) {
	case CT_HEAD_STEPS:
		plan(&c, w, 0);
		snprintf(label, sizeof label, "steps (%zu): A -> B", d->nsteps);
		heading_row(g, y, &c, label, ascii);
		break;
	case CT_HEAD_LAYERS:
		plan(&c, w, 1);
		snprintf(label, sizeof label, "layers (%zu)", d->nlayers);
		heading_row(g, y, &c, label, ascii);
		break;
	case CT_HEAD_KERNELS:
		kernel_row(g, y, w, d, NULL, 1, ascii);
		break;
	case CT_STEP: {
		const struct compare_step *s = &d->steps[r->index];

		plan(&c, w, 0);
		number(a, sizeof a, s->has_a, s->number_a);
		number(b, sizeof b, s->has_b, s->number_b);
		snprintf(label, sizeof label, "%s -> %s", a, b);
		fit(g, 1, y, c.label_w - 1, ROLE_PANEL, ascii, label);
		metrics_row(g, y, &c, &s->a, &s->b, ascii);
		break;
	}
	case CT_LAYER: {
		const struct compare_layer *l = &d->layers[r->index];

		plan(&c, w, 1);
		if (l->count_a == l->count_b)
			snprintf(a, sizeof a, "x%zu", l->count_a);
		else
			snprintf(a, sizeof a, "x%zu->%zu", l->count_a, l->count_b);
		/* the count and phase stay; the name gives way */
		snprintf(label, sizeof label, " %s %s", l->phase == LAYER_FORWARD ?
		    "fwd" : l->phase == LAYER_BACKWARD ? "bwd" : "span", a);
		fit(g, 1, y, c.label_w - 1 - (int)strlen(label), ROLE_PANEL, ascii,
		    compare_str(d, l->name));
		right(g, 1, y, c.label_w - 1, ROLE_PANEL, ascii, label);
		metrics_row(g, y, &c, &l->a, &l->b, ascii);
		break;
	}
	case CT_KERNEL:
		kernel_row(g, y, w, d, &d->kernels[r->index], 0, ascii);
		break;
	case CT_EMPTY:
		fit(g, 1, y, w - 1, ROLE_PANEL, ascii,
		    r->index == CT_HEAD_STEPS ? "no steps on either side" :
		    r->index == CT_HEAD_LAYERS ? "no layers on either side" :
		    "no kernels on either side");
		break;
	}
}

void
render_compare(struct grid *g, int y, int rows, const struct view *v,
    int ascii)
{
	const struct compare_table *t;
	size_t row, top, vis;
	char pos[64];
	int w = g->w;

	if (rows <= 0)
		return;
	t = view_compare_table(v, &row, &top);
	if (t == NULL) {
		fit(g, 1, y, w - 1, ROLE_PANEL, ascii, "no diff table: D builds it");
		return;
	}
	vis = rows > 1 ? (size_t)(rows - 1) : 0;
	top = render_scroll_top(row, top, vis, t->nrows);
	pos[0] = '\0';
	if (t->nrows > vis)
		snprintf(pos, sizeof pos, " rows %zu-%zu of %zu", top + 1,
		    top + vis < t->nrows ? top + vis : t->nrows, t->nrows);
	fit(g, 1, y, w - 1 - (int)strlen(pos), ROLE_VALUE, ascii, view_compare_what(v));
	right(g, 0, y, w, ROLE_RULER, ascii, pos);
	for (size_t i = 0; i < vis && top + i < t->nrows; i++) {
		int yy = y + 1 + (int)i;

		draw_row(g, yy, w, t, top + i, ascii);
		if (top + i == row)
			grid_reverse(g, 0, w, yy);
	}
}
