/* Indexing by device tensors (gather, scatter, dynamic slices) and ordering along an axis
 * (scans, argsort, argmax/argmin) on a device, against the host's results, with their errors and
 * derivatives. Runs on the device double, or with "real" on the CUDA plugin. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_testing.h"

/* An integer tensor of dtype (I32 or I64) and shape from values (column-major). */
static tfe_tensor* ints(int32_t dtype, int32_t ndim, const int64_t* shape, const int64_t* v) {
  int64_t n = 1;
  for (int32_t d = 0; d < ndim; ++d) n *= shape[d];
  int32_t buf32[64];
  for (int64_t i = 0; i < n && i < 64; ++i) buf32[i] = (int32_t)v[i];
  tfe_tensor* t = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&t, ctx, dtype, ndim, shape, NULL,
                                      dtype == TFE_I32 ? (const void*)buf32 : (const void*)v));
  return t;
}

/* x [3,4,2] -> its transpose [2,3,4] (a strided view), on the host and on the device. */
static void transposed_pair(const tfe_tensor* x, tfe_tensor** h, tfe_tensor** d) {
  const int64_t perm[3] = {2, 0, 1};
  tfe_tensor* xd = to_dev(x, 0);
  TFE_OK_OR_FAIL(tfe_transpose(h, x, 3, perm));
  TFE_OK_OR_FAIL(tfe_transpose(d, xd, 3, perm));
  tfe_tensor_release(xd);
}

/* Values with ties, negative numbers, -0/+0, and (floats) NaN and infinities. */
static int tie_bool(int64_t i) { return (int)((i * 7 / 3) % 2); }
static int64_t tie_int(int64_t i) {
  static const int64_t v[] = {3, -1, 3, 0, -7, 3, 2, 0, -1, 5, 2, -7, 9};
  return v[i % 13] * (1 + (i / 13) % 2);
}
static double tie_real(int64_t i) {
  static const double v[] = {1.5, -2.0, 0.0, 1.5, -0.0, 3.0, 1.5, -2.0, 7.25, 0.0, -0.0, 3.0};
  if (i % 17 == 5 || i % 29 == 11) return NAN;
  if (i % 23 == 7) return i % 2 ? INFINITY : -INFINITY;
  return v[i % 12];
}
static double tie_imag(int64_t i) { return (double)(i % 5) - 2.0; }
static tfe_tensor* ties(int32_t dtype, int32_t ndim, const int64_t* shape) {
  static const struct value_pattern pat = {tie_bool, tie_int, tie_real, tie_imag};
  return tensor_of_pattern(ctx, dtype, ndim, shape, &pat);
}

/* Integers near the ends of their range, so running sums and products wrap. */
static int64_t big_int(int64_t i) { return (i % 2 ? 2147483000LL : -2147483000LL) + i * 977; }
static double big_real(int64_t i) { return 1.0 + (double)(i % 7) / 3.0; }
static tfe_tensor* big(int32_t dtype, int32_t ndim, const int64_t* shape) {
  static const struct value_pattern pat = {tie_bool, big_int, big_real, tie_imag};
  return tensor_of_pattern(ctx, dtype, ndim, shape, &pat);
}

typedef tfe_status (*axis_fn)(tfe_tensor**, const tfe_tensor*, int64_t);

static void check_axis_op(axis_fn f, const tfe_tensor* x, int64_t axis) {
  tfe_tensor *h = NULL, *d = NULL, *xd = to_dev(x, 0);
  TFE_OK_OR_FAIL(f(&h, x, axis));
  TFE_OK_OR_FAIL(f(&d, xd, axis));
  expect_exact(h, d);
  tfe_tensor* objs[] = {h, d, xd};
  release_all(objs, 3);
}

static void check_gather_scatter(const tfe_tensor* x, const tfe_tensor* idx, int64_t axis) {
  tfe_tensor *xd = to_dev(x, 0), *id = to_dev(idx, 0);
  tfe_tensor *h = NULL, *d = NULL;
  TFE_OK_OR_FAIL(tfe_gather(&h, x, idx, axis));
  TFE_OK_OR_FAIL(tfe_gather(&d, xd, id, axis));
  expect_exact(h, d);
  /* Scatter-add the gathered values (duplicates among the indices accumulate in order). */
  tfe_tensor *ud = to_dev(h, 0), *sh = NULL, *sd = NULL;
  TFE_OK_OR_FAIL(tfe_scatter(&sh, x, idx, h, axis));
  TFE_OK_OR_FAIL(tfe_scatter(&sd, xd, id, ud, axis));
  expect_exact(sh, sd);
  tfe_tensor* objs[] = {xd, id, h, d, ud, sh, sd};
  release_all(objs, 7);
}

/* gather and scatter in every dtype, over each axis, with I32 and I64 indices of rank 1 and 2
 * (duplicates included), on compact and transposed operands; empty operands and index lists. */
static void test_gather_and_scatter_equal_host(void** state) {
  (void)state;
  const int64_t shape[3] = {3, 4, 2}, s1[1] = {5}, s2[2] = {2, 3};
  const int64_t v1[5] = {1, 0, 1, 1, 0}, v2[6] = {1, 0, 1, 1, 0, 0};
  for (int32_t dt = TFE_BOOL; dt <= TFE_C64; ++dt) {
    tfe_tensor* x = ties(dt, 3, shape);
    tfe_tensor *th = NULL, *td = NULL;
    transposed_pair(x, &th, &td);
    for (int32_t it = TFE_I32; it <= TFE_I64; ++it) {
      tfe_tensor* i1 = ints(it, 1, s1, v1);
      tfe_tensor* i2 = ints(it, 2, s2, v2);
      for (int64_t axis = 0; axis < 3; ++axis) {
        check_gather_scatter(x, i1, axis);
        check_gather_scatter(x, i2, axis);
        check_gather_scatter(th, i2, axis);
      }
      /* The transposed operand as a device view, against the host's transposed view. */
      tfe_tensor *h = NULL, *d = NULL, *id = to_dev(i1, 0);
      TFE_OK_OR_FAIL(tfe_gather(&h, th, i1, 1));
      TFE_OK_OR_FAIL(tfe_gather(&d, td, id, 1));
      expect_exact(h, d);
      tfe_tensor* objs[] = {i1, i2, h, d, id};
      release_all(objs, 5);
    }
    tfe_tensor* objs[] = {x, th, td};
    release_all(objs, 3);
  }
  /* Empty: an operand without elements, and an empty index list. */
  const int64_t se[2] = {0, 3}, sn[1] = {0}, sone[1] = {1}, one[1] = {2};
  tfe_tensor* e = make_tensor(ctx, TFE_F64, 2, se);
  tfe_tensor* ione = ints(TFE_I64, 1, sone, one);
  tfe_tensor* inone = ints(TFE_I64, 1, sn, one);
  check_gather_scatter(e, ione, 1);
  check_gather_scatter(e, inone, 0);
  const int64_t sx[2] = {3, 3};
  tfe_tensor* x = make_tensor(ctx, TFE_F32, 2, sx);
  check_gather_scatter(x, inone, 1);
  tfe_tensor* objs[] = {e, ione, inone, x};
  release_all(objs, 4);
}

/* An out-of-range index fails on the device with the host's status and message, for gather and
 * scatter, also when the result has no elements. */
static void test_gather_out_of_range_is_the_hosts_error(void** state) {
  (void)state;
  const int64_t sx[2] = {3, 4}, se[2] = {0, 4}, si[1] = {4};
  const int64_t bad[4] = {1, 3, -1, 7}, big_[4] = {0, 1, 2, 4};
  tfe_tensor* x = make_tensor(ctx, TFE_F64, 2, sx);
  tfe_tensor* e = make_tensor(ctx, TFE_F64, 2, se);
  const tfe_tensor* operands[2] = {x, e};
  for (int k = 0; k < 2; ++k) {
    const tfe_tensor* op = operands[k];
    for (int32_t it = TFE_I32; it <= TFE_I64; ++it) {
      for (int j = 0; j < 2; ++j) {
        tfe_tensor* idx = ints(it, 1, si, j ? big_ : bad);
        tfe_tensor *od = to_dev(op, 0), *id = to_dev(idx, 0);
        tfe_tensor *h = NULL, *d = (tfe_tensor*)0x1;
        tfe_status st = tfe_gather(&h, op, idx, 1);
        assert_int_equal(st, TFE_ERR_INVALID_ARGUMENT);
        char want[512];
        snprintf(want, sizeof want, "%s", tfe_last_error_message());
        assert_int_equal(tfe_gather(&d, od, id, 1), st);
        assert_null(d);
        assert_string_equal(tfe_last_error_message(), want);
        /* scatter of updates of the gathered shape [rows, 4] */
        const int64_t su[2] = {k == 0 ? 3 : 0, 4};
        tfe_tensor* u = make_tensor(ctx, TFE_F64, 2, su);
        tfe_tensor* ud = to_dev(u, 0);
        st = tfe_scatter(&h, op, idx, u, 1);
        assert_int_equal(st, TFE_ERR_INVALID_ARGUMENT);
        snprintf(want, sizeof want, "%s", tfe_last_error_message());
        d = (tfe_tensor*)0x1;
        assert_int_equal(tfe_scatter(&d, od, id, ud, 1), st);
        assert_null(d);
        assert_string_equal(tfe_last_error_message(), want);
        tfe_tensor* objs[] = {idx, od, id, u, ud};
        release_all(objs, 5);
      }
    }
  }
  tfe_tensor_release(x);
  tfe_tensor_release(e);
}

/* dynamic_slice and dynamic_update_slice in every dtype, with starts in range, clamped from
 * below and above (I32 and I64, read on the device), on compact and transposed operands. */
static void test_dynamic_slices_equal_host(void** state) {
  (void)state;
  const int64_t shape[3] = {3, 4, 2}, ss[1] = {3}, sizes[3] = {2, 3, 1}, su[3] = {2, 3, 1};
  const int64_t starts[4][3] = {{1, 0, 1}, {-4, 9, 0}, {5, 1, -1}, {0, 0, 0}};
  const int64_t tsizes[3] = {1, 2, 3}, tstarts[3] = {1, 1, 7}, zero_sizes[3] = {0, 2, 1};
  for (int32_t dt = TFE_BOOL; dt <= TFE_C64; ++dt) {
    tfe_tensor* x = ties(dt, 3, shape);
    tfe_tensor* xd = to_dev(x, 0);
    tfe_tensor* u = make_tensor(ctx, dt, 3, su);
    tfe_tensor* ud = to_dev(u, 0);
    for (int32_t it = TFE_I32; it <= TFE_I64; ++it) {
      for (int k = 0; k < 4; ++k) {
        tfe_tensor* s = ints(it, 1, ss, starts[k]);
        tfe_tensor* sd = to_dev(s, 0);
        tfe_tensor *h = NULL, *d = NULL, *uh = NULL, *udv = NULL;
        TFE_OK_OR_FAIL(tfe_dynamic_slice(&h, x, s, 3, sizes));
        TFE_OK_OR_FAIL(tfe_dynamic_slice(&d, xd, sd, 3, sizes));
        expect_exact(h, d);
        TFE_OK_OR_FAIL(tfe_dynamic_update_slice(&uh, x, u, s));
        TFE_OK_OR_FAIL(tfe_dynamic_update_slice(&udv, xd, ud, sd));
        expect_exact(uh, udv);
        tfe_tensor* objs[] = {s, sd, h, d, uh, udv};
        release_all(objs, 6);
      }
      /* Transposed operand [2,3,4]; an empty block. */
      tfe_tensor *th = NULL, *td = NULL;
      transposed_pair(x, &th, &td);
      tfe_tensor* s = ints(it, 1, ss, tstarts);
      tfe_tensor* sd = to_dev(s, 0);
      tfe_tensor *h = NULL, *d = NULL, *eh = NULL, *ed = NULL, *uh = NULL, *udv = NULL;
      TFE_OK_OR_FAIL(tfe_dynamic_slice(&h, th, s, 3, tsizes));
      TFE_OK_OR_FAIL(tfe_dynamic_slice(&d, td, sd, 3, tsizes));
      expect_exact(h, d);
      TFE_OK_OR_FAIL(tfe_dynamic_slice(&eh, x, s, 3, zero_sizes));
      TFE_OK_OR_FAIL(tfe_dynamic_slice(&ed, xd, sd, 3, zero_sizes));
      expect_exact(eh, ed);
      /* An update that is itself a strided device view (a transpose [2,3,1]). */
      const int64_t s312[3] = {3, 1, 2};
      tfe_tensor* us = make_tensor(ctx, dt, 3, s312);
      tfe_tensor *uth = NULL, *utd = NULL;
      transposed_pair(us, &uth, &utd);
      TFE_OK_OR_FAIL(tfe_dynamic_update_slice(&uh, th, uth, s));
      TFE_OK_OR_FAIL(tfe_dynamic_update_slice(&udv, td, utd, sd));
      expect_exact(uh, udv);
      tfe_tensor* objs[] = {th, td, s, sd, h, d, eh, ed, us, uth, utd, uh, udv};
      release_all(objs, 13);
    }
    tfe_tensor* objs[] = {x, xd, u, ud};
    release_all(objs, 4);
  }
}

/* cumsum and cumprod in every numeric dtype over each axis, compact and transposed, with
 * wrapping integers; empty tensors. */
static void test_scans_equal_host(void** state) {
  (void)state;
  const int64_t shape[3] = {3, 4, 2}, se[2] = {0, 3}, slong[2] = {300, 2};
  for (int32_t dt = TFE_I32; dt <= TFE_C64; ++dt) {
    tfe_tensor* x = big(dt, 3, shape);
    tfe_tensor *th = NULL, *td = NULL;
    transposed_pair(x, &th, &td);
    for (int64_t axis = 0; axis < 3; ++axis) {
      check_axis_op(tfe_cumsum, x, axis);
      check_axis_op(tfe_cumprod, x, axis);
      tfe_tensor *h = NULL, *d = NULL;
      TFE_OK_OR_FAIL(tfe_cumsum(&h, th, axis));
      TFE_OK_OR_FAIL(tfe_cumsum(&d, td, axis));
      expect_exact(h, d);
      tfe_tensor_release(h);
      tfe_tensor_release(d);
      TFE_OK_OR_FAIL(tfe_cumprod(&h, th, -1 - axis));
      TFE_OK_OR_FAIL(tfe_cumprod(&d, td, -1 - axis));
      expect_exact(h, d);
      tfe_tensor_release(h);
      tfe_tensor_release(d);
    }
    tfe_tensor* e = make_tensor(ctx, dt, 2, se);
    check_axis_op(tfe_cumsum, e, 0);
    check_axis_op(tfe_cumprod, e, 1);
    tfe_tensor* l = ties(dt, 2, slong);
    check_axis_op(tfe_cumsum, l, 0);
    tfe_tensor* objs[] = {x, th, td, e, l};
    release_all(objs, 5);
  }
}

static tfe_status argsort_asc(tfe_tensor** out, const tfe_tensor* x, int64_t axis) {
  return tfe_argsort(out, x, axis, 0);
}
static tfe_status argsort_desc(tfe_tensor** out, const tfe_tensor* x, int64_t axis) {
  return tfe_argsort(out, x, axis, 1);
}

/* argsort (both directions), argmax and argmin in every ordered dtype over each axis, with ties,
 * NaN, infinities and signed zeros; compact, transposed, long lines (a block per line on a GPU)
 * and empty tensors; an empty axis is the host's error. */
static tfe_status sort_desc(tfe_tensor** out, const tfe_tensor* x, int64_t axis) {
  return tfe_sort(out, x, axis, 1);
}
static tfe_status topk_values(tfe_tensor** out, const tfe_tensor* x, int64_t axis) {
  tfe_tensor* idx = NULL;
  tfe_status st = tfe_topk(out, &idx, x, 2, axis, 1);
  tfe_tensor_release(idx);
  return st;
}
static tfe_status topk_indices(tfe_tensor** out, const tfe_tensor* x, int64_t axis) {
  tfe_tensor* values = NULL;
  tfe_status st = tfe_topk(&values, out, x, 2, axis, 0);
  tfe_tensor_release(values);
  return st;
}

/* sort and topk gather x with the argsort permutation at lanes made on x's device. */
static void test_sort_and_topk_equal_host(void** state) {
  (void)state;
  const int64_t shape[3] = {5, 4, 3};
  axis_fn fns[3] = {sort_desc, topk_values, topk_indices};
  for (int32_t dt = TFE_I32; dt <= TFE_F64; ++dt) {
    tfe_tensor* x = ties(dt, 3, shape);
    for (int f = 0; f < 3; ++f)
      for (int64_t axis = 0; axis < 3; ++axis) check_axis_op(fns[f], x, axis);
    tfe_tensor_release(x);
  }
}

static void test_sort_and_arg_extrema_equal_host(void** state) {
  (void)state;
  const int64_t shape[3] = {5, 4, 3}, slong[2] = {700, 3}, se[2] = {0, 3};
  axis_fn fns[4] = {argsort_asc, argsort_desc, tfe_argmax, tfe_argmin};
  for (int32_t dt = TFE_BOOL; dt <= TFE_F64; ++dt) {
    tfe_tensor* x = ties(dt, 3, shape);
    const int64_t perm[3] = {2, 0, 1};
    tfe_tensor* xd = to_dev(x, 0);
    tfe_tensor *th = NULL, *td = NULL;
    TFE_OK_OR_FAIL(tfe_transpose(&th, x, 3, perm));
    TFE_OK_OR_FAIL(tfe_transpose(&td, xd, 3, perm));
    tfe_tensor* l = ties(dt, 2, slong);
    tfe_tensor* e = make_tensor(ctx, dt, 2, se);
    for (int f = 0; f < 4; ++f) {
      for (int64_t axis = 0; axis < 3; ++axis) {
        check_axis_op(fns[f], x, axis);
        tfe_tensor *h = NULL, *d = NULL;
        TFE_OK_OR_FAIL(fns[f](&h, th, axis));
        TFE_OK_OR_FAIL(fns[f](&d, td, axis));
        expect_exact(h, d);
        tfe_tensor_release(h);
        tfe_tensor_release(d);
      }
      check_axis_op(fns[f], l, 0);
      check_axis_op(fns[f], l, 1);
      check_axis_op(fns[f], e, 1);
      if (f < 2) check_axis_op(fns[f], e, 0);
    }
    /* argmax over an empty axis (with elements elsewhere) fails as on the host. */
    const int64_t sz[2] = {3, 0};
    tfe_tensor* z = make_tensor(ctx, dt, 2, sz);
    tfe_tensor* zd = to_dev(z, 0);
    tfe_tensor *h = NULL, *d = (tfe_tensor*)0x1;
    tfe_status st = tfe_argmax(&h, z, 1);
    assert_int_equal(st, TFE_ERR_INVALID_ARGUMENT);
    char want[512];
    snprintf(want, sizeof want, "%s", tfe_last_error_message());
    assert_int_equal(tfe_argmax(&d, zd, 1), st);
    assert_null(d);
    assert_string_equal(tfe_last_error_message(), want);
    tfe_tensor* objs[] = {x, xd, th, td, l, e, z, zd};
    release_all(objs, 8);
  }
}

/* loss = sum(y * y) for y = op(v) of a variable v; the gradient of v (eager backward). */
enum { D_GATHER, D_SCATTER_X, D_SCATTER_U, D_CUMSUM, D_CUMPROD, D_DSLICE, D_DUPDATE, D_COUNT };
static tfe_tensor* op_gradient(int which, int on_device, int32_t dt) {
  const int64_t sx[2] = {4, 3}, si[1] = {5}, su[2] = {5, 3}, ss[1] = {2}, sizes[2] = {2, 2};
  const int64_t iv[5] = {3, 0, 3, 1, 3}, sv[2] = {3, -1};
  tfe_tensor* xh = make_tensor(ctx, dt, 2, sx);
  tfe_tensor* uh = make_tensor(ctx, dt, 2, which == D_DUPDATE ? sizes : su);
  tfe_tensor* ih = ints(TFE_I64, 1, si, iv);
  tfe_tensor* sh = ints(TFE_I32, 1, ss, sv);
  tfe_tensor *x = xh, *u = uh, *idx = ih, *st = sh;
  if (on_device) {
    x = to_dev(xh, 0);
    u = to_dev(uh, 0);
    idx = to_dev(ih, 0);
    st = to_dev(sh, 0);
  }
  tfe_tensor* v = which == D_SCATTER_U || which == D_DUPDATE ? u : x;
  TFE_OK_OR_FAIL(tfe_tensor_set_requires_grad(v, 1));
  tfe_tensor *y = NULL, *yy = NULL, *l = NULL;
  switch (which) {
  case D_GATHER: TFE_OK_OR_FAIL(tfe_gather(&y, x, idx, 0)); break;
  case D_SCATTER_X:
  case D_SCATTER_U: TFE_OK_OR_FAIL(tfe_scatter(&y, x, idx, u, 0)); break;
  case D_CUMSUM: TFE_OK_OR_FAIL(tfe_cumsum(&y, x, 0)); break;
  case D_CUMPROD: TFE_OK_OR_FAIL(tfe_cumprod(&y, x, 1)); break;
  case D_DSLICE: TFE_OK_OR_FAIL(tfe_dynamic_slice(&y, x, st, 2, sizes)); break;
  default: TFE_OK_OR_FAIL(tfe_dynamic_update_slice(&y, x, u, st)); break;
  }
  if (on_device) expect_on(y, TFE_DEVICE_CUDA, 0);
  TFE_OK_OR_FAIL(tfe_mul(&yy, y, y));
  TFE_OK_OR_FAIL(tfe_sum(&l, yy, 0, NULL));
  TFE_OK_OR_FAIL(tfe_backward(l, NULL));
  tfe_tensor* g = grad_of(v);
  tfe_tensor* objs[] = {y, yy, l};
  release_all(objs, 3);
  if (on_device) {
    tfe_tensor* more[] = {x, u, idx, st};
    release_all(more, 4);
  }
  tfe_tensor* host_objs[] = {xh, uh, ih, sh};
  release_all(host_objs, 4);
  return g;
}

/* Derivatives through the new ops run on the device (gather's is a scatter, cumsum's a reversed
 * cumsum, dynamic_slice's a dynamic_update_slice...) and equal the host's; vjp too. */
static void test_indexing_and_order_derivatives(void** state) {
  (void)state;
  const int32_t dts[2] = {TFE_F64, TFE_C64};
  for (int k = 0; k < 2; ++k)
    for (int which = 0; which < D_COUNT; ++which) {
      tfe_tensor* gh = op_gradient(which, 0, dts[k]);
      tfe_tensor* gd = op_gradient(which, 1, dts[k]);
      expect_on(gd, TFE_DEVICE_CUDA, 0);
      expect_same(gh, gd, 0);
      tfe_tensor_release(gh);
      tfe_tensor_release(gd);
    }
  /* vjp of gather with a device seed: the seed scattered back. */
  const int64_t sx[2] = {4, 3}, si[1] = {5}, sy[2] = {5, 3};
  const int64_t iv[5] = {3, 0, 3, 1, 3};
  tfe_tensor* x = make_tensor(ctx, TFE_F64, 2, sx);
  tfe_tensor* xd = to_dev(x, 0);
  tfe_tensor* idx = ints(TFE_I64, 1, si, iv);
  tfe_tensor* idd = to_dev(idx, 0);
  tfe_tensor* seed = make_tensor(ctx, TFE_F64, 2, sy);
  tfe_tensor* seedd = to_dev(seed, 0);
  TFE_OK_OR_FAIL(tfe_tensor_set_requires_grad(x, 1));
  TFE_OK_OR_FAIL(tfe_tensor_set_requires_grad(xd, 1));
  tfe_tensor *yh = NULL, *yd = NULL, *vh = NULL, *vd = NULL;
  TFE_OK_OR_FAIL(tfe_gather(&yh, x, idx, 0));
  TFE_OK_OR_FAIL(tfe_gather(&yd, xd, idd, 0));
  TFE_OK_OR_FAIL(tfe_vjp(&vh, yh, 1, &x, seed));
  TFE_OK_OR_FAIL(tfe_vjp(&vd, yd, 1, &xd, seedd));
  expect_exact(vh, vd);
  tfe_tensor* objs[] = {x, xd, idx, idd, seed, seedd, yh, yd, vh, vd};
  release_all(objs, 10);
}

int main(int argc, char** argv) {
  int start = device_suite_start(argc, argv, "the indexing and order suite");
  if (start >= 0) return start;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_gather_and_scatter_equal_host, device_setup,
                                      device_teardown),
      cmocka_unit_test_setup_teardown(test_gather_out_of_range_is_the_hosts_error, device_setup,
                                      device_teardown),
      cmocka_unit_test_setup_teardown(test_dynamic_slices_equal_host, device_setup,
                                      device_teardown),
      cmocka_unit_test_setup_teardown(test_scans_equal_host, device_setup, device_teardown),
      cmocka_unit_test_setup_teardown(test_sort_and_arg_extrema_equal_host, device_setup,
                                      device_teardown),
      cmocka_unit_test_setup_teardown(test_sort_and_topk_equal_host, device_setup, device_teardown),
      cmocka_unit_test_setup_teardown(test_indexing_and_order_derivatives, device_setup,
                                      device_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
