#!/usr/bin/env bash
# Drives Lesson 3 in a real window as a person would (xdotool under Xvfb): click the tensor
# strategy, start the step with Space, let it play to the end, then pick and type prompts, and
# check the state lines the app reports.
# Usage (inside xvfb-run): drive_split.sh path/to/math-to-metal OUTDIR
set -euo pipefail
app=$1
out=${2:-$(mktemp -d)}
mkdir -p "$out"
log=$out/drive_split.log
"$app" --lesson split --size 1280x720 --log-state >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT

fail() { echo "FAIL: $*"; echo "--- app log:"; tail -20 "$log"; exit 1; }
wait_for() {  # wait_for REGEX [seconds]: a new state line matching REGEX
    local deadline=$((SECONDS + ${2:-20}))
    until tail -n 3 "$log" | grep -Eq "$1"; do
        [ $SECONDS -lt $deadline ] || fail "no state line matching /$1/"
        sleep 0.1
    done
}
item() { grep "^$1 " "$log" | tail -1; }
press() {  # press KEY...: held for a few frames (ImGui 1.86 misses a key pressed and released within one frame)
    for k in "$@"; do xdotool keydown --window "$wid" "$k"; done; sleep 0.25
    for k in "$@"; do xdotool keyup --window "$wid" "$k"; done; sleep 0.15
}
click() {  # click ITEM: the middle of a noted item, then a pause so the app sees one press per frame
    local _n x0 y0 x1 y1
    read -r _n x0 y0 x1 y1 < <(item "$1") || fail "no item $1"
    xdotool mousemove --window "$wid" $(((x0 + x1) / 2)) $(((y0 + y1) / 2)); sleep 0.2
    xdotool click 1; sleep 0.3
}

for _ in $(seq 150); do item strategy_tensor >/dev/null && break; sleep 0.1; done
item strategy_tensor >/dev/null || fail "the app never reported its controls"
wid=$(xdotool search --sync --name "Math to Metal" | head -1)
grep -q "strategy=data gpus=2 .*playing=0" "$log" || fail "did not start on two data-parallel GPUs"

# Click the tensor strategy: the panel asks the core again.
click strategy_tensor
wait_for "strategy=tensor gpus=2 "

# Space starts the step; ] speeds it up; it plays to the end and stops.
press space
wait_for "strategy=tensor .*playing=1 finished=0"
for _ in 1 2 3; do press bracketright; done
wait_for "strategy=tensor .*playing=0 finished=1" 20

# Two nodes: the same step, now slower (its exchanges cross InfiniBand).
fast=$(grep -o "step_time=[0-9.e-]*" "$log" | tail -1 | cut -d= -f2)
click placement_nodes
wait_for "placement=nodes"
slow=$(tail -n 1 "$log" | grep -o "step_time=[0-9.e-]*" | cut -d= -f2)
awk -v a="$fast" -v b="$slow" 'BEGIN { exit !(b > a) }' || fail "two nodes ($slow s) not slower than one ($fast s)"

# A picked prompt, then a typed one.
click prompt_pick_1
wait_for "word=(tree|sky|pond|park)"
click prompt_input
press ctrl a
xdotool type --window "$wid" --delay 30 "the cat sat on the"; sleep 0.3
wait_for "word=mat"

# The micro-batch slider moves along the counts that split the prompts evenly; Ctrl+click types a
# count (ImGui's own box would have taken the slider's index): 5 goes to the nearest that splits the
# 48 prompts, 1000 to the largest, and words are said and change nothing.
click strategy_pipeline
wait_for "strategy=pipeline "
type_slider() {  # type_slider ITEM TEXT: Ctrl+click the slider, type, Enter
    local _n x0 y0 x1 y1
    read -r _n x0 y0 x1 y1 < <(item "$1") || fail "no item $1"
    xdotool mousemove --window "$wid" $(((x0 + x1) / 2)) $(((y0 + y1) / 2)); sleep 0.2
    xdotool keydown ctrl click 1 keyup ctrl; sleep 0.3
    press ctrl a
    xdotool type --window "$wid" --delay 60 -- "$2"; sleep 0.1
    press Return
}
type_slider micro_batches 6
wait_for "strategy=pipeline .*micro_batches=6 "
type_slider micro_batches 5
wait_for "strategy=pipeline .*micro_batches=4 "
# The app prints its noted controls once they hold still for a frame, after the state line.
for _ in $(seq 100); do item micro_batches_moved >/dev/null && break; sleep 0.1; done
item micro_batches_moved >/dev/null || fail "a count the prompts do not split went to 4 without a word"
type_slider micro_batches 1000
wait_for "strategy=pipeline .*micro_batches=48 "
type_slider micro_batches lots
sleep 0.5
grep "^state:" "$log" | tail -1 | grep -q "micro_batches=48 " || fail "words that are no count changed the micro-batches"
for _ in $(seq 100); do item micro_batches_refusal >/dev/null && break; sleep 0.1; done
item micro_batches_refusal >/dev/null || fail "words that are no count were not said"
# Another strategy is another set of counts: the note about the last one goes.
click strategy_data
wait_for "strategy=data "
# The app prints its noted controls whole, before a state line, when they change: the last list
# printed must come to hold no note (within 10 s: a sanitizer build is slow).
last_list() { awk '/^state:/ { if (list ~ /strategy_data /) last = list; list = ""; next } { list = list $0 "\n" } END { printf "%s", last }' "$log"; }
for _ in $(seq 100); do grep -q '^micro_batches_refusal ' <<<"$(last_list)" || break; sleep 0.1; done
! grep -q '^micro_batches_refusal ' <<<"$(last_list)" || fail "the micro-batch note stayed after the strategy changed"
echo "PASS: tensor strategy, Space, playback to the end, two nodes, prompts and typed micro-batch counts all reached the app ($(grep -c '^state:' "$log") state lines)"
