#include "config.h"

#include "report/report_compare.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/compare.h"
#include "analysis/layers.h"
#include "report/emit.h"
#include "model/trace.h"
#include "base/units.h"

#define TEXT_KERNELS 20

static void
json_metrics(FILE *out, const struct compare_metrics *m, int own)
{
	fprintf(out, "{\"time_ns\": %" PRId64 ", \"compute_ns\": %" PRId64
	    ", \"comm_ns\": %" PRId64 ", \"exposed_comm_ns\": %" PRId64
	    ", \"idle_ns\": %" PRId64, m->time_ns, m->compute_ns, m->comm_ns,
	    m->exposed_comm_ns, m->idle_ns);
	if (own)
		fprintf(out, ", \"own_exposed_comm_ns\": %" PRId64,
		    m->own_exposed_comm_ns);
	fputs("}", out);
}

static void
json_abd(FILE *out, const struct compare_metrics *a, const struct compare_metrics *b,
    int own)
{
	struct compare_metrics dl = compare_delta(a, b);

	fputs("\"a\": ", out);
	json_metrics(out, a, own);
	fputs(", \"b\": ", out);
	json_metrics(out, b, own);
	fputs(", \"delta\": ", out);
	json_metrics(out, &dl, own);
}

static void
json_side(FILE *out, const struct analysis *a)
{
	fputs("{\"path\": ", out);
	emit_json_str(out, a->t->path);
	fprintf(out, ", \"rank\": %" PRId64 ", \"device\": ", a->t->rank);
	if (a->device >= 0)
		fprintf(out, "%d", a->device);
	else
		fputs("null", out);
	if (a->has_window)
		fprintf(out, ", \"window\": {\"start_ns\": %" PRId64 ", \"end_ns\": %"
		    PRId64 "}}", a->start_ns, a->end_ns);
	else
		fputs(", \"window\": null}", out);
}

static void
write_json(FILE *out, const struct analysis *a, const struct analysis *b,
    const struct compare *d)
{
	fprintf(out, "{\n  \"version\": \"%s\",\n  \"a\": ", PACKAGE_VERSION);
	json_side(out, a);
	fputs(",\n  \"b\": ", out);
	json_side(out, b);
	fputs(",\n  \"window\": {", out);
	json_abd(out, &d->wa, &d->wb, 0);
	fputs("},\n  \"steps\": [", out);
	for (size_t i = 0; i < d->nsteps; i++) {
		const struct compare_step *s = &d->steps[i];

		fprintf(out, "%s\n    {\"index\": %zu, \"a_step\": ", i ? "," : "",
		    s->index);
		if (s->has_a)
			fprintf(out, "%" PRId64, s->number_a);
		else
			fputs("null", out);
		fputs(", \"b_step\": ", out);
		if (s->has_b)
			fprintf(out, "%" PRId64, s->number_b);
		else
			fputs("null", out);
		fputs(", ", out);
		json_abd(out, &s->a, &s->b, 0);
		fputs("}", out);
	}
	fputs(d->nsteps ? "\n  ],\n  \"layers\": [" : "],\n  \"layers\": [", out);
	for (size_t i = 0; i < d->nlayers; i++) {
		const struct compare_layer *l = &d->layers[i];

		fprintf(out, "%s\n    {\"name\": ", i ? "," : "");
		emit_json_str(out, compare_str(d, l->name));
		fprintf(out, ", \"phase\": \"%s\", \"a_count\": %zu, \"b_count\": %zu, ",
		    layers_phase_name((enum layer_phase)l->phase), l->count_a,
		    l->count_b);
		json_abd(out, &l->a, &l->b, 1);
		fputs("}", out);
	}
	fputs(d->nlayers ? "\n  ],\n  \"kernels\": [" : "],\n  \"kernels\": [", out);
	for (size_t i = 0; i < d->nkernels; i++) {
		const struct compare_kernel *k = &d->kernels[i];

		fprintf(out, "%s\n    {\"name\": ", i ? "," : "");
		emit_json_str(out, compare_str(d, k->name));
		fprintf(out, ", \"class\": \"%s\", \"a_count\": %" PRIu64
		    ", \"b_count\": %" PRIu64 ", \"a_total_ns\": %" PRId64
		    ", \"b_total_ns\": %" PRId64 ", \"delta_count\": %" PRId64
		    ", \"delta_total_ns\": %" PRId64 "}",
		    trace_class_name((enum event_class)k->cls), k->count_a, k->count_b,
		    k->total_a_ns, k->total_b_ns,
		    (int64_t)k->count_b - (int64_t)k->count_a,
		    k->total_b_ns - k->total_a_ns);
	}
	fputs(d->nkernels ? "\n  ]\n}\n" : "]\n}\n", out);
}

static void
text_row(FILE *out, const char *what, int64_t a, int64_t b)
{
	char b1[32], b2[32], b3[32];

	fprintf(out, "  %-16s %12s %12s %12s\n", what, units_format(b1, sizeof b1, a),
	    units_format(b2, sizeof b2, b), units_format_signed(b3, sizeof b3, b - a));
}

static void
text_side(FILE *out, const char *label, const struct analysis *a)
{
	fprintf(out, "%s: ", label);
	emit_text_str(out, a->t->path);
	fprintf(out, " (rank %" PRId64, a->t->rank);
	if (a->device >= 0)
		fprintf(out, ", device %d", a->device);
	fputs(")\n", out);
}

static void
write_text(FILE *out, const struct analysis *a, const struct analysis *b,
    const struct compare *d)
{
	char b1[32], b2[32], b3[32], b4[32], b5[32], b6[32];

	text_side(out, "A", a);
	text_side(out, "B", b);
	fprintf(out, "window %29s %12s %12s\n", "A", "B", "B - A");
	text_row(out, "time", d->wa.time_ns, d->wb.time_ns);
	text_row(out, "compute", d->wa.compute_ns, d->wb.compute_ns);
	text_row(out, "comm", d->wa.comm_ns, d->wb.comm_ns);
	text_row(out, "exposed comm", d->wa.exposed_comm_ns, d->wb.exposed_comm_ns);
	text_row(out, "idle", d->wa.idle_ns, d->wb.idle_ns);
	if (d->nsteps > 0) {
		fputs("steps (aligned by position; B - A):\n", out);
		fprintf(out, "  %-7s %-7s %10s %10s %10s %10s %10s %10s\n", "A", "B",
		    "time A", "time", "compute", "comm", "exposed", "idle");
		for (size_t i = 0; i < d->nsteps; i++) {
			const struct compare_step *s = &d->steps[i];
			struct compare_metrics dl = compare_delta(&s->a, &s->b);
			char na[24], nb[24];

			snprintf(na, sizeof na, s->has_a ? "#%" PRId64 : "-", s->number_a);
			snprintf(nb, sizeof nb, s->has_b ? "#%" PRId64 : "-", s->number_b);
			fprintf(out, "  %-7s %-7s %10s %10s %10s %10s %10s %10s\n", na, nb,
			    units_format(b1, sizeof b1, s->a.time_ns),
			    units_format_signed(b2, sizeof b2, dl.time_ns),
			    units_format_signed(b3, sizeof b3, dl.compute_ns),
			    units_format_signed(b4, sizeof b4, dl.comm_ns),
			    units_format_signed(b5, sizeof b5, dl.exposed_comm_ns),
			    units_format_signed(b6, sizeof b6, dl.idle_ns));
		}
	}
	if (d->nlayers > 0) {
		fputs("layers (summed over occurrences; B - A):\n", out);
		fprintf(out, "  %10s %10s %10s %10s %10s %10s  %s\n", "time", "compute",
		    "comm", "exposed", "own exp.", "idle", "layer");
		for (size_t i = 0; i < d->nlayers; i++) {
			const struct compare_layer *l = &d->layers[i];
			struct compare_metrics dl = compare_delta(&l->a, &l->b);

			fprintf(out, "  %10s %10s %10s %10s %10s %10s  ",
			    units_format_signed(b1, sizeof b1, dl.time_ns),
			    units_format_signed(b2, sizeof b2, dl.compute_ns),
			    units_format_signed(b3, sizeof b3, dl.comm_ns),
			    units_format_signed(b4, sizeof b4, dl.exposed_comm_ns),
			    units_format_signed(b5, sizeof b5, dl.own_exposed_comm_ns),
			    units_format_signed(b6, sizeof b6, dl.idle_ns));
			emit_text_str(out, compare_str(d, l->name));
			fprintf(out, " %s (%zu -> %zu)\n",
			    layers_phase_name((enum layer_phase)l->phase), l->count_a,
			    l->count_b);
		}
	}
	if (d->nkernels > 0) {
		fprintf(out, "kernels (largest change first%s):\n",
		    d->nkernels > TEXT_KERNELS ? ", top 20" : "");
		fprintf(out, "  %10s %8s %10s %10s  %s\n", "time", "count", "A", "B",
		    "kernel");
		for (size_t i = 0; i < d->nkernels && i < TEXT_KERNELS; i++) {
			const struct compare_kernel *k = &d->kernels[i];

			fprintf(out, "  %10s %+8" PRId64 " %10s %10s  ",
			    units_format_signed(b1, sizeof b1, k->total_b_ns - k->total_a_ns),
			    (int64_t)k->count_b - (int64_t)k->count_a,
			    units_format(b2, sizeof b2, k->total_a_ns),
			    units_format(b3, sizeof b3, k->total_b_ns));
			emit_text_str(out, compare_str(d, k->name));
			fputs("\n", out);
		}
	}
}

int
report_compare_write(FILE *out, enum report_format fmt, const struct analysis *a,
    const struct analysis *b, const struct compare *d)
{
	if (fmt == REPORT_JSON)
		write_json(out, a, b, d);
	else
		write_text(out, a, b, d);
	fflush(out);
	return ferror(out) ? -1 : 0;
}
