/*
 * jstream — a JSON document read as a stream of small values, for files
 * that are not traces (the per-rank reports, report/report_set.c).
 *
 * It is the trace loader's byte stream (reader.c: plain or gzip by the
 * magic bytes, concatenated members, byte offsets and lines for messages)
 * with its three steps: peek at the next byte, parse one value with json-c,
 * or skip an array or object by its brackets.  The caller walks the
 * document's structure itself, so that memory is what it keeps plus the
 * largest single value parsed, never a DOM of the whole file.  A UTF-8 byte
 * order mark at the start is skipped.
 *
 * Every failure leaves a message "FILE: byte N (line L): what" for
 * jstream_error().  Out of memory is fatal (xalloc).  Ownership: the stream
 * owns its buffers; values parsed are the caller's (json_object_put()).
 */
#ifndef GANTTY_JSTREAM_H
#define GANTTY_JSTREAM_H

#include <json-c/json.h>
#include <stddef.h>
#include <stdint.h>

struct jstream;

/*
 * Opens path ("-": standard input) and reads its first bytes.  Returns the
 * stream, or NULL with "PATH: why" in err.  value_limit bounds the bytes
 * of one value jstream_value() parses (0: the loader's own bound).
 */
struct jstream *jstream_open(const char *path, size_t value_limit, char *err,
    size_t errsize);
/* Closes the file and frees s; NULL is a no-op. */
void jstream_close(struct jstream *s);
/* Skips white space; returns the next byte (not consumed), -1 at the end. */
int jstream_peek(struct jstream *s);
/* Consumes one byte (after jstream_peek() returned it). */
void jstream_next(struct jstream *s);
/*
 * Consumes the next byte if it is one of chars and returns it; else
 * returns -1 with the message "not JSON (expected WHAT)" (or, at the end,
 * that the data ends inside a value).
 */
int jstream_expect(struct jstream *s, const char *chars, const char *what);
/*
 * Parses the value at the read position.  Returns 0 with *out (NULL for
 * null), or -1: invalid JSON, the end of the data inside it, or a value of
 * more than the stream's value_limit bytes (message set).
 */
int jstream_value(struct jstream *s, json_object **out);
/*
 * Skips the value at the read position (an array or object by counting
 * brackets outside strings, in O(1) memory; a scalar by parsing it).
 * Returns 0, or -1 (message set).
 */
int jstream_skip(struct jstream *s);
/* The offset of the read position in the (decompressed) data. */
uint64_t jstream_offset(const struct jstream *s);
/* Sets the message to "FILE: byte N (line L): what" at the read position. */
void jstream_fail(struct jstream *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The last failure's message ("" when none). */
const char *jstream_error(const struct jstream *s);

#endif
