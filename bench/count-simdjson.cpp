/*
 * count-simdjson — the peer beside gantty's first load in bench/run:
 * simdjson's On Demand API counting the events of a trace, and nothing else.
 *
 *   bench/count-simdjson [-v] FILE
 *
 * FILE is plain JSON (not gzip): an object with a "traceEvents" array (a
 * Kineto trace; the member may come anywhere in the object) or a bare array
 * of events.  It prints the number of elements of that array on stdout.
 * The whole file is read into memory (simdjson::padded_string::load), indexed
 * (stage 1: SIMD, the kernel chosen at run time for the CPU) and walked with
 * simdjson::ondemand, which skips each event without decoding it: about the
 * least a JSON parser does to know how many events a trace holds, so that
 * gantty's first load over this time is what gantty spends beyond finding
 * the events.  Nothing after the array is looked at.
 *
 * -v names on stderr the implementation simdjson chose at run time for
 * stage 1 (on x86-64 icelake, haswell or westmere; "fallback" is no SIMD
 * kernel at all) and the one this program's On Demand walk was compiled for
 * (simdjson's builtin: "fallback" unless built with -march flags; skipping
 * the elements of an array hardly depends on it).
 *
 * Exit status 0, or 1 with a message on stderr: the file cannot be read, is
 * not JSON, or holds no events array.  simdjson reads at most 4 GB.
 */
#include <simdjson.h>

#include <cerrno>
#include <ctime>
#include <cstdint>
#include <cstdio>
#include <cstring>

#define STR2(x) #x
#define STR(x) STR2(x)

using namespace simdjson;

/*
 * count_events: the number of elements of DOC's events array (the
 * "traceEvents" member of a top-level object, or the top-level array itself)
 * into *N.  Returns SUCCESS, or simdjson's error (NO_SUCH_FIELD when an
 * object has no "traceEvents", INCORRECT_TYPE when the top level is neither
 * an object nor an array or "traceEvents" is not an array); *N is then left
 * as it was.
 */
static error_code count_events(ondemand::document &doc, uint64_t *n)
{
	ondemand::json_type t;
	error_code e = doc.type().get(t);
	if (e)
		return e;
	ondemand::array arr;
	if (t == ondemand::json_type::object)
		e = doc["traceEvents"].get_array().get(arr);
	else if (t == ondemand::json_type::array)
		e = doc.get_array().get(arr);
	else
		return INCORRECT_TYPE;
	if (e)
		return e;
	uint64_t c = 0;
	/* An element not consumed is skipped when the iterator moves on. */
	for (auto ev : arr) {
		if (ev.error())
			return ev.error();
		c++;
	}
	*n = c;
	return SUCCESS;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	bool verbose = false;
	int i = 1;
	if (i < argc && strcmp(argv[i], "-v") == 0) {
		verbose = true;
		i++;
	}
	if (i != argc - 1) {
		fprintf(stderr, "usage: count-simdjson [-v] FILE\n");
		return 1;
	}
	const char *path = argv[i];
	if (verbose)
		fprintf(stderr, "count-simdjson: simdjson %s, stage 1 %s, on demand %s\n",
		    STR(SIMDJSON_VERSION),
		    get_active_implementation()->name().c_str(),
		    STR(SIMDJSON_BUILTIN_IMPLEMENTATION));

	double t0 = now_s(), t1, t2, t3;
	padded_string json;
	errno = 0;
	error_code e = padded_string::load(path).get(json);
	if (e) {
		fprintf(stderr, "count-simdjson: %s: cannot read: %s\n", path,
		    e == IO_ERROR && errno ? strerror(errno) : error_message(e));
		return 1;
	}
	t1 = now_s();
	ondemand::parser parser;
	ondemand::document doc;
	e = parser.iterate(json).get(doc);
	t2 = now_s();
	uint64_t n = 0;
	if (!e)
		e = count_events(doc, &n);
	t3 = now_s();
	/*
	 * -v: where the time went; the first iterate() allocates the
	 * parser's index (page faults: most of its time on a first run)
	 */
	if (verbose)
		fprintf(stderr, "count-simdjson: read %.3f s, iterate %.3f s, "
		    "count %.3f s\n", t1 - t0, t2 - t1, t3 - t2);
	if (e == NO_SUCH_FIELD || e == INCORRECT_TYPE) {
		fprintf(stderr, "count-simdjson: %s: neither a traceEvents array nor an array of events\n", path);
		return 1;
	}
	if (e) {
		fprintf(stderr, "count-simdjson: %s: %s\n", path, error_message(e));
		return 1;
	}
	printf("%llu\n", (unsigned long long)n);
	return 0;
}
