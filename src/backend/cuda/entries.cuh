// The data-movement and compute entries of the plugin table: copy.cu, reduce.cu, gemm.cu.
#pragma once

#include <cstdint>

#include "backend/device/plugin_abi.h"

namespace tfe::cuda {

int32_t copy_strided(int32_t device, const tfe_dev_view* out, const tfe_dev_view* in);
int32_t fill(int32_t device, const tfe_dev_view* out, const void* value);
int32_t triangle(int32_t device, int32_t lower, int64_t k, const tfe_dev_view* out,
                 const tfe_dev_view* in);

int32_t reduce(int32_t device, int32_t kind, uint64_t axes_mask, const tfe_dev_view* out,
               const tfe_dev_view* in);
int32_t gemm(int32_t device, int32_t dtype, char trans_a, char trans_b, int64_t m, int64_t n,
             int64_t k, const void* alpha, const void* a, int64_t lda, int64_t stride_a,
             const void* b, int64_t ldb, int64_t stride_b, const void* beta, void* c, int64_t ldc,
             int64_t stride_c, int64_t batch);

} // namespace tfe::cuda
