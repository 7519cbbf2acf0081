#!/usr/bin/env bash
# A screenshot of a view that only some state opens (a lesson's second tab): the app must report
# a control that only that view draws, and the PNG must be a real, non-blank 1920x1080 image.
# Usage (inside xvfb-run): screenshot_view.sh path/to/math-to-metal OUTDIR ITEM [extra app flags...]
set -euo pipefail
app=$1
out=$2
item=$3
shift 3
mkdir -p "$out"
name=$(echo "view $item" | tr -c 'a-zA-Z0-9\n' '_' | cut -c1-80)
png=$out/$name.png
log=$out/$name.log
"$app" --size 1920x1080 --frames 6 --log-state --screenshot "$png" "$@" >"$log" 2>&1
grep -q "^$item " "$log" || { echo "FAIL: the app never drew '$item' (the view did not open)"; tail -5 "$log"; exit 1; }
size=$(identify -format '%wx%h' "$png")
[ "$size" = 1920x1080 ] || { echo "FAIL: $png is $size, not 1920x1080"; exit 1; }
colours=$(convert "$png" -unique-colors -format '%w' info:)
[ "$colours" -ge 50 ] || { echo "FAIL: $png has only $colours colours: blank?"; exit 1; }
echo "PASS: $png shows '$item', 1920x1080 with $colours colours"
