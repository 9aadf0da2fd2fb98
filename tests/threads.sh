#!/bin/sh
# The threads: under ThreadSanitizer in .ci/run (a gantty built with
# -fsanitize=thread), plainly in make check: one file in two, five and eight
# chunks, an error after the middle, the cache's checksum thread, the analysis's two threads, the
# viewer's first frame, gzip in three, five (cut) and eight chunks, gzip
# from a pipe with three threads, and two ranks loaded at once.  Any race ends the run (exit 66).  Usage: GANTTY=... GEN_TRACE=...
# sh tests/threads.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

export TSAN_OPTIONS="halt_on_error=1 exitcode=66"
export XDG_CACHE_HOME="$tmp/cache" GANTTY_SPLIT_MIN=1
"$GEN_TRACE" --ranks=2 --seed=5 --target-mb=2 --out="$tmp/g" >/dev/null ||
	bail "gen-trace failed"
f=$tmp/g/rank-0.json
gzip -c "$f" >"$f.gz"
head -c 1500000 "$f" >"$tmp/cut.json"
# files modified in the last 2 s are not cached: backdate them, not wait
touch -d '-1 hour' "$tmp/g"/* "$tmp/cut.json"
expect 0 "two chunks" env GANTTY_LOAD_THREADS=2 "$GANTTY" --no-cache --report -q "$f"
expect 0 "two chunks, cut after the middle" env GANTTY_LOAD_THREADS=2 "$GANTTY" --no-cache --report -q "$tmp/cut.json"
expect 0 "eight chunks" env GANTTY_LOAD_THREADS=8 "$GANTTY" --no-cache --report -q "$f"
expect 0 "five chunks, cut" env GANTTY_LOAD_THREADS=5 "$GANTTY" --no-cache --report -q "$tmp/cut.json"
# every guess inside an event (args hold lists of objects): chunks dropped,
# the ones after them taken over
awk 'BEGIN { printf "{\"traceEvents\": ["; for (i = 0; i < 3000; i++)
	printf "%s\n {\"ph\": \"X\", \"name\": \"op\", \"pid\": 1, \"tid\": 1, \"ts\": %d, \"dur\": 1, \"args\": {\"l\": [{\"a\": 1}, {\"b\": 2}]}}", (i ? "," : ""), i
	print "]}" }' >"$tmp/nested.json"
expect 0 "eight chunks, guesses inside events" env GANTTY_LOAD_THREADS=8 "$GANTTY" --no-cache --report -q "$tmp/nested.json"
expect 0 "writing the cache" "$GANTTY" --report -q "$f"
expect 0 "reading the cache (checksum thread) and analysing" "$GANTTY" -v --report -q --format=json "$f"
file_has "$tmp/err" "loaded from" "the second run read the cache"
expect 0 "the first frame" "$GANTTY" --render "$f"
expect 0 "two ranks at once" "$GANTTY" --no-cache --report -q "$tmp/g"
expect 0 "gzip, three chunks" env GANTTY_LOAD_THREADS=3 "$GANTTY" --no-cache --report -q "$f.gz"
expect 0 "gzip, eight chunks" env GANTTY_LOAD_THREADS=8 "$GANTTY" --no-cache --report -q "$f.gz"
head -c 300000 "$f.gz" >"$tmp/cut.json.gz"
expect 0 "gzip, five chunks, cut" env GANTTY_LOAD_THREADS=5 GANTTY_SPLIT_MIN=100000 "$GANTTY" --no-cache --report -q "$tmp/cut.json.gz"
expect 0 "gzip from a pipe, three threads (the inflater and the taker)" sh -c \
	'cat "$2" | GANTTY_LOAD_THREADS=3 "$1" --no-cache --report -q -' sh "$GANTTY" "$f.gz"
finish
