#!/usr/bin/env python3
"""Elementwise math, tenferro against PyTorch (python3-torch) in the same process.

    PYTHONPATH=build/python /usr/bin/python3 bench/elementwise_torch.py [--quick] [--only V4]

Cases (median of repeated timings, at 1 thread and at 2, both libraries at the same count):
  V1 exp, sin, tanh of 1e6 elements, F64 and F32;
  V3 asin, atanh, exp2, log10 of 1e6 elements in (0.05, 0.95), F64 and F32;
  V4 exp, log, sin, tanh, asin, acos, atan, asinh, acosh, atanh of 1e6 complex elements (both
     parts in (-3, 3)), C64 and C32;
  V2 the 20-op chain (sin, *x, tanh, +x, cos; 4 times) on 1e6 F64: forward, and forward +
     backward with x tracked.
Each line prints tenferro's time, PyTorch's time and the ratio tenferro/PyTorch. Set
TFE_VECTOR_MATH=scalar to measure tenferro without its vectorised math. --only PREFIX runs the
cases whose name starts with PREFIX.
"""

import sys

import numpy as np

import tenferro as tf

try:
    import torch
except ImportError:
    print("skip: python3-torch is not installed")
    sys.exit(0)

from eager_ad_torch import chain, median_time as median_of


def median_time(fn, repeat):
    fn()  # warm the allocators
    return median_of(fn, 1, repeat)


def report(name, ours, theirs):
    print(f"{name:<40} tenferro {ours * 1e3:8.3f} ms   torch {theirs * 1e3:8.3f} ms   "
          f"ratio {ours / theirs:6.3f}")


ONLY = ""


def time_both(name, ours, theirs, repeat):
    if name.startswith(ONLY):
        report(name, median_time(ours, repeat), median_time(theirs, repeat))


def main(quick):
    repeat = 5 if quick else 15
    n = 1_000_000
    rng = np.random.default_rng(1)
    print(f"tenferro {tf.version()}, torch {torch.__version__}")
    for threads in (1, 2):
        tf.set_num_threads(threads)
        torch.set_num_threads(threads)
        print(f"-- {threads} thread(s)")
        for dtype, np_dtype, torch_dtype in (("f64", np.float64, torch.float64),
                                             ("f32", np.float32, torch.float32)):
            v = rng.uniform(-3, 3, n).astype(np_dtype)
            x, tx = tf.tensor(v), torch.tensor(v, dtype=torch_dtype)
            for name in ("exp", "sin", "tanh"):
                ours, theirs = getattr(tf, name), getattr(torch, name)
                time_both(f"V1 {name} {dtype} n=1e6", lambda: ours(x), lambda: theirs(tx), repeat)
            v = rng.uniform(0.05, 0.95, n).astype(np_dtype)
            x, tx = tf.tensor(v), torch.tensor(v, dtype=torch_dtype)
            for name in ("asin", "atanh", "exp2", "log10"):
                ours, theirs = getattr(tf, name), getattr(torch, name)
                time_both(f"V3 {name} {dtype} n=1e6", lambda: ours(x), lambda: theirs(tx), repeat)
        for dtype, np_dtype, torch_dtype in (("c64", np.complex128, torch.complex128),
                                             ("c32", np.complex64, torch.complex64)):
            v = (rng.uniform(-3, 3, n) + 1j * rng.uniform(-3, 3, n)).astype(np_dtype)
            x, tx = tf.tensor(v), torch.tensor(v, dtype=torch_dtype)
            for name in ("exp", "log", "sin", "tanh", "asin", "acos", "atan", "asinh", "acosh",
                         "atanh"):
                ours, theirs = getattr(tf, name), getattr(torch, name)
                time_both(f"V4 {name} {dtype} n=1e6", lambda: ours(x), lambda: theirs(tx), repeat)
        v = rng.uniform(-1, 1, n)
        x, tx = tf.tensor(v), torch.tensor(v)
        time_both("V2 chain20 forward f64 n=1e6", lambda: chain(x, tf.sin, tf.tanh, tf.cos),
                  lambda: chain(tx, torch.sin, torch.tanh, torch.cos), repeat)
        xl = tf.tensor(v).requires_grad_()
        txl = torch.tensor(v, requires_grad=True)
        seed, tseed = tf.tensor(np.ones(n)), torch.ones(n, dtype=torch.float64)

        def ours_fb():
            chain(xl, tf.sin, tf.tanh, tf.cos).backward(seed)
            xl.grad = None

        def torch_fb():
            chain(txl, torch.sin, torch.tanh, torch.cos).backward(tseed)
            txl.grad = None

        time_both("V2 chain20 forward+backward f64 n=1e6", ours_fb, torch_fb, repeat)


if __name__ == "__main__":
    if "--only" in sys.argv[1:]:
        ONLY = sys.argv[sys.argv.index("--only") + 1]
    main("--quick" in sys.argv[1:])
