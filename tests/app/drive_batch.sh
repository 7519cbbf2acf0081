#!/usr/bin/env bash
# Drives Lesson 1's hardware mode in a real window (xdotool under Xvfb): drags the Batch slider and
# checks that the first layer's point on the roofline moves (its logged intensity grows), types
# values past the slider's ends (clamped to 1..4,096), picks BF16, and checks that the speedup stays
# "?" until a run has played to its end. Saves a screenshot of the moved plot to look at.
# Usage (inside xvfb-run): drive_batch.sh path/to/math-to-metal OUTDIR
set -euo pipefail
app=$1
out=${2:-$(mktemp -d)}
mkdir -p "$out"
log=$out/drive_batch.log
XDG_CONFIG_HOME=$(mktemp -d)
export XDG_CONFIG_HOME
"$app" --lesson layers --mode hardware --widths 64,512,512,10 --size 1920x1080 --log-state >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -rf "$XDG_CONFIG_HOME"' EXIT
source "$(dirname "$0")/lib.sh"

intensity() { grep '^state:' "$log" | tail -1 | sed -E 's/.* intensity=([0-9.e+-]+) .*/\1/'; }
wait_item batch_slider
wid=$(xdotool search --sync --pid "$pid" --name "Math to Metal" | head -1)
wait_for "mode=hardware widths=64,512,512,10 .*batch=1 precision=fp32 .*revealed=0 shown_speedup=\?"
before=$(intensity)

# Drag the slider's knob from its left end to near its right end, as a mouse would.
read -r _ x0 y0 x1 y1 < <(item batch_slider)
y=$(((y0 + y1) / 2))
xdotool mousemove --window "$wid" $((x0 + 3)) $y; sleep 0.2
xdotool mousedown 1; sleep 0.2
for f in 30 50 70 85; do xdotool mousemove --window "$wid" $((x0 + (x1 - x0) * f / 100)) $y; sleep 0.1; done
xdotool mouseup 1; sleep 0.3
wait_for "batch=[0-9]{2,4} precision"
after=$(intensity)
awk -v a="$after" -v b="$before" 'BEGIN { exit !(a > 10 * b) }' ||
    fail "the first layer's intensity did not grow with the batch ($before -> $after)"
wait_for "revealed=0 shown_speedup=\?"  # a new batch is a new question: its answer stays hidden
xdotool mousemove --window "$wid" 1 1; sleep 0.4
import -window "$wid" "$out/drive_batch_dragged.png"

# Ctrl+click the slider and type past each end: both are clamped.
type_into batch_slider 999999
wait_for "batch=4096 precision"
type_into batch_slider 0
wait_for "batch=1 precision"
type_into batch_slider 256
wait_for "batch=256 precision"

# BF16: the point's intensity doubles (half the bytes for the same FLOPs).
fp32=$(intensity)
read -r _ x0 y0 x1 y1 < <(item precision_BF16)
xdotool mousemove --window "$wid" $(((x0 + x1) / 2)) $(((y0 + y1) / 2)); sleep 0.2
xdotool click 1; sleep 0.3
wait_for "batch=256 precision=bf16"
awk -v a="$(intensity)" -v b="$fp32" 'BEGIN { exit !(a > 1.9 * b && a < 2.1 * b) }' ||
    fail "BF16 did not double the intensity ($fp32 -> $(intensity))"

# Run to the end: only then does the speedup show.
key bracketright bracketright bracketright bracketright bracketright bracketright
key space
wait_for "playing=1"
wait_for "revealed=1 shown_speedup=[0-9]" 30
echo "PASS: the batch drag moved the first layer's point ($before -> $after FLOP/byte), typed batches clamped, BF16 doubled the intensity, the speedup hidden until the run ended"
