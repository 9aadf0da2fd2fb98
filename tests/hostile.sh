#!/bin/sh
# Hostile input: every input runs as `gantty --report --format=json` under a
# time limit and must end with the expected exit status and message, never a
# signal, never the limit.  Bad input that is not a trace: exit 1 naming the
# file and where.  Messy but usable data: exit 0 with a counted warning, and
# the report is valid UTF-8 JSON.  Then scale abuse, generated at test time.
#
# The limit per run is 1000 times the calibration (lib.sh): the slowest
# case takes about 100 here, so a machine loaded while the test runs still
# passes, and a quadratic blow-up still ends at the limit.  HOSTILE_TIMEOUT
# (seconds) sets the limit instead; HOSTILE_SCALE=0 skips the scale cases
# (for a run under valgrind).  An ASan build gets the scale cases at a tenth
# of their size.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

hx=$top_srcdir/tests/fixtures/hostile
if [ -n "${HOSTILE_TIMEOUT:-}" ]; then
	limit=$HOSTILE_TIMEOUT
else
	calibrate
	limit=$(limit_s 1000)
fi
echo "# the limit per run: $limit s"

# report ARGS...: runs the report into $tmp/out and $tmp/err; sets $got.
report() {
	timeout "$limit" "$GANTTY" --report --format=json "$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
}

# verdict NAME STATUS MESSAGE [text]: checks $got against STATUS, that no
# signal or the time limit ended the run, and that standard error starts with
# MESSAGE (nothing at all when MESSAGE is empty).  On success, the report
# must be valid JSON (when $PYTHON3 is set: strict, UTF-8, no NaN), unless
# "text" says it is not JSON.
verdict() {
	name=$1 want=$2 msg=$3 kind=${4:-json}
	first=$(head -n 1 "$tmp/err")
	if [ "$got" -eq 124 ]; then
		fail "$name: over the ${limit}s limit"
		return
	fi
	if [ "$got" -ge 128 ]; then
		fail "$name: killed by signal $((got - 128))"
		sed 's/^/# /' "$tmp/err" | head -n 20
		return
	fi
	if [ "$got" -ne "$want" ]; then
		fail "$name: exit $got, wanted $want"
		sed 's/^/# /' "$tmp/err" | head -n 5
		return
	fi
	if [ -z "$msg" ] && [ -s "$tmp/err" ]; then
		fail "$name: unexpected message: $first"
		return
	fi
	case $first in
	"$msg"*) ;;
	*)
		fail "$name: message '$first', wanted it to start with '$msg'"
		return ;;
	esac
	if [ "$want" -eq 0 ] && [ "$kind" = json ] && [ -n "${PYTHON3:-}" ] && ! "$PYTHON3" -c '
import json, sys
def bad(c):
    raise ValueError("not JSON: " + c)
with open(sys.argv[1], encoding="utf-8", errors="strict") as f:
    json.load(f, parse_constant=bad)
' "$tmp/out" 2>"$tmp/pyerr"; then
		fail "$name: the report is not valid JSON: $(tail -n 1 "$tmp/pyerr")"
		return
	fi
	pass "$name"
}

# hostile NAME STATUS MESSAGE ARGS...: report ARGS, then verdict.
hostile() {
	name=$1 want=$2 msg=$3
	shift 3
	report "$@" </dev/null
	verdict "$name" "$want" "$msg"
}

# has TEXT NAME: the last report contains TEXT (a fixed string).
has() {
	if grep -qF -- "$1" "$tmp/out"; then pass "$2"; else
		fail "$2: '$1' not in the report"; fi
}

# ---- not a trace: exit 1, the file and the place ----------------------

: >"$tmp/empty.json"
hostile "empty file" 1 "gantty: $tmp/empty.json: empty file (not a trace)" "$tmp/empty.json"
hostile "/dev/null" 1 "gantty: /dev/null: empty file (not a trace)" /dev/null
hostile "not JSON" 1 "gantty: $hx/not-json.txt: byte 0 (line 1): expected '{' or '[' at the start of a trace, found 't'" \
	"$hx/not-json.txt"
# Binary garbage: a PNG header and every byte value.
{ printf '\211PNG\r\n\032\n'; awk 'BEGIN { for (i = 1; i < 4096; i++) printf "%c", (i * 7919) % 255 + 1 }'; } \
	>"$tmp/garbage.json"
hostile "binary garbage" 1 "gantty: $tmp/garbage.json: byte 0 (line 1): expected '{' or '[' at the start of a trace, found byte 0x89" \
	"$tmp/garbage.json"
printf '{\377\376\000\001' >"$tmp/garbage2.json"
hostile "binary garbage inside the object" 1 "gantty: $tmp/garbage2.json: byte 1 (line 1): expected a key string, found byte 0xff" \
	"$tmp/garbage2.json"
hostile "traceEvents is an object" 1 "gantty: $hx/events-object.json: byte 16 (line 1): traceEvents is not an array (not a trace)" \
	"$hx/events-object.json"
hostile "traceEvents is a string" 1 "gantty: $hx/events-string.json: byte 16 (line 1): traceEvents is not an array (not a trace)" \
	"$hx/events-string.json"
hostile "an array of no events" 1 "gantty: $hx/array-without-events.json: byte 0 (line 1): an array of 3 entries, none of them a trace event" \
	"$hx/array-without-events.json"
hostile "cut before the events" 1 "gantty: $hx/cut-before-events.json: byte 50: file ends before any event (truncated)" \
	"$hx/cut-before-events.json"

# ---- cut short and corrupt: keep what is complete ----------------------

hostile "truncated mid-event" 0 "gantty: warning: $hx/cut-mid-event.json: 79 bytes ignored after the last complete event" \
	"$hx/cut-mid-event.json"
has '"events": 1,' "truncated mid-event keeps the complete event"
has '"truncated_bytes": 79,' "truncated mid-event counts the bytes"
hostile "truncated mid-string" 0 "gantty: warning: $hx/cut-mid-string.json: 55 bytes ignored after the last complete event" \
	"$hx/cut-mid-string.json"
has '"events": 1,' "truncated mid-string keeps the complete event"
hostile "invalid JSON after events" 0 "gantty: warning: $hx/invalid-after-events.json: 12 bytes ignored" \
	"$hx/invalid-after-events.json"
has "\"stopped\": \"$hx/invalid-after-events.json: byte 106 (line 3): invalid JSON" "the stop is in the report"

# A gzip'd trace of 20000 kernels (about 1.5 MB of JSON).
awk 'BEGIN { printf "{\"traceEvents\": [\n"
	for (i = 0; i < 20000; i++)
		printf "%s{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k%d\", \"pid\": 0, \"tid\": 7, \"ts\": %d, \"dur\": 1}\n",
		    (i ? "," : ""), i % 97, 2 * i
	print "]}" }' >"$tmp/k20k.json"
gzip -c "$tmp/k20k.json" >"$tmp/k20k.json.gz"
gzsize=$(wc -c <"$tmp/k20k.json.gz")
head -c $((gzsize / 2)) "$tmp/k20k.json.gz" >"$tmp/cut.json.gz"
hostile "truncated gzip" 0 "gantty: warning: $tmp/cut.json.gz: " "$tmp/cut.json.gz"
has '"corrupt_gzip": 0,' "a cut gzip is not corrupt"
if grep -q '"events": [1-9][0-9][0-9][0-9]*,' "$tmp/out"; then pass "truncated gzip keeps its events"; else
	fail "truncated gzip keeps its events"; fi
# Cut exactly between two events, right after '[', or before the last '}'
# (a job killed mid-write): nothing is left over to count, yet the file is
# cut short, and every loader says so with the byte where it ended (they
# loaded it as complete, no warning at all).
head -n 10001 "$tmp/k20k.json" >"$tmp/cut-between.json"
cutsz=$(wc -c <"$tmp/cut-between.json")
printf '{"traceEvents": [' >"$tmp/cut-open.json"
head -n 20001 "$tmp/k20k.json" >"$tmp/cut-before-brace.json"
printf ']' >>"$tmp/cut-before-brace.json"
for how in fast jsonc halves gzip stdin; do
	f=$tmp/cut-between.json
	case $how in
	fast) report "$f" ;;
	jsonc) GANTTY_JSONC_ONLY=1 report "$f" ;;
	halves) GANTTY_LOAD_THREADS=2 GANTTY_SPLIT_MIN=4096 report "$f" ;;
	gzip) gzip -c "$f" >"$tmp/cut-between.json.gz"; f=$tmp/cut-between.json.gz; report "$f" ;;
	stdin) f=-; report - <"$tmp/cut-between.json" ;;
	esac
	verdict "cut between two events ($how)" 0 "gantty: warning: stopped reading at $f: byte $cutsz (line 10002): the file ends before the event array is closed (cut short)"
	has "\"stopped\": \"$f: byte $cutsz (line 10002): the file ends before the event array is closed (cut short)\"" \
	    "  the cut is in the report's load warnings ($how)"
	has '"events": 10000,' "  every event before the cut is kept ($how)"
done
hostile "cut right after '['" 0 "gantty: warning: stopped reading at $tmp/cut-open.json: byte 17 (line 1): the file ends before the event array is closed (cut short)" \
	"$tmp/cut-open.json"
hostile "cut before the last '}'" 0 "gantty: warning: stopped reading at $tmp/cut-before-brace.json: byte $(wc -c <"$tmp/cut-before-brace.json") (line 20002): the file ends before the top-level object is closed (cut short)" \
	"$tmp/cut-before-brace.json"
has '"events": 20000,' "  cut before the last '}': every event kept"
head -c 10 "$tmp/k20k.json.gz" >"$tmp/header-only.json.gz"
hostile "gzip header only" 1 "gantty: $tmp/header-only.json.gz: gzip data cut short after 10 bytes, before any content (truncated)" \
	"$tmp/header-only.json.gz"
printf '\037\213\010\000\000\000\000\000\000\003garbage-not-deflate' >"$tmp/corrupt.json.gz"
hostile "corrupt gzip" 1 "gantty: $tmp/corrupt.json.gz: corrupt gzip data at compressed byte 11: invalid block type" \
	"$tmp/corrupt.json.gz"
# Corrupt after good data: a complete gzip member, then a member whose
# deflate data is invalid.  Everything inflated before is kept (zlib's
# gzread() dropped the whole last read, up to a megabyte, and failed).
head -c 700000 "$tmp/k20k.json" | gzip -c >"$tmp/bad2nd.json.gz"
printf '\037\213\010\000\000\000\000\000\000\003\377\377\377\377' >>"$tmp/bad2nd.json.gz"
hostile "corrupt gzip after good data" 0 "gantty: warning: $tmp/bad2nd.json.gz: " "$tmp/bad2nd.json.gz"
has '"corrupt_gzip": 1,' "the corruption is counted"
has "corrupt gzip data at compressed byte" "the corruption is in the report"
whole=$(($(head -c 700000 "$tmp/k20k.json" | tr -cd '\n' | wc -c) - 1))
has "\"events\": $whole," "every event inflated before the corruption is kept ($whole)"
# Corrupt in the middle of a member: zlib may inflate some garbage before it
# can tell; the JSON stops there and the gzip error is named too.
cp "$tmp/k20k.json.gz" "$tmp/mid.json.gz"
printf '\377\377\377\377\377\377\377\377' |
	dd of="$tmp/mid.json.gz" bs=1 seek=$((gzsize / 2)) conv=notrunc 2>/dev/null
hostile "gzip corrupt in the middle" 0 "gantty: warning: $tmp/mid.json.gz: " "$tmp/mid.json.gz"
has '"corrupt_gzip": 1,' "the corruption in the middle is counted"
# Two gzip members, the JSON split between them (as `cat a.gz b.gz`).
head -c 700000 "$tmp/k20k.json" | gzip -c >"$tmp/two.json.gz"
tail -c +700001 "$tmp/k20k.json" | gzip -c >>"$tmp/two.json.gz"
printf 'junk after the members' >>"$tmp/two.json.gz"
hostile "gzip members in turn, junk after" 0 "gantty: warning: $tmp/two.json.gz: 22 bytes after the end" "$tmp/two.json.gz"
has '"events": 20000,' "both members are read"

# ---- messy events: loaded, counted --------------------------------------

hostile "events that are not objects" 0 "gantty: warning: $hx/non-objects.json: 5 array entries that are not objects" \
	"$hx/non-objects.json"
has '"events": 1,' "the one object is the one event"
hostile "missing and non-numeric ts and dur" 0 "gantty: warning: $hx/missing-fields.json: 3 events missing a required field" \
	"$hx/missing-fields.json"
has '"missing_fields": 3, "int_overflow": 0, "negative_dur": 0, "bad_timestamp": 2,' "missing and bad fields are counted"
hostile "negative duration" 0 "gantty: warning: $hx/negative-dur.json: 1 negative durations (clamped to 0)" \
	"$hx/negative-dur.json"
has '"busy_ns": 50000,' "a negative duration adds nothing"
hostile "integers beyond int64" 0 "gantty: warning: $hx/beyond-int64.json: 3 integers beyond int64" \
	"$hx/beyond-int64.json"
has '"pid": "1e30"' "a pid beyond int64 is kept by its text (fuzz finding)"
hostile "NaN and Infinity" 0 "gantty: warning: $hx/nan-infinity.json: 3 unparseable timestamps" \
	"$hx/nan-infinity.json"
has '"events": 4,' "NaN and Infinity events are counted"
hostile "control characters in names" 0 "gantty: warning: $hx/control-chars.json: 2 strings with control characters" \
	"$hx/control-chars.json"
has 'tab\there\u0001\u001b[31mred' "control characters are escaped in JSON"
if grep -q "$(printf '\033')" "$tmp/out"; then fail "a raw ESC reached the report"; else pass "no raw ESC in the report"; fi
hostile "invalid UTF-8 in names" 0 "" "$hx/invalid-utf8.json"
has '"bad \ufffd\ufffd \ufffd( ' "invalid UTF-8 becomes U+FFFD"
has '"fine é€' "valid UTF-8 is kept"
"$GANTTY" --report "$hx/invalid-utf8.json" >"$tmp/text" 2>/dev/null
if grep -q "$(printf '\302\233')" "$tmp/text"; then fail "a C1 control reached the text report"; else
	pass "no C1 control in the text report"; fi
# Terminal controls in names and file names never reach a terminal raw: a
# file named with an OSC sequence set the terminal's title through the
# warning that names it; bidi controls (U+202E) passed raw in the text
# report and --diff, C1 controls (U+0085, U+009B, U+009D) raw in JSON.
osc=$(printf 'x\033]0;pwned\007y')
cp "$hx/cut-mid-event.json" "$tmp/$osc.json"
"$GANTTY" --report -q "$tmp/$osc.json" >/dev/null 2>&1
"$GANTTY" --report "$tmp/$osc.json" >/dev/null 2>"$tmp/err"
if grep -q "$(printf '\033')" "$tmp/err" || grep -q "$(printf '\007')" "$tmp/err"; then
	fail "a file name with an OSC sequence reached standard error raw"
else
	pass "a file name with an OSC sequence is escaped on standard error"
fi
file_has "$tmp/err" "x?]0;pwned?y.json" "  shown with '?' for the controls"
"$GANTTY" --report -q "$tmp/nosuch-$osc.json" >/dev/null 2>"$tmp/err"
if grep -q "$(printf '\033')" "$tmp/err"; then fail "an error naming such a file is raw"; else
	pass "an error naming such a file is escaped"; fi
printf '{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "evil\342\200\256gnp\302\205\302\233\302\235\342\201\246k", "pid": 0, "tid": 7, "ts": 1, "dur": 5}, {"ph": "X", "cat": "kernel", "name": "\344\270\255\346\226\207 e\314\201", "pid": 0, "tid": 7, "ts": 10, "dur": 5}]}' >"$tmp/bidi.json"
hostile "bidi and C1 controls in names" 0 "" "$tmp/bidi.json"
has 'evil\u202egnp\u0085\u009b\u009d\u2066k' "  JSON escapes bidi and C1 controls as \\uXXXX"
has "$(printf '\344\270\255\346\226\207 e\314\201')" "  CJK and combining marks are kept in JSON"
"$GANTTY" --report "$tmp/bidi.json" >"$tmp/text" 2>/dev/null
if grep -q "$(printf '\342\200\256')" "$tmp/text" || grep -q "$(printf '\302\205')" "$tmp/text"; then
	fail "a bidi or C1 control reached the text report"; else pass "no bidi or C1 control in the text report"; fi
file_has "$tmp/text" "evil?gnp????k" "  the text report shows them as '?'"
file_has "$tmp/text" "$(printf '\344\270\255\346\226\207 e\314\201')" "  and CJK and combining marks as themselves"
"$GANTTY" --diff "$tmp/bidi.json" "$tmp/bidi.json" >"$tmp/text" 2>/dev/null
if grep -q "$(printf '\342\200\256')" "$tmp/text"; then fail "a bidi control reached --diff"; else
	pass "no bidi control in --diff"; fi
file_has "$tmp/text" "evil?gnp" "  --diff shows it as '?'"
hostile "duplicate keys" 0 "" "$hx/duplicate-keys.json"
has '"time_range": {"start_ns": 2000, "end_ns": 11000}' "the last duplicate key wins, both event arrays are read"
hostile "UTF-8 byte order mark" 0 "" "$hx/bom.json"
has '"events": 1,' "the event after a BOM is loaded"
hostile "garbage after the top-level value" 0 "gantty: warning: $hx/trailing-garbage.json: 34 bytes after the end of the JSON value" \
	"$hx/trailing-garbage.json"
hostile "B without E and E without B" 0 "gantty: warning: $hx/begin-end-unpaired.json: 1 B events never ended" \
	"$hx/begin-end-unpaired.json"
has '"unmatched_begin": 1, "unmatched_end": 2,' "unpaired B and E are counted"
hostile "flows without partners" 0 "gantty: warning: $hx/flows-unpaired.json: 1 events missing a required field" \
	"$hx/flows-unpaired.json"
has '"unbound_flows": 2,' "unbound flow endpoints are counted"
# (found by fuzzing the fast loader: binding a flow on a track with no
# events read through a null events array)
hostile "flows and no events" 0 "gantty: warning: $hx/flows-only.json: 2 flow endpoints with no event to bind to" \
	"$hx/flows-only.json"
hostile "zero events" 0 "" "$hx/zero-events.json"
has '"events": 0,' "zero events is an empty report"

# Timestamps 9e18 ns apart (-4.5e15 us to 4.5e15 us, within the model's
# +-2^62 ns; one duration is beyond it, counted): spans, gaps and sums near
# int64's limit.  Under UBSan the metrics, MFU, text report and B/E spans
# overflowed when times could reach +-9.2e18 (fuzz findings).
overflow="gantty: warning: $hx/extreme-times.json: 1 integers beyond int64"
hostile "timestamps int64 apart" 0 "$overflow" "$hx/extreme-times.json"
has '"start_ns": -4500000000000000000' "the earliest time is exact"
for opts in "--format=text" "--format=csv" "--format=text --flops-per-step=1e12 --world-size=1" \
    "--format=text --step=1" "--format=text --window=0s:18000s"; do
	# shellcheck disable=SC2086
	timeout "$limit" "$GANTTY" --report $opts "$hx/extreme-times.json" >"$tmp/out" 2>"$tmp/err"
	got=$?
	verdict "timestamps int64 apart, $opts" 0 "$overflow" text
done

# Steps lasting 2^62 ns drawn (fuzz finding, through a cache: the step
# strip's shade and the ruler's ticks overflowed int64 under UBSan).
printf '{"traceEvents": [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": -4500000000000000, "dur": 4000000000000000}, {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#2", "pid": 1, "tid": 1, "ts": -500000000000000, "dur": 4600000000000000}, {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": -4500000000000000, "dur": 1}, {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 4000000000000000, "dur": 1}]}' \
	>"$tmp/far-steps.json"
for opts in "--render" "--render --cpu --width=200 --height=60" "--render --step=2" \
    "--render --step=1 --width=40 --height=12"; do
	# shellcheck disable=SC2086
	timeout "$limit" "$GANTTY" $opts "$tmp/far-steps.json" >"$tmp/out" 2>"$tmp/err"
	got=$?
	verdict "steps 2^62 ns long, $opts" 0 "" text
done

# Times beyond +-2^62 ns (146 years from the epoch) are counted as beyond
# int64 and their events skipped, so that no difference or sum of times can
# overflow (fuzz findings: gap sums, B/E spans 2^64 ns long).
hostile "times beyond 2^62 ns" 0 "gantty: warning: $hx/gap-sum-overflow.json: 1 integers beyond int64" \
	"$hx/gap-sum-overflow.json"
has '"events": 3,' "the events beyond 2^62 ns are counted"
hostile "B/E spans across the whole range" 0 "gantty: warning: $hx/begin-end-huge.json: 1 B events never ended" \
	"$hx/begin-end-huge.json"
has '"time_range": {"start_ns": -4611686018427387000, "end_ns": 4611686018427387000}' "the spans are exact"

# Ranks beyond 0..2^31-1 and world sizes beyond 1..2^20, from
# distributedInfo or a file name: counted and ignored (rank * 65536
# overflowed in the report; a world of 1e9 listed a million missing ranks).
printf '{"distributedInfo": {"rank": 4611686018427387904, "world_size": 1000000000}, "traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1, "dur": 1}]}' \
	>"$tmp/bigrank.json"
hostile "a distributedInfo rank and world size out of range" 0 \
	"gantty: warning: $tmp/bigrank.json: 2 ranks or world sizes out of range (ignored)" "$tmp/bigrank.json"
has '"bad_rank": 2,' "  counted in the report"
has '"rank_source": "position"' "  the rank is taken from the position"
cp "$tmp/bigrank.json" "$tmp/rank99999999999.json"
sed 's/"rank": 4611686018427387904, //' "$tmp/bigrank.json" >"$tmp/rank99999999999.json"
hostile "a rank in the file name beyond 2^31-1" 0 \
	"gantty: warning: $tmp/rank99999999999.json: 2 ranks or world sizes out of range (ignored)" "$tmp/rank99999999999.json"
expect 2 "--rank beyond 2^31-1 is a usage error" "$GANTTY" --report -q --rank=2147483648 "$tmp/bigrank.json"
expect 2 "--world-size beyond 2^20 is a usage error" "$GANTTY" --report -q --world-size=1048577 "$tmp/bigrank.json"

# ---- deep, long, wide ---------------------------------------------------

# 100k levels of nesting in one event's args: skipped, counted, the events
# around it kept.  A bracket counter skips it, whatever the depth.
awk 'BEGIN { printf "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"before\", \"pid\": 0, \"tid\": 7, \"ts\": 1, \"dur\": 1},\n"
	printf "{\"ph\": \"X\", \"name\": \"deep\", \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 1, \"args\": "
	for (i = 0; i < 100000; i++) printf "{\"a\": ["
	printf "\"]}{\""
	for (i = 0; i < 100000; i++) printf "]}"
	printf "},\n{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"after\", \"pid\": 0, \"tid\": 7, \"ts\": 5, \"dur\": 1}]}\n" }' \
	>"$tmp/deep.json"
hostile "100k levels of nesting in args" 0 "gantty: warning: $tmp/deep.json: 1 events or header values nested deeper than 64 levels (skipped)" \
	"$tmp/deep.json"
has '"too_deep": 1' "the deep event is counted"
has '"name": "after"' "the event after the deep one is kept"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; for (i = 0; i < 100000; i++) printf "]" }' >"$tmp/deeptop.json"
hostile "100k levels of nesting at the top" 1 "gantty: $tmp/deeptop.json: byte 0 (line 1): an array of 1 entries, none of them a trace event" \
	"$tmp/deeptop.json"
awk 'BEGIN { printf "{\"junk\": "; for (i = 0; i < 100000; i++) printf "["; for (i = 0; i < 100000; i++) printf "]"
	printf ", \"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, \"ts\": 1, \"dur\": 1}]}" }' \
	>"$tmp/deephdr.json"
hostile "100k levels of nesting in a header value" 0 "gantty: warning: $tmp/deephdr.json: 1 events or header values nested deeper" \
	"$tmp/deephdr.json"
has '"events": 1,' "the events after a deep header value are read"
# A 50 MB name (5 MB without the scale cases: valgrind takes a minute).
mb=50
[ "${HOSTILE_SCALE:-1}" = 0 ] && mb=5
{ printf '{"traceEvents": [{"ph": "X", "cat": "kernel", "pid": 0, "tid": 7, "ts": 1, "dur": 1, "name": "'
  head -c $((mb * 1000000)) /dev/zero | tr '\0' 'n'
  printf '"}, {"ph": "X", "cat": "kernel", "name": "small", "pid": 0, "tid": 7, "ts": 3, "dur": 1}]}'; } >"$tmp/long.json"
# Names are bounded (1 MiB, cut with a counted warning): a 4 GiB name
# reached the JSON report cut to 2,147,318,977 bytes, silently.
hostile "a $mb MB string" 0 "gantty: warning: $tmp/long.json: 1 strings longer than 1 MiB (cut to their first MiB)" "$tmp/long.json"
has '"events": 2,' "the event with a $mb MB name loads"
has '"long_strings": 1}' "  the cut is counted"
check "  the name is its first MiB" test "$(grep -o 'nnnnn*' "$tmp/out" | awk '{ print length }' | sort -n | tail -n 1)" -eq 1048576
# Cut at a character boundary: a name of 700k two-byte characters.
{ printf '{"traceEvents": [{"ph": "X", "cat": "kernel", "pid": 0, "tid": 7, "ts": 1, "dur": 1, "name": "'
  awk 'BEGIN { for (i = 0; i < 7000; i++) { s = ""; for (j = 0; j < 100; j++) s = s "\303\251"; printf "%s", s } }'
  printf '"}]}'; } >"$tmp/longutf8.json"
hostile "a long name of two-byte characters" 0 "gantty: warning: $tmp/longutf8.json: 1 strings longer than 1 MiB" "$tmp/longutf8.json"
# A timestamp of 100k digits.
{ printf '{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "dur": 1, "ts": 1'
  head -c 100000 /dev/zero | tr '\0' '7'
  printf '.5}, {"ph": "X", "cat": "kernel", "name": "ok", "pid": 0, "tid": 7, "ts": 3, "dur": 1}]}'; } >"$tmp/digits.json"
hostile "a timestamp of 100k digits" 0 "gantty: warning: $tmp/digits.json: 1 integers beyond int64" "$tmp/digits.json"

# ---- files that are not files -------------------------------------------

mkdir "$tmp/nothing"
hostile "a directory with no traces" 1 "gantty: $tmp/nothing: no *.json or *.json.gz traces in this directory" "$tmp/nothing"
mkdir "$tmp/other"
printf '{"not": "a trace"}' >"$tmp/other/config.json"
hostile "a directory of JSON that is not a trace" 1 "gantty: warning: $tmp/other/config.json: byte 18 (line 1): no traceEvents array (not a trace), skipped" \
	"$tmp/other"
if [ "$(tail -n 1 "$tmp/err")" = "gantty: no traces loaded" ]; then pass "then no traces loaded"; else
	fail "then no traces loaded: $(tail -n 1 "$tmp/err")"; fi
cp "$hx/zero-events.json" "$tmp/locked.json"
chmod 000 "$tmp/locked.json"
if [ "$(id -u)" -ne 0 ]; then
	hostile "an unreadable file" 1 "gantty: $tmp/locked.json: Permission denied" "$tmp/locked.json"
else
	skip "an unreadable file" "running as root, which reads anything"
fi
chmod 644 "$tmp/locked.json"
ln -s "$tmp/no-such-file.json" "$tmp/dangling.json"
hostile "a dangling symlink" 1 "gantty: $tmp/dangling.json: No such file or directory" "$tmp/dangling.json"
mkfifo "$tmp/fifo.json"
(timeout "$limit" sh -c 'cat "$1" >"$2"' sh "$hx/negative-dur.json" "$tmp/fifo.json" &)
hostile "a FIFO" 0 "gantty: warning: $tmp/fifo.json: 1 negative durations" "$tmp/fifo.json"
report - <&-
# (under valgrind the dup() of the closed descriptor succeeds and the read
# fails: the message then gives the byte offset too)
verdict "standard input closed" 1 "gantty: -: "
check "standard input closed: the message says why" grep -qF "Bad file descriptor" "$tmp/err"

# ---- scale: bounded time ------------------------------------------------

if [ "${HOSTILE_SCALE:-1}" = 0 ]; then
	skip "the scale cases" "HOSTILE_SCALE=0"
	finish
fi
k=1000
if grep -q __asan_init "$GANTTY" 2>/dev/null; then
	k=100   # an ASan build is several times slower
	echo "# ASan build: scale cases at a tenth of their size"
fi

# timed NAME STATUS MESSAGE FILE: hostile, and says how long it took.
timed() {
	t0=$(date +%s.%N)
	hostile "$@"
	echo "# $1: $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f s", b - a }')"
}

# 100k tracks: CPU threads and GPU streams (a device's streams).
awk -v n=$((100 * k)) 'BEGIN { printf "{\"traceEvents\": [\n"
	for (i = 0; i < n; i++)
		printf "%s{\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"e\", \"pid\": %d, \"tid\": %d, \"ts\": %d, \"dur\": 2}\n",
		    (i ? "," : ""), (i % 2 ? "kernel" : "cpu_op"), (i % 2 ? 0 : 1), i, i
	print "]}" }' >"$tmp/tracks.json"
timed "$((100 * k)) tracks" 0 "" "$tmp/tracks.json"
has "\"events\": $((100 * k))," "every track's event is loaded"
# 100k devices, one kernel each (a pid per kernel): the first 64 analysed.
awk -v n=$((100 * k)) 'BEGIN { printf "{\"traceEvents\": [\n"
	for (i = 0; i < n; i++)
		printf "%s{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"e\", \"pid\": %d, \"tid\": 7, \"ts\": %d, \"dur\": 2}\n",
		    (i ? "," : ""), i, i
	print "]}" }' >"$tmp/devices.json"
timed "$((100 * k)) devices" 0 "gantty: warning: $tmp/devices.json: $((100 * k - 64)) GPU devices beyond the first 64" \
	"$tmp/devices.json"
# 1M kernels on one stream, one per microsecond, each 0.5 us: the issue's
# "one event per microsecond" (for a second here; 10M by hand, see the
# note) and "many events on one stream".
awk -v n=$((1000 * k)) 'BEGIN { printf "{\"traceEvents\": [\n"
	for (i = 0; i < n; i++)
		printf "%s{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm\", \"pid\": 0, \"tid\": 7, \"ts\": %d, \"dur\": 0.5}\n",
		    (i ? "," : ""), i
	print "]}" }' >"$tmp/stream.json"
timed "$((1000 * k)) events on one stream" 0 "" "$tmp/stream.json"
has "\"busy_ns\": $((1000 * k * 500))," "the stream's busy time is exact"
has "\"idle_ns\": $(((1000 * k - 1) * 500))," "the stream's idle time is exact"
# 1M distinct names, over an hour of trace time (one kernel every 3.6 ms).
awk -v n=$((1000 * k)) 'BEGIN { printf "{\"traceEvents\": [\n"
	for (i = 0; i < n; i++)
		printf "%s{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"kernel_%d\", \"pid\": 0, \"tid\": 7, \"ts\": %.0f, \"dur\": 3}\n",
		    (i ? "," : ""), i, int(i * 3600000000 / n)
	print "]}" }' >"$tmp/names.json"
timed "$((1000 * k)) distinct names over an hour" 0 "" "$tmp/names.json"
has '"count": 1, "total_ns": 3000}' "each name is its own kernel"
has "\"window\": {\"start_ns\": 0, \"end_ns\": $((3600000000000 - 3600000000000 / (1000 * k) + 3000))}" "the window spans the hour"
# 1M kernels piled up at one instant on one stream: each takes the lowest
# free sub-row (rows saturate at 65535); a linear row search made this
# quadratic.
awk -v n=$((1000 * k)) 'BEGIN { printf "{\"traceEvents\": [\n"
	for (i = 0; i < n; i++)
		printf "%s{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"pdl\", \"pid\": 0, \"tid\": 7, \"ts\": 5, \"dur\": 3}\n",
		    (i ? "," : "")
	print "]}" }' >"$tmp/pile.json"
timed "$((1000 * k)) kernels at one instant" 0 "" "$tmp/pile.json"
has '"rows": 65535,' "the pile saturates at 65535 sub-rows"
rm -f "$tmp/tracks.json" "$tmp/devices.json" "$tmp/stream.json" "$tmp/names.json" "$tmp/pile.json"

# Out of memory: under ulimit -v, a trace too big for the memory left ends
# with exit 1 and "gantty: out of memory ...", never abort()'s 134 (the
# gzip and JSON decoders called abort() past xalloc's path).  Not under
# ASan, whose shadow memory cannot map under ulimit -v.
if grep -q __asan_init "$GANTTY" 2>/dev/null; then
	skip "out of memory under ulimit -v" "an ASan build"
else
	awk -v n=300000 'BEGIN { printf "{\"traceEvents\": [\n"
		for (i = 0; i < n; i++)
			printf "%s{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k%d\", \"pid\": 0, \"tid\": 7, \"ts\": %d, \"dur\": 1}\n",
			    (i ? "," : ""), i, 2 * i
		print "]}" }' >"$tmp/oom.json"
	gzip -c "$tmp/oom.json" >"$tmp/oom.json.gz"
	for f in "$tmp/oom.json" "$tmp/oom.json.gz"; do
		(ulimit -v 60000 && exec timeout "$limit" "$GANTTY" --report --no-cache -q "$f") \
		    >"$tmp/out" 2>"$tmp/err"
		got=$?
		verdict "out of memory: ${f##*/} under ulimit -v 60000" 1 "gantty: out of memory " text
	done
	(ulimit -v 60000 && exec "$GANTTY" --report --no-cache -q "$top_srcdir/tests/fixtures/small.json") \
	    >"$tmp/out" 2>"$tmp/err"
	got=$?
	verdict "a small trace loads under the same ulimit -v" 0 "" text
	rm -f "$tmp/oom.json" "$tmp/oom.json.gz"
fi

# --layer-pattern and --comm-pattern: a back-reference (a glibc extension
# taking exponential time: over 60 s on 1000-character names) is refused;
# other patterns are matched on the first 4 KiB of each distinct name
# ((a|aa)*c took over a minute on ten 200k-character names).
expect 2 "a back-reference in --layer-pattern is refused" \
    "$GANTTY" --report -q --layer-pattern='(a*)*\1b' "$top_srcdir/tests/fixtures/small.json"
file_has "$tmp/err" "back-references (\\1 to \\9) are not supported" "  saying why"
expect 2 "a back-reference in --comm-pattern is refused" \
    "$GANTTY" --report -q --comm-pattern='(nccl)\1' "$top_srcdir/tests/fixtures/small.json"
expect 0 "a backslash-digit in a bracket expression is no back-reference" \
    "$GANTTY" --report -q --layer-pattern='[\1]x' "$top_srcdir/tests/fixtures/small.json"
# Repetitions that glibc's regcomp() expands in memory, exponentially when
# stacked or nested (fuzz_layers: a+ followed by twenty + took 700 MB, four
# nested {1,30} 1.4 GB): refused; a deep but cheap nesting is kept.
expect 2 "stacked repetitions in a pattern are refused" \
    "$GANTTY" --report -q --layer-pattern='a+++++++++++++++++++++' "$top_srcdir/tests/fixtures/small.json"
file_has "$tmp/err" "too complex: its repetitions multiply to more than 2000" "  saying why"
expect 2 "nested bounded repetitions are refused" \
    "$GANTTY" --report -q --comm-pattern='((((a{1,30}){1,30}){1,30}){1,30})' "$top_srcdir/tests/fixtures/small.json"
expect 0 "(a{40}){50} is accepted" \
    "$GANTTY" --report -q --layer-pattern='(a{40}){50}' "$top_srcdir/tests/fixtures/small.json"
# Repetitions of what matches the empty string cost regcomp() time, faster
# than linearly (fuzz_layers: (a|b*)+{1,600} took 58 s): refused at once.
expect 2 "a bounded repetition of an optional group is refused" \
    "$GANTTY" --report -q --layer-pattern='(a|b*)+{1,600}' "$top_srcdir/tests/fixtures/small.json"
expect 2 "a pattern over 1024 bytes is refused" \
    "$GANTTY" --report -q --layer-pattern="$(head -c 1025 /dev/zero | tr '\0' 'x')" "$top_srcdir/tests/fixtures/small.json"
awk 'BEGIN { printf "{\"traceEvents\": [\n"; s = ""; for (j = 0; j < 200000; j++) s = s "a"
	for (i = 0; i < 10; i++) printf "%s{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"%s%d\", \"pid\": 1, \"tid\": 1, \"ts\": %d, \"dur\": 1}\n", (i ? "," : ""), s, i, i * 10
	printf ",{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, \"ts\": 1, \"dur\": 1}]}\n" }' >"$tmp/longre.json"
timed "(a|aa)*c on ten 200k-character names" 0 "" --layer-pattern='(a|aa)*c' "$tmp/longre.json"
timed "(a|aa)*c as --comm-pattern on them" 0 "" --comm-pattern='(a|aa)*c' "$tmp/longre.json"
rm -f "$tmp/longre.json"

# A stream named twice (standard input, a FIFO) would be read by two
# loading threads at once: refused, naming it.
expect 1 "- given twice is an error" sh -c "echo '{\"traceEvents\": []}' | '$GANTTY' --report -q - -"
file_has "$tmp/err" "- (standard input) given twice" "  naming standard input"
mkfifo "$tmp/fifo" 2>/dev/null && {
	expect 1 "a FIFO given twice is an error" "$GANTTY" --report -q "$tmp/fifo" "$tmp/fifo"
	file_has "$tmp/err" "fifo given twice" "  naming the FIFO"
} || skip "a FIFO given twice" "mkfifo failed"
expect 0 "a regular file given twice still loads (a duplicate rank)" \
    "$GANTTY" --report -q "$top_srcdir/tests/fixtures/small.json" "$top_srcdir/tests/fixtures/small.json"

# MFU flags that overflow the arithmetic are refused (they made the JSON
# report write "value": inf), and so is a step number beyond int64; the
# largest accepted values still give valid JSON (no inf, no NaN).
ex=$top_srcdir/share/example.json.gz
expect 2 "--flops-per-step=1e308T is a usage error" "$GANTTY" --report -q --flops-per-step=1e308T "$ex"
file_has "$tmp/err" "out of range" "  and says it is out of range"
expect 2 "--peak-tflops=1e-300 is a usage error" "$GANTTY" --report -q --peak-tflops=1e-300 "$ex"
expect 2 "--diff-steps beyond int64 is a usage error" \
    "$GANTTY" --diff -q --diff-steps=99999999999999999999:1 "$ex"
"$GANTTY" --report --format=json -q --flops-per-step=1e30 --peak-tflops=1e-6 "$ex" \
    >"$tmp/mfu.json" 2>&1
check "the extreme MFU flags that are accepted give valid JSON" "$PYTHON3" -c '
import json, math, sys
def bad(x):
    raise ValueError("not JSON: " + x)
d = json.load(open(sys.argv[1]), parse_constant=bad)
v = d["ranks"][0]["mfu"]["value"]
sys.exit(0 if v is None or math.isfinite(v) else 1)
' "$tmp/mfu.json"

finish
