/*
 * tui — the viewer's loop on a curses terminal (see tui.h).
 */
#include "config.h"

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif

#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>
#include <wctype.h>

#include "render/grid.h"
#include "view/keymap.h"
#include "view/view_select.h"
#include "render/render.h"
#include "tui/style.h"
#include "tui/tui.h"
#include "view/command.h"
#include "view/view.h"
#include "view/view_history.h"
#include "view/view_nav.h"
#include "base/xalloc.h"

/* Signals that end the viewer: INT quits cleanly, TERM and HUP too. */
static const int quit_signals[] = { SIGINT, SIGTERM, SIGHUP };
/* Signals that crash it: restore the terminal, then the default action. */
static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT,
	SIGQUIT };

#define NQUIT (sizeof quit_signals / sizeof quit_signals[0])
#define NCRASH (sizeof crash_signals / sizeof crash_signals[0])

static SCREEN *screen;
static FILE *tty_in;                    /* /dev/tty when stdin is no terminal */
static volatile sig_atomic_t curses_on; /* between newterm and endwin */
static volatile sig_atomic_t got_signal;
static struct sigaction old_quit[NQUIT], old_crash[NCRASH];
static int crash_installed[NCRASH];
static int atexit_done;
static char error_text[256];

/*
 * Puts the terminal back as it was (cooked mode, the normal screen, the
 * cursor, no mouse reporting).  Safe to call twice; used by every way out.
 * endwin() is not async-signal-safe, but restoring the terminal before a
 * crash is worth the risk (htop does the same).
 */
static void
restore_terminal(void)
{
	if (curses_on) {
		curses_on = 0;
		endwin();
		fflush(stdout);
	}
}

static void
on_quit_signal(int sig)
{
	got_signal = sig;
}

/*
 * A crash: the terminal first, then whatever was to happen before the
 * viewer started (the default action, or a sanitizer's report).  A signal
 * sent by kill() or abort() is sent again; a real fault needs no help: the
 * faulting instruction runs again on return and meets the old handler,
 * with the true fault address.
 */
static void
on_crash_signal(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	restore_terminal();
	for (size_t i = 0; i < NCRASH; i++)
		if (crash_signals[i] == sig)
			sigaction(sig, &old_crash[i], NULL);
	if (si == NULL || si->si_code <= 0)
		raise(sig);
}

static void
install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: the signal must wake the loop out of its read */
	sa.sa_flags = 0;
	sa.sa_handler = on_quit_signal;
	for (size_t i = 0; i < NQUIT; i++) {
		sigaction(quit_signals[i], NULL, &old_quit[i]);
		/* an ignored signal stays ignored (nohup, a background job) */
		if (old_quit[i].sa_handler != SIG_IGN)
			sigaction(quit_signals[i], &sa, NULL);
	}
	/* crash signals chain to the handler before (a sanitizer's, say) */
	sa.sa_handler = NULL;
	sa.sa_sigaction = on_crash_signal;
	sa.sa_flags = SA_SIGINFO;
	for (size_t i = 0; i < NCRASH; i++) {
		crash_installed[i] = 0;
		if (sigaction(crash_signals[i], NULL, &old_crash[i]) == 0 &&
		    (old_crash[i].sa_flags & SA_SIGINFO ||
		    old_crash[i].sa_handler != SIG_IGN))
			crash_installed[i] =
			    sigaction(crash_signals[i], &sa, NULL) == 0;
	}
}

static void
restore_signals(void)
{
	for (size_t i = 0; i < NQUIT; i++)
		sigaction(quit_signals[i], &old_quit[i], NULL);
	for (size_t i = 0; i < NCRASH; i++)
		if (crash_installed[i])
			sigaction(crash_signals[i], &old_crash[i], NULL);
}

static void teardown(void);

/* 1 if the terminal can put the cursor anywhere (not TERM=dumb). */
static int
can_address_cursor(void)
{
	char *cup = tigetstr("cup");

	return cup != NULL && cup != (char *)-1 && *cup != '\0';
}

/*
 * Starts curses on the terminal: the keys from stdin, or from /dev/tty
 * when stdin is not one.  Returns 0, or -1 with error_text set.
 */
static int
setup(void)
{
	FILE *in = stdin;

	error_text[0] = '\0';
	/* main normally does this; curses needs it for UTF-8 */
	if (strcmp(setlocale(LC_CTYPE, NULL), "C") == 0)
		setlocale(LC_ALL, "");
	tty_in = NULL;
	if (!isatty(STDIN_FILENO)) {
		tty_in = fopen("/dev/tty", "r");
		if (tty_in == NULL) {
			snprintf(error_text, sizeof error_text,
			    "cannot open /dev/tty to read keys: %s", strerror(errno));
			return -1;
		}
		in = tty_in;
	}
	got_signal = 0;
	install_signals();      /* before newterm: ncurses keeps its hands off */
	screen = newterm(NULL, stdout, in);
	if (screen == NULL) {
		const char *term = getenv("TERM");

		snprintf(error_text, sizeof error_text,
		    "cannot use the terminal (TERM=%s)", term ? term : "unset");
		restore_signals();
		if (tty_in != NULL)
			fclose(tty_in);
		tty_in = NULL;
		return -1;
	}
	set_term(screen);
	curses_on = 1;
	if (!can_address_cursor()) {
		const char *term = getenv("TERM");

		snprintf(error_text, sizeof error_text,
		    "the terminal (TERM=%s) cannot move the cursor; "
		    "printed one frame (see --render and --report)",
		    term ? term : "unset");
		teardown();
		return -2;
	}
	xalloc_set_fatal_hook(restore_terminal);
	if (!atexit_done)
		atexit_done = atexit(restore_terminal) == 0;
	cbreak();               /* Ctrl-C and Ctrl-Z stay signals */
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	intrflush(stdscr, FALSE);
	curs_set(0);
	set_escdelay(25);
	/*
	 * Presses and releases, not clicks: a release in another column than
	 * its press is a drag, which sets the marks; no click interval, so a
	 * quick drag is not taken for a click.
	 */
	mousemask(BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON1_CLICKED | BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
	    | BUTTON5_PRESSED
#endif
	    , NULL);
	mouseinterval(0);
	return 0;
}

static void
teardown(void)
{
	restore_terminal();
	if (screen != NULL)
		delscreen(screen);
	screen = NULL;
	if (tty_in != NULL)
		fclose(tty_in);
	tty_in = NULL;
	xalloc_set_fatal_hook(NULL);
	restore_signals();
}

/*
 * Copies the grid to stdscr (curses sends only what changed).  Each cell
 * takes one column, or the screen would shift: a wide character is drawn as
 * itself over its two cells where the terminal's locale agrees it is two
 * columns wide, else as '?' and a blank; marks where the locale takes them
 * as zero columns.
 */
static void
draw_grid(const struct grid *g)
{
	for (int y = 0; y < g->h; y++) {
		const struct cell *row = &g->cells[(size_t)y * g->w];
		int drawn_wide = 0;     /* the cell before was drawn two wide */

		for (int x = 0; x < g->w; x++) {
			const struct cell *c = &row[x];
			unsigned long a = style_attr((enum role)c->role, c->reverse);
			wchar_t wc[2 + GRID_MARKS] = { (wchar_t)c->ch, L'\0' };
			int wide = 0, k = 1;
			cchar_t cc;

			if (c->ch == GRID_TAIL) {
				if (drawn_wide) {
					drawn_wide = 0;
					continue;       /* covered by its head */
				}
				wc[0] = L' ';
			} else if (c->ch == 0)
				wc[0] = L' ';
			else if (c->ch < 0x20 || c->ch == 0x7f)
				wc[0] = L'?';
			else if (c->ch >= 0x80 && wcwidth(wc[0]) != 1) {
				wide = grid_wide_at(row, x, g->w) && wcwidth(wc[0]) == 2;
				if (!wide)
					wc[0] = L'?';
			}
			for (int i = 0; i < GRID_MARKS && c->mark[i] != 0; i++)
				if (wcwidth((wchar_t)c->mark[i]) == 0)
					wc[k++] = (wchar_t)c->mark[i];
			wc[k] = L'\0';
			drawn_wide = wide;
			setcchar(&cc, wc, (attr_t)(a & (A_ATTRIBUTES & ~A_COLOR)),
			    (short)PAIR_NUMBER((int)(a & A_COLOR)), NULL);
			mvwadd_wch(stdscr, y, x, &cc);
		}
	}
}

/* Draws "/text" over the hint line, the cursor after it. */
static void
draw_prompt(const char *text)
{
	wchar_t w[256];
	size_t n = mbstowcs(w, text, sizeof w / sizeof w[0] - 1);
	int y = LINES - 1, room = COLS - 2;
	unsigned long a = style_attr(ROLE_HINT, 0);

	if (n == (size_t)-1)
		n = 0;
	w[n] = L'\0';
	if (y < 0 || room < 1)
		return;
	wattrset(stdscr, (int)(a & (A_ATTRIBUTES & ~A_COLOR)));
	wcolor_set(stdscr, (short)PAIR_NUMBER((int)(a & A_COLOR)), NULL);
	mvwhline(stdscr, y, 0, ' ', COLS);
	mvwaddch(stdscr, y, 0, '/');
	/* the tail of a long query */
	waddnwstr(stdscr, w + (n > (size_t)room ? n - (size_t)room : 0), room);
	wattrset(stdscr, A_NORMAL);
	wcolor_set(stdscr, 0, NULL);
}

/* Drops the last UTF-8 character of s (length *len). */
static void
drop_last_char(char *s, size_t *len)
{
	while (*len > 0 && ((unsigned char)s[*len - 1] & 0xC0) == 0x80)
		(*len)--;
	if (*len > 0)
		(*len)--;
	s[*len] = '\0';
}

/* Appends wc to s (capacity cap, length *len) as UTF-8, if it fits. */
static void
append_char(char *s, size_t cap, size_t *len, wchar_t wc)
{
	char mb[MB_LEN_MAX];
	mbstate_t st;
	size_t n;

	memset(&st, 0, sizeof st);
	n = wcrtomb(mb, wc, &st);
	if (n == (size_t)-1 || *len + n + 1 > cap)
		return;
	memcpy(s + *len, mb, n);
	*len += n;
	s[*len] = '\0';
}

/*
 * A click at (x, y): the cursor goes to its column and the event under it
 * (on whatever rank's lane) is selected.  Returns the view change.
 */
static int
click(struct view *v, const struct layout *lay, int x, int y)
{
	int change = VIEW_NONE, a = -1, nzoom = v->nzoom;
	uint32_t ev;
	struct view_place before;

	if (x < lay->time_x || x >= lay->time_x + lay->time_cols)
		return VIEW_NONE;
	change |= view_set_cursor(v, x - lay->time_x);
	ev = render_event_at(lay, v, x, y, &a);
	if (ev == UINT32_MAX || a < 0 || (size_t)a >= v->nan)
		return change;
	/* as the keyboard selects: the focus, the rank and the panel follow */
	view_here(v, &before);
	change |= view_select_goto(v, (size_t)a, ev);
	view_history_after(v, &before, nzoom, 1);       /* a place visited */
	if ((change & VIEW_RECALC) == VIEW_RECALC)
		view_recalc(v);
	return change;
}

/*
 * Button 1 released at (x, y) after its press at (px, py): in the time
 * area and in another column, a drag across the lanes that sets the marks
 * (view_select_mark_columns()); else a click.
 */
static int
release(struct view *v, const struct layout *lay, int px, int py, int x, int y)
{
	int change;

	if (px < 0 || px == x || px < lay->time_x || px >= lay->time_x + lay->time_cols)
		return px < 0 ? click(v, lay, x, y) : click(v, lay, px, py);
	change = view_select_mark_columns(v, px - lay->time_x, x - lay->time_x);
	if ((change & VIEW_RECALC) == VIEW_RECALC)
		view_recalc(v);
	return change;
}

/* Turns a curses key (rc from wget_wch) into a keymap key, 0 for none. */
static int
translate_key(int rc, wint_t wc)
{
	if (rc == OK) {
		if (wc == L'\r' || wc == L'\n')
			return KEYMAP_ENTER;
		if (wc == L'\t')
			return KEYMAP_TAB;
		if (wc == 27)
			return KEYMAP_ESC;
		if (wc == 127 || wc == 8)
			return KEYMAP_BACKSPACE;        /* what most terminals send */
		return (int)wc;
	}
	switch (wc) {
	case KEY_LEFT: return KEYMAP_LEFT;
	case KEY_RIGHT: return KEYMAP_RIGHT;
	case KEY_UP: return KEYMAP_UP;
	case KEY_DOWN: return KEYMAP_DOWN;
	case KEY_PPAGE: return KEYMAP_PGUP;
	case KEY_NPAGE: return KEYMAP_PGDN;
	case KEY_ENTER: return KEYMAP_ENTER;
	case KEY_BACKSPACE: return KEYMAP_BACKSPACE;
	case KEY_SLEFT: return KEYMAP_SLEFT;
	case KEY_SRIGHT: return KEYMAP_SRIGHT;
	default: return 0;
	}
}

/* Runs cmd; returns the change, the view recomputed where it must be. */
static int
run_command(struct view *v, enum view_cmd cmd)
{
	int change = view_do(v, cmd);

	if (cmd == CMD_NEXT_RANK || cmd == CMD_PREV_RANK)
		v->lane_scroll = render_rank_lane(v, v->rank);
	if ((change & VIEW_RECALC) == VIEW_RECALC)
		view_recalc(v);
	return change;
}

int
tui_run(struct view *v, const struct render_opts *ropts, int color_mode)
{
	struct render_opts ro = *ropts;
	struct layout lay;
	struct grid g;
	char query[sizeof v->query];
	size_t qlen = 0;
	int searching = 0, dirty = 1, status = 0, read_errors = 0;
	int press_x = -1, press_y = -1;         /* button 1 down there, for a drag */
	int rc0 = setup();

	if (rc0 < 0)
		return rc0 == -2 ? TUI_NO_CURSOR : 1;
	ro.mono = !style_init(color_mode);
	if (strcmp(nl_langinfo(CODESET), "UTF-8") != 0)
		ro.ascii = 1;   /* block glyphs need UTF-8 */
	memset(&lay, 0, sizeof lay);
	memset(&g, 0, sizeof g);
	query[0] = '\0';
	for (;;) {
		int rc, key, cmd, change = VIEW_NONE;
		wint_t wc = 0;

		if (got_signal)
			break;
		if (dirty) {
			int w = COLS > 0 ? COLS : 0, h = LINES > 0 ? LINES : 0;

			/* the selected event's args, read before drawing */
			view_select_refresh(v);
			v->lane_room = render_lane_room(h);
			render_layout_free(&lay);
			render_layout(&lay, v, w, h);
			if (lay.time_cols >= 1 && lay.time_cols != v->cols)
				view_resize(v, lay.time_cols);
			v->page = lay.lanes_h;
			if (g.w != w || g.h != h) {
				grid_free(&g);
				grid_init(&g, w, h);
			} else {
				grid_clear(&g);
			}
			render_frame(&g, &lay, v, &ro);
			draw_grid(&g);
			if (searching) {
				draw_prompt(query);
				curs_set(1);
			} else {
				curs_set(0);
			}
			wnoutrefresh(stdscr);
			doupdate();
			dirty = 0;
		}
		errno = 0;
		rc = wget_wch(stdscr, &wc);
		if (rc == ERR) {
			/*
			 * A signal (looked at above), or the terminal is gone
			 * (EIO after a hangup with SIGHUP ignored): then stop
			 * rather than spin.
			 */
			if (errno != EINTR && !got_signal && ++read_errors >= 3) {
				status = 1;
				break;
			}
			continue;
		}
		read_errors = 0;
		if (rc == KEY_CODE_YES && wc == KEY_RESIZE) {
			dirty = 1;
			continue;
		}
		if (rc == KEY_CODE_YES && wc == KEY_MOUSE) {
			MEVENT me;

			if (getmouse(&me) != OK || searching)
				continue;
			if (me.bstate & BUTTON1_PRESSED) {
				press_x = me.x;
				press_y = me.y;
				continue;
			} else if (me.bstate & BUTTON1_RELEASED) {
				change = release(v, &lay, press_x, press_y, me.x, me.y);
				press_x = -1;
			} else if (me.bstate & BUTTON1_CLICKED) {
				change = click(v, &lay, me.x, me.y);
			} else if (me.bstate & (BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
			    | BUTTON5_PRESSED
#endif
			    )) {
				/* the wheel zooms around the pointer */
				int in = (me.bstate & BUTTON4_PRESSED) != 0;

				if (me.x >= lay.time_x &&
				    me.x < lay.time_x + lay.time_cols)
					view_set_cursor(v, me.x - lay.time_x);
				cmd = keymap_lookup(in ? KEYMAP_WHEEL_UP :
				    KEYMAP_WHEEL_DOWN);
				if (cmd >= 0)
					change = run_command(v, (enum view_cmd)cmd) |
					    VIEW_REPAINT;
			}
			if (change & VIEW_QUIT)
				break;
			dirty = 1;
			continue;
		}
		if (searching) {
			if (rc == OK && wc == 27) {
				searching = 0;
			} else if ((rc == OK && (wc == L'\r' || wc == L'\n')) ||
			    (rc == KEY_CODE_YES && wc == KEY_ENTER)) {
				searching = 0;
				/* an empty search repeats the last one (view_search) */
				change = view_search(v, query);
				if ((change & VIEW_RECALC) == VIEW_RECALC)
					view_recalc(v);
			} else if ((rc == OK && (wc == 127 || wc == 8)) ||
			    (rc == KEY_CODE_YES && wc == KEY_BACKSPACE)) {
				if (qlen == 0)
					searching = 0;
				drop_last_char(query, &qlen);
			} else if (rc == OK && wc == 21) {      /* Ctrl-U */
				qlen = 0;
				query[0] = '\0';
			} else if (rc == OK && iswprint(wc)) {
				append_char(query, sizeof query, &qlen, (wchar_t)wc);
			}
			dirty = 1;
			continue;
		}
		key = translate_key(rc, wc);
		cmd = keymap_lookup(key);
		if (cmd < 0)
			continue;
		if (cmd == CMD_SEARCH) {
			/* the last query comes back, to edit or repeat */
			searching = 1;
			snprintf(query, sizeof query, "%s", v->query);
			qlen = strlen(query);
			dirty = 1;
			continue;
		}
		change = run_command(v, (enum view_cmd)cmd);
		if (change & VIEW_QUIT)
			break;
		/* even VIEW_NONE: the command cleared the hint line's message */
		dirty = 1;
	}
	if (got_signal == SIGTERM || got_signal == SIGHUP)
		status = 128 + got_signal;
	render_layout_free(&lay);
	grid_free(&g);
	teardown();
	return status;
}

const char *
tui_error(void)
{
	return error_text;
}
