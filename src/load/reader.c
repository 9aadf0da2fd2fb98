/*
 * reader.c — the byte stream under the decoders: reading the file (plain,
 * or gzip inflated by gzip.c here or on the inflater thread), the read
 * buffer that keeps a value's start while it is marked, line counting for
 * messages, progress, and the JSON values read with json-c's tokener (or
 * skipped, when nested too deep for it).  Also a reader's setup and release.
 */
#include "config.h"

#include "load/load.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "load/jscan.h"
#include "load/chunk.h"
#include "load/load_int.h"
#include "model/trace.h"
#include "base/xalloc.h"

#define PROGRESS_EVERY (8u << 20)
/*
 * One value may hold on to the read buffer (to be skipped if it is nested
 * too deeply for json-c) up to this size; beyond, its start is let go.
 */
#define MARK_LIMIT ((size_t)256 << 20)

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
uint64_t
rd_line_at(struct reader *rd, size_t pos)
{
	if (pos > rd->counted)
		rd->lines += count_lines(rd->buf + rd->counted, pos - rd->counted);
	rd->counted = pos;
	return rd->lines + 1;
}

void
load_set_error(struct reader *rd, size_t pos, const char *fmt, ...)
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

/* Reads the next bytes of the (decompressed) stream into dst; 0 at the end. */
static size_t
rd_read(struct reader *rd, char *dst, size_t size)
{
	size_t got;

	if (rd->inflater != NULL)
		return inflater_read(rd->inflater, dst, size, &rd->raw_seen);
	if (rd->gzip) {
		got = rd_gz_read(rd, dst, size);
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
	got = rd->bad ? 0 : rd_raw_read(rd, dst, size);
	rd->raw_seen = rd->raw_read;
	return got;
}

/*
 * Reads and drops the stream's bytes before off, then reads on until the
 * buffer holds want bytes from off or the stream ends: buf[0] is byte off
 * (base = off, pos = 0, lines counted from there).  Stops early when the
 * reader's chunk is cancelled.  Returns 0, or -1 when the stream ends
 * before off (or the chunk was cancelled).
 */
int
rd_skip_to(struct reader *rd, uint64_t off, size_t want)
{
	size_t n;

	if (want > rd->cap)
		want = rd->cap;
	rd->pos = rd->len = rd->counted = 0;
	while (rd->base + rd->len <= off) {
		rd->base += rd->len;
		rd->len = 0;
		if ((rd->chunk != NULL && chunk_cancelled(rd->chunk)) ||
		    (n = rd_read(rd, rd->buf, rd->cap)) == 0)
			return -1;
		rd->len = n;
	}
	n = (size_t)(off - rd->base);
	memmove(rd->buf, rd->buf + n, rd->len - n);
	rd->len -= n;
	rd->base = off;
	while (rd->len < want && (n = rd_read(rd, rd->buf + rd->len,
	    rd->cap - rd->len)) > 0)
		rd->len += n;
	rd->lines = 0;
	return 0;
}

/* Reads the first bytes and sets up inflating if they are gzip's magic. */
void
rd_open(struct reader *rd)
{
	rd->in = xmalloc(RD_IN_CHUNK);
	rd->z.next_in = rd->in;
	rd->z.avail_in = 0;
	while (rd->z.avail_in < 2 && !rd->in_eof)
		rd_fill_input(rd);
	if (rd->z.avail_in >= 2 && rd->in[0] == 0x1f && rd->in[1] == 0x8b)
		rd_gz_open(rd);
}

/*
 * Reads the next chunk once the buffer is used up (keeping buf[mark..) when
 * a value is marked).  Returns 0 at the end.
 */
int
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
		/*
		 * The file's bytes read: gzip's raw ones, plain data's offset
		 * (a chunk's reader, having taken over, read from its start);
		 * with chunks after this one, which go as fast, how far all are.
		 */
		uint64_t done = rd->gzip ? rd->raw_seen : rd->base + rd->len;

		if (rd->next != NULL) {
			uint64_t pos = rd->base + rd->len, at = chunk_at(rd->next);

			done = (uint64_t)((double)(pos < at ? pos : at) *
			    (double)rd->file_size / (double)at);
		}
		rd->next_progress = rd->base + rd->len + PROGRESS_EVERY;
		rd->opts->progress(done, rd->file_size, rd->opts->progress_ctx);
	}
	return 1;
}

/* Skips white space; returns the next byte (not consumed) or -1 at the end. */
int
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
int
rd_value(struct reader *rd, json_object **out)
{
	uint64_t start = rd_offset(rd);

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
			if (rd->value_limit > 0 && rd_offset(rd) - start > rd->value_limit) {
				rd->marked = 0;
				rd->pos = rd->len;
				load_set_error(rd, rd->pos, "a value of more than %llu bytes "
				    "(not a report gantty wrote)",
				    (unsigned long long)rd->value_limit);
				return RD_ERR;
			}
			continue;
		}
		if (jerr == json_tokener_error_depth && rd->marked) {
			rd->pos = rd->mark;
			rd->marked = 0;
			return RD_DEEP;
		}
		rd->marked = 0;
		load_set_error(rd, rd->pos + json_tokener_get_parse_end(rd->tok),
		    "invalid JSON: %s", json_tokener_error_desc(jerr));
		return RD_ERR;
	}
}

/*
 * Skips the array or object at the read position without building it: only
 * brackets outside strings are counted, so any depth costs O(1) memory.
 * Returns RD_OK past its end, or RD_EOF.
 */
int
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
uint64_t
rd_drain(struct reader *rd)
{
	uint64_t from = rd_offset(rd);

	rd->pos = rd->len;
	while (rd_refill(rd))
		rd->pos = rd->len;
	return rd->base + rd->len - from;
}

/*
 * A new json-c tokener as the loader parses with: strict, at most MAX_DEPTH
 * deep.  Never NULL (out of memory is fatal).
 */
json_tokener *
rd_tokener(void)
{
	json_tokener *tok = json_tokener_new_ex(MAX_DEPTH);

	if (tok == NULL)
		xalloc_die("allocating a JSON tokener");
	json_tokener_set_flags(tok, 0);
	return tok;
}

/* Frees what a reader owns besides its trace and error (after reading). */
void
rd_release(struct reader *rd)
{
	if (rd->tok != NULL)
		json_tokener_free(rd->tok);
	jscan_free(&rd->js);
	free(rd->buf);
	free(rd->in);
	rd_gz_release(rd);
	if (rd->fd >= 0)
		close(rd->fd);
}

/* Sets up a reader of path's fd for load_trace() or the second half. */
void
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
	rd->tok = rd_tokener();
	jscan_init(&rd->js);
}

