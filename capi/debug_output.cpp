// The DOT printers of the C ABI: a traced function (its derivative functions are functions too)
// and the eager trace below a tracked tensor, as Graphviz text for `dot -Tsvg`.
#include "ad/recording/trace_to_dot.hpp"
#include "capi/text_out.hpp"
#include "graph/to_dot.hpp"

using namespace tfe;
using namespace tfe::capi;

extern "C" {

tfe_status tfe_function_to_dot(const tfe_function* f, char* buf, int64_t capacity,
                               int64_t* needed) {
  return guarded("tfe_function_to_dot", [&] {
    require(f, "f");
    require_text_buffer(buf, capacity);
    copy_text(graph::to_dot(*f->program, "function"), buf, capacity, needed);
  });
}

tfe_status tfe_autograd_to_dot(const tfe_tensor* t, char* buf, int64_t capacity, int64_t* needed) {
  return guarded("tfe_autograd_to_dot", [&] {
    require(t, "t");
    require_text_buffer(buf, capacity);
    if (t->value.symbolic())
      fail(Status::InvalidArgument,
           "t is a symbolic tensor: print its function with tfe_function_to_dot");
    if (t->value.flow())
      fail(Status::InvalidArgument, "t belongs to a dataflow context, which keeps no trace");
    if (!t->value.tracked())
      fail(Status::InvalidArgument,
           "t is not tracked: no op with a variable among its operands produced it");
    copy_text(ad::recording::trace_to_dot(t->value.trace()), buf, capacity, needed);
  });
}

} // extern "C"
