/*
 * comm — which kernels are communication and which collective each one
 * runs (comm.h).
 *
 * One pass over every CPU track finds, for each launch call, whether a
 * communication span encloses it and the collective args of the ops that
 * do; one pass over the kernels then applies the rules in order.  The
 * ancestors of an event are found with a stack by nesting depth (track.h
 * gives depths): the latest event at depth d - 1 is the parent of an event
 * at depth d when it holds its start.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/pattern.h"
#include "base/match.h"
#include "base/pattern.h"
#include "base/strtab.h"
#include "base/xalloc.h"
#include "model/comm.h"
#include "model/trace.h"

/*
 * The name rules: a kernel whose name holds the needle (any case; with
 * word set, not right after a letter, digit or '_') is the rule's.  Kineto
 * names a kernel by its whole demangled signature, so a namespace that only
 * shows in the argument types matches too.  Needles are specific enough
 * that no compute kernel holds one: "reduce", "dispatch" or "combine" alone
 * would take at::native::reduce_kernel and MoE routing kernels, so the
 * needles name their library's kernels whole.
 */
static const struct {
	enum comm_rule rule;
	int word;
	const char *needle;
} COMM_NAME_RULES[] = {
	/* NVIDIA NCCL (NVIDIA/nccl src/device/generate.py):
	   ncclKernel_<Coll>_<Algo>_<Proto>_<Op>_<Type> (up to 2.18),
	   ncclDevKernel_<Coll>..., ncclDevKernel_Generic (2.19+),
	   ncclSymkDevKernel_* (2.27+); forks' nccl_ep:: */
	{ COMM_RULE_NCCL, 0, "nccl" },
	/* MSCCL++ (microsoft/mscclpp apps/nccl/src/allreduce.hpp): global
	   kernels (allreduce7, allreduceAllPairs, executionKernel) whose
	   arguments are mscclpp::DeviceHandle<...> */
	{ COMM_RULE_MSCCLPP, 0, "mscclpp" },
	/* AMD RCCL (ROCm/rccl): its kernels keep NCCL's names; its MSCCL path
	   runs mscclKernel_* (src/device/msccl_kernel_impl.h) */
	{ COMM_RULE_RCCL, 0, "rccl" },
	{ COMM_RULE_RCCL, 1, "msccl" },
	/* DeepEP (deepseek-ai/DeepEP csrc/kernels/intranode.cu, internode.cu,
	   internode_ll.cu): deep_ep::intranode::dispatch<...>,
	   deep_ep::internode::combine<...>, deep_ep::internode_ll::dispatch,
	   deep_ep::layout::get_dispatch_layout; DeepSeek's own build
	   (deepseek-ai/profile-data traces) names it dpsk::ep::, and its CUB
	   scans at_cuda_detail::cdpsk::ep::DeviceScanKernel are compute: word */
	{ COMM_RULE_DEEPEP, 1, "deep_ep::" },
	{ COMM_RULE_DEEPEP, 1, "dpsk::ep::" },
	/* torch symmetric memory (pytorch torch/csrc/distributed/c10d/symm_mem/
	   CUDASymmetricMemoryOps.cu): (anonymous namespace)::
	   multimem_all_reduce_kernel, multimem_one_shot_all_reduce_kernel,
	   multimem_all_gather_kernel, one_shot_all_reduce_kernel,
	   two_shot_all_reduce_kernel[_inplace]; CUDASymmetricMemory.cu and
	   nvshmem_extension.cu: c10d::symmetric_memory::barrier_kernel,
	   put_signal_kernel..., c10d::nvshmem_extension::allToAllV */
	{ COMM_RULE_SYMM_MEM, 0, "multimem_all_reduce" },
	{ COMM_RULE_SYMM_MEM, 0, "multimem_one_shot_all_reduce" },
	{ COMM_RULE_SYMM_MEM, 0, "multimem_all_gather" },
	{ COMM_RULE_SYMM_MEM, 0, "one_shot_all_reduce" },
	{ COMM_RULE_SYMM_MEM, 0, "two_shot_all_reduce" },
	{ COMM_RULE_SYMM_MEM, 0, "c10d::symmetric_memory::" },
	{ COMM_RULE_SYMM_MEM, 0, "c10d::nvshmem_extension::" },
	/* custom all-reduce: vLLM (vllm-project/vllm csrc/custom_all_reduce.cuh)
	   vllm::cross_device_reduce_1stage / _2stage, also in SGLang and aiter;
	   ROCm quick reduce quickreduce::allreduce_prototype_twoshot;
	   TensorRT-LLM (cpp/tensorrt_llm/kernels/customAllReduceKernels.cu)
	   oneShotAllReduceKernel, twoShotAllReduceKernel, and its fusion
	   (communicationKernels/allReduceFusionKernels.cu, FlashInfer's port)
	   allreduce_fusion_kernel_oneshot_lamport / _twoshot_sync */
	{ COMM_RULE_CUSTOM_AR, 0, "cross_device_reduce" },
	{ COMM_RULE_CUSTOM_AR, 0, "quickreduce::" },
	{ COMM_RULE_CUSTOM_AR, 0, "oneshotallreducekernel" },
	{ COMM_RULE_CUSTOM_AR, 0, "twoshotallreducekernel" },
	{ COMM_RULE_CUSTOM_AR, 0, "allreduce_fusion_kernel" },
	/* NVSHMEM (NVIDIA/nvshmem src/include/internal/non_abi/
	   nvshmemi_h_to_d_coll_defs.cuh): its own kernels (nvshmemi_*) and the
	   host-initiated collectives barrier_on_stream_kernel,
	   alltoall_on_stream_kernel, fcollect_on_stream_kernel,
	   rdxn_on_stream_kernel, reducescatter_on_stream_kernel... */
	{ COMM_RULE_NVSHMEM, 0, "nvshmem" },
	{ COMM_RULE_NVSHMEM, 0, "_on_stream_kernel" },
	/* HCCL: Huawei Ascend (msprof / torch_npu traces) names its ops
	   hcom_allReduce_, hcom_allGather_, hcom_reduceScatter_... */
	{ COMM_RULE_HCCL, 0, "hccl" },
	{ COMM_RULE_HCCL, 1, "hcom_" },
	/* Intel oneCCL's SYCL kernels carry no name of their own: they are
	   found by the launch context (rule 3), like any torch.distributed
	   back end. */
};

const char *
comm_rule_key(enum comm_rule r)
{
	static const char *const keys[COMM_NRULES] = {
		[COMM_RULE_NONE] = "none",
#define X(id, key) [COMM_RULE_##id] = key,
		COMM_RULES(X)
#undef X
	};

	return (unsigned)r < COMM_NRULES ? keys[r] : "none";
}

enum comm_rule
comm_name_rule(const char *name)
{
	for (size_t i = 0; i < sizeof COMM_NAME_RULES / sizeof COMM_NAME_RULES[0]; i++) {
		if (match_word(name, COMM_NAME_RULES[i].needle,
		    COMM_NAME_RULES[i].word ? MATCH_LEFT : 0))
			return COMM_NAME_RULES[i].rule;
	}
	return COMM_RULE_NONE;
}

/* What a name is, cached per strtab id (0: not looked at yet). */
enum {
	NAME_SEEN    = 1 << 0,
	NAME_CTX     = 1 << 1,  /* a communication span (rule 3) */
	NAME_RULE_SHIFT = 2,    /* the rule that takes a kernel of the name */
};

struct classifier {
	struct trace *t;
	const regex_t *pattern;
	uint8_t *name;          /* per strtab id */
	uint32_t rpc;           /* id of "record_param_comms", or UINT32_MAX */
	/* per launch call: LAUNCH_* */
	uint8_t *launch;
	/* launch calls with enclosing collective args, ascending by event */
	uint32_t *inh_ev, *inh_comm;
	size_t ninh, inh_cap, inh_cap2;
};

enum {
	LAUNCH_IN_CTX = 1 << 0,
};

static uint8_t
name_info(struct classifier *c, uint32_t id)
{
	uint8_t v = c->name[id];
	const char *s;
	enum comm_rule r;

	if (v & NAME_SEEN)
		return v;
	s = trace_str(c->t, id);
	v = NAME_SEEN;
	if (strcmp(s, "record_param_comms") == 0 ||
	    strncmp(s, "c10d::", 6) == 0 || strncmp(s, "nccl:", 5) == 0)
		v |= NAME_CTX;
	r = comm_name_rule(s);
	if (r == COMM_RULE_NONE && c->pattern != NULL &&
	    pattern_exec(c->pattern, s, 0, NULL) == 0)
		r = COMM_RULE_PATTERN;
	v |= (uint8_t)(r << NAME_RULE_SHIFT);
	c->name[id] = v;
	return v;
}

/* The levels of the ancestor stack. */
struct level {
	uint32_t ev;            /* the latest event at this depth */
	uint32_t rpc;           /* innermost record_param_comms comm args, or EV_NONE */
	uint32_t any;           /* innermost comm args of any event, or EV_NONE */
	uint8_t ctx;            /* inside a communication span, this one included */
};

/* Marks the launch calls of CPU track tr (see the top of the file). */
static void
sweep_track(struct classifier *c, const struct track *tr, struct level *lv)
{
	struct trace *t = c->t;

	for (uint32_t i = tr->first; i < tr->first + tr->count; i++) {
		const struct event *e = &t->events[i];
		struct event_args a_buf;
		const struct event_args *a = trace_args(t, e, &a_buf);
		uint32_t d = e->depth, own = a != NULL ? a->comm : EV_NONE;
		struct level up = { EV_NONE, EV_NONE, EV_NONE, 0 }, *me = &lv[d];

		if (d > 0) {
			const struct event *p = &t->events[lv[d - 1].ev];

			if (lv[d - 1].ev != EV_NONE && p->ts_ns <= e->ts_ns &&
			    e->ts_ns < event_end(p))
				up = lv[d - 1];
		}
		me->ev = i;
		me->ctx = up.ctx || (name_info(c, e->name) & NAME_CTX);
		/* an event holds its own start only when it lasts */
		me->rpc = e->dur_ns > 0 && own != EV_NONE && e->name == c->rpc ?
		    own : up.rpc;
		me->any = e->dur_ns > 0 && own != EV_NONE ? own : up.any;
		if (e->link == EV_NONE)
			continue;
		if (up.ctx)
			c->launch[i] |= LAUNCH_IN_CTX;
		if (me->rpc != EV_NONE || me->any != EV_NONE) {
			xgrow(&c->inh_ev, &c->inh_cap, c->ninh + 1, sizeof *c->inh_ev);
			xgrow(&c->inh_comm, &c->inh_cap2, c->ninh + 1,
			    sizeof *c->inh_comm);
			c->inh_ev[c->ninh] = i;
			c->inh_comm[c->ninh++] = me->rpc != EV_NONE ? me->rpc : me->any;
		}
	}
}

/* The collective args enclosing launch call l, or EV_NONE. */
static uint32_t
inherited(const struct classifier *c, uint32_t l)
{
	size_t lo = 0, hi = c->ninh;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->inh_ev[mid] < l)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->ninh && c->inh_ev[lo] == l ? c->inh_comm[lo] : EV_NONE;
}

void
comm_classify(struct trace *t, const regex_t *pattern)
{
	struct classifier c;
	struct level *lv = NULL;
	size_t maxrows = 0;

	memset(&c, 0, sizeof c);
	c.t = t;
	c.pattern = pattern;
	c.name = xcalloc(t->strs.count ? t->strs.count : 1, 1);
	c.launch = xcalloc(t->nevents ? t->nevents : 1, 1);
	c.rpc = strtab_find(&t->strs, "record_param_comms",
	    strlen("record_param_comms"));
	for (size_t k = 0; k < t->ntracks; k++)
		if (t->tracks[k].kind == TRACK_CPU && t->tracks[k].rows > maxrows)
			maxrows = t->tracks[k].rows;
	lv = xcalloc(maxrows ? maxrows : 1, sizeof *lv);
	for (size_t k = 0; k < t->ntracks; k++) {
		const struct track *tr = &t->tracks[k];

		if (tr->kind != TRACK_CPU || tr->count == 0)
			continue;
		for (size_t d = 0; d < tr->rows; d++)
			lv[d].ev = EV_NONE;
		sweep_track(&c, tr, lv);
	}
	memset(t->comm_rules, 0, sizeof t->comm_rules);
	for (size_t i = 0; i < t->nevents; i++) {
		struct event *e = &t->events[i];
		enum comm_rule r;

		if (!event_is_activity(e) || t->cat_kinds[e->cat] != CAT_KERNEL)
			continue;
		r = (enum comm_rule)(name_info(&c, e->name) >> NAME_RULE_SHIFT);
		if (r == COMM_RULE_NONE && e->link != EV_NONE &&
		    (c.launch[e->link] & LAUNCH_IN_CTX))
			r = COMM_RULE_CONTEXT;
		e->cls = r != COMM_RULE_NONE ? CLASS_COMM : CLASS_COMPUTE;
		t->comm_rules[r]++;
		if (r != COMM_RULE_NONE && t->args[i].device != ARGS_NONE &&
		    e->link != EV_NONE) {
			struct event_args a;

			trace_args_at(t, (uint32_t)i, &a);
			if (a.comm == EV_NONE)
				trace_args_set_comm(t, (uint32_t)i,
				    inherited(&c, e->link));
		}
	}
	t->comm_rules[COMM_RULE_NONE] = 0;
	free(lv);
	free(c.name);
	free(c.launch);
	free(c.inh_ev);
	free(c.inh_comm);
}
