// The recording value type of the op surface (eager/surface.hpp): an eager value plus a
// reference into the raw trace. emit() runs the kernel exactly as eager code does and, when an
// operand is tracked (or capture_trace is active), appends one raw node for that op. Because the
// surface's promotion converts and broadcasts are themselves emitted ops, the trace holds exactly
// what executed (one promotion plan). Concatenate operands are pinned to their exact eager shapes
// by a recorded Reshape that is never executed (its derivative slices at concrete offsets).
#pragma once

#include "ad/recording/trace.hpp"
#include "eager/surface.hpp"

namespace tfe::ad::recording {

struct Recorded {
  Tensor value;
  RawRef ref; // null: not tracked
};

Recorded emit(ops::OpCode code, Refs<Recorded> in, const ops::Params& params);
// Every output of one op (an extension op may have several); one raw node records them all.
std::vector<Recorded> emit_multi(ops::OpCode code, std::span<const Recorded> in,
                                 const ops::Params& params);
ops::Meta meta_of(const Recorded& r);
// Its value, read in place by the op surface (eager::detail::read_operands).
inline const Tensor* held_tensor(const Recorded& r) { return &r.value; }
Recorded literal(const Tensor& value, const Recorded*);

// While alive on this thread every op is recorded, tracked operands or not (capture_trace; the
// runtime layer, src/runtime, turns the user's untracked operands into captured leaves first and
// is the only code that opens this scope).
class CaptureScope {
public:
  explicit CaptureScope(bool capture);
  ~CaptureScope();
  CaptureScope(const CaptureScope&) = delete;
  CaptureScope& operator=(const CaptureScope&) = delete;

private:
  bool outer_;
};

} // namespace tfe::ad::recording

namespace tfe::eager {
TFE_SURFACE_INSTANCES(ad::recording::Recorded, extern)
} // namespace tfe::eager
