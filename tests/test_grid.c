#include "config.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/grid.h"

#include "gridtext.h"

/* The text of row y as UTF-8, trailing blanks kept. */
static char *
row_text(struct grid *g, int y, char *buf, size_t n)
{
	return row_utf8(g, y, 0, g->w, buf, n);
}

/* grid_write() of g into a string (malloc'd). */
static char *
written(const struct grid *g, int ansi)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(f);
	cr_assert_eq(grid_write(g, f, ansi), 0);
	fclose(f);
	return buf;
}

/*
 * Asserts that grid_write() of g (with ANSI codes or not) writes exactly
 * the string that follows, with cr_assert_str_eq()'s optional message.
 * A macro, so that a failure names the test's line.
 */
#define expect_written(g, ansi, ...) do { \
	char *out_ = written((g), (ansi)); \
	cr_assert_str_eq(out_, __VA_ARGS__); \
	free(out_); \
} while (0)

Test(grid, init_is_blank_default)
{
	struct grid g;

	grid_init(&g, 3, 2);
	cr_assert_eq(g.w, 3);
	cr_assert_eq(g.h, 2);
	for (int y = 0; y < 2; y++)
		for (int x = 0; x < 3; x++) {
			struct cell *c = grid_at(&g, x, y);

			cr_assert_eq(c->ch, ' ');
			cr_assert_eq(c->role, ROLE_DEFAULT);
			cr_assert_eq(c->reverse, 0);
		}
	grid_free(&g);
	grid_free(&g);          /* twice: a no-op */
}

Test(grid, at_and_put_clip)
{
	struct grid g;

	grid_init(&g, 4, 3);
	cr_assert_null(grid_at(&g, -1, 0));
	cr_assert_null(grid_at(&g, 4, 0));
	cr_assert_null(grid_at(&g, 0, 3));
	cr_assert_null(grid_at(&g, 0, -1));
	grid_put(&g, -1, 0, 'x', ROLE_BAD);
	grid_put(&g, 4, 1, 'x', ROLE_BAD);
	grid_put(&g, 1, 3, 'x', ROLE_BAD);
	grid_put(&g, 3, 2, 'z', ROLE_BAD);
	for (int y = 0; y < 3; y++)
		for (int x = 0; x < 4; x++)
			cr_assert_eq(grid_at(&g, x, y)->ch, x == 3 && y == 2 ? 'z' : ' ');
	cr_assert_eq(grid_at(&g, 3, 2)->role, ROLE_BAD);
	grid_at(&g, 3, 2)->reverse = 1;
	grid_put(&g, 3, 2, 'y', ROLE_LABEL);
	cr_assert_eq(grid_at(&g, 3, 2)->reverse, 0, "a put resets reverse");
	grid_clear(&g);
	cr_assert_eq(grid_at(&g, 3, 2)->ch, ' ');
	cr_assert_eq(grid_at(&g, 3, 2)->role, ROLE_DEFAULT);
	grid_free(&g);
}

Test(grid, zero_size)
{
	struct grid g;

	grid_init(&g, 0, 0);
	cr_assert_null(grid_at(&g, 0, 0));
	grid_put(&g, 0, 0, 'x', ROLE_DEFAULT);
	cr_assert_eq(grid_print(&g, 0, 0, -1, ROLE_DEFAULT, 0, "abc"), 0);
	expect_written(&g, 1, "");
	grid_free(&g);
}

Test(grid, print_ascii_and_width)
{
	struct grid g;
	char buf[64];

	grid_init(&g, 8, 2);
	cr_assert_eq(grid_print(&g, 1, 0, -1, ROLE_LABEL, 0, "abc"), 3);
	cr_assert_str_eq(row_text(&g, 0, buf, sizeof buf), " abc    ");
	cr_assert_eq(grid_at(&g, 1, 0)->role, ROLE_LABEL);
	cr_assert_eq(grid_at(&g, 0, 0)->role, ROLE_DEFAULT);
	/* maxw limits, and so does the grid's edge */
	cr_assert_eq(grid_print(&g, 0, 1, 2, ROLE_DEFAULT, 0, "wxyz"), 2);
	cr_assert_str_eq(row_text(&g, 1, buf, sizeof buf), "wx      ");
	cr_assert_eq(grid_print(&g, 5, 1, -1, ROLE_DEFAULT, 0, "12345"), 3);
	cr_assert_str_eq(row_text(&g, 1, buf, sizeof buf), "wx   123");
	cr_assert_eq(grid_print(&g, 5, 1, 100, ROLE_DEFAULT, 0, "abcdef"), 3);
	cr_assert_eq(grid_print(&g, 0, 1, 0, ROLE_DEFAULT, 0, "abc"), 0);
	cr_assert_eq(grid_print(&g, 0, 1, -1, ROLE_DEFAULT, 0, ""), 0);
	/* off the grid: nothing written */
	cr_assert_eq(grid_print(&g, 8, 0, -1, ROLE_DEFAULT, 0, "abc"), 0);
	grid_print(&g, 0, 5, -1, ROLE_DEFAULT, 0, "abc");
	grid_free(&g);
}

Test(grid, print_clips_on_the_left)
{
	struct grid g;
	char buf[64];

	grid_init(&g, 4, 1);
	grid_print(&g, -2, 0, -1, ROLE_DEFAULT, 0, "abcdef");
	cr_assert_str_eq(row_text(&g, 0, buf, sizeof buf), "cdef");
	grid_free(&g);
}

Test(grid, print_decodes_utf8)
{
	struct grid g;

	grid_init(&g, 10, 1);
	/* é (2 bytes), █ (3 bytes), 𝄞 (4 bytes): one cell each */
	cr_assert_eq(grid_print(&g, 0, 0, -1, ROLE_DEFAULT, 0,
	    "\xc3\xa9\xe2\x96\x88\xf0\x9d\x84\x9ez"), 4);
	cr_assert_eq(grid_at(&g, 0, 0)->ch, 0xe9);
	cr_assert_eq(grid_at(&g, 1, 0)->ch, 0x2588);
	cr_assert_eq(grid_at(&g, 2, 0)->ch, 0x1d11e);
	cr_assert_eq(grid_at(&g, 3, 0)->ch, 'z');
	grid_free(&g);
}

/* Prints s and returns the cells as a string of ASCII ('#' for others). */
static const char *
decoded(const char *s, int ascii)
{
	static char out[64];
	struct grid g;
	int n;

	grid_init(&g, 40, 1);
	n = grid_print(&g, 0, 0, -1, ROLE_DEFAULT, ascii, s);
	for (int i = 0; i < n; i++) {
		uint32_t c = grid_at(&g, i, 0)->ch;

		out[i] = c < 0x80 ? (char)c : '#';
	}
	out[n] = '\0';
	grid_free(&g);
	return out;
}

Test(grid, print_invalid_utf8_becomes_question_marks)
{
	cr_assert_str_eq(decoded("a\xffz", 0), "a?z");
	cr_assert_str_eq(decoded("a\x80z", 0), "a?z", "a lone continuation byte");
	cr_assert_str_eq(decoded("\xe2\x96", 0), "??", "a sequence cut short");
	cr_assert_str_eq(decoded("\xe2\x96z", 0), "??z");
	cr_assert_str_eq(decoded("\xc0\xaf", 0), "??", "an overlong '/'");
	cr_assert_str_eq(decoded("\xe0\x80\xaf", 0), "???", "an overlong 3-byte form");
	cr_assert_str_eq(decoded("\xed\xa0\x80", 0), "???", "a surrogate");
	cr_assert_str_eq(decoded("\xf4\x90\x80\x80", 0), "????", "past U+10FFFF");
	cr_assert_str_eq(decoded("\xf8\x88\x80\x80\x80", 0), "?????");
}

Test(grid, print_controls_become_question_marks)
{
	cr_assert_str_eq(decoded("a\tb\nc\rd", 0), "a?b?c?d");
	cr_assert_str_eq(decoded("\x1b[31m", 0), "?[31m", "no escape reaches the terminal");
	cr_assert_str_eq(decoded("x\x7fy", 0), "x?y");
	cr_assert_str_eq(decoded("x\xc2\x85y", 0), "x?y", "C1 control NEL");
	cr_assert_str_eq(decoded("x\xc2\x9by", 0), "x?y", "C1 CSI");
	cr_assert_str_eq(decoded("\xc2\xa0", 0), "#", "NBSP is printable");
}

/* Prints s on a grid 6 wide; expects it written out as want, n columns. */
#define expect_printed(s, n, ...) do { \
	struct grid g_; \
	grid_init(&g_, 6, 1); \
	cr_assert_eq(grid_print(&g_, 0, 0, -1, ROLE_DEFAULT, 0, (s)), (n)); \
	expect_written(&g_, 0, __VA_ARGS__); \
	grid_free(&g_); \
} while (0)

Test(grid, print_wide_and_combining_as_themselves)
{
	expect_printed("\xe4\xb8\xad\xe6\x96\x87x", 5, "\xe4\xb8\xad\xe6\x96\x87x\n",
	    "CJK: two columns each");
	expect_printed("e\xcc\x81t\xc3\xa9", 3, "e\xcc\x81t\xc3\xa9\n",
	    "a combining accent rides on its letter");
	expect_printed("\xe4\xb8\xad\xcc\x81" "a", 3, "\xe4\xb8\xad\xcc\x81" "a\n",
	    "a mark after a wide character rides on its head");
	expect_printed("\xf0\x9f\x98\x80!", 3, "\xf0\x9f\x98\x80!\n", "an emoji");
	expect_printed("abcde\xe4\xb8\xad", 5, "abcde\n",
	    "a wide character that would cross the edge is not cut in half");
	expect_printed("a\xe2\x80\xae" "b\xe2\x81\xa6", 4, "a?b?\n",
	    "bidi controls are never drawn");
	cr_assert_str_eq(decoded("\xe2\x96\x91\xe2\x94\x80", 0), "##", "blocks and lines are one column");
}

/* A wide character half overwritten keeps the row's columns. */
Test(grid, half_overwritten_wide_characters_keep_columns)
{
	struct grid g;

	grid_init(&g, 6, 2);
	grid_print(&g, 0, 0, -1, ROLE_DEFAULT, 0, "\xe4\xb8\xad\xe6\x96\x87\xe5\xad\x97");
	grid_print(&g, 0, 1, -1, ROLE_DEFAULT, 0, "\xe4\xb8\xad\xe6\x96\x87\xe5\xad\x97");
	grid_put(&g, 1, 0, 'x', ROLE_DEFAULT);          /* the first one's tail */
	grid_put(&g, 4, 1, 'y', ROLE_DEFAULT);          /* the third one's head */
	expect_written(&g, 0, "?x\xe6\x96\x87\xe5\xad\x97\n\xe4\xb8\xad\xe6\x96\x87y \n");
	grid_free(&g);
}

Test(grid, print_ascii_fallback)
{
	cr_assert_str_eq(decoded("caf\xc3\xa9 \xe2\x96\x88", 1), "caf? ?");
	cr_assert_str_eq(decoded("plain ~text~", 1), "plain ~text~");
	cr_assert_str_eq(decoded("\xff", 1), "?");
}

Test(grid, fill_clips)
{
	struct grid g;
	char buf[64];

	grid_init(&g, 5, 3);
	grid_fill(&g, -1, -1, 3, 3, '#', ROLE_BUSY);
	cr_assert_str_eq(row_text(&g, 0, buf, sizeof buf), "##   ");
	cr_assert_str_eq(row_text(&g, 1, buf, sizeof buf), "##   ");
	cr_assert_str_eq(row_text(&g, 2, buf, sizeof buf), "     ");
	cr_assert_eq(grid_at(&g, 1, 1)->role, ROLE_BUSY);
	grid_fill(&g, 3, 1, 100, 100, '.', ROLE_DEFAULT);
	cr_assert_str_eq(row_text(&g, 1, buf, sizeof buf), "## ..");
	cr_assert_str_eq(row_text(&g, 2, buf, sizeof buf), "   ..");
	grid_fill(&g, 0, 0, 0, 3, 'x', ROLE_DEFAULT);
	grid_fill(&g, 0, 0, 5, -1, 'x', ROLE_DEFAULT);
	cr_assert_str_eq(row_text(&g, 0, buf, sizeof buf), "##   ");
	grid_free(&g);
}

Test(grid, write_plain_trims_and_encodes)
{
	struct grid g;

	grid_init(&g, 6, 3);
	grid_print(&g, 0, 0, -1, ROLE_BAD, 0, "a b");
	grid_put(&g, 0, 1, 0x2591, ROLE_BUBBLE);        /* ░ */
	grid_put(&g, 2, 1, 0xe9, ROLE_DEFAULT);         /* é */
	grid_fill(&g, 0, 2, 6, 1, ' ', ROLE_TITLE);
	grid_at(&g, 5, 2)->reverse = 1;
	expect_written(&g, 0, "a b\n\xe2\x96\x91 \xc3\xa9\n\n",
	    "roles are ignored and blanks trimmed without ANSI");
	grid_free(&g);
}

Test(grid, write_ansi_exact_bytes)
{
	struct grid g;

	grid_init(&g, 6, 2);
	grid_print(&g, 0, 0, -1, ROLE_DEFAULT, 0, "ab");
	grid_print(&g, 2, 0, -1, ROLE_BAD, 0, "cd");
	grid_at(&g, 3, 0)->reverse = 1;
	grid_put(&g, 4, 0, 'e', ROLE_PANEL);
	/* BAD is red (31) and bold (1); PANEL, like DEFAULT, needs no code */
	expect_written(&g, 1, "ab\033[0;1;31mc\033[0;1;31;7md\033[0me\n\n");
	grid_free(&g);
}

Test(grid, write_ansi_only_on_changes_and_reset_at_line_end)
{
	struct grid g;

	grid_init(&g, 4, 2);
	grid_print(&g, 0, 0, -1, ROLE_COMPUTE, 0, "xxx");
	grid_print(&g, 0, 1, -1, ROLE_COMPUTE, 0, "y");
	expect_written(&g, 1, "\033[0;32mxxx\033[0m\n\033[0;32my\033[0m\n");
	grid_free(&g);
}

Test(grid, write_ansi_blanks_keep_the_style)
{
	struct grid g;

	grid_init(&g, 5, 1);
	grid_print(&g, 0, 0, -1, ROLE_COMM, 0, "a  b");
	grid_put(&g, 1, 0, ' ', ROLE_DEFAULT);  /* a default blank between */
	expect_written(&g, 1, "\033[0;1;34ma  b\033[0m\n",
	    "no switch to the default and back for blanks");
	grid_free(&g);
}

Test(grid, write_ansi_keeps_background_blanks)
{
	struct grid g;

	grid_init(&g, 4, 2);
	grid_fill(&g, 0, 0, 4, 1, ' ', ROLE_TITLE);
	grid_put(&g, 0, 0, 'T', ROLE_TITLE);
	grid_put(&g, 1, 1, ' ', ROLE_LABEL);    /* bold, no background: trimmed */
	expect_written(&g, 1, "\033[0;1;37;44mT   \033[0m\n\n");
	grid_free(&g);
}

Test(grid, write_ansi_reverse_blank_is_kept)
{
	struct grid g;

	grid_init(&g, 3, 1);
	grid_put(&g, 0, 0, 'a', ROLE_DEFAULT);
	grid_at(&g, 1, 0)->reverse = 1;         /* a reverse blank: the cursor */
	expect_written(&g, 1, "a\033[0;7m \033[0m\n");
	grid_free(&g);
}

Test(grid, write_error_is_reported)
{
	struct grid g;
	FILE *f = fopen("/dev/full", "w");

	if (f == NULL)
		cr_skip_test("no /dev/full");
	setvbuf(f, NULL, _IONBF, 0);
	grid_init(&g, 2, 1);
	grid_put(&g, 0, 0, 'a', ROLE_DEFAULT);
	cr_assert_eq(grid_write(&g, f, 0), -1);
	fclose(f);
	grid_free(&g);
}
