#include "config.h"

#include "model/trace.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>

#include "base/bigarray.h"
#include "base/xalloc.h"

/* (pid, tid) -> track: open addressing over track indices. */
struct track_map {
	uint32_t *slots;        /* track index + 1; 0 = empty */
	size_t nslots;
};

/* An open B event and its args. */
struct open_b {
	struct event ev;
	struct args_rec args;
};

/* Open B events per track, a stack each. */
struct pending {
	struct open_b *ev;
	size_t n, cap;
};

struct pendings {
	struct pending *per_track;
	size_t ntracks;
};

/* Metadata records, applied in trace_finalize() once all tracks exist. */
struct meta {
	uint32_t kind;          /* strtab id of the metadata name */
	int64_t pid, tid;
	uint32_t pid_str, tid_str;
	int has_tid;
	uint32_t str_value;
	int64_t int_value;
};

struct metas {
	struct meta *v;
	size_t n, cap;
};

/* What trace_init() hangs on t->pending. */
struct private {
	struct pendings pend;
	struct metas metas;
	uint64_t be_events;     /* B and E events seen (trace_merge() declines) */
};

void
trace_init(struct trace *t, const char *path)
{
	memset(t, 0, sizeof *t);
	t->path = xstrdup(path);
	t->rank = -1;
	t->rank_source = "position";
	t->world_size = -1;
	t->dist_rank = -1;
	t->src_off = UINT64_MAX;
	strtab_init(&t->strs);
	t->track_map = xcalloc(1, sizeof(struct track_map));
	t->pending = xcalloc(1, sizeof(struct private));
}

static void
free_private(struct trace *t)
{
	struct private *p = t->pending;
	struct track_map *m = t->track_map;

	if (p != NULL) {
		for (size_t i = 0; i < p->pend.ntracks; i++)
			free(p->pend.per_track[i].ev);
		free(p->pend.per_track);
		free(p->metas.v);
		free(p);
		t->pending = NULL;
	}
	if (m != NULL) {
		free(m->slots);
		free(m);
		t->track_map = NULL;
	}
}

/* Whether p points into t's mapping (see trace.map). */
static int
in_map(const struct trace *t, const void *p)
{
	const char *m = t->map;

	return m != NULL && (const char *)p >= m && (const char *)p < m + t->map_len;
}

/* Forgets, so as not to free them, the arrays of t that live in its mapping. */
static void
forget_mapped(struct trace *t)
{
#define FORGET(p) do { if (in_map(t, (p))) (p) = NULL; } while (0)
	for (size_t i = 0; t->tracks != NULL && i < t->ntracks; i++) {
		struct track *tr = &t->tracks[i];

		FORGET(tr->index.maxend_ns);
		FORGET(tr->busy.start_ns);
		FORGET(tr->busy.end_ns);
		FORGET(tr->busy.prefix_ns);
	}
	FORGET(t->events);
	FORGET(t->args);
	FORGET(t->wide);
	FORGET(t->nums);
	FORGET(t->seqs);
	FORGET(t->pairs);
	FORGET(t->comms);
	FORGET(t->cats);
	FORGET(t->cat_kinds);
	FORGET(t->devices);
	FORGET(t->devices_seen);
	FORGET(t->byname.start);
	FORGET(t->byname.ev);
	FORGET(t->cat_slices);
	FORGET(t->src);
	for (int k = 0; k < TRACE_LISTS; k++)
		FORGET(t->lists[k]);
#undef FORGET
}

void
trace_free(struct trace *t)
{
	int mapped_tracks;

	if (t == NULL)
		return;
	forget_mapped(t);
	mapped_tracks = in_map(t, t->tracks);
	for (size_t i = 0; i < t->ntracks; i++) {
		itree_free(&t->tracks[i].index);
		ivset_free(&t->tracks[i].busy);
	}
	free_private(t);
	free(t->path);
	free(t->stop_reason);
	bigarray_free(t->events, t->events_cap, sizeof *t->events);
	bigarray_free(t->args, t->args_cap, sizeof *t->args);
	bigarray_free(t->wide, t->wide_cap, sizeof *t->wide);
	bigarray_free(t->nums, t->nums_cap, sizeof *t->nums);
	bigarray_free(t->seqs, t->seqs_cap, sizeof *t->seqs);
	bigarray_free(t->pairs, t->pairs_cap, sizeof *t->pairs);
	bigarray_free(t->comms, t->comms_cap, sizeof *t->comms);
	bigarray_free(t->flows, t->flows_cap, sizeof *t->flows);
	free(t->cats);
	free(t->cat_kinds);
	free(t->devices);
	free(t->devices_seen);
	byname_free(&t->byname);
	free(t->cat_slices);
	free(t->src);
	for (int k = 0; k < TRACE_LISTS; k++)
		free(t->lists[k]);
	if (!mapped_tracks)
		free(t->tracks);
	strtab_free(&t->strs);
	if (t->map != NULL)
		munmap(t->map, t->map_len);
	memset(t, 0, sizeof *t);
}

static uint64_t
track_hash(int64_t pid, uint32_t pid_str, int64_t tid, uint32_t tid_str)
{
	uint64_t h = (uint64_t)pid * 0x9e3779b97f4a7c15ull;

	h ^= (uint64_t)tid + 0x632be59bd9b4e019ull + (h << 6) + (h >> 2);
	h ^= ((uint64_t)pid_str << 32 | tid_str) * 0xff51afd7ed558ccdull;
	return h ^ (h >> 29);
}

static void
map_insert(struct track_map *m, const struct track *tracks, uint32_t idx)
{
	const struct track *tr = &tracks[idx];
	size_t i = track_hash(tr->pid, tr->pid_str, tr->tid, tr->tid_str) &
	    (m->nslots - 1);

	while (m->slots[i] != 0)
		i = (i + 1) & (m->nslots - 1);
	m->slots[i] = idx + 1;
}

static void
map_rebuild(struct trace *t, size_t nslots)
{
	struct track_map *m = t->track_map;

	free(m->slots);
	m->slots = xcalloc(nslots, sizeof *m->slots);
	m->nslots = nslots;
	for (size_t i = 0; i < t->ntracks; i++)
		map_insert(m, t->tracks, (uint32_t)i);
}

static uint32_t
map_find(const struct trace *t, int64_t pid, uint32_t pid_str, int64_t tid,
    uint32_t tid_str)
{
	const struct track_map *m = t->track_map;
	size_t i;

	if (m->nslots == 0)
		return EV_NONE;
	i = track_hash(pid, pid_str, tid, tid_str) & (m->nslots - 1);
	for (; m->slots[i] != 0; i = (i + 1) & (m->nslots - 1)) {
		const struct track *tr = &t->tracks[m->slots[i] - 1];

		if (tr->pid == pid && tr->tid == tid && tr->pid_str == pid_str &&
		    tr->tid_str == tid_str)
			return m->slots[i] - 1;
	}
	return EV_NONE;
}

uint32_t
trace_intern(struct trace *t, const char *s, size_t len)
{
	if (len > TRACE_STR_MAX) {
		len = TRACE_STR_MAX;
		/* not inside a UTF-8 sequence: back to its lead byte */
		while (len > 0 && ((unsigned char)s[len] & 0xc0) == 0x80)
			len--;
		t->warn.long_strings++;
	}
	return strtab_intern(&t->strs, s, len);
}

static void
key_of(struct trace *t, int64_t *id, const char *text, uint32_t *str)
{
	if (text != NULL) {
		*str = trace_intern(t, text, strlen(text));
		if (*str == 0)          /* "" is a string id too: keep it distinct */
			*str = strtab_intern(&t->strs, "\"\"", 2);
		*id = 0;
	} else {
		*str = 0;
	}
}

uint32_t
trace_track(struct trace *t, int64_t pid, const char *pid_text, int64_t tid,
    const char *tid_text)
{
	uint32_t pid_str, tid_str, idx;
	struct track *tr;

	key_of(t, &pid, pid_text, &pid_str);
	key_of(t, &tid, tid_text, &tid_str);
	idx = map_find(t, pid, pid_str, tid, tid_str);
	if (idx != EV_NONE)
		return idx;
	if (t->ntracks == TRACE_TRACKS_MAX)     /* absurdly many: fold into the last */
		return TRACE_TRACKS_MAX - 1;

	idx = (uint32_t)t->ntracks;
	xgrow(&t->tracks, &t->tracks_cap, t->ntracks + 1, sizeof *t->tracks);
	tr = &t->tracks[t->ntracks++];
	memset(tr, 0, sizeof *tr);
	tr->pid = pid;
	tr->tid = tid;
	tr->pid_str = pid_str;
	tr->tid_str = tid_str;
	tr->kind = TRACK_CPU;
	tr->device = -1;
	tr->sort_index = tid;
	tr->process_sort_index = pid;
	if (t->ntracks * 2 > ((struct track_map *)t->track_map)->nslots) {
		size_t nslots = 64;     /* a power of two, at least 4 per track */

		while (nslots < t->ntracks * 4)
			nslots *= 2;
		map_rebuild(t, nslots);
	}
	else
		map_insert(t->track_map, t->tracks, idx);
	return idx;
}

enum cat_kind
trace_cat_kind(const char *cat)
{
	static const struct {
		const char *name;
		enum cat_kind kind;
	} table[] = {
		{ "kernel", CAT_KERNEL },
		{ "gpu_memcpy", CAT_GPU_MEMCPY },
		{ "memcpy", CAT_GPU_MEMCPY },
		{ "gpu_memset", CAT_GPU_MEMSET },
		{ "memset", CAT_GPU_MEMSET },
		{ "gpu_user_annotation", CAT_GPU_ANNOTATION },
		{ "cpu_op", CAT_CPU_OP },
		{ "operator", CAT_CPU_OP },
		{ "cuda_runtime", CAT_CUDA_RUNTIME },
		{ "runtime", CAT_CUDA_RUNTIME },
		{ "cuda_driver", CAT_CUDA_DRIVER },
		{ "user_annotation", CAT_USER_ANNOTATION },
		{ "python_function", CAT_PYTHON_FUNCTION },
		{ "cpu_instant_event", CAT_CPU_INSTANT },
		{ "ac2g", CAT_FLOW_AC2G },
		{ "async_cpu_to_gpu", CAT_FLOW_AC2G },
		{ "async", CAT_FLOW_AC2G },      /* 2020-era Kineto: "launch" flows */
		/* seen in real traces, no role in the analysis */
		{ "trace", CAT_KNOWN_OTHER },
		{ "fwdbwd", CAT_KNOWN_OTHER },
		{ "python", CAT_KNOWN_OTHER },
		{ "overhead", CAT_KNOWN_OTHER },
		{ "gpu_memory", CAT_KNOWN_OTHER },
		{ "cuda_sync", CAT_KNOWN_OTHER },
		{ "cuda_profiler_range", CAT_KNOWN_OTHER },
		{ "mtia_runtime", CAT_CUDA_RUNTIME },
		{ "mtia_ccp_events", CAT_KNOWN_OTHER },
		{ "mtia_insight", CAT_KNOWN_OTHER },
		{ "privateuse1_runtime", CAT_CUDA_RUNTIME },
		{ "privateuse1_driver", CAT_CUDA_DRIVER },
		{ "xpu_runtime", CAT_CUDA_RUNTIME },
		{ "xpu_driver", CAT_CUDA_DRIVER },
		{ "kernel_launch", CAT_KNOWN_OTHER },
		{ "collective_comm", CAT_KNOWN_OTHER },
		{ "mtia_counters", CAT_KNOWN_OTHER },
		{ "ipc", CAT_KNOWN_OTHER },
		{ "flow", CAT_KNOWN_OTHER },
	};

	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		if (strcasecmp(cat, table[i].name) == 0)
			return table[i].kind;
	return CAT_OTHER;
}

uint16_t
trace_category(struct trace *t, const char *cat, size_t len)
{
	uint32_t id = trace_intern(t, cat, len);

	for (size_t i = 0; i < t->ncats; i++)
		if (t->cats[i] == id)
			return (uint16_t)i;
	if (t->ncats == TRACE_CATS_MAX)  /* absurdly many: fold into the last */
		return TRACE_CATS_MAX - 1;
	xgrow(&t->cats, &t->cats_cap, t->ncats + 1, sizeof *t->cats);
	t->cat_kinds = xreallocarray(t->cat_kinds, t->cats_cap,
	    sizeof *t->cat_kinds);
	t->cats[t->ncats] = id;
	t->cat_kinds[t->ncats] = (uint8_t)trace_cat_kind(trace_str(t, id));
	return (uint16_t)t->ncats++;
}

enum event_class
trace_classify(enum cat_kind kind)
{
	switch (kind) {
	case CAT_KERNEL:
		return CLASS_COMPUTE;
	case CAT_GPU_MEMCPY:
	case CAT_GPU_MEMSET:
		return CLASS_MEMORY;
	default:
		return CLASS_NONE;
	}
}

uint32_t
trace_add_event(struct trace *t, const struct event *ev,
    const struct args_rec *r)
{
	struct track *tr = &t->tracks[ev->track];
	enum cat_kind kind = t->cat_kinds[ev->cat];

	if (t->nevents >= EV_NONE - 1)
		return EV_NONE;         /* the index space is full: caller counts it */
	bigarray_grow(&t->events, &t->events_cap, t->nevents + 1, sizeof *t->events);
	bigarray_grow(&t->args, &t->args_cap, t->nevents + 1, sizeof *t->args);
	t->events[t->nevents] = *ev;
	t->args[t->nevents] = *r;
	if (t->src_off != UINT64_MAX) {
		struct src_block *b = t->nsrc > 0 ? &t->src[t->nsrc - 1] : NULL;

		if (b == NULL || b->off / TRACE_SRC_BLOCK != t->src_off / TRACE_SRC_BLOCK) {
			xgrow(&t->src, &t->src_cap, t->nsrc + 1, sizeof *t->src);
			b = &t->src[t->nsrc++];
			b->off = t->src_off;
			b->min_ts_ns = b->max_ts_ns = ev->ts_ns;
		} else if (ev->ts_ns < b->min_ts_ns) {
			b->min_ts_ns = ev->ts_ns;
		} else if (ev->ts_ns > b->max_ts_ns) {
			b->max_ts_ns = ev->ts_ns;
		}
	}
	if (kind == CAT_KERNEL || kind == CAT_GPU_MEMCPY || kind == CAT_GPU_MEMSET ||
	    kind == CAT_GPU_ANNOTATION) {
		if (tr->kind != TRACK_GPU) {
			tr->kind = TRACK_GPU;
		}
	}
	return (uint32_t)t->nevents++;
}

/* An id that fits a struct args_rec: absent, or 0 to ARGS_NO_ID - 1. */
static int
id_fits(int64_t id)
{
	return id == ID_NONE || (id >= 0 && id < (int64_t)ARGS_NO_ID);
}

/*
 * Stores a in *r: narrow when it fits, else in trace->wide (the record a
 * wide *r already has when old, or a new one).
 */
static void
args_store(struct trace *t, struct args_rec *r, int old,
    const struct event_args *a)
{
	if (a->comm == EV_NONE && id_fits(a->correlation) &&
	    id_fits(a->external_id) && a->device >= -1 &&
	    a->device <= INT16_MAX && a->stream >= -1 && a->stream <= INT16_MAX) {
		r->correlation = a->correlation == ID_NONE ? ARGS_NO_ID :
		    (uint32_t)a->correlation;
		r->external_id = a->external_id == ID_NONE ? ARGS_NO_ID :
		    (uint32_t)a->external_id;
		r->device = (int16_t)a->device;
		r->stream = (int16_t)a->stream;
		r->nums = a->nums;
		return;
	}
	if (!old || r->device != ARGS_WIDE) {
		bigarray_grow(&t->wide, &t->wide_cap, t->nwide + 1, sizeof *t->wide);
		r->nums = (uint32_t)t->nwide++;
	}
	t->wide[r->nums] = *a;
	r->correlation = r->external_id = ARGS_NO_ID;
	r->device = ARGS_WIDE;
	r->stream = -1;
}

struct args_rec
trace_make_args(struct trace *t, const struct event_args *a,
    const struct arg_nums *n)
{
	const struct arg_nums none = ARG_NUMS_NONE;
	const double zero = 0.0;
	struct arg_nums seq_only = none;
	struct event_args w = *a;
	struct args_rec r;
	int no_seq = n->seq == -1;

	seq_only.seq = n->seq;
	w.nums = EV_NONE;
	if (memcmp(n, &none, sizeof none) == 0) {
		/* none stored */
	} else if (memcmp(n, &seq_only, sizeof seq_only) == 0 &&
	    t->nseqs < NUMS_LIMIT) {
		bigarray_grow(&t->seqs, &t->seqs_cap, t->nseqs + 1, sizeof *t->seqs);
		t->seqs[t->nseqs] = n->seq;
		w.nums = (uint32_t)t->nseqs++ | NUMS_SEQ;
	} else if ((no_seq || memcmp(&n->value, &zero, sizeof zero) == 0) &&
	    t->npairs < NUMS_LIMIT) {
		struct arg_pair *p;

		bigarray_grow(&t->pairs, &t->pairs_cap, t->npairs + 1,
		    sizeof *t->pairs);
		p = &t->pairs[t->npairs];
		p->flops = n->flops;
		if (no_seq)
			p->value = n->value;
		else
			p->seq = n->seq;
		w.nums = (uint32_t)t->npairs++ | NUMS_PAIR |
		    (no_seq ? 0 : NUMS_SEQ);
	} else {
		if (t->nnums >= NUMS_LIMIT)     /* beyond any memory there is */
			xalloc_die("storing 2^30 events' numeric arguments");
		bigarray_grow(&t->nums, &t->nums_cap, t->nnums + 1, sizeof *t->nums);
		t->nums[t->nnums] = *n;
		w.nums = (uint32_t)t->nnums++;
	}
	args_store(t, &r, 0, &w);
	return r;
}

void
trace_args_set_comm(struct trace *t, uint32_t i, uint32_t comm)
{
	struct event_args a;

	trace_args_at(t, i, &a);
	a.comm = comm;
	args_store(t, &t->args[i], 1, &a);
}

uint32_t
trace_add_comm(struct trace *t, const struct comm_args *c)
{
	bigarray_grow(&t->comms, &t->comms_cap, t->ncomms + 1, sizeof *t->comms);
	t->comms[t->ncomms] = *c;
	return (uint32_t)t->ncomms++;
}

void
trace_add_flow(struct trace *t, const struct flow *f)
{
	bigarray_grow(&t->flows, &t->flows_cap, t->nflows + 1, sizeof *t->flows);
	t->flows[t->nflows++] = *f;
}

static struct pending *
pending_of(struct trace *t, uint32_t track)
{
	struct pendings *p = &((struct private *)t->pending)->pend;

	if (track >= p->ntracks) {
		size_t n = t->ntracks > track + 1 ? t->ntracks : track + 1;

		p->per_track = xreallocarray(p->per_track, n, sizeof *p->per_track);
		memset(p->per_track + p->ntracks, 0,
		    (n - p->ntracks) * sizeof *p->per_track);
		p->ntracks = n;
	}
	return &p->per_track[track];
}

void
trace_begin(struct trace *t, const struct event *ev, const struct args_rec *r)
{
	struct pending *p = pending_of(t, ev->track);

	((struct private *)t->pending)->be_events++;
	xgrow(&p->ev, &p->cap, p->n + 1, sizeof *p->ev);
	p->ev[p->n].ev = *ev;
	p->ev[p->n++].args = *r;
}

/*
 * The duration of a B/E span from start to end: 0, counted, when it is
 * negative or beyond int64 (hostile timestamps can be 2^64 ns apart), as
 * for X events.
 */
static int64_t
be_dur(struct trace *t, int64_t start, int64_t end)
{
	if (end < start) {
		t->warn.negative_dur++;
		return 0;
	}
	if ((uint64_t)end - (uint64_t)start > (uint64_t)INT64_MAX) {
		t->warn.int_overflow++;
		return 0;
	}
	return end - start;
}

void
trace_end(struct trace *t, uint32_t track, int64_t ts_ns)
{
	struct pending *p = pending_of(t, track);
	struct open_b b;

	((struct private *)t->pending)->be_events++;
	if (p->n == 0) {
		t->warn.unmatched_end++;
		return;
	}
	b = p->ev[--p->n];
	b.ev.dur_ns = be_dur(t, b.ev.ts_ns, ts_ns);
	b.ev.flags |= EVF_FROM_BE;
	if (trace_add_event(t, &b.ev, &b.args) == EV_NONE)
		t->warn.missing_fields++;
}

/*
 * Appends src's n records of size at *srcp to *dstp (growing it), through
 * fix(record, ctx), from the last to the first, giving src's memory back
 * every MERGE_STEP records: the two models never hold a second copy of
 * the larger arrays at once.  *srcp is freed.
 */
#define MERGE_STEP ((size_t)1 << 16)

static void
merge_array(void **dstp, size_t *dstn, size_t *dstcap, void **srcp,
    size_t *srccap, size_t n, size_t size,
    void (*fix)(void *rec, const void *ctx), const void *ctx)
{
	char *dst, *src = *srcp;

	if (n > 0) {
		bigarray_grow(dstp, dstcap, *dstn + n, size);
		dst = (char *)*dstp + *dstn * size;
		for (size_t i = n; i-- > 0;) {
			memcpy(dst + i * size, src + i * size, size);
			if (fix != NULL)
				fix(dst + i * size, ctx);
			if (i > 0 && i % MERGE_STEP == 0)
				bigarray_resize(&src, srccap, i, size);
		}
		*dstn += n;
	}
	bigarray_free(src, *srccap, size);
	*srcp = NULL;
	*srccap = 0;
}

/* The renumbering of src's ids in dst. */
struct merge_map {
	const uint32_t *str, *track;
	const uint16_t *cat;
	size_t wide, nums, seqs, pairs, comms;
};

/* A nums index (trace_args_nums()) of src's in dst. */
static uint32_t
fix_nums(uint32_t i, const struct merge_map *m)
{
	if (i == EV_NONE)
		return i;
	switch (i & (NUMS_SEQ | NUMS_PAIR)) {
	case 0:
		return i + (uint32_t)m->nums;
	case NUMS_SEQ:
		return i + (uint32_t)m->seqs;
	default:
		return i + (uint32_t)m->pairs;
	}
}

static void
fix_event(void *rec, const void *ctx)
{
	const struct merge_map *m = ctx;
	struct event *e = rec;

	e->name = m->str[e->name];
	e->track = m->track[e->track];
	e->cat = m->cat[e->cat];
}

static void
fix_args(void *rec, const void *ctx)
{
	const struct merge_map *m = ctx;
	struct args_rec *r = rec;

	if (r->device == ARGS_WIDE)
		r->nums += (uint32_t)m->wide;
	else if (r->device != ARGS_NONE)
		r->nums = fix_nums(r->nums, m);
}

static void
fix_wide(void *rec, const void *ctx)
{
	const struct merge_map *m = ctx;
	struct event_args *a = rec;

	if (a->comm != EV_NONE)
		a->comm += (uint32_t)m->comms;
	a->nums = fix_nums(a->nums, m);
}

static void
fix_comm(void *rec, const void *ctx)
{
	const struct merge_map *m = ctx;
	struct comm_args *c = rec;

	c->collective = m->str[c->collective];
	c->pg_name = m->str[c->pg_name];
	c->dtype = m->str[c->dtype];
}

static void
fix_flow(void *rec, const void *ctx)
{
	const struct merge_map *m = ctx;
	struct flow *f = rec;

	f->track = m->track[f->track];
	f->cat = m->cat[f->cat];
}

int
trace_merge_ok(const struct trace *dst, struct trace *const *src, size_t n)
{
	uint64_t ncats = dst->ncats, nevents = dst->nevents;
	uint64_t nwide = dst->nwide, nnums = dst->nnums, nseqs = dst->nseqs;
	uint64_t npairs = dst->npairs;

	for (size_t i = 0; i < n; i++) {
		const struct private *sp = src[i]->pending;

		if (sp->be_events > 0 || src[i]->ncats >= TRACE_CATS_MAX - 1)
			return 0;
		ncats += src[i]->ncats;
		nevents += src[i]->nevents;
		nwide += src[i]->nwide;
		nnums += src[i]->nnums;
		nseqs += src[i]->nseqs;
		npairs += src[i]->npairs;
		if (ncats >= TRACE_CATS_MAX - 1 || nevents >= EV_NONE - 1 ||
		    nwide >= EV_NONE - 1 ||
		    nnums > NUMS_LIMIT || nseqs > NUMS_LIMIT ||
		    npairs > NUMS_LIMIT)
			return 0;
	}
	return 1;
}

int
trace_merge(struct trace *dst, struct trace *src)
{
	struct private *sp = src->pending, *dp = dst->pending;
	struct merge_map m;
	uint32_t *str, *track;
	uint16_t *cat;
	size_t nargs;

	if (!trace_merge_ok(dst, &src, 1))
		return -1;
	/*
	 * Strings, categories and tracks in src's order of first use, which
	 * is their order in the file after dst's: dst numbers them as it
	 * would have had it read src's part itself.
	 */
	str = xreallocarray(NULL, src->strs.count, sizeof *str);
	for (uint32_t id = 0; id < src->strs.count; id++)
		str[id] = strtab_intern(&dst->strs, src->strs.strs[id],
		    src->strs.lens[id]);
	cat = xreallocarray(NULL, src->ncats ? src->ncats : 1, sizeof *cat);
	for (size_t i = 0; i < src->ncats; i++)
		cat[i] = trace_category(dst, trace_str(src, src->cats[i]),
		    src->strs.lens[src->cats[i]]);
	track = xreallocarray(NULL, src->ntracks ? src->ntracks : 1, sizeof *track);
	for (size_t i = 0; i < src->ntracks; i++) {
		const struct track *s = &src->tracks[i];

		track[i] = trace_track(dst, s->pid,
		    s->pid_str ? trace_str(src, s->pid_str) : NULL, s->tid,
		    s->tid_str ? trace_str(src, s->tid_str) : NULL);
		if (s->kind != TRACK_CPU)       /* src's events came last */
			dst->tracks[track[i]].kind = s->kind;
	}
	m.str = str;
	m.track = track;
	m.cat = cat;
	m.wide = dst->nwide;
	m.nums = dst->nnums;
	m.seqs = dst->nseqs;
	m.pairs = dst->npairs;
	m.comms = dst->ncomms;
	nargs = dst->nevents;
	merge_array((void **)&dst->args, &nargs, &dst->args_cap,
	    (void **)&src->args, &src->args_cap, src->nevents,
	    sizeof *src->args, fix_args, &m);
	merge_array((void **)&dst->events, &dst->nevents, &dst->events_cap,
	    (void **)&src->events, &src->events_cap, src->nevents,
	    sizeof *src->events, fix_event, &m);
	merge_array((void **)&dst->wide, &dst->nwide, &dst->wide_cap,
	    (void **)&src->wide, &src->wide_cap, src->nwide,
	    sizeof *src->wide, fix_wide, &m);
	merge_array((void **)&dst->nums, &dst->nnums, &dst->nums_cap,
	    (void **)&src->nums, &src->nums_cap, src->nnums,
	    sizeof *src->nums, NULL, &m);
	merge_array((void **)&dst->seqs, &dst->nseqs, &dst->seqs_cap,
	    (void **)&src->seqs, &src->seqs_cap, src->nseqs,
	    sizeof *src->seqs, NULL, &m);
	merge_array((void **)&dst->pairs, &dst->npairs, &dst->pairs_cap,
	    (void **)&src->pairs, &src->pairs_cap, src->npairs,
	    sizeof *src->pairs, NULL, &m);
	merge_array((void **)&dst->comms, &dst->ncomms, &dst->comms_cap,
	    (void **)&src->comms, &src->comms_cap, src->ncomms,
	    sizeof *src->comms, fix_comm, &m);
	merge_array((void **)&dst->flows, &dst->nflows, &dst->flows_cap,
	    (void **)&src->flows, &src->flows_cap, src->nflows,
	    sizeof *src->flows, fix_flow, &m);
	src->nevents = src->nwide = src->nnums = src->nseqs = src->npairs =
	    src->ncomms = src->nflows = 0;
	/*
	 * src's part of the file comes after dst's: its blocks follow, the
	 * first joining dst's last when both are of one block of the file
	 * (as one reader would have kept them)
	 */
	xgrow(&dst->src, &dst->src_cap, dst->nsrc + src->nsrc + 1, sizeof *dst->src);
	for (size_t i = 0; i < src->nsrc; i++) {
		struct src_block *l = dst->nsrc > 0 ? &dst->src[dst->nsrc - 1] : NULL;
		const struct src_block *b = &src->src[i];

		if (l != NULL && l->off / TRACE_SRC_BLOCK == b->off / TRACE_SRC_BLOCK) {
			l->min_ts_ns = b->min_ts_ns < l->min_ts_ns ? b->min_ts_ns : l->min_ts_ns;
			l->max_ts_ns = b->max_ts_ns > l->max_ts_ns ? b->max_ts_ns : l->max_ts_ns;
		} else {
			dst->src[dst->nsrc++] = *b;
		}
	}
	src->nsrc = 0;
	for (size_t i = 0; i < sp->metas.n; i++) {
		struct meta x = sp->metas.v[i];

		x.kind = str[x.kind];
		x.pid_str = str[x.pid_str];
		x.tid_str = str[x.tid_str];
		x.str_value = str[x.str_value];
		xgrow(&dp->metas.v, &dp->metas.cap, dp->metas.n + 1, sizeof *dp->metas.v);
		dp->metas.v[dp->metas.n++] = x;
	}
	dst->objects += src->objects;
#define X(f, k, t) dst->warn.f += src->warn.f;
	TRACE_WARNINGS(X)
#undef X
	free(str);
	free(cat);
	free(track);
	return 0;
}

void
trace_metadata(struct trace *t, const char *kind, int64_t pid,
    const char *pid_text, int64_t tid, const char *tid_text,
    const char *str_value, int64_t int_value)
{
	struct metas *ms = &((struct private *)t->pending)->metas;
	struct meta m;

	memset(&m, 0, sizeof m);
	m.kind = strtab_intern(&t->strs, kind, strlen(kind));
	m.pid = pid;
	key_of(t, &m.pid, pid_text, &m.pid_str);
	m.tid = tid;
	m.has_tid = tid_text != NULL || tid != INT64_MIN;
	if (tid == INT64_MIN && tid_text == NULL)
		m.tid = 0;
	key_of(t, &m.tid, tid_text, &m.tid_str);
	m.str_value = str_value ? trace_intern(t, str_value, strlen(str_value)) : 0;
	m.int_value = int_value;
	xgrow(&ms->v, &ms->cap, ms->n + 1, sizeof *ms->v);
	ms->v[ms->n++] = m;
}

int32_t
trace_event_device(const struct trace *t, const struct event *e)
{
	struct event_args a_buf;
	const struct event_args *a = trace_args(t, e, &a_buf);

	if (a != NULL && a->device >= 0)
		return a->device;
	return (int32_t)t->tracks[e->track].pid;
}

/*
 * Closes every B still open: it ends where its track's last event ends, or
 * at the latest B opened after it on the track, whichever is later.
 */
static void
close_pending(struct trace *t)
{
	struct pendings *p = &((struct private *)t->pending)->pend;
	int64_t *track_end = NULL;

	for (size_t tr = 0; tr < p->ntracks; tr++) {
		struct pending *pe = &p->per_track[tr];
		int64_t e;

		if (pe->n == 0)
			continue;
		if (track_end == NULL) {
			track_end = xcalloc(t->ntracks, sizeof *track_end);
			for (size_t i = 0; i < t->ntracks; i++)
				track_end[i] = INT64_MIN;
			for (size_t i = 0; i < t->nevents; i++) {
				const struct event *ev = &t->events[i];

				if (event_end(ev) > track_end[ev->track])
					track_end[ev->track] = event_end(ev);
			}
		}
		e = track_end[tr];
		for (size_t i = pe->n; i-- > 0;) {
			struct open_b b = pe->ev[i];

			if (b.ev.ts_ns > e)
				e = b.ev.ts_ns;
			b.ev.dur_ns = be_dur(t, b.ev.ts_ns, e);
			b.ev.flags |= EVF_FROM_BE | EVF_UNCLOSED;
			t->warn.unmatched_begin++;
			trace_add_event(t, &b.ev, &b.args);
		}
		pe->n = 0;
	}
	free(track_end);
}

static void
apply_metadata(struct trace *t)
{
	const struct metas *ms = &((struct private *)t->pending)->metas;
	uint32_t k_pname = strtab_intern(&t->strs, "process_name", 12);
	uint32_t k_psort = strtab_intern(&t->strs, "process_sort_index", 18);
	uint32_t k_tname = strtab_intern(&t->strs, "thread_name", 11);
	uint32_t k_tsort = strtab_intern(&t->strs, "thread_sort_index", 17);

	for (size_t i = 0; i < ms->n; i++) {
		const struct meta *m = &ms->v[i];

		if (m->kind == k_pname || m->kind == k_psort) {
			for (size_t j = 0; j < t->ntracks; j++) {
				struct track *tr = &t->tracks[j];

				if (tr->pid != m->pid || tr->pid_str != m->pid_str)
					continue;
				if (m->kind == k_pname)
					tr->process_name = m->str_value;
				else
					tr->process_sort_index = m->int_value;
			}
		} else if (m->kind == k_tname || m->kind == k_tsort) {
			uint32_t idx = map_find(t, m->pid, m->pid_str, m->tid,
			    m->tid_str);

			if (idx == EV_NONE)
				continue;
			if (m->kind == k_tname)
				t->tracks[idx].name = m->str_value;
			else
				t->tracks[idx].sort_index = m->int_value;
		}
	}
}

static int
track_order(const void *pa, const void *pb, void *ctx)
{
	const struct track *tracks = ctx;
	const struct track *a = &tracks[*(const uint32_t *)pa];
	const struct track *b = &tracks[*(const uint32_t *)pb];

#define CMP(x, y) do { if ((x) != (y)) return (x) < (y) ? -1 : 1; } while (0)
	CMP(a->process_sort_index, b->process_sort_index);
	CMP(a->pid_str, b->pid_str);
	CMP(a->pid, b->pid);
	CMP(a->kind == TRACK_COUNTER, b->kind == TRACK_COUNTER);
	CMP(a->sort_index, b->sort_index);
	CMP(a->tid_str, b->tid_str);
	CMP(a->tid, b->tid);
	CMP(*(const uint32_t *)pa, *(const uint32_t *)pb);
	return 0;
}

static int
event_order(const void *pa, const void *pb, void *ctx)
{
	const struct event *ev = ctx;
	uint32_t ia = *(const uint32_t *)pa, ib = *(const uint32_t *)pb;
	const struct event *a = &ev[ia], *b = &ev[ib];

	CMP(a->track, b->track);
	CMP(a->ts_ns, b->ts_ns);
	CMP(b->dur_ns, a->dur_ns);              /* longest first: parents first */
	CMP(ia, ib);                            /* then file order: deterministic */
	return 0;
#undef CMP
}

/* Reorders tracks for display and renumbers the events' track fields. */
static void
sort_tracks(struct trace *t)
{
	uint32_t *order = xcalloc(t->ntracks, sizeof *order);
	uint32_t *newidx = xcalloc(t->ntracks, sizeof *newidx);
	struct track *sorted = xcalloc(t->ntracks, sizeof *sorted);

	for (size_t i = 0; i < t->ntracks; i++)
		order[i] = (uint32_t)i;
	qsort_r(order, t->ntracks, sizeof *order, track_order, t->tracks);
	for (size_t i = 0; i < t->ntracks; i++) {
		sorted[i] = t->tracks[order[i]];
		newidx[order[i]] = (uint32_t)i;
	}
	memcpy(t->tracks, sorted, t->ntracks * sizeof *sorted);
	for (size_t i = 0; i < t->nevents; i++)
		t->events[i].track = newidx[t->events[i].track];
	for (size_t i = 0; i < t->nflows; i++)
		t->flows[i].track = newidx[t->flows[i].track];
	map_rebuild(t, t->track_map ? ((struct track_map *)t->track_map)->nslots : 64);
	free(sorted);
	free(newidx);
	free(order);
}

/*
 * Applies order to ev[0..n) and their args ar[0..n) in place (ev[j]
 * becomes ev[order[j]]), cycle by cycle; order is left as the identity.
 */
static void
permute_events(struct event *ev, struct args_rec *ar, uint32_t *order,
    uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		struct event first;
		struct args_rec first_args;
		uint32_t j = i;

		if (order[i] == i)
			continue;
		first = ev[i];
		first_args = ar[i];
		for (;;) {
			uint32_t k = order[j];

			order[j] = j;
			if (k == i) {
				ev[j] = first;
				ar[j] = first_args;
				break;
			}
			ev[j] = ev[k];
			ar[j] = ar[k];
			j = k;
		}
	}
}

/* What copy_by_track() gives back to the system at a time, once copied. */
#define SORT_RELEASE_BYTES ((uintptr_t)2 << 20)

/*
 * Gives back the pages of an array being read from its start (at base)
 * that lie wholly before p, from *gone on, SORT_RELEASE_BYTES at a time:
 * whole huge pages (bigarray.h), so none is split.  A hint: may fail.
 */
static void
release_passed(uintptr_t *gone, const void *p)
{
#ifdef MADV_DONTNEED
	if ((uintptr_t)p >= *gone + SORT_RELEASE_BYTES) {
		uintptr_t to = (uintptr_t)p & ~(SORT_RELEASE_BYTES - 1);

		(void)madvise((void *)*gone, to - *gone, MADV_DONTNEED);
		*gone = to;
	}
#else
	(void)gone;
	(void)p;
#endif
}

/* The first SORT_RELEASE_BYTES boundary at or after p. */
static uintptr_t
release_start(const void *p)
{
	return ((uintptr_t)p + SORT_RELEASE_BYTES - 1) &
	    ~(SORT_RELEASE_BYTES - 1);
}

/*
 * Replaces t->events and t->args by copies grouped by track, each track's
 * events in file order (start[k]: where track k begins; a counting sort,
 * O(n)).  The old arrays are read once from start to end, one stream
 * written per track, and their pages are given back 2 MB at a time as
 * they are passed, so the peak memory stays about one copy of them.
 */
static void
copy_by_track(struct trace *t, const uint32_t *start)
{
	struct event *ev = t->events, *ne = NULL;
	struct args_rec *ar = t->args, *na = NULL;
	size_t n = t->nevents, ncap = 0, acap = 0;
	uint32_t *next = xreallocarray(NULL, t->ntracks + 1, sizeof *next);
	uintptr_t gone = release_start(ev), agone = release_start(ar);

	memcpy(next, start, (t->ntracks + 1) * sizeof *next);
	bigarray_resize(&ne, &ncap, n, sizeof *ne);
	bigarray_resize(&na, &acap, n, sizeof *na);
	for (size_t i = 0; i < n; i++) {
		uint32_t to = next[ev[i].track]++;

		ne[to] = ev[i];
		na[to] = ar[i];
		release_passed(&gone, &ev[i + 1]);
		release_passed(&agone, &ar[i + 1]);
	}
	free(next);
	bigarray_free(ev, t->events_cap, sizeof *ev);
	bigarray_free(ar, t->args_cap, sizeof *ar);
	t->events = ne;
	t->events_cap = ncap;
	t->args = na;
	t->args_cap = acap;
}

/*
 * Sorts the events by event_order(): grouped by track (copy_by_track(),
 * unless they come so already); within a track events are mostly in time
 * order already, and a track that is not is sorted in place through 4
 * bytes per event of its own.
 */
static void
sort_events(struct trace *t)
{
	struct event *ev = t->events;
	uint32_t *start = xcalloc(t->ntracks + 1, sizeof *start);
	uint32_t *last = xcalloc(t->ntracks ? t->ntracks : 1, sizeof *last);
	uint8_t *unsorted = xcalloc(t->ntracks ? t->ntracks : 1, 1);
	int grouped = 1;        /* the tracks one after another already */

	/* each track's size, and whether its events come in event_order() */
	for (size_t i = 0; i < t->nevents; i++) {
		uint32_t k = ev[i].track, me = (uint32_t)i;

		if (i > 0 && k < ev[i - 1].track)
			grouped = 0;
		if (start[k + 1]++ > 0 && !unsorted[k] &&
		    event_order(&last[k], &me, ev) > 0)
			unsorted[k] = 1;
		last[k] = me;
	}
	for (size_t k = 0; k < t->ntracks; k++)
		start[k + 1] += start[k];
	free(last);
	if (!grouped)
		copy_by_track(t, start);
	for (size_t k = 0; k < t->ntracks; k++) {
		uint32_t m = start[k + 1] - start[k], *o;

		if (!unsorted[k])
			continue;
		o = xreallocarray(NULL, m, sizeof *o);
		for (uint32_t j = 0; j < m; j++)
			o[j] = start[k] + j;
		qsort_r(o, m, sizeof *o, event_order, t->events);
		for (uint32_t j = 0; j < m; j++)
			o[j] -= start[k];
		permute_events(t->events + start[k], t->args + start[k], o, m);
		free(o);
	}
	free(unsorted);
	free(start);
}

static void
name_tracks(struct trace *t)
{
	char buf[96];

	for (size_t i = 0; i < t->ntracks; i++) {
		struct track *tr = &t->tracks[i];

		if (tr->name != 0)
			continue;
		if (tr->tid_str != 0)
			tr->name = tr->tid_str;
		else {
			snprintf(buf, sizeof buf, "%s %lld",
			    tr->kind == TRACK_GPU ? "stream" : "thread",
			    (long long)tr->tid);
			tr->name = strtab_intern(&t->strs, buf, strlen(buf));
		}
	}
}

static int
int32_cmp(const void *pa, const void *pb)
{
	int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;

	return (a > b) - (a < b);
}

/*
 * Sets t->devices_seen: the distinct devices of GPU activity.  Events are
 * sorted by track, where the device rarely changes, so only changes are
 * collected before sorting: O(n + r log r) for r changes.
 */
static void
find_devices(struct trace *t)
{
	int32_t *v = NULL, prev = -1;
	size_t n = 0, cap = 0, k = 0;

	/* and, per track, whether all its activity is on its device */
	for (size_t i = 0; i < t->ntracks; i++)
		t->tracks[i].flags |= TRACK_ONE_DEVICE;
	for (size_t i = 0; i < t->nevents; i++) {
		int32_t d;

		if (!event_is_activity(&t->events[i]))
			continue;
		d = trace_event_device(t, &t->events[i]);
		if (d != t->tracks[t->events[i].track].device)
			t->tracks[t->events[i].track].flags &= ~TRACK_ONE_DEVICE;
		if (n > 0 && d == prev)
			continue;
		xgrow(&v, &cap, n + 1, sizeof *v);
		v[n++] = prev = d;
	}
	if (n > 1)
		qsort(v, n, sizeof *v, int32_cmp);
	for (size_t i = 0; i < n; i++)
		if (k == 0 || v[i] != v[k - 1])
			v[k++] = v[i];
	t->devices_seen = v;
	t->ndevices_seen = k;
	if (k > TRACE_MAX_DEVICES)
		t->warn.devices_skipped = k - TRACE_MAX_DEVICES;
}

void
trace_sort(struct trace *t)
{
	close_pending(t);
	if (t->ntracks > 0) {
		apply_metadata(t);
		sort_tracks(t);
		name_tracks(t);
	}
	sort_events(t);

	t->start_ns = t->end_ns = 0;
	for (size_t i = 0; i < t->nevents; i++) {
		struct event *e = &t->events[i];
		struct track *k;

		k = &t->tracks[e->track];
		if (k->count == 0)
			k->first = (uint32_t)i;
		k->count++;
		if (i == 0 || e->ts_ns < t->start_ns)
			t->start_ns = e->ts_ns;
		if (i == 0 || event_end(e) > t->end_ns)
			t->end_ns = event_end(e);
		if (e->cls != CLASS_NONE && k->device < 0)
			k->device = trace_event_device(t, e);
	}
	for (size_t i = 0; i < t->ntracks; i++)
		if (t->tracks[i].kind == TRACK_GPU && t->tracks[i].device < 0)
			t->tracks[i].device = (int32_t)t->tracks[i].pid;
	find_devices(t);
	free_private(t);
}
