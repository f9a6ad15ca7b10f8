"""Graphviz pictures of programs and eager traces: Function.to_dot() and tf.autograd.to_dot().

The text is checked for what it must show (op names, dtypes, symbolic shapes, one node per
shared value) and, where Graphviz is installed, rendered by `dot` itself."""

import re
import shutil
import subprocess

import pytest

import tenferro as tf


def renders(text):
    if shutil.which("dot") is None:
        pytest.skip("graphviz dot not installed")
    done = subprocess.run(["dot", "-Tsvg"], input=text.encode(), capture_output=True, check=False)
    assert done.returncode == 0, done.stderr.decode()
    assert b"<svg" in done.stdout


def test_function_and_its_gradient():
    x, w = tf.symbolic(["n"]), tf.symbolic(["n"])
    f = tf.Function([x, w], tf.tanh(x * w).sum())
    text = f.to_dot()
    assert text.startswith("digraph")
    assert len(re.findall(r'label="input \d', text)) == 2
    # symbols are numbered per context: "n" is s<k> for some k
    assert re.search(r"tanh\\nF64 \[s\d+\]", text) and re.search(r"mul\\nF64 \[s\d+\]", text)
    renders(text)
    grad = f.grad().to_dot()
    assert len(re.findall(r'label="output \d', grad)) == 2  # one gradient per input
    assert grad != text
    renders(grad)


def test_eager_trace_shows_variables_constants_and_promotion():
    x = tf.tensor([0.1, 0.5, 2.0]).requires_grad_()
    k = tf.tensor([1, 2, 3], dtype="int32")
    loss = (tf.sin(x) * x * k).sum()
    text = tf.autograd.to_dot(loss)
    assert text.count("variable\\nF64 [3]") == 1  # read twice, drawn once
    assert "constant\\nI32 [3]" in text and "cast\\nF64 [3]" in text
    renders(text)


def test_untracked_tensor_has_no_trace():
    with pytest.raises(tf.InvalidArgumentError, match="not tracked"):
        tf.autograd.to_dot(tf.tensor([1.0, 2.0]))
