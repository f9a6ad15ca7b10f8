#!/usr/bin/env bash
# The layers of src/ in order, lowest first (docs/architecture.md): a file may include its own
# layer and the layers below it, never one above. Fails naming each include that goes up.
#   tools/check_layers.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
layers=(core ops backend graph eager ad linalg dataflow einsum runtime)
rank() {
  local i
  for i in "${!layers[@]}"; do [ "${layers[$i]}" = "$1" ] && { echo "$i"; return; }; done
  echo -1
}
bad=0
for dir in "$root"/src/*/; do
  layer=$(basename "$dir")
  r=$(rank "$layer")
  if [ "$r" -lt 0 ]; then
    echo "check_layers: src/$layer is not in the layer list (tools/check_layers.sh, docs/architecture.md)"
    bad=1
    continue
  fi
  while IFS=: read -r file target; do
    t=$(rank "$target")
    if [ "$t" -gt "$r" ]; then
      echo "check_layers: ${file#"$root"/} (layer $layer) includes $target, a layer above it"
      bad=1
    fi
  done < <(grep -rHoE '#include "[a-z_]+/' "$dir" | sed -E 's|#include "([a-z_]+)/|\1|')
done
[ "$bad" -eq 0 ] && echo "check_layers: ${#layers[@]} layers, no include goes up"
exit "$bad"
