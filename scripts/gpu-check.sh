#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: configure and build (Release) only what the CUDA checks need
# into build-gpu, run the CUDA tests (ctest -R cuda) and the CUDA benchmark, print a summary.
# Exits non-zero when any step fails. Well under 8 minutes on 16 cores: the benchmark (the public
# C API against direct cuBLAS/cuSOLVER calls, about 3 minutes on an H200) is cut off after
# TFE_GPU_BENCH_TIMEOUT seconds; its lines are printed as they come, so a cut run still shows the
# cases it finished.
#   TFE_GPU_BUILD          build directory (default: <repo>/build-gpu)
#   TFE_GPU_JOBS           parallel jobs (default: 16)
#   TFE_GPU_TARGETS        extra targets to build, for further CUDA test suites
#   TFE_GPU_BENCH_TIMEOUT  seconds the benchmark may take (default: 210)
#   TFE_GPU_FORCE_DEBS     use the carried .gpu-debs even where OpenBLAS is installed (to test
#                          that path on a machine that has everything)
# A GPU machine without OpenBLAS and the other dependencies (and no network) builds from the
# Debian packages that scripts/gpu-deps.sh downloads into .gpu-debs (git-ignored: carry it).
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${TFE_GPU_BUILD:-$root/build-gpu}
jobs=${TFE_GPU_JOBS:-16}
bench_timeout=${TFE_GPU_BENCH_TIMEOUT:-210}
targets="tenferro tenferro_cuda test_cuda_plugin test_cuda_linalg test_capi_device test_device_indexing test_device_transfer bench_cuda ${TFE_GPU_TARGETS:-}"
start=$SECONDS
results=()
failed=0

# Runs a step, records its outcome and duration.
step() {
  local name=$1
  shift
  local t0=$SECONDS
  echo "==== $name"
  if "$@"; then
    results+=("ok     $name ($((SECONDS - t0)) s)")
  else
    results+=("FAILED $name ($((SECONDS - t0)) s)")
    failed=1
  fi
}

summary() {
  echo "==== summary ($((SECONDS - start)) s)"
  printf '  %s\n' "${results[@]}"
  [ "$failed" -eq 0 ] && echo "gpu-check: passed" || echo "gpu-check: FAILED"
}

if command -v nvidia-smi > /dev/null; then
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
else
  echo "gpu-check: nvidia-smi not found; the tests will report what the driver gives"
fi

# A GPU machine with CUDA, CMake and a compiler but without the library's own dependencies (and
# no network): the packages scripts/gpu-deps.sh downloaded on a Debian machine (.gpu-debs,
# carried along) are unpacked into a private prefix and named to CMake one by one.
unpack() { # deb file, destination
  if command -v dpkg-deb > /dev/null; then
    dpkg-deb -x "$1" "$2"
  else
    local member
    member=$(ar t "$1" | grep '^data\.tar')
    case $member in
      *.xz) ar p "$1" "$member" | tar -xJ -C "$2" ;;
      *.zst) ar p "$1" "$member" | zstd -dc | tar -x -C "$2" ;;
      *) ar p "$1" "$member" | tar -xz -C "$2" ;;
    esac
  fi
}
deps=()
if [ -n "${TFE_GPU_FORCE_DEBS:-}" ] || ! ls /usr/include/x86_64-linux-gnu/openblas-pthread/cblas.h \
  /usr/include/openblas/cblas.h /usr/include/cblas.h > /dev/null 2>&1; then
  if [ ! -d "$root/.gpu-debs" ]; then
    echo "gpu-check: OpenBLAS is not installed here and .gpu-debs was not carried" \
      "(run scripts/gpu-deps.sh on a Debian machine and carry .gpu-debs)"
    exit 1
  fi
  prefix=${TFE_GPU_DEPS_PREFIX:-/tmp/tfe-gpu-deps}
  mkdir -p "$prefix"
  for deb in "$root"/.gpu-debs/*.deb; do unpack "$deb" "$prefix"; done
  inc=$prefix/usr/include
  lib=$prefix/usr/lib/x86_64-linux-gnu
  export LD_LIBRARY_PATH="$lib/openblas-pthread:$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  deps=(-DTFE_CBLAS_INCLUDE_DIR="$inc/x86_64-linux-gnu/openblas-pthread"
        -DTFE_OPENBLAS_LIBRARY="$lib/openblas-pthread/libopenblas.so"
        -DTFE_LAPACKE_INCLUDE_DIR="$inc" -DTFE_LAPACKE_LIBRARY="$lib/liblapacke.so.3"
        -DTFE_SLEEF_INCLUDE_DIR="$inc/x86_64-linux-gnu" -DTFE_SLEEF_LIBRARY="$lib/libsleef.so.3"
        -DCMOCKA_INCLUDE_DIR="$inc" -DCMOCKA_LIBRARY="$lib/libcmocka.so.0"
        -DTFE_BOOST_MATH_DIR="$inc"
        "-DCMAKE_EXE_LINKER_FLAGS=-Wl,-rpath-link,$lib/openblas-pthread:$lib"
        "-DCMAKE_SHARED_LINKER_FLAGS=-Wl,-rpath-link,$lib/openblas-pthread:$lib")
  echo "gpu-check: dependencies from .gpu-debs in $prefix"
fi

generator=()
command -v ninja > /dev/null && generator=(-G Ninja)
# Warnings are CI's business (with its compiler); another compiler's new warnings must not stop
# the one GPU run.
step configure cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DTFE_CUDA=ON -DTFE_WERROR=OFF -DTFE_BUILD_PYTHON=OFF -DTFE_BUILD_FORTRAN=OFF \
  -DTFE_BUILD_EXAMPLES=OFF "${deps[@]}"
if [ "$failed" -ne 0 ]; then
  summary
  exit 1
fi
# bench_cuda links the library (tenferro) and loads the plugin (tenferro_cuda), both listed.
# shellcheck disable=SC2086 # the target list is split on purpose
step build cmake --build "$build" -j "$jobs" --target $targets
if [ "$failed" -ne 0 ]; then
  summary
  exit 1
fi
step "ctest -R cuda" ctest --test-dir "$build" -R cuda -V --timeout 300
step bench_cuda timeout "$bench_timeout" "$build/bench/bench_cuda" "$build/libtenferro_cuda.so"
summary
exit "$failed"
