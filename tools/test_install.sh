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

# The Fortran module, when the build made it: its .mod files, CMake package and pkg-config entry,
# and a consumer built through pkg-config.
fpc=$(find "$prefix" -name tenferro-fortran.pc | head -1)
if [ -n "$fpc" ]; then
  test -f "$(find "$prefix" -path '*tenferro/fortran/tenferro.mod' | head -1)"
  test -f "$(find "$prefix" -path '*tenferro/fortran/tenferro_c.mod' | head -1)"
  test -f "$(find "$prefix" -name tenferroFortranConfig.cmake | head -1)"
  cp "$root/tests/install/consumer.f90" "$tmp/"
  # shellcheck disable=SC2046
  gfortran "$tmp/consumer.f90" $(PKG_CONFIG_PATH=$(dirname "$fpc"):$PKG_CONFIG_PATH \
    pkg-config --cflags --libs tenferro-fortran) -Wl,-rpath,"$libdir" -o "$tmp/consumer_f"
  LD_LIBRARY_PATH=$libdir "$tmp/consumer_f" # the Fortran library finds libtenferro there too
  echo "installed tree: Fortran module, CMake package and pkg-config consumer ok"
fi
