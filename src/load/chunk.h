/*
 * chunk — one chunk of a file read in chunks (chunks.c): what the readers
 * around it look at (where it starts, whether it is to stop, the header
 * values it holds back) beside what chunks.c keeps, so that the reader,
 * the taker and the document read it without calling into chunks.c, which
 * calls them.  Only the .c files of src/load/ may include this header.
 */
#ifndef GANTTY_CHUNK_H
#define GANTTY_CHUNK_H

#include <pthread.h>
#include <stdint.h>

#include "load/load.h"
#include "load/load_int.h"
#include "model/trace.h"
#include "base/xalloc.h"

/*
 * A regular file is read in N chunks at once (load_opts.threads = N >= 2):
 * the calling thread reads from the start of the event array, and a
 * reader of the rest, given N - 1 threads, starts at an event about 1/N
 * of the way through it; that reader in turn starts one for the rest of
 * its part with N - 2, and so on, each in a thread of its own and into a
 * trace of its own.  Where a chunk starts is a guess: the '{' of something
 * that looks like an event after "},".  The reader before it checks it:
 * only when one of its own events ends exactly there was the guess an
 * event boundary of the array, and then the chunk read exactly what that
 * reader would have read from there; the reader waits for the chunk,
 * takes its trace (with every trace the chunk took in turn), carries on as
 * the chunk's reader where it stopped, and the first reader merges all it
 * took into its trace in file order (trace_merge()).  Otherwise (the guess
 * fell inside an event, the reader stopped at an error first, the chunk
 * met B/E events or a second event array) the chunk's work is dropped, the
 * chunk after it (if it had not taken it yet) becomes the reader's next,
 * and the reader reads on.  So the model is the same for any number of
 * chunks.  Header values after the event array are held back by the chunk
 * that reads them and taken in order once merged.  Messages of a chunk are
 * worded by load_set_error() as they would be by one reader (their line
 * numbers are counted from the chunks before).
 *
 * gzip data cannot be entered in its middle, so a chunk of it inflates the
 * file from its first byte in its own thread, drops what comes before the
 * place it was given (mid), and only then decides where it starts (at, in
 * the inflated data); the reader before it, come to mid, waits for that.
 * Its parts are uneven (gz_part()) so that all end together.  Reading the
 * same bytes with the same inflater, a chunk's reader comes to where it
 * starts in the state the reader before it would be in there (the input
 * read, a damaged member, zlib taking over), so it simply becomes that
 * reader, as with plain files.
 */
struct chunk {
	struct reader rd;       /* reads from at on, into t */
	struct trace t;
	struct load_error err;
	uint64_t at;            /* where it starts: the '{' of an event (a guess);
	                           CHUNK_NONE: no guess (read when decided;
	                           chunk_at() then says mid, where the reader
	                           before it drops it) */
	uint64_t mid;           /* gzip: where it looks for its start */
	int decided;            /* at is set (atomic; gzip: by its thread) */
	pthread_mutex_t mu;     /* gzip: guards decided for the wait */
	pthread_cond_t cv;
	pthread_t thread;
	int (*read)(struct reader *rd); /* reads its part, in the thread */
	int cancel;             /* set by the reader before it: stop (atomic) */
	int unsupported;        /* it met what it cannot read apart */
	int result;             /* its reading's result (RD_CANCEL: stopped) */
	int taken;              /* t was moved into the reader before it */
	struct op *headers;     /* held-back header values, in order */
	size_t nheaders, headers_cap;
	struct trace **after;   /* the later chunks' traces it took, in order */
	size_t nafter, after_cap;
};

#define CHUNK_NONE UINT64_MAX

/* Where c starts: its guess once decided, else where it looks (mid). */
static inline uint64_t
chunk_at(const struct chunk *c)
{
	return __atomic_load_n(&c->decided, __ATOMIC_ACQUIRE) &&
	    c->at != CHUNK_NONE ? c->at : c->mid;
}

/* Whether the reader before c told it to stop. */
static inline int
chunk_cancelled(struct chunk *c)
{
	return __atomic_load_n(&c->cancel, __ATOMIC_RELAXED);
}

/* c met what it cannot read apart (B/E events, a second event array). */
static inline void
chunk_unsupported(struct chunk *c)
{
	c->unsupported = 1;
}

/* Holds back a header value c read, to be taken in order once merged. */
static inline void
chunk_defer(struct chunk *c, const struct op *op)
{
	xgrow(&c->headers, &c->headers_cap, c->nheaders + 1, sizeof *c->headers);
	c->headers[c->nheaders++] = *op;
}

#endif
