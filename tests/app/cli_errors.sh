#!/usr/bin/env bash
# Every bad flag or value: exit code 2, exactly one line on stderr naming the problem,
# nothing on stdout and no window. Also: no display gives a clear message, exit 2.
# Usage: cli_errors.sh path/to/math-to-metal
set -uo pipefail
app=$1
failures=0
check() {  # check "must mention" args...
    local mention=$1
    shift
    local err out code
    err=$(mktemp)
    out=$(env -u DISPLAY -u WAYLAND_DISPLAY "$app" "$@" 2>"$err")
    code=$?
    local lines
    lines=$(wc -l <"$err")
    if [ $code -ne 2 ] || [ "$lines" -ne 1 ] || [ -n "$out" ] || ! grep -q -- "$mention" "$err"; then
        echo "FAIL: math-to-metal $* -> exit $code, $lines stderr lines: $(cat "$err")"
        failures=$((failures + 1))
    fi
    rm -f "$err"
}
check "--frobnicate" --frobnicate
check "--size" --size 10x10
check "--size" --size wide
check "--lesson" --lesson nowhere
check "--widths" --widths 4,0,3
check "--widths" --widths 4,-1,3
check "--widths" --widths 4,9999,3
check "--widths" --widths 4,abc,3
check "hidden layers" --widths 4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4
check "--cpu-cores" --cpu-cores 0
check "--gpu-cores" --gpu-cores 0
check "--cpu-cores: with --mode hardware" --mode hardware --cpu-cores 18944
check "--gpu-cores: with --mode hardware" --mode hardware --gpu-cores 17000
check "--cpu-cores: not with --scenario" --scenario some.json --cpu-cores 200
check "--frames" --frames -3
check "--mode" --mode quick
check "--widths" sim layers --widths 4,0,3
check "--cpu-cores" sim layers --cpu-cores 0
check "unknown simulation" sim teleport
check "xvfb-run" --frames 1
scenario_dir=$(mktemp -d)
echo '{"lesson": "layers", "state": {"widths": [4, "six", 3]}' >"$scenario_dir/broken.json"
echo '{"lesson": "layers", "state": {"widths": [4, "six", 3]}}' >"$scenario_dir/wrong_type.json"
echo '{"lesson": "nowhere", "state": {}}' >"$scenario_dir/unknown.json"
echo '{"format": "math-to-metal scenario", "version": 1, "lesson": "rack", "state": {"hardware": "a100", "mode": "allreduce", "algorithm": "nvls"}}' >"$scenario_dir/a100_nvls.json"
check "--scenario" --scenario "$scenario_dir/missing.json"
check "--scenario" --scenario "$scenario_dir/broken.json"
check "--scenario" --scenario "$scenario_dir/wrong_type.json"
check "--scenario" --scenario "$scenario_dir/unknown.json"
check "NVLS needs an NVSwitch" --scenario "$scenario_dir/a100_nvls.json"
check "--scenario" --scenario "$scenario_dir"
rm -rf "$scenario_dir"
[ "$failures" -eq 0 ] || exit 1
"$app" --help >/dev/null || { echo "FAIL: --help"; exit 1; }
"$app" --version | grep -q "math-to-metal" || { echo "FAIL: --version"; exit 1; }
echo "PASS: every bad input exits 2 with one line"
