/*
 * emit — how every report writer puts a string from a trace: as a JSON
 * string, as text for a terminal or a log, or as a CSV field.  Names come
 * from the trace as they were, so each form makes them safe: JSON escapes
 * quotes, backslashes and controls (C0, DEL, C1 and the bidirectional
 * controls as \uXXXX) and turns bytes that are not well-formed UTF-8 into
 * U+FFFD (the report is always valid JSON); text and CSV turn the same
 * controls and such bytes into '?' (a name cannot send escape sequences to
 * the terminal, nor reorder the line around it); the text form may elide a
 * long name in its middle.  Names of any script are written as themselves;
 * widths are terminal columns (utf8_width(): CJK takes two, combining
 * marks none).  Nothing is allocated.
 */
#ifndef GANTTY_EMIT_H
#define GANTTY_EMIT_H

#include <stdio.h>

/* Writes s as a JSON string, quotes included. */
void emit_json_str(FILE *out, const char *s);
/* Writes s as text for a terminal or a log. */
void emit_text_str(FILE *out, const char *s);

/* How many characters of a name the text forms show (emit_text_name()). */
#define EMIT_NAME_CHARS 120

/*
 * Writes the name s as emit_text_str() does, but one of more than max
 * terminal columns (utf8_width(); a byte shown as '?' takes one) is elided
 * in the middle: its first and last whole characters around "\u2026" or,
 * with ascii, "...", at most max columns in all (max is taken as 5 at
 * least).  Kernel names of thousands of characters are mostly template
 * arguments, so their start and end say what they are.  Returns the
 * columns written, for padding.  O(|s|).
 */
size_t emit_text_name(FILE *out, const char *s, size_t max, int ascii);
/*
 * emit_text_name(), keeping the characters at the byte offsets keeps[0,
 * nkeeps) in view where the name is cut (elide.h): where it differs from
 * the names it would look like.
 */
size_t emit_text_name_keep(FILE *out, const char *s, size_t max, int ascii,
    const size_t *keeps, size_t nkeeps);
/* Writes s as one CSV field (quoted when it holds , or ", '"' doubled). */
void emit_csv_str(FILE *out, const char *s);

#endif
