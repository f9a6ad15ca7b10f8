#!/usr/bin/env bash
# Renders the example graphs of docs/program-ad.md and docs/eager-ad.md with Graphviz: builds
# tools/doc_graphs.c against a build tree's library, runs it for the DOT text
# (tfe_function_to_dot, tfe_autograd_to_dot) and writes docs/images/<name>.svg. Fails when a
# graph does not render. With --check, renders into a temporary folder and leaves docs/ alone
# (the CI check that the printers' output renders).
# Usage: tools/render_doc_graphs.sh <build dir> [--check]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:?usage: tools/render_doc_graphs.sh <build dir> [--check]}" && pwd)
command -v dot > /dev/null || { echo "render_doc_graphs: graphviz (dot) is not installed" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$root/docs/images
[ "${2:-}" = --check ] && out=$work/svg
mkdir -p "$out"
cc -std=c99 -Wall -Wextra -Werror -I"$root/include" "$root/tools/doc_graphs.c" \
  -L"$build" -Wl,-rpath,"$build" -ltenferro -o "$work/doc_graphs"
"$work/doc_graphs" "$work"
for f in "$work"/*.dot; do
  name=$(basename "$f" .dot)
  dot -Tsvg "$f" -o "$out/$name.svg"
  echo "render_doc_graphs: $out/$name.svg"
done
