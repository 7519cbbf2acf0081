#!/usr/bin/env bash
# `math-to-metal measure` from the command line.
# Usage: cli_measure.sh path/to/math-to-metal errors   bad input: exit 2, one line, no display needed
#        cli_measure.sh path/to/math-to-metal json     (under xvfb-run) every path in the JSON, the GL
#                                                      row run and checked, and a GL 3.3 context's row
set -uo pipefail
app=$1
mode=$2
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

if [ "$mode" = errors ]; then
    check() {  # check "must mention" args...
        local mention=$1
        shift
        local err out code lines
        err=$(mktemp)
        out=$(env -u DISPLAY -u WAYLAND_DISPLAY "$app" measure "$@" 2>"$err")
        code=$?
        lines=$(wc -l <"$err")
        if [ $code -ne 2 ] || [ "$lines" -ne 1 ] || [ -n "$out" ] || ! grep -q -- "$mention" "$err"; then
            fail "measure $* -> exit $code, $lines stderr lines: $(cat "$err")"
        fi
        rm -f "$err"
    }
    check "--widths" --widths 4,0,3 --no-gpu
    check "--widths" --widths 4,abc --no-gpu
    check "--widths" --widths 4,9999 --no-gpu
    check "--widths" --widths 4 --no-gpu
    check "hidden layers" --widths 4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4 --no-gpu
    check "--batch" --batch 0 --no-gpu
    check "--batch" --batch 100000 --no-gpu
    check "--repeats" --repeats 0 --no-gpu
    check "--frobnicate" --frobnicate
    check "xvfb-run" --widths 8,8
    check "--no-gpu" --widths 8,8
    "$app" measure --help | grep -q -- "--no-gpu" || fail "measure --help does not list --no-gpu"
    "$app" --help | grep -q "measure" || fail "math-to-metal --help does not mention measure"
    # Without a display, --no-gpu still measures the CPU paths.
    json=$(env -u DISPLAY -u WAYLAND_DISPLAY "$app" measure --widths 16,16,4 --batch 2 --repeats 1 --no-gpu --json) ||
        fail "--no-gpu without a display did not exit 0"
    echo "$json" | python3 -c '
import json, sys
j = json.load(sys.stdin)
p = {x["id"]: x for x in j["paths"]}
assert p["naive"]["seconds"] > 0 and p["blas"]["gflops"] > 0, p
assert p["gpu"]["seconds"] is None and "--no-gpu" in p["gpu"]["why_not"], p["gpu"]
assert p["naive"]["flops"] == p["blas"]["flops"] == 2 * (16 * 16 + 16 * 4) * 2
' || fail "--no-gpu JSON: $json"
    [ "$failures" -eq 0 ] && echo "PASS: bad input to measure exits 2 with one line; --no-gpu runs without a display"
    exit $((failures > 0))
fi

# json: under xvfb-run.
json=$("$app" measure --widths 64,128,128,10 --batch 4 --repeats 2 --json) || fail "measure --json exited $?"
echo "$json" | python3 -c '
import json, sys
j = json.load(sys.stdin)
for key in ("renderer", "memory", "tolerance", "machine", "paths", "honesty"):
    assert key in j, key
p = {x["id"]: x for x in j["paths"]}
for id in ("naive", "blas", "gpu"):
    for key in ("seconds", "gflops", "max_abs_err", "renderer"):
        assert key in p[id], (id, key)
    assert p[id]["agrees"] and p[id]["seconds"] > 0 and p[id]["max_abs_err"] <= j["tolerance"], p[id]
    assert p[id]["predicted_seconds"] > 0, p[id]
assert p["gpu"]["renderer"] == j["renderer"] != ""
if "llvmpipe" in j["renderer"]:
    assert p["gpu"]["label"] == "software GL (no GPU found)", p["gpu"]["label"]
    assert "same" in j["honesty"] and "CPU cores" in j["honesty"], j["honesty"]
' || fail "measure --json under Xvfb: $json"

json=$(MESA_GL_VERSION_OVERRIDE=3.3 MESA_GLSL_VERSION_OVERRIDE=330 "$app" measure --widths 16,16,4 --batch 2 --repeats 1 --json) ||
    fail "measure on GL 3.3 exited $?"
echo "$json" | python3 -c '
import json, sys
j = json.load(sys.stdin)
p = {x["id"]: x for x in j["paths"]}
assert p["gpu"]["seconds"] is None and not p["gpu"]["ran"], p["gpu"]
assert "compute shaders need OpenGL 4.3" in p["gpu"]["why_not"], p["gpu"]["why_not"]
assert p["naive"]["seconds"] > 0 and p["blas"]["seconds"] > 0
' || fail "measure on GL 3.3: $json"
"$app" measure --widths 32,32,4 --batch 2 --repeats 1 | grep -q "max |error|" || fail "the table has no error column"
[ "$failures" -eq 0 ] && echo "PASS: measure --json has every path; GL 3.3 says compute is unavailable"
exit $((failures > 0))
