#!/usr/bin/env bash
# The #define TFE_* values of the public headers against tools/abi/constants.txt: a listed name
# may neither disappear nor change its value (status codes, dtypes, enums and flags are compiled
# into callers, so abidiff cannot see them). New names are fine; update_baseline.sh records them
# at the next release.
#   tools/abi/check_constants.sh
set -euo pipefail
# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
expected=$abi_dir/constants.txt

current_names=$(abi_constant_names)
missing=$(awk '{ print $1 }' "$expected" | sort | comm -23 - <(printf '%s\n' "$current_names"))
if [ -n "$missing" ]; then
  echo "check_constants: constants removed from the headers:" $missing >&2
  exit 1
fi
mapfile -t names < <(awk '{ print $1 }' "$expected")
actual=$(abi_constant_values "${names[@]}")
changed=$(diff <(sort "$expected") <(printf '%s\n' "$actual" | sort) | grep '^>' | sed 's/^> //' ||
  true)
if [ -n "$changed" ]; then
  echo "check_constants: constants whose value changed (now):" >&2
  printf '  %s\n' "$changed" >&2
  echo "  (was: $(grep -F -f <(printf '%s\n' "$changed" | awk '{ print $1 " " }') "$expected" |
    tr '\n' ';'))" >&2
  exit 1
fi
added=$(printf '%s\n' "$current_names" | comm -13 <(awk '{ print $1 }' "$expected" | sort) - |
  wc -w)
echo "check_constants: ${#names[@]} constants unchanged, $added new"
