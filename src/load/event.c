/*
 * event.c — the steps of reading an event that both decoders share
 * (event_jsonc_take() over json-c, event_jscan_take() over jscan's fields), each
 * decoder reading the fields in between its own way: integers and ids
 * given as strings, time and duration checks, the args rules (read by
 * field id from either decoder's values), flow endpoints, and an event's
 * category, start, fill and addition to the model.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "load/jscan.h"
#include "load/load_int.h"
#include "model/trace.h"
#include "base/strtab.h"

/* Counts a failed time field: -1 unparseable, -2 out of range. */
void
event_count_bad_time(struct trace *t, int r)
{
	if (r == -2)
		t->warn.int_overflow++;
	else
		t->warn.bad_timestamp++;
}

/*
 * The duration of an X event at ts, from the result r of parsing it
 * (get_time() or jv_time(): < 0 bad, 0 absent) and the value dur parsed:
 * bad, negative or ending beyond TRACE_TIME_MAX gives 0; every case but a
 * good one is counted.
 */
int64_t
event_checked_dur(struct trace *t, int r, int64_t dur, int64_t ts)
{
	if (r < 0) {
		event_count_bad_time(t, r);
		dur = 0;
	} else if (r == 0) {
		t->warn.missing_fields++;
	}
	if (dur < 0) {
		t->warn.negative_dur++;
		dur = 0;
	}
	if (ts > TRACE_TIME_MAX - dur) {
		t->warn.int_overflow++;
		dur = 0;
	}
	return dur;
}

static int
has_control(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20)
			return 1;
	return 0;
}

static const char *const field_key[JF_COUNT] = {
#define X(id, inargs, key) [id] = key,
	JSCAN_FIELDS(X)
#undef X
};

static int
src_int(const struct arg_src *s, int field, int64_t *out)
{
	return s->obj != NULL ? load_get_int(s->t, s->obj, field_key[field], out) :
	    jv_int(s->t, &s->f[field], out);
}

static int
src_double(const struct arg_src *s, int field, double *out)
{
	return s->obj != NULL ? load_get_double(s->obj, field_key[field], out) :
	    jv_double(&s->f[field], out);
}

static uint32_t
src_intern(const struct arg_src *s, int field)
{
	return s->obj != NULL ? event_intern_arg(s->t, s->obj, field_key[field]) :
	    jv_intern(s->t, &s->f[field]);
}

/* Keeps what the analysis needs from an args object: its record, or
 * ARGS_REC_NONE. */
struct args_rec
args_take(const struct arg_src *s, int is_memory)
{
	struct trace *t = s->t;
	struct event_args a;
	struct arg_nums nums = ARG_NUMS_NONE;
	struct comm_args c;
	int64_t n, w;
	int any = 0;

	memset(&a, 0, sizeof a);
	a.correlation = a.external_id = ID_NONE;
	a.device = a.stream = -1;
	a.comm = EV_NONE;
	if (src_int(s, JA_CORRELATION, &n) > 0)
		a.correlation = n, any = 1;
	if (src_int(s, JA_EXTERNAL_ID, &n) > 0 || src_int(s, JA_EXTERNAL_ID_LC, &n) > 0)
		a.external_id = n, any = 1;
	if (src_int(s, JA_DEVICE, &n) > 0 && n >= 0 && n <= INT32_MAX)
		a.device = (int32_t)n, any = 1;
	if (src_int(s, JA_STREAM, &n) > 0 && n >= INT32_MIN && n <= INT32_MAX)
		a.stream = (int32_t)n, any = 1;
	if (src_double(s, JA_FLOPS, &nums.flops))
		any = 1;
	if (src_int(s, JA_SEQ_NR, &n) > 0 && n >= 0 && n < (INT64_C(1) << 48)) {
		int64_t tid = 0;

		if (src_int(s, JA_FWD_TID, &tid) <= 0 || tid < 0 || tid >= (1 << 15))
			tid = 0;
		nums.seq = n | tid << 48;
		any = 1;
	}
	/* cuda_sync rows: what they wait on (event.h) */
	if (src_int(s, JA_WAIT_STREAM, &n) > 0 && n >= 0 && n < INT32_MAX &&
	    src_int(s, JA_WAIT_RECORD, &w) > 0 && w >= 0 && w < (INT64_C(1) << 48) &&
	    nums.seq == -1) {
		nums.value = (double)(n + 1);
		nums.seq = w;
		any = 1;
	}
	if (is_memory && src_double(s, JA_TOTAL_ALLOCATED, &nums.value))
		any = 1;
	if (is_memory) {
		int64_t type;

		/* reserved takes flops' place: a [memory] event has no FLOPs,
		 * and no External id that would make mfu.c read them */
		a.external_id = ID_NONE;
		nums.flops = 0;
		if (src_double(s, JA_TOTAL_RESERVED, &nums.flops))
			any = 1;
		if (src_int(s, JA_DEVICE_ID, &n) > 0 && n >= 0 && n <= INT32_MAX &&
		    !(src_int(s, JA_DEVICE_TYPE, &type) > 0 && type == 0))
			a.device = (int32_t)n, any = 1;
	}

	memset(&c, 0, sizeof c);
	c.collective = src_intern(s, JA_COLLECTIVE);
	if (c.collective != 0) {
		c.pg_name = src_intern(s, JA_PG_NAME);
		c.dtype = src_intern(s, JA_DTYPE);
		c.group_size = src_int(s, JA_GROUP_SIZE, &n) > 0 ? (int32_t)n : -1;
		c.in_nelems = src_int(s, JA_IN_NELEMS, &n) > 0 ? n : -1;
		c.out_nelems = src_int(s, JA_OUT_NELEMS, &n) > 0 ? n : -1;
		if (src_int(s, JA_SEQ_UC, &n) > 0 || src_int(s, JA_SEQ, &n) > 0)
			c.seq = n;
		else
			c.seq = -1;
		a.comm = trace_add_comm(t, &c);
		any = 1;
	}
	return any ? trace_make_args(t, &a, &nums) : ARGS_REC_NONE;
}

/* Adds the flow endpoint f (its id set) with the rest of its fields. */
void
flow_add(struct trace *t, struct flow *f, int ph, int64_t pid,
    const char *pid_text, int64_t tid, const char *tid_text, int64_t ts,
    uint16_t cat, const char *bp)
{
	f->ts_ns = ts;
	f->track = trace_track(t, pid, pid_text, tid, tid_text);
	f->cat = cat;
	f->ph = (uint8_t)ph;
	f->enclosing = bp != NULL && strcmp(bp, "e") == 0;
	trace_add_flow(t, f);
}

/* The event's category (interned, classified), counting what is odd. */
uint16_t
event_category(struct trace *t, const char *name, size_t name_len,
    const char *cat_s, size_t cat_len, enum cat_kind *kind)
{
	uint16_t cat = trace_category(t, cat_s, cat_len);

	*kind = (enum cat_kind)t->cat_kinds[cat];
	if (*kind == CAT_OTHER && cat_len > 0)
		t->warn.unknown_category++;
	if (has_control(name, name_len) || has_control(cat_s, cat_len))
		t->warn.control_chars++;
	return cat;
}

/*
 * Starts ev (phase ph, at ts on its thread's track); returns 0 when that
 * was all (an 'E' event closes the latest open 'B').
 */
int
event_start(struct trace *t, struct event *ev, int ph, int64_t ts,
    int64_t pid, const char *pid_text, int64_t tid, const char *tid_text)
{
	memset(ev, 0, sizeof *ev);
	ev->ts_ns = ts;
	ev->track = trace_track(t, pid, pid_text, tid, tid_text);
	if (ph == 'E') {
		trace_end(t, ev->track, ts);
		return 0;
	}
	return 1;
}

/*
 * Fills ev's name, times, class (cls, of an 'X' event) and flags; dur_r
 * and dur: what reading its "dur" gave ('X' only).  Returns whether its
 * args are a [memory] sample's.
 */
int
event_fill(struct trace *t, struct event *ev, int ph, int dur_r, int64_t dur,
    uint32_t name_id, const char *name, uint16_t cat, enum cat_kind kind,
    uint8_t cls)
{
	ev->dur_ns = ph == 'X' ? event_checked_dur(t, dur_r, dur, ev->ts_ns) : 0;
	ev->name = name_id;
	ev->cat = cat;
	ev->link = EV_NONE;
	if (ph == 'i' || ph == 'I')
		ev->flags |= EVF_INSTANT;
	if (ph == 'X')
		ev->cls = cls;
	if (kind == CAT_GPU_ANNOTATION)
		ev->flags |= EVF_ANNOTATION;
	if (kind == CAT_CUDA_RUNTIME && strstr(name, "Synchronize") != NULL)
		ev->flags |= EVF_SYNC;
	return (ev->flags & EVF_INSTANT) && strcmp(name, "[memory]") == 0;
}

/* Adds ev with its args r: opens it for a 'B', else appends it. */
void
event_add(struct trace *t, const struct event *ev, const struct args_rec *r,
    int ph)
{
	if (ph == 'B')
		trace_begin(t, ev, r);
	else if (trace_add_event(t, ev, r) == EV_NONE)
		t->warn.too_many_events++;
}

