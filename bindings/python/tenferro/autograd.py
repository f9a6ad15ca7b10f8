"""Eager automatic differentiation (``tenferro/ad.h``): tracked tensors, scopes and the
functional :func:`vjp` / :func:`jvp`.

Mark a leaf with ``x.requires_grad = True`` (float and complex dtypes); every op with a tracked
operand then runs at once *and* appends one node to a trace, nothing more. At the first
derivative request the trace is analysed once into a program with symbolic leaf extents, whose
derivative program is cached per context (``Context.cache_stats("derivative")``) and reused for
every later request with the same structure and the same pattern of equal extents::

    >>> import tenferro as tf
    >>> x = tf.tensor([1.0, 2.0, 3.0]).requires_grad_()
    >>> (x * x).sum().backward()
    >>> x.grad.numpy()
    array([2., 4., 6.])

Conventions (as program AD): a complex leaf receives ``dL/dRe + i dL/dIm`` (the gradient of
``sum(|z|^2)`` is ``2z``); a real leaf of a complex computation receives the real part; forward
mode casts a real tangent of a complex input up. Releasing intermediate tensors never breaks a
trace. Results of :func:`vjp` and :func:`jvp` are recorded again (outside :func:`no_grad`), so
``jvp(vjp(...))`` is a Hessian-vector product.
"""

import contextlib as _contextlib

from . import tenferro_c as _c
from ._core import Tensor, _ctx_handle, _seed_handle, _wrap

__all__ = ["no_grad", "capture_trace", "backward", "vjp", "jvp", "to_dot"]


class _Scope(_contextlib.ContextDecorator):
    __slots__ = ("_enter", "_exit", "_context", "_h")

    def __init__(self, enter, exit_, context):
        self._enter, self._exit, self._context = enter, exit_, context

    def __enter__(self):
        self._h = _ctx_handle(self._context)
        self._enter(self._h)
        return self

    def __exit__(self, *exc):
        self._exit(self._h)
        return False


def no_grad(context=None):
    """A scope (``with`` statement or decorator) in which ops on this thread record nothing for
    `context` (the default context when None): results are untracked. Scopes nest; no_grad wins
    over :func:`capture_trace`."""
    return _Scope(_c.tfe_no_grad_enter, _c.tfe_no_grad_exit, context)


def capture_trace(context=None):
    """A scope in which every op on this thread records for `context`, untracked operands too:
    such an operand becomes a captured leaf (its ``requires_grad`` turns True) that :func:`vjp`
    and :func:`jvp` can differentiate with respect to; :meth:`Tensor.backward` never stores a
    gradient into it."""
    return _Scope(_c.tfe_capture_trace_enter, _c.tfe_capture_trace_exit, context)


def backward(loss, seed=None):
    """``loss.backward(seed)`` (:meth:`Tensor.backward`)."""
    _check_tensor(loss, "loss")
    loss.backward(seed)


def vjp(y, xs, seed=None):
    """Reverse mode without touching stored gradients: a tuple with ``d(seed . y)/d(x)`` for each
    x of `xs` (a Tensor or a sequence of them: variables, captured leaves or tracked
    intermediates), None where y does not depend on x (or x is not active). Without `seed`, y must
    have one element; a non-Tensor seed is converted like :meth:`Tensor.backward`'s."""
    _check_tensor(y, "y")
    xs = _tensor_list(xs, "xs")
    s = None if seed is None else _seed_handle(seed, y)._h
    grads = _c.tfe_vjp(y._h, [x._h for x in xs], s)
    return tuple(None if g is None else _wrap(g) for g in grads)


def jvp(y, xs, tangents):
    """Forward mode: the directional derivative of y along `tangents`, or None when y depends on
    none of the active xs. `xs` is a Tensor (then `tangents` is its tangent) or a sequence of
    them (then `tangents` is a sequence as long). A tangent is a Tensor of its x's shape, an
    array-like converted to its x's dtype, a scalar broadcast to its x's shape, or None (zero)."""
    _check_tensor(y, "y")
    if isinstance(xs, Tensor):  # one input: `tangents` is its tangent
        xs, tangents = [xs], [tangents]
    xs = _tensor_list(xs, "xs")
    tangents = list(tangents)
    if len(tangents) != len(xs):
        raise ValueError(f"jvp: {len(tangents)} tangents for {len(xs)} inputs")
    ts = [None if t is None else _seed_handle(t, x)._h for x, t in zip(xs, tangents)]
    out = _c.tfe_jvp(y._h, [x._h for x in xs], ts)
    return None if out is None else _wrap(out)


def to_dot(y):
    """Graphviz DOT text of the eager trace below the tracked tensor y: what ``y.backward()``
    would differentiate (variables, constants, each recorded op with the dtype and shape of its
    value, promotions included). Render with ``dot -Tsvg``."""
    _check_tensor(y, "y")
    text, needed = _c.tfe_autograd_to_dot(y._h, 4096)
    if needed > 4096:
        text, needed = _c.tfe_autograd_to_dot(y._h, needed)
    return text


def _check_tensor(t, name):
    if not isinstance(t, Tensor):
        raise TypeError(f"{name} must be a tenferro.Tensor, not {type(t).__name__}")


def _tensor_list(xs, name):
    if isinstance(xs, Tensor):
        return [xs]
    xs = list(xs)
    for i, x in enumerate(xs):
        _check_tensor(x, f"{name}[{i}]")
    return xs
