/*
 * load.c — load_trace() and the document: the top-level object (header
 * values around the event array) or the legacy bare array, the event
 * array itself (each event to jscan, or to json-c when jscan declines it),
 * and how the file ended (cut short, trailing bytes, not a trace).  Also
 * the settings: how many threads, and GANTTY_* overrides.
 */
#include "config.h"

#include "load/load.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "load/jscan.h"
#include "load/chunk.h"
#include "load/load_int.h"
#include "model/trace.h"
#include "base/xalloc.h"

/* The smallest part of a plain file read in chunks at once (see chunks.c). */
#define SPLIT_MIN ((uint64_t)8 << 20)
/* An event longer than this is left to json-c, which streams it. */
#define JSCAN_LIMIT ((size_t)4 << 20)

/* ---- the document ---------------------------------------------------- */

static int
expect_error(struct reader *rd, int c, const char *what)
{
	if (c < 0)
		return RD_EOF;
	if (c >= 0x20 && c < 0x7f)
		load_set_error(rd, rd->pos, "expected %s, found '%c'", what, c);
	else
		load_set_error(rd, rd->pos, "expected %s, found byte 0x%02x", what, c);
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

/*
 * A chunk's part (chunk_start() runs it in the chunk's thread): the rest of
 * the event array from its first event, then the rest of the document.
 */
static int
read_part(struct reader *rd)
{
	int r = load_read_events(rd);

	if (r == RD_OK && !rd->t->legacy_array)
		r = load_read_object(rd, 1);
	return r;
}

/* Reads the event array after its '['.  Returns RD_OK, RD_EOF or RD_ERR. */
int
load_read_events(struct reader *rd)
{
	int c;

	rd->events_seen = 1;
	rd->in_events = 1;
	c = rd_peek(rd);
	rd->last_good = rd_offset(rd);
	if (c == ']') {
		rd->pos++;
		rd->last_good = rd_offset(rd);
		rd->in_events = 0;
		return RD_OK;
	}
	if (rd->split_min > 0)
		chunk_start(rd, read_part);
	for (;;) {
		json_object *obj = NULL;
		int r;

		while (rd->next != NULL && rd_offset(rd) >= chunk_at(rd->next))
			if (chunk_join(rd) == 0)
				return RD_SPLIT;
		if (rd->chunk != NULL && chunk_cancelled(rd->chunk))
			return RD_CANCEL;
		rd->obj_off = rd_offset(rd);
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
				rd->in_events = 0;
				return RD_OK;
			}
			continue;
		}
		if (c == ']') {
			rd->pos++;
			rd->last_good = rd_offset(rd);
			rd->in_events = 0;
			return RD_OK;
		}
		return expect_error(rd, c, "',' or ']' after an event");
	}
}

/*
 * Reads the top-level object after its '{'; with resume, after the value of
 * its traceEvents (the second half's start).
 */
int
load_read_object(struct reader *rd, int resume)
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
		if (strcmp(k, "traceEvents") == 0 && rd->chunk != NULL) {
			/* a second event array: its events would come after the
			   header values the chunk holds back */
			free(k);
			chunk_unsupported(rd->chunk);
			return RD_CANCEL;
		}
		if (strcmp(k, "traceEvents") == 0) {
			free(k);
			c = rd_peek(rd);
			if (c != '[') {
				if (c >= 0) {
					load_set_error(rd, rd->pos,
					    "traceEvents is not an array (not a trace)");
					rd->err->not_trace = 1;
					return RD_ERR;
				}
				return RD_EOF;
			}
			rd->pos++;
			if ((r = load_read_events(rd)) != RD_OK)
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

/*
 * Says why reading stopped when the data ended inside the JSON value: the
 * trace's stop reason names the file, the byte where it ended and what was
 * still open.
 */
static void
cut_short(struct reader *rd)
{
	char msg[sizeof rd->err->msg];
	uint64_t off = rd_offset(rd);

	snprintf(msg, sizeof msg, "%s: byte %llu (line %llu): the file ends before "
	    "the %s is closed (cut short)", rd->path, (unsigned long long)off,
	    (unsigned long long)rd_line_at(rd, rd->pos),
	    rd->in_events ? "event array" : "top-level object");
	free(rd->t->stop_reason);
	rd->t->stop_reason = xstrdup(msg);
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
		r = load_read_events(rd);
	} else if (c == '{') {
		rd->pos++;
		r = load_read_object(rd, 0);
	} else {
		expect_error(rd, c, "'{' or '[' at the start of a trace");
		rd->err->not_trace = 1;
		return -1;
	}
	rd_sync(rd);            /* from here on, the trace is this thread's */
	chunk_abandon(rd);      /* stopped before the next chunk (an error) */
	if (r == RD_SPLIT)
		r = rd->next_result;

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
		rd->t->events_cut |= rd->in_events;
		free(rd->t->stop_reason);
		rd->t->stop_reason = xstrdup(rd->err->msg);
		{
			int chunks = rd->err->chunks;

			memset(rd->err, 0, sizeof *rd->err);
			rd->err->chunks = chunks;
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
		rd->t->events_cut |= rd->in_events;
		if (rd->bad) {
			if (rd->gzip)
				rd->t->warn.corrupt_gzip++;
			free(rd->t->stop_reason);
			rd->t->stop_reason = xmalloc(strlen(rd->path) + strlen(rd->badmsg) + 3);
			snprintf(rd->t->stop_reason, strlen(rd->path) + strlen(rd->badmsg) + 3,
			    "%s: %s", rd->path, rd->badmsg);
		} else {
			/*
			 * The data ended before the JSON did: cut short, even
			 * when the cut fell between two events (a job killed
			 * mid-write), where no byte is left over to count.
			 */
			cut_short(rd);
		}
		return 0;
	}
	if (!rd->events_seen) {
		load_set_error(rd, rd->pos, "no traceEvents array (not a trace)");
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
 * gzip's threads by default: 2, the inflater on a thread of its own
 * (inflater.c), whatever the load.  With ISA-L inflating is a tenth of the
 * work, and the thread paid a little both with a core idle (100 MB: 0.45
 * to 0.53 s against 0.49 to 0.50 s; 1 GB: 4.8 and 5.1 s against 5.2 and
 * 5.5 s) and with both cores busy with other work (0.47 to 0.64 s against
 * 0.48 to 0.72 s): no load-average rule (bench/RESULTS.md).
 */
#define GZIP_THREADS 2
/* The most chunks one file is read in at once. */
#define MAX_CHUNKS 64

/*
 * The threads to load one file with by default.  A plain file is read in
 * as many chunks as there are cores (at most MAX_CHUNKS), each of
 * split_min / 2 bytes or more: the chunks meet only at their ends, and
 * one chunk per core costs next to nothing when the cores are busy
 * (bench/RESULTS.md).  gzip: GZIP_THREADS (see there).
 */
static int
default_threads(int gzip, uint64_t size, uint64_t split_min)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t parts;

	if (ncpu < 2)
		return 1;
	if (split_min == 0 || size < split_min)
		return gzip ? GZIP_THREADS : 1;
	parts = size / (split_min / 2 > 0 ? split_min / 2 : 1);
	if (parts > (uint64_t)ncpu)
		parts = (uint64_t)ncpu;
	return parts > MAX_CHUNKS ? MAX_CHUNKS : (int)parts;
}

/*
 * How to load: opts, overridden (for tests and comparisons) by the
 * environment: GANTTY_JSONC_ONLY=1 reads every event through json-c alone
 * (the reference path), GANTTY_LOAD_THREADS=N sets the threads (0: choose
 * once the file is open, default_threads()), GANTTY_SPLIT_MIN=BYTES the
 * smallest part of a plain file read in chunks (SPLIT_MIN).
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
load_open(const char *path, struct load_error *err)
{
	int fd;

	memset(err, 0, sizeof *err);
	if (strcmp(path, "-") == 0)
		fd = dup(STDIN_FILENO);
	else
		fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err->msg, sizeof err->msg, "%s: %s", path, strerror(errno));
		err->not_file = errno == ENOENT || errno == ELOOP || errno == EISDIR;
	}
	return fd;
}

int
load_trace(struct trace *t, const char *path, const struct load_opts *opts,
    struct load_error *err)
{
	int fd = load_open(path, err);

	if (fd < 0)
		return -1;
	return load_trace_fd(t, fd, path, opts, err);
}

int
load_trace_fd(struct trace *t, int fd, const char *path,
    const struct load_opts *opts, struct load_error *err)
{
	struct reader rd;
	struct stat st;
	uint64_t size = 0;
	int rc, threads, regular = 0;

	memset(err, 0, sizeof *err);
	memset(&rd, 0, sizeof rd);
	rd.fd = fd;
	if (fstat(rd.fd, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			snprintf(err->msg, sizeof err->msg, "%s: is a directory", path);
			err->not_file = 1;
			close(rd.fd);
			return -1;
		}
		if (S_ISREG(st.st_mode)) {
			size = (uint64_t)st.st_size;
			regular = 1;
		}
	}
	trace_init(t, path);
	rd_init(&rd, rd.fd, path, t, err);
	rd.file_size = size;
	rd.opts = opts;
	load_settings(opts, &rd.fast, &threads, &rd.split_min);
	rd_open(&rd);
	/*
	 * A file is read in as many chunks as threads (gzip too, where ISA-L
	 * inflates it: each chunk inflates what is before it again and its
	 * own part, chunks.c).  gzip that is not (too small, from a pipe, or
	 * inflated by zlib, as slow as reading it) is inflated by a second
	 * thread, and, from a pipe, with a third a taker builds its model.
	 * (With chunks the parent's inflater thread made the 1 GB .gz load
	 * slower: 2.44 s against 2.30 s, the median of 7, both cores busy.)
	 */
	rd.data_size = rd.gzip ? rd_gz_size_guess(&rd) : rd.file_size;
	if (strcmp(path, "-") == 0 || !regular || (rd.gzip && rd.isal == NULL))
		rd.data_size = 0;       /* not read in chunks */
	if (threads == 0)
		threads = default_threads(rd.gzip, rd.data_size, rd.split_min);
	if (rd.gzip && threads >= 2 &&
	    (rd.data_size == 0 || rd.data_size < rd.split_min))
		rd.inflater = inflater_start(&rd);
	if (rd.gzip && threads >= 3 && rd.data_size == 0)
		rd.taker = taker_start(&rd);
	if (threads < 2 || rd.data_size == 0)
		rd.split_min = 0;
	rd.split_threads = threads > MAX_CHUNKS ? MAX_CHUNKS : threads;

	rc = read_document(&rd);
	inflater_stop(&rd);
	taker_stop(&rd);
	chunk_abandon(&rd);
	/* rd is the reader that read to the end (chunks.c: it took theirs) */
	t->warn.trailing_bytes += rd.gz_trailing;
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
