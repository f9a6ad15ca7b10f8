"""NumPy's everyday functions that are exact compositions of the library's ops.

Each one is a few calls of the C ops, so it works in every context (eager, traced programs,
dataflow) and is differentiable wherever its parts are. Where a composition differs from
NumPy in a corner (signed zeros, the far tails), the docstring says so.
"""

import builtins as _builtins
import collections as _collections
import math as _math
import operator as _operator

import numpy as _np

from . import tenferro_c as _c
from ._core import (_CODE_TO_NP, Tensor, _as_tensor, _creating, _ctx_handle, _dtype_code, _shape,
                    _wrap)
from . import _ops as _o
from . import _reduce as _r

__all__ = []


def _export(f):
    __all__.append(f.__name__)
    return f


def _inexact(x):
    """x as a Tensor, integers and Bool converted to float64 (as NumPy's float functions)."""
    x = _as_tensor(x)
    if x.dtype.kind in "biu":
        x = _wrap(_c.tfe_cast(x._h, _c.TFE_F64))
    return x


def _real_float(x, name):
    x = _inexact(x)
    if x.dtype.kind == "c":
        raise TypeError(f"tenferro.{name}(): complex input is not supported (real floats only)")
    return x


# ---- elementwise --------------------------------------------------------------------------

@_export
def square(x):
    """x * x elementwise (keeps the dtype, as NumPy)."""
    return _wrap(_c.tfe_square(_as_tensor(x)._h))


@_export
def reciprocal(x):
    """1 / x elementwise (integers and Bool give float64, unlike NumPy's integer reciprocal)."""
    return _wrap(_c.tfe_reciprocal(_as_tensor(x)._h))


def _numpy_named(name, op, real_only=False):
    """NumPy's name for the registry op `op`: integers and Bool are computed in float64, as
    NumPy's float functions; the docstring is the op's."""
    def f(x):
        return op(_real_float(x, name) if real_only else _inexact(x))

    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"{op.__doc__} Integers and Bool are computed in float64, as NumPy."
    return _export(f)


exp2 = _numpy_named("exp2", _o.exp2)
log2 = _numpy_named("log2", _o.log2)
log10 = _numpy_named("log10", _o.log10)


@_export
def logaddexp(a, b):
    """log(exp(a) + exp(b)) without overflow: max(a, b) + log1p(exp(-|a - b|)); real floats.
    Differentiable (at a tie each operand gets half the gradient)."""
    a, b = _o._binary_operands(_real_float(a, "logaddexp"), _real_float(b, "logaddexp"))
    return _wrap(_c.tfe_logaddexp(a._h, b._h))


@_export
def hypot(a, b):
    """sqrt(a^2 + b^2) elementwise, scaled by max(|a|, |b|) so that it does not overflow; real
    floats. Its derivative at a = b = 0 is 0."""
    a, b = _o._binary_operands(_real_float(a, "hypot"), _real_float(b, "hypot"))
    return _wrap(_c.tfe_hypot(a._h, b._h))


@_export
def sigmoid(x):
    """The logistic function 1 / (1 + e^-x), as 1 / (1 + e^-|x|) or e^-|x| / (1 + e^-|x|) by the
    sign of x: no overflow, full relative accuracy in both tails (complex: 1/2 + tanh(x/2)/2)."""
    return _wrap(_c.tfe_sigmoid(_as_tensor(x)._h))


erfc = _numpy_named("erfc", _o.erfc, real_only=True)
lgamma = _numpy_named("lgamma", _o.lgamma, real_only=True)
digamma = _numpy_named("digamma", _o.digamma, real_only=True)


@_export
def polygamma(n, x):
    # The docstring is the op's (set below).
    n, x = _o._binary_operands(n, _real_float(x, "polygamma"))
    if n.dtype.kind in "biu":
        n = _wrap(_c.tfe_cast(n._h, _c.tfe_tensor_dtype(x._h)))
    return _o.polygamma(n, x)


polygamma.__doc__ = f"{_o.polygamma.__doc__} Integer n is converted to x's dtype, as SciPy."


@_export
def trunc(x):
    # The docstring is the op's (set below).
    x = _as_tensor(x)
    if x.dtype.kind in "biu":
        return x
    if x.dtype.kind == "c":
        raise TypeError("tenferro.trunc(): complex input is not supported")
    return _o.trunc(x)


trunc.__doc__ = f"{_o.trunc.__doc__} Integers and Bool are returned as they are."


@_export
def angle(z, deg=False):
    """The argument of z in (-pi, pi] (0 or pi for real input); deg=True gives degrees."""
    return _wrap(_c.tfe_angle(_as_tensor(z)._h, 1 if deg else 0))


@_export
def copysign(a, b):
    """|a| with the sign of b (real floats; b = -0.0 counts as negative, as NumPy).
    Differentiable in a."""
    a, b = _o._binary_operands(_real_float(a, "copysign"), _real_float(b, "copysign"))
    return _wrap(_c.tfe_copysign(a._h, b._h))


# Inverse trigonometric and hyperbolic functions: NumPy's names for the registry ops (complex
# input takes the principal branch, as NumPy).

@_export
def arctan2(a, b):
    """The angle of the point (b, a) in [-pi, pi] (tenferro.atan2)."""
    return _o.atan2(a, b)


arctan = _numpy_named("arctan", _o.atan)
arcsin = _numpy_named("arcsin", _o.asin)
arccos = _numpy_named("arccos", _o.acos)
arcsinh = _numpy_named("arcsinh", _o.asinh)
arccosh = _numpy_named("arccosh", _o.acosh)
arctanh = _numpy_named("arctanh", _o.atanh)


# ---- predicates ---------------------------------------------------------------------------

@_export
def isnan(x):
    """True where x is NaN (either part, for complex); Bool result, never differentiable."""
    return _wrap(_c.tfe_isnan(_as_tensor(x)._h))


@_export
def isinf(x):
    """True where x is +-inf (either part, for complex)."""
    return _wrap(_c.tfe_isinf(_as_tensor(x)._h))


@_export
def isfinite(x):
    """True where x is neither NaN nor +-inf."""
    return _wrap(_c.tfe_isfinite(_as_tensor(x)._h))


@_export
def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    """x with NaN replaced by `nan` and +-inf by posinf/neginf (default: the dtype's largest
    finite values), for real and (per part) complex floats; other dtypes are returned as is."""
    x = _as_tensor(x)
    p = _math.nan if posinf is None else float(posinf)  # NaN: the dtype's largest finite value
    n = _math.nan if neginf is None else float(neginf)
    return _wrap(_c.tfe_nan_to_num(x._h, float(nan), p, n))


@_export
def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """|a - b| <= atol + rtol |b| elementwise (NumPy's asymmetric test); an infinity is close
    only to itself; equal_nan=True makes NaN close to NaN. Bool result."""
    a, b = _o._binary_operands(a, b)
    return _wrap(_c.tfe_isclose(a._h, b._h, float(rtol), float(atol), 1 if equal_nan else 0))


@_export
def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """True when every element is close (:func:`isclose`); a Python bool."""
    a, b = _o._binary_operands(a, b)
    r = _wrap(_c.tfe_allclose(a._h, b._h, float(rtol), float(atol), 1 if equal_nan else 0))
    return bool(r.item())


# ---- reductions ---------------------------------------------------------------------------

@_export
def logsumexp(x, axis=None, keepdims=False):
    """log(sum(exp(x))) over axes without overflow (the maximum is taken out first); real floats.
    Differentiable (its gradient is the softmax)."""
    x = _real_float(x, "logsumexp")
    return _r._axes_call(_c.tfe_logsumexp, x, axis, keepdims, "logsumexp")


@_export
def trace(x, offset=0):
    """The matrix trace: the sum of the diagonal of dims (0, 1) (tenferro's [M, N, batch..]
    layout, which is also NumPy's default axes), offset k > 0 above it, k < 0 below. The result
    has the batch dims; Bool and int32 sum in int64. Differentiable."""
    x = _as_tensor(x)
    return _wrap(_c.tfe_trace(x._h, _operator.index(offset)))


# ---- shapes -------------------------------------------------------------------------------

def _norm_axis(a, ndim, name):
    a = _operator.index(a)
    if not -ndim <= a < ndim:
        raise _c.InvalidArgumentError(
            f"tenferro.{name}(): axis {a} is out of bounds for rank {ndim}")
    return a % ndim


def _reshape(x, shape):
    return _wrap(_c.tfe_reshape(x._h, _shape(list(shape), x)))


@_export
def squeeze(x, axis=None):
    """x without its extent-1 axes (axis=None) or without the listed ones (which must have
    extent 1). A view."""
    x = _as_tensor(x)
    if axis is None:
        return _wrap(_c.tfe_squeeze(x._h, []))
    axes = [axis] if isinstance(axis, (int, _np.integer)) else list(axis)
    return _wrap(_c.tfe_squeeze(x._h, [_operator.index(a) for a in axes]))


@_export
def expand_dims(x, axis):
    """x with new extent-1 axes at the positions `axis` (an int or a tuple, counted in the
    result's rank, as NumPy). A view."""
    x = _as_tensor(x)
    axes = [axis] if isinstance(axis, (int, _np.integer)) else list(axis)
    return _wrap(_c.tfe_expand_dims(x._h, [_operator.index(a) for a in axes]))


@_export
def moveaxis(x, source, destination):
    """x with axes `source` moved to positions `destination` (ints or tuples), the others in
    their order. A view."""
    x = _as_tensor(x)
    nd = x.ndim
    src = [source] if isinstance(source, (int, _np.integer)) else list(source)
    dst = [destination] if isinstance(destination, (int, _np.integer)) else list(destination)
    if len(src) != len(dst):
        raise _c.InvalidArgumentError(
            "tenferro.moveaxis(): source and destination need the same number of axes")
    src = [_norm_axis(a, nd, "moveaxis") for a in src]
    dst = [_norm_axis(a, nd, "moveaxis") for a in dst]
    return _wrap(_c.tfe_moveaxis(x._h, src, dst))


@_export
def swapaxes(x, axis1, axis2):
    """x with two axes exchanged. A view."""
    x = _as_tensor(x)
    a = _norm_axis(axis1, x.ndim, "swapaxes")
    b = _norm_axis(axis2, x.ndim, "swapaxes")
    return _wrap(_c.tfe_swapaxes(x._h, a, b))


@_export
def ravel(x, order="C"):
    """The elements as a rank-1 tensor in NumPy's row-major order (order="F": column-major,
    tenferro's storage order, a view when compact)."""
    x = _as_tensor(x)
    if order == "F":
        return _wrap(_c.tfe_flatten(x._h))
    if order != "C":
        raise ValueError("ravel: order is 'C' or 'F'")
    if x.ndim <= 1:
        return _wrap(_c.tfe_flatten(x._h))
    # Row-major order is the column-major flattening of the reversed transpose.
    rev = _c.tfe_transpose(x._h, list(range(x.ndim - 1, -1, -1)))
    return _wrap(_c.tfe_flatten(rev))


@_export
def flatten(x, order="C"):
    """Same as :func:`ravel` (tensors are immutable, so there is nothing to copy)."""
    return ravel(x, order)


@_export
def split(x, indices_or_sections, axis=0):
    """A list of sub-tensors along axis: N equal sections (an int dividing the extent) or the
    pieces between the given indices (views)."""
    x = _as_tensor(x)
    ax = _norm_axis(axis, x.ndim, "split")
    n = x.shape[ax]
    if isinstance(indices_or_sections, (int, _np.integer)):
        k = int(indices_or_sections)
        if k <= 0 or n % k:
            raise _c.InvalidArgumentError(
                f"tenferro.split(): {k} sections do not divide extent {n} equally")
        return [_wrap(h) for h in _c.tfe_split(k, x._h, [], ax)]
    cuts = [_operator.index(i) for i in indices_or_sections]
    return [_wrap(h) for h in _c.tfe_split(len(cuts) + 1, x._h, cuts, ax)]


@_export
def tile(x, reps):
    """x repeated reps[i] times along axis i (as NumPy: reps longer than the rank adds leading
    axes, shorter reps apply to the trailing axes)."""
    x = _as_tensor(x)
    reps = (reps,) if isinstance(reps, (int, _np.integer)) else tuple(reps)
    reps = tuple(_operator.index(r) for r in reps)
    # NumPy aligns reps on the right and adds leading axes; the C function is left-aligned, so
    # the axes are added here and reps padded to the rank.
    if len(reps) > x.ndim:
        x = _reshape(x, [1] * (len(reps) - x.ndim) + list(x.shape))
    reps = (1,) * (x.ndim - len(reps)) + reps
    return _wrap(_c.tfe_tile(x._h, list(reps)))


@_export
def repeat(x, repeats, axis=None):
    """Each element repeated `repeats` times (an int or one count per element) along axis
    (None: over the row-major flattening). A gather, so differentiable."""
    x = _as_tensor(x)
    if axis is None:
        x, axis = ravel(x), 0
    ax = _norm_axis(axis, x.ndim, "repeat")
    counts = _np.asarray(repeats).reshape(-1)
    if counts.dtype.kind not in "iub":
        raise TypeError("tenferro.repeat(): repeats must be integers")
    return _wrap(_c.tfe_repeat(x._h, [int(c) for c in counts], ax))


@_export
def roll(x, shift, axis=None):
    """Elements shifted by `shift` along axis, wrapping around (axis=None: over the row-major
    flattening, shape kept). A gather, so differentiable."""
    x = _as_tensor(x)
    if axis is None:
        flat = roll(ravel(x), shift, 0)
        return _c_order_reshape(flat, x.shape)
    shifts = (shift,) if isinstance(shift, (int, _np.integer)) else tuple(shift)
    axes = (axis,) if isinstance(axis, (int, _np.integer)) else tuple(axis)
    if len(shifts) == 1 and len(axes) > 1:  # NumPy broadcasts the shifts against the axes
        shifts = shifts * len(axes)
    elif len(axes) == 1 and len(shifts) > 1:
        axes = axes * len(shifts)
    if len(shifts) != len(axes):
        raise _c.InvalidArgumentError("tenferro.roll(): one shift per axis")
    axes = [_norm_axis(a, x.ndim, "roll") for a in axes]
    return _wrap(_c.tfe_roll(x._h, [_operator.index(s) for s in shifts], axes))


def _c_order_reshape(x, shape):
    """reshape in NumPy's row-major element order."""
    rev = list(shape)[::-1]
    h = _c.tfe_reshape(_r._flat_c_order(x)._h if x.ndim > 1 else x._h, rev)
    return _wrap(_c.tfe_transpose(h, list(range(len(rev) - 1, -1, -1))))


@_export
def diagonal(x, offset=0, axis1=0, axis2=1):
    """The diagonal of dims (axis1, axis2), offset k above (k > 0) or below it, as the LAST axis
    of the result (as NumPy); the other axes keep their order. A view."""
    x = _as_tensor(x)
    a = _norm_axis(axis1, x.ndim, "diagonal")
    b = _norm_axis(axis2, x.ndim, "diagonal")
    if a == b:
        raise _c.InvalidArgumentError("tenferro.diagonal(): axis1 and axis2 are the same axis")
    d = _c.tfe_diagonal(x._h, _operator.index(offset), a, b)  # the diagonal is dim 0
    return _wrap(_c.tfe_moveaxis(d, [0], [-1]))


@_export
def diag(v, k=0):
    """A rank-1 v gives the square matrix with v on diagonal k; a matrix gives its diagonal k
    (as NumPy)."""
    v = _as_tensor(v)
    if v.ndim not in (1, 2):
        raise _c.InvalidArgumentError(f"tenferro.diag(): needs rank 1 or 2, not {v.ndim}")
    return _wrap(_c.tfe_diag(v._h, _operator.index(k)))


# ---- creation -----------------------------------------------------------------------------

@_export
def linspace(start, stop, num=50, endpoint=True, dtype=None, *, context=None, device=None):
    """`num` evenly spaced values from start to stop (stop included unless endpoint=False);
    float64 unless dtype is given; on `device` when given."""
    return _creating(
        lambda: _spaced(_c.tfe_linspace, "linspace", start, stop, num, endpoint, dtype, context),
        device, context)


def _spaced(fn, name, start, stop, num, endpoint, dtype, context, *base):
    num = _operator.index(num)
    if num < 0:
        raise _c.InvalidArgumentError(f"tenferro.{name}(): num = {num} is negative")
    a, b = complex(start), complex(stop)
    cplx = isinstance(start, complex) or isinstance(stop, complex) or \
        _np.iscomplexobj(start) or _np.iscomplexobj(stop)
    code = _c.TFE_C64 if cplx else _c.TFE_F64
    want = None if dtype is None else _dtype_code(dtype)
    if want in (_c.TFE_F32, _c.TFE_F64, _c.TFE_C32, _c.TFE_C64):
        code, want = want, None  # computed in double precision, rounded once
    r = _wrap(fn(_ctx_handle(context), code, a.real, a.imag, b.real, b.imag, num,
                 int(bool(endpoint)), *base))
    return r if want is None else r.astype(dtype)


@_export
def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, *, context=None,
             device=None):
    """base ** linspace(start, stop, num, endpoint); on `device` when given."""
    return _creating(lambda: _spaced(_c.tfe_logspace, "logspace", start, stop, num, endpoint,
                                     dtype, context, float(base)), device, context)


def _like(x, dtype, shape):
    x = _as_tensor(x)
    return (_dtype_code(x.dtype if dtype is None else dtype),
            list(x.shape) if shape is None else shape, x.context)


@_export
def zeros_like(x, dtype=None, shape=None):
    """Zeros with x's shape and dtype (or the given ones), in x's context."""
    if shape is None:
        x = _as_tensor(x)
        return _wrap(_c.tfe_zeros_like(x._h, -1 if dtype is None else _dtype_code(dtype)))
    code, shape, ctx = _like(x, dtype, shape)
    return _wrap(_c.tfe_zeros(ctx._h, code, _shape(shape)))


@_export
def ones_like(x, dtype=None, shape=None):
    """Ones with x's shape and dtype (or the given ones), in x's context."""
    if shape is None:
        x = _as_tensor(x)
        return _wrap(_c.tfe_ones_like(x._h, -1 if dtype is None else _dtype_code(dtype)))
    code, shape, ctx = _like(x, dtype, shape)
    return _wrap(_c.tfe_ones(ctx._h, code, _shape(shape)))


@_export
def full_like(x, fill_value, dtype=None, shape=None):
    """`fill_value` with x's shape and dtype (or the given ones), in x's context."""
    code, shape, ctx = _like(x, dtype, shape)
    v = _np.ascontiguousarray(_np.asarray(fill_value, dtype=_CODE_TO_NP[code]))
    if shape is None or list(shape) == list(x.shape):
        return _wrap(_c.tfe_full_like(_as_tensor(x)._h, code, v))
    return _wrap(_c.tfe_full(ctx._h, code, _shape(shape), v))


# ---- files --------------------------------------------------------------------------------

@_export
def save(file, t):
    """Writes a tensor's values to a NumPy .npy file (a path or a binary file object; as
    numpy.save, ".npy" is appended to a path without it)."""
    _np.save(file, _as_tensor(t).numpy(), allow_pickle=False)


@_export
def load(file, *, context=None):
    """A Tensor with the values of a .npy file written by :func:`save` (or by numpy.save)."""
    return Tensor(_np.load(file, allow_pickle=False), context=context)


for _name in ("square", "trace", "diagonal", "squeeze", "swapaxes", "ravel", "flatten", "repeat",
              "nan_to_num"):
    setattr(Tensor, _name, globals()[_name])
del _name


# ---- sorting ------------------------------------------------------------------------------

def _orderable(x, axis, name):
    """(x, axis): x as a tensor with an order (not complex); axis=None sorts NumPy's row-major
    flattening."""
    x = _as_tensor(x)
    if x.dtype.kind == "c":
        raise TypeError(f"tenferro.{name}(): complex values have no order")
    if axis is None:
        return _r._flat_c_order(x), 0
    return x, _norm_axis(axis, x.ndim, name)


@_export
def argsort(x, axis=-1, descending=False):
    """Indices (int64) that sort x along axis (None: the row-major flattening), stably: equal
    values keep their order, NaN goes last. descending=True orders from largest to smallest,
    NaN still last, as ``np.argsort(-x, kind='stable')``. O(n log n) per lane (tfe_argsort).
    Not differentiable."""
    x, ax = _orderable(x, axis, "argsort")
    return _wrap(_c.tfe_argsort(x._h, ax, int(bool(descending))))


@_export
def sort(x, axis=-1, descending=False):
    """x sorted along axis (None: the row-major flattening), stably, NaN last (see
    :func:`argsort`). Differentiable: the values are gathered with the sorting permutation, so the
    cotangent goes back to each value's original place (tfe_sort)."""
    x, ax = _orderable(x, axis, "sort")
    return _wrap(_c.tfe_sort(x._h, ax, int(bool(descending))))


TopkResult = _collections.namedtuple("TopkResult", "values indices")


@_export
def topk(x, k, axis=-1, largest=True):
    """The k largest (largest=False: smallest) elements along axis, in order, and their indices:
    ``TopkResult(values, indices)``; values are differentiable, indices are int64. Ties keep
    their order and NaN comes last, as in :func:`argsort` (tfe_topk)."""
    x, ax = _orderable(x, axis, "topk")
    k = _operator.index(k)
    n = x.shape[ax]
    if isinstance(n, int) and not 0 <= k <= n:
        raise _c.InvalidArgumentError(f"tenferro.topk(): k = {k} is not in [0, {n}]")
    values, indices = _c.tfe_topk(x._h, k, ax, int(bool(largest)))
    return TopkResult(_wrap(values), _wrap(indices))
