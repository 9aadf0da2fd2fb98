/*
 * whatif — replays of the dependency graph for the report (whatif.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/whatif.h"
#include "base/units.h"
#include "base/xalloc.h"

/* Replays w's graph with scenario sc (NULL: none) in t; returns its step spans. */
static int64_t *
replay_steps(const struct whatif *w, const struct dg_whatif *sc, int64_t *t)
{
	const struct depgraph *g = &w->g;
	size_t nsteps = g->mark_first[g->nparts] / 2;
	int64_t *span = xmalloc((nsteps + 1) * sizeof *span);

	depgraph_replay(g, sc, t);
	for (size_t p = 0; p < g->nparts; p++)
		for (size_t s = 0; 2 * s < g->mark_first[p + 1] - g->mark_first[p]; s++)
			span[g->mark_first[p] / 2 + s] = depgraph_step_ns(g, t, p, s);
	return span;
}

void
whatif_build(struct whatif *w, const struct analysis *an, size_t n,
    const struct crossrank *x, const struct dg_whatif *sc, size_t nsc)
{
	int64_t *t;

	memset(w, 0, sizeof *w);
	depgraph_build(&w->g, an, n, x);
	w->sc = sc;
	w->nsc = nsc;
	t = xmalloc((2 * w->g.nnodes + 1) * sizeof *t);
	w->replayed = replay_steps(w, NULL, t);
	w->pred = xcalloc(nsc + 1, sizeof *w->pred);
	for (size_t k = 0; k < nsc; k++)
		w->pred[k] = replay_steps(w, &sc[k], t);
	free(t);
}

/* Step s of analysis p in the spans of one replay, -1 without marks. */
static int64_t
span_of(const struct whatif *w, const int64_t *span, size_t p, size_t s)
{
	size_t m = w->g.mark_first[p] + 2 * s;

	return m + 1 < w->g.mark_first[p + 1] ? span[m / 2] : -1;
}

int
whatif_step(const struct whatif *w, size_t p, size_t s, size_t k,
    struct whatif_step *out)
{
	const struct step *st = &w->g.an[p].steps[s];

	out->measured_ns = st->end_ns - st->start_ns;
	out->replayed_ns = span_of(w, w->replayed, p, s);
	out->predicted_ns = k < w->nsc ? span_of(w, w->pred[k], p, s) :
	    out->replayed_ns;
	return out->replayed_ns < 0 ? -1 : 0;
}

long
whatif_part(const struct whatif *w, const struct analysis *a)
{
	if (w == NULL || a < w->g.an || a >= w->g.an + w->g.nparts)
		return -1;
	return (long)(a - w->g.an);
}

size_t
whatif_total(const struct whatif *w, size_t p, size_t k,
    const unsigned char *in, struct whatif_step *out)
{
	size_t n = 0;

	memset(out, 0, sizeof *out);
	for (size_t s = 0; s < w->g.an[p].nsteps; s++) {
		struct whatif_step ws;

		if ((in != NULL && !in[s]) || whatif_step(w, p, s, k, &ws) != 0)
			continue;
		out->measured_ns += ws.measured_ns;
		out->replayed_ns += ws.replayed_ns;
		out->predicted_ns += ws.predicted_ns;
		n++;
	}
	return n;
}

char *
whatif_gain_format(char *buf, size_t size, const char *scenario,
    const struct whatif_step *t)
{
	char d[32];
	int64_t gain = t->predicted_ns - t->replayed_ns;

	units_format_signed(d, sizeof d, gain);
	snprintf(buf, size, "%s: %s (%+.1f%%)", scenario, d,
	    t->replayed_ns > 0 ? 100.0 * (double)gain / (double)t->replayed_ns : 0.0);
	return buf;
}

void
whatif_free(struct whatif *w)
{
	if (w->pred != NULL)
		for (size_t k = 0; k < w->nsc; k++)
			free(w->pred[k]);
	free(w->pred);
	free(w->replayed);
	depgraph_free(&w->g);
	memset(w, 0, sizeof *w);
}
