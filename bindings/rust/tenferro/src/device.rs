//! Placement: where a tensor lives and the one explicit transfer. Ops run on the device of
//! their operands; operands on two devices are `Status::Device` (a rank-0 host tensor joins as
//! a scalar).

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

    /// A compact copy on `device` (this tensor itself when it is already there).
    pub fn to_device(&self, device: Device) -> Result<Tensor> {
        let (kind, ordinal) = device.code();
        // SAFETY: out pointer from new_tensor, live handle.
        new_tensor(|out| unsafe { sys::tfe_tensor_to_device(out, self.as_ptr(), kind, ordinal) })
    }
}
