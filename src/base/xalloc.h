/*
 * xalloc — allocation that never returns NULL.
 *
 * Every allocation in gantty goes through these.  On failure they call the
 * fatal hook (the viewer installs one that restores the terminal), print
 * "gantty: out of memory allocating N bytes" to stderr and exit with status
 * 1 (the status of bad input: the input was too big for this machine).
 * Code that allocates through a library (zlib, json-c) calls xalloc_die()
 * when the library says it ran out, so that every out-of-memory death takes
 * this one path.  Sizes are
 * checked for multiplication overflow.  Freeing stays plain free(); free(NULL)
 * is a no-op as usual.
 */
#ifndef GANTTY_XALLOC_H
#define GANTTY_XALLOC_H

#include <stddef.h>

/* Returns size bytes, never NULL. */
void *xmalloc(size_t size);
/* Returns n*size zeroed bytes, never NULL; dies on overflow. */
void *xcalloc(size_t n, size_t size);
/* Resizes p to n*size bytes, never NULL; dies on overflow. */
void *xreallocarray(void *p, size_t n, size_t size);
/* Returns a malloc'd copy of s. */
char *xstrdup(const char *s);
/* Returns a malloc'd, NUL-terminated copy of the len bytes at s. */
char *xstrndup(const char *s, size_t len);
/*
 * Grows *p (an array of elem-sized items with capacity *cap) so that it holds
 * at least need items; doubles, so appends are amortised O(1).
 */
void xgrow(void *pp, size_t *cap, size_t need, size_t elem);
/* The capacity xgrow() takes cap to for need items (> cap): doubled. */
size_t xgrow_cap(size_t cap, size_t need);
/*
 * Installs fn to run (once) before an out-of-memory death; NULL removes it.
 * One hook at a time: the viewer's restores the terminal, main's ends a
 * progress line.
 */
void xalloc_set_fatal_hook(void (*fn)(void));
/*
 * Dies of out of memory: runs the hook, prints "gantty: out of memory WHAT"
 * and exits with status 1 (_exit: no atexit handlers).  Never returns.
 */
_Noreturn void xalloc_die(const char *what);
/* xalloc_die("allocating SIZE bytes"). */
_Noreturn void xalloc_die_size(size_t size);

#endif
