#!/usr/bin/env bash
# Writes the linker version script (capi/tenferro.map) from the public headers: every TFE_API
# function goes into the node of the release its documentation names (`@since 0.2` in the doc
# comment right before the declaration; none: 0.1), nodes in release order, each inheriting the
# previous one. The headers are the one place a function's version is written; check_map.sh fails
# when the committed script differs from this output.
#   tools/abi/generate_map.sh          rewrite capi/tenferro.map
#   tools/abi/generate_map.sh -        print it instead
set -euo pipefail
# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# "version name" of every declared function.
versions=$(perl -0777 -ne 's{//[^\n]*}{}g;
  while (/(?:\/\*\*((?:(?!\*\/).)*?)\*\/\s*)?\bTFE_API\b[^;(]*?\b(tfe_\w+)\s*\(/gs) {
    my ($doc, $name) = ($1 // "", $2);
    my ($since) = $doc =~ /\@since\s+([0-9]+\.[0-9]+)/;
    print(($since // "0.1"), " $name\n");
  }' "$abi_headers"/*.h | LC_ALL=C sort -u -k1,1V -k2,2)

map() {
  cat <<'HEAD'
/* Linker version script of libtenferro.so: only the C ABI is exported, every other symbol (the C++
   core, libstdc++ instances) stays local. Written by tools/abi/generate_map.sh from the public
   headers: do not edit. A function goes into the node of the release its documentation names
   (@since; none: 0.1), so a new function needs its @since tag and nothing here. There is no
   wildcard. Nodes are append-only: tools/abi/check_map.sh fails when a released function changes
   node or a new function joins a released node. */
HEAD
  local previous=""
  for v in $(awk '{ print $1 }' <<<"$versions" | uniq); do
    printf '\nTENFERRO_%s {\n  global:\n' "$v"
    awk -v v="$v" '$1 == v { printf "    %s;\n", $2 }' <<<"$versions"
    if [ -z "$previous" ]; then
      printf '  local:\n    *;\n};\n'
    else
      printf '} TENFERRO_%s;\n' "$previous"
    fi
    previous=$v
  done
}

if [ "${1:-}" = "-" ]; then
  map
else
  map >"$abi_root/capi/tenferro.map"
fi
