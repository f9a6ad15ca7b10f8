// Graphs of gradient nodes (graph.hpp): union by size, closing and sealing.
#include "dataflow/graph.hpp"

#include <memory>

#include <vector>

namespace tfe::dataflow::detail {

// The open nodes of one connected component, in a doubly-linked list.
class Graph {
public:
  void add(GradNode& n) noexcept {
    n.graph_ = this;
    n.gprev_ = nullptr;
    n.gnext_ = head_;
    if (head_) head_->gprev_ = &n;
    head_ = &n;
    ++size_;
  }
  void remove(GradNode& n) noexcept {
    (n.gprev_ ? n.gprev_->gnext_ : head_) = n.gnext_;
    if (n.gnext_) n.gnext_->gprev_ = n.gprev_;
    n.gprev_ = n.gnext_ = nullptr;
    n.graph_ = nullptr;
    --size_;
  }
  // Moves every node of `other` here.
  void absorb(Graph& other) noexcept {
    while (GradNode* n = other.head_) {
      other.remove(*n);
      add(*n);
    }
  }
  GradNode* head() const noexcept { return head_; }
  size_t size() const noexcept { return size_; }

private:
  GradNode* head_ = nullptr;
  size_t size_ = 0;
};

namespace {

std::mutex& graph_mutex() {
  static std::mutex m;
  return m;
}

} // namespace

GraphLock::GraphLock() : lock_(graph_mutex()) {}

void GraphLock::join(GradNode& a, GradNode& b) {
  Graph* ga = a.graph_;
  Graph* gb = b.graph_;
  if (ga && ga == gb) return;
  if (!ga && !gb) {
    ga = std::make_unique<Graph>().release(); // owned by its nodes (freed when none is left)
    ga->add(a);
    if (&b != &a) ga->add(b);
    return;
  }
  if (!ga) return gb->add(a);
  if (!gb) return ga->add(b);
  if (ga->size() < gb->size()) std::swap(ga, gb);
  ga->absorb(*gb);
  std::unique_ptr<Graph> merged(gb);
}

void close_node(GradNode& n) noexcept {
  {
    std::lock_guard lock(graph_mutex());
    if (!n.open_) return;
    n.open_ = false;
    if (Graph* g = n.graph_) {
      g->remove(n);
      if (g->size() == 0) std::unique_ptr<Graph> last(g);
    }
  }
  n.close_contributions();
}

void seal_graph_of(GradNode& n) {
  std::vector<GradNode*> closing;
  {
    std::lock_guard lock(graph_mutex());
    if (!n.open_) return;
    if (Graph* g = n.graph_) {
      closing.reserve(g->size());
      while (GradNode* m = g->head()) {
        g->remove(*m);
        closing.push_back(m);
      }
      std::unique_ptr<Graph> emptied(g);
    } else {
      closing.push_back(&n);
    }
    for (GradNode* m : closing) {
      m->open_ = false;
      m->retain(); // its owner may go once the mutex is released
    }
  }
  for (GradNode* m : closing) {
    m->close_contributions();
    m->release();
  }
}

} // namespace tfe::dataflow::detail
