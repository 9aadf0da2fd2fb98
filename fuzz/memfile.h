/*
 * memfile — the fuzz targets' input as a file: written to a memfd, so that
 * it is opened by path exactly as the command line opens a file.
 */
#ifndef GANTTY_FUZZ_MEMFILE_H
#define GANTTY_FUZZ_MEMFILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/*
 * Writes data[0..size) to a new memfd named name and its path into
 * path[0..n); returns the descriptor (the caller closes it).  Aborts when
 * that fails: the fuzzer's environment, not the code under test, is broken.
 */
static inline int
memfile(const char *name, const uint8_t *data, size_t size, char *path,
    size_t n)
{
	int fd = memfd_create(name, 0);

	if (fd < 0)
		abort();
	for (size_t done = 0; done < size;) {
		ssize_t w = write(fd, data + done, size - done);

		if (w <= 0)
			abort();
		done += (size_t)w;
	}
	snprintf(path, n, "/proc/self/fd/%d", fd);
	return fd;
}

#endif
