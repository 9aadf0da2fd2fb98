/*
 * tui — the interactive viewer: the one loop that draws a view into the
 * terminal and turns keys into view commands.
 *
 * Each turn: lay the frame out for the terminal's size, render it into a
 * grid (render.h), copy the grid to the screen with style.h's attributes,
 * wait for a key, translate it (curses key codes and mouse events become
 * keymap.h keys; a click moves the cursor and selects the event under it),
 * look it up in the key table and run the command.  '/' reads a search on
 * the hint line.
 *
 * Keys come from the terminal: when standard input is not one (the trace
 * was read from it), /dev/tty is opened instead.  The terminal is restored
 * on every way out: q, Ctrl-C (SIGINT), SIGTERM and SIGHUP, an out-of-memory
 * death (the xalloc fatal hook), a crash (SIGSEGV, SIGBUS, SIGFPE, SIGILL,
 * SIGABRT: restored, then the signal's default action) and exit() (atexit).
 * Ctrl-Z suspends and redraws on return (ncurses' own SIGTSTP handling),
 * and a resize (SIGWINCH, as KEY_RESIZE) lays the frame out again.
 */
#ifndef GANTTY_TUI_H
#define GANTTY_TUI_H

struct render_opts;
struct view;

/*
 * Runs the viewer on v (which it changes: the commands' state) until the
 * user quits.  ropts gives the glyphs and the title; its mono field is
 * overridden by what style_init() decides for color_mode (enum style_color).
 * Returns 0 after q or Ctrl-C, 128 + the signal after SIGTERM or SIGHUP,
 * TUI_NO_CURSOR if the terminal cannot move the cursor (TERM=dumb: the caller
 * prints a static frame instead) and 1 if the terminal could not be set up
 * (tui_error() says why in both cases).
 */
#define TUI_NO_CURSOR 2
int tui_run(struct view *v, const struct render_opts *ropts, int color_mode);
/* Returns why the last tui_run() failed to start, "" if it did not. */
const char *tui_error(void);

#endif
