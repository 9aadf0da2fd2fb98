#!/bin/sh
# Diagnosis end to end: --diff of a trace with itself is all zeros, its
# usage errors, the findings in the JSON and text reports, and (with the
# corpus) findings that real traces must and must not raise.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

example=$top_srcdir/share/example.json.gz

expect 2 "--diff needs two traces" "$GANTTY" --diff "$example"
file_has "$tmp/err" "--diff compares two traces" "the usage error says so"
expect 2 "--diff has no csv" "$GANTTY" --diff --format=csv "$example" "$example"
expect 0 "--diff of a trace with itself" "$GANTTY" --diff "$example" "$example"
file_has "$tmp/out" "exposed comm         98.84 ms     98.84 ms            0" "the text diff shows a zero delta"
"$GANTTY" --format=json --diff "$example" "$example" >"$tmp/self.json"
check "--format before --diff still diffs" grep -q '"kernels"' "$tmp/self.json"
expect 0 "--diff-steps compares two steps of one trace" "$GANTTY" --diff-steps=14:15 "$example"
file_has "$tmp/out" "  #14     #15       71.06 ms  +39.89 ms  +36.26 ms" "the slow step 15 against step 14"
expect 1 "--diff-steps with a missing step" "$GANTTY" --diff-steps=14:99 "$example"
file_has "$tmp/err" "no ProfilerStep#99" "the missing step is named"
expect 2 "--diff-steps needs N:M" "$GANTTY" --diff-steps=14 "$example"
expect 2 "--diff-steps takes one trace" "$GANTTY" --diff-steps=14:15 "$example" "$example"
expect 0 "--compare renders two traces on one axis" "$GANTTY" --render --compare "$example" "$example"
file_has "$tmp/out" "B - A in view: busy 0  compute 0  comm 0  exposed 0  idle 0" "a trace against itself: all zeros"
expect 2 "--compare takes two traces" "$GANTTY" --render --compare "$example"
expect 2 "--compare is not a report" "$GANTTY" --report --compare "$example" "$example"
expect 0 "the JSON report" "$GANTTY" --report --format=json "$example"
file_has "$tmp/out" '"kind": "exposed_comm"' "the example's exposed comm is a finding"
file_has "$tmp/out" '"memory": {"device": 0, "samples": 1104' "the example's memory samples are counted"
expect 0 "the text report" "$GANTTY" --report "$example"
file_has "$tmp/out" "[warning] outlier_step: 1 outlier step; ProfilerStep#15" "the text report names the outlier step"

if [ -n "$PYTHON3" ]; then
	check "the self-diff is all zeros" "$PYTHON3" -c '
import json, sys
d = json.load(open(sys.argv[1]))
def zero(m): return all(v == 0 for v in m.values())
assert zero(d["window"]["delta"])
assert d["steps"] and all(zero(s["delta"]) for s in d["steps"])
assert d["layers"] and all(zero(l["delta"]) and l["a_count"] == l["b_count"] for l in d["layers"])
assert d["kernels"] and all(k["delta_count"] == 0 and k["delta_total_ns"] == 0 for k in d["kernels"])
' "$tmp/self.json"
else
	skip "the self-diff is all zeros" "no python3"
fi

# Generated FSDP2 traces: a clean run raises nothing; the default
# injections (tools/gen-trace's manifest) raise their findings with the
# injected time ranges as evidence.
if [ -n "$PYTHON3" ] && [ -x "$GEN_TRACE" ]; then
	"$GEN_TRACE" --ranks=2 --seed=1 --no-inject --out="$tmp/clean" >/dev/null
	"$GANTTY" --report --format=json -q "$tmp/clean" >"$tmp/clean.json"
	check "a clean generated run raises no finding" "$PYTHON3" -c '
import json, sys
r = json.load(open(sys.argv[1]))["ranks"]
assert len(r) == 2 and all(x["findings"] == [] for x in r), [x["findings"] for x in r]
' "$tmp/clean.json"
	"$GEN_TRACE" --ranks=2 --seed=1 --out="$tmp/inj" --manifest="$tmp/inj.manifest.json" >/dev/null
	"$GANTTY" --report --format=json -q "$tmp/inj" >"$tmp/inj.json"
	check "the injected problems are found, with their evidence" "$PYTHON3" -c '
import json, sys
m = json.load(open(sys.argv[2]))
d = json.load(open(sys.argv[1]))
r = {x["rank"]: {f["kind"]: f for f in x["findings"]} for x in d["ranks"]}
cross = {f["kind"]: f for f in d["cross_rank"]["findings"]}
slow = m["slow_step"]["number"]
for k in r.values():
    f = k["outlier_step"]
    assert f["evidence"]["step"] == slow and f["evidence"]["compute_delta_ns"] > 0, f
    assert "slower compute" in f["summary"], f["summary"]
f = cross["straggler_rank"]
assert f["evidence"]["rank"] == m["straggler_rank"], f
assert all("straggler_rank" not in k for k in r.values()), "per rank: alone or together, the same"
s = m["stall"]
f = r[s["rank"]]["sync_stall"]
g = f["ranges"][0]
assert g["end_ns"] == s["gap_end_ns"] and s["gap_start_ns"] <= g["start_ns"] < s["gap_end_ns"], (g, s)
e = m["exposed_allgather"]
f = r[e["rank"]]["exposed_comm"]
assert f["evidence"]["all_gather_exposed_ns"] >= e["exposed_ns"], f["evidence"]
assert any(x["start_ns"] <= e["comm_start_ns"] and e["comm_end_ns"] <= x["end_ns"] for x in f["ranges"]), f["ranges"]
' "$tmp/inj.json" "$tmp/inj.manifest.json"
else
	skip "the findings of generated traces" "no python3 or gen-trace"
fi

# Real traces: what they must raise, and what they must not.
corpus=${GANTTY_CORPUS:-$top_srcdir/../shared/corpus}
if [ -d "$corpus" ] && [ -n "$PYTHON3" ]; then
	kinds() { "$GANTTY" --report --format=json -q "$@" | "$PYTHON3" -c '
import json, sys
d = json.load(sys.stdin)
fs = [f for r in d["ranks"] for f in r["findings"]] + (d["cross_rank"] or {}).get("findings", [])
print(" ".join(sorted({f["kind"] for f in fs})))'; }
	k=$(kinds "$corpus/kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.pt.trace.json.gz")
	check "ResNet-50 with num_workers=0 waits for its data loader" \
		sh -c "echo '$k' | grep -q dataloader_wait"
	check "ResNet-50 has no attention to fuse" \
		sh -c "! echo '$k' | grep -q attention_unfused"
	k=$(kinds "$corpus"/param/et_replay/tests/inputs/dlrm_kineto/*.json)
	check "the 8-rank DLRM job names a straggler" \
		sh -c "echo '$k' | grep -q straggler_rank"
	k=$(kinds "$corpus/hta/tests/data/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz")
	check "a tiny add benchmark is GPU starved" test "$k" = "gpu_starved"
	k=$(kinds "$corpus/tracelens/tests/traces/mi300/resnet_act_checkpoint.json.gz")
	check "DDP ResNet with exposed all-reduce" test "$k" = "exposed_comm"
elif [ -d "$corpus" ]; then
	skip "the findings of real traces" "no python3"
else
	skip "the findings of real traces" "no corpus at $corpus"
fi

finish
