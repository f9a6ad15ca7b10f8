// Rules of the complex-parts group (src/ops/defs/complex_parts.hpp). Real, Imag and Complex are
// real-linear; their adjoints under Re<u, v> are: Re^T(ct) = ct + 0i, Im^T(ct) = i ct,
// Complex^T(ct) = (Re ct, Im ct). The JVPs of Real and Imag are shared formulas
// (ad/formulas/elementwise.hpp).
#include "ad/rules/ir_algebra.hpp"
#include "ad/rules/rules.hpp"

namespace tfe::ad::rules {

Tangent real_jvp(const JvpArgs& a) { return unary_formula<formulas::Real>(a.x, a.y, a.dx); }

Tangent imag_jvp(const JvpArgs& a) { return unary_formula<formulas::Imag>(a.x, a.y, a.dx); }

Tangent complex_jvp(const JvpArgs& a) {
  if (!a.dx[0] && !a.dx[1]) return std::nullopt;
  Value re = a.dx[0] ? *a.dx[0] : zeros_like(a.x[0]);
  Value im = a.dx[1] ? *a.dx[1] : zeros_like(a.x[1]);
  return complex(re, im);
}

void real_t(const TransposeArgs& a, std::span<Tangent> out) {
  if (!is_complex(a.x[0].meta().dtype)) {
    out[0] = a.ct;
    return;
  }
  out[0] = complex(a.ct, zeros_like(a.ct));
}

void imag_t(const TransposeArgs& a, std::span<Tangent> out) {
  out[0] = complex(zeros_like(a.ct), a.ct);
}

void complex_t(const TransposeArgs& a, std::span<Tangent> out) {
  if (a.linear[0]) out[0] = real(a.ct);
  if (a.linear[1]) out[1] = imag(a.ct);
}

} // namespace tfe::ad::rules
