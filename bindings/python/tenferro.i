/*
 * tenferro.i: the low-level Python module `tenferro.tenferro_c` (extension `_tenferro_c`) over the
 * C ABI in include/tenferro/*.h. The user-facing API is the pure-Python package `tenferro`.
 *
 * Nothing here wraps a function by hand. The typemaps below are keyed on the naming conventions
 * of docs/design/c-api.md, so a new C function that follows them is wrapped as soon as its header
 * is %included at the bottom of this file:
 *
 *   C parameter(s)                               Python
 *   tfe_status return                            None, or raises the error class of the status
 *                                                with tfe_last_error_message()
 *   tfe_tensor** / tfe_context** (leading out)   returned as an owning proxy (None if NULL);
 *                                                the proxy releases the handle when collected
 *   tfe_tensor** out_grads                       list of proxies, one per handle of the (n, xs)
 *                                                array of the same call
 *   tfe_tensor** outs, int32_t n_outs            an int n_outs; a list of n_outs proxies back
 *   int32_t / int64_t / uint64_t / double *      trailing scalar output: returned
 *   const void** out                             returned as an int address
 *   int64_t* out_shape                           returned as a tuple (ndim of the first argument)
 *   int32_t ndim / n / n_axes / n_<name> count   no Python argument: the common length of the
 *                                                arrays that follow it
 *   const int64_t* (shape, axes, strides, ...)   a sequence of ints, or None (-> NULL)
 *   tfe_tensor* const* (xs, ...)                 a sequence of proxies (None entries -> NULL)
 *   const void* (data, value)                    any object exporting the buffer protocol
 *                                                (element (0,..,0) is its buf pointer); None->NULL
 *   void* dst, int64_t capacity_bytes            a writable contiguous buffer (e.g. numpy array)
 *   char* buf, int64_t capacity                  an int capacity; the text is returned
 *   void* data, tfe_deleter, void* user_data     a buffer object kept alive (buffer view held)
 *                                                until the library calls the deleter, which takes
 *                                                the GIL
 *   struct DLManagedTensor** / ...Versioned**    a PyCapsule "dltensor" / "dltensor_versioned"
 *   struct DLManagedTensor* / ...Versioned*      consumes such a capsule (renamed "used_...")
 *
 * Several values come back as a tuple, in parameter order. Retain/release are not exposed: the
 * proxies own their handle.
 */
%module(package="tenferro", docstring="Low-level SWIG wrapper of the tenferro C ABI (use the tenferro package).") tenferro_c

%{
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>
#include "tenferro/tenferro.h"

/* ---- DLPack ABI (the spec's layouts; interop.h only forward-declares them) ---- */
typedef struct { int32_t device_type; int32_t device_id; } tfepy_DLDevice;
typedef struct { uint8_t code; uint8_t bits; uint16_t lanes; } tfepy_DLDataType;
typedef struct {
  void* data;
  tfepy_DLDevice device;
  int32_t ndim;
  tfepy_DLDataType dtype;
  int64_t* shape;
  int64_t* strides;
  uint64_t byte_offset;
} tfepy_DLTensor;
struct DLManagedTensor {
  tfepy_DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensor* self);
};
typedef struct { uint32_t major; uint32_t minor; } tfepy_DLPackVersion;
struct DLManagedTensorVersioned {
  tfepy_DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensorVersioned* self);
  uint64_t flags;
  tfepy_DLTensor dl_tensor;
};

/* ---- errors: status -> exception class (registered by the Python code of this module) ---- */
static PyObject* tfepy_error_base = NULL;    /* TenferroError */
static PyObject* tfepy_error_classes = NULL; /* dict: int status -> class */

/* Raises the exception class of `status` with `message`; returns NULL for SWIG_fail. */
static PyObject* tfepy_raise(int32_t status, const char* message) {
  PyObject* cls = NULL;
  if (tfepy_error_classes) {
    PyObject* key = PyLong_FromLong((long)status);
    if (key) {
      cls = PyDict_GetItemWithError(tfepy_error_classes, key); /* borrowed */
      Py_DECREF(key);
    }
    if (PyErr_Occurred()) return NULL;
  }
  if (!cls) cls = tfepy_error_base ? tfepy_error_base : PyExc_RuntimeError;
  PyObject* msg = PyUnicode_DecodeUTF8(message ? message : "", (Py_ssize_t)strlen(message ? message : ""),
                                       "replace");
  if (!msg) return NULL;
  PyObject* exc = PyObject_CallFunction(cls, "Oi", msg, (int)status);
  Py_DECREF(msg);
  if (!exc) return NULL;
  PyErr_SetObject((PyObject*)Py_TYPE(exc), exc);
  Py_DECREF(exc);
  return NULL;
}

/* Appends a value to the result: None -> v -> (v, w) -> (v, w, x). Steals v. */
static PyObject* tfepy_append(PyObject* result, PyObject* v) {
  if (!v) { Py_XDECREF(result); return NULL; }
  if (!result) return v;
  if (result == Py_None) { Py_DECREF(result); return v; }
  if (PyTuple_Check(result)) {
    Py_ssize_t n = PyTuple_GET_SIZE(result);
    if (_PyTuple_Resize(&result, n + 1) < 0) { Py_DECREF(v); return NULL; }
    PyTuple_SET_ITEM(result, n, v);
    return result;
  }
  PyObject* t = PyTuple_Pack(2, result, v);
  Py_DECREF(result);
  Py_DECREF(v);
  return t;
}

/* A Python sequence of integers (or None) as a malloc'ed int64 array; *n receives its length
 * (-1 for None). Returns 0 on success, -1 with a Python error set. */
static int tfepy_int64_array(PyObject* obj, const char* what, int64_t** out, Py_ssize_t* n) {
  *out = NULL;
  *n = -1;
  if (obj == Py_None) return 0;
  PyObject* seq = PySequence_Fast(obj, "");
  if (!seq) {
    PyErr_Format(PyExc_TypeError, "%s must be a sequence of integers or None, not %.200s", what,
                 Py_TYPE(obj)->tp_name);
    return -1;
  }
  Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
  int64_t* buf = (int64_t*)malloc(sizeof(int64_t) * (size_t)(len > 0 ? len : 1));
  if (!buf) { Py_DECREF(seq); PyErr_NoMemory(); return -1; }
  for (Py_ssize_t i = 0; i < len; ++i) {
    PyObject* item = PySequence_Fast_GET_ITEM(seq, i);
    PyObject* idx = PyNumber_Index(item);
    long long v = idx ? PyLong_AsLongLong(idx) : -1;
    Py_XDECREF(idx);
    if (!idx || (v == -1 && PyErr_Occurred())) {
      PyErr_Clear();
      PyErr_Format(PyExc_TypeError, "%s[%zd] must be an integer, not %.200s", what, i,
                   Py_TYPE(item)->tp_name);
      free(buf);
      Py_DECREF(seq);
      return -1;
    }
    buf[i] = (int64_t)v;
  }
  Py_DECREF(seq);
  *out = buf;
  *n = len;
  return 0;
}

/* ---- zero-copy buffers: the deleter takes the GIL (the library may call it on any thread) ---- */
static void tfepy_buffer_deleter(void* data, void* user_data) {
  (void)data;
  Py_buffer* view = (Py_buffer*)user_data;
  if (!view || !Py_IsInitialized()) return; /* interpreter gone: nothing safe to do */
  PyGILState_STATE g = PyGILState_Ensure();
  PyBuffer_Release(view); /* drops the reference to the exporting object */
  PyGILState_Release(g);
  free(view);
}

/* ---- DLPack capsules (the standard destructor rules) ---- */
static void tfepy_dltensor_capsule_destructor(PyObject* cap) {
  if (PyCapsule_IsValid(cap, "used_dltensor")) return; /* consumed: the consumer owns it */
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  struct DLManagedTensor* m = (struct DLManagedTensor*)PyCapsule_GetPointer(cap, "dltensor");
  if (!m) PyErr_WriteUnraisable(cap);
  else if (m->deleter) m->deleter(m);
  PyErr_Restore(type, value, tb);
}
static void tfepy_dltensor_versioned_capsule_destructor(PyObject* cap) {
  if (PyCapsule_IsValid(cap, "used_dltensor_versioned")) return;
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  struct DLManagedTensorVersioned* m =
      (struct DLManagedTensorVersioned*)PyCapsule_GetPointer(cap, "dltensor_versioned");
  if (!m) PyErr_WriteUnraisable(cap);
  else if (m->deleter) m->deleter(m);
  PyErr_Restore(type, value, tb);
}

/* Imported tensors reach the library inside a wrapper whose deleter takes the GIL before calling
 * the producer's deleter: the library may drop the last reference on any thread, and producers
 * such as NumPy 1.24 Py_DECREF in their deleter without taking the GIL. */
static void tfepy_dl_wrapper_deleter(struct DLManagedTensor* self) {
  struct DLManagedTensor* inner = (struct DLManagedTensor*)self->manager_ctx;
  free(self);
  if (!inner || !inner->deleter || !Py_IsInitialized()) return;
  PyGILState_STATE g = PyGILState_Ensure();
  inner->deleter(inner);
  PyGILState_Release(g);
}
static void tfepy_dl_wrapper_versioned_deleter(struct DLManagedTensorVersioned* self) {
  struct DLManagedTensorVersioned* inner = (struct DLManagedTensorVersioned*)self->manager_ctx;
  free(self);
  if (!inner || !inner->deleter || !Py_IsInitialized()) return;
  PyGILState_STATE g = PyGILState_Ensure();
  inner->deleter(inner);
  PyGILState_Release(g);
}
%}

%include <stdint.i>

/* ------------------------------------------------------------------------------------------ */
/* Handles: opaque, reference counted, released by the owning proxy.                          */
/* ------------------------------------------------------------------------------------------ */
%define %tfe_handle(TYPE, RELEASE)
%nodefaultctor TYPE;
%nodefaultdtor TYPE;
struct TYPE {};
%nothreadallow TYPE::~TYPE; /* cheap; keeps the GIL for deleters run by the release */
%extend TYPE {
  ~TYPE() { RELEASE($self); }
}
%typemap(in, numinputs=0) TYPE** (TYPE* temp = NULL) { $1 = &temp; }
%typemap(argout) TYPE** {
  $result = tfepy_append($result, *$1 ? SWIG_NewPointerObj(SWIG_as_voidptr(*$1), $*1_descriptor,
                                                          SWIG_POINTER_OWN)
                                      : (Py_INCREF(Py_None), Py_None));
  if (!$result) SWIG_fail;
  *$1 = NULL;
}
/* on failure after the call (never by the library: it NULLs outputs), do not leak */
%typemap(freearg) TYPE** { if ($1 && *$1) RELEASE(*$1); }
%ignore RELEASE;
%enddef

%tfe_handle(tfe_context, tfe_context_release)
%tfe_handle(tfe_tensor, tfe_tensor_release)
%tfe_handle(tfe_function, tfe_function_release)
%tfe_handle(tfe_results, tfe_results_release)
%tfe_handle(tfe_linalg_options, tfe_linalg_options_release)
%ignore tfe_context_retain;
%ignore tfe_tensor_retain;
%ignore tfe_function_retain;

/* Scalar inputs: anything with __index__ (NumPy integers too) or __float__, range-checked. */
%{
static int tfepy_as_int64(PyObject* obj, const char* what, long long lo, long long hi, long long* out) {
  PyObject* idx = PyNumber_Index(obj);
  if (!idx) return -1;
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(idx, &overflow);
  Py_DECREF(idx);
  if (v == -1 && PyErr_Occurred()) return -1;
  if (overflow || v < lo || v > hi) {
    PyErr_Format(PyExc_OverflowError, "%s is out of range [%lld, %lld]", what, lo, hi);
    return -1;
  }
  *out = v;
  return 0;
}
%}
%typemap(in) int32_t (long long v) {
  if (tfepy_as_int64($input, "$1_name", INT32_MIN, INT32_MAX, &v) < 0) SWIG_fail;
  $1 = (int32_t)v;
}
%typemap(in) int64_t (long long v) {
  if (tfepy_as_int64($input, "$1_name", INT64_MIN, INT64_MAX, &v) < 0) SWIG_fail;
  $1 = (int64_t)v;
}
%typemap(in) uint64_t {
  {
    PyObject* idx = PyNumber_Index($input);
    if (!idx) SWIG_fail;
    $1 = (uint64_t)PyLong_AsUnsignedLongLong(idx);
    Py_DECREF(idx);
    if (PyErr_Occurred()) SWIG_fail;
  }
}
%typemap(in) double {
  $1 = PyFloat_AsDouble($input);
  if ($1 == -1.0 && PyErr_Occurred()) SWIG_fail;
}

/* The status return: success -> None (outputs appended), failure -> exception. */
%typemap(out) tfe_status {
  if ($1 != TFE_OK) {
    tfepy_raise($1, tfe_last_error_message());
    SWIG_fail;
  }
  $result = SWIG_Py_Void();
}

/* Trailing scalar outputs (every non-const scalar pointer of the ABI is an output). */
%define %tfe_scalar_out(TYPE, TO_PY)
%typemap(in, numinputs=0) TYPE* (TYPE temp = 0) { $1 = &temp; }
%typemap(argout) TYPE* {
  $result = tfepy_append($result, TO_PY(*$1));
  if (!$result) SWIG_fail;
}
%enddef
%tfe_scalar_out(int32_t, PyLong_FromLong)
%tfe_scalar_out(int64_t, PyLong_FromLongLong)
%tfe_scalar_out(uint64_t, PyLong_FromUnsignedLongLong)
%tfe_scalar_out(double, PyFloat_FromDouble)

%typemap(in, numinputs=0) const void** (const void* temp = NULL) { $1 = ($1_ltype)&temp; }
%typemap(argout) const void** {
  $result = tfepy_append($result, PyLong_FromVoidPtr((void*)*$1));
  if (!$result) SWIG_fail;
}

/* out_shape: ndim entries of the object passed first. */
%typemap(in, numinputs=0) int64_t* out_shape (int32_t nd = 0) { $1 = NULL; }
%typemap(check) int64_t* out_shape {
  if (arg1 && tfe_tensor_ndim(arg1, &nd$argnum) == TFE_OK && nd$argnum > 0) {
    $1 = (int64_t*)calloc((size_t)nd$argnum, sizeof(int64_t));
    if (!$1) { PyErr_NoMemory(); SWIG_fail; }
  }
}
%typemap(argout) int64_t* out_shape {
  {
    PyObject* t = PyTuple_New(nd$argnum);
    for (int32_t i = 0; t && i < nd$argnum; ++i) PyTuple_SET_ITEM(t, i, PyLong_FromLongLong($1[i]));
    $result = tfepy_append($result, t);
    if (!$result) SWIG_fail;
  }
}
%typemap(freearg) int64_t* out_shape { free($1); }

%{
static int tfepy_handle_array(PyObject* obj, swig_type_info* ty, const char* what, tfe_tensor*** out,
                              Py_ssize_t* n) {
  *out = NULL;
  *n = -1;
  if (obj == Py_None) return 0;
  PyObject* seq = PySequence_Fast(obj, "");
  if (!seq) {
    PyErr_Format(PyExc_TypeError, "%s must be a sequence of tensor handles, not %.200s", what,
                 Py_TYPE(obj)->tp_name);
    return -1;
  }
  Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
  tfe_tensor** buf = (tfe_tensor**)calloc((size_t)(len > 0 ? len : 1), sizeof(tfe_tensor*));
  if (!buf) { Py_DECREF(seq); PyErr_NoMemory(); return -1; }
  for (Py_ssize_t i = 0; i < len; ++i) {
    PyObject* item = PySequence_Fast_GET_ITEM(seq, i);
    void* p = NULL;
    if (item != Py_None && !SWIG_IsOK(SWIG_ConvertPtr(item, &p, ty, 0))) {
      PyErr_Format(PyExc_TypeError, "%s[%zd] must be a tensor handle, not %.200s", what, i,
                   Py_TYPE(item)->tp_name);
      free(buf);
      Py_DECREF(seq);
      return -1;
    }
    buf[i] = (tfe_tensor*)p;
  }
  Py_DECREF(seq);
  *out = buf;
  *n = len;
  return 0;
}
%}

/* ------------------------------------------------------------------------------------------ */
/* Arrays: an `int32_t` count followed by arrays of that length (`const int64_t*` or           */
/* `tfe_tensor* const*`). SWIG matches multi-argument typemaps only by name, so the count and  */
/* each array have their own typemaps: the `in` typemaps convert the sequences, then the      */
/* `check` typemaps (run after every `in`, in parameter order) let each count point the      */
/* thread-local tfepy_count at itself and each array after it set or check its length.        */
/* ------------------------------------------------------------------------------------------ */
%{
/* The count of the array group being converted (this thread, this call). */
static __thread int32_t* tfepy_count = NULL;
static __thread int tfepy_count_known = 0;
/* Count of the last handle array converted in this call (sizes out_grads). */
static __thread int32_t tfepy_last_handle_count = 0;

static int tfepy_begin_group(int32_t* count, Py_ssize_t len) {
  if (len > INT32_MAX) { PyErr_SetString(PyExc_OverflowError, "too many array entries"); return -1; }
  *count = (int32_t)(len < 0 ? 0 : len);
  tfepy_count = count;
  tfepy_count_known = len >= 0;
  return 0;
}
static int tfepy_join_group(Py_ssize_t len, const char* what) {
  if (len < 0 || !tfepy_count) return 0;
  if (tfepy_count_known && (Py_ssize_t)*tfepy_count != len) {
    PyErr_Format(PyExc_ValueError, "%s has %zd entries, the arrays before it %d", what, len,
                 (int)*tfepy_count);
    return -1;
  }
  return tfepy_begin_group(tfepy_count, len);
}
%}

/* The counts (names fixed by the conventions; test_generic_typemaps.py checks the headers for
 * others): no Python argument, set from the arrays that follow. */
%typemap(in, numinputs=0) int32_t TFE_COUNT { $1 = 0; }
%typemap(check) int32_t TFE_COUNT { tfepy_count = &$1; tfepy_count_known = 0; }
%typemap(freearg) int32_t TFE_COUNT { tfepy_count = NULL; }
%apply int32_t TFE_COUNT { int32_t ndim, int32_t n, int32_t n_axes, int32_t n_dims,
                           int32_t n_contracting, int32_t n_batch, int32_t n_inputs,
                           int32_t n_outputs, int32_t n_wrt };
%pythoncode %{
_COUNT_NAMES = ("ndim", "n", "n_axes", "n_dims", "n_contracting", "n_batch", "n_inputs",
                "n_outputs", "n_wrt")
%}

%typemap(in) const int64_t* (Py_ssize_t len = -1) {
  if (tfepy_int64_array($input, "$1_name", (int64_t**)&$1, &len) < 0) SWIG_fail;
}
%typemap(check) const int64_t* { if (tfepy_join_group(len$argnum, "$1_name") < 0) SWIG_fail; }
%typemap(argout) const int64_t* "";
%typemap(freearg) const int64_t* { free((void*)$1); }

%typemap(in) tfe_tensor* const* (Py_ssize_t len = -1) {
  if (tfepy_handle_array($input, $descriptor(tfe_tensor*), "$1_name", (tfe_tensor***)&$1, &len) < 0)
    SWIG_fail;
  /* in-typemaps all run before check-typemaps: out_grads (first parameter) is sized here */
  if (len >= 0) tfepy_last_handle_count = (int32_t)len;
}
%typemap(check) tfe_tensor* const* { if (tfepy_join_group(len$argnum, "$1_name") < 0) SWIG_fail; }
%typemap(argout) tfe_tensor* const* "";
%typemap(freearg) tfe_tensor* const* { free((void*)$1); }

/* out_grads: one handle per entry of the call's handle array (converted before `check`). */
%typemap(in, numinputs=0) tfe_tensor** out_grads (int32_t cnt = 0) { $1 = NULL; }
%typemap(check) tfe_tensor** out_grads {
  cnt$argnum = tfepy_last_handle_count;
  $1 = (tfe_tensor**)calloc((size_t)(cnt$argnum > 0 ? cnt$argnum : 1), sizeof(tfe_tensor*));
  if (!$1) { PyErr_NoMemory(); SWIG_fail; }
}
%typemap(argout) tfe_tensor** out_grads {
  {
    PyObject* l = PyList_New(cnt$argnum);
    for (int32_t i = 0; l && i < cnt$argnum; ++i) {
      PyObject* h = $1[i] ? SWIG_NewPointerObj(SWIG_as_voidptr($1[i]), $descriptor(tfe_tensor*),
                                              SWIG_POINTER_OWN)
                          : (Py_INCREF(Py_None), Py_None);
      $1[i] = NULL;
      PyList_SET_ITEM(l, i, h);
    }
    $result = tfepy_append($result, l);
    if (!$result) SWIG_fail;
  }
}
%typemap(freearg) tfe_tensor** out_grads {
  if ($1) {
    for (int32_t i = 0; i < cnt$argnum; ++i) tfe_tensor_release($1[i]);
    free($1);
  }
}

/* (outs, n_outs): the caller says how many pieces (an int); a list of that many proxies back. */
%typemap(in) (tfe_tensor** outs, int32_t n_outs) (int32_t cnt = 0) {
  {
    long long v = PyLong_AsLongLong($input);
    if (v == -1 && PyErr_Occurred()) SWIG_fail;
    if (v < 1 || v > INT32_MAX) {
      PyErr_Format(PyExc_ValueError, "n_outs must be >= 1, not %lld", v);
      SWIG_fail;
    }
    cnt = (int32_t)v;
    $2 = cnt;
    $1 = (tfe_tensor**)calloc((size_t)cnt, sizeof(tfe_tensor*));
    if (!$1) { PyErr_NoMemory(); SWIG_fail; }
  }
}
%typemap(argout) (tfe_tensor** outs, int32_t n_outs) {
  {
    PyObject* l = PyList_New(cnt$argnum);
    for (int32_t i = 0; l && i < cnt$argnum; ++i) {
      PyObject* h = $1[i] ? SWIG_NewPointerObj(SWIG_as_voidptr($1[i]), $descriptor(tfe_tensor*),
                                              SWIG_POINTER_OWN)
                          : (Py_INCREF(Py_None), Py_None);
      $1[i] = NULL;
      PyList_SET_ITEM(l, i, h);
    }
    $result = tfepy_append($result, l);
    if (!$result) SWIG_fail;
  }
}
%typemap(freearg) (tfe_tensor** outs, int32_t n_outs) {
  if ($1) {
    for (int32_t i = 0; i < cnt$argnum; ++i) tfe_tensor_release($1[i]);
    free($1);
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Memory: const void* inputs, caller buffers, adopted buffers.                               */
/* ------------------------------------------------------------------------------------------ */
%typemap(in) const void* (Py_buffer view, int have = 0) {
  if ($input == Py_None) {
    $1 = NULL;
  } else {
    if (PyObject_GetBuffer($input, &view, PyBUF_STRIDES) < 0) SWIG_fail;
    have = 1;
    $1 = view.buf;
  }
}
%typemap(argout) const void* "";
%typemap(freearg) const void* { if (have$argnum) PyBuffer_Release(&view$argnum); }

%typemap(in) (void* dst, int64_t capacity_bytes) (Py_buffer view, int have = 0) {
  if ($input == Py_None) {
    $1 = NULL;
    $2 = 0;
  } else {
    if (PyObject_GetBuffer($input, &view, PyBUF_WRITABLE | PyBUF_ANY_CONTIGUOUS) < 0) SWIG_fail;
    have = 1;
    $1 = view.buf;
    $2 = (int64_t)view.len;
  }
}
%typemap(freearg) (void* dst, int64_t capacity_bytes) { if (have$argnum) PyBuffer_Release(&view$argnum); }

%typemap(in) (char* buf, int64_t capacity) {
  long long cap = PyLong_AsLongLong($input);
  if (cap == -1 && PyErr_Occurred()) SWIG_fail;
  if (cap < 0) { PyErr_SetString(PyExc_ValueError, "capacity must be >= 0"); SWIG_fail; }
  $1 = cap > 0 ? (char*)calloc((size_t)cap, 1) : NULL;
  if (cap > 0 && !$1) { PyErr_NoMemory(); SWIG_fail; }
  $2 = (int64_t)cap;
}
%typemap(argout) (char* buf, int64_t capacity) {
  $result = tfepy_append($result, PyUnicode_DecodeUTF8($1 ? $1 : "", $1 ? (Py_ssize_t)strlen($1) : 0,
                                                       "replace"));
  if (!$result) SWIG_fail;
}
%typemap(freearg) (char* buf, int64_t capacity) { free($1); }

/* Adopted caller memory: the buffer view (holding a reference to the exporter) lives until the
 * library calls the deleter; on failure it is released here. */
%typemap(in) (void* data, tfe_deleter deleter, void* user_data) (Py_buffer* view = NULL, int taken = 0) {
  view = (Py_buffer*)calloc(1, sizeof(Py_buffer));
  if (!view) { PyErr_NoMemory(); SWIG_fail; }
  if (PyObject_GetBuffer($input, view, PyBUF_STRIDES) < 0) { free(view); view = NULL; SWIG_fail; }
  $1 = view->buf;
  $2 = tfepy_buffer_deleter;
  $3 = view;
}
%typemap(argout) (void* data, tfe_deleter deleter, void* user_data) { taken$argnum = 1; }
%typemap(freearg) (void* data, tfe_deleter deleter, void* user_data) {
  if (view$argnum && !taken$argnum) { PyBuffer_Release(view$argnum); free(view$argnum); }
}

/* ------------------------------------------------------------------------------------------ */
/* DLPack: capsules out, capsules in.                                                          */
/* ------------------------------------------------------------------------------------------ */
%nodefaultctor DLManagedTensor;
%nodefaultctor DLManagedTensorVersioned;

%define %tfe_dlpack(STRUCT, NAME, DESTRUCTOR, WRAP_DELETER)
%typemap(in, numinputs=0) struct STRUCT** (struct STRUCT* temp = NULL) { $1 = &temp; }
%typemap(argout) struct STRUCT** {
  {
    PyObject* cap = PyCapsule_New(*$1, NAME, DESTRUCTOR);
    if (!cap && *$1 && (*$1)->deleter) (*$1)->deleter(*$1);
    *$1 = NULL;
    $result = tfepy_append($result, cap);
    if (!$result) SWIG_fail;
  }
}
%typemap(freearg) struct STRUCT** { if ($1 && *$1 && (*$1)->deleter) (*$1)->deleter(*$1); }

%typemap(in) struct STRUCT* (struct STRUCT* wrapper = NULL, int taken = 0) {
  if (!PyCapsule_IsValid($input, NAME)) {
    if (PyCapsule_IsValid($input, "used_" NAME))
      PyErr_SetString(PyExc_ValueError, "this DLPack capsule was already consumed");
    else
      PyErr_Format(PyExc_TypeError, "expected a PyCapsule named \"%s\", not %.200s", NAME,
                   Py_TYPE($input)->tp_name);
    SWIG_fail;
  }
  {
    struct STRUCT* inner = (struct STRUCT*)PyCapsule_GetPointer($input, NAME);
    if (!inner) SWIG_fail;
    wrapper = (struct STRUCT*)malloc(sizeof(struct STRUCT));
    if (!wrapper) { PyErr_NoMemory(); SWIG_fail; }
    *wrapper = *inner;
    wrapper->manager_ctx = inner;
    wrapper->deleter = WRAP_DELETER;
  }
  $1 = wrapper;
}
%typemap(argout) struct STRUCT* {
  taken$argnum = 1; /* the tensor owns it now */
  if (PyCapsule_SetName($input, "used_" NAME) < 0) SWIG_fail;
}
%typemap(freearg) struct STRUCT* { if (!taken$argnum) free(wrapper$argnum); }
%enddef

%tfe_dlpack(DLManagedTensor, "dltensor", tfepy_dltensor_capsule_destructor, tfepy_dl_wrapper_deleter)
%tfe_dlpack(DLManagedTensorVersioned, "dltensor_versioned", tfepy_dltensor_versioned_capsule_destructor,
            tfepy_dl_wrapper_versioned_deleter)

/* ------------------------------------------------------------------------------------------ */
/* Helpers for the Python layer (not part of the C ABI).                                       */
/* ------------------------------------------------------------------------------------------ */
%typemap(in) PyObject* "$1 = $input;"
%typemap(out) PyObject* "$result = $1; if (!$result) SWIG_fail;"
%nothreadallow _tfepy_register_errors;
%nothreadallow _tfepy_raise_status;
%nothreadallow _tfepy_capsule_name;
%inline %{
/* Registers the exception classes: base (TenferroError) and a dict status -> class. */
static PyObject* _tfepy_register_errors(PyObject* base, PyObject* classes) {
  if (!PyDict_Check(classes)) { PyErr_SetString(PyExc_TypeError, "classes must be a dict"); return NULL; }
  Py_XDECREF(tfepy_error_base);
  Py_XDECREF(tfepy_error_classes);
  Py_INCREF(base);
  Py_INCREF(classes);
  tfepy_error_base = base;
  tfepy_error_classes = classes;
  Py_RETURN_NONE;
}
/* Raises what a call returning `status` with `message` raises (tests the mapping of statuses
 * no current function returns); returns None for TFE_OK. */
static PyObject* _tfepy_raise_status(int32_t status, const char* message) {
  if (status == TFE_OK) Py_RETURN_NONE;
  return tfepy_raise(status, message);
}
/* The name of a PyCapsule ("dltensor", ...), or None for another object. */
static PyObject* _tfepy_capsule_name(PyObject* obj) {
  if (!PyCapsule_CheckExact(obj)) Py_RETURN_NONE;
  const char* name = PyCapsule_GetName(obj);
  if (!name) { PyErr_Clear(); Py_RETURN_NONE; }
  return PyUnicode_FromString(name);
}
%}

/* ------------------------------------------------------------------------------------------ */
/* The C ABI (one line per topic header of include/tenferro/).                                */
/* ------------------------------------------------------------------------------------------ */
%include "tenferro/base.h"
%include "tenferro/tensor.h"
%include "tenferro/ops_arith.h"
%include "tenferro/ops_elementwise.h"
%include "tenferro/ops_math.h"
%include "tenferro/ops_shape.h"
%include "tenferro/ops_order.h"
%include "tenferro/ops_numeric.h"
%include "tenferro/interop.h"
%include "tenferro/program.h"
%include "tenferro/ad.h"
%include "tenferro/linalg.h"
%include "tenferro/einsum.h"

%pythoncode %{
import re as _re

# The C entry points a message names, as the Python user calls them.
_PYTHON_NAMES = {
    "tfe_backward": "Tensor.backward()",
    "tfe_vjp": "tenferro.autograd.vjp()",
    "tfe_jvp": "tenferro.autograd.jvp()",
    "tfe_tensor_detach": "Tensor.detach()",
    "tfe_tensor_set_requires_grad": "Tensor.requires_grad_()",
    "tfe_tensor_requires_grad": "Tensor.requires_grad",
    "tfe_tensor_to_device": "Tensor.to()",
    "tfe_tensor_grad": "Tensor.grad",
    "tfe_tensor_clear_grad": "Tensor.grad = None",
    "tfe_no_grad_enter": "tenferro.no_grad()",
    "tfe_no_grad_exit": "tenferro.no_grad()",
    "tfe_capture_trace_enter": "tenferro.capture_trace()",
    "tfe_capture_trace_exit": "tenferro.capture_trace()",
    "tfe_tensor_from_data": "tenferro.Tensor()",
    "tfe_tensor_to_data": "Tensor.numpy()",
    "tfe_tensor_symbolic": "tenferro.symbolic()",
    "tfe_context_create": "tenferro.Context()",
    "tfe_context_create_dataflow": "tenferro.Context('dataflow')",
    "tfe_function_create": "tenferro.Function()",
    "tfe_function_call": "Function.__call__()",
    "tfe_function_call1": "Function.__call__()",
    "tfe_function_jvp": "tenferro.jvp()",
    "tfe_function_vjp": "tenferro.vjp()",
    "tfe_function_grad": "tenferro.grad()",
    "tfe_function_hvp": "tenferro.hvp()",
    "tfe_matmul": "tenferro.matmul()",
    "tfe_tensor_from_buffer": "tenferro.from_numpy()",
    "tfe_tensor_from_dlpack": "tenferro.from_dlpack()",
    "tfe_tensor_to_dlpack": "Tensor.__dlpack__()",
    "tfe_context_cache_limits": "Context.set_cache_limits()",
    "tfe_context_cache_stats": "Context.cache_stats()",
    "tfe_context_cache_clear": "Context.clear_cache()",
    "tfe_and": "tenferro.and_()",
    "tfe_or": "tenferro.or_()",
    "tfe_not": "tenferro.not_()",
}
_C_NAME = _re.compile(r"\btfe_[a-z0-9_]+")


def _python_name(match):
    name = match.group(0)
    if name in _PYTHON_NAMES:
        return _PYTHON_NAMES[name]
    if name.startswith("tfe_linalg_"):
        base = name[len("tfe_linalg_"):]
        if base.endswith("_ex"):  # the _ex forms are the keyword arguments of one function
            base = base[:-3]
        return "tenferro.linalg." + base + "()"
    if name.startswith("tfe_tensor_"):
        return "Tensor." + name[len("tfe_tensor_"):]
    return "tenferro." + name[len("tfe_"):] + "()"


def _in_python_terms(message):
    """The library's message with every C function name replaced by its Python spelling."""
    return _C_NAME.sub(_python_name, message or "")


class TenferroError(Exception):
    """Base class of the errors raised for a failing tenferro call.

    ``str(e)`` is the library's one-line message in Python terms: it starts with the function
    called (``tenferro.add(): shapes ...``, ``Tensor.backward(): ...``); ``e.c_message`` is the
    C library's own text (naming C functions) and ``e.status`` the tfe_status code (TFE_ERR_*)."""

    def __init__(self, message="", status=None):
        self.c_message = message
        self.message = _in_python_terms(message)
        super().__init__(self.message)
        self.status = status


class InvalidArgumentError(TenferroError, ValueError):
    """TFE_ERR_INVALID_ARGUMENT: a bad axis, parameter, NULL or misused API."""


class ShapeMismatchError(TenferroError, ValueError):
    """TFE_ERR_SHAPE_MISMATCH: shapes that do not broadcast or agree."""


class DtypeMismatchError(TenferroError, TypeError):
    """TFE_ERR_DTYPE_MISMATCH: a dtype the operation does not accept."""


class OutOfMemoryError(TenferroError, MemoryError):
    """TFE_ERR_OUT_OF_MEMORY."""


class NotSupportedError(TenferroError, NotImplementedError):
    """TFE_ERR_NOT_SUPPORTED: a component, device, dtype or size that is not available."""


class DeviceError(TenferroError):
    """TFE_ERR_DEVICE: mixed placements or a device failure."""


class NotDifferentiableError(TenferroError):
    """TFE_ERR_NOT_DIFFERENTIABLE."""


class SingularError(TenferroError, ArithmeticError):
    """TFE_ERR_SINGULAR: a singular matrix."""


class NonConvergenceError(TenferroError, ArithmeticError):
    """TFE_ERR_NON_CONVERGENCE: an iterative algorithm did not converge."""


class NumericalError(TenferroError, ArithmeticError):
    """TFE_ERR_NUMERICAL: e.g. integer division by zero, a matrix not positive definite."""


class InternalError(TenferroError):
    """TFE_ERR_INTERNAL: a bug in tenferro."""


ERROR_CLASSES = {
    TFE_ERR_INVALID_ARGUMENT: InvalidArgumentError,
    TFE_ERR_SHAPE_MISMATCH: ShapeMismatchError,
    TFE_ERR_DTYPE_MISMATCH: DtypeMismatchError,
    TFE_ERR_OUT_OF_MEMORY: OutOfMemoryError,
    TFE_ERR_NOT_SUPPORTED: NotSupportedError,
    TFE_ERR_DEVICE: DeviceError,
    TFE_ERR_NOT_DIFFERENTIABLE: NotDifferentiableError,
    TFE_ERR_SINGULAR: SingularError,
    TFE_ERR_NON_CONVERGENCE: NonConvergenceError,
    TFE_ERR_NUMERICAL: NumericalError,
    TFE_ERR_INTERNAL: InternalError,
}
_tfepy_register_errors(TenferroError, ERROR_CLASSES)
%}
