#!/bin/sh
# tests/whatif.sh: --what-if against the truth.  tools/gen-trace writes a
# job and the same job with one change (the same random numbers, --change
# or --straggler=none); the replay of the unchanged job must be within 2%
# of every step's measured time, each scenario's prediction within 5% of
# the changed job's step, and every step's critical path must add up to its
# duration, for 1, 2, 4 and 8 ranks.  Also: malformed scenarios are usage
# errors that name them (tests/whatif_view.sh: the viewer).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

expect 2 "--what-if=bogus is a usage error" \
    "$GANTTY" --report --what-if=bogus "$top_srcdir/share/example.json.gz"
file_has "$tmp/err" "bogus" "the error names the scenario"
expect 2 "--what-if=comm=0 is a usage error" \
    "$GANTTY" --report --what-if=comm=0 "$top_srcdir/share/example.json.gz"
expect 2 "--what-if=kernels=gemm (no factor) is a usage error" \
    "$GANTTY" --report --what-if=kernels=gemm "$top_srcdir/share/example.json.gz"
expect 2 "--what-if with --diff is a usage error" \
    "$GANTTY" --diff --what-if=none "$top_srcdir/share/example.json.gz" \
    "$top_srcdir/share/example.json.gz"

if [ -z "$PYTHON3" ]; then
	skip "the predictions against the changed jobs" "no python3"
	finish
fi

# judge BASE SCENARIO CHANGED: the report of BASE with its what_if for
# SCENARIO against the report of CHANGED; prints what is wrong.
judge() {
	"$PYTHON3" - "$1" "$2" "$3" <<'PY'
import json, sys
base, sc, changed = json.load(open(sys.argv[1])), sys.argv[2], json.load(open(sys.argv[3]))
bad = 0
for rb, rc in zip(base["ranks"], changed["ranks"]):
    wi = [w for w in rb["what_if"] if w["scenario"] == sc]
    if not wi:
        print("no what_if for", sc); sys.exit(1)
    truth = {s["number"]: s["end_ns"] - s["start_ns"] for s in rc["steps"]}
    for st in wi[0]["steps"]:
        m, r, p, t = st["measured_ns"], st["replayed_ns"], st["predicted_ns"], truth[st["number"]]
        if abs(r - m) > 0.02 * m:
            print("rank", rb["rank"], "step", st["number"], "replay", r, "measured", m); bad = 1
        if abs(p - t) > 0.05 * t:
            print("rank", rb["rank"], "step", st["number"], sc, "predicted", p, "truth", t); bad = 1
    for s in rb["steps"]:
        cp = s["critical_path"]
        parts = sum(cp[k] for k in ("compute_ns", "comm_ns", "host_ns", "sync_ns", "idle_ns"))
        if parts != cp["ns"] or cp["ns"] != s["end_ns"] - s["start_ns"]:
            print("rank", rb["rank"], "step", s["number"], "path parts", parts, "ns", cp["ns"]); bad = 1
sys.exit(bad)
PY
}

for n in 1 2 4 8; do
	d=$tmp/r$n
	mkdir -p "$d"
	"$GEN_TRACE" --ranks=$n --seed=3 --out="$d/base" >/dev/null || bail "gen-trace --ranks=$n"
	"$GANTTY" --report --format=json -q --what-if=comm=2 --what-if=kernels=GEMM:1.5 \
	    --what-if=no-host-wait --what-if=no-straggler "$d/base" >"$d/base.json" ||
	    fail "--what-if on $n ranks (exit $?)"
	for c in comm2:comm=2 gemm1.5:kernels=GEMM:1.5 no-host-wait:no-host-wait \
	    straggler=none:no-straggler; do
		change=${c%%:*} sc=${c#*:}
		case $change in
		straggler=*) opt=--$change ;;
		*) opt=--change=$change ;;
		esac
		"$GEN_TRACE" --ranks=$n --seed=3 $opt --out="$d/$change" >/dev/null ||
		    bail "gen-trace --ranks=$n $opt"
		"$GANTTY" --report --format=json -q "$d/$change" >"$d/$change.json"
		check "$n ranks: $sc predicts $opt within 5%, the replay within 2%" \
		    judge "$d/base.json" "$sc" "$d/$change.json"
	done
done

# The changes change something: a prediction equal to the measurement would
# pass the checks above on a job the change does not touch.
"$PYTHON3" - "$tmp/r2/base.json" <<'PY' >&2 && pass "every scenario shortens the 2-rank job" || fail "a scenario changes nothing"
import json, sys
r = json.load(open(sys.argv[1]))["ranks"][1]
ok = all(w["total"]["predicted_ns"] < 0.99 * w["total"]["measured_ns"] for w in r["what_if"]
         if w["scenario"] != "no-host-wait")
sys.exit(0 if ok else 1)
PY

# The text and CSV forms say what the JSON says.
"$GANTTY" --report --format=csv -q --what-if=comm=2 --what-if=kernels=GEMM:1.5 \
    --what-if=no-host-wait --what-if=no-straggler "$tmp/r2/base" >"$tmp/r2/base.csv" ||
    fail "--what-if --format=csv (exit $?)"
"$GANTTY" --report --format=text -q --what-if=comm=2 --what-if=kernels=GEMM:1.5 \
    --what-if=no-host-wait --what-if=no-straggler "$tmp/r2/base" >"$tmp/r2/base.txt" ||
    fail "--what-if --format=text (exit $?)"
"$PYTHON3" - "$tmp/r2/base.json" "$tmp/r2/base.csv" "$tmp/r2/base.txt" <<'PY' >&2 && pass "the text and CSV forms of --what-if agree with the JSON" || fail "the text or CSV form of --what-if disagrees with the JSON"
import csv, json, sys
j = json.load(open(sys.argv[1]))
tables = [t for t in open(sys.argv[2]).read().split("\n\n")]
def rows(head):
    t = [t for t in tables if t.startswith(head)]
    if len(t) != 1:
        print("no CSV table", head); sys.exit(1)
    return list(csv.DictReader(t[0].splitlines()))
cp = rows("rank,device,number,ns,compute_ns")
wi = rows("rank,device,scenario,number")
want_cp, want_wi = [], []
for r in j["ranks"]:
    for s in r["steps"]:
        c = s["critical_path"]
        want_cp.append([r["rank"], s["number"], c["ns"], c["compute_ns"], c["comm_ns"],
                        c["host_ns"], c["sync_ns"], c["idle_ns"], c["replayed_ns"]])
    for w in r["what_if"]:
        for s in w["steps"]:
            want_wi.append([r["rank"], w["scenario"], s["number"], s["measured_ns"],
                            s["replayed_ns"], s["predicted_ns"]])
got_cp = [[int(x["rank"]), int(x["number"])] + [int(x[k]) for k in
          ("ns", "compute_ns", "comm_ns", "host_ns", "sync_ns", "idle_ns", "replayed_ns")] for x in cp]
got_wi = [[int(x["rank"]), x["scenario"], int(x["number"])] + [int(x[k]) for k in
          ("measured_ns", "replayed_ns", "predicted_ns")] for x in wi]
if got_cp != want_cp or got_wi != want_wi:
    print("CSV differs from JSON"); sys.exit(1)
text = open(sys.argv[3]).read()
for r in j["ranks"]:
    for w in r["what_if"]:
        t = w["total"]
        pct = 100.0 * (t["predicted_ns"] - t["replayed_ns"]) / t["replayed_ns"]
        if "    %s: " % w["scenario"] not in text or "(%+.1f%%)" % pct not in text:
            print("text lacks", w["scenario"], "%+.1f%%" % pct); sys.exit(1)
if text.count("  critical path:") != len(j["ranks"]):
    print("text lacks a critical path table per rank"); sys.exit(1)
PY
finish
