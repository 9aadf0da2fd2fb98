#!/bin/sh
# The model cache through the real program: a report from the cache is
# byte-identical to the first load's (stdout, warnings on stderr and exit
# status) on generated traces, the hostile fixtures and, when present, every
# trace of ../shared/corpus; --no-cache neither reads nor writes; stale,
# corrupt and unwritable caches cost nothing but time.  Everything caches
# into the test's private XDG_CACHE_HOME (lib.sh).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

cache=$XDG_CACHE_HOME/gantty
notes='^gantty: .*: \(loaded from \|cache \|not cached: \)'

# old FILE...: backdates files so that they are old enough to cache.
old() { touch -d '-1 hour' "$@"; }

# same NAME FILE [ARGS...]: runs the report without the cache, then twice
# with it (the first writes, the second must read it), and checks all three
# agree on stdout, stderr (apart from -v's notes) and status.
same() {
	name=$1; f=$2; shift 2
	"$GANTTY" --report --format=json --no-cache "$@" "$f" >"$tmp/a.out" 2>"$tmp/a.err"
	sa=$?
	"$GANTTY" --report --format=json -v "$@" "$f" >"$tmp/b.out" 2>"$tmp/b.raw"
	sb=$?
	"$GANTTY" --report --format=json -v "$@" "$f" >"$tmp/c.out" 2>"$tmp/c.raw"
	sc=$?
	grep -v "$notes" "$tmp/b.raw" >"$tmp/b.err"
	grep -v "$notes" "$tmp/c.raw" >"$tmp/c.err"
	if [ $sa -ne 0 ]; then
		# Not a trace: nothing is cached, and the error is the same.
		if [ $sb -eq $sa ] && [ $sc -eq $sa ] && cmp -s "$tmp/a.err" "$tmp/c.err"; then
			pass "$name (status $sa, not cached)"
		else
			fail "$name: status $sa/$sb/$sc"
		fi
		return
	fi
	if ! grep -q ': loaded from ' "$tmp/c.raw"; then
		fail "$name: the second run did not read the cache"
		sed 's/^/# /' "$tmp/c.raw"
	elif [ $sb -ne 0 ] || [ $sc -ne 0 ]; then
		fail "$name: status $sa/$sb/$sc"
	elif ! cmp -s "$tmp/a.out" "$tmp/c.out" || ! cmp -s "$tmp/a.out" "$tmp/b.out"; then
		fail "$name: the report from the cache differs"
		diff "$tmp/a.out" "$tmp/c.out" | head -5 | sed 's/^/# /'
	elif ! cmp -s "$tmp/a.err" "$tmp/c.err" || ! cmp -s "$tmp/a.err" "$tmp/b.err"; then
		fail "$name: the warnings from the cache differ"
		diff "$tmp/a.err" "$tmp/c.err" | head -5 | sed 's/^/# /'
	else
		pass "$name"
	fi
}

# The bundled example, and a generated two-rank trace (a directory: both
# ranks are cached, the cross-rank report comes back the same).
cp "$top_srcdir/share/example.json.gz" "$tmp/example.json.gz"
old "$tmp/example.json.gz"
same "example" "$tmp/example.json.gz"
same "example, --step and --rank" "$tmp/example.json.gz" --step=15 --rank=0
"$GEN_TRACE" --ranks=2 --seed=7 --target-mb=2 --out="$tmp/gen" >/dev/null
old "$tmp/gen"/*.json
same "generated 2 ranks" "$tmp/gen"
check "each rank has its cache" test "$(ls "$cache" | grep -c '^rank-[01]\.json-')" -eq 2
# A file cut after its event array closed keeps its last step whole, from
# the cache too (the trace's events_cut is cached); one cut inside the
# array marks it incomplete.
gzip -dc "$top_srcdir/share/example.json.gz" >"$tmp/whole.json"
n=$(grep -n '^  \],$' "$tmp/whole.json" | tail -n 1 | cut -d: -f1)
head -n "$n" "$tmp/whole.json" >"$tmp/after.json"
printf '  "traceName": "rank-0.js' >>"$tmp/after.json"
head -c 2000000 "$tmp/whole.json" >"$tmp/inside.json"
old "$tmp/after.json" "$tmp/inside.json"
same "cut after the event array" "$tmp/after.json"
check "... cut short" grep -q 'the top-level object is closed (cut short)' "$tmp/c.err"
check "... its last step is whole" sh -c "! grep -q '\"incomplete\": true' '$tmp/c.out'"
same "cut inside the event array" "$tmp/inside.json"
check "... its last step is incomplete" grep -q '"incomplete": true' "$tmp/c.out"

# The viewer's frame from the cache is the same too.
"$GANTTY" --render --no-cache --width=200 --height=60 "$tmp/example.json.gz" >"$tmp/r1"
"$GANTTY" --render --width=200 --height=60 "$tmp/example.json.gz" >"$tmp/r2"
check "render from the cache" cmp -s "$tmp/r1" "$tmp/r2"

# Warnings and stop reasons: the hostile fixtures.
mkdir "$tmp/hostile"
cp "$top_srcdir"/tests/fixtures/hostile/* "$tmp/hostile/"
old "$tmp/hostile"/*
for f in "$tmp/hostile"/*; do
	same "hostile $(basename "$f")" "$f"
done

# --no-cache neither writes nor reads.
rm -rf "$XDG_CACHE_HOME"
"$GANTTY" --report -q --no-cache -v "$tmp/example.json.gz" >/dev/null 2>"$tmp/err"
check "--no-cache writes nothing" test ! -e "$cache"
check "--no-cache has no note" test ! -s "$tmp/err"
"$GANTTY" --report -q "$tmp/example.json.gz" >/dev/null
"$GANTTY" --report -q --no-cache -v "$tmp/example.json.gz" >/dev/null 2>"$tmp/err"
check "--no-cache does not read" test ! -s "$tmp/err"

# Stale: touched, then rewritten with the same size; both reload.  Touched
# into the future: modified "just now" however long the run below waits.
touch -d '+1 hour' "$tmp/example.json.gz"
"$GANTTY" --report -q -v "$tmp/example.json.gz" >/dev/null 2>"$tmp/err"
check "a touched file is reloaded" grep -q 'cache stale' "$tmp/err"
check "a file modified just now is not cached" grep -q 'not written: modified less than' "$tmp/err"
cp "$top_srcdir/tests/fixtures/small.json" "$tmp/s.json"
old "$tmp/s.json"
"$GANTTY" --report --format=json -q "$tmp/s.json" >/dev/null
sed 's/"ts": 0/"ts": 1/' "$tmp/s.json" >"$tmp/s2.json"
cat "$tmp/s2.json" >"$tmp/s.json"; old "$tmp/s.json"
"$GANTTY" --report --format=json -q --no-cache "$tmp/s.json" >"$tmp/want"
"$GANTTY" --report --format=json -q -v "$tmp/s.json" >"$tmp/got" 2>"$tmp/err"
check "rewritten in place: the cache is stale" grep -q 'cache stale' "$tmp/err"
check "rewritten in place: the new report" cmp -s "$tmp/want" "$tmp/got"

# Corrupt: cut in half, then garbage; each is refused and rewritten.
"$GANTTY" --report --format=json --no-cache "$tmp/example.json.gz" >"$tmp/want" 2>/dev/null
"$GANTTY" --report -q "$tmp/example.json.gz" >/dev/null
old "$tmp/example.json.gz"
"$GANTTY" --report -q "$tmp/example.json.gz" >/dev/null
c=$(ls "$cache"/example.json.gz-*.gantty)
size=$(wc -c <"$c")
head -c $((size / 2)) "$c" >"$tmp/half"; cat "$tmp/half" >"$c"
"$GANTTY" --report --format=json -v "$tmp/example.json.gz" >"$tmp/got" 2>"$tmp/err"
check "a cut cache is refused" grep -q 'cache corrupt' "$tmp/err"
check "a cut cache: the report" cmp -s "$tmp/want" "$tmp/got"
check "a cut cache is rewritten" test "$(wc -c <"$c")" -eq "$size"
dd if=/dev/urandom of="$c" bs=1 seek=1000 count=64 conv=notrunc 2>/dev/null
"$GANTTY" --report --format=json -v "$tmp/example.json.gz" >"$tmp/got" 2>"$tmp/err"
check "a garbled cache is refused" grep -q 'cache corrupt' "$tmp/err"
check "a garbled cache: the report" cmp -s "$tmp/want" "$tmp/got"

# Unwritable: the cache directory cannot be created; silent without -v.
XDG_CACHE_HOME=$tmp/example.json.gz/x "$GANTTY" --report --format=json \
    "$tmp/example.json.gz" >"$tmp/got" 2>"$tmp/err"
st=$?
check "unwritable cache: exit 0" test $st -eq 0
check "unwritable cache: the report" cmp -s "$tmp/want" "$tmp/got"
check "unwritable cache: silent" test ! -s "$tmp/err"
XDG_CACHE_HOME=$tmp/example.json.gz/x "$GANTTY" --report -q -v \
    "$tmp/example.json.gz" >/dev/null 2>"$tmp/err"
check "unwritable cache: -v says why" grep -q 'not written: cannot create' "$tmp/err"

# Temporary files: one older than an hour is a killed writer's, removed
# by the next run that writes a cache; a fresh one (a writer at work) is
# left alone.  (They stayed forever.)
mkdir -p "$cache"
: >"$cache/.tmp-old123"; touch -d '-2 hours' "$cache/.tmp-old123"
: >"$cache/.tmp-new123"
rm -f "$cache"/s.json-*.gantty
"$GANTTY" --report -q -v "$tmp/s.json" >/dev/null 2>"$tmp/err"
check "a run that writes a cache removes stale temporaries" test ! -e "$cache/.tmp-old123"
check "  and leaves a fresh one" test -e "$cache/.tmp-new123"
rm -f "$cache/.tmp-new123"

# A FIFO at the cache's path is ignored (the load hung on it), and replaced.
rm -f "$cache"/s.json-*.gantty
"$GANTTY" --report -q "$tmp/s.json" >/dev/null 2>&1
c=$(ls "$cache"/s.json-*.gantty)
rm -f "$c"; mkfifo "$c"
timeout 60 "$GANTTY" --report --format=json -v "$tmp/s.json" >"$tmp/got" 2>"$tmp/err"
check "a FIFO at the cache path: no hang, exit 0" test $? -eq 0
check "  -v says it is not a regular file" grep -q 'cache not a regular file, ignored' "$tmp/err"
check "  and it is replaced by a cache" test -f "$c"

# A cache directory that others may write is not used; -v says so.
chmod 777 "$cache"
"$GANTTY" --report -q -v "$tmp/s.json" >/dev/null 2>"$tmp/err"
check "a group- or world-writable cache directory is not used" grep -q 'writable by group or others' "$tmp/err"
chmod 700 "$cache"

# Standard input is never cached.
"$GANTTY" --report -q -v - <"$tmp/example.json.gz" >/dev/null 2>"$tmp/err"
check "stdin is not cached" grep -q 'standard input is not cached' "$tmp/err"

# Every trace of the corpus, when there is one (skipped otherwise).
corpus=${GANTTY_CORPUS:-$top_srcdir/../shared/corpus}
if [ ! -d "$corpus" ]; then
	skip "every trace of the corpus" "no corpus at $corpus"
	finish
fi
find "$corpus" -type f \( -name '*.json' -o -name '*.json.gz' \) | sort >"$tmp/list"
while read -r f; do
	same "corpus ${f#"$corpus"/}" "$f"
done <"$tmp/list"
# Temporary files of writers killed while writing (SIGINT left them
# forever): the next writer removes those untouched for an hour, not a
# fresh one that may be another writer's at work.
mkdir -p "$cache"
: >"$cache/.tmp-dead01"
touch -d '-2 hours' "$cache/.tmp-dead01"
: >"$cache/.tmp-live01"
cp "$top_srcdir/share/example.json.gz" "$tmp/sweep.json.gz"
old "$tmp/sweep.json.gz"
"$GANTTY" --report -q "$tmp/sweep.json.gz" >/dev/null 2>&1
check "a dead writer's temporary file is removed" test ! -e "$cache/.tmp-dead01"
check "a fresh one is left alone" test -e "$cache/.tmp-live01"
rm -f "$cache/.tmp-live01"
finish
