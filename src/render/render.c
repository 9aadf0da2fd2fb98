#include "config.h"

#include "render/render.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis/analysis.h"
#include "analysis/crossrank.h"
#include "render/grid.h"
#include "model/itree.h"
#include "base/ivset.h"
#include "view/keymap.h"
#include "analysis/layers.h"
#include "analysis/matrix.h"
#include "analysis/metrics.h"
#include "render/render_diag.h"
#include "render/render_compare.h"
#include "analysis/compare_table.h"
#include "analysis/steps.h"
#include "model/trace.h"
#include "model/track.h"
#include "base/units.h"
#include "view/view.h"
#include "view/view_compare.h"
#include "view/view_diag.h"
#include "base/xalloc.h"

/*
 * Frame geometry.  Rows 0..2 are the title, the step strip and the ruler;
 * the lanes follow, then the panel (a title row and its content), and the
 * hint line is the last row.  The panel has PANEL_MIN_ROWS .. PANEL_ROWS
 * content rows by terminal height; when the lanes need fewer rows than they
 * could have, the panel follows them directly and grows up to
 * PANEL_MAX_ROWS, and the rows left over stay blank above the hint line.
 */
#define TOP_ROWS 3
#define PANEL_ROWS 6
#define PANEL_MIN_ROWS 2
#define PANEL_MAX_ROWS 20
#define CPU_MAX_DEPTH 6         /* CPU lanes: depths 0 .. 5 */
#define NAME_MIN_COLS 8         /* a name is written in runs this wide */
#define COL_SAMPLES 12          /* events looked at per dense column */
#define TRACK_SAMPLES 256       /* events looked at for a stream's class */
#define LABEL_COLS (RENDER_LABEL_W - 1)

/* ---- glyphs ------------------------------------------------------------ */

struct glyphs {
	uint32_t shade[5];      /* busy fraction 0, (0, 1/4], .. (3/4, 1] */
	uint32_t idle, exposed, overlap, busy;  /* the bubble lane */
	uint32_t step[9];       /* step heights 1 .. 8 (UTF-8) or 1 .. 9 */
	int step_levels;
	uint32_t outlier;       /* an outlier step without colour */
	uint32_t hrule, vrule, tl, tr, bl, br;
	uint32_t tick, minor, cursor, current, ellipsis, selected;
};

static const struct glyphs utf8_glyphs = {
	{ ' ', 0x2591, 0x2592, 0x2593, 0x2588 },        /* ░ ▒ ▓ █ */
	0x2591, 0x2580, 0x2593, 0x2588,                 /* ░ ▀ ▓ █ */
	{ 0x2581, 0x2582, 0x2583, 0x2584, 0x2585, 0x2586, 0x2587, 0x2588, 0 },
	8, '!',
	0x2500, 0x2502, 0x250c, 0x2510, 0x2514, 0x2518, /* ─ │ ┌ ┐ └ ┘ */
	0x258f, 0x00b7, 0x25bc, 0x25b6, 0x2026, 0x2591, /* ▏ · ▼ ▶ … ░ */
};

static const struct glyphs ascii_glyphs = {
	{ ' ', '.', ':', '+', '#' },
	'_', '!', '~', '=',
	{ '1', '2', '3', '4', '5', '6', '7', '8', '9' },
	9, '!',
	'-', '|', '+', '+', '+', '+',
	'|', '.', 'v', '>', '~', '*',
};

/* ---- the frame being drawn --------------------------------------------- */

struct rctx {
	struct grid *g;
	const struct layout *lay;
	const struct view *v;
	int ascii, mono;
	const struct glyphs *gl;
	int x0, ncols;          /* the time area */
	int64_t *col_ns;        /* ncols + 1 column boundaries */
	uint32_t *buf;          /* itree results */
	size_t len, cap;
	uint32_t *ev_mid;       /* ncols: the event named in each column */
	int64_t sel_start, sel_end; /* the selection's time range, or 0, 0 */
	/* the candidates of every column for one track, shared by its rows */
	const struct trace *cache_t;
	uint32_t cache_track;
	struct cands *cache;    /* ncols */
};

/* One event near a column, with the weight its clipped time counts for. */
struct cand {
	uint32_t ev;            /* index into the trace's events */
	double weight;
};

struct cands {
	struct cand v[COL_SAMPLES + 40];
	int n;
};

/*
 * What each viewer mode (enum view_mode, view.h) draws, indexed by it; view/
 * has the modes' keys and state (command.h), this table their drawing: view/
 * is below render/ in the layer map, so its table cannot point here.  A new
 * mode is one entry in each.
 */
struct render_mode {
	int lanes;              /* its area is lane rows (build_lanes()); else,
	                           its rows are the mode's own, and the lanes laid
	                           out under it (render_rank_lane()) are those of
	                           the mode it goes back to */
	/* Fills lay's lane area for v (the grid is big enough). */
	void (*layout)(struct layout *lay, const struct view *v);
	/* Draws everything between the title and the hint line. */
	void (*draw)(struct rctx *c);
	/* Returns the hint line's text, or NULL for the lanes' key list. */
	const char *(*hint)(const struct rctx *c);
};

static const struct render_mode render_modes[VIEW_MODE_COUNT];

/* ---- text -------------------------------------------------------------- */

/* ASCII stand-ins for the few non-ASCII symbols gantty's own texts use. */
static const struct {
	const char *utf8, *ascii;
} translit[] = {
	{ "\xe2\x86\x90", "<-" }, { "\xe2\x86\x92", "->" },     /* ← → */
	{ "\xe2\x86\x91", "^" }, { "\xe2\x86\x93", "v" },       /* ↑ ↓ */
	{ "\xe2\x80\xa6", "~" }, { "\xe2\x89\xa5", ">=" },      /* … ≥ */
	{ "\xc2\xb7", "." }, { "\xe2\x94\x80", "-" },           /* · ─ */
	{ "\xe2\x94\x82", "|" }, { "\xc3\x97", "x" },           /* │ × */
	{ "\xe2\x96\xb6", ">" }, { "\xe2\x80\x94", "-" },       /* ▶ — */
	{ "\xe2\x96\x91", "_" }, { "\xe2\x96\x80", "!" },       /* ░ ▀ */
	{ "\xe2\x96\x93", "~" }, { "\xe2\x96\x88", "=" },       /* ▓ █ */
};

/* Copies s to buf (size n), with ASCII stand-ins when ascii is set. */
static const char *
text_for(int ascii, const char *s, char *buf, size_t n)
{
	size_t o = 0;

	if (!ascii)
		return s;
	while (*s != '\0' && o + 1 < n) {
		size_t k, m = sizeof translit / sizeof translit[0];

		for (k = 0; k < m; k++) {
			size_t l = strlen(translit[k].utf8);

			if (strncmp(s, translit[k].utf8, l) == 0) {
				size_t al = strlen(translit[k].ascii);

				if (o + al + 1 > n)
					goto done;
				memcpy(buf + o, translit[k].ascii, al);
				o += al;
				s += l;
				break;
			}
		}
		if (k == m)
			buf[o++] = *s++;
	}
done:
	buf[o] = '\0';
	return buf;
}

/* 1 if s contains needle, ignoring ASCII case. */
/* The number of code points of s: its width, for gantty's texts. */
static int
text_cols(const char *s)
{
	int n = 0;

	for (; *s != '\0'; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

/* Writes s at (x, y), at most maxw columns; returns the columns written. */
static int
put_text(struct rctx *c, int x, int y, int maxw, enum role role, const char *s)
{
	char buf[1024];

	if (maxw == 0)
		return 0;
	return grid_print(c->g, x, y, maxw, role, c->ascii,
	    text_for(c->ascii, s, buf, sizeof buf));
}

/*
 * Writes s at (x, y) in at most maxw columns, cut with an ellipsis when
 * longer.  Returns the columns written.
 */
static int
put_fit(struct rctx *c, int x, int y, int maxw, enum role role, const char *s)
{
	char buf[1024];
	const char *t = text_for(c->ascii, s, buf, sizeof buf);
	int n;

	if (maxw <= 0)
		return 0;
	if (text_cols(t) <= maxw)
		return grid_print(c->g, x, y, maxw, role, c->ascii, t);
	n = grid_print(c->g, x, y, maxw - 1, role, c->ascii, t);
	grid_put(c->g, x + n, y, c->gl->ellipsis, role);
	return n + 1;
}

/* A short duration: units_format() without the space ("12.5ms"). */
static char *
fmt_compact(char *buf, size_t n, int64_t ns)
{
	char *sp;

	units_format(buf, n, ns);
	if ((sp = strchr(buf, ' ')) != NULL)
		memmove(sp, sp + 1, strlen(sp));
	return buf;
}

/* A position relative to t0: "+12.5 ms". */
static char *
fmt_rel(char *buf, size_t n, const struct view *v, int64_t ts_ns)
{
	char d[32];
	int64_t rel = ts_ns - v->t0_ns;

	units_format(d, sizeof d, rel < 0 ? -rel : rel);
	snprintf(buf, n, "%s%s", rel < 0 ? "-" : "+", d);
	return buf;
}

static double
pct(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

/*
 * A pen writes formatted segments left to right on one row, each in its own
 * role, and clips at x1.
 */
struct pen {
	struct rctx *c;
	int x, y, x1;
};

static void pen_put(struct pen *p, enum role role, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
pen_put(struct pen *p, enum role role, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (p->x >= p->x1)
		return;
	p->x += put_text(p->c, p->x, p->y, p->x1 - p->x, role, buf);
}

/* Writes a duration in role. */
static void
pen_dur(struct pen *p, enum role role, int64_t ns)
{
	char d[48];

	pen_put(p, role, "%s", units_format(d, sizeof d, ns));
}

/*
 * A display name for a GPU kernel: without "void ", template arguments and
 * the parameter list, and without namespaces, so that a lane shows
 * "vectorized_elementwise_kernel" for
 * "void at::native::vectorized_elementwise_kernel<4, ...>(int, ...)".
 */
static const char *
short_kernel_name(const char *name, char *buf, size_t n)
{
	const char *s = name, *e, *ns, *anon = "(anonymous namespace)::";
	char tmp[256];
	size_t len = 0, al = strlen(anon);

	if (strncmp(s, "void ", 5) == 0)
		s += 5;
	/* without "(anonymous namespace)::", whose '(' would end the name */
	while (*s != '\0' && len + 1 < sizeof tmp) {
		if (strncmp(s, anon, al) == 0)
			s += al;
		else
			tmp[len++] = *s++;
	}
	tmp[len] = '\0';
	s = tmp;
	for (e = s; *e != '\0' && *e != '(' && *e != '<'; e++)
		;
	for (ns = s; ns + 2 < e; ns++)
		if (ns[0] == ':' && ns[1] == ':')
			s = ns + 2;
	/* the lane says nccl already: "AllGather_RING_LL" is the news */
	if (strncmp(s, "ncclDevKernel_", 14) == 0 && s + 14 < e)
		s += 14;
	else if (strncmp(s, "ncclKernel_", 11) == 0 && s + 11 < e)
		s += 11;
	while (e > s && e[-1] == ' ')
		e--;
	if (e == s || (size_t)(e - s) + 1 > n)
		return name;
	memcpy(buf, s, (size_t)(e - s));
	buf[e - s] = '\0';
	return buf;
}

/* The name to show for event e: kernels shortened, everything else whole. */
static const char *
display_name(const struct trace *t, const struct event *e, char *buf, size_t n)
{
	const char *name = trace_str(t, e->name);

	if ((e->flags & EVF_ACTIVITY) && e->cls != CLASS_MEMORY)
		return short_kernel_name(name, buf, n);
	return name;
}

/* A track's name without the trailing blanks Kineto sometimes leaves. */
static const char *
track_name(const struct trace *t, const struct track *tr, char *buf, size_t n)
{
	size_t len;

	snprintf(buf, n, "%s", trace_str(t, tr->name));
	len = strlen(buf);
	while (len > 0 && buf[len - 1] == ' ')
		buf[--len] = '\0';
	return buf;
}

/*
 * A kernel name for the panel: without "void ", "at::native::",
 * "(anonymous namespace)::" and the parameter list, templates kept.
 */
static const char *
medium_kernel_name(const char *name, char *buf, size_t n)
{
	static const char *const drop[] = {
		"(anonymous namespace)::", "at::native::",
	};
	const char *s = name;
	size_t len = 0;
	int depth = 0;

	if (strncmp(s, "void ", 5) == 0)
		s += 5;
	while (*s != '\0' && len + 1 < n) {
		size_t k;

		for (k = 0; k < sizeof drop / sizeof drop[0]; k++)
			if (strncmp(s, drop[k], strlen(drop[k])) == 0)
				break;
		if (k < sizeof drop / sizeof drop[0]) {
			s += strlen(drop[k]);
			continue;
		}
		buf[len++] = *s++;
	}
	buf[len] = '\0';
	/* cut a trailing parameter list "(...)" */
	if (len > 0 && buf[len - 1] == ')') {
		for (size_t i = len; i-- > 0;) {
			if (buf[i] == ')')
				depth++;
			else if (buf[i] == '(' && --depth == 0) {
				/* "f<T>(int)", not "Memcpy DtoH (Device -> Pinned)" */
				if (i > 0 && buf[i - 1] != ' ')
					buf[i] = '\0';
				break;
			}
		}
	}
	return buf;
}

/* The thread part of a CPU track name: "python3" of "thread 12 (python3)". */
static const char *
thread_label(const char *name, char *buf, size_t n)
{
	const char *open = strchr(name, '('), *close;
	size_t len;

	if (open == NULL || (close = strrchr(open, ')')) == NULL || close == open + 1)
		return name;
	len = (size_t)(close - open - 1);
	if (len + 1 > n)
		len = n - 1;
	memcpy(buf, open + 1, len);
	buf[len] = '\0';
	return buf;
}

/* ---- lanes ------------------------------------------------------------- */

/*
 * Activity sub-rows of a GPU track: 1 + the deepest activity's row.  track
 * rows also count nested GPU annotations, so a track with rows > 1 is
 * scanned, O(n), until a row that deep is found: only streams with
 * overlapping kernels or nested annotations pay it, in render_layout().
 */
static int
gpu_rows(const struct trace *t, const struct track *tr)
{
	int rows = 1;

	if (tr->rows <= 1)
		return 1;
	for (uint32_t i = 0; i < tr->count && rows < tr->rows; i++) {
		const struct event *e = &t->events[tr->first + i];

		if ((e->flags & EVF_ACTIVITY) && e->depth + 1 > rows)
			rows = e->depth + 1;
	}
	return rows;
}

/* 1 if a CPU track gets lanes: a thread with slices (not a lone marker). */
static int
cpu_track_shown(const struct track *tr)
{
	return tr->kind == TRACK_CPU && tr->count >= 2 && tr->busy.n > 0 &&
	    tr->rows > 0;
}

static void
push_lane(struct row_info **v, size_t *n, size_t *cap, enum row_kind kind,
    int a, uint32_t track, int depth)
{
	xgrow(v, cap, *n + 1, sizeof **v);
	(*v)[*n].kind = kind;
	(*v)[*n].analysis = a;
	(*v)[*n].track = track;
	(*v)[*n].depth = depth;
	(*n)++;
}

/* The mode shown if it has lanes, else the first under it that has. */
static enum view_mode
lanes_mode(const struct view *v)
{
	enum view_mode m = v->mode;

	for (int i = v->nunder; !render_modes[m].lanes && i > 0; )
		m = v->under[--i];
	return m;
}

/* Lists every lane row of v, top to bottom, into *out; returns how many. */
static size_t
build_lanes(const struct view *v, struct row_info **out)
{
	struct row_info *rows = NULL;
	size_t n = 0, cap = 0;
	struct view_baseline bl;
	enum view_mode mode = lanes_mode(v);

	if (mode == VIEW_MODE_MATRIX && v->xr != NULL && v->mx != NULL) {
		for (size_t p = 0; p < v->xr->nparts; p++)
			push_lane(&rows, &n, &cap, ROW_MATRIX, (int)p, UINT32_MAX, 0);
		*out = rows;
		return n;
	}
	for (size_t i = 0; i < v->nan; i++) {
		const struct analysis *an = &v->an[i];
		const struct trace *t = an->t;

		if (mode == VIEW_MODE_OVERVIEW) {
			/* one row per rank: its bubble lane, labelled with the rank */
			push_lane(&rows, &n, &cap, ROW_BUBBLE, (int)i, UINT32_MAX, 0);
			continue;
		}
		push_lane(&rows, &n, &cap, ROW_RANK, (int)i, UINT32_MAX, 0);
		if (an->device >= 0) {
			for (size_t k = 0; k < an->dev.ntracks; k++) {
				uint32_t ti = an->dev.tracks[k];
				int nr = gpu_rows(t, &t->tracks[ti]);

				for (int d = 0; d < nr; d++)
					push_lane(&rows, &n, &cap, ROW_GPU, (int)i, ti, d);
			}
			push_lane(&rows, &n, &cap, ROW_BUBBLE, (int)i, UINT32_MAX, 0);
			if (view_diag_memory(v, i) != NULL)
				push_lane(&rows, &n, &cap, ROW_MEMORY, (int)i, UINT32_MAX, 0);
			if (i == v->rank && view_compare_baseline(v, &bl) && bl.aligned) {
				const struct metrics *bd = &v->an[bl.rank].dev;

				for (size_t k = 0; k < bd->ntracks; k++)
					push_lane(&rows, &n, &cap, ROW_BASELINE,
					    (int)bl.rank, bd->tracks[k], 0);
			}
		}
		if (v->show_cpu && (i == 0 || v->an[i - 1].t != t)) {
			for (size_t k = 0; k < t->ntracks; k++) {
				const struct track *tr = &t->tracks[k];
				int nr;

				if (!cpu_track_shown(tr))
					continue;
				nr = tr->rows < CPU_MAX_DEPTH ? tr->rows : CPU_MAX_DEPTH;
				for (int d = 0; d < nr; d++)
					push_lane(&rows, &n, &cap, ROW_CPU, (int)i,
					    (uint32_t)k, d);
			}
		}
	}
	*out = rows;
	return n;
}

static int
panel_base_rows(int h)
{
	int r = (h - 12) / 2 + PANEL_MIN_ROWS;

	return r < PANEL_MIN_ROWS ? PANEL_MIN_ROWS : r > PANEL_ROWS ? PANEL_ROWS : r;
}

static int
first_lane(const struct layout *lay, const struct view *v)
{
	int s = v->lane_scroll, max = lay->nlanes - lay->lanes_h;

	if (s > max)
		s = max;
	return s < 0 ? 0 : s;
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

	lay->nlanes = (int)build_lanes(v, &lanes);
	content = panel_base_rows(h);
	lay->lanes_y = TOP_ROWS;
	lay->lanes_h = h - TOP_ROWS - 2 - content;
	/* few lanes: the panel follows them, htop-like, blank rows below */
	if (lay->nlanes < lay->lanes_h)
		lay->lanes_h = lay->nlanes;
	if (v->nan > 0 && v->mode != VIEW_MODE_MATRIX) {
		lay->rows[1].kind = ROW_STEPS;
		lay->rows[1].analysis = (int)v->rank;
	}
	scroll = first_lane(lay, v);
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
	size_t n = build_lanes(v, &lanes);
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

/* ---- looking events up per column -------------------------------------- */

/* The index (in the trace) of the first event of tr starting at or after ts. */
static uint32_t
first_at(const struct trace *t, const struct track *tr, int64_t ts_ns)
{
	uint32_t lo = 0, hi = tr->count;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (t->events[tr->first + mid].ts_ns < ts_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return tr->first + lo;
}

/* Appends the events of tr covering the instant ts_ns to c->buf (absolute). */
static size_t
probe(struct rctx *c, const struct trace *t, const struct track *tr,
    int64_t ts_ns)
{
	size_t n;

	c->len = 0;
	if (tr->count == 0)
		return 0;
	n = itree_overlap(&tr->index, &t->events[tr->first], ts_ns, ts_ns + 1,
	    &c->buf, &c->len, &c->cap);
	for (size_t i = 0; i < n; i++)
		c->buf[i] += tr->first;
	return n;
}

/* Adds ev unless it is among the first `among` candidates. */
static void
cand_add(struct cands *cs, int among, uint32_t ev, double w)
{
	for (int i = 0; i < among; i++)
		if (cs->v[i].ev == ev)
			return;
	if (cs->n < (int)(sizeof cs->v / sizeof cs->v[0])) {
		cs->v[cs->n].ev = ev;
		cs->v[cs->n].weight = w;
		cs->n++;
	}
}

/*
 * The events of tr that tell what column [a, b) holds, in O(log n): those
 * covering its middle and its start (two point queries of the itree), and
 * those starting inside it: all of them, or COL_SAMPLES spread evenly, each
 * then weighing for the ones skipped.
 */
static void
column_cands(struct rctx *c, const struct trace *t, const struct track *tr,
    int64_t a, int64_t b, struct cands *cs)
{
	uint32_t lo = first_at(t, tr, a), hi = first_at(t, tr, b), n = hi - lo;
	int np;
	size_t k;

	cs->n = 0;
	k = probe(c, t, tr, a + (b - a) / 2);
	for (size_t i = 0; i < k; i++)
		cand_add(cs, cs->n, c->buf[i], 1.0);
	k = probe(c, t, tr, a);
	for (size_t i = 0; i < k; i++)
		cand_add(cs, cs->n, c->buf[i], 1.0);
	np = cs->n;     /* the starts below are distinct: check the probes only */
	if (n <= COL_SAMPLES) {
		for (uint32_t i = lo; i < hi; i++)
			cand_add(cs, np, i, 1.0);
	} else {
		double w = (double)n / COL_SAMPLES;

		for (uint32_t s = 0; s < COL_SAMPLES; s++)
			cand_add(cs, np, lo + (uint32_t)((uint64_t)s * n / COL_SAMPLES), w);
	}
}

/*
 * The candidates of column col of track ti of t.  The rows of one track are
 * drawn one after the other, so every column's candidates are found once
 * per track and frame.
 */
static const struct cands *
track_cands(struct rctx *c, const struct trace *t, uint32_t ti, int col)
{
	if (c->cache_t != t || c->cache_track != ti) {
		const struct track *tr = &t->tracks[ti];

		for (int k = 0; k < c->ncols; k++) {
			c->cache[k].n = 0;
			if (c->col_ns[k + 1] > c->col_ns[k] && tr->count > 0)
				column_cands(c, t, tr, c->col_ns[k], c->col_ns[k + 1],
				    &c->cache[k]);
		}
		c->cache_t = t;
		c->cache_track = ti;
	}
	return &c->cache[col];
}

/*
 * The longest candidate at depth that covers the instant mid (GPU activity
 * only if want_activity), or EV_NONE.
 */
static uint32_t
mid_event(const struct trace *t, const struct cands *cs, int64_t mid, int depth,
    int want_activity)
{
	uint32_t best = EV_NONE;
	int64_t bd = -1;

	for (int i = 0; i < cs->n; i++) {
		const struct event *e = &t->events[cs->v[i].ev];

		if (e->depth != depth || e->ts_ns > mid || e->dur_ns <= bd ||
		    (want_activity && !(e->flags & EVF_ACTIVITY)))
			continue;
		if (event_end(e) > mid || (e->dur_ns == 0 && e->ts_ns == mid)) {
			bd = e->dur_ns;
			best = cs->v[i].ev;
		}
	}
	return best;
}

/* The part of event e inside [a, b). */
static int64_t
clipped(const struct event *e, int64_t a, int64_t b)
{
	int64_t s = e->ts_ns > a ? e->ts_ns : a;
	int64_t en = event_end(e) < b ? event_end(e) : b;

	return en > s ? en - s : 0;
}

static enum role
class_role(int cls)
{
	switch (cls) {
	case CLASS_COMM:
		return ROLE_COMM;
	case CLASS_MEMORY:
		return ROLE_MEMORY;
	default:
		return ROLE_COMPUTE;
	}
}

/*
 * The class that carries most of a stream's activity, from up to
 * TRACK_SAMPLES of its events weighted by duration.  O(TRACK_SAMPLES).
 */
static int
track_class(const struct trace *t, const struct track *tr)
{
	double w[4] = { 0, 0, 0, 0 };
	uint32_t n = tr->count, step = n > TRACK_SAMPLES ? n / TRACK_SAMPLES : 1;
	int best = CLASS_COMPUTE;

	for (uint32_t i = 0; i < n; i += step) {
		const struct event *e = &t->events[tr->first + i];

		if ((e->flags & EVF_ACTIVITY) && e->cls < 4)
			w[e->cls] += (double)e->dur_ns + 1.0;
	}
	for (int k = CLASS_COMPUTE; k <= CLASS_MEMORY; k++)
		if (w[k] > w[best])
			best = k;
	return best;
}

/* The shading level 0..4 of busy ns out of a column of width ns. */
static int
shade_level(int64_t busy, int64_t width)
{
	int64_t l;

	if (busy <= 0 || width <= 0)
		return 0;
	if (busy >= width)
		return 4;
	l = (busy * 4 + width - 1) / width;
	return l < 1 ? 1 : l > 4 ? 4 : (int)l;
}

/* The time area column of ts_ns, clamped to the area. */
static int
col_of(const struct rctx *c, int64_t ts_ns)
{
	int col = view_ns_col(c->v, ts_ns);

	return col < 0 ? 0 : col >= c->ncols ? c->ncols - 1 : col;
}

/*
 * Writes the names of the events in ev_mid[] that cover NAME_MIN_COLS
 * columns or more, inside their columns (one shaded column kept at each
 * end), in reverse video so that they read as a labelled bar.
 */
static void
draw_names(struct rctx *c, int y, const struct trace *t)
{
	int col = 0;

	while (col < c->ncols) {
		uint32_t ev = c->ev_mid[col];
		int end = col + 1;

		while (end < c->ncols && c->ev_mid[end] == ev)
			end++;
		if (ev != EV_NONE && end - col >= NAME_MIN_COLS) {
			char sbuf[256];
			const char *name = display_name(t, &t->events[ev], sbuf, sizeof sbuf);
			struct cell *cl;
			enum role role;
			int n, x = c->x0 + col + 1, w = end - col - 2;

			cl = grid_at(c->g, x, y);
			role = cl ? (enum role)cl->role : ROLE_CPU;
			if (c->v->query[0] != '\0' &&
			    strcasestr(trace_str(t, t->events[ev].name), c->v->query) != NULL)
				role = ROLE_MATCH;      /* a search match */
			n = put_fit(c, x, y, w, role, name);
			for (int i = 0; i < n; i++)
				if ((cl = grid_at(c->g, x + i, y)) != NULL)
					cl->reverse = role != ROLE_MATCH;
		}
		col = end;
	}
}

/* Marks the selected event's columns on row y if it is drawn there. */
static void
draw_selected_event(struct rctx *c, int y, const struct row_info *ri)
{
	const struct view *v = c->v;
	const struct trace *t;
	const struct event *e;
	int c0, c1;

	if (v->sel != SEL_EVENT || ri->analysis != (int)v->rank ||
	    ri->kind != ROW_GPU)
		return;
	t = v->an[v->rank].t;
	if (v->sel_index < 0 || (size_t)v->sel_index >= t->nevents)
		return;
	e = &t->events[v->sel_index];
	if (e->track != ri->track || e->depth != ri->depth)
		return;
	if (event_end(e) <= v->start_ns || e->ts_ns >= v->end_ns)
		return;
	c0 = col_of(c, e->ts_ns);
	c1 = col_of(c, e->dur_ns > 0 ? event_end(e) - 1 : e->ts_ns);
	for (int col = c0; col <= c1; col++) {
		struct cell *cl = grid_at(c->g, c->x0 + col, y);

		if (cl == NULL)
			continue;
		if (!cl->reverse)
			cl->ch = c->gl->selected;
		cl->role = ROLE_SELECTED;
		cl->reverse = 0;
	}
}

/* ---- the lanes --------------------------------------------------------- */

static void
draw_label(struct rctx *c, int y, enum role role, const char *s)
{
	put_fit(c, 0, y, LABEL_COLS, role, s);
}

static void
draw_gpu_lane(struct rctx *c, int y, const struct row_info *ri)
{
	const struct analysis *an = &c->v->an[ri->analysis];
	const struct trace *t = an->t;
	const struct track *tr = &t->tracks[ri->track];
	int dom = track_class(t, tr), d = ri->depth;
	char label[96], sname[72], nbuf[64];
	const char *name = track_name(t, tr, nbuf, sizeof nbuf);

	if (strncmp(name, "stream ", 7) == 0)
		snprintf(sname, sizeof sname, "s%s", name + 7);
	else
		snprintf(sname, sizeof sname, "%s", name);
	if (d == 0)
		snprintf(label, sizeof label, " %s %s",
		    dom == CLASS_COMM ? "nccl" : dom == CLASS_MEMORY ? "memory" :
		    "compute", sname);
	else
		snprintf(label, sizeof label, "   %s row %d", sname, d + 1);
	draw_label(c, y, ROLE_LABEL, label);

	for (int col = 0; col < c->ncols; col++) {
		int64_t a = c->col_ns[col], b = c->col_ns[col + 1], busy = 0;
		double w[4] = { 0, 0, 0, 0 }, sum = 0;
		int cls = dom, lvl;
		const struct cands *cs;

		c->ev_mid[col] = EV_NONE;
		if (b <= a)
			continue;
		if (d == 0 && (busy = track_busy_ns(tr, a, b)) == 0)
			continue;
		cs = track_cands(c, t, ri->track, col);
		c->ev_mid[col] = mid_event(t, cs, a + (b - a) / 2, d, 1);
		for (int i = 0; i < cs->n; i++) {
			const struct event *e = &t->events[cs->v[i].ev];
			double x;

			if (!(e->flags & EVF_ACTIVITY) || (d > 0 && e->depth != d) ||
			    e->cls > CLASS_MEMORY)
				continue;
			x = (double)clipped(e, a, b) * cs->v[i].weight;
			if (x == 0 && e->dur_ns == 0 && e->ts_ns >= a && e->ts_ns < b)
				x = 0.5;        /* an instant-length kernel still counts */
			w[e->cls] += x;
			sum += x;
		}
		if (d > 0) {
			busy = sum >= (double)(b - a) ? b - a : (int64_t)(sum + 0.5);
			if (busy == 0 && sum > 0)
				busy = 1;
		}
		if ((lvl = shade_level(busy, b - a)) == 0)
			continue;
		if (sum > 0) {
			cls = CLASS_COMPUTE;
			for (int k = CLASS_COMM; k <= CLASS_MEMORY; k++)
				if (w[k] > w[cls])
					cls = k;
		}
		grid_put(c->g, c->x0 + col, y, c->gl->shade[lvl], class_role(cls));
	}
	draw_names(c, y, t);
	draw_selected_event(c, y, ri);
}

/*
 * A GPU stream of the baseline step: drawn as draw_gpu_lane() draws it, with
 * every column's time range shifted back by the alignment offset and
 * clipped to the baseline step's GPU extent (columns outside it stay blank).
 */
static void
draw_baseline_lane(struct rctx *c, int y, const struct row_info *ri)
{
	struct view_baseline bl;
	int64_t *cols = c->col_ns, *shifted;
	char label[96], nbuf[64];
	const struct trace *t;
	const char *name;

	if (!view_compare_baseline(c->v, &bl) || !bl.aligned)
		return;
	shifted = xcalloc((size_t)c->ncols + 1, sizeof *shifted);
	for (int k = 0; k <= c->ncols; k++) {
		/* saturated: the offset is a difference of two step starts */
		int64_t x = cols[k];

		if (bl.offset_ns > 0 && x < INT64_MIN + bl.offset_ns)
			x = INT64_MIN;
		else if (bl.offset_ns < 0 && x > INT64_MAX + bl.offset_ns)
			x = INT64_MAX;
		else
			x -= bl.offset_ns;
		shifted[k] = x < bl.a0_ns ? bl.a0_ns : x > bl.a1_ns ? bl.a1_ns : x;
	}
	c->col_ns = shifted;
	c->cache_t = NULL;
	c->cache_track = UINT32_MAX;
	draw_gpu_lane(c, y, ri);
	c->col_ns = cols;
	c->cache_t = NULL;
	c->cache_track = UINT32_MAX;
	free(shifted);
	t = c->v->an[ri->analysis].t;
	name = track_name(t, &t->tracks[ri->track], nbuf, sizeof nbuf);
	snprintf(label, sizeof label, " A#%lld %s%s", (long long)bl.number_a,
	    strncmp(name, "stream ", 7) == 0 ? "s" : "",
	    strncmp(name, "stream ", 7) == 0 ? name + 7 : name);
	grid_fill(c->g, 0, y, LABEL_COLS, 1, ' ', ROLE_DEFAULT);
	draw_label(c, y, ROLE_STEP, label);
}

static void
draw_bubble_lane(struct rctx *c, int y, const struct row_info *ri)
{
	const struct metrics *d = &c->v->an[ri->analysis].dev;

	if (c->v->mode == VIEW_MODE_OVERVIEW) {
		char label[32];
		const struct analysis *an = &c->v->an[ri->analysis];

		snprintf(label, sizeof label, "%crank %lld d%d",
		    (size_t)ri->analysis == c->v->rank ? '>' : ' ',
		    (long long)an->t->rank, an->device);
		draw_label(c, y, ROLE_LABEL, label);
	} else {
		draw_label(c, y, ROLE_LABEL, " bubbles");
	}
	for (int col = 0; col < c->ncols; col++) {
		int64_t a = c->col_ns[col], b = c->col_ns[col + 1];
		int64_t all, comm, exposed, idle, overlap, other;
		uint32_t ch = c->gl->idle;
		enum role role = ROLE_BUBBLE;
		int64_t best;

		if (b <= a)
			continue;
		all = ivset_measure(&d->all, a, b);
		comm = ivset_measure(&d->comm, a, b);
		exposed = ivset_measure(&d->exposed, a, b);
		idle = (b - a) - all;
		overlap = comm - exposed;
		other = all - comm;
		/*
		 * Problems first: a column that is a quarter idle, or a quarter
		 * exposed communication, shows it, so a stall is never hidden by
		 * the busy time around it at a coarse zoom.  Otherwise the largest
		 * share wins; ties go to the worse state.
		 */
		if (idle * 4 >= b - a || exposed * 4 >= b - a) {
			int bubble = idle >= exposed;

			grid_put(c->g, c->x0 + col, y,
			    bubble ? c->gl->idle : c->gl->exposed,
			    bubble ? ROLE_BUBBLE : ROLE_EXPOSED);
			continue;
		}
		best = exposed;
		ch = c->gl->exposed;
		role = ROLE_EXPOSED;
		if (idle > best) {
			best = idle;
			ch = c->gl->idle;
			role = ROLE_BUBBLE;
		}
		if (overlap > best) {
			best = overlap;
			ch = c->gl->overlap;
			role = ROLE_OVERLAP;
		}
		if (other > best) {
			ch = c->gl->busy;
			role = ROLE_BUSY;
		}
		grid_put(c->g, c->x0 + col, y, ch, role);
	}
}

static void
draw_cpu_lane(struct rctx *c, int y, const struct row_info *ri)
{
	const struct trace *t = c->v->an[ri->analysis].t;
	const struct track *tr = &t->tracks[ri->track];
	char label[96], tbuf[64];
	const char *tname = thread_label(trace_str(t, tr->name), tbuf, sizeof tbuf);
	int d = ri->depth;
	int tw = LABEL_COLS - 3;

	if (text_cols(tname) > tw) {
		/* cut by code points, then the ellipsis */
		char cut[48];
		int n = 0;
		size_t k = 0;

		for (const char *q = tname; *q != '\0' && k + 4 < sizeof cut; q++) {
			if (((unsigned char)*q & 0xc0) != 0x80 && ++n > tw - 1)
				break;
			cut[k++] = *q;
		}
		cut[k] = '\0';
		snprintf(label, sizeof label, " %s\xe2\x80\xa6 %d", cut, d);
	} else
		snprintf(label, sizeof label, " %s %d", tname, d);
	draw_label(c, y, ROLE_LABEL, label);

	for (int col = 0; col < c->ncols; col++) {
		int64_t a = c->col_ns[col], b = c->col_ns[col + 1], busy;
		double sum = 0;
		int sync = 0, any = 0;
		const struct cands *cs;

		c->ev_mid[col] = EV_NONE;
		if (b <= a)
			continue;
		if (track_busy_ns(tr, a, b) == 0 && d > 0)
			continue;
		cs = track_cands(c, t, ri->track, col);
		c->ev_mid[col] = mid_event(t, cs, a + (b - a) / 2, d, 0);
		for (int i = 0; i < cs->n; i++) {
			const struct event *e = &t->events[cs->v[i].ev];
			int64_t x;

			if (e->depth != d || e->ph != 'X')
				continue;
			x = clipped(e, a, b);
			if (x == 0 && !(e->ts_ns >= a && e->ts_ns < b))
				continue;
			any = 1;
			sum += (double)x * cs->v[i].weight;
			if (e->flags & EVF_SYNC)
				sync = 1;
		}
		if (!any)
			continue;
		if (d == 0)
			busy = track_busy_ns(tr, a, b);
		else
			busy = sum >= (double)(b - a) ? b - a : (int64_t)(sum + 0.5);
		grid_put(c->g, c->x0 + col, y,
		    c->gl->shade[busy > 0 ? shade_level(busy, b - a) : 1],
		    sync ? ROLE_SYNC : ROLE_CPU);
	}
	draw_names(c, y, t);
	draw_selected_event(c, y, ri);
}

/* The window metrics of analysis i (the view's own for the current rank). */
static void
window_of(const struct rctx *c, size_t i, struct window_metrics *m)
{
	if (i == c->v->rank) {
		*m = c->v->m;
		return;
	}
	metrics_window(&c->v->an[i].dev, c->v->start_ns, c->v->end_ns, m);
}

static enum role
bad_if(int bad)
{
	return bad ? ROLE_BAD : ROLE_VALUE;
}

static void
draw_rank_header(struct rctx *c, int y, const struct row_info *ri)
{
	const struct analysis *an = &c->v->an[ri->analysis];
	int cur = (size_t)ri->analysis == c->v->rank;
	struct pen p = { c, 0, y, c->g->w };
	char label[64];

	if (an->device >= 0)
		snprintf(label, sizeof label, "rank %lld dev %d",
		    (long long)an->t->rank, (int)an->device);
	else
		snprintf(label, sizeof label, "rank %lld", (long long)an->t->rank);
	if (cur)
		grid_put(c->g, 0, y, c->gl->current, ROLE_LABEL);
	put_fit(c, 1, y, LABEL_COLS - 1, ROLE_LABEL, label);
	p.x = c->x0;
	if (an->device < 0) {
		pen_put(&p, ROLE_PANEL, " no GPU activity ");
	} else {
		struct window_metrics m;
		int64_t span;

		window_of(c, (size_t)ri->analysis, &m);
		span = m.end_ns - m.start_ns;
		pen_put(&p, ROLE_PANEL, " exposed ");
		pen_dur(&p, bad_if(pct(m.exposed_comm_ns, span) >= 5), m.exposed_comm_ns);
		pen_put(&p, ROLE_PANEL, " (%.1f%%)  idle ", pct(m.exposed_comm_ns, span));
		pen_dur(&p, bad_if(pct(m.idle_ns, span) >= 5), m.idle_ns);
		pen_put(&p, ROLE_PANEL, " (%.1f%%)", pct(m.idle_ns, span));
		if (m.overlap_pct >= 0)
			pen_put(&p, ROLE_PANEL, "  overlap %.0f%% ", m.overlap_pct);
		else
			pen_put(&p, ROLE_PANEL, " ");
	}
	for (int x = p.x; x < c->g->w; x++)
		grid_put(c->g, x, y, c->gl->hrule, ROLE_RULER);
}

/* ---- title, steps, ruler ----------------------------------------------- */

static void ruler_label(char *buf, size_t n, int64_t rel, int64_t unit, int dec,
    const char *uname);

/*
 * A window edge relative to t0: units_format()'s 4 digits ("+224 ms"),
 * unless the window is too narrow for them to tell its edges apart; then
 * as many decimals as its span needs ("+224.00001 ms").
 */
static char *
fmt_pos(char *buf, size_t n, const struct view *v, int64_t ts_ns)
{
	static const struct {
		int64_t ns;
		const char *name;
	} units[] = {
		{ 1000000000, " s" }, { 1000000, " ms" }, { 1000, " us" },
	};
	int64_t rel = ts_ns - v->t0_ns, span = v->end_ns - v->start_ns;
	int64_t mag = rel < 0 ? -rel : rel;

	if (span <= 0 || span >= mag / 1000)
		return fmt_rel(buf, n, v, ts_ns);
	for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
		int dec = 0;
		int64_t q = units[u].ns;

		if (mag < units[u].ns)
			continue;
		/* decimals down to a tenth of the span */
		while (dec < 9 && q > span / 10 && q > 1) {
			q /= 10;
			dec++;
		}
		ruler_label(buf, n, rel, units[u].ns, dec, units[u].name);
		return buf;
	}
	return fmt_rel(buf, n, v, ts_ns);
}

static void
draw_title(struct rctx *c, const struct render_opts *o)
{
	const struct view *v = c->v;
	char files[512], win[256], rank[96], a[48], b[48], s[48];
	int w = c->g->w, fw, x;

	grid_fill(c->g, 0, 0, w, 1, ' ', ROLE_TITLE);
	if (o->title != NULL)
		snprintf(files, sizeof files, "%s", o->title);
	else if (v->nan > 0)
		snprintf(files, sizeof files, "%s", v->an[0].t->path);
	else
		files[0] = '\0';
	if (v->nan == 0 && v->xr != NULL)
		snprintf(win, sizeof win, "%zu ranks, %zu steps, %zu collectives matched",
		    v->xr->nparts, v->xr->nsteps, v->xr->ncolls);
	else
		snprintf(win, sizeof win, "window %s .. %s (%s)",
		    fmt_pos(a, sizeof a, v, v->start_ns),
		    fmt_pos(b, sizeof b, v, v->end_ns),
		    units_format(s, sizeof s, v->end_ns - v->start_ns));
	rank[0] = '\0';
	if (v->nan > 0) {
		const struct analysis *an = view_current(v);

		if (an->device >= 0)
			snprintf(rank, sizeof rank, "rank %lld dev %d",
			    (long long)an->t->rank, (int)an->device);
		else
			snprintf(rank, sizeof rank, "rank %lld", (long long)an->t->rank);
		if (v->nan > 1) {
			size_t l = strlen(rank);

			snprintf(rank + l, sizeof rank - l, " (%zu/%zu)", v->rank + 1,
			    v->nan);
		}
	}
	/* "gantty  FILES  WINDOW  RANK": the files give way first */
	x = put_text(c, 0, 0, w, ROLE_TITLE, "gantty  ");
	fw = w - x - 2 - text_cols(win) - (rank[0] ? 2 + text_cols(rank) : 0);
	if (fw > text_cols(files))
		fw = text_cols(files);
	if (fw >= 4) {
		x += put_fit(c, x, 0, fw, ROLE_TITLE, files);
		x += 2;
	}
	x += put_fit(c, x, 0, w - x, ROLE_TITLE, win);
	if (rank[0] && x + 2 + text_cols(rank) <= w)
		put_text(c, x + 2, 0, w - x - 2, ROLE_TITLE, rank);
}

static int
cmp_i64(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;

	return a < b ? -1 : a > b;
}

/* The time range a step is drawn and selected by: its GPU extent, else CPU. */
static void
step_range(const struct step *s, int64_t *a, int64_t *b)
{
	*a = s->has_gpu ? s->gpu_start_ns : s->start_ns;
	*b = s->has_gpu ? s->gpu_end_ns : s->end_ns;
}

static void
draw_steps(struct rctx *c)
{
	const struct view *v = c->v;
	const struct analysis *an;
	int64_t max = 0;
	int cells, x, y = 1;
	long first_in = -1, last_in = -1;
	size_t nout = 0;
	char text[256], d[48];

	draw_label(c, y, ROLE_LABEL, "steps");
	if (v->nan == 0)
		return;
	an = view_current(v);
	if (an->nsteps == 0) {
		put_text(c, c->x0, y, c->ncols, ROLE_PANEL, "no ProfilerStep annotations");
		return;
	}
	for (size_t i = 0; i < an->nsteps; i++) {
		int64_t a, b;

		if (an->steps[i].end_ns - an->steps[i].start_ns > max)
			max = an->steps[i].end_ns - an->steps[i].start_ns;
		step_range(&an->steps[i], &a, &b);
		if (a < v->end_ns && b > v->start_ns) {
			if (first_in < 0)
				first_in = (long)i;
			last_in = (long)i;
		}
		nout += an->steps[i].outlier != 0;
	}
	cells = an->nsteps < (size_t)c->ncols ? (int)an->nsteps : c->ncols;
	for (int k = 0; k < cells; k++) {
		size_t s0 = (size_t)k * an->nsteps / (size_t)cells;
		size_t s1 = (size_t)(k + 1) * an->nsteps / (size_t)cells;
		int64_t t = 0;
		int outlier = 0, inview = 0, sel = 0, base = 0, lvl;
		enum role role;
		uint32_t ch;

		for (size_t i = s0; i < s1; i++) {
			int64_t dur = an->steps[i].end_ns - an->steps[i].start_ns;

			if (dur > t)
				t = dur;
			outlier |= an->steps[i].outlier;
			inview |= (long)i >= first_in && (long)i <= last_in;
			sel |= v->sel == SEL_STEP && v->sel_index == (long)i;
			/* b's baseline step, where it is one of this rank's */
			base |= !v->compare && v->base_step == (long)i &&
			    v->base_rank == v->rank;
		}
		lvl = max > 0 ? (int)((t * c->gl->step_levels + max - 1) / max) : 1;
		if (lvl < 1)
			lvl = 1;
		if (lvl > c->gl->step_levels)
			lvl = c->gl->step_levels;
		ch = c->gl->step[lvl - 1];
		if (outlier && (c->ascii || c->mono))
			ch = c->gl->outlier;
		role = sel ? ROLE_SELECTED : outlier ? ROLE_OUTLIER :
		    inview ? ROLE_STEP : ROLE_DEFAULT;
		if (base)
			ch = 'A';       /* the baseline, in every glyph set */
		grid_put(c->g, c->x0 + k, y, ch, role);
	}

	/* then what the strip means: the selected step, else a summary */
	x = c->x0 + cells + 2;
	if (v->sel == SEL_STEP && v->sel_index >= 0 &&
	    (size_t)v->sel_index < an->nsteps) {
		const struct step *s = &an->steps[v->sel_index];
		struct pen p = { c, x, y, c->g->w };

		pen_put(&p, ROLE_VALUE, "%s", trace_str(an->t, an->t->events[s->event].name));
		pen_put(&p, ROLE_PANEL, "  ");
		pen_dur(&p, ROLE_VALUE, s->end_ns - s->start_ns);
		if (s->outlier)
			pen_put(&p, ROLE_BAD, "  outlier (z %.1f)", s->z);
		return;
	}
	{
		int64_t *durs = xcalloc(an->nsteps, sizeof *durs), med;
		size_t n = an->nsteps;

		for (size_t i = 0; i < n; i++)
			durs[i] = an->steps[i].end_ns - an->steps[i].start_ns;
		qsort(durs, n, sizeof *durs, cmp_i64);
		med = n % 2 ? durs[n / 2] : durs[n / 2 - 1] + (durs[n / 2] - durs[n / 2 - 1]) / 2;
		free(durs);
		snprintf(text, sizeof text, "%zu step%s, median %s", an->nsteps,
		    an->nsteps == 1 ? "" : "s", units_format(d, sizeof d, med));
	}
	{
		struct pen p = { c, x, y, c->g->w };

		if (x + 8 > c->g->w)
			return;
		pen_put(&p, ROLE_PANEL, "%s", text);
		if (first_in >= 0) {
			int64_t n0 = an->steps[first_in].number, n1 = an->steps[last_in].number;

			if (n0 == n1)
				pen_put(&p, ROLE_PANEL, ", in view #%lld", (long long)n0);
			else
				pen_put(&p, ROLE_PANEL, ", in view #%lld..#%lld",
				    (long long)n0, (long long)n1);
		}
		if (nout > 0) {
			pen_put(&p, ROLE_PANEL, ", ");
			pen_put(&p, ROLE_BAD, "%zu outlier%s", nout, nout > 1 ? "s" : "");
			for (size_t i = 0, shown = 0; i < an->nsteps && shown < 3; i++)
				if (an->steps[i].outlier) {
					pen_put(&p, ROLE_BAD, " #%lld",
					    (long long)an->steps[i].number);
					shown++;
				}
		}
	}
}

/* Formats a ruler label: rel_ns in unit (ns per unit), decimals digits. */
static void
ruler_label(char *buf, size_t n, int64_t rel, int64_t unit, int dec,
    const char *uname)
{
	uint64_t a = rel < 0 ? (uint64_t)0 - (uint64_t)rel : (uint64_t)rel;
	uint64_t ip = a / (uint64_t)unit, frac = a % (uint64_t)unit, div = (uint64_t)unit;

	if (dec < 0 || dec > 9)
		dec = dec < 0 ? 0 : 9;
	for (int i = 0; i < dec; i++)
		div /= 10;
	if (dec > 0)
		snprintf(buf, n, "%s%llu.%0*llu%s", rel < 0 ? "-" : "+",
		    (unsigned long long)ip, dec,
		    (unsigned long long)(div ? frac / div : 0), uname);
	else
		snprintf(buf, n, "%s%llu%s", rel < 0 ? "-" : "+",
		    (unsigned long long)ip, uname);
}

static void
draw_ruler(struct rctx *c)
{
	static const struct {
		int64_t ns;
		const char *name;
	} units[] = {
		{ 1000000000, "s" }, { 1000000, "ms" }, { 1000, "us" }, { 1, "ns" },
	};
	const struct view *v = c->v;
	int y = 2;
	int64_t span = v->end_ns - v->start_ns, step = 0, unit = 1, minor = 0;
	int64_t rs = v->start_ns - v->t0_ns, re = v->end_ns - v->t0_ns;
	const char *uname = "ns";
	int dec = 0;
	char d[48], lab[64];

	snprintf(lab, sizeof lab, "%s/col",
	    fmt_compact(d, sizeof d, c->ncols > 0 ? span / c->ncols : span));
	put_fit(c, 0, y, LABEL_COLS, ROLE_RULER, lab);
	if (span <= 0)
		return;

	/* the unit of the labels: that of the largest position shown */
	{
		int64_t big = re > -rs ? re : -rs;

		for (size_t u = 0; u < sizeof units / sizeof units[0]; u++)
			if (big >= units[u].ns || units[u].ns == 1) {
				unit = units[u].ns;
				uname = units[u].name;
				break;
			}
	}
	/* the smallest round step (1, 2, 5 x 10^k) whose labels do not collide */
	for (int64_t p = 1; p > 0 && p <= INT64_MAX / 10 && step == 0; p *= 10) {
		static const int mult[] = { 1, 2, 5 };

		for (int m = 0; m < 3 && step == 0; m++) {
			int64_t st = p * mult[m], q;
			double cols = (double)st * c->ncols / (double)span;
			int dd = 0, wl;

			if (cols < 3)
				continue;
			for (q = unit; dd < 9 && (st % q) != 0; dd++)
				q /= 10;
			ruler_label(lab, sizeof lab, re, unit, dd, uname);
			wl = text_cols(lab);
			if (cols >= wl + 2 || (double)st >= (double)span) {
				step = st;
				dec = dd;
				minor = mult[m] == 2 ? st / 4 : st / 5;
			}
		}
	}
	if (step <= 0)
		return;

	{
		int64_t k0 = rs >= 0 ? (rs + step - 1) / step : -((-rs) / step);

		for (int64_t k = k0; k * step < re; k++) {
			int64_t rel = k * step;
			int col = view_ns_col(v, v->t0_ns + rel);

			if (col < 0 || col >= c->ncols)
				continue;
			grid_put(c->g, c->x0 + col, y, c->gl->tick, ROLE_RULER);
			ruler_label(lab, sizeof lab, rel, unit, dec, uname);
			if (col + 1 + text_cols(lab) <= c->ncols)
				put_text(c, c->x0 + col + 1, y, text_cols(lab), ROLE_RULER, lab);
		}
	}
	/* minor ticks where they stand 4 columns apart or more, between blanks */
	if (minor > 0 && (double)minor * c->ncols / (double)span >= 4) {
		int64_t k0 = rs >= 0 ? (rs + minor - 1) / minor : -((-rs) / minor);

		for (int64_t k = k0; k * minor < re; k++) {
			int x = c->x0 + col_of(c, v->t0_ns + k * minor);
			struct cell *l = grid_at(c->g, x - 1, y), *m = grid_at(c->g, x, y);
			struct cell *r = grid_at(c->g, x + 1, y);

			if (m != NULL && m->ch == ' ' && (l == NULL || l->ch == ' ') &&
			    (r == NULL || r->ch == ' ' || x + 1 >= c->x0 + c->ncols))
				grid_put(c->g, x, y, c->gl->minor, ROLE_RULER);
		}
	}

	/* the selection's range, then the cursor */
	if (c->sel_end > c->sel_start && c->sel_start < v->end_ns &&
	    c->sel_end > v->start_ns) {
		int c0 = col_of(c, c->sel_start), c1 = col_of(c, c->sel_end - 1);

		for (int col = c0; col <= c1; col++) {
			struct cell *cl = grid_at(c->g, c->x0 + col, y);

			if (cl != NULL) {
				cl->role = ROLE_SELECTED;
				if (cl->ch == ' ' || cl->ch == c->gl->minor)
					cl->ch = c->gl->hrule;
			}
		}
	}
	if (v->cursor >= 0 && v->cursor < c->ncols) {
		struct cell *cl = grid_at(c->g, c->x0 + v->cursor, y);

		if (cl != NULL) {
			if (cl->ch == ' ' || cl->ch == c->gl->minor ||
			    (cl->ch == c->gl->hrule && cl->role == ROLE_SELECTED))
				cl->ch = c->gl->cursor;
			cl->role = ROLE_CURSOR;
			cl->reverse = 1;
		}
	}
}

/* ---- the panel --------------------------------------------------------- */

/* Writes a one-line summary of the selection; returns 0 if there is none. */
static int
selection_summary(struct rctx *c, struct pen *p)
{
	const struct view *v = c->v;
	const struct analysis *an;
	char a[48];

	if (v->nan == 0 || v->sel == SEL_NONE)
		return 0;
	an = view_current(v);
	switch (v->sel) {
	case SEL_STEP: {
		const struct step *s;
		struct window_metrics m;
		int64_t sa, sb;

		if (v->sel_index < 0 || (size_t)v->sel_index >= an->nsteps)
			return 0;
		s = &an->steps[v->sel_index];
		step_range(s, &sa, &sb);
		metrics_window(&an->dev, sa, sb, &m);
		pen_put(p, ROLE_PANEL, "selected ");
		pen_put(p, ROLE_VALUE, "step %lld", (long long)s->number);
		pen_put(p, ROLE_PANEL, ": ");
		pen_dur(p, ROLE_VALUE, s->end_ns - s->start_ns);
		pen_put(p, ROLE_PANEL, ", exposed ");
		pen_dur(p, bad_if(pct(m.exposed_comm_ns, sb - sa) >= 5), m.exposed_comm_ns);
		pen_put(p, ROLE_PANEL, ", idle ");
		pen_dur(p, bad_if(pct(m.idle_ns, sb - sa) >= 5), m.idle_ns);
		if (s->outlier)
			pen_put(p, ROLE_BAD, ", outlier z %.1f", s->z);
		return 1;
	}
	case SEL_LAYER: {
		const struct layer *l;

		if (v->sel_index < 0 || (size_t)v->sel_index >= an->nlayers)
			return 0;
		l = &an->layers[v->sel_index];
		pen_put(p, ROLE_PANEL, "selected ");
		pen_put(p, ROLE_VALUE, "%s %s", trace_str(an->t, l->name),
		    layers_phase_name(l->phase));
		if (l->step >= 0)
			pen_put(p, ROLE_PANEL, " (step %lld)", (long long)l->step);
		pen_put(p, ROLE_PANEL, ": comm ");
		pen_dur(p, ROLE_VALUE, l->comm_ns);
		pen_put(p, ROLE_PANEL, ", exposed ");
		pen_dur(p, bad_if(l->exposed_comm_ns > 0), l->exposed_comm_ns);
		pen_put(p, ROLE_PANEL, ", own exposed ");
		pen_dur(p, bad_if(l->own_exposed_comm_ns > 0), l->own_exposed_comm_ns);
		return 1;
	}
	case SEL_GAP:
		pen_put(p, ROLE_PANEL, "selected gap at %s: ",
		    fmt_rel(a, sizeof a, v, v->sel_gap.start_ns));
		pen_dur(p, ROLE_BAD, v->sel_gap.dur_ns);
		pen_put(p, ROLE_PANEL, " idle");
		return 1;
	case SEL_EVENT: {
		const struct event *e;
		char sbuf[256], tbuf[64];
		const char *name;

		if (v->sel_index < 0 || (size_t)v->sel_index >= an->t->nevents)
			return 0;
		e = &an->t->events[v->sel_index];
		name = display_name(an->t, e, sbuf, sizeof sbuf);
		pen_put(p, ROLE_PANEL, "selected ");
		pen_put(p, ROLE_VALUE, "%s", name);
		pen_put(p, ROLE_PANEL, ": ");
		if (e->flags & EVF_ACTIVITY)
			pen_put(p, ROLE_PANEL, "%s, ", trace_class_name((enum event_class)e->cls));
		pen_dur(p, ROLE_VALUE, e->dur_ns);
		pen_put(p, ROLE_PANEL, " at %s on %s", fmt_rel(a, sizeof a, v, e->ts_ns),
		    track_name(an->t, &an->t->tracks[e->track], tbuf, sizeof tbuf));
		return 1;
	}
	case SEL_FINDING: {
		char fbuf[512];

		render_diag_finding_text(fbuf, sizeof fbuf, v);
		pen_put(p, ROLE_PANEL, "%s", fbuf);
		return 1;
	}
	default:
		return 0;
	}
}

enum wline {
	WL_EXPOSED, WL_BUSY, WL_GAPS, WL_IDLE, WL_MFU, WL_LEGEND, WL_SEL, WL_RANKS,
	WL_MEMORY, WL_COMPARE, WL_BASELINE, WL_COUNT
};

static void
draw_window_line(struct rctx *c, struct pen *p, enum wline line)
{
	const struct view *v = c->v;
	const struct window_metrics *m = &v->m;
	int64_t span = m->end_ns - m->start_ns;
	char a[48], b[48];

	if (span <= 0)
		span = v->end_ns - v->start_ns;
	switch (line) {
	case WL_EXPOSED:
		pen_put(p, ROLE_PANEL, "T_exposed ");
		pen_dur(p, bad_if(pct(m->exposed_comm_ns, span) >= 5), m->exposed_comm_ns);
		pen_put(p, ROLE_PANEL, " (%.1f%%)  overlap ", pct(m->exposed_comm_ns, span));
		if (m->overlap_pct >= 0) {
			pen_put(p, bad_if(m->overlap_pct < 50), "%.1f%%", m->overlap_pct);
			pen_put(p, ROLE_PANEL, " of comm");
		} else
			pen_put(p, ROLE_VALUE, "-");
		pen_put(p, ROLE_PANEL, "  idle ");
		pen_dur(p, bad_if(pct(m->idle_ns, span) >= 5), m->idle_ns);
		pen_put(p, ROLE_PANEL, " (%.1f%%)", pct(m->idle_ns, span));
		break;
	case WL_BUSY:
		pen_put(p, ROLE_PANEL, "busy ");
		pen_dur(p, ROLE_VALUE, m->busy_ns);
		pen_put(p, ROLE_PANEL, " (%.1f%%)  compute ", pct(m->busy_ns, span));
		pen_dur(p, ROLE_VALUE, m->compute_ns);
		pen_put(p, ROLE_PANEL, "  comm ");
		pen_dur(p, ROLE_VALUE, m->comm_ns);
		pen_put(p, ROLE_PANEL, "  memory ");
		pen_dur(p, ROLE_VALUE, m->memory_ns);
		break;
	case WL_GAPS:
		pen_put(p, ROLE_PANEL, "gaps \xe2\x89\xa5 %s: ",
		    units_format(a, sizeof a, v->nan ? view_current(v)->dev.min_gap_ns : 0));
		pen_put(p, bad_if(m->gap_count > 0), "%zu", m->gap_count);
		if (m->gap_count > 0) {
			pen_put(p, ROLE_PANEL, ", total ");
			pen_dur(p, ROLE_VALUE, m->gap_total_ns);
			pen_put(p, ROLE_PANEL, ", largest ");
			pen_dur(p, ROLE_BAD, m->top[0].dur_ns);
			pen_put(p, ROLE_PANEL, " at %s",
			    fmt_rel(b, sizeof b, v, m->top[0].start_ns));
		}
		break;
	case WL_IDLE:
		pen_put(p, ROLE_PANEL, "idle: host wait ");
		pen_dur(p, ROLE_VALUE, m->idle_by_kind_ns[IDLE_HOST_WAIT]);
		pen_put(p, ROLE_PANEL, "  short kernel wait ");
		pen_dur(p, ROLE_VALUE, m->idle_by_kind_ns[IDLE_KERNEL_WAIT]);
		pen_put(p, ROLE_PANEL, "  other ");
		pen_dur(p, ROLE_VALUE, m->idle_by_kind_ns[IDLE_OTHER]);
		break;
	case WL_MFU:
		pen_put(p, ROLE_PANEL, "kernels ");
		pen_put(p, ROLE_VALUE, "%zu", v->kernels_in_view);
		pen_put(p, ROLE_PANEL, "  MFU ");
		if (v->mfu.has_value) {
			pen_put(p, ROLE_VALUE, "%.1f%%", 100.0 * v->mfu.value);
			pen_put(p, ROLE_PANEL, " (%s)", v->mfu.source ? v->mfu.source : "?");
			if (v->mfu.has_achieved) {
				pen_put(p, ROLE_PANEL, "  achieved ");
				pen_put(p, ROLE_VALUE, "%.1f", v->mfu.achieved_tflops);
				if (v->mfu.has_peak)
					pen_put(p, ROLE_PANEL, " of %.0f", v->mfu.peak_tflops);
				pen_put(p, ROLE_PANEL, " TFLOP/s");
			} else if (v->mfu.has_peak)
				pen_put(p, ROLE_PANEL, "  peak %.0f TFLOP/s", v->mfu.peak_tflops);
		} else {
			pen_put(p, ROLE_VALUE, "n/a");
			if (v->mfu.reason[0])
				pen_put(p, ROLE_PANEL, " (%s)", v->mfu.reason);
		}
		break;
	case WL_LEGEND: {
		char g[8];

		pen_put(p, ROLE_PANEL, "bubbles: ");
		snprintf(g, sizeof g, "%s", c->ascii ? "_" : "\xe2\x96\x91");
		pen_put(p, ROLE_BUBBLE, "%s", g);
		pen_put(p, ROLE_PANEL, " idle  ");
		pen_put(p, ROLE_EXPOSED, "%s", c->ascii ? "!" : "\xe2\x96\x80");
		pen_put(p, ROLE_PANEL, " exposed comm  ");
		pen_put(p, ROLE_OVERLAP, "%s", c->ascii ? "~" : "\xe2\x96\x93");
		pen_put(p, ROLE_PANEL, " overlapped comm  ");
		pen_put(p, ROLE_BUSY, "%s", c->ascii ? "=" : "\xe2\x96\x88");
		pen_put(p, ROLE_PANEL, " compute or memory only");
		break;
	}
	case WL_SEL:
		selection_summary(c, p);
		break;
	case WL_COMPARE: {
		char dbuf[256];

		render_diag_compare_text(dbuf, sizeof dbuf, v);
		pen_put(p, ROLE_VALUE, "%s", dbuf);
		break;
	}
	case WL_BASELINE: {
		char bbuf[256];

		render_diag_baseline_text(bbuf, sizeof bbuf, v);
		pen_put(p, ROLE_STEP, "%s", bbuf);
		break;
	}
	case WL_MEMORY: {
		char mbuf[160];

		render_diag_memory_text(mbuf, sizeof mbuf, v,
		    v->cursor >= 0 && v->cursor < c->ncols ? c->col_ns[v->cursor] :
		    v->start_ns);
		pen_put(p, ROLE_PANEL, "%s", mbuf[0] ? mbuf :
		    "memory: no [memory] events for this device");
		break;
	}
	case WL_RANKS: {
		const struct crossrank *x = v->xr;

		pen_put(p, ROLE_PANEL, "ranks %zu", x->nparts);
		if (x->straggler >= 0)
			pen_put(p, ROLE_PANEL, ", straggler rank %lld",
			    (long long)x->parts[x->straggler].rank);
		if (v->xr_worst >= 0) {
			const struct crossrank_coll *cc = &x->colls[v->xr_worst];
			char nm[512];

			pen_put(p, ROLE_PANEL, "  worst skew in view ");
			pen_dur(p, ROLE_BAD, cc->skew_ns);
			if (cc->last >= 0)
				pen_put(p, ROLE_PANEL, ", rank %lld last at ",
				    (long long)x->parts[cc->last].rank);
			else
				pen_put(p, ROLE_PANEL, " at ");
			pen_put(p, ROLE_PANEL, "%s", medium_kernel_name(
			    crossrank_str(x, cc->name), nm, sizeof nm));
		} else {
			pen_put(p, ROLE_PANEL, "  no arrival skew in view");
		}
		break;
	}
	default:
		break;
	}
}

/* The kernels table: a header and up to rows-1 of the top kernels. */
static void
draw_kernels(struct rctx *c, int x, int y, int w, int rows)
{
	const struct view *v = c->v;
	int64_t span = v->end_ns - v->start_ns;
	struct pen p = { c, x, y, x + w };

	if (rows <= 0)
		return;
	pen_put(&p, ROLE_LABEL, "%10s %6s %7s %-8s %s", "time", "window", "count",
	    "class", "top kernels in view");
	if (v->ntop == 0 && rows > 1) {
		p.x = x;
		p.y = y + 1;
		pen_put(&p, ROLE_PANEL, "no GPU activity in the window");
	}
	for (size_t i = 0; i < v->ntop && (int)i + 1 < rows; i++) {
		const struct kernel_total *k = &v->top[i];
		char d[48], mbuf[512];

		p.x = x;
		p.y = y + 1 + (int)i;
		pen_put(&p, ROLE_VALUE, "%10s", units_format(d, sizeof d, k->total_ns));
		pen_put(&p, ROLE_PANEL, " %5.1f%% %6llux ", pct(k->total_ns, span),
		    (unsigned long long)k->count);
		pen_put(&p, class_role(k->cls), "%-8s",
		    trace_class_name((enum event_class)k->cls));
		pen_put(&p, ROLE_PANEL, " ");
		if (v->nan > 0 && p.x < p.x1)
			p.x += put_fit(c, p.x, p.y, p.x1 - p.x, ROLE_PANEL,
			    medium_kernel_name(trace_str(view_current(v)->t, k->name),
			    mbuf, sizeof mbuf));
	}
}

static void
draw_window_panel(struct rctx *c, int y, int rows)
{
	static const struct {
		enum wline line;
		int prio;       /* lower shows first when rows are short */
	} lines[] = {
		{ WL_EXPOSED, 0 }, { WL_BUSY, 3 }, { WL_GAPS, 2 }, { WL_IDLE, 5 },
		{ WL_MFU, 4 }, { WL_LEGEND, 6 }, { WL_SEL, 1 }, { WL_RANKS, 2 },
		{ WL_MEMORY, 1 }, { WL_COMPARE, 0 }, { WL_BASELINE, 0 },
	};
	int n = (int)(sizeof lines / sizeof lines[0]);
	int show[WL_COUNT] = { 0 }, used = 0, sel = c->v->sel != SEL_NONE;
	struct view_baseline bl;
	int has_base = view_compare_baseline(c->v, &bl);
	int w = c->g->w, left = w, row = 0;

	for (int prio = 0; prio <= 6; prio++)
		for (int i = 0; i < n; i++)
			if (lines[i].prio == prio && used < rows &&
			    (lines[i].line != WL_SEL || sel) &&
			    (lines[i].line != WL_RANKS || (c->v->xr != NULL &&
			    !c->v->compare)) &&
			    (lines[i].line != WL_MEMORY || c->v->show_memory) &&
			    (lines[i].line != WL_COMPARE || c->v->compare) &&
			    (lines[i].line != WL_BASELINE || has_base)) {
				show[lines[i].line] = 1;
				used++;
			}
	if (c->v->nan > 0 && view_current(c->v)->device < 0) {
		struct pen p = { c, 1, y, w };

		pen_put(&p, ROLE_PANEL, "no GPU activity in this trace; ");
		pen_put(&p, ROLE_VALUE, "c");
		pen_put(&p, ROLE_PANEL, " %s the CPU lanes%s",
		    c->v->show_cpu ? "hides" : "shows",
		    c->v->nan > 1 ? ", r goes to the next rank" : "");
		if (sel && rows > 1) {
			p.x = 1;
			p.y++;
			selection_summary(c, &p);
		}
		return;
	}
	/* wide terminals: the top kernels on the right */
	if (w >= 160) {
		left = w / 2 - 1;
		draw_kernels(c, left + 2, y, w - left - 2, rows);
	}
	for (int i = 0; i < n; i++) {
		struct pen p = { c, 1, y + row, left };

		if (!show[lines[i].line])
			continue;
		draw_window_line(c, &p, lines[i].line);
		row++;
	}
	/* tall panels: the top kernels below, after a blank row */
	if (w < 160 && rows - row >= 4)
		draw_kernels(c, 1, y + row + 1, w - 2, rows - row - 1);
}

/* Prints "label value" pairs for the selection panel. */
static void
draw_event_details(struct rctx *c, int y, int rows)
{
	const struct view *v = c->v;
	const struct analysis *an = view_current(v);
	const struct trace *t = an->t;
	const struct event *e = &t->events[v->sel_index];
	const struct event_args *ea = trace_args(t, e);
	const struct track *tr = &t->tracks[e->track];
	int w = c->g->w, r = 0;
	char a[48], b[48], tn[64];
	struct pen p;

#define NEXT_ROW() (p.x = 1, p.y = y + r, p.x1 = w, r++ < rows)
	p.c = c;
	if (NEXT_ROW())
		put_fit(c, 1, p.y, w - 2, ROLE_VALUE, trace_str(t, e->name));
	if (NEXT_ROW()) {
		if (e->flags & EVF_ACTIVITY) {
			pen_put(&p, class_role(e->cls), "%s",
			    trace_class_name((enum event_class)e->cls));
			pen_put(&p, ROLE_PANEL, " on %s", track_name(t, tr, tn, sizeof tn));
		} else
			pen_put(&p, ROLE_PANEL, "%s on %s, depth %d",
			    trace_str(t, t->cats[e->cat]), track_name(t, tr, tn, sizeof tn),
			    e->depth);
		pen_put(&p, ROLE_PANEL, "  start %s  duration ",
		    fmt_rel(a, sizeof a, v, e->ts_ns));
		pen_dur(&p, ROLE_VALUE, e->dur_ns);
		if ((e->flags & EVF_ACTIVITY) && e->depth > 0)
			pen_put(&p, ROLE_PANEL, "  (row %d: overlaps another kernel)",
			    e->depth + 1);
	}
	if (NEXT_ROW()) {
		if (ea != NULL && ea->correlation != ID_NONE)
			pen_put(&p, ROLE_PANEL, "correlation %lld  ",
			    (long long)ea->correlation);
		if (e->link != EV_NONE && (e->flags & EVF_ACTIVITY)) {
			const struct event *l = &t->events[e->link];

			pen_put(&p, ROLE_PANEL, "launched by %s at %s, latency ",
			    trace_str(t, l->name), fmt_rel(b, sizeof b, v, l->ts_ns));
			pen_dur(&p, bad_if(e->ts_ns - l->ts_ns >= 1000000),
			    e->ts_ns - l->ts_ns);
		} else if (e->link != EV_NONE) {
			const struct event *k = &t->events[e->link];
			char sbuf[256];

			pen_put(&p, ROLE_PANEL, "launches %s at %s (latency ",
			    display_name(t, k, sbuf, sizeof sbuf),
			    fmt_rel(b, sizeof b, v, k->ts_ns));
			pen_dur(&p, ROLE_VALUE, k->ts_ns - e->ts_ns);
			pen_put(&p, ROLE_PANEL, ")");
		} else if (e->flags & EVF_SYNC)
			pen_put(&p, ROLE_SYNC, "CUDA synchronisation: the CPU waits for the GPU");
	}
	if (ea != NULL && ea->comm != EV_NONE && ea->comm < t->ncomms && NEXT_ROW()) {
		const struct comm_args *cm = &t->comms[ea->comm];

		pen_put(&p, ROLE_PANEL, "collective ");
		pen_put(&p, ROLE_VALUE, "%s", trace_str(t, cm->collective));
		if (cm->pg_name)
			pen_put(&p, ROLE_PANEL, "  group %s", trace_str(t, cm->pg_name));
		if (cm->group_size >= 0)
			pen_put(&p, ROLE_PANEL, " (%d ranks)", (int)cm->group_size);
		if (cm->dtype)
			pen_put(&p, ROLE_PANEL, "  %s", trace_str(t, cm->dtype));
		if (cm->in_nelems >= 0)
			pen_put(&p, ROLE_PANEL, "  in %lld", (long long)cm->in_nelems);
		if (cm->out_nelems >= 0)
			pen_put(&p, ROLE_PANEL, "  out %lld elements", (long long)cm->out_nelems);
		if (cm->seq >= 0)
			pen_put(&p, ROLE_PANEL, "  seq %lld", (long long)cm->seq);
	}
#undef NEXT_ROW
}

static void
draw_selection_panel(struct rctx *c, int y, int rows)
{
	const struct view *v = c->v;
	const struct analysis *an;
	struct pen p = { c, 1, y, c->g->w };
	char a[48], b[48];

	if (v->nan == 0 || rows <= 0)
		return;
	an = view_current(v);
	switch (v->sel) {
	case SEL_STEP:
		if (v->sel_index >= 0 && (size_t)v->sel_index < an->nsteps) {
			const struct step *s = &an->steps[v->sel_index];
			struct window_metrics m;
			int64_t sa, sb;

			pen_put(&p, ROLE_VALUE, "%s", trace_str(an->t, an->t->events[s->event].name));
			pen_put(&p, ROLE_PANEL, "  CPU ");
			pen_dur(&p, ROLE_VALUE, s->end_ns - s->start_ns);
			pen_put(&p, ROLE_PANEL, " (%s .. %s)", fmt_rel(a, sizeof a, v, s->start_ns),
			    fmt_rel(b, sizeof b, v, s->end_ns));
			if (rows < 2)
				return;
			p.x = 1;
			p.y++;
			if (s->has_gpu) {
				pen_put(&p, ROLE_PANEL, "GPU extent ");
				pen_dur(&p, ROLE_VALUE, s->gpu_end_ns - s->gpu_start_ns);
				pen_put(&p, ROLE_PANEL, " (%s .. %s)",
				    fmt_rel(a, sizeof a, v, s->gpu_start_ns),
				    fmt_rel(b, sizeof b, v, s->gpu_end_ns));
			} else
				pen_put(&p, ROLE_PANEL, "no GPU activity launched in this step");
			if (rows < 3)
				return;
			step_range(s, &sa, &sb);
			metrics_window(&an->dev, sa, sb, &m);
			p.x = 1;
			p.y++;
			pen_put(&p, ROLE_PANEL, "exposed comm ");
			pen_dur(&p, bad_if(pct(m.exposed_comm_ns, sb - sa) >= 5), m.exposed_comm_ns);
			pen_put(&p, ROLE_PANEL, " (%.1f%%)  idle ", pct(m.exposed_comm_ns, sb - sa));
			pen_dur(&p, bad_if(pct(m.idle_ns, sb - sa) >= 5), m.idle_ns);
			pen_put(&p, ROLE_PANEL, "  gaps %zu", m.gap_count);
			if (rows < 4)
				return;
			p.x = 1;
			p.y++;
			pen_put(&p, ROLE_PANEL, "step time z-score ");
			pen_put(&p, bad_if(s->outlier), "%.2f", s->z);
			if (s->outlier)
				pen_put(&p, ROLE_BAD, "  outlier: slower than the others");
		}
		return;
	case SEL_LAYER:
		if (v->sel_index >= 0 && (size_t)v->sel_index < an->nlayers) {
			const struct layer *l = &an->layers[v->sel_index];

			pen_put(&p, ROLE_VALUE, "%s", trace_str(an->t, l->name));
			pen_put(&p, ROLE_PANEL, "  %s", layers_phase_name(l->phase));
			if (l->step >= 0)
				pen_put(&p, ROLE_PANEL, "  step %lld", (long long)l->step);
			pen_put(&p, ROLE_PANEL, "  (%s)", layers_source_name(l->source));
			if (rows < 2)
				return;
			p.x = 1;
			p.y++;
			if (l->has_gpu) {
				pen_put(&p, ROLE_PANEL, "GPU extent ");
				pen_dur(&p, ROLE_VALUE, l->gpu_end_ns - l->gpu_start_ns);
				pen_put(&p, ROLE_PANEL, " (%s .. %s)",
				    fmt_rel(a, sizeof a, v, l->gpu_start_ns),
				    fmt_rel(b, sizeof b, v, l->gpu_end_ns));
			} else
				pen_put(&p, ROLE_PANEL, "no GPU activity launched by this layer");
			pen_put(&p, ROLE_PANEL, "  CPU ");
			pen_dur(&p, ROLE_VALUE, l->cpu_end_ns - l->cpu_start_ns);
			if (rows < 3)
				return;
			p.x = 1;
			p.y++;
			pen_put(&p, ROLE_PANEL, "compute ");
			pen_dur(&p, ROLE_VALUE, l->compute_ns);
			pen_put(&p, ROLE_PANEL, "  comm ");
			pen_dur(&p, ROLE_VALUE, l->comm_ns);
			pen_put(&p, ROLE_PANEL, "  exposed in extent ");
			pen_dur(&p, bad_if(l->exposed_comm_ns > 0), l->exposed_comm_ns);
			if (rows < 4)
				return;
			p.x = 1;
			p.y++;
			pen_put(&p, ROLE_PANEL, "own collectives ");
			pen_dur(&p, ROLE_VALUE, l->own_comm_ns);
			pen_put(&p, ROLE_PANEL, ", exposed ");
			pen_dur(&p, bad_if(l->own_exposed_comm_ns > 0), l->own_exposed_comm_ns);
			pen_put(&p, ROLE_PANEL, "  estimate max(0, comm - compute) ");
			pen_dur(&p, bad_if(l->estimate_exposed_ns > 0), l->estimate_exposed_ns);
		}
		return;
	case SEL_GAP: {
		const struct metrics *d = &an->dev;
		int64_t gs = v->sel_gap.start_ns, ge = gs + v->sel_gap.dur_ns;
		size_t lo = 0, hi = d->nacts;

		pen_put(&p, ROLE_PANEL, "gap at %s .. %s: ", fmt_rel(a, sizeof a, v, gs),
		    fmt_rel(b, sizeof b, v, ge));
		pen_dur(&p, ROLE_BAD, v->sel_gap.dur_ns);
		pen_put(&p, ROLE_PANEL, " with no GPU activity");
		/* the activities on either side: acts are sorted by start */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (an->t->events[d->acts[mid]].ts_ns < ge)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (rows >= 2 && lo > 0) {
			uint32_t best = d->acts[lo - 1];
			char sbuf[256];

			for (size_t k = lo - 1, seen = 0; seen < 64; k--, seen++) {
				if (event_end(&an->t->events[d->acts[k]]) >
				    event_end(&an->t->events[best]))
					best = d->acts[k];
				if (k == 0)
					break;
			}
			p.x = 1;
			p.y++;
			pen_put(&p, ROLE_PANEL, "before: %s, ended at %s",
			    display_name(an->t, &an->t->events[best], sbuf, sizeof sbuf),
			    fmt_rel(a, sizeof a, v, event_end(&an->t->events[best])));
		}
		if (rows >= 3 && lo < d->nacts) {
			const struct event *e = &an->t->events[d->acts[lo]];
			char sbuf[256];

			p.x = 1;
			p.y++;
			pen_put(&p, ROLE_PANEL, "after: %s at %s",
			    display_name(an->t, e, sbuf, sizeof sbuf),
			    fmt_rel(a, sizeof a, v, e->ts_ns));
			if (e->link != EV_NONE) {
				const struct event *l = &an->t->events[e->link];

				pen_put(&p, ROLE_PANEL, ", launched %s",
				    fmt_rel(b, sizeof b, v, l->ts_ns));
				if (l->ts_ns >= gs)
					pen_put(&p, ROLE_BAD, " in the gap: host wait");
				else
					pen_put(&p, ROLE_PANEL, " before the gap");
			}
		}
		return;
	}
	case SEL_EVENT:
		if (v->sel_index >= 0 && (size_t)v->sel_index < an->t->nevents)
			draw_event_details(c, y, rows);
		return;
	case SEL_FINDING:
		render_diag_findings_panel(c->g, 1, y, c->g->w - 2, rows, v, c->ascii);
		return;
	default:
		pen_put(&p, ROLE_PANEL, "nothing selected: ] [ a step, } { a layer, g a gap, "
		    "x the worst layer, / a name, or click an event");
		return;
	}
}

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
static void
draw_matrix_head(struct rctx *c)
{
	const struct crossrank *x = c->v->xr;
	const struct matrix *m = c->v->mx;
	int cols = matrix_cols(c);
	struct pen p = { c, c->x0, 1, c->g->w };
	static const int height[MATRIX_LEVELS] = { 1, 2, 4, 6, 8 };

	draw_label(c, 1, ROLE_LABEL, "rank x step");
	if (m->nsteps == 0) {
		pen_put(&p, ROLE_PANEL, "no ProfilerStep annotations on any rank");
		return;
	}
	pen_put(&p, ROLE_PANEL, "steps #%lld .. #%lld", (long long)x->steps[0].number,
	    (long long)x->steps[m->nsteps - 1].number);
	if ((size_t)cols < m->nsteps)
		pen_put(&p, ROLE_PANEL, ", %.1f steps a cell (the slowest shown)",
		    (double)m->nsteps / cols);
	pen_put(&p, ROLE_PANEL, "; %zu steps incomplete", x->steps_incomplete);
	draw_label(c, 2, ROLE_LABEL, "vs median");
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
		pen_put(&p, ROLE_PANEL, " %s  ", what[l]);
	}
	grid_put(c->g, p.x, 2, c->gl->outlier, ROLE_OUTLIER);
	p.x++;
	pen_put(&p, ROLE_PANEL, " outlier of its rank  ");
	grid_put(c->g, p.x, 2, c->ascii ? '-' : c->gl->minor, ROLE_DEFAULT);
	p.x++;
	pen_put(&p, ROLE_PANEL, " missing");
}

static void
draw_matrix_row(struct rctx *c, int y, const struct row_info *ri)
{
	static const int height[MATRIX_LEVELS] = { 1, 2, 4, 6, 8 };
	const struct crossrank *x = c->v->xr;
	const struct matrix *m = c->v->mx;
	size_t part = (size_t)ri->analysis;
	int cols = matrix_cols(c), cur = part == c->v->rank;
	char label[64];
	struct pen p = { c, 0, y, c->g->w };

	if (part >= x->nparts)
		return;
	part_label(x, part, label, sizeof label);
	if (cur)
		grid_put(c->g, 0, y, c->gl->current, ROLE_LABEL);
	put_fit(c, 1, y, LABEL_COLS - 1, cur ? ROLE_LABEL : ROLE_PANEL, label);
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
			role = l <= 2 ? ROLE_BUSY : l == 3 ? ROLE_EXPOSED : ROLE_BUBBLE;
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

		pen_put(&p, ROLE_PANEL, "outliers ");
		pen_put(&p, bad_if(m->noutliers[part] > 0), "%zu", m->noutliers[part]);
		pen_put(&p, ROLE_PANEL, "  last ");
		pen_put(&p, bad_if((int32_t)part == x->straggler), "%zu",
		    q->last_count);
		pen_put(&p, ROLE_PANEL, "  others waited ");
		pen_dur(&p, bad_if((int32_t)part == x->straggler), q->lost_ns);
	}
}

/* The panel of the matrix: the current participant against the others. */
static void
draw_matrix_panel(struct rctx *c, int y, int rows)
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
	pen_put(&p, ROLE_VALUE, "%s", label);
	pen_put(&p, ROLE_PANEL, ": %zu of %zu steps", have, m->nsteps);
	if (slow >= 0) {
		pen_put(&p, ROLE_PANEL, ", slowest vs the others #%lld: ",
		    (long long)x->steps[slow_s].number);
		pen_dur(&p, ROLE_VALUE, slow);
		pen_put(&p, ROLE_PANEL, " (median ");
		pen_dur(&p, ROLE_PANEL, m->median[slow_s]);
		pen_put(&p, ROLE_PANEL, ")");
	}
	pen_put(&p, ROLE_PANEL, ", outlier steps ");
	pen_put(&p, bad_if(m->noutliers[part] > 0), "%zu", m->noutliers[part]);
	if (++r >= rows)
		return;
	p.x = 1;
	p.y = y + r;
	pen_put(&p, ROLE_PANEL, "collectives %zu (%zu unmatched), last to arrive at ",
	    q->collectives, q->unmatched);
	pen_put(&p, bad_if((int32_t)part == x->straggler), "%zu", q->last_count);
	pen_put(&p, ROLE_PANEL, ": the others waited ");
	pen_dur(&p, bad_if((int32_t)part == x->straggler), q->lost_ns);
	pen_put(&p, ROLE_PANEL, " for it; it waited ");
	pen_dur(&p, ROLE_VALUE, q->wait_ns);
	if (++r >= rows)
		return;
	p.x = 1;
	p.y = y + r;
	if (x->straggler >= 0) {
		part_label(x, (size_t)x->straggler, label, sizeof label);
		pen_put(&p, ROLE_PANEL, "straggler ");
		pen_put(&p, ROLE_BAD, "%s", label);
		pen_put(&p, ROLE_PANEL, ": last at %zu of %zu collectives, the others waited ",
		    x->parts[x->straggler].last_count, x->ncolls);
		pen_dur(&p, ROLE_BAD, x->parts[x->straggler].lost_ns);
	} else {
		pen_put(&p, ROLE_PANEL, "no straggler: %zu collectives matched, none with a skew",
		    x->ncolls);
	}
	if (++r >= rows || m->nsteps == 0)
		return;
	p.x = 1;
	p.y = y + r;
	pen_put(&p, ROLE_PANEL, "widest step spread #%lld: ",
	    (long long)x->steps[worst].number);
	pen_dur(&p, ROLE_VALUE, x->steps[worst].spread_ns);
	if (x->steps[worst].slowest >= 0) {
		part_label(x, (size_t)x->steps[worst].slowest, label, sizeof label);
		pen_put(&p, ROLE_PANEL, ", slowest %s", label);
	}
}

static void
draw_panel(struct rctx *c, int y0, int rows)
{
	static const char *const tabs[PANEL_COUNT] = { "window", "kernels", "selection" };
	const struct view *v = c->v;
	const struct layout *lay = c->lay;
	int w = c->g->w, x = 0;
	char right[160], a[48];

	/* the title row: tabs (the current one in brackets), then where we are */
	for (int i = 0; i < w; i++)
		grid_put(c->g, i, y0, c->gl->hrule, ROLE_RULER);
	x = 1;
	if (v->mode == VIEW_MODE_MATRIX) {
		put_text(c, x, y0, w - x, ROLE_LABEL, "[rank x step]");
		if (lay->nlanes > lay->lanes_h) {
			int f = first_lane(lay, v);

			snprintf(right, sizeof right, " ranks %d-%d of %d ", f + 1,
			    f + lay->lanes_h, lay->nlanes);
			if (text_cols(right) + 16 < w)
				put_text(c, w - 1 - text_cols(right), y0, w, ROLE_RULER, right);
		}
		if (rows > 0)
			draw_matrix_panel(c, y0 + 1, rows);
		return;
	}
	for (int i = 0; i < PANEL_COUNT; i++) {
		char t[32];
		int n;

		snprintf(t, sizeof t, (int)v->panel == i ? "[%s]" : " %s ", tabs[i]);
		n = put_text(c, x, y0, w - x, (int)v->panel == i ? ROLE_LABEL : ROLE_RULER, t);
		if ((int)v->panel == i)
			for (int k = 1; k + 1 < n; k++) {
				struct cell *cl = grid_at(c->g, x + k, y0);

				if (cl != NULL)
					cl->reverse = 1;
			}
		x += n + 1;
	}
	right[0] = '\0';
	if (lay->nlanes > lay->lanes_h) {
		int f = first_lane(lay, v);

		snprintf(right, sizeof right, " lanes %d-%d of %d \xe2\x94\x80", f + 1,
		    f + lay->lanes_h, lay->nlanes);
	}
	if (v->cursor >= 0 && v->cursor < c->ncols) {
		size_t l = strlen(right);

		snprintf(right + l, sizeof right - l, " cursor %s ",
		    fmt_rel(a, sizeof a, v, c->col_ns[v->cursor]));
	}
	if (right[0] && x + text_cols(right) + 1 < w)
		put_text(c, w - 1 - text_cols(right), y0, w, ROLE_RULER, right);

	if (rows <= 0 || v->nan == 0)
		return;
	switch (v->panel) {
	case PANEL_KERNELS: {
		int sel = v->sel != SEL_NONE, kr = rows - sel;

		if (kr > (int)v->ntop + 1)
			kr = (int)(v->ntop > 0 ? v->ntop : 1) + 1;
		draw_kernels(c, 1, y0 + 1, w - 2, kr);
		if (sel) {
			struct pen p = { c, 1, y0 + 1 + kr, w };

			selection_summary(c, &p);
		}
		break;
	}
	case PANEL_SELECTION:
		draw_selection_panel(c, y0 + 1, rows);
		break;
	default:
		draw_window_panel(c, y0 + 1, rows);
		break;
	}
}

/* ---- the hint line and the help ---------------------------------------- */

static const char *
table_hint(const struct rctx *c)
{
	return c->v->compare ?
	    "j/k PgUp/PgDn row  Enter go to it  +/- arrows window  D lanes  ? help  q quit" :
	    "j/k PgUp/PgDn row  Enter go to it  ]/[ B  b baseline  D lanes  ? help  q quit";
}

static const char *
matrix_hint(const struct rctx *c)
{
	return c->v->nan > 0 ?
	    "r/R rank  j/k scroll  Enter its lanes  m lanes  ? help  q quit" :
	    "r/R rank  j/k scroll  Enter open its trace  ? help  q quit";
}

static void
draw_hint(struct rctx *c, int y)
{
	/* in display order; prio: lower stays longer as the width shrinks */
	static const struct {
		const char *keys, *ascii, *what;
		int prio;
	} items[] = {
		{ "\xe2\x86\x90\xe2\x86\x92", "<- ->", "pan", 0 },
		{ "+-", NULL, "zoom", 0 },
		{ "]/[", NULL, "step", 1 },
		{ "}/{", NULL, "layer", 2 },
		{ "o", NULL, "outlier", 4 },
		{ "g", NULL, "gap", 3 },
		{ "x", NULL, "worst", 5 },
		{ "/", NULL, "search", 4 },
		{ "r", NULL, "rank", 5 },
		{ "c", NULL, "cpu", 3 },
		{ "Tab", NULL, "panel", 1 },
		{ "?", NULL, "help", 0 },
		{ "q", NULL, "quit", 0 },
	};
	enum { N = sizeof items / sizeof items[0] };
	int w = c->g->w, x = 1, used = 0, show[N] = { 0 }, width[N];
	char buf[64];
	const char *hint;

	grid_fill(c->g, 0, y, w, 1, ' ', ROLE_HINT);
	if (c->v->message[0] != '\0') {
		put_fit(c, 1, y, w - 2, ROLE_HINT, c->v->message);
		return;
	}
	if (render_modes[c->v->mode].hint != NULL &&
	    (hint = render_modes[c->v->mode].hint(c)) != NULL) {
		put_fit(c, 1, y, w - 2, ROLE_HINT, hint);
		return;
	}
	for (int i = 0; i < N; i++) {
		snprintf(buf, sizeof buf, "%s %s",
		    c->ascii && items[i].ascii ? items[i].ascii : items[i].keys,
		    items[i].what);
		width[i] = text_cols(buf) + 2;
	}
	for (int prio = 0; prio <= 5; prio++)
		for (int i = 0; i < N; i++)
			if (items[i].prio == prio && (items[i].what[0] != 'r' ||
			    c->v->nan > 1) && used + width[i] <= w - 2) {
				show[i] = 1;
				used += width[i];
			}
	for (int i = 0; i < N; i++) {
		if (!show[i])
			continue;
		snprintf(buf, sizeof buf, "%s %s",
		    c->ascii && items[i].ascii ? items[i].ascii : items[i].keys,
		    items[i].what);
		x += put_text(c, x, y, w - x, ROLE_HINT, buf) + 2;
	}
}

static void
draw_help(struct rctx *c)
{
	enum { MAXCOL = 2 };
	int w = c->g->w, h = c->g->h, n = (int)keymap_len, ncol, per;
	int keyw[MAXCOL] = { 0, 0 }, helpw[MAXCOL] = { 0, 0 }, bw, bh, bx, by, x;
	const struct glyphs *gl = c->gl;
	char tb[128];

	/* one column when the rows fit (title and footer sit on the border) */
	ncol = n + 4 <= h ? 1 : 2;
	for (;;) {
		per = (n + ncol - 1) / ncol;
		keyw[0] = keyw[1] = helpw[0] = helpw[1] = 0;
		for (int i = 0; i < n; i++) {
			int col = i / per;
			int kw = text_cols(text_for(c->ascii, keymap[i].keys_text, tb,
			    sizeof tb));
			int hw = text_cols(keymap_help(keymap[i].cmd));

			keyw[col] = kw > keyw[col] ? kw : keyw[col];
			helpw[col] = hw > helpw[col] ? hw : helpw[col];
		}
		bw = 4 + (ncol - 1) * 3;
		for (int k = 0; k < ncol; k++)
			bw += keyw[k] + 2 + helpw[k];
		/* too wide: the help texts give way, the widest first */
		while (bw > w - 2 && (helpw[0] > 12 || helpw[1] > 12)) {
			int k = ncol > 1 && helpw[1] > helpw[0] ? 1 : 0;

			helpw[k]--;
			bw--;
		}
		if (bw <= w - 2 || ncol == 1)
			break;
		ncol = 1;       /* a small terminal: the rows that fit, cut */
	}
	if (bw > w - 2) {
		helpw[0] -= bw - (w - 2);
		bw = w - 2;
	}
	if (bw > w)
		bw = w;
	bh = per + 2;
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
	put_text(c, bx + 2, by, bw - 4, ROLE_LABEL, " gantty keys ");
	put_text(c, bx + 2, by + bh - 1, bw - 4, ROLE_HELP, " ? closes this help ");
	x = bx + 2;
	for (int k = 0; k < ncol; k++) {
		for (int i = k * per; i < n && i < (k + 1) * per; i++) {
			int y = by + 1 + (i - k * per);

			if (y > by + bh - 2)
				break;
			put_fit(c, x, y, keyw[k], ROLE_LABEL, keymap[i].keys_text);
			put_fit(c, x + keyw[k] + 2, y, helpw[k], ROLE_HELP,
			    keymap_help(keymap[i].cmd));
		}
		x += keyw[k] + 2 + helpw[k] + 3;
	}
}

static void
draw_too_small(struct grid *g, int ascii)
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
			step_range(&an->steps[v->sel_index], a, b);
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
		draw_too_small(g, opts->ascii);
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

	draw_title(&c, opts);
	render_modes[v->mode].draw(&c);
	draw_hint(&c, g->h - 1);
	if (v->help)
		draw_help(&c);
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
			draw_matrix_row(c, y, ri);
			continue;
		}
		if (ri->analysis < 0 || (size_t)ri->analysis >= v->nan)
			continue;
		switch (ri->kind) {
		case ROW_RANK:
			draw_rank_header(c, y, ri);
			break;
		case ROW_GPU:
			draw_gpu_lane(c, y, ri);
			break;
		case ROW_BASELINE:
			draw_baseline_lane(c, y, ri);
			break;
		case ROW_BUBBLE:
			draw_bubble_lane(c, y, ri);
			break;
		case ROW_CPU:
			draw_cpu_lane(c, y, ri);
			break;
		case ROW_MEMORY:
			render_diag_memory_lane(c->g, y, RENDER_LABEL_W, c->x0, c->ncols, v,
			    (size_t)ri->analysis, c->ascii);
			break;
		default:
			break;
		}
	}
	panel_y = lay->lanes_y + lay->lanes_h;
	panel_rows = c->g->h - 1 - panel_y - 1;
	if (panel_rows > PANEL_MAX_ROWS)
		panel_rows = PANEL_MAX_ROWS;
	draw_panel(c, panel_y, panel_rows);
}

/* All lanes or the overview: the step strip and the ruler over them. */
static void
draw_lanes_mode(struct rctx *c)
{
	draw_steps(c);
	draw_ruler(c);
	draw_lane_area(c);
}

/* The matrix: its head over the participants' rows. */
static void
draw_matrix_mode(struct rctx *c)
{
	draw_matrix_head(c);
	draw_lane_area(c);
}

/* The diff table fills the area. */
static void
draw_table_mode(struct rctx *c)
{
	render_compare(c->g, 1, c->g->h - 2, c->v, c->ascii);
}

static const struct render_mode render_modes[VIEW_MODE_COUNT] = {
	[VIEW_MODE_LANES] = { 1, lanes_layout, draw_lanes_mode, NULL },
	[VIEW_MODE_OVERVIEW] = { 1, lanes_layout, draw_lanes_mode, NULL },
	[VIEW_MODE_MATRIX] = { 1, lanes_layout, draw_matrix_mode, matrix_hint },
	[VIEW_MODE_COMPARE_TABLE] = { 0, table_layout, draw_table_mode, table_hint },
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
	if ((ri->kind != ROW_GPU && ri->kind != ROW_CPU) || ri->analysis < 0 ||
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

		if (ev->depth != ri->depth)
			continue;
		if (ri->kind == ROW_GPU && !(ev->flags & EVF_ACTIVITY))
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
