/*
 * view_whatif — the critical path and the what-if replays in the viewer;
 * see view_whatif.h.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/analysis.h"
#include "analysis/depgraph.h"
#include "analysis/whatif.h"
#include "base/xalloc.h"
#include "model/trace.h"
#include "view/view.h"
#include "view/view_compare.h"
#include "view/view_whatif.h"

struct view_whatif {
	const struct dg_whatif *given;  /* --what-if, borrowed */
	size_t ngiven;
	struct dg_whatif *sc;           /* the scenarios i cycles, owned copies
	                                   of given's first, then the defaults */
	size_t nsc;
	int built;
	struct whatif w;
	int shown;                      /* P */
	size_t cur;                     /* i: the current scenario */
	/* the path of the step in view, for (path_rank, path_step) */
	int has_path;
	size_t path_rank;
	long path_step;
	struct dg_path path;
};

static struct view_whatif *
wi(struct view *v)
{
	if (v->wi == NULL)
		v->wi = xcalloc(1, sizeof *v->wi);
	return v->wi;
}

/* Whether scenario text t is in sc[0..n) already. */
static int
has_text(const struct dg_whatif *sc, size_t n, const char *t)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(sc[i].text, t) == 0)
			return 1;
	return 0;
}

/* The scenarios: --what-if's (parsed again: each owns its regex), then the defaults. */
static void
scenarios(const struct view *v, struct view_whatif *p)
{
	static const char *const defaults[] = VIEW_WHATIF_DEFAULTS;
	size_t nd = sizeof defaults / sizeof defaults[0];
	char err[160];

	p->sc = xcalloc(p->ngiven + nd, sizeof *p->sc);
	for (size_t i = 0; i < p->ngiven; i++)
		if (!has_text(p->sc, p->nsc, p->given[i].text) &&
		    depgraph_whatif_parse(&p->sc[p->nsc], p->given[i].text, err,
		    sizeof err) == 0)
			p->nsc++;
	for (size_t i = 0; i < nd; i++) {
		if (has_text(p->sc, p->nsc, defaults[i]))
			continue;
		if (strcmp(defaults[i], "no-straggler") == 0 &&
		    (v->xr == NULL || v->compare))
			continue;
		if (depgraph_whatif_parse(&p->sc[p->nsc], defaults[i], err,
		    sizeof err) == 0)
			p->nsc++;
	}
}

/* Builds the graph and its replays once; with say, says what it cost. */
static int
build(struct view *v, int say)
{
	struct view_whatif *p = wi(v);
	struct timespec t0, t1;

	if (p->built)
		return 1;
	if (v->nan == 0) {
		snprintf(v->message, sizeof v->message,
		    "reports only: no trace to build the dependency graph from");
		return 0;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	scenarios(v, p);
	whatif_build(&p->w, v->an, v->nan, v->compare ? NULL : v->xr, p->sc,
	    p->nsc);
	p->built = 1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (say)
		snprintf(v->message, sizeof v->message,
		    "dependency graph: %zu nodes, %zu edges, %zu replays in %.0f ms",
		    p->w.g.nnodes, p->w.g.nedges, p->nsc + 1,
		    (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
		    (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
	return 1;
}

void
view_whatif_set(struct view *v, const struct dg_whatif *sc, size_t n, int show)
{
	struct view_whatif *p = wi(v);

	p->given = sc;
	p->ngiven = n;
	/* quiet: a frame does not print the graph's cost */
	if (show && build(v, 0)) {
		p->shown = 1;
		view_whatif_refresh(v);
	}
}

/* The gain line of the current scenario for the step in view, as the message. */
static void
say_current(struct view *v)
{
	struct whatif_step ws;
	const char *sc;
	size_t k, n;
	char line[160];
	long s;

	if (view_whatif_current(v, &ws, &sc, &k, &n) != 0) {
		snprintf(v->message, sizeof v->message,
		    "what-if: no step in view (] selects one)");
		return;
	}
	(void)view_whatif_path(v, &s);
	snprintf(v->message, sizeof v->message, "what-if %zu of %zu over #%lld: %s",
	    k + 1, n, (long long)view_current(v)->steps[s].number,
	    whatif_gain_format(line, sizeof line, sc, &ws));
}

int
view_whatif_toggle(struct view *v)
{
	struct view_whatif *p = wi(v);

	if (!p->shown && !build(v, 1))
		return VIEW_REPAINT;
	p->shown = !p->shown;
	view_whatif_refresh(v);
	if (p->shown && !p->has_path && v->message[0] == '\0')
		snprintf(v->message, sizeof v->message,
		    "critical path: no step in view (] selects one)");
	else if (!p->shown)
		snprintf(v->message, sizeof v->message, "critical path hidden");
	return VIEW_REPAINT;
}

int
view_whatif_next(struct view *v)
{
	struct view_whatif *p = wi(v);

	if (!p->built) {
		if (!build(v, 1))
			return VIEW_REPAINT;
	} else if (p->shown && p->nsc > 0) {
		p->cur = (p->cur + 1) % p->nsc;
	}
	p->shown = 1;
	view_whatif_refresh(v);
	if (p->nsc == 0)
		snprintf(v->message, sizeof v->message, "what-if: no scenario");
	else
		say_current(v);
	return VIEW_REPAINT;
}

int
view_whatif_eager(struct view *v)
{
	size_t n = 0;

	if (v->wi != NULL && v->wi->built)
		return 1;
	for (size_t i = 0; i < v->nan; i++)
		if (i == 0 || v->an[i].t != v->an[i - 1].t)
			n += v->an[i].t->nevents;
	if (v->nan == 0 || n > VIEW_WHATIF_EAGER)
		return 0;
	/* quiet: e's own message stays, the graph's cost is not news here */
	return build(v, 0);
}

void
view_whatif_refresh(struct view *v)
{
	struct view_whatif *p = v->wi;
	long s, part;

	if (p == NULL || !p->built)
		return;
	s = p->shown ? view_compare_step_in_view(v) : -1;
	if (p->has_path && p->path_rank == v->rank && p->path_step == s)
		return;
	if (p->has_path)
		depgraph_path_free(&p->path);
	p->has_path = 0;
	p->path_rank = v->rank;
	p->path_step = s;
	part = whatif_part(&p->w, view_current(v));
	if (s >= 0 && part >= 0 &&
	    depgraph_path(&p->w.g, (size_t)part, (size_t)s, &p->path) == 0)
		p->has_path = 1;
}

int
view_whatif_shown(const struct view *v)
{
	return v->wi != NULL && v->wi->built && v->wi->shown;
}

const struct dg_path *
view_whatif_path(const struct view *v, long *step)
{
	const struct view_whatif *p = v->wi;

	*step = -1;
	if (!view_whatif_shown(v) || !p->has_path || p->path_rank != v->rank ||
	    p->path_step != view_compare_step_in_view(v))
		return NULL;
	*step = p->path_step;
	return &p->path;
}

const char *
view_whatif_node_name(const struct view *v, uint32_t n)
{
	if (v->wi == NULL || !v->wi->built || n >= v->wi->w.g.nnodes)
		return "";
	return depgraph_node_name(&v->wi->w.g, n);
}

int
view_whatif_current(const struct view *v, struct whatif_step *out,
    const char **scenario, size_t *k, size_t *n)
{
	const struct view_whatif *p = v->wi;
	long s, part;

	if (view_whatif_path(v, &s) == NULL || p->nsc == 0 ||
	    (part = whatif_part(&p->w, view_current(v))) < 0 ||
	    whatif_step(&p->w, (size_t)part, (size_t)s, p->cur, out) != 0)
		return -1;
	*scenario = p->sc[p->cur].text;
	*k = p->cur;
	*n = p->nsc;
	return 0;
}

/* The scenarios that quote what a remedy of kind f would buy. */
static size_t
remedy_scenarios(enum finding_kind f, const char **out)
{
	switch (f) {
	case FIND_EXPOSED_COMM:
		out[0] = "comm=2";
		out[1] = "comm=inf";
		return 2;
	case FIND_SERIALISED_COMM:
	case FIND_SLOW_COLLECTIVE:
		out[0] = "comm=2";
		return 1;
	case FIND_STRAGGLER_RANK:
		out[0] = "no-straggler";
		return 1;
	case FIND_GPU_STARVED:
	case FIND_LAUNCH_BOUND:
	case FIND_DATALOADER_WAIT:
		out[0] = "no-host-wait";
		return 1;
	default:
		return 0;
	}
}

int
view_whatif_finding(const struct view *v, enum finding_kind f, char *buf,
    size_t size)
{
	const struct view_whatif *p = v->wi;
	const char *want[2];
	size_t nw = remedy_scenarios(f, want), len = 0, steps = 0;
	long part;

	buf[0] = '\0';
	if (nw == 0)
		return 0;
	if (p == NULL || !p->built) {
		snprintf(buf, size, "P builds the dependency graph; then what the "
		    "remedy buys (%s) shows here", want[0]);
		return 0;
	}
	if ((part = whatif_part(&p->w, view_current(v))) < 0)
		return 0;
	for (size_t i = 0; i < nw; i++)
		for (size_t k = 0; k < p->nsc; k++) {
			struct whatif_step t;
			char line[160];

			if (strcmp(p->sc[k].text, want[i]) != 0 ||
			    (steps = whatif_total(&p->w, (size_t)part, k, NULL,
			    &t)) == 0)
				continue;
			len += (size_t)snprintf(buf + len, len < size ? size - len : 0,
			    "%s%s", len > 0 ? "; " : "",
			    whatif_gain_format(line, sizeof line, want[i], &t));
			if (len >= size)
				len = size - 1;
		}
	if (len == 0)
		return 0;
	snprintf(buf + len, size - len, ", over %zu step%s", steps,
	    steps == 1 ? "" : "s");
	return 1;
}

void
view_whatif_free(struct view *v)
{
	struct view_whatif *p = v->wi;

	if (p == NULL)
		return;
	if (p->has_path)
		depgraph_path_free(&p->path);
	if (p->built)
		whatif_free(&p->w);
	for (size_t i = 0; i < p->nsc; i++)
		depgraph_whatif_free(&p->sc[i]);
	free(p->sc);
	free(p);
	v->wi = NULL;
}
