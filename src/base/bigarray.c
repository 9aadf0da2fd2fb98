#include "config.h"

#include "base/bigarray.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/xalloc.h"

/* The kernel's huge page: a mapping is a whole number of them. */
#define HUGE_PAGE ((size_t)2 << 20)

static size_t
map_len(size_t bytes)
{
	return (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
}

/* The hint that the mapping at p take huge pages (may fail: a hint). */
static void
hint(void *p, size_t len)
{
#ifdef MADV_HUGEPAGE
	(void)madvise(p, len, MADV_HUGEPAGE);
#else
	(void)p;
	(void)len;
#endif
}

static void *
map_new(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		xalloc_die_size(len);
	hint(p, len);
	return p;
}

/* The mapping at p, old bytes long, made len bytes long (len > 0). */
static void *
map_resize(void *p, size_t old, size_t len)
{
	void *q;

	if (len == old)
		return p;
#ifdef MREMAP_MAYMOVE
	q = mremap(p, old, len, MREMAP_MAYMOVE);
	if (q == MAP_FAILED)
		xalloc_die_size(len);
	if (len > old)
		hint(q, len);
#else
	q = map_new(len);
	memcpy(q, p, old < len ? old : len);
	(void)munmap(p, old);
#endif
	return q;
}

void
bigarray_resize(void *pp, size_t *cap, size_t n, size_t elem)
{
	void **p = pp, *q;
	size_t old = *cap * elem, len;

	if (elem != 0 && n > (SIZE_MAX - HUGE_PAGE) / elem)
		xalloc_die_size(SIZE_MAX);
	len = n * elem;
	if (old < BIGARRAY_MIN && len < BIGARRAY_MIN) {
		*p = xreallocarray(*p, n, elem);
	} else if (old >= BIGARRAY_MIN && len >= BIGARRAY_MIN) {
		*p = map_resize(*p, map_len(old), map_len(len));
	} else if (len >= BIGARRAY_MIN) {
		q = map_new(map_len(len));
		if (old > 0)
			memcpy(q, *p, old);
		free(*p);
		*p = q;
	} else {
		q = xmalloc(len);
		memcpy(q, *p, len);
		(void)munmap(*p, map_len(old));
		*p = q;
	}
	*cap = n;
}

void
bigarray_grow(void *pp, size_t *cap, size_t need, size_t elem)
{
	size_t c;

	if (need <= *cap)
		return;
	c = xgrow_cap(*cap, need);
	if (elem > 0 && c < BIGARRAY_FIRST / elem)
		c = BIGARRAY_FIRST / elem;
	bigarray_resize(pp, cap, c, elem);
}

void
bigarray_free(void *p, size_t cap, size_t elem)
{
	if (p == NULL)
		return;
	if (cap * elem >= BIGARRAY_MIN)
		(void)munmap(p, map_len(cap * elem));
	else
		free(p);
}
