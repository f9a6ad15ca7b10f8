//! Contraction, reductions, structural and indexing ops and conversions (`ops_shape.h`), as
//! methods of [`Tensor`].
//!
//! Axes count from 0; negative axes count from the end. Matrices are the first two dims and
//! batch dims follow. Extent parameters (reshape and broadcast shapes, slice limits, dynamic
//! slice sizes) may be `-k` for symbol k of the context when tracing (see [`crate::Function`]).

use std::ptr;

use tenferro_sys as sys;

use crate::element::DType;
use crate::error::{count, Error, Result, Status};
use crate::tensor::{new_tensor, raw_list, Tensor};

type ReduceFn =
    unsafe extern "C" fn(*mut *mut sys::tfe_tensor, *const sys::tfe_tensor, i32, *const i64) -> i32;

fn reduce(f: ReduceFn, x: &Tensor, axes: &[i64], what: &str) -> Result<Tensor> {
    let n = count(axes.len(), what)?;
    // SAFETY: `f` is a reduction taking (out, x, n_axes, axes); axes has n entries.
    new_tensor(|out| unsafe { f(out, x.as_ptr(), n, axes.as_ptr()) })
}

/// Fails unless the arrays that share one count in the C call have the same length.
fn same_len(what: &str, lens: &[(&str, usize)]) -> Result<i32> {
    let first = lens.first().map_or(0, |l| l.1);
    if lens.iter().any(|l| l.1 != first) {
        return Err(Error::new(
            Status::INVALID_ARGUMENT,
            format!("{what}: {lens:?} must have equal lengths"),
        ));
    }
    count(first, what)
}

fn opt_ptr(v: Option<&[i64]>) -> *const i64 {
    v.map_or(ptr::null(), <[i64]>::as_ptr)
}

impl Tensor {
    /// Matrix product `[M,K,B..] x [K,N,B..] -> [M,N,B..]` (batch dims broadcast left-aligned).
    pub fn matmul(&self, rhs: &Tensor) -> Result<Tensor> {
        // SAFETY: live handles.
        new_tensor(|out| unsafe { sys::tfe_matmul(out, self.as_ptr(), rhs.as_ptr()) })
    }

    /// General contraction: output dims are the free dims of `self`, then those of `rhs`, then
    /// the batch dims. Contracting (and batch) axis lists pair up, so they must have equal
    /// lengths.
    pub fn dot_general(
        &self,
        rhs: &Tensor,
        lhs_contracting: &[i64],
        rhs_contracting: &[i64],
        lhs_batch: &[i64],
        rhs_batch: &[i64],
    ) -> Result<Tensor> {
        let what = "Tensor::dot_general";
        let nc = same_len(
            what,
            &[
                ("lhs_contracting", lhs_contracting.len()),
                ("rhs_contracting", rhs_contracting.len()),
            ],
        )?;
        let nb = same_len(
            what,
            &[
                ("lhs_batch", lhs_batch.len()),
                ("rhs_batch", rhs_batch.len()),
            ],
        )?;
        // SAFETY: each array has the count passed with it.
        new_tensor(|out| unsafe {
            sys::tfe_dot_general(
                out,
                self.as_ptr(),
                rhs.as_ptr(),
                nc,
                lhs_contracting.as_ptr(),
                rhs_contracting.as_ptr(),
                nb,
                lhs_batch.as_ptr(),
                rhs_batch.as_ptr(),
            )
        })
    }

    /// Sum over `axes` (empty: every axis, rank-0 result); Bool and I32 accumulate in I64.
    pub fn sum(&self, axes: &[i64]) -> Result<Tensor> {
        reduce(sys::tfe_sum, self, axes, "Tensor::sum")
    }

    /// Product over `axes` (empty: all), conventions of [`Tensor::sum`].
    pub fn prod(&self, axes: &[i64]) -> Result<Tensor> {
        reduce(sys::tfe_prod, self, axes, "Tensor::prod")
    }

    /// Mean over `axes` (empty: all); integers and Bool give F64.
    pub fn mean(&self, axes: &[i64]) -> Result<Tensor> {
        reduce(sys::tfe_mean, self, axes, "Tensor::mean")
    }

    /// Sum over `axes` keeping the dtype (no widening; the IR reduction).
    pub fn reduce_sum(&self, axes: &[i64]) -> Result<Tensor> {
        reduce(sys::tfe_reduce_sum, self, axes, "Tensor::reduce_sum")
    }

    /// Product over `axes` keeping the dtype.
    pub fn reduce_prod(&self, axes: &[i64]) -> Result<Tensor> {
        reduce(sys::tfe_reduce_prod, self, axes, "Tensor::reduce_prod")
    }

    /// Maximum over `axes` (NaN propagates; any() on Bool); no complex.
    pub fn reduce_max(&self, axes: &[i64]) -> Result<Tensor> {
        reduce(sys::tfe_reduce_max, self, axes, "Tensor::reduce_max")
    }

    /// Minimum over `axes` (NaN propagates; all() on Bool); no complex.
    pub fn reduce_min(&self, axes: &[i64]) -> Result<Tensor> {
        reduce(sys::tfe_reduce_min, self, axes, "Tensor::reduce_min")
    }

    /// Lossless conversion only (else `Status::DTYPE_MISMATCH`).
    pub fn convert(&self, dtype: DType) -> Result<Tensor> {
        // SAFETY: live handle.
        new_tensor(|out| unsafe { sys::tfe_convert(out, self.as_ptr(), dtype.to_raw()) })
    }

    /// Any conversion: float to int truncates and saturates, complex to real keeps the real
    /// part, anything to Bool is `x != 0`.
    pub fn cast(&self, dtype: DType) -> Result<Tensor> {
        // SAFETY: live handle.
        new_tensor(|out| unsafe { sys::tfe_cast(out, self.as_ptr(), dtype.to_raw()) })
    }

    /// Output dim i is input dim `perm[i]`. A view.
    pub fn transpose(&self, perm: &[i64]) -> Result<Tensor> {
        let n = count(perm.len(), "Tensor::transpose")?;
        // SAFETY: perm has n entries.
        new_tensor(|out| unsafe { sys::tfe_transpose(out, self.as_ptr(), n, perm.as_ptr()) })
    }

    /// The same elements in column-major order with a new shape (a view when possible).
    pub fn reshape(&self, shape: &[i64]) -> Result<Tensor> {
        let n = count(shape.len(), "Tensor::reshape")?;
        // SAFETY: shape has n entries.
        new_tensor(|out| unsafe { sys::tfe_reshape(out, self.as_ptr(), n, shape.as_ptr()) })
    }

    /// Operand dim i becomes output dim `dims[i]`; extents 1 repeat. A view.
    pub fn broadcast_in_dim(&self, shape: &[i64], dims: &[i64]) -> Result<Tensor> {
        let what = "Tensor::broadcast_in_dim";
        let (n, nd) = (count(shape.len(), what)?, count(dims.len(), what)?);
        // SAFETY: shape has n entries, dims nd.
        new_tensor(|out| unsafe {
            sys::tfe_broadcast_in_dim(out, self.as_ptr(), n, shape.as_ptr(), nd, dims.as_ptr())
        })
    }

    /// Left-aligned broadcast to `shape` (the elementwise ops' rule). A view.
    pub fn broadcast_to(&self, shape: &[i64]) -> Result<Tensor> {
        let n = count(shape.len(), "Tensor::broadcast_to")?;
        // SAFETY: shape has n entries.
        new_tensor(|out| unsafe { sys::tfe_broadcast_to(out, self.as_ptr(), n, shape.as_ptr()) })
    }

    /// Reverses the order along `axes`. A view.
    pub fn reverse(&self, axes: &[i64]) -> Result<Tensor> {
        reduce(sys::tfe_reverse, self, axes, "Tensor::reverse")
    }

    /// The diagonal of dims `(axis_a, axis_b)`: `axis_b` goes, the diagonal stays at `axis_a`.
    /// A view.
    pub fn extract_diag(&self, axis_a: i64, axis_b: i64) -> Result<Tensor> {
        // SAFETY: live handle.
        new_tensor(|out| unsafe { sys::tfe_extract_diag(out, self.as_ptr(), axis_a, axis_b) })
    }

    /// The inverse of [`Tensor::extract_diag`]: inserts `axis_b` and puts `self` on the diagonal.
    pub fn embed_diag(&self, axis_a: i64, axis_b: i64) -> Result<Tensor> {
        // SAFETY: live handle.
        new_tensor(|out| unsafe { sys::tfe_embed_diag(out, self.as_ptr(), axis_a, axis_b) })
    }

    /// Lower triangle of each matrix: keeps `(i, j)` with `j - i <= k`.
    pub fn tril(&self, k: i64) -> Result<Tensor> {
        // SAFETY: live handle.
        new_tensor(|out| unsafe { sys::tfe_tril(out, self.as_ptr(), k) })
    }

    /// Upper triangle of each matrix: keeps `(i, j)` with `j - i >= k`.
    pub fn triu(&self, k: i64) -> Result<Tensor> {
        // SAFETY: live handle.
        new_tensor(|out| unsafe { sys::tfe_triu(out, self.as_ptr(), k) })
    }

    /// Elements `starts[d] <= i < limits[d]` in steps of `strides[d]` (None: 1). A view.
    pub fn slice(&self, starts: &[i64], limits: &[i64], strides: Option<&[i64]>) -> Result<Tensor> {
        let mut lens = vec![("starts", starts.len()), ("limits", limits.len())];
        if let Some(s) = strides {
            lens.push(("strides", s.len()));
        }
        let n = same_len("Tensor::slice", &lens)?;
        // SAFETY: every array has n entries (strides may be NULL).
        new_tensor(|out| unsafe {
            sys::tfe_slice(
                out,
                self.as_ptr(),
                n,
                starts.as_ptr(),
                limits.as_ptr(),
                opt_ptr(strides),
            )
        })
    }

    /// A block of extents `sizes` at the start indices held by the rank-1 integer tensor
    /// `starts` (clamped so the block fits).
    pub fn dynamic_slice(&self, starts: &Tensor, sizes: &[i64]) -> Result<Tensor> {
        let n = count(sizes.len(), "Tensor::dynamic_slice")?;
        // SAFETY: sizes has n entries; live handles.
        new_tensor(|out| unsafe {
            sys::tfe_dynamic_slice(out, self.as_ptr(), starts.as_ptr(), n, sizes.as_ptr())
        })
    }

    /// `self` with the block at the (clamped) `starts` replaced by `update`.
    pub fn dynamic_update_slice(&self, update: &Tensor, starts: &Tensor) -> Result<Tensor> {
        // SAFETY: live handles.
        new_tensor(|out| unsafe {
            sys::tfe_dynamic_update_slice(out, self.as_ptr(), update.as_ptr(), starts.as_ptr())
        })
    }

    /// Take along `axis`: the shape of `indices` replaces dim `axis`. An index outside
    /// `[0, extent)` is `Status::INVALID_ARGUMENT`.
    pub fn gather(&self, indices: &Tensor, axis: i64) -> Result<Tensor> {
        // SAFETY: live handles.
        new_tensor(|out| unsafe { sys::tfe_gather(out, self.as_ptr(), indices.as_ptr(), axis) })
    }

    /// Scatter-add along `axis`: `self` plus `updates` added at `indices` (duplicates add up).
    pub fn scatter(&self, indices: &Tensor, updates: &Tensor, axis: i64) -> Result<Tensor> {
        // SAFETY: live handles.
        new_tensor(|out| unsafe {
            sys::tfe_scatter(out, self.as_ptr(), indices.as_ptr(), updates.as_ptr(), axis)
        })
    }

    /// Zero padding: `low`/`high` per dim (negative crops) and `interior` zeros between
    /// elements (None: none).
    pub fn pad(&self, low: &[i64], high: &[i64], interior: Option<&[i64]>) -> Result<Tensor> {
        let mut lens = vec![("low", low.len()), ("high", high.len())];
        if let Some(i) = interior {
            lens.push(("interior", i.len()));
        }
        let n = same_len("Tensor::pad", &lens)?;
        // SAFETY: every array has n entries (interior may be NULL).
        new_tensor(|out| unsafe {
            sys::tfe_pad(
                out,
                self.as_ptr(),
                n,
                low.as_ptr(),
                high.as_ptr(),
                opt_ptr(interior),
            )
        })
    }

    /// Joins tensors along `axis` (the other extents must agree; dtypes promote).
    pub fn concatenate(xs: &[&Tensor], axis: i64) -> Result<Tensor> {
        let raw = raw_list(xs);
        let n = count(raw.len(), "Tensor::concatenate")?;
        // SAFETY: raw has n live handles.
        new_tensor(|out| unsafe { sys::tfe_concatenate(out, n, raw.as_ptr(), axis) })
    }

    /// Stacks tensors of one shape along a new `axis` (counted in the output rank).
    pub fn stack(xs: &[&Tensor], axis: i64) -> Result<Tensor> {
        let raw = raw_list(xs);
        let n = count(raw.len(), "Tensor::stack")?;
        // SAFETY: raw has n live handles.
        new_tensor(|out| unsafe { sys::tfe_stack(out, n, raw.as_ptr(), axis) })
    }
}
