// The scalar functions of the comparison group (compare, clamp, select) and of convert. The
// groups whose rows generate their kernels keep their functors beside the rows' stem
// (analytic.hpp, arithmetic.hpp, logical.hpp, complex_parts.hpp). The single-op kernels map
// them over tensors, and the fused block interpreter (fused_steps.cpp) runs the same functors,
// so fused and unfused programs give the same bits.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "backend/cpu/kernels/scalar_math.hpp"
#include "backend/cpu/thread_budget.hpp"
#include "backend/cpu/vector_block.hpp"
#include "ops/params.hpp"

namespace tfe::cpu::functors {

// ---- comparison and selection (ops/defs/comparison.hpp)
template <ops::CompareDir D> struct CompareF {
  template <class T> bool operator()(T a, T b) const {
    if constexpr (D == ops::CompareDir::Eq)
      return a == b;
    else if constexpr (D == ops::CompareDir::Ne)
      return a != b;
    else if constexpr (is_complex_v<T>)
      return false; // rejected by the shape rule
    else if constexpr (D == ops::CompareDir::Lt)
      return a < b;
    else if constexpr (D == ops::CompareDir::Le)
      return a <= b;
    else if constexpr (D == ops::CompareDir::Gt)
      return a > b;
    else
      return a >= b;
  }
};

struct ClampF {
  template <class T> T operator()(T x, T lo, T hi) const { return min_of(max_of(x, lo), hi); }
};
struct SelectF {
  template <class T> T operator()(bool c, T a, T b) const { return c ? a : b; }
};

// ---- convert (a structural op whose elementwise part is this cast)
template <class To> struct ConvertF {
  template <class From> To operator()(From v) const { return cast_value<To>(v); }
};

} // namespace tfe::cpu::functors
