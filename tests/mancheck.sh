#!/bin/sh
# The man page against the code, so that they cannot drift (STYLE.md):
# the KEYS section lists exactly the viewer's key table, in order (habit 5);
# the OPTIONS section the long options of --help; the FINDINGS section the
# finding kinds of src/analysis/findings.h, in order.
#
# `gantty --keys` prints the key table as "KEYS<TAB>HELP" lines; the KEYS
# section holds, per binding:
#   .TP
#   .B KEYS
#   HELP
# (further lines of prose may follow the help line).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

man=$top_srcdir/man/gantty.1

# section NAME: prints the lines of the man page's section NAME (.SH NAME).
section() {
	awk -v name="$1" '/^\.SH/ { s = $0; sub(/^\.SH[ \t]+/, "", s); gsub(/"/, "", s)
		on = (s == name); next } on' "$man"
}
# entries: of a section on standard input, prints the line after each .TP
# (the tag of the entry) with the roff escapes \- and \& undone.
entries() {
	awk '/^\.TP/ { tag = 1; next } tag { gsub(/\\-/, "-"); gsub(/\\&/, ""); print; tag = 0 }'
}

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

# OPTIONS: every option of --help (in its left column, "  -q, --quiet
# ...") and every one the OPTIONS section's entries name, sorted.
"$GANTTY" --help >"$tmp/help" 2>&1
sed -n 's/^  \(-[^ ]*\( [^ ][^ ]*\)*\)  .*/\1/p' "$tmp/help" |
    grep -oE -- '--?[A-Za-z][a-z-]*' | sort -u >"$tmp/help-options"
section OPTIONS | entries | grep -oE -- '--?[A-Za-z][a-z-]*' | sort -u >"$tmp/man-options"
check "--help lists options" test -s "$tmp/help-options"
if diff "$tmp/help-options" "$tmp/man-options" >"$tmp/diff"; then
	pass "the OPTIONS section lists every option of --help, and no other"
else
	fail "the OPTIONS section differs from --help (< --help, > man page)"
	sed 's/^/# /' "$tmp/diff"
fi

# FINDINGS: the ids of the FINDINGS_KINDS X-macro, in order, and the
# entries of the FINDINGS section (".TP", ".B id").
sed -n 's/^[[:space:]]*X([A-Z_]*, *"\([a-z_]*\)").*/\1/p' \
    "$top_srcdir/src/analysis/findings.h" >"$tmp/kinds"
section FINDINGS | entries | sed -n 's/^\.B[[:space:]]\{1,\}//p' >"$tmp/man-kinds"
check "findings.h lists finding kinds" test -s "$tmp/kinds"
if diff "$tmp/kinds" "$tmp/man-kinds" >"$tmp/diff"; then
	pass "the FINDINGS section lists every finding kind, in order, and no other"
else
	fail "the FINDINGS section differs from findings.h (< code, > man page)"
	sed 's/^/# /' "$tmp/diff"
fi
finish
