/*
 * strtab — interned strings.
 *
 * A strtab maps byte strings to dense uint32_t ids and back.  Id 0 is always
 * the empty string, so a zeroed field means "no name".  Strings are stored
 * once, NUL-terminated, in large blocks owned by the table; pointers returned
 * by strtab_get() stay valid until strtab_free().  Lookup and insertion are
 * O(len) expected (open-addressing hash table).
 */
#ifndef GANTTY_STRTAB_H
#define GANTTY_STRTAB_H

#include <stddef.h>
#include <stdint.h>

struct strtab {
	char **blocks;        /* string storage, never moved */
	size_t nblocks, blocks_cap;
	size_t block_used, block_size;
	const char **strs;    /* id -> string */
	uint32_t *lens;       /* id -> length */
	uint32_t count;
	size_t strs_cap, lens_cap;
	uint32_t *slots;      /* hash slots: id+1, 0 = empty */
	uint32_t nslots;      /* power of two */
};

/* Initialises an empty table holding only "" (id 0). */
void strtab_init(struct strtab *st);
/* Frees everything the table owns; st may be zeroed or already freed. */
void strtab_free(struct strtab *st);
/* Returns the id of the len bytes at s, adding them if new. */
uint32_t strtab_intern(struct strtab *st, const char *s, size_t len);
/* Returns the id of s if interned, else UINT32_MAX; never adds. */
uint32_t strtab_find(const struct strtab *st, const char *s, size_t len);
/* Returns the NUL-terminated string of id (must be < count). */
static inline const char *
strtab_get(const struct strtab *st, uint32_t id)
{
	return st->strs[id];
}
/* Returns the length of id's string. */
static inline uint32_t
strtab_len(const struct strtab *st, uint32_t id)
{
	return st->lens[id];
}

#endif
