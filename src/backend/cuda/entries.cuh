// The data-movement and compute entries of the plugin table: copy.cu, reduce.cu, gemm.cu,
// linalg.cu, indexing.cu, order.cu.
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

int32_t potrf(int32_t device, int32_t dtype, int32_t upper, int64_t n, int64_t batch, void* a,
              int32_t* info);
int32_t getrf(int32_t device, int32_t dtype, int64_t m, int64_t n, int64_t batch, void* a,
              int32_t* ipiv, int32_t* info);
int32_t getrs(int32_t device, int32_t dtype, char trans, int64_t n, int64_t nrhs, int64_t batch,
              const void* lu, const int32_t* ipiv, void* b);
int32_t trsm(int32_t device, int32_t dtype, int32_t left, int32_t upper, char trans,
             int32_t unit_diagonal, int64_t m, int64_t n, int64_t batch, const void* a, void* b);
int32_t geqrf(int32_t device, int32_t dtype, int64_t m, int64_t n, int64_t batch, void* a,
              void* tau);
int32_t orgqr(int32_t device, int32_t dtype, int64_t m, int64_t n, int64_t k, int64_t batch,
              void* q, const void* tau);
int32_t syevd(int32_t device, int32_t dtype, int32_t upper, int32_t vectors, int64_t n,
              int64_t batch, void* a, void* w, int32_t* info);
int32_t gesvd(int32_t device, int32_t dtype, int32_t mode, int64_t m, int64_t n, int64_t batch,
              void* a, void* s, void* u, void* vh, int32_t* info);
int32_t geev(int32_t device, int32_t dtype, int32_t vectors, int64_t n, int64_t batch, void* a,
             void* w, void* v, int32_t* info);

int32_t gather(int32_t device, int32_t mode, const tfe_dev_view* out, const tfe_dev_view* in,
               const tfe_dev_view* index);
int32_t scatter(int32_t device, int32_t mode, const tfe_dev_view* out, const tfe_dev_view* in,
                const tfe_dev_view* index);
int32_t scan(int32_t device, int32_t kind, int32_t axis, const tfe_dev_view* out,
             const tfe_dev_view* in);
int32_t arg_extremum(int32_t device, int32_t is_max, int32_t axis, const tfe_dev_view* out,
                     const tfe_dev_view* in);
int32_t argsort(int32_t device, int32_t descending, int32_t axis, const tfe_dev_view* out,
                const tfe_dev_view* in);

} // namespace tfe::cuda
