#!/usr/bin/env bash
# Installs the Python package as a user would and runs the examples against the installed copy.
#
#   bindings/python/test_install.sh [BUILD_DIR]
#
# 1. A fresh venv (--system-site-packages, for NumPy) from /usr/bin/python3 gets
#    `pip install --no-build-isolation --no-index .` of the repository (setup.py drives CMake in
#    $TFE_PIP_BUILD_DIR, default build-pip/); the examples in bindings/python/examples then run
#    from a scratch directory outside the source tree, and the module must load the libtenferro
#    bundled inside the installed package.
# 2. With BUILD_DIR (a configured build with the Python module), `cmake --install` of that build
#    into a scratch prefix must give an importable package that finds the prefix's libtenferro.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PY=${TFE_TEST_PYTHON:-/usr/bin/python3}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tenferro-install.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

echo "== pip install into a fresh venv ($WORK/venv)"
"$PY" -m venv --system-site-packages "$WORK/venv"
VPY="$WORK/venv/bin/python"
PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
  "$VPY" -m pip install -q --no-build-isolation --no-index "$ROOT"

check_loaded_from() {  # python, expected directory prefix of the package and of libtenferro
  (cd "$WORK" && "$1" - "$2" <<'PYEOF'
import os, sys
import tenferro as tf
want = os.path.realpath(sys.argv[1])
pkg = os.path.realpath(os.path.dirname(tf.__file__))
assert pkg.startswith(want), f"tenferro imported from {pkg}, not under {want}"
libs = {line.split()[-1] for line in open("/proc/self/maps") if "libtenferro" in line}
assert libs and all(os.path.realpath(p).startswith(want) for p in libs), \
    f"libtenferro loaded from {sorted(libs)}, not under {want}"
print(f"   tenferro {tf.__version__} from {pkg}; libtenferro from {sorted(libs)[0]}")
# With the CUDA toolkit present the package bundles the CUDA plugin, which the library finds
# beside itself on the first device request.
import shutil
plugin = os.path.join(os.path.dirname(os.path.realpath(sorted(libs)[0])), "libtenferro_cuda.so")
if shutil.which("nvcc"):
    assert os.path.exists(plugin), f"{plugin} is missing although nvcc is present"
if os.path.exists(plugin):
    n = tf.device_count("cuda")
    maps = {line.split()[-1] for line in open("/proc/self/maps") if "libtenferro_cuda" in line}
    assert maps and all(os.path.realpath(p).startswith(want) for p in maps), \
        f"the CUDA plugin loaded from {sorted(maps)}, not under {want}"
    print(f"   CUDA plugin from {sorted(maps)[0]}: {n} device(s)")
PYEOF
  )
}
check_loaded_from "$VPY" "$WORK/venv"

echo "== examples (from $WORK, outside the source tree)"
shopt -s nullglob
examples=("$ROOT"/bindings/python/examples/*.py)
[ ${#examples[@]} -gt 0 ] || { echo "no examples found"; exit 1; }
for ex in "${examples[@]}"; do
  echo "-- $(basename "$ex")"
  (cd "$WORK" && PYTHONDONTWRITEBYTECODE=1 "$VPY" "$ex" > "$WORK/out.txt") \
    || { cat "$WORK/out.txt"; echo "FAILED: $ex"; exit 1; }
done

echo "== pip uninstall"
"$VPY" -m pip uninstall -q -y tenferro
if (cd "$WORK" && "$VPY" -c "import tenferro" 2>/dev/null); then
  echo "tenferro still importable after uninstall"; exit 1
fi

if [ $# -ge 1 ]; then
  BUILD=$(cd "$1" && pwd)
  echo "== cmake --install $BUILD (library and Python package) into $WORK/prefix"
  cmake --install "$BUILD" --prefix "$WORK/prefix" > /dev/null
  SITE=$("$PY" -c "import sys, sysconfig; p = sys.argv[1]; print(sysconfig.get_path('platlib',
    'posix_prefix', vars={'base': p, 'platbase': p}))" "$WORK/prefix")
  PYTHONPATH="$SITE" check_loaded_from "$PY" "$WORK/prefix"
fi
echo "install test passed"
