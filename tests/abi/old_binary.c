/* A program built against the headers of the last release (baseline_include/, a snapshot) and
 * run against the library of the current tree: what an application compiled once and never
 * rebuilt sees. It exercises a cross-section of the ABI (contexts, tensors, ops, linear algebra,
 * eager and program AD, errors) and compares results with values computed here, so a change in
 * a signature, a struct, a constant or a behaviour that the snapshot promises shows up as a
 * failure. Prints "old binary: OK" on success. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <tenferro/tenferro.h>

static int failures = 0;

#define CHECK(call)                                                                                \
  do {                                                                                             \
    tfe_status s_ = (call);                                                                        \
    if (s_ != TFE_OK) {                                                                            \
      fprintf(stderr, "%s:%d: %s -> %s: %s\n", __FILE__, __LINE__, #call, tfe_status_name(s_),     \
              tfe_last_error_message());                                                           \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

#define EXPECT(cond)                                                                               \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);                          \
      ++failures;                                                                                  \
    }                                                                                              \
  } while (0)

static int close_to(double a, double b) { return fabs(a - b) <= 1e-10 * (1 + fabs(b)); }

static int run(tfe_context* ctx) {
  /* tensors and accessors */
  const double a_data[] = {1, 2, 3, 4, 5, 6};
  const int64_t a_shape[] = {2, 3};
  tfe_tensor *a = NULL, *col = NULL, *sum = NULL, *at = NULL, *gram = NULL, *total = NULL;
  CHECK(tfe_tensor_from_data(&a, ctx, TFE_F64, 2, a_shape, NULL, a_data));
  int32_t dtype = 0, ndim = 0;
  int64_t shape[2] = {0, 0}, numel = 0;
  CHECK(tfe_tensor_dtype(a, &dtype));
  CHECK(tfe_tensor_ndim(a, &ndim));
  CHECK(tfe_tensor_shape(a, shape));
  CHECK(tfe_tensor_numel(a, &numel));
  EXPECT(dtype == TFE_F64 && ndim == 2 && shape[0] == 2 && shape[1] == 3 && numel == 6);

  /* ops: broadcasting add, transpose view, matmul, reduction, an analytic function */
  const double c_data[] = {10, 20};
  const int64_t c_shape[] = {2};
  CHECK(tfe_tensor_from_data(&col, ctx, TFE_F64, 1, c_shape, NULL, c_data));
  CHECK(tfe_add(&sum, a, col));
  const int64_t perm[] = {1, 0};
  CHECK(tfe_transpose(&at, sum, 2, perm));
  CHECK(tfe_matmul(&gram, sum, at));
  CHECK(tfe_sum(&total, gram, 0, NULL));
  double t = 0;
  CHECK(tfe_tensor_to_data(total, &t, sizeof t));
  EXPECT(close_to(t, 4139)); /* as examples/c/basic.c */
  tfe_tensor *e = NULL, *es = NULL;
  CHECK(tfe_exp(&e, a));
  CHECK(tfe_sum(&es, e, 0, NULL));
  double e_sum = 0, e_want = 0;
  CHECK(tfe_tensor_to_data(es, &e_sum, sizeof e_sum));
  for (int i = 0; i < 6; ++i) e_want += exp(a_data[i]);
  EXPECT(close_to(e_sum, e_want));

  /* linear algebra: a solve and a symmetric eigendecomposition */
  const double m_data[] = {2, 1, 1, 3}; /* [[2,1],[1,3]] */
  const int64_t m_shape[] = {2, 2}, b_shape[] = {2, 1};
  const double b_data[] = {1, 2};
  tfe_tensor *m = NULL, *b = NULL, *x = NULL, *w = NULL, *v = NULL;
  CHECK(tfe_tensor_from_data(&m, ctx, TFE_F64, 2, m_shape, NULL, m_data));
  CHECK(tfe_tensor_from_data(&b, ctx, TFE_F64, 2, b_shape, NULL, b_data));
  CHECK(tfe_linalg_solve(&x, m, b));
  double xv[2];
  CHECK(tfe_tensor_to_data(x, xv, sizeof xv));
  EXPECT(close_to(xv[0], 0.2) && close_to(xv[1], 0.6));
  CHECK(tfe_linalg_eigh(&w, &v, m));
  double wv[2];
  CHECK(tfe_tensor_to_data(w, wv, sizeof wv));
  EXPECT(close_to(wv[0], (5 - sqrt(5.0)) / 2) && close_to(wv[1], (5 + sqrt(5.0)) / 2));

  /* eager AD: d/dx sum(x sin x) = sin x + x cos x */
  const double p_data[] = {0.5, -1.25};
  const int64_t p_shape[] = {2};
  tfe_tensor *p = NULL, *sp = NULL, *psp = NULL, *loss = NULL, *g = NULL, *vg = NULL;
  CHECK(tfe_tensor_from_data(&p, ctx, TFE_F64, 1, p_shape, NULL, p_data));
  CHECK(tfe_tensor_set_requires_grad(p, 1));
  CHECK(tfe_sin(&sp, p));
  CHECK(tfe_mul(&psp, p, sp));
  CHECK(tfe_sum(&loss, psp, 0, NULL));
  CHECK(tfe_backward(loss, NULL));
  CHECK(tfe_tensor_grad(&g, p));
  double gv[2];
  CHECK(tfe_tensor_to_data(g, gv, sizeof gv));
  for (int i = 0; i < 2; ++i) EXPECT(close_to(gv[i], sin(p_data[i]) + p_data[i] * cos(p_data[i])));
  CHECK(tfe_vjp(&vg, loss, 1, &p, NULL));
  CHECK(tfe_tensor_to_data(vg, gv, sizeof gv));
  EXPECT(close_to(gv[0], sin(0.5) + 0.5 * cos(0.5)));

  /* program AD: the gradient function of sum(s^3) at [1, 2] is [3, 12] */
  const int64_t sym_shape[] = {-1};
  tfe_tensor *s = NULL, *s2 = NULL, *s3 = NULL, *ss = NULL, *gout = NULL;
  tfe_function *f = NULL, *df = NULL;
  CHECK(tfe_tensor_symbolic(&s, ctx, TFE_F64, 1, sym_shape));
  CHECK(tfe_mul(&s2, s, s));
  CHECK(tfe_mul(&s3, s2, s));
  CHECK(tfe_sum(&ss, s3, 0, NULL));
  tfe_tensor* outs[1];
  outs[0] = ss;
  CHECK(tfe_function_create(&f, 1, &s, 1, outs));
  CHECK(tfe_function_grad(&df, f, 0, NULL));
  const double arg_data[] = {1, 2};
  tfe_tensor* arg = NULL;
  CHECK(tfe_tensor_from_data(&arg, ctx, TFE_F64, 1, p_shape, NULL, arg_data));
  CHECK(tfe_function_call1(&gout, df, 1, &arg));
  CHECK(tfe_tensor_to_data(gout, gv, sizeof gv));
  EXPECT(close_to(gv[0], 3) && close_to(gv[1], 12));

  /* errors: statuses keep their values, outputs are NULLed, messages name the function */
  const double r_data[] = {1, 2, 3};
  const int64_t r_shape[] = {3};
  tfe_tensor *row = NULL, *bad = (tfe_tensor*)&failures, *sing = NULL, *sx = NULL;
  CHECK(tfe_tensor_from_data(&row, ctx, TFE_F64, 1, r_shape, NULL, r_data));
  EXPECT(tfe_add(&bad, a, row) == TFE_ERR_SHAPE_MISMATCH);
  EXPECT(bad == NULL);
  EXPECT(strncmp(tfe_last_error_message(), "tfe_add", 7) == 0);
  EXPECT(strcmp(tfe_status_name(TFE_ERR_SHAPE_MISMATCH), "TFE_ERR_SHAPE_MISMATCH") == 0);
  const double z_data[] = {1, 2, 2, 4};
  CHECK(tfe_tensor_from_data(&sing, ctx, TFE_F64, 2, m_shape, NULL, z_data));
  EXPECT(tfe_linalg_solve(&sx, sing, b) == TFE_ERR_SINGULAR);
  EXPECT(tfe_exp(&bad, row) == TFE_OK);
  tfe_tensor_release(bad);
  const int32_t ints[] = {1};
  const int64_t one[] = {1};
  tfe_tensor* i32 = NULL;
  CHECK(tfe_tensor_from_data(&i32, ctx, TFE_I32, 1, one, NULL, ints));
  EXPECT(tfe_exp(&bad, i32) == TFE_ERR_DTYPE_MISMATCH);
  char buf[8];
  int64_t needed = 0;
  CHECK(tfe_last_error_copy(buf, sizeof buf, &needed));
  EXPECT(needed > 8 && buf[7] == '\0');

  tfe_tensor* all[] = {a,  col, sum,  at, gram, total, e,  es, m,  b,    x,   w,   v,    p,
                       sp, psp, loss, g,  vg,   s,     s2, s3, ss, gout, arg, row, sing, i32};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) tfe_tensor_release(all[i]);
  tfe_function_release(f);
  tfe_function_release(df);
  return 0;
}

int main(void) {
  if (tfe_abi_version() != TFE_ABI_VERSION) {
    fprintf(stderr, "old binary: library ABI %d, snapshot headers %d\n", (int)tfe_abi_version(),
            TFE_ABI_VERSION);
    return 1;
  }
  tfe_context* ctx = NULL;
  CHECK(tfe_context_create(&ctx));
  const int rc = run(ctx);
  tfe_context_release(ctx);
  if (rc != 0 || failures != 0) return 1;
  if (tfe_debug_live_objects() != 0) {
    fprintf(stderr, "old binary: %lld handles leaked\n", (long long)tfe_debug_live_objects());
    return 1;
  }
  printf("old binary: OK (library %s)\n", tfe_version());
  return 0;
}
