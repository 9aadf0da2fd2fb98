#include "config.h"

#include "report/report_compare.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/compare.h"
#include "analysis/layers.h"
#include "report/emit.h"
#include "report/fold.h"
#include "report/json.h"
#include "model/trace.h"
#include "base/elide.h"
#include "base/units.h"

#define TEXT_KERNELS 20

/*
 * Kernel i's name in at most max columns, cut so that it stays apart from
 * the names next to it in name order (elide.h).
 */
static void
kernel_name(FILE *out, const struct compare *d, size_t i, size_t max, int ascii)
{
	size_t near[COMPARE_NEIGHBOURS], keeps[ELIDE_PARTS], n, nk;
	const char *others[COMPARE_NEIGHBOURS];

	n = compare_kernel_neighbours(d, i, near, COMPARE_NEIGHBOURS);
	for (size_t j = 0; j < n; j++)
		others[j] = compare_str(d, d->kernels[near[j]].name);
	nk = elide_keeps(compare_str(d, d->kernels[i].name), others, n, max,
	    ascii ? 3 : 1, keeps, ELIDE_PARTS);
	emit_text_name_keep(out, compare_str(d, d->kernels[i].name), max, ascii, keeps, nk);
}

static void
json_metrics(struct json *j, const struct compare_metrics *m, int own)
{
	json_begin_object(j, JSON_INLINE);
	json_key(j, "time_ns");
	json_int(j, m->time_ns);
	json_key(j, "compute_ns");
	json_int(j, m->compute_ns);
	json_key(j, "comm_ns");
	json_int(j, m->comm_ns);
	json_key(j, "exposed_comm_ns");
	json_int(j, m->exposed_comm_ns);
	json_key(j, "idle_ns");
	json_int(j, m->idle_ns);
	if (own) {
		json_key(j, "own_exposed_comm_ns");
		json_int(j, m->own_exposed_comm_ns);
	}
	json_end(j);
}

/* The members "a", "b" and "delta" (b - a) of the object open in j. */
static void
json_abd(struct json *j, const struct compare_metrics *a,
    const struct compare_metrics *b, int own)
{
	struct compare_metrics dl = compare_delta(a, b);

	json_key(j, "a");
	json_metrics(j, a, own);
	json_key(j, "b");
	json_metrics(j, b, own);
	json_key(j, "delta");
	json_metrics(j, &dl, own);
}

static void
json_side(struct json *j, const struct analysis *a)
{
	json_begin_object(j, JSON_INLINE);
	json_key(j, "path");
	json_str(j, a->t->path);
	json_key(j, "rank");
	json_int(j, a->t->rank);
	json_key(j, "device");
	json_int_or_null(j, a->device >= 0, a->device);
	json_key(j, "window");
	if (a->has_window) {
		json_begin_object(j, JSON_INLINE);
		json_key(j, "start_ns");
		json_int(j, a->start_ns);
		json_key(j, "end_ns");
		json_int(j, a->end_ns);
		json_end(j);
	} else {
		json_null(j);
	}
	json_end(j);
}

static void
json_steps(struct json *j, const struct compare *d)
{
	json_key(j, "steps");
	json_begin_array(j, JSON_BLOCK);
	for (size_t i = 0; i < d->nsteps; i++) {
		const struct compare_step *s = &d->steps[i];

		json_begin_object(j, JSON_INLINE);
		json_key(j, "index");
		json_uint(j, s->index);
		json_key(j, "a_step");
		json_int_or_null(j, s->has_a, s->number_a);
		json_key(j, "b_step");
		json_int_or_null(j, s->has_b, s->number_b);
		json_abd(j, &s->a, &s->b, 0);
		json_end(j);
	}
	json_end(j);
}

static void
json_layers(struct json *j, const struct compare *d)
{
	json_key(j, "layers");
	json_begin_array(j, JSON_BLOCK);
	for (size_t i = 0; i < d->nlayers; i++) {
		const struct compare_layer *l = &d->layers[i];

		json_begin_object(j, JSON_INLINE);
		json_key(j, "name");
		json_str(j, compare_str(d, l->name));
		json_key(j, "phase");
		json_str(j, layers_phase_name((enum layer_phase)l->phase));
		json_key(j, "a_count");
		json_uint(j, l->count_a);
		json_key(j, "b_count");
		json_uint(j, l->count_b);
		json_abd(j, &l->a, &l->b, 1);
		json_end(j);
	}
	json_end(j);
}

static void
json_kernels(struct json *j, const struct compare *d)
{
	json_key(j, "kernels");
	json_begin_array(j, JSON_BLOCK);
	for (size_t i = 0; i < d->nkernels; i++) {
		const struct compare_kernel *k = &d->kernels[i];

		json_begin_object(j, JSON_INLINE);
		json_key(j, "name");
		json_str(j, compare_str(d, k->name));
		json_key(j, "class");
		json_str(j, trace_class_name((enum event_class)k->cls));
		json_key(j, "a_count");
		json_uint(j, k->count_a);
		json_key(j, "b_count");
		json_uint(j, k->count_b);
		json_key(j, "a_total_ns");
		json_int(j, k->total_a_ns);
		json_key(j, "b_total_ns");
		json_int(j, k->total_b_ns);
		json_key(j, "delta_count");
		json_int(j, (int64_t)k->count_b - (int64_t)k->count_a);
		json_key(j, "delta_total_ns");
		json_int(j, k->total_b_ns - k->total_a_ns);
		json_end(j);
	}
	json_end(j);
}

static void
write_json(FILE *out, const struct analysis *a, const struct analysis *b,
    const struct compare *d, double limit_pct)
{
	struct compare_verdict vd;

	struct json j;
	char why[256];

	json_init(&j, out);
	json_begin_object(&j, JSON_BLOCK);
	json_key(&j, "version");
	json_str(&j, PACKAGE_VERSION);
	json_key(&j, "a");
	json_side(&j, a);
	json_key(&j, "b");
	json_side(&j, b);
	json_key(&j, "unlike");
	compare_unlike(a, b, why, sizeof why);
	if (why[0] != '\0')
		json_str(&j, why);
	else
		json_null(&j);
	json_key(&j, "window");
	json_begin_object(&j, JSON_INLINE);
	json_abd(&j, &d->wa, &d->wb, 0);
	json_end(&j);
	json_key(&j, "steps_paired");
	json_str(&j, d->by_number ? "number" : "position");
	json_steps(&j, d);
	json_layers(&j, d);
	json_kernels(&j, d);
	compare_verdict(d, &vd);
	json_key(&j, "verdict");
	json_begin_object(&j, JSON_INLINE);
	json_key(&j, "over");
	json_str(&j, vd.steps > 0 ? "steps" : "window");
	json_key(&j, "steps");
	json_uint(&j, vd.steps);
	json_key(&j, "a_ns");
	json_int(&j, vd.a_ns);
	json_key(&j, "b_ns");
	json_int(&j, vd.b_ns);
	json_key(&j, "change_pct");
	json_double(&j, "%.3f", vd.change_pct);
	json_key(&j, "fail_above_pct");
	if (limit_pct >= 0)
		json_double(&j, "%.3f", limit_pct);
	else
		json_null(&j);
	json_key(&j, "regression");
	json_boolean(&j, limit_pct >= 0 && vd.change_pct > limit_pct);
	json_end(&j);
	json_end(&j);
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
    const struct compare *d, double limit_pct, int ascii)
{
	struct compare_verdict vd;

	char b1[32], b2[32], b3[32], b4[32], b5[32], b6[32], why[256];

	text_side(out, "A", a);
	text_side(out, "B", b);
	compare_unlike(a, b, why, sizeof why);
	if (why[0] != '\0')
		fprintf(out, "warning: A and B differ: %s\n", why);
	fprintf(out, "window %29s %12s %12s\n", "A", "B", "B - A");
	text_row(out, "time", d->wa.time_ns, d->wb.time_ns);
	text_row(out, "compute", d->wa.compute_ns, d->wb.compute_ns);
	text_row(out, "comm", d->wa.comm_ns, d->wb.comm_ns);
	text_row(out, "exposed comm", d->wa.exposed_comm_ns, d->wb.exposed_comm_ns);
	text_row(out, "idle", d->wa.idle_ns, d->wb.idle_ns);
	if (d->nsteps > 0) {
		fputs(d->by_number ? "steps (paired by number; B - A):\n" :
		    "steps (paired by position, no step number in both; B - A):\n", out);
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
			emit_text_name(out, compare_str(d, l->name), EMIT_NAME_CHARS, ascii);
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
			/* 45 columns before the name */
			kernel_name(out, d, i, FOLD_WIDTH - 45, ascii);
			fputs("\n", out);
		}
	}
	compare_verdict(d, &vd);
	if (vd.steps > 0)
		fprintf(out, "verdict: B - A %+.1f%% of A's time over the %zu step%s both have "
		    "(%s -> %s)", vd.change_pct, vd.steps, vd.steps == 1 ? "" : "s",
		    units_format(b1, sizeof b1, vd.a_ns), units_format(b2, sizeof b2, vd.b_ns));
	else
		fprintf(out, "verdict: B - A %+.1f%% of A's window (%s -> %s)", vd.change_pct,
		    units_format(b1, sizeof b1, vd.a_ns), units_format(b2, sizeof b2, vd.b_ns));
	if (limit_pct >= 0)
		fprintf(out, vd.change_pct > limit_pct ? ": REGRESSION, above %g%%\n" :
		    ": within %g%%\n", limit_pct);
	else
		fputs("\n", out);
}

int
report_compare_write(FILE *out, enum report_format fmt, const struct analysis *a,
    const struct analysis *b, const struct compare *d, double limit_pct, int ascii)
{
	if (fmt == REPORT_JSON)
		write_json(out, a, b, d, limit_pct);
	else
		write_text(out, a, b, d, limit_pct, ascii);
	fflush(out);
	return ferror(out) ? -1 : 0;
}
