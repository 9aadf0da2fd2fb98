/*
 * depgraph — the dependency graph of a job (one or several ranks), its
 * replay, and the critical path of each step.
 *
 * Nodes.  For each analysis (one rank's device): every CUDA runtime or
 * driver call on any CPU thread of its trace (a launch, a synchronisation,
 * any other call), every GPU activity of its device, and two marks per step
 * (the start and the end of its ProfilerStep CPU span).  Each node has a
 * start vertex and an end vertex; a matched collective (crossrank.h) adds a
 * group vertex, its last arrival.
 *
 * Edges (into a vertex, each with a lag: the vertex is at least the source
 * plus the lag; its time is the largest of these):
 *   own      a node's start -> its end: its own duration (a collective
 *            kernel matched across ranks: its transfer, end - last arrival);
 *   thread   the CPU runs one program: each call and mark, in start order
 *            over all the threads of the process, follows the one before
 *            it (after its end, or where they overlap on two threads, after
 *            its start) by the host time measured between them, and comes
 *            after the previous one of its own thread (order only);
 *   launch   a launch call's start -> each GPU activity it launched
 *            (event.link), by the launch latency: the measured one when the
 *            launch set the start, else the device's median;
 *   stream   the previous activity of the same stream -> the next (its
 *            start where they overlap, programmatic dependent launch);
 *   wait     a cross-stream wait: the trace's cuda_sync Stream Wait Event
 *            rows where the device has any (cudasync.h), else inferred: an
 *            activity that starts more than DEPGRAPH_SLACK_NS after its
 *            launch and stream allow, and within that span after another
 *            stream's activity of the device ended, waited for the
 *            latest-ending such activity (the cudaStreamWaitEvent on an
 *            event recorded after it);
 *   sync     a synchronisation call (a runtime call named *Synchronize*)
 *            ends after the activity it waited for: the one its Event Sync
 *            or Stream Sync row names (cudasync.h), else the latest-ending
 *            activity of the device launched before the call began that
 *            ended inside the call; plus the call's measured tail;
 *   anchor   the last synchronisation before a launch -> the activity: with
 *            no-host-wait the launch edges are gone, but the work launched
 *            after a sync still waits for it;
 *   group    each member's start -> the collective's group vertex, which
 *            -> each member's end by its transfer.
 * A gap that no edge explains (an activity starting more than
 * DEPGRAPH_GAP_NS after its stream, launch and waits allow) is kept in the
 * measured timeline (so the critical path adds up) and dropped in a replay:
 * the replay of the unchanged trace then shows how much the graph misses.
 *
 * Replay.  depgraph_replay() sets every vertex to the largest of its
 * in-edges over the graph in topological order, with each node's own
 * duration changed by the scenario; vertices with no in-edges (the first
 * call of each process) keep their measured time.  Without a change and
 * with no unexplained gap, the replay is the measured timeline exactly.
 *
 * Critical path.  depgraph_path() walks a step back from its end mark,
 * each time along the in-edge that set the vertex in the measured
 * timeline, to the step's start mark, and splits the span into compute
 * (compute and memory activity), comm (collectives' own time), host (CPU
 * time between calls, launch calls, launch latency), sync (the tails of
 * synchronisation calls) and idle (GPU gaps on the path, unexplained ones
 * included).  The parts add up to the step's CPU span exactly.
 *
 * Ownership: a depgraph owns its arrays; it refers to the analyses and
 * traces it was built from, which must outlive it.  Events are by index.
 * Cost: O(V log V + E) to build (sorts), O(V + E) per replay, for V
 * vertices and E edges (a few per runtime call and GPU activity).
 */
#ifndef GANTTY_DEPGRAPH_H
#define GANTTY_DEPGRAPH_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

struct analysis;
struct crossrank;

#define DEPGRAPH_SLACK_NS INT64_C(3000)   /* 3 us: a start held beyond this waited */
#define DEPGRAPH_GAP_NS INT64_C(20000)    /* 20 us: a GPU gap no edge explains */

enum dg_node_kind {
	DG_CALL = 0,            /* a runtime call (a launch among them) */
	DG_SYNC,                /* a synchronisation call */
	DG_ACT,                 /* a GPU activity */
	DG_MARK,                /* a step's start or end */
	DG_GROUP,               /* a matched collective's last arrival */
};

/* The parts of a critical path. */
enum dg_part {
	DG_COMPUTE = 0,
	DG_COMM,
	DG_HOST,
	DG_SYNC_PART,
	DG_IDLE,
	DG_PARTS
};

/* One node: its measured span and its own duration. */
struct dg_node {
	int64_t start_ns, end_ns;       /* measured */
	int64_t own_ns;                 /* own duration (see the top) */
	uint32_t event;                 /* its event, EV_NONE for marks and groups */
	uint32_t part;                  /* its analysis */
	int32_t step;                   /* its analysis' step index holding it
	                                   (activity: by its launch), or -1 */
	uint8_t kind;                   /* enum dg_node_kind */
	uint8_t cls;                    /* GPU activity: enum event_class */
};

struct dg_edge {
	uint32_t from;                  /* a vertex: 2 * node (start), 2 * node + 1 (end) */
	uint8_t kind;                   /* enum dg_edge_kind (depgraph.c) */
	uint8_t unexplained;            /* a gap dropped in a replay */
	int64_t lag_ns;                 /* measured: the critical path's */
	int64_t replay_ns;              /* what a replay uses (unexplained: less) */
};

struct depgraph {
	const struct analysis *an;
	size_t nparts;
	struct dg_node *nodes;
	size_t nnodes;
	uint32_t *in_first;             /* 2 * nnodes + 1: in-edges of vertex v are
	                                   edges[in_first[v] .. in_first[v + 1]) */
	struct dg_edge *edges;
	size_t nedges;
	uint32_t *order;                /* the vertices in topological order */
	size_t norder;                  /* < 2 * nnodes when the graph has a cycle
	                                   (then the rest keep their measured time) */
	uint32_t *marks;                /* per analysis p, marks[mark_first[p] + 2 * s]
	                                   and + 1: step s's start and end mark nodes */
	size_t *mark_first;             /* nparts + 1 */
	size_t nmarks_used;
	size_t unexplained;             /* gaps no edge explains */
	int64_t unexplained_ns;         /* their total */
	size_t waits;                   /* cross-stream waits (inferred or recorded) */
	size_t syncs;                   /* synchronisations bound to their activity */
	size_t recorded;                /* waits and syncs bound by cuda_sync rows */
	int64_t launch_lat_ns;          /* the median launch latency used */
};

/* A what-if scenario. */
enum dg_scenario {
	DG_NONE = 0,                    /* the replay */
	DG_COMM_X,                      /* collectives' transfer factor times faster */
	DG_KERNELS_X,                   /* compute kernels matching re, factor times faster */
	DG_NO_STRAGGLER,                /* each rank's compute per step at the median rank's */
	DG_NO_HOST_WAIT,                /* the GPU never waits for a launch */
};

struct dg_whatif {
	enum dg_scenario kind;
	double factor;                  /* > 0; INFINITY: free */
	regex_t re;                     /* DG_KERNELS_X */
	int has_re;
	char text[128];                 /* as given, for the report */
};

/*
 * Parses a --what-if scenario ("none", "comm=K", "comm=inf",
 * "kernels=REGEX:K", "no-straggler", "no-host-wait"; K > 0) into w.
 * Returns 0, or -1 with why in err (size errsz).  Free with
 * depgraph_whatif_free().
 */
int depgraph_whatif_parse(struct dg_whatif *w, const char *text, char *err,
    size_t errsz);
/* Frees what w holds; w may be zeroed. */
void depgraph_whatif_free(struct dg_whatif *w);

/*
 * Builds g from the analyses an[0..n) (their traces finalised) and, for
 * n > 1, the crossrank x built from the same analyses in that order (NULL:
 * collectives are not joined across ranks).  g is overwritten.  Cannot fail.
 */
void depgraph_build(struct depgraph *g, const struct analysis *an, size_t n,
    const struct crossrank *x);
/* Frees what g owns; g may be zeroed. */
void depgraph_free(struct depgraph *g);

/*
 * Replays g with scenario w (NULL: none) into t[0 .. 2 * nnodes) (the
 * caller's array): the time of every vertex.  Cannot fail.  O(V + E).
 */
void depgraph_replay(const struct depgraph *g, const struct dg_whatif *w,
    int64_t *t);
/*
 * The span of step s of analysis p in the vertex times t (a replay):
 * its end mark minus its start mark.  -1 when the step has no marks.
 */
int64_t depgraph_step_ns(const struct depgraph *g, const int64_t *t, size_t p,
    size_t s);

/* One segment of a critical path. */
struct dg_segment {
	int64_t start_ns, dur_ns;
	uint32_t node;                  /* the node it is of (its event names it) */
	uint8_t part;                   /* enum dg_part */
};

struct dg_path {
	int64_t ns;                     /* the step's CPU span */
	int64_t part_ns[DG_PARTS];      /* add up to ns */
	struct dg_segment *seg;         /* in time order; adjacent segments of one
	                                   node and part merged */
	size_t nseg;
};

/*
 * The critical path of step s of analysis p in the measured timeline into
 * *path (overwritten; free with depgraph_path_free()).  Returns 0, or -1
 * when the step has no marks.  O(path length).
 */
int depgraph_path(const struct depgraph *g, size_t p, size_t s,
    struct dg_path *path);
/* Frees what path holds; path may be zeroed. */
void depgraph_path_free(struct dg_path *path);
/* "compute", "comm", "host", "sync" or "idle". */
const char *depgraph_part_name(enum dg_part part);
/* The name of node n: its event's name, or "step start" / "step end" / "collective". */
const char *depgraph_node_name(const struct depgraph *g, uint32_t n);

#endif
