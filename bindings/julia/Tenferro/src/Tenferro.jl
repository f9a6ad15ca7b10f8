"""
    Tenferro

Julia interface to tenferro's C library. The library is loaded at the first call from
`ENV["TENFERRO_LIB"]` (a path) or, when unset, the loader name `libtenferro`.
tenferro is column-major and broadcasts left-aligned, exactly as Julia: a `Tensor(a)` has
`size(a)` and no transpose happens either way.
"""
module Tenferro

using Libdl
using LinearAlgebra
import LinearAlgebra: eigen, svd, qr, cholesky, det, inv

export Tensor, Context, TracedFunction
export TenferroError, InvalidArgumentError, ShapeMismatchError, DtypeMismatchError,
       AllocationError, NotSupportedError, DeviceError, NotDifferentiableError, SingularError,
       NonConvergenceError, NumericalError, InternalError, UnknownStatusError
export default_context, dtype, requires_grad!, requires_grad, backward!, grad, gradient, vjp,
       jvp, traced, live_objects, shared_array, device_count, device, to_device, on_device

const _LIB = Ref{Ptr{Cvoid}}(C_NULL)
const _LIB_LOCK = ReentrantLock()

function _tfe_symbol(s::Symbol)
    lib = _LIB[]
    if lib == C_NULL
        lock(_LIB_LOCK) do
            if _LIB[] == C_NULL
                handle = Libdl.dlopen(get(ENV, "TENFERRO_LIB", "libtenferro"))
                # The wrappers were generated from headers of one ABI version: refuse a library
                # of another before any call goes through them.
                version = ccall(Libdl.dlsym(handle, :tfe_abi_version), Int32, ())
                version == TFE_ABI_VERSION || error("Tenferro: libtenferro has ABI version " *
                    "$version; this package was generated for $TFE_ABI_VERSION")
                _LIB[] = handle
            end
        end
        lib = _LIB[]
    end
    return Libdl.dlsym(lib, s)
end

include("generated.jl")

# ---- errors --------------------------------------------------------------------------------

"Every failing call throws a subtype of this, carrying the library's one-line message."
abstract type TenferroError <: Exception end

struct InvalidArgumentError <: TenferroError
    msg::String
end
struct ShapeMismatchError <: TenferroError
    msg::String
end
struct DtypeMismatchError <: TenferroError
    msg::String
end
struct AllocationError <: TenferroError
    msg::String
end
struct NotSupportedError <: TenferroError
    msg::String
end
struct DeviceError <: TenferroError
    msg::String
end
struct NotDifferentiableError <: TenferroError
    msg::String
end
struct SingularError <: TenferroError
    msg::String
end
struct NonConvergenceError <: TenferroError
    msg::String
end
struct NumericalError <: TenferroError
    msg::String
end
struct InternalError <: TenferroError
    msg::String
end
"A status this version does not know (codes are append-only)."
struct UnknownStatusError <: TenferroError
    status::Int32
    msg::String
end

Base.showerror(io::IO, e::TenferroError) = print(io, nameof(typeof(e)), ": ", e.msg)

function _error_for(st::Int32, msg::String)
    st == TFE_ERR_INVALID_ARGUMENT && return InvalidArgumentError(msg)
    st == TFE_ERR_SHAPE_MISMATCH && return ShapeMismatchError(msg)
    st == TFE_ERR_DTYPE_MISMATCH && return DtypeMismatchError(msg)
    st == TFE_ERR_OUT_OF_MEMORY && return AllocationError(msg)
    st == TFE_ERR_NOT_SUPPORTED && return NotSupportedError(msg)
    st == TFE_ERR_DEVICE && return DeviceError(msg)
    st == TFE_ERR_NOT_DIFFERENTIABLE && return NotDifferentiableError(msg)
    st == TFE_ERR_SINGULAR && return SingularError(msg)
    st == TFE_ERR_NON_CONVERGENCE && return NonConvergenceError(msg)
    st == TFE_ERR_NUMERICAL && return NumericalError(msg)
    st == TFE_ERR_INTERNAL && return InternalError(msg)
    return UnknownStatusError(st, msg)
end

function _check(st::Integer)
    st == TFE_OK && return nothing
    # The message is per thread and read before any other library call can replace it.
    msg = unsafe_string(tfe_last_error_message())
    throw(_error_for(Int32(st), msg))
end

"Number of live library handles (contexts and tensors); 0 once everything was released."
live_objects() = tfe_debug_live_objects()

# ---- contexts ------------------------------------------------------------------------------

"""
    Context(; dataflow=false, scheduler=TFE_SCHEDULER_THREADS, threads=0)

An eager context, or a dataflow one (ops return at once and run on a scheduler).
"""
mutable struct Context
    ptr::Ptr{Cvoid}
    function Context(; dataflow::Bool=false, scheduler::Integer=TFE_SCHEDULER_THREADS,
                     threads::Integer=0)
        r = Ref{Ptr{Cvoid}}(C_NULL)
        if dataflow
            _check(tfe_context_create_dataflow(r, Int32(scheduler), Int32(threads)))
        else
            _check(tfe_context_create(r))
        end
        c = new(r[])
        finalizer(_release!, c)
        return c
    end
end

function _release!(c::Context)
    p = c.ptr
    c.ptr = C_NULL
    tfe_context_release(p)
    return nothing
end

const _DEFAULT_CONTEXT = Ref{Union{Nothing,Context}}(nothing)
const _DEFAULT_LOCK = ReentrantLock()

"The eager context used when none is given (created at first use)."
function default_context()
    lock(_DEFAULT_LOCK) do
        if _DEFAULT_CONTEXT[] === nothing
            _DEFAULT_CONTEXT[] = Context()
        end
        return _DEFAULT_CONTEXT[]::Context
    end
end

# ---- tensors -------------------------------------------------------------------------------

const _DTYPES = Dict{DataType,Int32}(Bool => TFE_BOOL, Int32 => TFE_I32, Int64 => TFE_I64,
                                     Float32 => TFE_F32, Float64 => TFE_F64,
                                     ComplexF32 => TFE_C32, ComplexF64 => TFE_C64)
const _JULIA_TYPES = Dict{Int32,DataType}(v => k for (k, v) in _DTYPES)

"""
    Tensor(a::AbstractArray; ctx=default_context(), copy=true)
    Tensor(x::Number; ctx=default_context())

A tensor with the shape and values of `a` (column-major, as Julia). With `copy=false` and a
dense `Array`, the tensor borrows `a`'s memory instead of copying: `a` must then stay
unmodified, and every tensor sharing that memory (views made from it by transpose, reshape,
slicing, broadcasting, and values an AD trace keeps) must be released before `a` can be
collected; the Tensor itself keeps `a` reachable, derived tensors do not.
"""
mutable struct Tensor
    ptr::Ptr{Cvoid}
    keep::Any
    function Tensor(ptr::Ptr{Cvoid}, keep=nothing)
        ptr == C_NULL && throw(InvalidArgumentError("Tensor: NULL handle"))
        t = new(ptr, keep)
        finalizer(_release!, t)
        return t
    end
end

function _release!(t::Tensor)
    p = t.ptr
    t.ptr = C_NULL
    t.keep = nothing
    tfe_tensor_release(p)
    return nothing
end

function _handle(t::Tensor)
    t.ptr == C_NULL && throw(InvalidArgumentError("Tensor: already released"))
    return t.ptr
end

# A call with handle outputs: `f(r)` fills r, its status is checked, then the new reference is
# wrapped at once so that a later exception cannot leak it.
function _new(f)
    r = Ref{Ptr{Cvoid}}(C_NULL)
    _check(f(r))
    return Tensor(r[])
end

function _new_many(f, n::Integer)
    rs = fill(C_NULL, n)
    _check(f(rs))
    return Tuple(Tensor(p) for p in rs)
end

_dtype_of(::Type{T}) where {T} =
    haskey(_DTYPES, T) ? _DTYPES[T] : throw(DtypeMismatchError("Tensor: no dtype for $T"))

function Tensor(a::AbstractArray{T}; ctx::Context=default_context(), copy::Bool=true) where {T}
    d = _dtype_of(T)
    shape = Int64[size(a)...]
    if !copy && a isa Array
        GC.@preserve a begin
            t = _new(r -> tfe_tensor_from_buffer(r, ctx.ptr, d, Int32(ndims(a)), shape, C_NULL,
                                                 pointer(a), C_NULL, C_NULL))
        end
        t.keep = a
        return t
    end
    dense = convert(Array{T}, a)
    GC.@preserve dense begin
        return _new(r -> tfe_tensor_from_data(r, ctx.ptr, d, Int32(ndims(dense)), shape, C_NULL,
                                              pointer(dense)))
    end
end

function Tensor(x::Number; ctx::Context=default_context())
    a = fill(x)
    return Tensor(a; ctx=ctx)
end

"The element type code of t (TFE_F64, ...)."
function dtype(t::Tensor)
    r = Ref{Int32}(0)
    _check(tfe_tensor_dtype(_handle(t), r))
    return r[]
end

Base.eltype(t::Tensor) = _JULIA_TYPES[dtype(t)]

function Base.ndims(t::Tensor)
    r = Ref{Int32}(0)
    _check(tfe_tensor_ndim(_handle(t), r))
    return Int(r[])
end

function Base.size(t::Tensor)
    n = ndims(t)
    s = zeros(Int64, n)
    _check(tfe_tensor_shape(_handle(t), n == 0 ? C_NULL : pointer(s)))
    return Tuple(Int.(s))
end
Base.size(t::Tensor, d::Integer) = size(t)[d]

function Base.length(t::Tensor)
    r = Ref{Int64}(0)
    _check(tfe_tensor_numel(_handle(t), r))
    return Int(r[])
end

"A copy of t's values as an Array of its element type and shape."
function Base.Array(t::Tensor)
    T = eltype(t)
    a = Array{T}(undef, size(t)...)
    GC.@preserve a begin
        _check(tfe_tensor_to_data(_handle(t), pointer(a), Int64(sizeof(a))))
    end
    return a
end
Base.Array{T}(t::Tensor) where {T} = convert(Array{T}, Array(t))
Base.collect(t::Tensor) = Array(t)
Base.getindex(t::Tensor) = Array(t)[]

"""
    shared_array(t::Tensor) -> Array

The values of t without copying when t is compact column-major (else a copy). The array must not
be written to; it holds a reference to t's storage, dropped when the array is collected.
"""
function shared_array(t::Tensor)
    c = _new(r -> tfe_tensor_contiguous(r, _handle(t)))
    p = Ref{Ptr{Cvoid}}(C_NULL)
    _check(tfe_tensor_data(_handle(c), p))
    T = eltype(c)
    if p[] == C_NULL
        return Array(c)
    end
    a = unsafe_wrap(Array, Ptr{T}(p[]), size(c); own=false)
    # The array's finalizer owns c, so the storage lives exactly as long as the array.
    finalizer(_ -> _release!(c), a)
    return a
end

function Base.show(io::IO, t::Tensor)
    if t.ptr == C_NULL
        print(io, "Tensor(released)")
    else
        print(io, "Tensor{", eltype(t), "}", size(t))
    end
end

function _context_of(t::Tensor)
    r = Ref{Ptr{Cvoid}}(C_NULL)
    _check(tfe_tensor_context(r, _handle(t)))
    return r[]
end

# A Julia number next to a tensor takes the tensor's float dtype (so 2 * x keeps an F32 x in
# F32) and F64 next to integer and Bool tensors, or the tensor's integer dtype for integers.
function _scalar_like(t::Tensor, x::Number)
    d = dtype(t)
    T = if d == TFE_F32 || d == TFE_C32
        x isa Complex ? ComplexF32 : Float32
    elseif d == TFE_F64 || d == TFE_C64
        x isa Complex ? ComplexF64 : Float64
    elseif x isa Integer && (d == TFE_I32 || d == TFE_I64)
        _JULIA_TYPES[d]
    else
        x isa Complex ? ComplexF64 : Float64
    end
    a = fill(convert(T, x))
    ctx = _context_of(t)
    try
        GC.@preserve a begin
            return _new(r -> tfe_tensor_from_data(r, ctx, _dtype_of(T), Int32(0), C_NULL, C_NULL,
                                                  pointer(a)))
        end
    finally
        tfe_context_release(ctx)
    end
end

# ---- arithmetic and broadcasting -------------------------------------------------------------
# tenferro's elementwise ops broadcast left-aligned like Julia's, so a dotted call maps to one
# library call. Undotted `*`, `^` and `exp` keep their linear-algebra meaning, as for matrices.

_binary(f, a::Tensor, b::Tensor) = _new(r -> f(r, _handle(a), _handle(b)))
_binary(f, a::Tensor, b::Number) = _binary(f, a, _scalar_like(a, b))
_binary(f, a::Number, b::Tensor) = _binary(f, _scalar_like(b, a), b)
_unary(f, a::Tensor) = _new(r -> f(r, _handle(a)))

Base.:+(a::Tensor, b::Tensor) = _binary(tfe_add, a, b)
Base.:-(a::Tensor, b::Tensor) = _binary(tfe_sub, a, b)
Base.:-(a::Tensor) = _unary(tfe_neg, a)
Base.:*(a::Tensor, b::Number) = _binary(tfe_mul, a, b)
Base.:*(a::Number, b::Tensor) = _binary(tfe_mul, a, b)
Base.:/(a::Tensor, b::Number) = _binary(tfe_div, a, b)
Base.:*(a::Tensor, b::Tensor) = _binary(tfe_matmul, a, b)
Base.:\(a::Tensor, b::Tensor) = _binary(tfe_linalg_solve, a, b)
Base.:^(a::Tensor, n::Integer) = _new(r -> tfe_linalg_matrix_power(r, _handle(a), Int64(n)))
Base.exp(a::Tensor) = _unary(tfe_linalg_matrix_exp, a)
Base.transpose(a::Tensor) = permutedims(a, ndims(a):-1:1)
Base.adjoint(a::Tensor) = _unary(tfe_conj, transpose(a))

function Base.permutedims(a::Tensor, perm)
    p = Int64[i - 1 for i in perm]
    return _new(r -> tfe_transpose(r, _handle(a), Int32(length(p)), p))
end

function Base.reshape(a::Tensor, dims::Integer...)
    s = Int64[dims...]
    return _new(r -> tfe_reshape(r, _handle(a), Int32(length(s)), s))
end
Base.reshape(a::Tensor, dims::Tuple) = reshape(a, dims...)

# Julia's dims count from 1; the library's axes from 0.
function _axes(dims)
    dims === Colon() && return Int64[]
    return Int64[d - 1 for d in dims]
end

function Base.sum(a::Tensor; dims=Colon())
    ax = _axes(dims)
    return _new(r -> tfe_sum(r, _handle(a), Int32(length(ax)), isempty(ax) ? C_NULL : pointer(ax)))
end

function Base.prod(a::Tensor; dims=Colon())
    ax = _axes(dims)
    return _new(r -> tfe_prod(r, _handle(a), Int32(length(ax)), isempty(ax) ? C_NULL : pointer(ax)))
end

function Base.maximum(a::Tensor; dims=Colon())
    ax = _axes(dims)
    return _new(r -> tfe_reduce_max(r, _handle(a), Int32(length(ax)),
                                    isempty(ax) ? C_NULL : pointer(ax)))
end

function Base.minimum(a::Tensor; dims=Colon())
    ax = _axes(dims)
    return _new(r -> tfe_reduce_min(r, _handle(a), Int32(length(ax)),
                                    isempty(ax) ? C_NULL : pointer(ax)))
end

Base.broadcastable(t::Tensor) = Ref(t)

const _BINARY_BROADCAST = ((+, tfe_add), (-, tfe_sub), (*, tfe_mul), (/, tfe_div),
                           (^, tfe_pow), (max, tfe_maximum), (min, tfe_minimum),
                           (atan, tfe_atan2), (&, tfe_and), (|, tfe_or), (xor, tfe_xor))
for (jf, cf) in _BINARY_BROADCAST
    @eval Base.broadcasted(::typeof($jf), a::Tensor, b::Tensor) = _binary($cf, a, b)
    @eval Base.broadcasted(::typeof($jf), a::Tensor, b::Number) = _binary($cf, a, b)
    @eval Base.broadcasted(::typeof($jf), a::Number, b::Tensor) = _binary($cf, a, b)
end

const _COMPARE_BROADCAST = ((==, TFE_CMP_EQ), (!=, TFE_CMP_NE), (<, TFE_CMP_LT),
                            (<=, TFE_CMP_LE), (>, TFE_CMP_GT), (>=, TFE_CMP_GE))
for (jf, dir) in _COMPARE_BROADCAST
    @eval Base.broadcasted(::typeof($jf), a::Tensor, b::Tensor) =
        _new(r -> tfe_compare(r, _handle(a), _handle(b), $dir))
    @eval Base.broadcasted(::typeof($jf), a::Tensor, b::Number) =
        Base.broadcasted($jf, a, _scalar_like(a, b))
    @eval Base.broadcasted(::typeof($jf), a::Number, b::Tensor) =
        Base.broadcasted($jf, _scalar_like(b, a), b)
end

const _UNARY_BROADCAST = ((exp, tfe_exp), (log, tfe_log), (sin, tfe_sin), (cos, tfe_cos),
                          (tan, tfe_tan), (tanh, tfe_tanh), (sqrt, tfe_sqrt), (sinh, tfe_sinh),
                          (cosh, tfe_cosh), (expm1, tfe_expm1), (log1p, tfe_log1p),
                          (abs, tfe_abs), (sign, tfe_sign), (floor, tfe_floor),
                          (ceil, tfe_ceil), (round, tfe_round), (conj, tfe_conj),
                          (real, tfe_real), (imag, tfe_imag), (-, tfe_neg), (!, tfe_not))
for (jf, cf) in _UNARY_BROADCAST
    @eval Base.broadcasted(::typeof($jf), a::Tensor) = _unary($cf, a)
end
Base.broadcasted(::typeof(identity), a::Tensor) = a
# x .^ 2 lowers through Base.literal_pow.
Base.broadcasted(::typeof(Base.literal_pow), ::typeof(^), a::Tensor, ::Val{p}) where {p} =
    _binary(tfe_pow, a, p)

Base.real(a::Tensor) = _unary(tfe_real, a)
Base.imag(a::Tensor) = _unary(tfe_imag, a)
Base.conj(a::Tensor) = _unary(tfe_conj, a)

# ---- linear algebra ------------------------------------------------------------------------

"`eigen(t)`: general (complex) eigenpairs; `eigen(t; hermitian=true)`: eigh, ascending."
function eigen(a::Tensor; hermitian::Bool=false)
    f = hermitian ? tfe_linalg_eigh : tfe_linalg_eig
    w, v = _new_many(rs -> f(pointer(rs, 1), pointer(rs, 2), _handle(a)), 2)
    return (values=w, vectors=v)
end

"Reduced SVD: `(U, S, Vt)` with A = U diag(S) Vt."
function svd(a::Tensor)
    u, s, vt = _new_many(rs -> tfe_linalg_svd(pointer(rs, 1), pointer(rs, 2), pointer(rs, 3),
                                              _handle(a)), 3)
    return (U=u, S=s, Vt=vt)
end

"Reduced QR: `(Q, R)`."
function qr(a::Tensor)
    q, r = _new_many(rs -> tfe_linalg_qr(pointer(rs, 1), pointer(rs, 2), _handle(a)), 2)
    return (Q=q, R=r)
end

"`(L=L,)` with A = L L^H, from the lower triangle of a."
cholesky(a::Tensor) = (L=_unary(tfe_linalg_cholesky, a),)
det(a::Tensor) = _unary(tfe_linalg_det, a)
inv(a::Tensor) = _unary(tfe_linalg_inv, a)

# ---- devices (docs/cuda.md) -----------------------------------------------------------------

"Number of usable CUDA GPUs: 0 without the CUDA plugin, a driver or a GPU."
function device_count()
    r = Ref{Int32}(0)
    _check(tfe_device_count(r))
    return Int(r[])
end

_device_code(d::Symbol, ordinal::Integer) =
    d === :cpu ? (TFE_DEVICE_CPU, Int32(ordinal)) :
    d === :cuda ? (TFE_DEVICE_CUDA, Int32(ordinal)) :
    throw(ArgumentError("device $d is not :cpu or :cuda"))

"Where t's elements live: (:cpu, 0) or (:cuda, ordinal)."
function device(t::Tensor)
    k, o = Ref{Int32}(0), Ref{Int32}(0)
    _check(tfe_tensor_device(_handle(t), k, o))
    return (k[] == TFE_DEVICE_CUDA ? :cuda : :cpu, Int(o[]))
end

"t on device `d` (:cpu or :cuda) with `ordinal`: the one transfer, differentiable like any op."
function to_device(t::Tensor, d::Symbol, ordinal::Integer=0)
    kind, o = _device_code(d, ordinal)
    return _new(r -> tfe_tensor_to_device(r, _handle(t), kind, o))
end

"""
    on_device(f, d, ordinal=0; ctx=default_context())

Runs f() with the creation functions of ctx on this thread creating on device d (:cpu or :cuda).
"""
function on_device(f, d::Symbol, ordinal::Integer=0; ctx::Context=default_context())
    kind, o = _device_code(d, ordinal)
    _check(tfe_device_scope_enter(ctx.ptr, kind, o))
    try
        return f()
    finally
        _check(tfe_device_scope_exit(ctx.ptr))
    end
end

# ---- eager AD ------------------------------------------------------------------------------

"Makes the leaf t a variable (or a plain tensor again with flag=false)."
function requires_grad!(t::Tensor, flag::Bool=true)
    _check(tfe_tensor_set_requires_grad(_handle(t), Int32(flag)))
    return t
end

function requires_grad(t::Tensor)
    r = Ref{Int32}(0)
    _check(tfe_tensor_requires_grad(_handle(t), r))
    return r[] != 0
end

"Accumulates d(seed . loss)/d(variable) into each variable's gradient (seed nothing: 1)."
function backward!(loss::Tensor; seed::Union{Nothing,Tensor}=nothing)
    _check(tfe_backward(_handle(loss), seed === nothing ? C_NULL : _handle(seed)))
    return nothing
end

"The stored gradient of variable t, or nothing."
function grad(t::Tensor)
    r = Ref{Ptr{Cvoid}}(C_NULL)
    _check(tfe_tensor_grad(r, _handle(t)))
    return r[] == C_NULL ? nothing : Tensor(r[])
end

"d(seed . y)/d(xs[i]) for each i (nothing where y does not depend on xs[i])."
function vjp(y::Tensor, xs::AbstractVector{Tensor}; seed::Union{Nothing,Tensor}=nothing)
    hx = Ptr{Cvoid}[_handle(x) for x in xs]
    out = fill(C_NULL, length(xs))
    GC.@preserve xs begin
        _check(tfe_vjp(out, _handle(y), Int32(length(xs)), hx,
                       seed === nothing ? C_NULL : _handle(seed)))
    end
    return [p == C_NULL ? nothing : Tensor(p) for p in out]
end

"The derivative of y along tangents[i] for xs[i] (tangents[i] nothing: zero)."
function jvp(y::Tensor, xs::AbstractVector{Tensor}, tangents::AbstractVector)
    length(xs) == length(tangents) ||
        throw(InvalidArgumentError("jvp: xs and tangents differ in length"))
    hx = Ptr{Cvoid}[_handle(x) for x in xs]
    ht = Ptr{Cvoid}[t === nothing ? C_NULL : _handle(t) for t in tangents]
    r = Ref{Ptr{Cvoid}}(C_NULL)
    GC.@preserve xs tangents begin
        _check(tfe_jvp(r, _handle(y), Int32(length(xs)), hx, ht))
    end
    return r[] == C_NULL ? nothing : Tensor(r[])
end

"""
    gradient(f, xs::Tensor...)

The gradients of the one-element result of `f(xs...)` with respect to each argument (a tuple;
nothing for an argument f does not depend on). The arguments are not modified: f receives
fresh variables sharing their values.
"""
function gradient(f, xs::Tensor...)
    leaves = Tensor[requires_grad!(_unary(tfe_tensor_detach, x)) for x in xs]
    y = f(leaves...)
    y isa Tensor || throw(InvalidArgumentError("gradient: f must return a Tensor"))
    return Tuple(vjp(y, leaves))
end

# ---- traced programs -----------------------------------------------------------------------

"A compiled program from symbolic inputs (see `traced`); call it with concrete Tensors."
mutable struct TracedFunction
    ptr::Ptr{Cvoid}
    function TracedFunction(ptr::Ptr{Cvoid})
        f = new(ptr)
        finalizer(_release!, f)
        return f
    end
end

function _release!(f::TracedFunction)
    p = f.ptr
    f.ptr = C_NULL
    tfe_function_release(p)
    return nothing
end

"""
    traced(f, inputs::Pair{DataType,<:Tuple}...; ctx=default_context())

Traces `f` on symbolic inputs, one `T => shape` pair per argument (a negative extent -k is
symbol k: inputs sharing it must agree at call time), and returns a TracedFunction.
"""
function traced(f, inputs::Pair...; ctx::Context=default_context())
    syms = Tensor[]
    for (T, shape) in inputs
        s = Int64[shape...]
        push!(syms, _new(r -> tfe_tensor_symbolic(r, ctx.ptr, _dtype_of(T), Int32(length(s)),
                                                  isempty(s) ? C_NULL : pointer(s))))
    end
    outs = f(syms...)
    outv = outs isa Tensor ? Tensor[outs] : Tensor[o for o in outs]
    hi = Ptr{Cvoid}[_handle(s) for s in syms]
    ho = Ptr{Cvoid}[_handle(o) for o in outv]
    r = Ref{Ptr{Cvoid}}(C_NULL)
    GC.@preserve syms outv begin
        _check(tfe_function_create(r, Int32(length(hi)), hi, Int32(length(ho)), ho))
    end
    return TracedFunction(r[])
end

function (f::TracedFunction)(args::Tensor...)
    ha = Ptr{Cvoid}[_handle(a) for a in args]
    r = Ref{Ptr{Cvoid}}(C_NULL)
    GC.@preserve args begin
        _check(tfe_function_call(r, f.ptr, Int32(length(ha)), ha))
    end
    res = r[]
    try
        n = Ref{Int32}(0)
        _check(tfe_results_count(res, n))
        outs = Tensor[]
        for i in 0:(n[] - 1)
            o = Ref{Ptr{Cvoid}}(C_NULL)
            _check(tfe_results_get(o, res, Int32(i)))
            push!(outs, Tensor(o[]))
        end
        return length(outs) == 1 ? outs[1] : Tuple(outs)
    finally
        tfe_results_release(res)
    end
end

end # module Tenferro
