# Shared helpers for the shell tests (sourced).  Each test runs with
# top_srcdir, top_builddir, GANTTY, GEN_TRACE and PYTHON3 exported by make.
#
# A test speaks TAP (make check reads it through tap-driver.sh): one
# "ok N - name" or "not ok N - name" line per check, "# " comments, and the
# plan "1..N" printed by finish at the end; a test that cannot run at all
# prints "1..0 # SKIP why" (skip_all).  Anything else a test prints goes to
# standard error or is a comment, so that it cannot read as a TAP line.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
: "${GANTTY:=$top_builddir/gantty}"
: "${GEN_TRACE:=$top_builddir/tools/gen-trace}"
: "${PYTHON3:=$(command -v python3 || true)}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gantty-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
# Every run of gantty in a test caches into this private directory, never
# the user's, so no test sees a cache left by another or by a previous run.
XDG_CACHE_HOME=$tmp/cache; export XDG_CACHE_HOME

n_pass=0
n_fail=0
n_skip=0

# tap RESULT NAME: prints check number n_pass + n_fail + n_skip as RESULT
# ("ok" or "not ok"); a NAME of several lines gives its first line as the
# name and the others as comments.
tap() {
	printf '%s %d - %s\n' "$1" $((n_pass + n_fail + n_skip)) \
	    "$(printf '%s\n' "$2" | sed -n 1p)"
	printf '%s\n' "$2" | sed '1d; s/^/# /'
}
pass() { n_pass=$((n_pass + 1)); tap ok "$1"; }
fail() { n_fail=$((n_fail + 1)); tap "not ok" "$1"; }
# skip NAME WHY: a check (or a group of them) that cannot run here.
skip() { n_skip=$((n_skip + 1)); tap ok "$1 # SKIP $2"; }

# skip_all WHY: the whole test cannot run here (before any check): one skip.
skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

# bail WHY: the test cannot go on (its setup failed): an error, not a skip.
bail() {
	echo "Bail out! $1"
	exit 1
}

# check NAME COMMAND...: passes when the command succeeds.  What the command
# prints goes to standard error.
check() {
	name=$1; shift
	if "$@" >&2; then pass "$name"; else fail "$name"; fi
}

# expect STATUS NAME COMMAND...: runs COMMAND (stdout/stderr to $tmp/out,
# $tmp/err) and checks its exit status.
expect() {
	want=$1 name=$2; shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" -eq "$want" ]; then pass "$name"; else
		fail "$name (exit $got, wanted $want)"; sed 's/^/# /' "$tmp/err"; fi
}

# file_has FILE TEXT NAME: FILE contains TEXT (a fixed string).
file_has() {
	if grep -qF -- "$2" "$1"; then pass "$3"; else
		fail "$3: '$2' not in $(head -c 300 "$1")"; fi
}

# finish: prints the plan and the closing line, and exits with the right
# status.
finish() {
	echo "1..$((n_pass + n_fail + n_skip))"
	echo "# $n_pass passed, $n_fail failed, $n_skip skipped"
	[ "$n_fail" -eq 0 ]
	exit
}

# need_corpus: sets $corpus to the real-trace corpus folder, or skips the
# whole test when it is absent.
need_corpus() {
	corpus=${GANTTY_CORPUS:-$top_srcdir/../shared/corpus}
	[ -d "$corpus" ] || skip_all "no corpus at $corpus"
	corpus=$(cd "$corpus" && pwd)
}

# ---- time limits ---------------------------------------------------------
#
# No test waits a fixed number of seconds: limits are multiples of the time
# this $GANTTY takes for a reference job on this machine now, so that a
# slower build (ASan, valgrind behind $GANTTY) or a loaded machine gets
# longer limits by itself.

# calibrate: sets calib_s to the slowest of three runs of the reference job,
# the report of the bundled example without the cache, in seconds (at least
# a millisecond, so that limits are never 0).
calibrate() {
	calib_s=0.001
	for _ in 1 2 3; do
		t0=$(date +%s.%N)
		"$GANTTY" --report --no-cache "$top_srcdir/share/example.json.gz" \
		    >/dev/null 2>&1 || bail "$GANTTY cannot report the bundled example"
		calib_s=$(awk -v a="$t0" -v b="$(date +%s.%N)" -v m="$calib_s" \
		    'BEGIN { t = b - a; printf "%.3f", (t > m ? t : m) }')
	done
	echo "# calibration: the reference job takes $calib_s s"
}

# limit_s MULTIPLE: prints MULTIPLE times the calibration (calibrate first),
# in whole seconds, rounded up.
limit_s() {
	awk -v c="$calib_s" -v k="$1" \
	    'BEGIN { t = c * k; s = int(t); if (s < t) s++; print s }'
}
