#!/usr/bin/env bash
# Fails when documentation, headers, sources, tests or bindings cite a documentation file that is
# not in the repository, or speak in internal shorthand a reader cannot look up. Checked:
#   - paths such as docs/eager-ad.md, docs/design/c-api.md, docs/ops/table.md (from the root);
#   - relative Markdown links in docs and READMEs ([text](../linalg.md#derivatives));
#   - other relative Markdown paths (design/style.md): from the root, docs/ or the citing file;
#   - bare Markdown file names (ad-contract.md) in comments: one file of that name must exist;
#   - "decision 0012" / "decisions 0006": docs/decisions/0012-*.md must exist;
#   - shorthand for where a request came from ("seed 003", "issue 6", "milestone 2").
# Usage: tools/check_doc_refs.sh [repository root]   (prints each offence; exit 1 if any)
set -euo pipefail
root=$(cd "${1:-$(dirname "$0")/..}" && pwd)
exec /usr/bin/env python3 - "$root" <<'PY'
import os, re, sys
root = sys.argv[1]
dirs = ["docs", "include", "src", "capi", "tests", "bindings", "tools", "bench", "examples",
        "cmake", "scripts"]
top = ["README.md", "CMakeLists.txt"]
# A frozen copy of the released headers (the ABI baseline) is compared, never edited.
skip_dirs = {os.path.join("tests", "abi", "baseline_include"), os.path.join("bindings", "rust", "target")}
exts = {".md", ".h", ".hpp", ".c", ".cpp", ".py", ".i", ".rs", ".f90", ".jl", ".txt", ".cmake",
        ".sh", ".toml"}

files = [f for f in top if os.path.exists(os.path.join(root, f))]
for d in dirs:
    for base, subdirs, names in os.walk(os.path.join(root, d)):
        rel = os.path.relpath(base, root)
        subdirs[:] = [s for s in subdirs if os.path.join(rel, s) not in skip_dirs
                      and not s.startswith(".") and s not in ("__pycache__", "target")]
        for n in names:
            if os.path.splitext(n)[1] in exts or n == "CMakeLists.txt":
                files.append(os.path.join(rel, n))

md_names = set()
for base, subdirs, names in os.walk(root):
    subdirs[:] = [s for s in subdirs if not s.startswith(".") and not s.startswith("build")]
    md_names.update(n for n in names if n.endswith(".md"))
decisions = {n[:4] for n in os.listdir(os.path.join(root, "docs", "decisions"))}

path_ref = re.compile(r"(?<![\w/.-])(docs/[\w./-]+\.(?:md|svg|png))")
link_ref = re.compile(r"\]\(([^)#\s]+\.(?:md|svg|png))(?:#[^)]*)?\)")
bare_ref = re.compile(r"(?<![\w/.-])([\w-]+\.md)\b")
# Other relative paths to a Markdown file (design/style.md): from the root, docs/ or the file.
rel_ref = re.compile(r"(?<![\w/.$-])((?:[\w.-]+/)+[\w-]+\.md)\b")
doc_dirs = [os.path.join(root, "docs", d) for d in os.listdir(os.path.join(root, "docs"))
            if os.path.isdir(os.path.join(root, "docs", d))]
decision_ref = re.compile(r"\bdecisions? (\d{4})((?:(?:,| and| or) \d{4})*)")
shorthand = re.compile(r"\b(seed \d{3}|seeds? 0\d\d|milestone \d+\w?|issue \d+|\.\./shared/)", re.I)

bad = []
me = os.path.join("tools", "check_doc_refs.sh")
for f in files:
    if f == me:
        continue
    try:
        text = open(os.path.join(root, f), encoding="utf-8").read()
    except (UnicodeDecodeError, OSError):
        continue
    for ln, line in enumerate(text.splitlines(), 1):
        where = f"{f}:{ln}"
        for m in path_ref.finditer(line):
            if not os.path.exists(os.path.join(root, m.group(1).rstrip("."))):
                bad.append(f"{where}: {m.group(1)} does not exist")
        if f.endswith(".md"):
            for m in link_ref.finditer(line):
                target = m.group(1)
                if "://" in target:
                    continue
                if not os.path.exists(os.path.normpath(os.path.join(root, os.path.dirname(f), target))):
                    bad.append(f"{where}: link {target} does not exist")
        for m in rel_ref.finditer(line):
            ref = m.group(1)
            if ref.startswith("docs/") or "://" in line[max(0, m.start() - 12):m.start()]:
                continue
            bases = [root, os.path.join(root, "docs"), os.path.join(root, os.path.dirname(f))]
            bases += doc_dirs  # text emitted into a docs/ subfolder (the op table)
            if not any(os.path.exists(os.path.normpath(os.path.join(b, ref))) for b in bases):
                bad.append(f"{where}: {ref} does not exist")
        for m in bare_ref.finditer(line):
            before = line[max(0, m.start() - 2):m.start()]
            if f.endswith(".md") and (before == "](" or before.endswith("[")):
                continue  # a Markdown link: checked above
            if m.group(1) not in md_names:
                bad.append(f"{where}: {m.group(1)} is no file of the repository")
        for m in decision_ref.finditer(line):
            for num in [m.group(1)] + re.findall(r"\d{4}", m.group(2) or ""):
                if num not in decisions:
                    bad.append(f"{where}: decision {num} is not in docs/decisions/")
        for m in shorthand.finditer(line):
            bad.append(f"{where}: internal shorthand \"{m.group(1)}\": say what the behaviour is")
for b in bad:
    print(b)
print(f"check_doc_refs: {len(files)} files, {len(bad)} problem(s)")
sys.exit(1 if bad else 0)
PY
