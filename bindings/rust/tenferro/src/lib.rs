//! Safe Rust bindings to tenferro, a tensor library with automatic differentiation and linear
//! algebra, through its C ABI (`libtenferro`).
//!
//! - [`Tensor`]: an immutable, reference-counted n-dimensional array, **column-major** (dim 0
//!   varies fastest), with the `+ - * /` and unary `-` operators, elementwise functions
//!   ([`ops`]), reductions and shape ops (methods), eager AD ([`ad`]) and DLPack exchange.
//! - [`Context`]: owns caches and AD scopes; eager or dataflow ([`Context::dataflow`]).
//! - [`linalg`]: every linear algebra function of the library.
//! - [`Function`]: traced programs and their derivatives (`jvp`, `vjp`, `grad`, `hvp`).
//!
//! Every fallible call returns [`Result`]; an [`Error`] carries the library's [`Status`] and its
//! message. Broadcasting is left-aligned (`[2, 3] + [2]` works, `[2, 3] + [3]` does not).
//!
//! These bindings need a library with ABI version [`ABI_VERSION`] (1, tenferro 0.1);
//! [`Context::new`] checks it and fails with [`Status::NOT_SUPPORTED`] on a mismatch.
//!
//! ```
//! # fn main() -> tenferro::Result<()> {
//! use tenferro::{Context, Tensor};
//! let ctx = Context::new()?;
//! let a = Tensor::from_slice(&ctx, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;
//! let col = Tensor::from_slice(&ctx, &[10.0, 20.0], &[2])?;
//! let shifted = (&a + &col)?; // [2,3] + [2]: the column is added to every column
//! let gram = shifted.matmul(&shifted.transpose(&[1, 0])?)?;
//! assert_eq!(gram.shape()?, [2, 2]);
//! let total: f64 = gram.sum(&[])?.item()?;
//! assert_eq!(total, 4139.0); // 515 + 2 * 944 + 1736
//! drop((a, col, shifted, gram, ctx));
//! assert_eq!(tenferro::debug_live_objects(), 0); // every handle released
//! # Ok(()) }
//! ```

#![warn(missing_docs)]

pub mod ad;
mod context;
mod debug;
mod device;
mod einsum;
mod element;
mod error;
mod interop;
pub mod linalg;
pub mod linalg_truncated;
mod numeric;
pub mod ops;
mod order;
mod program;
mod scalar;
mod shape;
mod shape_extra;
mod tensor;

use std::ffi::CStr;

pub use tenferro_sys as sys;

pub use context::{Cache, CacheStats, Context, ContextMode, Scheduler};
pub use debug::autograd_to_dot;
pub use device::{on_device, Device, DeviceScope};
pub use einsum::{einsum, einsum_path, kron, outer, tensordot, trace, EinsumPath};
pub use element::{Complex32, Complex64, DType, Element};
pub use error::{last_error_message, Error, Result, Status};
pub use interop::{DlpackTensor, DlpackTensorVersioned};
pub use numeric::{allclose, copysign, hypot, isclose, logaddexp};
pub use ops::Comparison;
pub use order::{argmax, argmin, argsort, cumprod, cumsum, sort, topk};
pub use program::{Function, HvpMode};
pub use scalar::{binary_scalar, BinaryOp, Scalar};
pub use tensor::Tensor;

/// The C ABI version these bindings were generated for (`TFE_ABI_VERSION` of the header).
pub const ABI_VERSION: i32 = sys::TFE_ABI_VERSION;

/// The ABI version of the loaded library (compare with [`ABI_VERSION`]).
pub fn abi_version() -> i32 {
    // SAFETY: no arguments, no preconditions.
    unsafe { sys::tfe_abi_version() }
}

/// The version of the loaded library, e.g. "0.1.0".
pub fn version() -> &'static str {
    // SAFETY: tfe_version returns a static NUL-terminated string, never freed.
    let v = unsafe { CStr::from_ptr(sys::tfe_version()) };
    v.to_str().unwrap_or("")
}

/// The number of live library handles (contexts and tensors) in the process: 0 once every
/// object is dropped. Meant for leak checks in test suites.
pub fn debug_live_objects() -> i64 {
    // SAFETY: no arguments, no preconditions.
    unsafe { sys::tfe_debug_live_objects() }
}

/// Sets the library's thread budget (>= 1), shared with OpenBLAS, whose setting is
/// process-wide.
pub fn set_num_threads(threads: i32) -> Result<()> {
    // SAFETY: the library validates the value.
    error::check(unsafe { sys::tfe_set_num_threads(threads) })
}

/// The library's thread budget.
pub fn num_threads() -> Result<i32> {
    let mut n = 0;
    // SAFETY: valid out pointer.
    error::check(unsafe { sys::tfe_get_num_threads(&mut n) })?;
    Ok(n)
}

/// The number of usable CUDA devices (0 in a CPU-only build).
pub fn device_count() -> Result<i32> {
    let mut n = 0;
    // SAFETY: valid out pointer.
    error::check(unsafe { sys::tfe_device_count(&mut n) })?;
    Ok(n)
}

/// One core IR op of the library's op table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpInfo {
    /// The IR name ("add", "dot_general", ...).
    pub name: &'static str,
    /// The C function that runs it ("tfe_add", ...).
    pub c_name: &'static str,
}

/// The library's op table: the core IR ops, then the linear algebra functions (`linalg.<name>`).
pub fn op_table() -> Vec<OpInfo> {
    // SAFETY: no arguments.
    let n = unsafe { sys::tfe_op_count() };
    let text = |p: *const std::os::raw::c_char| {
        if p.is_null() {
            ""
        } else {
            // SAFETY: non-NULL results are static NUL-terminated strings.
            unsafe { CStr::from_ptr(p) }.to_str().unwrap_or("")
        }
    };
    (0..n)
        .map(|i| OpInfo {
            // SAFETY: any index is accepted (NULL out of range).
            name: text(unsafe { sys::tfe_op_name(i) }),
            // SAFETY: as above.
            c_name: text(unsafe { sys::tfe_op_c_name(i) }),
        })
        .collect()
}
