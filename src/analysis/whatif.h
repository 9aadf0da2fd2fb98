/*
 * whatif — the dependency graph of a set of analyses replayed as measured
 * and under each --what-if scenario: what the report asks of depgraph.h.
 *
 * A whatif owns its graph and the step times of every replay (each replay
 * runs in one vertex buffer, of which only the steps' marks are kept); it
 * refers to the analyses (and their traces), which must outlive it.
 * Cost: depgraph_build() plus one O(V + E) replay per scenario and one for
 * the unchanged trace; memory: the graph, one vertex buffer while
 * building, and two int64 per step per replay.
 */
#ifndef GANTTY_WHATIF_H
#define GANTTY_WHATIF_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/depgraph.h"

struct analysis;
struct crossrank;

struct whatif {
	struct depgraph g;
	const struct dg_whatif *sc;     /* the scenarios (not owned) */
	size_t nsc;
	int64_t *replayed;              /* the unchanged replay's step spans:
	                                   [g.mark_first[p] / 2 + s] for step s
	                                   of analysis p, -1 without marks */
	int64_t **pred;                 /* nsc: each scenario's, likewise */
};

/* The step times of one analysis' step under the replays. */
struct whatif_step {
	int64_t measured_ns;            /* the CPU span of ProfilerStep */
	int64_t replayed_ns;            /* the unchanged replay's */
	int64_t predicted_ns;           /* the scenario's */
};

/*
 * Builds w from an[0..n) and x (as depgraph_build()) and replays it
 * unchanged and under sc[0..nsc) (borrowed: they must outlive w).
 * w is overwritten.  Cannot fail.
 */
void whatif_build(struct whatif *w, const struct analysis *an, size_t n,
    const struct crossrank *x, const struct dg_whatif *sc, size_t nsc);
/*
 * Step s of analysis p under scenario k into *out; returns 0, or -1 when
 * the step has no marks.
 */
int whatif_step(const struct whatif *w, size_t p, size_t s, size_t k,
    struct whatif_step *out);
/* a's place among the analyses w was built from, or -1 (w may be NULL). */
long whatif_part(const struct whatif *w, const struct analysis *a);
/*
 * What scenario k buys over the steps s of analysis p with in[s] set (NULL:
 * every step): the sums of their times into *out; returns how many steps
 * had marks.  The gain of the scenario is predicted_ns - replayed_ns: both
 * are replays of the same graph, so the graph's misses cancel.
 */
size_t whatif_total(const struct whatif *w, size_t p, size_t k,
    const unsigned char *in, struct whatif_step *out);
/*
 * "comm=2: -7.6 ms (-9.0%)": the scenario's text and its gain over the
 * unchanged replay of t into buf (size > 0).  Returns buf.
 */
char *whatif_gain_format(char *buf, size_t size, const char *scenario,
    const struct whatif_step *t);
/* Frees what w owns; w may be zeroed. */
void whatif_free(struct whatif *w);

#endif
