#include "config.h"

#include "base/elide.h"

#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"

/* The columns of s[from, to). */
static size_t
cols_between(const char *s, size_t from, size_t to)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0;
	int cols, shown;

	for (size_t i = from; i < to && p[i] != '\0'; n += (size_t)cols)
		i += utf8_shown(p + i, &cols, &shown);
	return n;
}

/* The end of the longest run of whole characters from `from` within w columns. */
static size_t
run_within(const char *s, size_t from, size_t w)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = from, used = 0;
	int cols, shown;

	while (p[i] != '\0') {
		size_t n = utf8_shown(p + i, &cols, &shown);

		if (used + (size_t)cols > w)
			break;
		used += (size_t)cols;
		i += n;
	}
	return i;
}

/*
 * The start of the shortest suffix of s[from, len) within w columns that
 * does not start with a zero-width character (whose base was cut).
 */
static size_t
suffix_within(const char *s, size_t from, size_t len, size_t w)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t rem = cols_between(s, from, len), i = from;
	int cols, shown;

	while (i < len) {
		size_t n = utf8_shown(p + i, &cols, &shown);

		if (rem <= w && cols > 0)
			break;
		rem -= (size_t)cols;
		i += n;
	}
	return i;
}

static int
by_offset(const void *x, const void *y)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;

	return a < b ? -1 : a > b;
}

/* c's columns: its parts and the marks between them. */
static void
count_cols(const char *s, size_t mark_cols, struct elide_cut *c)
{
	c->cols = 0;
	for (size_t i = 0; i < c->nparts; i++)
		c->cols += (i > 0 ? mark_cols : 0) +
		    cols_between(s, c->part[i].from, c->part[i].to);
}

static void
add_part(struct elide_cut *c, size_t from, size_t to)
{
	c->part[c->nparts].from = from;
	c->part[c->nparts].to = to;
	c->nparts++;
}

/*
 * The start, m middles from the keeps k[] on (those inside an earlier part
 * are in view already) and the end, within max columns; 0 if a middle
 * would be narrower than 4 columns.
 */
static int
plan_middles(const char *s, size_t len, size_t max, size_t mark_cols, const size_t *k,
    size_t m, struct elide_cut *c)
{
	size_t budget = max - (m + 1) * mark_cols, edge = budget / (m + 3), mid, used, pos;

	if (edge < 2)
		edge = 2;
	if (budget < 2 * edge || (budget - 2 * edge) / m < 4)
		return 0;
	mid = (budget - 2 * edge) / m;
	c->nparts = 0;
	pos = run_within(s, 0, edge);
	add_part(c, 0, pos);
	used = cols_between(s, 0, pos);
	for (size_t j = 0; j < m; j++) {
		size_t to;

		if (k[j] < pos)
			continue;       /* shown by the part before */
		to = run_within(s, k[j], mid);
		used += cols_between(s, k[j], to);
		if (k[j] == pos) {
			c->part[c->nparts - 1].to = to;     /* it goes on: no mark */
		} else {
			add_part(c, k[j], to);
			used += mark_cols;
		}
		pos = to;
	}
	/* the end: what is left of the width */
	{
		size_t t = suffix_within(s, pos, len, max - used - mark_cols);

		if (t <= pos)
			c->part[c->nparts - 1].to = len;  /* the rest fits: no mark */
		else
			add_part(c, t, len);
	}
	return 1;
}

int
elide_plan(const char *s, size_t max, size_t mark_cols, const size_t *keeps,
    size_t nkeeps, struct elide_cut *c)
{
	size_t len = strlen(s), total = cols_between(s, 0, len), head, tail, h, t;
	size_t k[ELIDE_PARTS - 2], nk = 0;

	memset(c, 0, sizeof *c);
	if (max < mark_cols + 2)
		max = mark_cols + 2;
	if (total <= max) {
		add_part(c, 0, len);
		c->cols = total;
		return 0;
	}
	head = (max - mark_cols + 1) / 2;
	tail = max - mark_cols - head;
	h = run_within(s, 0, head);
	t = suffix_within(s, h, len, tail);
	/* the keeps the default cut hides, nearest the start first, once each */
	{
		size_t all[64], n = 0;

		for (size_t i = 0; i < nkeeps && n < 64; i++)
			if (keeps[i] >= h && keeps[i] < t)
				all[n++] = keeps[i];
		qsort(all, n, sizeof *all, by_offset);
		for (size_t i = 0; i < n && nk < ELIDE_PARTS - 2; i++)
			if (nk == 0 || all[i] != k[nk - 1])
				k[nk++] = all[i];
	}
	if (nk == 1) {
		/* one near the start: the start runs on past it */
		size_t before = cols_between(s, 0, k[0]);
		int kc, shown;

		utf8_shown((const unsigned char *)s + k[0], &kc, &shown);
		if (before + (size_t)kc + 4 + mark_cols + (max / 4 ? max / 4 : 1) <= max) {
			h = run_within(s, 0, before + (size_t)kc + 4);
			t = suffix_within(s, h, len, max - mark_cols - cols_between(s, 0, h));
			nk = 0;
		}
	}
	for (size_t m = nk; m > 0; m--)
		if (plan_middles(s, len, max, mark_cols, k, m, c)) {
			count_cols(s, mark_cols, c);
			return 1;
		}
	c->nparts = 0;
	add_part(c, 0, h);
	add_part(c, t, len);
	count_cols(s, mark_cols, c);
	return 1;
}

size_t
elide_differs_at(const char *s, const char *other)
{
	size_t i = 0;

	while (s[i] != '\0' && s[i] == other[i])
		i++;
	/* back to the start of the character the difference is in */
	while (i > 0 && ((unsigned char)s[i] & 0xc0) == 0x80)
		i--;
	return i;
}

/*
 * Whether b could look like a (cut ca by default) once either is cut to
 * keep a difference in view: b starts as a's cut starts, and they end
 * alike over the shortest end any cut shows (a quarter of the columns
 * left by the marks of three middles, 2 at least), since such a cut
 * shortens the end.
 */
static int
look_alike(const char *a, const struct elide_cut *ca, const char *b, size_t max,
    size_t mark_cols)
{
	size_t la = strlen(a), lb = strlen(b), end = max > 4 * mark_cols + 12 ?
	    (max - 4 * mark_cols) / 6 : 2, ta, tb;

	if (strncmp(a, b, ca->part[0].to) != 0)
		return 0;
	ta = suffix_within(a, 0, la, end);
	tb = suffix_within(b, 0, lb, end);
	return strcmp(a + ta, b + tb) == 0;
}

size_t
elide_keeps(const char *s, const char *const *others, size_t n, size_t max,
    size_t mark_cols, size_t *keeps, size_t cap)
{
	struct elide_cut c;
	size_t nk = 0;

	if (!elide_plan(s, max, mark_cols, NULL, 0, &c))
		return 0;       /* shown whole: nothing to keep apart */
	for (size_t i = 0; i < n && nk < cap; i++) {
		size_t at, j = 0;

		if (others[i] == s || strcmp(others[i], s) == 0 ||
		    !look_alike(s, &c, others[i], max, mark_cols))
			continue;
		/* it could look the same: where it differs, once */
		at = elide_differs_at(s, others[i]);
		while (j < nk && keeps[j] != at)
			j++;
		if (j == nk)
			keeps[nk++] = at;
	}
	return nk;
}
