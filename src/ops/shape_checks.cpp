// Implementation of the shared shape-rule checks (shape_checks.hpp).
#include "ops/shape_checks.hpp"

namespace tfe::ops {
namespace {
thread_local ShapeGuards* t_guards = nullptr;
thread_local ShapeWitness* t_witness = nullptr;

std::optional<int64_t> try_evaluate(Extent e, std::span<const int64_t> symbols) {
  int64_t k = max_symbol(e);
  if (k > static_cast<int64_t>(symbols.size())) return std::nullopt;
  try {
    return evaluate(e, symbols);
  } catch (const Error&) {
    return std::nullopt; // an unbound symbol (or overflow): undecidable here
  }
}

// Of two extents known to be equal, the one later rules can use best: a constant, then a bare
// symbol, then the shorter expression.
Extent simpler(Extent a, Extent b) {
  if (a.is_const() || b.is_const()) return a.is_const() ? a : b;
  if ((symbol_id(a) != 0) != (symbol_id(b) != 0)) return symbol_id(a) != 0 ? a : b;
  return to_string(b).size() < to_string(a).size() ? b : a;
}

} // namespace

ShapeGuards::ShapeGuards() : outer_(t_guards) { t_guards = this; }
ShapeGuards::~ShapeGuards() { t_guards = outer_; }

void ShapeGuards::add(ShapeGuard g) {
  if (ShapeWitness* w = t_witness) {
    // Eager analysis: decide now, at the recorded extents (the shapes the ops ran with).
    std::optional<bool> ok = holds(g, w->values());
    if (ok && !*ok) throw Error(g.status, g.message);
    if (ok) { // a decision, and a guard of the node being built (when there is one)
      if (t_guards) t_guards->guards_.push_back(g);
      w->decide(std::move(g));
      return;
    }
  }
  if (!t_guards) // only symbolic parameters given to an op on concrete tensors get here
    fail(Status::InvalidArgument, "a symbolic extent in a parameter needs a symbolic operand (%s)",
         g.message.c_str());
  t_guards->guards_.push_back(std::move(g));
}

std::optional<bool> holds(const ShapeGuard& g, std::span<const int64_t> symbols) {
  std::optional<int64_t> a = try_evaluate(g.a, symbols), b = try_evaluate(g.b, symbols);
  if (!a || !b) return std::nullopt;
  switch (g.kind) {
  case ShapeGuard::Kind::Equal: return *a == *b;
  case ShapeGuard::Kind::LessEqual: return *a <= *b;
  case ShapeGuard::Kind::NotEqual: return *a != *b;
  case ShapeGuard::Kind::Less: return *a < *b;
  }
  return std::nullopt;
}

ShapeWitness::ShapeWitness() : outer_(t_witness) { t_witness = this; }
ShapeWitness::~ShapeWitness() { t_witness = outer_; }
ShapeWitness* ShapeWitness::current() { return t_witness; }

void ShapeWitness::bind(int64_t symbol, int64_t value) {
  if (symbol < 1) fail(Status::Internal, "symbol id %lld must be >= 1", (long long)symbol);
  if (values_.size() < static_cast<size_t>(symbol)) values_.resize(static_cast<size_t>(symbol), -1);
  values_[static_cast<size_t>(symbol - 1)] = value;
}

std::optional<int64_t> ShapeWitness::value_of(Extent e) const { return try_evaluate(e, values_); }

bool ShapeWitness::satisfies(std::span<const ShapeGuard> facts) const {
  for (const ShapeGuard& g : facts) {
    std::optional<bool> ok = holds(g, values_);
    if (!ok || !*ok) return false;
  }
  return true;
}

namespace {
ShapeGuard fact(ShapeGuard::Kind k, Extent a, Extent b, const char* relation) {
  return {k, a, b, Status::ShapeMismatch, to_string(a) + " " + relation + " " + to_string(b)};
}

// A decision of a rule that branches: `yes` when it holds at the recorded extents, else `no`
// (its negation), kept by the witness only (it shapes the program built, not a node's validity).
std::optional<bool> decide(ShapeGuard yes, ShapeGuard no) {
  ShapeWitness* w = t_witness;
  if (!w) return std::nullopt;
  std::optional<bool> ok = holds(yes, w->values());
  if (ok) w->decide(*ok ? std::move(yes) : std::move(no));
  return ok;
}
} // namespace

std::optional<bool> decide_le(Extent a, Extent b) {
  if (a == b) return true;
  if (Extent d = b - a; d.is_const()) return d.value() >= 0;
  return decide(fact(ShapeGuard::Kind::LessEqual, a, b, "<="),
                fact(ShapeGuard::Kind::Less, b, a, "<"));
}

std::optional<bool> decide_eq(Extent a, Extent b) {
  if (a == b) return true;
  if ((a - b).is_const()) return false; // differ by a non-zero constant
  return decide(fact(ShapeGuard::Kind::Equal, a, b, "=="),
                fact(ShapeGuard::Kind::NotEqual, a, b, "!="));
}

std::optional<int64_t> decide_value(Extent e) {
  if (e.is_const()) return e.value();
  ShapeWitness* w = t_witness;
  if (!w) return std::nullopt;
  std::optional<int64_t> v = w->value_of(e);
  if (!v) return std::nullopt;
  w->decide(fact(ShapeGuard::Kind::Equal, e, *v, "=="));
  return v;
}

void violated(Status status, const char*, const std::string& message) {
  throw Error(status, message);
}

Extent require_eq(Extent a, Extent b, Status status, const char* label, const std::string& what) {
  if (a == b) return a;
  std::string msg = what + ": " + to_string(a) + " and " + to_string(b) + " differ";
  if (a.is_const() && b.is_const()) violated(status, label, msg);
  if (ShapeWitness* w = t_witness) {
    std::optional<int64_t> va = w->value_of(a), vb = w->value_of(b);
    if (va && vb) {
      if (*va != *vb)
        violated(
            status, label,
            strformat("%s: %lld and %lld differ", what.c_str(), (long long)*va, (long long)*vb));
      ShapeGuards::add({ShapeGuard::Kind::Equal, a, b, status, msg});
      return simpler(a, b);
    }
  }
  if (!a.is_const() && !b.is_const())
    violated(status, label,
             what + ": symbolic extents " + to_string(a) + " and " + to_string(b) +
                 " are not provably equal");
  ShapeGuards::add({ShapeGuard::Kind::Equal, a, b, status, msg});
  return a.is_const() ? a : b;
}

void require_le(Extent a, Extent b, Status status, const char* label, const std::string& what) {
  if (a == b) return;
  std::string msg = what + ": need " + to_string(a) + " <= " + to_string(b);
  if (a.is_const() && b.is_const()) {
    if (a.value() > b.value()) violated(status, label, msg);
    return;
  }
  if (Extent d = b - a; d.is_const()) {
    if (d.value() < 0) violated(status, label, msg);
    return;
  }
  if (ShapeWitness* w = t_witness) {
    std::optional<int64_t> va = w->value_of(a), vb = w->value_of(b);
    if (va && vb && *va > *vb)
      violated(status, label,
               strformat("%s: need %lld <= %lld", what.c_str(), (long long)*va, (long long)*vb));
  }
  ShapeGuards::add({ShapeGuard::Kind::LessEqual, a, b, status, msg});
}

bool provably_lt(Extent a, Extent b) {
  return a.is_const() && b.is_const() && a.value() < b.value();
}

void require_same_shapes(std::span<const Meta> in, const char* label) {
  for (size_t i = 1; i < in.size(); ++i) {
    if (in[i].shape == in[0].shape) continue;
    if (in[i].shape.size() != in[0].shape.size())
      violated(Status::ShapeMismatch, label,
               strformat("operand %zu has shape %s but operand 0 has %s", i,
                         format_shape(in[i].shape).c_str(), format_shape(in[0].shape).c_str()));
    bool all_const = true;
    for (size_t d = 0; d < in[0].shape.size(); ++d)
      all_const &= in[i].shape[d].is_const() && in[0].shape[d].is_const();
    if (all_const)
      violated(Status::ShapeMismatch, label,
               strformat("operand %zu has shape %s but operand 0 has %s", i,
                         format_shape(in[i].shape).c_str(), format_shape(in[0].shape).c_str()));
    for (size_t d = 0; d < in[0].shape.size(); ++d)
      require_eq(in[i].shape[d], in[0].shape[d], Status::ShapeMismatch, label,
                 strformat("dim %zu of operands %zu and 0", d, i));
  }
}

void require_same_dtypes(std::span<const Meta> in, std::initializer_list<size_t> which,
                         const char* label) {
  const Meta* first = nullptr;
  size_t first_i = 0;
  for (size_t i : which) {
    if (i >= in.size()) continue;
    if (!first) {
      first = &in[i];
      first_i = i;
    } else if (in[i].dtype != first->dtype) {
      violated(Status::DtypeMismatch, label,
               strformat("operand %zu is %s but operand %zu is %s", i,
                         std::string(dtype_name(in[i].dtype)).c_str(), first_i,
                         std::string(dtype_name(first->dtype)).c_str()));
    }
  }
}

void require_integer(const Meta& m, const char* what, const char* label) {
  if (!is_integer(m.dtype))
    violated(
        Status::DtypeMismatch, label,
        strformat("%s must be I32 or I64, not %s", what, std::string(dtype_name(m.dtype)).c_str()));
}

int64_t require_axis(int64_t axis, int64_t rank, const char* what, const char* label) {
  if (axis < 0 || axis >= rank)
    violated(
        Status::InvalidArgument, label,
        strformat("%s %lld is out of range for rank %lld", what, (long long)axis, (long long)rank));
  return axis;
}

Dims require_axes(std::span<const int64_t> axes, int64_t rank, const char* what,
                  const char* label) {
  Dims out;
  out.reserve(axes.size());
  for (int64_t ax : axes) {
    int64_t a = require_axis(ax, rank, what, label);
    for (int64_t b : out)
      if (a == b)
        violated(
            Status::InvalidArgument, label,
            strformat("%s %s name axis %lld twice", what, format_dims(axes).c_str(), (long long)a));
    out.push_back(a);
  }
  return out;
}

void require_valid_shape(const Shape& shape, const char* what, const char* label) {
  bool has_zero = false, all_const = true;
  for (Extent e : shape) {
    if (!e.is_const()) {
      all_const = false;
      continue;
    }
    if (e.value() < 0)
      violated(Status::InvalidArgument, label,
               strformat("%s %s has a negative extent", what, format_shape(shape).c_str()));
    if (e.value() == 0) has_zero = true;
  }
  if (has_zero || !all_const) return; // symbolic products are checked when bound
  int64_t n = 1;
  for (Extent e : shape)
    if (__builtin_mul_overflow(n, e.value(), &n))
      violated(Status::Numerical, label,
               strformat("%s %s has more than 2^63-1 elements", what, format_shape(shape).c_str()));
}

std::string dtype_list(DTypeSet set) {
  std::string s;
  for (DType d : kAllDTypes)
    if (set.contains(d)) {
      if (!s.empty()) s += ',';
      s += dtype_name(d);
    }
  return s;
}

} // namespace tfe::ops
