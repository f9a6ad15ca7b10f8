#!/usr/bin/env bash
# The C++ layer (include/tenferro/tenferro.hpp and the headers it includes: ops_arith.hpp and
# ops_math.hpp, generated from the op registry, and linalg_fronts.hpp, generated from linalg.h)
# wraps every function of the C headers: each TFE_API name must occur in its code (comments
# stripped), unless it is excluded below with a reason. A function added to the C ABI thus
# fails this check until the header wraps it.
#   tools/abi/check_cxx_header.sh
set -euo pipefail
# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
hpp=$abi_headers/tenferro.hpp

# Functions with no C++ counterpart, one per line with the reason.
excluded=$(
  cat << 'LIST' | sed -e 's/#.*//' -e '/^[[:space:]]*$/d' | awk '{ print $1 }'
tfe_results_retain         # results are copied into a std::vector at once; never shared
tfe_linalg_options_retain  # tfe::LinalgOptions is a value; each call builds its own handle
LIST
)

code=$(mktemp)
trap 'rm -f "$code"' EXIT
perl -0777 -pe 's{/\*.*?\*/}{}gs; s{//[^\n]*}{}g' "$hpp" "$abi_headers/ops_arith.hpp" "$abi_headers/ops_math.hpp" \
  "$abi_headers/linalg_fronts.hpp" > "$code"
missing=()
count=0
while read -r fn; do
  count=$((count + 1))
  if grep -qx "$fn" <<< "$excluded"; then continue; fi
  if ! grep -qw "$fn" "$code"; then missing+=("$fn"); fi
done < <(abi_declared_functions)
if [ "${#missing[@]}" -gt 0 ]; then
  echo "check_cxx_header: tenferro.hpp does not wrap:" "${missing[@]}" >&2
  exit 1
fi
echo "check_cxx_header: tenferro.hpp wraps all $count C functions" \
  "($(printf '%s\n' "$excluded" | grep -c . || true) excluded)"
