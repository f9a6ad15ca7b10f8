// Op parameters: one std::variant of small aggregates, one alternative per parameter shape.
// Each has ==, a hash and a printer, so caches can key on (op, params, metadata) later.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "core/device.hpp"
#include "core/dtype.hpp"
#include "core/extent.hpp"
#include "core/shape.hpp"

namespace tfe::ops {

struct NoParams {
  bool operator==(const NoParams&) const = default;
};

// Values equal the public TFE_CMP_* constants.
enum class CompareDir : int32_t { Eq = 0, Ne = 1, Lt = 2, Le = 3, Gt = 4, Ge = 5 };

struct CompareParams {
  CompareDir dir = CompareDir::Eq;
  bool operator==(const CompareParams&) const = default;
};

// Output dims: lhs free dims (lhs order), rhs free dims (rhs order), batch dims (lhs batch order).
struct DotGeneralParams {
  Dims lhs_contracting, rhs_contracting, lhs_batch, rhs_batch;
  bool operator==(const DotGeneralParams&) const = default;
};

// ReduceSum/Prod/Max/Min and Reverse: the axes (normalised, no duplicates).
struct AxesParams {
  Dims axes;
  bool operator==(const AxesParams&) const = default;
};

struct TransposeParams {
  Dims perm; // output dim i is input dim perm[i]
  bool operator==(const TransposeParams&) const = default;
};

// Fields holding extents are Shape (they may be symbolic in a traced program); axes, permutations
// and strides are always concrete (Dims).

struct ReshapeParams {
  Shape shape;
  bool operator==(const ReshapeParams&) const = default;
};

struct BroadcastInDimParams {
  Shape shape; // output shape
  Dims dims;   // operand dim i becomes output dim dims[i]
  bool operator==(const BroadcastInDimParams&) const = default;
};

struct ConvertParams {
  DType dtype = DType::F64;
  bool operator==(const ConvertParams&) const = default;
};

// ExtractDiag removes axis_b and keeps the diagonal where axis_a was; EmbedDiag is its transpose
// (axes numbered in its output).
struct DiagParams {
  int64_t axis_a = 0, axis_b = 1;
  bool operator==(const DiagParams&) const = default;
};

// Tril/Triu on the first two dims (the matrix), diagonal offset k as in NumPy.
struct TriangleParams {
  int64_t k = 0;
  bool operator==(const TriangleParams&) const = default;
};

struct IotaParams {
  DType dtype = DType::I64;
  Shape shape;
  int64_t axis = 0;
  bool operator==(const IotaParams&) const = default;
};

struct SliceParams {
  Shape starts, limits;
  Dims strides;
  bool operator==(const SliceParams&) const = default;
};

struct DynamicSliceParams {
  Shape sizes;
  bool operator==(const DynamicSliceParams&) const = default;
};

// Gather/Scatter along one axis (take/put), and Concatenate's axis.
struct AxisParams {
  int64_t axis = 0;
  bool operator==(const AxisParams&) const = default;
};

// Argsort: the axis, and whether the order is descending.
struct SortParams {
  int64_t axis = 0;
  bool descending = false;
  bool operator==(const SortParams&) const = default;
};

struct PadParams {
  Shape low, high;
  Dims interior;
  bool operator==(const PadParams&) const = default;
};

struct ConstantParams {
  DType dtype = DType::F64;
  Dims shape;
  std::vector<std::byte> bytes; // compact column-major
  bool operator==(const ConstantParams&) const = default;
};

// Transfer: the device the operand is on and the device the result goes to. Both are part of
// the op so that its derivative (the transfer back) needs nothing but the node.
struct TransferParams {
  Device from, to;
  bool operator==(const TransferParams&) const = default;
};

class ExtensionDef; // ops/extension.hpp

// An extension op (linalg and later layers): which one, and its options. The meaning of each
// option is the def's (uplo, full or reduced, transpose flags...); eps is its one real option
// (derivative_eps for spectral decompositions).
struct ExtensionParams {
  const ExtensionDef* def = nullptr;
  Dims options;
  double eps = 0;
  bool operator==(const ExtensionParams&) const = default;
};

using Params = std::variant<NoParams, CompareParams, DotGeneralParams, AxesParams, TransposeParams,
                            ReshapeParams, BroadcastInDimParams, ConvertParams, DiagParams,
                            TriangleParams, IotaParams, SliceParams, DynamicSliceParams, AxisParams,
                            PadParams, ConstantParams, ExtensionParams, SortParams, TransferParams>;

// The alternative a row of the op table expects (same order as Params).
enum class ParamsKind : uint8_t {
  None,
  Compare,
  DotGeneral,
  Axes,
  Transpose,
  Reshape,
  BroadcastInDim,
  Convert,
  Diag,
  Triangle,
  Iota,
  Slice,
  DynamicSlice,
  Axis,
  Pad,
  Constant,
  Extension,
  Sort,
  Transfer
};

inline ParamsKind kind_of(const Params& p) { return static_cast<ParamsKind>(p.index()); }

size_t hash_params(const Params& p);
std::string format_shape(const Shape& s); // "[s1,3]"
std::string to_string(const Params& p);
std::string_view compare_dir_name(CompareDir d);

} // namespace tfe::ops
