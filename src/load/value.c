/*
 * value.c — a JSON value read as an integer, a double or interned text, the
 * same way from either decoder: a member of a json-c object (load_get_*(),
 * event_jsonc.c's) or a value jscan decoded (jv_*(), event_jscan.c's), the
 * two agreeing exactly; and integers and ids given as strings.  event.c
 * reads the args through them, whichever decoder read the event.
 */
#include "config.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "load/jscan.h"
#include "load/load_int.h"
#include "model/trace.h"
#include "base/xalloc.h"

/* ---- strings ---------------------------------------------------------- */

/*
 * An integer given as a string ("12"): 1 with *out, 0 when s is not one,
 * -1 (counted) beyond int64.  Both decoders' getters use it.
 */
int
text_int(struct trace *t, const char *s, int64_t *out)
{
	char *end;
	long long n;

	errno = 0;
	n = strtoll(s, &end, 10);
	if (end == s || *end != '\0')
		return 0;
	if (errno == ERANGE) {
		t->warn.int_overflow++;
		return -1;
	}
	*out = n;
	return 1;
}

/* Whether the string id s is a decimal integer (then *id is it). */
int
text_id(const char *s, int64_t *id)
{
	char *end;
	long long n;

	errno = 0;
	n = strtoll(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno != 0 ||
	    !(s[0] == '-' || (s[0] >= '0' && s[0] <= '9')))
		return 0;
	*id = n;
	return 1;
}

/* ---- json-c: a member of an object ------------------------------------ */

const char *
load_get_str(json_object *obj, const char *key, size_t *len)
{
	json_object *v;

	if (!json_object_object_get_ex(obj, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	*len = (size_t)json_object_get_string_len(v);
	return json_object_get_string(v);
}

/* An integer argument: 1 found, 0 absent, -1 beyond int64. */
int
load_get_int(struct trace *t, json_object *obj, const char *key, int64_t *out)
{
	json_object *v;

	if (!json_object_object_get_ex(obj, key, &v))
		return 0;
	switch (json_object_get_type(v)) {
	case json_type_int:
		if (json_object_get_int64(v) == INT64_MAX &&
		    json_object_get_uint64(v) > (uint64_t)INT64_MAX)
			return -1;      /* counted once by take_args() */
		*out = json_object_get_int64(v);
		return 1;
	case json_type_double: {
		double d = json_object_get_double(v);

		if (!(d > -9.2e18 && d < 9.2e18))
			return 0;
		*out = (int64_t)d;
		return 1;
	}
	case json_type_string:
		return text_int(t, json_object_get_string(v), out);
	default:
		return 0;
	}
}

int
load_get_double(json_object *obj, const char *key, double *out)
{
	json_object *v;

	if (!json_object_object_get_ex(obj, key, &v))
		return 0;
	if (!json_object_is_type(v, json_type_int) &&
	    !json_object_is_type(v, json_type_double))
		return 0;
	*out = json_object_get_double(v);
	return 1;
}

uint32_t
event_intern_arg(struct trace *t, json_object *args, const char *key)
{
	size_t len;
	const char *s = load_get_str(args, key, &len);

	return s ? trace_intern(t, s, len) : 0;
}

/* ---- jscan: a decoded value ------------------------------------------- */

/* strtod() of a number's text, as json-c does. */
static double
jv_double_of(const struct jval *v)
{
	char tmp[64], *s = tmp;
	double d;

	if (v->type == JV_INT)
		return (double)v->i;
	if (v->len < sizeof tmp) {
		memcpy(tmp, v->s, v->len);
		tmp[v->len] = '\0';
	} else {
		s = xstrndup(v->s, v->len);
	}
	d = strtod(s, NULL);
	if (s != tmp)
		free(s);
	return d;
}

const char *
jv_str(const struct jval *v, size_t *len)
{
	if (v->type != JV_STRING)
		return NULL;
	*len = v->len;
	return v->s;
}

/* load_get_int() */
int
jv_int(struct trace *t, const struct jval *v, int64_t *out)
{
	switch (v->type) {
	case JV_INT:
		*out = v->i;
		return 1;
	case JV_DOUBLE: {
		double d = jv_double_of(v);

		if (!(d > -9.2e18 && d < 9.2e18))
			return 0;
		*out = (int64_t)d;
		return 1;
	}
	case JV_STRING:
		return text_int(t, v->s, out);
	default:
		return 0;
	}
}

/* load_get_double() */
int
jv_double(const struct jval *v, double *out)
{
	if (v->type != JV_INT && v->type != JV_DOUBLE)
		return 0;
	*out = jv_double_of(v);
	return 1;
}

uint32_t
jv_intern(struct trace *t, const struct jval *v)
{
	size_t len;
	const char *s = jv_str(v, &len);

	return s ? trace_intern(t, s, len) : 0;
}
