#!/bin/sh
# tests/compare_view.sh: --compare of two runs of one job as a user reads
# it (issue 35, "a diff you can trust"), on the hta trace_diff pair (A100,
# 8 ranks, against V100, 2 ranks; ProfilerStep#1009-#1014 both).  The
# panel's B - A over the whole window counts only the time both traces
# cover (A's GPU span ends 280 ms before B's: that tail is not A's idle),
# checked against the two traces' own --report windows; the diff table
# pairs their steps by number; after ] the panel and D compare A's
# ProfilerStep#N with B's #N, each over its own GPU extent (the traces are
# aligned at their first step only, so #N of B drifts from #N of A on
# screen), checked against the reports' step times.  Kernel names that
# differ only in their middles stay apart in the table.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

corpus=$top_srcdir/../shared/corpus
[ -d "$corpus" ] || skip_all "no corpus at $corpus"
[ -n "$PYTHON3" ] || skip_all "no python3"
a=$corpus/hta/tests/data/trace_diff/control/control.json.gz
b=$corpus/hta/tests/data/trace_diff/test/test.json.gz
"$GANTTY" --report --format=json -q "$a" >"$tmp/a.json" || fail "A's report"
"$GANTTY" --report --format=json -q "$b" >"$tmp/b.json" || fail "B's report"

# "%.4g ms" as units_format() writes times between 1 and 1000 ms
common=$("$PYTHON3" -c '
import json, sys
a, b = (json.load(open(p))["ranks"][0] for p in sys.argv[1:3])
off = a["steps"][0]["start_ns"] - b["steps"][0]["start_ns"]   # B aligned at A first step
s = max(a["window"]["start_ns"], b["window"]["start_ns"] + off)
e = min(a["window"]["end_ns"], b["window"]["end_ns"] + off)
print("%.4g ms" % ((e - s) / 1e6))' "$tmp/a.json" "$tmp/b.json")
expect 0 "--render --compare of the pair" "$GANTTY" --render --width=160 --height=45 \
    --compare "$a" "$b"
file_has "$tmp/out" "B - A over the $common both cover: busy " \
    "B - A counts only the $common both traces cover"
expect 0 "--render --compare --diff-table" "$GANTTY" --render --width=160 \
    --height=45 --diff-table --compare "$a" "$b"
file_has "$tmp/out" "steps paired by number" "the diff table pairs the steps by number"
check "... #1012 against #1012" grep -q "^ #1012 -> #1012 " "$tmp/out"
# the kernel rows: names that differ only in their middles stay apart
expect 0 "... at 120 columns" "$GANTTY" --render --width=120 --height=70 --ascii \
    --diff-table --compare "$a" "$b"
sed -n '/^kernels, by |change|/,$p' "$tmp/out" | sed '1d' | cut -c2-78 |
    sed 's/ *$//' | grep . >"$tmp/names"
check "... its kernel rows are named" [ "$(grep -c . "$tmp/names")" -ge 20 ]
check "... and no two look the same" [ -z "$(sort "$tmp/names" | uniq -d)" ]
check "... the split_embedding_backward ones cta/warp_per_row, 2ul/5ul" \
    [ "$(grep -c '\(cta\|warp\)_per_row.*[25]ul>' "$tmp/names")" -ge 3 ]

. "$top_srcdir/tests/tmuxlib.sh"
title_text="  window +"
hint_text="? help"
T new-session -d -s gantty -x 160 -y 45 "cat" || skip_all "cannot start a tmux server"
start cv 160x45 -- "'$a'" "'$b'" --compare
wait_for cv "B - A over the $common both cover" "the viewer's panel: the same"
send cv ]
wait_for cv "selected step " "]: a step is selected"
n=$(sed -n 's/.* selected step \([0-9]*\):.*/\1/p' "$tmp/screen" | head -n 1)
delta=$("$PYTHON3" -c '
import json, sys
n = int(sys.argv[3])
a, b = ([s for s in json.load(open(p))["ranks"][0]["steps"] if s["number"] == n][0]
    for p in sys.argv[1:3])
d = (b["end_ns"] - b["start_ns"]) - (a["end_ns"] - a["start_ns"])
print("%+.4g ms" % (d / 1e6))' "$tmp/a.json" "$tmp/b.json" "$n")
wait_for cv "B - A, ProfilerStep#$n of each (step $delta): busy " \
    "... the panel: A's #$n against B's #$n, B's step $delta longer as the reports say"
send cv D
wait_for cv "ProfilerStep#$n of each, over its own GPU extent" "D: the table says so"
wait_for cv "steps (1): A -> B" "... one step row, not the neighbours"
check "... #$n against #$n, $delta" grep -q "^ #$n -> #$n .* $delta " "$tmp/screen"
send cv D
send cv q
restored cv "q"
finish
