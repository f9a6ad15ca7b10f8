// Raw node construction (trace.hpp).
#include "ad/recording/trace.hpp"

#include <iterator>

namespace tfe::ad::recording {
namespace {
RawRef leaf(RawKind kind, const Tensor& value) {
  auto n = std::make_shared<RawNode>();
  n->kind = kind;
  n->value = value;
  if (kind == RawKind::TrackedLeaf) n->leaf = std::make_shared<LeafState>();
  return {std::move(n), 0};
}
} // namespace

RawRef tracked_leaf(const Tensor& value) { return leaf(RawKind::TrackedLeaf, value); }
RawRef constant_leaf(const Tensor& value) { return leaf(RawKind::ConstantLeaf, value); }
RawRef captured_leaf(const Tensor& value) { return leaf(RawKind::CapturedLeaf, value); }

void RawInputs::push_back(RawRef r) {
  if (size_ < inline_.size() && heap_.empty()) {
    inline_[size_++] = std::move(r);
    return;
  }
  if (heap_.empty()) // the fourth operand: move everything to the heap
    heap_.assign(std::make_move_iterator(inline_.begin()), std::make_move_iterator(inline_.end()));
  heap_.push_back(std::move(r));
  ++size_;
}

} // namespace tfe::ad::recording
