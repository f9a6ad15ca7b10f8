/* A matrix product state of a transverse-field Ising chain (H = -sum Z_i Z_i+1 - h sum X_i, open
 * boundaries) through the C API, at a scale that runs in a blink: 6 sites, bond dimension 4.
 *
 * - The energy <psi|H|psi> / <psi|psi> of a fixed random MPS, contracted site by site with
 *   tfe_einsum against the Hamiltonian's matrix product operator, agrees with the dense
 *   expectation value (the state contracted to 2^6 amplitudes, H built with tfe_kron).
 * - Its gradient with respect to one site tensor (tfe_backward) agrees with central differences.
 * - A left-to-right sweep of truncated SVDs (tfe_linalg_svd_truncated) brings the MPS to
 *   left-canonical form without changing the state: same energy, norm 1.
 * - Gradient descent with that re-canonicalisation lowers the energy towards the exact ground
 *   energy (the lowest eigenvalue of H, tfe_linalg_eigvalsh), which bounds it from below.
 * The Python example (examples/python/mps_ground_state.py) runs the full optimisation. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <tenferro/tenferro.h>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    if ((call) != TFE_OK) {                                                                        \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, tfe_last_error_message());                \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

enum { kSites = 6, kBond = 4, kDim = 1 << kSites };
static const double kField = 1.0;

static tfe_context* ctx;
static tfe_tensor* mps[kSites];
static tfe_tensor *mpo, *left_end, *right_end;

static tfe_tensor* from(int32_t ndim, const int64_t* shape, const double* v) {
  tfe_tensor* t = NULL;
  return tfe_tensor_from_data(&t, ctx, TFE_F64, ndim, shape, NULL, v) == TFE_OK ? t : NULL;
}

static int64_t bond(int i) {
  int64_t b = kBond;
  if ((1 << i) < b) b = 1 << i;
  if ((1 << (kSites - i)) < b) b = 1 << (kSites - i);
  return b;
}

/* W[a, b, s, t] (column-major): the left end selects a = 2, the right end b = 0. */
static int build_mpo(void) {
  double w[3 * 3 * 2 * 2] = {0};
  const double x[2][2] = {{0, 1}, {1, 0}}, z[2][2] = {{1, 0}, {0, -1}};
  for (int s = 0; s < 2; ++s)
    for (int t = 0; t < 2; ++t) {
      int at = 9 * s + 18 * t;
      w[at + 0 + 3 * 0] = s == t;            /* 0 -> 0: identity after the terms */
      w[at + 1 + 3 * 0] = z[s][t];           /* 1 -> 0: the second Z of a coupling */
      w[at + 2 + 3 * 0] = -kField * x[s][t]; /* 2 -> 0: the field */
      w[at + 2 + 3 * 1] = -z[s][t];          /* 2 -> 1: the first Z of a coupling */
      w[at + 2 + 3 * 2] = s == t;            /* 2 -> 2: identity before the terms */
    }
  const int64_t ws[] = {3, 3, 2, 2}, es[] = {3};
  const double l[] = {0, 0, 1}, r[] = {1, 0, 0};
  mpo = from(4, ws, w);
  left_end = from(1, es, l);
  right_end = from(1, es, r);
  return mpo && left_end && right_end ? 0 : 1;
}

/* <psi|H|psi> / <psi|psi> as a new scalar tensor. */
static int energy(tfe_tensor** out, tfe_tensor* const* a) {
  const int64_t one[] = {1, 1};
  const double v1 = 1;
  tfe_tensor *env = NULL, *norm = from(2, one, &v1), *num = NULL, *den = NULL;
  const int64_t es[] = {1, 3, 1};
  CHECK(tfe_reshape(&env, left_end, 3, es));
  for (int i = 0; i < kSites; ++i) {
    tfe_tensor *next = NULL, *next_norm = NULL;
    tfe_tensor* e_in[] = {env, a[i], mpo, a[i]};
    CHECK(tfe_einsum(&next, "xwy,xtc,wvst,ysd->cvd", 4, e_in));
    tfe_tensor* n_in[] = {norm, a[i], a[i]};
    CHECK(tfe_einsum(&next_norm, "xy,xtc,ytd->cd", 3, n_in));
    tfe_tensor_release(env);
    tfe_tensor_release(norm);
    env = next;
    norm = next_norm;
  }
  tfe_tensor* close_in[] = {env, right_end};
  CHECK(tfe_einsum(&num, "xwy,w->", 2, close_in));
  CHECK(tfe_einsum(&den, "xy->", 1, &norm));
  CHECK(tfe_div(out, num, den));
  tfe_tensor* all[] = {env, norm, num, den};
  for (int i = 0; i < 4; ++i) tfe_tensor_release(all[i]);
  return 0;
}

static double value(const tfe_tensor* t) {
  double v = NAN;
  return tfe_tensor_to_data(t, &v, sizeof v) == TFE_OK ? v : NAN;
}

/* The dense expectation value: psi with site 0 the fastest index, H = sum of kron products
 * (the first factor of tfe_kron is the slowest index, so site kSites-1 comes first). Also the
 * lowest eigenvalue of H. */
static int dense(double* expectation, double* ground) {
  const int64_t one[] = {1, 1};
  const double v1 = 1;
  tfe_tensor* psi = from(2, one, &v1);
  for (int i = 0; i < kSites; ++i) {
    tfe_tensor *next = NULL, *flat = NULL;
    tfe_tensor* in[] = {psi, mps[i]};
    CHECK(tfe_einsum(&next, "ia,asb->isb", 2, in));
    int64_t shape[3];
    CHECK(tfe_tensor_shape(next, shape));
    const int64_t fs[] = {shape[0] * shape[1], shape[2]};
    CHECK(tfe_reshape(&flat, next, 2, fs));
    tfe_tensor_release(next);
    tfe_tensor_release(psi);
    psi = flat;
  }
  const int64_t m2[] = {2, 2};
  const double eye[] = {1, 0, 0, 1}, x[] = {0, 1, 1, 0}, z[] = {1, 0, 0, -1};
  tfe_tensor* ham = NULL;
  for (int term = 0; term < 2 * kSites - 1; ++term) {
    int site = term / 2, coupling = term % 2; /* coupling: Z_site Z_site+1 */
    tfe_tensor* op = NULL;
    for (int k = kSites - 1; k >= 0; --k) {
      const double* f = coupling ? ((k == site || k == site + 1) ? z : eye) : (k == site ? x : eye);
      tfe_tensor *factor = from(2, m2, f), *next = NULL;
      if (op) {
        CHECK(tfe_kron(&next, op, factor));
        tfe_tensor_release(op);
        tfe_tensor_release(factor);
        op = next;
      } else {
        op = factor;
      }
    }
    tfe_tensor *scaled = NULL, *sum = NULL;
    const int64_t scalar_shape[] = {0};
    const double coeff = coupling ? -1.0 : -kField;
    tfe_tensor* c = from(0, scalar_shape, &coeff);
    CHECK(tfe_mul(&scaled, op, c));
    tfe_tensor_release(op);
    tfe_tensor_release(c);
    if (ham) {
      CHECK(tfe_add(&sum, ham, scaled));
      tfe_tensor_release(ham);
      tfe_tensor_release(scaled);
      ham = sum;
    } else {
      ham = scaled;
    }
  }
  tfe_tensor *num = NULL, *den = NULL, *w = NULL;
  tfe_tensor* in_num[] = {psi, ham, psi};
  CHECK(tfe_einsum(&num, "ia,ij,ja->", 3, in_num));
  tfe_tensor* in_den[] = {psi, psi};
  CHECK(tfe_einsum(&den, "ia,ia->", 2, in_den));
  *expectation = value(num) / value(den);
  CHECK(tfe_linalg_eigvalsh(&w, ham, NULL));
  double all_w[kDim];
  CHECK(tfe_tensor_to_data(w, all_w, sizeof all_w));
  *ground = all_w[0];
  tfe_tensor* all[] = {psi, ham, num, den, w};
  for (int i = 0; i < 5; ++i) tfe_tensor_release(all[i]);
  return 0;
}

/* Left-canonical form by a sweep of truncated SVDs; the last tensor is normalised. */
static int recanonicalise(void) {
  tfe_linalg_options* o = NULL;
  CHECK(tfe_linalg_options_create(&o));
  CHECK(tfe_linalg_options_set_max_rank(o, kBond));
  CHECK(tfe_linalg_options_set_cutoff(o, 1e-14, 0));
  for (int i = 0; i + 1 < kSites; ++i) {
    int64_t s[3];
    CHECK(tfe_tensor_shape(mps[i], s));
    const int64_t ms[] = {s[0] * s[1], s[2]};
    tfe_tensor *m = NULL, *u = NULL, *sv = NULL, *vh = NULL, *next = NULL;
    CHECK(tfe_reshape(&m, mps[i], 2, ms));
    CHECK(tfe_linalg_svd_truncated(&u, &sv, &vh, m, o));
    int64_t us[2];
    CHECK(tfe_tensor_shape(u, us));
    const int64_t as[] = {s[0], s[1], us[1]};
    tfe_tensor_release(mps[i]);
    CHECK(tfe_reshape(&mps[i], u, 3, as));
    tfe_tensor* in[] = {sv, vh, mps[i + 1]};
    CHECK(tfe_einsum(&next, "r,rc,csd->rsd", 3, in));
    tfe_tensor_release(mps[i + 1]);
    mps[i + 1] = next;
    tfe_tensor* all[] = {m, u, sv, vh};
    for (int k = 0; k < 4; ++k) tfe_tensor_release(all[k]);
  }
  tfe_tensor *sq = NULL, *norm2 = NULL, *scale = NULL, *unit = NULL;
  tfe_tensor* last[] = {mps[kSites - 1], mps[kSites - 1]};
  CHECK(tfe_einsum(&norm2, "asb,asb->", 2, last));
  CHECK(tfe_sqrt(&sq, norm2));
  CHECK(tfe_reciprocal(&scale, sq));
  CHECK(tfe_mul(&unit, mps[kSites - 1], scale));
  tfe_tensor_release(mps[kSites - 1]);
  mps[kSites - 1] = unit;
  tfe_tensor* all[] = {sq, norm2, scale};
  for (int k = 0; k < 3; ++k) tfe_tensor_release(all[k]);
  tfe_linalg_options_release(o);
  return 0;
}

/* One gradient step on every site tensor: a <- a - rate * dE/da. */
static int descend(double rate, double* e_out) {
  for (int i = 0; i < kSites; ++i) { /* fresh leaves: the tensors may be results of ops */
    tfe_tensor* leaf = NULL;
    CHECK(tfe_tensor_detach(&leaf, mps[i]));
    tfe_tensor_release(mps[i]);
    mps[i] = leaf;
    CHECK(tfe_tensor_set_requires_grad(mps[i], 1));
  }
  tfe_tensor* e = NULL;
  if (energy(&e, mps)) return 1;
  CHECK(tfe_backward(e, NULL));
  *e_out = value(e);
  const int64_t scalar_shape[] = {0};
  tfe_tensor* r = from(0, scalar_shape, &rate);
  for (int i = 0; i < kSites; ++i) {
    tfe_tensor *g = NULL, *step = NULL, *plain = NULL, *next = NULL;
    CHECK(tfe_tensor_grad(&g, mps[i]));
    CHECK(tfe_mul(&step, g, r));
    CHECK(tfe_tensor_detach(&plain, mps[i]));
    CHECK(tfe_sub(&next, plain, step));
    tfe_tensor* all[] = {g, step, plain, mps[i]};
    for (int k = 0; k < 4; ++k) tfe_tensor_release(all[k]);
    mps[i] = next;
  }
  tfe_tensor_release(r);
  tfe_tensor_release(e);
  return 0;
}

int main(void) {
  CHECK(tfe_context_create(&ctx));
  if (build_mpo()) return 1;
  unsigned state = 12345u; /* a fixed pseudo-random MPS */
  for (int i = 0; i < kSites; ++i) {
    int64_t shape[] = {bond(i), 2, bond(i + 1)};
    double v[kBond * 2 * kBond];
    for (int64_t k = 0; k < shape[0] * 2 * shape[2]; ++k) {
      state = state * 1103515245u + 12345u;
      v[k] = ((state >> 8) & 0xffff) / 32768.0 - 1.0;
    }
    mps[i] = from(3, shape, v);
  }
  int failures = 0;

  tfe_tensor* e = NULL;
  if (energy(&e, mps)) return 1;
  double e_mps = value(e), e_dense = 0, e_ground = 0;
  tfe_tensor_release(e);
  if (dense(&e_dense, &e_ground)) return 1;
  printf("random MPS: energy %.12f by einsum, %.12f dense (ground state %.12f)\n", e_mps, e_dense,
         e_ground);
  failures += fabs(e_mps - e_dense) > 1e-10 || e_mps < e_ground;

  /* the gradient of the energy in one entry of site 2, against central differences */
  CHECK(tfe_tensor_set_requires_grad(mps[2], 1));
  if (energy(&e, mps)) return 1;
  CHECK(tfe_backward(e, NULL));
  tfe_tensor* g = NULL;
  CHECK(tfe_tensor_grad(&g, mps[2]));
  double grads[kBond * 2 * kBond], entries[kBond * 2 * kBond];
  CHECK(tfe_tensor_to_data(g, grads, sizeof grads));
  CHECK(tfe_tensor_to_data(mps[2], entries, sizeof entries));
  int64_t s2[3];
  CHECK(tfe_tensor_shape(mps[2], s2));
  tfe_tensor_release(g);
  tfe_tensor_release(e);
  double worst = 0;
  for (int k = 0; k < 3; ++k) {
    double fd[2];
    for (int side = 0; side < 2; ++side) {
      double shifted[kBond * 2 * kBond];
      memcpy(shifted, entries, sizeof shifted);
      shifted[k] += side ? -1e-6 : 1e-6;
      tfe_tensor* saved = mps[2];
      mps[2] = from(3, s2, shifted);
      if (energy(&e, mps)) return 1;
      fd[side] = value(e);
      tfe_tensor_release(e);
      tfe_tensor_release(mps[2]);
      mps[2] = saved;
    }
    double diff = fabs((fd[0] - fd[1]) / 2e-6 - grads[k]);
    worst = diff > worst ? diff : worst;
  }
  printf("gradient vs central differences: largest difference %.2e\n", worst);
  failures += worst > 1e-7;

  if (recanonicalise()) return 1;
  if (energy(&e, mps)) return 1;
  double e_canonical = value(e);
  tfe_tensor_release(e);
  printf("after the truncated-SVD sweep: energy %.12f\n", e_canonical);
  failures += fabs(e_canonical - e_mps) > 1e-10;

  double e_now = e_canonical;
  for (int round = 0; round < 20; ++round) {
    for (int step = 0; step < 25; ++step)
      if (descend(0.05, &e_now)) return 1;
    if (recanonicalise()) return 1;
  }
  if (energy(&e, mps)) return 1;
  double e_final = value(e);
  tfe_tensor_release(e);
  printf("after 500 gradient steps: energy %.12f (error %.2e above the ground state)\n", e_final,
         e_final - e_ground);
  failures += !(e_final < e_canonical) || e_final < e_ground - 1e-10;

  for (int i = 0; i < kSites; ++i) tfe_tensor_release(mps[i]);
  tfe_tensor_release(mpo);
  tfe_tensor_release(left_end);
  tfe_tensor_release(right_end);
  tfe_context_release(ctx);
  printf("%s\n", failures ? "mps: FAILED" : "mps: OK");
  return failures || tfe_debug_live_objects() != 0;
}
