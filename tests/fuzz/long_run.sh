#!/usr/bin/env bash
# A long fuzzing run in the background of a shared machine: one libFuzzer process at a time, at
# the lowest priority (tests/fuzz/run.sh: the same corpus, options and artifacts), in chunks of
# ten minutes so that every chunk ends with libFuzzer's exact final statistics. A chunk writes
# to <build-dir>/fuzz-chunk.log, appended to <build-dir>/fuzz-long.log when it ends;
# <build-dir>/fuzz-progress.log gets a status line every minute (executions, coverage cov,
# features ft, corpus size), each chunk's execution count and at the end the total.
# A chunk that finds something stops the run. FUZZ_NICE (0-19, default 19) sets the priority: 19
# yields to any build; a middle value such as 5 keeps a share of the machine beside builds, so
# that libFuzzer's per-input timeout is not hit by a fuzzer that gets no CPU at all.
#   [FUZZ_NICE=n] tests/fuzz/long_run.sh <build-dir> <seconds> [libFuzzer flags...]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: tests/fuzz/long_run.sh <build-dir> <seconds> [libFuzzer flags...]}
seconds=${2:?usage: tests/fuzz/long_run.sh <build-dir> <seconds> [libFuzzer flags...]}
shift 2
# Under the kernel's autogroup scheduling, nice ranks processes only within one session: the
# session's group is lowered too, or the fuzzer takes half the machine from builds run elsewhere.
nice_level=${FUZZ_NICE:-19}
{ [ -w /proc/self/autogroup ] && echo "$nice_level" >/proc/self/autogroup; } 2>/dev/null || true
log="$build/fuzz-long.log" part="$build/fuzz-chunk.log" progress="$build/fuzz-progress.log"
chunk=600 total=0 status=0
end=$(($(date +%s) + seconds))
stamp() { date -u +%FT%TZ; }
echo "$(stamp) long run of $seconds s: run.sh $build <chunk> $*" >>"$progress"
while [ "$(date +%s)" -lt "$end" ]; do
  left=$((end - $(date +%s)))
  nice -n "$nice_level" "$here/run.sh" "$build" $((left < chunk ? left : chunk)) "$@" >"$part" 2>&1 &
  fuzzer=$!
  # libFuzzer prints a status line for each new input and at every power of two executions.
  while kill -0 "$fuzzer" 2>/dev/null; do
    sleep 60
    echo "$(stamp) $(grep -a '^#[0-9]' "$part" | tail -n 1)" >>"$progress"
  done
  wait "$fuzzer"
  status=$?
  cat "$part" >>"$log"
  runs=$(grep -a '^stat::number_of_executed_units' "$part" | awk '{print $2}')
  total=$((total + ${runs:-0}))
  echo "$(stamp) chunk ended with status $status: ${runs:-?} executions ($total in all)" >>"$progress"
  [ "$status" -eq 0 ] || break
done
echo "$(stamp) long run ended with status $status: $total executions" >>"$progress"
exit "$status"
