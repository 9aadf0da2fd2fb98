#include "config.h"

#include "load/jscan.h"

#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "base/xalloc.h"

#define JV_BIGINT 0x80          /* private: an integer of 19 digits or more */

/* Bytes that end the fast part of a string: '"', '\\' and control characters. */
static const unsigned char str_special[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
};

/*
 * Returns the first byte in [q, end) that is '"', '\\' or a control
 * character, or end.  Names of kernels are long: 16 bytes at a time where
 * SSE2 is there (every x86-64).
 */
static const char *
str_stop(const char *q, const char *end)
{
#ifdef __SSE2__
	const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\');
	const __m128i ctl = _mm_set1_epi8(0x1f);

	while (end - q >= 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)q);
		__m128i m = _mm_or_si128(
		    _mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, bslash)),
		    _mm_cmpeq_epi8(_mm_min_epu8(x, ctl), x));     /* x <= 0x1f */
		unsigned mask = (unsigned)_mm_movemask_epi8(m);

		if (mask != 0)
			return q + __builtin_ctz(mask);
		q += 16;
	}
#endif
	while (q < end && !str_special[(unsigned char)*q])
		q++;
	return q;
}


static const struct {
	const char *key;
	uint8_t len;
	uint8_t in_args;
} fields[JF_COUNT] = {
#define X(id, inargs, k) { k, sizeof k - 1, inargs },
	JSCAN_FIELDS(X)
#undef X
};

/* The slot of a key in jscan's hash of known keys (keys of 1 byte or more). */
static unsigned
key_hash(const char *k, size_t len)
{
	return ((unsigned)len * 7 + (unsigned char)k[0] * 3 +
	    (unsigned char)k[len - 1]) & (JSCAN_SLOTS - 1);
}

/* memcmp(a, b, len) == 0 for short keys, without a call per key. */
static int
key_eq(const char *a, const char *b, size_t len)
{
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		uint64_t x, y;

		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			return 0;
	}
	for (; i < len; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

/* Returns the field of key k[0..len) (of the event or, in_args, of args), or -1. */
static int
find_key(const struct jscan *js, int in_args, const char *k, size_t len)
{
	const uint8_t *slots = js->slots[in_args];

	if (len == 0)
		return -1;
	for (unsigned h = key_hash(k, len);; h = (h + 1) & (JSCAN_SLOTS - 1)) {
		int f = slots[h] - 1;

		if (f < 0)
			return -1;
		if (fields[f].len == len && key_eq(fields[f].key, k, len))
			return f;
	}
}

/* The state of one jscan_event() call. */
struct ctx {
	const char *p, *end;
	const char *start;      /* the object being decoded */
	struct jscan *js;
	int status;             /* why it failed: JSCAN_MORE or JSCAN_FALLBACK */
};

static int
more(struct ctx *c)
{
	c->status = JSCAN_MORE;
	return 0;
}

static int
fallback(struct ctx *c)
{
	c->status = JSCAN_FALLBACK;
	return 0;
}

/* Skips white space; fails (MORE) at the end of the buffer. */
static int
skip_ws(struct ctx *c)
{
	while (c->p < c->end) {
		char ch = *c->p;

		if (ch != ' ' && ch != '\n' && ch != '\r' && ch != '\t')
			return 1;
		c->p++;
	}
	return more(c);
}

static int
hex4(const char *s, unsigned *v)
{
	*v = 0;
	for (int i = 0; i < 4; i++) {
		char ch = s[i];
		unsigned d;

		if (ch >= '0' && ch <= '9')
			d = (unsigned)(ch - '0');
		else if (ch >= 'a' && ch <= 'f')
			d = (unsigned)(ch - 'a' + 10);
		else if (ch >= 'A' && ch <= 'F')
			d = (unsigned)(ch - 'A' + 10);
		else
			return 0;
		*v = *v << 4 | d;
	}
	return 1;
}

/*
 * Scans the string at c->p ('"'), leaving c->p past its closing quote.  Sets
 * *esc when it holds an escape.  Fails on a control character, an invalid
 * escape, \u0000 or a surrogate that is not part of a pair.
 */
static int
scan_string(struct ctx *c, int *esc)
{
	const char *q = c->p + 1, *end = c->end;

	*esc = 0;
	for (;;) {
		unsigned u, lo;

		q = str_stop(q, end);
		if (q >= end)
			return more(c);
		if (*q == '"')
			break;
		if (*q != '\\')
			return fallback(c);     /* a raw control character */
		*esc = 1;
		if (q + 1 >= end)
			return more(c);
		switch (q[1]) {
		case '"': case '\\': case '/': case 'b': case 'f': case 'n':
		case 'r': case 't':
			q += 2;
			continue;
		case 'u':
			break;
		default:
			return fallback(c);
		}
		if (end - q < 6)
			return more(c);
		if (!hex4(q + 2, &u) || u == 0 || (u >= 0xdc00 && u <= 0xdfff))
			return fallback(c);
		q += 6;
		if (u < 0xd800 || u > 0xdbff)
			continue;
		/* a high surrogate: a low one must follow */
		if ((q < end && q[0] != '\\') || (q + 1 < end && q[1] != 'u'))
			return fallback(c);
		if (end - q < 6)
			return more(c);
		if (q[0] != '\\' || q[1] != 'u' || !hex4(q + 2, &lo) ||
		    lo < 0xdc00 || lo > 0xdfff)
			return fallback(c);
		q += 6;
	}
	c->p = q + 1;
	return 1;
}

static char *
put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		*o++ = (char)cp;
	} else if (cp < 0x800) {
		*o++ = (char)(0xc0 | cp >> 6);
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*o++ = (char)(0xe0 | cp >> 12);
		*o++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*o++ = (char)(0xf0 | cp >> 18);
		*o++ = (char)(0x80 | (cp >> 12 & 0x3f));
		*o++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	}
	return o;
}

/*
 * Decodes the string s[0..len) (between its quotes, already validated by
 * scan_string()) into the scratch; v->i is its offset there until
 * jscan_event() ends.
 */
static void
decode_string(struct jscan *js, const char *s, size_t len, int esc,
    struct jval *v)
{
	char *o;
	const char *end = s + len;

	xgrow(&js->scratch, &js->scratch_cap, js->scratch_used + len + 1, 1);
	o = js->scratch + js->scratch_used;
	if (!esc) {
		memcpy(o, s, len);
		o += len;
	} else {
		while (s < end) {
			unsigned u, lo;

			if (*s != '\\') {
				*o++ = *s++;
				continue;
			}
			switch (s[1]) {
			case 'b': *o++ = '\b'; break;
			case 'f': *o++ = '\f'; break;
			case 'n': *o++ = '\n'; break;
			case 'r': *o++ = '\r'; break;
			case 't': *o++ = '\t'; break;
			case 'u':
				hex4(s + 2, &u);
				if (u >= 0xd800 && u <= 0xdbff) {
					hex4(s + 8, &lo);
					u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
					s += 6;
				}
				o = put_utf8(o, u);
				s += 6;
				continue;
			default: *o++ = s[1]; break;     /* " \ / */
			}
			s += 2;
		}
	}
	*o = '\0';
	v->type = JV_STRING;
	v->i = (int64_t)js->scratch_used;
	v->len = (size_t)(o - (js->scratch + js->scratch_used));
	js->scratch_used += v->len + 1;
}

/*
 * Scans the number at c->p (RFC 8259 grammar only) into v: JV_INT with its
 * value for integers of up to 18 digits, JV_BIGINT for longer ones,
 * JV_DOUBLE otherwise; s, len is its text.
 */
static int
scan_number(struct ctx *c, struct jval *v)
{
	const char *q = c->p, *end = c->end;
	int neg = 0, digits = 0, is_int = 1;
	uint64_t n = 0;

	if (*q == '-') {
		neg = 1;
		q++;
	}
	if (q >= end)
		return more(c);
	if (*q == '0') {
		q++;
		digits = 1;
	} else if (*q >= '1' && *q <= '9') {
		while (q < end && *q >= '0' && *q <= '9') {
			if (digits < 19)
				n = n * 10 + (uint64_t)(*q - '0');
			digits++;
			q++;
		}
	} else {
		return fallback(c);
	}
	if (q < end && *q == '.') {
		is_int = 0;
		q++;
		if (q < end && !(*q >= '0' && *q <= '9'))
			return fallback(c);
		while (q < end && *q >= '0' && *q <= '9')
			q++;
	}
	if (q < end && (*q == 'e' || *q == 'E')) {
		is_int = 0;
		q++;
		if (q < end && (*q == '+' || *q == '-'))
			q++;
		if (q < end && !(*q >= '0' && *q <= '9'))
			return fallback(c);
		while (q < end && *q >= '0' && *q <= '9')
			q++;
	}
	if (q >= end)
		return more(c);         /* it may go on */
	v->s = c->p;
	v->len = (size_t)(q - c->p);
	if (!is_int) {
		v->type = JV_DOUBLE;
	} else if (digits > 18) {
		v->type = JV_BIGINT;
	} else {
		v->type = JV_INT;
		v->i = neg ? -(int64_t)n : (int64_t)n;
	}
	c->p = q;
	return 1;
}

static int
scan_literal(struct ctx *c, const char *word, size_t len)
{
	size_t have = (size_t)(c->end - c->p);

	if (memcmp(c->p, word, have < len ? have : len) != 0)
		return fallback(c);
	if (have < len)
		return more(c);
	c->p += len;
	return 1;
}

static int skip_value(struct ctx *c, int depth, struct jval *v);

/*
 * Scans the object or array at c->p.  When fields_from >= 0 the object's
 * keys are matched against the fields with in_args == fields_from, and their
 * values decoded into c->js->f (the args object is decoded from inside the
 * event's).
 */
static int
scan_container(struct ctx *c, int depth, int in_args)
{
	char close = *c->p == '{' ? '}' : ']';
	int is_obj = close == '}';

	if (depth > JSCAN_MAX_DEPTH)
		return fallback(c);
	c->p++;
	if (!skip_ws(c))
		return 0;
	if (*c->p == close) {
		c->p++;
		return 1;
	}
	for (;;) {
		struct jval tmp, *v = &tmp;
		int known = in_args >= 0;

		if (is_obj) {
			const char *k = c->p + 1;
			size_t klen;
			int esc;

			if (*c->p != '"')
				return fallback(c);
			if (!scan_string(c, &esc))
				return 0;
			klen = (size_t)(c->p - 1 - k);
			if (known) {
				if (esc)
					return fallback(c);     /* maybe a known key */
				int f = find_key(c->js, in_args, k, klen);

				if (f >= 0) {
					v = &c->js->f[f];
					if (v->type != JV_ABSENT)
						return fallback(c);     /* a duplicate: json-c keeps the last */
					c->js->present[c->js->npresent++] = (uint8_t)f;
				}
			}
			if (!skip_ws(c))
				return 0;
			if (*c->p != ':')
				return fallback(c);
			c->p++;
			if (!skip_ws(c))
				return 0;
		}
		tmp.type = JV_ABSENT;
		if (known && v == &c->js->f[JF_ARGS] && *c->p == '{') {
			const char *args = c->p;

			v->type = JV_OBJECT;
			if (!scan_container(c, depth + 1, c->js->defer_args ? -1 : 1))
				return 0;
			c->js->args_off = (size_t)(args - c->start);
			c->js->args_len = (size_t)(c->p - args);
		} else {
			if (!skip_value(c, depth + 1, v))
				return 0;
			/* json-c saturates big integers; those of args are counted */
			if (v->type == JV_BIGINT && (v != &tmp || in_args == 1))
				return fallback(c);
		}
		if (!skip_ws(c))
			return 0;
		if (*c->p == ',') {
			c->p++;
			if (!skip_ws(c))
				return 0;
			continue;
		}
		if (*c->p == close) {
			c->p++;
			return 1;
		}
		return fallback(c);
	}
}

/*
 * Scans any value at c->p into v: its type, and for v other than a scratch
 * value, a string's decoded text.  Containers are validated and skipped.
 */
static int
skip_value(struct ctx *c, int depth, struct jval *v)
{
	switch (*c->p) {
	case '"': {
		const char *s = c->p + 1;
		int esc;

		if (!scan_string(c, &esc))
			return 0;
		v->type = JV_STRING;
		if (v >= c->js->f && v < c->js->f + JF_COUNT)
			decode_string(c->js, s, (size_t)(c->p - 1 - s), esc, v);
		return 1;
	}
	case '{':
		v->type = JV_OBJECT;
		return scan_container(c, depth, -1);
	case '[':
		v->type = JV_ARRAY;
		return scan_container(c, depth, -1);
	case 't':
		v->type = JV_BOOL;
		return scan_literal(c, "true", 4);
	case 'f':
		v->type = JV_BOOL;
		return scan_literal(c, "false", 5);
	case 'n':
		v->type = JV_NULL;
		return scan_literal(c, "null", 4);
	default:
		if (*c->p == '-' || (*c->p >= '0' && *c->p <= '9'))
			return scan_number(c, v);
		return fallback(c);
	}
}

void
jscan_init(struct jscan *js)
{
	memset(js, 0, sizeof *js);
	for (int f = 0; f < JF_COUNT; f++) {
		uint8_t *slots = js->slots[fields[f].in_args];
		unsigned h = key_hash(fields[f].key, fields[f].len);

		while (slots[h] != 0)
			h = (h + 1) & (JSCAN_SLOTS - 1);
		slots[h] = (uint8_t)(f + 1);
	}
}

void
jscan_free(struct jscan *js)
{
	free(js->scratch);
	memset(js, 0, sizeof *js);
}

int
jscan_event(struct jscan *js, const char *buf, size_t len, size_t *used)
{
	struct ctx c = { buf, buf + len, buf, js, JSCAN_OK };

	for (int i = 0; i < js->npresent; i++)
		js->f[js->present[i]].type = JV_ABSENT;
	js->npresent = 0;
	js->scratch_used = 0;
	js->args_off = js->args_len = 0;
	if (len == 0)
		return JSCAN_MORE;
	if (*buf != '{')
		return JSCAN_FALLBACK;
	if (!scan_container(&c, 1, 0))
		return c.status;
	for (int i = 0; i < js->npresent; i++) {
		struct jval *v = &js->f[js->present[i]];

		if (v->type == JV_STRING)
			v->s = js->scratch + v->i;
	}
	*used = (size_t)(c.p - buf);
	return JSCAN_OK;
}

int
jscan_args(struct jscan *js, const char *buf, size_t len)
{
	struct ctx c = { buf, buf + len, buf, js, JSCAN_OK };
	int n = 0;

	/* forget the fields of args, keep the others */
	for (int i = 0; i < js->npresent; i++) {
		if (js->present[i] > JF_ARGS)
			js->f[js->present[i]].type = JV_ABSENT;
		else
			js->present[n++] = js->present[i];
	}
	js->npresent = n;
	js->scratch_used = 0;
	if (len == 0 || *buf != '{')
		return JSCAN_FALLBACK;
	if (!scan_container(&c, 2, 1) || c.p != c.end)
		return JSCAN_FALLBACK;
	for (int f = JF_ARGS + 1; f < JF_COUNT; f++)
		if (js->f[f].type == JV_STRING)
			js->f[f].s = js->scratch + js->f[f].i;
	return JSCAN_OK;
}
