#!/usr/bin/env bash
# Builds the C API reference (HTML) from the public headers; fails on any Doxygen warning.
# Usage: tools/build_api_docs.sh [doxygen] [output dir]
set -euo pipefail
dox=${1:-doxygen}
out=${2:-build-docs}
mkdir -p "$out"
{ cat docs/Doxyfile; echo "OUTPUT_DIRECTORY = $out"; } | "$dox" -
echo "API reference: $out/html/index.html"
