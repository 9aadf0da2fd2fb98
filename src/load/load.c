#include "config.h"

#include "load/load.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "load/jscan.h"
#include "model/trace.h"
#include "base/units.h"
#include "base/xalloc.h"

#define READ_CHUNK (1u << 20)
/* The smallest plain file read in two halves at once (see "two halves"). */
#define SPLIT_MIN ((uint64_t)8 << 20)
#define IN_CHUNK (256u << 10)
#define PROGRESS_EVERY (8u << 20)
/*
 * One value may hold on to the read buffer (to be skipped if it is nested
 * too deeply for json-c) up to this size; beyond, its start is let go.
 */
#define MARK_LIMIT ((size_t)256 << 20)
#define MAX_DEPTH 64            /* json-c nesting limit for one event */
/* An event longer than this is left to json-c, which streams it. */
#define JSCAN_LIMIT ((size_t)4 << 20)

/*
 * The class of kernels by name id (class + 1, 0 unknown): classifying
 * searches the (long) name, and a trace repeats a few names many times.
 */
struct class_cache {
	uint8_t *cls;
	size_t cap;
};

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
	unsigned char *in;      /* compressed input; z.next_in points into it */
	int in_eof;
	uint64_t raw_read;      /* bytes read from the file */
	uint64_t raw_seen;      /* of them, those the reader has had (for progress) */
	struct inflater *inflater; /* inflates in a thread, or NULL */
	int bad;                /* corrupt gzip data or a read error */
	char badmsg[256];       /* "corrupt gzip data at compressed byte N: why" */

	uint64_t file_size;
	uint64_t next_progress;
	const struct load_opts *opts;
	struct load_error *err;
	struct trace *t;
	json_tokener *tok;
	struct jscan js;
	int fast;               /* decode events with jscan where it can */
	struct taker *taker;    /* the taker thread, or NULL */
	struct class_cache classes; /* the taker's */
	uint64_t last_good;     /* offset just past the last complete item */
	uint64_t phased;        /* array entries that looked like events */
	int events_seen;        /* the event array was reached */

	/* the last error set_error() wrote, in parts (see half_join()) */
	uint64_t err_off, err_line;
	char err_what[600];
	int err_set;

	/* reading in two halves (see "two halves" below) */
	uint64_t split_min;     /* the smallest file to read in two halves; 0: never */
	struct half *half;      /* the first half's reader: the second half */
	struct half *self;      /* the second half's reader: its half */
	int half_result;        /* the second half's result, once joined */
};

enum {
	RD_OK = 1, RD_EOF = 0, RD_ERR = -1, RD_DEEP = -2, RD_DONE = 2,
	RD_SPLIT = 3,           /* the rest was read by the second half: see half_result */
	RD_CANCEL = -3,         /* the second half stopped: its work is not wanted */
};

static uint64_t half_at(const struct half *h);
struct op;
static void half_defer(struct half *h, const struct op *op);

static uint64_t
rd_offset(const struct reader *rd)
{
	return rd->base + rd->pos;
}

/* Returns how many newlines the n bytes at p hold. */
static uint64_t
count_lines(const char *p, size_t n)
{
	uint64_t lines = 0;
	size_t i = 0;

#ifdef __SSE2__
	const __m128i nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();

	/* per-byte counters (cmpeq gives -1 per match), summed every 255 rounds */
	while (i + 16 <= n) {
		__m128i acc = zero;
		uint64_t sums[2];

		for (int k = 0; k < 255 && i + 16 <= n; k++, i += 16) {
			__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + i));

			acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(x, nl));
		}
		_mm_storeu_si128((__m128i *)(void *)sums, _mm_sad_epu8(acc, zero));
		lines += sums[0] + sums[1];
	}
#endif
	for (; i < n; i++)
		lines += p[i] == '\n';
	return lines;
}

/* Returns the 1-based line of buffer position pos (>= rd->counted). */
static uint64_t
rd_line_at(struct reader *rd, size_t pos)
{
	if (pos > rd->counted)
		rd->lines += count_lines(rd->buf + rd->counted, pos - rd->counted);
	rd->counted = pos;
	return rd->lines + 1;
}

static void
set_error(struct reader *rd, size_t pos, const char *fmt, ...)
{
	char what[600];
	va_list ap;
	uint64_t off = rd->base + pos, line = rd_line_at(rd, pos);

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	snprintf(rd->err->msg, sizeof rd->err->msg, "%s: byte %llu (line %llu): %s",
	    rd->path, (unsigned long long)off, (unsigned long long)line, what);
	rd->err_off = off;
	rd->err_line = line;
	memcpy(rd->err_what, what, sizeof what);
	rd->err_set = 1;
}

/*
 * Reads up to size raw bytes of the file into dst; 0 at the end.  A read
 * error ends the data too, with rd->bad set.
 */
static size_t
raw_read(struct reader *rd, void *dst, size_t size)
{
	for (;;) {
		ssize_t n = read(rd->fd, dst, size);

		if (n >= 0) {
			rd->raw_read += (uint64_t)n;
			return (size_t)n;
		}
		if (errno == EINTR)
			continue;
		rd->bad = 1;
		snprintf(rd->badmsg, sizeof rd->badmsg, "read error at byte %llu: %s",
		    (unsigned long long)rd->raw_read, strerror(errno));
		return 0;
	}
}

/* Moves the unread compressed input to the front and reads more after it. */
static void
fill_input(struct reader *rd)
{
	size_t have = rd->z.avail_in, n;

	if (rd->in_eof)
		return;
	memmove(rd->in, rd->z.next_in, have);
	n = raw_read(rd, rd->in + have, IN_CHUNK - have);
	if (n == 0)
		rd->in_eof = 1;
	rd->z.next_in = rd->in;
	rd->z.avail_in = (uInt)(have + n);
}

static void
gz_corrupt(struct reader *rd, const char *why)
{
	rd->bad = 1;
	rd->z_done = 1;
	snprintf(rd->badmsg, sizeof rd->badmsg,
	    "corrupt gzip data at compressed byte %llu: %s",
	    (unsigned long long)(rd->raw_read - rd->z.avail_in),
	    why != NULL ? why : "unknown error");
}

/*
 * Inflates up to size bytes into dst; returns how many, 0 at the end.  Every
 * byte inflated before corrupt data is kept (zlib's gzread() would drop the
 * last call's output); a cut-off stream simply ends, and the JSON reader
 * counts what it could not use.  Concatenated gzip members are read in turn;
 * anything else after a member is counted as trailing bytes.
 */
static size_t
gz_read(struct reader *rd, char *dst, size_t size)
{
	rd->z.next_out = (unsigned char *)dst;
	rd->z.avail_out = (uInt)(size > UINT32_MAX ? UINT32_MAX : size);
	while (!rd->z_done && rd->z.next_out == (unsigned char *)dst) {
		int zr;

		if (rd->z.avail_in == 0) {
			fill_input(rd);
			if (rd->z.avail_in == 0) {
				rd->z_done = rd->gz_cut = 1;
				break;
			}
		}
		zr = inflate(&rd->z, Z_NO_FLUSH);
		if (zr == Z_STREAM_END) {
			if (rd->z.avail_in < 2)
				fill_input(rd);
			if (rd->z.avail_in == 0) {
				rd->z_done = 1;
			} else if (rd->z.avail_in >= 2 && rd->z.next_in[0] == 0x1f &&
			    rd->z.next_in[1] == 0x8b) {
				inflateReset(&rd->z);   /* the next member */
			} else {
				uint64_t n = rd->z.avail_in;

				rd->z.avail_in = 0;
				while (fill_input(rd), rd->z.avail_in > 0) {
					n += rd->z.avail_in;
					rd->z.avail_in = 0;
				}
				rd->t->warn.trailing_bytes += n;
				rd->z_done = 1;
			}
		} else if (zr == Z_MEM_ERROR) {
			fprintf(stderr, "gantty: out of memory inflating %s\n", rd->path);
			abort();
		} else if (zr != Z_OK && zr != Z_BUF_ERROR) {
			gz_corrupt(rd, rd->z.msg);
		}
	}
	return (size_t)((char *)rd->z.next_out - dst);
}

/* ---- the inflater thread ----------------------------------------------
 *
 * With more than one thread, gzip data is inflated by a thread of its own
 * into a ring of blocks that rd_read() copies from, so inflating overlaps
 * decoding.  Only the inflater touches the zlib state and what gz_read()
 * sets (bad, badmsg, gz_cut, raw_read, warn.trailing_bytes) until it has
 * delivered the end; the reader looks at those only after it has seen the
 * end (or stopped the inflater).
 */
#define NBLOCK 4

struct inflater {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	char *data[NBLOCK];
	size_t len[NBLOCK];
	uint64_t raw[NBLOCK];   /* compressed bytes read once the block was full */
	uint64_t head, tail;    /* blocks tail..head-1 (mod NBLOCK) are full */
	size_t pos;             /* the reader's position in block tail */
	int done;               /* every block is delivered */
	int quit;               /* the reader wants no more */
	struct reader *rd;
};

static void *
inflater_main(void *arg)
{
	struct inflater *in = arg;

	for (;;) {
		size_t slot, filled = 0, n = 1;

		pthread_mutex_lock(&in->mu);
		while (in->head - in->tail >= NBLOCK && !in->quit)
			pthread_cond_wait(&in->cv, &in->mu);
		if (in->quit) {
			pthread_mutex_unlock(&in->mu);
			return NULL;
		}
		pthread_mutex_unlock(&in->mu);
		slot = in->head % NBLOCK;
		while (filled < READ_CHUNK &&
		    (n = gz_read(in->rd, in->data[slot] + filled, READ_CHUNK - filled)) > 0)
			filled += n;
		pthread_mutex_lock(&in->mu);
		if (filled > 0) {
			in->len[slot] = filled;
			in->raw[slot] = in->rd->raw_read;
			in->head++;
		}
		if (n == 0)
			in->done = 1;
		pthread_cond_broadcast(&in->cv);
		pthread_mutex_unlock(&in->mu);
		if (n == 0)
			return NULL;
	}
}

/* Starts inflating rd's gzip data in a thread; NULL (inflate here) if it cannot. */
static struct inflater *
inflater_start(struct reader *rd)
{
	struct inflater *in = xcalloc(1, sizeof *in);

	in->rd = rd;
	for (int i = 0; i < NBLOCK; i++)
		in->data[i] = xmalloc(READ_CHUNK);
	pthread_mutex_init(&in->mu, NULL);
	pthread_cond_init(&in->cv, NULL);
	if (pthread_create(&in->thread, NULL, inflater_main, in) != 0) {
		pthread_cond_destroy(&in->cv);
		pthread_mutex_destroy(&in->mu);
		for (int i = 0; i < NBLOCK; i++)
			free(in->data[i]);
		free(in);
		return NULL;
	}
	return in;
}

/* Copies up to size inflated bytes to dst; 0 at the end. */
static size_t
inflater_read(struct inflater *in, char *dst, size_t size, uint64_t *raw)
{
	size_t slot, n;

	pthread_mutex_lock(&in->mu);
	while (in->tail == in->head && !in->done)
		pthread_cond_wait(&in->cv, &in->mu);
	if (in->tail == in->head) {
		pthread_mutex_unlock(&in->mu);
		return 0;
	}
	pthread_mutex_unlock(&in->mu);
	slot = in->tail % NBLOCK;
	n = in->len[slot] - in->pos < size ? in->len[slot] - in->pos : size;
	memcpy(dst, in->data[slot] + in->pos, n);
	in->pos += n;
	*raw = in->raw[slot];
	if (in->pos == in->len[slot]) {
		pthread_mutex_lock(&in->mu);
		in->tail++;
		in->pos = 0;
		pthread_cond_broadcast(&in->cv);
		pthread_mutex_unlock(&in->mu);
	}
	return n;
}

/* Stops the inflater (wherever it is) and frees it. */
static void
inflater_stop(struct reader *rd)
{
	struct inflater *in = rd->inflater;

	if (in == NULL)
		return;
	pthread_mutex_lock(&in->mu);
	in->quit = 1;
	pthread_cond_broadcast(&in->cv);
	pthread_mutex_unlock(&in->mu);
	pthread_join(in->thread, NULL);
	pthread_cond_destroy(&in->cv);
	pthread_mutex_destroy(&in->mu);
	for (int i = 0; i < NBLOCK; i++)
		free(in->data[i]);
	free(in);
	rd->inflater = NULL;
}

/* Reads the next bytes of the (decompressed) stream into dst; 0 at the end. */
static size_t
rd_read(struct reader *rd, char *dst, size_t size)
{
	size_t got;

	if (rd->inflater != NULL)
		return inflater_read(rd->inflater, dst, size, &rd->raw_seen);
	if (rd->gzip) {
		got = gz_read(rd, dst, size);
		rd->raw_seen = rd->raw_read;
		return got;
	}
	if (rd->z.avail_in > 0) {       /* bytes read to look for the magic */
		size_t n = rd->z.avail_in < size ? rd->z.avail_in : size;

		memcpy(dst, rd->z.next_in, n);
		rd->z.next_in += n;
		rd->z.avail_in -= (uInt)n;
		return n;
	}
	got = rd->bad ? 0 : raw_read(rd, dst, size);
	rd->raw_seen = rd->raw_read;
	return got;
}

/* Reads the first bytes and sets up inflating if they are gzip's magic. */
static void
rd_open(struct reader *rd)
{
	rd->in = xmalloc(IN_CHUNK);
	rd->z.next_in = rd->in;
	rd->z.avail_in = 0;
	while (rd->z.avail_in < 2 && !rd->in_eof)
		fill_input(rd);
	if (rd->z.avail_in >= 2 && rd->in[0] == 0x1f && rd->in[1] == 0x8b) {
		rd->gzip = 1;
		if (inflateInit2(&rd->z, 15 + 16) != Z_OK) {
			fprintf(stderr, "gantty: out of memory inflating %s\n", rd->path);
			abort();
		}
		rd->z_ready = 1;
	}
}

/*
 * Reads the next chunk once the buffer is used up (keeping buf[mark..) when
 * a value is marked).  Returns 0 at the end.
 */
static int
rd_refill(struct reader *rd)
{
	size_t keep = rd->marked ? rd->mark : rd->len, n;

	if (rd->eof)
		return 0;
	rd_line_at(rd, keep);
	rd->base += keep;
	if (keep > 0 && keep < rd->len)
		memmove(rd->buf, rd->buf + keep, rd->len - keep);
	rd->len -= keep;
	rd->pos -= keep;
	rd->mark = 0;
	rd->counted = 0;
	if (rd->marked && rd->len >= MARK_LIMIT) {
		rd->marked = 0;         /* too big to keep: let its start go */
		rd_line_at(rd, rd->len);
		rd->base += rd->len;
		rd->pos -= rd->len;
		rd->len = rd->counted = 0;
	}
	if (rd->len + READ_CHUNK / 2 > rd->cap) {
		rd->cap *= 2;
		rd->buf = xreallocarray(rd->buf, rd->cap, 1);
	} else if (rd->len == 0 && rd->cap > READ_CHUNK) {
		free(rd->buf);
		rd->cap = READ_CHUNK;
		rd->buf = xmalloc(rd->cap);
	}
	n = rd_read(rd, rd->buf + rd->len, rd->cap - rd->len);
	if (n == 0) {
		rd->eof = 1;
		return 0;
	}
	rd->len += n;
	if (rd->opts != NULL && rd->opts->progress != NULL &&
	    rd->base + rd->len >= rd->next_progress) {
		uint64_t done = rd->raw_seen;

		/* the other half goes as fast: say how far both are */
		if (rd->half != NULL && rd->base + rd->len < half_at(rd->half))
			done = (uint64_t)((double)done * (double)rd->file_size /
			    (double)half_at(rd->half));
		rd->next_progress = rd->base + rd->len + PROGRESS_EVERY;
		rd->opts->progress(done, rd->file_size, rd->opts->progress_ctx);
	}
	return 1;
}

/* Skips white space; returns the next byte (not consumed) or -1 at the end. */
static int
rd_peek(struct reader *rd)
{
	for (;;) {
		while (rd->pos < rd->len) {
			char c = rd->buf[rd->pos];

			if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
				return (unsigned char)c;
			rd->pos++;
		}
		if (!rd_refill(rd))
			return -1;
	}
}

/*
 * Parses one JSON value at the read position.  RD_OK: *out is the value (NULL
 * for null), consumed.  RD_EOF: the input ended inside it.  RD_DEEP: it nests
 * deeper than json-c parses (MAX_DEPTH); the read position is back at its
 * start, for rd_skip().  RD_ERR: invalid JSON, message set.
 */
static int
rd_value(struct reader *rd, json_object **out)
{
	json_tokener_reset(rd->tok);
	rd->mark = rd->pos;
	rd->marked = 1;
	for (;;) {
		size_t avail = rd->len - rd->pos;
		enum json_tokener_error jerr;
		json_object *o;

		if (avail == 0) {
			if (!rd_refill(rd)) {
				rd->marked = 0;
				return RD_EOF;
			}
			continue;
		}
		if (avail > INT32_MAX)
			avail = INT32_MAX;
		o = json_tokener_parse_ex(rd->tok, rd->buf + rd->pos, (int)avail);
		jerr = json_tokener_get_error(rd->tok);
		if (jerr == json_tokener_success) {
			rd->pos += json_tokener_get_parse_end(rd->tok);
			rd->marked = 0;
			*out = o;
			return RD_OK;
		}
		if (jerr == json_tokener_continue) {
			rd->pos += avail;
			continue;
		}
		if (jerr == json_tokener_error_depth && rd->marked) {
			rd->pos = rd->mark;
			rd->marked = 0;
			return RD_DEEP;
		}
		rd->marked = 0;
		set_error(rd, rd->pos + json_tokener_get_parse_end(rd->tok),
		    "invalid JSON: %s", json_tokener_error_desc(jerr));
		return RD_ERR;
	}
}

/*
 * Skips the array or object at the read position without building it: only
 * brackets outside strings are counted, so any depth costs O(1) memory.
 * Returns RD_OK past its end, or RD_EOF.
 */
static int
rd_skip(struct reader *rd)
{
	uint64_t depth = 0;
	int in_str = 0, esc = 0;

	for (;;) {
		while (rd->pos < rd->len) {
			char c = rd->buf[rd->pos++];

			if (in_str) {
				if (esc)
					esc = 0;
				else if (c == '\\')
					esc = 1;
				else if (c == '"')
					in_str = 0;
			} else if (c == '"') {
				in_str = 1;
			} else if (c == '[' || c == '{') {
				depth++;
			} else if ((c == ']' || c == '}') && depth > 0 && --depth == 0) {
				return RD_OK;
			}
		}
		if (!rd_refill(rd))
			return RD_EOF;
	}
}

/* Reads to the end, returning how many bytes were left. */
static uint64_t
rd_drain(struct reader *rd)
{
	uint64_t from = rd_offset(rd);

	rd->pos = rd->len;
	while (rd_refill(rd))
		rd->pos = rd->len;
	return rd->base + rd->len - from;
}

/* ---- reading fields ------------------------------------------------- */

static const char *
get_str(json_object *obj, const char *key, size_t *len)
{
	json_object *v;

	if (!json_object_object_get_ex(obj, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	*len = (size_t)json_object_get_string_len(v);
	return json_object_get_string(v);
}

/* An integer argument: 1 found, 0 absent, -1 beyond int64. */
/*
 * An integer given as a string ("12"): 1 with *out, 0 when s is not one,
 * -1 (counted) beyond int64.  Both decoders' getters use it.
 */
static int
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
static int
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

static int
get_int(struct trace *t, json_object *obj, const char *key, int64_t *out)
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

static int
get_double(json_object *obj, const char *key, double *out)
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

/* Counts a failed time field: -1 unparseable, -2 out of range. */
static void
count_bad_time(struct trace *t, int r)
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
static int64_t
checked_dur(struct trace *t, int r, int64_t dur, int64_t ts)
{
	if (r < 0) {
		count_bad_time(t, r);
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

static int
has_control(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20)
			return 1;
	return 0;
}

static uint32_t
intern_arg(struct trace *t, json_object *args, const char *key)
{
	size_t len;
	const char *s = get_str(args, key, &len);

	return s ? strtab_intern(&t->strs, s, len) : 0;
}

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

static const char *const field_key[JF_COUNT] = {
#define X(id, inargs, key) [id] = key,
	JSCAN_FIELDS(X)
#undef X
};

static int jv_int(struct trace *t, const struct jval *v, int64_t *out);
static int jv_double(const struct jval *v, double *out);
static uint32_t jv_intern(struct trace *t, const struct jval *v);

static int
src_int(const struct arg_src *s, int field, int64_t *out)
{
	return s->obj != NULL ? get_int(s->t, s->obj, field_key[field], out) :
	    jv_int(s->t, &s->f[field], out);
}

static int
src_double(const struct arg_src *s, int field, double *out)
{
	return s->obj != NULL ? get_double(s->obj, field_key[field], out) :
	    jv_double(&s->f[field], out);
}

static uint32_t
src_intern(const struct arg_src *s, int field)
{
	return s->obj != NULL ? intern_arg(s->t, s->obj, field_key[field]) :
	    jv_intern(s->t, &s->f[field]);
}

/* Keeps what the analysis needs from an args object; its index or EV_NONE. */
static uint32_t
args_take(const struct arg_src *s, int is_memory)
{
	struct trace *t = s->t;
	struct event_args a;
	struct arg_nums nums = ARG_NUMS_NONE;
	struct comm_args c;
	int64_t n;
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
	return any ? trace_add_args(t, &a, &nums) : EV_NONE;
}

/* Keeps what the analysis needs from args; returns its index or EV_NONE. */
static uint32_t
take_args(struct trace *t, json_object *args, int is_memory)
{
	struct arg_src src = { t, args, NULL };

	if (args == NULL || !json_object_is_type(args, json_type_object))
		return EV_NONE;
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
		ev.name = strtab_intern(&t->strs, label, strlen(label));
		ev.track = tr;
		ev.cat = cat;
		ev.ph = 'C';
		ev.flags = EVF_COUNTER;
		ev.link = EV_NONE;
		ev.args = trace_add_args(t, &a, &nums);
		if (trace_add_event(t, &ev) == EV_NONE)
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
		s = get_str(args, "name", &len);
	else if (strcmp(name, "process_sort_index") == 0 ||
	    strcmp(name, "thread_sort_index") == 0) {
		if (get_int(t, args, "sort_index", &n) <= 0)
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

/* Adds the flow endpoint f (its id set) with the rest of its fields. */
static void
flow_add(struct trace *t, struct flow *f, int ph, int64_t pid,
    const char *pid_text, int64_t tid, const char *tid_text, int64_t ts,
    uint16_t cat, const char *bp)
{
	f->ts_ns = ts;
	f->track = trace_track(t, pid, pid_text, tid, tid_text);
	f->cat = cat;
	f->ph = (uint8_t)ph;
	f->enclosing = bp != NULL && strcmp(bp, "e") == 0;
	f->event = EV_NONE;
	trace_add_flow(t, f);
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
	const char *bp = get_str(obj, "bp", &len);

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
/*
 * The steps of reading an event that both decoders share (take_event()
 * over json-c, take_jscan() over jscan's fields), each decoder reading the
 * fields in between its own way.
 */

/* The event's category (interned, classified), counting what is odd. */
static uint16_t
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
static int
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
static int
event_fill(struct trace *t, struct event *ev, int ph, int dur_r, int64_t dur,
    uint32_t name_id, const char *name, uint16_t cat, enum cat_kind kind,
    uint8_t cls)
{
	ev->dur_ns = ph == 'X' ? checked_dur(t, dur_r, dur, ev->ts_ns) : 0;
	ev->name = name_id;
	ev->cat = cat;
	ev->link = EV_NONE;
	ev->ph = ph == 'X' || ph == 'B' ? 'X' : 'i';
	if (ph == 'i' || ph == 'I')
		ev->flags |= EVF_INSTANT;
	if (ph == 'X') {
		ev->cls = cls;
		if (ev->cls != CLASS_NONE)
			ev->flags |= EVF_ACTIVITY;
	}
	if (kind == CAT_GPU_ANNOTATION)
		ev->flags |= EVF_ANNOTATION;
	if (kind == CAT_CUDA_RUNTIME && strstr(name, "Synchronize") != NULL)
		ev->flags |= EVF_SYNC;
	return (ev->flags & EVF_INSTANT) && strcmp(name, "[memory]") == 0;
}

/* Adds ev (its args taken): opens it for a 'B', else appends it. */
static void
event_add(struct trace *t, const struct event *ev, int ph)
{
	if (ph == 'B')
		trace_begin(t, ev);
	else if (trace_add_event(t, ev) == EV_NONE)
		t->warn.too_many_events++;
}

static int
take_event(struct trace *t, json_object *obj)
{
	const char *ph_s, *name, *cat_s, *pid_text, *tid_text;
	size_t ph_len, name_len = 0, cat_len = 0;
	int64_t pid, tid, ts, dur = 0;
	int r, ph, dur_r = 0, memory;
	uint16_t cat;
	enum cat_kind kind;
	struct event ev;
	json_object *args = NULL;

	if (obj == NULL || !json_object_is_type(obj, json_type_object)) {
		t->warn.non_object_events++;
		return 0;
	}
	t->objects++;
	ph_s = get_str(obj, "ph", &ph_len);
	if (ph_s == NULL || ph_len != 1) {
		if (ph_s == NULL)
			t->warn.missing_fields++;
		else
			t->warn.unknown_phase++;
		return ph_s != NULL;
	}
	ph = ph_s[0];
	name = get_str(obj, "name", &name_len);
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
			count_bad_time(t, r);
		return 1;
	}
	cat_s = get_str(obj, "cat", &cat_len);
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
	    strtab_intern(&t->strs, name, name_len), name, cat, kind,
	    ph == 'X' ? (uint8_t)trace_classify(kind, name) : CLASS_NONE);
	json_object_object_get_ex(obj, "args", &args);
	ev.args = take_args(t, args, memory);
	event_add(t, &ev, ph);
	return 1;
}

/* ---- events decoded by jscan ----------------------------------------
 *
 * The same reading as take_event() and its helpers above, over the values
 * jscan decoded instead of a json-c object; the two must agree exactly
 * (tests/fastload.sh compares them on every corpus trace).
 */

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

static const char *
jv_str(const struct jval *v, size_t *len)
{
	if (v->type != JV_STRING)
		return NULL;
	*len = v->len;
	return v->s;
}

/* get_int() */
static int
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

/* get_double() */
static int
jv_double(const struct jval *v, double *out)
{
	if (v->type != JV_INT && v->type != JV_DOUBLE)
		return 0;
	*out = jv_double_of(v);
	return 1;
}

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

/* get_id(), for any value but a double (declined by take_jscan()) */
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

static uint32_t
jv_intern(struct trace *t, const struct jval *v)
{
	size_t len;
	const char *s = jv_str(v, &len);

	return s ? strtab_intern(&t->strs, s, len) : 0;
}

/* take_args() for jscan's fields */
static uint32_t
take_jscan_args(struct trace *t, const struct jval *f, int is_memory)
{
	struct arg_src src = { t, NULL, f };

	if (f[JF_ARGS].type != JV_OBJECT)
		return EV_NONE;
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
 * Returns whether take_jscan() handles the decoded event f; the rest (phase
 * C, unknown phases and a few rare value types) go through json-c.
 */
static int
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

static uint8_t
kernel_class(struct class_cache *cc, uint32_t name_id, const char *name)
{
	if (name_id >= cc->cap) {
		size_t old = cc->cap;

		xgrow(&cc->cls, &cc->cap, (size_t)name_id + 1, 1);
		memset(cc->cls + old, 0, cc->cap - old);
	}
	if (cc->cls[name_id] == 0)
		cc->cls[name_id] = (uint8_t)(trace_classify(CAT_KERNEL, name) + 1);
	return (uint8_t)(cc->cls[name_id] - 1);
}

/* take_event() over a decoded event that jscan_takes(). */
static int
take_jscan(struct trace *t, const struct jval *f, struct class_cache *cc)
{
	const char *name, *cat_s, *pid_text, *tid_text;
	size_t name_len = 0, cat_len = 0;
	int64_t pid, tid, ts, dur = 0;
	int r, ph = f[JF_PH].s[0], dur_r = 0, memory;
	uint16_t cat;
	uint32_t name_id;
	enum cat_kind kind;
	struct event ev;

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
			count_bad_time(t, r);
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
	name_id = strtab_intern(&t->strs, name, name_len);
	memory = event_fill(t, &ev, ph, dur_r, dur, name_id, name, cat, kind,
	    ph != 'X' ? CLASS_NONE : kind == CAT_KERNEL ?
	    kernel_class(cc, name_id, name) : (uint8_t)trace_classify(kind, name));
	ev.args = take_jscan_args(t, f, memory);
	event_add(t, &ev, ph);
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
		p.id = get_int(t, d, "id", &v) > 0 ? v : (int64_t)i;
		p.name = intern_arg(t, d, "name");
		p.compute_major = get_int(t, d, "computeMajor", &v) > 0 ? (int32_t)v : -1;
		p.compute_minor = get_int(t, d, "computeMinor", &v) > 0 ? (int32_t)v : -1;
		p.num_sms = get_int(t, d, "numSms", &v) > 0 ? (int32_t)v : -1;
		p.total_mem = get_int(t, d, "totalGlobalMem", &v) > 0 ? v : -1;
		xgrow(&t->devices, &t->devices_cap, t->ndevices + 1, sizeof *t->devices);
		t->devices[t->ndevices++] = p;
	}
}

static void
take_header(struct trace *t, const char *key, json_object *v)
{
	int64_t n;

	if (v == NULL)
		return;
	if (strcmp(key, "deviceProperties") == 0) {
		take_devices(t, v);
	} else if (strcmp(key, "distributedInfo") == 0 &&
	    json_object_is_type(v, json_type_object)) {
		t->has_distributed = 1;
		if (get_int(t, v, "rank", &n) > 0)
			t->dist_rank = n;
		if (get_int(t, v, "world_size", &n) > 0)
			t->world_size = n;
		t->dist_backend = intern_arg(t, v, "backend");
	} else if (strcmp(key, "baseTimeNanoseconds") == 0) {
		if (json_object_is_type(v, json_type_int)) {
			t->base_time_ns = json_object_get_int64(v);
			t->has_base_time = 1;
		}
	}
}

/* ---- the taker thread ------------------------------------------------
 *
 * With two threads, the reader (the loading thread) reads, inflates and
 * decodes, and a taker thread takes what it decoded into the model, in file
 * order.  While reading, every change to the trace is an op: applied at once
 * with one thread, else queued in batches for the taker.  rd_sync() waits
 * until the taker has caught up; the reader calls it before it looks at the
 * trace itself.  Ops own what they carry (json-c objects, keys).
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
};

/* One decoded field in a batch arena, followed by its text (strings, doubles). */
struct op_field {
	int64_t i;
	uint32_t len;
	uint8_t field, type;
};

struct batch {
	struct op *ops;
	size_t nops, ops_cap;
	char *arena;            /* op_fields and texts, 8-byte aligned */
	size_t used, cap;
	size_t objects;         /* json-c values held (kept few: they are big) */
};

#define NBATCH 3
#define BATCH_OPS 4096
#define BATCH_BYTES ((size_t)512 << 10)
#define BATCH_OBJECTS 256

struct taker {
	struct jscan js;        /* decodes args */
	json_tokener *tok;      /* for events whose args jscan declines */
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct batch b[NBATCH];
	uint64_t head, tail;    /* batches tail..head-1 (mod NBATCH) are queued; head is filled */
	int quit;
	struct reader *rd;
};

/* Applies one op to the trace (f: the decoded fields of OP_JSCAN). */
static void
op_apply(struct reader *rd, const struct op *op, const struct jval *f)
{
	struct trace *t = rd->t;

	switch (op->kind) {
	case OP_JSCAN:
		rd->phased += (uint64_t)take_jscan(t, f, &rd->classes);
		break;
	case OP_JSONC:
		rd->phased += (uint64_t)take_event(t, op->obj);
		json_object_put(op->obj);
		break;
	case OP_DEEP_OBJECT:
		t->objects++;
		t->warn.too_deep++;
		break;
	case OP_DEEP_OTHER:
		t->warn.non_object_events++;
		break;
	case OP_HEADER:
		take_header(t, op->key, op->obj);
		json_object_put(op->obj);
		free(op->key);
		break;
	case OP_HEADER_DEEP:
		t->warn.too_deep++;
		break;
	}
}

/*
 * Decodes the args of a queued event into f (its other fields), adding the
 * fields set to set[*nset]; returns 0 when jscan declines them, after
 * taking the event through json-c.
 */
static int
taker_args(struct taker *tk, const struct batch *b, const struct op *op,
    struct jval *f, uint8_t *set, int *nset)
{
	const char *raw = b->arena + op->raw;
	json_object *obj;

	if (jscan_args(&tk->js, raw + op->args_off, op->args_len) == JSCAN_OK) {
		for (int i = 0; i < tk->js.npresent; i++) {
			int k = tk->js.present[i];

			f[k] = tk->js.f[k];
			set[(*nset)++] = (uint8_t)k;
		}
		return 1;
	}
	/*
	 * The reader validated the event (standard JSON, not deep), so json-c
	 * parses it whole, just as it would have in the stream.
	 */
	json_tokener_reset(tk->tok);
	obj = json_tokener_parse_ex(tk->tok, raw, (int)op->raw_len);
	tk->rd->phased += (uint64_t)take_event(tk->rd->t, obj);
	json_object_put(obj);
	return 0;
}

/* Applies the ops of a batch and empties it. */
static void
batch_apply(struct taker *tk, struct batch *b)
{
	struct reader *rd = tk->rd;
	struct jval f[JF_COUNT];
	uint8_t set[2 * JF_COUNT];      /* the fields of f set for this op */
	int nset = 0;

	memset(f, 0, sizeof f);
	for (size_t i = 0; i < b->nops; i++) {
		const struct op *op = &b->ops[i];

		while (nset > 0)
			f[set[--nset]].type = JV_ABSENT;
		if (op->kind == OP_JSCAN) {
			size_t off = op->off;

			for (uint32_t k = 0; k < op->nfields; k++) {
				const struct op_field *of = (const void *)(b->arena + off);
				struct jval *v = &f[of->field];

				set[nset++] = of->field;
				v->type = of->type;
				v->i = of->i;
				v->len = of->len;
				v->s = b->arena + off + sizeof *of;
				off += sizeof *of;
				if (of->type == JV_STRING || of->type == JV_DOUBLE)
					off += (of->len + 1 + 7) & ~(size_t)7;
			}
			if (op->raw_len > 0 && !taker_args(tk, b, op, f, set, &nset))
				continue;
		}
		op_apply(rd, op, f);
	}
	b->nops = 0;
	b->used = 0;
	b->objects = 0;
}

static void *
taker_main(void *arg)
{
	struct taker *tk = arg;

	pthread_mutex_lock(&tk->mu);
	for (;;) {
		struct batch *b;

		while (tk->tail == tk->head && !tk->quit)
			pthread_cond_wait(&tk->cv, &tk->mu);
		if (tk->tail == tk->head)
			break;
		b = &tk->b[tk->tail % NBATCH];
		pthread_mutex_unlock(&tk->mu);
		batch_apply(tk, b);
		pthread_mutex_lock(&tk->mu);
		tk->tail++;
		pthread_cond_broadcast(&tk->cv);
	}
	pthread_mutex_unlock(&tk->mu);
	return NULL;
}

/* Queues the batch being filled (if it holds anything) for the taker. */
static void
taker_submit(struct taker *tk)
{
	if (tk->b[tk->head % NBATCH].nops == 0)
		return;
	pthread_mutex_lock(&tk->mu);
	tk->head++;
	pthread_cond_broadcast(&tk->cv);
	while (tk->head - tk->tail >= NBATCH)   /* the next one is still queued */
		pthread_cond_wait(&tk->cv, &tk->mu);
	pthread_mutex_unlock(&tk->mu);
}

/* Starts a taker for rd; returns NULL (take ops at once) if it cannot. */
static struct taker *
taker_start(struct reader *rd)
{
	struct taker *tk = xcalloc(1, sizeof *tk);

	tk->rd = rd;
	jscan_init(&tk->js);
	tk->tok = json_tokener_new_ex(MAX_DEPTH);
	if (tk->tok == NULL) {
		fprintf(stderr, "gantty: out of memory\n");
		abort();
	}
	json_tokener_set_flags(tk->tok, 0);
	pthread_mutex_init(&tk->mu, NULL);
	pthread_cond_init(&tk->cv, NULL);
	if (pthread_create(&tk->thread, NULL, taker_main, tk) != 0) {
		pthread_cond_destroy(&tk->cv);
		pthread_mutex_destroy(&tk->mu);
		json_tokener_free(tk->tok);
		free(tk);
		return NULL;
	}
	/* the taker decodes args: the reader has the rest */
	rd->js.defer_args = 1;
	return tk;
}

/* Waits until the taker has applied every op so far. */
static void
rd_sync(struct reader *rd)
{
	struct taker *tk = rd->taker;

	if (tk == NULL)
		return;
	taker_submit(tk);
	pthread_mutex_lock(&tk->mu);
	while (tk->tail != tk->head)
		pthread_cond_wait(&tk->cv, &tk->mu);
	pthread_mutex_unlock(&tk->mu);
}

/* Applies every op, stops the taker and frees it. */
static void
taker_stop(struct reader *rd)
{
	struct taker *tk = rd->taker;

	if (tk == NULL)
		return;
	rd_sync(rd);
	pthread_mutex_lock(&tk->mu);
	tk->quit = 1;
	pthread_cond_broadcast(&tk->cv);
	pthread_mutex_unlock(&tk->mu);
	pthread_join(tk->thread, NULL);
	pthread_cond_destroy(&tk->cv);
	pthread_mutex_destroy(&tk->mu);
	for (int i = 0; i < NBATCH; i++) {
		free(tk->b[i].ops);
		free(tk->b[i].arena);
	}
	jscan_free(&tk->js);
	json_tokener_free(tk->tok);
	free(tk);
	rd->taker = NULL;
}

/*
 * The batch to add an op of up to bytes arena bytes to (holding a json-c
 * value if obj), submitting a full one.
 */
static struct batch *
taker_batch(struct taker *tk, size_t bytes, int obj)
{
	struct batch *b = &tk->b[tk->head % NBATCH];

	if (b->nops >= BATCH_OPS || (b->used > 0 && b->used + bytes > BATCH_BYTES) ||
	    (obj && b->objects >= BATCH_OBJECTS)) {
		taker_submit(tk);
		b = &tk->b[tk->head % NBATCH];
	}
	xgrow(&b->ops, &b->ops_cap, b->nops + 1, sizeof *b->ops);
	xgrow(&b->arena, &b->cap, b->used + bytes, 1);
	b->objects += obj != 0;
	return b;
}

/* Applies op now (one thread) or queues it for the taker. */
static void
rd_emit(struct reader *rd, int kind, json_object *obj, char *key)
{
	struct op op = { .kind = kind, .obj = obj, .key = key };

	if (rd->self != NULL && (kind == OP_HEADER || kind == OP_HEADER_DEEP)) {
		half_defer(rd->self, &op);
		return;
	}
	if (rd->taker == NULL) {
		op_apply(rd, &op, NULL);
	} else {
		struct batch *b = taker_batch(rd->taker, 0, obj != NULL);

		b->ops[b->nops++] = op;
	}
}

/* Applies or queues the event rd->js decoded from the len bytes at raw. */
static void
rd_emit_jscan(struct reader *rd, const char *raw, size_t len)
{
	const struct jval *f = rd->js.f;
	struct batch *b;
	struct op *op;
	size_t bytes = 0, raw_len = rd->js.args_len > 0 ? len : 0;

	if (rd->taker == NULL) {
		struct op now = { .kind = OP_JSCAN };

		op_apply(rd, &now, f);
		return;
	}
	for (int i = 0; i < rd->js.npresent; i++) {
		int k = rd->js.present[i];

		bytes += sizeof(struct op_field);
		if (f[k].type == JV_STRING || f[k].type == JV_DOUBLE)
			bytes += (f[k].len + 1 + 7) & ~(size_t)7;
	}
	bytes += (raw_len + 7) & ~(size_t)7;
	b = taker_batch(rd->taker, bytes, 0);
	op = &b->ops[b->nops++];
	memset(op, 0, sizeof *op);
	op->kind = OP_JSCAN;
	if (raw_len > 0) {
		op->raw = b->used;
		op->raw_len = raw_len;
		op->args_off = rd->js.args_off;
		op->args_len = rd->js.args_len;
		memcpy(b->arena + b->used, raw, raw_len);
		b->used += (raw_len + 7) & ~(size_t)7;
	}
	op->off = b->used;
	for (int i = 0; i < rd->js.npresent; i++) {
		int k = rd->js.present[i];
		struct op_field *of = (void *)(b->arena + b->used);

		of->i = f[k].i;
		of->len = (uint32_t)f[k].len;
		of->field = (uint8_t)k;
		of->type = f[k].type;
		b->used += sizeof *of;
		if (f[k].type == JV_STRING || f[k].type == JV_DOUBLE) {
			memcpy(b->arena + b->used, f[k].s, f[k].len);
			b->arena[b->used + f[k].len] = '\0';
			b->used += (f[k].len + 1 + 7) & ~(size_t)7;
		}
		op->nfields++;
	}
}

/* ---- two halves ------------------------------------------------------ */

/*
 * A plain file is read in two halves at once (load_opts.threads >= 2): the
 * calling thread reads from the start, a second thread from an event near
 * the middle of the event array, each into a trace of its own.  Where the
 * second half starts is a guess: the '{' of something that looks like an
 * event after "}," in the middle of the file.  The first reader checks it:
 * only when one of its own events starts exactly there was the guess an
 * event boundary of the array, and then the second half read exactly what
 * the first would have read from there; the first then stops, and
 * trace_merge() appends the second trace to the first.  Otherwise (the
 * guess fell inside an event, the first half stopped at an error first,
 * the second half met B/E events or a second event array) the second
 * half's work is dropped and the first reader reads on alone.  Header
 * values after the event array are held back by the second half and taken
 * in order once merged.  Messages of the second half are worded by
 * set_error() as they would be by one reader (their line numbers are
 * counted from the first half's).
 */
struct half {
	struct reader rd;       /* reads from at on, into t */
	struct trace t;
	struct load_error err;
	uint64_t at;            /* where it starts: the '{' of an event (a guess) */
	pthread_t thread;
	int cancel;             /* set by the first half: stop (atomic) */
	int unsupported;        /* it met what it cannot read apart */
	int result;             /* read_events() and read_object()'s result */
	struct op *headers;     /* held-back header values, in order */
	size_t nheaders, headers_cap;
};

static int read_events(struct reader *rd);
static int read_object(struct reader *rd, int resume);

static uint64_t
half_at(const struct half *h)
{
	return h->at;
}

static int
half_cancelled(struct half *h)
{
	return __atomic_load_n(&h->cancel, __ATOMIC_RELAXED);
}

static void
half_unsupported(struct half *h)
{
	h->unsupported = 1;
}

static void
half_defer(struct half *h, const struct op *op)
{
	xgrow(&h->headers, &h->headers_cap, h->nheaders + 1, sizeof *h->headers);
	h->headers[h->nheaders++] = *op;
}

static void *
half_main(void *arg)
{
	struct half *h = arg;
	int r = read_events(&h->rd);

	if (r == RD_OK && !h->rd.t->legacy_array)
		r = read_object(&h->rd, 1);
	h->result = r;
	return NULL;
}

/* Frees what a reader owns besides its trace and error (after reading). */
static void
rd_release(struct reader *rd)
{
	if (rd->tok != NULL)
		json_tokener_free(rd->tok);
	jscan_free(&rd->js);
	free(rd->classes.cls);
	free(rd->buf);
	free(rd->in);
	if (rd->z_ready)
		inflateEnd(&rd->z);
	if (rd->fd >= 0)
		close(rd->fd);
}

/* Sets up a reader of path's fd for load_trace() or the second half. */
static void
rd_init(struct reader *rd, int fd, const char *path, struct trace *t,
    struct load_error *err)
{
	memset(rd, 0, sizeof *rd);
	rd->fd = fd;
	rd->path = path;
	rd->cap = READ_CHUNK;
	rd->buf = xmalloc(rd->cap);
	rd->err = err;
	rd->t = t;
	rd->tok = json_tokener_new_ex(MAX_DEPTH);
	if (rd->tok == NULL) {
		fprintf(stderr, "gantty: out of memory\n");
		abort();
	}
	json_tokener_set_flags(rd->tok, 0);
	jscan_init(&rd->js);
}

/* Frees h and all it read (its thread has ended). */
static void
half_free(struct half *h)
{
	for (size_t i = 0; i < h->nheaders; i++) {
		json_object_put(h->headers[i].obj);
		free(h->headers[i].key);
	}
	free(h->headers);
	rd_release(&h->rd);
	trace_free(&h->t);
	free(h);
}

/*
 * Where to guess the second half starts: the '{' after "}," (white space
 * allowed) that opens an object with a key, first in the 64 KB from the
 * middle of [from, size); 0 if none.
 */
static uint64_t
half_guess(int fd, uint64_t from, uint64_t size)
{
	enum { GUESS_BYTES = 1 << 16 };
	char *buf = xmalloc(GUESS_BYTES);
	uint64_t mid = from + (size - from) / 2, at = 0;
	ssize_t n = pread(fd, buf, GUESS_BYTES, (off_t)mid);

	for (ssize_t i = 0; i + 1 < n && at == 0; i++) {
		ssize_t j = i + 1;

		if (buf[i] != '}')
			continue;
		while (j < n && strchr(" \t\r\n", buf[j]) != NULL)
			j++;
		if (j >= n || buf[j] != ',')
			continue;
		for (j++; j < n && strchr(" \t\r\n", buf[j]) != NULL; j++)
			;
		if (j >= n || buf[j] != '{')
			continue;
		for (ssize_t q = j + 1; q < n; q++)
			if (strchr(" \t\r\n", buf[q]) == NULL) {
				if (buf[q] == '"')
					at = mid + (uint64_t)j;
				break;
			}
		break;          /* the first "}, {" decides */
	}
	free(buf);
	return at;
}

/*
 * At the event array's start: starts the second half when the file is
 * plain, big enough and the same file can be opened again.
 */
static void
half_start(struct reader *rd)
{
	struct half *h;
	struct stat a, b;
	uint64_t at;
	int fd;

	if (rd->half != NULL || rd->self != NULL || rd->gzip || rd->taker != NULL ||
	    rd->file_size < rd->split_min || fstat(rd->fd, &a) != 0 ||
	    !S_ISREG(a.st_mode) ||
	    (at = half_guess(rd->fd, rd_offset(rd), rd->file_size)) == 0)
		return;
	fd = open(rd->path, O_RDONLY);
	if (fd < 0)
		return;
	if (fstat(fd, &b) != 0 || a.st_dev != b.st_dev || a.st_ino != b.st_ino ||
	    lseek(fd, (off_t)at, SEEK_SET) != (off_t)at) {
		close(fd);
		return;
	}
	h = xcalloc(1, sizeof *h);
	h->at = at;
	trace_init(&h->t, rd->path);
	h->t.legacy_array = rd->t->legacy_array;
	rd_init(&h->rd, fd, rd->path, &h->t, &h->err);
	h->rd.fast = rd->fast;
	h->rd.base = at;
	h->rd.file_size = rd->file_size;
	h->rd.events_seen = 1;
	h->rd.self = h;
	if (pthread_create(&h->thread, NULL, half_main, h) != 0) {
		half_free(h);
		return;
	}
	rd->half = h;
}

/* Stops the second half, if any, and drops what it read. */
static void
half_abandon(struct reader *rd)
{
	struct half *h = rd->half;

	if (h == NULL)
		return;
	rd->half = NULL;
	__atomic_store_n(&h->cancel, 1, __ATOMIC_RELAXED);
	pthread_join(h->thread, NULL);
	half_free(h);
}

/*
 * The first half has come to or past the second's start.  Exactly at it:
 * waits for the second half, merges its trace into rd's, and makes rd the
 * reader where the second half stopped (its result in rd->half_result);
 * returns 0.  Otherwise (past it: the guess was no event boundary; or the
 * second half cannot be merged) drops the second half and returns -1: rd
 * reads on.
 */
static int
half_join(struct reader *rd)
{
	struct half *h = rd->half;
	struct reader old;
	uint64_t lines;

	if (rd_offset(rd) != h->at) {
		half_abandon(rd);
		return -1;
	}
	rd->half = NULL;
	pthread_join(h->thread, NULL);
	if (h->unsupported || h->result == RD_CANCEL ||
	    trace_merge(rd->t, &h->t) != 0) {
		half_free(h);
		return -1;
	}
	for (size_t i = 0; i < h->nheaders; i++)
		op_apply(rd, &h->headers[i], NULL);     /* frees them */
	h->nheaders = 0;
	/* rd becomes the second half's reader, lines counted from the start */
	lines = rd_line_at(rd, rd->pos) - 1;
	if (h->rd.err_set) {
		h->rd.err_line += lines;
		snprintf(rd->err->msg, sizeof rd->err->msg,
		    "%s: byte %llu (line %llu): %s", rd->path,
		    (unsigned long long)h->rd.err_off,
		    (unsigned long long)h->rd.err_line, h->rd.err_what);
		rd->err->not_trace = h->err.not_trace;
	}
	old = *rd;
	*rd = h->rd;
	rd->lines += lines;
	rd->t = old.t;
	rd->err = old.err;
	rd->opts = old.opts;
	rd->next_progress = old.next_progress;
	rd->phased += old.phased;
	if (rd->last_good == h->at)     /* it completed nothing: the first did */
		rd->last_good = old.last_good;
	rd->split_min = 0;
	rd->self = NULL;
	rd->half_result = h->result;
	rd->err->halves = 1;
	rd_release(&old);
	h->rd.fd = -1;          /* its resources are rd's now */
	h->rd.tok = NULL;
	h->rd.buf = NULL;
	h->rd.classes.cls = NULL;
	memset(&h->rd.js, 0, sizeof h->rd.js);
	half_free(h);
	return 0;
}

/* ---- the document ---------------------------------------------------- */

static int
expect_error(struct reader *rd, int c, const char *what)
{
	if (c < 0)
		return RD_EOF;
	if (c >= 0x20 && c < 0x7f)
		set_error(rd, rd->pos, "expected %s, found '%c'", what, c);
	else
		set_error(rd, rd->pos, "expected %s, found byte 0x%02x", what, c);
	return RD_ERR;
}

/*
 * Decodes the event at the read position with jscan and takes it into the
 * model.  Returns 1 when done (consumed), 0 when it is json-c's to parse
 * (nothing consumed or changed).
 */
static int
rd_jscan_event(struct reader *rd)
{
	for (;;) {
		size_t used, avail = rd->len - rd->pos;
		int r = jscan_event(&rd->js, rd->buf + rd->pos, avail, &used), got;

		if (r == JSCAN_OK) {
			const char *raw = rd->buf + rd->pos;

			if (!jscan_takes(rd->js.f))
				return 0;
			rd->pos += used;
			/* as json-c, eat the white space after it, in this buffer */
			while (rd->pos < rd->len && (rd->buf[rd->pos] == ' ' ||
			    rd->buf[rd->pos] == '\n' || rd->buf[rd->pos] == '\r' ||
			    rd->buf[rd->pos] == '\t'))
				rd->pos++;
			rd_emit_jscan(rd, raw, used);
			return 1;
		}
		if (r == JSCAN_FALLBACK || avail > JSCAN_LIMIT)
			return 0;
		/* it goes on past the buffer: keep its start, read more */
		rd->mark = rd->pos;
		rd->marked = 1;
		got = rd_refill(rd);
		rd->marked = 0;
		if (!got)
			return 0;
	}
}

/* Reads the event array after its '['.  Returns RD_OK, RD_EOF or RD_ERR. */
static int
read_events(struct reader *rd)
{
	int c = rd_peek(rd);

	rd->events_seen = 1;
	rd->last_good = rd_offset(rd);
	if (c == ']') {
		rd->pos++;
		rd->last_good = rd_offset(rd);
		return RD_OK;
	}
	if (rd->split_min > 0)
		half_start(rd);
	for (;;) {
		json_object *obj = NULL;
		int r;

		if (rd->half != NULL && rd_offset(rd) >= half_at(rd->half) &&
		    half_join(rd) == 0)
			return RD_SPLIT;
		if (rd->self != NULL && half_cancelled(rd->self))
			return RD_CANCEL;
		if (rd->fast && rd_jscan_event(rd))
			r = RD_DONE;
		else
			r = rd_value(rd, &obj);
		if (r == RD_DONE) {
			/* taken by rd_jscan_event() */
		} else if (r == RD_DEEP) {
			/* Too deep for json-c: skip it, counted, and go on. */
			rd_emit(rd, rd->buf[rd->pos] == '{' ? OP_DEEP_OBJECT :
			    OP_DEEP_OTHER, NULL, NULL);
			if ((r = rd_skip(rd)) != RD_OK)
				return r;
		} else if (r != RD_OK) {
			return r;
		} else {
			rd_emit(rd, OP_JSONC, obj, NULL);
		}
		rd->last_good = rd_offset(rd);
		c = rd_peek(rd);
		if (c == ',') {
			rd->pos++;
			if (rd_peek(rd) == ']') {       /* tolerate a trailing comma */
				rd->pos++;
				rd->last_good = rd_offset(rd);
				return RD_OK;
			}
			continue;
		}
		if (c == ']') {
			rd->pos++;
			rd->last_good = rd_offset(rd);
			return RD_OK;
		}
		return expect_error(rd, c, "',' or ']' after an event");
	}
}

/*
 * Reads the top-level object after its '{'; with resume, after the value of
 * its traceEvents (the second half's start).
 */
static int
read_object(struct reader *rd, int resume)
{
	for (int first = !resume;; first = 0) {
		json_object *key = NULL, *val = NULL;
		int c, r;
		char *k;

		if (resume) {
			resume = 0;
			goto after_value;
		}
		c = rd_peek(rd);
		if (c == '}' && first) {
			rd->pos++;
			return RD_OK;
		}
		if (c != '"')
			return expect_error(rd, c, "a key string");
		if ((r = rd_value(rd, &key)) != RD_OK)
			return r;
		k = xstrdup(json_object_get_string(key));
		json_object_put(key);
		c = rd_peek(rd);
		if (c != ':') {
			free(k);
			return expect_error(rd, c, "':' after a key");
		}
		rd->pos++;
		if (strcmp(k, "traceEvents") == 0 && rd->self != NULL) {
			/* a second event array: its events would come after the
			   header values the second half holds back */
			free(k);
			half_unsupported(rd->self);
			return RD_CANCEL;
		}
		if (strcmp(k, "traceEvents") == 0) {
			free(k);
			c = rd_peek(rd);
			if (c != '[') {
				if (c >= 0) {
					set_error(rd, rd->pos,
					    "traceEvents is not an array (not a trace)");
					rd->err->not_trace = 1;
					return RD_ERR;
				}
				return RD_EOF;
			}
			rd->pos++;
			if ((r = read_events(rd)) != RD_OK)
				return r;
		} else {
			r = rd_value(rd, &val);
			if (r == RD_DEEP) {
				rd_emit(rd, OP_HEADER_DEEP, NULL, NULL);
				r = rd_skip(rd);
			} else if (r == RD_OK) {
				rd_emit(rd, OP_HEADER, val, k);
				k = NULL;
				val = NULL;
			}
			json_object_put(val);
			free(k);
			if (r != RD_OK)
				return r;
		}
after_value:
		if (rd->events_seen)
			rd->last_good = rd_offset(rd);
		c = rd_peek(rd);
		if (c == ',') {
			rd->pos++;
			continue;
		}
		if (c == '}') {
			rd->pos++;
			if (rd->events_seen)
				rd->last_good = rd_offset(rd);
			return RD_OK;
		}
		return expect_error(rd, c, "',' or '}' after a value");
	}
}

static int
read_document(struct reader *rd)
{
	int c, r;

	/* A UTF-8 byte order mark. */
	if (rd_refill(rd) && rd->len >= 3 && memcmp(rd->buf, "\xef\xbb\xbf", 3) == 0)
		rd->pos = 3;
	c = rd_peek(rd);
	if (c < 0) {
		if (rd->bad) {
			snprintf(rd->err->msg, sizeof rd->err->msg, "%s: %s",
			    rd->path, rd->badmsg);
			return -1;
		}
		if (rd->gz_cut) {
			snprintf(rd->err->msg, sizeof rd->err->msg,
			    "%s: gzip data cut short after %llu bytes, before any "
			    "content (truncated)", rd->path,
			    (unsigned long long)rd->raw_read);
			return -1;
		}
		snprintf(rd->err->msg, sizeof rd->err->msg,
		    "%s: empty file (not a trace)", rd->path);
		rd->err->not_trace = 1;
		return -1;
	}
	if (c == '[') {
		rd->pos++;
		rd->t->legacy_array = 1;
		r = read_events(rd);
	} else if (c == '{') {
		rd->pos++;
		r = read_object(rd, 0);
	} else {
		expect_error(rd, c, "'{' or '[' at the start of a trace");
		rd->err->not_trace = 1;
		return -1;
	}
	rd_sync(rd);            /* from here on, the trace is this thread's */
	half_abandon(rd);       /* stopped before the second half (an error) */
	if (r == RD_SPLIT)
		r = rd->half_result;

	if (r == RD_ERR) {
		uint64_t stop = rd_offset(rd), rest = 0;

		if (rd->err->not_trace)
			return -1;
		/*
		 * Invalid JSON in gzip data is often corrupt data that zlib
		 * inflated before it could tell (a bad block shows at the CRC):
		 * read on to say so.
		 */
		if (rd->gzip)
			rest = rd_drain(rd);
		if (rd->bad) {
			size_t n = strlen(rd->err->msg);

			snprintf(rd->err->msg + n, sizeof rd->err->msg - n, " (%s)",
			    rd->badmsg);
		}
		if (rd->t->objects == 0 && rd->t->warn.non_object_events == 0)
			return -1;
		if (!rd->gzip)
			rest = rd_drain(rd);
		rd->t->warn.truncated_bytes += stop - rd->last_good + rest;
		free(rd->t->stop_reason);
		rd->t->stop_reason = xstrdup(rd->err->msg);
		{
			int halves = rd->err->halves;

			memset(rd->err, 0, sizeof *rd->err);
			rd->err->halves = halves;
		}
		if (rd->bad && rd->gzip)
			rd->t->warn.corrupt_gzip++;
		return 0;
	}
	if (r == RD_EOF) {
		if (!rd->events_seen) {
			if (rd->bad)
				snprintf(rd->err->msg, sizeof rd->err->msg,
				    "%s: %s (before any event)", rd->path, rd->badmsg);
			else
				snprintf(rd->err->msg, sizeof rd->err->msg,
				    "%s: byte %llu: file ends before any event (truncated)",
				    rd->path, (unsigned long long)rd_offset(rd));
			return -1;
		}
		rd->t->warn.truncated_bytes += rd_offset(rd) - rd->last_good;
		if (rd->bad) {
			if (rd->gzip)
				rd->t->warn.corrupt_gzip++;
			free(rd->t->stop_reason);
			rd->t->stop_reason = xmalloc(strlen(rd->path) + strlen(rd->badmsg) + 3);
			snprintf(rd->t->stop_reason, strlen(rd->path) + strlen(rd->badmsg) + 3,
			    "%s: %s", rd->path, rd->badmsg);
		}
		return 0;
	}
	if (!rd->events_seen) {
		set_error(rd, rd->pos, "no traceEvents array (not a trace)");
		rd->err->not_trace = 1;
		return -1;
	}
	if (rd->t->legacy_array && rd->phased == 0 &&
	    rd->t->objects + rd->t->warn.non_object_events > 0) {
		snprintf(rd->err->msg, sizeof rd->err->msg,
		    "%s: byte 0 (line 1): an array of %llu entries, none of them a "
		    "trace event with a \"ph\" phase (not a trace)", rd->path,
		    (unsigned long long)(rd->t->objects + rd->t->warn.non_object_events));
		rd->err->not_trace = 1;
		return -1;
	}
	/* Anything but white space after the value is ignored, and counted. */
	c = rd_peek(rd);
	if (c >= 0)
		rd->t->warn.trailing_bytes += rd_drain(rd);
	if (rd->bad && rd->gzip)
		rd->t->warn.corrupt_gzip++;     /* after the JSON ended: nothing lost */
	return 0;
}

/*
 * The threads to load one file with by default.  Measured on 2 cores
 * (bench/RESULTS.md): reading plain JSON in two halves at once pays when a
 * core is idle and costs next to nothing when none is (the halves meet only
 * at the end); inflating gzip in a thread of its own pays when a core is
 * idle and costs when none is (the threads take turns at every buffer);
 * the taker never paid (it adds a fifth to the work: queueing, decoding
 * args a second time).  So: two halves for a plain file of split_min bytes
 * or more, an inflater for gzip when the load average leaves a core idle,
 * else one thread.
 */
static int
default_threads(int gzip, uint64_t size, uint64_t split_min)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	double load;

	if (ncpu < 2)
		return 1;
	if (!gzip)
		return split_min > 0 && size >= split_min ? 2 : 1;
	if (getloadavg(&load, 1) != 1)
		return 1;
	return load <= (double)ncpu - 1 ? 2 : 1;
}

/*
 * How to load: opts, overridden (for tests and comparisons) by the
 * environment: GANTTY_JSONC_ONLY=1 reads every event through json-c alone
 * (the reference path), GANTTY_LOAD_THREADS=N sets the threads (0: choose
 * once the file is open, default_threads()), GANTTY_SPLIT_MIN=BYTES the
 * smallest plain file read in two halves (SPLIT_MIN).
 */
static void
load_settings(const struct load_opts *opts, int *fast, int *threads,
    uint64_t *split_min)
{
	const char *e;

	*fast = 1;
	*threads = opts != NULL && opts->threads > 0 ? opts->threads : 0;
	*split_min = SPLIT_MIN;
	if ((e = getenv("GANTTY_JSONC_ONLY")) != NULL && strcmp(e, "1") == 0)
		*fast = 0;
	if ((e = getenv("GANTTY_LOAD_THREADS")) != NULL && atoi(e) > 0)
		*threads = atoi(e);
	if ((e = getenv("GANTTY_SPLIT_MIN")) != NULL && *e != '\0')
		*split_min = strtoull(e, NULL, 10) > 0 ? strtoull(e, NULL, 10) : 1;
}

int
load_trace(struct trace *t, const char *path, const struct load_opts *opts,
    struct load_error *err)
{
	struct reader rd;
	struct stat st;
	uint64_t size = 0;
	int rc, threads;

	memset(err, 0, sizeof *err);
	memset(&rd, 0, sizeof rd);
	if (strcmp(path, "-") == 0) {
		rd.fd = dup(STDIN_FILENO);
	} else {
		rd.fd = open(path, O_RDONLY);
	}
	if (rd.fd < 0) {
		snprintf(err->msg, sizeof err->msg, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(rd.fd, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			snprintf(err->msg, sizeof err->msg, "%s: is a directory", path);
			close(rd.fd);
			return -1;
		}
		if (S_ISREG(st.st_mode))
			size = (uint64_t)st.st_size;
	}
	trace_init(t, path);
	rd_init(&rd, rd.fd, path, t, err);
	rd.file_size = size;
	rd.opts = opts;
	load_settings(opts, &rd.fast, &threads, &rd.split_min);
	rd_open(&rd);
	if (threads == 0)
		threads = default_threads(rd.gzip, rd.file_size, rd.split_min);
	/*
	 * A second thread reads the second half of plain JSON, or inflates
	 * gzip; with a third, a taker builds gzip's model.
	 */
	if (rd.gzip && threads >= 2)
		rd.inflater = inflater_start(&rd);
	if (rd.gzip && threads >= 3)
		rd.taker = taker_start(&rd);
	if (rd.gzip || threads < 2 || strcmp(path, "-") == 0)
		rd.split_min = 0;

	rc = read_document(&rd);
	inflater_stop(&rd);
	taker_stop(&rd);
	half_abandon(&rd);
	rd_release(&rd);
	if (rc < 0) {
		trace_free(t);
		return -1;
	}
	if (opts != NULL && opts->progress != NULL)
		opts->progress(rd.file_size, rd.file_size, opts->progress_ctx);
	trace_finalize(t);
	return 0;
}
