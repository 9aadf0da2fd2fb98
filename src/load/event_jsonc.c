/*
 * event_jsonc.c — the json-c decoder, the reference: an element of the
 * event array, parsed by json-c into a json_object, taken into the model
 * (complete events, B/E, instants, counters, flows, metadata), and the
 * header values around the event array (devices, distributed info, base
 * time).
 */
#include "config.h"

#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "load/load_int.h"
#include "model/trace.h"
#include "base/strtab.h"
#include "base/units.h"
#include "base/xalloc.h"

/* ---- reading fields ------------------------------------------------- */

/*
 * A time field in microseconds, to ns.  Returns 1 found, 0 absent, -1 not a
 * number, -2 beyond +-TRACE_TIME_MAX ns (counted as beyond int64: the model
 * keeps every time in that range).  Counting is the caller's.
 */
static int
get_time(json_object *obj, const char *key, int64_t *ns)
{
	json_object *v;
	const char *text;
	int r;

	if (!json_object_object_get_ex(obj, key, &v))
		return 0;
	switch (json_object_get_type(v)) {
	case json_type_int: {
		int64_t us = json_object_get_int64(v);

		if ((us == INT64_MAX && json_object_get_uint64(v) > (uint64_t)INT64_MAX) ||
		    us > TRACE_TIME_MAX / 1000 || us < -(TRACE_TIME_MAX / 1000))
			return -2;
		*ns = us * 1000;
		return 1;
	}
	case json_type_double:
	case json_type_string:
		text = json_object_get_string(v);
		r = units_us_to_ns(text, strlen(text), ns);
		if (r == UNITS_OK && (*ns > TRACE_TIME_MAX || *ns < -TRACE_TIME_MAX))
			r = UNITS_RANGE;
		return r == UNITS_OK ? 1 : r == UNITS_RANGE ? -2 : -1;
	default:
		return -1;
	}
}

/* A pid or tid: numbers (also digit strings) are numeric, others text. */
static const char *
get_id(json_object *obj, const char *key, int64_t *id)
{
	json_object *v;

	*id = 0;
	if (!json_object_object_get_ex(obj, key, &v))
		return NULL;
	if (json_object_is_type(v, json_type_int)) {
		*id = json_object_get_int64(v);
		return NULL;
	}
	if (json_object_is_type(v, json_type_double)) {
		double d = json_object_get_double(v);

		if (d > -9.2e18 && d < 9.2e18) {
			*id = (int64_t)d;
			return NULL;
		}
		return json_object_get_string(v);      /* NaN, 1e300: by its text */
	}
	if (json_object_is_type(v, json_type_string)) {
		const char *s = json_object_get_string(v);

		return text_id(s, id) ? NULL : s;
	}
	return NULL;
}

/* Keeps what the analysis needs from args: their record, or ARGS_REC_NONE. */
static struct args_rec
take_args(struct trace *t, json_object *args, int is_memory)
{
	struct arg_src src = { t, args, NULL };

	if (args == NULL || !json_object_is_type(args, json_type_object))
		return ARGS_REC_NONE;
	/* json-c saturates integers beyond int64; count them where they are. */
	json_object_object_foreach(args, key, val) {
		(void)key;
		if (json_object_is_type(val, json_type_int) &&
		    json_object_get_int64(val) == INT64_MAX &&
		    json_object_get_uint64(val) > (uint64_t)INT64_MAX)
			t->warn.int_overflow++;
	}
	return args_take(&src, is_memory);
}

static uint64_t
hash_text(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s != '\0'; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ull;
	}
	return h;
}

static void
take_counter(struct trace *t, json_object *obj, const char *name,
    int64_t pid, const char *pid_text, int64_t ts, uint16_t cat)
{
	json_object *args;
	int nkeys;
	char label[512];

	if (!json_object_object_get_ex(obj, "args", &args) ||
	    !json_object_is_type(args, json_type_object)) {
		t->warn.missing_fields++;
		return;
	}
	nkeys = json_object_object_length(args);
	json_object_object_foreach(args, key, val) {
		struct event ev;
		struct args_rec rec;
		struct event_args a;
		struct arg_nums nums;
		uint32_t tr;

		if (!json_object_is_type(val, json_type_int) &&
		    !json_object_is_type(val, json_type_double))
			continue;
		if (nkeys > 1)
			snprintf(label, sizeof label, "%s %s", name, key);
		else
			snprintf(label, sizeof label, "%s", *name ? name : key);
		tr = trace_track(t, pid, pid_text, 0, label);
		t->tracks[tr].kind = TRACK_COUNTER;
		memset(&a, 0, sizeof a);
		a.correlation = a.external_id = ID_NONE;
		a.device = a.stream = -1;
		a.comm = EV_NONE;
		nums = ARG_NUMS_NONE;
		nums.value = json_object_get_double(val);
		memset(&ev, 0, sizeof ev);
		ev.ts_ns = ts;
		ev.name = trace_intern(t, label, strlen(label));
		ev.track = tr;
		ev.cat = cat;
		ev.flags = EVF_COUNTER;
		ev.link = EV_NONE;
		rec = trace_make_args(t, &a, &nums);
		if (trace_add_event(t, &ev, &rec) == EV_NONE)
			t->warn.too_many_events++;
	}
}

static void
take_metadata(struct trace *t, json_object *obj, const char *name)
{
	json_object *args;
	int64_t pid, tid = INT64_MIN, n = 0;
	const char *pid_text = get_id(obj, "pid", &pid), *tid_text = NULL;
	const char *s = NULL;
	size_t len;

	if (json_object_object_get_ex(obj, "tid", &args))
		tid_text = get_id(obj, "tid", &tid);
	if (!json_object_object_get_ex(obj, "args", &args) ||
	    !json_object_is_type(args, json_type_object))
		return;
	if (strcmp(name, "process_name") == 0 || strcmp(name, "thread_name") == 0)
		s = load_get_str(args, "name", &len);
	else if (strcmp(name, "process_sort_index") == 0 ||
	    strcmp(name, "thread_sort_index") == 0) {
		if (load_get_int(t, args, "sort_index", &n) <= 0)
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

static void
take_flow(struct trace *t, json_object *obj, int ph, int64_t pid,
    const char *pid_text, int64_t ts, uint16_t cat)
{
	struct flow f;
	json_object *v;
	int64_t tid;
	const char *tid_text = get_id(obj, "tid", &tid);
	size_t len;
	const char *bp = load_get_str(obj, "bp", &len);

	memset(&f, 0, sizeof f);
	if (json_object_object_get_ex(obj, "id", &v)) {
		if (json_object_is_type(v, json_type_int))
			f.id = json_object_get_int64(v);
		else
			f.id = (int64_t)hash_text(json_object_get_string(v));
	} else if (json_object_object_get_ex(obj, "id2", &v)) {
		f.id = (int64_t)hash_text(json_object_to_json_string(v));
	} else {
		t->warn.missing_fields++;
		return;
	}
	flow_add(t, &f, ph, pid, pid_text, tid, tid_text, ts, cat, bp);
}

/*
 * Turns one element of the event array into the model.  Returns 1 if it was
 * an object with a "ph" phase, i.e. looked like a trace event.
 */
int
event_jsonc_take(struct trace *t, json_object *obj)
{
	const char *ph_s, *name, *cat_s, *pid_text, *tid_text;
	size_t ph_len, name_len = 0, cat_len = 0;
	int64_t pid, tid, ts, dur = 0;
	int r, ph, dur_r = 0, memory;
	uint16_t cat;
	enum cat_kind kind;
	struct event ev;
	struct args_rec rec;
	json_object *args = NULL;

	if (obj == NULL || !json_object_is_type(obj, json_type_object)) {
		t->warn.non_object_events++;
		return 0;
	}
	t->objects++;
	ph_s = load_get_str(obj, "ph", &ph_len);
	if (ph_s == NULL || ph_len != 1) {
		if (ph_s == NULL)
			t->warn.missing_fields++;
		else
			t->warn.unknown_phase++;
		return ph_s != NULL;
	}
	ph = ph_s[0];
	name = load_get_str(obj, "name", &name_len);
	if (name == NULL)
		name = "";
	if (ph == 'M') {
		take_metadata(t, obj, name);
		return 1;
	}
	if (ph != 'X' && ph != 'B' && ph != 'E' && ph != 'i' && ph != 'I' &&
	    ph != 'C' && ph != 's' && ph != 't' && ph != 'f') {
		t->warn.unknown_phase++;
		return 1;
	}
	r = get_time(obj, "ts", &ts);
	if (r <= 0) {
		if (r == 0)
			t->warn.missing_fields++;
		else
			event_count_bad_time(t, r);
		return 1;
	}
	cat_s = load_get_str(obj, "cat", &cat_len);
	if (cat_s == NULL)
		cat_s = "";
	cat = event_category(t, name, name_len, cat_s, cat_len, &kind);
	pid_text = get_id(obj, "pid", &pid);

	if (ph == 'C') {
		take_counter(t, obj, name, pid, pid_text, ts, cat);
		return 1;
	}
	if (ph == 's' || ph == 't' || ph == 'f') {
		take_flow(t, obj, ph, pid, pid_text, ts, cat);
		return 1;
	}
	tid_text = get_id(obj, "tid", &tid);
	if (!event_start(t, &ev, ph, ts, pid, pid_text, tid, tid_text))
		return 1;
	if (ph == 'X')
		dur_r = get_time(obj, "dur", &dur);
	memory = event_fill(t, &ev, ph, dur_r, dur,
	    trace_intern(t, name, name_len), name, cat, kind,
	    ph == 'X' ? (uint8_t)trace_classify(kind) : CLASS_NONE);
	json_object_object_get_ex(obj, "args", &args);
	rec = take_args(t, args, memory);
	event_add(t, &ev, &rec, ph);
	return 1;
}

/* ---- the header ------------------------------------------------------ */

static void
take_devices(struct trace *t, json_object *arr)
{
	size_t n;

	if (!json_object_is_type(arr, json_type_array))
		return;
	n = json_object_array_length(arr);
	for (size_t i = 0; i < n; i++) {
		json_object *d = json_object_array_get_idx(arr, i);
		struct device_prop p;
		int64_t v;

		if (d == NULL || !json_object_is_type(d, json_type_object))
			continue;
		memset(&p, 0, sizeof p);
		p.id = load_get_int(t, d, "id", &v) > 0 ? v : (int64_t)i;
		p.name = event_intern_arg(t, d, "name");
		p.compute_major = load_get_int(t, d, "computeMajor", &v) > 0 ? (int32_t)v : -1;
		p.compute_minor = load_get_int(t, d, "computeMinor", &v) > 0 ? (int32_t)v : -1;
		p.num_sms = load_get_int(t, d, "numSms", &v) > 0 ? (int32_t)v : -1;
		p.total_mem = load_get_int(t, d, "totalGlobalMem", &v) > 0 ? v : -1;
		xgrow(&t->devices, &t->devices_cap, t->ndevices + 1, sizeof *t->devices);
		t->devices[t->ndevices++] = p;
	}
}

void
event_jsonc_header(struct trace *t, const char *key, json_object *v)
{
	int64_t n;

	if (v == NULL)
		return;
	if (strcmp(key, "deviceProperties") == 0) {
		take_devices(t, v);
	} else if (strcmp(key, "distributedInfo") == 0 &&
	    json_object_is_type(v, json_type_object)) {
		t->has_distributed = 1;
		if (load_get_int(t, v, "rank", &n) > 0) {
			if (n >= 0 && n <= TRACE_RANK_MAX)
				t->dist_rank = n;
			else
				t->warn.bad_rank++;
		}
		if (load_get_int(t, v, "world_size", &n) > 0) {
			if (n >= 1 && n <= TRACE_WORLD_MAX)
				t->world_size = n;
			else
				t->warn.bad_rank++;
		}
		t->dist_backend = event_intern_arg(t, v, "backend");
	} else if (strcmp(key, "baseTimeNanoseconds") == 0) {
		if (json_object_is_type(v, json_type_int)) {
			t->base_time_ns = json_object_get_int64(v);
			t->has_base_time = 1;
		}
	}
}

