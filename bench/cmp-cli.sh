#!/bin/bash
# cmp-cli.sh OLD NEW: runs two gantty binaries on the command lines around
# the reports (--diff, --diff-steps, --compare, --reports, --align, --help,
# --version, --keys, warnings, bad command lines) and names every command
# line whose standard output, standard error or exit status differ.  Exit 1
# if any.  Traces: tests/fixtures/small.json, share/example.json.gz, and
# ranks made by tools/gen-trace ($GEN_TRACE) in a temporary directory.
OLD=$1 NEW=$2
[ -x "$OLD" ] && [ -x "$NEW" ] || { echo "usage: cmp-cli.sh OLD NEW" >&2; exit 2; }
OLD=$(cd "$(dirname "$OLD")" && pwd)/$(basename "$OLD")
NEW=$(cd "$(dirname "$NEW")" && pwd)/$(basename "$NEW")
top=$(cd "$(dirname "$0")/.." && pwd)
gen=${GEN_TRACE:-$top/tools/gen-trace}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
T=$top/tests/fixtures/small.json
E=$top/share/example.json.gz
G=$tmp/ranks
"$gen" --ranks=3 --steps=4 --layers=2 --kernels=5 --out="$G" >/dev/null || exit 2
mkdir "$tmp/mixed" "$tmp/broken" "$tmp/reports"
cp "$G/rank-0.json" "$G/rank-1.json" "$tmp/mixed/"
echo '{"schemaVersion": 1}' >"$tmp/mixed/notes.json"
cp "$G/rank-0.json" "$tmp/broken/"
head -c 3000 "$G/rank-1.json" >"$tmp/broken/rank-1.json"
for r in 0 1 2; do
	"$OLD" --report --format=json -q "$G/rank-$r.json" >"$tmp/reports/rank-$r.report.json"
done
fail=0 n=0
# one: the command line, run by both (argv[0] "gantty", a cache each)
one() {
	local a b
	a=$(cd "$tmp" && XDG_CACHE_HOME=$tmp/cache-a bash -c 'exec -a gantty "$0" "$@"' \
	    "$OLD" "$@" 2>&1 </dev/null; echo "rc=$?")
	b=$(cd "$tmp" && XDG_CACHE_HOME=$tmp/cache-b bash -c 'exec -a gantty "$0" "$@"' \
	    "$NEW" "$@" 2>&1 </dev/null; echo "rc=$?")
	n=$((n + 1))
	if [ "${a//cache-a/cache-X}" != "${b//cache-b/cache-X}" ]; then
		echo "differ: gantty $*"
		fail=1
	fi
}
one --help
one --version
one -V
one --keys
one
one --bogus "$T"
one --r "$T"
one --c "$T"
one --width=0 --render "$T"
one --format=xml "$T"
one --window=zz --report "$T"
one --window=5ms:1ms --report "$T"
one --window=zz:1ms --report "$T"
one --window=1ms:zz --report "$T"
one --layer-pattern='(' --report "$T"
one --diff "$T"
one --diff-steps=1 "$T"
one --compare "$T"
one --report "$tmp/missing.json"
one --report "$T" "$tmp/missing.json"
one --report "$tmp/missing-dir"
one "$T"
one --diff "$T" "$E"
one --diff --format=json "$T" "$E"
one --diff "$G/rank-0.json" "$G/rank-1.json"
one --diff --format=json --rank=1 "$G/rank-0.json" "$G/rank-1.json"
one --diff --rank=5 "$G/rank-0.json" "$G/rank-1.json"
one --diff-steps=1:2 "$T"
one --diff-steps=1:2 "$E"
one --diff-steps=1:2 --format=json "$E"
one --diff-steps=11:12 "$G/rank-0.json"
one --diff-steps=11:99 "$G/rank-0.json"
one --compare "$T" "$E" --render
one --compare "$G/rank-0.json" "$G/rank-1.json" --render
one --compare --diff-table --ascii --render "$G/rank-0.json" "$G/rank-1.json"
one --render --baseline=99 "$T"
one --reports --report "$tmp/reports"
one --reports --report --format=json "$tmp/reports"
one --reports --report --format=csv "$tmp/reports"
one --reports --align=collective --report "$tmp/reports"
one --reports --render "$tmp/reports"
one --reports --render --width=100 --height=30 --matrix "$tmp/reports"
one --reports --rank=1 --report "$tmp/reports"
one --reports --rank=2 --render "$tmp/reports"
one --reports --rank=7 --report "$tmp/reports"
one --reports --report "$T"
one --reports --report "$tmp/missing.json"
one --align=collective --report "$G"
one --align=collective --report --format=json "$G"
one --align=collective --render "$G"
one --align=collective --report --rank=1 "$G"
one --report "$G"
one --report --step=12 "$G"
one --report --step=99 "$G"
one --report --rank=9 "$G"
one --report --window=1ms: "$G"
one --report "$tmp/mixed"
one --report -q "$tmp/mixed"
one --report "$tmp/broken"
one -v --report "$T"
one -v --report "$T"
echo "$n command lines compared, $([ $fail = 0 ] && echo identical || echo DIFFERENT)"
exit $fail
