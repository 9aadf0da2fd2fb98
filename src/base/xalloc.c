#include "config.h"

#include "base/xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

static void (*fatal_hook)(void);

void
xalloc_set_fatal_hook(void (*fn)(void))
{
	fatal_hook = fn;
}

void
xalloc_die(const char *what)
{
	void (*hook)(void) = fatal_hook;

	fatal_hook = NULL;
	if (hook != NULL)
		hook();
	fprintf(stderr, "gantty: out of memory %s\n", what);
	/* other threads may still be loading: no atexit handlers, no flush
	   of buffers they may be writing */
	_exit(1);
}

void
xalloc_die_size(size_t size)
{
	char what[64];

	snprintf(what, sizeof what, "allocating %zu bytes", size);
	xalloc_die(what);
}

/*
 * A new block of HUGE_MIN bytes or more is asked for in huge pages, over
 * the whole 2 MB pages inside it (a hint: may fail).  On the virtual
 * machine of bench/RESULTS.md a fresh 4 KB page costs about 3 us: 25 K of
 * them in the analysis of a 1 GB trace reopened from its cache.  Only new
 * blocks: one grown by realloc() is moved by mremap() in small pages,
 * which splits huge ones (the arrays that grow are base/bigarray.h's).
 */
#define HUGE_MIN ((size_t)4 << 20)
#define HUGE_PAGE ((uintptr_t)2 << 20)

static void
hint_huge(void *p, size_t size)
{
#ifdef MADV_HUGEPAGE
	uintptr_t a = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	uintptr_t b = ((uintptr_t)p + size) & ~(HUGE_PAGE - 1);

	if (size >= HUGE_MIN && b > a)
		(void)madvise((void *)a, b - a, MADV_HUGEPAGE);
#else
	(void)p;
	(void)size;
#endif
}

void *
xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (p == NULL)
		xalloc_die_size(size);
	hint_huge(p, size);
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p;

	if (n == 0 || size == 0)
		n = size = 1;
	p = calloc(n, size);
	if (p == NULL)
		xalloc_die_size(n * size);
	hint_huge(p, n * size);
	return p;
}

void *
xreallocarray(void *p, size_t n, size_t size)
{
	void *q;

	if (size != 0 && n > SIZE_MAX / size)
		xalloc_die_size(SIZE_MAX);
	q = realloc(p, n * size != 0 ? n * size : 1);
	if (q == NULL)
		xalloc_die_size(n * size);
	if (p == NULL)
		hint_huge(q, n * size);
	return q;
}

char *
xstrndup(const char *s, size_t len)
{
	char *p = xmalloc(len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

size_t
xgrow_cap(size_t cap, size_t need)
{
	if (cap < 16)
		cap = 16;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	return cap;
}

void
xgrow(void *pp, size_t *cap, size_t need, size_t elem)
{
	void **p = pp;
	size_t c;

	if (need <= *cap)
		return;
	c = xgrow_cap(*cap, need);
	*p = xreallocarray(*p, c, elem);
	*cap = c;
}
