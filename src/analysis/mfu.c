#include "config.h"

#include "analysis/mfu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/metrics.h"
#include "base/match.h"
#include "base/runsort.h"
#include "analysis/steps.h"
#include "model/trace.h"
#include "base/xalloc.h"

/*
 * The peak table: dense (no 2:4 sparsity) BF16 tensor/matrix TFLOP/s, FP16
 * for GPUs without BF16 (V100, T4).  NVIDIA datasheets print the sparse
 * figure; the dense one is half of it.  AMD MI250X / MI250 are one OAM with
 * two GCDs, which PyTorch sees as two devices, so their rows are per GCD.
 *
 * Rows are tried in order and the first match wins, so a more specific row
 * comes before a general one ("H100 PCIe" before "H100").  A match must not
 * be glued to letters, digits or '_' on either side: "A10" does not match
 * "A100", "H200" does not match "GH200", "B200" does not match "GB200",
 * "L40" does not match "L40S".
 */
const struct mfu_peak mfu_peak_table[] = {
	/* NVIDIA Blackwell */
	{ "GB200", "NVIDIA GB200 (Blackwell in Grace Blackwell)", 2500,
	  "NVIDIA GB200 NVL72 datasheet, FP16/BF16 5 PFLOPS per GPU with sparsity / 2" },
	{ "B200", "NVIDIA B200 (HGX, 1000 W)", 2250,
	  "NVIDIA HGX B200 datasheet / Blackwell architecture technical brief, BF16 dense" },
	{ "B100", "NVIDIA B100 (HGX, 700 W)", 1750,
	  "NVIDIA Blackwell architecture technical brief (HGX B100), BF16 dense" },
	/* NVIDIA Hopper */
	{ "GH200", "NVIDIA GH200 Grace Hopper", 989.4,
	  "NVIDIA GH200 Grace Hopper Superchip datasheet, BF16 1979 with sparsity / 2" },
	{ "H100 PCIe", "NVIDIA H100 PCIe", 756,
	  "NVIDIA H100 Tensor Core GPU datasheet (PCIe), BF16 1513 with sparsity / 2" },
	{ "H100 NVL", "NVIDIA H100 NVL", 835,
	  "NVIDIA H100 Tensor Core GPU datasheet (NVL), BF16 1671 with sparsity / 2" },
	{ "H100", "NVIDIA H100 SXM5", 989.4,
	  "NVIDIA H100 Tensor Core GPU datasheet (SXM5), BF16 1979 with sparsity / 2" },
	{ "H800 PCIe", "NVIDIA H800 PCIe", 756,
	  "same GPU as the H100 PCIe (NVIDIA H100 datasheet), BF16 dense" },
	{ "H800", "NVIDIA H800 SXM5", 989.4,
	  "same GPU as the H100 SXM5 (NVIDIA H100 datasheet), BF16 dense" },
	{ "H200 NVL", "NVIDIA H200 NVL", 835,
	  "NVIDIA H200 Tensor Core GPU datasheet (NVL), BF16 1671 with sparsity / 2" },
	{ "H200", "NVIDIA H200 SXM", 989.4,
	  "NVIDIA H200 Tensor Core GPU datasheet (SXM), BF16 1979 with sparsity / 2" },
	/* NVIDIA Ada and Ampere */
	{ "L40S", "NVIDIA L40S", 362.05,
	  "NVIDIA L40S datasheet, BF16 362.05 dense (733 with sparsity)" },
	{ "L40", "NVIDIA L40", 181.05,
	  "NVIDIA L40 datasheet, BF16 181.05 dense (362.1 with sparsity)" },
	{ "L4", "NVIDIA L4", 121,
	  "NVIDIA L4 Tensor Core GPU datasheet, BF16 242 with sparsity / 2" },
	{ "A100", "NVIDIA A100 (SXM4 and PCIe, 40 and 80 GB)", 312,
	  "NVIDIA A100 Tensor Core GPU datasheet, BF16 312 dense (624 with sparsity)" },
	{ "A10G", "NVIDIA A10G (AWS)", 70,
	  "no NVIDIA datasheet; widely cited AWS G5 figure, BF16 70 dense" },
	{ "A10", "NVIDIA A10", 125,
	  "NVIDIA A10 Tensor Core GPU datasheet, BF16 125 dense (250 with sparsity)" },
	{ "A30", "NVIDIA A30", 165,
	  "NVIDIA A30 Tensor Core GPU datasheet, BF16 165 dense (330 with sparsity)" },
	{ "A40", "NVIDIA A40", 149.7,
	  "NVIDIA A40 datasheet, BF16 149.7 dense (299.4 with sparsity)" },
	{ "RTX A6000", "NVIDIA RTX A6000", 154.8,
	  "NVIDIA Ampere GA102 whitepaper (RTX A6000), BF16 FP32-accumulate 154.8 dense" },
	/* NVIDIA Volta and Turing: no BF16, FP16 tensor instead */
	{ "V100S", "NVIDIA V100S PCIe", 130,
	  "NVIDIA V100 datasheet (V100S PCIe), FP16 tensor 130" },
	{ "V100-PCIE", "NVIDIA V100 PCIe", 112,
	  "NVIDIA V100 datasheet (PCIe), FP16 tensor 112" },
	{ "V100", "NVIDIA V100 SXM2", 125,
	  "NVIDIA V100 datasheet (SXM2), FP16 tensor 125" },
	{ "T4", "NVIDIA T4", 65,
	  "NVIDIA T4 Tensor Core GPU datasheet, FP16 tensor 65" },
	/* AMD Instinct */
	{ "MI355X", "AMD Instinct MI355X", 2516.6,
	  "AMD Instinct MI355X datasheet, BF16 2.5 PFLOPS dense (2516.6 = 256 CU x 4096 x 2.4 GHz)" },
	{ "MI350X", "AMD Instinct MI350X", 2306.9,
	  "AMD Instinct MI350X datasheet, BF16 2.3 PFLOPS dense (2306.9 = 256 CU x 4096 x 2.2 GHz)" },
	{ "MI325X", "AMD Instinct MI325X", 1307.4,
	  "AMD Instinct MI325X datasheet, BF16 1307.4 dense" },
	{ "MI300X", "AMD Instinct MI300X", 1307.4,
	  "AMD Instinct MI300X datasheet, BF16 1307.4 dense (2614.9 with sparsity)" },
	{ "MI300A", "AMD Instinct MI300A", 980.6,
	  "AMD Instinct MI300A datasheet, BF16 980.6 dense" },
	{ "MI250X / MI250", "AMD Instinct MI250X or MI250, one GCD (the name does not say which; MI250X assumed)", 191.5,
	  "AMD Instinct MI250X datasheet, BF16 383 per OAM / 2 GCDs (MI250: 181.05 per GCD)" },
	{ "MI250X", "AMD Instinct MI250X, one GCD", 191.5,
	  "AMD Instinct MI250X datasheet, BF16 383 per OAM / 2 GCDs" },
	{ "MI250", "AMD Instinct MI250, one GCD", 181.05,
	  "AMD Instinct MI250 datasheet, BF16 362.1 per OAM / 2 GCDs" },
	{ "MI210", "AMD Instinct MI210", 181,
	  "AMD Instinct MI210 datasheet, BF16 181 dense" },
};
const size_t mfu_peak_table_len = sizeof mfu_peak_table / sizeof mfu_peak_table[0];

const struct mfu_peak *
mfu_lookup_peak(const char *device_name)
{
	if (device_name == NULL)
		return NULL;
	for (size_t i = 0; i < mfu_peak_table_len; i++)
		if (match_word(device_name, mfu_peak_table[i].match,
		    MATCH_LEFT | MATCH_RIGHT))
			return &mfu_peak_table[i];
	return NULL;
}

/* |[s, e) ∩ [a, b)|, which may not fit int64_t */
static uint64_t
overlap(int64_t s, int64_t e, int64_t a, int64_t b)
{
	int64_t lo = s > a ? s : a, hi = e < b ? e : b;

	return hi > lo ? (uint64_t)hi - (uint64_t)lo : 0;
}

/* hi - lo for lo <= hi, as a double: it may not fit int64_t. */
static inline double
span_d(int64_t lo, int64_t hi)
{
	return (double)((uint64_t)hi - (uint64_t)lo);
}

/* x - y for y >= 0, INT64_MIN when it does not fit. */
static inline int64_t
sat_sub(int64_t x, int64_t y)
{
	return x < INT64_MIN + y ? INT64_MIN : x - y;
}

/* ---- op_flops ---------------------------------------------------------- */

/* A CPU op that carries FLOPs, keyed by its External id. */
struct op_flops {
	int64_t ext;
	double flops;
	int64_t dur_ns;
	uint32_t event;
	uint16_t depth;
};

/* What an op's kernels on the device add up to. */
struct op_kernels {
	int64_t kernel_ns;      /* total duration */
	uint32_t nkernels;
};

/* By External id; then the innermost first: shortest, deepest, earliest. */
static int
op_cmp(const void *pa, const void *pb)
{
	const struct op_flops *a = pa, *b = pb;

	if (a->ext != b->ext)
		return a->ext < b->ext ? -1 : 1;
	if (a->dur_ns != b->dur_ns)
		return a->dur_ns < b->dur_ns ? -1 : 1;
	if (a->depth != b->depth)
		return a->depth > b->depth ? -1 : 1;
	return a->event < b->event ? -1 : a->event > b->event;
}

/*
 * Collects the CPU events with an External id and flops > 0, one per
 * External id (the innermost where several share one).  Returns their
 * number; *out sorted by External id (NULL when none).
 */
static size_t
collect_ops(const struct trace *t, struct op_flops **out)
{
	struct op_flops *ops;
	size_t n = 0, k;

	/* the events that carry FLOPs, listed by trace_finalize() */
	if (t->nlist[LIST_FLOP_OPS] == 0) {
		*out = NULL;
		return 0;
	}
	ops = xreallocarray(NULL, t->nlist[LIST_FLOP_OPS], sizeof *ops);
	for (size_t j = 0; j < t->nlist[LIST_FLOP_OPS]; j++) {
		uint32_t i = t->lists[LIST_FLOP_OPS][j];
		const struct event *e = &t->events[i];
		struct event_args a_buf;
		const struct event_args *a = trace_args(t, e, &a_buf);

		trace_prefetch_args(t, t->lists[LIST_FLOP_OPS], j,
		    t->nlist[LIST_FLOP_OPS]);
		if (a == NULL || a->external_id == ID_NONE ||
		    !(trace_args_flops(t, a) > 0) ||
		    t->tracks[e->track].kind != TRACK_CPU)
			continue;
		memset(&ops[n], 0, sizeof ops[n]);
		ops[n].ext = a->external_id;
		ops[n].flops = trace_args_flops(t, a);
		ops[n].dur_ns = e->dur_ns;
		ops[n].event = i;
		ops[n].depth = e->depth;
		n++;
	}
	if (n == 0) {
		free(ops);
		*out = NULL;
		return 0;
	}
	/* each CPU thread's ops come in start order, so nearly in External id
	 * order (ids are handed out as ops start): a few runs to merge */
	runsort(ops, n, sizeof *ops, op_cmp);
	k = 0;
	for (size_t i = 0; i < n; i++)
		if (k == 0 || ops[k - 1].ext != ops[i].ext)
			ops[k++] = ops[i];
	*out = ops;
	return k;
}

/*
 * The first index of ops[0..n) (sorted by ext) whose ext is >= ext, searched
 * outward from hint (any index in [0, n]) with doubling steps, then by
 * bisection: O(log d) for an answer d places from hint.  Kernels come by
 * start time and their ops mostly by External id, so d is small.
 */
static size_t
op_lower_bound(const struct op_flops *ops, size_t n, int64_t ext, size_t hint)
{
	size_t lo, hi, step = 1;

	if (hint < n && ops[hint].ext < ext) {
		/* the answer is in (hint, n]: step right until ops[hi] >= ext */
		lo = hint + 1;
		hi = lo;
		while (hi < n && ops[hi].ext < ext) {
			lo = hi + 1;
			hi = n - hi > step ? hi + step : n;
			step *= 2;
		}
	} else {
		/* the answer is in [0, hint]: step left until ops[p] < ext */
		lo = hi = hint;
		while (lo > 0) {
			size_t p = lo > step ? lo - step : 0;

			if (ops[p].ext < ext) {
				lo = p + 1;
				break;
			}
			lo = hi = p;
			step *= 2;
		}
	}
	/* everything before lo is < ext; ops[hi] >= ext or hi == n */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ops[mid].ext < ext)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The op with External id ext, or NULL; *hint: where the search ended. */
static struct op_flops *
find_op(struct op_flops *ops, size_t n, int64_t ext, size_t *hint)
{
	size_t i = op_lower_bound(ops, n, ext, *hint);

	*hint = i;
	return i < n && ops[i].ext == ext ? &ops[i] : NULL;
}

/*
 * The External id of a kernel: its own args["External id"] (Kineto writes it
 * on kernels and on their launch calls), else its launch call's.
 */
static int64_t
kernel_ext(const struct trace *t, const struct event *e)
{
	struct event_args a_buf;
	const struct event_args *a = trace_args(t, e, &a_buf);

	if (a != NULL && a->external_id != ID_NONE)
		return a->external_id;
	if (e->link != EV_NONE) {
		a = trace_args(t, &t->events[e->link], &a_buf);
		if (a != NULL)
			return a->external_id;
	}
	return ID_NONE;
}

/* Which op each kernel of d belongs to, and what its op's kernels add up to. */
struct op_map {
	size_t nops;
	struct op_flops *ops;   /* sorted by External id */
	struct op_kernels *ok;  /* nops: per op */
	uint32_t *kop;          /* d->nacts: its op's index + 1, or 0 */
};

/* Builds m for d; m->nops == 0 (and nothing allocated) without op FLOPs. */
static void
op_map_build(struct op_map *m, const struct metrics *d)
{
	const struct trace *t = d->t;
	size_t hint = 0;

	memset(m, 0, sizeof *m);
	m->nops = collect_ops(t, &m->ops);
	if (m->nops == 0)
		return;
	m->ok = xcalloc(m->nops, sizeof *m->ok);
	m->kop = xreallocarray(NULL, d->nacts ? d->nacts : 1, sizeof *m->kop);
	for (size_t i = 0; i < d->nacts; i++) {
		const struct event *e = &t->events[d->acts[i]];
		const struct op_flops *op;
		int64_t ext;

		m->kop[i] = 0;
		if (t->cat_kinds[e->cat] != CAT_KERNEL)
			continue;
		ext = kernel_ext(t, e);
		if (ext == ID_NONE || (op = find_op(m->ops, m->nops, ext, &hint)) == NULL)
			continue;
		m->kop[i] = (uint32_t)(op - m->ops) + 1;
		m->ok[op - m->ops].kernel_ns += e->dur_ns;
		m->ok[op - m->ops].nkernels++;
	}
}

static void
op_map_free(struct op_map *m)
{
	free(m->kop);
	free(m->ok);
	free(m->ops);
}

/*
 * The FLOPs of activity i of d: its op's, spread over the op's kernels on
 * the device in proportion to their durations (equally when they all last
 * 0).  Only kernels take FLOPs, never memcpy/memset.
 */
static double
op_map_share(const struct op_map *m, const struct metrics *d, size_t i)
{
	const struct event *e = &d->t->events[d->acts[i]];
	const struct op_flops *op;
	const struct op_kernels *k;

	if (m->kop[i] == 0)
		return 0;
	op = &m->ops[m->kop[i] - 1];
	k = &m->ok[m->kop[i] - 1];
	if (k->kernel_ns > 0)
		return op->flops * ((double)e->dur_ns / (double)k->kernel_ns);
	return op->flops / k->nkernels;
}

void
mfu_flops_build(struct mfu_flops *f, const struct metrics *d)
{
	struct op_map m;

	memset(f, 0, sizeof *f);
	op_map_build(&m, d);
	f->nops = m.nops;
	if (m.nops == 0)
		return;
	/* written in order, every element (no page is read before written) */
	f->share = xreallocarray(NULL, d->nacts ? d->nacts : 1, sizeof *f->share);
	f->prefix = xreallocarray(NULL, d->nacts + 1, sizeof *f->prefix);
	f->prefix[0] = 0;
	for (size_t i = 0; i < d->nacts; i++) {
		f->share[i] = op_map_share(&m, d, i);
		if (f->share[i] > 0 && d->t->events[d->acts[i]].dur_ns > f->max_dur_ns)
			f->max_dur_ns = d->t->events[d->acts[i]].dur_ns;
		f->prefix[i + 1] = f->prefix[i] + f->share[i];
	}
	op_map_free(&m);
}

void
mfu_flops_free(struct mfu_flops *f)
{
	free(f->share);
	free(f->prefix);
	memset(f, 0, sizeof *f);
}

/*
 * Where op_flops_in() reads the shares: f's arrays, or (f NULL) m's map,
 * each share computed again as it is needed (the same arithmetic, so the
 * same value).
 */
struct shares {
	const struct mfu_flops *f;
	const struct op_map *m;
};

static double
share_at(const struct shares *s, const struct metrics *d, size_t i)
{
	return s->f != NULL ? s->f->share[i] : op_map_share(s->m, d, i);
}

/*
 * FLOPs of d's kernels inside [a, b): each kernel's share in proportion to
 * the part of it inside (all of it for a zero-length kernel starting
 * inside).  The kernels starting in [a, b) count whole through the prefix
 * sums (whole = prefix[hi] - prefix[lo], with lo and hi the first
 * activities at a and at b); then the tails of those running past b come
 * off and the heads of those started before a and running into W go on.
 * Both lie within max_dur_ns of an edge.
 */
static double
op_flops_in(const struct metrics *d, const struct shares *sh, double whole,
    int64_t max_dur_ns, int64_t a, int64_t b)
{
	const struct trace *t = d->t;
	size_t lo = metrics_first_at(d, a), hi = metrics_first_at(d, b), i;
	double sum = whole;

	i = metrics_first_at(d, sat_sub(b, max_dur_ns));
	for (i = i > lo ? i : lo; i < hi; i++) {
		const struct event *e = &t->events[d->acts[i]];
		double share = share_at(sh, d, i);

		if (share > 0 && event_end(e) > b)
			sum -= share * (span_d(b, event_end(e)) / (double)e->dur_ns);
	}
	for (i = metrics_first_at(d, sat_sub(a, max_dur_ns)); i < lo; i++) {
		const struct event *e = &t->events[d->acts[i]];
		double share = share_at(sh, d, i);

		if (share > 0 && event_end(e) > a)
			sum += share *
			    ((double)overlap(e->ts_ns, event_end(e), a, b) /
			    (double)e->dur_ns);
	}
	return sum > 0 ? sum : 0;
}

/* op_flops_in() with f's prefix sums. */
static double
op_flops_with(const struct metrics *d, const struct mfu_flops *f, int64_t a,
    int64_t b)
{
	const struct shares sh = { f, NULL };
	size_t lo = metrics_first_at(d, a), hi = metrics_first_at(d, b);

	return op_flops_in(d, &sh, f->prefix[hi] - f->prefix[lo], f->max_dur_ns,
	    a, b);
}

/*
 * op_flops_in() for one window without struct mfu_flops' two arrays of
 * d->nacts doubles: the prefix sums at lo and hi are the same running sum,
 * added in the same order, so the same values.  *nops: the ops with FLOPs.
 */
static double
op_flops_once(const struct metrics *d, int64_t a, int64_t b, size_t *nops)
{
	struct op_map m;
	const struct shares sh = { NULL, &m };
	size_t lo = metrics_first_at(d, a), hi = metrics_first_at(d, b);
	double run = 0, at_lo = 0, at_hi = 0, sum;
	int64_t max_dur_ns = 0;

	op_map_build(&m, d);
	*nops = m.nops;
	if (m.nops == 0)
		return 0;
	for (size_t i = 0; i < d->nacts; i++) {
		double share = op_map_share(&m, d, i);

		if (i == lo)
			at_lo = run;
		if (i == hi)
			at_hi = run;
		if (share > 0 && d->t->events[d->acts[i]].dur_ns > max_dur_ns)
			max_dur_ns = d->t->events[d->acts[i]].dur_ns;
		run = run + share;
	}
	if (lo == d->nacts)
		at_lo = run;
	if (hi == d->nacts)
		at_hi = run;
	sum = b > a ? op_flops_in(d, &sh, at_hi - at_lo, max_dur_ns, a, b) : 0;
	op_map_free(&m);
	return sum;
}

/* ---- model ------------------------------------------------------------- */

/*
 * FLOPs of one rank in [a, b): each step with a non-empty interval (its GPU
 * extent, else its CPU span) does per_rank FLOPs spread evenly over it.
 */
static double
model_flops_in(const struct step *s, size_t n, double per_rank, int64_t a,
    int64_t b)
{
	double sum = 0;

	for (size_t i = 0; i < n; i++) {
		int64_t lo = s[i].has_gpu ? s[i].gpu_start_ns : s[i].start_ns;
		int64_t hi = s[i].has_gpu ? s[i].gpu_end_ns : s[i].end_ns;
		uint64_t in;

		if (hi <= lo)
			continue;
		in = overlap(lo, hi, a, b);
		if (in == (uint64_t)hi - (uint64_t)lo)
			sum += per_rank;
		else if (in > 0)
			sum += per_rank * ((double)in / span_d(lo, hi));
	}
	return sum;
}

/* ---- mfu_compute ------------------------------------------------------- */

static void
set_peak(const struct metrics *d, const struct mfu_opts *o,
    struct mfu_result *r, const char **name)
{
	const struct mfu_peak *p;

	*name = d->name != NULL ? d->name : "";    /* read once by metrics_build() */
	if (o->peak_tflops > 0) {
		r->has_peak = 1;
		r->peak_tflops = o->peak_tflops;
		r->peak_from = "--peak-tflops";
	} else if ((p = mfu_lookup_peak(*name)) != NULL) {
		r->has_peak = 1;
		r->peak_tflops = p->tflops;
		r->peak_from = p->device;
	}
}

static void
peak_reason(const struct metrics *d, const char *name, struct mfu_result *r)
{
	if (name[0] != '\0')
		snprintf(r->reason, sizeof r->reason,
		    "peak of '%s' unknown: give --peak-tflops", name);
	else
		snprintf(r->reason, sizeof r->reason,
		    "peak of device %d unknown (no device name in the trace): give --peak-tflops",
		    (int)d->device);
}

/* Fills achieved and, with a peak, the value from flops done in [a, b). */
static void
finish(const struct metrics *d, const char *name, double flops, int64_t a,
    int64_t b, struct mfu_result *r)
{
	if (b <= a) {
		snprintf(r->reason, sizeof r->reason, "empty window");
		return;
	}
	r->has_achieved = 1;
	r->achieved_tflops = flops / (span_d(a, b) * 1e-9) / 1e12;
	if (!r->has_peak) {
		peak_reason(d, name, r);
		return;
	}
	r->has_value = 1;
	r->value = r->achieved_tflops / r->peak_tflops;
}

void
mfu_compute(const struct metrics *d, const struct step *s, size_t nsteps,
    const struct mfu_opts *opts, int64_t a_ns, int64_t b_ns,
    struct mfu_result *out)
{
	mfu_compute_with(d, NULL, s, nsteps, opts, a_ns, b_ns, out);
}

void
mfu_compute_with(const struct metrics *d, const struct mfu_flops *f,
    const struct step *s, size_t nsteps, const struct mfu_opts *opts,
    int64_t a_ns, int64_t b_ns, struct mfu_result *out)
{
	const char *name;
	double step_flops = 0, flops;
	size_t nops;

	memset(out, 0, sizeof *out);
	set_peak(d, opts, out, &name);

	if (opts->flops_per_step > 0)
		step_flops = opts->flops_per_step;
	else if (opts->model_params > 0 && opts->tokens_per_step > 0)
		step_flops = (opts->recompute ? 8.0 : 6.0) * opts->model_params *
		    opts->tokens_per_step;
	if (step_flops > 0 || opts->model_params > 0 || opts->tokens_per_step > 0) {
		out->source = "model";
		if (step_flops <= 0) {
			snprintf(out->reason, sizeof out->reason,
			    "--model-params and --tokens-per-step go together");
			return;
		}
		if (opts->world_size <= 0) {
			snprintf(out->reason, sizeof out->reason,
			    "world size unknown: give --world-size");
			return;
		}
		if (nsteps == 0) {
			snprintf(out->reason, sizeof out->reason,
			    "no ProfilerStep annotations: MFU by steps needs steps");
			return;
		}
		finish(d, name, model_flops_in(s, nsteps,
		    step_flops / (double)opts->world_size, a_ns, b_ns), a_ns, b_ns, out);
		return;
	}

	if (f != NULL) {
		nops = f->nops;
		flops = nops > 0 && b_ns > a_ns ? op_flops_with(d, f, a_ns, b_ns) : 0;
	} else {
		flops = op_flops_once(d, a_ns, b_ns, &nops);
	}
	if (nops == 0) {
		snprintf(out->reason, sizeof out->reason,
		    "no FLOPs: give --flops-per-step or --model-params/--tokens-per-step, or profile with with_flops=True");
	} else {
		out->source = "op_flops";
		finish(d, name, flops, a_ns, b_ns, out);
	}
}
