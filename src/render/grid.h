/*
 * grid — an off-screen buffer of character cells.
 *
 * Rendering writes cells here; the same grid feeds the terminal (tui), the
 * --render text output and the tests, so what is tested is what is shown.
 * A cell holds one Unicode code point (one terminal column wide; gantty only
 * draws such glyphs) and a style role.  Roles name what a cell shows, not its
 * colour: style.c maps each role to colours and to a monochrome attribute.
 * Coordinates are (x, y) from the top-left, 0-based; writes outside the grid
 * are clipped silently.  A grid owns its cells.
 */
#ifndef GANTTY_GRID_H
#define GANTTY_GRID_H

#include <stdint.h>
#include <stdio.h>

/*
 * Style roles, the one palette: X(name, fg, bg, bold, mono, what) with fg and
 * bg ANSI colour numbers (0 black, 1 red, 2 green, 3 yellow, 4 blue,
 * 5 magenta, 6 cyan, 7 white; -1 the terminal's default), bold 0/1, and the
 * attribute used without colours: GRID_MONO_*.  Without colour, bubbles and
 * exposed communication also differ by glyph (render.c), never by colour
 * alone.
 */
#define GRID_MONO_NORMAL 0
#define GRID_MONO_BOLD 1
#define GRID_MONO_REVERSE 2
#define GRID_MONO_UNDERLINE 3
#define GRID_MONO_DIM 4
#define GRID_ROLES(X) \
	X(DEFAULT,  -1, -1, 0, GRID_MONO_NORMAL,    "plain text") \
	X(TITLE,     7,  4, 1, GRID_MONO_REVERSE,   "the title line") \
	X(RULER,     6, -1, 0, GRID_MONO_NORMAL,    "the time ruler") \
	X(LABEL,    -1, -1, 1, GRID_MONO_BOLD,      "lane labels") \
	X(COMPUTE,   2, -1, 0, GRID_MONO_NORMAL,    "compute kernels") \
	X(COMM,      4, -1, 1, GRID_MONO_NORMAL,    "NCCL / communication kernels") \
	X(MEMORY,    5, -1, 0, GRID_MONO_NORMAL,    "memcpy and memset") \
	X(BUBBLE,    1, -1, 1, GRID_MONO_BOLD,      "idle device time (a bubble)") \
	X(EXPOSED,   3, -1, 1, GRID_MONO_UNDERLINE, "communication that no compute hides") \
	X(OVERLAP,   6, -1, 0, GRID_MONO_NORMAL,    "communication overlapped by compute") \
	X(BUSY,      2, -1, 0, GRID_MONO_NORMAL,    "the device computing (bubble lane)") \
	X(CPU,       7, -1, 0, GRID_MONO_NORMAL,    "CPU slices") \
	X(SYNC,      1, -1, 1, GRID_MONO_BOLD,      "CUDA synchronisation calls") \
	X(STEP,      6, -1, 0, GRID_MONO_NORMAL,    "training steps") \
	X(OUTLIER,   1, -1, 1, GRID_MONO_REVERSE,   "outlier steps") \
	X(CURSOR,   -1, -1, 0, GRID_MONO_REVERSE,   "the cursor column") \
	X(SELECTED,  0,  3, 0, GRID_MONO_REVERSE,   "the selected event, step or layer") \
	X(MATCH,     0,  6, 0, GRID_MONO_UNDERLINE, "search matches") \
	X(PANEL,    -1, -1, 0, GRID_MONO_NORMAL,    "the metrics panel") \
	X(VALUE,    -1, -1, 1, GRID_MONO_BOLD,      "numbers in the panel") \
	X(BAD,       1, -1, 1, GRID_MONO_BOLD,      "bad numbers: exposed comm, idle, warnings") \
	X(HINT,      0,  7, 0, GRID_MONO_REVERSE,   "the key hint line") \
	X(HELP,     -1, -1, 0, GRID_MONO_NORMAL,    "the help overlay") \
	X(ANNOT,     5, -1, 0, GRID_MONO_NORMAL,    "gpu_user_annotation spans") \
	X(BAND,      6, -1, 0, GRID_MONO_NORMAL,    "the step and layer bands") \
	X(MARK,      0,  5, 0, GRID_MONO_REVERSE,   "the range between the marks (< >)") \
	X(COUNTER,   3, -1, 0, GRID_MONO_NORMAL,    "counter lanes") \
	GRID_PACKED_ROLES(X)

/*
 * The overview's packed rows (two ranks a row, render_lanes.c): an upper
 * half block whose foreground is the upper rank's bubble state and whose
 * background the lower rank's.  States: I idle (red), E exposed (yellow),
 * O overlapped (cyan), B busy (green).
 */
#define GRID_PACK_ROW(X, u, fu) \
	X(PK_##u##I, fu, 1, 0, GRID_MONO_NORMAL, "packed ranks: " #u " over idle") \
	X(PK_##u##E, fu, 3, 0, GRID_MONO_NORMAL, "packed ranks: " #u " over exposed") \
	X(PK_##u##O, fu, 6, 0, GRID_MONO_NORMAL, "packed ranks: " #u " over overlapped") \
	X(PK_##u##B, fu, 2, 0, GRID_MONO_NORMAL, "packed ranks: " #u " over busy")
#define GRID_PACKED_ROLES(X) \
	GRID_PACK_ROW(X, I, 1) GRID_PACK_ROW(X, E, 3) GRID_PACK_ROW(X, O, 6) \
	GRID_PACK_ROW(X, B, 2)

enum role {
#define X(name, fg, bg, bold, mono, what) ROLE_##name,
	GRID_ROLES(X)
#undef X
	ROLE_COUNT
};

/*
 * A cell holds one column.  A character two columns wide (CJK, emoji) is
 * its code point in one cell and GRID_TAIL in the next; combining marks
 * (zero columns) ride on the cell before them.  A head without its tail
 * (one overwritten) is drawn as '?', a tail without its head as a blank,
 * so a frame never has more or fewer columns than the grid.
 */
#define GRID_TAIL 0x110000u     /* the second column of a wide character */
#define GRID_MARKS 2            /* combining marks kept per cell */

struct cell {
	uint32_t ch;            /* Unicode code point; ' ' when blank */
	uint32_t mark[GRID_MARKS];      /* combining marks on it, 0: none */
	uint8_t role;           /* enum role */
	uint8_t reverse;        /* draw in reverse video (cursor, selection) */
};

struct grid {
	int w, h;
	struct cell *cells;     /* w * h, row-major */
};

/* Makes g a w x h grid of blank DEFAULT cells (w, h >= 0). */
void grid_init(struct grid *g, int w, int h);
/* Frees the cells; g may be zeroed. */
void grid_free(struct grid *g);
/* Blanks every cell. */
void grid_clear(struct grid *g);
/* Returns the cell at (x, y), or NULL outside the grid. */
struct cell *grid_at(struct grid *g, int x, int y);
/* Draws cells [x0, x1) of row y in reverse video (clipped). */
void grid_reverse(struct grid *g, int x0, int x1, int y);
/*
 * Whether cells[x] (of a row of w) is the head of a wide character whose
 * tail is there, so that it may be drawn as itself.
 */
int grid_wide_at(const struct cell *row, int x, int w);
/* Sets the cell at (x, y) (clipped). */
void grid_put(struct grid *g, int x, int y, uint32_t ch, enum role role);
/*
 * Writes the UTF-8 text s at (x, y), at most maxw columns (maxw < 0: to the
 * grid's edge), in role: wide characters in two cells (they stop the text
 * where only one column is left), combining marks on the character before
 * them; invalid UTF-8 bytes, controls and bidirectional controls become
 * '?'.  With ascii set, non-ASCII code points become '?' (one column).
 * Returns the number of columns written.
 */
int grid_print(struct grid *g, int x, int y, int maxw, enum role role,
    int ascii, const char *s);
/* Fills the rectangle [x, x+w) x [y, y+h) with ch in role (clipped). */
void grid_fill(struct grid *g, int x, int y, int w, int h, uint32_t ch,
    enum role role);
/*
 * Writes the grid to out as text, one line per row with trailing blanks
 * removed, code points as UTF-8.  With ansi set, roles (and reverse) become
 * SGR escapes from GRID_ROLES' colours.  Returns 0, or -1 on a write error.
 */
int grid_write(const struct grid *g, FILE *out, int ansi);

#endif
