#!/bin/sh
# Golden checks of --report on generated FSDP2 traces: the injected slow
# step, stall, exposed all-gather and straggler are found where the
# generator's manifest says, step GPU extents match it to the nanosecond, and
# the window options, MFU flags and CSV output behave.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

[ -n "$PYTHON3" ] || skip_all "python3 is needed to read the reports"
"$GEN_TRACE" --ranks=2 --seed=1 --out="$tmp/run" --manifest="$tmp/manifest.json" >/dev/null ||
	bail "gen-trace failed"
m=$tmp/manifest.json

"$GANTTY" --report --format=json -q "$tmp/run" >"$tmp/all.json"
check "report of the generated run" test $? -eq 0

# py NAME CODE: runs CODE with rep (the report), man (the manifest) loaded.
py() {
	name=$1 code=$2 rep=${3:-$tmp/all.json}
	check "$name" "$PYTHON3" -c "
import json, sys
rep = json.load(open(sys.argv[1])); man = json.load(open(sys.argv[2]))
ranks = {r['rank']: r for r in rep['ranks']}
$code" "$rep" "$m"
}

py "step GPU extents equal the manifest" '
for pr in man["per_rank"]:
    got = [(s["number"], s["gpu_start_ns"], s["gpu_end_ns"]) for s in ranks[pr["rank"]]["steps"]]
    want = [(s["number"], s["gpu_start_ns"], s["gpu_end_ns"]) for s in pr["steps"]]
    assert got == want, (got, want)'
py "the slow step is the only outlier" '
for r in ranks.values():
    out = [s["number"] for s in r["steps"] if s["outlier"]]
    assert out == [man["slow_step"]["number"]], out'
py "busy + idle = window, exposed = comm - overlap" '
for r in ranks.values():
    g, w = r["gpu"], r["window"]
    assert g["busy_ns"] + g["idle_ns"] == w["end_ns"] - w["start_ns"]
    assert g["exposed_comm_ns"] == g["comm_ns"] - g["overlap_ns"]
    ib = r["idle_breakdown"]
    assert ib["host_wait_ns"] + ib["kernel_wait_ns"] + ib["other_ns"] == g["idle_ns"], ib'
py "cross_rank: every collective matched, the straggler named" '
x = rep["cross_rank"]
assert x["straggler"]["rank"] == man["straggler_rank"], x["straggler"]
assert x["collectives"]["unmatched"] == 0 and x["collectives"]["matched"] > 0, x["collectives"]
assert [s["number"] for s in x["steps"]] == list(range(10, 18))
for s in x["steps"]:
    t = [v for v in s["time_ns"] if v is not None]
    assert len(t) == 2 and s["spread_ns"] == max(t) - min(t), s
worst = x["collectives"]["worst"]
assert all(a["skew_ns"] >= b["skew_ns"] for a, b in zip(worst, worst[1:]))'
py "the straggler waits least in NCCL" '
s = man["straggler_rank"]
assert all(ranks[s]["gpu"]["comm_ns"] < r["gpu"]["comm_ns"] for k, r in ranks.items() if k != s)'
py "the injected all-gather is the worst own exposed forward layer of its step" '
x = man["exposed_allgather"]
r = ranks[x["rank"]]
fwd = [l for l in r["layers"] if l["step"] == x["step"] and l["phase"] == "forward"]
worst = max(fwd, key=lambda l: l["own_exposed_comm_ns"])
assert (worst["name"], worst["phase"]) == (x["layer"], x["phase"]), worst
assert abs(worst["own_exposed_comm_ns"] - x["exposed_ns"]) <= x["exposed_ns"] // 20, (worst, x)'
py "layers come in execution order, forward then backward" '
for r in ranks.values():
    starts = [l["cpu_start_ns"] for l in r["layers"]]
    assert starts == sorted(starts)
    s12 = [(l["name"], l["phase"]) for l in r["layers"] if l["step"] == 12]
    assert s12[:4] == [("layers.%d" % i, "forward") for i in range(4)], s12
    assert s12[4:] == [("layers.%d" % i, "backward") for i in (3, 2, 1, 0)], s12'


"$GANTTY" --report --format=json -q --step=13 --rank=0 "$tmp/run" >"$tmp/step.json"
check "--step=13 --rank=0" test $? -eq 0
py "the stall is the largest gap of its step" '
assert len(rep["ranks"]) == 1 and rep["ranks"][0]["rank"] == 0
r = rep["ranks"][0]; x = man["stall"]
assert x["step"] == 13 and rep["step"] == 13
s13 = [s for s in man["per_rank"][0]["steps"] if s["number"] == 13][0]
assert (r["window"]["start_ns"], r["window"]["end_ns"]) == (s13["gpu_start_ns"], s13["gpu_end_ns"])
assert r["gaps"]["largest"] == {"start_ns": x["gap_start_ns"], "dur_ns": x["gap_ns"]}, r["gaps"]["largest"]
assert r["gaps"]["top"][1]["dur_ns"] == x["next_largest_gap_ns"], r["gaps"]["top"][:2]
assert [s["number"] for s in r["steps"]] == [13]' "$tmp/step.json"

"$GANTTY" --report --format=json -q --window=100ms:150ms "$tmp/run" >"$tmp/win.json"
check "--window" test $? -eq 0
py "--window is absolute from the earliest event" '
w = rep["window"]; t0 = rep["trace_start_ns"]
assert (w["start_ns"], w["end_ns"]) == (t0 + 100000000, t0 + 150000000), w
for r in rep["ranks"]:
    assert r["window"] == w
    assert r["gpu"]["busy_ns"] + r["gpu"]["idle_ns"] == 50000000
    for s in r["steps"]:
        assert s["start_ns"] < w["end_ns"] and s["end_ns"] > w["start_ns"]' "$tmp/win.json"

F=$(sed -n 's/.*"op_flops_per_step": \([0-9]*\).*/\1/p' "$m")
"$GANTTY" --report --format=json -q --flops-per-step="$F" "$tmp/run" >"$tmp/mfu.json"
py "MFU from --flops-per-step" '
for r in rep["ranks"]:
    w = r["window"]["end_ns"] - r["window"]["start_ns"]
    want = len(r["steps"]) * man["op_flops_per_step"] / 2 / (w * 1e-9 * 989.4e12)
    assert r["mfu"]["source"] == "model", r["mfu"]
    assert abs(r["mfu"]["value"] - want) < 1e-4, (r["mfu"], want)' "$tmp/mfu.json"
py "MFU from op flops without model flags" '
for r in ranks.values():
    assert r["mfu"]["source"] == "op_flops" and r["mfu"]["value"] > 0, r["mfu"]
    assert r["mfu"]["peak_tflops"] > 900, r["mfu"]'

"$GANTTY" --report --format=csv -q "$tmp/run" >"$tmp/all.csv"
check "CSV: 16 steps then 128 layers" "$PYTHON3" -c '
import sys
steps, layers = open(sys.argv[1]).read().split("\n\n")
s, l = steps.strip().split("\n"), layers.strip().split("\n")
assert s[0].startswith("rank,device,step,number,") and len(s) == 1 + 16, len(s)
assert l[0].startswith("rank,device,layer,phase,") and len(l) == 1 + 2 * 8 * 8, len(l)' "$tmp/all.csv"

LC_ALL=C "$GANTTY" --render --width=140 --height=40 "$tmp/run" >"$tmp/frame.txt"
check "the viewer's panel names the straggler rank" grep -q "ranks 2, straggler rank $(sed -n 's/.*"straggler_rank": \([0-9]*\).*/\1/p' "$m")" "$tmp/frame.txt"
check "and the worst arrival skew in view" grep -q "worst skew in view" "$tmp/frame.txt"

# More than 8 ranks: the viewer starts in the overview, one bubble lane each.
"$GEN_TRACE" --ranks=9 --seed=2 --steps=6 --layers=2 --no-inject --out="$tmp/nine" >/dev/null
LC_ALL=C "$GANTTY" --render --width=120 --height=30 "$tmp/nine" >"$tmp/nine.txt"
check "overview: the current rank's bubble lane is marked" grep -q '^>.rank 0 d0 ' "$tmp/nine.txt"
check "overview: all nine ranks on one screen" grep -q '^ .rank 8 d0 ' "$tmp/nine.txt"
check "overview: no per-stream lanes" test "$(grep -c 'compute s7' "$tmp/nine.txt")" -eq 0

# --align=collective: rank 1's clock 5 ms ahead is found and removed exactly
# (the generator's collectives end at the same ns on every rank).
mkdir "$tmp/skewed"
cp "$tmp/run/rank-0.json" "$tmp/skewed/"
"$PYTHON3" -c '
import re, sys
t = open(sys.argv[1]).read()
def add(m):
    ns = int(m.group(2)) * 1000 + int(m.group(3)) + 5000000
    return "%s%d.%03d" % (m.group(1), ns // 1000, ns % 1000)
open(sys.argv[2], "w").write(re.sub(r"(\"ts\": )(\d+)\.(\d{3})", add, t))
' "$tmp/run/rank-1.json" "$tmp/skewed/rank-1.json"
"$GANTTY" --report --format=json -q --align=collective "$tmp/skewed" >"$tmp/aligned.json"
py "--align=collective removes a 5 ms clock offset exactly" '
x = rep["cross_rank"]
assert x["alignment"] == {"mode": "collective", "offsets_ns": [0, -5000000], "unaligned": 0}, x["alignment"]
for pr in man["per_rank"]:
    got = [(s["number"], s["gpu_start_ns"], s["gpu_end_ns"]) for s in ranks[pr["rank"]]["steps"]]
    want = [(s["number"], s["gpu_start_ns"], s["gpu_end_ns"]) for s in pr["steps"]]
    assert got == want, (pr["rank"], got[:1], want[:1])' "$tmp/aligned.json"
"$GANTTY" --report --format=json -q "$tmp/skewed" >"$tmp/unaligned.json"
py "without --align the offset shows up as skew" '
assert rep["cross_rank"]["alignment"] is None
assert rep["cross_rank"]["collectives"]["worst"][0]["skew_ns"] > 4000000' "$tmp/unaligned.json"

# Eight ranks, rank 5 the straggler, rank 3's clock 2.345678 ms ahead and
# rank 6's 0.7 ms behind: the straggler is named and --align recovers both
# offsets within a microsecond.
"$GEN_TRACE" --ranks=8 --seed=4 --steps=6 --layers=2 --straggler=5 \
    --out="$tmp/eight" --manifest="$tmp/eight.json" >/dev/null
for r in 3 6; do
	"$PYTHON3" -c '
import re, sys
off = int(sys.argv[3])
t = open(sys.argv[1]).read()
def add(m):
    ns = int(m.group(2)) * 1000 + int(m.group(3)) + off
    return "%s%d.%03d" % (m.group(1), ns // 1000, ns % 1000)
open(sys.argv[2], "w").write(re.sub(r"(\"ts\": )(\d+)\.(\d{3})", add, t))
' "$tmp/eight/rank-$r.json" "$tmp/eight/shifted.json" "$([ $r = 3 ] && echo 2345678 || echo -700000)"
	mv "$tmp/eight/shifted.json" "$tmp/eight/rank-$r.json"
done
"$GANTTY" --report --format=json -q --align=collective "$tmp/eight" >"$tmp/eight-aligned.json"
py "8 ranks: --align=collective recovers both offsets within 1 us" '
off = rep["cross_rank"]["alignment"]["offsets_ns"]
want = [0, 0, 0, -2345678, 0, 0, 700000, 0]
assert len(off) == 8 and all(abs(a - b) <= 1000 for a, b in zip(off, want)), off
assert rep["cross_rank"]["alignment"]["unaligned"] == 0' "$tmp/eight-aligned.json"
py "8 ranks: the straggler rank 5 is named" '
man = json.load(open("'"$tmp/eight.json"'"))
assert man["straggler_rank"] == 5, man["straggler_rank"]
assert rep["cross_rank"]["straggler"]["rank"] == 5, rep["cross_rank"]["straggler"]' "$tmp/eight-aligned.json"
"$GANTTY" --report --format=json -q "$tmp/eight" >"$tmp/eight-raw.json"
py "8 ranks: without --align the offset is the worst skew" '
assert rep["cross_rank"]["collectives"]["worst"][0]["skew_ns"] >= 2345678' "$tmp/eight-raw.json"

"$GANTTY" --report --step=99 "$tmp/run" >"$tmp/out" 2>"$tmp/err"
check "a missing step is reported, not fatal" grep -q "no ProfilerStep#99" "$tmp/err"
"$GANTTY" --report --rank=7 "$tmp/run" >"$tmp/out" 2>"$tmp/err"
check "a missing rank fails" test $? -eq 1
"$GANTTY" --report --window=5ms "$tmp/run" >"$tmp/out" 2>"$tmp/err"
check "a window without ':' is a usage error" test $? -eq 2
"$GANTTY" --report --model-params=7B "$tmp/run" >"$tmp/out" 2>"$tmp/err"
check "--model-params needs --tokens-per-step" test $? -eq 2

finish
