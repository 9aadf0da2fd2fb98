/*
 * comm — which GPU kernels are communication (SPEC 2), and the collective
 * each one runs.
 *
 * A kernel (category kind CAT_KERNEL; memcpy and memset are MEMORY, never
 * COMM) is COMM when the first of these rules takes it, else COMPUTE:
 *
 *  1. its name holds one of the needles of the name table (COMM_NAME_RULES
 *     in comm.c, case-insensitive; every rule with the source of the names
 *     it matches): NCCL, RCCL, DeepEP, torch symmetric memory, vLLM's and
 *     TensorRT-LLM's custom all-reduce, NVSHMEM, MSCCL++, HCCL (oneCCL's
 *     kernels have no name of their own: rule 3 finds them);
 *  2. its name matches the user's --comm-pattern (POSIX ERE);
 *  3. its launch call (event.link) lies inside a CPU span named
 *     record_param_comms, or starting "c10d::" or "nccl:", on the launching
 *     thread: a collective of a library none of the names know, launched
 *     by torch.distributed.
 *
 * Each COMM kernel also gets the collective's arguments (struct comm_args:
 * collective name, group, dtype, message sizes): its own, where the kernel
 * carries them (newer PyTorch), else those of the CPU op enclosing its
 * launch call: the innermost record_param_comms with collective args, else
 * the innermost enclosing event with any (what PyTorch writes).  They are
 * stored in the kernel's args record (event_args.comm), so every reader
 * (the cross-rank matching, the bandwidth, the lanes) sees one answer.
 *
 * trace_finalize() runs comm_classify() without a pattern; a caller with a
 * pattern runs it again (it starts from the names each time, so it may run
 * any number of times, on a trace read from the cache too).
 */
#ifndef GANTTY_COMM_H
#define GANTTY_COMM_H

#include <regex.h>
#include <stdint.h>

#include "model/event.h"

struct trace;

/* The report key of rule r ("nccl", ..., "launch_context"). */
const char *comm_rule_key(enum comm_rule r);
/*
 * The name rule (1 above) that takes a kernel named name, or
 * COMM_RULE_NONE.  O(len) per needle.
 */
enum comm_rule comm_name_rule(const char *name);
/*
 * Classifies every kernel of t by the rules above (pattern NULL: none),
 * sets the COMM kernels' collective args and counts in t->comm_rules[r]
 * the kernels rule r took.  Needs trace_finalize()'s tracks and links.
 * O(n) for the n events, plus one regexec() per distinct kernel name.
 */
void comm_classify(struct trace *t, const regex_t *pattern);

#endif
