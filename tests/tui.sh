#!/bin/sh
# The real viewer in a private, fixed-size tmux server (as tmux's own
# regress/ tests do): keys in with send-keys, the screen out with
# capture-pane.  Every wait polls the screen for what it expects, up to 300
# times the calibration (lib.sh; the first frame takes about one), so the
# test is fast when things work and fails, not hangs, when not.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

. "$top_srcdir/tests/tmuxlib.sh"

title_text="  window +"    # on the title line of every frame
hint_text="? help  q quit" # on the hint line, the last one drawn
# (the first window reads its terminal until the server is killed)
T new-session -d -s gantty -x 120 -y 40 "cat" || skip_all "cannot start a tmux server"

# --- the first screen, the keys, the mouse, resizing, q ---
start main
check "the first screen shows the lanes" \
    grep -q '^ compute s[0-9]' "$tmp/screen"
check "the first screen shows the bubble lane" grep -q '^ bubbles ' "$tmp/screen"
check "the first screen shows the panel" grep -qF 'T_exposed' "$tmp/screen"
check "the first screen shows the key hint" grep -qF '? help  q quit' "$tmp/screen"

title=$(line main 1)
send main +
if poll line_differs main 1 "$title"; then pass "+ zooms: the title's window changes"
else fail "+ zooms: the title stays '$title'"; fi
check "+ zooms in: no longer the whole 617.3 ms" sh -c "! tmux -S '$sock' capture-pane -p -t main | sed -n 1p | grep -qF '(617.3 ms)'"

send main o
wait_for main "ProfilerStep#15" "o selects the outlier step 15 (step strip)"
wait_for main "selected step 15" "o: the panel describes step 15"
check "o: the panel says what the slow step does differently: +38.6 ms against
the median step 16, mostly compute" grep -qE 'vs median step 16: \+38\.6[0-9]? ms; compute \+36\.5[0-9]? ms' "$tmp/screen"

send main '}'
wait_for main "selected layer" "} selects a layer"

# the help of every binding on one column needs 57 rows
T resize-window -t main -x 160 -y 62
send main '?'
wait_for main "? closes this help" "? shows the help"
"$GANTTY" --keys >"$tmp/keys"
T capture-pane -p -t main >"$tmp/help"
missing=
while IFS='	' read -r keys help; do
	grep -qF -- "$help" "$tmp/help" || missing="$missing [$keys: $help]"
	grep -qF -- "$keys" "$tmp/help" || missing="$missing [$keys]"
done <"$tmp/keys"
if [ -z "$missing" ]; then pass "the help lists every binding"; else
	fail "the help lacks$missing"; fi
send main '?'
if poll sh -c "! tmux -S '$sock' capture-pane -p -t main | grep -qF 'closes this help'"
then pass "? again closes the help"; else fail "? again closes the help"; fi
T resize-window -t main -x 120 -y 40

# The mouse: the wheel zooms around the pointer, a click selects.
send main f
poll shows main "(617.3 ms)" || fail "f fits all"
mouse main 64 60 4
if poll sh -c "! tmux -S '$sock' capture-pane -p -t main | grep -qF '(617.3 ms)'"
then pass "the wheel zooms in"; else fail "the wheel zooms in"; fi
mouse main 65 60 4
wait_for main "(617.3 ms)" "the wheel zooms out again"
cursor_at() {   # the panel's "cursor +T" text
	T capture-pane -p -t main | grep -o 'cursor +[0-9.]* [mun]*s'
}
before=$(cursor_at)
mouse main 0 40 4
if poll sh -c "[ \"\$(tmux -S '$sock' capture-pane -p -t main | grep -o 'cursor +[0-9.]* [mun]*s')\" != '$before' ]"
then pass "a click moves the cursor"; else fail "a click moves the cursor ($before)"; fi
wait_for main "selected sm90_xmma_gemm" "a click on a compute kernel selects it"

# / reads a search on the hint line: backspace edits, Enter searches, n
# goes on, Esc cancels.
send main /
T send-keys -t main -l allgathx
send main BSpace
T send-keys -t main -l er
if poll sh -c "tmux -S '$sock' capture-pane -p -t main | sed -n 40p | grep -qx '/allgather *'"
then pass "/ prompts on the hint line, backspace edits"; else
	fail "/ prompts on the hint line: '$(line main 40)'"; fi
if poll sh -c "[ \"\$(tmux -S '$sock' display-message -p -t main '#{cursor_flag} #{cursor_y}')\" = '1 39' ]"
then pass "the prompt shows the cursor"; else fail "the prompt shows the cursor"; fi
send main Enter
wait_for main "selected AllGather" "Enter searches and selects the match"
first=$(grep 'selected AllGather' "$tmp/screen")
send main n
if poll sh -c "tmux -S '$sock' capture-pane -p -t main | grep 'selected AllGather' | grep -qvxF -- '$first'"
then pass "n selects the next match"; else fail "n selects the next match"; fi
send main /
poll sh -c "tmux -S '$sock' capture-pane -p -t main | sed -n 40p | grep -qi '^/allg'" ||
    fail "/ prompts again, with the last query"
send main C-u x
poll sh -c "tmux -S '$sock' capture-pane -p -t main | sed -n 40p | grep -qx '/x *'" ||
    fail "Ctrl-U clears the prompt"
send main Escape
wait_for main "$hint_text" "Esc cancels the search"
if poll sh -c "[ \"\$(tmux -S '$sock' display-message -p -t main '#{cursor_flag}')\" = 0 ]"; then
	pass "the cursor is hidden again"; else fail "the cursor is hidden again"; fi

# Resizing redraws at the new size; too small gets a message.
T resize-window -t main -x 80 -y 24
if poll sh -c "tmux -S '$sock' capture-pane -p -t main >'$tmp/screen'; sed -n 24p '$tmp/screen' | grep -qF 'q quit'"
then pass "resized to 80x24: the hint line is on the last row"; else
	fail "resized to 80x24"; T capture-pane -p -t main | sed 's/^/# /'; fi
check "80x24: the panel is drawn" grep -qF '[window]' "$tmp/screen"
check "80x24: the lanes are drawn" grep -q '^ bubbles ' "$tmp/screen"
send main '?'
wait_for main " q Ctrl-C quit " "80x24: ? shows every binding, the last (q) too"
check "80x24: ... { among them" grep -qF ' {   previous layer ' "$tmp/screen"
check "80x24: ... and says where the whole text is" grep -qF -- '--keys prints it whole' "$tmp/screen"
send main '?'
if poll sh -c "! tmux -S '$sock' capture-pane -p -t main | grep -qF 'gantty keys'"
then pass "80x24: ? closes the help"; else fail "80x24: ? closes the help"; fi
T resize-window -t main -x 30 -y 8
wait_for main "terminal too small:" "30x8 shows the too-small message"
T resize-window -t main -x 20 -y 5
wait_for main "too small" "20x5 shows the too-small message"
check "20x5: no lanes drawn into it" sh -c "! grep -q 'bubbles\|T_exposed' '$tmp/screen'"
T resize-window -t main -x 120 -y 40
wait_for main "example.json.gz  window " "back to 120x40 redraws"
# A resize storm (a window manager dragging the edge): 60 sizes, no waits.
i=0
for w in 50 170 33 90 20 200 61 140 25 110; do
	for h in 12 60 6 30 44 9; do
		T resize-window -t main -x "$w" -y "$h"
		i=$((i + 1))
	done
done
T resize-window -t main -x 120 -y 40
wait_for main "example.json.gz  window " "after a storm of $i resizes the frame is redrawn"
if poll sh -c "tmux -S '$sock' capture-pane -p -t main | sed -n 40p | grep -qF 'q quit'"
then pass "after the storm the hint line is on row 40"; else fail "after the storm the hint line is on row 40"; fi
send main o
wait_for main "selected step 15" "after the storm the keys work"

send main q
wait_for main "status=0" "q quits with status 0"
restored main "q"

# --- Ctrl-Z suspends to the shell (job control), fg redraws ---
start suspend
send suspend C-z
wait_for suspend "Stopped" "Ctrl-Z suspends to the shell"
check "suspended: the terminal is the shell's" \
    test "$(flag suspend '#{alternate_on}#{mouse_any_flag}')" = 00
T send-keys -t suspend clear Enter
poll sh -c "! tmux -S '$sock' capture-pane -p -t suspend | grep -qF Stopped"
send suspend fg Enter
wait_for suspend "$title_text" "fg redraws the viewer"
check "resumed: the lanes are back" grep -q '^ bubbles ' "$tmp/screen"
send suspend o
wait_for suspend "selected step 15" "resumed: the keys work"
send suspend q
restored suspend "q after fg"

# --- Ctrl-C ---
start ctrlc
send ctrlc C-c
wait_for ctrlc "status=0" "Ctrl-C quits with status 0"
restored ctrlc "Ctrl-C"

# --- SIGTERM restores the terminal, status 128 + 15 ---
start term
kill -TERM "$(cat "$tmp/pid")"
wait_for term "status=143" "SIGTERM: status 143"
restored term "SIGTERM"

# --- SIGHUP: status 129; a crash (SIGSEGV) restores the terminal first ---
start hup
kill -HUP "$(cat "$tmp/pid")"
wait_for hup "status=129" "SIGHUP: status 129"
restored hup "SIGHUP"
# The terminal goes away with SIGHUP ignored (nohup): reads fail, and the
# viewer must exit, not spin.
start nohup IGNORE_HUP=1 --
pid=$(cat "$tmp/pid")
T kill-window -t nohup
if poll sh -c "! ps -o stat= -p $pid 2>/dev/null | grep -q '^[RS]'"
then pass "a lost terminal (SIGHUP ignored) ends the viewer"; else
	fail "a lost terminal (SIGHUP ignored) ends the viewer"; kill "$pid"; fi
start segv
kill -SEGV "$(cat "$tmp/pid")"
wait_for segv "status=" "SIGSEGV: the viewer dies"
# the status line may still be being written: poll for the whole number
segv_status() {
	T capture-pane -p -t segv >"$tmp/screen" 2>/dev/null &&
	    grep -q 'status=\(139\|1\)$' "$tmp/screen"
}
if poll segv_status; then pass "SIGSEGV: with the signal's status (139; 1 under a sanitizer)"
else fail "SIGSEGV: with the signal's status (139; 1 under a sanitizer)"; sed 's/^/# /' "$tmp/screen"; fi
restored segv "SIGSEGV"

# --- colours, NO_COLOR, --color=never, TERM=dumb ---
colors() {      # colours in the captured screen (SGR 30-37, 40-47, 38;5, ...)
	T capture-pane -e -p -t "$1" | grep -q "$(printf '\033')\\[[0-9;]*\\(3[0-8]\\|4[0-8]\\)[;m]"
}
start color
check "colour on xterm-256color" colors color
send color q
poll shows color "status=0" >/dev/null
start nocolor NO_COLOR=1 --
check "NO_COLOR: no colours" sh -c "! tmux -S '$sock' capture-pane -e -p -t nocolor | grep -q \"\$(printf '\\033')\\[[0-9;]*[34][0-8][;m]\""
send nocolor '?'
wait_for nocolor "? closes this help" "NO_COLOR: the keys work"
send nocolor q
wait_for nocolor "status=0" "NO_COLOR: q quits"
start never -- --color=never "'$example'"
check "--color=never: no colours" sh -c "! tmux -S '$sock' capture-pane -e -p -t never | grep -q \"\$(printf '\\033')\\[[0-9;]*[34][0-8][;m]\""
send never q
poll shows never "status=0" >/dev/null
for vt in vt100 xterm-mono; do
	start "$vt" VT=$vt --
	check "TERM=$vt: no colours" sh -c "! tmux -S '$sock' capture-pane -e -p -t $vt | grep -q \"\$(printf '\\033')\\[[0-9;]*[34][0-8][;m]\""
	send "$vt" o
	wait_for "$vt" "selected step 15" "TERM=$vt: the keys work"
	send "$vt" q
	wait_for "$vt" "status=0" "TERM=$vt: q quits"
	restored "$vt" "TERM=$vt"
done

# TERM=dumb cannot move the cursor: one frame of its size, as --render
# prints it, and a note saying why; the terminal untouched.
T new-window -d -n dumb "env PS1='gantty-test\$ ' ENV= sh"
poll shows dumb 'gantty-test$' || fail "dumb: no shell prompt"
T send-keys -t dumb "VT=dumb COLUMNS=100 LINES=30 sh '$tmp/run.sh' '$example'; echo status=\$?" Enter
wait_for dumb "status=0" "TERM=dumb: one frame, status 0"
check "TERM=dumb: the note says why" grep -qF "cannot move the cursor" "$tmp/screen"
check "TERM=dumb: the frame has the lanes and the panel" \
    sh -c "grep -q '^ bubbles ' '$tmp/screen' && grep -qF T_exposed '$tmp/screen'"
check "TERM=dumb: COLUMNS=100 sets its width" \
    sh -c "grep -F '[window]' '$tmp/screen' | sed 's/─/-/g' | awk '{ exit !(length(\$0) == 100) }'"
check "TERM=dumb: no escape sequences" \
    sh -c "! tmux -S '$sock' capture-pane -e -p -t dumb | grep -q \"\$(printf '\\033')\\[[0-9;]*[34][0-8][;m]\""
check "TERM=dumb: the terminal is untouched" normal dumb

# --- the locale: UTF-8 block glyphs, else ASCII ---
start utf8 LC_ALL=C.UTF-8 --
check "a UTF-8 locale: block and line glyphs" grep -qF '─' "$tmp/screen"
send utf8 q
poll shows utf8 "status=0" >/dev/null
# Names of any script as themselves: CJK two columns, a combining accent on
# its letter; every row still as wide as the terminal (the lane's bar and
# the separator end in the last column).
printf '{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "a\342\200\256b", "pid": 0, "tid": 7, "ts": 1, "dur": 5}, {"ph": "X", "cat": "kernel", "name": "\344\270\255\346\226\207 e\314\201", "pid": 0, "tid": 7, "ts": 10, "dur": 5}]}' >"$tmp/cjk.json"
hint_text_was=$hint_text title_text_was=$title_text
title_text="cjk.json  window +"
start cjk LC_ALL=C.UTF-8 -- "'$tmp/cjk.json'"
check "CJK and a combining accent show as themselves" grep -qF "$(printf '\344\270\255\346\226\207 e\314\201')" "$tmp/screen"
check "a bidi control does not" grep -qF "a?b" "$tmp/screen"
check "every row keeps the terminal's 120 columns" env LC_ALL=C.UTF-8 "$PYTHON3" -c '
import sys, unicodedata
def cols(s):
    return sum(0 if unicodedata.combining(ch) else
               2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in s)
rows = open(sys.argv[1], encoding="utf-8").read().split("\n")
lane = [r for r in rows if "\u4e2d\u6587" in r and "compute s7" in r]
bad = [r for r in rows if cols(r) > 120] + [r for r in lane if cols(r.rstrip()) != 120]
for r in bad:
    print("# %d columns: %r" % (cols(r), r))
sys.exit(1 if bad or not lane else 0)' "$tmp/screen"
send cjk q
poll shows cjk "status=0" >/dev/null
hint_text=$hint_text_was title_text=$title_text_was
start clocale LC_ALL=C --
check "a non-UTF-8 locale: ASCII only" \
    sh -c "! LC_ALL=C grep -q \"\$(printf '[\\200-\\377]')\" '$tmp/screen'"
send clocale o
wait_for clocale "selected step 15" "a non-UTF-8 locale: the keys work"
send clocale q
wait_for clocale "status=0" "a non-UTF-8 locale: q quits"
restored clocale "C locale"

# --- the trace on standard input: the keys still come from the terminal ---
start stdin -- "- <'$example'"
check "a trace on stdin is shown" grep -q '^ bubbles ' "$tmp/screen"
check "... the title names standard input" grep -q '^gantty  standard input  window' "$tmp/screen"
send stdin '?'
wait_for stdin "? closes this help" "stdin trace: keys are read from the terminal"
send stdin q
wait_for stdin "status=0" "stdin trace: q quits"
restored stdin "stdin trace"

# --- 64 ranks: the overview fits one screen; the matrix; back to lanes ---
"$GEN_TRACE" --ranks=64 --steps=5 --layers=1 --kernels=5 --seed=9 \
    --out="$tmp/r64" >/dev/null || fail "gen-trace of 64 ranks"
T new-window -d -n many "env PS1='gantty-test\$ ' ENV= sh"
T resize-window -t many -x 120 -y 90
poll shows many 'gantty-test$' || fail "many: no shell prompt"
T send-keys -t many "sh '$tmp/run.sh' '$tmp/r64'; echo status=\$?" Enter
wait_for many "$hint_text" "64 ranks: the viewer starts"
check "64 ranks: the overview marks rank 0" grep -q '^> rank 0 d0 ' "$tmp/screen"
check "64 ranks: every rank's bubble lane on one 120x90 screen" \
    test "$(grep -c '^..rank [0-9]* d[0-9] ' "$tmp/screen")" -eq 64
check "64 ranks: the overview marks the straggler, rank 63" \
    grep -q '^ !rank 63 d7 ' "$tmp/screen"
send many r
wait_for many "rank 1 dev 1 (2/64)" "64 ranks: r moves to rank 1"
send many m
wait_for many "Enter its lanes" "64 ranks: m shows the rank x step matrix"
check "64 ranks: the matrix has a row per rank" \
    test "$(grep -c '^.!\{0,1\}rank [0-9]*/[0-9] ' "$tmp/screen")" -eq 64
check "64 ranks: the matrix marks the straggler" grep -q '^ !rank 63/7 ' "$tmp/screen"
check "64 ranks: the matrix marks rank 1" grep -q '^.rank 1/1 ' "$tmp/screen"
check "64 ranks: the panel names the straggler" grep -q 'straggler rank 63/7' "$tmp/screen"
send many Enter
wait_for many "[window]" "64 ranks: Enter leaves the matrix"
check "64 ranks: rank 1's stream lanes are shown" grep -q '^ compute s' "$tmp/screen"
send many q
wait_for many "status=0" "64 ranks: q quits"
restored many "64 ranks"

# --- 64 ranks at 200x50: two ranks a row; W puts the straggler first ---
T new-window -d -n pack "env PS1='gantty-test\$ ' ENV= sh"
T resize-window -t pack -x 200 -y 50
poll shows pack 'gantty-test$' || fail "pack: no shell prompt"
T send-keys -t pack "sh '$tmp/run.sh' '$tmp/r64'; echo status=\$?" Enter
wait_for pack "$hint_text" "64 ranks at 200x50: the viewer starts"
check "64 ranks at 200x50: all 64 on screen, two a row" \
    test "$(grep -c '^..rank [0-9]*,[0-9]* ' "$tmp/screen")" -eq 32
check "64 ranks at 200x50: the straggler's row is marked" \
    grep -q '^ !rank 62,63 ' "$tmp/screen"
send pack W
wait_for pack "the straggler first" "W sorts the ranks by the time the others waited"
check "W: the straggler's row comes first" \
    sh -c "grep '^..rank [0-9]*,[0-9]* ' '$tmp/screen' | head -1 | grep -q '^.!rank 63,'"
send pack m
wait_for pack "Enter its lanes" "64 ranks at 200x50: m shows the matrix"
check "W: the matrix's first row is the straggler" \
    sh -c "grep '^.!\{0,1\}rank [0-9]*/[0-9] ' '$tmp/screen' | head -1 | grep -q '^ !rank 63/7 '"
send pack q
wait_for pack "status=0" "64 ranks at 200x50: q quits"

# --- reports read back: the matrix; Enter opens a rank's trace ---
mkdir "$tmp/rep"
for r in 0 1 2 3; do
	"$GANTTY" --report --format=json -q "$tmp/r64/rank-$r.json" >"$tmp/rep/rank-$r.json"
done
T new-window -d -n rep "env PS1='gantty-test\$ ' ENV= sh"
T resize-window -t rep -x 120 -y 40
poll shows rep 'gantty-test$' || fail "rep: no shell prompt"
T send-keys -t rep "sh '$tmp/run.sh' --reports '$tmp/rep'; echo status=\$?" Enter
# the hint line is drawn last: once it shows, the whole frame does
wait_for rep "Enter open its trace" "reports: the hint offers opening a trace"
check "reports: the matrix of 4 ranks" grep -qF "4 ranks, 5 steps" "$tmp/screen"
send rep r r
wait_for rep "rank 2/2: 5 of 5 steps" "reports: r r moves to rank 2"
send rep Enter
wait_for rep "rank-2.json  window +" "reports: Enter opens rank 2's trace"
check "reports: its lanes are shown" grep -q '^ compute s' "$tmp/screen"
send rep q
wait_for rep "status=0" "reports: q quits the opened trace"
restored rep "reports"

# --- before and after: --compare's diff table; a baseline step of one trace ---
"$GEN_TRACE" --ranks=1 --steps=3 --layers=3 --kernels=5 --exposed-step=11 \
    --slow-step=none --stall-step=none --out="$tmp/cmpA" >/dev/null ||
    fail "gen-trace of trace A"
"$GEN_TRACE" --ranks=1 --steps=3 --layers=3 --kernels=5 --no-inject \
    --out="$tmp/cmpB" >/dev/null || fail "gen-trace of trace B"
start cmp -- --compare "'$tmp/cmpA/rank-0.json'" "'$tmp/cmpB/rank-0.json'"
send cmp D
wait_for cmp "kernels, by |change|" "compare: D shows the diff table's kernels"
check "compare: the table names A and B" \
    grep -qF "A = cmpA/rank-0.json, B = cmpB/rank-0.json" "$tmp/screen"
check "compare: the steps section" grep -q '^steps (3)' "$tmp/screen"
check "compare: the layers section" grep -q '^layers (6)' "$tmp/screen"
# layers.2's forward all-gather is exposed in A's step 11, hidden in B:
# its exposed and own exposed comm fall to 0 by the same nonzero time
check "compare: layers.2 forward's exposed comm falls" \
    grep -qE '^ layers\.2 +fwd x3 +[0-9.]+ [nmu]?s +(0|[-+][0-9.]+ [nmu]?s) +0 +(-[0-9.]+ [nmu]?s) +0 +\2 ' "$tmp/screen"
check "compare: the all-gather kernel's time falls" \
    grep -qE '^ ncclDevKernel_AllGather.* 18->18 .* -[0-9.]+ [mu]s$' "$tmp/screen"
send cmp D
wait_for cmp "[window]" "compare: D shows the lanes again"
send cmp q
wait_for cmp "status=0" "compare: q quits"

start base -- --step=10 "'$tmp/cmpA/rank-0.json'"
send base b
wait_for base "baseline A: ProfilerStep#10" "one trace: b marks step 10"
send base ']'
wait_for base "baseline A #10, B #11 in view" "one trace: ] to step 11, the panel compares"
check "one trace: the baseline's lanes, labelled" grep -q '^ A#10 s7 ' "$tmp/screen"
check "one trace: the baseline's nccl lane" grep -q '^ A#10 s22 ' "$tmp/screen"
send base D
wait_for base "A = ProfilerStep#10, B = ProfilerStep#11" "one trace: D compares step 10 with 11"
check "one trace: the step row" grep -q '^ #10 -> #11 ' "$tmp/screen"
check "one trace: step 11's exposed comm grows" \
    grep -qE '^ #10 -> #11 +[0-9.]+ [mu]?s +[-+0-9.]+ [mu]?s +[0-9.]+ [mu]?s +\+[0-9.]+ ms ' "$tmp/screen"
send base q
wait_for base "status=0" "one trace: q quits"
restored base "one trace"

# --- navigation by the item under the cursor ---
start nav
send nav ']'
wait_for nav "selected step 14:" "fit view: ] selects the step under the cursor, 14"
for l in "layers.0 forward" "layers.1 forward" "layers.2 forward" \
    "layers.3 forward" "layers.3 backward" "layers.2 backward" \
    "layers.1 backward" "layers.0 backward"; do
	send nav '}'
	wait_for nav "selected $l (step 14)" "} walks step 14: $l"
done
send nav '}'
wait_for nav "selected layers.0 forward (step 15)" "} goes on into step 15"
send nav /
T send-keys -t nav -l 'Gather.*RING'
send nav Enter
wait_for nav "/Gather.*RING: match " "/ takes a regular expression"
check "the selection says k of n" grep -qE 'selected AllGather_RING_LL.*/Gather\.\*RING: match [0-9]+ of 64' "$tmp/screen"
send nav /
wait_for nav "/Gather.*RING" "/ brings the last query back"
send nav Escape
send nav q
wait_for nav "status=0" "navigation: q quits"
# --- J and u leave their target on screen (issue 33) ---
start jump LC_ALL=C.UTF-8 --
send jump ']'
wait_for jump "selected step 14:" "jump: ] step 14"
send jump /
T send-keys -t jump -l 'gemm'
send jump Enter
wait_for jump "selected sm90_xmma_gemm" "jump: /gemm selects a GEMM"
send jump J
wait_for jump "selected cudaLaunchKernel" "J: its launch call"
check "... whose thread's lanes are on screen, the focus on its lane" \
    grep -qE '^▸' "$tmp/screen"
check "... the launching thread labelled" grep -qF ' pt_a' "$tmp/screen"
send jump J
wait_for jump "selected sm90_xmma_gemm" "J again: the GEMM"
send jump u
wait_for jump "selected aten::mm" "u: the op that launched it"
check "... its lane is on screen, focused" grep -qE '^▸' "$tmp/screen"
send jump u
if poll sh -c "! tmux -S '$sock' capture-pane -p -t jump | grep -qF 'selected aten::mm'"
then pass "u again: the event around the op"; else fail "u again: the event around the op"; fi
send jump q
wait_for jump "status=0" "jump: q quits"
# --- a file cut short: the viewer says so ---
"$PYTHON3" -c '
import gzip, sys
d = gzip.open(sys.argv[1]).read()
open(sys.argv[2], "wb").write(d[:len(d) * 2 // 3])
' "$example" "$tmp/cut.json" || bail "cannot cut the example"
start cut -- "'$tmp/cut.json'"
check "a file cut short: the title has the badge" grep -q 'cut short *$' "$tmp/screen"
check "a file cut short: the panel lists the warning" \
    grep -qF 'load: ' "$tmp/screen"
check "a file cut short: the last step may be incomplete" \
    grep -qF '#15 may be incomplete' "$tmp/screen"
send cut q
wait_for cut "status=0" "a file cut short: q quits"
dlrm=${GANTTY_CORPUS:-$top_srcdir/../shared/corpus}/param/et_replay/tests/inputs/dlrm_kineto
if [ -d "$dlrm" ]; then
	"$GANTTY" --report --format=json -q "$dlrm" >"$tmp/dlrm.json"
	want=$("$PYTHON3" -c '
import json, sys
r = json.load(open(sys.argv[1]))["ranks"][0]["gpu"]
w = r["busy_ns"] + r["idle_ns"]
print("%.1f%%" % (100.0 * r["idle_ns"] / w))
' "$tmp/dlrm.json")
	start dlrm -- "'$dlrm'"
	send dlrm F
	wait_for dlrm "idle 6.419 ms ($want)" "DLRM: F fits rank 0's own span, the panel equals its report"
	send dlrm q
	wait_for dlrm "status=0" "DLRM: q quits"
else
	skip "DLRM: F fits the rank's own span" "no corpus"
fi
qwen=${GANTTY_CORPUS:-$top_srcdir/../shared/corpus}/tracelens/tests/traces/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz
if [ -f "$qwen" ]; then
	start qwen -- "'$qwen'"
	send qwen g
	wait_for qwen "selected gap at" "the Qwen trace: g finds a gap (none after the cursor: the nearest before)"
	send qwen q
	wait_for qwen "status=0" "the Qwen trace: q quits"
else
	skip "the Qwen trace: g finds a gap" "no corpus"
fi

finish
