#!/bin/sh
# The text report as a reader sees it (issue 16): rank lists as ranges, an
# unknown --step as an error that lists the steps there are, long names
# elided in the middle (never in JSON), no metadata pseudo-tracks, the
# cross-rank summary first, and no table that is only its header.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

fx=$top_srcdir/tests/fixtures
g=$tmp/gen
"$GEN_TRACE" --ranks=16 --steps=3 --layers=2 --kernels=5 --out="$g" >/dev/null 2>&1 ||
    bail "gen-trace failed"

# ---- rank lists as ranges --------------------------------------------------
expect 0 "a report of ranks 0, 1, 5, 7 and 7 again of 16" \
    "$GANTTY" --report -q "$g/rank-0.json" "$g/rank-1.json" "$g/rank-5.json" \
    "$g/rank-7.json" "$g/rank-7.json"
file_has "$tmp/out" "  duplicate ranks: 7; missing ranks: 2-4, 6, 8-15" \
    "missing ranks are written as ranges"
cp "$tmp/out" "$tmp/ranges.txt"
expect 0 "the same as JSON" "$GANTTY" --report --format=json -q "$g/rank-0.json" \
    "$g/rank-1.json" "$g/rank-5.json" "$g/rank-7.json" "$g/rank-7.json"
file_has "$tmp/out" '"missing_ranks": [2, 3, 4, 6, 8, 9, 10, 11, 12, 13, 14, 15]' \
    "the JSON keeps every missing rank in its array"

# ---- a --step that no trace has --------------------------------------------
expect 1 "--step=99 of a trace without it fails" \
    "$GANTTY" --report "$fx/small.json"  --step=99
file_has "$tmp/err" "gantty: no ProfilerStep#99 in $fx/small.json; its steps are 3" \
    "the error names the step, the file and the steps it has"
check "nothing is reported" test ! -s "$tmp/out"
expect 1 "--step=99 of 16 ranks without it fails" "$GANTTY" --report -q --step=99 "$g"
file_has "$tmp/err" "gantty: no ProfilerStep#99 in any of the 16 traces; their steps are 10-12" \
    "the error lists the steps of all of them as a range"
expect 1 "--render --step=99 fails too" "$GANTTY" --render --step=99 "$g/rank-0.json"
file_has "$tmp/err" "no ProfilerStep#99 in $g/rank-0.json; its steps are 10-12" \
    "--render names the steps there are"
expect 1 "--diff --step=99 fails too" "$GANTTY" --diff --step=99 "$g/rank-0.json" "$g/rank-1.json"
expect 1 "--diff-steps with a step the trace lacks fails" \
    "$GANTTY" --diff-steps=10:99 "$g/rank-0.json"
file_has "$tmp/err" "gantty: --diff-steps: no ProfilerStep#99 in $g/rank-0.json; its steps are 10-12" \
    "--diff-steps names the steps there are"
expect 1 "--rank=0 --step=3: rank 0 lacks step 3 (small.json, rank 1, has it)" \
    "$GANTTY" --report -q --rank=0 --step=3 "$g/rank-0.json" "$fx/small.json"
file_has "$tmp/err" "no ProfilerStep#3 in $g/rank-0.json; its steps are 10-12" \
    "only the traces of --rank count"
expect 0 "--step=3 that only small.json has is no error" \
    "$GANTTY" --report --step=3 "$g/rank-0.json" "$fx/small.json"
file_has "$tmp/out" "  no window: no ProfilerStep#3 in this trace" \
    "the rank without it says so in its entry"
file_has "$tmp/err" "warning: $g/rank-0.json: no ProfilerStep#3 in this trace" \
    "and in a warning"
file_has "$tmp/out" "  window +" "the rank with it has its window"

# ---- long names elided in the middle, in text only -------------------------
# A 2,110-character kernel name (template arguments, as real ones are) and a
# thread name as long: the text keeps the start and the end around U+2026,
# as many columns as keep the row within 100 (the top kernels' name column
# is 69 wide: 34 + 34, "..." and 33 + 33 where the output is not UTF-8; the
# diff's 55: 27 + 27; the tracks' 39: 19 and the end); the JSON keeps them
# whole.
long="sm90_gemm<$(printf 'float, %.0s' $(seq 300))int>(int)"
thread="worker_$(printf 'x%.0s' $(seq 300))_end"
sed -e "s/\"sm90_gemm\"/\"$long\"/" \
    -e "s/\"tid\": 100, \"args\": {\"name\": \"python3\"/\"tid\": 100, \"args\": {\"name\": \"$thread\"/" \
    "$fx/small.json" >"$tmp/long.json"
ends() { printf '%s' "$long" | cut -c1-$1; printf '%s' "$3"; printf '%s' "$long" | rev | cut -c1-$2 | rev; }
# a UTF-8 locale to run in, where there is one
utf8=$(locale -a 2>/dev/null | grep -i -m1 -E '^(C|en_US)\.utf-?8$')
if [ -n "$utf8" ]; then
expect 0 "a kernel name of 2,110 characters" env LC_ALL="$utf8" "$GANTTY" --report "$tmp/long.json"
file_has "$tmp/out" "compute $(ends 34 34 …)" \
    "the top kernel's name keeps its start and end around …"
check "no line of the text holds the whole name" sh -c "! grep -qF -- '$long' '$tmp/out'"
file_has "$tmp/out" "$(printf '%s' "$thread" | cut -c1-19)…" "a long thread name is elided too"
expect 0 "--diff of it" env LC_ALL="$utf8" "$GANTTY" --diff "$tmp/long.json" "$fx/small.json"
file_has "$tmp/out" "$(ends 27 27 …)" "--diff elides the kernel name as well"
else
	skip "names elided with … in a UTF-8 locale" "no UTF-8 locale here"
fi
expect 0 "the same in a locale that is not UTF-8" env LC_ALL=C "$GANTTY" --report "$tmp/long.json"
file_has "$tmp/out" "compute $(ends 33 33 ...)" "there the mark is ..."
expect 0 "--ascii" "$GANTTY" --report --ascii "$tmp/long.json"
file_has "$tmp/out" "compute $(ends 33 33 ...)" "--ascii marks it with ... too"
expect 0 "the JSON report of it" "$GANTTY" --report --format=json "$tmp/long.json"
file_has "$tmp/out" "\"name\": \"$long\"" "the JSON has the whole kernel name"
file_has "$tmp/out" "\"name\": \"$thread\"" "and the whole thread name"

# ---- metadata pseudo-tracks left out of the track list ----------------------
# small.json with Kineto's three (pid "Spans", "Traces", "": one event each),
# and two string-named tracks that are not metadata: one of two events, one
# with a numeric tid; and a string pid with a control character.
meta='  {"ph": "X", "cat": "Trace", "name": "PyTorch Profiler (0)", "pid": "Spans", "tid": "PyTorch Profiler", "ts": 1692998837400, "dur": 300},
  {"ph": "i", "s": "g", "name": "Iteration Start: PyTorch Profiler", "pid": "Traces", "tid": "Trace PyTorch Profiler", "ts": 1692998837400},
  {"ph": "i", "s": "g", "name": "Record Window End", "pid": "", "tid": "", "ts": 1692998837700},
  {"ph": "X", "cat": "user_annotation", "name": "a", "pid": "worker", "tid": "main", "ts": 1692998837410, "dur": 5},
  {"ph": "X", "cat": "user_annotation", "name": "b", "pid": "worker", "tid": "main", "ts": 1692998837420, "dur": 5},
  {"ph": "X", "cat": "user_annotation", "name": "c", "pid": "loader", "tid": 3, "ts": 1692998837430, "dur": 5},
  {"ph": "X", "cat": "user_annotation", "name": "d", "pid": "esc\u001b[2J", "tid": 4, "ts": 1692998837440, "dur": 5},'
awk -v meta="$meta" '{ print } /"traceEvents": \[/ { print meta }' "$fx/small.json" >"$tmp/meta.json"
expect 0 "a trace with metadata tracks" "$GANTTY" --report -q "$tmp/meta.json"
file_has "$tmp/out" "  tracks (3 metadata tracks not listed):" "they are counted"
check "they are not listed" sh -c "! grep -E 'pid (Spans|Traces|\"\") ' '$tmp/out'"
file_has "$tmp/out" "events  pid worker     tid main         main" \
    "a string-named track of two events is listed"
file_has "$tmp/out" "events  pid loader     tid 3 " "a string pid with a numeric tid is listed"
file_has "$tmp/out" "events  pid esc?[2J    tid 4 " "a control character in a pid is shown as ?"
file_has "$tmp/out" "    cpu            6 events  pid 100        tid 100          python3" \
    "the real tracks are listed as before"
expect 0 "its JSON report" "$GANTTY" --report --format=json -q "$tmp/meta.json"
file_has "$tmp/out" '{"pid": "Spans", "tid": "PyTorch Profiler", "kind": "cpu"' \
    "the JSON lists the metadata tracks as before"
head -4 "$fx/small.json" >"$tmp/onlymeta.json"
printf '"traceEvents": [\n%s\n]}\n' "$(printf '%s\n' "$meta" | head -3 | sed '$s/,$//')" \
    >>"$tmp/onlymeta.json"
expect 0 "a trace of metadata tracks only" "$GANTTY" --report -q "$tmp/onlymeta.json"
file_has "$tmp/out" "  tracks: 3 metadata tracks, not listed" "they are counted on one line"
if [ -d "${GANTTY_CORPUS:-$top_srcdir/../shared/corpus}" ]; then
	corpus=${GANTTY_CORPUS:-$top_srcdir/../shared/corpus}
	expect 0 "a real trace with Kineto's metadata tracks" "$GANTTY" --report -q \
	    "$corpus/tracelens/tests/traces/mi300/resnet_act_checkpoint.json.gz"
	file_has "$tmp/out" "  tracks (3 metadata tracks not listed):" "its three are counted"
	check "and not listed" sh -c "! grep -E 'pid (Spans|Traces|\"\") ' '$tmp/out'"
else
	skip "a real trace with Kineto's metadata tracks" "no corpus"
fi

# ---- the cross-rank summary first -----------------------------------------
check "several ranks: the report opens with the cross-rank section" \
    test "$(sed -n 1p "$tmp/ranges.txt" | cut -c1-34)" = "cross-rank: 5 participants, 18 col"
check "then a header, a blank line and the first rank's entry" test \
    "$(awk '/^per rank: 5 entries, one per \(rank, device\)$/ { getline a; getline b
	print a "|" b }' "$tmp/ranges.txt")" = "|$g/rank-0.json"
check "the cross-rank section comes before every rank's entry" test \
    "$(grep -n '^cross-rank\|^  rank [0-9]' "$tmp/ranges.txt" | sed -n 1p | cut -d: -f2)" = "cross-rank"
check "no cross-rank section after the entries" test \
    "$(grep -c '^cross-rank' "$tmp/ranges.txt")" -eq 1
expect 0 "a single trace" "$GANTTY" --report -q "$g/rank-0.json"
check "a single trace has no cross-rank section nor header" \
    sh -c "! grep -q '^cross-rank\|^per rank' '$tmp/out'"
check "and opens with its file" test "$(sed -n 1p "$tmp/out")" = "$g/rank-0.json"

# ---- no table that is only its header -------------------------------------
# headers FILE: prints each line that ends in ':' (a table's header) and is
# not followed by a more indented line (a row): none should be.
headers() {
	awk 'function ind(s) { match(s, /^ */); return RLENGTH }
	    h != "" && ind($0) <= ind(h) { print "header without rows: " h }
	    { h = $0 ~ /:$/ ? $0 : "" }
	    END { if (h != "") print "header without rows: " h }' "$1"
}
expect 0 "a layer without exposed comm of its own" \
    "$GANTTY" --report -q --layer-pattern='^cudaStreamSynchronize$' "$fx/small.json"
file_has "$tmp/out" "  layers: 1, none with exposed comm of its own" \
    "says so on one line"
check "and its 'worst own exposed comm' table has no bare header" \
    sh -c "! grep -q 'worst own exposed comm:' '$tmp/out'"
expect 0 "a trace of no events" "$GANTTY" --report -q "$fx/hostile/zero-events.json"
check "has no tracks table" sh -c "! grep -q '^  tracks' '$tmp/out'"
check "and no findings line (there is no window to look at)" \
    sh -c "! grep -q 'findings' '$tmp/out'"
file_has "$fx/small.report.txt" "  findings:" "(the golden report has its findings)"
: >"$tmp/all.txt"
for f in "$fx"/*.json "$fx"/hostile/*.json "$tmp/meta.json" "$tmp/onlymeta.json" \
    "$tmp/long.json"; do
	"$GANTTY" --report -q "$f" >>"$tmp/all.txt" 2>/dev/null
	"$GANTTY" --report -q --window=0ms:1us "$f" >>"$tmp/all.txt" 2>/dev/null
	"$GANTTY" --report -q --layer-pattern='^cudaStreamSynchronize$' "$f" \
	    >>"$tmp/all.txt" 2>/dev/null
done
"$GANTTY" --report -q "$g" >>"$tmp/all.txt"
"$GANTTY" --report -q --window=0ms:1ms "$g" >>"$tmp/all.txt"
"$GANTTY" --report -q --step=11 "$g/rank-0.json" "$fx/small.json" >>"$tmp/all.txt"
"$GANTTY" --diff -q "$g/rank-0.json" "$fx/small.json" >>"$tmp/all.txt"
headers "$tmp/all.txt" >"$tmp/headers"
check "no header without rows in the reports of the fixtures and generated ranks" \
    test ! -s "$tmp/headers"
sed 's/^/# /' "$tmp/headers" | head -5
if [ -d "${GANTTY_CORPUS:-$top_srcdir/../shared/corpus}" ]; then
	corpus=${GANTTY_CORPUS:-$top_srcdir/../shared/corpus}
	for f in "$corpus/tracelens/tests/traces/h100/gaunernst_bert-small-uncased__1016001.json.gz" \
	    "$corpus/tracelens/tests/traces/mi300/resnet_act_checkpoint.json.gz"; do
		"$GANTTY" --report -q "$f"
	done >"$tmp/corpus.txt" 2>/dev/null
	headers "$tmp/corpus.txt" >"$tmp/headers"
	check "nor in the reports of two real traces" test ! -s "$tmp/headers"
	file_has "$tmp/corpus.txt" "none with exposed comm of its own" \
	    "(one of which has layers without exposed comm)"
else
	skip "real traces' headers" "no corpus"
fi
# the generated ranks' bus bandwidth is the same on each: no slowest and fastest
"$GANTTY" --report -q "$g" | sed -n 4,5p | tr -s "\n " "  " >"$tmp/bw"
file_has "$tmp/bw" "; the same on the 16 participants measured" \
    "bus bandwidth alike everywhere: no 'slowest X, fastest X' of one value"

# ---- every line within 100 columns (issue 35) ------------------------------
# Remedies, findings and the MFU line fold at spaces, indented under their
# line; kernel names in the tables are elided in the middle instead.  The
# bundled example (remedies, 120-column kernel names), then every corpus
# trace with steps that the other tests use, as --report, --what-if and --diff.
wide() {
	"$PYTHON3" -c '
import sys, unicodedata
bad = [l for l in sys.stdin.read().split("\n")
       if sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in l) > 100]
for l in bad[:3]:
    print("# %d: %s" % (len(l), l))
sys.exit(1 if bad else 0)'
}
fits() {
	name=$1; shift
	if "$GANTTY" -q "$@" 2>/dev/null | wide >"$tmp/wide"; then pass "$name"; else
		fail "$name"; cat "$tmp/wide"; fi
}
if [ -n "$PYTHON3" ]; then
	ex=$top_srcdir/share/example.json.gz
	"$GANTTY" --report -q "$ex" >"$tmp/ex.txt"
	file_has "$tmp/ex.txt" "      remedy: " "the example's report has remedies"
	fits "the example's report fits 100 columns" --report --what-if=comm=2 "$ex"
	fits "... its --diff too" --diff "$ex" "$g"
	corpus=${GANTTY_CORPUS:-$top_srcdir/../shared/corpus}
	if [ -d "$corpus" ]; then
		for t in tracelens/tests/traces/mi300/resnet_act_checkpoint.json.gz \
		    param/et_replay/tests/inputs/dlrm_kineto \
		    hta/tests/data/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz; do
			fits "$t: the report fits 100 columns" --report --what-if=comm=2 \
			    "$corpus/$t"
		done
		fits "the hta trace_diff pair's --diff fits 100 columns" --diff \
		    "$corpus/hta/tests/data/trace_diff/control/control.json.gz" \
		    "$corpus/hta/tests/data/trace_diff/test/test.json.gz"
		# its split_embedding kernels differ only in their middles
		# (cta/warp_per_row, 2ul/5ul): each row's name is its own
		"$GANTTY" --diff "$corpus/hta/tests/data/trace_diff/control/control.json.gz" \
		    "$corpus/hta/tests/data/trace_diff/test/test.json.gz" >"$tmp/pair.txt"
		# 45 columns before the name
		sed -n '/^kernels (largest change first/,/^verdict/p' "$tmp/pair.txt" |
		    sed '1,2d;$d' | cut -c46- >"$tmp/names"
		check "... its 20 kernel rows are named" [ "$(grep -c . "$tmp/names")" -eq 20 ]
		check "... and no two look the same" [ -z "$(sort "$tmp/names" | uniq -d)" ]
		check "... the three split_embedding_backward kernels among them" \
		    [ "$(grep -c '^void spl.*long)$' "$tmp/names")" -eq 3 ]
	else
		skip "corpus reports within 100 columns" "no corpus at $corpus"
	fi
else
	skip "lines within 100 columns" "no python3"
fi

finish
