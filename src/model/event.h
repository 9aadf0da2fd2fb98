/*
 * event — the records of the model: one timeline event (32 bytes), the
 * arguments the analysis keeps for it, its communication arguments and the
 * flow endpoints that bind a launch to its GPU activity; the classes,
 * category kinds and flags that describe them.
 *
 * These are plain records with no behaviour beyond event_end(): the trace
 * (trace.h) owns the arrays of them, and the indexes below the trace (the
 * interval index itree.h, the name index byname.h) read them without
 * knowing the trace.  Events are referred to by uint32_t index, never by
 * pointer.  Time is int64_t nanoseconds; an interval is [ts_ns, ts_ns +
 * dur_ns) with dur_ns >= 0.
 */
#ifndef GANTTY_EVENT_H
#define GANTTY_EVENT_H

#include <stdint.h>

#define EV_NONE UINT32_MAX      /* "no event" / "no args" / "no comm" */
/*
 * Every time in the model (ts_ns, and ts_ns + dur_ns) lies within
 * [-TRACE_TIME_MAX, TRACE_TIME_MAX], 2^62 ns (146 years) either side of the
 * epoch: so the difference of any two times, and the total of disjoint
 * intervals, fit int64_t.  The loader counts times beyond it as integers
 * beyond int64.
 */
#define TRACE_TIME_MAX (((int64_t)1 << 62) - 1)
/*
 * Ranks lie in [0, TRACE_RANK_MAX] and world sizes in [1, TRACE_WORLD_MAX]
 * wherever they enter (distributedInfo, a file name, a report, the command
 * line): so rank * 65536 + device fits int64_t, and a list of missing ranks
 * stays bounded.  Beyond: counted (bad_rank) and ignored in a trace, an
 * error in a report or an option.
 */
#define TRACE_RANK_MAX INT32_MAX
#define TRACE_WORLD_MAX ((int64_t)1 << 20)
/*
 * The most GPU devices analysed in one trace (one rank: a process sees a few
 * GPUs).  Every analysis scans the trace, so a hostile trace with a device
 * per kernel would otherwise cost devices x events; the rest are counted in
 * warn.devices_skipped.
 */
#define TRACE_MAX_DEVICES 64
#define ID_NONE INT64_MIN       /* an absent integer argument */

/* The class of a GPU activity (SPEC 2); CLASS_NONE for everything else. */
enum event_class {
	CLASS_NONE = 0,
	CLASS_COMPUTE,
	CLASS_COMM,
	CLASS_MEMORY,
};

/*
 * The rules that make a kernel COMM (comm.h), in the order they are tried:
 * X(id, report key).
 */
#define COMM_RULES(X) \
	X(NCCL,        "nccl")            \
	X(RCCL,        "rccl")            \
	X(DEEPEP,      "deepep")          \
	X(SYMM_MEM,    "symm_mem")        \
	X(CUSTOM_AR,   "custom_allreduce") \
	X(NVSHMEM,     "nvshmem")         \
	X(MSCCLPP,     "mscclpp")         \
	X(HCCL,        "hccl")            \
	X(PATTERN,     "comm_pattern")    \
	X(CONTEXT,     "launch_context")

enum comm_rule {
	COMM_RULE_NONE = 0,
#define X(id, key) COMM_RULE_##id,
	COMM_RULES(X)
#undef X
	COMM_NRULES
};

/* What a category means to gantty; from the category text, case-insensitive. */
enum cat_kind {
	CAT_OTHER = 0,
	CAT_KERNEL,             /* kernel, Kernel */
	CAT_GPU_MEMCPY,         /* gpu_memcpy, Memcpy */
	CAT_GPU_MEMSET,         /* gpu_memset, Memset */
	CAT_GPU_ANNOTATION,     /* gpu_user_annotation */
	CAT_CPU_OP,             /* cpu_op, Operator */
	CAT_CUDA_RUNTIME,       /* cuda_runtime, Runtime */
	CAT_CUDA_DRIVER,        /* cuda_driver */
	CAT_USER_ANNOTATION,    /* user_annotation */
	CAT_PYTHON_FUNCTION,    /* python_function */
	CAT_CPU_INSTANT,        /* cpu_instant_event, [memory] instants */
	CAT_FLOW_AC2G,          /* ac2g, async_cpu_to_gpu */
	CAT_KNOWN_OTHER,        /* a category seen in Kineto traces with no role */
};

/*
 * Event flags: 8 bits.  Whether an event is a GPU activity is its class
 * (event_is_activity()); its phase is in the flags (event_ph()).
 */
enum {
	EVF_ANNOTATION = 1 << 0,  /* a gpu_user_annotation */
	EVF_INSTANT    = 1 << 1,  /* from an 'i'/'I' event, dur 0 */
	EVF_COUNTER    = 1 << 2,  /* from a 'C' event, dur 0 */
	EVF_FROM_BE    = 1 << 3,  /* built from a B/E pair */
	EVF_UNCLOSED   = 1 << 4,  /* a B never closed: ends at the track's last end */
	EVF_BAD_NEST   = 1 << 5,  /* overlaps its parent's end (improper nesting) */
	EVF_SYNC       = 1 << 6,  /* a CUDA synchronisation call */
	EVF_FREE_CALL  = 1 << 7,  /* of LIST_ALLOC_CALLS: cudaFree or cudaFreeAsync */
};

/*
 * The most tracks and categories a trace holds (the widths of their fields
 * in struct event).  Beyond them, a new track or category is folded into
 * the last one: no real trace comes near (a few hundred tracks, a few
 * dozen categories).
 */
#define TRACE_TRACKS_MAX ((UINT32_C(1) << 24) - 1)
#define TRACE_CATS_MAX ((1 << 14) - 1)

/*
 * One timeline event; 32 bytes.  Its arguments are trace->args[i] for the
 * event i (trace_args()).
 */
struct event {
	int64_t ts_ns;
	int64_t dur_ns;         /* >= 0 */
	uint32_t name;          /* strtab id */
	uint32_t link;          /* GPU activity: its CPU launch; launch: its first GPU activity; else EV_NONE */
	uint32_t track : 24;    /* index into trace->tracks, < TRACE_TRACKS_MAX */
	uint32_t flags : 8;     /* EVF_* */
	uint32_t depth : 16;    /* CPU: nesting depth; GPU activity: sub-row; annotation: nesting depth */
	uint32_t cat : 14;      /* index into trace->cats, < TRACE_CATS_MAX */
	uint32_t cls : 2;       /* enum event_class */
};

/* Whether e is a GPU activity (kernel, memcpy, memset). */
#define event_is_activity(e) ((e)->cls != CLASS_NONE)
/* e's phase: 'X' (also for B/E pairs), 'i' or 'C'. */
#define event_ph(e) ((e)->flags & EVF_INSTANT ? 'i' : \
    (e)->flags & EVF_COUNTER ? 'C' : 'X')

/*
 * The arguments the analysis needs, kept for events that carry any; 32
 * bytes.  Their rare floating-point values (FLOPs, counters, [memory]) live
 * apart in trace->nums: read them with trace_args_flops() and friends.
 */
struct event_args {
	int64_t correlation;    /* args.correlation, ID_NONE if absent */
	int64_t external_id;    /* args["External id"], ID_NONE if absent (always
	                           for [memory] events) */
	int32_t device;         /* args.device ([memory]: Device Id unless Device Type 0), -1 if absent */
	int32_t stream;         /* args.stream, -1 if absent */
	uint32_t comm;          /* index into trace->comms, or EV_NONE */
	uint32_t nums;          /* where they are (see trace_args_nums()), or
	                           EV_NONE when they are ARG_NUMS_NONE */
};

/*
 * How the model stores an event's arguments (trace->args, one per event):
 * 16 bytes where struct event_args takes 32, for 99% of a Kineto trace's
 * events; an event with none has ARGS_REC_NONE (device ARGS_NONE).  The ids
 * are kept as uint32_t (ARGS_NO_ID when absent), device and stream as
 * int16_t (-1 when absent).  A record whose values do not fit, or that has
 * comm args, is wide: device is ARGS_WIDE and nums the index of its
 * struct event_args in trace->wide.  Read them with trace_args().
 */
struct args_rec {
	uint32_t correlation;   /* ARGS_NO_ID if absent */
	uint32_t external_id;   /* ARGS_NO_ID if absent */
	uint32_t nums;          /* trace_args_nums()'s index (trace->nums,
	                           trace->seqs) or EV_NONE; wide: index into
	                           trace->wide */
	int16_t device;         /* -1 if absent; ARGS_WIDE: a wide record;
	                           ARGS_NONE: no args */
	int16_t stream;         /* -1 if absent */
};
#define ARGS_NO_ID UINT32_MAX
#define ARGS_WIDE INT16_MIN
#define ARGS_NONE (INT16_MIN + 1)
#define ARGS_REC_NONE \
	((struct args_rec){ ARGS_NO_ID, ARGS_NO_ID, EV_NONE, ARGS_NONE, -1 })

/* The rarer numeric arguments of an event. */
struct arg_nums {
	double flops;           /* args.flops, < 0 if absent; [memory] events
	                           (which have no FLOPs): Total Reserved, 0 if absent */
	double value;           /* counters: the first numeric arg; [memory]: Total Allocated;
	                           cuda_sync rows with both wait args: wait_on_stream + 1;
	                           else 0 */
	int64_t seq;            /* autograd ops: "Sequence number" (< 2^48) |
	                           "Fwd thread id" (< 2^15, 0 if absent) << 48;
	                           cuda_sync rows: wait_on_cuda_event_record_corr_id
	                           (< 2^48, with value);
	                           -1 if absent or out of range */
};
/*
 * How the model stores the nums that are two values, flops and value (seq
 * -1: [memory] samples, counters) or flops and seq (value 0: ops with
 * FLOPs): in 16 bytes (trace->pairs).
 */
struct arg_pair {
	double flops;
	union {
		double value;
		int64_t seq;
	};
};
/* What an event without stored nums reads: no FLOPs, value 0, no seq. */
#define ARG_NUMS_NONE ((struct arg_nums){ -1.0, 0.0, -1 })
#define ARG_SEQ_NR(seq) ((seq) & ((INT64_C(1) << 48) - 1))
#define ARG_SEQ_FWD_TID(seq) ((seq) >> 48)

/* NCCL collective fields (record_param_comms and newer NCCL kernels). */
struct comm_args {
	uint32_t collective;    /* "Collective name", strtab id */
	uint32_t pg_name;       /* "Process Group Name" */
	uint32_t dtype;         /* "dtype" */
	int32_t group_size;     /* "Group size", -1 if absent */
	int64_t in_nelems;      /* "In msg nelems", -1 if absent */
	int64_t out_nelems;     /* "Out msg nelems", -1 if absent */
	int64_t seq;            /* "Seq" or "seq", -1 if absent */
};

/*
 * One flow endpoint ('s', 't' or 'f'), held from the load until
 * trace_finalize() binds it (link.c), when a 1 GB trace has a million: 24
 * bytes, for the event it is bound to takes the place of its time, which
 * binding it was the last to read.
 */
struct flow {
	int64_t id;             /* numeric id, or a hash of a string id */
	union {
		int64_t ts_ns;  /* as read */
		uint32_t event; /* once bound (link.c): the event, or EV_NONE */
	};
	uint32_t track;
	uint16_t cat;
	uint8_t ph;             /* 's', 't' or 'f' */
	uint8_t enclosing;      /* bp == "e": binds to the enclosing slice */
};

/* The end of e: ts_ns + dur_ns (within TRACE_TIME_MAX, so no overflow). */
static inline int64_t
event_end(const struct event *e)
{
	return e->ts_ns + e->dur_ns;
}

#endif
