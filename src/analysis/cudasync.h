/*
 * cudasync — the waits a trace records: Kineto's cuda_sync rows (written
 * with CUPTI's synchronisation activity, PyTorch 2.3 / Kineto 2024 on,
 * when the profiler records them) resolved to the GPU activity waited for
 * and what waited for it.
 *
 *   "Stream Wait Event" (cudaStreamWaitEvent; args stream,
 *            wait_on_stream, wait_on_cuda_event_record_corr_id): the first
 *            activity of stream launched after the wait call waits for the
 *            last activity of wait_on_stream launched before the
 *            cudaEventRecord call of that correlation;
 *   "Event Sync" (cudaEventSynchronize, with the same wait args): the call
 *            of the row's correlation waits for that activity;
 *   "Stream Sync" (cudaStreamSynchronize; args stream): the call of the
 *            row's correlation waits for the last activity of stream
 *            launched before the call.
 * "Context Sync" rows and rows whose wait args are -1 (the event recorded
 * nothing) or name calls or streams the trace does not have are counted,
 * not resolved.  A stream is a GPU track's tid; "launched before" compares
 * the launch calls' starts (activities without a launch call are left
 * out).
 *
 * Ownership: a cudasync owns its array.  Cost: O(R log A + C log C) for R
 * rows, A activities and C runtime calls, and one pass over the trace's
 * events to find the rows (none of it when the trace has no cuda_sync
 * category).
 */
#ifndef GANTTY_CUDASYNC_H
#define GANTTY_CUDASYNC_H

#include <stddef.h>
#include <stdint.h>

struct metrics;

enum cudasync_kind {
	CUDASYNC_STREAM_WAIT = 0,       /* waiter: a GPU activity */
	CUDASYNC_EVENT_SYNC,            /* waiter: a runtime call */
	CUDASYNC_STREAM_SYNC,           /* waiter: a runtime call */
};

struct cudasync_wait {
	uint32_t waited;                /* the GPU activity waited for (event) */
	uint32_t waiter;                /* what waited (event) */
	uint8_t kind;                   /* enum cudasync_kind */
};

struct cudasync {
	struct cudasync_wait *v;        /* by waiter, then waited */
	size_t n;
	size_t rows;                    /* cuda_sync rows of the device */
	size_t stream_wait_rows;        /* of them Stream Wait Event */
	size_t unresolved;              /* rows not resolved (see the top) */
};

/*
 * Resolves the cuda_sync rows of device d's trace that are d's (args.device)
 * into cs (overwritten).  Cannot fail.
 */
void cudasync_build(struct cudasync *cs, const struct metrics *d);
/* Frees what cs owns; cs may be zeroed. */
void cudasync_free(struct cudasync *cs);

#endif
