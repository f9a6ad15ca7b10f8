// The symbolic-extent arena and arithmetic (extent.hpp). Nodes are interned: building the same
// expression twice gives the same id, so structural equality is id equality. Construction
// simplifies (constant folding, neutral elements, canonical order of commutative operands).
#include "core/extent.hpp"

#include <mutex>
#include <unordered_map>
#include <vector>

#include "core/error.hpp"

namespace tfe {
namespace {

enum class Kind : uint8_t { Symbol, Add, Sub, Mul, FloorDiv, Min, Max };

struct Node {
  Kind kind;
  Extent a, b;    // operands (unused for Symbol)
  int64_t symbol; // for Symbol
  bool operator==(const Node& o) const {
    return kind == o.kind && a == o.a && b == o.b && symbol == o.symbol;
  }
};

struct NodeHash {
  size_t operator()(const Node& n) const {
    auto mix = [](size_t h, uint64_t v) {
      return h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2));
    };
    size_t h = static_cast<size_t>(n.kind);
    for (Extent e : {n.a, n.b}) h = mix(mix(h, e.expr()), static_cast<uint64_t>(e.value()));
    return mix(h, static_cast<uint64_t>(n.symbol));
  }
};

// Process-wide and append-only: ids stay valid forever. Programs with symbolic shapes create a
// handful of nodes each; the arena is bounded by the variety of expressions, not by calls.
class Arena {
public:
  static Arena& instance() {
    static Arena* const a = std::make_unique<Arena>().release(); // never destroyed (see header)
    return *a;
  }
  Extent intern(const Node& n) {
    std::lock_guard lock(mutex_);
    auto it = ids_.find(n);
    if (it != ids_.end()) return Extent::from_expr(it->second);
    nodes_.push_back(n);
    uint32_t id = static_cast<uint32_t>(nodes_.size()); // ids start at 1; 0 means constant
    ids_.emplace(n, id);
    return Extent::from_expr(id);
  }
  Node node(uint32_t id) const {
    std::lock_guard lock(mutex_);
    return nodes_[id - 1];
  }

private:
  mutable std::mutex mutex_;
  std::vector<Node> nodes_;
  std::unordered_map<Node, uint32_t, NodeHash> ids_;
};

// Canonical operand order for commutative ops: constants last, then by expression id.
bool before(Extent x, Extent y) {
  if (x.is_const() != y.is_const()) return !x.is_const();
  return x.is_const() ? x.value() < y.value() : x.expr() < y.expr();
}

Extent make(Kind k, Extent a, Extent b) { return Arena::instance().intern({k, a, b, 0}); }

// (x op c1) op c2 -> x op (c1 op c2) for op in {+, *}, so products and sums of the same factors
// compare equal ([s1,2,3] and [s1*6] have one element count).
bool split_const(Kind k, Extent e, Extent* rest, int64_t* c) {
  if (e.is_const()) return false;
  Node n = Arena::instance().node(e.expr());
  if (n.kind != k || !n.b.is_const()) return false;
  *rest = n.a;
  *c = n.b.value();
  return true;
}

int64_t checked(Kind k, int64_t a, int64_t b) {
  int64_t r = 0;
  switch (k) {
  case Kind::Add:
    if (__builtin_add_overflow(a, b, &r))
      fail(Status::Numerical, "extent %lld + %lld overflows", (long long)a, (long long)b);
    return r;
  case Kind::Sub:
    if (__builtin_sub_overflow(a, b, &r))
      fail(Status::Numerical, "extent %lld - %lld overflows", (long long)a, (long long)b);
    return r;
  case Kind::Mul:
    if (__builtin_mul_overflow(a, b, &r))
      fail(Status::Numerical, "extent %lld * %lld overflows", (long long)a, (long long)b);
    return r;
  case Kind::FloorDiv: {
    if (b == 0) fail(Status::Numerical, "extent %lld divided by zero", (long long)a);
    if (a == INT64_MIN && b == -1)
      fail(Status::Numerical, "extent %lld / -1 overflows", (long long)a);
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
  }
  case Kind::Min: return a < b ? a : b;
  case Kind::Max: return a > b ? a : b;
  case Kind::Symbol: break;
  }
  return 0;
}

Extent combine(Kind k, Extent a, Extent b) {
  if (a.is_const() && b.is_const()) return checked(k, a.value(), b.value());
  switch (k) {
  case Kind::Add: {
    if (a == Extent(0)) return b;
    if (b == Extent(0)) return a;
    // Like terms: x*c1 + x*c2 -> x*(c1+c2), so s1 + s1 and s1*2 compare equal.
    Extent base_a = a, base_b = b;
    int64_t ca = 1, cb = 1;
    if (!split_const(Kind::Mul, a, &base_a, &ca)) base_a = a;
    if (!split_const(Kind::Mul, b, &base_b, &cb)) base_b = b;
    if (!a.is_const() && !b.is_const() && base_a == base_b)
      return combine(Kind::Mul, base_a, checked(Kind::Add, ca, cb));
    if (before(b, a)) std::swap(a, b);
    Extent rest;
    int64_t c = 0;
    if (b.is_const() && split_const(Kind::Add, a, &rest, &c))
      return combine(Kind::Add, rest, checked(Kind::Add, c, b.value()));
    break;
  }
  case Kind::Sub:
    if (b == Extent(0)) return a;
    if (a == b) return 0;
    // x - c is x + (-c): constants then fold across chains ((s1 - 1) - 1 + 2 is s1).
    if (b.is_const() && b.value() != INT64_MIN) return combine(Kind::Add, a, -b.value());
    break;
  case Kind::Mul: {
    if (a == Extent(0) || b == Extent(0)) return 0;
    if (a == Extent(1)) return b;
    if (b == Extent(1)) return a;
    if (before(b, a)) std::swap(a, b);
    Extent rest;
    int64_t c = 0;
    if (b.is_const() && split_const(Kind::Mul, a, &rest, &c))
      return combine(Kind::Mul, rest, checked(Kind::Mul, c, b.value()));
    break;
  }
  case Kind::FloorDiv:
    if (b == Extent(1)) return a;
    if (b == Extent(0)) fail(Status::Numerical, "extent %s divided by zero", to_string(a).c_str());
    break;
  case Kind::Min:
  case Kind::Max:
    if (a == b) return a;
    if (before(b, a)) std::swap(a, b);
    break;
  case Kind::Symbol: break;
  }
  return make(k, a, b);
}

const char* op_text(Kind k) {
  switch (k) {
  case Kind::Add: return "+";
  case Kind::Sub: return "-";
  case Kind::Mul: return "*";
  case Kind::FloorDiv: return "//";
  default: return "";
  }
}

} // namespace

Extent Extent::symbol(int64_t k) {
  if (k < 1) fail(Status::InvalidArgument, "symbol id %lld must be >= 1", (long long)k);
  return Arena::instance().intern({Kind::Symbol, Extent(0), Extent(0), k});
}

Extent operator+(Extent a, Extent b) { return combine(Kind::Add, a, b); }
Extent operator-(Extent a, Extent b) { return combine(Kind::Sub, a, b); }
Extent operator*(Extent a, Extent b) { return combine(Kind::Mul, a, b); }
Extent floor_div(Extent a, Extent b) { return combine(Kind::FloorDiv, a, b); }
Extent min_extent(Extent a, Extent b) { return combine(Kind::Min, a, b); }
Extent max_extent(Extent a, Extent b) { return combine(Kind::Max, a, b); }

std::string to_string(Extent e) {
  if (e.is_const()) return std::to_string(e.value());
  Node n = Arena::instance().node(e.expr());
  // Appends instead of operator+ chains: GCC 12 at -O3 reports a false -Wrestrict on those.
  std::string out;
  switch (n.kind) {
  case Kind::Symbol: out.append("s").append(std::to_string(n.symbol)); return out;
  case Kind::Min:
  case Kind::Max:
    out.append(n.kind == Kind::Min ? "min(" : "max(").append(to_string(n.a)).append(",");
    out.append(to_string(n.b)).append(")");
    return out;
  default: break;
  }
  out.append("(").append(to_string(n.a));
  if (n.kind == Kind::Add && n.b.is_const() && n.b.value() < 0 && n.b.value() != INT64_MIN)
    out.append("-").append(std::to_string(-n.b.value())); // s1+-1 reads as s1-1
  else
    out.append(op_text(n.kind)).append(to_string(n.b));
  out.append(")");
  return out;
}

int64_t evaluate(Extent e, std::span<const int64_t> symbols) {
  if (e.is_const()) return e.value();
  Node n = Arena::instance().node(e.expr());
  if (n.kind == Kind::Symbol) {
    if (n.symbol > static_cast<int64_t>(symbols.size()))
      fail(Status::InvalidArgument, "symbol s%lld is not bound", (long long)n.symbol);
    return symbols[static_cast<size_t>(n.symbol - 1)];
  }
  return checked(n.kind, evaluate(n.a, symbols), evaluate(n.b, symbols));
}

int64_t max_symbol(Extent e) {
  if (e.is_const()) return 0;
  Node n = Arena::instance().node(e.expr());
  if (n.kind == Kind::Symbol) return n.symbol;
  return std::max(max_symbol(n.a), max_symbol(n.b));
}

} // namespace tfe
