#!/usr/bin/env bash
# The layout rule from the keyboard (xdotool under Xvfb), at a projector's 1024x768 in the
# projector theme at 1.5x: C folds the control panel and H enters presenter view, and each time
# the lesson's scene (the app's "scene X0 Y0 X1 Y1" line) grows; presenter view drops the menu
# bar and the tabs and shows how to leave it. Screenshots before and after, for a person to look at.
# Usage (inside xvfb-run): drive_presenter.sh path/to/math-to-metal OUTDIR [lesson]
set -euo pipefail
app=$1
out=$2
lesson=${3:-layers}
mkdir -p "$out"
log=$out/presenter_$lesson.log
XDG_CONFIG_HOME=$(mktemp -d)
export XDG_CONFIG_HOME
"$app" --size 1024x768 --theme projector --scale 1.5 --log-state --lesson "$lesson" >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
source "$(dirname "$0")/lib.sh"
shot() { import -window "$wid" "$out/presenter_${lesson}_$1.png"; }
wid=$(xdotool search --sync --name "Math to Metal" | head -1)
wait_for "at=$lesson .*controls=open"
wait_item scene
area() { item scene | awk '{print ($4 - $2) * ($5 - $3)}'; }
# wait_grown AREA: wait up to 10 s for the scene to be larger than AREA, and print its area
wait_grown() {
    for _ in $(seq 100); do
        local a
        a=$(area)
        if [ "$a" -gt "$1" ]; then echo "$a"; return; fi
        sleep 0.1
    done
    fail "the scene did not grow past $1 px² (now: $(item scene))"
}
sleep 0.5
before=$(area)
shot 1-controls-open
grep -q '^home_tab ' "$log" || fail "the lesson tabs were not drawn before presenter view"

key c
wait_for "controls=folded"
folded=$(wait_grown "$before")
wait_item controls_expand
shot 2-controls-folded

key h
wait_for "presenter=1"
presenter=$(wait_grown "$folded")
wait_item presenter_hint
sleep 0.5
# The newest block of noted controls (the lines after the last state line but one, read from
# the end) is presenter view's: no lesson tab, no view tab, no control panel.
last_block=$(tac "$log" | awk '/^state:/{if (seen) exit; next} {seen=1; print}')
grep -q '^presenter_hint ' <<<"$last_block" || fail "the newest noted block is not presenter view's"
if grep -Eq '^(home_tab|tab_layer_by_layer|tab_toy_network|controls|controls_expand|run_button) ' <<<"$last_block"; then
    fail "presenter view still draws tabs or controls: $(grep -E '^(home_tab|tab_|controls|run_button)' <<<"$last_block" | tr '\n' ';')"
fi
shot 3-presenter
# Presenter view keeps the question in the room: the guess (and in Lesson 3 the split) sit in a
# strip above the scene, so the teacher takes the class's answer without leaving the view.
click() {
    local x0 y0 x1 y1
    wait_item "$1"
    read -r _ x0 y0 x1 y1 < <(item "$1")
    xdotool mousemove --window "$wid" $(((x0 + x1) / 2)) $(((y0 + y1) / 2)); sleep 0.2
    xdotool click 1; sleep 0.3
}
case $lesson in
layers)
    click strip_guess
    xdotool type --delay 80 "5"; sleep 0.2
    key Return
    wait_for "guess=5 .*presenter=1"
    wait_for "shown_speedup=\\?" ;;
rack)
    click guess_infiniband
    wait_for "guess=infiniband/0 revealed=0" ;;
split)
    click strategy_tensor
    wait_for "strategy=tensor "
    click split_predict_open
    click guess_pipeline
    wait_for "strategy=tensor .*guess=pipeline revealed=0 exchange_shown=0" ;;
esac
shot 4-presenter-guess
total=$((1024 * 768))
echo "scene: $before px² with the controls open, $folded folded, $presenter in presenter view ($((100 * presenter / total))% of the window)"
[ $((100 * presenter / total)) -ge 75 ] || fail "presenter view's scene covers under 75% of the window"

# Back out the way we came: H, then C, and the scene is as it was.
key h
wait_for "presenter=0"
key c
wait_for "controls=open"
echo "OK: C folds the controls and H enters presenter view; the scene grew each time"
