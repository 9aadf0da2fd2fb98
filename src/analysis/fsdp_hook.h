/*
 * fsdp_hook — the names of FSDP2's (fully_shard) hook annotations,
 * "FSDP::<hook> (<fqn>)", which layers.h turns into layers.
 */
#ifndef GANTTY_FSDP_HOOK_H
#define GANTTY_FSDP_HOOK_H

#include <stddef.h>

enum fsdp_hook {
	FSDP_HOOK_NONE = 0,
	FSDP_HOOK_PRE_FWD,
	FSDP_HOOK_POST_FWD,
	FSDP_HOOK_PRE_BWD,
	FSDP_HOOK_POST_BWD,     /* post_backward_accumulate, _reshard, _reduce */
	FSDP_HOOK_OTHER,        /* all_gather, all_gather_copy_out, ... */
};

/*
 * Parses an FSDP2 hook annotation: returns its hook (FSDP_HOOK_NONE if name
 * is not one) and its fqn in [*fqn, *fqn + *len).  "FSDP::<hook> (<fqn>)" with
 * hook an identifier and fqn the text in the last parentheses; the root
 * module has an empty fqn, and current PyTorch then writes the bare
 * "FSDP::<hook>", which is recognised for the hooks FSDP2 has.  Names such
 * as "FSDP::root_pre_forward" or "FSDP::backward_prefetch for layers.0" are
 * not hooks of a unit.
 */
enum fsdp_hook fsdp_hook_parse(const char *name, const char **fqn, size_t *len);

#endif
