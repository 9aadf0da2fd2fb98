/*
 * fuzz_layers — libFuzzer target for the user's regular expressions
 * (base/pattern: --layer-pattern, --comm-pattern) on the layer path.
 *
 * The input is a pattern, a newline, then names, one a line.  The pattern
 * is compiled as the command line does (pattern_compile(): back-references
 * refused); a trace of one CPU op per name (nested two deep, as modules
 * are), a kernel under each, is written as JSON and loaded by path; its
 * device is analysed with the pattern as --layer-pattern and as
 * --comm-pattern, and reported as JSON and text to /dev/null.  A crash, a
 * sanitizer report, a leak or a timeout (a pattern whose cost the bounds
 * did not hold) is a finding; a refused pattern is not.
 *
 * Built and run by fuzz/run, which see.
 */
#define _GNU_SOURCE 1
#include "config.h"

#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "analysis/metrics.h"
#include "analysis/session.h"
#include "base/pattern.h"
#include "load/input.h"
#include "load/load.h"
#include "model/comm.h"
#include "model/trace.h"
#include "report/report_analyses.h"

#include "memfile.h"

static FILE *devnull;

/* Writes the n bytes at s as a JSON string's contents. */
static void
json_bytes(FILE *out, const uint8_t *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"' || s[i] == '\\')
			fprintf(out, "\\%c", s[i]);
		else if (s[i] < 0x20)
			fprintf(out, "\\u%04x", s[i]);
		else
			putc(s[i], out);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nl = memchr(data, '\n', size), *p, *end = data + size;
	char *pattern, *json = NULL, path[64], err[256];
	size_t jlen = 0, i = 0;
	struct trace t;
	struct load_error lerr;
	struct analysis_opts o;
	struct analysis *an = NULL;
	struct trace *traces[1] = { &t };
	size_t n_an = 0, cap = 0;
	regex_t re;
	FILE *out;
	int fd;

	if (devnull == NULL && (devnull = fopen("/dev/null", "w")) == NULL)
		abort();
	if (nl == NULL)
		return 0;
	pattern = strndup((const char *)data, (size_t)(nl - data));
	if (pattern == NULL || strlen(pattern) != (size_t)(nl - data) ||
	    pattern_compile(&re, pattern, 0, err, sizeof err) < 0) {
		free(pattern);
		return 0;
	}
	out = open_memstream(&json, &jlen);
	if (out == NULL)
		abort();
	fputs("{\"traceEvents\": [\n", out);
	for (p = nl + 1; p < end; i++) {
		const uint8_t *q = memchr(p, '\n', (size_t)(end - p));
		size_t n = q != NULL ? (size_t)(q - p) : (size_t)(end - p);

		fprintf(out, "%s{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"",
		    i ? ",\n" : "");
		json_bytes(out, p, n);
		fprintf(out, "\", \"pid\": 1, \"tid\": 1, \"ts\": %zu, \"dur\": %zu, "
		    "\"args\": {\"External id\": %zu}},\n", i * 10 + (i % 2), 9 - i % 2, i + 1);
		fprintf(out, "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"");
		json_bytes(out, p, n);
		fprintf(out, "\", \"pid\": 0, \"tid\": 7, \"ts\": %zu, \"dur\": 3, "
		    "\"args\": {\"External id\": %zu, \"device\": 0}}", i * 10 + 2, i + 1);
		p += n + 1;
	}
	fputs("]}\n", out);
	fclose(out);
	fd = memfile("trace", (const uint8_t *)json, jlen, path, sizeof path);
	free(json);
	setenv("GANTTY_LOAD_THREADS", "1", 1);
	if (load_trace(&t, path, NULL, &lerr) == 0) {
		input_assign_rank(&t, 0);
		comm_classify(&t, &re);
		memset(&o, 0, sizeof o);
		o.min_gap_ns = METRICS_DEFAULT_MIN_GAP_NS;
		o.ranks_loaded = 1;
		o.layer_pattern = &re;
		session_analyse_traces(&an, &n_an, &cap, traces, 1, &o, -1);
		report_analyses_write(devnull, REPORT_JSON, &o, t.start_ns, an, n_an,
		    NULL, 0, 0);
		report_analyses_write(devnull, REPORT_TEXT, &o, t.start_ns, an, n_an,
		    NULL, 0, 0);
		for (size_t k = 0; k < n_an; k++)
			analysis_free(&an[k]);
		free(an);
		trace_free(&t);
	}
	close(fd);
	regfree(&re);
	free(pattern);
	return 0;
}
