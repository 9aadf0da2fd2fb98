/* matrix — the rank x step matrix; see matrix.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/crossrank.h"
#include "analysis/matrix.h"
#include "analysis/steps.h"
#include "base/xalloc.h"

static int
cmp_i64(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;

	return (a > b) - (a < b);
}

int
matrix_level(int64_t t, int64_t median)
{
	/* thresholds in per mille over the median: 2%, 5%, 10%, 25% */
	static const int64_t over[MATRIX_LEVELS - 1] = { 1020, 1050, 1100, 1250 };

	if (t < 0)
		return 0;
	if (median <= 0)
		return 1;
	for (int l = 0; l < MATRIX_LEVELS - 1; l++)
		/* t <= median * over / 1000, without overflow for sane times */
		if ((double)t * 1000.0 <= (double)median * (double)over[l])
			return l + 1;
	return MATRIX_LEVELS;
}

void
matrix_build(struct matrix *m, const struct crossrank *x)
{
	size_t S = x->nsteps, P = x->nparts;
	size_t cells = S * P > 0 ? S * P : 1;
	int64_t *col = xcalloc(P ? P : 1, sizeof *col);
	struct step *row = xcalloc(S ? S : 1, sizeof *row);
	size_t *idx = xcalloc(S ? S : 1, sizeof *idx);

	memset(m, 0, sizeof *m);
	m->nsteps = S;
	m->nparts = P;
	m->median = xcalloc(S ? S : 1, sizeof *m->median);
	m->level = xcalloc(cells, 1);
	m->outlier = xcalloc(cells, 1);
	m->noutliers = xcalloc(P ? P : 1, sizeof *m->noutliers);
	for (size_t s = 0; s < S; s++) {
		size_t n = 0;

		for (size_t p = 0; p < P; p++)
			if (crossrank_step_ns(x, s, p) >= 0)
				col[n++] = crossrank_step_ns(x, s, p);
		qsort(col, n, sizeof *col, cmp_i64);
		/* the lower median: a time some participant really took */
		m->median[s] = n ? col[(n - 1) / 2] : -1;
		for (size_t p = 0; p < P; p++)
			m->level[s * P + p] = (uint8_t)matrix_level(
			    crossrank_step_ns(x, s, p), m->median[s]);
	}
	/* outliers among each participant's own steps */
	for (size_t p = 0; p < P; p++) {
		size_t n = 0;

		for (size_t s = 0; s < S; s++) {
			int64_t t = crossrank_step_ns(x, s, p);

			if (t < 0)
				continue;
			memset(&row[n], 0, sizeof row[n]);
			row[n].number = x->steps[s].number;
			row[n].end_ns = t;
			idx[n++] = s;
		}
		steps_outliers(row, n);
		for (size_t i = 0; i < n; i++)
			if (row[i].outlier) {
				m->outlier[idx[i] * P + p] = 1;
				m->noutliers[p]++;
			}
	}
	free(col);
	free(row);
	free(idx);
}

void
matrix_free(struct matrix *m)
{
	free(m->median);
	free(m->level);
	free(m->outlier);
	free(m->noutliers);
	memset(m, 0, sizeof *m);
}

int
matrix_cell(const struct matrix *m, size_t p, int k, int cols, int *outlier)
{
	size_t s0, s1;
	int lvl = 0;

	*outlier = 0;
	if (cols <= 0 || k < 0 || k >= cols || p >= m->nparts || m->nsteps == 0)
		return 0;
	if ((size_t)cols > m->nsteps) {
		if ((size_t)k >= m->nsteps)
			return 0;
		s0 = (size_t)k;
		s1 = s0 + 1;
	} else {
		s0 = (size_t)k * m->nsteps / (size_t)cols;
		s1 = (size_t)(k + 1) * m->nsteps / (size_t)cols;
	}
	for (size_t s = s0; s < s1; s++) {
		if (m->level[s * m->nparts + p] > lvl)
			lvl = m->level[s * m->nparts + p];
		*outlier |= m->outlier[s * m->nparts + p];
	}
	return lvl;
}
