#!/bin/sh
# The viewer's panel cuts no value: --render of the bundled example at
# 80x24, 120x40, 200x50 (and 60x30, where lines must wrap) shows every number of the window panel whole,
# each equal to the JSON report of the same window (formatted as gantty
# formats durations), wrapped onto another row rather than cut; and the
# title and the step strip keep their values whole at 80 columns; --compare
# names A and B by file and says when they are unlike; several ranks: the
# panel says which window it describes; a kernel's details name the op that
# launched it with its Input Dims (checked against the JSON).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

[ -n "$PYTHON3" ] || skip_all "no python3"
example=$top_srcdir/share/example.json.gz
"$GANTTY" --report --format=json -q "$example" >"$tmp/report.json" ||
    bail "--report of the example"
for size in 80x24 120x40 200x50 60x30; do
	w=${size%x*} h=${size#*x}
	LC_ALL=C.UTF-8 "$GANTTY" --render --width="$w" --height="$h" --color=never \
	    -q "$example" >"$tmp/frame-$size.txt" || fail "--render at $size"
	check "$size: the panel's values are whole and equal the JSON report's" \
	    env PYTHONPATH="$top_srcdir/tests" "$PYTHON3" - "$tmp/report.json" "$tmp/frame-$size.txt" "$w" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["ranks"][0]
lines = open(sys.argv[2], encoding="utf-8").read().split("\n")
width = int(sys.argv[3])

from gfmt import panel_strings

want = panel_strings(r)
panel = [l for l in lines if l.startswith(" ")]
bad = [x for x in want if not any(x in l for l in panel)]
wide = [l for l in lines if len(l) > width]
for x in bad:
    print("not whole in the panel: %r" % x, file=sys.stderr)
for l in wide:
    print("wider than the screen: %r" % l, file=sys.stderr)
sys.exit(1 if bad or wide else 0)
PY
done
check "200x50: rows to spare list the findings, so the slow step's cause shows
without a key (the outlier finding's summary, whole across its rows)" \
    "$PYTHON3" -c '
import json, re, sys
r = json.load(open(sys.argv[1]))["ranks"][0]
want = [f["summary"] for f in r["findings"] if f["kind"] == "outlier_step"][0]
frame = open(sys.argv[2], encoding="utf-8").read()
# the left column, its continuation rows joined back
left = [l[:99].rstrip() for l in frame.split("\n")]
text = " ".join(x.strip() for x in left)
sys.exit(0 if ("outlier_step: " + want) in text else 1)
' "$tmp/report.json" "$tmp/frame-200x50.txt"
check "80x24: the title keeps the window and the rank" \
    grep -qE '^gantty .*window .* rank 0 dev 0' "$tmp/frame-80x24.txt"
check "80x24: the step strip keeps its values whole" \
    grep -qE '^steps .*median 72\.32 ms \(#16\), 1 outlier #15 *$' "$tmp/frame-80x24.txt"
# --compare: A and B by file, and what makes them unlike
"$GEN_TRACE" --ranks=2 --steps=3 --layers=2 --kernels=5 --no-inject --seed=1 --out="$tmp/j2" >/dev/null &&
"$GEN_TRACE" --ranks=4 --steps=5 --layers=2 --kernels=5 --no-inject --seed=2 --out="$tmp/j4" >/dev/null ||
    bail "gen-trace"
"$GANTTY" --render --compare --width=160 --height=45 --color=never -q \
    "$tmp/j2/rank-0.json" "$tmp/j4/rank-1.json" >"$tmp/cmp.txt" || fail "--render --compare"
check "--compare: the rank headers say A and B and the file" \
    sh -c "grep -q '^.A rank 0  *rank-0.json ' '$tmp/cmp.txt' && grep -q '^.B rank 1  *rank-1.json ' '$tmp/cmp.txt'"
check "--compare: the panel says A and B are unlike (world size, steps)" \
    grep -qF "A and B differ: world size 2 vs 4; 3 vs 5 steps" "$tmp/cmp.txt"
# far more ranks than rows: groups of ranks in each half row, all covered
"$GEN_TRACE" --ranks=160 --steps=3 --layers=1 --kernels=5 --no-inject --seed=5 \
    --out="$tmp/r160" >/dev/null || bail "gen-trace of 160 ranks"
"$GANTTY" --render --width=200 --height=50 --color=never -q "$tmp/r160" \
    >"$tmp/r160.txt" || fail "--render of 160 ranks"
check "160 ranks at 200x50: every rank in a row of the overview, groups of 3 a
half row (r0-5 .. r156-159), none left to scroll to" "$PYTHON3" -c '
import re, sys
rows = re.findall(r"^..r(\d+)-(\d+) ", open(sys.argv[1], encoding="utf-8").read(), re.M)
covered = sorted(r for a, b in rows for r in range(int(a), int(b) + 1))
sys.exit(0 if covered == list(range(160)) and len(rows) == 27 else 1)
' "$tmp/r160.txt"
dlrm=${GANTTY_CORPUS:-$top_srcdir/../shared/corpus}/param/et_replay/tests/inputs/dlrm_kineto
if [ -d "$dlrm" ]; then
	"$GANTTY" --render --width=160 --height=45 --color=never -q "$dlrm" \
	    >"$tmp/dlrm.txt" || fail "--render of the DLRM job"
	check "several ranks: the panel says its window is the screen's, not the
rank's own span (the report's window), so the two disagree for a reason" \
	    sh -c "grep -qF \"the report's window (F): +6.948 ms .. +19.96 ms\" '$tmp/dlrm.txt'"
	"$GANTTY" --render --matrix --color=always --width=160 --height=30 -q "$dlrm" \
	    >"$tmp/dlrm-matrix.txt" || fail "--render --matrix of the DLRM job"
	check "the matrix colours apart the ranks that waited (1, 3: cyan) and marks
the straggler (7) that made them wait" "$PYTHON3" -c '
import sys
rows = open(sys.argv[1], encoding="utf-8").read().split("\n")
def row(r):
    return [l for l in rows if ("rank %d/%d " % (r, r)) in l][0]
ok = "\033[0;36m" in row(1) and "\033[0;36m" in row(3) and "!rank 7/7" in row(7)
sys.exit(0 if ok else 1)
' "$tmp/dlrm-matrix.txt"
else
	skip "several ranks: the panel says which window" "no corpus"
fi
# A kernel's details name the op that launched it with that op's Input Dims
# (issue 33): for every GEMM of the example's first step, the innermost
# cpu_op holding its launch call, found here from the JSON.
gzip -dc "$example" >"$tmp/example.json"
"$PYTHON3" - "$tmp/example.json" >"$tmp/gemms" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
launch = {e["args"]["correlation"]: e for e in ev
          if e.get("cat") == "cuda_runtime" and "correlation" in e.get("args", {})}
ops = [e for e in ev if e.get("cat") == "cpu_op"]
gemms = sorted((e for e in ev if e.get("cat") == "kernel" and "gemm" in e["name"]),
               key=lambda e: e["ts"])
for k in gemms[:12:3]:
    l = launch[k["args"]["correlation"]]
    around = [o for o in ops if o["tid"] == l["tid"] and o["ts"] <= l["ts"] and
              l["ts"] + l["dur"] <= o["ts"] + o["dur"]]
    op = min(around, key=lambda o: o["dur"])
    print("%.3f\t%s\t%s" % (k["ts"], op["name"], json.dumps(op["args"]["Input Dims"], separators=(",", ":"))))
PY
t0=$(gzip -dc "$example" | "$PYTHON3" -c 'import json, sys
print(min(e["ts"] for e in json.load(sys.stdin)["traceEvents"] if "ts" in e and e.get("ph") == "X"))')
n=0
while IFS="$(printf '\t')" read -r ts op dims; do
	n=$((n + 1))
	# a window just before the kernel: the search's next match is it
	a=$(awk -v t="$ts" -v z="$t0" 'BEGIN { printf "%.3fus", t - z - 2 }')
	b=$(awk -v t="$ts" -v z="$t0" 'BEGIN { printf "%.3fus", t - z - 1 }')
	LC_ALL=C.UTF-8 "$GANTTY" --render --width=150 --height=50 --color=never -q \
	    --window="$a:$b" --select='gemm' --panel=selection "$example" >"$tmp/k$n.txt"
	check "GEMM $n: launched in $op, whose Input Dims are $dims" sh -c "
	    grep -qF 'launched in op $op' '$tmp/k$n.txt' &&
	    grep -qF \"op's Input Dims  $dims\" '$tmp/k$n.txt'"
done <"$tmp/gemms"
check "four GEMMs looked at" test "$n" -eq 4

# With both marks set the kernels panel is the range's: each kernel's time
# and its share of the range, as the report of that window has them (its
# shares were of the window on screen)
"$GANTTY" --report --format=json -q --window=+100ms:+200ms "$example" >"$tmp/range.json"
LC_ALL=C.UTF-8 "$GANTTY" --render --width=150 --height=40 --color=never -q \
    --marks=+100ms:+200ms --panel=kernels "$example" >"$tmp/range.txt"
file_has "$tmp/range.txt" "top kernels in the marked range" "the marked range's kernels"
check "... each with its time and share of the range, as the report of that window" \
    env PYTHONPATH="$top_srcdir/tests" "$PYTHON3" - "$tmp/range.json" "$tmp/range.txt" <<'PY'
import json, sys
from gfmt import dur
r = json.load(open(sys.argv[1]))["ranks"][0]
span = r["window"]["end_ns"] - r["window"]["start_ns"]
lines = open(sys.argv[2], encoding="utf-8").read().split("\n")
bad = 0
for k in r["kernels_top"][:5]:
    want = "%10s %5.1f%% %6dx" % (dur(k["total_ns"]), 100.0 * k["total_ns"] / span, k["count"])
    if not any(l.startswith(" " + want) for l in lines):
        print("no row %r" % want, file=sys.stderr)
        bad = 1
sys.exit(bad)
PY

finish
