"""The NumPy-shaped corners of tenferro.linalg: named-tuple results, lstsq's four results,
matrix_rank, logdet, cholesky_solve, polar and the hint about batch dims."""

import numpy as np
import pytest

import tenferro as tf


def test_factorisations_are_named_tuples(rng):
    a = rng.standard_normal((4, 4))
    h = a + a.T
    r = tf.linalg.eigh(h)
    np.testing.assert_allclose(r.eigenvalues.numpy(), np.linalg.eigh(h)[0])
    w, v = r  # still unpacks
    assert w is r.eigenvalues and v is r.eigenvectors
    q = tf.linalg.qr(a)
    np.testing.assert_allclose((q.Q @ q.R).numpy(), a, atol=1e-12)
    s = tf.linalg.svd(a)
    np.testing.assert_allclose(s.S.numpy(), np.linalg.svd(a)[1])
    sd = tf.linalg.slogdet(a)
    np.testing.assert_allclose(sd.logabsdet.numpy(), np.linalg.slogdet(a)[1])
    np.testing.assert_allclose(tf.linalg.eig(a).eigenvalues.numpy().real.sum(), np.trace(a))


@pytest.mark.parametrize("shape,rank_def", [((6, 3), False), ((3, 5), False), ((6, 3), True)],
                         ids=str)
def test_lstsq_four_results(rng, shape, rank_def):
    a = rng.standard_normal(shape)
    if rank_def:
        a[:, 2] = a[:, 0] + a[:, 1]
    b = rng.standard_normal((shape[0], 2))
    got = tf.linalg.lstsq(a, b)
    want = np.linalg.lstsq(a, b, rcond=None)
    np.testing.assert_allclose(got.solution.numpy(), want[0], atol=1e-10)
    assert got.residuals.shape == want[1].shape
    np.testing.assert_allclose(got.residuals.numpy(), want[1], rtol=1e-10)
    assert got.rank.item() == want[2] and got.rank.dtype == np.int64
    np.testing.assert_allclose(got.singular_values.numpy(), want[3], rtol=1e-12)


def test_matrix_rank(rng):
    a = rng.standard_normal((5, 4))
    a[:, 3] = a[:, 0] - a[:, 2]
    assert tf.linalg.matrix_rank(a).item() == np.linalg.matrix_rank(a)
    assert tf.linalg.matrix_rank(a, tol=1e3).item() == np.linalg.matrix_rank(a, tol=1e3)
    batch = np.stack([a, rng.standard_normal((5, 4))], axis=-1)  # [M, N, batch]
    np.testing.assert_array_equal(tf.linalg.matrix_rank(batch).numpy(),
                                  [np.linalg.matrix_rank(batch[..., i]) for i in range(2)])


def test_logdet(rng):
    a = rng.standard_normal((4, 4))
    spd = a @ a.T + 4 * np.eye(4)
    np.testing.assert_allclose(tf.linalg.logdet(spd).numpy(), np.log(np.linalg.det(spd)))
    neg = spd.copy()
    neg[0] *= -1
    assert np.isnan(tf.linalg.logdet(neg).item())
    z = a + 1j * rng.standard_normal((4, 4))
    np.testing.assert_allclose(np.exp(tf.linalg.logdet(z).item()), np.linalg.det(z))
    x = tf.Tensor(spd).requires_grad_()
    tf.linalg.logdet(x).backward()
    np.testing.assert_allclose(x.grad.numpy(), np.linalg.inv(spd).T, rtol=1e-10)


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_solve(rng, upper):
    a = rng.standard_normal((4, 4)) + 1j * rng.standard_normal((4, 4))
    spd = a @ a.conj().T + 4 * np.eye(4)
    b = rng.standard_normal((4, 2))
    f = tf.linalg.cholesky(spd, upper=upper)
    x = tf.linalg.cholesky_solve(b, f, upper=upper)
    np.testing.assert_allclose(x.numpy(), np.linalg.solve(spd, b), atol=1e-12)


def test_batch_dims_hint():
    a = np.ones((2, 2, 4))  # [M, N, batch=4]
    b = np.ones((2, 1, 2))  # batch 2: does not broadcast with 4
    with pytest.raises(tf.ShapeMismatchError,
                       match=r"solve.*batch dims \[4\] and \[2\] do not broadcast.*"
                             r"come after the two matrix dims"):
        tf.linalg.solve(a, b)


@pytest.mark.parametrize("shape", [(4, 4), (6, 3), (3, 5), (4, 3, 2)], ids=str)
@pytest.mark.parametrize("complex_", [False, True], ids=["real", "complex"])
def test_polar_against_numpy_svd(rng, shape, complex_):
    a = rng.standard_normal(shape)
    if complex_:
        a = a + 1j * rng.standard_normal(shape)
    got = tf.linalg.polar(a)
    u, p = got  # a named tuple of the C output names
    assert got.u is u and got.p is p
    m, n = shape[0], shape[1]
    for i in range(shape[2] if len(shape) == 3 else 1):
        ai = a[..., i] if len(shape) == 3 else a
        ui = u.numpy()[..., i] if len(shape) == 3 else u.numpy()
        pi = p.numpy()[..., i] if len(shape) == 3 else p.numpy()
        w, s, vh = np.linalg.svd(ai, full_matrices=False)
        np.testing.assert_allclose(ui, w @ vh, atol=1e-12)
        np.testing.assert_allclose(pi, vh.conj().T @ np.diag(s) @ vh, atol=1e-12)
        np.testing.assert_allclose(ui @ pi, ai, atol=1e-12)
        np.testing.assert_allclose(pi, pi.conj().T, atol=1e-12)
        gram = ui.conj().T @ ui if m >= n else ui @ ui.conj().T
        np.testing.assert_allclose(gram, np.eye(min(m, n)), atol=1e-12)


def test_polar_gradient_against_finite_differences(rng):
    x = rng.standard_normal((4, 3))
    c_u, c_p = rng.standard_normal((4, 3)), rng.standard_normal((3, 3))

    def f(x):
        w, s, vh = np.linalg.svd(x, full_matrices=False)
        return ((w @ vh) * c_u).sum() + ((vh.T @ np.diag(s) @ vh) * c_p).sum()

    a = tf.tensor(x).requires_grad_()
    u, p = tf.linalg.polar(a)
    ((u * c_u).sum() + (p * c_p).sum()).backward()
    fd = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[idx] = 1e-6
        fd[idx] = (f(x + e) - f(x - e)) / 2e-6
    np.testing.assert_allclose(a.grad.numpy(), fd, atol=1e-6)
