//! Looking at values and graphs while debugging: NumPy's text of a tensor, a typed read into a
//! caller's slice, and Graphviz DOT text of traced functions and eager traces.

use std::ptr;

use tenferro_sys as sys;

use crate::element::Element;
use crate::error::{check, Result};
use crate::program::Function;
use crate::tensor::Tensor;

/// Text from a C function that copies like `tfe_last_error_copy` (a first call for the length).
fn copied_text(fill: impl Fn(*mut std::os::raw::c_char, i64, *mut i64) -> i32) -> Result<String> {
    let mut needed = 0i64;
    check(fill(ptr::null_mut(), 0, &mut needed))?;
    let mut buf = vec![0u8; usize::try_from(needed).unwrap_or(0).max(1)];
    let capacity = i64::try_from(buf.len()).unwrap_or(i64::MAX);
    check(fill(buf.as_mut_ptr().cast(), capacity, ptr::null_mut()))?;
    let len = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    buf.truncate(len);
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

impl Tensor {
    /// NumPy's text of the values (`[[1. 3. 5.]\n [2. 4. 6.]]`), summarized with `...` above
    /// 1000 elements.
    pub fn format(&self) -> Result<String> {
        // SAFETY: live handle; the buffer arguments follow the copy convention.
        copied_text(|buf, cap, needed| unsafe {
            sys::tfe_tensor_format(self.as_ptr(), buf, cap, needed)
        })
    }

    /// Copies the elements, compact column-major, into `dst` (at least `numel` long). The
    /// library checks that `T` is the tensor's element type ([`crate::Status::DTYPE_MISMATCH`]
    /// otherwise; `dst` is then untouched).
    pub fn copy_to<T: Element>(&self, dst: &mut [T]) -> Result<()> {
        let bytes = i64::try_from(std::mem::size_of_val(dst)).unwrap_or(i64::MAX);
        // SAFETY: dst is writable for `bytes` bytes; the library checks the count and the dtype.
        check(unsafe {
            sys::tfe_tensor_copy_to(
                self.as_ptr(),
                T::DTYPE.to_raw(),
                dst.as_mut_ptr().cast(),
                bytes,
            )
        })
    }
}

impl Function {
    /// Graphviz DOT text of the program (derivative functions are programs too); render with
    /// `dot -Tsvg`.
    pub fn to_dot(&self) -> Result<String> {
        // SAFETY: live handle; the buffer arguments follow the copy convention.
        copied_text(|buf, cap, needed| unsafe {
            sys::tfe_function_to_dot(self.as_ptr(), buf, cap, needed)
        })
    }
}

/// Graphviz DOT text of the eager trace below the tracked tensor `y`: what a derivative request
/// would differentiate.
pub fn autograd_to_dot(y: &Tensor) -> Result<String> {
    // SAFETY: live handle; the buffer arguments follow the copy convention.
    copied_text(|buf, cap, needed| unsafe {
        sys::tfe_autograd_to_dot(y.as_ptr(), buf, cap, needed)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Context, Status};

    #[test]
    fn format_copy_to_and_dot() {
        let ctx = Context::new().unwrap();
        let t = Tensor::from_slice(&ctx, &[1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3]).unwrap();
        assert_eq!(t.format().unwrap(), "[[1. 3. 5.]\n [2. 4. 6.]]");
        let mut back = [0.0f64; 6];
        t.copy_to(&mut back).unwrap();
        assert_eq!(back, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let mut wrong = [7i64; 6];
        let err = t.copy_to(&mut wrong).unwrap_err();
        assert_eq!(err.status, Status::DTYPE_MISMATCH);
        assert_eq!(wrong, [7; 6]);
        let err = autograd_to_dot(&t).unwrap_err();
        assert!(err.to_string().contains("not tracked"), "{err}");
    }
}
