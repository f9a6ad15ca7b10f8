// The dataflow engine in one include: the runtime (Async, buffers, tasks, schedulers) and Var<T>
// with its scalar ops. See var.hpp for the model and scheduler.hpp for the scheduler contract.
#pragma once

#include "dataflow/async.hpp"
#include "dataflow/debug_scheduler.hpp"
#include "dataflow/scheduler.hpp"
#include "dataflow/task.hpp"
#include "dataflow/thread_scheduler.hpp"
#include "dataflow/var.hpp"
#include "dataflow/var_ops.hpp"
