#!/usr/bin/env bash
# Drives Lesson 3's FSDP in a real window as a person would (xdotool under Xvfb): click the FSDP
# strategy, then 4 GPUs, start the step with Space, save a screenshot mid-step (each card's own
# shard solid, the layer it has borrowed lit), let it play to the end, and check the state lines.
# Usage (inside xvfb-run): drive_split_fsdp.sh path/to/math-to-metal OUTDIR
set -euo pipefail
app=$1
out=${2:-$(mktemp -d)}
mkdir -p "$out"
log=$out/drive_split_fsdp.log
XDG_CONFIG_HOME=$(mktemp -d)
export XDG_CONFIG_HOME
"$app" --lesson split --size 1280x720 --log-state >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -rf "$XDG_CONFIG_HOME"' EXIT
source "$(dirname "$0")/lib.sh"  # fail, wait_for, item, wait_item, key
click() {  # click ITEM: the middle of a noted item, then a pause so the app sees one press per frame
    local x0 y0 x1 y1
    wait_item "$1"
    read -r _ x0 y0 x1 y1 < <(item "$1")
    xdotool mousemove --window "$wid" $(((x0 + x1) / 2)) $(((y0 + y1) / 2)); sleep 0.2
    xdotool click 1; sleep 0.3
}

wait_item strategy_fsdp
wid=$(xdotool search --sync --pid "$pid" --name "Math to Metal" | head -1)
wait_for "strategy=data gpus=2 .*playing=0"

click strategy_fsdp
wait_for "strategy=fsdp gpus=2 "
click gpus_4
wait_for "strategy=fsdp gpus=4 .*playing=0 finished=0"

# Space starts the step (8 s at 1x); a screenshot while it plays, then ] speeds it to the end.
key space
wait_for "strategy=fsdp gpus=4 .*playing=1 finished=0"
sleep 2
xdotool mousemove --window "$wid" 1 1; sleep 0.3
shot=$out/split_fsdp_mid_step.png
import -window "$wid" "$shot"
colours=$(convert "$shot" -format %k info:)
[ "$colours" -gt 50 ] || fail "the mid-step screenshot has only $colours colours"
grep '^state:' "$log" | tail -1 | grep -q "strategy=fsdp gpus=4 .*playing=1 finished=0" || fail "the step was not playing at the screenshot"
for _ in 1 2 3; do key bracketright; done
wait_for "strategy=fsdp gpus=4 .*playing=0 finished=1" 30
echo "PASS: FSDP picked by a click, 4 GPUs, the step played to its end ($(grep -c '^state:' "$log") state lines); mid-step screenshot $shot"
