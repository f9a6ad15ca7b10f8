#!/usr/bin/env bash
# Installs what is missing, builds the library and runs the main C example.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup-deps.sh"
build=${TFE_BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DPython3_EXECUTABLE=/usr/bin/python3 >/dev/null
cmake --build "$build" --target example_basic
echo "---- examples/c/basic.c ----"
"$build/examples/example_basic"
