//! The truncated SVD and QR with column pivoting (`tfe_linalg_svd_truncated`,
//! `tfe_linalg_qr_pivoted`).
//!
//! ```
//! # fn main() -> tenferro::Result<()> {
//! use tenferro::{linalg_truncated, Context, Tensor};
//! let ctx = Context::new()?;
//! // diag(3, 2, 1), column-major
//! let a = Tensor::from_slice(&ctx, &[3.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 1.0], &[3, 3])?;
//! let (_u, s, _vh) = linalg_truncated::svd_truncated(&a, Some(2), 0.0, 0.0)?;
//! assert_eq!(s.to_vec::<f64>()?, [3.0, 2.0]);
//! let (_q, _r, perm) = linalg_truncated::qr_pivoted(&a, false)?;
//! assert_eq!(perm.shape()?, [3]);
//! # Ok(()) }
//! ```

use std::ptr;

use tenferro_sys as sys;

use crate::error::{check, Result};
use crate::tensor::Tensor;

/// Owns a `tfe_linalg_options` during one call.
struct RawOptions(*mut sys::tfe_linalg_options);

impl RawOptions {
    fn new() -> Result<RawOptions> {
        let mut raw = RawOptions(ptr::null_mut());
        // SAFETY: valid out pointer; the object is released by Drop.
        check(unsafe { sys::tfe_linalg_options_create(&mut raw.0) })?;
        Ok(raw)
    }
}

impl Drop for RawOptions {
    fn drop(&mut self) {
        // SAFETY: we own the object (NULL-safe).
        unsafe { sys::tfe_linalg_options_release(self.0) }
    }
}

type Out = *mut *mut sys::tfe_tensor;

fn three(call: impl FnOnce(Out, Out, Out) -> i32) -> Result<(Tensor, Tensor, Tensor)> {
    let (mut a, mut b, mut c) = (ptr::null_mut(), ptr::null_mut(), ptr::null_mut());
    check(call(&mut a, &mut b, &mut c))?;
    Ok((
        Tensor::from_owned(a)?,
        Tensor::from_owned(b)?,
        Tensor::from_owned(c)?,
    ))
}

/// Truncated SVD `(u, s, vh)`: at most `max_rank` triplets (`None`: no limit) with
/// `s > max(atol, rtol * s_max)` of their matrix (`rtol = atol = 0`: no cutoff). A batch keeps
/// one rank; the triplets a matrix does not keep are zeros.
pub fn svd_truncated(
    a: &Tensor,
    max_rank: Option<i64>,
    rtol: f64,
    atol: f64,
) -> Result<(Tensor, Tensor, Tensor)> {
    let o = RawOptions::new()?;
    // SAFETY: `o.0` is the live options object created above.
    check(unsafe { sys::tfe_linalg_options_set_max_rank(o.0, max_rank.unwrap_or(-1)) })?;
    // SAFETY: as above.
    check(unsafe { sys::tfe_linalg_options_set_cutoff(o.0, rtol, atol) })?;
    // SAFETY: the out pointers point at locals, `a` is a live tensor, `o.0` a live options object.
    three(|u, s, vh| unsafe { sys::tfe_linalg_svd_truncated(u, s, vh, a.as_ptr(), o.0) })
}

/// QR with column pivoting `(q, r, perm)`: `a[:, perm] = q r`, `|diag(r)|` non-increasing, perm
/// I64 (0-based); reduced, or complete with `complete`.
pub fn qr_pivoted(a: &Tensor, complete: bool) -> Result<(Tensor, Tensor, Tensor)> {
    let o = RawOptions::new()?;
    // SAFETY: `o.0` is the live options object created above.
    check(unsafe { sys::tfe_linalg_options_set_full_matrices(o.0, i32::from(complete)) })?;
    // SAFETY: the out pointers point at locals, `a` is a live tensor, `o.0` a live options object.
    three(|q, r, p| unsafe { sys::tfe_linalg_qr_pivoted(q, r, p, a.as_ptr(), o.0) })
}
