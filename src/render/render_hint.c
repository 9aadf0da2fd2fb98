/*
 * render_hint — the last row's key hints, the help overlay and the
 * "terminal too small" screen; see render_int.h.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "render/grid.h"
#include "render/render.h"
#include "render/render_int.h"
#include "analysis/analysis.h"
#include "analysis/crossrank.h"
#include "view/keymap.h"
#include "view/view.h"
#include "view/view_diag.h"

/* ---- the hint line and the help ---------------------------------------- */

const char *
render_table_hint(const struct rctx *c)
{
	return c->v->compare ?
	    "j/k PgUp/PgDn row  Enter go to it  +/- arrows window  D lanes  ? help  q quit" :
	    "j/k PgUp/PgDn row  Enter go to it  ]/[ B  b baseline  D lanes  ? help  q quit";
}

const char *
render_vtable_hint(const struct rctx *c)
{
	(void)c;
	return "j/k PgUp/PgDn row  <-/-> sort  Enter go to it  ]/[ step  T steps  L layers  ? help  q quit";
}

const char *
render_matrix_hint(const struct rctx *c)
{
	return c->v->nan > 0 ?
	    "r/R rank  j/k scroll  Enter its lanes  m lanes  ? help  q quit" :
	    "r/R rank  j/k scroll  Enter open its trace  ? help  q quit";
}

/* When a hint is worth its room: the state it needs. */
enum hint_when {
	H_ALWAYS, H_STEPS, H_LAYERS, H_OUTLIERS, H_GAPS, H_FINDINGS, H_QUERY,
	H_SELECTED, H_ZOOMED, H_RANKS, H_SKEW, H_DIFF, H_LANES, H_EVENT,
	H_MARKS, H_RANGE, H_CPU, H_AHEAD,
};

/*
 * The hints, in display order: each names a command of the key table with
 * the key (or keys) bound to it there (test_keymap checks the binding);
 * prio: lower stays longer as the width shrinks; when: the state in which
 * the hint applies.
 */
const struct hint_item render_hints[] = {
	{ CMD_PAN_LEFT, "\xe2\x86\x90\xe2\x86\x92", "<- ->", "pan", 0, H_ALWAYS },
	{ CMD_ZOOM_IN, "+-", NULL, "zoom", 0, H_ALWAYS },
	{ CMD_UNZOOM, "z", NULL, "back", 4, H_ZOOMED },
	{ CMD_FORWARD, "y", NULL, "forward", 4, H_AHEAD },
	{ CMD_NEXT_STEP, "]/[", NULL, "step", 1, H_STEPS },
	{ CMD_NEXT_LAYER, "}/{", NULL, "layer", 2, H_LAYERS },
	{ CMD_NEXT_OUTLIER, "o", NULL, "outlier", 1, H_OUTLIERS },
	{ CMD_SLOWEST_STEP, "O", NULL, "slowest", 2, H_STEPS },
	{ CMD_TABLE_STEPS, "T/L", NULL, "tables", 3, H_STEPS },
	{ CMD_NEXT_GAP, "g", NULL, "gap", 3, H_GAPS },
	{ CMD_WORST_LAYER, "x", NULL, "worst", 3, H_LAYERS },
	{ CMD_NEXT_FINDING, "e", NULL, "findings", 1, H_FINDINGS },
	{ CMD_ZOOM_SELECTED, "Enter", NULL, "zoom to it", 3, H_SELECTED },
	{ CMD_NEXT_EVENT, ".", NULL, "event", 2, H_LANES },
	{ CMD_FOLLOW_LINK, "J", NULL, "launch", 2, H_EVENT },
	{ CMD_MARK_A, "<", NULL, "mark", 4, H_LANES },
	{ CMD_ZOOM_MARKS, "Z", NULL, "zoom to marks", 1, H_RANGE },
	{ CMD_CLEAR_MARKS, "Esc", NULL, "unmark", 1, H_MARKS },
	{ CMD_SEARCH, "/", NULL, "search", 2, H_ALWAYS },
	{ CMD_NEXT_MATCH, "n/N", NULL, "match", 2, H_QUERY },
	{ CMD_NEXT_RANK, "r", NULL, "rank", 2, H_RANKS },
	{ CMD_TOGGLE_OVERVIEW, "v", NULL, "overview", 4, H_RANKS },
	{ CMD_TOGGLE_MATRIX, "m", NULL, "matrix", 3, H_RANKS },
	{ CMD_WORST_SKEW, "S", NULL, "skew", 4, H_SKEW },
	{ CMD_MARK_BASELINE, "b", NULL, "baseline", 5, H_STEPS },
	{ CMD_CRITICAL_PATH, "P", NULL, "path", 5, H_STEPS },
	{ CMD_TOGGLE_DIFF, "D", NULL, "diff", 2, H_DIFF },
	{ CMD_TOGGLE_CPU, "c", NULL, "cpu", 3, H_ALWAYS },
	{ CMD_TOGGLE_PYTHON, "p", NULL, "python", 4, H_CPU },
	{ CMD_TOGGLE_MEMORY, "M", NULL, "memory", 5, H_ALWAYS },
	{ CMD_PANEL, "Tab", NULL, "panel", 1, H_ALWAYS },
	{ CMD_HELP, "?", NULL, "help", 0, H_ALWAYS },
	{ CMD_QUIT, "q", NULL, "quit", 0, H_ALWAYS },
};
const size_t render_hints_len = sizeof render_hints / sizeof render_hints[0];

/* Whether the state hint h needs holds in c's view. */
static int
hint_applies(const struct rctx *c, enum hint_when h)
{
	const struct view *v = c->v;
	const struct analysis *an = v->nan > 0 ? view_current(v) : NULL;
	size_t nf = 0;

	switch (h) {
	case H_ALWAYS:
		return 1;
	case H_STEPS:
		return an != NULL && an->nsteps > 0;
	case H_LAYERS:
		return an != NULL && an->nlayers > 0;
	case H_OUTLIERS:
		for (size_t i = 0; an != NULL && i < an->nsteps; i++)
			if (an->steps[i].outlier)
				return 1;
		return 0;
	case H_GAPS:
		return an != NULL && an->dev.ngaps > 0;
	case H_FINDINGS:
		/* not computed yet: worth a look; computed: only if any */
		return an != NULL && an->device >= 0 &&
		    (view_diag_findings_known(v, v->rank, &nf) == NULL || nf > 0);
	case H_QUERY:
		return v->query[0] != '\0';
	case H_SELECTED:
		return v->sel != SEL_NONE;
	case H_ZOOMED:
		return v->nzoom > 0;
	case H_RANKS:
		return v->nan > 1 && !v->compare;
	case H_SKEW:
		return v->xr != NULL && v->xr->ntop > 0 && !v->compare;
	case H_DIFF:
		return v->compare || v->base_step >= 0;
	case H_LANES:
		return an != NULL && v->mode == VIEW_MODE_LANES;
	case H_EVENT:
		return v->sel == SEL_EVENT;
	case H_MARKS:
		return v->marks != 0;
	case H_RANGE:
		return (v->marks & 3) == 3;
	case H_AHEAD:
		return v->nahead > 0;
	case H_CPU:
		return v->show_cpu;
	}
	return 0;
}

void
render_draw_hint(struct rctx *c, int y)
{
	enum { N = sizeof render_hints / sizeof render_hints[0] };
	int w = c->g->w, x = 1, used = 0, show[N] = { 0 }, width[N];
	char buf[64];
	const char *hint;

	grid_fill(c->g, 0, y, w, 1, ' ', ROLE_HINT);
	if (c->v->message[0] != '\0') {
		render_put_fit(c, 1, y, w - 2, ROLE_HINT, c->v->message);
		return;
	}
	if (render_modes[c->v->mode].hint != NULL &&
	    (hint = render_modes[c->v->mode].hint(c)) != NULL) {
		render_put_fit(c, 1, y, w - 2, ROLE_HINT, hint);
		return;
	}
	for (int i = 0; i < N; i++) {
		const struct hint_item *h = &render_hints[i];

		snprintf(buf, sizeof buf, "%s %s",
		    c->ascii && h->ascii ? h->ascii : h->keys, h->what);
		width[i] = render_text_cols(buf) + 2;
	}
	/* as many as fit, by priority, of those that apply now */
	for (int prio = 0; prio <= 5; prio++)
		for (int i = 0; i < N; i++)
			if (render_hints[i].prio == prio &&
			    hint_applies(c, render_hints[i].when) &&
			    used + width[i] <= w - 2) {
				show[i] = 1;
				used += width[i];
			}
	for (int i = 0; i < N; i++) {
		const struct hint_item *h = &render_hints[i];

		if (!show[i])
			continue;
		snprintf(buf, sizeof buf, "%s %s",
		    c->ascii && h->ascii ? h->ascii : h->keys, h->what);
		x += render_put_text(c, x, y, w - x, ROLE_HINT, buf) + 2;
	}
}

/*
 * The help's layout: ncol columns of per rows, each column as wide as its
 * widest keys and texts; brief: the short texts and keys (keymap_brief).
 */
enum { HELP_MAXCOL = 3, HELP_FULL_MIN = 28, HELP_BRIEF_MIN = 8 };
struct help_lay {
	int ncol, per, brief, bw;
	int kgap, cgap;         /* between keys and text, between columns */
	int keyw[HELP_MAXCOL], textw[HELP_MAXCOL];
};

static const char *
help_keys(const struct help_lay *l, size_t i)
{
	return l->brief && keymap[i].keys_brief ? keymap[i].keys_brief :
	    keymap[i].keys_text;
}

static const char *
help_text(const struct help_lay *l, size_t i)
{
	return l->brief ? keymap_brief(keymap[i].cmd) : keymap_help(keymap[i].cmd);
}

/*
 * Lays the help out in ncol columns within w columns, the texts giving way
 * (the widest first) down to min.  Returns whether it fits w, and h rows
 * (the title and the footer sit on the border).
 */
static int
help_fit(struct rctx *c, struct help_lay *l, int ncol, int brief, int min,
    int w, int h)
{
	int n = (int)keymap_len;
	char tb[128];

	memset(l, 0, sizeof *l);
	l->ncol = ncol;
	l->brief = brief;
	l->per = (n + ncol - 1) / ncol;
	l->kgap = brief ? 1 : 2;
	l->cgap = brief ? 2 : 3;
	for (int i = 0; i < n; i++) {
		int col = i / l->per;
		int kw = render_text_cols(render_text_for(c->ascii, help_keys(l, (size_t)i),
		    tb, sizeof tb));
		int tw = render_text_cols(help_text(l, (size_t)i));

		l->keyw[col] = kw > l->keyw[col] ? kw : l->keyw[col];
		l->textw[col] = tw > l->textw[col] ? tw : l->textw[col];
	}
	l->bw = 4 + (ncol - 1) * l->cgap;
	for (int k = 0; k < ncol; k++)
		l->bw += l->keyw[k] + l->kgap + l->textw[k];
	while (l->bw > w - 2) {
		int k = 0;

		for (int j = 1; j < ncol; j++)
			if (l->textw[j] > l->textw[k])
				k = j;
		if (l->textw[k] <= min)
			break;
		l->textw[k]--;
		l->bw--;
	}
	return l->bw <= w - 2 && l->per + 2 <= h;
}

/*
 * The ? overlay: every binding, with its whole text in one or two columns
 * when they fit, else the briefs in up to three (all of them at 80x24);
 * a terminal smaller still shows the rows that fit.
 */
void
render_draw_help(struct rctx *c)
{
	int w = c->g->w, h = c->g->h, n = (int)keymap_len, bw, bh, bx, by, x;
	const struct glyphs *gl = c->gl;
	struct help_lay l;
	int fits = help_fit(c, &l, 1, 0, HELP_FULL_MIN, w, h) ||
	    help_fit(c, &l, 2, 0, HELP_FULL_MIN, w, h);

	for (int ncol = 1; !fits && ncol <= HELP_MAXCOL; ncol++)
		fits = help_fit(c, &l, ncol, 1, HELP_BRIEF_MIN, w, h);
	if (!fits)
		help_fit(c, &l, HELP_MAXCOL, 1, HELP_BRIEF_MIN, w, h);
	bw = l.bw;
	if (bw > w - 2) {
		l.textw[0] -= bw - (w - 2);
		if (l.textw[0] < 0)
			l.textw[0] = 0;
		bw = w - 2;
	}
	if (bw > w)
		bw = w;
	bh = l.per + 2;
	if (bh > h)
		bh = h;
	bx = (w - bw) / 2;
	by = (h - bh) / 2;
	grid_fill(c->g, bx, by, bw, bh, ' ', ROLE_HELP);
	for (int i = bx + 1; i < bx + bw - 1; i++) {
		grid_put(c->g, i, by, gl->hrule, ROLE_HELP);
		grid_put(c->g, i, by + bh - 1, gl->hrule, ROLE_HELP);
	}
	for (int y = by + 1; y < by + bh - 1; y++) {
		grid_put(c->g, bx, y, gl->vrule, ROLE_HELP);
		grid_put(c->g, bx + bw - 1, y, gl->vrule, ROLE_HELP);
	}
	grid_put(c->g, bx, by, gl->tl, ROLE_HELP);
	grid_put(c->g, bx + bw - 1, by, gl->tr, ROLE_HELP);
	grid_put(c->g, bx, by + bh - 1, gl->bl, ROLE_HELP);
	grid_put(c->g, bx + bw - 1, by + bh - 1, gl->br, ROLE_HELP);
	render_put_text(c, bx + 2, by, bw - 4, ROLE_LABEL, " gantty keys ");
	render_put_text(c, bx + 2, by + bh - 1, bw - 4, ROLE_HELP,
	    l.brief ? " ? closes this help; --keys prints it whole " :
	    " ? closes this help ");
	x = bx + 2;
	for (int k = 0; k < l.ncol; k++) {
		for (int i = k * l.per; i < n && i < (k + 1) * l.per; i++) {
			int y = by + 1 + (i - k * l.per);

			if (y > by + bh - 2)
				break;
			render_put_fit(c, x, y, l.keyw[k], ROLE_LABEL, help_keys(&l, (size_t)i));
			render_put_fit(c, x + l.keyw[k] + l.kgap, y, l.textw[k], ROLE_HELP,
			    help_text(&l, (size_t)i));
		}
		x += l.keyw[k] + l.kgap + l.textw[k] + l.cgap;
	}
}

void
render_draw_too_small(struct grid *g, int ascii)
{
	char l1[64], l2[64], full[160];
	int w = g->w, h = g->h;

	snprintf(l1, sizeof l1, "terminal too small: need at least %dx%d",
	    RENDER_MIN_W, RENDER_MIN_H);
	snprintf(l2, sizeof l2, "(have %dx%d)", w, h);
	snprintf(full, sizeof full, "%s %s", l1, l2);
	if ((int)strlen(full) <= w) {
		grid_print(g, (w - (int)strlen(full)) / 2, h / 2, w, ROLE_BAD, ascii, full);
		return;
	}
	/* narrower: one part per line, "terminal too small:" first */
	{
		const char *parts[3] = { "terminal too small:", l1 + 20, l2 };
		int y = h / 2 - 1;

		if (y < 0)
			y = 0;
		for (int i = 0; i < 3; i++, y++) {
			int len = (int)strlen(parts[i]);

			grid_print(g, len < w ? (w - len) / 2 : 0, y, w, ROLE_BAD, ascii,
			    parts[i]);
		}
	}
}
