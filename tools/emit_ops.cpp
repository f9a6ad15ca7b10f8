// Prints the files generated from the op registry, so none can drift from the code:
//   emit_ops table     docs/ops/table.md (every op)
//   emit_ops c-header  include/tenferro/ops_math.h (the analytic rows)
//   emit_ops c-header-arith  include/tenferro/ops_arith.h (the Regular arithmetic, logical and
//                      complex-parts rows)
//   emit_ops python    bindings/python/tenferro/_op_rows.py (the analytic rows, and the
//                      arithmetic, logical and complex-parts rows)
//   emit_ops cxx       include/tenferro/ops_math.hpp (the analytic rows in the C++ layer)
//   emit_ops rust      bindings/rust/tenferro/src/ops_math.rs (the analytic rows in Rust)
//   emit_ops cxx-arith, rust-arith  include/tenferro/ops_arith.hpp and
//                      bindings/rust/tenferro/src/ops_arith.rs (the Regular arithmetic, logical
//                      and complex-parts rows)
//   emit_ops linalg-table   docs/ops/linalg.md (the linalg rows and kernel ops)
//   emit_ops python-linalg  bindings/python/tests/linalg_rows.py (the linalg rows)
// The ctests ops_*_drift rerun it and compare with the committed files.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "linalg/functions.hpp"
#include "linalg/ops.hpp"
#include "ops/defs/analytic.hpp"
#include "ops/defs/arithmetic.hpp"
#include "ops/defs/complex_parts.hpp"
#include "ops/defs/logical.hpp"
#include "ops/op_table.hpp"
#include "ops/shape_checks.hpp"

namespace {

// text as comment lines of at most 100 columns: the first starts with `first`, the others with
// `rest` (the repository's line limit; clang-format leaves such lines alone).
std::string comment_lines(const char* first, const char* rest, const std::string& text) {
  constexpr size_t kWidth = 100;
  std::string out, line = first;
  size_t line_start_len = line.size();
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find(' ', pos);
    if (end == std::string::npos) end = text.size();
    std::string word = text.substr(pos, end - pos);
    if (line.size() > line_start_len && line.size() + 1 + word.size() > kWidth) {
      out += line + "\n";
      line = rest;
      line_start_len = line.size();
    }
    if (line.size() > line_start_len) line += ' ';
    line += word;
    pos = end + 1;
  }
  return out + line + "\n";
}

const char* group_name(tfe::ops::OpGroup g) {
  using tfe::ops::OpGroup;
  switch (g) {
  case OpGroup::Arithmetic: return "arithmetic";
  case OpGroup::Logical: return "logical";
  case OpGroup::Analytic: return "analytic";
  case OpGroup::ComplexParts: return "complex parts";
  case OpGroup::Comparison: return "comparison";
  case OpGroup::Contraction: return "contraction";
  case OpGroup::Reduce: return "reduce";
  case OpGroup::Structural: return "structural";
  case OpGroup::Indexing: return "indexing";
  case OpGroup::Order: return "order";
  case OpGroup::Constant: return "constant";
  case OpGroup::Extension: return "extension";
  }
  return "?";
}

const char* ad_name(tfe::ops::AdClass a) {
  using tfe::ops::AdClass;
  switch (a) {
  case AdClass::Smooth: return "smooth";
  case AdClass::Linear: return "linear";
  case AdClass::ZeroDerivative: return "zero derivative";
  case AdClass::NotDiff: return "not differentiable";
  }
  return "?";
}

struct AnalyticRow {
  const char* name;
  int arity;
  tfe::DTypeSet accepts;
  const char* since;
  const char* domain;
  const char* numpy;
  const char* summary;
};

const std::vector<AnalyticRow>& analytic_rows() {
#define TFE_EMIT_ROW(Code, name, arity, accepts, ad, since, domain, numpy, summary)                \
  {#name, arity, tfe::dtypes::accepts, #since, #domain, numpy, summary},
  static const std::vector<AnalyticRow> rows{TFE_ANALYTIC_OPS(TFE_EMIT_ROW)};
#undef TFE_EMIT_ROW
  return rows;
}

// A row of the arithmetic, logical or complex-parts lists (ops/defs/arithmetic.hpp).
struct BasicRow {
  const char* name;
  const char* c_stem;
  bool regular; // the C entry point is generated
  int arity;
  std::vector<std::string> operands;
  tfe::DTypeSet accepts;
  bool promotes;
  const char* since;
  const char* errors;
  const char* domain; // where the Python tests sample the operands
  const char* numpy;  // the NumPy reference of the Python tests
  const char* summary;
};

// "(a, b)" -> {"a", "b"}
std::vector<std::string> operand_names(const char* parenthesized) {
  std::vector<std::string> names;
  std::string cur;
  for (const char* p = parenthesized; *p; ++p) {
    if (*p == '(' || *p == ' ') continue;
    if (*p == ',' || *p == ')') {
      if (!cur.empty()) names.push_back(cur);
      cur.clear();
    } else {
      cur += *p;
    }
  }
  return names;
}

const std::vector<BasicRow>& basic_rows() {
#define TFE_EMIT_BASIC(Code, name, c_stem, entry, arity, operands, accepts, promotes, result, ad,  \
                       since, errors, domain, numpy, summary)                                      \
  {#name,                                                                                          \
   #c_stem,                                                                                        \
   std::strcmp(#entry, "Regular") == 0,                                                            \
   arity,                                                                                          \
   operand_names(#operands),                                                                       \
   tfe::dtypes::accepts,                                                                           \
   promotes,                                                                                       \
   #since,                                                                                         \
   errors,                                                                                         \
   #domain,                                                                                        \
   numpy,                                                                                          \
   summary},
  static const std::vector<BasicRow> rows{TFE_ARITHMETIC_OPS(TFE_EMIT_BASIC) TFE_LOGICAL_OPS(
      TFE_EMIT_BASIC) TFE_COMPLEX_PARTS_OPS(TFE_EMIT_BASIC)};
#undef TFE_EMIT_BASIC
  return rows;
}

const char* numpy_dtype(tfe::DType d) {
  switch (d) {
  case tfe::DType::Bool: return "bool";
  case tfe::DType::I32: return "int32";
  case tfe::DType::I64: return "int64";
  case tfe::DType::F32: return "float32";
  case tfe::DType::F64: return "float64";
  case tfe::DType::C32: return "complex64";
  case tfe::DType::C64: return "complex128";
  }
  return "?";
}

std::string accepted(tfe::DTypeSet set, bool python) {
  std::string s;
  for (tfe::DType d : tfe::kAllDTypes)
    if (set.contains(d)) {
      if (!s.empty()) s += ", ";
      s += python ? numpy_dtype(d) : std::string(tfe::dtype_name(d));
    }
  return s;
}

// A Python tuple body of the accepted dtypes' NumPy names.
std::string python_dtypes(tfe::DTypeSet set) {
  std::string s;
  for (tfe::DType d : tfe::kAllDTypes)
    if (set.contains(d)) s += std::string("\"") + numpy_dtype(d) + "\", ";
  return s;
}

void emit_table() {
  std::printf("# The op table\n\n");
  std::printf("Generated by `tools/emit_ops table` from `src/ops/defs/*.hpp`; do not edit (the\n"
              "test `ops_doc_drift` fails when this file and the table differ). The constraint\n"
              "labels name the checks of each op's shape rule; their meanings, the dtype\n"
              "promotion table and the statuses are in\n"
              "[docs/design/ops-and-dtypes.md](../design/ops-and-dtypes.md).\n\n");
  std::printf(
      "| op | C function | group | operands | dtypes | promotes | AD | constraints | summary |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  for (const auto& d : tfe::ops::kOpTable) {
    std::string arity =
        d.max_inputs < 0 ? std::to_string(d.min_inputs) + "+" : std::to_string(d.min_inputs);
    std::printf("| `%s` | `%s` | %s | %s | %s | %s | %s | %s | %s |\n", std::string(d.name).c_str(),
                std::string(d.c_name).c_str(), group_name(d.group), arity.c_str(),
                tfe::ops::dtype_list(d.accepts).c_str(), d.promotes ? "yes" : "no", ad_name(d.ad),
                d.constraints.empty() ? "-" : std::string(d.constraints).c_str(),
                std::string(d.summary).c_str());
  }
}

// One C declaration with its documentation, as every generated header writes it.
struct CDecl {
  std::string c_name;
  std::string summary;
  tfe::DTypeSet accepts;
  std::vector<std::string> operands;
  bool promotes;
  std::string errors; // statuses beyond the common ones
  std::string since;
};

void print_declaration(const CDecl& d) {
  std::printf("\n%s * Accepts %s.\n", comment_lines("/** ", " * ", d.summary).c_str(),
              accepted(d.accepts, false).c_str());
  std::printf(" * @param[out] out new reference owned by the caller, NULL on failure.\n");
  const bool binary = d.operands.size() == 2;
  if (binary)
    std::printf("%s", comment_lines(" * @param ", " *   ",
                                    d.operands[0] + ", " + d.operands[1] +
                                        " borrowed operands of one context; they broadcast "
                                        "left-aligned" +
                                        (d.promotes ? " and promote to the join of their dtypes."
                                                    : " and share one dtype."))
                          .c_str());
  else
    std::printf(" * @param %s borrowed operand.\n", d.operands[0].c_str());
  std::printf(" * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle%s);\n"
              " *         TFE_ERR_DTYPE_MISMATCH (another dtype)%s%s%s.\n * @since %s */\n",
              binary ? ", two contexts" : "",
              binary ? ";\n *         TFE_ERR_SHAPE_MISMATCH (shapes that do not broadcast)" : "",
              d.errors.empty() ? "" : ";\n *         ", d.errors.c_str(), d.since.c_str());
  if (!binary)
    std::printf("TFE_API TFE_NODISCARD tfe_status %s(tfe_tensor** out, const tfe_tensor* %s);\n",
                d.c_name.c_str(), d.operands[0].c_str());
  else if (std::string one_line = "TFE_API TFE_NODISCARD tfe_status " + d.c_name +
                                  "(tfe_tensor** out, const tfe_tensor* " + d.operands[0] +
                                  ", const tfe_tensor* " + d.operands[1] + ");";
           one_line.size() <= 100)
    std::printf("%s\n", one_line.c_str());
  else
    // the continuation lines up with the opening parenthesis, as clang-format puts it
    std::printf("TFE_API TFE_NODISCARD tfe_status %s(tfe_tensor** out, const tfe_tensor* %s,\n"
                "%*sconst tfe_tensor* %s);\n",
                d.c_name.c_str(), d.operands[0].c_str(), static_cast<int>(d.c_name.size() + 34), "",
                d.operands[1].c_str());
}

void print_header_top(const char* file, const char* guard, const std::string& what,
                      const std::string& rows, const char* test, const std::string& common) {
  std::printf(
      "/** @file\n%s *\n%s *\n%s */\n#ifndef %s\n#define %s\n\n"
      "#include \"tenferro/tensor.h\"\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n",
      comment_lines(" * ", " * ",
                    std::string("tenferro/") + file + ": " + what + ". Included by tenferro.h.")
          .c_str(),
      comment_lines(" * ", " * ",
                    "Generated by tools/emit_ops from the rows of " + rows +
                        "; do not edit (the test " + test +
                        " fails when this file and the rows differ).")
          .c_str(),
      comment_lines(" * ", " * ", common).c_str(), guard, guard);
}

void print_header_bottom(const char* guard) {
  std::printf("\n#ifdef __cplusplus\n}\n#endif\n\n#endif /* %s */\n", guard);
}

void emit_c_header() {
  print_header_top(
      "ops_math.h", "TENFERRO_OPS_MATH_H", "the analytic functions (exp, sin, atan2, ...)",
      "src/ops/defs/analytic.hpp", "ops_header_drift",
      "Common to every function here: operands of the binary functions broadcast "
      "left-aligned (as in ops_elementwise.h) and promote to the join of their dtypes; "
      "the result has the operands' dtype.");
  for (const AnalyticRow& r : analytic_rows())
    print_declaration(
        {std::string("tfe_") + r.name, r.summary, r.accepts,
         r.arity == 1 ? std::vector<std::string>{"x"} : std::vector<std::string>{"a", "b"},
         r.arity > 1, "", r.since});
  print_header_bottom("TENFERRO_OPS_MATH_H");
}

void emit_c_header_arith() {
  print_header_top(
      "ops_arith.h", "TENFERRO_OPS_ARITH_H",
      "the arithmetic, logical and complex-part functions that run one op of the registry "
      "(add, mul, neg, and, real, ...)",
      "src/ops/defs/arithmetic.hpp, logical.hpp and complex_parts.hpp", "ops_header_arith_drift",
      "Operands broadcast left-aligned (Julia style): dim 0 pairs with dim 0, the shorter shape "
      "is padded with trailing extents of 1, extents must be equal or 1; [2,3] + [2] adds the "
      "column to each column, [2,3] + [3] is TFE_ERR_SHAPE_MISMATCH. The functions with several "
      "special checks (tfe_div, tfe_div_trunc, tfe_compare, tfe_select, tfe_clamp) are in "
      "ops_elementwise.h, which includes this header.");
  for (const BasicRow& r : basic_rows())
    if (r.regular)
      print_declaration({std::string("tfe_") + r.c_stem, r.summary, r.accepts, r.operands,
                         r.promotes, r.errors, r.since});
  print_header_bottom("TENFERRO_OPS_ARITH_H");
}

void emit_python() {
  std::printf(
      "# Generated by tools/emit_ops from the rows of src/ops/defs/analytic.hpp; do not edit\n"
      "# (the test ops_python_drift fails when this file and the rows differ).\n"
      "# (name, C function, arity, accepted dtypes, since, test domain, NumPy reference,\n"
      "#  summary)\n"
      "ANALYTIC = [\n");
  for (const AnalyticRow& r : analytic_rows())
    std::printf("    (\"%s\", \"tfe_%s\", %d, (%s), \"%s\", \"%s\",\n     \"%s\",\n     \"%s\"),\n",
                r.name, r.name, r.arity, python_dtypes(r.accepts).c_str(), r.since, r.domain,
                r.numpy, r.summary);
  std::printf(
      "]\n\n"
      "# The Regular rows of the arithmetic, logical and complex-parts lists\n"
      "# (src/ops/defs/arithmetic.hpp, logical.hpp, complex_parts.hpp): (name, C function,\n"
      "# arity, accepted dtypes, promotes, since, test domain, NumPy reference, summary)\n"
      "BASIC = [\n");
  for (const BasicRow& r : basic_rows())
    if (r.regular)
      std::printf("    (\"%s\", \"tfe_%s\", %d, (%s), %s, \"%s\", \"%s\", \"%s\",\n     \"%s\"),\n",
                  r.c_stem, r.c_stem, r.arity, python_dtypes(r.accepts).c_str(),
                  r.promotes ? "True" : "False", r.since, r.domain, r.numpy, r.summary);
  std::printf("]\n");
}

// One function of a binding layer: the name there, the C function, operands, documentation.
struct Wrapper {
  std::string name;
  std::string c_name;
  std::vector<std::string> operands;
  std::string summary;
  std::string accepts; // the dtype list
  std::string since;
  bool method = true; // Rust: also a method of Tensor
};

std::vector<Wrapper> analytic_wrappers() {
  std::vector<Wrapper> out;
  for (const AnalyticRow& r : analytic_rows())
    out.push_back(
        {r.name, std::string("tfe_") + r.name,
         r.arity == 1 ? std::vector<std::string>{"x"} : std::vector<std::string>{"a", "b"},
         r.summary, accepted(r.accepts, false), r.since});
  return out;
}

// The Regular rows. C++ spells and/or/xor/not with a trailing underscore (they are operator
// tokens there). In Rust, the names of the std::ops operators the crate implements on Tensor
// (add, sub, mul, neg) and the constructor complex are free functions only: an inherent method
// of such a name would make `a.add(b)` resolve differently depending on imports.
std::vector<Wrapper> basic_wrappers(bool cxx) {
  static const char* const cxx_tokens[] = {"and", "or", "xor", "not"};
  static const char* const rust_free_only[] = {"add", "sub", "mul", "neg", "complex"};
  std::vector<Wrapper> out;
  for (const BasicRow& r : basic_rows()) {
    if (!r.regular) continue;
    Wrapper w{r.c_stem,  std::string("tfe_") + r.c_stem, r.operands,
              r.summary, accepted(r.accepts, false),     r.since};
    for (const char* t : cxx_tokens)
      if (cxx && w.name == t) w.name += "_";
    for (const char* t : rust_free_only)
      if (w.name == t) w.method = false;
    out.push_back(w);
  }
  return out;
}

void emit_cxx(const char* file, const char* what, const char* rows, const char* test,
              const std::vector<Wrapper>& wrappers) {
  std::printf("%s//\n%s",
              comment_lines("// ", "// ",
                            std::string("tenferro/") + file + ": " + what +
                                " of the C++ layer. Part of tenferro.hpp, which "
                                "includes it after tfe::Tensor; not a header of "
                                "its own.")
                  .c_str(),
              comment_lines("// ", "// ",
                            std::string("Generated by tools/emit_ops from the rows of ") + rows +
                                "; do not edit (the test " + test +
                                " fails when this file and the rows differ).")
                  .c_str());
  std::printf("namespace tfe {\n");
  for (const Wrapper& w : wrappers) {
    std::printf("\n%s",
                comment_lines("// ", "// ", w.summary + " Accepts " + w.accepts + ".").c_str());
    if (w.operands.size() == 1) {
      std::string one = "inline Tensor " + w.name + "(const Tensor& " + w.operands[0] +
                        ") { return detail::make(" + w.c_name + ", " + w.operands[0] + ".get()); }";
      if (one.size() <= 100)
        std::printf("%s\n", one.c_str());
      else
        std::printf(
            "inline Tensor %s(const Tensor& %s) {\n  return detail::make(%s, %s.get());\n}\n",
            w.name.c_str(), w.operands[0].c_str(), w.c_name.c_str(), w.operands[0].c_str());
    } else {
      std::printf("inline Tensor %s(const Tensor& %s, const Tensor& %s) {\n"
                  "  return detail::make(%s, %s.get(), %s.get());\n}\n",
                  w.name.c_str(), w.operands[0].c_str(), w.operands[1].c_str(), w.c_name.c_str(),
                  w.operands[0].c_str(), w.operands[1].c_str());
    }
  }
  std::printf("\n} // namespace tfe\n");
}

void emit_rust(const char* what, const char* rows, const char* test,
               const std::vector<Wrapper>& wrappers) {
  std::printf("// %s (free functions and methods of `Tensor`).\n//\n%s", what,
              comment_lines("// ", "// ",
                            std::string("Generated by tools/emit_ops from the rows of ") + rows +
                                "; do not edit (the test " + test +
                                " fails when this file and the rows differ).")
                  .c_str());
  for (size_t arity = 1; arity <= 2; ++arity) {
    std::printf("\n%s! {\n", arity == 1 ? "unary_ops" : "binary_ops");
    for (const Wrapper& w : wrappers)
      if (w.operands.size() == arity)
        std::printf("    /// %s Accepts %s (library %s).\n    %s => %s, method: %s;\n",
                    w.summary.c_str(), w.accepts.c_str(), w.since.c_str(), w.name.c_str(),
                    w.c_name.c_str(), w.method ? "yes" : "no");
    std::printf("}\n");
  }
}

void emit_linalg_table() {
  std::printf("# The linear algebra functions\n\n");
  std::printf("Generated by `tools/emit_ops linalg-table` from `src/ops/defs/linalg.hpp`; do not "
              "edit (the\ntest `ops_linalg_doc_drift` fails when this file and the rows differ). "
              "`tfe_op_count` and\n`tfe_op_name` list these functions after the core ops of "
              "[table.md](table.md); their\nconventions, derivatives and special points are in "
              "[docs/linalg.md](../linalg.md).\n\n");
  std::printf("| function | C function | Python | operands | outputs | dtypes | AD | samples | "
              "since | summary |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  for (const tfe::linalg::FunctionRow& r : tfe::linalg::kFunctions)
    std::printf("| `%s` | `%s` | `tenferro.linalg.%s` | %d | %d | %s | %s | %s | %s | %s |\n",
                std::string(r.name).c_str(), std::string(r.c_name).c_str(),
                std::string(r.python).c_str(), r.inputs, r.outputs,
                tfe::ops::dtype_list(r.accepts).c_str(),
                std::string(tfe::linalg::ad_name(r.ad)).c_str(), std::string(r.shapes).c_str(),
                std::string(r.since).c_str(), std::string(r.summary).c_str());
  std::printf("\n## Kernel ops\n\n"
              "The basis the functions lower to: extension ops of the IR (one `extension` row "
              "of the op\ntable each), with a CPU kernel and derivative rules in "
              "`src/linalg/ops/`. Errors and\nderivative failures inside one name the public "
              "function.\n\n");
  std::printf("| kernel op | operands | outputs | reported as |\n|---|---|---|---|\n");
  for (const tfe::linalg::LinalgOp* op : tfe::linalg::kernel_ops())
    std::printf("| `%s` | %d | %d | `%s` |\n", std::string(op->name()).c_str(), op->num_inputs(),
                op->num_outputs(), std::string(op->c_name()).c_str());
}

void emit_python_linalg() {
  std::printf(
      "# Generated by tools/emit_ops from the rows of src/ops/defs/linalg.hpp; do not edit\n"
      "# (the test ops_linalg_python_drift fails when this file and the rows differ).\n"
      "# (name, C function, tenferro.linalg function, operands, outputs, call, sample, since,\n"
      "#  summary)\n"
      "LINALG = [\n");
  static const char* const calls[] = {"Plain", "Options", "Args"};
  for (const tfe::linalg::FunctionRow& r : tfe::linalg::kFunctions)
    std::printf("    (\"%s\", \"%s\", \"%s\", %d, %d, \"%s\", \"%s\", \"%s\",\n     \"%s\"),\n",
                std::string(r.name).c_str(), std::string(r.c_name).c_str(),
                std::string(r.python).c_str(), r.inputs, r.outputs, calls[static_cast<int>(r.call)],
                std::string(r.sample).c_str(), std::string(r.since).c_str(),
                std::string(r.summary).c_str());
  std::printf("]\n");
}

} // namespace

int main(int argc, char** argv) {
  const char* what = argc > 1 ? argv[1] : "table";
  if (!std::strcmp(what, "table"))
    emit_table();
  else if (!std::strcmp(what, "c-header"))
    emit_c_header();
  else if (!std::strcmp(what, "c-header-arith"))
    emit_c_header_arith();
  else if (!std::strcmp(what, "python"))
    emit_python();
  else if (!std::strcmp(what, "cxx"))
    emit_cxx("ops_math.hpp", "the analytic functions", "src/ops/defs/analytic.hpp", "ops_cxx_drift",
             analytic_wrappers());
  else if (!std::strcmp(what, "cxx-arith"))
    emit_cxx("ops_arith.hpp", "the arithmetic, logical and complex-part functions",
             "src/ops/defs/arithmetic.hpp, logical.hpp and complex_parts.hpp",
             "ops_cxx_arith_drift", basic_wrappers(true));
  else if (!std::strcmp(what, "rust"))
    emit_rust("The analytic functions", "src/ops/defs/analytic.hpp", "ops_rust_drift",
              analytic_wrappers());
  else if (!std::strcmp(what, "rust-arith"))
    emit_rust("The arithmetic, logical and complex-part functions",
              "src/ops/defs/arithmetic.hpp, logical.hpp and complex_parts.hpp",
              "ops_rust_arith_drift", basic_wrappers(false));
  else if (!std::strcmp(what, "linalg-table"))
    emit_linalg_table();
  else if (!std::strcmp(what, "python-linalg"))
    emit_python_linalg();
  else {
    std::fprintf(stderr,
                 "usage: emit_ops "
                 "[table|c-header|c-header-arith|python|cxx|rust|linalg-table|python-linalg]\n");
    return 2;
  }
  return 0;
}
