# What the xdotool drive scripts share: source it after setting $log (the app's --log-state
# output) and, once the window is found, $wid.
#   fail MESSAGE        say why, show the end of the app's log (not its noted controls), exit 1
#   wait_for REGEX [S]  wait up to S seconds (default 20) for the newest state line to match
#   item NAME           the newest "NAME x0 y0 x1 y1" line the app noted
#   wait_item NAME      wait up to 10 s for the app to note NAME
#   key KEY...          press keys in the window, then give the app a frame or two
fail() { echo "FAIL: $*"; echo "--- app log:"; grep -v '^[a-z_0-9]* [0-9-]* ' "$log" | tail -20; exit 1; }
wait_for() {
    local deadline=$((SECONDS + ${2:-20}))
    until grep '^state:' "$log" | tail -n 1 | grep -Eq "$1"; do
        [ $SECONDS -lt $deadline ] || fail "no state line matching /$1/ (last: $(grep '^state:' "$log" | tail -1))"
        sleep 0.1
    done
}
item() { grep "^$1 " "$log" | tail -1; }
wait_item() { for _ in $(seq 100); do item "$1" >/dev/null && return; sleep 0.1; done; fail "the app never reported $1"; }
key() { xdotool key --window "$wid" "$@"; sleep 0.25; }
# Ctrl+click the slider reported as $1 and type $2 into it, as a person types a value past a slider.
type_into() {
    read -r _ x0 y0 x1 y1 < <(item "$1")
    xdotool mousemove --window "$wid" $(((x0 + x1) / 2)) $(((y0 + y1) / 2)); sleep 0.2
    xdotool keydown ctrl click 1 keyup ctrl; sleep 0.3
    xdotool key --window "$wid" ctrl+a; sleep 0.1
    xdotool type --delay 60 -- "$2"; sleep 0.1
    xdotool key --window "$wid" Return; sleep 0.3
}
