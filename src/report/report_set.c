/* reports — per-rank JSON reports read back; see report_set.h. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json.h>
#include <zlib.h>

#include "report/report_set.h"
#include "analysis/bandwidth.h"
#include "model/trace.h"
#include "base/xalloc.h"

/* Reads all of file (plain or gzip) into *buf.  Returns its length, or -1. */
static long
read_all(const char *file, char **buf)
{
	gzFile gz = gzopen(file, "rb");
	size_t len = 0, cap = 1 << 16;
	int n = 0, toobig = 0;

	*buf = NULL;
	if (gz == NULL)
		return -1;
	*buf = xmalloc(cap);
	for (;;) {
		if (cap - len < (1 << 16)) {
			if (cap > (size_t)INT_MAX / 2) {
				toobig = 1;
				break;
			}
			cap *= 2;
			*buf = xreallocarray(*buf, cap, 1);
		}
		n = gzread(gz, *buf + len, (unsigned)(cap - len - 1));
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	if (n < 0 || toobig) {
		int e = toobig ? EFBIG : errno ? errno : EIO;

		gzclose(gz);
		free(*buf);
		*buf = NULL;
		errno = e;
		return -1;
	}
	gzclose(gz);
	(*buf)[len] = '\0';
	return (long)len;
}

static int
fail(char *err, size_t errsize, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errsize, fmt, ap);
	va_end(ap);
	return -1;
}

/* The integer member key of o into *v: 1, 0 when absent or null, -1 if not an integer. */
static int
get_i64(json_object *o, const char *key, int64_t *v)
{
	json_object *m;

	if (!json_object_object_get_ex(o, key, &m) || m == NULL)
		return 0;
	if (!json_object_is_type(m, json_type_int))
		return -1;
	*v = json_object_get_int64(m);
	return 1;
}

static const char *
get_str(json_object *o, const char *key)
{
	json_object *m;

	if (!json_object_object_get_ex(o, key, &m) ||
	    !json_object_is_type(m, json_type_string))
		return NULL;
	return json_object_get_string(m);
}

static json_object *
get_array(json_object *o, const char *key)
{
	json_object *m;

	if (!json_object_object_get_ex(o, key, &m) ||
	    !json_object_is_type(m, json_type_array))
		return NULL;
	return m;
}

/* Times are those of a trace (trace.h): within +-TRACE_TIME_MAX. */
static int
in_range(int64_t t)
{
	return t >= -TRACE_TIME_MAX && t <= TRACE_TIME_MAX;
}

/* Reads the steps of entry e into in.  Returns 0, or -1 naming the problem. */
static int
take_steps(struct crossrank_in *in, json_object *e, char *what, size_t wsize)
{
	json_object *steps = get_array(e, "steps");
	size_t n = steps ? json_object_array_length(steps) : 0;

	if (steps == NULL)
		return fail(what, wsize, "no \"steps\" array");
	in->steps = xcalloc(n ? n : 1, sizeof *in->steps);
	for (size_t i = 0; i < n; i++) {
		json_object *s = json_object_array_get_idx(steps, i);
		struct crossrank_step_in *st = &in->steps[in->nsteps];

		if (!json_object_is_type(s, json_type_object) ||
		    get_i64(s, "number", &st->number) != 1 ||
		    get_i64(s, "start_ns", &st->start_ns) != 1 ||
		    get_i64(s, "end_ns", &st->end_ns) != 1 ||
		    st->end_ns < st->start_ns || !in_range(st->start_ns) ||
		    !in_range(st->end_ns))
			return fail(what, wsize, "step %zu: needs integer number, "
			    "start_ns <= end_ns within +-2^62", i);
		in->nsteps++;
	}
	return 0;
}

/*
 * The bandwidth fields of collective c (absent from the reports of earlier
 * versions: unknown) into *r.  Returns 0, or -1 for a bad value.
 */
static int
take_bandwidth(struct crossrank_coll_in *r, json_object *c)
{
	const char *type = get_str(c, "type");
	json_object *m;

	r->bytes = -1;
	r->expected_gbps = -1;
	r->type = COLL_OTHER;
	for (int k = 0; type != NULL && k < COLL_NTYPES; k++)
		if (strcmp(type, bandwidth_type_key((enum coll_type)k)) == 0)
			r->type = (uint8_t)k;
	if (get_i64(c, "bytes", &r->bytes) < 0 || r->bytes < -1)
		return -1;
	if (json_object_object_get_ex(c, "expected_busbw_gbps", &m) && m != NULL) {
		if (!json_object_is_type(m, json_type_double) &&
		    !json_object_is_type(m, json_type_int))
			return -1;
		r->expected_gbps = json_object_get_double(m);
		if (!(r->expected_gbps >= 0 && r->expected_gbps <= 1e12))
			return -1;
	}
	return 0;
}

/* Reads the collectives of entry e into in.  Returns 0, or -1. */
static int
take_collectives(struct crossrank_in *in, json_object *e, char *what,
    size_t wsize)
{
	json_object *cs = get_array(e, "collectives");
	size_t n;

	if (cs == NULL)
		return fail(what, wsize, "no \"collectives\" array (a report from "
		    "gantty before 0.2? make it again with --report --format=json)");
	n = json_object_array_length(cs);
	for (size_t i = 0; i < n; i++) {
		json_object *c = json_object_array_get_idx(cs, i), *b;
		const char *name = NULL, *group = NULL;
		struct crossrank_coll_in r;
		int64_t gs = -1;

		memset(&r, 0, sizeof r);
		r.seq = -1;
		r.event = EV_NONE;
		if (json_object_is_type(c, json_type_object)) {
			name = get_str(c, "name");
			group = get_str(c, "group");
		}
		if (name == NULL || group == NULL ||
		    get_i64(c, "start_ns", &r.ts_ns) != 1 ||
		    get_i64(c, "end_ns", &r.end_ns) != 1 || r.end_ns < r.ts_ns ||
		    !in_range(r.ts_ns) || !in_range(r.end_ns) ||
		    get_i64(c, "seq", &r.seq) < 0 ||
		    get_i64(c, "group_size", &gs) < 0 ||
		    !json_object_object_get_ex(c, "by_stream", &b) ||
		    !json_object_is_type(b, json_type_boolean))
			return fail(what, wsize, "collective %zu: needs name, group, "
			    "by_stream, seq, group_size, start_ns <= end_ns within "
			    "+-2^62", i);
		if (take_bandwidth(&r, c) < 0)
			return fail(what, wsize, "collective %zu: bytes must be an "
			    "integer >= 0 or null, expected_busbw_gbps a number >= 0 "
			    "or null", i);
		if (r.seq < -1)
			r.seq = -1;
		r.group_size = gs < -1 || gs > INT32_MAX ? -1 : (int32_t)gs;
		r.by_stream = json_object_get_boolean(b) ? 1 : 0;
		r.name = strtab_intern(&in->strs, name, strlen(name));
		r.group = strtab_intern(&in->strs, group, strlen(group));
		crossrank_in_add(in, &r);
	}
	return 0;
}

int
report_set_load(struct report_set *set, const char *file, char *err,
    size_t errsize)
{
	char *buf, what[200];
	long len = read_all(file, &buf);
	json_tokener *tok;
	json_object *doc, *ranks;
	size_t n, first = set->n;
	int rc = 0;

	if (len < 0)
		return fail(err, errsize, "%s: %s", file, strerror(errno));
	if ((tok = json_tokener_new()) == NULL)
		xalloc_die("allocating a JSON tokener");
	doc = json_tokener_parse_ex(tok, buf, (int)len + 1);
	if (doc == NULL) {
		rc = fail(err, errsize, "%s: byte %zu: not JSON (%s)", file,
		    json_tokener_get_parse_end(tok),
		    json_tokener_error_desc(json_tokener_get_error(tok)));
		goto out;
	}
	if (!json_object_is_type(doc, json_type_object) ||
	    get_str(doc, "version") == NULL ||
	    (ranks = get_array(doc, "ranks")) == NULL) {
		rc = fail(err, errsize, "%s: byte 0: not a gantty JSON report "
		    "(no \"version\" and \"ranks\"); make one with "
		    "gantty --report --format=json TRACE", file);
		goto out;
	}
	n = json_object_array_length(ranks);
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(ranks, i);
		struct report_rank *r;
		int64_t rank = 0, device = -1, world = -1;
		const char *trace;

		if (!json_object_is_type(e, json_type_object) ||
		    get_i64(e, "rank", &rank) != 1 ||
		    get_i64(e, "device", &device) < 0 ||
		    get_i64(e, "world_size", &world) < 0 ||
		    (trace = get_str(e, "path")) == NULL ||
		    device < -1 || device > INT32_MAX) {
			rc = fail(err, errsize, "%s: ranks[%zu]: needs integer rank, "
			    "device, world_size and a path", file, i);
			goto out;
		}
		xgrow(&set->v, &set->cap, set->n + 1, sizeof *set->v);
		r = &set->v[set->n++];
		memset(r, 0, sizeof *r);
		crossrank_in_init(&r->in, rank, (int32_t)device, world);
		r->trace = xstrdup(trace);
		r->file = xstrdup(file);
		if (take_steps(&r->in, e, what, sizeof what) < 0 ||
		    take_collectives(&r->in, e, what, sizeof what) < 0) {
			rc = fail(err, errsize, "%s: ranks[%zu]: %s", file, i, what);
			goto out;
		}
	}
out:
	if (rc < 0) {
		while (set->n > first) {
			struct report_rank *r = &set->v[--set->n];

			crossrank_in_free(&r->in);
			free(r->trace);
			free(r->file);
		}
	}
	if (doc != NULL)
		json_object_put(doc);
	json_tokener_free(tok);
	free(buf);
	return rc;
}

static int
rank_cmp(const void *pa, const void *pb)
{
	const struct report_rank *a = pa, *b = pb;

	if (a->in.rank != b->in.rank)
		return a->in.rank < b->in.rank ? -1 : 1;
	if (a->in.device != b->in.device)
		return a->in.device < b->in.device ? -1 : 1;
	return strcmp(a->file, b->file);
}

void
report_set_sort(struct report_set *set)
{
	if (set->n > 1)
		qsort(set->v, set->n, sizeof *set->v, rank_cmp);
}

void
report_set_free(struct report_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		crossrank_in_free(&set->v[i].in);
		free(set->v[i].trace);
		free(set->v[i].file);
	}
	free(set->v);
	memset(set, 0, sizeof *set);
}
