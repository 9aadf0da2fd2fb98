# Shared helpers for the shell tests (sourced).  Each test runs with
# top_srcdir, top_builddir, GANTTY, GEN_TRACE and PYTHON3 exported by make.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
: "${GANTTY:=$top_builddir/gantty}"
: "${GEN_TRACE:=$top_builddir/tools/gen-trace}"
: "${PYTHON3:=$(command -v python3 || true)}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gantty-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
# Every run of gantty in a test caches into this private directory, never
# the user's, so no test sees a cache left by another or by a previous run.
XDG_CACHE_HOME=$tmp/cache; export XDG_CACHE_HOME

n_pass=0
n_fail=0

pass() { n_pass=$((n_pass + 1)); echo "ok - $1"; }
fail() { n_fail=$((n_fail + 1)); echo "not ok - $1"; }

# check NAME COMMAND...: passes when the command succeeds.
check() {
	name=$1; shift
	if "$@"; then pass "$name"; else fail "$name"; fi
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

# finish: prints the closing line and exits with the right status.
finish() {
	echo "$n_pass passed, $n_fail failed"
	[ "$n_fail" -eq 0 ]
}

# need_corpus: sets $corpus to the real-trace corpus folder, or exits 77
# (skip) when it is absent.
need_corpus() {
	corpus=${GANTTY_CORPUS:-$top_srcdir/../shared/corpus}
	if [ ! -d "$corpus" ]; then
		echo "skip: no corpus at $corpus" >&2
		exit 77
	fi
	corpus=$(cd "$corpus" && pwd)
}
