/*
 * gen-trace: deterministic synthetic PyTorch profiler (Kineto) traces of
 * FSDP2 (fully_shard) training, one JSON file per rank, plus a manifest of
 * the ground truth (step spans, injected problems, event counts).
 *
 * share/example.json.gz was produced by:
 *
 *     tools/gen-trace --ranks=2 --seed=1 --gzip --out=/tmp/gantty-example &&
 *     cp /tmp/gantty-example/rank-0.json.gz share/example.json.gz
 *
 * (tests/gen.sh checks that it still gunzips to rank 0 of that run.)
 *
 * The model is a small Llama-like transformer (hidden 4096, FFN 11008,
 * 4096 tokens per rank and step, vocabulary 32000) whose blocks are
 * fully_shard units "layers.0", "layers.1", ... on H100 GPUs.  Every rank is
 * simulated together, in lock step over the program order, so collectives
 * agree across ranks: an NCCL kernel starts on a rank when that rank has
 * launched it and its stream and dependencies allow, and ends on every rank
 * at the same time, the latest start plus the transfer time.  GPU kernels
 * start at max(launch + latency, stream free, dependencies).  The GPU-side
 * dependencies follow FSDP2: the copy-out of layer i waits for its
 * all-gather; the all-gather of layer i+1 waits for the copy-out of layer i
 * (so it overlaps layer i's compute); a reduce-scatter waits for the
 * gradients; the optimizer waits for the last reduce-scatter.  The CPU runs
 * ahead of the GPU and synchronises once per step (loss.item()).
 *
 * A step on the main thread: ProfilerStep#N > DataLoader, FSDP::root_pre_forward
 * (host-to-device copies), nn.Module: Transformer_0 > Embedding_0, then per
 * block nn.Module: TransformerBlock_i > FSDP::pre_forward (layers.i) >
 * {FSDP::all_gather > record_param_comms > nccl:_all_gather_base >
 * cudaLaunchKernel, FSDP::all_gather_copy_out}, the aten ops, and
 * FSDP::post_forward; head and loss.  Backward on the pt_autograd_0 thread:
 * per block FSDP::pre_backward (with FSDP::backward_prefetch for the next
 * block), gradient ops, FSDP::post_backward_reshard, post_backward_reduce
 * (reduce-scatter).  Then Optimizer.step#AdamW.step (_foreach ops) and
 * aten::item with cudaStreamSynchronize on the main thread.
 *
 * Injections (manifest keys), each sized from the nominal step so that only
 * the slow step is an outlier by SPEC 3's rule:
 *   slow_step          compute kernels of one step run 1.6x longer;
 *   straggler_rank     one rank computes 15% slower every step, so its
 *                      peers' NCCL kernels start early and wait;
 *   exposed_allgather  one forward all-gather is issued late and slow; the
 *                      compute stream idles on it (exposed_ns per rank is
 *                      |kernel \ compute kernels|, measured);
 *   stall              on one rank, a sync then ~6% of a step of host work
 *                      ("log_metrics"): the largest GPU idle gap of its
 *                      step (gap_*_ns, measured).  Peers wait for it at the
 *                      next all-gather, as they would.
 * Manifest times are absolute ns (trace ts x 1000); per_rank[] holds each
 * file's step spans (CPU and GPU extent) and event counts by phase and
 * category.
 *
 * Where this differs from Kineto, on purpose: ts are absolute epoch
 * microseconds (19 significant digits, to test exact parsing), while
 * current Kineto writes them relative to baseTimeNanoseconds, which it puts
 * before traceEvents; here baseTimeNanoseconds (the start, rounded down to
 * the second) comes after traceEvents and should be ignored.  cbid is
 * CUPTI's per call (cudaLaunchKernel 211, cudaMemcpyAsync 41,
 * cudaMemsetAsync 51, cudaStreamSynchronize 131).
 *
 * Time is int64 nanoseconds everywhere and is printed as microseconds with
 * exactly three decimals, never through a double.  Durations use integer
 * arithmetic only, so the output is the same on every platform.
 *
 * Memory: one step of events per rank is held at a time, then written, so
 * --target-mb=1000 runs in constant memory (plus 40 bytes a step for the
 * manifest's step list).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <zlib.h>

#define FIRST_STEP 10
#define US 1000LL		/* ns per microsecond */
#define MS 1000000LL		/* ns per millisecond */
#define PPM 1000000LL

/* Model: one rank's micro-batch is 1 x 4096 tokens. */
#define TOKENS 4096LL
#define HIDDEN 4096LL
#define FFN 11008LL
#define VOCAB 32000LL
#define HEADS 32LL
#define HEAD_DIM (HIDDEN / HEADS)

/* Machine: H100 SXM, achieved (not peak) rates. */
#define NUM_SMS 132
#define NUM_NODE_GPUS 8
#define GEMM_FLOP_PER_NS 650000LL	/* 650 TFLOP/s */
#define ATTN_FLOP_PER_NS 450000LL
#define ATTN_BWD_FLOP_PER_NS 380000LL
#define HBM_BYTES_PER_NS 2800LL		/* 2.8 TB/s */
#define NVLINK_BYTES_PER_NS 160LL	/* ring bus bandwidth in a node */
#define IB_BYTES_PER_NS 45LL		/* ring bus bandwidth across nodes */

#define COMPUTE_STREAM 7
#define NCCL_STREAM 22
#define MAX_DEPTH 64
#define NONE (-1)
#define NOARGS UINT32_MAX

static const char usage_text[] =
	"usage: gen-trace [--ranks=N] [--steps=N] [--layers=N] [--kernels=N]\n"
	"                 [--seed=S] [--gzip] [--target-mb=M] [--manifest=FILE]\n"
	"                 [--no-inject] [--slow-step=N|none] [--straggler=R|none]\n"
	"                 [--exposed-step=N|none] [--exposed-layer=I]\n"
	"                 [--stall-step=N|none] [--stall-rank=R]\n"
	"                 [--change=comm2|gemm1.5|no-host-wait] --out=DIR\n"
	"\n"
	"Writes DIR/rank-R.json (DIR/rank-R.json.gz with --gzip), one synthetic\n"
	"PyTorch profiler trace of FSDP2 training per rank.\n"
	"  --ranks=N         ranks (world size), default 2\n"
	"  --steps=N         profiler steps ProfilerStep#10..., default 8\n"
	"  --layers=N        fully_shard transformer blocks, default 4\n"
	"  --kernels=N       compute kernels per block forward (5..200), default 8\n"
	"  --seed=S          random seed, default 1\n"
	"  --target-mb=M     add steps until each rank file is about M MB\n"
	"                    (10^6 bytes of JSON before compression)\n"
	"  --manifest=FILE   write the ground truth as JSON\n"
	"  --no-inject       no slow step, straggler, exposed all-gather or stall\n"
	"  --slow-step=N     step whose compute runs 1.6x longer, default 15\n"
	"  --straggler=R     rank computing 15% slower, default the last rank\n"
	"  --exposed-step=N  step with a late, slow forward all-gather, default 12\n"
	"  --exposed-layer=I its layer, default 2 (or the last layer)\n"
	"  --stall-step=N    step with a host stall idling the GPU, default 13\n"
	"  --stall-rank=R    rank that stalls, default 0\n"
	"  --change=C        the same job (the same random numbers) with one change,\n"
	"                    the truth that --what-if predicts: comm2 (every\n"
	"                    collective's transfer twice as fast), gemm1.5 (GEMM\n"
	"                    kernels 1.5x faster), no-host-wait (once the CPU has\n"
	"                    synchronised, the GPU never waits for a launch)\n";

/* ---------------------------------------------------------------------- */
/* Random numbers: xoshiro256** seeded through splitmix64. */

struct rng {
	uint64_t s[4];
};

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void rng_seed(struct rng *g, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (stream * 0xd1b54a32d192ed03ULL);

	for (int i = 0; i < 4; i++)
		g->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t rng_next(struct rng *g)
{
	uint64_t *s = g->s;
	uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return r;
}

/* Returns a uniform integer in [lo, hi]. */
static int64_t rng_range(struct rng *g, int64_t lo, int64_t hi)
{
	return lo + (int64_t)(rng_next(g) % (uint64_t)(hi - lo + 1));
}

/* Returns v scaled by a uniform factor in [1 - ppm/1e6, 1 + ppm/1e6]. */
static int64_t jitter(struct rng *g, int64_t v, int64_t ppm)
{
	return v * (PPM + rng_range(g, -ppm, ppm)) / PPM;
}

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/* ---------------------------------------------------------------------- */
/* Categories and kernels. */

enum cat {
	C_CPU_OP, C_USER_ANN, C_PYFN, C_RUNTIME, C_KERNEL, C_MEMCPY,
	C_MEMSET, C_GPU_ANN, C_TRACE, NCAT
};

static const char *const cat_name[NCAT] = {
	"cpu_op", "user_annotation", "python_function", "cuda_runtime",
	"kernel", "gpu_memcpy", "gpu_memset", "gpu_user_annotation", "Trace",
};

enum stream { ST_COMP, ST_NCCL, NSTREAM };
static const int stream_id[NSTREAM] = { COMPUTE_STREAM, NCCL_STREAM };

enum thread { TH_MAIN, TH_BWD };

enum kid {
	K_GEMM_TN, K_GEMM_NN, K_GEMM_NT, K_LN, K_LN_BWD_IN, K_LN_BWD_GB,
	K_FLASH_FWD, K_FLASH_BWD_DOT, K_FLASH_BWD, K_FLASH_BWD_CVT, K_ADD,
	K_MUL, K_SILU, K_SILU_BWD, K_SPLIT_COPY, K_CHUNK_CAT, K_NCCL_AG,
	K_NCCL_RS, K_EMBED, K_EMBED_BWD, K_SOFTMAX, K_SOFTMAX_BWD, K_NLL,
	K_NLL_BWD, K_MTA_ADD, K_MTA_LERP, K_MTA_MUL, K_MTA_ADDCMUL,
	K_MTA_SQRT, K_MTA_DIV, K_MTA_ADDCDIV, K_H2D, K_D2H, K_MEMSET, NKID
};

struct kdef {
	const char *name;
	int cat;		/* C_KERNEL, C_MEMCPY or C_MEMSET */
	int regs, smem;
	int grid[3], block[3];
	int occ;		/* est. achieved occupancy % */
};

#define EW "void at::native::vectorized_elementwise_kernel<4, "
#define ANON "at::native::(anonymous namespace)::"
#define MTA "void " ANON "multi_tensor_apply_kernel<" ANON
#define FLASH_BWD_TRAITS "pytorch_flash::Flash_bwd_kernel_traits<128, 64, 128, " \
	"8, 2, 4, 2, false, false, cutlass::bfloat16_t, " \
	"pytorch_flash::Flash_kernel_traits<128, 64, 128, 8, cutlass::bfloat16_t> >"

static const struct kdef kdefs[NKID] = {
	[K_GEMM_TN] = { "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
		C_KERNEL, 168, 213120, { 132, 1, 1 }, { 384, 1, 1 }, 19 },
	[K_GEMM_NN] = { "sm90_xmma_gemm_bf16bf16_bf16f32_f32_nn_n_tilesize128x256x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas",
		C_KERNEL, 168, 221184, { 132, 1, 1 }, { 384, 1, 1 }, 19 },
	[K_GEMM_NT] = { "sm90_xmma_gemm_bf16bf16_bf16f32_f32_nt_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
		C_KERNEL, 168, 213120, { 132, 1, 1 }, { 384, 1, 1 }, 19 },
	[K_LN] = { "void " ANON "vectorized_layer_norm_kernel<c10::BFloat16, float>(int, float, c10::BFloat16 const*, c10::BFloat16 const*, c10::BFloat16 const*, float*, float*, c10::BFloat16*)",
		C_KERNEL, 40, 0, { 4096, 1, 1 }, { 32, 4, 1 }, 83 },
	[K_LN_BWD_IN] = { "void " ANON "layer_norm_grad_input_kernel<c10::BFloat16, float>(c10::BFloat16 const*, c10::BFloat16 const*, float const*, float const*, c10::BFloat16 const*, c10::BFloat16*, int)",
		C_KERNEL, 32, 0, { 4096, 1, 1 }, { 128, 1, 1 }, 88 },
	[K_LN_BWD_GB] = { "void " ANON "GammaBetaBackwardCUDAKernel_32x32<c10::BFloat16, float>(long, long, c10::BFloat16 const*, c10::BFloat16 const*, float const*, float const*, c10::BFloat16*, c10::BFloat16*)",
		C_KERNEL, 64, 8448, { 128, 1, 1 }, { 32, 32, 1 }, 48 },
	[K_FLASH_FWD] = { "void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::bfloat16_t, pytorch_flash::Flash_kernel_traits<128, 128, 64, 4, cutlass::bfloat16_t> >, false, true, false, false, false, true, false>(pytorch_flash::Flash_fwd_params)",
		C_KERNEL, 255, 49152, { 32, 1, 32 }, { 128, 1, 1 }, 6 },
	[K_FLASH_BWD_DOT] = { "void pytorch_flash::flash_bwd_dot_do_o_kernel<true, " FLASH_BWD_TRAITS ">(pytorch_flash::Flash_bwd_params)",
		C_KERNEL, 48, 0, { 64, 1, 32 }, { 256, 1, 1 }, 74 },
	[K_FLASH_BWD] = { "void pytorch_flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<" FLASH_BWD_TRAITS ", true, false, false, false, false, false>(pytorch_flash::Flash_bwd_params)",
		C_KERNEL, 255, 98304, { 64, 1, 32 }, { 256, 1, 1 }, 12 },
	[K_FLASH_BWD_CVT] = { "void pytorch_flash::flash_bwd_convert_dq_kernel<" FLASH_BWD_TRAITS ">(pytorch_flash::Flash_bwd_params, int)",
		C_KERNEL, 64, 16384, { 64, 1, 32 }, { 256, 1, 1 }, 46 },
	[K_ADD] = { EW "at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul>)",
		C_KERNEL, 26, 0, { 16384, 1, 1 }, { 128, 1, 1 }, 86 },
	[K_MUL] = { EW "at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> >, std::array<char*, 3ul> >(int, at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> >, std::array<char*, 3ul>)",
		C_KERNEL, 26, 0, { 16384, 1, 1 }, { 128, 1, 1 }, 85 },
	[K_SILU] = { EW ANON "silu_kernel(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul> >(int, " ANON "silu_kernel(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul>)",
		C_KERNEL, 24, 0, { 44032, 1, 1 }, { 128, 1, 1 }, 87 },
	[K_SILU_BWD] = { EW ANON "silu_backward_kernel(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(c10::BFloat16, c10::BFloat16)#1}, std::array<char*, 3ul> >(int, " ANON "silu_backward_kernel(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(c10::BFloat16, c10::BFloat16)#1}, std::array<char*, 3ul>)",
		C_KERNEL, 28, 0, { 44032, 1, 1 }, { 128, 1, 1 }, 84 },
	[K_SPLIT_COPY] = { "void " ANON "split_with_sizes_copy_out_contiguous_no_cast_kernel<unsigned char>(unsigned char**, unsigned char const*, long const*, long const*, long, long, long, long)",
		C_KERNEL, 32, 0, { 1056, 1, 1 }, { 128, 1, 1 }, 91 },
	[K_CHUNK_CAT] = { "void " ANON "chunk_cat_cuda_kernel<c10::BFloat16, c10::BFloat16>(c10::BFloat16**, c10::BFloat16*, long*, long*, long*, long, long, long, long)",
		C_KERNEL, 30, 0, { 1056, 1, 1 }, { 128, 1, 1 }, 90 },
	[K_NCCL_AG] = { "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
		C_KERNEL, 96, 0, { 16, 1, 1 }, { 512, 1, 1 }, 0 },
	[K_NCCL_RS] = { "ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
		C_KERNEL, 96, 0, { 16, 1, 1 }, { 512, 1, 1 }, 0 },
	[K_EMBED] = { "void " ANON "indexSelectLargeIndex<c10::BFloat16, long, unsigned int, 2, 2, -2, true>(at::cuda::detail::TensorInfo<c10::BFloat16, unsigned int>, at::cuda::detail::TensorInfo<c10::BFloat16 const, unsigned int>, at::cuda::detail::TensorInfo<long const, unsigned int>, int, int, unsigned int, unsigned int, long)",
		C_KERNEL, 30, 0, { 1056, 1, 1 }, { 128, 1, 1 }, 90 },
	[K_EMBED_BWD] = { "void " ANON "embedding_backward_feature_kernel<c10::BFloat16, float, long>(long const*, c10::BFloat16 const*, c10::BFloat16*, int, long, int)",
		C_KERNEL, 56, 4224, { 128, 1, 1 }, { 32, 32, 1 }, 49 },
	[K_SOFTMAX] = { "void " ANON "cunn_SoftMaxForward<8, c10::BFloat16, float, float, " ANON "LogSoftMaxForwardEpilogue>(float*, c10::BFloat16 const*, int)",
		C_KERNEL, 38, 0, { 4096, 1, 1 }, { 1024, 1, 1 }, 95 },
	[K_SOFTMAX_BWD] = { "void " ANON "cunn_SoftMaxBackward<8, float, float, c10::BFloat16, " ANON "LogSoftMaxBackwardEpilogue>(c10::BFloat16*, float const*, float const*, long)",
		C_KERNEL, 40, 0, { 4096, 1, 1 }, { 1024, 1, 1 }, 94 },
	[K_NLL] = { "void " ANON "nll_loss_forward_reduce_cuda_kernel_2d<float, float, long>(float*, float*, float const*, long const*, float const*, bool, long, long, long, long)",
		C_KERNEL, 32, 0, { 1, 1, 1 }, { 512, 1, 1 }, 1 },
	[K_NLL_BWD] = { "void " ANON "nll_loss_backward_reduce_cuda_kernel_2d<float, long>(float*, float const*, long const*, float const*, float const*, bool, int, int, long, long)",
		C_KERNEL, 24, 0, { 1, 1, 1 }, { 512, 1, 1 }, 1 },
	[K_MTA_ADD] = { MTA "TensorListMetadata<1>, " ANON "UnaryOpFunctor<float, 1, 1, 0>, " ANON "AddFunctor<float>, float>(" ANON "TensorListMetadata<1>, " ANON "UnaryOpFunctor<float, 1, 1, 0>, " ANON "AddFunctor<float>, float)",
		C_KERNEL, 32, 0, { 1, 1, 1 }, { 512, 1, 1 }, 1 },
	[K_MTA_LERP] = { MTA "TensorListMetadata<2>, " ANON "BinaryOpScalarFunctor<float, 2, 2, 0>, " ANON "LerpFunctor<float>, float>(" ANON "TensorListMetadata<2>, " ANON "BinaryOpScalarFunctor<float, 2, 2, 0>, " ANON "LerpFunctor<float>, float)",
		C_KERNEL, 40, 0, { 2640, 1, 1 }, { 512, 1, 1 }, 92 },
	[K_MTA_MUL] = { MTA "TensorListMetadata<1>, " ANON "BinaryOpScalarFunctor<float, 1, 1, 0>, std::multiplies<float>, float>(" ANON "TensorListMetadata<1>, " ANON "BinaryOpScalarFunctor<float, 1, 1, 0>, std::multiplies<float>, float)",
		C_KERNEL, 32, 0, { 2640, 1, 1 }, { 512, 1, 1 }, 93 },
	[K_MTA_ADDCMUL] = { MTA "TensorListMetadata<3>, " ANON "PointwiseOpScalarFunctor<float, 3, 3, 0>, std::multiplies<float>, float>(" ANON "TensorListMetadata<3>, " ANON "PointwiseOpScalarFunctor<float, 3, 3, 0>, std::multiplies<float>, float)",
		C_KERNEL, 40, 0, { 2640, 1, 1 }, { 512, 1, 1 }, 91 },
	[K_MTA_SQRT] = { MTA "TensorListMetadata<2>, " ANON "UnaryOpFunctor<float, 2, 1, 1>, " ANON "Sqrt<float> >(" ANON "TensorListMetadata<2>, " ANON "UnaryOpFunctor<float, 2, 1, 1>, " ANON "Sqrt<float>)",
		C_KERNEL, 30, 0, { 2640, 1, 1 }, { 512, 1, 1 }, 93 },
	[K_MTA_DIV] = { MTA "TensorListMetadata<1>, " ANON "BinaryOpScalarFunctor<float, 1, 1, 0>, std::divides<float>, float>(" ANON "TensorListMetadata<1>, " ANON "BinaryOpScalarFunctor<float, 1, 1, 0>, std::divides<float>, float)",
		C_KERNEL, 32, 0, { 2640, 1, 1 }, { 512, 1, 1 }, 93 },
	[K_MTA_ADDCDIV] = { MTA "TensorListScalarListMetadata<float, 3>, " ANON "PointwiseOpScalarListFunctor<float, 3, 3, 0>, std::divides<float> >(" ANON "TensorListScalarListMetadata<float, 3>, " ANON "PointwiseOpScalarListFunctor<float, 3, 3, 0>, std::divides<float>)",
		C_KERNEL, 40, 0, { 2640, 1, 1 }, { 512, 1, 1 }, 90 },
	[K_H2D] = { "Memcpy HtoD (Pinned -> Device)", C_MEMCPY, 0, 0, { 0 }, { 0 }, 0 },
	[K_D2H] = { "Memcpy DtoH (Device -> Pageable)", C_MEMCPY, 0, 0, { 0 }, { 0 }, 0 },
	[K_MEMSET] = { "Memset (Device)", C_MEMSET, 0, 0, { 0 }, { 0 }, 0 },
};

/* The part of a kernel's args that depends on the kernel only. */
static char *kstatic[NKID];

static void kstatic_init(void)
{
	for (int i = 0; i < NKID; i++) {
		const struct kdef *k = &kdefs[i];
		long long blocks = (long long)k->grid[0] * k->grid[1] * k->grid[2];
		long long threads = (long long)k->block[0] * k->block[1] * k->block[2];
		long long bps = blocks * PPM / NUM_SMS;			/* millionths */
		long long wps = blocks * threads * PPM / (NUM_SMS * 32LL);
		char buf[512];

		if (k->cat != C_KERNEL)
			continue;
		snprintf(buf, sizeof buf,
			 ",      \"registers per thread\": %d,      \"shared memory\": %d,"
			 "      \"blocks per SM\": %lld.%06lld,      \"warps per SM\": %lld.%06lld,"
			 "      \"grid\": [%d, %d, %d],      \"block\": [%d, %d, %d],"
			 "      \"est. achieved occupancy %%\": %d",
			 k->regs, k->smem, bps / PPM, bps % PPM, wps / PPM, wps % PPM,
			 k->grid[0], k->grid[1], k->grid[2],
			 k->block[0], k->block[1], k->block[2], k->occ);
		kstatic[i] = strdup(buf);
		if (!kstatic[i]) {
			fputs("gen-trace: out of memory\n", stderr);
			exit(1);
		}
	}
}

/* ---------------------------------------------------------------------- */
/* Buffered output, plain or gzip. */

struct out {
	char *buf;
	size_t len, cap;
	FILE *fp;
	gzFile gz;
	uint64_t bytes;		/* uncompressed bytes written, buffered included */
	int err;		/* errno of the first failure, 0 if none */
};

static void out_flush(struct out *o)
{
	if (o->len && !o->err) {
		if (o->gz) {
			if (gzwrite(o->gz, o->buf, (unsigned)o->len) != (int)o->len) {
				int zerr;

				gzerror(o->gz, &zerr);
				o->err = zerr == Z_ERRNO && errno ? errno : EIO;
			}
		} else if (fwrite(o->buf, 1, o->len, o->fp) != o->len) {
			o->err = errno ? errno : EIO;
		}
	}
	o->len = 0;
}

static void out_mem(struct out *o, const char *p, size_t n)
{
	o->bytes += n;
	if (o->len + n <= o->cap) {
		memcpy(o->buf + o->len, p, n);
		o->len += n;
		return;
	}
	while (n) {
		size_t room = o->cap - o->len, k;

		if (!room) {
			out_flush(o);
			room = o->cap;
		}
		k = n < room ? n : room;
		memcpy(o->buf + o->len, p, k);
		o->len += k;
		p += k;
		n -= k;
	}
}

#define OUT(o, lit) out_mem((o), lit, sizeof(lit) - 1)

static void out_str(struct out *o, const char *s)
{
	out_mem(o, s, strlen(s));
}

static void out_u64(struct out *o, uint64_t v)
{
	char tmp[24], *p = tmp + sizeof tmp;

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	out_mem(o, p, (size_t)(tmp + sizeof tmp - p));
}

static void out_i64(struct out *o, int64_t v)
{
	if (v < 0) {
		OUT(o, "-");
		out_u64(o, (uint64_t)0 - (uint64_t)v);
	} else {
		out_u64(o, (uint64_t)v);
	}
}

/* Writes ns (>= 0) as microseconds with exactly three decimals. */
static void out_ts(struct out *o, int64_t ns)
{
	char f[4];
	int64_t r = ns % 1000;

	out_u64(o, (uint64_t)(ns / 1000));
	f[0] = '.';
	f[1] = (char)('0' + r / 100);
	f[2] = (char)('0' + r / 10 % 10);
	f[3] = (char)('0' + r % 10);
	out_mem(o, f, 4);
}

/* ---------------------------------------------------------------------- */
/* Simulation state. */

struct cev {			/* a CPU-side event of the current step */
	int64_t ts, dur;
	const char *sname;	/* static name, or NULL: arena + dname */
	uint32_t dname, args;	/* arena offsets */
	uint8_t cat, th, ph;	/* ph 'X' or 'i' ([memory]) */
};

struct launch {			/* a CUDA runtime call and its GPU activity */
	int64_t rt_ts, rt_dur, g_ts, g_dur;
	uint64_t corr, ext;
	const char *rt_name;
	uint32_t extra;		/* arena: more GPU args, or NOARGS */
	int16_t kid;		/* enum kid, or NONE for a synchronisation */
	int16_t cbid;
	uint8_t th, stream;
};

struct open_span {
	size_t idx;
	uint64_t ext;		/* 0 for python_function */
	uint64_t pyid;		/* 0 unless python_function */
};

struct step_rec {
	int number;
	int64_t cpu_start, cpu_end, gpu_start, gpu_end;
};

struct rank {
	int r, dev, pid, tid[2];
	struct rng rng;
	int th;				/* thread now issuing work */
	int64_t cpu;			/* CPU cursor, ns */
	int64_t sfree[NSTREAM];		/* when each stream is next free */
	int64_t ag_dep;			/* event after the last all-gather copy-out */
	int64_t *ag_end;		/* per layer: end of its last all-gather */
	int64_t next_dep;		/* one-shot dependency of the next compute kernel */
	int64_t comp_ppm;		/* compute kernel duration factor this step */
	int change;			/* enum change */
	int64_t sync_end;		/* end of the last synchronisation, 0 before one */
	uint64_t corr, ext, pyid;
	int64_t mem_alloc, mem_resv;

	struct cev *cev;
	size_t ncev, capcev;
	struct launch *lch;
	size_t nlch, caplch;
	struct open_span stack[MAX_DEPTH];
	int depth;
	char *arena;
	size_t alen, acap;
	size_t step_idx;		/* cev index of ProfilerStep#N */
	uint64_t step_ext;		/* its External id */

	struct out out;
	char *path;
	uint64_t nx[NCAT], nm, ni, ns, nf, nevents;
	struct step_rec *steps;
	size_t nsteps, capsteps;
	int64_t flops_per_step;
};

enum opk { OP_NORM, OP_LINEAR, OP_ATTN, OP_ADD, OP_MUL, OP_SILU };

/* --change: the job with one change, for --what-if's tests. */
enum change { CH_NONE, CH_COMM2, CH_GEMM, CH_NO_HOST_WAIT };

struct op {
	enum opk kind;
	int64_t k, n;		/* linear: [T, k] x [k, n] */
};

struct opts {
	int ranks, steps, layers, kernels, gzip, inject;
	uint64_t seed;
	long target_mb;
	const char *manifest, *out;
	int slow_step, straggler, exposed_step, exposed_layer, stall_step, stall_rank;
	int change;			/* enum change */
};

struct sim {
	struct opts o;
	int W, L;
	struct rank *rk;
	struct rng rng;			/* shared: collectives, step factors */
	struct op *ops;
	int nops;
	int64_t t0, t_end;
	int step;			/* number of the step being simulated */
	uint64_t seq;			/* collective sequence number */
	int64_t layer_numel, layer_pad, shard, root_numel, opt_numel;
	int64_t stall_ns;		/* host work of the injected stall */
	int64_t exposed_extra_ns;	/* extra transfer of the injected all-gather */
	char *pg_ranks;			/* "[0, 1, ...]" */
	size_t *tmp;			/* per rank scratch */

	/* Injections: -1 when off. */
	int slow_step, straggler, exposed_step, exposed_layer;
	int stall_step, stall_rank, stall_layer;
	int exposed_done, stall_done;
	uint64_t exp_seq;
	size_t *exp_idx;		/* per rank: launch of the exposed all-gather */
	int64_t exp_start0, exp_end, *exp_ns;
	int64_t stall_mark, gap_start, gap_end, gap_next;
};

#define FOR_RANKS(s, it) for (struct rank *it = (s)->rk; it < (s)->rk + (s)->W; it++)

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q) {
		fprintf(stderr, "gen-trace: out of memory (%zu bytes)\n", n);
		exit(1);
	}
	return q;
}

static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	while (*cap < need)
		*cap = *cap ? *cap * 2 : 256;
	return xrealloc(p, *cap * size);
}

/* ---------------------------------------------------------------------- */
/* Per-step string arena: names and args, referred to by offset. */

static void arena_vcat(struct rank *rk, const char *fmt, va_list ap)
{
	for (;;) {
		va_list aq;
		size_t room = rk->acap - rk->alen;
		int n;

		va_copy(aq, ap);
		n = vsnprintf(rk->arena + rk->alen, room, fmt, aq);
		va_end(aq);
		if (n < 0) {
			fputs("gen-trace: formatting failed\n", stderr);
			exit(1);
		}
		if ((size_t)n < room) {
			rk->alen += (size_t)n;
			return;
		}
		rk->arena = grow(rk->arena, &rk->acap, rk->alen + (size_t)n + 1, 1);
	}
}

static void arena_cat(struct rank *rk, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	arena_vcat(rk, fmt, ap);
	va_end(ap);
}

/* Terminates the string begun at mark and returns mark. */
static uint32_t arena_end(struct rank *rk, size_t mark)
{
	rk->arena = grow(rk->arena, &rk->acap, rk->alen + 1, 1);
	rk->arena[rk->alen++] = '\0';
	return (uint32_t)mark;
}

static uint32_t arena_printf(struct rank *rk, const char *fmt, ...)
{
	size_t mark = rk->alen;
	va_list ap;

	va_start(ap, fmt);
	arena_vcat(rk, fmt, ap);
	va_end(ap);
	return arena_end(rk, mark);
}

/* ---------------------------------------------------------------------- */
/* CPU events. */

/* Spends about ns of CPU time on the current thread (+-25%). */
static void cpu(struct rank *rk, int64_t ns)
{
	rk->cpu += jitter(&rk->rng, ns, 250000);
}

static struct cev *cev_push(struct rank *rk)
{
	rk->cev = grow(rk->cev, &rk->capcev, rk->ncev + 1, sizeof *rk->cev);
	return &rk->cev[rk->ncev++];
}

static uint64_t cur_ext(const struct rank *rk)
{
	for (int i = rk->depth - 1; i >= 0; i--)
		if (rk->stack[i].ext)
			return rk->stack[i].ext;
	return 0;
}

static uint64_t cur_pyid(const struct rank *rk)
{
	for (int i = rk->depth - 1; i >= 0; i--)
		if (rk->stack[i].pyid)
			return rk->stack[i].pyid;
	return 1;
}

/*
 * Opens a span of category cat on the current thread at the CPU cursor,
 * named sname (static) or, when sname is NULL, by the arena string dname.
 * cpu_op and user_annotation spans get a fresh External id; python_function
 * spans get Python ids.  fmt (may be NULL) formats further args.
 */
static void sp_open(struct rank *rk, int cat, const char *sname, uint32_t dname,
		    const char *fmt, ...)
{
	struct cev *e = cev_push(rk);
	struct open_span *os;
	size_t mark = rk->alen;

	if (rk->depth == MAX_DEPTH) {
		fputs("gen-trace: spans nested too deep\n", stderr);
		exit(1);
	}
	os = &rk->stack[rk->depth];
	e->ts = rk->cpu;
	e->dur = 0;
	e->sname = sname;
	e->dname = dname;
	e->cat = (uint8_t)cat;
	e->th = (uint8_t)rk->th;
	e->ph = 'X';
	os->idx = rk->ncev - 1;
	os->ext = 0;
	os->pyid = 0;
	if (cat == C_PYFN) {
		uint64_t parent = cur_pyid(rk);

		os->pyid = ++rk->pyid;
		arena_cat(rk, "\"Python parent id\": %" PRIu64 ", \"Python id\": %" PRIu64,
			  parent, os->pyid);
	} else {
		os->ext = ++rk->ext;
		arena_cat(rk, "\"External id\": %" PRIu64, os->ext);
	}
	if (fmt) {
		va_list ap;

		arena_cat(rk, ", ");
		va_start(ap, fmt);
		arena_vcat(rk, fmt, ap);
		va_end(ap);
	}
	e->args = arena_end(rk, mark);
	rk->depth++;
	cpu(rk, 1200);
}

static void sp_close(struct rank *rk)
{
	struct open_span *os;

	cpu(rk, 800);
	os = &rk->stack[--rk->depth];
	rk->cev[os->idx].dur = rk->cpu - rk->cev[os->idx].ts;
	cpu(rk, 400);
}

/* A named user_annotation with a formatted name, e.g. FSDP hooks. */
static void sp_openf(struct rank *rk, const char *fmt, ...)
{
	size_t mark = rk->alen;
	uint32_t name;
	va_list ap;

	va_start(ap, fmt);
	arena_vcat(rk, fmt, ap);
	va_end(ap);
	name = arena_end(rk, mark);
	sp_open(rk, C_USER_ANN, NULL, name, NULL);
}

/* A python_function "nn.Module: <Class>_<k>" span. */
static void sp_module(struct rank *rk, const char *cls, int k, int module_id)
{
	uint32_t name = arena_printf(rk, "nn.Module: %s_%d", cls, k);

	sp_open(rk, C_PYFN, NULL, name, "\"Python module id\": %d", module_id);
}

/* A [memory] instant event: bytes allocated (< 0: freed) at addr. */
static void mem(struct rank *rk, int64_t bytes, uint64_t addr)
{
	struct cev *e;

	rk->mem_alloc += bytes;
	if (rk->mem_alloc > rk->mem_resv)
		rk->mem_resv = (rk->mem_alloc + (2LL << 20) - 1) / (2LL << 20) * (2LL << 20);
	e = cev_push(rk);
	e->ts = rk->cpu;
	e->dur = -1;
	e->sname = "[memory]";
	e->cat = C_CPU_OP;
	e->th = (uint8_t)rk->th;
	e->ph = 'i';
	e->args = arena_printf(rk,
		"\"Total Reserved\": %" PRId64 ", \"Total Allocated\": %" PRId64
		", \"Bytes\": %" PRId64 ", \"Addr\": %" PRIu64
		", \"Device Type\": 1, \"Device Id\": %d",
		rk->mem_resv, rk->mem_alloc, bytes, addr, rk->dev);
	cpu(rk, 600);
}

/* A plausible device address, the same for an allocation and its free. */
static uint64_t addr_of(int layer, int slot)
{
	return 0x7f2a00000000ULL + ((uint64_t)(layer + 1) * 1024 + (uint64_t)slot) * 0x2000000ULL;
}

/* ---------------------------------------------------------------------- */
/* GPU launches. */

static struct launch *lch_push(struct rank *rk)
{
	rk->lch = grow(rk->lch, &rk->caplch, rk->nlch + 1, sizeof *rk->lch);
	return &rk->lch[rk->nlch++];
}

/*
 * Launches kernel (or copy) kid on stream from the current thread: the
 * runtime call starts at the CPU cursor; the GPU activity starts at
 * max(call + latency, stream free, dep) and lasts dur.  Returns its index.
 */
static size_t launch(struct rank *rk, int kid, int stream, int64_t dur, int64_t dep,
		     uint32_t extra)
{
	const struct kdef *k = &kdefs[kid];
	struct launch *l;
	int64_t t;

	cpu(rk, 1500);
	l = lch_push(rk);
	l->rt_ts = rk->cpu;
	l->corr = (rk->corr += 1 + (uint64_t)rng_range(&rk->rng, 0, 3));
	l->ext = cur_ext(rk);
	l->kid = (int16_t)kid;
	l->stream = (uint8_t)stream;
	l->th = (uint8_t)rk->th;
	l->extra = extra;
	if (k->cat == C_KERNEL) {
		l->rt_name = "cudaLaunchKernel";
		l->cbid = 211;
		l->rt_dur = jitter(&rk->rng, 5500, 300000);
	} else if (k->cat == C_MEMCPY) {
		l->rt_name = "cudaMemcpyAsync";
		l->cbid = 41;
		l->rt_dur = jitter(&rk->rng, 9000, 300000);
	} else {
		l->rt_name = "cudaMemsetAsync";
		l->cbid = 51;
		l->rt_dur = jitter(&rk->rng, 6000, 300000);
	}
	t = l->rt_ts + jitter(&rk->rng, 4500, 300000);
	if (rk->change == CH_NO_HOST_WAIT && rk->sync_end)
		t = rk->sync_end;	/* launched ahead, as a CUDA graph would be */
	t = max64(t, max64(rk->sfree[stream], dep));
	if (stream == ST_COMP && rk->next_dep) {
		t = max64(t, rk->next_dep);
		rk->next_dep = 0;
	}
	l->g_ts = t;
	l->g_dur = dur;
	rk->sfree[stream] = t + dur;
	rk->cpu = l->rt_ts + l->rt_dur;
	return rk->nlch - 1;
}

/* cudaStreamSynchronize: the CPU blocks until stream has drained. */
static void sync_stream(struct rank *rk, int stream)
{
	struct launch *l;

	cpu(rk, 1500);
	l = lch_push(rk);
	l->rt_ts = rk->cpu;
	l->corr = (rk->corr += 1 + (uint64_t)rng_range(&rk->rng, 0, 3));
	l->ext = cur_ext(rk);
	l->kid = NONE;
	l->stream = (uint8_t)stream;
	l->th = (uint8_t)rk->th;
	l->extra = NOARGS;
	l->rt_name = "cudaStreamSynchronize";
	l->cbid = 131;
	l->rt_dur = max64(rk->sfree[stream], l->rt_ts) + jitter(&rk->rng, 4000, 300000) - l->rt_ts;
	rk->cpu = l->rt_ts + l->rt_dur;
	rk->sync_end = rk->cpu;
}

/* Duration of a compute kernel of nominal length ns on this rank and step. */
static int64_t kdur(struct rank *rk, int64_t ns)
{
	return jitter(&rk->rng, ns, 40000) * rk->comp_ppm / PPM;
}

static int64_t mem_ns(int64_t bytes)
{
	return bytes / HBM_BYTES_PER_NS + 3 * US;
}

static int64_t gemm_ns(int64_t flops)
{
	return flops / GEMM_FLOP_PER_NS + 8 * US;
}

/* Duration of a GEMM of flops on this rank and step (--change=gemm1.5: 1.5x faster). */
static int64_t gemm_kdur(struct rank *rk, int64_t flops)
{
	int64_t d = kdur(rk, gemm_ns(flops));

	return rk->change == CH_GEMM ? d * 2 / 3 : d;
}

/* A memcpy of bytes on the compute stream, with its args. */
static void memcpy_op(struct rank *rk, int kid, int64_t bytes)
{
	int64_t dur = bytes / 20000 + jitter(&rk->rng, 1600, 200000);	/* ~20 GB/s */
	int64_t bw = bytes * 1000 / dur;	/* MB/s = GB/s x 1000 */
	uint32_t extra = arena_printf(rk, "\"bytes\": %" PRId64 ", \"memory bandwidth (GB/s)\": %"
				      PRId64 ".%03" PRId64, bytes, bw / 1000, bw % 1000);

	launch(rk, kid, ST_COMP, dur, 0, extra);
}

/* A memset of bytes on the compute stream, with its args. */
static void memset_op(struct rank *rk, int64_t bytes)
{
	int64_t dur = bytes / HBM_BYTES_PER_NS + jitter(&rk->rng, 1500, 200000);
	int64_t bw = bytes * 1000 / dur;
	uint32_t extra = arena_printf(rk, "\"bytes\": %" PRId64 ", \"memory bandwidth (GB/s)\": %"
				      PRId64 ".%03" PRId64, bytes, bw / 1000, bw % 1000);

	launch(rk, K_MEMSET, ST_COMP, dur, 0, extra);
}

/* ---------------------------------------------------------------------- */
/* Operators. */

#define BF16_2 "\"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\"]"

static void linear_fwd(struct rank *rk, int64_t k, int64_t n, int layer, int slot)
{
	int64_t flops = 2 * TOKENS * k * n;

	sp_open(rk, C_CPU_OP, "aten::linear", 0,
		"\"Input Dims\": [[1, %lld, %lld], [%lld, %lld], []], "
		"\"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\", \"\"]",
		TOKENS, (long long)k, (long long)n, (long long)k);
	sp_open(rk, C_CPU_OP, "aten::t", 0, "\"Input Dims\": [[%lld, %lld]]",
		(long long)n, (long long)k);
	cpu(rk, 2500);
	sp_close(rk);
	sp_open(rk, C_CPU_OP, "aten::mm", 0,
		"\"Input Dims\": [[%lld, %lld], [%lld, %lld]], " BF16_2 ", \"flops\": %lld",
		TOKENS, (long long)k, (long long)k, (long long)n, (long long)flops);
	cpu(rk, 3000);
	mem(rk, TOKENS * n * 2, addr_of(layer, slot));
	launch(rk, K_GEMM_TN, ST_COMP, gemm_kdur(rk, flops), 0, NOARGS);
	sp_close(rk);
	sp_close(rk);
	rk->flops_per_step += flops;
}

static void linear_bwd(struct rank *rk, int64_t k, int64_t n, int layer, int slot, int seqnr)
{
	int64_t flops = 2 * TOKENS * k * n;

	sp_open(rk, C_CPU_OP, "autograd::engine::evaluate_function: MmBackward0", 0,
		"\"Sequence number\": %d, \"Fwd thread id\": 1", seqnr);
	sp_open(rk, C_CPU_OP, "MmBackward0", 0, "\"Sequence number\": %d, \"Fwd thread id\": 1", seqnr);
	sp_open(rk, C_CPU_OP, "aten::t", 0, "\"Input Dims\": [[%lld, %lld]]",
		(long long)k, (long long)n);
	sp_close(rk);
	sp_open(rk, C_CPU_OP, "aten::mm", 0,
		"\"Input Dims\": [[%lld, %lld], [%lld, %lld]], " BF16_2 ", \"flops\": %lld",
		TOKENS, (long long)n, (long long)n, (long long)k, (long long)flops);
	mem(rk, TOKENS * k * 2, addr_of(layer, slot) + 0x1000000);
	launch(rk, K_GEMM_NN, ST_COMP, gemm_kdur(rk, flops), 0, NOARGS);
	sp_close(rk);
	sp_open(rk, C_CPU_OP, "aten::t", 0, "\"Input Dims\": [[%lld, %lld]]", TOKENS, (long long)n);
	sp_close(rk);
	sp_open(rk, C_CPU_OP, "aten::mm", 0,
		"\"Input Dims\": [[%lld, %lld], [%lld, %lld]], " BF16_2 ", \"flops\": %lld",
		(long long)n, TOKENS, TOKENS, (long long)k, (long long)flops);
	launch(rk, K_GEMM_NT, ST_COMP, gemm_kdur(rk, flops), 0, NOARGS);
	sp_close(rk);
	sp_close(rk);
	mem(rk, -TOKENS * n * 2, addr_of(layer, slot));
	mem(rk, -TOKENS * k * 2, addr_of(layer, slot) + 0x1000000);
	sp_close(rk);
	rk->flops_per_step += 2 * flops;
}

static void norm_fwd(struct rank *rk, int layer, int slot)
{
	sp_open(rk, C_CPU_OP, "aten::layer_norm", 0,
		"\"Input Dims\": [[1, %lld, %lld], [%lld], [%lld], [], []]",
		TOKENS, HIDDEN, HIDDEN, HIDDEN, HIDDEN);
	sp_open(rk, C_CPU_OP, "aten::native_layer_norm", 0,
		"\"Input Dims\": [[1, %lld, %lld], [%lld], [%lld], [], []]",
		TOKENS, HIDDEN, HIDDEN, HIDDEN, HIDDEN);
	cpu(rk, 4000);
	mem(rk, TOKENS * HIDDEN * 2, addr_of(layer, slot));
	launch(rk, K_LN, ST_COMP, kdur(rk, mem_ns(TOKENS * HIDDEN * 4) + 4 * US), 0, NOARGS);
	sp_close(rk);
	sp_close(rk);
}

static void norm_bwd(struct rank *rk, int layer, int slot, int seqnr)
{
	sp_open(rk, C_CPU_OP, "autograd::engine::evaluate_function: NativeLayerNormBackward0", 0,
		"\"Sequence number\": %d, \"Fwd thread id\": 1", seqnr);
	sp_open(rk, C_CPU_OP, "NativeLayerNormBackward0", 0,
		"\"Sequence number\": %d, \"Fwd thread id\": 1", seqnr);
	sp_open(rk, C_CPU_OP, "aten::native_layer_norm_backward", 0,
		"\"Input Dims\": [[1, %lld, %lld], [1, %lld, %lld], [], [1, %lld, 1], [1, %lld, 1], [%lld], [%lld], []]",
		TOKENS, HIDDEN, TOKENS, HIDDEN, TOKENS, TOKENS, HIDDEN, HIDDEN);
	launch(rk, K_LN_BWD_IN, ST_COMP, kdur(rk, mem_ns(TOKENS * HIDDEN * 6)), 0, NOARGS);
	launch(rk, K_LN_BWD_GB, ST_COMP, kdur(rk, mem_ns(TOKENS * HIDDEN * 4)), 0, NOARGS);
	sp_close(rk);
	sp_close(rk);
	mem(rk, -TOKENS * HIDDEN * 2, addr_of(layer, slot));
	sp_close(rk);
}

static void attn_fwd(struct rank *rk, int layer, int slot)
{
	int64_t flops = 4 * TOKENS * TOKENS * HIDDEN / 2;	/* causal */

	sp_open(rk, C_CPU_OP, "aten::scaled_dot_product_attention", 0,
		"\"Input Dims\": [[1, %lld, %lld, %lld], [1, %lld, %lld, %lld], [1, %lld, %lld, %lld], [], [], [], []]",
		HEADS, TOKENS, HEAD_DIM, HEADS, TOKENS, HEAD_DIM, HEADS, TOKENS, HEAD_DIM);
	sp_open(rk, C_CPU_OP, "aten::_scaled_dot_product_flash_attention", 0,
		"\"Input Dims\": [[1, %lld, %lld, %lld], [1, %lld, %lld, %lld], [1, %lld, %lld, %lld], [], [], [], []], "
		"\"flops\": %lld",
		HEADS, TOKENS, HEAD_DIM, HEADS, TOKENS, HEAD_DIM, HEADS, TOKENS, HEAD_DIM,
		(long long)flops);
	sp_open(rk, C_CPU_OP, "aten::_flash_attention_forward", 0, NULL);
	cpu(rk, 6000);
	mem(rk, TOKENS * HIDDEN * 2, addr_of(layer, slot));
	launch(rk, K_FLASH_FWD, ST_COMP, kdur(rk, flops / ATTN_FLOP_PER_NS + 10 * US), 0, NOARGS);
	sp_close(rk);
	sp_close(rk);
	sp_close(rk);
	rk->flops_per_step += flops;
}

static void attn_bwd(struct rank *rk, int layer, int slot, int seqnr)
{
	int64_t flops = 4 * TOKENS * TOKENS * HIDDEN / 2 * 5 / 2;

	sp_open(rk, C_CPU_OP, "autograd::engine::evaluate_function: ScaledDotProductFlashAttentionBackward0", 0,
		"\"Sequence number\": %d, \"Fwd thread id\": 1", seqnr);
	sp_open(rk, C_CPU_OP, "ScaledDotProductFlashAttentionBackward0", 0,
		"\"Sequence number\": %d, \"Fwd thread id\": 1", seqnr);
	sp_open(rk, C_CPU_OP, "aten::_scaled_dot_product_flash_attention_backward", 0, NULL);
	sp_open(rk, C_CPU_OP, "aten::_flash_attention_backward", 0, NULL);
	cpu(rk, 8000);
	mem(rk, 3 * TOKENS * HIDDEN * 2, addr_of(layer, slot) + 0x1000000);
	launch(rk, K_FLASH_BWD_DOT, ST_COMP, kdur(rk, mem_ns(TOKENS * HIDDEN * 4)), 0, NOARGS);
	launch(rk, K_FLASH_BWD, ST_COMP, kdur(rk, flops / ATTN_BWD_FLOP_PER_NS + 12 * US), 0, NOARGS);
	launch(rk, K_FLASH_BWD_CVT, ST_COMP, kdur(rk, mem_ns(TOKENS * HIDDEN * 6)), 0, NOARGS);
	sp_close(rk);
	sp_close(rk);
	sp_close(rk);
	mem(rk, -TOKENS * HIDDEN * 2, addr_of(layer, slot));
	mem(rk, -3 * TOKENS * HIDDEN * 2, addr_of(layer, slot) + 0x1000000);
	sp_close(rk);
}

/* Elementwise add, mul or silu over a [1, T, width] tensor. */
static void ew_fwd(struct rank *rk, enum opk kind, int layer, int slot)
{
	int64_t width = kind == OP_SILU ? FFN : HIDDEN;
	const char *name = kind == OP_ADD ? "aten::add" : kind == OP_MUL ? "aten::mul" : "aten::silu";
	int kid = kind == OP_ADD ? K_ADD : kind == OP_MUL ? K_MUL : K_SILU;
	int64_t bytes = TOKENS * width * 2 * (kind == OP_SILU ? 2 : 3);

	if (kind == OP_SILU)
		sp_open(rk, C_CPU_OP, name, 0, "\"Input Dims\": [[1, %lld, %lld]]", TOKENS, (long long)width);
	else
		sp_open(rk, C_CPU_OP, name, 0, "\"Input Dims\": [[1, %lld, %lld], [1, %lld, %lld]]",
			TOKENS, (long long)width, TOKENS, (long long)width);
	cpu(rk, 3500);
	mem(rk, TOKENS * width * 2, addr_of(layer, slot));
	launch(rk, kid, ST_COMP, kdur(rk, mem_ns(bytes)), 0, NOARGS);
	sp_close(rk);
}

static void ew_bwd(struct rank *rk, enum opk kind, int layer, int slot, int seqnr)
{
	int64_t width = kind == OP_SILU ? FFN : HIDDEN;
	const char *fn = kind == OP_ADD ? "AddBackward0" : kind == OP_MUL ? "MulBackward0" : "SiluBackward0";
	uint32_t outer = arena_printf(rk, "autograd::engine::evaluate_function: %s", fn);

	sp_open(rk, C_CPU_OP, NULL, outer, "\"Sequence number\": %d, \"Fwd thread id\": 1", seqnr);
	sp_open(rk, C_CPU_OP, fn, 0, "\"Sequence number\": %d, \"Fwd thread id\": 1", seqnr);
	if (kind == OP_MUL) {
		for (int i = 0; i < 2; i++) {
			sp_open(rk, C_CPU_OP, "aten::mul", 0,
				"\"Input Dims\": [[1, %lld, %lld], [1, %lld, %lld]]",
				TOKENS, HIDDEN, TOKENS, HIDDEN);
			launch(rk, K_MUL, ST_COMP, kdur(rk, mem_ns(TOKENS * HIDDEN * 6)), 0, NOARGS);
			sp_close(rk);
		}
	} else if (kind == OP_SILU) {
		sp_open(rk, C_CPU_OP, "aten::silu_backward", 0,
			"\"Input Dims\": [[1, %lld, %lld], [1, %lld, %lld]]",
			TOKENS, FFN, TOKENS, FFN);
		launch(rk, K_SILU_BWD, ST_COMP, kdur(rk, mem_ns(TOKENS * FFN * 6)), 0, NOARGS);
		sp_close(rk);
	} else {
		cpu(rk, 2000);	/* AddBackward0 passes gradients through */
	}
	sp_close(rk);
	mem(rk, -TOKENS * width * 2, addr_of(layer, slot));
	sp_close(rk);
}

static void op_fwd(struct sim *s, struct rank *rk, int layer, int j)
{
	const struct op *op = &s->ops[j];

	switch (op->kind) {
	case OP_NORM: norm_fwd(rk, layer, j); break;
	case OP_LINEAR: linear_fwd(rk, op->k, op->n, layer, j); break;
	case OP_ATTN: attn_fwd(rk, layer, j); break;
	default: ew_fwd(rk, op->kind, layer, j); break;
	}
}

static void op_bwd(struct sim *s, struct rank *rk, int layer, int j)
{
	const struct op *op = &s->ops[j];
	int seqnr = 18000 + (s->step - FIRST_STEP) * 20000 + layer * 256 + j;

	cpu(rk, 6000);		/* autograd engine bookkeeping */
	switch (op->kind) {
	case OP_NORM: norm_bwd(rk, layer, j, seqnr); break;
	case OP_LINEAR: linear_bwd(rk, op->k, op->n, layer, j, seqnr); break;
	case OP_ATTN: attn_bwd(rk, layer, j, seqnr); break;
	default: ew_bwd(rk, op->kind, layer, j, seqnr); break;
	}
}

/* ---------------------------------------------------------------------- */
/* Collectives, in lock step over all ranks. */

enum coll { AG, RS };

static int64_t coll_xfer(struct sim *s, enum coll kind)
{
	int64_t bytes = s->layer_pad * 2, t;

	if (s->W == 1)
		t = 12 * US + bytes / 400000;
	else
		t = bytes * (s->W - 1) / s->W / (s->W <= NUM_NODE_GPUS ? NVLINK_BYTES_PER_NS : IB_BYTES_PER_NS)
		    + 20 * US + 2 * US * s->W;
	if (kind == RS)
		t = t * 11 / 10;
	return jitter(&s->rng, t, 30000);
}

/*
 * Issues one collective on every rank from inside its current span:
 * record_param_comms > nccl:_all_gather_base | nccl:_reduce_scatter_base >
 * cudaLaunchKernel.  An all-gather waits on the last copy-out (first: on
 * the compute stream), a reduce-scatter on the gradients.  late: also wait
 * for the compute stream (not prefetched); extra_ns slows the transfer.
 * Returns nothing; per-rank launch indices are left in s->tmp.
 */
static void collective(struct sim *s, enum coll kind, int layer, int first, int late,
		       int64_t extra_ns)
{
	uint64_t seq = s->seq++;
	int64_t in_n = kind == AG ? s->shard : s->layer_pad;
	int64_t out_n = kind == AG ? s->layer_pad : s->shard;
	const char *cname = kind == AG ? "_allgather_base" : "_reduce_scatter_base";
	int64_t latest = 0, end;

	FOR_RANKS(s, rk) {
		int64_t dep;
		uint32_t extra;
		const char *fmt = "\"Collective name\": \"%s\", \"Process Group Name\": \"0\", "
			"\"Process Group Description\": \"default_pg\", \"Group size\": %d, "
			"\"In msg nelems\": %" PRId64 ", \"Out msg nelems\": %" PRId64 ", "
			"\"dtype\": \"BFloat16\", \"In split size\": \"[]\", \"Out split size\": \"[]\", "
			"\"Process Group Ranks\": \"%s\", \"Rank\": %d, \"Seq\": %" PRIu64;

		if (kind == AG)
			mem(rk, s->layer_pad * 2, addr_of(layer, 900));
		sp_open(rk, C_CPU_OP, "record_param_comms", 0, fmt, cname, s->W, in_n, out_n,
			s->pg_ranks, rk->r, seq);
		cpu(rk, 9000);
		sp_open(rk, C_USER_ANN, kind == AG ? "nccl:_all_gather_base" : "nccl:_reduce_scatter_base",
			0, NULL);
		cpu(rk, 6000);
		extra = arena_printf(rk, fmt, cname, s->W, in_n, out_n, s->pg_ranks, rk->r, seq);
		dep = kind == RS || first ? rk->sfree[ST_COMP] : rk->ag_dep;
		if (late)
			dep = max64(dep, rk->sfree[ST_COMP]);
		s->tmp[rk->r] = launch(rk, kind == AG ? K_NCCL_AG : K_NCCL_RS, ST_NCCL, 0, dep, extra);
		latest = max64(latest, rk->lch[s->tmp[rk->r]].g_ts);
		sp_close(rk);
		sp_close(rk);
	}
	end = coll_xfer(s, kind) + extra_ns;
	end = latest + (s->o.change == CH_COMM2 ? end / 2 : end);
	FOR_RANKS(s, rk) {
		struct launch *l = &rk->lch[s->tmp[rk->r]];

		l->g_dur = end - l->g_ts;
		rk->sfree[ST_NCCL] = end;
		if (kind == AG)
			rk->ag_end[layer] = end;
	}
	if (late) {
		s->exp_seq = seq;
		s->exp_end = end;
		memcpy(s->exp_idx, s->tmp, (size_t)s->W * sizeof *s->tmp);
	}
}

/* FSDP::all_gather (layers.i) on every rank, around one all-gather. */
static void all_gather(struct sim *s, int layer, int first, int late, int64_t extra_ns)
{
	FOR_RANKS(s, rk) {
		sp_openf(rk, "FSDP::all_gather (layers.%d)", layer);
		cpu(rk, 25000);
	}
	collective(s, AG, layer, first, late, extra_ns);
	FOR_RANKS(s, rk) {
		cpu(rk, 5000);
		sp_close(rk);
	}
}

/* FSDP::all_gather_copy_out (layers.i): the compute stream waits for the all-gather. */
static void copy_out(struct sim *s, struct rank *rk, int layer)
{
	int64_t bytes = s->layer_pad * 2 * 2;

	sp_openf(rk, "FSDP::all_gather_copy_out (layers.%d)", layer);
	sp_open(rk, C_CPU_OP, "fsdp::split_with_sizes_copy", 0,
		"\"Input Dims\": [[%d, %" PRId64 "], [], [], []]", s->W, s->shard);
	sp_open(rk, C_CPU_OP, "aten::split_with_sizes_copy", 0,
		"\"Input Dims\": [[%d, %" PRId64 "], [], [], []]", s->W, s->shard);
	cpu(rk, 12000);
	launch(rk, K_SPLIT_COPY, ST_COMP, kdur(rk, mem_ns(bytes)), rk->ag_end[layer], NOARGS);
	sp_close(rk);
	sp_close(rk);
	sp_close(rk);
	rk->ag_dep = rk->sfree[ST_COMP];	/* all-gather state event */
}

/* ---------------------------------------------------------------------- */
/* One training step. */

/* loss.item(): copy the loss to the host and wait for the compute stream. */
static void item_sync(struct rank *rk)
{
	sp_open(rk, C_CPU_OP, "aten::item", 0, "\"Input Dims\": [[]], \"Input type\": [\"float\"]");
	sp_open(rk, C_CPU_OP, "aten::_local_scalar_dense", 0,
		"\"Input Dims\": [[]], \"Input type\": [\"float\"]");
	memcpy_op(rk, K_D2H, 4);
	sync_stream(rk, ST_COMP);
	sp_close(rk);
	sp_close(rk);
}

/* The injected host stall: a sync, then host work while the GPU idles. */
static void stall(struct sim *s, struct rank *rk)
{
	item_sync(rk);
	s->stall_mark = rk->cpu;
	sp_open(rk, C_USER_ANN, "log_metrics", 0, NULL);
	rk->cpu += s->stall_ns;
	sp_close(rk);
}

static void step_begin(struct sim *s, struct rank *rk, int64_t step_ppm)
{
	rk->ncev = rk->nlch = 0;
	rk->alen = 0;
	rk->depth = 0;
	rk->th = TH_MAIN;
	rk->comp_ppm = step_ppm;
	if (s->straggler == rk->r)
		rk->comp_ppm = rk->comp_ppm * 115 / 100;
	if (s->slow_step == s->step)
		rk->comp_ppm = rk->comp_ppm * 160 / 100;

	sp_open(rk, C_USER_ANN, NULL, arena_printf(rk, "ProfilerStep#%d", s->step), NULL);
	rk->step_idx = rk->stack[rk->depth - 1].idx;
	rk->step_ext = rk->stack[rk->depth - 1].ext;
	sp_open(rk, C_USER_ANN, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 0, NULL);
	cpu(rk, 110000);
	sp_close(rk);

	sp_open(rk, C_USER_ANN, "FSDP::root_pre_forward", 0, NULL);
	cpu(rk, 20000);
	for (int i = 0; i < 2; i++) {
		sp_open(rk, C_CPU_OP, "aten::to", 0, "\"Input Dims\": [[1, %lld], [], [], [], []]", TOKENS);
		sp_open(rk, C_CPU_OP, "aten::_to_copy", 0, "\"Input Dims\": [[1, %lld], [], [], [], [], []]", TOKENS);
		sp_open(rk, C_CPU_OP, "aten::copy_", 0, "\"Input Dims\": [[1, %lld], [1, %lld], []]", TOKENS, TOKENS);
		memcpy_op(rk, K_H2D, TOKENS * 8);
		sp_close(rk);
		sp_close(rk);
		sp_close(rk);
	}
	cpu(rk, 15000);
	sp_close(rk);
	rk->ag_dep = rk->sfree[ST_COMP];	/* copy-in stream waits for the current stream */

	sp_module(rk, "Transformer", 0, 1);
	sp_module(rk, "Embedding", 0, 2);
	sp_open(rk, C_CPU_OP, "aten::embedding", 0, "\"Input Dims\": [[%lld, %lld], [1, %lld], [], [], []]",
		VOCAB, HIDDEN, TOKENS);
	sp_open(rk, C_CPU_OP, "aten::index_select", 0, "\"Input Dims\": [[%lld, %lld], [], [%lld]]",
		VOCAB, HIDDEN, TOKENS);
	mem(rk, TOKENS * HIDDEN * 2, addr_of(-1, 1));
	launch(rk, K_EMBED, ST_COMP, kdur(rk, mem_ns(TOKENS * HIDDEN * 4)), 0, NOARGS);
	sp_close(rk);
	sp_close(rk);
	sp_close(rk);
}

static void head_fwd(struct rank *rk)
{
	sp_module(rk, "LayerNorm", 0, 90);
	norm_fwd(rk, -1, 2);
	sp_close(rk);
	sp_module(rk, "Linear", 0, 91);
	linear_fwd(rk, HIDDEN, VOCAB, -1, 3);
	sp_close(rk);
	sp_close(rk);			/* nn.Module: Transformer_0 */

	sp_open(rk, C_CPU_OP, "aten::cross_entropy_loss", 0,
		"\"Input Dims\": [[%lld, %lld], [%lld], [], [], [], []]", TOKENS, VOCAB, TOKENS);
	sp_open(rk, C_CPU_OP, "aten::log_softmax", 0, "\"Input Dims\": [[%lld, %lld], [], []]", TOKENS, VOCAB);
	sp_open(rk, C_CPU_OP, "aten::_log_softmax", 0, "\"Input Dims\": [[%lld, %lld], [], []]", TOKENS, VOCAB);
	mem(rk, TOKENS * VOCAB * 4, addr_of(-1, 4));
	launch(rk, K_SOFTMAX, ST_COMP, kdur(rk, mem_ns(TOKENS * VOCAB * 6)), 0, NOARGS);
	sp_close(rk);
	sp_close(rk);
	sp_open(rk, C_CPU_OP, "aten::nll_loss_nd", 0, "\"Input Dims\": [[%lld, %lld], [%lld], [], [], []]",
		TOKENS, VOCAB, TOKENS);
	sp_open(rk, C_CPU_OP, "aten::nll_loss_forward", 0, "\"Input Dims\": [[%lld, %lld], [%lld], [], [], []]",
		TOKENS, VOCAB, TOKENS);
	memset_op(rk, 4);
	launch(rk, K_NLL, ST_COMP, kdur(rk, 9 * US), 0, NOARGS);
	sp_close(rk);
	sp_close(rk);
	sp_close(rk);
}

static void head_bwd(struct sim *s, struct rank *rk)
{
	int seqnr = 18000 + (s->step - FIRST_STEP) * 20000 + 19000;

	sp_open(rk, C_CPU_OP, "autograd::engine::evaluate_function: NllLossBackward0", 0,
		"\"Sequence number\": %d, \"Fwd thread id\": 1", seqnr + 3);
	sp_open(rk, C_CPU_OP, "NllLossBackward0", 0, "\"Sequence number\": %d, \"Fwd thread id\": 1", seqnr + 3);
	sp_open(rk, C_CPU_OP, "aten::nll_loss_backward", 0,
		"\"Input Dims\": [[], [%lld, %lld], [%lld], [], [], [], []]", TOKENS, VOCAB, TOKENS);
	memset_op(rk, TOKENS * VOCAB * 4);
	launch(rk, K_NLL_BWD, ST_COMP, kdur(rk, 6 * US), 0, NOARGS);
	sp_close(rk);
	sp_close(rk);
	sp_close(rk);
	sp_open(rk, C_CPU_OP, "autograd::engine::evaluate_function: LogSoftmaxBackward0", 0,
		"\"Sequence number\": %d, \"Fwd thread id\": 1", seqnr + 2);
	sp_open(rk, C_CPU_OP, "LogSoftmaxBackward0", 0, "\"Sequence number\": %d, \"Fwd thread id\": 1", seqnr + 2);
	sp_open(rk, C_CPU_OP, "aten::_log_softmax_backward_data", 0,
		"\"Input Dims\": [[%lld, %lld], [%lld, %lld], [], []]", TOKENS, VOCAB, TOKENS, VOCAB);
	launch(rk, K_SOFTMAX_BWD, ST_COMP, kdur(rk, mem_ns(TOKENS * VOCAB * 10)), 0, NOARGS);
	sp_close(rk);
	sp_close(rk);
	mem(rk, -TOKENS * VOCAB * 4, addr_of(-1, 4));
	sp_close(rk);
	linear_bwd(rk, HIDDEN, VOCAB, -1, 3, seqnr + 1);
	norm_bwd(rk, -1, 2, seqnr);
}

static void optimizer(struct sim *s, struct rank *rk)
{
	static const struct {
		const char *name;
		int kid;
		int bytes_per_elem;	/* 0: the step counters only */
	} fe[] = {
		{ "aten::_foreach_add_", K_MTA_ADD, 0 },
		{ "aten::_foreach_lerp_", K_MTA_LERP, 12 },
		{ "aten::_foreach_mul_", K_MTA_MUL, 8 },
		{ "aten::_foreach_addcmul_", K_MTA_ADDCMUL, 12 },
		{ "aten::_foreach_sqrt", K_MTA_SQRT, 8 },
		{ "aten::_foreach_div_", K_MTA_DIV, 8 },
		{ "aten::_foreach_addcdiv_", K_MTA_ADDCDIV, 16 },
	};
	int ntensors = 6 * s->L + 3;

	sp_open(rk, C_USER_ANN, "Optimizer.step#AdamW.step", 0, NULL);
	cpu(rk, 60000);
	for (size_t i = 0; i < sizeof fe / sizeof fe[0]; i++) {
		int nk = fe[i].bytes_per_elem ? 2 : 1;

		sp_open(rk, C_CPU_OP, fe[i].name, 0, "\"Input Dims\": [[], []]");
		cpu(rk, 15000);
		for (int k = 0; k < nk; k++) {
			int64_t ns = fe[i].bytes_per_elem
				? mem_ns(s->opt_numel * fe[i].bytes_per_elem / nk)
				: mem_ns((int64_t)ntensors * 8);

			launch(rk, fe[i].kid, ST_COMP, kdur(rk, ns), 0, NOARGS);
		}
		sp_close(rk);
	}
	sp_close(rk);
	sp_open(rk, C_USER_ANN, "Optimizer.zero_grad#AdamW.zero_grad", 0, NULL);
	cpu(rk, 45000);
	sp_close(rk);
}

struct iv {
	int64_t a, b;
};

static int iv_cmp(const void *x, const void *y)
{
	const struct iv *p = x, *q = y;

	return p->a < q->a ? -1 : p->a > q->a ? 1 : 0;
}

/* Merged GPU activity of a rank's step, sorted, in *ivs (caller frees);
   returns the number of intervals. */
static size_t activity(const struct rank *rk, struct iv **ivs)
{
	size_t n = 0, m = 0;

	*ivs = xrealloc(NULL, (rk->nlch + 1) * sizeof **ivs);
	for (size_t i = 0; i < rk->nlch; i++)
		if (rk->lch[i].kid != NONE) {
			(*ivs)[n].a = rk->lch[i].g_ts;
			(*ivs)[n++].b = rk->lch[i].g_ts + rk->lch[i].g_dur;
		}
	qsort(*ivs, n, sizeof **ivs, iv_cmp);
	for (size_t i = 0; i < n; i++) {
		if (m && (*ivs)[i].a <= (*ivs)[m - 1].b) {
			(*ivs)[m - 1].b = max64((*ivs)[m - 1].b, (*ivs)[i].b);
		} else {
			(*ivs)[m++] = (*ivs)[i];
		}
	}
	return m;
}

/* Ground truth of the injections, from the simulated step. */
static void measure_step(struct sim *s)
{
	if (s->exposed_step == s->step && s->exposed_done == 1) {
		FOR_RANKS(s, rk) {
			int64_t a = rk->lch[s->exp_idx[rk->r]].g_ts, b = s->exp_end, hidden = 0;

			for (size_t i = 0; i < rk->nlch; i++) {
				const struct launch *l = &rk->lch[i];

				if (l->kid != NONE && kdefs[l->kid].cat == C_KERNEL && l->stream == ST_COMP) {
					int64_t x = max64(a, l->g_ts), y = l->g_ts + l->g_dur < b ? l->g_ts + l->g_dur : b;

					if (y > x)
						hidden += y - x;
				}
			}
			s->exp_ns[rk->r] = b - a - hidden;
			if (rk->r == 0)
				s->exp_start0 = a;
		}
		s->exposed_done = 2;
	}
	if (s->stall_step == s->step && s->stall_done == 1) {
		struct rank *rk = &s->rk[s->stall_rank];
		struct iv *iv;
		size_t n = activity(rk, &iv);

		s->gap_next = 0;
		for (size_t i = 1; i < n; i++) {
			int64_t g = iv[i].a - iv[i - 1].b;

			if (iv[i - 1].b <= s->stall_mark && s->stall_mark < iv[i].a) {
				s->gap_start = iv[i - 1].b;
				s->gap_end = iv[i].a;
			} else if (g > s->gap_next) {
				s->gap_next = g;
			}
		}
		free(iv);
		s->stall_done = 2;
	}
}

static void write_step(struct sim *s, struct rank *rk);

static void sim_step(struct sim *s)
{
	int L = s->L;
	int64_t step_ppm = PPM + rng_range(&s->rng, -12000, 12000);

	FOR_RANKS(s, rk)
		step_begin(s, rk, step_ppm);

	/* Forward, main thread. */
	for (int l = 0; l < L; l++) {
		int exposed = s->exposed_step == s->step && s->exposed_layer == l;

		FOR_RANKS(s, rk) {
			if (s->stall_step == s->step && s->stall_layer == l && s->stall_rank == rk->r) {
				stall(s, rk);
				s->stall_done = 1;
			}
			sp_module(rk, "TransformerBlock", l, 3 + l);
			sp_openf(rk, "FSDP::pre_forward (layers.%d)", l);
			cpu(rk, 30000);
		}
		all_gather(s, l, l == 0, exposed, exposed ? s->exposed_extra_ns : 0);
		if (exposed)
			s->exposed_done = 1;
		FOR_RANKS(s, rk) {
			copy_out(s, rk, l);
			cpu(rk, 10000);
			sp_close(rk);		/* pre_forward */
			for (int j = 0; j < s->nops; j++)
				op_fwd(s, rk, l, j);
			sp_openf(rk, "FSDP::post_forward (layers.%d)", l);
			cpu(rk, 15000);
			mem(rk, -s->layer_pad * 2, addr_of(l, 900));
			sp_close(rk);
			sp_close(rk);		/* nn.Module */
		}
	}
	FOR_RANKS(s, rk) {
		head_fwd(rk);
		rk->th = TH_BWD;
		cpu(rk, 40000);		/* loss.backward() hands over to the autograd thread */
		head_bwd(s, rk);
	}

	/* Backward, autograd thread. */
	for (int l = L - 1; l >= 0; l--) {
		FOR_RANKS(s, rk) {
			sp_openf(rk, "FSDP::pre_backward (layers.%d)", l);
			cpu(rk, 25000);
		}
		if (l == L - 1)
			all_gather(s, l, 0, 0, 0);
		FOR_RANKS(s, rk) {
			copy_out(s, rk, l);
			if (l > 0) {
				sp_openf(rk, "FSDP::backward_prefetch for layers.%d", l - 1);
				cpu(rk, 8000);
			}
		}
		if (l > 0) {
			all_gather(s, l - 1, 0, 0, 0);
			FOR_RANKS(s, rk)
				sp_close(rk);
		}
		FOR_RANKS(s, rk) {
			sp_close(rk);		/* pre_backward */
			for (int j = s->nops - 1; j >= 0; j--)
				op_bwd(s, rk, l, j);
			sp_openf(rk, "FSDP::post_backward_reshard (layers.%d)", l);
			cpu(rk, 12000);
			mem(rk, -s->layer_pad * 2, addr_of(l, 900));
			sp_close(rk);
			sp_openf(rk, "FSDP::post_backward_reduce (layers.%d)", l);
			cpu(rk, 20000);
			sp_open(rk, C_CPU_OP, "fsdp::chunk_cat", 0, NULL);
			sp_open(rk, C_CPU_OP, "aten::_chunk_cat", 0, NULL);
			mem(rk, s->layer_pad * 2, addr_of(l, 901));
			launch(rk, K_CHUNK_CAT, ST_COMP, kdur(rk, mem_ns(s->layer_pad * 4)), 0, NOARGS);
			sp_close(rk);
			sp_close(rk);
		}
		collective(s, RS, l, 0, 0, 0);
		FOR_RANKS(s, rk) {
			cpu(rk, 8000);
			sp_close(rk);		/* post_backward_reduce */
			mem(rk, -s->layer_pad * 2, addr_of(l, 901));
		}
	}

	FOR_RANKS(s, rk) {
		int seqnr = 18000 + (s->step - FIRST_STEP) * 20000 + 19999;

		sp_open(rk, C_CPU_OP, "autograd::engine::evaluate_function: EmbeddingBackward0", 0,
			"\"Sequence number\": %d, \"Fwd thread id\": 1", seqnr);
		sp_open(rk, C_CPU_OP, "EmbeddingBackward0", 0, "\"Sequence number\": %d, \"Fwd thread id\": 1", seqnr);
		sp_open(rk, C_CPU_OP, "aten::embedding_dense_backward", 0,
			"\"Input Dims\": [[1, %lld, %lld], [1, %lld], [], [], []]", TOKENS, HIDDEN, TOKENS);
		launch(rk, K_EMBED_BWD, ST_COMP, kdur(rk, mem_ns(TOKENS * HIDDEN * 8)), 0, NOARGS);
		sp_close(rk);
		sp_close(rk);
		mem(rk, -TOKENS * HIDDEN * 2, addr_of(-1, 1));
		sp_close(rk);
		sp_open(rk, C_USER_ANN, "FSDP::root_post_backward", 0, NULL);
		cpu(rk, 30000);
		rk->next_dep = rk->sfree[ST_NCCL];	/* wait for the last reduce-scatter */
		sp_close(rk);

		rk->th = TH_MAIN;
		cpu(rk, 20000);
		optimizer(s, rk);
		item_sync(rk);
		cpu(rk, 5000);
		sp_close(rk);			/* ProfilerStep#N */
		cpu(rk, 12000);
	}
	measure_step(s);
	FOR_RANKS(s, rk)
		write_step(s, rk);
}

/* ---------------------------------------------------------------------- */
/* Writing. */

static void write_x(struct out *o, const char *cat, const char *name, int pid, int tid,
		    int64_t ts, int64_t dur)
{
	OUT(o, "  {\n    \"ph\": \"X\", \"cat\": \"");
	out_str(o, cat);
	OUT(o, "\", \"name\": \"");
	out_str(o, name);
	OUT(o, "\", \"pid\": ");
	out_i64(o, pid);
	OUT(o, ", \"tid\": ");
	out_i64(o, tid);
	OUT(o, ",\n    \"ts\": ");
	out_ts(o, ts);
	OUT(o, ", \"dur\": ");
	out_ts(o, dur);
	OUT(o, ",\n    \"args\": {\n      ");
}

#define ARGS_END "\n    }\n  },\n"

static void write_flow(struct out *o, int start, uint64_t id, int pid, int tid, int64_t ts)
{
	OUT(o, "  {\n    \"ph\": \"");
	out_mem(o, start ? "s" : "f", 1);
	OUT(o, "\", \"id\": ");
	out_u64(o, id);
	OUT(o, ", \"pid\": ");
	out_i64(o, pid);
	OUT(o, ", \"tid\": ");
	out_i64(o, tid);
	OUT(o, ", \"ts\": ");
	out_ts(o, ts);
	if (start)
		OUT(o, ",\n    \"cat\": \"ac2g\", \"name\": \"ac2g\"\n  },\n");
	else
		OUT(o, ",\n    \"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"\n  },\n");
}

static void write_meta(struct out *o, const char *name, int64_t ts, int pid, int tid,
		       const char *key, const char *sval, int64_t ival)
{
	OUT(o, "  {\n    \"name\": \"");
	out_str(o, name);
	OUT(o, "\", \"ph\": \"M\", \"ts\": ");
	out_ts(o, ts);
	OUT(o, ", \"pid\": ");
	out_i64(o, pid);
	OUT(o, ", \"tid\": ");
	out_i64(o, tid);
	OUT(o, ",\n    \"args\": {\n      \"");
	out_str(o, key);
	OUT(o, "\": ");
	if (sval) {
		OUT(o, "\"");
		out_str(o, sval);
		OUT(o, "\"");
	} else {
		out_i64(o, ival);
	}
	OUT(o, ARGS_END);
}

static void write_header(struct sim *s, struct rank *rk)
{
	struct out *o = &rk->out;
	char buf[128];

	OUT(o, "\n{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [\n");
	for (int d = 0; d < NUM_NODE_GPUS; d++) {
		OUT(o, "    {\n      \"id\": ");
		out_i64(o, d);
		OUT(o, ", \"name\": \"NVIDIA H100 80GB HBM3\", \"totalGlobalMem\": 85045035008,\n"
		    "      \"computeMajor\": 9, \"computeMinor\": 0,\n"
		    "      \"maxThreadsPerBlock\": 1024, \"maxThreadsPerMultiprocessor\": 2048,\n"
		    "      \"regsPerBlock\": 65536, \"warpSize\": 32,\n"
		    "      \"sharedMemPerBlock\": 49152, \"numSms\": 132\n"
		    "    , \"regsPerMultiprocessor\": 65536, \"sharedMemPerBlockOptin\": 232448, "
		    "\"sharedMemPerMultiprocessor\": 233472\n    }");
		if (d + 1 < NUM_NODE_GPUS)
			OUT(o, ",");
		OUT(o, "\n");
	}
	OUT(o, "  ],\n  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": ");
	out_i64(o, rk->r);
	OUT(o, ", \"world_size\": ");
	out_i64(o, s->W);
	OUT(o, ", \"pg_count\": 1, \"pg_config\": [{\"pg_name\": \"0\", \"pg_desc\": \"default_pg\", "
	    "\"backend_config\": \"cuda:nccl\", \"pg_size\": ");
	out_i64(o, s->W);
	OUT(o, ", \"ranks\": ");
	out_str(o, s->pg_ranks);
	OUT(o, "}], \"nccl_version\": \"2.21.5\"},\n"
	    "  \"record_shapes\": 1,\n  \"with_flops\": 1,\n  \"with_modules\": 1,\n"
	    "  \"profile_memory\": 1,\n"
	    "  \"cuda_runtime_version\": 12040,\n  \"cuda_driver_version\": 12040,\n"
	    "  \"traceEvents\": [\n");

	/* Metadata, first, as current Kineto writes it. */
	write_meta(o, "process_name", s->t0, rk->pid, 0, "name", "python3", 0);
	write_meta(o, "process_labels", s->t0, rk->pid, 0, "labels", "CPU", 0);
	write_meta(o, "process_sort_index", s->t0, rk->pid, 0, "sort_index", NULL, rk->pid);
	snprintf(buf, sizeof buf, "GPU %d", rk->dev);
	write_meta(o, "process_name", s->t0, rk->dev, 0, "name", "python3", 0);
	write_meta(o, "process_labels", s->t0, rk->dev, 0, "labels", buf, 0);
	write_meta(o, "process_sort_index", s->t0, rk->dev, 0, "sort_index", NULL, 5000000 + rk->dev);
	for (int i = 0; i < NSTREAM; i++) {
		snprintf(buf, sizeof buf, "stream %d ", stream_id[i]);
		write_meta(o, "thread_name", s->t0, rk->dev, stream_id[i], "name", buf, 0);
		write_meta(o, "thread_sort_index", s->t0, rk->dev, stream_id[i], "sort_index", NULL,
			   stream_id[i]);
	}
	snprintf(buf, sizeof buf, "thread %d (python3)", rk->tid[TH_MAIN]);
	write_meta(o, "thread_name", s->t0, rk->pid, rk->tid[TH_MAIN], "name", buf, 0);
	write_meta(o, "thread_sort_index", s->t0, rk->pid, rk->tid[TH_MAIN], "sort_index", NULL,
		   rk->tid[TH_MAIN]);
	snprintf(buf, sizeof buf, "thread %d (pt_autograd_0)", rk->tid[TH_BWD]);
	write_meta(o, "thread_name", s->t0, rk->pid, rk->tid[TH_BWD], "name", buf, 0);
	write_meta(o, "thread_sort_index", s->t0, rk->pid, rk->tid[TH_BWD], "sort_index", NULL,
		   rk->tid[TH_BWD]);
	rk->nm += 6 + 2 * NSTREAM + 4;
	rk->nevents += 6 + 2 * NSTREAM + 4;
}

static void write_step(struct sim *s, struct rank *rk)
{
	struct out *o = &rk->out;
	int64_t ann[NSTREAM][2];
	struct step_rec *sr;

	for (size_t i = 0; i < rk->ncev; i++) {
		const struct cev *e = &rk->cev[i];
		const char *name = e->sname ? e->sname : rk->arena + e->dname;

		if (e->ph == 'X') {
			write_x(o, cat_name[e->cat], name, rk->pid, rk->tid[e->th], e->ts, e->dur);
			rk->nx[e->cat]++;
		} else {
			OUT(o, "  {\n    \"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", "
			    "\"name\": \"[memory]\",\n    \"pid\": ");
			out_i64(o, rk->pid);
			OUT(o, ", \"tid\": ");
			out_i64(o, rk->tid[e->th]);
			OUT(o, ",\n    \"ts\": ");
			out_ts(o, e->ts);
			OUT(o, ",\n    \"args\": {\n      ");
			rk->ni++;
		}
		out_str(o, rk->arena + e->args);
		OUT(o, ARGS_END);
		rk->nevents++;
	}

	for (int i = 0; i < NSTREAM; i++) {
		ann[i][0] = INT64_MAX;
		ann[i][1] = INT64_MIN;
	}
	for (size_t i = 0; i < rk->nlch; i++) {
		const struct launch *l = &rk->lch[i];
		int sid = stream_id[l->stream];

		if (l->kid != NONE) {
			const struct kdef *k = &kdefs[l->kid];

			write_x(o, cat_name[k->cat], k->name, rk->dev, sid, l->g_ts, l->g_dur);
			OUT(o, "\"External id\": ");
			out_u64(o, l->ext);
			if (k->cat == C_KERNEL)
				OUT(o, ",      \"queued\": 0");
			OUT(o, ", \"device\": ");
			out_i64(o, rk->dev);
			OUT(o, ", \"context\": 1,      \"stream\": ");
			out_i64(o, sid);
			OUT(o, ", \"correlation\": ");
			out_u64(o, l->corr);
			if (k->cat == C_KERNEL)
				out_str(o, kstatic[l->kid]);
			if (l->extra != NOARGS) {
				OUT(o, ",      ");
				out_str(o, rk->arena + l->extra);
			}
			OUT(o, ARGS_END);
			write_flow(o, 0, l->corr, rk->dev, sid, l->g_ts);
			rk->nx[k->cat]++;
			rk->nf++;
			rk->nevents += 2;
			if (l->g_ts < ann[l->stream][0])
				ann[l->stream][0] = l->g_ts;
			if (l->g_ts + l->g_dur > ann[l->stream][1])
				ann[l->stream][1] = l->g_ts + l->g_dur;
		}
		write_x(o, "cuda_runtime", l->rt_name, rk->pid, rk->tid[l->th], l->rt_ts, l->rt_dur);
		OUT(o, "\"External id\": ");
		out_u64(o, l->ext);
		OUT(o, ",      \"cbid\": ");
		out_i64(o, l->cbid);
		OUT(o, ", \"correlation\": ");
		out_u64(o, l->corr);
		OUT(o, ARGS_END);
		rk->nx[C_RUNTIME]++;
		rk->nevents++;
		if (l->kid != NONE) {
			write_flow(o, 1, l->corr, rk->pid, rk->tid[l->th], l->rt_ts);
			rk->ns++;
			rk->nevents++;
		}
	}

	/* Kineto mirrors the step annotation on each stream it launched to. */
	for (int i = 0; i < NSTREAM; i++) {
		if (ann[i][0] == INT64_MAX)
			continue;
		write_x(o, "gpu_user_annotation", rk->arena + rk->cev[rk->step_idx].dname, rk->dev,
			stream_id[i], ann[i][0], ann[i][1] - ann[i][0]);
		OUT(o, "\"External id\": ");
		out_u64(o, rk->step_ext);
		OUT(o, ARGS_END);
		rk->nx[C_GPU_ANN]++;
		rk->nevents++;
	}

	rk->steps = grow(rk->steps, &rk->capsteps, rk->nsteps + 1, sizeof *rk->steps);
	sr = &rk->steps[rk->nsteps++];
	sr->number = s->step;
	sr->cpu_start = rk->cev[rk->step_idx].ts;
	sr->cpu_end = sr->cpu_start + rk->cev[rk->step_idx].dur;
	sr->gpu_start = ann[ST_COMP][0] < ann[ST_NCCL][0] ? ann[ST_COMP][0] : ann[ST_NCCL][0];
	sr->gpu_end = max64(ann[ST_COMP][1], ann[ST_NCCL][1]);
	if (sr->gpu_end > s->t_end)
		s->t_end = sr->gpu_end;
	if (sr->cpu_end > s->t_end)
		s->t_end = sr->cpu_end;
}

static void write_trailer(struct sim *s, struct rank *rk)
{
	struct out *o = &rk->out;
	int64_t end = s->t_end + 50 * US;

	OUT(o, "  {\n    \"ph\": \"X\", \"cat\": \"Trace\", \"ts\": ");
	out_ts(o, s->t0);
	OUT(o, ", \"dur\": ");
	out_ts(o, end - s->t0);
	OUT(o, ",\n    \"pid\": \"Spans\", \"tid\": \"PyTorch Profiler\",\n"
	    "    \"name\": \"PyTorch Profiler (0)\",\n    \"args\": {\n      \"Op count\": 0" ARGS_END);
	OUT(o, "  {\n    \"name\": \"process_sort_index\", \"ph\": \"M\", \"ts\": ");
	out_ts(o, s->t0);
	OUT(o, ",\n    \"pid\": \"Spans\", \"tid\": 0,\n    \"args\": {\n      \"sort_index\": 536870912"
	    ARGS_END);
	OUT(o, "  {\n    \"name\": \"Iteration Start: PyTorch Profiler\", \"ph\": \"i\", \"s\": \"g\",\n"
	    "    \"pid\": \"Traces\", \"tid\": \"Trace PyTorch Profiler\", \"ts\": ");
	out_ts(o, s->t0);
	OUT(o, "\n  },\n  {\n    \"name\": \"Record Window End\", \"ph\": \"i\", \"s\": \"g\",\n"
	    "    \"pid\": \"\", \"tid\": \"\", \"ts\": ");
	out_ts(o, end);
	/* The same name with --gzip, so the output gunzips to the plain bytes. */
	OUT(o, "\n  }\n  ],\n  \"traceName\": \"rank-");
	out_i64(o, rk->r);
	OUT(o, ".json");
	OUT(o, "\",\n  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": ");
	out_i64(o, s->t0 / 1000000000 * 1000000000);
	OUT(o, "\n}\n");
	rk->nx[C_TRACE]++;
	rk->nm++;
	rk->ni += 2;
	rk->nevents += 4;
}

/* ---------------------------------------------------------------------- */
/* Set-up, options, manifest. */

/* One block's forward operators for --kernels=k (5..200). */
static void build_ops(struct sim *s, int k)
{
	static const struct op base[11] = {
		{ OP_NORM, 0, 0 },
		{ OP_LINEAR, HIDDEN, 3 * HIDDEN },	/* wqkv */
		{ OP_MUL, 0, 0 },			/* rotary */
		{ OP_ATTN, 0, 0 },
		{ OP_LINEAR, HIDDEN, HIDDEN },		/* wo */
		{ OP_ADD, 0, 0 },			/* residual */
		{ OP_NORM, 0, 0 },
		{ OP_LINEAR, HIDDEN, 2 * FFN },		/* w13 */
		{ OP_SILU, 0, 0 },
		{ OP_LINEAR, FFN, HIDDEN },		/* w2 */
		{ OP_ADD, 0, 0 },			/* residual */
	};
	static const int drop[6] = { 2, 5, 10, 8, 6, 0 };
	int keep[11], n = 11;

	for (int i = 0; i < 11; i++)
		keep[i] = 1;
	for (int i = 0; i < 6 && n > k; i++, n--)
		keep[drop[i]] = 0;
	s->ops = xrealloc(NULL, (size_t)(k > n ? k : n) * sizeof *s->ops);
	s->nops = 0;
	for (int i = 0; i < 11; i++)
		if (keep[i])
			s->ops[s->nops++] = base[i];
	while (s->nops < k)
		s->ops[s->nops++] = (struct op){ OP_MUL, 0, 0 };
}

static void setup(struct sim *s)
{
	const struct opts *o = &s->o;
	size_t cap, len = 0;

	s->W = o->ranks;
	s->L = o->layers;
	s->step = FIRST_STEP;
	s->seq = 100;
	rng_seed(&s->rng, o->seed, 0);
	s->t0 = 1732900000000000000LL + rng_range(&s->rng, 0, 999999999999LL);
	build_ops(s, o->kernels);
	s->layer_numel = 4 * HIDDEN * HIDDEN + 3 * HIDDEN * FFN + 2 * HIDDEN;
	s->layer_pad = (s->layer_numel + s->W - 1) / s->W * s->W;
	s->shard = s->layer_pad / s->W;
	s->root_numel = 2 * VOCAB * HIDDEN + HIDDEN;
	s->opt_numel = (s->layer_pad * s->L + s->root_numel) / s->W;

	cap = (size_t)s->W * 8 + 8;
	s->pg_ranks = xrealloc(NULL, cap);
	len += (size_t)snprintf(s->pg_ranks, cap, "[");
	for (int r = 0; r < s->W; r++)
		len += (size_t)snprintf(s->pg_ranks + len, cap - len, "%s%d", r ? ", " : "", r);
	snprintf(s->pg_ranks + len, cap - len, "]");
	s->tmp = xrealloc(NULL, (size_t)s->W * sizeof *s->tmp);
	s->exp_ns = xrealloc(NULL, (size_t)s->W * sizeof *s->exp_ns);
	s->exp_idx = xrealloc(NULL, (size_t)s->W * sizeof *s->exp_idx);

	s->slow_step = o->slow_step;
	s->straggler = o->straggler;
	s->exposed_step = o->exposed_step;
	s->exposed_layer = o->exposed_layer;
	s->stall_step = o->stall_step;
	s->stall_rank = o->stall_rank;
	s->stall_layer = s->L > 1 ? 1 : 0;

	s->rk = xrealloc(NULL, (size_t)s->W * sizeof *s->rk);
	memset(s->rk, 0, (size_t)s->W * sizeof *s->rk);
	FOR_RANKS(s, rk) {
		int r = (int)(rk - s->rk);

		rk->change = o->change;

		rk->r = r;
		rk->dev = r % NUM_NODE_GPUS;
		rk->pid = 12345 + r;
		rk->tid[TH_MAIN] = rk->pid;
		rk->tid[TH_BWD] = rk->pid + 517;
		rng_seed(&rk->rng, o->seed, 1 + (uint64_t)r);
		rk->cpu = s->t0 + 1200 * US + rng_range(&rk->rng, 0, 300 * US);
		rk->corr = 1000 + (uint64_t)rng_range(&rk->rng, 0, 5000);
		rk->ext = 100;
		rk->pyid = 100;
		rk->ag_end = xrealloc(NULL, (size_t)s->L * sizeof *rk->ag_end);
		for (int l = 0; l < s->L; l++)
			rk->ag_end[l] = 0;
		rk->mem_alloc = s->opt_numel * 16;
		rk->mem_resv = (rk->mem_alloc + (1LL << 30)) / (2LL << 20) * (2LL << 20);
	}

	/* The stall is 6% of a nominal step: long, yet the step stays under
	   1.1x the median, so that only the slow step is an outlier. */
	{
		int64_t fwd = 0, bwd = 0, nominal;

		for (int j = 0; j < s->nops; j++) {
			const struct op *op = &s->ops[j];

			switch (op->kind) {
			case OP_LINEAR:
				fwd += gemm_ns(2 * TOKENS * op->k * op->n);
				bwd += 2 * gemm_ns(2 * TOKENS * op->k * op->n);
				break;
			case OP_ATTN:
				fwd += 4 * TOKENS * TOKENS * HIDDEN / 2 / ATTN_FLOP_PER_NS;
				bwd += 4 * TOKENS * TOKENS * HIDDEN / 2 * 5 / 2 / ATTN_BWD_FLOP_PER_NS;
				break;
			default:
				fwd += mem_ns(TOKENS * HIDDEN * 6);
				bwd += mem_ns(TOKENS * HIDDEN * 6);
				break;
			}
		}
		nominal = s->L * (fwd + bwd + 3 * mem_ns(s->layer_pad * 4))
			+ 3 * gemm_ns(2 * TOKENS * HIDDEN * VOCAB) + mem_ns(s->opt_numel * 64);
		s->stall_ns = nominal * 6 / 100;
		/* Not prefetched, the all-gather loses the overlap with the
		   previous layer (up to fwd) and is slower by the extra: the
		   step grows by about 4.5%, at most 3 ms. */
		{
			int64_t xfer = coll_xfer(s, AG), hidden = xfer < fwd ? xfer : fwd;
			int64_t grow_ns = nominal * 45 / 1000 < 3 * MS ? nominal * 45 / 1000 : 3 * MS;

			s->exposed_extra_ns = max64(grow_ns - hidden, 200 * US);
		}
	}
}

static int open_rank(struct sim *s, struct rank *rk)
{
	const char *dir = s->o.out;
	size_t n = strlen(dir) + 64;
	char name[48];

	snprintf(name, sizeof name, "rank-%d.json%s", rk->r, s->o.gzip ? ".gz" : "");
	rk->path = xrealloc(NULL, n);
	snprintf(rk->path, n, "%s/%s", dir, name);
	rk->out.cap = (size_t)(64 << 20) / (size_t)s->W;
	if (rk->out.cap > (1 << 20))
		rk->out.cap = 1 << 20;
	if (rk->out.cap < (64 << 10))
		rk->out.cap = 64 << 10;
	rk->out.buf = xrealloc(NULL, rk->out.cap);
	errno = 0;
	if (s->o.gzip) {
		rk->out.gz = gzopen(rk->path, "wb6");
		if (!rk->out.gz)
			return errno ? errno : ENOMEM;
		gzbuffer(rk->out.gz, 256 << 10);
	} else {
		rk->out.fp = fopen(rk->path, "wb");
		if (!rk->out.fp)
			return errno;
	}
	return 0;
}

static int close_rank(struct rank *rk)
{
	out_flush(&rk->out);
	if (rk->out.gz) {
		int zr = gzclose(rk->out.gz);

		if (zr != Z_OK && !rk->out.err)
			rk->out.err = zr == Z_ERRNO && errno ? errno : EIO;
	} else if (rk->out.fp) {
		if (fclose(rk->out.fp) != 0 && !rk->out.err)
			rk->out.err = errno ? errno : EIO;
	}
	return rk->out.err;
}

static void manifest_counts(FILE *f, const struct rank *rk)
{
	fprintf(f, "\"counts\": {\"X\": {");
	for (int c = 0; c < NCAT; c++)
		fprintf(f, "%s\"%s\": %" PRIu64, c ? ", " : "", cat_name[c], rk->nx[c]);
	fprintf(f, "}, \"M\": %" PRIu64 ", \"i\": %" PRIu64 ", \"s\": %" PRIu64 ", \"f\": %" PRIu64
		", \"events\": %" PRIu64 "}", rk->nm, rk->ni, rk->ns, rk->nf, rk->nevents);
}

static int write_manifest(struct sim *s, const char *path)
{
	FILE *f = fopen(path, "w");
	const struct rank *r0 = &s->rk[0];
	size_t nsteps = r0->nsteps;
	int64_t flops = nsteps ? r0->flops_per_step / (int64_t)nsteps : 0;

	if (!f)
		return errno;
	fprintf(f, "{\n  \"generator\": \"gen-trace\",\n  \"seed\": %" PRIu64 ",\n  \"ranks\": %d,\n"
		"  \"world_size\": %d,\n  \"layers\": %d,\n  \"kernels_per_layer\": %d,\n"
		"  \"first_step\": %d,\n  \"step_count\": %zu,\n",
		s->o.seed, s->W, s->W, s->L, s->nops, FIRST_STEP, nsteps);
	fprintf(f, "  \"model\": {\"hidden\": %lld, \"ffn\": %lld, \"vocab\": %lld, "
		"\"tokens_per_rank\": %lld, \"layer_params\": %" PRId64 ", \"params\": %" PRId64 "},\n",
		HIDDEN, FFN, VOCAB, TOKENS, s->layer_numel, s->layer_numel * s->L + s->root_numel);
	fprintf(f, "  \"device\": \"NVIDIA H100 80GB HBM3\",\n  \"peak_bf16_tflops\": 989,\n");
	fprintf(f, "  \"op_flops_per_step_per_rank\": %" PRId64 ",\n"
		"  \"op_flops_per_step\": %" PRId64 ",\n", flops, flops * s->W);

	if (s->slow_step >= FIRST_STEP && s->slow_step < FIRST_STEP + (int)nsteps)
		fprintf(f, "  \"slow_step\": {\"number\": %d, \"compute_factor_pct\": 160},\n", s->slow_step);
	else
		fprintf(f, "  \"slow_step\": null,\n");
	if (s->straggler >= 0)
		fprintf(f, "  \"straggler_rank\": %d,\n  \"straggler_factor_pct\": 115,\n", s->straggler);
	else
		fprintf(f, "  \"straggler_rank\": null,\n");
	if (s->exposed_done == 2) {
		fprintf(f, "  \"exposed_allgather\": {\"step\": %d, \"layer\": \"layers.%d\", "
			"\"phase\": \"forward\", \"rank\": 0, \"seq\": %" PRIu64 ", \"comm_start_ns\": %"
			PRId64 ", \"comm_end_ns\": %" PRId64 ", \"exposed_ns\": %" PRId64
			", \"exposed_ns_by_rank\": [",
			s->exposed_step, s->exposed_layer, s->exp_seq, s->exp_start0, s->exp_end, s->exp_ns[0]);
		for (int r = 0; r < s->W; r++)
			fprintf(f, "%s%" PRId64, r ? ", " : "", s->exp_ns[r]);
		fprintf(f, "]},\n");
	} else {
		fprintf(f, "  \"exposed_allgather\": null,\n");
	}
	if (s->stall_done == 2)
		fprintf(f, "  \"stall\": {\"step\": %d, \"rank\": %d, \"before\": \"layers.%d\", "
			"\"host_ns\": %" PRId64 ", \"gap_start_ns\": %" PRId64 ", \"gap_end_ns\": %" PRId64
			", \"gap_ns\": %" PRId64 ", \"next_largest_gap_ns\": %" PRId64 "},\n",
			s->stall_step, s->stall_rank, s->stall_layer, s->stall_ns, s->gap_start, s->gap_end,
			s->gap_end - s->gap_start, s->gap_next);
	else
		fprintf(f, "  \"stall\": null,\n");

	fprintf(f, "  \"per_rank\": [");
	FOR_RANKS(s, rk) {
		const char *base = strrchr(rk->path, '/');

		fprintf(f, "%s\n    {\"rank\": %d, \"device\": %d, \"pid\": %d, \"main_tid\": %d, "
			"\"autograd_tid\": %d, \"file\": \"%s\", \"bytes\": %" PRIu64 ",\n     ",
			rk->r ? "," : "", rk->r, rk->dev, rk->pid, rk->tid[TH_MAIN], rk->tid[TH_BWD],
			base ? base + 1 : rk->path, rk->out.bytes);
		manifest_counts(f, rk);
		fprintf(f, ",\n     \"steps\": [");
		for (size_t i = 0; i < rk->nsteps; i++) {
			const struct step_rec *sr = &rk->steps[i];

			fprintf(f, "%s\n       {\"number\": %d, \"cpu_start_ns\": %" PRId64 ", \"cpu_end_ns\": %"
				PRId64 ", \"gpu_start_ns\": %" PRId64 ", \"gpu_end_ns\": %" PRId64 "}",
				i ? "," : "", sr->number, sr->cpu_start, sr->cpu_end, sr->gpu_start, sr->gpu_end);
		}
		fprintf(f, "]}");
	}
	fprintf(f, "\n  ]\n}\n");
	if (ferror(f)) {
		int e = errno ? errno : EIO;

		fclose(f);
		return e;
	}
	return fclose(f) ? (errno ? errno : EIO) : 0;
}

static void sim_free(struct sim *s)
{
	if (s->rk) {
		FOR_RANKS(s, rk) {
			free(rk->ag_end);
			free(rk->cev);
			free(rk->lch);
			free(rk->arena);
			free(rk->out.buf);
			free(rk->path);
			free(rk->steps);
		}
	}
	free(s->rk);
	free(s->ops);
	free(s->pg_ranks);
	free(s->tmp);
	free(s->exp_ns);
	free(s->exp_idx);
	for (int i = 0; i < NKID; i++)
		free(kstatic[i]);
}

#define UNSET (-2)
#define HELP (-1)

static int usage(const char *why, const char *arg)
{
	if (why)
		fprintf(stderr, "gen-trace: %s%s%s\n", why, arg ? ": " : "", arg ? arg : "");
	fputs(usage_text, why ? stderr : stdout);
	return 2;
}

/* Parses a decimal in [lo, hi]; "none" gives -1 when allow_none. */
static int parse_num(const char *v, long long lo, long long hi, int allow_none, long long *out)
{
	char *end;
	long long x;

	if (allow_none && strcmp(v, "none") == 0) {
		*out = -1;
		return 0;
	}
	if (!*v)
		return -1;
	errno = 0;
	x = strtoll(v, &end, 10);
	if (errno || *end || x < lo || x > hi)
		return -1;
	*out = x;
	return 0;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct {
		const char *name;
		long long lo, hi;
		int none;
	} num[] = {
		{ "ranks", 1, 512, 0 }, { "steps", 1, 1000000, 0 }, { "layers", 1, 256, 0 },
		{ "kernels", 5, 200, 0 }, { "target-mb", 1, 100000, 0 },
		{ "slow-step", FIRST_STEP, 100000000, 1 }, { "straggler", 0, 511, 1 },
		{ "exposed-step", FIRST_STEP, 100000000, 1 }, { "exposed-layer", 0, 255, 0 },
		{ "stall-step", FIRST_STEP, 100000000, 1 }, { "stall-rank", 0, 511, 0 },
	};
	long long val[sizeof num / sizeof num[0]];

	for (size_t i = 0; i < sizeof num / sizeof num[0]; i++)
		val[i] = UNSET;
	memset(o, 0, sizeof *o);
	o->seed = 1;
	o->inject = 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *eq = strchr(a, '=');
		size_t klen = eq ? (size_t)(eq - a) : strlen(a);
		int found = 0;

		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(NULL, NULL);
			return HELP;
		}
		if (strcmp(a, "--gzip") == 0) {
			o->gzip = 1;
			continue;
		}
		if (strcmp(a, "--no-inject") == 0) {
			o->inject = 0;
			continue;
		}
		if (strncmp(a, "--", 2) != 0 || !eq)
			return usage("unknown argument", a);
		if (klen == 6 && strncmp(a, "--seed", 6) == 0) {
			char *end;

			errno = 0;
			o->seed = strtoull(eq + 1, &end, 10);
			if (errno || *end || !eq[1] || eq[1] == '-')
				return usage("bad seed", a);
			continue;
		}
		if (klen == 5 && strncmp(a, "--out", 5) == 0) {
			if (!eq[1])
				return usage("empty --out", NULL);
			o->out = eq + 1;
			continue;
		}
		if (klen == 8 && strncmp(a, "--change", 8) == 0) {
			static const char *const names[] = { "comm2", "gemm1.5", "no-host-wait" };

			o->change = CH_NONE;
			for (int c = 0; c < 3; c++)
				if (strcmp(eq + 1, names[c]) == 0)
					o->change = CH_COMM2 + c;
			if (o->change == CH_NONE)
				return usage("bad --change (comm2, gemm1.5 or no-host-wait)", a);
			continue;
		}
		if (klen == 10 && strncmp(a, "--manifest", 10) == 0) {
			if (!eq[1])
				return usage("empty --manifest", NULL);
			o->manifest = eq + 1;
			continue;
		}
		for (size_t k = 0; k < sizeof num / sizeof num[0]; k++) {
			if (klen - 2 == strlen(num[k].name) && strncmp(a + 2, num[k].name, klen - 2) == 0) {
				if (parse_num(eq + 1, num[k].lo, num[k].hi, num[k].none, &val[k]))
					return usage("bad value", a);
				found = 1;
				break;
			}
		}
		if (!found)
			return usage("unknown option", a);
	}
	if (!o->out)
		return usage("--out=DIR is required", NULL);
	o->ranks = val[0] == UNSET ? 2 : (int)val[0];
	o->steps = val[1] == UNSET ? 8 : (int)val[1];
	o->layers = val[2] == UNSET ? 4 : (int)val[2];
	o->kernels = val[3] == UNSET ? 8 : (int)val[3];
	o->target_mb = val[4] == UNSET ? 0 : (long)val[4];
	o->slow_step = val[5] != UNSET ? (int)val[5] : o->inject ? 15 : -1;
	o->straggler = val[6] != UNSET ? (int)val[6] : o->inject && o->ranks > 1 ? o->ranks - 1 : -1;
	o->exposed_step = val[7] != UNSET ? (int)val[7] : o->inject ? 12 : -1;
	o->exposed_layer = val[8] != UNSET ? (int)val[8] : o->layers > 2 ? 2 : o->layers - 1;
	o->stall_step = val[9] != UNSET ? (int)val[9] : o->inject ? 13 : -1;
	o->stall_rank = val[10] != UNSET ? (int)val[10] : 0;
	if (o->straggler >= o->ranks)
		return usage("--straggler is not a rank", NULL);
	if (o->stall_rank >= o->ranks)
		return usage("--stall-rank is not a rank", NULL);
	if (o->exposed_layer >= o->layers)
		return usage("--exposed-layer is not a layer", NULL);
	return 0;
}

int main(int argc, char **argv)
{
	struct sim sim;
	struct sim *s = &sim;
	uint64_t target, header = 0;
	int rc = 0, err;

	memset(s, 0, sizeof *s);
	err = parse_args(argc, argv, &s->o);
	if (err)
		return err == HELP ? 0 : err;
	kstatic_init();
	setup(s);

	if (mkdir(s->o.out, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "gen-trace: %s: %s\n", s->o.out, strerror(errno));
		sim_free(s);
		return 1;
	}
	FOR_RANKS(s, rk) {
		err = open_rank(s, rk);
		if (err) {
			fprintf(stderr, "gen-trace: %s: %s\n", rk->path, strerror(err));
			FOR_RANKS(s, other)
				if (other < rk)
					close_rank(other);
			sim_free(s);
			return 1;
		}
		write_header(s, rk);
	}
	header = s->rk[0].out.bytes;

	target = (uint64_t)s->o.target_mb * 1000000;
	for (;;) {
		size_t done = s->rk[0].nsteps;
		int failed = 0;

		if (target) {
			uint64_t b = s->rk[0].out.bytes, per = done ? (b - header) / done : 0;

			if (done && b + per / 2 >= target)
				break;
		} else if (done >= (size_t)s->o.steps) {
			break;
		}
		FOR_RANKS(s, rk)
			failed |= rk->out.err != 0;
		if (failed)
			break;
		sim_step(s);
		s->step++;
	}

	FOR_RANKS(s, rk) {
		write_trailer(s, rk);
		err = close_rank(rk);
		if (err) {
			fprintf(stderr, "gen-trace: %s: %s\n", rk->path, strerror(err));
			rc = 1;
		}
	}
	if (!rc && s->o.manifest) {
		err = write_manifest(s, s->o.manifest);
		if (err) {
			fprintf(stderr, "gen-trace: %s: %s\n", s->o.manifest, strerror(err));
			rc = 1;
		}
	}
	sim_free(s);
	return rc;
}
