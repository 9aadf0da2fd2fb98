#!/bin/sh
# The layer band and the marks, from --render against --report: the layer
# band of --step=15 of the bundled example holds, in each column, the
# innermost layer whose GPU extent (from the JSON report) covers the
# column's middle, and its name where the run is wide enough; the step
# band names the step; --marks=A:B gives the panel the numbers of
# --report --window=A:B; --select of a kernel names the op that launched
# it, and --panel=selection shows the op's kernels.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

[ -n "$PYTHON3" ] || skip_all "no python3"
example=$top_srcdir/share/example.json.gz
W=200 H=50

"$GANTTY" --report --format=json -q --step=15 "$example" >"$tmp/step.json" ||
    bail "--report --step=15 of the example"
LC_ALL=C "$GANTTY" --render --ascii --color=never --width=$W --height=$H \
    --step=15 -q "$example" >"$tmp/frame.txt" || bail "--render --step=15"
check "the layer band's columns are the layers' GPU extents of step 15" \
    "$PYTHON3" - "$tmp/step.json" "$tmp/frame.txt" $W <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["ranks"][0]
lines = open(sys.argv[2]).read().split("\n")
width = int(sys.argv[3])
x0 = 14                                 # RENDER_LABEL_W
cols = width - x0
a, b = r["window"]["start_ns"], r["window"]["end_ns"]
span = b - a
band = [l for l in lines if l.startswith(" layers")]
steps = [l for l in lines if l.startswith(" steps ")]
assert len(band) == 1 and len(steps) == 1, "one layer band and one step band"
band = band[0].ljust(width)
layers = [l for l in r["layers"] if "gpu_start_ns" in l and l["gpu_end_ns"] > l["gpu_start_ns"]]
bad = 0
runs = {}
for c in range(cols):
    s = a + c * span // cols
    e = a + (c + 1) * span // cols
    mid = s + (e - s) // 2
    cover = [l for l in layers if l["gpu_start_ns"] <= mid < l["gpu_end_ns"]]
    want = min(cover, key=lambda l: l["gpu_end_ns"] - l["gpu_start_ns"]) if cover else None
    cell = band[x0 + c]
    if want is not None and cell == " ":
        # a blank inside the layer's name, written over its run
        label = want["name"] + (" fwd" if want["phase"] == "forward" else " bwd")
        i = band.find(label)
        if i >= 0 and i <= x0 + c < i + len(label):
            cell = "x"
    if (want is None) != (cell == " "):
        print("column %d: %r, want %s" % (c, cell, want and want["name"]), file=sys.stderr)
        bad += 1
    if want is not None:
        key = (want["name"], want["phase"], want["gpu_start_ns"])
        runs.setdefault(key, []).append(c)
# every layer whose run is wide enough carries its name in it
for (name, phase, _), cs in runs.items():
    label = name + (" fwd" if phase == "forward" else " bwd" if phase == "backward" else "")
    if len(cs) >= len(label) + 2 and label not in band[x0 + cs[0]:x0 + cs[-1] + 1]:
        print("layer %s not named in its run %d..%d" % (label, cs[0], cs[-1]), file=sys.stderr)
        bad += 1
if len(runs) < 8:
    print("only %d layers in the band" % len(runs), file=sys.stderr)
    bad += 1
if "#15" not in steps[0]:
    print("the step band does not name #15: %r" % steps[0], file=sys.stderr)
    bad += 1
sys.exit(1 if bad else 0)
PY

# Marks: the panel of --marks=A:B is the report of --window=A:B.
for range in 300ms:330ms 100ms:101ms 0ms:617ms; do
	"$GANTTY" --report --format=json -q --window=$range "$example" >"$tmp/win.json" ||
	    fail "--report --window=$range"
	LC_ALL=C.UTF-8 "$GANTTY" --render --color=never --width=200 --height=50 \
	    --marks=$range -q "$example" >"$tmp/marks.txt" || fail "--render --marks=$range"
	check "--marks=$range: the panel's numbers are --report --window=$range's" \
	    env PYTHONPATH="$top_srcdir/tests" "$PYTHON3" - "$tmp/win.json" "$tmp/marks.txt" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["ranks"][0]
text = open(sys.argv[2], encoding="utf-8").read()

from gfmt import panel_strings

want = ["marked "] + panel_strings(r)
bad = [w for w in want if w not in text]
for w in bad:
    print("not in the panel: %r" % w, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
done
expect 2 "--marks that end before they start is a usage error" \
    "$GANTTY" --render --marks=30ms:20ms "$example"
check "... saying so" grep -q -- "--marks must end after it starts" "$tmp/err"

# --select: a kernel names the op that launched it; an op lists its kernels.
LC_ALL=C.UTF-8 "$GANTTY" --render --color=never --width=160 --height=40 \
    --select=sm90_xmma_gemm -q "$example" >"$tmp/sel.txt" || fail "--select"
check "--select of a kernel: the panel says which op launched it" sh -c "
    grep -q 'selected sm90_xmma_gemm' '$tmp/sel.txt' &&
    grep -q 'launched in aten::' '$tmp/sel.txt'"
LC_ALL=C.UTF-8 "$GANTTY" --render --color=never --width=160 --height=40 \
    --select=sm90_xmma_gemm --panel=selection -q "$example" >"$tmp/sel2.txt" ||
    fail "--select --panel=selection"
check "--panel=selection: the kernel's launch call and its op" sh -c "
    grep -q 'launched by cudaLaunchKernel' '$tmp/sel2.txt' &&
    grep -q 'launched in op aten::' '$tmp/sel2.txt'"
LC_ALL=C.UTF-8 "$GANTTY" --render --color=never --width=160 --height=40 \
    --select='^aten::mm$' --panel=selection -q "$example" >"$tmp/sel3.txt" ||
    fail "--select of an op"
check "an op's details: the kernels it launched and their GPU time" \
    grep -qE 'launched [0-9]+ kernels?, GPU time [0-9.]+ [mun]?s: sm90_xmma_gemm' "$tmp/sel3.txt"
check "an op's details: its args as the trace has them (Input Dims)" \
    grep -qE '^ Input Dims  \[\[4096,4096\],\[4096,[0-9]+\]\]' "$tmp/sel3.txt"

# Spare rows: at 200x50 the example's CPU lanes show by themselves, the
# findings still listed under the panel; at 120x40 there is no room.
LC_ALL=C.UTF-8 "$GANTTY" --render --color=never --width=200 --height=50 -q \
    "$example" >"$tmp/big.txt" || fail "--render 200x50"
check "200x50: the CPU lanes fill spare rows, the findings stay" sh -c "
    grep -qE '^ pyth.* 12345 .*ProfilerStep#' '$tmp/big.txt' &&
    grep -q '^ findings (e):' '$tmp/big.txt'"
LC_ALL=C.UTF-8 "$GANTTY" --render --color=never --width=120 --height=40 -q \
    "$example" >"$tmp/small.txt" || fail "--render 120x40"
check "120x40: no room, no CPU lanes until c" sh -c "! grep -q '12345' '$tmp/small.txt'"
finish
