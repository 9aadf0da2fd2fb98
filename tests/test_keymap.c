#include "config.h"

#include <criterion/criterion.h>
#include <string.h>

#include "view/keymap.h"

/* The keys SPEC.md section 6 names, and what they must do. */
static const struct {
	int key;
	enum view_cmd cmd;
} spec_keys[] = {
	{ KEYMAP_LEFT, CMD_PAN_LEFT }, { 'h', CMD_PAN_LEFT }, { 'a', CMD_PAN_LEFT },
	{ KEYMAP_RIGHT, CMD_PAN_RIGHT }, { 'l', CMD_PAN_RIGHT },
	{ 'd', CMD_PAN_RIGHT },
	{ KEYMAP_UP, CMD_LANE_UP }, { 'k', CMD_LANE_UP },
	{ KEYMAP_DOWN, CMD_LANE_DOWN }, { 'j', CMD_LANE_DOWN },
	{ '+', CMD_ZOOM_IN }, { '=', CMD_ZOOM_IN }, { 'w', CMD_ZOOM_IN },
	{ KEYMAP_WHEEL_UP, CMD_ZOOM_IN },
	{ '-', CMD_ZOOM_OUT }, { 's', CMD_ZOOM_OUT },
	{ KEYMAP_WHEEL_DOWN, CMD_ZOOM_OUT },
	{ KEYMAP_ENTER, CMD_ZOOM_SELECTED },
	{ 'f', CMD_FIT }, { 'z', CMD_UNZOOM },
	{ ']', CMD_NEXT_STEP }, { '[', CMD_PREV_STEP },
	{ '}', CMD_NEXT_LAYER }, { '{', CMD_PREV_LAYER },
	{ 'o', CMD_NEXT_OUTLIER },
	{ 'g', CMD_NEXT_GAP }, { 'G', CMD_PREV_GAP },
	{ 'x', CMD_WORST_LAYER },
	{ '/', CMD_SEARCH }, { 'n', CMD_NEXT_MATCH }, { 'N', CMD_PREV_MATCH },
	{ 'r', CMD_NEXT_RANK }, { 'R', CMD_PREV_RANK },
	{ 'c', CMD_TOGGLE_CPU }, { KEYMAP_TAB, CMD_PANEL },
	{ '?', CMD_HELP }, { 'q', CMD_QUIT }, { 3, CMD_QUIT },
};

Test(keymap, spec_keys_run_the_spec_commands)
{
	for (size_t i = 0; i < sizeof spec_keys / sizeof spec_keys[0]; i++)
		cr_expect_eq(keymap_lookup(spec_keys[i].key), (int)spec_keys[i].cmd,
		    "key %#x: command %d, wanted %d", (unsigned)spec_keys[i].key,
		    keymap_lookup(spec_keys[i].key), (int)spec_keys[i].cmd);
}

Test(keymap, unbound_keys_do_nothing)
{
	static const int unbound[] = { 0, 'Q', 'U', 'H', 'A', ' ', 27, 'Y',
		KEYMAP_SRIGHT + 1, 0x110000 - 1, -1 };

	for (size_t i = 0; i < sizeof unbound / sizeof unbound[0]; i++)
		cr_expect_eq(keymap_lookup(unbound[i]), -1, "key %#x is bound",
		    (unsigned)unbound[i]);
}

/* The comparison mode's keys (issue 8) and the page keys. */
Test(keymap, compare_and_page_keys)
{
	cr_expect_eq(keymap_lookup('b'), (int)CMD_MARK_BASELINE);
	cr_expect_eq(keymap_lookup('D'), (int)CMD_TOGGLE_DIFF);
	cr_expect_eq(keymap_lookup('F'), (int)CMD_FIT_RANK);
	cr_expect_eq(keymap_lookup('W'), (int)CMD_SORT_WAITED);
	cr_expect_eq(keymap_lookup(KEYMAP_PGUP), (int)CMD_PAGE_UP);
	cr_expect_eq(keymap_lookup(KEYMAP_PGDN), (int)CMD_PAGE_DOWN);
}

/* The critical path and the what-if scenarios (issue 32). */
Test(keymap, critical_path_keys)
{
	cr_expect_eq(keymap_lookup('P'), (int)CMD_CRITICAL_PATH);
	cr_expect_eq(keymap_lookup('i'), (int)CMD_NEXT_WHATIF);
	cr_expect_eq(keymap_lookup('u'), (int)CMD_LAUNCH_OP);
}

/* One binding per command, in VIEW_COMMANDS order: the help's order. */
Test(keymap, every_command_once_in_help_order)
{
	cr_assert_eq(keymap_len, (size_t)CMD_COUNT);
	for (size_t i = 0; i < keymap_len; i++) {
		cr_expect_eq((int)keymap[i].cmd, (int)i, "binding %zu is command %d",
		    i, (int)keymap[i].cmd);
		cr_expect_neq(keymap[i].keys[0], 0, "command %zu has no key", i);
	}
}

Test(keymap, no_key_bound_twice)
{
	for (size_t i = 0; i < keymap_len; i++)
		for (int j = 0; j < KEYMAP_MAX_KEYS && keymap[i].keys[j]; j++)
			for (size_t k = 0; k < keymap_len; k++)
				for (int l = 0; l < KEYMAP_MAX_KEYS && keymap[k].keys[l];
				    l++)
					if (k != i || l != j)
						cr_expect_neq(keymap[i].keys[j],
						    keymap[k].keys[l],
						    "key %#x bound in %zu and %zu",
						    (unsigned)keymap[i].keys[j], i, k);
}

/* The name keys_text must show for a key. */
static const char *
key_name(int key, char *buf)
{
	switch (key) {
	case KEYMAP_LEFT: return "Left";
	case KEYMAP_RIGHT: return "Right";
	case KEYMAP_UP: return "Up";
	case KEYMAP_DOWN: return "Down";
	case KEYMAP_ENTER: return "Enter";
	case KEYMAP_TAB: return "Tab";
	case KEYMAP_WHEEL_UP: return "wheel up";
	case KEYMAP_WHEEL_DOWN: return "wheel down";
	case KEYMAP_PGUP: return "PgUp";
	case KEYMAP_PGDN: return "PgDn";
	case KEYMAP_ESC: return "Esc";
	case KEYMAP_CLICK: return "click";
	case KEYMAP_BACKSPACE: return "Backspace";
	case KEYMAP_SLEFT: return "Shift-Left";
	case KEYMAP_SRIGHT: return "Shift-Right";
	case 3: return "Ctrl-C";
	default:
		buf[0] = (char)key;
		buf[1] = '\0';
		return buf;
	}
}

/* 1 if words (one or more words) occurs in text as whole words. */
static int
has_words(const char *text, const char *words)
{
	size_t n = strlen(words);

	for (const char *p = text; (p = strstr(p, words)) != NULL; p++)
		if ((p == text || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
			return 1;
	return 0;
}

/* The help, --keys and the man page show keys_text: it must name every key. */
Test(keymap, keys_text_names_every_key)
{
	for (size_t i = 0; i < keymap_len; i++) {
		int nkeys = 0;

		cr_assert_not_null(keymap[i].keys_text);
		for (int j = 0; j < KEYMAP_MAX_KEYS && keymap[i].keys[j]; j++) {
			char buf[2];
			const char *name = key_name(keymap[i].keys[j], buf);

			cr_expect(has_words(keymap[i].keys_text, name),
			    "'%s' does not show key '%s'", keymap[i].keys_text, name);
			nkeys++;
		}
		cr_expect(strchr(keymap[i].keys_text, '\t') == NULL &&
		    strchr(keymap[i].keys_text, '\n') == NULL);
		/* nothing shown that is not bound: one word per key, the wheel two */
		{
			int words = 1;

			for (const char *p = keymap[i].keys_text; *p; p++)
				words += *p == ' ';
			for (int j = 0; j < KEYMAP_MAX_KEYS && keymap[i].keys[j]; j++)
				words -= keymap[i].keys[j] == KEYMAP_WHEEL_UP ||
				    keymap[i].keys[j] == KEYMAP_WHEEL_DOWN;
			cr_expect_eq(words, nkeys, "'%s' shows %d keys, %d bound",
			    keymap[i].keys_text, words, nkeys);
		}
	}
}

Test(keymap, help_texts)
{
	for (int c = 0; c < CMD_COUNT; c++) {
		const char *h = keymap_help((enum view_cmd)c);

		cr_assert_not_null(h);
		cr_expect(strlen(h) > 0, "command %d has no help", c);
		cr_expect(strchr(h, '\t') == NULL && strchr(h, '\n') == NULL);
	}
	cr_expect_str_eq(keymap_help(CMD_QUIT), "quit");
	cr_expect_str_eq(keymap_help(CMD_NEXT_OUTLIER),
	    "outlier step under or after the cursor, then the next");
	cr_expect_str_eq(keymap_help(CMD_COUNT), "");
}

/* The ? overlay's briefs fit its three columns at 80x24. */
Test(keymap, briefs_are_short)
{
	for (int c = 0; c < CMD_COUNT; c++) {
		const char *b = keymap_brief((enum view_cmd)c);

		cr_expect(b[0] != '\0', "command %d has no brief", c);
		cr_expect(strlen(b) <= 14, "brief '%s' is longer than 14", b);
	}
	for (size_t i = 0; i < keymap_len; i++)
		cr_expect(keymap[i].keys_brief == NULL ||
		    strncmp(keymap[i].keys_text, keymap[i].keys_brief,
		    strlen(keymap[i].keys_brief)) == 0,
		    "'%s' is not the start of '%s'", keymap[i].keys_brief, keymap[i].keys_text);
}
