/*
 * keymap — the one key table (see keymap.h).
 */
#include "config.h"

#include <stddef.h>

#include "view/keymap.h"

/*
 * In VIEW_COMMANDS order, one binding per command, so that the ? overlay,
 * `gantty --keys` and the man page's KEYS section list the commands in the
 * order view.h gives them (test_keymap checks both).  keys_text names every
 * key of the binding: Left Right Up Down Enter Tab Esc Backspace Shift-Left Shift-Right,
 * "click" for mouse button 1, "wheel up/down" for the mouse wheel, PgUp PgDn for
 * the page keys, Ctrl-C for key 3, and characters as themselves.
 */
const struct binding keymap[] = {
	{ { KEYMAP_LEFT, 'h', 'a' },            "Left h a",       CMD_PAN_LEFT, NULL },
	{ { KEYMAP_RIGHT, 'l', 'd' },           "Right l d",      CMD_PAN_RIGHT, NULL },
	{ { '(', KEYMAP_SLEFT },                "( Shift-Left",   CMD_CURSOR_LEFT, "(" },
	{ { ')', KEYMAP_SRIGHT },               ") Shift-Right",  CMD_CURSOR_RIGHT, ")" },
	{ { KEYMAP_UP, 'k' },                   "Up k",           CMD_LANE_UP, NULL },
	{ { KEYMAP_DOWN, 'j' },                 "Down j",         CMD_LANE_DOWN, NULL },
	{ { '.' },                              ".",              CMD_NEXT_EVENT, NULL },
	{ { ',' },                              ",",              CMD_PREV_EVENT, NULL },
	{ { 'J' },                              "J",              CMD_FOLLOW_LINK, NULL },
	{ { 'u' },                              "u",              CMD_LAUNCH_OP, NULL },
	{ { KEYMAP_CLICK },                     "click",          CMD_CLICK, NULL },
	{ { KEYMAP_PGUP },                      "PgUp",           CMD_PAGE_UP, NULL },
	{ { KEYMAP_PGDN },                      "PgDn",           CMD_PAGE_DOWN, NULL },
	{ { '+', '=', 'w', KEYMAP_WHEEL_UP },   "+ = w wheel up", CMD_ZOOM_IN, "+ = w" },
	{ { '-', 's', KEYMAP_WHEEL_DOWN },      "- s wheel down", CMD_ZOOM_OUT, "- s" },
	{ { KEYMAP_ENTER },                     "Enter",          CMD_ZOOM_SELECTED, NULL },
	{ { 'f' },                              "f",              CMD_FIT, NULL },
	{ { 'F' },                              "F",              CMD_FIT_RANK, NULL },
	{ { 'z', KEYMAP_BACKSPACE },            "z Backspace",    CMD_UNZOOM, "z" },
	{ { 'y' },                              "y",              CMD_FORWARD, NULL },
	{ { '<' },                              "<",              CMD_MARK_A, NULL },
	{ { '>' },                              ">",              CMD_MARK_B, NULL },
	{ { KEYMAP_ESC },                       "Esc",            CMD_CLEAR_MARKS, NULL },
	{ { 'Z' },                              "Z",              CMD_ZOOM_MARKS, NULL },
	{ { ']' },                              "]",              CMD_NEXT_STEP, NULL },
	{ { '[' },                              "[",              CMD_PREV_STEP, NULL },
	{ { '}' },                              "}",              CMD_NEXT_LAYER, NULL },
	{ { '{' },                              "{",              CMD_PREV_LAYER, NULL },
	{ { 'o' },                              "o",              CMD_NEXT_OUTLIER, NULL },
	{ { 'O' },                              "O",              CMD_SLOWEST_STEP, NULL },
	{ { 'g' },                              "g",              CMD_NEXT_GAP, NULL },
	{ { 'G' },                              "G",              CMD_PREV_GAP, NULL },
	{ { 'x' },                              "x",              CMD_WORST_LAYER, NULL },
	{ { 'K' },                              "K",              CMD_LONGEST_KERNEL, NULL },
	{ { 'S' },                              "S",              CMD_WORST_SKEW, NULL },
	{ { 'e' },                              "e",              CMD_NEXT_FINDING, NULL },
	{ { 'P' },                              "P",              CMD_CRITICAL_PATH, NULL },
	{ { 'i' },                              "i",              CMD_NEXT_WHATIF, NULL },
	{ { '/' },                              "/",              CMD_SEARCH, NULL },
	{ { 'n' },                              "n",              CMD_NEXT_MATCH, NULL },
	{ { 'N' },                              "N",              CMD_PREV_MATCH, NULL },
	{ { 'r' },                              "r",              CMD_NEXT_RANK, NULL },
	{ { 'R' },                              "R",              CMD_PREV_RANK, NULL },
	{ { 'c' },                              "c",              CMD_TOGGLE_CPU, NULL },
	{ { 'p' },                              "p",              CMD_TOGGLE_PYTHON, NULL },
	{ { 'C' },                              "C",              CMD_TOGGLE_COUNTERS, NULL },
	{ { 'v' },                              "v",              CMD_TOGGLE_OVERVIEW, NULL },
	{ { 'm' },                              "m",              CMD_TOGGLE_MATRIX, NULL },
	{ { 'M' },                              "M",              CMD_TOGGLE_MEMORY, NULL },
	{ { 'W' },                              "W",              CMD_SORT_WAITED, NULL },
	{ { 'b' },                              "b",              CMD_MARK_BASELINE, NULL },
	{ { 'D' },                              "D",              CMD_TOGGLE_DIFF, NULL },
	{ { 'T' },                              "T",              CMD_TABLE_STEPS, NULL },
	{ { 'L' },                              "L",              CMD_TABLE_LAYERS, NULL },
	{ { KEYMAP_TAB },                       "Tab",            CMD_PANEL, NULL },
	{ { '?' },                              "?",              CMD_HELP, NULL },
	{ { 'q', 3 },                           "q Ctrl-C",       CMD_QUIT, NULL },
};

const size_t keymap_len = sizeof keymap / sizeof keymap[0];

/* Linear: 57 bindings, one lookup per key press. */
int
keymap_lookup(int key)
{
	if (key == 0)
		return -1;
	for (size_t i = 0; i < keymap_len; i++)
		for (int j = 0; j < KEYMAP_MAX_KEYS && keymap[i].keys[j] != 0; j++)
			if (keymap[i].keys[j] == key)
				return (int)keymap[i].cmd;
	return -1;
}

static const char *const help_text[CMD_COUNT] = {
#define X(name, brief, what) [CMD_##name] = what,
	VIEW_COMMANDS(X)
#undef X
};

static const char *const brief_text[CMD_COUNT] = {
#define X(name, brief, what) [CMD_##name] = brief,
	VIEW_COMMANDS(X)
#undef X
};

const char *
keymap_brief(enum view_cmd cmd)
{
	if ((int)cmd < 0 || cmd >= CMD_COUNT)
		return "";
	return brief_text[cmd];
}

const char *
keymap_help(enum view_cmd cmd)
{
	if ((int)cmd < 0 || cmd >= CMD_COUNT)
		return "";
	return help_text[cmd];
}
