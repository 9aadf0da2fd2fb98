#include "config.h"

#include "report/report_json.h"

#include "analysis/analysis.h"
#include "analysis/bandwidth.h"
#include "analysis/layers.h"
#include "analysis/crossrank.h"
#include "analysis/whatif.h"
#include "report/json.h"
#include "report/listing.h"
#include "report/report_set.h"
#include "report/report_diag.h"
#include "model/comm.h"
#include "model/trace.h"

/* {"start_ns": s, "end_ns": e}, or null without one. */
static void
json_interval(struct json *j, int has, int64_t s, int64_t e)
{
	if (!has) {
		json_null(j);
		return;
	}
	json_begin_object(j, JSON_INLINE);
	json_key(j, "start_ns");
	json_int(j, s);
	json_key(j, "end_ns");
	json_int(j, e);
	json_end(j);
}

/* A pid or tid: the trace's string if it had one, else its number. */
static void
json_id(struct json *j, const struct trace *t, int64_t id, uint32_t str)
{
	if (str != 0)
		json_str(j, trace_str(t, str));
	else
		json_int(j, id);
}

/* {"start_ns", "dur_ns"} of a gap. */
static void
json_gap(struct json *j, const struct gap *g)
{
	json_begin_object(j, JSON_INLINE);
	json_key(j, "start_ns");
	json_int(j, g->start_ns);
	json_key(j, "dur_ns");
	json_int(j, g->dur_ns);
	json_end(j);
}

/* What loading the trace met and counted: members of the rank entry. */
static void
json_loaded(struct json *j, const struct trace *t)
{
	json_key(j, "warnings");
	json_begin_object(j, JSON_INLINE);
#define X(f, k, txt) \
	json_key(j, k); \
	json_uint(j, t->warn.f);
	TRACE_WARNINGS(X)
#undef X
	json_end(j);
	json_key(j, "stopped");
	if (t->stop_reason != NULL)
		json_str(j, t->stop_reason);
	else
		json_null(j);
	json_key(j, "time_range");
	json_interval(j, t->nevents > 0, t->start_ns, t->end_ns);
	json_key(j, "gpu_activities");
	json_uint(j, t->nactivities);
	json_sameline(j);
	json_key(j, "linked_activities");
	json_uint(j, t->nlinked);
	json_sameline(j);
	json_key(j, "flows");
	json_uint(j, t->flow_count);
	json_key(j, "device_properties");
	json_begin_array(j, JSON_INLINE);
	for (size_t i = 0; i < t->ndevices; i++) {
		json_begin_object(j, JSON_INLINE);
		json_key(j, "id");
		json_int(j, t->devices[i].id);
		json_key(j, "name");
		json_str(j, trace_str(t, t->devices[i].name));
		json_end(j);
	}
	json_end(j);
	json_key(j, "categories");
	json_begin_object(j, JSON_INLINE);
	for (size_t c = 0; c < t->ncats; c++) {
		if (t->cat_slices[c] == 0)
			continue;
		json_key(j, trace_str(t, t->cats[c]));
		json_uint(j, t->cat_slices[c]);
	}
	json_end(j);
}

static void
json_tracks(struct json *j, const struct analysis *a)
{
	const struct trace *t = a->t;

	json_key(j, "tracks");
	json_begin_array(j, JSON_BLOCK);
	for (size_t i = 0; i < t->ntracks; i++) {
		const struct track *tr = &t->tracks[i];

		if (!listing_track(a, tr))
			continue;
		json_begin_object(j, JSON_INLINE);
		json_key(j, "pid");
		json_id(j, t, tr->pid, tr->pid_str);
		json_key(j, "tid");
		json_id(j, t, tr->tid, tr->tid_str);
		json_key(j, "kind");
		json_str(j, trace_kind_name(tr->kind));
		json_key(j, "name");
		json_str(j, trace_str(t, tr->name));
		json_key(j, "events");
		json_uint(j, tr->count);
		json_key(j, "rows");
		json_uint(j, tr->rows);
		if (tr->kind == TRACK_GPU) {
			json_key(j, "device");
			json_int(j, tr->device);
			json_key(j, "activities");
			json_uint(j, tr->activity);
		}
		json_end(j);
	}
	json_newline(j);        /* closes on its own line, even when empty */
	json_end(j);
}

static void
json_metrics(struct json *j, const struct analysis *a)
{
	const struct window_metrics *m = &a->m;

	if (!a->has_window) {
		json_key(j, "gpu");
		json_null(j);
		json_sameline(j);
		json_key(j, "idle_breakdown");
		json_null(j);
		json_sameline(j);
		json_key(j, "gaps");
		json_null(j);
		return;
	}
	json_key(j, "gpu");
	json_begin_object(j, JSON_INLINE);
	json_key(j, "busy_ns");
	json_int(j, m->busy_ns);
	json_key(j, "idle_ns");
	json_int(j, m->idle_ns);
	json_key(j, "compute_ns");
	json_int(j, m->compute_ns);
	json_key(j, "comm_ns");
	json_int(j, m->comm_ns);
	json_key(j, "memory_ns");
	json_int(j, m->memory_ns);
	json_key(j, "overlap_ns");
	json_int(j, m->overlap_ns);
	json_key(j, "exposed_comm_ns");
	json_int(j, m->exposed_comm_ns);
	json_key(j, "overlap_pct");
	if (m->overlap_pct >= 0)
		json_double(j, "%.3f", m->overlap_pct);
	else
		json_null(j);
	json_end(j);
	json_key(j, "idle_breakdown");
	json_begin_object(j, JSON_INLINE);
	json_key(j, "host_wait_ns");
	json_int(j, m->idle_by_kind_ns[IDLE_HOST_WAIT]);
	json_key(j, "kernel_wait_ns");
	json_int(j, m->idle_by_kind_ns[IDLE_KERNEL_WAIT]);
	json_key(j, "other_ns");
	json_int(j, m->idle_by_kind_ns[IDLE_OTHER]);
	json_end(j);
	json_key(j, "gaps");
	json_begin_object(j, JSON_INLINE);
	json_key(j, "min_gap_ns");
	json_int(j, a->dev.min_gap_ns);
	json_key(j, "count");
	json_uint(j, m->gap_count);
	json_key(j, "total_ns");
	json_int(j, m->gap_total_ns);
	json_key(j, "largest");
	if (m->ntop > 0)
		json_gap(j, &m->top[0]);
	else
		json_null(j);
	json_key(j, "top");
	json_begin_array(j, JSON_INLINE);
	for (size_t i = 0; i < m->ntop; i++)
		json_gap(j, &m->top[i]);
	json_end(j);
	json_end(j);
}

static void
json_mfu(struct json *j, const struct analysis *a)
{
	const struct mfu_result *r = &a->mfu;

	json_key(j, "mfu");
	json_begin_object(j, JSON_INLINE);
	json_key(j, "value");
	if (a->has_window && r->has_value)
		json_double(j, "%.4f", r->value);
	else
		json_null(j);
	json_key(j, "source");
	if (a->has_window && r->source != NULL)
		json_str(j, r->source);
	else
		json_null(j);
	json_key(j, "peak_tflops");
	if (a->has_window && r->has_peak)
		json_double(j, "%.6g", r->peak_tflops);
	else
		json_null(j);
	json_key(j, "achieved_tflops");
	if (a->has_window && r->has_achieved)
		json_double(j, "%.3f", r->achieved_tflops);
	else
		json_null(j);
	json_key(j, "reason");
	if (!a->has_window)
		json_str(j, a->problem);
	else if (!r->has_value)
		json_str(j, r->reason);
	else
		json_null(j);
	json_end(j);
}

/* "critical_path" of step s of part p (whatif.h, depgraph.h). */
static void
json_critical_path(struct json *j, const struct whatif *w, size_t p, size_t s)
{
	struct dg_path path;
	struct whatif_step ws;

	json_key(j, "critical_path");
	if (depgraph_path(&w->g, p, s, &path) != 0 || whatif_step(w, p, s, 0, &ws) != 0) {
		json_null(j);
		return;
	}
	json_begin_object(j, JSON_INLINE);
	json_key(j, "ns");
	json_int(j, path.ns);
	for (int k = 0; k < DG_PARTS; k++) {
		char key[16];

		snprintf(key, sizeof key, "%s_ns", depgraph_part_name((enum dg_part)k));
		json_key(j, key);
		json_int(j, path.part_ns[k]);
	}
	json_key(j, "replayed_ns");
	json_int(j, ws.replayed_ns);
	json_key(j, "segments");
	json_begin_array(j, JSON_INLINE);
	for (size_t i = 0; i < path.nseg; i++) {
		const struct dg_segment *g = &path.seg[i];

		json_begin_object(j, JSON_INLINE);
		json_key(j, "name");
		json_str(j, depgraph_node_name(&w->g, g->node));
		json_key(j, "kind");
		json_str(j, depgraph_part_name((enum dg_part)g->part));
		json_key(j, "rank");
		json_int(j, w->g.an[w->g.nodes[g->node].part].t->rank);
		json_key(j, "start_ns");
		json_int(j, g->start_ns);
		json_key(j, "dur_ns");
		json_int(j, g->dur_ns);
		json_end(j);
	}
	json_end(j);
	json_end(j);
	depgraph_path_free(&path);
}

/* One {measured_ns, replayed_ns, predicted_ns} object. */
static void
json_whatif_times(struct json *j, const struct whatif_step *ws)
{
	json_key(j, "measured_ns");
	json_int(j, ws->measured_ns);
	json_key(j, "replayed_ns");
	json_int(j, ws->replayed_ns);
	json_key(j, "predicted_ns");
	json_int(j, ws->predicted_ns);
}

/* "what_if": each scenario's step times (--what-if). */
static void
json_what_if(struct json *j, const struct analysis *a, const struct analysis_opts *o)
{
	long p = whatif_part(o->replays, a);

	if (p < 0)
		return;
	json_key(j, "what_if");
	json_begin_array(j, JSON_BLOCK);
	for (size_t k = 0; k < o->nwhatif; k++) {
		struct whatif_step tot = { 0, 0, 0 };

		json_begin_object(j, JSON_BLOCK);
		json_key(j, "scenario");
		json_str(j, o->whatif[k].text);
		json_key(j, "steps");
		json_begin_array(j, JSON_BLOCK);
		for (size_t s = 0; s < a->nsteps; s++) {
			struct whatif_step ws;

			if (!analysis_in_window(a, o, a->steps[s].start_ns, a->steps[s].end_ns) ||
			    whatif_step(o->replays, (size_t)p, s, k, &ws) != 0)
				continue;
			tot.measured_ns += ws.measured_ns;
			tot.replayed_ns += ws.replayed_ns;
			tot.predicted_ns += ws.predicted_ns;
			json_begin_object(j, JSON_INLINE);
			json_key(j, "number");
			json_int(j, a->steps[s].number);
			json_whatif_times(j, &ws);
			json_end(j);
		}
		json_end(j);
		json_key(j, "total");
		json_begin_object(j, JSON_INLINE);
		json_whatif_times(j, &tot);
		json_end(j);
		json_end(j);
	}
	json_end(j);
}

static void
json_steps(struct json *j, const struct analysis *a, const struct analysis_opts *o)
{
	long part = whatif_part(o->replays, a);

	const struct trace *t = a->t;

	json_key(j, "steps");
	json_begin_array(j, JSON_BLOCK);
	for (size_t i = 0; i < a->nsteps; i++) {
		const struct step *s = &a->steps[i];
		struct window_metrics m;

		if (!analysis_in_window(a, o, s->start_ns, s->end_ns))
			continue;
		if (s->has_gpu)
			metrics_window_sums(&a->dev, s->gpu_start_ns, s->gpu_end_ns, &m);
		json_begin_object(j, JSON_INLINE);
		json_key(j, "name");
		json_str(j, trace_str(t, t->events[s->event].name));
		json_key(j, "number");
		json_int(j, s->number);
		json_key(j, "start_ns");
		json_int(j, s->start_ns);
		json_key(j, "end_ns");
		json_int(j, s->end_ns);
		json_key(j, "gpu_start_ns");
		json_int_or_null(j, s->has_gpu, s->gpu_start_ns);
		json_key(j, "gpu_end_ns");
		json_int_or_null(j, s->has_gpu, s->gpu_end_ns);
		json_key(j, "exposed_comm_ns");
		json_int_or_null(j, s->has_gpu, s->has_gpu ? m.exposed_comm_ns : 0);
		json_key(j, "idle_ns");
		json_int_or_null(j, s->has_gpu, s->has_gpu ? m.idle_ns : 0);
		json_key(j, "z");
		json_double(j, "%.3f", s->z);
		json_key(j, "outlier");
		json_boolean(j, s->outlier);
		json_key(j, "incomplete");
		json_boolean(j, s->incomplete);
		if (part >= 0)
			json_critical_path(j, o->replays, (size_t)part, i);
		json_end(j);
	}
	json_end(j);
}

static void
json_layers(struct json *j, const struct analysis *a, const struct analysis_opts *o)
{
	const struct trace *t = a->t;

	json_key(j, "layers");
	json_begin_array(j, JSON_BLOCK);
	for (size_t i = 0; i < a->nlayers; i++) {
		const struct layer *l = &a->layers[i];

		if (!analysis_in_window(a, o, l->has_gpu ? l->gpu_start_ns : l->cpu_start_ns,
		    l->has_gpu ? l->gpu_end_ns : l->cpu_end_ns))
			continue;
		json_begin_object(j, JSON_INLINE);
		json_key(j, "name");
		json_str(j, trace_str(t, l->name));
		json_key(j, "phase");
		json_str(j, layers_phase_name(l->phase));
		json_key(j, "source");
		json_str(j, layers_source_name(l->source));
		json_key(j, "step");
		json_int_or_null(j, l->step >= 0, l->step);
		json_key(j, "cpu_start_ns");
		json_int(j, l->cpu_start_ns);
		json_key(j, "cpu_end_ns");
		json_int(j, l->cpu_end_ns);
		json_key(j, "gpu_start_ns");
		json_int_or_null(j, l->has_gpu, l->gpu_start_ns);
		json_key(j, "gpu_end_ns");
		json_int_or_null(j, l->has_gpu, l->gpu_end_ns);
		json_key(j, "compute_ns");
		json_int(j, l->compute_ns);
		json_key(j, "comm_ns");
		json_int(j, l->comm_ns);
		json_key(j, "exposed_comm_ns");
		json_int(j, l->exposed_comm_ns);
		json_key(j, "own_comm_ns");
		json_int(j, l->own_comm_ns);
		json_key(j, "own_exposed_comm_ns");
		json_int(j, l->own_exposed_comm_ns);
		json_key(j, "estimate_exposed_ns");
		json_int(j, l->estimate_exposed_ns);
		json_end(j);
	}
	json_end(j);
}

static void
json_kernels(struct json *j, const struct analysis *a)
{
	json_key(j, "kernels_top");
	json_begin_array(j, JSON_BLOCK);
	for (size_t i = 0; i < a->ntop; i++) {
		const struct kernel_total *k = &a->top[i];

		json_begin_object(j, JSON_INLINE);
		json_key(j, "name");
		json_str(j, trace_str(a->t, k->name));
		json_key(j, "class");
		json_str(j, trace_class_name(k->cls));
		json_key(j, "count");
		json_uint(j, k->count);
		json_key(j, "total_ns");
		json_int(j, k->total_ns);
		json_end(j);
	}
	json_end(j);
}

/*
 * A bandwidth v in GB/s, or null when v < 0 (unknown): three decimals, or
 * below 0.1 three significant digits, so that no measured bandwidth (a
 * 4-byte all-reduce's) prints as 0.
 */
static void
json_gbps(struct json *j, const char *key, double v)
{
	json_key(j, key);
	if (v >= 0.1 || v == 0)
		json_double(j, "%.3f", v);
	else if (v > 0)
		json_double(j, "%.3g", v);
	else
		json_null(j);
}

/* Per collective type of the window: what moved, how fast, how fast it could. */
static void
json_comm_bandwidth(struct json *j, const struct analysis *a)
{
	struct bw_row rows[COLL_NTYPES];
	size_t n = a->has_window ? bandwidth_window(&a->bw, a->start_ns,
	    a->end_ns, 0, rows) : 0;

	json_key(j, "comm_bandwidth");
	json_begin_array(j, JSON_BLOCK);
	for (size_t i = 0; i < n; i++) {
		json_begin_object(j, JSON_INLINE);
		json_key(j, "type");
		json_str(j, bandwidth_type_key(rows[i].type));
		json_key(j, "count");
		json_uint(j, rows[i].count);
		json_key(j, "bytes");
		json_int(j, rows[i].bytes);
		json_key(j, "time_ns");
		json_int(j, rows[i].time_ns);
		json_gbps(j, "busbw_gbps", rows[i].busbw_gbps);
		json_gbps(j, "expected_busbw_gbps", rows[i].expected_gbps);
		json_end(j);
	}
	json_end(j);
}

/* How many kernels of the trace each COMM rule took (comm.h), every rule. */
static void
json_comm_classes(struct json *j, const struct trace *t)
{
	json_key(j, "comm_classes");
	json_begin_object(j, JSON_INLINE);
	for (int r = COMM_RULE_NONE + 1; r < COMM_NRULES; r++) {
		json_key(j, comm_rule_key((enum comm_rule)r));
		json_uint(j, t->comm_rules[r]);
	}
	json_end(j);
}

/*
 * Every COMM activity of the device with its matching key (crossrank.h),
 * whatever the window: what gantty --reports needs to match collectives
 * across ranks without the traces.
 */
static void
json_collectives(struct json *j, const struct analysis *a)
{
	struct crossrank_in in;
	struct coll_bw b;

	crossrank_in_from_analysis(&in, a);
	json_key(j, "collectives");
	json_begin_array(j, JSON_BLOCK);
	for (size_t i = 0; i < in.ncolls; i++) {
		const struct crossrank_coll_in *c = &in.colls[i];

		json_begin_object(j, JSON_INLINE);
		json_key(j, "name");
		json_str(j, strtab_get(&in.strs, c->name));
		json_key(j, "group");
		json_str(j, strtab_get(&in.strs, c->group));
		json_key(j, "by_stream");
		json_boolean(j, c->by_stream);
		json_key(j, "seq");
		json_int_or_null(j, c->seq >= 0, c->seq);
		json_key(j, "group_size");
		json_int_or_null(j, c->group_size >= 0, c->group_size);
		json_key(j, "start_ns");
		json_int(j, c->ts_ns);
		json_key(j, "end_ns");
		json_int(j, c->end_ns);
		bandwidth_of(&a->dev, &a->t->events[c->event], &b);
		json_key(j, "type");
		json_str(j, bandwidth_type_key(b.type));
		json_key(j, "bytes");
		json_int_or_null(j, b.bytes >= 0, b.bytes);
		json_gbps(j, "algbw_gbps", b.algbw_gbps);
		json_gbps(j, "busbw_gbps", b.busbw_gbps);
		json_gbps(j, "expected_busbw_gbps", b.expected_gbps);
		json_end(j);
	}
	json_end(j);
	crossrank_in_free(&in);
}

/* One element of "ranks": a block object, several short members a line. */
static void
json_entry(struct json *j, const struct analysis *a, const struct analysis_opts *o,
    const struct crossrank *x, size_t part)
{
	const struct trace *t = a->t;

	json_begin_object(j, JSON_BLOCK);
	json_key(j, "rank");
	json_int(j, t->rank);
	json_sameline(j);
	json_key(j, "device");
	json_int_or_null(j, a->device >= 0, a->device);
	json_sameline(j);
	json_key(j, "path");
	json_str(j, t->path);
	json_sameline(j);
	json_key(j, "rank_source");
	json_str(j, t->rank_source);
	json_key(j, "format");
	json_str(j, t->legacy_array ? "array" : "object");
	json_sameline(j);
	json_key(j, "events");
	json_uint(j, t->objects);
	json_sameline(j);
	json_key(j, "world_size");
	json_int_or_null(j, t->world_size >= 0, t->world_size);
	json_loaded(j, t);
	json_key(j, "window");
	json_interval(j, a->has_window, a->start_ns, a->end_ns);
	if (!a->has_window) {
		json_sameline(j);
		json_key(j, "problem");
		json_str(j, a->problem);
	}
	json_metrics(j, a);
	json_mfu(j, a);
	json_steps(j, a, o);
	json_what_if(j, a, o);
	json_layers(j, a, o);
	json_kernels(j, a);
	json_comm_classes(j, t);
	json_comm_bandwidth(j, a);
	report_diag_json(j, a, x, part);
	json_tracks(j, a);
	json_collectives(j, a);
	json_end(j);
}

/* {"rank", "device"} of participant p, or null (p < 0). */
static void
json_part(struct json *j, const struct crossrank *x, int32_t p)
{
	if (p < 0) {
		json_null(j);
		return;
	}
	json_begin_object(j, JSON_INLINE);
	json_key(j, "rank");
	json_int(j, x->parts[p].rank);
	json_key(j, "device");
	json_int(j, x->parts[p].device);
	json_end(j);
}

static void
json_coll(struct json *j, const struct crossrank *x, const struct crossrank_coll *c)
{
	json_begin_object(j, JSON_INLINE);
	json_key(j, "name");
	json_str(j, crossrank_str(x, c->name));
	json_key(j, "group");
	json_str(j, crossrank_str(x, c->group));
	json_key(j, "seq");
	json_int_or_null(j, c->seq >= 0, c->seq);
	json_key(j, "occurrence");
	json_int(j, c->occurrence);
	json_key(j, "members");
	json_uint(j, c->members);
	json_key(j, "start_ns");
	json_int(j, c->first_start_ns);
	json_key(j, "skew_ns");
	json_int(j, c->skew_ns);
	json_key(j, "last");
	json_part(j, x, c->last);
	json_end(j);
}

static void
put_rank(void *arg, int64_t rank)
{
	json_int(arg, rank);
}

/* The collectives of cross_rank: counts, then the worst and the unmatched. */
static void
json_cross_colls(struct json *j, const struct crossrank *x)
{
	json_key(j, "collectives");
	json_begin_object(j, JSON_INLINE);
	json_key(j, "matched");
	json_uint(j, x->ncolls);
	json_key(j, "unmatched_keys");
	json_uint(j, x->unmatched_keys);
	json_key(j, "unmatched");
	json_uint(j, x->unmatched);
	json_key(j, "total_skew_ns");
	json_int(j, x->total_skew_ns);
	json_newline(j);
	json_key(j, "worst");
	json_begin_array(j, JSON_BLOCK);
	for (size_t i = 0; i < x->ntop; i++)
		json_coll(j, x, &x->colls[x->top[i]]);
	json_end(j);
	json_newline(j);
	json_key(j, "unmatched_first");
	json_begin_array(j, JSON_BLOCK);
	for (size_t i = 0; i < x->nmiss; i++)
		json_coll(j, x, &x->miss[i]);
	json_end(j);
	json_end(j);
}

static void
json_cross_rank(struct json *j, const struct crossrank *x)
{
	json_key(j, "cross_rank");
	if (x == NULL) {
		json_null(j);
		return;
	}
	json_begin_object(j, JSON_BLOCK);
	json_key(j, "participants");
	json_begin_array(j, JSON_BLOCK);
	for (size_t p = 0; p < x->nparts; p++) {
		const struct crossrank_part *cp = &x->parts[p];

		json_begin_object(j, JSON_INLINE);
		json_key(j, "rank");
		json_int(j, cp->rank);
		json_key(j, "device");
		json_int(j, cp->device);
		json_key(j, "collectives");
		json_uint(j, cp->collectives);
		json_key(j, "unmatched");
		json_uint(j, cp->unmatched);
		json_key(j, "last_count");
		json_uint(j, cp->last_count);
		json_key(j, "others_waited_ns");
		json_int(j, cp->lost_ns);
		json_key(j, "waited_ns");
		json_int(j, cp->wait_ns);
		json_key(j, "bandwidth_collectives");
		json_uint(j, cp->bw_count);
		json_gbps(j, "busbw_gbps", cp->busbw_gbps);
		json_gbps(j, "expected_busbw_gbps", cp->expected_gbps);
		json_end(j);
	}
	json_newline(j);        /* closes on its own line, even when empty */
	json_end(j);
	json_key(j, "duplicate_ranks");
	json_begin_array(j, JSON_INLINE);
	listing_ranks(x, 1, put_rank, j);
	json_end(j);
	json_key(j, "missing_ranks");
	json_begin_array(j, JSON_INLINE);
	listing_ranks(x, 0, put_rank, j);
	json_end(j);
	json_key(j, "alignment");
	if (x->align_ns != NULL) {
		json_begin_object(j, JSON_INLINE);
		json_key(j, "mode");
		json_str(j, "collective");
		json_key(j, "offsets_ns");
		json_begin_array(j, JSON_INLINE);
		for (size_t p = 0; p < x->nparts; p++)
			json_int(j, x->align_ns[p]);
		json_end(j);
		json_key(j, "unaligned");
		json_uint(j, x->unaligned);
		json_end(j);
	} else {
		json_null(j);
	}
	json_key(j, "straggler");
	json_part(j, x, x->straggler);
	json_key(j, "steps");
	json_begin_array(j, JSON_BLOCK);
	for (size_t s = 0; s < x->nsteps; s++) {
		const struct crossrank_step *st = &x->steps[s];

		json_begin_object(j, JSON_INLINE);
		json_key(j, "number");
		json_int(j, st->number);
		json_key(j, "time_ns");
		json_begin_array(j, JSON_INLINE);
		for (size_t p = 0; p < x->nparts; p++) {
			int64_t v = crossrank_step_ns(x, s, p);

			json_int_or_null(j, v >= 0, v);
		}
		json_end(j);
		json_key(j, "slowest");
		json_part(j, x, st->slowest);
		json_key(j, "spread_ns");
		json_int(j, st->spread_ns);
		json_end(j);
	}
	json_end(j);
	json_cross_colls(j, x);
	report_diag_cross_json(j, x);
	json_end(j);
}

void
report_json_write(FILE *out, const struct analysis_opts *o, int64_t start,
    const struct analysis *a, size_t n, const struct crossrank *x)
{
	struct json j;

	json_init(&j, out);
	json_begin_object(&j, JSON_BLOCK);
	json_key(&j, "version");
	json_str(&j, PACKAGE_VERSION);
	json_key(&j, "trace_start_ns");
	json_int(&j, start);
	json_key(&j, "window");
	json_interval(&j, o->window == WINDOW_ABSOLUTE, o->start_ns, o->end_ns);
	if (o->window == WINDOW_STEP) {
		json_key(&j, "step");
		json_int(&j, o->step);
	}
	json_key(&j, "ranks");
	json_begin_array(&j, JSON_BLOCK);
	for (size_t i = 0; i < n; i++)
		json_entry(&j, &a[i], o, x, i);
	json_newline(&j);       /* closes on its own line, even when empty */
	json_end(&j);
	json_cross_rank(&j, x);
	json_end(&j);
}

void
report_json_write_cross(FILE *out, const struct report_set *set,
    const struct crossrank *x)
{
	struct json j;

	json_init(&j, out);
	json_begin_object(&j, JSON_BLOCK);
	json_key(&j, "version");
	json_str(&j, PACKAGE_VERSION);
	json_key(&j, "reports");
	json_begin_array(&j, JSON_BLOCK);
	for (size_t i = 0; i < set->n; i++) {
		const struct report_rank *r = &set->v[i];

		json_begin_object(&j, JSON_INLINE);
		json_key(&j, "rank");
		json_int(&j, r->in.rank);
		json_key(&j, "device");
		json_int_or_null(&j, r->in.device >= 0, r->in.device);
		json_key(&j, "report");
		json_str(&j, r->file);
		json_key(&j, "trace");
		json_str(&j, r->trace);
		json_key(&j, "steps");
		json_uint(&j, r->in.nsteps);
		json_key(&j, "collectives");
		json_uint(&j, r->in.ncolls);
		json_end(&j);
	}
	json_end(&j);
	json_cross_rank(&j, x);
	json_end(&j);
}
