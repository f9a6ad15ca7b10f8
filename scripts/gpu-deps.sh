#!/usr/bin/env bash
# Downloads, on this (Debian) machine, the packages that scripts/gpu-check.sh needs to build the
# library on a GPU machine that has CUDA, CMake and a compiler but none of the library's own
# dependencies and no network: OpenBLAS, LAPACKE, SLEEF, cmocka, the Boost.Math headers and their
# runtime libraries, as .deb files in <repo>/.gpu-debs (git-ignored; about 30 MB). Carry that
# folder to the GPU machine; gpu-check.sh unpacks it there only when the system lacks OpenBLAS.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest=$root/.gpu-debs
packages=(libopenblas0-pthread libopenblas-pthread-dev liblapacke liblapacke-dev libtmglib3
          libsleef3 libsleef-dev libcmocka0 libcmocka-dev libgfortran5 libquadmath0
          libboost1.74-dev)
mkdir -p "$dest"
cd "$dest"
rm -f ./*.deb
apt-get download "${packages[@]}"
du -sh "$dest"
