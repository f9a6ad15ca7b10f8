"""Traced programs: symbolic tensors, Function, trace, the compiled-program cache.

Every traced result is compared with NumPy (tenferro's conventions: left-aligned broadcasting,
[M,K,B] x [K,N,B] matmul, column-major reshape) or with the eager result of the same ops on the
same values. The autouse leak fixture of conftest.py checks every test."""

import pickle
import re

import numpy as np
import pytest

import tenferro as tf
from conftest import assert_close, left_align, np_matmul, rand


# ---- symbolic tensors ----------------------------------------------------------------------


def test_symbolic_shape_names_and_ids():
    ctx = tf.Context()  # fresh: its symbol names and cache statistics start empty
    x = tf.symbolic(("n", 3), context=ctx)
    assert x.is_symbolic and isinstance(x, tf.Tensor)
    assert x.shape == ("n", 3) and x.ndim == 2 and x.dtype == np.float64
    n = x.shape[0]
    assert isinstance(n, tf.SymbolicDim) and isinstance(n, str)
    assert n.symbol == ctx.symbol("n") == 1
    # the same name is the same symbol; a new name gets the next free id
    y = tf.symbolic(["m", "n"], np.int32, context=ctx)
    assert y.shape == ("m", "n") and y.dtype == np.int32
    assert ctx.symbols() == {"n": 1, "m": 2}
    # negative ints are symbol ids, as in C; names skip ids used that way
    z = tf.symbolic((-5, 0, "k"), context=ctx)
    assert z.shape == ("s5", 0, "k")
    assert ctx.symbol("k") == 3
    assert tf.symbolic((-1,), context=ctx).shape == ("n",)  # -1 is the symbol called n
    assert tf.symbolic("s2", context=ctx).shape == ("m",)  # "s<k>" is symbol k
    w = tf.symbolic((), np.complex64, context=ctx)
    assert w.shape == () and w.is_symbolic and w.dtype == np.complex64
    # a plain SymbolicDim can declare another input; a bare name or int is rank 1
    assert tf.symbolic(x.shape, context=ctx).shape == ("n", 3)
    assert tf.Tensor.symbolic(7, context=ctx).shape == (7,)
    assert not tf.Tensor([1.0]).is_symbolic


def test_derived_extents_show_the_expression():
    ctx = tf.Context()
    x = tf.symbolic(("n", 3), context=ctx)
    m = tf.symbolic(("m", 3), context=ctx)
    assert tf.concatenate([x, x]).shape == ("(n*2)", 3)
    assert tf.concatenate([x, m]).shape == ("(n+m)", 3)
    d = tf.pad(x, [1, 0], [2, 0]).shape[0]
    assert d == "(n+3)" and d.symbol is None
    with pytest.raises(ValueError, match="derived"):
        tf.symbolic((d,), context=ctx)
    # unnamed symbols keep the library's spelling
    assert tf.concatenate([tf.symbolic((-9,), context=ctx)] * 2).shape == ("(s9*2)",)
    assert pickle.loads(pickle.dumps(d)) == "(n+3)"


def test_names_are_per_context():
    a, b = tf.Context(), tf.Context()
    assert tf.symbolic(("p", "q"), context=a).shape == ("p", "q")
    assert b.symbol("q") == 1 and a.symbol("q") == 2
    assert tf.symbolic(("q",), context=b).shape[0].symbol == 1


def test_default_context_symbols():
    x = tf.symbolic(("rows_in_default_ctx", 2))
    assert x.context == tf.default_context()
    assert x.shape[0].symbol == tf.default_context().symbol("rows_in_default_ctx")


@pytest.mark.parametrize("shape,err", [
    (("not a name",), ValueError), (("1n",), ValueError), ((2.0,), TypeError),
    ((True,), TypeError), ((None,), TypeError)])
def test_bad_symbolic_shapes(shape, err):
    ctx = tf.Context()
    with pytest.raises(err):
        tf.symbolic(shape, context=ctx)


def test_bad_symbolic_arguments_raise_the_library_error():
    ctx = tf.Context()
    with pytest.raises(tf.InvalidArgumentError, match=r"tenferro\.symbolic\(\)"):
        tf.symbolic((-2**63,), context=ctx)
    with pytest.raises(TypeError):
        tf.symbolic((2,), np.uint8, context=ctx)


def test_symbolic_tensors_have_no_values():
    ctx = tf.Context()
    x = tf.symbolic(("n", 3), context=ctx)
    s = x.sum()  # traced, with a concrete shape
    assert s.is_symbolic and s.shape == () and s.size == 1
    for t in (x, s):
        for read in (lambda: t.numpy(), lambda: np.asarray(t), lambda: t.tolist(),
                     lambda: t.item(), lambda: bool(t), lambda: float(t), lambda: t.__dlpack__(),
                     lambda: pickle.dumps(t)):
            with pytest.raises(tf.InvalidArgumentError, match=r"^(Tensor\.\w+(\(\))?|tenferro\.\w+\(\)): .*symbolic"):
                read()
    with pytest.raises(TypeError, match="symbolic"):
        len(x)
    assert repr(x) == "<symbolic Tensor shape=('n', 3) dtype=float64>"
    assert str(s) == "<symbolic Tensor shape=() dtype=float64>"
    with pytest.raises(TypeError, match="symbolic extent 'n'"):
        tf.zeros(x.shape)
    with pytest.raises(ValueError, match="cannot infer -1"):
        x.reshape(-1)


# ---- functions: shapes, NumPy, conventions --------------------------------------------------


def test_one_function_many_shapes_matches_numpy(rng):
    ctx = tf.Context()
    a = tf.symbolic(("m", "k", "b"), context=ctx)
    w = tf.symbolic(("k", "n"), context=ctx)
    bias = tf.symbolic(("m",), context=ctx)
    out = tf.tanh(a @ w + bias) * 0.5 - 1  # [m,n,b] + [m] broadcasts left-aligned
    f = tf.Function([a, w, bias], out)
    assert (f.num_inputs, f.num_outputs) == (3, 1)
    assert f.input_shapes == (("m", "k", "b"), ("k", "n"), ("m",))
    for m, k, n, b in [(2, 3, 4, 5), (1, 1, 1, 1), (6, 2, 3, 1), (3, 0, 2, 2), (2, 3, 4, 5)]:
        an, wn, bn = rand(rng, (m, k, b), np.float64), rand(rng, (k, n), np.float64), \
            rand(rng, (m,), np.float64)
        want = np.tanh(np_matmul(an, wn) + bn[:, None, None]) * 0.5 - 1
        got = f(an, tf.Tensor(wn, context=ctx), bn)
        assert isinstance(got, tf.Tensor) and not got.is_symbolic
        assert_close(got, want)
    st = ctx.cache_stats()
    assert (st.hits, st.misses, st.entries) == (1, 4, 4)


def test_left_aligned_broadcast_and_column_major_reshape(rng):
    ctx = tf.Context()
    x = tf.symbolic(("n", 4), context=ctx)
    v = tf.symbolic(("n",), context=ctx)
    f = tf.Function([x, v], [x * v, x.T @ x])
    for n in (3, 1):
        xn, vn = rand(rng, (n, 4), np.float64), rand(rng, (n,), np.float64)
        p, g = f(xn, vn)
        assert_close(p, np.multiply(*left_align(xn, vn)))
        assert_close(g, xn.T @ xn)
    # [n,4] * [4]: the [4] pairs with n (NumPy would pair it with the 4), so n must be 4
    h = tf.Function([x], x * np.arange(4.0))
    assert_close(h(np.ones((4, 4))), np.ones((4, 4)) * np.arange(4.0)[:, None])
    with pytest.raises(tf.ShapeMismatchError):
        h(np.ones((3, 4)))
    # reshape takes elements in column-major order; a concrete target shape is a condition
    # checked at each call
    r = tf.Function([x], (x + 1).reshape(2, 6))
    xn = rand(rng, (3, 4), np.float64)
    assert_close(r(xn), np.reshape(xn + 1, (2, 6), order="F"))
    with pytest.raises(tf.ShapeMismatchError, match="element counts"):
        r(np.ones((2, 4)))


# name -> a function of x, y (float64 [n,3]), i (int64 [n,3]), c (complex128 [n,3])
OPS = {
    "arith": lambda x, y, i, c: (x + y) * 2 - y / 3 + 1.5 ** x,
    "scalars": lambda x, y, i, c: 2 * x - 1 + (x > 0.5) + True,
    "pow_neg_abs": lambda x, y, i, c: abs(-x) ** 2,
    "unary": lambda x, y, i, c: tf.exp(x) + tf.sin(y) * tf.cos(x) - tf.sqrt(abs(x)) +
    tf.tanh(y),
    "more_unary": lambda x, y, i, c: tf.floor(x) + tf.ceil(y) + tf.round(x) + tf.sign(y),
    "compare": lambda x, y, i, c: ((x < y) & (x >= -1)) | ~(y != x) ^ (x == 0),
    "select_clamp": lambda x, y, i, c: tf.where(x > 0, x, y) + tf.clamp(x, -1, 1),
    "minmax": lambda x, y, i, c: tf.maximum(x, y) - tf.minimum(x, 0.25),
    "sum_all": lambda x, y, i, c: x.sum(),
    "reductions": lambda x, y, i, c: x.sum(0) + x.mean(0) + x.max(0) - x.min(0) + y.prod(0),
    "reduce_axis1": lambda x, y, i, c: tf.reduce_sum(x, 1) + tf.reduce_max(y, -1),
    "int_sum": lambda x, y, i, c: i.sum(1) + tf.div_trunc(i, 3).sum(1) + tf.rem(i, 3).sum(1),
    "bool_sum": lambda x, y, i, c: (x > 0).sum(),
    "transpose": lambda x, y, i, c: x.T @ y + x.mT @ y,
    "matmul_nt": lambda x, y, i, c: x @ y.T,
    "dot_general": lambda x, y, i, c: tf.dot_general(x, y, [0], [0]),
    "complex": lambda x, y, i, c: (tf.complex(x, y).conj() * c).real + c.imag + abs(c),
    "casts": lambda x, y, i, c: x.astype(np.float32) + tf.convert(i, np.float64) +
    tf.cast(x, np.int32),
    "concatenate": lambda x, y, i, c: tf.concatenate([x, y, x], 0),
    "concatenate_axis1": lambda x, y, i, c: tf.concatenate([x, 2 * y], 1),
    "stack": lambda x, y, i, c: tf.stack([x, y], -1),
    "reverse": lambda x, y, i, c: tf.reverse(x, [0, 1]) + tf.flip(y, 1),
    "triangles": lambda x, y, i, c: tf.tril(x) + tf.triu(y, 1),
    "diag": lambda x, y, i, c: tf.extract_diag(x) + 0,
    "gather": lambda x, y, i, c: tf.gather(x, [2, 0, 2], 1),
    "gather_rows": lambda x, y, i, c: tf.gather(x, [0, 0], 0),
    "dynamic_slice": lambda x, y, i, c: tf.dynamic_slice(x, [0, 1], [1, 2]),
    "pad": lambda x, y, i, c: tf.pad(x, [1, 0], [0, 2], [1, 0]),
    "constant_row": lambda x, y, i, c: x * np.array([[1.0, -1.0, 2.0]]) + [[0.5, 0, 1]],
    "scatter": lambda x, y, i, c: tf.scatter(x, [0, 2, 0], tf.gather(y, [1, 1, 2], 1), 1),
    "dynamic_update_slice": lambda x, y, i, c: tf.dynamic_update_slice(
        x, tf.dynamic_slice(y, [0, 0], [1, 2]), [0, 1]),
    "embed_diag": lambda x, y, i, c: tf.embed_diag(x.sum(1)),
    "broadcast": lambda x, y, i, c: tf.broadcast_to(x.sum(0), (3, 2)) +
    tf.broadcast_in_dim(x.max(0), (3, 2), [0]),
    "concrete_slices": lambda x, y, i, c: x.sum(0)[1:] + x.sum(0)[::-1][:2] + x.T[:2, 0],
    "identity": lambda x, y, i, c: x,
}


@pytest.mark.parametrize("name", sorted(OPS))
def test_every_op_traces_like_eager(rng, name):
    """Ops and operators on symbolic tensors give what the same ops give eagerly."""
    ctx = tf.Context()
    fn = OPS[name]
    syms = [tf.symbolic(("n", 3), d, context=ctx)
            for d in (np.float64, np.float64, np.int64, np.complex128)]
    f = tf.Function(syms, fn(*syms))
    for n in (3, 5, 1):
        vals = [rand(rng, (n, 3), np.float64), rand(rng, (n, 3), np.float64),
                rand(rng, (n, 3), np.int64, -7, 7), rand(rng, (n, 3), np.complex128)]
        eager = fn(*[tf.Tensor(v, context=ctx) for v in vals])
        got = f(*vals)
        assert not got.is_symbolic
        assert_close(got, eager.numpy())


def test_indexing_symbolic_tensors():
    ctx = tf.Context()
    x = tf.symbolic(("n", 4), context=ctx)
    keys = [np.s_[1:], np.s_[:-1], np.s_[2:-1, 1:3], np.s_[::-1, ::2], np.s_[0], np.s_[..., -1],
            np.s_[:, 3], np.s_[1, ::-1], np.s_[:, :], np.s_[...]]
    f = tf.Function([x], [x[k] for k in keys])
    for n in (4, 7):
        a = np.arange(n * 4.0).reshape(n, 4)
        for k, got in zip(keys, f(a)):
            assert_close(got, a[k])
    # finite differences along a symbolic axis
    d = tf.Function([x], x[1:] - x[:-1])
    assert_close(d(np.arange(12.0).reshape(3, 4)), np.full((2, 4), 4.0))
    # unsupported on a symbolic axis: said at once
    for k in (np.s_[-1], np.s_[1:3], np.s_[::2], np.s_[-2:]):
        with pytest.raises(IndexError, match="symbolic"):
            x[k]
    with pytest.raises(IndexError, match="out of bounds"):
        x[:, 4]
    # index and crop on a symbolic axis are checked at call time
    g = tf.Function([x], x[2])
    assert_close(g(np.ones((3, 4))), np.ones(4))
    with pytest.raises(tf.InvalidArgumentError, match="out of range"):
        g(np.ones((2, 4)))
    h = tf.Function([x], x[1:-1])
    assert h(np.ones((2, 4))).shape == (0, 4)
    with pytest.raises(tf.ShapeMismatchError):
        h(np.ones((1, 4)))


def test_extent_parameters_take_symbols():
    """reshape, broadcast_to / broadcast_in_dim, slice starts and limits and dynamic_slice sizes
    of a symbolic tensor take symbol names, plain symbolic extents and -k (the C convention)."""
    ctx = tf.Context()
    x = tf.symbolic(("n", 3), context=ctx)
    c = tf.symbolic(("n", 1), context=ctx)
    n = x.shape[0]
    outs = [x.reshape(3, "n"), tf.reshape(x, (3, n)), tf.broadcast_to(c, ["n", 4]),
            tf.broadcast_in_dim(c[:, 0], (2, "n"), [1]), tf.slice(x, [1, 0], ["n", 3]),
            tf.slice(x, [0, 1], [-n.symbol, 3]), tf.dynamic_slice(x, [0, 1], [n, 2])]
    assert [o.shape for o in outs] == [(3, "n"), (3, "n"), ("n", 4), (2, "n"), ("(n-1)", 3),
                                       ("n", 2), ("n", 2)]
    f = tf.Function([x, c], outs)
    for rows in (2, 5):
        a = np.arange(rows * 3.0).reshape(rows, 3)
        col = np.arange(rows * 1.0).reshape(rows, 1) + 0.5
        want = [a.reshape((3, rows), order="F"), a.reshape((3, rows), order="F"),
                np.broadcast_to(col, (rows, 4)), np.broadcast_to(col[:, 0], (2, rows)),
                a[1:], a[:, 1:], a[:, 1:]]
        for got, w in zip(f(a, col), want):
            assert_close(got, w)
    # a derived extent cannot be a parameter; concrete tensors keep refusing names
    with pytest.raises(ValueError, match="derived"):
        tf.concatenate([x, x]).reshape(3, tf.concatenate([x, x]).shape[0])
    with pytest.raises(TypeError, match="symbolic extent 'n'"):
        tf.broadcast_to(tf.Tensor([1.0, 2.0]), [2, "n"])
    with pytest.raises(ValueError, match="cannot infer -1"):
        x.reshape(-1, 3)


# ---- the cache -----------------------------------------------------------------------------


def test_cache_hits_misses_clear_and_limits():
    ctx = tf.Context()
    x = tf.symbolic(("n",), context=ctx)
    f = tf.Function([x], x * 2)
    assert ctx.cache_stats() == (0, 0, 0, 0)
    f(np.ones(3))
    f(np.ones(3))
    f(np.ones(4))
    f(np.ones(3))
    st = ctx.cache_stats()
    assert isinstance(st, tf.CacheStats)
    assert (st.hits, st.misses, st.entries) == (2, 2, 2) and st.bytes > 0
    ctx.clear_cache()
    st = ctx.cache_stats()
    assert (st.hits, st.misses, st.entries, st.bytes) == (2, 2, 0, 0)  # counters kept
    f(np.ones(3))
    assert ctx.cache_stats()[:3] == (2, 3, 1)
    ctx.set_cache_limits(1, None)
    f(np.ones(5))
    f(np.ones(6))
    assert ctx.cache_stats().entries == 1
    f(np.ones(6))
    assert ctx.cache_stats()[:2] == (3, 5)
    ctx.set_cache_limits(None, None)
    f(np.ones(7))
    assert ctx.cache_stats().entries == 2
    with pytest.raises(tf.InvalidArgumentError, match=r"Context\.set_cache_limits\(\)"):
        ctx.set_cache_limits(-1, 10)
    # caches are per context, and named
    assert tf.Context().cache_stats() == (0, 0, 0, 0)
    assert ctx.cache_stats("compiled") == ctx.cache_stats()
    with pytest.raises(ValueError, match="unknown cache 'bogus'"):
        ctx.cache_stats("bogus")


def test_identical_programs_share_cache_entries():
    ctx = tf.Context()
    def make():
        x = tf.symbolic(("n",), context=ctx)
        return tf.Function([x], tf.exp(x) + 1)

    f, g = make(), make()
    f(np.zeros(2))
    g(np.zeros(2))
    assert ctx.cache_stats()[:3] == (1, 1, 1)


# ---- errors --------------------------------------------------------------------------------


def test_two_symbols_in_one_elementwise_op_fail_when_tracing():
    ctx = tf.Context()
    x = tf.symbolic(("n", 3), context=ctx)
    y = tf.symbolic(("m", 3), context=ctx)
    n, m = ctx.symbol("n"), ctx.symbol("m")
    with pytest.raises(tf.ShapeMismatchError) as info:
        x + y
    msg = str(info.value)
    assert msg.startswith("tenferro.add():")
    assert re.search(rf"\bs{n}\b", msg) and re.search(rf"\bs{m}\b", msg), msg
    with pytest.raises(tf.ShapeMismatchError, match=rf"s{n}.*s{m}|s{m}.*s{n}"):
        x.T @ y  # [3,n] @ [m,3]: inner dims n and m
    with pytest.raises(tf.ShapeMismatchError, match=r"tenferro\.add\(\)"):
        x + np.ones((3, 4))  # 3 vs 4: provably false


def test_call_time_errors():
    ctx = tf.Context()
    x = tf.symbolic(("n",), context=ctx)
    y = tf.symbolic(("n", 2), np.int64, context=ctx)
    f = tf.Function([x, y], x + y.sum(1))
    assert_close(f(np.ones(3), np.ones((3, 2), np.int64)), np.full(3, 3.0))
    # the same symbol bound to two values
    with pytest.raises(tf.ShapeMismatchError, match=r"^Function\.__call__\(\): .*already bound to 3"):
        f(np.ones(3), np.ones((4, 2), np.int64))
    # a concrete extent or a rank that differs
    with pytest.raises(tf.ShapeMismatchError, match="dim 1"):
        f(np.ones(3), np.ones((3, 5), np.int64))
    with pytest.raises(tf.ShapeMismatchError, match="rank"):
        f(np.ones((3, 1)), np.ones((3, 2), np.int64))
    # wrong dtypes: arrays keep theirs
    with pytest.raises(tf.DtypeMismatchError, match="input 1 is F64"):
        f(np.ones(3), np.ones((3, 2)))
    with pytest.raises(tf.DtypeMismatchError, match="input 0 is F32"):
        f(np.ones(3, np.float32), np.ones((3, 2), np.int64))
    # wrong argument counts
    for args in [(), (np.ones(3),), (np.ones(3), np.ones((3, 2), np.int64), np.ones(3))]:
        with pytest.raises(tf.InvalidArgumentError, match="takes 2 inputs"):
            f(*args)
    # symbolic arguments and other contexts
    with pytest.raises(tf.InvalidArgumentError, match="symbolic"):
        f(x, np.ones((3, 2), np.int64))
    with pytest.raises(tf.InvalidArgumentError, match="different contexts"):
        f(tf.Tensor(np.ones(3)), np.ones((3, 2), np.int64))  # default context
    with pytest.raises(TypeError):
        f("abc", np.ones((3, 2), np.int64))
    assert ctx.cache_stats().entries == 1  # failed calls cache nothing


def test_symbol_against_constant_is_checked_at_each_call():
    ctx = tf.Context()
    x = tf.symbolic(("n",), context=ctx)
    f = tf.Function([x], x + np.arange(4.0))  # n == 4 is deferred, not an error now
    assert_close(f(np.ones(4)), np.arange(4.0) + 1)
    for bad in (5, 1):  # 1 would broadcast eagerly, but n is not proven to be 1
        with pytest.raises(tf.ShapeMismatchError, match=r"s1 = %d" % bad):
            f(np.ones(bad))


def test_numerical_errors_of_ops_surface_at_call():
    ctx = tf.Context()
    i = tf.symbolic(("n",), np.int64, context=ctx)
    f = tf.Function([i], tf.div_trunc(10, i))
    assert_close(f(np.array([3, -4])), np.array([3, -2]))
    with pytest.raises(tf.NumericalError):
        f(np.array([1, 0]))


def test_python_scalars_and_lists_take_the_input_dtype():
    ctx = tf.Context()
    x = tf.symbolic((), np.float32, context=ctx)
    v = tf.symbolic(("n",), np.complex64, context=ctx)
    i = tf.symbolic((), np.int32, context=ctx)
    f = tf.Function([x, v, i], [x + x, v * 2j, i * i])
    a, b, c = f(2, [1, 2.5, 1j], True)
    assert_close(a, np.float32(4))
    assert_close(b, np.array([2j, 5j, -2], np.complex64))  # a Python complex is weak
    assert_close(c, np.int32(1))
    with pytest.raises(tf.DtypeMismatchError):
        f(2.0, [1], 2.5)  # a float for an int input is not converted
    with pytest.raises(tf.DtypeMismatchError):
        f(np.float64(2.0), [1], 1)  # NumPy values keep their dtype


def test_creation_errors():
    ctx = tf.Context()
    x = tf.symbolic(("n",), context=ctx)
    with pytest.raises(tf.InvalidArgumentError, match="not a symbolic tensor"):
        tf.Function([tf.Tensor(np.ones(2), context=ctx)], x)
    with pytest.raises(tf.InvalidArgumentError, match="not a symbolic tensor"):
        tf.Function([x * 2], x)  # a traced value is not an input
    with pytest.raises(tf.InvalidArgumentError, match="not an input"):
        tf.Function([], x + 1)
    with pytest.raises(tf.InvalidArgumentError, match="n_outputs"):
        tf.Function([x], [])
    with pytest.raises(tf.InvalidArgumentError, match="different contexts"):
        tf.Function([x], tf.symbolic((2,)))
    with pytest.raises(TypeError, match="inputs\\[0\\]"):
        tf.Function([np.ones(2)], x)
    with pytest.raises(TypeError, match="outputs"):
        tf.Function([x], [x, "text"])


# ---- constants, outputs, trace --------------------------------------------------------------


def test_captured_numpy_constants():
    ctx = tf.Context()
    x = tf.symbolic(("n", 2), context=ctx)
    w = np.array([[1.0, 2.0], [3.0, 4.0]])
    c = np.array([[10.0, 20.0]])  # a row: [n,2] + [1,2]
    f = tf.Function([x], [x @ w + c, tf.maximum(x, 2.5), tf.gather(x, np.array([1]), 1)])
    w0, c0 = w.copy(), c.copy()
    w[:] = -1  # NumPy constants are copied when traced
    c[:] = -1
    for n in (3, 1):
        a = np.arange(2.0 * n).reshape(n, 2)
        p, q, g = f(a)
        assert_close(p, a @ w0 + c0)
        assert_close(q, np.maximum(a, 2.5))
        assert_close(g, a[:, [1]])


def test_multiple_and_constant_outputs():
    ctx = tf.Context()
    x = tf.symbolic(("n",), context=ctx)
    f = tf.Function([x], (x, x.sum(), np.array([1, 2]), 3.5))
    assert f.num_outputs == 4
    a, s, k, h = f(np.arange(3.0))
    assert_close(a, np.arange(3.0))
    assert_close(s, np.float64(3.0))
    assert_close(k, np.array([1, 2]))
    assert_close(h, np.float64(3.5))
    one = tf.Function([x], [x + 1])  # a list of one: a tuple of one
    r = one(np.zeros(2))
    assert isinstance(r, tuple) and len(r) == 1
    assert_close(r[0], np.ones(2))
    const = tf.Function([], np.eye(2))  # no inputs at all (default context)
    assert const.num_inputs == 0
    assert_close(const(), np.eye(2))


def test_trace_decorator(rng):
    ctx = tf.Context()
    @tf.jit(("n", "k"), ("k", "m"), dtype=[np.float64, np.float32], context=ctx)
    def layer(a, b):
        """A dense layer."""
        return tf.tanh(a @ b), (a @ b).sum()

    assert isinstance(layer, tf.Function)
    assert layer.__name__ == "layer" and layer.__doc__ == "A dense layer."
    assert layer.input_dtypes == (np.dtype(np.float64), np.dtype(np.float32))
    assert "layer(float64[n, k], float32[k, m]) -> tuple of 2" in repr(layer)
    for shape in [(2, 3, 4), (5, 1, 2)]:
        an = rand(rng, shape[:2], np.float64)
        bn = rand(rng, shape[1:], np.float32)
        t, s = layer(an, bn)
        want = an @ bn.astype(np.float64)
        assert_close(t, np.tanh(want))
        assert_close(s, want.sum())

    v = tf.symbolic(("n",), np.int64, context=ctx)

    @tf.jit(v, 3, context=ctx)
    def g(i, z):
        return i.sum() + z

    assert_close(g([1, 2, 3, 4], [0.5, 1.5, 2.5]), np.array([10.5, 11.5, 12.5]))
    with pytest.raises(TypeError, match="specs"):
        tf.jit(lambda a: a)
    with pytest.raises(ValueError, match="dtypes"):
        tf.jit((2,), dtype=[np.float64, np.float64])


def test_function_repr_and_context():
    ctx = tf.Context()
    x = tf.symbolic(("n", 2), np.int32, context=ctx)
    f = tf.Function([x], x)
    assert repr(f) == "<tenferro.Function Function(int32[n, 2]) -> Tensor>"
    assert f.context == ctx
    assert_close(f(np.ones((1, 2), np.int32)), np.ones((1, 2), np.int32))


def test_functions_release_their_handles():
    ctx = tf.Context()
    before = tf.debug_live_objects()
    x = tf.symbolic(("n",), context=ctx)
    f = tf.Function([x], [x * 2, x + 1])
    r = f(np.ones(2))
    assert tf.debug_live_objects() > before
    del x, f, r
    assert tf.debug_live_objects() == before
