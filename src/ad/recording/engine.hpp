// Derivative requests on eager values (docs/design/ad-contract.md "Eager recording"): analyse the
// trace once (semantic.hpp), look up or build the derivative program (transform cache), compile
// it for the bound shapes (prepared cache) and run it. backward() returns detached gradients for
// the caller to commit; vjp() and jvp() return values that are recorded again when recording is
// on (the derivative program is replayed op by op through the recording emit), so jvp(vjp(...))
// is a Hessian-vector product.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "ad/derivative_cache.hpp"
#include "ad/recording/recorded.hpp"
#include "graph/compile.hpp"

namespace tfe::ad::recording {

struct Caches {
  DerivativeCache& transforms;   // keyed by the symbolic semantic program
  graph::CompileCache& prepared; // keyed by the derivative program and concrete shapes
};

struct LeafGrad {
  std::shared_ptr<LeafState> leaf;
  Tensor grad;
};

// Gradients of every tracked leaf the loss reaches, seeded with `seed` (nullopt: implicit 1 for
// a one-element loss). NotDifferentiable when the loss reaches no tracked leaf.
std::vector<LeafGrad> backward(const Recorded& loss, const std::optional<Tensor>& seed,
                               Caches& caches);

// Adds each gradient into its leaf: every leaf involved is locked (in address order), all sums
// are computed, then all are stored, so a failure changes nothing and concurrent backward calls
// never lose an update.
void commit(std::vector<LeafGrad> grads);

// Cotangents of the xs (nullopt: inactive, or y does not depend on it). `record`: replay the
// derivative program through the recording emit so the results stay differentiable.
std::vector<std::optional<Recorded>> vjp(const Recorded& y, std::span<const Recorded> xs,
                                         const std::optional<Recorded>& seed, Caches& caches,
                                         bool record);

// The directional derivative of y along the tangents (nullopt tangent: zero); nullopt when y
// depends on none of the active xs.
std::optional<Recorded> jvp(const Recorded& y, std::span<const Recorded> xs,
                            std::span<const std::optional<Recorded>> tangents, Caches& caches,
                            bool record);

// The seed for an output y of metadata `y`: the implicit 1 (y must have one element) or an
// explicit seed of y's shape whose dtype is y's or, for a complex y, real (cast up).
// DtypeMismatch for a complex seed of a real y. V = Recorded (eager AD; a recorded seed stays
// recorded) or Tensor (the dataflow engine, whose y may still be computing).
template <class V> V checked_seed(const ops::Meta& y, const std::optional<V>& seed);

} // namespace tfe::ad::recording
