/*
 * launch — what launched a GPU activity, and what a CPU event launched:
 * the link between the two sides of the viewer's event details.
 *
 * A kernel (GPU activity) is linked to its launch call (link.h); the launch
 * call runs inside an aten op, inside a module, inside a layer.  The context
 * of an event: for a GPU activity, its launch call and the innermost
 * cpu_op, the innermost module (a python_function "nn.Module: ..." frame,
 * else a user annotation other than ProfilerStep) and the innermost layer
 * (layers.h, by CPU span) that hold the launch's start; for a CPU event, the
 * same around the event itself.  What a CPU event launched: every GPU
 * activity linked to a launch call inside it (itself or its descendants
 * on its thread), counted with their total GPU time and the longest few.
 */
#ifndef GANTTY_LAUNCH_H
#define GANTTY_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

struct layer;
struct trace;

#define LAUNCH_TOP 3
#define LAUNCH_SCAN 1000000     /* events looked at under one CPU event */

struct launch_context {
	uint32_t launch;        /* the launch call, or EV_NONE */
	uint32_t op;            /* the innermost cpu_op around it, or EV_NONE */
	uint32_t module;        /* the innermost module or annotation, or EV_NONE */
	long layer;             /* index into the layers, or -1 */
};

struct launched {
	uint64_t kernels;       /* GPU activities launched */
	int64_t gpu_ns;         /* their total duration */
	uint32_t top[LAUNCH_TOP]; /* the longest, EV_NONE past the last */
	int partial;            /* more than LAUNCH_SCAN events: counted in part */
};

/*
 * The context of event ev of t (see above); layers[0..nlayers) are the
 * analysis' layers of t's device.  O(log n + k) for the k events around.
 */
void launch_context(const struct trace *t, const struct layer *layers,
    size_t nlayers, uint32_t ev, struct launch_context *out);
/*
 * What CPU event ev of t launched (nothing for other events).  O(log n +
 * m) for the m events inside it on its thread, at most LAUNCH_SCAN.
 */
void launch_kernels(const struct trace *t, uint32_t ev, struct launched *out);

#endif
