/* What the plugin's own test programs share: the loaded table and a non-fatal check that counts
 * (every failure is printed; the program's exit status reports them). */
#ifndef TFE_TESTS_CUDA_PLUGIN_CHECKS_H
#define TFE_TESTS_CUDA_PLUGIN_CHECKS_H

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

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

/* Opens the plugin named by argv[1] and sets P to its table, whose ABI number and size must be
 * this build's. Returns the library handle, or NULL after saying why. */
static void* load_plugin(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s path/to/libtenferro_cuda.so\n", argv[0]);
    return NULL;
  }
  void* lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL) {
    fprintf(stderr, "FAIL: dlopen %s: %s\n", argv[1], dlerror());
    return NULL;
  }
  tfe_device_plugin_entry entry = NULL;
  void* sym = dlsym(lib, TFE_DEVICE_PLUGIN_ENTRY);
  CHECK(sym != NULL, "the plugin exports %s", TFE_DEVICE_PLUGIN_ENTRY);
  if (sym == NULL) return NULL;
  memcpy(&entry, &sym, sizeof entry); /* object to function pointer, as POSIX allows */
  P = entry();
  CHECK(P != NULL, "the entry returns a table");
  if (P == NULL) return NULL;
  CHECK(P->abi == TFE_DEVICE_PLUGIN_ABI, "abi %u", P->abi);
  CHECK(P->struct_size == sizeof(tfe_device_plugin), "struct_size %u, expected %zu", P->struct_size,
        sizeof(tfe_device_plugin));
  return failures == 0 ? lib : NULL;
}

#endif
