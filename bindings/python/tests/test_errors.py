"""One exception class per status, raised with the library's message (which starts with the C
function's name)."""

import numpy as np
import pytest
import tenferro as tf
import tenferro.tenferro_c as c

ERRORS = [
    (c.TFE_ERR_INVALID_ARGUMENT, tf.InvalidArgumentError, ValueError),
    (c.TFE_ERR_SHAPE_MISMATCH, tf.ShapeMismatchError, ValueError),
    (c.TFE_ERR_DTYPE_MISMATCH, tf.DtypeMismatchError, TypeError),
    (c.TFE_ERR_OUT_OF_MEMORY, tf.OutOfMemoryError, MemoryError),
    (c.TFE_ERR_NOT_SUPPORTED, tf.NotSupportedError, NotImplementedError),
    (c.TFE_ERR_DEVICE, tf.DeviceError, tf.TenferroError),
    (c.TFE_ERR_NOT_DIFFERENTIABLE, tf.NotDifferentiableError, tf.TenferroError),
    (c.TFE_ERR_SINGULAR, tf.SingularError, ArithmeticError),
    (c.TFE_ERR_NON_CONVERGENCE, tf.NonConvergenceError, ArithmeticError),
    (c.TFE_ERR_NUMERICAL, tf.NumericalError, ArithmeticError),
    (c.TFE_ERR_INTERNAL, tf.InternalError, tf.TenferroError),
]


@pytest.mark.parametrize("status,cls,builtin", ERRORS, ids=lambda v: getattr(v, "__name__", str(v)))
def test_status_mapping(status, cls, builtin):
    """Every status maps to its class, through the same C path a failing call takes."""
    assert issubclass(cls, tf.TenferroError) and issubclass(cls, builtin)
    with pytest.raises(cls) as info:
        c._tfepy_raise_status(status, "tfe_something: what went wrong")
    assert type(info.value) is cls
    assert str(info.value) == "tenferro.something(): what went wrong"  # in Python terms
    assert info.value.c_message == "tfe_something: what went wrong"
    assert info.value.status == status


@pytest.mark.parametrize("status", [11, 99, 101, -1, 2**31 - 1])
def test_unknown_status_is_the_base_class(status):
    with pytest.raises(tf.TenferroError) as info:
        c._tfepy_raise_status(status, "tfe_future: new error")
    assert type(info.value) is tf.TenferroError
    assert info.value.status == status
    assert c._tfepy_raise_status(c.TFE_OK, "") is None


# A representative bad input for each status the current C functions can return. Statuses no
# current function returns (device, not differentiable, singular, non-convergence, internal: the
# linalg and AD headers are not there yet) are covered by test_status_mapping.
def _oom():
    tf.zeros((2**40,))  # 8 TiB


def _not_supported():
    torch = pytest.importorskip("torch")
    tf.from_dlpack(torch.zeros(3, dtype=torch.uint8))


BAD_CALLS = [
    (tf.InvalidArgumentError, "tenferro.sum()", lambda: tf.sum(np.ones((2, 3)), (0, 0))),
    (tf.InvalidArgumentError, "tenferro.gather()", lambda: tf.gather(np.ones(3), np.array([5]), 0)),
    (tf.ShapeMismatchError, "tenferro.add()", lambda: tf.Tensor(np.ones((2, 3))) + tf.Tensor(np.ones(3))),
    (tf.DtypeMismatchError, "tenferro.exp()", lambda: tf.exp(np.arange(3))),
    (tf.OutOfMemoryError, "tenferro.zeros()", _oom),
    (tf.NotSupportedError, "tenferro.from_dlpack()", _not_supported),
    (tf.NumericalError, "tenferro.div_trunc()", lambda: tf.div_trunc(np.array([1, 2]), np.array([1, 0]))),
    (tf.NumericalError, "tenferro.pow()", lambda: tf.pow(np.array([2]), np.array([-1]))),
    (tf.NumericalError, "tenferro.zeros()", lambda: tf.zeros((2**40, 2**40))),
]


@pytest.mark.parametrize("cls,fn_name,call", BAD_CALLS,
                         ids=[f"{b[0].__name__}-{b[1]}" for b in BAD_CALLS])
def test_bad_inputs_raise_their_class(cls, fn_name, call):
    with pytest.raises(cls) as info:
        call()
    msg = str(info.value)
    assert msg.startswith(fn_name + ":"), msg
    assert "\n" not in msg
    assert type(info.value) is cls


def test_out_of_memory_is_a_memory_error():
    with pytest.raises(MemoryError):
        _oom()


def test_error_message_accessors():
    with pytest.raises(tf.ShapeMismatchError):
        tf.add(np.ones(2), np.ones(3))
    msg = c.tfe_last_error_message()
    assert msg.startswith("tfe_add:")
    text, needed = c.tfe_last_error_copy(8)
    assert text == msg[:7] and needed == len(msg) + 1
    assert c.tfe_status_name(c.TFE_ERR_SHAPE_MISMATCH) == "TFE_ERR_SHAPE_MISMATCH"
    assert tf.status_name(12345) == "TFE_ERR_UNKNOWN"
    tf.add(np.ones(2), np.ones(2))
    assert c.tfe_last_error_message() == ""


def test_python_side_argument_errors():
    with pytest.raises(TypeError):
        tf.sum(np.ones(3), "x")
    with pytest.raises(TypeError):
        c.tfe_sum(tf.Tensor([1.0])._h, [0.5])
    with pytest.raises(TypeError):
        c.tfe_add("not a handle", None)
