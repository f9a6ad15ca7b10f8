// tenferro/tenferro.hpp: a header-only C++ layer over the C ABI of tenferro.h.
//
// Everything here is inline and calls only the C functions, so libtenferro.so keeps exporting
// nothing but its C symbols and a program built with one compiler's C++ runtime can use a library
// built with another. Handles become value types with reference semantics (a copy retains, a
// destructor releases), statuses become exceptions, and pointer+count arrays become vectors.
// Compiles as C++17 and C++20.
//
//   #include <tenferro/tenferro.hpp>
//
//   tfe::Context ctx;                                       // checks tfe_abi_version() once
//   tfe::Tensor a = tfe::tensor(ctx, {1.0, 2.0, 3.0, 4.0, 5.0, 6.0}, {2, 3}); // column-major
//   tfe::Tensor col = tfe::tensor(ctx, {10.0, 20.0});       // rank 1, [2]
//   tfe::Tensor g = tfe::matmul(a + col, tfe::transpose(a, {1, 0}));
//   double total = tfe::sum(g).item<double>();
//
//   tfe::Tensor x = tfe::tensor(ctx, {0.5, 1.5}).set_requires_grad();
//   tfe::Tensor loss = tfe::sum(x * tfe::sin(x));
//   loss.backward();
//   std::vector<double> dx = x.grad().to_vector<double>(); // sin x + x cos x
//
//   try {
//     tfe::add(a, tfe::tensor(ctx, {1.0, 2.0, 3.0}));       // [2,3] + [3] does not broadcast
//   } catch (const tfe::Error& e) {
//     // e.status() == TFE_ERR_SHAPE_MISMATCH; e.what() is tfe_last_error_message()
//   }
//
// Conventions of this layer
// - Names drop the tfe_ and tfe_linalg_ prefixes: tfe_linalg_eigh is tfe::eigh, tfe_reduce_max is
//   tfe::reduce_max. The C names that are C++ keywords get a trailing underscore: and_, or_,
//   xor_, not_ (also available as the operators &, |, ^ and ~).
// - Every failing C call throws tfe::Error carrying the status and the library's message. Checks
//   that only this layer can make (a value count that does not match a shape, a typed read of
//   another dtype, a header/library ABI mismatch) throw tfe::Error too, with a message starting
//   with "tfe::".
// - A default-constructed Tensor is empty (it holds no handle); functions that may produce no
//   tensor (Tensor::grad, vjp, jvp) return an empty Tensor, and an empty Tensor passed where the
//   C function accepts NULL (a seed, a tangent) means NULL. Test with `if (t)`.
// - get() exposes the C handle (borrowed), adopt() takes over a reference returned by a C call
//   and borrow() adds one, so the C and C++ interfaces mix freely.
#ifndef TENFERRO_HPP
#define TENFERRO_HPP

#include "tenferro/tenferro.h"

#include <complex>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <string>
#include <utility>
#include <vector>

#if __cplusplus >= 202002L && defined(__has_include)
#if __has_include(<span>)
#include <span>
#endif
#endif

namespace tfe {

using Shape = std::vector<int64_t>; // extents; -k names symbol k of a context (traced programs)
using Axes = std::vector<int64_t>;  // axes or input indices; NumPy-style negatives allowed

// ---- errors ------------------------------------------------------------------------------------

// A failed call: status() is the C status (TFE_ERR_*), what() the library's one-line message.
class Error : public std::runtime_error {
public:
  Error(tfe_status status, const std::string& message)
      : std::runtime_error(message), status_(status) {}
  tfe_status status() const noexcept { return status_; }
  // "TFE_ERR_SHAPE_MISMATCH", ...
  const char* status_name() const noexcept { return tfe_status_name(status_); }

private:
  tfe_status status_;
};

namespace detail {

// Kept out of line and cold so that the success path of every wrapper is a compare and a branch.
#if defined(__GNUC__)
#define TFE_CXX_COLD __attribute__((noinline, cold))
#else
#define TFE_CXX_COLD
#endif
[[noreturn]] inline TFE_CXX_COLD void throw_last_error(tfe_status s) {
  throw Error(s, tfe_last_error_message());
}

inline void check(tfe_status s) {
  if (s != TFE_OK) throw_last_error(s);
}

// Destructors cannot throw, and GCC's warn_unused_result ignores a (void) cast; passing the
// status to a function is a use.
inline void ignore_status(tfe_status) noexcept {}

inline int32_t count32(std::size_t n, const char* what) {
  if (n > static_cast<std::size_t>(INT32_MAX))
    throw Error(TFE_ERR_INVALID_ARGUMENT, std::string("tfe: too many ") + what);
  return static_cast<int32_t>(n);
}

inline std::string shape_text(const Shape& s) {
  std::string out = "[";
  for (std::size_t i = 0; i < s.size(); ++i) out += (i ? "," : "") + std::to_string(s[i]);
  return out + "]";
}

// The product of the extents, or -1 when one is negative (symbolic or invalid: the library then
// reports the extent itself).
inline int64_t numel_of(const Shape& s) {
  int64_t n = 1;
  for (int64_t e : s) {
    if (e < 0) return -1;
    n *= e;
  }
  return n;
}

inline void check_abi_version(int32_t header, int32_t library) {
  if (header != library)
    throw Error(TFE_ERR_NOT_SUPPORTED, "tfe::Context: tenferro.hpp was compiled for ABI version " +
                                           std::to_string(header) +
                                           " but libtenferro reports ABI version " +
                                           std::to_string(library));
}

// A header/library mismatch would otherwise surface as memory corruption much later; asking the
// library once per process is enough, since it cannot change while loaded.
inline void check_abi() {
  static const int32_t library = tfe_abi_version();
  check_abi_version(TFE_ABI_VERSION, library);
}

} // namespace detail

// ---- enums -------------------------------------------------------------------------------------

enum class DType : int32_t {
  Bool = TFE_BOOL,
  I32 = TFE_I32,
  I64 = TFE_I64,
  F32 = TFE_F32,
  F64 = TFE_F64,
  C32 = TFE_C32,
  C64 = TFE_C64,
};

enum class Cmp : int32_t {
  Eq = TFE_CMP_EQ,
  Ne = TFE_CMP_NE,
  Lt = TFE_CMP_LT,
  Le = TFE_CMP_LE,
  Gt = TFE_CMP_GT,
  Ge = TFE_CMP_GE,
};

enum class Scheduler : int32_t { Threads = TFE_SCHEDULER_THREADS, Debug = TFE_SCHEDULER_DEBUG };
enum class ContextMode : int32_t { Eager = TFE_CONTEXT_EAGER, Dataflow = TFE_CONTEXT_DATAFLOW };
enum class Cache : int32_t {
  Compiled = TFE_CACHE_COMPILED,
  Derivative = TFE_CACHE_DERIVATIVE,
  Einsum = TFE_CACHE_EINSUM,
  VjpKernel = TFE_CACHE_VJP_KERNEL,
};
enum class HvpMode : int32_t {
  ForwardOverReverse = TFE_HVP_FORWARD_OVER_REVERSE,
  ReverseOverReverse = TFE_HVP_REVERSE_OVER_REVERSE,
};
enum class Transpose : int32_t {
  None = TFE_LINALG_NO_TRANS,
  Trans = TFE_LINALG_TRANS,
  ConjTrans = TFE_LINALG_CONJ_TRANS,
};
enum class Norm : int32_t {
  Fro = TFE_NORM_FRO,
  Nuc = TFE_NORM_NUC,
  One = TFE_NORM_1,
  NegOne = TFE_NORM_NEG_1,
  Two = TFE_NORM_2,
  NegTwo = TFE_NORM_NEG_2,
  Inf = TFE_NORM_INF,
  NegInf = TFE_NORM_NEG_INF,
};

// tfe_tensor_shape's value for a derived symbolic extent (an expression such as s1+1).
constexpr int64_t extent_derived = TFE_EXTENT_DERIVED;

// The C++ element type of each dtype: dtype_of_v<double> == DType::F64. Bool elements are bytes
// (bool is one byte on every supported platform).
template <class T> struct dtype_of;
template <> struct dtype_of<bool> { static constexpr DType value = DType::Bool; };
template <> struct dtype_of<int32_t> { static constexpr DType value = DType::I32; };
template <> struct dtype_of<int64_t> { static constexpr DType value = DType::I64; };
template <> struct dtype_of<float> { static constexpr DType value = DType::F32; };
template <> struct dtype_of<double> { static constexpr DType value = DType::F64; };
template <> struct dtype_of<std::complex<float>> { static constexpr DType value = DType::C32; };
template <> struct dtype_of<std::complex<double>> { static constexpr DType value = DType::C64; };
template <class T> inline constexpr DType dtype_of_v = dtype_of<T>::value;
static_assert(sizeof(bool) == 1, "tenferro Bool elements are single bytes");

inline const char* dtype_name(DType d) noexcept {
  switch (d) {
  case DType::Bool: return "Bool";
  case DType::I32: return "I32";
  case DType::I64: return "I64";
  case DType::F32: return "F32";
  case DType::F64: return "F64";
  case DType::C32: return "C32";
  case DType::C64: return "C64";
  }
  return "unknown";
}

// ---- library-wide functions --------------------------------------------------------------------

inline std::string version() { return tfe_version(); }
inline int32_t abi_version() noexcept { return tfe_abi_version(); }
inline std::string status_name(tfe_status s) { return tfe_status_name(s); }
// Live contexts and tensors in the process: a leak check for tests.
inline int64_t debug_live_objects() noexcept { return tfe_debug_live_objects(); }

// This thread's last error message, copied (tfe::Error::what() already holds it after a throw).
inline std::string last_error_message() {
  int64_t needed = 0;
  detail::check(tfe_last_error_copy(nullptr, 0, &needed));
  std::string s(static_cast<std::size_t>(needed), '\0');
  detail::check(tfe_last_error_copy(&s[0], needed, nullptr));
  s.resize(static_cast<std::size_t>(needed > 0 ? needed - 1 : 0));
  return s;
}

inline void set_num_threads(int32_t threads) { detail::check(tfe_set_num_threads(threads)); }
inline int32_t num_threads() {
  int32_t n = 0;
  detail::check(tfe_get_num_threads(&n));
  return n;
}
inline int32_t device_count() {
  int32_t n = 0;
  detail::check(tfe_device_count(&n));
  return n;
}

// Where a tensor lives: the host, or a CUDA GPU with its ordinal (tfe_tensor_device).
struct Device {
  int32_t kind = TFE_DEVICE_CPU; // TFE_DEVICE_CPU or TFE_DEVICE_CUDA
  int32_t ordinal = 0;
  static Device cpu() { return {TFE_DEVICE_CPU, 0}; }
  static Device cuda(int32_t ordinal = 0) { return {TFE_DEVICE_CUDA, ordinal}; }
  bool operator==(const Device& o) const { return kind == o.kind && ordinal == o.ordinal; }
  bool operator!=(const Device& o) const { return !(*this == o); }
};

// The core IR op table; names are "" for an index out of range.
inline int32_t op_count() noexcept { return tfe_op_count(); }
inline std::string op_name(int32_t i) {
  const char* s = tfe_op_name(i);
  return s ? s : "";
}
inline std::string op_c_name(int32_t i) {
  const char* s = tfe_op_c_name(i);
  return s ? s : "";
}

// ---- Context -----------------------------------------------------------------------------------

struct CacheStats {
  int64_t hits = 0;
  int64_t misses = 0;
  int64_t entries = 0;
  int64_t bytes = 0;
};

// A library context (eager by default). Copies share one context.
//
//   tfe::Context eager;
//   tfe::Context df = tfe::Context::dataflow(tfe::Scheduler::Threads, 0);
class Context {
public:
  Context() {
    detail::check_abi();
    detail::check(tfe_context_create(&c_));
  }
  static Context dataflow(Scheduler scheduler = Scheduler::Threads, int32_t threads = 0) {
    detail::check_abi();
    tfe_context* c = nullptr;
    detail::check(tfe_context_create_dataflow(&c, static_cast<int32_t>(scheduler), threads));
    return adopt(c);
  }
  // Takes over a reference the caller owns (e.g. one returned by a C function).
  static Context adopt(tfe_context* c) noexcept { return Context(c); }
  // Adds a reference to a handle the caller keeps.
  static Context borrow(tfe_context* c) {
    if (c) detail::check(tfe_context_retain(c));
    return Context(c);
  }

  Context(const Context& o) : c_(o.c_) {
    if (c_) detail::check(tfe_context_retain(c_));
  }
  Context(Context&& o) noexcept : c_(o.c_) { o.c_ = nullptr; }
  Context& operator=(Context o) noexcept {
    std::swap(c_, o.c_);
    return *this;
  }
  ~Context() { tfe_context_release(c_); }

  tfe_context* get() const noexcept { return c_; }
  // Gives up ownership: the caller must tfe_context_release the result.
  tfe_context* release() noexcept { return std::exchange(c_, nullptr); }
  explicit operator bool() const noexcept { return c_ != nullptr; }

  ContextMode mode() const {
    int32_t m = 0;
    detail::check(tfe_context_mode(c_, &m));
    return static_cast<ContextMode>(m);
  }
  CacheStats cache_stats(Cache cache) const {
    CacheStats s;
    detail::check(tfe_context_cache_stats(c_, static_cast<int32_t>(cache), &s.hits, &s.misses,
                                          &s.entries, &s.bytes));
    return s;
  }
  void cache_clear(Cache cache) {
    detail::check(tfe_context_cache_clear(c_, static_cast<int32_t>(cache)));
  }
  void cache_limits(Cache cache, int64_t max_entries, int64_t max_bytes) {
    detail::check(
        tfe_context_cache_limits(c_, static_cast<int32_t>(cache), max_entries, max_bytes));
  }

private:
  explicit Context(tfe_context* c) noexcept : c_(c) {}
  tfe_context* c_ = nullptr;
};

// ---- Tensor ------------------------------------------------------------------------------------

// Deletes a DLPack tensor through its own deleter. A template, so that this header needs only the
// forward declarations of interop.h: the members are looked up where the caller, who included
// dlpack.h, instantiates it.
//
//   tfe::dlpack_ptr<DLManagedTensor> p(t.to_dlpack());
struct DLPackDeleter {
  template <class M> void operator()(M* m) const {
    if (m && m->deleter) m->deleter(m);
  }
};

class Tensor;
namespace detail {
inline Tensor adopt_tensor(tfe_tensor* t) noexcept;
}

// An immutable n-dimensional array. Copies share the handle (tfe_tensor_retain); moves transfer
// it. Tensors are immutable, so sharing is never observable except through AD state (a variable's
// gradient belongs to the handle's tensor, which copies share).
class Tensor {
public:
  Tensor() noexcept {}
  static Tensor adopt(tfe_tensor* t) noexcept { return Tensor(t); }
  static Tensor borrow(tfe_tensor* t) {
    if (t) detail::check(tfe_tensor_retain(t));
    return Tensor(t);
  }

  Tensor(const Tensor& o) : t_(o.t_) {
    if (t_) detail::check(tfe_tensor_retain(t_));
  }
  Tensor(Tensor&& o) noexcept : t_(o.t_) { o.t_ = nullptr; }
  Tensor& operator=(const Tensor& o) {
    if (this != &o) {
      if (o.t_) detail::check(tfe_tensor_retain(o.t_));
      tfe_tensor_release(t_);
      t_ = o.t_;
    }
    return *this;
  }
  Tensor& operator=(Tensor&& o) noexcept {
    if (this != &o) {
      tfe_tensor_release(t_);
      t_ = std::exchange(o.t_, nullptr);
    }
    return *this;
  }
  ~Tensor() { tfe_tensor_release(t_); }

  // Handles are shared and the tensor immutable, so a const Tensor still hands out tfe_tensor*.
  tfe_tensor* get() const noexcept { return t_; }
  tfe_tensor* release() noexcept { return std::exchange(t_, nullptr); }
  explicit operator bool() const noexcept { return t_ != nullptr; }

  // ---- accessors ----
  DType dtype() const {
    int32_t d = 0;
    detail::check(tfe_tensor_dtype(t_, &d));
    return static_cast<DType>(d);
  }
  int32_t ndim() const {
    int32_t n = 0;
    detail::check(tfe_tensor_ndim(t_, &n));
    return n;
  }
  // Symbolic extents come back as -k (symbol k) or extent_derived.
  Shape shape() const {
    Shape s(static_cast<std::size_t>(ndim()));
    detail::check(tfe_tensor_shape(t_, s.data()));
    return s;
  }
  int64_t numel() const {
    int64_t n = 0;
    detail::check(tfe_tensor_numel(t_, &n));
    return n;
  }
  int64_t stride(int64_t axis) const {
    int64_t s = 0;
    detail::check(tfe_tensor_stride(t_, axis, &s));
    return s;
  }
  Shape strides() const {
    Shape s(static_cast<std::size_t>(ndim()));
    for (std::size_t i = 0; i < s.size(); ++i) s[i] = stride(static_cast<int64_t>(i));
    return s;
  }
  // Borrowed address of element (0,..,0) in the layout strides() describes; valid while this
  // tensor lives. In a dataflow context this waits for the value.
  const void* data_ptr() const {
    const void* p = nullptr;
    detail::check(tfe_tensor_data(t_, &p));
    return p;
  }
  Context context() const {
    tfe_context* c = nullptr;
    detail::check(tfe_tensor_context(&c, t_));
    return Context::adopt(c);
  }
  // Compact column-major (shares storage when already compact).
  Tensor contiguous() const {
    tfe_tensor* out = nullptr;
    detail::check(tfe_tensor_contiguous(&out, t_));
    return Tensor(out);
  }

  // ---- placement: ops run where their operands are; to() is the one transfer ----
  Device device() const {
    Device d;
    detail::check(tfe_tensor_device(t_, &d.kind, &d.ordinal));
    return d;
  }
  Tensor to(Device d) const {
    tfe_tensor* out = nullptr;
    detail::check(tfe_tensor_to_device(&out, t_, d.kind, d.ordinal));
    return Tensor(out);
  }

  // ---- typed read-back (compact column-major); T must match dtype() exactly ----
  //
  //   std::vector<double> v = t.to_vector<double>();   // tfe::Error if t is not F64
  template <class T> void copy_to(T* dst, std::size_t count) const {
    check_read<T>("copy_to");
    const int64_t n = numel();
    if (static_cast<std::size_t>(n) > count)
      throw Error(TFE_ERR_INVALID_ARGUMENT, "tfe::Tensor::copy_to: the tensor has " +
                                                std::to_string(n) + " elements, the buffer " +
                                                std::to_string(count));
    detail::check(tfe_tensor_copy_to(t_, static_cast<int32_t>(dtype_of_v<T>), dst,
                                     static_cast<int64_t>(count * sizeof(T))));
  }
  template <class T> std::vector<T> to_vector() const {
    check_read<T>("to_vector");
    std::vector<T> v(static_cast<std::size_t>(numel()));
    detail::check(tfe_tensor_to_data(t_, v.data(), static_cast<int64_t>(v.size() * sizeof(T))));
    return v;
  }
  // The single element of a one-element tensor.
  template <class T> T item() const {
    check_read<T>("item");
    const int64_t n = numel();
    if (n != 1)
      throw Error(TFE_ERR_SHAPE_MISMATCH,
                  "tfe::Tensor::item: the tensor has " + std::to_string(n) + " elements, not 1");
    T v{};
    detail::check(tfe_tensor_to_data(t_, &v, static_cast<int64_t>(sizeof(T))));
    return v;
  }

  // ---- eager AD (tenferro/ad.h) ----
  //
  //   x.set_requires_grad();  tfe::sum(x * x).backward();  x.grad();  // 2x
  Tensor& set_requires_grad(bool flag = true) {
    detail::check(tfe_tensor_set_requires_grad(t_, flag ? 1 : 0));
    return *this;
  }
  bool requires_grad() const {
    int32_t f = 0;
    detail::check(tfe_tensor_requires_grad(t_, &f));
    return f != 0;
  }
  // An empty seed is the implicit 1 (the loss must have one element).
  void backward(const Tensor& seed = Tensor()) const { detail::check(tfe_backward(t_, seed.t_)); }
  // The stored gradient; empty when there is none.
  Tensor grad() const {
    tfe_tensor* out = nullptr;
    detail::check(tfe_tensor_grad(&out, t_));
    return Tensor(out);
  }
  void clear_grad() { detail::check(tfe_tensor_clear_grad(t_)); }
  Tensor detach() const {
    tfe_tensor* out = nullptr;
    detail::check(tfe_tensor_detach(&out, t_));
    return Tensor(out);
  }

  // ---- traced programs (tenferro/program.h) ----
  bool is_symbolic() const {
    int32_t f = 0;
    detail::check(tfe_tensor_is_symbolic(t_, &f));
    return f != 0;
  }
  // NumPy-like text of the values (tfe_tensor_format), for debugging.
  std::string format() const {
    int64_t needed = 0;
    detail::check(tfe_tensor_format(t_, nullptr, 0, &needed));
    std::string s(static_cast<std::size_t>(needed), '\0');
    detail::check(tfe_tensor_format(t_, &s[0], needed, nullptr));
    s.resize(static_cast<std::size_t>(needed > 0 ? needed - 1 : 0));
    return s;
  }
  // "5", "s1", "(s1+1)".
  std::string extent_text(int64_t axis) const {
    int64_t needed = 0;
    detail::check(tfe_tensor_extent_text(t_, axis, nullptr, 0, &needed));
    std::string s(static_cast<std::size_t>(needed), '\0');
    detail::check(tfe_tensor_extent_text(t_, axis, &s[0], needed, nullptr));
    s.resize(static_cast<std::size_t>(needed > 0 ? needed - 1 : 0));
    return s;
  }

  // ---- DLPack export (tenferro/interop.h): the caller owns the result and calls its deleter
  // once (tfe::dlpack_ptr does) ----
  DLManagedTensor* to_dlpack() const {
    DLManagedTensor* out = nullptr;
    detail::check(tfe_tensor_to_dlpack(&out, t_));
    return out;
  }
  DLManagedTensorVersioned* to_dlpack_versioned() const {
    DLManagedTensorVersioned* out = nullptr;
    detail::check(tfe_tensor_to_dlpack_versioned(&out, t_));
    return out;
  }

private:
  friend Tensor detail::adopt_tensor(tfe_tensor* t) noexcept;
  explicit Tensor(tfe_tensor* t) noexcept : t_(t) {}

  template <class T> void check_read(const char* what) const {
    const DType d = dtype();
    if (d != dtype_of_v<T>)
      throw Error(TFE_ERR_DTYPE_MISMATCH, std::string("tfe::Tensor::") + what + ": the tensor is " +
                                              dtype_name(d) + ", not " + dtype_name(dtype_of_v<T>));
  }

  tfe_tensor* t_ = nullptr;
};

// std::vector<bool> packs bits, so Bool tensors read back through bytes.
template <> inline std::vector<bool> Tensor::to_vector<bool>() const {
  check_read<bool>("to_vector");
  std::vector<unsigned char> bytes(static_cast<std::size_t>(numel()));
  detail::check(tfe_tensor_to_data(t_, bytes.data(), static_cast<int64_t>(bytes.size())));
  return std::vector<bool>(bytes.begin(), bytes.end());
}

template <class M> using dlpack_ptr = std::unique_ptr<M, DLPackDeleter>;

namespace detail {

inline Tensor adopt_tensor(tfe_tensor* t) noexcept { return Tensor(t); }

// One tensor out of a C call: out is written before the status is checked, so nothing leaks.
template <class F, class... Args> inline Tensor make(F fn, Args... args) {
  tfe_tensor* out = nullptr;
  check(fn(&out, args...));
  return adopt_tensor(out);
}

inline std::vector<tfe_tensor*> handles(const std::vector<Tensor>& xs) {
  std::vector<tfe_tensor*> h(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) h[i] = xs[i].get();
  return h;
}

inline std::vector<Tensor> adopt_all(const std::vector<tfe_tensor*>& hs) {
  std::vector<Tensor> out;
  out.reserve(hs.size());
  for (tfe_tensor* h : hs) out.push_back(adopt_tensor(h));
  return out;
}

inline void check_count(const Shape& shape, std::size_t count, const char* fn) {
  const int64_t n = numel_of(shape);
  if (n >= 0 && static_cast<std::size_t>(n) != count)
    throw Error(TFE_ERR_SHAPE_MISMATCH, std::string(fn) + ": " + std::to_string(count) +
                                            " values for shape " + shape_text(shape) + " (" +
                                            std::to_string(n) + " elements)");
}

} // namespace detail

// ---- creation ----------------------------------------------------------------------------------

// A tensor copying count values of type T, compact column-major, of the given shape (count must
// equal the product of the extents).
//
//   double m[] = {1, 2, 3, 4, 5, 6};
//   tfe::Tensor a = tfe::tensor(ctx, m, 6, {2, 3});      // columns (1,2), (3,4), (5,6)
template <class T>
Tensor tensor(const Context& ctx, const T* data, std::size_t count, const Shape& shape) {
  detail::check_count(shape, count, "tfe::tensor");
  return detail::make(tfe_tensor_from_data, ctx.get(), static_cast<int32_t>(dtype_of_v<T>),
                      detail::count32(shape.size(), "dims"), shape.data(),
                      static_cast<const int64_t*>(nullptr), static_cast<const void*>(data));
}
template <class T, class Alloc>
Tensor tensor(const Context& ctx, const std::vector<T, Alloc>& values, const Shape& shape) {
  return tensor(ctx, values.data(), values.size(), shape);
}
// A template only so that a braced list of mixed types fails to compile instead of converting to
// std::vector<bool>.
template <class Alloc>
Tensor tensor(const Context& ctx, const std::vector<bool, Alloc>& values, const Shape& shape) {
  const std::vector<unsigned char> bytes(values.begin(), values.end());
  detail::check_count(shape, bytes.size(), "tfe::tensor");
  return detail::make(tfe_tensor_from_data, ctx.get(), TFE_BOOL,
                      detail::count32(shape.size(), "dims"), shape.data(),
                      static_cast<const int64_t*>(nullptr), static_cast<const void*>(bytes.data()));
}
template <class T>
Tensor tensor(const Context& ctx, std::initializer_list<T> values, const Shape& shape) {
  return tensor(ctx, values.begin(), values.size(), shape);
}
// Rank 1 of values.size() elements.
template <class T, class Alloc>
Tensor tensor(const Context& ctx, const std::vector<T, Alloc>& values) {
  return tensor(ctx, values, Shape{static_cast<int64_t>(values.size())});
}
template <class T> Tensor tensor(const Context& ctx, std::initializer_list<T> values) {
  return tensor(ctx, values.begin(), values.size(), Shape{static_cast<int64_t>(values.size())});
}
#if defined(__cpp_lib_span)
template <class T, std::size_t E>
Tensor tensor(const Context& ctx, std::span<const T, E> values, const Shape& shape) {
  return tensor(ctx, values.data(), values.size(), shape);
}
#endif
// A rank-0 tensor.
template <class T> Tensor scalar(const Context& ctx, T value) {
  return tensor(ctx, &value, 1, Shape{});
}

// Untyped copy of caller memory with explicit strides (in elements; empty: compact column-major).
// The caller vouches that data covers the layout.
inline Tensor from_data(const Context& ctx, DType dtype, const Shape& shape, const void* data,
                        const Shape& strides = {}) {
  if (!strides.empty() && strides.size() != shape.size())
    throw Error(TFE_ERR_INVALID_ARGUMENT, "tfe::from_data: " + std::to_string(strides.size()) +
                                              " strides for " + std::to_string(shape.size()) +
                                              " dims");
  return detail::make(tfe_tensor_from_data, ctx.get(), static_cast<int32_t>(dtype),
                      detail::count32(shape.size(), "dims"), shape.data(),
                      strides.empty() ? nullptr : strides.data(), data);
}

inline Tensor zeros(const Context& ctx, DType dtype, const Shape& shape) {
  return detail::make(tfe_zeros, ctx.get(), static_cast<int32_t>(dtype),
                      detail::count32(shape.size(), "dims"), shape.data());
}
inline Tensor ones(const Context& ctx, DType dtype, const Shape& shape) {
  return detail::make(tfe_ones, ctx.get(), static_cast<int32_t>(dtype),
                      detail::count32(shape.size(), "dims"), shape.data());
}
// Every element equal to value (the dtype is T's).
template <class T> Tensor full(const Context& ctx, const Shape& shape, T value) {
  return detail::make(tfe_full, ctx.get(), static_cast<int32_t>(dtype_of_v<T>),
                      detail::count32(shape.size(), "dims"), shape.data(),
                      static_cast<const void*>(&value));
}
// n x m (m < 0: n x n).
inline Tensor eye(const Context& ctx, DType dtype, int64_t n, int64_t m = -1) {
  return detail::make(tfe_eye, ctx.get(), static_cast<int32_t>(dtype), n, m < 0 ? n : m);
}
inline Tensor arange(const Context& ctx, DType dtype, double start, double stop, double step = 1) {
  return detail::make(tfe_arange, ctx.get(), static_cast<int32_t>(dtype), start, stop, step);
}
inline Tensor random_uniform(const Context& ctx, DType dtype, const Shape& shape, uint64_t seed,
                             double low = 0, double high = 1) {
  return detail::make(tfe_random_uniform, ctx.get(), static_cast<int32_t>(dtype),
                      detail::count32(shape.size(), "dims"), shape.data(), seed, low, high);
}
inline Tensor random_normal(const Context& ctx, DType dtype, const Shape& shape, uint64_t seed) {
  return detail::make(tfe_random_normal, ctx.get(), static_cast<int32_t>(dtype),
                      detail::count32(shape.size(), "dims"), shape.data(), seed);
}
// num values from start to stop (F32/F64 read the real parts).
inline Tensor linspace(const Context& ctx, DType dtype, std::complex<double> start,
                       std::complex<double> stop, int64_t num, bool endpoint = true) {
  return detail::make(tfe_linspace, ctx.get(), static_cast<int32_t>(dtype), start.real(),
                      start.imag(), stop.real(), stop.imag(), num, static_cast<int32_t>(endpoint));
}
inline Tensor logspace(const Context& ctx, DType dtype, std::complex<double> start,
                       std::complex<double> stop, int64_t num, bool endpoint = true,
                       double base = 10.0) {
  return detail::make(tfe_logspace, ctx.get(), static_cast<int32_t>(dtype), start.real(),
                      start.imag(), stop.real(), stop.imag(), num, static_cast<int32_t>(endpoint),
                      base);
}
// x's shape and context; dtype -1: x's dtype.
inline Tensor zeros_like(const Tensor& x, int32_t dtype = -1) {
  return detail::make(tfe_zeros_like, x.get(), dtype);
}
inline Tensor ones_like(const Tensor& x, int32_t dtype = -1) {
  return detail::make(tfe_ones_like, x.get(), dtype);
}
// The dtype is T's.
template <class T> Tensor full_like(const Tensor& x, T value) {
  return detail::make(tfe_full_like, x.get(), static_cast<int32_t>(dtype_of_v<T>),
                      static_cast<const void*>(&value));
}
// The index along axis at every position of shape.
inline Tensor iota(const Context& ctx, DType dtype, const Shape& shape, int64_t axis) {
  return detail::make(tfe_iota, ctx.get(), static_cast<int32_t>(dtype),
                      detail::count32(shape.size(), "dims"), shape.data(), axis);
}
// An input of a traced program: extents >= 0 or -k for symbol k.
//
//   tfe::Tensor x = tfe::symbolic(ctx, tfe::DType::F64, {-1});   // [s1]
inline Tensor symbolic(const Context& ctx, DType dtype, const Shape& shape) {
  return detail::make(tfe_tensor_symbolic, ctx.get(), static_cast<int32_t>(dtype),
                      detail::count32(shape.size(), "dims"), shape.data());
}

// ---- zero-copy interop (tenferro/interop.h) ----------------------------------------------------

// A tensor over caller memory; deleter(data, user_data) runs once when the last reference goes
// (and is not called when this throws). Strides empty: compact column-major.
inline Tensor from_buffer(const Context& ctx, DType dtype, const Shape& shape, void* data,
                          tfe_deleter deleter, void* user_data, const Shape& strides = {}) {
  if (!strides.empty() && strides.size() != shape.size())
    throw Error(TFE_ERR_INVALID_ARGUMENT, "tfe::from_buffer: " + std::to_string(strides.size()) +
                                              " strides for " + std::to_string(shape.size()) +
                                              " dims");
  return detail::make(tfe_tensor_from_buffer, ctx.get(), static_cast<int32_t>(dtype),
                      detail::count32(shape.size(), "dims"), shape.data(),
                      strides.empty() ? nullptr : strides.data(), data, deleter, user_data);
}
// Moves a vector into a tensor without copying its elements; the vector is destroyed when the
// last reference goes.
//
//   std::vector<double> v(1000, 1.0);
//   tfe::Tensor t = tfe::adopt(ctx, std::move(v), {10, 100});
template <class T> Tensor adopt(const Context& ctx, std::vector<T>&& values, const Shape& shape) {
  detail::check_count(shape, values.size(), "tfe::adopt");
  auto* owner = new std::vector<T>(std::move(values));
  tfe_deleter del = [](void*, void* user) { delete static_cast<std::vector<T>*>(user); };
  tfe_tensor* out = nullptr;
  const tfe_status s = tfe_tensor_from_buffer(
      &out, ctx.get(), static_cast<int32_t>(dtype_of_v<T>), detail::count32(shape.size(), "dims"),
      shape.data(), nullptr, static_cast<void*>(owner->data()), del, owner);
  if (s != TFE_OK) {
    // Ownership was not taken; read the message before the destructor can run any library code.
    Error e(s, tfe_last_error_message());
    delete owner;
    throw e;
  }
  return detail::adopt_tensor(out);
}
// Imports a DLPack tensor; on success the tensor owns src (on failure the caller still does).
inline Tensor from_dlpack(const Context& ctx, DLManagedTensor* src) {
  return detail::make(tfe_tensor_from_dlpack, ctx.get(), src);
}
inline Tensor from_dlpack_versioned(const Context& ctx, DLManagedTensorVersioned* src) {
  return detail::make(tfe_tensor_from_dlpack_versioned, ctx.get(), src);
}

// ---- elementwise ops (tenferro/ops_elementwise.h, ops_arith.h, ops_math.h): left-aligned
// broadcasting, promotion ----

// True division (integers become F64).
inline Tensor div(const Tensor& a, const Tensor& b) {
  return detail::make(tfe_div, a.get(), b.get());
}
// Integer division truncating toward zero.
inline Tensor div_trunc(const Tensor& a, const Tensor& b) {
  return detail::make(tfe_div_trunc, a.get(), b.get());
}
// Bool result.
inline Tensor compare(const Tensor& a, const Tensor& b, Cmp direction) {
  return detail::make(tfe_compare, a.get(), b.get(), static_cast<int32_t>(direction));
}
inline Tensor select(const Tensor& pred, const Tensor& on_true, const Tensor& on_false) {
  return detail::make(tfe_select, pred.get(), on_true.get(), on_false.get());
}
inline Tensor clamp(const Tensor& x, const Tensor& lo, const Tensor& hi) {
  return detail::make(tfe_clamp, x.get(), lo.get(), hi.get());
}
} // namespace tfe

// add, neg, and_, real, ... and exp, sin, atan2, ...: generated from the op registry.
#include "tenferro/ops_arith.hpp" // IWYU pragma: export
#include "tenferro/ops_math.hpp"  // IWYU pragma: export

namespace tfe {

// Host scalars (bool, integers, floating point, std::complex) are weak operands, as Python's are
// in NumPy 2: the scalar's kind decides and the tensor's precision wins within it
// (tfe_weak_scalar), so `x_f32 * 2.0` stays F32, `x_i32 + 1` stays I32 and `x_i32 * 0.5` is F64.
namespace detail {
template <class T> struct is_host_scalar : std::is_arithmetic<T> {};
template <class T>
struct is_host_scalar<std::complex<T>>
    : std::bool_constant<std::is_same_v<T, float> || std::is_same_v<T, double>> {};
// Host scalar parameters (C++17: no concepts).
template <class T> using if_host_scalar = std::enable_if_t<is_host_scalar<T>::value, int>;

// The (kind, int_value, re, im) arguments of tfe_weak_scalar / tfe_binary_scalar for v.
struct ScalarArgs {
  int32_t kind;
  int64_t int_value;
  double re, im;
};
template <class T, if_host_scalar<T> = 0> ScalarArgs scalar_args(T v) {
  if constexpr (std::is_same_v<T, bool>)
    return {TFE_SCALAR_BOOL, v ? 1 : 0, 0.0, 0.0};
  else if constexpr (std::is_integral_v<T>) {
    if constexpr (std::is_unsigned_v<T> && sizeof(T) >= sizeof(int64_t))
      if (v > static_cast<T>(INT64_MAX))
        throw Error(TFE_ERR_INVALID_ARGUMENT, "tfe: integer scalar does not fit int64");
    return {TFE_SCALAR_INT, static_cast<int64_t>(v), 0.0, 0.0};
  } else if constexpr (std::is_floating_point_v<T>)
    return {TFE_SCALAR_FLOAT, 0, static_cast<double>(v), 0.0};
  else
    return {TFE_SCALAR_COMPLEX, 0, static_cast<double>(v.real()), static_cast<double>(v.imag())};
}
template <class T, if_host_scalar<T> = 0>
Tensor binary_scalar(int32_t op, const Tensor& x, T v, bool scalar_first) {
  const ScalarArgs a = scalar_args(v);
  return make(tfe_binary_scalar, op, x.get(), a.kind, a.int_value, a.re, a.im,
              int32_t{scalar_first});
}
} // namespace detail

// A rank-0 tensor holding v as a weak operand beside x (in x's context).
template <class T, detail::if_host_scalar<T> = 0> Tensor scalar_like(const Tensor& x, T v) {
  const detail::ScalarArgs a = detail::scalar_args(v);
  return detail::make(tfe_weak_scalar, x.context().get(), static_cast<int32_t>(x.dtype()), a.kind,
                      a.int_value, a.re, a.im);
}

inline Tensor operator+(const Tensor& a, const Tensor& b) { return add(a, b); }
inline Tensor operator-(const Tensor& a, const Tensor& b) { return sub(a, b); }
inline Tensor operator*(const Tensor& a, const Tensor& b) { return mul(a, b); }
inline Tensor operator/(const Tensor& a, const Tensor& b) { return div(a, b); }
inline Tensor operator-(const Tensor& x) { return neg(x); }
inline Tensor operator&(const Tensor& a, const Tensor& b) { return and_(a, b); }
inline Tensor operator|(const Tensor& a, const Tensor& b) { return or_(a, b); }
inline Tensor operator^(const Tensor& a, const Tensor& b) { return xor_(a, b); }
inline Tensor operator~(const Tensor& x) { return not_(x); }
#define TFE_CXX_SCALAR_OPERATOR(sym, code)                                                         \
  template <class T, detail::if_host_scalar<T> = 0> Tensor operator sym(const Tensor& a, T b) {    \
    return detail::binary_scalar(code, a, b, false);                                               \
  }                                                                                                \
  template <class T, detail::if_host_scalar<T> = 0> Tensor operator sym(T a, const Tensor& b) {    \
    return detail::binary_scalar(code, b, a, true);                                                \
  }
TFE_CXX_SCALAR_OPERATOR(+, TFE_BINOP_ADD)
TFE_CXX_SCALAR_OPERATOR(-, TFE_BINOP_SUB)
TFE_CXX_SCALAR_OPERATOR(*, TFE_BINOP_MUL)
TFE_CXX_SCALAR_OPERATOR(/, TFE_BINOP_DIV)
#undef TFE_CXX_SCALAR_OPERATOR

// ---- contraction, reductions, structure (tenferro/ops_shape.h) ---------------------------------

// [M,K,B..] x [K,N,B..] -> [M,N,B..].
inline Tensor matmul(const Tensor& a, const Tensor& b) {
  return detail::make(tfe_matmul, a.get(), b.get());
}
// Output dims: lhs free, rhs free, then batch (lhs order). Paired lists must have equal lengths.
inline Tensor dot_general(const Tensor& lhs, const Tensor& rhs, const Axes& lhs_contracting,
                          const Axes& rhs_contracting, const Axes& lhs_batch = {},
                          const Axes& rhs_batch = {}) {
  if (lhs_contracting.size() != rhs_contracting.size() || lhs_batch.size() != rhs_batch.size())
    throw Error(TFE_ERR_INVALID_ARGUMENT,
                "tfe::dot_general: lhs and rhs list different numbers of contracting or batch "
                "dims");
  return detail::make(tfe_dot_general, lhs.get(), rhs.get(),
                      detail::count32(lhs_contracting.size(), "axes"), lhs_contracting.data(),
                      rhs_contracting.data(), detail::count32(lhs_batch.size(), "axes"),
                      lhs_batch.data(), rhs_batch.data());
}

// Reductions: axes empty means every axis (a rank-0 result).
inline Tensor sum(const Tensor& x, const Axes& axes = {}) {
  return detail::make(tfe_sum, x.get(), detail::count32(axes.size(), "axes"), axes.data());
}
inline Tensor prod(const Tensor& x, const Axes& axes = {}) {
  return detail::make(tfe_prod, x.get(), detail::count32(axes.size(), "axes"), axes.data());
}
inline Tensor mean(const Tensor& x, const Axes& axes = {}) {
  return detail::make(tfe_mean, x.get(), detail::count32(axes.size(), "axes"), axes.data());
}
// The IR reductions keep the dtype (no widening).
inline Tensor reduce_sum(const Tensor& x, const Axes& axes = {}) {
  return detail::make(tfe_reduce_sum, x.get(), detail::count32(axes.size(), "axes"), axes.data());
}
inline Tensor reduce_prod(const Tensor& x, const Axes& axes = {}) {
  return detail::make(tfe_reduce_prod, x.get(), detail::count32(axes.size(), "axes"), axes.data());
}
inline Tensor reduce_max(const Tensor& x, const Axes& axes = {}) {
  return detail::make(tfe_reduce_max, x.get(), detail::count32(axes.size(), "axes"), axes.data());
}
inline Tensor reduce_min(const Tensor& x, const Axes& axes = {}) {
  return detail::make(tfe_reduce_min, x.get(), detail::count32(axes.size(), "axes"), axes.data());
}

// Lossless conversion only (else TFE_ERR_DTYPE_MISMATCH); cast is the lossy IR Convert.
inline Tensor convert(const Tensor& x, DType dtype) {
  return detail::make(tfe_convert, x.get(), static_cast<int32_t>(dtype));
}
inline Tensor cast(const Tensor& x, DType dtype) {
  return detail::make(tfe_cast, x.get(), static_cast<int32_t>(dtype));
}
// Output dim i is input dim perm[i] (a view).
inline Tensor transpose(const Tensor& x, const Axes& perm) {
  return detail::make(tfe_transpose, x.get(), detail::count32(perm.size(), "axes"), perm.data());
}
inline Tensor reshape(const Tensor& x, const Shape& shape) {
  return detail::make(tfe_reshape, x.get(), detail::count32(shape.size(), "dims"), shape.data());
}
inline Tensor broadcast_in_dim(const Tensor& x, const Shape& shape, const Axes& dims) {
  return detail::make(tfe_broadcast_in_dim, x.get(), detail::count32(shape.size(), "dims"),
                      shape.data(), detail::count32(dims.size(), "axes"), dims.data());
}
inline Tensor broadcast_to(const Tensor& x, const Shape& shape) {
  return detail::make(tfe_broadcast_to, x.get(), detail::count32(shape.size(), "dims"),
                      shape.data());
}
inline Tensor reverse(const Tensor& x, const Axes& axes) {
  return detail::make(tfe_reverse, x.get(), detail::count32(axes.size(), "axes"), axes.data());
}
inline Tensor extract_diag(const Tensor& x, int64_t axis_a = 0, int64_t axis_b = 1) {
  return detail::make(tfe_extract_diag, x.get(), axis_a, axis_b);
}
inline Tensor embed_diag(const Tensor& x, int64_t axis_a = 0, int64_t axis_b = 1) {
  return detail::make(tfe_embed_diag, x.get(), axis_a, axis_b);
}
inline Tensor tril(const Tensor& x, int64_t k = 0) { return detail::make(tfe_tril, x.get(), k); }
inline Tensor triu(const Tensor& x, int64_t k = 0) { return detail::make(tfe_triu, x.get(), k); }

// starts <= i < limits with steps (empty: 1), one entry per dim.
inline Tensor slice(const Tensor& x, const Shape& starts, const Shape& limits,
                    const Shape& steps = {}) {
  if (limits.size() != starts.size() || (!steps.empty() && steps.size() != starts.size()))
    throw Error(TFE_ERR_INVALID_ARGUMENT,
                "tfe::slice: starts, limits and steps need one entry per dim");
  return detail::make(tfe_slice, x.get(), detail::count32(starts.size(), "dims"), starts.data(),
                      limits.data(), steps.empty() ? nullptr : steps.data());
}
inline Tensor dynamic_slice(const Tensor& x, const Tensor& starts, const Shape& sizes) {
  return detail::make(tfe_dynamic_slice, x.get(), starts.get(),
                      detail::count32(sizes.size(), "dims"), sizes.data());
}
inline Tensor dynamic_update_slice(const Tensor& x, const Tensor& update, const Tensor& starts) {
  return detail::make(tfe_dynamic_update_slice, x.get(), update.get(), starts.get());
}
inline Tensor gather(const Tensor& x, const Tensor& indices, int64_t axis) {
  return detail::make(tfe_gather, x.get(), indices.get(), axis);
}
inline Tensor scatter(const Tensor& x, const Tensor& indices, const Tensor& updates, int64_t axis) {
  return detail::make(tfe_scatter, x.get(), indices.get(), updates.get(), axis);
}
// low/high per dim (negative crops), interior zeros between elements (empty: none).
inline Tensor pad(const Tensor& x, const Shape& low, const Shape& high,
                  const Shape& interior = {}) {
  if (high.size() != low.size() || (!interior.empty() && interior.size() != low.size()))
    throw Error(TFE_ERR_INVALID_ARGUMENT,
                "tfe::pad: low, high and interior need one entry per dim");
  return detail::make(tfe_pad, x.get(), detail::count32(low.size(), "dims"), low.data(),
                      high.data(), interior.empty() ? nullptr : interior.data());
}
inline Tensor concatenate(const std::vector<Tensor>& xs, int64_t axis) {
  const std::vector<tfe_tensor*> h = detail::handles(xs);
  return detail::make(tfe_concatenate, detail::count32(h.size(), "tensors"), h.data(), axis);
}
inline Tensor stack(const std::vector<Tensor>& xs, int64_t axis) {
  const std::vector<tfe_tensor*> h = detail::handles(xs);
  return detail::make(tfe_stack, detail::count32(h.size(), "tensors"), h.data(), axis);
}

// NumPy's shape helpers; axes are tensor dims (dim 0 fastest), negative ones count from the end.
// axes empty: every extent-1 axis.
inline Tensor squeeze(const Tensor& x, const Axes& axes = {}) {
  return detail::make(tfe_squeeze, x.get(), detail::count32(axes.size(), "axes"), axes.data());
}
inline Tensor expand_dims(const Tensor& x, const Axes& axes) {
  return detail::make(tfe_expand_dims, x.get(), detail::count32(axes.size(), "axes"), axes.data());
}
inline Tensor moveaxis(const Tensor& x, const Axes& source, const Axes& destination) {
  if (source.size() != destination.size())
    throw Error(TFE_ERR_INVALID_ARGUMENT,
                "tfe::moveaxis: source and destination need the same number of axes");
  return detail::make(tfe_moveaxis, x.get(), detail::count32(source.size(), "axes"), source.data(),
                      destination.data());
}
inline Tensor swapaxes(const Tensor& x, int64_t axis1, int64_t axis2) {
  return detail::make(tfe_swapaxes, x.get(), axis1, axis2);
}
// Column-major (the storage order).
inline Tensor flatten(const Tensor& x) { return detail::make(tfe_flatten, x.get()); }
// sections equal pieces (indices empty) or the pieces between the split points indices.
inline std::vector<Tensor> split(const Tensor& x, int64_t sections, const Axes& indices,
                                 int64_t axis) {
  const std::size_t n =
      indices.empty() ? static_cast<std::size_t>(sections < 1 ? 1 : sections) : indices.size() + 1;
  std::vector<tfe_tensor*> raw(n, nullptr);
  detail::check(tfe_split(raw.data(), detail::count32(n, "pieces"), x.get(),
                          detail::count32(indices.size(), "indices"), indices.data(), axis));
  std::vector<Tensor> out;
  out.reserve(n);
  for (tfe_tensor* t : raw) out.push_back(Tensor::adopt(t));
  return out;
}
inline Tensor tile(const Tensor& x, const Shape& reps) {
  return detail::make(tfe_tile, x.get(), detail::count32(reps.size(), "reps"), reps.data());
}
// One count for every element, or one per element along axis.
inline Tensor repeat(const Tensor& x, const Shape& repeats, int64_t axis) {
  return detail::make(tfe_repeat, x.get(), detail::count32(repeats.size(), "repeats"),
                      repeats.data(), axis);
}
// axes empty: one shift over the column-major flattening.
inline Tensor roll(const Tensor& x, const Shape& shifts, const Axes& axes = {}) {
  return detail::make(tfe_roll, x.get(), detail::count32(shifts.size(), "shifts"), shifts.data(),
                      detail::count32(axes.size(), "axes"), axes.data());
}
// The diagonal as dim 0 of the result, the other dims after it.
inline Tensor diagonal(const Tensor& x, int64_t offset = 0, int64_t axis1 = 0, int64_t axis2 = 1) {
  return detail::make(tfe_diagonal, x.get(), offset, axis1, axis2);
}
inline Tensor diag(const Tensor& x, int64_t k = 0) { return detail::make(tfe_diag, x.get(), k); }

// ---- einsum (tenferro/einsum.h)
// ------------------------------------------------------------------

// NumPy's einsum grammar; tfe::einsum("ij,jk->ik", {a, b}). Ellipsis dims align left, as the
// library's broadcasting does.
inline Tensor einsum(const char* subscripts, const std::vector<Tensor>& xs) {
  const std::vector<tfe_tensor*> h = detail::handles(xs);
  return detail::make(tfe_einsum, subscripts, detail::count32(h.size(), "operands"), h.data());
}

// The pairwise order einsum contracts in (numpy.einsum_path's convention) and its cost.
struct EinsumPath {
  std::vector<std::pair<int64_t, int64_t>> steps;
  double flops = 0;
  double largest = 0;   // elements of the largest intermediate
  bool optimal = false; // the proven optimum (exhaustive search), else greedy
};
inline EinsumPath einsum_path(const char* subscripts, const std::vector<Tensor>& xs) {
  const std::vector<tfe_tensor*> h = detail::handles(xs);
  const int32_t n = detail::count32(h.size(), "operands");
  std::vector<int64_t> pairs(2 * (h.empty() ? 0 : h.size() - 1));
  int32_t steps = 0, optimal = 0;
  EinsumPath p;
  detail::check(tfe_einsum_path(subscripts, n, h.data(), pairs.data(),
                                static_cast<int64_t>(pairs.size() * sizeof(int64_t)), &steps,
                                &p.flops, &p.largest, &optimal));
  for (int32_t i = 0; i < steps; ++i)
    p.steps.emplace_back(pairs[static_cast<size_t>(2 * i)], pairs[static_cast<size_t>(2 * i + 1)]);
  p.optimal = optimal != 0;
  return p;
}

// numpy.tensordot over the dim pairs (axes_a[k], axes_b[k]); a's other dims, then b's.
inline Tensor tensordot(const Tensor& a, const Tensor& b, const Axes& axes_a, const Axes& axes_b) {
  if (axes_a.size() != axes_b.size())
    throw Error(TFE_ERR_INVALID_ARGUMENT, "tensordot: axes_a and axes_b differ in length (" +
                                              std::to_string(axes_a.size()) + " and " +
                                              std::to_string(axes_b.size()) + ")");
  return detail::make(tfe_tensordot, a.get(), b.get(), detail::count32(axes_a.size(), "axes"),
                      axes_a.data(), axes_b.data());
}
// The outer (tensor) product: a's dims, then b's.
inline Tensor outer(const Tensor& a, const Tensor& b) {
  return detail::make(tfe_outer, a.get(), b.get());
}
// The Kronecker product; a lower rank is padded with trailing extents of 1.
inline Tensor kron(const Tensor& a, const Tensor& b) {
  return detail::make(tfe_kron, a.get(), b.get());
}
// The matrix trace of dims (0, 1), offset above (below when negative); the batch dims remain.
inline Tensor trace(const Tensor& x, int64_t offset = 0) {
  return detail::make(tfe_trace, x.get(), offset);
}

// ---- running sums and products, sorting (tenferro/ops_order.h) --------------------------------

// Inclusive running sum along axis (Bool and I32 accumulate in I64).
inline Tensor cumsum(const Tensor& x, int64_t axis) {
  return detail::make(tfe_cumsum, x.get(), axis);
}
// Inclusive running product along axis (Bool and I32 accumulate in I64).
inline Tensor cumprod(const Tensor& x, int64_t axis) {
  return detail::make(tfe_cumprod, x.get(), axis);
}
// The stable sorting permutation along axis (I64), NaN last.
inline Tensor argsort(const Tensor& x, int64_t axis, bool descending = false) {
  return detail::make(tfe_argsort, x.get(), axis, int32_t{descending});
}
// x sorted along axis (stable, NaN last); differentiable.
inline Tensor sort(const Tensor& x, int64_t axis, bool descending = false) {
  return detail::make(tfe_sort, x.get(), axis, int32_t{descending});
}
struct TopkResult {
  Tensor values, indices; // indices are I64
};
// The k largest (or smallest) elements along axis, in order, and their positions.
inline TopkResult topk(const Tensor& x, int64_t k, int64_t axis, bool largest = true) {
  tfe_tensor *v = nullptr, *i = nullptr;
  detail::check(tfe_topk(&v, &i, x.get(), k, axis, int32_t{largest}));
  return TopkResult{detail::adopt_tensor(v), detail::adopt_tensor(i)};
}
// Position (I64) of the first maximum along axis (dropped); NaN counts as the maximum.
inline Tensor argmax(const Tensor& x, int64_t axis) {
  return detail::make(tfe_argmax, x.get(), axis);
}
// Position (I64) of the first minimum along axis (dropped); NaN counts as the minimum.
inline Tensor argmin(const Tensor& x, int64_t axis) {
  return detail::make(tfe_argmin, x.get(), axis);
}

// ---- numerically careful functions, predicates, reductions (tenferro/ops_numeric.h) -----------

// log(e^a + e^b) without overflow (real floats).
inline Tensor logaddexp(const Tensor& a, const Tensor& b) {
  return detail::make(tfe_logaddexp, a.get(), b.get());
}
// sqrt(a^2 + b^2) without overflow or underflow (real floats).
inline Tensor hypot(const Tensor& a, const Tensor& b) {
  return detail::make(tfe_hypot, a.get(), b.get());
}
// 1 / (1 + e^-x), accurate in both tails.
inline Tensor sigmoid(const Tensor& x) { return detail::make(tfe_sigmoid, x.get()); }
// x * x, dtype kept.
inline Tensor square(const Tensor& x) { return detail::make(tfe_square, x.get()); }
// 1 / x (Bool and integers in F64).
inline Tensor reciprocal(const Tensor& x) { return detail::make(tfe_reciprocal, x.get()); }
// The argument in (-pi, pi] (0 or pi for real z), in degrees when deg.
inline Tensor angle(const Tensor& z, bool deg = false) {
  return detail::make(tfe_angle, z.get(), int32_t{deg});
}
// |a| with the sign of b (real floats).
inline Tensor copysign(const Tensor& a, const Tensor& b) {
  return detail::make(tfe_copysign, a.get(), b.get());
}
// Bool predicates (either part for complex).
inline Tensor isnan(const Tensor& x) { return detail::make(tfe_isnan, x.get()); }
inline Tensor isinf(const Tensor& x) { return detail::make(tfe_isinf, x.get()); }
inline Tensor isfinite(const Tensor& x) { return detail::make(tfe_isfinite, x.get()); }
// NaN, +inf and -inf replaced; NaN for posinf/neginf selects the dtype's largest finite value.
inline Tensor nan_to_num(const Tensor& x, double nan = 0.0,
                         double posinf = std::numeric_limits<double>::quiet_NaN(),
                         double neginf = std::numeric_limits<double>::quiet_NaN()) {
  return detail::make(tfe_nan_to_num, x.get(), nan, posinf, neginf);
}
// NumPy's |a - b| <= atol + rtol |b| (Bool); allclose gives a rank-0 Bool.
inline Tensor isclose(const Tensor& a, const Tensor& b, double rtol = 1e-5, double atol = 1e-8,
                      bool equal_nan = false) {
  return detail::make(tfe_isclose, a.get(), b.get(), rtol, atol, int32_t{equal_nan});
}
inline Tensor allclose(const Tensor& a, const Tensor& b, double rtol = 1e-5, double atol = 1e-8,
                       bool equal_nan = false) {
  return detail::make(tfe_allclose, a.get(), b.get(), rtol, atol, int32_t{equal_nan});
}
// Bool reductions; axes empty means every axis.
inline Tensor any(const Tensor& x, const Axes& axes = {}, bool keepdims = false) {
  return detail::make(tfe_any, x.get(), detail::count32(axes.size(), "axes"), axes.data(),
                      int32_t{keepdims});
}
inline Tensor all(const Tensor& x, const Axes& axes = {}, bool keepdims = false) {
  return detail::make(tfe_all, x.get(), detail::count32(axes.size(), "axes"), axes.data(),
                      int32_t{keepdims});
}
// Variance and standard deviation (tfe_std; a C++ function cannot be named std) with n - ddof in
// the denominator; real for complex x.
inline Tensor var(const Tensor& x, const Axes& axes = {}, double ddof = 0, bool keepdims = false) {
  return detail::make(tfe_var, x.get(), detail::count32(axes.size(), "axes"), axes.data(), ddof,
                      int32_t{keepdims});
}
inline Tensor stddev(const Tensor& x, const Axes& axes = {}, double ddof = 0,
                     bool keepdims = false) {
  return detail::make(tfe_std, x.get(), detail::count32(axes.size(), "axes"), axes.data(), ddof,
                      int32_t{keepdims});
}
// log(sum(e^x)) over axes without overflow (real floats).
inline Tensor logsumexp(const Tensor& x, const Axes& axes = {}, bool keepdims = false) {
  return detail::make(tfe_logsumexp, x.get(), detail::count32(axes.size(), "axes"), axes.data(),
                      int32_t{keepdims});
}

// ---- eager AD: functional forms and scopes (tenferro/ad.h) -------------------------------------

// d(seed . y)/d(xs[i]) for each i; an entry is empty when y does not depend on xs[i]. Stored
// gradients are left alone; results are recorded again (jvp of a vjp is a Hessian-vector product).
//
//   auto g = tfe::vjp(loss, {x})[0];
inline std::vector<Tensor> vjp(const Tensor& y, const std::vector<Tensor>& xs,
                               const Tensor& seed = Tensor()) {
  const std::vector<tfe_tensor*> h = detail::handles(xs);
  std::vector<tfe_tensor*> out(h.size(), nullptr);
  detail::check(
      tfe_vjp(out.data(), y.get(), detail::count32(h.size(), "tensors"), h.data(), seed.get()));
  return detail::adopt_all(out);
}
// The derivative of y along tangents[i] for xs[i] (an empty tangent is zero); empty when y depends
// on none of xs.
// Graphviz DOT text of the eager trace below the tracked tensor y (tfe_autograd_to_dot).
inline std::string autograd_to_dot(const Tensor& y) {
  int64_t needed = 0;
  detail::check(tfe_autograd_to_dot(y.get(), nullptr, 0, &needed));
  std::string s(static_cast<std::size_t>(needed), '\0');
  detail::check(tfe_autograd_to_dot(y.get(), &s[0], needed, nullptr));
  s.resize(static_cast<std::size_t>(needed > 0 ? needed - 1 : 0));
  return s;
}

inline Tensor jvp(const Tensor& y, const std::vector<Tensor>& xs,
                  const std::vector<Tensor>& tangents) {
  if (tangents.size() != xs.size())
    throw Error(TFE_ERR_INVALID_ARGUMENT, "tfe::jvp: " + std::to_string(tangents.size()) +
                                              " tangents for " + std::to_string(xs.size()) +
                                              " inputs");
  const std::vector<tfe_tensor*> h = detail::handles(xs);
  const std::vector<tfe_tensor*> t = detail::handles(tangents);
  return detail::make(tfe_jvp, y.get(), detail::count32(h.size(), "tensors"),
                      static_cast<tfe_tensor* const*>(h.data()),
                      static_cast<tfe_tensor* const*>(t.data()));
}

// Records nothing on this thread for ctx while it lives (dataflow: operands enter untracked).
//
//   { tfe::NoGrad guard(ctx); y = x * 2.0; }   // y is untracked
class NoGrad {
public:
  explicit NoGrad(const Context& ctx) : ctx_(ctx) { detail::check(tfe_no_grad_enter(ctx_.get())); }
  NoGrad(const NoGrad&) = delete;
  NoGrad& operator=(const NoGrad&) = delete;
  // The enter/exit pair is per thread, so the exit matches by construction.
  ~NoGrad() { detail::ignore_status(tfe_no_grad_exit(ctx_.get())); }

private:
  Context ctx_;
};

// Records every op on this thread for ctx while it lives; untracked operands become captured
// leaves that vjp and jvp can differentiate with respect to.
class CaptureTrace {
public:
  explicit CaptureTrace(const Context& ctx) : ctx_(ctx) {
    detail::check(tfe_capture_trace_enter(ctx_.get()));
  }
  CaptureTrace(const CaptureTrace&) = delete;
  CaptureTrace& operator=(const CaptureTrace&) = delete;
  ~CaptureTrace() { detail::ignore_status(tfe_capture_trace_exit(ctx_.get())); }

private:
  Context ctx_;
};

// Creation with ctx on this thread (zeros, ones, full, eye, arange, linspace, random, from data)
// makes its tensors on d while it lives; scopes nest. Ops run where their operands are.
//
//   { tfe::DeviceScope on(ctx, tfe::Device::cuda()); auto z = tfe::zeros(ctx, ...); }
class DeviceScope {
public:
  DeviceScope(const Context& ctx, Device d) : ctx_(ctx) {
    detail::check(tfe_device_scope_enter(ctx_.get(), d.kind, d.ordinal));
  }
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;
  ~DeviceScope() { detail::ignore_status(tfe_device_scope_exit(ctx_.get())); }

private:
  Context ctx_;
};

// ---- traced programs (tenferro/program.h) ------------------------------------------------------

// A function from symbolic inputs to outputs traced from them, compiled per argument shapes.
//
//   tfe::Tensor x = tfe::symbolic(ctx, tfe::DType::F64, {-1});
//   tfe::Function f({x}, {tfe::sum(x * tfe::sin(x))});
//   tfe::Tensor y = f.call1({tfe::tensor(ctx, {1.0, 2.0})});
//   tfe::Function g = f.grad();           // x -> sin x + x cos x
class Function {
public:
  Function(const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs) {
    const std::vector<tfe_tensor*> in = detail::handles(inputs);
    const std::vector<tfe_tensor*> out = detail::handles(outputs);
    detail::check(tfe_function_create(&f_, detail::count32(in.size(), "inputs"), in.data(),
                                      detail::count32(out.size(), "outputs"), out.data()));
  }
  static Function adopt(tfe_function* f) noexcept { return Function(f); }
  static Function borrow(tfe_function* f) {
    if (f) detail::check(tfe_function_retain(f));
    return Function(f);
  }
  Function(const Function& o) : f_(o.f_) {
    if (f_) detail::check(tfe_function_retain(f_));
  }
  Function(Function&& o) noexcept : f_(o.f_) { o.f_ = nullptr; }
  Function& operator=(Function o) noexcept {
    std::swap(f_, o.f_);
    return *this;
  }
  ~Function() { tfe_function_release(f_); }

  tfe_function* get() const noexcept { return f_; }
  tfe_function* release() noexcept { return std::exchange(f_, nullptr); }

  // Graphviz DOT text of the program (tfe_function_to_dot).
  std::string to_dot() const {
    int64_t needed = 0;
    detail::check(tfe_function_to_dot(f_, nullptr, 0, &needed));
    std::string s(static_cast<std::size_t>(needed), '\0');
    detail::check(tfe_function_to_dot(f_, &s[0], needed, nullptr));
    s.resize(static_cast<std::size_t>(needed > 0 ? needed - 1 : 0));
    return s;
  }

  int32_t num_inputs() const {
    int32_t n = 0;
    detail::check(tfe_function_num_inputs(f_, &n));
    return n;
  }
  int32_t num_outputs() const {
    int32_t n = 0;
    detail::check(tfe_function_num_outputs(f_, &n));
    return n;
  }

  std::vector<Tensor> call(const std::vector<Tensor>& args) const {
    const std::vector<tfe_tensor*> h = detail::handles(args);
    tfe_results* r = nullptr;
    detail::check(tfe_function_call(&r, f_, detail::count32(h.size(), "arguments"), h.data()));
    const Results owner(r);
    int32_t n = 0;
    detail::check(tfe_results_count(r, &n));
    std::vector<Tensor> out;
    out.reserve(static_cast<std::size_t>(n));
    for (int32_t i = 0; i < n; ++i) out.push_back(detail::make(tfe_results_get, r, i));
    return out;
  }
  std::vector<Tensor> operator()(const std::vector<Tensor>& args) const { return call(args); }
  // For a function with one output.
  Tensor call1(const std::vector<Tensor>& args) const {
    const std::vector<tfe_tensor*> h = detail::handles(args);
    return detail::make(tfe_function_call1, static_cast<const tfe_function*>(f_),
                        detail::count32(h.size(), "arguments"),
                        static_cast<tfe_tensor* const*>(h.data()));
  }

  // Transforms (wrt empty: every input); each returns a new Function, transformable again.
  // jvp: (inputs, tangents per wrt input) -> (outputs, tangents per output).
  Function jvp(const Axes& wrt = {}) const { return transform(tfe_function_jvp, wrt); }
  // vjp: (inputs, cotangents per output) -> (outputs, gradients per wrt input).
  Function vjp(const Axes& wrt = {}) const { return transform(tfe_function_vjp, wrt); }
  // grad of a one-element output: inputs -> gradients per wrt input.
  Function grad(const Axes& wrt = {}) const { return transform(tfe_function_grad, wrt); }
  // (inputs, directions per wrt input) -> H v per wrt input.
  Function hvp(const Axes& wrt = {}, HvpMode mode = HvpMode::ForwardOverReverse) const {
    tfe_function* out = nullptr;
    detail::check(tfe_function_hvp(&out, f_, detail::count32(wrt.size(), "indices"), wrt.data(),
                                   static_cast<int32_t>(mode)));
    return Function(out);
  }
  // Output i is structurally zero (nothing flows into that gradient or tangent).
  bool output_is_zero(int32_t i) const {
    int32_t z = 0;
    detail::check(tfe_function_output_is_zero(f_, i, &z));
    return z != 0;
  }

private:
  explicit Function(tfe_function* f) noexcept : f_(f) {}
  struct Results {
    explicit Results(tfe_results* results) noexcept : r(results) {}
    tfe_results* r;
    Results(const Results&) = delete;
    Results& operator=(const Results&) = delete;
    ~Results() { tfe_results_release(r); }
  };
  template <class F> Function transform(F fn, const Axes& wrt) const {
    tfe_function* out = nullptr;
    detail::check(fn(&out, f_, detail::count32(wrt.size(), "indices"), wrt.data()));
    return Function(out);
  }
  tfe_function* f_ = nullptr;
};

// ---- linear algebra (tenferro/linalg.h) --------------------------------------------------------

// Options of the *_ex functions, as a value: only what was set reaches the library.
//
//   auto [w, v] = tfe::eigh(a, tfe::LinalgOptions().upper().derivative_eps(1e-12));
class LinalgOptions {
public:
  LinalgOptions& upper(bool v = true) { return set(upper_, v); }
  LinalgOptions& left(bool v = true) { return set(left_, v); }
  LinalgOptions& unit_diagonal(bool v = true) { return set(unit_diagonal_, v); }
  LinalgOptions& transpose(Transpose v) { return set(transpose_, v); }
  LinalgOptions& full_matrices(bool v = true) { return set(full_matrices_, v); }
  LinalgOptions& positive_diagonal(bool v = true) { return set(positive_diagonal_, v); }
  LinalgOptions& derivative_eps(double v) { return set(derivative_eps_, v); }
  LinalgOptions& rtol(double v) { return set(rtol_, v); }
  LinalgOptions& hermitian(bool v = true) { return set(hermitian_, v); }
  // svd_truncated: at most max_rank triplets (-1: no limit), and s > max(atol, rtol * s_max).
  LinalgOptions& max_rank(int64_t v) { return set(max_rank_, v); }
  LinalgOptions& cutoff(double rtol, double atol = 0) {
    set(cutoff_rtol_, rtol);
    return set(cutoff_atol_, atol);
  }

  // The C options for one call; NULL (all defaults) when nothing was set.
  class Handle {
  public:
    explicit Handle(const LinalgOptions& o) {
      if (!o.any_) return;
      detail::check(tfe_linalg_options_create(&h_));
      try {
        if (o.upper_) detail::check(tfe_linalg_options_set_upper(h_, *o.upper_));
        if (o.left_) detail::check(tfe_linalg_options_set_left(h_, *o.left_));
        if (o.unit_diagonal_)
          detail::check(tfe_linalg_options_set_unit_diagonal(h_, *o.unit_diagonal_));
        if (o.transpose_)
          detail::check(tfe_linalg_options_set_transpose(h_, static_cast<int32_t>(*o.transpose_)));
        if (o.full_matrices_)
          detail::check(tfe_linalg_options_set_full_matrices(h_, *o.full_matrices_));
        if (o.positive_diagonal_)
          detail::check(tfe_linalg_options_set_positive_diagonal(h_, *o.positive_diagonal_));
        if (o.derivative_eps_)
          detail::check(tfe_linalg_options_set_derivative_eps(h_, *o.derivative_eps_));
        if (o.rtol_) detail::check(tfe_linalg_options_set_rtol(h_, *o.rtol_));
        if (o.hermitian_) detail::check(tfe_linalg_options_set_hermitian(h_, *o.hermitian_));
        if (o.max_rank_) detail::check(tfe_linalg_options_set_max_rank(h_, *o.max_rank_));
        if (o.cutoff_rtol_)
          detail::check(tfe_linalg_options_set_cutoff(h_, *o.cutoff_rtol_, *o.cutoff_atol_));
      } catch (...) {
        tfe_linalg_options_release(h_);
        throw;
      }
    }
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    ~Handle() { tfe_linalg_options_release(h_); }
    const tfe_linalg_options* get() const noexcept { return h_; }

  private:
    tfe_linalg_options* h_ = nullptr;
  };

private:
  template <class T, class V> LinalgOptions& set(std::optional<T>& field, V v) {
    field = static_cast<T>(v);
    any_ = true;
    return *this;
  }
  bool any_ = false;
  std::optional<int32_t> upper_, left_, unit_diagonal_, full_matrices_, positive_diagonal_,
      hermitian_;
  std::optional<Transpose> transpose_;
  std::optional<double> derivative_eps_, rtol_, cutoff_rtol_, cutoff_atol_;
  std::optional<int64_t> max_rank_;
};

struct QRResult {
  Tensor q, r;
};
struct SVDResult {
  Tensor u, s, vh;
};
struct QRPivotedResult {
  Tensor q, r, perm; // a[:, perm] = q r; perm I64
};
struct EighResult {
  Tensor w, v; // ascending real eigenvalues, unitary eigenvectors
};
struct EigResult {
  Tensor w, v; // complex
};
struct SlogdetResult {
  Tensor sign, logabs;
};
struct LUFactorResult {
  Tensor lu, pivots, info;
};
struct LUResult {
  Tensor p, l, u;
};

namespace detail {
template <class R, class F, class... Args> inline R make2(F fn, Args... args) {
  tfe_tensor *a = nullptr, *b = nullptr;
  check(fn(&a, &b, args...));
  return R{adopt_tensor(a), adopt_tensor(b)};
}
template <class R, class F, class... Args> inline R make3(F fn, Args... args) {
  tfe_tensor *a = nullptr, *b = nullptr, *c = nullptr;
  check(fn(&a, &b, &c, args...));
  return R{adopt_tensor(a), adopt_tensor(b), adopt_tensor(c)};
}
} // namespace detail

// X with A X = B.
inline Tensor solve(const Tensor& a, const Tensor& b) {
  return detail::make(tfe_linalg_solve, a.get(), b.get());
}
inline Tensor cholesky(const Tensor& a) { return detail::make(tfe_linalg_cholesky, a.get()); }
inline Tensor cholesky(const Tensor& a, const LinalgOptions& opts) {
  const LinalgOptions::Handle o(opts);
  return detail::make(tfe_linalg_cholesky_ex, a.get(), o.get());
}
//   auto [q, r] = tfe::qr(a);
inline QRResult qr(const Tensor& a) {
  return detail::make2<QRResult>(tfe_linalg_qr, static_cast<const tfe_tensor*>(a.get()));
}
inline QRResult qr(const Tensor& a, const LinalgOptions& opts) {
  const LinalgOptions::Handle o(opts);
  return detail::make2<QRResult>(tfe_linalg_qr_ex, static_cast<const tfe_tensor*>(a.get()),
                                 o.get());
}
inline SVDResult svd(const Tensor& a) {
  return detail::make3<SVDResult>(tfe_linalg_svd, static_cast<const tfe_tensor*>(a.get()));
}
inline SVDResult svd(const Tensor& a, const LinalgOptions& opts) {
  const LinalgOptions::Handle o(opts);
  return detail::make3<SVDResult>(tfe_linalg_svd_ex, static_cast<const tfe_tensor*>(a.get()),
                                  o.get());
}
inline Tensor svdvals(const Tensor& a) { return detail::make(tfe_linalg_svdvals, a.get()); }
//   auto [u, s, vh] = tfe::svd_truncated(a, tfe::LinalgOptions().max_rank(16).cutoff(1e-12));
inline SVDResult svd_truncated(const Tensor& a, const LinalgOptions& opts) {
  const LinalgOptions::Handle o(opts);
  return detail::make3<SVDResult>(tfe_linalg_svd_truncated, static_cast<const tfe_tensor*>(a.get()),
                                  o.get());
}
//   auto [q, r, perm] = tfe::qr_pivoted(a);
inline QRPivotedResult qr_pivoted(const Tensor& a, const LinalgOptions& opts = {}) {
  const LinalgOptions::Handle o(opts);
  return detail::make3<QRPivotedResult>(tfe_linalg_qr_pivoted,
                                        static_cast<const tfe_tensor*>(a.get()), o.get());
}
//   auto [w, v] = tfe::eigh(h);
inline EighResult eigh(const Tensor& a) {
  return detail::make2<EighResult>(tfe_linalg_eigh, static_cast<const tfe_tensor*>(a.get()));
}
inline EighResult eigh(const Tensor& a, const LinalgOptions& opts) {
  const LinalgOptions::Handle o(opts);
  return detail::make2<EighResult>(tfe_linalg_eigh_ex, static_cast<const tfe_tensor*>(a.get()),
                                   o.get());
}
inline Tensor eigvalsh(const Tensor& a, const LinalgOptions& opts = {}) {
  const LinalgOptions::Handle o(opts);
  return detail::make(tfe_linalg_eigvalsh, a.get(), o.get());
}
inline EigResult eig(const Tensor& a) {
  return detail::make2<EigResult>(tfe_linalg_eig, static_cast<const tfe_tensor*>(a.get()));
}
inline EigResult eig(const Tensor& a, const LinalgOptions& opts) {
  const LinalgOptions::Handle o(opts);
  return detail::make2<EigResult>(tfe_linalg_eig_ex, static_cast<const tfe_tensor*>(a.get()),
                                  o.get());
}
inline Tensor eigvals(const Tensor& a) { return detail::make(tfe_linalg_eigvals, a.get()); }
inline Tensor inv(const Tensor& a) { return detail::make(tfe_linalg_inv, a.get()); }
inline Tensor det(const Tensor& a) { return detail::make(tfe_linalg_det, a.get()); }
inline SlogdetResult slogdet(const Tensor& a) {
  return detail::make2<SlogdetResult>(tfe_linalg_slogdet, static_cast<const tfe_tensor*>(a.get()));
}
inline Tensor solve_triangular(const Tensor& a, const Tensor& b, const LinalgOptions& opts = {}) {
  const LinalgOptions::Handle o(opts);
  return detail::make(tfe_linalg_solve_triangular, a.get(), b.get(), o.get());
}
inline LUFactorResult lu_factor(const Tensor& a) {
  return detail::make3<LUFactorResult>(tfe_linalg_lu_factor,
                                       static_cast<const tfe_tensor*>(a.get()));
}
inline Tensor lu_solve(const Tensor& lu, const Tensor& pivots, const Tensor& b,
                       const LinalgOptions& opts = {}) {
  const LinalgOptions::Handle o(opts);
  return detail::make(tfe_linalg_lu_solve, lu.get(), pivots.get(), b.get(), o.get());
}
inline LUResult lu(const Tensor& a) {
  return detail::make3<LUResult>(tfe_linalg_lu, static_cast<const tfe_tensor*>(a.get()));
}
inline Tensor matrix_exp(const Tensor& a) { return detail::make(tfe_linalg_matrix_exp, a.get()); }
inline Tensor pinv(const Tensor& a, const LinalgOptions& opts = {}) {
  const LinalgOptions::Handle o(opts);
  return detail::make(tfe_linalg_pinv, a.get(), o.get());
}
inline Tensor lstsq(const Tensor& a, const Tensor& b, const LinalgOptions& opts = {}) {
  const LinalgOptions::Handle o(opts);
  return detail::make(tfe_linalg_lstsq, a.get(), b.get(), o.get());
}
inline Tensor matrix_norm(const Tensor& a, Norm ord = Norm::Fro) {
  return detail::make(tfe_linalg_matrix_norm, a.get(), static_cast<int32_t>(ord));
}
// ord = INFINITY: max |x|; 0: count of nonzeros. axes empty: all.
inline Tensor vector_norm(const Tensor& x, double ord = 2, const Axes& axes = {}) {
  return detail::make(tfe_linalg_vector_norm, x.get(), ord, detail::count32(axes.size(), "axes"),
                      axes.data());
}
inline Tensor cond(const Tensor& a, Norm ord = Norm::Two) {
  return detail::make(tfe_linalg_cond, a.get(), static_cast<int32_t>(ord));
}
inline Tensor matrix_power(const Tensor& a, int64_t n) {
  return detail::make(tfe_linalg_matrix_power, a.get(), n);
}
inline Tensor multi_dot(const std::vector<Tensor>& xs) {
  const std::vector<tfe_tensor*> h = detail::handles(xs);
  return detail::make(tfe_linalg_multi_dot, detail::count32(h.size(), "tensors"), h.data());
}
inline Tensor vecdot(const Tensor& a, const Tensor& b, int64_t axis = 0) {
  return detail::make(tfe_linalg_vecdot, a.get(), b.get(), axis);
}
inline Tensor vander(const Tensor& x, int64_t n) {
  return detail::make(tfe_linalg_vander, x.get(), n);
}
inline Tensor tensorinv(const Tensor& a, int64_t ind) {
  return detail::make(tfe_linalg_tensorinv, a.get(), ind);
}
inline Tensor tensorsolve(const Tensor& a, const Tensor& b) {
  return detail::make(tfe_linalg_tensorsolve, a.get(), b.get());
}
// atol <= 0: none; rtol and hermitian from opts.
inline Tensor matrix_rank(const Tensor& a, double atol = 0, const LinalgOptions& opts = {}) {
  const LinalgOptions::Handle o(opts);
  return detail::make(tfe_linalg_matrix_rank, a.get(), atol, o.get());
}
inline Tensor logdet(const Tensor& a) { return detail::make(tfe_linalg_logdet, a.get()); }
// The factor first, then B (the upper option of opts: A = U^H U).
inline Tensor cholesky_solve(const Tensor& l, const Tensor& b, const LinalgOptions& opts = {}) {
  const LinalgOptions::Handle o(opts);
  return detail::make(tfe_linalg_cholesky_solve, l.get(), b.get(), o.get());
}

// The regular linalg functions without a hand-written front above (generated from linalg.h).
#include "tenferro/linalg_fronts.hpp" // IWYU pragma: export

} // namespace tfe

#undef TFE_CXX_COLD

#endif // TENFERRO_HPP
