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

finish
