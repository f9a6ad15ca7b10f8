#!/usr/bin/env bash
# Checks the Fortran and Julia bindings against a tenferro build tree: the generated files are
# current and wrap every exported function; the Fortran module, its tests (under valgrind when
# present) and the Ising example build and pass in a scratch CMake project that imports the
# built library; then the Julia driver runs (it skips with a line when julia is absent).
# Usage: bindings/fortran/test.sh BUILD_DIR
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [ $# -ne 1 ]; then
  echo "usage: $0 BUILD_DIR (the directory holding libtenferro.so)" >&2
  exit 2
fi
build=$(cd "$1" && pwd) || exit 2
failed=()
"$root/tools/gen_bindings/check.sh" "$build" || failed+=("generated bindings")

if command -v gfortran >/dev/null 2>&1; then
  scratch=${TFE_FORTRAN_BUILD_DIR:-${TMPDIR:-/tmp}/tenferro-fortran-$(id -u)}
  mkdir -p "$scratch/src"
  cat >"$scratch/src/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(tenferro_fortran_check C Fortran)
enable_testing()
add_library(tenferro SHARED IMPORTED)
set_target_properties(tenferro PROPERTIES IMPORTED_LOCATION "$build/libtenferro.so"
  INTERFACE_INCLUDE_DIRECTORIES "$root/include")
add_subdirectory("$here" fortran)
CMAKE
  if cmake -S "$scratch/src" -B "$scratch/build" -G Ninja >/dev/null &&
    cmake --build "$scratch/build" -j "${TFE_JOBS:-2}" >/dev/null; then
    ctest --test-dir "$scratch/build" --output-on-failure || failed+=("fortran ctest")
  else
    failed+=("fortran build")
  fi
else
  echo "skip: gfortran not found (Fortran tests not run)"
fi

TENFERRO_LIB=$build/libtenferro.so "$root/bindings/julia/test.sh" || failed+=("julia")

if [ ${#failed[@]} -eq 0 ]; then
  echo "fortran/julia bindings: PASS"
else
  echo "fortran/julia bindings: FAIL (${failed[*]})"
  exit 1
fi
