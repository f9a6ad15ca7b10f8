// Einstein summation (tenferro/einsum.h): the operands in the value type their handles call for
// (as list_call chooses it), and the context's plan cache.
#include <cstring>

#include "capi/op_call.hpp"
#include "einsum/einsum.hpp"

using namespace tfe;
using namespace tfe::capi;

namespace {

constexpr int32_t kMaxOperands = 64;

void check_count(const char* subscripts, int32_t n) {
  if (n < 1 || n > kMaxOperands)
    fail(Status::InvalidArgument,
         "subscripts \"%s\": n %d is outside 1..%d (the result's context comes from the "
         "operands)",
         subscripts, n, kMaxOperands);
}

} // namespace

extern "C" {

tfe_status tfe_einsum(tfe_tensor** out, const char* subscripts, int32_t n,
                      tfe_tensor* const* operands) {
  return guarded("tfe_einsum", [&] {
    out_slot(out);
    require(subscripts, "subscripts");
    check_count(subscripts, n);
    TensorList list = tensor_list(n, operands, "operands");
    einsum::PlanCache* cache = &list.ctx->einsum_plans;
    list.run([&](auto span) { return einsum::einsum(subscripts, span, cache); },
             [&](auto v) { *out = new_tensor(list.ctx, std::move(v)); });
  });
}

tfe_status tfe_einsum_path(const char* subscripts, int32_t n, tfe_tensor* const* operands,
                           void* dst, int64_t capacity_bytes, int32_t* out_steps, double* out_flops,
                           double* out_largest, int32_t* out_optimal) {
  return guarded("tfe_einsum_path", [&] {
    require(subscripts, "subscripts");
    check_count(subscripts, n);
    require(operands, "operands");
    if (capacity_bytes < 0)
      fail(Status::InvalidArgument, "capacity_bytes %lld is negative", (long long)capacity_bytes);
    if (capacity_bytes > 0) require(dst, "dst");
    require(out_steps, "out_steps");
    require(out_flops, "out_flops");
    require(out_largest, "out_largest");
    require(out_optimal, "out_optimal");
    // Only shapes are read: no value is computed, waited for or recorded.
    std::span<tfe_tensor* const> handles(operands, static_cast<size_t>(n));
    tfe_context* ctx = common_context(handles, "operands");
    std::vector<Shape> shapes;
    for (tfe_tensor* t : handles) shapes.push_back(t->meta().shape);
    std::shared_ptr<const einsum::Plan> plan =
        einsum::plan_cached(&ctx->einsum_plans, subscripts, shapes);
    const einsum::Path& path = plan->path;
    auto need = static_cast<int64_t>(2 * sizeof(int64_t) * path.pairs.size());
    if (capacity_bytes > 0 && capacity_bytes < need)
      fail(Status::InvalidArgument, "capacity_bytes %lld is below the %lld the %zu steps need",
           (long long)capacity_bytes, (long long)need, path.pairs.size());
    if (capacity_bytes > 0) {
      std::vector<int64_t> flat;
      for (auto [i, j] : path.pairs) {
        flat.push_back(i);
        flat.push_back(j);
      }
      if (!flat.empty()) std::memcpy(dst, flat.data(), flat.size() * sizeof(int64_t));
    }
    *out_steps = static_cast<int32_t>(path.pairs.size());
    *out_flops = path.flops;
    *out_largest = path.largest;
    *out_optimal = path.optimal ? 1 : 0;
  });
}

} // extern "C"
