/* The loader on small hand-written traces, good and malformed. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "load/load.h"
#include "model/trace.h"

static char path[64];

static void
write_file(const char *text, size_t len, int gzip)
{
	strcpy(path, "/tmp/gantty-test-XXXXXX");
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	if (gzip) {
		gzFile gz = gzdopen(fd, "wb1");

		cr_assert_eq(gzwrite(gz, text, (unsigned)len), (int)len);
		gzclose(gz);
	} else {
		cr_assert_eq(write(fd, text, len), (ssize_t)len);
		close(fd);
	}
}

/* Loads text; returns load_trace's status.  err is filled on failure. */
static int
load_text(struct trace *t, const char *text, struct load_error *err)
{
	int rc;

	write_file(text, strlen(text), 0);
	rc = load_trace(t, path, NULL, err);
	unlink(path);
	return rc;
}

static void
load_ok(struct trace *t, const char *text)
{
	struct load_error err;

	cr_assert_eq(load_text(t, text, &err), 0, "load failed: %s", err.msg);
}

static const struct event *
find_event(const struct trace *t, const char *name)
{
	for (size_t i = 0; i < t->nevents; i++)
		if (strcmp(trace_str(t, t->events[i].name), name) == 0)
			return &t->events[i];
	return NULL;
}

static const char small_trace[] =
    "{\n"
    " \"schemaVersion\": 1,\n"
    " \"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H100 80GB HBM3\", \"numSms\": 132}],\n"
    " \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 3, \"world_size\": 8},\n"
    " \"traceEvents\": [\n"
    "  {\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 0, \"tid\": 7, \"args\": {\"name\": \"compute\"}},\n"
    "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 10, \"tid\": 11,"
    "   \"ts\": 1692998837419.987, \"dur\": 20.5, \"args\": {\"External id\": 5, \"flops\": 1000}},\n"
    "  {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 10, \"tid\": 11,"
    "   \"ts\": 1692998837420.000, \"dur\": 5, \"args\": {\"correlation\": 77, \"External id\": 5}},\n"
    "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"sm90_gemm\", \"pid\": 0, \"tid\": 7,"
    "   \"ts\": 1692998837430.001, \"dur\": 100.25, \"args\": {\"correlation\": 77, \"device\": 0, \"stream\": 7}},\n"
    "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ncclDevKernel_AllGather_RING_LL\", \"pid\": 0, \"tid\": 22,"
    "   \"ts\": 1692998837431, \"dur\": 50, \"args\": {\"device\": 0, \"stream\": 22,"
    "   \"Collective name\": \"_allgather_base\", \"Process Group Name\": \"0\", \"Group size\": 8,"
    "   \"In msg nelems\": 1024, \"Out msg nelems\": 8192, \"dtype\": \"BFloat16\", \"Seq\": 4}},\n"
    "  {\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy HtoD\", \"pid\": 0, \"tid\": 7,"
    "   \"ts\": 1692998837600, \"dur\": 3},\n"
    "  {\"ph\": \"X\", \"cat\": \"gpu_user_annotation\", \"name\": \"ProfilerStep#1\", \"pid\": 0, \"tid\": 7,"
    "   \"ts\": 1692998837430, \"dur\": 200},\n"
    "  {\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"name\": \"[memory]\", \"pid\": 10, \"tid\": 11,"
    "   \"ts\": 1692998837425, \"s\": \"t\", \"args\": {\"Total Allocated\": 4096, \"Bytes\": 512}}\n"
    " ],\n"
    " \"baseTimeNanoseconds\": 1692998000000000000\n"
    "}\n";

Test(load, object_form_model)
{
	struct trace t;
	const struct event *mm, *launch, *gemm, *nccl, *memcpy_ev, *ann, *mem;
	const struct event_args *a;
	const struct comm_args *c;

	load_ok(&t, small_trace);
	cr_assert_eq(t.objects, 8);
	cr_assert_eq(t.nevents, 7);
	cr_assert_eq(t.dist_rank, 3);
	cr_assert_eq(t.world_size, 8);
	cr_assert_eq(t.base_time_ns, INT64_C(1692998000000000000));
	cr_assert_eq(t.ndevices, 1);
	cr_assert_str_eq(trace_str(&t, t.devices[0].name), "NVIDIA H100 80GB HBM3");
	cr_assert_eq(t.legacy_array, 0);

	mm = find_event(&t, "aten::mm");
	cr_assert_not_null(mm);
	cr_assert_eq(mm->ts_ns, INT64_C(1692998837419987));
	cr_assert_eq(mm->dur_ns, 20500);
	cr_assert_eq(mm->cls, CLASS_NONE);
	cr_assert_eq(trace_args_flops(&t, trace_args(&t, mm, &(struct event_args){0})), 1000.0);
	cr_assert_eq(trace_args(&t, mm, &(struct event_args){0})->external_id, 5);

	gemm = find_event(&t, "sm90_gemm");
	launch = find_event(&t, "cudaLaunchKernel");
	cr_assert_eq(gemm->cls, CLASS_COMPUTE);
	cr_assert(event_is_activity(gemm));
	cr_assert_eq(gemm->ts_ns, INT64_C(1692998837430001));
	cr_assert_eq(gemm->dur_ns, 100250);
	cr_assert_eq(&t.events[gemm->link], launch, "kernel links to its launch");
	cr_assert_eq(&t.events[launch->link], gemm, "launch links to its kernel");

	nccl = find_event(&t, "ncclDevKernel_AllGather_RING_LL");
	cr_assert_eq(nccl->cls, CLASS_COMM);
	cr_assert_eq(nccl->link, EV_NONE);
	a = trace_args(&t, nccl, &(struct event_args){0});
	cr_assert_eq(a->stream, 22);
	cr_assert_neq(a->comm, EV_NONE);
	c = &t.comms[a->comm];
	cr_assert_str_eq(trace_str(&t, c->collective), "_allgather_base");
	cr_assert_str_eq(trace_str(&t, c->pg_name), "0");
	cr_assert_str_eq(trace_str(&t, c->dtype), "BFloat16");
	cr_assert_eq(c->group_size, 8);
	cr_assert_eq(c->in_nelems, 1024);
	cr_assert_eq(c->out_nelems, 8192);
	cr_assert_eq(c->seq, 4);

	memcpy_ev = find_event(&t, "Memcpy HtoD");
	cr_assert_eq(memcpy_ev->cls, CLASS_MEMORY);
	ann = find_event(&t, "ProfilerStep#1");
	cr_assert_eq(ann->cls, CLASS_NONE);
	cr_assert(ann->flags & EVF_ANNOTATION);
	cr_assert_not(event_is_activity(ann));
	mem = find_event(&t, "[memory]");
	cr_assert(mem->flags & EVF_INSTANT);
	cr_assert_eq(mem->dur_ns, 0);
	cr_assert_eq(trace_args_nums(&t, trace_args(&t, mem, &(struct event_args){0})).value, 4096.0);

	/* tracks: CPU (10,11), GPU (0,7) named by M, GPU (0,22) */
	cr_assert_eq(t.ntracks, 3);
	for (size_t i = 0; i < t.ntracks; i++) {
		const struct track *tr = &t.tracks[i];

		if (tr->pid == 0 && tr->tid == 7) {
			cr_assert_eq(tr->kind, TRACK_GPU);
			cr_assert_str_eq(trace_str(&t, tr->name), "compute");
			cr_assert_eq(tr->count, 3);
			cr_assert_eq(tr->activity, 2);
			cr_assert_eq(tr->device, 0);
		} else if (tr->tid == 22) {
			cr_assert_eq(tr->kind, TRACK_GPU);
			cr_assert_str_eq(trace_str(&t, tr->name), "stream 22");
		} else {
			cr_assert_eq(tr->kind, TRACK_CPU);
			cr_assert_eq(tr->pid, 10);
			cr_assert_eq(tr->count, 3);
		}
	}
	cr_assert_eq(t.start_ns, INT64_C(1692998837419987));
	cr_assert_eq(t.end_ns, INT64_C(1692998837630000));
	cr_assert_eq(t.warn.unknown_category, 0);
	cr_assert_eq(t.warn.truncated_bytes, 0);
	trace_free(&t);
}

Test(load, gzip_by_magic_bytes_not_name)
{
	struct trace t;
	struct load_error err;

	write_file(small_trace, strlen(small_trace), 1);
	cr_assert_eq(load_trace(&t, path, NULL, &err), 0, "%s", err.msg);
	unlink(path);
	cr_assert_eq(t.objects, 8);
	cr_assert_neq(find_event(&t, "sm90_gemm"), NULL);
	trace_free(&t);
}

Test(load, legacy_bare_array)
{
	struct trace t;
	const struct event *k, *m;

	load_ok(&t,
	    "[\n"
	    "{\"ph\": \"X\", \"cat\": \"Operator\", \"name\": \"aten::conv2d\", \"pid\": 67844, \"tid\": \"4093687616\", \"ts\": 1606910596297023, \"dur\": 13},\n"
	    "{\"ph\": \"X\", \"cat\": \"Runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 67844, \"tid\": \"4093687616\", \"ts\": 1606910596297030, \"dur\": 4, \"args\": {\"correlation\": 9, \"external id\": 3}},\n"
	    "{\"ph\": \"X\", \"cat\": \"Kernel\", \"name\": \"cudnn_conv\", \"pid\": 0, \"tid\": \"stream 7\", \"ts\": 1606910596297040, \"dur\": 379, \"args\": {\"correlation\": 9, \"device\": 0}},\n"
	    "{\"ph\": \"X\", \"cat\": \"Memcpy\", \"name\": \"Memcpy DtoH\", \"pid\": 0, \"tid\": \"stream 7\", \"ts\": 1606910596297500, \"dur\": 10},\n"
	    "{\"ph\": \"f\", \"id\": 9, \"pid\": 0, \"tid\": \"stream 7\", \"ts\": 1606910596297040, \"cat\": \"async\", \"name\": \"launch\", \"bp\": \"e\"}\n"
	    "]\n");
	cr_assert_eq(t.legacy_array, 1);
	cr_assert_eq(t.objects, 5);
	k = find_event(&t, "cudnn_conv");
	m = find_event(&t, "Memcpy DtoH");
	cr_assert_eq(k->cls, CLASS_COMPUTE);
	cr_assert_eq(m->cls, CLASS_MEMORY);
	cr_assert_str_eq(trace_str(&t, t.tracks[k->track].name), "stream 7");
	cr_assert_eq(t.tracks[k->track].kind, TRACK_GPU);
	/* a digit-only string tid is numeric */
	cr_assert_eq(t.tracks[find_event(&t, "aten::conv2d")->track].tid,
	    INT64_C(4093687616));
	cr_assert_eq(t.events[k->link].name, find_event(&t, "cudaLaunchKernel")->name);
	/* the flow was read, bound (to k: not unbound) and freed */
	cr_assert_eq(t.flow_count, 1);
	cr_assert_eq(t.warn.unbound_flows, 0);
	cr_assert_eq(t.nflows, 0);
	cr_assert_null(t.flows);
	trace_free(&t);
}

Test(load, flows_link_when_correlation_is_missing)
{
	struct trace t;
	const struct event *k, *l;

	load_ok(&t,
	    "{\"traceEvents\": [\n"
	    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": 100, \"dur\": 5},\n"
	    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, \"ts\": 110, \"dur\": 5},\n"
	    "{\"ph\": \"s\", \"id\": 42, \"pid\": 1, \"tid\": 1, \"ts\": 101, \"cat\": \"ac2g\", \"name\": \"ac2g\"},\n"
	    "{\"ph\": \"f\", \"id\": 42, \"pid\": 0, \"tid\": 7, \"ts\": 110, \"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"}\n"
	    "]}");
	k = find_event(&t, "k");
	l = find_event(&t, "cudaLaunchKernel");
	cr_assert_eq(&t.events[k->link], l);
	cr_assert_eq(&t.events[l->link], k);
	cr_assert_eq(t.warn.unbound_flows, 0);
	trace_free(&t);
}

Test(load, begin_end_pairs)
{
	struct trace t;
	const struct event *outer, *inner;

	load_ok(&t,
	    "{\"traceEvents\": [\n"
	    "{\"ph\": \"B\", \"name\": \"outer\", \"pid\": 1, \"tid\": 1, \"ts\": 10},\n"
	    "{\"ph\": \"B\", \"name\": \"inner\", \"pid\": 1, \"tid\": 1, \"ts\": 12},\n"
	    "{\"ph\": \"E\", \"pid\": 1, \"tid\": 1, \"ts\": 15},\n"
	    "{\"ph\": \"E\", \"pid\": 1, \"tid\": 1, \"ts\": 20},\n"
	    "{\"ph\": \"E\", \"pid\": 1, \"tid\": 1, \"ts\": 21},\n"
	    "{\"ph\": \"B\", \"name\": \"open\", \"pid\": 1, \"tid\": 1, \"ts\": 30},\n"
	    "{\"ph\": \"X\", \"name\": \"last\", \"pid\": 1, \"tid\": 1, \"ts\": 31, \"dur\": 9}\n"
	    "]}");
	outer = find_event(&t, "outer");
	inner = find_event(&t, "inner");
	cr_assert_eq(outer->ts_ns, 10000);
	cr_assert_eq(outer->dur_ns, 10000);
	cr_assert_eq(inner->dur_ns, 3000);
	cr_assert_eq(inner->depth, 1);
	cr_assert_eq(outer->depth, 0);
	cr_assert_eq(t.warn.unmatched_end, 1);
	cr_assert_eq(t.warn.unmatched_begin, 1);
	cr_assert_eq(find_event(&t, "open")->dur_ns, 10000, "closed at the track's end");
	cr_assert(find_event(&t, "open")->flags & EVF_UNCLOSED);
	trace_free(&t);
}

Test(load, overlapping_kernels_get_a_sub_row)
{
	struct trace t;

	load_ok(&t,
	    "{\"traceEvents\": [\n"
	    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"a\", \"pid\": 0, \"tid\": 7, \"ts\": 0, \"dur\": 10},\n"
	    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"b\", \"pid\": 0, \"tid\": 7, \"ts\": 8, \"dur\": 10},\n"
	    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"c\", \"pid\": 0, \"tid\": 7, \"ts\": 18, \"dur\": 1}\n"
	    "]}");
	cr_assert_eq(t.nevents, 3);
	cr_assert_eq(find_event(&t, "a")->depth, 0);
	cr_assert_eq(find_event(&t, "b")->depth, 1);
	cr_assert_eq(find_event(&t, "c")->depth, 0);
	cr_assert_eq(t.tracks[0].rows, 2);
	trace_free(&t);
}

Test(load, messy_fields_are_counted_not_fatal)
{
	struct trace t;

	load_ok(&t,
	    "{\"traceEvents\": [\n"
	    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ctl\\u0001name\", \"pid\": 0, \"tid\": 7, \"ts\": 1, \"dur\": 1},\n"
	    "{\"ph\": \"X\", \"cat\": \"weird_cat\", \"name\": \"w\", \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 1},\n"
	    "{\"ph\": \"X\", \"name\": \"no ts\", \"pid\": 1, \"tid\": 1, \"dur\": 1},\n"
	    "{\"ph\": \"X\", \"name\": \"neg\", \"pid\": 1, \"tid\": 1, \"ts\": 5, \"dur\": -3},\n"
	    "{\"ph\": \"X\", \"name\": \"big\", \"pid\": 1, \"tid\": 1, \"ts\": 5, \"dur\": 1, \"args\": {\"Comms Id\": 10159970886766084423}},\n"
	    "{\"ph\": \"X\", \"name\": \"nan\", \"pid\": 1, \"tid\": 1, \"ts\": NaN, \"dur\": 1},\n"
	    "{\"ph\": \"Q\", \"name\": \"odd phase\", \"pid\": 1, \"tid\": 1, \"ts\": 1},\n"
	    "42,\n"
	    "{\"ph\": \"X\", \"name\": \"huge ts\", \"pid\": 1, \"tid\": 1, \"ts\": 99999999999999999999, \"dur\": 1}\n"
	    "]}");
	cr_assert_eq(t.objects, 8, "every object counts, the bare 42 does not");
	cr_assert_eq(t.warn.non_object_events, 1);
	cr_assert_eq(t.warn.control_chars, 1);
	cr_assert_eq(t.warn.unknown_category, 1);
	cr_assert_eq(t.warn.missing_fields, 1);
	cr_assert_eq(t.warn.negative_dur, 1);
	cr_assert_eq(find_event(&t, "neg")->dur_ns, 0);
	cr_assert_eq(t.warn.bad_timestamp, 1);
	cr_assert_eq(t.warn.unknown_phase, 1);
	cr_assert_eq(t.warn.int_overflow, 2, "the Comms Id arg and the huge ts");
	cr_assert_eq(t.nevents, 4);
	trace_free(&t);
}

Test(load, truncated_file_keeps_complete_events)
{
	struct trace t;
	struct load_error err;
	const char *full = small_trace;
	const char *cut = strstr(full, "{\"ph\": \"X\", \"cat\": \"gpu_memcpy\"");
	size_t keep = (size_t)(cut - full) + 40;
	/* the last complete event ends at the "}," before the memcpy line */
	const char *last_end = cut;

	while (last_end[-1] != '}')
		last_end--;
	write_file(full, keep, 0);
	cr_assert_eq(load_trace(&t, path, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(t.objects, 5);
	cr_assert_eq(t.warn.truncated_bytes, keep - (size_t)(last_end - full));
	trace_free(&t);

	/* the same cut inside gzip data */
	write_file(full, keep, 1);
	{
		FILE *f = fopen(path, "r+");
		long size;

		fseek(f, 0, SEEK_END);
		size = ftell(f);
		cr_assert_eq(ftruncate(fileno(f), size - 6), 0);
		fclose(f);
	}
	cr_assert_eq(load_trace(&t, path, NULL, &err), 0, "%s", err.msg);
	unlink(path);
	cr_assert_geq(t.objects, 3);
	cr_assert_gt(t.warn.truncated_bytes, 0);
	trace_free(&t);
}

static void
load_fails(const char *text, size_t len, const char *want, int not_trace)
{
	struct trace t;
	struct load_error err;
	int rc;

	write_file(text, len, 0);
	rc = load_trace(&t, path, NULL, &err);
	unlink(path);
	cr_assert_eq(rc, -1, "should fail: %.40s", text);
	cr_assert(strstr(err.msg, want) != NULL, "message '%s' lacks '%s'", err.msg, want);
	cr_assert(strncmp(err.msg, path, strlen(path)) == 0, "message names the file: %s", err.msg);
	cr_assert_eq(err.not_trace, not_trace, "not_trace for %s", err.msg);
}

Test(load, not_a_trace_names_file_offset_and_line)
{
	load_fails("", 0, "empty file", 1);
	load_fails("   \n\n  ", 7, "empty file", 1);
	load_fails("hello", 5, "byte 0 (line 1): expected '{' or '['", 1);
	load_fails("\n\n  \"str\"", 9, "byte 4 (line 3)", 1);
	load_fails("\x7f" "ELF\x02\x01", 6, "byte 0x7f", 1);
	load_fails("{\"a\": 1, \"b\": [1, 2]}", 21, "no traceEvents array", 1);
	load_fails("{\"traceEvents\": {}}", 19, "traceEvents is not an array", 1);
	load_fails("{\"traceEvents\": [\n{\"ph\" \"X\"}]}", 30, "line 2", 0);
	load_fails("{\"traceEvents\": [\n{\"ph\" \"X\"}]}", 30, "invalid JSON", 0);
	load_fails("{\"deviceProperties\": [1, 2", 26, "before any event", 0);
}

Test(load, invalid_json_after_events_keeps_them)
{
	struct trace t;

	load_ok(&t,
	    "{\"traceEvents\": [\n"
	    "{\"ph\": \"X\", \"name\": \"ok\", \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 1},\n"
	    "{\"ph\": \"X\", \"name\": \"ok2\", \"pid\": 1, \"tid\": 1, \"ts\": 2, \"dur\": 1}\n"
	    "@@@ garbage\n");
	cr_assert_eq(t.objects, 2);
	cr_assert_not_null(t.stop_reason);
	cr_assert(strstr(t.stop_reason, "line 4") != NULL, "%s", t.stop_reason);
	/* json-c consumes the white space after a value: "@@@ garbage\n" is left */
	cr_assert_eq(t.warn.truncated_bytes, 12, "got %llu", (unsigned long long)t.warn.truncated_bytes);
	trace_free(&t);
}

Test(load, bom_trailing_garbage_and_trailing_comma)
{
	struct trace t;

	load_ok(&t, "\xef\xbb\xbf{\"traceEvents\": [{\"ph\": \"i\", \"name\": \"x\", \"pid\": 1, \"tid\": 1, \"ts\": 3},]} xyz");
	cr_assert_eq(t.objects, 1);
	cr_assert_eq(t.warn.trailing_bytes, 3);
	trace_free(&t);
}

Test(load, missing_file_and_directory)
{
	struct trace t;
	struct load_error err;

	cr_assert_eq(load_trace(&t, "/nonexistent/x.json", NULL, &err), -1);
	cr_assert(strstr(err.msg, "No such file") != NULL, "%s", err.msg);
	cr_assert_eq(load_trace(&t, "/tmp", NULL, &err), -1);
	cr_assert(strstr(err.msg, "is a directory") != NULL, "%s", err.msg);
}

Test(load, counters_get_their_own_tracks)
{
	struct trace t;
	int counters = 0;

	load_ok(&t,
	    "{\"traceEvents\": [\n"
	    "{\"ph\": \"C\", \"name\": \"mem\", \"pid\": 1, \"ts\": 1, \"args\": {\"used\": 5, \"free\": 7}},\n"
	    "{\"ph\": \"C\", \"name\": \"mem\", \"pid\": 1, \"ts\": 2, \"args\": {\"used\": 6, \"free\": 6}},\n"
	    "{\"ph\": \"C\", \"name\": \"load\", \"pid\": 1, \"ts\": 2, \"args\": {\"value\": 0.5}}\n"
	    "]}");
	for (size_t i = 0; i < t.ntracks; i++)
		if (t.tracks[i].kind == TRACK_COUNTER)
			counters++;
	cr_assert_eq(counters, 3);
	cr_assert_eq(t.objects, 3);
	cr_assert_eq(t.nevents, 5);
	cr_assert_eq(trace_args_nums(&t, trace_args(&t, find_event(&t, "load"), &(struct event_args){0})).value, 0.5);
	trace_free(&t);
}

/* ---- args: narrow records and wide ones, through a merge -------------- */

static int
same_args(const struct event_args *x, const struct event_args *y)
{
	return x->correlation == y->correlation && x->external_id == y->external_id &&
	    x->device == y->device && x->stream == y->stream && x->comm == y->comm;
}

/*
 * The nums of args record j in the test below, none for even j: a sequence
 * number alone (kept in 8 bytes), all three values (in 24), flops and
 * value (a [memory] sample's, in 16), flops and seq (an op's, in 16), and
 * flops, -0.0 and seq (in 24: the value is not +0.0).
 */
enum { NUMS_CASES = 10 };

static struct arg_nums
nums_for(size_t j)
{
	switch (j % NUMS_CASES) {
	case 1:
		return (struct arg_nums){ -1.0, 0.0, 1000 + (int64_t)j };
	case 3:
		return (struct arg_nums){ 1e9 + (double)j, 0.5, (int64_t)j };
	case 5:
		return (struct arg_nums){ 2e6 + (double)j, 4096.0 * (double)j, -1 };
	case 7:
		return (struct arg_nums){ 3e9 + (double)j, 0.0, 7 + (int64_t)j };
	case 9:
		return (struct arg_nums){ 4e9, -0.0, 9 + (int64_t)j };
	default:
		return ARG_NUMS_NONE;
	}
}

/* How many of nums_for(0..n) land in case c. */
static size_t
nums_count(size_t n, size_t c)
{
	return n / NUMS_CASES + (n % NUMS_CASES > c);
}

/* Whether t's args record i has the nums nums_for(j), bit for bit. */
static int
nums_are(const struct trace *t, uint32_t i, size_t j)
{
	struct event_args a;
	struct arg_nums got, want = nums_for(j);

	trace_args_at(t, i, &a);
	got = trace_args_nums(t, &a);
	return (a.nums == EV_NONE) == (j % 2 == 0) &&
	    memcmp(&got, &want, sizeof got) == 0;
}

/* Appends a CPU event with args a and nums n; returns its index. */
static uint32_t
add_args(struct trace *t, const struct event_args *a, const struct arg_nums *n)
{
	struct event ev;
	struct args_rec r = trace_make_args(t, a, n);

	memset(&ev, 0, sizeof ev);
	ev.track = trace_track(t, 1, NULL, 1, NULL);
	ev.cat = trace_category(t, "cpu_op", 6);
	ev.link = EV_NONE;
	return trace_add_event(t, &ev, &r);
}

Test(load, args_narrow_and_wide_keep_every_value)
{
	static const int64_t ids[] = { ID_NONE, 0, 1, 4294967294, 4294967295,
	    4294967296, -1, INT64_MAX, INT64_MIN + 1 };
	static const int32_t small[] = { -1, 0, 7, 32767, 32768, -2, INT32_MAX,
	    INT32_MIN };
	const size_t nids = sizeof ids / sizeof ids[0];
	const size_t nsmall = sizeof small / sizeof small[0];
	struct trace t[2];
	struct event_args want[2][128], got;
	size_t n[2] = { 0, 0 }, narrow = 0;

	for (int k = 0; k < 2; k++) {
		trace_init(&t[k], "args");
		for (size_t i = 0; i < 64; i++) {
			struct event_args *a = &want[k][n[k]];

			/* every third from the values that fit (the first four of each) */
			size_t m_ids = i % 3 ? nids : 4, m_small = i % 3 ? nsmall : 4;

			a->correlation = ids[(i + (size_t)k) % m_ids];
			a->external_id = ids[(i * 5 + 3) % m_ids];
			a->device = small[(i * 3) % m_small];
			a->stream = small[(i * 7 + (size_t)k) % m_small];
			a->comm = i % 11 == 5 && i % 3 ? (uint32_t)i : EV_NONE;
			a->nums = 12345;        /* ignored */
			struct arg_nums nums = nums_for(n[k]);

			cr_assert_eq(add_args(&t[k], a, &nums), n[k]);
			n[k]++;
		}
		/* each value of each field, the others fitting */
		for (size_t f = 0; f < 4; f++) {
			for (size_t v = 0; v < (f < 2 ? nids : nsmall); v++) {
				struct event_args *a = &want[k][n[k]];

				*a = (struct event_args){ 3, 4, 0, 7, EV_NONE, 0 };
				if (f == 0)
					a->correlation = ids[v];
				else if (f == 1)
					a->external_id = ids[v];
				else if (f == 2)
					a->device = small[v];
				else
					a->stream = small[v];
				struct arg_nums nums = nums_for(n[k]);

				cr_assert_eq(add_args(&t[k], a, &nums), n[k]);
				n[k]++;
			}
		}
		for (size_t i = 0; i < n[k]; i++) {
			trace_args_at(&t[k], (uint32_t)i, &got);
			cr_assert(same_args(&got, &want[k][i]), "record %zu", i);
			cr_assert(nums_are(&t[k], (uint32_t)i, i), "record %zu", i);
			narrow += t[k].args[i].device != ARGS_WIDE;
		}
	}
	cr_assert_gt(narrow, 10, "some records fit the narrow form");
	cr_assert_gt(t[0].nwide, 10, "some do not");
	cr_assert_eq(t[0].nseqs, nums_count(n[0], 1), "sequence numbers alone in 8 bytes");
	cr_assert_eq(t[0].npairs, nums_count(n[0], 5) + nums_count(n[0], 7),
	    "two values in 16");
	cr_assert_eq(t[0].nnums, nums_count(n[0], 3) + nums_count(n[0], 9),
	    "the others in 24");
	/* a comm given later: a narrow record becomes wide, a wide one stays */
	for (uint32_t i = 0; i < 4; i++) {
		size_t before = t[1].nwide;
		int was_wide = t[1].args[i].device == ARGS_WIDE;

		trace_args_set_comm(&t[1], i, 100 + i);
		want[1][i].comm = 100 + i;
		cr_assert_eq(t[1].nwide, before + !was_wide);
	}
	/* merged: the second trace's records, wide ones and nums renumbered */
	cr_assert_eq(trace_merge(&t[0], &t[1]), 0);
	cr_assert_eq(t[0].nevents, n[0] + n[1]);
	for (size_t i = 0; i < n[0] + n[1]; i++) {
		const struct event_args *w = i < n[0] ? &want[0][i] : &want[1][i - n[0]];

		/* (no comm args were added, so the comm ids stay as given) */
		trace_args_at(&t[0], (uint32_t)i, &got);
		cr_assert(same_args(&got, w), "merged record %zu", i);
		cr_assert(nums_are(&t[0], (uint32_t)i, i < n[0] ? i : i - n[0]),
		    "merged record %zu", i);
	}
	trace_free(&t[0]);
	trace_free(&t[1]);
}

/* An event without args reads none; one whose args are all absent reads them. */
Test(load, no_args_differ_from_absent_ones)
{
	struct trace t;
	struct event_args absent = { ID_NONE, ID_NONE, -1, -1, EV_NONE, EV_NONE };
	struct event_args buf, got;
	struct event ev;
	uint32_t i, j;

	trace_init(&t, "none");
	i = add_args(&t, &absent, &ARG_NUMS_NONE);
	memset(&ev, 0, sizeof ev);
	ev.track = t.events[i].track;
	ev.cat = t.events[i].cat;
	ev.link = EV_NONE;
	j = trace_add_event(&t, &ev, &ARGS_REC_NONE);
	cr_assert_not_null(trace_args(&t, &t.events[i], &buf));
	cr_assert_null(trace_args(&t, &t.events[j], &buf));
	trace_args_at(&t, j, &got);
	cr_assert(same_args(&got, &absent));
	cr_assert_eq(got.nums, EV_NONE);
	trace_free(&t);
}

/*
 * The args stay with their events when trace_finalize() groups them by
 * track and sorts each track by time: event k of a shuffled trace has
 * correlation k's on both tracks, split or not.
 */
Test(load, args_follow_their_events_through_the_sort)
{
	struct trace t;
	const size_t n = 3000;

	trace_init(&t, "sort");
	for (size_t m = 0; m < n; m++) {
		size_t k = (m * 7919) % n;      /* a permutation of 0..n */
		struct event_args a = { (int64_t)k, ID_NONE, -1, -1, EV_NONE, EV_NONE };
		struct event ev;
		struct args_rec r = trace_make_args(&t, &a, &ARG_NUMS_NONE);

		memset(&ev, 0, sizeof ev);
		ev.ts_ns = (int64_t)k * 10;
		ev.dur_ns = 5;
		ev.name = strtab_intern(&t.strs, "op", 2);
		ev.track = trace_track(&t, 1, NULL, (int64_t)(k % 3), NULL);
		ev.cat = trace_category(&t, "cpu_op", 6);
		ev.link = EV_NONE;
		cr_assert_neq(trace_add_event(&t, &ev, k % 5 ? &r : &ARGS_REC_NONE),
		    EV_NONE);
	}
	trace_finalize(&t);
	cr_assert_eq(t.nevents, n);
	for (size_t i = 0; i < n; i++) {
		struct event_args buf;
		const struct event_args *a = trace_args(&t, &t.events[i], &buf);
		int64_t k = t.events[i].ts_ns / 10;

		cr_assert_eq(t.events[i].track, (uint32_t)(k % 3));
		if (k % 5 == 0)
			cr_assert_null(a, "event %zu", i);
		else
			cr_assert(a != NULL && a->correlation == k, "event %zu", i);
	}
	trace_free(&t);
}

/* Categories beyond the most a trace holds fold into the last one. */
Test(load, categories_beyond_the_most_fold_into_the_last)
{
	struct trace t;
	char name[32];

	trace_init(&t, "cats");
	for (int i = 0; i < TRACE_CATS_MAX + 5; i++) {
		int len = snprintf(name, sizeof name, "c%d", i);
		uint16_t c = trace_category(&t, name, (size_t)len);

		cr_assert_eq(c, i < TRACE_CATS_MAX ? i : TRACE_CATS_MAX - 1, "%s", name);
	}
	cr_assert_eq(t.ncats, TRACE_CATS_MAX);
	cr_assert_eq(trace_category(&t, "c7", 2), 7);
	trace_free(&t);
}

/* ---- progress, read in chunks --------------------------------------- */

struct progress_log {
	uint64_t done[256], total;
	size_t n;
};

static void
log_progress(uint64_t done, uint64_t total, void *ctx)
{
	struct progress_log *p = ctx;

	if (p->n < 256)
		p->done[p->n++] = done;
	p->total = total;
}

/*
 * Files of 40 to 56 MB read in two chunks, plain and gzip: the progress
 * never goes back (it once fell to half when the first chunk, past a
 * multiple of 8 MB, reached the second's start: the sizes step 2 MB, so
 * that some start lies within the 1 MB read before each report) and ends
 * at the file's size.
 */
Test(load, progress_in_chunks_only_goes_forward, .timeout = 120)
{
	size_t cap = (size_t)57 << 20, len = 0, nends = 0;
	char *text = malloc(cap + 16);
	size_t *ends = malloc((cap / 64) * sizeof *ends);
#ifdef HAVE_ISAL
	const int gz_too = 1;
#else
	const int gz_too = 0;           /* zlib's gzip is read in one chunk */
#endif

	cr_assert(text != NULL && ends != NULL);
	len += (size_t)sprintf(text, "{\"traceEvents\": [");
	for (long i = 0; len + 200 < cap; i++) {
		len += (size_t)sprintf(text + len, "%s\n{\"ph\": \"X\", \"name\": \"op%ld\", "
		    "\"pid\": 1, \"tid\": %ld, \"ts\": %ld, \"dur\": 1}", i ? "," : "",
		    i % 5, i % 3, i);
		ends[nends++] = len;
	}
	setenv("GANTTY_SPLIT_MIN", "1", 1);
	for (size_t mb = 40, k = 0; mb <= 56; mb += 2) {
		char keep[4];
		size_t n;

		while (k < nends && ends[k] < mb << 20)
			k++;
		n = ends[k - 1];
		memcpy(keep, text + n, 3);
		memcpy(text + n, "]}\n", 3);
		for (int gz = 0; gz <= gz_too; gz++) {
			struct progress_log log = { .n = 0 };
			struct load_opts o = { log_progress, &log, 2 };
			struct load_error err;
			struct trace t;

			write_file(text, n + 3, gz);
			cr_assert_eq(load_trace(&t, path, &o, &err), 0, "%s", err.msg);
			unlink(path);
			cr_assert_eq(err.chunks, 2, "%zu MB, gzip %d: in chunks", mb, gz);
			cr_assert_gt(log.n, 2);
			for (size_t i = 1; i < log.n; i++)
				cr_assert_geq(log.done[i], log.done[i - 1],
				    "%zu MB, gzip %d: report %zu of %zu: %llu after %llu",
				    mb, gz, i, log.n, (unsigned long long)log.done[i],
				    (unsigned long long)log.done[i - 1]);
			cr_assert_eq(log.done[log.n - 1], log.total);
			trace_free(&t);
		}
		memcpy(text + n, keep, 3);
	}
	unsetenv("GANTTY_SPLIT_MIN");
	free(ends);
	free(text);
}
