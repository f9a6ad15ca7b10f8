#!/usr/bin/env bash
# Fails when the committed generated files differ from a fresh generation (the Fortran and Julia
# layers, and the layers of the regular linalg functions: linalg_fronts.py), or when a function
# exported by the library is not wrapped in both the Fortran and the Julia raw layer.
# Usage: tools/gen_bindings/check.sh <build-dir holding libtenferro.so>
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [ $# -ne 1 ]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
lib=$1/libtenferro.so
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$here/generate.sh" "$tmp" >/dev/null || { echo "gen_bindings check: the generator failed" >&2; exit 1; }

status=0
files="bindings/fortran/src/tenferro_c.f90 bindings/fortran/src/tenferro_ops.inc
bindings/fortran/src/tenferro_ops_decl.inc bindings/julia/Tenferro/src/generated.jl
capi/linalg_entries.inc src/linalg/entries.hpp src/linalg/entries_impl.hpp
include/tenferro/linalg_fronts.hpp bindings/rust/tenferro/src/linalg_fronts.rs
bindings/python/tenferro/_linalg_fronts.py tests/fuzz/linalg_calls.hpp"
for f in $files; do
  if ! diff -u "$root/$f" "$tmp/$f"; then
    echo "gen_bindings check: $f is stale; run tools/gen_bindings/generate.sh" >&2
    status=1
  fi
done

if [ ! -f "$lib" ]; then
  echo "gen_bindings check: $lib not found" >&2
  exit 1
fi
# Symbol versions (tfe_add@@TENFERRO_0.1) are not part of the name a binding calls.
nm -D --defined-only "$lib" | awk '$2 == "T" && $3 ~ /^tfe_/ { sub(/@.*/, "", $3); print $3 }' |
  sort -u >"$tmp/exported"
if [ ! -s "$tmp/exported" ]; then
  echo "gen_bindings check: no tfe_ symbols exported by $lib" >&2
  exit 1
fi
grep -o "bind(C, name='tfe_[a-z0-9_]*')" "$root/bindings/fortran/src/tenferro_c.f90" |
  sed "s/.*name='\(.*\)')/\1/" | sort -u >"$tmp/fortran"
grep -o '_tfe_symbol(:tfe_[a-z0-9_]*)' "$root/bindings/julia/Tenferro/src/generated.jl" |
  sed 's/_tfe_symbol(:\(.*\))/\1/' | sort -u >"$tmp/julia"
for layer in fortran julia; do
  missing=$(comm -23 "$tmp/exported" "$tmp/$layer")
  if [ -n "$missing" ]; then
    echo "gen_bindings check: exported but not wrapped in the $layer layer:" $missing >&2
    status=1
  fi
done
n=$(wc -l <"$tmp/exported")
if [ $status -eq 0 ]; then
  echo "gen_bindings check: generated files current; all $n exported functions wrapped (Fortran, Julia)"
fi
exit $status
