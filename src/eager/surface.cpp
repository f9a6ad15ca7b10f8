// The eager instantiation of the surface (surface.hpp) and the shared non-template pieces.
#include "eager/surface_impl.hpp"

#include "backend/cpu/kernel.hpp"
#include "backend/device/kernels.hpp"
#include "backend/execute.hpp"
#include "backend/cpu/kernels/kernels.hpp"

namespace tfe {

Tensor emit(ops::OpCode code, Operands in, const ops::Params& params) {
  return backend::execute(code, in, params);
}

std::vector<Tensor> emit_multi(ops::OpCode code, std::span<const Tensor> in,
                               const ops::Params& params) {
  return backend::execute_multi(code, in, params);
}

ops::Meta meta_of(const Tensor& t) { return {t.dtype(), Shape(t.shape())}; }

} // namespace tfe

namespace tfe::eager {

namespace detail {
std::string dtypes_text(std::span<const DType> ds) {
  std::string s;
  for (size_t i = 0; i < ds.size(); ++i) {
    if (i) s += i + 1 == ds.size() ? " and " : ", ";
    s += dtype_name(ds[i]);
  }
  return s;
}
} // namespace detail

Shape broadcast_shapes(std::span<const Shape> shapes) {
  size_t rank = 0;
  for (const Shape& sh : shapes) rank = std::max(rank, sh.size());
  Shape out(rank, 1);
  auto all = [&] {
    std::string text;
    for (size_t i = 0; i < shapes.size(); ++i) {
      if (i) text += i + 1 == shapes.size() ? " and " : ", ";
      text += ops::format_shape(shapes[i]);
    }
    return text;
  };
  for (size_t d = 0; d < rank; ++d) {
    bool set = false;
    for (const Shape& sh : shapes) {
      Extent e = d < sh.size() ? sh[d] : Extent(1);
      if (e == Extent(1)) continue;
      if (!set) {
        out[d] = e;
        set = true;
      } else if (!(out[d] == e)) {
        if (out[d].is_const() && e.is_const())
          fail(Status::ShapeMismatch,
               "shapes %s do not broadcast (left-aligned: dim %zu has %lld and %lld)",
               all().c_str(), d, (long long)out[d].value(), (long long)e.value());
        if (!out[d].is_const() && !e.is_const())
          fail(Status::ShapeMismatch,
               "shapes %s do not broadcast: dim %zu relates symbolic extents %s and %s",
               all().c_str(), d, to_string(out[d]).c_str(), to_string(e).c_str());
        // A symbol against a constant: take the constant; the BroadcastInDim that follows
        // records the guard (symbol == constant) checked when the program is bound.
        if (e.is_const()) out[d] = e;
      }
    }
  }
  return out;
}

Tensor contiguous(const Tensor& t) {
  if (!t.device().is_cpu()) return device::compact(t);
  if (t.is_compact() && t.offset() == 0 && t.storage() && t.storage()->nbytes() == t.nbytes())
    return t;
  Tensor out = Tensor::empty(t.dtype(), t.shape());
  cpu::kernels::copy_into(out, t);
  return out;
}

TFE_SURFACE_INSTANCES(Tensor, )

} // namespace tfe::eager
