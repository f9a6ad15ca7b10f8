// Implementation of tensor creation (creation.hpp).
#include "eager/creation.hpp"

#include <cmath>
#include <cstring>
#include <numbers>

#include "backend/cpu/kernels/scalar_math.hpp"
#include "backend/cpu/thread_budget.hpp"
#include "core/error.hpp"

namespace tfe::eager {
namespace {

uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Uniform double in [0, 1) for counter i of a stream.
double uniform01(uint64_t seed, uint64_t i) {
  uint64_t h = splitmix64(splitmix64(seed) ^ splitmix64(i * 0xd1b54a32d192ed03ull + 1));
  return static_cast<double>(h >> 11) * 0x1.0p-53;
}

double normal01(uint64_t seed, uint64_t i) {
  // Box-Muller on two uniforms of the stream; 1 - u keeps the log finite.
  double u1 = 1.0 - uniform01(seed, 2 * i), u2 = uniform01(seed, 2 * i + 1);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

void require_inexact(DType dtype, const char* what) {
  if (!is_inexact(dtype))
    fail(Status::DtypeMismatch, "%s needs F32, F64, C32 or C64, not %s", what,
         std::string(dtype_name(dtype)).c_str());
}

template <class Gen> Tensor generate(DType dtype, const Dims& shape, Gen gen) {
  Tensor out = Tensor::empty(dtype, shape);
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = out.data<T>();
    cpu::parallel_for(out.numel(), cpu::kGrainMedium, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        if constexpr (is_complex_v<T>) {
          using R = typename T::value_type;
          o[i] = T(static_cast<R>(gen(2 * static_cast<uint64_t>(i), true)),
                   static_cast<R>(gen(2 * static_cast<uint64_t>(i) + 1, true)));
        } else {
          o[i] = cpu::cast_value<T>(gen(static_cast<uint64_t>(i), false));
        }
      }
    });
  });
  return out;
}

} // namespace

Tensor full(DType dtype, const Dims& shape, const void* value) {
  Tensor out = Tensor::empty(dtype, shape);
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T v;
    if constexpr (std::is_same_v<T, bool>) {
      unsigned char byte;
      std::memcpy(&byte, value, 1);
      v = byte != 0;
    } else {
      std::memcpy(&v, value, sizeof(T));
    }
    T* o = out.data<T>();
    int64_t n = out.numel();
    for (int64_t i = 0; i < n; ++i) o[i] = v;
  });
  return out;
}

Tensor zeros(DType dtype, const Dims& shape) { return Tensor::zeros(dtype, shape); }

Tensor ones(DType dtype, const Dims& shape) {
  Tensor out = Tensor::empty(dtype, shape);
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = out.data<T>();
    int64_t n = out.numel();
    for (int64_t i = 0; i < n; ++i) o[i] = cpu::cast_value<T>(1);
  });
  return out;
}

Tensor eye(DType dtype, int64_t n, int64_t m) {
  Tensor out = Tensor::zeros(dtype, {n, m});
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = out.data<T>();
    for (int64_t i = 0; i < std::min(n, m); ++i) o[i + i * n] = cpu::cast_value<T>(1);
  });
  return out;
}

Tensor arange(DType dtype, double start, double stop, double step) {
  if (dtype == DType::Bool) fail(Status::DtypeMismatch, "arange needs a numeric dtype, not Bool");
  if (step == 0 || !std::isfinite(step) || !std::isfinite(start) || !std::isfinite(stop))
    fail(Status::InvalidArgument, "start %g, stop %g and step %g must be finite with step != 0",
         start, stop, step);
  double count = std::ceil((stop - start) / step);
  if (count > 9.0e18)
    fail(Status::Numerical, "arange(%g, %g, %g) has too many elements", start, stop, step);
  int64_t n = count > 0 ? static_cast<int64_t>(count) : 0;
  Tensor out = Tensor::empty(dtype, {n});
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = out.data<T>();
    for (int64_t i = 0; i < n; ++i)
      o[i] = cpu::cast_value<T>(start + static_cast<double>(i) * step);
  });
  return out;
}

Tensor random_uniform(DType dtype, const Dims& shape, uint64_t seed, double low, double high) {
  require_inexact(dtype, "random_uniform");
  if (!(low < high) || !std::isfinite(low) || !std::isfinite(high))
    fail(Status::InvalidArgument, "needs finite low < high, got low %g and high %g", low, high);
  return generate(dtype, shape,
                  [=](uint64_t i, bool) { return low + (high - low) * uniform01(seed, i); });
}

Tensor random_normal(DType dtype, const Dims& shape, uint64_t seed) {
  require_inexact(dtype, "random_normal");
  return generate(dtype, shape, [=](uint64_t i, bool complex_part) {
    return complex_part ? normal01(seed, i) * std::numbers::sqrt2 / 2 : normal01(seed, i);
  });
}

} // namespace tfe::eager
