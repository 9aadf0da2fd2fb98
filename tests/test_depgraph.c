/*
 * depgraph: the dependency graph, its replay and the critical path, on
 * hand-made traces whose every time is worked out by hand (the oracle is
 * the arithmetic in the comments).
 */
#include "config.h"

#include <math.h>

#include "jtrace.h"
#include "analysis/cudasync.h"
#include "analysis/depgraph.h"
#include "base/xalloc.h"

/*
 * Two steps, times in us.  Step 1 [0, 2710): a GEMM [20, 220) launched at
 * 10, a cudaStreamSynchronize [30, 225) waiting for it (tail 5), 2275 us
 * of host work, then an elementwise kernel [2510, 2700) launched at 2500
 * and a synchronisation [2505, 2705): the GPU waits for the host.
 * Step 2 [3000, 5240): an all-gather [3020, 5020) launched at 3010, a
 * compute kernel [5025, 5225) launched at 3015 that waits for it (a
 * cross-stream wait), a synchronisation [3030, 5230): the all-gather is
 * exposed.  Launch latency 10 us everywhere.
 */
static void
two_steps(struct trace *t, struct analysis *a)
{
	struct analysis_opts o = j_opts();

	j_begin();
	step(1, 0, 2710);
	kernel(1, 10, "gemm_bf16_tn", 20, 220);
	cpu("cuda_runtime", "cudaStreamSynchronize", 1, 30, 195);
	kernel(1, 2500, "elementwise_add", 2510, 2700);
	cpu("cuda_runtime", "cudaStreamSynchronize", 1, 2505, 200);
	step(2, 3000, 5240);
	kernel(1, 3010, "ncclDevKernel_AllGather_RING_LL", 3020, 5020);
	kernel(1, 3015, "flash_fwd", 5025, 5225);
	cpu("cuda_runtime", "cudaStreamSynchronize", 1, 3030, 2200);
	j_load(t);
	analysis_build(a, t, 0, &o);
	cr_assert_eq(a->nsteps, 2);
}

static int64_t
predict(const struct depgraph *g, const char *scenario, size_t s)
{
	struct dg_whatif w;
	char err[128];
	int64_t *t = xmalloc((2 * g->nnodes + 1) * sizeof *t), ns;

	cr_assert_eq(depgraph_whatif_parse(&w, scenario, err, sizeof err), 0,
	    "%s: %s", scenario, err);
	depgraph_replay(g, &w, t);
	ns = depgraph_step_ns(g, t, 0, s);
	depgraph_whatif_free(&w);
	free(t);
	return ns;
}

Test(depgraph, replay_recovers_the_measured_steps)
{
	struct trace t;
	struct analysis a;
	struct depgraph g;
	int64_t *rt;

	two_steps(&t, &a);
	depgraph_build(&g, &a, 1, NULL);
	cr_assert_eq(g.norder, 2 * g.nnodes, "the graph has a cycle");
	cr_assert_eq(g.unexplained, 0);
	cr_assert_geq(g.waits, 1, "the flash kernel's wait for the all-gather");
	cr_assert_eq(g.syncs, 3);
	cr_assert_eq(g.launch_lat_ns, 10000);
	rt = xmalloc((2 * g.nnodes + 1) * sizeof *rt);
	depgraph_replay(&g, NULL, rt);
	cr_assert_eq(depgraph_step_ns(&g, rt, 0, 0), 2710000);
	cr_assert_eq(depgraph_step_ns(&g, rt, 0, 1), 2240000);
	/* every vertex where it was measured */
	for (size_t n = 0; n < g.nnodes; n++) {
		cr_assert_eq(rt[2 * n], g.nodes[n].start_ns, "node %zu start", n);
		cr_assert_eq(rt[2 * n + 1], g.nodes[n].end_ns, "node %zu end", n);
	}
	free(rt);
	depgraph_free(&g);
	analysis_free(&a);
	trace_free(&t);
}

Test(depgraph, critical_path_adds_up_and_names_the_cause)
{
	struct trace t;
	struct analysis a;
	struct depgraph g;
	struct dg_path p;
	int64_t sum = 0, prev_end;

	two_steps(&t, &a);
	depgraph_build(&g, &a, 1, NULL);

	/* step 1: the host stall sets its length */
	cr_assert_eq(depgraph_path(&g, 0, 0, &p), 0);
	cr_assert_eq(p.ns, 2710000);
	for (int k = 0; k < DG_PARTS; k++)
		sum += p.part_ns[k];
	cr_assert_eq(sum, p.ns);
	/* compute: the GEMM 200 and the add 190; sync: two tails of 5 */
	cr_assert_eq(p.part_ns[DG_COMPUTE], 390000);
	cr_assert_eq(p.part_ns[DG_SYNC_PART], 10000);
	cr_assert_eq(p.part_ns[DG_COMM], 0);
	cr_assert_eq(p.part_ns[DG_HOST], 2710000 - 390000 - 10000);
	/* the segments tile the step in time order */
	prev_end = a.steps[0].start_ns;
	for (size_t i = 0; i < p.nseg; i++) {
		cr_assert_eq(p.seg[i].start_ns, prev_end, "segment %zu", i);
		prev_end = p.seg[i].start_ns + p.seg[i].dur_ns;
	}
	cr_assert_eq(prev_end, a.steps[0].end_ns);
	depgraph_path_free(&p);

	/* step 2: the exposed all-gather */
	cr_assert_eq(depgraph_path(&g, 0, 1, &p), 0);
	sum = 0;
	for (int k = 0; k < DG_PARTS; k++)
		sum += p.part_ns[k];
	cr_assert_eq(sum, 2240000);
	cr_assert_eq(p.part_ns[DG_COMM], 2000000);
	cr_assert_eq(p.part_ns[DG_COMPUTE], 200000);
	for (int k = 0; k < DG_PARTS; k++)
		if (k != DG_COMM)
			cr_assert_lt(p.part_ns[k], p.part_ns[DG_COMM], "%s",
			    depgraph_part_name((enum dg_part)k));
	depgraph_path_free(&p);
	depgraph_free(&g);
	analysis_free(&a);
	trace_free(&t);
}

Test(depgraph, scenarios_predict_by_hand)
{
	struct trace t;
	struct analysis a;
	struct depgraph g;

	two_steps(&t, &a);
	depgraph_build(&g, &a, 1, NULL);
	cr_assert_eq(predict(&g, "none", 0), 2710000);
	/* free communication: flash starts at its launch + 10 = 3025, ends
	   3225, the sync's tail 5, the step's end 10 later: 240 us */
	cr_assert_eq(predict(&g, "comm=inf", 1), 240000);
	/* twice as fast: the all-gather ends at 4020, flash 4025..4225 */
	cr_assert_eq(predict(&g, "comm=2", 1), 1240000);
	/* the GEMM twice as fast: the first sync ends 100 us earlier, and
	   everything the host does after it */
	cr_assert_eq(predict(&g, "kernels=GEMM:2", 0), 2610000);
	/* free: the GEMM ends at 20, but the sync not before 30 + 5 */
	cr_assert_eq(predict(&g, "kernels=gemm:inf", 0), 2520000);
	/* a regex that matches nothing changes nothing */
	cr_assert_eq(predict(&g, "kernels=^conv:3", 0), 2710000);
	/* no host wait: the add follows the first sync (225) instead of its
	   launch, 225..415; the second sync cannot end before its own start
	   plus its tail, 2505 + 5 = 2510, and the step ends 5 later */
	cr_assert_eq(predict(&g, "no-host-wait", 0), 2515000);
	/* one rank: no straggler to remove */
	cr_assert_eq(predict(&g, "no-straggler", 0), 2710000);
	depgraph_free(&g);
	analysis_free(&a);
	trace_free(&t);
}

/*
 * The waits Kineto's cuda_sync rows record, where the inference rule would
 * pick another activity.  Step [0, 400) us on the main thread: gemm_a on
 * stream 7 [20, 240) launched at 10, an all-reduce on stream 22 [25, 243)
 * launched at 15, a cudaEventRecord at 30 (correlation 100, on stream 7),
 * a cudaStreamWaitEvent at 40 (101) for stream 30, gemm_c on stream 30
 * [245, 385) launched at 50 (102), a second record at 55 (103, on stream
 * 30), gemm_d on stream 7 [242, 388) launched at 56, and a
 * cudaEventSynchronize [60, 390) (104) on the second record.  The rows
 * say gemm_c waited for gemm_a (the all-reduce ended later: the rule would
 * take it) and the sync for gemm_c (gemm_d ended later, inside the call).
 * A Context Sync row and an Event Sync on a record of nothing (-1) are
 * counted, not resolved.
 */
static void
recorded_waits(struct trace *t, struct analysis *a)
{
	struct analysis_opts o = j_opts();
	static const char *const rows[] = {
		"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaEventRecord\","
		" \"pid\": 100, \"tid\": 1, \"ts\": 30, \"dur\": 1, \"args\": {\"correlation\": 100}}",
		"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaStreamWaitEvent\","
		" \"pid\": 100, \"tid\": 1, \"ts\": 40, \"dur\": 1, \"args\": {\"correlation\": 101}}",
		"{\"ph\": \"X\", \"cat\": \"cuda_sync\", \"name\": \"Stream Wait Event\","
		" \"pid\": 0, \"tid\": 30, \"ts\": 41, \"dur\": 1, \"args\": {\"cuda_sync_kind\":"
		" \"Stream Wait Event\", \"wait_on_stream\": 7, \"wait_on_cuda_event_record_corr_id\":"
		" 100, \"stream\": 30, \"correlation\": 101, \"device\": 0}}",
		"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\","
		" \"pid\": 100, \"tid\": 1, \"ts\": 50, \"dur\": 1, \"args\": {\"correlation\": 102}}",
		"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm_c\", \"pid\": 0,"
		" \"tid\": 30, \"ts\": 245, \"dur\": 140, \"args\": {\"device\": 0,"
		" \"stream\": 30, \"correlation\": 102}}",
		"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaEventRecord\","
		" \"pid\": 100, \"tid\": 1, \"ts\": 55, \"dur\": 1, \"args\": {\"correlation\": 103}}",
		"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaEventSynchronize\","
		" \"pid\": 100, \"tid\": 1, \"ts\": 60, \"dur\": 330, \"args\": {\"correlation\": 104}}",
		"{\"ph\": \"X\", \"cat\": \"cuda_sync\", \"name\": \"Event Sync\","
		" \"pid\": 0, \"tid\": -1, \"ts\": 62, \"dur\": 323, \"args\": {\"cuda_sync_kind\":"
		" \"Event Sync\", \"wait_on_stream\": 30, \"wait_on_cuda_event_record_corr_id\": 103,"
		" \"stream\": -1, \"correlation\": 104, \"device\": 0}}",
		"{\"ph\": \"X\", \"cat\": \"cuda_sync\", \"name\": \"Event Sync\","
		" \"pid\": 0, \"tid\": -1, \"ts\": 391, \"dur\": 1, \"args\": {\"cuda_sync_kind\":"
		" \"Event Sync\", \"wait_on_stream\": -1, \"wait_on_cuda_event_record_corr_id\": -1,"
		" \"stream\": -1, \"correlation\": 105, \"device\": 0}}",
		"{\"ph\": \"X\", \"cat\": \"cuda_sync\", \"name\": \"Context Sync\","
		" \"pid\": 0, \"tid\": -1, \"ts\": 392, \"dur\": 1, \"args\": {\"cuda_sync_kind\":"
		" \"Context Sync\", \"stream\": -1, \"correlation\": 106, \"device\": 0}}",
	};

	j_begin();
	step(1, 0, 400);
	kernel(1, 10, "gemm_a", 20, 240);
	kernel(1, 15, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 25, 243);
	kernel(1, 56, "gemm_d", 242, 388);
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		j_sep();
		fputs(rows[i], jf);
	}
	j_load(t);
	analysis_build(a, t, 0, &o);
	cr_assert_eq(a->nsteps, 1);
}

Test(depgraph, cuda_sync_rows_are_the_waits)
{
	struct trace t;
	struct analysis a;
	struct depgraph g;
	struct cudasync cs;
	int64_t *rt;

	recorded_waits(&t, &a);
	cudasync_build(&cs, &a.dev);
	cr_assert_eq(cs.rows, 4);
	cr_assert_eq(cs.stream_wait_rows, 1);
	cr_assert_eq(cs.n, 2);
	cr_assert_eq(cs.unresolved, 2, "the context sync and the record of nothing");
	cudasync_free(&cs);
	depgraph_build(&g, &a, 1, NULL);
	cr_assert_eq(g.recorded, 2);
	cr_assert_eq(g.unexplained, 0);
	rt = xmalloc((2 * g.nnodes + 1) * sizeof *rt);
	depgraph_replay(&g, NULL, rt);
	for (size_t n = 0; n < g.nnodes; n++) {
		cr_assert_eq(rt[2 * n], g.nodes[n].start_ns, "node %zu start", n);
		cr_assert_eq(rt[2 * n + 1], g.nodes[n].end_ns, "node %zu end", n);
	}
	free(rt);
	/* the all-reduce holds nothing up: free, the step stays 400 (the rule
	   would have gemm_c start at its launch + 10 = 60) */
	cr_assert_eq(predict(&g, "comm=inf", 0), 400000);
	/* nor gemm_d: the sync waits for gemm_c (385 + 5, the step 10 later) */
	cr_assert_eq(predict(&g, "kernels=gemm_d:inf", 0), 400000);
	/* gemm_a twice as fast: [20, 130); gemm_c 135..275, the sync 280 (gemm_d,
	   132..278, is not what it waits for); the step 290 */
	cr_assert_eq(predict(&g, "kernels=gemm_a:2", 0), 290000);
	depgraph_free(&g);
	analysis_free(&a);
	trace_free(&t);
}

Test(depgraph, malformed_scenarios_are_refused)
{
	static const char *const bad[] = {
		"", "bogus", "comm", "comm=", "comm=0", "comm=-2", "comm=2x",
		"comm=nan", "kernels=gemm", "kernels=:2", "kernels=gemm:0",
		"kernels=(:2", "no-straggler=1", "none=1",
	};
	struct dg_whatif w;
	char err[128];

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		memset(&w, 0, sizeof w);
		err[0] = 0;
		cr_expect_eq(depgraph_whatif_parse(&w, bad[i], err, sizeof err), -1,
		    "\"%s\" accepted", bad[i]);
		cr_expect_neq(err[0], 0, "\"%s\": no reason", bad[i]);
		depgraph_whatif_free(&w);
	}
	cr_assert_eq(depgraph_whatif_parse(&w, "comm=inf", err, sizeof err), 0);
	cr_assert(isinf(w.factor));
	depgraph_whatif_free(&w);
	cr_assert_eq(depgraph_whatif_parse(&w, "kernels=sm90_.*gemm:1.5", err, sizeof err), 0);
	cr_assert_eq(w.kind, DG_KERNELS_X);
	cr_assert_float_eq(w.factor, 1.5, 1e-12);
	depgraph_whatif_free(&w);
}
