#!/usr/bin/env python3
"""Reverse-mode cost of linalg ops, tenferro against PyTorch 1.13 in the same process.

    PYTHONPATH=build-python/python /usr/bin/python3 bench/linalg_torch.py [--quick]

For solve, qr, eigh, svd and cholesky on one 512 x 512 F64 matrix (symmetric positive definite
for eigh and cholesky): the median time of the untracked forward, of forward + backward of the
sum of every output, and their ratio (VJP/primal), per library. The L3 rows of bench/linalg.cpp
measure tenferro's ratio through the C ABI; this script gives PyTorch's ratio beside it.
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

N = 512
REPEATS = 3 if "--quick" in sys.argv else 9


def median_time(f):
    f()  # warm up (allocator, caches)
    times = []
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def inputs():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((N, N)) + N * np.eye(N)
    spd = (a + a.T) / 2
    b = np.ones((N, 1))
    return a, spd, b


OPS = {
    "solve": (lambda la, a, spd, b: [la.solve(a, b)]),
    "qr": (lambda la, a, spd, b: list(la.qr(a))),
    "eigh": (lambda la, a, spd, b: list(la.eigh(spd))),
    "svd": (lambda la, a, spd, b: list(la.svd(a, full_matrices=False))),
    "cholesky": (lambda la, a, spd, b: [la.cholesky(spd)]),
}


def measure(lib, name):
    a0, spd0, b0 = inputs()
    la = tf.linalg if lib == "tenferro" else torch.linalg
    op = OPS[name]

    def make(tracked):
        if lib == "tenferro":
            ts = [tf.tensor(v) for v in (a0, spd0, b0)]
            if tracked:
                for t in ts:
                    t.requires_grad_()
        else:
            ts = [torch.tensor(v, requires_grad=tracked) for v in (a0, spd0, b0)]
        return ts

    plain = make(False)
    tracked = make(True)

    def forward():
        if lib == "torch":
            with torch.no_grad():
                op(la, *plain)
        else:
            op(la, *plain)

    def forward_backward():
        outs = op(la, *tracked)
        loss = outs[0].sum()
        for o in outs[1:]:
            loss = loss + o.sum()
        loss.backward()
        for t in tracked:
            t.grad = None

    return median_time(forward), median_time(forward_backward)


def main():
    torch.set_num_threads(tf.get_num_threads())
    print(f"n = {N}, F64, median of {REPEATS}; VJP/primal = (forward + backward) / forward")
    print(f"{'op':10} {'tenferro fwd':>13} {'fwd+bwd':>10} {'ratio':>7}   "
          f"{'torch fwd':>10} {'fwd+bwd':>10} {'ratio':>7}")
    for name in OPS:
        tf_f, tf_fb = measure("tenferro", name)
        th_f, th_fb = measure("torch", name)
        print(f"{name:10} {tf_f * 1e3:10.2f} ms {tf_fb * 1e3:7.2f} ms {tf_fb / tf_f:7.2f}   "
              f"{th_f * 1e3:7.2f} ms {th_fb * 1e3:7.2f} ms {th_fb / th_f:7.2f}")


if __name__ == "__main__":
    main()
