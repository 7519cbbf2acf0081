#!/usr/bin/env bash
# Runs a window test under its own Xvfb (1920x1080, 24-bit). xvfb-run -a picks a free display by
# its lock files, and two tests starting together (ctest -j2) can pick the same one: the second
# Xvfb then fails to start ("Server is already active"). That is not the test's failure, so try a
# fresh pick, up to three times.
# Usage: xvfb.sh COMMAND [ARGS...]
set -u
for attempt in 1 2 3; do
    err=$(mktemp)
    xvfb-run -a -e "$err" -s "-screen 0 1920x1080x24 -noreset" "$@"
    rc=$?
    if [ "$rc" -ne 0 ] && grep -qi "already active\|cannot establish any listening sockets" "$err"; then
        echo "xvfb.sh: the display was taken as Xvfb started (attempt $attempt); trying another" >&2
        rm -f "$err"
        sleep "$attempt"
        continue
    fi
    rm -f "$err"
    exit "$rc"
done
exit 1
