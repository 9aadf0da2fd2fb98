/*
 * trace — the in-memory model of one loaded trace file (one rank).
 *
 * A trace owns everything loaded from one file: interned strings, events,
 * their analysis arguments, flows, tracks and the file's header.  Events are
 * referred to by uint32_t index into trace->events, never by pointer.
 *
 * Life cycle: trace_init(), then the loader appends with trace_track() and
 * trace_add_event() etc. in file order, then trace_finalize() sorts events
 * by (track, ts_ns, longest first), so each track owns the contiguous range
 * events[track.first .. track.first + track.count), and builds the derived
 * data (nesting depths, sub-rows, indices, correlation links; see track.h and
 * link.h) and the events by name (byname.h), then frees the flow endpoints
 * (nflows 0; flow_count says how many there were).  After trace_finalize() the trace is read-only.
 *
 * Time is int64_t nanoseconds exactly as in the file (trace ts in us * 1000);
 * every interval is half-open [ts_ns, ts_ns + dur_ns) with dur_ns >= 0.
 */
#ifndef GANTTY_TRACE_H
#define GANTTY_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "model/byname.h"
#include "model/event.h"
#include "model/itree.h"
#include "base/ivset.h"
#include "base/strtab.h"

enum track_kind {
	TRACK_CPU = 0,          /* a CPU thread */
	TRACK_GPU,              /* a GPU stream: holds kernel/memcpy/memset/gpu annotations */
	TRACK_COUNTER,          /* 'C' events of one name in one process */
};

/* Track flags. */
enum {
	TRACK_ONE_DEVICE = 1 << 0,  /* all of its activity (if any) is on device */
};

struct track {
	int64_t pid, tid;       /* numeric ids (0 for string ids) */
	uint32_t pid_str;       /* strtab id of a string pid, 0 when numeric */
	uint32_t tid_str;       /* strtab id of a string tid or counter name, 0 when numeric */
	uint32_t name;          /* thread_name, else a default ("stream 7", "thread 12") */
	uint32_t process_name;  /* process_name of pid, 0 if none */
	int64_t sort_index;     /* thread_sort_index, else tid */
	int64_t process_sort_index;
	enum track_kind kind;
	int32_t device;         /* GPU: device of its activity (args.device, else pid); else -1 */
	uint32_t first, count;  /* its events after trace_finalize() */
	uint32_t activity;      /* how many of them are GPU activity */
	uint16_t rows;          /* sub-rows (GPU) or nesting levels (CPU) in use */
	uint16_t flags;         /* TRACK_* */
	struct itree index;     /* over events[first .. first+count) */
	struct ivset busy;      /* union of its activity (GPU) or of its slices (CPU) */
};

struct device_prop {
	int64_t id;
	uint32_t name;          /* strtab id, e.g. "NVIDIA H100 80GB HBM3" */
	int32_t compute_major, compute_minor, num_sms;
	int64_t total_mem;
};

/* Warnings: counted, never fatal.  X(field, json key, text). */
#define TRACE_WARNINGS(X) \
	X(truncated_bytes, "truncated_bytes", "bytes ignored after the last complete event (file cut short or invalid there)") \
	X(control_chars, "control_chars", "strings with control characters") \
	X(unknown_category, "unknown_category", "events with an unknown category") \
	X(missing_fields, "missing_fields", "events missing a required field (skipped)") \
	X(int_overflow, "int_overflow", "integers beyond int64") \
	X(negative_dur, "negative_dur", "negative durations (clamped to 0)") \
	X(bad_timestamp, "bad_timestamp", "unparseable timestamps (event skipped) or durations (taken as 0)") \
	X(bad_nesting, "bad_nesting", "improperly nested CPU spans") \
	X(unmatched_begin, "unmatched_begin", "B events never ended") \
	X(unmatched_end, "unmatched_end", "E events with no B (skipped)") \
	X(non_object_events, "non_object_events", "array entries that are not objects (skipped)") \
	X(unknown_phase, "unknown_phase", "events with an unknown phase (skipped)") \
	X(unbound_flows, "unbound_flows", "flow endpoints with no event to bind to") \
	X(corrupt_gzip, "corrupt_gzip", "corrupt gzip data (reading stopped there)") \
	X(trailing_bytes, "trailing_bytes", "bytes after the end of the JSON value (ignored)") \
	X(too_many_events, "too_many_events", "events beyond the 4 billion limit (skipped)") \
	X(too_deep, "too_deep", "events or header values nested deeper than 64 levels (skipped)") \
	X(devices_skipped, "devices_skipped", "GPU devices beyond the first 64 of the trace (not analysed)") \
	X(bad_rank, "bad_rank", "ranks or world sizes out of range (ignored)") \
	X(long_strings, "long_strings", "strings longer than 1 MiB (cut to their first MiB)")

/*
 * The events a few analyses look for among millions, listed by
 * trace_finalize() (and cached), each list ascending: they read no string.
 */
enum trace_list {
	LIST_FLOP_OPS,          /* CPU events with FLOPs (> 0) and an External id (MFU) */
	LIST_MEMORY,            /* "[memory]" instants with args (memory.h) */
	LIST_ALLOC_CALLS,       /* slices named cudaMalloc, cudaMallocAsync, cudaFree
	                           or cudaFreeAsync of category cuda_runtime or
	                           cuda_driver (memory.h); frees have EVF_FREE_CALL */
	TRACE_LISTS
};

struct trace_warnings {
#define X(f, k, t) uint64_t f;
	TRACE_WARNINGS(X)
#undef X
};

#define TRACE_SRC_BLOCK (UINT64_C(256) << 10)

struct src_block {
	uint64_t off;                   /* the first event object's offset */
	int64_t min_ts_ns, max_ts_ns;
};

struct trace {
	char *path;             /* as given ("-" for stdin) */
	int64_t rank;           /* distributedInfo.rank, else from the name, else position */
	const char *rank_source; /* "distributedInfo", "file name" or "position" */
	int64_t world_size;     /* distributedInfo.world_size, -1 if absent */

	struct strtab strs;

	/*
	 * The record arrays, events to flows, are base/bigarray.h arrays:
	 * grown, resized and freed through it with their _cap, never by
	 * realloc() or free() (in a cache's mapping they are neither).
	 */
	struct event *events;
	size_t nevents, events_cap;
	struct args_rec *args;  /* one per event, args[i] event i's (nevents of
	                           them, moved with them): read with trace_args() */
	size_t args_cap;
	struct event_args *wide; /* the args that do not fit a struct args_rec */
	size_t nwide, wide_cap;
	struct arg_nums *nums;  /* read with trace_args_nums() */
	size_t nnums, nums_cap;
	int64_t *seqs;          /* the nums that are a sequence number alone */
	size_t nseqs, seqs_cap;
	struct arg_pair *pairs; /* the nums that are two values */
	size_t npairs, pairs_cap;
	struct comm_args *comms;
	size_t ncomms, comms_cap;
	struct flow *flows;     /* freed by trace_finalize() once bound (their
	                           binding lives on in event.link) */
	size_t nflows, flows_cap;
	size_t flow_count;      /* flow endpoints read (kept after the flows are freed) */
	struct track *tracks;
	size_t ntracks, tracks_cap;
	struct byname byname;   /* the events by name (after trace_finalize()) */
	/* counted by trace_finalize() */
	uint64_t nactivities;   /* GPU activities (event_is_activity()) */
	uint64_t nlinked;       /* of them, those linked to their launch call */
	uint64_t comm_rules[COMM_NRULES]; /* kernels each COMM rule took (comm.h) */
	uint64_t *cat_slices;   /* ncats: each category's 'X' events not from B/E */
	uint32_t *lists[TRACE_LISTS]; /* see enum trace_list */
	size_t nlist[TRACE_LISTS];

	uint32_t *cats;         /* category index -> strtab id */
	uint8_t *cat_kinds;     /* category index -> enum cat_kind */
	size_t ncats, cats_cap;

	/* header */
	struct device_prop *devices;
	size_t ndevices, devices_cap;
	int has_distributed;
	int64_t dist_rank;      /* -1 if absent */
	uint32_t dist_backend;  /* strtab id */
	int64_t base_time_ns;   /* baseTimeNanoseconds, 0 if absent */
	int has_base_time;
	int legacy_array;       /* the bare-array form */

	uint64_t objects;       /* every object in the event array (SPEC: "events") */
	int64_t start_ns, end_ns; /* earliest ts, latest end over all events; 0,0 if none */
	int32_t *devices_seen;  /* the devices of GPU activity, ascending, distinct */
	size_t ndevices_seen;
	struct trace_warnings warn;
	char *stop_reason;      /* why reading stopped early (invalid JSON after events), or NULL */
	/*
	 * Where the events are in the file, for reading an event's args back
	 * (load/source.h): per block of TRACE_SRC_BLOCK bytes of the
	 * (decompressed) JSON, in file order, the offset of the first event
	 * object starting in it and the least and largest ts of the events of
	 * the objects starting in it.  src_off is the offset of the object
	 * being taken (the loader sets it; UINT64_MAX: unknown, nothing kept).
	 */
	struct src_block *src;
	size_t nsrc, src_cap;
	uint64_t src_off;
	int events_cut;         /* reading stopped inside the event array: the
	                           events after that point are missing (a stop
	                           after the array closed loses only metadata) */

	/*
	 * A trace read from gantty's cache (cache.c) has its arrays (but
	 * tracks) in the cache file's private mapping, map_len bytes at map
	 * (else NULL): trace_free() unmaps it instead of freeing them.
	 */
	void *map;
	size_t map_len;

	/* private to trace.c */
	void *track_map;
	void *pending;          /* open B events */
};

/*
 * The longest string the model keeps, in bytes: a name, category, id or
 * argument beyond it is cut there (at a UTF-8 character boundary) and
 * counted (long_strings), so that no output has to cut one silently.
 */
#define TRACE_STR_MAX ((size_t)1 << 20)

/*
 * Interns the len bytes at s in t's strings, cut to TRACE_STR_MAX (counted
 * in t->warn.long_strings).  Returns its id.
 */
uint32_t trace_intern(struct trace *t, const char *s, size_t len);

/* Initialises an empty trace for path (copied). */
void trace_init(struct trace *t, const char *path);
/* Frees everything t owns; t may be zeroed. */
void trace_free(struct trace *t);

/*
 * Returns the index of the track (pid, tid), creating it.  A string pid or
 * tid is given as (0, text); a numeric one as (n, NULL).
 */
uint32_t trace_track(struct trace *t, int64_t pid, const char *pid_text,
    int64_t tid, const char *tid_text);
/* Returns the category index of the text cat (interned, classified). */
uint16_t trace_category(struct trace *t, const char *cat, size_t len);
/*
 * Appends an event and its args record (both copied; ARGS_REC_NONE for
 * none) and returns its index, or EV_NONE when the index space is full.
 */
uint32_t trace_add_event(struct trace *t, const struct event *ev,
    const struct args_rec *r);
/*
 * The args record of args a (a->nums is ignored) with their floating-point
 * values n, for trace_add_event(): in 16 bytes when they fit, else in
 * t->wide; n stored only when it differs, bit for bit, from ARG_NUMS_NONE
 * (in t->seqs when only its seq does, in t->pairs when its seq is -1 or
 * its value +0.0).
 */
struct args_rec trace_make_args(struct trace *t, const struct event_args *a,
    const struct arg_nums *n);
/* Appends comm args and returns its index. */
uint32_t trace_add_comm(struct trace *t, const struct comm_args *c);
/* Appends a flow endpoint. */
void trace_add_flow(struct trace *t, const struct flow *f);
/* Handles a 'B' event on track at ts_ns (its name and args r are given). */
void trace_begin(struct trace *t, const struct event *ev,
    const struct args_rec *r);
/* Handles an 'E' event on track at ts_ns: closes the latest open B there. */
void trace_end(struct trace *t, uint32_t track, int64_t ts_ns);
/*
 * Moves src, the events read from a later part of the same file, onto the
 * end of dst (neither finalised), renumbering src's strings, categories,
 * tracks and records: dst becomes what reading both parts in order would
 * have built.  Returns -1, changing nothing, when it cannot be (src holds
 * B or E events, which pair across the parts, or the counts would
 * overflow).  On success src keeps only its header fields and strings:
 * trace_free() it.  O(n) in src.
 */
int trace_merge(struct trace *dst, struct trace *src);
/*
 * Whether trace_merge() of src[0], then src[1], ... src[n - 1] into dst
 * would all succeed (none declines), checked before any is merged.
 */
int trace_merge_ok(const struct trace *dst, struct trace *const *src, size_t n);
/* Records an M event: kind is the metadata name ("thread_name", ...). */
void trace_metadata(struct trace *t, const char *kind, int64_t pid,
    const char *pid_text, int64_t tid, const char *tid_text,
    const char *str_value, int64_t int_value);

/*
 * Sorts and derives everything (see the top of this file): trace_sort(),
 * then the tracks' indexes, the links, the name index and the lists.
 * Defined in finalize.c, above track.c and link.c, which it runs.  Cannot
 * fail.  O(n log n) in the number of events.
 */
void trace_finalize(struct trace *t);
/*
 * The first half of trace_finalize(): closes unclosed B events, applies
 * the metadata, sorts the tracks and the events, names the tracks, finds
 * each track's events, the trace's extent and devices, and frees the
 * loader's private state.  Only trace_finalize() calls it.
 */
void trace_sort(struct trace *t);

/* Classifies a category text; case-insensitive. */
enum cat_kind trace_cat_kind(const char *cat);
/*
 * The class of an 'X' event by its category kind (SPEC 2): MEMORY for a
 * memcpy or memset, COMPUTE for a kernel (comm_classify(), run by
 * trace_finalize(), finds the COMM ones), NONE for the rest.
 */
enum event_class trace_classify(enum cat_kind kind);

/*
 * The lower-bound searches by start time, one for every caller:
 * trace_lower_bound() returns the first position in idx[lo .. hi) whose
 * event starts at or after ts_ns (hi if none), for idx ascending by start;
 * trace_track_lower_bound() the first event of track tr starting at or
 * after ts_ns, an index into t->events (tr->first + tr->count if none);
 * trace_track_lower_bound_from() the same among the track's events from
 * index from (an index into t->events, tr->first .. its end) on.  O(log n);
 * they read only ts_ns.
 */
static inline size_t
trace_lower_bound(const struct trace *t, const uint32_t *idx, size_t lo,
    size_t hi, int64_t ts_ns)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->events[idx[mid]].ts_ns < ts_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
static inline uint32_t
trace_track_lower_bound_from(const struct trace *t, const struct track *tr,
    uint32_t from, int64_t ts_ns)
{
	uint32_t lo = from - tr->first, hi = tr->count;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (t->events[tr->first + mid].ts_ns < ts_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return tr->first + lo;
}
static inline uint32_t
trace_track_lower_bound(const struct trace *t, const struct track *tr,
    int64_t ts_ns)
{
	return trace_track_lower_bound_from(t, tr, tr->first, ts_ns);
}

/* Accessors. */
static inline const char *
trace_str(const struct trace *t, uint32_t id)
{
	return strtab_get(&t->strs, id);
}
/* The args of event i (< t->nevents) into *a (all absent when it has none). */
static inline void
trace_args_at(const struct trace *t, uint32_t i, struct event_args *a)
{
	const struct args_rec *r = &t->args[i];

	if (r->device == ARGS_WIDE) {
		*a = t->wide[r->nums];
		return;
	}
	a->correlation = r->correlation == ARGS_NO_ID ? ID_NONE : r->correlation;
	a->external_id = r->external_id == ARGS_NO_ID ? ID_NONE : r->external_id;
	a->device = r->device == ARGS_NONE ? -1 : r->device;
	a->stream = r->stream;
	a->comm = EV_NONE;
	a->nums = r->nums;
}
/* e's args, read into *buf: buf, or NULL when e has none. */
static inline const struct event_args *
trace_args(const struct trace *t, const struct event *e, struct event_args *buf)
{
	uint32_t i = (uint32_t)(e - t->events);

	if (t->args[i].device == ARGS_NONE)
		return NULL;
	trace_args_at(t, i, buf);
	return buf;
}
/* Sets the comm of event i's args (it has some), making them wide. */
void trace_args_set_comm(struct trace *t, uint32_t i, uint32_t comm);
/*
 * The floating-point arguments of a (ARG_NUMS_NONE when none are stored).
 * a->nums is EV_NONE, or its top two bits say where the rest indexes
 * (NUMS_INDEX()): neither, t->nums (24 bytes); NUMS_SEQ, t->seqs, a
 * sequence number alone (an autograd op's: no FLOPs, value 0) in 8 bytes;
 * NUMS_PAIR, t->pairs, flops and value (seq -1); both, t->pairs, flops and
 * seq (value 0).  Each index is below NUMS_LIMIT.
 */
#define NUMS_SEQ UINT32_C(0x80000000)
#define NUMS_PAIR UINT32_C(0x40000000)
#define NUMS_LIMIT (NUMS_PAIR - 1)
#define NUMS_INDEX(i) ((i) & ~(NUMS_SEQ | NUMS_PAIR))
/* The nums that the index i (an event_args' nums) says. */
static inline struct arg_nums
trace_nums(const struct trace *t, uint32_t i)
{
	const struct arg_pair *p;

	if (i == EV_NONE)
		return ARG_NUMS_NONE;
	switch (i & (NUMS_SEQ | NUMS_PAIR)) {
	case 0:
		return t->nums[i];
	case NUMS_SEQ:
		return (struct arg_nums){ -1.0, 0.0, t->seqs[NUMS_INDEX(i)] };
	case NUMS_PAIR:
		p = &t->pairs[NUMS_INDEX(i)];
		return (struct arg_nums){ p->flops, p->value, -1 };
	default:
		p = &t->pairs[NUMS_INDEX(i)];
		return (struct arg_nums){ p->flops, 0.0, p->seq };
	}
}
static inline struct arg_nums
trace_args_nums(const struct trace *t, const struct event_args *a)
{
	return trace_nums(t, a->nums);
}
/* args.flops, < 0 if absent. */
static inline double
trace_args_flops(const struct trace *t, const struct event_args *a)
{
	return trace_args_nums(t, a).flops;
}
/* Returns the device of a GPU activity: args.device, else its pid. */
int32_t trace_event_device(const struct trace *t, const struct event *e);

/*
 * For loops over events scattered through the array (idx[0..n), such as a
 * name's events): starts fetching the one TRACE_AHEAD places after idx[j],
 * so that many cache misses are in flight at once rather than one.
 */
#define TRACE_AHEAD 16
static inline void
trace_prefetch(const struct trace *t, const uint32_t *idx, size_t j, size_t n)
{
	if (j + TRACE_AHEAD < n)
		__builtin_prefetch(&t->events[idx[j + TRACE_AHEAD]]);
}
/*
 * trace_prefetch() for loops that read each event's args and their nums
 * too: the event and its args TRACE_AHEAD places on, the nums of the one
 * a quarter as far (its args fetched by then).
 */
static inline void
trace_prefetch_args(const struct trace *t, const uint32_t *idx, size_t j,
    size_t n)
{
	trace_prefetch(t, idx, j, n);
	if (j + TRACE_AHEAD < n)
		__builtin_prefetch(&t->args[idx[j + TRACE_AHEAD]]);
	if (j + TRACE_AHEAD / 4 < n) {
		const struct args_rec *r = &t->args[idx[j + TRACE_AHEAD / 4]];

		if (r->device == ARGS_WIDE)
			__builtin_prefetch(&t->wide[r->nums]);
		else if (r->nums == EV_NONE || r->device == ARGS_NONE)
			return;
		else if ((r->nums & (NUMS_SEQ | NUMS_PAIR)) == NUMS_SEQ)
			__builtin_prefetch(&t->seqs[NUMS_INDEX(r->nums)]);
		else if (r->nums & NUMS_PAIR)
			__builtin_prefetch(&t->pairs[NUMS_INDEX(r->nums)]);
		else
			__builtin_prefetch(&t->nums[r->nums]);
	}
}

static inline const char *
trace_class_name(enum event_class c)
{
	static const char *const names[] = { "none", "compute", "comm", "memory" };
	return names[c];
}
/*
 * Whether t lost data at load: the file was cut short or invalid after some
 * events, or its gzip stream was corrupt (the events after that point are
 * missing, so its last step may be incomplete).
 */
static inline int
trace_cut_short(const struct trace *t)
{
	return t->warn.truncated_bytes != 0 || t->warn.corrupt_gzip != 0 ||
	    t->stop_reason != NULL;
}
/*
 * Whether t lost events at load (trace_cut_short() and the reading stopped
 * inside the event array): only then may its last step be incomplete.
 */
static inline int
trace_events_lost(const struct trace *t)
{
	return trace_cut_short(t) && (t->events_cut || t->warn.corrupt_gzip != 0);
}
/* How many kinds of warning t has (TRACE_WARNINGS, and a stop reason). */
static inline int
trace_warning_kinds(const struct trace *t)
{
	int n = t->stop_reason != NULL;

#define X(f, k, txt) n += t->warn.f != 0;
	TRACE_WARNINGS(X)
#undef X
	return n;
}
static inline const char *
trace_kind_name(enum track_kind k)
{
	static const char *const names[] = { "cpu", "gpu", "counter" };
	return names[k];
}

#endif
