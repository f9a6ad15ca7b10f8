"""The low-level module follows the C headers through generic typemaps (tenferro.i): every
declared function is wrapped, every parameter follows a convention the typemaps know, and each
convention behaves as documented. Also checks that the package mirrors every C op."""

import pathlib
import re

import numpy as np
import pytest

import tenferro as tf
import tenferro.tenferro_c as c

HEADER_DIR = pathlib.Path(__file__).resolve().parents[3] / "include" / "tenferro"
DECL = re.compile(r"TFE_API\s+(?:TFE_NODISCARD\s+)?(?P<ret>[\w\s\*]+?)\s*\b(?P<name>tfe_\w+)\s*"
                  r"\((?P<params>[^)]*)\)\s*;", re.S)
NOT_WRAPPED = {"tfe_tensor_retain", "tfe_tensor_release", "tfe_context_retain",
               "tfe_context_release", "tfe_function_retain", "tfe_function_release",
               "tfe_results_release", "tfe_linalg_options_release"}  # the proxies own them


def declarations(header=None):
    files = [HEADER_DIR / header] if header else sorted(HEADER_DIR.glob("*.h"))
    out = []
    for f in files:
        text = re.sub(r"/\*.*?\*/", "", f.read_text(), flags=re.S)
        for m in DECL.finditer(text):
            params = [p.strip() for p in m.group("params").split(",") if p.strip() != "void"]
            out.append((m.group("name"), m.group("ret").strip(), [p for p in params if p]))
    return out


def split_param(p):
    m = re.match(r"(?P<type>.*?[\s\*])(?P<name>\w+)$", p.strip())
    return re.sub(r"\s+", " ", m.group("type")).strip().replace(" *", "*"), m.group("name")


def test_headers_found():
    assert len(declarations()) > 80


def test_every_declared_function_is_wrapped():
    missing = [n for n, _, _ in declarations() if n not in NOT_WRAPPED and not hasattr(c, n)]
    assert not missing, f"add the header to the %include list of tenferro.i: {missing}"


def test_parameters_follow_the_conventions():
    """Each parameter has a form the generic typemaps handle; a new count name would need a
    word in tenferro.i's TFE_COUNT list."""
    known_types = {"tfe_tensor**", "tfe_context**", "tfe_context*", "tfe_tensor*",
                   "tfe_function**", "tfe_function*", "const tfe_function*", "tfe_results**",
                   "tfe_results*", "const tfe_results*", "const tfe_context*",
                   "tfe_linalg_options**", "tfe_linalg_options*", "const tfe_linalg_options*",
                   "const tfe_tensor*", "int32_t", "int64_t", "uint64_t", "double", "int32_t*",
                   "int64_t*", "const int64_t*", "const void*", "const void**", "void*",
                   "tfe_tensor* const*", "char*", "const char*", "double*", "tfe_status", "tfe_deleter",
                   "struct DLManagedTensor**", "struct DLManagedTensorVersioned**",
                   "struct DLManagedTensor*", "struct DLManagedTensorVersioned*"}
    problems = []
    for name, _, params in declarations():
        parsed = [split_param(p) for p in params]
        for i, (ty, pname) in enumerate(parsed):
            if ty not in known_types:
                problems.append(f"{name}: parameter type {ty} {pname}")
            nxt = parsed[i + 1][0] if i + 1 < len(parsed) else None
            if ty == "int32_t" and nxt in ("const int64_t*", "tfe_tensor* const*"):
                if pname not in c._COUNT_NAMES:
                    problems.append(f"{name}: count {pname} not in tenferro.i's TFE_COUNT list")
            if ty == "void*" and pname not in ("dst", "data", "user_data"):
                problems.append(f"{name}: void* {pname}")
            if ty == "char*" and pname != "buf":
                problems.append(f"{name}: char* {pname}")
    assert not problems, problems


def test_every_op_has_a_python_function():
    def py_name(cname):
        n = cname[len("tfe_"):]
        return n + "_" if n in ("and", "or", "not") else n

    exempt = {"tfe_tensor_from_data"}  # the "constant" op: tenferro.tensor / Tensor(...)
    exempt |= {"tfe_tensor_to_device"}  # the "transfer" op: Tensor.to(...) (test_device.py)
    # host-scalar operands: Python's operators and weak scalars use them (test_numpy_rules.py)
    exempt |= {"tfe_binary_scalar", "tfe_weak_scalar"}
    names = {c.tfe_op_c_name(i) for i in range(c.tfe_op_count())} - exempt
    names = {n for n in names if not n.startswith("tfe_linalg_")}  # test_linalg_rows.py
    names |= {n for n, _, _ in declarations("ops_arith.h") + declarations("ops_elementwise.h")
              + declarations("ops_shape.h")}
    names |= {"tfe_zeros", "tfe_ones", "tfe_full", "tfe_eye", "tfe_arange", "tfe_random_uniform",
              "tfe_random_normal", "tfe_iota"}
    names -= exempt
    missing = [n for n in sorted(names) if not callable(getattr(tf, py_name(n), None))]
    assert not missing
    for n in names:
        f = getattr(tf, py_name(n))
        assert f.__doc__ and len(f.__doc__) > 20, n
        assert py_name(n) in tf.__all__
    assert "LEFT-aligned" in tf.__doc__ and "[M,N,B..]" in tf.__doc__


def test_low_level_conventions():
    ctx = tf.default_context()._h
    before = c.tfe_debug_live_objects()
    # leading handle output -> owning proxy; counted arrays <- sequences
    h = c.tfe_tensor_from_data(ctx, c.TFE_F64, [2, 3], None, np.arange(6.0))
    assert type(h).__name__ == "tfe_tensor"
    assert c.tfe_debug_live_objects() == before + 1
    # out_shape -> tuple; trailing scalar outputs -> values
    assert c.tfe_tensor_shape(h) == (2, 3)
    assert c.tfe_tensor_ndim(h) == 2 and c.tfe_tensor_numel(h) == 6
    assert c.tfe_tensor_dtype(h) == c.TFE_F64
    assert isinstance(c.tfe_tensor_data(h), int)
    # several outputs come back as a tuple
    text, needed = c.tfe_last_error_copy(16)
    assert text == "" and needed == 1
    # caller buffer (dst, capacity_bytes) <- writable buffer
    out = np.empty(6)
    assert c.tfe_tensor_to_data(h, out) is None
    np.testing.assert_array_equal(out, [0, 1, 2, 3, 4, 5])  # column-major order
    with pytest.raises(tf.InvalidArgumentError, match=r"^Tensor\.numpy\(\)"):
        c.tfe_tensor_to_data(h, np.empty(5))
    # NULL allowed for an empty count and for optional arrays
    s = c.tfe_sum(h, None)
    assert c.tfe_tensor_shape(s) == ()
    sl = c.tfe_slice(h, [0, 1], [2, 3], None)
    assert c.tfe_tensor_shape(sl) == (2, 2)
    # two groups in one call (ndim + shape, n_dims + dims)
    b = c.tfe_broadcast_in_dim(c.tfe_tensor_from_data(ctx, c.TFE_F64, [3], None, np.ones(3)),
                               [2, 3], [1])
    assert c.tfe_tensor_shape(b) == (2, 3)
    # the arrays of one count must agree
    with pytest.raises(ValueError, match="entries"):
        c.tfe_slice(h, [0, 1], [2], None)
    with pytest.raises(TypeError):
        c.tfe_sum(h, ["a"])
    # handle arrays
    cat = c.tfe_concatenate([h, h], 0)
    assert c.tfe_tensor_shape(cat) == (4, 3)
    with pytest.raises(tf.InvalidArgumentError, match=r"^tenferro\.concatenate\(\)"):
        c.tfe_concatenate([h, None], 0)
    with pytest.raises(TypeError):
        c.tfe_concatenate([h, 1], 0)
    # a NULL input handle is the library's INVALID_ARGUMENT
    with pytest.raises(tf.InvalidArgumentError, match=r"^tenferro\.add\(\)"):
        c.tfe_add(h, None)
    del h, s, sl, b, cat
    assert c.tfe_debug_live_objects() == before


def test_proxies_cannot_be_constructed_or_released_by_hand():
    with pytest.raises((AttributeError, TypeError)):  # SWIG's built-in types raise TypeError
        c.tfe_tensor()
    assert not hasattr(c, "tfe_tensor_release")
    assert not hasattr(c, "tfe_tensor_retain")


def test_version_and_misc():
    assert tf.version() == c.tfe_version() == tf.__version__
    assert re.match(r"^\d+\.\d+\.\d+", tf.version())
    assert tf.abi_version() == c.TFE_ABI_VERSION
    assert tf.get_num_threads() >= 1
    n = tf.get_num_threads()
    tf.set_num_threads(1)
    assert tf.get_num_threads() == 1
    tf.set_num_threads(n)
    with pytest.raises(tf.InvalidArgumentError):
        tf.set_num_threads(0)
    assert tf.device_count() == 0
    assert "add" in tf.op_names()
    assert isinstance(tf.debug_live_objects(), int)


def test_module_docstring_examples():
    import doctest

    result = doctest.testmod(tf)
    assert result.attempted > 0 and result.failed == 0
    undocumented = [n for n in tf.__all__ if not getattr(tf, n).__doc__]
    assert not undocumented
