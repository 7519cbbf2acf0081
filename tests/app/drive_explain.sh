#!/usr/bin/env bash
# Drives "Explain it back" in a real window as a student would (xdotool under Xvfb): first play
# Lesson 1 to its end (keys 1, ], Space, 4) so a fact from that run shows up; then click the
# answer box, type an answer, click Submit, check the ideas the app reports, and show the model
# answer. The answer holds a space, an "r" and a "1": typed into the box they must not run,
# reset or switch lessons. Saves a screenshot of the feedback.
# Usage (inside xvfb-run): drive_explain.sh path/to/math-to-metal OUTDIR [WxH]
set -euo pipefail
app=$1
out=${2:-$(mktemp -d)}
size=${3:-1280x720}
mkdir -p "$out"
log=$out/drive_explain_$size.log
XDG_CONFIG_HOME=$(mktemp -d)  # keep the tester's own settings out of it
export XDG_CONFIG_HOME
: >"$log"  # emptied first: the app's own redirect may come after the first look below
"$app" --lesson explain --size "$size" --log-state >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -rf "$XDG_CONFIG_HOME"' EXIT

fail() { echo "FAIL: $*"; echo "--- app log:"; tail -20 "$log"; exit 1; }
wait_for() {  # wait_for REGEX [seconds]: a new state line matching REGEX
    local deadline=$((SECONDS + ${2:-20}))
    until tail -n 3 "$log" | grep -Eq "$1"; do
        [ $SECONDS -lt $deadline ] || fail "no state line matching /$1/"
        sleep 0.1
    done
}
item() { grep "^$1 " "$log" | tail -1; }
click() {  # click ITEM: the middle of a noted item, then a frame's pause (one press per frame)
    read -r _ x0 y0 x1 y1 < <(item "$1")
    xdotool mousemove --window "$wid" $(((x0 + x1) / 2)) $(((y0 + y1) / 2)); sleep 0.2
    xdotool click 1; sleep 0.3
}

for _ in $(seq 100); do item submit_button >/dev/null && break; sleep 0.1; done
item submit_button >/dev/null || fail "the app never reported its controls"
wid=$(xdotool search --sync --name "Math to Metal" | head -1)
grep -q "lesson=explain chars=0 submitted=0" "$log" || fail "did not open on an empty answer"

# A Lesson 1 run played to its end at 32x becomes a fact in this lesson.
xdotool key --window "$wid" 1; wait_for "lesson=layers "
for _ in 1 2 3 4 5; do xdotool key --window "$wid" bracketright; sleep 0.1; done
xdotool key --window "$wid" space; wait_for "lesson=layers .*playing=1"
wait_for "lesson=layers .*playing=0 cursor=15 " 20
xdotool key --window "$wid" 4; wait_for "lesson=explain chars=0 submitted=0 .*facts=1"

answer="A matrix multiply is many dot products. A GPU runs them on thousands of small cores at once, while a CPU with 16 big cores goes mostly one after another."
layer_lines=$(grep -c 'lesson=layers' "$log")
click answer_box
xdotool type --delay 15 "$answer"
wait_for "lesson=explain chars=${#answer} submitted=0" 20
click submit_button
wait_for "lesson=explain chars=${#answer} submitted=1 changed=0 ideas=3/7 found=dot_products,gpu_many_cores,cpu_few_cores "
[ "$(grep -c 'lesson=layers' "$log")" = "$layer_lines" ] || fail "typing in the box switched lessons"
click model_answer_button
wait_for "ideas=3/7 .*model=1"
sleep 0.5
import -window root "$out/explain_feedback_$size.png"
echo "PASS: a Lesson 1 run became a fact; typed ${#answer} characters, Submit found 3 of 7 ideas, the model answer opened ($(grep -c '^state:' "$log") state lines)"
