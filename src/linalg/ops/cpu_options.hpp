// The linalg options in the CPU LAPACK layer's terms.
#pragma once

#include "backend/cpu/lapack/lapack.hpp"
#include "linalg/op_base.hpp"

namespace tfe::linalg {

inline cpu::lapack::Trans to_lapack(Trans t) {
  switch (t) {
  case Trans::No: return cpu::lapack::Trans::No;
  case Trans::Transpose: return cpu::lapack::Trans::Transpose;
  case Trans::ConjTranspose: return cpu::lapack::Trans::ConjTranspose;
  }
  fail(Status::Internal, "unknown transpose option %lld", static_cast<long long>(t));
}

} // namespace tfe::linalg
