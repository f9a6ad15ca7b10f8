/* Helpers shared by the cmocka suites of the C ABI. */
#ifndef TFE_CAPI_TESTING_H
#define TFE_CAPI_TESTING_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <tenferro/tenferro.h>

/* Fails the test (with the library's message) unless the call returns TFE_OK. */
#define TFE_OK_OR_FAIL(call)                                                                       \
  do {                                                                                             \
    tfe_status s_ = (call);                                                                        \
    if (s_ != TFE_OK)                                                                              \
      fail_msg("%s -> %s: %s", #call, tfe_status_name(s_), tfe_last_error_message());              \
  } while (0)

/* Asserts status and that the message starts with the function name. */
#define EXPECT_STATUS(call, status, fn)                                                            \
  do {                                                                                             \
    tfe_status s_ = (call);                                                                        \
    if (s_ != (status))                                                                            \
      fail_msg("%s -> %s (expected %s): %s", #call, tfe_status_name(s_), tfe_status_name(status),  \
               tfe_last_error_message());                                                          \
    assert_true(strncmp(tfe_last_error_message(), fn, strlen(fn)) == 0);                           \
  } while (0)

/* A new context; fails the test when it cannot be created. */
tfe_context* new_ctx(void);
/* An F64 tensor of the given shape from column-major values; fails the test on error. */
tfe_tensor* f64(tfe_context* ctx, int32_t ndim, const int64_t* shape, const double* v);

/* The value of element i (column-major) for each kind of dtype; an integer outside I32's range
 * becomes INT32_MIN in an I32 tensor. */
struct value_pattern {
  int (*boolean)(int64_t i);
  int64_t (*integer)(int64_t i);
  double (*real)(int64_t i); /* also the real part of a complex element */
  double (*imag)(int64_t i);
};
/* A tensor of the given dtype and shape whose elements follow `pat`; fails the test on error. */
tfe_tensor* tensor_of_pattern(tfe_context* ctx, int32_t dtype, int32_t ndim, const int64_t* shape,
                              const struct value_pattern* pat);
/* A tensor of the given dtype and shape with a deterministic pattern: integers 1 + i % 3 (valid as
 * indices), Bool i % 2, floats 1 + i / 4, complex (1 + i/4, 0.5 - i/8). */
tfe_tensor* make_tensor(tfe_context* ctx, int32_t dtype, int32_t ndim, const int64_t* shape);
/* Bytes of a tensor's values (compact column-major) into a malloc'ed buffer; *n gets the size. */
unsigned char* tensor_bytes(const tfe_tensor* t, int64_t* n);
int64_t dtype_size(int32_t dtype);

/* Setup/teardown that check nothing leaked: the live-object count returns to its start. */
int leak_setup(void** state);
int leak_teardown(void** state);

#endif
