"""tf.linalg.svd with max_rank / rtol / atol (the truncated SVD) and tf.linalg.qr(pivoting=True)
against NumPy, SciPy and PyTorch: values, derivatives (PyTorch's autograd of the full SVD sliced,
and central finite differences), traced and dataflow runs, bad input."""

import numpy as np
import pytest
import scipy.linalg as sl

import tenferro as tf

torch = pytest.importorskip("torch")


def rand(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


SHAPES = [(4, 4), (6, 4), (4, 6)]


def svd_loss(lib, u, s, vh, w_us, w_s):
    """Invariant under the phase gauge of the singular vectors: |U Vh|^2, S and |U|^2."""
    uv = u @ vh
    return (abs(uv) ** 2 * w_us).sum() + (s * w_s).sum() + (abs(u) ** 2).sum() * 0.5


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=lambda d: np.dtype(d).name)
def test_truncated_values_match_numpy(shape, dtype):
    a = rand(shape, dtype, 1)
    u, s, vh = tf.linalg.svd(a, max_rank=2)
    nu, ns, nvh = np.linalg.svd(a, full_matrices=False)
    np.testing.assert_allclose(s.numpy(), ns[:2], rtol=1e-12)
    np.testing.assert_allclose(u.numpy() @ np.diag(s.numpy()) @ vh.numpy(),
                               nu[:, :2] @ np.diag(ns[:2]) @ nvh[:2], atol=1e-12)
    # the relative cutoff keeps s > rtol * s_max, the absolute one s > atol
    rtol = (ns[1] + ns[2]) / 2 / ns[0]
    assert tf.linalg.svd(a, rtol=rtol).S.numpy().shape == (2,)
    assert tf.linalg.svd(a, atol=(ns[2] + ns[3]) / 2).S.numpy().shape == (3,)
    assert tf.linalg.svd(a, max_rank=1, atol=(ns[2] + ns[3]) / 2).S.numpy().shape == (1,)


def test_batch_keeps_one_rank_with_zero_padding():
    a = np.zeros((3, 3, 2))
    a[:, :, 0] = np.diag([5.0, 3.0, 1.0])
    a[:, :, 1] = np.diag([5.0, 0.5, 0.25])
    u, s, vh = tf.linalg.svd(a, rtol=0.5)
    np.testing.assert_array_equal(s.numpy(), [[5.0, 5.0], [3.0, 0.0]])
    assert np.all(u.numpy()[:, 1, 1] == 0) and np.all(vh.numpy()[1, :, 1] == 0)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=lambda d: np.dtype(d).name)
def test_truncated_gradient_matches_torch(shape, dtype):
    a0 = rand(shape, dtype, 2)
    w_us = rand(shape, np.float64, 3)
    w_s = np.array([1.0, -2.0])
    ta = torch.tensor(a0, requires_grad=True)
    tu, ts, tvh = torch.linalg.svd(ta, full_matrices=False)
    svd_loss(torch, tu[:, :2], ts[:2], tvh[:2], torch.tensor(w_us), torch.tensor(w_s)).backward()
    a = tf.tensor(a0).requires_grad_()
    u, s, vh = tf.linalg.svd(a, max_rank=2)
    svd_loss(tf, u, s, vh, tf.tensor(w_us), tf.tensor(w_s)).backward()
    np.testing.assert_allclose(a.grad.numpy(), ta.grad.numpy(), rtol=1e-9, atol=1e-11)


def numpy_loss(a, w_us, w_s, r):
    u, s, vh = np.linalg.svd(a, full_matrices=False)
    return svd_loss(np, u[:, :r], s[:r], vh[:r], w_us, w_s)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_truncated_gradient_matches_finite_differences(shape):
    a0 = rand(shape, np.float64, 4)
    w_us, w_s = rand(shape, np.float64, 5), np.array([0.5, 1.5])
    a = tf.tensor(a0).requires_grad_()
    u, s, vh = tf.linalg.svd(a, rtol=0.0, max_rank=2)
    svd_loss(tf, u, s, vh, tf.tensor(w_us), tf.tensor(w_s)).backward()
    h, fd = 1e-6, np.zeros(shape)
    for idx in np.ndindex(*shape):
        e = np.zeros(shape)
        e[idx] = h
        fd[idx] = (numpy_loss(a0 + e, w_us, w_s, 2) - numpy_loss(a0 - e, w_us, w_s, 2)) / (2 * h)
    np.testing.assert_allclose(a.grad.numpy(), fd, rtol=1e-6, atol=1e-7)


def test_truncated_gradient_finite_with_zero_discarded_values():
    # rank 2 tall matrix truncated to its rank: the discarded singular value is exactly zero
    b, c = rand((5, 2), np.float64, 6), rand((2, 3), np.float64, 7)
    a = tf.tensor(b @ c).requires_grad_()
    u, s, vh = tf.linalg.svd(a, atol=1e-10)
    assert s.numpy().shape == (2,)
    ((u @ vh) ** 2).sum().backward()
    assert np.all(np.isfinite(a.grad.numpy()))


def test_traced_and_dataflow_agree_with_eager():
    a0 = rand((5, 4), np.float64, 8)

    @tf.jit((5, 4))
    def f(a):
        u, s, vh = tf.linalg.svd(a, max_rank=3)
        q, r, p = tf.linalg.qr(a, pivoting=True)
        return s, abs(u @ vh), r

    s, uv, r = f(a0)
    eu, es, evh = tf.linalg.svd(a0, max_rank=3)
    np.testing.assert_allclose(s.numpy(), es.numpy(), rtol=1e-12)
    np.testing.assert_allclose(uv.numpy(), abs(eu.numpy() @ evh.numpy()), atol=1e-12)
    np.testing.assert_allclose(r.numpy(), tf.linalg.qr(a0, pivoting=True).R.numpy(), atol=1e-12)
    pool = tf.Context("dataflow", threads=2)
    x = tf.tensor(a0, context=pool).requires_grad_()
    u, s, vh = tf.linalg.svd(x, max_rank=2)
    ((u @ vh) ** 2).sum().backward()
    y = tf.tensor(a0).requires_grad_()
    u, s, vh = tf.linalg.svd(y, max_rank=2)
    ((u @ vh) ** 2).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), y.grad.numpy(), rtol=1e-12, atol=1e-13)


@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4)], ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_pivoted_qr_matches_scipy(shape, dtype, mode):
    a = rand(shape, dtype, 9)
    q, r, p = tf.linalg.qr(a, mode=mode, pivoting=True)
    sq, sr, sp = sl.qr(a, mode="economic" if mode == "reduced" else "full", pivoting=True)
    assert p.numpy().dtype == np.int64
    np.testing.assert_array_equal(p.numpy(), sp)
    np.testing.assert_allclose(q.numpy() @ r.numpy(), a[:, sp], atol=1e-12)
    # the same Householder factorisation: equal up to rounding
    np.testing.assert_allclose(abs(r.numpy()), abs(sr), atol=1e-12)


def test_pivoted_qr_reveals_rank_and_batches():
    b, c = rand((6, 2), np.float64, 10), rand((2, 5), np.float64, 11)
    q, r, p = tf.linalg.qr(b @ c, pivoting=True)
    d = abs(np.diag(r.numpy()))
    assert d[1] > 1e-3 and d[2] < 1e-12
    batch = np.stack([rand((4, 3), np.float64, s) for s in (12, 13)], axis=2)
    q, r, p = tf.linalg.qr(batch, pivoting=True)
    for k in range(2):
        assert list(p.numpy()[:, k]) == list(sl.qr(batch[:, :, k], pivoting=True)[2])


@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=lambda d: np.dtype(d).name)
def test_pivoted_qr_gradient_matches_torch_at_the_fixed_order(dtype):
    a0 = rand((5, 4), dtype, 14)
    w = rand((5, 4), np.float64, 15)
    a = tf.tensor(a0).requires_grad_()
    q, r, p = tf.linalg.qr(a, pivoting=True)
    ((abs(q @ r) ** 2) * tf.tensor(w)).sum().backward()
    perm = p.numpy()
    ta = torch.tensor(a0, requires_grad=True)
    tq, tr = torch.linalg.qr(ta[:, perm])
    ((abs(tq @ tr) ** 2) * torch.tensor(w)).sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), ta.grad.numpy(), rtol=1e-10, atol=1e-12)
    a = tf.tensor(a0).requires_grad_()
    q, r, p = tf.linalg.qr(a, pivoting=True)
    ((abs(r) ** 2) * tf.tensor(w[:4])).sum().backward()
    ta = torch.tensor(a0, requires_grad=True)
    tq, tr = torch.linalg.qr(ta[:, perm])
    ((abs(tr) ** 2) * torch.tensor(w[:4])).sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), ta.grad.numpy(), rtol=1e-10, atol=1e-12)


def test_bad_input():
    a = rand((3, 3), np.float64, 16)
    with pytest.raises(ValueError, match="max_rank"):
        tf.linalg.svd(a, max_rank=-1)
    with pytest.raises(ValueError, match="full_matrices"):
        tf.linalg.svd(a, full_matrices=True, max_rank=2)
    with pytest.raises(ValueError, match="rtol"):
        tf.linalg.svd(a, rtol=-0.5)
    with pytest.raises(ValueError, match="atol"):
        tf.linalg.svd(a, atol=float("nan"))
    with pytest.raises(tf.DtypeMismatchError, match="svd.*I64"):
        tf.linalg.svd(np.ones((3, 3), np.int64), max_rank=1)
    with pytest.raises(tf.DtypeMismatchError, match="qr.*I32"):
        tf.linalg.qr(np.ones((3, 3), np.int32), pivoting=True)
    with pytest.raises(tf.ShapeMismatchError, match=r"qr.*\[3\]"):
        tf.linalg.qr(np.ones(3), pivoting=True)
    with pytest.raises(ValueError, match="positive_diagonal"):
        tf.linalg.qr(a, pivoting=True, positive_diagonal=True)


def test_cutoff_pads_with_zeros_where_values_are_unknown():
    # traced functions and dataflow contexts fix the shape before the values exist: the rank is
    # min(max_rank, K) and the dropped triplets are zeros; U diag(S) Vh is the same truncation
    a0 = np.diag([5.0, 3.0, 1.0, 0.5])
    eager = tf.linalg.svd(a0, max_rank=3, rtol=0.5)
    assert eager.S.numpy().shape == (2,)

    @tf.jit((4, 4))
    def f(a):
        return tuple(tf.linalg.svd(a, max_rank=3, rtol=0.5))

    u, s, vh = f(a0)
    np.testing.assert_array_equal(s.numpy(), [5.0, 3.0, 0.0])
    assert np.all(u.numpy()[:, 2] == 0) and np.all(vh.numpy()[2] == 0)
    pool = tf.Context("dataflow", threads=2)
    fu, fs, fvh = tf.linalg.svd(tf.tensor(a0, context=pool), max_rank=3, rtol=0.5)
    np.testing.assert_array_equal(fs.numpy(), [5.0, 3.0, 0.0])
    recon = eager.U.numpy() @ np.diag(eager.S.numpy()) @ eager.Vh.numpy()
    np.testing.assert_allclose(fu.numpy() @ np.diag(fs.numpy()) @ fvh.numpy(), recon, atol=1e-14)


def test_batched_cutoff_gradient_matches_finite_differences():
    # matrix 0 keeps two triplets, matrix 1 one (its second is zero padding): the gradient of
    # each matrix's own truncation, with finite derivatives through the padding
    rng = np.random.default_rng(17)
    base = [np.diag([4.0, 2.0, 1.0]), np.diag([4.0, 0.5, 0.2])]
    rot = [np.linalg.qr(rng.standard_normal((4, 4)))[0][:, :3] for _ in range(2)]
    a0 = np.stack([rot[k] @ base[k] for k in range(2)], axis=2)  # [4, 3, 2]
    w = rng.standard_normal((4, 3, 2))

    def numpy_loss(a):
        total = 0.0
        for k in range(2):
            u, s, vh = np.linalg.svd(a[:, :, k], full_matrices=False)
            r = int(np.sum(s > 0.3 * s[0]))
            total += np.sum(w[:, :, k] * (u[:, :r] @ vh[:r])) + np.sum(s[:r])
        return total

    a = tf.tensor(a0).requires_grad_()
    u, s, vh = tf.linalg.svd(a, rtol=0.3)
    assert s.numpy().shape == (2, 2) and s.numpy()[1, 1] == 0
    uv = tf.einsum("ikb,kjb->ijb", u, vh)
    ((uv * tf.tensor(w)).sum() + s.sum()).backward()
    h, fd = 1e-6, np.zeros(a0.shape)
    for idx in np.ndindex(*a0.shape):
        e = np.zeros(a0.shape)
        e[idx] = h
        fd[idx] = (numpy_loss(a0 + e) - numpy_loss(a0 - e)) / (2 * h)
    np.testing.assert_allclose(a.grad.numpy(), fd, rtol=1e-6, atol=1e-7)
