#!/usr/bin/env bash
# A lecturer's guess without a mouse (xdotool under Xvfb), in presenter view at a projector's
# 1024x768 and 1.5x: in Lesson 1, G puts the keyboard in the guess box and "3" is a guess, not
# Lesson 3; in Lesson 2, G picks NVLink, then InfiniBand, and N takes "4" into the times-as-long
# box; in Lesson 3, G picks the first split. Each guess shows in the state line; a screenshot of
# each strip for a person to look at.
# Usage (inside xvfb-run): drive_guess_keys.sh path/to/math-to-metal OUTDIR
set -euo pipefail
app=$1
out=$2
mkdir -p "$out"
log=$out/guess_keys.log
XDG_CONFIG_HOME=$(mktemp -d)
export XDG_CONFIG_HOME
"$app" --size 1024x768 --theme projector --scale 1.5 --presenter --log-state --lesson layers >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
source "$(dirname "$0")/lib.sh"
wid=$(xdotool search --sync --name "Math to Metal" | head -1)
wait_for "at=layers .*guess=0 "
key g
xdotool type --window "$wid" --delay 80 3; sleep 0.3
key Return
wait_for "at=layers .*guess=3 " 10
import -window "$wid" "$out/guess_keys_layers.png"
key 2
wait_for "at=rack "
key g
wait_for "at=rack .* guess=nvlink/" 10
key g
wait_for "at=rack .* guess=infiniband/" 10
key n
xdotool type --window "$wid" --delay 80 4; sleep 0.3
key Return
wait_for "at=rack .* guess=infiniband/4 " 10
import -window "$wid" "$out/guess_keys_rack.png"
key 3
wait_for "at=split "
key g
wait_for "at=split .* guess=[a-z]" 10
import -window "$wid" "$out/guess_keys_split.png"
# Out of presenter view the guess box sits in the controls, scrolled out of sight at this size:
# G scrolls it into view and a typed 5 is a guess, not Lesson 5 (there is none) or Lesson 2.
key h
key 1
wait_for "at=layers .*presenter=0"
key g
xdotool type --window "$wid" --delay 80 5; sleep 0.3
key Return
wait_for "at=layers .*guess=3?5 " 10
import -window "$wid" "$out/guess_keys_layers_controls.png"
echo "PASS: G and N made a guess in Lessons 1, 2 and 3 from the keyboard, in presenter view and out of it"
