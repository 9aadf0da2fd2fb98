#!/bin/sh
# Every trace of ../shared/corpus loads, with counts, time range and GPU
# window equal to an independent count made by Python's json module; the
# files that are not traces fail with a message naming file and offset.  The
# 8-rank DLRM directory loads as 8 ranks.  Skipped without the corpus.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

need_corpus
[ -n "$PYTHON3" ] || skip_all "python3 is needed for the independent count"

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

# Each rank's entry equals that of the rank's trace loaded alone, and the
# per-rank reports read back give the same cross-rank tables.
mkdir "$tmp/dlrm-reports"
for f in "$dlrm"/*.json; do
	"$GANTTY" --report --format=json -q "$f" >"$tmp/dlrm-reports/$(basename "$f")"
done
check "DLRM: every rank's numbers equal a single-rank run" "$PYTHON3" -c '
import json, os, sys
together = json.load(open(sys.argv[1]))["ranks"]
for r in together:
    alone = json.load(open(os.path.join(sys.argv[2], os.path.basename(r["path"]))))["ranks"]
    assert len(alone) == 1 and alone[0] == r, r["rank"]
' "$tmp/dlrm.json" "$tmp/dlrm-reports"
"$GANTTY" --reports --report --format=json "$tmp/dlrm-reports" >"$tmp/dlrm-merged.json"
check "DLRM: cross_rank from per-rank reports equals cross_rank from the traces" \
    cmp -s "$(sed -n '/^  "cross_rank": /,$p' "$tmp/dlrm.json" >"$tmp/a"; echo "$tmp/a")" \
    "$(sed -n '/^  "cross_rank": /,$p' "$tmp/dlrm-merged.json" >"$tmp/b"; echo "$tmp/b")"
check "DLRM: 8 collectives matched across the 8 ranks, rank 7 the straggler" "$PYTHON3" -c '
import json, sys
x = json.load(open(sys.argv[1]))["cross_rank"]
assert x["collectives"]["matched"] == 8 and x["collectives"]["unmatched_keys"] == 0, x["collectives"]
assert x["straggler"] == {"rank": 7, "device": 7}, x["straggler"]
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
