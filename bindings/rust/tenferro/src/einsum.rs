//! `einsum` and its contraction path (`tenferro/einsum.h`): NumPy's grammar, with ellipsis
//! dims aligned left as the library's broadcasting is.

use std::ffi::CString;

use tenferro_sys as sys;

use crate::error::{check, count, Error, Result, Status};
use crate::tensor::{new_tensor, raw_list, Tensor};

fn subscripts_c(subscripts: &str, what: &str) -> Result<CString> {
    CString::new(subscripts).map_err(|_| {
        Error::new(
            Status::INVALID_ARGUMENT,
            format!("{what}: the subscripts contain a NUL byte"),
        )
    })
}

/// `einsum("ij,jk->ik", &[&a, &b])`: the contraction the subscripts describe, in the order
/// [`einsum_path`] reports. Operands promote to their joint dtype.
pub fn einsum(subscripts: &str, operands: &[&Tensor]) -> Result<Tensor> {
    let s = subscripts_c(subscripts, "tenferro::einsum")?;
    let raw = raw_list(operands);
    let n = count(raw.len(), "tenferro::einsum")?;
    // SAFETY: s is NUL-terminated and raw holds n live handles for the call.
    new_tensor(|out| unsafe { sys::tfe_einsum(out, s.as_ptr(), n, raw.as_ptr()) })
}

/// The pairwise order [`einsum`] contracts in, as `numpy.einsum_path` reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct EinsumPath {
    /// Step s contracts the operands at these positions of the current list (the result goes
    /// to the end of the list).
    pub steps: Vec<(i64, i64)>,
    /// Estimated flops of the whole path.
    pub flops: f64,
    /// Elements of the largest intermediate.
    pub largest: f64,
    /// The proven optimum of the cost model (exhaustive search), else a greedy path.
    pub optimal: bool,
}

/// The contraction path of [`einsum`] for these operands (only their shapes are read).
pub fn einsum_path(subscripts: &str, operands: &[&Tensor]) -> Result<EinsumPath> {
    let s = subscripts_c(subscripts, "tenferro::einsum_path")?;
    let raw = raw_list(operands);
    let n = count(raw.len(), "tenferro::einsum_path")?;
    let mut pairs = vec![0i64; 2 * raw.len().saturating_sub(1)];
    let (mut steps, mut flops, mut largest, mut optimal) = (0i32, 0f64, 0f64, 0i32);
    // SAFETY: pairs has the byte capacity passed; every out pointer is a live local.
    check(unsafe {
        sys::tfe_einsum_path(
            s.as_ptr(),
            n,
            raw.as_ptr(),
            pairs.as_mut_ptr().cast(),
            (pairs.len() * std::mem::size_of::<i64>()) as i64,
            &mut steps,
            &mut flops,
            &mut largest,
            &mut optimal,
        )
    })?;
    let steps = (0..steps as usize)
        .map(|i| (pairs[2 * i], pairs[2 * i + 1]))
        .collect();
    Ok(EinsumPath {
        steps,
        flops,
        largest,
        optimal: optimal != 0,
    })
}

/// `numpy.tensordot`: sums the products over the dim pairs `(axes_a[k], axes_b[k])`; the result
/// has `a`'s other dims, then `b`'s. Negative axes count from the end.
pub fn tensordot(a: &Tensor, b: &Tensor, axes_a: &[i64], axes_b: &[i64]) -> Result<Tensor> {
    if axes_a.len() != axes_b.len() {
        return Err(Error::new(
            Status::INVALID_ARGUMENT,
            format!(
                "tenferro::tensordot: {} axes of a but {} of b",
                axes_a.len(),
                axes_b.len()
            ),
        ));
    }
    let n = count(axes_a.len(), "tenferro::tensordot")?;
    // SAFETY: live handles; both axis slices hold n values for the call.
    new_tensor(|out| unsafe {
        sys::tfe_tensordot(
            out,
            a.as_ptr(),
            b.as_ptr(),
            n,
            axes_a.as_ptr(),
            axes_b.as_ptr(),
        )
    })
}

/// The outer (tensor) product: `a`'s dims, then `b`'s; nothing is flattened.
pub fn outer(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    // SAFETY: live handles.
    new_tensor(|out| unsafe { sys::tfe_outer(out, a.as_ptr(), b.as_ptr()) })
}

/// The Kronecker product; an operand of lower rank is padded with trailing extents of 1 (a
/// vector is a column).
pub fn kron(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    // SAFETY: live handles.
    new_tensor(|out| unsafe { sys::tfe_kron(out, a.as_ptr(), b.as_ptr()) })
}

/// The matrix trace of dims (0, 1), `offset` above the diagonal (below when negative); the
/// batch dims remain.
pub fn trace(x: &Tensor, offset: i64) -> Result<Tensor> {
    // SAFETY: live handle.
    new_tensor(|out| unsafe { sys::tfe_trace(out, x.as_ptr(), offset) })
}
