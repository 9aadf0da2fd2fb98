/*
 * style — roles to curses attributes (see style.h).
 */
#include "config.h"

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif

#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "render/grid.h"
#include "tui/style.h"

struct role_def {
	short fg, bg;
	int bold, mono;
};

static const struct role_def roles[ROLE_COUNT] = {
#define X(name, fg, bg, bold, mono, what) [ROLE_##name] = { fg, bg, bold, mono },
	GRID_ROLES(X)
#undef X
};

static unsigned long attrs[ROLE_COUNT];  /* zero (A_NORMAL) until style_init */

static unsigned long
mono_attr(int mono)
{
	switch (mono) {
	case GRID_MONO_BOLD: return A_BOLD;
	case GRID_MONO_REVERSE: return A_REVERSE;
	case GRID_MONO_UNDERLINE: return A_UNDERLINE;
	case GRID_MONO_DIM: return A_DIM;
	default: return A_NORMAL;
	}
}

/* 1 if the terminal's name says it shows no colours, whatever terminfo says. */
static int
term_is_mono(void)
{
	const char *term = getenv("TERM");
	size_t n;

	if (term == NULL || *term == '\0' || strcmp(term, "dumb") == 0 ||
	    strcmp(term, "vt100") == 0)
		return 1;
	n = strlen(term);
	return n >= 5 && strcmp(term + n - 5, "-mono") == 0;
}

/* 1 if colour is wanted and the terminal can show it. */
static int
want_color(int color_mode)
{
	const char *no_color = getenv("NO_COLOR");

	if (color_mode == STYLE_COLOR_NEVER)
		return 0;
	/* NO_COLOR yields to an explicit --color=always, as no-color.org asks */
	if (color_mode != STYLE_COLOR_ALWAYS && no_color != NULL &&
	    *no_color != '\0')
		return 0;
	return has_colors() && !term_is_mono();
}

int
style_init(int color_mode)
{
	int defaults;

	for (int r = 0; r < ROLE_COUNT; r++)
		attrs[r] = mono_attr(roles[r].mono);
	if (!want_color(color_mode) || start_color() == ERR)
		return 0;
	/* -1 is the terminal's own colour where the terminal allows it */
	defaults = use_default_colors() == OK;
	if (COLOR_PAIRS <= ROLE_COUNT || COLORS < 8)
		return 0;
	for (int r = 0; r < ROLE_COUNT; r++) {
		short fg = roles[r].fg, bg = roles[r].bg;

		if (!defaults && fg < 0)
			fg = COLOR_WHITE;
		if (!defaults && bg < 0)
			bg = COLOR_BLACK;
		if (init_pair((short)(r + 1), fg, bg) == ERR) {
			for (int k = 0; k < ROLE_COUNT; k++)
				attrs[k] = mono_attr(roles[k].mono);
			return 0;
		}
		attrs[r] = COLOR_PAIR(r + 1) | (roles[r].bold ? A_BOLD : A_NORMAL);
	}
	return 1;
}

unsigned long
style_attr(enum role role, int reverse)
{
	unsigned long a = (unsigned)role < ROLE_COUNT ? attrs[role] : A_NORMAL;

	return reverse ? a | A_REVERSE : a;
}
