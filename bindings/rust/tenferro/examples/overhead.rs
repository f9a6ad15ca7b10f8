//! Per-call overhead of the safe crate: `&a + &b` on two one-element F64 tensors (the result
//! dropped at once) against the same `tfe_add` + `tfe_tensor_release` through tenferro-sys, in
//! the same process. Prints both times and their ratio (the goal is at most 1.1).
//!
//! Run: `cargo run --release --example overhead`

use std::hint::black_box;
use std::ptr;
use std::time::Instant;

use tenferro::{sys, Context, Result, Tensor};

const CALLS: u32 = 200_000;
const ROUNDS: usize = 5;

/// Best of `ROUNDS` timings of `CALLS` calls, in nanoseconds per call.
fn best_ns(mut f: impl FnMut()) -> f64 {
    (0..ROUNDS)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..CALLS {
                f();
            }
            start.elapsed().as_nanos() as f64 / f64::from(CALLS)
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() -> Result<()> {
    let ctx = Context::new()?;
    let a = Tensor::from_slice(&ctx, &[1.0f64], &[1])?;
    let b = Tensor::from_slice(&ctx, &[2.0f64], &[1])?;

    let safe = || {
        let c = black_box(&a) + black_box(&b);
        drop(black_box(c));
    };
    let raw = || {
        let mut out = ptr::null_mut();
        // SAFETY: both handles are live; out is released right away.
        unsafe {
            let status = sys::tfe_add(&mut out, black_box(a.as_ptr()), black_box(b.as_ptr()));
            black_box(status);
            sys::tfe_tensor_release(out);
        }
    };
    // Warm up caches and the allocator, then interleave to share any drift.
    best_ns(safe);
    best_ns(raw);
    let (mut safe_ns, mut raw_ns) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..3 {
        safe_ns = safe_ns.min(best_ns(safe));
        raw_ns = raw_ns.min(best_ns(raw));
    }
    println!(
        "add of two 1-element F64 tensors, best of {} x {CALLS} calls",
        ROUNDS * 3
    );
    println!("safe crate (&a + &b):       {safe_ns:8.1} ns/call");
    println!("raw tenferro-sys tfe_add:   {raw_ns:8.1} ns/call");
    println!("ratio safe / raw:           {:8.3}", safe_ns / raw_ns);
    Ok(())
}
