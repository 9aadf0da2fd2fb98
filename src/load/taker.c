/*
 * taker.c — the taker thread.  With two threads, the reader (the loading
 * thread) reads, inflates and decodes, and a taker thread takes what it
 * decoded into the model, in file order.  While reading, every change to
 * the trace is an op: applied at once with one thread, else queued in
 * batches for the taker.  rd_sync() waits until the taker has caught up;
 * the reader calls it before it looks at the trace itself.  Ops own what
 * they carry (json-c objects, keys).
 */
#include "config.h"

#include <json-c/json.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "load/jscan.h"
#include "load/chunk.h"
#include "load/load_int.h"
#include "model/trace.h"
#include "base/xalloc.h"
#include "base/job.h"

/* One decoded field in a batch arena, followed by its text (strings, doubles). */
struct op_field {
	int64_t i;
	uint32_t len;
	uint8_t field, type;
};

struct batch {
	struct op *ops;
	size_t nops, ops_cap;
	char *arena;            /* op_fields and texts, 8-byte aligned */
	size_t used, cap;
	size_t objects;         /* json-c values held (kept few: they are big) */
};

#define NBATCH 3
#define BATCH_OPS 4096
#define BATCH_BYTES ((size_t)512 << 10)
#define BATCH_OBJECTS 256

struct taker {
	struct jscan js;        /* decodes args */
	json_tokener *tok;      /* for events whose args jscan declines */
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct batch b[NBATCH];
	uint64_t head, tail;    /* batches tail..head-1 (mod NBATCH) are queued; head is filled */
	int quit;
	struct reader *rd;
};

/* Applies one op to the trace (f: the decoded fields of OP_JSCAN). */
void
taker_op_apply(struct reader *rd, const struct op *op, const struct jval *f)
{
	struct trace *t = rd->t;

	t->src_off = op->src_off;       /* where the events it adds start */
	switch (op->kind) {
	case OP_JSCAN:
		rd->phased += (uint64_t)event_jscan_take(t, f);
		break;
	case OP_JSONC:
		rd->phased += (uint64_t)event_jsonc_take(t, op->obj);
		json_object_put(op->obj);
		break;
	case OP_DEEP_OBJECT:
		t->objects++;
		t->warn.too_deep++;
		break;
	case OP_DEEP_OTHER:
		t->warn.non_object_events++;
		break;
	case OP_HEADER:
		event_jsonc_header(t, op->key, op->obj);
		json_object_put(op->obj);
		free(op->key);
		break;
	case OP_HEADER_DEEP:
		t->warn.too_deep++;
		break;
	}
}

/*
 * Decodes the args of a queued event into f (its other fields), adding the
 * fields set to set[*nset]; returns 0 when jscan declines them, after
 * taking the event through json-c.
 */
static int
taker_args(struct taker *tk, const struct batch *b, const struct op *op,
    struct jval *f, uint8_t *set, int *nset)
{
	const char *raw = b->arena + op->raw;
	json_object *obj;

	if (jscan_args(&tk->js, raw + op->args_off, op->args_len) == JSCAN_OK) {
		for (int i = 0; i < tk->js.npresent; i++) {
			int k = tk->js.present[i];

			f[k] = tk->js.f[k];
			set[(*nset)++] = (uint8_t)k;
		}
		return 1;
	}
	/*
	 * The reader validated the event (standard JSON, not deep), so json-c
	 * parses it whole, just as it would have in the stream.
	 */
	json_tokener_reset(tk->tok);
	obj = json_tokener_parse_ex(tk->tok, raw, (int)op->raw_len);
	tk->rd->phased += (uint64_t)event_jsonc_take(tk->rd->t, obj);
	json_object_put(obj);
	return 0;
}

/* Applies the ops of a batch and empties it. */
static void
batch_apply(struct taker *tk, struct batch *b)
{
	struct reader *rd = tk->rd;
	struct jval f[JF_COUNT];
	uint8_t set[2 * JF_COUNT];      /* the fields of f set for this op */
	int nset = 0;

	memset(f, 0, sizeof f);
	for (size_t i = 0; i < b->nops; i++) {
		const struct op *op = &b->ops[i];

		while (nset > 0)
			f[set[--nset]].type = JV_ABSENT;
		if (op->kind == OP_JSCAN) {
			size_t off = op->off;

			for (uint32_t k = 0; k < op->nfields; k++) {
				const struct op_field *of = (const void *)(b->arena + off);
				struct jval *v = &f[of->field];

				set[nset++] = of->field;
				v->type = of->type;
				v->i = of->i;
				v->len = of->len;
				v->s = b->arena + off + sizeof *of;
				off += sizeof *of;
				if (of->type == JV_STRING || of->type == JV_DOUBLE)
					off += (of->len + 1 + 7) & ~(size_t)7;
			}
			rd->t->src_off = op->src_off;
			if (op->raw_len > 0 && !taker_args(tk, b, op, f, set, &nset))
				continue;
		}
		taker_op_apply(rd, op, f);
	}
	b->nops = 0;
	b->used = 0;
	b->objects = 0;
}

static void *
taker_main(void *arg)
{
	struct taker *tk = arg;

	pthread_mutex_lock(&tk->mu);
	for (;;) {
		struct batch *b;

		while (tk->tail == tk->head && !tk->quit)
			pthread_cond_wait(&tk->cv, &tk->mu);
		if (tk->tail == tk->head)
			break;
		b = &tk->b[tk->tail % NBATCH];
		pthread_mutex_unlock(&tk->mu);
		batch_apply(tk, b);
		pthread_mutex_lock(&tk->mu);
		tk->tail++;
		pthread_cond_broadcast(&tk->cv);
	}
	pthread_mutex_unlock(&tk->mu);
	return NULL;
}

/* Queues the batch being filled (if it holds anything) for the taker. */
static void
taker_submit(struct taker *tk)
{
	if (tk->b[tk->head % NBATCH].nops == 0)
		return;
	pthread_mutex_lock(&tk->mu);
	tk->head++;
	pthread_cond_broadcast(&tk->cv);
	while (tk->head - tk->tail >= NBATCH)   /* the next one is still queued */
		pthread_cond_wait(&tk->cv, &tk->mu);
	pthread_mutex_unlock(&tk->mu);
}

/* Starts a taker for rd; returns NULL (take ops at once) if it cannot. */
struct taker *
taker_start(struct reader *rd)
{
	struct taker *tk = xcalloc(1, sizeof *tk);

	tk->rd = rd;
	jscan_init(&tk->js);
	tk->tok = rd_tokener();
	pthread_mutex_init(&tk->mu, NULL);
	pthread_cond_init(&tk->cv, NULL);
	if (job_thread(&tk->thread, taker_main, tk) != 0) {
		pthread_cond_destroy(&tk->cv);
		pthread_mutex_destroy(&tk->mu);
		json_tokener_free(tk->tok);
		free(tk);
		return NULL;
	}
	/* the taker decodes args: the reader has the rest */
	rd->js.defer_args = 1;
	return tk;
}

/* Waits until the taker has applied every op so far. */
void
rd_sync(struct reader *rd)
{
	struct taker *tk = rd->taker;

	if (tk == NULL)
		return;
	taker_submit(tk);
	pthread_mutex_lock(&tk->mu);
	while (tk->tail != tk->head)
		pthread_cond_wait(&tk->cv, &tk->mu);
	pthread_mutex_unlock(&tk->mu);
}

/* Applies every op, stops the taker and frees it. */
void
taker_stop(struct reader *rd)
{
	struct taker *tk = rd->taker;

	if (tk == NULL)
		return;
	rd_sync(rd);
	pthread_mutex_lock(&tk->mu);
	tk->quit = 1;
	pthread_cond_broadcast(&tk->cv);
	pthread_mutex_unlock(&tk->mu);
	pthread_join(tk->thread, NULL);
	pthread_cond_destroy(&tk->cv);
	pthread_mutex_destroy(&tk->mu);
	for (int i = 0; i < NBATCH; i++) {
		free(tk->b[i].ops);
		free(tk->b[i].arena);
	}
	jscan_free(&tk->js);
	json_tokener_free(tk->tok);
	free(tk);
	rd->taker = NULL;
}

/*
 * The batch to add an op of up to bytes arena bytes to (holding a json-c
 * value if obj), submitting a full one.
 */
static struct batch *
taker_batch(struct taker *tk, size_t bytes, int obj)
{
	struct batch *b = &tk->b[tk->head % NBATCH];

	if (b->nops >= BATCH_OPS || (b->used > 0 && b->used + bytes > BATCH_BYTES) ||
	    (obj && b->objects >= BATCH_OBJECTS)) {
		taker_submit(tk);
		b = &tk->b[tk->head % NBATCH];
	}
	xgrow(&b->ops, &b->ops_cap, b->nops + 1, sizeof *b->ops);
	xgrow(&b->arena, &b->cap, b->used + bytes, 1);
	b->objects += obj != 0;
	return b;
}

/* Applies op now (one thread) or queues it for the taker. */
void
rd_emit(struct reader *rd, int kind, json_object *obj, char *key)
{
	struct op op = { .kind = kind, .obj = obj, .key = key,
		.src_off = kind == OP_JSONC ? rd->obj_off : UINT64_MAX };

	if (rd->chunk != NULL && (kind == OP_HEADER || kind == OP_HEADER_DEEP)) {
		chunk_defer(rd->chunk, &op);
		return;
	}
	if (rd->taker == NULL) {
		taker_op_apply(rd, &op, NULL);
	} else {
		struct batch *b = taker_batch(rd->taker, 0, obj != NULL);

		b->ops[b->nops++] = op;
	}
}

/* Applies or queues the event rd->js decoded from the len bytes at raw. */
void
rd_emit_jscan(struct reader *rd, const char *raw, size_t len)
{
	const struct jval *f = rd->js.f;
	struct batch *b;
	struct op *op;
	size_t bytes = 0, raw_len = rd->js.args_len > 0 ? len : 0;

	if (rd->taker == NULL) {
		struct op now = { .kind = OP_JSCAN, .src_off = rd->obj_off };

		taker_op_apply(rd, &now, f);
		return;
	}
	for (int i = 0; i < rd->js.npresent; i++) {
		int k = rd->js.present[i];

		bytes += sizeof(struct op_field);
		if (f[k].type == JV_STRING || f[k].type == JV_DOUBLE)
			bytes += (f[k].len + 1 + 7) & ~(size_t)7;
	}
	bytes += (raw_len + 7) & ~(size_t)7;
	b = taker_batch(rd->taker, bytes, 0);
	op = &b->ops[b->nops++];
	memset(op, 0, sizeof *op);
	op->kind = OP_JSCAN;
	op->src_off = rd->obj_off;
	if (raw_len > 0) {
		op->raw = b->used;
		op->raw_len = raw_len;
		op->args_off = rd->js.args_off;
		op->args_len = rd->js.args_len;
		memcpy(b->arena + b->used, raw, raw_len);
		b->used += (raw_len + 7) & ~(size_t)7;
	}
	op->off = b->used;
	for (int i = 0; i < rd->js.npresent; i++) {
		int k = rd->js.present[i];
		struct op_field *of = (void *)(b->arena + b->used);

		of->i = f[k].i;
		of->len = (uint32_t)f[k].len;
		of->field = (uint8_t)k;
		of->type = f[k].type;
		b->used += sizeof *of;
		if (f[k].type == JV_STRING || f[k].type == JV_DOUBLE) {
			memcpy(b->arena + b->used, f[k].s, f[k].len);
			b->arena[b->used + f[k].len] = '\0';
			b->used += (f[k].len + 1 + 7) & ~(size_t)7;
		}
		op->nfields++;
	}
}

