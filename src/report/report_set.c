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

#include "load/jstream.h"

#include "report/report_set.h"
#include "analysis/bandwidth.h"
#include "model/trace.h"
#include "base/xalloc.h"

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

/* Times are those of a trace (trace.h): within +-TRACE_TIME_MAX. */
static int
in_range(int64_t t)
{
	return t >= -TRACE_TIME_MAX && t <= TRACE_TIME_MAX;
}

/* Reads step i (the object s) into in.  Returns 0, or -1 naming the problem. */
static int
take_step(struct crossrank_in *in, size_t *cap, json_object *s, size_t i,
    char *what, size_t wsize)
{
	struct crossrank_step_in st;

	memset(&st, 0, sizeof st);
	if (!json_object_is_type(s, json_type_object) ||
	    get_i64(s, "number", &st.number) != 1 ||
	    get_i64(s, "start_ns", &st.start_ns) != 1 ||
	    get_i64(s, "end_ns", &st.end_ns) != 1 ||
	    st.end_ns < st.start_ns || !in_range(st.start_ns) ||
	    !in_range(st.end_ns))
		return fail(what, wsize, "step %zu: needs integer number, "
		    "start_ns <= end_ns within +-2^62", i);
	xgrow(&in->steps, cap, in->nsteps + 1, sizeof *in->steps);
	in->steps[in->nsteps++] = st;
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

/* Reads collective i (the object c) into in.  Returns 0, or -1. */
static int
take_collective(struct crossrank_in *in, json_object *c, size_t i, char *what,
    size_t wsize)
{
	const char *name = NULL, *group = NULL;
	struct crossrank_coll_in r;
	json_object *b;
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
	return 0;
}

/*
 * Reads the array at the read position, element by element: each parsed
 * (one step or collective: small) and handed to take, then freed.
 * Returns 0, 1 when the value is not an array, or -1 (message in what,
 * or *json_err set for a JSON error, whose message is the stream's).
 */
static int
each_element(struct jstream *js, int (*take)(void *ctx, json_object *o,
    size_t i, char *what, size_t wsize), void *ctx, char *what, size_t wsize,
    int *json_err)
{
	size_t i = 0;

	if (jstream_peek(js) != '[')
		return 1;
	jstream_next(js);
	if (jstream_peek(js) == ']') {
		jstream_next(js);
		return 0;
	}
	for (;; i++) {
		json_object *o;
		int c, r;

		if (jstream_value(js, &o) < 0) {
			*json_err = 1;
			return -1;
		}
		r = take(ctx, o, i, what, wsize);
		json_object_put(o);
		if (r < 0)
			return -1;
		if ((c = jstream_expect(js, ",]", "',' or ']'")) < 0) {
			*json_err = 1;
			return -1;
		}
		if (c == ']')
			return 0;
	}
}

struct rank_ctx {
	struct crossrank_in *in;
	size_t steps_cap;
};

static int
step_cb(void *ctx, json_object *o, size_t i, char *what, size_t wsize)
{
	struct rank_ctx *r = ctx;

	return take_step(r->in, &r->steps_cap, o, i, what, wsize);
}

static int
coll_cb(void *ctx, json_object *o, size_t i, char *what, size_t wsize)
{
	struct rank_ctx *r = ctx;

	return take_collective(r->in, o, i, what, wsize);
}

/*
 * Reads the key of an object member and its ':'; *end set at the object's
 * '}' instead.  Returns the key (the caller's to free), or NULL with the
 * stream's message set (*end 0) or at the end (*end 1).
 */
static char *
member_key(struct jstream *js, int first, int *end)
{
	json_object *k;
	char *key;

	*end = 0;
	if (first && jstream_peek(js) == '}') {
		jstream_next(js);
		*end = 1;
		return NULL;
	}
	if (!first) {
		int c = jstream_expect(js, ",}", "',' or '}'");

		*end = c == '}';
		if (c != ',')
			return NULL;
	}
	if (jstream_peek(js) != '"') {
		jstream_expect(js, "\"", "a key string");
		return NULL;
	}
	if (jstream_value(js, &k) < 0)
		return NULL;
	key = xstrdup(json_object_get_string(k));
	json_object_put(k);
	if (jstream_expect(js, ":", "':' after a key") < 0) {
		free(key);
		return NULL;
	}
	return key;
}

/* An integer member value at the read position: 1, 0 for null, -1 if not an integer. */
static int
scalar_i64(struct jstream *js, int64_t *v, int *json_err)
{
	json_object *o;
	int r;

	if (jstream_value(js, &o) < 0) {
		*json_err = 1;
		return -1;
	}
	if (o == NULL)
		return 0;
	r = json_object_is_type(o, json_type_int) ? 1 : -1;
	if (r == 1)
		*v = json_object_get_int64(o);
	json_object_put(o);
	return r;
}

/*
 * Reads ranks[i], the object at the read position, into set.  Returns 0,
 * or -1 with the message in err (the stream's for a JSON error).
 */
static int
take_rank(struct report_set *set, struct jstream *js, const char *file, size_t i,
    char *err, size_t errsize)
{
	struct crossrank_in in;
	struct rank_ctx ctx = { &in, 0 };
	int64_t rank = 0, device = -1, world = -1;
	int has_rank = 0, ints_ok = 1, has_steps = 0, has_colls = 0, jerr = 0, end;
	char *trace = NULL, what[200] = "";
	struct report_rank *r;

	crossrank_in_init(&in, 0, -1, -1);
	if (jstream_peek(js) != '{') {
		if (jstream_skip(js) < 0)
			goto json_error;
		ints_ok = 0;
		goto check;
	}
	jstream_next(js);
	for (int first = 1;; first = 0) {
		char *key = member_key(js, first, &end);
		int rc = 0;

		if (key == NULL) {
			if (end)
				break;
			goto json_error;
		}
		if (strcmp(key, "rank") == 0) {
			rc = scalar_i64(js, &rank, &jerr);
			has_rank = rc == 1;
		} else if (strcmp(key, "device") == 0) {
			rc = scalar_i64(js, &device, &jerr);
		} else if (strcmp(key, "world_size") == 0) {
			rc = scalar_i64(js, &world, &jerr);
		} else if (strcmp(key, "path") == 0) {
			json_object *o;

			if (jstream_value(js, &o) < 0) {
				free(key);
				goto json_error;
			}
			free(trace);
			trace = json_object_is_type(o, json_type_string) ?
			    xstrdup(json_object_get_string(o)) : NULL;
			json_object_put(o);
		} else if (strcmp(key, "steps") == 0 && what[0] == '\0') {
			rc = each_element(js, step_cb, &ctx, what, sizeof what, &jerr);
			has_steps = rc == 0;
			if (rc == 1)
				rc = jstream_skip(js) < 0 ? (jerr = 1, -1) : 0;
			else if (rc < 0 && !jerr)
				rc = 0;         /* said in what; read on for the JSON */
		} else if (strcmp(key, "collectives") == 0 && what[0] == '\0') {
			rc = each_element(js, coll_cb, &ctx, what, sizeof what, &jerr);
			has_colls = rc == 0;
			if (rc == 1)
				rc = jstream_skip(js) < 0 ? (jerr = 1, -1) : 0;
			else if (rc < 0 && !jerr)
				rc = 0;
		} else {
			rc = jstream_skip(js) < 0 ? (jerr = 1, -1) : 0;
		}
		free(key);
		if (jerr)
			goto json_error;
		if (rc < 0)
			ints_ok = 0;
		if (what[0] != '\0')
			break;          /* a bad step or collective: said */
	}
check:
	if (what[0] != '\0' && ints_ok && has_rank) {
		snprintf(err, errsize, "%s: ranks[%zu]: %s", file, i, what);
		goto fail;
	}
	if (!ints_ok || !has_rank || trace == NULL || device < -1 ||
	    device > INT32_MAX) {
		snprintf(err, errsize, "%s: ranks[%zu]: needs integer rank, device, "
		    "world_size and a path", file, i);
		goto fail;
	}
	if (rank < 0 || rank > TRACE_RANK_MAX) {
		snprintf(err, errsize, "%s: ranks[%zu]: rank %" PRId64 " out of range "
		    "0..%d", file, i, rank, TRACE_RANK_MAX);
		goto fail;
	}
	if (world != -1 && (world < 1 || world > TRACE_WORLD_MAX)) {
		snprintf(err, errsize, "%s: ranks[%zu]: world_size %" PRId64 " out of "
		    "range 1..%" PRId64, file, i, world, TRACE_WORLD_MAX);
		goto fail;
	}
	if (what[0] == '\0' && !has_steps)
		snprintf(what, sizeof what, "no \"steps\" array");
	if (what[0] == '\0' && !has_colls)
		snprintf(what, sizeof what, "no \"collectives\" array (a report from "
		    "gantty before 0.2? make it again with --report --format=json)");
	if (what[0] != '\0') {
		snprintf(err, errsize, "%s: ranks[%zu]: %s", file, i, what);
		goto fail;
	}
	in.rank = rank;
	in.device = (int32_t)device;
	in.world_size = world;
	xgrow(&set->v, &set->cap, set->n + 1, sizeof *set->v);
	r = &set->v[set->n++];
	memset(r, 0, sizeof *r);
	r->in = in;
	r->trace = trace;
	r->file = xstrdup(file);
	return 0;
json_error:
	snprintf(err, errsize, "%s", jstream_error(js));
fail:
	crossrank_in_free(&in);
	free(trace);
	return -1;
}

int
report_set_load(struct report_set *set, const char *file, char *err,
    size_t errsize)
{
	struct jstream *js = jstream_open(file, 0, err, errsize);
	size_t first = set->n, nranks = 0;
	int has_version = 0, has_ranks = 0, rc = -1, end, c;

	if (js == NULL)
		return -1;
	if ((c = jstream_peek(js)) != '{') {
		if (jstream_skip(js) < 0)
			snprintf(err, errsize, "%s", jstream_error(js));
		else
			goto not_report;
		goto out;
	}
	jstream_next(js);
	for (int f = 1;; f = 0) {
		char *key = member_key(js, f, &end);

		if (key == NULL) {
			if (end)
				break;
			snprintf(err, errsize, "%s", jstream_error(js));
			goto out;
		}
		if (strcmp(key, "version") == 0) {
			json_object *o;

			free(key);
			if (jstream_value(js, &o) < 0) {
				snprintf(err, errsize, "%s", jstream_error(js));
				goto out;
			}
			has_version = json_object_is_type(o, json_type_string);
			json_object_put(o);
			continue;
		}
		if (strcmp(key, "ranks") == 0 && jstream_peek(js) == '[') {
			free(key);
			has_ranks = 1;
			jstream_next(js);
			if (jstream_peek(js) == ']') {
				jstream_next(js);
				continue;
			}
			for (;;) {
				if (take_rank(set, js, file, nranks++, err, errsize) < 0)
					goto out;
				if ((c = jstream_expect(js, ",]", "',' or ']'")) < 0) {
					snprintf(err, errsize, "%s", jstream_error(js));
					goto out;
				}
				if (c == ']')
					break;
			}
			continue;
		}
		free(key);
		if (jstream_skip(js) < 0) {
			snprintf(err, errsize, "%s", jstream_error(js));
			goto out;
		}
	}
	/*
	 * One report a file: another one after it (cat a.json b.json) was
	 * silently ignored; refused, with where it starts.
	 */
	if (jstream_peek(js) >= 0) {
		snprintf(err, errsize, "%s: byte %llu: data after the end of the report "
		    "(several reports in one file? give each its own file, or a "
		    "directory of them)", file, (unsigned long long)jstream_offset(js));
		goto out;
	}
	if (!has_version || !has_ranks)
		goto not_report;
	rc = 0;
	goto out;
not_report:
	snprintf(err, errsize, "%s: byte 0: not a gantty JSON report "
	    "(no \"version\" and \"ranks\"); make one with "
	    "gantty --report --format=json TRACE", file);
out:
	if (rc < 0) {
		while (set->n > first) {
			struct report_rank *r = &set->v[--set->n];

			crossrank_in_free(&r->in);
			free(r->trace);
			free(r->file);
		}
	}
	jstream_close(js);
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
