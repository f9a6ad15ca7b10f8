// PairwiseSum: the deterministic, parallel sum of a gradient's contributions when adding them is
// expensive (tensors). Contribution k is leaf k of a binary tree over contribution indices: the
// block [i 2^l, (i+1) 2^l) of level l is the sum of its two halves, formed as soon as both are
// complete by the thread that completed the second, outside any lock; once every contribution is
// in, the complete blocks of the binary decomposition of n are added left to right. The tree's
// shape depends only on indices, so the bits never depend on which thread added what, or when;
// independent pairs are added concurrently. An absent contribution is an empty leaf.
// Not locked itself: the owner (GradChannel) calls the *_locked members under its lock and
// runs each Job outside it.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace tfe::dataflow::detail {

template <class T> class PairwiseSum {
public:
  // A pair to add: the halves of block `index` of level `level + 1` (each may be empty).
  struct Job {
    uint32_t level = 0, index = 0;
    std::optional<T> left, right;
  };

  // A new leaf, not yet resolved.
  void grow_locked() { at(0, leaves_++).state = State::Missing; }
  uint32_t leaves() const noexcept { return leaves_; }

  // Leaf i resolved (nullopt: absent). Returns the first pair it completes, if any.
  std::optional<Job> resolve_locked(uint32_t i, std::optional<T> v) {
    Block& b = at(0, i);
    b.value = std::move(v);
    b.state = State::Complete;
    return pair_locked(0, i);
  }
  // The sum of a job, computed outside the lock, becomes its block; returns the next pair up.
  std::optional<Job> finish_locked(const Job& j, std::optional<T> sum) {
    uint32_t level = j.level + 1;
    Block& b = at(level, j.index);
    b.value = std::move(sum);
    b.state = State::Complete;
    return pair_locked(level, j.index);
  }

  // Once every leaf is resolved and no job is in flight: the blocks of the binary decomposition
  // of leaves(), left to right (empty ones dropped).
  std::vector<T> remaining() {
    std::vector<T> out;
    uint32_t start = 0;
    for (int level = static_cast<int>(levels_.size()) - 1; level >= 0; --level) {
      uint32_t size = uint32_t{1} << level;
      if (start + size > leaves_) continue;
      Block& b = levels_[static_cast<size_t>(level)][start >> level];
      if (b.value) out.push_back(std::move(*b.value));
      start += size;
    }
    return out;
  }

private:
  enum class State : uint8_t { Missing, Complete, Consumed };
  struct Block {
    std::optional<T> value;
    State state = State::Missing;
  };

  Block& at(uint32_t level, uint32_t index) {
    if (levels_.size() <= level) levels_.resize(level + 1);
    std::vector<Block>& l = levels_[level];
    if (l.size() <= index) l.resize(index + 1);
    return l[index];
  }
  // Block `index` of `level` just completed: when its sibling is complete too, both are consumed
  // into a job for their parent.
  std::optional<Job> pair_locked(uint32_t level, uint32_t index) {
    uint32_t sibling = index ^ 1u;
    if (levels_[level].size() <= sibling) return std::nullopt;
    Block& s = levels_[level][sibling];
    if (s.state != State::Complete) return std::nullopt;
    Block& b = levels_[level][index];
    Block& left = index < sibling ? b : s;
    Block& right = index < sibling ? s : b;
    Job j{level, index >> 1, std::move(left.value), std::move(right.value)};
    left.state = right.state = State::Consumed;
    left.value.reset();
    right.value.reset();
    return j;
  }

  std::vector<std::vector<Block>> levels_;
  uint32_t leaves_ = 0;
};

} // namespace tfe::dataflow::detail
