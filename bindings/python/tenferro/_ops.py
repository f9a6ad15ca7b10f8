"""The operations of tenferro as functions: one per C op (include/tenferro/ops_*.h), plus the
creation functions of tensor.h and a few NumPy-style aliases.

Every function accepts Tensors or anything :class:`tenferro.Tensor` accepts (array-likes are
copied into the context of the first Tensor argument, or the default context) and returns new
Tensors. Errors of the library raise the TenferroError subclass of their status.
"""

import builtins as _builtins
import keyword as _keyword
import operator as _operator
import random as _random

import numpy as _np

from . import tenferro_c as _c
from ._op_rows import ANALYTIC, BASIC
from ._core import (Tensor, _as_tensor, _as_tensors, _axes, _creating, _ctx_handle, _dtype_code,
                    _is_py_scalar, _matmul_handles, _np_dtype, _resolve_shape, _shape, _wrap)

__all__ = []  # filled by _export


def _export(*fns):
    for f in fns:
        __all__.append(f.__name__)
    return fns[0] if len(fns) == 1 else fns


def _alias(name, f):
    globals()[name] = f
    __all__.append(name)


def _binary_operands(a, b):
    if isinstance(a, Tensor):
        return a, _as_tensor(b, a)
    if isinstance(b, Tensor):
        return _as_tensor(a, b), b
    if _is_py_scalar(a) and not _is_py_scalar(b):  # the scalar is weak against the array
        b = _as_tensor(b)
        return _as_tensor(a, b), b
    a = _as_tensor(a)
    return a, _as_tensor(b, a)


# ---- elementwise: generated from one table (name, C function, doc) ----------------------------

_BROADCAST_NOTE = (
    "\n\nOperands broadcast left-aligned (dim 0 pairs with dim 0; [2,3] with [2] works, [2,3] "
    "with [3] raises ShapeMismatchError) and promote to their joint dtype (NumPy's result_type).")
_BROADCAST_ONLY_NOTE = (
    "\n\nOperands broadcast left-aligned (dim 0 pairs with dim 0; [2,3] with [2] works, [2,3] "
    "with [3] raises ShapeMismatchError); they must share one dtype.")


def _make_binary(name, cfn, doc, promotes):
    def f(a, b):
        a, b = _binary_operands(a, b)
        return _wrap(cfn(a._h, b._h))

    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc + (_BROADCAST_NOTE if promotes else _BROADCAST_ONLY_NOTE)
    globals()[name] = f
    __all__.append(name)
    return f


def _make_unary(name, cfn, doc):
    def f(x):
        return _wrap(cfn(_as_tensor(x)._h))

    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    globals()[name] = f
    __all__.append(name)
    return f


# The functions that run one registry op each: one per row of the arithmetic, logical,
# complex-parts and analytic lists (tenferro/_op_rows.py is generated from them). A Python
# keyword gets a trailing underscore (and_, or_, not_).
for _name, _cname, _arity, _dtypes, _promotes, _, _, _, _summary in BASIC:
    _name = _name + "_" if _keyword.iskeyword(_name) else _name
    _doc = f"{_summary} Accepts {', '.join(_dtypes)}."
    if _arity == 1:
        _make_unary(_name, getattr(_c, _cname), _doc)
    else:
        _make_binary(_name, getattr(_c, _cname), _doc, _promotes)
for _name, _cname, _arity, _dtypes, _, _, _, _summary in ANALYTIC:
    _doc = f"{_summary} Accepts {', '.join(_dtypes)}."
    if _arity == 1:
        _make_unary(_name, getattr(_c, _cname), _doc)
    else:
        _make_binary(_name, getattr(_c, _cname), _doc, True)
del _name, _cname, _arity, _dtypes, _promotes, _summary, _doc
# The functions with checks of their own (ops_elementwise.h).
_make_binary("div", _c.tfe_div,
             "True division a / b: Bool and integers are converted to float64 first (1 / 0 is inf).",
             True)
_make_binary("div_trunc", _c.tfe_div_trunc,
             "Integer division truncating toward zero (C semantics, unlike Python's //); integers "
             "only; a zero divisor raises NumericalError.", True)

# NumPy-style names for the same functions.
for _a, _b in [("subtract", "sub"), ("multiply", "mul"), ("divide", "div"), ("true_divide", "div"),
               ("power", "pow"), ("negative", "neg"), ("bitwise_and", "and_"),
               ("bitwise_or", "or_"), ("bitwise_xor", "xor"), ("bitwise_not", "not_"),
               ("invert", "not_"), ("logical_and", "and_"), ("logical_or", "or_"),
               ("logical_xor", "xor"), ("logical_not", "not_")]:
    _alias(_a, globals()[_b])
del _a, _b

_DIRECTIONS = {"eq": _c.TFE_CMP_EQ, "ne": _c.TFE_CMP_NE, "lt": _c.TFE_CMP_LT, "le": _c.TFE_CMP_LE,
               "gt": _c.TFE_CMP_GT, "ge": _c.TFE_CMP_GE, "==": _c.TFE_CMP_EQ, "!=": _c.TFE_CMP_NE,
               "<": _c.TFE_CMP_LT, "<=": _c.TFE_CMP_LE, ">": _c.TFE_CMP_GT, ">=": _c.TFE_CMP_GE}


def compare(a, b, direction):
    """Bool tensor of ``a <direction> b``: direction is "eq", "ne", "lt", "le", "gt", "ge" (or
    "==", "!=", "<", "<=", ">", ">=", or a TFE_CMP_* code); complex operands only for eq/ne.
    Operands broadcast left-aligned and promote."""
    if isinstance(direction, str):
        try:
            direction = _DIRECTIONS[direction]
        except KeyError:
            raise ValueError(f"unknown comparison direction {direction!r}") from None
    a, b = _binary_operands(a, b)
    return _wrap(_c.tfe_compare(a._h, b._h, direction))


def _make_compare(name, code, sym):
    def f(a, b):
        a, b = _binary_operands(a, b)
        return _wrap(_c.tfe_compare(a._h, b._h, code))

    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"Bool tensor of a {sym} b (compare(a, b, {sym!r}))."
    _alias(name, f)


for _n, _code, _sym in [("equal", _c.TFE_CMP_EQ, "=="), ("not_equal", _c.TFE_CMP_NE, "!="),
                        ("less", _c.TFE_CMP_LT, "<"), ("less_equal", _c.TFE_CMP_LE, "<="),
                        ("greater", _c.TFE_CMP_GT, ">"), ("greater_equal", _c.TFE_CMP_GE, ">=")]:
    _make_compare(_n, _code, _sym)
del _n, _code, _sym


def select(pred, on_true, on_false):
    """``pred ? on_true : on_false`` elementwise; pred is Bool; the values promote; all three
    broadcast left-aligned."""
    ts = _as_tensors([pred, on_true, on_false], weak=(1, 2))
    return _wrap(_c.tfe_select(ts[0]._h, ts[1]._h, ts[2]._h))


def clamp(x, lo, hi):
    """minimum(maximum(x, lo), hi) (so lo > hi gives hi); no complex; operands promote."""
    ts = _as_tensors([x, lo, hi])
    return _wrap(_c.tfe_clamp(ts[0]._h, ts[1]._h, ts[2]._h))


_export(compare, select, clamp)
_alias("where", select)
_alias("clip", clamp)

# ---- contraction and reductions -----------------------------------------------------------


def matmul(a, b):
    """Batched matrix product in tenferro's layout: [M,K,B..] x [K,N,B..] -> [M,N,B..].

    The matrix dims come FIRST and batch dims follow (unlike NumPy's [..,M,K]); batch dims
    broadcast left-aligned ([M,K,B] x [K,N] -> [M,N,B]). A rank-1 operand follows NumPy: on the
    left it is a row ([K] x [K,N,B..] -> [N,B..]), on the right a column ([M,K,B..] x [K] ->
    [M,B..]), and vector x vector is the dot product (rank 0, no conjugation). The operands
    promote; floats and complex run on BLAS. Differentiable. Same as ``a @ b``."""
    a, b = _binary_operands(a, b)
    return _wrap(_matmul_handles(a._h, b._h))


def dot_general(lhs, rhs, lhs_contracting, rhs_contracting, lhs_batch=(), rhs_batch=()):
    """General contraction (StableHLO DotGeneral). Output dims: lhs free dims (lhs order), rhs free
    dims (rhs order), then the batch dims (lhs batch order)."""
    lhs, rhs = _binary_operands(lhs, rhs)
    return _wrap(_c.tfe_dot_general(lhs._h, rhs._h, _axes(lhs_contracting), _axes(rhs_contracting),
                                    _axes(lhs_batch), _axes(rhs_batch)))


def _make_reduction(name, cfn, doc):
    def f(x, axes=None):
        return _wrap(cfn(_as_tensor(x)._h, _axes(axes)))

    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc + (
        "\n\naxes: an int, a sequence of ints (negative count from the end) or None for every "
        "axis (an empty sequence also means every axis, as in the C API). Reduced axes are "
        "dropped.")
    globals()[name] = f
    __all__.append(name)


for _name, _cfn, _doc in [
        ("reduce_sum", _c.tfe_reduce_sum, "Sum over axes keeping the dtype (no widening); no Bool."),
        ("reduce_prod", _c.tfe_reduce_prod, "Product over axes keeping the dtype; no Bool."),
        ("reduce_max", _c.tfe_reduce_max, "Maximum over axes (NaN propagates; any() on Bool); no complex."),
        ("reduce_min", _c.tfe_reduce_min, "Minimum over axes (NaN propagates; all() on Bool); no complex."),
]:
    _make_reduction(_name, _cfn, _doc)
del _name, _cfn, _doc
# sum, prod, mean, max, min (NumPy's keywords) and amax/amin: tenferro/_reduce.py

# ---- conversion and structure -------------------------------------------------------------


def convert(x, dtype):
    """Checked conversion to dtype: only lossless ones (NumPy's "safe" casting), else
    DtypeMismatchError."""
    return _wrap(_c.tfe_convert(_as_tensor(x)._h, _dtype_code(dtype)))


def cast(x, dtype):
    """Lossy conversion to dtype: float -> int truncates toward zero and saturates (NaN -> 0),
    complex -> real keeps the real part, -> bool is x != 0."""
    return _wrap(_c.tfe_cast(_as_tensor(x)._h, _dtype_code(dtype)))


def transpose(x, perm=None):
    """Output dim i is input dim perm[i] (a view); perm=None reverses the axes."""
    x = _as_tensor(x)
    if perm is None:
        perm = range(x.ndim - 1, -1, -1)
    return _wrap(_c.tfe_transpose(x._h, _axes(perm)))


def reshape(x, shape):
    """The same elements in COLUMN-MAJOR order with a new shape (NumPy's ``order='F'``); one
    extent may be -1. A view when the layout allows. On a symbolic tensor, extents may be
    symbols (a name, a plain symbolic extent of a shape, -k for k >= 2; -1 means infer and
    needs a concrete size)."""
    x = _as_tensor(x)
    return _wrap(_c.tfe_reshape(x._h, _resolve_shape(shape, x)))


def broadcast_in_dim(x, shape, dims):
    """Operand dim i becomes output dim dims[i] of `shape`; extents 1 repeat. A view. On a
    symbolic tensor, `shape` may name symbols ("n", -k)."""
    x = _as_tensor(x)
    return _wrap(_c.tfe_broadcast_in_dim(x._h, _shape(shape, x), _axes(dims)))


def broadcast_to(x, shape):
    """Left-aligned broadcast of x to shape (x's dims pair with the leading dims of shape). A view.
    On a symbolic tensor, `shape` may name symbols ("n", -k)."""
    x = _as_tensor(x)
    return _wrap(_c.tfe_broadcast_to(x._h, _shape(shape, x)))


def reverse(x, axes):
    """The elements in reverse order along axes. A view."""
    return _wrap(_c.tfe_reverse(_as_tensor(x)._h, _axes(axes)))


def extract_diag(x, axis_a=0, axis_b=1):
    """Diagonal of dims (axis_a, axis_b): axis_b is removed and the diagonal (length the smaller
    extent) stays at axis_a's position. A view."""
    return _wrap(_c.tfe_extract_diag(_as_tensor(x)._h, axis_a, axis_b))


def embed_diag(x, axis_a=0, axis_b=1):
    """Inverse of extract_diag: axes name output dims; inserts axis_b and puts x on the diagonal."""
    return _wrap(_c.tfe_embed_diag(_as_tensor(x)._h, axis_a, axis_b))


def tril(x, k=0):
    """Lower triangle of each matrix (dims 0 and 1): keeps (i, j) with j - i <= k."""
    return _wrap(_c.tfe_tril(_as_tensor(x)._h, k))


def triu(x, k=0):
    """Upper triangle of each matrix (dims 0 and 1): keeps (i, j) with j - i >= k."""
    return _wrap(_c.tfe_triu(_as_tensor(x)._h, k))


def slice(x, starts, limits, strides=None):  # noqa: A001 (mirrors tfe_slice)
    """Elements starts[d] <= i < limits[d] with step strides[d] (None: all 1). A view.
    ``t[a:b:c]`` indexing builds on this. On a symbolic tensor, starts and limits may be
    symbols ("n", -k): ``slice(x, [1], ["n"])`` of an ``("n",)`` tensor has extent n - 1."""
    x = _as_tensor(x)
    return _wrap(_c.tfe_slice(x._h, _shape(starts, x), _shape(limits, x),
                              None if strides is None else _shape(strides)))


def _index_tensor(starts, like):
    if isinstance(starts, Tensor):
        return starts
    a = _np.asarray(starts)
    return _as_tensor(a if a.dtype in (_np.int32, _np.int64) else a.astype(_np.int64), like)


def dynamic_slice(x, starts, sizes):
    """Block of extents `sizes` at start indices `starts` (a rank-1 integer tensor or a sequence),
    clamped so that the block fits. On a symbolic tensor, sizes may be symbols ("n", -k)."""
    x = _as_tensor(x)
    return _wrap(_c.tfe_dynamic_slice(x._h, _index_tensor(starts, x)._h, _shape(sizes, x)))


def dynamic_update_slice(x, update, starts):
    """x with the block at (clamped) `starts` replaced by update; x and update promote."""
    x, update = _binary_operands(x, update)
    return _wrap(_c.tfe_dynamic_update_slice(x._h, update._h, _index_tensor(starts, x)._h))


def gather(x, indices, axis):
    """Take along axis: ``x[..., indices, ...]`` with indices' shape replacing dim axis (as
    numpy.take); an index outside [0, extent) raises InvalidArgumentError."""
    x = _as_tensor(x)
    return _wrap(_c.tfe_gather(x._h, _index_tensor(indices, x)._h, axis))


def scatter(x, indices, updates, axis):
    """Scatter-add along axis: x plus `updates` added at `indices` (duplicates accumulate);
    updates have the shape gather(x, indices, axis) would have; x and updates promote."""
    x = _as_tensor(x)
    return _wrap(_c.tfe_scatter(x._h, _index_tensor(indices, x)._h, _as_tensor(updates, x)._h,
                                axis))


def pad(x, low, high, interior=None):
    """Zero padding: low/high elements per dim (negative values crop) and `interior` zeros between
    elements (None: none)."""
    return _wrap(_c.tfe_pad(_as_tensor(x)._h, _shape(low), _shape(high),
                            None if interior is None else _shape(interior)))


def concatenate(xs, axis=0):
    """Joins n >= 1 tensors along axis; the other extents must agree; dtypes promote."""
    return _wrap(_c.tfe_concatenate([t._h for t in _as_tensors(xs)], axis))


def stack(xs, axis=0):
    """Stacks n >= 1 tensors of one shape along a new axis (counted in the output rank, as
    numpy.stack)."""
    return _wrap(_c.tfe_stack([t._h for t in _as_tensors(xs)], axis))


_export(matmul, dot_general, convert, cast, transpose, reshape, broadcast_in_dim, broadcast_to,
        reverse, extract_diag, embed_diag, tril, triu, slice, dynamic_slice, dynamic_update_slice,
        gather, scatter, pad, concatenate, stack)
_alias("flip", reverse)

# ---- creation -----------------------------------------------------------------------------
# Each takes device= ("cpu", "cuda", "cuda:N"): the tensor is created there (tenferro.device).


def zeros(shape, dtype=_np.float64, *, context=None, device=None):
    """A tensor of `shape` (an int or a sequence) with every element zero."""
    return _creating(lambda: _wrap(_c.tfe_zeros(_ctx_handle(context), _dtype_code(dtype),
                                                _shape(shape))), device, context)


def ones(shape, dtype=_np.float64, *, context=None, device=None):
    """A tensor of `shape` with every element one (True for bool)."""
    return _creating(lambda: _wrap(_c.tfe_ones(_ctx_handle(context), _dtype_code(dtype),
                                               _shape(shape))), device, context)


def full(shape, value, dtype=None, *, context=None, device=None):
    """A tensor of `shape` with every element `value`; dtype=None takes the dtype of value (Python
    bool -> bool, int -> int64, float -> float64, complex -> complex128)."""
    v = _np.ascontiguousarray(_np.asarray(value, dtype=None if dtype is None else _np_dtype(dtype)))
    code = _dtype_code(v.dtype)
    return _creating(lambda: _wrap(_c.tfe_full(_ctx_handle(context), code, _shape(shape), v)),
                     device, context)


def eye(n, m=None, dtype=_np.float64, *, context=None, device=None):
    """An n x m matrix (m=None: n) with ones on the diagonal."""
    return _creating(lambda: _wrap(_c.tfe_eye(_ctx_handle(context), _dtype_code(dtype), n,
                                              n if m is None else m)), device, context)


def arange(start, stop=None, step=1, dtype=None, *, context=None, device=None):
    """[start, stop) with step as a rank-1 tensor (as numpy.arange; arange(n) is 0..n-1).
    dtype=None: int64 when start, stop and step are ints, else float64."""
    if stop is None:
        start, stop = 0, start
    if dtype is None:
        ints = _builtins.all(isinstance(v, (int, _np.integer)) and not isinstance(v, bool)
                             for v in (start, stop, step))
        dtype = _np.int64 if ints else _np.float64
    return _creating(lambda: _wrap(_c.tfe_arange(_ctx_handle(context), _dtype_code(dtype),
                                                 float(start), float(stop), float(step))),
                     device, context)


def iota(shape, axis=0, dtype=_np.int64, *, context=None, device=None):
    """A tensor of `shape` whose elements are their index along `axis`."""
    return _creating(lambda: _wrap(_c.tfe_iota(_ctx_handle(context), _dtype_code(dtype),
                                               _shape(shape), axis)), device, context)


def _seed(seed):
    return _random.getrandbits(64) if seed is None else _operator.index(seed) & (2**64 - 1)


def random_uniform(shape, low=0.0, high=1.0, *, seed=None, dtype=_np.float64, context=None,
                   device=None):
    """Uniform values in [low, high) (per part for complex); float and complex dtypes.

    Counter-based: the same `seed` gives the same values on every machine and thread count;
    seed=None draws one from Python's `random` module (so ``random.seed`` makes runs repeat)."""
    s = _seed(seed)
    return _creating(lambda: _wrap(_c.tfe_random_uniform(_ctx_handle(context), _dtype_code(dtype),
                                                         _shape(shape), s, float(low),
                                                         float(high))), device, context)


def random_normal(shape, *, seed=None, dtype=_np.float64, context=None, device=None):
    """Standard normal values (complex: independent parts of variance 1/2); float and complex
    dtypes. Seeds as in random_uniform."""
    s = _seed(seed)
    return _creating(lambda: _wrap(_c.tfe_random_normal(_ctx_handle(context), _dtype_code(dtype),
                                                        _shape(shape), s)), device, context)


_export(zeros, ones, full, eye, arange, iota, random_uniform, random_normal)

# ---- library ------------------------------------------------------------------------------


def version():
    """The library version string, e.g. "0.1.0"."""
    return _c.tfe_version()


def abi_version():
    """The ABI version the library was built with (TFE_ABI_VERSION)."""
    return _c.tfe_abi_version()


def debug_live_objects():
    """The number of live tenferro handles (contexts and tensors) in the process: a leak check.
    The module's default context, once created, counts as one."""
    return _c.tfe_debug_live_objects()


def set_num_threads(threads):
    """Sets the library's thread budget (>= 1), shared with OpenBLAS, which is process-wide (NumPy
    or PyTorch in the same process see the same setting)."""
    _c.tfe_set_num_threads(threads)


def get_num_threads():
    """The library's thread budget."""
    return _c.tfe_get_num_threads()


def device_count(kind="cuda"):
    """Number of usable devices of ``kind``: ``"cuda"`` GPUs (0 without the CUDA plugin, a
    driver or a GPU), or 1 for ``"cpu"``."""
    if str(kind).lower() == "cpu":
        return 1
    if str(kind).lower() != "cuda":
        raise ValueError(f"device kind {kind!r} is not 'cpu' or 'cuda'")
    return _c.tfe_device_count()


def op_names():
    """The names of the library's op table, in table order: the core IR ops, then the linear
    algebra functions as ``linalg.<name>``."""
    return [_c.tfe_op_name(i) for i in range(_c.tfe_op_count())]


def status_name(status):
    """"TFE_OK", "TFE_ERR_SHAPE_MISMATCH", ... for a status code."""
    return _c.tfe_status_name(status)


_export(version, abi_version, debug_live_objects, set_num_threads, get_num_threads, device_count,
        op_names, status_name)
