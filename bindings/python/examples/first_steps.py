"""A NumPy user's first steps with tenferro: the Python example of docs/user-guide.md, with
each result checked against NumPy."""

import os
import tempfile

import numpy as np
import tenferro as tf

a_np = np.arange(6.0).reshape(2, 3)
a = tf.Tensor(a_np)
np.testing.assert_array_equal(a.sum(axis=0, keepdims=True).numpy(),
                              a_np.sum(axis=0, keepdims=True))
assert (a.astype(np.float32) * 2.0).dtype == np.float32          # weak Python scalars
np.testing.assert_array_equal(a[:, None, ::-1].numpy(), a_np[:, None, ::-1])
np.testing.assert_array_equal(a[a > 2.0].numpy(), a_np[a_np > 2.0])
np.testing.assert_array_equal(a[[1, 0], 1:].numpy(), a_np[[1, 0], 1:])
b = a.at[0, 1].set(-1.0)
assert b.numpy()[0, 1] == -1.0 and a.numpy()[0, 1] == 1.0         # a is unchanged

H_np = np.diag([1.0, 2.0, 3.0])
H = tf.Tensor(H_np)
psi = tf.ones(3)
assert (psi @ H @ psi).item() == np.ones(3) @ H_np @ np.ones(3)
assert tf.trace(H).item() == np.trace(H_np)
w, v = tf.linalg.eigh(H)
np.testing.assert_allclose(tf.linalg.eigh(H).eigenvalues.numpy(), np.linalg.eigh(H_np)[0])

with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "h.npy")
    tf.save(path, H)
    np.testing.assert_array_equal(tf.load(path).numpy(), np.load(path))

x = tf.tensor([1.0, 2.0, 3.0]).requires_grad_()
(x * x).sum().backward()
np.testing.assert_allclose(x.grad.numpy(), [2.0, 4.0, 6.0])
print(repr(x))
print("first steps: ok")
