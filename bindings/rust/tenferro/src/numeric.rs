//! NumPy's numerically careful functions, float predicates and the reductions any, all, var, std
//! and logsumexp (`tenferro/ops_numeric.h`). They work on every kind of tensor and differentiate
//! in every engine where a derivative exists; predicates give Bool tensors.

use tenferro_sys as sys;

use crate::error::{count, Result};
use crate::tensor::{new_tensor, Tensor};

/// log(e^a + e^b) without overflow (real floats).
pub fn logaddexp(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    // SAFETY: live handles.
    new_tensor(|out| unsafe { sys::tfe_logaddexp(out, a.as_ptr(), b.as_ptr()) })
}

/// sqrt(a^2 + b^2) without overflow or underflow (real floats).
pub fn hypot(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    // SAFETY: live handles.
    new_tensor(|out| unsafe { sys::tfe_hypot(out, a.as_ptr(), b.as_ptr()) })
}

/// |a| with the sign of b (real floats; b = -0 counts as negative).
pub fn copysign(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    // SAFETY: live handles.
    new_tensor(|out| unsafe { sys::tfe_copysign(out, a.as_ptr(), b.as_ptr()) })
}

/// NumPy's closeness |a - b| <= atol + rtol |b| elementwise (Bool).
pub fn isclose(a: &Tensor, b: &Tensor, rtol: f64, atol: f64, equal_nan: bool) -> Result<Tensor> {
    // SAFETY: live handles.
    new_tensor(|out| unsafe {
        sys::tfe_isclose(
            out,
            a.as_ptr(),
            b.as_ptr(),
            rtol,
            atol,
            i32::from(equal_nan),
        )
    })
}

/// Whether every element is close ([`isclose`]), as a rank-0 Bool tensor.
pub fn allclose(a: &Tensor, b: &Tensor, rtol: f64, atol: f64, equal_nan: bool) -> Result<Tensor> {
    // SAFETY: live handles.
    new_tensor(|out| unsafe {
        sys::tfe_allclose(
            out,
            a.as_ptr(),
            b.as_ptr(),
            rtol,
            atol,
            i32::from(equal_nan),
        )
    })
}

type AxesFn = unsafe extern "C" fn(
    *mut *mut sys::tfe_tensor,
    *const sys::tfe_tensor,
    i32,
    *const i64,
    i32,
) -> i32;
type DdofFn = unsafe extern "C" fn(
    *mut *mut sys::tfe_tensor,
    *const sys::tfe_tensor,
    i32,
    *const i64,
    f64,
    i32,
) -> i32;

fn over_axes(f: AxesFn, x: &Tensor, axes: &[i64], keepdims: bool, what: &str) -> Result<Tensor> {
    let n = count(axes.len(), what)?;
    // SAFETY: `f` takes (out, x, n_axes, axes, keepdims); axes has n entries.
    new_tensor(|out| unsafe { f(out, x.as_ptr(), n, axes.as_ptr(), i32::from(keepdims)) })
}

fn with_ddof(
    f: DdofFn,
    x: &Tensor,
    axes: &[i64],
    ddof: f64,
    keepdims: bool,
    what: &str,
) -> Result<Tensor> {
    let n = count(axes.len(), what)?;
    // SAFETY: `f` takes (out, x, n_axes, axes, ddof, keepdims); axes has n entries.
    new_tensor(|out| unsafe { f(out, x.as_ptr(), n, axes.as_ptr(), ddof, i32::from(keepdims)) })
}

impl Tensor {
    /// 1 / (1 + e^-x), accurate in both tails.
    pub fn sigmoid(&self) -> Result<Tensor> {
        // SAFETY: live handle.
        new_tensor(|out| unsafe { sys::tfe_sigmoid(out, self.as_ptr()) })
    }

    /// x * x, dtype kept.
    pub fn square(&self) -> Result<Tensor> {
        // SAFETY: live handle.
        new_tensor(|out| unsafe { sys::tfe_square(out, self.as_ptr()) })
    }

    /// 1 / x (Bool and integers in F64).
    pub fn reciprocal(&self) -> Result<Tensor> {
        // SAFETY: live handle.
        new_tensor(|out| unsafe { sys::tfe_reciprocal(out, self.as_ptr()) })
    }

    /// The argument in (-pi, pi] (0 or pi for real tensors), in degrees when `deg`.
    pub fn angle(&self, deg: bool) -> Result<Tensor> {
        // SAFETY: live handle.
        new_tensor(|out| unsafe { sys::tfe_angle(out, self.as_ptr(), i32::from(deg)) })
    }

    /// Bool: NaN elements (either part for complex).
    pub fn isnan(&self) -> Result<Tensor> {
        // SAFETY: live handle.
        new_tensor(|out| unsafe { sys::tfe_isnan(out, self.as_ptr()) })
    }

    /// Bool: infinite elements (either part for complex).
    pub fn isinf(&self) -> Result<Tensor> {
        // SAFETY: live handle.
        new_tensor(|out| unsafe { sys::tfe_isinf(out, self.as_ptr()) })
    }

    /// Bool: finite elements (both parts for complex).
    pub fn isfinite(&self) -> Result<Tensor> {
        // SAFETY: live handle.
        new_tensor(|out| unsafe { sys::tfe_isfinite(out, self.as_ptr()) })
    }

    /// NaN, +inf and -inf replaced; `None` for an infinity selects the dtype's largest finite
    /// value (its negative for -inf).
    pub fn nan_to_num(&self, nan: f64, posinf: Option<f64>, neginf: Option<f64>) -> Result<Tensor> {
        let (p, n) = (posinf.unwrap_or(f64::NAN), neginf.unwrap_or(f64::NAN));
        // SAFETY: live handle.
        new_tensor(|out| unsafe { sys::tfe_nan_to_num(out, self.as_ptr(), nan, p, n) })
    }

    /// Bool: whether some element along `axes` (empty: all) is nonzero.
    pub fn any(&self, axes: &[i64], keepdims: bool) -> Result<Tensor> {
        over_axes(sys::tfe_any, self, axes, keepdims, "Tensor::any")
    }

    /// Bool: whether every element along `axes` (empty: all) is nonzero.
    pub fn all(&self, axes: &[i64], keepdims: bool) -> Result<Tensor> {
        over_axes(sys::tfe_all, self, axes, keepdims, "Tensor::all")
    }

    /// Variance over `axes` (empty: all) with n - ddof in the denominator; real for complex.
    pub fn var(&self, axes: &[i64], ddof: f64, keepdims: bool) -> Result<Tensor> {
        with_ddof(sys::tfe_var, self, axes, ddof, keepdims, "Tensor::var")
    }

    /// Standard deviation: the square root of [`Tensor::var`].
    pub fn std(&self, axes: &[i64], ddof: f64, keepdims: bool) -> Result<Tensor> {
        with_ddof(sys::tfe_std, self, axes, ddof, keepdims, "Tensor::std")
    }

    /// log(sum(e^x)) over `axes` (empty: all) without overflow (real floats).
    pub fn logsumexp(&self, axes: &[i64], keepdims: bool) -> Result<Tensor> {
        over_axes(
            sys::tfe_logsumexp,
            self,
            axes,
            keepdims,
            "Tensor::logsumexp",
        )
    }
}
