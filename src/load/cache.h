/*
 * cache — the loaded model of a trace file, saved so that reopening the file
 * is a few large reads instead of a parse.
 *
 * After a file loads and trace_finalize() runs, its struct trace (strings,
 * events, args, comms, flows, tracks with their interval index and busy set,
 * categories, devices, header fields, warnings and stop reason) is written
 * to DIR/NAME-HASH.gantty, where DIR is $XDG_CACHE_HOME/gantty (an absolute
 * XDG_CACHE_HOME only), else $HOME/.cache/gantty (an absolute HOME, else the
 * home directory of the password database).  A cache file belongs to
 * one file: it is keyed by the file's absolute path, device, inode, size,
 * mtime and ctime (nanoseconds), all taken from the descriptor the trace
 * is then read from (the path by /proc/self/fd, else realpath()), so that
 * a name re-pointed while it loads cannot key one file's model with
 * another's identity; the key records a format version,
 * the gantty version, the byte order and the size of every record type of
 * the build that wrote it.  It is written to a temporary file in DIR and
 * renamed into place, so readers see a whole cache or none.
 *
 * A cache is never trusted: any difference in the key or the header, a size
 * that does not match the counts, a checksum (over every byte) that does not
 * match, or an index, count or offset out of range makes cache_load() refuse
 * it; the caller then loads the file and replaces the cache.  Standard input
 * is never cached, nor a file modified less than CACHE_RACY_S seconds before
 * it was opened (it may still be being written, and a rewrite within the
 * file system's timestamp granularity could keep its key).
 *
 * Nothing here prints: functions that can fail say why in a caller's buffer
 * (lower-case, no full stop), for main's -v notes.  Failing to write a cache
 * is never an error for the caller.
 *
 * Costs: cache_load() reads the file into memory (not mapped: a cache
 * truncated in place would raise SIGBUS in a viewer that maps it) and
 * checks it in O(size); cache_store() writes it in O(size).  The file is
 * about 80 bytes an event (the interval indexes and busy sets are stored,
 * the string hash table is rebuilt): 14% to 32% of Kineto's JSON, about
 * 100% of compact JSON of bare events (man page, FILES).
 */
#ifndef GANTTY_CACHE_H
#define GANTTY_CACHE_H

#include <stddef.h>
#include <stdint.h>

struct trace;
struct load_opts;
struct load_error;

/*
 * Bump when the file's layout changes, and whenever the loader or
 * trace_finalize() changes what they build from the same file (caches
 * written before would otherwise give the old model until the file
 * changes; the gantty version is in the key too, but not every change
 * bumps it).  A field added to struct trace must be stored in cache.c.
 */
#define CACHE_FORMAT_VERSION 16
#define CACHE_RACY_S 2

/* What identifies one version of a file; see the top of this file. */
struct cache_key {
	char *abspath;          /* malloc'd */
	int fd;                 /* the file, open: the key is its fstat() */
	uint64_t dev, ino;
	int64_t size, mtime_ns, ctime_ns;
	int64_t now_ns;         /* wall clock when the key was taken */
};

/*
 * Writes the cache directory (not created) into buf: $XDG_CACHE_HOME/gantty
 * when it is absolute, else $HOME/.cache/gantty when HOME is absolute, else
 * the password database's home's .cache/gantty.  Returns 0, or -1 with why
 * ("no cache: ...", for -v) when there is none or it does not fit.
 */
int cache_dir(char *buf, size_t size, char *why, size_t whysize);
/*
 * Whether dir may hold caches: this user's and not writable by group or
 * others (or not there yet).  Returns 0, or -1 with why.  cache_load() and
 * cache_store() use no other.
 */
int cache_dir_trusted(const char *dir, char *why, size_t whysize);

/*
 * Fills k for fd, open on path (k->fd = fd; not closed here).  Returns 0,
 * or -1 with why filled when it cannot be cached: not a regular file, or
 * not stat-able.  Free k with cache_key_free() after a 0 return.
 */
int cache_key_get(struct cache_key *k, int fd, const char *path, char *why,
    size_t whysize);
/* Frees what k owns (not its fd); k may be zeroed. */
void cache_key_free(struct cache_key *k);
/*
 * For tests only: called by cache_load_trace() with the path just after
 * the file is opened and before its key is taken (a test re-points a link
 * there).  NULL in gantty.
 */
extern void (*cache_test_after_open)(const char *path);

/*
 * Writes the cache file path of k in dir into buf.  Returns 0, or -1 when it
 * does not fit.
 */
int cache_path(char *buf, size_t size, const char *dir, const struct cache_key *k);

/*
 * Loads the cache of k from dir into t (initialised here, with t->path set
 * to path).  Returns 0 on a valid cache; else -1 with why filled ("absent",
 * "stale", "corrupt: ...") and t left freed (trace_free).  Never trusts the
 * file: see the top of this file.
 */
int cache_load(struct trace *t, const char *path, const char *dir,
    const struct cache_key *k, char *why, size_t whysize);

/*
 * Writes t (finalised, loaded from the file of k) to its cache file in dir,
 * creating dir (mode 0700) when missing.  Returns 0, or -1 with why filled
 * (unwritable dir, full disk, the file changed while it loaded, a file too
 * new to trust its key); a failure leaves no temporary file behind.
 */
int cache_store(const struct trace *t, const char *dir, const struct cache_key *k,
    char *why, size_t whysize);

/*
 * Installs handlers for SIGINT, SIGTERM and SIGHUP (unless ignored) that
 * remove the temporary files being written, then die of the signal as
 * before.  cache_store() also removes, once a run, the temporary files
 * older than an hour that a writer killed otherwise (SIGKILL, a crash)
 * left in the directory.
 */
void cache_cleanup_on_signals(void);
/* Unlinks the temporary files being written; async-signal-safe. */
void cache_signal_cleanup(void);
/* For tests only: called by cache_store() with its temporary file written. */
extern void (*cache_test_mid_write)(void);

/*
 * load_trace() with the cache: when dir is not NULL and path can be cached,
 * loads from a valid cache, else loads the file and stores its cache.  The
 * result, return value and err are those of load_trace(); note (size
 * notesize) says what the cache did ("hit ...", "miss ...", "not written:
 * ..."), or is empty when dir is NULL.
 */
int cache_load_trace(struct trace *t, const char *path, const struct load_opts *opts,
    struct load_error *err, const char *dir, char *note, size_t notesize);

#endif
