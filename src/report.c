#include "config.h"

#include "report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"
#include "units.h"
#include "xalloc.h"

/* Writes s as a JSON string, escaping quotes, backslashes and controls. */
static void
json_str(FILE *out, const char *s)
{
	putc('"', out);
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

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
	}
	putc('"', out);
}

/* Writes s for a terminal or log: control bytes become '?'. */
static void
text_str(FILE *out, const char *s)
{
	for (; *s != '\0'; s++)
		putc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, out);
}

struct summary {
	int64_t gpu_start_ns, gpu_end_ns;       /* default window; start > end: none */
	uint64_t activities, linked;
	int32_t device;                         /* lowest device with activity, or -1 */
	uint64_t *x_by_cat;                     /* X events (not from B/E) per category */
};

static void
summarise(const struct trace *t, struct summary *s)
{
	memset(s, 0, sizeof *s);
	s->gpu_start_ns = INT64_MAX;
	s->gpu_end_ns = INT64_MIN;
	s->device = -1;
	s->x_by_cat = xcalloc(t->ncats + 1, sizeof *s->x_by_cat);
	for (size_t i = 0; i < t->nevents; i++) {
		const struct event *e = &t->events[i];

		if (e->ph == 'X' && !(e->flags & EVF_FROM_BE))
			s->x_by_cat[e->cat]++;
		if (!(e->flags & EVF_ACTIVITY))
			continue;
		s->activities++;
		if (e->link != EV_NONE)
			s->linked++;
		if (e->ts_ns < s->gpu_start_ns)
			s->gpu_start_ns = e->ts_ns;
		if (event_end(e) > s->gpu_end_ns)
			s->gpu_end_ns = event_end(e);
		if (s->device < 0 || trace_event_device(t, e) < s->device)
			s->device = trace_event_device(t, e);
	}
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
json_rank(FILE *out, const struct trace *t)
{
	struct summary s;
	int first;

	summarise(t, &s);
	fprintf(out, "    {\n      \"rank\": %" PRId64 ", \"rank_source\": ", t->rank);
	json_str(out, t->rank_source);
	fputs(", \"device\": ", out);
	if (s.device >= 0)
		fprintf(out, "%d", s.device);
	else
		fputs("null", out);
	fputs(", \"path\": ", out);
	json_str(out, t->path);
	fprintf(out, ",\n      \"format\": \"%s\", \"events\": %" PRIu64,
	    t->legacy_array ? "array" : "object", t->objects);
	fputs(", \"world_size\": ", out);
	if (t->world_size >= 0)
		fprintf(out, "%" PRId64, t->world_size);
	else
		fputs("null", out);
	fputs(",\n      \"warnings\": {", out);
	first = 1;
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
	if (t->nevents > 0)
		fprintf(out, "{\"start_ns\": %" PRId64 ", \"end_ns\": %" PRId64 "}",
		    t->start_ns, t->end_ns);
	else
		fputs("null", out);
	fputs(",\n      \"window\": ", out);
	if (s.activities > 0)
		fprintf(out, "{\"start_ns\": %" PRId64 ", \"end_ns\": %" PRId64 "}",
		    s.gpu_start_ns, s.gpu_end_ns);
	else
		fputs("null", out);
	fprintf(out, ",\n      \"gpu_activities\": %" PRIu64
	    ", \"linked_activities\": %" PRIu64 ", \"flows\": %zu",
	    s.activities, s.linked, t->nflows);
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
		if (s.x_by_cat[c] == 0)
			continue;
		fputs(first ? "" : ", ", out);
		json_str(out, trace_str(t, t->cats[c]));
		fprintf(out, ": %" PRIu64, s.x_by_cat[c]);
		first = 0;
	}
	fputs("},\n      \"tracks\": [", out);
	for (size_t i = 0; i < t->ntracks; i++) {
		const struct track *tr = &t->tracks[i];

		fprintf(out, "%s\n        {\"pid\": ", i ? "," : "");
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
	fputs("\n      ]\n    }", out);
	free(s.x_by_cat);
}

static int64_t
earliest(struct trace *const *traces, size_t n)
{
	int64_t start = 0;
	int any = 0;

	for (size_t i = 0; i < n; i++) {
		if (traces[i]->nevents == 0)
			continue;
		if (!any || traces[i]->start_ns < start)
			start = traces[i]->start_ns;
		any = 1;
	}
	return start;
}

static void
write_json(FILE *out, struct trace *const *traces, size_t n)
{
	fprintf(out, "{\n  \"version\": \"%s\",\n  \"trace_start_ns\": %" PRId64
	    ",\n  \"window\": null,\n  \"ranks\": [\n", PACKAGE_VERSION,
	    earliest(traces, n));
	for (size_t i = 0; i < n; i++) {
		json_rank(out, traces[i]);
		fputs(i + 1 < n ? ",\n" : "\n", out);
	}
	fputs("  ]\n}\n", out);
}

static void
write_text_rank(FILE *out, const struct trace *t)
{
	struct summary s;
	char a[32], b[32];

	summarise(t, &s);
	text_str(out, t->path);
	fprintf(out, "\n  rank %" PRId64 " (from %s)", t->rank, t->rank_source);
	if (t->world_size >= 0)
		fprintf(out, " of %" PRId64, t->world_size);
	if (t->ndevices > 0) {
		fputs(", ", out);
		text_str(out, trace_str(t, t->devices[0].name));
	}
	fprintf(out, "\n  %" PRIu64 " events, %zu tracks, %" PRIu64
	    " GPU activities (%" PRIu64 " linked to their launch)\n",
	    t->objects, t->ntracks, s.activities, s.linked);
	if (t->nevents > 0)
		fprintf(out, "  span %s", units_format(a, sizeof a, t->end_ns - t->start_ns));
	if (s.activities > 0)
		fprintf(out, ", GPU window %s from +%s",
		    units_format(a, sizeof a, s.gpu_end_ns - s.gpu_start_ns),
		    units_format(b, sizeof b, s.gpu_start_ns - t->start_ns));
	if (t->nevents > 0)
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
	fputs("  tracks:\n", out);
	for (size_t i = 0; i < t->ntracks; i++) {
		const struct track *tr = &t->tracks[i];
		char pid[64], tid[64];

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
	free(s.x_by_cat);
}

int
report_write(FILE *out, enum report_format fmt, struct trace *const *traces,
    size_t n)
{
	if (fmt == REPORT_JSON) {
		write_json(out, traces, n);
	} else {
		for (size_t i = 0; i < n; i++) {
			if (i > 0)
				fputs("\n", out);
			write_text_rank(out, traces[i]);
		}
	}
	fflush(out);
	return ferror(out) ? -1 : 0;
}
