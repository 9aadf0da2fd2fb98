#include "config.h"

#include "analysis/bandwidth.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/metrics.h"
#include "base/match.h"
#include "base/xalloc.h"
#include "model/trace.h"

/*
 * The link table: the bandwidth one GPU's link gives per direction (GB/s,
 * 10^9 bytes/s), which is what a collective's busbw approaches on it
 * (nccl-tests doc/PERFORMANCE.md: busbw "should be close to the hardware
 * peak"; 8 x H100 SXM measure 460-480 GB/s, 8 x A100 SXM4 230-250: see
 * https://docs.alayanew.com/en/docs/tech-blog/2026-05-06-nccl-tests).
 * Vendors print NVLink bidirectional: half of it is per direction.  Rows
 * are tried in order, the first whose match is a word of the device name
 * wins (mfu.c's rule: "H100 PCIe" before "H100").  per_peer: a full mesh
 * without a switch (AMD xGMI), where a group of n GPUs reaches n - 1 links
 * of per_peer each, at most gbps.
 */
static const struct link {
	const char *match, *name;
	double gbps, per_peer;
	const char *source;
} links[] = {
	{ "GB200", "NVLink 5", 900, 0,
	  "NVIDIA GB200 NVL72: 18 NVLink links of 100 GB/s, 1.8 TB/s (900 GB/s each direction)" },
	{ "B200", "NVLink 5", 900, 0, "NVIDIA HGX B200: NVLink 5, 1.8 TB/s per GPU" },
	{ "B100", "NVLink 5", 900, 0, "NVIDIA HGX B100: NVLink 5, 1.8 TB/s per GPU" },
	{ "GH200", "NVLink 4", 450, 0, "NVIDIA GH200: NVLink 4, 900 GB/s" },
	{ "H100 PCIe", "PCIe 5.0 x16", 64, 0, "PCIe 5.0 x16: 63 GB/s each direction" },
	{ "H100 NVL", "NVLink bridge", 300, 0, "NVIDIA H100 NVL datasheet: NVLink bridge 600 GB/s" },
	{ "H100", "NVLink 4", 450, 0,
	  "NVIDIA H100 SXM5 datasheet: 18 NVLink 4 links, 900 GB/s (25 GB/s per link and direction)" },
	{ "H800 PCIe", "PCIe 5.0 x16", 64, 0, "PCIe 5.0 x16: 63 GB/s each direction" },
	{ "H800", "NVLink 4 (H800)", 200, 0, "NVIDIA H800 SXM5: NVLink 400 GB/s" },
	{ "H200 NVL", "NVLink bridge", 450, 0, "NVIDIA H200 NVL datasheet: NVLink bridge 900 GB/s" },
	{ "H200", "NVLink 4", 450, 0, "NVIDIA H200 SXM datasheet: NVLink 900 GB/s" },
	{ "H20", "NVLink 4", 450, 0, "NVIDIA H20: NVLink 900 GB/s" },
	{ "A800", "NVLink 3 (A800)", 200, 0, "NVIDIA A800 SXM4: NVLink 400 GB/s" },
	{ "A100-PCIE", "PCIe 4.0 x16", 32, 0, "PCIe 4.0 x16: 31.5 GB/s each direction" },
	{ "A100 PCIe", "PCIe 4.0 x16", 32, 0, "PCIe 4.0 x16: 31.5 GB/s each direction" },
	{ "A100", "NVLink 3", 300, 0,
	  "NVIDIA A100 SXM4 datasheet: 12 NVLink 3 links, 600 GB/s" },
	{ "V100-PCIE", "PCIe 3.0 x16", 16, 0, "PCIe 3.0 x16: 15.75 GB/s each direction" },
	{ "V100S", "PCIe 3.0 x16", 16, 0, "PCIe 3.0 x16: 15.75 GB/s each direction" },
	{ "V100", "NVLink 2", 150, 0, "NVIDIA V100 SXM2 datasheet: 6 NVLink 2 links, 300 GB/s" },
	{ "L40S", "PCIe 4.0 x16", 32, 0, "NVIDIA L40S datasheet: PCIe Gen4 x16" },
	{ "L40", "PCIe 4.0 x16", 32, 0, "NVIDIA L40 datasheet: PCIe Gen4 x16" },
	{ "L4", "PCIe 4.0 x16", 32, 0, "NVIDIA L4 datasheet: PCIe Gen4 x16" },
	{ "A10G", "PCIe 4.0 x16", 32, 0, "PCIe Gen4 x16" },
	{ "A10", "PCIe 4.0 x16", 32, 0, "NVIDIA A10 datasheet: PCIe Gen4 x16" },
	{ "A40", "PCIe 4.0 x16", 32, 0, "NVIDIA A40 datasheet: PCIe Gen4 x16" },
	{ "T4", "PCIe 3.0 x16", 16, 0, "NVIDIA T4 datasheet: PCIe Gen3 x16" },
	{ "MI325X", "xGMI mesh", 448, 64,
	  "AMD ROCm blog, MI300X RCCL and xGMI: 7 peers, up to 64 GB/s per point-to-point link" },
	{ "MI300X", "xGMI mesh", 448, 64,
	  "AMD ROCm blog, MI300X RCCL and xGMI: 7 peers, up to 64 GB/s per point-to-point link" },
};

const char *
bandwidth_type_key(enum coll_type c)
{
	static const char *const keys[COLL_NTYPES] = {
#define X(id, key) [COLL_##id] = key,
		BANDWIDTH_TYPES(X)
#undef X
	};

	return (unsigned)c < COLL_NTYPES ? keys[c] : "other";
}

enum coll_type
bandwidth_type(const char *name)
{
	static const struct {
		const char *word;
		enum coll_type type;
	} words[] = {
		{ "allreduce", COLL_ALL_REDUCE },
		{ "reducescatter", COLL_REDUCE_SCATTER },
		{ "allgather", COLL_ALL_GATHER },
		{ "alltoall", COLL_ALL_TO_ALL },
		{ "broadcast", COLL_BROADCAST },
		{ "sendrecv", COLL_SEND_RECV },
		{ "send", COLL_SEND_RECV },
		{ "recv", COLL_SEND_RECV },
		{ "gather", COLL_GATHER },
		{ "scatter", COLL_SCATTER },
		{ "reduce", COLL_REDUCE },
	};
	char flat[128];
	size_t n = 0;

	/* lower case without '_': "_reduce_scatter_base" -> "reducescatterbase" */
	for (const char *p = name; *p != '\0' && n + 1 < sizeof flat; p++)
		if (*p != '_')
			flat[n++] = (char)tolower((unsigned char)*p);
	flat[n] = '\0';
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strstr(flat, words[i].word) != NULL)
			return words[i].type;
	return COLL_OTHER;
}

int
bandwidth_dtype_size(const char *dtype)
{
	/* c10's ScalarType names, as record_param_comms writes "dtype" */
	static const struct {
		const char *name;
		int size;
	} sizes[] = {
		{ "Float", 4 }, { "BFloat16", 2 }, { "Half", 2 }, { "Double", 8 },
		{ "Int", 4 }, { "Long", 8 }, { "Short", 2 }, { "Byte", 1 },
		{ "Char", 1 }, { "Bool", 1 }, { "ComplexHalf", 4 },
		{ "ComplexFloat", 8 }, { "ComplexDouble", 16 },
		{ "Float8_e4m3fn", 1 }, { "Float8_e5m2", 1 },
		{ "Float8_e4m3fnuz", 1 }, { "Float8_e5m2fnuz", 1 },
		{ "UInt16", 2 }, { "UInt32", 4 }, { "UInt64", 8 },
	};

	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
		if (strcmp(dtype, sizes[i].name) == 0)
			return sizes[i].size;
	return 0;
}

double
bandwidth_factor(enum coll_type c, int64_t n)
{
	if (n < 1)
		return -1;
	switch (c) {
	case COLL_ALL_REDUCE:
		return 2.0 * (double)(n - 1) / (double)n;
	case COLL_ALL_GATHER:
	case COLL_REDUCE_SCATTER:
	case COLL_ALL_TO_ALL:
	case COLL_GATHER:
	case COLL_SCATTER:
		return (double)(n - 1) / (double)n;
	default:
		return 1;
	}
}

/*
 * The first entry of links whose match is a word of device_name, or NULL.
 * Every collective of a device asks with the same name, so the last
 * answer is kept (per thread: ranks are analysed on several), keyed by the
 * name's bytes.
 */
static const struct link *
link_of(const char *device_name)
{
	static _Thread_local char last[64];
	static _Thread_local const struct link *last_link;
	static _Thread_local int have_last;
	const struct link *found = NULL;
	size_t len = strlen(device_name);

	if (have_last && strcmp(last, device_name) == 0)
		return last_link;
	for (size_t i = 0; i < sizeof links / sizeof links[0] && found == NULL; i++)
		if (match_word(device_name, links[i].match, MATCH_LEFT | MATCH_RIGHT))
			found = &links[i];
	if (len < sizeof last) {
		memcpy(last, device_name, len + 1);
		last_link = found;
		have_last = 1;
	}
	return found;
}

double
bandwidth_expected(const char *device_name, size_t node_gpus, int64_t n,
    const char **link)
{
	const struct link *l;
	double g;

	*link = NULL;
	if (device_name == NULL || n < 2 || node_gpus < 2 || (uint64_t)n > node_gpus)
		return -1;
	if ((l = link_of(device_name)) == NULL)
		return -1;
	g = l->gbps;
	if (l->per_peer > 0 && l->per_peer * (double)(n - 1) < g)
		g = l->per_peer * (double)(n - 1);
	*link = l->name;
	return g;
}

void
bandwidth_of(const struct metrics *d, const struct event *e,
    struct coll_bw *out)
{
	const struct trace *t = d->t;
	struct event_args ea_buf;
	const struct event_args *ea = trace_args(t, e, &ea_buf);
	const struct comm_args *c = ea != NULL && ea->comm != EV_NONE ?
	    &t->comms[ea->comm] : NULL;
	int64_t nel;
	int size;
	double f;

	out->type = bandwidth_type(trace_str(t, c != NULL && c->collective != 0 ?
	    c->collective : e->name));
	out->group_size = c != NULL && c->group_size > 0 ? c->group_size : -1;
	out->bytes = -1;
	out->algbw_gbps = out->busbw_gbps = out->expected_gbps = -1;
	out->link = NULL;
	if (c == NULL)
		return;
	nel = c->in_nelems > c->out_nelems ? c->in_nelems : c->out_nelems;
	size = bandwidth_dtype_size(trace_str(t, c->dtype));
	if (nel < 0 || size == 0 || nel > INT64_MAX / size)
		return;
	out->bytes = nel * size;
	out->expected_gbps = bandwidth_expected(d->name, t->ndevices,
	    out->group_size, &out->link);
	if (e->dur_ns <= 0)
		return;
	out->algbw_gbps = (double)out->bytes / (double)e->dur_ns;
	if ((f = bandwidth_factor(out->type, out->group_size)) >= 0)
		out->busbw_gbps = out->algbw_gbps * f;
}

/* *acc += v (v >= 0), saturating at INT64_MAX: a hostile trace's sizes. */
static void
add_sat(int64_t *acc, int64_t v)
{
	if (__builtin_add_overflow(*acc, v, acc))
		*acc = INT64_MAX;
}

void
bandwidth_index(struct bw_index *x, const struct metrics *d)
{
	const struct trace *t = d->t;
	size_t cap = 0;

	x->k = NULL;
	x->n = 0;
	/* dev.acts come in start order, so the index does too */
	for (size_t i = 0; i < d->nacts; i++) {
		const struct event *e = &t->events[d->acts[i]];
		struct coll_bw b;
		struct bw_kernel *k;

		if (e->cls != CLASS_COMM)
			continue;
		bandwidth_of(d, e, &b);
		if (b.bytes < 0)
			continue;
		xgrow(&x->k, &cap, x->n + 1, sizeof *x->k);
		k = &x->k[x->n++];
		k->ts_ns = e->ts_ns;
		k->dur_ns = e->dur_ns;
		k->bytes = b.bytes;
		k->busbw_gbps = b.busbw_gbps;
		k->expected_gbps = b.expected_gbps;
		k->type = (uint8_t)b.type;
	}
}

void
bandwidth_index_free(struct bw_index *x)
{
	free(x->k);
	x->k = NULL;
	x->n = 0;
}

size_t
bandwidth_window(const struct bw_index *x, int64_t start_ns, int64_t end_ns,
    int64_t min_bytes, struct bw_row *rows)
{
	struct {
		double bus_x_ns, bus_ns, exp_x_ns, exp_ns;
	} w[COLL_NTYPES];
	struct bw_row r[COLL_NTYPES];
	size_t n = 0, lo = 0, hi = x->n;

	memset(w, 0, sizeof w);
	memset(r, 0, sizeof r);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (x->k[mid].ts_ns < start_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < x->n && x->k[i].ts_ns < end_ns; i++) {
		const struct bw_kernel *b = &x->k[i];
		double d = (double)b->dur_ns;

		if (b->bytes < min_bytes)
			continue;
		r[b->type].count++;
		add_sat(&r[b->type].bytes, b->bytes);
		add_sat(&r[b->type].time_ns, b->dur_ns);
		if (b->busbw_gbps >= 0) {
			w[b->type].bus_x_ns += b->busbw_gbps * d;
			w[b->type].bus_ns += d;
		}
		if (b->expected_gbps >= 0) {
			w[b->type].exp_x_ns += b->expected_gbps * d;
			w[b->type].exp_ns += d;
		}
	}
	for (int k = 0; k < COLL_NTYPES; k++) {
		if (r[k].count == 0)
			continue;
		rows[n] = r[k];
		rows[n].type = (enum coll_type)k;
		rows[n].busbw_gbps = w[k].bus_ns > 0 ? w[k].bus_x_ns / w[k].bus_ns : -1;
		rows[n].expected_gbps = w[k].exp_ns > 0 ? w[k].exp_x_ns / w[k].exp_ns : -1;
		n++;
	}
	return n;
}
