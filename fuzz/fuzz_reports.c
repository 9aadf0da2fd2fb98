/*
 * fuzz_reports — libFuzzer target for gantty --reports.
 *
 * The input is one per-rank JSON report (plain, or gzip by its magic bytes),
 * written to a memfd and read back by path twice, as two report files of a
 * job; when it reads, the participants are matched across ranks (plain and
 * with --align=collective's offsets applied), the cross-rank report is
 * written as JSON, text and CSV to /dev/null, and the rank x step matrix is
 * drawn in a 100x30 frame.  A crash, a sanitizer report, a leak or a timeout
 * is a finding; a read error is not, but it must name the file.
 *
 * Built and run by fuzz/run, which see.
 */
#define _GNU_SOURCE 1
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "analysis/align.h"
#include "analysis/crossrank.h"
#include "render/grid.h"
#include "render/render.h"
#include "report/report.h"
#include "report/report_set.h"
#include "view/command.h"
#include "view/view.h"
#include "base/xalloc.h"

#include "memfile.h"

static FILE *devnull;

/* Writes the three cross-rank reports and draws the matrix; takes x. */
static void
show(const struct report_set *set, struct crossrank *x)
{
	struct view v;
	struct layout lay;
	struct grid g;

	report_write_cross(devnull, REPORT_JSON, set, x, 0);
	report_write_cross(devnull, REPORT_TEXT, set, x, 0);
	report_write_cross(devnull, REPORT_CSV, set, x, 0);
	view_init(&v, NULL, 0, 0, 1, 1);
	view_set_crossrank(&v, x);
	render_layout(&lay, &v, 100, 30);
	view_resize(&v, lay.time_cols);
	grid_init(&g, 100, 30);
	render_frame(&g, &lay, &v, NULL);
	view_do(&v, CMD_NEXT_RANK);
	render_frame(&g, &lay, &v, NULL);
	grid_free(&g);
	render_layout_free(&lay);
	view_free(&v);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct report_set set;
	struct crossrank_in *in;
	struct crossrank *x;
	int64_t *off;
	size_t unaligned = 0;
	char path[64], err[1024];
	int fd;

	if (devnull == NULL && (devnull = fopen("/dev/null", "w")) == NULL)
		abort();
	fd = memfile("report", data, size, path, sizeof path);
	memset(&set, 0, sizeof set);
	for (int copy = 0; copy < 2; copy++)
		if (report_set_load(&set, path, err, sizeof err) < 0) {
			if (strncmp(err, path, strlen(path)) != 0)
				abort();
			close(fd);
			report_set_free(&set);
			return 0;
		}
	close(fd);
	report_set_sort(&set);
	in = xcalloc(set.n + 1, sizeof *in);
	for (size_t i = 0; i < set.n; i++)
		in[i] = set.v[i].in;
	x = xmalloc(sizeof *x);
	crossrank_build_from(x, in, set.n);
	off = xcalloc(set.n + 1, sizeof *off);
	align_offsets(x, off, &unaligned);
	show(&set, x);          /* frees x */
	/* shifted as main.c does for --align=collective */
	for (size_t i = 0; i < set.n; i++)
		crossrank_in_shift(&in[i], off[i]);
	x = xmalloc(sizeof *x);
	crossrank_build_from(x, in, set.n);
	x->align_ns = off;
	x->unaligned = unaligned;
	show(&set, x);
	free(off);
	free(in);
	report_set_free(&set);
	return 0;
}
