#!/usr/bin/env bash
# Compares a built libtenferro.so with the committed baseline (libtenferro.abi) using abidiff.
# Passes when nothing changed or when functions were only added; fails on a removed or changed
# function, a changed type reachable from the API, or an added variable (the C ABI exports
# functions only: a variable's size would become part of the ABI through copy relocations).
#   tools/abi/check_abi.sh build/libtenferro.so
# The library needs debug info (RelWithDebInfo or Debug): without it only symbol names can be
# compared, which would let type changes through unnoticed.
set -euo pipefail
# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
lib=${1:?usage: check_abi.sh <path-to-libtenferro.so>}
baseline=$abi_dir/libtenferro.abi

if ! readelf -S "$lib" | grep -q '\.debug_info'; then
  echo "check_abi: $lib has no debug info; build it RelWithDebInfo or Debug" >&2
  exit 1
fi

report=$(mktemp)
trap 'rm -f "$report"' EXIT
diff_flags=(--headers-dir2 "$abi_headers" "${abi_read_flags[@]}" --no-show-locs)

# abidiff's status is a bit mask: 1 tool error, 2 usage error, 4 some ABI change, 8 an
# incompatible change (a removed symbol). Added functions alone set 4, as do changed types, so a
# second run without the added symbols tells the two apart.
set +e
abidiff "${diff_flags[@]}" "$baseline" "$lib" > "$report" 2>&1
full=$?
set -e
if [ "$full" -eq 0 ]; then
  echo "check_abi: no ABI change against tools/abi/libtenferro.abi"
  exit 0
fi
if [ $((full & 3)) -ne 0 ]; then
  cat "$report"
  echo "check_abi: abidiff failed (status $full)" >&2
  exit 1
fi
set +e
abidiff "${diff_flags[@]}" --no-added-syms "$baseline" "$lib" > /dev/null 2>&1
without_added=$?
set -e
added_vars=$(grep -E '^(Variables changes|Variable symbols changes) summary' "$report" |
  grep -oE '[0-9]+ Added' | awk '{ s += $1 } END { print s + 0 }')
if [ "$without_added" -ne 0 ] || [ "$added_vars" -ne 0 ]; then
  cat "$report"
  echo "check_abi: incompatible ABI change against tools/abi/libtenferro.abi (abidiff status" \
    "$full; only added functions are allowed)" >&2
  exit 1
fi
added=$(grep -cE '^\s*\[A\]' "$report" || true)
echo "check_abi: compatible, $added function(s) added since the baseline"
