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

#define TFE_DEVICE_PLUGIN_ABI 1
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
} tfe_device_plugin;

typedef const tfe_device_plugin* (*tfe_device_plugin_entry)(void);

#ifdef __cplusplus
}
#endif

#endif
