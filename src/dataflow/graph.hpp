// Graph membership of gradient nodes: which gradients a gradient request seals.
//
// Every open gradient node (reverse_value.hpp) that took part in a tracked op belongs to one
// graph: the connected component of the ops built so far. A node is *open* while new gradient
// contributions may still be registered into it. It closes when its handle (the Var) goes, on
// finalize(), or when its graph is sealed. Requesting a gradient seals the graph of that gradient:
// every open node of it closes at once, so live named intermediates need no finalize(). A closed
// node never reopens; an op that reads a closed node's value treats it as an untracked constant.
//
// Thread safety: one process-wide mutex serialises registration (GraphLock) against sealing and
// closing; union by size keeps merging cheap. Nodes are closed (close_contributions) after the
// mutex is released.
#pragma once

#include <mutex>

namespace tfe::dataflow::detail {

class Graph;

class GradNode {
public:
  // No further contributions will be registered; called once, without the graph mutex.
  virtual void close_contributions() noexcept = 0;
  virtual void retain() noexcept = 0;
  virtual void release() noexcept = 0;

protected:
  GradNode() = default;
  ~GradNode() = default;

private:
  friend class GraphLock;
  friend void close_node(GradNode&) noexcept;
  friend void seal_graph_of(GradNode&);
  friend class Graph;
  Graph* graph_ = nullptr;
  GradNode* gprev_ = nullptr;
  GradNode* gnext_ = nullptr;
  bool open_ = true;
};

// Holds the graph mutex for registering contributions.
class GraphLock {
public:
  GraphLock();
  bool is_open(const GradNode& n) const noexcept { return n.open_; }
  // Puts the open nodes a and b into one graph (creating or merging graphs as needed).
  void join(GradNode& a, GradNode& b);

private:
  std::unique_lock<std::mutex> lock_;
};

// Closes n (no-op when closed already).
void close_node(GradNode& n) noexcept;
// Closes every open node of n's graph, or n alone when it is in none.
void seal_graph_of(GradNode& n);

} // namespace tfe::dataflow::detail
