/*
 * view — the viewer's state and the commands on it that every mode shares,
 * with no terminal: the visible window, the zoom stack, the cursor, the
 * current rank, the selection (step, layer, event or gap), the search,
 * toggles, the mode stack.
 *
 * The analyses (one per rank and device, see analysis.h) are not owned; the
 * view reads them.  The visible window [start_ns, end_ns) maps onto `cols`
 * screen columns of the time area: column c covers
 * [start + c * span / cols, start + (c + 1) * span / cols) (integer
 * arithmetic on the int64 span, exact, no drift), so every nanosecond of the
 * window belongs to exactly one column.  The window is kept inside the
 * bounds [t0_ns, t1_ns) (all loaded events) and is never narrower than
 * `cols` nanoseconds.
 *
 * Commands return what changed (VIEW_RECALC: the window moved, so column
 * buckets and the panel's metrics must be recomputed; VIEW_REPAINT: only
 * the drawing changed), and the loop in tui.c does the rest (STYLE habit 6).
 *
 * The viewer shows one mode at a time (enum view_mode): what takes the keys
 * that move and what fills the area under the title.  The modes form a
 * stack, as tmux's pane modes do: v->mode is shown, v->under[0 ..
 * nunder) are the modes it goes back to when it is left, under[0] (or mode
 * itself when nunder is 0) is always a lanes mode (LANES or OVERVIEW), and
 * no mode is on the stack twice.  The modes' keys, refresh and state live
 * above this file, in command.c (view/command.h), since they reach the
 * comparison and diagnosis state (view_compare.h, view_diag.h), which are
 * built on this file.  This file is the core: the window, the cursor, the
 * selection, the numbers of the window, and the mode stack itself; going
 * to steps, layers, gaps and matches is view_nav.h's.  The help (?) is not
 * a mode but an overlay drawn over any mode: every key keeps working under
 * it.  Lane toggles (CPU, memory) and --compare (v->compare, two traces)
 * are not modes either.
 */
#ifndef GANTTY_VIEW_H
#define GANTTY_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/analysis.h"
#include "analysis/metrics.h"
#include "analysis/mfu.h"

#define VIEW_ZOOM_DEPTH 64
#define VIEW_OVERVIEW_RANKS 8
#define VIEW_PAGE_DEFAULT 10

/*
 * Commands: X(name, brief, what it does), in the order of the help.  The
 * key table (keymap.c) binds keys to them; the brief, at most 14 columns,
 * is what the ? overlay shows when the whole text does not fit (80x24).
 */
#define VIEW_COMMANDS(X) \
	X(PAN_LEFT, "pan left", "pan left") \
	X(PAN_RIGHT, "pan right", "pan right") \
	X(CURSOR_LEFT, "cursor left", "move the cursor a column left, the window staying") \
	X(CURSOR_RIGHT, "cursor right", "move the cursor a column right, the window staying") \
	X(LANE_UP, "lane above", "focus the lane above (the lanes scroll with it; overview, matrix: scroll)") \
	X(LANE_DOWN, "lane below", "focus the lane below") \
	X(NEXT_EVENT, "select next", "select the event under the cursor in the focused lane, then the next") \
	X(PREV_EVENT, "select prev", "select the event under the cursor in the focused lane, then the previous") \
	X(FOLLOW_LINK, "kernel/launch", "jump between a kernel and its launch call (an op: its first kernel)") \
	X(LAUNCH_OP, "launching op", "the op that launched the selected kernel (a CPU event: the one around it)") \
	X(CLICK, "select there", "select the event under the pointer; the cursor goes there") \
	X(PAGE_UP, "page up", "scroll a page up (lanes, matrix, diff table)") \
	X(PAGE_DOWN, "page down", "scroll a page down") \
	X(ZOOM_IN, "zoom in", "zoom in around the cursor") \
	X(ZOOM_OUT, "zoom out", "zoom out around the cursor") \
	X(ZOOM_SELECTED, "go to selected", "zoom to the selected step, layer, gap or event (matrix: open the rank; D table: its row)") \
	X(FIT, "fit everything", "fit everything") \
	X(FIT_RANK, "fit rank's GPU", "fit the current rank's own GPU span: the report's window") \
	X(UNZOOM, "back", "back to the place before (window, rank, selection): a zoom, jump or search undone") \
	X(FORWARD, "forward", "forward again to the place z left") \
	X(MARK_A, "mark 1", "set mark 1 at the cursor: with both marks the panel measures the range") \
	X(MARK_B, "mark 2", "set mark 2 at the cursor") \
	X(CLEAR_MARKS, "clear marks", "clear the marks: the panel measures the window again") \
	X(ZOOM_MARKS, "zoom to marks", "zoom to the range between the marks (mouse: drag across the lanes to set them)") \
	X(NEXT_STEP, "next step", "step under the cursor, then the next") \
	X(PREV_STEP, "previous step", "step under the cursor, then the previous") \
	X(NEXT_LAYER, "next layer", "layer under the cursor, then the next (step: its first)") \
	X(PREV_LAYER, "previous layer", "layer under the cursor, then the previous (step: last)") \
	X(NEXT_OUTLIER, "next outlier", "outlier step under or after the cursor, then the next") \
	X(SLOWEST_STEP, "slowest step", "the slowest step: select it and zoom to it") \
	X(NEXT_GAP, "next gap", "gap (bubble) under or after the cursor, then the next") \
	X(PREV_GAP, "previous gap", "gap under or before the cursor, then the previous") \
	X(WORST_LAYER, "worst exposed", "the worst exposed-comm layer in view") \
	X(LONGEST_KERNEL, "longest kernel", "the longest kernel of the selected step or layer (none: in view)") \
	X(WORST_SKEW, "worst skew", "the next-worst collective arrival skew across ranks") \
	X(NEXT_FINDING, "next finding", "next finding: select it and go to its evidence (Enter: next range)") \
	X(CRITICAL_PATH, "critical path", "show or hide the critical path of the step in view: a lane and its split by kind") \
	X(NEXT_WHATIF, "next what-if", "what-if: the next scenario's gain over the step in view (comm=2, no-host-wait...)") \
	X(SEARCH, "search names", "search event names (a regular expression; see VIEWER)") \
	X(NEXT_MATCH, "next match", "next match") \
	X(PREV_MATCH, "previous match", "previous match") \
	X(NEXT_RANK, "next rank", "next rank") \
	X(PREV_RANK, "previous rank", "previous rank") \
	X(TOGGLE_CPU, "CPU lanes", "show or hide the CPU lanes (shown by themselves when there is room)") \
	X(TOGGLE_PYTHON, "Python frames", "show or fold away with_stack's Python frames in the CPU lanes") \
	X(TOGGLE_COUNTERS, "counter lanes", "show or hide the counter lanes (C events)") \
	X(TOGGLE_OVERVIEW, "overview", "overview: one bubble lane per rank, or all lanes") \
	X(TOGGLE_MATRIX, "rank x step", "rank x step matrix: every rank's step times, outliers marked") \
	X(TOGGLE_MEMORY, "memory lanes", "show or hide the memory lanes") \
	X(SORT_WAITED, "ranks by wait", "ranks by how long the others waited for them (again: by rank)") \
	X(MARK_BASELINE, "baseline A", "mark the step in view as the baseline A (again: unmark it)") \
	X(TOGGLE_DIFF, "diff B - A", "diff table B - A: steps, layers, kernels (Enter: go to the row)") \
	X(TABLE_STEPS, "steps table", "table of the rank's steps, sorted by any column (Left Right; Enter: go to the row)") \
	X(TABLE_LAYERS, "layers table", "table of the layers of the step in view, sorted by any column") \
	X(PANEL, "switch panel", "switch the panel: window, kernels, selection") \
	X(HELP, "this help", "show or hide this help") \
	X(QUIT, "quit", "quit")

enum view_cmd {
#define X(name, brief, what) CMD_##name,
	VIEW_COMMANDS(X)
#undef X
	CMD_COUNT
};

enum view_change {
	VIEW_NONE = 0,
	VIEW_REPAINT = 1,
	VIEW_RECALC = 2 | 1,
	VIEW_QUIT = 4,
};

enum view_sel {
	SEL_NONE = 0,
	SEL_STEP,               /* sel_index: index into an[rank].steps */
	SEL_LAYER,              /* sel_index: index into an[rank].layers */
	SEL_EVENT,              /* sel_index: event index in an[rank].t */
	SEL_GAP,                /* sel_gap */
	SEL_FINDING,            /* sel_index: index into the rank's findings (view_diag.h) */
};

enum view_panel {
	PANEL_WINDOW = 0,       /* the window's metrics */
	PANEL_KERNELS,          /* the top kernels in view */
	PANEL_SELECTION,        /* everything about the selection */
	PANEL_COUNT
};

enum view_mode {
	VIEW_MODE_LANES = 0,    /* every lane of every rank */
	VIEW_MODE_OVERVIEW,     /* one bubble lane per rank (v); at start with
	                           more than VIEW_OVERVIEW_RANKS analyses */
	VIEW_MODE_MATRIX,       /* the rank x step matrix (m): only with
	                           v->xr and v->mx; always shown without
	                           analyses */
	VIEW_MODE_COMPARE_TABLE, /* the diff table B - A (D; view_compare.h) */
	VIEW_MODE_TABLE,        /* the steps or layers table (T, L; view_table.h) */
	VIEW_MODE_COUNT
};

/*
 * A place visited (view_history.h): the window, the current rank, the
 * selection and the cursor.
 */
struct view_place {
	int64_t start_ns, end_ns;
	size_t rank;
	enum view_sel sel;
	long sel_index;
	struct gap sel_gap;
	int cursor;
};

/*
 * The lane the keyboard is on (Up / Down; view_select.h): a lane of
 * view_lanes.h by its kind (enum row_kind), analysis, track and depth, so
 * that it stays on its lane when lanes come and go; kind 0 is none.
 */
struct view_focus {
	int kind;
	int analysis;
	uint32_t track;
	int depth;
};

struct view_lanes;              /* the lanes' per-trace tables: view_lanes.h */
struct source_args;             /* an event's args from its file: load/source.h */
struct view_priv;               /* view.c's caches: see view_release() */
struct view_diag;               /* findings and memory: see view_diag.h */
struct view_compare;                /* the diff table: see view_compare.h */
struct view_nav;                /* the search's match set: see view_nav.h */
struct view_whatif;             /* the critical path and what-if: view_whatif.h */
struct vt_table;                /* the steps and layers tables: view_table.h */

struct view {
	const struct analysis *an;      /* nan analyses, by rank then device */
	size_t nan;
	int64_t t0_ns, t1_ns;           /* bounds */
	int64_t start_ns, end_ns;       /* the visible window */
	struct view_place zooms[VIEW_ZOOM_DEPTH]; /* places to go back to (z:
	                                   the zooms and jumps, view_history.h) */
	int nzoom;
	struct view_place ahead[VIEW_ZOOM_DEPTH]; /* places to go forward to (y) */
	int nahead;
	int cols;                       /* columns of the time area, >= 1 */
	int cursor;                     /* cursor column, 0 .. cols-1 */
	size_t rank;                    /* the current analysis (r / R) */
	int lane_scroll;                /* first lane row shown */
	int show_cpu;
	enum view_mode mode;            /* the mode shown (see the top) */
	enum view_mode under[VIEW_MODE_COUNT]; /* the modes to go back to,
	                                   under[0] the lanes mode */
	int nunder;
	enum view_panel panel;
	int help;                       /* the help overlay (?) is shown */
	enum view_sel sel;
	long sel_index;                 /* SEL_GAP: index into an[rank].dev.gaps */
	struct gap sel_gap;
	char query[128];                /* the last search, "" if none */
	long match_ev;                  /* the event the search selected last
	                                   (-1 none): it is match match_k of
	                                   match_n of the current rank */
	uint64_t match_k, match_n;
	char message[160];              /* feedback on the last command for the
	                                   hint line, "" if none (each command
	                                   clears it first) */
	/* recomputed on VIEW_RECALC by view_measure(): the current rank's window */
	struct window_metrics m;
	struct mfu_result mfu;
	struct kernel_total top[METRICS_TOP_K];
	size_t ntop;
	size_t kernels_in_view;
	struct crossrank *xr;           /* owned; with several analyses (or
	                                   from reports), else NULL */
	struct matrix *mx;              /* owned: the rank x step matrix of xr */
	int open_rank;                  /* set when Enter in the matrix of a view
	                                   without analyses asks to open the
	                                   current participant's trace (then the
	                                   command returns VIEW_QUIT) */
	long xr_worst;                  /* the matched collective with the largest
	                                   arrival skew starting in the window, or -1 */
	int xr_next;                    /* S: the next of xr->top to visit */
	struct view_priv *priv;         /* owned: per-analysis MFU and activity
	                                   caches, the search's name set */
	int show_memory;                /* M: the memory lanes */
	int sort_waited;                /* W: the overview's and the matrix's
	                                   ranks by crossrank lost_ns, largest
	                                   first (ties: rank order) */
	int compare;                    /* --compare: an[0] is A, an[1] is B, on
	                                   one time axis; the panel shows B - A */
	struct view_diag *diag;         /* owned, NULL until first used */
	int page;                       /* rows of a page (PgUp / PgDn): the lane
	                                   area's height, set by the loop; <= 0
	                                   means VIEW_PAGE_DEFAULT */
	long base_step;                 /* b: the baseline step A, an index into
	                                   an[base_rank].steps; -1 if none */
	size_t base_rank;
	struct view_compare *cmp;           /* owned, NULL until first used */
	struct view_nav *nav;           /* owned, NULL until the first search */
	struct view_lanes *lanes;       /* owned: what the lanes keep per trace
	                                   (view_lanes.h), NULL until prepared */
	int show_python;                /* p: the CPU lanes show with_stack's
	                                   Python frames (else folded away) */
	int show_counters;              /* C: the counter lanes */
	int cpu_auto;                   /* the CPU lanes show by themselves when
	                                   all lanes then fit lane_room (until
	                                   c is pressed: view_lanes.h) */
	int lane_room;                  /* rows the lanes may fill without
	                                   scrolling, set by whoever lays the
	                                   frame out; 0: unknown (no auto) */
	struct view_focus focus;        /* the lane the keyboard is on */
	int64_t mark_ns[2];             /* < and >: the marks, if set */
	int marks;                      /* bit k: mark k is set */
	struct source_args *args;       /* owned: the args of the event
	                                   args_ev of args_t, read back from
	                                   its file (view_select.h), or NULL */
	const struct trace *args_t;
	long args_ev;
	struct source_args *op_args;    /* owned: the args of op_ev, the
	                                   launching op of a selected kernel,
	                                   read with args (or NULL) */
	uint32_t op_ev;
	struct view_whatif *wi;         /* owned, NULL until first used */
	struct vt_table *table;         /* owned, NULL until the first T or L */
};

/*
 * Initialises v over an[0..nan) with bounds [t0_ns, t1_ns), cols columns,
 * the window fitted to all GPU activity (else the bounds), and computes it.
 * v is overwritten (not freed); free it with view_free()
 * (command.h).  MFU uses default
 * options (op FLOPs, the peak from the device name) until view_set_opts().
 * When the bounds are narrower than cols ns, they are widened to
 * [t0_ns, t0_ns + cols).
 */
void view_init(struct view *v, const struct analysis *an, size_t nan,
    int64_t t0_ns, int64_t t1_ns, int cols);
/*
 * Takes the MFU options (opts->mfu, opts->ranks_loaded; copied) that the
 * analyses were built with, so that the panel's MFU for the window matches
 * the report's, and recomputes the window's numbers (view_measure()).
 */
void view_set_opts(struct view *v, const struct analysis_opts *opts);
/*
 * Gives v (initialised without analyses) the cross-rank analysis x of
 * participants read back from reports (report_set.h): v owns x from now on,
 * shows its matrix (VIEW_MODE_MATRIX), and r / R move over its participants.
 */
void view_set_crossrank(struct view *v, struct crossrank *x);
/* Returns how many ranks r / R move over: analyses, else participants. */
size_t view_nranks(const struct view *v);
/*
 * Frees what the core owns: the cross-rank analysis, its matrix and the
 * caches; v may be NULL or zeroed.  view_free() (command.h) frees the modes'
 * and the diagnosis state too, then calls this.
 */
void view_release(struct view *v);
/* Fills p with the place v shows (view_history.h). */
void view_here(const struct view *v, struct view_place *p);
/* Returns the first nanosecond of column col (col may be cols: the end). */
int64_t view_col_ns(const struct view *v, int col);
/* Returns the column holding ts_ns, clamped to [-1, cols] outside the window. */
int view_ns_col(const struct view *v, int64_t ts_ns);
/*
 * Sets the window to [start_ns, end_ns) after clamping (see above); with
 * push, the old window goes on the zoom stack.  Returns VIEW_RECALC if the
 * window changed, else VIEW_NONE.
 */
int view_set_window(struct view *v, int64_t start_ns, int64_t end_ns, int push);
/*
 * Shows mode m over the mode shown, which it goes back to when it is left
 * (view_pop_mode()); nothing when m is shown already.  m is MATRIX or
 * COMPARE_TABLE: the lanes modes are set with view_set_base_mode().
 */
void view_push_mode(struct view *v, enum view_mode m);
/* Leaves the mode shown for the one under it; nothing on the lanes mode. */
void view_pop_mode(struct view *v);
/* Shows lanes mode m alone: every mode over the lanes mode is left. */
void view_reset_mode(struct view *v, enum view_mode m);
/* Returns whether mode m is shown or under the mode shown. */
int view_mode_on(const struct view *v, enum view_mode m);
/* Returns the lanes mode at the bottom of the stack (LANES or OVERVIEW). */
enum view_mode view_base_mode(const struct view *v);
/*
 * Makes lanes mode m the bottom of the stack, the modes over it staying
 * (v under the matrix changes the lanes that m goes back to).
 */
void view_set_base_mode(struct view *v, enum view_mode m);
/*
 * Runs a command that every mode shares and that needs no analysis to go
 * to (panning, zooming, the lanes' scroll, ranks, the worst arrival skew,
 * the CPU lanes, the panel, the help, quit); returns the enum view_change
 * flags, VIEW_NONE for a command it does not run.  view_do() (command.h)
 * gives the mode shown the keys first, runs the commands that change modes
 * or reach the comparison and diagnosis state, and the navigation
 * (view_nav.h), then this.  O(log n) per command.
 */
int view_do_common(struct view *v, enum view_cmd cmd);
/*
 * Zooms to [a, b) with a margin of 2% of its length each side, the old
 * window pushed on the zoom stack.  Returns VIEW_RECALC if the window
 * changed, else VIEW_NONE.
 */
int view_zoom_to(struct view *v, int64_t a, int64_t b);
/*
 * Moves a table's cursor *row (of n rows) by `by` rows, clamped, and its
 * first row shown *top so that the cursor stays within a page (v->page).
 */
void view_list_move(const struct view *v, size_t *row, size_t *top, size_t n,
    long by);
/*
 * Centres [a, b) keeping the zoom (not pushed: a pan), or zooms to it
 * (view_zoom_to()) when it is wider than the window; the cursor goes to a.
 * Returns the change, VIEW_REPAINT at least.
 */
int view_centre_on(struct view *v, int64_t a, int64_t b);
/* Returns the time at the window's centre. */
/*
 * Whether the window lies within [a, b) widened by view_zoom_to()'s
 * margins: the window is on that item (zoomed to it, or into it).
 */
int view_shows_only(const struct view *v, int64_t a, int64_t b);
int64_t view_win_centre(const struct view *v);
/* Returns the time of the cursor: the first nanosecond of its column. */
int64_t view_cursor_ns(const struct view *v);
/* Moves the cursor to column col (clamped).  Returns VIEW_REPAINT. */
int view_set_cursor(struct view *v, int col);
/* Selects event ev of the current rank's trace.  Returns VIEW_REPAINT. */
int view_select_event(struct view *v, uint32_t ev);
/*
 * Recomputes the current rank's numbers for the window, or the marked
 * range (m, mfu, top; xr_worst for the window).  view_recalc() (command.h) also refreshes the mode shown.
 */
void view_measure(struct view *v);
/*
 * The marked range (< and >, view_select.h): returns 1 and sets [*a, *b)
 * when both marks are set (in either order; never empty), else 0.  With
 * it, view_measure() measures the range instead of the window.
 */
int view_marked_range(const struct view *v, int64_t *a, int64_t *b);
/* Returns the current analysis. */
static inline const struct analysis *
view_current(const struct view *v)
{
	return &v->an[v->rank];
}

#endif
