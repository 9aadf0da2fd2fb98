/*
 * halves.c — two halves: a plain file read from its start and from near
 * the middle of its event array at once, on two threads, the second half
 * merged into the first when it started at an event boundary (see below).
 */
#include "config.h"

#include "load/load.h"

#include <fcntl.h>
#include <json-c/json.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "load/load_int.h"
#include "model/trace.h"
#include "base/xalloc.h"

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
 * load_set_error() as they would be by one reader (their line numbers are
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
	int result;             /* load_read_events() and load_read_object()'s result */
	struct op *headers;     /* held-back header values, in order */
	size_t nheaders, headers_cap;
};

uint64_t
half_at(const struct half *h)
{
	return h->at;
}

int
half_cancelled(struct half *h)
{
	return __atomic_load_n(&h->cancel, __ATOMIC_RELAXED);
}

void
half_unsupported(struct half *h)
{
	h->unsupported = 1;
}

void
half_defer(struct half *h, const struct op *op)
{
	xgrow(&h->headers, &h->headers_cap, h->nheaders + 1, sizeof *h->headers);
	h->headers[h->nheaders++] = *op;
}

static void *
half_main(void *arg)
{
	struct half *h = arg;
	int r = load_read_events(&h->rd);

	if (r == RD_OK && !h->rd.t->legacy_array)
		r = load_read_object(&h->rd, 1);
	h->result = r;
	return NULL;
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
void
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
void
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
int
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
		taker_op_apply(rd, &h->headers[i], NULL);     /* frees them */
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
	memset(&h->rd.js, 0, sizeof h->rd.js);
	half_free(h);
	return 0;
}

