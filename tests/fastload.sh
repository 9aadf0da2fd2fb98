#!/bin/sh
# The fast loader (jscan, in one thread, with the inflater or the taker
# thread, and with both, and in chunks, plain and gzip) builds exactly the
# model that json-c alone builds in one thread: tests/loadcmp compares strings,
# events, args, flows, tracks, header, warnings and errors on generated
# traces (plain, gzip, cut short, with escapes), the hostile fixtures, the
# fuzz corpus and every trace of ../shared/corpus; and --report agrees.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

loadcmp=${LOADCMP:-$top_builddir/tests/loadcmp}

"$GEN_TRACE" --ranks=2 --seed=3 --target-mb=3 --out="$tmp/gen" >/dev/null ||
	bail "gen-trace failed"
gzip -c "$tmp/gen/rank-0.json" >"$tmp/gen/rank-0.json.gz"
head -c 1234567 "$tmp/gen/rank-1.json" >"$tmp/cut.json"
# gzip cut short, corrupt in the middle, two members then garbage (inflated
# by a thread of its own on the two-thread path)
head -c 100000 "$tmp/gen/rank-0.json.gz" >"$tmp/cut.json.gz"
{ head -c 150000 "$tmp/gen/rank-0.json.gz"; printf 'XXXXXXXXXXXXXXXX'; tail -c +150017 "$tmp/gen/rank-0.json.gz"; } >"$tmp/corrupt.json.gz"
{ printf '{"traceEvents": [' | gzip -c; printf '{"ph": "i", "name": "a", "pid": 1, "tid": 1, "ts": 5}]}' | gzip -c; printf 'junk'; } >"$tmp/members.json.gz"
# garbage after white space after an event: json-c eats the white space
printf '{"traceEvents": [\n{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 1}\n \t@@@ x\n' >"$tmp/garbage.json"
# escapes, surrogate pairs and braces inside strings, nested args, numbers
cat >"$tmp/escapes.json" <<'JSON'
{"traceEvents": [
 {"ph": "X", "cat": "kernel", "name": "k\u00e9\ud83d\ude00 \"{[\\", "pid": 0, "tid": 7,
  "ts": 1.5e3, "dur": 2, "args": {"device": 0, "nested": {"a": [1, {"b": "}"}]},
  "correlation": "12", "stream": 7.9, "flops": 1e9}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": "12", "tid": "t\n1",
  "ts": "1499.9995", "dur": 1, "args": {"correlation": 12, "External id": 9}},
 {"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "pid": 1, "tid": 1,
  "ts": 1600, "s": "t", "args": {"Total Allocated": 123456789012345678, "Bytes": -1}},
 {"ph": "X", "cat": "kernel", "name": "ncclDevKernel", "pid": 0, "tid": 8, "ts": 1700,
  "dur": 3, "args": {"Collective name": "allreduce", "dtype": "Float", "Seq": 4,
  "In msg nelems": 12345678901234567890, "Group size": 8}},
 {"ph": "X", "name": "dup", "pid": 1, "tid": 1, "ts": 1, "ts": 2, "dur": 1},
 {"ph": "s", "id": 5, "pid": 1, "tid": 1, "ts": 1500, "cat": "ac2g", "name": "ac2g"},
 {"ph": "f", "id": 5, "pid": 0, "tid": 7, "ts": 1500, "cat": "ac2g", "bp": "e"},
 {"ph": "C", "name": "mem", "pid": 1, "ts": 1500, "args": {"a": 1, "b": 2.5}},
 {"ph": "M", "name": "thread_name", "pid": 0, "tid": 7, "args": {"name": "stream 7 \u0041"}},
 {"ph": "i", "name": "t1", "pid": 2, "tid": 2, "ts": 4611686018427387.903},
 {"ph": "i", "name": "t2", "pid": 2, "tid": 2, "ts": 4611686018427387.904},
 {"ph": "i", "name": "t3", "pid": 2, "tid": 2, "ts": 9999999999999999.999},
 {"ph": "i", "name": "t4", "pid": 2, "tid": 2, "ts": "0.001"},
 {"ph": "i", "name": "t5", "pid": 2, "tid": 2, "ts": 12345678901234567.5},
 {"ph": "X", "name": "t6", "pid": 2, "tid": 2, "ts": 0.5, "dur": 1.2345},
 {"ph": "X", "name": "t7", "pid": 2, "tid": 2, "ts": 7.25, "dur": "3."}
]}
JSON

set -- "$tmp/gen/rank-0.json" "$tmp/gen/rank-1.json" "$tmp/gen/rank-0.json.gz" \
	"$tmp/cut.json" "$tmp/cut.json.gz" "$tmp/corrupt.json.gz" "$tmp/members.json.gz" "$tmp/garbage.json" "$tmp/escapes.json" \
	"$top_srcdir"/tests/fixtures/hostile/* "$top_srcdir"/tests/fixtures/*.json \
	"$top_srcdir"/fuzz/corpus/load/* "$top_srcdir"/fuzz/regress/load/*
check "generated traces, fixtures and fuzz corpus load identically" "$loadcmp" "$@"

for mode in "GANTTY_JSONC_ONLY=1 GANTTY_LOAD_THREADS=1" "GANTTY_LOAD_THREADS=1" \
    "GANTTY_LOAD_THREADS=2"; do
	env $mode "$GANTTY" --report --format=json -q "$tmp/gen" >"$tmp/report.$(echo $mode | tr ' =' '__').json"
done
check "--report is the same on every path" sh -c \
	'cmp "$1"/report.GANTTY_JSONC_ONLY_1_GANTTY_LOAD_THREADS_1.json "$1"/report.GANTTY_LOAD_THREADS_1.json &&
	 cmp "$1"/report.GANTTY_JSONC_ONLY_1_GANTTY_LOAD_THREADS_1.json "$1"/report.GANTTY_LOAD_THREADS_2.json' sh "$tmp"

# Chunks (GANTTY_SPLIT_MIN=1 in loadcmp's "chunks" modes: every plain
# file is read in 2, 3, 8 and 16 chunks at once).  Events of 200 lines, so
# the middle of each file below falls where the case wants it.
events() {      # events FIRST COUNT [ARGS]: X events on three threads
	awk -v first="$1" -v n="$2" -v args="${3:-}" 'BEGIN {
		for (i = first; i < first + n; i++)
			printf "%s\n  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op%d\", \"pid\": 1, \"tid\": %d, \"ts\": %d, \"dur\": 3%s}", \
			    (i > first ? "," : ""), i % 7, i % 3, 10 * i, args
	}'
}
{ printf '{"schemaVersion": 1, "traceEvents": ['; events 0 200; echo '],'
  printf '"deviceProperties": [{"id": 0, "name": "late GPU"}], "distributedInfo": {"rank": 3, "world_size": 4}}\n'; } >"$tmp/late-header.json"
{ printf '['; events 0 200; echo ']'; } >"$tmp/legacy.json"
{ printf '{"traceEvents": ['; events 0 100; printf ',\n  {"ph": "M", "name": "thread_name", "pid": 1, "tid": 2, "args": {"name": "late"}},'
  printf '{"ph": "C", "name": "ctr", "pid": 1, "ts": 5, "args": {"v": 2.5}},{"ph": "s", "id": 9, "pid": 1, "tid": 1, "ts": 10, "cat": "ac2g"}'
  printf ',\n  {"ph": "X", "cat": "kernel", "name": "nccl k", "pid": 0, "tid": 7, "ts": 12, "dur": 4, "args": {"correlation": 3, "Collective name": "allreduce", "flops": 1e9}},'
  events 100 100; echo ']}'; } >"$tmp/late-kinds.json"
{ printf '{"traceEvents": ['; events 0 100; printf ',\n  {"ph": "B", "name": "b", "pid": 1, "tid": 1, "ts": 1}'
  printf ',\n  {"ph": "E", "pid": 1, "tid": 1, "ts": 2000},'; events 100 100; echo ']}'; } >"$tmp/be-after.json"
{ printf '{"traceEvents": ['; events 0 100; printf ',\n  {"ph": "E", "pid": 1, "tid": 1, "ts": 2000},'; events 100 100; echo ']}'; } >"$tmp/e-after.json"
{ printf '{"traceEvents": ['; events 0 200 ', "args": {"l": [{"a": 1}, {"b": 2}, {"c": 3}]}'; echo ']}'; } >"$tmp/nested.json"
{ printf '{"traceEvents": ['; events 0 200; printf '], "traceEvents": ['; events 200 10; echo ']}'; } >"$tmp/two-arrays.json"
{ printf '{"traceEvents": ['; events 0 150; printf ',\n  {"ph": "X", "name": oops}'; events 150 50; echo ']}'; } >"$tmp/bad-late.json"
{ printf '{"traceEvents": ['; events 0 50; printf ',\n  {"ph": "X", "name": oops}'; events 50 150; echo ']}'; } >"$tmp/bad-early.json"
head -c 30000 "$tmp/late-kinds.json" >"$tmp/cut-late.json"
check "chunks: the generated traces are read in 2, 3, 8 and 16 chunks, identically" \
	env LOADCMP_CHUNKS=all "$loadcmp" "$tmp/gen/rank-0.json" "$tmp/gen/rank-1.json"
check "chunks: cut short, late headers and kinds, a late error: in chunks, identically" \
	env LOADCMP_CHUNKS=1 "$loadcmp" \
	"$tmp/cut.json" "$tmp/late-header.json" "$tmp/legacy.json" "$tmp/late-kinds.json" \
	"$tmp/bad-late.json" "$tmp/cut-late.json"
check "chunks: B/E, a second array, a guess inside an event, an early error: identical" \
	"$loadcmp" "$tmp/be-after.json" "$tmp/e-after.json" "$tmp/two-arrays.json" \
	"$tmp/nested.json" "$tmp/bad-early.json"
check "chunks: a late header is taken" sh -c \
	'GANTTY_SPLIT_MIN=1 GANTTY_LOAD_THREADS=2 "$1" --no-cache --report --format=json -q "$2" | grep -q "\"world_size\": 4"' sh "$GANTTY" "$tmp/late-header.json"
for n in 2 3 8; do
	check "$n chunks: an error after the middle names its byte and line" sh -c \
	    'GANTTY_SPLIT_MIN=1 GANTTY_LOAD_THREADS=$3 "$1" --no-cache --report -q "$2" 2>&1 | grep -q "line 152"' sh "$GANTTY" "$tmp/bad-late.json" $n
done

# gzip in chunks: each chunk inflates the data before it again, then reads
# its part.  The cases above compressed; and damaged data, a cut and a
# second member after the middle, where a chunk has started.
for f in late-header legacy late-kinds bad-late cut-late be-after e-after two-arrays nested bad-early; do
	gzip -c "$tmp/$f.json" >"$tmp/$f.json.gz"
done
g=$tmp/gen/rank-0.json.gz
gsize=$(wc -c <"$g")
{ head -c $((gsize * 3 / 4)) "$g"; printf 'XXXXXXXXXXXXXXXX'; tail -c +$((gsize * 3 / 4 + 17)) "$g"; } >"$tmp/damaged-late.json.gz"
head -c $((gsize * 3 / 4)) "$g" >"$tmp/gzcut-late.json.gz"
{ head -c 1000000 "$tmp/gen/rank-0.json" | gzip -c; tail -c +1000001 "$tmp/gen/rank-0.json" | gzip -c; } >"$tmp/two-members.json.gz"
# (only ISA-L's gzip is read in chunks: zlib inflates as slowly as the
# events are read)
if "$GANTTY" --version | grep -q ISA-L; then
	check "gzip chunks: the generated trace in 2, 3, 8 and 16 chunks, identically" \
		env LOADCMP_CHUNKS=all "$loadcmp" "$g"
	check "gzip chunks: late headers and kinds, errors, a second member, damage after the middle: in chunks, identically" \
		env LOADCMP_CHUNKS=1 "$loadcmp" "$tmp/late-header.json.gz" "$tmp/legacy.json.gz" \
		"$tmp/late-kinds.json.gz" "$tmp/bad-late.json.gz" "$tmp/cut-late.json.gz" \
		"$tmp/two-members.json.gz" "$tmp/damaged-late.json.gz"
else
	skip "gzip chunks" "built without ISA-L"
fi
check "gzip chunks: B/E, a second array, guesses inside events, an early error, cut short: identical" \
	"$loadcmp" "$tmp/be-after.json.gz" "$tmp/e-after.json.gz" "$tmp/two-arrays.json.gz" \
	"$tmp/nested.json.gz" "$tmp/bad-early.json.gz" "$tmp/gzcut-late.json.gz"
check "gzip, 2 chunks: an error after the middle names its byte and line" sh -c \
	'GANTTY_SPLIT_MIN=1 GANTTY_LOAD_THREADS=2 "$1" --no-cache --report -q "$2" 2>&1 | grep -q "line 152"' sh "$GANTTY" "$tmp/bad-late.json.gz"

corpus=${GANTTY_CORPUS:-$top_srcdir/../shared/corpus}
if [ -d "$corpus" ]; then
	find "$corpus" -type f \( -name '*.json' -o -name '*.json.gz' \) | sort >"$tmp/list"
	check "every corpus trace loads identically ($(wc -l <"$tmp/list") files)" \
		sh -c 'tr "\n" "\0" <"$1" | xargs -0 "$2"' sh "$tmp/list" "$loadcmp"
else
	skip "every corpus trace loads identically" "no corpus at $corpus"
fi
finish
