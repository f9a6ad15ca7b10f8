// One row of the op table: everything the layers above need to know about an op.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "core/dtype.hpp"
#include "core/extent.hpp"
#include "core/shape.hpp"
#include "ops/op_code.hpp"
#include "ops/params.hpp"

namespace tfe::ops {

// dtype and shape of one value: what shape rules consume and produce. Extents may be symbolic
// (traced programs); eager execution only ever sees constant extents.
struct Meta {
  DType dtype = DType::F64;
  Shape shape;
  bool operator==(const Meta&) const = default;
};

// The metadata a kernel receives: every extent concrete.
struct ConcreteMeta {
  DType dtype = DType::F64;
  Dims shape;
};

// The concrete values of a shape whose extents are all constant (Internal error otherwise).
Dims concrete_dims(const Shape& s);
ConcreteMeta concrete(const Meta& m);

// The sole shape logic of an op. Throws tfe::Error naming the violated constraint label.
// Arity, the params alternative and the accepted dtypes are checked before it runs.
using ShapeRule = Meta (*)(std::span<const Meta> inputs, const Params& params);

// How an op relates to differentiation (the AD layer keys its rules on the op code).
enum class AdClass : uint8_t {
  Smooth,         // has a JVP rule
  Linear,         // linear in its value operands: JVP is the op on tangents, plus a transpose
  ZeroDerivative, // piecewise constant (Floor, Sign of reals, ...): derivative 0 where defined
  NotDiff,        // output is Bool or integer (Compare, logical ops, Iota): never active
};

inline constexpr uint32_t kAllOperands = 0xffffffffu;

struct OpDef {
  OpCode code;
  std::string_view name;   // IR name, snake_case: test names, docs anchors, printers
  std::string_view c_name; // the C entry point that runs exactly this op
  OpGroup group;
  int8_t min_inputs;
  int8_t max_inputs; // -1: variadic
  ParamsKind params;
  DTypeSet accepts;        // dtypes of the value operands
  uint32_t value_operands; // bit i set: operand i is a value operand (checked against accepts)
  // Value operands are joined by the promotion plan (docs/design/ops-and-dtypes.md).
  bool promotes;
  bool elementwise; // the user surface broadcasts operands left-aligned
  ShapeRule infer;
  AdClass ad;
  std::string_view constraints; // labels the shape rule cites, e.g. "C1 C2"
  std::string_view summary;

  bool is_value_operand(size_t i) const {
    return value_operands == kAllOperands || (i < 32 && ((value_operands >> i) & 1u));
  }
};

} // namespace tfe::ops
