#!/usr/bin/env bash
# Clicks Measure in Lesson 1 as a person would (xdotool under Xvfb), checks that the window keeps
# reporting progress while the paths are timed, that the measurement finishes, and saves a picture.
# The window starts tall enough to show the whole controls column (at 1280x720 a person scrolls
# to the Measure button), and is shrunk to 1280x720 for the pictures.
# Usage (inside xvfb-run with a 1920x1600 screen): drive_measure.sh path/to/math-to-metal OUTDIR
set -euo pipefail
app=$1
out=${2:-$(mktemp -d)}
mkdir -p "$out"
log=$out/drive_measure.log
"$app" --size 1600x1400 --log-state --widths 32,128,128,128,10 >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT

fail() { echo "FAIL: $*"; echo "--- app log:"; tail -20 "$log"; exit 1; }
wait_for() {  # wait_for REGEX [seconds]: a state line matching REGEX
    local deadline=$((SECONDS + ${2:-10}))
    until grep -Eq "$1" "$log"; do
        [ $SECONDS -lt $deadline ] || fail "no state line matching /$1/"
        sleep 0.1
    done
}
item() { grep "^$1 " "$log" | tail -1; }

for _ in $(seq 100); do item measure_button >/dev/null && break; sleep 0.1; done
item measure_button >/dev/null || fail "the app never reported the Measure button"
wid=$(xdotool search --sync --name "Math to Metal" | head -1)
grep -q "measure=idle" "$log" || fail "the measurement did not start idle"

read -r _ x0 y0 x1 y1 < <(item measure_button)
xdotool mousemove --window "$wid" $(((x0 + x1) / 2)) $(((y0 + y1) / 2)); sleep 0.2
xdotool click 1
wait_for "measure=(calibrating|reference|naive|blas|gpu)" 10
wait_for "measure=done" 60
# The window kept drawing: several progress values were reported while it measured.
progress=$(grep -Eo "progress=[0-9.]+" "$log" | sort -u | wc -l)
[ "$progress" -ge 3 ] || fail "only $progress progress values while measuring"
sleep 0.5
shoot() {  # shoot NAME: the window at its size now and at 1280x720, then back
    import -window "$wid" "$out/${1}_1600x1400.png" 2>/dev/null || true
    xdotool windowsize "$wid" 1280 720; sleep 1
    import -window "$wid" "$out/${1}_1280x720.png" 2>/dev/null || true
    xdotool windowsize "$wid" 1600 1400; sleep 1
}
shoot measure

# Sweep the width: every doubling from 16 to 128 is measured and plotted.
read -r _ x0 y0 x1 y1 < <(item sweep_button)
xdotool mousemove --window "$wid" $(((x0 + x1) / 2)) $(((y0 + y1) / 2)); sleep 0.2
xdotool click 1
wait_for "measure=done points=4" 90
sleep 0.5
shoot sweep
echo "PASS: Measure and a sweep of 4 widths ran to the end with $progress progress updates ($(grep -c '^state:' "$log") state lines)"
