//! Ground-state energy of a transverse-field Ising chain and its gradient with respect to the
//! couplings, through `linalg::eigh`, checked against central finite differences.
//!
//! H = -J sum_i Z_i Z_{i+1} - h sum_i X_i on an open chain of `SITES` spins, built as a dense
//! 2^SITES x 2^SITES matrix. J and h are rank-0 tensors marked `requires_grad`; the ground-state
//! energy is the smallest eigenvalue. Exits with status 1 when a derivative disagrees with its
//! finite difference beyond `TOL`.
//!
//! Run: `cargo run --example ising`

use std::process::ExitCode;

use tenferro::{ad, linalg, Context, Result, Tensor};

const SITES: usize = 5;
const TOL: f64 = 1e-6;

/// The two coupling matrices (column-major): sum_i Z_i Z_{i+1} and sum_i X_i.
fn couplings() -> (Vec<f64>, Vec<f64>) {
    let dim = 1usize << SITES;
    let bit = |state: usize, site: usize| (state >> site) & 1;
    let mut zz = vec![0.0; dim * dim];
    let mut x = vec![0.0; dim * dim];
    for s in 0..dim {
        // Z has eigenvalue +1 on a 0 bit and -1 on a 1 bit; ZZ is diagonal.
        zz[s + dim * s] = (0..SITES - 1)
            .map(|i| {
                if bit(s, i) == bit(s, i + 1) {
                    1.0
                } else {
                    -1.0
                }
            })
            .sum();
        // X_i flips bit i: <s ^ (1 << i)| X_i |s> = 1.
        for i in 0..SITES {
            x[(s ^ (1 << i)) + dim * s] += 1.0;
        }
    }
    (zz, x)
}

/// The ground-state energy of H(J, h) for tensors `j` and `h` (tracked or not).
fn ground_energy(zz: &Tensor, x: &Tensor, j: &Tensor, h: &Tensor) -> Result<Tensor> {
    let hamiltonian = (-((j * zz)? + (h * x)?)?)?;
    let (w, _v) = linalg::eigh(&hamiltonian)?;
    w.slice(&[0], &[1], None)?.sum(&[])
}

fn run() -> Result<bool> {
    let ctx = Context::new()?;
    let dim = 1i64 << SITES;
    let (zz, x) = couplings();
    let zz = Tensor::from_slice(&ctx, &zz, &[dim, dim])?;
    let x = Tensor::from_slice(&ctx, &x, &[dim, dim])?;
    let (j0, h0) = (1.0, 0.7);
    let j = Tensor::scalar(&ctx, j0)?.requires_grad_()?;
    let h = Tensor::scalar(&ctx, h0)?.requires_grad_()?;

    let energy = ground_energy(&zz, &x, &j, &h)?;
    energy.backward()?;
    let missing = || tenferro::Error {
        status: tenferro::Status::NOT_DIFFERENTIABLE,
        message: "ising: no gradient".into(),
    };
    let de_dj = j.grad()?.ok_or_else(missing)?.item::<f64>()?;
    let de_dh = h.grad()?.ok_or_else(missing)?.item::<f64>()?;

    // Central finite differences, without recording.
    let _no_grad = ad::no_grad(&ctx)?;
    let e = |jv: f64, hv: f64| -> Result<f64> {
        let (jt, ht) = (Tensor::scalar(&ctx, jv)?, Tensor::scalar(&ctx, hv)?);
        ground_energy(&zz, &x, &jt, &ht)?.item::<f64>()
    };
    let eps = 1e-5;
    let fd_j = (e(j0 + eps, h0)? - e(j0 - eps, h0)?) / (2.0 * eps);
    let fd_h = (e(j0, h0 + eps)? - e(j0, h0 - eps)?) / (2.0 * eps);

    println!("transverse-field Ising chain, {SITES} sites, J = {j0}, h = {h0}");
    println!(
        "ground-state energy  E0     = {:.12}",
        energy.item::<f64>()?
    );
    println!("dE0/dJ  eigh AD {de_dj:.10}   finite difference {fd_j:.10}");
    println!("dE0/dh  eigh AD {de_dh:.10}   finite difference {fd_h:.10}");
    let ok = (de_dj - fd_j).abs() <= TOL && (de_dh - fd_h).abs() <= TOL;
    println!("{}", if ok { "agree within 1e-6" } else { "DISAGREE" });
    Ok(ok)
}

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("ising: {e}");
            ExitCode::FAILURE
        }
    }
}
