/*
 * main — the command line: parse options, load the traces, run the mode.
 *
 * The only file that prints diagnostics and calls exit().
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "input.h"
#include "load.h"
#include "report.h"
#include "trace.h"
#include "xalloc.h"

enum exit_code {
	EXIT_OK = 0,
	EXIT_INPUT = 1,         /* bad input or runtime error */
	EXIT_USAGE = 2,
};

static const char usage_text[] =
    "usage: gantty [OPTIONS] TRACE...\n"
    "       gantty --report [--format=text|json] TRACE...\n"
    "\n"
    "Loads PyTorch profiler (Kineto) traces: .json or .json.gz files, '-' for\n"
    "standard input, or directories of per-rank traces.\n"
    "\n"
    "  --report            print what was loaded and exit\n"
    "  --format=FMT        report format: text (default) or json\n"
    "  -q, --quiet         no progress or warnings on standard error\n"
    "  -h, --help          show this help and exit\n"
    "  -V, --version       show the version and exit\n"
    "\n"
    "The interactive viewer is not built yet: without --report gantty prints\n"
    "the text report.  See gantty(1).\n";

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

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "report", no_argument, NULL, 'r' },
		{ "format", required_argument, NULL, 'F' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	enum report_format fmt = REPORT_TEXT;
	int quiet = 0, c, status = EXIT_OK;
	struct input_list inputs;
	struct trace **traces;
	size_t ntraces = 0;
	char err[1024];

	while ((c = getopt_long(argc, argv, "qhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			break;
		case 'F':
			if (strcmp(optarg, "text") == 0)
				fmt = REPORT_TEXT;
			else if (strcmp(optarg, "json") == 0)
				fmt = REPORT_JSON;
			else
				usage_error("unknown report format '%s' (text or json)",
				    optarg);
			break;
		case 'q':
			quiet = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return EXIT_OK;
		case 'V':
			printf("gantty %s\n", PACKAGE_VERSION);
			return EXIT_OK;
		default:
			fputs("Try 'gantty --help'.\n", stderr);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc)
		usage_error("%s", "no trace given");

	memset(&inputs, 0, sizeof inputs);
	if (input_expand(&inputs, argv + optind, (size_t)(argc - optind), err,
	    sizeof err) < 0) {
		fprintf(stderr, "gantty: %s\n", err);
		return EXIT_INPUT;
	}
	traces = xcalloc(inputs.n, sizeof *traces);
	for (size_t i = 0; i < inputs.n; i++) {
		struct progress prog = { inputs.v[i].path, { 0, 0 }, 0 };
		struct load_opts opts = { NULL, &prog };
		struct load_error lerr;
		struct trace *t = xmalloc(sizeof *t);

		clock_gettime(CLOCK_MONOTONIC, &prog.start);
		if (!quiet && isatty(STDERR_FILENO))
			opts.progress = show_progress;
		if (load_trace(t, inputs.v[i].path, &opts, &lerr) < 0) {
			free(t);
			if (inputs.v[i].from_dir && lerr.not_trace) {
				if (!quiet)
					fprintf(stderr, "gantty: warning: %s, skipped\n",
					    lerr.msg);
				continue;
			}
			fprintf(stderr, "gantty: %s\n", lerr.msg);
			status = EXIT_INPUT;
			goto out;
		}
		if (prog.shown)
			fputs("\r\033[K", stderr);
		if (!quiet)
			print_warnings(t);
		input_assign_rank(t, ntraces);
		traces[ntraces++] = t;
	}
	if (ntraces == 0) {
		fprintf(stderr, "gantty: no traces loaded\n");
		status = EXIT_INPUT;
		goto out;
	}
	if (report_write(stdout, fmt, traces, ntraces) < 0) {
		perror("gantty: writing the report");
		status = EXIT_INPUT;
	}
out:
	for (size_t i = 0; i < ntraces; i++) {
		trace_free(traces[i]);
		free(traces[i]);
	}
	free(traces);
	input_free(&inputs);
	return status;
}
