//! Running sums and products, sorting, top-k and arg-reductions along one axis
//! (`tenferro/ops_order.h`). Axes are the library's column-major dims; a negative axis counts
//! from the end. Ordering is stable and puts NaN last, descending included.

use std::ptr;

use tenferro_sys as sys;

use crate::error::{check, Result};
use crate::tensor::{new_tensor, Tensor};

/// Inclusive running sum along `axis` (Bool and I32 accumulate in I64; integers wrap).
pub fn cumsum(x: &Tensor, axis: i64) -> Result<Tensor> {
    // SAFETY: live handle.
    new_tensor(|out| unsafe { sys::tfe_cumsum(out, x.as_ptr(), axis) })
}

/// Inclusive running product along `axis` (Bool and I32 accumulate in I64; integers wrap).
pub fn cumprod(x: &Tensor, axis: i64) -> Result<Tensor> {
    // SAFETY: live handle.
    new_tensor(|out| unsafe { sys::tfe_cumprod(out, x.as_ptr(), axis) })
}

/// The stable sorting permutation along `axis` (I64); NaN last.
pub fn argsort(x: &Tensor, axis: i64, descending: bool) -> Result<Tensor> {
    // SAFETY: live handle.
    new_tensor(|out| unsafe { sys::tfe_argsort(out, x.as_ptr(), axis, i32::from(descending)) })
}

/// `x` sorted along `axis` (stable, NaN last); differentiable.
pub fn sort(x: &Tensor, axis: i64, descending: bool) -> Result<Tensor> {
    // SAFETY: live handle.
    new_tensor(|out| unsafe { sys::tfe_sort(out, x.as_ptr(), axis, i32::from(descending)) })
}

/// The `k` largest (`largest == false`: smallest) elements along `axis`, in order, and their
/// positions (I64).
pub fn topk(x: &Tensor, k: i64, axis: i64, largest: bool) -> Result<(Tensor, Tensor)> {
    let (mut values, mut indices) = (ptr::null_mut(), ptr::null_mut());
    // SAFETY: live handle; both out pointers are live locals.
    check(unsafe {
        sys::tfe_topk(
            &mut values,
            &mut indices,
            x.as_ptr(),
            k,
            axis,
            i32::from(largest),
        )
    })?;
    Ok((Tensor::from_owned(values)?, Tensor::from_owned(indices)?))
}

/// Position (I64) of the first maximum along `axis` (dropped); NaN counts as the maximum.
pub fn argmax(x: &Tensor, axis: i64) -> Result<Tensor> {
    // SAFETY: live handle.
    new_tensor(|out| unsafe { sys::tfe_argmax(out, x.as_ptr(), axis) })
}

/// Position (I64) of the first minimum along `axis` (dropped); NaN counts as the minimum.
pub fn argmin(x: &Tensor, axis: i64) -> Result<Tensor> {
    // SAFETY: live handle.
    new_tensor(|out| unsafe { sys::tfe_argmin(out, x.as_ptr(), axis) })
}
