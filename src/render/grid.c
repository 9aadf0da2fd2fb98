#include "config.h"

#include "render/grid.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "base/xalloc.h"

/* The colours and attributes of each role, from GRID_ROLES. */
static const struct {
	int fg, bg, bold;
} role_style[ROLE_COUNT] = {
#define X(name, fg, bg, bold, mono, what) { fg, bg, bold },
	GRID_ROLES(X)
#undef X
};

void
grid_init(struct grid *g, int w, int h)
{
	g->w = w > 0 ? w : 0;
	g->h = h > 0 ? h : 0;
	g->cells = xcalloc((size_t)g->w * (size_t)g->h + 1, sizeof *g->cells);
	grid_clear(g);
}

void
grid_free(struct grid *g)
{
	if (g == NULL)
		return;
	free(g->cells);
	g->cells = NULL;
	g->w = g->h = 0;
}

void
grid_clear(struct grid *g)
{
	size_t n = (size_t)g->w * (size_t)g->h;

	for (size_t i = 0; i < n; i++) {
		g->cells[i].ch = ' ';
		memset(g->cells[i].mark, 0, sizeof g->cells[i].mark);
		g->cells[i].role = ROLE_DEFAULT;
		g->cells[i].reverse = 0;
	}
}

struct cell *
grid_at(struct grid *g, int x, int y)
{
	if (x < 0 || y < 0 || x >= g->w || y >= g->h)
		return NULL;
	return &g->cells[(size_t)y * (size_t)g->w + (size_t)x];
}

void
grid_reverse(struct grid *g, int x0, int x1, int y)
{
	for (int x = x0; x < x1; x++) {
		struct cell *c = grid_at(g, x, y);

		if (c != NULL)
			c->reverse = 1;
	}
}

void
grid_put(struct grid *g, int x, int y, uint32_t ch, enum role role)
{
	struct cell *c = grid_at(g, x, y);

	if (c == NULL)
		return;
	c->ch = ch;
	memset(c->mark, 0, sizeof c->mark);
	c->role = (uint8_t)role;
	c->reverse = 0;
}

int
grid_wide_at(const struct cell *row, int x, int w)
{
	return row[x].ch != GRID_TAIL && row[x].ch >= 0x1100 &&
	    utf8_width(row[x].ch) == 2 && x + 1 < w && row[x + 1].ch == GRID_TAIL;
}

/* Puts combining mark cp on cell c (dropped past GRID_MARKS of them). */
static void
add_mark(struct cell *c, uint32_t cp)
{
	for (int i = 0; i < GRID_MARKS; i++)
		if (c->mark[i] == 0) {
			c->mark[i] = cp;
			return;
		}
}

int
grid_print(struct grid *g, int x, int y, int maxw, enum role role, int ascii,
    const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);
	int col = 0;

	if (maxw < 0 || maxw > g->w - x)
		maxw = g->w - x;
	while (n > 0 && col < maxw) {
		uint32_t cp = UINT32_MAX;
		size_t len = utf8_valid_len(p, n, &cp);
		int w = 1;

		if (len == 0)
			len = 1;        /* an ill-formed byte: cp stays UINT32_MAX */
		if (cp == UINT32_MAX || utf8_unsafe(cp) || (ascii && cp > 0x7e))
			cp = '?';
		else
			w = utf8_width(cp);
		if (w == 0) {
			/* on the character before (a wide one's head), if any */
			struct cell *on = col > 0 ? grid_at(g, x + col - 1, y) : NULL;

			if (on != NULL && on->ch == GRID_TAIL && col > 1)
				on = grid_at(g, x + col - 2, y);
			if (on != NULL)
				add_mark(on, cp);
		} else if (w == 2) {
			if (col + 2 > maxw)
				break;
			grid_put(g, x + col, y, cp, role);
			grid_put(g, x + col + 1, y, GRID_TAIL, role);
			col += 2;
		} else {
			grid_put(g, x + col, y, cp, role);
			col++;
		}
		p += len;
		n -= len;
	}
	return col;
}

void
grid_fill(struct grid *g, int x, int y, int w, int h, uint32_t ch,
    enum role role)
{
	int x0 = x < 0 ? 0 : x, y0 = y < 0 ? 0 : y;
	int x1 = w > g->w - x ? g->w : x + w, y1 = h > g->h - y ? g->h : y + h;

	for (int j = y0; j < y1; j++)
		for (int i = x0; i < x1; i++)
			grid_put(g, i, j, ch, role);
}

/* Appends the UTF-8 encoding of cp to buf; returns its length. */
static size_t
utf8_encode(uint32_t cp, char *buf)
{
	if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		cp = '?';
	if (cp < 0x80) {
		buf[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		buf[0] = (char)(0xc0 | (cp >> 6));
		buf[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		buf[0] = (char)(0xe0 | (cp >> 12));
		buf[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		buf[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	buf[0] = (char)(0xf0 | (cp >> 18));
	buf[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	buf[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	buf[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* 1 if the cell, drawn with ansi (or not), looks the same as a blank. */
static int
blank_cell(const struct cell *c, int ansi)
{
	if (c->ch != ' ')
		return 0;
	if (!ansi)
		return 1;
	return !c->reverse && role_style[c->role].bg < 0;
}

/* 1 if the cell is drawn with the terminal's default attributes. */
static int
plain_style(int role, int reverse)
{
	return !reverse && role_style[role].fg < 0 && role_style[role].bg < 0 &&
	    !role_style[role].bold;
}

/* Writes the SGR sequence that sets role and reverse from the default. */
static void
put_sgr(FILE *out, int role, int reverse)
{
	fputs("\033[0", out);
	if (role_style[role].bold)
		fputs(";1", out);
	if (role_style[role].fg >= 0)
		fprintf(out, ";%d", 30 + role_style[role].fg);
	if (role_style[role].bg >= 0)
		fprintf(out, ";%d", 40 + role_style[role].bg);
	if (reverse)
		fputs(";7", out);
	fputc('m', out);
}

int
grid_write(const struct grid *g, FILE *out, int ansi)
{
	for (int y = 0; y < g->h; y++) {
		const struct cell *row = &g->cells[(size_t)y * (size_t)g->w];
		int end = g->w, cur_role = ROLE_DEFAULT, cur_rev = 0;

		while (end > 0 && blank_cell(&row[end - 1], ansi))
			end--;
		for (int x = 0; x < end; x++) {
			char buf[4];
			size_t n;

			/*
			 * A blank without background or reverse looks the same
			 * in any style without them: keep the current one
			 * rather than switch there and back.
			 */
			if (ansi && (row[x].role != cur_role ||
			    row[x].reverse != cur_rev) &&
			    !(blank_cell(&row[x], 1) && !cur_rev &&
			    role_style[cur_role].bg < 0)) {
				int was_plain = plain_style(cur_role, cur_rev);
				int is_plain = plain_style(row[x].role, row[x].reverse);

				if (is_plain) {
					if (!was_plain)
						fputs("\033[0m", out);
				} else
					put_sgr(out, row[x].role, row[x].reverse);
				cur_role = row[x].role;
				cur_rev = row[x].reverse;
			}
			if (row[x].ch == GRID_TAIL) {
				if (x == 0 || !grid_wide_at(row, x - 1, g->w))
					fputc(' ', out);        /* its head overwritten */
				continue;
			}
			if (row[x].ch >= 0x1100 && utf8_width(row[x].ch) == 2 &&
			    !grid_wide_at(row, x, g->w))
				n = utf8_encode('?', buf);      /* its tail overwritten */
			else
				n = utf8_encode(row[x].ch, buf);
			fwrite(buf, 1, n, out);
			for (int i = 0; i < GRID_MARKS && row[x].mark[i] != 0; i++) {
				n = utf8_encode(row[x].mark[i], buf);
				fwrite(buf, 1, n, out);
			}
		}
		if (ansi && !plain_style(cur_role, cur_rev))
			fputs("\033[0m", out);
		fputc('\n', out);
	}
	return ferror(out) ? -1 : 0;
}
