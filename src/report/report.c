#include "config.h"

#include "report/report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/bandwidth.h"
#include "analysis/layers.h"
#include "analysis/crossrank.h"
#include "report/report_set.h"
#include "report/report_diag.h"
#include "report/report_whatif.h"
#include "report/report_json.h"
#include "report/listing.h"
#include "report/emit.h"
#include "report/fold.h"
#include "model/comm.h"
#include "model/trace.h"
#include "base/ranges.h"
#include "base/units.h"
#include "base/xalloc.h"

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
			emit_csv_str(out, trace_str(a[r].t, a[r].t->events[s->event].name));
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
			emit_csv_str(out, trace_str(a[r].t, l->name));
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

static void
put_rank(void *arg, int64_t rank)
{
	ranges_add(arg, rank);
}

/*
 * Writes the duplicate (dup) or missing ranks of x as ranges ("2-127, 130"),
 * "none" when there are none.
 */
static void
text_rank_problems(FILE *out, const struct crossrank *x, int dup)
{
	struct ranges r;

	ranges_begin(&r, out, 0);
	listing_ranks(x, dup, put_rank, &r);
	if (ranges_end(&r) == 0)
		fputs("none", out);
}

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

/*
 * "collectives: all_reduce 12x 402.7 MB, busbw 2.6 GB/s (link 448)": the
 * window's collectives with message sizes, per type (waits included).
 */
static void
text_bandwidth(FILE *out, const struct analysis *a)
{
	struct bw_row rows[COLL_NTYPES];
	size_t n = bandwidth_window(&a->bw, a->start_ns, a->end_ns, 0, rows);

	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%s%s %" PRIu64 "x %.1f MB", i ? "; " :
		    "  collectives (busbw with the waits for peers): ",
		    bandwidth_type_key(rows[i].type), rows[i].count,
		    (double)rows[i].bytes / 1e6);
		if (rows[i].busbw_gbps >= 0)
			fprintf(out, ", busbw %.1f GB/s", rows[i].busbw_gbps);
		if (rows[i].expected_gbps >= 0)
			fprintf(out, " (link %.0f)", rows[i].expected_gbps);
	}
	if (n > 0)
		fputs("\n", out);
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
	text_bandwidth(out, a);
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
		    s->outlier ? "   << outlier" : s->incomplete ?
		    "   (incomplete: the file was cut short)" : "");
	}
}

static void
text_layers(FILE *out, const struct analysis *a, const struct analysis_opts *o,
    int ascii)
{
	const struct layer **v = xcalloc(a->nlayers + 1, sizeof *v);
	size_t n = 0;
	char b1[32], b2[32], b3[32];

	size_t nin;

	for (size_t i = 0; i < a->nlayers; i++) {
		const struct layer *l = &a->layers[i];

		if (analysis_in_window(a, o, l->has_gpu ? l->gpu_start_ns : l->cpu_start_ns,
		    l->has_gpu ? l->gpu_end_ns : l->cpu_end_ns))
			v[n++] = l;
	}
	nin = n;
	if (n > 0) {
		size_t k = 0;

		qsort(v, n, sizeof *v, layers_qsort_worst);
		/* the ranking passes over model-wide layers and ranges listed */
		for (size_t i = 0; i < n; i++)
			if (!layers_rank_skip(v[i], v, k, a->steps, a->nsteps))
				v[k++] = v[i];
		n = k;
	}
	if (nin > 0) {
		/* the worst first: a table only if one has exposed comm of its own */
		if (n > 0 && v[0]->own_exposed_comm_ns > 0)
			fprintf(out, "  layers: %zu; worst own exposed comm:\n", nin);
		else
			fprintf(out, "  layers: %zu, none with exposed comm of its own\n", nin);
		for (size_t i = 0; i < n && i < 5 && v[i]->own_exposed_comm_ns > 0; i++) {
			fputs("    ", out);
			emit_text_name(out, trace_str(a->t, v[i]->name), EMIT_NAME_CHARS,
			    ascii);
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

/* "communication kernels: nccl 120, launch_context 3", the rules that took any. */
static void
text_comm_classes(FILE *out, const struct trace *t)
{
	const char *sep = "  communication kernels by rule: ";

	for (int r = COMM_RULE_NONE + 1; r < COMM_NRULES; r++) {
		if (t->comm_rules[r] == 0)
			continue;
		fprintf(out, "%s%s %" PRIu64, sep, comm_rule_key((enum comm_rule)r),
		    t->comm_rules[r]);
		sep = ", ";
	}
	if (*sep == ',')
		fputs("\n", out);
}

/* Writes spaces after a column of n characters, up to width. */
static void
pad(FILE *out, size_t n, size_t width)
{
	for (; n < width; n++)
		putc(' ', out);
}

/* The longest pid or tid of a string shown in the track list. */
#define TRACK_ID_CHARS 40

/* A track's pid or tid, its text (elided) or its number, padded to w. */
static void
track_id(FILE *out, const struct trace *t, uint32_t str, int64_t num, int w,
    int ascii)
{
	if (str)
		pad(out, emit_text_name(out, trace_str(t, str), TRACK_ID_CHARS,
		    ascii), w);
	else
		fprintf(out, "%-*" PRId64, w, num);
}

/*
 * The entry's tracks (listing_track()) but the metadata pseudo-tracks,
 * which are counted: "tracks (3 metadata tracks not listed):".  Nothing
 * when there is no track at all.
 */
static void
text_tracks(FILE *out, const struct analysis *a, int ascii)
{
	const struct trace *t = a->t;
	size_t nlisted = 0, nmeta = 0;

	for (size_t i = 0; i < t->ntracks; i++) {
		if (!listing_track(a, &t->tracks[i]))
			continue;
		if (listing_metadata_track(&t->tracks[i]))
			nmeta++;
		else
			nlisted++;
	}
	if (nlisted == 0 && nmeta == 0)
		return;
	if (nmeta == 0)
		fputs("  tracks:\n", out);
	else
		fprintf(out, nlisted > 0 ? "  tracks (%zu metadata track%s not listed):\n" :
		    "  tracks: %zu metadata track%s, not listed\n", nmeta,
		    nmeta == 1 ? "" : "s");
	for (size_t i = 0; i < t->ntracks; i++) {
		const struct track *tr = &t->tracks[i];

		if (!listing_track(a, tr) || listing_metadata_track(tr))
			continue;
		fprintf(out, "    %-7s %8u events  pid ", trace_kind_name(tr->kind),
		    tr->count);
		track_id(out, t, tr->pid_str, tr->pid, 10, ascii);
		fputs(" tid ", out);
		track_id(out, t, tr->tid_str, tr->tid, 12, ascii);
		fputs(" ", out);
		emit_text_name(out, trace_str(t, tr->name), FOLD_WIDTH - 61, ascii);
		fputs("\n", out);
	}
}

static void
text_entry(FILE *out, const struct analysis *a, const struct analysis_opts *o,
    int64_t origin, const struct crossrank *x, size_t part, int ascii)
{
	const struct trace *t = a->t;
	char b1[32];

	emit_text_str(out, t->path);
	fprintf(out, "\n  rank %" PRId64 " (from %s)", t->rank, t->rank_source);
	if (t->world_size >= 0)
		fprintf(out, " of %" PRId64, t->world_size);
	if (a->device >= 0)
		fprintf(out, ", device %d", a->device);
	if (t->ndevices > 0) {
		fputs(", ", out);
		emit_text_name(out, trace_str(t, t->devices[0].name), EMIT_NAME_CHARS,
		    ascii);
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
		emit_text_str(out, t->stop_reason);
		fputs("\n", out);
	}
	if (a->has_window)
		text_metrics(out, a, origin);
	else
		fprintf(out, "  no window: %s\n", a->problem);
	text_steps(out, a, o);
	report_whatif_text(out, a, o);
	text_layers(out, a, o, ascii);
	if (a->ntop > 0) {
		fputs("  top kernels:\n", out);
		for (size_t i = 0; i < a->ntop && i < 5; i++) {
			fprintf(out, "    %10s %6" PRIu64 "x %-7s ",
			    dur(b1, sizeof b1, a->top[i].total_ns), a->top[i].count,
			    trace_class_name(a->top[i].cls));
			/* the row within the fold's width: 31 columns before the name */
			emit_text_name(out, trace_str(t, a->top[i].name), FOLD_WIDTH - 31,
			    ascii);
			fputs("\n", out);
		}
	}
	text_comm_classes(out, t);
	report_diag_text(out, a, x, part, origin);
	text_tracks(out, a, ascii);
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
text_cross_rank(FILE *out, const struct crossrank *x, int ascii)
{
	char b1[32], b2[32], b3[32];

	fprintf(out, "cross-rank: %zu participants, %zu collectives matched",
	    x->nparts, x->ncolls);
	fputs("\n  duplicate ranks: ", out);
	text_rank_problems(out, x, 1);
	fputs("; missing ranks: ", out);
	text_rank_problems(out, x, 0);
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
	if (x->busbw_gbps >= 0) {
		int32_t lo = -1, hi = -1;
		size_t measured = 0;

		fprintf(out, "  bus bandwidth of collectives >= %d MiB, from the last "
		    "arrival: median %.1f GB/s", (int)(CROSSRANK_BW_MIN_BYTES >> 20),
		    x->busbw_gbps);
		if (x->expected_gbps >= 0)
			fprintf(out, " (the link gives %.0f GB/s)", x->expected_gbps);
		for (size_t p = 0; p < x->nparts; p++) {
			if (x->parts[p].bw_count == 0)
				continue;
			measured++;
			if (lo < 0 || x->parts[p].busbw_gbps < x->parts[lo].busbw_gbps)
				lo = (int32_t)p;
			if (hi < 0 || x->parts[p].busbw_gbps > x->parts[hi].busbw_gbps)
				hi = (int32_t)p;
		}
		/* a slowest and a fastest only when they differ, as printed */
		if (measured == 1) {
			fputs("; measured on ", out);
			text_part(out, x, lo);
			fputs(" only", out);
		} else if (lo >= 0 &&
		    x->parts[hi].busbw_gbps - x->parts[lo].busbw_gbps >= 0.05) {
			fputs("; slowest ", out);
			text_part(out, x, lo);
			fprintf(out, " %.1f, fastest ", x->parts[lo].busbw_gbps);
			text_part(out, x, hi);
			fprintf(out, " %.1f", x->parts[hi].busbw_gbps);
		} else if (lo >= 0) {
			fprintf(out, "; the same on the %zu participants measured",
			    measured);
		}
		fputs("\n", out);
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
		emit_text_name(out, crossrank_str(x, c->name), FOLD_WIDTH / 2, ascii);
		fputs(" (", out);
		emit_text_name(out, crossrank_str(x, c->group), EMIT_NAME_CHARS, ascii);
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
    const struct crossrank *x, int ascii)
{
	switch (fmt) {
	case REPORT_JSON:
		report_json_write(out, opts, trace_start_ns, a, n, x);
		break;
	case REPORT_CSV:
		write_csv(out, opts, a, n);
		report_whatif_csv(out, a, n, opts);
		break;
	case REPORT_TEXT:
		/* several participants: what they share first, then each one */
		if (x != NULL) {
			text_cross_rank(out, x, ascii);
			fprintf(out, "\nper rank: %zu entr%s, one per (rank, device)\n\n",
			    n, n == 1 ? "y" : "ies");
		}
		for (size_t i = 0; i < n; i++) {
			if (i > 0)
				fputs("\n", out);
			text_entry(out, &a[i], opts, trace_start_ns, x, i, ascii);
		}
		break;
	}
	fflush(out);
	return ferror(out) ? -1 : 0;
}

int
report_write_cross(FILE *out, enum report_format fmt,
    const struct report_set *set, const struct crossrank *x, int ascii)
{
	switch (fmt) {
	case REPORT_JSON:
		report_json_write_cross(out, set, x);
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
		fprintf(out, "%zu participants read from per-rank reports\n\n", set->n);
		text_cross_rank(out, x, ascii);
		break;
	}
	fflush(out);
	return ferror(out) ? -1 : 0;
}
