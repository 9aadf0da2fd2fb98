#!/bin/sh
# Golden --render frames: the bundled example and a generated two-rank trace
# at several sizes, in UTF-8 and ASCII, with colour, --step, --window and
# --cpu, --what-if (the critical path lane and lines), compared byte for byte with tests/fixtures/render-*.txt.
#
# After a deliberate change to the frame, regenerate the goldens with
#     RENDER_REGEN=1 top_srcdir=. sh tests/render.sh
# and look at every one of them (git diff) before committing.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

fx=$top_srcdir/tests/fixtures
example=$top_srcdir/share/example.json.gz
regen=${RENDER_REGEN:-}

# The UTF-8 frames need a UTF-8 locale (gantty falls back to ASCII in
# others); the ASCII ones must come out the same in any locale.
utf8=
for l in C.UTF-8 C.utf8 en_US.UTF-8 en_US.utf8; do
	if [ "$(LC_ALL=$l locale charmap 2>/dev/null)" = UTF-8 ]; then
		utf8=$l
		break
	fi
done

mkdir "$tmp/gen"
"$GEN_TRACE" --ranks=2 --seed=1 --out="$tmp/gen" >/dev/null ||
	bail "gen-trace cannot write the two-rank trace"
cp "$example" "$tmp/example.json.gz"

# golden NAME LOCALE ARGS...: renders ARGS in $tmp (so that the title's file
# names are stable) and compares the frame with $fx/render-NAME.txt.
golden() {
	name=$1 loc=$2; shift 2
	want=$fx/render-$name.txt
	if [ "$loc" = utf8 ]; then
		if [ -z "$utf8" ]; then
			skip "render $name" "no UTF-8 locale"
			return
		fi
		loc=$utf8
	fi
	if ! (cd "$tmp" && LC_ALL=$loc NO_COLOR= "$GANTTY" --render "$@") \
	    >"$tmp/$name.txt" 2>"$tmp/$name.err"; then
		fail "render $name: gantty failed"
		sed 's/^/# /' "$tmp/$name.err"
		return
	fi
	if [ -n "$regen" ]; then
		cp "$tmp/$name.txt" "$want"
		pass "render $name (regenerated)"
	elif cmp -s "$want" "$tmp/$name.txt"; then
		pass "render $name"
	else
		fail "render $name differs from tests/fixtures/render-$name.txt"
		diff -u "$want" "$tmp/$name.txt" | head -60 | sed 's/^/# /'
	fi
}

golden example-80x24 utf8 --width=80 --height=24 example.json.gz
golden example-120x40-ascii C --width=120 --height=40 --ascii example.json.gz
golden example-step15-120x40 utf8 --width=120 --height=40 --step=15 example.json.gz
golden example-100x30-color utf8 --width=100 --height=30 --color=always example.json.gz
golden gen2-200x60 utf8 --width=200 --height=60 gen
golden gen2-200x60-cpu-window utf8 --width=200 --height=60 --cpu \
	--window=200ms:230ms gen
golden gen2-100x30-ascii-window C --width=100 --height=30 --ascii \
	--window=223ms:229ms gen
golden gen2-250x70-step12-cpu utf8 --width=250 --height=70 --step=12 --cpu gen
golden gen2-40x12 utf8 --width=40 --height=12 gen
golden example-whatif-150x45 utf8 --width=150 --height=45 --what-if=comm=2 \
	--what-if=no-host-wait example.json.gz
golden too-small utf8 --width=39 --height=12 example.json.gz
# before and after: the baseline step's lanes under step 13; the diff table
# of two steps (80 columns: changes only) and of two traces (--compare)
golden example-baseline12-step13-120x40-ascii C --width=120 --height=40 \
    --ascii --baseline=12 --step=13 example.json.gz
golden example-difftable-80x24-ascii C --width=80 --height=24 --ascii \
    --baseline=12 --step=13 --diff-table example.json.gz
golden gen2-compare-difftable-120x40-ascii C --width=120 --height=40 \
    --ascii --compare --diff-table gen/rank-0.json gen/rank-1.json

# In a C locale the glyphs fall back to ASCII by themselves.
(cd "$tmp" && LC_ALL=C "$GANTTY" --render --width=120 --height=40 \
    example.json.gz) >"$tmp/c-locale.txt" 2>/dev/null
check "a C locale gives the ASCII frame" \
	cmp -s "$tmp/c-locale.txt" "$fx/render-example-120x40-ascii.txt"
if LC_ALL=C grep -q "$(printf '[\200-\377]')" "$tmp/c-locale.txt"; then
	fail "the ASCII frame holds non-ASCII bytes"
else
	pass "the ASCII frame is ASCII"
fi

# Every frame has exactly the requested height, and no line is wider.
for f in "$tmp"/example-80x24.txt "$tmp"/gen2-200x60.txt; do
	[ -f "$f" ] || continue
	case $f in
	*80x24*) w=80 h=24 ;;
	*) w=200 h=60 ;;
	esac
	lines=$(wc -l <"$f")
	check "$(basename "$f"): $h lines" test "$lines" -eq "$h"
	# code points: the bytes that are not UTF-8 continuation bytes
	widest=$(LC_ALL=C tr -d '\200-\277' <"$f" |
	    LC_ALL=C awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }')
	check "$(basename "$f"): at most $w columns" test "$widest" -le "$w"
done

finish
