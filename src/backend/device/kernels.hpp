// The device backend: the op table's kernels on an accelerator, written once over the plugin's
// few primitives (elementwise, strided copy, fill, reduce, gemm, triangle). Views stay views;
// index arithmetic is shared with the CPU kernels; only memory traffic goes to the plugin.
#pragma once

#include <span>
#include <vector>

#include "backend/backend.hpp"
#include "core/device.hpp"
#include "core/operands.hpp"
#include "core/tensor.hpp"
#include "ops/op_table.hpp"

namespace tfe::device {

// The backend table for CUDA devices (backend/backend.hpp); kernel_for gives null for an op the
// device backend lacks.
const backend::Backend& cuda_backend();

// Runs op `code` on operands that all sit on one accelerator (the dispatcher checked): infer,
// then the device kernel; an op without one is NotSupported naming op, dtype and device.
Tensor execute(ops::OpCode code, Operands in, const ops::Params& params);
// The same for an op with several outputs (the linear algebra extension ops).
std::vector<Tensor> execute_multi(ops::OpCode code, Operands in, const ops::Params& params);

// A compact tensor on d with every element the one element at value (of dtype), made by the
// device itself.
Tensor filled(Device d, DType dtype, const Dims& shape, const void* value);
// dst (a view on a device, a diagonal for instance) with every element the one at value.
void fill_view(const Tensor& dst, const void* value);

// t itself when compact, else a compact copy on t's device.
Tensor compact(const Tensor& t);
// A fresh compact copy of t on t's device (scratch that a solver may overwrite).
Tensor copy(const Tensor& t);
// dst (a view on a device) <- src (a view of the same shape on that device, any dtype).
void copy_into(const Tensor& dst, const Tensor& src);

// The device that ops without operands (constants, iota) of a program create their results on
// while a program runs on a device; the host otherwise.
class CurrentDevice {
public:
  explicit CurrentDevice(Device d);
  ~CurrentDevice();
  CurrentDevice(const CurrentDevice&) = delete;
  CurrentDevice& operator=(const CurrentDevice&) = delete;
  static Device get();

private:
  Device saved_;
};

} // namespace tfe::device
