#!/usr/bin/env bash
# --screenshot gives a real, non-blank PNG of the requested size. Run inside xvfb-run.
# Usage: screenshot.sh path/to/math-to-metal OUTDIR [extra app flags...]
set -euo pipefail
app=$1
out=$2
shift 2
mkdir -p "$out"
name=$(echo "shot $*" | tr -c 'a-zA-Z0-9\n' '_' | cut -c1-80)
png=$out/$name.png
"$app" --size 1920x1080 --screenshot "$png" "$@"
size=$(identify -format '%wx%h' "$png")
[ "$size" = 1920x1080 ] || { echo "FAIL: $png is $size, not 1920x1080"; exit 1; }
colours=$(convert "$png" -unique-colors -format '%w' info:)
[ "$colours" -ge 50 ] || { echo "FAIL: $png has only $colours colours: blank?"; exit 1; }
echo "PASS: $png is 1920x1080 with $colours colours"
