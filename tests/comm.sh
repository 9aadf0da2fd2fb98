#!/bin/sh
# Communication as real jobs have it (SPEC 2, 3): kernels of other libraries
# than NCCL count as communication (a DeepEP-like fixture, the B200 corpus
# trace's symmetric-memory all-reduce), --comm-pattern adds names, compute
# kernels with "reduce" in their names stay compute; the DDP ResNet corpus
# trace (no FSDP) gets backward layers that own its exposed all-reduce, each
# all-reduce once, and its rankings name no model-wide layer; and
# on generated jobs
# with known message sizes and durations (tests/commjob.py) every
# collective's bytes, algbw and busbw, the window's time-weighted busbw and
# each rank's busbw from the last arrival equal an independent computation
# to 0.1%, a rank pair with a 4x slower link raises slow_collective naming
# those two ranks, from the traces and from per-rank reports alike, a job
# whose every collective is slow raises it for the whole job, and a clean
# job raises none; a 4-byte all-reduce's bandwidths do not print as 0.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

[ -n "$PYTHON3" ] || skip_all "no python3"

# ---- a DeepEP-like trace ---------------------------------------------------
"$PYTHON3" - "$tmp/deepep.json" <<'PY' || bail "cannot write the DeepEP fixture"
import json, sys
ev, corr = [], [0]
def launch(ts, name, kts, kdur, stream):
    corr[0] += 1
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel",
               "pid": 100, "tid": 1, "ts": ts, "dur": 2, "args": {"correlation": corr[0]}})
    ev.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": stream,
               "ts": kts, "dur": kdur,
               "args": {"device": 0, "stream": stream, "correlation": corr[0]}})
# MoE layer: dispatch, expert GEMM, combine, on DeepEP's own stream 30
launch(10, "void deep_ep::intranode::dispatch<8, 768, 8192>(int4*, float*, int*)", 100, 300, 30)
launch(20, "void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm>(Params)", 420, 500, 7)
launch(30, "void deep_ep::intranode::combine<__nv_bfloat16, 8, 768>(int4*)", 950, 250, 30)
launch(40, "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4> >(at::native::ReduceOp<float>)", 1250, 100, 7)
launch(50, "void dpsk::ep::internode::notify_dispatch<false, 4>(int const*, long*, int)", 1400, 50, 30)
launch(60, "my_p2p_copy_kernel", 1500, 40, 31)
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
"$GANTTY" --report --format=json -q "$tmp/deepep.json" >"$tmp/deepep.out" 2>&1 ||
    fail "--report of the DeepEP-like trace"
check "DeepEP kernels are communication: comm 600 us, deepep 3, and the GEMM, the
reduce_kernel and an unknown kernel stay compute" \
    "$PYTHON3" - "$tmp/deepep.out" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["ranks"][0]
cls = {k["name"].split("<")[0]: k["class"] for k in r["kernels_top"]}
ok = (r["gpu"]["comm_ns"] == 600000 and r["comm_classes"]["deepep"] == 3 and
      r["comm_classes"]["nccl"] == 0 and cls["void at::native::reduce_kernel"] == "compute" and
      cls["void cutlass::Kernel2"] == "compute" and cls["my_p2p_copy_kernel"] == "compute")
print(r["gpu"]["comm_ns"], r["comm_classes"], cls, file=sys.stderr)
sys.exit(0 if ok else 1)
PY
"$GANTTY" --report --format=json -q --comm-pattern='^my_p2p' "$tmp/deepep.json" \
    >"$tmp/pattern.out" 2>&1 || fail "--report --comm-pattern"
check "--comm-pattern adds a kernel: comm_pattern 1, comm 640 us" \
    "$PYTHON3" -c '
import json, sys
r = json.load(open(sys.argv[1]))["ranks"][0]
sys.exit(0 if r["comm_classes"]["comm_pattern"] == 1 and r["gpu"]["comm_ns"] == 640000 else 1)
' "$tmp/pattern.out"
expect 2 "a --comm-pattern that is no regular expression is a usage error" \
    "$GANTTY" --report -q --comm-pattern='(' "$tmp/deepep.json"
file_has "$tmp/err" "--comm-pattern '(':" "the message names the option and the pattern"

# ---- the B200 corpus trace -------------------------------------------------
corpus=${GANTTY_CORPUS:-$top_srcdir/../shared/corpus}
b200=$corpus/tracelens/tests/traces/b200/eager_trace.json.gz
if [ -f "$b200" ]; then
	"$GANTTY" --report --format=json -q "$b200" >"$tmp/b200.out" 2>&1
	check "the B200 trace's symmetric-memory all-reduce is communication (>= 2 ms)" \
	    "$PYTHON3" -c '
import json, sys
r = json.load(open(sys.argv[1]))["ranks"][0]
print(r["gpu"]["comm_ns"], r["comm_classes"], file=sys.stderr)
sys.exit(0 if r["gpu"]["comm_ns"] >= 2000000 and r["comm_classes"]["symm_mem"] >= 73 else 1)
' "$tmp/b200.out"
else
	skip "the B200 trace's all-reduce is communication" "no corpus at $corpus"
fi
resnet=$corpus/tracelens/tests/traces/mi300/resnet_act_checkpoint.json.gz
if [ -f "$resnet" ]; then
	"$GANTTY" --report --format=json -q "$resnet" >"$tmp/resnet.out" 2>&1
	check "the DDP ResNet trace (no FSDP) has backward layers, and its exposed
all-reduce is their own exposed comm: each all-reduce owned once, by the
innermost layer around its launch, so the backward layers' own exposed adds
up to the all-reduce's exposed time; the worst is a Conv2d backward (the DDP
bucket's real owner), not DistributedDataParallel_0 or ResNet_0" \
	    "$PYTHON3" -c '
import json, sys
r = json.load(open(sys.argv[1]))["ranks"][0]
bwd = [l for l in r["layers"] if l["phase"] == "backward"]
top = [l for l in bwd if l["name"] == "DistributedDataParallel_0"]
ar = [f for f in r["findings"] if f["kind"] == "exposed_comm"][0]["evidence"]["all_reduce_exposed_ns"]
own = sum(l["own_exposed_comm_ns"] for l in bwd)
worst = max(r["layers"], key=lambda l: l["own_exposed_comm_ns"])
print(len(bwd), len(top), own, ar, worst["name"], worst["phase"], file=sys.stderr)
sys.exit(0 if len(bwd) > 50 and len(top) == 3 and abs(own - ar) <= 0.01 * ar
         and worst["phase"] == "backward" and worst["name"].startswith("Conv2d_") else 1)
' "$tmp/resnet.out"
	"$GANTTY" --report -q "$resnet" >"$tmp/resnet.txt" 2>&1
	check "... the rankings (the finding's worst layers and ranges, the text
report's table) name no model-wide layer and no range twice" \
	    "$PYTHON3" -c '
import json, sys
r = json.load(open(sys.argv[1]))["ranks"][0]
f = [f for f in r["findings"] if f["kind"] == "exposed_comm"][0]
rs = [(x["start_ns"], x["end_ns"]) for x in f["ranges"]]
text = open(sys.argv[2]).read()
table = text.split("worst own exposed comm:")[1].split("top kernels:")[0]
bad = [w for w in ("DistributedDataParallel_0", "ResNet_0") if w in f["summary"] or w in table]
print(rs, bad, file=sys.stderr)
sys.exit(0 if len(rs) == len(set(rs)) and len(rs) > 0 and not bad else 1)
' "$tmp/resnet.out" "$tmp/resnet.txt"
else
	skip "the DDP ResNet trace has backward layers" "no corpus at $corpus"
fi

# ---- bandwidth on generated jobs -------------------------------------------
"$PYTHON3" "$top_srcdir/tests/commjob.py" "$tmp/clean" --seed=3 ||
    bail "commjob.py (clean)"
"$PYTHON3" "$top_srcdir/tests/commjob.py" "$tmp/slow" --seed=3 --slow-pair=1 ||
    bail "commjob.py (slow pair)"
for job in clean slow; do
	"$GANTTY" --report --format=json -q "$tmp/$job"/rank-*.json \
	    >"$tmp/$job.out" 2>"$tmp/$job.err" || fail "--report of the $job job"
done
check "every collective's bytes, algbw and busbw, each window's time-weighted
busbw and each rank's busbw from the last arrival equal the job's own to 0.1%" \
    "$PYTHON3" - "$tmp/clean/manifest.json" "$tmp/clean.out" \
    "$tmp/slow/manifest.json" "$tmp/slow.out" <<'PY'
import json, sys
def close(a, b):
    return a is not None and abs(a - b) <= 1e-3 * abs(b)
bad = 0
for man, out in ((sys.argv[1], sys.argv[2]), (sys.argv[3], sys.argv[4])):
    want = json.load(open(man))["collectives"]
    doc = json.load(open(out))
    by = {(c["rank"], c["start_ns"]): c for c in want}
    n = 0
    for r in doc["ranks"]:
        for c in r["collectives"]:
            w = by[(r["rank"], c["start_ns"])]
            n += 1
            if not (c["bytes"] == w["bytes"] and close(c["algbw_gbps"], w["algbw_gbps"])
                    and close(c["busbw_gbps"], w["busbw_gbps"])):
                bad += 1
                print("collective", r["rank"], c, w, file=sys.stderr)
    if n != len(want):
        bad += 1
        print("collectives", n, "of", len(want), file=sys.stderr)
    # time-weighted busbw per rank and type, from the manifest
    for r in doc["ranks"]:
        for row in r["comm_bandwidth"]:
            mine = [w for w in want if w["rank"] == r["rank"] and w["type"] == row["type"]]
            tw = sum(w["busbw_gbps"] * (w["end_ns"] - w["start_ns"]) for w in mine) / \
                 sum(w["end_ns"] - w["start_ns"] for w in mine)
            if not (row["count"] == len(mine) and row["bytes"] == sum(w["bytes"] for w in mine)
                    and close(row["busbw_gbps"], tw)):
                bad += 1
                print("window", r["rank"], row, tw, file=sys.stderr)
    # each rank's median busbw from the last arrival
    for p in doc["cross_rank"]["participants"]:
        v = sorted(w["link_busbw_gbps"] for w in want if w["rank"] == p["rank"])
        med = v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2
        if not close(p["busbw_gbps"], med) or p["bandwidth_collectives"] != len(v):
            bad += 1
            print("participant", p, med, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
check "a rank pair whose collectives take 4x longer raises slow_collective naming
ranks 2 and 3, with ranges on that pair's collectives" \
    "$PYTHON3" -c '
import json, sys
doc = json.load(open(sys.argv[1]))
f = [f for f in doc["cross_rank"]["findings"] if f["kind"] == "slow_collective"]
print([x["summary"] for x in f], file=sys.stderr)
ok = len(f) == 1 and f[0]["summary"].startswith("ranks 2, 3:")
ok = ok and f[0]["evidence"]["slow_ranks"] == 2 and len(f[0]["ranges"]) == 4
sys.exit(0 if ok else 1)
' "$tmp/slow.out"
check "a clean job raises no slow_collective" "$PYTHON3" -c '
import json, sys
doc = json.load(open(sys.argv[1]))
sys.exit(1 if any(f["kind"] == "slow_collective" for f in doc["cross_rank"]["findings"]) else 0)
' "$tmp/clean.out"
"$PYTHON3" "$top_srcdir/tests/commjob.py" "$tmp/net" --seed=3 --busbw=50 ||
    bail "commjob.py (slow network)"
"$GANTTY" --report --format=json -q "$tmp/net"/rank-*.json >"$tmp/net.out" ||
    fail "--report of the slow-network job"
check "a job whose every collective runs at 50 GB/s on H100s (450) raises
slow_collective for the whole job" "$PYTHON3" -c '
import json, sys
doc = json.load(open(sys.argv[1]))
f = [f for f in doc["cross_rank"]["findings"] if f["kind"] == "slow_collective"]
print([x["summary"] for x in f], file=sys.stderr)
sys.exit(0 if len(f) == 1 and f[0]["summary"].startswith("collectives reach 50.0 GB/s")
         and f[0]["evidence"]["expected_busbw_gbps"] == 450 else 1)
' "$tmp/net.out"
mkdir "$tmp/reports"
for f in "$tmp/slow"/rank-*.json; do
	"$GANTTY" --report --format=json -q "$f" >"$tmp/reports/${f##*/}" ||
	    fail "--report of ${f##*/}"
done
"$GANTTY" --reports --report --format=json "$tmp/reports" >"$tmp/reports.out" ||
    fail "--reports of the slow job"
check "per-rank reports read back give the same slow_collective" "$PYTHON3" -c '
import json, sys
a = json.load(open(sys.argv[1]))["cross_rank"]["findings"]
b = json.load(open(sys.argv[2]))["cross_rank"]["findings"]
pick = lambda fs: [f for f in fs if f["kind"] == "slow_collective"]
print(pick(a), pick(b), file=sys.stderr)
sys.exit(0 if pick(a) and pick(a) == pick(b) else 1)
' "$tmp/slow.out" "$tmp/reports.out"
# ---- a 4-byte all-reduce: 0.0004 GB/s, not 0.000 ----------------------------
cat >"$tmp/tiny.json" <<'EOF2'
{"traceEvents": [
 {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
 {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "pid": 0, "tid": 7,
  "ts": 10, "dur": 10, "args": {"device": 0, "stream": 7, "Collective name": "allreduce",
  "Group size": 2, "In msg nelems": 1, "Out msg nelems": 1, "dtype": "Float"}}
]}
EOF2
"$GANTTY" --report --format=json -q "$tmp/tiny.json" >"$tmp/tiny.report.json" ||
    fail "the 4-byte all-reduce's report"
check "a 4-byte all-reduce: every algbw and busbw in the JSON is 4 B / 10 us, none 0" \
    "$PYTHON3" - "$tmp/tiny.report.json" <<'PY'
import json, sys
seen = []
def walk(o):
    if isinstance(o, dict):
        for k, v in o.items():
            if k in ("algbw_gbps", "busbw_gbps") and v is not None:
                seen.append(v)
            walk(v)
    elif isinstance(o, list):
        for v in o:
            walk(v)
walk(json.load(open(sys.argv[1])))
if len(seen) < 3 or any(abs(v - 0.0004) > 1e-9 for v in seen):
    print("bandwidths:", seen); sys.exit(1)
PY
finish
