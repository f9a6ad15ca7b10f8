// Extension ops (decision 0014): ops defined by a layer below the core table (linalg first). The
// op table has one row, OpCode::Extension, whose ExtensionParams point at an ExtensionDef. The def
// owns what a table row and a kernel give a core op: name, arity, output count, shape rule and
// the CPU kernel. The AD layer reaches its derivative rules through its own interface
// (ad/rules/extension_rules.hpp), which the same concrete class implements.
#pragma once

#include <span>
#include <string_view>

#include <string>
#include <vector>

#include "core/operands.hpp"
#include "core/tensor.hpp"
#include "ops/op_def.hpp"

namespace tfe::ops {

using MetaList = std::vector<Meta>;

class ExtensionDef {
public:
  constexpr ExtensionDef(std::string_view name, std::string_view c_name, int8_t num_inputs,
                         int8_t num_outputs)
      : name_(name), c_name_(c_name), num_inputs_(num_inputs), num_outputs_(num_outputs) {}
  virtual ~ExtensionDef() = default;
  ExtensionDef(const ExtensionDef&) = delete;
  ExtensionDef& operator=(const ExtensionDef&) = delete;

  std::string_view name() const { return name_; }
  std::string_view c_name() const { return c_name_; }
  int8_t num_inputs() const { return num_inputs_; }
  int8_t num_outputs() const { return num_outputs_; }

  // The metadata of every output; throws tfe::Error naming the op and the offending values.
  // Arity is checked before it runs.
  virtual MetaList infer(std::span<const Meta> inputs, const ExtensionParams& p) const = 0;
  // Writes every output (results[i], metadata out[i]) from validated operands that all sit on
  // one device: the host, or an accelerator when runs_on_devices() (its kernels then choose the
  // backend by the operands' device, backend/lapack.hpp).
  virtual void run(Operands in, const ExtensionParams& p, std::span<const ConcreteMeta> out,
                   std::span<Tensor> results) const = 0;
  // Whether run() takes operands on an accelerator; the device backend refuses the op
  // (NotSupported naming it, the dtype and the device) otherwise.
  virtual bool runs_on_devices() const { return false; }
  // "{uplo=lower}": the options in words, for printers and error messages.
  virtual std::string format_options(const ExtensionParams& p) const;

private:
  std::string_view name_, c_name_;
  int8_t num_inputs_, num_outputs_;
};

// The def behind an Extension node's params.
const ExtensionDef& extension_of(const Params& p);

// Number of outputs of an op (1 for every core op).
int num_outputs(OpCode code, const Params& params);

// Every output's metadata (infer_meta's checks first); infer_meta gives output 0.
MetaList infer_metas(OpCode code, std::span<const Meta> inputs, const Params& params);

} // namespace tfe::ops
