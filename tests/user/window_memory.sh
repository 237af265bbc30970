#!/usr/bin/env bash
# The window's memory as a user meets it, measured from outside the process so that any
# build can be measured the same way (a figure, not a test: nothing fails on the size).
# Under Xvfb at 1920x1080 with a fresh home folder and workspace: open fat-tree-1024.json,
# run the run panel's default policies (k8s-default and dltap, simulated, decision logs
# kept: Ctrl+Shift+R), wait until both are stored, step through the shown run, then read
# the process's peak and current resident set (VmHWM, VmRSS in /proc/PID/status) and the
# workspace's growth for the second stored run.
#
# Usage: window_memory.sh CLUSTERBENCH [SCENARIO]     (about two minutes on two cores)
set -u

app=${1:?usage: window_memory.sh CLUSTERBENCH [SCENARIO]}
here=$(cd "$(dirname "$0")" && pwd)
scenario=${2:-$here/../../sample-clusters/fat-tree-1024.json}
for tool in Xvfb xdotool python3; do
    command -v "$tool" >/dev/null 2>&1 || { echo "window_memory: $tool is not installed"; exit 77; }
done

work=$(mktemp -d)
export HOME=$work/home XDG_RUNTIME_DIR=$work/run XDG_CONFIG_HOME=$work/home/.config
export CLUSTERBENCH_WORKSPACE=$work/workspace.sqlite
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
unset QT_QPA_PLATFORM WAYLAND_DISPLAY
display=""
for n in $(seq 141 190); do
    if [ ! -e "/tmp/.X$n-lock" ] && [ ! -e "/tmp/.X11-unix/X$n" ]; then display=":$n"; break; fi
done
[ -n "$display" ] || { echo "window_memory: no free X display"; exit 1; }
export DISPLAY=$display
xvfb_pid="" app_pid=""
cleanup() {
    [ -n "$app_pid" ] && kill "$app_pid" 2>/dev/null
    [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null
    wait 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
wait_for() {
    local seconds=$1; shift
    for _ in $(seq 1 $((seconds * 4))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.25; done
    return 1
}
# Runs stored, and the workspace's size with its write-ahead log folded in.
workspace() {
    python3 - "$CLUSTERBENCH_WORKSPACE" <<'PY'
import os, sqlite3, sys
db = sqlite3.connect(sys.argv[1], timeout=30)
n = db.execute("select count(*) from runs").fetchone()[0]
db.execute("pragma wal_checkpoint(TRUNCATE)")
db.close()
print(n, os.path.getsize(sys.argv[1]))
PY
}
kb() { awk -v f="$1:" '$1 == f {print $2}' "/proc/$app_pid/status"; }

Xvfb "$display" -screen 0 1920x1080x24 -nolisten tcp >/dev/null 2>&1 &
xvfb_pid=$!
wait_for 10 xdotool getdisplaygeometry || { echo "window_memory: Xvfb did not start"; exit 1; }

start=$(date +%s)
"$app" "$scenario" >"$work/app.log" 2>&1 &
app_pid=$!
wait_for 60 xdotool search --onlyvisible --name "$(basename "$scenario")" ||
    { echo "window_memory: the window did not open"; exit 1; }
window=$(xdotool search --onlyvisible --name "$(basename "$scenario")" | head -1)
xdotool windowfocus --sync "$window"
sleep 2
opened=$(kb VmRSS)
xdotool key --clearmodifiers ctrl+shift+r
first="" second=""
for _ in $(seq 1 1200); do
    read -r runs size < <(workspace 2>/dev/null || echo "0 0")
    [ "$runs" -ge 1 ] && [ -z "$first" ] && first=$size
    [ "$runs" -ge 2 ] && { second=$size; break; }
    sleep 0.5
done
[ -n "$second" ] || { echo "window_memory: two runs were not stored"; exit 1; }
sleep 3
# The user looks at the run: a few steps in the stepper.
xdotool mousemove --window "$window" 960 300 click 1
for _ in 1 2 3 4 5; do xdotool key --clearmodifiers n; sleep 0.2; done
sleep 2
echo "window_memory: $(basename "$scenario"), two simulated runs in $(($(date +%s) - start)) s"
echo "window_memory: resident $((opened / 1024)) MB with the scenario open," \
     "$(($(kb VmRSS) / 1024)) MB after two runs; peak $(($(kb VmHWM) / 1024)) MB"
echo "window_memory: workspace $first bytes after the first run, $second after the second:" \
     "$((second - first)) bytes for the second stored run"
