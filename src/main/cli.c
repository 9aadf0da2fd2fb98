/*
 * cli — the command line: one table of the options, --help, parsing.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/metrics.h"
#include "base/pattern.h"
#include "base/units.h"
#include "load/load.h"
#include "model/event.h"
#include "report/emit.h"
#include "main/cli.h"
#include "tui/style.h"
#include "view/keymap.h"

enum {
	OPT_REPORT = 256, OPT_FORMAT, OPT_WINDOW, OPT_STEP, OPT_RANK, OPT_MIN_GAP,
	OPT_LAYER_PATTERN, OPT_FLOPS, OPT_PARAMS, OPT_TOKENS, OPT_RECOMPUTE,
	OPT_PEAK, OPT_WORLD, OPT_RENDER, OPT_WIDTH, OPT_HEIGHT, OPT_COLOR,
	OPT_ASCII, OPT_CPU, OPT_KEYS, OPT_ALIGN, OPT_REPORTS, OPT_MATRIX,
	OPT_DIFF, OPT_DIFF_STEPS, OPT_COMPARE, OPT_NO_CACHE, OPT_DIFF_TABLE,
	OPT_BASELINE, OPT_COMM_PATTERN, OPT_PYTHON, OPT_COUNTERS, OPT_MARKS,
	OPT_SELECT, OPT_PANEL, OPT_WHAT_IF, OPT_FAIL_ABOVE,
};

/*
 * The options, in the order --help lists them: getopt_long's array and the
 * help text are built from this table.  at is the option's place in
 * getopt_long's array, which orders the candidates of an ambiguous
 * abbreviation ("--r") in its message.  A row without a name is a paragraph
 * of the help; a row without text is not listed.  The help's second and
 * later lines of an option are indented to its first's.
 */
static const struct opt {
	const char *name;
	int has_arg, val, at;
	const char *left, *text;
} opts[] = {
	{ "report", 0, OPT_REPORT, 0, "--report", "print the report and exit" },
	{ "diff", 0, OPT_DIFF, 24, "--diff", "compare two traces (B - A) and exit" },
	{ "diff-steps", 1, OPT_DIFF_STEPS, 25, "--diff-steps=N:M",
	  "with --diff and one trace: step N (A) against M (B)" },
	{ "fail-above", 1, OPT_FAIL_ABOVE, 41, "--fail-above=P%",
	  "with --diff: exit 3 when B takes more than P% longer\n"
	  "than A (the steps both have, else the windows)" },
	{ "compare", 0, OPT_COMPARE, 26, "--compare",
	  "view (or --render) two traces A B on one time\n"
	  "axis, aligned at their first step; B - A in view" },
	{ "format", 1, OPT_FORMAT, 1, "--format=FMT",
	  "text (default), json, or csv (steps and layers)" },
	{ "window", 1, OPT_WINDOW, 2, "--window=START:END",
	  "one window for all ranks, durations with a unit\n"
	  "(ns, us, ms, s) from the earliest event; either\n"
	  "side may be empty (trace start / end)" },
	{ "step", 1, OPT_STEP, 3, "--step=N", "the GPU extent of ProfilerStep#N" },
	{ "rank", 1, OPT_RANK, 4, "--rank=N", "only rank N" },
	{ "min-gap", 1, OPT_MIN_GAP, 5, "--min-gap=DUR",
	  "shortest idle interval that counts as a gap (10us)" },
	{ "layer-pattern", 1, OPT_LAYER_PATTERN, 6, "--layer-pattern=REGEX",
	  "layers are CPU events matching REGEX (POSIX ERE;\n"
	  "the first group, if any, names the layer)" },
	{ "comm-pattern", 1, OPT_COMM_PATTERN, 34, "--comm-pattern=REGEX",
	  "kernels whose names match REGEX (POSIX ERE) are\n"
	  "communication too, beside the built-in rules" },
	{ "what-if", 1, OPT_WHAT_IF, 40, "--what-if=S",
	  "with --report: replay each step's dependency graph\n"
	  "with the change S (none, comm=K, kernels=REGEX:K,\n"
	  "no-straggler, no-host-wait; repeatable) and add\n"
	  "each step's critical path; in the viewer and\n"
	  "--render: show the critical path (P) and S's gain (i)" },
	{ "flops-per-step", 1, OPT_FLOPS, 7, "--flops-per-step=F",
	  "global model FLOPs of one step, for MFU" },
	{ "model-params", 1, OPT_PARAMS, 8, "--model-params=P",
	  "parameters, with --tokens-per-step: F = 6*P*D" },
	{ "tokens-per-step", 1, OPT_TOKENS, 9, "--tokens-per-step=D",
	  "global tokens per step" },
	{ "recompute", 0, OPT_RECOMPUTE, 10, "--recompute",
	  "activation recomputation: F = 8*P*D" },
	{ "peak-tflops", 1, OPT_PEAK, 11, "--peak-tflops=T",
	  "peak TFLOP/s of one device (else from its name)" },
	{ "world-size", 1, OPT_WORLD, 12, "--world-size=N",
	  "ranks in the job (else distributedInfo, else the\n"
	  "number of traces loaded)" },
	{ "align", 1, OPT_ALIGN, 21, "--align=collective",
	  "shift each rank's clock so that matched\n"
	  "collectives complete together (default none)" },
	{ "reports", 0, OPT_REPORTS, 22, "--reports",
	  "the arguments are per-rank JSON reports (of\n"
	  "--report --format=json), or directories of them:\n"
	  "the cross-rank tables and the rank x step matrix\n"
	  "of thousands of ranks without their traces;\n"
	  "with --rank=N, open rank N's trace" },
	{ "no-cache", 0, OPT_NO_CACHE, 31, "--no-cache",
	  "neither read nor write the cache of loaded traces\n"
	  "($XDG_CACHE_HOME/gantty, else ~/.cache/gantty)" },
	{ "quiet", 0, 'q', 29, "-q, --quiet", "no progress or warnings on standard error" },
	{ "verbose", 0, 'v', 30, "-v, --verbose", "say what the cache did for each file" },
	{ "help", 0, 'h', 32, "-h, --help", "show this help and exit" },
	{ "version", 0, 'V', 33, "-V, --version", "show the version and exit" },
	{ NULL, 0, 0, 0, NULL,
	  "\nNumbers for F, P, D take k, M, G (or B) and T suffixes (7B = 7e9).\n\n" },
	{ "render", 0, OPT_RENDER, 13, "--render", "print the viewer's frame as text and exit" },
	{ "width", 1, OPT_WIDTH, 14, "--width=N, --height=N", "the --render frame size (120x40)" },
	{ "height", 1, OPT_HEIGHT, 15, NULL, NULL },
	{ "cpu", 0, OPT_CPU, 19, "--cpu", "start with the CPU lanes shown" },
	{ "python", 0, OPT_PYTHON, 35, "--python",
	  "with the CPU lanes: show with_stack's Python frames (p)" },
	{ "counters", 0, OPT_COUNTERS, 36, "--counters", "start with the counter lanes shown (C)" },
	{ "marks", 1, OPT_MARKS, 37, "--marks=START:END",
	  "start with the marks (< >) set there, as --window:\n"
	  "the panel measures that range" },
	{ "select", 1, OPT_SELECT, 38, "--select=REGEX",
	  "start with the first event matching REGEX selected\n"
	  "(as / finds it), the focus on its lane" },
	{ "panel", 1, OPT_PANEL, 39, "--panel=NAME",
	  "start with the panel window (default), kernels or\n"
	  "selection (Tab)" },
	{ "matrix", 0, OPT_MATRIX, 23, "--matrix",
	  "start with the rank x step matrix (several ranks)" },
	{ "baseline", 1, OPT_BASELINE, 28, "--baseline=N",
	  "start with ProfilerStep#N marked as the baseline A" },
	{ "diff-table", 0, OPT_DIFF_TABLE, 27, "--diff-table",
	  "start with the diff table (D): --compare's A and B,\n"
	  "else the baseline step and the step in view" },
	{ "color", 1, OPT_COLOR, 16, "--color=WHEN",
	  "auto (default), always or never; NO_COLOR is honoured" },
	{ "colour", 1, OPT_COLOR, 17, NULL, NULL },
	{ "ascii", 0, OPT_ASCII, 18, "--ascii", "ASCII glyphs only (also in a non-UTF-8 locale)" },
	{ "keys", 0, OPT_KEYS, 20, "--keys",
	  "print the viewer's keys, a line each (the keys, a\n"
	  "tab, what they do), and exit" },
};
#define NOPTS (sizeof opts / sizeof opts[0] - 1)        /* less the paragraph */

/* --help: the synopsis, then every listed option of the table. */
static void
print_usage(void)
{
	fputs("usage: gantty [OPTIONS] TRACE...\n"
	    "       gantty --report [--format=text|json|csv] [OPTIONS] TRACE...\n"
	    "       gantty --render [--width=N] [--height=N] [OPTIONS] TRACE...\n"
	    "       gantty --reports [--report [--format=F]] [OPTIONS] REPORT...\n"
	    "       gantty --diff [--format=text|json] [OPTIONS] TRACE_A TRACE_B\n"
	    "\n"
	    "Loads PyTorch profiler (Kineto) traces: .json or .json.gz files, '-' for\n"
	    "standard input, or directories of per-rank traces, and reports exposed\n"
	    "communication, bubbles, steps, layers and MFU.\n"
	    "\n", stdout);
	for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++) {
		const char *p = opts[i].text;

		if (opts[i].name == NULL) {
			fputs(p, stdout);
			continue;
		}
		if (opts[i].left == NULL)
			continue;
		printf("  %-22s ", opts[i].left);
		for (;;) {
			size_t n = strcspn(p, "\n");

			printf("%.*s\n", (int)n, p);
			if (p[n] == '\0')
				break;
			p += n + 1;
			printf("%25s", "");
		}
	}
	fputs("\nWithout --report or --render gantty opens the viewer; press ? there for\n"
	    "the keys.  See gantty(1).\n", stdout);
}

void
cli_usage_error(const char *fmt, const char *arg)
{
	char buf[4096];

	/* arg may be a file name: safe for the terminal (emit.h) */
	snprintf(buf, sizeof buf, fmt, arg);
	fputs("gantty: ", stderr);
	emit_text_str(stderr, buf);
	fputs("\nTry 'gantty --help'.\n", stderr);
	exit(EXIT_USAGE);
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

/*
 * A positive count of option name (--flops-per-step...) within
 * [COUNT_MIN, COUNT_MAX], or a usage error: beyond them MFU's arithmetic
 * overflows to infinity (1e308T) or to nothing (1e-300).
 */
#define COUNT_MIN 1e-6
#define COUNT_MAX 1e30
static double
count_arg(const char *s, const char *name)
{
	char fmt[160];
	double v = parse_count(s);

	snprintf(fmt, sizeof fmt, "--%s needs a positive number, not '%%s'", name);
	if (v <= 0)
		cli_usage_error(fmt, s);
	snprintf(fmt, sizeof fmt, "--%s '%%s' is out of range (1e-6 .. 1e30)", name);
	if (!isfinite(v) || v < COUNT_MIN || v > COUNT_MAX)
		cli_usage_error(fmt, s);
	return v;
}

static int64_t
parse_int(const char *s, const char *what)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || *end != '\0' || errno != 0)
		cli_usage_error(what, s);
	return v;
}

/* --width and --height: 1 to 10000 of what (columns, rows). */
static int
size_arg(const char *s, const char *name, const char *what)
{
	char fmt[128];
	int v;

	snprintf(fmt, sizeof fmt, "--%s needs a number of %s, not '%%s'", name, what);
	v = (int)parse_int(s, fmt);    /* as an int, as it always was */
	snprintf(fmt, sizeof fmt, "--%s must be 1 to 10000, not '%%s'", name);
	if (v < 1 || v > 10000)
		cli_usage_error(fmt, s);
	return v;
}

/* --diff-steps=N:M into c->diff_step[]. */
static void
diff_steps_arg(struct cli *c, const char *arg)
{
	const char *colon = strchr(arg, ':');
	char *end;

	c->mode = MODE_DIFF;
	c->diff_steps = 1;
	if (colon == NULL)
		cli_usage_error("--diff-steps needs N:M, not '%s'", arg);
	errno = 0;
	c->diff_step[0] = strtoll(arg, &end, 10);
	if (end != colon || end == arg || errno != 0)
		cli_usage_error("--diff-steps needs N:M (step numbers), not '%s'", arg);
	c->diff_step[1] = strtoll(colon + 1, &end, 10);
	if (*end != '\0' || end == colon + 1 || errno != 0)
		cli_usage_error("--diff-steps needs N:M (step numbers), not '%s'", arg);
}

/* --fail-above=P or P%: a percentage of 0 to 1e6. */
static double
percent_arg(const char *arg)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end != arg && *end == '%')
		end++;
	if (end == arg || *end != '\0' || errno != 0 || !(v >= 0 && v <= 1e6))
		cli_usage_error("--fail-above takes a percentage of 0 to 1000000, e.g. 5%%, not '%s'",
		    arg);
	return v;
}

/* The checks of the options together, once all are read. */
static void
check_args(int argc, struct cli *c)
{
	struct analysis_opts *o = &c->opts;
	int ntraces = argc - optind;

	if (c->window != NULL && o->window == WINDOW_STEP)
		cli_usage_error("%s", "--window and --step cannot be combined");
	if (c->nwhatif > 0 && (c->mode == MODE_DIFF || c->reports))
		cli_usage_error("%s", "--what-if goes with --report, --render or the viewer of traces");
	if ((o->mfu.model_params > 0) != (o->mfu.tokens_per_step > 0))
		cli_usage_error("%s", "--model-params and --tokens-per-step go together");
	if (o->mfu.flops_per_step > 0 && o->mfu.model_params > 0)
		cli_usage_error("%s", "give --flops-per-step or --model-params, not both");
	if (o->mfu.model_params > 0)
		o->mfu.flops_per_step = (o->mfu.recompute ? 8.0 : 6.0) *
		    o->mfu.model_params * o->mfu.tokens_per_step;
	if (optind >= argc)
		cli_usage_error("%s", "no trace given");
	if (c->mode == MODE_DIFF && !c->diff_steps && ntraces != 2)
		cli_usage_error("%s", "--diff compares two traces: TRACE_A TRACE_B");
	if (c->compare && (c->mode == MODE_REPORT || c->mode == MODE_DIFF))
		cli_usage_error("%s", "--compare is for the viewer and --render");
	if (c->has_baseline && c->compare)
		cli_usage_error("%s", "--baseline marks a step of one trace; --compare compares two");
	if ((c->difftable || c->has_baseline) &&
	    (c->mode == MODE_REPORT || c->mode == MODE_DIFF))
		cli_usage_error("%s", "--diff-table and --baseline are for the viewer and --render");
	if (c->compare && ntraces != 2)
		cli_usage_error("%s", "--compare shows two traces: TRACE_A TRACE_B");
	if (c->diff_steps && ntraces != 1)
		cli_usage_error("%s", "--diff-steps compares two steps of one trace");
	if (c->diff_steps && (c->window != NULL || o->window == WINDOW_STEP))
		cli_usage_error("%s", "--diff-steps sets the windows: no --window or --step");
	if ((c->marks != NULL || c->select != NULL || c->python || c->counters ||
	    c->panel != PANEL_WINDOW) &&
	    (c->mode == MODE_REPORT || c->mode == MODE_DIFF))
		cli_usage_error("%s", "--marks, --select, --panel, --python and --counters are for the viewer and --render");
	if (c->fail_above >= 0 && c->mode != MODE_DIFF)
		cli_usage_error("%s", "--fail-above goes with --diff");
	if (c->mode == MODE_DIFF && c->fmt == REPORT_CSV)
		cli_usage_error("%s", "--diff writes text or json, not csv");
}

void
cli_parse(struct cli *c, int argc, char **argv)
{
	struct option longopts[NOPTS + 1];
	struct analysis_opts *o = &c->opts;
	int ch;

	memset(longopts, 0, sizeof longopts);
	for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
		if (opts[i].name != NULL)
			longopts[opts[i].at] = (struct option){ opts[i].name,
			    opts[i].has_arg, NULL, opts[i].val };
	memset(c, 0, sizeof *c);
	c->rank = -1;
	c->fail_above = -1;
	c->width = 120;
	c->height = 40;
	c->color = STYLE_COLOR_AUTO;
	o->min_gap_ns = METRICS_DEFAULT_MIN_GAP_NS;
	while ((ch = getopt_long(argc, argv, "qvhV", longopts, NULL)) != -1) {
		switch (ch) {
		case OPT_REPORT: c->mode = MODE_REPORT; break;
		case OPT_RENDER: c->mode = MODE_RENDER; break;
		case OPT_DIFF: c->mode = MODE_DIFF; break;
		case OPT_COMPARE: c->compare = 1; break;
		case OPT_DIFF_TABLE: c->difftable = 1; break;
		case OPT_ASCII: c->ascii = 1; break;
		case OPT_CPU: c->cpu = 1; break;
		case OPT_PYTHON: c->python = 1; break;
		case OPT_COUNTERS: c->counters = 1; break;
		case OPT_MARKS: c->marks = optarg; break;
		case OPT_SELECT: c->select = optarg; break;
		case OPT_WHAT_IF: {
			char err[256];

			if (c->nwhatif == CLI_WHATIF_MAX)
				cli_usage_error("at most 16 --what-if scenarios, not more ('%s')",
				    optarg);
			if (depgraph_whatif_parse(&c->whatif[c->nwhatif], optarg, err,
			    sizeof err) != 0)
				cli_usage_error("--what-if: %s", err);
			c->nwhatif++;
			o->whatif = c->whatif;
			o->nwhatif = c->nwhatif;
			o->critical_path = 1;
			break;
		}
		case OPT_PANEL: {
			static const char *const panels[PANEL_COUNT] = {
				[PANEL_WINDOW] = "window", [PANEL_KERNELS] = "kernels",
				[PANEL_SELECTION] = "selection",
			};

			c->panel = -1;
			for (int k = 0; k < PANEL_COUNT; k++)
				if (strcmp(optarg, panels[k]) == 0)
					c->panel = k;
			if (c->panel < 0)
				cli_usage_error("--panel is window, kernels or selection, not '%s'",
				    optarg);
			break;
		}
		case OPT_MATRIX: c->matrix = 1; break;
		case OPT_REPORTS: c->reports = 1; break;
		case OPT_RECOMPUTE: o->mfu.recompute = 1; break;
		case 'q': c->quiet = 1; break;
		case 'v': c->verbose = 1; break;
		case OPT_NO_CACHE: c->no_cache = 1; break;
		case OPT_WINDOW: c->window = optarg; break;
		case OPT_LAYER_PATTERN: c->pattern = optarg; break;
		case OPT_COMM_PATTERN: c->comm_pattern = optarg; break;
		case OPT_FLOPS: o->mfu.flops_per_step = count_arg(optarg, "flops-per-step"); break;
		case OPT_PARAMS: o->mfu.model_params = count_arg(optarg, "model-params"); break;
		case OPT_TOKENS: o->mfu.tokens_per_step = count_arg(optarg, "tokens-per-step"); break;
		case OPT_PEAK: o->mfu.peak_tflops = count_arg(optarg, "peak-tflops"); break;
		case OPT_WIDTH: c->width = size_arg(optarg, "width", "columns"); break;
		case OPT_HEIGHT: c->height = size_arg(optarg, "height", "rows"); break;
		case OPT_DIFF_STEPS: diff_steps_arg(c, optarg); break;
		case OPT_FAIL_ABOVE: c->fail_above = percent_arg(optarg); break;
		case OPT_BASELINE:
			c->baseline = parse_int(optarg, "--baseline takes a step number, not '%s'");
			c->has_baseline = 1;
			break;
		case OPT_COLOR:
			if (strcmp(optarg, "auto") == 0)
				c->color = STYLE_COLOR_AUTO;
			else if (strcmp(optarg, "always") == 0)
				c->color = STYLE_COLOR_ALWAYS;
			else if (strcmp(optarg, "never") == 0)
				c->color = STYLE_COLOR_NEVER;
			else
				cli_usage_error("--color is auto, always or never, not '%s'", optarg);
			break;
		case OPT_ALIGN:
			if (strcmp(optarg, "collective") != 0 && strcmp(optarg, "none") != 0)
				cli_usage_error("--align is collective or none, not '%s'", optarg);
			c->align = strcmp(optarg, "collective") == 0;
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
				cli_usage_error("unknown report format '%s' (text, json or csv)",
				    optarg);
			break;
		case OPT_STEP:
			o->window = WINDOW_STEP;
			o->step = parse_int(optarg, "--step needs a step number, not '%s'");
			break;
		case OPT_RANK:
			c->rank = parse_int(optarg, "--rank needs a rank number, not '%s'");
			if (c->rank < 0)
				cli_usage_error("--rank needs a rank number, not '%s'", optarg);
			if (c->rank > TRACE_RANK_MAX)
				cli_usage_error("--rank=%s: out of range 0..2147483647",
				    optarg);
			break;
		case OPT_MIN_GAP:
			if (units_parse_duration(optarg, &o->min_gap_ns) != UNITS_OK)
				cli_usage_error("--min-gap needs a duration with a unit (e.g. 50us), "
				    "not '%s'", optarg);
			if (o->min_gap_ns < 0)
				cli_usage_error("--min-gap cannot be negative: '%s'", optarg);
			break;
		case OPT_WORLD:
			o->mfu.world_size = parse_int(optarg,
			    "--world-size needs a positive integer, not '%s'");
			if (o->mfu.world_size <= 0)
				cli_usage_error("--world-size needs a positive integer, not '%s'",
				    optarg);
			if (o->mfu.world_size > TRACE_WORLD_MAX)
				cli_usage_error("--world-size=%s: out of range 1..1048576",
				    optarg);
			break;
		case 'h':
			print_usage();
			exit(EXIT_OK);
		case 'V':
			printf("gantty %s\ngzip: %s\n", PACKAGE_VERSION,
			    load_inflater());
			exit(EXIT_OK);
		default:
			fputs("Try 'gantty --help'.\n", stderr);
			exit(EXIT_USAGE);
		}
	}
	check_args(argc, c);
}

/*
 * Compiles *pattern into re with flags (and REG_EXTENDED); on failure says
 * why for option and clears *pattern.
 */
static int
compile(const char **pattern, regex_t *re, int flags, const char *option)
{
	char err[1024];

	if (*pattern == NULL)
		return 0;
	if (pattern_compile(re, *pattern, flags, err, sizeof err) != 0) {
		fprintf(stderr, "gantty: %s '", option);
		emit_text_str(stderr, *pattern);
		fprintf(stderr, "': %s\n", err);
		*pattern = NULL;
		return -1;
	}
	return 0;
}

int
cli_compile_pattern(struct cli *c)
{
	if (compile(&c->pattern, &c->re, 0, "--layer-pattern") < 0 ||
	    compile(&c->comm_pattern, &c->comm_re, REG_NOSUB,
	    "--comm-pattern") < 0) {
		cli_free(c);
		return -1;
	}
	if (c->pattern != NULL)
		c->opts.layer_pattern = &c->re;
	return 0;
}

void
cli_free(struct cli *c)
{
	if (c->pattern != NULL)
		regfree(&c->re);
	if (c->comm_pattern != NULL)
		regfree(&c->comm_re);
	c->pattern = c->comm_pattern = NULL;
	for (size_t i = 0; i < c->nwhatif; i++)
		depgraph_whatif_free(&c->whatif[i]);
	c->nwhatif = 0;
}
