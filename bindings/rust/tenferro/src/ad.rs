//! Eager automatic differentiation (`ad.h`): variables, `backward`, stored gradients, the
//! functional [`vjp`] and [`jvp`], and the [`no_grad`] and [`capture_trace`] scopes.
//!
//! Ops on tracked tensors run at once and append a node to a trace; the trace is analysed only
//! when a derivative is requested. A complex leaf receives `dL/dRe + i dL/dIm`; a real leaf of a
//! complex computation receives the real part.
//!
//! ```
//! # fn main() -> tenferro::Result<()> {
//! use tenferro::{Context, Tensor};
//! let ctx = Context::new()?;
//! let x = Tensor::from_slice(&ctx, &[1.0, 2.0, 3.0], &[3])?;
//! x.set_requires_grad(true)?;
//! let loss = (&x * &x)?.sum(&[])?;
//! loss.backward()?;
//! assert_eq!(x.grad()?.unwrap().to_vec::<f64>()?, [2.0, 4.0, 6.0]);
//! # Ok(()) }
//! ```

use std::marker::PhantomData;
use std::ptr;

use tenferro_sys as sys;

use crate::context::Context;
use crate::error::{check, count, Error, Result, Status};
use crate::tensor::{new_tensor, raw_list, Tensor};

impl Tensor {
    /// Makes this leaf a variable (`true`) or a plain tensor again (`false`). Only float and
    /// complex leaves (else `Status::DTYPE_MISMATCH`); in an eager context not on results of
    /// recorded ops (`Status::INVALID_ARGUMENT`).
    pub fn set_requires_grad(&self, flag: bool) -> Result<()> {
        // SAFETY: live handle; the library synchronizes the flag.
        check(unsafe { sys::tfe_tensor_set_requires_grad(self.as_ptr(), i32::from(flag)) })
    }

    /// `self` made a variable, for chaining: `Tensor::from_slice(..)?.requires_grad_()?`.
    pub fn requires_grad_(self) -> Result<Tensor> {
        self.set_requires_grad(true)?;
        Ok(self)
    }

    /// Whether the tensor is tracked (a variable, a captured leaf, or a recorded op's result).
    pub fn requires_grad(&self) -> Result<bool> {
        let mut flag = 0;
        // SAFETY: live handle, valid out pointer.
        check(unsafe { sys::tfe_tensor_requires_grad(self.as_ptr(), &mut flag) })?;
        Ok(flag != 0)
    }

    /// Accumulates `d(loss)/d(leaf)` into every variable this one-element loss depends on.
    pub fn backward(&self) -> Result<()> {
        // SAFETY: live handle; NULL seed means the implicit 1.
        check(unsafe { sys::tfe_backward(self.as_ptr(), ptr::null()) })
    }

    /// Accumulates `d(seed . loss)/d(leaf)`; `seed` has the loss's shape and dtype (or the real
    /// dtype of a complex loss).
    pub fn backward_with_seed(&self, seed: &Tensor) -> Result<()> {
        // SAFETY: live handles.
        check(unsafe { sys::tfe_backward(self.as_ptr(), seed.as_ptr()) })
    }

    /// The stored gradient (eager: of a variable; dataflow: of any tracked tensor, waiting for
    /// it), or `None` when there is none.
    pub fn grad(&self) -> Result<Option<Tensor>> {
        let mut out = ptr::null_mut();
        // SAFETY: valid out pointer, live handle.
        check(unsafe { sys::tfe_tensor_grad(&mut out, self.as_ptr()) })?;
        Ok(Tensor::from_owned_opt(out))
    }

    /// Forgets the stored gradient.
    pub fn clear_grad(&self) -> Result<()> {
        // SAFETY: live handle.
        check(unsafe { sys::tfe_tensor_clear_grad(self.as_ptr()) })
    }

    /// An untracked tensor sharing this one's value.
    pub fn detach(&self) -> Result<Tensor> {
        // SAFETY: live handle.
        new_tensor(|out| unsafe { sys::tfe_tensor_detach(out, self.as_ptr()) })
    }
}

/// Functional reverse mode: `d(seed . y)/d(xs[i])` for each `i`, leaving stored gradients
/// alone. `None` for an input `y` does not depend on. `seed: None` is the implicit 1 (`y` with
/// one element). The results are recorded again (outside [`no_grad`]), so [`jvp`] of a `vjp`
/// gives Hessian-vector products. `Status::NOT_SUPPORTED` in a dataflow context.
pub fn vjp(y: &Tensor, xs: &[&Tensor], seed: Option<&Tensor>) -> Result<Vec<Option<Tensor>>> {
    let raw = raw_list(xs);
    let n = count(raw.len(), "vjp")?;
    let mut grads = vec![ptr::null_mut(); raw.len()];
    let seed = seed.map_or(ptr::null(), |s| s.as_ptr().cast_const());
    // SAFETY: grads and raw have n entries; handles are live.
    check(unsafe { sys::tfe_vjp(grads.as_mut_ptr(), y.as_ptr(), n, raw.as_ptr(), seed) })?;
    Ok(grads.into_iter().map(Tensor::from_owned_opt).collect())
}

/// Functional forward mode: the derivative of `y` along `tangents[i]` for `xs[i]` (`None`
/// tangents are zero). `None` when `y` depends on none of the active inputs.
pub fn jvp(y: &Tensor, xs: &[&Tensor], tangents: &[Option<&Tensor>]) -> Result<Option<Tensor>> {
    if xs.len() != tangents.len() {
        return Err(Error::new(
            Status::INVALID_ARGUMENT,
            format!("jvp: {} inputs but {} tangents", xs.len(), tangents.len()),
        ));
    }
    let raw = raw_list(xs);
    let tangents: Vec<*mut sys::tfe_tensor> = tangents
        .iter()
        .map(|t| t.map_or(ptr::null_mut(), Tensor::as_ptr))
        .collect();
    let n = count(raw.len(), "jvp")?;
    let mut out = ptr::null_mut();
    // SAFETY: raw and tangents have n entries; handles are live.
    check(unsafe { sys::tfe_jvp(&mut out, y.as_ptr(), n, raw.as_ptr(), tangents.as_ptr()) })?;
    Ok(Tensor::from_owned_opt(out))
}

/// While alive, ops on this thread in this context record nothing. Made by [`no_grad`].
///
/// Not `Send`: the library's scopes are per thread, so the scope must end on the thread that
/// opened it.
#[derive(Debug)]
#[must_use = "the scope ends when the guard is dropped"]
pub struct NoGradGuard {
    ctx: Context,
    _not_send: PhantomData<*const ()>,
}

/// Opens a no-grad scope for `ctx` on this thread until the guard drops (nestable).
pub fn no_grad(ctx: &Context) -> Result<NoGradGuard> {
    // SAFETY: live handle.
    check(unsafe { sys::tfe_no_grad_enter(ctx.as_ptr()) })?;
    Ok(NoGradGuard {
        ctx: ctx.clone(),
        _not_send: PhantomData,
    })
}

impl Drop for NoGradGuard {
    fn drop(&mut self) {
        // SAFETY: live handle; the matching enter happened on this thread (the guard is !Send),
        // so exit cannot fail.
        let status = unsafe { sys::tfe_no_grad_exit(self.ctx.as_ptr()) };
        debug_assert_eq!(status, sys::TFE_OK);
    }
}

/// While alive, every op on this thread in this context is recorded and its untracked
/// operands become captured leaves that [`vjp`] and [`jvp`] can differentiate with respect to
/// (`backward` never stores gradients into them). Made by [`capture_trace`].
#[derive(Debug)]
#[must_use = "the scope ends when the guard is dropped"]
pub struct CaptureTraceGuard {
    ctx: Context,
    _not_send: PhantomData<*const ()>,
}

/// Opens a capture-trace scope for `ctx` on this thread until the guard drops (nestable;
/// `Status::NOT_SUPPORTED` in a dataflow context).
pub fn capture_trace(ctx: &Context) -> Result<CaptureTraceGuard> {
    // SAFETY: live handle.
    check(unsafe { sys::tfe_capture_trace_enter(ctx.as_ptr()) })?;
    Ok(CaptureTraceGuard {
        ctx: ctx.clone(),
        _not_send: PhantomData,
    })
}

impl Drop for CaptureTraceGuard {
    fn drop(&mut self) {
        // SAFETY: as for NoGradGuard.
        let status = unsafe { sys::tfe_capture_trace_exit(self.ctx.as_ptr()) };
        debug_assert_eq!(status, sys::TFE_OK);
    }
}
