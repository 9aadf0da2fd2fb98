/*
 * cache.c — reading a cache file back (mapped, checked, every index
 * range-checked) into a struct trace, and cache_load_trace(): the cache
 * when it matches, else the JSON, then stored.  The key and the cache's
 * file name are cache_key.c; writing one is cache_store.c.
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
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/job.h"
#include "load/cache_int.h"
#include "load/load.h"
#include "model/trace.h"
#include "base/xalloc.h"

/*
 * Records are stored as they are in memory; those with padding or spare
 * fields are copied field by field (write_payload(), cache_store.c), so a field added to
 * them must be added there too, and CACHE_FORMAT_VERSION bumped.  These
 * make such a change fail the build here rather than lose the field.
 */
_Static_assert(sizeof(struct event) == 32, "struct event changed: see cache.c");
_Static_assert(sizeof(struct event_args) == 32, "struct event_args changed: see cache.c");
_Static_assert(sizeof(struct args_rec) == 16, "struct args_rec changed: see cache.c");
_Static_assert(sizeof(struct arg_nums) == 24, "struct arg_nums changed: see cache.c");
_Static_assert(sizeof(struct arg_pair) == 16, "struct arg_pair changed: see cache.c");
_Static_assert(sizeof(struct comm_args) == 40, "struct comm_args changed: see cache.c");
_Static_assert(sizeof(struct device_prop) == 32, "struct device_prop changed: see cache.c");
_Static_assert(sizeof(struct track) % 8 == 0, "tracks are read in place");

/* *acc += n * elem, padded to 8 bytes; -1 on overflow. */
static int
add_sz(uint64_t *acc, uint64_t n, uint64_t elem)
{
	uint64_t bytes;

	if (__builtin_mul_overflow(n, elem, &bytes) || bytes > UINT64_MAX - 7 ||
	    __builtin_add_overflow(*acc, PAD8(bytes), acc))
		return -1;
	return 0;
}

/* The bytes after the header that h's counts call for, or -1 on overflow. */
static int
payload_size(const struct cache_header *h, uint64_t *size)
{
	uint64_t s = 0, busy;

	if (__builtin_mul_overflow(h->nbusy, 3, &busy) ||
	    __builtin_add_overflow(busy, h->ntracks, &busy))
		return -1;
	if (add_sz(&s, h->pathlen, 1) < 0 ||
	    add_sz(&s, h->nstrs, sizeof(uint32_t)) < 0 ||
	    add_sz(&s, h->strbytes, 1) < 0 ||
	    add_sz(&s, h->nevents, sizeof(struct event)) < 0 ||
	    add_sz(&s, h->nargs, sizeof(struct args_rec)) < 0 ||
	    add_sz(&s, h->nwide, sizeof(struct event_args)) < 0 ||
	    add_sz(&s, h->nnums, sizeof(struct arg_nums)) < 0 ||
	    add_sz(&s, h->nseqs, sizeof(int64_t)) < 0 ||
	    add_sz(&s, h->npairs, sizeof(struct arg_pair)) < 0 ||
	    add_sz(&s, h->ncomms, sizeof(struct comm_args)) < 0 ||
	    add_sz(&s, h->ntracks, sizeof(struct track)) < 0 ||
	    add_sz(&s, h->ncats, sizeof(uint32_t)) < 0 ||
	    add_sz(&s, h->ncats, sizeof(uint8_t)) < 0 ||
	    add_sz(&s, h->ndevices, sizeof(struct device_prop)) < 0 ||
	    add_sz(&s, h->ndevices_seen, sizeof(int32_t)) < 0 ||
	    add_sz(&s, h->nmaxend, sizeof(int64_t)) < 0 ||
	    add_sz(&s, busy, sizeof(int64_t)) < 0 ||
	    h->nnamed == UINT64_MAX ||
	    add_sz(&s, h->nnamed + 1, sizeof(uint32_t)) < 0 ||
	    add_sz(&s, h->nevents, sizeof(uint32_t)) < 0 ||
	    add_sz(&s, h->ncats, sizeof(uint64_t)) < 0)
		return -1;
	for (int k = 0; k < TRACE_LISTS; k++)
		if (add_sz(&s, h->nlist[k], sizeof(uint32_t)) < 0)
			return -1;
	if (add_sz(&s, h->stoplen, 1) < 0 ||
	    add_sz(&s, h->nsrc, sizeof(struct src_block)) < 0)
		return -1;
	*size = s;
	return 0;
}

/* ---- reading ---- */

/*
 * The cache is mapped (private, copy on write) and read in place: the
 * trace's arrays point into the mapping (trace->map), with no copy.
 */
struct reader {
	const char *p;          /* the payload */
	uint64_t len, off;
	int failed;
};

/* The payload's checksum, computed by a second thread while it is read. */
struct checksum {
	const void *p;
	size_t len;
	uint64_t sum;
	struct job job;
};

static void *
checksum_main(void *arg)
{
	struct checksum *c = arg;

	c->sum = cache_hash_bytes(c->p, c->len);
	return NULL;
}

/* Starts checksumming len bytes at p (in this thread if no other starts). */
static void
checksum_start(struct checksum *c, const void *p, size_t len)
{
	c->p = p;
	c->len = len;
	job_start(&c->job, checksum_main, c);
}

/* Waits for the checksum and returns it. */
static uint64_t
checksum_end(struct checksum *c)
{
	job_join(&c->job);
	return c->sum;
}

/*
 * Returns the n records of elem bytes at the read position (NULL for n ==
 * 0, or when the payload is short: r->failed), skipping their padding.
 */
static void *
r_array(struct reader *r, size_t n, size_t elem)
{
	uint64_t bytes = (uint64_t)n * elem;
	const char *p = r->p + r->off;

	if (r->failed || PAD8(bytes) > r->len - r->off) {
		r->failed = 1;
		return NULL;
	}
	r->off += PAD8(bytes);
	return n == 0 ? NULL : (void *)p;
}

#define CHECK(cond, what) \
	do { if (!(cond)) { load_say(why, whysize, "corrupt: %s", what); return -1; } } while (0)

static int
in_time(int64_t v)
{
	return v >= -TRACE_TIME_MAX && v <= TRACE_TIME_MAX;
}

/*
 * The name index: slices that tile ev, each ascending, of events that
 * exist.  (That each is of its name is the checksum's to guard: a wrong
 * one misleads, it cannot read out of bounds.)
 */
static int
validate_byname(const struct byname *x, size_t nevents, char *why,
    size_t whysize)
{
	CHECK(x->start[0] == 0 && x->start[x->nnames] == nevents, "name index");
	for (uint32_t id = 0; id < x->nnames; id++) {
		uint32_t a = x->start[id], b = x->start[id + 1];

		CHECK(a <= b && b <= nevents, "name index");
		for (uint32_t k = a; k < b; k++)
			CHECK(x->ev[k] < nevents && (k == a || x->ev[k] > x->ev[k - 1]),
			    "name index");
	}
	return 0;
}

/* Range-checks every index, count and invariant the rest of gantty relies on. */
/* Whether i is a nums index of t's (see trace_args_nums()). */
static int
nums_ok(const struct trace *t, uint32_t i)
{
	if (i == EV_NONE)
		return 1;
	switch (i & (NUMS_SEQ | NUMS_PAIR)) {
	case 0:
		return i < t->nnums;
	case NUMS_SEQ:
		return NUMS_INDEX(i) < t->nseqs;
	default:
		return NUMS_INDEX(i) < t->npairs;
	}
}

static int
validate(const struct trace *t, char *why, size_t whysize)
{
	uint32_t nstr = t->strs.count;
	uint64_t covered = 0, activities = 0;
	int64_t first_ns = INT64_MAX, last_ns = INT64_MIN;

	CHECK(nstr >= 1 && t->strs.lens[0] == 0, "string 0");
	CHECK(t->ncats <= TRACE_CATS_MAX && t->ntracks <= TRACE_TRACKS_MAX,
	    "category and track counts");
	CHECK(t->dist_backend < nstr, "backend name");
	for (size_t i = 0; i < t->ncats; i++)
		CHECK(t->cats[i] < nstr && t->cat_kinds[i] <= CAT_KNOWN_OTHER, "category");
	for (size_t i = 0; i < t->ndevices; i++)
		CHECK(t->devices[i].name < nstr, "device name");
	for (size_t i = 0; i < t->ndevices_seen; i++)
		CHECK(i == 0 || t->devices_seen[i] > t->devices_seen[i - 1], "devices seen");
	for (size_t i = 0; i < t->ncomms; i++) {
		const struct comm_args *c = &t->comms[i];

		CHECK(c->collective < nstr && c->pg_name < nstr && c->dtype < nstr,
		    "comm strings");
	}
	for (size_t i = 0; i < t->nevents; i++) {
		const struct args_rec *a = &t->args[i];

		if (a->device == ARGS_WIDE)
			CHECK(a->nums < t->nwide, "args wide");
		else if (a->device == ARGS_NONE)
			CHECK(memcmp(a, &ARGS_REC_NONE, sizeof *a) == 0, "args none");
		else {
			CHECK(a->device >= -1 && a->stream >= -1, "args device");
			CHECK(nums_ok(t, a->nums), "args nums");
		}
	}
	for (size_t i = 0; i < t->nwide; i++) {
		CHECK(t->wide[i].comm == EV_NONE || t->wide[i].comm < t->ncomms, "args comm");
		CHECK(nums_ok(t, t->wide[i].nums), "args nums");
	}
	/*
	 * Each event is checked with its track, in one pass: the track ranges
	 * lie in the array, each event's track is the one whose range holds
	 * it (so the ranges are disjoint) and their counts add up to nevents
	 * (so they cover it).
	 */
	for (size_t i = 0; i < t->ntracks; i++) {
		const struct track *tr = &t->tracks[i];
		const struct ivset *b = &tr->busy;
		int level = -1;
		int64_t sum;

		CHECK(tr->pid_str < nstr && tr->tid_str < nstr && tr->name < nstr &&
		    tr->process_name < nstr, "track strings");
		CHECK(tr->kind <= TRACK_COUNTER && tr->activity <= tr->count &&
		    (tr->flags & ~TRACK_ONE_DEVICE) == 0, "track kind");
		CHECK((uint64_t)tr->first + tr->count <= t->nevents, "track range");
		for (uint32_t j = tr->first; j < tr->first + tr->count; j++) {
			const struct event *e = &t->events[j];

			CHECK(e->track == i && e->depth < tr->rows, "track events");
			CHECK(e->name < nstr && e->cat < t->ncats, "event index");
			CHECK(e->link == EV_NONE || e->link < t->nevents, "event link");
			CHECK((~e->flags & (EVF_INSTANT | EVF_COUNTER)) != 0 &&
			    (event_ph(e) == 'X' || e->cls == CLASS_NONE),
			    "event phase");
			/* Both ends lie within +-TRACE_TIME_MAX (the length may not). */
			CHECK(e->dur_ns >= 0 && in_time(e->ts_ns) &&
			    e->dur_ns <= TRACE_TIME_MAX - e->ts_ns, "event time");
			CHECK(j == tr->first || e->ts_ns >= e[-1].ts_ns, "event order");
			activities += event_is_activity(e) != 0;
			if (e->ts_ns < first_ns)
				first_ns = e->ts_ns;
			if (event_end(e) > last_ns)
				last_ns = event_end(e);
		}
		CHECK(tr->device >= -1, "track device");
		for (uint64_t j = 0; j < itree_slots(tr->index.n); j++)
			CHECK(in_time(tr->index.maxend_ns[j]), "track index");
		covered += tr->count;
		/* itree_build's root level for n events: k - 1 for the first k with 2^k - 1 >= n. */
		if (tr->count > 0)
			for (level = 0; ((uint64_t)1 << (level + 1)) - 1 < tr->count; level++)
				;
		CHECK(tr->index.n == tr->count && tr->index.max_level == level, "track index");
		CHECK(b->prefix_ns[0] == 0, "busy set");
		for (size_t j = 0; j < b->n; j++) {
			CHECK(in_time(b->start_ns[j]) && in_time(b->end_ns[j]) &&
			    b->start_ns[j] < b->end_ns[j] &&
			    (j == 0 || b->end_ns[j - 1] < b->start_ns[j]), "busy set");
			CHECK(!__builtin_add_overflow(b->prefix_ns[j],
			    b->end_ns[j] - b->start_ns[j], &sum) &&
			    b->prefix_ns[j + 1] == sum, "busy sums");
		}
	}
	CHECK(covered == t->nevents, "track counts");
	/*
	 * The header's fields, as the loader leaves them: the time range is
	 * that of the events (its ends feed every span the report, the
	 * viewer and the findings compute), ranks and world sizes within
	 * their bounds, flags 0 or 1, counts no larger than what they count.
	 */
	if (t->nevents > 0)
		CHECK(t->start_ns == first_ns && t->end_ns == last_ns, "time range");
	else
		CHECK(t->start_ns == 0 && t->end_ns == 0, "time range");
	CHECK(t->world_size == -1 || (t->world_size >= 1 &&
	    t->world_size <= TRACE_WORLD_MAX), "world size");
	CHECK(t->dist_rank == -1 || (t->dist_rank >= 0 &&
	    t->dist_rank <= TRACE_RANK_MAX), "rank");
	CHECK((t->has_distributed | t->has_base_time | t->legacy_array) <= 1 &&
	    t->has_distributed >= 0 && t->has_base_time >= 0 && t->legacy_array >= 0,
	    "header flags");
	CHECK(t->nactivities == activities && t->nlinked <= t->nactivities,
	    "activity counts");
	CHECK(t->flow_count <= UINT32_MAX * (uint64_t)3, "flow count");
	for (int k = 0; k < COMM_NRULES; k++)
		CHECK(t->comm_rules[k] <= t->nevents, "comm rule counts");
	for (size_t i = 0; i < t->ncats; i++)
		CHECK(t->cat_slices[i] <= t->nevents, "category counts");
	for (int k = 0; k < TRACE_LISTS; k++)
		for (size_t i = 0; i < t->nlist[k]; i++)
			CHECK(t->lists[k][i] < t->nevents &&
			    (i == 0 || t->lists[k][i] > t->lists[k][i - 1]), "event lists");
	return validate_byname(&t->byname, t->nevents, why, whysize);
}

/* Reads everything after the header; the trace owns what is read. */
static int
read_payload(struct reader *r, struct trace *t, const struct cache_header *h,
    char *why, size_t whysize)
{
	const uint32_t *lens;
	const char *blob;
	const struct track *tracks;
	uint64_t off = 0, maxend_left = h->nmaxend, busy_left = h->nbusy;

	CHECK(h->nstrs >= 1 && h->nstrs <= UINT32_MAX && h->nevents <= UINT32_MAX &&
	    h->nargs == h->nevents && h->nwide <= h->nargs && h->nnums <= h->nargs && h->nseqs <= h->nargs && h->npairs <= h->nargs && h->ncomms <= UINT32_MAX &&
	    h->ntracks <= UINT32_MAX, "counts");
	lens = r_array(r, h->nstrs, sizeof *lens);
	blob = r_array(r, h->strbytes, 1);
	CHECK(!r->failed, "short read");
	for (uint64_t id = 0; id < h->nstrs; id++) {
		if (h->strbytes - off < (uint64_t)lens[id] + 1 ||
		    blob[off + lens[id]] != '\0' ||
		    strtab_intern(&t->strs, blob + off, lens[id]) != id)
			break;
		off += (uint64_t)lens[id] + 1;
	}
	CHECK(t->strs.count == h->nstrs && off == h->strbytes, "strings");

	t->events = r_array(r, h->nevents, sizeof *t->events);
	t->nevents = t->events_cap = h->nevents;
	t->args = r_array(r, h->nargs, sizeof *t->args);
	t->args_cap = h->nargs;
	t->wide = r_array(r, h->nwide, sizeof *t->wide);
	t->nwide = t->wide_cap = h->nwide;
	t->nums = r_array(r, h->nnums, sizeof *t->nums);
	t->nnums = t->nums_cap = h->nnums;
	t->seqs = r_array(r, h->nseqs, sizeof *t->seqs);
	t->nseqs = t->seqs_cap = h->nseqs;
	t->pairs = r_array(r, h->npairs, sizeof *t->pairs);
	t->npairs = t->pairs_cap = h->npairs;
	t->comms = r_array(r, h->ncomms, sizeof *t->comms);
	t->ncomms = t->comms_cap = h->ncomms;
	t->flow_count = h->flow_count;
	/* copied: their pointers are set here, and the mapping is being checksummed */
	tracks = r_array(r, h->ntracks, sizeof *t->tracks);
	if (tracks != NULL) {
		t->tracks = xreallocarray(NULL, h->ntracks, sizeof *t->tracks);
		memcpy(t->tracks, tracks, h->ntracks * sizeof *t->tracks);
	}
	t->ntracks = t->tracks_cap = h->ntracks;
	if (r->failed)
		t->ntracks = 0;         /* their pointers are not ours yet */
	for (size_t i = 0; i < t->ntracks; i++) {
		struct track *tr = &t->tracks[i];

		tr->index.maxend_ns = NULL;
		tr->busy.start_ns = tr->busy.end_ns = tr->busy.prefix_ns = NULL;
	}
	t->cats = r_array(r, h->ncats, sizeof *t->cats);
	t->cat_kinds = r_array(r, h->ncats, sizeof *t->cat_kinds);
	t->ncats = t->cats_cap = h->ncats;
	t->devices = r_array(r, h->ndevices, sizeof *t->devices);
	t->ndevices = t->devices_cap = h->ndevices;
	t->devices_seen = r_array(r, h->ndevices_seen, sizeof *t->devices_seen);
	t->ndevices_seen = h->ndevices_seen;
	CHECK(!r->failed, "short read");

	/* The per-track arrays: the track's own counts, checked against the totals. */
	for (size_t i = 0; i < t->ntracks; i++) {
		struct itree *x = &t->tracks[i].index;

		CHECK(itree_slots(x->n) <= maxend_left, "index sizes");
		maxend_left -= itree_slots(x->n);
		x->maxend_ns = r_array(r, itree_slots(x->n), sizeof *x->maxend_ns);
		CHECK(!r->failed, "short read");
	}
	CHECK(maxend_left == 0, "index sizes");
	for (size_t i = 0; i < t->ntracks; i++) {
		struct ivset *b = &t->tracks[i].busy;
		size_t n = b->n;

		b->n = 0;               /* until its arrays are read */
		CHECK(n <= busy_left, "busy sizes");
		busy_left -= n;
		b->start_ns = r_array(r, n, sizeof *b->start_ns);
		b->end_ns = r_array(r, n, sizeof *b->end_ns);
		b->prefix_ns = r_array(r, n + 1, sizeof *b->prefix_ns);
		CHECK(!r->failed, "short read");
		b->n = n;
	}
	CHECK(busy_left == 0, "busy sizes");
	CHECK(h->nnamed <= h->nstrs, "name index size");
	t->byname.start = r_array(r, h->nnamed + 1, sizeof *t->byname.start);
	t->byname.ev = r_array(r, h->nevents, sizeof *t->byname.ev);
	CHECK(!r->failed, "short read");
	t->byname.nnames = (uint32_t)h->nnamed;
	t->cat_slices = r_array(r, h->ncats, sizeof *t->cat_slices);
	CHECK(!r->failed, "short read");
	for (int k = 0; k < TRACE_LISTS; k++) {
		CHECK(h->nlist[k] <= h->nevents, "counts");
		t->lists[k] = r_array(r, h->nlist[k], sizeof *t->lists[k]);
		CHECK(!r->failed, "short read");
		t->nlist[k] = h->nlist[k];
	}
	t->nactivities = h->nactivities;
	t->nlinked = h->nlinked;
	if (h->stoplen > 0) {
		const char *stop = r_array(r, h->stoplen, 1);

		CHECK(!r->failed, "short read");
		CHECK(memchr(stop, '\0', h->stoplen) == stop + h->stoplen - 1,
		    "stop reason");
		t->stop_reason = xstrdup(stop);
	}
	CHECK(h->nsrc <= h->nevents, "counts");
	t->src = r_array(r, h->nsrc, sizeof *t->src);
	CHECK(!r->failed, "short read");
	t->nsrc = t->src_cap = h->nsrc;
	for (size_t i = 1; i < t->nsrc; i++)
		CHECK(t->src[i].off > t->src[i - 1].off, "source blocks");
	return 0;
}

/* A part of the file to read: len bytes at off into p. */
struct part {
	int fd;
	char *p;
	size_t off, len;
	int failed;
};

/* Reads the part in full (job function); failed is set if it cannot. */
static void *
part_read(void *arg)
{
	struct part *q = arg;
	size_t got = 0;

	while (got < q->len) {
		ssize_t n = pread(q->fd, q->p + got, q->len - got,
		    (off_t)(q->off + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			q->failed = 1;
			break;
		}
		got += (size_t)n;
	}
	return NULL;
}

/*
 * Reads len bytes of fd from offset 0 into p, the second half on a thread
 * of its own (the copy and the page faults are most of a reopen's time).
 * Returns 0, or -1.
 */
static int
read_fully(int fd, char *p, size_t len)
{
	size_t half = len / 2 & ~(size_t)4095;
	struct part first = { fd, p, 0, half, 0 };
	struct part second = { fd, p + half, half, len - half, 0 };
	struct job j;

	job_start(&j, part_read, &second);
	part_read(&first);
	job_join(&j);
	return first.failed || second.failed ? -1 : 0;
}

int
cache_load(struct trace *t, const char *path, const char *dir,
    const struct cache_key *k, char *why, size_t whysize)
{
	struct cache_header h, want;
	struct reader r;
	struct checksum sum = { 0 };
	struct stat st;
	char file[PATH_MAX];
	const char *abspath;
	void *map;
	uint64_t size, hh;
	int fd, rc = -1;

	/* As trace_init() leaves it, but with no loader state (already finalised). */
	memset(t, 0, sizeof *t);
	t->path = xstrdup(path);
	t->rank = -1;
	t->rank_source = "position";
	strtab_init(&t->strs);

	memset(&r, 0, sizeof r);
	if (cache_dir_trusted(dir, why, whysize) < 0)
		goto out;
	/* not blocking (a FIFO there would hang the load), no link followed */
	if (cache_path(file, sizeof file, dir, k) < 0 ||
	    (fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)) < 0) {
		load_say(why, whysize, errno == ELOOP ? "a link, ignored" : "absent");
		goto out;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		load_say(why, whysize, "not a regular file, ignored");
		goto out_close;
	}
	if (pread(fd, &h, sizeof h, 0) != (ssize_t)sizeof h) {
		load_say(why, whysize, "corrupt: short header");
		goto out_close;
	}
	hh = h.header_hash;
	h.header_hash = 0;
	event_header_fill(&want, k);
	if (memcmp(h.magic, want.magic, sizeof h.magic) != 0 ||
	    cache_hash_bytes(&h, sizeof h) != hh) {
		load_say(why, whysize, "corrupt: header");
		goto out_close;
	}
	if (h.format != want.format || h.byte_order != want.byte_order ||
	    h.sz_event != want.sz_event || h.sz_args != want.sz_args ||
	    h.sz_comm != want.sz_comm ||
	    h.sz_track != want.sz_track || h.sz_device != want.sz_device ||
	    h.sz_warn != want.sz_warn ||
	    memcmp(h.version, want.version, sizeof h.version) != 0) {
		load_say(why, whysize, "written by another build");
		goto out_close;
	}
	if (h.dev != want.dev || h.ino != want.ino || h.size != want.size ||
	    h.mtime_ns != want.mtime_ns || h.ctime_ns != want.ctime_ns ||
	    h.pathlen != want.pathlen) {
		load_say(why, whysize, "stale");
		goto out_close;
	}
	if (payload_size(&h, &size) < 0 ||
	    (uint64_t)st.st_size != sizeof h + size) {
		load_say(why, whysize, "corrupt: size");
		goto out_close;
	}
	/*
	 * Read into memory of our own, not mapped from the file: a cache
	 * truncated in place (another gantty rewriting it, a full disk
	 * cleaned) would kill a viewer that has it mapped with SIGBUS.
	 */
	map = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		load_say(why, whysize, "not mapped: %s", strerror(errno));
		goto out_close;
	}
#ifdef MADV_HUGEPAGE
	/* fewer page faults while the file is read in (a hint: may fail) */
	(void)madvise(map, (size_t)st.st_size, MADV_HUGEPAGE);
#endif
	t->map = map;
	t->map_len = (size_t)st.st_size;
	if (read_fully(fd, map, (size_t)st.st_size) < 0) {
		load_say(why, whysize, "corrupt: short read");
		goto out_close;
	}
	r.p = (const char *)map + sizeof h;
	r.len = size;
	/* the checksum runs beside the range checks; both must pass */
	checksum_start(&sum, r.p, (size_t)size);
	abspath = r_array(&r, h.pathlen, 1);
	if (r.failed || memcmp(abspath, k->abspath, h.pathlen) != 0) {
		load_say(why, whysize, "stale: another file's");
		goto out_close;
	}
	if (read_payload(&r, t, &h, why, whysize) < 0)
		goto out_close;
	if (r.off != r.len) {
		load_say(why, whysize, "corrupt: size");
		goto out_close;
	}
	t->world_size = h.world_size;
	t->has_distributed = (int)h.has_distributed;
	t->dist_rank = h.dist_rank;
	t->dist_backend = (uint32_t)h.dist_backend;
	t->base_time_ns = h.base_time_ns;
	t->has_base_time = (int)h.has_base_time;
	t->legacy_array = (int)h.legacy_array;
	t->events_cut = h.events_cut != 0;
	t->objects = h.objects;
	t->start_ns = h.start_ns;
	t->end_ns = h.end_ns;
	t->warn = h.warn;
	memcpy(t->comm_rules, h.comm_rules, sizeof t->comm_rules);
	if (h.dist_backend < 0 || h.dist_backend > UINT32_MAX) {
		load_say(why, whysize, "corrupt: backend name");
		goto out_close;
	}
	if (validate(t, why, whysize) < 0)
		goto out_close;
	rc = 0;
out_close:
	if (sum.p != NULL && checksum_end(&sum) != h.payload_hash) {
		load_say(why, whysize, "corrupt: checksum");     /* says most */
		rc = -1;
	}
	close(fd);              /* the mapping stays */
out:
	if (rc < 0)
		trace_free(t);
	return rc;
}

void (*cache_test_after_open)(const char *path);

int
cache_load_trace(struct trace *t, const char *path, const struct load_opts *opts,
    struct load_error *err, const char *dir, char *note, size_t notesize)
{
	struct cache_key k;
	char why[512], why2[512], file[PATH_MAX];
	int fd, dup, rc;

	load_say(note, notesize, "%s", "");
	if (dir == NULL)
		return load_trace(t, path, opts, err);
	if (strcmp(path, "-") == 0) {
		load_say(note, notesize, "%s: not cached: standard input is not cached",
		    path);
		return load_trace(t, path, opts, err);
	}
	if ((fd = load_open(path, err)) < 0)
		return -1;
	if (cache_test_after_open != NULL)
		cache_test_after_open(path);
	if (cache_key_get(&k, fd, path, why, sizeof why) < 0) {
		load_say(note, notesize, "%s: not cached: %s", path, why);
		return load_trace_fd(t, fd, path, opts, err);
	}
	if (cache_path(file, sizeof file, dir, &k) < 0)
		snprintf(file, sizeof file, "%s", dir);
	if (cache_load(t, path, dir, &k, why, sizeof why) == 0) {
		load_say(note, notesize, "%s: loaded from %s", path, file);
		cache_key_free(&k);
		close(fd);
		return 0;
	}
	/* the loader closes its descriptor; the key keeps this one */
	if ((dup = fcntl(fd, F_DUPFD_CLOEXEC, 0)) < 0) {
		snprintf(err->msg, sizeof err->msg, "%s: %s", path, strerror(errno));
		cache_key_free(&k);
		close(fd);
		return -1;
	}
	rc = load_trace_fd(t, dup, path, opts, err);
	if (rc == 0) {
		if (cache_store(t, dir, &k, why2, sizeof why2) == 0)
			load_say(note, notesize, "%s: cache %s, written to %s", path,
			    why, file);
		else
			load_say(note, notesize, "%s: cache %s, not written: %s", path,
			    why, why2);
	}
	cache_key_free(&k);
	close(fd);
	return rc;
}
