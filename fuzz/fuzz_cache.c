/*
 * fuzz_cache — libFuzzer target for reading a cache file back (cache.c):
 * a cache is input as untrusted as a trace (another user's directory, a
 * forger, a torn write).
 *
 * The input is a cache file without its path section (the header, then
 * the payload from the string lengths on: fuzz/corpus/cache/ holds real
 * caches so cut).  Its header's magic, format, byte order, record sizes,
 * version and key are set to those cache_load() expects, the path is put
 * back at the payload's start, and both hashes recomputed, so that
 * the fuzzer reaches the payload's range checks rather than failing the
 * checksum; the file is written where cache_load() looks for it.  A cache
 * that loads is then analysed, reported (JSON, text, CSV) and drawn, as a
 * trace loaded from the file would be.  A crash, a sanitizer report, a leak
 * or a timeout is a finding; a refused cache is not.
 *
 * Built and run by fuzz/run, which see.
 */
#define _GNU_SOURCE 1
#include "config.h"

#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "analysis/metrics.h"
#include "analysis/session.h"
#include "load/cache.h"
#include "load/cache_int.h"
#include "load/input.h"
#include "model/trace.h"
#include "render/grid.h"
#include "render/render.h"
#include "report/report_analyses.h"
#include "view/command.h"
#include "view/view.h"

static FILE *devnull;
static char dir[64];

static void
analyse_report_draw(struct trace *t)
{
	struct trace *traces[1] = { t };
	struct analysis *an = NULL;
	struct analysis_opts o;
	size_t n_an = 0, cap = 0;

	memset(&o, 0, sizeof o);
	o.min_gap_ns = METRICS_DEFAULT_MIN_GAP_NS;
	o.ranks_loaded = 1;
	o.memory = 1;
	o.keep_flops = 1;
	session_analyse_traces(&an, &n_an, &cap, traces, 1, &o, -1);
	report_analyses_write(devnull, REPORT_JSON, &o, t->start_ns, an, n_an,
	    NULL, 0, 0);
	report_analyses_write(devnull, REPORT_TEXT, &o, t->start_ns, an, n_an,
	    NULL, 0, 0);
	report_analyses_write(devnull, REPORT_CSV, &o, t->start_ns, an, n_an,
	    NULL, 0, 0);
	if (n_an > 0) {
		struct view v;
		struct layout lay;
		struct grid g;

		view_init(&v, an, n_an, t->start_ns, t->end_ns > t->start_ns ?
		    t->end_ns : t->start_ns + 1, 1);
		render_layout(&lay, &v, 120, 40);
		view_resize(&v, lay.time_cols > 0 ? lay.time_cols : 1);
		grid_init(&g, 120, 40);
		render_frame(&g, &lay, &v, NULL);
		grid_free(&g);
		render_layout_free(&lay);
		view_free(&v);
	}
	for (size_t i = 0; i < n_an; i++)
		analysis_free(&an[i]);
	free(an);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char abspath[] = "/fuzz/trace.json";
	struct cache_key k;
	struct cache_header h;
	struct trace t;
	char file[PATH_MAX], why[512];
	size_t pathpad = PAD8(sizeof abspath - 1), len;
	unsigned char *buf;
	FILE *f;

	if (devnull == NULL && (devnull = fopen("/dev/null", "w")) == NULL)
		abort();
	if (dir[0] == '\0') {
		strcpy(dir, "/tmp/gantty-fuzz-cache-XXXXXX");
		if (mkdtemp(dir) == NULL)
			abort();
	}
	memset(&k, 0, sizeof k);
	k.abspath = (char *)abspath;
	k.fd = -1;
	k.dev = 1;
	k.ino = 2;
	k.size = 3;
	k.mtime_ns = 4;
	k.ctime_ns = 5;

	/* the header, its fixed fields set; then the path; then the rest */
	len = sizeof h + pathpad + (size > sizeof h ? size - sizeof h : 0);
	buf = calloc(1, len);
	if (buf == NULL)
		abort();
	memcpy(buf, data, size < sizeof h ? size : sizeof h);
	memcpy(&h, buf, sizeof h);
	{
		struct cache_header want;

		event_header_fill(&want, &k);
		memcpy(h.magic, want.magic, sizeof h.magic);
		h.format = want.format;
		h.byte_order = want.byte_order;
		h.sz_event = want.sz_event;
		h.sz_args = want.sz_args;
		h.sz_comm = want.sz_comm;
		h.sz_track = want.sz_track;
		h.sz_device = want.sz_device;
		h.sz_warn = want.sz_warn;
		memcpy(h.version, want.version, sizeof h.version);
		h.dev = want.dev;
		h.ino = want.ino;
		h.size = want.size;
		h.mtime_ns = want.mtime_ns;
		h.ctime_ns = want.ctime_ns;
		h.pathlen = want.pathlen;
	}
	memcpy(buf + sizeof h, abspath, sizeof abspath - 1);
	if (size > sizeof h)
		memcpy(buf + sizeof h + pathpad, data + sizeof h, size - sizeof h);
	h.payload_hash = cache_hash_bytes(buf + sizeof h, len - sizeof h);
	h.header_hash = 0;
	h.header_hash = cache_hash_bytes(&h, sizeof h);
	memcpy(buf, &h, sizeof h);

	if (cache_path(file, sizeof file, dir, &k) < 0 ||
	    (f = fopen(file, "wb")) == NULL)
		abort();
	if (fwrite(buf, 1, len, f) != len || fclose(f) != 0)
		abort();
	free(buf);
	if (cache_load(&t, "trace.json", dir, &k, why, sizeof why) == 0) {
		input_assign_rank(&t, 0);
		analyse_report_draw(&t);
		trace_free(&t);
	}
	return 0;
}
