//! Tensors: creation from Rust memory, typed read-back, accessors and creation helpers.

use std::fmt;
use std::ptr::{self, NonNull};

use tenferro_sys as sys;

use crate::context::Context;
use crate::element::{DType, Element};
use crate::error::{check, count, Error, Result, Status};

/// An immutable n-dimensional array, stored **column-major** (dim 0 varies fastest, as in
/// Fortran, Julia and LAPACK): a `[2, 3]` tensor made from `[1, 2, 3, 4, 5, 6]` has columns
/// `(1, 2)`, `(3, 4)`, `(5, 6)`. Matrix arguments are `[M, N, batch..]`.
///
/// A `Tensor` is one reference to a reference-counted library object: `Clone` adds a reference
/// (`tfe_tensor_retain`, no copy of the data) and `Drop` releases it. Ops never modify their
/// operands; they return new tensors (some of them views sharing storage).
///
/// `Send` and `Sync`: the C ABI lets handles be shared between threads and every function be
/// called from any thread; tensors are immutable, so concurrent reads are safe. The mutable
/// state a tensor has (its requires-grad flag and stored gradient) is synchronized by the
/// library, gradient accumulation included.
pub struct Tensor {
    raw: NonNull<sys::tfe_tensor>,
}

// SAFETY: see the type's documentation; the library promises thread safety for every call on a
// shared tensor handle.
unsafe impl Send for Tensor {}
// SAFETY: as for Send.
unsafe impl Sync for Tensor {}

/// Runs a C call that returns one new tensor through `out` and wraps it.
#[inline]
pub(crate) fn new_tensor(call: impl FnOnce(*mut *mut sys::tfe_tensor) -> i32) -> Result<Tensor> {
    let mut out = ptr::null_mut();
    check(call(&mut out))?;
    Tensor::from_owned(out)
}

/// Raw handles of borrowed tensors, for the C array parameters (`tfe_tensor* const*`).
pub(crate) fn raw_list(xs: &[&Tensor]) -> Vec<*mut sys::tfe_tensor> {
    xs.iter().map(|t| t.as_ptr()).collect()
}

/// Number of elements of a shape, or None when an extent is negative or the product overflows.
pub(crate) fn numel_of(shape: &[i64]) -> Option<usize> {
    shape.iter().try_fold(1usize, |acc, &e| {
        usize::try_from(e).ok().and_then(|e| acc.checked_mul(e))
    })
}

/// Checks that `len` elements of Rust memory cover `shape`, so the library never reads past a
/// slice. Negative extents pass: the library rejects them before reading anything.
fn check_len(what: &str, len: usize, shape: &[i64]) -> Result<()> {
    if shape.iter().any(|&e| e < 0) {
        return Ok(());
    }
    match numel_of(shape) {
        Some(n) if n == len => Ok(()),
        _ => Err(Error::new(
            Status::SHAPE_MISMATCH,
            format!("{what}: {len} elements given for shape {shape:?}"),
        )),
    }
}

impl Tensor {
    /// Takes ownership of a new reference returned by the library.
    pub(crate) fn from_owned(raw: *mut sys::tfe_tensor) -> Result<Tensor> {
        NonNull::new(raw)
            .map(|raw| Tensor { raw })
            .ok_or_else(|| Error::new(Status::INTERNAL, "tenferro: NULL tensor after TFE_OK"))
    }

    /// Wraps an optional new reference (NULL meaning "absent", as for gradients).
    pub(crate) fn from_owned_opt(raw: *mut sys::tfe_tensor) -> Option<Tensor> {
        NonNull::new(raw).map(|raw| Tensor { raw })
    }

    /// Takes ownership of a raw handle.
    ///
    /// # Safety
    /// `raw` must be a live tensor handle whose reference the caller owns and gives up.
    pub unsafe fn from_raw(raw: *mut sys::tfe_tensor) -> Result<Tensor> {
        Tensor::from_owned(raw)
    }

    /// The raw handle, borrowed for the lifetime of `self` (for direct `tenferro_sys` calls).
    #[inline]
    pub fn as_ptr(&self) -> *mut sys::tfe_tensor {
        self.raw.as_ptr()
    }

    /// Gives up ownership: the caller must release the returned handle.
    pub fn into_raw(self) -> *mut sys::tfe_tensor {
        let raw = self.as_ptr();
        std::mem::forget(self);
        raw
    }

    /// A tensor holding a copy of `data`, read column-major (dim 0 fastest) into `shape`.
    ///
    /// Fails with [`Status::SHAPE_MISMATCH`] when `data.len()` is not the product of `shape`.
    /// ```
    /// # fn main() -> tenferro::Result<()> {
    /// use tenferro::{Context, Tensor};
    /// let ctx = Context::new()?;
    /// let a = Tensor::from_slice(&ctx, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;
    /// // column-major: the first column is (1, 2)
    /// assert_eq!(a.transpose(&[1, 0])?.contiguous()?.to_vec::<f64>()?[..3], [1.0, 3.0, 5.0]);
    /// # Ok(()) }
    /// ```
    pub fn from_slice<T: Element>(ctx: &Context, data: &[T], shape: &[i64]) -> Result<Tensor> {
        check_len("Tensor::from_slice", data.len(), shape)?;
        let ndim = count(shape.len(), "Tensor::from_slice")?;
        // SAFETY: data covers the whole compact shape (checked above) and T has the layout of
        // T::DTYPE (Element is sealed); shape has ndim entries.
        new_tensor(|out| unsafe {
            sys::tfe_tensor_from_data(
                out,
                ctx.as_ptr(),
                T::DTYPE.to_raw(),
                ndim,
                shape.as_ptr(),
                ptr::null(),
                data.as_ptr().cast(),
            )
        })
    }

    /// A copy of strided data: element `(i0, i1, ..)` is `data[i0*strides[0] + i1*strides[1] +
    /// ..]`. Strides are in elements and must be non-negative here (so that every element lies in
    /// `data`); row-major data of a `[m, n]` matrix has strides `[n, 1]`.
    pub fn from_slice_strided<T: Element>(
        ctx: &Context,
        data: &[T],
        shape: &[i64],
        strides: &[i64],
    ) -> Result<Tensor> {
        let what = "Tensor::from_slice_strided";
        if strides.len() != shape.len() || strides.iter().any(|&s| s < 0) {
            return Err(Error::new(
                Status::INVALID_ARGUMENT,
                format!("{what}: strides {strides:?} for shape {shape:?} (need one >= 0 per dim)"),
            ));
        }
        if shape.iter().all(|&e| e >= 0) && numel_of(shape) != Some(0) {
            let last = shape.iter().zip(strides).try_fold(0usize, |acc, (&e, &s)| {
                let span = usize::try_from((e - 1).checked_mul(s)?).ok()?;
                acc.checked_add(span)
            });
            if !matches!(last, Some(last) if last < data.len()) {
                return Err(Error::new(
                    Status::SHAPE_MISMATCH,
                    format!(
                        "{what}: shape {shape:?} with strides {strides:?} reaches past {} elements",
                        data.len()
                    ),
                ));
            }
        }
        let ndim = count(shape.len(), what)?;
        // SAFETY: every addressed element lies in data (checked above); shape and strides have
        // ndim entries; T has the layout of T::DTYPE.
        new_tensor(|out| unsafe {
            sys::tfe_tensor_from_data(
                out,
                ctx.as_ptr(),
                T::DTYPE.to_raw(),
                ndim,
                shape.as_ptr(),
                strides.as_ptr(),
                data.as_ptr().cast(),
            )
        })
    }

    /// A rank-0 tensor holding `value`.
    pub fn scalar<T: Element>(ctx: &Context, value: T) -> Result<Tensor> {
        Tensor::from_slice(ctx, &[value], &[])
    }

    /// The elements, compact column-major. Fails with [`Status::DTYPE_MISMATCH`] when `T` is not
    /// the tensor's element type (no conversion happens; use [`Tensor::cast`] first).
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        self.expect_dtype::<T>("Tensor::to_vec")?;
        let n = self.numel()?;
        let mut v = vec![T::default(); n];
        let bytes = i64::try_from(n * std::mem::size_of::<T>()).unwrap_or(i64::MAX);
        // SAFETY: v holds n elements of the tensor's dtype, `bytes` bytes in all.
        check(unsafe { sys::tfe_tensor_to_data(self.as_ptr(), v.as_mut_ptr().cast(), bytes) })?;
        Ok(v)
    }

    /// The single element of a one-element tensor.
    pub fn item<T: Element>(&self) -> Result<T> {
        let v = self.to_vec::<T>()?;
        match v.as_slice() {
            [x] => Ok(*x),
            _ => Err(Error::new(
                Status::SHAPE_MISMATCH,
                format!("Tensor::item: the tensor has {} elements, not 1", v.len()),
            )),
        }
    }

    /// The tensor's storage as a slice, without copying. Only for compact column-major tensors
    /// (views such as transposes are not: call [`Tensor::contiguous`] first); fails with
    /// [`Status::INVALID_ARGUMENT`] otherwise, and with [`Status::DTYPE_MISMATCH`] for a wrong
    /// `T`. In a dataflow context this waits for the value.
    pub fn as_slice<T: Element>(&self) -> Result<&[T]> {
        self.expect_dtype::<T>("Tensor::as_slice")?;
        let shape = self.shape()?;
        let Some(n) = numel_of(&shape) else {
            return Err(Error::new(
                Status::INVALID_ARGUMENT,
                format!("Tensor::as_slice: shape {shape:?} is symbolic; the tensor has no values"),
            ));
        };
        if n == 0 {
            return Ok(&[]);
        }
        let mut expected = 1i64;
        for (axis, &extent) in shape.iter().enumerate() {
            let stride = self.stride(axis as i64)?;
            if extent > 1 && stride != expected {
                return Err(Error::new(
                    Status::INVALID_ARGUMENT,
                    format!("Tensor::as_slice: not compact column-major (dim {axis} has stride {stride}); call contiguous()"),
                ));
            }
            expected = expected.saturating_mul(extent);
        }
        let mut data: *const std::os::raw::c_void = ptr::null();
        // SAFETY: live handle, valid out pointer.
        check(unsafe { sys::tfe_tensor_data(self.as_ptr(), &mut data) })?;
        if data.is_null() {
            return Ok(&[]);
        }
        // SAFETY: the library guarantees `data` points at n compact elements of T's layout
        // (dtype and strides checked above), read-only and alive as long as this handle.
        Ok(unsafe { std::slice::from_raw_parts(data.cast::<T>(), n) })
    }

    fn expect_dtype<T: Element>(&self, what: &str) -> Result<()> {
        let dtype = self.dtype()?;
        if dtype == T::DTYPE {
            Ok(())
        } else {
            Err(Error::new(
                Status::DTYPE_MISMATCH,
                format!("{what}: the tensor holds {dtype}, not {}", T::DTYPE),
            ))
        }
    }

    /// The element type.
    pub fn dtype(&self) -> Result<DType> {
        let mut d = 0;
        // SAFETY: live handle, valid out pointer.
        check(unsafe { sys::tfe_tensor_dtype(self.as_ptr(), &mut d) })?;
        DType::from_library(d)
    }

    /// The rank.
    pub fn ndim(&self) -> Result<usize> {
        let mut n = 0;
        // SAFETY: live handle, valid out pointer.
        check(unsafe { sys::tfe_tensor_ndim(self.as_ptr(), &mut n) })?;
        Ok(usize::try_from(n).unwrap_or(0))
    }

    /// The extents. A symbolic tensor reports symbol k as `-k` and a derived extent as
    /// `tenferro_sys::TFE_EXTENT_DERIVED` (see [`Tensor::extent_text`]).
    pub fn shape(&self) -> Result<Vec<i64>> {
        let mut shape = vec![0i64; self.ndim()?];
        // SAFETY: shape has ndim entries.
        check(unsafe { sys::tfe_tensor_shape(self.as_ptr(), shape.as_mut_ptr()) })?;
        Ok(shape)
    }

    /// The number of elements.
    pub fn numel(&self) -> Result<usize> {
        let mut n = 0;
        // SAFETY: live handle, valid out pointer.
        check(unsafe { sys::tfe_tensor_numel(self.as_ptr(), &mut n) })?;
        Ok(usize::try_from(n).unwrap_or(0))
    }

    /// The stride in elements of dim `axis` (negative axes count from the end); views may have
    /// negative or zero strides.
    pub fn stride(&self, axis: i64) -> Result<i64> {
        let mut s = 0;
        // SAFETY: live handle, valid out pointer; the library checks the axis.
        check(unsafe { sys::tfe_tensor_stride(self.as_ptr(), axis, &mut s) })?;
        Ok(s)
    }

    /// The context this tensor belongs to.
    pub fn context(&self) -> Result<Context> {
        let mut raw = ptr::null_mut();
        // SAFETY: valid out pointer, live handle.
        check(unsafe { sys::tfe_tensor_context(&mut raw, self.as_ptr()) })?;
        Context::from_owned(raw)
    }

    /// A compact column-major tensor with the same values (shares storage when already compact).
    pub fn contiguous(&self) -> Result<Tensor> {
        // SAFETY: out pointer from new_tensor, live handle.
        new_tensor(|out| unsafe { sys::tfe_tensor_contiguous(out, self.as_ptr()) })
    }

    /// Every element zero.
    pub fn zeros(ctx: &Context, dtype: DType, shape: &[i64]) -> Result<Tensor> {
        let n = count(shape.len(), "Tensor::zeros")?;
        // SAFETY: shape has n entries.
        new_tensor(|out| unsafe {
            sys::tfe_zeros(out, ctx.as_ptr(), dtype.to_raw(), n, shape.as_ptr())
        })
    }

    /// Every element one (true for Bool).
    pub fn ones(ctx: &Context, dtype: DType, shape: &[i64]) -> Result<Tensor> {
        let n = count(shape.len(), "Tensor::ones")?;
        // SAFETY: shape has n entries.
        new_tensor(|out| unsafe {
            sys::tfe_ones(out, ctx.as_ptr(), dtype.to_raw(), n, shape.as_ptr())
        })
    }

    /// Every element equal to `value`.
    pub fn full<T: Element>(ctx: &Context, shape: &[i64], value: T) -> Result<Tensor> {
        let n = count(shape.len(), "Tensor::full")?;
        // SAFETY: shape has n entries; value is one element of T::DTYPE.
        new_tensor(|out| unsafe {
            sys::tfe_full(
                out,
                ctx.as_ptr(),
                T::DTYPE.to_raw(),
                n,
                shape.as_ptr(),
                (&value as *const T).cast(),
            )
        })
    }

    /// An `n x m` matrix with ones on the diagonal.
    pub fn eye(ctx: &Context, dtype: DType, n: i64, m: i64) -> Result<Tensor> {
        // SAFETY: scalars only.
        new_tensor(|out| unsafe { sys::tfe_eye(out, ctx.as_ptr(), dtype.to_raw(), n, m) })
    }

    /// `[start, stop)` in steps of `step`, rank 1.
    pub fn arange(ctx: &Context, dtype: DType, start: f64, stop: f64, step: f64) -> Result<Tensor> {
        // SAFETY: scalars only.
        new_tensor(|out| unsafe {
            sys::tfe_arange(out, ctx.as_ptr(), dtype.to_raw(), start, stop, step)
        })
    }

    /// Uniform in `[low, high)`, reproducible from `seed` on every machine and thread count.
    pub fn random_uniform(
        ctx: &Context,
        dtype: DType,
        shape: &[i64],
        seed: u64,
        low: f64,
        high: f64,
    ) -> Result<Tensor> {
        let n = count(shape.len(), "Tensor::random_uniform")?;
        // SAFETY: shape has n entries.
        new_tensor(|out| unsafe {
            sys::tfe_random_uniform(
                out,
                ctx.as_ptr(),
                dtype.to_raw(),
                n,
                shape.as_ptr(),
                seed,
                low,
                high,
            )
        })
    }

    /// Standard normal values (complex: independent parts of variance 1/2), from `seed`.
    pub fn random_normal(ctx: &Context, dtype: DType, shape: &[i64], seed: u64) -> Result<Tensor> {
        let n = count(shape.len(), "Tensor::random_normal")?;
        // SAFETY: shape has n entries.
        new_tensor(|out| unsafe {
            sys::tfe_random_normal(out, ctx.as_ptr(), dtype.to_raw(), n, shape.as_ptr(), seed)
        })
    }

    /// The index along `axis` at every position of `shape`.
    pub fn iota(ctx: &Context, dtype: DType, shape: &[i64], axis: i64) -> Result<Tensor> {
        let n = count(shape.len(), "Tensor::iota")?;
        // SAFETY: shape has n entries.
        new_tensor(|out| unsafe {
            sys::tfe_iota(out, ctx.as_ptr(), dtype.to_raw(), n, shape.as_ptr(), axis)
        })
    }
}

impl Clone for Tensor {
    fn clone(&self) -> Tensor {
        // SAFETY: the handle is live, so retain cannot fail (it only rejects NULL).
        let status = unsafe { sys::tfe_tensor_retain(self.as_ptr()) };
        debug_assert_eq!(status, sys::TFE_OK);
        Tensor { raw: self.raw }
    }
}

impl Drop for Tensor {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: we own one reference and give it back exactly once.
        unsafe { sys::tfe_tensor_release(self.as_ptr()) }
    }
}

impl fmt::Debug for Tensor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tensor")
            .field("dtype", &self.dtype().ok())
            .field("shape", &self.shape().ok())
            .finish()
    }
}
