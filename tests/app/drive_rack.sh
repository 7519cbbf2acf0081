#!/usr/bin/env bash
# Drives Lesson 2 in a real window as a person would (xdotool under Xvfb): in the zoomed drawing
# click a GPU in one node, then the summary box of the nodes not drawn (a GPU in another node),
# then Send, and check that the app reports an InfiniBand send playing; then a quick pick inside
# the node brings NVLink back.
# Usage (inside xvfb-run): drive_rack.sh path/to/math-to-metal OUTDIR
set -euo pipefail
app=$1
out=${2:-$(mktemp -d)}
mkdir -p "$out"
log=$out/drive_rack.log
"$app" --lesson rack --size 1280x720 --log-state >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT

# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"  # type_into; this script's own helpers below replace the rest
fail() { echo "FAIL: $*"; echo "--- app log:"; grep -v '^gpu_' "$log" | tail -20; exit 1; }
wait_for() {  # wait_for REGEX [seconds]: a new state line matching REGEX
    local deadline=$((SECONDS + ${2:-20}))
    until grep '^state:' "$log" | tail -n 3 | grep -Eq "$1"; do
        [ $SECONDS -lt $deadline ] || fail "no state line matching /$1/"
        sleep 0.1
    done
}
item() { grep "^$1 " "$log" | tail -1; }
click() {  # click ITEM: the middle of a noted item, then wait a frame or two
    local x0 y0 x1 y1
    read -r _ x0 y0 x1 y1 < <(item "$1") || fail "the app never reported $1"
    xdotool mousemove --window "$wid" $(((x0 + x1) / 2)) $(((y0 + y1) / 2)); sleep 0.2
    xdotool click 1; sleep 0.3
}

for _ in $(seq 100); do item send_button >/dev/null && break; sleep 0.1; done
item send_button >/dev/null || fail "the app never reported its controls"
wid=$(xdotool search --sync --name "Math to Metal" | head -1)
grep -q "lesson=rack mode=send .*link=nvlink .*playing=0" "$log" || fail "did not open on a send inside a node"

# At 1280x720 the drawing is zoomed onto node 0 (128 GPUs would be specks); the rest of rack 0 is
# one summary box, and a click on it picks its first GPU: GPU 8 in node 1. The send must leave the node.
grep '^state:' "$log" | tail -1 | grep -q "rack_zoom=1 gpu_label_px=[1-9]" || fail "the drawing did not zoom with GPU numbers at 1280x720"
click gpu_2
wait_for "from=2 "
click rack_summary_0
wait_for "from=2 to=8 .*link=infiniband hops=4 "
# Node 1 is drawn now: its GPUs are buttons like any other.
for _ in $(seq 50); do item gpu_11 >/dev/null && break; sleep 0.1; done
item gpu_11 >/dev/null || fail "node 1 was not drawn once it held the receiver"
click send_button
wait_for "from=2 to=8 .*link=infiniband .*playing=1"

# A quick pick inside the node: back on NVLink.
click pick_same_node
wait_for "from=2 to=[0-7] .*link=nvlink hops=2 "
# A size typed as the slider writes it: Ctrl+click, "16 GB" (ImGui's own box kept only "16", and the
# slider fell to 1 KB), then nccl-tests' "64M", then words that are no size: said, and the size kept.
type_into size_slider "16 GB"
wait_for "bytes=16000000000 "
type_into size_slider "64M"
wait_for "bytes=67108864 "
type_into size_slider "lots"
sleep 0.5
grep '^state:' "$log" | tail -1 | grep -q "bytes=67108864 " || fail "a size that is no size changed the slider"
item size_refusal >/dev/null || fail "a size that is no size was not said"
# ... under the row, not beside the slider, where it pushed Send past the pane's edge.
read -r _ _ _ send_x1 _ < <(item send_button)
read -r _ _ _ pane_x1 _ < <(item controls)
[ "${send_x1%.*}" -le "${pane_x1%.*}" ] || fail "Send ends at x=$send_x1, past the pane's edge at $pane_x1"
type_into size_slider "1e30"
wait_for "bytes=100000000000 "
item size_clamped >/dev/null || fail "a size past the largest was clamped without a word"
# The box opens with the size as the slider writes it, thousands' commas and all: that reads back.
type_into size_slider "1,024 B"
wait_for "bytes=1024 "
# A note about Send's size goes with Send: All-reduce's size slider says nothing of it. The app
# prints its noted controls whole when they change: the last list printed in All-reduce mode (it
# holds algo_auto) must come to hold no note (within 10 s: a sanitizer build is slow).
type_into size_slider "-5 GB"
wait_for "bytes=1000 "
key m
wait_for "mode=allreduce "
last_list() { awk '/^state:/ { if (list ~ /algo_auto /) last = list; list = ""; next } { list = list $0 "\n" } END { printf "%s", last }' "$log"; }
for _ in $(seq 100); do grep -q '^algo_auto ' <<<"$(last_list)" && ! grep -q '^size_clamped ' <<<"$(last_list)" && break; sleep 0.1; done
grep -q '^algo_auto ' <<<"$(last_list)" || fail "All-reduce's controls were never listed"
! grep -q '^size_clamped ' <<<"$(last_list)" || fail "Send's size note stayed under All-reduce's slider"
echo "PASS: a GPU and the summary of the other nodes in the zoomed drawing, and Send, gave InfiniBand; 'same node' gave NVLink; 16 GB and 64M typed ($(grep -c '^state:' "$log") state lines)"
