// Hash and printer for op parameters (params.hpp).
#include "ops/params.hpp"

#include <bit>
#include <functional>

#include "core/error.hpp"
#include "ops/extension.hpp"
#include "ops/shape_checks.hpp"

namespace tfe::ops {
namespace {

struct Hasher {
  size_t h = 0x9e3779b97f4a7c15ull;
  void mix(uint64_t v) {
    h ^= std::hash<uint64_t>{}(v) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  }
  void mix(const Dims& d) {
    mix(d.size());
    for (int64_t v : d) mix(static_cast<uint64_t>(v));
  }
  void mix(const Shape& d) {
    mix(d.size());
    for (Extent e : d) {
      mix(e.expr());
      mix(static_cast<uint64_t>(e.value()));
    }
  }
  void operator()(const NoParams&) {}
  void operator()(const CompareParams& p) { mix(static_cast<uint64_t>(p.dir)); }
  void operator()(const DotGeneralParams& p) {
    mix(p.lhs_contracting);
    mix(p.rhs_contracting);
    mix(p.lhs_batch);
    mix(p.rhs_batch);
  }
  void operator()(const AxesParams& p) { mix(p.axes); }
  void operator()(const TransposeParams& p) { mix(p.perm); }
  void operator()(const ReshapeParams& p) { mix(p.shape); }
  void operator()(const BroadcastInDimParams& p) {
    mix(p.shape);
    mix(p.dims);
  }
  void operator()(const ConvertParams& p) { mix(static_cast<uint64_t>(p.dtype)); }
  void operator()(const DiagParams& p) {
    mix(static_cast<uint64_t>(p.axis_a));
    mix(static_cast<uint64_t>(p.axis_b));
  }
  void operator()(const TriangleParams& p) { mix(static_cast<uint64_t>(p.k)); }
  void operator()(const IotaParams& p) {
    mix(static_cast<uint64_t>(p.dtype));
    mix(p.shape);
    mix(static_cast<uint64_t>(p.axis));
  }
  void operator()(const SliceParams& p) {
    mix(p.starts);
    mix(p.limits);
    mix(p.strides);
  }
  void operator()(const DynamicSliceParams& p) { mix(p.sizes); }
  void operator()(const AxisParams& p) { mix(static_cast<uint64_t>(p.axis)); }
  void operator()(const SortParams& p) {
    mix(static_cast<uint64_t>(p.axis));
    mix(static_cast<uint64_t>(p.descending));
  }
  void operator()(const TransferParams& p) {
    for (Device d : {p.from, p.to})
      mix(static_cast<uint64_t>(d.kind) << 32 | static_cast<uint32_t>(d.ordinal));
  }
  void operator()(const PadParams& p) {
    mix(p.low);
    mix(p.high);
    mix(p.interior);
  }
  void operator()(const ConstantParams& p) {
    mix(static_cast<uint64_t>(p.dtype));
    mix(p.shape);
    for (std::byte b : p.bytes) mix(static_cast<uint64_t>(b));
  }
  void operator()(const ExtensionParams& p) {
    // By name, not address: equal programs hash equally whatever the def's storage.
    for (char c : p.def ? p.def->name() : std::string_view{}) mix(static_cast<uint64_t>(c));
    mix(p.options);
    mix(std::bit_cast<uint64_t>(p.eps));
  }
};

struct Printer {
  std::string operator()(const NoParams&) { return "{}"; }
  std::string operator()(const CompareParams& p) {
    return "{dir=" + std::string(compare_dir_name(p.dir)) + "}";
  }
  std::string operator()(const DotGeneralParams& p) {
    return "{lhs_contracting=" + format_dims(p.lhs_contracting) +
           ", rhs_contracting=" + format_dims(p.rhs_contracting) +
           ", lhs_batch=" + format_dims(p.lhs_batch) + ", rhs_batch=" + format_dims(p.rhs_batch) +
           "}";
  }
  std::string operator()(const AxesParams& p) { return "{axes=" + format_dims(p.axes) + "}"; }
  std::string operator()(const TransposeParams& p) { return "{perm=" + format_dims(p.perm) + "}"; }
  std::string operator()(const ReshapeParams& p) { return "{shape=" + format_shape(p.shape) + "}"; }
  std::string operator()(const BroadcastInDimParams& p) {
    return "{shape=" + format_shape(p.shape) + ", dims=" + format_dims(p.dims) + "}";
  }
  std::string operator()(const ConvertParams& p) {
    return "{dtype=" + std::string(dtype_name(p.dtype)) + "}";
  }
  std::string operator()(const DiagParams& p) {
    return strformat("{axis_a=%lld, axis_b=%lld}", (long long)p.axis_a, (long long)p.axis_b);
  }
  std::string operator()(const TriangleParams& p) { return strformat("{k=%lld}", (long long)p.k); }
  std::string operator()(const IotaParams& p) {
    return strformat("{dtype=%s, shape=%s, axis=%lld}", std::string(dtype_name(p.dtype)).c_str(),
                     format_shape(p.shape).c_str(), (long long)p.axis);
  }
  std::string operator()(const SliceParams& p) {
    return "{starts=" + format_shape(p.starts) + ", limits=" + format_shape(p.limits) +
           ", strides=" + format_dims(p.strides) + "}";
  }
  std::string operator()(const DynamicSliceParams& p) {
    return "{sizes=" + format_shape(p.sizes) + "}";
  }
  std::string operator()(const AxisParams& p) {
    return strformat("{axis=%lld}", (long long)p.axis);
  }
  std::string operator()(const SortParams& p) {
    return strformat("{axis=%lld, descending=%d}", (long long)p.axis, p.descending ? 1 : 0);
  }
  std::string operator()(const TransferParams& p) {
    return "{from=" + device_name(p.from) + ", to=" + device_name(p.to) + "}";
  }
  std::string operator()(const PadParams& p) {
    return "{low=" + format_shape(p.low) + ", high=" + format_shape(p.high) +
           ", interior=" + format_dims(p.interior) + "}";
  }
  std::string operator()(const ConstantParams& p) {
    return strformat("{dtype=%s, shape=%s}", std::string(dtype_name(p.dtype)).c_str(),
                     format_dims(p.shape).c_str());
  }
  std::string operator()(const ExtensionParams& p) {
    if (!p.def) return "{undefined extension}";
    return "{op=" + std::string(p.def->name()) + ", " + p.def->format_options(p).substr(1);
  }
};

} // namespace

size_t hash_params(const Params& p) {
  Hasher h;
  h.mix(p.index());
  std::visit(h, p);
  return h.h;
}

std::string to_string(const Params& p) { return std::visit(Printer{}, p); }

std::string format_shape(const Shape& s) {
  // In an eager derivative request the symbols stand for recorded extents: messages show those,
  // the shapes the user's tensors had.
  const ShapeWitness* w = ShapeWitness::current();
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) {
    if (i) out += ',';
    std::optional<int64_t> v = w && !s[i].is_const() ? w->value_of(s[i]) : std::nullopt;
    out += v ? std::to_string(*v) : tfe::to_string(s[i]);
  }
  return out + "]";
}

std::string_view compare_dir_name(CompareDir d) {
  switch (d) {
  case CompareDir::Eq: return "eq";
  case CompareDir::Ne: return "ne";
  case CompareDir::Lt: return "lt";
  case CompareDir::Le: return "le";
  case CompareDir::Gt: return "gt";
  case CompareDir::Ge: return "ge";
  }
  return "?";
}

} // namespace tfe::ops
