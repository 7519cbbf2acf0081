#!/usr/bin/env bash
# Drives Lesson 2's collectives in a real window as a person would (xdotool under Xvfb): All-reduce,
# 128 GPUs, the message slider to its left end (8 B), the tree, Run; then checks that the app
# reports the tree playing with its links lit in turn (the latency wave climbing and coming back),
# and saves a screenshot mid-wave to look at.
# Usage (inside xvfb-run): drive_rack_tree.sh path/to/math-to-metal OUTDIR
set -euo pipefail
app=$1
out=${2:-$(mktemp -d)}
mkdir -p "$out"
log=$out/drive_rack_tree.log
"$app" --lesson rack --size 1280x720 --log-state >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT

# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
click_at() {  # click_at ITEM FRACTION: a point FRACTION of the way across a noted item, mid-height
    local x0 y0 x1 y1
    read -r _ x0 y0 x1 y1 < <(item "$1") || fail "the app never reported $1"
    xdotool mousemove --window "$wid" $((x0 + (x1 - x0) * $2 / 100)) $(((y0 + y1) / 2)); sleep 0.2
    xdotool click 1; sleep 0.3
}
click() { click_at "$1" 50; }

wait_item mode_allreduce
wid=$(xdotool search --sync --name "Math to Metal" | head -1)

click mode_allreduce
wait_for "mode=allreduce "
click group_128
wait_for "mode=allreduce .* gpus=128 "
click_at size_slider 1  # the slider's left end: 8 bytes
wait_for "gpus=128 .*bytes=8 "
grep '^state:' "$log" | tail -1 | grep -q "answers=hidden" || fail "NCCL's pick showed before the run"
click algo_tree
wait_for "gpus=128 algorithm=tree protocol=ll .*bytes=8 "
key space  # Run (the Playback row may sit below the fold at 1280x720)
wait_for "algorithm=tree .*playing=1"
# Mid-run: move the pointer off the rack (no tooltip), take the picture while links are lit.
xdotool mousemove --window "$wid" 1 1
wait_for "algorithm=tree .*playing=1 .*lit=[1-9]"
import -window "$wid" "$out/rack_tree_1280x720.png"
# The wave lights one level after another: wait until two different sets of links have been lit.
lit_sets() { grep '^state:.*algorithm=tree .*playing=1' "$log" | grep -o 'lit=[0-9]*' | sort -u | grep -vc 'lit=0$' || true; }
deadline=$((SECONDS + 20))
until [ "$(lit_sets)" -ge 2 ]; do
    [ $SECONDS -lt $deadline ] || fail "the tree's links never lit in turn (distinct lit counts: $(lit_sets))"
    sleep 0.2
done
sets=$(lit_sets)
grep '^state:' "$log" | tail -1 | grep -q "answers=shown" || fail "the run did not show NCCL's pick"
echo "PASS: picked the tree for 8 B on 128 GPUs; it played with $sets different sets of links lit; screenshot $out/rack_tree_1280x720.png"
