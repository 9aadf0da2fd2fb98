/*
 * matrix — the rank x step matrix: every participant's step times at once.
 *
 * From a crossrank (crossrank.h), one row per participant and one column per
 * step number.  Each cell holds a level that says how slow the participant
 * was in that step against the step's median over the participants that have
 * it: level 1 up to 2% over the median, 2 up to 5%, 3 up to 10%, 4 up to 25%,
 * 5 beyond (0: the participant lacks the step).  A cell is an outlier when
 * its step is an outlier among the participant's own steps by the rule of
 * steps.h (robust z > 3.5 and > 1.1 x median, at least 5 steps).
 *
 * When a screen has fewer columns than steps, a screen cell stands for the
 * steps [k * n / cols, (k + 1) * n / cols) and shows the highest level among
 * them (an outlier if any is).  Building costs O(S * P log P) for S steps
 * and P participants; a cell query O(n / cols).
 */
#ifndef GANTTY_MATRIX_H
#define GANTTY_MATRIX_H

#include <stddef.h>
#include <stdint.h>

struct crossrank;

#define MATRIX_LEVELS 5

struct matrix {
	size_t nsteps, nparts;
	int64_t *median;        /* nsteps: the step's median time, -1 if no one has it */
	uint8_t *level;         /* nsteps * nparts: [s * nparts + p], 0 .. MATRIX_LEVELS */
	uint8_t *outlier;       /* nsteps * nparts: 1 for an outlier */
	size_t *noutliers;      /* nparts: outlier steps of each participant */
};

/* Builds m from x (only read; m keeps no pointer to it).  m is overwritten. */
void matrix_build(struct matrix *m, const struct crossrank *x);
/* Frees what matrix_build() allocated; m may be zeroed. */
void matrix_free(struct matrix *m);
/*
 * Returns the level of participant p in screen cell k of cols (see the top)
 * and sets *outlier; 0 when p lacks every step of the cell or k is out of
 * range.
 */
int matrix_cell(const struct matrix *m, size_t p, int k, int cols, int *outlier);
/* Returns the level of time t_ns against median_ns (0 when t_ns < 0). */
int matrix_level(int64_t t_ns, int64_t median_ns);

#endif
