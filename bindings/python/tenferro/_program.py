"""Traced programs: :class:`Function` (the C ``tfe_function``), the :func:`trace` decorator,
and program AD (:meth:`Function.jvp` / ``vjp`` / ``grad`` / ``hvp``, :func:`jvp`, :func:`vjp`,
:func:`grad`, :func:`hvp`, :func:`value_and_grad`).

Operations on symbolic tensors (:func:`tenferro.symbolic`) build a program instead of computing.
A Function made from symbolic inputs and the outputs computed from them compiles once per
argument dtypes and shapes (cached per context, :meth:`tenferro.Context.cache_stats`) and runs
on concrete arguments many times. Its derivatives are new Functions (program transforms, cached
per context as ``"derivative"``), which can be differentiated again.

AD conventions (docs/design/ad-contract.md): data are column-major like every tensor; the JVP is
real-linear (``dy = a dz + b conj(dz)``); a gradient is the adjoint under ``Re(sum(conj(u) v))``,
so a complex input receives ``dL/dRe + i dL/dIm`` (PyTorch's numbers: the gradient of
``sum(|z|^2)`` is ``2z``, of ``Re(sum(exp(z)))`` is ``conj(exp(z))``) and a real input of a
complex computation a real gradient (the real part); Bool and integer inputs are never active
(their gradients are structural zeros).
"""

import functools as _functools
import operator as _operator

import numpy as _np

from . import tenferro_c as _c
from ._core import (Context, Tensor, _as_tensor, _ctx_handle, _dtype_code, _element_strides,
                    _np_dtype, _prepare, _wrap, symbolic)
from .tenferro_c import InvalidArgumentError

__all__ = ["Function", "jit", "jvp", "vjp", "grad", "hvp", "value_and_grad"]

_WEAK_TYPES = (bool, int, float, complex, list, tuple)


def _arg_handle(x, dtype, ctx_h):
    """A concrete handle for one argument of a call. Tensors are passed as they are; NumPy arrays
    and scalars keep their dtype; Python scalars and lists are weakly typed: they take the
    input's dtype when NumPy's same_kind casting allows (so 2.5 works for a float32 input, while
    2.5 for an int64 input stays float64 and the call raises DtypeMismatchError)."""
    if isinstance(x, Tensor):
        return x._h
    a = _np.asarray(x)
    if (type(x) in _WEAK_TYPES and dtype is not None and a.dtype.kind in "biufc"
            and _np.can_cast(a.dtype, dtype, "same_kind")):
        a = _np.asarray(x, dtype=dtype)
    code = _dtype_code(a.dtype)
    a = _prepare(a)
    return _c.tfe_tensor_from_data(ctx_h, code, a.shape, _element_strides(a), a)


def _format_input(shape, dtype):
    return f"{dtype.name}[{', '.join(str(e) for e in shape)}]"


class Function:
    """A traced function: ``Function(inputs, outputs)`` (``tfe_function_create``).

    `inputs`: the symbolic tensors made by :func:`tenferro.symbolic` that become the arguments,
    in order (a sequence, or one Tensor). `outputs`: a Tensor computed from them, or a list or
    tuple of such; a concrete tensor or array-like among them, like every concrete tensor an op
    used while tracing, becomes a constant of the program (its values are captured now).

    Calling ``f(*args)`` runs the program on concrete arguments (Tensors, NumPy arrays,
    scalars; see below): it returns a Tensor when `outputs` was one tensor and a tuple of Tensors
    when it was a list or tuple (even of length one). The program is compiled for the dtypes and
    shapes of the arguments on the first call with them and taken from the context's cache
    afterwards (:meth:`tenferro.Context.cache_stats`).

    Arguments: Tensors of the function's context and NumPy arrays and scalars keep their dtype,
    which must equal the input's (else DtypeMismatchError). Python scalars and lists take the
    input's dtype when NumPy's "same_kind" casting allows (``f(2)`` for a float32 input).
    Call errors are the library's: a wrong number of arguments or a symbolic argument raise
    InvalidArgumentError; a rank or concrete extent that differs, a symbol bound to two
    different values, or a failing shape condition deferred from tracing (a symbol compared with
    a constant) raise ShapeMismatchError naming the condition.

    Derivatives are program transforms that return new Functions (compiled and cached like any
    other, and differentiable again): :meth:`jvp`, :meth:`vjp`, :meth:`grad`, :meth:`hvp`, with
    :meth:`output_is_zero` for structurally zero results; see also :func:`tenferro.jvp`,
    :func:`tenferro.vjp`, :func:`tenferro.grad`, :func:`tenferro.value_and_grad`. Complex
    gradients follow PyTorch: ``dL/dRe + i dL/dIm`` (the gradient of ``sum(|z|^2)`` is ``2z``).

        >>> x = tf.symbolic(("n", 3))
        >>> f = tf.Function([x], (x * 2).sum(1))
        >>> f(np.ones((4, 3))).numpy()
        array([6., 6., 6., 6.])
    """

    def __init__(self, inputs, outputs):
        if isinstance(inputs, Tensor):
            inputs = [inputs]
        inputs = list(inputs)
        for i, t in enumerate(inputs):
            if not isinstance(t, Tensor):
                raise TypeError(f"inputs[{i}] must be a symbolic Tensor (tenferro.symbolic), not "
                                f"{type(t).__name__}")
        single = not isinstance(outputs, (list, tuple))
        outs = [outputs] if single else list(outputs)
        like = inputs[0] if inputs else next((o for o in outs if isinstance(o, Tensor)), None)
        try:
            outs = [_as_tensor(o, like) for o in outs]
        except TypeError as e:
            raise TypeError(f"the outputs of a Function are Tensors or array-likes (constants): "
                            f"{e}") from None
        h = _c.tfe_function_create([t._h for t in inputs], [o._h for o in outs])
        self._init(h, _c.tfe_tensor_context(outs[0]._h),
                   [(t.dtype, t.shape) for t in inputs], [(o.dtype, o.shape) for o in outs],
                   single, "Function")

    def _init(self, handle, ctx_h, inputs, outputs, single, name):
        """Sets the state: `inputs` / `outputs` are (dtype, shape) pairs (None when unknown)."""
        self._h = handle
        self._ctx_h = ctx_h
        self._single = bool(single)
        self._input_dtypes = tuple(d for d, _ in inputs)
        self._input_shapes = tuple(s for _, s in inputs)
        self._output_dtypes = tuple(d for d, _ in outputs)
        self._output_shapes = tuple(s for _, s in outputs)
        self.__name__ = self.__qualname__ = name

    @classmethod
    def from_handle(cls, handle, *, context=None, input_dtypes=None, input_shapes=None,
                    output_dtypes=None, output_shapes=None, single=False, name="Function"):
        """A Function over a ``tfe_function`` handle of the low-level module (a
        ``tenferro.tenferro_c`` proxy, e.g. from ``tfe_function_create`` or a transform such as
        ``tfe_function_jvp``). The Function owns the proxy (which releases the handle when both
        are gone). The C function does not report its context nor its input and output dtypes
        and shapes: `context` (default: the default context) receives the Python and NumPy
        arguments of calls; `input_dtypes` / `input_shapes` (one entry per input, None: unknown)
        give the dtype Python scalars and lists take and the repr, `output_*` are reported by
        the properties. `single`: calls return the only output as a Tensor instead of a
        tuple."""
        n_in = _c.tfe_function_num_inputs(handle)
        n_out = _c.tfe_function_num_outputs(handle)
        if single and n_out != 1:
            raise ValueError(f"single=True needs a function with one output, not {n_out}")

        def entries(values, n, what, conv):
            if values is None:
                return [None] * n
            values = list(values)
            if len(values) != n:
                raise ValueError(f"{what}: {len(values)} entries for {n}")
            return [None if v is None else conv(v) for v in values]

        in_d = entries(input_dtypes, n_in, "input_dtypes", _np_dtype)
        in_s = entries(input_shapes, n_in, "input_shapes", tuple)
        out_d = entries(output_dtypes, n_out, "output_dtypes", _np_dtype)
        out_s = entries(output_shapes, n_out, "output_shapes", tuple)
        obj = cls.__new__(cls)
        obj._init(handle, _ctx_handle(context), list(zip(in_d, in_s)), list(zip(out_d, out_s)),
                  single, name)
        return obj

    def to_dot(self):
        """Graphviz DOT text of this function's program: each op with its name and the dtype and
        shape of its outputs (symbolic extents as s1, s2, ...). Derivative functions
        (:meth:`jvp`, :meth:`vjp`, :meth:`grad`, :meth:`hvp`) are programs too. Render with
        ``dot -Tsvg``."""
        text, needed = _c.tfe_function_to_dot(self._h, 4096)
        if needed > 4096:
            text, needed = _c.tfe_function_to_dot(self._h, needed)
        return text

    @property
    def num_inputs(self):
        """The number of arguments."""
        return _c.tfe_function_num_inputs(self._h)

    @property
    def num_outputs(self):
        """The number of outputs."""
        return _c.tfe_function_num_outputs(self._h)

    @property
    def input_shapes(self):
        """The shapes of the inputs as declared (ints and symbol names; None: unknown)."""
        return self._input_shapes

    @property
    def input_dtypes(self):
        """The dtypes of the inputs (numpy.dtype; None: unknown)."""
        return self._input_dtypes

    @property
    def output_shapes(self):
        """The shapes of the outputs as traced (ints and symbolic extents; None: unknown)."""
        return self._output_shapes

    @property
    def output_dtypes(self):
        """The dtypes of the outputs (numpy.dtype; None: unknown)."""
        return self._output_dtypes

    @property
    def context(self):
        """The Context of the function (its arguments must belong to it)."""
        return Context._wrap(self._ctx_h)

    def __call__(self, *args):
        dtypes = self._input_dtypes
        handles = [_arg_handle(a, dtypes[i] if i < len(dtypes) else None, self._ctx_h)
                   for i, a in enumerate(args)]
        if self._single:
            return _wrap(_c.tfe_function_call1(self._h, handles))
        r = _c.tfe_function_call(self._h, handles)
        return tuple(_wrap(_c.tfe_results_get(r, i)) for i in range(_c.tfe_results_count(r)))

    def __repr__(self):
        ins = ", ".join(_format_input(s, d) for s, d in zip(self._input_shapes,
                                                             self._input_dtypes))
        n = self.num_outputs
        outs = "Tensor" if self._single else f"tuple of {n}"
        return f"<tenferro.Function {self.__name__}({ins}) -> {outs}>"

    # ---- program AD (tfe_function_jvp / _vjp / _grad / _hvp) ----
    def _derived(self, handle, kind, wrt, inputs, outputs, single):
        """The Function of a transform; `wrt` is the C list (empty: every input)."""
        text = "" if not wrt else f", wrt={wrt[0]}" if single else f", wrt={tuple(wrt)}"
        return Function._from_parts(handle, self._ctx_h, inputs, outputs, single,
                                    f"{kind}({self.__name__}{text})")

    @classmethod
    def _from_parts(cls, handle, ctx_h, inputs, outputs, single, name):
        obj = cls.__new__(cls)
        obj._init(handle, ctx_h, inputs, outputs, single, name)
        return obj

    def _ins(self):
        return list(zip(self._input_dtypes, self._input_shapes))

    def _outs(self):
        return list(zip(self._output_dtypes, self._output_shapes))

    def jvp(self, wrt=None):
        """Forward mode (``tfe_function_jvp``): a new Function that takes this function's
        inputs, then one tangent per `wrt` input (that input's dtype and shape), and returns
        a tuple: this function's outputs, then one tangent per output (zeros, reported by
        :meth:`output_is_zero`, for an output that does not depend on the `wrt` inputs).

        `wrt`: None (every input), an input index or a sequence of distinct indices (negative
        ones count from the end), in the order the tangents are passed. The JVP is real-linear
        (``dy = a dz + b conj(dz)``, Wirtinger derivatives a and b); a real tangent of a real
        input of a complex computation is cast up. Bool and integer inputs are never active.
        The derivative program is cached per context (``cache_stats("derivative")``) and can be
        transformed again. Errors: a bad or duplicate index raises InvalidArgumentError, an op
        without a derivative rule on the differentiated path NotDifferentiableError::

            y, dy = f.jvp()(x, dx)      # f with one input and one output
        """
        cw, idx, _ = _wrt_indices(wrt, self.num_inputs)
        h = _c.tfe_function_jvp(self._h, cw)
        ins = self._ins()
        return self._derived(h, "jvp", cw, ins + [ins[i] for i in idx], self._outs() * 2,
                             False)

    def vjp(self, wrt=None):
        """Reverse mode (``tfe_function_vjp``): a new Function that takes this function's
        inputs, then one cotangent per output (the output's dtype and shape), and returns a
        tuple: this function's outputs, then one gradient per `wrt` input (that input's dtype
        and shape; zeros, reported by :meth:`output_is_zero`, when the outputs do not depend
        on it). `wrt` as in :meth:`jvp`.

        Gradients are the adjoint under the real inner product ``Re(sum(conj(u) * v))``: a
        cotangent carries ``dL/dRe(y) + i dL/dIm(y)``, and a complex input receives
        ``dL/dRe + i dL/dIm`` (PyTorch's numbers: the gradient of ``sum(|z|^2)`` is ``2z``); a
        real input of a complex computation receives the real part. Bool and integer inputs are
        never active (their gradient is a structural zero). Errors as :meth:`jvp`.
        """
        cw, idx, _ = _wrt_indices(wrt, self.num_inputs)
        h = _c.tfe_function_vjp(self._h, cw)
        ins = self._ins()
        return self._derived(h, "vjp", cw, ins + self._outs(),
                             self._outs() + [ins[i] for i in idx], False)

    def grad(self, wrt=None):
        """The gradient (``tfe_function_grad``) of a function with one output of one element:
        a new Function that takes this function's inputs and returns the gradient with respect
        to input `wrt` (a Tensor) when `wrt` is an int, else a tuple with one gradient per
        `wrt` input (None: every input). The seed is 1; for a complex output this is the
        gradient of its real part.

        Conventions as :meth:`vjp`: column-major data; a complex input receives
        ``dL/dRe + i dL/dIm`` (``grad(sum(|z|^2)) == 2z``, ``grad(Re(sum(exp(z)))) ==
        conj(exp(z))``), a real input of a complex computation a real gradient, Bool and
        integer inputs zeros (:meth:`output_is_zero`). The result can be differentiated again
        (``f.grad(0).grad(0)`` needs a one-element input, as the gradient is then the output).
        Errors: several outputs or an output with more than one element (or a symbolic
        extent) raise InvalidArgumentError, as does a bad `wrt`; a Bool or integer output
        NotDifferentiableError.
        """
        cw, idx, single = _wrt_indices(wrt, self.num_inputs)
        h = _c.tfe_function_grad(self._h, cw)
        ins = self._ins()
        return self._derived(h, "grad", cw, ins, [ins[i] for i in idx], single)

    def hvp(self, wrt=None, mode="forward_over_reverse"):
        """Hessian-vector products (``tfe_function_hvp``) of a function with one output of one
        element: a new Function that takes this function's inputs, then one direction per `wrt`
        input (its dtype and shape), and returns ``H v`` for input `wrt` (a Tensor) when `wrt`
        is an int, else a tuple with one entry per `wrt` input. `mode`:
        ``"forward_over_reverse"`` (the JVP of the gradient) or ``"reverse_over_reverse"``
        (the gradient of ``<gradient, v>``); both give the same values. Conventions and errors
        as :meth:`grad`.
        """
        code = _HVP_MODES.get(mode) if isinstance(mode, str) else None
        if code is None:
            raise ValueError(f"hvp: mode is one of {', '.join(map(repr, _HVP_MODES))}, not "
                             f"{mode!r}")
        cw, idx, single = _wrt_indices(wrt, self.num_inputs)
        h = _c.tfe_function_hvp(self._h, cw, code)
        ins = self._ins()
        wins = [ins[i] for i in idx]
        return self._derived(h, "hvp", cw, ins + wins, wins, single)

    def output_is_zero(self, i):
        """True when output `i` (negative counts from the end) is structurally zero: a tangent
        or gradient of a derived function that nothing flows into (``tfe_function_output_is_zero``;
        such an output is all zeros at every call)."""
        n = self.num_outputs
        i = _operator.index(i)
        if -n <= i < 0:
            i += n
        return bool(_c.tfe_function_output_is_zero(self._h, i))


_HVP_MODES = {"forward_over_reverse": _c.TFE_HVP_FORWARD_OVER_REVERSE,
              "reverse_over_reverse": _c.TFE_HVP_REVERSE_OVER_REVERSE}


def _wrt_indices(wrt, n_inputs):
    """(the C wrt list, the indices with negative ones resolved (valid once the C call accepted
    them), single: wrt is one int). An empty sequence is refused (the C API reads it as every
    input)."""
    if wrt is None:
        return [], list(range(n_inputs)), False
    if isinstance(wrt, (bool, _np.bool_)):
        raise TypeError("wrt is an input index, a sequence of them or None, not a bool")
    single = isinstance(wrt, (int, _np.integer))
    if single:
        cw = [_operator.index(wrt)]
    else:
        try:
            items = list(wrt)
        except TypeError:
            raise TypeError(f"wrt is an input index, a sequence of them or None, not "
                            f"{type(wrt).__name__}") from None
        for w in items:
            if isinstance(w, (bool, _np.bool_)) or not isinstance(w, (int, _np.integer)):
                raise TypeError(f"wrt entries are input indices (ints), not "
                                f"{type(w).__name__}")
        cw = [_operator.index(w) for w in items]
        if not cw:
            raise InvalidArgumentError(
                "wrt is an empty sequence: give at least one input index, or None for every "
                "input", _c.TFE_ERR_INVALID_ARGUMENT)
    return cw, [w + n_inputs if w < 0 else w for w in cw], single


def _arg_list(values):
    """A tuple or list of arguments as a list; any other value is one argument."""
    if isinstance(values, (list, tuple)):
        return list(values)
    return [values]


def _check_function(f, what):
    if not isinstance(f, Function):
        raise TypeError(f"{what} needs a tenferro.Function (tenferro.jit), not "
                        f"{type(f).__name__}")


def _structure(values, single):
    return values[0] if single else tuple(values)


def _cast_up(value, dtype):
    """A real cotangent for a complex output (same precision) cast up, as the eager seeds are;
    anything else as it is."""
    if dtype is None or dtype.kind != "c":
        return value
    real = _np.dtype(f"f{dtype.itemsize // 2}")
    if isinstance(value, Tensor):
        return value.astype(dtype) if value.dtype == real else value
    if isinstance(value, (_np.ndarray, _np.generic)) and value.dtype == real:
        return value.astype(dtype)
    return value


def jvp(f, primals, tangents, wrt=None):
    """Forward mode: ``(outputs, tangents_out)`` of Function `f` at `primals` along
    `tangents` (with :meth:`Function.jvp`).

    `primals`: f's arguments, a tuple or list (another value is the only argument). `tangents`:
    one per `wrt` input, in `wrt` order (a tuple or list; one value when `wrt` is an int), each
    with its input's dtype and shape. `wrt`: None (every input), an index or a sequence of
    indices. `outputs` and `tangents_out` have the structure of f's calls (a Tensor for a
    Function of one output, else a tuple); a tangent is None when that output does not depend
    on the `wrt` inputs (structurally zero). The JVP is real-linear in the tangents
    (``dy = a dz + b conj(dz)``); Bool and integer inputs are never active.

        >>> x = tf.symbolic(3)
        >>> f = tf.Function([x], (x * x).sum())
        >>> y, dy = tf.jvp(f, [[1.0, 2.0, 3.0]], [[0.1, 1.0, -2.0]])
        >>> y.item(), dy.item()
        (14.0, -7.8)
    """
    _check_function(f, "jvp")
    g = f.jvp(wrt)
    args = _arg_list(primals)
    tans = [tangents] if isinstance(wrt, (int, _np.integer)) else _arg_list(tangents)
    res = g(*args, *tans)
    n = len(res) // 2
    outs = res[:n]
    douts = [None if g.output_is_zero(n + j) else t for j, t in enumerate(res[n:])]
    return _structure(outs, f._single), _structure(douts, f._single)


def vjp(f, primals, cotangents, wrt=None):
    """Reverse mode: ``(outputs, grads)`` of Function `f` at `primals` for `cotangents` (with
    :meth:`Function.vjp`).

    `primals`: f's arguments, a tuple or list (another value is the only argument).
    `cotangents`: one per output of f, each with the output's dtype and shape: one value when f
    returns a Tensor, a tuple or list when it returns a tuple. `outputs` has the structure of
    f's calls; `grads` is the gradient for input `wrt` when `wrt` is an int, else a tuple with
    one per `wrt` input (None: every input); a gradient is None when the outputs do not depend
    on that input (structurally zero; Bool and integer inputs always). A real cotangent (of the
    same precision) for a complex output is cast up, as in eager mode; the VJP Function itself
    takes exactly the output's dtype.

    Conventions: data are column-major; a cotangent carries ``dL/dRe(y) + i dL/dIm(y)`` and a
    complex input receives ``dL/dRe + i dL/dIm`` (PyTorch's convention: the gradient of
    ``sum(|z|^2)`` is ``2z``); a real input of a complex computation receives a real gradient.
    """
    _check_function(f, "vjp")
    g = f.vjp(wrt)
    args = _arg_list(primals)
    cots = [cotangents] if f._single else _arg_list(cotangents)
    cots = [_cast_up(c, d) for c, d in zip(cots, f._output_dtypes)]
    res = g(*args, *cots)
    n = f.num_outputs
    grads = [None if g.output_is_zero(n + j) else t for j, t in enumerate(res[n:])]
    return (_structure(res[:n], f._single),
            _structure(grads, isinstance(wrt, (int, _np.integer))))


def grad(f, wrt=None):
    """The gradient Function of `f` (:meth:`Function.grad`): `f` has one output of one
    element; the result takes f's arguments and returns the gradient (a Tensor when `wrt` is an
    int, else a tuple, one per `wrt` input; None: every input). A complex input receives
    ``dL/dRe + i dL/dIm`` (``grad(sum(|z|^2)) == 2z``), a real input a real gradient, Bool and
    integer inputs zeros. Nest it for higher derivatives of a one-element input::

        x = tf.symbolic(())
        f = tf.Function([x], x * tf.sin(x))
        d3 = tf.grad(tf.grad(tf.grad(f, 0), 0), 0)      # d3(0.5): -3 sin(x) - x cos(x)
    """
    _check_function(f, "grad")
    return f.grad(wrt)


def hvp(f, primals, directions, wrt=None, mode="forward_over_reverse"):
    """Hessian-vector products of `f` (one output of one element) at `primals` along
    `directions` (one per `wrt` input; one value when `wrt` is an int), with
    :meth:`Function.hvp`: ``H v`` for input `wrt` when it is an int, else a tuple."""
    _check_function(f, "hvp")
    g = f.hvp(wrt, mode)
    args = _arg_list(primals)
    dirs = [directions] if isinstance(wrt, (int, _np.integer)) else _arg_list(directions)
    return g(*args, *dirs)


class _ValueAndGrad:
    """The callable made by :func:`value_and_grad`."""

    def __init__(self, f, wrt):
        _check_function(f, "value_and_grad")
        g = f.grad(wrt)  # validates: one output of one element, wrt
        self._vjp = f.vjp(wrt)
        dtype, shape = f._output_dtypes[0], f._output_shapes[0]
        if dtype is None or shape is None:
            raise ValueError("value_and_grad needs the output's dtype and shape (Function."
                             "from_handle(..., output_dtypes=, output_shapes=))")
        # one element: every extent is 1 (a symbolic one too)
        self._seed = _np.ones([1] * len(shape), dtype=dtype)
        self._n = f.num_inputs
        self._single = isinstance(wrt, (int, _np.integer))
        self._zero = [self._vjp.output_is_zero(1 + j)
                      for j in range(self._vjp.num_outputs - 1)]
        self.__name__ = self.__qualname__ = "value_and_" + g.__name__

    def __call__(self, *args):
        res = self._vjp(*args, self._seed)
        grads = [None if z else t for z, t in zip(self._zero, res[1:])]
        return res[0], _structure(grads, self._single)

    def __repr__(self):
        return f"<tenferro {self.__name__}>"


def value_and_grad(f, wrt=None):
    """A callable returning ``(value, grads)`` of `f` (one output of one element) in one run
    of its VJP program, seeded with 1: `grads` as in :func:`vjp` (the gradient for an int
    `wrt`, else a tuple; None for a structurally zero gradient). It is a plain callable, not a
    Function: to transform further, use :meth:`Function.grad` / :meth:`Function.vjp`."""
    return _ValueAndGrad(f, wrt)


def jit(*specs, dtype=_np.float64, context=None):
    """Decorator: traces a Python function over symbolic inputs into a :class:`Function`.

    Each spec describes one argument: a shape as for :func:`tenferro.symbolic` (ints, -k,
    symbol names; a bare int or name is rank 1) with dtype `dtype` (one dtype, or a sequence
    with one per spec), or a symbolic Tensor used as that input. The Python function runs once,
    now, on the symbolic inputs; it returns a Tensor or a tuple/list of Tensors, which the
    Function's calls then return::

        @tf.jit(("n", "k"), ("k", "m"))
        def f(a, b):
            return tf.tanh(a @ b).sum(1)

        f(np.ones((5, 3)), np.ones((3, 2)))    # compiled for these shapes, then cached
    """
    if len(specs) == 1 and callable(specs[0]) and not isinstance(specs[0], Tensor):
        raise TypeError("jit needs the argument specs: @tenferro.jit(shape, ...)")
    if isinstance(dtype, (list, tuple)):
        dtypes = list(dtype)
        if len(dtypes) != len(specs):
            raise ValueError(f"jit: {len(dtypes)} dtypes for {len(specs)} specs")
    else:
        dtypes = [dtype] * len(specs)
    for i, s in enumerate(specs):
        if isinstance(s, _np.ndarray):
            raise TypeError(f"spec {i}: a shape (tuple, int, name) or a symbolic Tensor, not an "
                            f"array")

    def decorate(fn):
        inputs = [s if isinstance(s, Tensor) else symbolic(s, d, context=context)
                  for s, d in zip(specs, dtypes)]
        f = Function(inputs, fn(*inputs))
        _functools.update_wrapper(f, fn)
        return f

    return decorate
