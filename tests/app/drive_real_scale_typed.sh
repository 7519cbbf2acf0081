#!/usr/bin/env bash
# Lesson 1's Real scale tab in a real window: Ctrl+click on the cluster's GPU slider types a count
# (ImGui's own box would have taken the slider's exponent, so the slider had none and a Ctrl+click
# dragged). A count between the slider's powers of two goes to the nearest, one past its end to
# that end, each with a line under the slider; words are said and change nothing.
# Usage (inside xvfb-run): drive_real_scale_typed.sh path/to/math-to-metal OUTDIR
set -euo pipefail
app=$1
out=${2:-$(mktemp -d)}
mkdir -p "$out"
log=$out/drive_real_scale_typed.log
source "$(dirname "$0")/lib.sh"
"$app" --size 1600x900 --log-state --scenario "$(dirname "$0")/real_scale_scenario.json" >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
wait_item real_scale_gpus
# At 1280x720 the slider sits below the controls pane's fold; 1600x900 shows it.
wid=$(xdotool search --sync --name "Math to Metal" | head -1)
wait_for "real_scale open=1 .*cluster_gpus=1024 " 30

type_into real_scale_gpus "3,000"
wait_for "cluster_gpus=2048 " 30
# The app prints its noted controls once they hold still for a frame, after the state line.
wait_item real_scale_gpus_moved
type_into real_scale_gpus "1e9"
wait_for "cluster_gpus=16384 " 30
type_into real_scale_gpus "lots"
sleep 0.5
grep '^state:' "$log" | tail -1 | grep -q "cluster_gpus=16384 " || fail "words that are no count changed the cluster"
wait_item real_scale_gpus_refusal
grep '^state:' "$log" | tail -1 | grep -q "at=layers " || fail "the typed letters reached the lesson's keys"
type_into real_scale_gpus "512"
wait_for "cluster_gpus=512 " 30
echo "PASS: 3,000, 1e9, 'lots' and 512 typed into the cluster's GPU slider ($(grep -c '^state:' "$log") state lines)"
