#!/usr/bin/env bash
# Installs every Debian package the build, the tests and the benchmarks need. Idempotent, and
# silent when everything is already present.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config
  libopenblas-dev liblapacke-dev libsleef-dev libboost-dev
  catch2 libcmocka-dev libbenchmark-dev
  swig python3-dev python3-numpy python3-scipy python3-pytest python3-torch
  gfortran clang-16 libclang-rt-16-dev clang-format doxygen graphviz python3-matplotlib binutils
  abigail-tools bindgen python3-clang-16 valgrind
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup-deps: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup-deps: need root (or sudo) to install packages" >&2; exit 1; }
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup-deps: done"
