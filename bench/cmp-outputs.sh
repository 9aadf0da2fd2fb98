#!/bin/bash
# cmp-outputs.sh OLD NEW [TRACE...]: runs two gantty binaries on each trace
# (default: tests/fixtures and ../shared/corpus or $GANTTY_CORPUS, every
# .json and .json.gz)
# in six modes (--report json/text/csv, three --render frames) and names
# every trace and mode whose output or exit status differ.  Exit 1 if any.
OLD=$1 NEW=$2
shift 2
fail=0
if [ $# -eq 0 ]; then
	top=$(cd "$(dirname "$0")/.." && pwd)
	set -- $(find "$top/tests/fixtures" "${GANTTY_CORPUS:-$top/../shared/corpus}" \
	    -name '*.json' -o -name '*.json.gz' 2>/dev/null | sort)
fi
for f in "$@"; do
	for mode in "--report --format=json" "--report --format=text" \
	    "--report --format=csv" "--render" \
	    "--render --cpu --width=200 --height=60" "--render --step=2"; do
		a=$($OLD $mode -q "$f" 2>&1; echo "rc=$?")
		b=$($NEW $mode -q "$f" 2>&1; echo "rc=$?")
		if [ "$a" != "$b" ]; then
			echo "differ: $mode $f"
			fail=1
		fi
	done
done
echo "$# traces compared, $([ $fail = 0 ] && echo identical || echo DIFFERENT)"
exit $fail
