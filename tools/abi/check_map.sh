#!/usr/bin/env bash
# The version script (capi/tenferro.map), the public headers and a built library agree:
# - the script is what tools/abi/generate_map.sh writes from the headers' @since tags;
# - every TFE_API function of the headers is listed by name in exactly one node (no wildcard), and
#   every listed name is declared;
# - the library exports exactly those functions, each with its node's version, and no variable;
# - released nodes are frozen: every function of the baseline keeps its version, and no new
#   function joins a node the baseline already has (it goes into a new node).
#   tools/abi/check_map.sh build/libtenferro.so
set -euo pipefail
# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
lib=${1:?usage: check_map.sh <path-to-libtenferro.so>}
map=$abi_root/capi/tenferro.map
fail=0
problem() {
  echo "check_map: $*" >&2
  fail=1
}

if ! generated=$("$abi_dir/generate_map.sh" -); then
  problem "tools/abi/generate_map.sh failed"
elif [ "$generated" != "$(cat "$map")" ]; then
  problem "capi/tenferro.map is not what the headers' @since tags give; run" \
    "tools/abi/generate_map.sh (or tools/regenerate_ops.sh):"$'\n'"$(diff "$map" <(printf '%s\n' "$generated") | head -n 20)"
fi

entries=$(abi_map_entries "$map")
declared=$(abi_declared_functions)
listed=$(printf '%s\n' "$entries" | awk '{ print $1 }' | sort)

wild=$(printf '%s\n' "$listed" | grep -E '[*?\[]' || true)
[ -z "$wild" ] || problem "wildcards in a global: list ($wild); list every function by name"
dups=$(printf '%s\n' "$listed" | uniq -d)
[ -z "$dups" ] || problem "listed more than once:" $dups
unlisted=$(comm -23 <(printf '%s\n' "$declared") <(printf '%s\n' "$listed" | sort -u))
[ -z "$unlisted" ] || problem "declared in include/tenferro but not listed in capi/tenferro.map" \
  "(they would stay local; run tools/abi/generate_map.sh):" $unlisted
undeclared=$(comm -13 <(printf '%s\n' "$declared") <(printf '%s\n' "$listed" | sort -u))
[ -z "$undeclared" ] || problem "listed in capi/tenferro.map but declared in no header:" $undeclared

exported=$(abi_exported_functions "$lib")
map_only=$(comm -23 <(printf '%s\n' "$entries" | sort -u) <(printf '%s\n' "$exported"))
[ -z "$map_only" ] || problem "listed in the map ('name node') but not exported so by the" \
  "library:"$'\n'"$map_only"
lib_only=$(comm -13 <(printf '%s\n' "$entries" | sort -u) <(printf '%s\n' "$exported"))
[ -z "$lib_only" ] || problem "exported by the library ('name version') but not listed so in the" \
  "map:"$'\n'"$lib_only"
vars=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[BbDdGgRrSsVu]$/ { print $3 }')
[ -z "$vars" ] || problem "exported variables (the C ABI exports functions only):" $vars

released=$(grep -oE "<elf-symbol name='[^']+' version='[^']+'" "$abi_dir/libtenferro.abi" |
  sed -E "s/<elf-symbol name='([^']+)' version='([^']+)'/\1 \2/" | sort -u)
moved=$(comm -23 <(printf '%s\n' "$released") <(printf '%s\n' "$entries" | sort -u))
[ -z "$moved" ] || problem "released functions missing from their node (name node):"$'\n'"$moved"
released_nodes=$(printf '%s\n' "$released" | awk '{ print $2 }' | sort -u)
joined=$(printf '%s\n' "$entries" | grep -wF -f <(printf '%s\n' "$released_nodes") | sort -u |
  comm -23 - <(printf '%s\n' "$released") || true)
[ -z "$joined" ] || problem "new functions in an already released node (give them a new" \
  "node):"$'\n'"$joined"

[ "$fail" -eq 0 ] || exit 1
echo "check_map: $(printf '%s\n' "$declared" | wc -l) functions declared, listed and exported" \
  "in $(printf '%s\n' "$entries" | awk '{ print $2 }' | sort -u | wc -l) version node(s)"
