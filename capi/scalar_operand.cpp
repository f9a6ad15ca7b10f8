// Host scalars as weak operands (tenferro/ops_elementwise.h, "host scalar operands"): the dtype a
// Python-style scalar takes beside a tensor (NumPy 2's rule), the rank-0 tensor holding it, and
// the binary functions of a tensor and such a scalar in one call.
#include <array>
#include <complex>
#include <cstring>
#include <limits>

#include "backend/cpu/kernel.hpp"
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

// Calls f with the scalar converted to dtype's element type (NumPy's casts), the one conversion
// behind both the rank-0 tensor and the host path that needs none.
template <class F> Tensor integer_value(DType dtype, int64_t v, const char* what, F&& f) {
  switch (dtype) {
  case DType::Bool: return f(v != 0);
  case DType::I32:
    if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max())
      fail(Status::InvalidArgument, "%s %lld does not fit I32", what, static_cast<long long>(v));
    return f(static_cast<int32_t>(v));
  case DType::I64: return f(v);
  case DType::F32: return f(static_cast<float>(v));
  case DType::F64: return f(static_cast<double>(v));
  case DType::C32: return f(std::complex<float>(static_cast<float>(v)));
  default: return f(std::complex<double>(static_cast<double>(v)));
  }
}

template <class F> Tensor inexact_value(DType dtype, double re, double im, F&& f) {
  switch (dtype) {
  case DType::F32: return f(static_cast<float>(re)); // beyond F32's range: +-inf, as NumPy's cast
  case DType::F64: return f(re);
  case DType::C32: return f(std::complex<float>(static_cast<float>(re), static_cast<float>(im)));
  default: return f(std::complex<double>(re, im));
  }
}

// f(the scalar as a value of `dtype`, weak_dtype's choice for it).
template <class F> Tensor weak_value(DType dtype, const HostScalar& s, F&& f) {
  switch (s.kind) {
  case TFE_SCALAR_BOOL:
    if (s.int_value != 0 && s.int_value != 1)
      fail(Status::InvalidArgument, "a bool scalar is 0 or 1, not %lld",
           static_cast<long long>(s.int_value));
    return integer_value(dtype, s.int_value, "bool scalar", f);
  case TFE_SCALAR_INT: return integer_value(dtype, s.int_value, "integer scalar", f);
  case TFE_SCALAR_FLOAT: return inexact_value(dtype, s.re, 0.0, f);
  default: return inexact_value(dtype, s.re, s.im, f);
  }
}

Tensor weak_scalar(DType like, const HostScalar& s) {
  return weak_value(weak_dtype(like, s.kind), s,
                    [](auto v) { return eager::full(dtype_of_v<decltype(v)>, Dims{}, &v); });
}

// The eager host case without a tensor for the scalar: a concrete host operand the op runs on
// at once (no trace, dataflow context or AD recording) in a dtype the scalar does not promote and
// the op accepts. The general path would then hand the op's kernel x and the rank-0 tensor's
// stride-0 view with x's shape, unconverted; this hands it the same view over the value on the
// stack, so the same kernel gives the same bits and the same errors, without the rank-0
// tensor's allocation, the surface's promotion and broadcast plan, or the view op. An undefined
// tensor leaves every other case to the general path.
Tensor host_binary(const tfe_context& ctx, int32_t op, const runtime::Value& x, const HostScalar& s,
                   bool scalar_first) {
  if (runtime::choose_engine(x.symbolic(), ctx.is_dataflow(), x.tracked(), ctx.recording()) !=
      runtime::Engine::Plain)
    return {};
  const Tensor& t = x.tensor();
  if (!t.defined() || !t.device().is_cpu()) return {};
  const DType d = t.dtype();
  if (weak_dtype(d, s.kind) != d) return {};
  OpCode code;
  ops::Params params = ops::NoParams{};
  switch (op) {
  case TFE_BINOP_ADD: code = OpCode::Add; break;
  case TFE_BINOP_SUB: code = OpCode::Sub; break;
  case TFE_BINOP_MUL: code = OpCode::Mul; break;
  case TFE_BINOP_DIV: // true division converts Bool and integers to F64 first
    if (!is_inexact(d)) return {};
    code = OpCode::Div;
    break;
  case TFE_BINOP_DIV_TRUNC:
    if (!is_integer(d)) return {};
    code = OpCode::Div;
    break;
  case TFE_BINOP_REM: code = OpCode::Rem; break;
  case TFE_BINOP_POW: code = OpCode::Pow; break;
  case TFE_BINOP_MAXIMUM: code = OpCode::Maximum; break;
  case TFE_BINOP_MINIMUM: code = OpCode::Minimum; break;
  case TFE_BINOP_AND: code = OpCode::And; break;
  case TFE_BINOP_OR: code = OpCode::Or; break;
  case TFE_BINOP_XOR: code = OpCode::Xor; break;
  default:
    if (op < TFE_BINOP_EQ || op > TFE_BINOP_GE) return {};
    code = OpCode::Compare;
    params = ops::CompareParams{static_cast<ops::CompareDir>(op - TFE_BINOP_EQ + TFE_CMP_EQ)};
  }
  // The surface refuses an unaccepted dtype with its own message before any kernel runs.
  if (!ops::op_def(code).accepts.contains(d)) return {};
  return weak_value(d, s, [&](auto v) {
    // Nothing frees the adopted value, and no binary kernel's result aliases an operand, so the
    // view ends with this call.
    Tensor view(Storage::adopt(&v, sizeof v, nullptr, nullptr), d, t.shape(),
                Dims(t.shape().size(), 0), 0);
    std::array<Tensor, 2> in{scalar_first ? view : t, scalar_first ? t : view};
    return cpu::execute(code, in, params);
  });
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
    const HostScalar hs{kind, int_value, re, im};
    if (Tensor r = host_binary(*ctx, op, x->value, hs, scalar_first != 0); r.defined()) {
      *out = new_tensor(ctx, std::move(r));
      return;
    }
    Tensor s = weak_scalar(x->meta().dtype, hs);
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
