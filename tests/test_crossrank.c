/* Cross-rank matching of collectives, skew, stragglers and the step table. */
#include "config.h"

#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "analysis/crossrank.h"
#include "load/input.h"
#include "load/load.h"
#include "analysis/metrics.h"
#include "model/trace.h"

#define MAXR 4

/* A trace under construction: one JSON text. */
static char text[1 << 16];
static size_t text_len;
static int nevents;

/* Appends printf-style text to the trace under construction. */
static void
vadd(const char *fmt, va_list ap)
{
	int n = vsnprintf(text + text_len, sizeof text - text_len, fmt, ap);

	cr_assert(n >= 0 && (size_t)n < sizeof text - text_len, "test trace too long");
	text_len += (size_t)n;
}

static void __attribute__((format(printf, 1, 2)))
add(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vadd(fmt, ap);
	va_end(ap);
}

static void
begin_trace(int rank)
{
	text_len = 0;
	nevents = 0;
	add("{\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": %d, \"world_size\": 3},\n"
	    " \"traceEvents\": [\n", rank);
}

/* Appends one event of the traceEvents array, with its separator. */
static void __attribute__((format(printf, 1, 2)))
event(const char *fmt, ...)
{
	va_list ap;

	add(nevents++ ? ",\n  " : "  ");
	va_start(ap, fmt);
	vadd(fmt, ap);
	va_end(ap);
}

/* A ProfilerStep#n CPU span [ts, ts + dur) us. */
static void
step(int n, int64_t ts, int64_t dur)
{
	event("{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#%d\","
	    " \"pid\": 100, \"tid\": 100, \"ts\": %" PRId64 ", \"dur\": %" PRId64 "}", n, ts, dur);
}

/* A compute kernel, to be ignored by the matching. */
static void
gemm(int64_t ts)
{
	event("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"sm90_gemm\", \"pid\": 0, \"tid\": 7,"
	    " \"ts\": %" PRId64 ", \"dur\": 5, \"args\": {\"device\": 0, \"stream\": 7}}", ts);
}

/* An NCCL kernel at ts us carrying its own collective args (newer PyTorch). */
static void
nccl_args(int64_t ts, int64_t dur, const char *coll, const char *pg, int seq,
    int group_size)
{
	char seqs[32] = "";

	if (seq >= 0)
		snprintf(seqs, sizeof seqs, ", \"Seq\": %d", seq);
	event("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ncclDevKernel_Generic\", \"pid\": 0,"
	    " \"tid\": 22, \"ts\": %" PRId64 ", \"dur\": %" PRId64 ", \"args\": {\"device\": 0,"
	    " \"stream\": 22, \"Collective name\": \"%s\", \"Process Group Name\": \"%s\","
	    " \"Group size\": %d%s}}", ts, dur, coll, pg, group_size, seqs);
}

/*
 * An NCCL kernel without collective args, launched at ts - 20 us from inside
 * outer op (with misleading args) > record_param_comms (with the real ones,
 * no Seq).  corr: the correlation id.
 */
static void
nccl_rpc(int64_t ts, int corr, const char *coll, const char *pg)
{
	int64_t l = ts - 20;

	event("{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"c10d::outer_\", \"pid\": 100,"
	    " \"tid\": 100, \"ts\": %" PRId64 ", \"dur\": 15, \"args\": {\"Collective name\": \"outer\","
	    " \"Process Group Name\": \"9\"}}", l - 5);
	event("{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"record_param_comms\", \"pid\": 100,"
	    " \"tid\": 100, \"ts\": %" PRId64 ", \"dur\": 10, \"args\": {\"Collective name\": \"%s\","
	    " \"Process Group Name\": \"%s\", \"Group size\": 2}}", l - 3, coll, pg);
	event("{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 100,"
	    " \"tid\": 100, \"ts\": %" PRId64 ", \"dur\": 2, \"args\": {\"correlation\": %d}}", l, corr);
	event("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ncclDevKernel_Generic\", \"pid\": 0,"
	    " \"tid\": 22, \"ts\": %" PRId64 ", \"dur\": 8, \"args\": {\"device\": 0, \"stream\": 22,"
	    " \"correlation\": %d}}", ts, corr);
}

/* An NCCL kernel with no args and no launch: keyed by stream and kernel name. */
static void
nccl_bare(int64_t ts)
{
	event("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ncclKernel_AllReduce\", \"pid\": 0,"
	    " \"tid\": 7, \"ts\": %" PRId64 ", \"dur\": 4, \"args\": {\"device\": 0, \"stream\": 7}}", ts);
}

static struct trace traces[MAXR];
static struct analysis an[MAXR];
static int nranks;

/* Loads the trace under construction as the next rank and analyses device 0. */
static void
end_trace(void)
{
	char path[64];
	struct load_error err;
	struct analysis_opts opts;
	int fd;

	add("\n]}\n");
	strcpy(path, "/tmp/gantty-xr-XXXXXX");
	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, text, text_len), (ssize_t)text_len);
	close(fd);
	cr_assert_eq(load_trace(&traces[nranks], path, NULL, &err), 0, "load: %s", err.msg);
	unlink(path);
	input_assign_rank(&traces[nranks], (size_t)nranks);
	memset(&opts, 0, sizeof opts);
	opts.min_gap_ns = 10000;
	analysis_build(&an[nranks], &traces[nranks], 0, &opts);
	nranks++;
}

static void
free_all(struct crossrank *x)
{
	crossrank_free(x);
	for (int i = 0; i < nranks; i++) {
		analysis_free(&an[i]);
		trace_free(&traces[i]);
	}
	nranks = 0;
}

/* Returns the index of the matched collective (group, seq or occurrence, name). */
static long
find_coll(const struct crossrank *x, const char *group, int64_t seq,
    int64_t occ, const char *name)
{
	for (size_t c = 0; c < x->ncolls; c++) {
		const struct crossrank_coll *k = &x->colls[c];

		if (strcmp(crossrank_str(x, k->group), group) == 0 && k->seq == seq &&
		    (seq >= 0 || (k->occurrence == occ &&
		    strcmp(crossrank_str(x, k->name), name) == 0)))
			return (long)c;
	}
	return -1;
}

#define US INT64_C(1000)

Test(crossrank, seq_and_process_groups)
{
	struct crossrank x;
	long ag, rs, ar;

	/* rank 0: AG pg0 seq0 @100, AR pg1 seq0 @200, RS pg0 seq1 @300 */
	begin_trace(0);
	step(1, 50, 1000);
	gemm(60);
	nccl_args(100, 10, "_allgather_base", "0", 0, 2);
	nccl_args(200, 10, "allreduce", "1", 0, 2);
	nccl_args(300, 10, "_reduce_scatter_base", "0", 1, 2);
	end_trace();
	/* rank 1: other order of the groups */
	begin_trace(1);
	step(1, 50, 1000);
	nccl_args(130, 10, "_allgather_base", "0", 0, 2);
	nccl_args(250, 30, "allreduce", "1", 0, 2);
	nccl_args(290, 10, "_reduce_scatter_base", "0", 1, 2);
	gemm(400);
	end_trace();

	crossrank_build(&x, an, 2);
	cr_assert_eq(x.nparts, 2);
	cr_assert_eq(x.parts[1].rank, 1);
	cr_assert_eq(x.parts[1].device, 0);
	cr_assert_eq(x.parts[0].collectives, 3);
	cr_assert_eq(x.ncolls, 3);
	cr_assert_eq(x.unmatched, 0);
	cr_assert_eq(x.unmatched_keys, 0);
	ag = find_coll(&x, "0", 0, 0, NULL);
	rs = find_coll(&x, "0", 1, 0, NULL);
	ar = find_coll(&x, "1", 0, 0, NULL);
	cr_assert(ag >= 0 && rs >= 0 && ar >= 0);
	/* time order: AG, AR, RS by earliest start */
	cr_assert_eq(ag, 0);
	cr_assert_eq(ar, 1);
	cr_assert_eq(rs, 2);
	cr_assert_str_eq(crossrank_str(&x, x.colls[ar].name), "allreduce");
	cr_assert_eq(x.colls[ag].skew_ns, 30 * US);
	cr_assert_eq(x.colls[ag].last, 1);
	cr_assert_eq(x.colls[ag].first_start_ns, 100 * US);
	cr_assert_eq(crossrank_wait_ns(&x, ag, 0), 30 * US);
	cr_assert_eq(crossrank_wait_ns(&x, ag, 1), 0);
	cr_assert_eq(x.colls[rs].skew_ns, 10 * US);
	cr_assert_eq(x.colls[rs].last, 0);
	cr_assert_eq(x.colls[ar].skew_ns, 50 * US);
	cr_assert_eq(x.colls[ar].last, 1);
	cr_assert_eq(x.colls[ar].first_end_ns, 210 * US);
	cr_assert_eq(x.colls[ar].last_end_ns, 280 * US);
	cr_assert_eq(x.colls[ar].group_size, 2);
	cr_assert_eq(x.parts[0].last_count, 1);
	cr_assert_eq(x.parts[1].last_count, 2);
	cr_assert_eq(x.parts[0].lost_ns, 10 * US);
	cr_assert_eq(x.parts[1].lost_ns, 80 * US);
	cr_assert_eq(x.parts[0].wait_ns, 80 * US);
	cr_assert_eq(x.parts[1].wait_ns, 10 * US);
	cr_assert_eq(x.total_skew_ns, 90 * US);
	cr_assert_eq(x.straggler, 1);
	cr_assert_eq(x.ntop, 3);
	cr_assert_eq(x.top[0], (size_t)ar);
	cr_assert_eq(x.top[1], (size_t)ag);
	cr_assert_eq(x.top[2], (size_t)rs);
	cr_assert_eq(x.nsteps, 1);
	cr_assert_eq(x.steps[0].spread_ns, 0);
	cr_assert_eq(x.steps_incomplete, 0);
	free_all(&x);
}

Test(crossrank, occurrence_and_record_param_comms)
{
	struct crossrank x;
	long ag0, ag1, rs0, bare;

	begin_trace(0);
	nccl_rpc(100, 1, "_allgather_base", "0");
	nccl_rpc(250, 2, "_reduce_scatter_base", "0");
	nccl_rpc(400, 3, "_allgather_base", "0");
	nccl_bare(600);
	end_trace();
	begin_trace(1);
	nccl_rpc(110, 11, "_allgather_base", "0");
	nccl_rpc(260, 12, "_reduce_scatter_base", "0");
	nccl_rpc(390, 13, "_allgather_base", "0");
	nccl_bare(605);
	end_trace();

	crossrank_build(&x, an, 2);
	cr_assert_eq(x.unmatched, 0);
	cr_assert_eq(x.ncolls, 4);
	for (size_t c = 0; c < x.ncolls; c++)
		cr_assert_str_neq(crossrank_str(&x, x.colls[c].name), "outer");
	ag0 = find_coll(&x, "0", -1, 0, "_allgather_base");
	ag1 = find_coll(&x, "0", -1, 1, "_allgather_base");
	rs0 = find_coll(&x, "0", -1, 0, "_reduce_scatter_base");
	bare = find_coll(&x, "stream 7", -1, 0, "ncclKernel_AllReduce");
	cr_assert(ag0 >= 0 && ag1 >= 0 && rs0 >= 0 && bare >= 0);
	cr_assert_eq(x.colls[bare].by_stream, 1);
	cr_assert_eq(x.colls[ag0].by_stream, 0);
	cr_assert_eq(x.colls[ag0].last, 1);
	cr_assert_eq(x.colls[ag0].skew_ns, 10 * US);
	cr_assert_eq(x.colls[ag1].last, 0);
	cr_assert_eq(x.colls[ag1].first_start_ns, 390 * US);
	cr_assert_eq(x.colls[rs0].last, 1);
	cr_assert_eq(x.colls[bare].skew_ns, 5 * US);
	cr_assert_eq(x.colls[bare].last, 1);
	cr_assert_eq(x.colls[bare].group_size, -1);
	cr_assert_eq(x.colls[ag0].group_size, 2);
	cr_assert_eq(x.parts[1].last_count, 3);
	cr_assert_eq(x.parts[1].lost_ns, 25 * US);
	cr_assert_eq(x.parts[0].lost_ns, 10 * US);
	cr_assert_eq(x.straggler, 1);
	/* the kernels of the second all-gather on each rank */
	cr_assert_eq(x.start_ns[ag1 * 2 + 0], 400 * US);
	cr_assert_eq(x.start_ns[ag1 * 2 + 1], 390 * US);
	cr_assert_eq(x.end_ns[ag1 * 2 + 1], 398 * US);
	cr_assert_neq(x.event[ag1 * 2 + 1], EV_NONE);
	free_all(&x);
}

Test(crossrank, missing_collective_and_step)
{
	struct crossrank x;
	long s0, s2;

	begin_trace(0);
	step(1, 0, 1000);
	step(2, 1000, 1100);
	nccl_args(100, 10, "allreduce", "0", 0, 3);
	nccl_args(300, 10, "allreduce", "0", 1, 3);
	nccl_args(500, 10, "allreduce", "0", 2, 3);
	end_trace();
	begin_trace(1);
	step(1, 0, 1200);
	step(2, 1200, 800);
	nccl_args(120, 10, "allreduce", "0", 0, 3);
	nccl_args(310, 10, "allreduce", "0", 1, 3);
	nccl_args(490, 10, "allreduce", "0", 2, 3);
	end_trace();
	begin_trace(2);             /* no step 2, no Seq 1 */
	step(1, 0, 900);
	nccl_args(105, 10, "allreduce", "0", 0, 3);
	nccl_args(530, 10, "allreduce", "0", 2, 3);
	end_trace();

	crossrank_build(&x, an, 3);
	cr_assert_eq(x.ncolls, 2);
	cr_assert_eq(x.unmatched_keys, 1);
	cr_assert_eq(x.unmatched, 2);
	cr_assert_eq(x.parts[0].unmatched, 1);
	cr_assert_eq(x.parts[1].unmatched, 1);
	cr_assert_eq(x.parts[2].unmatched, 0);
	cr_assert_eq(x.nmiss, 1);
	cr_assert_eq(x.miss[0].seq, 1);
	cr_assert_eq(x.miss[0].members, 2);
	cr_assert_eq(x.miss[0].first_start_ns, 300 * US);

	s0 = find_coll(&x, "0", 0, 0, NULL);
	s2 = find_coll(&x, "0", 2, 0, NULL);
	cr_assert(s0 >= 0 && s2 >= 0);
	cr_assert_eq(x.colls[s0].skew_ns, 20 * US);
	cr_assert_eq(x.colls[s0].last, 1);
	cr_assert_eq(crossrank_wait_ns(&x, s0, 0), 20 * US);
	cr_assert_eq(crossrank_wait_ns(&x, s0, 2), 15 * US);
	cr_assert_eq(x.colls[s2].skew_ns, 40 * US);
	cr_assert_eq(x.colls[s2].last, 2);
	cr_assert_eq(crossrank_wait_ns(&x, s2, 0), 30 * US);
	cr_assert_eq(crossrank_wait_ns(&x, s2, 1), 40 * US);
	cr_assert_eq(x.parts[1].lost_ns, 35 * US);
	cr_assert_eq(x.parts[2].lost_ns, 70 * US);
	cr_assert_eq(x.parts[0].wait_ns, 50 * US);
	/* one "last" each for ranks 1 and 2: rank 2 made the others lose more */
	cr_assert_eq(x.straggler, 2);

	cr_assert_eq(x.nsteps, 2);
	cr_assert_eq(x.steps_incomplete, 1);
	cr_assert_eq(x.steps[0].number, 1);
	cr_assert_eq(x.steps[0].present, 3);
	cr_assert_eq(x.steps[0].slowest, 1);
	cr_assert_eq(x.steps[0].spread_ns, 300 * US);
	cr_assert_eq(crossrank_step_ns(&x, 0, 2), 900 * US);
	cr_assert_eq(x.steps[1].number, 2);
	cr_assert_eq(x.steps[1].present, 2);
	cr_assert_eq(x.steps[1].slowest, 0);
	cr_assert_eq(x.steps[1].max_ns, 1100 * US);
	cr_assert_eq(x.steps[1].min_ns, 800 * US);
	cr_assert_eq(x.steps[1].spread_ns, 300 * US);
	cr_assert_eq(crossrank_step_ns(&x, 1, 2), -1);
	free_all(&x);
}

Test(crossrank, empty)
{
	struct crossrank x;

	crossrank_build(&x, NULL, 0);
	cr_assert_eq(x.ncolls, 0);
	cr_assert_eq(x.nsteps, 0);
	cr_assert_eq(x.straggler, -1);
	crossrank_free(&x);
	crossrank_free(&x);
}

/* The generator's ranks: its straggler is found, every collective matches. */
Test(crossrank, generated)
{
	const char *gen = getenv("GEN_TRACE");
	char dir[64], cmd[512], path[128], *man;
	struct trace gt[4];
	struct analysis ga[4];
	struct analysis_opts opts;
	struct crossrank x;
	FILE *f;
	long len;
	const char *sr;
	int straggler;

	if (gen == NULL || *gen == '\0')
		cr_skip_test("GEN_TRACE is not set");
	strcpy(dir, "/tmp/gantty-xr-gen-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(cmd, sizeof cmd, "'%s' --ranks=4 --seed=3 --manifest=%s/m.json --out=%s",
	    gen, dir, dir);
	cr_assert_eq(system(cmd), 0, "%s failed", cmd);

	snprintf(path, sizeof path, "%s/m.json", dir);
	f = fopen(path, "r");
	cr_assert_not_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	man = calloc(1, (size_t)len + 1);
	cr_assert_eq(fread(man, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	unlink(path);
	sr = strstr(man, "\"straggler_rank\":");
	cr_assert_not_null(sr);
	straggler = atoi(sr + strlen("\"straggler_rank\":"));
	free(man);

	memset(&opts, 0, sizeof opts);
	opts.min_gap_ns = 10000;
	for (int r = 0; r < 4; r++) {
		struct load_error err;
		int32_t *devs;

		snprintf(path, sizeof path, "%s/rank-%d.json", dir, r);
		cr_assert_eq(load_trace(&gt[r], path, NULL, &err), 0, "load: %s", err.msg);
		unlink(path);
		input_assign_rank(&gt[r], (size_t)r);
		cr_assert_eq(gt[r].rank, r);
		cr_assert_geq(metrics_devices(&gt[r], &devs), 1);
		analysis_build(&ga[r], &gt[r], devs[0], &opts);
		free(devs);
	}
	rmdir(dir);

	crossrank_build(&x, ga, 4);
	cr_assert_gt(x.ncolls, 0);
	cr_assert_eq(x.unmatched, 0);
	cr_assert_eq(x.unmatched_keys, 0);
	for (int p = 0; p < 4; p++)
		cr_assert_eq(x.parts[p].collectives, x.ncolls);
	cr_assert_geq(x.straggler, 0);
	cr_assert_eq(x.parts[x.straggler].rank, straggler);
	for (size_t c = 0; c < x.ncolls; c++) {
		cr_assert_geq(x.colls[c].seq, 0);
		cr_assert_eq(x.colls[c].first_end_ns, x.colls[c].last_end_ns,
		    "collective %zu (seq %" PRId64 ") ends apart", c, x.colls[c].seq);
		for (int p = 0; p < 4; p++)
			cr_assert_eq(x.end_ns[c * 4 + p], x.colls[c].last_end_ns);
	}
	cr_assert_gt(x.ntop, 0);
	cr_assert_geq(x.colls[x.top[0]].skew_ns, x.colls[x.top[x.ntop - 1]].skew_ns);
	cr_assert_eq(x.nsteps, ga[0].nsteps);
	cr_assert_gt(x.nsteps, 0);
	cr_assert_eq(x.steps_incomplete, 0);

	crossrank_free(&x);
	for (int r = 0; r < 4; r++) {
		analysis_free(&ga[r]);
		trace_free(&gt[r]);
	}
}

/*
 * busbw from the last arrival at epoch-scale timestamps (microseconds since
 * 1970, as real traces have them: about 1.7e18 ns): the duration is taken
 * in int64 before it becomes a double, else each end and start is rounded
 * to 256 ns and a 10.15 us transfer reads 10.24 or 9.984 us.
 */
Test(crossrank, busbw_exact_at_epoch_timestamps)
{
	static const char *const at[2] = { "1700000000000100.000", "1700000000000103.250" };
	const int64_t t0 = INT64_C(1700000000000000) * US;
	const int64_t nelems = INT64_C(64) << 20;       /* 256 MiB of float */
	struct crossrank x;
	double want;

	for (int r = 0; r < 2; r++) {
		begin_trace(r);
		event("{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#1\","
		    " \"pid\": 100, \"tid\": 100, \"ts\": 1700000000000050, \"dur\": 1000}");
		/* both end at t0 + 113.400 us: the transfer after the last arrival is 10.15 us */
		event("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ncclDevKernel_Generic\", \"pid\": 0,"
		    " \"tid\": 22, \"ts\": %s, \"dur\": %s, \"args\": {\"device\": 0,"
		    " \"stream\": 22, \"Collective name\": \"allreduce\", \"Process Group Name\": \"0\","
		    " \"Group size\": 2, \"Seq\": 0, \"In msg nelems\": %" PRId64 ","
		    " \"Out msg nelems\": %" PRId64 ", \"dtype\": \"Float\"}}",
		    at[r], r == 0 ? "13.400" : "10.150", nelems, nelems);
		end_trace();
	}
	crossrank_build(&x, an, 2);
	cr_assert_eq(x.ncolls, 1);
	cr_assert_eq(x.colls[0].last_start_ns, t0 + 103250);
	/* all-reduce over 2: busbw = algbw * 2 (n - 1) / n = bytes / time */
	want = (double)(nelems * 4) / 10150.0;
	for (int p = 0; p < 2; p++)
		cr_assert_float_eq(x.parts[p].busbw_gbps, want, want * 1e-12,
		    "rank %d: busbw %.6f, want %.6f", p, x.parts[p].busbw_gbps, want);
	free_all(&x);
}
