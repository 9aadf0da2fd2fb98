#!/bin/sh
# tests/diffverdict.sh: a --diff to trust (issue 35).  It warns when A and B
# are unlike runs (GPU, world size, step count), pairs steps by number when
# both have them (else by position, and says which), and ends with a verdict
# that --fail-above turns into exit status 3 for CI.  On the hta trace_diff
# pair (an A100 rank of 8 against a V100 rank of 2, steps #1009-#1014 on both)
# the verdict is checked against the two traces' own --report JSON: the sum
# of the CPU spans of the steps both have.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

ex=$top_srcdir/share/example.json.gz
expect 0 "--diff of the example with itself" "$GANTTY" --diff -q --fail-above=0 "$ex" "$ex"
check "... no warning: they are alike" sh -c "! grep -q 'A and B differ' '$tmp/out'"
file_has "$tmp/out" "steps (paired by number; B - A):" "... its steps pair by number"
file_has "$tmp/out" "verdict: B - A +0.0% of A's time over the 8 steps both have" "... the verdict"
file_has "$tmp/out" ": within 0%" "... within --fail-above=0"

expect 2 "--fail-above without --diff is a usage error" "$GANTTY" --report --fail-above=5 "$ex"
file_has "$tmp/err" "--fail-above goes with --diff" "... that says so"
for bad in -1 abc 5%% 2e6 nan; do
	expect 2 "--fail-above=$bad is a usage error" "$GANTTY" --diff --fail-above="$bad" "$ex" "$ex"
done
file_has "$tmp/err" "--fail-above takes a percentage" "... naming what it takes"

# generated traces whose step numbers do not meet: paired by position
g=$tmp/gen
"$GEN_TRACE" --ranks=1 --steps=3 --out="$g" >/dev/null 2>&1 || bail "gen-trace failed"
sed 's/ProfilerStep#1/ProfilerStep#9/g' "$g/rank-0.json" >"$tmp/renumbered.json"   # #90-#92
expect 0 "--diff of the example (#10-#17) and a generated job (#90-#92)" "$GANTTY" --diff -q \
    "$ex" "$tmp/renumbered.json"
file_has "$tmp/out" "steps (paired by position, no step number in both; B - A):" \
    "steps without a common number pair by position, and it says so"
file_has "$tmp/out" "warning: A and B differ: " "unlike runs: a warning"
file_has "$tmp/out" "8 vs 3 steps" "... naming the step counts"
file_has "$tmp/out" "  #10     #90 " "... #10 meets #90"

corpus=${GANTTY_CORPUS:-$top_srcdir/../shared/corpus}
[ -d "$corpus" ] || { skip "the hta trace_diff pair" "no corpus at $corpus"; finish; }
[ -n "$PYTHON3" ] || { skip "the hta trace_diff pair" "no python3"; finish; }
a=$corpus/hta/tests/data/trace_diff/control/control.json.gz
b=$corpus/hta/tests/data/trace_diff/test/test.json.gz
"$GANTTY" --report --format=json -q "$a" >"$tmp/a.json"
"$GANTTY" --report --format=json -q "$b" >"$tmp/b.json"
want=$("$PYTHON3" -c '
import json, sys
def steps(p):
    return {s["number"]: s["end_ns"] - s["start_ns"] for s in json.load(open(p))["ranks"][0]["steps"]}
a, b = steps(sys.argv[1]), steps(sys.argv[2])
both = sorted(set(a) & set(b))
sa, sb = sum(a[n] for n in both), sum(b[n] for n in both)
print("%d %d %d %+.1f" % (len(both), sa, sb, 100.0 * (sb - sa) / sa))' "$tmp/a.json" "$tmp/b.json")
set -- $want
echo "# the oracle: $1 steps in both, $2 -> $3 ns, $4%"
expect 3 "hta pair, --fail-above=5%: B is slower, exit 3" "$GANTTY" --diff -q --fail-above=5% "$a" "$b"
file_has "$tmp/out" "warning: A and B differ: GPU NVIDIA A100-PG509-200 vs Tesla V100-SXM2-16GB; world size 8 vs 2" \
    "... the warning names the GPUs and the world sizes"
file_has "$tmp/out" "steps (paired by number; B - A):" "... steps paired by number"
file_has "$tmp/out" "  #1012   #1012 " "... #1012 meets #1012"
tr -s '\n ' '  ' <"$tmp/out" >"$tmp/flat"
file_has "$tmp/flat" "verdict: B - A $4% of A's time over the $1 steps both have" \
    "... the verdict is the traces' own step times"
file_has "$tmp/flat" "REGRESSION, above 5%" "... and says REGRESSION"
expect 0 "--fail-above=100%: within, exit 0" "$GANTTY" --diff -q --fail-above=100% "$a" "$b"
expect 0 "B against A the other way round: faster, exit 0" "$GANTTY" --diff -q --fail-above=5 "$b" "$a"
expect 3 "the JSON form exits 3 too" "$GANTTY" --diff --format=json -q --fail-above=5 "$a" "$b"
check "... its verdict and keys" "$PYTHON3" -c '
import json, sys
d = json.load(open(sys.argv[1])); v = d["verdict"]
n, sa, sb, pct = sys.argv[2:]
assert d["steps_paired"] == "number", d["steps_paired"]
assert d["unlike"].startswith("GPU NVIDIA A100-PG509-200 vs Tesla V100-SXM2-16GB"), d["unlike"]
assert (v["over"], v["steps"], v["a_ns"], v["b_ns"]) == ("steps", int(n), int(sa), int(sb)), v
assert abs(v["change_pct"] - float(pct)) < 0.05 and v["fail_above_pct"] == 5 and v["regression"], v
pairs = [(s["a_step"], s["b_step"]) for s in d["steps"]]
assert all(x == y for x, y in pairs), pairs' "$tmp/out" "$@"
finish
