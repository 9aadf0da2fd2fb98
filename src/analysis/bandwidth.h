/*
 * bandwidth — what the collectives moved and how fast (SPEC 3).
 *
 * Per COMM kernel with message sizes (its collective args, comm.h: "In msg
 * nelems", "Out msg nelems", "dtype", "Group size", as record_param_comms
 * writes them): bytes = the larger of the input and output message times
 * the dtype's size (nccl-tests' S: the whole buffer, which for all-gather
 * is the output and for reduce-scatter the input); algbw = bytes / duration;
 * busbw = algbw x NCCL's factor for the collective and group size n
 * (nccl-tests doc/PERFORMANCE.md): all-reduce 2(n-1)/n; all-gather,
 * reduce-scatter, all-to-all, gather and scatter (n-1)/n; broadcast,
 * reduce and send/recv 1.  GB/s are 10^9 bytes a second, as nccl-tests'
 * (bytes per nanosecond).  The collective type comes from the "Collective
 * name" argument, else the kernel's name.
 *
 * A kernel's duration includes the time it waited for its peers (a
 * collective cannot start before the last rank arrives), so one rank's
 * busbw is a lower bound of its link's: the cross-rank analysis measures
 * from the last arrival instead.
 *
 * Expected busbw: where the group's placement can be told, the bandwidth
 * the link should give, per GPU and direction, from the link table (in
 * bandwidth.c, with its sources): a group of 2 <= n <= the GPUs the trace's
 * deviceProperties list (the GPUs of the node the process sees) is within a
 * node, on the link of the device's GPU model (NVLink by generation, AMD
 * xGMI, PCIe for PCIe cards); a larger group crosses nodes, whose network
 * the trace does not say: unknown.
 */
#ifndef GANTTY_BANDWIDTH_H
#define GANTTY_BANDWIDTH_H

#include <stddef.h>
#include <stdint.h>

struct event;
struct metrics;

/* The collective types: X(id, report key). */
#define BANDWIDTH_TYPES(X) \
	X(ALL_REDUCE,     "all_reduce")     \
	X(ALL_GATHER,     "all_gather")     \
	X(REDUCE_SCATTER, "reduce_scatter") \
	X(ALL_TO_ALL,     "all_to_all")     \
	X(BROADCAST,      "broadcast")      \
	X(REDUCE,         "reduce")         \
	X(GATHER,         "gather")         \
	X(SCATTER,        "scatter")        \
	X(SEND_RECV,      "send_recv")      \
	X(OTHER,          "other")

enum coll_type {
#define X(id, key) COLL_##id,
	BANDWIDTH_TYPES(X)
#undef X
	COLL_NTYPES
};

/* One COMM kernel's bandwidth. */
struct coll_bw {
	enum coll_type type;
	int64_t group_size;     /* -1: unknown */
	int64_t bytes;          /* -1: no message sizes (or an unknown dtype) */
	double algbw_gbps;      /* -1: unknown (no bytes, or no duration) */
	double busbw_gbps;      /* -1: unknown (also without a group size) */
	double expected_gbps;   /* -1: unknown placement or link */
	const char *link;       /* the link table's row name, or NULL */
};

/* One collective type in a window. */
struct bw_row {
	enum coll_type type;
	uint64_t count;         /* its kernels with bytes, starting in the window */
	int64_t bytes;          /* their bytes */
	int64_t time_ns;        /* their durations */
	double busbw_gbps;      /* time-weighted: sum(busbw x dur) / sum(dur)
	                           over those with a busbw; -1 if none has */
	double expected_gbps;   /* time-weighted over those with one, or -1 */
};

/* The report key of a type ("all_reduce", ...). */
const char *bandwidth_type_key(enum coll_type c);
/*
 * The type of a collective from its "Collective name" ("allreduce",
 * "_allgather_base", "reduce_scatter_tensor_coalesced", "all_to_allv",
 * "send") or a kernel name ("ncclDevKernel_AllGather_RING_LL"): the first
 * of all-reduce, reduce-scatter, all-gather, all-to-all, broadcast, send /
 * recv, gather, scatter, reduce whose name it holds, ignoring case and '_'.
 */
enum coll_type bandwidth_type(const char *name);
/* Bytes of one element of a c10 dtype name ("Float", "BFloat16"), or 0. */
int bandwidth_dtype_size(const char *dtype);
/* NCCL's busbw / algbw for type c and group size n >= 1; -1 if n < 1. */
double bandwidth_factor(enum coll_type c, int64_t n);
/*
 * The expected busbw (GB/s) for a group of n GPUs named device_name (as
 * deviceProperties name it) on a node of node_gpus GPUs, with the link
 * table row's name in *link; -1 and NULL when unknown.
 */
double bandwidth_expected(const char *device_name, size_t node_gpus,
    int64_t n, const char **link);
/* Fills *out for COMM kernel e of d's trace and device. */
void bandwidth_of(const struct metrics *d, const struct event *e,
    struct coll_bw *out);
/* A device's COMM kernels with message sizes, by start: bandwidth_index(). */
struct bw_kernel {
	int64_t ts_ns, dur_ns, bytes;
	double busbw_gbps, expected_gbps;       /* -1: unknown */
	uint8_t type;                           /* enum coll_type */
};
struct bw_index {
	struct bw_kernel *k;
	size_t n;
};

/*
 * Fills x from d's activities (d->acts): every COMM kernel with bytes.
 * O(k) for its k COMM kernels.  Reads the trace's strings: not while
 * another thread may intern (layers_find()).
 */
void bandwidth_index(struct bw_index *x, const struct metrics *d);
/* Frees x's array; x may be zeroed. */
void bandwidth_index_free(struct bw_index *x);
/*
 * The rows of the window [start_ns, end_ns): one per type that has a
 * kernel of x with bytes >= min_bytes starting in it, in type order, into
 * rows[COLL_NTYPES].  Returns their number.  O(log k + kernels in it): the
 * viewer's panel asks every frame.
 */
size_t bandwidth_window(const struct bw_index *x, int64_t start_ns,
    int64_t end_ns, int64_t min_bytes, struct bw_row *rows);

#endif
