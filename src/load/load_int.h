/*
 * load_int — the private interface between the files of the loader.
 *
 * Only the .c files of src/load/ may include this header; everything else
 * uses load.h.  The loader is one struct reader (the read buffer over a plain or gzip
 * file, the decoders' state, the threads it runs) and these files:
 *
 *     load.c         load_trace() and the document: the top-level object,
 *                    the event array, errors and how a file ended
 *     reader.c       the byte stream: read, the buffer, line counting,
 *                    json-c values and skipping deep ones
 *     gzip.c         gzip inflated (ISA-L where built with it, else zlib)
 *     value.c        a value read the same way from either decoder
 *     event.c        the steps of reading an event both decoders share
 *     event_jsonc.c  the json-c decoder: an event (and the header values)
 *                    from a json_object, the reference
 *     event_jscan.c  the fast decoder: an event from jscan's fields
 *     inflater.c     the inflater thread (gzip inflated ahead of decoding)
 *     taker.c        the taker thread (the model built from queued ops)
 *     chunks.c       chunks (a file, plain or gzip, read from several places at once)
 *     chunk.h        a chunk as the readers around it see it, so that they
 *                    need not call chunks.c, which calls them
 *
 * A reader, its trace and its error belong to the thread that reads; each
 * thread file says what it shares and how.  Positions are byte offsets of
 * the decompressed stream.  The names here are internal to src/load/.
 */
#ifndef GANTTY_LOAD_INT_H
#define GANTTY_LOAD_INT_H

#include <json-c/json.h>
#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

#include "load/jscan.h"
#include "model/trace.h"

struct load_opts;
struct load_error;
struct chunk;
struct inflate_state;
struct inflater;
struct taker;

/*
 * A reader's buffer, read into at a time.  Every chunk of a file has one,
 * written in full: at 64 chunks (a cluster node) 1 MB each was 48 MB more
 * at the peak than this, and no faster.
 */
#define READ_CHUNK (256u << 10)
#define RD_IN_CHUNK (256u << 10)        /* compressed input read at a time */
#define MAX_DEPTH 64            /* json-c nesting limit for one event */

struct reader {
	int fd;
	const char *path;
	char *buf;
	size_t cap;             /* size of buf: READ_CHUNK, more while a value is marked */
	size_t len, pos;        /* buf[pos..len) is unread */
	size_t mark;            /* buf[mark..) is kept across refills while marked */
	int marked;
	uint64_t base;          /* offset of buf[0] in the (decompressed) stream */
	uint64_t lines;         /* newlines before buf[counted] */
	size_t counted;
	int eof;

	/* the file: plain, or gzip (by its magic bytes) inflated here */
	int gzip;
	z_stream z;
	int z_ready;            /* inflateInit2() done */
	int z_done;             /* the gzip data ended (or broke): no more output */
	int gz_cut;             /* it ended inside a member: the file was cut short */
	uint64_t gz_trailing;   /* bytes after the last member: the trace's
	                           trailing_bytes once this reader read to the
	                           end (not its own trace's: a reader before a
	                           gzip chunk inflates past the chunk's start,
	                           maybe to the end, as the chunk does) */
	unsigned char *in;      /* compressed input; z.next_in points into it */
	int in_eof;
	uint64_t raw_read;      /* bytes read from the file */
	uint64_t raw_seen;      /* of them, those the reader has had (for progress) */
	struct inflater *inflater; /* inflates in a thread, or NULL */
	struct inflate_state *isal; /* ISA-L inflates first, or NULL (gzip.c) */
	uint64_t member_raw;    /* the raw offset of the current gzip member */
	uint64_t member_out;    /* the bytes ISA-L has inflated of it */
	int member_checked;     /* zlib has read its start (gzip.c) */
	int bad;                /* corrupt gzip data or a read error */
	char badmsg[256];       /* "corrupt gzip data at compressed byte N: why" */

	uint64_t file_size;
	uint64_t data_size;     /* the data's size: file_size, or for gzip its
	                           trailer's guess (chunks.c) */
	uint64_t next_progress;
	const struct load_opts *opts;
	struct load_error *err;
	struct trace *t;
	json_tokener *tok;
	struct jscan js;
	int fast;               /* decode events with jscan where it can */
	uint64_t value_limit;   /* rd_value(): at most this many bytes (0: any) */
	struct taker *taker;    /* the taker thread, or NULL */
	uint64_t last_good;     /* offset just past the last complete item */
	uint64_t phased;        /* array entries that looked like events */
	int events_seen;        /* the event array was reached */
	uint64_t obj_off;       /* the offset of the event object being read
	                           (its ops carry it: trace.h src_off) */
	int in_events;          /* inside it: its ']' not read yet */

	/* the last error load_set_error() wrote, in parts (see chunk_join()) */
	uint64_t err_off, err_line;
	char err_what[600];
	int err_set;

	/* reading in chunks (chunks.c) */
	uint64_t split_min;     /* the smallest part to read in chunks; 0: never */
	int split_threads;      /* threads for this reader's part, its own too */
	struct chunk *next;     /* the chunk after this reader's part, or NULL */
	struct chunk *chunk;    /* the chunk this reader reads; NULL: the first */
	int next_result;        /* the next chunk's result, once joined */
};

enum {
	RD_OK = 1, RD_EOF = 0, RD_ERR = -1, RD_DEEP = -2, RD_DONE = 2,
	RD_SPLIT = 3,           /* the rest was read by the next chunk: see next_result */
	RD_CANCEL = -3,         /* a chunk stopped: its work is not wanted */
};

/*
 * While reading, every change to the trace is an op: applied at once with
 * one thread, else queued in batches for the taker (taker.c).  Ops own what
 * they carry (json-c objects, keys).
 */
enum op_kind {
	OP_JSCAN,               /* a decoded event: fields in the batch arena */
	OP_JSONC,               /* an element of the event array, parsed by json-c */
	OP_DEEP_OBJECT,         /* an event too deep for json-c */
	OP_DEEP_OTHER,          /* a non-object element too deep for json-c */
	OP_HEADER,              /* a top-level key and value */
	OP_HEADER_DEEP,         /* a header value too deep for json-c */
};

struct op {
	int kind;
	json_object *obj;       /* OP_JSONC, OP_HEADER */
	char *key;              /* OP_HEADER */
	/*
	 * OP_JSCAN: nfields fields at arena[off]; when it has an args object,
	 * the event's text at arena[raw], raw_len bytes, with args undecoded
	 * at raw + args_off (the taker decodes them).
	 */
	size_t off, raw, raw_len, args_off, args_len;
	uint32_t nfields;
	uint64_t src_off;       /* the event object's offset (OP_JSCAN, OP_JSONC) */
};


/* ---- reader.c: the byte stream ---------------------------------------- */

static inline uint64_t
rd_offset(const struct reader *rd)
{
	return rd->base + rd->pos;
}

void rd_init(struct reader *rd, int fd, const char *path, struct trace *t,
    struct load_error *err);
void rd_release(struct reader *rd);
json_tokener *rd_tokener(void);
void rd_open(struct reader *rd);
int rd_refill(struct reader *rd);
int rd_skip_to(struct reader *rd, uint64_t off, size_t want);
int rd_peek(struct reader *rd);
int rd_value(struct reader *rd, json_object **out);
int rd_skip(struct reader *rd);
uint64_t rd_drain(struct reader *rd);
uint64_t rd_line_at(struct reader *rd, size_t pos);
void load_set_error(struct reader *rd, size_t pos, const char *fmt, ...);

/* ---- gzip.c: gzip data inflated ---------------------------------------- */

size_t rd_raw_read(struct reader *rd, void *dst, size_t size);
void rd_fill_input(struct reader *rd);
void rd_gz_open(struct reader *rd);
uint64_t rd_gz_size_guess(struct reader *rd);
size_t rd_gz_read(struct reader *rd, char *dst, size_t size);
void rd_gz_release(struct reader *rd);

/* ---- inflater.c: the inflater thread ----------------------------------- */

struct inflater *inflater_start(struct reader *rd);
size_t inflater_read(struct inflater *in, char *dst, size_t size, uint64_t *raw);
void inflater_stop(struct reader *rd);

/* ---- event.c: the steps both decoders share ----------------------------- */

/*
 * The args object of one event as either decoder holds it: json-c's object
 * (obj), else jscan's decoded fields (f).  Both are read by field id
 * (jscan.h) with the same rules, so the two decoders keep the same args.
 */
struct arg_src {
	struct trace *t;
	json_object *obj;
	const struct jval *f;
};

void event_count_bad_time(struct trace *t, int r);
int64_t event_checked_dur(struct trace *t, int r, int64_t dur, int64_t ts);
struct args_rec args_take(const struct arg_src *s, int is_memory);
void flow_add(struct trace *t, struct flow *f, int ph, int64_t pid,
    const char *pid_text, int64_t tid, const char *tid_text, int64_t ts,
    uint16_t cat, const char *bp);
uint16_t event_category(struct trace *t, const char *name, size_t name_len,
    const char *cat_s, size_t cat_len, enum cat_kind *kind);
int event_start(struct trace *t, struct event *ev, int ph, int64_t ts,
    int64_t pid, const char *pid_text, int64_t tid, const char *tid_text);
int event_fill(struct trace *t, struct event *ev, int ph, int dur_r,
    int64_t dur, uint32_t name_id, const char *name, uint16_t cat,
    enum cat_kind kind, uint8_t cls);
void event_add(struct trace *t, const struct event *ev,
    const struct args_rec *r, int ph);

/* ---- value.c: a value from either decoder ----------------------------- */

/*
 * An integer given as a string ("12"): 1 with *out, 0 when s is not one,
 * -1 (counted) beyond int64.
 */
int text_int(struct trace *t, const char *s, int64_t *out);
/* Whether the string id s is a decimal integer (then *id is it). */
int text_id(const char *s, int64_t *id);
/* A member of obj: a string (NULL if absent or another type, else *len). */
const char *load_get_str(json_object *obj, const char *key, size_t *len);
/* An integer (also a double or digits in a string): 1 found, 0 absent,
 * -1 beyond int64. */
int load_get_int(struct trace *t, json_object *obj, const char *key, int64_t *out);
/* A number: 1 found, 0 absent or not a number. */
int load_get_double(json_object *obj, const char *key, double *out);
/* A string interned in t (0: absent). */
uint32_t event_intern_arg(struct trace *t, json_object *args, const char *key);
/* The same three over jscan's values (jv_str(): NULL unless a string). */
const char *jv_str(const struct jval *v, size_t *len);
int jv_int(struct trace *t, const struct jval *v, int64_t *out);
int jv_double(const struct jval *v, double *out);
uint32_t jv_intern(struct trace *t, const struct jval *v);

/* ---- event_jsonc.c: the json-c decoder --------------------------------- */

int event_jsonc_take(struct trace *t, json_object *obj);
void event_jsonc_header(struct trace *t, const char *key, json_object *v);

/* ---- event_jscan.c: the fast decoder ----------------------------------- */

int jscan_takes(const struct jval *f);
int event_jscan_take(struct trace *t, const struct jval *f);

/* ---- taker.c: the taker thread ----------------------------------------- */

struct taker *taker_start(struct reader *rd);
void taker_stop(struct reader *rd);
void rd_sync(struct reader *rd);
void taker_op_apply(struct reader *rd, const struct op *op, const struct jval *f);
void rd_emit(struct reader *rd, int kind, json_object *obj, char *key);
void rd_emit_jscan(struct reader *rd, const char *raw, size_t len);

/* ---- chunks.c: chunks ------------------------------------------------ */

/* chunk_at(), chunk_cancelled(), chunk_defer(): load/chunk.h */
/* read: what the chunk's thread runs on its reader (read_part(), load.c) */
void chunk_start(struct reader *rd, int (*read)(struct reader *rd));
void chunk_abandon(struct reader *rd);
int chunk_join(struct reader *rd);

/* ---- load.c: the document ---------------------------------------------- */

int load_read_events(struct reader *rd);
int load_read_object(struct reader *rd, int resume);

#endif
