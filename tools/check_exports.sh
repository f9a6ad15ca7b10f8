#!/usr/bin/env bash
# Fails when the shared library exports a symbol that is not part of the C ABI (tfe_*), or
# exports no tfe_* symbol at all.
set -euo pipefail
lib=$1
syms=$(nm -D --defined-only "$lib" | awk '{print $3}')
bad=$(printf '%s\n' "$syms" | grep -v -E '^(tfe_[A-Za-z0-9_]+(@@?TENFERRO_[0-9.]+)?|TENFERRO_[0-9.]+)$' || true)
count=$(printf '%s\n' "$syms" | grep -c '^tfe_' || true)
if [ -n "$bad" ]; then
  echo "exported symbols outside the C ABI:"; echo "$bad"; exit 1
fi
if [ "$count" -lt 50 ]; then
  echo "only $count tfe_* symbols exported"; exit 1
fi
soname=$(objdump -p "$lib" | awk '/SONAME/ {print $2}')
case "$soname" in
  libtenferro.so.0.*) ;;
  *) echo "unexpected SONAME '$soname'"; exit 1 ;;
esac
echo "ok: $count tfe_* symbols, SONAME $soname"
