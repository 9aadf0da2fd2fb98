/*
 * link — connects CPU launch calls to the GPU activity they launched.
 *
 * Primary source: args.correlation, present on both the cuda_runtime /
 * cuda_driver launch call and its kernel, memcpy or memset.  Second source:
 * ac2g (also the older async_cpu_to_gpu) flow pairs, for activity whose
 * correlation found no launch.  After link_build() a GPU activity's
 * event.link is its launch call and a launch's event.link is the earliest
 * activity it launched; everything else keeps EV_NONE.  Flow endpoints are
 * bound to events (flow.event): 's' and 't' to the slice enclosing them, 'f'
 * to the enclosing slice when bp == "e", else to the next slice starting at
 * or after it; endpoints with nothing to bind to are counted in
 * trace->warn.unbound_flows.
 *
 * Runs inside trace_finalize(), after the events are sorted and indexed.
 * O(n + f log n) for n events and f flow endpoints.
 */
#ifndef GANTTY_LINK_H
#define GANTTY_LINK_H

struct trace;

/* Builds the links described above.  Cannot fail. */
void link_build(struct trace *t);

#endif
