"""Contexts, the Tensor class and the conversions between NumPy, Python values and tenferro.

Everything here calls the low-level module ``tenferro.tenferro_c``, whose functions are the C
functions of ``include/tenferro/*.h`` with the conventions of that header turned into Python: handle
outputs become return values (owning proxies that release the handle when collected), a failing
status raises the exception class of that status, and counted arrays are Python sequences.
"""

import builtins as _builtins
import operator as _operator
import threading as _threading

import numpy as _np

from . import tenferro_c as _c

__all__ = [
    "Context",
    "Tensor",
    "default_context",
    "from_numpy",
    "from_dlpack",
    "asarray",
    "tensor",
]

# ---- dtypes -------------------------------------------------------------------------------

#: (numpy kind, itemsize) -> TFE dtype code
_KIND_TO_CODE = {
    ("b", 1): _c.TFE_BOOL,
    ("i", 4): _c.TFE_I32,
    ("i", 8): _c.TFE_I64,
    ("f", 4): _c.TFE_F32,
    ("f", 8): _c.TFE_F64,
    ("c", 8): _c.TFE_C32,
    ("c", 16): _c.TFE_C64,
}
_CODE_TO_NP = {
    _c.TFE_BOOL: _np.dtype(_np.bool_),
    _c.TFE_I32: _np.dtype(_np.int32),
    _c.TFE_I64: _np.dtype(_np.int64),
    _c.TFE_F32: _np.dtype(_np.float32),
    _c.TFE_F64: _np.dtype(_np.float64),
    _c.TFE_C32: _np.dtype(_np.complex64),
    _c.TFE_C64: _np.dtype(_np.complex128),
}
_SUPPORTED = "bool, int32, int64, float32, float64, complex64, complex128"


def _np_dtype(dtype):
    """A supported NumPy dtype from anything np.dtype accepts; TypeError otherwise."""
    try:
        d = _np.dtype(dtype)
    except TypeError:
        raise TypeError(f"tenferro has no dtype {dtype!r} (supported: {_SUPPORTED})") from None
    code = _KIND_TO_CODE.get((d.kind, d.itemsize)) if d.fields is None else None
    if code is None:
        raise TypeError(f"tenferro has no dtype {d} (supported: {_SUPPORTED})")
    return _CODE_TO_NP[code]


def _dtype_code(dtype):
    """TFE dtype code of a dtype-like value (TypeError if tenferro has no such dtype)."""
    d = _np_dtype(dtype)
    return _KIND_TO_CODE[(d.kind, d.itemsize)]


# ---- contexts -----------------------------------------------------------------------------


class Context:
    """A tenferro context (eager mode).

    Every tensor belongs to one context and keeps it alive; operations on tensors of two contexts
    raise InvalidArgumentError. Most code never creates one: functions use the module's default
    context (:func:`default_context`) unless given ``context=``.
    """

    __slots__ = ("_h", "__weakref__")

    def __init__(self):
        self._h = _c.tfe_context_create()

    @classmethod
    def _wrap(cls, handle):
        obj = cls.__new__(cls)
        obj._h = handle
        return obj

    def _address(self):
        return int(self._h.this)

    def __eq__(self, other):
        if not isinstance(other, Context):
            return NotImplemented
        return self._address() == other._address()

    def __hash__(self):
        return hash(self._address())

    def __repr__(self):
        return f"<tenferro.Context at 0x{self._address():x}>"


_default_lock = _threading.Lock()
_default_ctx = None


def default_context():
    """The module's default Context, created on first use."""
    global _default_ctx
    ctx = _default_ctx
    if ctx is None:
        with _default_lock:
            if _default_ctx is None:
                _default_ctx = Context()
            ctx = _default_ctx
    return ctx


def _ctx_handle(context):
    if context is None:
        return default_context()._h
    if isinstance(context, Context):
        return context._h
    raise TypeError(f"context must be a tenferro.Context or None, not {type(context).__name__}")


# ---- conversions --------------------------------------------------------------------------


def _prepare(a):
    """a (a supported dtype) with native byte order, aligned data and strides that are whole
    elements, copying only when needed."""
    if not a.dtype.isnative:
        a = a.astype(a.dtype.newbyteorder("="))
    item = a.itemsize
    if not a.flags.aligned or _builtins.any(s % item for s in a.strides):
        a = _np.array(a, order="F", copy=True)
    return a


def _element_strides(a):
    return tuple(s // a.itemsize for s in a.strides)


def _handle_from_data(data, dtype, context):
    """A new handle holding a copy of `data` (array-like or scalar)."""
    if dtype is not None:
        dtype = _np_dtype(dtype)
    a = _np.asarray(data, dtype=dtype)
    code = _dtype_code(a.dtype)
    a = _prepare(a)
    return _c.tfe_tensor_from_data(_ctx_handle(context), code, a.shape, _element_strides(a), a)


def _scalar_or_array_handle(x, ctx_handle):
    """Handle for a non-Tensor operand: Python bool -> Bool, int -> I64, float -> F64, complex ->
    C64 (rank 0); NumPy arrays and scalars keep their dtype; sequences go through np.asarray."""
    a = _np.asarray(x)
    code = _dtype_code(a.dtype)
    a = _prepare(a)
    return _c.tfe_tensor_from_data(ctx_handle, code, a.shape, _element_strides(a), a)


def _wrap(handle):
    t = Tensor.__new__(Tensor)
    t._h = handle
    return t


def _as_tensor(x, like=None, context=None):
    """x as a Tensor; non-tensors are copied into the context of `like` (a Tensor) if given."""
    if isinstance(x, Tensor):
        return x
    if like is not None:
        ctx_h = _c.tfe_tensor_context(like._h)
    else:
        ctx_h = _ctx_handle(context)
    return _wrap(_scalar_or_array_handle(x, ctx_h))


def _as_tensors(xs, context=None):
    """A list of Tensors from a sequence; array-likes join the context of the first Tensor."""
    xs = list(xs)
    like = next((x for x in xs if isinstance(x, Tensor)), None)
    return [_as_tensor(x, like, context) for x in xs]


def _axes(axes):
    """None -> [] (every axis), an int -> [int], a sequence -> list."""
    if axes is None:
        return []
    if isinstance(axes, (int, _np.integer)):
        return [_operator.index(axes)]
    return [_operator.index(a) for a in axes]


def _shape(shape):
    if isinstance(shape, (int, _np.integer)):
        return [_operator.index(shape)]
    return [_operator.index(s) for s in shape]


def _binary(cfn, a, b):
    """cfn on two operands, at least one a Tensor; NotImplemented if the other cannot convert."""
    try:
        if isinstance(a, Tensor):
            b = _as_tensor(b, a)
        else:
            a = _as_tensor(a, b)
    except TypeError:
        return NotImplemented
    return _wrap(cfn(a._h, b._h))


def _binop(cfn, name):
    def op(self, other):
        return _binary(cfn, self, other)

    def rop(self, other):
        return _binary(cfn, other, self)

    op.__name__ = f"__{name}__"
    rop.__name__ = f"__r{name}__"
    return op, rop


def _cmpop(direction, name):
    def op(self, other):
        try:
            other = _as_tensor(other, self)
        except TypeError:
            return NotImplemented
        return _wrap(_c.tfe_compare(self._h, other._h, direction))

    op.__name__ = f"__{name}__"
    return op


# ---- the Tensor class ---------------------------------------------------------------------


class Tensor:
    """An immutable n-dimensional array owned by tenferro.

    ``Tensor(data, dtype=None, context=None)`` copies `data` (a NumPy array, nested lists, a
    scalar, or anything ``numpy.asarray`` accepts). Strided, transposed and negative-stride NumPy
    arrays are copied without a temporary; non-native byte order or strides that are not whole
    elements are copied once first. Supported dtypes: bool, int32, int64, float32, float64,
    complex64, complex128; others raise TypeError. For a zero-copy view use :func:`from_numpy`.

    ``t.shape`` is the same logical shape as the NumPy array's, and ``t.numpy()`` returns an
    equal array; storage is column-major internally. Broadcasting is left-aligned (Julia style),
    ``@`` uses [M, K, batch..] x [K, N, batch..], and ``reshape`` uses column-major element order:
    see the package docstring.

    Operators: ``+ - * / ** @``, unary ``-``, ``abs()``, ``== != < <= > >=`` (Bool tensors),
    ``& | ^ ~`` (Bool and integers). The other operand may be a Tensor, a NumPy array, a sequence
    or a Python scalar (bool -> Bool, int -> int64, float -> float64, complex -> complex128,
    rank 0), then the usual promotion applies (so ``float32_tensor * 2.0`` is float64).
    ``//`` and ``%`` are not defined: see :func:`tenferro.div_trunc` and :func:`tenferro.rem`,
    which truncate toward zero like C, unlike Python.
    """

    __slots__ = ("_h", "__weakref__")
    # NumPy must not turn `ndarray + Tensor` into a ufunc over our __array__ (NumPy broadcasting);
    # this makes NumPy return NotImplemented so that Tensor.__radd__ runs.
    __array_ufunc__ = None
    __hash__ = None

    def __init__(self, data, dtype=None, *, context=None):
        if isinstance(data, Tensor):
            if context is not None and data.context != context:
                raise ValueError("Tensor(t, context=...): t belongs to another context")
            h = data._h
            if dtype is not None and _dtype_code(dtype) != _c.tfe_tensor_dtype(h):
                h = _c.tfe_cast(h, _dtype_code(dtype))
            self._h = h
        else:
            self._h = _handle_from_data(data, dtype, context)

    # ---- properties ----
    @property
    def shape(self):
        """The extents, a tuple (as NumPy's shape)."""
        return _c.tfe_tensor_shape(self._h)

    @property
    def dtype(self):
        """The element type as a numpy.dtype."""
        return _CODE_TO_NP[_c.tfe_tensor_dtype(self._h)]

    @property
    def ndim(self):
        """The rank."""
        return _c.tfe_tensor_ndim(self._h)

    @property
    def size(self):
        """The number of elements."""
        return _c.tfe_tensor_numel(self._h)

    @property
    def element_strides(self):
        """Strides of the layout in elements (column-major when compact; views may have negative
        or zero strides)."""
        return tuple(_c.tfe_tensor_stride(self._h, i) for i in range(self.ndim))

    @property
    def context(self):
        """The Context this tensor belongs to."""
        return Context._wrap(_c.tfe_tensor_context(self._h))

    def __len__(self):
        shape = self.shape
        if not shape:
            raise TypeError("len() of a 0-d tensor")
        return shape[0]

    # ---- conversion out ----
    def numpy(self):
        """A new NumPy array (Fortran order) with the values, the same shape and dtype."""
        out = _np.empty(self.shape, dtype=self.dtype, order="F")
        _c.tfe_tensor_to_data(self._h, out)
        return out

    def __array__(self, dtype=None, copy=None):
        a = self.numpy()
        return a if dtype is None else a.astype(dtype, copy=False)

    def tolist(self):
        """The values as nested Python lists (as ndarray.tolist())."""
        return self.numpy().tolist()

    def item(self):
        """The value of a one-element tensor as a Python scalar."""
        if self.size != 1:
            raise ValueError(f"item() needs a one-element tensor, not shape {self.shape}")
        return self.numpy().item()

    def __bool__(self):
        if self.size != 1:
            raise ValueError(
                f"the truth value of a tensor of shape {self.shape} is ambiguous (use any/all)")
        return bool(self.item())

    def __int__(self):
        return int(self.item())

    def __float__(self):
        return float(self.item())

    def __complex__(self):
        return complex(self.item())

    def __index__(self):
        if self.dtype.kind not in "iu" or self.size != 1:
            raise TypeError("only one-element integer tensors can be used as an index")
        return int(self.item())

    def __repr__(self):
        body = _np.array2string(self.numpy(), separator=", ", prefix="Tensor(")
        return f"Tensor({body}, dtype={self.dtype.name})"

    def __str__(self):
        return str(self.numpy())

    def __reduce__(self):
        # pickles the values (the copy lands in the default context)
        return (Tensor, (self.numpy(),))

    def __copy__(self):
        return self  # immutable

    def __deepcopy__(self, memo):
        return self

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    # ---- DLPack ----
    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """A DLPack capsule sharing this tensor's memory (read-only: do not write through it).

        A legacy "dltensor" capsule, or a versioned "dltensor_versioned" one when the consumer
        passes ``max_version >= (1, 0)``. A view with negative strides (reverse, ``t[::-1]``) is
        exported as a compact copy: PyTorch aborts the process on negative DLPack strides."""
        if stream is not None and stream != -1:
            raise BufferError("tenferro tensors live on the CPU: stream must be None")
        if dl_device is not None and tuple(dl_device) != (1, 0):
            raise BufferError(f"tenferro cannot export to DLPack device {tuple(dl_device)}")
        h = self._h
        if copy:
            h = Tensor(self.numpy())._h
        elif _builtins.any(s < 0 for s in self.element_strides):
            h = _c.tfe_tensor_contiguous(h)
        if max_version is not None and tuple(max_version)[0] >= 1:
            return _c.tfe_tensor_to_dlpack_versioned(h)
        return _c.tfe_tensor_to_dlpack(h)

    def __dlpack_device__(self):
        """(kDLCPU, 0)."""
        return (1, 0)

    # ---- operators ----
    __add__, __radd__ = _binop(_c.tfe_add, "add")
    __sub__, __rsub__ = _binop(_c.tfe_sub, "sub")
    __mul__, __rmul__ = _binop(_c.tfe_mul, "mul")
    __truediv__, __rtruediv__ = _binop(_c.tfe_div, "truediv")
    __matmul__, __rmatmul__ = _binop(_c.tfe_matmul, "matmul")
    __and__, __rand__ = _binop(_c.tfe_and, "and")
    __or__, __ror__ = _binop(_c.tfe_or, "or")
    __xor__, __rxor__ = _binop(_c.tfe_xor, "xor")
    _pow, __rpow__ = _binop(_c.tfe_pow, "pow")

    def __pow__(self, other, modulo=None):
        if modulo is not None:
            return NotImplemented
        return self._pow(other)

    __eq__ = _cmpop(_c.TFE_CMP_EQ, "eq")
    __ne__ = _cmpop(_c.TFE_CMP_NE, "ne")
    __lt__ = _cmpop(_c.TFE_CMP_LT, "lt")
    __le__ = _cmpop(_c.TFE_CMP_LE, "le")
    __gt__ = _cmpop(_c.TFE_CMP_GT, "gt")
    __ge__ = _cmpop(_c.TFE_CMP_GE, "ge")

    def __neg__(self):
        return _wrap(_c.tfe_neg(self._h))

    def __pos__(self):
        return self

    def __abs__(self):
        return _wrap(_c.tfe_abs(self._h))

    def __invert__(self):
        return _wrap(_c.tfe_not(self._h))

    # ---- methods (the functions of the package, as methods) ----
    def astype(self, dtype):
        """A copy converted to dtype (lossy conversions allowed, as tenferro.cast)."""
        return _wrap(_c.tfe_cast(self._h, _dtype_code(dtype)))

    def conj(self):
        """Complex conjugate."""
        return _wrap(_c.tfe_conj(self._h))

    @property
    def real(self):
        """Real part (real dtype)."""
        return _wrap(_c.tfe_real(self._h))

    @property
    def imag(self):
        """Imaginary part (real dtype)."""
        return _wrap(_c.tfe_imag(self._h))

    def sum(self, axes=None):
        """tenferro.sum(self, axes)."""
        return _wrap(_c.tfe_sum(self._h, _axes(axes)))

    def prod(self, axes=None):
        """tenferro.prod(self, axes)."""
        return _wrap(_c.tfe_prod(self._h, _axes(axes)))

    def mean(self, axes=None):
        """tenferro.mean(self, axes)."""
        return _wrap(_c.tfe_mean(self._h, _axes(axes)))

    def max(self, axes=None):
        """tenferro.reduce_max(self, axes)."""
        return _wrap(_c.tfe_reduce_max(self._h, _axes(axes)))

    def min(self, axes=None):
        """tenferro.reduce_min(self, axes)."""
        return _wrap(_c.tfe_reduce_min(self._h, _axes(axes)))

    def reshape(self, *shape):
        """tenferro.reshape(self, shape): column-major element order (NumPy's order='F')."""
        if len(shape) == 1 and not isinstance(shape[0], (int, _np.integer)):
            shape = shape[0]
        return _wrap(_c.tfe_reshape(self._h, _resolve_shape(shape, self.size)))

    def transpose(self, *perm):
        """tenferro.transpose(self, perm); no argument reverses the axes."""
        if len(perm) == 1 and not isinstance(perm[0], (int, _np.integer)):
            perm = perm[0]
        if not perm:
            perm = range(self.ndim - 1, -1, -1)
        return _wrap(_c.tfe_transpose(self._h, _axes(perm)))

    @property
    def T(self):
        """The axes reversed (as NumPy's .T)."""
        return self.transpose()

    @property
    def mT(self):
        """The matrix transpose in tenferro's [M, N, batch..] convention: dims 0 and 1 swapped."""
        nd = self.ndim
        if nd < 2:
            raise ValueError("mT needs rank >= 2")
        return _wrap(_c.tfe_transpose(self._h, [1, 0] + list(range(2, nd))))

    def contiguous(self):
        """A compact column-major tensor with the same values (storage shared if already so)."""
        return _wrap(_c.tfe_tensor_contiguous(self._h))

    # ---- basic indexing ----
    def __getitem__(self, key):
        """Basic indexing: integers, slices (any step) and one Ellipsis; the result is a view.
        For integer-array indexing use tenferro.gather."""
        if not isinstance(key, tuple):
            key = (key,)
        shape = self.shape
        nd = len(shape)
        n_ell = sum(1 for k in key if k is Ellipsis)
        if n_ell > 1:
            raise IndexError("an index can only have a single ellipsis ('...')")
        if n_ell:
            i = next(j for j, k in enumerate(key) if k is Ellipsis)
            key = key[:i] + (slice(None),) * (nd - len(key) + 1) + key[i + 1:]
        if len(key) > nd:
            raise IndexError(f"too many indices for a tensor of rank {nd}")
        key = key + (slice(None),) * (nd - len(key))
        starts, limits, steps, rev, out_shape = [], [], [], [], []
        for d, (k, n) in enumerate(zip(key, shape)):
            if isinstance(k, slice):
                start, stop, step = k.indices(n)
                if step > 0:
                    cnt = max(0, (stop - start + step - 1) // step)
                else:
                    cnt = max(0, (start - stop - step - 1) // (-step))
                    rev.append(d)
                    start, step = n - 1 - start, -step  # index in the reversed axis
                starts.append(start)
                limits.append(start + (cnt - 1) * step + 1 if cnt else start)
                steps.append(step)
                out_shape.append(cnt)
            else:
                try:
                    if isinstance(k, (bool, _np.bool_)):
                        raise TypeError
                    i = _operator.index(k)
                except TypeError:
                    raise IndexError(
                        f"tenferro supports integer, slice and ellipsis indices, not "
                        f"{type(k).__name__} (use tenferro.gather for index arrays)") from None
                if i < 0:
                    i += n
                if not 0 <= i < n:
                    raise IndexError(f"index {k} is out of bounds for axis {d} with size {n}")
                starts.append(i)
                limits.append(i + 1)
                steps.append(1)
        h = self._h
        if rev:
            h = _c.tfe_reverse(h, rev)
        h = _c.tfe_slice(h, starts, limits, steps)
        if len(out_shape) != nd:
            h = _c.tfe_reshape(h, out_shape)
        return _wrap(h)


def _resolve_shape(shape, size):
    """A shape list with at most one -1 resolved against `size`."""
    shape = _shape(shape)
    unknown = [i for i, s in enumerate(shape) if s == -1]
    if len(unknown) > 1:
        raise ValueError("can only specify one unknown dimension (-1)")
    if unknown:
        known = 1
        for s in shape:
            if s != -1:
                known *= s
        if known == 0 or size % known:
            raise ValueError(f"cannot reshape {size} elements into shape {tuple(shape)}")
        shape[unknown[0]] = size // known
    return shape


# ---- construction -------------------------------------------------------------------------


def tensor(data, dtype=None, *, context=None):
    """A new Tensor holding a copy of `data` (see :class:`Tensor`)."""
    return Tensor(data, dtype, context=context)


def asarray(data, dtype=None, *, context=None):
    """`data` as a Tensor: a Tensor of the requested dtype is returned as is, anything else is
    copied (see :class:`Tensor`)."""
    if isinstance(data, Tensor) and (dtype is None or _np_dtype(dtype) == data.dtype):
        return data
    return Tensor(data, dtype, context=context)


def from_numpy(a, *, context=None):
    """A Tensor over the memory of NumPy array `a`, without copying.

    The tensor keeps `a` alive (through a buffer view) and releases it when tenferro drops the
    last reference, from any thread (the release takes the GIL). Tensors are immutable: **`a`
    must not be modified while the tensor or anything sharing its memory exists**; results of
    later operations are undefined otherwise. Any strides are accepted (transposed, sliced,
    negative); the data must be aligned, in native byte order, with strides that are whole
    elements (else ValueError: use ``Tensor(a)`` to copy), and a bool array must hold only 0/1
    bytes (else InvalidArgumentError).
    """
    if not isinstance(a, _np.ndarray):
        raise TypeError(f"from_numpy needs a numpy.ndarray, not {type(a).__name__}")
    code = _dtype_code(a.dtype)
    if not a.dtype.isnative:
        raise ValueError("from_numpy: the array is not in native byte order (Tensor(a) copies)")
    if not a.flags.aligned or _builtins.any(s % a.itemsize for s in a.strides):
        raise ValueError(
            "from_numpy: the array is not aligned or its strides are not whole elements "
            "(Tensor(a) copies)")
    return _wrap(_c.tfe_tensor_from_buffer(_ctx_handle(context), code, a.shape,
                                           _element_strides(a), a))


def from_dlpack(obj, *, context=None):
    """A Tensor sharing the memory of a DLPack producer, without copying.

    `obj` is an object with ``__dlpack__`` (a NumPy array, a torch tensor, a Tensor) or a DLPack
    capsule ("dltensor" or "dltensor_versioned"), which is consumed. CPU memory only
    (NotSupportedError otherwise). As with :func:`from_numpy`, the producer's memory must not be
    modified while the tensor exists."""
    if isinstance(obj, Tensor) and context is None:
        return obj
    if hasattr(obj, "__dlpack__"):
        try:
            capsule = obj.__dlpack__(max_version=(1, 0))
        except TypeError:  # producers before the versioned protocol (NumPy 1.24, torch 1.13)
            capsule = None
        if capsule is None:
            capsule = obj.__dlpack__()
    else:
        capsule = obj
    name = _c._tfepy_capsule_name(capsule)
    if name == "dltensor_versioned":
        return _wrap(_c.tfe_tensor_from_dlpack_versioned(_ctx_handle(context), capsule))
    return _wrap(_c.tfe_tensor_from_dlpack(_ctx_handle(context), capsule))
