/*
 * json — the one JSON writer of every JSON output (--report, --reports,
 * --diff): the callers say what to write and how its lines fall; the writer
 * puts every bracket, comma, colon and indentation.
 *
 * A struct json writes to a FILE it does not own, one value at a time,
 * keeping a stack of the open containers (at most JSON_MAX_DEPTH).  A
 * container's members are its elements (array) or its key and value pairs
 * (object: json_key() then one value).  Its style says where they go:
 *
 *   JSON_BLOCK   each member on its own line, indented two spaces per open
 *                container; the close on its own line at the container's
 *                own indentation, or right after the open bracket when
 *                empty ("[]", "{}").
 *   JSON_INLINE  on the current line: "[1, 2]", "{"a": 1, "b": 2}".
 *   JSON_HANG    as JSON_INLINE, but a broken line (json_newline()) is
 *                indented one column past the open bracket, to line up
 *                under the first member; for a container that starts a
 *                line (an element of a block array).
 *
 * Members are separated by ", " on one line, or ",\n" and the indentation
 * on a new one.  Two calls change where the next member of the innermost
 * container goes, whatever its style: json_newline() starts it on a new
 * line (indented as its depth says, or as JSON_HANG says); json_sameline()
 * keeps it on the current line after ", ".  Before json_end(), json_newline()
 * puts the close on a new line even when the container is empty.
 *
 * Strings (keys included) are written by emit_json_str(); numbers by printf
 * (json_double() with the caller's format, so "%.3f" stays "%.3f").
 * Closing the outermost value ends the output with a newline.  The writer
 * never fails: write errors stay in the FILE (ferror()).
 */
#ifndef GANTTY_JSON_H
#define GANTTY_JSON_H

#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

enum json_style {
	JSON_BLOCK,
	JSON_INLINE,
	JSON_HANG,
};

struct json_level {
	enum json_style style;
	int object;             /* an object (keys) rather than an array */
	int members;            /* members written so far */
	int brk;                /* next member: 0 by style, 1 new line, -1 same line */
};

struct json {
	FILE *out;
	int depth;              /* open containers */
	int keyed;              /* json_key() written, its value not yet */
	struct json_level lv[JSON_MAX_DEPTH];
};

/* Starts a writer on out at depth 0 (one value to write). */
void json_init(struct json *j, FILE *out);

/*
 * Open a container as the next value (an element, the value of the last
 * key, or the outermost value), laid out in style.  Callers nest at most
 * JSON_MAX_DEPTH deep.
 */
void json_begin_object(struct json *j, enum json_style style);
void json_begin_array(struct json *j, enum json_style style);
/* Closes the innermost container (see the layout above). */
void json_end(struct json *j);

/* Writes the key of the next member of the innermost object, escaped. */
void json_key(struct json *j, const char *key);

/* Scalars, each the next value. */
void json_int(struct json *j, int64_t v);
void json_uint(struct json *j, uint64_t v);
/* v with the printf format fmt (one double conversion: "%.3f", "%.6g"). */
void json_double(struct json *j, const char *fmt, double v);
/* s escaped as by emit_json_str(). */
void json_str(struct json *j, const char *s);
/* true or false: named so as not to meet json-c's json_bool type. */
void json_boolean(struct json *j, int v);
void json_null(struct json *j);
/* v, or null when !has: how the reports write an absent number. */
void json_int_or_null(struct json *j, int has, int64_t v);

/* The next member (or the close) of the innermost container on a new line. */
void json_newline(struct json *j);
/* The next member of the innermost container on the current line. */
void json_sameline(struct json *j);

#endif
