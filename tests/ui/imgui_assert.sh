#!/usr/bin/env bash
# A broken ImGui rule in a headless UI test must fail that test, by name.
# Usage: imgui_assert.sh path/to/test_ui TAG EXPECTED-TEXT
set -uo pipefail
out=$("$1" "[$2]" 2>&1)
rc=$?
fail() { echo "FAIL: $*"; echo "--- output:"; echo "$out" | tail -20; exit 1; }
[ $rc -ne 0 ] || fail "the test passed (exit 0)"
grep -q "SIGABRT" <<<"$out" || fail "no SIGABRT reported"
grep -q "test cases: 1 | 1 failed\|FAILED" <<<"$out" || fail "Catch2 did not report a failed test"
grep -qF -- "$3" <<<"$out" || fail "the output does not say '$3'"
echo "PASS: [$2] failed as it should: $(grep -F -- "$3" <<<"$out" | head -1)"
