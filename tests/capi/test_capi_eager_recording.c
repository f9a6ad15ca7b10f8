/* Eager AD through the C ABI, the verification matrices of the recording rules: promotion replay
 * of non-Add ops, temporaries released before differentiating, and concatenate and stack pinned
 * to their eager shapes (cache identity; symbolic stack rejection). Closed forms from
 * docs/design/ad-contract.md. */
#include <stdlib.h>

#include "eager_testing.h"

static tfe_tensor* tensor_of(tfe_context* ctx, int32_t dtype, int32_t ndim, const int64_t* shape,
                             const void* data, int tracked) {
  tfe_tensor* t = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&t, ctx, dtype, ndim, shape, NULL, data));
  if (tracked) TFE_OK_OR_FAIL(tfe_tensor_set_requires_grad(t, 1));
  return t;
}

static int32_t dtype_of(const tfe_tensor* t) {
  int32_t dt = 0;
  TFE_OK_OR_FAIL(tfe_tensor_dtype(t, &dt));
  return dt;
}

static int64_t cache_entries(const tfe_context* ctx, int32_t cache) {
  int64_t entries = -1;
  TFE_OK_OR_FAIL(tfe_context_cache_stats(ctx, cache, NULL, NULL, &entries, NULL));
  return entries;
}

/* ---- promotion: promoted non-Add replays ------------------------------------------------ */

/* Concatenate of tracked F64 [1,2] and tracked C64 [3 values]: the output is C64; a complex
 * cotangent gives the F64 leaf the real part of its slice and the C64 leaf its slice. */
static void test_promotion_mixed_concatenate(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t n2[] = {2}, n3[] = {3}, n5[] = {5};
  const double rv[] = {1, 2};
  const double complex cv[] = {1 + I, 2, -I};
  const double complex ctv[] = {0.5 - 1 * I, 1, 2.5 + 0.25 * I, -1 + 2 * I, 0.75 * I};
  tfe_tensor* r = tensor_of(ctx, TFE_F64, 1, n2, rv, 1);
  tfe_tensor* c = tensor_of(ctx, TFE_C64, 1, n3, cv, 1);
  tfe_tensor* ct = tensor_of(ctx, TFE_C64, 1, n5, ctv, 0);
  tfe_tensor *cat = NULL, *g[2] = {NULL, NULL}, *j = NULL;
  tfe_tensor* xs[] = {r, c};
  TFE_OK_OR_FAIL(tfe_concatenate(&cat, 2, xs, 0));
  assert_int_equal(dtype_of(cat), TFE_C64);
  TFE_OK_OR_FAIL(tfe_vjp(g, cat, 2, xs, ct));
  assert_int_equal(dtype_of(g[0]), TFE_F64);
  const double want_r[] = {0.5, 1};
  expect_doubles(g[0], want_r, 2);
  expect_complex(g[1], ctv + 2, 3);
  /* JVP w.r.t. the real leaf: its tangent is cast up into the complex output */
  const double tv[] = {0.25, -1.5};
  tfe_tensor* t = tensor_of(ctx, TFE_F64, 1, n2, tv, 0);
  TFE_OK_OR_FAIL(tfe_jvp(&j, cat, 1, &r, &t));
  const double complex want_j[] = {0.25, -1.5, 0, 0, 0};
  expect_complex(j, want_j, 5);
  tfe_tensor* all[] = {r, c, ct, cat, g[0], g[1], t, j};
  release_all(all, 8);
  tfe_context_release(ctx);
}

/* DotGeneral (matmul) of a tracked F32 2x2 A and an untracked F64 2x1 v: the output is F64 and the
 * gradient of sum(A v) w.r.t. A is the F32 matrix [v0 v1; v0 v1] = column-major [1,1,-1,-1]. */
static void test_promotion_mixed_dot_general(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t s22[] = {2, 2}, s21[] = {2, 1};
  const float av[] = {1, 2, 3, 4};
  const double vv[] = {1, -1};
  tfe_tensor* a = tensor_of(ctx, TFE_F32, 2, s22, av, 1);
  tfe_tensor* v = tensor_of(ctx, TFE_F64, 2, s21, vv, 0);
  tfe_tensor *mv = NULL, *loss = NULL, *g = NULL, *g64 = NULL;
  TFE_OK_OR_FAIL(tfe_matmul(&mv, a, v));
  assert_int_equal(dtype_of(mv), TFE_F64);
  TFE_OK_OR_FAIL(tfe_sum(&loss, mv, 0, NULL));
  TFE_OK_OR_FAIL(tfe_backward(loss, NULL));
  TFE_OK_OR_FAIL(tfe_tensor_grad(&g, a));
  assert_int_equal(dtype_of(g), TFE_F32);
  TFE_OK_OR_FAIL(tfe_cast(&g64, g, TFE_F64));
  const double want[] = {1, 1, -1, -1};
  expect_doubles(g64, want, 4);
  tfe_tensor* all[] = {a, v, mv, loss, g, g64};
  release_all(all, 6);
  tfe_context_release(ctx);
}

/* ---- lifetime: temporaries released before differentiating ------------------------------- */

/* x tracked F64; y = (x ^ two) * w with the exponent and w untracked temporaries released before
 * any derivative request. */
static void test_lifetime_released_temporaries(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t n2[] = {2};
  const double xv[] = {0.5, 1.5}, twov[] = {2, 2};
  const double complex wv[] = {1 + 2 * I, -0.5 + 0.25 * I}, ybar[] = {0.5 - I, 2 + 0.5 * I};
  tfe_tensor* x = tensor_of(ctx, TFE_F64, 1, n2, xv, 1);
  tfe_tensor* y = NULL;
  {
    tfe_tensor* two = tensor_of(ctx, TFE_F64, 1, n2, twov, 0);
    tfe_tensor* w = tensor_of(ctx, TFE_C64, 1, n2, wv, 0);
    tfe_tensor* sq = NULL;
    TFE_OK_OR_FAIL(tfe_pow(&sq, x, two));
    TFE_OK_OR_FAIL(tfe_mul(&y, sq, w));
    tfe_tensor* temps[] = {two, w, sq};
    release_all(temps, 3);
  }
  /* backward of sum(Re y): 2 x Re(w) */
  tfe_tensor *re = NULL, *loss = NULL, *g = NULL, *gv[1] = {NULL}, *j = NULL;
  TFE_OK_OR_FAIL(tfe_real(&re, y));
  TFE_OK_OR_FAIL(tfe_sum(&loss, re, 0, NULL));
  TFE_OK_OR_FAIL(tfe_backward(loss, NULL));
  TFE_OK_OR_FAIL(tfe_tensor_grad(&g, x));
  const double want_g[] = {2 * 0.5 * 1.0, 2 * 1.5 * -0.5};
  expect_doubles(g, want_g, 2);
  /* VJP with a complex cotangent: the real projection Re(conj(2 x w) ybar) */
  tfe_tensor* ct = tensor_of(ctx, TFE_C64, 1, n2, ybar, 0);
  TFE_OK_OR_FAIL(tfe_vjp(gv, y, 1, &x, ct));
  assert_int_equal(dtype_of(gv[0]), TFE_F64);
  const double want_v[] = {creal(conj(2 * 0.5 * wv[0]) * ybar[0]),
                           creal(conj(2 * 1.5 * wv[1]) * ybar[1])};
  expect_doubles(gv[0], want_v, 2);
  /* JVP: the complex directional derivative 2 x w dx */
  const double dx[] = {1, -2};
  tfe_tensor* t = tensor_of(ctx, TFE_F64, 1, n2, dx, 0);
  TFE_OK_OR_FAIL(tfe_jvp(&j, y, 1, &x, &t));
  const double complex want_j[] = {2 * 0.5 * wv[0] * 1, 2 * 1.5 * wv[1] * -2};
  expect_complex(j, want_j, 2);
  tfe_tensor* all[] = {x, y, re, loss, g, ct, gv[0], t, j};
  release_all(all, 9);
  tfe_context_release(ctx);
}

/* concatenate([x + x, k]) with the constant k and the sum released first. */
static void test_lifetime_concatenate_released_constant(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t n2[] = {2}, n3[] = {3}, n5[] = {5};
  const double xv[] = {1, 2}, kv[] = {7, 8, 9}, ctv[] = {1, 2, 3, 4, 5};
  tfe_tensor* x = tensor_of(ctx, TFE_F64, 1, n2, xv, 1);
  tfe_tensor* out = NULL;
  {
    tfe_tensor* k = tensor_of(ctx, TFE_F64, 1, n3, kv, 0);
    tfe_tensor* doubled = NULL;
    TFE_OK_OR_FAIL(tfe_add(&doubled, x, x));
    tfe_tensor* parts[] = {doubled, k};
    TFE_OK_OR_FAIL(tfe_concatenate(&out, 2, parts, 0));
    release_all(parts, 2);
  }
  tfe_tensor* ct = tensor_of(ctx, TFE_F64, 1, n5, ctv, 0);
  tfe_tensor* g[1] = {NULL};
  TFE_OK_OR_FAIL(tfe_vjp(g, out, 1, &x, ct));
  const double want[] = {2, 4};
  expect_doubles(g[0], want, 2);
  tfe_tensor* all[] = {x, out, ct, g[0]};
  release_all(all, 4);
  tfe_context_release(ctx);
}

/* ---- pinned shapes: concatenate and stack --------------------------------------------------- */

/* The closed form: tracked 2x1 [1,2], 2x2 [3,4,5,6], 2x1 [7,8] along axis 1, in F64 and
 * with complex values (C64, each value times (1+i)). */
static void test_pinned_unequal_axis_extents(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t s21[] = {2, 1}, s22[] = {2, 2}, s24[] = {2, 4};
  const double av[] = {1, 2}, bv[] = {3, 4, 5, 6}, cv[] = {7, 8};
  const double ctv[] = {0.5, -1.25, 2, 1.5, -0.25, 0.75, 3, -2};
  const double tv[] = {0.25, -0.5, 1.25, -1.5};
  for (int complex_case = 0; complex_case <= 1; ++complex_case) {
    tfe_tensor* x64[] = {tensor_of(ctx, TFE_F64, 2, s21, av, 0),
                         tensor_of(ctx, TFE_F64, 2, s22, bv, 0),
                         tensor_of(ctx, TFE_F64, 2, s21, cv, 0)};
    tfe_tensor* ct64 = tensor_of(ctx, TFE_F64, 2, s24, ctv, 0);
    tfe_tensor* t64 = tensor_of(ctx, TFE_F64, 2, s22, tv, 0);
    tfe_tensor *xs[3], *ct = NULL, *t = NULL, *unit = NULL;
    const double complex one_plus_i = 1 + I;
    const int64_t scalar_shape[1] = {1};
    unit = tensor_of(ctx, TFE_C64, 1, scalar_shape, &one_plus_i, 0);
    double complex scale = complex_case ? 1 + I : 1;
    for (int k = 0; k < 3; ++k) {
      if (complex_case)
        TFE_OK_OR_FAIL(tfe_mul(&xs[k], x64[k], unit));
      else
        TFE_OK_OR_FAIL(tfe_tensor_detach(&xs[k], x64[k]));
      TFE_OK_OR_FAIL(tfe_tensor_set_requires_grad(xs[k], 1));
    }
    TFE_OK_OR_FAIL(complex_case ? tfe_mul(&ct, ct64, unit) : tfe_tensor_detach(&ct, ct64));
    TFE_OK_OR_FAIL(complex_case ? tfe_mul(&t, t64, unit) : tfe_tensor_detach(&t, t64));
    tfe_tensor *cat = NULL, *g[3] = {NULL, NULL, NULL}, *j = NULL;
    TFE_OK_OR_FAIL(tfe_concatenate(&cat, 3, xs, 1));
    int64_t shape[2];
    int32_t ndim = 0;
    TFE_OK_OR_FAIL(tfe_tensor_ndim(cat, &ndim));
    TFE_OK_OR_FAIL(tfe_tensor_shape(cat, shape));
    assert_int_equal(ndim, 2);
    assert_int_equal(shape[0], 2);
    assert_int_equal(shape[1], 4);
    TFE_OK_OR_FAIL(tfe_vjp(g, cat, 3, xs, ct));
    TFE_OK_OR_FAIL(tfe_jvp(&j, cat, 1, &xs[1], &t));
    /* cotangents land unconjugated (linear map); values scale by (1+i) in the complex case */
    const double want_cat[] = {1, 2, 3, 4, 5, 6, 7, 8};
    const double want_j[] = {0, 0, 0.25, -0.5, 1.25, -1.5, 0, 0};
    if (complex_case) {
      double complex wc[8], wg[8], wj[8];
      for (int i = 0; i < 8; ++i) {
        wc[i] = want_cat[i] * scale;
        wg[i] = ctv[i] * scale;
        wj[i] = want_j[i] * scale;
      }
      expect_complex(cat, wc, 8);
      expect_complex(g[0], wg, 2);
      expect_complex(g[1], wg + 2, 4);
      expect_complex(g[2], wg + 6, 2);
      expect_complex(j, wj, 8);
    } else {
      expect_doubles(cat, want_cat, 8);
      expect_doubles(g[0], ctv, 2);
      expect_doubles(g[1], ctv + 2, 4);
      expect_doubles(g[2], ctv + 6, 2);
      expect_doubles(j, want_j, 8);
    }
    tfe_tensor* all[] = {x64[0], x64[1], x64[2], ct64, t64,  unit, xs[0], xs[1],
                         xs[2],  ct,     t,      cat,  g[0], g[1], g[2],  j};
    release_all(all, 16);
  }
  tfe_context_release(ctx);
}

/* Mixed tracked/untracked concatenate in both orders: tracked a [1,2], constant k [7,8,9]. */
static void test_pinned_mixed_concatenate_both_orders(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t n2[] = {2}, n3[] = {3}, n5[] = {5};
  const double av[] = {1, 2}, kv[] = {7, 8, 9}, ctv[] = {0.5, -1, 2, 3, -4}, tv[] = {0.25, -2};
  for (int tracked_first = 0; tracked_first <= 1; ++tracked_first) {
    tfe_tensor* a = tensor_of(ctx, TFE_F64, 1, n2, av, 1);
    tfe_tensor* k = tensor_of(ctx, TFE_F64, 1, n3, kv, 0);
    tfe_tensor* ct = tensor_of(ctx, TFE_F64, 1, n5, ctv, 0);
    tfe_tensor* t = tensor_of(ctx, TFE_F64, 1, n2, tv, 0);
    tfe_tensor* parts[2] = {tracked_first ? a : k, tracked_first ? k : a};
    tfe_tensor *cat = NULL, *g[1] = {NULL}, *j = NULL;
    TFE_OK_OR_FAIL(tfe_concatenate(&cat, 2, parts, 0));
    TFE_OK_OR_FAIL(tfe_vjp(g, cat, 1, &a, ct));
    TFE_OK_OR_FAIL(tfe_jvp(&j, cat, 1, &a, &t));
    const double want_cat_a[] = {1, 2, 7, 8, 9}, want_cat_k[] = {7, 8, 9, 1, 2};
    const double want_j_a[] = {0.25, -2, 0, 0, 0}, want_j_k[] = {0, 0, 0, 0.25, -2};
    expect_doubles(cat, tracked_first ? want_cat_a : want_cat_k, 5);
    expect_doubles(g[0], tracked_first ? ctv : ctv + 3, 2);
    expect_doubles(j, tracked_first ? want_j_a : want_j_k, 5);
    tfe_tensor* all[] = {a, k, ct, t, cat, g[0], j};
    release_all(all, 7);
  }
  tfe_context_release(ctx);
}

/* The stack closed form: tracked [10,20] with untracked [30,40], both orders, axes 0, -1;
 * and the all-tracked case (both leaves get their slices). */
static void test_pinned_stack_both_orders_and_axes(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t n2[] = {2}, s22[] = {2, 2};
  const double xv[] = {10, 20}, cv[] = {30, 40}, ctv[] = {0.5, -1.25, 2, 1.5}, tv[] = {0.25, -1.5};
  const int64_t axes[] = {0, -1};
  for (int ai = 0; ai < 2; ++ai)
    for (int tracked_first = 0; tracked_first <= 1; ++tracked_first) {
      tfe_tensor* x = tensor_of(ctx, TFE_F64, 1, n2, xv, 1);
      tfe_tensor* c = tensor_of(ctx, TFE_F64, 1, n2, cv, 0);
      tfe_tensor* ct = tensor_of(ctx, TFE_F64, 2, s22, ctv, 0);
      tfe_tensor* t = tensor_of(ctx, TFE_F64, 1, n2, tv, 0);
      tfe_tensor* parts[2] = {tracked_first ? x : c, tracked_first ? c : x};
      tfe_tensor *st = NULL, *g[1] = {NULL}, *j = NULL;
      TFE_OK_OR_FAIL(tfe_stack(&st, 2, parts, axes[ai]));
      TFE_OK_OR_FAIL(tfe_vjp(g, st, 1, &x, ct));
      TFE_OK_OR_FAIL(tfe_jvp(&j, st, 1, &x, &t));
      /* position p of x's element i in the column-major 2x2 output */
      int pos[2];
      for (int i = 0; i < 2; ++i)
        pos[i] = axes[ai] == 0 ? 2 * i + (tracked_first ? 0 : 1) : i + (tracked_first ? 0 : 2);
      double want_st[4], want_g[2], want_j[4] = {0, 0, 0, 0};
      for (int i = 0; i < 2; ++i) {
        want_g[i] = ctv[pos[i]];
        want_j[pos[i]] = tv[i];
      }
      for (int p = 0; p < 4; ++p) want_st[p] = 0;
      for (int i = 0; i < 2; ++i) {
        want_st[pos[i]] = xv[i];
        /* the constant fills the remaining slots in order */
      }
      for (int p = 0, i = 0; p < 4; ++p)
        if (p != pos[0] && p != pos[1]) want_st[p] = cv[i++];
      expect_doubles(st, want_st, 4);
      expect_doubles(g[0], want_g, 2);
      expect_doubles(j, want_j, 4);
      if (axes[ai] == -1 && tracked_first) { /* the published numbers themselves */
        const double oracle_st[] = {10, 20, 30, 40}, oracle_g[] = {0.5, -1.25},
                     oracle_j[] = {0.25, -1.5, 0, 0};
        expect_doubles(st, oracle_st, 4);
        expect_doubles(g[0], oracle_g, 2);
        expect_doubles(j, oracle_j, 4);
      }
      if (axes[ai] == 0 && tracked_first) {
        const double oracle_st[] = {10, 30, 20, 40}, oracle_g[] = {0.5, 2};
        expect_doubles(st, oracle_st, 4);
        expect_doubles(g[0], oracle_g, 2);
      }
      /* all tracked: both leaves get their slices from backward */
      tfe_tensor *st2 = NULL, *loss = NULL, *prod = NULL, *gx = NULL, *gc = NULL;
      TFE_OK_OR_FAIL(tfe_tensor_set_requires_grad(c, 1));
      TFE_OK_OR_FAIL(tfe_stack(&st2, 2, parts, axes[ai]));
      TFE_OK_OR_FAIL(tfe_mul(&prod, st2, ct));
      TFE_OK_OR_FAIL(tfe_sum(&loss, prod, 0, NULL));
      TFE_OK_OR_FAIL(tfe_backward(loss, NULL));
      TFE_OK_OR_FAIL(tfe_tensor_grad(&gx, x));
      TFE_OK_OR_FAIL(tfe_tensor_grad(&gc, c));
      expect_doubles(gx, want_g, 2);
      double want_gc[2];
      for (int p = 0, i = 0; p < 4; ++p)
        if (p != pos[0] && p != pos[1]) want_gc[i++] = ctv[p];
      expect_doubles(gc, want_gc, 2);
      tfe_tensor* all[] = {x, c, ct, t, st, g[0], j, st2, loss, prod, gx, gc};
      release_all(all, 12);
    }
  tfe_context_release(ctx);
}

/* VJP -> JVP composition through a concatenate: c = concat([a*a, b]); g = vjp(c, a, w) = 2 a w[:2]
 * stays differentiable, and jvp(g, a, t) = 2 t w[:2]. */
static void test_pinned_vjp_then_jvp(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t n2[] = {2}, n3[] = {3}, n5[] = {5};
  const double av[] = {1.5, -2}, bv[] = {4, 5, 6}, wv[] = {0.5, 3, -1, 2, 7}, tv[] = {1, 0.25};
  tfe_tensor* a = tensor_of(ctx, TFE_F64, 1, n2, av, 1);
  tfe_tensor* b = tensor_of(ctx, TFE_F64, 1, n3, bv, 1);
  tfe_tensor* w = tensor_of(ctx, TFE_F64, 1, n5, wv, 0);
  tfe_tensor* t = tensor_of(ctx, TFE_F64, 1, n2, tv, 0);
  tfe_tensor *sq = NULL, *cat = NULL, *g[1] = {NULL}, *h = NULL;
  TFE_OK_OR_FAIL(tfe_mul(&sq, a, a));
  tfe_tensor* parts[] = {sq, b};
  TFE_OK_OR_FAIL(tfe_concatenate(&cat, 2, parts, 0));
  TFE_OK_OR_FAIL(tfe_vjp(g, cat, 1, &a, w));
  const double want_g[] = {2 * 1.5 * 0.5, 2 * -2 * 3};
  expect_doubles(g[0], want_g, 2);
  int32_t tracked = 0;
  TFE_OK_OR_FAIL(tfe_tensor_requires_grad(g[0], &tracked));
  assert_int_equal(tracked, 1);
  TFE_OK_OR_FAIL(tfe_jvp(&h, g[0], 1, &a, &t));
  const double want_h[] = {2 * 1 * 0.5, 2 * 0.25 * 3};
  expect_doubles(h, want_h, 2);
  tfe_tensor* all[] = {a, b, w, t, sq, cat, g[0], h};
  release_all(all, 8);
  tfe_context_release(ctx);
}

/* One VJP of concatenate([a (na), b (nb)]) in ctx; checks the slices. */
static void concat_vjp(tfe_context* ctx, int64_t na, int64_t nb) {
  double av[8], bv[8], wv[16];
  for (int64_t i = 0; i < na + nb; ++i) wv[i] = 0.5 * (double)i - 1;
  for (int64_t i = 0; i < na; ++i) av[i] = (double)i;
  for (int64_t i = 0; i < nb; ++i) bv[i] = -(double)i;
  const int64_t sa[] = {na}, sb[] = {nb}, sw[] = {na + nb};
  tfe_tensor* a = tensor_of(ctx, TFE_F64, 1, sa, av, 1);
  tfe_tensor* b = tensor_of(ctx, TFE_F64, 1, sb, bv, 1);
  tfe_tensor* w = tensor_of(ctx, TFE_F64, 1, sw, wv, 0);
  tfe_tensor *cat = NULL, *g[2] = {NULL, NULL};
  tfe_tensor* xs[] = {a, b};
  TFE_OK_OR_FAIL(tfe_concatenate(&cat, 2, xs, 0));
  /* Under no_grad the derivative program runs compiled (TFE_CACHE_COMPILED); with recording on it
   * would be replayed into the trace instead. */
  TFE_OK_OR_FAIL(tfe_no_grad_enter(ctx));
  TFE_OK_OR_FAIL(tfe_vjp(g, cat, 2, xs, w));
  TFE_OK_OR_FAIL(tfe_no_grad_exit(ctx));
  expect_doubles(g[0], wv, na);
  expect_doubles(g[1], wv + na, nb);
  tfe_tensor* all[] = {a, b, w, cat, g[0], g[1]};
  release_all(all, 6);
}

/* Cache identity: two compatible concatenate shapes in one context build two derivative programs
 * (never reusing the first), and repeating the first hits its entries. */
static void test_pinned_cache_identity(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  concat_vjp(ctx, 2, 3);
  int64_t derivative = cache_entries(ctx, TFE_CACHE_DERIVATIVE);
  int64_t compiled = cache_entries(ctx, TFE_CACHE_COMPILED);
  assert_true(derivative >= 1);
  concat_vjp(ctx, 3, 2); /* same total length, different split */
  assert_int_equal(cache_entries(ctx, TFE_CACHE_DERIVATIVE), derivative + 1);
  assert_int_equal(cache_entries(ctx, TFE_CACHE_COMPILED), compiled + 1);
  int64_t hits_before = 0, hits_after = 0;
  TFE_OK_OR_FAIL(
      tfe_context_cache_stats(ctx, TFE_CACHE_DERIVATIVE, &hits_before, NULL, NULL, NULL));
  concat_vjp(ctx, 2, 3); /* the first shapes again: hits, no new entry */
  TFE_OK_OR_FAIL(tfe_context_cache_stats(ctx, TFE_CACHE_DERIVATIVE, &hits_after, NULL, NULL, NULL));
  assert_int_equal(cache_entries(ctx, TFE_CACHE_DERIVATIVE), derivative + 1);
  assert_int_equal(cache_entries(ctx, TFE_CACHE_COMPILED), compiled + 1);
  assert_true(hits_after > hits_before);
  /* clearing empties the cache and the next request still gives the right slices */
  TFE_OK_OR_FAIL(tfe_context_cache_clear(ctx, TFE_CACHE_DERIVATIVE));
  assert_int_equal(cache_entries(ctx, TFE_CACHE_DERIVATIVE), 0);
  concat_vjp(ctx, 3, 2);
  tfe_context_release(ctx);
}

/* Elementwise ops of any length share one derivative program (symbolic leaves with one equality
 * class), while each length gets its own compiled program. */
static void test_pinned_symbolic_reuse(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  for (int64_t n = 2; n <= 4; ++n) {
    double v[4] = {1, 2, 3, 4};
    const int64_t s[] = {n};
    tfe_tensor* x = tensor_of(ctx, TFE_F64, 1, s, v, 1);
    tfe_tensor *sq = NULL, *loss = NULL, *g = NULL;
    TFE_OK_OR_FAIL(tfe_mul(&sq, x, x));
    TFE_OK_OR_FAIL(tfe_sum(&loss, sq, 0, NULL));
    TFE_OK_OR_FAIL(tfe_backward(loss, NULL));
    TFE_OK_OR_FAIL(tfe_tensor_grad(&g, x));
    const double want[] = {2, 4, 6, 8};
    expect_doubles(g, want, n);
    tfe_tensor* all[] = {x, sq, loss, g};
    release_all(all, 4);
  }
  assert_int_equal(cache_entries(ctx, TFE_CACHE_DERIVATIVE), 1);
  assert_int_equal(cache_entries(ctx, TFE_CACHE_COMPILED), 3);
  tfe_context_release(ctx);
}

/* Scope boundary: a traced stack of symbolic inputs with different symbols stays rejected. */
static void test_pinned_symbolic_stack_rejected(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t s1[] = {-1}, s2[] = {-2};
  tfe_tensor *a = NULL, *b = NULL, *st = (tfe_tensor*)(void*)&ctx;
  TFE_OK_OR_FAIL(tfe_tensor_symbolic(&a, ctx, TFE_F64, 1, s1));
  TFE_OK_OR_FAIL(tfe_tensor_symbolic(&b, ctx, TFE_F64, 1, s2));
  tfe_tensor* parts[] = {a, b};
  EXPECT_STATUS(tfe_stack(&st, 2, parts, 0), TFE_ERR_SHAPE_MISMATCH, "tfe_stack");
  assert_null(st);
  tfe_tensor* same[] = {a, a};
  TFE_OK_OR_FAIL(tfe_stack(&st, 2, same, 0)); /* provably equal: accepted */
  tfe_tensor* all[] = {a, b, st};
  release_all(all, 3);
  tfe_context_release(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_promotion_mixed_concatenate, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_promotion_mixed_dot_general, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_lifetime_released_temporaries, leak_setup,
                                      leak_teardown),
      cmocka_unit_test_setup_teardown(test_lifetime_concatenate_released_constant, leak_setup,
                                      leak_teardown),
      cmocka_unit_test_setup_teardown(test_pinned_unequal_axis_extents, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_pinned_mixed_concatenate_both_orders, leak_setup,
                                      leak_teardown),
      cmocka_unit_test_setup_teardown(test_pinned_stack_both_orders_and_axes, leak_setup,
                                      leak_teardown),
      cmocka_unit_test_setup_teardown(test_pinned_vjp_then_jvp, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_pinned_cache_identity, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_pinned_symbolic_reuse, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_pinned_symbolic_stack_rejected, leak_setup,
                                      leak_teardown),
  };
  return cmocka_run_group_tests_name("capi_eager_recording", tests, NULL, NULL);
}
