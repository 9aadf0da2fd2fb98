/*
 * emit — how every report writer puts a string from a trace: as a JSON
 * string, as text for a terminal or a log, or as a CSV field.  Names come
 * from the trace as they were, so each form makes them safe: JSON escapes
 * quotes, backslashes and controls and turns bytes that are not
 * well-formed UTF-8 into U+FFFD (the report is always valid JSON); text and
 * CSV turn controls, C1 controls and such bytes into '?' (a name cannot
 * send escape sequences to the terminal).  Nothing is allocated.
 */
#ifndef GANTTY_EMIT_H
#define GANTTY_EMIT_H

#include <stdio.h>

/* Writes s as a JSON string, quotes included. */
void emit_json_str(FILE *out, const char *s);
/* Writes s as text for a terminal or a log. */
void emit_text_str(FILE *out, const char *s);
/* Writes s as one CSV field (quoted when it holds , or ", '"' doubled). */
void emit_csv_str(FILE *out, const char *s);

#endif
