// The public linear algebra functions as a table, expanded from the rows of
// ops/defs/linalg.hpp: what tfe_op_count/tfe_op_name list after the core ops, and what the
// completeness tests and docs/ops/linalg.md read.
#pragma once

#include <cstdint>
#include <iterator>
#include <string_view>

#include "core/dtype.hpp"
#include "ops/defs/linalg.hpp"

namespace tfe::linalg {

// How a completeness test calls the C function (the row's `call` column).
enum class CallKind : uint8_t { Plain, Options, Args };
// What the row's outputs allow a derivative to see (the row's `ad` column).
enum class FunctionAd : uint8_t { Smooth, Gauge, Pivots };

struct FunctionRow {
  std::string_view name;   // "solve"
  std::string_view ir;     // "linalg.solve": its name in tfe_op_name
  std::string_view c_name; // "tfe_linalg_solve"
  std::string_view python; // tenferro.linalg.<python>
  int inputs, outputs;
  CallKind call;
  std::string_view sample;
  DTypeSet accepts;
  FunctionAd ad;
  std::string_view since, shapes, summary;
};

// clang-format off
#define TFE_LINALG_FUNCTION_ROW(name, python, inputs, outputs, call, sample, accepts, ad, since,   \
                                shapes, summary)                                                   \
  {#name, "linalg." #name, "tfe_linalg_" #name, #python, inputs, outputs, CallKind::call, #sample, \
   dtypes::accepts, FunctionAd::ad, #since, shapes, summary},
inline constexpr FunctionRow kFunctions[] = {TFE_LINALG_OPS(TFE_LINALG_FUNCTION_ROW)};
#undef TFE_LINALG_FUNCTION_ROW
// clang-format on

inline constexpr int kNumFunctions = static_cast<int>(std::size(kFunctions));

constexpr std::string_view ad_name(FunctionAd a) {
  switch (a) {
  case FunctionAd::Smooth: return "smooth";
  case FunctionAd::Gauge: return "smooth, gauge-invariant functions of the vectors";
  case FunctionAd::Pivots: return "smooth in the float outputs; integer pivots";
  }
  return "?";
}

} // namespace tfe::linalg
