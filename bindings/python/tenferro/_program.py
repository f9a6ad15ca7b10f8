"""Traced programs: :class:`Function` (the C ``tfe_function``) and the :func:`trace` decorator.

Operations on symbolic tensors (:func:`tenferro.symbolic`) build a program instead of computing.
A Function made from symbolic inputs and the outputs computed from them compiles once per
argument dtypes and shapes (cached per context, :meth:`tenferro.Context.cache_stats`) and runs
on concrete arguments many times.
"""

import functools as _functools

import numpy as _np

from . import tenferro_c as _c
from ._core import (Context, Tensor, _as_tensor, _dtype_code, _element_strides, _prepare, _wrap,
                    symbolic)

__all__ = ["Function", "trace"]

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
        self._single = not isinstance(outputs, (list, tuple))
        outs = [outputs] if self._single else list(outputs)
        like = inputs[0] if inputs else next((o for o in outs if isinstance(o, Tensor)), None)
        try:
            outs = [_as_tensor(o, like) for o in outs]
        except TypeError as e:
            raise TypeError(f"the outputs of a Function are Tensors or array-likes (constants): "
                            f"{e}") from None
        self._h = _c.tfe_function_create([t._h for t in inputs], [o._h for o in outs])
        self._ctx_h = _c.tfe_tensor_context(outs[0]._h)
        self._input_dtypes = tuple(t.dtype for t in inputs)
        self._input_shapes = tuple(t.shape for t in inputs)
        self.__name__ = self.__qualname__ = "Function"

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
        """The shapes of the inputs as declared (ints and symbol names)."""
        return self._input_shapes

    @property
    def input_dtypes(self):
        """The dtypes of the inputs (numpy.dtype)."""
        return self._input_dtypes

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


def trace(*specs, dtype=_np.float64, context=None):
    """Decorator: traces a Python function over symbolic inputs into a :class:`Function`.

    Each spec describes one argument: a shape as for :func:`tenferro.symbolic` (ints, -k,
    symbol names; a bare int or name is rank 1) with dtype `dtype` (one dtype, or a sequence
    with one per spec), or a symbolic Tensor used as that input. The Python function runs once,
    now, on the symbolic inputs; it returns a Tensor or a tuple/list of Tensors, which the
    Function's calls then return::

        @tf.trace(("n", "k"), ("k", "m"))
        def f(a, b):
            return tf.tanh(a @ b).sum(1)

        f(np.ones((5, 3)), np.ones((3, 2)))    # compiled for these shapes, then cached
    """
    if len(specs) == 1 and callable(specs[0]) and not isinstance(specs[0], Tensor):
        raise TypeError("trace needs the argument specs: @tenferro.trace(shape, ...)")
    if isinstance(dtype, (list, tuple)):
        dtypes = list(dtype)
        if len(dtypes) != len(specs):
            raise ValueError(f"trace: {len(dtypes)} dtypes for {len(specs)} specs")
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
