// The CPU kernel interface: one function per op, looked up by op code (kernel_table.cpp).
// A kernel receives operands already validated by the op's shape rule (and the inferred output
// metadata) and returns the result: a fresh tensor from the caching allocator, or a view.
#pragma once

#include <span>
#include <vector>

#include "backend/backend.hpp"
#include "core/error.hpp"
#include "core/operands.hpp"
#include "core/tensor.hpp"
#include "ops/op_table.hpp"

namespace tfe::cpu {

using Kernel = backend::Kernel;

Kernel kernel_for(ops::OpCode code);

// Runs op `code` on CPU tensors: infer_meta, then the kernel.
Tensor execute(ops::OpCode code, Operands in, const ops::Params& params);

// Runs an op of any output count (an extension op may have several): infer, then the kernel.
std::vector<Tensor> execute_multi(ops::OpCode code, Operands in, const ops::Params& params);
// The kernel of an extension op: writes every output (results[i], metadata out[i]).
void run_extension(Operands in, const ops::Params& params, std::span<const ops::ConcreteMeta> out,
                   std::span<Tensor> results);

// Calls f(type_tag<T>{}) for d when the op accepts d, instantiating nothing else; an unaccepted
// dtype is NotSupported naming the op (never a fallback).
template <ops::OpCode Op, class F> void dispatch_accepted(DType d, F&& f) {
  constexpr uint8_t bits = ops::kOpTable[static_cast<size_t>(Op)].accepts.bits();
  visit_dtype(d, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (((bits >> dtype_index(dtype_of_v<T>)) & 1u) != 0) {
      f(tag);
    } else {
      fail(Status::NotSupported, "%s has no CPU kernel for %s",
           std::string(ops::op_def(Op).name).c_str(), std::string(dtype_name(d)).c_str());
    }
  });
}

} // namespace tfe::cpu
