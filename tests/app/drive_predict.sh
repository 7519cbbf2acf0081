#!/usr/bin/env bash
# Predict, then reveal, in a real window (xdotool under Xvfb). Lesson 2: pick a GPU in another
# node, open "Predict first?", guess InfiniBand and 5x, Send, see the guess set against the send,
# and see a click on the other wire leave the guess as it was. Lesson 3: open "Predict first?", guess tensor parallel, flip to pipeline (its bytes and
# exchanging time stay hidden), Run the step, and see every strategy's bytes. A screenshot of each reveal is saved to look at.
# Usage (inside xvfb-run): drive_predict.sh path/to/math-to-metal OUTDIR [WxH] [scale]
set -euo pipefail
app=$1
out=${2:-$(mktemp -d)}
size=${3:-1280x720}
scale=${4:-1}
mkdir -p "$out"
log=$out/drive_predict_${size}_$scale.log
XDG_CONFIG_HOME=$(mktemp -d)
export XDG_CONFIG_HOME
"$app" --lesson rack --size "$size" --scale "$scale" --log-state >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -rf "$XDG_CONFIG_HOME"' EXIT
source "$(dirname "$0")/lib.sh"  # fail, wait_for, item, wait_item, key
height=${size#*x}
into_view() {  # into_view ITEM: wheel the pane under it until it sits in the middle half of what the pane shows
    local x0 y0 x1 y1 c last= top=0 bottom=$height sx0 sy0 sx1 sy1
    wait_item "$1"
    for _ in $(seq 30); do
        read -r _ x0 y0 x1 y1 < <(item "$1")
        c=$(((y0 + y1) / 2))
        # The control pane's playback buttons, pinned at its foot on a short screen, cover what
        # scrolls under them: there the pane shows its controls above them only.
        if item controls_scroll >/dev/null && read -r _ sx0 sy0 sx1 sy1 < <(item controls_scroll) &&
            [ $(((x0 + x1) / 2)) -ge "$sx0" ] && [ $(((x0 + x1) / 2)) -le "$sx1" ]; then
            top=$sy0; bottom=$sy1
        fi
        [ "$c" -ge $((top + (bottom - top) / 4)) ] && [ "$c" -le $((top + (bottom - top) * 3 / 4)) ] && return
        [ "$c" = "$last" ] && [ "$y0" -ge "$top" ] && [ "$y1" -le "$bottom" ] && return  # the pane cannot scroll further
        last=$c
        xdotool mousemove --window "$wid" $(((x0 + x1) / 2)) $((height / 2)); sleep 0.1
        if [ "$c" -lt $((top + (bottom - top) / 4)) ]; then xdotool click 4; else xdotool click 5; fi  # wheel up, down
        sleep 0.4
    done
    fail "$1 stayed out of view"
}
click() {  # click ITEM: the middle of a noted item, scrolled into view, then wait a frame or two
    local x0 y0 x1 y1
    into_view "$1"
    read -r _ x0 y0 x1 y1 < <(item "$1")
    xdotool mousemove --window "$wid" $(((x0 + x1) / 2)) $(((y0 + y1) / 2)); sleep 0.2
    xdotool click 1; sleep 0.3
}
shot() { xdotool mousemove --window "$wid" 1 1; sleep 0.4; import -window "$wid" "$out/predict_${size}_scale${scale}_$1.png"; }
wid=$(xdotool search --sync --pid "$pid" --name "Math to Metal" | head -1)
click intro_close  # "Got it": the lesson's opening words make room for the scene, as a teacher would

# Lesson 2: a receiver in the next node, then the guess.
wait_for "^state: at=rack .*link=nvlink .*playing=0"
click pick_other_node
wait_for "from=0 to=8 .*link=infiniband "
click rack_predict_open
click guess_infiniband
wait_for "guess=infiniband/0 revealed=0"
click guess_times
xdotool type --delay 80 "5"; sleep 0.2
key Return
wait_for "guess=infiniband/5 revealed=0"
for _ in 1 2 3; do key bracketright; done  # faster: the InfiniBand send plays in a couple of seconds
click send_button
wait_for "link=infiniband .*playing=1"
wait_for "link=infiniband .*playing=0 .*guess=infiniband/5 revealed=1" 30
wait_item rack_reveal
shot rack_revealed
# The guess is in: a click on the other wire, with the answer on screen, changes nothing.
click guess_nvlink
sleep 0.5
grep -q "guess=nvlink" "$log" && fail "the guess changed after its answer showed"

# Lesson 3: the guess, then one training step.
key 3
wait_for "^state: at=split .*playing=0"
sleep 0.3
click intro_close
click split_predict_open
click guess_tensor
wait_for "^state: at=split .* guess=tensor revealed=0 exchange_shown=0"
# Flipping to another split before the run must not answer the guess: its bytes and exchanging
# time stay hidden ("?"), and the grey readout bar hides the share, until that step has run.
click strategy_pipeline
wait_for "^state: at=split .*strategy=pipeline .* guess=tensor revealed=0 exchange_shown=0"
shot split_pending_pipeline
for _ in 1 2 3; do key bracketright; done
key space
wait_for "^state: at=split .*finished=1 .* guess=tensor revealed=1 exchange_shown=1" 30
wait_item split_reveal
shot split_revealed
echo "PASS: Lesson 2 revealed the InfiniBand guess after the send, Lesson 3 the tensor-parallel guess after the step ($size, scale $scale); screenshots in $out"
