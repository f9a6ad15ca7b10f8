#!/usr/bin/env bash
# Runs the Julia package's tests where julia is installed; elsewhere prints a skip line (and
# counts as not run, not as passed). TENFERRO_LIB names the library to load.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v julia >/dev/null 2>&1; then
  echo "skip: julia not found (Julia tests not run)"
  exit 0
fi
exec julia --startup-file=no --project="$here/Tenferro" -e 'using Pkg; Pkg.test()'
