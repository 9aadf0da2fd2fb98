/* source — an event's arguments read back from its file; see source.h. */
#include "config.h"

#include "load/source.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/units.h"
#include "base/xalloc.h"
#include "model/trace.h"

void
source_args_free(struct source_args *a)
{
	for (size_t i = 0; i < a->n; i++) {
		free(a->v[i].key);
		free(a->v[i].value);
	}
	free(a->v);
	a->v = NULL;
	a->n = 0;
}

/* The number text after "key": in obj[0..len), or NULL; *n its length. */
static const char *
number_of(const char *obj, size_t len, const char *key, size_t *n)
{
	size_t kl = strlen(key);

	for (size_t i = 0; i + kl + 2 < len; i++) {
		size_t j;

		if (obj[i] != '"' || memcmp(obj + i + 1, key, kl) != 0 ||
		    obj[i + 1 + kl] != '"')
			continue;
		j = i + kl + 2;
		while (j < len && (obj[j] == ' ' || obj[j] == '\t' || obj[j] == '\n' ||
		    obj[j] == '\r' || obj[j] == ':'))
			j++;
		if (j < len && obj[j] == '"')
			j++;            /* a quoted number */
		*n = 0;
		while (j + *n < len && strchr("0123456789+-.eE", obj[j + *n]) != NULL &&
		    obj[j + *n] != '\0')
			(*n)++;
		return *n > 0 ? obj + j : NULL;
	}
	return NULL;
}

/* Whether the element obj[0..len) is event e of t; fills out if so. */
static int
element_is(const struct trace *t, const struct event *e, const char *obj,
    size_t len, struct source_args *out)
{
	const char *name = trace_str(t, e->name), *s;
	size_t n;
	int64_t ns;
	json_tokener *tok;
	json_object *o, *v;
	int ok = 0;

	/* cheap tests first: the ts, then (parsed) the name and dur */
	if ((s = number_of(obj, len, "ts", &n)) == NULL ||
	    units_us_to_ns(s, n, &ns) != UNITS_OK || ns != e->ts_ns)
		return 0;
	if ((tok = json_tokener_new_ex(64)) == NULL)
		return 0;
	o = json_tokener_parse_ex(tok, obj, (int)len);
	json_tokener_free(tok);
	if (o == NULL)
		return 0;
	if (json_object_object_get_ex(o, "name", &v) &&
	    strcmp(json_object_get_string(v), name) == 0) {
		ok = 1;
		if ((s = number_of(obj, len, "dur", &n)) != NULL && e->dur_ns > 0 &&
		    units_us_to_ns(s, n, &ns) == UNITS_OK && ns != e->dur_ns)
			ok = 0;
	}
	if (ok && json_object_object_get_ex(o, "args", &v) &&
	    json_object_is_type(v, json_type_object)) {
		json_object_object_foreach(v, key, val) {
			struct source_arg *a;

			out->v = xreallocarray(out->v, out->n + 1, sizeof *out->v);
			a = &out->v[out->n++];
			a->key = xstrdup(key);
			a->value = xstrdup(json_object_to_json_string_ext(val,
			    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
		}
	}
	json_object_put(o);
	return ok;
}

/* How many of out[0..n) are not found yet. */
static size_t
left(const struct source_args *out, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += !out[i].found;
	return k;
}

/*
 * The string state after ch (in_str: inside a string, esc: after its
 * backslash): returns 1 when ch is of a string, quotes included.
 */
static int
in_string(char ch, int *in_str, int *esc)
{
	if (*in_str) {
		if (*esc)
			*esc = 0;
		else if (ch == '\\')
			*esc = 1;
		else if (ch == '"')
			*in_str = 0;
		return 1;
	}
	if (ch == '"') {
		*in_str = 1;
		return 1;
	}
	return 0;
}

/* Matches the element obj[0..len) against the events of ev not found yet. */
static size_t
match_element(const struct trace *t, const uint32_t *ev, size_t n,
    struct source_args *out, const char *obj, size_t len)
{
	for (size_t k = 0; k < n; k++)
		if (!out[k].found && element_is(t, &t->events[ev[k]], obj, len,
		    &out[k])) {
			out[k].found = 1;
			return 1;
		}
	return 0;
}

/*
 * The elements of buf[0..len), a run of whole event objects (with the
 * commas and white space between them), against the events not found yet;
 * returns how many it found.
 */
static size_t
scan_run(const struct trace *t, const uint32_t *ev, size_t n,
    struct source_args *out, const char *buf, size_t len)
{
	size_t found = 0, start = 0;
	int depth = 0, in_str = 0, esc = 0;

	for (size_t i = 0; i < len; i++) {
		char ch = buf[i];

		if (in_string(ch, &in_str, &esc))
			continue;
		if (ch == '{' || ch == '[') {
			if (depth++ == 0)
				start = i;
		} else if ((ch == '}' || ch == ']') && depth > 0) {
			if (--depth == 0 && ch == '}' && i + 1 - start <= SOURCE_MAX_OBJECT)
				found += match_element(t, ev, n, out, buf + start,
				    i + 1 - start);
		}
	}
	return found;
}

/*
 * The fast way (trace.h src): only the blocks of the file whose events'
 * ts range holds one of the events' ts, each read with one seek.  Returns
 * how many it found (the caller scans the whole file for the others).
 */
static size_t
read_blocks(const struct trace *t, gzFile f, const uint32_t *ev, size_t n,
    struct source_args *out)
{
	size_t found = 0, cap = 0;
	char *buf = NULL;

	for (size_t b = 0; b < t->nsrc && found < n; b++) {
		const struct src_block *sb = &t->src[b];
		uint64_t end = b + 1 < t->nsrc ? t->src[b + 1].off :
		    sb->off + 2 * TRACE_SRC_BLOCK + 2 * SOURCE_MAX_OBJECT;
		size_t want = 0, len;
		int got;

		for (size_t k = 0; k < n; k++) {
			int64_t ts = t->events[ev[k]].ts_ns;

			want += !out[k].found && ts >= sb->min_ts_ns && ts <= sb->max_ts_ns;
		}
		if (want == 0 || end <= sb->off ||
		    end - sb->off > 2 * TRACE_SRC_BLOCK + 2 * SOURCE_MAX_OBJECT)
			continue;
		len = (size_t)(end - sb->off);
		xgrow(&buf, &cap, len, 1);
		if (gzseek(f, (z_off_t)sb->off, SEEK_SET) != (z_off_t)sb->off ||
		    (got = gzread(f, buf, (unsigned)len)) <= 0)
			break;
		found += scan_run(t, ev, n, out, buf, (size_t)got);
	}
	free(buf);
	return found;
}

size_t
source_read_args_n(const struct trace *t, const uint32_t *ev, size_t n,
    struct source_args *out)
{
	gzFile f;
	char *buf, *obj = NULL;
	size_t olen = 0, ocap = 0, found = 0;
	int depth = 0, in_str = 0, esc = 0, keep = 0, got;
	/* the containers open: '{' or '[', the first 3 levels */
	char stack[3] = { 0, 0, 0 };

	memset(out, 0, n * sizeof *out);
	if (n == 0)
		return 0;
	if (strcmp(t->path, "-") == 0) {
		for (size_t k = 0; k < n; k++)
			snprintf(out[k].msg, sizeof out[k].msg,
			    "read from standard input: its args cannot be read again");
		return 0;
	}
	if ((f = gzopen(t->path, "rb")) == NULL) {
		for (size_t k = 0; k < n; k++)
			snprintf(out[k].msg, sizeof out[k].msg, "cannot open %s again",
			    t->path);
		return 0;
	}
	gzbuffer(f, 1u << 17);
	if (t->nsrc > 0 && gzdirect(f) == 0) {
		/* gzip: a seek inflates from the start; the scan does that once */
	} else if (t->nsrc > 0) {
		found = read_blocks(t, f, ev, n, out);
		if (found < n && gzrewind(f) != 0)
			found = n;      /* cannot read it again: say not found */
	}
	buf = xmalloc(1u << 16);
	while (found < n && (got = gzread(f, buf, 1u << 16)) > 0) {
		for (int i = 0; i < got && found < n; i++) {
			char ch = buf[i];

			if (keep) {
				if (olen + 1 > SOURCE_MAX_OBJECT)
					keep = 0;       /* too long: not looked at */
				else {
					xgrow(&obj, &ocap, olen + 1, 1);
					obj[olen++] = ch;
				}
			}
			if (in_string(ch, &in_str, &esc))
				continue;
			if (ch == '{' || ch == '[') {
				/* an element of the event array: [{ or {"traceEvents": [{ */
				if (ch == '{' && ((depth == 1 && stack[0] == '[') ||
				    (depth == 2 && stack[0] == '{' && stack[1] == '['))) {
					keep = 1;
					olen = 0;
					xgrow(&obj, &ocap, 1, 1);
					obj[olen++] = ch;
				}
				if (depth < 3)
					stack[depth] = ch;
				depth++;
			} else if (ch == '}' || ch == ']') {
				depth = depth > 0 ? depth - 1 : 0;
				if (ch == '}' && keep && (depth == 1 || depth == 2) &&
				    depth <= 2 && stack[depth - 1] == '[') {
					keep = 0;
					/* the first not found yet that it is */
					for (size_t k = 0; k < n; k++)
						if (!out[k].found &&
						    element_is(t, &t->events[ev[k]], obj, olen,
						    &out[k])) {
							out[k].found = 1;
							found++;
							break;
						}
				}
			}
		}
	}
	gzclose(f);
	free(buf);
	free(obj);
	for (size_t k = 0; k < n; k++)
		if (!out[k].found)
			snprintf(out[k].msg, sizeof out[k].msg,
			    "not found in %s (changed since it was loaded?)", t->path);
	return n - left(out, n);
}

int
source_read_args(const struct trace *t, uint32_t ev, struct source_args *out)
{
	return source_read_args_n(t, &ev, 1, out) == 1;
}
