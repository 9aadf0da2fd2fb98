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

# Window, busy, idle, compute, comm, overlap and exposed comm per (rank,
# device), against an independent sweep in Python, to the nanosecond: the
# 8-rank DLRM job and the multi-stream NCCL traces.
h=$corpus/hta/tests/data
check "DLRM metrics equal an independent computation" \
	"$PYTHON3" "$top_srcdir/tests/metrics_check.py" "$GANTTY" "$dlrm"/*.json
check "NCCL trace metrics equal an independent computation" \
	"$PYTHON3" "$top_srcdir/tests/metrics_check.py" "$GANTTY" \
	"$h/negative_queue_length_values_check/rank0.json.gz" \
	"$h/nccl_parser_config/nccl_data.json.gz" \
	"$h/trace_diff/control/control.json.gz" \
	"$h/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz" \
	"$corpus/tracelens/tests/traces/mi300/ddp_resnet18_no_pool/train_resnet18.json.gz" \
	"$corpus/kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.pt.trace.json.gz"

finish
