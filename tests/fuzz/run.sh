#!/usr/bin/env bash
# Runs the C ABI fuzzer of a build made with -DTFE_BUILD_FUZZ=ON (tests/fuzz/README.md) for a
# bounded time over the committed corpus plus the inputs it finds; builds nothing.
#   tests/fuzz/run.sh <build-dir> [seconds] [libFuzzer flags...]      (default 60 s)
# New inputs go to <build-dir>/fuzz-corpus (the committed corpus is only read); a crash leaves
# its input in <build-dir>/fuzz-artifacts and makes this script fail. Flags after the seconds
# are passed on (a later flag wins over the same flag here).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: tests/fuzz/run.sh <build-dir> [seconds] [libFuzzer flags...]}
seconds=${2:-60}
shift $(($# < 2 ? $# : 2))
target="$build/tests/fuzz/tenferro_fuzz"
if [ ! -x "$target" ]; then
  echo "run.sh: $target not found (configure with -DTFE_BUILD_FUZZ=ON and build tenferro_fuzz)" >&2
  exit 2
fi
mkdir -p "$build/fuzz-corpus" "$build/fuzz-artifacts"
# Leak checks and the contract checks of the target itself are the findings; allocation failures
# of huge requests are statuses the target expects, not crashes.
# A single allocation above 1 GiB fails (ASan returns NULL, the library reports
# TFE_ERR_OUT_OF_MEMORY) instead of reaching libFuzzer's malloc limit, which would report a
# legitimate large request (a 2^31-element result of a broadcast view) as a crash; below 2 GiB,
# so such a result of one-byte elements fails at once too instead of being computed.
export ASAN_OPTIONS=${ASAN_OPTIONS:-allocator_may_return_null=1:detect_leaks=1}:max_allocation_size_mb=1024
symbolizer=$(command -v llvm-symbolizer-16 || command -v llvm-symbolizer || true)
[ -n "$symbolizer" ] && export ASAN_SYMBOLIZER_PATH=${ASAN_SYMBOLIZER_PATH:-$symbolizer}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
exec "$target" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -max_len=512 \
  -print_final_stats=1 -artifact_prefix="$build/fuzz-artifacts/" "$@" \
  "$build/fuzz-corpus" "$here/corpus"
