//! Contexts: the owner of derivative caches, AD scopes and (in dataflow mode) a scheduler.

use std::ptr::{self, NonNull};

use tenferro_sys as sys;

use crate::error::{check, Error, Result, Status};

/// How a dataflow context runs its work (see [`Context::dataflow`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Scheduler {
    /// A worker pool (`TFE_SCHEDULER_THREADS`).
    Threads,
    /// Deterministic: work runs inside waits, on the waiting thread (`TFE_SCHEDULER_DEBUG`).
    Debug,
}

/// The mode a context was created in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ContextMode {
    /// Ops compute before they return.
    Eager,
    /// Ops schedule their work and return at once; reads wait.
    Dataflow,
}

/// One of a context's caches.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cache {
    /// Compiled programs, keyed by program and argument shapes (`TFE_CACHE_COMPILED`).
    Compiled,
    /// Derivative programs (`TFE_CACHE_DERIVATIVE`).
    Derivative,
    /// Contraction plans of `einsum`, keyed by subscripts and shapes (`TFE_CACHE_EINSUM`).
    Einsum,
    /// One-op derivative programs of dataflow contexts (`TFE_CACHE_VJP_KERNEL`).
    VjpKernel,
}

impl Cache {
    fn to_raw(self) -> i32 {
        match self {
            Cache::Compiled => sys::TFE_CACHE_COMPILED,
            Cache::Derivative => sys::TFE_CACHE_DERIVATIVE,
            Cache::Einsum => sys::TFE_CACHE_EINSUM,
            Cache::VjpKernel => sys::TFE_CACHE_VJP_KERNEL,
        }
    }
}

/// Counters of one cache ([`Context::cache_stats`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct CacheStats {
    /// Lookups served from the cache.
    pub hits: i64,
    /// Lookups that had to build an entry.
    pub misses: i64,
    /// Entries held now.
    pub entries: i64,
    /// Estimated bytes held now.
    pub bytes: i64,
}

/// A library context. Every tensor belongs to one and keeps it alive; ops need all their
/// operands in the same context.
///
/// `Clone` adds a reference (`tfe_context_retain`), `Drop` releases one.
///
/// `Send` and `Sync`: the C ABI promises that every function may be called from any thread and
/// that a context may be used from several threads at once (its allocator and caches are
/// synchronized internally). AD scopes are per thread, which is why [`crate::ad::NoGradGuard`]
/// is not `Send`.
pub struct Context {
    raw: NonNull<sys::tfe_context>,
}

// SAFETY: see the type's documentation: the library synchronizes all shared state of a context
// and allows every call on it from any thread.
unsafe impl Send for Context {}
// SAFETY: as for Send; `&Context` only exposes calls the ABI allows concurrently.
unsafe impl Sync for Context {}

/// Fails unless the loaded library has the ABI these bindings were generated for.
fn check_abi() -> Result<()> {
    // SAFETY: no arguments, no preconditions.
    let found = unsafe { sys::tfe_abi_version() };
    if found == sys::TFE_ABI_VERSION {
        Ok(())
    } else {
        Err(Error::new(
            Status::NOT_SUPPORTED,
            format!(
                "tenferro: the loaded library has ABI version {found}, these bindings need {}",
                sys::TFE_ABI_VERSION
            ),
        ))
    }
}

impl Context {
    /// A new eager context: ops compute before they return.
    ///
    /// Fails with [`Status::NOT_SUPPORTED`] when the loaded library's ABI version differs from
    /// [`crate::ABI_VERSION`].
    pub fn new() -> Result<Context> {
        check_abi()?;
        let mut raw = ptr::null_mut();
        // SAFETY: `raw` is a valid out pointer.
        check(unsafe { sys::tfe_context_create(&mut raw) })?;
        Context::from_owned(raw)
    }

    /// A new dataflow context: ops check shapes and dtypes, schedule their work and return at
    /// once; reading a value waits for it, and numerical errors surface at the first read.
    ///
    /// `threads`: pool size including the waiting thread, 0 for the library's thread budget;
    /// 0 or 1 with [`Scheduler::Debug`].
    pub fn dataflow(scheduler: Scheduler, threads: i32) -> Result<Context> {
        check_abi()?;
        let scheduler = match scheduler {
            Scheduler::Threads => sys::TFE_SCHEDULER_THREADS,
            Scheduler::Debug => sys::TFE_SCHEDULER_DEBUG,
        };
        let mut raw = ptr::null_mut();
        // SAFETY: `raw` is a valid out pointer; the library validates the integers.
        check(unsafe { sys::tfe_context_create_dataflow(&mut raw, scheduler, threads) })?;
        Context::from_owned(raw)
    }

    /// Takes ownership of a new reference.
    pub(crate) fn from_owned(raw: *mut sys::tfe_context) -> Result<Context> {
        NonNull::new(raw)
            .map(|raw| Context { raw })
            .ok_or_else(|| Error::new(Status::INTERNAL, "tenferro: NULL context after TFE_OK"))
    }

    /// The raw handle, borrowed for the lifetime of `self` (for direct `tenferro_sys` calls).
    pub fn as_ptr(&self) -> *mut sys::tfe_context {
        self.raw.as_ptr()
    }

    /// Eager or dataflow.
    pub fn mode(&self) -> Result<ContextMode> {
        let mut mode = 0;
        // SAFETY: live handle, valid out pointer.
        check(unsafe { sys::tfe_context_mode(self.as_ptr(), &mut mode) })?;
        match mode {
            sys::TFE_CONTEXT_EAGER => Ok(ContextMode::Eager),
            sys::TFE_CONTEXT_DATAFLOW => Ok(ContextMode::Dataflow),
            other => Err(Error::new(
                Status::NOT_SUPPORTED,
                format!("Context::mode: unknown mode {other}"),
            )),
        }
    }

    /// Hit, miss, entry and byte counts of one cache.
    pub fn cache_stats(&self, cache: Cache) -> Result<CacheStats> {
        let mut s = CacheStats::default();
        // SAFETY: live handle; the four out pointers are valid.
        check(unsafe {
            sys::tfe_context_cache_stats(
                self.as_ptr(),
                cache.to_raw(),
                &mut s.hits,
                &mut s.misses,
                &mut s.entries,
                &mut s.bytes,
            )
        })?;
        Ok(s)
    }

    /// Empties one cache (the counters are kept).
    pub fn clear_cache(&self, cache: Cache) -> Result<()> {
        // SAFETY: live handle.
        check(unsafe { sys::tfe_context_cache_clear(self.as_ptr(), cache.to_raw()) })
    }

    /// Bounds a cache by entries and estimated bytes; least recently used entries go first.
    pub fn set_cache_limits(&self, cache: Cache, max_entries: i64, max_bytes: i64) -> Result<()> {
        // SAFETY: live handle; the library validates the limits.
        check(unsafe {
            sys::tfe_context_cache_limits(self.as_ptr(), cache.to_raw(), max_entries, max_bytes)
        })
    }
}

impl Clone for Context {
    fn clone(&self) -> Context {
        // SAFETY: the handle is live, so retain cannot fail (it only rejects NULL).
        let status = unsafe { sys::tfe_context_retain(self.as_ptr()) };
        debug_assert_eq!(status, sys::TFE_OK);
        Context { raw: self.raw }
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        // SAFETY: we own one reference and give it back exactly once.
        unsafe { sys::tfe_context_release(self.as_ptr()) }
    }
}

impl std::fmt::Debug for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context")
            .field("mode", &self.mode().ok())
            .finish()
    }
}
