// Region formation for elementwise fusion (fusion.hpp).
#include "graph/fusion.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <string_view>
#include <unordered_map>

#include "graph/compile.hpp"

namespace tfe::graph {
namespace {

// -1: follow TFE_FUSION; 0 or 1: set in-process.
std::atomic<int> fusion_override{-1};

bool env_allows_fusion() {
  const char* v = std::getenv("TFE_FUSION");
  if (v == nullptr) return true;
  std::string_view s(v);
  return !(s == "0" || s == "off" || s == "OFF" || s == "false");
}

// The dtypes a fused region carries: floats, complex and Bool (comparison results, select
// predicates). Integer ops stay unfused: their division and power check operands before writing.
bool fusible_dtype(DType d) {
  return d == DType::F32 || d == DType::F64 || d == DType::C32 || d == DType::C64 ||
         d == DType::Bool;
}

struct SlotInfo {
  bool known = false;
  DType dtype = DType::F64;
  Dims shape;
};

std::vector<SlotInfo> slot_infos(const CompiledProgram& c) {
  std::vector<SlotInfo> info(static_cast<size_t>(c.num_slots));
  auto set = [&](int32_t s, const ops::ConcreteMeta& m) {
    info[static_cast<size_t>(s)] = {true, m.dtype, m.shape};
  };
  for (size_t i = 0; i < c.argument_slots.size() && i < c.arguments.size(); ++i)
    set(c.argument_slots[i], c.arguments[i]);
  for (size_t i = 0; i < c.captured_slots.size() && i < c.captured.size(); ++i)
    set(c.captured_slots[i], c.captured[i]);
  for (const Instruction& ins : c.code) {
    if (ins.outs.empty()) {
      set(ins.output, ins.out);
    } else {
      for (size_t k = 0; k < ins.outs.size(); ++k)
        set(ins.output + static_cast<int32_t>(k), ins.outs[k]);
    }
  }
  return info;
}

bool fusible(const Instruction& ins, const std::vector<SlotInfo>& info) {
  if (!ins.outs.empty() || ins.fused || !ops::op_def(ins.op).elementwise) return false;
  if (!fusible_dtype(ins.out.dtype)) return false;
  for (int32_t s : ins.inputs) {
    const SlotInfo& in = info[static_cast<size_t>(s)];
    if (!in.known || !fusible_dtype(in.dtype) || in.shape != ins.out.shape) return false;
  }
  return true;
}

class Fuser {
public:
  explicit Fuser(CompiledProgram& c) : c_(c), info_(slot_infos(c)) {
    member_of_.assign(c.code.size(), -1);
    readers_.resize(static_cast<size_t>(c.num_slots));
    for (size_t i = 0; i < c.code.size(); ++i)
      for (int32_t s : c.code[i].inputs) readers_[static_cast<size_t>(s)].push_back(i);
    program_output_.assign(static_cast<size_t>(c.num_slots), false);
    for (int32_t s : c.output_slots) program_output_[static_cast<size_t>(s)] = true;
  }

  void run() {
    std::vector<Instruction> code = std::move(c_.code);
    std::vector<backend::Kernel> kernels = std::move(c_.kernels);
    code_ = &code;
    kernels_ = &kernels;
    c_.code.clear();
    c_.kernels.clear();
    for (size_t i = 0; i < code.size(); ++i) {
      if (fusible(code[i], info_)) {
        if (!members_.empty() && code[i].out.shape != code[members_[0]].out.shape) close();
        add_member(i);
        continue;
      }
      bool reads_member = false;
      for (int32_t s : code[i].inputs) reads_member |= member_slot_.count(s) > 0;
      if (members_.empty() || reads_member) {
        close();
        emit(i);
      } else {
        // It needs nothing from the open region, so it may run before the fused instruction.
        hoisted_.push_back(i);
      }
    }
    close();
  }

private:
  void add_member(size_t i) {
    member_of_[i] = region_id_;
    members_.push_back(i);
    member_slot_.emplace((*code_)[i].output, i);
  }

  void emit(size_t i) {
    c_.code.push_back(std::move((*code_)[i]));
    c_.kernels.push_back((*kernels_)[i]);
  }

  // Emits the open region (fused when it has two members and the backend binds it) after the
  // instructions hoisted above it.
  void close() {
    std::shared_ptr<const backend::FusedKernel> kernel;
    std::shared_ptr<FusedRegion> region;
    if (members_.size() >= 2) {
      region = build();
      kernel = c_.backend->fuse(*region);
    }
    if (!kernel) {
      std::vector<size_t> all = hoisted_;
      all.insert(all.end(), members_.begin(), members_.end());
      std::sort(all.begin(), all.end());
      for (size_t i : all) emit(i);
    } else {
      for (size_t i : hoisted_) emit(i);
      emit_fused(std::move(region), std::move(kernel));
    }
    members_.clear();
    hoisted_.clear();
    member_slot_.clear();
    input_index_.clear();
    input_slots_.clear();
    ++region_id_;
  }

  bool read_outside(int32_t slot) const {
    if (program_output_[static_cast<size_t>(slot)]) return true;
    for (size_t r : readers_[static_cast<size_t>(slot)])
      if (member_of_[r] != region_id_) return true;
    return false;
  }

  std::shared_ptr<FusedRegion> build() {
    auto r = std::make_shared<FusedRegion>();
    const std::vector<Instruction>& code = *code_;
    r->shape = code[members_[0]].out.shape;
    std::unordered_map<int32_t, int32_t> step_of; // member slot -> step
    for (size_t j = 0; j < members_.size(); ++j) {
      const Instruction& ins = code[members_[j]];
      FusedStep st{ins.op, ins.params, ins.out.dtype, {}};
      for (int32_t s : ins.inputs) {
        if (auto it = step_of.find(s); it != step_of.end()) {
          st.operands.push_back(it->second);
          continue;
        }
        auto [it, fresh] = input_index_.emplace(s, static_cast<int32_t>(input_slots_.size()));
        if (fresh) {
          input_slots_.push_back(s);
          r->input_dtypes.push_back(info_[static_cast<size_t>(s)].dtype);
        }
        st.operands.push_back(~it->second);
      }
      if (read_outside(ins.output)) {
        st.output = static_cast<int32_t>(r->output_steps.size());
        r->output_steps.push_back(static_cast<int32_t>(j));
      }
      step_of.emplace(ins.output, static_cast<int32_t>(j));
      r->steps.push_back(std::move(st));
    }
    assign_buffers(*r);
    return r;
  }

  // Linear scan: a step takes a free buffer before its operands' buffers are released, so no
  // step writes the buffer it reads.
  static void assign_buffers(FusedRegion& r) {
    std::vector<int64_t> last(r.steps.size(), -1); // the last step reading each step's result
    for (size_t j = 0; j < r.steps.size(); ++j)
      for (int32_t k : r.steps[j].operands)
        if (k >= 0) last[static_cast<size_t>(k)] = static_cast<int64_t>(j);
    std::vector<int32_t> free_buffers;
    auto release = [&](int32_t b) {
      if (b >= 0 && std::find(free_buffers.begin(), free_buffers.end(), b) == free_buffers.end())
        free_buffers.push_back(b);
    };
    for (size_t j = 0; j < r.steps.size(); ++j) {
      FusedStep& st = r.steps[j];
      if (st.output < 0) {
        if (free_buffers.empty()) {
          st.buffer = r.num_buffers++;
        } else {
          st.buffer = free_buffers.back();
          free_buffers.pop_back();
        }
      }
      for (int32_t k : st.operands)
        if (k >= 0 && last[static_cast<size_t>(k)] == static_cast<int64_t>(j))
          release(r.steps[static_cast<size_t>(k)].buffer);
      if (last[j] < 0) release(st.buffer); // a result nothing reads (a dead node)
    }
  }

  void emit_fused(std::shared_ptr<FusedRegion> region,
                  std::shared_ptr<const backend::FusedKernel> k) {
    const std::vector<Instruction>& code = *code_;
    const Instruction& last = code[members_.back()];
    Instruction ins;
    ins.op = last.op;
    ins.origin = last.origin;
    ins.params = ops::NoParams{};
    ins.device = last.device;
    ins.backend = last.backend;
    ins.inputs.assign(input_slots_.begin(), input_slots_.end());
    for (int32_t j : region->output_steps)
      ins.fused_outputs.push_back(code[members_[static_cast<size_t>(j)]].output);
    ins.output = ins.fused_outputs[0];
    ins.out = code[members_[static_cast<size_t>(region->output_steps[0])]].out;
    ins.fused = std::move(region);
    ins.fused_kernel = std::move(k);
    c_.code.push_back(std::move(ins));
    c_.kernels.push_back(nullptr);
  }

  CompiledProgram& c_;
  std::vector<SlotInfo> info_;
  std::vector<std::vector<size_t>> readers_; // per slot: the instructions reading it
  std::vector<bool> program_output_;
  std::vector<int32_t> member_of_; // per instruction: its region id, or -1
  std::vector<Instruction>* code_ = nullptr;
  std::vector<backend::Kernel>* kernels_ = nullptr;
  int32_t region_id_ = 0;
  std::vector<size_t> members_, hoisted_;
  std::unordered_map<int32_t, size_t> member_slot_;
  std::unordered_map<int32_t, int32_t> input_index_;
  std::vector<int32_t> input_slots_;
};

} // namespace

bool fusion_enabled() {
  int o = fusion_override.load(std::memory_order_relaxed);
  return o >= 0 ? o != 0 : env_allows_fusion();
}

void set_fusion_enabled(bool on) { fusion_override.store(on ? 1 : 0, std::memory_order_relaxed); }

void fuse_elementwise(CompiledProgram& c) {
  if (c.backend == nullptr || c.backend->fuse == nullptr || c.code.size() < 2) return;
  Fuser(c).run();
}

} // namespace tfe::graph
