/*
 * report_whatif — --what-if as text and CSV (report_whatif.h).
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/depgraph.h"
#include "analysis/whatif.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "model/trace.h"
#include "report/emit.h"
#include "report/report_whatif.h"

/* The steps of a in o's window: a flag per step (free it). */
static unsigned char *
in_window(const struct analysis *a, const struct analysis_opts *o)
{
	unsigned char *in = xcalloc(a->nsteps + 1, 1);

	for (size_t s = 0; s < a->nsteps; s++)
		in[s] = (unsigned char)analysis_in_window(a, o, a->steps[s].start_ns,
		    a->steps[s].end_ns);
	return in;
}

static const char *
step_label(const struct analysis *a, size_t s)
{
	const char *name = trace_str(a->t, a->t->events[a->steps[s].event].name);

	return strncmp(name, "Profiler", 8) == 0 ? name + 8 : name;
}

void
report_whatif_text(FILE *out, const struct analysis *a,
    const struct analysis_opts *o)
{
	long p = whatif_part(o->replays, a);
	unsigned char *in;
	int any = 0;
	size_t nin;
	struct whatif_step tot;
	char b[DG_PARTS + 2][32], line[192];

	if (p < 0)
		return;
	in = in_window(a, o);
	for (size_t s = 0; s < a->nsteps; s++) {
		struct dg_path path;
		struct whatif_step ws;

		if (!in[s] || depgraph_path(&o->replays->g, (size_t)p, s, &path) != 0)
			continue;
		if (whatif_step(o->replays, (size_t)p, s, 0, &ws) != 0) {
			depgraph_path_free(&path);
			continue;
		}
		if (!any)
			fputs("  critical path:     time   compute      comm      host"
			    "      sync      idle    replay\n", out);
		any = 1;
		units_format(b[0], sizeof b[0], path.ns);
		for (int k = 0; k < DG_PARTS; k++)
			units_format(b[k + 1], sizeof b[k + 1], path.part_ns[k]);
		units_format(b[DG_PARTS + 1], sizeof b[0], ws.replayed_ns);
		fprintf(out, "    %-10s %10s", step_label(a, s), b[0]);
		for (int k = 1; k < DG_PARTS + 2; k++)
			fprintf(out, " %9s", b[k]);
		fputs("\n", out);
		depgraph_path_free(&path);
	}
	nin = o->nwhatif > 0 ? whatif_total(o->replays, (size_t)p, 0, in, &tot) : 0;
	if (nin > 0) {
		units_format(b[0], sizeof b[0], tot.replayed_ns);
		fprintf(out, "  what-if over %zu step%s (the change against the replay,"
		    " %s):\n", nin, nin == 1 ? "" : "s", b[0]);
	}
	for (size_t k = 0; nin > 0 && k < o->nwhatif; k++) {
		whatif_total(o->replays, (size_t)p, k, in, &tot);
		fputs("    ", out);
		emit_text_str(out, whatif_gain_format(line, sizeof line,
		    o->whatif[k].text, &tot));
		fputs("\n", out);
	}
	free(in);
}

void
report_whatif_csv(FILE *out, const struct analysis *a, size_t n,
    const struct analysis_opts *o)
{
	if (o->replays == NULL)
		return;
	fputs("\nrank,device,number,ns,compute_ns,comm_ns,host_ns,sync_ns,"
	    "idle_ns,replayed_ns\n", out);
	for (size_t r = 0; r < n; r++) {
		long p = whatif_part(o->replays, &a[r]);

		for (size_t s = 0; p >= 0 && s < a[r].nsteps; s++) {
			struct dg_path path;
			struct whatif_step ws;

			if (!analysis_in_window(&a[r], o, a[r].steps[s].start_ns,
			    a[r].steps[s].end_ns) ||
			    whatif_step(o->replays, (size_t)p, s, 0, &ws) != 0 ||
			    depgraph_path(&o->replays->g, (size_t)p, s, &path) != 0)
				continue;
			fprintf(out, "%" PRId64 ",%d,%" PRId64 ",%" PRId64, a[r].t->rank,
			    a[r].device, a[r].steps[s].number, path.ns);
			for (int k = 0; k < DG_PARTS; k++)
				fprintf(out, ",%" PRId64, path.part_ns[k]);
			fprintf(out, ",%" PRId64 "\n", ws.replayed_ns);
			depgraph_path_free(&path);
		}
	}
	fputs("\nrank,device,scenario,number,measured_ns,replayed_ns,"
	    "predicted_ns\n", out);
	for (size_t r = 0; r < n; r++) {
		long p = whatif_part(o->replays, &a[r]);

		for (size_t k = 0; p >= 0 && k < o->nwhatif; k++)
			for (size_t s = 0; s < a[r].nsteps; s++) {
				struct whatif_step ws;

				if (!analysis_in_window(&a[r], o, a[r].steps[s].start_ns,
				    a[r].steps[s].end_ns) ||
				    whatif_step(o->replays, (size_t)p, s, k, &ws) != 0)
					continue;
				fprintf(out, "%" PRId64 ",%d,", a[r].t->rank, a[r].device);
				emit_csv_str(out, o->whatif[k].text);
				fprintf(out, ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 "\n",
				    a[r].steps[s].number, ws.measured_ns, ws.replayed_ns,
				    ws.predicted_ns);
			}
	}
}
