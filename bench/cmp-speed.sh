#!/bin/sh
# cmp-speed.sh OLD_BUILD NEW_BUILD [TRACE...]: two builds of gantty (their
# build directories, each with gantty and bench/bench-frame) side by side
# on the same files in the same run, for changes that must not make gantty
# slower: first load (gantty --report -q --no-cache), the viewer's first
# frame (--render --no-cache), and bench-frame's worst 200x60 frame and
# worst window metrics.  The two builds run alternately, CMP_REPS times each
# (default 5), and the table gives each one's median and NEW / OLD: on a
# shared, noisy machine a ratio within a few percent of 1.00 is noise.
# Without TRACE: bench/out/gen-100/rank-0.json and its .gz, and
# bench/out/gen-1000/rank-0.json when bench/run has made them.
set -eu
old=${1:?usage: cmp-speed.sh OLD_BUILD NEW_BUILD [TRACE...]}
new=${2:?usage: cmp-speed.sh OLD_BUILD NEW_BUILD [TRACE...]}
shift 2
top=$(cd "$(dirname "$0")/.." && pwd)
reps=${CMP_REPS:-5}
if [ $# -eq 0 ]; then
	for f in "$top/bench/out/gen-100/rank-0.json" \
	    "$top/bench/out/gen-100/rank-0.json.gz" \
	    "$top/bench/out/gen-1000/rank-0.json"; do
		[ -f "$f" ] && set -- "$@" "$f"
	done
fi
[ $# -gt 0 ] || { echo "cmp-speed: no traces (run bench/run first, or name some)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
XDG_CACHE_HOME=$tmp/cache
export XDG_CACHE_HOME

# secs CMD...: wall seconds of one run.
secs() {
	/usr/bin/time -f %e -o "$tmp/t" "$@" >/dev/null 2>&1 || { echo failed; return; }
	cat "$tmp/t"
}
median() {
	sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# frame BUILD TRACE: "worst_frame_ms worst_metrics_us whole_median_ms
# whole_metrics_median_us" from bench-frame: its summary (the worst over its
# four windows), and the median 200x60 frame (CPU lanes on) and median
# window metrics of the whole trace.  The worst of 1000 metrics calls is one
# outlier on a shared machine; the medians are what to compare.
frame() {
	"$1/bench/bench-frame" --no-cache "$2" 2>/dev/null | awk '
	    /^whole trace/ { split($0, p, "|"); split(p[3], q, "/"); sub(/ms.*/, "", q[2]); w = q[2] + 0
	        split(p[4], r, "/"); sub(/us.*/, "", r[2]); mm = r[2] + 0 }
	    /^summary/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
	    END { printf "%s %s %s %s\n", v["frame_ms"] + 0, v["metrics_us"] + 0, w, mm }'
}
printf '| trace | measure | old median | new median | new / old |\n|---|---|---:|---:|---:|\n'
for f in "$@"; do
	label=$(basename "$(dirname "$f")")/$(basename "$f")
	: >"$tmp/load.old"; : >"$tmp/load.new"; : >"$tmp/rend.old"; : >"$tmp/rend.new"
	: >"$tmp/fr.old"; : >"$tmp/fr.new"; : >"$tmp/me.old"; : >"$tmp/me.new"
	: >"$tmp/wh.old"; : >"$tmp/wh.new"; : >"$tmp/mm.old"; : >"$tmp/mm.new"
	i=0
	while [ $i -lt "$reps" ]; do
		i=$((i + 1))
		for b in old new; do
			eval dir=\$$b
			secs "$dir/gantty" --report -q --no-cache "$f" >>"$tmp/load.$b"
			secs "$dir/gantty" --render --no-cache "$f" >>"$tmp/rend.$b"
			frame "$dir" "$f" >"$tmp/fm"
			cut -d' ' -f1 "$tmp/fm" >>"$tmp/fr.$b"
			cut -d' ' -f2 "$tmp/fm" >>"$tmp/me.$b"
			cut -d' ' -f3 "$tmp/fm" >>"$tmp/wh.$b"
			cut -d' ' -f4 "$tmp/fm" >>"$tmp/mm.$b"
		done
	done
	for m in "load:first load (s)" "rend:first frame, --render (s)" \
	    "wh:median 200x60 frame, whole trace, CPU lanes (ms)" \
	    "fr:worst 200x60 frame (ms)" "mm:median window metrics, whole trace (us)" \
	    "me:worst window metrics (us)"; do
		k=${m%%:*}
		a=$(median <"$tmp/$k.old")
		b=$(median <"$tmp/$k.new")
		printf '| %s | %s | %s | %s | %s |\n' "$label" "${m#*:}" "$a" "$b" \
		    "$(awk -v a="$a" -v b="$b" 'BEGIN { printf (a > 0 ? "%.2f" : "-"), b / a }')"
	done
done
