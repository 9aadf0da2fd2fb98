#!/bin/sh
# The report keys agree between the writers, the reader of per-rank reports
# and the man page (STYLE.md: things that must agree are checked against each
# other).  Every key that --report --format=json (and --reports) writes on
# the fixtures and on generated ranks is named in bold in the man page's
# JSON REPORT section, and every key --diff writes in its DIFF section; every
# key-like bold name of those sections is a key or a value of some output
# (or an enumerated value no fixture produces, listed below); and every key
# that src/report/report_set.c reads back is one the writer writes, where it
# reads it.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

if [ -z "$PYTHON3" ]; then
	echo "skip: no python3" >&2
	exit 77
fi
man=$top_srcdir/man/gantty.1
fix=$top_srcdir/tests/fixtures

# --report: fixtures, hostile ones too, the example (memory, findings), and
# generated ranks with injected problems (cross_rank and its findings), with
# --step, --window and --align=collective so that the conditional keys appear
mkdir "$tmp/report" "$tmp/diff"
i=0
for f in "$fix"/*.json* "$fix"/hostile/*.json* "$top_srcdir/share/example.json.gz"; do
	i=$((i + 1))
	"$GANTTY" --report --format=json -q "$f" >"$tmp/report/$i.json" 2>/dev/null
done
"$GEN_TRACE" --ranks=3 --seed=1 --out="$tmp/ranks" >/dev/null ||
    fail "gen-trace --ranks=3"
"$GANTTY" --report --format=json -q "$tmp/ranks" >"$tmp/report/ranks.json"
"$GANTTY" --report --format=json -q --step=12 --align=collective "$tmp/ranks" \
    >"$tmp/report/ranks-step.json"
"$GANTTY" --report --format=json -q --what-if=comm=2 --what-if=no-host-wait \
    "$tmp/ranks" >"$tmp/report/ranks-whatif.json"
"$GANTTY" --report --format=json -q --window=0:100ms \
    "$top_srcdir/share/example.json.gz" >"$tmp/report/window.json"
mkdir "$tmp/per-rank"
for f in "$tmp/ranks"/*.json; do
	"$GANTTY" --report --format=json -q "$f" >"$tmp/per-rank/${f##*/}"
done
"$GANTTY" --reports --report --format=json "$tmp/per-rank" >"$tmp/report/reports.json"
check "--reports --report --format=json reads the per-rank reports back" \
    test -s "$tmp/report/reports.json"
"$GANTTY" --diff --format=json -q "$tmp/ranks/rank-0.json" "$fix/small.json" \
    >"$tmp/diff/pair.json"
"$GANTTY" --diff --diff-steps=10:15 --format=json -q "$tmp/ranks/rank-1.json" \
    >"$tmp/diff/steps.json"

# The checks print "ok - ..." / "not ok - ..." lines, counted below.
"$PYTHON3" - "$man" "$tmp/report" "$tmp/diff" "$top_srcdir/src/report/report_set.c" \
    >"$tmp/checks" <<'PY'
import glob, json, re, sys

man, report_dir, diff_dir, reader = sys.argv[1:5]

def say(ok, name):
    print(("ok - " if ok else "not ok - ") + name)

# Words the man page's section shows in bold (.B all, .BR the odd
# arguments, .RB the even ones), but options and the command's name.
def bold_words(section):
    words, on = set(), False
    for line in open(man, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith(".SH"):
            on = line[3:].strip().strip('"') == section
            continue
        if not on:
            continue
        m = re.match(r"\.(B|BR|RB)\s+(.*)", line)
        if not m:
            continue
        args = re.findall(r'"([^"]*)"|(\S+)', m.group(2))
        args = [a or b for a, b in args]
        first = {"B": None, "BR": 0, "RB": 1}[m.group(1)]
        for k, a in enumerate(args):
            if first is not None and k % 2 != first:
                continue
            for t in a.replace("\\&", "").split():
                if t.startswith("\\-") or t == "gantty":
                    continue        # an option or the command, not a key
                words.update(w for w in re.split(r"[^A-Za-z0-9_]+", t) if w)
    return words

# Every key path of an output ("ranks[].gpu.busy_ns"), and its string values.
# The keys under categories (the trace's own category names) and evidence
# (each finding's named numbers, see FINDINGS) are data, not report keys.
DATA = {"categories", "evidence"}

def walk(v, path, keys, values):
    if isinstance(v, dict):
        for k, x in v.items():
            p = path + "." + k if path else k
            keys.add(p)
            if k not in DATA:
                walk(x, p, keys, values)
    elif isinstance(v, list):
        for x in v:
            walk(x, path + "[]", keys, values)
    elif isinstance(v, str):
        values.add(v)

def outputs(folder):
    keys, values, n = set(), set(), 0
    for f in sorted(glob.glob(folder + "/*.json")):
        try:
            doc = json.load(open(f, encoding="utf-8"))
        except ValueError:
            continue        # a trace gantty refuses: no report
        n += 1
        walk(doc, "", keys, values)
    return keys, values, n

# Enumerated values the man page names that no output here holds: a layer's
# phase span and sources fsdp1, module, pattern; severity info; mfu source
# model; rank_source "file name"; the track kind counter.
UNSEEN = {"span", "fsdp1", "module", "pattern", "info", "model", "file",
          "counter"}

def agree(section, folder, what):
    keys, values, n = outputs(folder)
    say(n > 0, "%s: %d outputs read" % (what, n))
    bold = bold_words(section)
    names = {p.split(".")[-1].replace("[]", "") for p in keys}
    missing = sorted(names - bold)
    say(not missing, "%s: every key is named in %s%s" % (what, section,
        (": not " + ", ".join(missing)) if missing else ""))
    words = {w for w in bold if re.fullmatch(r"[a-z][a-z0-9_]*", w)}
    unknown = sorted(words - names - values - UNSEEN)
    say(not unknown, "%s: every name %s lists is a key or a value%s" % (what,
        section, (": not " + ", ".join(unknown)) if unknown else ""))
    return keys

report_keys = agree("JSON REPORT", report_dir, "--report")
agree("DIFF", diff_dir, "--diff")

# What report_set.c reads, by the variable it reads from: the document, a
# rank entry, a step, a collective.
WHERE = {"doc": "", "e": "ranks[].", "s": "ranks[].steps[].",
         "c": "ranks[].collectives[]."}
src = open(reader, encoding="utf-8").read()
reads = re.findall(r'(?:get_i64|get_str|get_array|json_object_object_get_ex)'
                   r'\(\s*(\w+),\s*"([^"]+)"', src)
say(len(reads) >= 10, "report_set.c: %d keys read" % len(reads))
for var, key in reads:
    if var not in WHERE:
        say(False, "report_set.c reads %s from %s: a place this test does not know"
            % (key, var))
        continue
    path = WHERE[var] + key
    say(path in report_keys, "report_set.c reads %s, which the report writes" % path)
PY
[ $? -eq 0 ] || fail "the key check ran"
while IFS= read -r line; do
	case $line in
	"ok - "*) pass "${line#ok - }" ;;
	"not ok - "*) fail "${line#not ok - }" ;;
	*) echo "# $line" ;;
	esac
done <"$tmp/checks"

finish
