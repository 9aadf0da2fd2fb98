/*
 * cache_key.c — what names a trace's cache file and what it must match: the
 * key of the file it caches (path, device, inode, size, times), the cache
 * directory and the file's name in it, the header that identifies this
 * build and that file, and the hash of the checksum.  cache.c reads a cache
 * file and cache_store.c writes one; both start here.
 */
#include "config.h"

#include "load/cache.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <pwd.h>
#include <time.h>
#include <unistd.h>

#include "load/cache_int.h"
#include "model/trace.h"
#include "base/xalloc.h"

#define CACHE_MAGIC "GANTTYC\n"
#define CACHE_BYTE_ORDER 0x0102030405060708ull

void
load_say(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	if (size == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, size, fmt, ap);
	va_end(ap);
}

/*
 * A streaming 64-bit hash in the manner of xxHash64: four lanes over 32-byte
 * blocks, so it runs at memory speed.  It guards against accidents (a torn
 * write, a flipped bit), not against a forger; the range checks below keep
 * even a forged cache from reading out of bounds.
 */
#define P1 0x9e3779b185ebca87ull
#define P2 0xc2b2ae3d27d4eb4full
#define P3 0x165667b19e3779f9ull

static inline uint64_t
rotl(uint64_t x, int r)
{
	return x << r | x >> (64 - r);
}

static inline uint64_t
load64(const unsigned char *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof w);
	return w;
}

void
cache_hash_init(struct hash *h)
{
	memset(h, 0, sizeof *h);
	h->v[0] = P1 + P2;
	h->v[1] = P2;
	h->v[2] = 0;
	h->v[3] = -P1;
}

static inline void
hash_block(uint64_t v[4], const unsigned char *p)
{
	for (int i = 0; i < 4; i++)
		v[i] = rotl(v[i] + load64(p + 8 * i) * P2, 31) * P1;
}

void
cache_hash_update(struct hash *h, const void *data, size_t len)
{
	const unsigned char *p = data;

	if (len == 0)
		return;         /* data may be NULL (an empty array) */
	h->total += len;
	if (h->nbuf > 0) {
		size_t take = 32 - h->nbuf < len ? 32 - h->nbuf : len;

		memcpy(h->buf + h->nbuf, p, take);
		h->nbuf += take;
		p += take;
		len -= take;
		if (h->nbuf < 32)
			return;
		hash_block(h->v, h->buf);
		h->nbuf = 0;
	}
	for (; len >= 32; p += 32, len -= 32)
		hash_block(h->v, p);
	memcpy(h->buf, p, len);
	h->nbuf = len;
}

uint64_t
cache_hash_final(const struct hash *h)
{
	uint64_t x = rotl(h->v[0], 1) + rotl(h->v[1], 7) + rotl(h->v[2], 12) +
	    rotl(h->v[3], 18);
	unsigned char tail[32] = { 0 };

	memcpy(tail, h->buf, h->nbuf);
	for (size_t i = 0; i < h->nbuf; i += 8)
		x = rotl(x ^ (load64(tail + i) * P2), 27) * P1 + P3;
	x ^= h->total * P1;
	x ^= x >> 33;
	x *= P2;
	x ^= x >> 29;
	x *= P3;
	return x ^ (x >> 32);
}

uint64_t
cache_hash_bytes(const void *p, size_t len)
{
	struct hash h;

	cache_hash_init(&h);
	cache_hash_update(&h, p, len);
	return cache_hash_final(&h);
}

static int64_t
ts_ns(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec;
}

int
cache_dir(char *buf, size_t size, char *why, size_t whysize)
{
	const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	struct passwd *pw;
	int n;

	load_say(why, whysize, "%s", "");
	if (x != NULL && x[0] == '/') {
		n = snprintf(buf, size, "%s/gantty", x);
	} else if (home != NULL && home[0] == '/') {
		n = snprintf(buf, size, "%s/.cache/gantty", home);
	} else if ((pw = getpwuid(geteuid())) != NULL && pw->pw_dir != NULL &&
	    pw->pw_dir[0] == '/') {
		/* HOME unset or relative (the cache would land under the
		   current directory): the password database's home */
		n = snprintf(buf, size, "%s/.cache/gantty", pw->pw_dir);
	} else {
		load_say(why, whysize, "no cache: neither XDG_CACHE_HOME nor HOME is "
		    "an absolute path, and the password database has no home for "
		    "this user");
		return -1;
	}
	if (n < 0 || (size_t)n >= size) {
		load_say(why, whysize, "no cache: its directory's name is too long");
		return -1;
	}
	return 0;
}

/*
 * Whether dir may hold caches: a directory of this user's, not writable by
 * group or others (a cache is read as a model: another user's could forge
 * one).  A missing dir is fine (cache_store() creates it, mode 0700).
 * Returns 0, or -1 with why.
 */
int
cache_dir_trusted(const char *dir, char *why, size_t whysize)
{
	struct stat st;

	if (lstat(dir, &st) < 0)
		return errno == ENOENT ? 0 : (load_say(why, whysize,
		    "cache directory %s: %s", dir, strerror(errno)), -1);
	if (!S_ISDIR(st.st_mode)) {
		load_say(why, whysize, "cache directory %s is not a directory", dir);
		return -1;
	}
	if (st.st_uid != geteuid()) {
		load_say(why, whysize, "cache directory %s is not owned by this user",
		    dir);
		return -1;
	}
	if ((st.st_mode & 022) != 0) {
		load_say(why, whysize, "cache directory %s is writable by group or "
		    "others (chmod 700 it)", dir);
		return -1;
	}
	return 0;
}

void
cache_key_of_stat(struct cache_key *k, const struct stat *st)
{
	k->dev = (uint64_t)st->st_dev;
	k->ino = (uint64_t)st->st_ino;
	k->size = (int64_t)st->st_size;
	k->mtime_ns = ts_ns(&st->st_mtim);
	k->ctime_ns = ts_ns(&st->st_ctim);
}

int
cache_key_get(struct cache_key *k, int fd, const char *path, char *why,
    size_t whysize)
{
	struct stat st;
	struct timespec now;
	char proc[64], link[PATH_MAX];
	char *abs = NULL;
	ssize_t n;

	memset(k, 0, sizeof *k);
	k->fd = -1;
	if (fstat(fd, &st) < 0) {
		load_say(why, whysize, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		load_say(why, whysize, "%s: not a regular file", path);
		return -1;
	}
	/* the name of the file opened, not of what path names now */
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
	n = readlink(proc, link, sizeof link - 1);
	if (n > 0 && link[0] == '/') {
		link[n] = '\0';
		abs = xstrdup(link);
	} else if ((abs = realpath(path, NULL)) == NULL) {
		load_say(why, whysize, "%s: %s", path, strerror(errno));
		return -1;
	}
	k->abspath = abs;
	k->fd = fd;
	cache_key_of_stat(k, &st);
	clock_gettime(CLOCK_REALTIME, &now);
	k->now_ns = ts_ns(&now);
	return 0;
}

void
cache_key_free(struct cache_key *k)
{
	free(k->abspath);
	memset(k, 0, sizeof *k);
}

int
cache_path(char *buf, size_t size, const char *dir, const struct cache_key *k)
{
	const char *base = strrchr(k->abspath, '/');
	char name[49];
	size_t j = 0;
	int n;

	/* The file's name (for people listing the directory), then the hash. */
	for (base = base ? base + 1 : k->abspath; *base != '\0' && j < sizeof name - 1;
	    base++)
		name[j++] = (*base >= 'a' && *base <= 'z') || (*base >= 'A' && *base <= 'Z') ||
		    (*base >= '0' && *base <= '9') || *base == '.' || *base == '-' ||
		    *base == '_' ? *base : '_';
	name[j] = '\0';
	n = snprintf(buf, size, "%s/%s-%016llx.gantty", dir, name,
	    (unsigned long long)cache_hash_bytes(k->abspath, strlen(k->abspath)));
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

void
event_header_fill(struct cache_header *h, const struct cache_key *k)
{
	memset(h, 0, sizeof *h);
	memcpy(h->magic, CACHE_MAGIC, sizeof h->magic);
	h->format = CACHE_FORMAT_VERSION;
	h->byte_order = CACHE_BYTE_ORDER;
	h->sz_event = sizeof(struct event);
	h->sz_args = sizeof(struct args_rec) << 16 | sizeof(struct event_args);
	h->sz_comm = sizeof(struct comm_args);
	h->sz_track = sizeof(struct track);
	h->sz_device = sizeof(struct device_prop);
	h->sz_warn = sizeof(struct trace_warnings);
	snprintf(h->version, sizeof h->version, "%s", PACKAGE_VERSION);
	h->dev = k->dev;
	h->ino = k->ino;
	h->size = k->size;
	h->mtime_ns = k->mtime_ns;
	h->ctime_ns = k->ctime_ns;
	h->pathlen = strlen(k->abspath);
}
