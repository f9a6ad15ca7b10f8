"""Elementwise ops (ops_elementwise.h) against NumPy, for every dtype each op accepts, plus the
operators of Tensor. References use tenferro's left-aligned broadcasting (conftest.left_align)."""

import itertools
import keyword
import math

import numpy as np
import pytest

import tenferro as tf
from tenferro._op_rows import ANALYTIC, BASIC
from conftest import (ALL_DTYPES, COMPLEX_DTYPES, FLOAT_DTYPES, INT_DTYPES, NUMERIC_DTYPES,
                      ORDERED_DTYPES, REAL_DTYPES, assert_close, dtype_id, left_align, rand)


def trunc_div(a, b):
    q = np.abs(a) // np.abs(b)
    return (np.sign(a) * np.sign(b) * q).astype(np.result_type(a, b))


def true_div(a, b):
    # tfe_div converts Bool and integer operands to float64 first, then promotes
    if a.dtype.kind in "biu":
        a = a.astype(np.float64)
    if b.dtype.kind in "biu":
        b = b.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.true_divide(a, b)


def ref_sign(x):
    if x.dtype.kind == "c":
        ax = np.abs(x)
        return np.where(ax == 0, 0, x / np.where(ax == 0, 1, ax)).astype(x.dtype)
    return np.sign(x)


# The arithmetic, logical and complex-parts rows of the op registry, by Python name (a keyword
# gets a trailing underscore). Each names its NumPy reference (an expression over np and the
# helpers above) and where its operands are sampled.
BASIC_ROWS = {(r[0] + "_" if keyword.iskeyword(r[0]) else r[0]): r for r in BASIC}
HELPERS = {"np": np, "math": math, "trunc_div": trunc_div, "true_div": true_div,
           "ref_sign": ref_sign}
# The functions with checks of their own beside the rows (ops_elementwise.h):
# name -> (arity, accepted dtypes, promotes, domain, NumPy reference)
HAND = {"div": (2, ALL_DTYPES, True, "Nonzero", "true_div"),
        "div_trunc": (2, INT_DTYPES, True, "Nonzero", "trunc_div")}
# name -> (arity, accepted dtypes, promotes, domain, NumPy reference) of every case list below
CASES = {**{name: (r[2], [np.dtype(d).type for d in r[3]], r[4], r[6], r[7])
            for name, r in BASIC_ROWS.items()}, **HAND}


def reference(name):
    return eval(CASES[name][4], HELPERS)


def operands(rng, name, da, db, sa, sb):
    domain = CASES[name][3]
    if domain == "Power":
        # bases positive (no NaN from fractional powers), integer exponents small and >= 0
        a = rand(rng, sa, da, 1.0, 2.0) if np.dtype(da).kind in "iu" else rand(rng, sa, da, 0.5, 2.0)
        b = rand(rng, sb, db, 0.0, 3.0) if np.dtype(db).kind in "iu" else rand(rng, sb, db, -2.0, 2.0)
        return a, b
    return rand(rng, sa, da), rand(rng, sb, db, nonzero=domain == "Nonzero")


def cases(arity):
    for name, (n, dtypes, *_) in CASES.items():
        if n == arity:
            for d in dtypes:
                yield pytest.param(name, d, id=f"{name}-{dtype_id(d)}")


@pytest.mark.parametrize("name,dtype", list(cases(2)))
@pytest.mark.parametrize("shapes", [((3, 4), (3, 4)), ((3, 4, 2), (3,)), ((2, 1, 3), (2, 5)),
                                    ((4,), ()), ((), (2, 3)), ((0, 3), (0,))],
                         ids=lambda s: "x".join(map(str, s[0])) + "_" + "x".join(map(str, s[1])))
def test_binary_same_dtype(rng, name, dtype, shapes):
    a, b = operands(rng, name, dtype, dtype, *shapes)
    want = reference(name)(*left_align(a, b))
    got = getattr(tf, name)(tf.Tensor(a), tf.Tensor(b))
    assert_close(got, want)


def promotion_cases():
    for name, (_, dtypes, promotes, *_) in CASES.items():
        if promotes:
            for da, db in itertools.permutations(dtypes, 2):
                yield pytest.param(name, da, db, id=f"{name}-{dtype_id(da)}-{dtype_id(db)}")


@pytest.mark.parametrize("name,da,db", list(promotion_cases()))
def test_binary_promotion(rng, name, da, db):
    a, b = operands(rng, name, da, db, (2, 3), (2, 3))
    want = reference(name)(a, b)
    got = getattr(tf, name)(tf.Tensor(a), tf.Tensor(b))
    # NumPy's result_type on arrays is tenferro's join (div: after Bool/int -> float64)
    assert_close(got, want, dtype=want.dtype)


@pytest.mark.parametrize("name", ["add", "sub", "mul", "pow", "div_trunc", "rem", "neg", "abs",
                                  "sign", "exp", "floor"])
def test_bool_or_wrong_kind_rejected(name):
    x = tf.Tensor([True, False])
    fn = getattr(tf, name)
    with pytest.raises(tf.DtypeMismatchError, match=r"^tenferro\."):
        fn(x, x) if name in CASES and CASES[name][0] == 2 else fn(x)


@pytest.mark.parametrize("name", ["maximum", "minimum", "rem"])
@pytest.mark.parametrize("dtype", COMPLEX_DTYPES, ids=dtype_id)
def test_ordered_ops_reject_complex(name, dtype):
    x = tf.Tensor(np.ones(3, dtype))
    with pytest.raises(tf.DtypeMismatchError, match=r"^tenferro\." + name + r"\(\)"):
        getattr(tf, name)(x, x)


@pytest.mark.parametrize("name", ["and_", "or_", "xor"])
def test_logical_ops_need_one_dtype(name):
    with pytest.raises(tf.TenferroError, match=r"^tenferro\."):
        getattr(tf, name)(tf.Tensor(np.ones(2, np.int32)), tf.Tensor(np.ones(2, np.int64)))


def test_integer_wraparound(rng):
    a = np.array([np.iinfo(np.int32).max, np.iinfo(np.int32).min], np.int32)
    assert_close(tf.add(a, np.int32(1)), a + np.int32(1))
    assert_close(tf.neg(a), -a)
    assert_close(tf.div_trunc(np.array([-7, 7, -7], np.int64), np.array([2, -2, -2], np.int64)),
                 np.array([-3, -3, 3], np.int64))


@pytest.mark.parametrize("name,dtype", list(cases(1)))
@pytest.mark.parametrize("shape", [(4, 5), (), (2, 3, 2), (0,)], ids=str)
def test_unary(rng, name, dtype, shape):
    x = rand(rng, shape, dtype, -3, 3)
    assert_close(getattr(tf, name)(tf.Tensor(x)), reference(name)(x))


def test_each_basic_row_is_tested_against_numpy():
    # Every Regular row of the arithmetic, logical and complex-parts lists has a case list above,
    # with a reference NumPy evaluates and a domain the operand sampler knows.
    for name, (arity, dtypes, _, domain, _) in CASES.items():
        assert callable(reference(name)), name
        assert domain in ("Any", "Nonzero", "Power"), name
        assert dtypes and arity in (1, 2), name
    assert {r[0] for r in BASIC} >= {"add", "maximum", "and", "not", "real", "complex"}


def test_basic_docstrings_come_from_the_rows():
    for name, (_, cname, _, dtypes, _, _, _, _, summary) in BASIC_ROWS.items():
        doc = getattr(tf, name).__doc__
        assert doc.startswith(summary) and dtypes[0] in doc, name
        assert name in tf.__all__ and cname == "tfe_" + BASIC_ROWS[name][0]


# ---- the analytic functions: one case list per row of the op registry ----

ANALYTIC_ROWS = {row[0]: row for row in ANALYTIC}
# Where each row's domain samples: real interval, and complex (low, high, nonzero) per part.
DOMAINS = {"Any": (-2.0, 2.0, False), "Positive": (0.1, 3.0, False), "Unit": (-0.9, 0.9, False),
           "AboveOne": (1.1, 4.0, False)}
COMPLEX_DOMAINS = {"Any": (-2.0, 2.0, False), "Positive": (-3.0, 3.0, True),
                   "Unit": (-0.6, 0.6, False), "AboveOne": (1.1, 4.0, False)}


def analytic_cases():
    for name, _, _, dtypes, *_ in ANALYTIC:
        for d in dtypes:
            yield pytest.param(name, np.dtype(d).type, id=f"{name}-{dtype_id(np.dtype(d).type)}")


def analytic_operand(rng, name, dtype, shape):
    domain = ANALYTIC_ROWS[name][5]
    low, high, nonzero = (COMPLEX_DOMAINS if np.dtype(dtype).kind == "c" else DOMAINS)[domain]
    return rand(rng, shape, dtype, low, high, nonzero=nonzero)


@pytest.mark.parametrize("name,dtype", list(analytic_cases()))
@pytest.mark.parametrize("shape", [(4, 5), (), (2, 3, 2), (0,)], ids=str)
def test_analytic(rng, name, dtype, shape):
    _, _, arity, _, _, _, numpy_ref, _ = ANALYTIC_ROWS[name]
    ref = eval(numpy_ref, {"np": np, "math": math})  # the row's NumPy expression
    xs = [analytic_operand(rng, name, dtype, shape) for _ in range(arity)]
    if arity == 2 and len(shape) == 2:
        xs[1] = xs[1][:, 0]  # [4,5] with [4]: left-aligned broadcasting
    want = np.asarray(ref(*left_align(*xs)) if arity == 2 else ref(*xs)).astype(dtype)
    got = getattr(tf, name)(*[tf.Tensor(x) for x in xs])
    assert_close(got, want)


# name -> (arity, accepted dtypes) of every row the Python functions are generated from
GENERATED_ROWS = {**{name: (r[2], r[3]) for name, r in BASIC_ROWS.items()},
                  **{r[0]: (r[2], r[3]) for r in ANALYTIC}}


def rejected_cases():
    for name, (_, dtypes) in GENERATED_ROWS.items():
        for d in ALL_DTYPES:
            if np.dtype(d).name not in dtypes:
                yield pytest.param(name, d, id=f"{name}-{dtype_id(d)}")


@pytest.mark.parametrize("name,dtype", list(rejected_cases()))
def test_generated_rows_reject_other_dtypes(name, dtype):
    # The row's own function: NumPy-named wrappers of the same name (exp2, trunc) compute integers
    # in float64 as NumPy does, which test_functions.py checks.
    arity = GENERATED_ROWS[name][0]
    x = tf.Tensor(np.arange(3).astype(dtype))
    with pytest.raises(tf.DtypeMismatchError, match=r"^tenferro\." + name + r"\(\):"):
        getattr(tf._ops, name)(*[x] * arity)


def test_analytic_docstrings_come_from_the_rows():
    for name, _, _, dtypes, _, _, _, summary in ANALYTIC:
        doc = getattr(tf, name).__doc__
        assert doc.startswith(summary) and dtypes[0] in doc, name


def test_round_half_to_even():
    x = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5], np.float64)
    assert_close(tf.round(x), np.round(x))


# ---- comparison, selection, complex ----

DIRECTIONS = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
              "gt": np.greater, "ge": np.greater_equal}


@pytest.mark.parametrize("direction", list(DIRECTIONS))
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_compare(rng, direction, dtype):
    a = rand(rng, (3, 4), dtype, -2, 2)
    b = rand(rng, (3,), dtype, -2, 2)
    if np.dtype(dtype).kind == "c" and direction not in ("eq", "ne"):
        with pytest.raises(tf.DtypeMismatchError, match=r"^tenferro\.compare\(\)"):
            tf.compare(a, b, direction)
        return
    want = DIRECTIONS[direction](*left_align(a, b))
    assert_close(tf.compare(tf.Tensor(a), tf.Tensor(b), direction), want)


def test_compare_mixed_dtypes_and_named_functions(rng):
    a = rand(rng, (5,), np.int32)
    b = rand(rng, (5,), np.float64)
    assert_close(tf.less(a, b), a < b)
    assert_close(tf.greater_equal(a, b), a >= b)
    assert_close(tf.equal(a, a), np.ones(5, bool))
    assert_close(tf.not_equal(a, b), a != b)
    with pytest.raises(tf.InvalidArgumentError, match=r"^tenferro\.compare\(\)"):
        tf.compare(a, b, 99)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_select(rng, dtype):
    pred = rng.random((3, 4)) < 0.5
    t = rand(rng, (3, 4), dtype)
    f = rand(rng, (3,), dtype)
    want = np.where(*left_align(pred, t, f))
    assert_close(tf.select(pred, t, f), want)
    # a float64 scalar promotes float32 values (no value-based casting, unlike NumPy)
    assert_close(tf.where(tf.Tensor(pred), t, np.float64(7.0)),
                 np.where(pred, t, 7.0).astype(np.result_type(dtype, np.float64)))


@pytest.mark.parametrize("dtype", INT_DTYPES + REAL_DTYPES, ids=dtype_id)
def test_clamp(rng, dtype):
    x = rand(rng, (4, 5), dtype, -5, 5)
    lo = rand(rng, (4,), dtype, -3, 0)
    hi = np.array(2, dtype)
    want = np.minimum(np.maximum(*left_align(x, lo)), hi)
    assert_close(tf.clamp(x, lo, hi), want)


@pytest.mark.parametrize("dtype", COMPLEX_DTYPES, ids=dtype_id)
def test_clamp_rejects_complex(dtype):
    x = np.ones(2, dtype)
    with pytest.raises(tf.DtypeMismatchError, match=r"^tenferro\.clamp\(\)"):
        tf.clamp(x, x, x)


# ---- operators ----


def test_operators_with_tensors(rng):
    a = rand(rng, (3, 4), np.float64, 0.5, 2)
    b = rand(rng, (3, 4), np.float64, 0.5, 2)
    ta, tb = tf.Tensor(a), tf.Tensor(b)
    assert_close(ta + tb, a + b)
    assert_close(ta - tb, a - b)
    assert_close(ta * tb, a * b)
    assert_close(ta / tb, a / b)
    assert_close(ta ** tb, a ** b)
    assert_close(-ta, -a)
    assert_close(+ta, a)
    assert_close(abs(tf.Tensor(-a)), a)
    assert_close(ta == tb, a == b)
    assert_close(ta != tb, a != b)
    assert_close(ta < tb, a < b)
    assert_close(ta <= tb, a <= b)
    assert_close(ta > tb, a > b)
    assert_close(ta >= tb, a >= b)
    m = tf.Tensor(rand(rng, (4, 2), np.float64))
    assert_close(ta @ m, a @ m.numpy())


def test_operators_with_scalars_and_arrays(rng):
    a = rand(rng, (3, 4), np.float64, 0.5, 2)
    ta = tf.Tensor(a)
    assert_close(ta + 1, a + 1)
    assert_close(1 + ta, 1 + a)
    assert_close(2.5 - ta, 2.5 - a)
    assert_close(ta * 2j, a * 2j)
    assert_close(3 / ta, 3 / a)
    assert_close(2 ** ta, 2 ** a)
    assert_close(ta ** 2, a ** 2)
    assert_close(ta < 1, a < 1)
    assert_close(1 < ta, 1 < a)
    assert_close(ta == 1.0, a == 1.0)
    b = rand(rng, (3, 4), np.float64)
    assert_close(ta + b, a + b)
    assert_close(b + ta, b + a)  # NumPy defers to Tensor.__radd__ (no ufunc broadcasting)
    assert_close(b - ta, b - a)
    assert_close(b @ tf.Tensor(a.T), b @ a.T)
    assert_close(ta + [1.0, 2.0, 3.0], a + np.array([[1.0], [2.0], [3.0]]))  # left-aligned
    assert_close(tf.Tensor(np.ones(3, np.float32)) + np.float32(1), np.full(3, 2, np.float32))


def test_logical_operators(rng):
    p = rng.random(6) < 0.5
    q = rng.random(6) < 0.5
    tp, tq = tf.Tensor(p), tf.Tensor(q)
    assert_close(tp & tq, p & q)
    assert_close(tp | tq, p | q)
    assert_close(tp ^ tq, p ^ q)
    assert_close(~tp, ~p)
    assert_close(p & tq, p & q)
    i = rand(rng, (6,), np.int64, -100, 100)
    j = rand(rng, (6,), np.int64, -100, 100)
    assert_close(tf.Tensor(i) & j, i & j)
    assert_close(tf.Tensor(i) | j, i | j)
    assert_close(tf.Tensor(i) ^ j, i ^ j)
    assert_close(~tf.Tensor(i), ~i)


def test_operator_type_errors():
    t = tf.Tensor([1.0, 2.0])
    with pytest.raises(TypeError):
        t + "abc"
    with pytest.raises(TypeError):
        t + object()
    assert (t == None) is False  # noqa: E711 (falls back to identity)
    with pytest.raises(TypeError):
        hash(t)
    with pytest.raises(TypeError):
        t // 2
    with pytest.raises(TypeError):
        pow(t, 2, 3)


def test_aliases():
    assert tf.subtract is tf.sub and tf.multiply is tf.mul and tf.divide is tf.div
    assert tf.power is tf.pow and tf.negative is tf.neg and tf.where is tf.select
    assert tf.bitwise_and is tf.and_ and tf.invert is tf.not_ and tf.clip is tf.clamp
