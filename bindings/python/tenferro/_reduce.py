"""Reductions and scans with NumPy's keywords: ``axis=``, ``keepdims=``, ``dtype=`` (and ``ddof=``
for std/var), as functions and as Tensor methods.

sum, prod, mean, max and min are the C reductions (tfe_sum, ...); any, all, argmax, argmin, std,
var, cumsum and cumprod are compositions of C ops, so they run in every context (traced programs
and dataflow included) and their derivatives follow from those of the ops (argmax and argmin
are int64 and not differentiable).
"""

import operator as _operator

import numpy as _np

from . import tenferro_c as _c
from ._core import Tensor, _as_tensor, _dtype_code, _np_dtype, _shape, _wrap

__all__ = ["sum", "prod", "mean", "max", "min", "any", "all", "argmax", "argmin", "std", "var",
           "cumsum", "cumprod"]

_AXIS_DOC = (
    "\n\naxis: None (every axis), an int or a tuple of ints (negative count from the end); "
    "keepdims=True keeps the reduced axes with extent 1 (so the result broadcasts against x).")


def _axis_list(axis, ndim, name):
    """Sorted, non-negative, distinct axes; None -> every axis."""
    if axis is None:
        return list(range(ndim))
    if isinstance(axis, (int, _np.integer)) and not isinstance(axis, (bool, _np.bool_)):
        axis = (axis,)
    out = []
    for a in axis:
        a = _operator.index(a)
        if not -ndim <= a < ndim:
            raise _c.InvalidArgumentError(
                f"tenferro.{name}(): axis {a} is out of bounds for rank {ndim}")
        a %= ndim if ndim else 1
        if a in out:
            raise _c.InvalidArgumentError(f"tenferro.{name}(): axis {a} is repeated")
        out.append(a)
    return sorted(out)


def _pick_axis(axis, axes, name):
    """`axis`, or the older keyword `axes` (the same meaning)."""
    if axes is not None:
        if axis is not None:
            raise TypeError(f"{name}: give axis or axes, not both")
        return axes
    return axis


def _keep(r, x, axes):
    """r with the reduced `axes` of x put back with extent 1."""
    shape = [1 if i in axes else e for i, e in enumerate(x.shape)]
    return _wrap(_c.tfe_reshape(r._h, _shape(shape, x)))


def _finish(r, x, axes, keepdims, dtype):
    if dtype is not None and r.dtype != _np_dtype(dtype):
        r = _wrap(_c.tfe_cast(r._h, _dtype_code(dtype)))
    return _keep(r, x, axes) if keepdims else r


def _cast_to(x, dtype):
    if dtype is None or x.dtype == _np_dtype(dtype):
        return x
    return _wrap(_c.tfe_cast(x._h, _dtype_code(dtype)))


def _make(name, cfn, doc, with_dtype):
    if with_dtype:
        def f(x, axis=None, dtype=None, keepdims=False, *, axes=None):
            x = _as_tensor(x)
            ax = _axis_list(_pick_axis(axis, axes, name), x.ndim, name)
            x = _cast_to(x, dtype)
            return _finish(_wrap(cfn(x._h, ax)) if ax or not x.ndim else x, x, ax, keepdims,
                           dtype)
    else:
        def f(x, axis=None, keepdims=False, *, axes=None):
            x = _as_tensor(x)
            ax = _axis_list(_pick_axis(axis, axes, name), x.ndim, name)
            return _finish(_wrap(cfn(x._h, ax)) if ax or not x.ndim else x, x, ax, keepdims, None)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc + _AXIS_DOC + (
        " dtype= converts x first and gives the result that dtype (NumPy's accumulator dtype)."
        if with_dtype else "")
    return f


sum = _make("sum", _c.tfe_sum,  # noqa: A001
            "Sum over axes; Bool and int32 accumulate in int64 (as NumPy).", True)
prod = _make("prod", _c.tfe_prod,
             "Product over axes; Bool and int32 accumulate in int64 (as NumPy).", True)
mean = _make("mean", _c.tfe_mean,
             "Mean over axes; integers and Bool give float64; an empty mean is NaN.", True)
max = _make("max", _c.tfe_reduce_max,  # noqa: A001
            "Maximum over axes (NaN propagates; any() on Bool); no complex.", False)
min = _make("min", _c.tfe_reduce_min,  # noqa: A001
            "Minimum over axes (NaN propagates; all() on Bool); no complex.", False)


def _truth(x):
    if x.dtype == _np.bool_:
        return x
    zero = _wrap(_c.tfe_zeros(_c.tfe_tensor_context(x._h), _c.tfe_tensor_dtype(x._h), []))
    return _wrap(_c.tfe_compare(x._h, zero._h, _c.TFE_CMP_NE))


def any(x, axis=None, keepdims=False):  # noqa: A001
    """True where some element along the axes is nonzero (Bool result)."""
    x = _as_tensor(x)
    ax = _axis_list(axis, x.ndim, "any")
    b = _truth(x)
    return _finish(_wrap(_c.tfe_reduce_max(b._h, ax)) if ax else b, x, ax, keepdims, None)


def all(x, axis=None, keepdims=False):  # noqa: A001
    """True where every element along the axes is nonzero (Bool result; True when empty)."""
    x = _as_tensor(x)
    ax = _axis_list(axis, x.ndim, "all")
    b = _truth(x)
    return _finish(_wrap(_c.tfe_reduce_min(b._h, ax)) if ax else b, x, ax, keepdims, None)


any.__doc__ += _AXIS_DOC
all.__doc__ += _AXIS_DOC


def _flat_c_order(x):
    """x as rank 1 in NumPy's (row-major) element order."""
    h = _c.tfe_transpose(x._h, list(range(x.ndim - 1, -1, -1)))
    return _wrap(_c.tfe_reshape(h, [x.size]))


def _arg(x, axis, keepdims, name, cfn):
    x = _as_tensor(x)
    if x.dtype.kind == "c":
        raise TypeError(f"{name}: complex values have no order")
    if axis is None:
        if x.size == 0:
            raise ValueError(f"{name} of an empty tensor")
        r = _arg(_flat_c_order(x), 0, False, name, cfn)
        if keepdims:
            r = _wrap(_c.tfe_reshape(r._h, [1] * x.ndim))
        return r
    (ax,) = _axis_list(axis, x.ndim, name)
    n = x.shape[ax]
    if not isinstance(n, int):
        raise _c.InvalidArgumentError(
            f"tenferro.{name}(): axis {ax} needs a concrete extent, not {n!r}")
    if n == 0:
        raise ValueError(f"{name}: axis {ax} has extent 0")
    ctx = _c.tfe_tensor_context(x._h)
    best = _wrap(cfn(x._h, [ax]))
    best = _keep(best, x, [ax])
    hit = _wrap(_c.tfe_compare(x._h, best._h, _c.TFE_CMP_EQ))
    if x.dtype.kind == "f":  # the first NaN wins, as in NumPy
        nan = _wrap(_c.tfe_compare(x._h, x._h, _c.TFE_CMP_NE))
        hit = _wrap(_c.tfe_or(hit._h, nan._h))
    idx = _wrap(_c.tfe_iota(ctx, _c.TFE_I64, [1] * ax + [n], ax))  # broadcasts left-aligned
    big = _wrap(_c.tfe_full(ctx, _c.TFE_I64, [], _np.int64(n).tobytes()))
    cand = _wrap(_c.tfe_select(hit._h, idx._h, big._h))
    r = _wrap(_c.tfe_reduce_min(cand._h, [ax]))
    return _keep(r, x, [ax]) if keepdims else r


def argmax(x, axis=None, keepdims=False):
    """Index (int64) of the first maximum along axis; axis=None indexes NumPy's row-major
    flattening (``np.unravel_index`` turns it into a position). NaN counts as the maximum.
    Not differentiable."""
    return _arg(x, axis, keepdims, "argmax", _c.tfe_reduce_max)


def argmin(x, axis=None, keepdims=False):
    """Index (int64) of the first minimum along axis (see :func:`argmax`)."""
    return _arg(x, axis, keepdims, "argmin", _c.tfe_reduce_min)


def var(x, axis=None, dtype=None, ddof=0, keepdims=False):
    """Variance: mean(|x - mean(x)|^2) with n - ddof in the denominator (real result for complex
    input; integers and Bool in float64), over axes as in :func:`sum`. Differentiable."""
    x = _as_tensor(x)
    if x.dtype.kind in "biu":
        x = _cast_to(x, dtype or _np.float64)
    else:
        x = _cast_to(x, dtype)
    ax = _axis_list(axis, x.ndim, "var")
    m = _keep(_wrap(_c.tfe_mean(x._h, ax)), x, ax) if ax else x
    d = _wrap(_c.tfe_sub(x._h, m._h))
    if d.dtype.kind == "c":
        d2 = _wrap(_c.tfe_add(_c.tfe_mul(_c.tfe_real(d._h), _c.tfe_real(d._h)),
                              _c.tfe_mul(_c.tfe_imag(d._h), _c.tfe_imag(d._h))))
    else:
        d2 = _wrap(_c.tfe_mul(d._h, d._h))
    r = _wrap(_c.tfe_mean(d2._h, ax)) if ax else d2
    if ddof:  # mean * n / (n - ddof); n must be concrete
        n = 1
        for a in ax:
            if not isinstance(x.shape[a], int):
                raise _c.InvalidArgumentError(
                    f"tenferro.var(): ddof={ddof} needs a concrete extent, not {x.shape[a]!r}")
            n *= x.shape[a]
        r = r * (n / (n - ddof) if n > ddof else float("inf"))  # as NumPy's sum / 0
    return _keep(r, x, ax) if keepdims else r


def std(x, axis=None, dtype=None, ddof=0, keepdims=False):
    """Standard deviation: sqrt(var(x, ...)) (see :func:`var`). Differentiable (not at a zero
    deviation)."""
    return _wrap(_c.tfe_sqrt(var(x, axis, dtype, ddof, keepdims)._h))


def _scan(x, axis, dtype, name, combine, unit):
    x = _as_tensor(x)
    if dtype is None and x.dtype.kind in "bi":
        dtype = _np.int64  # as NumPy: small integers and Bool accumulate in int64
    x = _cast_to(x, dtype)
    if axis is None:
        x, ax = _flat_c_order(x), 0
    else:
        (ax,) = _axis_list(axis, x.ndim, name)
    n = x.shape[ax]
    nd = x.ndim
    ctx = _c.tfe_tensor_context(x._h)
    code = _c.tfe_tensor_dtype(x._h)
    one = _wrap(_c.tfe_full(ctx, code, [], _np.asarray(unit, x.dtype).tobytes())) if unit else None
    y = x
    s = 1
    while s < n:  # Hillis-Steele: log2(n) shifted combinations, each differentiable
        low, high = [0] * nd, [0] * nd
        low[ax], high[ax] = s, -s
        if one is None:
            shifted = _c.tfe_pad(y._h, low, high, None)
        else:  # pad inserts zeros; shift y - 1 and add 1 back so the filler is the unit
            shifted = _c.tfe_add(_c.tfe_pad(_c.tfe_sub(y._h, one._h), low, high, None), one._h)
        y = _wrap(combine(y._h, shifted))
        s *= 2
    return y


def cumsum(x, axis=None, dtype=None):
    """Running sum along axis (axis=None: over NumPy's row-major flattening, rank-1 result);
    Bool and int32 accumulate in int64. Differentiable. log2(n) passes over the data."""
    return _scan(x, axis, dtype, "cumsum", _c.tfe_add, 0)


def cumprod(x, axis=None, dtype=None):
    """Running product along axis (as :func:`cumsum`). Differentiable."""
    return _scan(x, axis, dtype, "cumprod", _c.tfe_mul, 1)


def _method(f):
    def m(self, *args, **kwargs):
        return f(self, *args, **kwargs)

    m.__name__ = m.__qualname__ = f.__name__
    m.__doc__ = f"tenferro.{f.__name__}(self, ...): " + (f.__doc__ or "")
    return m


for _f in (sum, prod, mean, max, min, any, all, argmax, argmin, std, var, cumsum, cumprod):
    setattr(Tensor, _f.__name__, _method(_f))
del _f
