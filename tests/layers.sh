#!/bin/sh
# The layer map of the source tree (STYLE.md, Layers): tools/layercheck.sh
# finds nothing wrong in src/; and on copies of src/, each with one mistake
# planted, it finds that mistake: an include of a higher layer, a cycle
# between two modules of one folder, an include not qualified by its folder.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

layercheck=$top_srcdir/tools/layercheck.sh

# run NAME DIR: runs layercheck on DIR, its output in $tmp/NAME.out and its
# status in $got.
run() {
	sh "$layercheck" "$2" >"$tmp/$1.out" 2>&1
	got=$?
}

run src "$top_srcdir/src"
if [ "$got" -eq 0 ] && [ ! -s "$tmp/src.out" ]; then
	pass "src/ keeps the layer map"
else
	fail "src/ breaks the layer map (exit $got):
$(cat "$tmp/src.out")"
fi

# copy NAME: a writable copy of src/ in $tmp/NAME (the source tree may be
# read-only, as in make distcheck).
copy() {
	cp -R "$top_srcdir/src" "$tmp/$1"
	chmod -R u+w "$tmp/$1"
}

# planted NAME PATTERN WHAT: layercheck fails on $tmp/NAME and prints a line
# matching PATTERN (a basic regular expression).
planted() {
	run "$1" "$tmp/$1"
	if [ "$got" -ne 0 ] && grep -q -- "$2" "$tmp/$1.out"; then
		pass "$3"
	else
		fail "$3 (exit $got, no line matching '$2'):
$(cat "$tmp/$1.out")"
	fi
}

copy up
echo '#include "render/grid.h"' >>"$tmp/up/base/units.c"
planted up '/base/units\.c:[0-9]*: includes "render/grid\.h" of layer render, above its own (base)$' \
    "an include of a higher layer is found, naming the file"

copy cycle
printf '#include "base/b.h"\nint a(void);\n' >"$tmp/cycle/base/a.h"
printf '#include "base/a.h"\nint b(void);\n' >"$tmp/cycle/base/b.h"
printf '#include "base/a.h"\nint a(void) { return b(); }\n' >"$tmp/cycle/base/a.c"
printf '#include "base/b.h"\nint b(void) { return 0; }\n' >"$tmp/cycle/base/b.c"
planted cycle 'include graph has a cycle' "a cycle of two modules in one folder is found"
# the lines after the header name the modules on the cycle
sed -n '/include graph has a cycle/,$p' "$tmp/cycle.out" >"$tmp/cycle.names"
if grep -q '[[:space:]]base/a$' "$tmp/cycle.names" && grep -q '[[:space:]]base/b$' "$tmp/cycle.names"; then
	pass "the cycle's modules are named"
else
	fail "the cycle's modules are not named:
$(cat "$tmp/cycle.out")"
fi

copy bare
echo '#include "units.h"' >>"$tmp/bare/base/strtab.c"
planted bare '/base/strtab\.c:[0-9]*: "units\.h" is not path-qualified' \
    "an include without its folder is found, naming the file"

copy long
awk 'BEGIN { for (i = 0; i < 501; i++) print "/* filler */" }' >>"$tmp/long/main.c"
planted long '/main\.c: [0-9]* lines, more than 500: split it$' \
    "a main.c past 500 lines is found"
copy longc
awk 'BEGIN { for (i = 0; i < 1501; i++) print "/* filler */" }' >>"$tmp/longc/base/units.c"
planted longc '/base/units\.c: [0-9]* lines, more than 1500: split it$' \
    "a .c file past 1500 lines is found"

finish
