#!/usr/bin/env python3
"""tenferro's einsum against NumPy and PyTorch, in one process, on the cases of bench/einsum.cpp
N5..N9 (a 5-matrix chain of mixed sizes, an MPS transfer-matrix step, a ring of four tensors,
a batched outer product, a trace).

    PYTHONPATH=<build>/python /usr/bin/python3 bench/einsum_peers.py [--quick] [--threads N]

Each library is timed on the same logical float64 operands (C-order NumPy arrays; tenferro also
on Fortran-order copies, its native layout), warm-up first, then the median of repetitions that
run round-robin over the libraries so that load on the machine hits them alike. Printed:

- the time table with ours / the faster peer and the goals (<= 1.0x the faster peer on every
  case, <= 0.8x on the MPS step; decision 0041 says why the chain's goal is parity and why the
  batched outer product is compared with PyTorch writing tenferro's column-major layout, the
  "torch cm" column); goals are reported, never asserted;
- for every case with at most 8 operands, tenferro's path and flops (tf.einsum_path, the cost
  model of docs/einsum.md) next to numpy.einsum_path(optimize='optimal') and its "Optimized FLOP
  count", and both paths priced by one cost function computed here (see path_cost), which says
  whether the orders are equally cheap.

numpy.einsum(optimize=True) searches greedily on every call; numpy.einsum_path('optimal') limits
intermediates to the largest operand or output by default, so its path can differ from an
unconstrained optimum. torch.einsum contracts left to right unless the opt_einsum package is
installed (printed). --quick uses tiny sizes and few repetitions: a smoke test (it also checks
that every library gives the same result), not numbers to quote. The exit status is non-zero
only when results differ.
"""

import argparse
import os
import re
import statistics
import sys
import time

import numpy as np
import torch

import tenferro as tf


def chain5(scale):
    d = [1200, 80, 1800, 60, 1600, 1000] if scale == 1 else [12, 8, 18, 6, 16, 10]
    return "ab,bc,cd,de,ef->af", [(d[k], d[k + 1]) for k in range(5)], None


def mps(scale):
    # E [a,c], A [a,s,b] entering twice (real: the conjugate of A is A).
    b = 64 if scale == 1 else 4
    return "ac,asb,csd->bd", [(b, b), (b, 2, b)], [0, 1, 1]


def ring(scale):
    # Four site tensors [bond, bond, physical] on a ring; sites 0 and 2 share one physical leg,
    # sites 1 and 3 the other, so the network is closed (a scalar).
    bond, phys = (16, 8) if scale == 1 else (3, 2)
    return "abp,bcq,cdp,daq->", [(bond, bond, phys)] * 4, None


def outer(scale):
    n = 128 if scale == 1 else 4
    return "bi,bj->bij", [(n, n), (n, n)], None


def trace(scale):
    n = 2000 if scale == 1 else 20
    return "ii->", [(n, n)], None


def torch_outer_column_major(x, y):
    """PyTorch writing the batched outer product in tenferro's layout (b fastest, column-major
    operands): the same memory traffic as ours, where torch.einsum writes C order (j fastest)."""
    xf, yf = x.t().contiguous().t(), y.t().contiguous().t()
    n = (x.shape[0], x.shape[1], y.shape[1])

    def run():
        out = torch.empty(n[0] * n[1] * n[2], dtype=x.dtype).as_strided(n, (1, n[0], n[0] * n[1]))
        return torch.mul(xf[:, :, None], yf[:, None, :], out=out)
    return run


# id (bench/einsum.cpp's goal id), name, maker, goal on ours / the faster peer, and for a case
# whose result layout decides its speed, a PyTorch computation writing tenferro's layout: the
# goal is then on ours / the faster peer in that layout (decision 0041).
CASES = [
    ("N5", "chain of 5 matrices", chain5, 1.0, None),
    ("N6", "MPS transfer step", mps, 0.8, None),
    ("N7", "ring of 4 tensors", ring, 1.0, None),
    ("N8", "batched outer product", outer, 1.0, torch_outer_column_major),
    ("N9", "trace 2000x2000", trace, 1.0, None),
]


def operands_of(shapes, uses, rng):
    arrays = [rng.standard_normal(s) for s in shapes]
    return [arrays[k] for k in (uses if uses is not None else range(len(arrays)))]


def time_round_robin(fns, repetitions, min_time):
    """Median seconds per call of each function. Each is warmed up and calibrated to run for at
    least min_time per repetition; the repetitions alternate between the functions."""
    loops = {}
    for name, fn in fns.items():
        for _ in range(3):
            fn()
        n, t = 1, 0.0
        while True:
            start = time.perf_counter()
            for _ in range(n):
                fn()
            t = time.perf_counter() - start
            if t >= min_time or n >= 1 << 20:
                break
            n *= 2 if t <= 0 else max(2, min(10, int(min_time / t * 1.2) + 1))
        loops[name] = n
    samples = {name: [] for name in fns}
    for _ in range(repetitions):
        for name, fn in fns.items():
            n = loops[name]
            start = time.perf_counter()
            for _ in range(n):
                fn()
            samples[name].append((time.perf_counter() - start) / n)
    return {name: statistics.median(s) for name, s in samples.items()}


def parse(subscripts, n):
    """Input terms and output term (letters only; implicit output as NumPy's)."""
    s = subscripts.replace(" ", "")
    lhs, arrow, out = s.partition("->")
    terms = lhs.split(",")
    assert len(terms) == n and "." not in s, subscripts
    if not arrow:
        counts = {c: lhs.count(c) for c in set(lhs.replace(",", ""))}
        out = "".join(sorted(c for c, k in counts.items() if k == 1))
    return terms, out


def path_cost(subscripts, shapes, path):
    """One cost function for any path in numpy.einsum_path's convention (tuples of positions in
    the current list; the result is appended). A step over k operands costs the product of the
    extents of every index they hold times (max(1, k - 1) + 1 if it sums an index, else +0):
    for pairs this is both docs/einsum.md's model and NumPy's _flop_count. Indices private to
    one operand are summed in the first step that touches it (NumPy's accounting; tenferro sums
    them before its first step and leaves them out of its flops), and an operand left with
    indices the output lacks after the path pays one final reduction step (a one-operand trace
    has an empty tenferro path)."""
    terms, out = parse(subscripts, len(shapes))
    size = {}
    for t, shape in zip(terms, shapes):
        for c, e in zip(t, shape):
            size[c] = max(size.get(c, 1), e)
    current = [set(t) for t in terms]
    cost = 0.0

    def step(positions):
        nonlocal cost
        held = set().union(*(current[p] for p in positions))
        rest = set(out).union(*(current[p] for p in range(len(current)) if p not in positions))
        kept = held & rest
        factor = max(1, len(positions) - 1) + (1 if held - kept else 0)
        cost += float(np.prod([size[c] for c in held])) * factor
        for p in sorted(positions, reverse=True):
            current.pop(p)
        current.append(kept)

    for positions in path[1:]:
        step(tuple(positions))
    if len(current) == 1 and current[0] != set(out):
        step((0,))
    return cost


def numpy_optimized_flops(info):
    m = re.search(r"Optimized FLOP count:\s*([0-9.eE+-]+)", info)
    return float(m.group(1)) if m else float("nan")


def fmt_time(s):
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if s >= scale:
            return "%.3g %s" % (s / scale, unit)
    return "%.3g ns" % (s / 1e-9)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="tiny sizes, 3 repetitions")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                    help="threads for every library (default: the CPU count)")
    ap.add_argument("--repetitions", type=int, default=None)
    args = ap.parse_args()
    scale = 0 if args.quick else 1
    repetitions = args.repetitions or (3 if args.quick else 15)
    min_time = 0.002 if args.quick else 0.05

    # tenferro and NumPy load the same OpenBLAS here, so tenferro's setting (which also sets
    # OpenBLAS's) covers NumPy's BLAS calls; torch has its own pool.
    tf.set_num_threads(args.threads)
    torch.set_num_threads(args.threads)
    opt = getattr(getattr(torch.backends, "opt_einsum", None), "is_available", lambda: False)()
    print("tenferro %s, NumPy %s, PyTorch %s (opt_einsum %s); threads: tenferro %d, torch %d; "
          "CPUs %d; load %s" % (tf.version(), np.__version__, torch.__version__,
                                "yes" if opt else "no: left to right", tf.get_num_threads(),
                                torch.get_num_threads(), os.cpu_count(),
                                " ".join("%.2f" % x for x in os.getloadavg())))
    rng = np.random.default_rng(7)
    rows, paths, failed = [], [], False
    for cid, name, maker, goal, same_layout in CASES:
        subscripts, shapes, uses = maker(scale)
        ops = operands_of(shapes, uses, rng)
        # One tensor per distinct array (the MPS case passes A twice).
        tf_c = {id(a): tf.Tensor(a) for a in ops}
        tf_f = {id(a): tf.Tensor(np.asfortranarray(a)) for a in ops}
        th = {id(a): torch.from_numpy(a) for a in ops}
        ours = [tf_c[id(a)] for a in ops]
        ours_f = [tf_f[id(a)] for a in ops]
        theirs = [th[id(a)] for a in ops]

        want = np.einsum(subscripts, *ops, optimize=True)
        for label, got in (("tenferro", tf.einsum(subscripts, *ours)),
                           ("tenferro F-order", tf.einsum(subscripts, *ours_f)),
                           ("torch", torch.einsum(subscripts, *theirs))):
            got = np.asarray(got)
            # Relative to the result's scale: other contraction orders round differently, and
            # elements near cancellation have no elementwise relative accuracy.
            magnitude = 1 + float(np.max(np.abs(want), initial=0))
            err = float(np.max(np.abs(got - want), initial=0)) if got.shape == want.shape else 1
            if got.shape != want.shape or err > 1e-10 * magnitude:
                print("%s %s: %s differs from numpy.einsum" % (cid, subscripts, label))
                failed = True

        fns = {
            "ours": lambda: tf.einsum(subscripts, *ours),
            "ours_f": lambda: tf.einsum(subscripts, *ours_f),
            "numpy": lambda: np.einsum(subscripts, *ops, optimize=True),
            "torch": lambda: torch.einsum(subscripts, *theirs),
        }
        if same_layout is not None:
            fns["torch_cm"] = same_layout(*theirs)
            got = np.asarray(fns["torch_cm"]())
            if got.shape != want.shape or float(np.max(np.abs(got - want), initial=0)) > 1e-10:
                print("%s %s: torch in column-major layout differs from numpy.einsum"
                      % (cid, subscripts))
                failed = True
        t = time_round_robin(fns, repetitions, min_time)
        peer = min(t["numpy"], t.get("torch_cm", t["torch"]))
        ratio = t["ours"] / peer
        rows.append((cid, name, subscripts, t, ratio, goal))

        if len(ops) <= 8:
            tf_path, tf_info = tf.einsum_path(subscripts, *ours)
            np_path, np_info = np.einsum_path(subscripts, *ops, optimize="optimal")
            shapes_used = [a.shape for a in ops]
            paths.append((cid, subscripts, tf_path, tf_info, np_path,
                          numpy_optimized_flops(np_info),
                          path_cost(subscripts, shapes_used, tf_path),
                          path_cost(subscripts, shapes_used, np_path)))

    print()
    print("times: median of %d round-robin repetitions (>= %g s each), float64%s" %
          (repetitions, min_time, ", QUICK sizes: not numbers to quote" if args.quick else ""))
    head = "%-4s %-22s %-20s %10s %10s %10s %10s %10s %8s %6s %s"
    print(head % ("id", "case", "subscripts", "tenferro", "tf F-ord", "numpy", "torch",
                  "torch cm", "ours/pr", "goal", "result"))
    for cid, name, subscripts, t, ratio, goal in rows:
        print(head % (cid, name, subscripts, fmt_time(t["ours"]), fmt_time(t["ours_f"]),
                      fmt_time(t["numpy"]), fmt_time(t["torch"]),
                      fmt_time(t["torch_cm"]) if "torch_cm" in t else "-", "%.3f" % ratio,
                      "<= %.1f" % goal, "ok" if ratio <= goal else "miss"))
    print()
    print("paths: tenferro (tf.einsum_path, docs/einsum.md's model) vs "
          "numpy.einsum_path(optimize='optimal') (its 'Optimized FLOP count'); "
          "'common' prices both paths with path_cost")
    head = "%-4s %-20s %-24s %10s %-24s %10s %11s %11s %s"
    print(head % ("id", "subscripts", "tenferro path", "tf flops", "numpy path", "np flops",
                  "common tf", "common np", "verdict"))
    for cid, subscripts, tp, ti, npp, nf, ct, cn in paths:
        verdict = ("equal" if abs(ct - cn) <= 1e-9 * max(ct, cn, 1) else
                   "tenferro cheaper" if ct < cn else "numpy cheaper")
        print(head % (cid, subscripts, "".join(str(p) for p in tp[1:]).replace(" ", "") or "-",
                      "%.4g" % ti.flops, "".join(str(p) for p in npp[1:]).replace(" ", ""),
                      "%.4g" % nf, "%.4g" % ct, "%.4g" % cn, verdict))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
