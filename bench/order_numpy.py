#!/usr/bin/env python3
"""Sorting and scans, tenferro against NumPy in the same process.

    PYTHONPATH=<build>/bindings/python /usr/bin/python3 bench/order_numpy.py [--quick]

Cases (median of repeated timings, warm-up first, the libraries timed round-robin):
  S1 argsort of 1e6 float64 (NumPy: kind='stable');
  S2 cumsum of 1e6 float64;
  S3 sort of every row of a [1000, 1000] float64 matrix (axis=-1; NumPy: kind='stable');
  S4 argmax of 1e6 float64.
Each line prints tenferro's time, NumPy's time and the ratio tenferro/NumPy. The tenferro
operand is built once from the NumPy array, outside the timing, and the timing stops at the
tenferro result (eager, already computed), before any copy back to NumPy; results are compared
first.
"""

import statistics
import sys
import time

import numpy as np

import tenferro as tf


def median_time(fn, number, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - t0) / number)
    return statistics.median(times)


def main():
    quick = "--quick" in sys.argv
    number, repeat = (1, 3) if quick else (3, 7)
    rng = np.random.default_rng(0)
    v = rng.standard_normal(1_000_000)
    m = rng.standard_normal((1000, 1000))
    tv, tm = tf.Tensor(v), tf.Tensor(m)
    cases = [
        ("S1 argsort 1e6 f64", lambda: tf.argsort(tv), lambda: np.argsort(v, kind="stable")),
        ("S2 cumsum 1e6 f64", lambda: tf.cumsum(tv), lambda: np.cumsum(v)),
        ("S3 sort rows [1000,1000]", lambda: tf.sort(tm, axis=-1),
         lambda: np.sort(m, axis=-1, kind="stable")),
        ("S4 argmax 1e6 f64", lambda: tf.argmax(tv), lambda: np.argmax(v)),
    ]
    print(f"{'case':28s} {'tenferro':>12s} {'numpy':>12s} {'ratio':>8s}")
    for name, ours, peer in cases:
        a, b = np.asarray(ours().numpy()), peer()
        if not np.allclose(a, b):
            print(f"{name}: results differ")
            sys.exit(1)
        t_ours = t_peer = 0.0
        for _ in range(2):  # round-robin: each library timed twice, the medians kept
            t_ours = median_time(ours, number, repeat)
            t_peer = median_time(peer, number, repeat)
        print(f"{name:28s} {t_ours * 1e3:10.2f}ms {t_peer * 1e3:10.2f}ms {t_ours / t_peer:8.2f}")


if __name__ == "__main__":
    main()
