/*
 * jscan — a fast decoder of one trace event object, without a JSON DOM.
 *
 * load reads most events through here rather than through json-c: jscan
 * decodes one object from a buffer straight into the few fields the model
 * needs (name, cat, ph, ts, dur, pid, tid, id, id2, bp, args and the keys of
 * args the analysis reads) and validates and skips everything else.  It is
 * deliberately narrow: it accepts only standard JSON (RFC 8259) in the shapes
 * PyTorch writes, and answers JSCAN_FALLBACK on anything it does not decode
 * exactly as json-c would (invalid or non-standard JSON, a duplicate or
 * escaped known key, an integer of 19 digits or more where one is read, a
 * string with a raw control character, \u0000 or a lone surrogate, nesting
 * deeper than JSCAN_MAX_DEPTH).  The caller then parses that event with
 * json-c, which stays the reference for every error message and edge case.
 *
 * Values are kept as they are in the file: numbers as their text (so that
 * timestamps go through units_us_to_ns() exactly, never through a double)
 * with the value of integers of up to 18 digits; strings decoded (escapes,
 * \uXXXX with surrogate pairs, to UTF-8) and NUL-terminated in the scanner's
 * scratch.  Number texts point into the caller's buffer; both stay valid
 * until the next jscan_event() or until the caller changes the buffer.
 *
 * O(n) in the bytes of the event; no allocation once the scratch has grown
 * to the longest decoded strings.
 */
#ifndef GANTTY_JSCAN_H
#define GANTTY_JSCAN_H

#include <stddef.h>
#include <stdint.h>

#define JSCAN_MAX_DEPTH 32
#define JSCAN_SLOTS 256         /* hash slots for the known keys */

enum jscan_status {
	JSCAN_OK = 0,           /* one object decoded; *used is its length */
	JSCAN_MORE = 1,         /* the buffer ends inside it: give more bytes */
	JSCAN_FALLBACK = 2,     /* not decoded: parse it with json-c */
};

enum jv_type {
	JV_ABSENT = 0,          /* no such key */
	JV_NULL,
	JV_BOOL,
	JV_INT,                 /* an integer of up to 18 digits: i is its value */
	JV_DOUBLE,              /* any other number: s, len is its text */
	JV_STRING,              /* s is the decoded text, NUL-terminated */
	JV_ARRAY,
	JV_OBJECT,
};

struct jval {
	uint8_t type;           /* enum jv_type */
	const char *s;          /* JV_INT, JV_DOUBLE: the text; JV_STRING: decoded */
	size_t len;
	int64_t i;              /* JV_INT: the value */
};

/* The fields decoded: keys of the event, then keys of its args object. */
#define JSCAN_FIELDS(X) \
	X(JF_PH, 0, "ph") \
	X(JF_NAME, 0, "name") \
	X(JF_CAT, 0, "cat") \
	X(JF_TS, 0, "ts") \
	X(JF_DUR, 0, "dur") \
	X(JF_PID, 0, "pid") \
	X(JF_TID, 0, "tid") \
	X(JF_ID, 0, "id") \
	X(JF_ID2, 0, "id2") \
	X(JF_BP, 0, "bp") \
	X(JF_ARGS, 0, "args") \
	X(JA_CORRELATION, 1, "correlation") \
	X(JA_EXTERNAL_ID, 1, "External id") \
	X(JA_EXTERNAL_ID_LC, 1, "external id") \
	X(JA_DEVICE, 1, "device") \
	X(JA_STREAM, 1, "stream") \
	X(JA_FLOPS, 1, "flops") \
	X(JA_TOTAL_ALLOCATED, 1, "Total Allocated") \
	X(JA_TOTAL_RESERVED, 1, "Total Reserved") \
	X(JA_DEVICE_ID, 1, "Device Id") \
	X(JA_DEVICE_TYPE, 1, "Device Type") \
	X(JA_COLLECTIVE, 1, "Collective name") \
	X(JA_PG_NAME, 1, "Process Group Name") \
	X(JA_DTYPE, 1, "dtype") \
	X(JA_GROUP_SIZE, 1, "Group size") \
	X(JA_IN_NELEMS, 1, "In msg nelems") \
	X(JA_OUT_NELEMS, 1, "Out msg nelems") \
	X(JA_SEQ_UC, 1, "Seq") \
	X(JA_SEQ, 1, "seq") \
	X(JA_SEQ_NR, 1, "Sequence number") \
	X(JA_FWD_TID, 1, "Fwd thread id") \
	X(JA_WAIT_STREAM, 1, "wait_on_stream") \
	X(JA_WAIT_RECORD, 1, "wait_on_cuda_event_record_corr_id") \
	X(JA_NAME, 1, "name") \
	X(JA_SORT_INDEX, 1, "sort_index")

enum jscan_field {
#define X(id, inargs, key) id,
	JSCAN_FIELDS(X)
#undef X
	JF_COUNT
};

struct jscan {
	struct jval f[JF_COUNT];  /* indexed by enum jscan_field */
	/*
	 * Set by the caller: leave the keys of args undecoded (JA_* stay
	 * absent), only validated, for jscan_args() later, elsewhere.
	 */
	int defer_args;
	size_t args_off, args_len; /* where the args object is in the event, if any */
	uint8_t present[JF_COUNT]; /* the fields found (not JV_ABSENT), in file order */
	int npresent;
	/* private */
	uint8_t slots[2][JSCAN_SLOTS]; /* known keys of the event, of args: field + 1 */
	char *scratch;            /* decoded strings */
	size_t scratch_cap, scratch_used;
};

/* Initialises an empty scanner. */
void jscan_init(struct jscan *js);
/* Frees what js owns; js may be zeroed. */
void jscan_free(struct jscan *js);

/*
 * Decodes the object at buf[0] (which should be '{') of the len bytes at
 * buf into js->f.  Returns JSCAN_OK with *used set to the object's length,
 * JSCAN_MORE when buf ends before the object does (and nothing is wrong so
 * far), or JSCAN_FALLBACK (see the top of this file).  Never fails otherwise.
 */
int jscan_event(struct jscan *js, const char *buf, size_t len, size_t *used);

/*
 * Decodes the args object that is exactly the len bytes at buf (as found by
 * a jscan_event() with defer_args) into the JA_* fields of js->f, leaving
 * the other fields alone.  Returns JSCAN_OK or JSCAN_FALLBACK (then the
 * whole event is json-c's).
 */
int jscan_args(struct jscan *js, const char *buf, size_t len);

#endif
