/* The CUDA plugin's dense linear-algebra entries (potrf .. geev), loaded directly with dlopen
 * (argv[1]), against LAPACKE on the host and by invariants: L L^H = A, P L U = A, op(A) X = B,
 * Q R = A with Q^H Q = I, A V = V diag(w), U diag(s) Vh = A, info > 0 where LAPACK reports it.
 * Every entry runs in F32, F64, C32 and C64 on square, tall, wide and batched (batch 3) inputs,
 * so that both the per-matrix routines and the batched ones (small orders) are exercised; batched
 * small square LU and solve are also compared with LAPACKE's factors, pivots, info and solutions.
 * Without a device it prints a skip line. */
#include <complex.h>
#include <dlfcn.h>
#include <lapacke.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/device/plugin_abi.h"
#include "plugin_checks.h"
#include "tenferro/base.h"

typedef double complex cplx;

static const int32_t kDtypes[4] = {TFE_F32, TFE_F64, TFE_C32, TFE_C64};
static const char* dname(int32_t d) {
  return d == TFE_F32 ? "F32" : d == TFE_F64 ? "F64" : d == TFE_C32 ? "C32" : "C64";
}
static int is_cplx(int32_t d) { return d == TFE_C32 || d == TFE_C64; }
static int is_single(int32_t d) { return d == TFE_F32 || d == TFE_C32; }
static size_t isize(int32_t d) { return d == TFE_F32 ? 4 : d == TFE_C64 ? 16 : 8; }
/* The dtype of "real" outputs (singular values, Hermitian eigenvalues). */
static int32_t real_of(int32_t d) { return is_single(d) ? TFE_F32 : TFE_F64; }
static int32_t complex_of(int32_t d) { return is_single(d) ? TFE_C32 : TFE_C64; }
/* Relative tolerance of residuals of small, well-conditioned problems. */
static double tol(int32_t d) { return is_single(d) ? 2e-4 : 1e-10; }

/* ---- host matrices (double complex, column-major, batch after batch) ------------------------ */

static uint64_t g_rng = 0x9e3779b97f4a7c15ull;
static double uniform(void) { /* in [-1, 1) */
  g_rng = g_rng * 6364136223846793005ull + 1442695040888963407ull;
  return (double)(g_rng >> 11) / 4503599627370496.0 - 1.0;
}

static cplx* cnew(int64_t count) {
  cplx* p = calloc((size_t)(count > 0 ? count : 1), sizeof(cplx));
  if (p == NULL) abort();
  return p;
}

/* count random entries, complex only for complex dtypes, rounded to d's precision. */
static cplx* crandom(int32_t d, int64_t count) {
  cplx* p = cnew(count);
  for (int64_t i = 0; i < count; ++i) {
    double re = uniform(), im = is_cplx(d) ? uniform() : 0.0;
    p[i] = is_single(d) ? (float)re + I * (float)im : re + I * im;
  }
  return p;
}

static void round_to(int32_t d, cplx* p, int64_t count) {
  for (int64_t i = 0; i < count; ++i) {
    if (!is_cplx(d)) p[i] = creal(p[i]);
    if (is_single(d)) p[i] = (float)creal(p[i]) + I * (float)cimag(p[i]);
  }
}

/* c [m, n] = op(a) op(b), op 'N', 'T' or 'C'; a is [m, k] after op, lda its stored rows. */
static cplx opel(const cplx* a, int64_t ld, char t, int64_t i, int64_t j) {
  if (t == 'N') return a[i + j * ld];
  cplx v = a[j + i * ld];
  return t == 'C' ? conj(v) : v;
}
static void matmul(cplx* c, char ta, const cplx* a, int64_t lda, char tb, const cplx* b,
                   int64_t ldb, int64_t m, int64_t n, int64_t k) {
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      cplx s = 0;
      for (int64_t l = 0; l < k; ++l) s += opel(a, lda, ta, i, l) * opel(b, ldb, tb, l, j);
      c[i + j * m] = s;
    }
}

static double max_abs(const cplx* a, int64_t count) {
  double m = 0;
  for (int64_t i = 0; i < count; ++i) m = fmax(m, cabs(a[i]));
  return m;
}
/* max |a - b| / max(1, max |b|) */
static double rel_diff(const cplx* a, const cplx* b, int64_t count) {
  double m = 0;
  for (int64_t i = 0; i < count; ++i) m = fmax(m, cabs(a[i] - b[i]));
  return m / fmax(1.0, max_abs(b, count));
}
/* max |Q^H Q - I| over the [cols, cols] Gram matrix of q [rows, cols]. */
static double orth_error(const cplx* q, int64_t rows, int64_t cols) {
  double e = 0;
  for (int64_t j = 0; j < cols; ++j)
    for (int64_t i = 0; i < cols; ++i) {
      cplx s = 0;
      for (int64_t l = 0; l < rows; ++l) s += conj(q[l + i * rows]) * q[l + j * rows];
      e = fmax(e, cabs(s - (i == j ? 1.0 : 0.0)));
    }
  return e;
}
/* The same for the rows of vh [rows, cols]: max |Vh Vh^H - I|. */
static double row_orth_error(const cplx* vh, int64_t rows, int64_t cols) {
  double e = 0;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < rows; ++j) {
      cplx s = 0;
      for (int64_t l = 0; l < cols; ++l) s += vh[i + l * rows] * conj(vh[j + l * rows]);
      e = fmax(e, cabs(s - (i == j ? 1.0 : 0.0)));
    }
  return e;
}

/* ---- device transfer --------------------------------------------------------------------------
 */

typedef struct {
  void* ptr;
  size_t bytes;
} dev_buf;

static dev_buf dev_alloc(size_t bytes) {
  dev_buf b = {NULL, bytes};
  OK(P->allocate(0, bytes, &b.ptr));
  return b;
}
static void dev_free(dev_buf b) { P->release(0, b.ptr, b.bytes); }

/* Uploads count elements of h converted to dtype d. */
static dev_buf upload_as(int32_t d, const cplx* h, int64_t count) {
  size_t bytes = (size_t)count * isize(d);
  char* tmp = malloc(bytes > 0 ? bytes : 1);
  for (int64_t i = 0; i < count; ++i) {
    char* p = tmp + (size_t)i * isize(d);
    if (d == TFE_F32)
      *(float*)p = (float)creal(h[i]);
    else if (d == TFE_F64)
      *(double*)p = creal(h[i]);
    else if (d == TFE_C32) {
      float v[2] = {(float)creal(h[i]), (float)cimag(h[i])};
      memcpy(p, v, sizeof v);
    } else {
      double v[2] = {creal(h[i]), cimag(h[i])};
      memcpy(p, v, sizeof v);
    }
  }
  dev_buf b = dev_alloc(bytes);
  if (b.ptr != NULL) OK(P->copy_to_device(0, b.ptr, tmp, bytes));
  free(tmp);
  return b;
}

/* Downloads count elements of dtype d as double complex. */
static cplx* download_as(int32_t d, dev_buf b, int64_t count) {
  size_t bytes = (size_t)count * isize(d);
  char* tmp = malloc(bytes > 0 ? bytes : 1);
  OK(P->copy_to_host(0, tmp, b.ptr, bytes));
  cplx* h = cnew(count);
  for (int64_t i = 0; i < count; ++i) {
    const char* p = tmp + (size_t)i * isize(d);
    if (d == TFE_F32)
      h[i] = *(const float*)p;
    else if (d == TFE_F64)
      h[i] = *(const double*)p;
    else if (d == TFE_C32)
      h[i] = ((const float*)p)[0] + I * ((const float*)p)[1];
    else
      h[i] = ((const double*)p)[0] + I * ((const double*)p)[1];
  }
  free(tmp);
  return h;
}

static int32_t* download_ints(dev_buf b, int64_t count) {
  int32_t* h = calloc((size_t)(count > 0 ? count : 1), sizeof(int32_t));
  OK(P->copy_to_host(0, h, b.ptr, (size_t)count * sizeof(int32_t)));
  return h;
}

/* A device info array preset to a sentinel, so that an entry that never writes it is caught. */
static dev_buf info_array(int64_t batch) {
  int32_t* h = malloc((size_t)batch * sizeof(int32_t));
  for (int64_t i = 0; i < batch; ++i) h[i] = -12345;
  dev_buf b = dev_alloc((size_t)batch * sizeof(int32_t));
  OK(P->copy_to_device(0, b.ptr, h, (size_t)batch * sizeof(int32_t)));
  free(h);
  return b;
}

/* ---- potrf --------------------------------------------------------------------------------------
 */

/* batch Hermitian positive definite [n, n] matrices B B^H + n I. */
static cplx* hpd(int32_t d, int64_t n, int64_t batch) {
  cplx* a = cnew(n * n * batch);
  for (int64_t b = 0; b < batch; ++b) {
    cplx* r = crandom(d, n * n);
    matmul(a + b * n * n, 'N', r, n, 'C', r, n, n, n, n);
    for (int64_t i = 0; i < n; ++i) a[b * n * n + i * (n + 1)] += (double)n;
    free(r);
  }
  round_to(d, a, n * n * batch);
  return a;
}

static void check_potrf_case(int32_t d, int32_t upper, int64_t n, int64_t batch) {
  cplx* a = hpd(d, n, batch);
  /* batch 1 (if any) is made indefinite at order 3: its leading minor of order 3 is negative. */
  const int bad = batch > 1 && n >= 3;
  if (bad) {
    cplx* m = a + n * n;
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < n; ++i) m[i + j * n] = i == j ? (i == 2 ? -1.0 : 1.0) : 0.0;
  }
  dev_buf da = upload_as(d, a, n * n * batch), info = info_array(batch);
  OK(P->potrf(0, d, upper, n, batch, da.ptr, (int32_t*)info.ptr));
  cplx* f = download_as(d, da, n * n * batch);
  int32_t* hi = download_ints(info, batch);
  for (int64_t b = 0; b < batch; ++b) {
    if (bad && b == 1) {
      CHECK(hi[b] == 3, "potrf %s upper %d n %lld: info %d for an indefinite matrix, expected 3",
            dname(d), upper, (long long)n, hi[b]);
      continue;
    }
    CHECK(hi[b] == 0, "potrf %s: info[%lld] = %d", dname(d), (long long)b, hi[b]);
    /* The factor's triangle only; the other keeps the input. */
    cplx* t = cnew(n * n);
    const cplx* fb = f + b * n * n;
    const cplx* ab = a + b * n * n;
    double kept = 0;
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < n; ++i) {
        int in_factor = upper ? i <= j : i >= j;
        if (in_factor)
          t[i + j * n] = fb[i + j * n];
        else
          kept = fmax(kept, cabs(fb[i + j * n] - ab[i + j * n]));
      }
    cplx* r = cnew(n * n);
    if (upper)
      matmul(r, 'C', t, n, 'N', t, n, n, n, n); /* U^H U */
    else
      matmul(r, 'N', t, n, 'C', t, n, n, n, n); /* L L^H */
    double e = rel_diff(r, ab, n * n);
    CHECK(e < tol(d), "potrf %s upper %d n %lld batch %lld: |factor product - A| %g", dname(d),
          upper, (long long)n, (long long)batch, e);
    CHECK(kept == 0, "potrf %s: the other triangle changed (%g)", dname(d), kept);
    /* Against LAPACKE (unique factor with a positive real diagonal). */
    cplx* ref = cnew(n * n);
    memcpy(ref, ab, sizeof(cplx) * (size_t)(n * n));
    lapack_int li =
        LAPACKE_zpotrf(LAPACK_COL_MAJOR, upper ? 'U' : 'L', (lapack_int)n, ref, (lapack_int)n);
    double diff = 0;
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < n; ++i)
        if (upper ? i <= j : i >= j) diff = fmax(diff, cabs(ref[i + j * n] - t[i + j * n]));
    CHECK(li == 0 && diff / max_abs(ref, n * n) < tol(d), "potrf %s: vs LAPACKE %g", dname(d),
          diff);
    free(ref);
    free(t);
    free(r);
  }
  free(a);
  free(f);
  free(hi);
  dev_free(da);
  dev_free(info);
}

static void check_potrf(void) {
  for (int k = 0; k < 4; ++k)
    for (int32_t upper = 0; upper < 2; ++upper) {
      check_potrf_case(kDtypes[k], upper, 6, 1);
      check_potrf_case(kDtypes[k], upper, 6, 3);   /* the batched routine */
      check_potrf_case(kDtypes[k], upper, 140, 2); /* per matrix above the batched limit */
    }
}

/* ---- getrf / getrs ------------------------------------------------------------------------------
 */

/* P L U for one matrix: lu [m, n] packed, ipiv [min(m, n)] 1-based. */
static void plu(cplx* out, const cplx* lu, const int32_t* ipiv, int64_t m, int64_t n) {
  const int64_t k = m < n ? m : n;
  cplx* l = cnew(m * k);
  cplx* u = cnew(k * n);
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = 0; i < m; ++i) l[i + j * m] = i == j ? 1.0 : i > j ? lu[i + j * m] : 0.0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < k; ++i) u[i + j * k] = i <= j ? lu[i + j * m] : 0.0;
  matmul(out, 'N', l, m, 'N', u, k, m, n, k);
  /* Undo the interchanges in reverse order: A = P L U with P = P_1 ... P_k. */
  for (int64_t i = k - 1; i >= 0; --i) {
    int64_t p = ipiv[i] - 1;
    if (p == i) continue;
    for (int64_t j = 0; j < n; ++j) {
      cplx t = out[i + j * m];
      out[i + j * m] = out[p + j * m];
      out[p + j * m] = t;
    }
  }
  free(l);
  free(u);
}

static void check_getrf_case(int32_t d, int64_t m, int64_t n, int64_t batch) {
  const int64_t k = m < n ? m : n;
  cplx* a = crandom(d, m * n * batch);
  /* Matrix 0's first column is zero: U[0, 0] is exactly zero, info 1 (a result, not an error). */
  for (int64_t i = 0; i < m; ++i) a[i] = 0;
  dev_buf da = upload_as(d, a, m * n * batch), info = info_array(batch);
  dev_buf piv = dev_alloc((size_t)(k * batch) * sizeof(int32_t));
  OK(P->getrf(0, d, m, n, batch, da.ptr, (int32_t*)piv.ptr, (int32_t*)info.ptr));
  cplx* lu = download_as(d, da, m * n * batch);
  int32_t* hp = download_ints(piv, k * batch);
  int32_t* hi = download_ints(info, batch);
  for (int64_t b = 0; b < batch; ++b) {
    int32_t expect = b == 0 ? 1 : 0;
    CHECK(hi[b] == expect, "getrf %s %lldx%lld: info[%lld] = %d, expected %d", dname(d),
          (long long)m, (long long)n, (long long)b, hi[b], expect);
    int pivots_ok = 1;
    for (int64_t i = 0; i < k; ++i) pivots_ok &= hp[b * k + i] >= i + 1 && hp[b * k + i] <= m;
    CHECK(pivots_ok, "getrf %s: pivots out of range", dname(d));
    if (!pivots_ok) continue;
    cplx* r = cnew(m * n);
    plu(r, lu + b * m * n, hp + b * k, m, n);
    double e = rel_diff(r, a + b * m * n, m * n);
    CHECK(e < tol(d), "getrf %s %lldx%lld batch %lld: |P L U - A| %g", dname(d), (long long)m,
          (long long)n, (long long)batch, e);
    /* Partial pivoting bounds L's entries by 1; complex LAPACK pivots by |re| + |im|, which
     * bounds their modulus by sqrt(2). */
    double lmax = 0, bound = is_cplx(d) ? sqrt(2.0) : 1.0;
    for (int64_t j = 0; j < k; ++j)
      for (int64_t i = j + 1; i < m; ++i) lmax = fmax(lmax, cabs(lu[b * m * n + i + j * m]));
    CHECK(lmax <= bound * (1.0 + tol(d)), "getrf %s: |L| %g > %g", dname(d), lmax, bound);
    free(r);
  }
  free(a);
  free(lu);
  free(hp);
  free(hi);
  dev_free(da);
  dev_free(info);
  dev_free(piv);
}

static void check_getrs_case(int32_t d, char trans, int64_t n, int64_t nrhs, int64_t batch) {
  cplx* a = crandom(d, n * n * batch);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < n; ++i) a[b * n * n + i * (n + 1)] += 3.0; /* well conditioned */
  round_to(d, a, n * n * batch);
  cplx* rhs = crandom(d, n * nrhs * batch);
  dev_buf da = upload_as(d, a, n * n * batch), db = upload_as(d, rhs, n * nrhs * batch);
  dev_buf info = info_array(batch), piv = dev_alloc((size_t)(n * batch) * sizeof(int32_t));
  OK(P->getrf(0, d, n, n, batch, da.ptr, (int32_t*)piv.ptr, (int32_t*)info.ptr));
  OK(P->getrs(0, d, trans, n, nrhs, batch, da.ptr, (const int32_t*)piv.ptr, db.ptr));
  cplx* x = download_as(d, db, n * nrhs * batch);
  for (int64_t b = 0; b < batch; ++b) {
    cplx* r = cnew(n * nrhs);
    matmul(r, trans, a + b * n * n, n, 'N', x + b * n * nrhs, n, n, nrhs, n);
    double e = rel_diff(r, rhs + b * n * nrhs, n * nrhs);
    CHECK(e < tol(d), "getrs %s trans %c n %lld batch %lld: |op(A) X - B| %g", dname(d), trans,
          (long long)n, (long long)batch, e);
    free(r);
  }
  free(a);
  free(rhs);
  free(x);
  dev_free(da);
  dev_free(db);
  dev_free(info);
  dev_free(piv);
}

/* Batches of small square matrices (cuBLAS's batched LU up to order 32; order 33 takes the
 * per-matrix path with the same checks) against LAPACKE. Every matrix is a row permutation of a
 * strictly column diagonally dominant one, so partial pivoting has one clear choice at each step,
 * the same in every implementation, and its pivots undo the permutation. Matrix 1 has a zero
 * column at n / 2 (its permutation keeps that row in place): U[n/2, n/2] is exactly zero, info is
 * n/2 + 1, and the factorisation goes on past it as LAPACK's does, with no inf or NaN. getrs then
 * solves the nonsingular systems in the three transpositions, against LAPACKE's getrs. */
static void check_lu_batched_case(int32_t d, int64_t n, int64_t batch, int64_t nrhs) {
  const int64_t nn = n * n, singular = 1, zero_col = n / 2;
  cplx* a = cnew(nn * batch);
  int64_t* perm = malloc(sizeof(int64_t) * (size_t)n);
  for (int64_t b = 0; b < batch; ++b) {
    cplx* r = crandom(d, nn);
    for (int64_t i = 0; i < n; ++i) r[i * (n + 1)] += 2.0 * (double)n + 2.0;
    for (int64_t i = 0; i < n; ++i) perm[i] = i;
    for (int64_t i = n - 1; i > 0; --i) { /* Fisher-Yates: row i of r goes to row perm[i] */
      int64_t j = (int64_t)((uniform() + 1.0) * 0.5 * (double)(i + 1));
      if (j > i) j = i;
      int64_t t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
    if (b == singular)
      for (int64_t i = 0; i < n; ++i)
        if (perm[i] == zero_col) {
          perm[i] = perm[zero_col];
          perm[zero_col] = zero_col;
        }
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < n; ++i) a[b * nn + perm[i] + j * n] = r[i + j * n];
    free(r);
  }
  for (int64_t i = 0; i < n; ++i) a[singular * nn + i + zero_col * n] = 0;
  round_to(d, a, nn * batch);
  dev_buf da = upload_as(d, a, nn * batch), info = info_array(batch);
  dev_buf piv = dev_alloc((size_t)(n * batch) * sizeof(int32_t));
  OK(P->getrf(0, d, n, n, batch, da.ptr, (int32_t*)piv.ptr, (int32_t*)info.ptr));
  cplx* lu = download_as(d, da, nn * batch);
  int32_t* hp = download_ints(piv, n * batch);
  int32_t* hi = download_ints(info, batch);
  cplx* ref = cnew(nn * batch);
  lapack_int* ref_piv = malloc(sizeof(lapack_int) * (size_t)(n * batch));
  cplx* r = cnew(nn);
  for (int64_t b = 0; b < batch; ++b) {
    memcpy(ref + b * nn, a + b * nn, sizeof(cplx) * (size_t)nn);
    lapack_int li = LAPACKE_zgetrf(LAPACK_COL_MAJOR, (lapack_int)n, (lapack_int)n, ref + b * nn,
                                   (lapack_int)n, ref_piv + b * n);
    const int32_t expect = b == singular ? (int32_t)zero_col + 1 : 0;
    CHECK(li == expect && hi[b] == expect,
          "getrf batched %s n %lld batch %lld: info[%lld] = %d, LAPACKE %d, expected %d", dname(d),
          (long long)n, (long long)batch, (long long)b, hi[b], (int)li, expect);
    int same_pivots = 1;
    for (int64_t i = 0; i < n; ++i) same_pivots &= hp[b * n + i] == (int32_t)ref_piv[b * n + i];
    CHECK(same_pivots, "getrf batched %s n %lld: the pivots of batch %lld differ from LAPACKE's",
          dname(d), (long long)n, (long long)b);
    if (!same_pivots) continue;
    double e = rel_diff(lu + b * nn, ref + b * nn, nn);
    plu(r, lu + b * nn, hp + b * n, n, n);
    double pe = rel_diff(r, a + b * nn, nn);
    CHECK(e < tol(d) && pe < tol(d),
          "getrf batched %s n %lld batch %lld: |LU - LAPACKE's| %g, |P L U - A| %g (batch %lld)",
          dname(d), (long long)n, (long long)batch, e, pe, (long long)b);
  }
  const char ts[3] = {'N', 'T', 'C'};
  cplx* rhs = crandom(d, n * nrhs * batch);
  cplx* xref = cnew(n * nrhs);
  for (int t = 0; t < 3; ++t) {
    dev_buf db = upload_as(d, rhs, n * nrhs * batch);
    OK(P->getrs(0, d, ts[t], n, nrhs, batch, da.ptr, (const int32_t*)piv.ptr, db.ptr));
    cplx* x = download_as(d, db, n * nrhs * batch);
    for (int64_t b = 0; b < batch; ++b) {
      if (b == singular) continue; /* inf or NaN: a singular system has no solution */
      memcpy(xref, rhs + b * n * nrhs, sizeof(cplx) * (size_t)(n * nrhs));
      lapack_int li =
          LAPACKE_zgetrs(LAPACK_COL_MAJOR, ts[t], (lapack_int)n, (lapack_int)nrhs, ref + b * nn,
                         (lapack_int)n, ref_piv + b * n, xref, (lapack_int)n);
      double e = rel_diff(x + b * n * nrhs, xref, n * nrhs);
      CHECK(li == 0 && e < tol(d),
            "getrs batched %s trans %c n %lld nrhs %lld batch %lld: |X - LAPACKE's| %g (batch "
            "%lld)",
            dname(d), ts[t], (long long)n, (long long)nrhs, (long long)batch, e, (long long)b);
    }
    free(x);
    dev_free(db);
  }
  free(a);
  free(perm);
  free(lu);
  free(hp);
  free(hi);
  free(ref);
  free(ref_piv);
  free(r);
  free(rhs);
  free(xref);
  dev_free(da);
  dev_free(info);
  dev_free(piv);
}

static void check_lu(void) {
  for (int k = 0; k < 4; ++k) {
    int32_t d = kDtypes[k];
    check_getrf_case(d, 6, 6, 1);
    check_getrf_case(d, 9, 5, 1);
    check_getrf_case(d, 5, 9, 1);
    check_getrf_case(d, 6, 6, 3);
    check_getrf_case(d, 9, 5, 3);
    check_getrf_case(d, 5, 9, 3);
    const char ts[3] = {'N', 'T', 'C'};
    for (int t = 0; t < 3; ++t) {
      check_getrs_case(d, ts[t], 6, 1, 1);
      check_getrs_case(d, ts[t], 7, 3, 3);
    }
    /* Batched small square LU and solve (orders up to 32), and order 33 per matrix. */
    check_lu_batched_case(d, 1, 3, 1);
    check_lu_batched_case(d, 2, 4, 2);
    check_lu_batched_case(d, 5, 3, 3);
    check_lu_batched_case(d, 8, 5, 1);
    check_lu_batched_case(d, 17, 3, 2);
    check_lu_batched_case(d, 32, 4, 3);
    check_lu_batched_case(d, 33, 3, 2);
  }
}

/* ---- trsm ---------------------------------------------------------------------------------------
 */

static void check_trsm_case(int32_t d, int32_t left, int32_t upper, char trans, int32_t unit,
                            int64_t m, int64_t n, int64_t batch) {
  const int64_t k = left ? m : n;
  /* The whole of A is random (the other triangle and, for unit, the diagonal must not be read). */
  cplx* a = crandom(d, k * k * batch);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < k; ++i) a[b * k * k + i * (k + 1)] += 4.0;
  round_to(d, a, k * k * batch);
  cplx* rhs = crandom(d, m * n * batch);
  dev_buf da = upload_as(d, a, k * k * batch), db = upload_as(d, rhs, m * n * batch);
  OK(P->trsm(0, d, left, upper, trans, unit, m, n, batch, da.ptr, db.ptr));
  cplx* x = download_as(d, db, m * n * batch);
  cplx* t = cnew(k * k);
  cplx* r = cnew(m * n);
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t j = 0; j < k; ++j)
      for (int64_t i = 0; i < k; ++i) {
        int in = upper ? i <= j : i >= j;
        t[i + j * k] = i == j && unit ? 1.0 : in ? a[b * k * k + i + j * k] : 0.0;
      }
    if (left)
      matmul(r, trans, t, k, 'N', x + b * m * n, m, m, n, m);
    else
      matmul(r, 'N', x + b * m * n, m, trans, t, k, m, n, n);
    double e = rel_diff(r, rhs + b * m * n, m * n);
    CHECK(e < tol(d), "trsm %s left %d upper %d trans %c unit %d %lldx%lld batch %lld: %g",
          dname(d), left, upper, trans, unit, (long long)m, (long long)n, (long long)batch, e);
  }
  free(a);
  free(rhs);
  free(x);
  free(t);
  free(r);
  dev_free(da);
  dev_free(db);
}

static void check_trsm(void) {
  const char ts[3] = {'N', 'T', 'C'};
  for (int k = 0; k < 4; ++k)
    for (int32_t left = 0; left < 2; ++left)
      for (int32_t upper = 0; upper < 2; ++upper)
        for (int t = 0; t < 3; ++t)
          for (int32_t unit = 0; unit < 2; ++unit) {
            check_trsm_case(kDtypes[k], left, upper, ts[t], unit, 5, 3, 1);
            check_trsm_case(kDtypes[k], left, upper, ts[t], unit, 4, 6, 3); /* batched */
          }
  /* Per matrix above the batched limit. */
  check_trsm_case(TFE_F64, 1, 0, 'N', 0, 150, 4, 2);
  check_trsm_case(TFE_C32, 0, 1, 'C', 0, 3, 150, 2);
}

/* ---- geqrf / orgqr ------------------------------------------------------------------------------
 */

static void check_qr_case(int32_t d, int64_t m, int64_t n, int64_t batch) {
  const int64_t k = m < n ? m : n;
  cplx* a = crandom(d, m * n * batch);
  dev_buf da = upload_as(d, a, m * n * batch), tau = dev_alloc((size_t)(k * batch) * isize(d));
  OK(P->geqrf(0, d, m, n, batch, da.ptr, tau.ptr));
  cplx* f = download_as(d, da, m * n * batch);
  /* Reduced Q [m, k] from the first k columns; for a tall matrix also the full Q [m, m] with
   * garbage in the columns past k (orgqr resets them). */
  cplx* qin = cnew(m * k * batch);
  for (int64_t b = 0; b < batch; ++b)
    memcpy(qin + b * m * k, f + b * m * n, sizeof(cplx) * (size_t)(m * k));
  dev_buf dq = upload_as(d, qin, m * k * batch);
  OK(P->orgqr(0, d, m, k, k, batch, dq.ptr, tau.ptr));
  cplx* q = download_as(d, dq, m * k * batch);
  cplx* qfull = NULL;
  if (m > k) {
    cplx* g = crandom(d, m * m * batch);
    for (int64_t b = 0; b < batch; ++b)
      memcpy(g + b * m * m, f + b * m * n, sizeof(cplx) * (size_t)(m * k));
    dev_buf dg = upload_as(d, g, m * m * batch);
    OK(P->orgqr(0, d, m, m, k, batch, dg.ptr, tau.ptr));
    qfull = download_as(d, dg, m * m * batch);
    dev_free(dg);
    free(g);
  }
  cplx* r = cnew(k * n);
  cplx* prod = cnew(m * n);
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < k; ++i) r[i + j * k] = i <= j ? f[b * m * n + i + j * m] : 0.0;
    const cplx* qb = q + b * m * k;
    matmul(prod, 'N', qb, m, 'N', r, k, m, n, k);
    double e = rel_diff(prod, a + b * m * n, m * n), o = orth_error(qb, m, k);
    CHECK(e < tol(d) && o < tol(d),
          "geqrf/orgqr %s %lldx%lld batch %lld: |QR - A| %g, |Q^H Q - I| %g", dname(d),
          (long long)m, (long long)n, (long long)batch, e, o);
    if (qfull != NULL) {
      const cplx* fb = qfull + b * m * m;
      double of = orth_error(fb, m, m), lead = rel_diff(fb, qb, m * k);
      CHECK(of < tol(d) && lead < tol(d), "orgqr %s full %lldx%lld: |Q^H Q - I| %g, leading %g",
            dname(d), (long long)m, (long long)m, of, lead);
    }
  }
  free(a);
  free(f);
  free(qin);
  free(q);
  free(qfull);
  free(r);
  free(prod);
  dev_free(da);
  dev_free(tau);
  dev_free(dq);
}

static void check_qr(void) {
  for (int k = 0; k < 4; ++k) {
    int32_t d = kDtypes[k];
    check_qr_case(d, 6, 6, 1);
    check_qr_case(d, 9, 4, 1);
    check_qr_case(d, 4, 9, 1);
    check_qr_case(d, 6, 6, 3);
    check_qr_case(d, 9, 4, 3);
    check_qr_case(d, 4, 9, 3);
  }
}

/* ---- syevd --------------------------------------------------------------------------------------
 */

static void check_syevd_case(int32_t d, int32_t upper, int32_t vectors, int64_t n, int64_t batch) {
  /* Random everywhere; the Hermitian matrix is the one the chosen triangle defines. */
  cplx* raw = crandom(d, n * n * batch);
  cplx* h = cnew(n * n * batch);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < n; ++i) {
        const cplx* rb = raw + b * n * n;
        int mine = upper ? i <= j : i >= j;
        cplx v = mine ? rb[i + j * n] : conj(rb[j + i * n]);
        h[b * n * n + i + j * n] = i == j ? creal(v) : v;
      }
  /* The diagonal is read as real: make it so in what is uploaded too. */
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < n; ++i)
      raw[b * n * n + i * (n + 1)] = creal(raw[b * n * n + i * (n + 1)]);
  dev_buf da = upload_as(d, raw, n * n * batch), info = info_array(batch);
  dev_buf dw = dev_alloc((size_t)(n * batch) * isize(real_of(d)));
  OK(P->syevd(0, d, upper, vectors, n, batch, da.ptr, dw.ptr, (int32_t*)info.ptr));
  cplx* w = download_as(real_of(d), dw, n * batch);
  cplx* v = vectors ? download_as(d, da, n * n * batch) : NULL;
  int32_t* hi = download_ints(info, batch);
  double* ref = malloc(sizeof(double) * (size_t)n);
  cplx* av = cnew(n * n);
  for (int64_t b = 0; b < batch; ++b) {
    CHECK(hi[b] == 0, "syevd %s: info[%lld] = %d", dname(d), (long long)b, hi[b]);
    cplx* hb = h + b * n * n;
    cplx* tmp = cnew(n * n);
    memcpy(tmp, hb, sizeof(cplx) * (size_t)(n * n));
    lapack_int li =
        LAPACKE_zheev(LAPACK_COL_MAJOR, 'N', 'L', (lapack_int)n, tmp, (lapack_int)n, ref);
    free(tmp);
    double scale = fmax(1.0, fmax(fabs(ref[0]), fabs(ref[n - 1]))), ew = 0;
    int ascending = 1;
    for (int64_t i = 0; i < n; ++i) {
      ew = fmax(ew, fabs(creal(w[b * n + i]) - ref[i]));
      if (i > 0) ascending &= creal(w[b * n + i]) >= creal(w[b * n + i - 1]);
    }
    CHECK(li == 0 && ew / scale < tol(d) && ascending,
          "syevd %s upper %d vectors %d n %lld batch %lld: eigenvalues off by %g (ascending %d)",
          dname(d), upper, vectors, (long long)n, (long long)batch, ew, ascending);
    if (!vectors) continue;
    const cplx* vb = v + b * n * n;
    matmul(av, 'N', hb, n, 'N', vb, n, n, n, n);
    double res = 0;
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < n; ++i)
        res = fmax(res, cabs(av[i + j * n] - vb[i + j * n] * creal(w[b * n + j])));
    double o = orth_error(vb, n, n);
    CHECK(res / scale < tol(d) && o < tol(d), "syevd %s n %lld: |A V - V W| %g, |V^H V - I| %g",
          dname(d), (long long)n, res, o);
  }
  free(raw);
  free(h);
  free(w);
  free(v);
  free(hi);
  free(ref);
  free(av);
  dev_free(da);
  dev_free(info);
  dev_free(dw);
}

static void check_syevd(void) {
  for (int k = 0; k < 4; ++k)
    for (int32_t upper = 0; upper < 2; ++upper)
      for (int32_t vectors = 0; vectors < 2; ++vectors) {
        check_syevd_case(kDtypes[k], upper, vectors, 5, 1);
        check_syevd_case(kDtypes[k], upper, vectors, 6, 3);  /* syevjBatched */
        check_syevd_case(kDtypes[k], upper, vectors, 40, 2); /* per matrix above 32 */
      }
}

/* ---- gesvd --------------------------------------------------------------------------------------
 */

static void check_gesvd_case(int32_t d, int32_t mode, int64_t m, int64_t n, int64_t batch) {
  const int64_t k = m < n ? m : n;
  const int64_t ucols = mode == 2 ? m : k, vrows = mode == 2 ? n : k;
  cplx* a = crandom(d, m * n * batch);
  dev_buf da = upload_as(d, a, m * n * batch), info = info_array(batch);
  dev_buf ds = dev_alloc((size_t)(k * batch) * isize(real_of(d)));
  dev_buf du = {NULL, 0}, dv = {NULL, 0};
  if (mode != 0) {
    du = dev_alloc((size_t)(m * ucols * batch) * isize(d));
    dv = dev_alloc((size_t)(vrows * n * batch) * isize(d));
  }
  OK(P->gesvd(0, d, mode, m, n, batch, da.ptr, ds.ptr, du.ptr, dv.ptr, (int32_t*)info.ptr));
  cplx* s = download_as(real_of(d), ds, k * batch);
  cplx* u = mode ? download_as(d, du, m * ucols * batch) : NULL;
  cplx* vh = mode ? download_as(d, dv, vrows * n * batch) : NULL;
  int32_t* hi = download_ints(info, batch);
  double* ref = malloc(sizeof(double) * (size_t)k);
  double* superb = malloc(sizeof(double) * (size_t)k);
  cplx* us = cnew(m * k);
  cplx* prod = cnew(m * n);
  for (int64_t b = 0; b < batch; ++b) {
    CHECK(hi[b] == 0, "gesvd %s: info[%lld] = %d", dname(d), (long long)b, hi[b]);
    cplx* tmp = cnew(m * n);
    memcpy(tmp, a + b * m * n, sizeof(cplx) * (size_t)(m * n));
    lapack_int li = LAPACKE_zgesvd(LAPACK_COL_MAJOR, 'N', 'N', (lapack_int)m, (lapack_int)n, tmp,
                                   (lapack_int)m, ref, NULL, 1, NULL, 1, superb);
    free(tmp);
    double es = 0;
    int descending = 1;
    for (int64_t i = 0; i < k; ++i) {
      es = fmax(es, fabs(creal(s[b * k + i]) - ref[i]));
      if (i > 0) descending &= creal(s[b * k + i]) <= creal(s[b * k + i - 1]);
    }
    CHECK(li == 0 && es / fmax(1.0, ref[0]) < tol(d) && descending,
          "gesvd %s mode %d %lldx%lld batch %lld: singular values off by %g (descending %d)",
          dname(d), mode, (long long)m, (long long)n, (long long)batch, es, descending);
    if (mode == 0) continue;
    const cplx* ub = u + b * m * ucols;
    const cplx* vb = vh + b * vrows * n;
    for (int64_t j = 0; j < k; ++j)
      for (int64_t i = 0; i < m; ++i) us[i + j * m] = ub[i + j * m] * creal(s[b * k + j]);
    /* U[:, :k] diag(s) Vh[:k, :]: Vh's leading k rows, stored with vrows rows. */
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < m; ++i) {
        cplx acc = 0;
        for (int64_t l = 0; l < k; ++l) acc += us[i + l * m] * vb[l + j * vrows];
        prod[i + j * m] = acc;
      }
    double e = rel_diff(prod, a + b * m * n, m * n);
    double ou = orth_error(ub, m, ucols), ov = row_orth_error(vb, vrows, n);
    CHECK(e < tol(d) && ou < tol(d) && ov < tol(d),
          "gesvd %s mode %d %lldx%lld batch %lld: |U S Vh - A| %g, |U^H U - I| %g, "
          "|Vh Vh^H - I| %g",
          dname(d), mode, (long long)m, (long long)n, (long long)batch, e, ou, ov);
  }
  free(a);
  free(s);
  free(u);
  free(vh);
  free(hi);
  free(ref);
  free(superb);
  free(us);
  free(prod);
  dev_free(da);
  dev_free(info);
  dev_free(ds);
  if (mode != 0) {
    dev_free(du);
    dev_free(dv);
  }
}

static void check_gesvd(void) {
  for (int k = 0; k < 4; ++k)
    for (int32_t mode = 0; mode < 3; ++mode) {
      int32_t d = kDtypes[k];
      /* Per matrix (QR-based gesvd; wide ones through the conjugate transpose). */
      check_gesvd_case(d, mode, 6, 6, 1);
      check_gesvd_case(d, mode, 9, 4, 1);
      check_gesvd_case(d, mode, 4, 9, 1);
      check_gesvd_case(d, mode, 40, 33, 2);
      check_gesvd_case(d, mode, 33, 40, 2);
      /* gesvdjBatched (orders <= 32). */
      check_gesvd_case(d, mode, 6, 6, 3);
      check_gesvd_case(d, mode, 9, 4, 3);
      check_gesvd_case(d, mode, 4, 9, 3);
    }
}

/* ---- geev ---------------------------------------------------------------------------------------
 */

static void check_geev_case(int32_t d, int32_t vectors, int64_t n, int64_t batch) {
  const int32_t cd = complex_of(d);
  cplx* a = crandom(d, n * n * batch);
  dev_buf da = upload_as(d, a, n * n * batch), info = info_array(batch);
  dev_buf dw = dev_alloc((size_t)(n * batch) * isize(cd));
  dev_buf dv = {NULL, 0};
  if (vectors) dv = dev_alloc((size_t)(n * n * batch) * isize(cd));
  OK(P->geev(0, d, vectors, n, batch, da.ptr, dw.ptr, dv.ptr, (int32_t*)info.ptr));
  cplx* w = download_as(cd, dw, n * batch);
  cplx* v = vectors ? download_as(cd, dv, n * n * batch) : NULL;
  int32_t* hi = download_ints(info, batch);
  cplx* ref = cnew(n);
  int* used = malloc(sizeof(int) * (size_t)n);
  for (int64_t b = 0; b < batch; ++b) {
    CHECK(hi[b] == 0, "geev %s: info[%lld] = %d", dname(d), (long long)b, hi[b]);
    const cplx* ab = a + b * n * n;
    cplx* tmp = cnew(n * n);
    memcpy(tmp, ab, sizeof(cplx) * (size_t)(n * n));
    lapack_int li = LAPACKE_zgeev(LAPACK_COL_MAJOR, 'N', 'N', (lapack_int)n, tmp, (lapack_int)n,
                                  ref, NULL, 1, NULL, 1);
    free(tmp);
    /* The same multiset of eigenvalues (matched greedily to the nearest unused one). */
    double scale = fmax(1.0, max_abs(ref, n)), ew = 0;
    for (int64_t i = 0; i < n; ++i) used[i] = 0;
    for (int64_t i = 0; i < n; ++i) {
      int64_t best = -1;
      for (int64_t j = 0; j < n; ++j)
        if (!used[j] && (best < 0 || cabs(w[b * n + i] - ref[j]) < cabs(w[b * n + i] - ref[best])))
          best = j;
      used[best] = 1;
      ew = fmax(ew, cabs(w[b * n + i] - ref[best]));
    }
    CHECK(li == 0 && ew / scale < tol(d),
          "geev %s vectors %d n %lld batch %lld: eigenvalues off by %g", dname(d), vectors,
          (long long)n, (long long)batch, ew);
    if (!is_cplx(d)) { /* real input: pairs are adjacent conjugates, positive imaginary first */
      int pairs_ok = 1;
      for (int64_t j = 0; j < n; ++j) {
        cplx x = w[b * n + j];
        if (cimag(x) > 0) pairs_ok &= j + 1 < n && w[b * n + j + 1] == conj(x);
        if (cimag(x) < 0) pairs_ok &= j > 0 && w[b * n + j - 1] == conj(x);
      }
      CHECK(pairs_ok, "geev %s: eigenvalues of a real matrix are not in conjugate pairs", dname(d));
    }
    if (!vectors) continue;
    const cplx* vb = v + b * n * n;
    double res = 0, norm_err = 0, real_err = 0;
    for (int64_t j = 0; j < n; ++j) {
      const cplx* col = vb + j * n;
      double nrm = 0, big = 0;
      for (int64_t i = 0; i < n; ++i) {
        cplx av = 0;
        for (int64_t l = 0; l < n; ++l) av += ab[i + l * n] * col[l];
        res = fmax(res, cabs(av - w[b * n + j] * col[i]));
        nrm += creal(col[i] * conj(col[i]));
        big = fmax(big, cabs(col[i]));
      }
      norm_err = fmax(norm_err, fabs(sqrt(nrm) - 1.0));
      /* LAPACK's normalisation: a component of largest modulus is real. */
      double best_imag = INFINITY;
      for (int64_t i = 0; i < n; ++i)
        if (cabs(col[i]) >= big * (1 - 1e-3)) best_imag = fmin(best_imag, fabs(cimag(col[i])));
      real_err = fmax(real_err, best_imag);
      if (!is_cplx(d) && cimag(w[b * n + j]) < 0 && j > 0) {
        double ce = 0; /* the second vector of a pair is the conjugate of the first */
        for (int64_t i = 0; i < n; ++i) ce = fmax(ce, cabs(col[i] - conj(col[i - n])));
        CHECK(ce == 0, "geev %s: vector %lld is not the conjugate of its pair (%g)", dname(d),
              (long long)j, ce);
      }
    }
    CHECK(res / scale < tol(d) && norm_err < tol(d) && real_err < tol(d),
          "geev %s n %lld batch %lld: |A v - w v| %g, | |v| - 1 | %g, imaginary part of the "
          "largest component %g",
          dname(d), (long long)n, (long long)batch, res, norm_err, real_err);
  }
  free(a);
  free(w);
  free(v);
  free(hi);
  free(ref);
  free(used);
  dev_free(da);
  dev_free(info);
  dev_free(dw);
  if (vectors) dev_free(dv);
}

static void check_geev(void) {
  for (int k = 0; k < 4; ++k)
    for (int32_t vectors = 0; vectors < 2; ++vectors) {
      check_geev_case(kDtypes[k], vectors, 6, 1);
      check_geev_case(kDtypes[k], vectors, 7, 3);
      check_geev_case(kDtypes[k], vectors, 1, 2);
    }
}

/* ---- argument errors ----------------------------------------------------------------------------
 */

static void check_errors(int have_device) {
  int32_t rc = P->potrf(0, TFE_I32, 0, 4, 1, &rc, &rc);
  CHECK(rc == TFE_ERR_NOT_SUPPORTED && strstr(P->last_error(), "I32") != NULL,
        "potrf on I32: %d %s", rc, P->last_error());
  rc = P->getrs(0, TFE_F64, 'X', 4, 1, 1, &rc, &rc, &rc);
  CHECK(rc == TFE_ERR_INVALID_ARGUMENT, "getrs with trans 'X': %d", rc);
  rc = P->gesvd(0, TFE_F64, 3, 4, 4, 1, &rc, &rc, &rc, &rc, &rc);
  CHECK(rc == TFE_ERR_INVALID_ARGUMENT, "gesvd mode 3: %d", rc);
  if (!have_device) return;
  rc = P->geev(7, TFE_F64, 0, 4, 1, &rc, &rc, NULL, &rc);
  CHECK(rc == TFE_ERR_INVALID_ARGUMENT && strstr(P->last_error(), "cuda:7") != NULL,
        "geev on a missing device: %d %s", rc, P->last_error());
}

int main(int argc, char** argv) {
  if (load_plugin(argc, argv) == NULL) return 1;
  CHECK(P->potrf && P->getrf && P->getrs && P->trsm && P->geqrf && P->orgqr && P->syevd &&
            P->gesvd && P->geev,
        "every linear-algebra entry is set");
  if (failures) return 1;
  int32_t n = 0;
  CHECK(P->device_count(&n) == 0, "device_count: %s", P->last_error());
  check_errors(n > 0);
  if (n <= 0) {
    printf("SKIP: no CUDA device (linear-algebra checks not run)\n");
    printf("%d checks, %d failures\n", checks, failures);
    return failures == 0 ? 0 : 1;
  }
  check_potrf();
  check_lu();
  check_trsm();
  check_qr();
  check_syevd();
  check_gesvd();
  check_geev();
  printf("%d checks, %d failures\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
