"""tenferro: tensors with automatic differentiation and linear algebra (Python bindings).

A thin layer over the C ABI of libtenferro (``include/tenferro/*.h``); the low-level SWIG module
is ``tenferro.tenferro_c`` (every C function, handles as owning proxies).

    >>> import numpy as np, tenferro as tf
    >>> a = tf.Tensor(np.arange(6.0).reshape(2, 3))
    >>> (a + tf.Tensor([10.0, 20.0])).numpy()        # left-aligned: [2,3] + [2]
    array([[10., 11., 12.],
           [23., 24., 25.]])

Rules that differ from NumPy
----------------------------
* **Broadcasting is LEFT-aligned (Julia style)**, the column-major mirror of NumPy's rule:
  dim 0 pairs with dim 0 and the shorter shape is padded with trailing 1s. ``[2,3] + [2]`` works
  (the column is added to every column); ``[2,3] + [3]`` raises ShapeMismatchError (NumPy would
  accept it). ``[M,N] + [M,N,B]`` works.
* **Matrices are the first two dims, batch dims come after**: ``a @ b`` (matmul) is
  ``[M,K,B..] x [K,N,B..] -> [M,N,B..]``, batch dims broadcast left-aligned
  (``[M,K,B] @ [K,N] -> [M,N,B]``); a rank-1 operand is a row on the left and a column on the
  right, as in NumPy (``psi @ H @ psi``). NumPy puts batch dims first (``[B..,M,K]``).
  The linear algebra functions use the same [M,N,batch..] convention.
* Shapes are the same logical shapes as NumPy's (``t.shape == t.numpy().shape``), but storage
  is column-major, so ``reshape`` takes the elements in column-major order (NumPy's
  ``order='F'``).
* Python scalars are weak, as in NumPy 2 (NEP 50), in every operator and function: they take
  the other operand's dtype within their kind (``float32_tensor * 2.0`` is float32,
  ``int32_tensor + 1`` is int32, ``int32_tensor * 2.5`` is float64), and an int out of an integer
  dtype's range raises OverflowError. NumPy scalars and arrays are strong (their own dtype).
  Alone (``tf.add(1, 2)``) Python scalars are bool, int64, float64, complex128.
* Tensors are immutable (``t[i] = v`` is a TypeError); ``t.at[i].set(v)`` / ``.add`` /
  ``.multiply`` return updated copies; there is no in-place arithmetic. NumPy ufuncs are not
  applied to tensors (``ndarray + Tensor`` calls Tensor's operator); ``np.asarray(t)`` copies
  to NumPy.
* ``//`` and ``%`` are not defined; ``div_trunc`` and ``rem`` truncate toward zero (C).

Data exchange
-------------
``Tensor(x)`` copies anything ``numpy.asarray`` accepts; ``t.numpy()`` / ``np.asarray(t)`` copy
out; ``from_numpy(a)`` wraps a NumPy array without copying (do not modify it afterwards);
``t.__dlpack__()`` and ``from_dlpack(obj)`` exchange memory with NumPy, PyTorch and others.

Errors
------
A failing call raises the subclass of TenferroError for its status (InvalidArgumentError,
ShapeMismatchError, DtypeMismatchError, OutOfMemoryError, NotSupportedError, DeviceError,
NotDifferentiableError, SingularError, NonConvergenceError, NumericalError, InternalError),
whose message is the library's one line starting with the C function's name, e.g.
``tfe_add: shapes [2,3] and [3] do not broadcast``. Unknown status codes raise TenferroError.

Contexts
--------
Tensors belong to a Context; functions use a default context created on first use
(``default_context()``) unless given ``context=``. ``debug_live_objects()`` counts live handles
(the default context included) for leak checks.

Traced programs
---------------
``symbolic(shape, dtype)`` makes an input whose extents may be symbols: ``-k`` (symbol k, as in
the C API) or a name (``"n"``; the same name is the same symbol within a context). Every op and
operator works on symbolic tensors and builds a program instead of computing;
``Function(inputs, outputs)`` (or the ``@jit(shape, ...)`` decorator) compiles it once per
argument shapes and calls it on concrete values::

    >>> x = tf.symbolic(("n", 3))
    >>> f = tf.Function([x], tf.exp(x).sum(1))
    >>> f(np.zeros((2, 3))).numpy()
    array([3., 3.])

A symbolic tensor's ``shape`` shows symbols as strings (``('n', 3)``; derived extents as the
expression, ``('(n+2)', 3)``); it has no values (``numpy()`` raises InvalidArgumentError).
Shape rules that relate two different symbols fail when tracing (ShapeMismatchError naming both,
as ``s<k>``); conditions between a symbol and a constant are checked at each call. Compiled
programs are cached per context: ``Context.cache_stats()``, ``clear_cache()``,
``set_cache_limits()``.

Derivatives of traced programs
------------------------------
``f.jvp(wrt)``, ``f.vjp(wrt)``, ``f.grad(wrt)`` and ``f.hvp(wrt, mode)`` return new Functions
(program transforms, cached per context as ``cache_stats("derivative")``, differentiable
again); ``wrt`` is an input index, a sequence of them, or None for every input. The functions
``jvp(f, primals, tangents)``, ``vjp(f, primals, cotangents)``, ``grad(f)``, ``hvp(...)`` and
``value_and_grad(f)`` call them::

    >>> x = tf.symbolic(3)
    >>> f = tf.Function([x], (x * x).sum())
    >>> f.grad(0)([1.0, 2.0, 3.0]).numpy()
    array([2., 4., 6.])

A complex input receives ``dL/dRe + i dL/dIm`` (PyTorch's convention: the gradient of
``sum(|z|^2)`` is ``2z``); a real input of a complex computation gets a real gradient; Bool and
integer inputs are never active (``vjp`` gives None for a structurally zero gradient).

Eager derivatives
-----------------
``x.requires_grad = True`` makes a leaf a variable; ops on tracked tensors run at once and record
a trace that is analysed only when a derivative is requested: ``loss.backward()`` accumulates
into ``x.grad``; :func:`tenferro.autograd.vjp` and :func:`tenferro.autograd.jvp` are the functional
forms (their results are differentiable again); :func:`no_grad` and :func:`capture_trace` are
scopes. See :mod:`tenferro.autograd`::

    >>> x = tf.tensor([1.0, 2.0, 3.0]).requires_grad_()
    >>> (x * x).sum().backward()
    >>> x.grad.numpy()
    array([2., 4., 6.])
"""

from . import tenferro_c as _c
from .tenferro_c import (DeviceError, DtypeMismatchError, InternalError, InvalidArgumentError,
                         NonConvergenceError, NotDifferentiableError, NotSupportedError,
                         NumericalError, OutOfMemoryError, ShapeMismatchError, SingularError,
                         TenferroError)
from ._core import (CacheStats, Context, SymbolicDim, Tensor, asarray, default_context, device,
                    from_dlpack, from_numpy, symbolic, tensor)
from ._ops import *  # noqa: F401,F403
from ._reduce import *  # noqa: F401,F403
from ._reduce import __all__ as _reduce_all
from ._functions import *  # noqa: F401,F403
from ._functions import __all__ as _functions_all
from ._einsum import EinsumPathInfo, einsum, einsum_path, kron, outer, tensordot
from ._program import Function, grad, hvp, jvp, jit, value_and_grad, vjp
from . import autograd
from . import linalg
from .autograd import capture_trace, no_grad
from ._ops import __all__ as _ops_all

if _c.tfe_abi_version() != _c.TFE_ABI_VERSION:
    raise ImportError(
        f"tenferro: libtenferro has ABI version {_c.tfe_abi_version()}, this module was built for "
        f"{_c.TFE_ABI_VERSION}")

__version__ = _c.tfe_version()

__all__ = [
    "Context", "Tensor", "asarray", "default_context", "device", "from_dlpack", "from_numpy",
    "tensor",
    "symbolic", "SymbolicDim", "Function", "jit", "CacheStats",
    "jvp", "vjp", "grad", "hvp", "value_and_grad", "autograd", "linalg", "no_grad", "capture_trace",
    "TenferroError", "InvalidArgumentError", "ShapeMismatchError", "DtypeMismatchError",
    "OutOfMemoryError", "NotSupportedError", "DeviceError", "NotDifferentiableError",
    "SingularError", "NonConvergenceError", "NumericalError", "InternalError",
    "einsum", "einsum_path", "EinsumPathInfo", "tensordot", "outer", "kron",
] + list(_ops_all) + list(_reduce_all) + list(_functions_all) + ["amax", "amin"]
amax, amin = max, min  # noqa: F405 (NumPy's other names)
