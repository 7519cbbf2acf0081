#!/usr/bin/env bash
# Drives Lesson 1 in a real window as a person would (xdotool under Xvfb): drag the width
# slider, click Run, press Space, R and the period key, and checks the state the app reports.
# Usage (inside xvfb-run): drive_layers.sh path/to/math-to-metal OUTDIR [APP FLAGS...]
# e.g. --slow-frames 150: the same taps and typing must arrive when frames are slow.
set -euo pipefail
app=$1
out=${2:-$(mktemp -d)}
mkdir -p "$out"
log=$out/drive_layers${3:+_slow}.log
"$app" --lesson layers --size 1280x720 --log-state "${@:3}" >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT

source "$(dirname "$0")/lib.sh"

wait_item width_slider
wid=$(xdotool search --sync --name "Math to Metal" | head -1)
grep -q "widths=4,6,6,3 .*playing=0" "$log" || fail "did not start on the default network"

# Drag the width slider from its knob to near its right end, as a mouse would.
read -r _ x0 y0 x1 y1 < <(item width_slider)
y=$(((y0 + y1) / 2))
xdotool mousemove --window "$wid" $((x0 + (x1 - x0) / 5)) $y; sleep 0.2
xdotool mousedown 1; sleep 0.2
for f in 40 60 80 90; do xdotool mousemove --window "$wid" $((x0 + (x1 - x0) * f / 100)) $y; sleep 0.1; done
xdotool mouseup 1; sleep 0.3
wait_for "widths=4,[0-9]{3,4},[0-9]{3,4},3 "
grep -E "widths=4,[0-9]{3,4}," "$log" | tail -1 | grep -q "speedup=" || fail "no speedup after widening"

# Ctrl+click the slider and type a value far past its end, then one below it: both are clamped.
type_into width_slider 999999
wait_for "widths=4,4096,4096,3 "
type_into width_slider -25
wait_for "widths=4,1,1,3 "

# Click Run: the run starts.
read -r _ x0 y0 x1 y1 < <(item run_button)
xdotool mousemove --window "$wid" $(((x0 + x1) / 2)) $(((y0 + y1) / 2)); sleep 0.2
xdotool click 1; sleep 0.3
wait_for "playing=1"

# Space pauses, R resets to zero, '.' steps forward.
xdotool key --window "$wid" space; wait_for "playing=0"
xdotool key --window "$wid" r; wait_for "playing=0 cursor=0 "
xdotool key --window "$wid" period; wait_for "playing=0 cursor=[1-9]"
echo "PASS: drag, typed values clamped to 1..4096, Run, Space, R and . all reached the app ($(grep -c '^state:' "$log") state lines)"
