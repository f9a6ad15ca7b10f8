"""Reductions and scans with NumPy's keywords: ``axis=``, ``keepdims=``, ``dtype=`` (and ``ddof=``
for std/var), as functions and as Tensor methods.

sum, prod, mean, max, min, argmax, argmin, cumsum, cumprod, any, all, std and var are C functions
(tfe_sum, ..., tfe_cumsum, tfe_any, tfe_var). All run in every context (traced programs and
dataflow included); argmax and argmin are int64 and not differentiable.
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


def _axes_call(cfn, x, axis, keepdims, name, *args):
    """cfn(x, axes, *args, keepdims) for a C reduction whose empty axis list means every axis;
    NumPy's axis=() (no axis) reduces a trailing extent-1 axis instead."""
    ax = _axis_list(axis, x.ndim, name)
    if ax or not x.ndim:
        return _wrap(cfn(x._h, ax, *args, 1 if keepdims else 0))
    unit = _wrap(_c.tfe_reshape(x._h, _shape(list(x.shape) + [1], x)))
    return _wrap(cfn(unit._h, [x.ndim], *args, 0))


def any(x, axis=None, keepdims=False):  # noqa: A001
    """True where some element along the axes is nonzero (Bool result)."""
    return _axes_call(_c.tfe_any, _as_tensor(x), axis, keepdims, "any")


def all(x, axis=None, keepdims=False):  # noqa: A001
    """True where every element along the axes is nonzero (Bool result; True when empty)."""
    return _axes_call(_c.tfe_all, _as_tensor(x), axis, keepdims, "all")


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
    if x.shape[ax] == 0:
        raise ValueError(f"{name}: axis {ax} has extent 0")
    r = _wrap(cfn(x._h, ax))
    return _keep(r, x, [ax]) if keepdims else r


def argmax(x, axis=None, keepdims=False):
    """Index (int64) of the first maximum along axis; axis=None indexes NumPy's row-major
    flattening (``np.unravel_index`` turns it into a position). NaN counts as the maximum.
    Not differentiable."""
    return _arg(x, axis, keepdims, "argmax", _c.tfe_argmax)


def argmin(x, axis=None, keepdims=False):
    """Index (int64) of the first minimum along axis (see :func:`argmax`)."""
    return _arg(x, axis, keepdims, "argmin", _c.tfe_argmin)


def var(x, axis=None, dtype=None, ddof=0, keepdims=False):
    """Variance: mean(|x - mean(x)|^2) with n - ddof in the denominator (real result for complex
    input; integers and Bool in float64), over axes as in :func:`sum`. Differentiable."""
    return _moment(_c.tfe_var, x, axis, dtype, ddof, keepdims, "var")


def _moment(cfn, x, axis, dtype, ddof, keepdims, name):
    x = _as_tensor(x)
    if x.dtype.kind in "biu":
        x = _cast_to(x, dtype or _np.float64)
    else:
        x = _cast_to(x, dtype)
    return _axes_call(cfn, x, axis, keepdims, name, float(ddof))


def std(x, axis=None, dtype=None, ddof=0, keepdims=False):
    """Standard deviation: sqrt(var(x, ...)) (see :func:`var`). Differentiable (not at a zero
    deviation)."""
    return _moment(_c.tfe_std, x, axis, dtype, ddof, keepdims, "std")


def _scan(x, axis, dtype, name, cfn):
    x = _as_tensor(x)
    if dtype is None and x.dtype.kind in "bi":
        dtype = _np.int64  # as NumPy: small integers and Bool accumulate in int64
    x = _cast_to(x, dtype)
    if axis is None:
        x, ax = _flat_c_order(x), 0
    else:
        (ax,) = _axis_list(axis, x.ndim, name)
    return _wrap(cfn(x._h, ax))


def cumsum(x, axis=None, dtype=None):
    """Running sum along axis (axis=None: over NumPy's row-major flattening, rank-1 result);
    Bool and int32 accumulate in int64. Differentiable. One pass over the data (tfe_cumsum)."""
    return _scan(x, axis, dtype, "cumsum", _c.tfe_cumsum)


def cumprod(x, axis=None, dtype=None):
    """Running product along axis (as :func:`cumsum`). Differentiable, also where x has zeros
    (tfe_cumprod)."""
    return _scan(x, axis, dtype, "cumprod", _c.tfe_cumprod)


def _method(f):
    def m(self, *args, **kwargs):
        return f(self, *args, **kwargs)

    m.__name__ = m.__qualname__ = f.__name__
    m.__doc__ = f"tenferro.{f.__name__}(self, ...): " + (f.__doc__ or "")
    return m


for _f in (sum, prod, mean, max, min, any, all, argmax, argmin, std, var, cumsum, cumprod):
    setattr(Tensor, _f.__name__, _method(_f))
del _f
