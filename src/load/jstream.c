/* jstream — a JSON document as a stream of small values; see jstream.h. */
#include "config.h"

#include "load/jstream.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/load.h"
#include "load/load_int.h"
#include "model/trace.h"
#include "base/xalloc.h"

/* One value of a report: a step or a collective, a few hundred bytes. */
#define VALUE_LIMIT ((uint64_t)16 << 20)

struct jstream {
	struct reader rd;
	struct trace t;         /* the reader counts trailing gzip bytes here */
	struct load_error err;
	char *path;
};

struct jstream *
jstream_open(const char *path, size_t value_limit, char *err, size_t errsize)
{
	struct jstream *s = xcalloc(1, sizeof *s);
	int fd = load_open(path, &s->err);

	if (fd < 0) {
		snprintf(err, errsize, "%s", s->err.msg);
		free(s);
		return NULL;
	}
	s->path = xstrdup(path);
	trace_init(&s->t, path);
	rd_init(&s->rd, fd, s->path, &s->t, &s->err);
	s->rd.value_limit = value_limit > 0 ? value_limit : VALUE_LIMIT;
	rd_open(&s->rd);
	/* A UTF-8 byte order mark, as a trace may start with. */
	if (rd_refill(&s->rd) && s->rd.len >= 3 &&
	    memcmp(s->rd.buf, "\xef\xbb\xbf", 3) == 0)
		s->rd.pos = 3;
	return s;
}

void
jstream_close(struct jstream *s)
{
	if (s == NULL)
		return;
	rd_release(&s->rd);
	trace_free(&s->t);
	free(s->path);
	free(s);
}

int
jstream_peek(struct jstream *s)
{
	return rd_peek(&s->rd);
}

void
jstream_next(struct jstream *s)
{
	if (s->rd.pos < s->rd.len)
		s->rd.pos++;
}

uint64_t
jstream_offset(const struct jstream *s)
{
	return rd_offset(&s->rd);
}

/* The message "FILE: byte N: what" for offset off. */
static void
fail_at(struct jstream *s, uint64_t off, const char *what)
{
	snprintf(s->err.msg, sizeof s->err.msg, "%s: byte %llu: %s", s->path,
	    (unsigned long long)off, what);
}

void
jstream_fail(struct jstream *s, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	fail_at(s, rd_offset(&s->rd), what);
}

const char *
jstream_error(const struct jstream *s)
{
	return s->err.msg;
}

/* The end of the data where a value should be: cut short, or corrupt gzip. */
static int
ended(struct jstream *s)
{
	if (s->rd.bad)
		jstream_fail(s, "not JSON (%s)", s->rd.badmsg);
	else if (rd_offset(&s->rd) == 0)
		jstream_fail(s, "not JSON (an empty file)");
	else
		jstream_fail(s, "not JSON (the data ends inside a value: cut short)");
	return -1;
}

int
jstream_expect(struct jstream *s, const char *chars, const char *what)
{
	int c = rd_peek(&s->rd);

	if (c > 0 && strchr(chars, c) != NULL) {
		s->rd.pos++;
		return c;
	}
	if (c < 0)
		return ended(s);
	jstream_fail(s, "not JSON (expected %s)", what);
	return -1;
}

int
jstream_value(struct jstream *s, json_object **out)
{
	int r;

	*out = NULL;
	if (rd_peek(&s->rd) < 0)
		return ended(s);
	r = rd_value(&s->rd, out);
	if (r == RD_OK)
		return 0;
	if (r == RD_EOF)
		return ended(s);
	if (r == RD_DEEP) {
		jstream_fail(s, "a value nested deeper than %d levels", MAX_DEPTH);
	} else {
		const char *why = s->rd.err_what;
		char what[700];

		if (strncmp(why, "invalid JSON: ", 14) == 0)
			snprintf(what, sizeof what, "not JSON (%s)", why + 14);
		else
			snprintf(what, sizeof what, "%s", why);
		fail_at(s, s->rd.err_off, what);
	}
	return -1;
}

int
jstream_skip(struct jstream *s)
{
	int c = rd_peek(&s->rd);
	json_object *o;

	if (c < 0)
		return ended(s);
	if (c == '[' || c == '{')
		return rd_skip(&s->rd) == RD_OK ? 0 : ended(s);
	if (jstream_value(s, &o) < 0)
		return -1;
	json_object_put(o);
	return 0;
}
