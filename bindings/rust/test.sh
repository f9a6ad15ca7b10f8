#!/usr/bin/env bash
# Checks the Rust bindings against a tenferro build tree: the generated bindings are current,
# `cargo test` (unit, integration and doc tests) passes, and the Ising example's AD gradient
# agrees with finite differences. Usage: bindings/rust/test.sh BUILD_DIR
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -ne 1 ]; then
  echo "usage: $0 BUILD_DIR (the directory holding libtenferro.so)" >&2
  exit 2
fi
if ! command -v cargo >/dev/null 2>&1; then
  echo "skip: cargo not found"
  exit 0
fi
build=$(cd "$1" && pwd) || exit 2
export TENFERRO_LIB_DIR=$build
export CARGO_TARGET_DIR=$here/target
jobs=${CARGO_BUILD_JOBS:-2}

failed=()
if command -v "${BINDGEN:-bindgen}" >/dev/null 2>&1; then
  "$here/check_generated.sh" || failed+=("check_generated")
else
  echo "skip check_generated: bindgen not found"
fi
cd "$here" || exit 2
cargo test --offline -j "$jobs" --workspace || failed+=("cargo test")
cargo run --offline -j "$jobs" -p tenferro --example ising || failed+=("ising example")

if [ ${#failed[@]} -eq 0 ]; then
  echo "rust bindings: PASS"
else
  echo "rust bindings: FAIL (${failed[*]})"
  exit 1
fi
