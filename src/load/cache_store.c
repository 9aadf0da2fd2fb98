/*
 * cache_store.c — writing a cache file: the header's counts from the
 * trace, the payload's sections in order (records with padding copied
 * field by field) through a buffered, checksummed writer, to a temporary
 * file renamed into place.
 */
#include "config.h"

#include "load/cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "load/cache_int.h"
#include "model/trace.h"
#include "base/xalloc.h"

#define WBUF_SIZE (1 << 20)
/* A temporary file older than this is a dead writer's: removed. */
#define STALE_TMP_S 3600

/*
 * The temporary files being written, for the signal handler: a slot is
 * claimed (2), its path written, then published (1); the handler unlinks
 * the published ones.  Loading threads write at most one each.
 */
#define TMP_SLOTS 32
static struct {
	volatile sig_atomic_t state;    /* 0 free, 2 being filled, 1 published */
	char path[PATH_MAX];
} tmp_slots[TMP_SLOTS];

static int
tmp_register(const char *path)
{
	for (int i = 0; i < TMP_SLOTS; i++) {
		sig_atomic_t want = 0;

		if (__atomic_compare_exchange_n(&tmp_slots[i].state, &want, 2, 0,
		    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
			snprintf(tmp_slots[i].path, sizeof tmp_slots[i].path, "%s", path);
			__atomic_store_n(&tmp_slots[i].state, 1, __ATOMIC_RELEASE);
			return i;
		}
	}
	return -1;
}

static void
tmp_unregister(int slot)
{
	if (slot >= 0)
		__atomic_store_n(&tmp_slots[slot].state, 0, __ATOMIC_RELEASE);
}

void
cache_signal_cleanup(void)
{
	for (int i = 0; i < TMP_SLOTS; i++)
		if (__atomic_load_n(&tmp_slots[i].state, __ATOMIC_ACQUIRE) == 1)
			unlink(tmp_slots[i].path);
}

static void
on_signal(int sig)
{
	cache_signal_cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

void
cache_cleanup_on_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };

	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		struct sigaction sa, old;

		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;       /* nohup: stays ignored */
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(sigs[i], &sa, NULL);
	}
}

static const char *stale_dir;

/* Removes the .tmp-* files in stale_dir older than STALE_TMP_S. */
static void
remove_stale(void)
{
	DIR *d = opendir(stale_dir);
	struct dirent *de;
	time_t now = time(NULL);

	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		struct stat st;

		if (strncmp(de->d_name, ".tmp-", 5) != 0 ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
		    now - st.st_mtime < STALE_TMP_S)
			continue;
		unlinkat(dirfd(d), de->d_name, 0);
	}
	closedir(d);
}

void (*cache_test_mid_write)(void);

struct writer {
	int fd;
	int failed;             /* errno of the first failure, or 0 */
	struct hash h;
	unsigned char *buf;
	size_t nbuf;
	uint64_t off;           /* payload bytes so far */
};

static void
w_raw(struct writer *w, const void *data, size_t len)
{
	const char *p = data;

	while (len > 0 && w->failed == 0) {
		ssize_t r = write(w->fd, p, len);

		if (r < 0) {
			if (errno != EINTR)
				w->failed = errno;
			continue;
		}
		p += r;
		len -= (size_t)r;
	}
}

static void
w_flush(struct writer *w)
{
	w_raw(w, w->buf, w->nbuf);
	w->nbuf = 0;
}

/* Appends len bytes to the payload (hashed). */
static void
w_put(struct writer *w, const void *data, size_t len)
{
	if (len == 0)
		return;         /* data may be NULL (an empty array) */
	cache_hash_update(&w->h, data, len);
	w->off += len;
	if (w->nbuf + len > WBUF_SIZE) {
		w_flush(w);
		if (len >= WBUF_SIZE) {
			w_raw(w, data, len);
			return;
		}
	}
	memcpy(w->buf + w->nbuf, data, len);
	w->nbuf += len;
}

/* Ends a section: zeros up to the next multiple of 8 bytes. */
static void
w_pad(struct writer *w)
{
	static const char zeros[8];

	w_put(w, zeros, PAD8(w->off) - w->off);
}

static void
w_i64(struct writer *w, const int64_t *v, size_t n, int64_t fill)
{
	if (v != NULL)
		w_put(w, v, n * sizeof *v);
	else
		for (size_t i = 0; i < n; i++)
			w_put(w, &fill, sizeof fill);
}

/* Writes every section; the header is written last, at offset 0. */
static void
write_payload(struct writer *w, const struct trace *t, const struct cache_key *k,
    struct cache_header *h)
{
	const struct strtab *st = &t->strs;

	w_put(w, k->abspath, h->pathlen);
	w_pad(w);
	w_put(w, st->lens, st->count * sizeof *st->lens);
	w_pad(w);
	for (uint32_t id = 0; id < st->count; id++)
		w_put(w, st->strs[id], (size_t)st->lens[id] + 1);
	w_pad(w);
	w_put(w, t->events, t->nevents * sizeof *t->events);
	w_put(w, t->args, t->nevents * sizeof *t->args);
	w_put(w, t->wide, t->nwide * sizeof *t->wide);
	w_put(w, t->nums, t->nnums * sizeof *t->nums);
	w_put(w, t->seqs, t->nseqs * sizeof *t->seqs);
	w_put(w, t->pairs, t->npairs * sizeof *t->pairs);
	w_put(w, t->comms, t->ncomms * sizeof *t->comms);
	/* Records with padding or spare fields go through zeroed copies. */
	for (size_t i = 0; i < t->ntracks; i++) {
		struct track c = t->tracks[i];

		c.index.maxend_ns = NULL;
		c.busy.start_ns = c.busy.end_ns = c.busy.prefix_ns = NULL;
		w_put(w, &c, sizeof c);
	}
	w_put(w, t->cats, t->ncats * sizeof *t->cats);
	w_pad(w);
	w_put(w, t->cat_kinds, t->ncats * sizeof *t->cat_kinds);
	w_pad(w);
	for (size_t i = 0; i < t->ndevices; i++) {
		const struct device_prop *d = &t->devices[i];
		struct device_prop c;

		memset(&c, 0, sizeof c);
		c.id = d->id;
		c.name = d->name;
		c.compute_major = d->compute_major;
		c.compute_minor = d->compute_minor;
		c.num_sms = d->num_sms;
		c.total_mem = d->total_mem;
		w_put(w, &c, sizeof c);
	}
	w_put(w, t->devices_seen, t->ndevices_seen * sizeof *t->devices_seen);
	w_pad(w);
	for (size_t i = 0; i < t->ntracks; i++)
		w_i64(w, t->tracks[i].index.maxend_ns,
		    itree_slots(t->tracks[i].index.n), 0);
	for (size_t i = 0; i < t->ntracks; i++) {
		const struct ivset *b = &t->tracks[i].busy;

		w_i64(w, b->start_ns, b->n, 0);
		w_i64(w, b->end_ns, b->n, 0);
		w_i64(w, b->prefix_ns, b->n + 1, 0);
	}
	w_put(w, t->byname.start, (h->nnamed + 1) * sizeof *t->byname.start);
	w_pad(w);
	w_put(w, t->byname.ev, t->nevents * sizeof *t->byname.ev);
	w_pad(w);
	w_put(w, t->cat_slices, t->ncats * sizeof *t->cat_slices);
	w_pad(w);
	for (int l = 0; l < TRACE_LISTS; l++) {
		w_put(w, t->lists[l], t->nlist[l] * sizeof *t->lists[l]);
		w_pad(w);
	}
	if (h->stoplen > 0)
		w_put(w, t->stop_reason, h->stoplen);
	w_pad(w);
	w_put(w, t->src, t->nsrc * sizeof *t->src);
	w_pad(w);
	w_flush(w);
}

static int
mkdir_p(const char *dir)
{
	char *p = xstrdup(dir);
	int rc = 0;

	for (char *s = p + 1; ; s++) {
		if (*s == '/' || *s == '\0') {
			char c = *s;

			*s = '\0';
			if (mkdir(p, 0700) < 0 && errno != EEXIST) {
				rc = -1;
				break;
			}
			*s = c;
			if (c == '\0')
				break;
		}
	}
	free(p);
	return rc;
}

int
cache_store(const struct trace *t, const char *dir, const struct cache_key *k,
    char *why, size_t whysize)
{
	struct cache_header h;
	struct writer w;
	struct stat st;
	struct cache_key now;
	char final[PATH_MAX], tmp[PATH_MAX];
	int n, slot;

	if (k->now_ns - k->mtime_ns < (int64_t)CACHE_RACY_S * 1000000000) {
		load_say(why, whysize, "modified less than %d s before it was opened",
		    CACHE_RACY_S);
		return -1;
	}
	if (fstat(k->fd, &st) < 0) {
		load_say(why, whysize, "%s: %s", k->abspath, strerror(errno));
		return -1;
	}
	memset(&now, 0, sizeof now);
	cache_key_of_stat(&now, &st);
	if (now.dev != k->dev || now.ino != k->ino || now.size != k->size ||
	    now.mtime_ns != k->mtime_ns || now.ctime_ns != k->ctime_ns) {
		load_say(why, whysize, "the file changed while it loaded");
		return -1;
	}
	if (t->nevents > UINT32_MAX || t->strs.count == 0 ||
	    t->byname.start == NULL || t->byname.nnames > t->strs.count ||
	    t->cat_slices == NULL) {
		load_say(why, whysize, "the model cannot be cached");
		return -1;
	}
	if (cache_path(final, sizeof final, dir, k) < 0 ||
	    (n = snprintf(tmp, sizeof tmp, "%s/.tmp-XXXXXX", dir)) < 0 ||
	    (size_t)n >= sizeof tmp) {
		load_say(why, whysize, "cache path too long");
		return -1;
	}
	if (mkdir_p(dir) < 0) {
		load_say(why, whysize, "cannot create %s: %s", dir, strerror(errno));
		return -1;
	}
	if (cache_dir_trusted(dir, why, whysize) < 0)
		return -1;
	{
		/* once a run: what writers killed before left behind */
		static pthread_once_t once = PTHREAD_ONCE_INIT;

		stale_dir = dir;
		pthread_once(&once, remove_stale);
	}
	memset(&w, 0, sizeof w);
	if ((w.fd = mkstemp(tmp)) < 0) {
		load_say(why, whysize, "cannot write in %s: %s", dir, strerror(errno));
		return -1;
	}
	slot = tmp_register(tmp);

	event_header_fill(&h, k);
	h.nstrs = t->strs.count;
	h.strbytes = 0;
	for (uint32_t id = 0; id < t->strs.count; id++)
		h.strbytes += (uint64_t)t->strs.lens[id] + 1;
	h.nevents = t->nevents;
	h.nargs = t->nevents;       /* one each */
	h.nwide = t->nwide;
	h.nnums = t->nnums;
	h.nseqs = t->nseqs;
	h.npairs = t->npairs;
	h.ncomms = t->ncomms;
	h.flow_count = t->flow_count;
	h.ntracks = t->ntracks;
	h.ncats = t->ncats;
	h.ndevices = t->ndevices;
	h.ndevices_seen = t->ndevices_seen;
	for (size_t i = 0; i < t->ntracks; i++) {
		h.nmaxend += itree_slots(t->tracks[i].index.n);
		h.nbusy += t->tracks[i].busy.n;
	}
	h.nnamed = t->byname.nnames;
	for (int l = 0; l < TRACE_LISTS; l++)
		h.nlist[l] = t->nlist[l];
	h.nactivities = t->nactivities;
	h.nlinked = t->nlinked;
	h.stoplen = t->stop_reason ? strlen(t->stop_reason) + 1 : 0;
	h.nsrc = t->nsrc;
	h.world_size = t->world_size;
	h.has_distributed = t->has_distributed;
	h.dist_rank = t->dist_rank;
	h.dist_backend = t->dist_backend;
	h.base_time_ns = t->base_time_ns;
	h.has_base_time = t->has_base_time;
	h.legacy_array = t->legacy_array;
	h.events_cut = t->events_cut;
	h.objects = t->objects;
	h.start_ns = t->start_ns;
	h.end_ns = t->end_ns;
	h.warn = t->warn;
	memcpy(h.comm_rules, t->comm_rules, sizeof h.comm_rules);

	/* Room for the header first; it is written once the hash is known. */
	if (lseek(w.fd, (off_t)sizeof h, SEEK_SET) < 0)
		w.failed = errno;
	w.buf = xmalloc(WBUF_SIZE);
	cache_hash_init(&w.h);
	write_payload(&w, t, k, &h);
	free(w.buf);
	if (cache_test_mid_write != NULL)
		cache_test_mid_write();
	h.payload_hash = cache_hash_final(&w.h);
	h.header_hash = cache_hash_bytes(&h, sizeof h);
	if (w.failed == 0 && pwrite(w.fd, &h, sizeof h, 0) != (ssize_t)sizeof h)
		w.failed = errno ? errno : EIO;
	/* No fsync: a cache torn by a crash fails its checksum and is rebuilt. */
	if (close(w.fd) < 0 && w.failed == 0)
		w.failed = errno;
	if (w.failed == 0 && rename(tmp, final) < 0)
		w.failed = errno;
	if (w.failed != 0) {
		load_say(why, whysize, "writing %s: %s", final, strerror(w.failed));
		unlink(tmp);
		tmp_unregister(slot);
		return -1;
	}
	tmp_unregister(slot);
	return 0;
}

