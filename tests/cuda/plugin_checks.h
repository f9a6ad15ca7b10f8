/* What the plugin's own test programs share: the loaded table and a non-fatal check that counts
 * (every failure is printed; the program's exit status reports them). */
#ifndef TFE_TESTS_CUDA_PLUGIN_CHECKS_H
#define TFE_TESTS_CUDA_PLUGIN_CHECKS_H

#include <stdio.h>

#include "backend/device/plugin_abi.h"

static const tfe_device_plugin* P;
static int failures;
static int checks;

#define CHECK(cond, ...)                                                                           \
  do {                                                                                             \
    ++checks;                                                                                      \
    if (!(cond)) {                                                                                 \
      ++failures;                                                                                  \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                         \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fprintf(stderr, "\n");                                                                       \
    }                                                                                              \
  } while (0)

#define OK(call) CHECK((call) == 0, "%s: %s", #call, P->last_error())

#endif
