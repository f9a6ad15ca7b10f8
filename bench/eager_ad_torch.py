#!/usr/bin/env python3
"""Eager AD from Python, tenferro against PyTorch (python3-torch) in the same process.

    PYTHONPATH=build-python/python /usr/bin/python3 bench/eager_ad_torch.py [--quick]

Cases (median of repeated timings; both libraries use the same thread count):
  P1 one tracked multiply of one-element tensors, and its untracked twin;
  P2 forward + backward of a chain of 20 one-element ops (sin, *x, tanh, +x, cos; 4 times);
  P3 the same chain on 1e6 elements: forward + backward over the untracked forward, per library.
Each line prints tenferro's time, PyTorch's time and the ratio tenferro/PyTorch. Both go through
their Python bindings, so P1 and P2 include each library's Python overhead.
"""

import statistics
import sys
import time

import numpy as np

import tenferro as tf

try:
    import torch
except ImportError:
    print("skip: python3-torch is not installed")
    sys.exit(0)


def chain(x, sin, tanh, cos):
    y = x
    for _ in range(4):
        y = cos(tanh(sin(y) * x) + x)
    return y


def median_time(fn, number, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - t0) / number)
    return statistics.median(times)


def report(name, ours, theirs, unit=1e-6, unit_name="us"):
    print(f"{name:<34} tenferro {ours / unit:10.2f} {unit_name}   torch {theirs / unit:10.2f} "
          f"{unit_name}   ratio {ours / theirs:6.3f}")


def main(quick):
    threads = tf.get_num_threads()
    torch.set_num_threads(threads)
    n_small, repeat = (2000, 5) if quick else (20000, 9)
    print(f"tenferro {tf.version()}, torch {torch.__version__}, {threads} threads")

    # P1
    a = tf.tensor([0.5]).requires_grad_()
    a_plain, b = tf.tensor([0.5]), tf.tensor([1.5])
    ta = torch.tensor([0.5], dtype=torch.float64, requires_grad=True)
    ta_plain, tb = torch.tensor([0.5], dtype=torch.float64), torch.tensor([1.5],
                                                                          dtype=torch.float64)
    report("P1 tracked mul, 1 element", median_time(lambda: a * b, n_small, repeat),
           median_time(lambda: ta * tb, n_small, repeat))
    report("P1 untracked mul, 1 element", median_time(lambda: a_plain * b, n_small, repeat),
           median_time(lambda: ta_plain * tb, n_small, repeat))

    # P2
    x = tf.tensor([0.3]).requires_grad_()
    tx = torch.tensor([0.3], dtype=torch.float64, requires_grad=True)

    def ours_fb():
        chain(x, tf.sin, tf.tanh, tf.cos).backward()
        x.grad = None

    def torch_fb():
        chain(tx, torch.sin, torch.tanh, torch.cos).backward()
        tx.grad = None

    ours_fb()
    torch_fb()
    number = max(1, n_small // 20)
    o, t = median_time(ours_fb, number, repeat), median_time(torch_fb, number, repeat)
    report("P2 fwd+bwd chain20, per op", o / 20, t / 20)

    # P3
    n = 1_000_000
    v = np.random.default_rng(1).uniform(-1, 1, n)
    xl = tf.tensor(v).requires_grad_()
    xl_plain = tf.tensor(v)
    txl = torch.tensor(v, requires_grad=True)
    txl_plain = torch.tensor(v)
    seed, tseed = tf.tensor(np.ones(n)), torch.ones(n, dtype=torch.float64)

    def ours_big():
        chain(xl, tf.sin, tf.tanh, tf.cos).backward(seed)
        xl.grad = None

    def torch_big():
        chain(txl, torch.sin, torch.tanh, torch.cos).backward(tseed)
        txl.grad = None

    reps = 3 if quick else 7
    of = median_time(lambda: chain(xl_plain, tf.sin, tf.tanh, tf.cos), 1, reps)
    tfw = median_time(lambda: chain(txl_plain, torch.sin, torch.tanh, torch.cos), 1, reps)
    ob, tbw = median_time(ours_big, 1, reps), median_time(torch_big, 1, reps)
    report("P3 forward chain20, n=1e6", of, tfw, 1e-3, "ms")
    report("P3 fwd+bwd chain20, n=1e6", ob, tbw, 1e-3, "ms")
    print(f"P3 fwd+bwd / forward: tenferro {ob / of:.3f}, torch {tbw / tfw:.3f}")


if __name__ == "__main__":
    main("--quick" in sys.argv[1:])
