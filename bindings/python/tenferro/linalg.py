"""Linear algebra (``tenferro.linalg``), over include/tenferro/linalg.h.

Matrices are the FIRST two dims and batch dims follow (``[M,N,B..]``, unlike NumPy's
``[..,M,N]``); two-operand functions promote to their joined float dtype and broadcast batch
dims left-aligned. Inputs are F32, F64, C32 or C64. Every function works eagerly, records for
eager AD (``requires_grad``), traces on symbolic tensors, and has a derivative. Failures raise
SingularError (solve, inv of an exactly singular matrix; the message names the batch index),
NumericalError (cholesky of a matrix that is not positive definite), NonConvergenceError.

>>> import tenferro as tf
>>> a = tf.tensor([[4.0, 1.0], [2.0, 3.0]])
>>> float(tf.linalg.det(a).numpy())
10.0
"""

from . import tenferro_c as _c
from ._core import _as_tensor, _wrap
from . import _reduce as _rd
from . import _linalg_fronts
from ._linalg_fronts import *  # noqa: F401,F403 (the functions without a hand-written front)
from ._linalg_options import options as _options

import collections as _collections
import math as _math

import numpy as _np

__all__ = ["solve", "solve_triangular", "cholesky", "qr", "svd", "svdvals", "eigh", "eigvalsh",
           "eig", "eigvals", "lu_factor", "lu_solve", "lu", "inv", "det", "slogdet", "matrix_exp",
           "pinv", "lstsq", "norm", "matrix_norm", "vector_norm", "cond", "matrix_power",
           "multi_dot", "vecdot", "vander", "tensorinv", "tensorsolve", "svd_truncated",
           "qr_pivoted", "QRResult", "SVDResult", "QRPivotedResult", "EighResult", "EigResult",
           "SlogdetResult", "LUResult", "LUFactorResult",
           "LstsqResult", "matrix_rank", "logdet", "cholesky_solve"] + _linalg_fronts.__all__

_NORMS = {"fro": 0, "nuc": 1, 1: 2, -1: 3, 2: 4, -2: 5, _math.inf: 6, -_math.inf: 7}


# Factorisations return named tuples with NumPy's field names (``eigh(a).eigenvalues``); they
# still unpack as plain tuples.
QRResult = _collections.namedtuple("QRResult", "Q R")
QRPivotedResult = _collections.namedtuple("QRPivotedResult", "Q R P")
LstsqResult = _collections.namedtuple("LstsqResult", "solution residuals rank singular_values")
SVDResult = _collections.namedtuple("SVDResult", "U S Vh")
EighResult = _collections.namedtuple("EighResult", "eigenvalues eigenvectors")
EigResult = _collections.namedtuple("EigResult", "eigenvalues eigenvectors")
SlogdetResult = _collections.namedtuple("SlogdetResult", "sign logabsdet")
LUResult = _collections.namedtuple("LUResult", "P L U")
LUFactorResult = _collections.namedtuple("LUFactorResult", "LU pivots info")

def _norm_code(ord):
    try:
        return _NORMS[ord]
    except (KeyError, TypeError):
        raise ValueError(f"unknown matrix norm order {ord!r}: 'fro', 'nuc', 1, -1, 2, -2, inf, "
                         "-inf") from None


def _pair(a, b):
    a = _as_tensor(a)
    return a, _as_tensor(b, a)


def solve(a, b):
    """X with A X = B; a [N,N,B..], b [N,K,B..] (rank >= 2). One LU factorisation per matrix."""
    a, b = _pair(a, b)
    return _wrap(_c.tfe_linalg_solve(a._h, b._h))


def solve_triangular(a, b, *, upper=False, left=True, unit_diagonal=False, trans="N"):
    """op(A) X = B (left) or X op(A) = B with A triangular (only its triangle is read);
    trans is 'N', 'T' or 'C'."""
    a, b = _pair(a, b)
    o = _options(upper=upper, left=left, unit_diagonal=unit_diagonal, trans=trans)
    return _wrap(_c.tfe_linalg_solve_triangular(a._h, b._h, o))


def cholesky(a, *, upper=False):
    """L with A = L L^H from the lower triangle (upper=True: U with A = U^H U from the upper);
    derivatives take A as Hermitian."""
    return _wrap(_c.tfe_linalg_cholesky_ex(_as_tensor(a)._h, _options(upper=upper)))


def qr(a, mode="reduced", *, positive_diagonal=False, pivoting=False):
    """QR: mode 'reduced' (Q [M,K], R [K,N]) or 'complete' (Q [M,M], R [M,N]);
    positive_diagonal gives R a real non-negative diagonal. Never fails on rank deficiency.

    pivoting=True: QR with column pivoting (rank-revealing, as ``scipy.linalg.qr(pivoting=True)``):
    (Q, R, P) with A[:, P] = Q R, |diag(R)| non-increasing and P an int64 permutation [N,B..];
    the derivative is that of Q and R at the fixed column order."""
    if mode not in ("reduced", "complete"):
        raise ValueError(f"mode must be 'reduced' or 'complete', not {mode!r}")
    if pivoting:
        if positive_diagonal:
            raise ValueError("qr: positive_diagonal and pivoting cannot be combined")
        return qr_pivoted(a, mode)
    o = _options(full_matrices=mode == "complete", positive_diagonal=positive_diagonal)
    q, r = _c.tfe_linalg_qr_ex(_as_tensor(a)._h, o)
    return QRResult(_wrap(q), _wrap(r))


def svd(a, full_matrices=False, *, derivative_eps=0.0, max_rank=None, rtol=None, atol=None):
    """SVD: (U, S real descending, Vh) with A = U diag(S) Vh; reduced unless full_matrices.

    Truncated when max_rank, rtol or atol is given: keeps at most max_rank singular triplets, and
    only those with S > max(atol, rtol * S.max()) of their matrix. A batch keeps one rank R (the
    largest kept count of its matrices, min(max_rank, K) in traced functions); the triplets a
    matrix does not keep are zeros. The derivative is exact for functions of the kept factors
    while kept and discarded singular values are separated."""
    if max_rank is not None or rtol is not None or atol is not None:
        if full_matrices:
            raise ValueError("svd: full_matrices cannot be combined with max_rank, rtol or atol")
        return svd_truncated(a, max_rank, rtol=rtol, atol=atol, derivative_eps=derivative_eps)
    o = _options(full_matrices=full_matrices, derivative_eps=derivative_eps)
    u, s, vh = _c.tfe_linalg_svd_ex(_as_tensor(a)._h, o)
    return SVDResult(_wrap(u), _wrap(s), _wrap(vh))


def svd_truncated(a, max_rank=None, *, rtol=None, atol=None, derivative_eps=0.0):
    """Truncated SVD (also ``svd(a, max_rank=, rtol=, atol=)``): (U, S, Vh) keeping at most
    max_rank singular triplets (None: no limit), and only those with S > max(atol, rtol * S.max())
    of their matrix. A batch keeps one rank R (the largest kept count of its matrices;
    min(max_rank, K) in traced functions and dataflow contexts); the triplets a matrix does not
    keep are zeros. The derivative is exact for functions of the kept factors while kept and
    discarded singular values are separated."""
    if max_rank is not None and (isinstance(max_rank, bool) or int(max_rank) != max_rank
                                 or max_rank < 0):
        raise ValueError(f"svd: max_rank must be a non-negative integer, not {max_rank!r}")
    for name, tol in (("rtol", rtol), ("atol", atol)):
        if tol is not None and not (_math.isfinite(tol) and tol >= 0):
            raise ValueError(f"svd: {name} must be finite and >= 0, not {tol!r}")
    o = _options(derivative_eps=derivative_eps)
    _c.tfe_linalg_options_set_max_rank(o, -1 if max_rank is None else int(max_rank))
    _c.tfe_linalg_options_set_cutoff(o, 0.0 if rtol is None else float(rtol),
                                     0.0 if atol is None else float(atol))
    u, s, vh = _c.tfe_linalg_svd_truncated(_as_tensor(a)._h, o)
    return SVDResult(_wrap(u), _wrap(s), _wrap(vh))


def qr_pivoted(a, mode="reduced"):
    """QR with column pivoting (also ``qr(a, pivoting=True)``), rank-revealing as
    ``scipy.linalg.qr(pivoting=True)``: (Q, R, P) with A[:, P] = Q R, |diag(R)| non-increasing
    and P an int64 permutation [N,B..]; mode 'reduced' or 'complete' as qr. The derivative is
    that of Q and R at the fixed column order."""
    if mode not in ("reduced", "complete"):
        raise ValueError(f"mode must be 'reduced' or 'complete', not {mode!r}")
    o = _options(full_matrices=mode == "complete")
    q, r, p = _c.tfe_linalg_qr_pivoted(_as_tensor(a)._h, o)
    return QRPivotedResult(_wrap(q), _wrap(r), _wrap(p))


def svdvals(a):
    """The singular values alone, descending."""
    return _wrap(_c.tfe_linalg_svdvals(_as_tensor(a)._h))


def eigh(a, UPLO="L", *, derivative_eps=0.0):
    """Hermitian eigendecomposition from the UPLO triangle: (w real ascending, V unitary)."""
    o = _options(upper=_upper(UPLO), derivative_eps=derivative_eps)
    w, v = _c.tfe_linalg_eigh_ex(_as_tensor(a)._h, o)
    return EighResult(_wrap(w), _wrap(v))


def eigvalsh(a, UPLO="L"):
    """Hermitian eigenvalues alone, ascending."""
    return _wrap(_c.tfe_linalg_eigvalsh(_as_tensor(a)._h, _options(upper=_upper(UPLO))))


def eig(a, *, derivative_eps=0.0):
    """General eigendecomposition: (w, V) complex, unit-norm columns, LAPACK's order."""
    w, v = _c.tfe_linalg_eig_ex(_as_tensor(a)._h, _options(derivative_eps=derivative_eps))
    return EigResult(_wrap(w), _wrap(v))


def eigvals(a):
    """General eigenvalues alone (complex)."""
    return _wrap(_c.tfe_linalg_eigvals(_as_tensor(a)._h))


def lu_factor(a):
    """Packed LU (getrf): (lu, pivots I32 1-based, info I32); singular input is not an error."""
    lu_, piv, info = _c.tfe_linalg_lu_factor(_as_tensor(a)._h)
    return LUFactorResult(_wrap(lu_), _wrap(piv), _wrap(info))


def lu_solve(lu, pivots, b, *, trans="N"):
    """op(A) X = B from lu_factor's lu and pivots."""
    lu = _as_tensor(lu)
    return _wrap(_c.tfe_linalg_lu_solve(lu._h, _as_tensor(pivots, lu)._h, _as_tensor(b, lu)._h,
                                        _options(trans=trans)))


def lu(a):
    """A = P L U unpacked: (P [M,M], L [M,K] unit lower, U [K,N] upper)."""
    p, l_, u = _c.tfe_linalg_lu(_as_tensor(a)._h)
    return LUResult(_wrap(p), _wrap(l_), _wrap(u))


def inv(a):
    """The inverse (solves A X = I)."""
    return _wrap(_c.tfe_linalg_inv(_as_tensor(a)._h))


def det(a):
    """The determinant per matrix (0 for an exactly singular one)."""
    return _wrap(_c.tfe_linalg_det(_as_tensor(a)._h))


def slogdet(a):
    """(sign, logabs) with det = sign * exp(logabs); sign 0 and logabs -inf when singular."""
    sign, logabs = _c.tfe_linalg_slogdet(_as_tensor(a)._h)
    return SlogdetResult(_wrap(sign), _wrap(logabs))


def _upper(uplo):
    if uplo not in ("L", "U"):
        raise ValueError(f"UPLO must be 'L' or 'U', not {uplo!r}")
    return uplo == "U"


def matrix_exp(a):
    """The matrix exponential (scaling and squaring, Pade 13)."""
    return _wrap(_c.tfe_linalg_matrix_exp(_as_tensor(a)._h))


def pinv(a, rtol=None, hermitian=False):
    """The pseudo-inverse; singular values below rtol * max are dropped (default
    max(M, N) * eps)."""
    return _wrap(_c.tfe_linalg_pinv(_as_tensor(a)._h, _options(rtol=rtol, hermitian=hermitian)))


def lstsq(a, b, rtol=None):
    """Least squares as NumPy: ``LstsqResult(solution, residuals, rank, singular_values)``.

    solution is the minimum-norm X minimising |A X - B| (differentiable); residuals are the
    squared 2-norms of the columns of A X - B when A is tall (M > N) with full rank, else an
    empty tensor; rank (int64) and singular_values are A's (per batch element). rtol is the
    cut-off for small singular values relative to the largest (None: max(M, N) * eps)."""
    a, b = _pair(a, b)
    x = _wrap(_c.tfe_linalg_lstsq(a._h, b._h, _options(rtol=rtol)))
    s = svdvals(a)
    rank = _rank_from_svdvals(s, a, rtol)
    m, n = a.shape[0], a.shape[1]
    if m > n and bool((rank == n).numpy().all()):
        r = a @ x - b
        res = _rd.sum((r.conj() * r).real, axis=0)
    else:
        res = _wrap(_c.tfe_zeros(_c.tfe_tensor_context(a._h), _c.tfe_tensor_dtype(s._h), [0]))
    return LstsqResult(x, res, rank, s)


def _rank_from_svdvals(s, a, rtol):
    """The number of singular values above rtol * s_max (per batch element), int64."""
    if rtol is None:
        rtol = max(a.shape[0], a.shape[1]) * float(_np.finfo(s.dtype).eps)
    if s.shape[0] == 0:
        return _rd.sum(s > 0, axis=0)
    tol = _rd.max(s, axis=0, keepdims=True) * rtol
    return _rd.sum(s > tol, axis=0)


def matrix_rank(a, tol=None, hermitian=False, *, rtol=None, atol=None):
    """The number of singular values (|eigenvalues| with hermitian=True) above
    max(atol, rtol * s_max), per matrix of [M, N, batch..]; int64, not differentiable. `tol` is
    NumPy's absolute tolerance (the same as atol). Defaults as NumPy and PyTorch: rtol is
    max(M, N) * eps when no absolute tolerance is given, else 0."""
    a = _as_tensor(a)
    if tol is not None and atol is not None:
        raise TypeError("tenferro.linalg.matrix_rank(): give tol or atol, not both")
    absolute = tol if tol is not None else atol
    if absolute is not None and rtol is None:
        rtol = 0.0  # an explicit absolute tolerance alone decides, even tol=0
    o = _options(rtol=rtol, hermitian=hermitian)
    return _wrap(_c.tfe_linalg_matrix_rank(a._h, 0.0 if absolute is None else float(absolute), o))


def logdet(a):
    """log(det(A)): for real A, NaN where det < 0 (-inf where det = 0); for complex A the
    principal complex logarithm. Differentiable where det != 0."""
    return _wrap(_c.tfe_linalg_logdet(_as_tensor(a)._h))


def cholesky_solve(b, l, upper=False):  # noqa: E741 (PyTorch's argument order and names)
    """X with A X = B from A's Cholesky factor: A = L L^H (upper=False, `l` lower) or U^H U
    (upper=True). b is [N, K, batch..]. Differentiable in b and the factor."""
    l, b = _pair(l, b)
    return _wrap(_c.tfe_linalg_cholesky_solve(l._h, b._h, _options(upper=upper)))


def matrix_norm(a, ord="fro"):
    """Matrix norm over the first two dims: 'fro', 'nuc', 1, -1, 2, -2, inf, -inf."""
    return _wrap(_c.tfe_linalg_matrix_norm(_as_tensor(a)._h, _norm_code(ord)))


def vector_norm(x, ord=2, axis=None):
    """(sum |x|^ord)^(1/ord) over axis (an int, a sequence, or None for all); inf, -inf, 0."""
    axes = () if axis is None else ((axis,) if isinstance(axis, int) else tuple(axis))
    return _wrap(_c.tfe_linalg_vector_norm(_as_tensor(x)._h, float(ord), axes))


def norm(x, ord=None, axis=None):
    """NumPy's norm in tenferro's layout: a matrix norm when axis is (0, 1) (or None with a
    matrix order on a rank-2 input), else a vector norm (ord None: 2, over all axes by
    default)."""
    x = _as_tensor(x)
    if axis is not None and not isinstance(axis, int) and len(tuple(axis)) == 2:
        if tuple(axis) != (0, 1):
            raise ValueError("matrix norms are over the first two dims (axis=(0, 1))")
        return matrix_norm(x, "fro" if ord is None else ord)
    if axis is None and ord is not None and x.ndim == 2:
        return matrix_norm(x, ord)
    return vector_norm(x, 2 if ord is None else ord, axis)


def cond(a, p=None):
    """The condition number in a matrix norm order (None: 2)."""
    return _wrap(_c.tfe_linalg_cond(_as_tensor(a)._h, _norm_code(2 if p is None else p)))


def matrix_power(a, n):
    """a^n by repeated squaring (n < 0 inverts; n == 0 gives the identity)."""
    return _wrap(_c.tfe_linalg_matrix_power(_as_tensor(a)._h, int(n)))


def multi_dot(arrays):
    """The product of the matrices in the cheapest order; the ends may be vectors."""
    ts = [_as_tensor(arrays[0])]
    ts += [_as_tensor(x, ts[0]) for x in arrays[1:]]
    return _wrap(_c.tfe_linalg_multi_dot([t._h for t in ts]))


def vecdot(a, b, axis=0):
    """sum(conj(a) * b) over axis (default 0: vectors are the first dim in tenferro)."""
    a, b = _pair(a, b)
    return _wrap(_c.tfe_linalg_vecdot(a._h, b._h, int(axis)))


def vander(x, N=None):
    """[len(x), N] with columns x^0 .. x^(N-1) (increasing, as torch.linalg.vander)."""
    x = _as_tensor(x)
    return _wrap(_c.tfe_linalg_vander(x._h, x.shape[0] if N is None else int(N)))


def tensorinv(a, ind=2):
    """The inverse of a as a map from its last dims to its first ind dims."""
    return _wrap(_c.tfe_linalg_tensorinv(_as_tensor(a)._h, int(ind)))


def tensorsolve(a, b):
    """x with tensordot(a, x) = b; a has b's dims followed by x's (column-major grouping)."""
    a, b = _pair(a, b)
    return _wrap(_c.tfe_linalg_tensorsolve(a._h, b._h))
