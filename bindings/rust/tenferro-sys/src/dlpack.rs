//! The DLPack structs exchanged by `tfe_tensor_to_dlpack*` and `tfe_tensor_from_dlpack*`.
//!
//! `tenferro/interop.h` only forward-declares them (callers include `dlpack.h` themselves), so
//! bindgen cannot see their fields; they are written out here after the DLPack 1.0 ABI. Enum
//! fields of the C structs (`DLDeviceType`, `DLDataTypeCode`) are plain integers here, for the
//! same reason the status and dtype constants are: a producer may use a value this crate does
//! not know.

use std::os::raw::c_void;

/// `kDLCPU`: host memory, the only device tenferro exchanges.
pub const DL_CPU: i32 = 1;
/// `kDLInt`: signed integers.
pub const DL_INT: u8 = 0;
/// `kDLUInt`: unsigned integers.
pub const DL_UINT: u8 = 1;
/// `kDLFloat`: IEEE floats.
pub const DL_FLOAT: u8 = 2;
/// `kDLBfloat`: bfloat16.
pub const DL_BFLOAT: u8 = 4;
/// `kDLComplex`: interleaved (re, im) pairs of floats.
pub const DL_COMPLEX: u8 = 5;
/// `kDLBool`: one byte per element, 0 or 1.
pub const DL_BOOL: u8 = 6;
/// Bit 0 of `DLManagedTensorVersioned::flags`: the consumer must not write through the tensor.
pub const DLPACK_FLAG_BITMASK_READ_ONLY: u64 = 1;
/// Major DLPack version of `DLManagedTensorVersioned` that tenferro reads and writes.
pub const DLPACK_MAJOR_VERSION: u32 = 1;
/// Minor DLPack version tenferro writes.
pub const DLPACK_MINOR_VERSION: u32 = 0;

/// Where the data lives: a device type (`DL_CPU`, ...) and its index.
#[repr(C)]
#[derive(Debug, Copy, Clone, PartialEq, Eq)]
pub struct DLDevice {
    /// `DLDeviceType` (`DL_CPU` == 1).
    pub device_type: i32,
    /// Index of the device of that type (0 for the host).
    pub device_id: i32,
}

/// An element type: type code, bits per lane and number of lanes.
#[repr(C)]
#[derive(Debug, Copy, Clone, PartialEq, Eq)]
pub struct DLDataType {
    /// `DLDataTypeCode` (`DL_FLOAT`, `DL_COMPLEX`, ...).
    pub code: u8,
    /// Bits of one lane (64 for f64, 128 for a complex of two f64).
    pub bits: u8,
    /// Lanes per element; tenferro only accepts 1.
    pub lanes: u16,
}

/// A borrowed view of strided memory (row-major when `strides` is NULL, as the DLPack spec
/// says; tenferro itself always exports explicit strides).
#[repr(C)]
#[derive(Debug, Copy, Clone)]
pub struct DLTensor {
    /// Base address; the first element is at `data + byte_offset`.
    pub data: *mut c_void,
    /// The device of `data`.
    pub device: DLDevice,
    /// Rank.
    pub ndim: i32,
    /// Element type.
    pub dtype: DLDataType,
    /// `ndim` extents.
    pub shape: *mut i64,
    /// `ndim` strides in elements, or NULL for compact row-major.
    pub strides: *mut i64,
    /// Offset in bytes of the first element from `data`.
    pub byte_offset: u64,
}

/// A legacy (pre-1.0) DLPack tensor together with its owner.
#[repr(C)]
#[derive(Debug)]
pub struct DLManagedTensor {
    /// The tensor.
    pub dl_tensor: DLTensor,
    /// Opaque state of the producer.
    pub manager_ctx: *mut c_void,
    /// Called once by the consumer when it no longer needs the tensor.
    pub deleter: Option<unsafe extern "C" fn(this: *mut DLManagedTensor)>,
}

/// The DLPack ABI version of a versioned tensor.
#[repr(C)]
#[derive(Debug, Copy, Clone, PartialEq, Eq)]
pub struct DLPackVersion {
    /// Major version; 1 for DLPack 1.x.
    pub major: u32,
    /// Minor version.
    pub minor: u32,
}

/// A DLPack 1.x tensor together with its owner, version and flags.
#[repr(C)]
#[derive(Debug)]
pub struct DLManagedTensorVersioned {
    /// ABI version of this struct.
    pub version: DLPackVersion,
    /// Opaque state of the producer.
    pub manager_ctx: *mut c_void,
    /// Called once by the consumer when it no longer needs the tensor.
    pub deleter: Option<unsafe extern "C" fn(this: *mut DLManagedTensorVersioned)>,
    /// Bit flags (`DLPACK_FLAG_BITMASK_READ_ONLY`, ...).
    pub flags: u64,
    /// The tensor.
    pub dl_tensor: DLTensor,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{align_of, offset_of, size_of};

    // The sizes and offsets of the C structs on LP64 targets, worked out from the field types.
    #[test]
    #[cfg(target_pointer_width = "64")]
    fn layout_matches_the_c_structs() {
        assert_eq!(size_of::<DLDevice>(), 8);
        assert_eq!(size_of::<DLDataType>(), 4);
        assert_eq!(size_of::<DLTensor>(), 48);
        assert_eq!(offset_of!(DLTensor, ndim), 16);
        assert_eq!(offset_of!(DLTensor, dtype), 20);
        assert_eq!(offset_of!(DLTensor, shape), 24);
        assert_eq!(offset_of!(DLTensor, byte_offset), 40);
        assert_eq!(size_of::<DLManagedTensor>(), 64);
        assert_eq!(offset_of!(DLManagedTensorVersioned, flags), 24);
        assert_eq!(offset_of!(DLManagedTensorVersioned, dl_tensor), 32);
        assert_eq!(size_of::<DLManagedTensorVersioned>(), 80);
        assert_eq!(align_of::<DLTensor>(), 8);
    }
}
