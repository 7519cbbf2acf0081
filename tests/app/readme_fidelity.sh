#!/usr/bin/env bash
# The README's nccl-tests tables are what scripts/collective_fidelity prints from the app as built:
# a model change that moves any figure, or a row added to the script, fails here until the README
# is printed again. Usage: readme_fidelity.sh path/to/math-to-metal path/to/README.md
set -euo pipefail
app=$1
readme=$2
here=$(cd "$(dirname "$0")" && pwd)
printed=$(/usr/bin/python3 "$here/../../scripts/collective_fidelity" "$app")
missing=0
# Every table line and every count the script prints must stand in the README as printed.
while IFS= read -r line; do
    case $line in
    "| "* | *"rows within their goal.")
        if ! grep -qxF -- "$line" "$readme"; then
            echo "not in the README: $line"
            missing=$((missing + 1))
        fi
        ;;
    esac
done <<<"$printed"
[ "$missing" -eq 0 ] || { echo "FAIL: $missing lines of scripts/collective_fidelity's output differ from the README: print it again"; exit 1; }
echo "PASS: the README's nccl-tests tables match the model ($(grep -c '^| ' <<<"$printed") lines)"
