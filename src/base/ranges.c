#include "config.h"

#include "base/ranges.h"

#include <inttypes.h>

void
ranges_begin(struct ranges *r, FILE *out, size_t max_runs)
{
	r->out = out;
	r->max_runs = max_runs;
	r->open = 0;
	r->lo = r->hi = 0;
	r->runs = r->n = r->left = 0;
}

/* Writes the open run lo..hi, or counts its values when it is past max_runs. */
static void
flush(struct ranges *r)
{
	if (!r->open)
		return;
	r->open = 0;
	if (r->max_runs > 0 && r->runs > r->max_runs) {
		r->left += (size_t)((uint64_t)r->hi - (uint64_t)r->lo) + 1;
		return;
	}
	fprintf(r->out, "%s%" PRId64, r->runs > 1 ? ", " : "", r->lo);
	if (r->hi > r->lo)
		fprintf(r->out, "%s%" PRId64, r->lo < 0 ? " to " : "-", r->hi);
}

void
ranges_add(struct ranges *r, int64_t v)
{
	if (r->open && v <= r->hi)
		return;                 /* a repeat (or out of order: ignored) */
	r->n++;
	if (r->open && v == r->hi + 1) {
		r->hi = v;
		return;
	}
	flush(r);
	r->open = 1;
	r->lo = r->hi = v;
	r->runs++;
}

size_t
ranges_end(struct ranges *r)
{
	flush(r);
	if (r->left > 0)
		fprintf(r->out, ", ... (%zu more)", r->left);
	return r->n;
}
