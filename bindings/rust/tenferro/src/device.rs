//! Placement: where a tensor lives, the one explicit transfer, and creation on a device. Ops run
//! on the device of their operands; operands on two devices are `Status::Device` (a rank-0 host
//! tensor joins as a scalar).

use std::marker::PhantomData;

use crate::context::Context;
use crate::error::{self, Result};
use crate::sys;
use crate::tensor::{new_tensor, Tensor};

/// The host or a CUDA GPU with its ordinal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Device {
    Cpu,
    Cuda(i32),
}

impl Device {
    fn code(self) -> (i32, i32) {
        match self {
            Device::Cpu => (sys::TFE_DEVICE_CPU, 0),
            Device::Cuda(ordinal) => (sys::TFE_DEVICE_CUDA, ordinal),
        }
    }
}

impl Tensor {
    /// Where the elements live.
    pub fn device(&self) -> Result<Device> {
        let (mut kind, mut ordinal) = (0, 0);
        // SAFETY: live handle, valid out pointers.
        error::check(unsafe { sys::tfe_tensor_device(self.as_ptr(), &mut kind, &mut ordinal) })?;
        Ok(if kind == sys::TFE_DEVICE_CUDA { Device::Cuda(ordinal) } else { Device::Cpu })
    }

    /// A compact copy on `device` (this tensor itself when it is already there). The transfer
    /// is differentiable: gradients flow back to this tensor's device.
    pub fn to_device(&self, device: Device) -> Result<Tensor> {
        let (kind, ordinal) = device.code();
        // SAFETY: out pointer from new_tensor, live handle.
        new_tensor(|out| unsafe { sys::tfe_tensor_to_device(out, self.as_ptr(), kind, ordinal) })
    }
}

/// While alive, the creation functions called with this context on this thread (zeros, ones,
/// full, eye, arange, linspace, random, from data) make their tensors on its device. Made by
/// [`on_device`].
///
/// Not `Send`: the library's scopes are per thread, so the scope must end on the thread that
/// opened it.
#[derive(Debug)]
#[must_use = "the scope ends when the guard is dropped"]
pub struct DeviceScope {
    ctx: Context,
    _not_send: PhantomData<*const ()>,
}

/// Opens a device scope for `ctx` on this thread until the guard drops (nestable). Ops are
/// unaffected: they run where their operands are.
pub fn on_device(ctx: &Context, device: Device) -> Result<DeviceScope> {
    let (kind, ordinal) = device.code();
    // SAFETY: live handle.
    error::check(unsafe { sys::tfe_device_scope_enter(ctx.as_ptr(), kind, ordinal) })?;
    Ok(DeviceScope { ctx: ctx.clone(), _not_send: PhantomData })
}

impl Drop for DeviceScope {
    fn drop(&mut self) {
        // SAFETY: live handle; the matching enter happened on this thread (the guard is !Send).
        let status = unsafe { sys::tfe_device_scope_exit(self.ctx.as_ptr()) };
        debug_assert_eq!(status, sys::TFE_OK);
    }
}
