#!/usr/bin/env bash
# Fails (non-zero, with a diff) when tenferro-sys/src/bindings.rs differs from what generate.sh
# produces for the current header.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
"$here/generate.sh" "$tmp"
if ! diff -u "$here/tenferro-sys/src/bindings.rs" "$tmp"; then
  echo "check_generated: tenferro-sys/src/bindings.rs is stale; run bindings/rust/generate.sh" >&2
  exit 1
fi
echo "check_generated: bindings.rs is up to date"
