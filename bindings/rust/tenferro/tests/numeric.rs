//! The numeric functions (logaddexp, hypot, sigmoid, isclose, var, logsumexp, ...) and the gamma
//! family through the safe crate: values at extreme arguments against closed forms, a gradient,
//! Bool results and a rejected dtype.

mod common;

use common::{assert_close, expect_status, run, t64};
use tenferro::ad::vjp;
use tenferro::{allclose, hypot, isclose, logaddexp, DType, Status};

#[test]
fn careful_elementwise_values() {
    run(|ctx| {
        let a = t64(ctx, &[1000.0, 0.0, f64::NEG_INFINITY], &[3])?;
        let b = t64(ctx, &[1000.0, -40.0, f64::NEG_INFINITY], &[3])?;
        let l = logaddexp(&a, &b)?.to_vec::<f64>()?;
        assert_close(&l[..2], &[1000.0 + 2f64.ln(), (-40f64).exp()], 1e-14);
        assert_eq!(l[2], f64::NEG_INFINITY);
        let h = hypot(
            &t64(ctx, &[1e300, 3.0], &[2])?,
            &t64(ctx, &[1e300, -4.0], &[2])?,
        )?;
        assert_close(&h.to_vec::<f64>()?, &[1e300 * 2f64.sqrt(), 5.0], 1e-15);
        let s = t64(ctx, &[-700.0, 0.0], &[2])?.sigmoid()?.to_vec::<f64>()?;
        assert_close(&s, &[(-700f64).exp(), 0.5], 1e-14);
        let c = isclose(&a, &b, 1e-5, 1e-8, false)?;
        assert_eq!(c.dtype()?, DType::Bool);
        assert_eq!(c.to_vec::<bool>()?, vec![true, false, true]);
        assert!(allclose(&a, &a, 1e-5, 1e-8, false)?.to_vec::<bool>()?[0]);
        expect_status(
            logaddexp(&t64(ctx, &[1.0], &[1])?.cast(DType::C64)?, &a),
            Status::DTYPE_MISMATCH,
        );
        Ok(())
    })
}

#[test]
fn reductions_and_gamma_family() {
    run(|ctx| {
        // Column-major [2, 3]: rows (1, 2, 3) and (4, 8, 9).
        let x = t64(ctx, &[1.0, 4.0, 2.0, 8.0, 3.0, 9.0], &[2, 3])?;
        let v = x.var(&[1], 1.0, true)?;
        assert_eq!(v.shape()?, vec![2, 1]);
        assert_close(&v.to_vec::<f64>()?, &[1.0, 7.0], 1e-14);
        assert_close(
            &x.std(&[1], 1.0, false)?.to_vec::<f64>()?,
            &[1.0, 7f64.sqrt()],
            1e-14,
        );
        let big = t64(ctx, &[1000.0, 1000.0], &[2])?;
        assert_close(
            &big.logsumexp(&[], false)?.to_vec::<f64>()?,
            &[1000.0 + 2f64.ln()],
            1e-14,
        );
        assert_eq!(x.any(&[], false)?.to_vec::<bool>()?, vec![true]);
        // d lgamma = digamma; digamma(1) = -Euler's constant.
        let p = t64(ctx, &[1.0, 0.5], &[2])?.requires_grad_()?;
        let y = p.lgamma()?.sum(&[])?;
        let g = vjp(&y, &[&p], None)?.remove(0).expect("a gradient");
        let euler = 0.577_215_664_901_532_9;
        assert_close(
            &g.to_vec::<f64>()?,
            &[-euler, -euler - 2.0 * 2f64.ln()],
            1e-14,
        );
        let n = t64(ctx, &[1.0, 1.0], &[2])?;
        let pi2 = std::f64::consts::PI * std::f64::consts::PI;
        assert_close(
            &n.polygamma(&p)?.to_vec::<f64>()?,
            &[pi2 / 6.0, pi2 / 2.0],
            1e-14,
        );
        Ok(())
    })
}
