#!/usr/bin/env bash
# Builds bench_core (if needed) and runs it interleaved with >= 9 repetitions; the JSON of every
# repetition goes to bench/results/core-<date>-<commit>[-quick].json and the ratio table is the
# end of the console output.
#
#   bench/run.sh [--quick] [extra Google Benchmark flags, e.g. --benchmark_filter=G1]
#
#   --quick    3 repetitions of at least 0.05 s each: a smoke test, not numbers to quote.
# Environment: TFE_BENCH_BUILD_DIR (default build-bench at the repository root).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
build=${TFE_BENCH_BUILD_DIR:-$root/build-bench}

quick=0
args=()
for a in "$@"; do
  case "$a" in
    --quick) quick=1 ;;
    -h|--help) sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) args+=("$a") ;;
  esac
done

if [ ! -f "$build/CMakeCache.txt" ]; then
  gen=()
  if command -v ninja > /dev/null; then gen=(-G Ninja); fi
  cmake -S "$root" -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DTFE_BUILD_PYTHON=OFF
fi
cmake --build "$build" --target bench_core
exe="$build/bench/bench_core"
if [ ! -x "$exe" ]; then
  echo "run.sh: $exe was not built (is libbenchmark-dev installed?)" >&2
  exit 1
fi

mkdir -p "$here/results"
rev=$(git -C "$root" rev-parse --short HEAD 2> /dev/null || echo nogit)
if ! git -C "$root" diff --quiet HEAD 2> /dev/null; then rev="$rev-dirty"; fi
suffix=""
flags=(--benchmark_enable_random_interleaving=true --benchmark_repetitions=9)
if [ "$quick" = 1 ]; then
  suffix="-quick"
  flags=(--benchmark_enable_random_interleaving=true --benchmark_repetitions=3
         --benchmark_min_time=0.05)
fi
out="$here/results/core-$(date +%Y%m%d-%H%M%S)-$rev$suffix.json"

"$exe" "${flags[@]}" --benchmark_out="$out" --benchmark_out_format=json ${args[@]+"${args[@]}"}
echo "JSON: $out"
