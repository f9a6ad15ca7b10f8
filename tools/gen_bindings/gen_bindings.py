#!/usr/bin/python3
"""Writes the Fortran and Julia bindings of tenferro from its C header.

Usage: gen_bindings.py [--root DIR] [--out DIR]
  --root  the repository (default: two levels above this file)
  --out   where the generated files go, under the same relative paths as in the tree
          (default: --root); check.sh points this at a temporary folder.

Outputs (relative to --out):
  bindings/fortran/src/tenferro_c.f90      bind(C) interfaces and TFE_ constants (module tenferro_c)
  bindings/fortran/src/tenferro_ops.inc    procedures of the idiomatic module for regular signatures
  bindings/fortran/src/tenferro_ops_decl.inc  their public names and generic interfaces
  bindings/julia/Tenferro/src/generated.jl ccall wrappers and TFE_ constants
  and the layers of the regular linalg functions (linalg_fronts.py lists them)

Everything comes from libclang's view of include/tenferro/tenferro.h: function declarations
named tfe_*, and #define TFE_* macros whose tokens form an integer expression (read through
the detailed preprocessing record, so the values are the header's, not a copy).
"""
import argparse
import os
import re
import sys

import clang.cindex as ci

import linalg_fronts

LIBCLANG_CANDIDATES = [
    "/usr/lib/llvm-16/lib/libclang-16.so.1",
    "/usr/lib/llvm-16/lib/libclang.so.1",
    "/usr/lib/x86_64-linux-gnu/libclang-16.so.1",
]

# The header's conventions block names the only array outputs; every other non-const scalar
# pointer is a single output value.
ARRAY_OUTPUTS = {"out_shape", "out_grads", "outs", "dst", "buf"}

STD_INTS = {"int32_t": ("c_int32_t", "Int32"), "int64_t": ("c_int64_t", "Int64"),
            # Fortran has no unsigned kinds: a seed travels as the same 64 bits.
            "uint64_t": ("c_int64_t", "UInt64")}

FORTRAN_INTRINSIC_KINDS = ["c_ptr", "c_funptr", "c_int32_t", "c_int64_t", "c_double", "c_char"]


def die(msg):
    sys.stderr.write("gen_bindings: " + msg + "\n")
    sys.exit(1)


def load_libclang():
    override = os.environ.get("TFE_LIBCLANG")
    for path in ([override] if override else []) + LIBCLANG_CANDIDATES:
        if path and os.path.exists(path):
            ci.Config.set_library_file(path)
            return
    die("libclang not found (install python3-clang-16 / libclang1-16 or set TFE_LIBCLANG)")


def std_name(t):
    """Follows typedefs (tfe_status -> int32_t) until a fixed-width or builtin name."""
    while True:
        name = t.spelling.replace("const ", "").strip()
        if name in STD_INTS:
            return name
        if t.kind == ci.TypeKind.TYPEDEF:
            under = t.get_declaration().underlying_typedef_type
            if under.kind == ci.TypeKind.POINTER and under.get_pointee().kind == ci.TypeKind.FUNCTIONPROTO:
                return "funptr"
            t = under
            continue
        if t.kind == ci.TypeKind.ELABORATED:
            t = t.get_named_type()
            continue
        return {ci.TypeKind.DOUBLE: "double", ci.TypeKind.VOID: "void",
                ci.TypeKind.CHAR_S: "char", ci.TypeKind.RECORD: "record",
                ci.TypeKind.POINTER: "pointer", ci.TypeKind.INT: "int"}.get(t.kind, None) or die(
                    "unsupported type " + t.spelling)


def classify(t, name):
    """One parameter: a (role, base) pair that both emitters translate."""
    base = std_name(t)
    if base in STD_INTS or base == "double":
        return ("value", base)
    if base == "funptr":
        return ("funptr", None)
    if base != "pointer":
        die("unsupported parameter %s of type %s" % (name, t.spelling))
    p = t.get_pointee()
    pb = std_name(p)
    if pb == "record":
        return ("handle", record_name(p))
    if pb == "void":
        return ("address", None)
    if pb == "char":
        return ("chars_in" if p.is_const_qualified() else "chars_out", None)
    if pb in STD_INTS or pb == "double":
        if p.is_const_qualified():
            return ("array_in", pb)
        return ("array_out" if name in ARRAY_OUTPUTS else "scalar_out", pb)
    if pb == "pointer":
        pp = std_name(p.get_pointee())
        if pp == "record":
            rec = record_name(p.get_pointee())
            if p.is_const_qualified():
                return ("handle_array_in", rec)
            return ("handle_array_out" if name in ARRAY_OUTPUTS else "handle_out", rec)
        if pp == "void":
            return ("address_out", None)
    die("unsupported parameter %s of type %s" % (name, t.spelling))


def record_name(t):
    return re.sub(r"^(const\s+)?(struct\s+)?", "", t.get_canonical().spelling).strip()


def result_kind(t):
    base = std_name(t)
    if base == "void":
        return "void"
    if base in STD_INTS:
        return base
    if base == "pointer" and std_name(t.get_pointee()) == "char":
        return "string"
    die("unsupported result type " + t.spelling)


class Function:
    def __init__(self, name, result, params, header):
        self.name, self.result, self.params, self.header = name, result, params, header


def parse(root):
    load_libclang()
    inc = os.path.join(root, "include")
    umbrella = os.path.join(inc, "tenferro", "tenferro.h")
    tu = ci.Index.create().parse(
        umbrella, args=["-x", "c", "-std=c99", "-I" + inc],
        options=ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD
        | ci.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES)
    errors = [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error]
    if errors:
        die("the header does not parse: " + "; ".join(str(d) for d in errors))
    folder = os.path.realpath(os.path.join(inc, "tenferro"))
    functions, constants, seen = [], [], set()
    for c in tu.cursor.get_children():
        if c.location.file is None:
            continue
        path = os.path.realpath(c.location.file.name)
        if os.path.dirname(path) != folder:
            continue
        if c.kind == ci.CursorKind.FUNCTION_DECL and c.spelling.startswith("tfe_"):
            if c.spelling in seen:
                continue
            seen.add(c.spelling)
            params = []
            for a in c.get_arguments():
                if not a.spelling:
                    die("%s: unnamed parameter" % c.spelling)
                role, base = classify(a.type, a.spelling)
                params.append((a.spelling, role, base))
            f = Function(c.spelling, result_kind(c.result_type), params, os.path.basename(path))
            f.doc = clean_comment(c.raw_comment)
            functions.append(f)
        elif c.kind == ci.CursorKind.MACRO_DEFINITION and c.spelling.startswith("TFE_"):
            tokens = [t.spelling for t in c.get_tokens()][1:]
            value = eval_integer(tokens)
            if value is not None:
                constants.append((c.spelling, value))
    if not functions:
        die("no tfe_ functions found")
    check_names(functions, constants)
    return functions, constants


def clean_comment(raw):
    """The text of a /** ... */ comment up to its first @tag, without the comment marks."""
    if not raw:
        return ""
    text = re.sub(r"^/\*\*|\*/$", "", raw.strip())
    text = " ".join(re.sub(r"^\s*\*", "", line) for line in text.splitlines())
    return text.split("@", 1)[0].strip()


def eval_integer(tokens):
    """The value of an integer-literal expression, or None (attributes, empty macros)."""
    if not tokens:
        return None
    text = []
    for tok in tokens:
        if re.fullmatch(r"[0-9]+([uU]?[lL]{0,2}|[lL]{1,2}[uU]?)", tok):
            text.append(re.sub(r"[uUlL]+$", "", tok))
        elif tok in ("(", ")", "-", "+", "*", "<<", "|", "~"):
            text.append(tok)
        else:
            return None
    return int(eval(" ".join(text), {"__builtins__": {}}, {}))


def check_names(functions, constants):
    if len(set(f.name.lower() for f in functions)) != len(functions):
        die("two functions differ only in case")
    for name in [f.name for f in functions] + [c[0] for c in constants]:
        if len(name) + len(FORTRAN_CLASH_SUFFIX) > 63:
            die("name %s is too long for Fortran's 63 characters" % name)


# Fortran names ignore case, so a constant TFE_X and a function tfe_x would be one name there
# (TFE_ABI_VERSION and tfe_abi_version): the Fortran constant gets this suffix.
FORTRAN_CLASH_SUFFIX = "_VALUE"


def fortran_constant_names(functions, constants):
    taken = set(f.name.lower() for f in functions)
    names = {}
    for name, _ in constants:
        fname = name
        while fname.lower() in taken:
            fname += FORTRAN_CLASH_SUFFIX
        taken.add(fname.lower())
        names[name] = fname
    return names


# ---------------------------------------------------------------------------------------------
# Fortran raw layer

F_VALUE = {"int32_t": "integer(c_int32_t)", "int64_t": "integer(c_int64_t)",
           "uint64_t": "integer(c_int64_t)", "double": "real(c_double)"}


def fortran_dummy(name, role, base):
    """Declaration of one dummy; data pointers are OPTIONAL so that an absent argument is NULL
    (strides, needed, the cache_stats outputs), which the header allows where it says so."""
    if role == "value":
        return "%s, value :: %s" % (F_VALUE[base], name)
    if role in ("handle", "address"):
        return "type(c_ptr), value :: %s" % name
    if role == "funptr":
        return "type(c_funptr), value :: %s" % name
    if role in ("handle_out", "address_out"):
        return "type(c_ptr), intent(out) :: %s" % name
    if role == "handle_array_out":
        return "type(c_ptr), intent(out) :: %s(*)" % name
    if role == "handle_array_in":
        return "type(c_ptr), intent(in) :: %s(*)" % name
    if role == "array_in":
        return "%s, intent(in), optional :: %s(*)" % (F_VALUE[base], name)
    if role == "array_out":
        return "%s, intent(out), optional :: %s(*)" % (F_VALUE[base], name)
    if role == "scalar_out":
        return "%s, intent(out), optional :: %s" % (F_VALUE[base], name)
    if role == "chars_out":
        return "character(kind=c_char), intent(out), optional :: %s(*)" % name
    if role == "chars_in":
        return "character(kind=c_char), intent(in) :: %s(*)" % name
    die("no Fortran form for role " + role)


def fortran_constant(name, value):
    if -2**31 <= value < 2**31:
        return "integer(c_int32_t), parameter, public :: %s = %d" % (name, value)
    if value == -2**63:
        # The most negative int64 has no literal of its own.
        lit = "-9223372036854775807_c_int64_t - 1_c_int64_t"
    else:
        lit = "%d_c_int64_t" % value
    return "integer(c_int64_t), parameter, public :: %s = %s" % (name, lit)


def wrap_args(head, names, indent):
    """A call or header line broken before Fortran's 132-column limit."""
    lines, line = [], head + "("
    for i, n in enumerate(names):
        piece = n + (", " if i + 1 < len(names) else ")")
        if len(line) + len(piece) > 96:
            lines.append(line.rstrip() + " &")
            line = " " * (indent + 4) + piece
        else:
            line += piece
    if not names:
        line += ")"
    lines.append(line)
    return lines


def emit_fortran_raw(functions, constants):
    out = ["! Generated by tools/gen_bindings/generate.sh from the headers in include/tenferro; do not edit.",
           "! The raw layer: one bind(C) interface per tfe_ function and every TFE_ constant.",
           "! Handles are type(c_ptr); data pointers are OPTIONAL dummies (absent = NULL).",
           "module tenferro_c",
           "  use, intrinsic :: iso_c_binding, only: " + ", ".join(FORTRAN_INTRINSIC_KINDS),
           "  implicit none",
           "  private", ""]
    fnames = fortran_constant_names(functions, constants)
    for name, value in constants:
        out.append("  " + fortran_constant(fnames[name], value))
    out.append("")
    for f in functions:
        out.append("  public :: " + f.name)
    out += ["", "  interface"]
    for f in functions:
        names = [p[0] for p in f.params]
        kinds = set()
        for _, role, base in f.params:
            decl = fortran_dummy(_, role, base)
            kinds.update(k for k in FORTRAN_INTRINSIC_KINDS if re.search(r"\b%s\b" % k, decl))
        if f.result == "void":
            head = "    subroutine " + f.name
            tail = "bind(C, name='%s')" % f.name
        else:
            head = "    function " + f.name
            tail = "bind(C, name='%s') result(res)" % f.name
            kinds.add({"int32_t": "c_int32_t", "int64_t": "c_int64_t",
                       "string": "c_ptr"}[f.result])
        if "res" in names:
            die("%s: a parameter named res would hide the result" % f.name)
        lines = wrap_args(head, names, 4)
        lines[-1] += " &"
        lines.append("        " + tail)
        out += lines
        if kinds:
            out.append("      import :: " + ", ".join(k for k in FORTRAN_INTRINSIC_KINDS if k in kinds))
        for name, role, base in f.params:
            out.append("      " + fortran_dummy(name, role, base))
        if f.result == "void":
            out.append("    end subroutine " + f.name)
        else:
            out.append("      " + {"int32_t": "integer(c_int32_t)", "int64_t": "integer(c_int64_t)",
                                   "string": "type(c_ptr)"}[f.result] + " :: res")
            out.append("    end function " + f.name)
    out += ["  end interface", "end module tenferro_c", ""]
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------
# Fortran idiomatic procedures for the regular signatures
#
# A function qualifies when its parameters are: one or more leading tensor outputs, then tensor
# inputs, int32/int64/double values, (int32 count, const int64_t* array) pairs, (int32 count,
# tfe_tensor* const* array) pairs and an optional trailing linalg options handle. Everything else
# (creation, AD, traced programs, memory exchange) is written by hand in tenferro.f90.

# Ops whose function form would only duplicate an operator of the module.
OPERATOR_ONLY = {"tfe_add", "tfe_sub", "tfe_mul", "tfe_div", "tfe_pow", "tfe_neg"}
# Function forms that need another name than the C one: a Fortran intrinsic with another
# meaning, or a keyword-like name.
FUNCTION_NAMES = {"tfe_ceil": "ceiling", "tfe_imag": "aimag", "tfe_conj": "conjg",
                  "tfe_select": "where_select", "tfe_reduce_max": "maxval",
                  "tfe_reduce_min": "minval", "tfe_prod": "product"}
# Hand-written in tenferro.f90 (defaults that the generic pattern cannot express).
HAND_WRITTEN = {"tfe_transpose", "tfe_tensor_contiguous", "tfe_tensor_detach", "tfe_tensor_grad",
                "tfe_tensor_context"}


def idiomatic_plan(f):
    if f.result != "int32_t" or f.name in HAND_WRITTEN:
        return None
    ps = list(f.params)
    outs = []
    while ps and ps[0][1] == "handle_out" and ps[0][2] == "tfe_tensor":
        outs.append(ps.pop(0)[0])
    if not outs:
        return None
    args, i = [], 0
    while i < len(ps):
        name, role, base = ps[i]
        nxt = ps[i + 1] if i + 1 < len(ps) else None
        if role == "handle" and base == "tfe_linalg_options" and i == len(ps) - 1:
            args.append(("opts", name))
        elif role == "handle" and base == "tfe_tensor":
            args.append(("tensor", name))
        elif role == "handle":
            return None
        elif role == "value" and base == "int32_t" and nxt and nxt[1] == "array_in" \
                and nxt[2] == "int64_t":
            args.append(("ints", nxt[0], name))
            i += 1
        elif role == "value" and base == "int32_t" and nxt and nxt[1] == "handle_array_in" \
                and nxt[2] == "tfe_tensor":
            args.append(("tensors", nxt[0], name))
            i += 1
        elif role == "value":
            args.append(("value", name, base))
        else:
            return None
        i += 1
    if not any(a[0] in ("tensor", "tensors") for a in args):
        return None
    if any(p[1] == "handle_out" for p in ps):
        return None
    return outs, args


def f_short(fname):
    return fname[len("tfe_"):]


def emit_fortran_ops(functions):
    decl, body, covered = [], [], []
    generics = {}
    for f in functions:
        plan = idiomatic_plan(f)
        if plan is None:
            continue
        outs, args = plan
        short = f_short(f.name)
        covered.append(f.name)
        sub = "tf_" + short
        # Subroutine form: outputs first, then inputs, then stat= / errmsg=.
        dummies = outs + [a[1] for a in args] + ["stat", "errmsg"]
        lines = wrap_args("  subroutine " + sub, dummies, 2)
        lines.append("    type(tf_tensor), intent(inout) :: " + ", ".join(outs))
        lines += arg_decls(args, optional_opts=True)
        lines.append("    integer, intent(out), optional :: stat")
        lines.append("    character(len=*), intent(inout), optional :: errmsg")
        lines += call_block(f, outs, args)
        lines.append("    call tf_finish_(st, '%s', stat, errmsg)" % sub)
        lines.append("    if (st /= TFE_OK) return")
        for o in outs:
            lines.append("    call %s%%take_(h_%s)" % (o, o))
        lines.append("  end subroutine " + sub)
        body += lines + [""]
        decl.append(sub)
        # Function form for single-output ops: an expression that assignment consumes.
        if len(outs) == 1 and f.name not in OPERATOR_ONLY:
            gname = FUNCTION_NAMES.get(f.name, short)
            fn = "tf_fn_" + short + "_"
            names = [a[1] for a in args]
            lines = wrap_args("  function " + fn, names, 2)
            lines[-1] += " result(res)"
            lines += arg_decls(args, optional_opts=True)
            lines.append("    type(tf_expr) :: res")
            lines += call_block(f, ["res"], args, out_var={"res": "res%h"})
            lines.append("    call tf_finish_(st, '%s')" % gname)
            lines.append("  end function " + fn)
            body += lines + [""]
            generics.setdefault(gname, []).append(fn)
    out = ["! Generated by tools/gen_bindings/generate.sh from the headers in include/tenferro; do not edit.",
           "! Included in the specification part of module tenferro."]
    for name in decl:
        out.append("  public :: " + name)
    for gname in sorted(generics):
        out.append("  public :: " + gname)
        out.append("  interface " + gname)
        out.append("    module procedure " + ", ".join(generics[gname]))
        out.append("  end interface " + gname)
    decl_text = "\n".join(out) + "\n"
    body_text = ("! Generated by tools/gen_bindings/generate.sh from the headers in include/tenferro; "
                 "do not edit.\n! Included after CONTAINS in module tenferro. Covers: "
                 + str(len(covered)) + " functions.\n\n" + "\n".join(body))
    return decl_text, body_text


def arg_decls(args, optional_opts):
    lines = []
    for a in args:
        if a[0] == "tensor":
            lines.append("    class(tf_value), intent(in) :: " + a[1])
        elif a[0] == "tensors":
            lines.append("    type(tf_tensor), intent(in) :: %s(:)" % a[1])
        elif a[0] == "ints":
            # An absent list is the empty one (every axis for the reductions).
            lines.append("    integer, intent(in), optional :: %s(:)" % a[1])
        elif a[0] == "value":
            kind = {"int32_t": "integer", "int64_t": "integer", "double": "real(c_double)"}[a[2]]
            lines.append("    %s, intent(in) :: %s" % (kind, a[1]))
        elif a[0] == "opts":
            lines.append("    type(tf_linalg_options), intent(in)%s :: %s" %
                         (", optional" if optional_opts else "", a[1]))
    return lines


def call_block(f, outs, args, out_var=None):
    out_var = out_var or {}
    lines = ["    integer(c_int32_t) :: st"]
    for o in outs:
        if o not in out_var:
            lines.append("    type(c_ptr) :: h_" + o)
    for a in args:
        if a[0] == "tensors":
            lines.append("    type(c_ptr), allocatable :: hs_%s(:)" % a[1])
            lines.append("    integer :: i_%s" % a[1])
        if a[0] == "ints":
            lines.append("    integer(c_int64_t), allocatable :: v_%s(:)" % a[1])
        if a[0] == "opts":
            lines.append("    type(c_ptr) :: h_%s" % a[1])
    for a in args:
        if a[0] == "opts":
            # The C options object lives for this call only: tf_linalg_options is a plain value.
            lines.append("    h_%s = tf_opts_make_(%s)" % (a[1], a[1]))
        if a[0] == "tensors":
            lines.append("    allocate(hs_%s(size(%s)))" % (a[1], a[1]))
            lines.append("    do i_%s = 1, size(%s)" % (a[1], a[1]))
            lines.append("      hs_%s(i_%s) = %s(i_%s)%%h" % (a[1], a[1], a[1], a[1]))
            lines.append("    end do")
        if a[0] == "ints":
            lines.append("    if (present(%s)) then" % a[1])
            lines.append("      v_%s = int(%s, c_int64_t)" % (a[1], a[1]))
            lines.append("    else")
            lines.append("      allocate(v_%s(0))" % a[1])
            lines.append("    end if")
    cargs = [out_var.get(o, "h_" + o) for o in outs]
    for a in args:
        if a[0] == "tensor":
            cargs.append(a[1] + "%h")
        elif a[0] == "tensors":
            cargs += ["int(size(%s), c_int32_t)" % a[1], "hs_" + a[1]]
        elif a[0] == "ints":
            cargs += ["int(size(v_%s), c_int32_t)" % a[1], "v_" + a[1]]
        elif a[0] == "value":
            conv = {"int32_t": "int(%s, c_int32_t)", "int64_t": "int(%s, c_int64_t)",
                    "double": "%s"}[a[2]]
            cargs.append(conv % a[1])
        elif a[0] == "opts":
            cargs.append("h_" + a[1])
    lines += wrap_args("    st = " + f.name, cargs, 4)
    for a in args:
        if a[0] == "tensor":
            lines.append("    call tf_consume_(%s)" % a[1])
        if a[0] == "opts":
            lines.append("    call tfe_linalg_options_release(h_%s)" % a[1])
    return lines


# ---------------------------------------------------------------------------------------------
# Julia

JL_VALUE = {"int32_t": "Int32", "int64_t": "Int64", "uint64_t": "UInt64", "double": "Cdouble"}
JL_KEYWORDS = {"begin", "end", "function", "type", "module", "global", "local", "let", "do",
               "for", "while", "if", "else", "elseif", "try", "catch", "finally", "return",
               "struct", "mutable", "abstract", "primitive", "quote", "macro", "const",
               "import", "using", "export", "baremodule", "break", "continue", "where", "in",
               "isa"}


def jl_type(role, base):
    return {
        "value": lambda: JL_VALUE[base],
        "handle": lambda: "Ptr{Cvoid}",
        "address": lambda: "Ptr{Cvoid}",
        "funptr": lambda: "Ptr{Cvoid}",
        "handle_out": lambda: "Ptr{Ptr{Cvoid}}",
        "address_out": lambda: "Ptr{Ptr{Cvoid}}",
        "handle_array_out": lambda: "Ptr{Ptr{Cvoid}}",
        "handle_array_in": lambda: "Ptr{Ptr{Cvoid}}",
        "array_in": lambda: "Ptr{%s}" % JL_VALUE[base],
        "array_out": lambda: "Ptr{%s}" % JL_VALUE[base],
        "scalar_out": lambda: "Ptr{%s}" % JL_VALUE[base],
        "chars_out": lambda: "Ptr{UInt8}",
        "chars_in": lambda: "Cstring",
    }[role]()


def jl_constant(name, value):
    if -2**31 <= value < 2**31:
        return "const %s = Int32(%d)" % (name, value)
    if value == -2**63:
        return "const %s = typemin(Int64)" % name
    return "const %s = Int64(%d)" % (name, value)


def emit_julia(functions, constants):
    out = ["# Generated by tools/gen_bindings/generate.sh from the headers in include/tenferro; do not edit.",
           "# The raw layer: TFE_ constants and one ccall wrapper per tfe_ function. Handles are",
           "# Ptr{Cvoid}; pass Ref{Ptr{Cvoid}}() for an output handle and C_NULL for an absent",
           "# pointer. Each wrapper resolves its symbol once, at the first call, through",
           "# `_tfe_symbol` (defined in Tenferro.jl), so the library is chosen at run time.", ""]
    for name, value in constants:
        out.append(jl_constant(name, value))
    out.append("")
    for f in functions:
        names = [(p[0] + "_" if p[0] in JL_KEYWORDS else p[0]) for p in f.params]
        types = [jl_type(role, base) for _, role, base in f.params]
        ret = {"void": "Cvoid", "int32_t": "Int32", "int64_t": "Int64",
               "string": "Cstring"}[f.result]
        tuple_text = "(" + ", ".join(types) + ("," if len(types) == 1 else "") + ")"
        cache = "_fp_" + f.name
        out.append("const %s = Ref{Ptr{Cvoid}}(C_NULL)" % cache)
        out.append("function %s(%s)" % (f.name, ", ".join(names)))
        out.append("    fp = %s[]" % cache)
        out.append("    if fp == C_NULL")
        out.append("        fp = _tfe_symbol(:%s)" % f.name)
        out.append("        %s[] = fp" % cache)
        out.append("    end")
        call = "    ccall(fp, %s, %s%s)" % (ret, tuple_text,
                                            "".join(", " + n for n in names))
        out.append(call)
        out.append("end")
        out.append("")
    out.append("const TFE_GENERATED_FUNCTIONS = (")
    for f in functions:
        out.append("    :%s," % f.name)
    out.append(")")
    out.append("")
    return "\n".join(out)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(here)))
    ap.add_argument("--out", default=None)
    opt = ap.parse_args()
    root = os.path.abspath(opt.root)
    dest = os.path.abspath(opt.out or root)
    functions, constants = parse(root)
    decl, body = emit_fortran_ops(functions)
    write(os.path.join(dest, "bindings/fortran/src/tenferro_c.f90"),
          emit_fortran_raw(functions, constants))
    write(os.path.join(dest, "bindings/fortran/src/tenferro_ops_decl.inc"), decl)
    write(os.path.join(dest, "bindings/fortran/src/tenferro_ops.inc"), body)
    write(os.path.join(dest, "bindings/julia/Tenferro/src/generated.jl"),
          emit_julia(functions, constants))
    for rel, text in linalg_fronts.outputs(functions, root):
        write(os.path.join(dest, rel), text)
    print("gen_bindings: %d functions, %d constants" % (len(functions), len(constants)))


if __name__ == "__main__":
    main()
