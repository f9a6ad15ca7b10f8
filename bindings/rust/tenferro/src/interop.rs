//! Zero-copy exchange (`interop.h`): adopting a Rust `Vec` and DLPack export and import.

use std::os::raw::c_void;
use std::ptr::{self, NonNull};

use tenferro_sys as sys;
use tenferro_sys::dlpack::{DLManagedTensor, DLManagedTensorVersioned, DLTensor};

use crate::context::Context;
use crate::element::Element;
use crate::error::{check, count, Error, Result, Status};
use crate::tensor::{new_tensor, numel_of, Tensor};

/// Frees the boxed slice handed to `tfe_tensor_from_buffer`; the library calls it exactly once,
/// possibly from another thread (fine: `T: Send`), and it does not call the library.
unsafe extern "C" fn drop_boxed_slice<T>(_data: *mut c_void, user_data: *mut c_void) {
    // SAFETY: user_data is the Box<Box<[T]>> leaked by Tensor::from_vec, freed only here.
    drop(unsafe { Box::from_raw(user_data.cast::<Box<[T]>>()) });
}

impl Tensor {
    /// A tensor over the memory of `data`, without copying (column-major `shape`). The vector
    /// is dropped when the last tensor using it goes.
    pub fn from_vec<T: Element>(ctx: &Context, data: Vec<T>, shape: &[i64]) -> Result<Tensor> {
        if numel_of(shape) != Some(data.len()) {
            return Err(Error::new(
                Status::SHAPE_MISMATCH,
                format!(
                    "Tensor::from_vec: {} elements given for shape {shape:?}",
                    data.len()
                ),
            ));
        }
        let ndim = count(shape.len(), "Tensor::from_vec")?;
        let owner: Box<Box<[T]>> = Box::new(data.into_boxed_slice());
        let base = owner.as_ptr().cast_mut().cast::<c_void>();
        let owner = Box::into_raw(owner);
        let mut out = ptr::null_mut();
        // SAFETY: base points at data.len() elements of T::DTYPE's layout, aligned, covering the
        // shape; the deleter frees `owner` exactly once when the library is done with it.
        let status = unsafe {
            sys::tfe_tensor_from_buffer(
                &mut out,
                ctx.as_ptr(),
                T::DTYPE.to_raw(),
                ndim,
                shape.as_ptr(),
                ptr::null(),
                base,
                Some(drop_boxed_slice::<T>),
                owner.cast(),
            )
        };
        if let Err(e) = check(status) {
            // SAFETY: on failure the library did not take ownership; we free it ourselves.
            drop(unsafe { Box::from_raw(owner) });
            return Err(e);
        }
        Tensor::from_owned(out)
    }

    /// Exports the tensor as a legacy DLPack tensor sharing its memory (CPU, explicit strides).
    /// The legacy form has no read-only flag: do not write through it.
    pub fn to_dlpack(&self) -> Result<DlpackTensor> {
        let mut out = ptr::null_mut();
        // SAFETY: valid out pointer, live handle.
        check(unsafe { sys::tfe_tensor_to_dlpack(&mut out, self.as_ptr()) })?;
        NonNull::new(out)
            .map(|raw| DlpackTensor { raw })
            .ok_or_else(|| {
                Error::new(
                    Status::INTERNAL,
                    "tenferro: NULL DLPack tensor after TFE_OK",
                )
            })
    }

    /// Exports the tensor as a DLPack 1.0 tensor (flagged read-only) sharing its memory.
    pub fn to_dlpack_versioned(&self) -> Result<DlpackTensorVersioned> {
        let mut out = ptr::null_mut();
        // SAFETY: valid out pointer, live handle.
        check(unsafe { sys::tfe_tensor_to_dlpack_versioned(&mut out, self.as_ptr()) })?;
        NonNull::new(out)
            .map(|raw| DlpackTensorVersioned { raw })
            .ok_or_else(|| {
                Error::new(
                    Status::INTERNAL,
                    "tenferro: NULL DLPack tensor after TFE_OK",
                )
            })
    }

    /// Imports a legacy DLPack tensor without copying; the new tensor owns it. NULL strides mean
    /// row-major (the DLPack rule). On failure the DLPack tensor is dropped (its deleter runs).
    pub fn from_dlpack(ctx: &Context, src: DlpackTensor) -> Result<Tensor> {
        // SAFETY: src owns a valid DLManagedTensor; on success the library takes it over.
        let t = new_tensor(|out| unsafe {
            sys::tfe_tensor_from_dlpack(out, ctx.as_ptr(), src.raw.as_ptr())
        })?;
        std::mem::forget(src);
        Ok(t)
    }

    /// Imports a DLPack 1.x tensor without copying; as [`Tensor::from_dlpack`].
    pub fn from_dlpack_versioned(ctx: &Context, src: DlpackTensorVersioned) -> Result<Tensor> {
        // SAFETY: as in from_dlpack.
        let t = new_tensor(|out| unsafe {
            sys::tfe_tensor_from_dlpack_versioned(out, ctx.as_ptr(), src.raw.as_ptr())
        })?;
        std::mem::forget(src);
        Ok(t)
    }
}

/// The shape of a DLPack tensor.
fn dl_shape(t: &DLTensor) -> &[i64] {
    match usize::try_from(t.ndim) {
        // SAFETY: a valid DLTensor has ndim extents at `shape`.
        Ok(n) if n > 0 && !t.shape.is_null() => unsafe { std::slice::from_raw_parts(t.shape, n) },
        _ => &[],
    }
}

/// The strides of a DLPack tensor (None: compact row-major).
fn dl_strides(t: &DLTensor) -> Option<&[i64]> {
    match usize::try_from(t.ndim) {
        _ if t.strides.is_null() => None,
        // SAFETY: non-NULL strides of a valid DLTensor have ndim entries.
        Ok(n) => Some(unsafe { std::slice::from_raw_parts(t.strides, n) }),
        Err(_) => None,
    }
}

/// An owned legacy DLPack tensor (`DLManagedTensor`): its deleter runs on drop unless it is
/// handed on ([`Tensor::from_dlpack`], [`DlpackTensor::into_raw`]).
pub struct DlpackTensor {
    raw: NonNull<DLManagedTensor>,
}

impl DlpackTensor {
    /// Takes ownership of a DLPack tensor made by another library.
    ///
    /// # Safety
    /// `raw` must point at a valid `DLManagedTensor` the caller owns (its deleter not yet
    /// called) whose shape, strides and data stay valid until the deleter runs.
    pub unsafe fn from_raw(raw: NonNull<DLManagedTensor>) -> DlpackTensor {
        DlpackTensor { raw }
    }

    /// Gives up ownership: the caller must call the deleter exactly once.
    pub fn into_raw(self) -> NonNull<DLManagedTensor> {
        let raw = self.raw;
        std::mem::forget(self);
        raw
    }

    /// The described tensor (data pointer, device, dtype, shape, strides).
    pub fn dl_tensor(&self) -> &DLTensor {
        // SAFETY: we own a valid DLManagedTensor.
        unsafe { &self.raw.as_ref().dl_tensor }
    }

    /// The extents.
    pub fn shape(&self) -> &[i64] {
        dl_shape(self.dl_tensor())
    }

    /// The strides in elements (None: compact row-major).
    pub fn strides(&self) -> Option<&[i64]> {
        dl_strides(self.dl_tensor())
    }
}

impl Drop for DlpackTensor {
    fn drop(&mut self) {
        // SAFETY: we own the tensor and call its deleter exactly once.
        unsafe {
            if let Some(deleter) = self.raw.as_ref().deleter {
                deleter(self.raw.as_ptr());
            }
        }
    }
}

/// An owned DLPack 1.x tensor (`DLManagedTensorVersioned`); as [`DlpackTensor`].
pub struct DlpackTensorVersioned {
    raw: NonNull<DLManagedTensorVersioned>,
}

impl DlpackTensorVersioned {
    /// Takes ownership of a versioned DLPack tensor made by another library.
    ///
    /// # Safety
    /// As [`DlpackTensor::from_raw`].
    pub unsafe fn from_raw(raw: NonNull<DLManagedTensorVersioned>) -> DlpackTensorVersioned {
        DlpackTensorVersioned { raw }
    }

    /// Gives up ownership: the caller must call the deleter exactly once.
    pub fn into_raw(self) -> NonNull<DLManagedTensorVersioned> {
        let raw = self.raw;
        std::mem::forget(self);
        raw
    }

    /// The whole managed struct (version, flags, tensor).
    pub fn managed(&self) -> &DLManagedTensorVersioned {
        // SAFETY: we own a valid DLManagedTensorVersioned.
        unsafe { self.raw.as_ref() }
    }

    /// The extents.
    pub fn shape(&self) -> &[i64] {
        dl_shape(&self.managed().dl_tensor)
    }

    /// The strides in elements (None: compact row-major).
    pub fn strides(&self) -> Option<&[i64]> {
        dl_strides(&self.managed().dl_tensor)
    }
}

impl Drop for DlpackTensorVersioned {
    fn drop(&mut self) {
        // SAFETY: we own the tensor and call its deleter exactly once.
        unsafe {
            if let Some(deleter) = self.raw.as_ref().deleter {
                deleter(self.raw.as_ptr());
            }
        }
    }
}
