#!/usr/bin/env bash
# At a release: records the ABI of a library built from the release commit (RelWithDebInfo, so it
# has debug info) as the new baseline, and the header constants with it. Review the diff of both
# files; docs/abi.md lists the other release steps (version script node, SONAME).
#   tools/abi/update_baseline.sh build/libtenferro.so
set -euo pipefail
# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
lib=${1:?usage: update_baseline.sh <path-to-libtenferro.so>}
if ! readelf -S "$lib" | grep -q '\.debug_info'; then
  echo "update_baseline: $lib has no debug info; build it RelWithDebInfo or Debug" >&2
  exit 1
fi
# The translation unit paths are the only absolute paths left with these flags: make them relative
# to the source root.
abidw --headers-dir "$abi_headers" "${abidw_flags[@]}" "$lib" |
  sed "s|path='$abi_root/|path='|" > "$abi_dir/libtenferro.abi"
mapfile -t names < <(abi_constant_names)
abi_constant_values "${names[@]}" > "$abi_dir/constants.txt"
echo "update_baseline: $(grep -c '<elf-symbol ' "$abi_dir/libtenferro.abi") functions in" \
  "tools/abi/libtenferro.abi, ${#names[@]} constants in tools/abi/constants.txt"
