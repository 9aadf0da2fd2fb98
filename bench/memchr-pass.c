/*
 * memchr-pass — a floor under gantty's first load in bench/run: one pass of
 * memchr over the file, read in 1 MB read()s, counting one byte.
 *
 *   bench/memchr-pass [-n] FILE
 *
 * Prints how many '{' FILE holds (with -n, how many '\n'): every byte read
 * into user space and looked at once with the C library's fastest search,
 * which no JSON reader can undercut.  The file is taken as bytes: a gzip
 * file is counted compressed (bench/run does not run it on one).
 *
 * Exit status 0, or 1 with a message on stderr when the file cannot be
 * opened or read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHUNK (1 << 20)

/*
 * count_byte: how many bytes equal to C the file open on FD holds from its
 * offset to its end, into *N.  BUF is CHUNK bytes of scratch.  Returns 0,
 * or -1 with errno set by read() (*N is then a partial count).
 */
static int count_byte(int fd, int c, char *buf, uint64_t *n)
{
	uint64_t count = 0;
	for (;;) {
		ssize_t got = read(fd, buf, CHUNK);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			*n = count;
			return -1;
		}
		if (got == 0)
			break;
		const char *p = buf, *end = buf + got;
		while ((p = memchr(p, c, end - p)) != NULL) {
			count++;
			p++;
		}
	}
	*n = count;
	return 0;
}

int main(int argc, char **argv)
{
	int c = '{';
	int i = 1;
	if (i < argc && strcmp(argv[i], "-n") == 0) {
		c = '\n';
		i++;
	}
	if (i != argc - 1) {
		fprintf(stderr, "usage: memchr-pass [-n] FILE\n");
		return 1;
	}
	const char *path = argv[i];
	int fd = open(path, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "memchr-pass: %s: cannot open: %s\n", path, strerror(errno));
		return 1;
	}
	char *buf = malloc(CHUNK);
	if (buf == NULL) {
		fprintf(stderr, "memchr-pass: out of memory (%d bytes)\n", CHUNK);
		return 1;
	}
	uint64_t n;
	if (count_byte(fd, c, buf, &n) < 0) {
		fprintf(stderr, "memchr-pass: %s: cannot read: %s\n", path, strerror(errno));
		return 1;
	}
	printf("%llu\n", (unsigned long long)n);
	free(buf);
	close(fd);
	return 0;
}
