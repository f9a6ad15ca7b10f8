"""Ground state of the transverse-field Ising chain as a matrix product state.

    H = -J sum_i Z_i Z_{i+1} - h sum_i X_i        (open boundaries)

The energy <psi|H|psi> / <psi|psi> of an MPS (tensors [D_left, 2, D_right]) is contracted with
tenferro.einsum against the Hamiltonian's matrix product operator, differentiated by tenferro's
eager AD, and minimised by L-BFGS (written below, with a backtracking line search). Every
`recanonicalise_every` steps the MPS is brought to left-canonical form by a sweep of truncated
SVDs (tenferro.linalg.svd with max_rank and rtol), which also normalises it; the optimiser's
memory restarts there, since the parameters change gauge.

The result is compared with the exact ground-state energy: the free-fermion closed form
(E0 = -sum of the singular values of the L x L bidiagonal matrix with h on the diagonal and J
above it) and, for short chains, the lowest eigenvalue of the dense 2^L x 2^L Hamiltonian built
with tenferro.kron.

    PYTHONPATH=build/python python3 examples/python/mps_ground_state.py [--sites 12] [--bond 16]
"""

import argparse
import sys
import time

import numpy as np

import tenferro as tf


def exact_energy(sites, h, j=1.0):
    m = np.diag(np.full(sites, h)) + np.diag(np.full(sites - 1, j), 1)
    return -float(np.sum(np.linalg.svd(m, compute_uv=False)))


def dense_energy(sites, h, j=1.0):
    """The lowest eigenvalue of H built as a sum of Kronecker products (2^sites x 2^sites)."""
    x = np.array([[0.0, 1.0], [1.0, 0.0]])
    z = np.array([[1.0, 0.0], [0.0, -1.0]])
    eye = np.eye(2)

    def chain(ops):
        out = tf.tensor(ops[0])
        for op in ops[1:]:
            out = tf.kron(out, tf.tensor(op))
        return out

    ham = None
    for i in range(sites):
        terms = [(-h, [x if k == i else eye for k in range(sites)])]
        if i + 1 < sites:
            terms.append((-j, [z if k in (i, i + 1) else eye for k in range(sites)]))
        for coeff, ops in terms:
            term = chain(ops) * coeff
            ham = term if ham is None else ham + term
    return float(tf.linalg.eigvalsh(ham).numpy()[0])


def mpo(h, j=1.0):
    """W[w_left, w_right, s, t] of the Hamiltonian: the left boundary picks w = 2, the right
    w = 0; 2 -> 2 carries the identity, 2 -> 0 the field, 2 -> 1 -> 0 the coupling."""
    x = np.array([[0.0, 1.0], [1.0, 0.0]])
    z = np.array([[1.0, 0.0], [0.0, -1.0]])
    w = np.zeros((3, 3, 2, 2))
    w[0, 0] = np.eye(2)
    w[1, 0] = z
    w[2, 0] = -h * x
    w[2, 1] = -j * z
    w[2, 2] = np.eye(2)
    return tf.tensor(w)


def energy(mps, w):
    """<psi|H|psi> / <psi|psi>, contracted site by site (cost linear in the chain length)."""
    env = tf.tensor(np.eye(3)[2].reshape(1, 3, 1))
    norm = tf.tensor(np.ones((1, 1)))
    for a in mps:
        env = tf.einsum("xwy,xtc,wvst,ysd->cvd", env, a, w, a)
        norm = tf.einsum("xy,xtc,ytd->cd", norm, a, a)
    return env[0, 0, 0] / norm[0, 0]


def bond_dims(sites, bond):
    return [min(2 ** i, 2 ** (sites - i), bond) for i in range(sites + 1)]


def recanonicalise(mps, bond):
    """Left-canonical form by a left-to-right sweep of truncated SVDs; normalises the state."""
    out = list(mps)
    for i in range(len(out) - 1):
        move_center_right(out, i, bond)
    last = out[-1]
    out[-1] = last / float(np.linalg.norm(last.numpy()))
    return out


def move_center_right(mps, i, bond):
    """A_i = U (left-orthonormal), A_{i+1} <- S Vh A_{i+1}: a truncated SVD moves the
    orthogonality centre from site i to site i + 1."""
    dl, d, dr = mps[i].shape
    u, s, vh = tf.linalg.svd(mps[i].reshape(dl * d, dr), max_rank=bond, rtol=1e-14)
    mps[i] = u.reshape(dl, d, u.shape[1])
    mps[i + 1] = tf.einsum("r,rc,csd->rsd", s, vh, mps[i + 1])


def move_center_left(mps, i, bond):
    """A_i = Vh (right-orthonormal), A_{i-1} <- A_{i-1} U S."""
    dl, d, dr = mps[i].shape
    u, s, vh = tf.linalg.svd(mps[i].reshape(dl, d * dr), max_rank=bond, rtol=1e-14)
    mps[i] = vh.reshape(vh.shape[0], d, dr)
    mps[i - 1] = tf.einsum("asl,lr,r->asr", mps[i - 1], u, s)


class SiteProblem:
    """The energy and its gradient as functions of one site's tensor, the others fixed. With the
    orthogonality centre on that site the metric of the parameters is the identity, which keeps
    the gradient method well conditioned (a gradient on every site at once is not: its metric
    holds the squared Schmidt values)."""

    def __init__(self, mps, site, w):
        self.mps, self.site, self.w = mps, site, w
        self.shape = mps[site].shape

    def value_and_grad(self, theta):
        a = tf.tensor(theta.reshape(self.shape)).requires_grad_()
        mps = list(self.mps)
        mps[self.site] = a
        e = energy(mps, self.w)
        e.backward()
        return e.item(), a.grad.numpy().ravel()


def lbfgs(problem, theta, steps, memory=10, gtol=1e-11):
    value, grad = problem.value_and_grad(theta)
    s_hist, y_hist = [], []
    for _ in range(steps):
        if np.linalg.norm(grad) < gtol:
            break
        q = grad.copy()
        alphas = []
        for s, y in reversed(list(zip(s_hist, y_hist))):
            a = s @ q / (y @ s)
            alphas.append(a)
            q -= a * y
        if s_hist:
            q *= (s_hist[-1] @ y_hist[-1]) / (y_hist[-1] @ y_hist[-1])
        for (s, y), a in zip(zip(s_hist, y_hist), reversed(alphas)):
            q += s * (a - y @ q / (y @ s))
        direction = -q
        slope = grad @ direction
        if slope >= 0:  # not a descent direction: restart from the gradient
            s_hist, y_hist, direction, slope = [], [], -grad, -(grad @ grad)
        step = 1.0
        while True:
            new_theta = theta + step * direction
            new_value, new_grad = problem.value_and_grad(new_theta)
            if new_value <= value + 1e-4 * step * slope:
                break
            step *= 0.5
            if step < 1e-10:  # no decrease left at this precision
                return theta, value
        s, y = new_theta - theta, new_grad - grad
        if y @ s > 1e-300:
            s_hist.append(s)
            y_hist.append(y)
            if len(s_hist) > memory:
                s_hist.pop(0)
                y_hist.pop(0)
        theta, value, grad = new_theta, new_value, new_grad
    return theta, value


def optimise_site(mps, site, w, steps):
    problem = SiteProblem(mps, site, w)
    theta, value = lbfgs(problem, mps[site].numpy().ravel(), steps)
    mps[site] = tf.tensor(theta.reshape(problem.shape))
    return value


def ground_state(sites, bond, h=1.0, sweeps=12, steps=25, seed=0, tol=1e-12):
    """Sweeps of single-site L-BFGS with truncated-SVD moves of the orthogonality centre;
    stops when a sweep lowers the energy by less than tol."""
    rng = np.random.default_rng(seed)
    dims = bond_dims(sites, bond)
    mps = [tf.tensor(rng.standard_normal((dims[i], 2, dims[i + 1]))) for i in range(sites)]
    mps = recanonicalise(mps, bond)  # centre on the last site
    w = mpo(h)
    value = None
    for _ in range(sweeps):
        for site in range(sites - 1, 0, -1):
            optimise_site(mps, site, w, steps)
            move_center_left(mps, site, bond)
        for site in range(sites - 1):
            optimise_site(mps, site, w, steps)
            move_center_right(mps, site, bond)
        new_value = optimise_site(mps, sites - 1, w, steps)
        done = value is not None and value - new_value < tol
        value = new_value
        if done:
            break
    return value


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sites", type=int, default=12)
    p.add_argument("--bond", type=int, default=16)
    p.add_argument("--field", type=float, default=1.0)
    p.add_argument("--tol", type=float, default=1e-8)
    args = p.parse_args(argv)
    start = time.perf_counter()
    e = ground_state(args.sites, args.bond, args.field)
    exact = exact_energy(args.sites, args.field)
    print(f"sites {args.sites}, bond {args.bond}, h {args.field}: MPS energy {e:.12f}, "
          f"exact {exact:.12f}, error {e - exact:.2e} ({time.perf_counter() - start:.1f} s)")
    if args.sites <= 10:
        dense = dense_energy(args.sites, args.field)
        print(f"dense diagonalisation of the 2^{args.sites} Hamiltonian: {dense:.12f}")
        if abs(dense - exact) > 1e-10:
            return 1
    return 0 if abs(e - exact) <= args.tol else 1


if __name__ == "__main__":
    sys.exit(main())
