"""Contexts, the Tensor class and the conversions between NumPy, Python values and tenferro.

Everything here calls the low-level module ``tenferro.tenferro_c``, whose functions are the C
functions of ``include/tenferro/*.h`` with the conventions of that header turned into Python: handle
outputs become return values (owning proxies that release the handle when collected), a failing
status raises the exception class of that status, and counted arrays are Python sequences.
"""

import builtins as _builtins
import collections as _collections
import operator as _operator
import re as _re
import threading as _threading

import numpy as _np

from . import tenferro_c as _c

__all__ = [
    "CacheStats",
    "Context",
    "SymbolicDim",
    "Tensor",
    "default_context",
    "from_numpy",
    "from_dlpack",
    "asarray",
    "symbolic",
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


#: Statistics of one of a context's caches (:meth:`Context.cache_stats`): lookups that found a
#: program (hits) or had to make one (misses), programs held (entries) and their estimated size
#: (bytes).
CacheStats = _collections.namedtuple("CacheStats", "hits misses entries bytes")


class _SymbolTable:
    """The symbol names of one context: name -> symbol id k, k -> name, and every id in use."""

    __slots__ = ("ids", "names", "used")

    def __init__(self):
        self.ids = {}
        self.names = {}
        self.used = set()


_symbols_lock = _threading.Lock()
_symbol_tables = {}  # context address -> _SymbolTable (reset when a Context is created there)


def _symbol_table(address):
    table = _symbol_tables.get(address)
    if table is None:
        with _symbols_lock:
            table = _symbol_tables.setdefault(address, _SymbolTable())
    return table


def _symbol_id(table, name):
    """The symbol id of `name` in a table: "s<k>" is symbol k, another identifier gets the
    smallest id not in use the first time it is seen."""
    m = _re.fullmatch(r"s([1-9][0-9]*)", name)
    if m:
        k = int(m.group(1))
        with _symbols_lock:
            table.used.add(k)
        return k
    if not name.isidentifier():
        raise ValueError(f"symbol names are Python identifiers, not {name!r}")
    k = table.ids.get(name)
    if k is None:
        with _symbols_lock:
            k = table.ids.get(name)
            if k is None:
                k = 1
                while k in table.used:
                    k += 1
                table.used.add(k)
                table.ids[name] = k
                table.names[k] = name
    return k


#: cache name -> TFE_CACHE_* code ("compiled", ...), from the constants of the C header
_CACHES = {name[len("TFE_CACHE_"):].lower(): code for name, code in vars(_c).items()
           if name.startswith("TFE_CACHE_") and isinstance(code, int)}


def _cache_code(cache):
    try:
        return _CACHES[cache]
    except (KeyError, TypeError):
        raise ValueError(f"unknown cache {cache!r} (known: {', '.join(sorted(_CACHES))})") from None


_SCHEDULERS = {"threads": _c.TFE_SCHEDULER_THREADS, "debug": _c.TFE_SCHEDULER_DEBUG}


class Context:
    """A tenferro context.

    Every tensor belongs to one context and keeps it alive; operations on tensors of two contexts
    raise InvalidArgumentError. Most code never creates one: functions use the module's default
    context (:func:`default_context`, eager) unless given ``context=``.

    ``Context(mode="dataflow", scheduler="threads", threads=0)`` makes a dataflow context (seed
    003's engine over tensors, docs/dataflow.md): every op schedules its forward and, for tracked
    operands, its reverse work and returns at once; reading a value (``numpy()``, ``item()``...)
    waits for it and raises the failure of anything upstream; ``backward()`` seeds the loss once;
    ``x.grad`` waits for the gradient and seals its graph, whose tensors then feed new ops as
    untracked values (``x - lr * x.grad`` needs no wait; ``requires_grad_()`` makes it the next
    variable). ``tenferro.autograd.vjp``/``jvp`` and ``capture_trace`` raise NotSupportedError
    there. `scheduler` is ``"threads"`` (a pool of `threads` threads, the waiting one included;
    0: the thread budget) or ``"debug"`` (deterministic, runs work inside waits). Gradients have
    the same bits under both.

    A context also owns the symbols of symbolic tensors (:func:`symbolic`; symbol names are per
    context) and the cache of compiled traced programs (:meth:`cache_stats`).
    """

    __slots__ = ("_h", "__weakref__")

    def __init__(self, mode="eager", *, scheduler="threads", threads=0):
        if mode == "eager":
            if scheduler != "threads" or threads != 0:
                raise ValueError("scheduler and threads apply to mode='dataflow' only")
            self._h = _c.tfe_context_create()
        elif mode == "dataflow":
            if scheduler not in _SCHEDULERS:
                raise ValueError(f"unknown scheduler {scheduler!r} (known: threads, debug)")
            self._h = _c.tfe_context_create_dataflow(_SCHEDULERS[scheduler], threads)
        else:
            raise ValueError(f"unknown context mode {mode!r} (known: eager, dataflow)")
        with _symbols_lock:  # a new context: names left by a dead one at this address go
            _symbol_tables.pop(self._address(), None)

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
        return f"<tenferro.Context ({self.mode}) at 0x{self._address():x}>"

    @property
    def mode(self):
        """``"eager"`` or ``"dataflow"``."""
        m = _c.tfe_context_mode(self._h)
        return "dataflow" if m == _c.TFE_CONTEXT_DATAFLOW else "eager"

    # ---- symbols ----
    def symbol(self, name):
        """The id k of the symbol called `name` in this context (the library's messages write it
        ``s<k>``; a shape entry -k means it). A new name gets the smallest id not yet used by a
        name or by an explicit -k in this context; ``"s<k>"`` is always symbol k."""
        if not isinstance(name, str):
            raise TypeError(f"symbol names are strings, not {type(name).__name__}")
        return _symbol_id(_symbol_table(self._address()), name)

    def symbols(self):
        """A dict name -> id of the symbols named so far in this context."""
        return dict(_symbol_table(self._address()).ids)

    # ---- the caches of traced programs ----
    def cache_stats(self, cache="compiled"):
        """:class:`CacheStats` (hits, misses, entries, bytes) of one of the context's caches:
        ``"compiled"`` (TFE_CACHE_COMPILED, the default) holds programs compiled for argument
        dtypes and shapes. A call of a :class:`tenferro.Function` is a hit when a program compiled
        for the same traced program and the same argument dtypes and shapes is cached, else a miss
        that compiles and caches one. Counters are cumulative (:meth:`clear_cache` keeps them). The other caches of the library
        are named after their TFE_CACHE_* constant (``"derivative"``, ...)."""
        return CacheStats(*_c.tfe_context_cache_stats(self._h, _cache_code(cache)))

    def clear_cache(self, cache="compiled"):
        """Drops every program of one cache (see :meth:`cache_stats`); counters are kept."""
        _c.tfe_context_cache_clear(self._h, _cache_code(cache))

    def set_cache_limits(self, max_entries, max_bytes, cache="compiled"):
        """Bounds a cache (see :meth:`cache_stats`) to `max_entries` programs and `max_bytes`
        estimated bytes, each an int >= 0 or None for no bound. Least recently used programs are
        dropped first, when the next program is added (not at once). The compiled-program cache
        starts with 256 entries and 256 MiB."""
        unbounded = 2**63 - 1
        _c.tfe_context_cache_limits(self._h, _cache_code(cache),
                                    unbounded if max_entries is None else max_entries,
                                    unbounded if max_bytes is None else max_bytes)


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


# ---- Python scalars are weak (NumPy 2's rule, NEP 50) ---------------------------------------

def _is_py_scalar(x):
    t = type(x)
    return t is float or t is int or t is bool or t is complex


# The C library owns the rule (tfe_weak_scalar, tfe_binary_scalar): a scalar is passed as its kind
# and value. The kinds are literals here (a constant is cheaper than a module lookup).
assert (_c.TFE_SCALAR_BOOL, _c.TFE_SCALAR_INT, _c.TFE_SCALAR_FLOAT, _c.TFE_SCALAR_COMPLEX) == (
    0, 1, 2, 3)


def _weak_scalar_handle(x, code, ctx_h):
    """The rank-0 handle of Python scalar x as a weak operand beside dtype `code` (NEP 50): its
    kind decides (bool < int < float < complex), within a kind the operand's precision wins. An
    int outside an integer dtype's range raises OverflowError (as NumPy 2); a float beyond
    float32 becomes +-inf."""
    t = type(x)
    if t is float:
        return _c.tfe_weak_scalar(ctx_h, code, 2, 0, x, 0.0)
    if t is int:
        try:
            return _c.tfe_weak_scalar(ctx_h, code, 1, x, 0.0, 0.0)
        except (OverflowError, _c.InvalidArgumentError):
            raise OverflowError(
                f"Python integer {x} out of bounds for {_CODE_TO_NP[code].name}") from None
    if t is bool:
        return _c.tfe_weak_scalar(ctx_h, code, 0, int(x), 0.0, 0.0)
    return _c.tfe_weak_scalar(ctx_h, code, 3, 0, x.real, x.imag)


def _weak_handle_next_to(x, h):
    """The weak rank-0 handle of Python scalar x as an operand beside handle h (NEP 50)."""
    return _weak_scalar_handle(x, _c.tfe_tensor_dtype(h), _c.tfe_tensor_context(h))


def _weak_tensor(x, code, ctx_h):
    return _wrap(_weak_scalar_handle(x, code, ctx_h))


_new_tensor = object.__new__  # Tensor.__new__ without the attribute lookup


def _wrap(handle):
    t = _new_tensor(Tensor)
    t._h = handle
    return t


def _as_tensor(x, like=None, context=None):
    """x as a Tensor; non-tensors are copied into the context of `like` (a Tensor) if given. A
    Python scalar next to `like` is weak: it takes like's dtype within its kind (NEP 50)."""
    if isinstance(x, Tensor):
        return x
    if like is not None:
        ctx_h = _c.tfe_tensor_context(like._h)
        if _is_py_scalar(x):
            return _weak_tensor(x, _c.tfe_tensor_dtype(like._h), ctx_h)
    else:
        ctx_h = _ctx_handle(context)
    return _wrap(_scalar_or_array_handle(x, ctx_h))


def _as_tensors(xs, context=None, weak=None):
    """A list of Tensors from a sequence; array-likes join the context of the first Tensor.
    Python scalars are weak (NEP 50) against the joint dtype of the other operands, or only of
    those whose positions are listed in `weak` (select's values, not its predicate)."""
    xs = list(xs)
    like = next((x for x in xs if isinstance(x, Tensor)), None)
    strong = [i for i, x in enumerate(xs) if not _is_py_scalar(x)]
    if len(strong) == len(xs) or not strong:
        return [_as_tensor(x, like, context) for x in xs]
    ts = [None if i not in strong else _as_tensor(xs[i], like, context) for i in range(len(xs))]
    peers = [ts[i] for i in strong if weak is None or i in weak]
    ctx_h = _c.tfe_tensor_context(ts[strong[0]]._h)
    code = _dtype_code(_np.result_type(*[t.dtype for t in peers])) if peers else None
    for i, x in enumerate(xs):
        if ts[i] is None:
            ts[i] = (_weak_tensor(x, code, ctx_h) if code is not None
                     else _wrap(_scalar_or_array_handle(x, ctx_h)))
    return ts


def _axes(axes):
    """None -> [] (every axis), an int -> [int], a sequence -> list."""
    if axes is None:
        return []
    if isinstance(axes, (int, _np.integer)):
        return [_operator.index(axes)]
    return [_operator.index(a) for a in axes]


def _extent(s, table=None):
    """One entry of an extent-valued parameter: an int, or (with the symbol `table` of a
    symbolic operand) a symbol name or plain SymbolicDim, which becomes -k (symbol k)."""
    if isinstance(s, str):
        if table is None:
            raise TypeError(
                f"the symbolic extent {s!r} cannot be used here: symbols are taken by "
                f"tenferro.symbolic and by the extent parameters of ops on symbolic tensors")
        if isinstance(s, SymbolicDim) and s.symbol is None:
            raise ValueError(f"the derived extent {s!r} cannot be a parameter: only a plain "
                             f"symbol (a name or -k)")
        return _symbolic_extent(s, table)
    return _operator.index(s)


def _shape(shape, like=None):
    """An extent list from an int, a name or a sequence. With `like`, a symbolic Tensor, names
    and plain symbolic extents are that context's symbols (-k); otherwise they are refused."""
    table = None
    if like is not None and _c.tfe_tensor_is_symbolic(like._h):
        table = _symbol_table(int(_c.tfe_tensor_context(like._h).this))
    if isinstance(shape, (int, _np.integer, str)):
        return [_extent(shape, table)]
    return [_extent(s, table) for s in shape]


def _scalar_call(op, h, x, scalar_first):
    """tfe_binary_scalar: op of tensor handle h and Python scalar x (weak, NEP 50) in one C call;
    None when x is not a Python scalar, or an int the tensor's dtype cannot hold."""
    t = type(x)
    if t is float:
        return _c.tfe_binary_scalar(op, h, 2, 0, x, 0.0, scalar_first)
    if t is int:
        try:
            return _c.tfe_binary_scalar(op, h, 1, x, 0.0, 0.0, scalar_first)
        except (OverflowError, _c.InvalidArgumentError):
            return None  # beyond the tensor's integer dtype: the general path raises NumPy's error
    if t is bool:
        return _c.tfe_binary_scalar(op, h, 0, int(x), 0.0, 0.0, scalar_first)
    if t is complex:
        return _c.tfe_binary_scalar(op, h, 3, 0, x.real, x.imag, scalar_first)
    return None


def _binary(cfn, a, b, op=None):
    """cfn on two operands, at least one a Tensor; NotImplemented if the other cannot convert.
    op: the TFE_BINOP_ code of cfn, for the one-call path of a Python scalar operand."""
    # The hot paths: two Tensors; a Python scalar on either side (one C call, no handle for it).
    ta, tb = type(a), type(b)
    if ta is Tensor and tb is Tensor:
        t = _new_tensor(Tensor)
        t._h = cfn(a._h, b._h)
        return t
    if op is not None:
        if ta is Tensor:
            if tb is float:  # the commonest scalar, without a further Python call
                t = _new_tensor(Tensor)
                t._h = _c.tfe_binary_scalar(op, a._h, 2, 0, b, 0.0, 0)
                return t
            h = _scalar_call(op, a._h, b, 0)
        elif tb is Tensor:
            if ta is float:
                t = _new_tensor(Tensor)
                t._h = _c.tfe_binary_scalar(op, b._h, 2, 0, a, 0.0, 1)
                return t
            h = _scalar_call(op, b._h, a, 1)
        else:
            h = None
        if h is not None:
            t = _new_tensor(Tensor)
            t._h = h
            return t
    elif ta is Tensor and (tb is float or tb is int or tb is bool or tb is complex):
        return _wrap(cfn(a._h, _weak_handle_next_to(b, a._h)))
    elif tb is Tensor and (ta is float or ta is int or ta is bool or ta is complex):
        return _wrap(cfn(_weak_handle_next_to(a, b._h), b._h))
    try:
        if isinstance(a, Tensor):
            b = _as_tensor(b, a)
        else:
            a = _as_tensor(a, b)
    except TypeError:
        return NotImplemented
    return _wrap(cfn(a._h, b._h))


def _matmul_handles(ah, bh):
    """tfe_matmul, which takes NumPy's rank-1 operands (a row on the left, a column on the right,
    vector @ vector the dot product without conjugation); a scalar operand is NumPy's
    ValueError."""
    if _c.tfe_tensor_ndim(ah) == 0 or _c.tfe_tensor_ndim(bh) == 0:
        raise ValueError("matmul: an operand is a scalar (rank 0); use * for scaling")
    return _c.tfe_matmul(ah, bh)


def _binop(cfn, name, op=None):
    def fwd(self, other):
        return _binary(cfn, self, other, op)

    def rev(self, other):
        return _binary(cfn, other, self, op)

    fwd.__name__ = f"__{name}__"
    rev.__name__ = f"__r{name}__"
    return fwd, rev


def _cmpop(direction, name):
    op = _c.TFE_BINOP_EQ + direction - _c.TFE_CMP_EQ

    def cmp(self, other):
        h = _scalar_call(op, self._h, other, 0)
        if h is not None:
            return _wrap(h)
        try:
            other = _as_tensor(other, self)
        except TypeError:
            return NotImplemented
        return _wrap(_c.tfe_compare(self._h, other._h, direction))

    cmp.__name__ = f"__{name}__"
    return cmp


# ---- symbolic extents ---------------------------------------------------------------------


class SymbolicDim(str):
    """A symbolic extent in the shape of a symbolic tensor: a ``str`` holding the symbol's name
    (``"n"``; ``"s<k>"`` for symbol k without a name) or, for an extent derived from symbols, the
    library's expression with names substituted (``"(n+2)"``, ``"(n*3)"``). ``.symbol`` is the
    id k of a plain symbol and None for a derived extent. It compares equal to its text, so
    ``x.shape == ("n", 3)`` works, and a plain one can be passed back to :func:`symbolic`."""

    def __new__(cls, text, symbol=None):
        obj = super().__new__(cls, text)
        obj.symbol = symbol
        return obj

    def __reduce__(self):
        return (SymbolicDim, (str(self), self.symbol))


_DERIVED = _c.TFE_EXTENT_DERIVED


def _extent_text(h, axis):
    text, needed = _c.tfe_tensor_extent_text(h, axis, 64)
    if needed > 64:
        text, needed = _c.tfe_tensor_extent_text(h, axis, needed)
    return text


def _symbolic_shape(h, raw):
    """The shape of a tensor with symbolic extents: ints and SymbolicDims."""
    names = _symbol_table(int(_c.tfe_tensor_context(h).this)).names
    out = []
    for i, e in enumerate(raw):
        if e >= 0:
            out.append(e)
        elif e == _DERIVED:
            text = _re.sub(r"\bs([0-9]+)\b", lambda m: names.get(int(m.group(1)), m.group(0)),
                           _extent_text(h, i))
            out.append(SymbolicDim(text, None))
        else:
            out.append(SymbolicDim(names.get(-e, f"s{-e}"), -e))
    return tuple(out)


def _symbolic_extent(s, table):
    """The C extent (>= 0 concrete, -k symbol k) of one entry of a symbolic shape."""
    if isinstance(s, SymbolicDim):
        if s.symbol is None:
            raise ValueError(f"the derived extent {s!r} cannot declare an input: use a symbol")
        with _symbols_lock:
            table.used.add(s.symbol)
        return -s.symbol
    if isinstance(s, str):
        return -_symbol_id(table, s)
    if isinstance(s, (bool, _np.bool_)):
        raise TypeError("a shape entry is an int or a symbol name, not a bool")
    try:
        e = _operator.index(s)
    except TypeError:
        raise TypeError(
            f"a shape entry is an int (>= 0 concrete, -k symbol k) or a symbol name, not "
            f"{type(s).__name__}") from None
    if e < 0:
        with _symbols_lock:
            table.used.add(-e)
    return e


def symbolic(shape, dtype=_np.float64, *, context=None):
    """A symbolic tensor: an input of a traced program (see :class:`tenferro.Function`).

    `shape` is a sequence (or one entry for rank 1) whose entries are ints >= 0 (concrete
    extents), negative ints -k (symbol k of the context, as in the C API), or symbol names
    (``"n"``: the same name is the same symbol in one context; ``"s<k>"`` is symbol k). Inputs
    that share a symbol must agree on that extent when the function is called; a concrete extent
    must match exactly. Operations on symbolic tensors build a program instead of computing: the
    results are symbolic too, and reading their values (``numpy()``, ``item()``, ``bool()``...)
    raises InvalidArgumentError. ``shape`` shows symbols by name (:class:`SymbolicDim`).

        >>> x = tf.symbolic(("n", 3))
        >>> (x.sum(1) * 2).shape
        ('n',)
    """
    ctx_h = _ctx_handle(context)
    if isinstance(shape, (int, _np.integer, str)):
        shape = (shape,)
    table = _symbol_table(int(ctx_h.this))
    extents = [_symbolic_extent(s, table) for s in shape]
    return _wrap(_c.tfe_tensor_symbolic(ctx_h, _dtype_code(dtype), extents))


# ---- the Tensor class ---------------------------------------------------------------------


def _device_arg(device):
    """(kind, ordinal) of "cpu", "cuda", "cuda:N"."""
    text = str(device).strip().lower()
    if text == "cpu":
        return _c.TFE_DEVICE_CPU, 0
    if text == "cuda":
        return _c.TFE_DEVICE_CUDA, 0
    if text.startswith("cuda:") and text[5:].isdigit():
        return _c.TFE_DEVICE_CUDA, int(text[5:])
    raise ValueError(f"device {device!r} is not 'cpu', 'cuda' or 'cuda:N'")


class device:
    """``with tenferro.device("cuda"):`` makes the creation functions called in the block, on
    this thread and in `context` (default: the module's), create their tensors on that device:
    zeros, ones, full and eye are written by the device itself; arange, iota, linspace,
    logspace, the random functions and ``tensor(data)`` are computed on the host and copied once
    (the same numbers as on the host). Blocks nest. Ops are unaffected: they run where their
    operands are. The creation functions also take ``device=`` for one call."""

    def __init__(self, name, context=None):
        self._where = _device_arg(name)
        self._context = context

    def __enter__(self):
        _c.tfe_device_scope_enter(_ctx_handle(self._context), *self._where)
        return self

    def __exit__(self, *exc):
        _c.tfe_device_scope_exit(_ctx_handle(self._context))
        return False


def _creating(make, device, context):
    """make() in a device scope when `device` is given (a creation function's ``device=``)."""
    if device is None:
        return make()
    with globals()["device"](device, context):
        return make()


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
    or a Python scalar, which is weak (NEP 50): it takes the tensor's dtype within its kind, so
    ``float32_tensor * 2.0`` is float32 and ``int32_tensor + 1`` is int32.
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

    symbolic = staticmethod(symbolic)

    # ---- properties ----
    @property
    def shape(self):
        """The extents, a tuple (as NumPy's shape). For a symbolic tensor, symbolic extents are
        :class:`SymbolicDim` strings (``('n', 3)``, ``('(n+2)',)``) among the ints."""
        s = _c.tfe_tensor_shape(self._h)
        for e in s:
            if e < 0:
                return _symbolic_shape(self._h, s)
        return s

    @property
    def is_symbolic(self):
        """True for a symbolic tensor (made by :func:`symbolic`, or computed from one): it has
        no values, only a place in a traced program."""
        return bool(_c.tfe_tensor_is_symbolic(self._h))

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

    # ---- eager automatic differentiation (tenferro/ad.h; see tenferro.autograd) ----
    @property
    def requires_grad(self):
        """True when this tensor is tracked: a variable (``requires_grad = True`` on a float or
        complex tensor that no recorded op computed), a leaf captured by
        :func:`tenferro.capture_trace`, or the result of an op with a tracked operand. Setting
        it makes a leaf a variable (True) or a plain tensor again (False)."""
        return bool(_c.tfe_tensor_requires_grad(self._h))

    @requires_grad.setter
    def requires_grad(self, flag):
        _c.tfe_tensor_set_requires_grad(self._h, 1 if flag else 0)

    def requires_grad_(self, flag=True):
        """Sets :attr:`requires_grad` and returns this tensor (``x = tf.tensor(v).requires_grad_()``)."""
        self.requires_grad = flag
        return self

    @property
    def grad(self):
        """The gradient accumulated into this variable by :meth:`backward` (an untracked Tensor of
        this tensor's dtype and shape), or None. Assigning None clears it (:meth:`clear_grad`)."""
        h = _c.tfe_tensor_grad(self._h)
        return None if h is None else _wrap(h)

    @grad.setter
    def grad(self, value):
        if value is not None:
            raise TypeError("Tensor.grad can only be set to None (which clears it)")
        _c.tfe_tensor_clear_grad(self._h)

    def clear_grad(self):
        """Makes :attr:`grad` None."""
        _c.tfe_tensor_clear_grad(self._h)

    def backward(self, seed=None):
        """Accumulates d(seed . self)/d(leaf) into the :attr:`grad` of every variable this tensor
        depends on (``tfe_backward``). Without `seed` this tensor must have one element (seed 1);
        a non-Tensor seed is converted to this tensor's dtype and, if it is a scalar, broadcast to
        its shape. All gradients are committed together: a failing call changes none."""
        _c.tfe_backward(self._h, None if seed is None else _seed_handle(seed, self)._h)

    def detach(self):
        """An untracked Tensor sharing this tensor's value."""
        return _wrap(_c.tfe_tensor_detach(self._h))

    def __len__(self):
        shape = self.shape
        if not shape:
            raise TypeError("len() of a 0-d tensor")
        if isinstance(shape[0], str):
            raise TypeError(f"len() of a tensor whose first extent is symbolic ({shape[0]!r})")
        return shape[0]

    # ---- conversion out ----
    def numpy(self):
        """A new NumPy array (Fortran order) with the values, the same shape and dtype.
        A symbolic tensor has no values: InvalidArgumentError."""
        h = self._h
        if _c.tfe_tensor_is_symbolic(h):
            _c.tfe_tensor_to_data(h, None)  # raises the library's error
        out = _np.empty(_c.tfe_tensor_shape(h), dtype=self.dtype, order="F")
        _c.tfe_tensor_to_data(h, out)
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
        if self.is_symbolic:
            grad = " requires_grad=True" if self.requires_grad else ""
            return f"<symbolic Tensor shape={self.shape} dtype={self.dtype.name}{grad}>"
        device = self.device
        host = self if device == "cpu" else self.to("cpu")  # printing reads a host copy
        body = _np.array2string(host.numpy(), separator=", ", prefix="Tensor(")
        grad = ", requires_grad=True" if self.requires_grad else ""
        where = "" if device == "cpu" else f", device='{device}'"
        return f"Tensor({body}, dtype={self.dtype.name}{where}{grad})"

    # ---- placement ----
    @property
    def device(self):
        """Where the elements live: ``"cpu"`` or ``"cuda:N"``. Ops run on the device of their
        operands and never move a tensor; :meth:`to` is the one transfer."""
        kind, ordinal = _c.tfe_tensor_device(self._h)
        return "cpu" if kind == _c.TFE_DEVICE_CPU else f"cuda:{ordinal}"

    def to(self, device):
        """This tensor on ``device`` (``"cpu"``, ``"cuda"`` = ``"cuda:0"``, ``"cuda:1"``, ...): a
        compact copy, or this tensor itself when it is already there. Operands on two devices
        are an error (DeviceError) except rank-0 host tensors, which act as scalars. The transfer
        is differentiable: gradients flow back to this tensor's device."""
        kind, ordinal = _device_arg(device)
        return _wrap(_c.tfe_tensor_to_device(self._h, kind, ordinal))

    def cpu(self):
        """``self.to("cpu")``."""
        return self.to("cpu")

    @property
    def at(self):
        """Functional updates with NumPy indexing (tensors are immutable):
        ``t.at[key].set(v)``, ``.add(v)`` and ``.multiply(v)`` return a new tensor, and are
        differentiable in t and v. v broadcasts to the selection's shape (left-aligned, as
        everywhere in tenferro) and is converted to t's dtype. ``set`` and ``multiply`` refuse a
        key that selects an element twice; ``add`` accumulates (as scatter-add)."""
        return _AtIndexer(self)

    def __setitem__(self, key, value):
        raise TypeError(
            "tenferro tensors are immutable: instead of t[idx] = v write t = t.at[idx].set(v) "
            "(also .add(v), .multiply(v)), which returns a new tensor and is differentiable")

    def __str__(self):
        if self.is_symbolic:
            return repr(self)
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
        if dl_device is not None and tuple(dl_device) != self.__dlpack_device__():
            raise BufferError(f"tenferro cannot export to DLPack device {tuple(dl_device)} "
                              f"(the tensor is on {self.device}; .to() moves it)")
        h = self._h
        if copy:
            h = Tensor(self.numpy())._h
        elif _builtins.any(s < 0 for s in self.element_strides):
            h = _c.tfe_tensor_contiguous(h)
        if max_version is not None and tuple(max_version)[0] >= 1:
            return _c.tfe_tensor_to_dlpack_versioned(h)
        return _c.tfe_tensor_to_dlpack(h)

    def __dlpack_device__(self):
        """(kDLCPU, 0), or (kDLCUDA, ordinal) for a tensor on a GPU."""
        kind, ordinal = _c.tfe_tensor_device(self._h)
        return (kind, ordinal)

    # ---- operators ----
    __add__, __radd__ = _binop(_c.tfe_add, "add", _c.TFE_BINOP_ADD)
    __sub__, __rsub__ = _binop(_c.tfe_sub, "sub", _c.TFE_BINOP_SUB)
    __mul__, __rmul__ = _binop(_c.tfe_mul, "mul", _c.TFE_BINOP_MUL)
    __truediv__, __rtruediv__ = _binop(_c.tfe_div, "truediv", _c.TFE_BINOP_DIV)
    __matmul__, __rmatmul__ = _binop(_matmul_handles, "matmul")
    __and__, __rand__ = _binop(_c.tfe_and, "and", _c.TFE_BINOP_AND)
    __or__, __ror__ = _binop(_c.tfe_or, "or", _c.TFE_BINOP_OR)
    __xor__, __rxor__ = _binop(_c.tfe_xor, "xor", _c.TFE_BINOP_XOR)
    _pow, __rpow__ = _binop(_c.tfe_pow, "pow", _c.TFE_BINOP_POW)

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

    # sum, prod, mean, max, min, any, all, argmax, argmin, std, var, cumsum, cumprod: methods
    # added by tenferro/_reduce.py (NumPy's axis=, keepdims=, dtype=)

    def reshape(self, *shape):
        """tenferro.reshape(self, shape): column-major element order (NumPy's order='F'); symbol
        names allowed on a symbolic tensor."""
        if len(shape) == 1 and not isinstance(shape[0], (int, _np.integer)):
            shape = shape[0]
        return _wrap(_c.tfe_reshape(self._h, _resolve_shape(shape, self)))

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
        """NumPy's indexing. Integers, slices (any step), one Ellipsis and None (newaxis) give a
        view; integer arrays (lists, NumPy arrays, integer Tensors) and boolean masks, alone or
        mixed with the rest, follow NumPy's advanced-indexing rules and give a gather (a copy).
        Every form is differentiable. Tensors are immutable: for an updated copy use
        ``t.at[key].set(v)`` (also ``.add``, ``.multiply``).

        On a symbolic extent (a traced program) an axis takes ``:``, ``::-1``, an integer
        ``i >= 0``, or a crop ``a:``, ``:-b``, ``a:-b`` (a, b >= 0; the result has extent
        n - a - b): the index and the crop are checked when the function is called
        (InvalidArgumentError / ShapeMismatchError), instead of being clamped as in Python;
        array indices need concrete extents."""
        if not isinstance(key, tuple):
            key = (key,)
        if _builtins.any(_is_array_index(k) for k in key):
            return _advanced_getitem(self, key)
        if _builtins.any(k is None for k in key):
            return _getitem_newaxis(self, key)
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
        if not _builtins.all(isinstance(n, int) for n in shape):
            return _symbolic_getitem(self._h, key, shape)
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
                i = _index_int(k)
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


def _is_array_index(k):
    return isinstance(k, (list, _np.ndarray, Tensor)) or (
        isinstance(k, (bool, _np.bool_)))


def _getitem_newaxis(t, key):
    """Basic indexing with None entries: index without them, then insert the unit axes."""
    n_ell = sum(1 for k in key if k is Ellipsis)
    if n_ell > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    consumed = sum(1 for k in key if k is not None and k is not Ellipsis)
    if n_ell:
        i = next(j for j, k in enumerate(key) if k is Ellipsis)
        key = key[:i] + (slice(None),) * _builtins.max(t.ndim - consumed, 0) + key[i + 1:]
    else:
        key = key + (slice(None),) * _builtins.max(t.ndim - consumed, 0)
    r = t[tuple(k for k in key if k is not None)]
    dims = iter(r.shape)
    shape = [1 if k is None else next(dims) for k in key if k is None or isinstance(k, slice)]
    return _wrap(_c.tfe_reshape(r._h, _shape(shape, r)))


def _positions(shape, key):
    """The column-major flat positions of the elements NumPy's x[key] selects, in the shape of
    the result (NumPy computes them, on an index array instead of the values)."""
    key = tuple(k.numpy() if isinstance(k, Tensor) else k for k in key)
    size = 1
    for e in shape:
        size *= e
    pos = _np.arange(size, dtype=_np.int64).reshape(shape, order="F")
    return pos[key]


def _advanced_getitem(t, key):
    shape = t.shape
    if not _builtins.all(isinstance(n, int) for n in shape):
        raise IndexError(f"array indices need concrete extents, not the shape {shape}")
    pos = _positions(shape, key)
    flat = _c.tfe_reshape(t._h, [t.size])
    ctx_h = _c.tfe_tensor_context(t._h)
    return _wrap(_c.tfe_gather(flat, _scalar_or_array_handle(pos, ctx_h), 0))


class _AtIndexer:
    """``t.at[key]``: functional updates (see :attr:`Tensor.at`)."""

    __slots__ = ("_t",)

    def __init__(self, t):
        self._t = t

    def __getitem__(self, key):
        return _AtUpdate(self._t, key if isinstance(key, tuple) else (key,))


class _AtUpdate:
    __slots__ = ("_t", "_key")

    def __init__(self, t, key):
        self._t, self._key = t, key

    def _parts(self, v, name):
        t = self._t
        shape = t.shape
        if not _builtins.all(isinstance(n, int) for n in shape):
            raise IndexError(f".at[...].{name}() needs concrete extents, not the shape {shape}")
        pos = _positions(shape, self._key)
        ctx_h = _c.tfe_tensor_context(t._h)
        v = _as_tensor(v, t)
        if _c.tfe_tensor_dtype(v._h) != _c.tfe_tensor_dtype(t._h):  # as NumPy: v takes t's dtype
            v = _wrap(_c.tfe_cast(v._h, _c.tfe_tensor_dtype(t._h)))
        v = _wrap(_c.tfe_broadcast_to(v._h, list(_np.shape(pos))))
        if name != "add" and _np.unique(pos).size != _np.size(pos):
            raise IndexError(f".at[...].{name}(): the index selects an element more than once")
        idx = _scalar_or_array_handle(_np.asarray(pos), ctx_h)
        flat = _c.tfe_reshape(t._h, [t.size])
        return t, flat, idx, v, ctx_h

    def _done(self, t, h):
        return _wrap(_c.tfe_reshape(h, list(t.shape)))

    def _placed(self, flat, idx, v, fill, ctx_h, dtype):
        """A flat tensor with v at the positions idx and `fill` elsewhere, and the Bool mask of
        those positions."""
        base = _c.tfe_zeros(ctx_h, dtype, [_c.tfe_tensor_numel(flat)])
        ones = _c.tfe_ones(ctx_h, _c.TFE_I32, list(_c.tfe_tensor_shape(v._h)))
        hit = _c.tfe_scatter(_c.tfe_zeros(ctx_h, _c.TFE_I32, [_c.tfe_tensor_numel(flat)]), idx,
                             ones, 0)
        zero = _c.tfe_zeros(ctx_h, _c.TFE_I32, [])
        mask = _c.tfe_compare(hit, zero, _c.TFE_CMP_NE)
        return _c.tfe_scatter(base, idx, v._h, 0), mask

    def set(self, v):
        """A copy with the selected elements replaced by v (broadcast to the selection's shape,
        converted to the tensor's dtype). Differentiable in the tensor and in v."""
        t, flat, idx, v, ctx_h = self._parts(v, "set")
        placed, mask = self._placed(flat, idx, v, 0, ctx_h, _c.tfe_tensor_dtype(t._h))
        return self._done(t, _c.tfe_select(mask, placed, flat))

    def add(self, v):
        """A copy with v added to the selected elements (an element selected twice gets both)."""
        t, flat, idx, v, ctx_h = self._parts(v, "add")
        return self._done(t, _c.tfe_scatter(flat, idx, v._h, 0))

    def multiply(self, v):
        """A copy with the selected elements multiplied by v."""
        t, flat, idx, v, ctx_h = self._parts(v, "multiply")
        placed, mask = self._placed(flat, idx, v, 0, ctx_h, _c.tfe_tensor_dtype(t._h))
        return self._done(t, _c.tfe_select(mask, _c.tfe_mul(flat, placed), flat))


def _index_int(k):
    try:
        if isinstance(k, (bool, _np.bool_)):
            raise TypeError
        return _operator.index(k)
    except TypeError:
        raise IndexError(
            f"tenferro supports integer, slice and ellipsis indices, not "
            f"{type(k).__name__} (use tenferro.gather for index arrays)") from None


def _symbolic_getitem(h, key, shape):
    """Basic indexing of a tensor with symbolic extents (key: one entry per axis). tfe_slice
    needs concrete limits, so: reverse and pad (crop) on symbolic axes, gather elsewhere."""
    nd = len(shape)
    rev, low, high, gathers = [], [0] * nd, [0] * nd, []
    for d, (k, n) in enumerate(zip(key, shape)):
        symbolic_axis = isinstance(n, str)
        if isinstance(k, slice):
            if not symbolic_axis:
                idx = range(*k.indices(n))
                if idx != range(n):
                    gathers.append((d, list(idx)))
                continue
            start, stop, step = (None if v is None else _index_int(v)
                                 for v in (k.start, k.stop, k.step))
            if step == -1 and start is None and stop is None:
                rev.append(d)
            elif (step in (None, 1) and (start is None or start >= 0)
                  and (stop is None or stop < 0)):
                low[d], high[d] = -(start or 0), stop or 0
            else:
                raise IndexError(
                    f"axis {d} has the symbolic extent {n!r}: it takes ':', '::-1', an integer "
                    f">= 0 or a crop 'a:', ':-b', 'a:-b' with a, b >= 0, not {k!r}")
        else:
            i = _index_int(k)
            if symbolic_axis:
                if i < 0:
                    raise IndexError(
                        f"index {i} on axis {d} of symbolic extent {n!r}: negative indices need "
                        f"a concrete extent")
            else:
                if i < 0:
                    i += n
                if not 0 <= i < n:
                    raise IndexError(f"index {k} is out of bounds for axis {d} with size {n}")
            gathers.append((d, i))
    ctx_h = _c.tfe_tensor_context(h)
    if rev:
        h = _c.tfe_reverse(h, rev)
    if _builtins.any(low) or _builtins.any(high):
        h = _c.tfe_pad(h, low, high, None)
    for d, idx in reversed(gathers):  # last axis first: removing an axis keeps the others' place
        h = _c.tfe_gather(h, _scalar_or_array_handle(_np.asarray(idx, _np.int64), ctx_h), d)
    return _wrap(h)


def _resolve_shape(shape, x):
    """A shape list with at most one -1 resolved against the size of Tensor x (symbol names
    allowed when x is symbolic)."""
    if isinstance(shape, (int, _np.integer, str)):
        shape = [shape]
    shape = list(shape)
    unknown = [i for i, s in enumerate(shape)
               if isinstance(s, (int, _np.integer)) and not isinstance(s, (bool, _np.bool_))
               and s == -1]
    if len(unknown) > 1:
        raise ValueError("can only specify one unknown dimension (-1)")
    shape = _shape([1 if i in unknown else s for i, s in enumerate(shape)], x)
    if unknown:
        xshape = x.shape
        if not _builtins.all(isinstance(e, int) for e in xshape):
            raise ValueError(
                f"cannot infer -1 for a tensor of symbolic shape {xshape}: give every extent")
        size = x.size
        known = 1
        for i, s in enumerate(shape):
            if i not in unknown:
                known *= s
        if known == 0 or size % known:
            raise ValueError(f"cannot reshape {size} elements into shape {tuple(shape)}")
        shape[unknown[0]] = size // known
    return shape


def _seed_handle(seed, like):
    """A seed or tangent for `like`: a Tensor as is, anything else converted to like's dtype and
    (a scalar) broadcast to like's shape."""
    if isinstance(seed, Tensor):
        return seed
    a = _np.asarray(seed, dtype=like.dtype)
    if a.ndim == 0:
        a = _np.broadcast_to(a, like.shape)
    return _as_tensor(_np.array(a, order="F"), like=like)


# ---- construction -------------------------------------------------------------------------


def tensor(data, dtype=None, *, context=None, device=None):
    """A new Tensor holding a copy of `data` (see :class:`Tensor`), on `device` when given."""
    return _creating(lambda: Tensor(data, dtype, context=context), device, context)


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
    capsule ("dltensor" or "dltensor_versioned"), which is consumed. Host memory, or memory of a
    CUDA device that exists here (the tensor is then on that device; DeviceError otherwise). As with :func:`from_numpy`, the producer's memory must not be
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
