/*
 * fold — the text reports fit a terminal of FOLD_WIDTH columns: a stream
 * that passes its lines through to another, folding those that are wider.
 *
 * A wide line is broken at its last space that fits; the lines it goes on
 * to are indented two more than its own leading spaces, so a remedy or a
 * finding reads as one paragraph.  A word wider than the room is cut at a
 * character.  Widths are terminal columns (utf8_width(); a byte that is not
 * UTF-8 takes one).  Tables keep their rows within the width themselves
 * (names elided in the middle, emit_text_name()), so only prose is folded.
 */
#ifndef GANTTY_FOLD_H
#define GANTTY_FOLD_H

#include <stdio.h>

#define FOLD_WIDTH 100

/*
 * Returns a stream whose lines reach out folded to width columns (at least
 * 20), or out itself if no stream can be made (nothing is then folded).
 */
FILE *fold_open(FILE *out, int width);
/*
 * Writes what is left (a last line without its newline gets one), closes f
 * unless it is out; flushes out.  Returns -1 if a write to out failed.
 */
int fold_close(FILE *f, FILE *out);

#endif
