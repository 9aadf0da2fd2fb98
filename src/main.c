/*
 * main — the command line: parse options, load the traces, run the mode.
 *
 * The only file that prints diagnostics and calls exit().
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analysis/align.h"
#include "analysis/analysis.h"
#include "load/cache.h"
#include "analysis/crossrank.h"
#include "analysis/compare.h"
#include "render/grid.h"
#include "load/input.h"
#include "view/command.h"
#include "view/keymap.h"
#include "load/load.h"
#include "analysis/metrics.h"
#include "render/render.h"
#include "report/report.h"
#include "report/report_set.h"
#include "report/report_compare.h"
#include "tui/style.h"
#include "model/trace.h"
#include "tui/tui.h"
#include "base/units.h"
#include "base/xalloc.h"

enum exit_code {
	EXIT_OK = 0,
	EXIT_INPUT = 1,         /* bad input or runtime error */
	EXIT_USAGE = 2,
};

static const char usage_text[] =
    "usage: gantty [OPTIONS] TRACE...\n"
    "       gantty --report [--format=text|json|csv] [OPTIONS] TRACE...\n"
    "       gantty --render [--width=N] [--height=N] [OPTIONS] TRACE...\n"
    "       gantty --reports [--report [--format=F]] [OPTIONS] REPORT...\n"
    "       gantty --diff [--format=text|json] [OPTIONS] TRACE_A TRACE_B\n"
    "\n"
    "Loads PyTorch profiler (Kineto) traces: .json or .json.gz files, '-' for\n"
    "standard input, or directories of per-rank traces, and reports exposed\n"
    "communication, bubbles, steps, layers and MFU.\n"
    "\n"
    "  --report               print the report and exit\n"
    "  --diff                 compare two traces (B - A) and exit\n"
    "  --diff-steps=N:M       with --diff and one trace: step N (A) against M (B)\n"
    "  --compare              view (or --render) two traces A B on one time\n"
    "                         axis, aligned at their first step; B - A in view\n"
    "  --format=FMT           text (default), json, or csv (steps and layers)\n"
    "  --window=START:END     one window for all ranks, durations with a unit\n"
    "                         (ns, us, ms, s) from the earliest event; either\n"
    "                         side may be empty (trace start / end)\n"
    "  --step=N               the GPU extent of ProfilerStep#N\n"
    "  --rank=N               only rank N\n"
    "  --min-gap=DUR          shortest idle interval that counts as a gap (10us)\n"
    "  --layer-pattern=REGEX  layers are CPU events matching REGEX (POSIX ERE;\n"
    "                         the first group, if any, names the layer)\n"
    "  --flops-per-step=F     global model FLOPs of one step, for MFU\n"
    "  --model-params=P       parameters, with --tokens-per-step: F = 6*P*D\n"
    "  --tokens-per-step=D    global tokens per step\n"
    "  --recompute            activation recomputation: F = 8*P*D\n"
    "  --peak-tflops=T        peak TFLOP/s of one device (else from its name)\n"
    "  --world-size=N         ranks in the job (else distributedInfo, else the\n"
    "                         number of traces loaded)\n"
    "  --align=collective     shift each rank's clock so that matched\n"
    "                         collectives complete together (default none)\n"
    "  --reports              the arguments are per-rank JSON reports (of\n"
    "                         --report --format=json), or directories of them:\n"
    "                         the cross-rank tables and the rank x step matrix\n"
    "                         of thousands of ranks without their traces;\n"
    "                         with --rank=N, open rank N's trace\n"
    "  --no-cache             neither read nor write the cache of loaded traces\n"
    "                         ($XDG_CACHE_HOME/gantty, else ~/.cache/gantty)\n"
    "  -q, --quiet            no progress or warnings on standard error\n"
    "  -v, --verbose          say what the cache did for each file\n"
    "  -h, --help             show this help and exit\n"
    "  -V, --version          show the version and exit\n"
    "\n"
    "Numbers for F, P, D take k, M, G (or B) and T suffixes (7B = 7e9).\n"
    "\n"
    "  --render               print the viewer's frame as text and exit\n"
    "  --width=N, --height=N  the --render frame size (120x40)\n"
    "  --cpu                  start with the CPU lanes shown\n"
    "  --matrix               start with the rank x step matrix (several ranks)\n"
    "  --baseline=N           start with ProfilerStep#N marked as the baseline A\n"
    "  --diff-table           start with the diff table (D): --compare's A and B,\n"
    "                         else the baseline step and the step in view\n"
    "  --color=WHEN           auto (default), always or never; NO_COLOR is honoured\n"
    "  --ascii                ASCII glyphs only (also in a non-UTF-8 locale)\n"
    "\n"
    "Without --report or --render gantty opens the viewer; press ? there for\n"
    "the keys.  See gantty(1).\n";

static void
usage_error(const char *fmt, const char *arg) __attribute__((noreturn));

static void
usage_error(const char *fmt, const char *arg)
{
	fputs("gantty: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry 'gantty --help'.\n", stderr);
	exit(EXIT_USAGE);
}

struct progress {
	const char *path;
	struct timespec start;
	int shown;
};

static double
elapsed_s(const struct timespec *since)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - since->tv_sec) +
	    (double)(now.tv_nsec - since->tv_nsec) / 1e9;
}

/* Shows "loading FILE  42%" on a terminal once a load takes over a second. */
static void
show_progress(uint64_t done, uint64_t total, void *ctx)
{
	struct progress *p = ctx;

	if (!p->shown && elapsed_s(&p->start) < 1.0)
		return;
	if (done >= total && total > 0) {
		if (p->shown)
			fputs("\r\033[K", stderr);
		p->shown = 0;
		return;
	}
	p->shown = 1;
	if (total > 0)
		fprintf(stderr, "\r\033[Kgantty: loading %s  %3d%%", p->path,
		    (int)(100.0 * (double)done / (double)total));
	else
		fprintf(stderr, "\r\033[Kgantty: loading %s  %llu MB", p->path,
		    (unsigned long long)(done >> 20));
}

/* Parses a positive count such as 7e9, 1.5T or 8B; returns -1 if invalid. */
static double
parse_count(const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno != 0 || !isfinite(v) || v <= 0)
		return -1;
	switch (*end) {
	case 'k': case 'K': v *= 1e3; end++; break;
	case 'M': v *= 1e6; end++; break;
	case 'G': case 'B': v *= 1e9; end++; break;
	case 'T': v *= 1e12; end++; break;
	default: break;
	}
	return *end == '\0' ? v : -1;
}

static int64_t
parse_int(const char *s, const char *what)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || *end != '\0' || errno != 0)
		usage_error(what, s);
	return v;
}

static int64_t
parse_dur(const char *s, const char *what)
{
	int64_t ns;

	if (units_parse_duration(s, &ns) != UNITS_OK)
		usage_error(what, s);
	return ns;
}

static void
print_warnings(const struct trace *t)
{
#define X(f, k, txt) \
	if (t->warn.f != 0) \
		fprintf(stderr, "gantty: warning: %s: %llu %s\n", t->path, \
		    (unsigned long long)t->warn.f, txt);
	TRACE_WARNINGS(X)
#undef X
	if (t->stop_reason != NULL)
		fprintf(stderr, "gantty: warning: stopped reading at %s\n",
		    t->stop_reason);
}

enum {
	OPT_REPORT = 256, OPT_FORMAT, OPT_WINDOW, OPT_STEP, OPT_RANK, OPT_MIN_GAP,
	OPT_LAYER_PATTERN, OPT_FLOPS, OPT_PARAMS, OPT_TOKENS, OPT_RECOMPUTE,
	OPT_PEAK, OPT_WORLD, OPT_RENDER, OPT_WIDTH, OPT_HEIGHT, OPT_COLOR,
	OPT_ASCII, OPT_CPU, OPT_KEYS, OPT_ALIGN, OPT_REPORTS, OPT_MATRIX,
	OPT_DIFF, OPT_DIFF_STEPS, OPT_COMPARE, OPT_NO_CACHE, OPT_DIFF_TABLE,
	OPT_BASELINE,
};

enum mode {
	MODE_VIEWER = 0,
	MODE_REPORT,
	MODE_RENDER,
	MODE_DIFF,
};

struct cli {
	enum mode mode;
	int width, height;      /* --render size */
	int color;              /* enum style_color */
	int ascii;
	int cpu;
	int matrix;             /* --matrix */
	int reports;            /* --reports: the inputs are JSON reports */
	int align;              /* --align=collective */
	enum report_format fmt;
	int quiet;
	int verbose;            /* -v: notes on the cache */
	int no_cache;
	const char *window;
	int64_t rank;           /* -1: all */
	const char *pattern;
	struct analysis_opts opts;
	int diff_steps;         /* --diff-steps=N:M given */
	int compare;            /* --compare: two traces aligned at step start */
	int difftable;          /* --diff-table: start with the diff table (D) */
	int has_baseline;       /* --baseline=N: ProfilerStep#N marked (b) */
	int64_t baseline;
	int64_t diff_step[2];
};

static void
parse_args(int argc, char **argv, struct cli *c)
{
	static const struct option longopts[] = {
		{ "report", no_argument, NULL, OPT_REPORT },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "window", required_argument, NULL, OPT_WINDOW },
		{ "step", required_argument, NULL, OPT_STEP },
		{ "rank", required_argument, NULL, OPT_RANK },
		{ "min-gap", required_argument, NULL, OPT_MIN_GAP },
		{ "layer-pattern", required_argument, NULL, OPT_LAYER_PATTERN },
		{ "flops-per-step", required_argument, NULL, OPT_FLOPS },
		{ "model-params", required_argument, NULL, OPT_PARAMS },
		{ "tokens-per-step", required_argument, NULL, OPT_TOKENS },
		{ "recompute", no_argument, NULL, OPT_RECOMPUTE },
		{ "peak-tflops", required_argument, NULL, OPT_PEAK },
		{ "world-size", required_argument, NULL, OPT_WORLD },
		{ "render", no_argument, NULL, OPT_RENDER },
		{ "width", required_argument, NULL, OPT_WIDTH },
		{ "height", required_argument, NULL, OPT_HEIGHT },
		{ "color", required_argument, NULL, OPT_COLOR },
		{ "colour", required_argument, NULL, OPT_COLOR },
		{ "ascii", no_argument, NULL, OPT_ASCII },
		{ "cpu", no_argument, NULL, OPT_CPU },
		{ "keys", no_argument, NULL, OPT_KEYS },
		{ "align", required_argument, NULL, OPT_ALIGN },
		{ "reports", no_argument, NULL, OPT_REPORTS },
		{ "matrix", no_argument, NULL, OPT_MATRIX },
		{ "diff", no_argument, NULL, OPT_DIFF },
		{ "diff-steps", required_argument, NULL, OPT_DIFF_STEPS },
		{ "compare", no_argument, NULL, OPT_COMPARE },
		{ "diff-table", no_argument, NULL, OPT_DIFF_TABLE },
		{ "baseline", required_argument, NULL, OPT_BASELINE },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "no-cache", no_argument, NULL, OPT_NO_CACHE },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;

	memset(c, 0, sizeof *c);
	c->rank = -1;
	c->width = 120;
	c->height = 40;
	c->color = STYLE_COLOR_AUTO;
	c->opts.min_gap_ns = METRICS_DEFAULT_MIN_GAP_NS;
	while ((ch = getopt_long(argc, argv, "qvhV", longopts, NULL)) != -1) {
		switch (ch) {
		case OPT_REPORT:
			c->mode = MODE_REPORT;
			break;
		case OPT_RENDER:
			c->mode = MODE_RENDER;
			break;
		case OPT_DIFF:
			c->mode = MODE_DIFF;
			break;
		case OPT_COMPARE:
			c->compare = 1;
			break;
		case OPT_DIFF_TABLE:
			c->difftable = 1;
			break;
		case OPT_BASELINE: {
			char *end;

			errno = 0;
			c->baseline = strtoll(optarg, &end, 10);
			if (errno != 0 || end == optarg || *end != '\0')
				usage_error("--baseline takes a step number, not '%s'", optarg);
			c->has_baseline = 1;
			break;
		}
		case OPT_DIFF_STEPS: {
			char *colon = strchr(optarg, ':'), *end;

			c->mode = MODE_DIFF;
			c->diff_steps = 1;
			if (colon == NULL)
				usage_error("--diff-steps needs N:M, not '%s'", optarg);
			c->diff_step[0] = strtoll(optarg, &end, 10);
			if (end != colon || end == optarg)
				usage_error("--diff-steps needs N:M, not '%s'", optarg);
			c->diff_step[1] = strtoll(colon + 1, &end, 10);
			if (*end != '\0' || end == colon + 1)
				usage_error("--diff-steps needs N:M, not '%s'", optarg);
			break;
		}
		case OPT_WIDTH:
			c->width = (int)parse_int(optarg, "--width needs a number of columns, not '%s'");
			if (c->width < 1 || c->width > 10000)
				usage_error("--width must be 1 to 10000, not '%s'", optarg);
			break;
		case OPT_HEIGHT:
			c->height = (int)parse_int(optarg, "--height needs a number of rows, not '%s'");
			if (c->height < 1 || c->height > 10000)
				usage_error("--height must be 1 to 10000, not '%s'", optarg);
			break;
		case OPT_COLOR:
			if (strcmp(optarg, "auto") == 0)
				c->color = STYLE_COLOR_AUTO;
			else if (strcmp(optarg, "always") == 0)
				c->color = STYLE_COLOR_ALWAYS;
			else if (strcmp(optarg, "never") == 0)
				c->color = STYLE_COLOR_NEVER;
			else
				usage_error("--color is auto, always or never, not '%s'", optarg);
			break;
		case OPT_ASCII:
			c->ascii = 1;
			break;
		case OPT_ALIGN:
			if (strcmp(optarg, "collective") == 0)
				c->align = 1;
			else if (strcmp(optarg, "none") == 0)
				c->align = 0;
			else
				usage_error("--align is collective or none, not '%s'", optarg);
			break;
		case OPT_CPU:
			c->cpu = 1;
			break;
		case OPT_MATRIX:
			c->matrix = 1;
			break;
		case OPT_REPORTS:
			c->reports = 1;
			break;
		case OPT_KEYS:
			for (size_t i = 0; i < keymap_len; i++)
				printf("%s\t%s\n", keymap[i].keys_text,
				    keymap_help(keymap[i].cmd));
			exit(EXIT_OK);
		case OPT_FORMAT:
			if (c->mode != MODE_DIFF)
				c->mode = MODE_REPORT;
			if (strcmp(optarg, "text") == 0)
				c->fmt = REPORT_TEXT;
			else if (strcmp(optarg, "json") == 0)
				c->fmt = REPORT_JSON;
			else if (strcmp(optarg, "csv") == 0)
				c->fmt = REPORT_CSV;
			else
				usage_error("unknown report format '%s' (text, json or csv)",
				    optarg);
			break;
		case OPT_WINDOW:
			c->window = optarg;
			break;
		case OPT_STEP:
			c->opts.window = WINDOW_STEP;
			c->opts.step = parse_int(optarg, "--step needs a step number, not '%s'");
			break;
		case OPT_RANK:
			c->rank = parse_int(optarg, "--rank needs a rank number, not '%s'");
			if (c->rank < 0)
				usage_error("--rank needs a rank number, not '%s'", optarg);
			break;
		case OPT_MIN_GAP:
			c->opts.min_gap_ns = parse_dur(optarg,
			    "--min-gap needs a duration with a unit (e.g. 50us), not '%s'");
			if (c->opts.min_gap_ns < 0)
				usage_error("--min-gap cannot be negative: '%s'", optarg);
			break;
		case OPT_LAYER_PATTERN:
			c->pattern = optarg;
			break;
		case OPT_FLOPS:
			if ((c->opts.mfu.flops_per_step = parse_count(optarg)) <= 0)
				usage_error("--flops-per-step needs a positive number, not '%s'",
				    optarg);
			break;
		case OPT_PARAMS:
			if ((c->opts.mfu.model_params = parse_count(optarg)) <= 0)
				usage_error("--model-params needs a positive number, not '%s'",
				    optarg);
			break;
		case OPT_TOKENS:
			if ((c->opts.mfu.tokens_per_step = parse_count(optarg)) <= 0)
				usage_error("--tokens-per-step needs a positive number, not '%s'",
				    optarg);
			break;
		case OPT_RECOMPUTE:
			c->opts.mfu.recompute = 1;
			break;
		case OPT_PEAK:
			if ((c->opts.mfu.peak_tflops = parse_count(optarg)) <= 0)
				usage_error("--peak-tflops needs a positive number, not '%s'",
				    optarg);
			break;
		case OPT_WORLD:
			c->opts.mfu.world_size = parse_int(optarg,
			    "--world-size needs a positive integer, not '%s'");
			if (c->opts.mfu.world_size <= 0)
				usage_error("--world-size needs a positive integer, not '%s'",
				    optarg);
			break;
		case 'q':
			c->quiet = 1;
			break;
		case 'v':
			c->verbose = 1;
			break;
		case OPT_NO_CACHE:
			c->no_cache = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			exit(EXIT_OK);
		case 'V':
			printf("gantty %s\n", PACKAGE_VERSION);
			exit(EXIT_OK);
		default:
			fputs("Try 'gantty --help'.\n", stderr);
			exit(EXIT_USAGE);
		}
	}
	if (c->window != NULL && c->opts.window == WINDOW_STEP)
		usage_error("%s", "--window and --step cannot be combined");
	if ((c->opts.mfu.model_params > 0) != (c->opts.mfu.tokens_per_step > 0))
		usage_error("%s", "--model-params and --tokens-per-step go together");
	if (c->opts.mfu.flops_per_step > 0 && c->opts.mfu.model_params > 0)
		usage_error("%s", "give --flops-per-step or --model-params, not both");
	if (c->opts.mfu.model_params > 0)
		c->opts.mfu.flops_per_step = (c->opts.mfu.recompute ? 8.0 : 6.0) *
		    c->opts.mfu.model_params * c->opts.mfu.tokens_per_step;
	if (optind >= argc)
		usage_error("%s", "no trace given");
	if (c->mode == MODE_DIFF && !c->diff_steps && argc - optind != 2)
		usage_error("%s", "--diff compares two traces: TRACE_A TRACE_B");
	if (c->compare && (c->mode == MODE_REPORT || c->mode == MODE_DIFF))
		usage_error("%s", "--compare is for the viewer and --render");
	if (c->has_baseline && c->compare)
		usage_error("%s", "--baseline marks a step of one trace; --compare compares two");
	if ((c->difftable || c->has_baseline) &&
	    (c->mode == MODE_REPORT || c->mode == MODE_DIFF))
		usage_error("%s", "--diff-table and --baseline are for the viewer and --render");
	if (c->compare && argc - optind != 2)
		usage_error("%s", "--compare shows two traces: TRACE_A TRACE_B");
	if (c->diff_steps && argc - optind != 1)
		usage_error("%s", "--diff-steps compares two steps of one trace");
	if (c->diff_steps && (c->window != NULL || c->opts.window == WINDOW_STEP))
		usage_error("%s", "--diff-steps sets the windows: no --window or --step");
	if (c->mode == MODE_DIFF && c->fmt == REPORT_CSV)
		usage_error("%s", "--diff writes text or json, not csv");
}

/* Sets the absolute window from "START:END" relative to origin_ns. */
/* origin + d, saturated to the model's time range (SPEC: +-2^62 ns). */
static int64_t
clamp_add(int64_t origin, int64_t d)
{
	if (d > TRACE_TIME_MAX - origin)
		return TRACE_TIME_MAX;
	if (d < -TRACE_TIME_MAX - origin)
		return -TRACE_TIME_MAX;
	return origin + d;
}

static void
set_window(struct cli *c, int64_t origin_ns, int64_t last_ns)
{
	char *text = xstrdup(c->window), *colon = strchr(text, ':');
	int64_t s = 0, e;

	if (colon == NULL)
		usage_error("--window needs START:END (e.g. 10ms:25ms), not '%s'",
		    c->window);
	*colon = '\0';
	if (*text != '\0')
		s = parse_dur(text, "--window: '%s' is not a duration with a unit");
	if (colon[1] != '\0')
		e = parse_dur(colon + 1, "--window: '%s' is not a duration with a unit");
	else
		e = last_ns - origin_ns;
	if (e <= s)
		usage_error("--window must end after it starts: '%s'", c->window);
	c->opts.window = WINDOW_ABSOLUTE;
	c->opts.start_ns = clamp_add(origin_ns, s);
	c->opts.end_ns = clamp_add(origin_ns, e);
	free(text);
}

/*
 * Loading runs on a small pool of threads (one per core, at most one per
 * file): each worker takes the next file, loads and finalises it.  Results
 * are then taken in input order, so ranks, errors and output do not depend
 * on which thread finished first.
 */
struct loader {
	const struct input_list *in;
	const struct cli *cli;
	const char *cache_dir;          /* NULL: no cache */
	struct trace **slot;            /* per input: the trace, or NULL */
	struct load_error *err;         /* per input */
	size_t next, done;
	pthread_mutex_t mu;
	struct timespec start;
	int shown;
};

static void *
load_worker(void *arg)
{
	struct loader *L = arg;

	for (;;) {
		size_t i;
		struct trace *t;
		struct progress prog;
		/* files in parallel: one thread each; a single file: two */
		struct load_opts lopts = { NULL, &prog, L->in->n > 1 ? 1 : 0 };
		char note[PATH_MAX + 1024];

		pthread_mutex_lock(&L->mu);
		i = L->next++;
		pthread_mutex_unlock(&L->mu);
		if (i >= L->in->n)
			return NULL;
		t = xmalloc(sizeof *t);
		prog.path = L->in->v[i].path;
		prog.start = L->start;
		prog.shown = 0;
		/* per-file progress only when there is one file (one line to update) */
		if (L->in->n == 1 && !L->cli->quiet && isatty(STDERR_FILENO))
			lopts.progress = show_progress;
		if (cache_load_trace(t, L->in->v[i].path, &lopts, &L->err[i],
		    L->cache_dir, note, sizeof note) < 0) {
			free(t);
			t = NULL;
		}
		if (prog.shown)
			fputs("\r\033[K", stderr);
		if (L->cli->verbose && note[0] != '\0')
			fprintf(stderr, "gantty: %s\n", note);
		pthread_mutex_lock(&L->mu);
		L->slot[i] = t;
		L->done++;
		if (L->in->n > 1 && !L->cli->quiet && isatty(STDERR_FILENO) &&
		    (L->shown || elapsed_s(&L->start) >= 1.0)) {
			L->shown = 1;
			fprintf(stderr, "\r\033[Kgantty: loaded %zu of %zu traces", L->done,
			    L->in->n);
		}
		pthread_mutex_unlock(&L->mu);
	}
}

/*
 * Loads every input; non-traces found in a directory are skipped with a
 * warning.  Returns 0, or -1 after printing the first error (in input order).
 */
static int
load_all(const struct input_list *in, const struct cli *c, struct trace **traces,
    size_t *ntraces, int64_t *origin, int64_t *last)
{
	struct loader L;
	char cache[PATH_MAX];
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	size_t nthreads = ncpu < 1 ? 1 : (size_t)ncpu;
	pthread_t tids[16];
	size_t started = 0;
	int rc = 0;

	if (nthreads > 16)
		nthreads = 16;
	if (nthreads > in->n)
		nthreads = in->n;
	memset(&L, 0, sizeof L);
	L.in = in;
	L.cli = c;
	if (!c->no_cache && cache_dir(cache, sizeof cache) == 0)
		L.cache_dir = cache;
	L.slot = xcalloc(in->n, sizeof *L.slot);
	L.err = xcalloc(in->n, sizeof *L.err);
	pthread_mutex_init(&L.mu, NULL);
	clock_gettime(CLOCK_MONOTONIC, &L.start);
	for (size_t i = 1; i < nthreads; i++)
		if (pthread_create(&tids[started], NULL, load_worker, &L) == 0)
			started++;
	load_worker(&L);
	for (size_t i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	pthread_mutex_destroy(&L.mu);
	if (L.shown)
		fputs("\r\033[K", stderr);

	*ntraces = 0;
	for (size_t i = 0; i < in->n; i++) {
		struct trace *t = L.slot[i];

		if (t == NULL) {
			if (rc < 0)
				continue;
			if (in->v[i].from_dir && L.err[i].not_trace) {
				if (!c->quiet)
					fprintf(stderr, "gantty: warning: %s, skipped\n",
					    L.err[i].msg);
				continue;
			}
			fprintf(stderr, "gantty: %s\n", L.err[i].msg);
			rc = -1;
			continue;
		}
		if (rc < 0) {
			trace_free(t);
			free(t);
			continue;
		}
		if (!c->quiet)
			print_warnings(t);
		input_assign_rank(t, *ntraces);
		if (t->nevents > 0) {
			if (*ntraces == 0 || t->start_ns < *origin)
				*origin = t->start_ns;
			if (*ntraces == 0 || t->end_ns > *last)
				*last = t->end_ns;
		}
		traces[(*ntraces)++] = t;
	}
	free(L.slot);
	free(L.err);
	return rc;
}

/*
 * --align=collective: analyses every (rank, device) with the default window,
 * matches their collectives, and shifts each trace by the offset of its
 * first (rank, device) against the first trace's.  Returns the offsets per
 * analysis of all ranks, in the order the report lists them (malloc'd), and
 * counts in *unaligned the participants that could not be aligned.
 */
static int64_t *
align_traces(struct trace **traces, size_t n, const struct analysis_opts *o,
    size_t *unaligned)
{
	struct analysis_opts dflt = *o;
	struct analysis *an = NULL;
	size_t nan = 0, cap = 0;
	size_t *first = xcalloc(n, sizeof *first);
	struct crossrank x;
	int64_t *off;

	dflt.window = WINDOW_DEFAULT;
	dflt.layer_pattern = NULL;
	for (size_t i = 0; i < n; i++) {
		int32_t *devs = NULL;
		size_t ndev = metrics_devices(traces[i], &devs);

		first[i] = nan;
		for (size_t d = 0; d < (ndev ? ndev : 1); d++) {
			xgrow(&an, &cap, nan + 1, sizeof *an);
			analysis_build(&an[nan++], traces[i], ndev ? devs[d] : -1, &dflt);
		}
		free(devs);
	}
	crossrank_build(&x, an, nan);
	off = xcalloc(nan + 1, sizeof *off);
	align_offsets(&x, off, unaligned);
	crossrank_free(&x);
	for (size_t i = 0; i < nan; i++)
		analysis_free(&an[i]);
	free(an);
	/* one clock per trace: its first (rank, device) decides */
	for (size_t i = 0; i < n; i++)
		align_shift(traces[i], off[first[i]]);
	for (size_t i = 0; i < n; i++) {
		size_t end = i + 1 < n ? first[i + 1] : nan;

		for (size_t k = first[i] + 1; k < end; k++)
			off[k] = off[first[i]];
	}
	free(first);
	return off;
}

/* A short title: the file, or the first file and how many more. */
static void
make_title(char *buf, size_t size, struct trace **traces, size_t n)
{
	const char *base = strrchr(traces[0]->path, '/');

	base = base ? base + 1 : traces[0]->path;
	if (n == 1)
		snprintf(buf, size, "%s", base);
	else
		snprintf(buf, size, "%s +%zu more", base, n - 1);
}

/* Sets up the view for the command line's window, step and toggles. */
static void
setup_view(struct view *v, const struct cli *c, struct analysis *an, size_t nan,
    int64_t t0, int64_t t1, int w, int h)
{
	struct layout lay;

	view_init(v, an, nan, t0, t1, 1);
	view_set_opts(v, &c->opts);
	v->show_cpu = c->cpu;
	if (c->matrix && v->xr != NULL)
		view_push_mode(v, VIEW_MODE_MATRIX);
	v->compare = c->compare && nan >= 2;
	render_layout(&lay, v, w, h);
	view_resize(v, lay.time_cols > 0 ? lay.time_cols : 1);
	view_set_cursor(v, v->cols / 2);
	render_layout_free(&lay);
	if (c->opts.window == WINDOW_ABSOLUTE) {
		view_set_window(v, c->opts.start_ns, c->opts.end_ns, 0);
	} else if (c->opts.window == WINDOW_STEP) {
		for (size_t i = 0; i < nan; i++) {
			if (!an[i].has_window)
				continue;
			v->rank = i;
			view_set_window(v, an[i].start_ns, an[i].end_ns, 0);
			for (size_t s = 0; s < an[i].nsteps; s++)
				if (an[i].steps[s].number == c->opts.step) {
					v->sel = SEL_STEP;
					v->sel_index = (long)s;
				}
			break;
		}
	}
	if (c->has_baseline && v->nan > 0) {
		const struct analysis *a = view_current(v);

		for (size_t s = 0; s < a->nsteps; s++)
			if (a->steps[s].number == c->baseline) {
				v->base_rank = v->rank;
				v->base_step = (long)s;
			}
		if (v->base_step < 0 && !c->quiet)
			fprintf(stderr, "gantty: warning: --baseline: no ProfilerStep#%lld\n",
			    (long long)c->baseline);
	}
	if (c->difftable)
		view_push_mode(v, VIEW_MODE_COMPARE_TABLE);
	view_recalc(v);
}

/* Writes the frame of v (c->width x c->height) as text on stdout. */
static int
print_frame(const struct cli *c, struct view *v, const char *title)
{
	struct layout lay;
	struct grid g;
	struct render_opts ro;
	int ansi = c->color == STYLE_COLOR_ALWAYS ||
	    (c->color == STYLE_COLOR_AUTO && isatty(STDOUT_FILENO) &&
	    (getenv("NO_COLOR") == NULL || *getenv("NO_COLOR") == '\0'));
	int rc;

	memset(&ro, 0, sizeof ro);
	ro.ascii = c->ascii;
	ro.mono = !ansi;
	ro.title = title;
	render_layout(&lay, v, c->width, c->height);
	grid_init(&g, c->width, c->height);
	render_frame(&g, &lay, v, &ro);
	rc = grid_write(&g, stdout, ansi);
	grid_free(&g);
	render_layout_free(&lay);
	if (rc < 0 || fflush(stdout) != 0) {
		perror("gantty: writing the frame");
		return EXIT_INPUT;
	}
	return EXIT_OK;
}

/* --render: the frame the viewer would draw, as text on stdout. */
static int
run_render(const struct cli *c, struct analysis *an, size_t nan, int64_t t0,
    int64_t t1, const char *title)
{
	struct view v;
	int rc;

	setup_view(&v, c, an, nan, t0, t1, c->width, c->height);
	rc = print_frame(c, &v, title);
	view_free(&v);
	return rc;
}

/* The interactive viewer. */
static int
run_viewer(const struct cli *c, struct analysis *an, size_t nan, int64_t t0,
    int64_t t1, const char *title)
{
	struct view v;
	struct render_opts ro;
	int rc;

	setup_view(&v, c, an, nan, t0, t1, 120, 40);
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
		rc = run_render(&one, an, nan, t0, t1, title);
		fprintf(stderr, "gantty: %s\n", tui_error());
		return rc;
	}
	if (rc == 1 && *tui_error() != '\0')
		fprintf(stderr, "gantty: %s\n", tui_error());
	return rc;
}

/*
 * --compare: shifts the second trace so that its first step starts with the
 * first trace's (compare_align_offset()), and recomputes the span of both.
 */
static void
compare_align(struct trace **traces, size_t n, const struct analysis_opts *o,
    int64_t *origin, int64_t *last)
{
	struct analysis a[2];
	struct analysis_opts dflt = *o;
	int32_t *devs;

	if (n != 2)
		return;
	dflt.window = WINDOW_DEFAULT;
	for (int k = 0; k < 2; k++) {
		devs = NULL;
		analysis_build(&a[k], traces[k],
		    metrics_devices(traces[k], &devs) ? devs[0] : -1, &dflt);
		free(devs);
	}
	align_shift(traces[1], compare_align_offset(&a[0], &a[1]));
	for (int k = 0; k < 2; k++)
		analysis_free(&a[k]);
	*origin = traces[0]->start_ns < traces[1]->start_ns ?
	    traces[0]->start_ns : traces[1]->start_ns;
	*last = traces[0]->end_ns > traces[1]->end_ns ?
	    traces[0]->end_ns : traces[1]->end_ns;
}

/*
 * --diff: the first analysed (rank, device) of the first trace against that
 * of the second.
 */
static int
run_diff(const struct cli *c, struct trace **traces, size_t ntraces,
    const struct analysis *an, size_t nan)
{
	const struct analysis *side[2] = { NULL, NULL };
	struct analysis st[2];
	struct compare d;
	int status = EXIT_OK;

	if (c->diff_steps) {
		/* two steps of one trace: its first analysed device, twice */
		for (int k = 0; k < 2; k++) {
			struct analysis_opts o = c->opts;

			if (nan == 0 || an[0].device < 0) {
				fprintf(stderr, "gantty: --diff-steps: no GPU activity\n");
				if (k == 1)
					analysis_free(&st[0]);
				return EXIT_INPUT;
			}
			o.window = WINDOW_STEP;
			o.step = c->diff_step[k];
			analysis_build(&st[k], an[0].t, an[0].device, &o);
			if (!st[k].has_window) {
				fprintf(stderr, "gantty: --diff-steps: %s\n", st[k].problem);
				analysis_free(&st[k]);
				if (k == 1)
					analysis_free(&st[0]);
				return EXIT_INPUT;
			}
		}
		compare_build(&d, &st[0], &st[1]);
		if (report_compare_write(stdout, c->fmt, &st[0], &st[1], &d) < 0) {
			perror("gantty: writing the diff");
			status = EXIT_INPUT;
		}
		compare_free(&d);
		analysis_free(&st[0]);
		analysis_free(&st[1]);
		return status;
	}
	if (ntraces != 2) {
		fprintf(stderr, "gantty: --diff compares two trace files, not %zu traces\n",
		    ntraces);
		return EXIT_INPUT;
	}
	for (size_t i = 0; i < nan; i++)
		for (int k = 0; k < 2; k++)
			if (side[k] == NULL && an[i].t == traces[k])
				side[k] = &an[i];
	if (side[0] == NULL || side[1] == NULL) {
		fprintf(stderr, "gantty: --diff: %s has no rank %lld\n",
		    traces[side[0] == NULL ? 0 : 1]->path, (long long)c->rank);
		return EXIT_INPUT;
	}
	compare_build(&d, side[0], side[1]);
	if (report_compare_write(stdout, c->fmt, side[0], side[1], &d) < 0) {
		perror("gantty: writing the diff");
		status = EXIT_INPUT;
	}
	compare_free(&d);
	return status;
}

/*
 * Opens the trace of participant r of the reports in full: gantty again, on
 * that trace, with the display options and the mode (--report with its
 * format, --render with its size, else the viewer).  The path is the one the report was
 * made with; a relative one that is not there is tried beside the report.
 * Returns only on failure.
 */
static int
open_report_rank(const struct cli *c, const struct report_rank *r)
{
	char alt[4096], color[32], width[32], height[32], format[32];
	const char *path = r->trace, *slash = strrchr(r->file, '/');
	char *args[12];
	int n = 0;

	if (access(path, R_OK) != 0 && path[0] != '/' && slash != NULL) {
		snprintf(alt, sizeof alt, "%.*s/%s", (int)(slash - r->file), r->file,
		    path);
		if (access(alt, R_OK) == 0)
			path = alt;
	}
	if (access(path, R_OK) != 0) {
		fprintf(stderr, "gantty: rank %lld: its trace %s (named in %s): %s\n",
		    (long long)r->in.rank, r->trace, r->file, strerror(errno));
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
		if (c->quiet)
			args[n++] = (char *)"-q";
	} else if (c->mode == MODE_RENDER) {
		snprintf(width, sizeof width, "--width=%d", c->width);
		snprintf(height, sizeof height, "--height=%d", c->height);
		args[n++] = (char *)"--render";
		args[n++] = width;
		args[n++] = height;
		if (c->quiet)
			args[n++] = (char *)"-q";
	}
	args[n++] = (char *)"--";
	args[n++] = (char *)path;
	args[n] = NULL;
	fflush(NULL);
	execv("/proc/self/exe", args);
	fprintf(stderr, "gantty: cannot start gantty again for %s: %s\n", path,
	    strerror(errno));
	return EXIT_INPUT;
}

/*
 * --reports: per-rank JSON reports read back (report_set.h), matched across
 * ranks, and shown as the cross-rank report, a frame, or the viewer's
 * matrix, from which Enter opens a rank's trace.  With --rank=N, rank N's
 * trace is opened at once (viewer, --render or --report alike).
 */
static int
run_reports(const struct cli *c, const struct input_list *in)
{
	struct report_set set;
	struct crossrank_in *ins;
	struct crossrank *x;
	int64_t *off = NULL;
	size_t unaligned = 0;
	char err[1024], title[256];
	int status = EXIT_OK;
	struct view v;

	memset(&set, 0, sizeof set);
	for (size_t i = 0; i < in->n; i++)
		if (report_set_load(&set, in->v[i].path, err, sizeof err) < 0) {
			fprintf(stderr, "gantty: %s\n", err);
			report_set_free(&set);
			return EXIT_INPUT;
		}
	if (set.n == 0) {
		fprintf(stderr, "gantty: no ranks in the reports\n");
		return EXIT_INPUT;
	}
	report_set_sort(&set);
	if (c->rank >= 0) {
		for (size_t i = 0; i < set.n; i++)
			if (set.v[i].in.rank == c->rank) {
				status = open_report_rank(c, &set.v[i]);
				goto out_nox;
			}
		fprintf(stderr, "gantty: no rank %lld among the reports\n",
		    (long long)c->rank);
		status = EXIT_INPUT;
		goto out_nox;
	}
	x = xmalloc(sizeof *x);
	ins = xcalloc(set.n, sizeof *ins);
	for (size_t i = 0; i < set.n; i++)
		ins[i] = set.v[i].in;   /* shallow: the set keeps ownership */
	crossrank_build_from(x, ins, set.n);
	if (c->align && set.n > 1) {
		off = xcalloc(set.n, sizeof *off);
		align_offsets(x, off, &unaligned);
		for (size_t i = 0; i < set.n; i++)
			crossrank_in_shift(&ins[i], off[i]);
		crossrank_free(x);
		crossrank_build_from(x, ins, set.n);
		x->align_ns = off;
		x->unaligned = unaligned;
	}
	free(ins);
	if (c->mode == MODE_REPORT) {
		if (report_write_cross(stdout, c->fmt, &set, x) < 0) {
			perror("gantty: writing the report");
			status = EXIT_INPUT;
		}
		crossrank_free(x);
		free(x);
		goto out_nox;
	}
	snprintf(title, sizeof title, "%zu ranks from reports", set.n);
	view_init(&v, NULL, 0, 0, 1, 1);
	view_set_crossrank(&v, x);      /* v owns x now */
	if (c->mode == MODE_RENDER) {
		struct layout lay;

		render_layout(&lay, &v, c->width, c->height);
		view_resize(&v, lay.time_cols > 0 ? lay.time_cols : 1);
		render_layout_free(&lay);
		status = print_frame(c, &v, title);
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
			status = print_frame(&one, &v, title);
		}
		if (status != 0 && *tui_error() != '\0')
			fprintf(stderr, "gantty: %s\n", tui_error());
		if (status == 0 && v.open_rank && v.rank < set.n) {
			size_t r = v.rank;

			view_free(&v);
			status = open_report_rank(c, &set.v[r]);
			goto out_nox;
		}
	}
	view_free(&v);
out_nox:
	free(off);
	report_set_free(&set);
	return status;
}

int
main(int argc, char **argv)
{
	struct cli cli;
	int status = EXIT_OK;
	struct input_list inputs;
	struct trace **traces;
	struct analysis *an = NULL;
	size_t ntraces = 0, nan = 0, ancap = 0, unaligned = 0;
	int64_t *align_ns = NULL;       /* per analysis of all ranks, --align */
	int64_t origin = 0, last = 0;
	regex_t re;
	char err[1024];

#ifdef M_MMAP_THRESHOLD
	/*
	 * Arrays of a MB or more get pages of their own, given back when
	 * freed.  glibc's default raises this threshold up to 32 MB as big
	 * arrays are freed, after which the analysis's temporary arrays (and
	 * the second thread's) stay in the heap: 8% more peak memory at 1 GB.
	 */
	mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif

	setlocale(LC_ALL, "");
	parse_args(argc, argv, &cli);
	if (strcmp(nl_langinfo(CODESET), "UTF-8") != 0)
		cli.ascii = 1;          /* a non-UTF-8 locale: ASCII glyphs */
	if (cli.mode == MODE_VIEWER && !isatty(STDOUT_FILENO)) {
		fputs("gantty: standard output is not a terminal: the viewer needs one;\n"
		    "use --render for a text frame or --report for the numbers\n", stderr);
		return EXIT_USAGE;
	}
	if (cli.pattern != NULL) {
		int rc = regcomp(&re, cli.pattern, REG_EXTENDED);

		if (rc != 0) {
			regerror(rc, &re, err, sizeof err);
			fprintf(stderr, "gantty: --layer-pattern '%s': %s\n", cli.pattern, err);
			return EXIT_USAGE;
		}
		cli.opts.layer_pattern = &re;
	}

	memset(&inputs, 0, sizeof inputs);
	if (input_expand(&inputs, argv + optind, (size_t)(argc - optind), err,
	    sizeof err) < 0) {
		fprintf(stderr, "gantty: %s\n", err);
		return EXIT_INPUT;
	}
	if (cli.reports) {
		status = run_reports(&cli, &inputs);
		input_free(&inputs);
		if (cli.pattern != NULL)
			regfree(&re);
		return status;
	}
	traces = xcalloc(inputs.n, sizeof *traces);
	if (load_all(&inputs, &cli, traces, &ntraces, &origin, &last) < 0) {
		status = EXIT_INPUT;
		goto out;
	}
	if (ntraces == 0) {
		fprintf(stderr, "gantty: no traces loaded\n");
		status = EXIT_INPUT;
		goto out;
	}
	cli.opts.ranks_loaded = (int64_t)ntraces;
	/* the report shows the memory: built beside the layers (the viewer
	   builds it when asked); the viewer's every window needs the op
	   FLOPs, which MFU builds anyway */
	cli.opts.memory = cli.mode == MODE_REPORT;
	cli.opts.keep_flops = cli.mode == MODE_VIEWER || cli.mode == MODE_RENDER;
	if (cli.align && ntraces > 1) {
		align_ns = align_traces(traces, ntraces, &cli.opts, &unaligned);
		origin = traces[0]->start_ns;
		last = traces[0]->end_ns;
		for (size_t i = 1; i < ntraces; i++) {
			if (traces[i]->nevents == 0)
				continue;
			if (traces[i]->start_ns < origin)
				origin = traces[i]->start_ns;
			if (traces[i]->end_ns > last)
				last = traces[i]->end_ns;
		}
	}
	if (cli.compare)
		compare_align(traces, ntraces, &cli.opts, &origin, &last);
	if (cli.window != NULL)
		set_window(&cli, origin, last);

	for (size_t i = 0; i < ntraces; i++) {
		int32_t *devs = NULL;
		size_t ndev;

		if (cli.rank >= 0 && traces[i]->rank != cli.rank)
			continue;
		ndev = metrics_devices(traces[i], &devs);
		for (size_t d = 0; d < (ndev ? ndev : 1); d++) {
			xgrow(&an, &ancap, nan + 1, sizeof *an);
			analysis_build(&an[nan], traces[i], ndev ? devs[d] : -1, &cli.opts);
			if (cli.opts.window == WINDOW_STEP && !an[nan].has_window &&
			    !cli.quiet)
				fprintf(stderr, "gantty: warning: %s: %s\n", traces[i]->path,
				    an[nan].problem);
			nan++;
		}
		free(devs);
	}
	if (nan == 0) {
		fprintf(stderr, "gantty: no rank %lld among the traces loaded\n",
		    (long long)cli.rank);
		status = EXIT_INPUT;
		goto out;
	}
	if (cli.mode == MODE_DIFF) {
		status = run_diff(&cli, traces, ntraces, an, nan);
	} else if (cli.mode == MODE_REPORT) {
		struct crossrank x;
		int multi = nan > 1;

		if (multi) {
			crossrank_build(&x, an, nan);
			if (align_ns != NULL && cli.rank < 0) {
				x.align_ns = align_ns;
				x.unaligned = unaligned;
			}
		}
		if (report_write(stdout, cli.fmt, &cli.opts, origin, an, nan,
		    multi ? &x : NULL) < 0) {
			perror("gantty: writing the report");
			status = EXIT_INPUT;
		}
		if (multi)
			crossrank_free(&x);
	} else {
		char title[256];

		make_title(title, sizeof title, traces, ntraces);
		if (cli.mode == MODE_RENDER)
			status = run_render(&cli, an, nan, origin, last, title);
		else
			status = run_viewer(&cli, an, nan, origin, last, title);
	}
out:
	for (size_t i = 0; i < nan; i++)
		analysis_free(&an[i]);
	free(an);
	free(align_ns);
	for (size_t i = 0; i < ntraces; i++) {
		trace_free(traces[i]);
		free(traces[i]);
	}
	free(traces);
	input_free(&inputs);
	if (cli.pattern != NULL)
		regfree(&re);
	return status;
}
