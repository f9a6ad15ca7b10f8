//! NumPy's shape helpers (`ops_shape.h`) as methods of [`Tensor`], and `linspace`, `logspace`
//! and the `*_like` constructors (`tensor.h`, creation).
//!
//! Axes are tensor dims (dim 0 fastest); negative axes count from the end. `flatten` is the
//! column-major reshape to rank 1, `diagonal` puts the diagonal first (batch dims after it) and
//! `tile` aligns `reps` on the left, as the library's broadcasting does.

use std::ptr;

use tenferro_sys as sys;

use crate::context::Context;
use crate::element::{Complex64, DType, Element};
use crate::error::{check, count, Error, Result, Status};
use crate::tensor::{new_tensor, Tensor};

impl Tensor {
    /// Drops the listed axes (each of extent 1), or every extent-1 axis when `axes` is empty.
    pub fn squeeze(&self, axes: &[i64]) -> Result<Tensor> {
        let n = count(axes.len(), "Tensor::squeeze")?;
        // SAFETY: axes has n entries.
        new_tensor(|out| unsafe { sys::tfe_squeeze(out, self.as_ptr(), n, axes.as_ptr()) })
    }

    /// Inserts extent-1 axes at the listed positions of the result.
    pub fn expand_dims(&self, axes: &[i64]) -> Result<Tensor> {
        let n = count(axes.len(), "Tensor::expand_dims")?;
        // SAFETY: axes has n entries.
        new_tensor(|out| unsafe { sys::tfe_expand_dims(out, self.as_ptr(), n, axes.as_ptr()) })
    }

    /// Moves axis `source[i]` to position `destination[i]`; the others keep their order.
    pub fn moveaxis(&self, source: &[i64], destination: &[i64]) -> Result<Tensor> {
        if source.len() != destination.len() {
            return Err(Error::new(
                Status::INVALID_ARGUMENT,
                "Tensor::moveaxis: source and destination need the same number of axes",
            ));
        }
        let n = count(source.len(), "Tensor::moveaxis")?;
        // SAFETY: both arrays have n entries.
        new_tensor(|out| unsafe {
            sys::tfe_moveaxis(out, self.as_ptr(), n, source.as_ptr(), destination.as_ptr())
        })
    }

    /// Exchanges two axes.
    pub fn swapaxes(&self, axis1: i64, axis2: i64) -> Result<Tensor> {
        // SAFETY: a live handle.
        new_tensor(|out| unsafe { sys::tfe_swapaxes(out, self.as_ptr(), axis1, axis2) })
    }

    /// The elements as a rank-1 tensor in column-major order.
    pub fn flatten(&self) -> Result<Tensor> {
        // SAFETY: a live handle.
        new_tensor(|out| unsafe { sys::tfe_flatten(out, self.as_ptr()) })
    }

    /// `sections` equal pieces along `axis` (`indices` empty), or the pieces between the split
    /// points `indices` (NumPy's rule).
    pub fn split(&self, sections: i64, indices: &[i64], axis: i64) -> Result<Vec<Tensor>> {
        let pieces = if indices.is_empty() {
            usize::try_from(sections).unwrap_or(0).max(1)
        } else {
            indices.len() + 1
        };
        let n_outs = count(pieces, "Tensor::split")?;
        let n = count(indices.len(), "Tensor::split")?;
        let mut raw = vec![ptr::null_mut(); pieces];
        // SAFETY: raw has n_outs slots, indices n entries; the library fills every slot or none.
        check(unsafe {
            sys::tfe_split(
                raw.as_mut_ptr(),
                n_outs,
                self.as_ptr(),
                n,
                indices.as_ptr(),
                axis,
            )
        })?;
        raw.into_iter().map(Tensor::from_owned).collect()
    }

    /// Repeated `reps[d]` times along dim `d` (more reps than dims add trailing dims).
    pub fn tile(&self, reps: &[i64]) -> Result<Tensor> {
        let n = count(reps.len(), "Tensor::tile")?;
        // SAFETY: reps has n entries.
        new_tensor(|out| unsafe { sys::tfe_tile(out, self.as_ptr(), n, reps.as_ptr()) })
    }

    /// Each element along `axis` repeated `repeats[0]` times, or `repeats[i]` times for element
    /// `i`.
    pub fn repeat(&self, repeats: &[i64], axis: i64) -> Result<Tensor> {
        let n = count(repeats.len(), "Tensor::repeat")?;
        // SAFETY: repeats has n entries.
        new_tensor(|out| unsafe { sys::tfe_repeat(out, self.as_ptr(), n, repeats.as_ptr(), axis) })
    }

    /// Shifted by `shifts[i]` along `axes[i]`, wrapping around; `axes` empty: one shift over the
    /// column-major flattening.
    pub fn roll(&self, shifts: &[i64], axes: &[i64]) -> Result<Tensor> {
        let n = count(shifts.len(), "Tensor::roll")?;
        let na = count(axes.len(), "Tensor::roll")?;
        // SAFETY: shifts has n entries, axes na.
        new_tensor(|out| unsafe {
            sys::tfe_roll(out, self.as_ptr(), n, shifts.as_ptr(), na, axes.as_ptr())
        })
    }

    /// The diagonal `offset` of dims `(axis1, axis2)` as dim 0, the other dims after it.
    pub fn diagonal(&self, offset: i64, axis1: i64, axis2: i64) -> Result<Tensor> {
        // SAFETY: a live handle.
        new_tensor(|out| unsafe { sys::tfe_diagonal(out, self.as_ptr(), offset, axis1, axis2) })
    }

    /// A vector gives the square matrix with it on diagonal `k`; a matrix its diagonal `k`.
    pub fn diag(&self, k: i64) -> Result<Tensor> {
        // SAFETY: a live handle.
        new_tensor(|out| unsafe { sys::tfe_diag(out, self.as_ptr(), k) })
    }

    /// `num` values from `start` to `stop` (`stop` included with `endpoint`), computed in double
    /// precision; a real `dtype` reads the real parts.
    pub fn linspace(
        ctx: &Context,
        dtype: DType,
        start: Complex64,
        stop: Complex64,
        num: i64,
        endpoint: bool,
    ) -> Result<Tensor> {
        // SAFETY: scalars only.
        new_tensor(|out| unsafe {
            sys::tfe_linspace(
                out,
                ctx.as_ptr(),
                dtype.to_raw(),
                start.re,
                start.im,
                stop.re,
                stop.im,
                num,
                i32::from(endpoint),
            )
        })
    }

    /// `base` raised to the values of [`Tensor::linspace`].
    pub fn logspace(
        ctx: &Context,
        dtype: DType,
        start: Complex64,
        stop: Complex64,
        num: i64,
        endpoint: bool,
        base: f64,
    ) -> Result<Tensor> {
        // SAFETY: scalars only.
        new_tensor(|out| unsafe {
            sys::tfe_logspace(
                out,
                ctx.as_ptr(),
                dtype.to_raw(),
                start.re,
                start.im,
                stop.re,
                stop.im,
                num,
                i32::from(endpoint),
                base,
            )
        })
    }

    /// Zeros of this tensor's shape in its context (`dtype` None: its dtype); a constant.
    pub fn zeros_like(&self, dtype: Option<DType>) -> Result<Tensor> {
        let d = dtype.map_or(-1, DType::to_raw);
        // SAFETY: a live handle.
        new_tensor(|out| unsafe { sys::tfe_zeros_like(out, self.as_ptr(), d) })
    }

    /// Ones of this tensor's shape in its context (`dtype` None: its dtype); a constant.
    pub fn ones_like(&self, dtype: Option<DType>) -> Result<Tensor> {
        let d = dtype.map_or(-1, DType::to_raw);
        // SAFETY: a live handle.
        new_tensor(|out| unsafe { sys::tfe_ones_like(out, self.as_ptr(), d) })
    }

    /// `value` at every position of this tensor's shape (the dtype is `T`'s); a constant.
    pub fn full_like<T: Element>(&self, value: T) -> Result<Tensor> {
        // SAFETY: value is one element of T::DTYPE.
        new_tensor(|out| unsafe {
            sys::tfe_full_like(
                out,
                self.as_ptr(),
                T::DTYPE.to_raw(),
                (&value as *const T).cast(),
            )
        })
    }
}
