#include "config.h"

#include "report/report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/crossrank.h"
#include "report/report_set.h"
#include "report/report_diag.h"
#include "model/trace.h"
#include "base/units.h"
#include "base/utf8.h"
#include "base/xalloc.h"

/* ---- shared ---------------------------------------------------------- */

/*
 * Writes s as a JSON string, escaping quotes, backslashes and controls.
 * Names come from the trace as they were, so a byte that is not part of
 * well-formed UTF-8 becomes U+FFFD: the report is always valid JSON.
 */
static void
json_str(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	putc('"', out);
	while (*p != '\0') {
		unsigned char c = *p;
		size_t n;

		if (c >= 0x80) {
			if ((n = utf8_valid_len(p, SIZE_MAX, NULL)) == 0) {
				fputs("\\ufffd", out);
				n = 1;
			} else {
				fwrite(p, 1, n, out);
			}
			p += n;
			continue;
		}
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\u%04x", c);
		else
			putc(c, out);
		p++;
	}
	putc('"', out);
}

/*
 * Writes s for a terminal, a log or a CSV field: control bytes, C1 controls
 * (U+0080 to U+009F) and bytes that are not well-formed UTF-8 become '?', so
 * a name in a trace cannot send escape sequences to the terminal.  With
 * csv_quote, '"' is doubled.
 */
static void
text_put(FILE *out, const char *s, int csv_quote)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p != '\0') {
		size_t n = *p >= 0x80 ? utf8_valid_len(p, SIZE_MAX, NULL) : 1;

		if (n == 0 || *p < 0x20 || *p == 0x7f || (*p == 0xc2 && p[1] < 0xa0)) {
			putc('?', out);
			p += n == 0 ? 1 : n;
			continue;
		}
		if (csv_quote && *p == '"')
			putc('"', out);
		fwrite(p, 1, n, out);
		p += n;
	}
}

static void
text_str(FILE *out, const char *s)
{
	text_put(out, s, 0);
}

/* Writes s as one CSV field (quoted when it holds , or "). */
static void
csv_str(FILE *out, const char *s)
{
	if (strpbrk(s, ",\"") == NULL) {
		text_put(out, s, 0);
		return;
	}
	putc('"', out);
	text_put(out, s, 1);
	putc('"', out);
}

/* ---- JSON ------------------------------------------------------------ */

static void
json_i64_or_null(FILE *out, int has, int64_t v)
{
	if (has)
		fprintf(out, "%" PRId64, v);
	else
		fputs("null", out);
}

static void
json_interval(FILE *out, int has, int64_t s, int64_t e)
{
	if (has)
		fprintf(out, "{\"start_ns\": %" PRId64 ", \"end_ns\": %" PRId64 "}", s, e);
	else
		fputs("null", out);
}

static void
json_double(FILE *out, double v)
{
	fprintf(out, "%.6g", v);
}

static void
json_id(FILE *out, const struct trace *t, int64_t id, uint32_t str)
{
	if (str != 0)
		json_str(out, trace_str(t, str));
	else
		fprintf(out, "%" PRId64, id);
}

static void
json_loaded(FILE *out, const struct trace *t)
{
	int first = 1;

	fputs("      \"warnings\": {", out);
#define X(f, k, txt) \
	fprintf(out, "%s\"%s\": %" PRIu64, first ? "" : ", ", k, t->warn.f); \
	first = 0;
	TRACE_WARNINGS(X)
#undef X
	fputs("},\n      \"stopped\": ", out);
	if (t->stop_reason != NULL)
		json_str(out, t->stop_reason);
	else
		fputs("null", out);
	fputs(",\n      \"time_range\": ", out);
	json_interval(out, t->nevents > 0, t->start_ns, t->end_ns);
	fprintf(out, ",\n      \"gpu_activities\": %" PRIu64
	    ", \"linked_activities\": %" PRIu64 ", \"flows\": %zu",
	    t->nactivities, t->nlinked, t->flow_count);
	fputs(",\n      \"device_properties\": [", out);
	for (size_t i = 0; i < t->ndevices; i++) {
		fprintf(out, "%s{\"id\": %" PRId64 ", \"name\": ", i ? ", " : "",
		    t->devices[i].id);
		json_str(out, trace_str(t, t->devices[i].name));
		fputs("}", out);
	}
	fputs("],\n      \"categories\": {", out);
	first = 1;
	for (size_t c = 0; c < t->ncats; c++) {
		if (t->cat_slices[c] == 0)
			continue;
		fputs(first ? "" : ", ", out);
		json_str(out, trace_str(t, t->cats[c]));
		fprintf(out, ": %" PRIu64, t->cat_slices[c]);
		first = 0;
	}
	fputs("}", out);
}

/*
 * Whether the entry of analysis a lists track tr: CPU and counter tracks,
 * and the GPU streams of its device; GPU streams of no analysed device go
 * with the trace's first device.  So a trace's GPU streams are listed once,
 * however many devices it has.
 */
static int
track_listed(const struct analysis *a, const struct track *tr)
{
	const struct trace *t = a->t;
	size_t lo = 0, hi = t->ndevices_seen < TRACE_MAX_DEVICES ?
	    t->ndevices_seen : TRACE_MAX_DEVICES;

	if (a->device < 0 || tr->kind != TRACK_GPU || tr->device == a->device)
		return 1;
	if (hi == 0 || a->device != t->devices_seen[0])
		return 0;
	while (lo < hi) {               /* is tr->device analysed? */
		size_t mid = lo + (hi - lo) / 2;

		if (t->devices_seen[mid] < tr->device)
			lo = mid + 1;
		else
			hi = mid;
	}
	return !(lo < t->ndevices_seen && lo < TRACE_MAX_DEVICES &&
	    t->devices_seen[lo] == tr->device);
}

static void
json_tracks(FILE *out, const struct analysis *a)
{
	const struct trace *t = a->t;
	int any = 0;

	fputs(",\n      \"tracks\": [", out);
	for (size_t i = 0; i < t->ntracks; i++) {
		const struct track *tr = &t->tracks[i];

		if (!track_listed(a, tr))
			continue;
		fprintf(out, "%s\n        {\"pid\": ", any++ ? "," : "");
		json_id(out, t, tr->pid, tr->pid_str);
		fputs(", \"tid\": ", out);
		json_id(out, t, tr->tid, tr->tid_str);
		fprintf(out, ", \"kind\": \"%s\", \"name\": ", trace_kind_name(tr->kind));
		json_str(out, trace_str(t, tr->name));
		fprintf(out, ", \"events\": %u, \"rows\": %u", tr->count, tr->rows);
		if (tr->kind == TRACK_GPU)
			fprintf(out, ", \"device\": %d, \"activities\": %u", tr->device,
			    tr->activity);
		fputs("}", out);
	}
	fputs("\n      ]", out);
}

static void
json_metrics(FILE *out, const struct analysis *a)
{
	const struct window_metrics *m = &a->m;

	if (!a->has_window) {
		fputs(",\n      \"gpu\": null, \"idle_breakdown\": null, \"gaps\": null", out);
		return;
	}
	fprintf(out, ",\n      \"gpu\": {\"busy_ns\": %" PRId64 ", \"idle_ns\": %" PRId64
	    ", \"compute_ns\": %" PRId64 ", \"comm_ns\": %" PRId64
	    ", \"memory_ns\": %" PRId64 ", \"overlap_ns\": %" PRId64
	    ", \"exposed_comm_ns\": %" PRId64 ", \"overlap_pct\": ",
	    m->busy_ns, m->idle_ns, m->compute_ns, m->comm_ns, m->memory_ns,
	    m->overlap_ns, m->exposed_comm_ns);
	if (m->overlap_pct >= 0)
		fprintf(out, "%.3f", m->overlap_pct);
	else
		fputs("null", out);
	fprintf(out, "},\n      \"idle_breakdown\": {\"host_wait_ns\": %" PRId64
	    ", \"kernel_wait_ns\": %" PRId64 ", \"other_ns\": %" PRId64 "}",
	    m->idle_by_kind_ns[IDLE_HOST_WAIT], m->idle_by_kind_ns[IDLE_KERNEL_WAIT],
	    m->idle_by_kind_ns[IDLE_OTHER]);
	fprintf(out, ",\n      \"gaps\": {\"min_gap_ns\": %" PRId64 ", \"count\": %zu"
	    ", \"total_ns\": %" PRId64 ", \"largest\": ", a->dev.min_gap_ns,
	    m->gap_count, m->gap_total_ns);
	if (m->ntop > 0)
		fprintf(out, "{\"start_ns\": %" PRId64 ", \"dur_ns\": %" PRId64 "}",
		    m->top[0].start_ns, m->top[0].dur_ns);
	else
		fputs("null", out);
	fputs(", \"top\": [", out);
	for (size_t i = 0; i < m->ntop; i++)
		fprintf(out, "%s{\"start_ns\": %" PRId64 ", \"dur_ns\": %" PRId64 "}",
		    i ? ", " : "", m->top[i].start_ns, m->top[i].dur_ns);
	fputs("]}", out);
}

static void
json_mfu(FILE *out, const struct analysis *a)
{
	const struct mfu_result *r = &a->mfu;

	fputs(",\n      \"mfu\": {\"value\": ", out);
	if (a->has_window && r->has_value)
		fprintf(out, "%.4f", r->value);
	else
		fputs("null", out);
	fputs(", \"source\": ", out);
	if (a->has_window && r->source != NULL)
		json_str(out, r->source);
	else
		fputs("null", out);
	fputs(", \"peak_tflops\": ", out);
	if (a->has_window && r->has_peak)
		json_double(out, r->peak_tflops);
	else
		fputs("null", out);
	fputs(", \"achieved_tflops\": ", out);
	if (a->has_window && r->has_achieved)
		fprintf(out, "%.3f", r->achieved_tflops);
	else
		fputs("null", out);
	fputs(", \"reason\": ", out);
	if (!a->has_window)
		json_str(out, a->problem);
	else if (!r->has_value)
		json_str(out, r->reason);
	else
		fputs("null", out);
	fputs("}", out);
}

static void
json_steps(FILE *out, const struct analysis *a, const struct analysis_opts *o)
{
	const struct trace *t = a->t;
	int first = 1;

	fputs(",\n      \"steps\": [", out);
	for (size_t i = 0; i < a->nsteps; i++) {
		const struct step *s = &a->steps[i];
		struct window_metrics m;

		if (!analysis_in_window(a, o, s->start_ns, s->end_ns))
			continue;
		fprintf(out, "%s\n        {\"name\": ", first ? "" : ",");
		first = 0;
		json_str(out, trace_str(t, t->events[s->event].name));
		fprintf(out, ", \"number\": %" PRId64 ", \"start_ns\": %" PRId64
		    ", \"end_ns\": %" PRId64 ", \"gpu_start_ns\": ", s->number,
		    s->start_ns, s->end_ns);
		json_i64_or_null(out, s->has_gpu, s->gpu_start_ns);
		fputs(", \"gpu_end_ns\": ", out);
		json_i64_or_null(out, s->has_gpu, s->gpu_end_ns);
		if (s->has_gpu)
			metrics_window_sums(&a->dev, s->gpu_start_ns, s->gpu_end_ns, &m);
		fputs(", \"exposed_comm_ns\": ", out);
		json_i64_or_null(out, s->has_gpu, s->has_gpu ? m.exposed_comm_ns : 0);
		fputs(", \"idle_ns\": ", out);
		json_i64_or_null(out, s->has_gpu, s->has_gpu ? m.idle_ns : 0);
		fprintf(out, ", \"z\": %.3f, \"outlier\": %s}", s->z,
		    s->outlier ? "true" : "false");
	}
	fputs(first ? "]" : "\n      ]", out);
}

static void
json_layers(FILE *out, const struct analysis *a, const struct analysis_opts *o)
{
	const struct trace *t = a->t;
	int first = 1;

	fputs(",\n      \"layers\": [", out);
	for (size_t i = 0; i < a->nlayers; i++) {
		const struct layer *l = &a->layers[i];

		if (!analysis_in_window(a, o, l->has_gpu ? l->gpu_start_ns : l->cpu_start_ns,
		    l->has_gpu ? l->gpu_end_ns : l->cpu_end_ns))
			continue;
		fprintf(out, "%s\n        {\"name\": ", first ? "" : ",");
		first = 0;
		json_str(out, trace_str(t, l->name));
		fprintf(out, ", \"phase\": \"%s\", \"source\": \"%s\", \"step\": ",
		    layers_phase_name(l->phase), layers_source_name(l->source));
		json_i64_or_null(out, l->step >= 0, l->step);
		fprintf(out, ", \"cpu_start_ns\": %" PRId64 ", \"cpu_end_ns\": %" PRId64
		    ", \"gpu_start_ns\": ", l->cpu_start_ns, l->cpu_end_ns);
		json_i64_or_null(out, l->has_gpu, l->gpu_start_ns);
		fputs(", \"gpu_end_ns\": ", out);
		json_i64_or_null(out, l->has_gpu, l->gpu_end_ns);
		fprintf(out, ", \"compute_ns\": %" PRId64 ", \"comm_ns\": %" PRId64
		    ", \"exposed_comm_ns\": %" PRId64 ", \"own_comm_ns\": %" PRId64
		    ", \"own_exposed_comm_ns\": %" PRId64
		    ", \"estimate_exposed_ns\": %" PRId64 "}",
		    l->compute_ns, l->comm_ns, l->exposed_comm_ns, l->own_comm_ns,
		    l->own_exposed_comm_ns, l->estimate_exposed_ns);
	}
	fputs(first ? "]" : "\n      ]", out);
}

static void
json_kernels(FILE *out, const struct analysis *a)
{
	fputs(",\n      \"kernels_top\": [", out);
	for (size_t i = 0; i < a->ntop; i++) {
		const struct kernel_total *k = &a->top[i];

		fprintf(out, "%s\n        {\"name\": ", i ? "," : "");
		json_str(out, trace_str(a->t, k->name));
		fprintf(out, ", \"class\": \"%s\", \"count\": %" PRIu64
		    ", \"total_ns\": %" PRId64 "}", trace_class_name(k->cls), k->count,
		    k->total_ns);
	}
	fputs(a->ntop ? "\n      ]" : "]", out);
}

/*
 * Every COMM activity of the device with its matching key (crossrank.h),
 * whatever the window: what gantty --reports needs to match collectives
 * across ranks without the traces.
 */
static void
json_collectives(FILE *out, const struct analysis *a)
{
	struct crossrank_in in;

	crossrank_in_from_analysis(&in, a);
	fputs(",\n      \"collectives\": [", out);
	for (size_t i = 0; i < in.ncolls; i++) {
		const struct crossrank_coll_in *c = &in.colls[i];

		fputs(i ? ",\n        {\"name\": " : "\n        {\"name\": ", out);
		json_str(out, strtab_get(&in.strs, c->name));
		fputs(", \"group\": ", out);
		json_str(out, strtab_get(&in.strs, c->group));
		fprintf(out, ", \"by_stream\": %s, \"seq\": ",
		    c->by_stream ? "true" : "false");
		json_i64_or_null(out, c->seq >= 0, c->seq);
		fputs(", \"group_size\": ", out);
		json_i64_or_null(out, c->group_size >= 0, c->group_size);
		fprintf(out, ", \"start_ns\": %" PRId64 ", \"end_ns\": %" PRId64 "}",
		    c->ts_ns, c->end_ns);
	}
	fputs(in.ncolls ? "\n      ]" : "]", out);
	crossrank_in_free(&in);
}

static void
json_entry(FILE *out, const struct analysis *a, const struct analysis_opts *o,
    const struct crossrank *x, size_t part)
{
	const struct trace *t = a->t;

	fprintf(out, "    {\n      \"rank\": %" PRId64 ", \"device\": ", t->rank);
	json_i64_or_null(out, a->device >= 0, a->device);
	fputs(", \"path\": ", out);
	json_str(out, t->path);
	fputs(", \"rank_source\": ", out);
	json_str(out, t->rank_source);
	fprintf(out, ",\n      \"format\": \"%s\", \"events\": %" PRIu64
	    ", \"world_size\": ", t->legacy_array ? "array" : "object", t->objects);
	json_i64_or_null(out, t->world_size >= 0, t->world_size);
	fputs(",\n", out);
	json_loaded(out, t);
	fputs(",\n      \"window\": ", out);
	json_interval(out, a->has_window, a->start_ns, a->end_ns);
	if (!a->has_window) {
		fputs(", \"problem\": ", out);
		json_str(out, a->problem);
	}
	json_metrics(out, a);
	json_mfu(out, a);
	json_steps(out, a, o);
	json_layers(out, a, o);
	json_kernels(out, a);
	report_diag_json(out, a, x, part);
	json_tracks(out, a);
	json_collectives(out, a);
	fputs("\n    }", out);
}

static void
json_part(FILE *out, const struct crossrank *x, int32_t p)
{
	if (p < 0) {
		fputs("null", out);
		return;
	}
	fprintf(out, "{\"rank\": %" PRId64 ", \"device\": %d}", x->parts[p].rank,
	    x->parts[p].device);
}

static void
json_coll(FILE *out, const struct crossrank *x, const struct crossrank_coll *c)
{
	fputs("{\"name\": ", out);
	json_str(out, crossrank_str(x, c->name));
	fputs(", \"group\": ", out);
	json_str(out, crossrank_str(x, c->group));
	fputs(", \"seq\": ", out);
	json_i64_or_null(out, c->seq >= 0, c->seq);
	fprintf(out, ", \"occurrence\": %" PRId64 ", \"members\": %zu"
	    ", \"start_ns\": %" PRId64 ", \"skew_ns\": %" PRId64 ", \"last\": ",
	    c->occurrence, c->members, c->first_start_ns, c->skew_ns);
	json_part(out, x, c->last);
	fputs("}", out);
}

static int
cmp_i64(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;

	return (a > b) - (a < b);
}

/*
 * Writes, comma-separated, the ranks that appear more than once with the
 * same device (dup), or the ranks below the world size that no participant
 * has (!dup).  The world size is the largest distributedInfo.world_size of
 * the participants' traces, known here as the largest rank + 1 at least.
 * Returns how many it wrote.
 */
static size_t
rank_problems(FILE *out, const struct crossrank *x, int dup)
{
	int64_t *r = xcalloc(x->nparts + 1, sizeof *r), world = 0;
	size_t n = 0;

	for (size_t p = 0; p < x->nparts; p++) {
		r[p] = x->parts[p].rank * 65536 + (x->parts[p].device & 0xffff);
		if (x->parts[p].rank + 1 > world)
			world = x->parts[p].rank + 1;
	}
	if (x->world_size > world)
		world = x->world_size;
	qsort(r, x->nparts, sizeof *r, cmp_i64);
	if (dup) {
		for (size_t p = 1; p < x->nparts; p++)
			if (r[p] == r[p - 1] && (p < 2 || r[p - 2] != r[p]))
				fprintf(out, "%s%" PRId64, n++ ? ", " : "", r[p] / 65536);
	} else {
		size_t p = 0;

		for (int64_t k = 0; k < world && k < (int64_t)1 << 20; k++) {
			while (p < x->nparts && r[p] / 65536 < k)
				p++;
			if (p >= x->nparts || r[p] / 65536 != k)
				fprintf(out, "%s%" PRId64, n++ ? ", " : "", k);
		}
	}
	free(r);
	return n;
}

static void
json_cross_rank(FILE *out, const struct crossrank *x)
{
	fputs(",\n  \"cross_rank\": ", out);
	if (x == NULL) {
		fputs("null", out);
		return;
	}
	fputs("{\n    \"participants\": [", out);
	for (size_t p = 0; p < x->nparts; p++) {
		const struct crossrank_part *cp = &x->parts[p];

		fprintf(out, "%s\n      {\"rank\": %" PRId64 ", \"device\": %d"
		    ", \"collectives\": %zu, \"unmatched\": %zu, \"last_count\": %zu"
		    ", \"others_waited_ns\": %" PRId64 ", \"waited_ns\": %" PRId64 "}",
		    p ? "," : "", cp->rank, cp->device, cp->collectives, cp->unmatched,
		    cp->last_count, cp->lost_ns, cp->wait_ns);
	}
	fputs("\n    ],\n    \"duplicate_ranks\": [", out);
	rank_problems(out, x, 1);
	fputs("],\n    \"missing_ranks\": [", out);
	rank_problems(out, x, 0);
	fputs("],\n    \"alignment\": ", out);
	if (x->align_ns != NULL) {
		fputs("{\"mode\": \"collective\", \"offsets_ns\": [", out);
		for (size_t p = 0; p < x->nparts; p++)
			fprintf(out, "%s%" PRId64, p ? ", " : "", x->align_ns[p]);
		fprintf(out, "], \"unaligned\": %zu}", x->unaligned);
	} else {
		fputs("null", out);
	}
	fputs(",\n    \"straggler\": ", out);
	json_part(out, x, x->straggler);
	fputs(",\n    \"steps\": [", out);
	for (size_t s = 0; s < x->nsteps; s++) {
		const struct crossrank_step *st = &x->steps[s];

		fprintf(out, "%s\n      {\"number\": %" PRId64 ", \"time_ns\": [",
		    s ? "," : "", st->number);
		for (size_t p = 0; p < x->nparts; p++) {
			int64_t v = crossrank_step_ns(x, s, p);

			fputs(p ? ", " : "", out);
			json_i64_or_null(out, v >= 0, v);
		}
		fputs("], \"slowest\": ", out);
		json_part(out, x, st->slowest);
		fprintf(out, ", \"spread_ns\": %" PRId64 "}", st->spread_ns);
	}
	fprintf(out, "%s,\n    \"collectives\": {\"matched\": %zu, \"unmatched_keys\": %zu"
	    ", \"unmatched\": %zu, \"total_skew_ns\": %" PRId64 ",\n      \"worst\": [",
	    x->nsteps ? "\n    ]" : "]", x->ncolls, x->unmatched_keys, x->unmatched,
	    x->total_skew_ns);
	for (size_t i = 0; i < x->ntop; i++) {
		fputs(i ? ",\n        " : "\n        ", out);
		json_coll(out, x, &x->colls[x->top[i]]);
	}
	fputs(x->ntop ? "\n      ],\n      \"unmatched_first\": [" :
	    "],\n      \"unmatched_first\": [", out);
	for (size_t i = 0; i < x->nmiss; i++) {
		fputs(i ? ",\n        " : "\n        ", out);
		json_coll(out, x, &x->miss[i]);
	}
	fputs(x->nmiss ? "\n      ]}" : "]}", out);
	report_diag_cross_json(out, x);
	fputs("\n  }", out);
}

static void
write_json(FILE *out, const struct analysis_opts *o, int64_t start,
    const struct analysis *a, size_t n, const struct crossrank *x)
{
	fprintf(out, "{\n  \"version\": \"%s\",\n  \"trace_start_ns\": %" PRId64
	    ",\n  \"window\": ", PACKAGE_VERSION, start);
	json_interval(out, o->window == WINDOW_ABSOLUTE, o->start_ns, o->end_ns);
	if (o->window == WINDOW_STEP)
		fprintf(out, ",\n  \"step\": %" PRId64, o->step);
	fputs(",\n  \"ranks\": [\n", out);
	for (size_t i = 0; i < n; i++) {
		json_entry(out, &a[i], o, x, i);
		fputs(i + 1 < n ? ",\n" : "\n", out);
	}
	fputs("  ]", out);
	json_cross_rank(out, x);
	fputs("\n}\n", out);
}

/* ---- CSV ------------------------------------------------------------- */

static void
write_csv(FILE *out, const struct analysis_opts *o, const struct analysis *a,
    size_t n)
{
	fputs("rank,device,step,number,start_ns,end_ns,gpu_start_ns,gpu_end_ns,"
	    "exposed_comm_ns,idle_ns,z,outlier\n", out);
	for (size_t r = 0; r < n; r++) {
		for (size_t i = 0; i < a[r].nsteps; i++) {
			const struct step *s = &a[r].steps[i];
			struct window_metrics m;

			if (!analysis_in_window(&a[r], o, s->start_ns, s->end_ns))
				continue;
			memset(&m, 0, sizeof m);
			if (s->has_gpu)
				metrics_window_sums(&a[r].dev, s->gpu_start_ns, s->gpu_end_ns, &m);
			fprintf(out, "%" PRId64 ",%d,", a[r].t->rank, a[r].device);
			csv_str(out, trace_str(a[r].t, a[r].t->events[s->event].name));
			fprintf(out, ",%" PRId64 ",%" PRId64 ",%" PRId64 ",", s->number,
			    s->start_ns, s->end_ns);
			if (s->has_gpu)
				fprintf(out, "%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64,
				    s->gpu_start_ns, s->gpu_end_ns, m.exposed_comm_ns,
				    m.idle_ns);
			else
				fputs(",,,", out);
			fprintf(out, ",%.3f,%d\n", s->z, s->outlier);
		}
	}
	fputs("\nrank,device,layer,phase,source,step,cpu_start_ns,cpu_end_ns,"
	    "gpu_start_ns,gpu_end_ns,compute_ns,comm_ns,exposed_comm_ns,"
	    "own_comm_ns,own_exposed_comm_ns,estimate_exposed_ns\n", out);
	for (size_t r = 0; r < n; r++) {
		for (size_t i = 0; i < a[r].nlayers; i++) {
			const struct layer *l = &a[r].layers[i];

			if (!analysis_in_window(&a[r], o,
			    l->has_gpu ? l->gpu_start_ns : l->cpu_start_ns,
			    l->has_gpu ? l->gpu_end_ns : l->cpu_end_ns))
				continue;
			fprintf(out, "%" PRId64 ",%d,", a[r].t->rank, a[r].device);
			csv_str(out, trace_str(a[r].t, l->name));
			fprintf(out, ",%s,%s,", layers_phase_name(l->phase),
			    layers_source_name(l->source));
			if (l->step >= 0)
				fprintf(out, "%" PRId64, l->step);
			fprintf(out, ",%" PRId64 ",%" PRId64 ",", l->cpu_start_ns,
			    l->cpu_end_ns);
			if (l->has_gpu)
				fprintf(out, "%" PRId64 ",%" PRId64, l->gpu_start_ns,
				    l->gpu_end_ns);
			else
				fputs(",", out);
			fprintf(out, ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64
			    ",%" PRId64 ",%" PRId64 "\n", l->compute_ns, l->comm_ns,
			    l->exposed_comm_ns, l->own_comm_ns, l->own_exposed_comm_ns,
			    l->estimate_exposed_ns);
		}
	}
}

/* ---- text ------------------------------------------------------------ */

static const char *
dur(char *buf, size_t size, int64_t ns)
{
	return units_format(buf, size, ns);
}

/* b - a, saturated: hostile timestamps can be int64 apart. */
static int64_t
diff_ns(int64_t b, int64_t a)
{
	if (a < 0 ? b > INT64_MAX + a : b < INT64_MIN + a)
		return a < 0 ? INT64_MAX : INT64_MIN;
	return b - a;
}

static double
pct(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

static void
text_metrics(FILE *out, const struct analysis *a, int64_t origin)
{
	const struct window_metrics *m = &a->m;
	int64_t w = diff_ns(a->end_ns, a->start_ns);
	char b1[32], b2[32], b3[32];

	fprintf(out, "  window +%s .. +%s (%s)\n",
	    dur(b1, sizeof b1, diff_ns(a->start_ns, origin)),
	    dur(b2, sizeof b2, diff_ns(a->end_ns, origin)), dur(b3, sizeof b3, w));
	fprintf(out, "  busy %s (%.1f%%), idle %s (%.1f%%)\n",
	    dur(b1, sizeof b1, m->busy_ns), pct(m->busy_ns, w),
	    dur(b2, sizeof b2, m->idle_ns), pct(m->idle_ns, w));
	fprintf(out, "  compute %s, comm %s, memory %s\n",
	    dur(b1, sizeof b1, m->compute_ns), dur(b2, sizeof b2, m->comm_ns),
	    dur(b3, sizeof b3, m->memory_ns));
	fprintf(out, "  exposed comm (T_exposed) %s (%.1f%% of the window)",
	    dur(b1, sizeof b1, m->exposed_comm_ns), pct(m->exposed_comm_ns, w));
	if (m->overlap_pct >= 0)
		fprintf(out, ", overlapped %s (%.1f%% of comm)\n",
		    dur(b2, sizeof b2, m->overlap_ns), m->overlap_pct);
	else
		fputs(", no communication\n", out);
	fprintf(out, "  idle: host wait %s, short kernel wait %s, other %s\n",
	    dur(b1, sizeof b1, m->idle_by_kind_ns[IDLE_HOST_WAIT]),
	    dur(b2, sizeof b2, m->idle_by_kind_ns[IDLE_KERNEL_WAIT]),
	    dur(b3, sizeof b3, m->idle_by_kind_ns[IDLE_OTHER]));
	fprintf(out, "  gaps >= %s: %zu, total %s",
	    dur(b1, sizeof b1, a->dev.min_gap_ns), m->gap_count,
	    dur(b2, sizeof b2, m->gap_total_ns));
	if (m->ntop > 0)
		fprintf(out, ", largest %s at +%s",
		    dur(b1, sizeof b1, m->top[0].dur_ns),
		    dur(b3, sizeof b3, diff_ns(m->top[0].start_ns, origin)));
	fputs("\n", out);
	if (a->mfu.has_value)
		fprintf(out, "  MFU %.1f%% (%s, peak %.0f TFLOP/s)\n",
		    100.0 * a->mfu.value, a->mfu.source, a->mfu.peak_tflops);
	else
		fprintf(out, "  MFU unknown: %s\n", a->mfu.reason);
	if (a->mfu.has_achieved)
		fprintf(out, "  achieved %.1f TFLOP/s\n", a->mfu.achieved_tflops);
}

static void
text_steps(FILE *out, const struct analysis *a, const struct analysis_opts *o)
{
	char b1[32], b2[32], b3[32];
	int any = 0;

	for (size_t i = 0; i < a->nsteps; i++) {
		const struct step *s = &a->steps[i];
		struct window_metrics m;

		if (!analysis_in_window(a, o, s->start_ns, s->end_ns))
			continue;
		if (!any)
			fputs("  steps:           time   exposed      idle\n", out);
		any = 1;
		memset(&m, 0, sizeof m);
		if (s->has_gpu)
			metrics_window_sums(&a->dev, s->gpu_start_ns, s->gpu_end_ns, &m);
		fprintf(out, "    %-10s %10s %9s %9s%s\n",
		    trace_str(a->t, a->t->events[s->event].name) + strlen("Profiler"),
		    dur(b1, sizeof b1, diff_ns(s->end_ns, s->start_ns)),
		    s->has_gpu ? dur(b2, sizeof b2, m.exposed_comm_ns) : "-",
		    s->has_gpu ? dur(b3, sizeof b3, m.idle_ns) : "-",
		    s->outlier ? "   << outlier" : "");
	}
}

static int
by_own_exposed(const void *pa, const void *pb)
{
	const struct layer *a = *(const struct layer *const *)pa;
	const struct layer *b = *(const struct layer *const *)pb;

	if (a->own_exposed_comm_ns != b->own_exposed_comm_ns)
		return a->own_exposed_comm_ns > b->own_exposed_comm_ns ? -1 : 1;
	return a->cpu_start_ns < b->cpu_start_ns ? -1 : a->cpu_start_ns > b->cpu_start_ns;
}

static void
text_layers(FILE *out, const struct analysis *a, const struct analysis_opts *o)
{
	const struct layer **v = xcalloc(a->nlayers + 1, sizeof *v);
	size_t n = 0;
	char b1[32], b2[32], b3[32];

	for (size_t i = 0; i < a->nlayers; i++) {
		const struct layer *l = &a->layers[i];

		if (analysis_in_window(a, o, l->has_gpu ? l->gpu_start_ns : l->cpu_start_ns,
		    l->has_gpu ? l->gpu_end_ns : l->cpu_end_ns))
			v[n++] = l;
	}
	if (n > 0) {
		qsort(v, n, sizeof *v, by_own_exposed);
		fprintf(out, "  layers: %zu; worst own exposed comm:\n", n);
		for (size_t i = 0; i < n && i < 5 && v[i]->own_exposed_comm_ns > 0; i++) {
			fputs("    ", out);
			text_str(out, trace_str(a->t, v[i]->name));
			fprintf(out, " %s", layers_phase_name(v[i]->phase));
			if (v[i]->step >= 0)
				fprintf(out, " step %" PRId64, v[i]->step);
			fprintf(out, ": own exposed %s, exposed in extent %s, comm %s\n",
			    dur(b1, sizeof b1, v[i]->own_exposed_comm_ns),
			    dur(b2, sizeof b2, v[i]->exposed_comm_ns),
			    dur(b3, sizeof b3, v[i]->comm_ns));
		}
	}
	free(v);
}

static void
text_entry(FILE *out, const struct analysis *a, const struct analysis_opts *o,
    int64_t origin, const struct crossrank *x, size_t part)
{
	const struct trace *t = a->t;
	char b1[32];

	text_str(out, t->path);
	fprintf(out, "\n  rank %" PRId64 " (from %s)", t->rank, t->rank_source);
	if (t->world_size >= 0)
		fprintf(out, " of %" PRId64, t->world_size);
	if (a->device >= 0)
		fprintf(out, ", device %d", a->device);
	if (t->ndevices > 0) {
		fputs(", ", out);
		text_str(out, trace_str(t, t->devices[0].name));
	}
	fprintf(out, "\n  %" PRIu64 " events, %zu tracks, %" PRIu64
	    " GPU activities (%" PRIu64 " linked to their launch)",
	    t->objects, t->ntracks, t->nactivities, t->nlinked);
	if (t->nevents > 0)
		fprintf(out, ", span %s", dur(b1, sizeof b1, diff_ns(t->end_ns, t->start_ns)));
	fputs("\n", out);
#define X(f, k, txt) \
	if (t->warn.f != 0) \
		fprintf(out, "  warning: %" PRIu64 " %s\n", t->warn.f, txt);
	TRACE_WARNINGS(X)
#undef X
	if (t->stop_reason != NULL) {
		fputs("  stopped: ", out);
		text_str(out, t->stop_reason);
		fputs("\n", out);
	}
	if (a->has_window)
		text_metrics(out, a, origin);
	else
		fprintf(out, "  no window: %s\n", a->problem);
	text_steps(out, a, o);
	text_layers(out, a, o);
	if (a->ntop > 0) {
		fputs("  top kernels:\n", out);
		for (size_t i = 0; i < a->ntop && i < 5; i++) {
			fprintf(out, "    %10s %6" PRIu64 "x %-7s ",
			    dur(b1, sizeof b1, a->top[i].total_ns), a->top[i].count,
			    trace_class_name(a->top[i].cls));
			text_str(out, trace_str(t, a->top[i].name));
			fputs("\n", out);
		}
	}
	report_diag_text(out, a, x, part, origin);
	fputs("  tracks:\n", out);
	for (size_t i = 0; i < t->ntracks; i++) {
		const struct track *tr = &t->tracks[i];
		char pid[64], tid[64];

		if (!track_listed(a, tr))
			continue;

		if (tr->pid_str)
			snprintf(pid, sizeof pid, "%s", trace_str(t, tr->pid_str));
		else
			snprintf(pid, sizeof pid, "%" PRId64, tr->pid);
		if (tr->tid_str)
			snprintf(tid, sizeof tid, "%s", trace_str(t, tr->tid_str));
		else
			snprintf(tid, sizeof tid, "%" PRId64, tr->tid);
		fprintf(out, "    %-7s %8u events  pid %-10s tid %-12s ",
		    trace_kind_name(tr->kind), tr->count, pid, tid);
		text_str(out, trace_str(t, tr->name));
		fputs("\n", out);
	}
}

static void
text_part(FILE *out, const struct crossrank *x, int32_t p)
{
	if (p < 0)
		fputs("-", out);
	else if (x->parts[p].device >= 0)
		fprintf(out, "rank %" PRId64 "/dev %d", x->parts[p].rank,
		    x->parts[p].device);
	else
		fprintf(out, "rank %" PRId64, x->parts[p].rank);
}

static void
text_cross_rank(FILE *out, const struct crossrank *x)
{
	char b1[32], b2[32], b3[32];

	fprintf(out, "\ncross-rank: %zu participants, %zu collectives matched",
	    x->nparts, x->ncolls);
	fputs("\n  duplicate ranks: ", out);
	if (rank_problems(out, x, 1) == 0)
		fputs("none", out);
	fputs("; missing ranks: ", out);
	if (rank_problems(out, x, 0) == 0)
		fputs("none", out);
	if (x->align_ns != NULL) {
		fputs("\n  clocks aligned on collectives; offsets:", out);
		for (size_t p = 0; p < x->nparts; p++) {
			fputs(p ? ", " : " ", out);
			text_part(out, x, (int32_t)p);
			fprintf(out, " %+" PRId64 " ns", x->align_ns[p]);
		}
		if (x->unaligned > 0)
			fprintf(out, " (%zu could not be aligned)", x->unaligned);
	}
	if (x->unmatched_keys > 0)
		fprintf(out, ", %zu keys unmatched (%zu kernels)", x->unmatched_keys,
		    x->unmatched);
	fputs("\n", out);
	if (x->straggler >= 0) {
		const struct crossrank_part *p = &x->parts[x->straggler];

		fputs("  straggler: ", out);
		text_part(out, x, x->straggler);
		fprintf(out, ", last at %zu of %zu collectives; the others waited %s for it\n",
		    p->last_count, x->ncolls, dur(b1, sizeof b1, p->lost_ns));
	}
	if (x->nsteps > 0)
		fputs("  steps:       slowest              spread\n", out);
	for (size_t s = 0; s < x->nsteps; s++) {
		fprintf(out, "    #%-8" PRId64 "  ", x->steps[s].number);
		text_part(out, x, x->steps[s].slowest);
		fprintf(out, "  %s .. %s (spread %s)%s\n",
		    dur(b1, sizeof b1, x->steps[s].min_ns),
		    dur(b2, sizeof b2, x->steps[s].max_ns),
		    dur(b3, sizeof b3, x->steps[s].spread_ns),
		    x->steps[s].present < x->nparts ? "  (missing on some ranks)" : "");
	}
	if (x->ntop > 0)
		fputs("  worst arrival skew:\n", out);
	for (size_t i = 0; i < x->ntop && i < 5; i++) {
		const struct crossrank_coll *c = &x->colls[x->top[i]];

		fprintf(out, "    %9s  ", dur(b1, sizeof b1, c->skew_ns));
		text_str(out, crossrank_str(x, c->name));
		fputs(" (", out);
		text_str(out, crossrank_str(x, c->group));
		if (c->seq >= 0)
			fprintf(out, " seq %" PRId64, c->seq);
		fputs("), last ", out);
		text_part(out, x, c->last);
		fputs("\n", out);
	}
	report_diag_cross_text(out, x);
}

int
report_write(FILE *out, enum report_format fmt, const struct analysis_opts *opts,
    int64_t trace_start_ns, const struct analysis *a, size_t n,
    const struct crossrank *x)
{
	switch (fmt) {
	case REPORT_JSON:
		write_json(out, opts, trace_start_ns, a, n, x);
		break;
	case REPORT_CSV:
		write_csv(out, opts, a, n);
		break;
	case REPORT_TEXT:
		for (size_t i = 0; i < n; i++) {
			if (i > 0)
				fputs("\n", out);
			text_entry(out, &a[i], opts, trace_start_ns, x, i);
		}
		if (x != NULL)
			text_cross_rank(out, x);
		break;
	}
	fflush(out);
	return ferror(out) ? -1 : 0;
}

/* For the other report writers (report_diag.c, diff.c). */
void
report_json_str(FILE *out, const char *s)
{
	json_str(out, s);
}

void
report_text_str(FILE *out, const char *s)
{
	text_str(out, s);
}

int
report_write_cross(FILE *out, enum report_format fmt,
    const struct report_set *set, const struct crossrank *x)
{
	switch (fmt) {
	case REPORT_JSON:
		fprintf(out, "{\n  \"version\": \"%s\",\n  \"reports\": [",
		    PACKAGE_VERSION);
		for (size_t i = 0; i < set->n; i++) {
			const struct report_rank *r = &set->v[i];

			fprintf(out, "%s\n    {\"rank\": %" PRId64 ", \"device\": ",
			    i ? "," : "", r->in.rank);
			json_i64_or_null(out, r->in.device >= 0, r->in.device);
			fputs(", \"report\": ", out);
			json_str(out, r->file);
			fputs(", \"trace\": ", out);
			json_str(out, r->trace);
			fprintf(out, ", \"steps\": %zu, \"collectives\": %zu}",
			    r->in.nsteps, r->in.ncolls);
		}
		fputs(set->n ? "\n  ]" : "]", out);
		json_cross_rank(out, x);
		fputs("\n}\n", out);
		break;
	case REPORT_CSV:
		fputs("step,rank,device,time_ns\n", out);
		for (size_t s = 0; s < x->nsteps; s++)
			for (size_t p = 0; p < x->nparts; p++) {
				int64_t v = crossrank_step_ns(x, s, p);

				if (v < 0)
					continue;
				fprintf(out, "%" PRId64 ",%" PRId64 ",", x->steps[s].number,
				    x->parts[p].rank);
				if (x->parts[p].device >= 0)
					fprintf(out, "%d", x->parts[p].device);
				fprintf(out, ",%" PRId64 "\n", v);
			}
		break;
	case REPORT_TEXT:
		fprintf(out, "%zu participants read from per-rank reports\n", set->n);
		text_cross_rank(out, x);
		break;
	}
	fflush(out);
	return ferror(out) ? -1 : 0;
}
