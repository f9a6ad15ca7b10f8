//! Eager AD and traced programs, checked against analytic derivatives and central finite
//! differences.

mod common;

use common::{assert_close, expect_status, run, t64};
use tenferro::ad::{self, capture_trace, no_grad};
use tenferro::{Cache, Complex64, DType, Function, HvpMode, Status, Tensor};

/// f(x) = sum(x * sin(x)), in plain Rust.
fn f_plain(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v.sin()).sum()
}

/// Central finite differences of `f` at `x`.
fn fd_grad(f: impl Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    let h = 1e-6;
    (0..x.len())
        .map(|i| {
            let (mut p, mut m) = (x.to_vec(), x.to_vec());
            p[i] += h;
            m[i] -= h;
            (f(&p) - f(&m)) / (2.0 * h)
        })
        .collect()
}

#[test]
fn backward_matches_finite_differences() {
    run(|ctx| {
        let xv = [0.3, -1.2, 2.0];
        let x = t64(ctx, &xv, &[3])?.requires_grad_()?;
        assert!(x.requires_grad()?);
        assert!(x.grad()?.is_none());
        let loss = (&x * &x.sin()?)?.sum(&[])?;
        assert!(loss.requires_grad()?);
        assert_close(&[loss.item::<f64>()?], &[f_plain(&xv)], 1e-14);
        loss.backward()?;
        let g = x.grad()?.expect("grad").to_vec::<f64>()?;
        assert_close(&g, &fd_grad(f_plain, &xv), 1e-7);
        // accumulation, then clearing
        loss.backward()?;
        let g2 = x.grad()?.expect("grad").to_vec::<f64>()?;
        assert_close(&g2, &g.iter().map(|v| 2.0 * v).collect::<Vec<_>>(), 1e-14);
        x.clear_grad()?;
        assert!(x.grad()?.is_none());
        // a seed for a larger loss
        let y = (&x * &x)?;
        expect_status(y.backward(), Status::INVALID_ARGUMENT);
        y.backward_with_seed(&t64(ctx, &[1.0, 0.0, 2.0], &[3])?)?;
        assert_close(
            &x.grad()?.expect("grad").to_vec::<f64>()?,
            &[0.6, 0.0, 8.0],
            1e-14,
        );
        expect_status(
            y.backward_with_seed(&t64(ctx, &[1.0, 2.0], &[2])?),
            Status::SHAPE_MISMATCH,
        );
        assert!(!y.detach()?.requires_grad()?);
        Ok(())
    });
}

#[test]
fn functional_vjp_jvp_and_hessian_vector_products() {
    run(|ctx| {
        let xv = [0.3, -1.2];
        let x = t64(ctx, &xv, &[2])?.requires_grad_()?;
        let w = t64(ctx, &[5.0], &[1])?; // untracked: no gradient
        let y = (&(&x * &x.sin()?)?.sum(&[])? * &w)?;
        let grads = ad::vjp(&y, &[&x, &w], None)?;
        assert!(grads[1].is_none());
        let g = grads[0].as_ref().expect("grad");
        let want: Vec<f64> = fd_grad(f_plain, &xv).iter().map(|v| 5.0 * v).collect();
        assert_close(&g.to_vec::<f64>()?, &want, 1e-7);
        // the directional derivative along v equals <grad, v>
        let v = t64(ctx, &[1.0, -2.0], &[2])?;
        let dy = ad::jvp(&y, &[&x], &[Some(&v)])?.expect("tangent");
        assert_close(&[dy.item::<f64>()?], &[want[0] - 2.0 * want[1]], 1e-7);
        expect_status(ad::jvp(&y, &[&x], &[]), Status::INVALID_ARGUMENT);
        // H v through jvp(vjp): f'' = 2 cos x - x sin x, diagonal
        let hv = ad::jvp(g, &[&x], &[Some(&v)])?.expect("hvp");
        let h: Vec<f64> = xv
            .iter()
            .map(|&a| 5.0 * (2.0 * a.cos() - a * a.sin()))
            .collect();
        assert_close(&hv.to_vec::<f64>()?, &[h[0], -2.0 * h[1]], 1e-12);
        Ok(())
    });
}

#[test]
fn no_grad_and_capture_trace_scopes() {
    run(|ctx| {
        let x = t64(ctx, &[2.0], &[1])?.requires_grad_()?;
        {
            let _guard = no_grad(ctx)?;
            assert!(!(&x * &x)?.requires_grad()?);
            let _nested = no_grad(ctx)?;
        }
        assert!((&x * &x)?.requires_grad()?);
        let c = t64(ctx, &[1.0, 2.0], &[2])?;
        let z = {
            let _guard = capture_trace(ctx)?;
            (&c * &c)?.sum(&[])?
        };
        assert!(c.requires_grad()?);
        let g = ad::vjp(&z, &[&c], None)?.remove(0).expect("grad");
        assert_eq!(g.to_vec::<f64>()?, [2.0, 4.0]);
        Ok(())
    });
}

#[test]
fn complex_gradient_convention() {
    run(|ctx| {
        // d sum |z|^2 = 2 z (dL/dRe + i dL/dIm)
        let zv = [Complex64::new(1.0, 2.0), Complex64::new(-0.5, 0.25)];
        let z = Tensor::from_slice(ctx, &zv, &[2])?.requires_grad_()?;
        let loss = (&z.conj()? * &z)?.real()?.sum(&[])?;
        loss.backward()?;
        let g = z.grad()?.expect("grad").to_vec::<Complex64>()?;
        for (g, z) in g.iter().zip(&zv) {
            assert!((g.re - 2.0 * z.re).abs() < 1e-12 && (g.im - 2.0 * z.im).abs() < 1e-12);
        }
        Ok(())
    });
}

#[test]
fn traced_function_and_its_derivatives() {
    run(|ctx| {
        let x = Tensor::symbolic(ctx, DType::F64, &[-1])?;
        assert!(x.is_symbolic()?);
        assert_eq!(x.shape()?, [-1]);
        assert_eq!(x.extent_text(0)?, "s1");
        let sq = (&x * &x.sin()?)?;
        let y = sq.sum(&[])?;
        let p = x.pad(&[0], &[1], None)?;
        assert_eq!(p.shape()?, [tenferro::sys::TFE_EXTENT_DERIVED]);
        assert_eq!(p.extent_text(0)?, "(s1+1)");
        expect_status(x.to_vec::<f64>(), Status::INVALID_ARGUMENT);
        let f = Function::new(&[&x], &[&y, &sq])?;
        assert_eq!((f.num_inputs()?, f.num_outputs()?), (1, 2));
        for xv in [vec![0.3, -1.2], vec![1.0, 2.0, 3.0]] {
            let arg = t64(ctx, &xv, &[xv.len() as i64])?;
            let out = f.call(&[&arg])?;
            assert_eq!(out.len(), 2);
            assert_close(&[out[0].item::<f64>()?], &[f_plain(&xv)], 1e-14);
        }
        let f1 = Function::new(&[&x], &[&y])?;
        let xv = [0.3, -1.2, 0.7];
        let arg = t64(ctx, &xv, &[3])?;
        let fd = fd_grad(f_plain, &xv);
        let g = f1.grad(&[])?.call1(&[&arg])?.to_vec::<f64>()?;
        assert_close(&g, &fd, 1e-7);
        // vjp: inputs then one cotangent per output; outputs then gradients
        let ct = Tensor::scalar(ctx, 2.0)?;
        let out = f1.vjp(&[0])?.call(&[&arg, &ct])?;
        assert_close(
            &out[1].to_vec::<f64>()?,
            &fd.iter().map(|v| 2.0 * v).collect::<Vec<_>>(),
            1e-7,
        );
        // jvp: inputs then tangents; outputs then tangents
        let dir = t64(ctx, &[1.0, 0.0, -1.0], &[3])?;
        let out = f1.jvp(&[])?.call(&[&arg, &dir])?;
        assert_close(&[out[1].item::<f64>()?], &[fd[0] - fd[2]], 1e-7);
        // hvp, both modes, against finite differences of the gradient
        let g_plain =
            |x: &[f64]| -> Vec<f64> { x.iter().map(|&a| a.sin() + a * a.cos()).collect() };
        let h = 1e-5;
        let want: Vec<f64> = (0..3)
            .map(|i| {
                let (p, m): (Vec<f64>, Vec<f64>) = (
                    xv.iter()
                        .zip([1.0, 0.0, -1.0])
                        .map(|(a, d)| a + h * d)
                        .collect(),
                    xv.iter()
                        .zip([1.0, 0.0, -1.0])
                        .map(|(a, d)| a - h * d)
                        .collect(),
                );
                (g_plain(&p)[i] - g_plain(&m)[i]) / (2.0 * h)
            })
            .collect();
        for mode in [HvpMode::ForwardOverReverse, HvpMode::ReverseOverReverse] {
            let hv = f1.hvp(&[], mode)?.call1(&[&arg, &dir])?;
            assert_close(&hv.to_vec::<f64>()?, &want, 1e-6);
        }
        // an input the output ignores has a structurally zero gradient
        let unused = Tensor::symbolic(ctx, DType::F64, &[2])?;
        let f2 = Function::new(&[&x, &unused], &[&y])?;
        let v2 = f2.vjp(&[])?;
        assert!(!v2.output_is_zero(1)?);
        assert!(v2.output_is_zero(2)?);
        // errors: grad of a multi-output function, wrong shapes and dtypes at the call
        expect_status(f.grad(&[]), Status::INVALID_ARGUMENT);
        expect_status(f1.grad(&[7]), Status::INVALID_ARGUMENT);
        let m = t64(ctx, &[1.0; 4], &[2, 2])?;
        expect_status(f1.call1(&[&m]), Status::SHAPE_MISMATCH);
        let i = Tensor::from_slice(ctx, &[1i32], &[1])?;
        expect_status(f1.call1(&[&i]), Status::DTYPE_MISMATCH);
        expect_status(f1.call1(&[]), Status::INVALID_ARGUMENT);
        let f_clone = f1.clone();
        assert!(format!("{f_clone:?}").contains("inputs"));
        Ok(())
    });
}

#[test]
fn context_caches() {
    run(|ctx| {
        let x = Tensor::symbolic(ctx, DType::F64, &[-1])?;
        let f = Function::new(&[&x], &[&x.exp()?])?;
        let a = t64(ctx, &[1.0, 2.0], &[2])?;
        f.call1(&[&a])?;
        f.call1(&[&a])?;
        let s = ctx.cache_stats(Cache::Compiled)?;
        assert!(s.hits >= 1 && s.misses >= 1 && s.entries >= 1, "{s:?}");
        ctx.set_cache_limits(Cache::Compiled, 1, 1 << 30)?;
        ctx.clear_cache(Cache::Compiled)?;
        assert_eq!(ctx.cache_stats(Cache::Compiled)?.entries, 0);
        f.grad(&[]).ok();
        assert!(ctx.cache_stats(Cache::Derivative).is_ok());
        expect_status(
            ctx.set_cache_limits(Cache::Derivative, -5, -5),
            Status::INVALID_ARGUMENT,
        );
        Ok(())
    });
}
