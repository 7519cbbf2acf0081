#!/usr/bin/env bash
# The home screen in a real window (xdotool under Xvfb): a first start opens on it; a click on a
# lesson's row opens that lesson; Home, 0, the Home tab, Up/Down and Enter, Left from Lesson 1
# all work; the last lesson is remembered on quit and `--lesson home` opens the list again.
# Screenshots of the home screen at 1280x720 and 1024x768 (1x and 1.5x) are saved to look at.
# Usage (inside xvfb-run): drive_home.sh path/to/math-to-metal OUTDIR
set -euo pipefail
app=$1
out=${2:-$(mktemp -d)}
mkdir -p "$out"
log=$out/drive_home.log
XDG_CONFIG_HOME=$(mktemp -d)  # a first start: no saved lesson
export XDG_CONFIG_HOME
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null || true; rm -rf "$XDG_CONFIG_HOME"' EXIT
source "$(dirname "$0")/lib.sh"  # fail, wait_for, item, wait_item, key
start() {  # start [app flags...]: a fresh log, the window found
    : >"$log"
    "$app" --size 1280x720 --log-state "$@" >"$log" 2>&1 &
    pid=$!
    wid=$(xdotool search --sync --pid "$pid" --name "Math to Metal" | head -1)  # this start's window, not the last one's
}
quit() {  # Ctrl+Q, as a person would: the app saves its settings and exits 0
    # The app may close its window before xdotool sends the key releases (BadWindow): not a failure.
    xdotool key --window "$wid" ctrl+q 2>/dev/null || true
    # Bounded. Under a loaded machine a synthetic key sent to the window is now and then not
    # delivered (seen 1 run in ~10 under a parallel build: the app was still drawing, no press
    # had reached it), so Ctrl+Q is sent once more after 10 s; an app that ignores both, or hangs
    # on its way out, fails here with its log.
    local deadline=$((SECONDS + 30)) again=$((SECONDS + 10))
    while kill -0 "$pid" 2>/dev/null; do
        [ $SECONDS -lt $deadline ] || fail "the app was still running 30 s after Ctrl+Q"
        if [ $SECONDS -ge $again ]; then
            xdotool key --window "$wid" ctrl+q 2>/dev/null || true
            again=$deadline
        fi
        sleep 0.1
    done
    wait $pid || fail "the app exited $? on Ctrl+Q"
    pid=
    # The server drops the window a moment after the process ends: the next start must not find it.
    for _ in $(seq 50); do xdotool search --name "Math to Metal" >/dev/null 2>&1 || break; sleep 0.1; done
    # An app that closes its window between Ctrl+Q's presses and releases leaves the server holding
    # Ctrl down (the releases went to a window already gone), and the next start then reads Home as
    # Ctrl+Home. Seen once the frames got fast enough to close that quickly; let the keys go.
    xdotool keyup ctrl q 2>/dev/null || true
}
click() {  # click ITEM: the middle of a noted item, then wait a frame or two
    local x0 y0 x1 y1
    read -r _ x0 y0 x1 y1 < <(item "$1") || fail "the app never reported $1"
    xdotool mousemove --window "$wid" $(((x0 + x1) / 2)) $(((y0 + y1) / 2)); sleep 0.2
    xdotool click 1; sleep 0.3
}

# Screenshots to look at: the home screen at a projector's sizes. Taken first, before any key is
# sent: under load a Ctrl+Q that quit() sends again could otherwise reach one of these windows and
# close it before its screenshot (seen once in a CI run: the window under the pointer had focus).
# Scripted runs write no settings, so the start below is still a first start.
for shot in "1280x720 1" "1024x768 1" "1024x768 1.5"; do
    read -r size scale <<<"$shot"
    png=$out/home_${size}_scale$scale.png
    rm -f "$png"
    "$app" --lesson home --size "$size" --scale "$scale" --screenshot "$png" >/dev/null
    [ "$(identify -format '%wx%h' "$png")" = "$size" ] || fail "$png is not $size"
done

# A first start opens on the home screen, one row per lesson.
start
wait_for "^state: at=home lessons=4 selected=layers "
wait_item home_explain
for id in layers rack split explain; do item "home_$id" >/dev/null || fail "no row for lesson $id"; done
import -window "$wid" "$out/home_first_start_1280x720.png"

# A click on Lesson 2's row opens it; Home comes back; 3 opens Lesson 3; 0 comes back.
click home_rack
wait_for "^state: at=rack lesson=rack "
key Home
wait_for "^state: at=home .*selected=rack "
key 3
wait_for "^state: at=split "
key 0
wait_for "^state: at=home .*selected=split "
# Down moves the outline, Enter opens that lesson; the Home tab comes back.
key Down
wait_for "^state: at=home .*selected=explain "
key Return
wait_for "^state: at=explain "
wait_item home_tab
click home_tab
wait_for "^state: at=home "
# Right opens Lesson 1; Left from Lesson 1 is the home screen.
key Right
wait_for "^state: at=layers "
key Left
wait_for "^state: at=home .*selected=layers "
# Space acts on a lesson's run: here no lesson is showing, so Lesson 1 has not started.
key space
key 1
wait_for "^state: at=layers .*playing=0 cursor=0 "
key Left
wait_for "^state: at=home "

# The last lesson is remembered: quit on Lesson 2, start again without --lesson.
click home_rack
wait_for "^state: at=rack "
quit
grep -q '"lesson": "rack"' "$XDG_CONFIG_HOME/math-to-metal/settings.json" || fail "settings do not remember Lesson 2"
start
wait_for "^state: at=rack "
key Home
wait_for "^state: at=home "
quit
grep -q '"lesson": "home"' "$XDG_CONFIG_HOME/math-to-metal/settings.json" || fail "settings do not remember the home screen"
start --lesson rack
wait_for "^state: at=rack "
quit
start --lesson home
wait_for "^state: at=home "
quit

echo "PASS: home screen first, a click opens a lesson, Home/0/tab/Left come back, Enter opens; remembered on quit; screenshots in $out"
