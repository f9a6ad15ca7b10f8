#!/usr/bin/env bash
# The Python suite once under valgrind's memcheck, against the module of a RelWithDebInfo build:
#   tests/memcheck/python_valgrind.sh <build-dir> [pytest arguments; default: the whole suite]
# Counts only errors with a frame in the library or its module (the interpreter, NumPy and
# PyTorch have their own, outside this project), and fails on any of them, on a definite leak
# from the library, or on handles still live at exit (the suite's own leak test checks those).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:?usage: tests/memcheck/python_valgrind.sh <build-dir> [pytest arguments...]}
shift
command -v valgrind >/dev/null || { echo "skip: valgrind not found"; exit 0; }
work=$(mktemp -d)
log=$work/memcheck.xml
# PyTorch executes instructions valgrind cannot decode (rdtscp): under memcheck it is hidden, so
# the tests that compare with it skip (they use pytest.importorskip) and the others run.
mkdir -p "$work/hide/torch"
echo 'raise ImportError("torch is not run under valgrind")' >"$work/hide/torch/__init__.py"
start=$(date +%s)
# PYTHONMALLOC=malloc: every object through malloc, so memcheck sees the interpreter's memory as
# it sees the library's (pymalloc's arenas otherwise read as uninitialised).
PYTHONMALLOC=malloc PYTHONPATH="$work/hide:$build/python" PYTHONDONTWRITEBYTECODE=1 \
  valgrind --tool=memcheck --xml=yes --xml-file="$log" --leak-check=full \
  --show-leak-kinds=definite --num-callers=40 --child-silent-after-fork=yes \
  /usr/bin/python3 -m pytest -q -p no:cacheprovider "${@:-$root/bindings/python/tests}"
status=$?
elapsed=$(( $(date +%s) - start ))
ours=$(/usr/bin/python3 - "$log" <<'PY'
import sys, xml.etree.ElementTree as ET
errors = ET.parse(sys.argv[1]).getroot().findall("error")
def ours(e):
    fns = [f.findtext("fn") or "" for f in e.iter("frame")]
    # SWIG's runtime makes its global-variable object while the module is torn down at exit;
    # nothing frees it after that (SWIG code, not the library's).
    if any(fn == "SWIG_globals" for fn in fns):
        return False
    for f in e.iter("frame"):
        obj = (f.findtext("obj") or "") + (f.findtext("file") or "")
        if "libtenferro" in obj or "_tenferro" in obj or "/work/" in (f.findtext("dir") or ""):
            return True
    return False
mine = [e for e in errors if ours(e)]
for e in mine[:20]:
    print(e.findtext("kind"), "|", (e.findtext("what") or e.findtext("xwhat/text") or "").strip())
print(f"TOTAL {len(mine)} of {len(errors)}")
PY
)
echo "$ours"
echo "python_valgrind: pytest status $status, ${elapsed} s, xml in $log"
case "$ours" in *"TOTAL 0 of"*) [ "$status" -eq 0 ] ;; *) exit 1 ;; esac
