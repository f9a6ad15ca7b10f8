// The CPU block interpreter of fused regions (fused_kernel.hpp).
#include "backend/cpu/fused_kernel.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "backend/cpu/fused_steps.hpp"
#include "backend/cpu/strided_loop.hpp"

namespace tfe::cpu {
namespace {

// Elements per block: 1024 complex doubles are 16 KiB, so a handful of live buffers stay in L1
// or close to it.
constexpr int64_t kBlock = 1024;
constexpr int64_t kMaxItem = 16;

struct Step {
  fused::BlockFn fn;
  SmallVector<int32_t, 3> operands; // >= 0: step; < 0: input ~k
  int32_t output;
  int32_t buffer;
  int64_t itemsize;
};

// Compact column-major (the order results are written in): read in place, no gather.
bool dense(const Tensor& t) {
  int64_t expected = 1;
  for (int64_t d = 0; d < t.ndim(); ++d) {
    if (t.dim(d) != 1 && t.stride(d) != expected) return false;
    expected *= t.dim(d);
  }
  return true;
}

// Copies elements [begin, end) of t (column-major order) to dst.
template <size_t Size>
void gather(const StridedLoop<1>& loop, int64_t begin, int64_t end, std::byte* dst) {
  loop.run(begin, end,
           [&](const StridedLoop<1>::Ptrs& p, int64_t n, const StridedLoop<1>::Steps& s) {
             const std::byte* src = p[0];
             for (int64_t i = 0; i < n; ++i) std::memcpy(dst + i * Size, src + i * s[0], Size);
             dst += n * Size;
           });
}

void gather_any(const StridedLoop<1>& loop, int64_t size, int64_t begin, int64_t end,
                std::byte* dst) {
  switch (size) {
  case 1: gather<1>(loop, begin, end, dst); break;
  case 4: gather<4>(loop, begin, end, dst); break;
  case 8: gather<8>(loop, begin, end, dst); break;
  default: gather<16>(loop, begin, end, dst); break;
  }
}

// This thread's scratch of at least `bytes`, 64-byte aligned, reused from call to call so that
// blocks do not fault in fresh pages. A fused step never runs another fused region, so one
// buffer per thread suffices.
std::byte* scratch(size_t bytes) {
  thread_local std::unique_ptr<std::byte[]> buffer;
  thread_local size_t capacity = 0;
  if (capacity < bytes + 64) {
    capacity = bytes + 64;
    buffer = std::make_unique_for_overwrite<std::byte[]>(capacity);
  }
  std::byte* p = buffer.get();
  return p + (64 - reinterpret_cast<uintptr_t>(p) % 64) % 64;
}

class CpuFused final : public backend::FusedKernel {
public:
  CpuFused(const backend::FusedRegion& r, std::vector<Step> steps, int64_t grain)
      : shape_(r.shape), steps_(std::move(steps)), num_buffers_(r.num_buffers), grain_(grain) {
    for (int32_t j : r.output_steps) out_dtypes_.push_back(r.steps[static_cast<size_t>(j)].dtype);
  }

  void run(std::span<const Tensor> in, std::span<Tensor> results) const override {
    for (size_t k = 0; k < results.size(); ++k) results[k] = Tensor::empty(out_dtypes_[k], shape_);
    int64_t n = numel_of(shape_);
    if (n == 0) return;
    // Inputs that are not compact column-major are gathered block by block into a buffer.
    std::vector<int32_t> gather_slot(in.size(), -1);
    std::vector<StridedLoop<1>> loops;
    int32_t gathered = 0;
    for (size_t k = 0; k < in.size(); ++k) {
      loops.emplace_back(shape_, std::array<const Tensor*, 1>{&in[k]});
      if (!dense(in[k])) gather_slot[k] = num_buffers_ + gathered++;
    }
    auto work = [&](int64_t begin, int64_t end) {
      size_t stride =
          static_cast<size_t>((std::min(kBlock, end - begin) * kMaxItem + 63) / 64 * 64);
      std::byte* base = scratch(static_cast<size_t>(num_buffers_ + gathered) * stride);
      auto buffer = [&](int32_t b) { return base + static_cast<size_t>(b) * stride; };
      std::vector<const std::byte*> input(in.size());
      std::vector<std::byte*> value(steps_.size());
      for (int64_t b = begin; b < end; b += kBlock) {
        int64_t m = std::min(kBlock, end - b);
        for (size_t k = 0; k < in.size(); ++k) {
          int64_t size = itemsize(in[k].dtype());
          if (gather_slot[k] < 0) {
            input[k] = in[k].raw_data() + b * size;
          } else {
            std::byte* dst = buffer(gather_slot[k]);
            gather_any(loops[k], size, b, b + m, dst);
            input[k] = dst;
          }
        }
        for (size_t j = 0; j < steps_.size(); ++j) {
          const Step& st = steps_[j];
          std::byte* out =
              st.output >= 0 ? results[static_cast<size_t>(st.output)].raw_data() + b * st.itemsize
                             : buffer(st.buffer);
          const std::byte* operands[3] = {};
          for (size_t q = 0; q < st.operands.size(); ++q) {
            int32_t o = st.operands[q];
            operands[q] = o >= 0 ? value[static_cast<size_t>(o)] : input[static_cast<size_t>(~o)];
          }
          st.fn(m, out, operands);
          value[j] = out;
        }
      }
    };
    if (n <= grain_)
      work(0, n);
    else
      parallel_for(n, grain_, work);
  }

private:
  Dims shape_;
  std::vector<Step> steps_;
  std::vector<DType> out_dtypes_;
  int32_t num_buffers_;
  int64_t grain_;
};

} // namespace

std::shared_ptr<const backend::FusedKernel> fuse(const backend::FusedRegion& r) {
  std::vector<Step> steps;
  int64_t cost = 0;
  for (const backend::FusedStep& s : r.steps) {
    if (s.operands.size() > 3) return nullptr;
    SmallVector<DType, 3> dtypes;
    for (int32_t o : s.operands)
      dtypes.push_back(o >= 0 ? r.steps[static_cast<size_t>(o)].dtype
                              : r.input_dtypes[static_cast<size_t>(~o)]);
    fused::BoundStep b = fused::bind_step(s.op, s.params, dtypes, s.dtype);
    if (!b.fn) return nullptr;
    cost += b.cost;
    steps.push_back({b.fn, s.operands, s.output, s.buffer, itemsize(s.dtype)});
  }
  // Chunks of roughly the work of one cheap kernel's chunk, in whole blocks, at least four.
  int64_t grain = std::max<int64_t>(4 * kBlock, kGrainCheap / std::max<int64_t>(cost, 1));
  grain = (grain / kBlock) * kBlock;
  return std::make_shared<const CpuFused>(r, std::move(steps), grain);
}

} // namespace tfe::cpu
