//! Host scalars as weak operands (`tfe_weak_scalar`, `tfe_binary_scalar`): the scalar's kind
//! decides and the tensor's precision wins within it, as NumPy 2 treats Python scalars, so
//! `&x_f32 * 2.0` stays F32 and `&x_i32 + 1` stays I32 while `&x_i32 * 0.5` is F64.
//! ```
//! # fn main() -> tenferro::Result<()> {
//! use tenferro::{Context, DType, Tensor};
//! let ctx = Context::new()?;
//! let x = Tensor::from_slice(&ctx, &[1.5f32, 2.5], &[2])?;
//! let y = (2.0 * &x)?;
//! assert_eq!(y.dtype()?, DType::F32);
//! assert_eq!(y.to_vec::<f32>()?, [3.0, 5.0]);
//! let i = Tensor::from_slice(&ctx, &[3i32, -4], &[2])?;
//! assert_eq!((&i + 1)?.to_vec::<i32>()?, [4, -3]);
//! assert_eq!((&i * 0.5)?.dtype()?, DType::F64);
//! assert!((&i + (1i64 << 40)).is_err()); // does not fit I32: refused, not wrapped
//! assert_eq!((1 - &i)?.to_vec::<i32>()?, [-2, 5]);
//! # Ok(()) }
//! ```

use tenferro_sys as sys;

use crate::element::{Complex32, Complex64};
use crate::error::Result;
use crate::tensor::{new_tensor, Tensor};

/// A host scalar operand: its kind and value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    /// A bool: takes the tensor's dtype.
    Bool(bool),
    /// An integer: the tensor's dtype (I64 beside Bool); refused when it does not fit.
    Int(i64),
    /// A real number: the tensor's dtype if it is a float or complex, else F64.
    Float(f64),
    /// A complex number `(re, im)`: C32 beside F32/C32, else C64.
    Complex(f64, f64),
}

impl Scalar {
    fn raw(self) -> (i32, i64, f64, f64) {
        match self {
            Scalar::Bool(b) => (sys::TFE_SCALAR_BOOL, b as i64, 0.0, 0.0),
            Scalar::Int(i) => (sys::TFE_SCALAR_INT, i, 0.0, 0.0),
            Scalar::Float(v) => (sys::TFE_SCALAR_FLOAT, 0, v, 0.0),
            Scalar::Complex(re, im) => (sys::TFE_SCALAR_COMPLEX, 0, re, im),
        }
    }
}

macro_rules! scalar_from {
    ($($t:ty => $variant:ident as $as:ty),*) => {
        $(impl From<$t> for Scalar {
            fn from(v: $t) -> Scalar {
                Scalar::$variant(v as $as)
            }
        })*
    };
}
scalar_from!(i32 => Int as i64, i64 => Int as i64, f32 => Float as f64, f64 => Float as f64);

impl From<Complex32> for Scalar {
    fn from(z: Complex32) -> Scalar {
        Scalar::Complex(z.re as f64, z.im as f64)
    }
}

impl From<Complex64> for Scalar {
    fn from(z: Complex64) -> Scalar {
        Scalar::Complex(z.re, z.im)
    }
}

impl From<bool> for Scalar {
    fn from(v: bool) -> Scalar {
        Scalar::Bool(v)
    }
}

/// The binary functions [`binary_scalar`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    /// `tfe_add`
    Add,
    /// `tfe_sub`
    Sub,
    /// `tfe_mul`
    Mul,
    /// `tfe_div` (true division)
    Div,
    /// `tfe_pow`
    Pow,
    /// `tfe_maximum`
    Maximum,
    /// `tfe_minimum`
    Minimum,
}

impl BinaryOp {
    fn raw(self) -> i32 {
        match self {
            BinaryOp::Add => sys::TFE_BINOP_ADD,
            BinaryOp::Sub => sys::TFE_BINOP_SUB,
            BinaryOp::Mul => sys::TFE_BINOP_MUL,
            BinaryOp::Div => sys::TFE_BINOP_DIV,
            BinaryOp::Pow => sys::TFE_BINOP_POW,
            BinaryOp::Maximum => sys::TFE_BINOP_MAXIMUM,
            BinaryOp::Minimum => sys::TFE_BINOP_MINIMUM,
        }
    }
}

/// `op(x, s)`, or `op(s, x)` when `scalar_first`, with `s` a weak scalar beside `x`.
pub fn binary_scalar(op: BinaryOp, x: &Tensor, s: Scalar, scalar_first: bool) -> Result<Tensor> {
    let (kind, i, re, im) = s.raw();
    // SAFETY: x is a live handle; the other arguments are plain values the function checks.
    new_tensor(|out| unsafe {
        sys::tfe_binary_scalar(out, op.raw(), x.as_ptr(), kind, i, re, im, scalar_first as i32)
    })
}

impl Tensor {
    /// A rank-0 tensor holding `s` as a weak operand beside `self` (in its context).
    pub fn scalar_like(&self, s: impl Into<Scalar>) -> Result<Tensor> {
        let (kind, i, re, im) = s.into().raw();
        let ctx = self.context()?;
        let dtype = self.dtype()?.to_raw();
        // SAFETY: ctx is a live context handle; the other arguments are plain values.
        new_tensor(|out| unsafe { sys::tfe_weak_scalar(out, ctx.as_ptr(), dtype, kind, i, re, im) })
    }
}

// One float and one integer type per operator, so a bare literal (`2.0 * &x`, `&x + 1`) has
// exactly one impl to infer; other widths convert with `as` or go through `binary_scalar`.
macro_rules! scalar_operator {
    ($trait:ident, $method:ident, $op:ident, $($t:ty),*) => {
        $(
            impl std::ops::$trait<$t> for &Tensor {
                type Output = Result<Tensor>;
                fn $method(self, rhs: $t) -> Result<Tensor> {
                    binary_scalar(BinaryOp::$op, self, rhs.into(), false)
                }
            }
            impl std::ops::$trait<$t> for Tensor {
                type Output = Result<Tensor>;
                fn $method(self, rhs: $t) -> Result<Tensor> {
                    binary_scalar(BinaryOp::$op, &self, rhs.into(), false)
                }
            }
            impl std::ops::$trait<&Tensor> for $t {
                type Output = Result<Tensor>;
                fn $method(self, rhs: &Tensor) -> Result<Tensor> {
                    binary_scalar(BinaryOp::$op, rhs, self.into(), true)
                }
            }
            impl std::ops::$trait<Tensor> for $t {
                type Output = Result<Tensor>;
                fn $method(self, rhs: Tensor) -> Result<Tensor> {
                    binary_scalar(BinaryOp::$op, &rhs, self.into(), true)
                }
            }
        )*
    };
}

scalar_operator!(Add, add, Add, f64, i64);
scalar_operator!(Sub, sub, Sub, f64, i64);
scalar_operator!(Mul, mul, Mul, f64, i64);
scalar_operator!(Div, div, Div, f64, i64);
