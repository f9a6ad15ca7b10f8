"""NumPy's everyday functions (tenferro/_functions.py): values against NumPy, dtypes, derivatives
against central differences, and the save/load round trip."""

import io
import math

import numpy as np
import pytest

import tenferro as tf

from conftest import dtype_id

erf = np.vectorize(math.erf, otypes=[float])

# name, NumPy reference, sampler for the arguments (rng -> tuple of arrays)
UNIT = lambda rng: (rng.uniform(-0.9, 0.9, (3, 4)),)  # noqa: E731
ANY = lambda rng: (rng.standard_normal((3, 4)) * 3,)  # noqa: E731
POS = lambda rng: (rng.uniform(0.2, 3.0, (3, 4)),)  # noqa: E731
TWO = lambda rng: (rng.standard_normal((3, 4)) * 3, rng.standard_normal((3, 4)) * 3)  # noqa: E731
ELEMENTWISE = [
    ("square", np.square, ANY), ("reciprocal", np.reciprocal, POS), ("exp2", np.exp2, ANY),
    ("log2", np.log2, POS), ("log10", np.log10, POS), ("logaddexp", np.logaddexp, TWO),
    ("hypot", np.hypot, TWO), ("sigmoid", lambda x: 1 / (1 + np.exp(-x)), ANY),
    ("erfc", lambda x: 1 - erf(x), ANY), ("arctan2", np.arctan2, TWO),
    ("arctan", np.arctan, ANY), ("arcsin", np.arcsin, UNIT), ("arccos", np.arccos, UNIT),
    ("arcsinh", np.arcsinh, ANY), ("arccosh", np.arccosh, lambda rng: (rng.uniform(1.1, 4, 5),)),
    ("arctanh", np.arctanh, UNIT), ("copysign", np.copysign, TWO), ("angle", np.angle, ANY),
]
NONSMOOTH = [("trunc", np.trunc, ANY)]


@pytest.mark.parametrize("name,ref,sample", ELEMENTWISE + NONSMOOTH, ids=lambda v: v
                         if isinstance(v, str) else "")
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=dtype_id)
def test_elementwise_values(rng, name, ref, sample, dtype):
    args = [a.astype(dtype) for a in sample(rng)]
    got = getattr(tf, name)(*args)
    want = ref(*args)
    assert got.dtype == np.result_type(want.dtype, dtype) or got.dtype == dtype
    tol = 2e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(got.numpy(), want, rtol=tol, atol=tol)


def numeric_grad(f, args, i, w, eps=1e-6):
    g = np.zeros_like(args[i])
    for idx in np.ndindex(g.shape):
        hi = [a.copy() for a in args]
        lo = [a.copy() for a in args]
        hi[i][idx] += eps
        lo[i][idx] -= eps
        g[idx] = ((f(*hi) - f(*lo)) * w).sum() / (2 * eps)
    return g


@pytest.mark.parametrize("name,ref,sample", [e for e in ELEMENTWISE if e[0] != "angle"],
                         ids=lambda v: v if isinstance(v, str) else "")
def test_elementwise_derivatives(rng, name, ref, sample):
    args = list(sample(rng))
    w = rng.standard_normal(np.shape(ref(*args)))
    ts = [tf.Tensor(a).requires_grad_() for a in args]
    (getattr(tf, name)(*ts) * w).sum().backward()
    for i, t in enumerate(ts):
        g = np.zeros_like(args[i]) if t.grad is None else t.grad.numpy()  # None: no dependence
        np.testing.assert_allclose(g, numeric_grad(ref, args, i, w), rtol=1e-5, atol=1e-6)


def test_angle_of_complex(rng):
    z = rng.standard_normal(5) + 1j * rng.standard_normal(5)
    np.testing.assert_allclose(tf.angle(z).numpy(), np.angle(z))
    np.testing.assert_allclose(tf.angle(z, deg=True).numpy(), np.angle(z, deg=True))


def test_predicates_and_nan_to_num():
    a = np.array([1.0, np.nan, np.inf, -np.inf, -0.0])
    for name in ("isnan", "isinf", "isfinite"):
        got = getattr(tf, name)(a)
        assert got.dtype == np.bool_
        np.testing.assert_array_equal(got.numpy(), getattr(np, name)(a))
    np.testing.assert_array_equal(tf.nan_to_num(a).numpy(), np.nan_to_num(a))
    np.testing.assert_array_equal(tf.nan_to_num(a, nan=7.0, posinf=1.0, neginf=-2.0).numpy(),
                                  np.nan_to_num(a, nan=7.0, posinf=1.0, neginf=-2.0))
    z = a.astype(complex)  # a + 1j * b would turn inf * 1j into nan
    z.imag = a[::-1]
    np.testing.assert_array_equal(tf.isnan(z).numpy(), np.isnan(z))
    np.testing.assert_array_equal(tf.isinf(z).numpy(), np.isinf(z))
    np.testing.assert_array_equal(tf.nan_to_num(z).numpy(), np.nan_to_num(z))
    i = np.arange(3)
    np.testing.assert_array_equal(tf.isfinite(i).numpy(), np.isfinite(i))


def test_isclose_allclose(rng):
    a = rng.standard_normal(20)
    b = a + rng.choice([0, 1e-9, 1e-3], 20)
    b[3] = a[3] = np.inf
    b[5] = a[5] = np.nan
    for eq in (False, True):
        np.testing.assert_array_equal(tf.isclose(a, b, equal_nan=eq).numpy(),
                                      np.isclose(a, b, equal_nan=eq))
    assert tf.allclose(a[:3], a[:3] + 1e-12) and not tf.allclose(a[:3], a[:3] + 1)


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)], ids=str)
@pytest.mark.parametrize("keepdims", [False, True])
def test_logsumexp(rng, axis, keepdims):
    a = rng.standard_normal((3, 4)) * 300  # exp would overflow without the shift
    m = np.max(a, axis=axis, keepdims=True)
    want = np.log(np.sum(np.exp(a - m), axis=axis, keepdims=True)) + m
    if not keepdims:
        want = np.squeeze(want, axis=axis) if axis is not None else want.reshape(())
    got = tf.logsumexp(a, axis=axis, keepdims=keepdims)
    assert got.shape == want.shape
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
    x = tf.Tensor(a / 300).requires_grad_()
    tf.logsumexp(x, axis=1).sum().backward()
    e = np.exp(a / 300)
    np.testing.assert_allclose(x.grad.numpy(), e / e.sum(1, keepdims=True), rtol=1e-12)


@pytest.mark.parametrize("shape,offset", [((3, 3), 0), ((3, 4), 1), ((4, 3), -2), ((3, 3, 2), 0),
                                          ((2, 3, 4), -1)], ids=str)
def test_trace_diagonal(rng, shape, offset):
    a = rng.standard_normal(shape)
    np.testing.assert_allclose(tf.trace(a, offset).numpy(), np.trace(a, offset))
    np.testing.assert_allclose(tf.diagonal(a, offset).numpy(), np.diagonal(a, offset))
    np.testing.assert_allclose(tf.Tensor(a).trace(offset).numpy(), np.trace(a, offset))
    x = tf.Tensor(a).requires_grad_()
    tf.trace(x, offset).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(),
                               numeric_grad(lambda v: np.trace(v, offset), [a], 0,
                                            np.ones(np.shape(np.trace(a, offset)))), atol=1e-8)


def test_trace_is_not_the_program_decorator():
    assert callable(tf.jit) and tf.trace is not tf.jit
    assert tf.trace(np.eye(3)).item() == np.trace(np.eye(3))


@pytest.mark.parametrize("v,k", [([1.0, 2.0, 3.0], 0), ([1.0, 2.0], 2), ([1.0, 2.0], -1)],
                         ids=str)
def test_diag(v, k):
    np.testing.assert_array_equal(tf.diag(v, k).numpy(), np.diag(v, k))
    m = np.diag(v, k)
    np.testing.assert_array_equal(tf.diag(m, k).numpy(), np.diag(m, k))


SHAPE_CASES = [
    ("squeeze", lambda a: {}, (1, 3, 1, 2)), ("squeeze", lambda a: {"axis": 2}, (1, 3, 1, 2)),
    ("expand_dims", lambda a: {"axis": (0, 3)}, (2, 3)),
    ("moveaxis", lambda a: {"source": 0, "destination": -1}, (2, 3, 4)),
    ("moveaxis", lambda a: {"source": (0, 1), "destination": (2, 0)}, (2, 3, 4)),
    ("swapaxes", lambda a: {"axis1": 0, "axis2": 2}, (2, 3, 4)),
    ("ravel", lambda a: {}, (2, 3, 4)), ("tile", lambda a: {"reps": (2, 1, 3)}, (2, 3)),
    ("tile", lambda a: {"reps": 2}, (2, 3)),
    ("repeat", lambda a: {"repeats": 2, "axis": 1}, (2, 3)),
    ("repeat", lambda a: {"repeats": [1, 0, 2], "axis": 0}, (3, 2)),
    ("repeat", lambda a: {"repeats": 2}, (2, 3)),
    ("roll", lambda a: {"shift": 2, "axis": 1}, (2, 3)), ("roll", lambda a: {"shift": -1}, (2, 3)),
    ("roll", lambda a: {"shift": (1, 2), "axis": (0, 1)}, (2, 3)),
]


@pytest.mark.parametrize("name,kwargs,shape", SHAPE_CASES, ids=lambda v: v
                         if isinstance(v, str) else str(v) if isinstance(v, tuple) else "")
def test_shape_functions(rng, name, kwargs, shape):
    a = rng.standard_normal(shape)
    want = getattr(np, name)(a, **kwargs(a))
    got = getattr(tf, name)(a, **kwargs(a))
    assert got.shape == want.shape
    np.testing.assert_array_equal(got.numpy(), want)
    x = tf.Tensor(a).requires_grad_()
    w = rng.standard_normal(want.shape)
    (getattr(tf, name)(x, **kwargs(a)) * w).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), numeric_grad(
        lambda v: getattr(np, name)(v, **kwargs(a)), [a], 0, w), atol=1e-8)


@pytest.mark.parametrize("sections,axis", [(3, 0), ([1, 4], 1), ([-2], 0), (1, 1)], ids=str)
def test_split(rng, sections, axis):
    a = rng.standard_normal((6, 5))
    got = tf.split(a, sections, axis)
    want = np.split(a, sections, axis)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g.numpy(), w)
    with pytest.raises(tf.InvalidArgumentError):
        tf.split(a, 4, 0)


def test_shape_errors():
    with pytest.raises(tf.InvalidArgumentError, match="squeeze"):
        tf.squeeze(np.ones((2, 3)), 0)
    with pytest.raises(tf.InvalidArgumentError, match="out of bounds"):
        tf.moveaxis(np.ones((2, 3)), 2, 0)


@pytest.mark.parametrize("args", [(0, 1, 5), (2.0, -3.0, 7, False), (1, 10, 1), (0, 1, 0)],
                         ids=str)
def test_linspace_logspace(args):
    np.testing.assert_allclose(tf.linspace(*args).numpy(), np.linspace(*args), rtol=1e-14)
    np.testing.assert_allclose(tf.logspace(*args).numpy(), np.logspace(*args), rtol=1e-12)
    assert tf.linspace(*args).numpy()[-1:].tolist() == np.linspace(*args)[-1:].tolist()


@pytest.mark.parametrize("dtype", [np.bool_, np.int32, np.float32, np.complex128], ids=dtype_id)
def test_like_creation(dtype):
    a = np.ones((2, 3), dtype)
    for name, extra in (("zeros_like", ()), ("ones_like", ()), ("full_like", (1,))):
        got = getattr(tf, name)(tf.Tensor(a), *extra)
        want = getattr(np, name)(a, *extra)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got.numpy(), want)
    assert tf.zeros_like(a, dtype=np.float64, shape=(4,)).shape == (4,)


@pytest.mark.parametrize("dtype", [np.bool_, np.int32, np.float32, np.complex128], ids=dtype_id)
def test_save_load_npy(tmp_path, rng, dtype):
    a = (rng.standard_normal((3, 2, 4)) * 3).astype(dtype)
    t = tf.Tensor(a)
    tf.save(tmp_path / "t.npy", t)
    np.testing.assert_array_equal(np.load(tmp_path / "t.npy"), a)  # NumPy reads it
    back = tf.load(tmp_path / "t.npy")
    assert back.dtype == a.dtype
    np.testing.assert_array_equal(back.numpy(), a)
    buf = io.BytesIO()
    tf.save(buf, t.T)
    buf.seek(0)
    np.testing.assert_array_equal(tf.load(buf).numpy(), a.T)


def test_repr_shows_requires_grad():
    x = tf.tensor([1.0, 2.0])
    assert "requires_grad" not in repr(x)
    assert repr(x.requires_grad_()).endswith("requires_grad=True)")


@pytest.mark.parametrize("axis", [0, 1, -1], ids=str)
@pytest.mark.parametrize("dtype", [np.int32, np.float64], ids=dtype_id)
def test_sort_argsort_match_numpy_stable(rng, axis, dtype):
    a = rng.integers(0, 4, (3, 5, 2)).astype(dtype)  # many ties: stability matters
    if dtype == np.float64:
        a[1, 2, 0] = a[0, 4, 1] = np.nan
    got = tf.argsort(a, axis)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got.numpy(), np.argsort(a, axis, kind="stable"))
    np.testing.assert_array_equal(tf.sort(a, axis).numpy(), np.sort(a, axis))
    if dtype == np.int32:  # descending and stable: NumPy's stable sort of -a
        np.testing.assert_array_equal(tf.argsort(a, axis, descending=True).numpy(),
                                      np.argsort(-a, axis, kind="stable"))


def test_sort_descending_and_topk(rng):
    a = rng.standard_normal((4, 6))
    d = tf.sort(a, 1, descending=True).numpy()
    np.testing.assert_array_equal(d, -np.sort(-a, 1))
    r = tf.topk(a, 3, axis=1)
    np.testing.assert_array_equal(r.values.numpy(), -np.sort(-a, 1)[:, :3])
    np.testing.assert_array_equal(r.indices.numpy(), np.argsort(-a, 1, kind="stable")[:, :3])
    small = tf.topk(a, 2, axis=0, largest=False)
    np.testing.assert_array_equal(small.values.numpy(), np.sort(a, 0)[:2])
    with pytest.raises(tf.InvalidArgumentError):
        tf.topk(a, 7, axis=1)
    with pytest.raises(TypeError):
        tf.sort(np.ones(3, complex))


def test_sort_and_topk_differentiate(rng):
    a = rng.standard_normal((3, 5))
    w = rng.standard_normal((3, 5))
    x = tf.Tensor(a).requires_grad_()
    (tf.sort(x, 1) * w).sum().backward()
    g = np.zeros_like(a)
    np.put_along_axis(g, np.argsort(a, 1), w, 1)
    np.testing.assert_allclose(x.grad.numpy(), g)
    x = tf.Tensor(a).requires_grad_()
    tf.topk(x, 2, axis=1).values.sum().backward()
    g = np.zeros_like(a)
    np.put_along_axis(g, np.argsort(-a, 1)[:, :2], 1.0, 1)
    np.testing.assert_allclose(x.grad.numpy(), g)


@pytest.mark.parametrize("name", ["arcsin", "arccos", "arctan", "arcsinh", "arctanh", "arccosh",
                                  "exp2", "log2", "log10"])
def test_numpy_named_ops_take_complex_and_integers(rng, name):
    ref = getattr(np, name)
    z = rng.uniform(1.1, 2.0, (3, 4)) + 1j * rng.uniform(-0.6, 0.6, (3, 4))
    if name in ("arcsin", "arccos", "arctan", "arcsinh", "arctanh"):
        z = z - 1.5  # real parts near 0: away from the branch cuts
    np.testing.assert_allclose(getattr(tf, name)(z).numpy(), ref(z), rtol=1e-12, atol=1e-12)
    i = np.array([1, 2, 3], np.int32)
    got = getattr(tf, name)(i)
    assert got.dtype == np.float64
    with np.errstate(all="ignore"):  # arcsin(2), arctanh(1): NaN and inf, as NumPy's
        want = ref(i.astype(np.float64))
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, equal_nan=True)


def test_numpy_named_ops_are_the_registry_ops():
    x = tf.Tensor(np.array([0.25, 0.5]))
    for numpy_name, op in [("arcsin", tf.asin), ("arctanh", tf.atanh), ("exp2", tf.exp2)]:
        np.testing.assert_array_equal(getattr(tf, numpy_name)(x).numpy(), op(x).numpy())
