#!/usr/bin/env bash
# Under software GL the app draws only what changed since the last frame (src/app/damage.hpp). A
# person hovers a GPU (a tooltip opens and closes), opens and closes the File menu and plays a
# send to its end in Lesson 2; then the screen, as those partial frames left it, must equal the
# same screen drawn whole (after a zoom in and out, which redraws everything): no stale pixels.
# Then the same for a training step played to its end in Lesson 3 at 1.5x, where clip rectangles
# fall between pixels (a damaged rectangle once drew a row its whole frame did not).
# Both come from the app's own screenshot (Ctrl+E), the frame on screen; the menu bar, where the
# notice of the first screenshot shows, is left out of the comparison.
# Usage (inside xvfb-run): drive_damage.sh path/to/math-to-metal OUTDIR
set -euo pipefail
app=$(realpath "$1")
out=$(realpath -m "${2:-$(mktemp -d)}")/damage
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
rm -f "$out"/math-to-metal-*.png
log=$out/drive_damage.log
(cd "$out" && exec "$app" --lesson rack --size 1280x720 --log-state) >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
source "$here/lib.sh"

wait_item send_button
wid=$(xdotool search --sync --name "Math to Metal" | head -1)
move_to() { xdotool mousemove --window "$wid" "$1" "$2"; sleep 0.4; }
centre() { read -r _ x0 y0 x1 y1 < <(item "$1") || fail "the app never reported $1"; move_to $(((x0 + x1) / 2)) $(((y0 + y1) / 2)); }

centre gpu_3                         # a tooltip over the rack
move_to 1270 700                     # and away
move_to 25 10; xdotool click 1; sleep 0.5   # the File menu opens
move_to 1270 700; xdotool click 1; sleep 0.5  # a click elsewhere closes it
centre send_button; xdotool click 1
wait_for "playing=1"
move_to 1270 700
wait_for "playing=0" 30
sleep 0.5

shot() {  # shot: Ctrl+E, then the path the app saved
    local before
    before=$(grep -c '^notice: saved ' "$log" || true)
    xdotool key --window "$wid" ctrl+e
    for _ in $(seq 50); do [ "$(grep -c '^notice: saved ' "$log" || true)" -gt "$before" ] && break; sleep 0.1; done
    grep '^notice: saved ' "$log" | tail -1 | sed 's/^notice: saved //'
}
same_drawn_whole() {  # same_drawn_whole ROW WHAT: the screen now equals it drawn whole, from ROW down
    local partial whole differ
    partial=$(shot)
    sleep 1.1  # the next file gets its own timestamp
    key ctrl+equal
    sleep 0.5
    key ctrl+minus
    sleep 0.8
    whole=$(shot)
    [ -f "$out/$partial" ] && [ -f "$out/$whole" ] && [ "$partial" != "$whole" ] || fail "screenshots missing: '$partial', '$whole'"
    differ=$(/usr/bin/python3 "$here/png_diff.py" "$out/$partial" "$out/$whole" "$1") || fail "could not compare the screenshots"
    [ "$differ" -eq 0 ] || fail "$2: the screen drawn in parts differs from the same screen drawn whole in $differ pixels ($out/$partial, $out/$whole)"
}
same_drawn_whole 40 "Lesson 2 after a send"

# Lesson 3 at 1.5x: a training step played to its end.
kill $pid 2>/dev/null || true
wait $pid 2>/dev/null || true
rm -f "$out"/math-to-metal-*.png
(cd "$out" && exec "$app" --lesson split --size 1280x720 --scale 1.5 --log-state) >"$log" 2>&1 &
pid=$!
wait_item run_button
wid=$(xdotool search --sync --name "Math to Metal" | head -1)
move_to 1270 700
key space
wait_for "playing=1"
wait_for "playing=0" 30
sleep 0.5
same_drawn_whole 70 "Lesson 3 at 1.5x after a step"
echo "PASS: after a tooltip, the File menu and a send played to its end, and after a training step at 1.5x, the screen drawn in parts equals it drawn whole"
