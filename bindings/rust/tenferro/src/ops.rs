//! Elementwise ops (every function of `ops_arith.h`, `ops_elementwise.h` and `ops_math.h`) and
//! the `std::ops` operators.
//!
//! Operands broadcast **left-aligned** (Julia's rule): dim 0 pairs with dim 0 and the shorter
//! shape is padded with trailing 1s, so `[2, 3] + [2]` adds the column to every column while
//! `[2, 3] + [3]` is a [`Status::SHAPE_MISMATCH`](crate::Status::SHAPE_MISMATCH). Binary
//! arithmetic promotes to the joined dtype (NumPy's `result_type`).
//!
//! The operators return [`Result<Tensor>`] because an op can fail (shapes, dtypes):
//! ```
//! # fn main() -> tenferro::Result<()> {
//! use tenferro::{Context, Tensor};
//! let ctx = Context::new()?;
//! let a = Tensor::from_slice(&ctx, &[1.0, 2.0, 3.0, 4.0], &[2, 2])?;
//! let col = Tensor::from_slice(&ctx, &[10.0, 20.0], &[2])?;
//! let b = ((&a + &col)? * &a)?;
//! assert_eq!(b.to_vec::<f64>()?, [11.0, 44.0, 39.0, 96.0]);
//! assert!((&a + &Tensor::from_slice(&ctx, &[1.0; 3], &[3])?).is_err());
//! # Ok(()) }
//! ```

use tenferro_sys as sys;

use crate::error::Result;
use crate::tensor::{new_tensor, Tensor};

type UnaryFn = unsafe extern "C" fn(*mut *mut sys::tfe_tensor, *const sys::tfe_tensor) -> i32;
type BinaryFn = unsafe extern "C" fn(
    *mut *mut sys::tfe_tensor,
    *const sys::tfe_tensor,
    *const sys::tfe_tensor,
) -> i32;

#[inline]
fn unary(f: UnaryFn, x: &Tensor) -> Result<Tensor> {
    // SAFETY: `f` is one of the C functions taking (out, x); x is a live handle.
    new_tensor(|out| unsafe { f(out, x.as_ptr()) })
}

#[inline]
fn binary(f: BinaryFn, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    // SAFETY: `f` is one of the C functions taking (out, a, b); both handles are live.
    new_tensor(|out| unsafe { f(out, a.as_ptr(), b.as_ptr()) })
}

macro_rules! unary_ops {
    ($($(#[$doc:meta])* $name:ident => $c:ident, method: $method:tt;)*) => {
        $(
            $(#[$doc])*
            pub fn $name(x: &Tensor) -> Result<Tensor> {
                unary(sys::$c, x)
            }
        )*
        impl Tensor {
            $(unary_ops!(@method $method $name $(#[$doc])*);)*
        }
    };
    (@method yes $name:ident $(#[$doc:meta])*) => {
        $(#[$doc])*
        pub fn $name(&self) -> Result<Tensor> {
            $name(self)
        }
    };
    (@method no $name:ident $(#[$doc:meta])*) => {};
}

macro_rules! binary_ops {
    ($($(#[$doc:meta])* $name:ident => $c:ident, method: $method:tt;)*) => {
        $(
            $(#[$doc])*
            pub fn $name(a: &Tensor, b: &Tensor) -> Result<Tensor> {
                binary(sys::$c, a, b)
            }
        )*
        impl Tensor {
            $(binary_ops!(@method $method $name $(#[$doc])*);)*
        }
    };
    (@method yes $name:ident $(#[$doc:meta])*) => {
        $(#[$doc])*
        pub fn $name(&self, other: &Tensor) -> Result<Tensor> {
            $name(self, other)
        }
    };
    (@method no $name:ident $(#[$doc:meta])*) => {};
}

// The functions with checks of their own (ops_elementwise.h). div gets no inherent method:
// the name belongs to std::ops::Div, and an inherent method of the same name would make
// `a.div(b)` resolve differently depending on imports.
binary_ops! {
    /// True division: Bool and integers are converted to F64 first (1 / 0 is inf).
    div => tfe_div, method: no;
    /// Integer division truncating toward zero; integers only; a zero divisor is
    /// `Status::NUMERICAL`.
    div_trunc => tfe_div_trunc, method: yes;
}

// add, neg, and, real, ...: one entry per Regular row of the op registry.
include!("ops_arith.rs");

// exp, sin, atan2, ...: one entry per row of the op registry.
include!("ops_math.rs");

/// Direction of [`compare`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Comparison {
    /// `a == b`
    Eq,
    /// `a != b`
    Ne,
    /// `a < b`
    Lt,
    /// `a <= b`
    Le,
    /// `a > b`
    Gt,
    /// `a >= b`
    Ge,
}

impl Comparison {
    fn to_raw(self) -> i32 {
        match self {
            Comparison::Eq => sys::TFE_CMP_EQ,
            Comparison::Ne => sys::TFE_CMP_NE,
            Comparison::Lt => sys::TFE_CMP_LT,
            Comparison::Le => sys::TFE_CMP_LE,
            Comparison::Gt => sys::TFE_CMP_GT,
            Comparison::Ge => sys::TFE_CMP_GE,
        }
    }
}

/// A Bool tensor comparing `a` with `b` (complex operands only for `Eq` and `Ne`).
pub fn compare(a: &Tensor, b: &Tensor, direction: Comparison) -> Result<Tensor> {
    // SAFETY: live handles; direction is one of the TFE_CMP_* constants.
    new_tensor(|out| unsafe { sys::tfe_compare(out, a.as_ptr(), b.as_ptr(), direction.to_raw()) })
}

/// `pred ? on_true : on_false` elementwise; `pred` is Bool, the values promote.
pub fn select(pred: &Tensor, on_true: &Tensor, on_false: &Tensor) -> Result<Tensor> {
    // SAFETY: live handles.
    new_tensor(|out| unsafe {
        sys::tfe_select(out, pred.as_ptr(), on_true.as_ptr(), on_false.as_ptr())
    })
}

/// `minimum(maximum(x, lo), hi)`; no complex.
pub fn clamp(x: &Tensor, lo: &Tensor, hi: &Tensor) -> Result<Tensor> {
    // SAFETY: live handles.
    new_tensor(|out| unsafe { sys::tfe_clamp(out, x.as_ptr(), lo.as_ptr(), hi.as_ptr()) })
}

impl Tensor {
    /// See [`compare`].
    pub fn compare(&self, other: &Tensor, direction: Comparison) -> Result<Tensor> {
        compare(self, other, direction)
    }

    /// See [`clamp`].
    pub fn clamp(&self, lo: &Tensor, hi: &Tensor) -> Result<Tensor> {
        clamp(self, lo, hi)
    }
}

macro_rules! operator {
    ($trait:ident, $method:ident, $f:ident) => {
        impl std::ops::$trait<&Tensor> for &Tensor {
            type Output = Result<Tensor>;
            #[inline]
            fn $method(self, rhs: &Tensor) -> Result<Tensor> {
                $f(self, rhs)
            }
        }
        impl std::ops::$trait<Tensor> for Tensor {
            type Output = Result<Tensor>;
            #[inline]
            fn $method(self, rhs: Tensor) -> Result<Tensor> {
                $f(&self, &rhs)
            }
        }
        impl std::ops::$trait<&Tensor> for Tensor {
            type Output = Result<Tensor>;
            #[inline]
            fn $method(self, rhs: &Tensor) -> Result<Tensor> {
                $f(&self, rhs)
            }
        }
        impl std::ops::$trait<Tensor> for &Tensor {
            type Output = Result<Tensor>;
            #[inline]
            fn $method(self, rhs: Tensor) -> Result<Tensor> {
                $f(self, &rhs)
            }
        }
    };
}

operator!(Add, add, add);
operator!(Sub, sub, sub);
operator!(Mul, mul, mul);
operator!(Div, div, div);

impl std::ops::Neg for &Tensor {
    type Output = Result<Tensor>;
    fn neg(self) -> Result<Tensor> {
        neg(self)
    }
}

impl std::ops::Neg for Tensor {
    type Output = Result<Tensor>;
    fn neg(self) -> Result<Tensor> {
        neg(&self)
    }
}
