//! Tensors, elementwise and shape ops, errors, threads, dataflow contexts and interop.

mod common;

use common::{assert_close, expect_status, run, run_with, t64};
use tenferro::ops::{self, Comparison};
use tenferro::{Complex64, Context, ContextMode, DType, Scheduler, Status, Tensor, ABI_VERSION};

#[test]
fn library_metadata() {
    run(|ctx| {
        assert_eq!(tenferro::abi_version(), ABI_VERSION);
        assert!(tenferro::version().starts_with("0."));
        assert!(tenferro::num_threads()? >= 1);
        assert!(tenferro::device_count()? >= 0);
        let table = tenferro::op_table();
        assert!(table
            .iter()
            .any(|op| op.name == "add" && op.c_name == "tfe_add"));
        assert_eq!(ctx.mode()?, ContextMode::Eager);
        expect_status(tenferro::set_num_threads(0), Status::INVALID_ARGUMENT);
        assert!(tenferro::last_error_message().starts_with("tfe_set_num_threads"));
        let n = tenferro::num_threads()?;
        tenferro::set_num_threads(n)?;
        assert_eq!(tenferro::last_error_message(), "");
        assert_eq!(Status::SINGULAR.name(), "TFE_ERR_SINGULAR");
        assert_eq!(Status(12345).name(), "TFE_ERR_UNKNOWN");
        Ok(())
    });
}

#[test]
fn create_and_read_back_every_element_type() {
    run(|ctx| {
        let a = Tensor::from_slice(ctx, &[1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;
        assert_eq!(a.dtype()?, DType::F64);
        assert_eq!(a.shape()?, [2, 3]);
        assert_eq!((a.ndim()?, a.numel()?), (2, 6));
        assert_eq!((a.stride(0)?, a.stride(1)?, a.stride(-1)?), (1, 2, 2));
        assert_eq!(a.as_slice::<f64>()?, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        assert_eq!(a.context()?.mode()?, ContextMode::Eager);
        assert_eq!(
            Tensor::from_slice(ctx, &[1.5f32, 2.5], &[2])?.to_vec::<f32>()?,
            [1.5, 2.5]
        );
        assert_eq!(
            Tensor::from_slice(ctx, &[7i32, -8], &[2])?.to_vec::<i32>()?,
            [7, -8]
        );
        assert_eq!(
            Tensor::from_slice(ctx, &[1i64 << 40], &[1])?.to_vec::<i64>()?,
            [1 << 40]
        );
        assert_eq!(
            Tensor::from_slice(ctx, &[true, false], &[2])?.to_vec::<bool>()?,
            [true, false]
        );
        let z = [tenferro::Complex32::new(1.0, -1.0)];
        assert_eq!(
            Tensor::from_slice(ctx, &z, &[1])?.to_vec::<tenferro::Complex32>()?,
            z
        );
        let z = [Complex64::new(0.5, 2.0), Complex64::new(-3.0, 0.0)];
        let zt = Tensor::from_slice(ctx, &z, &[2])?;
        assert_eq!(zt.dtype()?, DType::C64);
        assert_eq!(zt.to_vec::<Complex64>()?, z);
        assert_eq!(zt.real()?.to_vec::<f64>()?, [0.5, -3.0]);
        assert_eq!(zt.imag()?.to_vec::<f64>()?, [2.0, 0.0]);
        assert_eq!(
            zt.conj()?.to_vec::<Complex64>()?[0],
            Complex64::new(0.5, -2.0)
        );
        // row-major data through strides: [[1, 2, 3], [4, 5, 6]]
        let r = Tensor::from_slice_strided(ctx, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3], &[3, 1])?;
        assert_eq!(r.to_vec::<f64>()?, [1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
        assert_eq!(Tensor::scalar(ctx, 2.5)?.item::<f64>()?, 2.5);
        // typed read-back checks the dtype
        expect_status(a.to_vec::<f32>(), Status::DTYPE_MISMATCH);
        expect_status(a.as_slice::<i64>(), Status::DTYPE_MISMATCH);
        expect_status(a.item::<f64>(), Status::SHAPE_MISMATCH);
        // views are not compact: as_slice refuses, contiguous copies
        let at = a.transpose(&[1, 0])?;
        expect_status(at.as_slice::<f64>(), Status::INVALID_ARGUMENT);
        assert_eq!(
            at.contiguous()?.as_slice::<f64>()?,
            [1.0, 3.0, 5.0, 2.0, 4.0, 6.0]
        );
        // Rust-side length checks
        expect_status(
            Tensor::from_slice(ctx, &[1.0, 2.0], &[3]),
            Status::SHAPE_MISMATCH,
        );
        expect_status(
            Tensor::from_slice_strided(ctx, &[1.0, 2.0], &[2, 2], &[2, 1]),
            Status::SHAPE_MISMATCH,
        );
        expect_status(
            Tensor::from_slice::<f64>(ctx, &[], &[-1]),
            Status::INVALID_ARGUMENT,
        );
        let empty = Tensor::from_slice::<f64>(ctx, &[], &[0, 3])?;
        assert_eq!(empty.to_vec::<f64>()?, Vec::<f64>::new());
        assert_eq!(empty.as_slice::<f64>()?, &[] as &[f64]);
        assert!(format!("{a:?}").contains("F64"));
        Ok(())
    });
}

#[test]
fn creation_helpers() {
    run(|ctx| {
        assert_eq!(
            Tensor::zeros(ctx, DType::I32, &[3])?.to_vec::<i32>()?,
            [0, 0, 0]
        );
        assert_eq!(
            Tensor::ones(ctx, DType::Bool, &[2])?.to_vec::<bool>()?,
            [true, true]
        );
        assert_eq!(Tensor::full(ctx, &[2], 7i64)?.to_vec::<i64>()?, [7, 7]);
        assert_eq!(
            Tensor::eye(ctx, DType::F64, 2, 2)?.to_vec::<f64>()?,
            [1.0, 0.0, 0.0, 1.0]
        );
        assert_eq!(
            Tensor::arange(ctx, DType::F64, 0.0, 2.0, 0.5)?.to_vec::<f64>()?,
            [0.0, 0.5, 1.0, 1.5]
        );
        expect_status(
            Tensor::arange(ctx, DType::F64, 0.0, 1.0, 0.0),
            Status::INVALID_ARGUMENT,
        );
        let u = Tensor::random_uniform(ctx, DType::F64, &[100], 7, -1.0, 1.0)?.to_vec::<f64>()?;
        assert!(u.iter().all(|&x| (-1.0..1.0).contains(&x)));
        let u2 = Tensor::random_uniform(ctx, DType::F64, &[100], 7, -1.0, 1.0)?.to_vec::<f64>()?;
        assert_eq!(u, u2, "same seed, same values");
        let n = Tensor::random_normal(ctx, DType::F64, &[2000], 3)?;
        let mean = n.mean(&[])?.item::<f64>()?;
        assert!(mean.abs() < 0.1, "{mean}");
        assert_eq!(
            Tensor::iota(ctx, DType::I64, &[2, 3], 1)?.to_vec::<i64>()?,
            [0, 0, 1, 1, 2, 2]
        );
        Ok(())
    });
}

#[test]
fn elementwise_ops() {
    run(|ctx| {
        let x = t64(ctx, &[0.25, 0.5, 1.0], &[3])?;
        let v = [0.25f64, 0.5, 1.0];
        let check = |t: tenferro::Result<Tensor>, f: fn(f64) -> f64| -> tenferro::Result<()> {
            let want: Vec<f64> = v.iter().map(|&a| f(a)).collect();
            assert_close(&t?.to_vec::<f64>()?, &want, 1e-14);
            Ok(())
        };
        check(x.exp(), f64::exp)?;
        check(x.log(), f64::ln)?;
        check(x.sin(), f64::sin)?;
        check(x.cos(), f64::cos)?;
        check(x.tan(), f64::tan)?;
        check(x.tanh(), f64::tanh)?;
        check(x.sqrt(), f64::sqrt)?;
        check(x.rsqrt(), |a| 1.0 / a.sqrt())?;
        check(x.expm1(), f64::exp_m1)?;
        check(x.log1p(), f64::ln_1p)?;
        check(x.sinh(), f64::sinh)?;
        check(x.cosh(), f64::cosh)?;
        // Rust's std has no erf: values from a high-precision table.
        assert_close(
            &x.erf()?.to_vec::<f64>()?,
            &[0.2763263901682369, 0.5204998778130465, 0.8427007929497149],
            1e-15,
        );
        check(-&x, |a| -a)?;
        check(ops::neg(&x), |a| -a)?;
        check(x.abs(), f64::abs)?;
        check(x.sign(), f64::signum)?;
        check(x.conj(), |a| a)?;
        let y = t64(ctx, &[-1.5, 2.5, 0.5], &[3])?;
        assert_eq!(y.floor()?.to_vec::<f64>()?, [-2.0, 2.0, 0.0]);
        assert_eq!(y.ceil()?.to_vec::<f64>()?, [-1.0, 3.0, 1.0]);
        assert_eq!(y.round()?.to_vec::<f64>()?, [-2.0, 2.0, 0.0]); // half to even
        assert_eq!((&x + &y)?.to_vec::<f64>()?, [-1.25, 3.0, 1.5]);
        assert_eq!((&x - &y)?.to_vec::<f64>()?, [1.75, -2.0, 0.5]);
        assert_eq!((&x * &y)?.to_vec::<f64>()?, [-0.375, 1.25, 0.5]);
        assert_eq!((&y / &x)?.to_vec::<f64>()?, [-6.0, 5.0, 0.5]);
        assert_eq!((x.clone() + y.clone())?.to_vec::<f64>()?, [-1.25, 3.0, 1.5]);
        assert_eq!((x.clone() - &y)?.to_vec::<f64>()?, [1.75, -2.0, 0.5]);
        assert_eq!((&x * y.clone())?.to_vec::<f64>()?, [-0.375, 1.25, 0.5]);
        assert_eq!((-(y.clone()))?.to_vec::<f64>()?, [1.5, -2.5, -0.5]);
        assert_eq!((x.clone() / y.clone())?.to_vec::<f64>()?[2], 2.0);
        assert_eq!(ops::add(&x, &y)?.to_vec::<f64>()?, [-1.25, 3.0, 1.5]);
        assert_eq!(ops::sub(&x, &y)?.to_vec::<f64>()?[0], 1.75);
        assert_eq!(ops::mul(&x, &y)?.to_vec::<f64>()?[0], -0.375);
        assert_eq!(ops::div(&y, &x)?.to_vec::<f64>()?[0], -6.0);
        let angles: Vec<f64> = [(0.25f64, -1.5f64), (0.5, 2.5), (1.0, 0.5)]
            .iter()
            .map(|&(a, b)| a.atan2(b))
            .collect();
        assert_close(&x.atan2(&y)?.to_vec::<f64>()?, &angles, 1e-15);
        assert_eq!(x.maximum(&y)?.to_vec::<f64>()?, [0.25, 2.5, 1.0]);
        assert_eq!(x.minimum(&y)?.to_vec::<f64>()?, [-1.5, 0.5, 0.5]);
        assert_eq!(
            y.pow(&t64(ctx, &[2.0], &[1])?)?.to_vec::<f64>()?,
            [2.25, 6.25, 0.25]
        );
        assert_eq!(
            y.rem(&t64(ctx, &[1.0], &[1])?)?.to_vec::<f64>()?,
            [-0.5, 0.5, 0.5]
        );
        let i = Tensor::from_slice(ctx, &[7i32, -7, 6], &[3])?;
        let j = Tensor::from_slice(ctx, &[2i32, 2, 3], &[3])?;
        assert_eq!(i.div_trunc(&j)?.to_vec::<i32>()?, [3, -3, 2]);
        assert_eq!(i.and(&j)?.to_vec::<i32>()?, [2, 0, 2]);
        assert_eq!(i.or(&j)?.to_vec::<i32>()?, [7, -5, 7]);
        assert_eq!(i.xor(&j)?.to_vec::<i32>()?, [5, -5, 5]);
        assert_eq!(i.not()?.to_vec::<i32>()?, [!7, !-7, !6]);
        assert_eq!((&i / &j)?.dtype()?, DType::F64, "true division of integers");
        let b = Tensor::from_slice(ctx, &[true, false], &[2])?;
        assert_eq!(b.not()?.to_vec::<bool>()?, [false, true]);
        let c = ops::complex(&x, &y)?;
        assert_eq!(c.to_vec::<Complex64>()?[0], Complex64::new(0.25, -1.5));
        let lt = x.compare(&y, Comparison::Lt)?;
        assert_eq!(lt.to_vec::<bool>()?, [false, true, false]);
        for (dir, want) in [
            (Comparison::Eq, [false, false, false]),
            (Comparison::Ne, [true, true, true]),
            (Comparison::Le, [false, true, false]),
            (Comparison::Gt, [true, false, true]),
            (Comparison::Ge, [true, false, true]),
        ] {
            assert_eq!(
                ops::compare(&x, &y, dir)?.to_vec::<bool>()?,
                want,
                "{dir:?}"
            );
        }
        assert_eq!(ops::select(&lt, &x, &y)?.to_vec::<f64>()?, [-1.5, 0.5, 0.5]);
        let (lo, hi) = (t64(ctx, &[0.0], &[1])?, t64(ctx, &[1.0], &[1])?);
        assert_eq!(y.clamp(&lo, &hi)?.to_vec::<f64>()?, [0.0, 1.0, 0.5]);
        assert_eq!(ops::clamp(&y, &lo, &hi)?.to_vec::<f64>()?[1], 1.0);
        // promotion: I32 + F32 -> F64
        let f = Tensor::from_slice(ctx, &[1.0f32], &[1])?;
        assert_eq!((&i + &f)?.dtype()?, DType::F64);
        Ok(())
    });
}

#[test]
fn einsum_and_its_path() {
    run(|ctx| {
        let a = t64(ctx, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;
        let b = t64(ctx, &[1.0, 0.0, -1.0, 2.0, 1.0, 0.0], &[3, 2])?;
        // Column-major a = [[1,3,5],[2,4,6]], b = [[1,2],[0,1],[-1,0]]: a b = [[-4,5],[-4,8]].
        let ab = tenferro::einsum("ij,jk->ik", &[&a, &b])?;
        assert_eq!(ab.to_vec::<f64>()?, [-4.0, -4.0, 5.0, 8.0]);
        assert_eq!(tenferro::einsum("ij->", &[&a])?.to_vec::<f64>()?, [21.0]);
        let c = t64(ctx, &[1.0, 1.0], &[2, 1])?;
        let p = tenferro::einsum_path("ij,jk,kl->il", &[&a, &b, &c])?;
        assert_eq!(p.steps.len(), 2);
        assert!(p.optimal && p.flops > 0.0);
        assert!(ctx.cache_stats(tenferro::Cache::Einsum)?.entries >= 1);
        expect_status(
            tenferro::einsum("ij,jk->ik", &[&a, &a]),
            Status::SHAPE_MISMATCH,
        );
        expect_status(tenferro::einsum("ij\0", &[&a]), Status::INVALID_ARGUMENT);
        // The companions: a b through tensordot, outer, kron and trace of small matrices.
        let td = tenferro::tensordot(&a, &b, &[1], &[0])?;
        assert_eq!(td.to_vec::<f64>()?, [-4.0, -4.0, 5.0, 8.0]);
        let u = t64(ctx, &[1.0, 2.0], &[2])?;
        let o = tenferro::outer(&u, &u)?;
        assert_eq!(o.to_vec::<f64>()?, [1.0, 2.0, 2.0, 4.0]);
        let k = tenferro::kron(&o, &c)?;
        assert_eq!(k.shape()?, [4, 2]);
        assert_eq!(tenferro::trace(&o, 0)?.to_vec::<f64>()?, [5.0]);
        assert_eq!(tenferro::trace(&ab, 1)?.to_vec::<f64>()?, [5.0]);
        expect_status(
            tenferro::tensordot(&a, &b, &[0], &[0]),
            Status::SHAPE_MISMATCH,
        );
        Ok(())
    });
}

#[test]
fn broadcasting_is_left_aligned() {
    run(|ctx| {
        let a = t64(ctx, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;
        let col = t64(ctx, &[10.0, 20.0], &[2])?;
        assert_eq!(
            (&a + &col)?.to_vec::<f64>()?,
            [11.0, 22.0, 13.0, 24.0, 15.0, 26.0]
        );
        let row = t64(ctx, &[1.0, 1.0, 1.0], &[3])?;
        let e = (&a + &row).unwrap_err();
        assert_eq!(e.status, Status::SHAPE_MISMATCH);
        assert!(e.message.starts_with("tfe_add"), "{}", e.message);
        assert!(e.to_string().starts_with("TFE_ERR_SHAPE_MISMATCH: tfe_add"));
        Ok(())
    });
}

#[test]
fn reductions_and_shape_ops() {
    run(|ctx| {
        let a = t64(ctx, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;
        assert_eq!(a.sum(&[])?.item::<f64>()?, 21.0);
        assert_eq!(a.sum(&[0])?.to_vec::<f64>()?, [3.0, 7.0, 11.0]);
        assert_eq!(a.sum(&[-1])?.to_vec::<f64>()?, [9.0, 12.0]);
        assert_eq!(a.prod(&[1])?.to_vec::<f64>()?, [15.0, 48.0]);
        assert_eq!(a.mean(&[0])?.to_vec::<f64>()?, [1.5, 3.5, 5.5]);
        assert_eq!(a.reduce_sum(&[])?.item::<f64>()?, 21.0);
        assert_eq!(a.reduce_prod(&[])?.item::<f64>()?, 720.0);
        assert_eq!(a.reduce_max(&[0])?.to_vec::<f64>()?, [2.0, 4.0, 6.0]);
        assert_eq!(a.reduce_min(&[1])?.to_vec::<f64>()?, [1.0, 2.0]);
        let i = Tensor::from_slice(ctx, &[1i32, 2], &[2])?;
        assert_eq!(i.sum(&[])?.dtype()?, DType::I64);
        assert_eq!(i.reduce_sum(&[])?.dtype()?, DType::I32);
        expect_status(a.sum(&[5]), Status::INVALID_ARGUMENT);
        // matmul: [[1,3,5],[2,4,6]] x [[1],[1],[1]] = [9, 12]
        let ones = Tensor::ones(ctx, DType::F64, &[3, 1])?;
        assert_eq!(a.matmul(&ones)?.to_vec::<f64>()?, [9.0, 12.0]);
        expect_status(a.matmul(&a), Status::SHAPE_MISMATCH);
        let g = a.dot_general(&a, &[1], &[1], &[], &[])?; // A A^T
        assert_eq!(g.to_vec::<f64>()?, [35.0, 44.0, 44.0, 56.0]);
        expect_status(
            a.dot_general(&a, &[1], &[], &[], &[]),
            Status::INVALID_ARGUMENT,
        );
        assert_eq!(i.convert(DType::I64)?.dtype()?, DType::I64);
        expect_status(a.convert(DType::I32), Status::DTYPE_MISMATCH);
        let neg = t64(ctx, &[-1.7, 2.9], &[2])?;
        assert_eq!(neg.cast(DType::I32)?.to_vec::<i32>()?, [-1, 2]);
        assert_eq!(a.transpose(&[1, 0])?.shape()?, [3, 2]);
        assert_eq!(
            a.reshape(&[3, 2])?.to_vec::<f64>()?,
            [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
        );
        expect_status(a.reshape(&[4, 2]), Status::SHAPE_MISMATCH);
        let col = t64(ctx, &[1.0, 2.0], &[2])?;
        assert_eq!(
            col.broadcast_to(&[2, 2])?.to_vec::<f64>()?,
            [1.0, 2.0, 1.0, 2.0]
        );
        assert_eq!(
            col.broadcast_in_dim(&[2, 2], &[1])?.to_vec::<f64>()?,
            [1.0, 1.0, 2.0, 2.0]
        );
        assert_eq!(col.reverse(&[0])?.to_vec::<f64>()?, [2.0, 1.0]);
        let m = t64(ctx, &[1.0, 2.0, 3.0, 4.0], &[2, 2])?;
        assert_eq!(m.extract_diag(0, 1)?.to_vec::<f64>()?, [1.0, 4.0]);
        assert_eq!(col.embed_diag(0, 1)?.to_vec::<f64>()?, [1.0, 0.0, 0.0, 2.0]);
        assert_eq!(m.tril(0)?.to_vec::<f64>()?, [1.0, 2.0, 0.0, 4.0]);
        assert_eq!(m.triu(0)?.to_vec::<f64>()?, [1.0, 0.0, 3.0, 4.0]);
        let v = Tensor::arange(ctx, DType::F64, 0.0, 6.0, 1.0)?;
        assert_eq!(
            v.slice(&[1], &[5], Some(&[2]))?.to_vec::<f64>()?,
            [1.0, 3.0]
        );
        assert_eq!(v.slice(&[4], &[6], None)?.to_vec::<f64>()?, [4.0, 5.0]);
        expect_status(v.slice(&[1], &[], None), Status::INVALID_ARGUMENT);
        let start = Tensor::from_slice(ctx, &[2i64], &[1])?;
        assert_eq!(
            v.dynamic_slice(&start, &[3])?.to_vec::<f64>()?,
            [2.0, 3.0, 4.0]
        );
        let upd = t64(ctx, &[-1.0, -2.0], &[2])?;
        assert_eq!(
            v.dynamic_update_slice(&upd, &start)?.to_vec::<f64>()?,
            [0.0, 1.0, -1.0, -2.0, 4.0, 5.0]
        );
        let idx = Tensor::from_slice(ctx, &[5i64, 0, 5], &[3])?;
        assert_eq!(v.gather(&idx, 0)?.to_vec::<f64>()?, [5.0, 0.0, 5.0]);
        let bad = Tensor::from_slice(ctx, &[9i64], &[1])?;
        expect_status(v.gather(&bad, 0), Status::INVALID_ARGUMENT);
        let ones3 = Tensor::ones(ctx, DType::F64, &[3])?;
        assert_eq!(
            v.scatter(&idx, &ones3, 0)?.to_vec::<f64>()?,
            [1.0, 1.0, 2.0, 3.0, 4.0, 7.0]
        );
        assert_eq!(
            col.pad(&[1], &[0], Some(&[1]))?.to_vec::<f64>()?,
            [0.0, 1.0, 0.0, 2.0]
        );
        assert_eq!(col.pad(&[0], &[1], None)?.to_vec::<f64>()?, [1.0, 2.0, 0.0]);
        expect_status(col.pad(&[0], &[1, 1], None), Status::INVALID_ARGUMENT);
        assert_eq!(
            Tensor::concatenate(&[&col, &col], 0)?.to_vec::<f64>()?,
            [1.0, 2.0, 1.0, 2.0]
        );
        assert_eq!(Tensor::stack(&[&col, &col], 1)?.shape()?, [2, 2]);
        expect_status(Tensor::concatenate(&[], 0), Status::INVALID_ARGUMENT);
        Ok(())
    });
}

/// Every status code this crate can provoke through the library (the device status needs a
/// CUDA device and out-of-memory an allocation the test machine cannot fail safely; internal
/// is a library bug). Linear algebra statuses are in tests/linalg.rs.
#[test]
fn status_codes() {
    run(|ctx| {
        let f = t64(ctx, &[1.0, 2.0], &[2])?;
        let b = Tensor::from_slice(ctx, &[true, false], &[2])?;
        // invalid argument: an unknown constant passed through, two contexts mixed
        expect_status(
            Context::dataflow(Scheduler::Debug, 4),
            Status::INVALID_ARGUMENT,
        );
        let other = Context::new()?;
        let g = t64(&other, &[1.0, 2.0], &[2])?;
        expect_status(&f + &g, Status::INVALID_ARGUMENT);
        // shape mismatch
        expect_status(&f + &t64(ctx, &[1.0; 3], &[3])?, Status::SHAPE_MISMATCH);
        // dtype mismatch: Bool arithmetic, analytic ops on integers
        expect_status(&b + &b, Status::DTYPE_MISMATCH);
        expect_status(
            Tensor::from_slice(ctx, &[1i32], &[1])?.exp(),
            Status::DTYPE_MISMATCH,
        );
        // numerical: integer division by zero
        let i = Tensor::from_slice(ctx, &[1i32], &[1])?;
        let zero = Tensor::from_slice(ctx, &[0i32], &[1])?;
        expect_status(i.div_trunc(&zero), Status::NUMERICAL);
        expect_status(
            i.pow(&Tensor::from_slice(ctx, &[-1i32], &[1])?),
            Status::NUMERICAL,
        );
        // not differentiable: backward of a loss that reaches no variable
        let x = t64(ctx, &[1.0], &[1])?.requires_grad_()?;
        let y = (&x * &x)?;
        expect_status(y.detach()?.backward(), Status::NOT_DIFFERENTIABLE);
        x.set_requires_grad(false)?;
        expect_status(
            x.set_requires_grad(true).and(i.set_requires_grad(true)),
            Status::DTYPE_MISMATCH,
        );
        // not supported: functional AD in a dataflow context
        let df = Context::dataflow(Scheduler::Debug, 0)?;
        let d = t64(&df, &[1.0], &[1])?.requires_grad_()?;
        let dy = (&d * &d)?;
        expect_status(tenferro::ad::vjp(&dy, &[&d], None), Status::NOT_SUPPORTED);
        expect_status(tenferro::ad::capture_trace(&df), Status::NOT_SUPPORTED);
        // a released handle cannot be used from safe Rust: ownership makes it unrepresentable
        Ok(())
    });
}

#[test]
fn tensors_are_shared_between_threads() {
    run(|ctx| {
        let a = t64(ctx, &[1.0, 2.0, 3.0], &[3])?;
        let sums: Vec<f64> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..4)
                .map(|k| {
                    let a = &a;
                    s.spawn(move || -> tenferro::Result<f64> {
                        let shift = Tensor::scalar(&a.context()?, k as f64)?;
                        (a + &shift)?.sum(&[])?.item::<f64>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("thread"))
                .collect::<tenferro::Result<_>>()
        })?;
        assert_eq!(sums, [6.0, 9.0, 12.0, 15.0]);
        let moved = a.clone();
        let t = std::thread::spawn(move || moved.sum(&[]).and_then(|s| s.item::<f64>()));
        assert_eq!(t.join().expect("thread")?, 6.0);
        Ok(())
    });
}

#[test]
fn dataflow_context_gradients() {
    for scheduler in [Scheduler::Debug, Scheduler::Threads] {
        run_with(
            || Context::dataflow(scheduler, 0),
            |ctx| {
                assert_eq!(ctx.mode()?, ContextMode::Dataflow);
                let x = t64(ctx, &[0.1, 0.5, 2.0], &[3])?.requires_grad_()?;
                let loss = (&x.sin()? * &x)?.sum(&[])?;
                loss.backward()?;
                expect_status(loss.backward(), Status::INVALID_ARGUMENT); // a second seed
                let g = x.grad()?.expect("gradient").to_vec::<f64>()?;
                let want: Vec<f64> = [0.1f64, 0.5, 2.0]
                    .iter()
                    .map(|&v| v.sin() + v * v.cos())
                    .collect();
                assert_close(&g, &want, 1e-12);
                // numerical errors surface at the first read
                let sing = t64(ctx, &[1.0, 2.0, 2.0, 4.0], &[2, 2])?;
                let inv = tenferro::linalg::inv(&sing)?;
                expect_status(inv.to_vec::<f64>(), Status::SINGULAR);
                Ok(())
            },
        );
    }
}

#[test]
fn from_vec_adopts_memory() {
    run(|ctx| {
        let t = Tensor::from_vec(ctx, vec![1.0f64, 2.0, 3.0, 4.0], &[2, 2])?;
        assert_eq!(
            t.transpose(&[1, 0])?.contiguous()?.to_vec::<f64>()?,
            [1.0, 3.0, 2.0, 4.0]
        );
        let b = Tensor::from_vec(ctx, vec![true, false], &[2])?;
        assert_eq!(b.to_vec::<bool>()?, [true, false]);
        expect_status(
            Tensor::from_vec(ctx, vec![1.0f64; 3], &[2]),
            Status::SHAPE_MISMATCH,
        );
        Ok(())
    });
}

#[test]
fn dlpack_round_trips() {
    run(|ctx| {
        let a = t64(ctx, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;
        let dl = a.to_dlpack()?;
        assert_eq!(dl.shape(), [2, 3]);
        assert_eq!(dl.strides(), Some(&[1i64, 2][..]));
        assert_eq!(dl.dl_tensor().dtype.code, tenferro::sys::dlpack::DL_FLOAT);
        let back = Tensor::from_dlpack(ctx, dl)?;
        assert_eq!(back.to_vec::<f64>()?, a.to_vec::<f64>()?);
        let dv = a.transpose(&[1, 0])?.to_dlpack_versioned()?;
        let m = dv.managed();
        assert_eq!(m.version.major, 1);
        assert_ne!(
            m.flags & tenferro::sys::dlpack::DLPACK_FLAG_BITMASK_READ_ONLY,
            0
        );
        assert_eq!(dv.shape(), [3, 2]);
        let back = Tensor::from_dlpack_versioned(ctx, dv)?;
        assert_eq!(
            back.contiguous()?.to_vec::<f64>()?,
            [1.0, 3.0, 5.0, 2.0, 4.0, 6.0]
        );
        // an export that is never imported is freed by its deleter
        drop(a.to_dlpack()?);
        drop(a.to_dlpack_versioned()?);
        Ok(())
    });
}

/// A DLPack tensor produced on the Rust side (row-major, NULL strides), imported without copy.
#[test]
fn dlpack_import_of_a_foreign_tensor() {
    use std::ptr::NonNull;
    use tenferro::sys::dlpack::{
        DLDataType, DLDevice, DLManagedTensor, DLTensor, DL_CPU, DL_FLOAT,
    };
    use tenferro::DlpackTensor;

    struct Owner {
        data: Vec<f64>,
        shape: Vec<i64>,
    }
    unsafe extern "C" fn deleter(this: *mut DLManagedTensor) {
        // SAFETY: `this` and its owner were leaked from Boxes below and are freed once here.
        unsafe {
            drop(Box::from_raw((*this).manager_ctx.cast::<Owner>()));
            drop(Box::from_raw(this));
        }
    }
    fn make(data: Vec<f64>, shape: Vec<i64>, device_type: i32) -> DlpackTensor {
        let mut owner = Box::new(Owner { data, shape });
        let dl_tensor = DLTensor {
            data: owner.data.as_mut_ptr().cast(),
            device: DLDevice {
                device_type,
                device_id: 0,
            },
            ndim: owner.shape.len() as i32,
            dtype: DLDataType {
                code: DL_FLOAT,
                bits: 64,
                lanes: 1,
            },
            shape: owner.shape.as_mut_ptr(),
            strides: std::ptr::null_mut(),
            byte_offset: 0,
        };
        let managed = Box::new(DLManagedTensor {
            dl_tensor,
            manager_ctx: Box::into_raw(owner).cast(),
            deleter: Some(deleter),
        });
        // SAFETY: a valid, owned DLManagedTensor whose memory lives until the deleter runs.
        unsafe { DlpackTensor::from_raw(NonNull::new(Box::into_raw(managed)).expect("box")) }
    }
    run(|ctx| {
        // row-major [[1, 2, 3], [4, 5, 6]]
        let t = Tensor::from_dlpack(
            ctx,
            make(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0], vec![2, 3], DL_CPU),
        )?;
        assert_eq!(t.shape()?, [2, 3]);
        assert_eq!(
            t.contiguous()?.to_vec::<f64>()?,
            [1.0, 4.0, 2.0, 5.0, 3.0, 6.0]
        );
        // a device kind the library does not know is refused; the failed import still frees
        // it (the deleter runs)
        expect_status(
            Tensor::from_dlpack(ctx, make(vec![1.0], vec![1], 13)),
            Status::NOT_SUPPORTED,
        );
        Ok(())
    });
}
