#!/usr/bin/env bash
# An instructor's walk through the app, keyboard only (xdotool under Xvfb): Right through every
# lesson, Space to run, R to reset, Ctrl+= to enlarge, H for presenter view, with a screenshot of
# each state saved for a person to look at. Run at a projector size given as WxH.
# Usage (inside xvfb-run): drive_classroom.sh path/to/math-to-metal OUTDIR 1280x720
set -euo pipefail
app=$1
out=$2
size=${3:-1280x720}
mkdir -p "$out"
log=$out/classroom_$size.log
XDG_CONFIG_HOME=$(mktemp -d)
export XDG_CONFIG_HOME
"$app" --size "$size" --log-state --lesson layers >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
source "$(dirname "$0")/lib.sh"
shot() { import -window "$wid" "$out/classroom_${size}_$1.png"; }
wid=$(xdotool search --sync --name "Math to Metal" | head -1)
wait_for "at=layers"

ids=$("$app" --help | sed -n 's/.*--lesson TEXT:{\(.*\)}.*/\1/p' | tr ',' ' ')
n=0
for id in $ids; do
    n=$((n + 1))
    wait_for "at=$id "
    key space
    sleep 0.6
    shot "$n-$id-running"
    key r
    if [ $n -lt $(wc -w <<<"$ids") ]; then key Right; fi
done
# The other views and Lesson 2's set-up, keys only: V opens Lesson 1's Real scale and Lesson 3's
# Frontier tab and goes back (T turns the Frontier's lists there); in Lesson 2, T moves the receiver to the next node and M switches to
# All-reduce, where T takes the next group.
key 1
wait_for "at=layers "
key v
wait_for "at=layers .*real_scale open=1"
shot "real-scale-by-v"
key v
wait_for "at=layers .*points=[0-9]+ view:"
key 3
wait_for "at=split .*frontier=0"
key v
wait_for "at=split .*frontier=1 .*list=memory"  # at these sizes the lists take turns in four tabs
key t  # T: the Frontier tab's next list, and after the last the first
wait_for "at=split .*frontier=1 .*list=timeline"
shot "frontier-timeline-by-t"
for list in search assumptions memory; do
    key t
    wait_for "at=split .*frontier=1 .*list=$list"
done
key v
wait_for "at=split .*frontier=0"
key 2
wait_for "at=rack .*mode=send .*from=0 to=5 "
key t
wait_for "at=rack .*mode=send .*from=0 to=8 "
key t
wait_for "at=rack .*mode=send .*from=0 to=64 "
key m
wait_for "at=rack .*mode=allreduce .*gpus=8 "
key t
wait_for "at=rack .*mode=allreduce .*gpus=16 "
key m
wait_for "at=rack .*mode=send "
key 1
wait_for "at=layers "
key ctrl+equal
wait_for "scale=1.25"
key h
wait_for "presenter=1"
shot "presenter-scaled"
key h
wait_for "presenter=0"
# At 2x the lessons' titles do not all fit on the tabs: the open one keeps its title, the others
# show their number, and a click on one opens it.
for s in 1.50 1.75 2.00; do
    key ctrl+equal
    wait_for "scale=$s"
done
sleep 0.3
read -r _ x0 y0 x1 y1 < <(item tab_split)
[ $((x1 - x0)) -gt 0 ] || fail "no tab for Lesson 3 at 2x"
xdotool mousemove --window "$wid" $(((x0 + x1) / 2)) $(((y0 + y1) / 2)) click 1
wait_for "at=split "
sleep 0.3
shot "tabs-2x"
key ctrl+0
wait_for "scale=1.00"
echo "PASS: walked $n lessons by keyboard at $size; screenshots in $out"
