/*
 * style — the grid's roles (grid.h) as terminal attributes: colour pairs
 * when the terminal has colours and colour is wanted, else the monochrome
 * column of GRID_ROLES (bold, reverse, underline, dim).
 *
 * Colour is used with --color=always, or with --color=auto unless NO_COLOR
 * is set to a non-empty value (https://no-color.org); in both cases only
 * when the terminal can show colours (has_colors(), and TERM not dumb,
 * vt100 or a *-mono entry).  --color=never is always monochrome.
 *
 * This header does not include curses, so main can use the colour modes;
 * style.c and tui.c are the only files that include curses.  State is
 * global (one screen), set by style_init() and read by style_attr().
 */
#ifndef GANTTY_STYLE_H
#define GANTTY_STYLE_H

#include "render/grid.h"

enum style_color {
	STYLE_COLOR_AUTO = 0,
	STYLE_COLOR_ALWAYS,
	STYLE_COLOR_NEVER,
};

/*
 * Decides colour or monochrome for color_mode (enum style_color) and, with
 * colour, starts colours and makes one colour pair per role.  Call after
 * curses is initialised (initscr/newterm).  Returns 1 when colours are used,
 * 0 for monochrome.  Cannot fail: any trouble with colours means mono.
 */
int style_init(int color_mode);
/*
 * Returns the curses attributes to draw a cell of role with (A_* bits, and
 * COLOR_PAIR(n) bits with colour: split them with PAIR_NUMBER() for
 * setcchar()); reverse adds reverse video.  Before style_init(): A_NORMAL.
 */
unsigned long style_attr(enum role role, int reverse);

#endif
