/*
 * render_int — what the files of render/ share, and only they include: the
 * frame's geometry, the glyph set, the frame being drawn (struct rctx), the
 * table of the viewer's modes' drawing, and the functions one file draws
 * with and another calls.  render.h is the public side (the layout and the
 * frame); this header is private to the .c files of src/render.
 *
 * The files, top of the frame to bottom: render.c (the layout, the frame,
 * the mode table), render_ruler.c (title, step strip, ruler),
 * render_lanes.c (the lanes and the events under each column),
 * render_matrix.c (the rank x step matrix), render_panel.c (the panel),
 * render_hint.c (the hint line, the help, "too small"); render_text.c has
 * the text and number helpers they all use.  Every function draws into
 * c->g from the view c->v, which it only reads.
 *
 * It does not include render.h (render.c includes this header): a file
 * that uses LABEL_COLS or the layout includes render.h itself.
 */
#ifndef GANTTY_RENDER_INT_H
#define GANTTY_RENDER_INT_H

#include <stddef.h>
#include <stdint.h>

#include "render/grid.h"

struct event;
struct layout;
struct render_opts;
struct row_info;
struct step;
struct trace;
struct track;
struct view;

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
#define PANEL_MAX_ROWS 30
#define PANEL_AUTO_ROWS 16      /* the panel rows kept when lanes show by themselves */
#define NAME_MIN_COLS 8         /* a name is written in runs this wide */
#define COL_SAMPLES 12          /* events looked at per dense column */
#define TRACK_SAMPLES 256       /* events looked at for a stream's class */
#define LABEL_COLS (RENDER_LABEL_W - 1)


/* The glyphs of one frame: UTF-8 or ASCII (render.c has both sets). */
struct glyphs {
	uint32_t shade[5];      /* busy fraction 0, (0, 1/4], .. (3/4, 1] */
	uint32_t idle, exposed, overlap, busy;  /* the bubble lane */
	uint32_t step[9];       /* step heights 1 .. 8 (UTF-8) or 1 .. 9 */
	int step_levels;
	uint32_t outlier;       /* an outlier step without colour */
	uint32_t hrule, vrule, tl, tr, bl, br;
	uint32_t tick, minor, cursor, current, ellipsis, selected;
	uint32_t focus;         /* the lane the keyboard is on */
};

/* The frame being drawn. */
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

/* Indexed by enum view_mode (view.h); in render.c. */
extern const struct render_mode render_modes[];

/*
 * A pen writes formatted segments left to right on one row, each in its own
 * role, and clips at x1.
 */
struct pen {
	struct rctx *c;
	int x, y, x1;
};

/* render_text.c: text, numbers and names, the pen */
const char *render_display_name(const struct trace *t, const struct event *e,
    char *buf, size_t n);
char *render_fmt_compact(char *buf, size_t n, int64_t ns);
char *render_fmt_rel(char *buf, size_t n, const struct view *v, int64_t ts_ns);
const char *render_medium_kernel_name(const char *name, char *buf, size_t n);
double render_pct(int64_t part, int64_t whole);
void render_pen_dur(struct pen *p, enum role role, int64_t ns);
void render_pen_put(struct pen *p, enum role role, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int render_put_fit(struct rctx *c, int x, int y, int maxw, enum role role,
    const char *s);
int render_put_text(struct rctx *c, int x, int y, int maxw, enum role role,
    const char *s);
int render_text_cols(const char *s);
const char *render_text_for(int ascii, const char *s, char *buf, size_t n);
const char *render_thread_label(const char *name, char *buf, size_t n);
const char *render_track_name(const struct trace *t, const struct track *tr,
    char *buf, size_t n);

/* render_ruler.c: the title, the step strip, the ruler */
void render_draw_ruler(struct rctx *c);
void render_draw_steps(struct rctx *c);
void render_draw_title(struct rctx *c, const struct render_opts *o);
void render_step_range(const struct step *s, int64_t *a, int64_t *b);

/* render_lanes.c: the lanes and their labels */
enum role render_bad_if(int bad);
enum role render_class_role(int cls);
int render_col_of(const struct rctx *c, int64_t ts_ns);
void render_draw_baseline_lane(struct rctx *c, int y, const struct row_info *ri);
void render_draw_bubble_lane(struct rctx *c, int y, const struct row_info *ri);
void render_draw_cpu_lane(struct rctx *c, int y, const struct row_info *ri);
void render_draw_annot_lane(struct rctx *c, int y, const struct row_info *ri);
void render_draw_step_band(struct rctx *c, int y, const struct row_info *ri);
void render_draw_layer_band(struct rctx *c, int y, const struct row_info *ri);
void render_draw_counter_lane(struct rctx *c, int y, const struct row_info *ri);
void render_draw_gpu_lane(struct rctx *c, int y, const struct row_info *ri);
void render_draw_label(struct rctx *c, int y, enum role role, const char *s);
/* The first lane row shown: the view's scroll, kept in range. */
int render_first_lane(const struct layout *lay, const struct view *v);
/* The role the critical path draws part (enum dg_part, depgraph.h) in. */
enum role render_path_role(int part);
/* The critical path of the step in view (ROW_PATH, view_whatif.h). */
void render_draw_path_band(struct rctx *c, int y, const struct row_info *ri);
void render_draw_rank_header(struct rctx *c, int y, const struct row_info *ri);

/* render_matrix.c: the rank x step matrix */
void render_draw_matrix_head(struct rctx *c);
/*
 * The first row a list of n rows shows in vis rows so that row is among
 * them, from top as it last was, never past the end; render_text.c.
 */
size_t render_scroll_top(size_t row, size_t top, size_t vis, size_t n);
/* The steps or layers table (view_table.h) in rows [y, y + rows); render_table.c. */
void render_draw_table(struct rctx *c, int y, int rows);
void render_draw_matrix_panel(struct rctx *c, int y, int rows);
void render_draw_matrix_row(struct rctx *c, int y, const struct row_info *ri);

/* render_panel.c: the panel */
void render_draw_panel(struct rctx *c, int y0, int rows);

/* render_hint.c: the hint line, the help, too small */
void render_draw_help(struct rctx *c);
/*
 * The hint line's items (render_hint.c): a command of the key table, the
 * key text shown for it, its word, its priority (lower stays longer) and
 * when it applies (enum hint_when there).
 */
struct hint_item {
	int cmd;                /* enum view_cmd (view.h) */
	const char *keys, *ascii, *what;
	int prio, when;
};
extern const struct hint_item render_hints[];
extern const size_t render_hints_len;
void render_draw_hint(struct rctx *c, int y);
void render_draw_too_small(struct grid *g, int ascii);
const char *render_matrix_hint(const struct rctx *c);
const char *render_table_hint(const struct rctx *c);
const char *render_vtable_hint(const struct rctx *c);

#endif
