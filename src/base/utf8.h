/*
 * utf8 — recognising well-formed UTF-8, one sequence at a time.
 *
 * Names in a trace are bytes as they came; whoever shows or writes them
 * (the report's JSON and text writers, the grid) replaces what is not
 * well-formed UTF-8 in its own way, and all of them must agree on what is:
 * the shortest encoding of a Unicode scalar value, so no stray continuation
 * byte, no overlong form, no surrogate (U+D800 to U+DFFF), nothing past
 * U+10FFFF and no sequence cut short.  Stateless; reads only the bytes it
 * is given.
 */
#ifndef GANTTY_UTF8_H
#define GANTTY_UTF8_H

#include <stddef.h>
#include <stdint.h>

/*
 * Returns the length (1 to 4) of the well-formed UTF-8 sequence at s, of
 * the n > 0 bytes there, and sets *cp (if cp is not NULL) to its code
 * point; returns 0 and leaves *cp alone if the bytes at s do not start
 * one.  A byte below 0x80 (NUL too) is a sequence of its own.  It reads
 * no further than the first byte that is not a continuation byte, so a
 * NUL-terminated string may be passed with n = SIZE_MAX.
 */
size_t utf8_valid_len(const unsigned char *s, size_t n, uint32_t *cp);

#endif
