// The scalar functions of the logical ops (ops/defs/logical.hpp), one functor per row, named like
// the op code: logical on Bool, bitwise on integers.
#pragma once

#include <type_traits>

namespace tfe::cpu::logical {

struct And {
  template <class T> T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>)
      return a && b;
    else
      return static_cast<T>(a & b);
  }
};
struct Or {
  template <class T> T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>)
      return a || b;
    else
      return static_cast<T>(a | b);
  }
};
struct Xor {
  template <class T> T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>)
      return a != b;
    else
      return static_cast<T>(a ^ b);
  }
};
struct Not {
  template <class T> T operator()(T a) const {
    if constexpr (std::is_same_v<T, bool>)
      return !a;
    else
      return static_cast<T>(~a);
  }
};

} // namespace tfe::cpu::logical
