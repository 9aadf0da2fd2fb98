# Shared by the tmux tests (sourced after lib.sh): the real viewer in a
# private, fixed-size tmux server (as tmux's own regress/ tests do): keys in
# with send-keys, the screen out with capture-pane.  Every wait polls the
# screen for what it expects, up to 300 times the calibration (lib.sh).
# A test sets hint_text and title_text (what every frame shows) before
# start.
command -v tmux >/dev/null 2>&1 || skip_all "tmux is not installed"
calibrate
polls=$(($(limit_s 300) * 10))
echo "# each wait polls the screen up to $polls times, every 0.1 s"

example=$top_srcdir/share/example.json.gz
sock=$tmp/tmux   # a private server, its socket removed with $tmp
trap 'tmux -S "$sock" kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
T() { tmux -S "$sock" -f /dev/null "$@"; }

# run.sh [ARGS...]: runs gantty in the pane's shell with TERM=$VT
# (xterm-256color), its pid in $tmp/pid; the shell then prints its status.
cat >"$tmp/run.sh" <<EOT
echo \$\$ >'$tmp/pid'
ulimit -c 0
[ -z "\${IGNORE_HUP:-}" ] || trap '' HUP
TERM=\${VT:-xterm-256color}; export TERM
exec '$GANTTY' "\$@"
EOT

# poll COMMAND...: retries COMMAND every 0.1 s, up to $polls times.
poll() {
	i=0
	while [ "$i" -lt "$polls" ]; do
		"$@" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	"$@"
}
# shows WIN TEXT: the screen of window WIN holds TEXT (fixed string).
shows() {
	T capture-pane -p -t "$1" >"$tmp/screen" 2>/dev/null &&
	    grep -qF -- "$2" "$tmp/screen"
}
# line WIN N: prints line N (1-based) of WIN's screen.
line() {
	T capture-pane -p -t "$1" | sed -n "$2p"
}
line_differs() {
	[ "$(line "$1" "$2")" != "$3" ]
}
# wait_for WIN TEXT NAME: passes when TEXT shows up in time.
wait_for() {
	if poll shows "$1" "$2"; then pass "$3"; else
		fail "$3: '$2' not on screen"; sed 's/^/# /' "$tmp/screen"; fi
}
# flag WIN FORMAT: prints a pane format, e.g. #{alternate_on}.
flag() {
	T display-message -p -t "$1" "$2"
}
gone() {
	! kill -0 "$(cat "$tmp/pid")" 2>/dev/null
}
# normal WIN: the normal screen, the cursor shown, no mouse reporting.
normal() {
	[ "$(flag "$1" '#{alternate_on}#{cursor_flag}#{mouse_any_flag}')" = 010 ]
}
# restored WIN NAME: the viewer is gone and the terminal is as before it:
# the normal screen, the cursor shown, no mouse reporting, the prompt back.
restored() {
	if poll gone; then pass "$2: the process is gone"; else
		fail "$2: the process is still running"; fi
	# tmux may read the last bytes from the pane after the process is gone
	if poll normal "$1"; then pass "$2: the terminal is restored"; else
		fail "$2: the terminal is not restored (alternate screen, cursor, mouse: $(flag "$1" '#{alternate_on} #{cursor_flag} #{mouse_any_flag}'))"
	fi
}
# start WIN [COLSxLINES] [ENV=VALUE...] -- [ARGS...]: a fresh shell window
# WIN of that size (120x40 if not given), then gantty ARGS (default: the
# bundled example) in it; waits for the first frame.  A test that wants
# another size names it here rather than resizing the running viewer, whose
# SIGWINCH a loaded machine may deliver only after the next key.
start() {
	win=$1; shift
	wx=120 wy=40
	case ${1:-} in
	[0-9]*x[0-9]*) wx=${1%x*} wy=${1#*x}; shift ;;
	esac
	env=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do env="$env $1"; shift; done
	[ $# -gt 0 ] && shift
	[ $# -eq 0 ] && set -- "'$example'"
	rm -f "$tmp/pid"
	T new-window -d -n "$win" "env PS1='gantty-test\$ ' ENV= sh"
	T resize-window -t "$win" -x "$wx" -y "$wy"
	poll shows "$win" 'gantty-test$' || fail "$win: no shell prompt"
	T send-keys -t "$win" "$env sh '$tmp/run.sh' $*; echo status=\$?" Enter
	# the hint line is drawn last: once it shows, the whole frame does
	wait_for "$win" "$hint_text" "$win: the viewer starts"
	check "$win: the title line" grep -qF "$title_text" "$tmp/screen"
}
# send WIN KEYS...: send-keys, each argument a key name.
send() {
	w=$1; shift
	T send-keys -t "$w" "$@"
}
# mouse WIN BUTTON X Y: an SGR (1006) mouse press and release at the 0-based
# cell (X, Y), what xterm sends; BUTTON 0 is the left button, 64/65 the wheel.
# drag WIN X1 Y X2: button 1 pressed at the 0-based cell (X1, Y) and
# released at (X2, Y), as xterm sends a drag (SGR 1006).
drag() {
	T send-keys -t "$1" -l "$(printf '\033[<0;%d;%dM' $(($2 + 1)) $(($3 + 1)))"
	T send-keys -t "$1" -l "$(printf '\033[<0;%d;%dm' $(($4 + 1)) $(($3 + 1)))"
}
mouse() {
	T send-keys -t "$1" -l "$(printf '\033[<%d;%d;%dM' "$2" $(($3 + 1)) $(($4 + 1)))"
	[ "$2" -ge 64 ] ||
	    T send-keys -t "$1" -l "$(printf '\033[<%d;%d;%dm' "$2" $(($3 + 1)) $(($4 + 1)))"
}
