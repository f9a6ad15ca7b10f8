//! Traced programs (`program.h`): ops on symbolic tensors build a program, a [`Function`] made
//! from its inputs and outputs compiles once per argument shapes and runs many times, and its
//! derivatives are new functions.
//!
//! ```
//! # fn main() -> tenferro::Result<()> {
//! use tenferro::{Context, DType, Function, Tensor};
//! let ctx = Context::new()?;
//! let x = Tensor::symbolic(&ctx, DType::F64, &[-1])?; // [n]: symbol 1
//! let y = (&x * &x)?.sum(&[])?;
//! let f = Function::new(&[&x], &[&y])?;
//! let g = f.grad(&[])?;
//! let v = Tensor::from_slice(&ctx, &[1.0, 2.0, 3.0], &[3])?;
//! assert_eq!(g.call1(&[&v])?.to_vec::<f64>()?, [2.0, 4.0, 6.0]);
//! # Ok(()) }
//! ```

use std::ptr::{self, NonNull};

use tenferro_sys as sys;

use crate::context::Context;
use crate::element::DType;
use crate::error::{check, count, Error, Result, Status};
use crate::tensor::{new_tensor, raw_list, Tensor};

impl Tensor {
    /// A symbolic input of a program to trace: extents `>= 0` are fixed, `-k` is symbol k of
    /// the context (inputs naming the same symbol must agree when called).
    pub fn symbolic(ctx: &Context, dtype: DType, shape: &[i64]) -> Result<Tensor> {
        let n = count(shape.len(), "Tensor::symbolic")?;
        // SAFETY: shape has n entries.
        new_tensor(|out| unsafe {
            sys::tfe_tensor_symbolic(out, ctx.as_ptr(), dtype.to_raw(), n, shape.as_ptr())
        })
    }

    /// Whether the tensor is symbolic (an input or a traced value): it then has no values.
    pub fn is_symbolic(&self) -> Result<bool> {
        let mut flag = 0;
        // SAFETY: live handle, valid out pointer.
        check(unsafe { sys::tfe_tensor_is_symbolic(self.as_ptr(), &mut flag) })?;
        Ok(flag != 0)
    }

    /// The text of extent `axis`: "5", "s1", "(s1+1)".
    pub fn extent_text(&self, axis: i64) -> Result<String> {
        let mut needed = 0i64;
        // SAFETY: NULL buffer with capacity 0 is allowed; valid out pointer.
        check(unsafe {
            sys::tfe_tensor_extent_text(self.as_ptr(), axis, ptr::null_mut(), 0, &mut needed)
        })?;
        let mut buf = vec![0u8; usize::try_from(needed).unwrap_or(0).max(1)];
        let capacity = i64::try_from(buf.len()).unwrap_or(i64::MAX);
        // SAFETY: buf has `capacity` bytes.
        check(unsafe {
            sys::tfe_tensor_extent_text(
                self.as_ptr(),
                axis,
                buf.as_mut_ptr().cast(),
                capacity,
                &mut needed,
            )
        })?;
        let len = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
        buf.truncate(len);
        Ok(String::from_utf8_lossy(&buf).into_owned())
    }
}

/// How [`Function::hvp`] computes Hessian-vector products (both give the same values).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum HvpMode {
    /// The JVP of the gradient.
    ForwardOverReverse,
    /// The gradient of `<gradient, v>`.
    ReverseOverReverse,
}

/// A traced function from symbolic inputs to outputs.
///
/// `Clone` adds a reference. `Send` and `Sync` for the reasons given on [`Tensor`]: the C ABI
/// allows every call from any thread, and a function is immutable once created (its compiled
/// programs live in the context's synchronized caches).
pub struct Function {
    raw: NonNull<sys::tfe_function>,
}

// SAFETY: see the type's documentation.
unsafe impl Send for Function {}
// SAFETY: see the type's documentation.
unsafe impl Sync for Function {}

type TransformFn = unsafe extern "C" fn(
    *mut *mut sys::tfe_function,
    *const sys::tfe_function,
    i32,
    *const i64,
) -> i32;

/// Owns a results handle while its tensors are taken out.
struct Results(*mut sys::tfe_results);

impl Drop for Results {
    fn drop(&mut self) {
        // SAFETY: we own the reference (NULL-safe).
        unsafe { sys::tfe_results_release(self.0) }
    }
}

impl Function {
    fn from_owned(raw: *mut sys::tfe_function) -> Result<Function> {
        NonNull::new(raw)
            .map(|raw| Function { raw })
            .ok_or_else(|| Error::new(Status::INTERNAL, "tenferro: NULL function after TFE_OK"))
    }

    fn new_function(call: impl FnOnce(*mut *mut sys::tfe_function) -> i32) -> Result<Function> {
        let mut out = ptr::null_mut();
        check(call(&mut out))?;
        Function::from_owned(out)
    }

    /// The raw handle, borrowed for the lifetime of `self`.
    pub fn as_ptr(&self) -> *mut sys::tfe_function {
        self.raw.as_ptr()
    }

    /// A function of the symbolic `inputs` (in argument order) returning `outputs` (traced
    /// values, inputs, or concrete tensors, which become constants).
    pub fn new(inputs: &[&Tensor], outputs: &[&Tensor]) -> Result<Function> {
        let (ins, outs) = (raw_list(inputs), raw_list(outputs));
        let ni = count(ins.len(), "Function::new")?;
        let no = count(outs.len(), "Function::new")?;
        // SAFETY: ins and outs hold ni and no live handles.
        Function::new_function(|out| unsafe {
            sys::tfe_function_create(out, ni, ins.as_ptr(), no, outs.as_ptr())
        })
    }

    /// Number of inputs.
    pub fn num_inputs(&self) -> Result<usize> {
        let mut n = 0;
        // SAFETY: live handle, valid out pointer.
        check(unsafe { sys::tfe_function_num_inputs(self.as_ptr(), &mut n) })?;
        Ok(usize::try_from(n).unwrap_or(0))
    }

    /// Number of outputs.
    pub fn num_outputs(&self) -> Result<usize> {
        let mut n = 0;
        // SAFETY: live handle, valid out pointer.
        check(unsafe { sys::tfe_function_num_outputs(self.as_ptr(), &mut n) })?;
        Ok(usize::try_from(n).unwrap_or(0))
    }

    /// Calls the function on concrete tensors (compiled for their shapes on first use, cached
    /// per context) and returns every output.
    pub fn call(&self, args: &[&Tensor]) -> Result<Vec<Tensor>> {
        let raw = raw_list(args);
        let n = count(raw.len(), "Function::call")?;
        let mut results = Results(ptr::null_mut());
        // SAFETY: raw holds n live handles; results.0 is a valid out pointer.
        check(unsafe { sys::tfe_function_call(&mut results.0, self.as_ptr(), n, raw.as_ptr()) })?;
        let mut k = 0;
        // SAFETY: live results handle, valid out pointer.
        check(unsafe { sys::tfe_results_count(results.0, &mut k) })?;
        (0..k)
            // SAFETY: i is in [0, count).
            .map(|i| new_tensor(|out| unsafe { sys::tfe_results_get(out, results.0, i) }))
            .collect()
    }

    /// Calls a function with exactly one output and returns it.
    pub fn call1(&self, args: &[&Tensor]) -> Result<Tensor> {
        let raw = raw_list(args);
        let n = count(raw.len(), "Function::call1")?;
        // SAFETY: raw holds n live handles.
        new_tensor(|out| unsafe { sys::tfe_function_call1(out, self.as_ptr(), n, raw.as_ptr()) })
    }

    fn transform(&self, f: TransformFn, wrt: &[i64], what: &str) -> Result<Function> {
        let n = count(wrt.len(), what)?;
        // SAFETY: `f` is a transform taking (out, f, n_wrt, wrt); wrt has n entries.
        Function::new_function(|out| unsafe { f(out, self.as_ptr(), n, wrt.as_ptr()) })
    }

    /// Forward mode: the new function takes the inputs, then one tangent per `wrt` input, and
    /// returns the outputs, then one tangent per output. Empty `wrt` means every input.
    pub fn jvp(&self, wrt: &[i64]) -> Result<Function> {
        self.transform(sys::tfe_function_jvp, wrt, "Function::jvp")
    }

    /// Reverse mode: the new function takes the inputs, then one cotangent per output, and
    /// returns the outputs, then one gradient per `wrt` input.
    pub fn vjp(&self, wrt: &[i64]) -> Result<Function> {
        self.transform(sys::tfe_function_vjp, wrt, "Function::vjp")
    }

    /// The gradient of a one-element output: takes the inputs, returns one gradient per `wrt`
    /// input.
    pub fn grad(&self, wrt: &[i64]) -> Result<Function> {
        self.transform(sys::tfe_function_grad, wrt, "Function::grad")
    }

    /// Hessian-vector products of a one-element output: takes the inputs, then one direction
    /// per `wrt` input, returns `H v` per `wrt` input.
    pub fn hvp(&self, wrt: &[i64], mode: HvpMode) -> Result<Function> {
        let n = count(wrt.len(), "Function::hvp")?;
        let mode = match mode {
            HvpMode::ForwardOverReverse => sys::TFE_HVP_FORWARD_OVER_REVERSE,
            HvpMode::ReverseOverReverse => sys::TFE_HVP_REVERSE_OVER_REVERSE,
        };
        // SAFETY: wrt has n entries.
        Function::new_function(|out| unsafe {
            sys::tfe_function_hvp(out, self.as_ptr(), n, wrt.as_ptr(), mode)
        })
    }

    /// Whether output `i` is structurally zero (a gradient nothing flows into).
    pub fn output_is_zero(&self, i: usize) -> Result<bool> {
        let i = count(i, "Function::output_is_zero")?;
        let mut flag = 0;
        // SAFETY: live handle, valid out pointer; the library checks i.
        check(unsafe { sys::tfe_function_output_is_zero(self.as_ptr(), i, &mut flag) })?;
        Ok(flag != 0)
    }
}

impl Clone for Function {
    fn clone(&self) -> Function {
        // SAFETY: the handle is live, so retain cannot fail.
        let status = unsafe { sys::tfe_function_retain(self.as_ptr()) };
        debug_assert_eq!(status, sys::TFE_OK);
        Function { raw: self.raw }
    }
}

impl Drop for Function {
    fn drop(&mut self) {
        // SAFETY: we own one reference and give it back exactly once.
        unsafe { sys::tfe_function_release(self.as_ptr()) }
    }
}

impl std::fmt::Debug for Function {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Function")
            .field("inputs", &self.num_inputs().ok())
            .field("outputs", &self.num_outputs().ok())
            .finish()
    }
}
