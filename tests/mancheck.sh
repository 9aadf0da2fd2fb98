#!/bin/sh
# The man page's KEYS section lists exactly the viewer's key table, in order,
# so the ? help, the dispatch and the man page cannot drift (STYLE.md habit
# 5).  `gantty --keys` prints the table as "KEYS<TAB>HELP" lines; the KEYS
# section holds, per binding:
#   .TP
#   .B KEYS
#   HELP
# (further lines of prose may follow the help line).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

man=$top_srcdir/man/gantty.1

if "$GANTTY" --keys >"$tmp/keys" 2>"$tmp/err"; then
	pass "gantty --keys"
else
	fail "gantty --keys (exit $?)"; sed 's/^/# /' "$tmp/err"
fi
check "the key table is not empty" test -s "$tmp/keys"

# The KEYS section's bindings as "KEYS<TAB>HELP", roff escapes undone.
awk '
function unroff(s) {
	gsub(/\\-/, "-", s); gsub(/\\&/, "", s); gsub(/\\\(en/, "-", s)
	gsub(/\\e/, "\\", s)
	return s
}
/^\.SH/ { inkeys = ($0 ~ /^\.SH[ \t]+"?KEYS"?[ \t]*$/); state = 0; next }
!inkeys { next }
/^\.TP/ { state = 1; next }
state == 1 && /^\.B[ \t]/ {
	k = $0; sub(/^\.B[ \t]+/, "", k)
	if (k ~ /^".*"$/) k = substr(k, 2, length(k) - 2)
	k = unroff(k); state = 2; next
}
state == 2 && !/^\./ { print k "\t" unroff($0); state = 0; next }
state != 0 { print "malformed entry near line " NR ": " $0; state = 0 }
' "$man" >"$tmp/man-keys"

if grep -q '^\.SH[ 	]*"\{0,1\}KEYS' "$man"; then
	pass "the man page has a KEYS section"
else
	fail "the man page has a KEYS section"
fi
if diff "$tmp/keys" "$tmp/man-keys" >"$tmp/diff"; then
	pass "the KEYS section lists every binding, in order, with its help"
else
	fail "the KEYS section differs from gantty --keys (< binary, > man page)"
	sed 's/^/# /' "$tmp/diff"
fi
finish
