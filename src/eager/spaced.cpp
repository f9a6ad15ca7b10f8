// linspace and logspace (spaced.hpp).
#include "eager/spaced.hpp"

#include <cmath>
#include <vector>

#include "backend/cpu/kernels/scalar_math.hpp"
#include "core/error.hpp"

namespace tfe::eager {
namespace {

using C = std::complex<double>;

void check(DType dtype, int64_t num) {
  if (!is_inexact(dtype))
    fail(Status::DtypeMismatch, "needs F32, F64, C32 or C64, not %s",
         std::string(dtype_name(dtype)).c_str());
  if (num < 0) fail(Status::InvalidArgument, "num %lld is negative", static_cast<long long>(num));
  // The values are computed in a vector of num entries first; one that long throws length_error.
  if (num > kMaxElements)
    fail(Status::OutOfMemory, "num %lld is above the limit of 2^48 elements per tensor",
         static_cast<long long>(num));
}

// NumPy's formula: start + i * step, with the last value replaced by stop when it is included.
std::vector<C> spaced(C start, C stop, int64_t num, bool endpoint) {
  int64_t div = endpoint ? num - 1 : num;
  C step = div > 0 ? (stop - start) / static_cast<double>(div) : C(0);
  std::vector<C> v(static_cast<size_t>(num));
  for (int64_t i = 0; i < num; ++i)
    v[static_cast<size_t>(i)] = start + static_cast<double>(i) * step;
  if (endpoint && num > 1) v.back() = stop;
  return v;
}

Tensor store(DType dtype, const std::vector<C>& v) {
  Tensor out = Tensor::empty(dtype, {static_cast<int64_t>(v.size())});
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_complex_v<T>) {
      using R = typename T::value_type;
      T* o = out.data<T>();
      for (size_t i = 0; i < v.size(); ++i)
        o[i] = T(static_cast<R>(v[i].real()), static_cast<R>(v[i].imag()));
    } else if constexpr (std::is_floating_point_v<T>) {
      T* o = out.data<T>();
      for (size_t i = 0; i < v.size(); ++i) o[i] = static_cast<T>(v[i].real());
    }
  });
  return out;
}

} // namespace

Tensor linspace(DType dtype, C start, C stop, int64_t num, bool endpoint) {
  check(dtype, num);
  if (!is_complex(dtype)) start = start.real(), stop = stop.real();
  return store(dtype, spaced(start, stop, num, endpoint));
}

Tensor logspace(DType dtype, C start, C stop, int64_t num, bool endpoint, double base) {
  check(dtype, num);
  if (!is_complex(dtype)) start = start.real(), stop = stop.real();
  std::vector<C> v = spaced(start, stop, num, endpoint);
  for (C& e : v) e = is_complex(dtype) ? std::pow(C(base), e) : C(std::pow(base, e.real()));
  return store(dtype, v);
}

} // namespace tfe::eager
