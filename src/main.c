/*
 * main — gantty: parse the command line (main/cli.h), run the session over
 * the traces (analysis/session.h), and show what it built: the report, the
 * diff, a frame or the viewer; or, with --reports, the per-rank reports.
 * The view the command line asks for and its frame as text are
 * main/viewer.h's.
 *
 * With cli (and viewer's warnings), the only files that print diagnostics;
 * with cli, the only ones that call exit().
 */
#include "config.h"

#include <errno.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analysis/crossrank.h"
#include "analysis/session.h"
#include "base/heap.h"
#include "base/xalloc.h"
#include "load/cache.h"
#include "load/input.h"
#include "main/cli.h"
#include "main/viewer.h"
#include "render/render.h"
#include "analysis/compare.h"
#include "report/fold.h"
#include "report/report.h"
#include "report/report_analyses.h"
#include "report/report_compare.h"
#include "report/emit.h"
#include "report/report_input.h"
#include "tui/style.h"
#include "tui/tui.h"
#include "view/command.h"
#include "view/view.h"

/*
 * Prints "gantty: " and the message on standard error, made safe for a
 * terminal as the text report's names are (emit_text_str(): controls, C1
 * and bidirectional controls become '?'): file names and names from a
 * trace are in most messages, and a file named with an OSC sequence set
 * the terminal's title.
 */
static void __attribute__((format(printf, 1, 2)))
say(const char *fmt, ...)
{
	char buf[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	fputs("gantty: ", stderr);
	emit_text_str(stderr, buf);
	putc('\n', stderr);
}

/* The load's progress lines on standard error (session_hooks). */
struct progress {
	struct timespec start;
	int tty;                /* progress lines wanted: a terminal, no -q */
	int verbose;            /* -v: say what the cache did */
	int file_shown;         /* "loading FILE  42%" is on the line */
	int count_shown;        /* "loaded N of M traces" is */
};

static double
elapsed_s(const struct timespec *since)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - since->tv_sec) +
	    (double)(now.tv_nsec - since->tv_nsec) / 1e9;
}

/* The progress of this run, for end_progress() (an out-of-memory death). */
static struct progress *progress_now;

/*
 * xalloc's fatal hook while loading: the progress line on standard error is
 * cleared, so that "gantty: out of memory ..." starts a line of its own.
 */
static void
end_progress(void)
{
	if (progress_now != NULL &&
	    (progress_now->file_shown || progress_now->count_shown))
		fputs("\r\033[K", stderr);
}

/* Shows "loading FILE  42%" once a load takes over a second. */
static void
show_progress(const char *path, uint64_t done, uint64_t total, void *ctx)
{
	struct progress *p = ctx;

	if (!p->file_shown && elapsed_s(&p->start) < 1.0)
		return;
	if (done >= total && total > 0) {
		if (p->file_shown)
			fputs("\r\033[K", stderr);
		p->file_shown = 0;
		return;
	}
	p->file_shown = 1;
	fputs("\r\033[Kgantty: loading ", stderr);
	emit_text_str(stderr, path);
	if (total > 0)
		fprintf(stderr, "  %3d%%", (int)(100.0 * (double)done / (double)total));
	else
		fprintf(stderr, "  %llu MB", (unsigned long long)(done >> 20));
}

/* A file is loaded: the cache's note, and "loaded N of M traces". */
static void
show_loaded(const char *path, const char *note, size_t done, size_t n, void *ctx)
{
	struct progress *p = ctx;

	(void)path;
	if (p->file_shown)
		fputs("\r\033[K", stderr);
	p->file_shown = 0;
	if (p->verbose && note[0] != '\0')
		say("%s", note);
	if (n > 1 && p->tty && (p->count_shown || elapsed_s(&p->start) >= 1.0)) {
		p->count_shown = 1;
		fprintf(stderr, "\r\033[Kgantty: loaded %zu of %zu traces", done, n);
	}
}

/* Prints the session's warnings from *shown on (none with -q). */
static void
show_warnings(const struct session *s, const struct cli *c, size_t *shown)
{
	for (; *shown < s->nwarnings; (*shown)++)
		if (!c->quiet)
			say("warning: %s", s->warnings[*shown]);
}


/* The interactive viewer. */
static int
run_viewer(const struct cli *c, struct session *s, const char *title)
{
	struct view v;
	struct render_opts ro;
	int rc;

	main_view_setup(&v, c, s, s->an, s->n_analyses, s->origin_ns, s->last_ns, 120, 40);
	memset(&ro, 0, sizeof ro);
	ro.ascii = c->ascii;
	ro.title = title;
	rc = tui_run(&v, &ro, c->color);
	view_free(&v);
	if (rc == TUI_NO_CURSOR) {
		/* a dumb terminal: one frame of its size, as --render prints it */
		struct cli one = *c;
		const char *cols = getenv("COLUMNS"), *lines = getenv("LINES");

		one.width = cols != NULL && atoi(cols) >= 20 ? atoi(cols) : 80;
		one.height = lines != NULL && atoi(lines) >= 5 ? atoi(lines) : 24;
		if (one.width > 1000)
			one.width = 1000;
		if (one.height > 1000)
			one.height = 1000;
		if (strcmp(nl_langinfo(CODESET), "UTF-8") != 0)
			one.ascii = 1;
		one.color = STYLE_COLOR_NEVER;
		rc = main_view_render(&one, s, title);
		say("%s", tui_error());
		return rc;
	}
	if (rc == 1 && *tui_error() != '\0')
		say("%s", tui_error());
	return rc;
}

/*
 * Opens the trace of participant r of the reports in full: gantty again, on
 * that trace, with the display options and the mode (--report with its
 * format, --render with its size, else the viewer).  Returns only on
 * failure.
 */
static int
open_report_rank(const struct cli *c, const struct report_rank *r)
{
	char path[PATH_MAX], err[PATH_MAX * 3], color[32], width[32], height[32],
	    format[32];
	char *args[12];
	int n = 0;

	if (report_input_trace_path(r, path, sizeof path, err, sizeof err) < 0) {
		say("%s", err);
		return EXIT_INPUT;
	}
	args[n++] = (char *)"gantty";
	if (c->ascii)
		args[n++] = (char *)"--ascii";
	if (c->cpu)
		args[n++] = (char *)"--cpu";
	snprintf(color, sizeof color, "--color=%s", c->color == STYLE_COLOR_ALWAYS ?
	    "always" : c->color == STYLE_COLOR_NEVER ? "never" : "auto");
	args[n++] = color;
	if (c->mode == MODE_REPORT) {
		snprintf(format, sizeof format, "--format=%s", c->fmt == REPORT_JSON ?
		    "json" : c->fmt == REPORT_CSV ? "csv" : "text");
		args[n++] = format;
	} else if (c->mode == MODE_RENDER) {
		snprintf(width, sizeof width, "--width=%d", c->width);
		snprintf(height, sizeof height, "--height=%d", c->height);
		args[n++] = (char *)"--render";
		args[n++] = width;
		args[n++] = height;
	}
	if (c->quiet && (c->mode == MODE_REPORT || c->mode == MODE_RENDER))
		args[n++] = (char *)"-q";
	args[n++] = (char *)"--";
	args[n++] = path;
	args[n] = NULL;
	fflush(NULL);
	execv("/proc/self/exe", args);
	say("cannot start gantty again for %s: %s", path, strerror(errno));
	return EXIT_INPUT;
}

/* Where a report goes: text folded to fit 100 columns (fold.h), else stdout. */
static FILE *
report_out(const struct cli *c)
{
	return c->fmt == REPORT_TEXT ? fold_open(stdout, FOLD_WIDTH) : stdout;
}

/*
 * --reports: the per-rank reports (report/report_input.h) shown as the
 * cross-rank report, a frame, or the viewer's matrix, from which Enter
 * opens a rank's trace.  With --rank=N, rank N's trace is opened at once.
 */
static int
run_reports(const struct cli *c, const struct input_list *in)
{
	struct report_input r;
	const struct report_rank *rr;
	struct crossrank *x;
	char err[1024], title[256];
	int status = EXIT_OK;
	struct view v;

	if (report_input_load(&r, in, err, sizeof err) < 0) {
		say("%s", err);
		report_input_free(&r);
		return EXIT_INPUT;
	}
	if (c->rank >= 0) {
		if ((rr = report_input_find(&r, c->rank)) != NULL) {
			status = open_report_rank(c, rr);
		} else {
			fprintf(stderr, "gantty: no rank %lld among the reports\n",
			    (long long)c->rank);
			status = EXIT_INPUT;
		}
		report_input_free(&r);
		return status;
	}
	x = report_input_match(&r, c->align);
	if (c->mode == MODE_REPORT) {
		FILE *out = report_out(c);

		if (report_write_cross(out, c->fmt, &r.set, x, c->ascii) < 0 ||
		    fold_close(out, stdout) < 0) {
			perror("gantty: writing the report");
			status = EXIT_INPUT;
		}
		crossrank_free(x);
		free(x);
		report_input_free(&r);
		return status;
	}
	snprintf(title, sizeof title, "%zu ranks from reports", r.set.n);
	view_init(&v, NULL, 0, 0, 1, 1);
	view_set_crossrank(&v, x);      /* v owns x now */
	if (c->mode == MODE_RENDER) {
		struct layout lay;

		render_layout(&lay, &v, c->width, c->height);
		view_resize(&v, lay.time_cols > 0 ? lay.time_cols : 1);
		render_layout_free(&lay);
		status = main_view_frame(c, &v, title);
	} else {
		struct render_opts ro;

		memset(&ro, 0, sizeof ro);
		ro.ascii = c->ascii;
		ro.title = title;
		status = tui_run(&v, &ro, c->color);
		if (status == TUI_NO_CURSOR) {
			struct cli one = *c;

			one.width = 80;
			one.height = 24;
			one.color = STYLE_COLOR_NEVER;
			status = main_view_frame(&one, &v, title);
		}
		if (status != 0 && *tui_error() != '\0')
			say("%s", tui_error());
		if (status == 0 && v.open_rank && v.rank < r.set.n) {
			size_t k = v.rank;

			view_free(&v);
			status = open_report_rank(c, &r.set.v[k]);
			report_input_free(&r);
			return status;
		}
	}
	view_free(&v);
	report_input_free(&r);
	return status;
}

/* The session's traces as the mode shows them: report, diff, frame, viewer. */
static int
run_mode(const struct cli *c, struct session *s)
{
	int status = EXIT_OK;
	char title[256];

	if (c->mode == MODE_DIFF) {
		struct session_diff d;

		if (session_diff(s, &c->opts, c->diff_steps ? c->diff_step : NULL,
		    c->rank, &d) < 0) {
			say("%s", s->err);
			return EXIT_INPUT;
		}
		FILE *out = report_out(c);

		struct compare_verdict vd;

		compare_verdict(&d.d, &vd);
		if (c->fail_above >= 0 && vd.change_pct > c->fail_above)
			status = EXIT_REGRESSION;
		if (report_compare_write(out, c->fmt, d.a, d.b, &d.d, c->fail_above,
		    c->ascii) < 0 || fold_close(out, stdout) < 0) {
			perror("gantty: writing the diff");
			status = EXIT_INPUT;
		}
		session_diff_free(&d);
	} else if (c->mode == MODE_REPORT) {
		FILE *out = report_out(c);

		if (report_analyses_write(out, c->fmt, &c->opts, s->origin_ns, s->an,
		    s->n_analyses, c->rank < 0 ? s->align_ns : NULL, s->unaligned,
		    c->ascii) < 0 || fold_close(out, stdout) < 0) {
			perror("gantty: writing the report");
			status = EXIT_INPUT;
		}
	} else {
		session_title(s, title, sizeof title);
		if (c->mode == MODE_RENDER)
			status = main_view_render(c, s, title);
		else
			status = run_viewer(c, s, title);
	}
	return status;
}

/* What the loaded traces' events take, for heap_analysis(). */
static size_t
model_bytes(const struct session *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->ntraces; i++)
		n += s->traces[i]->nevents * sizeof *s->traces[i]->events;
	return n;
}

int
main(int argc, char **argv)
{
	struct cli cli;
	int status = EXIT_OK;
	struct input_list inputs;
	struct session s;
	struct progress prog;
	struct session_hooks hooks = { NULL, show_loaded, &prog };
	size_t shown = 0;
	char err[1024], cache[PATH_MAX];

	heap_init();

	setlocale(LC_ALL, "");
	cli_parse(&cli, argc, argv);
	if (strcmp(nl_langinfo(CODESET), "UTF-8") != 0)
		cli.ascii = 1;          /* a non-UTF-8 locale: ASCII glyphs */
	if (cli.mode == MODE_VIEWER && !isatty(STDOUT_FILENO)) {
		fputs("gantty: standard output is not a terminal: the viewer needs one;\n"
		    "use --render for a text frame or --report for the numbers\n", stderr);
		return EXIT_USAGE;
	}
	if (cli_compile_pattern(&cli) < 0)
		return EXIT_USAGE;

	memset(&inputs, 0, sizeof inputs);
	if (input_expand(&inputs, argv + optind, (size_t)(argc - optind), err,
	    sizeof err) < 0) {
		say("%s", err);
		return EXIT_INPUT;
	}
	if (cli.reports) {
		status = run_reports(&cli, &inputs);
		goto out_inputs;
	}
	memset(&prog, 0, sizeof prog);
	prog.tty = !cli.quiet && isatty(STDERR_FILENO);
	prog.verbose = cli.verbose;
	if (prog.tty)
		hooks.progress = show_progress;
	progress_now = &prog;
	xalloc_set_fatal_hook(end_progress);
	clock_gettime(CLOCK_MONOTONIC, &prog.start);
	session_init(&s);
	s.comm_pattern = cli.comm_pattern != NULL ? &cli.comm_re : NULL;
	if (!cli.no_cache && cache_dir(cache, sizeof cache, err, sizeof err) < 0) {
		if (cli.verbose)
			say("%s", err);
		cli.no_cache = 1;
	}
	if (!cli.no_cache)
		cache_cleanup_on_signals();
	status = session_load(&s, &inputs, !cli.no_cache ? cache : NULL, &hooks);
	if (prog.count_shown)
		fputs("\r\033[K", stderr);
	prog.file_shown = prog.count_shown = 0;
	show_warnings(&s, &cli, &shown);
	if (status < 0) {
		say("%s", s.err);
		status = EXIT_INPUT;
		goto out;
	}
	cli.opts.ranks_loaded = (int64_t)s.ntraces;
	heap_analysis(model_bytes(&s));
	/* the report shows the memory: built beside the layers (the viewer
	   builds it when asked); the viewer's every window needs the op
	   FLOPs, which MFU builds anyway */
	cli.opts.memory = cli.mode == MODE_REPORT;
	cli.opts.keep_flops = cli.mode == MODE_VIEWER || cli.mode == MODE_RENDER;
	if (cli.align)
		session_align(&s, &cli.opts);
	if (cli.compare)
		session_compare_align(&s, &cli.opts);
	if (cli.window != NULL && session_window(&s, "--window", cli.window, &cli.opts) < 0)
		cli_usage_error("%s", s.err);
	if (cli.marks != NULL) {
		struct analysis_opts mo = cli.opts;

		if (session_window(&s, "--marks", cli.marks, &mo) < 0)
			cli_usage_error("%s", s.err);
	}
	if (session_analyse(&s, &cli.opts, cli.rank) < 0) {
		say("%s", s.err);
		status = EXIT_INPUT;
		goto out;
	}
	show_warnings(&s, &cli, &shown);
	status = run_mode(&cli, &s);
out:
	session_free(&s);
out_inputs:
	input_free(&inputs);
	cli_free(&cli);
	return status;
}
