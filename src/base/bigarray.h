/*
 * bigarray — the few arrays that grow to many MB while a trace loads (its
 * events, args, numbers and flows), kept where the machine serves them
 * cheapest.
 *
 * Below BIGARRAY_MIN bytes such an array is an ordinary malloc() block.
 * From there on it is a mapping of its own, a whole number of 2 MB pages
 * long, with the kernel asked for transparent huge pages, and it grows
 * with mremap(): the pages move, nothing is copied.  malloc() would grow
 * it with mremap() too, but over a length that is not a whole number of
 * 2 MB pages, so the kernel moves it page table entry by page table entry
 * and in small pages.  Measured on the virtual machine of bench/RESULTS.md
 * (100 MB of 40-byte records appended one by one): filling took 0.29 s
 * through realloc() and 0.03 to 0.2 s here, and the first pass over the
 * array after it had moved 0.12 s against 0.005 s.
 *
 * Which of the two an array is follows from its capacity alone (cap *
 * elem bytes against BIGARRAY_MIN), so an array made by these functions
 * is resized and freed only by them, with the capacity they last set;
 * never by realloc() or free().  Every function here dies of out of
 * memory as xalloc does; none returns NULL for a size above 0.
 */
#ifndef GANTTY_BIGARRAY_H
#define GANTTY_BIGARRAY_H

#include <stddef.h>

/*
 * From this many bytes an array is a mapping of its own, in huge pages.
 * A huge page is resident in full once touched, so each such array wastes
 * a MB on average at its end, which a file read in 16 chunks pays 16 times
 * for each (30 MB more at the peak at 1 GB than in two).  16 MB here saved
 * that, but a file read in two chunks took a third more page faults, each
 * dear on a virtual machine (37 K against 53 K at 1 GB): kept at 4 MB.
 */
#define BIGARRAY_MIN ((size_t)4 << 20)
/*
 * An array's first capacity, in bytes.  Grown from a few records, the
 * blocks it outgrew below malloc's mapping threshold (heap.h) would stay
 * in malloc's heap, written and free: about a MB an array, which 64
 * chunks loading at once paid 64 times for each (60 MB at 1 GB).  A MB is
 * above that threshold: malloc maps the block apart, and pages not yet
 * written take no memory.
 */
#define BIGARRAY_FIRST ((size_t)1 << 20)

/*
 * Grows *pp (elem-byte items, capacity *cap) to hold at least need items,
 * doubling as xgrow() does, so appends are amortised O(1); to at least
 * BIGARRAY_FIRST bytes the first time.
 */
void bigarray_grow(void *pp, size_t *cap, size_t need, size_t elem);
/* Sets the capacity of *pp to exactly n items, keeping the first n. */
void bigarray_resize(void *pp, size_t *cap, size_t n, size_t elem);
/* Frees p, of capacity cap items (p may be NULL). */
void bigarray_free(void *p, size_t cap, size_t elem);

#endif
