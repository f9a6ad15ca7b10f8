//! Shared test harness: serializes the tests of one binary and checks that each leaves no live
//! library object behind.
//!
//! `tfe_debug_live_objects` counts handles process-wide, and cargo runs the tests of a binary on
//! parallel threads, so a per-test count is only exact when tests do not overlap: every test
//! runs its body under one mutex, and checks the count before and after.

#![allow(dead_code)]

use std::sync::Mutex;

use tenferro::{debug_live_objects, Context, Result, Status, Tensor};

static LOCK: Mutex<()> = Mutex::new(());

/// Runs `body` with a fresh eager context; fails the test on an error or on a leak.
pub fn run(body: impl FnOnce(&Context) -> Result<()>) {
    run_with(Context::new, body)
}

/// As `run`, with a context made by `make`.
pub fn run_with(make: impl FnOnce() -> Result<Context>, body: impl FnOnce(&Context) -> Result<()>) {
    // A test that panicked poisoned the lock; its objects were dropped while unwinding.
    let _guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    assert_eq!(debug_live_objects(), 0, "objects alive before the test");
    let result = {
        let ctx = make().expect("context");
        body(&ctx)
    };
    if let Err(e) = result {
        panic!("test failed: {e}");
    }
    assert_eq!(debug_live_objects(), 0, "objects alive after the test");
}

/// Asserts that `r` failed with `status`, and that the message is non-empty.
#[track_caller]
pub fn expect_status<T: std::fmt::Debug>(r: Result<T>, status: Status) {
    match r {
        Ok(v) => panic!("expected {status}, got Ok({v:?})"),
        Err(e) => {
            assert_eq!(e.status, status, "{e}");
            assert!(!e.message.is_empty());
        }
    }
}

/// Asserts elementwise closeness.
#[track_caller]
pub fn assert_close(got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len(), "{got:?} vs {want:?}");
    for (g, w) in got.iter().zip(want) {
        assert!(
            (g - w).abs() <= tol * (1.0 + w.abs()),
            "{got:?} vs {want:?}"
        );
    }
}

/// A column-major F64 tensor.
pub fn t64(ctx: &Context, data: &[f64], shape: &[i64]) -> Result<Tensor> {
    Tensor::from_slice(ctx, data, shape)
}
