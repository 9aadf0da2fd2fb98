/* crossrank — steps by rank, collectives matched across ranks; see crossrank.h. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/bandwidth.h"
#include "analysis/crossrank.h"
#include "model/itree.h"
#include "analysis/metrics.h"
#include "analysis/steps.h"
#include "base/strtab.h"
#include "model/trace.h"
#include "base/xalloc.h"

/* One collective kernel of one participant. */
struct rec {
	int64_t seq;            /* -1: keyed by name */
	int64_t occ;            /* occurrence within (group, seq / name) */
	int64_t ts_ns, end_ns;
	uint32_t group, name;   /* x->strs ids */
	uint32_t part;
	uint32_t event;
	int32_t group_size;
	uint8_t by_stream;
	uint8_t type;
	int64_t bytes;
	double expected_gbps;
};

/* b - a for a <= b, INT64_MAX when it does not fit (hostile timestamps). */
static int64_t
span_sat(int64_t a, int64_t b)
{
	uint64_t d = (uint64_t)b - (uint64_t)a;

	return d > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)d;
}

/* x + y for x, y >= 0, INT64_MAX when it does not fit. */
static int64_t
add_sat(int64_t x, int64_t y)
{
	return x > INT64_MAX - y ? INT64_MAX : x + y;
}

/* Compares the keys of a and b without the occurrence. */
static int
key_cmp(const struct rec *a, const struct rec *b)
{
	if (a->by_stream != b->by_stream)
		return a->by_stream < b->by_stream ? -1 : 1;
	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	if (a->seq != b->seq)
		return a->seq < b->seq ? -1 : 1;
	if (a->seq < 0 && a->name != b->name)
		return a->name < b->name ? -1 : 1;
	return 0;
}

/* Key, participant, time: to number the occurrences. */
static int
rec_cmp_occ(const void *pa, const void *pb)
{
	const struct rec *a = pa, *b = pb;
	int c = key_cmp(a, b);

	if (c != 0)
		return c;
	if (a->part != b->part)
		return a->part < b->part ? -1 : 1;
	if (a->ts_ns != b->ts_ns)
		return a->ts_ns < b->ts_ns ? -1 : 1;
	return a->event < b->event ? -1 : a->event > b->event;
}

/* Key, occurrence, participant: one run per collective. */
static int
rec_cmp_match(const void *pa, const void *pb)
{
	const struct rec *a = pa, *b = pb;
	int c = key_cmp(a, b);

	if (c != 0)
		return c;
	if (a->occ != b->occ)
		return a->occ < b->occ ? -1 : 1;
	return a->part < b->part ? -1 : a->part > b->part;
}

/*
 * Returns the group (process group name, else "stream N") and the fields of
 * the COMM activity e of t, as crossrank.h says.
 */
static void
coll_of(struct crossrank_in *in, const struct analysis *a, uint32_t ei)
{
	const struct trace *t = a->t;
	struct coll_bw bw;
	const struct event *e = &t->events[ei];
	struct event_args ea_buf;
	const struct event_args *ea = trace_args(t, e, &ea_buf);
	const struct comm_args *c = NULL;
	struct crossrank_coll_in r;
	const char *s;

	/* its own, or its launch's (comm.h) */
	if (ea != NULL && ea->comm != EV_NONE)
		c = &t->comms[ea->comm];
	memset(&r, 0, sizeof r);
	r.event = ei;
	r.ts_ns = e->ts_ns;
	r.end_ns = event_end(e);
	r.seq = c != NULL && c->seq >= 0 ? c->seq : -1;
	r.group_size = c != NULL ? c->group_size : -1;
	bandwidth_of(&a->dev, e, &bw);
	r.type = (uint8_t)bw.type;
	r.bytes = bw.bytes;
	r.expected_gbps = bw.expected_gbps;
	s = trace_str(t, c != NULL && c->collective != 0 ? c->collective : e->name);
	r.name = strtab_intern(&in->strs, s, strlen(s));
	if (c != NULL && c->pg_name != 0) {
		s = trace_str(t, c->pg_name);
		r.group = strtab_intern(&in->strs, s, strlen(s));
	} else {
		char sb[48];
		int64_t stream = ea != NULL && ea->stream >= 0 ? ea->stream :
		    t->tracks[e->track].tid;

		snprintf(sb, sizeof sb, "stream %" PRId64, stream);
		r.group = strtab_intern(&in->strs, sb, strlen(sb));
		r.by_stream = 1;
	}
	crossrank_in_add(in, &r);
}

void
crossrank_in_init(struct crossrank_in *in, int64_t rank, int32_t device,
    int64_t world_size)
{
	memset(in, 0, sizeof *in);
	strtab_init(&in->strs);
	in->rank = rank;
	in->device = device;
	in->world_size = world_size;
}

void
crossrank_in_add(struct crossrank_in *in, const struct crossrank_coll_in *c)
{
	xgrow(&in->colls, &in->colls_cap, in->ncolls + 1, sizeof *in->colls);
	in->colls[in->ncolls++] = *c;
}

void
crossrank_in_from_analysis(struct crossrank_in *in, const struct analysis *a)
{
	const struct trace *t = a->t;
	size_t n = 0;

	crossrank_in_init(in, t->rank, a->device, t->world_size);
	in->nsteps = a->nsteps;
	in->steps = xcalloc(a->nsteps, sizeof *in->steps);
	for (size_t i = 0; i < a->nsteps; i++) {
		in->steps[i].number = a->steps[i].number;
		in->steps[i].start_ns = a->steps[i].start_ns;
		in->steps[i].end_ns = a->steps[i].end_ns;
	}
	/* counted first: one array of the right size, not grown 75 K times */
	for (size_t i = 0; i < a->dev.nacts; i++)
		n += t->events[a->dev.acts[i]].cls == CLASS_COMM;
	xgrow(&in->colls, &in->colls_cap, n, sizeof *in->colls);
	for (size_t i = 0; i < a->dev.nacts; i++)
		if (t->events[a->dev.acts[i]].cls == CLASS_COMM)
			coll_of(in, a, a->dev.acts[i]);
}

void
crossrank_in_shift(struct crossrank_in *in, int64_t off_ns)
{
	for (size_t k = 0; k < in->nsteps; k++) {
		in->steps[k].start_ns += off_ns;
		in->steps[k].end_ns += off_ns;
	}
	for (size_t k = 0; k < in->ncolls; k++) {
		in->colls[k].ts_ns += off_ns;
		in->colls[k].end_ns += off_ns;
	}
}

void
crossrank_in_free(struct crossrank_in *in)
{
	free(in->steps);
	free(in->colls);
	strtab_free(&in->strs);
	memset(in, 0, sizeof *in);
}

/* Appends the collectives of participant p to *recs (names in x->strs). */
static void
collect(struct crossrank *x, const struct crossrank_in *in, uint32_t p,
    struct rec **recs, size_t *n, size_t *cap)
{
	for (size_t i = 0; i < in->ncolls; i++) {
		const struct crossrank_coll_in *c = &in->colls[i];
		const char *name = strtab_get(&in->strs, c->name);
		const char *group = strtab_get(&in->strs, c->group);
		struct rec r;

		memset(&r, 0, sizeof r);
		r.part = p;
		r.event = c->event;
		r.ts_ns = c->ts_ns;
		r.end_ns = c->end_ns;
		r.seq = c->seq >= 0 ? c->seq : -1;
		r.group_size = c->group_size;
		r.name = strtab_intern(&x->strs, name, strlen(name));
		r.group = strtab_intern(&x->strs, group, strlen(group));
		r.by_stream = c->by_stream != 0;
		r.type = c->type < COLL_NTYPES ? c->type : COLL_OTHER;
		r.bytes = c->bytes;
		r.expected_gbps = c->expected_gbps;
		xgrow(recs, cap, *n + 1, sizeof **recs);
		(*recs)[(*n)++] = r;
		x->parts[p].collectives++;
	}
}

/* A matched collective before it is placed: its record and its run. */
struct pending {
	struct crossrank_coll c;
	size_t run;             /* first record of its run */
};

static int
coll_time_cmp(const struct crossrank_coll *a, const struct crossrank_coll *b)
{
	if (a->first_start_ns != b->first_start_ns)
		return a->first_start_ns < b->first_start_ns ? -1 : 1;
	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	if (a->seq != b->seq)
		return a->seq < b->seq ? -1 : 1;
	if (a->name != b->name)
		return a->name < b->name ? -1 : 1;
	return a->occurrence < b->occurrence ? -1 : a->occurrence > b->occurrence;
}

static int
pending_cmp(const void *pa, const void *pb)
{
	return coll_time_cmp(&((const struct pending *)pa)->c,
	    &((const struct pending *)pb)->c);
}

static int
coll_cmp(const void *pa, const void *pb)
{
	return coll_time_cmp(pa, pb);
}

/* A candidate for the top list. */
struct top_rec {
	int64_t skew_ns, start_ns;
	size_t coll;
};

/* Largest skew first, then earlier, then by index. */
static int
top_cmp(const void *pa, const void *pb)
{
	const struct top_rec *a = pa, *b = pb;

	if (a->skew_ns != b->skew_ns)
		return a->skew_ns > b->skew_ns ? -1 : 1;
	if (a->start_ns != b->start_ns)
		return a->start_ns < b->start_ns ? -1 : 1;
	return a->coll < b->coll ? -1 : a->coll > b->coll;
}

/* Fills the key fields and times of c from the run r[0..n). */
static void
run_coll(struct crossrank_coll *c, const struct rec *r, size_t n)
{
	memset(c, 0, sizeof *c);
	c->name = r[0].name;
	c->group = r[0].group;
	c->by_stream = r[0].by_stream;
	c->seq = r[0].seq;
	c->occurrence = r[0].occ;
	c->group_size = -1;
	c->members = n;
	c->first_start_ns = c->last_start_ns = r[0].ts_ns;
	c->first_end_ns = c->last_end_ns = r[0].end_ns;
	c->last = (int32_t)r[0].part;
	c->bytes = -1;
	c->type = r[0].type;
	c->expected_gbps = -1;
	for (size_t i = 0; i < n; i++) {
		if (r[i].bytes > c->bytes)
			c->bytes = r[i].bytes;
		if (r[i].expected_gbps > c->expected_gbps)
			c->expected_gbps = r[i].expected_gbps;
		if (r[i].group_size > c->group_size)
			c->group_size = r[i].group_size;
		if (r[i].ts_ns < c->first_start_ns)
			c->first_start_ns = r[i].ts_ns;
		if (r[i].ts_ns > c->last_start_ns) {
			c->last_start_ns = r[i].ts_ns;
			c->last = (int32_t)r[i].part;
		}
		if (r[i].end_ns < c->first_end_ns)
			c->first_end_ns = r[i].end_ns;
		if (r[i].end_ns > c->last_end_ns)
			c->last_end_ns = r[i].end_ns;
	}
	c->skew_ns = span_sat(c->first_start_ns, c->last_start_ns);
	if (c->skew_ns == 0)
		c->last = -1;
}

static int
double_cmp(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/* The median of v[0..n) (sorted here), or -1 for n == 0. */
static double
median(double *v, size_t n)
{
	if (n == 0)
		return -1;
	qsort(v, n, sizeof *v, double_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One measure: participant p's busbw at a collective of a shape. */
struct bw_rec {
	int64_t bytes, group;
	uint32_t part;
	uint8_t type;
	double gbps;
};

/* By shape (type, group size, bytes), then participant, then value. */
static int
bw_rec_cmp(const void *pa, const void *pb)
{
	const struct bw_rec *a = pa, *b = pb;

	if (a->type != b->type)
		return a->type < b->type ? -1 : 1;
	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	if (a->bytes != b->bytes)
		return a->bytes < b->bytes ? -1 : 1;
	if (a->part != b->part)
		return a->part < b->part ? -1 : 1;
	return (a->gbps > b->gbps) - (a->gbps < b->gbps);
}

/* The median of the measures m[0..n) (sorted by value). */
static double
rec_median(const struct bw_rec *m, size_t n)
{
	return n % 2 ? m[n / 2].gbps : (m[n / 2 - 1].gbps + m[n / 2].gbps) / 2;
}

/* Compares the participants within each shape of m[0..n) (sorted). */
static void
compare_shapes(struct crossrank *x, const struct bw_rec *m, size_t n)
{
	double *pm = xcalloc(x->nparts ? x->nparts : 1, sizeof *pm);
	uint32_t *pp = xcalloc(x->nparts ? x->nparts : 1, sizeof *pp);

	for (size_t i = 0, j; i < n; i = j) {
		size_t np = 0;
		double all;

		for (j = i; j < n && m[j].type == m[i].type &&
		    m[j].group == m[i].group && m[j].bytes == m[i].bytes; j++)
			;
		/* each participant's median within the shape */
		for (size_t k = i, l; k < j; k = l) {
			for (l = k; l < j && m[l].part == m[k].part; l++)
				;
			pp[np] = m[k].part;
			pm[np++] = rec_median(&m[k], l - k);
		}
		if (np < CROSSRANK_BW_MIN_PARTS)
			continue;
		{
			double *v = xcalloc(np, sizeof *v);

			memcpy(v, pm, np * sizeof *v);
			all = median(v, np);
			free(v);
		}
		for (size_t k = 0; k < np && all > 0; k++) {
			struct crossrank_part *q = &x->parts[pp[k]];

			if (pm[k] / all >= q->bw_ratio)
				continue;
			q->bw_ratio = pm[k] / all;
			q->bw_worst_gbps = pm[k];
			q->bw_others_gbps = all;
			q->bw_bytes = m[i].bytes;
			q->bw_group = m[i].group;
			q->bw_type = m[i].type;
		}
	}
	free(pm);
	free(pp);
}

/* The bandwidth of the matched collectives (crossrank.h). */
static void
measure_bandwidth(struct crossrank *x)
{
	size_t n = x->nparts, nb, ne, nm = 0, mcap = 0;
	double *bw = xcalloc(x->ncolls ? x->ncolls : 1, sizeof *bw);
	double *ex = xcalloc(x->ncolls ? x->ncolls : 1, sizeof *ex);
	double *pb = xcalloc(n ? n : 1, sizeof *pb);
	double *pe = xcalloc(n ? n : 1, sizeof *pe);
	size_t npb = 0, npe = 0;
	struct bw_rec *m = NULL;

	for (size_t p = 0; p < n; p++) {
		struct crossrank_part *q = &x->parts[p];

		nb = ne = 0;
		q->bw_ratio = 1;
		q->bw_worst_gbps = q->bw_others_gbps = -1;
		for (size_t c = 0; c < x->ncolls; c++) {
			const struct crossrank_coll *cc = &x->colls[c];
			int64_t end = x->end_ns[c * n + p];
			int64_t g = cc->group_size > 0 ? cc->group_size :
			    (int64_t)cc->members;
			double f = bandwidth_factor((enum coll_type)cc->type, g);

			if (end == INT64_MIN || cc->bytes < CROSSRANK_BW_MIN_BYTES ||
			    f <= 0 || end <= cc->last_start_ns)
				continue;
			bw[nb] = (double)cc->bytes * f /
			    (double)(end - cc->last_start_ns);
			xgrow(&m, &mcap, nm + 1, sizeof *m);
			m[nm].bytes = cc->bytes;
			m[nm].group = g;
			m[nm].part = (uint32_t)p;
			m[nm].type = cc->type;
			m[nm++].gbps = bw[nb++];
			if (cc->expected_gbps >= 0)
				ex[ne++] = cc->expected_gbps;
		}
		q->bw_count = nb;
		q->busbw_gbps = median(bw, nb);
		q->expected_gbps = median(ex, ne);
		if (nb > 0)
			pb[npb++] = q->busbw_gbps;
		if (ne > 0)
			pe[npe++] = q->expected_gbps;
	}
	x->busbw_gbps = median(pb, npb);
	x->expected_gbps = median(pe, npe);
	if (nm > 1)
		qsort(m, nm, sizeof *m, bw_rec_cmp);
	compare_shapes(x, m, nm);
	free(m);
	free(bw);
	free(ex);
	free(pb);
	free(pe);
}

static void
build_collectives(struct crossrank *x, const struct crossrank_in *in, size_t n)
{
	struct rec *r = NULL;
	size_t nr = 0, rcap = 0, required = 0;
	struct pending *pend = NULL;
	size_t npend = 0, pcap = 0;
	struct crossrank_coll *miss = NULL;
	size_t nmiss = 0, mcap = 0;
	struct top_rec *tops;
	size_t ntops = 0;

	for (size_t p = 0; p < n; p++) {
		collect(x, &in[p], (uint32_t)p, &r, &nr, &rcap);
		if (x->parts[p].collectives > 0)
			required++;
	}

	/* Number each participant's occurrences of a key in time order. */
	if (nr > 0)
		qsort(r, nr, sizeof *r, rec_cmp_occ);
	for (size_t i = 0; i < nr; i++)
		r[i].occ = i > 0 && key_cmp(&r[i - 1], &r[i]) == 0 &&
		    r[i - 1].part == r[i].part ? r[i - 1].occ + 1 : 0;
	if (nr > 0)
		qsort(r, nr, sizeof *r, rec_cmp_match);

	/* One run per (key, occurrence): matched or not. */
	for (size_t i = 0, j; i < nr; i = j) {
		struct crossrank_coll c;
		size_t need = required;

		for (j = i + 1; j < nr && key_cmp(&r[i], &r[j]) == 0 &&
		    r[i].occ == r[j].occ; j++)
			;
		run_coll(&c, &r[i], j - i);
		if (c.group_size > 0 && (size_t)c.group_size < need)
			need = (size_t)c.group_size;
		if (c.members == need) {
			xgrow(&pend, &pcap, npend + 1, sizeof *pend);
			pend[npend].c = c;
			pend[npend++].run = i;
		} else {
			x->unmatched_keys++;
			x->unmatched += c.members;
			for (size_t k = i; k < j; k++)
				x->parts[r[k].part].unmatched++;
			xgrow(&miss, &mcap, nmiss + 1, sizeof *miss);
			miss[nmiss++] = c;
		}
	}

	/* The earliest unmatched keys. */
	if (nmiss > 0)
		qsort(miss, nmiss, sizeof *miss, coll_cmp);
	x->nmiss = nmiss < CROSSRANK_TOP_K ? nmiss : CROSSRANK_TOP_K;
	if (x->nmiss > 0)
		memcpy(x->miss, miss, x->nmiss * sizeof *miss);
	free(miss);

	/* Matched collectives in time order, with their per-participant kernels. */
	if (npend > 0)
		qsort(pend, npend, sizeof *pend, pending_cmp);
	x->ncolls = npend;
	x->colls = xcalloc(npend, sizeof *x->colls);
	x->start_ns = xcalloc(npend * n, sizeof *x->start_ns);
	x->end_ns = xcalloc(npend * n, sizeof *x->end_ns);
	x->event = xcalloc(npend * n, sizeof *x->event);
	for (size_t c = 0; c < npend; c++) {
		const struct crossrank_coll *cc = &pend[c].c;
		const struct rec *rr = &r[pend[c].run];
		int64_t lost = 0;

		x->colls[c] = *cc;
		for (size_t p = 0; p < n; p++) {
			x->start_ns[c * n + p] = INT64_MIN;
			x->end_ns[c * n + p] = INT64_MIN;
			x->event[c * n + p] = EV_NONE;
		}
		for (size_t k = 0; k < cc->members; k++) {
			size_t p = rr[k].part;
			int64_t w = span_sat(rr[k].ts_ns, cc->last_start_ns);

			x->start_ns[c * n + p] = rr[k].ts_ns;
			x->end_ns[c * n + p] = rr[k].end_ns;
			x->event[c * n + p] = rr[k].event;
			x->parts[p].wait_ns = add_sat(x->parts[p].wait_ns, w);
			lost = add_sat(lost, w);
		}
		x->total_skew_ns = add_sat(x->total_skew_ns, cc->skew_ns);
		if (cc->last >= 0) {
			x->parts[cc->last].last_count++;
			x->parts[cc->last].lost_ns = add_sat(x->parts[cc->last].lost_ns, lost);
		}
	}
	free(pend);
	free(r);
	measure_bandwidth(x);

	/* The largest skews. */
	tops = xcalloc(x->ncolls, sizeof *tops);
	for (size_t c = 0; c < x->ncolls; c++)
		if (x->colls[c].skew_ns > 0) {
			tops[ntops].skew_ns = x->colls[c].skew_ns;
			tops[ntops].start_ns = x->colls[c].first_start_ns;
			tops[ntops++].coll = c;
		}
	if (ntops > 0)
		qsort(tops, ntops, sizeof *tops, top_cmp);
	x->ntop = ntops < CROSSRANK_TOP_K ? ntops : CROSSRANK_TOP_K;
	for (size_t k = 0; k < x->ntop; k++)
		x->top[k] = tops[k].coll;
	free(tops);

	/* The straggler: last most often, then most lost time, then first. */
	x->straggler = -1;
	for (size_t p = 0; p < n; p++) {
		const struct crossrank_part *q = &x->parts[p];

		if (q->last_count == 0)
			continue;
		if (x->straggler < 0 ||
		    q->last_count > x->parts[x->straggler].last_count ||
		    (q->last_count == x->parts[x->straggler].last_count &&
		    q->lost_ns > x->parts[x->straggler].lost_ns))
			x->straggler = (int32_t)p;
	}
}

/* One step of one participant. */
struct step_rec {
	int64_t number, start_ns, dur_ns;
	size_t part;
};

static int
step_rec_cmp(const void *pa, const void *pb)
{
	const struct step_rec *a = pa, *b = pb;

	if (a->number != b->number)
		return a->number < b->number ? -1 : 1;
	if (a->part != b->part)
		return a->part < b->part ? -1 : 1;
	return a->start_ns < b->start_ns ? -1 : a->start_ns > b->start_ns;
}

static void
build_steps(struct crossrank *x, const struct crossrank_in *in, size_t n)
{
	struct step_rec *s;
	size_t ns = 0, rows = 0;

	for (size_t p = 0; p < n; p++)
		ns += in[p].nsteps;
	s = xcalloc(ns, sizeof *s);
	ns = 0;
	for (size_t p = 0; p < n; p++)
		for (size_t i = 0; i < in[p].nsteps; i++) {
			const struct crossrank_step_in *st = &in[p].steps[i];

			s[ns].number = st->number;
			s[ns].start_ns = st->start_ns;
			s[ns].dur_ns = st->end_ns - st->start_ns;
			s[ns++].part = p;
		}
	if (ns > 0)
		qsort(s, ns, sizeof *s, step_rec_cmp);
	for (size_t i = 0; i < ns; i++)
		if (i == 0 || s[i].number != s[i - 1].number)
			rows++;
	x->nsteps = rows;
	x->steps = xcalloc(rows, sizeof *x->steps);
	x->step_ns = xcalloc(rows * n, sizeof *x->step_ns);
	for (size_t i = 0; i < rows * n; i++)
		x->step_ns[i] = -1;
	rows = 0;
	for (size_t i = 0, j; i < ns; i = j, rows++) {
		struct crossrank_step *row = &x->steps[rows];

		row->number = s[i].number;
		row->slowest = -1;
		for (j = i; j < ns && s[j].number == s[i].number; j++) {
			int64_t d = s[j].dur_ns;

			if (j > i && s[j].part == s[j - 1].part)
				continue;       /* a second step N: keep the first */
			x->step_ns[rows * n + s[j].part] = d;
			if (row->present == 0 || d < row->min_ns)
				row->min_ns = d;
			if (row->present == 0 || d > row->max_ns) {
				row->max_ns = d;
				row->slowest = (int32_t)s[j].part;
			}
			row->present++;
		}
		row->spread_ns = row->max_ns - row->min_ns;
		if (row->present < n)
			x->steps_incomplete++;
	}
	free(s);
}

void
crossrank_build_from(struct crossrank *x, const struct crossrank_in *in,
    size_t n)
{
	memset(x, 0, sizeof *x);
	strtab_init(&x->strs);
	x->nparts = n;
	x->parts = xcalloc(n, sizeof *x->parts);
	for (size_t p = 0; p < n; p++) {
		x->parts[p].rank = in[p].rank;
		x->parts[p].device = in[p].device;
		if (in[p].world_size > x->world_size)
			x->world_size = in[p].world_size;
	}
	build_steps(x, in, n);
	build_collectives(x, in, n);
}

void
crossrank_build(struct crossrank *x, const struct analysis *an, size_t n)
{
	struct crossrank_in *in = xcalloc(n ? n : 1, sizeof *in);

	for (size_t p = 0; p < n; p++)
		crossrank_in_from_analysis(&in[p], &an[p]);
	crossrank_build_from(x, in, n);
	for (size_t p = 0; p < n; p++)
		crossrank_in_free(&in[p]);
	free(in);
}

void
crossrank_free(struct crossrank *x)
{
	free(x->parts);
	free(x->steps);
	free(x->step_ns);
	free(x->colls);
	free(x->start_ns);
	free(x->end_ns);
	free(x->event);
	strtab_free(&x->strs);
	memset(x, 0, sizeof *x);
}
