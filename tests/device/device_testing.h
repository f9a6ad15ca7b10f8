/* Helpers of the device suites: by default they run on the host-memory device double
 * (fake_plugin.cpp, two devices whose kernels are the host's); with the argument "real" on the
 * CUDA plugin (a skip line without a GPU). */
#ifndef TFE_DEVICE_TESTING_H
#define TFE_DEVICE_TESTING_H

#include "../capi/capi_testing.h"

/* The context each test makes (device_setup) and releases (device_teardown). */
extern tfe_context* ctx;
/* 1: the host-memory double (two devices, bit-identical kernels); 0: the real CUDA plugin. */
extern int g_fake;
/* The second device of the transfer and DLPack checks (device 0 again on a one-GPU machine). */
extern int32_t g_second;

/* t moved to CUDA device `ordinal`; fails the test on error. */
tfe_tensor* to_dev(const tfe_tensor* t, int32_t ordinal);
/* A host copy of t's values (t is detached first: the copy is a plain tensor). */
tfe_tensor* to_host(const tfe_tensor* t);
void expect_on(const tfe_tensor* t, int32_t kind, int32_t ordinal);
/* The device result, brought back, holds the host result's bytes (within tol for floats when
 * tol > 0, or on the real plugin). */
void expect_same(const tfe_tensor* host, const tfe_tensor* device, double tol);
/* Exactly the host result's bytes, except that any NaN equals any NaN. */
void expect_exact(const tfe_tensor* host, const tfe_tensor* device);
void release_all(tfe_tensor** objs, size_t n);
/* t's gradient (non-NULL; fails the test otherwise). */
tfe_tensor* grad_of(const tfe_tensor* t);
/* The blocks the device double holds (0 once every device tensor is released). */
int64_t device_blocks(void);

int device_setup(void** state);
int device_teardown(void** state);
/* Selects the plugin from argv ("real": the CUDA plugin). Returns -1 to run the suite, or the
 * exit code (0 after a skip line when "real" finds no device). */
int device_suite_start(int argc, char** argv, const char* suite);

#endif
