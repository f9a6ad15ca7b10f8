#!/usr/bin/env bash
# Rewrites every file generated from the op registry (src/ops/defs/*.hpp) with a build's
# tools/emit_ops, then the linker version script from the headers (tools/abi/generate_map.sh);
# the ops_*_drift and abi_version_map tests compare them after each build.
#   tools/regenerate_ops.sh [build-dir]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
cmake --build "$build" --target emit_ops >/dev/null
emit=$build/tools/emit_ops
"$emit" table > "$root/docs/ops/table.md"
"$emit" c-header > "$root/include/tenferro/ops_math.h"
"$emit" c-header-arith > "$root/include/tenferro/ops_arith.h"
"$emit" cxx > "$root/include/tenferro/ops_math.hpp"
"$emit" cxx-arith > "$root/include/tenferro/ops_arith.hpp"
"$emit" python > "$root/bindings/python/tenferro/_op_rows.py"
"$emit" rust > "$root/bindings/rust/tenferro/src/ops_math.rs"
"$emit" rust-arith > "$root/bindings/rust/tenferro/src/ops_arith.rs"
"$emit" linalg-table > "$root/docs/ops/linalg.md"
"$emit" python-linalg > "$root/bindings/python/tests/linalg_rows.py"
# the version script: a generated function's node comes from its row's version (@since)
"$root/tools/abi/generate_map.sh"
echo "regenerated the op registry's files from $emit"
