#include "config.h"

#include "analysis/findings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/layers.h"
#include "analysis/bandwidth.h"
#include "analysis/crossrank.h"
#include "analysis/memory.h"
#include "model/trace.h"
#include "base/units.h"
#include "base/xalloc.h"

static const char *const kind_ids[FIND_KINDS] = {
#define X(name, id) id,
	FINDINGS_KINDS(X)
#undef X
};

const char *
findings_kind_id(enum finding_kind k)
{
	return k < FIND_KINDS ? kind_ids[k] : "unknown";
}

const char *
findings_severity_name(enum finding_severity s)
{
	static const char *const names[] = { "info", "warning", "critical" };

	return s <= SEV_CRITICAL ? names[s] : "unknown";
}

const struct finding_num *
findings_num(const struct finding *f, const char *key)
{
	for (size_t i = 0; i < f->nnums; i++)
		if (strcmp(f->nums[i].key, key) == 0)
			return &f->nums[i];
	return NULL;
}

const struct finding *
findings_get(const struct finding *f, size_t n, enum finding_kind k)
{
	for (size_t i = 0; i < n; i++)
		if (f[i].kind == k)
			return &f[i];
	return NULL;
}

/* ---- building one finding ------------------------------------------- */

struct list {
	struct finding *f;
	size_t n, cap;
};

static struct finding *
add(struct list *l, enum finding_kind k, enum finding_severity s,
    const char *remedy)
{
	struct finding *f;

	xgrow(&l->f, &l->cap, l->n + 1, sizeof *l->f);
	f = &l->f[l->n++];
	memset(f, 0, sizeof *f);
	f->kind = k;
	f->severity = s;
	f->remedy = remedy;
	return f;
}

static void
num_i(struct finding *f, const char *key, int64_t v)
{
	if (f->nnums == FINDINGS_MAX_NUMS)
		return;
	f->nums[f->nnums].key = key;
	f->nums[f->nnums].i = v;
	f->nnums++;
}

static void
num_d(struct finding *f, const char *key, double v)
{
	if (f->nnums == FINDINGS_MAX_NUMS)
		return;
	f->nums[f->nnums].key = key;
	f->nums[f->nnums].is_real = 1;
	f->nums[f->nnums].d = v;
	f->nnums++;
}

/*
 * Keeps the FINDINGS_MAX_RANGES longest intervals offered, longest first
 * (ties: earlier first), in r[0..*n).
 */
static void
keep_longest(struct ival *r, size_t *n, int64_t s, int64_t e)
{
	size_t i;

	if (e <= s)
		return;
	if (*n == FINDINGS_MAX_RANGES) {
		struct ival *last = &r[*n - 1];

		if (e - s <= last->end_ns - last->start_ns)
			return;
		(*n)--;
	}
	for (i = *n; i > 0; i--) {
		int64_t len = r[i - 1].end_ns - r[i - 1].start_ns;

		if (len > e - s || (len == e - s && r[i - 1].start_ns <= s))
			break;
		r[i] = r[i - 1];
	}
	r[i].start_ns = s;
	r[i].end_ns = e;
	(*n)++;
}

static int64_t
sat_add(int64_t a, int64_t b)
{
	return a > INT64_MAX - b ? INT64_MAX : a + b;
}

static double
share(int64_t part, int64_t whole)
{
	return whole > 0 ? (double)part / (double)whole : 0.0;
}

static const char *
fmt(char *buf, size_t size, int64_t ns)
{
	return units_format(buf, size, ns);
}

/* ---- the context every rule reads ------------------------------------ */

struct ctx {
	const struct analysis *a;
	const struct trace *t;
	const struct metrics *d;
	int64_t w0, w1;         /* the window W */
	int64_t c0, c1;         /* W widened to the CPU spans of the steps */
	size_t s0, s1;          /* the steps overlapping W: a->steps[s0 .. s1) */
	int64_t step_ns;        /* their CPU time (|W| without steps) */
};

static int
step_in_window(const struct ctx *c, const struct step *s)
{
	if (s->end_ns > c->w0 && s->start_ns < c->w1)
		return 1;
	return s->has_gpu && s->gpu_end_ns > c->w0 && s->gpu_start_ns < c->w1;
}

static void
ctx_init(struct ctx *c, const struct analysis *a)
{
	memset(c, 0, sizeof *c);
	c->a = a;
	c->t = a->t;
	c->d = &a->dev;
	c->w0 = c->c0 = a->start_ns;
	c->w1 = c->c1 = a->end_ns;
	c->s0 = a->nsteps;
	for (size_t i = 0; i < a->nsteps; i++) {
		const struct step *s = &a->steps[i];

		if (!step_in_window(c, s))
			continue;
		if (c->s0 == a->nsteps)
			c->s0 = i;
		c->s1 = i + 1;
		c->step_ns = sat_add(c->step_ns, s->end_ns - s->start_ns);
		if (s->start_ns < c->c0)
			c->c0 = s->start_ns;
		if (s->end_ns > c->c1)
			c->c1 = s->end_ns;
	}
	if (c->s0 == a->nsteps)
		c->s0 = c->s1 = 0;
	if (c->s1 == c->s0)
		c->step_ns = c->w1 - c->w0;
}

/* Returns 1 if a CPU event at ts_ns lies inside one of the steps (or, with
 * none, inside W). */
static int
in_steps(const struct ctx *c, int64_t ts_ns)
{
	long k;

	if (c->s1 == c->s0)
		return ts_ns >= c->w0 && ts_ns < c->w1;
	k = steps_at(c->a->steps + c->s0, c->s1 - c->s0, ts_ns);
	return k >= 0 && ts_ns < c->a->steps[c->s0 + k].end_ns;
}

/* ---- the rules ------------------------------------------------------- */

static void
rule_starved(struct list *l, const struct ctx *c)
{
	const struct window_metrics *m = &c->a->m;
	int64_t wlen = c->w1 - c->w0, host = m->idle_by_kind_ns[IDLE_HOST_WAIT];
	double idle = share(m->idle_ns, wlen), hs = share(host, m->idle_ns);
	struct finding *f;
	char b1[32], b2[32];

	if (idle < FINDINGS_STARVED_IDLE_SHARE || hs < FINDINGS_STARVED_HOST_SHARE)
		return;
	f = add(l, FIND_GPU_STARVED, idle >= FINDINGS_STARVED_CRIT_SHARE ?
	    SEV_CRITICAL : SEV_WARNING,
	    "The CPU does not keep the GPU fed. Take work off the Python critical "
	    "path: more DataLoader workers with pin_memory, non_blocking copies, "
	    "no .item()/.cpu()/print of GPU tensors in the loop; a larger "
	    "per-GPU batch; torch.compile or CUDA graphs to cut launch overhead.");
	snprintf(f->summary, sizeof f->summary,
	    "GPU idle %.1f%% of the window (%s), %.0f%% of it waiting for the host "
	    "to launch work (%s)", 100 * idle, fmt(b1, sizeof b1, m->idle_ns),
	    100 * hs, fmt(b2, sizeof b2, host));
	num_i(f, "window_ns", wlen);
	num_i(f, "idle_ns", m->idle_ns);
	num_d(f, "idle_share", idle);
	num_i(f, "host_wait_ns", host);
	num_d(f, "host_wait_share_of_idle", hs);
	num_i(f, "gap_count", (int64_t)m->gap_count);
	for (size_t i = 0; i < m->ntop && f->nranges < FINDINGS_MAX_RANGES; i++) {
		f->ranges[f->nranges].start_ns = m->top[i].start_ns;
		f->ranges[f->nranges].end_ns = m->top[i].start_ns + m->top[i].dur_ns;
		f->nranges++;
	}
}

/* Returns the k-th smallest of v[0..n) (k < n), reordering v.  O(n) expected. */
static int64_t
select_kth(int64_t *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		int64_t p = v[lo + (hi - lo) / 2], tmp;
		size_t i = lo, j = hi;

		while (i <= j) {
			while (v[i] < p)
				i++;
			while (v[j] > p)
				j--;
			if (i <= j) {
				tmp = v[i], v[i] = v[j], v[j] = tmp;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			break;
	}
	return v[k];
}

/* The compute activities starting in the window: rule_launch()'s room. */
static size_t
compute_acts(const struct ctx *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->d->nacts; i++) {
		const struct event *e = &c->t->events[c->d->acts[i]];

		n += e->cls == CLASS_COMPUTE && e->ts_ns >= c->w0 && e->ts_ns < c->w1;
	}
	return n;
}

static void
rule_launch(struct list *l, const struct ctx *c)
{
	const struct metrics *d = c->d;
	int64_t *durs = NULL, prev_end = INT64_MIN, hole_ns = 0, median;
	size_t ncomp = 0, separated = 0, nruns = 0;
	struct ival runs[FINDINGS_MAX_RANGES];
	int64_t run_s = 0, run_e = 0;
	size_t run_n = 0;
	struct finding *f;
	char b1[32], b2[32];

	for (size_t i = 0; i < d->nacts; i++) {
		const struct event *e = &c->t->events[d->acts[i]];
		int64_t end = event_end(e), hole;
		int is_short;

		if (e->ts_ns < c->w0 || e->ts_ns >= c->w1) {
			if (prev_end == INT64_MIN || end > prev_end)
				prev_end = end;
			continue;
		}
		hole = prev_end == INT64_MIN ? -1 : e->ts_ns - prev_end;
		if (hole > 0 && hole <= FINDINGS_LAUNCH_GAP_NS)
			hole_ns += hole;
		is_short = e->cls == CLASS_COMPUTE &&
		    e->dur_ns <= FINDINGS_LAUNCH_SHORT_NS;
		if (e->cls == CLASS_COMPUTE) {
			if (durs == NULL)       /* one per compute activity */
				durs = xreallocarray(NULL, compute_acts(c), sizeof *durs);
			durs[ncomp++] = e->dur_ns;
			if (hole > 0 && hole <= FINDINGS_LAUNCH_GAP_NS)
				separated++;
		}
		/* runs: short kernels, each after a launch-sized hole */
		if (is_short && run_n > 0 && hole > 0 &&
		    hole <= FINDINGS_LAUNCH_GAP_NS) {
			run_e = end > run_e ? end : run_e;
			run_n++;
		} else if (e->cls != CLASS_COMPUTE && hole <= 0 && run_n > 0) {
			/* a concurrent collective or copy does not end a run */
		} else {
			if (run_n >= 2)
				keep_longest(runs, &nruns, run_s, run_e);
			run_n = is_short ? 1 : 0;
			run_s = e->ts_ns;
			run_e = end;
		}
		if (prev_end == INT64_MIN || end > prev_end)
			prev_end = end;
	}
	if (run_n >= 2)
		keep_longest(runs, &nruns, run_s, run_e);
	if (ncomp < FINDINGS_LAUNCH_MIN_KERNELS) {
		free(durs);
		return;
	}
	median = select_kth(durs, ncomp, ncomp / 2);
	free(durs);
	if (median > FINDINGS_LAUNCH_SHORT_NS || 2 * separated < ncomp ||
	    share(hole_ns, c->w1 - c->w0) < FINDINGS_LAUNCH_IDLE_SHARE)
		return;
	f = add(l, FIND_LAUNCH_BOUND, SEV_WARNING,
	    "The GPU runs many tiny kernels and waits for each launch. Fuse them: "
	    "torch.compile (mode=\"reduce-overhead\" also captures CUDA graphs), "
	    "CUDA graphs (torch.cuda.graphs), fused optimizers (foreach/fused=True), "
	    "or a larger batch per kernel.");
	snprintf(f->summary, sizeof f->summary,
	    "%zu compute kernels with a median of %s, %zu of them after a "
	    "launch-sized idle gap (<= %s), %.1f%% of the window idle that way",
	    ncomp, fmt(b1, sizeof b1, median), separated,
	    fmt(b2, sizeof b2, FINDINGS_LAUNCH_GAP_NS),
	    100 * share(hole_ns, c->w1 - c->w0));
	num_i(f, "kernels", (int64_t)ncomp);
	num_i(f, "median_kernel_ns", median);
	num_i(f, "launch_gaps", (int64_t)separated);
	num_i(f, "launch_gap_ns", hole_ns);
	num_d(f, "launch_gap_share", share(hole_ns, c->w1 - c->w0));
	memcpy(f->ranges, runs, nruns * sizeof *runs);
	f->nranges = nruns;
}

/* Keeps the longest intervals of s inside [a, b) in r. */
static void
longest_of(const struct ivset *s, int64_t a, int64_t b, struct ival *r,
    size_t *n)
{
	for (size_t i = ivset_find(s, a); i < s->n && s->start_ns[i] < b; i++) {
		int64_t x = s->start_ns[i] < a ? a : s->start_ns[i];
		int64_t y = s->end_ns[i] > b ? b : s->end_ns[i];

		keep_longest(r, n, x, y);
	}
}

static int
contains_ci(const char *s, const char *what)
{
	return strcasestr(s, what) != NULL;
}

/*
 * The events whose names pass test (byname.h), ascending: the rules below
 * that look for a few named CPU events look at those only.
 */
static size_t
named(const struct trace *t, int (*test)(const char *, const void *),
    const void *arg, uint32_t **out)
{
	return byname_select(&t->byname, &t->strs, test, arg, out);
}

/* The collectives exposed_comm's evidence splits by. */
enum { EXPO_AG, EXPO_RS, EXPO_AR, EXPO_A2A, EXPO_OTHER, EXPO_KINDS };

static int
coll_kind_name(const char *name)
{
	switch (bandwidth_type(name)) {
	case COLL_ALL_GATHER: return EXPO_AG;
	case COLL_REDUCE_SCATTER: return EXPO_RS;
	case COLL_ALL_REDUCE: return EXPO_AR;
	case COLL_ALL_TO_ALL: case COLL_SEND_RECV: return EXPO_A2A;
	default: return EXPO_OTHER;
	}
}

/*
 * The kind of a COMM activity: by its kernel name, else its collective
 * name.  memo (one byte per string of the trace's table when d was built,
 * zeroed) keeps each string's kind + 1: a name is read once.
 */
static int
coll_kind(const struct trace *t, uint8_t *memo, const struct event *e)
{
	struct event_args a_buf;
	const struct event_args *a;
	int k;

	if (memo[e->name] == 0)
		memo[e->name] = (uint8_t)(coll_kind_name(trace_str(t, e->name)) + 1);
	k = memo[e->name] - 1;
	if (k == EXPO_OTHER && (a = trace_args(t, e, &a_buf)) != NULL &&
	    a->comm != EV_NONE) {
		uint32_t id = t->comms[a->comm].collective;

		if (memo[id] == 0)
			memo[id] = (uint8_t)(coll_kind_name(trace_str(t, id)) + 1);
		k = memo[id] - 1;
	}
	return k;
}

static const char remedy_ag[] =
    "All-gathers are exposed: prefetch the next unit's parameters (FSDP2 "
    "set_modules_to_forward_prefetch / set_modules_to_backward_prefetch; FSDP1 "
    "backward_prefetch=BACKWARD_PRE, forward_prefetch=True), keep "
    "reshard_after_forward=False for the last units, or raise the micro-batch "
    "so each unit's compute covers the next gather.";
static const char remedy_rs[] =
    "Gradient reductions are exposed: raise the micro-batch or accumulate "
    "gradients without syncing (FSDP2 set_requires_gradient_sync(False), "
    "FSDP1/DDP no_sync()), and size the buckets (DDP bucket_cap_mb, FSDP "
    "wrapping granularity) so reductions start earlier and overlap the rest "
    "of backward.";
static const char remedy_a2a[] =
    "All-to-all / send-recv exchanges are exposed (embedding or expert "
    "exchange): pipeline them with the dense compute (e.g. TorchRec's "
    "TrainPipelineSparseDist starts the next batch's input distribution "
    "early), send less (lower-precision embeddings, fewer lookups), and "
    "balance the shards so that no rank waits for another.";
static const char remedy_comm[] =
    "Communication is exposed: prefetch parameters (FSDP backward/forward "
    "prefetch), raise the micro-batch so compute covers the collectives, and "
    "size buckets / wrapping units so collectives overlap compute.";

static void
rule_exposed(struct list *l, const struct ctx *c)
{
	const struct analysis *a = c->a;
	const struct metrics *d = c->d;
	int64_t exposed = 0, base = 0, by[EXPO_KINDS] = { 0 }, covered = INT64_MIN;
	struct ival *ext;
	size_t next = 0;
	struct ivset u;
	static const char *const keys[EXPO_KINDS] = { "all_gather_exposed_ns",
		"reduce_scatter_exposed_ns", "all_reduce_exposed_ns",
		"all_to_all_exposed_ns", "other_comm_exposed_ns" };
	static const char *const words[EXPO_KINDS] = { "all-gather",
		"reduce-scatter", "all-reduce", "all-to-all / send-recv", "other" };
	const struct layer **worst;
	size_t nworst = 0;
	struct finding *f;
	double sh;
	int top = EXPO_AG;
	char b1[32], b2[32];
	int n, whole = 1;
	uint8_t *memo;

	/* the union of the steps' GPU extents (they may overlap) */
	ext = xcalloc(c->s1 - c->s0 + 1, sizeof *ext);
	for (size_t i = c->s0; i < c->s1; i++) {
		const struct step *s = &a->steps[i];

		if (!s->has_gpu)
			continue;
		if (s->gpu_start_ns < c->w0 || s->gpu_end_ns > c->w1)
			whole = 0;
		ext[next].start_ns = s->gpu_start_ns < c->w0 ? c->w0 : s->gpu_start_ns;
		ext[next].end_ns = s->gpu_end_ns > c->w1 ? c->w1 : s->gpu_end_ns;
		next++;
	}
	memset(&u, 0, sizeof u);
	ivset_build(&u, ext, next);
	free(ext);
	/*
	 * Of step time as the steps give it (their CPU spans), as the other
	 * rules and the steps table measure it, when W holds the steps whole;
	 * a window that cuts them holds only part of their time: then of the
	 * part of their GPU extents inside it.
	 */
	base = ivset_total(&u);
	if (base > 0 && whole)
		base = c->step_ns;
	for (size_t i = 0; i < u.n; i++)
		exposed += ivset_measure(&d->exposed, u.start_ns[i], u.end_ns[i]);
	ivset_free(&u);
	if (base == 0) {
		base = c->w1 - c->w0;
		exposed = a->m.exposed_comm_ns;
	}
	sh = share(exposed, base);
	if (sh < FINDINGS_EXPOSED_SHARE || base < FINDINGS_EXPOSED_MIN_BASE_NS ||
	    exposed < FINDINGS_EXPOSED_MIN_NS)
		return;
	/* each exposed ns goes to the earliest collective covering it */
	memo = xcalloc(d->nnames ? d->nnames : 1, 1);
	for (size_t i = 0; i < d->nacts; i++) {
		const struct event *e = &c->t->events[d->acts[i]];
		int64_t x = e->ts_ns, y = event_end(e);

		if (e->cls != CLASS_COMM)
			continue;
		x = x < c->w0 ? c->w0 : x;
		x = x < covered ? covered : x;
		y = y > c->w1 ? c->w1 : y;
		if (y > x) {
			by[coll_kind(c->t, memo, e)] += ivset_measure(&d->exposed, x, y);
			covered = y;
		}
	}
	free(memo);
	for (int k = 1; k < EXPO_KINDS; k++)
		if (by[k] > by[top])
			top = k;
	worst = xcalloc(a->nlayers + 1, sizeof *worst);
	for (size_t i = 0; i < a->nlayers; i++) {
		const struct layer *ly = &a->layers[i];

		if (ly->has_gpu && ly->own_exposed_comm_ns > 0 &&
		    ly->own_exposed_comm_ns >= exposed / 100 &&
		    ly->gpu_end_ns > c->w0 && ly->gpu_start_ns < c->w1)
			worst[nworst++] = ly;
	}
	qsort(worst, nworst, sizeof *worst, layers_qsort_worst);
	/*
	 * at most EXPOSED_PER_LAYER occurrences of one (name, phase), no
	 * model-wide layer (its step's whole extent), no range twice
	 */
	{
		size_t kept = 0;

		for (size_t i = 0; i < nworst && kept < FINDINGS_MAX_RANGES; i++) {
			int same = 0;

			if (layers_rank_skip(worst[i], worst, kept, a->steps, a->nsteps))
				continue;
			for (size_t j = 0; j < kept; j++)
				same += worst[j]->name == worst[i]->name &&
				    worst[j]->phase == worst[i]->phase;
			if (same < FINDINGS_EXPOSED_PER_LAYER)
				worst[kept++] = worst[i];
		}
		nworst = kept;
	}
	f = add(l, FIND_EXPOSED_COMM, sh >= FINDINGS_EXPOSED_CRIT_SHARE ?
	    SEV_CRITICAL : SEV_WARNING,
	    top == EXPO_AG ? remedy_ag : top == EXPO_RS || top == EXPO_AR ?
	    remedy_rs : top == EXPO_A2A ? remedy_a2a : remedy_comm);
	n = snprintf(f->summary, sizeof f->summary,
	    "exposed communication %s, %.1f%% of step time; mostly %s (%s)",
	    fmt(b1, sizeof b1, exposed), 100 * sh, words[top],
	    fmt(b2, sizeof b2, by[top]));
	for (size_t i = 0; i < nworst && i < 3 && n > 0 &&
	    (size_t)n < sizeof f->summary; i++)
		n += snprintf(f->summary + n, sizeof f->summary - n,
		    "%s %s %s (step %lld) %s", i == 0 ? "; worst layers:" : ",",
		    trace_str(c->t, worst[i]->name),
		    layers_phase_name(worst[i]->phase), (long long)worst[i]->step,
		    fmt(b1, sizeof b1, worst[i]->own_exposed_comm_ns));
	num_i(f, "exposed_comm_ns", exposed);
	num_i(f, "step_time_ns", base);
	num_d(f, "exposed_share", sh);
	for (int k = 0; k < EXPO_KINDS; k++)
		num_i(f, keys[k], by[k]);
	if (nworst > 0)
		num_i(f, "worst_layer_own_exposed_ns", worst[0]->own_exposed_comm_ns);
	for (size_t i = 0; i < nworst && f->nranges < FINDINGS_MAX_RANGES; i++) {
		f->ranges[f->nranges].start_ns = worst[i]->gpu_start_ns;
		f->ranges[f->nranges].end_ns = worst[i]->gpu_end_ns;
		f->nranges++;
	}
	if (f->nranges == 0)
		longest_of(&d->exposed, c->w0, c->w1, f->ranges, &f->nranges);
	free(worst);
}

static void
rule_serialised(struct list *l, const struct ctx *c)
{
	const struct window_metrics *m = &c->a->m;
	int64_t wlen = c->w1 - c->w0;
	struct finding *f;
	char b1[32], b2[32];

	if (share(m->comm_ns, wlen) < FINDINGS_SERIAL_MIN_SHARE ||
	    share(m->compute_ns, wlen) < FINDINGS_SERIAL_MIN_SHARE ||
	    share(m->overlap_ns, m->comm_ns) >= FINDINGS_SERIAL_MAX_OVERLAP)
		return;
	f = add(l, FIND_SERIALISED_COMM, SEV_WARNING,
	    "Collectives never run alongside compute. Make sure they run on their "
	    "own stream and are not waited for at once: async collectives "
	    "(async_op=True, FSDP/DDP do this), no torch.cuda.synchronize() or "
	    "blocking wait() right after them, and do not set "
	    "CUDA_DEVICE_MAX_CONNECTIONS=1 without reason.");
	snprintf(f->summary, sizeof f->summary,
	    "communication (%s) and compute (%s) never overlap: %.1f%% of comm is "
	    "hidden", fmt(b1, sizeof b1, m->comm_ns),
	    fmt(b2, sizeof b2, m->compute_ns),
	    100 * share(m->overlap_ns, m->comm_ns));
	num_i(f, "comm_ns", m->comm_ns);
	num_i(f, "compute_ns", m->compute_ns);
	num_i(f, "overlap_ns", m->overlap_ns);
	num_d(f, "overlap_share", share(m->overlap_ns, m->comm_ns));
	longest_of(&c->d->exposed, c->w0, c->w1, f->ranges, &f->nranges);
}

static int64_t
step_len(const struct step *s)
{
	return s->end_ns - s->start_ns;
}

/*
 * The idle time of the device from end_ns to its next activity (0 when it is
 * busy at end_ns), inside W.
 */
static int64_t
idle_after(const struct ctx *c, int64_t end_ns)
{
	const struct ivset *all = &c->d->all;
	size_t i;
	int64_t next;

	if (end_ns < c->w0 || end_ns >= c->w1)
		return 0;
	i = ivset_find(all, end_ns);
	if (i < all->n && all->start_ns[i] <= end_ns)
		return 0;
	next = i < all->n ? all->start_ns[i] : c->w1;
	return (next > c->w1 ? c->w1 : next) - end_ns;
}

static void
rule_sync(struct list *l, const struct ctx *c)
{
	const struct trace *t = c->t;
	int64_t total = 0, longest = 0, idle = 0;
	double worst = 0;       /* the largest idle after one call / its step */
	size_t count = 0;
	int n;
	struct ival r[FINDINGS_MAX_RANGES];
	size_t nr = 0;
	struct finding *f;
	char b1[32], b2[32], b3[32], b4[32];
	uint32_t *sel;
	/* EVF_SYNC: a cuda_runtime call named *Synchronize* (load.c) */
	size_t nsel = named(t, byname_contains, "Synchronize", &sel);

	for (size_t j = 0; j < nsel; j++) {
		const struct event *e = &t->events[sel[j]];
		int64_t after;

		if (!(e->flags & EVF_SYNC) || event_ph(e) != 'X' ||
		    e->dur_ns < FINDINGS_SYNC_MIN_NS || !in_steps(c, e->ts_ns))
			continue;
		after = idle_after(c, event_end(e));
		if (after <= 0)
			continue;
		if (c->s1 > c->s0) {
			const struct step *st = c->a->steps + c->s0;
			long k = steps_at(st, c->s1 - c->s0, e->ts_ns);

			if (k >= 0 && share(after, step_len(&st[k])) > worst)
				worst = share(after, step_len(&st[k]));
		}
		count++;
		total = sat_add(total, e->dur_ns);
		idle = sat_add(idle, after);
		if (e->dur_ns > longest)
			longest = e->dur_ns;
		keep_longest(r, &nr, event_end(e), event_end(e) + after);
	}
	free(sel);
	if (count == 0 || (share(idle, c->step_ns) < FINDINGS_SYNC_SHARE &&
	    worst < FINDINGS_SYNC_STEP_SHARE))
		return;
	f = add(l, FIND_SYNC_STALL, SEV_WARNING,
	    "The CPU blocks on the GPU inside the step. Remove .item(), .cpu(), "
	    ".tolist(), print() of CUDA tensors, torch.cuda.synchronize() and "
	    "blocking copies from the training loop; copy with non_blocking=True and "
	    "read metrics every N steps.");
	n = snprintf(f->summary, sizeof f->summary,
	    "%zu synchronisation calls of >= %s inside %s (%s, the longest %s) "
	    "leave the GPU idle %s afterwards, %.1f%% of %s", count,
	    fmt(b1, sizeof b1, FINDINGS_SYNC_MIN_NS),
	    c->s1 > c->s0 ? "steps" : "the window", fmt(b2, sizeof b2, total),
	    fmt(b3, sizeof b3, longest), fmt(b4, sizeof b4, idle),
	    100 * share(idle, c->step_ns),
	    c->s1 > c->s0 ? "step time" : "the window");
	if (c->s1 > c->s0 && n > 0 && (size_t)n < sizeof f->summary)
		snprintf(f->summary + n, sizeof f->summary - n,
		    " (%.1f%% of one step at worst)", 100 * worst);
	num_i(f, "calls", (int64_t)count);
	num_i(f, "sync_ns", total);
	num_i(f, "longest_ns", longest);
	num_i(f, "idle_after_ns", idle);
	num_i(f, "step_time_ns", c->step_ns);
	num_d(f, "share", share(idle, c->step_ns));
	num_d(f, "worst_step_share", worst);
	memcpy(f->ranges, r, nr * sizeof *r);
	f->nranges = nr;
}

static void
rule_churn(struct list *l, const struct ctx *c)
{
	const struct trace *t = c->t;
	const struct step *s = c->a->steps;
	size_t calls = 0, mallocs = 0, steps_hit = 0;
	int64_t total = 0;
	long last_step = -1;
	struct ival r[FINDINGS_MAX_RANGES];
	size_t nr = 0;
	struct finding *f;
	char b1[32];

	if (c->s1 <= MEMORY_WARMUP_STEPS)
		return;
	for (size_t j = 0; j < t->nlist[LIST_ALLOC_CALLS]; j++) {
		const struct event *e = &t->events[t->lists[LIST_ALLOC_CALLS][j]];
		long k;

		k = steps_at(s, c->a->nsteps, e->ts_ns);
		if (k < 0 || e->ts_ns >= s[k].end_ns || (size_t)k < c->s0 ||
		    (size_t)k >= c->s1 || k < MEMORY_WARMUP_STEPS)
			continue;
		calls++;
		if (!(e->flags & EVF_FREE_CALL))
			mallocs++;
		total = sat_add(total, e->dur_ns);
		if (k != last_step)
			steps_hit++, last_step = k;
		keep_longest(r, &nr, e->ts_ns, event_end(e) > e->ts_ns ?
		    event_end(e) : e->ts_ns + 1);
	}
	if (calls < FINDINGS_CHURN_MIN_CALLS)
		return;
	f = add(l, FIND_ALLOCATOR_CHURN, SEV_WARNING,
	    "The caching allocator keeps going back to CUDA after warm-up. Try "
	    "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (or "
	    "max_split_size_mb:<N> / garbage_collection_threshold:<0..1>), keep "
	    "tensor shapes static across steps, and drop torch.cuda.empty_cache() "
	    "from the loop.");
	snprintf(f->summary, sizeof f->summary,
	    "%zu cudaMalloc/cudaFree calls (%zu mallocs) in %zu steps after the "
	    "first %d, taking %s", calls, mallocs, steps_hit, MEMORY_WARMUP_STEPS,
	    fmt(b1, sizeof b1, total));
	num_i(f, "calls", (int64_t)calls);
	num_i(f, "mallocs", (int64_t)mallocs);
	num_i(f, "frees", (int64_t)(calls - mallocs));
	num_i(f, "steps", (int64_t)steps_hit);
	num_i(f, "call_ns", total);
	memcpy(f->ranges, r, nr * sizeof *r);
	f->nranges = nr;
}

static int
is_dataloader_next(const char *name, const void *arg)
{
	(void)arg;
	return strstr(name, "DataLoader") != NULL && strstr(name, "__next__") != NULL;
}

static void
rule_dataloader(struct list *l, const struct ctx *c)
{
	const struct trace *t = c->t;
	const struct analysis *a = c->a;
	struct ival *iv = NULL;
	size_t niv = 0, cap = 0, count = 0;
	struct ivset u;
	int64_t total, between = 0;
	struct finding *f;
	char b1[32], b2[32];
	uint32_t *sel;
	size_t nsel = named(t, is_dataloader_next, NULL, &sel);

	for (size_t j = 0; j < nsel; j++) {
		const struct event *e = &t->events[sel[j]];
		int64_t x, y;

		if (event_ph(e) != 'X' || event_is_activity(e) ||
		    t->tracks[e->track].kind != TRACK_CPU)
			continue;
		x = e->ts_ns < c->c0 ? c->c0 : e->ts_ns;
		y = event_end(e) > c->c1 ? c->c1 : event_end(e);
		if (y <= x)
			continue;
		xgrow(&iv, &cap, niv + 1, sizeof *iv);
		iv[niv].start_ns = x;
		iv[niv].end_ns = y;
		niv++;
	}
	free(sel);
	memset(&u, 0, sizeof u);
	ivset_build(&u, iv, niv);
	free(iv);
	count = u.n;
	total = ivset_total(&u);
	if (count == 0 || share(total, c->step_ns) < FINDINGS_DATALOADER_SHARE) {
		ivset_free(&u);
		return;
	}
	for (size_t i = c->s0; i + 1 < c->s1; i++) {
		const struct step *s = &a->steps[i], *n = &a->steps[i + 1];
		struct window_metrics m;

		if (!s->has_gpu || !n->has_gpu || n->gpu_start_ns <= s->gpu_end_ns)
			continue;
		metrics_window(c->d, s->gpu_end_ns, n->gpu_start_ns, &m);
		between = sat_add(between, m.idle_ns);
	}
	f = add(l, FIND_DATALOADER_WAIT, SEV_WARNING,
	    "The training loop waits for data. Raise DataLoader num_workers, set "
	    "pin_memory=True, persistent_workers=True and prefetch_factor, move "
	    "decoding/augmentation off the main process, or preprocess offline.");
	snprintf(f->summary, sizeof f->summary,
	    "%zu DataLoader __next__ spans take %s, %.1f%% of step time; GPU idle "
	    "between steps %s", count, fmt(b1, sizeof b1, total),
	    100 * share(total, c->step_ns), fmt(b2, sizeof b2, between));
	num_i(f, "spans", (int64_t)count);
	num_i(f, "dataloader_ns", total);
	num_i(f, "step_time_ns", c->step_ns);
	num_d(f, "share", share(total, c->step_ns));
	num_i(f, "between_steps_idle_ns", between);
	longest_of(&u, c->c0, c->c1, f->ranges, &f->nranges);
	ivset_free(&u);
}

static void
rule_outlier(struct list *l, const struct ctx *c)
{
	const struct analysis *a = c->a;
	size_t n = c->s1 - c->s0, noutl = 0;
	const struct step *worst = NULL, *med;
	struct window_metrics mw, mm;
	int64_t dl[5];
	static const char *const what[5] = { "a longer idle time", "a longer gap",
		"slower compute", "more communication", "more exposed communication" };
	static const char *const keys[5] = { "idle_delta_ns", "largest_gap_delta_ns",
		"compute_delta_ns", "comm_delta_ns", "exposed_comm_delta_ns" };
	struct finding *f;
	int big = 0;
	char b1[32], b2[32], b3[32];

	for (size_t i = c->s0; i < c->s1; i++) {
		const struct step *s = &a->steps[i];

		if (!s->outlier)
			continue;
		noutl++;
		if (worst == NULL || step_len(s) > step_len(worst))
			worst = s;
	}
	if (worst == NULL)
		return;
	med = &a->steps[c->s0 + (size_t)steps_median(&a->steps[c->s0], n)];
	metrics_window(c->d, worst->start_ns, worst->end_ns, &mw);
	metrics_window(c->d, med->start_ns, med->end_ns, &mm);
	dl[0] = mw.idle_ns - mm.idle_ns;
	dl[1] = (mw.ntop ? mw.top[0].dur_ns : 0) - (mm.ntop ? mm.top[0].dur_ns : 0);
	dl[2] = mw.compute_ns - mm.compute_ns;
	dl[3] = mw.comm_ns - mm.comm_ns;
	dl[4] = mw.exposed_comm_ns - mm.exposed_comm_ns;
	for (int k = 1; k < 5; k++)
		if (dl[k] > dl[big])
			big = k;
	f = add(l, FIND_OUTLIER_STEP, SEV_WARNING,
	    "Look at what the slow step does differently: a long gap points at the "
	    "host (data loading, checkpointing, garbage collection, a recompile), "
	    "slower kernels at the GPU (throttling, a different shape), more "
	    "communication at the network or another rank.");
	snprintf(f->summary, sizeof f->summary,
	    "%zu outlier step%s; ProfilerStep#%lld took %s against a median of %s, "
	    "mostly %s (+%s)", noutl, noutl == 1 ? "" : "s",
	    (long long)worst->number, fmt(b1, sizeof b1, step_len(worst)),
	    fmt(b2, sizeof b2, step_len(med)), what[big],
	    fmt(b3, sizeof b3, dl[big]));
	num_i(f, "outliers", (int64_t)noutl);
	num_i(f, "step", worst->number);
	num_i(f, "step_ns", step_len(worst));
	num_i(f, "median_step_ns", step_len(med));
	num_d(f, "z", worst->z);
	for (int k = 0; k < 5; k++)
		num_i(f, keys[k], dl[k]);
	for (size_t i = c->s0; i < c->s1 && f->nranges < FINDINGS_MAX_RANGES; i++)
		if (a->steps[i].outlier) {
			f->ranges[f->nranges].start_ns = a->steps[i].start_ns;
			f->ranges[f->nranges].end_ns = a->steps[i].end_ns;
			f->nranges++;
		}
}

/*
 * The straggler rule on x alone (so that per-rank reports merged later give
 * the same): its lost time against its own step time in x (the span of the
 * matched collectives without steps).
 */
static void
cross_straggler(struct list *l, const struct crossrank *x)
{
	const struct crossrank_part *p;
	int64_t base = 0, lo = INT64_MAX, hi = INT64_MIN;
	struct ival r[FINDINGS_MAX_RANGES];
	size_t nr = 0, s;
	struct finding *f;
	char b1[32];

	if (x == NULL || x->nparts < 2 || x->straggler < 0 ||
	    (size_t)x->straggler >= x->nparts)
		return;
	s = (size_t)x->straggler;
	p = &x->parts[s];
	for (size_t i = 0; i < x->nsteps; i++)
		if (crossrank_step_ns(x, i, s) > 0)
			base = sat_add(base, crossrank_step_ns(x, i, s));
	for (size_t i = 0; i < x->ncolls; i++) {
		lo = x->colls[i].first_start_ns < lo ? x->colls[i].first_start_ns : lo;
		hi = x->colls[i].last_end_ns > hi ? x->colls[i].last_end_ns : hi;
	}
	if (base == 0 && hi > lo)
		base = hi - lo;
	if (p->last_count < FINDINGS_STRAGGLER_MIN_LAST ||
	    share(p->lost_ns, base) < FINDINGS_STRAGGLER_SHARE)
		return;
	for (size_t i = 0; i < x->ncolls; i++)
		if (x->colls[i].last == (int32_t)s)
			keep_longest(r, &nr, x->colls[i].first_start_ns,
			    x->colls[i].last_start_ns);
	f = add(l, FIND_STRAGGLER_RANK, SEV_WARNING,
	    "The other ranks wait for this one at collectives. Check what it does "
	    "differently (more data, a slower or throttled GPU, a busy host, "
	    "stragglers in its data loader); if the traces come from different "
	    "hosts, rule out clock offsets with --align=collective.");
	snprintf(f->summary, sizeof f->summary,
	    "rank %lld arrived last at %zu of %zu collectives; the others waited %s "
	    "for it", (long long)p->rank, p->last_count, x->ncolls,
	    fmt(b1, sizeof b1, p->lost_ns));
	num_i(f, "rank", p->rank);
	num_i(f, "device", p->device);
	num_i(f, "last_count", (int64_t)p->last_count);
	num_i(f, "collectives", (int64_t)x->ncolls);
	num_i(f, "lost_ns", p->lost_ns);
	num_i(f, "step_time_ns", base);
	num_d(f, "lost_share", share(p->lost_ns, base));
	memcpy(f->ranges, r, nr * sizeof *r);
	f->nranges = nr;
}

static void
rule_straggler(struct list *l, const struct crossrank *x, size_t part)
{
	if (x != NULL && x->straggler >= 0 && (size_t)x->straggler == part)
		cross_straggler(l, x);
}

/* "32 MiB", "1.5 GiB", "512 KiB", "100 B" */
static const char *
bytes_text(char *buf, size_t n, int64_t b)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)b;
	int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	snprintf(buf, n, v == (double)(int64_t)v ? "%.0f %s" : "%.1f %s", v, unit[u]);
	return buf;
}

/* Whether participant p's busbw is far below the others' (findings.h). */
static int
slow_part(const struct crossrank *x, size_t p)
{
	return x->parts[p].bw_count > 0 &&
	    x->parts[p].bw_ratio < FINDINGS_SLOW_LINK_SHARE;
}

/*
 * The slow-collective rule on x alone; only_part >= 0: raised only when
 * that participant is one it is about.
 */
static void
cross_slow_collective(struct list *l, const struct crossrank *x, long only_part)
{
	size_t measured = 0, nslow = 0, n;
	const struct crossrank_part *w;
	char b1[32];
	int32_t worst = -1;
	struct ival r[FINDINGS_MAX_RANGES];
	size_t nr = 0;
	struct finding *f;
	char ranks[160];
	size_t rl = 0;

	if (x == NULL || x->nparts < 2 || x->busbw_gbps < 0)
		return;
	n = x->nparts;
	for (size_t p = 0; p < n; p++)
		measured += x->parts[p].bw_count > 0;
	ranks[0] = '\0';
	for (size_t p = 0; p < n; p++) {
		if (!slow_part(x, p))
			continue;
		if (worst < 0 || x->parts[p].busbw_gbps < x->parts[worst].busbw_gbps)
			worst = (int32_t)p;
		if (nslow < 8 && rl + 24 < sizeof ranks)
			rl += (size_t)snprintf(ranks + rl, sizeof ranks - rl, "%s%lld",
			    nslow ? ", " : "", (long long)x->parts[p].rank);
		else if (nslow == 8 && rl + 8 < sizeof ranks)
			rl += (size_t)snprintf(ranks + rl, sizeof ranks - rl, ", ...");
		nslow++;
	}
	if (nslow > 0) {
		if (only_part >= 0 && !slow_part(x, (size_t)only_part))
			return;
		for (size_t c = 0; c < x->ncolls; c++) {
			int64_t end = INT64_MIN;

			const struct crossrank_coll *cc = &x->colls[c];
			int64_t g = cc->group_size > 0 ? cc->group_size :
			    (int64_t)cc->members;

			/* the collectives of the worst one's shape */
			if (cc->type != x->parts[worst].bw_type ||
			    cc->bytes != x->parts[worst].bw_bytes ||
			    g != x->parts[worst].bw_group)
				continue;
			for (size_t p = 0; p < n; p++)
				if (slow_part(x, p) && x->end_ns[c * n + p] > end)
					end = x->end_ns[c * n + p];
			if (end != INT64_MIN)
				keep_longest(r, &nr, cc->last_start_ns, end);
		}
		f = add(l, FIND_SLOW_COLLECTIVE, SEV_WARNING,
		    "Collectives through these ranks move data slower than through "
		    "the others once every rank has arrived: a slow or degraded "
		    "link (or a slow peer on it). Check the node's topology and "
		    "link health (nvidia-smi topo -m, nvidia-smi nvlink -s, "
		    "ibstat), whether NCCL chose the expected transport "
		    "(NCCL_DEBUG=INFO; NCCL_P2P_LEVEL, NCCL_ALGO), and whether "
		    "the process groups span nodes where they should not.");
		w = &x->parts[worst];
		snprintf(f->summary, sizeof f->summary,
		    "%s %s: %s of %s in groups of %lld at %.1f GB/s bus bandwidth, "
		    "the others' median %.1f GB/s", nslow > 1 ? "ranks" : "rank",
		    ranks, bandwidth_type_key((enum coll_type)w->bw_type),
		    bytes_text(b1, sizeof b1, w->bw_bytes), (long long)w->bw_group,
		    w->bw_worst_gbps, w->bw_others_gbps);
		num_i(f, "rank", w->rank);
		num_i(f, "device", w->device);
		num_i(f, "slow_ranks", (int64_t)nslow);
		num_i(f, "bytes", w->bw_bytes);
		num_i(f, "group_size", w->bw_group);
		num_d(f, "busbw_gbps", w->bw_worst_gbps);
		num_d(f, "others_busbw_gbps", w->bw_others_gbps);
	} else if (x->expected_gbps > 0 &&
	    x->busbw_gbps < FINDINGS_SLOW_NET_SHARE * x->expected_gbps) {
		for (size_t c = 0; c < x->ncolls; c++)
			if (x->colls[c].bytes >= CROSSRANK_BW_MIN_BYTES)
				keep_longest(r, &nr, x->colls[c].last_start_ns,
				    x->colls[c].last_end_ns);
		f = add(l, FIND_SLOW_COLLECTIVE, SEV_WARNING,
		    "Every rank's collectives run far below what the link gives, "
		    "even counted from the last arrival: the network is the "
		    "bottleneck. Check the topology (nvidia-smi topo -m: GPUs "
		    "that talk over PCIe or across NVLink islands), that NCCL "
		    "uses NVLink / InfiniBand and not sockets (NCCL_DEBUG=INFO, "
		    "NCCL_P2P_LEVEL, NCCL_IB_HCA), and the process-group layout "
		    "(keep the largest collectives inside a node).");
		snprintf(f->summary, sizeof f->summary,
		    "collectives reach %.1f GB/s bus bandwidth, %.0f%% of the "
		    "%.0f GB/s the link gives", x->busbw_gbps,
		    100.0 * x->busbw_gbps / x->expected_gbps, x->expected_gbps);
		num_i(f, "slow_ranks", (int64_t)measured);
	} else {
		return;
	}
	num_d(f, "median_busbw_gbps", x->busbw_gbps);
	if (x->expected_gbps >= 0)
		num_d(f, "expected_busbw_gbps", x->expected_gbps);
	num_i(f, "min_bytes", CROSSRANK_BW_MIN_BYTES);
	memcpy(f->ranges, r, nr * sizeof *r);
	f->nranges = nr;
}

size_t
findings_cross(const struct crossrank *x, struct finding **out)
{
	struct list l = { NULL, 0, 0 };

	*out = NULL;
	cross_straggler(&l, x);
	cross_slow_collective(&l, x, -1);
	*out = l.f;
	return l.n;
}

static int
is_fused_attention(const char *name, const void *arg)
{
	(void)arg;
	return contains_ci(name, "flash") || contains_ci(name, "fmha") ||
	    contains_ci(name, "efficient_attention") ||
	    contains_ci(name, "fused_attention") ||
	    contains_ci(name, "scaled_dot_product");
}

static int
is_bmm_name(const char *name, const void *arg)
{
	(void)arg;
	return strcmp(name, "aten::bmm") == 0 || strcmp(name, "aten::baddbmm") == 0;
}

/* A CPU op (not from B/E or an instant) starting in c's CPU window. */
static int
is_op_in(const struct ctx *c, const struct event *e)
{
	return event_ph(e) == 'X' && c->t->cat_kinds[e->cat] == CAT_CPU_OP &&
	    e->ts_ns >= c->c0 && e->ts_ns < c->c1;
}

static int
is_bmm(const struct trace *t, const struct event *e)
{
	return event_ph(e) == 'X' && t->cat_kinds[e->cat] == CAT_CPU_OP &&
	    is_bmm_name(trace_str(t, e->name), NULL);
}

/*
 * Returns 1 if the softmax ev has a batched matmul ending before it and one
 * starting after it, each within FINDINGS_ATTN_NEAR_NS, on its CPU track
 * (looking at most FINDINGS_ATTN_SCAN events either way).
 */
static int
between_bmms(const struct trace *t, uint32_t ev)
{
	const struct event *s = &t->events[ev];
	const struct track *tr = &t->tracks[s->track];
	int before = 0, after = 0;

	for (uint32_t i = ev, k = 0; i > tr->first && k < FINDINGS_ATTN_SCAN &&
	    !before; k++) {
		const struct event *e = &t->events[--i];

		if (e->ts_ns < s->ts_ns - FINDINGS_ATTN_NEAR_NS)
			break;
		before = is_bmm(t, e) && event_end(e) <= s->ts_ns;
	}
	for (uint32_t i = ev + 1, k = 0; i < tr->first + tr->count &&
	    k < FINDINGS_ATTN_SCAN && !after; i++, k++) {
		const struct event *e = &t->events[i];

		if (e->ts_ns > event_end(s) + FINDINGS_ATTN_NEAR_NS)
			break;
		after = is_bmm(t, e) && e->ts_ns >= event_end(s);
	}
	return before && after;
}

static void
rule_attention(struct list *l, const struct ctx *c)
{
	const struct trace *t = c->t;
	const struct metrics *d = c->d;
	size_t nsoft = 0, nmm = 0;
	struct ival r[FINDINGS_MAX_RANGES];
	size_t nr = 0;
	struct finding *f;
	uint32_t *sel;
	size_t nsel = named(t, is_fused_attention, NULL, &sel);

	/* any fused attention kernel of the device, or op, in the window */
	for (size_t j = 0; j < nsel; j++) {
		const struct event *e = &t->events[sel[j]];

		if ((event_is_activity(e) && e->cls == CLASS_COMPUTE &&
		    trace_event_device(t, e) == d->device && e->ts_ns >= c->w0 &&
		    e->ts_ns < c->w1) || is_op_in(c, e)) {
			free(sel);
			return;
		}
	}
	free(sel);
	nsel = named(t, is_bmm_name, NULL, &sel);
	for (size_t j = 0; j < nsel; j++)
		nmm += is_op_in(c, &t->events[sel[j]]);
	free(sel);
	nsel = named(t, byname_equals, "aten::_softmax", &sel);
	for (size_t j = 0; j < nsel; j++) {
		const struct event *e = &t->events[sel[j]];

		if (!is_op_in(c, e) || !between_bmms(t, sel[j]))
			continue;
		nsoft++;
		if (nr < FINDINGS_MAX_RANGES) {
			r[nr].start_ns = e->ts_ns;
			r[nr].end_ns = event_end(e) > e->ts_ns ? event_end(e) :
			    e->ts_ns + 1;
			nr++;
		}
	}
	free(sel);
	if (nsoft < FINDINGS_ATTN_MIN_SOFTMAX)
		return;
	f = add(l, FIND_ATTENTION_UNFUSED, SEV_WARNING,
	    "Attention runs as separate matmul and softmax kernels. Use "
	    "torch.nn.functional.scaled_dot_product_attention (flash or "
	    "memory-efficient backend), FlashAttention, or torch.compile, which "
	    "also saves the memory of the attention matrix.");
	snprintf(f->summary, sizeof f->summary,
	    "%zu aten::_softmax ops between batched matmuls (aten::bmm / "
	    "baddbmm, %zu in all) and no fused attention op or kernel", nsoft, nmm);
	num_i(f, "softmax_ops", (int64_t)nsoft);
	num_i(f, "bmm_ops", (int64_t)nmm);
	memcpy(f->ranges, r, nr * sizeof *r);
	f->nranges = nr;
}

static void
rule_mfu(struct list *l, const struct ctx *c)
{
	const struct mfu_result *m = &c->a->mfu;
	struct finding *f;

	if (!m->has_value || m->value >= FINDINGS_LOW_MFU)
		return;
	f = add(l, FIND_LOW_MFU, m->value < FINDINGS_LOW_MFU_CRIT ? SEV_CRITICAL :
	    SEV_WARNING,
	    "The GPU does far less useful math than it could. Fix the other "
	    "findings first (idle, exposed communication, launch overhead); then "
	    "raise the per-GPU batch, use bf16 autocast, fused kernels "
	    "(torch.compile, scaled_dot_product_attention) and avoid needless "
	    "activation recomputation.");
	snprintf(f->summary, sizeof f->summary,
	    "MFU %.1f%% (%s) against a peak of %.0f TFLOP/s", 100 * m->value,
	    m->source ? m->source : "?", m->has_peak ? m->peak_tflops : 0.0);
	num_d(f, "mfu", m->value);
	if (m->has_peak)
		num_d(f, "peak_tflops", m->peak_tflops);
	if (m->has_achieved)
		num_d(f, "achieved_tflops", m->achieved_tflops);
	f->ranges[0].start_ns = c->w0;
	f->ranges[0].end_ns = c->w1;
	f->nranges = 1;
}

static int
by_severity(const void *pa, const void *pb)
{
	const struct finding *a = pa, *b = pb;

	if (a->severity != b->severity)
		return a->severity > b->severity ? -1 : 1;
	return (a->kind > b->kind) - (a->kind < b->kind);
}

size_t
findings_find(const struct analysis *a, const struct crossrank *x, size_t part,
    struct finding **out)
{
	struct list l = { NULL, 0, 0 };
	struct ctx c;

	*out = NULL;
	if (a->device < 0 || !a->has_window || a->end_ns <= a->start_ns)
		return 0;
	ctx_init(&c, a);
	rule_starved(&l, &c);
	rule_launch(&l, &c);
	rule_exposed(&l, &c);
	rule_serialised(&l, &c);
	rule_sync(&l, &c);
	rule_churn(&l, &c);
	rule_dataloader(&l, &c);
	rule_outlier(&l, &c);
	rule_straggler(&l, x, part);
	cross_slow_collective(&l, x, (long)part);
	rule_attention(&l, &c);
	rule_mfu(&l, &c);
	if (l.n > 1)
		qsort(l.f, l.n, sizeof *l.f, by_severity);
	*out = l.f;
	return l.n;
}
