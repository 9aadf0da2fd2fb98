/*
 * cache_int — what the two halves of the cache share: the file's layout
 * and header, its checksum and the key of a stat.  cache_key.c holds the
 * key, the header and the hash; cache.c the reading (cache_load());
 * cache_store.c the writing.
 * Only the .c files of src/load/ may include this header; everything else
 * uses cache.h.
 */
#ifndef GANTTY_CACHE_INT_H
#define GANTTY_CACHE_INT_H


#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"

struct cache_key;
struct stat;

/*
 * The file: a struct cache_header, then the sections below in this order,
 * each a raw array of this build's records (the header records their sizes,
 * and a cache from another build is refused):
 *
 *   path          pathlen bytes (the absolute path, no NUL)
 *   string lens   nstrs x uint32_t
 *   strings       strbytes bytes: every string in id order, NUL-terminated
 *   events, args (struct args_rec), wide (struct event_args), nums, seqs
 *   (int64_t), pairs, comms, tracks (pointers zeroed), cats, cat_kinds,
 *   devices, devices_seen
 *   maxend        every track's index.maxend_ns (itree_slots(track.count) each)
 *   busy          per track: busy.start_ns[n], end_ns[n], prefix_ns[n + 1]
 *   byname        start (nnamed + 1 x uint32_t), ev (nevents x uint32_t)
 *   counts        cat_slices (ncats x uint64_t)
 *   lists         each of TRACE_LISTS: nlist[k] x uint32_t
 *   stop reason   stoplen bytes, NUL-terminated (0 bytes when none)
 *   src blocks    nsrc x struct src_block (where the events are in the file)
 *
 * payload_hash covers every byte after the header; header_hash the header
 * with header_hash zeroed.
 */
struct cache_header {
	char magic[8];
	uint64_t format, byte_order;
	uint64_t sz_event, sz_args, sz_comm, sz_track, sz_device, sz_warn;
	char version[32];
	/* the key */
	uint64_t dev, ino;
	int64_t size, mtime_ns, ctime_ns;
	uint64_t pathlen;
	/* counts */
	uint64_t nstrs, strbytes, nevents, nargs, nwide, nnums, nseqs, npairs, ncomms, flow_count, ntracks, ncats;
	uint64_t ndevices, ndevices_seen, nmaxend, nbusy, nnamed, stoplen, nsrc;
	uint64_t nlist[TRACE_LISTS];
	uint64_t nactivities, nlinked;
	/* header fields of the trace */
	int64_t world_size, has_distributed, dist_rank, dist_backend;
	int64_t base_time_ns, has_base_time, legacy_array, events_cut;
	uint64_t objects;
	int64_t start_ns, end_ns;
	struct trace_warnings warn;
	uint64_t comm_rules[COMM_NRULES];
	uint64_t payload_hash, header_hash;
};

/* Sections are padded to 8 bytes, so that records are read in place. */
#define PAD8(n) (((n) + 7) & ~(uint64_t)7)

/* A streaming 64-bit hash (see cache_key.c); init, update, then final. */
struct hash {
	uint64_t v[4];
	unsigned char buf[32];
	size_t nbuf;
	uint64_t total;
};

void cache_hash_init(struct hash *h);
void cache_hash_update(struct hash *h, const void *data, size_t len);
uint64_t cache_hash_final(const struct hash *h);
uint64_t cache_hash_bytes(const void *p, size_t len);

/* snprintf() into buf (size bytes, may be 0): a why or note for the caller. */
void load_say(char *buf, size_t size, const char *fmt, ...);
/* Sets k's dev, ino, size, mtime and ctime from st. */
void cache_key_of_stat(struct cache_key *k, const struct stat *st);
/* Fills h's magic, version, record sizes and key from k; zeroes the rest. */
void event_header_fill(struct cache_header *h, const struct cache_key *k);

#endif
