#include "config.h"

#include "base/heap.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD) && defined(M_TOP_PAD) && \
    defined(M_ARENA_MAX) && defined(MADV_HUGEPAGE)
#define HEAP_TUNED 1
#endif

#ifdef HEAP_TUNED
/* The kernel's huge page. */
#define HUGE_PAGE ((uintptr_t)2 << 20)
/* While loading, blocks from here on are mappings of their own. */
#define LOAD_MMAP_MIN (128 << 10)
/* While analysing: glibc's largest (HEAP_MAX_SIZE / 2 on 64 bits). */
#define ANALYSIS_MMAP_MIN (32 << 20)
/* The huge-page heap: at least, at most (address space, not memory). */
#define GROW_MIN ((size_t)32 << 20)
#define GROW_MAX ((size_t)1 << 30)
/* Blocks allocated, at most, to make the heap grow (then freed). */
#define GROW_STEP ((size_t)256 << 10)
#define GROW_TRIES 256
#endif

void
heap_init(void)
{
#ifdef HEAP_TUNED
	/*
	 * A threshold that stays: glibc's default raises it up to 32 MB as
	 * big blocks are freed, after which the loader's temporary arrays
	 * stay in the heap (8% more peak memory at 1 GB).  One arena: see
	 * heap.h.
	 */
	mallopt(M_MMAP_THRESHOLD, LOAD_MMAP_MIN);
	mallopt(M_ARENA_MAX, 1);
#endif
}

void
heap_analysis(size_t model_bytes)
{
#ifdef HEAP_TUNED
	static int done;
	size_t pad = model_bytes < GROW_MIN ? GROW_MIN :
	    model_bytes > GROW_MAX ? GROW_MAX : model_bytes;
	void *blocks[GROW_TRIES];
	size_t n = 0;
	uintptr_t lo, hi, before;

	if (done)
		return;
	done = 1;
	mallopt(M_MMAP_THRESHOLD, ANALYSIS_MMAP_MIN);
	/*
	 * The heap grows by pad at the next block it cannot serve, and is
	 * trimmed back to no less than pad beyond its last block in use: what
	 * is madvised below stays the heap's.
	 */
	if (mallopt(M_TOP_PAD, (int)pad) == 0)         /* pad <= GROW_MAX fits */
		return;
	before = (uintptr_t)sbrk(0);
	/* Blocks of the heap until it grows (a heap just loaded has little free). */
	while (n < GROW_TRIES && (uintptr_t)sbrk(0) == before) {
		if ((blocks[n] = malloc(GROW_STEP)) == NULL)
			break;
		n++;
	}
	hi = (uintptr_t)sbrk(0);
	while (n > 0)
		free(blocks[--n]);
	if (before == (uintptr_t)-1 || hi <= before)
		return;         /* not grown: another allocator, or no room */
	lo = (before + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	hi &= ~(HUGE_PAGE - 1);
	if (hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);      /* a hint */
#else
	(void)model_bytes;
#endif
}
