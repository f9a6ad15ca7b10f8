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

generator=()
command -v ninja > /dev/null && generator=(-G Ninja)
step configure cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DTFE_CUDA=ON -DTFE_WERROR=ON -DTFE_BUILD_PYTHON=OFF -DTFE_BUILD_FORTRAN=OFF \
  -DTFE_BUILD_EXAMPLES=OFF
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
