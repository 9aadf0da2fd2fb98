#!/bin/sh
# The layer map of the source tree (STYLE.md, Layers): tools/layercheck.sh
# finds nothing wrong in src/; and on copies of src/, each with one mistake
# planted, it finds that mistake: an include of a higher layer, a cycle of
# two headers or of two files calling each other in one folder, an include
# not qualified by its folder.
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
planted cycle 'graph (their includes and calls) has a cycle' "a cycle of two headers in one folder is found"
# the lines after the header name the files on the cycle
sed -n '/has a cycle/,$p' "$tmp/cycle.out" >"$tmp/cycle.names"
if grep -q '[[:space:]]base/a\.h$' "$tmp/cycle.names" && grep -q '[[:space:]]base/b\.h$' "$tmp/cycle.names"; then
	pass "the cycle's files are named"
else
	fail "the cycle's files are not named:
$(cat "$tmp/cycle.out")"
fi

# Two files that share one header and call each other: no include shows
# it, the calls do.  A static function's name, a name in a comment or a
# string, and a call within one file make no edge.
copy calls
printf 'int c_one(void);\nint c_two(void);\n' >"$tmp/calls/base/c_int.h"
printf '#include "base/c_int.h"\nint\nc_one(void)\n{\n\treturn c_two();\n}\n' >"$tmp/calls/base/c_one.c"
printf '#include "base/c_int.h"\nint\nc_two(void)\n{\n\treturn c_one();\n}\n' >"$tmp/calls/base/c_two.c"
planted calls 'graph (their includes and calls) has a cycle' "two files calling each other through a shared header are found"
sed -n '/has a cycle/,$p' "$tmp/calls.out" >"$tmp/calls.names"
if grep -q '[[:space:]]base/c_one\.c$' "$tmp/calls.names" && grep -q '[[:space:]]base/c_two\.c$' "$tmp/calls.names"; then
	pass "the calling files are named"
else
	fail "the calling files are not named:
$(cat "$tmp/calls.out")"
fi
copy nocalls
printf 'int d_one(void);\nint d_two(void);\n' >"$tmp/nocalls/base/d_int.h"
printf '#include "base/d_int.h"\nint\nd_one(void)\n{\n\treturn d_two();\n}\nstatic int\nhelper(void)\n{\n\treturn 0;\n}\n' >"$tmp/nocalls/base/d_one.c"
printf '#include "base/d_int.h"\n/* d_one() is not called here */\nstatic const char *s = "d_one()";\nstatic int\nhelper(void)\n{\n\treturn s[0];\n}\nint\nd_two(void)\n{\n\treturn helper();\n}\n' >"$tmp/nocalls/base/d_two.c"
run nocalls "$tmp/nocalls"
if [ "$got" -eq 0 ] && [ ! -s "$tmp/nocalls.out" ]; then
	pass "a call one way, names in comments and strings, and statics make no cycle"
else
	fail "a one-way call was taken for a cycle (exit $got):
$(cat "$tmp/nocalls.out")"
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
