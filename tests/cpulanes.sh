#!/bin/sh
# The CPU side on real traces (the corpus; skipped without it): with_stack's
# Python frames folded away, the CPU lanes show ProfilerStep, aten ops and
# runtime calls where they run, on the mi300 ResNet, the Qwen H100 and the
# DLRM traces, each thread labelled with its tid; p shows the frames again.
# Then in tmux, as a user does it: at 200x60 the lanes show by themselves
# and c hides and shows them; on the HTA
# negative-queue trace, /aten::mm selects an op, Tab Tab shows the kernels
# it launched and its Input Dims, J lands on its kernel (the op that
# launched it named) and J again on the launch call.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

need_corpus
resnet=$corpus/tracelens/tests/traces/mi300/resnet_act_checkpoint.json.gz
qwen=$corpus/tracelens/tests/traces/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz
dlrm=$corpus/param/et_replay/tests/inputs/dlrm_kineto/worker0_step_12.1694128201545.pt.trace.json
negq=$corpus/hta/tests/data/negative_queue_length_values_check/rank0.json.gz

# cpu_frame NAME FILE WINDOW [ARGS]: the CPU lanes of the --render frame.
cpu_frame() {
	_n=$1 file=$2 win=$3; shift 3
	LC_ALL=C.UTF-8 "$GANTTY" --render --cpu --color=never --width=200 \
	    --height=60 --window="$win" -q "$@" "$file" >"$tmp/$_n.full" ||
	    fail "$_n: --render"
	# from the first thread's lane to the panel
	sed -n '/^ bubbles/,/^─/p' "$tmp/$_n.full" >"$tmp/$_n"
}
# shows_all NAME TEXT...: every TEXT is in the CPU lanes of NAME.
shows_all() {
	_n=$1; shift
	for text; do
		grep -qF -- "$text" "$tmp/$_n" || {
			echo "not in the CPU lanes: $text" >&2
			sed 's/^/# /' "$tmp/$_n" >&2
			return 1
		}
	done
}

cpu_frame resnet "$resnet" 35.03ms:35.06ms
check "mi300 ResNet: ProfilerStep, aten ops and hipLaunchKernel at any depth" \
    shows_all resnet "ProfilerStep#17" "aten::batch_norm" "aten::native_batch_norm" \
    "hipLaunchKernel"
check "mi300 ResNet: threads labelled with their tid" \
    shows_all resnet " python3 542 " " pt_aut"
check "mi300 ResNet: no Python frame in the folded lanes" \
    sh -c "! grep -qE 'train_ddp|\\.py\\(' '$tmp/resnet'"
cpu_frame resnet-py "$resnet" 35.03ms:35.06ms --python
check "p / --python: the Python frames come back, the module first" \
    shows_all resnet-py "train_ddp.py(184): <module>"
cpu_frame qwen "$qwen" 19.08ms:19.15ms
check "Qwen H100: ProfilerStep, aten ops and cudaLaunchKernel" \
    shows_all qwen "ProfilerStep#6" "aten::linear" "aten::addmm" "cudaLaunchKernel"
cpu_frame dlrm "$dlrm" 4ms:4.5ms
check "DLRM: ProfilerStep, aten ops and the synchronisation" \
    shows_all dlrm "ProfilerStep#10" "aten::index" "cudaStreamSynchronize"

# ---- in tmux ----
command -v tmux >/dev/null 2>&1 || { skip "the viewer in tmux" "no tmux"; finish; }
calibrate
. "$top_srcdir/tests/tmuxlib.sh"
title_text="  window +"
hint_text="? help"
T new-session -d -s gantty -x 200 -y 60 "cat" || { skip "the viewer in tmux" "no tmux server"; finish; }

start resnet 200x60 -- "'$resnet'"
# 200x60 has room: the CPU lanes show by themselves; c hides, c shows
wait_for resnet " python3 542" "200x60: the ResNet's CPU lanes, labelled by thread and tid"
check "... ProfilerStep on the main thread's first lane" grep -qE '^ python3 542 .*ProfilerStep#' "$tmp/screen"
send resnet c
if poll sh -c "! tmux -S '$sock' capture-pane -p -t resnet | grep -qF ' python3 542'"
then pass "c hides them"; else fail "c hides them"; fi
send resnet c
wait_for resnet " python3 542" "c shows them again"
send resnet q

start negq 200x60 -- "'$negq'"
send negq /
T send-keys -t negq -l '^aten::mm$'
send negq Enter
wait_for negq "selected aten::mm" "/^aten::mm\$ selects the op"
send negq Tab Tab
wait_for negq "GPU time" "Tab Tab: the op's details list the kernels it launched"
check "... with their names" grep -qE 'launched [0-9]+ kernels?, GPU time .*: ampere_sgemm' "$tmp/screen"
wait_for negq "Input Dims" "... and its args as the trace has them: Input Dims"
check "... the dims themselves" grep -qE '^ Input Dims  \[\[[0-9]+,[0-9]+\],\[[0-9]+,[0-9]+\]\]' "$tmp/screen"
send negq J
wait_for negq "launched by cudaLaunchKernel" "J: on the first kernel the op launched"
check "... which names the op that launched it" grep -qE '^ launched in op aten::' "$tmp/screen"
wait_for negq " grid  [" "... and shows the kernel's args: its grid"
check "... and its block" grep -qE '^ block  \[[0-9]+,[0-9]+,[0-9]+\]' "$tmp/screen"
send negq J
wait_for negq "launches " "J again: on the launch call"
check "... cudaLaunchKernel selected, naming its kernel and the op around it" sh -c "
    grep -qE '^ cudaLaunchKernel' '$tmp/screen' &&
    grep -qE '^ correlation [0-9]+  launches [a-z_]+' '$tmp/screen' &&
    grep -qE '^ inside op aten::' '$tmp/screen'"
send negq J
wait_for negq "launched by cudaLaunchKernel" "J a third time: back on the kernel"
send negq q
finish
