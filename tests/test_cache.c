/*
 * The model cache: a round trip gives back every array, stale keys and
 * corrupt files (cut short, bytes flipped, indices forged behind a valid
 * checksum) are refused, and an unwritable cache directory costs nothing
 * but the cache.
 *
 * cache.c is included, not linked, so that the tests can forge a cache
 * with a valid checksum (its hash and header are private to src/load/,
 * cache_int.h) and check that the range checks alone still refuse it.
 */
#include "load/cache.c"

#include <criterion/criterion.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <dirent.h>
#include <signal.h>
#include <sys/resource.h>
#include <pwd.h>
#include <sys/wait.h>

static char tmpdir[64];         /* a private directory per test */
static char cdir[128];          /* the cache directory in it */

static void
setup(void)
{
	strcpy(tmpdir, "/tmp/gantty-cache-XXXXXX");
	cr_assert_not_null(mkdtemp(tmpdir));
	snprintf(cdir, sizeof cdir, "%s/cache/gantty", tmpdir);
	/* Nothing here may touch the user's cache. */
	setenv("XDG_CACHE_HOME", tmpdir, 1);
}

static void
teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	cr_assert_eq(system(cmd), 0);
}

TestSuite(cache, .init = setup, .fini = teardown);

/* Sets the file's times to an hour ago, so that it is old enough to cache. */
static void
backdate(const char *path)
{
	struct timeval tv[2];

	gettimeofday(&tv[0], NULL);
	tv[0].tv_sec -= 3600;
	tv[1] = tv[0];
	cr_assert_eq(utimes(path, tv), 0);
}

/* Copies src (under the source tree) to tmpdir/name, backdated; returns its path. */
static char *
copy_in(const char *src, const char *name)
{
	static char dst[256];
	char from[512], cmd[2048];

	snprintf(from, sizeof from, "%s/%s", SRCDIR, src);
	snprintf(dst, sizeof dst, "%s/%s", tmpdir, name);
	snprintf(cmd, sizeof cmd, "cp '%s' '%s' && chmod u+w '%s'", from, dst, dst);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	backdate(dst);
	return dst;
}

/*
 * cache_key_get() of path, opened here (as cache_load_trace() does; the
 * descriptor stays open for the key's life).  "-" is never cached.
 */
static int
key_get(struct cache_key *k, const char *path, char *why, size_t whysize)
{
	int fd;

	memset(k, 0, sizeof *k);
	if (strcmp(path, "-") == 0) {
		load_say(why, whysize, "standard input is not cached");
		return -1;
	}
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		load_say(why, whysize, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (cache_key_get(k, fd, path, why, whysize) < 0) {
		close(fd);
		return -1;
	}
	return 0;
}

static void
load_file(struct trace *t, const char *path)
{
	struct load_error err;

	cr_assert_eq(load_trace(t, path, NULL, &err), 0, "%s", err.msg);
}

/* Loads path and stores its cache; k is left filled. */
static void
load_and_store(struct trace *t, const char *path, struct cache_key *k)
{
	char why[512];

	load_file(t, path);
	cr_assert_eq(key_get(k, path, why, sizeof why), 0, "%s", why);
	cr_assert_eq(cache_store(t, cdir, k, why, sizeof why), 0, "%s", why);
}

/* memcmp for arrays that may be NULL when empty. */
static int
same_bytes(const void *a, const void *b, size_t n)
{
	return n == 0 || memcmp(a, b, n) == 0;
}

static void
assert_same_trace(const struct trace *a, const struct trace *b)
{
	cr_assert_str_eq(a->path, b->path);
	cr_assert_eq(a->strs.count, b->strs.count);
	for (uint32_t i = 0; i < a->strs.count; i++) {
		cr_assert_eq(a->strs.lens[i], b->strs.lens[i]);
		cr_assert(same_bytes(a->strs.strs[i], b->strs.strs[i], a->strs.lens[i] + 1));
		cr_assert_eq(strtab_find(&b->strs, a->strs.strs[i], a->strs.lens[i]), i);
	}
	cr_assert_eq(a->nevents, b->nevents);
	cr_assert(same_bytes(a->events, b->events, a->nevents * sizeof *a->events));
	cr_assert_eq(a->nwide, b->nwide);
	for (size_t i = 0; i < a->nevents; i++) {
		struct event_args xb, yb, *x = &xb, *y = &yb;

		trace_args_at(a, (uint32_t)i, x);
		trace_args_at(b, (uint32_t)i, y);

		cr_assert(x->correlation == y->correlation && x->external_id == y->external_id &&
		    x->device == y->device && x->stream == y->stream && x->comm == y->comm &&
		    x->nums == y->nums);
	}
	cr_assert_eq(a->nnums, b->nnums);
	cr_assert(same_bytes(a->nums, b->nums, a->nnums * sizeof *a->nums));
	cr_assert_eq(a->nseqs, b->nseqs);
	cr_assert(same_bytes(a->seqs, b->seqs, a->nseqs * sizeof *a->seqs));
	cr_assert_eq(a->npairs, b->npairs);
	cr_assert(same_bytes(a->pairs, b->pairs, a->npairs * sizeof *a->pairs));
	cr_assert_eq(a->ncomms, b->ncomms);
	cr_assert(same_bytes(a->comms, b->comms, a->ncomms * sizeof *a->comms));
	cr_assert_eq(a->nflows, 0);
	cr_assert_eq(b->nflows, 0);
	cr_assert_eq(a->flow_count, b->flow_count);
	cr_assert_eq(a->ntracks, b->ntracks);
	for (size_t i = 0; i < a->ntracks; i++) {
		const struct track *x = &a->tracks[i], *y = &b->tracks[i];

		cr_assert(x->pid == y->pid && x->tid == y->tid && x->pid_str == y->pid_str &&
		    x->tid_str == y->tid_str && x->name == y->name &&
		    x->process_name == y->process_name && x->sort_index == y->sort_index &&
		    x->process_sort_index == y->process_sort_index && x->kind == y->kind &&
		    x->device == y->device && x->first == y->first && x->count == y->count &&
		    x->activity == y->activity && x->rows == y->rows);
		cr_assert_eq(x->index.n, y->index.n);
		cr_assert_eq(x->index.max_level, y->index.max_level);
		if (itree_slots(x->index.n) > 0)
			cr_assert(same_bytes(x->index.maxend_ns, y->index.maxend_ns,
			    itree_slots(x->index.n) * sizeof(int64_t)));
		cr_assert_eq(x->busy.n, y->busy.n);
		if (x->busy.n > 0) {
			cr_assert(same_bytes(x->busy.start_ns, y->busy.start_ns,
			    x->busy.n * sizeof(int64_t)));
			cr_assert(same_bytes(x->busy.end_ns, y->busy.end_ns,
			    x->busy.n * sizeof(int64_t)));
			cr_assert(same_bytes(x->busy.prefix_ns, y->busy.prefix_ns,
			    (x->busy.n + 1) * sizeof(int64_t)));
		}
		cr_assert_eq(ivset_total(&x->busy), ivset_total(&y->busy));
	}
	cr_assert_eq(a->ncats, b->ncats);
	cr_assert(same_bytes(a->cats, b->cats, a->ncats * sizeof *a->cats));
	cr_assert(same_bytes(a->cat_kinds, b->cat_kinds, a->ncats));
	cr_assert_eq(a->ndevices, b->ndevices);
	for (size_t i = 0; i < a->ndevices; i++) {
		const struct device_prop *x = &a->devices[i], *y = &b->devices[i];

		cr_assert(x->id == y->id && x->name == y->name &&
		    x->compute_major == y->compute_major &&
		    x->compute_minor == y->compute_minor && x->num_sms == y->num_sms &&
		    x->total_mem == y->total_mem);
	}
	cr_assert_eq(a->ndevices_seen, b->ndevices_seen);
	cr_assert(same_bytes(a->devices_seen, b->devices_seen,
	    a->ndevices_seen * sizeof *a->devices_seen));
	cr_assert(a->rank == b->rank && a->world_size == b->world_size &&
	    a->has_distributed == b->has_distributed && a->dist_rank == b->dist_rank &&
	    a->dist_backend == b->dist_backend && a->base_time_ns == b->base_time_ns &&
	    a->has_base_time == b->has_base_time && a->legacy_array == b->legacy_array &&
	    a->objects == b->objects && a->start_ns == b->start_ns &&
	    a->end_ns == b->end_ns);
	cr_assert(same_bytes(&a->warn, &b->warn, sizeof a->warn));
	cr_assert_eq(a->byname.nnames, b->byname.nnames);
	cr_assert(same_bytes(a->byname.start, b->byname.start,
	    (a->byname.nnames + 1) * sizeof *a->byname.start));
	cr_assert(same_bytes(a->byname.ev, b->byname.ev,
	    a->nevents * sizeof *a->byname.ev));
	cr_assert(a->nactivities == b->nactivities && a->nlinked == b->nlinked);
	cr_assert(same_bytes(a->cat_slices, b->cat_slices,
	    a->ncats * sizeof *a->cat_slices));
	for (int k = 0; k < TRACE_LISTS; k++) {
		cr_assert_eq(a->nlist[k], b->nlist[k]);
		cr_assert(same_bytes(a->lists[k], b->lists[k],
		    a->nlist[k] * sizeof *a->lists[k]));
	}
	cr_assert_eq(a->stop_reason == NULL, b->stop_reason == NULL);
	if (a->stop_reason != NULL)
		cr_assert_str_eq(a->stop_reason, b->stop_reason);
	cr_assert_eq(a->events_cut, b->events_cut);
	cr_assert_eq(a->nsrc, b->nsrc);
	cr_assert(same_bytes(a->src, b->src, a->nsrc * sizeof *a->src));
}

static void
round_trip(const char *src, const char *name)
{
	struct trace a, b;
	struct cache_key k;
	char why[512];
	char *path = copy_in(src, name);

	load_and_store(&a, path, &k);
	cr_assert_eq(cache_load(&b, path, cdir, &k, why, sizeof why), 0, "%s: %s", src, why);
	assert_same_trace(&a, &b);
	trace_free(&a);
	trace_free(&b);
	cache_key_free(&k);
}

Test(cache, round_trip_example)
{
	/* GPU and CPU tracks, flows, NCCL comms, device properties. */
	round_trip("share/example.json.gz", "example.json.gz");
}

Test(cache, round_trip_small_and_legacy)
{
	round_trip("tests/fixtures/small.json", "small.json");
}

Test(cache, round_trip_keeps_warnings_and_stop_reason)
{
	static const char *const hostile[] = {
		"invalid-after-events.json", "cut-mid-event.json", "begin-end-unpaired.json",
		"control-chars.json", "negative-dur.json", "flows-unpaired.json",
		"extreme-times.json", "missing-fields.json", "zero-events.json",
		"beyond-int64.json", "trailing-garbage.json", "begin-end-huge.json",
	};
	char src[256];

	for (size_t i = 0; i < sizeof hostile / sizeof *hostile; i++) {
		snprintf(src, sizeof src, "tests/fixtures/hostile/%s", hostile[i]);
		round_trip(src, hostile[i]);
	}
}

Test(cache, stale_keys_are_refused)
{
	struct trace a, b;
	struct cache_key k, k2;
	char why[512];
	char *path = copy_in("tests/fixtures/small.json", "small.json");
	FILE *f;

	load_and_store(&a, path, &k);
	cr_assert_eq(cache_load(&b, path, cdir, &k, why, sizeof why), 0, "%s", why);
	trace_free(&b);

	/* touch: a new mtime (and ctime). */
	cr_assert_eq(utimes(path, NULL), 0);
	cr_assert_eq(key_get(&k2, path, why, sizeof why), 0);
	cr_assert_neq(cache_load(&b, path, cdir, &k2, why, sizeof why), 0);
	cr_assert_str_eq(why, "stale");
	cache_key_free(&k2);

	/* Same times, another size. */
	backdate(path);
	f = fopen(path, "a");
	cr_assert_not_null(f);
	fputs("\n", f);
	fclose(f);
	backdate(path);
	cr_assert_eq(key_get(&k2, path, why, sizeof why), 0);
	cr_assert_neq(k2.size, k.size);
	cr_assert_neq(cache_load(&b, path, cdir, &k2, why, sizeof why), 0);
	cr_assert_str_eq(why, "stale");
	cache_key_free(&k2);

	/* Another file never sees this one's cache. */
	cr_assert_eq(key_get(&k2, SRCDIR "/tests/fixtures/small.json", why,
	    sizeof why), 0);
	cr_assert_neq(cache_load(&b, path, cdir, &k2, why, sizeof why), 0);
	cr_assert_str_eq(why, "absent");
	cache_key_free(&k2);

	trace_free(&a);
	cache_key_free(&k);
}

/* Reads the whole cache file of k. */
static unsigned char *
slurp(const struct cache_key *k, size_t *len, char *file, size_t filesize)
{
	struct stat st;
	unsigned char *buf;
	int fd;

	cr_assert_eq(cache_path(file, filesize, cdir, k), 0);
	fd = open(file, O_RDONLY);
	cr_assert_geq(fd, 0);
	cr_assert_eq(fstat(fd, &st), 0);
	*len = (size_t)st.st_size;
	buf = xmalloc(*len);
	cr_assert_eq(read(fd, buf, *len), (ssize_t)*len);
	close(fd);
	return buf;
}

static void
spill(const char *file, const void *buf, size_t len)
{
	/* Not O_TRUNC: ext4 flushes a file truncated to 0 when it is closed. */
	int fd = open(file, O_WRONLY);

	cr_assert_geq(fd, 0);
	cr_assert_eq(pwrite(fd, buf, len, 0), (ssize_t)len);
	cr_assert_eq(ftruncate(fd, (off_t)len), 0);
	close(fd);
}

/*
 * Cuts the cache of src short at every step bytes (every byte of the header)
 * and flips one bit at every step bytes (every header byte): all refused.
 */
static void
cut_and_flip(const char *src, const char *name, size_t steps)
{
	struct trace a, b;
	struct cache_key k;
	char why[512], file[PATH_MAX];
	unsigned char *good, *bad;
	size_t len, step;
	char *path = copy_in(src, name);

	load_and_store(&a, path, &k);
	good = slurp(&k, &len, file, sizeof file);
	bad = xmalloc(len + 1);
	step = len / steps + 1;
	for (size_t cut = 0; cut < len; cut += cut <= sizeof(struct cache_header) ? 1 : step) {
		spill(file, good, cut);
		cr_assert_neq(cache_load(&b, path, cdir, &k, why, sizeof why), 0,
		    "cut at %zu accepted", cut);
	}
	for (size_t at = 0; at < len; at += at < sizeof(struct cache_header) ? 1 : step) {
		memcpy(bad, good, len);
		bad[at] ^= (unsigned char)(1u << (at % 8));
		spill(file, bad, len);
		cr_assert_neq(cache_load(&b, path, cdir, &k, why, sizeof why), 0,
		    "flip at %zu accepted", at);
	}
	/* A byte appended. */
	memcpy(bad, good, len);
	bad[len] = 'x';
	spill(file, bad, len + 1);
	cr_assert_neq(cache_load(&b, path, cdir, &k, why, sizeof why), 0);
	cr_assert_str_eq(why, "corrupt: size");

	/* And the intact file still loads. */
	spill(file, good, len);
	cr_assert_eq(cache_load(&b, path, cdir, &k, why, sizeof why), 0, "%s", why);
	assert_same_trace(&a, &b);
	trace_free(&b);
	free(good);
	free(bad);
	trace_free(&a);
	cache_key_free(&k);
}

Test(cache, truncated_and_flipped_caches_are_refused)
{
	/* Every byte of a small cache; 300 places in a larger one. */
	cut_and_flip("tests/fixtures/small.json", "small.json", SIZE_MAX);
	cut_and_flip("share/example.json.gz", "example.json.gz", 300);
}

/* The byte offset of each section after the header, from its counts. */
struct layout {
	size_t strlens, strs, events, args, wide, nums, seqs, pairs, comms, tracks, cats, kinds;
	size_t devices, seen, maxend, busy, named, named_ev, cat_slices;
	size_t lists[TRACE_LISTS], stop, src, end;
};

static void
layout_of(const struct cache_header *h, struct layout *l)
{
	size_t o = sizeof *h;

	/* every section padded to 8 bytes (PAD8) */
	o += PAD8(h->pathlen);
	l->strlens = o; o += PAD8(h->nstrs * 4);
	l->strs = o; o += PAD8(h->strbytes);
	l->events = o; o += h->nevents * sizeof(struct event);
	l->args = o; o += h->nargs * sizeof(struct args_rec);
	l->wide = o; o += h->nwide * sizeof(struct event_args);
	l->nums = o; o += h->nnums * sizeof(struct arg_nums);
	l->seqs = o; o += h->nseqs * sizeof(int64_t);
	l->pairs = o; o += h->npairs * sizeof(struct arg_pair);
	l->comms = o; o += h->ncomms * sizeof(struct comm_args);
	l->tracks = o; o += h->ntracks * sizeof(struct track);
	l->cats = o; o += PAD8(h->ncats * 4);
	l->kinds = o; o += PAD8(h->ncats);
	l->devices = o; o += h->ndevices * sizeof(struct device_prop);
	l->seen = o; o += PAD8(h->ndevices_seen * 4);
	l->maxend = o; o += h->nmaxend * 8;
	l->busy = o; o += (3 * h->nbusy + h->ntracks) * 8;
	l->named = o; o += PAD8((h->nnamed + 1) * 4);
	l->named_ev = o; o += PAD8(h->nevents * 4);
	l->cat_slices = o; o += h->ncats * 8;
	for (int k = 0; k < TRACE_LISTS; k++) {
		l->lists[k] = o; o += PAD8(h->nlist[k] * 4);
	}
	l->stop = o; o += PAD8(h->stoplen);
	l->src = o; o += h->nsrc * sizeof(struct src_block);
	l->end = o;
}

/* Recomputes both checksums, as a forger would. */
static void
reseal(unsigned char *buf, size_t len)
{
	struct cache_header h;

	memcpy(&h, buf, sizeof h);
	h.payload_hash = cache_hash_bytes(buf + sizeof h, len - sizeof h);
	h.header_hash = 0;
	h.header_hash = cache_hash_bytes(&h, sizeof h);
	memcpy(buf, &h, sizeof h);
}

/* Writes v (size bytes) at off in a copy of good, reseals it, and expects a refusal. */
static void
forge(const char *what, const unsigned char *good, size_t len, size_t off,
    const void *v, size_t size, const char *path, const struct cache_key *k,
    const char *file)
{
	unsigned char *bad = xmalloc(len);
	struct trace b;
	char why[512];

	cr_assert_leq(off + size, len, "%s: offset", what);
	memcpy(bad, good, len);
	memcpy(bad + off, v, size);
	reseal(bad, len);
	spill(file, bad, len);
	cr_assert_neq(cache_load(&b, path, cdir, k, why, sizeof why), 0,
	    "forged %s accepted", what);
	cr_assert_eq(strncmp(why, "corrupt", 7), 0, "%s: %s", what, why);
	free(bad);
}

Test(cache, forged_indices_are_range_checked)
{
	struct trace a, b;
	struct cache_key k;
	struct cache_header h;
	struct layout l;
	char why[512], file[PATH_MAX];
	unsigned char *good;
	size_t len;
	uint32_t big = 0x7fffffff, bignums = 0x3ffffff0;
	uint32_t bigseq = NUMS_SEQ | 0x3ffffff0, bigpair = NUMS_PAIR | 0x3ffffff0;
	uint32_t bigpairseq = NUMS_SEQ | NUMS_PAIR | 0x3ffffff0;
	size_t arg0 = 0;
	uint16_t big16 = 0xffff;
	uint8_t big8 = 0xff;
	int64_t neg = -5, huge = INT64_MAX;
	int16_t neg16 = -2;
	uint8_t big24[3] = { 0xff, 0xff, 0xff };
	uint16_t cat_past = TRACE_CATS_MAX;     /* with cls 0 */
	/* no args, but nums */
	struct { uint32_t nums; int16_t device, stream; } none_nums = { 5, ARGS_NONE, -1 };
	/* an args record's nums, device and stream: wide, pointing past the wide ones */
	struct { uint32_t nums; int16_t device, stream; } wide_past = { 0x7fffffff, ARGS_WIDE, -1 };
	char *path = copy_in("share/example.json.gz", "example.json.gz");

	load_and_store(&a, path, &k);
	good = slurp(&k, &len, file, sizeof file);
	memcpy(&h, good, sizeof h);
	layout_of(&h, &l);
	cr_assert_eq(l.end, len);
	cr_assert_gt(h.nevents, 10);
	cr_assert_gt(h.flow_count, 0);
	cr_assert_gt(h.ncomms, 0);
	cr_assert_gt(h.nargs, 0);

	/* Resealing the intact file keeps it valid, so each forgery below is refused by its range check. */
	{
		unsigned char *copy = xmalloc(len);

		memcpy(copy, good, len);
		reseal(copy, len);
		spill(file, copy, len);
		free(copy);
		cr_assert_eq(cache_load(&b, path, cdir, &k, why, sizeof why), 0, "%s", why);
		trace_free(&b);
	}
#define EV(i, f) (l.events + (i) * sizeof(struct event) + offsetof(struct event, f))
#define TR(i, f) (l.tracks + (i) * sizeof(struct track) + offsetof(struct track, f))
#define FORGE(what, off, v) forge(what, good, len, off, &(v), sizeof(v), path, &k, file)
	FORGE("event name", EV(3, name), big);
	/* the bit-fields: track and flags in the word after link, then
	   depth, and cat with cls (little-endian, low bits first) */
	FORGE("event track", EV(3, link) + 4, big24);
	FORGE("event link", EV(3, link), big);
	FORGE("event category", EV(3, link) + 10, cat_past);
	FORGE("event depth", EV(3, link) + 8, big16);
	FORGE("event duration", EV(3, dur_ns), neg);
	FORGE("event time", EV(3, ts_ns), huge);
	FORGE("track first", TR(0, first), big);
	FORGE("track count", TR(0, count), big);
	FORGE("track name", TR(0, name), big);
	FORGE("track kind", TR(0, kind), big);
	FORGE("track index size", TR(0, index.n), big);
	FORGE("track index level", TR(0, index.max_level), big);
	FORGE("track busy size", TR(0, busy.n), huge);
	/* the first narrow args record */
	while (arg0 < a.nevents && a.args[arg0].device < -1)
		arg0++;
	cr_assert_lt(arg0, a.nevents);
	arg0 = l.args + arg0 * sizeof(struct args_rec);
	FORGE("args nums", arg0 + offsetof(struct args_rec, nums), bignums);
	cr_assert_gt(h.nseqs, 0, "the example's ops have sequence numbers");
	FORGE("args seqs", arg0 + offsetof(struct args_rec, nums), bigseq);
	FORGE("args pairs", arg0 + offsetof(struct args_rec, nums), bigpair);
	FORGE("args pairs with seq", arg0 + offsetof(struct args_rec, nums), bigpairseq);
	FORGE("args device", arg0 + offsetof(struct args_rec, device), neg16);
	FORGE("args none", arg0 + offsetof(struct args_rec, nums), none_nums);
	cr_assert_gt(h.nwide, 0, "the example's NCCL kernels have wide args");
	FORGE("args wide", l.args + offsetof(struct args_rec, nums), wide_past);
	FORGE("args comm", l.wide + offsetof(struct event_args, comm), big);
	FORGE("args nums", l.wide + offsetof(struct event_args, nums), big);
	FORGE("comm name", l.comms + offsetof(struct comm_args, collective), big);
	FORGE("category name", l.cats, big);
	FORGE("category kind", l.kinds, big8);
	FORGE("string length", l.strlens + 4, big);
	FORGE("empty string 0", l.strlens, big);
	if (h.ndevices > 0)
		FORGE("device name", l.devices + offsetof(struct device_prop, name), big);
	if (h.ndevices_seen > 1)
		FORGE("devices seen order", l.seen + 4, neg);
	if (h.nbusy > 0) {
		FORGE("busy start", l.busy, huge);
		FORGE("busy sums", l.busy + 8 * (2 * a.tracks[0].busy.n + 1), huge);
	}
	{
		uint32_t zero = 0, ev0;

		cr_assert_gt(h.nnamed, 2);
		FORGE("name index start", l.named, big);
		FORGE("name index end", l.named + 4 * h.nnamed, zero);
		/* a name starting after the next one does */
		for (uint32_t id = 1; id < h.nnamed; id++)
			if (a.byname.start[id + 1] < h.nevents) {
				uint32_t past = (uint32_t)h.nevents;

				FORGE("name index order", l.named + 4 * id, past);
				break;
			}
		FORGE("name index event", l.named_ev, big);
		/* the first name's first two events swapped: not ascending */
		memcpy(&ev0, good + l.named_ev, 4);
		if (a.byname.start[1] - a.byname.start[0] >= 2) {
			uint32_t ev1 = a.byname.ev[1];

			cr_assert_eq(ev0, a.byname.ev[0]);
			FORGE("name index ascending", l.named_ev, ev1);
		}
	}
	FORGE("name index size", offsetof(struct cache_header, nnamed), huge);
	for (int li = 0; li < TRACE_LISTS; li++) {
		if (h.nlist[li] == 0)
			continue;
		FORGE("event list entry", l.lists[li], big);
		if (h.nlist[li] > 1) {
			uint32_t first = a.lists[li][0];

			FORGE("event list order", l.lists[li] + 4, first);
		}
		FORGE("event list size", offsetof(struct cache_header, nlist) +
		    li * sizeof(uint64_t), huge);
	}
	FORGE("event count", offsetof(struct cache_header, nevents), huge);
	FORGE("string count", offsetof(struct cache_header, nstrs), big);
	FORGE("index total", offsetof(struct cache_header, nmaxend), big);
	FORGE("backend name", offsetof(struct cache_header, dist_backend), huge);
	/*
	 * The header's own fields (trusted before: times near int64's limit
	 * overflowed spans in render.c, report_diag.c and view.c).
	 */
	{
		int64_t early = -TRACE_TIME_MAX, late = TRACE_TIME_MAX, two = 2,
		    world = TRACE_WORLD_MAX + 1, rank = (int64_t)TRACE_RANK_MAX + 1,
		    min = INT64_MIN;
		uint64_t many = h.nevents + 1;
		uint8_t flags = EVF_INSTANT | EVF_COUNTER;     /* two phases */

		FORGE("start time", offsetof(struct cache_header, start_ns), early);
		FORGE("start time beyond 2^62", offsetof(struct cache_header, start_ns), min);
		FORGE("end time", offsetof(struct cache_header, end_ns), late);
		FORGE("end time beyond 2^62", offsetof(struct cache_header, end_ns), huge);
		FORGE("world size", offsetof(struct cache_header, world_size), world);
		FORGE("rank", offsetof(struct cache_header, dist_rank), rank);
		FORGE("rank below -1", offsetof(struct cache_header, dist_rank), neg);
		FORGE("has_distributed", offsetof(struct cache_header, has_distributed), two);
		FORGE("legacy_array", offsetof(struct cache_header, legacy_array), two);
		FORGE("activity count", offsetof(struct cache_header, nactivities), many);
		FORGE("linked count", offsetof(struct cache_header, nlinked), many);
		FORGE("comm rule count", offsetof(struct cache_header, comm_rules), many);
		FORGE("event flags", EV(3, link) + 7, flags);
		FORGE("track device", TR(0, device), neg);
		if (h.ncats > 0)
			FORGE("category count", l.cat_slices, many);
	}
#undef FORGE
	free(good);
	trace_free(&a);
	cache_key_free(&k);
}

Test(cache, unwritable_directory_is_not_an_error)
{
	struct trace a, b;
	struct load_error err;
	char note[1024], bad[256];
	char *path = copy_in("tests/fixtures/small.json", "small.json");
	FILE *f;

	/* A cache directory under a regular file cannot be created, even by root. */
	snprintf(bad, sizeof bad, "%s/file", tmpdir);
	f = fopen(bad, "w");
	cr_assert_not_null(f);
	fclose(f);
	strcat(bad, "/gantty");
	load_file(&a, path);
	cr_assert_eq(cache_load_trace(&b, path, NULL, &err, bad, note, sizeof note), 0,
	    "%s", err.msg);
	cr_assert_not_null(strstr(note, "not written"), "%s", note);
	assert_same_trace(&a, &b);
	trace_free(&b);
	/* A read-only directory, where permissions hold (not for root). */
	if (geteuid() != 0) {
		snprintf(bad, sizeof bad, "%s/ro", tmpdir);
		cr_assert_eq(mkdir(bad, 0500), 0);
		cr_assert_eq(cache_load_trace(&b, path, NULL, &err, bad, note, sizeof note), 0);
		cr_assert_not_null(strstr(note, "not written"), "%s", note);
		trace_free(&b);
	}
	trace_free(&a);
}

/* Counts the files in cdir other than . and .. (temporaries included). */
static int
count_files(void)
{
	DIR *d = opendir(cdir);
	struct dirent *de;
	int n = 0;

	if (d == NULL)
		return 0;
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

Test(cache, full_disk_leaves_nothing_behind)
{
	struct trace a, b;
	struct cache_key k;
	struct rlimit old, small;
	char why[512];
	char *path = copy_in("share/example.json.gz", "example.json.gz");
	int rc;

	/* A file size limit fails the write as a full disk would (EFBIG, not ENOSPC). */
	load_file(&a, path);
	cr_assert_eq(key_get(&k, path, why, sizeof why), 0);
	signal(SIGXFSZ, SIG_IGN);
	cr_assert_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
	small = old;
	small.rlim_cur = 64 * 1024;
	cr_assert_eq(setrlimit(RLIMIT_FSIZE, &small), 0);
	rc = cache_store(&a, cdir, &k, why, sizeof why);
	cr_assert_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
	cr_assert_neq(rc, 0);
	cr_assert_not_null(strstr(why, "writing "), "%s", why);
	cr_assert_eq(count_files(), 0, "a temporary file was left behind");
	cr_assert_neq(cache_load(&b, path, cdir, &k, why, sizeof why), 0);
	cache_key_free(&k);
	trace_free(&a);
}

Test(cache, load_trace_writes_then_reads)
{
	struct trace a, b, c;
	struct load_error err;
	char note[1024];
	char *path = copy_in("share/example.json.gz", "example.json.gz");
	DIR *d;
	struct dirent *de;
	int files = 0;

	load_file(&a, path);
	cr_assert_eq(cache_load_trace(&b, path, NULL, &err, cdir, note, sizeof note), 0);
	cr_assert_not_null(strstr(note, "written to"), "%s", note);
	cr_assert_eq(cache_load_trace(&c, path, NULL, &err, cdir, note, sizeof note), 0);
	cr_assert_not_null(strstr(note, "loaded from"), "%s", note);
	assert_same_trace(&a, &b);
	assert_same_trace(&a, &c);
	/* One cache file, no temporary left behind. */
	d = opendir(cdir);
	cr_assert_not_null(d);
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
			files++;
		else
			cr_assert(strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0,
			    "left behind: %s", de->d_name);
	closedir(d);
	cr_assert_eq(files, 1);
	trace_free(&a);
	trace_free(&b);
	trace_free(&c);
}

Test(cache, fresh_files_and_stdin_are_not_cached)
{
	struct trace a;
	struct cache_key k;
	char why[512];
	char *path = copy_in("tests/fixtures/small.json", "small.json");

	cr_assert_neq(key_get(&k, "-", why, sizeof why), 0);
	cr_assert_neq(key_get(&k, tmpdir, why, sizeof why), 0);
	cr_assert_not_null(strstr(why, "not a regular file"), "%s", why);
	/* Modified just now: its key could survive a rewrite in the same clock tick. */
	cr_assert_eq(utimes(path, NULL), 0);
	load_file(&a, path);
	cr_assert_eq(key_get(&k, path, why, sizeof why), 0);
	cr_assert_neq(cache_store(&a, cdir, &k, why, sizeof why), 0);
	cr_assert_not_null(strstr(why, "modified less than"), "%s", why);
	cache_key_free(&k);
	trace_free(&a);
}

Test(cache, dir_from_the_environment)
{
	char buf[256], why[256], want[512];
	struct passwd *pw = getpwuid(geteuid());

	setenv("XDG_CACHE_HOME", "/x/y", 1);
	cr_assert_eq(cache_dir(buf, sizeof buf, why, sizeof why), 0);
	cr_assert_str_eq(buf, "/x/y/gantty");
	/* A relative XDG_CACHE_HOME is invalid (XDG spec): HOME's .cache instead. */
	setenv("XDG_CACHE_HOME", "rel", 1);
	setenv("HOME", "/home/u", 1);
	cr_assert_eq(cache_dir(buf, sizeof buf, why, sizeof why), 0);
	cr_assert_str_eq(buf, "/home/u/.cache/gantty");
	/*
	 * HOME unset or relative: the password database's home, never the
	 * current directory (a relative HOME put the cache there; an unset
	 * one gave no cache and -v said nothing).
	 */
	cr_assert(pw != NULL && pw->pw_dir[0] == '/');
	snprintf(want, sizeof want, "%s/.cache/gantty", pw->pw_dir);
	unsetenv("XDG_CACHE_HOME");
	setenv("HOME", "relative/home", 1);
	cr_assert_eq(cache_dir(buf, sizeof buf, why, sizeof why), 0);
	cr_assert_str_eq(buf, want);
	unsetenv("HOME");
	cr_assert_eq(cache_dir(buf, sizeof buf, why, sizeof why), 0);
	cr_assert_str_eq(buf, want);
	/* too long: no cache, and why says so */
	setenv("XDG_CACHE_HOME", "/x/y", 1);
	cr_assert_neq(cache_dir(buf, 8, why, sizeof why), 0);
	cr_assert_not_null(strstr(why, "no cache"), "%s", why);
	setenv("XDG_CACHE_HOME", tmpdir, 1);
}

/* A cache directory another user could write is never read nor written. */
Test(cache, an_untrusted_directory_is_not_used)
{
	struct trace a, b;
	struct cache_key k;
	char why[512];
	char *path = copy_in("tests/fixtures/small.json", "small.json");

	load_and_store(&a, path, &k);
	cr_assert_eq(cache_load(&b, path, cdir, &k, why, sizeof why), 0, "%s", why);
	trace_free(&b);
	cr_assert_eq(chmod(cdir, 0777), 0);
	cr_assert_neq(cache_load(&b, path, cdir, &k, why, sizeof why), 0);
	cr_assert_not_null(strstr(why, "writable by group or others"), "%s", why);
	cr_assert_neq(cache_store(&a, cdir, &k, why, sizeof why), 0);
	cr_assert_not_null(strstr(why, "writable by group or others"), "%s", why);
	cr_assert_eq(chmod(cdir, 0700), 0);
	cr_assert_eq(cache_load(&b, path, cdir, &k, why, sizeof why), 0, "%s", why);
	trace_free(&b);
	cache_key_free(&k);
	trace_free(&a);
}

/* A FIFO at the cache's path is ignored at once (the open blocked). */
Test(cache, a_fifo_at_the_cache_path_is_ignored, .timeout = 10)
{
	struct trace a, b;
	struct cache_key k;
	char why[512], file[PATH_MAX];
	char *path = copy_in("tests/fixtures/small.json", "small.json");

	load_and_store(&a, path, &k);
	cr_assert_eq(cache_path(file, sizeof file, cdir, &k), 0);
	cr_assert_eq(unlink(file), 0);
	cr_assert_eq(mkfifo(file, 0600), 0);
	cr_assert_neq(cache_load(&b, path, cdir, &k, why, sizeof why), 0);
	cr_assert_str_eq(why, "not a regular file, ignored");
	/* and the next store replaces it */
	cr_assert_eq(cache_store(&a, cdir, &k, why, sizeof why), 0, "%s", why);
	cr_assert_eq(cache_load(&b, path, cdir, &k, why, sizeof why), 0, "%s", why);
	trace_free(&b);
	cache_key_free(&k);
	trace_free(&a);
}

/*
 * A cache truncated in place while its trace is loaded (another process
 * rewriting it): the trace lives in memory of its own, so reading it goes
 * on (it was mapped from the file, and this died of SIGBUS).
 */
Test(cache, a_cache_truncated_while_in_use)
{
	struct trace a, b;
	struct cache_key k;
	char why[512], file[PATH_MAX];
	char *path = copy_in("share/example.json.gz", "example.json.gz");
	uint64_t sum = 0;

	load_and_store(&a, path, &k);
	cr_assert_eq(cache_load(&b, path, cdir, &k, why, sizeof why), 0, "%s", why);
	cr_assert_eq(cache_path(file, sizeof file, cdir, &k), 0);
	cr_assert_eq(truncate(file, 0), 0);
	/* drop the file's pages, as memory pressure would */
	for (size_t i = 0; i < b.nevents; i++)
		sum += (uint64_t)b.events[i].dur_ns;
	for (size_t i = 0; i < a.nevents; i++)
		sum -= (uint64_t)a.events[i].dur_ns;
	cr_assert_eq(sum, 0);
	assert_same_trace(&a, &b);
	trace_free(&b);
	cache_key_free(&k);
	trace_free(&a);
}

/*
 * A link re-pointed between opening the file and taking its key (the
 * test hook runs there): the key is the opened file's, so the model cached
 * is never served for the file the link named first.  (The key came from
 * realpath() and stat() before the file was opened: the second file's
 * model was cached under the first file's key.)
 */
static char repoint_link[256], repoint_to[256];

static void
repoint(const char *path)
{
	char tmp[300];

	(void)path;
	snprintf(tmp, sizeof tmp, "%s.new", repoint_link);
	cr_assert_eq(symlink(repoint_to, tmp), 0);
	cr_assert_eq(rename(tmp, repoint_link), 0);
}

Test(cache, a_link_repointed_while_it_loads)
{
	struct trace a, b, c;
	struct load_error err;
	char note[1024], pa[256], pb[256];

	snprintf(pa, sizeof pa, "%s", copy_in("tests/fixtures/small.json", "a.json"));
	snprintf(pb, sizeof pb, "%s", copy_in("share/example.json.gz", "b.json"));
	snprintf(repoint_link, sizeof repoint_link, "%s/link.json", tmpdir);
	snprintf(repoint_to, sizeof repoint_to, "%s", pb);
	cr_assert_eq(symlink(pa, repoint_link), 0);
	load_file(&a, pa);

	cache_test_after_open = repoint;
	cr_assert_eq(cache_load_trace(&b, repoint_link, NULL, &err, cdir, note,
	    sizeof note), 0, "%s", err.msg);
	cache_test_after_open = NULL;
	cr_assert_not_null(strstr(note, "written to"), "%s", note);
	cr_assert_eq(b.nevents, a.nevents, "the file opened is the one loaded");

	/* a.json from the cache: its own model, whatever the link did */
	cr_assert_eq(cache_load_trace(&c, pa, NULL, &err, cdir, note, sizeof note), 0);
	cr_assert_not_null(strstr(note, "loaded from"), "%s", note);
	assert_same_trace(&a, &c);
	trace_free(&c);
	/* and b.json is never served a.json's */
	cr_assert_eq(cache_load_trace(&c, pb, NULL, &err, cdir, note, sizeof note), 0);
	cr_assert_neq(c.nevents, a.nevents);
	trace_free(&a);
	trace_free(&b);
	trace_free(&c);
}

static void
raise_sigint(void)
{
	raise(SIGINT);
}

/*
 * SIGINT while a cache is written: the handler removes the temporary file,
 * then the process dies of the signal as before (the file stayed forever).
 */
Test(cache, sigint_mid_write_leaves_no_temporary)
{
	struct trace a;
	struct cache_key k;
	char why[512];
	char *path = copy_in("tests/fixtures/small.json", "small.json");
	pid_t pid;
	int st;

	load_file(&a, path);
	cr_assert_eq(key_get(&k, path, why, sizeof why), 0, "%s", why);
	fflush(NULL);
	pid = fork();
	cr_assert_neq(pid, -1);
	if (pid == 0) {
		cache_cleanup_on_signals();
		cache_test_mid_write = raise_sigint;
		cache_store(&a, cdir, &k, why, sizeof why);
		_exit(0);
	}
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	cr_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGINT, "status %d", st);
	cr_assert_eq(count_files(), 0, "a temporary file was left behind");
	cache_key_free(&k);
	trace_free(&a);
}
