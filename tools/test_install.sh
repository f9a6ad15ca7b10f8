#!/usr/bin/env bash
# Installs a build tree into a temporary prefix and builds a consumer against it twice: with
# find_package(tenferro) and with pkg-config. Usage: tools/test_install.sh <build dir>
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$(dirname "$(find "$prefix" -name 'libtenferro.so' | head -1)")

mkdir -p "$tmp/cmake"
cp "$root/tests/install/consumer.c" "$tmp/cmake/"
cp "$root/tests/install/CMakeLists.txt.in" "$tmp/cmake/CMakeLists.txt"
cmake -S "$tmp/cmake" -B "$tmp/cmake/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$tmp/cmake/build" >/dev/null
LD_LIBRARY_PATH=$libdir "$tmp/cmake/build/consumer"

export PKG_CONFIG_PATH=$(dirname "$(find "$prefix" -name tenferro.pc | head -1)")
flags=$(pkg-config --cflags --libs tenferro)
cc -std=c99 -Wall -Wextra -Werror "$root/tests/install/consumer.c" -o "$tmp/consumer_pc" \
  $flags -Wl,-rpath,"$libdir"
"$tmp/consumer_pc"
echo "installed tree: CMake package and pkg-config consumers ok"
