#!/usr/bin/env bash
# Fails when a tracked C/C++ source differs from .clang-format's output. Usage: check_format.sh <clang-format>
set -euo pipefail
cf=${1:-clang-format}
files=$(git ls-files '*.cpp' '*.hpp' '*.c' '*.h' 2>/dev/null | grep -v '^bindings/python/' || true)
[ -n "$files" ] || { echo "no git checkout: skipped"; exit 0; }
# shellcheck disable=SC2086
"$cf" --dry-run --Werror $files
echo "format ok ($(echo "$files" | wc -l) files)"
