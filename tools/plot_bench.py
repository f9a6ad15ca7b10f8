#!/usr/bin/python3
"""Draws the ratio charts of docs/performance.md from the ratio tables the benchmarks write.

    build/bench/bench_ad --ratios_json=ad.json        (or TFE_BENCH_RATIOS_JSON=ad.json)
    tools/plot_bench.py --out ad.svg ad.json [more.json ...]

An input that is not JSON is read as text holding the console ratio tables the benchmarks print
(a saved console log, or docs/performance.md itself, where --section picks the "## " section
whose title contains the text):

    tools/plot_bench.py --out docs/images/bench_program_ad.svg docs/performance.md \\
        --section "Program AD"

One horizontal bar per case: ours / baseline of the median real times (1 = parity; a log scale when
the ratios span decades),
the goal as a tick, bars coloured by the result (ok, miss). Cases judged on an absolute time or
an overhead in nanoseconds (their baseline is a reference, not the same work) are not drawn;
they are listed under the chart with their time and goal.
Needs matplotlib (Debian: python3-matplotlib); the output format follows the file extension.
"""
import argparse
import json
import re
import sys


# One row of a console ratio table: goal id, case, baseline, ours, ratio, then goal, result, cv.
ROW = re.compile(r"^(?P<id>[A-Z]+\d+)\s+(?P<case>\S+)\s+(?P<b>[\d.]+ [nuµm]?s)\s+"
                 r"(?P<o>[\d.]+ [nuµm]?s)\s+(?P<r>[\d.]+)\s*(?P<rest>.*)$")
GOAL = re.compile(r"(<= [\d.]+ [nuµm]?s abs|<= base\+[\d.]+ [nuµm]?s|<= [\d.]+|\(report\))")
UNIT_NS = {"ns": 1, "us": 1e3, "µs": 1e3, "ms": 1e6, "s": 1e9}


def to_ns(text):
    value, unit = text.split()
    return float(value) * UNIT_NS[unit]


def parse_text(text, section):
    """Rows of the console ratio tables in text (within the "## " section matching `section`)."""
    cases, inside = [], section is None
    for line in text.splitlines():
        if line.startswith("## "):
            inside = section is None or section in line
            continue
        m = ROW.match(line.strip()) if inside else None
        if not m:
            continue
        rest = m.group("rest")
        g = GOAL.search(rest)
        result = "ok" if re.search(r"\bok\b", rest) else "miss" if "miss" in rest else ""
        cases.append({"goal_id": m.group("id"), "case": m.group("case"),
                      "baseline_ns": to_ns(m.group("b")), "ours_ns": to_ns(m.group("o")),
                      "ratio": float(m.group("r")), "goal": g.group(1) if g else "",
                      "result": result})
    return cases


def load(paths, section=None):
    cases, contexts = [], []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        try:
            data = json.loads(text)
        except ValueError:
            cases += parse_text(text, section)
            contexts.append(f"from {path}" + (f", section {section}" if section else ""))
            continue
        contexts.append(data.get("context", ""))
        for c in data["cases"]:
            if c.get("ratio") is not None:
                cases.append(c)
    return cases, contexts


def goal_ratio(goal):
    """The ratio limit of a goal text such as "<= 1.5"; None for absolute or overhead goals."""
    m = re.fullmatch(r"<= ([0-9.eE+-]+)", goal.strip())
    return float(m.group(1)) if m else None


def absolute(c):
    return " abs" in c["goal"] or "base+" in c["goal"]


def fmt_ns(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def plot(cases, contexts, out, title):
    notes = [f"{c['goal_id']} {c['case']}: {fmt_ns(c['ours_ns'])} ({c['goal']}, {c['result']})"
             for c in cases if absolute(c)]
    cases = [c for c in cases if not absolute(c)]
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    labels = [f"{c['goal_id']} {c['case']}" for c in cases]
    ratios = [c["ratio"] for c in cases]
    colours = ["#4c9a4c" if c["result"] == "ok" else "#c0504d" if c["result"] == "miss"
               else "#999999" for c in cases]
    height = 0.32 * len(cases) + 1.6
    fig, ax = plt.subplots(figsize=(8, height))
    y = range(len(cases))
    ax.barh(list(y), ratios, color=colours, height=0.6)
    for i, c in enumerate(cases):
        limit = goal_ratio(c["goal"])
        if limit is not None:
            ax.plot([limit, limit], [i - 0.4, i + 0.4], color="black", linewidth=1.5)
    ax.axvline(1.0, color="#555555", linewidth=0.8, linestyle="--")
    limits = [goal_ratio(c["goal"]) for c in cases]
    span = max(ratios + [x for x in limits if x]) / max(min(ratios), 1e-9)
    if span > 20:  # log scale only when the ratios span decades
        ax.set_xscale("log")
        ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    else:
        ax.set_xlim(0, 1.1 * max(ratios + [x for x in limits if x] + [1.0]))
    ax.set_yticks(list(y))
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("ours / baseline (median real time; black tick: goal; green ok, red miss)")
    ax.set_title(title, fontsize=10)
    footer = "; ".join(notes)
    if contexts:
        footer = contexts[0] + (("\n" + footer) if footer else "")
    bottom = (0.15 * (footer.count("\n") + 1)) / height  # the footer's lines, in inches
    if footer:
        fig.text(0.01, 0.005, footer, fontsize=6, color="#555555")
    fig.tight_layout(rect=(0, bottom + 0.02, 1, 1))
    # No creation date in an SVG, so a chart of the same numbers is the same file.
    fig.savefig(out, metadata={"Date": None} if out.endswith(".svg") else None)
    plt.close(fig)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("json", nargs="+", help="ratio tables (--ratios_json files, or console text)")
    p.add_argument("--out", required=True, help="the chart file (.svg or .png)")
    p.add_argument("--title", default="tenferro benchmarks: ours / baseline")
    p.add_argument("--section", help="only the Markdown section whose title contains this")
    args = p.parse_args(argv)
    cases, contexts = load(args.json, args.section)
    if not cases:
        print("plot_bench: no case with a ratio in " + ", ".join(args.json), file=sys.stderr)
        return 1
    plot(cases, contexts, args.out, args.title)
    print(f"plot_bench: {len(cases)} cases -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
