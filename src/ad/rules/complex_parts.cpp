// Rules of the complex-parts group (src/ops/defs/complex_parts.hpp). Real, Imag and Complex are
// real-linear; their adjoints under Re<u, v> are: Re^T(ct) = ct + 0i, Im^T(ct) = i ct,
// Complex^T(ct) = (Re ct, Im ct). The JVPs of Real and Imag are shared formulas
// (ad/formulas/elementwise.hpp).
#include "ad/rules/row_rules.hpp"

namespace tfe::ad::rules {

// One struct per row of ops/defs/complex_parts.hpp (row_rules.hpp).
namespace {

struct Real : FormulaJvp<formulas::Real, 1> {
  static void transpose(const TransposeArgs& a, std::span<Tangent> out) {
    if (!is_complex(a.x[0].meta().dtype)) {
      out[0] = a.ct;
      return;
    }
    out[0] = complex(a.ct, zeros_like(a.ct));
  }
};

struct Imag : FormulaJvp<formulas::Imag, 1> {
  static void transpose(const TransposeArgs& a, std::span<Tangent> out) {
    out[0] = complex(zeros_like(a.ct), a.ct);
  }
};

// The JVP is the op applied to the tangents (linear_jvp).
struct Complex {
  static void transpose(const TransposeArgs& a, std::span<Tangent> out) {
    if (a.linear[0]) out[0] = real(a.ct);
    if (a.linear[1]) out[1] = imag(a.ct);
  }
};

} // namespace

TFE_DEFINE_GROUP_RULES(complex_parts_rules, TFE_COMPLEX_PARTS_OPS)

} // namespace tfe::ad::rules
