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

/*
 * Whether code point cp must not reach a terminal as itself: a C0 control,
 * DEL, a C1 control (U+0080 to U+009F: U+009B is CSI, U+009D OSC), or a
 * bidirectional control (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066
 * to U+2069), which reorders the text around it.
 */
int utf8_unsafe(uint32_t cp);

/*
 * The columns code point cp (not unsafe) takes on a terminal: 0 for a
 * combining mark or a zero-width character, 2 for an East Asian wide or
 * fullwidth one (CJK, Hangul, fullwidth forms, emoji), else 1.  A table of
 * ranges, so that the report's columns do not depend on the locale.
 */
int utf8_width(uint32_t cp);

/*
 * The character at s (NUL-terminated) as a terminal is shown it: returns its
 * bytes (1 for a byte that does not start a well-formed sequence), sets
 * *cols to its columns and *shown to 0 when it must be shown as '?' (an
 * unsafe code point or an ill-formed byte: one column), else 1.
 */
size_t utf8_shown(const unsigned char *s, int *cols, int *shown);

#endif
