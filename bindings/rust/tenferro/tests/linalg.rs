//! Every linear algebra function on small matrices with hand-computed results, and its statuses.

mod common;

use common::{assert_close, expect_status, run, t64};
use tenferro::linalg::{self, Norm, Options, Transpose};
use tenferro::{Complex64, DType, Status, Tensor};

/// Column-major data of [[4, 1], [2, 3]] (det 10).
const A: [f64; 4] = [4.0, 2.0, 1.0, 3.0];

#[test]
fn solves_inverses_and_determinants() {
    run(|ctx| {
        let a = t64(ctx, &A, &[2, 2])?;
        let b = t64(ctx, &[1.0, 2.0], &[2, 1])?;
        assert_close(&linalg::solve(&a, &b)?.to_vec::<f64>()?, &[0.1, 0.6], 1e-14);
        // inv([[4,1],[2,3]]) = [[3,-1],[-2,4]] / 10
        assert_close(
            &linalg::inv(&a)?.to_vec::<f64>()?,
            &[0.3, -0.2, -0.1, 0.4],
            1e-14,
        );
        assert_close(&[linalg::det(&a)?.item::<f64>()?], &[10.0], 1e-14);
        let (sign, logabs) = linalg::slogdet(&a)?;
        assert_eq!(sign.item::<f64>()?, 1.0);
        assert_close(&[logabs.item::<f64>()?], &[10f64.ln()], 1e-14);
        // triangular solves: L = [[2,0],[1,1]]
        let l = t64(ctx, &[2.0, 1.0, 0.0, 1.0], &[2, 2])?;
        let y = linalg::solve_triangular(&l, &b, &Options::new())?;
        assert_close(&y.to_vec::<f64>()?, &[0.5, 1.5], 1e-14);
        let opts = Options::new().upper(true).transpose(Transpose::Trans);
        let lt = l.transpose(&[1, 0])?.contiguous()?; // upper U = L^T; U^T x = b is L x = b
        assert_close(
            &linalg::solve_triangular(&lt, &b, &opts)?.to_vec::<f64>()?,
            &[0.5, 1.5],
            1e-14,
        );
        let unit = Options::new().unit_diagonal(true);
        assert_close(
            &linalg::solve_triangular(&l, &b, &unit)?.to_vec::<f64>()?,
            &[1.0, 1.0],
            1e-14,
        );
        let right = Options::new().left(false).transpose(Transpose::ConjTrans);
        let bt = t64(ctx, &[1.0, 2.0], &[1, 2])?; // x L^T = b^T
        assert_close(
            &linalg::solve_triangular(&l, &bt, &right)?.to_vec::<f64>()?,
            &[0.5, 1.5],
            1e-14,
        );
        // LU
        let (lu, piv, info) = linalg::lu_factor(&a)?;
        assert_eq!(piv.dtype()?, DType::I32);
        assert_eq!(info.to_vec::<i32>()?, [0]);
        assert_close(
            &linalg::lu_solve(&lu, &piv, &b, &Options::new())?.to_vec::<f64>()?,
            &[0.1, 0.6],
            1e-14,
        );
        let at_sol = linalg::lu_solve(&lu, &piv, &b, &Options::new().transpose(Transpose::Trans))?;
        assert_close(&at_sol.to_vec::<f64>()?, &[-0.1, 0.7], 1e-14); // A^T x = b
        let (p, l2, u) = linalg::lu(&a)?;
        let plu = p.matmul(&l2)?.matmul(&u)?;
        assert_close(&plu.to_vec::<f64>()?, &A, 1e-14);
        // the gradient of det is det * inv^T
        let av = t64(ctx, &A, &[2, 2])?.requires_grad_()?;
        linalg::det(&av)?.backward()?;
        assert_close(
            &av.grad()?.expect("grad").to_vec::<f64>()?,
            &[3.0, -1.0, -2.0, 4.0],
            1e-12,
        );
        Ok(())
    });
}

#[test]
fn factorizations() {
    run(|ctx| {
        // SPD [[4, 2], [2, 3]]: L = [[2, 0], [1, sqrt 2]]
        let s = t64(ctx, &[4.0, 2.0, 2.0, 3.0], &[2, 2])?;
        let r2 = 2f64.sqrt();
        assert_close(
            &linalg::cholesky(&s)?.to_vec::<f64>()?,
            &[2.0, 1.0, 0.0, r2],
            1e-14,
        );
        let u = linalg::cholesky_ex(&s, &Options::new().upper(true))?;
        assert_close(&u.to_vec::<f64>()?, &[2.0, 0.0, 1.0, r2], 1e-14);
        // eigenvalues of [[4,2],[2,3]]: (7 -+ sqrt 17) / 2
        let r17 = 17f64.sqrt();
        let want = [(7.0 - r17) / 2.0, (7.0 + r17) / 2.0];
        let (w, v) = linalg::eigh(&s)?;
        assert_close(&w.to_vec::<f64>()?, &want, 1e-14);
        let vtv = v.transpose(&[1, 0])?.matmul(&v)?;
        assert_close(&vtv.to_vec::<f64>()?, &[1.0, 0.0, 0.0, 1.0], 1e-14);
        let (w2, _) = linalg::eigh_ex(&s, &Options::new().upper(true).derivative_eps(0.0))?;
        assert_close(&w2.to_vec::<f64>()?, &want, 1e-14);
        assert_close(
            &linalg::eigvalsh(&s, &Options::new())?.to_vec::<f64>()?,
            &want,
            1e-14,
        );
        // general eigenvalues of [[4,1],[2,3]]: 2 and 5
        let a = t64(ctx, &A, &[2, 2])?;
        let mut ev: Vec<f64> = linalg::eigvals(&a)?
            .to_vec::<Complex64>()?
            .iter()
            .map(|z| z.re)
            .collect();
        ev.sort_by(f64::total_cmp);
        assert_close(&ev, &[2.0, 5.0], 1e-13);
        let (w, v) = linalg::eig(&a)?;
        assert_eq!((w.dtype()?, v.dtype()?), (DType::C64, DType::C64));
        let (w3, _) = linalg::eig_ex(&a, &Options::new().derivative_eps(1e-12))?;
        assert_eq!(w3.shape()?, [2]);
        // QR: A = QR, R upper, positive diagonal on request
        let (q, r) = linalg::qr(&a)?;
        assert_close(&q.matmul(&r)?.to_vec::<f64>()?, &A, 1e-14);
        let (_, rp) = linalg::qr_ex(&a, &Options::new().positive_diagonal(true))?;
        let rp = rp.to_vec::<f64>()?;
        assert!(rp[0] > 0.0 && rp[3] > 0.0 && rp[1] == 0.0);
        let tall = t64(ctx, &[1.0, 0.0, 0.0, 0.0, 1.0, 0.0], &[3, 2])?;
        let (qf, rf) = linalg::qr_ex(&tall, &Options::new().full_matrices(true))?;
        assert_eq!((qf.shape()?, rf.shape()?), (vec![3, 3], vec![3, 2]));
        // SVD of diag(3, 2) rotated: singular values 3, 2
        let d = t64(ctx, &[0.0, 2.0, 3.0, 0.0], &[2, 2])?;
        let (u, sv, vh) = linalg::svd(&d)?;
        assert_close(&sv.to_vec::<f64>()?, &[3.0, 2.0], 1e-14);
        let usv = u.matmul(&sv.embed_diag(0, 1)?)?.matmul(&vh)?;
        assert_close(&usv.to_vec::<f64>()?, &[0.0, 2.0, 3.0, 0.0], 1e-14);
        let (uf, _, vhf) = linalg::svd_ex(&tall, &Options::new().full_matrices(true))?;
        assert_eq!((uf.shape()?, vhf.shape()?), (vec![3, 3], vec![2, 2]));
        assert_close(&linalg::svdvals(&d)?.to_vec::<f64>()?, &[3.0, 2.0], 1e-14);
        Ok(())
    });
}

#[test]
fn composites() {
    run(|ctx| {
        let a = t64(ctx, &A, &[2, 2])?;
        // expm of diag(1, 2) and of a nilpotent matrix
        let d = t64(ctx, &[1.0, 0.0, 0.0, 2.0], &[2, 2])?;
        let e = (1f64.exp(), 2f64.exp());
        assert_close(
            &linalg::matrix_exp(&d)?.to_vec::<f64>()?,
            &[e.0, 0.0, 0.0, e.1],
            1e-13,
        );
        let n = t64(ctx, &[0.0, 0.0, 1.0, 0.0], &[2, 2])?;
        assert_close(
            &linalg::matrix_exp(&n)?.to_vec::<f64>()?,
            &[1.0, 0.0, 1.0, 1.0],
            1e-14,
        );
        // pinv of a rank-1 matrix [[1, 1], [1, 1]] is itself / 4
        let ones = Tensor::ones(ctx, DType::F64, &[2, 2])?;
        assert_close(
            &linalg::pinv(&ones, &Options::new())?.to_vec::<f64>()?,
            &[0.25; 4],
            1e-14,
        );
        let herm = Options::new().hermitian(true).rtol(1e-10);
        assert_close(
            &linalg::pinv(&ones, &herm)?.to_vec::<f64>()?,
            &[0.25; 4],
            1e-14,
        );
        // least squares: fit y = c through (1, 1), (1, 3) -> c = 2
        let col = Tensor::ones(ctx, DType::F64, &[2, 1])?;
        let y = t64(ctx, &[1.0, 3.0], &[2, 1])?;
        assert_close(
            &linalg::lstsq(&col, &y, &Options::new())?.to_vec::<f64>()?,
            &[2.0],
            1e-14,
        );
        // norms of [[4,1],[2,3]]
        let nrm = |o| -> tenferro::Result<f64> { linalg::matrix_norm(&a, o)?.item::<f64>() };
        assert_close(&[nrm(Norm::Fro)?], &[30f64.sqrt()], 1e-14);
        assert_close(&[nrm(Norm::One)?, nrm(Norm::NegOne)?], &[6.0, 4.0], 1e-14);
        assert_close(&[nrm(Norm::Inf)?, nrm(Norm::NegInf)?], &[5.0, 5.0], 1e-14);
        // singular values of A: sqrt of the eigenvalues of A^T A = [[20, 10], [10, 10]]
        let (s1, s2) = ((15.0 + 125f64.sqrt()).sqrt(), (15.0 - 125f64.sqrt()).sqrt());
        assert_close(
            &[nrm(Norm::Two)?, nrm(Norm::NegTwo)?, nrm(Norm::Nuc)?],
            &[s1, s2, s1 + s2],
            1e-13,
        );
        assert_close(
            &[linalg::cond(&a, Norm::Two)?.item::<f64>()?],
            &[s1 / s2],
            1e-13,
        );
        assert_close(
            &[linalg::cond(&a, Norm::One)?.item::<f64>()?],
            &[6.0 * 0.5],
            1e-13,
        );
        let v = t64(ctx, &[3.0, -4.0], &[2])?;
        assert_close(
            &[linalg::vector_norm(&v, 2.0, &[])?.item::<f64>()?],
            &[5.0],
            1e-14,
        );
        assert_close(
            &[linalg::vector_norm(&v, f64::INFINITY, &[0])?.item::<f64>()?],
            &[4.0],
            1e-14,
        );
        assert_close(
            &[linalg::vector_norm(&v, 1.0, &[])?.item::<f64>()?],
            &[7.0],
            1e-14,
        );
        // powers: A^2 = [[18, 7], [14, 11]]; A^-1; A^0
        assert_close(
            &linalg::matrix_power(&a, 2)?.to_vec::<f64>()?,
            &[18.0, 14.0, 7.0, 11.0],
            1e-13,
        );
        assert_close(
            &linalg::matrix_power(&a, -1)?.to_vec::<f64>()?,
            &[0.3, -0.2, -0.1, 0.4],
            1e-14,
        );
        assert_close(
            &linalg::matrix_power(&a, 0)?.to_vec::<f64>()?,
            &[1.0, 0.0, 0.0, 1.0],
            0.0,
        );
        let md = linalg::multi_dot(&[&v, &a, &v])?; // v^T A v = 48 - 12 - 16 + 27 ... by hand:
                                                    // A v = [4*3 + 1*(-4), 2*3 + 3*(-4)] = [8, -6]; v . (A v) = 24 + 24 = 48
        assert_close(&[md.item::<f64>()?], &[48.0], 1e-13);
        assert_close(&[linalg::vecdot(&v, &v, 0)?.item::<f64>()?], &[25.0], 1e-14);
        let x = t64(ctx, &[2.0, 3.0], &[2])?;
        assert_eq!(
            linalg::vander(&x, 3)?.to_vec::<f64>()?,
            [1.0, 1.0, 2.0, 3.0, 4.0, 9.0]
        );
        // tensorinv / tensorsolve with a [2,2] map (ind = 1)
        assert_close(
            &linalg::tensorinv(&a, 1)?.to_vec::<f64>()?,
            &[0.3, -0.2, -0.1, 0.4],
            1e-14,
        );
        let b = t64(ctx, &[1.0, 2.0], &[2])?;
        assert_close(
            &linalg::tensorsolve(&a, &b)?.to_vec::<f64>()?,
            &[0.1, 0.6],
            1e-14,
        );
        Ok(())
    });
}

#[test]
fn linalg_statuses() {
    run(|ctx| {
        let singular = t64(ctx, &[1.0, 2.0, 2.0, 4.0], &[2, 2])?;
        let b = t64(ctx, &[1.0, 2.0], &[2, 1])?;
        expect_status(linalg::solve(&singular, &b), Status::SINGULAR);
        expect_status(linalg::inv(&singular), Status::SINGULAR);
        let e = linalg::inv(&singular).unwrap_err();
        assert!(e.message.starts_with("tfe_linalg_inv"), "{}", e.message);
        assert_eq!(linalg::det(&singular)?.item::<f64>()?, 0.0);
        let (lu, piv, info) = linalg::lu_factor(&singular)?;
        assert_eq!(info.to_vec::<i32>()?, [2]);
        expect_status(
            linalg::lu_solve(&lu, &piv, &b, &Options::new()),
            Status::SINGULAR,
        );
        // slogdet at a singular matrix: no finite derivative
        let sv = t64(ctx, &[1.0, 2.0, 2.0, 4.0], &[2, 2])?.requires_grad_()?;
        let (_, logabs) = linalg::slogdet(&sv)?;
        assert_eq!(logabs.item::<f64>()?, f64::NEG_INFINITY);
        expect_status(logabs.backward(), Status::SINGULAR);
        // not positive definite
        let indefinite = t64(ctx, &[1.0, 2.0, 2.0, 1.0], &[2, 2])?;
        expect_status(linalg::cholesky(&indefinite), Status::NUMERICAL);
        // LAPACK does not converge on NaN input
        let nan = t64(ctx, &[f64::NAN, 1.0, 1.0, f64::NAN], &[2, 2])?;
        expect_status(linalg::svd(&nan), Status::NON_CONVERGENCE);
        // shapes and dtypes
        let rect = t64(ctx, &[1.0; 6], &[2, 3])?;
        expect_status(linalg::inv(&rect), Status::SHAPE_MISMATCH);
        expect_status(
            linalg::det(&t64(ctx, &[1.0], &[1])?),
            Status::SHAPE_MISMATCH,
        );
        let ints = Tensor::from_slice(ctx, &[1i32, 0, 0, 1], &[2, 2])?;
        expect_status(linalg::inv(&ints), Status::DTYPE_MISMATCH);
        expect_status(linalg::multi_dot(&[&b]), Status::INVALID_ARGUMENT);
        expect_status(
            linalg::pinv(&b, &Options::new().derivative_eps(-1.0)),
            Status::INVALID_ARGUMENT,
        );
        Ok(())
    });
}

#[test]
fn polar_from_the_generated_front() {
    run(|ctx| {
        // A symmetric positive definite matrix is its own P with U = I; its negative has U = -I.
        let spd = [2.0, 1.0, 1.0, 2.0];
        let (u, p) = linalg::polar(&t64(ctx, &spd, &[2, 2])?)?;
        assert_close(&u.to_vec::<f64>()?, &[1.0, 0.0, 0.0, 1.0], 1e-13);
        assert_close(&p.to_vec::<f64>()?, &spd, 1e-13);
        let neg = spd.map(|x| -x);
        let (u, p) = linalg::polar(&t64(ctx, &neg, &[2, 2])?)?;
        assert_close(&u.to_vec::<f64>()?, &[-1.0, 0.0, 0.0, -1.0], 1e-13);
        assert_close(&p.to_vec::<f64>()?, &spd, 1e-13);
        Ok(())
    });
}
