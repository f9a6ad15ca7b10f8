"""Einstein summation (``tenferro.einsum``, ``tenferro.einsum_path``) and its companions
(``tensordot``, ``outer``, ``kron``) over include/tenferro/einsum.h; the guide is docs/einsum.md.

NumPy's grammar and results on the same logical shapes, with one difference: the dims that
``...`` covers align LEFT across operands (tenferro's broadcasting rule; NumPy aligns them
right). Operands of equal ellipsis rank behave exactly as in NumPy.

>>> import numpy as np, tenferro as tf
>>> tf.einsum("ij,jk->ik", np.eye(2), np.ones((2, 3))).shape
(2, 3)
"""

from collections import namedtuple as _namedtuple

import numpy as _np

import operator as _operator

from . import tenferro_c as _c
from ._core import _as_tensors, _wrap
from ._functions import ravel as _ravel
from ._ops import reshape as _reshape

__all__ = ["einsum", "einsum_path", "EinsumPathInfo", "tensordot", "outer", "kron"]

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


def _axis_list(axes):
    """One side of tensordot's axes: an int, or a sequence (or array) of ints."""
    try:
        return [_operator.index(axes)]
    except TypeError:
        return [_operator.index(x) for x in axes]


def tensordot(a, b, axes=2):
    """``numpy.tensordot``: sums the products over pairs of dims. `axes` is an int N (the last N
    dims of a with the first N of b, in order) or a pair of sequences (dims of a, dims of b);
    the result has a's other dims, then b's. Differentiable in every engine."""
    if not isinstance(axes, (tuple, list)):
        axes = _operator.index(axes)  # an int, NumPy integers included
    a, b = _as_tensors([a, b])
    if isinstance(axes, int):
        if axes < 0:
            raise ValueError(f"tensordot: axes {axes} must be non-negative")
        axes_a = list(range(a.ndim - axes, a.ndim))
        axes_b = list(range(axes))
    else:
        axes_a, axes_b = (_axis_list(x) for x in axes)
        if len(axes_a) != len(axes_b):
            raise ValueError(f"tensordot: {len(axes_a)} axes of a but {len(axes_b)} of b")
    return _wrap(_c.tfe_tensordot(a._h, b._h, axes_a, axes_b))


def outer(a, b):
    """``numpy.outer``: both operands flattened in NumPy's row-major order, then every product
    a[i] * b[j] as an [a.size, b.size] matrix (no conjugation). The C function ``tfe_outer``
    keeps the operands' dims instead (``numpy.multiply.outer``)."""
    a, b = _as_tensors([a, b])
    return _wrap(_c.tfe_outer(_ravel(a)._h, _ravel(b)._h))


def kron(a, b):
    """``numpy.kron``: the Kronecker product, dim by dim; an operand of lower rank gets leading
    extents of 1 first, as NumPy does (so a vector is a row). Differentiable."""
    a, b = _as_tensors([a, b])
    if a.ndim < b.ndim:
        a = _reshape(a, (1,) * (b.ndim - a.ndim) + tuple(a.shape))
    elif b.ndim < a.ndim:
        b = _reshape(b, (1,) * (a.ndim - b.ndim) + tuple(b.shape))
    return _wrap(_c.tfe_kron(a._h, b._h))
