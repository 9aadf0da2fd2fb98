/*
 * cli — gantty's command line: the table of its options (from which both
 * getopt_long's array and the --help text are made), their parsing, and the
 * checks of the options together.
 *
 * Beside main.c, in its layer: like main, cli prints (--help, --version,
 * --keys, usage errors) and exits (status EXIT_USAGE on a bad command line).
 * struct cli points into argv, which must outlive it.
 */
#ifndef GANTTY_CLI_H
#define GANTTY_CLI_H

#include <regex.h>
#include <stdint.h>

#include "analysis/analysis.h"
#include "analysis/depgraph.h"
#include "report/report.h"

enum exit_code {
	EXIT_OK = 0,
	EXIT_INPUT = 1,         /* bad input or runtime error */
	EXIT_USAGE = 2,
	EXIT_REGRESSION = 3,    /* --diff --fail-above: B is slower than allowed */
};

#define CLI_WHATIF_MAX 16

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
	int python;             /* --python: the CPU lanes' Python frames shown */
	int counters;           /* --counters: the counter lanes shown */
	const char *marks;      /* --marks=START:END, as --window */
	const char *select;     /* --select=REGEX: the first match selected */
	int panel;              /* --panel=NAME: enum view_panel */
	int matrix;             /* --matrix */
	int reports;            /* --reports: the inputs are JSON reports */
	int align;              /* --align=collective */
	enum report_format fmt;
	int quiet;
	int verbose;            /* -v: notes on the cache */
	int no_cache;
	const char *window;
	int64_t rank;           /* -1: all */
	const char *pattern;    /* --layer-pattern, compiled into re */
	regex_t re;
	const char *comm_pattern; /* --comm-pattern, compiled into comm_re */
	regex_t comm_re;
	struct analysis_opts opts;
	int diff_steps;         /* --diff-steps=N:M given */
	double fail_above;      /* --fail-above=P%; < 0: not given */
	int compare;            /* --compare: two traces aligned at step start */
	int difftable;          /* --diff-table: start with the diff table (D) */
	int has_baseline;       /* --baseline=N: ProfilerStep#N marked (b) */
	int64_t baseline;
	int64_t diff_step[2];
	struct dg_whatif whatif[CLI_WHATIF_MAX]; /* --what-if, nwhatif */
	size_t nwhatif;
};

/*
 * Parses argv into c (which it initialises), leaving optind at the first
 * trace.  Returns only for a command line that runs: --help, --version and
 * --keys print and exit 0, a bad command line exits EXIT_USAGE.
 */
void cli_parse(struct cli *c, int argc, char **argv);
/*
 * Compiles --layer-pattern (if given) into c->re for c->opts, and
 * --comm-pattern into c->comm_re.  Returns 0, or -1 after printing why a
 * pattern is not a regular expression.
 */
int cli_compile_pattern(struct cli *c);
/* Frees what cli_compile_pattern() made. */
void cli_free(struct cli *c);

/*
 * Prints "gantty: " fmt (with arg for its one %s) and where to find help on
 * standard error, and exits EXIT_USAGE.
 */
void cli_usage_error(const char *fmt, const char *arg) __attribute__((noreturn));

#endif
