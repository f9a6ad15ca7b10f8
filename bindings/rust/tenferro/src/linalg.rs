//! Linear algebra (`linalg.h`): every function of the header, differentiable eagerly and when
//! traced.
//!
//! Matrices are the first two dims and further dims are batch dims (`[M, N, B..]`,
//! column-major). Inputs are F32, F64, C32 or C64. Multi-output functions return tuples.
//! Functions with options take an [`Options`], whose default is the library's default for every
//! option.
//!
//! ```
//! # fn main() -> tenferro::Result<()> {
//! use tenferro::{linalg, Context, Tensor};
//! let ctx = Context::new()?;
//! // column-major [[4, 1], [2, 3]]
//! let a = Tensor::from_slice(&ctx, &[4.0, 2.0, 1.0, 3.0], &[2, 2])?;
//! let b = Tensor::from_slice(&ctx, &[1.0, 2.0], &[2, 1])?;
//! let x = linalg::solve(&a, &b)?.to_vec::<f64>()?;
//! assert!((x[0] - 0.1).abs() < 1e-12 && (x[1] - 0.6).abs() < 1e-12);
//! let (w, _v) = linalg::eigh(&a.matmul(&a.transpose(&[1, 0])?)?)?;
//! assert_eq!(w.shape()?, [2]);
//! # Ok(()) }
//! ```

use std::ptr;

use tenferro_sys as sys;

use crate::error::{check, count, Result};
use crate::tensor::{new_tensor, raw_list, Tensor};

/// `op(A)` of [`solve_triangular`] and [`lu_solve`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Transpose {
    /// `A`.
    No,
    /// `A^T`.
    Trans,
    /// `A^H`.
    ConjTrans,
}

/// Matrix norm orders of [`matrix_norm`] and [`cond`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Norm {
    /// Frobenius.
    Fro,
    /// Nuclear: the sum of singular values.
    Nuc,
    /// Largest column sum of `|a|`.
    One,
    /// Smallest column sum of `|a|`.
    NegOne,
    /// Largest singular value.
    Two,
    /// Smallest singular value.
    NegTwo,
    /// Largest row sum of `|a|`.
    Inf,
    /// Smallest row sum of `|a|`.
    NegInf,
}

impl Norm {
    fn to_raw(self) -> i32 {
        match self {
            Norm::Fro => sys::TFE_NORM_FRO,
            Norm::Nuc => sys::TFE_NORM_NUC,
            Norm::One => sys::TFE_NORM_1,
            Norm::NegOne => sys::TFE_NORM_NEG_1,
            Norm::Two => sys::TFE_NORM_2,
            Norm::NegTwo => sys::TFE_NORM_NEG_2,
            Norm::Inf => sys::TFE_NORM_INF,
            Norm::NegInf => sys::TFE_NORM_NEG_INF,
        }
    }
}

/// Options of the `*_ex` functions and of those that always take options. Each field left at
/// `None` keeps the library's default; each applies only to the functions its setter names.
///
/// A plain Rust value (cheap to build and share); it is turned into the library's opaque
/// options object for the duration of each call.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Options {
    upper: Option<bool>,
    left: Option<bool>,
    unit_diagonal: Option<bool>,
    transpose: Option<Transpose>,
    full_matrices: Option<bool>,
    positive_diagonal: Option<bool>,
    derivative_eps: Option<f64>,
    rtol: Option<f64>,
    hermitian: Option<bool>,
}

impl Options {
    /// All defaults.
    pub fn new() -> Options {
        Options::default()
    }

    /// Read (cholesky: return) the upper triangle: cholesky_ex, eigh_ex, eigvalsh,
    /// solve_triangular.
    pub fn upper(mut self, upper: bool) -> Options {
        self.upper = Some(upper);
        self
    }

    /// solve_triangular: `op(A) X = B` (true, the default) or `X op(A) = B`.
    pub fn left(mut self, left: bool) -> Options {
        self.left = Some(left);
        self
    }

    /// solve_triangular: the diagonal of A is taken as 1 and not read.
    pub fn unit_diagonal(mut self, unit: bool) -> Options {
        self.unit_diagonal = Some(unit);
        self
    }

    /// solve_triangular and lu_solve: `op(A)`.
    pub fn transpose(mut self, trans: Transpose) -> Options {
        self.transpose = Some(trans);
        self
    }

    /// qr_ex: complete Q and R; svd_ex: full U and Vh.
    pub fn full_matrices(mut self, full: bool) -> Options {
        self.full_matrices = Some(full);
        self
    }

    /// qr_ex: the gauge with a real non-negative diagonal of R.
    pub fn positive_diagonal(mut self, positive: bool) -> Options {
        self.positive_diagonal = Some(positive);
        self
    }

    /// eigh_ex, eig_ex, svd_ex: Lorentzian broadening `eps >= 0` of the derivatives, so that
    /// near-degenerate spectra give finite derivatives.
    pub fn derivative_eps(mut self, eps: f64) -> Options {
        self.derivative_eps = Some(eps);
        self
    }

    /// pinv and lstsq: singular values below `rtol * max(s)` count as zero.
    pub fn rtol(mut self, rtol: f64) -> Options {
        self.rtol = Some(rtol);
        self
    }

    /// pinv: `a` is Hermitian (eigh instead of svd).
    pub fn hermitian(mut self, hermitian: bool) -> Options {
        self.hermitian = Some(hermitian);
        self
    }

    /// The library's options object for one call (NULL when everything is default).
    fn to_raw(self) -> Result<RawOptions> {
        if self == Options::default() {
            return Ok(RawOptions(ptr::null_mut()));
        }
        let mut raw = RawOptions(ptr::null_mut());
        // SAFETY: valid out pointer; the object is released by RawOptions' Drop.
        check(unsafe { sys::tfe_linalg_options_create(&mut raw.0) })?;
        let o = raw.0;
        // SAFETY (every setter below): `o` is the live options object created above.
        if let Some(v) = self.upper {
            check(unsafe { sys::tfe_linalg_options_set_upper(o, i32::from(v)) })?;
        }
        if let Some(v) = self.left {
            check(unsafe { sys::tfe_linalg_options_set_left(o, i32::from(v)) })?;
        }
        if let Some(v) = self.unit_diagonal {
            check(unsafe { sys::tfe_linalg_options_set_unit_diagonal(o, i32::from(v)) })?;
        }
        if let Some(v) = self.transpose {
            let t = match v {
                Transpose::No => sys::TFE_LINALG_NO_TRANS,
                Transpose::Trans => sys::TFE_LINALG_TRANS,
                Transpose::ConjTrans => sys::TFE_LINALG_CONJ_TRANS,
            };
            check(unsafe { sys::tfe_linalg_options_set_transpose(o, t) })?;
        }
        if let Some(v) = self.full_matrices {
            check(unsafe { sys::tfe_linalg_options_set_full_matrices(o, i32::from(v)) })?;
        }
        if let Some(v) = self.positive_diagonal {
            check(unsafe { sys::tfe_linalg_options_set_positive_diagonal(o, i32::from(v)) })?;
        }
        if let Some(v) = self.derivative_eps {
            check(unsafe { sys::tfe_linalg_options_set_derivative_eps(o, v) })?;
        }
        if let Some(v) = self.rtol {
            check(unsafe { sys::tfe_linalg_options_set_rtol(o, v) })?;
        }
        if let Some(v) = self.hermitian {
            check(unsafe { sys::tfe_linalg_options_set_hermitian(o, i32::from(v)) })?;
        }
        Ok(raw)
    }
}

/// Owns a `tfe_linalg_options` (or NULL for all defaults) during one call.
struct RawOptions(*mut sys::tfe_linalg_options);

impl Drop for RawOptions {
    fn drop(&mut self) {
        // SAFETY: we own the object (NULL-safe).
        unsafe { sys::tfe_linalg_options_release(self.0) }
    }
}

/// Runs a C call with two tensor outputs.
fn two(
    call: impl FnOnce(*mut *mut sys::tfe_tensor, *mut *mut sys::tfe_tensor) -> i32,
) -> Result<(Tensor, Tensor)> {
    let (mut a, mut b) = (ptr::null_mut(), ptr::null_mut());
    check(call(&mut a, &mut b))?;
    Ok((Tensor::from_owned(a)?, Tensor::from_owned(b)?))
}

type Out = *mut *mut sys::tfe_tensor;

/// Runs a C call with three tensor outputs.
fn three(call: impl FnOnce(Out, Out, Out) -> i32) -> Result<(Tensor, Tensor, Tensor)> {
    let (mut a, mut b, mut c) = (ptr::null_mut(), ptr::null_mut(), ptr::null_mut());
    check(call(&mut a, &mut b, &mut c))?;
    Ok((
        Tensor::from_owned(a)?,
        Tensor::from_owned(b)?,
        Tensor::from_owned(c)?,
    ))
}

// SAFETY for every `unsafe` call below: the out pointers come from the helpers above and point
// at locals, the tensor handles are borrowed from live `Tensor`s, and the options pointer is a
// live `RawOptions` (or NULL, which the library reads as all defaults).

/// `X` with `A X = B` (LU; `Status::SINGULAR` for an exactly singular matrix).
pub fn solve(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    new_tensor(|out| unsafe { sys::tfe_linalg_solve(out, a.as_ptr(), b.as_ptr()) })
}

/// Lower `L` with `A = L L^H` from the lower triangle (`Status::NUMERICAL` when not positive
/// definite).
pub fn cholesky(a: &Tensor) -> Result<Tensor> {
    new_tensor(|out| unsafe { sys::tfe_linalg_cholesky(out, a.as_ptr()) })
}

/// [`cholesky`] with options (`upper`: `U` with `A = U^H U`).
pub fn cholesky_ex(a: &Tensor, opts: &Options) -> Result<Tensor> {
    let o = opts.to_raw()?;
    new_tensor(|out| unsafe { sys::tfe_linalg_cholesky_ex(out, a.as_ptr(), o.0) })
}

/// Reduced QR: `(q, r)` with `A = Q R`.
pub fn qr(a: &Tensor) -> Result<(Tensor, Tensor)> {
    two(|q, r| unsafe { sys::tfe_linalg_qr(q, r, a.as_ptr()) })
}

/// [`qr`] with options (`full_matrices`, `positive_diagonal`).
pub fn qr_ex(a: &Tensor, opts: &Options) -> Result<(Tensor, Tensor)> {
    let o = opts.to_raw()?;
    two(|q, r| unsafe { sys::tfe_linalg_qr_ex(q, r, a.as_ptr(), o.0) })
}

/// Reduced SVD: `(u, s, vh)` with `A = U diag(S) Vh`, `s` real and descending.
pub fn svd(a: &Tensor) -> Result<(Tensor, Tensor, Tensor)> {
    three(|u, s, vh| unsafe { sys::tfe_linalg_svd(u, s, vh, a.as_ptr()) })
}

/// [`svd`] with options (`full_matrices`, `derivative_eps`).
pub fn svd_ex(a: &Tensor, opts: &Options) -> Result<(Tensor, Tensor, Tensor)> {
    let o = opts.to_raw()?;
    three(|u, s, vh| unsafe { sys::tfe_linalg_svd_ex(u, s, vh, a.as_ptr(), o.0) })
}

/// The singular values alone, descending.
pub fn svdvals(a: &Tensor) -> Result<Tensor> {
    new_tensor(|out| unsafe { sys::tfe_linalg_svdvals(out, a.as_ptr()) })
}

/// Hermitian eigendecomposition from the lower triangle: `(w, v)`, `w` real ascending, `v`
/// unitary.
pub fn eigh(a: &Tensor) -> Result<(Tensor, Tensor)> {
    two(|w, v| unsafe { sys::tfe_linalg_eigh(w, v, a.as_ptr()) })
}

/// [`eigh`] with options (`upper`, `derivative_eps`).
pub fn eigh_ex(a: &Tensor, opts: &Options) -> Result<(Tensor, Tensor)> {
    let o = opts.to_raw()?;
    two(|w, v| unsafe { sys::tfe_linalg_eigh_ex(w, v, a.as_ptr(), o.0) })
}

/// Hermitian eigenvalues alone, ascending (`upper` from `opts`).
pub fn eigvalsh(a: &Tensor, opts: &Options) -> Result<Tensor> {
    let o = opts.to_raw()?;
    new_tensor(|out| unsafe { sys::tfe_linalg_eigvalsh(out, a.as_ptr(), o.0) })
}

/// General eigendecomposition `(w, v)` with `A V = V diag(w)`, both complex.
pub fn eig(a: &Tensor) -> Result<(Tensor, Tensor)> {
    two(|w, v| unsafe { sys::tfe_linalg_eig(w, v, a.as_ptr()) })
}

/// [`eig`] with options (`derivative_eps`).
pub fn eig_ex(a: &Tensor, opts: &Options) -> Result<(Tensor, Tensor)> {
    let o = opts.to_raw()?;
    two(|w, v| unsafe { sys::tfe_linalg_eig_ex(w, v, a.as_ptr(), o.0) })
}

/// General eigenvalues alone (complex).
pub fn eigvals(a: &Tensor) -> Result<Tensor> {
    new_tensor(|out| unsafe { sys::tfe_linalg_eigvals(out, a.as_ptr()) })
}

/// The inverse (`Status::SINGULAR` as [`solve`]).
pub fn inv(a: &Tensor) -> Result<Tensor> {
    new_tensor(|out| unsafe { sys::tfe_linalg_inv(out, a.as_ptr()) })
}

/// The determinant (0 for an exactly singular matrix).
pub fn det(a: &Tensor) -> Result<Tensor> {
    new_tensor(|out| unsafe { sys::tfe_linalg_det(out, a.as_ptr()) })
}

/// `(sign, logabs)` with `det = sign * exp(logabs)`.
pub fn slogdet(a: &Tensor) -> Result<(Tensor, Tensor)> {
    two(|s, l| unsafe { sys::tfe_linalg_slogdet(s, l, a.as_ptr()) })
}

/// Solves `op(A) X = B` (or `X op(A) = B`) with triangular `A` (`upper`, `left`,
/// `unit_diagonal`, `transpose` from `opts`).
pub fn solve_triangular(a: &Tensor, b: &Tensor, opts: &Options) -> Result<Tensor> {
    let o = opts.to_raw()?;
    new_tensor(|out| unsafe { sys::tfe_linalg_solve_triangular(out, a.as_ptr(), b.as_ptr(), o.0) })
}

/// Packed LU with partial pivoting: `(lu, pivots, info)` (pivots and info I32, LAPACK's
/// 1-based conventions). Singular input is not an error here.
pub fn lu_factor(a: &Tensor) -> Result<(Tensor, Tensor, Tensor)> {
    three(|lu, p, info| unsafe { sys::tfe_linalg_lu_factor(lu, p, info, a.as_ptr()) })
}

/// Solves `op(A) X = B` from [`lu_factor`]'s outputs (`transpose` from `opts`).
pub fn lu_solve(lu: &Tensor, pivots: &Tensor, b: &Tensor, opts: &Options) -> Result<Tensor> {
    let o = opts.to_raw()?;
    new_tensor(|out| unsafe {
        sys::tfe_linalg_lu_solve(out, lu.as_ptr(), pivots.as_ptr(), b.as_ptr(), o.0)
    })
}

/// `A = P L U` unpacked: `(p, l, u)`.
pub fn lu(a: &Tensor) -> Result<(Tensor, Tensor, Tensor)> {
    three(|p, l, u| unsafe { sys::tfe_linalg_lu(p, l, u, a.as_ptr()) })
}

/// The matrix exponential.
pub fn matrix_exp(a: &Tensor) -> Result<Tensor> {
    new_tensor(|out| unsafe { sys::tfe_linalg_matrix_exp(out, a.as_ptr()) })
}

/// The pseudo-inverse (`rtol`, `hermitian` from `opts`).
pub fn pinv(a: &Tensor, opts: &Options) -> Result<Tensor> {
    let o = opts.to_raw()?;
    new_tensor(|out| unsafe { sys::tfe_linalg_pinv(out, a.as_ptr(), o.0) })
}

/// The minimum-norm least-squares solution of `A X = B` (`rtol` from `opts`).
pub fn lstsq(a: &Tensor, b: &Tensor, opts: &Options) -> Result<Tensor> {
    let o = opts.to_raw()?;
    new_tensor(|out| unsafe { sys::tfe_linalg_lstsq(out, a.as_ptr(), b.as_ptr(), o.0) })
}

/// A matrix norm over the first two dims.
pub fn matrix_norm(a: &Tensor, ord: Norm) -> Result<Tensor> {
    new_tensor(|out| unsafe { sys::tfe_linalg_matrix_norm(out, a.as_ptr(), ord.to_raw()) })
}

/// `(sum |x|^ord)^(1/ord)` over `axes` (empty: all); `f64::INFINITY` is the max, `0.0` counts
/// nonzeros.
pub fn vector_norm(x: &Tensor, ord: f64, axes: &[i64]) -> Result<Tensor> {
    let n = count(axes.len(), "linalg::vector_norm")?;
    new_tensor(|out| unsafe { sys::tfe_linalg_vector_norm(out, x.as_ptr(), ord, n, axes.as_ptr()) })
}

/// The condition number in a matrix norm order.
pub fn cond(a: &Tensor, ord: Norm) -> Result<Tensor> {
    new_tensor(|out| unsafe { sys::tfe_linalg_cond(out, a.as_ptr(), ord.to_raw()) })
}

/// `a^n` (n < 0 inverts first; n == 0 is the identity).
pub fn matrix_power(a: &Tensor, n: i64) -> Result<Tensor> {
    new_tensor(|out| unsafe { sys::tfe_linalg_matrix_power(out, a.as_ptr(), n) })
}

/// The product of two or more matrices in the cheapest order (first and last may be vectors).
pub fn multi_dot(xs: &[&Tensor]) -> Result<Tensor> {
    let raw = raw_list(xs);
    let n = count(raw.len(), "linalg::multi_dot")?;
    new_tensor(|out| unsafe { sys::tfe_linalg_multi_dot(out, n, raw.as_ptr()) })
}

/// `sum(conj(a) * b)` over `axis`.
pub fn vecdot(a: &Tensor, b: &Tensor, axis: i64) -> Result<Tensor> {
    new_tensor(|out| unsafe { sys::tfe_linalg_vecdot(out, a.as_ptr(), b.as_ptr(), axis) })
}

/// The Vandermonde matrix `[N, n]` of `x [N]`: column k is `x^k`.
pub fn vander(x: &Tensor, n: i64) -> Result<Tensor> {
    new_tensor(|out| unsafe { sys::tfe_linalg_vander(out, x.as_ptr(), n) })
}

/// The inverse of `a` as a linear map from its last `ndim - ind` dims to its first `ind`.
pub fn tensorinv(a: &Tensor, ind: i64) -> Result<Tensor> {
    new_tensor(|out| unsafe { sys::tfe_linalg_tensorinv(out, a.as_ptr(), ind) })
}

/// `x` with `tensordot(a, x) = b`.
pub fn tensorsolve(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    new_tensor(|out| unsafe { sys::tfe_linalg_tensorsolve(out, a.as_ptr(), b.as_ptr()) })
}

/// The rank of each matrix (I64): singular values (|eigenvalues| with `hermitian`) above
/// `max(atol, rtol * s_max)`; `atol <= 0`: none; `rtol` and `hermitian` from `opts` (the default
/// rtol is `max(M, N) * eps` without atol, else 0).
pub fn matrix_rank(a: &Tensor, atol: f64, opts: &Options) -> Result<Tensor> {
    let o = opts.to_raw()?;
    new_tensor(|out| unsafe { sys::tfe_linalg_matrix_rank(out, a.as_ptr(), atol, o.0) })
}

/// `log det(A)`: NaN for a negative real determinant, the principal log for complex input.
pub fn logdet(a: &Tensor) -> Result<Tensor> {
    new_tensor(|out| unsafe { sys::tfe_linalg_logdet(out, a.as_ptr()) })
}

/// `X` with `A X = B` from the Cholesky factor `l` of `A` (`upper` from `opts`: `A = U^H U`).
pub fn cholesky_solve(l: &Tensor, b: &Tensor, opts: &Options) -> Result<Tensor> {
    let o = opts.to_raw()?;
    new_tensor(|out| unsafe { sys::tfe_linalg_cholesky_solve(out, l.as_ptr(), b.as_ptr(), o.0) })
}

// The regular functions of linalg.h without a hand-written front above, generated from the header
// (tools/gen_bindings/linalg_fronts.py).
include!("linalg_fronts.rs");
