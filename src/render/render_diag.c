#include "config.h"

#include "render/render_diag.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "analysis/findings.h"
#include "render/grid.h"
#include "analysis/memory.h"
#include "analysis/metrics.h"
#include "analysis/analysis.h"
#include "base/units.h"
#include "view/view.h"
#include "view/view_compare.h"
#include "view/view_diag.h"
#include "view/view_whatif.h"

static const char *
bytes(char *buf, size_t n, double b)
{
	if (b >= 1024.0 * 1024 * 1024)
		snprintf(buf, n, "%.1fG", b / (1024.0 * 1024 * 1024));
	else if (b >= 1024.0 * 1024)
		snprintf(buf, n, "%.0fM", b / (1024.0 * 1024));
	else
		snprintf(buf, n, "%.0fK", b / 1024.0);
	return buf;
}

void
render_diag_memory_lane(struct grid *g, int y, int label_w, int x0, int ncols,
    const struct view *v, size_t a, int ascii)
{
	static const char ascii_levels[] = ".:-=+*#@";
	const struct memory *m = view_diag_memory(v, a);
	double scale, al, re;
	char label[32], b1[16];

	if (m == NULL)
		return;
	scale = m->peak_reserved > 0 ? m->peak_reserved : m->peak_allocated;
	snprintf(label, sizeof label, " mem %s", bytes(b1, sizeof b1, scale));
	grid_print(g, 0, y, label_w - 1, ROLE_LABEL, ascii, label);
	if (scale <= 0)
		return;
	for (int col = 0; col < ncols; col++) {
		int64_t s = view_col_ns(v, col), e = view_col_ns(v, col + 1);
		int level;

		if (e <= s || !memory_peak(m, s, e, &al, &re))
			continue;
		level = (int)(al / scale * 8 + 0.5);
		level = level < 1 ? 1 : level > 8 ? 8 : level;
		grid_put(g, x0 + col, y, ascii ? (uint32_t)ascii_levels[level - 1] :
		    0x2580u + (uint32_t)level, ROLE_MEMORY);
	}
}

void
render_diag_memory_text(char *buf, size_t n, const struct view *v,
    int64_t cursor_ns)
{
	const struct memory *m;
	struct mem_sample x;
	double pa, pr;
	char b1[16], b2[16], b3[16], b4[16];

	buf[0] = '\0';
	if (v->nan == 0 || (m = view_diag_memory(v, v->rank)) == NULL || m->n == 0)
		return;
	if (memory_at(m, cursor_ns, &x))
		snprintf(buf, n, "memory at cursor: allocated %s reserved %s",
		    bytes(b1, sizeof b1, x.allocated), bytes(b2, sizeof b2, x.reserved));
	else
		snprintf(buf, n, "memory at cursor: -");
	if (memory_peak(m, v->start_ns, v->end_ns, &pa, &pr)) {
		size_t l = strlen(buf);

		snprintf(buf + l, n - l, "  window peak %s / %s",
		    bytes(b3, sizeof b3, pa), bytes(b4, sizeof b4, pr));
	}
}

void
render_diag_finding_text(char *buf, size_t n, const struct view *v)
{
	const struct finding *f = view_diag_selected(v);

	if (f == NULL) {
		snprintf(buf, n, "finding: none");
		return;
	}
	snprintf(buf, n, "finding %ld [%s] %s: %s", v->sel_index + 1,
	    findings_severity_name(f->severity), findings_kind_id(f->kind),
	    f->summary);
}

/* Prints text wrapped over rows from (x, *y); returns the rows left. */
static int
wrapped(struct grid *g, int x, int *y, int w, int rows, enum role role,
    int ascii, const char *text)
{
	const char *p = text;

	while (*p != '\0' && rows > 0 && w > 0) {
		size_t len = strlen(p), take = len;
		char line[512];

		if ((int)len > w) {
			take = (size_t)w;
			while (take > 0 && p[take] != ' ')
				take--;
			if (take == 0)
				take = (size_t)w;
		}
		if (take >= sizeof line)
			take = sizeof line - 1;
		memcpy(line, p, take);
		line[take] = '\0';
		grid_print(g, x, *y, w, role, ascii, line);
		(*y)++;
		rows--;
		p += take;
		while (*p == ' ')
			p++;
	}
	return rows;
}

void
render_diag_findings_panel(struct grid *g, int x, int y, int w, int rows,
    const struct view *v, int ascii)
{
	const struct finding *all, *f = view_diag_selected(v);
	size_t n;
	char line[512], a[32], b[32];

	all = view_diag_findings_known(v, v->rank, &n);
	for (size_t i = 0; i < n && rows > 0; i++, rows--, y++) {
		snprintf(line, sizeof line, "%s %-8s %-17s %s",
		    (long)i == v->sel_index ? ">" : " ",
		    findings_severity_name(all[i].severity),
		    findings_kind_id(all[i].kind), all[i].summary);
		grid_print(g, x, y, w, (long)i == v->sel_index ? ROLE_SELECTED :
		    all[i].severity == SEV_CRITICAL ? ROLE_BAD : ROLE_PANEL, ascii, line);
	}
	if (f == NULL || rows <= 0)
		return;
	/* what to do and what it buys first, then the evidence */
	snprintf(line, sizeof line, "remedy: %s", f->remedy);
	rows = wrapped(g, x, &y, w, rows, ROLE_PANEL, ascii, line);
	if (rows > 0) {
		char gain[400];
		int has = view_whatif_finding(v, f->kind, gain, sizeof gain);

		if (gain[0] != '\0') {
			snprintf(line, sizeof line, "%s%s", has ? "what-if: " : "", gain);
			rows = wrapped(g, x, &y, w, rows, has ? ROLE_VALUE : ROLE_PANEL,
			    ascii, line);
		}
	}
	line[0] = '\0';
	for (size_t k = 0; k < f->nnums; k++) {
		size_t l = strlen(line);
		const struct finding_num *q = &f->nums[k];

		if (q->is_real)
			snprintf(line + l, sizeof line - l, "%s%s %.3g", k ? ", " : "evidence: ",
			    q->key, q->d);
		else if (strstr(q->key, "_ns") != NULL)
			snprintf(line + l, sizeof line - l, "%s%s %s", k ? ", " : "evidence: ",
			    q->key, units_format(a, sizeof a, q->i));
		else
			snprintf(line + l, sizeof line - l, "%s%s %" PRId64,
			    k ? ", " : "evidence: ", q->key, q->i);
	}
	if (rows > 0)
		rows = wrapped(g, x, &y, w, rows, ROLE_VALUE, ascii, line);
	if (rows > 0 && f->nranges > 0) {
		line[0] = '\0';
		for (size_t k = 0; k < f->nranges; k++) {
			size_t l = strlen(line);

			snprintf(line + l, sizeof line - l, "%s+%s (%s)",
			    k ? ", " : "ranges (Enter goes to the next): ",
			    units_format(a, sizeof a, f->ranges[k].start_ns - v->t0_ns),
			    units_format(b, sizeof b,
			    f->ranges[k].end_ns - f->ranges[k].start_ns));
		}
		rows = wrapped(g, x, &y, w, rows, ROLE_PANEL, ascii, line);
	}
}

/* The part of [*s, *e) that an's GPU extent covers (empty: *s >= *e). */
static void
clip_to_extent(const struct analysis *an, int64_t *s, int64_t *e)
{
	if (!an->has_window)
		return;
	if (an->start_ns > *s)
		*s = an->start_ns;
	if (an->end_ns < *e)
		*e = an->end_ns;
}

void
render_diag_compare_text(char *buf, size_t n, const struct view *v)
{
	struct window_metrics m[2];
	const struct analysis *an[2];
	char b1[32], b2[32], b3[32], b4[32], b5[32], what[96];
	int64_t s = v->start_ns, e = v->end_ns;
	long ia, ib;
	size_t bi;

	if (v->nan < 2 || v->an[0].device < 0 || v->an[1].device < 0) {
		snprintf(buf, n, "B - A: needs GPU activity in both traces");
		return;
	}
	if (view_compare_trace_steps(v, &ia, &bi, &ib)) {
		/* the same step of each, each over its own GPU extent */
		const struct step *st[2] = { &v->an[0].steps[ia], &v->an[bi].steps[ib] };

		an[0] = &v->an[0];
		an[1] = &v->an[bi];
		for (int k = 0; k < 2; k++)
			metrics_window(&an[k]->dev, st[k]->gpu_start_ns, st[k]->gpu_end_ns, &m[k]);
		snprintf(what, sizeof what, "B - A, ProfilerStep#%lld of each (step %s):",
		    (long long)st[0]->number, units_format_signed(b1, sizeof b1,
		    (st[1]->end_ns - st[1]->start_ns) - (st[0]->end_ns - st[0]->start_ns)));
	} else {
		/* only the time both traces cover: the rest is one side's idle */
		int marked = view_marked_range(v, &s, &e);

		an[0] = &v->an[0];
		an[1] = &v->an[1];
		clip_to_extent(an[0], &s, &e);
		clip_to_extent(an[1], &s, &e);
		if (s >= e) {
			snprintf(buf, n, "B - A: A and B have no time in view in common");
			return;
		}
		for (int k = 0; k < 2; k++)
			metrics_window(&an[k]->dev, s, e, &m[k]);
		if (!marked && s == v->start_ns && e == v->end_ns)
			snprintf(what, sizeof what, "B - A in view:");
		else
			snprintf(what, sizeof what, "B - A over the %s both cover%s:",
			    units_format(b1, sizeof b1, e - s), marked ? " in the marked range" : "");
	}
	snprintf(buf, n, "%s busy %s  compute %s  comm %s  exposed %s  idle %s", what,
	    units_format_signed(b1, sizeof b1, m[1].busy_ns - m[0].busy_ns),
	    units_format_signed(b2, sizeof b2, m[1].compute_ns - m[0].compute_ns),
	    units_format_signed(b3, sizeof b3, m[1].comm_ns - m[0].comm_ns),
	    units_format_signed(b4, sizeof b4,
	    m[1].exposed_comm_ns - m[0].exposed_comm_ns),
	    units_format_signed(b5, sizeof b5, m[1].idle_ns - m[0].idle_ns));
}

void
render_diag_baseline_text(char *buf, size_t n, const struct view *v)
{
	struct view_baseline bl;
	const struct step *sa, *sb;
	struct window_metrics ma, mb;
	char b1[32], b2[32], b3[32];

	buf[0] = '\0';
	if (!view_compare_baseline(v, &bl))
		return;
	if (bl.step_b < 0) {
		snprintf(buf, n, "baseline A: ProfilerStep#%lld (b); no step in view",
		    (long long)bl.number_a);
		return;
	}
	sa = &v->an[bl.rank].steps[bl.step_a];
	sb = &view_current(v)->steps[bl.step_b];
	memset(&ma, 0, sizeof ma);
	memset(&mb, 0, sizeof mb);
	if (sa->has_gpu)
		metrics_window(&v->an[bl.rank].dev, sa->gpu_start_ns, sa->gpu_end_ns, &ma);
	if (sb->has_gpu)
		metrics_window(&view_current(v)->dev, sb->gpu_start_ns, sb->gpu_end_ns, &mb);
	snprintf(buf, n, "baseline A #%lld, B #%lld in view: B - A step %s  exposed %s"
	    "  idle %s  (D: the diff table)", (long long)bl.number_a,
	    (long long)bl.number_b,
	    units_format_signed(b1, sizeof b1,
	    (sb->end_ns - sb->start_ns) - (sa->end_ns - sa->start_ns)),
	    units_format_signed(b2, sizeof b2, mb.exposed_comm_ns - ma.exposed_comm_ns),
	    units_format_signed(b3, sizeof b3, mb.idle_ns - ma.idle_ns));
}
