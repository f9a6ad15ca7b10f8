/** @file
 *
 * tenferro.h: the C ABI of tenferro, a tensor library with automatic differentiation and
 * linear algebra. This umbrella header includes the topic headers of this folder.
 *
 * Conventions
 * - Prefix tfe_ for functions and types, TFE_ for constants. Fixed-width integers only: int64_t
 *   for extents, strides (in elements), counts, byte sizes and axes; int32_t for ranks, numbers
 *   of handles, dtypes, enums and flags (true iff non-zero).
 * - Every fallible function returns tfe_status (TFE_OK == 0). On failure, every handle output
 *   the caller passed is set to NULL; buffers, scalar outputs and inputs are left untouched, and
 *   tfe_last_error_message() holds one line that starts with the function's name and names the
 *   offending values. Nothing aborts and no exception crosses this boundary.
 * - New handles come back through leading output parameters (out, out_<name>) as new references
 *   owned by the caller: release them with tfe_tensor_release / tfe_context_release (both
 *   NULL-safe). Accessors take the object first and write a scalar through a trailing out.
 *   Input handles are borrowed; a call that keeps one (a tensor keeping its context) retains it.
 * - Array arguments whose count is 0 may be NULL; any other NULL pointer is
 *   TFE_ERR_INVALID_ARGUMENT. The only array outputs are out_shape, out_grads, dst and buf.
 * - Layout is column-major: dim 0 varies fastest. The first two dims of a matrix argument are
 *   the matrix and further dims are batch dims ([M,N,B..]). Elementwise ops broadcast
 *   left-aligned (Julia style). Tensors are immutable: ops return new handles, and transpose,
 *   slice, reshape (when possible), broadcast, reverse and extract_diag return views that share
 *   storage.
 * - NumPy-style negative axes count from the end (tfe_stack: of the output rank).
 *
 * Thread safety
 * By default every function may be called from any thread. A context may be used from several
 * threads at once; its allocator and caches are internally synchronized. Handles may be shared
 * between threads; tensors are immutable, so concurrent reads are safe. The error message is
 * per thread. The library's kernels use one thread budget (tfe_set_num_threads) and never run
 * their pool nested inside OpenBLAS's threads; OpenBLAS's thread count is process-wide, so it is
 * shared with NumPy or PyTorch loaded in the same process.
 *
 * Design decisions (docs/decisions/): 0001 column-major with trailing batch dims,
 * 0002 int32_t status constants, 0003 exceptions inside, statuses outside, 0004 one
 * process-wide caching allocator, 0005 views for structural ops, 0006 the complex derivative
 * convention, 0007 VJP = linearize then transpose, 0008 symbolic extents and guards, 0009 one
 * op surface for eager and traced values, 0010 multi-output calls return a results handle.
 */
#ifndef TENFERRO_H
#define TENFERRO_H

#include "tenferro/base.h"
#include "tenferro/tensor.h"
#include "tenferro/ops_elementwise.h"
#include "tenferro/ops_math.h"
#include "tenferro/ops_shape.h"
#include "tenferro/ops_order.h"
#include "tenferro/ops_numeric.h"
#include "tenferro/interop.h"
#include "tenferro/program.h"
#include "tenferro/ad.h"
#include "tenferro/linalg.h"
#include "tenferro/einsum.h"

#endif /* TENFERRO_H */
