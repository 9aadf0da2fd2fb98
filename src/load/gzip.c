/*
 * gzip.c — gzip data inflated for the reader: by ISA-L (isal_inflate(),
 * several times faster than zlib) where configure found it and the file is
 * a regular file, else by zlib.
 *
 * zlib is the reference for everything but speed.  A member that ISA-L
 * cannot finish (corrupt data, a bad checksum, a header it does not read, a
 * stream cut short) is inflated again by zlib from the member's first byte
 * (the file is read there again), the bytes ISA-L already gave skipped, and
 * zlib reads on to the end of the file: what the reader gets, the byte a
 * message names and every warning are zlib's.  Concatenated members are
 * read in turn; anything else after a member is counted as trailing bytes.
 * Both inflaters take their input from rd->in through rd->z.next_in and
 * rd->z.avail_in, so that fill_input() serves both.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#ifdef HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

#include "load/load.h"
#include "load/load_int.h"
#include "base/xalloc.h"

/*
 * Reads up to size raw bytes of the file into dst; 0 at the end.  A read
 * error ends the data too, with rd->bad set.
 */
size_t
rd_raw_read(struct reader *rd, void *dst, size_t size)
{
	for (;;) {
		ssize_t n = read(rd->fd, dst, size);

		if (n >= 0) {
			rd->raw_read += (uint64_t)n;
			return (size_t)n;
		}
		if (errno == EINTR)
			continue;
		rd->bad = 1;
		snprintf(rd->badmsg, sizeof rd->badmsg, "read error at byte %llu: %s",
		    (unsigned long long)rd->raw_read, strerror(errno));
		return 0;
	}
}

/* Moves the unread compressed input to the front and reads more after it. */
void
rd_fill_input(struct reader *rd)
{
	size_t have = rd->z.avail_in, n;

	if (rd->in_eof)
		return;
	memmove(rd->in, rd->z.next_in, have);
	n = rd_raw_read(rd, rd->in + have, RD_IN_CHUNK - have);
	if (n == 0)
		rd->in_eof = 1;
	rd->z.next_in = rd->in;
	rd->z.avail_in = (uInt)(have + n);
}

static void
gz_corrupt(struct reader *rd, const char *why)
{
	rd->bad = 1;
	rd->z_done = 1;
	snprintf(rd->badmsg, sizeof rd->badmsg,
	    "corrupt gzip data at compressed byte %llu: %s",
	    (unsigned long long)(rd->raw_read - rd->z.avail_in),
	    why != NULL ? why : "unknown error");
}

/*
 * After a member's end: another member starts (1), or the data ended (0,
 * z_done set; anything but another member counted as trailing bytes).
 */
static int
gz_next_member(struct reader *rd)
{
	uint64_t n;

	if (rd->z.avail_in < 2)
		rd_fill_input(rd);
	if (rd->z.avail_in == 0) {
		rd->z_done = 1;
		return 0;
	}
	if (rd->z.avail_in >= 2 && rd->z.next_in[0] == 0x1f &&
	    rd->z.next_in[1] == 0x8b)
		return 1;
	n = rd->z.avail_in;
	rd->z.avail_in = 0;
	while (rd_fill_input(rd), rd->z.avail_in > 0) {
		n += rd->z.avail_in;
		rd->z.avail_in = 0;
	}
	rd->gz_trailing += n;
	rd->z_done = 1;
	return 0;
}

/*
 * zlib: inflates up to size bytes into dst; returns how many, 0 at the
 * end.  Every byte inflated before corrupt data is kept (zlib's gzread()
 * would drop the last call's output); a cut-off stream simply ends, and
 * the JSON reader counts what it could not use.
 */
static size_t
zlib_read(struct reader *rd, char *dst, size_t size)
{
	rd->z.next_out = (unsigned char *)dst;
	rd->z.avail_out = (uInt)(size > UINT32_MAX ? UINT32_MAX : size);
	while (!rd->z_done && rd->z.next_out == (unsigned char *)dst) {
		int zr;

		if (rd->z.avail_in == 0)
			rd_fill_input(rd);
		/*
		 * Even with no input left: what zlib decoded but had no room
		 * for when dst was last full still comes out.
		 */
		zr = inflate(&rd->z, Z_NO_FLUSH);
		if (zr == Z_STREAM_END) {
			if (gz_next_member(rd))
				inflateReset(&rd->z);
		} else if (zr == Z_MEM_ERROR) {
			xalloc_die("inflating gzip data");
		} else if (zr != Z_OK && zr != Z_BUF_ERROR) {
			gz_corrupt(rd, rd->z.msg);
		} else if (rd->z.avail_in == 0 && rd->in_eof &&
		    rd->z.next_out == (unsigned char *)dst) {
			rd->z_done = rd->gz_cut = 1;    /* cut short in a member */
		}
	}
	return (size_t)((char *)rd->z.next_out - dst);
}

#ifdef HAVE_ISAL
/*
 * ISA-L gives up on the current member: zlib inflates it again from its
 * first byte, the member_out bytes ISA-L gave skipped, and reads on from
 * there.  A read error on the way back is the data's end, as any.
 */
static void
isal_fall_back(struct reader *rd)
{
	uint64_t left = rd->member_out;
	char *skip;

	free(rd->isal);
	rd->isal = NULL;
	rd->z.next_in = rd->in;
	rd->z.avail_in = 0;
	rd->in_eof = 0;
	if (lseek(rd->fd, (off_t)rd->member_raw, SEEK_SET) < 0) {
		rd->bad = 1;
		rd->z_done = 1;
		snprintf(rd->badmsg, sizeof rd->badmsg, "read error at byte %llu: %s",
		    (unsigned long long)rd->member_raw, strerror(errno));
		return;
	}
	rd->raw_read = rd->member_raw;
	inflateReset(&rd->z);
	skip = xmalloc(READ_CHUNK);
	while (left > 0 && !rd->z_done) {
		size_t n = zlib_read(rd, skip, left < READ_CHUNK ? (size_t)left : READ_CHUNK);

		if (n == 0)
			break;
		left -= n;
	}
	free(skip);
}

/*
 * Whether zlib finds the first MEMBER_CHECKED bytes of the member at
 * member_raw sound (or the whole member, or all the file holds of it).
 * ISA-L checks a distance against the bytes inflated so far lazily, after
 * giving out garbage, and only the first 32 KiB of a member can hold such
 * a distance; zlib sees it at once.  So zlib reads the start of every
 * member first (about 0.2 ms), and a member it finds corrupt there is
 * zlib's from its first byte.  rd->z is left reset.
 */
#define MEMBER_CHECKED ((size_t)64 << 10)

static int
member_start_sound(struct reader *rd)
{
	unsigned char *in = xmalloc(RD_IN_CHUNK), *out = xmalloc(MEMBER_CHECKED);
	unsigned char *next_in = rd->z.next_in;        /* the reader's input */
	uInt avail_in = rd->z.avail_in;
	ssize_t n;
	int zr = Z_OK;

	do
		n = pread(rd->fd, in, RD_IN_CHUNK, (off_t)rd->member_raw);
	while (n < 0 && errno == EINTR);
	if (n > 0) {
		inflateReset(&rd->z);
		rd->z.next_in = in;
		rd->z.avail_in = (uInt)n;
		rd->z.next_out = out;
		rd->z.avail_out = (uInt)MEMBER_CHECKED;
		zr = inflate(&rd->z, Z_NO_FLUSH);
		if (zr == Z_MEM_ERROR)
			xalloc_die("inflating gzip data");
		inflateReset(&rd->z);
		rd->z.next_in = next_in;
		rd->z.avail_in = avail_in;
	}
	free(in);
	free(out);
	return zr == Z_OK || zr == Z_STREAM_END || zr == Z_BUF_ERROR;
}

/* zlib takes over from the current member's start and reads into dst. */
static size_t
zlib_takes_over(struct reader *rd, char *dst, size_t size)
{
	isal_fall_back(rd);
	return zlib_read(rd, dst, size);
}

/* ISA-L: as zlib_read(), handing a member it cannot finish to zlib. */
static size_t
isal_read(struct reader *rd, char *dst, size_t size)
{
	struct inflate_state *s = rd->isal;
	size_t got = 0;

	while (!rd->z_done && got == 0) {
		uint8_t *in0;
		size_t made;
		int rc;

		if (rd->z.avail_in == 0) {
			rd_fill_input(rd);
			if (rd->z.avail_in == 0)        /* cut short: zlib says how */
				return zlib_takes_over(rd, dst, size);
		}
		if (rd->member_out == 0 && !rd->member_checked) {
			rd->member_checked = 1;
			if (!member_start_sound(rd))
				return zlib_takes_over(rd, dst, size);
		}
		in0 = (uint8_t *)rd->z.next_in;
		s->next_in = in0;
		s->avail_in = rd->z.avail_in;
		s->next_out = (uint8_t *)dst;
		s->avail_out = (uint32_t)(size > UINT32_MAX ? UINT32_MAX : size);
		rc = isal_inflate(s);
		made = (size_t)(s->next_out - (uint8_t *)dst);
		rd->z.next_in = s->next_in;
		rd->z.avail_in = s->avail_in;
		rd->member_out += made;
		got = made;
		if (rc != ISAL_DECOMP_OK) {
			isal_fall_back(rd);
			return got > 0 ? got : zlib_read(rd, dst, size);
		}
		if (s->block_state == ISAL_BLOCK_FINISH) {
			if (gz_next_member(rd)) {
				isal_inflate_reset(s);
				s->crc_flag = ISAL_GZIP;
				rd->member_raw = rd->raw_read - rd->z.avail_in;
				rd->member_out = 0;
				rd->member_checked = 0;
			}
		} else if (made == 0 && s->next_in == in0) {
			/* no progress: more input, or zlib decides */
			if (rd->in_eof || rd->z.avail_in >= RD_IN_CHUNK)
				return zlib_takes_over(rd, dst, size);
			rd_fill_input(rd);
		}
	}
	return got;
}
#endif

/*
 * Sets up inflating once rd_open() has seen gzip's magic: zlib always (the
 * reference, and the fallback), ISA-L first where built with it, the file
 * is a regular file (zlib may need to read a member again) and
 * GANTTY_ZLIB_ONLY is not 1.
 */
void
rd_gz_open(struct reader *rd)
{
	rd->gzip = 1;
	if (inflateInit2(&rd->z, 15 + 16) != Z_OK)
		xalloc_die("starting to inflate gzip data");
	rd->z_ready = 1;
#ifdef HAVE_ISAL
	{
		const char *e = getenv("GANTTY_ZLIB_ONLY");
		struct stat st;

		if ((e == NULL || strcmp(e, "1") != 0) &&
		    fstat(rd->fd, &st) == 0 && S_ISREG(st.st_mode) &&
		    lseek(rd->fd, 0, SEEK_CUR) == (off_t)rd->raw_read) {
			rd->isal = xmalloc(sizeof *rd->isal);
			isal_inflate_init(rd->isal);
			rd->isal->crc_flag = ISAL_GZIP;
			rd->member_raw = rd->raw_read - rd->z.avail_in;
			rd->member_out = 0;
		}
	}
#endif
}

/*
 * The inflated size of a regular gzip file, as its trailer gives it (ISIZE,
 * the last member's size mod 2^32), raised by 4 GiB until it is at least
 * the file's size; 0 when it cannot be read.  A guess for where chunks
 * start (chunks.c): a wrong one only makes them uneven.
 */
uint64_t
rd_gz_size_guess(struct reader *rd)
{
	unsigned char b[4];
	uint64_t size;

	if (rd->file_size < 18 ||
	    pread(rd->fd, b, 4, (off_t)(rd->file_size - 4)) != 4)
		return 0;
	size = (uint64_t)b[0] | (uint64_t)b[1] << 8 | (uint64_t)b[2] << 16 |
	    (uint64_t)b[3] << 24;
	while (size < rd->file_size)
		size += UINT64_C(1) << 32;
	return size;
}

/*
 * Inflates up to size bytes into dst; returns how many, 0 at the end (or
 * at corrupt data, with rd->bad and rd->badmsg set, or at a cut, with
 * rd->gz_cut set).
 */
size_t
rd_gz_read(struct reader *rd, char *dst, size_t size)
{
#ifdef HAVE_ISAL
	if (rd->isal != NULL)
		return isal_read(rd, dst, size);
#endif
	return zlib_read(rd, dst, size);
}

const char *
load_inflater(void)
{
	static char what[64];

	if (what[0] == '\0')
#ifdef HAVE_ISAL
		snprintf(what, sizeof what, "ISA-L, zlib %s for damaged data",
		    zlibVersion());
#else
		snprintf(what, sizeof what, "zlib %s", zlibVersion());
#endif
	return what;
}

/* Frees the inflaters' state. */
void
rd_gz_release(struct reader *rd)
{
#ifdef HAVE_ISAL
	free(rd->isal);
	rd->isal = NULL;
#endif
	if (rd->z_ready)
		inflateEnd(&rd->z);
	rd->z_ready = 0;
}
