#include "config.h"

#include "report/report_diag.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/crossrank.h"
#include "analysis/findings.h"
#include "analysis/memory.h"
#include "report/emit.h"
#include "report/json.h"
#include "model/trace.h"
#include "base/units.h"

/* A byte count (integral in real traces) or a real, as JSON: null if not finite. */
static void
json_real(struct json *j, double v, const char *fmt)
{
	if (isfinite(v))
		json_double(j, fmt, v);
	else
		json_null(j);
}

/*
 * What the report says of one analysis besides its metrics: its device's
 * memory (the analysis's, built meanwhile by its thread: see
 * analysis_memory()) and its findings.
 */
struct diag {
	const struct analysis *a;
	const struct memory *m; /* NULL: not built (no device, or not asked) */
	const struct mem_step *ms;
	size_t nms;
	struct finding *f;
	size_t nf;
};

static void
diag_build(struct diag *d, const struct analysis *a)
{
	memset(d, 0, sizeof *d);
	d->a = a;
	/* per rank: its own findings only, so that a rank's entry is the same
	 * alone or among others; the straggler is in cross_rank */
	d->nf = findings_find(a, NULL, 0, &d->f);
	d->m = analysis_memory(a, &d->ms, &d->nms);
}

static void
diag_free(struct diag *d)
{
	free(d->f);
}

static void
json_memory(struct json *j, const struct diag *d)
{
	const struct analysis *a = d->a;
	const struct memory *mp = d->m;
	double wa = 0, wr = 0;
	int has_w;

	has_w = a->has_window && memory_peak(mp, a->start_ns, a->end_ns, &wa, &wr);
	json_key(j, "memory");
	json_begin_object(j, JSON_INLINE);
	json_key(j, "device");
	json_int(j, a->device);
	json_key(j, "samples");
	json_uint(j, mp->n);
	json_key(j, "peak_allocated_bytes");
	json_real(j, mp->peak_allocated, "%.0f");
	json_key(j, "peak_reserved_bytes");
	json_real(j, mp->peak_reserved, "%.0f");
	json_key(j, "window_peak_allocated_bytes");
	if (has_w)
		json_real(j, wa, "%.0f");
	else
		json_null(j);
	json_key(j, "window_peak_reserved_bytes");
	if (has_w)
		json_real(j, wr, "%.0f");
	else
		json_null(j);
	json_newline(j);
	json_key(j, "steps");
	json_begin_array(j, JSON_BLOCK);
	for (size_t i = 0; i < d->nms; i++) {
		const struct mem_step *p = &d->ms[i];

		json_begin_object(j, JSON_INLINE);
		json_key(j, "number");
		json_int(j, p->number);
		json_key(j, "start_allocated_bytes");
		if (p->has_samples)
			json_real(j, p->start_allocated, "%.0f");
		else
			json_null(j);
		json_key(j, "peak_allocated_bytes");
		if (p->has_samples)
			json_real(j, p->peak_allocated, "%.0f");
		else
			json_null(j);
		json_key(j, "min_allocated_bytes");
		if (p->has_samples)
			json_real(j, p->min_allocated, "%.0f");
		else
			json_null(j);
		json_key(j, "end_allocated_bytes");
		if (p->has_samples)
			json_real(j, p->end_allocated, "%.0f");
		else
			json_null(j);
		json_key(j, "peak_reserved_bytes");
		if (p->has_samples)
			json_real(j, p->peak_reserved, "%.0f");
		else
			json_null(j);
		json_key(j, "cuda_malloc");
		json_uint(j, p->mallocs);
		json_key(j, "cuda_free");
		json_uint(j, p->frees);
		json_key(j, "alloc_call_ns");
		json_int(j, p->alloc_call_ns);
		json_key(j, "churn");
		json_boolean(j, p->churn);
		json_end(j);
	}
	json_end(j);
	json_end(j);
}

/*
 * Writes f[0..n) as the value of a "findings" key: a block array of objects
 * whose evidence, ranges and remedy each start a line under the kind.
 */
static void
json_findings(struct json *j, const struct finding *f, size_t n)
{
	json_key(j, "findings");
	json_begin_array(j, JSON_BLOCK);
	for (size_t i = 0; i < n; i++) {
		const struct finding *p = &f[i];

		json_begin_object(j, JSON_HANG);
		json_key(j, "kind");
		json_str(j, findings_kind_id(p->kind));
		json_key(j, "severity");
		json_str(j, findings_severity_name(p->severity));
		json_key(j, "summary");
		json_str(j, p->summary);
		json_newline(j);
		json_key(j, "evidence");
		json_begin_object(j, JSON_INLINE);
		for (size_t k = 0; k < p->nnums; k++) {
			json_key(j, p->nums[k].key);
			if (p->nums[k].is_real)
				json_real(j, p->nums[k].d, "%.6g");
			else
				json_int(j, p->nums[k].i);
		}
		json_end(j);
		json_newline(j);
		json_key(j, "ranges");
		json_begin_array(j, JSON_INLINE);
		for (size_t k = 0; k < p->nranges; k++) {
			json_begin_object(j, JSON_INLINE);
			json_key(j, "start_ns");
			json_int(j, p->ranges[k].start_ns);
			json_key(j, "end_ns");
			json_int(j, p->ranges[k].end_ns);
			json_end(j);
		}
		json_end(j);
		json_newline(j);
		json_key(j, "remedy");
		json_str(j, p->remedy);
		json_end(j);
	}
	json_end(j);
}

void
report_diag_json(struct json *j, const struct analysis *a,
    const struct crossrank *x, size_t part)
{
	struct diag d;

	(void)x;
	(void)part;
	diag_build(&d, a);
	if (d.m != NULL) {
		json_memory(j, &d);
	} else {
		json_key(j, "memory");
		json_null(j);
	}
	json_findings(j, d.f, d.nf);
	diag_free(&d);
}

static const char *
rel(char *buf, size_t size, int64_t ns, int64_t origin)
{
	int64_t d = ns - origin;

	if ((origin < 0 && ns > INT64_MAX + origin) ||
	    (origin > 0 && ns < INT64_MIN + origin))
		d = origin < 0 ? INT64_MAX : INT64_MIN;
	return units_format(buf, size, d);
}

static const char *
gib(char *buf, size_t size, double bytes)
{
	if (bytes >= 1024.0 * 1024 * 1024)
		snprintf(buf, size, "%.2f GiB", bytes / (1024.0 * 1024 * 1024));
	else
		snprintf(buf, size, "%.1f MiB", bytes / (1024.0 * 1024));
	return buf;
}

/* Writes the findings f[0..n) as text; times relative to origin_ns. */
static void
text_findings(FILE *out, const struct finding *f, size_t n, int64_t origin_ns,
    const char *ind)
{
	char b1[32], b2[32];

	for (size_t i = 0; i < n; i++) {
		const struct finding *p = &f[i];

		fprintf(out, "%s[%s] %s: ", ind, findings_severity_name(p->severity),
		    findings_kind_id(p->kind));
		emit_text_str(out, p->summary);
		fputs("\n", out);
		for (size_t k = 0; k < p->nranges && k < 3; k++)
			fprintf(out, "%s%s+%s (%s)%s", k ? "" : ind, k ? ", " : "  at ",
			    rel(b1, sizeof b1, p->ranges[k].start_ns, origin_ns),
			    units_format(b2, sizeof b2,
			    p->ranges[k].end_ns - p->ranges[k].start_ns),
			    k + 1 == p->nranges || k == 2 ? "\n" : "");
		fprintf(out, "%s  remedy: ", ind);
		emit_text_str(out, p->remedy);
		fputs("\n", out);
	}
}

void
report_diag_text(FILE *out, const struct analysis *a, const struct crossrank *x,
    size_t part, int64_t origin_ns)
{
	struct diag d;
	char b1[32], b2[32];

	(void)x;                /* the straggler is in the cross-rank section */
	(void)part;
	diag_build(&d, a);
	if (d.m != NULL) {
		size_t churn = 0, calls = 0;

		for (size_t i = 0; i < d.nms; i++) {
			calls += d.ms[i].mallocs + d.ms[i].frees;
			churn += d.ms[i].churn;
		}
		if (d.m->n > 0 || calls > 0) {
			fprintf(out, "  memory: %zu samples", d.m->n);
			if (d.m->n > 0)
				fprintf(out, ", peak allocated %s, reserved %s",
				    gib(b1, sizeof b1, d.m->peak_allocated),
				    gib(b2, sizeof b2, d.m->peak_reserved));
			fprintf(out, "; %zu cudaMalloc/cudaFree calls in steps, %zu "
			    "steps with churn\n", calls, churn);
		}
	}
	if (d.nf == 0) {
		/* "none" says the window was looked at; without one, nothing */
		if (a->has_window)
			fputs("  findings: none\n", out);
	} else {
		fputs("  findings:\n", out);
		text_findings(out, d.f, d.nf, origin_ns, "    ");
	}
	diag_free(&d);
}

void
report_diag_cross_json(struct json *j, const struct crossrank *x)
{
	struct finding *f;
	size_t n = findings_cross(x, &f);

	json_findings(j, f, n);
	free(f);
}

void
report_diag_cross_text(FILE *out, const struct crossrank *x)
{
	struct finding *f;
	size_t n = findings_cross(x, &f);
	int64_t origin = INT64_MAX;

	if (n == 0)
		return;
	for (size_t i = 0; i < x->ncolls; i++)
		if (x->colls[i].first_start_ns < origin)
			origin = x->colls[i].first_start_ns;
	fputs("  findings (times from the first matched collective):\n", out);
	text_findings(out, f, n, origin, "    ");
	free(f);
}
