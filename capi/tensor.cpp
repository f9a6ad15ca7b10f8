// Tensors from and to caller memory, accessors, lifetimes.
#include <cstring>

#include "backend/cpu/strided_loop.hpp"
#include "capi/creation_device.hpp"
#include "capi/op_call.hpp"
#include "eager/surface.hpp"

using namespace tfe;
using namespace tfe::capi;

namespace {

// Byte-wise strided copy between tensors of one dtype and shape: safe for caller memory that is
// not aligned to the element size.
void copy_bytes(const Tensor& dst, const Tensor& src) {
  const int64_t isz = itemsize(src.dtype());
  cpu::StridedLoop<2> loop(src.shape(), {&dst, &src});
  auto inner = [isz](const auto& p, int64_t n, const auto& s) {
    if (s[0] == isz && s[1] == isz) {
      std::memcpy(p[0], p[1], static_cast<size_t>(n * isz));
    } else {
      for (int64_t i = 0; i < n; ++i)
        std::memcpy(p[0] + i * s[0], p[1] + i * s[1], static_cast<size_t>(isz));
    }
  };
  cpu::parallel_for(loop.numel(), cpu::kGrainCheap,
                    [&](int64_t b, int64_t e) { loop.run(b, e, inner); });
}

// A non-owning view of caller memory (element (0,..,0) at data).
Tensor borrow(void* data, DType dtype, Dims shape, Dims strides) {
  return Tensor(Storage::adopt(data, 0, nullptr, nullptr), dtype, std::move(shape),
                std::move(strides), 0);
}

// A symbol is reported as -k; a derived symbolic extent (s1 + 1, ...) as TFE_EXTENT_DERIVED.
int64_t reported_extent(Extent e) {
  if (e.is_const()) return e.value();
  if (int64_t k = symbol_id(e)) return -k;
  return TFE_EXTENT_DERIVED;
}

} // namespace

extern "C" {

tfe_status tfe_tensor_symbolic(tfe_tensor** out, tfe_context* ctx, int32_t dtype, int32_t ndim,
                               const int64_t* shape) {
  return guarded("tfe_tensor_symbolic", [&] {
    out_slot(out);
    require(ctx, "ctx");
    DType dt = require_dtype(dtype);
    if (ndim < 0) fail(Status::InvalidArgument, "ndim %d is negative", ndim);
    Shape s;
    for (int64_t e : int64_array(shape, ndim, "shape")) {
      if (e == TFE_EXTENT_DERIVED)
        fail(Status::InvalidArgument, "shape %s: extents are >= 0 (concrete) or -k (symbol k)",
             format_dims(std::span<const int64_t>(shape, static_cast<size_t>(ndim))).c_str());
      if (e < -kMaxSymbol)
        fail(Status::InvalidArgument, "shape %s: symbol id %lld exceeds the limit of %lld symbols",
             format_dims(std::span<const int64_t>(shape, static_cast<size_t>(ndim))).c_str(),
             (long long)-e, (long long)kMaxSymbol);
      s.push_back(e >= 0 ? Extent(e) : Extent::symbol(-e));
    }
    *out = new_tensor(ctx, graph::argument(dt, std::move(s)));
  });
}

tfe_status tfe_tensor_is_symbolic(const tfe_tensor* t, int32_t* out) {
  return guarded("tfe_tensor_is_symbolic",
                 [&] { *require(out, "out") = require(t, "t")->value.symbolic() ? 1 : 0; });
}

tfe_status tfe_tensor_extent_text(const tfe_tensor* t, int64_t axis, char* buf, int64_t capacity,
                                  int64_t* needed) {
  return guarded("tfe_tensor_extent_text", [&] {
    Shape s = require(t, "t")->meta().shape;
    if (capacity < 0 || (capacity > 0 && !buf))
      fail(Status::InvalidArgument, "buf is NULL with capacity %lld", (long long)capacity);
    std::string text =
        to_string(s[static_cast<size_t>(normalize_axis(axis, static_cast<int64_t>(s.size())))]);
    if (needed) *needed = static_cast<int64_t>(text.size()) + 1;
    if (capacity > 0) {
      size_t n = std::min(static_cast<size_t>(capacity - 1), text.size());
      std::memcpy(buf, text.data(), n);
      buf[n] = '\0';
    }
  });
}

tfe_status tfe_tensor_from_data(tfe_tensor** out, tfe_context* ctx, int32_t dtype, int32_t ndim,
                                const int64_t* shape, const int64_t* strides, const void* data) {
  return guarded("tfe_tensor_from_data", [&] {
    out_slot(out);
    require(ctx, "ctx");
    Layout l = layout_arg(dtype, ndim, shape, strides);
    Tensor result = Tensor::empty(l.dtype, l.shape);
    if (result.numel() > 0) {
      require(data, "data");
      copy_bytes(result, borrow(const_cast<void*>(data), l.dtype, l.shape, l.strides));
      if (l.dtype == DType::Bool) {
        auto* b = reinterpret_cast<unsigned char*>(result.raw_data());
        for (int64_t i = 0; i < result.numel(); ++i) b[i] = b[i] != 0;
      }
    }
    *out = new_tensor(ctx, on_creation_device(*ctx, std::move(result)));
  });
}

tfe_status tfe_tensor_to_data(const tfe_tensor* t, void* dst, int64_t capacity_bytes) {
  return guarded("tfe_tensor_to_data", [&] {
    const Tensor& v = host_value(t, "t");
    if (capacity_bytes < v.nbytes())
      fail(Status::InvalidArgument,
           "capacity_bytes %lld is below the %lld bytes of %s tensor of shape %s",
           (long long)capacity_bytes, (long long)v.nbytes(),
           std::string(dtype_phrase(v.dtype())).c_str(), format_dims(v.shape()).c_str());
    if (v.numel() == 0) return;
    require(dst, "dst");
    copy_bytes(borrow(dst, v.dtype(), v.shape(), compact_strides(v.shape())), v);
  });
}

tfe_status tfe_tensor_dtype(const tfe_tensor* t, int32_t* out) {
  return guarded("tfe_tensor_dtype", [&] {
    *require(out, "out") = static_cast<int32_t>(require(t, "t")->meta().dtype);
  });
}

tfe_status tfe_tensor_ndim(const tfe_tensor* t, int32_t* out) {
  return guarded("tfe_tensor_ndim", [&] {
    *require(out, "out") = static_cast<int32_t>(require(t, "t")->meta().shape.size());
  });
}

tfe_status tfe_tensor_shape(const tfe_tensor* t, int64_t* out_shape) {
  return guarded("tfe_tensor_shape", [&] {
    Shape s = require(t, "t")->meta().shape;
    if (s.empty()) return;
    require(out_shape, "out_shape");
    for (size_t d = 0; d < s.size(); ++d) out_shape[d] = reported_extent(s[d]);
  });
}

tfe_status tfe_tensor_numel(const tfe_tensor* t, int64_t* out) {
  return guarded("tfe_tensor_numel", [&] {
    require(out, "out");
    Shape s = require(t, "t")->meta().shape;
    Dims dims;
    for (Extent e : s) {
      if (!e.is_const())
        fail(Status::InvalidArgument, "'t' has the symbolic shape %s: its size is not known",
             ops::format_shape(s).c_str());
      dims.push_back(e.value());
    }
    // 0 with a zero extent, whatever the others; a traced shape may overflow otherwise.
    int64_t n = 1;
    if (has_zero_extent(dims)) n = 0;
    for (int64_t e : dims)
      if (n != 0 && __builtin_mul_overflow(n, e, &n))
        fail(Status::Numerical, "'t' has the shape %s, more than 2^63-1 elements",
             format_dims(dims).c_str());
    *out = n;
  });
}

tfe_status tfe_tensor_stride(const tfe_tensor* t, int64_t axis, int64_t* out) {
  return guarded("tfe_tensor_stride", [&] {
    require(out, "out");
    const Tensor& v = concrete_value(t, "t");
    *out = v.stride(normalize_axis(axis, v.ndim()));
  });
}

tfe_status tfe_tensor_data(const tfe_tensor* t, const void** out) {
  return guarded("tfe_tensor_data", [&] {
    require(out, "out");
    // A tensor without elements has no address worth giving: NULL, documented, whatever the
    // storage behind it (docs/reliability.md).
    const Tensor& v = host_value(t, "t");
    *out = v.numel() == 0 ? nullptr : v.raw_data();
  });
}

tfe_status tfe_tensor_context(tfe_context** out, const tfe_tensor* t) {
  return guarded("tfe_tensor_context", [&] {
    out_slot(out);
    tfe_context* ctx = require(t, "t")->ctx;
    retain(ctx);
    *out = ctx;
  });
}

tfe_status tfe_tensor_contiguous(tfe_tensor** out, const tfe_tensor* t) {
  return op_call(
      "tfe_tensor_contiguous", out,
      [](const auto& x) {
        if constexpr (std::is_same_v<std::decay_t<decltype(x)>, Tensor>)
          return eager::contiguous(x);
        else
          return x; // layout is an execution detail of traced values
      },
      Arg{t, "t"});
}

tfe_status tfe_tensor_retain(tfe_tensor* t) {
  return guarded("tfe_tensor_retain",
                 [&] { require(t, "t")->refs.fetch_add(1, std::memory_order_relaxed); });
}

void tfe_tensor_release(tfe_tensor* t) { release_counted(t, "tfe_tensor_release", "t"); }

} // extern "C"
