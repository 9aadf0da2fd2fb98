#include "config.h"

#include "report/json.h"

#include <inttypes.h>
#include <math.h>

#include "report/emit.h"

/*
 * The writer is the only user of its FILE while it writes (a report of
 * megabytes is a million small writes: glibc's locking was a tenth of it).
 */
#ifdef __GLIBC__
#define fwrite fwrite_unlocked
#define fputs fputs_unlocked
#endif

void
json_init(struct json *j, FILE *out)
{
	j->out = out;
	j->depth = 0;
	j->keyed = 0;
}

static void
indent(struct json *j, int n)
{
	static const char spaces[] = "\n                                                                ";
	int max = (int)sizeof spaces - 2;

	/* a line break and n spaces in one or a few writes (a report of
	   megabytes is mostly indentation) */
	fwrite(spaces, 1, (size_t)(n < max ? n : max) + 1, j->out);
	for (n -= max; n > 0; n -= max)
		fwrite(spaces + 1, 1, (size_t)(n < max ? n : max), j->out);
}

/* The separator and line break before the next member of the innermost container. */
static void
member(struct json *j)
{
	struct json_level *l = &j->lv[j->depth - 1];
	int nl = l->brk != 0 ? l->brk > 0 : l->style == JSON_BLOCK;

	if (l->members > 0)
		putc_unlocked(',', j->out);
	if (nl)
		indent(j, l->style == JSON_HANG ? 2 * j->depth - 1 : 2 * j->depth);
	else if (l->members > 0)
		putc_unlocked(' ', j->out);
	l->members++;
	l->brk = 0;
}

/* Before a value: its separator when it is an element, nothing after a key. */
static void
value(struct json *j)
{
	if (j->keyed)
		j->keyed = 0;
	else if (j->depth > 0)
		member(j);
}

/* After a value: ends the output with a newline when it was the outermost. */
static void
done(struct json *j)
{
	if (j->depth == 0)
		putc_unlocked('\n', j->out);
}

static void
begin(struct json *j, enum json_style style, int object)
{
	struct json_level *l;

	value(j);
	putc_unlocked(object ? '{' : '[', j->out);
	l = &j->lv[j->depth++];
	l->style = style;
	l->object = object;
	l->members = 0;
	l->brk = 0;
}

void
json_begin_object(struct json *j, enum json_style style)
{
	begin(j, style, 1);
}

void
json_begin_array(struct json *j, enum json_style style)
{
	begin(j, style, 0);
}

void
json_end(struct json *j)
{
	struct json_level *l = &j->lv[j->depth - 1];

	if (l->brk > 0 || (l->style == JSON_BLOCK && l->members > 0))
		indent(j, 2 * (j->depth - 1));
	putc_unlocked(l->object ? '}' : ']', j->out);
	j->depth--;
	done(j);
}

void
json_key(struct json *j, const char *key)
{
	member(j);
	emit_json_str(j->out, key);
	fputs(": ", j->out);
	j->keyed = 1;
}

/* Writes v in decimal, with a minus sign when neg (as printf's %d would). */
static void
put_decimal(FILE *out, uint64_t v, int neg)
{
	char buf[24], *p = buf + sizeof buf;

	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	if (neg)
		*--p = '-';
	fwrite(p, 1, (size_t)(buf + sizeof buf - p), out);
}

void
json_int(struct json *j, int64_t v)
{
	value(j);
	/* the magnitude in unsigned arithmetic: INT64_MIN has no positive */
	put_decimal(j->out, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, v < 0);
	done(j);
}

void
json_uint(struct json *j, uint64_t v)
{
	value(j);
	put_decimal(j->out, v, 0);
	done(j);
}

void
json_double(struct json *j, const char *fmt, double v)
{
	value(j);
	/* JSON has no infinity or NaN: such a number is unknown, null */
	if (isfinite(v))
		fprintf(j->out, fmt, v);
	else
		fputs("null", j->out);
	done(j);
}

void
json_str(struct json *j, const char *s)
{
	value(j);
	emit_json_str(j->out, s);
	done(j);
}

void
json_boolean(struct json *j, int v)
{
	value(j);
	fputs(v ? "true" : "false", j->out);
	done(j);
}

void
json_null(struct json *j)
{
	value(j);
	fputs("null", j->out);
	done(j);
}

void
json_int_or_null(struct json *j, int has, int64_t v)
{
	if (has)
		json_int(j, v);
	else
		json_null(j);
}

void
json_newline(struct json *j)
{
	j->lv[j->depth - 1].brk = 1;
}

void
json_sameline(struct json *j)
{
	j->lv[j->depth - 1].brk = -1;
}
