/*
 * fsdp2 — the FSDP2 fixture trace of test_layers.c and test_view.c (each
 * test is its own program, so the trace is written by static functions in
 * this header, with jtrace.h).
 *
 * A small FSDP2 step: the root and two units, forward on the main thread,
 * backward on the autograd thread.
 *
 *   main   [2,8) FSDP::pre_forward ()            (root)
 *            [3,7) FSDP::root_pre_forward
 *          [9,76) nn.Module: Block_0   (python_function; FSDP2_MODULE_SPAN only)
 *          [10,60) FSDP::pre_forward (layers.0)
 *            [12,20) all_gather (layers.0): launch 14 -> AG0  nccl [20,50)
 *            [22,30) all_gather_copy_out (layers.0): 24 -> copy0 [50,55)
 *            [35,45) all_gather (layers.1): 38 -> AG1 nccl [55,85)  (prefetch)
 *          launch 62 -> F0 [55,100)
 *          [70,75) FSDP::post_forward (layers.0)
 *          [80,90) FSDP::pre_forward (layers.1)
 *            [82,86) all_gather_copy_out (layers.1): 83 -> copy1 [100,105)
 *          launch 92 -> F1 [105,150)
 *          [95,100) FSDP::post_forward (layers.1)
 *          [150,160) FSDP::post_forward               (root, bare form)
 *          launch 500 -> AR nccl [500,520)             (no hook owns it)
 *   autograd
 *          [200,220) FSDP::pre_backward (layers.1)
 *            [202,210) all_gather (layers.1): 204 -> AG1b nccl [230,260)
 *            [211,219) FSDP::backward_prefetch for layers.0
 *              [212,218) all_gather (layers.0): 214 -> AG0b nccl [260,290)
 *          launch 222 -> B1 [260,300)
 *          [230,235) post_backward_reshard (layers.1)
 *          [236,250) post_backward_reduce (layers.1): 240 -> RS1 nccl [300,340)
 *          [260,270) FSDP::pre_backward (layers.0)
 *          launch 272 -> B0 [310,330)
 *          [280,282) post_backward_accumulate (layers.0)
 *          [285,295) post_backward_reduce (layers.0): 290 -> RS0 nccl [340,380)
 *          [300,310) FSDP::root_post_backward
 *
 * U_comp = [50,150) + [260,300) + [310,330);
 * U_comm = [20,50) + [55,85) + [230,290) + [300,380) + [500,520).
 */
#ifndef GANTTY_TESTS_FSDP2_H
#define GANTTY_TESTS_FSDP2_H

#include "jtrace.h"

/* Whether the trace has the nn.Module span around layers.0's forward. */
enum fsdp2_module {
	FSDP2_PLAIN,
	FSDP2_MODULE_SPAN,
};

/* Writes the FSDP2 step and loads it into t (asserting success). */
static J_UNUSED void
fsdp2_trace(struct trace *t, enum fsdp2_module module_span)
{
	j_begin();
	step(1, 0, 1000);
	ann("FSDP::pre_forward ()", 1, 2, 8);
	ann("FSDP::root_pre_forward", 1, 3, 7);
	if (module_span == FSDP2_MODULE_SPAN)
		cpu("python_function", "nn.Module: Block_0", 1, 9, 67);
	ann("FSDP::pre_forward (layers.0)", 1, 10, 60);
	ann("FSDP::all_gather (layers.0)", 1, 12, 20);
	kernel(1, 14, "ncclDevKernel_AllGather_RING_LL", 20, 50);
	ann("FSDP::all_gather_copy_out (layers.0)", 1, 22, 30);
	kernel(1, 24, "copy_out_0", 50, 55);
	ann("FSDP::all_gather (layers.1)", 1, 35, 45);
	kernel(1, 38, "ncclDevKernel_AllGather_RING_LL", 55, 85);
	kernel(1, 62, "gemm_fwd_0", 55, 100);
	ann("FSDP::post_forward (layers.0)", 1, 70, 75);
	ann("FSDP::pre_forward (layers.1)", 1, 80, 90);
	ann("FSDP::all_gather_copy_out (layers.1)", 1, 82, 86);
	kernel(1, 83, "copy_out_1", 100, 105);
	kernel(1, 92, "gemm_fwd_1", 105, 150);
	ann("FSDP::post_forward (layers.1)", 1, 95, 100);
	ann("FSDP::post_forward", 1, 150, 160);
	kernel(1, 500, "ncclDevKernel_AllReduce_RING_LL", 500, 520);

	ann("FSDP::pre_backward (layers.1)", 2, 200, 220);
	ann("FSDP::all_gather (layers.1)", 2, 202, 210);
	kernel(2, 204, "ncclDevKernel_AllGather_RING_LL", 230, 260);
	ann("FSDP::backward_prefetch for layers.0", 2, 211, 219);
	ann("FSDP::all_gather (layers.0)", 2, 212, 218);
	kernel(2, 214, "ncclDevKernel_AllGather_RING_LL", 260, 290);
	kernel(2, 222, "gemm_bwd_1", 260, 300);
	ann("FSDP::post_backward_reshard (layers.1)", 2, 230, 235);
	ann("FSDP::post_backward_reduce (layers.1)", 2, 236, 250);
	kernel(2, 240, "ncclDevKernel_ReduceScatter_RING_LL", 300, 340);
	ann("FSDP::pre_backward (layers.0)", 2, 260, 270);
	kernel(2, 272, "gemm_bwd_0", 310, 330);
	ann("FSDP::post_backward_accumulate (layers.0)", 2, 280, 282);
	ann("FSDP::post_backward_reduce (layers.0)", 2, 285, 295);
	kernel(2, 290, "ncclDevKernel_ReduceScatter_RING_LL", 340, 380);
	ann("FSDP::root_post_backward", 2, 300, 310);
	j_load(t);
}

#endif
