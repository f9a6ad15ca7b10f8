// check_grads for programs (JAX's habit, docs/design/ad-contract.md "How AD is tested"): finite
// differences of the JVP, the dot-product (transpose) test, and second order by HVP both ways and
// finite differences of the gradient. Everything runs through the program transforms and the
// executor.
#pragma once

#include <vector>

#include "ad/transforms.hpp"
#include "graph/compile.hpp"
#include "support/tensor_testing.hpp"

namespace tfe::testing {

// Runs a program on concrete arguments (captured constants bound from its nodes).
std::vector<Tensor> run_program(const graph::Program& p, const std::vector<Tensor>& args);

// Re<a, b> = Re(sum conj(a) b), over tensors of one shape (any inexact dtypes).
double real_inner(const Tensor& a, const Tensor& b);
double max_abs(const Tensor& t);
bool all_finite(const Tensor& t);

// x + h v, elementwise, in x's dtype.
Tensor axpy(const Tensor& x, double h, const Tensor& v);

struct AdCheckResult {
  bool ok = true;
  std::string why;
};

// JVP vs central differences (F64/C64 programs). `active` are the differentiated inputs.
AdCheckResult check_jvp_fd(const graph::Program& p, const std::vector<Tensor>& args,
                           const std::vector<int64_t>& active, uint64_t seed);
// Re<vjp(ybar), xdot> == Re<ybar, jvp(xdot)> within 1e-12 (|lhs| + |rhs| + 1) (scaled by tol).
AdCheckResult check_transpose(const graph::Program& p, const std::vector<Tensor>& args,
                              const std::vector<int64_t>& active, uint64_t seed,
                              double tol = 1e-12);
// HVP forward-over-reverse == reverse-over-reverse == central differences of the gradient, for
// L(x) = Re<w, f(x)> with a random w.
AdCheckResult check_second_order(const graph::Program& p, const std::vector<Tensor>& args,
                                 const std::vector<int64_t>& active, uint64_t seed);
// The JVP of a single-precision program agrees with the JVP of the same program in double
// (inputs converted up) at rtol 1e-4.
AdCheckResult check_single_vs_double(const graph::Program& p32, const graph::Program& p64,
                                     const std::vector<Tensor>& args32,
                                     const std::vector<int64_t>& active, uint64_t seed);

} // namespace tfe::testing
