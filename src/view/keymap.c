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
 * key of the binding: Left Right Up Down Enter Tab Esc, "click" for mouse button 1, "wheel up/down" for the
 * mouse wheel, PgUp PgDn for the page keys, Ctrl-C for key 3, and characters as themselves.
 */
const struct binding keymap[] = {
	{ { KEYMAP_LEFT, 'h', 'a' },            "Left h a",       CMD_PAN_LEFT },
	{ { KEYMAP_RIGHT, 'l', 'd' },           "Right l d",      CMD_PAN_RIGHT },
	{ { KEYMAP_UP, 'k' },                   "Up k",           CMD_LANE_UP },
	{ { KEYMAP_DOWN, 'j' },                 "Down j",         CMD_LANE_DOWN },
	{ { '.' },                              ".",              CMD_NEXT_EVENT },
	{ { ',' },                              ",",              CMD_PREV_EVENT },
	{ { 'J' },                              "J",              CMD_FOLLOW_LINK },
	{ { 'u' },                              "u",              CMD_LAUNCH_OP },
	{ { KEYMAP_CLICK },                     "click",          CMD_CLICK },
	{ { KEYMAP_PGUP },                      "PgUp",           CMD_PAGE_UP },
	{ { KEYMAP_PGDN },                      "PgDn",           CMD_PAGE_DOWN },
	{ { '+', '=', 'w', KEYMAP_WHEEL_UP },   "+ = w wheel up", CMD_ZOOM_IN },
	{ { '-', 's', KEYMAP_WHEEL_DOWN },      "- s wheel down", CMD_ZOOM_OUT },
	{ { KEYMAP_ENTER },                     "Enter",          CMD_ZOOM_SELECTED },
	{ { 'f' },                              "f",              CMD_FIT },
	{ { 'F' },                              "F",              CMD_FIT_RANK },
	{ { 'z' },                              "z",              CMD_UNZOOM },
	{ { '<' },                              "<",              CMD_MARK_A },
	{ { '>' },                              ">",              CMD_MARK_B },
	{ { KEYMAP_ESC },                       "Esc",            CMD_CLEAR_MARKS },
	{ { ']' },                              "]",              CMD_NEXT_STEP },
	{ { '[' },                              "[",              CMD_PREV_STEP },
	{ { '}' },                              "}",              CMD_NEXT_LAYER },
	{ { '{' },                              "{",              CMD_PREV_LAYER },
	{ { 'o' },                              "o",              CMD_NEXT_OUTLIER },
	{ { 'O' },                              "O",              CMD_SLOWEST_STEP },
	{ { 'g' },                              "g",              CMD_NEXT_GAP },
	{ { 'G' },                              "G",              CMD_PREV_GAP },
	{ { 'x' },                              "x",              CMD_WORST_LAYER },
	{ { 'K' },                              "K",              CMD_LONGEST_KERNEL },
	{ { 'S' },                              "S",              CMD_WORST_SKEW },
	{ { 'e' },                              "e",              CMD_NEXT_FINDING },
	{ { 'P' },                              "P",              CMD_CRITICAL_PATH },
	{ { 'i' },                              "i",              CMD_NEXT_WHATIF },
	{ { '/' },                              "/",              CMD_SEARCH },
	{ { 'n' },                              "n",              CMD_NEXT_MATCH },
	{ { 'N' },                              "N",              CMD_PREV_MATCH },
	{ { 'r' },                              "r",              CMD_NEXT_RANK },
	{ { 'R' },                              "R",              CMD_PREV_RANK },
	{ { 'c' },                              "c",              CMD_TOGGLE_CPU },
	{ { 'p' },                              "p",              CMD_TOGGLE_PYTHON },
	{ { 'C' },                              "C",              CMD_TOGGLE_COUNTERS },
	{ { 'v' },                              "v",              CMD_TOGGLE_OVERVIEW },
	{ { 'm' },                              "m",              CMD_TOGGLE_MATRIX },
	{ { 'M' },                              "M",              CMD_TOGGLE_MEMORY },
	{ { 'W' },                              "W",              CMD_SORT_WAITED },
	{ { 'b' },                              "b",              CMD_MARK_BASELINE },
	{ { 'D' },                              "D",              CMD_TOGGLE_DIFF },
	{ { 'T' },                              "T",              CMD_TABLE_STEPS },
	{ { 'L' },                              "L",              CMD_TABLE_LAYERS },
	{ { KEYMAP_TAB },                       "Tab",            CMD_PANEL },
	{ { '?' },                              "?",              CMD_HELP },
	{ { 'q', 3 },                           "q Ctrl-C",       CMD_QUIT },
};

const size_t keymap_len = sizeof keymap / sizeof keymap[0];

/* Linear: 52 bindings, one lookup per key press. */
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
#define X(name, what) [CMD_##name] = what,
	VIEW_COMMANDS(X)
#undef X
};

const char *
keymap_help(enum view_cmd cmd)
{
	if ((int)cmd < 0 || cmd >= CMD_COUNT)
		return "";
	return help_text[cmd];
}
