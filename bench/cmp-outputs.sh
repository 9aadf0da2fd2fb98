#!/bin/bash
# cmp-outputs.sh OLD NEW [TRACE...]: runs two gantty binaries on each trace
# (default: tests/fixtures and ../shared/corpus or $GANTTY_CORPUS, every
# .json and .json.gz)
# in six modes (--report json/text/csv, three --render frames), diffs each
# trace against the next in the list (--diff, JSON and text) and its first
# two steps (--diff-steps=N:M, JSON; 1:2 without two), and names every trace and mode whose output
# or exit status differ.  Exit 1 if any.
# Each binary has a cache of its own (a temporary XDG_CACHE_HOME), so that
# NEW never reads a model OLD's loader built; CMP_NO_CACHE=1 loads every
# trace afresh in every mode (--no-cache), for changes to the loader.
OLD=$1 NEW=$2
shift 2
fail=0 ntraces=0
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
nocache=
[ "${CMP_NO_CACHE:-0}" = 1 ] && nocache=--no-cache
if [ $# -eq 0 ]; then
	top=$(cd "$(dirname "$0")/.." && pwd)
	set -- $(find "$top/tests/fixtures" "${GANTTY_CORPUS:-$top/../shared/corpus}" \
	    -name '*.json' -o -name '*.json.gz' 2>/dev/null | sort)
fi
# same MODE...: whether OLD and NEW give the same output and exit status
same() {
	a=$(XDG_CACHE_HOME=$cache/old $OLD $nocache "$@" 2>&1; echo "rc=$?")
	b=$(XDG_CACHE_HOME=$cache/new $NEW $nocache "$@" 2>&1; echo "rc=$?")
	[ "$a" = "$b" ]
}
set -- "$@" "$1"        # the last trace is diffed against the first
while [ $# -gt 1 ]; do
	f=$1 next=$2
	shift
	for mode in "--report --format=json" "--report --format=text" \
	    "--report --format=csv" "--render" \
	    "--render --cpu --width=200 --height=60" "--render --step=2"; do
		if ! same $mode -q "$f"; then
			echo "differ: $mode $f"
			fail=1
		fi
	done
	for fmt in json text; do
		if ! same --diff --format=$fmt -q "$f" "$next"; then
			echo "differ: --diff --format=$fmt $f $next"
			fail=1
		fi
	done
	steps=$(XDG_CACHE_HOME=$cache/new $NEW --report --format=csv -q "$f" 2>/dev/null |
	    awk -F, 'NR > 1 && $0 == "" { exit } NR > 1 { print $4 }' | head -n 2 |
	    paste -s -d : -)
	case $steps in *:*) ;; *) steps=1:2 ;; esac
	if ! same --diff-steps=$steps --format=json -q "$f"; then
		echo "differ: --diff-steps=$steps --format=json $f"
		fail=1
	fi
	ntraces=$((ntraces + 1))
done
echo "$ntraces traces compared, $([ $fail = 0 ] && echo identical || echo DIFFERENT)"
exit $fail
