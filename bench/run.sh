#!/usr/bin/env bash
# Builds a benchmark (bench_core by default) and runs it interleaved with >= 9 repetitions; the
# JSON of every repetition goes to bench/results/<name>-<date>-<commit>[-quick].json and the
# ratio table is the end of the console output.
#
#   bench/run.sh [--quick] [--bench core|ad|eager_ad|linalg|dataflow|cxx_overhead|einsum] [extra Google Benchmark flags, e.g.
#                --benchmark_filter=G1]
#
#   --quick    3 repetitions of at least 0.05 s each: a smoke test, not numbers to quote.
#   --bench    which executable: core (G*), ad (program AD, A*), eager_ad (eager AD, E*),
#              linalg (L*), dataflow (D*), einsum (N*).
# Environment: TFE_BENCH_BUILD_DIR (default build-bench at the repository root).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
build=${TFE_BENCH_BUILD_DIR:-$root/build-bench}

quick=0
name=core
args=()
while [ $# -gt 0 ]; do
  a=$1
  shift
  case "$a" in
    --quick) quick=1 ;;
    --bench) name=${1:?--bench needs a name}; shift ;;
    --bench=*) name=${a#--bench=} ;;
    -h|--help) sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) args+=("$a") ;;
  esac
done

if [ ! -f "$build/CMakeCache.txt" ]; then
  gen=()
  if command -v ninja > /dev/null; then gen=(-G Ninja); fi
  cmake -S "$root" -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DTFE_BUILD_PYTHON=OFF
fi
case "$name" in
  core|ad|eager_ad|linalg|dataflow|cxx_overhead|einsum) ;;
  *) echo "run.sh: unknown benchmark '$name' (core, ad, eager_ad or linalg)" >&2; exit 2 ;;
esac
cmake --build "$build" --target "bench_$name"
exe="$build/bench/bench_$name"
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
out="$here/results/$name-$(date +%Y%m%d-%H%M%S)-$rev$suffix.json"

"$exe" "${flags[@]}" --benchmark_out="$out" --benchmark_out_format=json ${args[@]+"${args[@]}"}
echo "JSON: $out"
