// The kernel table: op code -> CPU kernel. The switch has no default, so with -Werror=switch a
// new op code without a kernel fails the build.
#include "backend/cpu/kernel.hpp"
#include "backend/cpu/kernels/kernels.hpp"
#include "backend/transfer.hpp"
#include "ops/extension.hpp"

namespace tfe::cpu {

Kernel kernel_for(ops::OpCode code) {
  using ops::OpCode;
  namespace k = kernels;
  switch (code) {
#define TFE_ROW_KERNEL(Code, ...)                                                                  \
  case OpCode::Code: return k::Code;
    TFE_ARITHMETIC_OPS(TFE_ROW_KERNEL)
    TFE_LOGICAL_OPS(TFE_ROW_KERNEL)
    TFE_COMPLEX_PARTS_OPS(TFE_ROW_KERNEL)
#undef TFE_ROW_KERNEL
#define TFE_ANALYTIC_KERNEL(Code, name, ...)                                                       \
  case OpCode::Code: return k::name;
    TFE_ANALYTIC_OPS(TFE_ANALYTIC_KERNEL)
#undef TFE_ANALYTIC_KERNEL
  case OpCode::Compare: return k::compare;
  case OpCode::Select: return k::select;
  case OpCode::Clamp: return k::clamp;
  case OpCode::DotGeneral: return k::dot_general;
  case OpCode::ReduceSum: return k::reduce_sum;
  case OpCode::ReduceProd: return k::reduce_prod;
  case OpCode::ReduceMax: return k::reduce_max;
  case OpCode::ReduceMin: return k::reduce_min;
  case OpCode::Transpose: return k::transpose;
  case OpCode::Reshape: return k::reshape;
  case OpCode::BroadcastInDim: return k::broadcast_in_dim;
  case OpCode::Convert: return k::convert;
  case OpCode::Reverse: return k::reverse;
  case OpCode::ExtractDiag: return k::extract_diag;
  case OpCode::EmbedDiag: return k::embed_diag;
  case OpCode::Tril: return k::tril;
  case OpCode::Triu: return k::triu;
  case OpCode::Iota: return k::iota;
  case OpCode::Transfer: return backend::transfer;
  case OpCode::Slice: return k::slice;
  case OpCode::DynamicSlice: return k::dynamic_slice;
  case OpCode::DynamicUpdateSlice: return k::dynamic_update_slice;
  case OpCode::Gather: return k::gather;
  case OpCode::Scatter: return k::scatter;
  case OpCode::Pad: return k::pad;
  case OpCode::Concatenate: return k::concatenate;
  case OpCode::Cumsum: return k::cumsum;
  case OpCode::Cumprod: return k::cumprod;
  case OpCode::Argsort: return k::argsort;
  case OpCode::Argmax: return k::argmax;
  case OpCode::Argmin: return k::argmin;
  case OpCode::Constant: return k::constant;
  case OpCode::Extension: return k::extension;
  case OpCode::Count: break;
  }
  fail(Status::Internal, "no kernel for op code %d", static_cast<int>(code));
}

Tensor execute(ops::OpCode code, Operands in, const ops::Params& params) {
  ops::Meta small[4];
  std::vector<ops::Meta> big;
  std::span<ops::Meta> metas;
  if (in.size() <= 4) {
    metas = std::span<ops::Meta>(small, in.size());
  } else {
    big.resize(in.size());
    metas = big;
  }
  for (size_t i = 0; i < in.size(); ++i) metas[i] = {in[i].dtype(), in[i].shape()};
  ops::ConcreteMeta out = ops::concrete(ops::infer_meta(code, metas, params));
  return kernel_for(code)(in, params, out);
}

std::vector<Tensor> execute_multi(ops::OpCode code, Operands in, const ops::Params& params) {
  if (code != ops::OpCode::Extension) return {execute(code, in, params)};
  std::vector<ops::Meta> metas;
  metas.reserve(in.size());
  for (const Tensor& t : in) metas.push_back({t.dtype(), t.shape()});
  ops::MetaList inferred = ops::infer_metas(code, metas, params);
  std::vector<ops::ConcreteMeta> out;
  out.reserve(inferred.size());
  for (const ops::Meta& m : inferred) out.push_back(ops::concrete(m));
  std::vector<Tensor> results(out.size());
  run_extension(in, params, out, results);
  return results;
}

void run_extension(Operands in, const ops::Params& params, std::span<const ops::ConcreteMeta> out,
                   std::span<Tensor> results) {
  ops::extension_of(params).run(in, std::get<ops::ExtensionParams>(params), out, results);
}

} // namespace tfe::cpu
