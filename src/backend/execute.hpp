// Where an op runs: on the device that holds its operands. The library never moves a tensor by
// itself, so operands on two devices are an error naming both, never a silent transfer.
#pragma once

#include <span>
#include <vector>

#include "core/operands.hpp"
#include "core/tensor.hpp"
#include "ops/op_table.hpp"

namespace tfe::backend {

// Runs op `code` where its operands live: the host backend when every operand is on the host
// (one load per operand decides it), else the backend of their one device.
Tensor execute(ops::OpCode code, Operands in, const ops::Params& params);
std::vector<Tensor> execute_multi(ops::OpCode code, Operands in, const ops::Params& params);

// The one device of the operands: the current device (device::CurrentDevice: the host unless a
// program or an eager op on device operands runs) when there are none; the host when all are on
// the host; a Device
// error naming both devices when two operands disagree. A host scalar (rank 0, or broadcast from
// one element) is an argument, not data, and joins an op on any device (decision 0033): the
// library's own constants (a mean's 1/n, a weak Python scalar) are made that way.
Device device_of(Operands in);
bool is_host_scalar(const Tensor& t);

} // namespace tfe::backend
