#include "config.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/heap.h"

/*
 * The flags of the mapping holding p, from /proc/self/smaps, into flags;
 * whether its name is [heap] in *is_heap.  0, or -1 when p is in none.
 */
static int
mapping_of(const void *p, char *flags, size_t size, int *is_heap)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	int in = 0, found = -1;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') <
		    strchr(line, ' ')) {
			in = (uintptr_t)p >= lo && (uintptr_t)p < hi;
			if (in)
				*is_heap = strstr(line, "[heap]") != NULL;
		} else if (in && strncmp(line, "VmFlags:", 8) == 0) {
			snprintf(flags, size, "%s", line + 8);
			found = 0;
			break;
		}
	}
	fclose(f);
	return found;
}

/* Whether the kernel can give huge pages to a mapping that asks. */
static int
thp_possible(void)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	char line[128] = "";

	if (f == NULL)
		return 0;
	if (fgets(line, sizeof line, f) == NULL)
		line[0] = '\0';
	fclose(f);
	return strstr(line, "[never]") == NULL && line[0] != '\0';
}

/*
 * After heap_analysis(), a block of a few MB (a mapping of its own while
 * loading) comes from the heap, in the part that asked for huge pages
 * ("hg" in smaps), and survives being written; a second call changes
 * nothing (the heap does not grow again).
 */
Test(heap, analysis_blocks_come_from_the_huge_page_heap)
{
	char flags[512], before[512];
	int is_heap = 0;
	unsigned char *p;
	void *brk1;
	size_t len = (size_t)6 << 20;

#ifndef __GLIBC__
	cr_skip_test("malloc is not glibc's: heap.h does nothing");
#endif
	heap_init();
	p = malloc(len);
	cr_assert_not_null(p);
	cr_assert_eq(mapping_of(p, before, sizeof before, &is_heap), 0);
	cr_assert(!is_heap, "while loading, %zu bytes are a mapping of their own", len);
	free(p);

	heap_analysis((size_t)64 << 20);
	brk1 = sbrk(0);
	p = malloc(len);
	cr_assert_not_null(p);
	memset(p, 0xa5, len);
	/* its middle: the hint starts at the first 2 MB boundary past the heap's old end */
	cr_assert_eq(mapping_of(p + len / 2, flags, sizeof flags, &is_heap), 0);
	if (!is_heap)
		cr_skip_test("another allocator (a sanitizer's, valgrind's) serves malloc()");
	if (!thp_possible())
		cr_skip_test("transparent huge pages are off here");
	cr_assert(strstr(flags, " hg") != NULL, "no huge-page hint: VmFlags:%s", flags);
	for (size_t i = 0; i < len; i += 4096)
		if (p[i] != 0xa5)
			cr_assert_fail("byte %zu lost", i);
	free(p);
	heap_analysis((size_t)64 << 20);
	cr_assert_eq(sbrk(0), brk1, "a second heap_analysis() grew the heap");
}
