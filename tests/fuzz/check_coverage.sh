#!/usr/bin/env bash
# Fails when a public C function of include/tenferro/*.h is called nowhere in the C ABI fuzzer
# (tests/fuzz/*.cpp and *.hpp), listing the missing names; builds nothing, needs no network.
#   tests/fuzz/check_coverage.sh
# A function counts as called when the fuzzer's code (comments removed) names it before "(" or as
# a macro argument ("CALL1(tfe_zeros, ..."); a name only in a message string does not count. The
# generated functions of the op registry's rows (arithmetic, logical, complex parts, analytic) are
# called through the rows themselves (the table kRows of fuzz_capi.cpp), so their names are read
# from the rows of src/ops/defs/.
set -euo pipefail
shopt -s nullglob
root=$(cd "$(dirname "$0")/../.." && pwd)

# Functions the fuzzer does not call, each with the reason. Keep it short: a name here is a
# function whose contract no fuzzed call checks.
exempt=(
  # (none: every public function is called; tfe_set_num_threads only with 1 and refused values,
  # since a real budget change is process-wide)
)

public=$(grep -ho 'tfe_[a-z0-9_]*(' "$root"/include/tenferro/*.h | tr -d '(' | sort -u)
analytic=$(grep -o '^ *X([A-Za-z0-9]*, *[a-z0-9_]*,' "$root/src/ops/defs/analytic.hpp" |
  sed 's/.*, *\([a-z0-9_]*\),$/tfe_\1/' | sort -u)
basic=$(cat "$root"/src/ops/defs/{arithmetic,logical,complex_parts}.hpp |
  grep -o '^ *X([A-Za-z0-9]*, *[a-z0-9_]*, *[a-z0-9_]*, *Regular,' |
  sed 's/^ *X([A-Za-z0-9]*, *[a-z0-9_]*, *\([a-z0-9_]*\), *Regular,$/tfe_\1/' | sort -u)
fuzz_sources=("$root"/tests/fuzz/*.cpp "$root"/tests/fuzz/*.hpp)
called=$(sed 's://.*$::' "${fuzz_sources[@]}" | grep -o 'tfe_[a-z0-9_]*[(,]' | tr -d '(,' |
  sort -u)

# Guards against an extraction that silently finds nothing.
if [ "$(wc -l <<<"$public")" -lt 100 ] || [ -z "$analytic" ] || [ "$(wc -l <<<"$basic")" -lt 15 ]; then
  echo "check_coverage.sh: could not read the public functions or the registry's rows" >&2
  exit 2
fi
for list in TFE_ANALYTIC_OPS TFE_ARITHMETIC_OPS TFE_LOGICAL_OPS TFE_COMPLEX_PARTS_OPS; do
  if ! grep -q "$list(" "${fuzz_sources[@]}"; then
    echo "check_coverage.sh: the fuzzer no longer calls the rows of $list" >&2
    exit 1
  fi
done

status=0
stale=$(comm -12 <(printf '%s\n' "${exempt[@]}" | grep . | sort -u) <(echo "$called"))
if [ -n "$stale" ]; then
  echo "check_coverage.sh: exempt but called (remove from the exempt list):" \
    "$(tr '\n' ' ' <<<"$stale")" >&2
  status=1
fi
missing=$(comm -23 <(echo "$public") \
  <(printf '%s\n' "$called" "$analytic" "$basic" "${exempt[@]}" | grep . | sort -u))
if [ -n "$missing" ]; then
  echo "check_coverage.sh: public functions the fuzzer never calls ($(wc -l <<<"$missing")):" >&2
  while read -r name; do echo "  $name"; done <<<"$missing" >&2
  echo "call each from tests/fuzz/ under the contract checks, or exempt it with a reason" >&2
  status=1
fi
if [ "$status" = 0 ]; then
  echo "check_coverage.sh: all $(wc -l <<<"$public") public functions are called" \
    "($(wc -l <<<"$analytic") analytic and $(wc -l <<<"$basic") arithmetic, logical and" \
    "complex-parts functions through the registry's rows)"
fi
exit "$status"
