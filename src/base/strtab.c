#include "config.h"

#include "base/strtab.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

#define BLOCK_MIN (64 * 1024)

/*
 * Hashes 8 bytes at a time (kernel names run to hundreds of bytes, and every
 * event's name is looked up).  Only slots depend on it, never ids.
 */
static uint32_t
hash_bytes(const char *s, size_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15u ^ len, w;
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdu;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, s + i, len - i);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53u;
	h ^= h >> 29;
	h *= 0xff51afd7ed558ccdu;
	return (uint32_t)(h ^ h >> 32);
}

static const char *
store(struct strtab *st, const char *s, size_t len)
{
	char *dst;

	if (st->nblocks == 0 || st->block_used + len + 1 > st->block_size) {
		size_t size = len + 1 > BLOCK_MIN ? len + 1 : BLOCK_MIN;

		xgrow(&st->blocks, &st->blocks_cap, st->nblocks + 1,
		    sizeof *st->blocks);
		st->blocks[st->nblocks++] = xmalloc(size);
		st->block_size = size;
		st->block_used = 0;
	}
	dst = st->blocks[st->nblocks - 1] + st->block_used;
	memcpy(dst, s, len);
	dst[len] = '\0';
	st->block_used += len + 1;
	return dst;
}

static void
rehash(struct strtab *st, uint32_t nslots)
{
	free(st->slots);
	st->slots = xcalloc(nslots, sizeof *st->slots);
	st->nslots = nslots;
	for (uint32_t id = 0; id < st->count; id++) {
		uint32_t i = hash_bytes(st->strs[id], st->lens[id]) & (nslots - 1);

		while (st->slots[i] != 0)
			i = (i + 1) & (nslots - 1);
		st->slots[i] = id + 1;
	}
}

void
strtab_init(struct strtab *st)
{
	memset(st, 0, sizeof *st);
	rehash(st, 1024);
	strtab_intern(st, "", 0);
}

void
strtab_free(struct strtab *st)
{
	for (size_t i = 0; i < st->nblocks; i++)
		free(st->blocks[i]);
	free(st->blocks);
	free(st->strs);
	free(st->lens);
	free(st->slots);
	memset(st, 0, sizeof *st);
}

static uint32_t
lookup(const struct strtab *st, const char *s, size_t len, uint32_t *slot)
{
	uint32_t i = hash_bytes(s, len) & (st->nslots - 1);

	for (;;) {
		uint32_t v = st->slots[i];

		if (v == 0) {
			*slot = i;
			return UINT32_MAX;
		}
		if (st->lens[v - 1] == len && memcmp(st->strs[v - 1], s, len) == 0)
			return v - 1;
		i = (i + 1) & (st->nslots - 1);
	}
}

uint32_t
strtab_find(const struct strtab *st, const char *s, size_t len)
{
	uint32_t slot;

	if (st->nslots == 0)
		return UINT32_MAX;
	return lookup(st, s, len, &slot);
}

uint32_t
strtab_intern(struct strtab *st, const char *s, size_t len)
{
	uint32_t slot, id = lookup(st, s, len, &slot);

	if (id != UINT32_MAX)
		return id;
	id = st->count;
	xgrow(&st->strs, &st->strs_cap, id + 1, sizeof *st->strs);
	xgrow(&st->lens, &st->lens_cap, id + 1, sizeof *st->lens);
	st->strs[id] = store(st, s, len);
	st->lens[id] = (uint32_t)len;
	st->slots[slot] = id + 1;
	st->count++;
	if ((uint64_t)st->count * 2 > st->nslots)
		rehash(st, st->nslots * 2);
	return id;
}
