#!/bin/sh
# tests/range_view.sh: working on a range and going back and forth in the
# viewer (issue 35), as a user does it on the mi300 ResNet DDP trace: a
# mouse drag across the lanes sets the two marks (the panel measures the
# range; the kernels panel lists the range's kernels), Z zooms to exactly
# that range (two actions from the first screen), z and Backspace go back
# and y forward through the places visited (the windows and the steps
# selected), and ( moves the cursor without panning.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

corpus=$top_srcdir/../shared/corpus
resnet=$corpus/tracelens/tests/traces/mi300/resnet_act_checkpoint.json.gz
[ -f "$resnet" ] || skip_all "no mi300 trace at $resnet"
. "$top_srcdir/tests/tmuxlib.sh"
title_text="  window +"
hint_text="? help"
T new-session -d -s gantty -x 150 -y 45 "cat" || skip_all "cannot start a tmux server"

# the title's window, "+A .. +B (D)"
window_of() { line "$1" 1 | sed -n 's/.*  window \(+[^)]*)\).*/\1/p'; }

start rv 150x45 -- "'$resnet'"
wait_for rv "slowest #15 (O)" "the mi300 trace's first screen"
w0=$(window_of rv)
check "... its window is in the title: $w0" [ -n "$w0" ]
# the lanes' time area starts after their 14-column labels; row 5 is a lane
drag rv 40 5 80
wait_for rv " marked +" "a drag across the lanes marks a range"
range=$(sed -n 's/^ marked \(+[^)]*)\): the numbers below.*/\1/p' "$tmp/screen" | head -n 1)
check "... which the panel measures: $range" [ -n "$range" ]
send rv Tab
wait_for rv "top kernels in the marked range" "Tab: the kernels panel lists the range's kernels"
wait_for rv "Z zoom to marks" "... and the hint offers Z"
send rv Tab Tab
send rv Z
if poll sh -c "[ \"\$(tmux -S '$sock' capture-pane -p -t rv | sed -n 1p | sed -n 's/.*  window \(+[^)]*)\).*/\1/p')\" = '$range' ]"
then pass "Z: the window is the marked range, 2 actions from the first screen"; else
	fail "Z: the window is the marked range"; line rv 1 | sed 's/^/# /'; fi
send rv z
wait_for rv "window $w0" "z: back to the first window"
send rv y
wait_for rv "window $range" "y: forward to the range again"
send rv BSpace
wait_for rv "window $w0" "Backspace: back too"
# the cursor moves a column; the window stays
c1=$(T capture-pane -p -t rv | sed -n 's/.* cursor \(+[^ ]* [mun]*s\) .*/\1/p' | head -n 1)
check "the panel's top line shows the cursor: $c1" [ -n "$c1" ]
send rv "("
if poll sh -c "tmux -S '$sock' capture-pane -p -t rv | grep -q ' cursor ' &&
    ! tmux -S '$sock' capture-pane -p -t rv | grep -qF ' cursor $c1 '"
then pass "(: the cursor moves from $c1"; else fail "(: the cursor moves"; fi
check "... the window stays" [ "$(window_of rv)" = "$w0" ]
# the steps visited: O, then ], then back and forward
send rv O
wait_for rv "selected step 15" "O: the slowest step, #15"
send rv ]
wait_for rv "selected step 16" "]: the next, #16"
send rv z
wait_for rv "selected step 15" "z: back to #15, selected again"
send rv y
wait_for rv "selected step 16" "y: forward to #16"
send rv q
restored rv "q"
finish
