/* fsdp_hook — FSDP2's hook annotation names; see fsdp_hook.h. */
#include "config.h"

#include <string.h>

#include "analysis/fsdp_hook.h"

enum fsdp_hook
fsdp_hook_parse(const char *name, const char **fqn, size_t *len)
{
	static const char *const bare[] = {
		"pre_forward", "post_forward", "pre_backward",
		"post_backward_accumulate", "post_backward_reshard",
		"post_backward_reduce", "all_gather", "all_gather_copy_out",
	};
	const char *r, *open = NULL, *hook_end;
	size_t rlen, hlen;

	if (strncmp(name, "FSDP::", 6) != 0)
		return FSDP_HOOK_NONE;
	r = name + 6;
	rlen = strlen(r);
	if (rlen > 0 && r[rlen - 1] == ')') {
		for (const char *p = r; p < r + rlen - 1; p++)
			if (*p == '(')
				open = p;
		if (open == NULL)
			return FSDP_HOOK_NONE;
		for (hook_end = open; hook_end > r && hook_end[-1] == ' '; hook_end--)
			;
		hlen = (size_t)(hook_end - r);
		if (hlen == 0)
			return FSDP_HOOK_NONE;
		for (size_t i = 0; i < hlen; i++) {
			char ch = r[i];

			if (!(ch == '_' || (ch >= 'a' && ch <= 'z') ||
			    (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')))
				return FSDP_HOOK_NONE;
		}
		*fqn = open + 1;
		*len = (size_t)(r + rlen - 1 - (open + 1));
	} else {
		size_t i;

		for (i = 0; i < sizeof bare / sizeof bare[0]; i++)
			if (strcmp(r, bare[i]) == 0)
				break;
		if (i == sizeof bare / sizeof bare[0])
			return FSDP_HOOK_NONE;
		hlen = rlen;
		*fqn = r + rlen;
		*len = 0;
	}
	if (hlen == 11 && strncmp(r, "pre_forward", 11) == 0)
		return FSDP_HOOK_PRE_FWD;
	if (hlen == 12 && strncmp(r, "post_forward", 12) == 0)
		return FSDP_HOOK_POST_FWD;
	if (hlen == 12 && strncmp(r, "pre_backward", 12) == 0)
		return FSDP_HOOK_PRE_BWD;
	if (hlen >= 13 && strncmp(r, "post_backward", 13) == 0)
		return FSDP_HOOK_POST_BWD;
	return FSDP_HOOK_OTHER;
}

