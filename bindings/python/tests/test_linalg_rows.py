"""Every linalg row (src/ops/defs/linalg.hpp, through the generated linalg_rows.py) is reachable
from tenferro.linalg: its Python function exists, is exported and documented, and calling it
on the row's sample calls the row's C function (or, for a function whose keyword options need
the _ex variant, that variant) and gives the row's number of outputs. The rows are what
tenferro.op_names() lists after the core ops."""

import inspect

import numpy as np
import pytest

import tenferro as tf
from tenferro import tenferro_c as _c

from linalg_rows import LINALG

SPD = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
TALL = np.array([[1.0, 0.0, 1.0], [2.0, 1.0, -1.0], [0.0, 3.0, 1.0], [1.0, 1.0, 4.0]])
RHS = np.array([[1.0, -1.0], [2.0, 0.5], [3.0, 2.0]])
SAMPLES = {"Square": [SPD], "Spd": [SPD], "Matrix": [TALL], "System": [SPD, RHS]}


def ids(rows):
    return [r[0] for r in rows]


def test_rows_are_listed_after_the_core_ops():
    names = tf.op_names()
    assert len(names) == _c.tfe_op_count()
    assert names[-len(LINALG):] == ["linalg." + r[0] for r in LINALG]
    first = _c.tfe_op_count() - len(LINALG)
    assert [_c.tfe_op_c_name(first + k) for k in range(len(LINALG))] == [r[1] for r in LINALG]
    assert not any(n.startswith("linalg.") for n in names[:first])


@pytest.mark.parametrize("row", LINALG, ids=ids(LINALG))
def test_row_has_a_documented_python_function(row):
    name, c_name, python = row[:3]
    f = getattr(tf.linalg, python, None)
    assert callable(f), f"{c_name}: no tenferro.linalg.{python}"
    assert python in tf.linalg.__all__
    assert f.__doc__ and len(f.__doc__) > 20, python
    assert callable(getattr(_c, c_name)), c_name


def _reached(row):
    c_name = row[1]
    return {c_name} if c_name.endswith("_ex") else {c_name, c_name + "_ex"}


CALLED = [r for r in LINALG if r[5] != "Args"]
ARGS = [r for r in LINALG if r[5] == "Args"]


@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=["float64", "complex128"])
@pytest.mark.parametrize("row", CALLED, ids=ids(CALLED))
def test_row_is_reached_from_python(row, dtype, monkeypatch):
    python, outputs, sample = row[2], row[4], row[6]
    calls = []
    for c_name in _reached(row):
        real = getattr(_c, c_name, None)
        if real is None:
            continue

        def spy(*args, _real=real, _name=c_name):
            calls.append(_name)
            return _real(*args)

        monkeypatch.setattr(_c, c_name, spy)
    args = [tf.Tensor(a.astype(dtype)) for a in SAMPLES[sample]]
    out = getattr(tf.linalg, python)(*args)
    assert calls, f"tenferro.linalg.{python} called none of {sorted(_reached(row))}"
    results = tuple(out) if outputs > 1 else (out,)
    assert len(results) == outputs
    for r in results:
        v = r.numpy()
        if np.issubdtype(v.dtype, np.inexact):
            assert np.all(np.isfinite(v))


@pytest.mark.parametrize("row", ARGS, ids=ids(ARGS))
def test_row_with_arguments_is_called_by_its_function(row):
    # These take further scalar arguments; their values are tested in test_linalg.py and
    # test_linalg_numpy.py. Here: the Python function calls the row's C function.
    source = inspect.getsource(getattr(tf.linalg, row[2]))
    assert any("_c." + c + "(" in source for c in _reached(row)), row[1]
