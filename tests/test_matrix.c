/* The rank x step matrix against a brute-force oracle on random step tables. */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/crossrank.h"
#include "analysis/matrix.h"
#include "testrng.h"

Test(matrix, levels_at_the_thresholds)
{
	static const struct {
		int64_t t;
		int level;
	} c[] = {
		{ -1, 0 }, { 0, 1 }, { 1000, 1 }, { 1020, 1 }, { 1021, 2 },
		{ 1050, 2 }, { 1051, 3 }, { 1100, 3 }, { 1101, 4 }, { 1250, 4 },
		{ 1251, 5 }, { 1000000, 5 },
	};

	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
		cr_expect_eq(matrix_level(c[i].t, 1000), c[i].level,
		    "t %lld: level %d, want %d", (long long)c[i].t,
		    matrix_level(c[i].t, 1000), c[i].level);
	cr_expect_eq(matrix_level(5, 0), 1, "no median: level 1");
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static int
cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
median_d(double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_d);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The outlier rule of SPEC 3, written out again: t[i] an outlier? */
static int
oracle_outlier(const int64_t *t, size_t n, size_t i)
{
	double v[64], med, mad, z, mean = 0, mabs = 0;

	if (n < 5)
		return 0;
	for (size_t k = 0; k < n; k++)
		v[k] = (double)t[k];
	med = median_d(v, n);
	for (size_t k = 0; k < n; k++)
		v[k] = fabs((double)t[k] - med);
	mad = median_d(v, n);
	if (mad > 0) {
		z = ((double)t[i] - med) / (1.4826 * mad);
	} else {
		for (size_t k = 0; k < n; k++)
			mean += (double)t[k];
		mean /= (double)n;
		for (size_t k = 0; k < n; k++)
			mabs += fabs((double)t[k] - mean);
		mabs /= (double)n;
		if (mabs == 0)
			return 0;
		z = ((double)t[i] - med) / (1.2533 * mabs);
	}
	return z > 3.5 && (double)t[i] > 1.1 * med;
}

Test(matrix, random_tables_against_the_oracle)
{
	uint64_t r = 20261130;
	size_t seen_out = 0, seen_slow = 0, seen_missing = 0;

	for (int round = 0; round < 300; round++) {
		size_t P = 1 + rng_below(&r, 9), S = 1 + rng_below(&r, 14);
		struct crossrank_in in[9];
		struct crossrank x;
		struct matrix m;
		int64_t t[14][9];

		for (size_t p = 0; p < P; p++) {
			crossrank_in_init(&in[p], (int64_t)p, 0, -1);
			in[p].steps = calloc(S, sizeof *in[p].steps);
			for (size_t s = 0; s < S; s++) {
				/* mostly close to 1 ms, some slow, some missing */
				int64_t d = 1000000 + (int64_t)rng_below(&r, 30000);

				if (rng_below(&r, 8) == 0)
					d += (int64_t)rng_below(&r, 900000);
				if (rng_below(&r, 10) == 0) {
					t[s][p] = -1;
					continue;
				}
				if (round % 5 == 0)
					d = 1000000;    /* ties: MAD 0 */
				t[s][p] = d;
				in[p].steps[in[p].nsteps].number = (int64_t)s + 10;
				in[p].steps[in[p].nsteps].start_ns = 1000000000 * (int64_t)s;
				in[p].steps[in[p].nsteps].end_ns = 1000000000 * (int64_t)s + d;
				in[p].nsteps++;
			}
		}
		crossrank_build_from(&x, in, P);
		matrix_build(&m, &x);
		cr_assert_eq(m.nparts, P);
		for (size_t row = 0; row < m.nsteps; row++) {
			size_t s = (size_t)(x.steps[row].number - 10), n = 0;
			int64_t col[9];

			for (size_t p = 0; p < P; p++)
				if (t[s][p] >= 0)
					col[n++] = t[s][p];
			qsort(col, n, sizeof *col, cmp_i64);
			cr_expect_eq(m.median[row], n ? col[(n - 1) / 2] : -1,
			    "round %d step %zu: median", round, s);
			for (size_t p = 0; p < P; p++) {
				int want = t[s][p] < 0 ? 0 :
				    t[s][p] * 1000 <= col[(n - 1) / 2] * 1020 ? 1 :
				    t[s][p] * 1000 <= col[(n - 1) / 2] * 1050 ? 2 :
				    t[s][p] * 1000 <= col[(n - 1) / 2] * 1100 ? 3 :
				    t[s][p] * 1000 <= col[(n - 1) / 2] * 1250 ? 4 : 5;

				seen_slow += want == 5;
				seen_missing += want == 0;
				cr_expect_eq(m.level[row * P + p], want,
				    "round %d step %zu part %zu: level %d, want %d",
				    round, s, p, m.level[row * P + p], want);
			}
		}
		/* outliers per participant over its own steps */
		for (size_t p = 0; p < P; p++) {
			int64_t own[14];
			size_t n = 0, rows[14], nout = 0;

			for (size_t row = 0; row < m.nsteps; row++) {
				size_t s = (size_t)(x.steps[row].number - 10);

				if (t[s][p] >= 0) {
					rows[n] = row;
					own[n++] = t[s][p];
				}
			}
			for (size_t i = 0; i < n; i++) {
				int want = oracle_outlier(own, n, i);

				nout += (size_t)want;
				seen_out += (size_t)want;
				cr_expect_eq(m.outlier[rows[i] * P + p], want,
				    "round %d part %zu step row %zu: outlier %d, want %d",
				    round, p, rows[i], m.outlier[rows[i] * P + p], want);
			}
			cr_expect_eq(m.noutliers[p], nout);
		}
		/* screen cells: the highest level of their steps, any outlier */
		for (int cols = 1; cols <= (int)m.nsteps + 2; cols++)
			for (size_t p = 0; p < P; p++)
				for (int k = 0; k < cols; k++) {
					int out, l = matrix_cell(&m, p, k, cols, &out);
					int wl = 0, wo = 0;
					size_t s0, s1;

					if ((size_t)cols > m.nsteps) {
						s0 = (size_t)k;
						s1 = s0 < m.nsteps ? s0 + 1 : s0;
					} else {
						s0 = (size_t)k * m.nsteps / (size_t)cols;
						s1 = (size_t)(k + 1) * m.nsteps / (size_t)cols;
					}
					for (size_t s = s0; s < s1; s++) {
						if (m.level[s * P + p] > wl)
							wl = m.level[s * P + p];
						wo |= m.outlier[s * P + p];
					}
					cr_expect_eq(l, wl);
					cr_expect_eq(out, wo);
				}
		matrix_free(&m);
		crossrank_free(&x);
		for (size_t p = 0; p < P; p++)
			crossrank_in_free(&in[p]);
	}
	/* the random tables did exercise every case */
	cr_expect_gt(seen_out, 10, "outliers seen: %zu", seen_out);
	cr_expect_gt(seen_slow, 10, "level-5 cells seen: %zu", seen_slow);
	cr_expect_gt(seen_missing, 10, "missing cells seen: %zu", seen_missing);
}

Test(matrix, empty)
{
	struct crossrank x;
	struct matrix m;
	int out;

	crossrank_build_from(&x, NULL, 0);
	matrix_build(&m, &x);
	cr_expect_eq(m.nsteps, 0);
	cr_expect_eq(matrix_cell(&m, 0, 0, 10, &out), 0);
	matrix_free(&m);
	crossrank_free(&x);
}
