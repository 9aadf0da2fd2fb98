/*
 * loadcmp — loads each trace three ways and compares the models.
 *
 *   loadcmp FILE...
 *
 * The reference is every event through json-c in one thread
 * (GANTTY_JSONC_ONLY=1 GANTTY_LOAD_THREADS=1); it is compared with jscan in
 * one, two and three threads (gzip's inflater thread), read through a pipe
 * (gzip: the inflater and the taker threads), and in chunks (plain and
 * gzip).  The models (strings in id
 * order, events, args, flows, tracks, categories, header, warnings, the stop
 * reason) or the load errors must be identical.  Prints each difference;
 * exits 1 if there is one.  For tests/fastload.sh.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "load/load.h"
#include "model/trace.h"

static int bad;

static void
differ(const char *path, const char *mode, const char *what, size_t i)
{
	fprintf(stderr, "loadcmp: %s: %s differs from json-c: %s [%zu]\n", path,
	    mode, what, i);
	bad = 1;
}

#define SAME(field, what, i) do { \
		if ((a->field) != (b->field)) { \
			differ(path, mode, what, i); \
			return; \
		} \
	} while (0)

static void
compare(const char *path, const char *mode, const struct trace *a,
    const struct trace *b)
{
	SAME(strs.count, "string count", 0);
	for (uint32_t i = 0; i < a->strs.count; i++)
		if (strtab_len(&a->strs, i) != strtab_len(&b->strs, i) ||
		    memcmp(trace_str(a, i), trace_str(b, i), strtab_len(&a->strs, i)) != 0)
			return differ(path, mode, "string", i);
	SAME(nevents, "event count", 0);
	if (a->nevents > 0 && memcmp(a->events, b->events, a->nevents * sizeof *a->events) != 0)
		return differ(path, mode, "events", 0);
	if (a->nevents > 0 && memcmp(a->args, b->args, a->nevents * sizeof *a->args) != 0)
		return differ(path, mode, "args", 0);
	SAME(nwide, "wide args count", 0);
	if (a->nwide > 0 && memcmp(a->wide, b->wide, a->nwide * sizeof *a->wide) != 0)
		return differ(path, mode, "wide args", 0);
	SAME(nnums, "nums count", 0);
	if (a->nnums > 0 && memcmp(a->nums, b->nums, a->nnums * sizeof *a->nums) != 0)
		return differ(path, mode, "nums", 0);
	SAME(nseqs, "seqs count", 0);
	if (a->nseqs > 0 && memcmp(a->seqs, b->seqs, a->nseqs * sizeof *a->seqs) != 0)
		return differ(path, mode, "seqs", 0);
	SAME(npairs, "pairs count", 0);
	if (a->npairs > 0 && memcmp(a->pairs, b->pairs, a->npairs * sizeof *a->pairs) != 0)
		return differ(path, mode, "pairs", 0);
	SAME(ncomms, "comm count", 0);
	if (a->ncomms > 0 && memcmp(a->comms, b->comms, a->ncomms * sizeof *a->comms) != 0)
		return differ(path, mode, "comms", 0);
	SAME(nflows, "flow count", 0);
	SAME(flow_count, "flows read", 0);
	for (size_t i = 0; i < a->nflows; i++) {
		SAME(flows[i].id, "flow id", i);
		SAME(flows[i].ts_ns, "flow ts", i);
		SAME(flows[i].track, "flow track", i);
		SAME(flows[i].cat, "flow cat", i);
		SAME(flows[i].ph, "flow ph", i);
		SAME(flows[i].enclosing, "flow bp", i);
	}
	SAME(ntracks, "track count", 0);
	for (size_t i = 0; i < a->ntracks; i++) {
		SAME(tracks[i].pid, "track pid", i);
		SAME(tracks[i].tid, "track tid", i);
		SAME(tracks[i].pid_str, "track pid text", i);
		SAME(tracks[i].tid_str, "track tid text", i);
		SAME(tracks[i].name, "track name", i);
		SAME(tracks[i].process_name, "track process name", i);
		SAME(tracks[i].sort_index, "track sort index", i);
		SAME(tracks[i].process_sort_index, "track process sort index", i);
		SAME(tracks[i].kind, "track kind", i);
		SAME(tracks[i].device, "track device", i);
		SAME(tracks[i].first, "track first", i);
		SAME(tracks[i].count, "track count", i);
		SAME(tracks[i].activity, "track activity", i);
		SAME(tracks[i].rows, "track rows", i);
	}
	SAME(ncats, "category count", 0);
	for (size_t i = 0; i < a->ncats; i++) {
		SAME(cats[i], "category", i);
		SAME(cat_kinds[i], "category kind", i);
	}
	SAME(ndevices, "device count", 0);
	for (size_t i = 0; i < a->ndevices; i++) {
		SAME(devices[i].id, "device id", i);
		SAME(devices[i].name, "device name", i);
		SAME(devices[i].num_sms, "device SMs", i);
		SAME(devices[i].total_mem, "device memory", i);
	}
	SAME(has_distributed, "distributedInfo", 0);
	SAME(dist_rank, "rank", 0);
	SAME(world_size, "world size", 0);
	SAME(dist_backend, "backend", 0);
	SAME(base_time_ns, "base time", 0);
	SAME(legacy_array, "legacy array", 0);
	SAME(objects, "objects", 0);
	SAME(start_ns, "start", 0);
	SAME(end_ns, "end", 0);
#define X(f, k, t) SAME(warn.f, "warning " k, 0);
	TRACE_WARNINGS(X)
#undef X
	if ((a->stop_reason == NULL) != (b->stop_reason == NULL) ||
	    (a->stop_reason != NULL && strcmp(a->stop_reason, b->stop_reason) != 0))
		differ(path, mode, "stop reason", 0);
	SAME(events_cut, "events cut", 0);
	SAME(nsrc, "source blocks", 0);
	if (a->nsrc == b->nsrc && a->nsrc > 0 &&
	    memcmp(a->src, b->src, a->nsrc * sizeof *a->src) != 0)
		differ(path, mode, "source blocks", 0);
}

/* Opens a pipe that a child process fills with path's bytes; -1 if not. */
static int
pipe_from(const char *path, pid_t *child)
{
	int p[2];

	if (pipe(p) != 0)
		return -1;
	if ((*child = fork()) == 0) {
		int fd = open(path, O_RDONLY);
		char buf[65536];
		ssize_t n;

		close(p[0]);
		while (fd >= 0 && (n = read(fd, buf, sizeof buf)) > 0)
			if (write(p[1], buf, (size_t)n) != n)
				break;
		_exit(0);
	}
	close(p[1]);
	if (*child < 0) {
		close(p[0]);
		return -1;
	}
	return p[0];
}

static void
load_with(const char *path, const char *jsonc_only, const char *threads,
    const char *split_min, int piped, struct trace *t, struct load_error *err,
    int *rc)
{
	setenv("GANTTY_JSONC_ONLY", jsonc_only, 1);
	setenv("GANTTY_LOAD_THREADS", threads, 1);
	if (split_min != NULL)
		setenv("GANTTY_SPLIT_MIN", split_min, 1);
	else
		unsetenv("GANTTY_SPLIT_MIN");
	if (piped) {
		pid_t child;
		int fd = pipe_from(path, &child);

		if (fd < 0) {
			perror("loadcmp: pipe");
			exit(2);
		}
		*rc = load_trace_fd(t, fd, path, NULL, err);
		waitpid(child, NULL, 0);
		return;
	}
	*rc = load_trace(t, path, NULL, err);
}

int
main(int argc, char **argv)
{
	/* "chunks": every plain file is read in that many chunks at once */
	static const struct {
		const char *name, *jsonc_only, *threads, *split_min;
		int piped;      /* through a pipe: no chunks; gzip: the taker */
	} modes[] = { { "jscan, 1 thread", "0", "1", NULL, 0 },
		{ "jscan, 2 threads", "0", "2", NULL, 0 },
		{ "jscan, 3 threads", "0", "3", NULL, 0 },
		{ "jscan, 2 threads, a pipe", "0", "2", "1", 1 },
		{ "jscan, 3 threads, a pipe", "0", "3", "1", 1 },
		{ "jscan, 2 chunks", "0", "2", "1", 0 },
		{ "json-c, 2 chunks", "1", "2", "1", 0 },
		{ "jscan, 3 chunks", "0", "3", "1", 0 },
		{ "json-c, 3 chunks", "1", "3", "1", 0 },
		{ "jscan, 8 chunks", "0", "8", "1", 0 },
		{ "jscan, 16 chunks", "0", "16", "1", 0 } };

	/*
	 * LOADCMP_CHUNKS=1: every file must be read in two chunks or more in
	 * the chunk modes; =all: in as many as the mode has threads (the test
	 * of the merge must not pass by not merging)
	 */
	const char *e = getenv("LOADCMP_CHUNKS");
	int expect_chunks = e != NULL && strcmp(e, "1") == 0 ? 1 :
	    e != NULL && strcmp(e, "all") == 0 ? 2 : 0;

	for (int i = 1; i < argc; i++) {
		struct trace ref, t;
		struct load_error ref_err, err;
		int ref_rc, rc;

		struct stat st;
		int regular = stat(argv[i], &st) == 0 && S_ISREG(st.st_mode);

		load_with(argv[i], "1", "1", NULL, 0, &ref, &ref_err, &ref_rc);
		for (size_t m = 0; m < sizeof modes / sizeof *modes; m++) {
			if (modes[m].piped && !regular)
				continue;
			load_with(argv[i], modes[m].jsonc_only, modes[m].threads,
			    modes[m].split_min, modes[m].piped, &t, &err, &rc);
			if (rc != ref_rc || strcmp(err.msg, ref_err.msg) != 0 ||
			    err.not_trace != ref_err.not_trace) {
				fprintf(stderr, "loadcmp: %s: %s: load gives %d '%s', "
				    "json-c %d '%s'\n", argv[i], modes[m].name, rc,
				    err.msg, ref_rc, ref_err.msg);
				bad = 1;
			} else if (rc == 0) {
				compare(argv[i], modes[m].name, &ref, &t);
				int want = expect_chunks == 2 ? atoi(modes[m].threads) : 2;

				if (modes[m].split_min != NULL && !modes[m].piped &&
				    expect_chunks &&
				    (expect_chunks == 2 ? err.chunks != want :
				    err.chunks < want)) {
					fprintf(stderr, "loadcmp: %s: %s: read in %d "
					    "chunks, not %s%d\n", argv[i], modes[m].name,
					    err.chunks, expect_chunks == 2 ? "" : "at least ",
					    want);
					bad = 1;
				}
			}
			if (rc == 0)
				trace_free(&t);
		}
		if (ref_rc == 0)
			trace_free(&ref);
	}
	return bad;
}
