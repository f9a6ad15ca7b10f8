// The symbolic-extent arena and arithmetic (extent.hpp). Nodes are interned: building the same
// expression twice gives the same id, so structural equality is id equality. Every sum and
// product is kept in one canonical form, a polynomial with integer coefficients over "atoms"
// (symbols, floor-divisions, minima and maxima): its terms sorted by their atoms' ids, each a
// product of atoms times a coefficient, the constant last. Two expressions that are equal as
// polynomials are therefore the same node ((s1+((s1*2)-s1)) is (s1*2), s3*(s1*s2) is
// s2*(s1*s3)), which is what lets shape rules prove the equalities derivative programs build.
#include "core/extent.hpp"

#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "core/error.hpp"

namespace tfe {
namespace {

enum class Kind : uint8_t { Symbol, Add, Mul, FloorDiv, Min, Max };

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

Node node_of(Extent e) { return Arena::instance().node(e.expr()); }
Extent make(Kind k, Extent a, Extent b) { return Arena::instance().intern({k, a, b, 0}); }

int64_t add_checked(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r))
    fail(Status::Numerical, "extent %lld + %lld overflows", (long long)a, (long long)b);
  return r;
}
int64_t mul_checked(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r))
    fail(Status::Numerical, "extent %lld * %lld overflows", (long long)a, (long long)b);
  return r;
}
int64_t floor_div_checked(int64_t a, int64_t b) {
  if (b == 0) fail(Status::Numerical, "extent %lld divided by zero", (long long)a);
  if (a == INT64_MIN && b == -1)
    fail(Status::Numerical, "extent %lld / -1 overflows", (long long)a);
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

// ---- the polynomial normal form ----

// A product of atoms: their expression ids, sorted (an atom may repeat: s1*s1).
using Monomial = std::vector<uint32_t>;

// Bounds of a normal form: repeated products (kron of a symbolic tensor with itself) double the
// degree each time, and products of sums multiply the terms, so without a bound one traced op
// chain could exhaust memory, and the recursion over the expression the stack.
constexpr size_t kMaxTerms = 256;
constexpr size_t kMaxDegree = 64;

struct Poly {
  std::map<Monomial, int64_t> terms; // non-zero coefficients only
  int64_t constant = 0;

  void add_term(const Monomial& m, int64_t c) {
    if (c == 0) return;
    if (m.size() > kMaxDegree)
      fail(Status::NotSupported,
           "a symbolic extent of degree %zu (a product of more than %zu symbols) is not supported",
           m.size(), kMaxDegree);
    if (terms.size() >= kMaxTerms && terms.find(m) == terms.end())
      fail(Status::NotSupported, "a symbolic extent of more than %zu terms is not supported",
           kMaxTerms);
    int64_t& slot = terms[m];
    slot = add_checked(slot, c);
    if (slot == 0) terms.erase(m);
  }
  void add(const Poly& o, int64_t scale) {
    for (const auto& [m, c] : o.terms) add_term(m, mul_checked(c, scale));
    constant = add_checked(constant, mul_checked(o.constant, scale));
  }
  bool is_constant() const { return terms.empty(); }
};

Poly poly_of(Extent e);

Poly product(const Poly& x, const Poly& y) {
  Poly p;
  p.constant = mul_checked(x.constant, y.constant);
  for (const auto& [m, c] : x.terms) p.add_term(m, mul_checked(c, y.constant));
  for (const auto& [m, c] : y.terms) p.add_term(m, mul_checked(c, x.constant));
  for (const auto& [mx, cx] : x.terms)
    for (const auto& [my, cy] : y.terms) {
      Monomial m = mx;
      m.insert(m.end(), my.begin(), my.end());
      std::sort(m.begin(), m.end());
      p.add_term(m, mul_checked(cx, cy));
    }
  return p;
}

Poly poly_of(Extent e) {
  Poly p;
  if (e.is_const()) {
    p.constant = e.value();
    return p;
  }
  Node n = node_of(e);
  switch (n.kind) {
  case Kind::Add:
    p = poly_of(n.a);
    p.add(poly_of(n.b), 1);
    return p;
  case Kind::Mul: return product(poly_of(n.a), poly_of(n.b));
  default: p.add_term(Monomial{e.expr()}, 1); return p; // an atom
  }
}

// The canonical expression of p: terms in monomial order, each the left-nested product of its
// atoms times its coefficient (when not 1), summed left to right, the constant last.
Extent build(const Poly& p) {
  Extent sum;
  bool any = false;
  for (const auto& [m, c] : p.terms) {
    Extent term = Extent::from_expr(m[0]);
    for (size_t i = 1; i < m.size(); ++i) term = make(Kind::Mul, term, Extent::from_expr(m[i]));
    if (c != 1) term = make(Kind::Mul, term, c);
    sum = any ? make(Kind::Add, sum, term) : term;
    any = true;
  }
  if (!any) return p.constant;
  return p.constant == 0 ? sum : make(Kind::Add, sum, p.constant);
}

// Canonical operand order for min and max: constants last, then by expression id.
bool before(Extent x, Extent y) {
  if (x.is_const() != y.is_const()) return !x.is_const();
  return x.is_const() ? x.value() < y.value() : x.expr() < y.expr();
}

// min/max(a, b) when the two differ by a constant, or when b already is min/max(a, ..).
bool extremum_known(Kind k, Extent a, Extent b, Extent* out) {
  Poly d = poly_of(a);
  d.add(poly_of(b), -1);
  if (d.is_constant()) {
    bool a_smaller = d.constant <= 0;
    *out = (k == Kind::Min) == a_smaller ? a : b;
    return true;
  }
  for (auto [x, y] : {std::pair{a, b}, std::pair{b, a}}) {
    if (y.is_const()) continue;
    Node n = node_of(y);
    if (n.kind == k && (n.a == x || n.b == x)) {
      *out = y; // min(x, min(x, z)) = min(x, z)
      return true;
    }
  }
  return false;
}

Extent combine(Kind k, Extent a, Extent b) {
  switch (k) {
  case Kind::Add:
  case Kind::Mul: {
    if (a.is_const() && b.is_const())
      return k == Kind::Add ? add_checked(a.value(), b.value()) : mul_checked(a.value(), b.value());
    if (k == Kind::Add) {
      Poly p = poly_of(a);
      p.add(poly_of(b), 1);
      return build(p);
    }
    return build(product(poly_of(a), poly_of(b)));
  }
  case Kind::FloorDiv: {
    if (a.is_const() && b.is_const()) return floor_div_checked(a.value(), b.value());
    if (b == Extent(1)) return a;
    if (b == Extent(0)) fail(Status::Numerical, "extent %s divided by zero", to_string(a).c_str());
    if (b.is_const()) { // exact division of every coefficient: (s1*6)//3 is s1*2
      Poly p = poly_of(a);
      bool exact = p.constant % b.value() == 0;
      for (const auto& [m, c] : p.terms) exact &= c % b.value() == 0;
      if (exact) {
        Poly q;
        q.constant = p.constant / b.value();
        for (const auto& [m, c] : p.terms) q.add_term(m, c / b.value());
        return build(q);
      }
    }
    return make(k, a, b);
  }
  case Kind::Min:
  case Kind::Max: {
    if (a.is_const() && b.is_const())
      return (k == Kind::Min) == (a.value() < b.value()) ? a.value() : b.value();
    if (a == b) return a;
    Extent known;
    if (extremum_known(k, a, b, &known)) return known;
    if (before(b, a)) std::swap(a, b);
    return make(k, a, b);
  }
  case Kind::Symbol: break;
  }
  return make(k, a, b);
}

int64_t apply(Kind k, int64_t a, int64_t b) {
  switch (k) {
  case Kind::Add: return add_checked(a, b);
  case Kind::Mul: return mul_checked(a, b);
  case Kind::FloorDiv: return floor_div_checked(a, b);
  case Kind::Min: return a < b ? a : b;
  case Kind::Max: return a > b ? a : b;
  case Kind::Symbol: break;
  }
  return 0;
}

// A term of a sum as text, with its sign: "+s1", "-(s2*3)", "+4".
void append_term(std::string& out, Extent t, bool first) {
  if (t.is_const()) {
    if (t.value() >= 0 && !first) out += '+';
    out += std::to_string(t.value());
    return;
  }
  Node n = node_of(t);
  if (n.kind == Kind::Mul && n.b.is_const() && n.b.value() < 0 && n.b.value() != INT64_MIN) {
    out += '-';
    out += n.b.value() == -1 ? to_string(n.a) : to_string(make(Kind::Mul, n.a, -n.b.value()));
    return;
  }
  if (!first) out += '+';
  out += to_string(t);
}

} // namespace

Extent Extent::symbol(int64_t k) {
  if (k < 1) fail(Status::InvalidArgument, "symbol id %lld must be >= 1", (long long)k);
  if (k > kMaxSymbol)
    fail(Status::InvalidArgument, "symbol id %lld exceeds the limit of %lld symbols", (long long)k,
         (long long)kMaxSymbol);
  return Arena::instance().intern({Kind::Symbol, Extent(0), Extent(0), k});
}

Extent operator+(Extent a, Extent b) { return combine(Kind::Add, a, b); }
Extent operator-(Extent a, Extent b) {
  if (a.is_const() && b.is_const()) {
    int64_t r = 0;
    if (__builtin_sub_overflow(a.value(), b.value(), &r))
      fail(Status::Numerical, "extent %lld - %lld overflows", (long long)a.value(),
           (long long)b.value());
    return r;
  }
  Poly p = poly_of(a);
  p.add(poly_of(b), -1);
  return build(p);
}
Extent operator*(Extent a, Extent b) { return combine(Kind::Mul, a, b); }
Extent floor_div(Extent a, Extent b) { return combine(Kind::FloorDiv, a, b); }
Extent min_extent(Extent a, Extent b) { return combine(Kind::Min, a, b); }
Extent max_extent(Extent a, Extent b) { return combine(Kind::Max, a, b); }

std::string to_string(Extent e) {
  if (e.is_const()) return std::to_string(e.value());
  Node n = node_of(e);
  // Appends instead of operator+ chains: GCC 12 at -O3 reports a false -Wrestrict on those.
  std::string out;
  switch (n.kind) {
  case Kind::Symbol: out.append("s").append(std::to_string(n.symbol)); return out;
  case Kind::Min:
  case Kind::Max:
    out.append(n.kind == Kind::Min ? "min(" : "max(").append(to_string(n.a)).append(",");
    out.append(to_string(n.b)).append(")");
    return out;
  case Kind::Add: { // flat: (s1+s2-3)
    std::vector<Extent> terms{n.b};
    Extent rest = n.a;
    while (!rest.is_const() && node_of(rest).kind == Kind::Add) {
      Node r = node_of(rest);
      terms.push_back(r.b);
      rest = r.a;
    }
    terms.push_back(rest);
    out += '(';
    for (size_t i = terms.size(); i-- > 0;) append_term(out, terms[i], i + 1 == terms.size());
    out += ')';
    return out;
  }
  case Kind::Mul:
    out.append("(").append(to_string(n.a)).append("*").append(to_string(n.b)).append(")");
    return out;
  case Kind::FloorDiv:
    out.append("(").append(to_string(n.a)).append("//").append(to_string(n.b)).append(")");
    return out;
  }
  return out;
}

int64_t evaluate(Extent e, std::span<const int64_t> symbols) {
  if (e.is_const()) return e.value();
  Node n = node_of(e);
  if (n.kind == Kind::Symbol) {
    if (n.symbol > static_cast<int64_t>(symbols.size()) || symbols[n.symbol - 1] < 0)
      fail(Status::InvalidArgument, "symbol s%lld is not bound", (long long)n.symbol);
    return symbols[static_cast<size_t>(n.symbol - 1)];
  }
  return apply(n.kind, evaluate(n.a, symbols), evaluate(n.b, symbols));
}

int64_t max_symbol(Extent e) {
  if (e.is_const()) return 0;
  Node n = node_of(e);
  if (n.kind == Kind::Symbol) return n.symbol;
  return std::max(max_symbol(n.a), max_symbol(n.b));
}

int64_t symbol_id(Extent e) {
  if (e.is_const()) return 0;
  Node n = node_of(e);
  return n.kind == Kind::Symbol ? n.symbol : 0;
}

} // namespace tfe
