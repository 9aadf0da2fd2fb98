/*
 * heap — how malloc() serves gantty: lean while traces load, fast while
 * they are analysed.
 *
 * While traces load, a block of 128 kB or more is a mapping of its own,
 * given back when freed (the loader's growing arrays go through
 * bigarray.h), so that what a load frees is not kept resident beside what
 * it builds.
 *
 * The analysis then allocates and frees some hundred arrays of up to a few
 * MB (the device's activities and busy sets, the launch index, the op map,
 * the layers, the findings' scratch), each of which, as a mapping of its
 * own, pays a page fault per 4 kB page written: 13,000 when a 1 GB trace
 * reopens from its cache, at some 5 us each on the virtual machine of
 * bench/RESULTS.md, half the reopen.  heap_analysis() gives the analysis
 * one heap in huge pages instead, kept when freed: 1,400 faults, and that
 * reopen 0.25 s -> 0.13 s (bench/RESULTS.md, session 15).  What it costs
 * is memory: a huge page is resident in full once touched, some 3 MB more
 * at the peak of the first load of that trace (189-190 MB -> 191-194 MB,
 * the peak now the analysis').
 *
 * Every thread allocates from that one heap: glibc gives each thread an
 * arena of its own otherwise (the analysis' threads would get the loader's,
 * in small pages; 0.17 s instead of 0.14 s at that reopen).  That is why
 * the load's threshold is 128 kB and not glibc's 1 MB before: 64 loader
 * threads sharing one heap left 10 MB more of their 256 kB buffers in it.
 *
 * All of it is glibc's mallopt(): elsewhere these do nothing and malloc()
 * behaves as it always does; so do the sanitizers' and valgrind's
 * allocators, which ignore them (heap_analysis() then only allocates and
 * frees up to 64 MB once).
 */
#ifndef GANTTY_HEAP_H
#define GANTTY_HEAP_H

#include <stddef.h>

/* Once, first thing in main(), before any thread starts: the load's settings. */
void heap_init(void);

/*
 * Once the traces are loaded, before they are analysed, with model_bytes
 * about what their models take: blocks below 32 MB come from the heap from
 * here on and stay there when freed, and the heap grows by model_bytes
 * (between 32 MB and 1 GB; address space only, until written) asking for
 * huge pages.  Called again, it does nothing.
 */
void heap_analysis(size_t model_bytes);

#endif
