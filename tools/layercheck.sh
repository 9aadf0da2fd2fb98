#!/bin/sh
# layercheck.sh SRCDIR: checks the layer map of gantty's source tree.
#
# The layers, lowest first (each folder under SRCDIR is one):
#     base model load analysis report view render tui
# and main.c on top.  A file may include (with quotes) only config.h and
# headers named by their path under SRCDIR ("model/trace.h") that live in
# its own folder or a folder lower in the list; and the graph of files must
# have no cycle, within a folder too.  A file depends on the headers it
# includes and a .c file, within its folder, on the .c files whose functions
# it calls: a function is defined where its name starts a line and the line
# before does not start with "static" (STYLE's layout).  So files that share
# one private header cannot call each other round in a circle either; what
# they share goes into a header of its own (model/event.h, load/chunk.h).  No .c file is longer than 1500 lines, main.c than 500
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
		echo "$f $inc" >>"$edges"
	done <"$edges.f"
	rm -f "$edges.f"
done
# The calls within each folder: "CALLER DEFINER" for each pair of .c files
# where CALLER calls a function DEFINER defines with external linkage,
# comments and literals left out.
for d in */; do
	set -- "$d"*.c
	[ -f "$1" ] || continue
	awk '
	FNR == 1 { mod = FILENAME; prev = ""; incom = 0 }
	{
		line = $0; out = ""
		while (line != "") {
			if (incom) {
				i = index(line, "*/")
				if (!i) { line = ""; break }
				line = substr(line, i + 2); incom = 0
				continue
			}
			i = index(line, "/*")
			if (!i) { out = out line; break }
			out = out substr(line, 1, i - 1) " "
			line = substr(line, i + 2); incom = 1
		}
		sub(/\/\/.*/, "", out)
		gsub(/"([^"\\]|\\.)*"/, "\"\"", out)
		gsub(/\047([^\047\\]|\\.)*\047/, "0", out)
		if (out ~ /^[A-Za-z_][A-Za-z0-9_]*\(/ && prev !~ /^static/) {
			name = out; sub(/\(.*/, "", name)
			def[name] = mod
		}
		rest = out
		while (match(rest, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
			name = substr(rest, RSTART, RLENGTH); sub(/[ \t]*\($/, "", name)
			calls[mod, name] = 1
			rest = substr(rest, RSTART + RLENGTH)
		}
		if (out !~ /^[ \t]*$/) prev = out
	}
	END {
		for (k in calls) {
			split(k, p, SUBSEP)
			if ((p[2] in def) && def[p[2]] != p[1])
				print p[1], def[p[2]]
		}
	}' "$@" | sort -u >>"$edges"
done
# tsort names the modules on a cycle on standard error.
if ! tsort "$edges" >/dev/null 2>"$edges.err"; then
	echo "$src: the files' graph (their includes and calls) has a cycle:"
	sed -e 's/^tsort: .*: input contains a loop:$/  one through:/' \
	    -e 's/^tsort: /    /' "$edges.err"
	bad=1
fi
rm -f "$edges.err"
exit $bad
