"""Einstein summation (``tenferro.einsum``, ``tenferro.einsum_path``) over
include/tenferro/einsum.h; the guide is docs/einsum.md.

NumPy's grammar and results on the same logical shapes, with one difference: the dims that
``...`` covers align LEFT across operands (tenferro's broadcasting rule; NumPy aligns them
right). Operands of equal ellipsis rank behave exactly as in NumPy.

>>> import numpy as np, tenferro as tf
>>> tf.einsum("ij,jk->ik", np.eye(2), np.ones((2, 3))).shape
(2, 3)
"""

from collections import namedtuple as _namedtuple

import numpy as _np

from . import tenferro_c as _c
from ._core import _as_tensors, _wrap

__all__ = ["einsum", "einsum_path", "EinsumPathInfo"]

#: The cost estimate of a path: flops of the whole contraction, elements of the largest
#: intermediate, and whether the path is the proven optimum (exhaustive search, up to 10 operands).
EinsumPathInfo = _namedtuple("EinsumPathInfo", ["flops", "largest_intermediate", "optimal"])


def einsum(subscripts, *operands):
    """Einstein summation of the operands (1 to 64) as ``numpy.einsum(subscripts, *operands)``,
    contracted pairwise in the cheapest order found (``einsum_path``). Works on tracked tensors
    (eager AD), symbolic tensors (traced programs) and in dataflow contexts; array-likes join the
    context of the first Tensor."""
    ts = _as_tensors(operands)
    return _wrap(_c.tfe_einsum(subscripts, [t._h for t in ts]))


def einsum_path(subscripts, *operands):
    """The contraction order ``einsum`` uses: ``(path, info)`` where path is
    ``["einsum_path", (i, j), ...]`` in numpy.einsum_path's convention (contract the operands at
    positions i < j of the current list, append the result), usable as numpy's ``optimize=``, and
    info an :class:`EinsumPathInfo`. Only shapes are read."""
    ts = _as_tensors(operands)
    hs = [t._h for t in ts]
    buf = _np.zeros(2 * max(len(hs) - 1, 0), dtype=_np.int64)
    steps, flops, largest, optimal = _c.tfe_einsum_path(subscripts, hs, buf)
    path = ["einsum_path"] + [(int(buf[2 * s]), int(buf[2 * s + 1])) for s in range(steps)]
    return path, EinsumPathInfo(flops, largest, bool(optimal))
