#!/bin/sh
# The scale-out path (gantty --reports): 256 generated ranks, each reported
# on its own as a launcher would (xargs -P, the recipe of the man page), then
# read back; the cross-rank tables must equal those computed from the 256
# traces loaded together, byte for byte, with and without --align.  Then
# the matrix frame, opening one rank from the reports, and bad reports.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

n=256
"$GEN_TRACE" --ranks=$n --steps=3 --layers=1 --kernels=5 --seed=5 \
    --out="$tmp/traces" >/dev/null || bail "gen-trace failed"
mkdir "$tmp/reports"
# the recipe: one report per rank, two at a time
ls "$tmp/traces"/rank-*.json | xargs -P 2 -I{} sh -c \
    '"$1" --report --format=json -q "$2" >"$3/$(basename "$2")"' \
    sh "$GANTTY" {} "$tmp/reports"
check "$n per-rank reports written" \
    test "$(ls "$tmp/reports" | wc -l)" -eq $n

# cross_rank is the last member of the JSON: compare it as text
cross() {
	sed -n '/^  "cross_rank": /,$p' "$1"
}
for align in none collective; do
	"$GANTTY" --report --format=json -q --align=$align "$tmp/traces" >"$tmp/direct.json"
	check "--align=$align: the $n traces together" test $? -eq 0
	"$GANTTY" --reports --report --format=json --align=$align "$tmp/reports" >"$tmp/merged.json"
	check "--align=$align: the $n reports read back" test $? -eq 0
	cross "$tmp/direct.json" >"$tmp/a"
	cross "$tmp/merged.json" >"$tmp/b"
	check "--align=$align: cross_rank from the reports equals cross_rank from the traces" \
	    cmp -s "$tmp/a" "$tmp/b"
	check "--align=$align: something was matched" \
	    sh -c "! grep -q '\"matched\": 0,' '$tmp/a'"
done
gzip "$tmp/reports/rank-5.json"
"$GANTTY" --reports --report --format=json --align=collective "$tmp/reports" >"$tmp/merged-gz.json"
cross "$tmp/merged-gz.json" >"$tmp/c"
check "a gzip report reads the same" cmp -s "$tmp/b" "$tmp/c"
check "the reports list all $n ranks" \
    test "$(grep -c '"report": ' "$tmp/merged.json")" -eq $n
check "the straggler (the last rank) is named" \
    grep -q "\"straggler\": {\"rank\": $((n - 1)), " "$tmp/merged.json"

# (the report's cross-rank section comes first and ends at a blank line)
"$GANTTY" --report -q "$tmp/traces" | sed -n '/^cross-rank/,/^$/p' | sed '/^$/d' >"$tmp/a"
"$GANTTY" --reports --report "$tmp/reports" | sed -n '/^cross-rank/,$p' >"$tmp/b"
check "text: the same cross-rank tables" cmp -s "$tmp/a" "$tmp/b"
"$GANTTY" --reports --format=csv "$tmp/reports" >"$tmp/steps.csv"
check "csv: a header and one line per rank and step" \
    test "$(wc -l <"$tmp/steps.csv")" -eq $((n * 3 + 1))
check "csv: the header" test "$(head -n 1 "$tmp/steps.csv")" = "step,rank,device,time_ns"

# the matrix: one row per rank, scrolling
LC_ALL=C "$GANTTY" --reports --render --width=100 --height=30 "$tmp/reports" >"$tmp/frame"
check "matrix frame: the title counts the ranks" grep -q "$n ranks, 3 steps" "$tmp/frame"
check "matrix frame: the first rank is current" grep -q '^>rank 0/0 ' "$tmp/frame"
check "matrix frame: scrolls ($n rows)" grep -q "ranks 1-[0-9]* of $n" "$tmp/frame"
check "matrix frame: the straggler in the panel" grep -q "straggler rank $((n - 1))/" "$tmp/frame"

# opening one rank from the reports: its trace, in the mode asked for
"$GANTTY" --reports --rank=7 --report --format=json -q "$tmp/reports" >"$tmp/r7.json"
"$GANTTY" --report --format=json -q "$tmp/traces/rank-7.json" >"$tmp/want7.json"
check "--rank=7: the report of rank 7's trace" cmp -s "$tmp/r7.json" "$tmp/want7.json"
mv "$tmp/traces" "$tmp/moved"
"$GANTTY" --reports --rank=7 --report "$tmp/reports" >/dev/null 2>"$tmp/err"
check "--rank=7 with the trace gone: exit 1" test $? -eq 1
check "--rank=7 with the trace gone: says which trace" grep -q "rank 7: its trace .*rank-7.json" "$tmp/err"
"$GANTTY" --reports --rank=9999 --report "$tmp/reports" >/dev/null 2>"$tmp/err"
check "--rank=9999: exit 1" test $? -eq 1
check "--rank=9999: says so" grep -q "no rank 9999 among the reports" "$tmp/err"

# bad reports
bad() {
	name=$1 want=$2
	shift 2
	"$GANTTY" --reports --report "$@" >/dev/null 2>"$tmp/err"
	got=$?
	if [ $got -eq 1 ] && grep -q "$want" "$tmp/err"; then pass "$name"; else
		fail "$name: exit $got, $(head -n 1 "$tmp/err")"; fi
}
bad "a trace is not a report" "rank-0.json: byte 0: not a gantty JSON report" "$tmp/moved/rank-0.json"
printf '{"version": "0.1", "ranks": [' >"$tmp/cut.json"
bad "a cut report: the byte offset" "cut.json: byte [0-9]*: not JSON" "$tmp/cut.json"
sed 's/"collectives": \[/"colls": [/' "$tmp/reports/rank-3.json" >"$tmp/old.json"
bad "a report without collectives" 'old.json: ranks\[0\]: no "collectives" array' "$tmp/old.json"
sed 's/"start_ns": \([0-9]*\), "end_ns"/"start_ns": "x", "end_ns"/' "$tmp/reports/rank-3.json" >"$tmp/str.json"
bad "a step time that is not a number" 'str.json: ranks\[0\]: step 0' "$tmp/str.json"
sed 's/"start_ns": [0-9]*, "end_ns": \([0-9]*\), "type"/"start_ns": -9223372036854775807, "end_ns": \1, "type"/' "$tmp/reports/rank-3.json" >"$tmp/far.json"
bad "a collective beyond the model's time range" 'far.json: ranks\[0\]: collective 0: .*within +-2^62' "$tmp/far.json"
: >"$tmp/empty.json"
bad "an empty file" "empty.json: byte 0: not JSON" "$tmp/empty.json"
bad "a missing file" "nothere.json: No such file" "$tmp/nothere.json"
# Two reports in one file (cat a.json b.json): the second was silently
# ignored; refused, naming where the second starts.
cat "$tmp/reports/rank-3.json" "$tmp/reports/rank-4.json" >"$tmp/two.json"
bad "two reports in one file" "two.json: byte $(wc -c <"$tmp/reports/rank-3.json"): data after the end of the report" "$tmp/two.json"
# Ranks and world sizes beyond their range (rank * 65536 overflowed; a
# world of 1e9 listed a million missing ranks on one line).
sed 's/"rank": 3,/"rank": 4611686018427387904,/' "$tmp/reports/rank-3.json" >"$tmp/bigrank.json"
bad "a rank beyond 2^31-1" 'bigrank.json: ranks\[0\]: rank 4611686018427387904 out of range 0..2147483647' "$tmp/bigrank.json"
sed 's/"world_size": [0-9]*,/"world_size": 1000000000,/' "$tmp/reports/rank-3.json" >"$tmp/bigworld.json"
bad "a world size beyond 2^20" 'bigworld.json: ranks\[0\]: world_size 1000000000 out of range 1..1048576' "$tmp/bigworld.json"
# A UTF-8 byte order mark, as a trace may have: read.
printf '\357\273\277' | cat - "$tmp/reports/rank-3.json" >"$tmp/bom.json"
"$GANTTY" --reports --report --format=json "$tmp/bom.json" >"$tmp/out" 2>"$tmp/err"
check "a report with a byte order mark is read" test $? -eq 0
# A value too big to be a report's (a name of 32 MB): refused, not parsed.
{ printf '{"version": "0.1", "ranks": [{"rank": 0, "path": "'
  head -c 33554432 /dev/zero | tr '\0' 'x'; printf '"}]}'; } >"$tmp/huge.json"
bad "a 32 MB value" 'huge.json: byte [0-9]*: a value of more than 16777216 bytes' "$tmp/huge.json"
rm -f "$tmp/huge.json"
# Memory: reports are read value by value, not as a DOM of the whole
# file (17 times the file): 400k collectives (64 MB) read under a 300 MB
# address-space limit.  Not under ASan (no ulimit -v there).
if grep -q __asan_init "$GANTTY" 2>/dev/null; then
	skip "a 64 MB report in bounded memory" "an ASan build"
else
	awk 'BEGIN { printf "{\"version\": \"0.3\", \"ranks\": [{\"rank\": 0, \"device\": 0, \"world_size\": 1, \"path\": \"r.json\", \"steps\": [], \"collectives\": ["
		for (i = 0; i < 400000; i++)
			printf "%s{\"name\": \"ncclDevKernel_AllReduce_Sum_f32_RING_LL\", \"group\": \"0\", \"by_stream\": true, \"seq\": %d, \"group_size\": 2, \"start_ns\": %d, \"end_ns\": %d}", (i ? "," : ""), i, i * 1000, i * 1000 + 500
		print "]}]}" }' >"$tmp/bigrep.json"
	(ulimit -v 300000 && exec "$GANTTY" --reports --report "$tmp/bigrep.json") >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ $got -eq 0 ]; then pass "a 64 MB report in bounded memory"; else
		fail "a 64 MB report in bounded memory: exit $got, $(head -n 1 "$tmp/err")"; fi
	rm -f "$tmp/bigrep.json"
	# A gzip bomb of 97 KB: 100 MB of numbers in a member gantty does not
	# read (3.6 GB and 17 s as a DOM): skipped by brackets, in a few MB.
	{ printf '{"version": "0.3", "junk": ['
	  head -c 50000000 /dev/zero | tr '\0' '0' | sed 's/0/0,/g'
	  printf '0], "ranks": []}'; } | gzip -9 >"$tmp/bomb.json.gz"
	(ulimit -v 100000 && exec "$GANTTY" --reports --report "$tmp/bomb.json.gz") >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ $got -eq 1 ] && grep -q "no ranks in the reports" "$tmp/err"; then
		pass "a gzip bomb of a report in bounded memory"; else
		fail "a gzip bomb of a report in bounded memory: exit $got, $(head -n 1 "$tmp/err")"; fi
	rm -f "$tmp/bomb.json.gz"
fi

# A byte order mark before a report is read as a trace's is (it was
# refused: "not JSON").
"$GANTTY" --report --format=json -q "$top_srcdir/share/example.json.gz" >"$tmp/plain.json" ||
    fail "--report of the example"
{ printf '\357\273\277'; cat "$tmp/plain.json"; } >"$tmp/bom.json"
"$GANTTY" --reports --report --format=json -q "$tmp/plain.json" >"$tmp/want.out" 2>&1
expect 0 "a report with a UTF-8 BOM is read" "$GANTTY" --reports --report --format=json -q "$tmp/bom.json"
sed "s/bom\.json/plain.json/g" "$tmp/out" >"$tmp/bom.out"
check "... the same as without it" cmp -s "$tmp/want.out" "$tmp/bom.out"
finish
