// gemm: column-major strided batched GEMM through cuBLAS, on the device's handle bound to its
// stream. The 64-bit cuBLAS entries take the library's int64 extents as they are.
#include <cublas_v2.h>

#include "backend/cuda/device_state.cuh"
#include "backend/cuda/entries.cuh"
#include "backend/cuda/status.cuh"
#include "backend/cuda/types.cuh"

namespace tfe::cuda {

int32_t blas_fail(int32_t device, cublasStatus_t st, const char* what) {
  int32_t status = st == CUBLAS_STATUS_ALLOC_FAILED ? TFE_ERR_OUT_OF_MEMORY : TFE_ERR_DEVICE;
  return fail(status, "cuda:%d: %s: %s", static_cast<int>(device), what, cublasGetStatusString(st));
}

int32_t blas_handle_locked(DeviceState& s, cublasHandle_t* out) {
  if (s.blas == nullptr) {
    cublasHandle_t h = nullptr;
    cublasStatus_t st = cublasCreate(&h);
    if (st != CUBLAS_STATUS_SUCCESS) return blas_fail(s.device, st, "cublasCreate");
    st = cublasSetStream(h, s.stream);
    if (st != CUBLAS_STATUS_SUCCESS) {
      (void)cublasDestroy(h);
      return blas_fail(s.device, st, "cublasSetStream");
    }
    s.blas = h;
  }
  *out = s.blas;
  return 0;
}

bool to_op(char t, cublasOperation_t* op) {
  switch (t) {
  case 'N':
  case 'n': *op = CUBLAS_OP_N; return true;
  case 'T':
  case 't': *op = CUBLAS_OP_T; return true;
  case 'C':
  case 'c': *op = CUBLAS_OP_C; return true;
  default: return false;
  }
}

int32_t gemm(int32_t device, int32_t dtype, char trans_a, char trans_b, int64_t m, int64_t n,
             int64_t k, const void* alpha, const void* a, int64_t lda, int64_t stride_a,
             const void* b, int64_t ldb, int64_t stride_b, const void* beta, void* c, int64_t ldc,
             int64_t stride_c, int64_t batch) {
  cublasOperation_t ta, tb;
  if (!to_op(trans_a, &ta) || !to_op(trans_b, &tb))
    return fail(TFE_ERR_INVALID_ARGUMENT, "cuda gemm: transposition '%c', '%c' is not N, T or C",
                trans_a, trans_b);
  if (m < 0 || n < 0 || k < 0 || batch < 0)
    return fail(TFE_ERR_INVALID_ARGUMENT,
                "cuda gemm: negative extent (m %lld, n %lld, k %lld, "
                "batch %lld)",
                static_cast<long long>(m), static_cast<long long>(n), static_cast<long long>(k),
                static_cast<long long>(batch));
  if (alpha == nullptr || beta == nullptr)
    return fail(TFE_ERR_INVALID_ARGUMENT, "cuda gemm: NULL alpha or beta");
  if (dtype != TFE_F32 && dtype != TFE_F64 && dtype != TFE_C32 && dtype != TFE_C64)
    return fail(TFE_ERR_NOT_SUPPORTED, "matrix product on %s is not supported on cuda",
                dtype_name(dtype));
  DeviceState* s = nullptr;
  TFE_CUDA_CHECK(bind_device(device, &s));
  if (m == 0 || n == 0 || batch == 0) return 0;
  std::lock_guard<std::mutex> lock(s->blas_mutex);
  cublasHandle_t h = nullptr;
  TFE_CUDA_CHECK(blas_handle_locked(*s, &h));
  cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
  switch (dtype) {
  case TFE_F32:
    st = cublasSgemmStridedBatched_64(
        h, ta, tb, m, n, k, static_cast<const float*>(alpha), static_cast<const float*>(a), lda,
        stride_a, static_cast<const float*>(b), ldb, stride_b, static_cast<const float*>(beta),
        static_cast<float*>(c), ldc, stride_c, batch);
    break;
  case TFE_F64:
    st = cublasDgemmStridedBatched_64(
        h, ta, tb, m, n, k, static_cast<const double*>(alpha), static_cast<const double*>(a), lda,
        stride_a, static_cast<const double*>(b), ldb, stride_b, static_cast<const double*>(beta),
        static_cast<double*>(c), ldc, stride_c, batch);
    break;
  case TFE_C32:
    st = cublasCgemmStridedBatched_64(
        h, ta, tb, m, n, k, static_cast<const cuComplex*>(alpha), static_cast<const cuComplex*>(a),
        lda, stride_a, static_cast<const cuComplex*>(b), ldb, stride_b,
        static_cast<const cuComplex*>(beta), static_cast<cuComplex*>(c), ldc, stride_c, batch);
    break;
  default:
    st =
        cublasZgemmStridedBatched_64(h, ta, tb, m, n, k, static_cast<const cuDoubleComplex*>(alpha),
                                     static_cast<const cuDoubleComplex*>(a), lda, stride_a,
                                     static_cast<const cuDoubleComplex*>(b), ldb, stride_b,
                                     static_cast<const cuDoubleComplex*>(beta),
                                     static_cast<cuDoubleComplex*>(c), ldc, stride_c, batch);
  }
  if (st != CUBLAS_STATUS_SUCCESS) return blas_fail(device, st, "gemm");
  return 0;
}

} // namespace tfe::cuda
