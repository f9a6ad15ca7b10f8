//! Errors: every fallible call returns [`Result`], carrying the library's status code and the
//! one-line message it left for the failing call.

use std::ffi::CStr;
use std::fmt;

use tenferro_sys as sys;

/// A status code of the C ABI (`TFE_OK`, `TFE_ERR_*`).
///
/// A newtype rather than an enum: codes are append-only, so a newer library may return a code
/// this crate does not name, and that must stay representable. Compare with the associated
/// constants.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Status(pub i32);

impl Status {
    /// Success (never carried by an [`Error`]).
    pub const OK: Status = Status(sys::TFE_OK);
    /// A NULL or out-of-range argument, an unknown constant, two contexts mixed, ...
    pub const INVALID_ARGUMENT: Status = Status(sys::TFE_ERR_INVALID_ARGUMENT);
    /// Shapes that do not broadcast or do not fit the op.
    pub const SHAPE_MISMATCH: Status = Status(sys::TFE_ERR_SHAPE_MISMATCH);
    /// A dtype the op does not accept, or a typed read with the wrong element type.
    pub const DTYPE_MISMATCH: Status = Status(sys::TFE_ERR_DTYPE_MISMATCH);
    /// An allocation failed.
    pub const OUT_OF_MEMORY: Status = Status(sys::TFE_ERR_OUT_OF_MEMORY);
    /// The operation is not available here (e.g. functional AD in a dataflow context).
    pub const NOT_SUPPORTED: Status = Status(sys::TFE_ERR_NOT_SUPPORTED);
    /// A device (CUDA) failure.
    pub const DEVICE: Status = Status(sys::TFE_ERR_DEVICE);
    /// No derivative: nothing to differentiate, or an op without a derivative rule.
    pub const NOT_DIFFERENTIABLE: Status = Status(sys::TFE_ERR_NOT_DIFFERENTIABLE);
    /// An exactly singular matrix where a solve or inverse needs a regular one.
    pub const SINGULAR: Status = Status(sys::TFE_ERR_SINGULAR);
    /// LAPACK did not converge.
    pub const NON_CONVERGENCE: Status = Status(sys::TFE_ERR_NON_CONVERGENCE);
    /// A numerical failure (integer division by zero, a matrix that is not positive definite).
    pub const NUMERICAL: Status = Status(sys::TFE_ERR_NUMERICAL);
    /// A bug in the library.
    pub const INTERNAL: Status = Status(sys::TFE_ERR_INTERNAL);

    /// The constant's name as the library spells it ("TFE_ERR_SHAPE_MISMATCH"), or
    /// "TFE_ERR_UNKNOWN" for a code it does not know.
    pub fn name(self) -> &'static str {
        // SAFETY: tfe_status_name accepts any value and returns a pointer to a static,
        // NUL-terminated string (never NULL, never freed).
        let name = unsafe { CStr::from_ptr(sys::tfe_status_name(self.0)) };
        name.to_str().unwrap_or("TFE_ERR_UNKNOWN")
    }
}

impl fmt::Debug for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({})", self.name(), self.0)
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A failed call: the status and the library's message, which starts with the name of the C
/// function that failed (or of the Rust method, for checks this crate makes before calling).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// What kind of failure.
    pub status: Status,
    /// One line naming the function and the offending values.
    pub message: String,
}

/// The result of every fallible call of this crate.
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// An error raised by this crate itself (argument checks that must happen before the C
    /// call because the C side cannot see the length of a Rust slice).
    pub(crate) fn new(status: Status, message: impl Into<String>) -> Error {
        Error {
            status,
            message: message.into(),
        }
    }

    /// The error of a call that just returned `status` on this thread.
    fn from_last_call(status: i32) -> Error {
        // SAFETY: tfe_last_error_message never fails and returns a NUL-terminated string that
        // stays valid until the next state-changing call on this thread; it is copied at once.
        let message = unsafe { CStr::from_ptr(sys::tfe_last_error_message()) };
        Error {
            status: Status(status),
            message: message.to_string_lossy().into_owned(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.status.name(), self.message)
    }
}

impl std::error::Error for Error {}

/// Turns a status into a `Result`, reading the thread's error message on failure. Must be called
/// right after the C call, before any other library call on the thread.
#[inline]
pub(crate) fn check(status: i32) -> Result<()> {
    if status == sys::TFE_OK {
        Ok(())
    } else {
        Err(Error::from_last_call(status))
    }
}

/// Converts a Rust length into the `int32_t` count of the C ABI.
pub(crate) fn count(n: usize, what: &str) -> Result<i32> {
    i32::try_from(n).map_err(|_| {
        Error::new(
            Status::INVALID_ARGUMENT,
            format!("{what}: {n} entries do not fit an int32_t count"),
        )
    })
}

/// A copy of the last error message of this thread ("" after a successful call).
///
/// Every [`Error`] already carries its message; this is for code that mixes this crate with
/// direct `tenferro_sys` calls.
pub fn last_error_message() -> String {
    let mut needed: i64 = 0;
    // SAFETY: a NULL buffer with capacity 0 is allowed; `needed` is a valid out pointer.
    let status = unsafe { sys::tfe_last_error_copy(std::ptr::null_mut(), 0, &mut needed) };
    if status != sys::TFE_OK || needed <= 1 {
        return String::new();
    }
    let mut buf = vec![0u8; needed as usize];
    // SAFETY: buf has `needed` bytes, the capacity passed.
    let status = unsafe { sys::tfe_last_error_copy(buf.as_mut_ptr().cast(), needed, &mut needed) };
    if status != sys::TFE_OK {
        return String::new();
    }
    let len = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    buf.truncate(len);
    String::from_utf8_lossy(&buf).into_owned()
}
