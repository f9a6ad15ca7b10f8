// tfe_tensor_format: a NumPy-like text of a tensor for debugging. The layout follows NumPy's str()
// of the array with the same shape (the last index varies fastest along a line), so a C user sees
// what the Python binding's .numpy() prints. Every value of one tensor shares one width, computed
// over the values shown, as NumPy does.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "backend/device/plugin.hpp"
#include "capi/guard.hpp"
#include "capi/text_out.hpp"
#include "ops/params.hpp"

using namespace tfe;
using namespace tfe::capi;

namespace {

constexpr int64_t kSummaryThreshold = 1000; // NumPy's default threshold
constexpr int64_t kEdgeItems = 3;           // NumPy's default edgeitems
constexpr int kPrecision = 8;               // NumPy's default precision
constexpr size_t kLineWidth = 75;           // NumPy's default linewidth

// The indices shown along an axis of extent n; -1 marks the "..." gap.
std::vector<int64_t> shown_indices(int64_t n, bool summarize) {
  std::vector<int64_t> idx;
  if (summarize && n > 2 * kEdgeItems) {
    for (int64_t i = 0; i < kEdgeItems; ++i) idx.push_back(i);
    idx.push_back(-1);
    for (int64_t i = n - kEdgeItems; i < n; ++i) idx.push_back(i);
  } else {
    for (int64_t i = 0; i < n; ++i) idx.push_back(i);
  }
  return idx;
}

// Shortest fixed-point digits (at most kPrecision after the point) that read back as v in the
// precision of T; integral values keep their point ("1.") as NumPy prints them.
template <class T> std::string fixed_digits(T v) {
  char buf[512];
  for (int p = 0; p <= kPrecision; ++p) {
    std::snprintf(buf, sizeof buf, "%.*f", p, static_cast<double>(v));
    if (static_cast<T>(std::strtod(buf, nullptr)) == v || p == kPrecision) break;
  }
  std::string s = buf;
  if (s.find('.') == std::string::npos) s += '.';
  while (s.back() == '0') s.pop_back(); // only after a point: "2.50" -> "2.5"
  return s;
}

// Shortest scientific mantissa digits (at most kPrecision) that read back as v.
template <class T> std::string exp_digits(T v, int* mantissa_digits) {
  char buf[64];
  int p = 0;
  for (; p <= kPrecision; ++p) {
    std::snprintf(buf, sizeof buf, "%.*e", p, static_cast<double>(v));
    if (static_cast<T>(std::strtod(buf, nullptr)) == v || p == kPrecision) break;
  }
  *mantissa_digits = p;
  return buf;
}

// Formats the real numbers of one tensor (or the real or imaginary parts of a complex one) with
// NumPy's rules: scientific notation when the largest magnitude is >= 1e8, or the smallest
// non-zero one is < 1e-4, or their ratio exceeds 1000; fixed otherwise; one width for all.
template <class T> class FloatColumn {
public:
  FloatColumn(const std::vector<T>& values, bool sign_always) : sign_(sign_always) {
    double max_abs = 0, min_abs = INFINITY;
    for (T v : values) {
      if (!std::isfinite(v)) continue;
      double a = std::fabs(static_cast<double>(v));
      max_abs = std::max(max_abs, a);
      if (a != 0) min_abs = std::min(min_abs, a);
    }
    exp_ = max_abs >= 1e8 || (min_abs != INFINITY && (min_abs < 1e-4 || max_abs / min_abs > 1e3));
    for (T v : values) {
      if (!std::isfinite(v)) continue;
      if (exp_) {
        int d = 0;
        exp_digits(v, &d);
        mantissa_ = std::max(mantissa_, d);
      } else {
        std::string s = sign_of(v) + fixed_digits(std::fabs(v));
        size_t dot = s.find('.');
        left_ = std::max(left_, dot);
        right_ = std::max(right_, s.size() - dot - 1);
      }
    }
    for (T v : values) width_ = std::max(width_, raw(v).size());
  }

  // The text of v, padded to the common width (NumPy pads fixed digits on the right).
  std::string operator()(T v) const {
    std::string s = raw(v);
    return std::string(width_ - std::min(width_, s.size()), ' ') + s;
  }

private:
  std::string sign_of(T v) const { return std::signbit(v) ? "-" : sign_ ? "+" : ""; }

  std::string raw(T v) const {
    if (std::isnan(v)) return sign_ ? "+nan" : "nan";
    if (std::isinf(v)) return sign_of(v) + "inf";
    if (exp_) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.*e", mantissa_, std::fabs(static_cast<double>(v)));
      std::string s = buf;
      if (mantissa_ == 0) s.insert(1, "."); // "1e+05" -> "1.e+05"
      return sign_of(v) + s;
    }
    // The sign sits next to the digits, inside the left padding.
    std::string s = sign_of(v) + fixed_digits(std::fabs(v));
    size_t dot = s.find('.');
    std::string left(left_ - std::min(left_, dot), ' ');
    std::string right(right_ - std::min(right_, s.size() - dot - 1), ' ');
    return left + s + right;
  }

  bool sign_ = false;
  bool exp_ = false;
  int mantissa_ = 0;
  size_t left_ = 0, right_ = 0, width_ = 0;
};

// The shown elements of t in NumPy's print order, as text, plus the nesting needed to print them.
class Printer {
public:
  Printer(const Tensor& t) : t_(t), summarize_(t.numel() > kSummaryThreshold) {
    for (int64_t d = 0; d < t.ndim(); ++d) shown_.push_back(shown_indices(t.dim(d), summarize_));
  }

  std::string run() {
    std::vector<int64_t> offsets;
    collect(0, 0, offsets);
    std::vector<std::string> cells = format_cells(offsets);
    if (t_.ndim() == 0) return scalar_text(offsets.at(0));
    size_t next = 0;
    return nest(0, next, cells, " ", kLineWidth);
  }

private:
  // A 0-d array prints as its scalar does: Python's repr of a float ("1.0", "-0.0", "1e-05"),
  // "(1+2j)" for a complex number.
  template <class T> static std::string repr(T v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    // The shortest digits that read back, placed as Python places them: positional for
    // exponents -4 .. 15, scientific otherwise.
    char buf[64];
    int digits = 1;
    for (; digits <= 17; ++digits) {
      std::snprintf(buf, sizeof buf, "%.*e", digits - 1, static_cast<double>(v));
      if (static_cast<T>(std::strtod(buf, nullptr)) == v) break;
    }
    const int exp = v == 0 ? 0 : std::atoi(std::strchr(buf, 'e') + 1);
    if (exp >= -4 && exp < 16)
      std::snprintf(buf, sizeof buf, "%.*f", std::max(0, digits - 1 - exp), static_cast<double>(v));
    return buf;
  }
  template <class T> static std::string real_repr(T v) {
    std::string s = repr(v);
    if (s.find_first_of(".ena") == std::string::npos) s += ".0";
    return s;
  }
  template <class T> static std::string complex_repr(std::complex<T> z) {
    std::string im = repr(z.imag());
    if (z.real() == 0 && !std::signbit(z.real())) return im + "j";
    if (im[0] != '-') im = "+" + im;
    return "(" + repr(z.real()) + im + "j)";
  }
  std::string scalar_text(int64_t offset) const {
    switch (t_.dtype()) {
    case DType::Bool:
      return reinterpret_cast<const uint8_t*>(t_.raw_data())[offset] ? "True" : "False";
    case DType::I32: return std::to_string(t_.data<int32_t>()[offset]);
    case DType::I64: return std::to_string(t_.data<int64_t>()[offset]);
    case DType::F32: return real_repr(t_.data<float>()[offset]);
    case DType::F64: return real_repr(t_.data<double>()[offset]);
    case DType::C32: return complex_repr(t_.data<std::complex<float>>()[offset]);
    case DType::C64: return complex_repr(t_.data<std::complex<double>>()[offset]);
    }
    return "";
  }

  // Element offsets in print order (gaps skipped).
  void collect(int64_t axis, int64_t offset, std::vector<int64_t>& out) const {
    if (axis == t_.ndim()) {
      out.push_back(offset);
      return;
    }
    for (int64_t i : shown_[static_cast<size_t>(axis)])
      if (i >= 0) collect(axis + 1, offset + i * t_.stride(axis), out);
  }

  std::vector<std::string> format_cells(const std::vector<int64_t>& offsets) const {
    std::vector<std::string> cells;
    cells.reserve(offsets.size());
    switch (t_.dtype()) {
    case DType::Bool: {
      // NumPy pads True to the width of False inside arrays, not for a lone value.
      const auto* p = reinterpret_cast<const uint8_t*>(t_.raw_data());
      for (int64_t o : offsets)
        cells.push_back(p[o] ? (t_.ndim() > 0 ? " True" : "True") : "False");
      break;
    }
    case DType::I32: integers<int32_t>(offsets, cells); break;
    case DType::I64: integers<int64_t>(offsets, cells); break;
    case DType::F32: reals<float>(offsets, cells); break;
    case DType::F64: reals<double>(offsets, cells); break;
    case DType::C32: complexes<float>(offsets, cells); break;
    case DType::C64: complexes<double>(offsets, cells); break;
    }
    return cells;
  }

  template <class T>
  void integers(const std::vector<int64_t>& offsets, std::vector<std::string>& cells) const {
    const T* p = t_.data<T>();
    size_t width = 0;
    for (int64_t o : offsets) width = std::max(width, std::to_string(p[o]).size());
    for (int64_t o : offsets) {
      std::string s = std::to_string(p[o]);
      cells.push_back(std::string(width - s.size(), ' ') + s);
    }
  }

  template <class T>
  void reals(const std::vector<int64_t>& offsets, std::vector<std::string>& cells) const {
    const T* p = t_.data<T>();
    std::vector<T> v;
    for (int64_t o : offsets) v.push_back(p[o]);
    FloatColumn<T> col(v, false);
    for (T x : v) cells.push_back(col(x));
  }

  template <class T>
  void complexes(const std::vector<int64_t>& offsets, std::vector<std::string>& cells) const {
    const auto* p = t_.data<std::complex<T>>();
    std::vector<T> re, im;
    for (int64_t o : offsets) {
      re.push_back(p[o].real());
      im.push_back(p[o].imag());
    }
    FloatColumn<T> rc(re, false), ic(im, true);
    for (size_t i = 0; i < re.size(); ++i) {
      // NumPy moves the imaginary part's right padding after the "j".
      std::string imag = ic(im[i]);
      size_t end = imag.find_last_not_of(' ') + 1;
      cells.push_back(rc(re[i]) + imag.substr(0, end) + "j" + imag.substr(end));
    }
  }

  // NumPy's _formatArray with the " " separator and its default line width of 75: rows wrap
  // before a value that would pass the width, continuing under the first value.
  static void extend_line(std::string& s, std::string& line, const std::string& word, size_t width,
                          const std::string& indent) {
    if (line.size() + word.size() > width && line.size() > indent.size()) {
      s += line.substr(0, line.find_last_not_of(' ') + 1) + "\n";
      line = indent;
    }
    line += word;
  }

  std::string nest(int64_t axis, size_t& next, const std::vector<std::string>& cells,
                   const std::string& indent, size_t width) const {
    const auto& idx = shown_[static_cast<size_t>(axis)];
    const int64_t left = t_.ndim() - axis; // axes from here to the last
    std::string s;
    if (left == 1) {
      const size_t elem_width = width - 1; // room for the closing bracket
      std::string line = indent;
      for (size_t k = 0; k < idx.size(); ++k) {
        extend_line(s, line, idx[k] < 0 ? std::string("...") : cells[next++], elem_width, indent);
        if (k + 1 < idx.size()) line += ' ';
      }
      s += line;
    } else {
      const std::string sep(static_cast<size_t>(left - 1), '\n');
      for (size_t k = 0; k < idx.size(); ++k) {
        s += indent;
        s += idx[k] < 0 ? std::string("...") : nest(axis + 1, next, cells, indent + " ", width - 1);
        if (k + 1 < idx.size()) s += sep;
      }
    }
    return "[" + s.substr(indent.size()) + "]";
  }

  const Tensor& t_;
  bool summarize_;
  std::vector<std::vector<int64_t>> shown_;
};

std::string format_tensor(const tfe_tensor* t) {
  if (t->value.symbolic()) {
    ops::Meta m = t->meta();
    return "<symbolic " + std::string(dtype_name(m.dtype)) + " tensor of shape " +
           ops::format_shape(m.shape) + ">";
  }
  const Tensor& v = t->value.resolved(*t->ctx);
  if (v.numel() == 0) return "[]";
  // Printing a device tensor reads a host copy: a debugging aid, not a transfer the caller sees.
  if (!v.device().is_cpu()) return Printer(device::to_device(v, Device{})).run();
  return Printer(v).run();
}

} // namespace

extern "C" {

tfe_status tfe_tensor_format(const tfe_tensor* t, char* buf, int64_t capacity, int64_t* needed) {
  return guarded("tfe_tensor_format", [&] {
    require(t, "t");
    require_text_buffer(buf, capacity);
    copy_text(format_tensor(t), buf, capacity, needed);
  });
}

} // extern "C"
