"""tenferro.linalg from Python: forward results against NumPy for every float dtype, batched
inputs in tenferro's layout (batch dims after the matrix), errors, eager gradients, and a
cross-check of gradients of gauge-invariant losses against PyTorch 1.13."""

import numpy as np
import pytest

import tenferro as tf
from tenferro import autograd as ag

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]


def rand(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    if np.issubdtype(dtype, np.complexfloating):
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


def tol(dtype):
    return 1e-4 if dtype in (np.float32, np.complex64) else 1e-10


def batched(a):
    """NumPy's [B,M,N] as tenferro's [M,N,B]."""
    return np.moveaxis(a, 0, -1)


@pytest.mark.parametrize("dtype", DTYPES)
def test_forward_against_numpy(dtype):
    a = rand((3, 3), dtype, 1) + 3 * np.eye(3, dtype=dtype)
    b = rand((3, 2), dtype, 2)
    t = tol(dtype)
    np.testing.assert_allclose(tf.linalg.solve(a, b).numpy(), np.linalg.solve(a, b), rtol=t,
                               atol=t)
    np.testing.assert_allclose(tf.linalg.inv(a).numpy(), np.linalg.inv(a), rtol=t, atol=t)
    np.testing.assert_allclose(tf.linalg.det(a).numpy(), np.linalg.det(a), rtol=t)
    sign, logabs = tf.linalg.slogdet(a)
    s_np, l_np = np.linalg.slogdet(a)
    np.testing.assert_allclose(sign.numpy(), s_np, rtol=t)
    np.testing.assert_allclose(logabs.numpy(), l_np, rtol=t)
    h = a @ a.conj().T
    np.testing.assert_allclose(tf.linalg.cholesky(h).numpy(), np.linalg.cholesky(h), rtol=t,
                               atol=t * 10)
    w, v = tf.linalg.eigh(h)
    np.testing.assert_allclose(w.numpy(), np.linalg.eigvalsh(h), rtol=t, atol=t * 10)
    vn = v.numpy()
    np.testing.assert_allclose(vn @ np.diag(w.numpy()) @ vn.conj().T, h, rtol=t, atol=t * 100)
    q, r = tf.linalg.qr(rand((4, 3), dtype, 3))
    np.testing.assert_allclose(q.numpy() @ r.numpy(), rand((4, 3), dtype, 3), rtol=t, atol=t * 10)
    u, s, vh = tf.linalg.svd(rand((3, 5), dtype, 4))
    assert u.shape == (3, 3) and s.shape == (3,) and vh.shape == (3, 5)
    np.testing.assert_allclose(s.numpy(), np.linalg.svd(rand((3, 5), dtype, 4))[1], rtol=t)
    ew, ev = tf.linalg.eig(a)
    evn = ev.numpy()
    np.testing.assert_allclose(a @ evn, evn * ew.numpy(), rtol=t, atol=t * 100)


def test_batched_layout():
    a = rand((4, 3, 3), np.float64, 5) + 3 * np.eye(3)  # NumPy batch first
    b = rand((4, 3, 1), np.float64, 6)
    x = tf.linalg.solve(batched(a), batched(b))
    assert x.shape == (3, 1, 4)
    np.testing.assert_allclose(np.moveaxis(x.numpy(), -1, 0), np.linalg.solve(a, b), rtol=1e-12)
    np.testing.assert_allclose(tf.linalg.det(batched(a)).numpy(), np.linalg.det(a), rtol=1e-12)


def test_errors():
    with pytest.raises(tf.SingularError, match="batch 1"):
        tf.linalg.solve(batched(np.stack([np.eye(2), np.ones((2, 2))])), np.ones((2, 1)))
    with pytest.raises(tf.NumericalError, match=r"^tenferro\.linalg\.cholesky\(\)"):
        tf.linalg.cholesky(np.array([[1.0, 2.0], [2.0, 1.0]]))
    with pytest.raises(tf.ShapeMismatchError):
        tf.linalg.det(np.ones((2, 3)))
    with pytest.raises(tf.DtypeMismatchError):
        tf.linalg.inv(np.eye(2, dtype=np.int32))


def test_eager_gradients():
    a = tf.tensor(np.array([[4.0, 1.0], [2.0, 3.0]])).requires_grad_()
    tf.linalg.det(a).backward()
    np.testing.assert_allclose(a.grad.numpy(), [[3, -2], [-1, 4]], atol=1e-12)
    h = tf.tensor(np.array([[2.0, 1.0], [1.0, 2.0]])).requires_grad_()
    w, _ = tf.linalg.eigh(h)
    (g,) = ag.vjp(w.sum(), h)
    np.testing.assert_allclose(g.numpy(), np.eye(2), atol=1e-12)


def test_against_pytorch():
    torch = pytest.importorskip("torch", reason="python3-torch is not installed")
    x0 = rand((3, 3), np.complex128, 7) + 2 * np.eye(3)
    b0 = rand((3, 2), np.complex128, 8)
    m0 = rand((3, 3), np.float64, 9)

    def losses(lib, x, b, m):
        la = tf.linalg if lib is tf else torch.linalg
        absq = lambda z: (z.conj() * z).real  # noqa: E731
        herm = lambda z: z + z.conj().T  # noqa: E731
        out = {}
        out["solve"] = absq(la.solve(x, b)).sum()
        out["det"] = absq(la.det(x)).sum()
        w, v = la.eigh(herm(x))
        out["eigh"] = (w * w).sum() + (absq(v) * m).sum()
        out["cholesky"] = (absq(la.cholesky(herm(x @ x.conj().T))) * m).sum()
        q, r = la.qr(x)  # same LAPACK sign convention in both: Q and R compare directly
        out["qr"] = (q.real * m).sum() + (absq(r) * m).sum()
        u, s, vh = la.svd(x) if lib is tf else torch.linalg.svd(x, full_matrices=False)
        out["svd"] = s.sum() + (absq(u) * m).sum() + (absq(vh) * m).sum()
        return out

    names = ["solve", "det", "eigh", "cholesky", "qr", "svd"]
    for name in names:
        tx = torch.tensor(x0, requires_grad=True)
        tb = torch.tensor(b0, requires_grad=True)
        losses(torch, tx, tb, torch.tensor(m0))[name].backward()
        x = tf.tensor(x0).requires_grad_()
        b = tf.tensor(b0).requires_grad_()
        losses(tf, x, b, tf.tensor(m0))[name].backward()
        # the same gradient convention as PyTorch (docs/design/ad-contract.md)
        np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-8, atol=1e-10,
                                   err_msg=name)
        if name == "solve":
            np.testing.assert_allclose(b.grad.numpy(), tb.grad.numpy(), rtol=1e-8, atol=1e-10)


# ---- the rest of the kernel basis and the composites (forward) ----------------------------


@pytest.mark.parametrize("dtype", DTYPES)
def test_basis_options_against_numpy(dtype):
    t = tol(dtype)
    a = rand((3, 3), dtype, 11) + 3 * np.eye(3, dtype=dtype)
    b = rand((3, 2), dtype, 12)
    for upper in (False, True):
        tri = np.triu(a) if upper else np.tril(a)
        for trans, op in (("N", lambda m: m), ("T", lambda m: m.T), ("C", lambda m: m.conj().T)):
            x = tf.linalg.solve_triangular(a, b, upper=upper, trans=trans).numpy()
            np.testing.assert_allclose(op(tri) @ x, b, rtol=t, atol=t * 10)
        xr = tf.linalg.solve_triangular(a, b.T, upper=upper, left=False).numpy()
        np.testing.assert_allclose(xr @ tri, b.T, rtol=t, atol=t * 10)
    h = a @ a.conj().T
    u = tf.linalg.cholesky(h, upper=True).numpy()
    np.testing.assert_allclose(u.conj().T @ u, h, rtol=t, atol=t * 100)
    assert np.all(np.tril(u, -1) == 0)
    np.testing.assert_allclose(tf.linalg.eigvalsh(h, "U").numpy(), np.linalg.eigvalsh(h),
                               rtol=t, atol=t * 100)
    np.testing.assert_allclose(tf.linalg.svdvals(a).numpy(), np.linalg.svd(a)[1], rtol=t)
    np.testing.assert_allclose(np.sort_complex(tf.linalg.eigvals(a).numpy()),
                               np.sort_complex(np.linalg.eigvals(a)), rtol=t, atol=t * 10)
    tall = rand((5, 3), dtype, 13)
    q, r = tf.linalg.qr(tall, "complete", positive_diagonal=True)
    assert q.shape == (5, 5) and r.shape == (5, 3)
    d = np.diag(r.numpy())
    assert np.all(d.real >= 0) and np.allclose(d.imag, 0, atol=t)
    np.testing.assert_allclose(q.numpy() @ r.numpy(), tall, rtol=t, atol=t * 10)
    uu, s, vh = tf.linalg.svd(tall, full_matrices=True)
    assert uu.shape == (5, 5) and vh.shape == (3, 3)
    p, l, uf = tf.linalg.lu(tall)
    np.testing.assert_allclose(p.numpy() @ l.numpy() @ uf.numpy(), tall, rtol=t, atol=t * 10)
    lu_, piv, info = tf.linalg.lu_factor(a)
    assert piv.numpy().dtype == np.int32 and info.numpy() == 0
    for trans, op in (("N", lambda m: m), ("T", lambda m: m.T), ("C", lambda m: m.conj().T)):
        x = tf.linalg.lu_solve(lu_, piv, b, trans=trans).numpy()
        np.testing.assert_allclose(op(a) @ x, b, rtol=t, atol=t * 10)


@pytest.mark.parametrize("dtype", DTYPES)
def test_composites_against_numpy(dtype):
    t = tol(dtype)
    a = rand((4, 4), dtype, 21) + 2 * np.eye(4, dtype=dtype)
    w = rand((4, 3), dtype, 22)
    np.testing.assert_allclose(tf.linalg.pinv(w).numpy(), np.linalg.pinv(w), rtol=t * 10,
                               atol=t * 10)
    h = a + a.conj().T
    np.testing.assert_allclose(tf.linalg.pinv(h, hermitian=True).numpy(), np.linalg.pinv(h),
                               rtol=t * 10, atol=t * 10)
    rhs = rand((4, 2), dtype, 23)
    np.testing.assert_allclose(tf.linalg.lstsq(w, rhs).solution.numpy(),
                               np.linalg.lstsq(w, rhs, rcond=None)[0], rtol=t * 10, atol=t * 10)
    for ord in ("fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf):
        np.testing.assert_allclose(tf.linalg.matrix_norm(w, ord).numpy(),
                                   np.linalg.norm(w, ord), rtol=t * 10, err_msg=str(ord))
    for ord in (1, 2, 3.5, np.inf, -np.inf, 0):
        np.testing.assert_allclose(tf.linalg.vector_norm(w, ord).numpy(),
                                   np.linalg.norm(w.ravel(), ord), rtol=t * 10, err_msg=str(ord))
    np.testing.assert_allclose(tf.linalg.norm(w, axis=0).numpy(), np.linalg.norm(w, axis=0),
                               rtol=t * 10)
    for p in (None, 1, 2, -2, np.inf, "fro"):
        np.testing.assert_allclose(tf.linalg.cond(a, p).numpy(), np.linalg.cond(a, p),
                                   rtol=t * 100, err_msg=str(p))
    for n in (0, 1, 3, 6, -2):
        np.testing.assert_allclose(tf.linalg.matrix_power(a, n).numpy(),
                                   np.linalg.matrix_power(a, n), rtol=t * 100, atol=t * 100)
    ms = [rand((2, 5), dtype, 24), rand((5, 3), dtype, 25), rand((3, 7), dtype, 26),
          rand((7,), dtype, 27)]
    np.testing.assert_allclose(tf.linalg.multi_dot(ms).numpy(), np.linalg.multi_dot(ms),
                               rtol=t * 10, atol=t * 10)
    x = rand((4,), dtype, 28)
    np.testing.assert_allclose(tf.linalg.vander(x, 3).numpy(), np.vander(x, 3, increasing=True),
                               rtol=t)
    np.testing.assert_allclose(tf.linalg.vecdot(w, w).numpy(), np.sum(w.conj() * w, axis=0),
                               rtol=t)


def test_tensor_inverse_and_solve():
    a = rand((2, 3, 6), np.float64, 31) + 0  # [2,3] x [6]: flattened 6 x 6
    a = a.reshape(6, 6, order="F") + 3 * np.eye(6)
    a = a.reshape(2, 3, 6, order="F")
    ainv = tf.linalg.tensorinv(a, 2).numpy()
    assert ainv.shape == (6, 2, 3)
    # contracting ainv's last two dims with a's first two gives the identity on a's last dim
    np.testing.assert_allclose(np.tensordot(ainv, a, axes=([1, 2], [0, 1])), np.eye(6),
                               atol=1e-12)
    b = rand((2, 3), np.float64, 32)
    x = tf.linalg.tensorsolve(a, b).numpy()
    np.testing.assert_allclose(np.tensordot(a, x, axes=([2], [0])), b, atol=1e-12)


def test_matrix_exp_against_pytorch():
    torch = pytest.importorskip("torch", reason="python3-torch is not installed")
    for scale in (0.1, 1.0, 30.0):  # 30: several squarings
        a = rand((4, 4, 2), np.complex128, 41) * scale
        ours = tf.linalg.matrix_exp(a).numpy()
        ref = torch.linalg.matrix_exp(torch.tensor(np.moveaxis(a, -1, 0))).numpy()
        np.testing.assert_allclose(ours, np.moveaxis(ref, 0, -1), rtol=1e-10,
                                   atol=1e-10 * np.abs(ref).max())


def test_options_errors():
    with pytest.raises(ValueError):
        tf.linalg.solve_triangular(np.eye(2), np.ones((2, 1)), trans="X")
    with pytest.raises(tf.InvalidArgumentError, match="derivative_eps"):
        tf.linalg.svd(np.eye(2), derivative_eps=-1.0)
    with pytest.raises(tf.InvalidArgumentError, match="at least 2"):
        tf.linalg.multi_dot([np.eye(2)])


# ---- traced programs ------------------------------------------------------------------------


def test_traced_with_symbolic_sizes():
    a = tf.symbolic(("n", "n"))
    b = tf.symbolic(("n", 1))
    f = tf.Function([a, b], tf.linalg.solve(a, b))
    g = tf.Function([a], tf.linalg.det(a)).grad(0)
    for n in (2, 5):
        av = rand((n, n), np.float64, n) + n * np.eye(n)
        bv = rand((n, 1), np.float64, n + 1)
        np.testing.assert_allclose(f(av, bv).numpy(), np.linalg.solve(av, bv), rtol=1e-12)
        # d det / dA = det(A) A^-T
        np.testing.assert_allclose(g(av).numpy(), np.linalg.det(av) * np.linalg.inv(av).T,
                                   rtol=1e-10)
    w, v = tf.linalg.eigh(a)
    h = tf.Function([a], (w * w).sum()).hvp(0)
    sym = rand((4, 4), np.float64, 9)
    sym = sym + sym.T
    direction = np.eye(4)
    # d^2/dt^2 of sum(w(A + t I)^2) is 2 * trace(I) along I: the Hessian-vector product is 2 I
    np.testing.assert_allclose(h(sym, direction).numpy(), 2 * np.eye(4), atol=1e-10)


def test_lu_solve_broadcasts_and_promotes():
    a = rand((3, 3, 2), np.float64, 51) + 3 * np.eye(3)[:, :, None]
    lu_, piv, _ = tf.linalg.lu_factor(a)
    b = rand((3, 1), np.complex128, 52)  # no batch dims, complex: broadcast and promoted
    x = tf.linalg.lu_solve(lu_, piv, b).numpy()
    assert x.shape == (3, 1, 2) and x.dtype == np.complex128
    for k in range(2):
        np.testing.assert_allclose(a[:, :, k] @ x[:, :, k], b, rtol=1e-12, atol=1e-12)

