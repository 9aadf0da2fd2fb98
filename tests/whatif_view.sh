#!/bin/sh
# tests/whatif_view.sh: the critical path and the what-if scenarios in the
# viewer (P, i) and in --render, against the report's numbers.  On the
# bundled example: --render --what-if draws the "crit path" lane and the
# panel's split of the step in view, equal to that step's row of the
# report's critical path table, and the scenario's gain, equal to the JSON's
# predicted - replayed.  Then in tmux, as a user does it: P shows the path,
# i cycles the scenarios, P hides it; e selects a finding whose remedy
# quotes the same what-if lines as the report; on the DLRM job (8 ranks)
# i reaches no-straggler and r moves the path to the next rank's step.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

example=$top_srcdir/share/example.json.gz

expect 2 "--what-if with --reports is a usage error" \
    "$GANTTY" --reports --report --what-if=none "$top_srcdir/share"
expect 2 "--what-if with --diff is a usage error" \
    "$GANTTY" --diff --what-if=none "$example" "$example"

frame() {
	LC_ALL=C.UTF-8 "$GANTTY" --render --color=never --width=150 --height=50 -q \
	    "$@" >"$tmp/frame" 2>"$tmp/frame.err"
}
frame "$example"
check "--render without --what-if: no critical path lane" \
    sh -c "! grep -qE '^ crit path' '$tmp/frame'"
expect 0 "--render --what-if=comm=2 draws a frame" frame --what-if=comm=2 "$example"
check "... with the critical path lane under the bands" \
    grep -qE '^ crit path +[^ ]' "$tmp/frame"
check "... and the panel's what-if line for comm=2" \
    grep -qE '^ what-if 1/3 comm=2: -[0-9.]+ [mu]s \(-[0-9.]+%\) against the replay' "$tmp/frame"

if [ -z "$PYTHON3" ]; then
	skip "the panel's numbers against the report's" "no python3"
	finish
fi

# same_path SCREEN REPORT K: the panel's "critical path #N" line of SCREEN
# shows step N's row of the K-th (0-based) critical path table of the text
# REPORT: its time, each part that is not 0, and the replay.
same_path() {
	"$PYTHON3" - "$1" "$2" "$3" <<'PY'
import re, sys
screen, report, k = open(sys.argv[1]).read(), open(sys.argv[2]).read(), int(sys.argv[3])
m = re.search(r"^ critical path #(\d+) (.*)$", screen, re.M)
if not m:
    print("no critical path line on the screen"); sys.exit(1)
number, line = m.group(1), m.group(2)
tables = report.split("  critical path:")[1:]
if len(tables) <= k:
    print("the report has", len(tables), "critical path tables"); sys.exit(1)
row = [l for l in tables[k].splitlines() if l.strip().startswith("Step#%s " % number)]
if not row:
    print("no Step#%s in table %d" % (number, k)); sys.exit(1)
tok, vals = row[0].split()[1:], []
while tok:
    v = tok.pop(0)
    vals.append(v if v == "0" else v + " " + tok.pop(0))
want = ["%s:" % vals[0]] + ["%s %s " % (n, v) for n, v in
        zip(("compute", "comm", "host", "sync", "idle"), vals[1:6]) if v != "0"]
want.append("replayed %s" % vals[6])
bad = [w for w in want if w not in line]
if bad or not line.startswith(vals[0] + ":"):
    print("panel:", line); print("report:", row[0]); print("missing:", bad); sys.exit(1)
PY
}

"$GANTTY" --report -q --what-if=comm=2 "$example" >"$tmp/example.txt"
"$GANTTY" --report -q --format=json --what-if=comm=2 "$example" >"$tmp/example.json"
check "--render: the panel's critical path is the report's row for the step in view" \
    same_path "$tmp/frame" "$tmp/example.txt" 0
check "--render: comm=2's gain is the JSON's predicted - replayed of that step" \
    "$PYTHON3" - "$tmp/frame" "$tmp/example.json" <<'PY'
import json, re, sys
screen, rep = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
n = int(re.search(r"^ critical path #(\d+) ", screen, re.M).group(1))
m = re.search(r"^ what-if 1/3 comm=2: ([-+][0-9.]+) (ns|us|ms|s) ", screen, re.M)
got = float(m.group(1)) * {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[m.group(2)]
st = [s for s in rep["ranks"][0]["what_if"][0]["steps"] if s["number"] == n][0]
want = st["predicted_ns"] - st["replayed_ns"]
if want >= 0 or abs(got - want) > 0.0006 * abs(want):
    print("panel", got, "json", want); sys.exit(1)
PY

# ---- in tmux ----
command -v tmux >/dev/null 2>&1 || { skip "the viewer in tmux" "no tmux"; finish; }
calibrate
. "$top_srcdir/tests/tmuxlib.sh"
title_text="  window +"
hint_text="? help"
T new-session -d -s gantty -x 159 -y 50 "cat" || { skip "the viewer in tmux" "no tmux server"; finish; }

# path_is WIN REPORT K: WIN's panel shows the K-th table's row (same_path).
path_is() {
	T capture-pane -p -t "$1" >"$tmp/screen" 2>/dev/null &&
	    same_path "$tmp/screen" "$2" "$3" >"$tmp/why" 2>&1
}
# path_check WIN REPORT K NAME
path_check() {
	if poll path_is "$1" "$2" "$3"; then pass "$4"; else
		fail "$4"; sed 's/^/# /' "$tmp/why"; fi
}

start ex 159x50 -- "'$example'"
check "no critical path before P" sh -c "! grep -qF ' crit path' '$tmp/screen'"
send ex P
wait_for ex " crit path" "P: the critical path lane"
wait_for ex " critical path #" "... and the panel's split of the step in view"
path_check ex "$tmp/example.txt" 0 "... the report's row for that step"
wait_for ex " what-if 1/3 comm=2: " "... and the first scenario's gain"
send ex i
wait_for ex "what-if 2 of 3 over #" "i: the next scenario, said on the hint line"
wait_for ex " what-if 2/3 comm=inf: " "... and in the panel"
send ex i i
wait_for ex " what-if 1/3 comm=2: " "i wraps round the scenarios"
send ex P
if poll sh -c "! tmux -S '$sock' capture-pane -p -t ex | grep -qF ' crit path'"
then pass "P again hides the lane"; else fail "P again hides the lane"; fi
# the finding's remedy quotes the report's what-if lines over the steps
"$GANTTY" --report -q --what-if=comm=2 --what-if=comm=inf "$example" >"$tmp/ex2.txt"
want=$(sed -n 's/^    \(comm=2: .*\)$/\1/p' "$tmp/ex2.txt"); inf=$(sed -n 's/^    \(comm=inf: .*\)$/\1/p' "$tmp/ex2.txt")
send ex e
send ex Tab Tab
wait_for ex "what-if: $want; $inf, over 8 steps" \
    "e, Tab Tab: exposed_comm's remedy quotes the report's comm=2 and comm=inf lines"
send ex q
restored ex "q"

corpus=${GANTTY_CORPUS:-$top_srcdir/../shared/corpus}
[ -d "$corpus" ] || { skip "the DLRM job in tmux" "no corpus at $corpus"; finish; }
dlrm=$corpus/param/et_replay/tests/inputs/dlrm_kineto
"$GANTTY" --report -q --what-if=none "$dlrm" >"$tmp/dlrm.txt"
start dlrm 159x50 -- "'$dlrm'"
send dlrm P
wait_for dlrm " critical path #10 " "DLRM, 8 ranks: P, rank 0's step 10"
path_check dlrm "$tmp/dlrm.txt" 0 "... the report's row for rank 0"
send dlrm i i i
wait_for dlrm "what-if 4 of 4 over #10: no-straggler: " "i reaches no-straggler with several ranks"
send dlrm r
wait_for dlrm " rank 1 " "r: rank 1"
path_check dlrm "$tmp/dlrm.txt" 1 "... the path is rank 1's step 10, as the report's second table"
send dlrm q
finish
