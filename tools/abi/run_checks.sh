#!/usr/bin/env bash
# The ABI checks of a build, one line each, non-zero when any fails (details of a failure are
# printed above its line):
#   abi        abidiff of the library against tools/abi/libtenferro.abi (check_abi.sh)
#   constants  #define TFE_* values against tools/abi/constants.txt (check_constants.sh)
#   map        version script, headers and exports agree (check_map.sh, tools/check_exports.sh)
#   c++        tenferro.hpp wraps every C function (check_cxx_header.sh)
#   tools/abi/run_checks.sh build
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=${1:?usage: run_checks.sh <build-dir>}
lib=$build/libtenferro.so
failed=0

check() { # name, command...
  local name=$1 out status
  shift
  out=$("$@" 2>&1)
  status=$?
  if [ "$status" -eq 0 ]; then
    printf 'PASS %-9s %s\n' "$name" "$(printf '%s\n' "$out" | tail -n 1)"
  else
    printf '%s\n' "$out" | sed 's/^/  /'
    printf 'FAIL %-9s (status %d)\n' "$name" "$status"
    failed=1
  fi
}

if [ ! -f "$lib" ]; then
  echo "FAIL abi       no $lib"
  exit 1
fi
check abi "$here/check_abi.sh" "$lib"
check constants "$here/check_constants.sh"
check map bash -c "'$here/../check_exports.sh' '$lib' && '$here/check_map.sh' '$lib'"
check c++ "$here/check_cxx_header.sh"
exit "$failed"
