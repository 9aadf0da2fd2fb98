/*
 * event_jscan.c — the fast decoder's reading of an event: the same reading
 * as event_jsonc_take() and its helpers (event_jsonc.c), over the values jscan
 * decoded instead of a json-c object; the two must agree exactly
 * (tests/fastload.sh compares them on every corpus trace).  jscan_takes()
 * says which decoded events it handles; the rest go through json-c.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "load/jscan.h"
#include "load/load_int.h"
#include "model/trace.h"
#include "base/strtab.h"
#include "base/units.h"
#include "base/xalloc.h"

/*
 * The common timestamp text, digits with up to three decimals ("12.345"),
 * in ns; 0 if the text is anything else or the time is beyond
 * TRACE_TIME_MAX (units_us_to_ns() decides those).
 */
static int
quick_us_to_ns(const char *s, size_t len, int64_t *ns)
{
	uint64_t us = 0, frac = 0;
	size_t i = 0, nfrac;

	for (; i < len && i < 16 && s[i] >= '0' && s[i] <= '9'; i++)
		us = us * 10 + (uint64_t)(s[i] - '0');
	if (i == 0 || i >= len || s[i] != '.' || len - i - 1 > 3 || len - i - 1 == 0)
		return 0;
	nfrac = len - i - 1;
	for (i++; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		frac = frac * 10 + (uint64_t)(s[i] - '0');
	}
	for (; nfrac < 3; nfrac++)
		frac *= 10;
	if (us > (uint64_t)TRACE_TIME_MAX / 1000 ||
	    us * 1000 + frac > (uint64_t)TRACE_TIME_MAX)
		return 0;
	*ns = (int64_t)(us * 1000 + frac);
	return 1;
}

/* get_time() */
static int
jv_time(const struct jval *v, int64_t *ns)
{
	int r;

	switch (v->type) {
	case JV_ABSENT:
		return 0;
	case JV_INT:
		if (v->i > TRACE_TIME_MAX / 1000 || v->i < -(TRACE_TIME_MAX / 1000))
			return -2;
		*ns = v->i * 1000;
		return 1;
	case JV_DOUBLE:
	case JV_STRING:
		if (quick_us_to_ns(v->s, v->len, ns))
			return 1;
		r = units_us_to_ns(v->s, v->len, ns);
		if (r == UNITS_OK && (*ns > TRACE_TIME_MAX || *ns < -TRACE_TIME_MAX))
			r = UNITS_RANGE;
		return r == UNITS_OK ? 1 : r == UNITS_RANGE ? -2 : -1;
	default:
		return -1;
	}
}

/* get_id(), for any value but a double (declined by event_jscan_take()) */
static const char *
jv_id(const struct jval *v, int64_t *id)
{
	*id = 0;
	if (v->type == JV_INT) {
		*id = v->i;
	} else if (v->type == JV_STRING) {
		return text_id(v->s, id) ? NULL : v->s;
	}
	return NULL;
}

/* take_args() for jscan's fields */
static struct args_rec
take_jscan_args(struct trace *t, const struct jval *f, int is_memory)
{
	struct arg_src src = { t, NULL, f };

	if (f[JF_ARGS].type != JV_OBJECT)
		return ARGS_REC_NONE;
	/* jscan declined integers beyond int64 in args: nothing to count */
	return args_take(&src, is_memory);
}

/* take_metadata() */
static void
jscan_metadata(struct trace *t, const struct jval *f, const char *name)
{
	int64_t pid, tid = INT64_MIN, n = 0;
	const char *pid_text = jv_id(&f[JF_PID], &pid), *tid_text = NULL;
	const char *s = NULL;
	size_t len;

	if (f[JF_TID].type != JV_ABSENT)
		tid_text = jv_id(&f[JF_TID], &tid);
	if (f[JF_ARGS].type != JV_OBJECT)
		return;
	if (strcmp(name, "process_name") == 0 || strcmp(name, "thread_name") == 0)
		s = jv_str(&f[JA_NAME], &len);
	else if (strcmp(name, "process_sort_index") == 0 ||
	    strcmp(name, "thread_sort_index") == 0) {
		if (jv_int(t, &f[JA_SORT_INDEX], &n) <= 0)
			return;
	} else
		return;
	if (strncmp(name, "process", 7) == 0 && s == NULL && n == 0 &&
	    strcmp(name, "process_name") == 0)
		return;
	if (strcmp(name, "thread_name") == 0 && s == NULL)
		return;
	trace_metadata(t, name, pid, pid_text, tid, tid_text, s, n);
}

/* take_flow() */
static void
jscan_flow(struct trace *t, const struct jval *f, int ph, int64_t pid,
    const char *pid_text, int64_t ts, uint16_t cat)
{
	struct flow fl;
	int64_t tid;
	const char *tid_text = jv_id(&f[JF_TID], &tid);
	size_t len;
	const char *bp = jv_str(&f[JF_BP], &len);

	memset(&fl, 0, sizeof fl);
	if (f[JF_ID].type != JV_INT) {          /* absent: declined otherwise */
		t->warn.missing_fields++;
		return;
	}
	fl.id = f[JF_ID].i;
	flow_add(t, &fl, ph, pid, pid_text, tid, tid_text, ts, cat, bp);
}

/*
 * Returns whether event_jscan_take() handles the decoded event f; the rest (phase
 * C, unknown phases and a few rare value types) go through json-c.
 */
int
jscan_takes(const struct jval *f)
{
	int ph;

	if (f[JF_PH].type != JV_STRING || f[JF_PH].len != 1)
		return 0;
	ph = f[JF_PH].s[0];
	if (ph != 'X' && ph != 'B' && ph != 'E' && ph != 'i' && ph != 'I' &&
	    ph != 's' && ph != 't' && ph != 'f' && ph != 'M')
		return 0;
	if (f[JF_PID].type == JV_DOUBLE || f[JF_TID].type == JV_DOUBLE)
		return 0;
	if ((ph == 's' || ph == 't' || ph == 'f') && f[JF_ID].type != JV_INT &&
	    (f[JF_ID].type != JV_ABSENT || f[JF_ID2].type != JV_ABSENT))
		return 0;
	return 1;
}

/* event_jsonc_take() over a decoded event that jscan_takes(). */
int
event_jscan_take(struct trace *t, const struct jval *f)
{
	const char *name, *cat_s, *pid_text, *tid_text;
	size_t name_len = 0, cat_len = 0;
	int64_t pid, tid, ts, dur = 0;
	int r, ph = f[JF_PH].s[0], dur_r = 0, memory;
	uint16_t cat;
	uint32_t name_id;
	enum cat_kind kind;
	struct event ev;
	struct args_rec args;

	t->objects++;
	name = jv_str(&f[JF_NAME], &name_len);
	if (name == NULL)
		name = "";
	if (ph == 'M') {
		jscan_metadata(t, f, name);
		return 1;
	}
	r = jv_time(&f[JF_TS], &ts);
	if (r <= 0) {
		if (r == 0)
			t->warn.missing_fields++;
		else
			event_count_bad_time(t, r);
		return 1;
	}
	cat_s = jv_str(&f[JF_CAT], &cat_len);
	if (cat_s == NULL)
		cat_s = "";
	cat = event_category(t, name, name_len, cat_s, cat_len, &kind);
	pid_text = jv_id(&f[JF_PID], &pid);

	if (ph == 's' || ph == 't' || ph == 'f') {
		jscan_flow(t, f, ph, pid, pid_text, ts, cat);
		return 1;
	}
	tid_text = jv_id(&f[JF_TID], &tid);
	if (!event_start(t, &ev, ph, ts, pid, pid_text, tid, tid_text))
		return 1;
	if (ph == 'X')
		dur_r = jv_time(&f[JF_DUR], &dur);
	name_id = trace_intern(t, name, name_len);
	memory = event_fill(t, &ev, ph, dur_r, dur, name_id, name, cat, kind,
	    ph == 'X' ? (uint8_t)trace_classify(kind) : CLASS_NONE);
	args = take_jscan_args(t, f, memory);
	event_add(t, &ev, &args, ph);
	return 1;
}

