/* The ABI between libtenferro and a device plugin (libtenferro_cuda.so).
 *
 * Plain C so that a plugin can be compiled by a device compiler alone (nvcc) and loaded with
 * dlopen on first use: libtenferro itself never links a device runtime. The library keeps every
 * piece of tensor semantics (shape rules, broadcasting, views, dtype promotion, AD); a plugin only
 * owns device memory and runs kernels over strided views it is handed. Both sides are built from
 * one tree and shipped together, but the table is still versioned (abi, struct_size) so that a
 * stale plugin next to a newer library is refused with a message instead of misbehaving.
 *
 * Conventions for every entry:
 * - Returns 0 on success or a TFE_ERR_* status of tenferro/base.h; on failure last_error() gives
 *   a one-line message (thread-local in the plugin), which the library prefixes with the public
 *   function the user called.
 * - `device` is the ordinal, 0 <= device < device_count.
 * - Calls are stream-ordered on the plugin's stream for that device: kernels and device-to-device
 *   copies are asynchronous; copy_to_host returns when the bytes are on the host.
 * - A view's dtype is a TFE_* dtype code (TFE_BOOL .. TFE_C64: Bool is one byte 0/1, complex is
 *   interleaved re/im). Extents and strides are in elements; strides may be 0 (broadcast) or
 *   negative (reversed); `data` is the address of element (0, ..., 0). rank <= TFE_PLUGIN_MAX_RANK.
 */
#ifndef TENFERRO_DEVICE_PLUGIN_ABI_H
#define TENFERRO_DEVICE_PLUGIN_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TFE_DEVICE_PLUGIN_ABI 3
#define TFE_PLUGIN_MAX_RANK 16
/* The one symbol a plugin exports. */
#define TFE_DEVICE_PLUGIN_ENTRY "tfe_device_plugin_v1"

typedef struct tfe_dev_view {
  void* data;
  int32_t dtype;
  int32_t rank;
  const int64_t* shape;
  const int64_t* strides;
} tfe_dev_view;

/* Reductions (reduce). */
enum {
  TFE_PLUGIN_REDUCE_SUM = 0,
  TFE_PLUGIN_REDUCE_PROD = 1,
  TFE_PLUGIN_REDUCE_MAX = 2,
  TFE_PLUGIN_REDUCE_MIN = 3
};

/* How gather and scatter index (gather, scatter). */
enum {
  /* Along dim 1 of 3-D views by a list of indices: gather and scatter-add. */
  TFE_PLUGIN_INDEX_AXIS = 0,
  /* A block at start indices clamped into range: dynamic_slice and dynamic_update_slice. */
  TFE_PLUGIN_INDEX_BLOCK = 1
};

typedef struct tfe_device_plugin {
  uint32_t abi;         /* TFE_DEVICE_PLUGIN_ABI */
  uint32_t struct_size; /* sizeof(tfe_device_plugin) as the plugin was built */
  const char* name;     /* "cuda": used in messages ("cuda:0") */

  const char* (*last_error)(void);

  /* Devices. A machine without a driver or a device reports 0 and succeeds. */
  int32_t (*device_count)(int32_t* out);

  /* Memory. allocate returns TFE_ERR_OUT_OF_MEMORY when the device is full (after the plugin's
   * cache is emptied and the allocation retried); bytes == 0 gives a valid unique pointer.
   * release takes back what allocate gave (the same byte count), possibly into a cache. */
  int32_t (*allocate)(int32_t device, size_t bytes, void** out);
  void (*release)(int32_t device, void* ptr, size_t bytes);
  int32_t (*copy_to_device)(int32_t device, void* dst, const void* host_src, size_t bytes);
  int32_t (*copy_to_host)(int32_t device, void* host_dst, const void* src, size_t bytes);
  int32_t (*copy_on_device)(int32_t device, void* dst, const void* src, size_t bytes);
  int32_t (*synchronize)(int32_t device);

  /* Elementwise kernels, looked up once by the op table's name ("add", "sin", "compare",
   * "select", "clamp", "real", "complex", ...) and the dtype of the first operand. lookup sets
   * *op to an id for elementwise, or returns TFE_ERR_NOT_SUPPORTED when the plugin lacks the pair.
   * elementwise writes out (compact, column-major, fresh memory) from n_in operands that the
   * library has already broadcast to out's shape (strides may be 0). `param` is the op's integer
   * parameter where it has one (compare: 0 eq, 1 ne, 2 lt, 3 le, 4 gt, 5 ge), else 0.
   * select is looked up with its Bool predicate's dtype; the plugin picks the kernel from the
   * values' dtype (in[1]) at run time. Integer div, rem and pow check their right operand on the
   * device and return TFE_ERR_NUMERICAL (division by zero, negative exponent). */
  int32_t (*elementwise_lookup)(const char* op_name, int32_t dtype, int32_t* op);
  int32_t (*elementwise)(int32_t device, int32_t op, int64_t param, const tfe_dev_view* out,
                         int32_t n_in, const tfe_dev_view* in);

  /* out[i] = convert(in[i]) for views of equal shape; out may be any strided view (it is how the
   * library writes into part of a fresh result: concatenate, pad, embed_diag). Conversions follow
   * the library's rules: to Bool is `!= 0`, complex to real keeps the real part, float to integer
   * truncates toward zero (out-of-range values are unspecified, as in C). */
  int32_t (*copy_strided)(int32_t device, const tfe_dev_view* out, const tfe_dev_view* in);
  /* Every element of the view out set to the one element at host address value (out's dtype). */
  int32_t (*fill)(int32_t device, const tfe_dev_view* out, const void* value);

  /* Reduction of in over the dims whose bit is set in axes_mask (bit d = dim d) with kind
   * TFE_PLUGIN_REDUCE_*; out is compact with in's kept dims in order (rank-0 when all are
   * reduced). Empty reductions give the identity (0, 1, and for max/min the library never asks). */
  int32_t (*reduce)(int32_t device, int32_t kind, uint64_t axes_mask, const tfe_dev_view* out,
                    const tfe_dev_view* in);

  /* Column-major strided batched GEMM, C_b = alpha op(A_b) op(B_b) + beta C_b for b < batch, in
   * dtype F32, F64, C32 or C64 (alpha, beta host scalars of that dtype); trans is 'N', 'T' or 'C'.
   * Integer and Bool contractions are not asked of this entry. */
  int32_t (*gemm)(int32_t device, int32_t dtype, char trans_a, char trans_b, int64_t m, int64_t n,
                  int64_t k, const void* alpha, const void* a, int64_t lda, int64_t stride_a,
                  const void* b, int64_t ldb, int64_t stride_b, const void* beta, void* c,
                  int64_t ldc, int64_t stride_c, int64_t batch);

  /* out[..., i, j, ...] = (lower ? j - i <= k : j - i >= k) ? in : 0 over the two leading dims
   * (i = dim 0, j = dim 1) of views of equal shape: tril (lower) and triu. */
  int32_t (*triangle)(int32_t device, int32_t lower, int64_t k, const tfe_dev_view* out,
                      const tfe_dev_view* in);

  /* ---- Dense linear algebra (LAPACK's routines; cuSOLVER on CUDA) ----
   * Every matrix argument is a compact column-major batch in device memory: matrix b of a
   * [rows, cols] batch starts b * rows * cols elements after the pointer, and a vector argument
   * of length len likewise b * len elements after it. dtype is F32, F64, C32 or C64; "real"
   * arrays (singular values, Hermitian eigenvalues) are F32 for F32/C32 and F64 for F64/C64.
   * `info` is a device array of batch int32 that receives LAPACK's info per matrix (0: success);
   * the library reads it where its status policy needs it, so an entry never synchronizes for it.
   * The library hands potrf, syevd, gesvd and geev only finite values (it checks first), passes
   * extents that fit in int32, and never calls an entry with batch 0 or an empty matrix. Entries
   * are stream-ordered like the kernels above. */

  /* Cholesky in place of a [n, n]: the factor in the lower (upper = 0) or upper triangle of a;
   * the other triangle keeps its values (the library zeroes it). info > 0: the leading minor of
   * that order is not positive definite. */
  int32_t (*potrf)(int32_t device, int32_t dtype, int32_t upper, int64_t n, int64_t batch, void* a,
                   int32_t* info);

  /* LU with partial pivoting in place of a [m, n]: L (unit diagonal, below the diagonal) and U
   * packed; ipiv [min(m, n)] int32, LAPACK's 1-based row interchanges; info > 0: U[info-1, info-1]
   * is exactly zero (a result, not a failure). */
  int32_t (*getrf)(int32_t device, int32_t dtype, int64_t m, int64_t n, int64_t batch, void* a,
                   int32_t* ipiv, int32_t* info);

  /* b [n, nrhs] <- op(A)^-1 b in place from getrf's lu [n, n] and ipiv [n] (every pivot in
   * [1, n]: the library checks user pivots first); trans 'N', 'T' or 'C'. */
  int32_t (*getrs)(int32_t device, int32_t dtype, char trans, int64_t n, int64_t nrhs,
                   int64_t batch, const void* lu, const int32_t* ipiv, void* b);

  /* Triangular solve in place (BLAS trsm, alpha = 1): b [m, n] <- op(A)^-1 b (left = 1) or
   * b op(A)^-1 (left = 0) with A [k, k], k = m (left) or n (right), upper or lower (only that
   * triangle is read), unit_diagonal: the diagonal is taken as 1 and not read; trans 'N', 'T' or
   * 'C'. A zero on the diagonal is not an error (inf/nan in b). */
  int32_t (*trsm)(int32_t device, int32_t dtype, int32_t left, int32_t upper, char trans,
                  int32_t unit_diagonal, int64_t m, int64_t n, int64_t batch, const void* a,
                  void* b);

  /* Householder QR in place of a [m, n] (geqrf): R on and above the diagonal, the reflectors
   * below it, their scalars in tau [min(m, n)]. */
  int32_t (*geqrf)(int32_t device, int32_t dtype, int64_t m, int64_t n, int64_t batch, void* a,
                   void* tau);
  /* Q [m, n] in place (orgqr/ungqr; m >= n >= k >= 1) from the first k reflectors held below the
   * diagonal of q's first k columns and their scalars tau [k] (columns k.. of q may hold
   * anything: they are reset as LAPACK does). */
  int32_t (*orgqr)(int32_t device, int32_t dtype, int64_t m, int64_t n, int64_t k, int64_t batch,
                   void* q, const void* tau);

  /* Hermitian eigendecomposition of a [n, n] reading its lower (upper = 0) or upper triangle:
   * w [n] real, ascending; with vectors, a is overwritten by the unitary V whose columns are the
   * eigenvectors, else a's contents are unspecified afterwards. info > 0: no convergence. */
  int32_t (*syevd)(int32_t device, int32_t dtype, int32_t upper, int32_t vectors, int64_t n,
                   int64_t batch, void* a, void* w, int32_t* info);

  /* Singular value decomposition of a [m, n], any shape (a is destroyed): s [k] real, descending
   * (k = min(m, n)). mode 0: values only (u and vh are NULL); 1: reduced, u [m, k] and vh [k, n];
   * 2: full, u [m, m] and vh [n, n]. info > 0: no convergence. */
  int32_t (*gesvd)(int32_t device, int32_t dtype, int32_t mode, int64_t m, int64_t n, int64_t batch,
                   void* a, void* s, void* u, void* vh, int32_t* info);

  /* General eigendecomposition of a [n, n] (a is destroyed): w [n] complex (C32 for F32/C32, C64
   * for F64/C64) in LAPACK's order; with vectors, v [n, n] complex right eigenvectors, each
   * column of unit 2-norm with its largest component real (LAPACK's normalisation; a real a's
   * conjugate pairs unpacked), else v is NULL. info > 0: no convergence. */
  int32_t (*geev)(int32_t device, int32_t dtype, int32_t vectors, int64_t n, int64_t batch, void* a,
                  void* w, void* v, int32_t* info);

  /* ---- Indexing by device tensors and ordering along one axis (ABI 3) ----
   * `index` is a rank-1 I32 or I64 view in device memory; the library has checked every shape and
   * dtype, and handles results without elements itself (except where an entry says otherwise).
   * Index arithmetic is shared with the test double (backend/device/kernel_bodies.hpp). */

  /* out <- elements of in, by mode TFE_PLUGIN_INDEX_*; out and in have one dtype.
   * AXIS: in [inner, extent, outer], index [n], out [inner, n, outer]:
   *   out[i, j, o] = in[i, index[j], o]. Every index is checked, also when out has no elements;
   *   one outside [0, extent) gives TFE_ERR_INVALID_ARGUMENT (out's contents are then unspecified
   *   and the library names the index). The check waits for one flag.
   * BLOCK: in and out of equal rank r, index [r] start indices (r = 0: index may have no data):
   *   out[x] = in[x + c] with c[d] = clamp(index[d], 0, in.shape[d] - out.shape[d]). The starts
   *   are read on the device: nothing waits. */
  int32_t (*gather)(int32_t device, int32_t mode, const tfe_dev_view* out, const tfe_dev_view* in,
                    const tfe_dev_view* index);

  /* out updated in place from in, by mode TFE_PLUGIN_INDEX_*; out and in have one dtype.
   * AXIS: out [inner, extent, outer], index [n], in [inner, n, outer]: for j = 0, 1, ..., n - 1 in
   *   order, out[i, index[j], o] += in[i, j, o] (Bool: or; integers wrap). Duplicates accumulate
   *   in index order, so results never depend on scheduling (no floating-point atomics). Indices
   *   are checked first, as gather's (TFE_ERR_INVALID_ARGUMENT, one flag waited for), also when
   *   out has no elements; then out is unchanged.
   * BLOCK: out and in of equal rank r, index [r]: out[x + c] = in[x] with c[d] = clamp(index[d],
   *   0, out.shape[d] - in.shape[d]); nothing waits. */
  int32_t (*scatter)(int32_t device, int32_t mode, const tfe_dev_view* out, const tfe_dev_view* in,
                     const tfe_dev_view* index);

  /* Inclusive scan along dim axis of views of equal shape, kind TFE_PLUGIN_REDUCE_SUM or _PROD
   * (numeric dtypes; integers wrap). Each line is folded in order from its first element, so
   * floating-point results are the host's bit for bit. */
  int32_t (*scan)(int32_t device, int32_t kind, int32_t axis, const tfe_dev_view* out,
                  const tfe_dev_view* in);

  /* out (I64, in's rank with extent 1 at axis) <- the position along axis of the first maximum
   * (is_max = 1) or minimum of each line of in (Bool, integers, real floats); the first NaN wins.
   * in.shape[axis] >= 1. */
  int32_t (*arg_extremum)(int32_t device, int32_t is_max, int32_t axis, const tfe_dev_view* out,
                          const tfe_dev_view* in);

  /* out (I64, in's shape) <- the stable sorting permutation of each line of in along axis (Bool,
   * integers, real floats): ascending, or descending with equal elements kept in their order; NaN
   * last in both, in their order. O(n log n) per line. */
  int32_t (*argsort)(int32_t device, int32_t descending, int32_t axis, const tfe_dev_view* out,
                     const tfe_dev_view* in);
} tfe_device_plugin;

typedef const tfe_device_plugin* (*tfe_device_plugin_entry)(void);

#ifdef __cplusplus
}
#endif

#endif
