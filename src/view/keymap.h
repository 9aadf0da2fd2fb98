/*
 * keymap — the one key table: it drives dispatch in the viewer, the ?
 * overlay, and the man page's KEYS section (a test checks the man page
 * against it, so they cannot drift).
 *
 * Keys are characters, or the KEYMAP_* codes below for keys that have no
 * character; tui.c translates curses key codes and mouse events into these,
 * so nothing here knows curses and handlers only ever see keys.
 */
#ifndef GANTTY_KEYMAP_H
#define GANTTY_KEYMAP_H

#include <stddef.h>

#include "view/view.h"

enum {
	KEYMAP_LEFT = 0x110000,         /* past the last Unicode code point */
	KEYMAP_RIGHT,
	KEYMAP_UP,
	KEYMAP_DOWN,
	KEYMAP_ENTER,
	KEYMAP_TAB,
	KEYMAP_WHEEL_UP,
	KEYMAP_WHEEL_DOWN,
	KEYMAP_PGUP,
	KEYMAP_PGDN,
	KEYMAP_ESC,
	KEYMAP_CLICK,                   /* button 1: tui.c runs it with the pointer */
	KEYMAP_BACKSPACE,
	KEYMAP_SLEFT,                   /* Shift-Left */
	KEYMAP_SRIGHT,
};

#define KEYMAP_MAX_KEYS 4

struct binding {
	int keys[KEYMAP_MAX_KEYS];      /* 0-terminated when shorter */
	const char *keys_text;          /* as the help shows them, e.g. "← h a" */
	enum view_cmd cmd;
	const char *keys_brief;         /* the keys in the brief help; NULL: keys_text */
};

/* The bindings, in help order; keymap_len entries. */
extern const struct binding keymap[];
extern const size_t keymap_len;

/* Returns the command bound to key, or -1. */
int keymap_lookup(int key);
/* Returns the help text of a command (from VIEW_COMMANDS). */
const char *keymap_help(enum view_cmd cmd);
/* Returns its brief (at most 14 columns), for a help that must be short. */
const char *keymap_brief(enum view_cmd cmd);

#endif
