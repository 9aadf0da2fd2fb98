/*
 * Tests of comm: the name rules one by one (with kernel names as their
 * libraries write them, and compute kernels that must stay compute), the
 * user's pattern, and the launch-context rule and collective args against
 * an oracle that knows, from writing the trace, which spans enclose each
 * launch call.
 */
#include <criterion/criterion.h>
#include <regex.h>
#include <stdio.h>
#include <string.h>

#include "model/comm.h"
#include "model/trace.h"
#include "base/strtab.h"
#include "jtrace.h"
#include "testrng.h"

static const struct {
	const char *name;
	enum comm_rule rule;
} names[] = {
	{ "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)", COMM_RULE_NCCL },
	{ "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)", COMM_RULE_NCCL },
	{ "ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)", COMM_RULE_NCCL },
	{ "ncclSymkDevKernel_AllReduce_RSxLDMC_AGxSTMC_sum_bf16", COMM_RULE_NCCL },
	{ "void allreduce8<__nv_bfloat16>(__nv_bfloat16*, mscclpp::DeviceHandle<mscclpp::MemoryChannel>*, unsigned long)", COMM_RULE_MSCCLPP },
	{ "void mscclKernel_Sum_bf16_LL(int, int, mscclAlgo*, mscclWork*)", COMM_RULE_RCCL },
	{ "rccl_kernel_AllReduce", COMM_RULE_RCCL },
	{ "void deep_ep::intranode::dispatch<8, 768, 8192>(int4*, float*, int*)", COMM_RULE_DEEPEP },
	{ "void deep_ep::internode_ll::combine<false, 7168>(void*, int*)", COMM_RULE_DEEPEP },
	{ "void dpsk::ep::internode::dispatch<false, 8, true, 8>(int4*)", COMM_RULE_DEEPEP },
	{ "void (anonymous namespace)::multimem_all_reduce_kernel<c10::BFloat16, 16>(c10::BFloat16*, unsigned long)", COMM_RULE_SYMM_MEM },
	{ "void (anonymous namespace)::two_shot_all_reduce_kernel_inplace<c10::BFloat16, 16, 2>(c10::BFloat16**)", COMM_RULE_SYMM_MEM },
	{ "void (anonymous namespace)::one_shot_all_reduce_kernel<float, 16, 8>(float**)", COMM_RULE_SYMM_MEM },
	{ "void c10d::symmetric_memory::barrier_kernel(unsigned int**, int, int, int)", COMM_RULE_SYMM_MEM },
	{ "void vllm::cross_device_reduce_1stage<__nv_bfloat16, 8>(vllm::RankData*)", COMM_RULE_CUSTOM_AR },
	{ "void tensorrt_llm::kernels::oneShotAllReduceKernel<__nv_bfloat16, 8, true>(tensorrt_llm::kernels::AllReduceParams)", COMM_RULE_CUSTOM_AR },
	{ "void flashinfer::trtllm_allreduce_fusion::allreduce_fusion_kernel_oneshot_lamport<(flashinfer::trtllm_allreduce_fusion::AllReduceFusionPattern)1, __nv_bfloat16, 8, false, false>()", COMM_RULE_CUSTOM_AR },
	{ "quickreduce::allreduce_prototype_twoshot<AllReduceTwoshot<__half, CodecQ4<__half,4>, true>, __half>", COMM_RULE_CUSTOM_AR },
	{ "barrier_on_stream_kernel_warp(int, int, int, int*)", COMM_RULE_NVSHMEM },
	{ "void fcollect_on_stream_kernel<int>(int, int*, int const*)", COMM_RULE_NVSHMEM },
	{ "nvshmemi_transfer_rma_kernel", COMM_RULE_NVSHMEM },
	{ "hcom_allReduce__428_0_1", COMM_RULE_HCCL },
	{ "HcclAllGatherKernel", COMM_RULE_HCCL },
	/* compute, whatever words they share with collectives */
	{ "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4> >(at::native::ReduceOp<float>)", COMM_RULE_NONE },
	{ "void cub::DeviceReduceKernel<cub::DeviceReducePolicy<float, int>::Policy600, float*, float*, int, cub::Sum>(float*, float*, int, cub::GridEvenShare<int>, cub::Sum)", COMM_RULE_NONE },
	{ "void at_cuda_detail::cdpsk::ep::DeviceScanKernel<int*>(int*)", COMM_RULE_NONE },
	{ "void dpsk::gemm::fp8_gemm_kernel<128, 128>(float*)", COMM_RULE_NONE },
	{ "moe_align_block_size_kernel", COMM_RULE_NONE },
	{ "void vllm::moe::dispatch_kernel<float>(float*)", COMM_RULE_NONE },
	{ "triton_per_fused_all_reduce_sum_0", COMM_RULE_NONE },
	{ "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64", COMM_RULE_NONE },
	{ "myhcom_copy_kernel", COMM_RULE_NONE },
};

Test(comm, name_rules)
{
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		cr_expect_eq(comm_name_rule(names[i].name), names[i].rule,
		    "%s: rule %s, want %s", names[i].name,
		    comm_rule_key(comm_name_rule(names[i].name)),
		    comm_rule_key(names[i].rule));
}

/* The kernel with correlation corr. */
static const struct event *
by_corr(const struct trace *t, int corr)
{
	for (size_t i = 0; i < t->nevents; i++) {
		const struct event *e = &t->events[i];
		struct event_args a_buf;
		const struct event_args *a = trace_args(t, e, &a_buf);

		if (event_is_activity(e) && a != NULL && a->correlation == corr)
			return e;
	}
	cr_assert_fail("no kernel with correlation %d", corr);
	return NULL;
}

/* A CPU op with collective args ("Collective name" coll) on tid 1. */
static void
comm_op(const char *name, const char *coll, long long ts, long long dur)
{
	j_sep();
	fprintf(jf, "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"%s\", \"pid\": 100,"
	    " \"tid\": 1, \"ts\": %lld, \"dur\": %lld, \"args\": {\"Collective name\": \"%s\","
	    " \"In msg nelems\": 1024, \"Out msg nelems\": 1024, \"Group size\": 2,"
	    " \"dtype\": \"Float\", \"Process Group Name\": \"0\"}}", name, ts, dur, coll);
}

/*
 * The pattern adds names; every class is recomputed on each run, so the
 * pattern's kernels are compute again without it, and the counts follow.
 */
Test(comm, pattern_and_rerun)
{
	struct trace t;
	regex_t re;

	j_begin();
	kernel(1, 10, "my_allgather_kernel", 20, 30);
	kernel(1, 40, "my_allgather_kernel", 50, 60);
	kernel(1, 70, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 80, 90);
	kernel(1, 100, "gemm_kernel", 110, 120);
	j_load(&t);
	cr_assert_eq(t.comm_rules[COMM_RULE_NCCL], 1);
	cr_assert_eq(t.comm_rules[COMM_RULE_PATTERN], 0);
	cr_assert_eq(by_corr(&t, 1)->cls, CLASS_COMPUTE);
	cr_assert_eq(regcomp(&re, "^my_", REG_EXTENDED | REG_NOSUB), 0);
	comm_classify(&t, &re);
	cr_assert_eq(t.comm_rules[COMM_RULE_PATTERN], 2);
	cr_assert_eq(t.comm_rules[COMM_RULE_NCCL], 1);
	cr_assert_eq(by_corr(&t, 1)->cls, CLASS_COMM);
	cr_assert_eq(by_corr(&t, 2)->cls, CLASS_COMM);
	cr_assert_eq(by_corr(&t, 4)->cls, CLASS_COMPUTE);
	comm_classify(&t, NULL);
	cr_assert_eq(t.comm_rules[COMM_RULE_PATTERN], 0);
	cr_assert_eq(by_corr(&t, 1)->cls, CLASS_COMPUTE);
	cr_assert_eq(by_corr(&t, 3)->cls, CLASS_COMM);
	regfree(&re);
	trace_free(&t);
}

/*
 * A kernel of no known library launched inside record_param_comms,
 * c10d::* or nccl:* is COMM by its launch; the same kernel launched
 * elsewhere is compute.  A collective kernel without args takes those of
 * the innermost record_param_comms around its launch.
 */
Test(comm, launch_context)
{
	struct trace t;
	const struct event *e;
	const struct event_args *a;

	j_begin();
	comm_op("record_param_comms", "allreduce", 0, 100);
	kernel(1, 10, "gloo_like_kernel", 200, 210);
	cpu("cpu_op", "c10d::allgather_", 1, 300, 100);
	kernel(1, 310, "gloo_like_kernel", 500, 510);
	ann("nccl:all_reduce", 1, 600, 700);
	kernel(1, 610, "gloo_like_kernel", 800, 810);
	kernel(1, 900, "gloo_like_kernel", 1000, 1010);
	cpu("cpu_op", "aten::add", 1, 1100, 100);
	kernel(1, 1110, "ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)", 1200, 1210);
	comm_op("record_param_comms", "_allgather_base", 1300, 100);
	kernel(1, 1310, "ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)", 1400, 1410);
	j_load(&t);
	cr_assert_eq(by_corr(&t, 1)->cls, CLASS_COMM);
	cr_assert_eq(by_corr(&t, 2)->cls, CLASS_COMM);
	cr_assert_eq(by_corr(&t, 3)->cls, CLASS_COMM);
	cr_assert_eq(by_corr(&t, 4)->cls, CLASS_COMPUTE);
	cr_assert_eq(t.comm_rules[COMM_RULE_CONTEXT], 3);
	cr_assert_eq(t.comm_rules[COMM_RULE_NCCL], 2);
	e = by_corr(&t, 1);
	a = trace_args(&t, e, &(struct event_args){0});
	cr_assert_neq(a->comm, EV_NONE);
	cr_assert_str_eq(trace_str(&t, t.comms[a->comm].collective), "allreduce");
	cr_assert_eq(t.comms[a->comm].in_nelems, 1024);
	cr_assert_eq(trace_args(&t, by_corr(&t, 5), &(struct event_args){0})->comm, EV_NONE);
	a = trace_args(&t, by_corr(&t, 6), &(struct event_args){0});
	cr_assert_neq(a->comm, EV_NONE);
	cr_assert_str_eq(trace_str(&t, t.comms[a->comm].collective), "_allgather_base");
	trace_free(&t);
}

/* ---- random nests against the oracle ---------------------------------- */

#define MAXK 400

static const char *const span_names[] = {
	"record_param_comms", "c10d::allreduce_", "nccl:all_gather",
	"aten::mm", "FSDP::all_gather", "## forward ##",
};
static const char *const kernel_names[] = {
	"gemm_kernel", "elementwise_kernel",
	"ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
	"void (anonymous namespace)::two_shot_all_reduce_kernel<float, 16, 2>()",
};

struct want {
	int cls;                /* enum event_class */
	enum comm_rule rule;
	char coll[32];          /* the collective name it should carry, "" none */
};

static struct want wants[MAXK];
static int nk;
static long long now;

struct frame {
	int ctx;
	const char *rpc_coll, *any_coll;  /* innermost, NULL none */
};

/* Spans and launches inside [now, end) at nesting f; recursion depth d. */
static void
nest(uint64_t *r, struct frame f, long long end, int d)
{
	while (now + 10 < end && nk < MAXK) {
		int64_t pick = rng_below(r, 4);

		if (pick == 0 || d > 5) {
			const char *kn = kernel_names[rng_below(r, 4)];
			struct want *w = &wants[nk];
			enum comm_rule rule = comm_name_rule(kn);

			if (rule == COMM_RULE_NONE && f.ctx)
				rule = COMM_RULE_CONTEXT;
			w->rule = rule;
			w->cls = rule != COMM_RULE_NONE ? CLASS_COMM : CLASS_COMPUTE;
			snprintf(w->coll, sizeof w->coll, "%s",
			    rule == COMM_RULE_NONE ? "" : f.rpc_coll != NULL ?
			    f.rpc_coll : f.any_coll != NULL ? f.any_coll : "");
			/* its kernel runs on the GPU later, one after another */
			kernel(1, now, kn, 1000000 + nk * 100, 1000000 + nk * 100 + 50);
			nk++;
			now += 2;
		} else {
			const char *sn = span_names[rng_below(r, 6)];
			long long len = 10 + (long long)rng_below(r, 200);
			long long e = now + len < end - 1 ? now + len : end - 1;
			struct frame in = f;
			int with_args = (int)rng_below(r, 2);
			char coll[32];

			snprintf(coll, sizeof coll, "coll%d", nk);
			if (with_args)
				comm_op(sn, coll, now, e - now);
			else
				cpu("cpu_op", sn, 1, now, e - now);
			in.ctx = f.ctx || strcmp(sn, "record_param_comms") == 0 ||
			    strncmp(sn, "c10d::", 6) == 0 || strncmp(sn, "nccl:", 5) == 0;
			if (with_args) {
				/* the oracle's strings live as long as the test */
				static char keep[4096][32];
				static int nkeep;
				char *s = keep[nkeep++ % 4096];

				snprintf(s, 32, "%s", coll);
				in.any_coll = s;
				if (strcmp(sn, "record_param_comms") == 0)
					in.rpc_coll = s;
			}
			now++;
			nest(r, in, e, d + 1);
			now = e + 1;
		}
	}
}

Test(comm, random_nests_match_the_oracle)
{
	for (unsigned seed = 1; seed <= 30; seed++) {
		uint64_t r;
		struct trace t;
		struct frame top = { 0, NULL, NULL };
		uint64_t counts[COMM_NRULES];

		r = 0x9E3779B97F4A7C15ULL * seed;
		nk = 0;
		now = 0;
		memset(counts, 0, sizeof counts);
		j_begin();
		nest(&r, top, 900000, 0);
		j_load(&t);
		for (int k = 0; k < nk; k++) {
			const struct event *e = by_corr(&t, k + 1);
			struct event_args a_buf;
			const struct event_args *a = trace_args(&t, e, &a_buf);
			const char *got = a->comm != EV_NONE ?
			    trace_str(&t, t.comms[a->comm].collective) : "";

			cr_assert_eq(e->cls, wants[k].cls, "seed %u kernel %d: class", seed, k);
			cr_assert_str_eq(got, wants[k].coll, "seed %u kernel %d: collective", seed, k);
			counts[wants[k].rule]++;
		}
		for (int q = COMM_RULE_NONE + 1; q < COMM_NRULES; q++)
			cr_assert_eq(t.comm_rules[q], counts[q], "seed %u rule %s", seed,
			    comm_rule_key((enum comm_rule)q));
		trace_free(&t);
	}
}
