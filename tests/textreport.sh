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

finish
