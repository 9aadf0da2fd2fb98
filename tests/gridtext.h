/*
 * gridtext — grid cells as UTF-8 text, so that a test can compare what was
 * drawn with a string (included by each test that needs it; every test is
 * its own program).
 */
#ifndef GANTTY_TESTS_GRIDTEXT_H
#define GANTTY_TESTS_GRIDTEXT_H

#include <stddef.h>
#include <stdint.h>

#include "render/grid.h"

/*
 * Cells [x0, x1) of row y, clipped to the grid's width, as UTF-8 in buf
 * (capacity n; stops before a character that might not fit).  Trailing
 * blanks are kept; a wide character's second cell adds nothing, marks
 * follow their character.  Returns buf.
 */
static __attribute__((unused)) char *
row_utf8(struct grid *g, int y, int x0, int x1, char *buf, size_t n)
{
	size_t o = 0;

	for (int x = x0; x < x1 && x < g->w && o + 4 * (1 + GRID_MARKS) < n; x++) {
		const struct cell *cl = grid_at(g, x, y);

		if (cl->ch == GRID_TAIL)
			continue;       /* the second column of the character before */
		for (int i = -1; i < GRID_MARKS; i++) {
			uint32_t c = i < 0 ? cl->ch : cl->mark[i];

			if (i >= 0 && c == 0)
				break;
			if (c < 0x80)
				buf[o++] = (char)c;
			else if (c < 0x800) {
				buf[o++] = (char)(0xc0 | (c >> 6));
				buf[o++] = (char)(0x80 | (c & 0x3f));
			} else if (c < 0x10000) {
				buf[o++] = (char)(0xe0 | (c >> 12));
				buf[o++] = (char)(0x80 | ((c >> 6) & 0x3f));
				buf[o++] = (char)(0x80 | (c & 0x3f));
			} else {
				buf[o++] = (char)(0xf0 | (c >> 18));
				buf[o++] = (char)(0x80 | ((c >> 12) & 0x3f));
				buf[o++] = (char)(0x80 | ((c >> 6) & 0x3f));
				buf[o++] = (char)(0x80 | (c & 0x3f));
			}
		}
	}
	buf[o] = '\0';
	return buf;
}

#endif
