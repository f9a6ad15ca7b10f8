// Host scalars as weak operands (tenferro/ops_elementwise.h, "host scalar operands"): the dtype a
// Python-style scalar takes beside a tensor (NumPy 2's rule), the rank-0 tensor holding it, and
// the binary functions of a tensor and such a scalar in one call.
#include <array>
#include <complex>
#include <cstring>
#include <limits>

#include "capi/op_call.hpp"
#include "eager/creation.hpp"

using namespace tfe;
using namespace tfe::capi;
using ops::OpCode;

namespace {

struct HostScalar {
  int32_t kind;
  int64_t int_value;
  double re, im;
};

// Within its kind the operand's precision wins; a higher kind than the operand's takes that
// kind's default (I64, F64, C64), except that a complex next to F32 keeps single precision.
DType weak_dtype(DType like, int32_t kind) {
  switch (kind) {
  case TFE_SCALAR_BOOL: return like;
  case TFE_SCALAR_INT: return like == DType::Bool ? DType::I64 : like;
  case TFE_SCALAR_FLOAT: return is_inexact(like) ? like : DType::F64;
  case TFE_SCALAR_COMPLEX:
    return like == DType::F32 || like == DType::C32 ? DType::C32 : DType::C64;
  default:
    fail(Status::InvalidArgument, "unknown scalar kind %d (TFE_SCALAR_BOOL .. _COMPLEX)", kind);
  }
}

template <class T> Tensor rank0(DType dtype, T value) { return eager::full(dtype, Dims{}, &value); }

Tensor integer_tensor(DType dtype, int64_t v, const char* what) {
  switch (dtype) {
  case DType::Bool: return rank0<bool>(dtype, v != 0);
  case DType::I32:
    if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max())
      fail(Status::InvalidArgument, "%s %lld does not fit I32", what, static_cast<long long>(v));
    return rank0(dtype, static_cast<int32_t>(v));
  case DType::I64: return rank0(dtype, v);
  case DType::F32: return rank0(dtype, static_cast<float>(v));
  case DType::F64: return rank0(dtype, static_cast<double>(v));
  case DType::C32: return rank0(dtype, std::complex<float>(static_cast<float>(v)));
  default: return rank0(dtype, std::complex<double>(static_cast<double>(v)));
  }
}

Tensor inexact_tensor(DType dtype, double re, double im) {
  switch (dtype) {
  case DType::F32:
    return rank0(dtype, static_cast<float>(re)); // beyond F32's range: +-inf, as NumPy's cast
  case DType::F64: return rank0(dtype, re);
  case DType::C32:
    return rank0(dtype, std::complex<float>(static_cast<float>(re), static_cast<float>(im)));
  default: return rank0(dtype, std::complex<double>(re, im));
  }
}

Tensor weak_scalar(DType like, const HostScalar& s) {
  DType dtype = weak_dtype(like, s.kind);
  switch (s.kind) {
  case TFE_SCALAR_BOOL:
    if (s.int_value != 0 && s.int_value != 1)
      fail(Status::InvalidArgument, "a bool scalar is 0 or 1, not %lld",
           static_cast<long long>(s.int_value));
    return integer_tensor(dtype, s.int_value, "bool scalar");
  case TFE_SCALAR_INT: return integer_tensor(dtype, s.int_value, "integer scalar");
  case TFE_SCALAR_FLOAT: return inexact_tensor(dtype, s.re, 0.0);
  default: return inexact_tensor(dtype, s.re, s.im);
  }
}

// The function of each TFE_BINOP_ code on two values of one value type.
template <class V> V apply_binop(int32_t op, const V& a, const V& b) {
  std::array<V, 2> in{a, b};
  std::span<const V> operands(in);
  auto run = [&](OpCode code) { return eager::call<V>(code, operands); };
  switch (op) {
  case TFE_BINOP_ADD: return run(OpCode::Add);
  case TFE_BINOP_SUB: return run(OpCode::Sub);
  case TFE_BINOP_MUL: return run(OpCode::Mul);
  case TFE_BINOP_DIV: return eager::true_divide(a, b);
  case TFE_BINOP_DIV_TRUNC:
    if (!is_integer(meta_of(a).dtype) || !is_integer(meta_of(b).dtype))
      fail(Status::DtypeMismatch, "needs integer operands (use TFE_BINOP_DIV for true division)");
    return run(OpCode::Div);
  case TFE_BINOP_REM: return run(OpCode::Rem);
  case TFE_BINOP_POW: return run(OpCode::Pow);
  case TFE_BINOP_MAXIMUM: return run(OpCode::Maximum);
  case TFE_BINOP_MINIMUM: return run(OpCode::Minimum);
  case TFE_BINOP_AND: return run(OpCode::And);
  case TFE_BINOP_OR: return run(OpCode::Or);
  case TFE_BINOP_XOR: return run(OpCode::Xor);
  default:
    if (op < TFE_BINOP_EQ || op > TFE_BINOP_GE)
      fail(Status::InvalidArgument, "unknown op %d (TFE_BINOP_ADD .. TFE_BINOP_GE)", op);
    return eager::call<V>(
        OpCode::Compare, operands,
        ops::CompareParams{static_cast<ops::CompareDir>(op - TFE_BINOP_EQ + TFE_CMP_EQ)});
  }
}

} // namespace

extern "C" {

tfe_status tfe_weak_scalar(tfe_tensor** out, tfe_context* ctx, int32_t beside, int32_t kind,
                           int64_t int_value, double re, double im) {
  return guarded("tfe_weak_scalar", [&] {
    out_slot(out);
    require(ctx, "ctx");
    *out = new_tensor(ctx, weak_scalar(require_dtype(beside), {kind, int_value, re, im}));
  });
}

tfe_status tfe_binary_scalar(tfe_tensor** out, int32_t op, const tfe_tensor* x, int32_t kind,
                             int64_t int_value, double re, double im, int32_t scalar_first) {
  return guarded("tfe_binary_scalar", [&] {
    out_slot(out);
    tfe_context* ctx = common_context({{x, "x"}});
    Tensor s = weak_scalar(x->meta().dtype, {kind, int_value, re, im});
    run_op(
        ctx,
        [&](const auto& v) {
          using V = std::decay_t<decltype(v)>;
          V sv = literal(s, static_cast<const V*>(nullptr));
          return scalar_first ? apply_binop(op, sv, v) : apply_binop(op, v, sv);
        },
        [&](auto result) { *out = new_tensor(ctx, std::move(result)); }, Arg{x, "x"});
  });
}

} // extern "C"
