/*
 * load — reads one Kineto trace file into a struct trace.
 *
 * The only module that knows JSON (json-c, and jscan, its fast decoder of
 * events) and compression (zlib, and ISA-L where built with it).  The file is streamed: a read buffer feeds
 * one event at a time to jscan, which decodes the fields the model needs,
 * or, for anything jscan declines, to a json_tokener; json-c is the
 * reference, and both paths build the same model (tests/fastload.sh).
 * Memory stays near the buffer size plus the model, whatever the file size.
 * With more threads (load_opts.threads), a file is read in as many chunks
 * at once (each into a model of its own, merged in file order; a chunk of
 * gzip inflates all before it again), or, gzip from a pipe, inflated by a
 * thread of its own (a taker thread can also build its model from what the
 * reading thread decoded).  gzip is recognised by its magic bytes (every byte before
 * corrupt data is kept; concatenated members are read in turn); "-" reads
 * standard input.  An event or header value nested deeper than json-c's
 * limit (64) is skipped by a bracket counter and counted.
 *
 * O(n) in the file's bytes to read (jscan: a few hundred MB/s), then
 * trace_finalize(): O(n log n) in the events at worst, O(n) when each
 * track's events come in time order.
 *
 * Accepted: the object form ({"traceEvents": [...], "deviceProperties": ...})
 * and the legacy bare array of events; phases X, B/E, i/I, C, s/t/f and M.
 * Timestamps become int64 ns from the number's text (see units.h).
 *
 * Messy input loads with counted warnings (trace->warn); a file cut short
 * keeps every complete event and counts the ignored bytes.  Input that is
 * not a trace fails with a message naming the file, the byte offset (of the
 * decompressed data) and the line.
 *
 * The loader's files, one concept each, and what they share: load_int.h.
 */
#ifndef GANTTY_LOAD_H
#define GANTTY_LOAD_H

#include <stdint.h>

struct trace;

struct load_opts {
	/*
	 * Called now and then with the bytes of the file read so far (compressed
	 * bytes for gzip; in chunks, as far as the first has gone through its
	 * part: never less than before) and the file size (0 when unknown,
	 * e.g. a pipe).  May be NULL.
	 */
	void (*progress)(uint64_t done, uint64_t total, void *ctx);
	void *progress_ctx;
	/*
	 * Threads for this file.  1 does it all in the calling thread; N >= 2
	 * reads a regular file of 8 MB of JSON or more (plain, or gzip that
	 * ISA-L inflates) in N chunks at once (at most 64, each of 4 MB or
	 * more), else inflates gzip on a second thread; 3 adds to that, for
	 * gzip from a pipe, a taker that builds the model from what the
	 * calling thread decoded.  0 chooses: a chunk per core (2 threads for
	 * gzip read in one chunk; 1 on one core).  The model is the same
	 * either way.
	 */
	int threads;
};

struct load_error {
	char msg[1024];         /* "FILE: byte N (line L): what went wrong" */
	int not_trace;          /* well-formed JSON with no event array */
	int not_file;           /* a directory, or a name that leads nowhere (a
	                           dangling link): nothing to read */
	int chunks;             /* (on success) the chunks it was read in at once
	                           (0: read by one thread) */
};

/*
 * Loads path into t, which it initialises (trace_init) and finalises
 * (trace_finalize).  Returns 0 on success; on failure returns -1, fills err
 * and leaves t freed (trace_free).  opts may be NULL.
 */
int load_trace(struct trace *t, const char *path, const struct load_opts *opts,
    struct load_error *err);
/*
 * Opens path as load_trace() does ("-": a duplicate of standard input).
 * Returns the descriptor, or -1 with err filled.
 */
int load_open(const char *path, struct load_error *err);
/*
 * load_trace() from fd, already open on path (load_open()), which it
 * closes: the file named is the one opened, whatever path names by now.
 */
int load_trace_fd(struct trace *t, int fd, const char *path,
    const struct load_opts *opts, struct load_error *err);
/*
 * What inflates gzip in this build, for --version: "ISA-L, zlib 1.2.13 for
 * damaged data" or "zlib 1.2.13".  Never NULL; the string is static.
 */
const char *load_inflater(void);

#endif
