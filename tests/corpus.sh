#!/bin/sh
# Every trace of ../shared/corpus loads, with counts, time range and GPU
# window equal to an independent count made by Python's json module; the
# files that are not traces fail with a message naming file and offset.  The
# 8-rank DLRM directory loads as 8 ranks.  Skipped without the corpus.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

need_corpus
if [ -z "$PYTHON3" ]; then
	echo "skip: python3 is needed for the independent count" >&2
	exit 77
fi

check "corpus counts match an independent count" \
	"$PYTHON3" "$top_srcdir/tests/corpus_count.py" "$GANTTY" "$corpus"

dlrm=$corpus/param/et_replay/tests/inputs/dlrm_kineto
"$GANTTY" --report --format=json -q "$dlrm" >"$tmp/dlrm.json"
check "a directory of 8 ranks loads" test $? -eq 0
check "ranks 0..7 in order" "$PYTHON3" -c '
import json, sys
r = json.load(open(sys.argv[1]))["ranks"]
assert [x["rank"] for x in r] == list(range(8)), [x["rank"] for x in r]
assert all(x["path"].endswith(".pt.trace.json") for x in r)
' "$tmp/dlrm.json"

finish
