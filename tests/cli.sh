#!/bin/sh
# The command line end to end: options and exit statuses, golden reports,
# standard input, gzip, directories, and bad input named by file and offset.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

fx=$top_srcdir/tests/fixtures
example=$top_srcdir/share/example.json.gz

expect 0 "--version" "$GANTTY" --version
file_has "$tmp/out" "gantty " "--version names the program"
expect 0 "--help" "$GANTTY" --help
file_has "$tmp/out" "--report" "--help lists --report"
file_has "$tmp/out" "  --keys " "--help lists --keys"
expect 2 "unknown option is a usage error" "$GANTTY" --bogus "$fx/small.json"
expect 2 "no trace is a usage error" "$GANTTY" --report
expect 2 "bad format is a usage error" "$GANTTY" --report --format=xml "$fx/small.json"
file_has "$tmp/err" "unknown report format 'xml'" "bad format is named"

# Golden reports (run from the fixture folder so paths are stable).
(cd "$fx" && "$GANTTY" --report --format=json small.json) >"$tmp/small.json"
check "golden JSON report" cmp -s "$tmp/small.json" "$fx/small.report.json"
(cd "$fx" && "$GANTTY" --report small.json) >"$tmp/small.txt"
check "golden text report" cmp -s "$tmp/small.txt" "$fx/small.report.txt"
expect 2 "the viewer refuses when stdout is not a terminal" "$GANTTY" "$fx/small.json"
file_has "$tmp/err" "use --render for a text frame or --report for the numbers" "the refusal hints at --render and --report"
expect 0 "--format alone implies --report" "$GANTTY" --format=json "$fx/small.json"
file_has "$tmp/out" '"exposed_comm_ns": 50749' "the JSON report has the exposed comm"

# Standard input, plain and gzip; gzip named .json.
expect 0 "stdin plain" sh -c "'$GANTTY' --report --format=json - <'$fx/small.json'"
file_has "$tmp/out" '"events": 15' "stdin plain loads every event"
gzip -c "$fx/small.json" >"$tmp/small-gz.json"
expect 0 "gzip found by magic bytes" "$GANTTY" --report --format=json "$tmp/small-gz.json"
file_has "$tmp/out" '"events": 15' "gzip loads every event"
expect 0 "stdin gzip" sh -c "'$GANTTY' --report --format=json - <'$tmp/small-gz.json'"
file_has "$tmp/out" '"time_range": {"start_ns": 1692998837400000, "end_ns": 1692998837700500}' \
	"stdin gzip has the exact time range"

# The bundled example.
expect 0 "the bundled example loads" "$GANTTY" --report --format=json "$example"
file_has "$tmp/out" '"rank": 0' "example is rank 0"
file_has "$tmp/out" '(pt_autograd_0)"' "example has the autograd thread"

# Truncated: every complete event, a warning with the ignored bytes.
size=$(wc -c <"$fx/small.json")
head -c $((size - 200)) "$fx/small.json" >"$tmp/cut.json"
expect 0 "a truncated trace loads" "$GANTTY" --report --format=json "$tmp/cut.json"
file_has "$tmp/err" "bytes ignored after the last complete event" "truncation is warned"
file_has "$tmp/out" '"events": 14' "truncation keeps the complete events"

# Not a trace: exit 1, file, byte offset and line.
printf '{"traceEvents": [\n\n  nope\n' >"$tmp/bad.json"
expect 1 "invalid JSON before any event fails" "$GANTTY" --report "$tmp/bad.json"
file_has "$tmp/err" "gantty: $tmp/bad.json: byte 22 (line 3): invalid JSON" "message names file, byte and line"
printf '{"traceEvents": [\n  {"ph": "i", "ts": 1},\n  nope\n' >"$tmp/late.json"
expect 0 "invalid JSON after events keeps them" "$GANTTY" --report "$tmp/late.json"
file_has "$tmp/err" "stopped reading at $tmp/late.json: byte 45 (line 3): invalid JSON" "the stop is warned with its place"
printf 'PK\003\004binary' >"$tmp/zip.json"
expect 1 "binary garbage fails" "$GANTTY" --report "$tmp/zip.json"
file_has "$tmp/err" "byte 0 (line 1): expected '{' or '['" "binary garbage message"
expect 1 "a missing file fails" "$GANTTY" --report "$tmp/none.json"
file_has "$tmp/err" "No such file or directory" "missing file message"
printf '\037\213\010\000garbage-not-deflate' >"$tmp/corrupt.json.gz"
expect 1 "corrupt gzip fails" "$GANTTY" --report "$tmp/corrupt.json.gz"
file_has "$tmp/err" "corrupt.json.gz" "corrupt gzip names the file"

# Directories: traces in numeric order, non-traces skipped with a warning.
mkdir "$tmp/run" "$tmp/empty"
cp "$fx/small.json" "$tmp/run/rank-10.json"
sed 's/"rank": 1, //' "$fx/small.json" >"$tmp/run/rank-9.json"
gzip -c "$fx/small.json" >"$tmp/run/worker2.json.gz"
echo '{"config": true}' >"$tmp/run/settings.json"
echo 'not json' >"$tmp/run/notes.txt"
expect 0 "a directory loads" "$GANTTY" --report --format=json "$tmp/run"
file_has "$tmp/err" "settings.json: byte 16 (line 1): no traceEvents array (not a trace), skipped" \
	"a non-trace JSON in a directory is skipped with a warning"
if [ -n "$PYTHON3" ]; then
	check "directory ranks: distributedInfo, else the file name" "$PYTHON3" -c '
import json, sys
r = json.load(open(sys.argv[1]))["ranks"]
got = [(x["path"].rsplit("/", 1)[1], x["rank"], x["rank_source"]) for x in r]
assert got == [("rank-9.json", 9, "file name"), ("rank-10.json", 1, "distributedInfo"),
               ("worker2.json.gz", 1, "distributedInfo")], got
' "$tmp/out"
else
	skip "directory ranks: distributedInfo, else the file name" "no python3"
fi
# a subdirectory and a dangling link named *.json are skipped the same way
mkdir "$tmp/odd" "$tmp/odd/sub.json"
cp "$fx/small.json" "$tmp/odd/a.json"
ln -s "$tmp/nowhere" "$tmp/odd/dangling.json"
expect 0 "a directory with a subdirectory and a dangling link named *.json loads" \
    "$GANTTY" --report -q "$tmp/odd"
expect 0 "  (again, with warnings)" "$GANTTY" --report "$tmp/odd"
file_has "$tmp/err" "sub.json: is a directory, skipped" "  the subdirectory is skipped with a warning"
file_has "$tmp/err" "dangling.json: No such file or directory, skipped" \
    "  the dangling link is skipped with a warning"
expect 1 "  a dangling link named on the command line is still an error" \
    "$GANTTY" --report -q "$tmp/odd/dangling.json"
expect 0 "the same rank twice loads" "$GANTTY" --report --format=json "$fx/small.json" "$fx/small.json"
file_has "$tmp/out" '"duplicate_ranks": [1]' "a duplicate rank is reported"
file_has "$tmp/out" '"missing_ranks": [0]' "a missing rank (world size 2) is reported"
expect 1 "an empty directory fails" "$GANTTY" --report "$tmp/empty"
file_has "$tmp/err" "no *.json or *.json.gz traces" "empty directory message"
echo '{"x": 1}' >"$tmp/lonely.json"
expect 1 "a non-trace named on the command line fails" "$GANTTY" --report "$tmp/lonely.json"

# Back-references are a glibc extension of ERE that can take exponential
# time: refused in every pattern (they were accepted; issue 18, case 10).
expect 2 "--layer-pattern with a back-reference is refused" \
    "$GANTTY" --report -q --layer-pattern='(a)\1' "$fx/small.json"
check "... saying why" grep -q "back-references .* are not supported" "$tmp/err"
expect 2 "--comm-pattern with a back-reference is refused" \
    "$GANTTY" --report -q --comm-pattern='(nccl)x\1' "$fx/small.json"
expect 0 "a backslash-digit inside a bracket is no back-reference" \
    "$GANTTY" --report -q --layer-pattern='[\1]x' "$fx/small.json"
finish
