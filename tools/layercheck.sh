#!/bin/sh
# layercheck.sh SRCDIR: checks the layer map of gantty's source tree.
#
# The layers, lowest first (each folder under SRCDIR is one):
#     base model load analysis report view render tui
# and main.c on top.  A file may include (with quotes) only config.h and
# headers named by their path under SRCDIR ("model/trace.h") that live in
# its own folder or a folder lower in the list; and the graph of modules (a
# module is a .c and its .h, src/model/trace.[ch]) must have no cycle, within
# a folder too.  No .c file is longer than 1500 lines, main.c than 500
# (STYLE.md: a file that grows past them is split).  Prints one line per violation and exits 1 if there is any;
# prints nothing and exits 0 when the tree keeps the map.
LAYERS="base model load analysis report view render tui"
src=${1:?usage: layercheck.sh SRCDIR}
cd "$src" || exit 2
rank() {
	r=0
	for l in $LAYERS main; do
		[ "$l" = "$1" ] && { echo $r; return; }
		r=$((r + 1))
	done
	echo -1
}
bad=0
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT
for f in main.c */*.c */*.h; do
	[ -f "$f" ] || continue
	case $f in
	main.c) max=500 ;;
	*.c) max=1500 ;;
	*) max=0 ;;
	esac
	n=$(wc -l <"$f")
	if [ "$max" -gt 0 ] && [ "$n" -gt "$max" ]; then
		echo "$src/$f: $n lines, more than $max: split it"
		bad=1
	fi
	case $f in
	*/*) dir=${f%%/*} ;;
	*) dir=main ;;
	esac
	me=$(rank "$dir")
	if [ "$me" -lt 0 ]; then
		echo "$src/$f: folder '$dir' is not a layer ($LAYERS)"
		bad=1
		continue
	fi
	mod=${f%.[ch]}
	# Every quoted include, with its line number.
	grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
	    sed 's/^\([0-9]*\):.*"\([^"]*\)".*/\1 \2/' >"$edges.f"
	while read -r line inc; do
		[ "$inc" = config.h ] && continue
		case $inc in
		*/*) ;;
		*)
			echo "$src/$f:$line: \"$inc\" is not path-qualified (\"LAYER/$inc\")"
			bad=1
			continue ;;
		esac
		if [ ! -f "$inc" ]; then
			echo "$src/$f:$line: \"$inc\" does not exist under $src"
			bad=1
			continue
		fi
		theirs=$(rank "${inc%%/*}")
		if [ "$theirs" -gt "$me" ]; then
			echo "$src/$f:$line: includes \"$inc\" of layer ${inc%%/*}, above its own ($dir)"
			bad=1
		fi
		to=${inc%.[ch]}
		[ "$to" != "$mod" ] && echo "$mod $to" >>"$edges"
	done <"$edges.f"
	rm -f "$edges.f"
done
# tsort names the modules on a cycle on standard error.
if ! tsort "$edges" >/dev/null 2>"$edges.err"; then
	echo "$src: the modules' include graph has a cycle:"
	sed -e 's/^tsort: .*: input contains a loop:$/  one through:/' \
	    -e 's/^tsort: /    /' "$edges.err"
	bad=1
fi
rm -f "$edges.err"
exit $bad
