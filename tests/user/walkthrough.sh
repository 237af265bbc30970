#!/usr/bin/env bash
# A user's walk through the window, driven by xdotool under Xvfb at 1366x768 with a fresh
# home folder: the three uses end to end. Planning: open a sample, run two policies (the run
# panel's defaults, k8s-default and dltap), compare them. Teaching: step forward and back
# through the decisions with the keys (n, p, space). Exporting: write the shown run's
# manifests with the export dialog's defaults. What it checks from outside the window: the
# window opens on the scenario, two runs land in the workspace, the stepping keys change
# what the window shows, the export writes its files where the dialog said and the dialog's
# choices are remembered, and the window quits cleanly. Screenshots of each step go to
# OUT_DIR (second argument).
#
# Usage: walkthrough.sh CLUSTERBENCH OUT_DIR [SAMPLE]
# Exit codes: 0 passed, 1 failed, 77 skipped (no Xvfb, xdotool or ImageMagick's import).
set -u

app=${1:?usage: walkthrough.sh CLUSTERBENCH OUT_DIR [SAMPLE]}
out=${2:?usage: walkthrough.sh CLUSTERBENCH OUT_DIR [SAMPLE]}
here=$(cd "$(dirname "$0")" && pwd)
sample=${3:-$here/../../sample-clusters/dltap-testbed.json}

for tool in Xvfb xdotool import python3; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "walkthrough: $tool is not installed (.ci/setup-deps installs it); skipped"
        exit 77
    fi
done

mkdir -p "$out"
work=$(mktemp -d)
export HOME=$work/home XDG_RUNTIME_DIR=$work/run XDG_CONFIG_HOME=$work/home/.config
export XDG_DATA_HOME=$work/home/.local/share
export CLUSTERBENCH_WORKSPACE=$work/workspace.sqlite
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
unset QT_QPA_PLATFORM WAYLAND_DISPLAY

# A free display number.
display=""
for n in $(seq 91 140); do
    if [ ! -e "/tmp/.X$n-lock" ] && [ ! -e "/tmp/.X11-unix/X$n" ]; then display=":$n"; break; fi
done
[ -n "$display" ] || { echo "walkthrough: no free X display"; exit 1; }
export DISPLAY=$display

xvfb_pid="" app_pid=""
cleanup() {
    [ -n "$app_pid" ] && kill "$app_pid" 2>/dev/null
    [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null
    wait 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

fail() { echo "walkthrough: FAILED: $*"; shot "failure"; exit 1; }
step() { echo "walkthrough: $*"; }
shot() { import -window root "$out/walkthrough-$1.png" 2>/dev/null; }
# Waits up to $1 seconds for the command in the remaining arguments to succeed.
wait_for() {
    local seconds=$1; shift
    for _ in $(seq 1 $((seconds * 4))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.25; done
    return 1
}
runs_stored() {
    python3 - "$CLUSTERBENCH_WORKSPACE" "$1" <<'PY'
import sqlite3, sys
try:
    n = sqlite3.connect(sys.argv[1]).execute("select count(*) from runs").fetchone()[0]
except Exception:
    sys.exit(1)
sys.exit(0 if n >= int(sys.argv[2]) else 1)
PY
}
same_png() { cmp -s "$1" "$2"; }
# Keys go to the focused window (XTEST, as a keyboard would type them).
key() { xdotool key --clearmodifiers "$@"; sleep 0.4; }

Xvfb "$display" -screen 0 1366x768x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
xvfb_pid=$!
wait_for 10 xdotool getdisplaygeometry || fail "Xvfb did not start"

step "open $(basename "$sample")"
"$app" "$sample" >"$work/app.log" 2>&1 &
app_pid=$!
wait_for 30 xdotool search --onlyvisible --name "$(basename "$sample")" ||
    fail "no window named after $(basename "$sample") (log: $(tail -3 "$work/app.log"))"
window=$(xdotool search --onlyvisible --name "$(basename "$sample")" | head -1)
xdotool windowfocus --sync "$window"
read -r width height < <(xdotool getwindowgeometry --shell "$window" |
                         awk -F= '/WIDTH/{w=$2} /HEIGHT/{h=$2} END{print w, h}')
[ "$width" -le 1366 ] && [ "$height" -le 768 ] ||
    fail "the window is ${width}x${height} on a 1366x768 screen"
sleep 1
shot "1-open"

step "run two policies (Run > Run Selected Policies, Ctrl+Shift+R)"
key ctrl+shift+r
wait_for 90 runs_stored 2 || fail "two runs were not stored in the workspace"
sleep 2
shot "2-runs"

step "compare (Run > Compare Selected Runs)"
key alt+r
key o
sleep 1
shot "3-compare"

step "step forward and back with n, p and space"
# The keys act where the decisions are shown: focus the topology view in the middle.
xdotool windowfocus --sync "$window"
xdotool mousemove --window "$window" $((width / 2)) $((height / 3)) click 1
sleep 0.5
shot "4-before-stepping"
key n; key n; key n
shot "5-three-forward"
same_png "$out/walkthrough-4-before-stepping.png" "$out/walkthrough-5-three-forward.png" &&
    fail "n did not move the stepper (the window looks the same)"
key p; key p
shot "6-two-back"
same_png "$out/walkthrough-5-three-forward.png" "$out/walkthrough-6-two-back.png" &&
    fail "p did not move the stepper back"
key space; sleep 1.5; key space
shot "7-played"

step "export the shown run (File > Export Placement, Ctrl+E, Write Files)"
key ctrl+e
wait_for 10 xdotool search --onlyvisible --name "Export Placement" || fail "no export dialog"
sleep 1
shot "8-export-dialog"
dialog=$(xdotool search --onlyvisible --name "Export Placement" | head -1)
xdotool windowfocus --sync "$dialog"
key Return
folder="$HOME/clusterbench-export/$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["name"])' "$sample")"
wait_for 10 test -n "$(ls -A "$folder" 2>/dev/null)" || fail "nothing written to $folder"
files=$(ls "$folder" | wc -l)
step "  wrote $files file(s) to $folder"
sleep 1
shot "9-exported"
# (QSettings quotes a value holding a comma, so look for the folder itself.)
grep -A20 '^\[export\]' "$XDG_CONFIG_HOME/ClusterBench/clusterbench.conf" 2>/dev/null |
    grep '^folder=' | grep -qF -- "$folder" || fail "the export folder was not remembered"

step "quit (Ctrl+Q)"
xdotool windowfocus --sync "$window"
key ctrl+q
wait_for 15 bash -c "! kill -0 $app_pid" || fail "the window did not quit"
wait "$app_pid"; status=$?
app_pid=""
[ "$status" -eq 0 ] || fail "the window exited with $status"
step "passed"
exit 0
