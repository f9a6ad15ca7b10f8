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
from ._core import _CODE_TO_NP, Tensor, _as_tensor, _ctx_handle, _dtype_code, _shape, _wrap
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
    x = _as_tensor(x)
    return x * x


@_export
def reciprocal(x):
    """1 / x elementwise (integers and Bool give float64, unlike NumPy's integer reciprocal)."""
    return 1 / _inexact(x)


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
    """log(exp(a) + exp(b)) without overflow: max(a, b) + log1p(exp(-|a - b|)); real floats."""
    a, b = _o._binary_operands(_real_float(a, "logaddexp"), _real_float(b, "logaddexp"))
    m = _o.maximum(a, b)
    d = _o.abs(a - b)
    finite = _o.equal(d - d, 0.0)  # a == b == +-inf gives NaN here: the maximum is the answer
    return _o.select(finite, m + _o.log1p(_o.exp(-_o.select(finite, d, 0.0))), m)


@_export
def hypot(a, b):
    """sqrt(a^2 + b^2) elementwise, scaled by max(|a|, |b|) so that it does not overflow; real
    floats. Its derivative at a = b = 0 is 0."""
    a, b = _o._binary_operands(_real_float(a, "hypot"), _real_float(b, "hypot"))
    aa, ab = _o.abs(a), _o.abs(b)
    m = _o.maximum(aa, ab)
    safe = _o.select(_o.equal(m, 0.0), 1.0, m)
    n = _o.minimum(aa, ab) / safe
    return m * _o.sqrt(1.0 + n * n)


@_export
def sigmoid(x):
    """The logistic function 1 / (1 + e^-x), as 0.5 + 0.5 tanh(x / 2) (no overflow)."""
    x = _inexact(x)
    return 0.5 * _o.tanh(0.5 * x) + 0.5


erfc = _numpy_named("erfc", _o.erfc, real_only=True)


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
    z = _inexact(z)
    if z.dtype.kind == "c":
        r = _o.atan2(_o.imag(z), _o.real(z))
    else:
        r = _o.atan2(z - z, z)  # +0 (z * 0 would be -0 for negative z, giving -pi)
    return r * (180 / _math.pi) if deg else r


@_export
def copysign(a, b):
    """|a| with the sign of b (real floats; b = -0.0 counts as positive, unlike NumPy)."""
    a, b = _o._binary_operands(_real_float(a, "copysign"), _real_float(b, "copysign"))
    m = _o.abs(a)
    return _o.select(_o.less(b, 0.0), -m, m)


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
    x = _as_tensor(x)
    return _o.not_equal(x, x)


@_export
def isinf(x):
    """True where x is +-inf (either part, for complex)."""
    x = _as_tensor(x)
    if x.dtype.kind in "biu":
        return _o.not_equal(x, x)
    if x.dtype.kind == "c":
        return _o.or_(isinf(_o.real(x)), isinf(_o.imag(x)))
    return _o.equal(_o.abs(x), _math.inf)


@_export
def isfinite(x):
    """True where x is neither NaN nor +-inf."""
    x = _as_tensor(x)
    if x.dtype.kind in "biu":
        return _o.equal(x, x)
    return _o.equal(x - x, 0)


@_export
def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    """x with NaN replaced by `nan` and +-inf by posinf/neginf (default: the dtype's largest
    finite values), for real and (per part) complex floats; other dtypes are returned as is."""
    x = _as_tensor(x)
    if x.dtype.kind in "biu":
        return x
    if x.dtype.kind == "c":
        return _o.complex(nan_to_num(_o.real(x), nan, posinf, neginf),
                          nan_to_num(_o.imag(x), nan, posinf, neginf))
    big = float(_np.finfo(x.dtype).max)
    x = _o.select(isnan(x), nan, x)
    x = _o.select(_o.equal(x, _math.inf), big if posinf is None else posinf, x)
    return _o.select(_o.equal(x, -_math.inf), -big if neginf is None else neginf, x)


@_export
def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """|a - b| <= atol + rtol |b| elementwise (NumPy's asymmetric test); equal infinities are
    close; equal_nan=True makes NaN close to NaN. Bool result."""
    a, b = _o._binary_operands(a, b)
    if a.dtype.kind in "biu":
        a = _inexact(a)
    if b.dtype.kind in "biu":
        b = _inexact(b)
    a, b = _o._binary_operands(a, b)
    close = _o.less_equal(_o.abs(a - b), atol + rtol * _o.abs(b))
    close = _o.or_(close, _o.equal(a, b))
    if equal_nan:
        close = _o.or_(close, _o.and_(isnan(a), isnan(b)))
    return close


@_export
def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """True when every element is close (:func:`isclose`); a Python bool."""
    return bool(_r.all(isclose(a, b, rtol, atol, equal_nan)).item())


# ---- reductions ---------------------------------------------------------------------------

@_export
def logsumexp(x, axis=None, keepdims=False):
    """log(sum(exp(x))) over axes without overflow (the maximum is taken out first); real floats.
    Differentiable (its gradient is the softmax)."""
    x = _real_float(x, "logsumexp")
    m = _r.max(x, axis, keepdims=True)  # its derivative cancels: no need to detach it
    m = _o.select(isfinite(m), m, 0.0)
    s = _o.log(_r.sum(_o.exp(x - m), axis, keepdims=True)) + m
    if keepdims:
        return s
    return _r.sum(s, axis)  # drops the unit axes (a sum over extent-1 axes is exact)


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
    shape = x.shape
    if axis is None:
        drop = {i for i, e in enumerate(shape) if e == 1}
    else:
        axes = (axis,) if isinstance(axis, (int, _np.integer)) else axis
        drop = {_norm_axis(a, x.ndim, "squeeze") for a in axes}
        for a in drop:
            if shape[a] != 1:
                raise _c.InvalidArgumentError(
                    f"tenferro.squeeze(): axis {a} has extent {shape[a]}, not 1")
    return _reshape(x, [e for i, e in enumerate(shape) if i not in drop])


@_export
def expand_dims(x, axis):
    """x with new extent-1 axes at the positions `axis` (an int or a tuple, counted in the
    result's rank, as NumPy). A view."""
    x = _as_tensor(x)
    axes = (axis,) if isinstance(axis, (int, _np.integer)) else tuple(axis)
    nd = x.ndim + len(axes)
    new = {_norm_axis(a, nd, "expand_dims") for a in axes}
    if len(new) != len(axes):
        raise _c.InvalidArgumentError("tenferro.expand_dims(): an axis is repeated")
    it = iter(x.shape)
    return _reshape(x, [1 if i in new else next(it) for i in range(nd)])


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
    order = [a for a in range(nd) if a not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return _wrap(_c.tfe_transpose(x._h, order))


@_export
def swapaxes(x, axis1, axis2):
    """x with two axes exchanged. A view."""
    x = _as_tensor(x)
    a = _norm_axis(axis1, x.ndim, "swapaxes")
    b = _norm_axis(axis2, x.ndim, "swapaxes")
    perm = list(range(x.ndim))
    perm[a], perm[b] = perm[b], perm[a]
    return _wrap(_c.tfe_transpose(x._h, perm))


@_export
def ravel(x, order="C"):
    """The elements as a rank-1 tensor in NumPy's row-major order (order="F": column-major,
    tenferro's storage order, a view when compact)."""
    x = _as_tensor(x)
    if order == "F":
        return _reshape(x, [x.size])
    if order != "C":
        raise ValueError("ravel: order is 'C' or 'F'")
    return _r._flat_c_order(x)


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
        cuts = [n // k * i for i in range(1, k)]
    else:
        cuts = [_builtins.min(_builtins.max(int(i) + (n if int(i) < 0 else 0), 0), n)
                for i in indices_or_sections]
    out = []
    bounds = [0] + cuts + [n]
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        starts = [0] * x.ndim
        limits = list(x.shape)
        starts[ax], limits[ax] = lo, _builtins.max(lo, hi)
        out.append(_wrap(_c.tfe_slice(x._h, starts, limits, None)))
    return out


@_export
def tile(x, reps):
    """x repeated reps[i] times along axis i (as NumPy: reps longer than the rank adds leading
    axes, shorter reps apply to the trailing axes)."""
    x = _as_tensor(x)
    reps = (reps,) if isinstance(reps, (int, _np.integer)) else tuple(reps)
    if len(reps) > x.ndim:
        x = _reshape(x, [1] * (len(reps) - x.ndim) + list(x.shape))
    reps = (1,) * (x.ndim - len(reps)) + reps
    for ax, r in enumerate(reps):
        if r != 1:
            x = _o.concatenate([x] * r, ax) if r else _wrap(
                _c.tfe_slice(x._h, [0] * x.ndim,
                             [0 if i == ax else e for i, e in enumerate(x.shape)], None))
    return x


@_export
def repeat(x, repeats, axis=None):
    """Each element repeated `repeats` times (an int or one count per element) along axis
    (None: over the row-major flattening). A gather, so differentiable."""
    x = _as_tensor(x)
    if axis is None:
        x, axis = ravel(x), 0
    ax = _norm_axis(axis, x.ndim, "repeat")
    idx = _np.repeat(_np.arange(x.shape[ax]), repeats)
    return _o.gather(x, idx, ax)


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
    if len(shifts) != len(axes):
        raise _c.InvalidArgumentError("tenferro.roll(): one shift per axis")
    for s, a in zip(shifts, axes):
        a = _norm_axis(a, x.ndim, "roll")
        n = x.shape[a]
        if n:
            x = _o.gather(x, (_np.arange(n) - int(s)) % n, a)
    return x


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
    starts, limits = [0] * x.ndim, list(x.shape)
    if offset >= 0:
        starts[b] = _builtins.min(offset, limits[b])
    else:
        starts[a] = _builtins.min(-offset, limits[a])
    x = _wrap(_c.tfe_slice(x._h, starts, limits, None))
    d = _wrap(_c.tfe_extract_diag(x._h, a, b))
    pos = a if a < b else a - 1  # where extract_diag left the diagonal
    return moveaxis(d, pos, -1)


@_export
def diag(v, k=0):
    """A rank-1 v gives the square matrix with v on diagonal k; a matrix gives its diagonal k
    (as NumPy)."""
    v = _as_tensor(v)
    if v.ndim == 2:
        return diagonal(v, k)
    if v.ndim != 1:
        raise _c.InvalidArgumentError(f"tenferro.diag(): needs rank 1 or 2, not {v.ndim}")
    m = _o.embed_diag(v, 0, 1)
    if k > 0:
        return _o.pad(m, [0, k], [k, 0])
    if k < 0:
        return _o.pad(m, [-k, 0], [0, -k])
    return m


# ---- creation -----------------------------------------------------------------------------

@_export
def linspace(start, stop, num=50, endpoint=True, dtype=None, *, context=None):
    """`num` evenly spaced values from start to stop (stop included unless endpoint=False);
    float64 unless dtype is given."""
    num = _operator.index(num)
    if num < 0:
        raise _c.InvalidArgumentError(f"tenferro.linspace(): num = {num} is negative")
    div = (num - 1) if endpoint else num
    step = (stop - start) / div if div > 0 else 0.0
    i = _wrap(_c.tfe_iota(_ctx_handle(context), _c.TFE_F64, [num], 0))
    r = i * float(step) + float(start) if not isinstance(start + stop, complex) else \
        i * complex(step) + complex(start)
    if endpoint and num > 1:  # the last value is exactly stop, as NumPy
        last = _np.zeros(num, bool)
        last[-1] = True
        r = _o.select(last, stop, r)
    return r if dtype is None else r.astype(dtype)


@_export
def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, *, context=None):
    """base ** linspace(start, stop, num, endpoint)."""
    r = _o.exp(linspace(start, stop, num, endpoint, context=context) * _math.log(base))
    return r if dtype is None else r.astype(dtype)


def _like(x, dtype, shape):
    x = _as_tensor(x)
    return (_dtype_code(x.dtype if dtype is None else dtype),
            list(x.shape) if shape is None else shape, x.context)


@_export
def zeros_like(x, dtype=None, shape=None):
    """Zeros with x's shape and dtype (or the given ones), in x's context."""
    code, shape, ctx = _like(x, dtype, shape)
    return _wrap(_c.tfe_zeros(ctx._h, code, _shape(shape)))


@_export
def ones_like(x, dtype=None, shape=None):
    """Ones with x's shape and dtype (or the given ones), in x's context."""
    code, shape, ctx = _like(x, dtype, shape)
    return _wrap(_c.tfe_ones(ctx._h, code, _shape(shape)))


@_export
def full_like(x, fill_value, dtype=None, shape=None):
    """`fill_value` with x's shape and dtype (or the given ones), in x's context."""
    code, shape, ctx = _like(x, dtype, shape)
    v = _np.asarray(fill_value, dtype=_CODE_TO_NP[code])
    return _wrap(_c.tfe_full(ctx._h, code, _shape(shape), _np.ascontiguousarray(v)))


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

def _ranks(x, ax, descending):
    """For each element, its position in the stable sort along axis ax (int64), as a tensor
    with x's axis ax moved to the front: [n, rest..]. Compares all pairs (n^2 per lane). NaN
    sorts last (first when descending), as in NumPy."""
    y = moveaxis(x, ax, 0)
    n = y.shape[0]
    big = [n, n] + list(y.shape[1:])
    rest = list(range(2, len(big)))
    xi = _wrap(_c.tfe_broadcast_in_dim(y._h, big, [0] + rest))
    xj = _wrap(_c.tfe_broadcast_in_dim(y._h, big, [1] + rest))
    if descending:
        before = _o.greater(xj, xi)
    else:
        before = _o.less(xj, xi)
    same = _o.equal(xj, xi)
    if x.dtype.kind == "f":
        ni, nj = isnan(xi), isnan(xj)
        if descending:
            before = _o.or_(before, _o.and_(nj, _o.not_(ni)))
        else:
            before = _o.or_(before, _o.and_(ni, _o.not_(nj)))
        same = _o.or_(same, _o.and_(ni, nj))
    ctx = _c.tfe_tensor_context(x._h)
    i = _wrap(_c.tfe_iota(ctx, _c.TFE_I64, big, 0))
    j = _wrap(_c.tfe_iota(ctx, _c.TFE_I64, big, 1))
    before = _o.or_(before, _o.and_(same, _o.less(j, i)))
    return _r.sum(_o.cast(before, _np.int64), axis=1), y


def _sorted_positions(x, axis, descending, name):
    """(order, y): order[r, rest..] is the index along the axis of the r-th element of the
    stable sort; y is x with that axis first."""
    x = _as_tensor(x)
    if x.dtype.kind == "c":
        raise TypeError(f"tenferro.{name}(): complex values have no order")
    ax = _norm_axis(axis, x.ndim, name)
    rank, y = _ranks(x, ax, descending)
    n = y.shape[0]
    lanes = y.size // n if n else 0
    ctx = _c.tfe_tensor_context(x._h)
    # flat (column-major) target of each element: rank + n * lane; scatter the source index there
    lane = _wrap(_c.tfe_iota(ctx, _c.TFE_I64, [1, lanes], 1))
    flat_rank = _reshape(rank, [n, lanes])
    target = _reshape(flat_rank + lane * n, [n * lanes])
    src = _reshape(_wrap(_c.tfe_iota(ctx, _c.TFE_I64, [n, lanes], 0)), [n * lanes])
    zeros = _wrap(_c.tfe_zeros(ctx, _c.TFE_I64, [n * lanes]))
    order = _wrap(_c.tfe_scatter(zeros._h, target._h, src._h, 0))
    return _reshape(order, list(y.shape)), y, ax


def _take_sorted(y, order):
    """y's elements at `order` along axis 0, lane by lane (a flat gather: differentiable in y)."""
    n, k = y.shape[0], order.shape[0]
    lanes = y.size // n if n else 0
    ctx = _c.tfe_tensor_context(y._h)
    lane = _wrap(_c.tfe_iota(ctx, _c.TFE_I64, [k, lanes], 1))
    flat = _reshape(_reshape(order, [k, lanes]) + lane * n, [k * lanes])
    vals = _o.gather(_reshape(y, [y.size]), flat, 0)
    return _reshape(vals, list(order.shape))


@_export
def argsort(x, axis=-1, descending=False):
    """Indices (int64) that sort x along axis, stably (equal values keep their order; NaN
    last). Compares all pairs along the axis (n^2 work and memory per lane): meant for the
    moderate sizes of a model's parameters. Not differentiable."""
    order, y, ax = _sorted_positions(x, axis, descending, "argsort")
    return moveaxis(order, 0, ax)


@_export
def sort(x, axis=-1, descending=False):
    """x sorted along axis (stable; NaN last), as :func:`argsort` then a gather, so it is
    differentiable: the cotangent goes back to each value's original place."""
    order, y, ax = _sorted_positions(x, axis, descending, "sort")
    return moveaxis(_take_sorted(y, order), 0, ax)


TopkResult = _collections.namedtuple("TopkResult", "values indices")


@_export
def topk(x, k, axis=-1, largest=True):
    """The k largest (largest=False: smallest) elements along axis, in order, and their indices:
    ``TopkResult(values, indices)``; values are differentiable."""
    order, y, ax = _sorted_positions(x, axis, largest, "topk")
    n = y.shape[0]
    k = _operator.index(k)
    if not 0 <= k <= n:
        raise _c.InvalidArgumentError(f"tenferro.topk(): k = {k} is not in [0, {n}]")
    order = _wrap(_c.tfe_slice(order._h, [0] * order.ndim,
                               [k] + list(order.shape[1:]), None))
    return TopkResult(moveaxis(_take_sorted(y, order), 0, ax), moveaxis(order, 0, ax))
