// The recording emit and its surface instantiation (recorded.hpp).
#include "ad/recording/recorded.hpp"

#include "backend/execute.hpp"
#include "eager/surface_impl.hpp"

namespace tfe::ad::recording {
namespace {
thread_local bool t_capture = false;

RawRef leaf_for_untracked(const Tensor& v) {
  return t_capture ? captured_leaf(v) : constant_leaf(v);
}
} // namespace

CaptureScope::CaptureScope(bool capture) : outer_(t_capture) { t_capture = capture; }
CaptureScope::~CaptureScope() { t_capture = outer_; }

Recorded emit(ops::OpCode code, Refs<Recorded> in, const ops::Params& params) {
  tfe::eager::detail::ScratchSpan<const Tensor*, 4> values(in.size(),
                                                           [&](size_t i) { return &in[i].value; });
  bool tracked = t_capture;
  for (const Recorded& r : in) tracked |= static_cast<bool>(r.ref);
  Tensor out = backend::execute(code, Operands(values.view), params);
  if (!tracked) return {std::move(out), {}};
  RawRef node = op_node(code, params, out, in.size(), [&](size_t i) {
    const Recorded& r = in[i];
    RawRef ref = r.ref ? r.ref : leaf_for_untracked(r.value);
    if (code != ops::OpCode::Concatenate) return ref;
    // pin to the exact eager shape; never executed
    return op_node(ops::OpCode::Reshape, ops::ReshapeParams{Shape(r.value.shape())}, r.value, 1,
                   [&](size_t) { return ref; });
  });
  return {std::move(out), std::move(node)};
}

std::vector<Recorded> emit_multi(ops::OpCode code, std::span<const Recorded> in,
                                 const ops::Params& params) {
  tfe::eager::detail::ScratchSpan<const Tensor*, 4> values(in.size(),
                                                           [&](size_t i) { return &in[i].value; });
  bool tracked = t_capture;
  for (const Recorded& r : in) tracked |= static_cast<bool>(r.ref);
  std::vector<Tensor> outs = backend::execute_multi(code, Operands(values.view), params);
  std::vector<Recorded> result;
  result.reserve(outs.size());
  if (!tracked) {
    for (Tensor& t : outs) result.push_back({std::move(t), {}});
    return result;
  }
  // One raw node holds every output: they share one history.
  RawRef node = op_node(
      code, params, outs[0], in.size(),
      [&](size_t i) { return in[i].ref ? in[i].ref : leaf_for_untracked(in[i].value); },
      std::vector<Tensor>(outs.begin() + 1, outs.end()));
  for (uint32_t i = 0; i < outs.size(); ++i) result.push_back({outs[i], RawRef{node.node, i}});
  return result;
}

ops::Meta meta_of(const Recorded& r) { return tfe::meta_of(r.value); }

Recorded literal(const Tensor& value, const Recorded*) { return {value, {}}; }

} // namespace tfe::ad::recording

namespace tfe::eager {
TFE_SURFACE_INSTANCES(ad::recording::Recorded, )
} // namespace tfe::eager
