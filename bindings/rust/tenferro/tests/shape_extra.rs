//! The shape helpers, linspace/logspace, the *_like constructors and linalg matrix_rank, logdet
//! and cholesky_solve through the safe crate: values against index arithmetic done here.

mod common;

use common::{assert_close, expect_status, run, t64};
use tenferro::{linalg, Complex64, DType, Status, Tensor};

#[test]
fn shape_helpers() {
    run(|ctx| {
        let v: Vec<f64> = (0..6).map(f64::from).collect();
        let x = t64(ctx, &v, &[2, 1, 3])?;
        assert_eq!(x.squeeze(&[])?.shape()?, vec![2, 3]);
        assert_eq!(x.expand_dims(&[0])?.shape()?, vec![1, 2, 1, 3]);
        assert_eq!(x.moveaxis(&[0], &[-1])?.shape()?, vec![1, 3, 2]);
        assert_eq!(x.swapaxes(0, 2)?.shape()?, vec![3, 1, 2]);
        assert_close(&x.flatten()?.to_vec::<f64>()?, &v, 0.0);
        let m = x.squeeze(&[1])?;
        let pieces = m.split(3, &[], 1)?;
        assert_eq!(pieces.len(), 3);
        assert_close(&pieces[1].to_vec::<f64>()?, &v[2..4], 0.0);
        let tiled = m.tile(&[2])?; // [4, 3]: each column twice over
        let want: Vec<f64> = (0..12).map(|i| v[i % 2 + 2 * (i / 4)]).collect();
        assert_close(&tiled.contiguous()?.to_vec::<f64>()?, &want, 0.0);
        let rep = m.repeat(&[2], 0)?; // [4, 3]: each row twice in a row
        let want: Vec<f64> = (0..12).map(|i| v[(i % 4) / 2 + 2 * (i / 4)]).collect();
        assert_close(&rep.contiguous()?.to_vec::<f64>()?, &want, 0.0);
        let rolled = m.roll(&[1], &[])?; // the column-major flattening shifted by one
        let want: Vec<f64> = (0..6).map(|i| v[(i + 5) % 6]).collect();
        assert_close(&rolled.contiguous()?.to_vec::<f64>()?, &want, 0.0);
        let d = m.diagonal(1, 0, 1)?;
        assert_close(&d.contiguous()?.to_vec::<f64>()?, &[v[2], v[5]], 0.0);
        let dm = t64(ctx, &[1.0, 2.0], &[2])?.diag(1)?;
        assert_close(
            &dm.to_vec::<f64>()?,
            &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 2.0, 0.0],
            0.0,
        );
        expect_status(m.squeeze(&[0]), Status::INVALID_ARGUMENT);
        expect_status(m.split(4, &[], 1), Status::INVALID_ARGUMENT);
        Ok(())
    });
}

#[test]
fn creation() {
    run(|ctx| {
        let l = Tensor::linspace(
            ctx,
            DType::F64,
            Complex64::new(0.0, 0.0),
            Complex64::new(1.0, 0.0),
            5,
            true,
        )?;
        let want: Vec<f64> = (0..5).map(|i| f64::from(i) / 4.0).collect();
        assert_close(&l.to_vec::<f64>()?, &want, 1e-15);
        let g = Tensor::logspace(
            ctx,
            DType::F64,
            Complex64::new(0.0, 0.0),
            Complex64::new(3.0, 0.0),
            4,
            true,
            2.0,
        )?;
        assert_close(&g.to_vec::<f64>()?, &[1.0, 2.0, 4.0, 8.0], 1e-14);
        let x = t64(ctx, &[1.0, 2.0, 3.0], &[3])?;
        assert_close(&x.zeros_like(None)?.to_vec::<f64>()?, &[0.0; 3], 0.0);
        assert_eq!(x.ones_like(Some(DType::I32))?.to_vec::<i32>()?, vec![1; 3]);
        assert_eq!(x.full_like(7i64)?.to_vec::<i64>()?, vec![7; 3]);
        expect_status(
            Tensor::linspace(
                ctx,
                DType::I32,
                Complex64::new(0.0, 0.0),
                Complex64::new(1.0, 0.0),
                3,
                true,
            ),
            Status::DTYPE_MISMATCH,
        );
        Ok(())
    });
}

#[test]
fn linalg_companions() {
    run(|ctx| {
        // A = L L^T with L = [[2, 0], [1, 3]].
        let l = t64(ctx, &[2.0, 1.0, 0.0, 3.0], &[2, 2])?;
        let a = l.matmul(&l.transpose(&[1, 0])?)?;
        let b = t64(ctx, &[1.0, -1.0], &[2, 1])?;
        let x = linalg::cholesky_solve(&l, &b, &linalg::Options::default())?;
        assert_close(
            &x.to_vec::<f64>()?,
            &linalg::solve(&a, &b)?.to_vec::<f64>()?,
            1e-14,
        );
        let ld = linalg::logdet(&a)?.to_vec::<f64>()?;
        assert_close(&ld, &[36f64.ln()], 1e-14);
        let r = linalg::matrix_rank(
            &t64(ctx, &[1.0, 2.0, 2.0, 4.0], &[2, 2])?,
            0.0,
            &linalg::Options::default(),
        )?;
        assert_eq!(r.to_vec::<i64>()?, vec![1]);
        Ok(())
    });
}
