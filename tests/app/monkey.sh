#!/usr/bin/env bash
# A seeded monkey drives the real app (random clicks, drags, typed values, keys, window sizes
# down to 1x1) for N frames, cycling every lesson. Passes when the app exits 0, prints the seed
# and the monkey's final line, visited every lesson, and wrote no file outside its config folder.
# Run inside xvfb-run.
# Usage: monkey.sh path/to/math-to-metal OUTDIR FRAMES SEED [extra app flags...]
set -euo pipefail
app=$(realpath "$1")
out=$2
frames=$3
seed=$4
shift 4
mkdir -p "$out"
log=$(realpath "$out")/monkey_$seed.log
work=$(mktemp -d)  # the app's working folder: anything it writes there (a stray export) is found
trap 'rm -rf "$work"' EXIT
export XDG_CONFIG_HOME=$work/config
mkdir -p "$XDG_CONFIG_HOME"
echo "monkey: seed=$seed frames=$frames (replay: $app --monkey $seed --frames $frames --log-state $*)"
start=$SECONDS
rc=0
(cd "$work" && "$app" --monkey "$seed" --frames "$frames" --log-state "$@") >"$log" 2>&1 || rc=$?
fail() { echo "FAIL: $*"; echo "--- app log (last lines):"; grep -v '^state:' "$log" | tail -20; exit 1; }
[ "$rc" = 0 ] || fail "the app exited $rc after $((SECONDS - start)) s (seed $seed)"
grep -q "^monkey: seed=$seed " "$log" || fail "no 'monkey: seed=' line"
line=$(grep '^monkey: frames=' "$log") || fail "no final 'monkey: frames=' line"
[[ "$line" == "monkey: frames=$frames "* ]] || fail "the monkey ran $line, not $frames frames"
for id in $("$app" --help | sed -n 's/.*--lesson TEXT:{\(.*\)}.*/\1/p' | tr ',' ' '); do
    grep -q "^state: at=$id " "$log" || fail "lesson '$id' was never visited (seed $seed)"
done
stray=$(cd "$work" && find . -path ./config -prune -o -type f -print)
[ -z "$stray" ] || fail "files written outside the config folder: $stray"
echo "$line"
echo "PASS: $frames frames of seed $seed in $((SECONDS - start)) s, every lesson visited; log in $log"
