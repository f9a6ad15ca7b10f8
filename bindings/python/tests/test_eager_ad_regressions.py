"""Eager derivative requests that used to be refused while the traced engine answered them: every
reproducer of that report as a named test, with PyTorch 1.13 computing the same derivative in the
same process. Also: eager messages name Python functions and the user's shapes, and derivative
programs are shared exactly by shapes that take the same shape decisions."""

import numpy as np
import pytest

import tenferro as tf
from tenferro import autograd as ag

torch = pytest.importorskip("torch", reason="python3-torch is not installed")

RNG = np.random.default_rng(7)


def data(shape, dtype=np.float64, shift=0.0):
    a = RNG.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * RNG.standard_normal(shape)
    a = a.astype(dtype)
    if shift:
        for i in range(min(shape[0], shape[1])):
            a[i, i] += shift
    return a


def both(f, x0, *constants):
    """The gradient of the scalar f(x, *constants) at x0 by tenferro's backward and by PyTorch."""
    x = tf.Tensor(x0).requires_grad_()
    f(tf, x, *[tf.Tensor(c) for c in constants]).backward()
    tx = torch.tensor(x0, requires_grad=True)
    f(torch, tx, *[torch.tensor(c) for c in constants]).backward()
    return x.grad.numpy(), tx.grad.numpy()


def close(a, b, tol=1e-8):
    np.testing.assert_allclose(a, b, rtol=tol, atol=tol)


def test_qr_of_a_tall_matrix():
    close(*both(lambda m, x: m.sum(m.linalg.qr(x)[1]), data((5, 3), shift=2)))


def test_lu_factor_of_a_tall_matrix():
    close(*both(lambda m, x: m.sum(m.linalg.lu_factor(x)[0]), data((5, 3), shift=2)))


def test_lu_of_a_wide_matrix_third_output():
    close(*both(lambda m, x: m.sum(m.linalg.lu(x)[2]), data((3, 5), shift=2)))


def test_pinv_of_a_tall_matrix():
    close(*both(lambda m, x: m.sum(m.linalg.pinv(x)), data((5, 3))))


def test_lstsq_of_a_tall_matrix():
    def f(m, x, b):
        sol = m.linalg.lstsq(x, b)
        return m.sum(sol.solution)
    close(*both(f, data((5, 3)), data((5, 2))))


def test_weighted_svdvals_of_a_tall_matrix():
    close(*both(lambda m, x, w: m.sum(m.linalg.svdvals(x) * w), data((5, 3)),
                np.array([1.0, 2.0, 3.0])))


def test_vjp_of_svdvals_of_a_wide_matrix():
    y0 = data((3, 5))
    y = tf.Tensor(y0).requires_grad_()
    (g,) = ag.vjp(tf.linalg.svdvals(y), y, tf.Tensor(np.ones(3)))
    ty = torch.tensor(y0, requires_grad=True)
    (tg,) = torch.autograd.grad(torch.linalg.svdvals(ty), ty, torch.ones(3))
    close(g.numpy(), tg.numpy())


def test_tensorinv_of_a_rank_3_tensor():
    x0 = (data((6, 6), shift=3)).reshape((2, 3, 6), order="F")
    close(*both(lambda m, x: m.sum(m.linalg.tensorinv(x, ind=2)), x0))


def test_batched_matmul_with_broadcasting_both_tracked():
    a0, b0 = data((3, 4, 2)), data((4, 5))
    a, b = tf.Tensor(a0).requires_grad_(), tf.Tensor(b0).requires_grad_()
    tf.sum(a @ b).backward()
    # tenferro's batch dims come after the matrix dims; PyTorch's before them
    ta = torch.tensor(np.moveaxis(a0, 2, 0), requires_grad=True)
    tb = torch.tensor(b0, requires_grad=True)
    torch.sum(ta @ tb).backward()
    close(a.grad.numpy(), np.moveaxis(ta.grad.numpy(), 0, 2))
    close(b.grad.numpy(), tb.grad.numpy())


def test_vjp_of_pad():
    x = tf.Tensor(data((3,))).requires_grad_()
    (g,) = ag.vjp(tf.pad(x, [1], [0]), x, tf.Tensor(np.array([10.0, 1, 2, 3])))
    np.testing.assert_array_equal(g.numpy(), [1, 2, 3])


@pytest.mark.parametrize("order", ["untracked first", "tracked first"])
def test_operand_order_through_reshape(order):
    ones = np.ones((6, 4))

    def f(m, x, c):
        r = m.reshape(x, (6, 4)) if m is tf else x.reshape(4, 6).T  # column-major reshape
        return m.sum(c * r if order == "untracked first" else r * c)
    close(*both(f, data((2, 3, 4)), ones))


def test_untracked_operand_first_in_concatenate():
    x0 = data((2, 3, 4))
    x = tf.Tensor(x0).requires_grad_()
    cat = tf.concatenate([tf.Tensor(np.ones((6, 4))), tf.reshape(x, (6, 4))], 0)
    tf.sum(cat * cat).backward()
    close(x.grad.numpy(), 2 * x0)


def test_untracked_operand_first_in_batched_matmul():
    m0, x0 = data((3, 3, 2)), data((2, 3))
    x = tf.Tensor(x0).requires_grad_()
    tf.sum(tf.Tensor(m0) @ tf.reshape(x, (3, 1, 2))).backward()
    tx = torch.tensor(x0, requires_grad=True)
    r = tx.T.reshape(2, 3).T.reshape(3, 1, 2)  # the column-major reshape of [2,3] to [3,1,2]
    torch.sum(torch.tensor(np.moveaxis(m0, 2, 0)) @ r.permute(2, 0, 1)).backward()
    close(x.grad.numpy(), tx.grad.numpy())


def reverse_over_reverse(f, x0):
    """vjp(vjp(f(x), x), x, ones) in tenferro and the same with torch.autograd.grad."""
    x = tf.Tensor(x0).requires_grad_()
    (g,) = ag.vjp(f(tf, x), x)
    (h,) = ag.vjp(g, x, tf.Tensor(np.ones(x0.shape, x0.dtype)))
    tx = torch.tensor(x0, requires_grad=True)
    (tg,) = torch.autograd.grad(f(torch, tx), tx, create_graph=True)
    (th,) = torch.autograd.grad(tg, tx, torch.ones(x0.shape, dtype=tx.dtype))
    return h.numpy(), th.numpy()


def test_reverse_over_reverse_complex_matrix_norm():
    close(*reverse_over_reverse(lambda m, x: m.linalg.matrix_norm(x, 2),
                                data((4, 4), np.complex128)), 1e-7)


def test_reverse_over_reverse_complex_cond():
    close(*reverse_over_reverse(lambda m, x: m.linalg.cond(x), data((4, 4), np.complex128,
                                                                    shift=2)), 1e-7)


def test_reverse_over_reverse_matrix_exp():
    w = data((3, 3))
    close(*reverse_over_reverse(lambda m, x: m.sum((tf.Tensor(w) if m is tf else torch.tensor(w))
                                                   * m.linalg.matrix_exp(x)), data((3, 3)) * 0.5))


def test_derivative_programs_are_shared_by_shape_decisions():
    ctx = tf.Context()

    def qr_backward(shape):
        x = tf.Tensor(data(shape, shift=2), context=ctx).requires_grad_()
        tf.sum(tf.linalg.qr(x)[1]).backward()
        return ctx.cache_stats("derivative").entries

    tall = qr_backward((5, 3))
    assert qr_backward((7, 4)) == tall  # tall again: one derivative program
    assert qr_backward((3, 5)) == tall + 1  # wide: its own
    assert qr_backward((2, 6)) == tall + 1


def test_eager_messages_name_python_functions_and_user_shapes():
    x = tf.Tensor(data((5, 3))).requires_grad_()
    q, _ = tf.linalg.qr(x, mode="complete")
    with pytest.raises(tf.NotDifferentiableError) as info:
        tf.sum(q).backward()
    msg = str(info.value)
    assert msg.startswith("Tensor.backward(): the derivative of tenferro.linalg.qr(): ")
    assert "[5,3]" in msg and "s1" not in msg and "tfe_" not in msg
    y = x * x
    with pytest.raises(tf.InvalidArgumentError, match=r"use Tensor\.detach\(\)"):
        y.requires_grad_()
    with pytest.raises(tf.ShapeMismatchError) as info:
        tf.linalg.solve(tf.Tensor(np.ones((3, 3))), tf.Tensor(np.ones((2, 1))))
    msg = str(info.value)
    assert msg.startswith("tenferro.linalg.solve(): ")
    assert "lu_factor_solve" not in msg and "(rows)" not in msg and "(C" not in msg
    with pytest.raises(tf.DtypeMismatchError, match="an I64 tensor"):
        tf.Tensor(np.arange(3)).requires_grad_()


DATAFLOW_CASES = {
    "qr of a tall matrix": (lambda x: tf.sum(tf.linalg.qr(x)[1]), (5, 3)),
    "lu of a wide matrix, third output": (lambda x: tf.sum(tf.linalg.lu(x)[2]), (3, 5)),
    "pinv of a tall matrix": (lambda x: tf.sum(tf.linalg.pinv(x)), (5, 3)),
    "weighted svdvals of a wide matrix": (
        lambda x: tf.sum(tf.linalg.svdvals(x) * tf.Tensor(np.array([1.0, 2.0, 3.0]),
                                                          context=x.context)), (3, 5)),
    "det at a singular matrix": (lambda x: tf.linalg.det(x), None),
}


@pytest.mark.parametrize("name", sorted(DATAFLOW_CASES))
def test_dataflow_gradients_equal_eager(name):
    f, shape = DATAFLOW_CASES[name]
    x0 = (np.array([[2.0, 4, 6], [1, 2, 3], [1, 3, 5]]) if shape is None
          else data(shape, shift=2))
    eager = tf.Tensor(x0).requires_grad_()
    f(eager).backward()
    ctx = tf.Context("dataflow")
    x = tf.Tensor(x0, context=ctx).requires_grad_()
    f(x).backward()
    close(x.grad.numpy(), eager.grad.numpy(), 1e-12)
