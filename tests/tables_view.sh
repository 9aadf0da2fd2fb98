#!/bin/sh
# tests/tables_view.sh: the tables of steps (T) and layers (L), the slowest
# step (O) and the longest kernel (K) in the viewer, as a user reaches them,
# against the report and the trace itself.  On the bundled example: T lists
# the 8 steps, the slowest (the report's outlier) first; Right sorts by
# compute; Enter goes to a step.  On the mi300 ResNet DDP trace the task of
# issue 35, "find the worst backward layer of the slowest step and the op
# that launched its worst kernel", in five keys from the first screen: O
# (the report's slowest step), L (its 231 layers, the report's worst own
# exposed layer of that step first), Enter, K (the layer's longest kernel,
# found here in the trace's JSON: the kernels of its GPU extent whose
# launch lies in its CPU span) and u (the innermost cpu_op around that
# launch, found here too).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

[ -n "$PYTHON3" ] || skip_all "no python3"
. "$top_srcdir/tests/tmuxlib.sh"
title_text="  window +"
hint_text="? help"
T new-session -d -s gantty -x 150 -y 45 "cat" || skip_all "cannot start a tmux server"

"$GANTTY" --report --format=json -q "$example" >"$tmp/ex.json"
slow=$("$PYTHON3" -c '
import json, sys
s = json.load(open(sys.argv[1]))["ranks"][0]["steps"]
print(max(s, key=lambda x: (x["end_ns"] - x["start_ns"], -x["number"]))["number"])' "$tmp/ex.json")
check "the example's slowest step is its outlier, 15" [ "$slow" = 15 ]

start ex 150x45 -- "'$example'"
wait_for ex "slowest #15 (O)" "the step strip names the slowest step and its key"
send ex T
wait_for ex "steps of " "T: the steps table"
wait_for ex "(8), by time" "... of the 8 steps, by time"
if poll sh -c "tmux -S '$sock' capture-pane -p -t ex | sed -n 4p | grep -q '^ #15  << outlier'"
then pass "... the slowest, the outlier #15, first"; else
	fail "... the slowest first"; line ex 4 | sed 's/^/# /'; fi
send ex Right
wait_for ex "by compute" "Right: sorted by compute"
send ex Left Left
wait_for ex "by step number" "Left Left: by step number"
if poll sh -c "tmux -S '$sock' capture-pane -p -t ex | sed -n 4p | grep -q '^ #10 '"
then pass "... #10 first"; else fail "... #10 first"; line ex 4 | sed 's/^/# /'; fi
send ex PPage Down Enter
wait_for ex "selected step 11: " "PgUp Down Enter: the lanes on step 11, selected (the cursor kept #15 through the sorts)"
send ex T
if poll sh -c "tmux -S '$sock' capture-pane -p -t ex | grep -q '^.#11 '"
then pass "T again: the selected step's row is marked"; else
	fail "T again: the selected step's row is marked"; fi
send ex T
wait_for ex "selected step 11: " "T: the lanes again"
send ex q
restored ex "q"

corpus=${GANTTY_CORPUS:-$top_srcdir/../shared/corpus}
[ -d "$corpus" ] || { skip "the mi300 ResNet task" "no corpus at $corpus"; finish; }
resnet=$corpus/tracelens/tests/traces/mi300/resnet_act_checkpoint.json.gz
"$GANTTY" --report --format=json -q "$resnet" >"$tmp/resnet.json" 2>/dev/null
# The oracle, from the report and the trace: the slowest step; its layer
# of the largest own exposed comm (the first of equals); that layer's longest
# GPU activity among those launched in its CPU span; the innermost cpu_op
# on the launch's thread around the launch.
"$PYTHON3" - "$tmp/resnet.json" "$resnet" >"$tmp/want" <<'PY' || fail "the oracle"
import gzip, json, sys
rep = json.load(open(sys.argv[1]))["ranks"][0]
steps = rep["steps"]
slow = max(steps, key=lambda s: (s["end_ns"] - s["start_ns"], -s["number"]))
layers = [l for l in rep["layers"] if l["step"] == slow["number"]]
worst = max(layers, key=lambda l: (l["own_exposed_comm_ns"], -layers.index(l)))
ev = json.load(gzip.open(sys.argv[2]))["traceEvents"]
ns = lambda us: round(float(us) * 1000)
gpu = [e for e in ev if e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]
launch = {}
for e in ev:
    if e.get("ph") == "X" and e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in e.get("args", {}):
        launch[e["args"]["correlation"]] = e
best = None
for k in gpu:
    t = ns(k["ts"])
    if not (worst["gpu_start_ns"] <= t < worst["gpu_end_ns"]):
        continue
    l = launch.get(k.get("args", {}).get("correlation"))
    if l is None or not (worst["cpu_start_ns"] <= ns(l["ts"]) <= worst["cpu_end_ns"]):
        continue
    if best is None or ns(k["dur"]) > ns(best["dur"]):
        best = k
l = launch[best["args"]["correlation"]]
ops = [e for e in ev if e.get("ph") == "X" and e.get("cat") == "cpu_op" and e["tid"] == l["tid"] and e["pid"] == l["pid"]
       and ns(e["ts"]) <= ns(l["ts"]) and ns(e["ts"]) + ns(e["dur"]) >= ns(l["ts"]) + ns(l["dur"])]
op = min(ops, key=lambda e: ns(e["dur"]))
print(slow["number"])
print(worst["name"] + " " + {"forward": "fwd", "backward": "bwd"}.get(worst["phase"], "span"))
print(ns(best["dur"]))
print(op["name"])
print(ns(op["dur"]))
PY
want_step=$(sed -n 1p "$tmp/want"); want_layer=$(sed -n 2p "$tmp/want")
want_kdur=$(sed -n 3p "$tmp/want"); want_op=$(sed -n 4p "$tmp/want"); want_opdur=$(sed -n 5p "$tmp/want")
echo "# want: step $want_step, layer $want_layer, kernel of $want_kdur ns, op $want_op ($want_opdur ns)"
check "the worst layer of the slowest step is a backward layer" \
    sh -c "echo '$want_layer' | grep -q ' bwd$'"

# dur_is WIN PATTERN NS: the screen's selected-event line matching PATTERN
# (with its duration as group 1, "8.933 ms") says NS within 0.1%.
dur_is() {
	T capture-pane -p -t "$1" >"$tmp/screen" 2>/dev/null &&
	"$PYTHON3" - "$tmp/screen" "$2" "$3" <<'PY'
import re, sys
m = re.search(sys.argv[2], open(sys.argv[1]).read())
if not m:
    sys.exit(1)
v, u = m.group(1).split()
got = float(v) * {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[u]
sys.exit(0 if abs(got - int(sys.argv[3])) <= 0.001 * int(sys.argv[3]) else 1)
PY
}

start rn 150x45 -- "'$resnet'"
keys=0
send rn O; keys=$((keys + 1))
wait_for rn "the slowest of 3 steps: #$want_step" "O: the report's slowest step"
send rn L; keys=$((keys + 1))
wait_for rn "layers of step #$want_step (231), by own exp" "L: the step's 231 layers by own exposed comm"
if poll sh -c "tmux -S '$sock' capture-pane -p -t rn | sed -n 4p | grep -q '^ $want_layer '"
then pass "... the report's worst layer of that step first: $want_layer"; else
	fail "... the report's worst layer first"; line rn 4 | sed 's/^/# /'; fi
send rn Enter; keys=$((keys + 1))
wait_for rn "selected ${want_layer% bwd} backward (step $want_step)" "Enter: the layer, selected"
send rn K; keys=$((keys + 1))
wait_for rn "the longest kernel of ${want_layer% bwd} backward" "K: the layer's longest kernel"
if poll dur_is rn ' selected [^:]+: comm, ([0-9.]+ [mun]?s) at ' "$want_kdur"; then
	pass "... the trace's longest kernel launched in the layer"; else
	fail "... the trace's longest kernel launched in the layer"; sed 's/^/# /' "$tmp/screen"; fi
send rn u; keys=$((keys + 1))
wait_for rn " selected $want_op: " "u: the op that launched it, $want_op"
if poll dur_is rn " selected $want_op: ([0-9.]+ [mun]?s) at " "$want_opdur"; then
	pass "... the innermost op around the launch, as the trace has it"; else
	fail "... the innermost op around the launch"; sed 's/^/# /' "$tmp/screen"; fi
check "the task took $keys keys (at most 6)" [ "$keys" -le 6 ]
# D with no baseline marked: the slowest step against the median one, as the
# panel's "vs median step" (the report's step times: the middle of 3)
median=$("$PYTHON3" -c '
import json, sys
s = json.load(open(sys.argv[1]))["ranks"][0]["steps"]
print(sorted(s, key=lambda x: x["end_ns"] - x["start_ns"])[len(s) // 2]["number"])' "$tmp/resnet.json")
send rn D
wait_for rn "A = ProfilerStep#$median (the median), B = ProfilerStep#$want_step (the step in view)" \
    "D, no baseline: the median step #$median against the slowest #$want_step"
check "... its step row" grep -q "^ #$median -> #$want_step " "$tmp/screen"
send rn D
send rn q
restored rn "q"
finish
