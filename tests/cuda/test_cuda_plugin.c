/* The CUDA device plugin, loaded directly with dlopen (argv[1]): the table's ABI, device_count,
 * and, with a device, every entry against references on the host. Elementwise ops, conversions
 * and reductions are compared with the library's CPU backend through the C API (the plugin must
 * give its results), gemm and triangle with plain loops here. Without a device only the checks
 * that need none run, and the rest prints a skip line. */
#include <complex.h>
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/device/plugin_abi.h"
#include "plugin_checks.h"
#include "ops/defs/analytic.hpp"
#include "tenferro/tenferro.h"

static const char* const kDtypeNames[8] = {"?", "Bool", "I32", "I64", "F32", "F64", "C32", "C64"};
static size_t itemsize(int32_t d) {
  static const size_t s[8] = {0, 1, 4, 8, 4, 8, 8, 16};
  return s[d];
}
static int is_complex(int32_t d) { return d == TFE_C32 || d == TFE_C64; }
static int is_int(int32_t d) { return d == TFE_I32 || d == TFE_I64; }

/* ---- sample values ------------------------------------------------------------------------- */

static const double kReals[] = {0.5,   -1.25, 2.0,      3.0,       -0.0, 0.0,  1.5,  -2.5, 7.0,
                                0.125, NAN,   INFINITY, -INFINITY, 10.5, -3.0, 1e-3, 0.75, -0.5};
static const int64_t kInts[] = {0, 1, -1, 2, -3, 7, INT32_MIN, INT32_MAX, 5, -8, 3, 100, -64, 9};
static const int64_t kDivisors[] = {1, -1, 2, -3, 7, 5, 4};
static const int64_t kExponents[] = {0, 1, 2, 3, 5, 31, 4};
/* Complex samples stay finite and off every branch cut and branch point of the analytic ops (each
 * real number lies on one), where libraries may legitimately differ; zeros and real exponents
 * are checked on their own (check_complex_specials). */
static const double kComplex[][2] = {{0.5, 0.25},    {-1.25, 2.0}, {2.0, -0.5},
                                     {0.75, -1.5},   {3.0, 4.0},   {0.25, 0.75},
                                     {0.25, -0.125}, {-0.5, -0.5}, {-2.0, 0.5}};
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

enum { POOL_ANY, POOL_DIVISOR, POOL_EXPONENT };

/* Writes sample number i (any integer) of dtype d into dst. */
static void sample(int32_t d, int i, int pool, void* dst) {
  if (i < 0) i = -i;
  int64_t iv = pool == POOL_DIVISOR    ? kDivisors[i % COUNT(kDivisors)]
               : pool == POOL_EXPONENT ? kExponents[i % COUNT(kExponents)]
                                       : kInts[i % COUNT(kInts)];
  double rv = pool == POOL_ANY ? kReals[i % COUNT(kReals)] : (double)iv;
  switch (d) {
  case TFE_BOOL: *(uint8_t*)dst = (uint8_t)(i % 3 == 0); break;
  case TFE_I32: *(int32_t*)dst = (int32_t)iv; break;
  case TFE_I64:
    *(int64_t*)dst = iv == INT32_MIN ? INT64_MIN : iv == INT32_MAX ? INT64_MAX : iv;
    break;
  case TFE_F32: *(float*)dst = (float)rv; break;
  case TFE_F64: *(double*)dst = rv; break;
  case TFE_C32: {
    const double* c = kComplex[i % COUNT(kComplex)];
    float v[2] = {(float)c[0], (float)(pool == POOL_ANY ? c[1] : 0.0)};
    if (pool != POOL_ANY) v[0] = (float)iv;
    memcpy(dst, v, sizeof v);
    break;
  }
  default: {
    const double* c = kComplex[i % COUNT(kComplex)];
    double v[2] = {c[0], pool == POOL_ANY ? c[1] : 0.0};
    if (pool != POOL_ANY) v[0] = (double)iv;
    memcpy(dst, v, sizeof v);
  }
  }
}

/* Element i of buffer p as a complex double (real dtypes have imaginary part 0). */
static double complex value_at(int32_t d, const void* p, int64_t i) {
  const char* b = (const char*)p + (size_t)i * itemsize(d);
  switch (d) {
  case TFE_BOOL: return *(const uint8_t*)b;
  case TFE_I32: return *(const int32_t*)b;
  case TFE_I64: return (double)*(const int64_t*)b;
  case TFE_F32: return *(const float*)b;
  case TFE_F64: return *(const double*)b;
  case TFE_C32: return ((const float*)b)[0] + I * ((const float*)b)[1];
  default: return ((const double*)b)[0] + I * ((const double*)b)[1];
  }
}

static int same_real(double a, double b, double rtol) {
  if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
  if (isinf(a) || isinf(b)) return a == b;
  return fabs(a - b) <= rtol + rtol * fabs(b);
}

/* Elements a and b (addresses) agree: bit-exact for Bool and integers, within rtol for floats. */
static int same_value(int32_t d, const void* a, const void* b, double rtol) {
  if (d == TFE_BOOL || is_int(d)) return memcmp(a, b, itemsize(d)) == 0;
  double complex x = value_at(d, a, 0), y = value_at(d, b, 0);
  if (!is_complex(d)) return same_real(creal(x), creal(y), rtol);
  double scale = cabs(y);
  if (isnan(scale) || isinf(scale))
    return same_real(creal(x), creal(y), rtol) && same_real(cimag(x), cimag(y), rtol);
  return fabs(creal(x) - creal(y)) <= rtol + rtol * scale &&
         fabs(cimag(x) - cimag(y)) <= rtol + rtol * scale;
}
static int same_element(int32_t d, const void* a, const void* b, int64_t i, double rtol) {
  size_t s = itemsize(d) * (size_t)i;
  return same_value(d, (const char*)a + s, (const char*)b + s, rtol);
}

static double tolerance(int32_t d) { return (d == TFE_F32 || d == TFE_C32) ? 2e-5 : 1e-12; }

/* ---- device buffers ------------------------------------------------------------------------ */

typedef struct {
  void* ptr;
  size_t bytes;
} dev_buf;

static dev_buf upload(const void* host, size_t bytes) {
  dev_buf b = {NULL, bytes};
  OK(P->allocate(0, bytes, &b.ptr));
  if (b.ptr != NULL && bytes > 0) OK(P->copy_to_device(0, b.ptr, host, bytes));
  return b;
}
static void download(void* host, dev_buf b) {
  if (b.bytes > 0) OK(P->copy_to_host(0, host, b.ptr, b.bytes));
}
static void drop(dev_buf b) { P->release(0, b.ptr, b.bytes); }

/* ---- the library's CPU backend as the reference -------------------------------------------- */

typedef tfe_status (*fn1)(tfe_tensor**, const tfe_tensor*);
typedef tfe_status (*fn2)(tfe_tensor**, const tfe_tensor*, const tfe_tensor*);
typedef tfe_status (*fn3)(tfe_tensor**, const tfe_tensor*, const tfe_tensor*, const tfe_tensor*);
typedef tfe_status (*fncmp)(tfe_tensor**, const tfe_tensor*, const tfe_tensor*, int32_t);
typedef tfe_status (*fnred)(tfe_tensor**, const tfe_tensor*, int32_t, const int64_t*);

static tfe_context* ctx;

/* The C function of an op table row, found by the row's name (tfe_op_name). */
static void* c_function(const char* op_name) {
  for (int32_t i = 0; i < tfe_op_count(); ++i)
    if (strcmp(tfe_op_name(i), op_name) == 0) return dlsym(RTLD_DEFAULT, tfe_op_c_name(i));
  return NULL;
}

static tfe_tensor* cpu_tensor(int32_t d, int32_t rank, const int64_t* shape, const void* data) {
  tfe_tensor* t = NULL;
  CHECK(tfe_tensor_from_data(&t, ctx, d, rank, shape, NULL, data) == TFE_OK, "tensor_from_data");
  return t;
}

/* Object to function pointers through memcpy, as POSIX allows for dlsym results. */
#define DEFINE_AS(type)                                                                            \
  static type as_##type(void* p) {                                                                 \
    type f;                                                                                        \
    memcpy(&f, &p, sizeof f);                                                                      \
    return f;                                                                                      \
  }
DEFINE_AS(fn1)
DEFINE_AS(fn2)
DEFINE_AS(fn3)
DEFINE_AS(fncmp)
DEFINE_AS(fnred)

/* ---- elementwise --------------------------------------------------------------------------- */

enum { K_PLAIN, K_DIV, K_POW, K_COMPARE, K_SELECT, K_COMPLEX };
typedef struct {
  const char* name;
  int arity;
  int kind;
} op_row;

#define ANALYTIC_ROW(Code, name, arity, ...) {#name, arity, K_PLAIN},
static const op_row kOps[] = {{"add", 2, K_PLAIN},
                              {"sub", 2, K_PLAIN},
                              {"mul", 2, K_PLAIN},
                              {"div", 2, K_DIV},
                              {"rem", 2, K_DIV},
                              {"pow", 2, K_POW},
                              {"neg", 1, K_PLAIN},
                              {"conj", 1, K_PLAIN},
                              {"abs", 1, K_PLAIN},
                              {"sign", 1, K_PLAIN},
                              {"maximum", 2, K_PLAIN},
                              {"minimum", 2, K_PLAIN},
                              {"and", 2, K_PLAIN},
                              {"or", 2, K_PLAIN},
                              {"xor", 2, K_PLAIN},
                              {"not", 1, K_PLAIN},
                              {"compare", 2, K_COMPARE},
                              {"select", 3, K_SELECT},
                              {"clamp", 3, K_PLAIN},
                              {"real", 1, K_PLAIN},
                              {"imag", 1, K_PLAIN},
                              {"complex", 2, K_COMPLEX},
                              TFE_ANALYTIC_OPS(ANALYTIC_ROW)};

/* The logical shape of every elementwise sample and the layouts an operand is given in. */
#define ROWS 3
#define COLS 4
#define NEL (ROWS * COLS)
enum { L_COMPACT, L_TRANSPOSED, L_BCAST, L_REVERSED, L_SCALAR, L_COUNT };
static const int kTrials[][3] = {{L_COMPACT, L_COMPACT, L_COMPACT},
                                 {L_TRANSPOSED, L_BCAST, L_REVERSED},
                                 {L_REVERSED, L_SCALAR, L_TRANSPOSED},
                                 {L_BCAST, L_TRANSPOSED, L_SCALAR}};

/* Layout l: its strides, the element offset of (0, 0) in its buffer and the buffer length. */
static void layout(int l, int64_t strides[2], int64_t* origin, int64_t* len) {
  *origin = 0;
  *len = NEL;
  switch (l) {
  case L_COMPACT: strides[0] = 1, strides[1] = ROWS; break;
  case L_TRANSPOSED: strides[0] = COLS, strides[1] = 1; break;
  case L_BCAST: strides[0] = 1, strides[1] = 0, *len = ROWS; break;
  case L_REVERSED: strides[0] = 1, strides[1] = -ROWS, *origin = ROWS * (COLS - 1); break;
  default: strides[0] = 0, strides[1] = 0, *len = 1;
  }
}

typedef struct {
  int32_t dtype;
  int64_t strides[2];
  unsigned char buffer[NEL * 16];  /* the layout's storage */
  unsigned char logical[NEL * 16]; /* its values compact column-major */
  dev_buf dev;
  tfe_dev_view view;
} operand;

static const int64_t kShape[2] = {ROWS, COLS};

static void make_operand(operand* o, int32_t d, int l, int seed, int pool) {
  int64_t origin, len;
  o->dtype = d;
  layout(l, o->strides, &origin, &len);
  size_t s = itemsize(d);
  for (int64_t i = 0; i < len; ++i) sample(d, seed + (int)i * 5, pool, o->buffer + i * s);
  for (int64_t c = 0; c < COLS; ++c)
    for (int64_t r = 0; r < ROWS; ++r) {
      int64_t src = origin + r * o->strides[0] + c * o->strides[1];
      memcpy(o->logical + (r + c * ROWS) * s, o->buffer + src * s, s);
    }
  o->dev = upload(o->buffer, (size_t)len * s);
  o->view.data = (char*)o->dev.ptr + origin * (int64_t)s;
  o->view.dtype = d;
  o->view.rank = 2;
  o->view.shape = kShape;
  o->view.strides = o->strides;
}

/* The operand dtypes of a row for value dtype d. */
static int32_t operand_dtype(const op_row* op, int k, int32_t d) {
  return (op->kind == K_SELECT && k == 0) ? TFE_BOOL : d;
}
static int operand_pool(const op_row* op, int k, int32_t d) {
  if (k == 1 && is_int(d) && op->kind == K_DIV) return POOL_DIVISOR;
  if (k == 1 && is_int(d) && op->kind == K_POW) return POOL_EXPONENT;
  return POOL_ANY;
}

/* Runs the CPU function of op on the operands' logical values; returns its status. */
static tfe_status cpu_run(const op_row* op, void* fn, const operand* ops, int64_t param,
                          tfe_tensor** out) {
  tfe_tensor* t[3] = {NULL, NULL, NULL};
  for (int k = 0; k < op->arity; ++k) t[k] = cpu_tensor(ops[k].dtype, 2, kShape, ops[k].logical);
  tfe_status st;
  if (op->kind == K_COMPARE)
    st = as_fncmp(fn)(out, t[0], t[1], (int32_t)param);
  else if (op->arity == 1)
    st = as_fn1(fn)(out, t[0]);
  else if (op->arity == 2)
    st = as_fn2(fn)(out, t[0], t[1]);
  else
    st = as_fn3(fn)(out, t[0], t[1], t[2]);
  for (int k = 0; k < 3; ++k) tfe_tensor_release(t[k]);
  return st;
}

/* Every (op, dtype) the CPU backend accepts is looked up and, with a device, run and compared. */
static void check_elementwise(int have_device) {
  for (int r = 0; r < COUNT(kOps); ++r) {
    const op_row* op = &kOps[r];
    void* fn = c_function(op->name);
    CHECK(fn != NULL, "op table has no C function for elementwise op '%s'", op->name);
    if (fn == NULL) continue;
    void* trunc = fn;
    for (int32_t d = TFE_BOOL; d <= TFE_C64; ++d) {
      /* The IR div takes every numeric dtype; its C function tfe_div_trunc only integers, and
       * tfe_div reaches it for the inexact ones. */
      fn = (strcmp(op->name, "div") == 0 && d >= TFE_F32) ? dlsym(RTLD_DEFAULT, "tfe_div") : trunc;
      int n_params = op->kind == K_COMPARE ? (is_complex(d) ? 2 : 6) : 1;
      /* Acceptance: the CPU backend's answer on compact samples. */
      operand probe[3];
      memset(probe, 0, sizeof probe);
      for (int k = 0; k < op->arity; ++k) {
        probe[k].dtype = operand_dtype(op, k, d);
        for (int i = 0; i < NEL; ++i)
          sample(probe[k].dtype, i, operand_pool(op, k, d),
                 probe[k].logical + i * itemsize(probe[k].dtype));
      }
      tfe_tensor* ref = NULL;
      tfe_status st = cpu_run(op, fn, probe, 0, &ref);
      int32_t id = -1;
      /* Looked up by the first operand's dtype, as the library does (select: its Bool predicate).
       */
      int32_t found = P->elementwise_lookup(op->name, operand_dtype(op, 0, d), &id);
      if (st != TFE_OK) {
        CHECK(found == TFE_ERR_NOT_SUPPORTED, "plugin offers %s on %s, which the op table rejects",
              op->name, kDtypeNames[d]);
        continue;
      }
      tfe_tensor_release(ref);
      CHECK(found == 0, "plugin lacks %s on %s: %s", op->name, kDtypeNames[d], P->last_error());
      if (found != 0 || !have_device) continue;

      for (int trial = 0; trial < COUNT(kTrials); ++trial)
        for (int64_t param = 0; param < n_params; ++param) {
          operand ops[3];
          for (int k = 0; k < op->arity; ++k)
            make_operand(&ops[k], operand_dtype(op, k, d), kTrials[trial][k], 7 * k + trial,
                         operand_pool(op, k, d));
          ref = NULL;
          CHECK(cpu_run(op, fn, ops, param, &ref) == TFE_OK, "cpu %s", op->name);
          int32_t out_dtype = TFE_BOOL;
          CHECK(tfe_tensor_dtype(ref, &out_dtype) == TFE_OK, "dtype");
          unsigned char want[NEL * 16], got[NEL * 16];
          CHECK(tfe_tensor_to_data(ref, want, sizeof want) == TFE_OK, "to_data");
          tfe_tensor_release(ref);
          dev_buf out = {NULL, NEL * itemsize(out_dtype)};
          OK(P->allocate(0, out.bytes, &out.ptr));
          int64_t out_strides[2] = {1, ROWS};
          tfe_dev_view out_view = {out.ptr, out_dtype, 2, kShape, out_strides};
          tfe_dev_view in[3];
          for (int k = 0; k < op->arity; ++k) in[k] = ops[k].view;
          int32_t rc = P->elementwise(0, id, param, &out_view, op->arity, in);
          CHECK(rc == 0, "%s on %s (trial %d): %s", op->name, kDtypeNames[d], trial,
                P->last_error());
          download(got, out);
          for (int64_t i = 0; rc == 0 && i < NEL; ++i)
            if (!same_element(out_dtype, got, want, i, tolerance(out_dtype))) {
              double complex g = value_at(out_dtype, got, i), w = value_at(out_dtype, want, i);
              CHECK(0,
                    "%s on %s (trial %d, param %lld) element %lld: cuda %.17g%+.17gi, cpu "
                    "%.17g%+.17gi",
                    op->name, kDtypeNames[d], trial, (long long)param, (long long)i, creal(g),
                    cimag(g), creal(w), cimag(w));
              break;
            }
          drop(out);
          for (int k = 0; k < op->arity; ++k) drop(ops[k].dev);
        }
    }
  }
}

/* Integer division, remainder and power report a bad right operand as TFE_ERR_NUMERICAL. */
static void check_integer_errors(void) {
  const char* names[3] = {"div", "rem", "pow"};
  const int32_t bad[3] = {0, 0, -1};
  for (int n = 0; n < 3; ++n)
    for (int32_t d = TFE_I32; d <= TFE_I64; ++d) {
      int32_t id = -1;
      OK(P->elementwise_lookup(names[n], d, &id));
      int64_t a[4] = {1, 2, 3, 4}, b[4] = {1, 1, 1, 1};
      if (d == TFE_I32) {
        int32_t a32[4] = {1, 2, 3, 4}, b32[4] = {1, 1, bad[n], 1};
        memcpy(a, a32, sizeof a32);
        memcpy(b, b32, sizeof b32);
      } else {
        b[2] = bad[n];
      }
      dev_buf da = upload(a, 4 * itemsize(d)), db = upload(b, 4 * itemsize(d)),
              dout = {NULL, 4 * itemsize(d)};
      OK(P->allocate(0, dout.bytes, &dout.ptr));
      int64_t shape[1] = {4}, strides[1] = {1};
      tfe_dev_view in[2] = {{da.ptr, d, 1, shape, strides}, {db.ptr, d, 1, shape, strides}};
      tfe_dev_view out = {dout.ptr, d, 1, shape, strides};
      int32_t rc = P->elementwise(0, id, 0, &out, 2, in);
      CHECK(rc == TFE_ERR_NUMERICAL, "%s on %s with a bad right operand: status %d", names[n],
            kDtypeNames[d], rc);
      CHECK(strstr(P->last_error(), "integer") != NULL, "message: %s", P->last_error());
      drop(da), drop(db), drop(dout);
    }
}

/* Complex special cases against the CPU backend: zero operands, exact small integer powers, and a
 * product whose imaginary part cancels exactly (it would not with a fused multiply-add). */
static void check_complex_specials(void) {
  enum { N = 8 };
  static const double a[N][2] = {{0, 0},     {1, 2}, {1, 2}, {0, 0},
                                 {0.1, 0.3}, {0, 0}, {2, 0}, {-1.5, 0}};
  static const double b[N][2] = {{0, 0},      {3, 0},     {-2, 0}, {2, 0},
                                 {0.1, -0.3}, {0.5, 0.5}, {0, 0},  {2, 0}};
  static const op_row rows[] = {{"add", 2, K_PLAIN},  {"mul", 2, K_PLAIN}, {"pow", 2, K_POW},
                                {"sign", 1, K_PLAIN}, {"abs", 1, K_PLAIN}, {"exp", 1, K_PLAIN}};
  const int64_t shape[1] = {N}, unit[1] = {1};
  for (int32_t d = TFE_C32; d <= TFE_C64; ++d)
    for (int r = 0; r < COUNT(rows); ++r) {
      operand ops[2];
      memset(ops, 0, sizeof ops);
      for (int k = 0; k < rows[r].arity; ++k) {
        const double(*v)[2] = k == 0 ? a : b;
        ops[k].dtype = d;
        for (int i = 0; i < N; ++i) {
          if (d == TFE_C32) {
            float f[2] = {(float)v[i][0], (float)v[i][1]};
            memcpy(ops[k].logical + i * 8, f, sizeof f);
          } else {
            memcpy(ops[k].logical + i * 16, v[i], 16);
          }
        }
        ops[k].dev = upload(ops[k].logical, N * itemsize(d));
        ops[k].view.data = ops[k].dev.ptr;
        ops[k].view.dtype = d;
        ops[k].view.rank = 1;
        ops[k].view.shape = shape;
        ops[k].view.strides = unit;
      }
      tfe_tensor* t[2] = {cpu_tensor(d, 1, shape, ops[0].logical),
                          rows[r].arity > 1 ? cpu_tensor(d, 1, shape, ops[1].logical) : NULL};
      void* fn = c_function(rows[r].name);
      tfe_tensor* ref = NULL;
      tfe_status st = rows[r].arity == 1 ? as_fn1(fn)(&ref, t[0]) : as_fn2(fn)(&ref, t[0], t[1]);
      CHECK(st == TFE_OK, "cpu %s", rows[r].name);
      int32_t out_dtype = d;
      CHECK(tfe_tensor_dtype(ref, &out_dtype) == TFE_OK, "dtype");
      unsigned char want[N * 16], got[N * 16];
      CHECK(tfe_tensor_to_data(ref, want, sizeof want) == TFE_OK, "to_data");
      int32_t id = -1;
      OK(P->elementwise_lookup(rows[r].name, d, &id));
      dev_buf out = {NULL, N * itemsize(out_dtype)};
      OK(P->allocate(0, out.bytes, &out.ptr));
      tfe_dev_view ov = {out.ptr, out_dtype, 1, shape, unit};
      tfe_dev_view in[2] = {ops[0].view, ops[1].view};
      OK(P->elementwise(0, id, 0, &ov, rows[r].arity, in));
      download(got, out);
      for (int64_t i = 0; i < N; ++i)
        CHECK(same_element(out_dtype, got, want, i, tolerance(out_dtype)),
              "%s on %s special element %lld", rows[r].name, kDtypeNames[d], (long long)i);
      if (strcmp(rows[r].name, "mul") == 0)
        CHECK(cimag(value_at(d, got, 4)) == 0.0, "z * conj(z) has an exactly zero imaginary part");
      tfe_tensor_release(ref);
      tfe_tensor_release(t[0]);
      tfe_tensor_release(t[1]);
      drop(out);
      for (int k = 0; k < rows[r].arity; ++k) drop(ops[k].dev);
    }
}

/* ---- conversions and fill ------------------------------------------------------------------ */

static void check_conversions(void) {
  for (int32_t from = TFE_BOOL; from <= TFE_C64; ++from) {
    operand src;
    make_operand(&src, from, L_TRANSPOSED, 3, POOL_ANY);
    tfe_tensor* x = cpu_tensor(from, 2, kShape, src.logical);
    for (int32_t to = TFE_BOOL; to <= TFE_C64; ++to) {
      tfe_tensor* ref = NULL;
      CHECK(tfe_cast(&ref, x, to) == TFE_OK, "cpu cast");
      unsigned char want[NEL * 16], got[2 * NEL * 16], sentinel[16];
      CHECK(tfe_tensor_to_data(ref, want, sizeof want) == TFE_OK, "to_data");
      tfe_tensor_release(ref);
      /* The result goes to every other element of a buffer of twice the size. */
      size_t s = itemsize(to);
      memset(got, 0x5a, sizeof got);
      memset(sentinel, 0x5a, sizeof sentinel);
      dev_buf out = upload(got, 2 * NEL * s);
      int64_t strides[2] = {2, 2 * ROWS};
      tfe_dev_view out_view = {out.ptr, to, 2, kShape, strides};
      int32_t rc = P->copy_strided(0, &out_view, &src.view);
      CHECK(rc == 0, "copy_strided %s -> %s: %s", kDtypeNames[from], kDtypeNames[to],
            P->last_error());
      download(got, out);
      for (int64_t i = 0; i < NEL; ++i) {
        CHECK(same_value(to, got + 2 * i * s, want + i * s, 0.0), "convert %s -> %s element %lld",
              kDtypeNames[from], kDtypeNames[to], (long long)i);
        CHECK(memcmp(got + (2 * i + 1) * s, sentinel, s) == 0, "convert wrote outside its view");
      }
      drop(out);
    }
    tfe_tensor_release(x);
    drop(src.dev);
  }
}

static void check_fill(void) {
  for (int32_t d = TFE_BOOL; d <= TFE_C64; ++d) {
    size_t s = itemsize(d);
    unsigned char value[16], got[2 * NEL * 16], sentinel[16];
    sample(d, 6, POOL_ANY, value);
    memset(got, 0x33, sizeof got);
    memset(sentinel, 0x33, sizeof sentinel);
    dev_buf out = upload(got, 2 * NEL * s);
    int64_t strides[2] = {2, 2 * ROWS};
    tfe_dev_view view = {out.ptr, d, 2, kShape, strides};
    OK(P->fill(0, &view, value));
    download(got, out);
    for (int64_t i = 0; i < NEL; ++i) {
      CHECK(memcmp(got + 2 * i * s, value, s) == 0, "fill %s element %lld", kDtypeNames[d],
            (long long)i);
      CHECK(memcmp(got + (2 * i + 1) * s, sentinel, s) == 0, "fill wrote outside its view");
    }
    drop(out);
  }
}

/* ---- reductions ---------------------------------------------------------------------------- */

static void check_reductions(void) {
  static const char* const names[4] = {"reduce_sum", "reduce_prod", "reduce_max", "reduce_min"};
  const int64_t shape[3] = {3, 4, 5};
  /* Storage of a 5x3x4 array, viewed as 3x4x5 (a permuted view). */
  const int64_t strides[3] = {5, 15, 1};
  enum { N = 60 };
  for (int kind = 0; kind < 4; ++kind) {
    void* sym = c_function(names[kind]);
    CHECK(sym != NULL, "no C function for %s", names[kind]);
    if (sym == NULL) continue;
    fnred fn = as_fnred(sym);
    for (int32_t d = TFE_BOOL; d <= TFE_C64; ++d) {
      size_t s = itemsize(d);
      unsigned char buf[N * 16], logical[N * 16];
      for (int i = 0; i < N; ++i) sample(d, i * 3 + kind, POOL_ANY, buf + i * s);
      /* Products of 60 samples overflow floats: keep magnitudes near 1 for prod. */
      if (kind == 1 && !is_int(d))
        for (int i = 0; i < N; ++i) {
          double complex v = 1.0 + 0.01 * (i % 7) + (is_complex(d) ? 0.02 * I * (i % 3) : 0);
          if (d == TFE_F32) *(float*)(buf + i * s) = (float)creal(v);
          if (d == TFE_F64) *(double*)(buf + i * s) = creal(v);
          if (d == TFE_C32)
            ((float*)(buf + i * s))[0] = (float)creal(v),
                                ((float*)(buf + i * s))[1] = (float)cimag(v);
          if (d == TFE_C64)
            ((double*)(buf + i * s))[0] = creal(v), ((double*)(buf + i * s))[1] = cimag(v);
        }
      for (int64_t k = 0; k < 5; ++k)
        for (int64_t j = 0; j < 4; ++j)
          for (int64_t i = 0; i < 3; ++i)
            memcpy(logical + (i + 3 * j + 12 * k) * s,
                   buf + (i * strides[0] + j * strides[1] + k * strides[2]) * s, s);
      tfe_tensor* x = cpu_tensor(d, 3, shape, logical);
      dev_buf dx = upload(buf, N * s);
      tfe_dev_view in = {dx.ptr, d, 3, shape, strides};
      for (uint64_t mask = 0; mask < 8; ++mask) {
        int64_t axes[3];
        int32_t n_axes = 0, out_rank = 0;
        int64_t out_shape[3], out_strides[3], out_n = 1;
        for (int dim = 0; dim < 3; ++dim) {
          if ((mask >> dim) & 1u) {
            axes[n_axes++] = dim;
          } else {
            out_strides[out_rank] = out_n;
            out_shape[out_rank++] = shape[dim];
            out_n *= shape[dim];
          }
        }
        tfe_tensor* ref = NULL;
        /* n_axes == 0 means every axis in the C API: the empty mask is a copy, skipped there. */
        if (n_axes == 0) continue;
        tfe_status st = fn(&ref, x, n_axes, axes);
        dev_buf out = {NULL, (size_t)out_n * s};
        OK(P->allocate(0, out.bytes, &out.ptr));
        tfe_dev_view ov = {out.ptr, d, out_rank, out_shape, out_strides};
        int32_t rc = P->reduce(0, kind, mask, &ov, &in);
        if (st != TFE_OK) {
          CHECK(rc == TFE_ERR_NOT_SUPPORTED, "%s on %s: the op table rejects it, cuda gives %d",
                names[kind], kDtypeNames[d], rc);
        } else {
          CHECK(rc == 0, "%s on %s mask %llu: %s", names[kind], kDtypeNames[d],
                (unsigned long long)mask, P->last_error());
          unsigned char want[N * 16], got[N * 16];
          CHECK(tfe_tensor_to_data(ref, want, sizeof want) == TFE_OK, "to_data");
          download(got, out);
          for (int64_t i = 0; rc == 0 && i < out_n; ++i)
            CHECK(same_element(d, got, want, i, (d == TFE_F32 || d == TFE_C32) ? 1e-5 : 1e-12),
                  "%s on %s mask %llu element %lld", names[kind], kDtypeNames[d],
                  (unsigned long long)mask, (long long)i);
        }
        tfe_tensor_release(ref);
        drop(out);
      }
      drop(dx);
      tfe_tensor_release(x);
    }
  }
}

/* Large reductions take the block and split paths; sums of small integers are exact. */
static void check_large_reductions(void) {
  enum { N = 1 << 20 };
  double* x = malloc(N * sizeof(double));
  float* f = malloc(N * sizeof(float));
  double total = 0;
  for (int i = 0; i < N; ++i) x[i] = (double)(i % 7), f[i] = 1.0f, total += (double)(i % 7);
  x[N / 3] = NAN;
  dev_buf dx = upload(x, N * sizeof(double)), df = upload(f, N * sizeof(float));
  int64_t shape1[1] = {N}, unit[1] = {1};
  double got = 0;
  float gotf = 0;
  dev_buf out = {NULL, 16};
  OK(P->allocate(0, 16, &out.ptr));
  tfe_dev_view vf = {df.ptr, TFE_F32, 1, shape1, unit};
  tfe_dev_view scalar_f = {out.ptr, TFE_F32, 0, NULL, NULL};
  OK(P->reduce(0, TFE_PLUGIN_REDUCE_SUM, 1u, &scalar_f, &vf));
  OK(P->copy_to_host(0, &gotf, out.ptr, sizeof gotf));
  CHECK(gotf == (float)N, "sum of %d F32 ones: %g", N, (double)gotf);
  tfe_dev_view vx = {dx.ptr, TFE_F64, 1, shape1, unit};
  tfe_dev_view scalar_d = {out.ptr, TFE_F64, 0, NULL, NULL};
  OK(P->reduce(0, TFE_PLUGIN_REDUCE_MAX, 1u, &scalar_d, &vx));
  OK(P->copy_to_host(0, &got, out.ptr, sizeof got));
  CHECK(isnan(got), "max with a NaN: %g", got);
  x[N / 3] = (double)((N / 3) % 7);
  OK(P->copy_to_device(0, dx.ptr, x, N * sizeof(double)));
  OK(P->reduce(0, TFE_PLUGIN_REDUCE_SUM, 1u, &scalar_d, &vx));
  OK(P->copy_to_host(0, &got, out.ptr, sizeof got));
  CHECK(got == total, "sum of %d F64 values: %.17g, expected %.17g", N, got, total);
  /* 1024 x 1024 viewed both ways: one sum per column (block path) and per row. */
  int64_t shape2[2] = {1024, 1024}, strides2[2] = {1, 1024}, out_stride[1] = {1},
          out_shape[1] = {1024};
  dev_buf col = {NULL, 1024 * sizeof(double)};
  OK(P->allocate(0, col.bytes, &col.ptr));
  double* sums = malloc(1024 * sizeof(double));
  tfe_dev_view v2 = {dx.ptr, TFE_F64, 2, shape2, strides2};
  tfe_dev_view vo = {col.ptr, TFE_F64, 1, out_shape, out_stride};
  for (int axis = 0; axis < 2; ++axis) {
    OK(P->reduce(0, TFE_PLUGIN_REDUCE_SUM, 1u << axis, &vo, &v2));
    OK(P->copy_to_host(0, sums, col.ptr, col.bytes));
    for (int64_t j = 0; j < 1024; ++j) {
      double want = 0;
      for (int64_t i = 0; i < 1024; ++i) want += axis == 0 ? x[i + 1024 * j] : x[j + 1024 * i];
      if (sums[j] != want) {
        CHECK(0, "sum over axis %d, output %lld: %.17g, expected %.17g", axis, (long long)j,
              sums[j], want);
        break;
      }
    }
  }
  free(sums);
  drop(col), drop(out), drop(dx), drop(df);
  free(x), free(f);
}

/* ---- gemm and triangle --------------------------------------------------------------------- */

static double complex get_c(int32_t d, const void* p, int64_t i) { return value_at(d, p, i); }
static void set_c(int32_t d, void* p, int64_t i, double complex v) {
  char* b = (char*)p + (size_t)i * itemsize(d);
  if (d == TFE_F32) *(float*)b = (float)creal(v);
  if (d == TFE_F64) *(double*)b = creal(v);
  if (d == TFE_C32) ((float*)b)[0] = (float)creal(v), ((float*)b)[1] = (float)cimag(v);
  if (d == TFE_C64) ((double*)b)[0] = creal(v), ((double*)b)[1] = cimag(v);
}

static double complex op_elem(int32_t d, const void* a, char t, int64_t ld, int64_t base, int64_t i,
                              int64_t j) {
  /* element (i, j) of op(A): A(i, j), A(j, i) or conj(A(j, i)) */
  double complex v = t == 'N' ? get_c(d, a, base + i + j * ld) : get_c(d, a, base + j + i * ld);
  return (t == 'C' && is_complex(d)) ? conj(v) : v;
}

static void check_gemm(void) {
  const char trans[3] = {'N', 'T', 'C'};
  const int64_t m = 5, n = 4, batch = 3;
  for (int64_t k = 3; k >= 0; k -= 3) /* k = 0: C = beta C */
    for (int32_t d = TFE_F32; d <= TFE_C64; ++d)
      for (int ta = 0; ta < 3; ++ta)
        for (int tb = 0; tb < 3; ++tb) {
          size_t s = itemsize(d);
          int64_t ar = trans[ta] == 'N' ? m : k, ac = trans[ta] == 'N' ? k : m;
          int64_t br = trans[tb] == 'N' ? k : n, bc = trans[tb] == 'N' ? n : k;
          int64_t lda = ar + 1, ldb = br + 2, ldc = m + 1;
          int64_t sa = lda * ac + 3, sb = ldb * bc + 1, sc = ldc * n + 2;
          size_t na = (size_t)(sa * batch), nb = (size_t)(sb * batch), nc = (size_t)(sc * batch);
          unsigned char* a = malloc(na * s);
          unsigned char* b = malloc(nb * s);
          unsigned char* c = malloc(nc * s);
          unsigned char* got = malloc(nc * s);
          for (size_t i = 0; i < na; ++i)
            set_c(d, a, (int64_t)i, 0.25 * (double)(i % 11) - 1 + I * 0.125 * (double)(i % 5));
          for (size_t i = 0; i < nb; ++i)
            set_c(d, b, (int64_t)i, 0.5 * (double)(i % 7) - 1.5 - I * 0.25 * (double)(i % 3));
          for (size_t i = 0; i < nc; ++i) set_c(d, c, (int64_t)i, 0.1 * (double)(i % 13));
          unsigned char alpha[16], beta[16];
          set_c(d, alpha, 0, 1.5 + 0.5 * I);
          set_c(d, beta, 0, 0.5 - 0.25 * I);
          dev_buf da = upload(a, na * s), db = upload(b, nb * s), dc = upload(c, nc * s);
          int32_t rc = P->gemm(0, d, trans[ta], trans[tb], m, n, k, alpha, da.ptr, lda, sa, db.ptr,
                               ldb, sb, beta, dc.ptr, ldc, sc, batch);
          CHECK(rc == 0, "gemm %s %c%c k %lld: %s", kDtypeNames[d], trans[ta], trans[tb],
                (long long)k, P->last_error());
          download(got, dc);
          double complex al = get_c(d, alpha, 0), be = get_c(d, beta, 0);
          for (int64_t q = 0; q < batch && rc == 0; ++q)
            for (int64_t j = 0; j < n; ++j)
              for (int64_t i = 0; i < m; ++i) {
                double complex acc = 0;
                for (int64_t l = 0; l < k; ++l)
                  acc += op_elem(d, a, trans[ta], lda, q * sa, i, l) *
                         op_elem(d, b, trans[tb], ldb, q * sb, l, j);
                int64_t at = q * sc + i + j * ldc;
                double complex want = al * acc + be * get_c(d, c, at);
                double complex have = get_c(d, got, at);
                double tol = (d == TFE_F32 || d == TFE_C32) ? 1e-4 : 1e-12;
                CHECK(cabs(have - want) <= tol * (1 + cabs(want)),
                      "gemm %s %c%c batch %lld (%lld, %lld)", kDtypeNames[d], trans[ta], trans[tb],
                      (long long)q, (long long)i, (long long)j);
              }
          drop(da), drop(db), drop(dc);
          free(a), free(b), free(c), free(got);
        }
}

static void check_triangle(void) {
  const int64_t shape[3] = {4, 5, 2};
  const int64_t in_strides[3] = {5, 1, 20}; /* rows and columns swapped in storage */
  const int64_t out_strides[3] = {1, 4, 20};
  const int32_t dtypes[3] = {TFE_BOOL, TFE_F64, TFE_C64};
  for (int t = 0; t < 3; ++t)
    for (int lower = 0; lower < 2; ++lower)
      for (int64_t kk = -1; kk <= 2; ++kk) {
        int32_t d = dtypes[t];
        size_t s = itemsize(d);
        unsigned char in[40 * 16], got[40 * 16], zero[16];
        memset(zero, 0, sizeof zero);
        for (int i = 0; i < 40; ++i) sample(d, i + 1, POOL_DIVISOR, in + i * s);
        dev_buf din = upload(in, 40 * s), dout = {NULL, 40 * s};
        OK(P->allocate(0, dout.bytes, &dout.ptr));
        tfe_dev_view vi = {din.ptr, d, 3, shape, in_strides},
                     vo = {dout.ptr, d, 3, shape, out_strides};
        OK(P->triangle(0, lower, kk, &vo, &vi));
        download(got, dout);
        for (int64_t b = 0; b < 2; ++b)
          for (int64_t j = 0; j < 5; ++j)
            for (int64_t i = 0; i < 4; ++i) {
              int keep = lower ? j - i <= kk : j - i >= kk;
              const unsigned char* want = keep ? in + (i * 5 + j + 20 * b) * s : zero;
              CHECK(memcmp(got + (i + 4 * j + 20 * b) * s, want, s) == 0,
                    "triangle %s lower %d k %lld at (%lld, %lld, %lld)", kDtypeNames[d], lower,
                    (long long)kk, (long long)i, (long long)j, (long long)b);
            }
        drop(din), drop(dout);
      }
}

/* ---- memory and copies --------------------------------------------------------------------- */

static void check_memory(void) {
  void *p = NULL, *q = NULL;
  OK(P->allocate(0, 0, &p));
  OK(P->allocate(0, 0, &q));
  CHECK(p != NULL && q != NULL && p != q, "zero-byte allocations are valid and unique");
  P->release(0, p, 0);
  P->release(0, q, 0);
  void* huge = (void*)&p;
  int32_t rc = P->allocate(0, (size_t)1 << 52, &huge);
  CHECK(rc == TFE_ERR_OUT_OF_MEMORY, "4 PiB allocation: status %d", rc);
  CHECK(huge == NULL, "a failed allocation sets *out to NULL");
  CHECK(strstr(P->last_error(), "4503599627370496") != NULL &&
            strstr(P->last_error(), "cuda:0") != NULL,
        "the message names bytes and device: %s", P->last_error());
  /* Allocations still work after the failure (it is not sticky). */
  enum { BYTES = 1000 };
  unsigned char host[BYTES], back[BYTES];
  for (int i = 0; i < BYTES; ++i) host[i] = (unsigned char)(i * 7 + 3);
  dev_buf a = upload(host, BYTES), b = {NULL, BYTES};
  OK(P->allocate(0, BYTES, &b.ptr));
  OK(P->copy_on_device(0, b.ptr, a.ptr, BYTES));
  OK(P->synchronize(0));
  memset(back, 0, sizeof back);
  download(back, b);
  CHECK(memcmp(host, back, BYTES) == 0, "host -> device -> device -> host round trip");
  OK(P->copy_to_host(0, back, b.ptr, 0));
  drop(a), drop(b);
  rc = P->synchronize(1 << 20);
  CHECK(rc == TFE_ERR_INVALID_ARGUMENT, "synchronize on a missing device: %d", rc);
}

static void check_argument_errors(void) {
  int32_t id = -1;
  OK(P->elementwise_lookup("add", TFE_F32, &id));
  int64_t shape[1] = {2}, strides[1] = {1};
  float buf[2] = {0, 0};
  tfe_dev_view v = {buf, TFE_F32, 1, shape, strides};
  int32_t rc = P->elementwise(0, id, 0, &v, 1, &v);
  CHECK(rc == TFE_ERR_INVALID_ARGUMENT, "add with one operand: %d", rc);
  CHECK(strlen(P->last_error()) > 0, "a message");
  tfe_dev_view wrong = {buf, TFE_I32, 1, shape, strides};
  tfe_dev_view two[2] = {v, wrong};
  rc = P->elementwise(0, id, 0, &v, 2, two);
  CHECK(rc == TFE_ERR_DTYPE_MISMATCH, "add with an I32 operand under the F32 id: %d", rc);
  rc = P->gemm(0, TFE_I32, 'N', 'N', 1, 1, 1, buf, buf, 1, 1, buf, 1, 1, buf, buf, 1, 1, 1);
  CHECK(rc == TFE_ERR_NOT_SUPPORTED, "integer gemm: %d", rc);
}

/* ---- indexing and ordering (gather, scatter, scan, arg_extremum, argsort) ------------------- */

/* The bytes of a CPU result (dtype and count as expected) into want. */
static void cpu_bytes(tfe_status st, tfe_tensor* t, void* want, size_t bytes, const char* what) {
  CHECK(st == TFE_OK, "cpu %s: %s", what, tfe_last_error_message());
  if (st == TFE_OK) CHECK(tfe_tensor_to_data(t, want, bytes) == TFE_OK, "cpu %s bytes", what);
  tfe_tensor_release(t);
}

/* The device buffer b holds want's elements of dtype d: bit-exact, except that any NaN equals any
 * NaN (a GPU's arithmetic makes canonical NaNs, the host's propagates payloads). */
static void expect_device(dev_buf b, int32_t d, const void* want, const char* what) {
  static unsigned char got[16384];
  download(got, b);
  int64_t n = (int64_t)(b.bytes / itemsize(d)), bad = 0;
  for (int64_t i = 0; i < n; ++i) bad += !same_element(d, got, want, i, 0);
  CHECK(bad == 0, "%s (%s): %lld of %lld elements differ from the CPU's", what, kDtypeNames[d],
        (long long)bad, (long long)n);
}

static void check_indexing(void) {
  enum { N = 24 };
  const int64_t xs[3] = {3, 4, 2}, xstr[3] = {1, 3, 12};
  const int64_t idx[5] = {3, 0, 3, 1, 2}, is[1] = {5}, istr[1] = {1};
  const int32_t dtypes[4] = {TFE_BOOL, TFE_I32, TFE_F64, TFE_C64};
  for (int t = 0; t < 4; ++t) {
    int32_t d = dtypes[t];
    size_t s = itemsize(d);
    unsigned char x[N * 16], u[30 * 16], want[60 * 16];
    for (int i = 0; i < N; ++i) sample(d, i + 1, POOL_ANY, x + i * s);
    for (int i = 0; i < 30; ++i) sample(d, i + 7, POOL_ANY, u + i * s);
    tfe_tensor* xt = cpu_tensor(d, 3, xs, x);
    tfe_tensor* it = cpu_tensor(TFE_I64, 1, is, idx);
    dev_buf dx = upload(x, N * s), di = upload(idx, sizeof idx), dout = {NULL, 30 * s};
    OK(P->allocate(0, dout.bytes, &dout.ptr));
    /* gather along dim 1: [3, 5, 2] */
    const int64_t os[3] = {3, 5, 2}, ostr[3] = {1, 3, 15};
    tfe_dev_view vx = {dx.ptr, d, 3, xs, xstr}, vi = {di.ptr, TFE_I64, 1, is, istr},
                 vo = {dout.ptr, d, 3, os, ostr};
    tfe_tensor* r = NULL;
    cpu_bytes(tfe_gather(&r, xt, it, 1), r, want, 30 * s, "gather");
    OK(P->gather(0, TFE_PLUGIN_INDEX_AXIS, &vo, &vx, &vi));
    expect_device(dout, d, want, "gather");
    /* scatter-add of u [3, 5, 2] into a copy of x (index 3 three times, in order) */
    tfe_tensor* ut = cpu_tensor(d, 3, os, u);
    dev_buf du = upload(u, 30 * s), dy = upload(x, N * s);
    tfe_dev_view vu = {du.ptr, d, 3, os, ostr}, vy = {dy.ptr, d, 3, xs, xstr};
    r = NULL;
    cpu_bytes(tfe_scatter(&r, xt, it, ut, 1), r, want, N * s, "scatter");
    OK(P->scatter(0, TFE_PLUGIN_INDEX_AXIS, &vy, &vu, &vi));
    expect_device(dy, d, want, "scatter");
    /* blocks at clamped starts (I32): [2, 3, 1] at (1, 9 -> 1, -1 -> 0) */
    const int32_t st[3] = {1, 9, -1};
    const int64_t bs[3] = {2, 3, 1}, bstr[3] = {1, 2, 6}, ss[1] = {3};
    tfe_tensor* stt = cpu_tensor(TFE_I32, 1, ss, st);
    dev_buf dst = upload(st, sizeof st);
    tfe_dev_view vs = {dst.ptr, TFE_I32, 1, ss, istr}, vb = {dout.ptr, d, 3, bs, bstr};
    r = NULL;
    cpu_bytes(tfe_dynamic_slice(&r, xt, stt, 3, bs), r, want, 6 * s, "dynamic_slice");
    OK(P->gather(0, TFE_PLUGIN_INDEX_BLOCK, &vb, &vx, &vs));
    dev_buf six = {dout.ptr, 6 * s};
    expect_device(six, d, want, "dynamic_slice");
    tfe_tensor* bt = cpu_tensor(d, 3, bs, u);
    dev_buf dbu = upload(u, 6 * s), dz = upload(x, N * s);
    tfe_dev_view vbu = {dbu.ptr, d, 3, bs, bstr}, vz = {dz.ptr, d, 3, xs, xstr};
    r = NULL;
    cpu_bytes(tfe_dynamic_update_slice(&r, xt, bt, stt), r, want, N * s, "dynamic_update_slice");
    OK(P->scatter(0, TFE_PLUGIN_INDEX_BLOCK, &vz, &vbu, &vs));
    expect_device(dz, d, want, "dynamic_update_slice");
    /* an index out of range */
    const int64_t bad[5] = {0, 1, 4, 2, -1};
    dev_buf dbad = upload(bad, sizeof bad);
    tfe_dev_view vbad = {dbad.ptr, TFE_I64, 1, is, istr};
    CHECK(P->gather(0, TFE_PLUGIN_INDEX_AXIS, &vo, &vx, &vbad) == TFE_ERR_INVALID_ARGUMENT,
          "gather out of range (%s)", kDtypeNames[d]);
    CHECK(P->scatter(0, TFE_PLUGIN_INDEX_AXIS, &vy, &vu, &vbad) == TFE_ERR_INVALID_ARGUMENT,
          "scatter out of range (%s)", kDtypeNames[d]);
    tfe_tensor_release(xt), tfe_tensor_release(it), tfe_tensor_release(ut);
    tfe_tensor_release(stt), tfe_tensor_release(bt);
    drop(dx), drop(di), drop(dout), drop(du), drop(dy), drop(dst), drop(dbu), drop(dz), drop(dbad);
  }
}

/* Lines of 600 (a block per line for arg_extremum) and of 3 (a thread per line). */
static void check_order(void) {
  enum { R = 600, C = 3, N = R * C };
  const int64_t shape[2] = {R, C}, strides[2] = {1, R};
  const int32_t dtypes[5] = {TFE_BOOL, TFE_I32, TFE_I64, TFE_F32, TFE_F64};
  static unsigned char x[N * 8], want[N * 8];
  for (int t = 0; t < 5; ++t) {
    int32_t d = dtypes[t];
    size_t s = itemsize(d);
    for (int i = 0; i < N; ++i) sample(d, (i * 7) % 23, POOL_ANY, x + i * s);
    tfe_tensor* xt = cpu_tensor(d, 2, shape, x);
    dev_buf dx = upload(x, N * s), dout = {NULL, N * 8};
    OK(P->allocate(0, dout.bytes, &dout.ptr));
    tfe_dev_view vx = {dx.ptr, d, 2, shape, strides};
    for (int axis = 0; axis < 2; ++axis) {
      /* scans (numeric dtypes): same dtype and shape */
      if (d != TFE_BOOL)
        for (int kind = TFE_PLUGIN_REDUCE_SUM; kind <= TFE_PLUGIN_REDUCE_PROD; ++kind) {
          tfe_tensor* r = NULL;
          cpu_bytes(kind == TFE_PLUGIN_REDUCE_SUM ? tfe_cumsum(&r, xt, axis)
                                                  : tfe_cumprod(&r, xt, axis),
                    r, want, N * s, "scan");
          tfe_dev_view vo = {dout.ptr, d, 2, shape, strides};
          OK(P->scan(0, kind, axis, &vo, &vx));
          dev_buf part = {dout.ptr, N * s};
          expect_device(part, d, want, kind == TFE_PLUGIN_REDUCE_SUM ? "cumsum" : "cumprod");
        }
      for (int desc = 0; desc < 2; ++desc) {
        tfe_tensor* r = NULL;
        cpu_bytes(tfe_argsort(&r, xt, axis, desc), r, want, N * 8, "argsort");
        tfe_dev_view vo = {dout.ptr, TFE_I64, 2, shape, strides};
        OK(P->argsort(0, desc, axis, &vo, &vx));
        expect_device(dout, TFE_I64, want, desc ? "argsort descending" : "argsort");
      }
      for (int mx = 0; mx < 2; ++mx) {
        tfe_tensor* r = NULL;
        int64_t lines = axis == 0 ? C : R;
        cpu_bytes(mx ? tfe_argmax(&r, xt, axis) : tfe_argmin(&r, xt, axis), r, want,
                  (size_t)lines * 8, "arg_extremum");
        int64_t oshape[2] = {axis == 0 ? 1 : R, axis == 0 ? C : 1};
        int64_t ostr[2] = {axis == 0 ? 0 : 1, axis == 0 ? 1 : 0};
        tfe_dev_view vo = {dout.ptr, TFE_I64, 2, oshape, ostr};
        OK(P->arg_extremum(0, mx, axis, &vo, &vx));
        dev_buf part = {dout.ptr, (size_t)lines * 8};
        expect_device(part, TFE_I64, want, mx ? "argmax" : "argmin");
      }
    }
    tfe_tensor_release(xt);
    drop(dx), drop(dout);
  }
}

int main(int argc, char** argv) {
  void* lib = load_plugin(argc, argv);
  if (lib == NULL) return 1;
  CHECK(P->name != NULL && strcmp(P->name, "cuda") == 0, "name");
  CHECK(P->last_error && P->device_count && P->allocate && P->release && P->copy_to_device &&
            P->copy_to_host && P->copy_on_device && P->synchronize && P->elementwise_lookup &&
            P->elementwise && P->copy_strided && P->fill && P->reduce && P->gemm && P->triangle,
        "every entry is set");
  CHECK(P->gather && P->scatter && P->scan && P->arg_extremum && P->argsort,
        "the indexing and ordering entries are set");
  /* Only the entry point is exported. */
  CHECK(dlsym(lib, "_ZN3tfe4cuda4fillEiPK12tfe_dev_viewPKv") == NULL,
        "internal symbols are hidden");

  int32_t n = -1;
  int32_t rc = P->device_count(&n);
  CHECK(rc == 0 && n >= 0, "device_count: status %d, %d devices: %s", rc, n, P->last_error());
  CHECK(P->device_count(NULL) == TFE_ERR_INVALID_ARGUMENT, "device_count(NULL)");
  printf("cuda plugin: %d device(s)\n", n);
  CHECK(tfe_context_create(&ctx) == TFE_OK, "context");

  if (n <= 0) {
    void* p = (void*)&n;
    rc = P->allocate(0, 16, &p);
    CHECK(rc == TFE_ERR_INVALID_ARGUMENT && p == NULL, "allocate without a device: %d", rc);
    CHECK(strstr(P->last_error(), "cuda:0") != NULL, "message names the device: %s",
          P->last_error());
    check_elementwise(0); /* lookups need no device */
    const int64_t one[1] = {1}, unit[1] = {1};
    int64_t buf[1] = {0};
    tfe_dev_view v = {buf, TFE_I64, 1, one, unit};
    rc = P->argsort(0, 0, 0, &v, &v);
    CHECK(rc == TFE_ERR_INVALID_ARGUMENT, "argsort without a device: %d", rc);
    rc = P->gather(0, TFE_PLUGIN_INDEX_AXIS, &v, &v, &v);
    CHECK(rc == TFE_ERR_SHAPE_MISMATCH, "gather checks its views first: %d", rc);
    printf("SKIP: no CUDA device (kernel, memory, reduction, gemm and copy checks not run)\n");
  } else {
    check_memory();
    check_argument_errors();
    check_elementwise(1);
    check_integer_errors();
    check_complex_specials();
    check_conversions();
    check_fill();
    check_reductions();
    check_large_reductions();
    check_gemm();
    check_triangle();
    check_indexing();
    check_order();
  }
  tfe_context_release(ctx);
  printf("%d checks, %d failures\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
