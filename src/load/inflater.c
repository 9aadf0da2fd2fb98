/*
 * inflater.c — the inflater thread: with two threads or more, gzip data is
 * inflated ahead of the reader into a ring of blocks (see below for what
 * each thread may touch).
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "load/load_int.h"
#include "base/xalloc.h"
#include "base/job.h"

/*
 * With more than one thread, gzip data is inflated by a thread of its own
 * into a ring of blocks that rd_read() copies from, so inflating overlaps
 * decoding.  Only the inflater touches the zlib state and what rd_gz_read()
 * sets (bad, badmsg, gz_cut, raw_read, gz_trailing) until it has
 * delivered the end; the reader looks at those only after it has seen the
 * end (or stopped the inflater).
 */
#define NBLOCK 4

struct inflater {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	char *data[NBLOCK];
	size_t len[NBLOCK];
	uint64_t raw[NBLOCK];   /* compressed bytes read once the block was full */
	uint64_t head, tail;    /* blocks tail..head-1 (mod NBLOCK) are full */
	size_t pos;             /* the reader's position in block tail */
	int done;               /* every block is delivered */
	int quit;               /* the reader wants no more */
	struct reader *rd;
};

static void *
inflater_main(void *arg)
{
	struct inflater *in = arg;

	for (;;) {
		size_t slot, filled = 0, n = 1;

		pthread_mutex_lock(&in->mu);
		while (in->head - in->tail >= NBLOCK && !in->quit)
			pthread_cond_wait(&in->cv, &in->mu);
		if (in->quit) {
			pthread_mutex_unlock(&in->mu);
			return NULL;
		}
		pthread_mutex_unlock(&in->mu);
		slot = in->head % NBLOCK;
		while (filled < READ_CHUNK &&
		    (n = rd_gz_read(in->rd, in->data[slot] + filled, READ_CHUNK - filled)) > 0)
			filled += n;
		pthread_mutex_lock(&in->mu);
		if (filled > 0) {
			in->len[slot] = filled;
			in->raw[slot] = in->rd->raw_read;
			in->head++;
		}
		if (n == 0)
			in->done = 1;
		pthread_cond_broadcast(&in->cv);
		pthread_mutex_unlock(&in->mu);
		if (n == 0)
			return NULL;
	}
}

/* Starts inflating rd's gzip data in a thread; NULL (inflate here) if it cannot. */
struct inflater *
inflater_start(struct reader *rd)
{
	struct inflater *in = xcalloc(1, sizeof *in);

	in->rd = rd;
	for (int i = 0; i < NBLOCK; i++)
		in->data[i] = xmalloc(READ_CHUNK);
	pthread_mutex_init(&in->mu, NULL);
	pthread_cond_init(&in->cv, NULL);
	if (job_thread(&in->thread, inflater_main, in) != 0) {
		pthread_cond_destroy(&in->cv);
		pthread_mutex_destroy(&in->mu);
		for (int i = 0; i < NBLOCK; i++)
			free(in->data[i]);
		free(in);
		return NULL;
	}
	return in;
}

/* Copies up to size inflated bytes to dst; 0 at the end. */
size_t
inflater_read(struct inflater *in, char *dst, size_t size, uint64_t *raw)
{
	size_t slot, n;

	pthread_mutex_lock(&in->mu);
	while (in->tail == in->head && !in->done)
		pthread_cond_wait(&in->cv, &in->mu);
	if (in->tail == in->head) {
		pthread_mutex_unlock(&in->mu);
		return 0;
	}
	pthread_mutex_unlock(&in->mu);
	slot = in->tail % NBLOCK;
	n = in->len[slot] - in->pos < size ? in->len[slot] - in->pos : size;
	memcpy(dst, in->data[slot] + in->pos, n);
	in->pos += n;
	*raw = in->raw[slot];
	if (in->pos == in->len[slot]) {
		pthread_mutex_lock(&in->mu);
		in->tail++;
		in->pos = 0;
		pthread_cond_broadcast(&in->cv);
		pthread_mutex_unlock(&in->mu);
	}
	return n;
}

/* Stops the inflater (wherever it is) and frees it. */
void
inflater_stop(struct reader *rd)
{
	struct inflater *in = rd->inflater;

	if (in == NULL)
		return;
	pthread_mutex_lock(&in->mu);
	in->quit = 1;
	pthread_cond_broadcast(&in->cv);
	pthread_mutex_unlock(&in->mu);
	pthread_join(in->thread, NULL);
	pthread_cond_destroy(&in->cv);
	pthread_mutex_destroy(&in->mu);
	for (int i = 0; i < NBLOCK; i++)
		free(in->data[i]);
	free(in);
	rd->inflater = NULL;
}

