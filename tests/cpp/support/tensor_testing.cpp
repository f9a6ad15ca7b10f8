// Implementation of the test helpers (tensor_testing.hpp).
#include "support/tensor_testing.hpp"

#include <cmath>
#include <sstream>

#include "backend/cpu/kernels/kernels.hpp"
#include "backend/cpu/kernels/scalar_math.hpp"

namespace tfe::testing {

void for_each_index(const Dims& shape, const std::function<void(const Dims&)>& f) {
  int64_t n = numel_of(shape);
  Dims idx(shape.size(), 0);
  for (int64_t i = 0; i < n; ++i) {
    f(idx);
    for (size_t d = 0; d < shape.size(); ++d) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
}

namespace {
int64_t offset_of(const Tensor& t, const Dims& idx) {
  int64_t o = 0;
  for (size_t d = 0; d < idx.size(); ++d) o += idx[d] * t.strides()[d];
  return o;
}
} // namespace

std::complex<double> value_at(const Tensor& t, const Dims& idx) {
  int64_t o = offset_of(t, idx);
  return visit_dtype(t.dtype(), [&](auto tag) -> std::complex<double> {
    using T = typename decltype(tag)::type;
    T v = t.data<T>()[o];
    if constexpr (is_complex_v<T>)
      return {static_cast<double>(v.real()), static_cast<double>(v.imag())};
    else
      return {static_cast<double>(v), 0.0};
  });
}

int64_t int_at(const Tensor& t, const Dims& idx) {
  int64_t o = offset_of(t, idx);
  return visit_dtype(t.dtype(), [&](auto tag) -> int64_t {
    using T = typename decltype(tag)::type;
    if constexpr (is_complex_v<T>)
      return static_cast<int64_t>(t.data<T>()[o].real());
    else
      return static_cast<int64_t>(t.data<T>()[o]);
  });
}

void set_value(const Tensor& t, const Dims& idx, std::complex<double> v) {
  int64_t o = offset_of(t, idx);
  visit_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_complex_v<T>)
      t.data<T>()[o] = T(static_cast<typename T::value_type>(v.real()),
                         static_cast<typename T::value_type>(v.imag()));
    else if constexpr (std::is_same_v<T, bool>)
      t.data<T>()[o] = v.real() != 0;
    else
      t.data<T>()[o] = static_cast<T>(v.real());
  });
}

void set_int(const Tensor& t, const Dims& idx, int64_t v) {
  int64_t o = offset_of(t, idx);
  visit_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    t.data<T>()[o] = cpu::cast_value<T>(v);
  });
}

Tensor random_tensor(DType dtype, const Dims& shape, uint64_t seed, Domain domain) {
  std::mt19937_64 rng(seed * 7919 + static_cast<uint64_t>(dtype));
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_int_distribution<int> small(-9, 9), nonneg(0, 4), bit(0, 1);
  std::uniform_real_distribution<double> unit(-0.9, 0.9), pos(0.2, 3.0);
  Tensor t = Tensor::empty(dtype, shape);
  auto real_draw = [&]() -> double {
    switch (domain) {
    case Domain::Positive: return pos(rng);
    case Domain::Unit: return unit(rng);
    case Domain::SmallNonNeg: return nonneg(rng);
    case Domain::NonZero: {
      double v = normal(rng);
      return v >= 0 ? v + 0.25 : v - 0.25;
    }
    default: return normal(rng);
    }
  };
  for_each_index(shape, [&](const Dims& idx) {
    if (dtype == DType::Bool) {
      set_value(t, idx, bit(rng) ? 1.0 : 0.0);
    } else if (is_integer(dtype)) {
      int64_t v = domain == Domain::SmallNonNeg ? nonneg(rng) : small(rng);
      if ((domain == Domain::NonZero || domain == Domain::Positive) && v <= 0)
        v = domain == Domain::Positive ? 1 - v : (v == 0 ? 3 : v);
      set_int(t, idx, v);
    } else if (is_complex(dtype)) {
      double re = real_draw(), im = domain == Domain::Positive ? 0.3 * normal(rng) : real_draw();
      set_value(t, idx, {re, im});
    } else {
      set_value(t, idx, real_draw());
    }
  });
  return t;
}

Tensor tensor_of(DType dtype, const Dims& shape, const std::vector<double>& values) {
  Tensor t = Tensor::empty(dtype, shape);
  size_t i = 0;
  for_each_index(shape, [&](const Dims& idx) { set_value(t, idx, values.at(i++)); });
  return t;
}

Tensor int_tensor(DType dtype, const Dims& shape, const std::vector<int64_t>& values) {
  Tensor t = Tensor::empty(dtype, shape);
  size_t i = 0;
  for_each_index(shape, [&](const Dims& idx) { set_int(t, idx, values.at(i++)); });
  return t;
}

Tensor relayout(const Tensor& t, int variant) {
  const size_t r = t.shape().size();
  if (variant == 0) {
    Dims rev(r), back(r);
    for (size_t i = 0; i < r; ++i) rev[i] = static_cast<int64_t>(r - 1 - i);
    Tensor store = Tensor::empty(t.dtype(), t.permuted(rev).shape());
    cpu::kernels::copy_into(store, t.permuted(rev));
    return store.permuted(rev); // reversing twice restores the dims, strides stay reversed
  }
  if (variant == 1) {
    Dims axes;
    for (size_t d = 0; d < r; ++d)
      if (t.shape()[d] > 1) {
        axes.push_back(static_cast<int64_t>(d));
        break;
      }
    Tensor store = Tensor::empty(t.dtype(), t.shape());
    cpu::kernels::copy_into(store, t.reversed(axes));
    return store.reversed(axes);
  }
  Dims big = t.shape();
  for (auto& e : big) e *= 2;
  Tensor store = Tensor::zeros(t.dtype(), big);
  Dims starts(r, 0), steps(r, 2);
  Tensor view = store.sliced(starts, big, steps);
  cpu::kernels::copy_into(view, t);
  return view;
}

double default_rtol(DType d) {
  switch (d) {
  case DType::F32:
  case DType::C32: return 2e-5;
  case DType::F64:
  case DType::C64: return 1e-12;
  default: return 0;
  }
}

namespace {
bool same_value(std::complex<double> a, std::complex<double> b, double rtol, double atol) {
  auto part = [&](double x, double y) {
    if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
    if (std::isinf(x) || std::isinf(y)) return x == y;
    return std::abs(x - y) <= atol + rtol * std::max(std::abs(x), std::abs(y));
  };
  if (rtol == 0 && atol == 0) return part(a.real(), b.real()) && part(a.imag(), b.imag());
  double scale = std::max(std::abs(a), std::abs(b));
  if (std::isnan(scale) || std::isinf(scale))
    return part(a.real(), b.real()) && part(a.imag(), b.imag());
  return std::abs(a - b) <= atol + rtol * scale;
}
} // namespace

bool close(const Tensor& a, const Tensor& b, double rtol, double atol, std::string* why) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) {
    if (why) *why = "metadata differs: " + describe(a) + " vs " + describe(b);
    return false;
  }
  bool ok = true;
  for_each_index(a.shape(), [&](const Dims& idx) {
    if (!ok) return;
    bool eq = is_integer(a.dtype()) ? int_at(a, idx) == int_at(b, idx)
                                    : same_value(value_at(a, idx), value_at(b, idx), rtol, atol);
    if (!eq) {
      ok = false;
      if (why) {
        std::ostringstream os;
        os.precision(12);
        os << "at " << format_dims(idx) << ": " << value_at(a, idx) << " vs " << value_at(b, idx);
        *why = os.str();
      }
    }
  });
  return ok;
}

bool identical(const Tensor& a, const Tensor& b, std::string* why) {
  return close(a, b, 0, 0, why);
}

std::string describe(const Tensor& t) {
  return std::string(dtype_name(t.dtype())) + format_dims(t.shape());
}

} // namespace tfe::testing
