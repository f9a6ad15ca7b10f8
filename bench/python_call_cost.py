#!/usr/bin/env python3
"""The cost of one small op from Python: tenferro against NumPy and PyTorch in one process.

    PYTHONPATH=build/python /usr/bin/python3 bench/python_call_cost.py [--quick]

Cases (10 float64 elements, best of 7 timings of 20,000 calls each):
  P1 x * x       goal: <= 1.0x PyTorch, then <= NumPy
  P2 x * 2.0     goal: <= 1.5x NumPy (the Python scalar is weak: x keeps its dtype)
  P3 2.0 * x     (the reflected operator)
  P4 the C call alone (tenferro_c.tfe_mul on the two handles): what the package adds on top.
Each line prints the three times and tenferro's ratio to NumPy and to PyTorch.
"""

import sys
import timeit

import numpy as np

import tenferro as tf

try:
    import torch
except ImportError:
    print("skip: python3-torch is not installed")
    sys.exit(0)


def best(fn, number, repeat):
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def main(quick):
    number, repeat = (2000, 3) if quick else (20000, 7)
    torch.set_num_threads(1)
    x, n = tf.tensor(np.arange(10.0)), np.arange(10.0)
    t = torch.arange(10.0, dtype=torch.float64)
    c = tf.tenferro_c
    print(f"tenferro {tf.version()}, numpy {np.__version__}, torch {torch.__version__}")
    cases = [("P1 x * x", lambda: x * x, lambda: n * n, lambda: t * t),
             ("P2 x * 2.0", lambda: x * 2.0, lambda: n * 2.0, lambda: t * 2.0),
             ("P3 2.0 * x", lambda: 2.0 * x, lambda: 2.0 * n, lambda: 2.0 * t),
             ("P4 C call tfe_mul", lambda: c.tfe_mul(x._h, x._h), lambda: n * n, lambda: t * t)]
    for name, ours, numpy_, torch_ in cases:
        o, p, q = (best(f, number, repeat) for f in (ours, numpy_, torch_))
        print(f"{name:<20} tenferro {o * 1e6:6.3f} us  numpy {p * 1e6:6.3f} us  "
              f"torch {q * 1e6:6.3f} us  ratio/numpy {o / p:5.2f}  ratio/torch {o / q:5.2f}")


if __name__ == "__main__":
    main("--quick" in sys.argv)
