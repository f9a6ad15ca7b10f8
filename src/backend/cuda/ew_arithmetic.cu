// The arithmetic group's rows (ops/defs/arithmetic.hpp) for every dtype each accepts.
#include "backend/cuda/elementwise.cuh"

namespace tfe::cuda {
namespace {

// The dtype sets of the op table.
#define TFE_EW_INT(M, ...) M(int32_t, __VA_ARGS__), M(int64_t, __VA_ARGS__)
#define TFE_EW_REAL_FLOAT(M, ...) M(float, __VA_ARGS__), M(double, __VA_ARGS__)
#define TFE_EW_COMPLEX(M, ...) M(c32, __VA_ARGS__), M(c64, __VA_ARGS__)
#define TFE_EW_REAL_NUMERIC(M, ...) TFE_EW_INT(M, __VA_ARGS__), TFE_EW_REAL_FLOAT(M, __VA_ARGS__)
#define TFE_EW_NUMERIC(M, ...) TFE_EW_REAL_NUMERIC(M, __VA_ARGS__), TFE_EW_COMPLEX(M, __VA_ARGS__)
#define TFE_EW_ORDERED(M, ...) M(bool, __VA_ARGS__), TFE_EW_REAL_NUMERIC(M, __VA_ARGS__)

#define TFE_EW_SAME(T, F, name, arity, flags) same<fn::F, T, arity>(name, flags)
#define TFE_EW_TO_REAL(T, F, name) to_real<fn::F, T>(name)

const EwEntry kRows[] = {
    TFE_EW_NUMERIC(TFE_EW_SAME, Add, "add", 2, kEwNone),
    TFE_EW_NUMERIC(TFE_EW_SAME, Sub, "sub", 2, kEwNone),
    TFE_EW_NUMERIC(TFE_EW_SAME, Mul, "mul", 2, kEwNone),
    TFE_EW_NUMERIC(TFE_EW_SAME, Div, "div", 2, kEwChecksRhs),
    TFE_EW_REAL_NUMERIC(TFE_EW_SAME, Rem, "rem", 2, kEwChecksRhs),
    TFE_EW_NUMERIC(TFE_EW_SAME, Pow, "pow", 2, kEwChecksRhs),
    TFE_EW_NUMERIC(TFE_EW_SAME, Neg, "neg", 1, kEwNone),
    TFE_EW_NUMERIC(TFE_EW_SAME, Conj, "conj", 1, kEwNone),
    TFE_EW_NUMERIC(TFE_EW_TO_REAL, Abs, "abs"),
    TFE_EW_NUMERIC(TFE_EW_SAME, Sign, "sign", 1, kEwNone),
    TFE_EW_ORDERED(TFE_EW_SAME, Maximum, "maximum", 2, kEwNone),
    TFE_EW_ORDERED(TFE_EW_SAME, Minimum, "minimum", 2, kEwNone),
    TFE_EW_ORDERED(TFE_EW_SAME, Fmax, "fmax", 2, kEwNone),
    TFE_EW_ORDERED(TFE_EW_SAME, Fmin, "fmin", 2, kEwNone),
};

} // namespace

std::span<const EwEntry> ew_arithmetic_entries() { return kRows; }

} // namespace tfe::cuda
