//! Element types: the [`DType`] of a tensor and the Rust types that map to it.

use std::fmt;

use tenferro_sys as sys;

use crate::error::{Error, Result, Status};

/// The seven element types of the library.
///
/// `#[non_exhaustive]` and converted with [`DType::from_raw`], which rejects values it does not
/// know: a dtype added to a later library cannot turn into an invalid enum value.
#[non_exhaustive]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum DType {
    /// `bool`, one byte (0 or 1).
    Bool,
    /// `i32`.
    I32,
    /// `i64`.
    I64,
    /// `f32`.
    F32,
    /// `f64`.
    F64,
    /// [`Complex32`]: interleaved (re, im) `f32` pairs.
    C32,
    /// [`Complex64`]: interleaved (re, im) `f64` pairs.
    C64,
}

impl DType {
    /// The `TFE_*` constant.
    pub fn to_raw(self) -> i32 {
        match self {
            DType::Bool => sys::TFE_BOOL,
            DType::I32 => sys::TFE_I32,
            DType::I64 => sys::TFE_I64,
            DType::F32 => sys::TFE_F32,
            DType::F64 => sys::TFE_F64,
            DType::C32 => sys::TFE_C32,
            DType::C64 => sys::TFE_C64,
        }
    }

    /// The dtype of a `TFE_*` constant, or `None` for a value this crate does not know.
    pub fn from_raw(raw: i32) -> Option<DType> {
        Some(match raw {
            sys::TFE_BOOL => DType::Bool,
            sys::TFE_I32 => DType::I32,
            sys::TFE_I64 => DType::I64,
            sys::TFE_F32 => DType::F32,
            sys::TFE_F64 => DType::F64,
            sys::TFE_C32 => DType::C32,
            sys::TFE_C64 => DType::C64,
            _ => return None,
        })
    }

    pub(crate) fn from_library(raw: i32) -> Result<DType> {
        DType::from_raw(raw).ok_or_else(|| {
            Error::new(
                Status::NOT_SUPPORTED,
                format!("tenferro: the library reported dtype {raw}, unknown to these bindings"),
            )
        })
    }

    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            DType::Bool => 1,
            DType::I32 | DType::F32 => 4,
            DType::I64 | DType::F64 | DType::C32 => 8,
            DType::C64 => 16,
        }
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// A complex number of two `f32`, laid out as the library's C32 elements (re, then im).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Complex32 {
    /// Real part.
    pub re: f32,
    /// Imaginary part.
    pub im: f32,
}

/// A complex number of two `f64`, laid out as the library's C64 elements (re, then im).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Complex64 {
    /// Real part.
    pub re: f64,
    /// Imaginary part.
    pub im: f64,
}

impl Complex32 {
    /// `re + i im`.
    pub const fn new(re: f32, im: f32) -> Self {
        Complex32 { re, im }
    }
}

impl Complex64 {
    /// `re + i im`.
    pub const fn new(re: f64, im: f64) -> Self {
        Complex64 { re, im }
    }
}

mod sealed {
    pub trait Sealed {}
}

/// A Rust type whose values are the elements of one [`DType`].
///
/// Sealed: the implementations are exactly the types whose memory layout equals the library's
/// element layout (`bool` is one byte holding 0 or 1, as the library's Bool), which the unsafe
/// copies in this crate rely on.
pub trait Element: sealed::Sealed + Copy + Default + Send + Sync + 'static {
    /// The dtype of tensors holding this type.
    const DTYPE: DType;
}

macro_rules! element {
    ($($t:ty => $d:ident),* $(,)?) => {$(
        impl sealed::Sealed for $t {}
        impl Element for $t {
            const DTYPE: DType = DType::$d;
        }
    )*};
}

element!(
    bool => Bool,
    i32 => I32,
    i64 => I64,
    f32 => F32,
    f64 => F64,
    Complex32 => C32,
    Complex64 => C64,
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dtype_round_trips_through_raw() {
        for d in [
            DType::Bool,
            DType::I32,
            DType::I64,
            DType::F32,
            DType::F64,
            DType::C32,
            DType::C64,
        ] {
            assert_eq!(DType::from_raw(d.to_raw()), Some(d));
        }
        assert_eq!(DType::from_raw(0), None);
        assert_eq!(DType::from_raw(99), None);
    }

    #[test]
    fn element_sizes_match_the_dtypes() {
        assert_eq!(std::mem::size_of::<Complex32>(), DType::C32.size());
        assert_eq!(std::mem::size_of::<Complex64>(), DType::C64.size());
        assert_eq!(std::mem::size_of::<bool>(), DType::Bool.size());
        assert_eq!(<Complex64 as Element>::DTYPE, DType::C64);
    }
}
