#!/usr/bin/env bash
# Regenerates the Fortran and Julia raw layers (and the regular-signature procedures of the
# Fortran module), and the layers of the regular linalg functions (C entry points, entries, C++,
# Rust and Python functions, the fuzzer's calls), from the headers in include/tenferro.
# Usage: tools/gen_bindings/generate.sh [OUT_DIR] (default: the repository itself; check.sh
# passes a temporary folder).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# Debian's interpreter: python3-clang-16 installs the clang module for it only.
python=${TFE_GEN_PYTHON:-/usr/bin/python3}
if [ $# -ge 1 ]; then
  "$python" "$here/gen_bindings.py" --root "$root" --out "$1"
else
  "$python" "$here/gen_bindings.py" --root "$root"
fi
