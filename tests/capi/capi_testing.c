/* Implementation of the shared cmocka helpers (capi_testing.h). */
#include "capi_testing.h"

#include <stdlib.h>
#include <string.h>

tfe_context* new_ctx(void) {
  tfe_context* ctx = NULL;
  TFE_OK_OR_FAIL(tfe_context_create(&ctx));
  return ctx;
}

tfe_tensor* f64(tfe_context* ctx, int32_t ndim, const int64_t* shape, const double* v) {
  tfe_tensor* t = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&t, ctx, TFE_F64, ndim, shape, NULL, v));
  return t;
}

int64_t dtype_size(int32_t dtype) {
  switch (dtype) {
  case TFE_BOOL: return 1;
  case TFE_I32: return 4;
  case TFE_I64: return 8;
  case TFE_F32: return 4;
  case TFE_F64: return 8;
  case TFE_C32: return 8;
  case TFE_C64: return 16;
  default: return 0;
  }
}

tfe_tensor* tensor_of_pattern(tfe_context* ctx, int32_t dtype, int32_t ndim, const int64_t* shape,
                              const struct value_pattern* pat) {
  int64_t n = 1;
  for (int32_t d = 0; d < ndim; ++d) n *= shape[d];
  int64_t size = dtype_size(dtype);
  unsigned char* buf = calloc((size_t)(n > 0 ? n : 1), (size_t)size);
  for (int64_t i = 0; i < n; ++i) {
    unsigned char* p = buf + i * size;
    switch (dtype) {
    case TFE_BOOL: *p = (unsigned char)(pat->boolean(i) != 0); break;
    case TFE_I32: {
      int64_t w = pat->integer(i);
      int32_t v = w < INT32_MIN || w > INT32_MAX ? INT32_MIN : (int32_t)w;
      memcpy(p, &v, 4);
      break;
    }
    case TFE_I64: {
      int64_t v = pat->integer(i);
      memcpy(p, &v, 8);
      break;
    }
    case TFE_F32: {
      float v = (float)pat->real(i);
      memcpy(p, &v, 4);
      break;
    }
    case TFE_F64: {
      double v = pat->real(i);
      memcpy(p, &v, 8);
      break;
    }
    case TFE_C32: {
      float v[2] = {(float)pat->real(i), (float)pat->imag(i)};
      memcpy(p, v, 8);
      break;
    }
    case TFE_C64: {
      double v[2] = {pat->real(i), pat->imag(i)};
      memcpy(p, v, 16);
      break;
    }
    default: break;
    }
  }
  tfe_tensor* t = NULL;
  tfe_status s = tfe_tensor_from_data(&t, ctx, dtype, ndim, shape, NULL, buf);
  free(buf);
  if (s != TFE_OK) fail_msg("tensor_of_pattern: %s", tfe_last_error_message());
  return t;
}

static int alternating(int64_t i) { return (int)(i % 2); }
static int64_t small_index(int64_t i) { return 1 + i % 3; }
static double quarter_steps(int64_t i) { return 1.0 + (double)i / 4; }
static double eighth_steps_down(int64_t i) { return 0.5 - (double)i / 8; }

tfe_tensor* make_tensor(tfe_context* ctx, int32_t dtype, int32_t ndim, const int64_t* shape) {
  static const struct value_pattern simple = {alternating, small_index, quarter_steps,
                                              eighth_steps_down};
  return tensor_of_pattern(ctx, dtype, ndim, shape, &simple);
}

unsigned char* tensor_bytes(const tfe_tensor* t, int64_t* n) {
  int64_t numel = 0;
  int32_t dtype = 0;
  TFE_OK_OR_FAIL(tfe_tensor_numel(t, &numel));
  TFE_OK_OR_FAIL(tfe_tensor_dtype(t, &dtype));
  *n = numel * dtype_size(dtype);
  unsigned char* buf = malloc((size_t)(*n > 0 ? *n : 1));
  TFE_OK_OR_FAIL(tfe_tensor_to_data(t, buf, *n));
  return buf;
}

static int64_t g_live_at_setup;

int leak_setup(void** state) {
  (void)state;
  g_live_at_setup = tfe_debug_live_objects();
  return 0;
}

int leak_teardown(void** state) {
  (void)state;
  int64_t start = g_live_at_setup;
  int64_t now = tfe_debug_live_objects();
  if (now != start) {
    print_error("leaked %lld handles\n", (long long)(now - start));
    return -1;
  }
  return 0;
}
