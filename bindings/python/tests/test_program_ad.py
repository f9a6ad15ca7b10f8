"""Program AD from Python: Function.jvp / vjp / grad / hvp, output_is_zero, and the convenience
functions tf.jvp / vjp / grad / hvp / value_and_grad.

Checked against the closed forms of docs/design/ad-contract.md (data lists there are column-major:
arrays are built with order='F'), against PyTorch's autograd (whose complex convention is ours:
a complex input receives dL/dRe + i dL/dIm) and against finite differences. The autouse leak
fixture of conftest.py checks every test."""

import numpy as np
import pytest

import tenferro as tf
from tenferro import tenferro_c as _c
from conftest import assert_close, rand

MODES = ["forward_over_reverse", "reverse_over_reverse"]


def colmajor(data, shape):
    return np.reshape(np.asarray(data, dtype=np.float64), shape, order="F")


def sum_sq():
    x = tf.symbolic(3)
    return tf.Function([x], (x * x).sum())


# ---- the published oracles -----------------------------------------------------------------


def test_sum_of_squares_oracle():
    f = sum_sq()
    x = [1.0, 2.0, 3.0]
    assert f(x).item() == 14.0
    # grad: a tuple for wrt=None, a Tensor for an int
    g = f.grad()
    (gx,) = g(x)
    assert_close(gx, np.array([2.0, 4.0, 6.0]))
    assert_close(f.grad(0)(x), np.array([2.0, 4.0, 6.0]))
    assert_close(tf.grad(f, 0)(np.array(x)), np.array([2.0, 4.0, 6.0]))
    # jvp along [0.1, 1, -2]
    y, dy = tf.jvp(f, [x], [[0.1, 1.0, -2.0]])
    assert y.item() == 14.0
    assert dy.item() == pytest.approx(-7.8, abs=1e-14)
    y, dy = f.jvp()(x, [0.1, 1.0, -2.0])
    assert dy.item() == pytest.approx(-7.8, abs=1e-14)
    # vjp with the cotangent 1 (a Python scalar takes the output's dtype)
    y, (gx,) = tf.vjp(f, [x], 1.0)
    assert y.item() == 14.0
    assert_close(gx, np.array([2.0, 4.0, 6.0]))
    y, gx = tf.vjp(f, (x,), 0.5, wrt=0)
    assert_close(gx, np.array([1.0, 2.0, 3.0]))
    # value_and_grad: one run of the VJP program
    vg = tf.value_and_grad(f)
    v, (gx,) = vg(x)
    assert v.item() == 14.0
    assert_close(gx, np.array([2.0, 4.0, 6.0]))
    v, gx = tf.value_and_grad(f, 0)(tf.Tensor(x))
    assert_close(gx, np.array([2.0, 4.0, 6.0]))
    assert "value_and_grad" in repr(vg)


def test_matmul_oracle():
    a_sym = tf.symbolic((2, 3))
    b_sym = tf.symbolic((3, 2))
    f = tf.Function([a_sym, b_sym], a_sym @ b_sym)
    a = colmajor([1, 2, 3, 4, 5, 6], (2, 3))
    b = colmajor([0.5, -1, 2, 1.5, -0.25, 3], (3, 2))
    assert_close(f(a, b), a @ b)
    # VJP w.r.t. A
    cot = colmajor([1, -0.5, 0.25, 2], (2, 2))
    c, ga = tf.vjp(f, [a, b], cot, wrt=0)
    assert_close(c, a @ b)
    assert_close(ga, colmajor([0.875, 2.75, -1.0625, 0.0, 2.75, 5.0], (2, 3)))
    # the same through the VJP Function, with both gradients
    vf = f.vjp()
    assert vf.num_inputs == 3 and vf.num_outputs == 3
    c, ga, gb = vf(a, b, cot)
    assert_close(ga, colmajor([0.875, 2.75, -1.0625, 0.0, 2.75, 5.0], (2, 3)))
    assert_close(gb, a.T @ cot)
    # JVP w.r.t. A
    ta = colmajor([1, -0.5, 0.25, 0, 2, -1], (2, 3))
    c, dc = tf.jvp(f, [a, b], ta, wrt=0)
    assert_close(dc, colmajor([4.25, -2.25, 7.4375, -3.75], (2, 2)))
    # JVP w.r.t. both: linear in the tangents
    tb = colmajor([0.5, 0.25, -1, 2, 1, 0], (3, 2))
    _, dc = tf.jvp(f, [a, b], [ta, tb])
    assert_close(dc, ta @ b + a @ tb)


@pytest.mark.parametrize("mode", MODES)
def test_hvp_oracles(mode):
    # x^3 at 2.5: f'' = 6x = 15
    x = tf.symbolic(())
    cube = tf.Function([x], x * x * x)
    assert cube.hvp(0, mode)(2.5, 1.0).item() == pytest.approx(15.0, rel=1e-14)
    (h,) = tf.hvp(cube, [2.5], [1.0], mode=mode)
    assert h.item() == pytest.approx(15.0, rel=1e-14)
    # x^T A x with A = [2, 0.5, 1.5, 3] (column-major): H = A + A^T
    a = colmajor([2, 0.5, 1.5, 3], (2, 2))
    v = tf.symbolic(2)
    col = tf.reshape(v, (2, 1))
    quad = tf.Function([v], (col.mT @ tf.Tensor(a) @ col).sum())
    xv = np.array([1.0, -1.0])
    assert quad(xv).item() == pytest.approx(xv @ a @ xv)
    hv = tf.hvp(quad, [[1.0, -1.0]], [0.5, 2.0], wrt=0, mode=mode)
    assert_close(hv, np.array([6.0, 13.0]))
    (hv,) = quad.hvp(mode=mode)([1.0, -1.0], [0.5, 2.0])
    assert_close(hv, np.array([6.0, 13.0]))


def test_complex_gradients():
    z_sym = tf.symbolic(3, np.complex128)
    z = np.array([1 + 2j, -0.5 + 0.25j, 3 - 1j])
    # grad(sum |z|^2) = 2z, written two ways
    abs_sq = tf.Function([z_sym], (tf.abs(z_sym) * tf.abs(z_sym)).sum())
    assert_close(abs_sq.grad(0)(z), 2 * z)
    zz = tf.Function([z_sym], (z_sym * z_sym.conj()).real.sum())
    assert_close(zz.grad(0)(z), 2 * z)
    # grad(Re sum exp z) = conj(exp z); a complex output differentiates its real part
    re_exp = tf.Function([z_sym], tf.exp(z_sym).sum().real)
    assert_close(re_exp.grad(0)(z), np.conj(np.exp(z)))
    cexp = tf.Function([z_sym], tf.exp(z_sym).sum())
    assert cexp.output_dtypes == (np.dtype(np.complex128),)
    assert_close(cexp.grad(0)(z), np.conj(np.exp(z)))
    # the VJP with cotangent 1j differentiates L = Re(conj(1j) y) = Im(y)
    _, gz = tf.vjp(cexp, [z], 1j, wrt=0)
    assert_close(gz, 1j * np.conj(np.exp(z)))  # L = Im(sum exp z)
    # a real cotangent of the same precision is cast up (as eager seeds are)
    for seed in (np.float64(2.0), np.array(2.0), tf.Tensor(2.0)):
        _, gz = tf.vjp(cexp, [z], seed, wrt=0)
        assert_close(gz, 2 * np.conj(np.exp(z)))
    with pytest.raises(tf.DtypeMismatchError):  # the Function itself takes the exact dtype
        cexp.vjp(0)(z, np.float64(2.0))


def test_real_input_of_complex_computation_gets_real_gradient():
    x_sym = tf.symbolic(3)
    z_sym = tf.symbolic(3, np.complex128)
    f = tf.Function([x_sym, z_sym], (x_sym * z_sym * z_sym).sum().real)
    x = np.array([0.5, -1.0, 2.0])
    z = np.array([1 + 2j, -0.5 + 0.25j, 3 - 1j])
    gx, gz = f.grad()(x, z)
    assert gx.dtype == np.float64 and gz.dtype == np.complex128
    assert_close(gx, np.real(z * z))
    assert_close(gz, np.conj(2 * x * z))
    # forward mode: a real tangent for the real input
    y, dy = tf.jvp(f, [x, z], [np.ones(3), np.zeros(3, complex)], wrt=[0, 1])
    assert dy.item() == pytest.approx(np.sum(np.real(z * z)))


def test_complex_jvp_is_real_linear(rng):
    """Non-holomorphic f(z) = sum(|z|^2 z): the JVP equals central finite differences along a
    complex direction (dy = a dz + b conj(dz)), and <vjp(ybar), dz> = <ybar, jvp(dz)>."""
    z_sym = tf.symbolic(4, np.complex128)
    f = tf.Function([z_sym], z_sym * z_sym.conj() * z_sym)
    z = rand(rng, 4, np.complex128)
    dz = rand(rng, 4, np.complex128)
    _, dy = tf.jvp(f, [z], [dz])
    h = 1e-6
    fd = (f(z + h * dz).numpy() - f(z - h * dz).numpy()) / (2 * h)
    np.testing.assert_allclose(dy.numpy(), fd, rtol=1e-7, atol=1e-8)
    ybar = rand(rng, 4, np.complex128)
    _, gz = tf.vjp(f, [z], ybar, wrt=0)
    lhs = np.real(np.vdot(gz.numpy(), dz))
    rhs = np.real(np.vdot(ybar, dy.numpy()))
    assert lhs == pytest.approx(rhs, rel=1e-12)


@pytest.mark.parametrize("mode", MODES)
def test_complex_hvp_matches_finite_differences_of_the_gradient(mode, rng):
    z_sym = tf.symbolic(3, np.complex128)
    f = tf.Function([z_sym], (tf.abs(z_sym * z_sym) * tf.abs(z_sym)).sum() + tf.exp(z_sym).sum())
    z, v = rand(rng, 3, np.complex128, -1, 1), rand(rng, 3, np.complex128)
    g = f.grad(0)
    h = 1e-6
    fd = (g(z + h * v).numpy() - g(z - h * v).numpy()) / (2 * h)
    hv = f.hvp(0, mode)(z, v)
    assert hv.dtype == np.complex128
    np.testing.assert_allclose(hv.numpy(), fd, rtol=1e-7, atol=1e-7)


# ---- against PyTorch -------------------------------------------------------------------------

# name: (input dtypes, input shapes, tenferro function, torch function, positive inputs)
TORCH_CASES = {
    "tanh_matmul": ((np.float64, np.float64), ((3, 4), (4, 2)),
                    lambda a, b: tf.tanh(a @ b).sum(),
                    lambda a, b: (a @ b).tanh().sum(), False),
    "exp_sin_div": ((np.float64, np.float64), ((5,), (5,)),
                    lambda x, y: (tf.exp(x) * tf.sin(y) / (1.0 + x * x)).sum(),
                    lambda x, y: (x.exp() * y.sin() / (1.0 + x * x)).sum(), False),
    "sqrt_log_pow": ((np.float64, np.float64), ((2, 3), (2, 3)),
                     lambda x, y: (tf.sqrt(x) * tf.log(y) + x ** y).sum(),
                     lambda x, y: (x.sqrt() * y.log() + x ** y).sum(), True),
    "prod_mean_f32": ((np.float32, np.float32), ((4,), (4,)),
                      lambda x, y: x.prod() + (x * y).mean(),
                      lambda x, y: x.prod() + (x * y).mean(), False),
    "complex_abs_exp": ((np.complex128, np.complex128), ((3,), (3,)),
                        lambda z, w: tf.abs(tf.exp(z) * w).sum(),
                        lambda z, w: (z.exp() * w).abs().sum(), False),
    "complex_real_mixed": ((np.float64, np.complex128), ((3,), (3,)),
                           lambda x, z: (tf.sin(z) * x * z.conj()).real.sum(),
                           lambda x, z: (z.sin() * x * z.conj()).real.sum(), False),
    "complex_matmul_imag": ((np.complex64, np.complex64), ((2, 3), (3, 2)),
                            lambda a, b: (a @ b).imag.sum() + tf.abs(a).sum(),
                            lambda a, b: (a @ b).imag.sum() + a.abs().sum(), False),
}


@pytest.mark.parametrize("name", sorted(TORCH_CASES))
def test_grad_matches_torch(name, rng):
    torch = pytest.importorskip("torch")
    dtypes, shapes, tf_fn, torch_fn, positive = TORCH_CASES[name]
    low, high = (0.5, 2.0) if positive else (-2.0, 2.0)
    values = [rand(rng, s, d, low, high) for s, d in zip(shapes, dtypes)]
    syms = [tf.symbolic(s, d) for s, d in zip(shapes, dtypes)]
    f = tf.Function(syms, tf_fn(*syms))
    value, grads = tf.value_and_grad(f)(*values)
    leaves = [torch.tensor(v, requires_grad=True) for v in values]
    loss = torch_fn(*leaves)
    want = torch.autograd.grad(loss, leaves)
    assert value.item() == pytest.approx(loss.item(), rel=1e-5 if dtypes[0] in
                                         (np.float32, np.complex64) else 1e-12)
    for g, w, v in zip(grads, want, values):
        assert g.dtype == v.dtype
        assert_close(g, w.numpy(), dtype=v.dtype, rtol=1e-4 if v.dtype in
                     (np.float32, np.complex64) else 1e-11)


def test_jvp_and_hvp_match_torch(rng):
    torch = pytest.importorskip("torch")
    from torch.autograd.functional import hvp as t_hvp, jvp as t_jvp
    a_sym, b_sym = tf.symbolic((3, 4)), tf.symbolic((4, 2))
    prod = a_sym @ b_sym
    f = tf.Function([a_sym, b_sym], [tf.tanh(prod), tf.sin(a_sym).sum(1)])
    loss = tf.Function([a_sym, b_sym], (tf.tanh(prod) * prod).sum())
    a, b = rand(rng, (3, 4), np.float64, -1, 1), rand(rng, (4, 2), np.float64, -1, 1)
    ta, tb = rand(rng, (3, 4), np.float64), rand(rng, (4, 2), np.float64)
    (y, s), (dy, ds) = tf.jvp(f, [a, b], [ta, tb])
    targs = (torch.tensor(a), torch.tensor(b))
    (ty, ts), (tdy, tds) = t_jvp(lambda p, q: ((p @ q).tanh(), p.sin().sum(1)), targs,
                                 (torch.tensor(ta), torch.tensor(tb)))
    assert_close(dy, tdy.numpy(), rtol=1e-11)
    assert_close(ds, tds.numpy(), rtol=1e-11)
    _, (th_a, th_b) = t_hvp(lambda p, q: ((p @ q).tanh() * (p @ q)).sum(), targs,
                            (torch.tensor(ta), torch.tensor(tb)))
    for mode in MODES:
        ha, hb = tf.hvp(loss, [a, b], [ta, tb], mode=mode)
        assert_close(ha, th_a.numpy(), rtol=1e-10, atol=1e-12)
        assert_close(hb, th_b.numpy(), rtol=1e-10, atol=1e-12)


# ---- composition ---------------------------------------------------------------------------


def test_third_derivative_by_nested_grad():
    x = tf.symbolic(())
    f = tf.Function([x], x * tf.sin(x))
    d1 = tf.grad(f, 0)
    d2 = tf.grad(d1, 0)
    d3 = d2.grad(0)
    for v in (0.3, -1.7, 2.5):
        assert d1(v).item() == pytest.approx(np.sin(v) + v * np.cos(v), rel=1e-13)
        assert d2(v).item() == pytest.approx(2 * np.cos(v) - v * np.sin(v), rel=1e-13)
        assert d3(v).item() == pytest.approx(-3 * np.sin(v) - v * np.cos(v), rel=1e-13)
    assert d3.input_dtypes == (np.dtype(np.float64),) and d3.input_shapes == ((),)
    assert d3.__name__ == "grad(grad(grad(Function, wrt=0), wrt=0), wrt=0)"


def test_jvp_of_grad_is_the_hvp(rng):
    x = tf.symbolic(("n",))
    f = tf.Function([x], (tf.exp(x) * x).sum() * x.sum())
    v, d = rand(rng, 5, np.float64, -1, 1), rand(rng, 5, np.float64)
    _, hv = tf.jvp(f.grad(0), [v], [d])
    for mode in MODES:
        assert_close(f.hvp(0, mode)(v, d), hv.numpy(), rtol=1e-12)
    # the VJP Function is a Function too: its own JVP
    g = f.vjp(0).jvp(0)
    assert g.num_inputs == 3 and g.num_outputs == 4


def test_symbolic_shapes_carry_over():
    x = tf.symbolic(("n",), np.float32)
    f = tf.Function([x], (x * x).sum())
    g = f.grad(0)
    assert g.input_shapes == (("n",),) and g.output_shapes == (("n",),)
    assert g.output_dtypes == (np.dtype(np.float32),)
    for n in (2, 5):
        r = g(list(range(n)))  # Python lists take the input's dtype (float32)
        assert_close(r, 2 * np.arange(n, dtype=np.float32))
    j = f.jvp()
    assert j.input_shapes == (("n",), ("n",)) and j.input_dtypes == (np.dtype(np.float32),) * 2
    assert j.output_dtypes == (np.dtype(np.float32),) * 2
    v = f.vjp()
    assert v.input_shapes == (("n",), ()) and v.output_shapes == ((), ("n",))
    y, gx = v([1, 2], 2)
    assert y.dtype == np.float32 and gx.dtype == np.float32
    h = f.hvp(mode="reverse_over_reverse")
    assert h.input_shapes == (("n",), ("n",)) and "hvp" in repr(h)


# ---- wrt, structural zeros -------------------------------------------------------------------


def test_wrt_order_and_structural_zeros():
    a_s, b_s, c_s = tf.symbolic(2), tf.symbolic(2), tf.symbolic(2)
    k_s = tf.symbolic((), np.int64)
    f = tf.Function([a_s, b_s, c_s, k_s], (a_s * c_s * c_s * k_s).sum())  # b is not used
    a, b, c = np.array([1.0, 2.0]), np.array([5.0, 6.0]), np.array([3.0, -1.0])
    args = [a, b, c, 3]
    y, grads = tf.vjp(f, args, 1.0, wrt=(2, 0, 1, 3))
    assert y.item() == pytest.approx(3 * np.sum(a * c * c))
    gc, ga, gb, gk = grads
    assert_close(gc, 6 * a * c)
    assert_close(ga, 3 * c * c)
    assert gb is None and gk is None  # unused; integer inputs are never active
    # negative indices count from the end; an int gives one gradient
    _, gc2 = tf.vjp(f, args, 1.0, wrt=-2)
    assert_close(gc2, 6 * a * c)
    # the Functions return zeros where nothing flows, and report them
    g = f.grad([1, 2])
    assert g.output_is_zero(0) and not g.output_is_zero(1) and g.output_is_zero(-2)
    gb0, gc0 = g(*args)
    assert_close(gb0, np.zeros(2))
    assert_close(gc0, 6 * a * c)
    assert f.grad().output_is_zero(3)
    vg_value, vg = tf.value_and_grad(f, [3, 0])(*args)
    assert vg[0] is None
    assert_close(vg[1], 3 * c * c)
    # jvp: an output that does not depend on the tangents' inputs gets None
    h = tf.Function([a_s, b_s], [a_s * 2.0, (a_s * b_s).sum()])
    (o1, o2), (t1, t2) = tf.jvp(h, [a, b], [[1.0, 1.0]], wrt=[1])
    assert t1 is None
    assert t2.item() == pytest.approx(3.0)
    assert h.jvp(1).output_is_zero(2) and not h.jvp(1).output_is_zero(3)
    assert not h.jvp(1).output_is_zero(0)  # the primal outputs


# ---- the derivative cache --------------------------------------------------------------------


def test_derivative_cache_hits_for_structurally_equal_functions():
    ctx = tf.Context()

    def build():
        x = tf.symbolic(("n",), context=ctx)
        return tf.Function([x], (tf.sin(x) * x).sum())

    f1, f2 = build(), build()
    before = ctx.cache_stats("derivative")
    g1 = f1.grad()
    mid = ctx.cache_stats("derivative")
    assert mid.misses > before.misses and mid.entries > before.entries
    g2 = f2.grad()
    after = ctx.cache_stats("derivative")
    assert after.hits > mid.hits
    assert after.misses == mid.misses and after.entries == mid.entries
    x = np.array([0.5, -1.0, 2.0])
    assert_close(g1(x)[0], g2(x)[0].numpy())
    assert_close(g2(x)[0], np.sin(x) + x * np.cos(x))
    assert g1.context == ctx
    # another transform of the same program is another entry
    f2.hvp()
    assert ctx.cache_stats("derivative").entries > after.entries
    ctx.clear_cache("derivative")
    assert ctx.cache_stats("derivative").entries == 0


# ---- from_handle ---------------------------------------------------------------------------


def test_function_from_handle():
    f = sum_sq()
    h = _c.tfe_function_grad(f._h, [0])
    g = tf.Function.from_handle(h, input_dtypes=[np.float64], input_shapes=[(3,)],
                                output_dtypes=[np.float64], single=True, name="g")
    assert g.num_inputs == 1 and g.num_outputs == 1
    assert repr(g) == "<tenferro.Function g(float64[3]) -> Tensor>"
    assert_close(g([1, 2, 3]), np.array([2.0, 4.0, 6.0]))  # Python ints take float64
    bare = tf.Function.from_handle(_c.tfe_function_jvp(f._h, []))
    assert bare.input_dtypes == (None, None) and bare.output_shapes == (None, None)
    y, dy = bare(np.array([1.0, 2.0, 3.0]), np.array([0.1, 1.0, -2.0]))
    assert dy.item() == pytest.approx(-7.8)
    with pytest.raises(ValueError, match="single"):
        tf.Function.from_handle(bare._h, single=True)
    with pytest.raises(ValueError, match="input_dtypes"):
        tf.Function.from_handle(bare._h, input_dtypes=[np.float64])


# ---- errors --------------------------------------------------------------------------------


def test_grad_needs_one_output_of_one_element():
    x = tf.symbolic(3)
    with pytest.raises(tf.InvalidArgumentError):
        tf.Function([x], x * 2.0).grad()
    with pytest.raises(tf.InvalidArgumentError):
        tf.Function([x], [x.sum(), x.sum()]).grad()
    with pytest.raises(tf.InvalidArgumentError):
        tf.Function([x], x * x).hvp()
    with pytest.raises(tf.InvalidArgumentError):
        tf.value_and_grad(tf.Function([x], x * 2.0))
    # vjp and jvp take any outputs
    tf.Function([x], x * 2.0).vjp()


@pytest.mark.parametrize("wrt", [1, -2, [0, 1], (0, 0), [5]])
def test_bad_wrt(wrt):
    f = sum_sq()
    for transform in (f.jvp, f.vjp, f.grad, f.hvp):
        with pytest.raises(tf.InvalidArgumentError):
            transform(wrt)


def test_wrt_types_and_modes():
    f = sum_sq()
    with pytest.raises(tf.InvalidArgumentError, match="empty"):
        f.grad([])
    with pytest.raises(TypeError):
        f.grad(True)
    with pytest.raises(TypeError):
        f.grad(0.0)
    with pytest.raises(TypeError):
        f.vjp(["0"])
    with pytest.raises(ValueError, match="mode"):
        f.hvp(mode="forward")
    with pytest.raises(TypeError):
        tf.grad(lambda x: x)
    assert_close(f.grad(np.int64(0))([1.0, 1.0, 1.0]), np.full(3, 2.0))


def test_derived_call_errors():
    f = sum_sq()
    j = f.jvp()
    with pytest.raises(tf.InvalidArgumentError):
        j([1.0, 2.0, 3.0])  # the tangent is missing
    with pytest.raises(tf.ShapeMismatchError):
        j([1.0, 2.0, 3.0], [1.0, 2.0])
    with pytest.raises(tf.DtypeMismatchError):
        j([1.0, 2.0, 3.0], np.ones(3, np.float32))
    with pytest.raises(tf.InvalidArgumentError):
        f.output_is_zero(1)
