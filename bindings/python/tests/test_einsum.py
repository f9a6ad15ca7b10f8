"""tf.einsum and tf.einsum_path against numpy.einsum on the same logical shapes: explicit and
implicit output, traces and diagonals, ellipsis (left-aligned when ranks differ: compared with
NumPy on explicitly padded operands), size-1 broadcasting, mixed dtypes, errors, paths and their
cache; gradients against PyTorch's torch.einsum and finite differences in every engine (eager,
traced programs, dataflow contexts); tensor-network smoke cases."""

import numpy as np
import pytest

import tenferro as tf
from tenferro import autograd as ag
from conftest import rand

# (subscripts, shapes): each case is compared with numpy.einsum as written.
CASES = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ij,jk", [(2, 3), (3, 4)]),
    ("ij,jk->ki", [(2, 3), (3, 4)]),
    ("ii->", [(4, 4)]),
    ("ii", [(4, 4)]),
    ("ii->i", [(4, 4)]),
    ("iij->j", [(3, 3, 5)]),
    ("iij->ji", [(3, 3, 5)]),
    ("iii->i", [(3, 3, 3)]),
    ("ij->", [(3, 4)]),
    ("ij->j", [(3, 4)]),
    ("ij", [(3, 4)]),
    ("ji", [(3, 4)]),
    ("ijk->kji", [(2, 3, 4)]),
    ("", [()]),
    (",->", [(), ()]),
    ("i,i", [(5,), (5,)]),
    ("i,j", [(3,), (4,)]),
    ("i,j->ji", [(3,), (4,)]),
    ("ij,j->i", [(3, 4), (4,)]),
    ("ij,ij->ij", [(3, 4), (3, 4)]),
    ("ij,ij->", [(3, 4), (3, 4)]),
    ("ij,kl->ijkl", [(2, 3), (3, 2)]),
    ("ijk,jil->kl", [(2, 3, 4), (3, 2, 5)]),
    ("ii,ij->j", [(3, 3), (3, 4)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
    ("ij,jk,kl->", [(2, 3), (3, 4), (4, 5)]),
    ("ab,bc,cd,de->ae", [(2, 6), (6, 3), (3, 7), (7, 2)]),
    ("ij,ij,ij->i", [(3, 4), (3, 4), (3, 4)]),
    ("ba,Ab", [(2, 3), (4, 2)]),
    ("Aa,aB->AB", [(2, 3), (3, 2)]),
    ("...ij,...jk", [(4, 2, 3), (4, 3, 2)]),
    ("...ij,...jk->...ik", [(4, 2, 3), (4, 3, 2)]),
    ("ij...,jk...->ik...", [(2, 3, 4, 5), (3, 2, 4, 5)]),
    ("i...->...", [(3, 4, 5)]),
    ("...->...", [(3, 4)]),
    ("...", [(3, 4)]),
    ("i...i->...", [(3, 4, 3)]),
    ("...ii->...i", [(2, 3, 3)]),
    (" ij , jk -> ik ", [(2, 3), (3, 4)]),
    # size-1 broadcasting of named and ellipsis dims
    ("ij,ij->ij", [(2, 1), (2, 3)]),
    ("ij,jk->ik", [(2, 1), (3, 4)]),
    ("i,i->", [(1,), (4,)]),
    ("ij...,jk...->ik...", [(2, 3, 1, 5), (3, 2, 4, 5)]),
    ("...i,...i->...", [(1, 3), (4, 3)]),
    # steps that sum nothing (broadcast multiplies when batched), in several output orders, and
    # extent-1 contractions
    ("bi,bj->bij", [(3, 4), (3, 5)]),
    ("bi,bj->jib", [(3, 4), (3, 5)]),
    ("bi,bj,bk->bijk", [(3, 4), (3, 5), (3, 2)]),
    ("ik,kj->ij", [(3, 1), (1, 4)]),
    ("bik,bkj->bij", [(3, 2, 1), (3, 1, 4)]),
    # steps without free dims (one inner product per batch element, operands read in place)
    ("ij,ji->", [(3, 4), (4, 3)]),
    ("bij,bji->b", [(4, 3, 2), (4, 2, 3)]),
    ("abp,bcq,cdp,daq->", [(3, 3, 2), (3, 3, 2), (3, 3, 2), (3, 3, 2)]),
]


def case_id(case):
    return case[0].replace(" ", "_") or "empty"


def arrays(rng, shapes, dtype=np.float64):
    return [rand(rng, s, dtype) for s in shapes]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_matches_numpy(case, rng):
    subscripts, shapes = case
    xs = arrays(rng, shapes)
    want = np.einsum(subscripts, *xs)
    got = tf.einsum(subscripts, *xs).numpy()
    assert got.shape == np.shape(want)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dtype", [np.float32, np.complex64, np.complex128, np.int32, np.int64],
                         ids=lambda d: np.dtype(d).name)
def test_every_dtype(dtype, rng):
    for subscripts, shapes in CASES[:30]:
        xs = arrays(rng, shapes, dtype)
        want = np.einsum(subscripts, *xs)
        got = tf.einsum(subscripts, *xs).numpy()
        assert got.dtype == want.dtype, subscripts
        tol = 1e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-10
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol, err_msg=subscripts)


def test_bool_is_any_of_products(rng):
    a, b = rand(rng, (3, 4), np.bool_), rand(rng, (4, 2), np.bool_)
    got = tf.einsum("ij,jk->ik", a, b).numpy()
    want = np.einsum("ij,jk->ik", a, b)
    assert got.dtype == np.bool_ and want.dtype == np.bool_
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("pair", [(np.int32, np.float64), (np.float32, np.float64),
                                  (np.int64, np.complex64), (np.float32, np.complex128),
                                  (np.bool_, np.int32), (np.int32, np.int64)],
                         ids=lambda p: f"{np.dtype(p[0]).name}-{np.dtype(p[1]).name}")
def test_mixed_dtypes_promote(pair, rng):
    a, b = rand(rng, (2, 3), pair[0]), rand(rng, (3, 4), pair[1])
    want = np.einsum("ij,jk->ik", a, b)
    got = tf.einsum("ij,jk->ik", a, b).numpy()
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-5)


def test_ellipsis_aligns_left(rng):
    """Ellipses of different lengths pair up from their first dim (the library's broadcasting
    rule); NumPy pairs them from the last, so compare with NumPy on padded operands."""
    a, b = rand(rng, (2, 3, 4, 5), np.float64), rand(rng, (3, 2, 4), np.float64)
    got = tf.einsum("ij...,jk...->ik...", a, b).numpy()
    want = np.einsum("ij...,jk...->ik...", a, b.reshape(3, 2, 4, 1))
    np.testing.assert_allclose(got, want, rtol=1e-12)
    # the same as tenferro's batched matmul, whose batch dims broadcast left-aligned too
    np.testing.assert_allclose(got, (tf.Tensor(a) @ tf.Tensor(b)).numpy(), rtol=1e-12)
    # [5,2] against [2]: left-aligned, 5 meets 2
    with pytest.raises(tf.ShapeMismatchError, match="ellipsis dim 0"):
        tf.einsum("...,...->...", np.ones((5, 2)), np.ones(2))


ERRORS = [
    ("ij", [(2, 3), (3, 4)], tf.InvalidArgumentError, 'have 1 input term but 2 operands'),
    ("ij,jk->ik->i", [(2, 3), (3, 4)], tf.InvalidArgumentError, 'more than one "->"'),
    ("i1,jk", [(2, 3), (3, 4)], tf.InvalidArgumentError, "invalid character '1'"),
    ("i.j,jk", [(2, 3), (3, 4)], tf.InvalidArgumentError, 'not part of "..."'),
    ("...i...,jk", [(2, 3), (3, 4)], tf.InvalidArgumentError, 'two "..."'),
    ("ij,jk->ii", [(2, 3), (3, 4)], tf.InvalidArgumentError, "output index 'i' appears twice"),
    ("ij,jk->iz", [(2, 3), (3, 4)], tf.InvalidArgumentError, "output index 'z' is in no input"),
    ("ij,jk->ik", [(2, 3), (4, 5)], tf.ShapeMismatchError,
     r'operand 1 \(term "jk", shape \[4,5\]\) gives index .j. the extent 4, but operand 0 gives '
     r'it 3'),
    ("ijk,jk", [(2, 3), (3, 4)], tf.InvalidArgumentError, "has rank 2 but its term names 3 dims"),
    ("ii", [(2, 3)], tf.ShapeMismatchError, "repeats index 'i'"),
    ("...i,...j->ij", [(2, 3), (2, 3)], tf.InvalidArgumentError, 'has no "..."'),
]


@pytest.mark.parametrize("case", ERRORS, ids=lambda c: c[0])
def test_errors_name_everything(case):
    subscripts, shapes, cls, pattern = case
    xs = [np.ones(s) for s in shapes]
    with pytest.raises(cls, match=pattern) as info:
        tf.einsum(subscripts, *xs)
    message = str(info.value)
    assert message.startswith("tenferro.einsum(): ")  # the C name as Python spells it
    assert f'"{subscripts}"' in message
    assert len(message.splitlines()) == 1
    with pytest.raises(tf.InvalidArgumentError, match="outside 1..64"):
        tf.einsum("")


def test_path_chain_and_numpy_agreement(rng):
    xs = arrays(rng, [(2, 3), (3, 40), (40, 5)])
    path, info = tf.einsum_path("ij,jk,kl->il", *xs)
    assert path == ["einsum_path", (1, 2), (0, 1)]
    assert info.flops == 2 * 3 * 40 * 5 + 2 * 2 * 3 * 5
    assert info.largest_intermediate == 15 and info.optimal
    np_path, _ = np.einsum_path("ij,jk,kl->il", *xs, optimize="optimal")
    assert path == np_path
    # numpy accepts our path
    np.testing.assert_allclose(np.einsum("ij,jk,kl->il", *xs, optimize=path),
                               tf.einsum("ij,jk,kl->il", *xs).numpy(), rtol=1e-12)
    one, info1 = tf.einsum_path("ii->i", np.ones((3, 3)))
    assert one == ["einsum_path"] and info1.flops == 0


def test_path_cache_statistics(rng):
    ctx = tf.Context()
    xs = [tf.tensor(x, context=ctx) for x in arrays(rng, [(2, 3), (3, 4)])]
    tf.einsum("ij,jk->ik", *xs)
    tf.einsum("ij,jk->ik", *xs)
    tf.einsum_path("ij,jk->ik", *xs)
    st = ctx.cache_stats("einsum")
    assert (st.hits, st.misses, st.entries) == (2, 1, 1) and st.bytes > 0
    ctx.clear_cache("einsum")
    assert ctx.cache_stats("einsum").entries == 0


def test_four_operand_chain_where_order_matters(rng):
    # (10x100)(100x5)(5x100)(100x2): right to left costs 4000 multiply-adds, left to right 12000
    shapes = [(10, 100), (100, 5), (5, 100), (100, 2)]
    xs = arrays(rng, shapes)
    path, info = tf.einsum_path("ij,jk,kl,lm->im", *xs)
    np_path, _ = np.einsum_path("ij,jk,kl,lm->im", *xs, optimize="optimal")
    assert path == np_path == ["einsum_path", (2, 3), (1, 2), (0, 1)]
    assert info.optimal and info.flops == 2 * 4000
    np.testing.assert_allclose(tf.einsum("ij,jk,kl,lm->im", *xs).numpy(),
                               np.einsum("ij,jk,kl,lm->im", *xs), rtol=1e-10)


def test_mps_transfer_matrix(rng):
    """Tensor-network smoke case: <psi|psi> of a 6-site MPS with bond 4 and physical 2, as the
    left environment pushed through the transfer matrices, and as one big einsum."""
    chi, d, n = 4, 2, 6
    sites = [rand(rng, (1 if k == 0 else chi, d, 1 if k == n - 1 else chi), np.complex128)
             for k in range(n)]
    env = np.ones((1, 1), np.complex128)
    env_tf = tf.Tensor(env)
    for a in sites:
        env = np.einsum("ac,asb,csd->bd", env, a, a.conj())
        env_tf = tf.einsum("ac,asb,csd->bd", env_tf, a, a.conj())
    np.testing.assert_allclose(env_tf.numpy(), env, rtol=1e-10)
    # all 12 tensors at once (greedy path beyond 10 operands)
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    terms, ops = [], []
    for k, a in enumerate(sites):
        terms.append(letters[3 * k] + letters[3 * k + 1] + letters[3 * k + 3])
        terms.append(letters[3 * k + 2] + letters[3 * k + 1] + letters[3 * k + 5])
        ops += [a, a.conj()]
    # bonds: ket k uses (3k, 3k+3), bra k uses (3k+2, 3k+5), physical 3k+1 shared
    subscripts = ",".join(terms) + "->"
    got = tf.einsum(subscripts, *ops)
    path, info = tf.einsum_path(subscripts, *ops)
    assert not info.optimal and len(path) == len(ops)
    want = np.einsum(subscripts, *ops, optimize="greedy")
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-10)
    np.testing.assert_allclose(got.numpy(), env.reshape(()), rtol=1e-10)


# ---- gradients --------------------------------------------------------------------------------

GRAD_CASES = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ii->", [(3, 3)]),
    ("iij->ji", [(3, 3, 2)]),
    ("ij,j->i", [(3, 4), (4,)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 2)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
    ("...ij,...jk->...ik", [(2, 3, 4), (2, 4, 2)]),
    ("ij,ij->ij", [(2, 1), (2, 3)]),
    ("bi,bj->bij", [(2, 3), (2, 4)]),
    ("abp,bcq,cdp,daq->", [(2, 3, 2), (3, 2, 2), (2, 3, 2), (3, 2, 2)]),
]
GRAD_DTYPES = [np.float64, np.complex128]


def weights(rng, shape, dtype):
    return rand(rng, shape, dtype)


@pytest.mark.parametrize("dtype", GRAD_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("case", GRAD_CASES, ids=case_id)
def test_eager_gradients_match_torch(case, dtype, rng):
    torch = pytest.importorskip("torch")
    subscripts, shapes = case
    xs = arrays(rng, shapes, dtype)
    w = weights(rng, np.einsum(subscripts, *xs).shape, dtype)
    ts = [tf.tensor(x).requires_grad_() for x in xs]
    loss = (tf.einsum(subscripts, *ts) * w).real.sum()
    loss.backward()
    tts = [torch.tensor(x, requires_grad=True) for x in xs]
    tloss = (torch.einsum(subscripts, *tts) * torch.tensor(w)).real.sum()
    tloss.backward()
    assert loss.item() == pytest.approx(tloss.item(), rel=1e-12)
    for t, tt in zip(ts, tts):
        np.testing.assert_allclose(t.grad.numpy(), tt.grad.numpy(), rtol=1e-11, atol=1e-12)


@pytest.mark.parametrize("dtype", GRAD_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("case", GRAD_CASES[:6], ids=case_id)
def test_program_gradients_match_eager_and_finite_differences(case, dtype, rng):
    subscripts, shapes = case
    xs = arrays(rng, shapes, dtype)
    w = weights(rng, np.einsum(subscripts, *xs).shape, dtype)
    syms = [tf.symbolic(s, dtype) for s in shapes]
    f = tf.Function(syms, (tf.einsum(subscripts, *syms) * w).real.sum())
    value = f(*xs).item()
    grads = f.grad()(*xs)
    # eager agreement
    ts = [tf.tensor(x).requires_grad_() for x in xs]
    eager_loss = (tf.einsum(subscripts, *ts) * w).real.sum()
    eager_grads = ag.vjp(eager_loss, ts)
    assert value == pytest.approx(eager_loss.item(), rel=1e-13)
    for g, e in zip(grads, eager_grads):
        np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-12, atol=1e-13)
    # central differences along a random direction (real and imaginary parts for complex)
    dirs = arrays(rng, shapes, dtype)
    h = 1e-6
    plus = f(*[x + h * d for x, d in zip(xs, dirs)]).item()
    minus = f(*[x - h * d for x, d in zip(xs, dirs)]).item()
    fd = (plus - minus) / (2 * h)
    # a complex input receives dL/dRe + i dL/dIm: the directional derivative is Re(conj(g) d)
    analytic = sum(np.real(np.vdot(g.numpy(), d)) for g, d in zip(grads, dirs))
    assert analytic == pytest.approx(fd, rel=1e-6, abs=1e-7)
    # forward mode agrees with reverse mode
    _, dy = tf.jvp(f, xs, dirs)
    assert dy.item() == pytest.approx(analytic, rel=1e-10, abs=1e-12)


@pytest.mark.parametrize("dtype", GRAD_DTYPES, ids=lambda d: np.dtype(d).name)
def test_eager_jvp_matches_vjp(dtype, rng):
    a, b = rand(rng, (3, 4), dtype), rand(rng, (4, 2), dtype)
    da, db = rand(rng, (3, 4), dtype), rand(rng, (4, 2), dtype)
    ta, tb = tf.tensor(a).requires_grad_(), tf.tensor(b).requires_grad_()
    y = tf.einsum("ij,jk->ik", ta, tb)
    dy = ag.jvp(y, [ta, tb], [da, db])
    want = np.einsum("ij,jk->ik", da, b) + np.einsum("ij,jk->ik", a, db)
    np.testing.assert_allclose(dy.numpy(), want, rtol=1e-12)


def test_dataflow_gradient_matches_eager(rng):
    subscripts = "ij,jk,kl->il"
    xs = arrays(rng, [(2, 3), (3, 4), (4, 2)])
    w = rand(rng, (2, 2), np.float64)
    results = []
    for ctx in (tf.Context(), tf.Context("dataflow", threads=2)):
        ts = [tf.tensor(x, context=ctx).requires_grad_() for x in xs]
        loss = (tf.einsum(subscripts, *ts) * tf.tensor(w, context=ctx)).sum()
        loss.backward()
        results.append([t.grad.numpy() for t in ts])
    for e, d in zip(*results):
        np.testing.assert_allclose(d, e, rtol=1e-13)


def test_traced_einsum_with_symbolic_extents(rng):
    a = tf.symbolic((2, 3, "b"))
    b = tf.symbolic((3, 4, "b"))
    f = tf.Function([a, b], tf.einsum("ij...,jk...->ik...", a, b))
    x, y = rand(rng, (2, 3, 5), np.float64), rand(rng, (3, 4, 5), np.float64)
    np.testing.assert_allclose(f(x, y).numpy(), np.einsum("ij...,jk...->ik...", x, y),
                               rtol=1e-12)


def test_traced_outer_product_with_symbolic_extents(rng):
    # a step summing nothing (a broadcast multiply) on symbolic extents, and its gradient
    a = tf.symbolic(("b", 3))
    b = tf.symbolic(("b", 4))
    f = tf.Function([a, b], tf.einsum("bi,bj->jib", a, b))
    x, y = rand(rng, (5, 3), np.float64), rand(rng, (5, 4), np.float64)
    np.testing.assert_allclose(f(x, y).numpy(), np.einsum("bi,bj->jib", x, y), rtol=1e-12)
    g = tf.Function([a, b], tf.einsum("bi,bj->jib", a, b).sum())
    gx, gy = g.grad()(x, y)
    np.testing.assert_allclose(gx.numpy(), np.broadcast_to(y.sum(1, keepdims=True), x.shape),
                               rtol=1e-12)
    np.testing.assert_allclose(gy.numpy(), np.broadcast_to(x.sum(1, keepdims=True), y.shape),
                               rtol=1e-12)


# ---- the companions: tensordot, outer, kron, trace ------------------------------------------

@pytest.mark.parametrize("shapes, axes", [
    (((2, 3, 4), (3, 4, 5)), 2),
    (((2, 3), (3, 4)), 1),
    (((2, 3), (4,)), 0),
    (((2, 3, 4), (4, 3, 2)), ([1, 2], [1, 0])),
    (((2, 3, 4), (4, 5)), ([-1], [0])),
    (((3, 4), (4, 3)), (1, 0)),
    (((3, 4), (4, 3)), np.int64(1)),
    (((3, 4), (4, 3)), (np.array([1]), [0])),
], ids=str)
def test_tensordot_matches_numpy(shapes, axes, rng):
    a, b = arrays(rng, shapes)
    np.testing.assert_allclose(tf.tensordot(a, b, axes).numpy(), np.tensordot(a, b, axes),
                               rtol=1e-13, atol=1e-14)


def test_tensordot_errors():
    a, b = np.ones((2, 3)), np.ones((4, 3))
    with pytest.raises(tf.ShapeMismatchError, match="axis 1 of a has extent 3 but axis 0 of b has 4"):
        tf.tensordot(a, b, ([1], [0]))
    with pytest.raises(ValueError, match="1 axes of a but 2 of b"):
        tf.tensordot(a, b, ([1], [0, 1]))


@pytest.mark.parametrize("shapes", [((3,), (4,)), ((2, 3), (4,)), ((2, 2), (3, 2)), ((), (3,))],
                         ids=str)
def test_outer_matches_numpy(shapes, rng):
    a, b = arrays(rng, shapes, np.complex128)
    np.testing.assert_allclose(tf.outer(a, b).numpy(), np.outer(a, b), rtol=1e-14)


@pytest.mark.parametrize("shapes", [((2, 3), (2, 2)), ((3,), (2,)), ((2, 2), (3,)), ((3,), (2, 2)),
                                    ((2, 1, 2), (1, 3, 2)), ((2, 2), ())], ids=str)
def test_kron_matches_numpy(shapes, rng):
    a, b = arrays(rng, shapes)
    np.testing.assert_allclose(tf.kron(a, b).numpy(), np.kron(a, b), rtol=1e-14)


def test_kron_builds_an_ising_hamiltonian():
    # H = -sum Z_i Z_{i+1} - g sum X_i on 3 sites, the way NumPy users write it.
    x, z, i2 = np.array([[0, 1], [1, 0.]]), np.diag([1, -1.]), np.eye(2)

    def chain(*ops, lib):
        out = ops[0]
        for o in ops[1:]:
            out = lib.kron(out, o)
        return out

    g = 0.7
    for lib in (np, tf):
        h = -(chain(z, z, i2, lib=lib) + chain(i2, z, z, lib=lib)) \
            - g * (chain(x, i2, i2, lib=lib) + chain(i2, x, i2, lib=lib) + chain(i2, i2, x, lib=lib))
        if lib is np:
            want = h
        else:
            np.testing.assert_allclose(h.numpy(), want, rtol=1e-15)


@pytest.mark.parametrize("shape", [(3, 3), (3, 5), (5, 3), (3, 4, 2)], ids=str)
@pytest.mark.parametrize("offset", [0, 1, -1, 2, -4, 7])
def test_trace_matches_numpy(shape, offset, rng):
    a = rand(rng, shape, np.float64)
    np.testing.assert_allclose(tf.trace(a, offset).numpy(), np.trace(a, offset), rtol=1e-13,
                               atol=1e-15)


def test_trace_of_integers_and_bools_is_int64():
    assert tf.trace(np.eye(3, dtype=np.int32)).dtype == np.int64
    assert tf.trace(np.eye(3, dtype=bool)).item() == 3


@pytest.mark.parametrize("dtype", GRAD_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", ["tensordot", "outer", "kron", "trace"])
def test_companion_gradients_match_torch(name, dtype, rng):
    torch = pytest.importorskip("torch")
    a, b = rand(rng, (3, 4), dtype), rand(rng, (4, 3), dtype)
    ours = {"tensordot": lambda x, y: tf.tensordot(x, y, 1), "outer": tf.outer,
            "kron": tf.kron, "trace": lambda x, y: tf.trace(x @ y)}[name]
    theirs = {"tensordot": lambda x, y: torch.tensordot(x, y, 1), "outer": torch.outer,
              "kron": torch.kron, "trace": lambda x, y: torch.trace(x @ y)}[name]
    if name == "outer":  # vectors: torch.outer takes rank 1 only
        a, b = a[:, 0], b[0]
    ta, tb = tf.tensor(a).requires_grad_(), tf.tensor(b).requires_grad_()
    y = ours(ta, tb)
    w = rand(rng, y.shape, dtype)
    (y * w).real.sum().backward()
    pa, pb = torch.tensor(a, requires_grad=True), torch.tensor(b, requires_grad=True)
    (theirs(pa, pb) * torch.tensor(w)).real.sum().backward()
    np.testing.assert_allclose(ta.grad.numpy(), pa.grad.numpy(), rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(tb.grad.numpy(), pb.grad.numpy(), rtol=1e-12, atol=1e-13)


def test_companions_in_a_program_and_a_dataflow_context(rng):
    a, b = rand(rng, (2, 3), np.float64), rand(rng, (3, 2), np.float64)
    sa, sb = tf.symbolic((2, 3)), tf.symbolic((3, 2))
    f = tf.Function([sa, sb], tf.kron(sa, sb).sum() + tf.trace(tf.tensordot(sa, sb, 1)))
    ga, gb = f.grad()(a, b)
    ctx = tf.Context("dataflow", threads=2)
    ta, tb = tf.tensor(a, context=ctx).requires_grad_(), tf.tensor(b, context=ctx).requires_grad_()
    (tf.kron(ta, tb).sum() + tf.trace(tf.tensordot(ta, tb, 1))).backward()
    # d/da: sum(b) + b^T on the diagonal contraction; d/db: sum(a) + a^T.
    np.testing.assert_allclose(ga.numpy(), b.sum() + b.T, rtol=1e-13)
    np.testing.assert_allclose(gb.numpy(), a.sum() + a.T, rtol=1e-13)
    np.testing.assert_allclose(ta.grad.numpy(), ga.numpy(), rtol=1e-13)
    np.testing.assert_allclose(tb.grad.numpy(), gb.numpy(), rtol=1e-13)
