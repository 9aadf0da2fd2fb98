/*
 * chunks.c — a file read in chunks at once: from its start and from events
 * spread over its event array, one thread each, every later chunk taken
 * into the first in file order when it started at an event boundary (see
 * load/chunk.h).  gzip too: each chunk inflates the data before it again.
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
#include <zlib.h>

#include "load/chunk.h"
#include "load/load_int.h"
#include "model/trace.h"
#include "base/xalloc.h"
#include "base/job.h"

/* gzip: says where the chunk starts (CHUNK_NONE: nowhere), in its thread. */
static void
chunk_decide(struct chunk *c, uint64_t at)
{
	pthread_mutex_lock(&c->mu);
	c->at = at;
	__atomic_store_n(&c->decided, 1, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->mu);
}

/* Waits until c's start is decided. */
static void
chunk_wait_decided(struct chunk *c)
{
	pthread_mutex_lock(&c->mu);
	while (!__atomic_load_n(&c->decided, __ATOMIC_ACQUIRE))
		pthread_cond_wait(&c->cv, &c->mu);
	pthread_mutex_unlock(&c->mu);
}

static int chunk_gz_find(struct chunk *c);

static void *
chunk_main(void *arg)
{
	struct chunk *c = arg;
	int r;

	if (!c->decided && chunk_gz_find(c) < 0) {
		c->result = RD_CANCEL;
		return NULL;
	}
	r = c->read(&c->rd);
	if (r == RD_SPLIT)
		r = c->rd.next_result;
	if (r != RD_CANCEL)
		chunk_abandon(&c->rd);  /* stopped before its next: not wanted */
	c->result = r;
	return NULL;
}

/* Frees c and all it read (its thread has ended). */
static void
chunk_free(struct chunk *c)
{
	chunk_abandon(&c->rd);
	for (size_t i = 0; i < c->nheaders; i++) {
		json_object_put(c->headers[i].obj);
		free(c->headers[i].key);
	}
	free(c->headers);
	for (size_t i = 0; i < c->nafter; i++) {
		trace_free(c->after[i]);
		free(c->after[i]);
	}
	free(c->after);
	rd_release(&c->rd);
	if (!c->taken)
		trace_free(&c->t);
	pthread_cond_destroy(&c->cv);
	pthread_mutex_destroy(&c->mu);
	free(c);
}

enum { GUESS_BYTES = 1 << 16 };
/*
 * The time to inflate a byte of gzip data over the time to inflate and
 * read it: 0.16 s against 0.85 s for 500 MB of the 1 GB generated trace
 * here (ISA-L), 0.2 with a margin.
 */
#define GZ_SKIP_COST 0.2

/*
 * Where a chunk starts in buf[0..n): the '{' after the first "}," (white
 * space allowed) when it opens an object with a key; -1 if not.
 */
static long
guess_in(const char *buf, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++) {
		size_t j = i + 1;

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
		for (size_t q = j + 1; q < n; q++)
			if (strchr(" \t\r\n", buf[q]) == NULL)
				return buf[q] == '"' ? (long)j : -1;
		return -1;      /* the first "}, {" decides */
	}
	return -1;
}

/*
 * Where to guess the next chunk of a plain file starts: guess_in() the 64
 * KB from 1/parts of the way through [from, size); 0 if nowhere.
 */
static uint64_t
chunk_guess(int fd, uint64_t from, uint64_t size, int parts)
{
	char *buf = xmalloc(GUESS_BYTES);
	uint64_t mid = from + (size - from) / (uint64_t)parts;
	ssize_t n = pread(fd, buf, GUESS_BYTES, (off_t)mid);
	long j = n > 0 ? guess_in(buf, (size_t)n) : -1;

	free(buf);
	return j < 0 ? 0 : mid + (uint64_t)j;
}

/*
 * How much of the rest (rest bytes, to be read with n threads) a gzip
 * chunk's reader reads itself.  The chunks after it first inflate all that
 * comes before them: to end together, the reader whose part starts at from
 * reads u bytes where from*c + u = (from + u)*c + (rest - u)/(n - 1), in
 * units of the time to inflate and read a byte, c the time to only inflate
 * it: u = rest / (n - (n - 1)*c).
 */
static uint64_t
gz_part(uint64_t rest, int n)
{
	return (uint64_t)((double)rest / ((double)n - (double)(n - 1) * GZ_SKIP_COST));
}

/*
 * gzip's chunk, in its thread: inflates the file from its first byte,
 * drops what comes before c->mid and starts at guess_in() the 64 KB from
 * there.  A gzip stream cannot be entered in its middle, so each chunk
 * inflates all before it again: ISA-L does that at about 3 GB/s here (0.16
 * s for the 1 GB trace's first 500 MB), five times as fast as the events
 * are inflated and decoded.  Returns 0, or -1 (decided: nowhere).
 */
static int
chunk_gz_find(struct chunk *c)
{
	struct reader *rd = &c->rd;
	long j = -1;

	rd_open(rd);
	if (rd->gzip && rd_skip_to(rd, c->mid, GUESS_BYTES) == 0)
		j = guess_in(rd->buf, rd->len < GUESS_BYTES ? rd->len : GUESS_BYTES);
	if (j < 0) {
		chunk_decide(c, CHUNK_NONE);
		return -1;
	}
	rd->pos = rd->counted = (size_t)j;
	chunk_decide(c, c->mid + (uint64_t)j);
	return 0;
}

/*
 * At the start of rd's part of the event array: starts the next chunk when
 * the file is a regular file whose size is known (rd->data_size; gzip: a
 * guess), rd has threads to give and a part of split_min bytes or more for
 * each, and the same file can be opened again.
 */
void
chunk_start(struct reader *rd, int (*read)(struct reader *rd))
{
	struct chunk *c;
	struct stat a, b;
	uint64_t at = 0, mid = 0, from = rd_offset(rd);
	int fd;

	if (rd->next != NULL || rd->taker != NULL || rd->split_threads < 2 ||
	    rd->data_size <= from || rd->data_size - from < rd->split_min ||
	    fstat(rd->fd, &a) != 0 || !S_ISREG(a.st_mode))
		return;
	if (rd->gzip)
		mid = from + gz_part(rd->data_size - from, rd->split_threads);
	else if ((at = chunk_guess(rd->fd, from, rd->data_size,
	    rd->split_threads)) == 0)
		return;
	fd = open(rd->path, O_RDONLY);
	if (fd < 0)
		return;
	if (fstat(fd, &b) != 0 || a.st_dev != b.st_dev || a.st_ino != b.st_ino ||
	    (!rd->gzip && lseek(fd, (off_t)at, SEEK_SET) != (off_t)at)) {
		close(fd);
		return;
	}
	c = xcalloc(1, sizeof *c);
	c->read = read;
	c->at = at;
	c->mid = mid;
	c->decided = !rd->gzip;         /* gzip: its thread finds where */
	pthread_mutex_init(&c->mu, NULL);
	pthread_cond_init(&c->cv, NULL);
	trace_init(&c->t, rd->path);
	c->t.legacy_array = rd->t->legacy_array;
	rd_init(&c->rd, fd, rd->path, &c->t, &c->err);
	c->rd.fast = rd->fast;
	c->rd.base = at;
	c->rd.file_size = rd->file_size;
	c->rd.data_size = rd->data_size;
	c->rd.events_seen = 1;
	c->rd.chunk = c;
	c->rd.split_min = rd->split_min;
	c->rd.split_threads = rd->split_threads - 1;
	if (job_thread(&c->thread, chunk_main, c) != 0) {
		c->rd.fd = fd;
		chunk_free(c);
		return;
	}
	rd->next = c;
}

/*
 * Drops rd's next chunk: stops it and frees what it read.  The chunk after
 * it, when it had not taken it, becomes rd's next.
 */
static void
chunk_drop(struct reader *rd)
{
	struct chunk *c = rd->next;

	rd->next = NULL;
	__atomic_store_n(&c->cancel, 1, __ATOMIC_RELAXED);
	pthread_join(c->thread, NULL);
	rd->next = c->rd.next;
	c->rd.next = NULL;
	chunk_free(c);
}

/* Stops every chunk after rd's part, if any, and drops what they read. */
void
chunk_abandon(struct reader *rd)
{
	while (rd->next != NULL)
		chunk_drop(rd);
}

/* Moves c's trace and all it took to the end of rd's chunk's list. */
static void
chunk_take(struct chunk *into, struct chunk *c)
{
	struct trace *t = xmalloc(sizeof *t);

	*t = c->t;
	c->taken = 1;
	xgrow(&into->after, &into->after_cap, into->nafter + c->nafter + 1,
	    sizeof *into->after);
	into->after[into->nafter++] = t;
	for (size_t i = 0; i < c->nafter; i++)
		into->after[into->nafter++] = c->after[i];
	c->nafter = 0;
	for (size_t i = 0; i < c->nheaders; i++)
		chunk_defer(into, &c->headers[i]);
	c->nheaders = 0;
}

/*
 * The first reader takes c: merges its trace and all it took into rd's, in
 * file order, and applies its held-back header values.  Returns -1,
 * changing nothing, when they cannot all be merged.
 */
static int
chunk_merge(struct reader *rd, struct chunk *c)
{
	struct trace **all = xreallocarray(NULL, c->nafter + 1, sizeof *all);
	int ok;

	all[0] = &c->t;
	for (size_t i = 0; i < c->nafter; i++)
		all[i + 1] = c->after[i];
	ok = trace_merge_ok(rd->t, all, c->nafter + 1);
	for (size_t i = 0; ok && i <= c->nafter; i++)
		if (trace_merge(rd->t, all[i]) != 0)
			abort();        /* trace_merge_ok() said it would not decline */
	free(all);
	if (!ok)
		return -1;
	for (size_t i = 0; i < c->nheaders; i++)
		taker_op_apply(rd, &c->headers[i], NULL);     /* frees them */
	c->nheaders = 0;
	rd->err->chunks = (rd->err->chunks > 0 ? rd->err->chunks : 1) + 1 +
	    (int)c->nafter;
	return 0;
}

/*
 * rd has come to or past its next chunk's start (gzip: to where it looks
 * for it; this waits until it has decided).  Exactly at it: waits for the
 * chunk, takes its trace (the first reader merges it), and makes rd the
 * reader where the chunk stopped (its result in rd->next_result); returns
 * 0.  Before it (gzip), returns -1 and changes nothing.  Otherwise (past
 * it: the guess was no event boundary; no guess; or the chunk cannot be
 * taken) drops the chunk and returns -1: rd reads on, with the chunk after
 * the dropped one as its next, if any.
 */
int
chunk_join(struct reader *rd)
{
	struct chunk *c = rd->next;
	struct reader old;
	uint64_t lines;

	chunk_wait_decided(c);
	if (c->at == CHUNK_NONE || rd_offset(rd) > c->at) {
		chunk_drop(rd);
		return -1;
	}
	if (rd_offset(rd) < c->at)
		return -1;      /* gzip: it starts further on than it looked */
	pthread_join(c->thread, NULL);
	if (c->unsupported || c->result == RD_CANCEL) {
		rd->next = c->rd.next;
		c->rd.next = NULL;
		chunk_free(c);
		return -1;
	}
	if (rd->chunk != NULL) {
		chunk_take(rd->chunk, c);
	} else {
		if (chunk_merge(rd, c) != 0) {
			rd->next = NULL;
			chunk_free(c);
			return -1;
		}
	}
	rd->next = NULL;
	inflater_stop(rd);      /* it inflates for rd's state, about to go */
	rd_gz_release(rd);      /* here: zlib's state points back at rd->z */
	/* rd becomes the chunk's reader, lines counted from the start */
	lines = rd_line_at(rd, rd->pos) - 1;
	if (c->rd.err_set) {
		c->rd.err_line += lines;
		snprintf(rd->err->msg, sizeof rd->err->msg,
		    "%s: byte %llu (line %llu): %s", rd->path,
		    (unsigned long long)c->rd.err_off,
		    (unsigned long long)c->rd.err_line, c->rd.err_what);
		rd->err->not_trace = c->err.not_trace;
	}
	old = *rd;
	*rd = c->rd;
	rd->lines += lines;
	rd->t = old.t;
	rd->err = old.err;
	rd->opts = old.opts;
	rd->next_progress = old.next_progress;
	rd->phased += old.phased;
	if (rd->last_good == c->at)     /* it completed nothing: rd did */
		rd->last_good = old.last_good;
	rd->split_min = 0;
	rd->split_threads = 0;
	rd->chunk = old.chunk;
	rd->next_result = c->result;
	rd_release(&old);
	c->rd.fd = -1;          /* its resources are rd's now */
	c->rd.tok = NULL;
	c->rd.buf = NULL;
	c->rd.in = NULL;
	c->rd.isal = NULL;
	/* zlib's state points back at its z_stream: rd's gets a copy */
	if (c->rd.z_ready && inflateCopy(&rd->z, &c->rd.z) != Z_OK)
		xalloc_die("copying the gzip state");
	memset(&c->rd.js, 0, sizeof c->rd.js);
	chunk_free(c);
	return 0;
}
