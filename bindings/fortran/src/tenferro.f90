! Module tenferro: Fortran types and procedures over the C ABI (raw layer: module tenferro_c).
!
! Ownership design. A tf_tensor owns one reference to a C tensor and releases it in its final
! procedure; assigning one tf_tensor to another retains. No function of this module returns a
! tf_tensor: functions and operators return a tf_expr, a type with no final procedure whose
! reference is handed over exactly once, either to the tf_tensor it is assigned to (the defined
! assignment moves it, no retain) or to the operation it is an operand of (which releases it after
! the C call). Compilers differ on whether function results are finalized (gfortran 12 does not;
! the standard says they are); a type without a final procedure behaves the same under both, so no
! reference is leaked or released twice either way. The tf_expr type name is private: a program
! cannot declare a variable of it, so an expression cannot be stored and consumed twice.
! Subroutines take their outputs as intent(inout), never intent(out), so no compiler-dependent
! finalization happens on entry either: the old value is released when the new one is stored.
module tenferro
  use, intrinsic :: iso_c_binding
  use tenferro_c
  implicit none
  private

  public :: tf_tensor, tf_context, tf_linalg_options
  public :: tf_release, tf_is_defined, tf_live_objects, tf_last_error, tf_version
  public :: tf_context_create, tf_context_mode
  public :: tf_from_array, tf_view_array, tf_to_array
  public :: tf_dtype, tf_ndim, tf_numel, tf_shape, tf_item
  public :: tf_zeros, tf_ones, tf_full, tf_eye, tf_arange, tf_random_uniform, tf_random_normal
  public :: tf_transpose, transpose, tf_contiguous
  public :: tf_set_requires_grad, tf_requires_grad, tf_backward, tf_grad, tf_clear_grad
  public :: tf_detach, tf_vjp, tf_jvp
  public :: tf_no_grad_enter, tf_no_grad_exit, tf_capture_trace_enter, tf_capture_trace_exit
  public :: tf_device_count, tf_device, tf_to_device, tf_device_scope_enter, tf_device_scope_exit
  public :: operator(+), operator(-), operator(*), operator(/), operator(**)

  ! Re-exported so that a program needs only `use tenferro` for dtypes and statuses.
  public :: TFE_OK, TFE_ERR_INVALID_ARGUMENT, TFE_ERR_SHAPE_MISMATCH, TFE_ERR_DTYPE_MISMATCH, &
            TFE_ERR_OUT_OF_MEMORY, TFE_ERR_NOT_SUPPORTED, TFE_ERR_DEVICE, &
            TFE_ERR_NOT_DIFFERENTIABLE, TFE_ERR_SINGULAR, TFE_ERR_NON_CONVERGENCE, &
            TFE_ERR_NUMERICAL, TFE_ERR_INTERNAL
  public :: TFE_BOOL, TFE_I32, TFE_I64, TFE_F32, TFE_F64, TFE_C32, TFE_C64
  public :: TFE_DEVICE_CPU, TFE_DEVICE_CUDA
  public :: TFE_CMP_EQ, TFE_CMP_NE, TFE_CMP_LT, TFE_CMP_LE, TFE_CMP_GT, TFE_CMP_GE
  public :: TFE_SCHEDULER_THREADS, TFE_SCHEDULER_DEBUG, TFE_CONTEXT_EAGER, TFE_CONTEXT_DATAFLOW
  public :: TFE_LINALG_NO_TRANS, TFE_LINALG_TRANS, TFE_LINALG_CONJ_TRANS
  public :: TFE_NORM_FRO, TFE_NORM_NUC, TFE_NORM_1, TFE_NORM_NEG_1, TFE_NORM_2, TFE_NORM_NEG_2, &
            TFE_NORM_INF, TFE_NORM_NEG_INF

  !> Common parent of tf_tensor and the expression type; private so that no program holds a
  !> handle outside the two types that manage it.
  type :: tf_value
    type(c_ptr) :: h = c_null_ptr
  end type tf_value

  !> A tensor variable: one owned reference, released by finalization or tf_release.
  type, extends(tf_value) :: tf_tensor
  contains
    procedure, private :: assign_tensor_
    procedure, private :: assign_expr_
    generic :: assignment(=) => assign_tensor_, assign_expr_
    procedure :: take_ => tensor_take_
    final :: tensor_final_
  end type tf_tensor

  !> The result of a function or operator: owns one reference until it is moved into a tf_tensor
  !> or consumed as an operand. No final procedure, on purpose (see the top of this file).
  type, extends(tf_value) :: tf_expr
  end type tf_expr

  !> A library context (eager or dataflow); assignment retains, finalization releases.
  type :: tf_context
    type(c_ptr) :: h = c_null_ptr
  contains
    procedure, private :: assign_context_
    generic :: assignment(=) => assign_context_
    final :: context_final_
  end type tf_context

  !> Options of the *_ex linalg functions: plain values; the C options object is made for the
  !> duration of one call, so this type needs no finalization.
  type :: tf_linalg_options
    logical :: upper = .false.
    logical :: left = .true.
    logical :: unit_diagonal = .false.
    integer :: transpose = TFE_LINALG_NO_TRANS
    logical :: full_matrices = .false.
    logical :: positive_diagonal = .false.
    real(c_double) :: derivative_eps = 0.0_c_double
    real(c_double) :: rtol = -1.0_c_double
    logical :: hermitian = .false.
  end type tf_linalg_options

  interface tf_release
    module procedure tensor_release_, context_release_
  end interface tf_release

  interface tf_is_defined
    module procedure tensor_defined_, context_defined_
  end interface tf_is_defined

  interface tf_from_array
    module procedure from_r4_, from_r8_, from_c4_, from_c8_, from_i4_, from_i8_, from_lb_, from_l_
  end interface tf_from_array

  interface tf_view_array
    module procedure view_r4_, view_r8_, view_c4_, view_c8_, view_i4_, view_i8_, view_lb_
  end interface tf_view_array

  interface tf_to_array
    module procedure to_r4_, to_r8_, to_c4_, to_c8_, to_i4_, to_i8_, to_lb_, to_l_
  end interface tf_to_array

  interface tf_full
    module procedure full_r8_, full_c8_
  end interface tf_full

  interface operator(+)
    module procedure op_add_, op_add_tr_, op_add_rt_
  end interface
  interface operator(-)
    module procedure op_sub_, op_sub_tr_, op_sub_rt_, op_neg_
  end interface
  interface operator(*)
    module procedure op_mul_, op_mul_tr_, op_mul_rt_
  end interface
  interface operator(/)
    module procedure op_div_, op_div_tr_, op_div_rt_
  end interface
  interface operator(**)
    module procedure op_pow_, op_pow_tr_, op_pow_ti_
  end interface

  interface transpose
    module procedure fn_transpose_
  end interface transpose

  include 'tenferro_ops_decl.inc'

contains

  ! ---- ownership -----------------------------------------------------------------------------

  subroutine assign_tensor_(lhs, rhs)
    class(tf_tensor), intent(inout) :: lhs
    type(tf_tensor), intent(in) :: rhs
    type(c_ptr) :: old
    integer(c_int32_t) :: st
    ! Retain before releasing the old value, so that `a = a` keeps the tensor alive.
    if (c_associated(rhs%h)) then
      st = tfe_tensor_retain(rhs%h)
      call tf_finish_(st, 'assignment(=)')
    end if
    old = lhs%h
    lhs%h = rhs%h
    call tfe_tensor_release(old)
  end subroutine assign_tensor_

  subroutine assign_expr_(lhs, rhs)
    class(tf_tensor), intent(inout) :: lhs
    type(tf_expr), intent(in) :: rhs
    call lhs%take_(rhs%h)
  end subroutine assign_expr_

  subroutine tensor_take_(self, h)
    class(tf_tensor), intent(inout) :: self
    type(c_ptr), intent(in) :: h
    type(c_ptr) :: old
    old = self%h
    self%h = h
    call tfe_tensor_release(old)
  end subroutine tensor_take_

  impure elemental subroutine tensor_final_(self)
    type(tf_tensor), intent(inout) :: self
    call tfe_tensor_release(self%h)
    self%h = c_null_ptr
  end subroutine tensor_final_

  impure elemental subroutine tensor_release_(t)
    type(tf_tensor), intent(inout) :: t
    call tfe_tensor_release(t%h)
    t%h = c_null_ptr
  end subroutine tensor_release_

  elemental logical function tensor_defined_(t)
    type(tf_tensor), intent(in) :: t
    tensor_defined_ = c_associated(t%h)
  end function tensor_defined_

  subroutine assign_context_(lhs, rhs)
    class(tf_context), intent(inout) :: lhs
    type(tf_context), intent(in) :: rhs
    type(c_ptr) :: old
    integer(c_int32_t) :: st
    if (c_associated(rhs%h)) then
      st = tfe_context_retain(rhs%h)
      call tf_finish_(st, 'assignment(=)')
    end if
    old = lhs%h
    lhs%h = rhs%h
    call tfe_context_release(old)
  end subroutine assign_context_

  impure elemental subroutine context_final_(self)
    type(tf_context), intent(inout) :: self
    call tfe_context_release(self%h)
    self%h = c_null_ptr
  end subroutine context_final_

  impure elemental subroutine context_release_(c)
    type(tf_context), intent(inout) :: c
    call tfe_context_release(c%h)
    c%h = c_null_ptr
  end subroutine context_release_

  elemental logical function context_defined_(c)
    type(tf_context), intent(in) :: c
    context_defined_ = c_associated(c%h)
  end function context_defined_

  !> An expression operand is used once: its reference goes with the operation.
  subroutine tf_consume_(v)
    class(tf_value), intent(in) :: v
    select type (v)
    type is (tf_expr)
      call tfe_tensor_release(v%h)
    end select
  end subroutine tf_consume_

  ! ---- errors --------------------------------------------------------------------------------

  !> The library's message for the last failure on this thread.
  function tf_last_error() result(msg)
    character(len=:), allocatable :: msg
    msg = c_string_(tfe_last_error_message())
  end function tf_last_error

  function tf_version() result(v)
    character(len=:), allocatable :: v
    v = c_string_(tfe_version())
  end function tf_version

  function c_string_(p) result(s)
    type(c_ptr), intent(in) :: p
    character(len=:), allocatable :: s
    character(kind=c_char), pointer :: chars(:)
    integer :: n, i
    interface
      function strlen(str) bind(C, name='strlen') result(len)
        import :: c_ptr, c_size_t
        type(c_ptr), value :: str
        integer(c_size_t) :: len
      end function strlen
    end interface
    if (.not. c_associated(p)) then
      s = ''
      return
    end if
    n = int(strlen(p))
    call c_f_pointer(p, chars, [n])
    allocate(character(len=n) :: s)
    do i = 1, n
      s(i:i) = chars(i)
    end do
  end function c_string_

  !> Reports status st of procedure `name`: through stat/errmsg when the caller passed stat,
  !> else by stopping with the library's message (a failure must not pass unnoticed).
  subroutine tf_finish_(st, name, stat, errmsg)
    integer(c_int32_t), intent(in) :: st
    character(len=*), intent(in) :: name
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=:), allocatable :: msg
    if (present(stat)) stat = int(st)
    if (st == TFE_OK) return
    msg = tf_last_error()
    if (len(msg) == 0) msg = name // ': ' // c_string_(tfe_status_name(st))
    if (present(errmsg)) errmsg = msg
    if (.not. present(stat)) error stop msg
  end subroutine tf_finish_

  subroutine fail_(st, msg, stat, errmsg)
    integer(c_int32_t), intent(in) :: st
    character(len=*), intent(in) :: msg
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    if (present(stat)) stat = int(st)
    if (present(errmsg)) errmsg = msg
    if (.not. present(stat)) error stop msg
  end subroutine fail_

  integer(c_int64_t) function tf_live_objects()
    tf_live_objects = tfe_debug_live_objects()
  end function tf_live_objects

  ! ---- contexts ------------------------------------------------------------------------------

  !> An eager context, or a dataflow one when dataflow is .true. (scheduler and threads as
  !> tfe_context_create_dataflow; defaults: the thread pool, the thread budget).
  subroutine tf_context_create(ctx, dataflow, scheduler, threads, stat, errmsg)
    type(tf_context), intent(inout) :: ctx
    logical, intent(in), optional :: dataflow
    integer, intent(in), optional :: scheduler, threads
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: h, old
    integer(c_int32_t) :: st, sch, thr
    logical :: df
    ! The interfaces were generated from headers of one ABI version; a library of another
    ! version (a copied file that bypassed the SONAME) must not be called through them.
    if (tfe_abi_version() /= TFE_ABI_VERSION_VALUE) then
      call fail_(TFE_ERR_NOT_SUPPORTED, 'tf_context_create: libtenferro has another ABI version' &
                 // ' than the one this module was generated for', stat, errmsg)
      return
    end if
    df = .false.
    if (present(dataflow)) df = dataflow
    if (df) then
      sch = TFE_SCHEDULER_THREADS
      thr = 0
      if (present(scheduler)) sch = int(scheduler, c_int32_t)
      if (present(threads)) thr = int(threads, c_int32_t)
      st = tfe_context_create_dataflow(h, sch, thr)
    else
      st = tfe_context_create(h)
    end if
    call tf_finish_(st, 'tf_context_create', stat, errmsg)
    if (st /= TFE_OK) return
    old = ctx%h
    ctx%h = h
    call tfe_context_release(old)
  end subroutine tf_context_create

  !> TFE_CONTEXT_EAGER or TFE_CONTEXT_DATAFLOW.
  integer function tf_context_mode(ctx)
    type(tf_context), intent(in) :: ctx
    integer(c_int32_t) :: st, m
    st = tfe_context_mode(ctx%h, m)
    call tf_finish_(st, 'tf_context_mode')
    tf_context_mode = int(m)
  end function tf_context_mode

  ! ---- inspection ----------------------------------------------------------------------------

  integer function tf_dtype(t)
    class(tf_value), intent(in) :: t
    integer(c_int32_t) :: st, d
    st = tfe_tensor_dtype(t%h, d)
    call tf_consume_(t)
    call tf_finish_(st, 'tf_dtype')
    tf_dtype = int(d)
  end function tf_dtype

  integer function tf_ndim(t)
    class(tf_value), intent(in) :: t
    integer(c_int32_t) :: st, n
    st = tfe_tensor_ndim(t%h, n)
    call tf_consume_(t)
    call tf_finish_(st, 'tf_ndim')
    tf_ndim = int(n)
  end function tf_ndim

  integer(c_int64_t) function tf_numel(t)
    class(tf_value), intent(in) :: t
    integer(c_int32_t) :: st
    st = tfe_tensor_numel(t%h, tf_numel)
    call tf_consume_(t)
    call tf_finish_(st, 'tf_numel')
  end function tf_numel

  !> The extents, dim 1 first (column-major, as the array they came from).
  function tf_shape(t) result(s)
    class(tf_value), intent(in) :: t
    integer(c_int64_t), allocatable :: s(:)
    s = shape_of_(t%h)
    call tf_consume_(t)
  end function tf_shape

  function shape_of_(h) result(s)
    type(c_ptr), intent(in) :: h
    integer(c_int64_t), allocatable :: s(:)
    integer(c_int32_t) :: st, n
    st = tfe_tensor_ndim(h, n)
    call tf_finish_(st, 'tf_shape')
    allocate(s(n))
    st = tfe_tensor_shape(h, s)
    call tf_finish_(st, 'tf_shape')
  end function shape_of_

  !> The value of a one-element real or integer tensor as real(c_double).
  real(c_double) function tf_item(t)
    class(tf_value), intent(in) :: t
    type(c_ptr) :: h
    integer(c_int32_t) :: st
    real(c_double), target :: v(1)
    st = tfe_cast(h, t%h, TFE_F64)
    call tf_consume_(t)
    call tf_finish_(st, 'tf_item')
    st = tfe_tensor_to_data(h, c_loc(v), int(c_sizeof(v), c_int64_t))
    call tfe_tensor_release(h)
    call tf_finish_(st, 'tf_item')
    tf_item = v(1)
  end function tf_item

  ! ---- arrays in and out ---------------------------------------------------------------------
  ! One specific per element type; the dummies are assumed-rank, so ranks 0 to 15 all work and
  ! the shape is the array's (tenferro is column-major like Fortran: nothing is transposed).

  subroutine from_ptr_(t, ctx, dtype, shp, p, stat, errmsg)
    type(tf_tensor), intent(inout) :: t
    type(tf_context), intent(in) :: ctx
    integer(c_int32_t), intent(in) :: dtype
    integer(c_int64_t), intent(in) :: shp(:)
    type(c_ptr), intent(in) :: p
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: h
    integer(c_int32_t) :: st
    st = tfe_tensor_from_data(h, ctx%h, dtype, int(size(shp), c_int32_t), shp, data=p)
    call tf_finish_(st, 'tf_from_array', stat, errmsg)
    if (st == TFE_OK) call t%take_(h)
  end subroutine from_ptr_

  subroutine view_ptr_(t, ctx, dtype, shp, p, contiguous, stat, errmsg)
    type(tf_tensor), intent(inout) :: t
    type(tf_context), intent(in) :: ctx
    integer(c_int32_t), intent(in) :: dtype
    integer(c_int64_t), intent(in) :: shp(:)
    type(c_ptr), intent(in) :: p
    logical, intent(in) :: contiguous
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: h
    integer(c_int32_t) :: st
    ! A non-contiguous section would reach C as a temporary copy that dies on return.
    if (.not. contiguous) then
      call fail_(TFE_ERR_INVALID_ARGUMENT, 'tf_view_array: the array is not contiguous', &
                 stat, errmsg)
      return
    end if
    st = tfe_tensor_from_buffer(h, ctx%h, dtype, int(size(shp), c_int32_t), shp, data=p, &
                                deleter=c_null_funptr, user_data=c_null_ptr)
    call tf_finish_(st, 'tf_view_array', stat, errmsg)
    if (st == TFE_OK) call t%take_(h)
  end subroutine view_ptr_

  !> Copies t (converted losslessly to dtype when it has another) into p, after checking that
  !> the destination has t's shape.
  subroutine to_ptr_(t, dtype, shp, p, nbytes, stat, errmsg)
    class(tf_value), intent(in) :: t
    integer(c_int32_t), intent(in) :: dtype
    integer(c_int64_t), intent(in) :: shp(:)
    type(c_ptr), intent(in) :: p
    integer(c_int64_t), intent(in) :: nbytes
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: h
    integer(c_int32_t) :: st, d
    integer(c_int64_t), allocatable :: tshape(:)
    character(len=160) :: msg
    h = c_null_ptr
    st = tfe_tensor_dtype(t%h, d)
    if (st == TFE_OK) then
      tshape = shape_of_(t%h)
      if (size(tshape) /= size(shp)) then
        write(msg, '(a,i0,a,i0)') 'tf_to_array: the tensor has rank ', size(tshape), &
          ' and the array rank ', size(shp)
        call tf_consume_(t)
        call fail_(TFE_ERR_SHAPE_MISMATCH, trim(msg), stat, errmsg)
        return
      end if
      if (any(tshape /= shp)) then
        call tf_consume_(t)
        call fail_(TFE_ERR_SHAPE_MISMATCH, 'tf_to_array: the array shape differs from the tensor shape', &
                   stat, errmsg)
        return
      end if
      if (d /= dtype) then
        st = tfe_convert(h, t%h, dtype)
      else
        st = tfe_tensor_retain(t%h)
        if (st == TFE_OK) h = t%h
      end if
    end if
    if (st == TFE_OK) st = tfe_tensor_to_data(h, p, nbytes)
    call tfe_tensor_release(h)
    call tf_consume_(t)
    call tf_finish_(st, 'tf_to_array', stat, errmsg)
  end subroutine to_ptr_

  function addr_(p, n) result(q)
    type(c_ptr), intent(in) :: p
    integer, intent(in) :: n
    type(c_ptr) :: q
    q = p
    ! C allows NULL data exactly when there are no elements; c_loc of an empty array is not
    ! defined by the standard.
    if (n == 0) q = c_null_ptr
  end function addr_

  subroutine from_r4_(t, ctx, x, stat, errmsg)
    type(tf_tensor), intent(inout) :: t
    type(tf_context), intent(in) :: ctx
    real(c_float), intent(in), target, contiguous :: x(..)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call from_ptr_(t, ctx, TFE_F32, shape(x, c_int64_t), addr_(loc_r4_(x), size(x)), stat, errmsg)
  end subroutine from_r4_

  subroutine from_r8_(t, ctx, x, stat, errmsg)
    type(tf_tensor), intent(inout) :: t
    type(tf_context), intent(in) :: ctx
    real(c_double), intent(in), target, contiguous :: x(..)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call from_ptr_(t, ctx, TFE_F64, shape(x, c_int64_t), addr_(loc_r8_(x), size(x)), stat, errmsg)
  end subroutine from_r8_

  subroutine from_c4_(t, ctx, x, stat, errmsg)
    type(tf_tensor), intent(inout) :: t
    type(tf_context), intent(in) :: ctx
    complex(c_float_complex), intent(in), target, contiguous :: x(..)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call from_ptr_(t, ctx, TFE_C32, shape(x, c_int64_t), addr_(loc_c4_(x), size(x)), stat, errmsg)
  end subroutine from_c4_

  subroutine from_c8_(t, ctx, x, stat, errmsg)
    type(tf_tensor), intent(inout) :: t
    type(tf_context), intent(in) :: ctx
    complex(c_double_complex), intent(in), target, contiguous :: x(..)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call from_ptr_(t, ctx, TFE_C64, shape(x, c_int64_t), addr_(loc_c8_(x), size(x)), stat, errmsg)
  end subroutine from_c8_

  subroutine from_i4_(t, ctx, x, stat, errmsg)
    type(tf_tensor), intent(inout) :: t
    type(tf_context), intent(in) :: ctx
    integer(c_int32_t), intent(in), target, contiguous :: x(..)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call from_ptr_(t, ctx, TFE_I32, shape(x, c_int64_t), addr_(loc_i4_(x), size(x)), stat, errmsg)
  end subroutine from_i4_

  subroutine from_i8_(t, ctx, x, stat, errmsg)
    type(tf_tensor), intent(inout) :: t
    type(tf_context), intent(in) :: ctx
    integer(c_int64_t), intent(in), target, contiguous :: x(..)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call from_ptr_(t, ctx, TFE_I64, shape(x, c_int64_t), addr_(loc_i8_(x), size(x)), stat, errmsg)
  end subroutine from_i8_

  subroutine from_lb_(t, ctx, x, stat, errmsg)
    type(tf_tensor), intent(inout) :: t
    type(tf_context), intent(in) :: ctx
    logical(c_bool), intent(in), target, contiguous :: x(..)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call from_ptr_(t, ctx, TFE_BOOL, shape(x, c_int64_t), addr_(loc_lb_(x), size(x)), stat, errmsg)
  end subroutine from_lb_

  !> Default logical is 4 bytes in gfortran and tenferro's Bool is one byte: this specific
  !> copies through a logical(c_bool) buffer.
  subroutine from_l_(t, ctx, x, stat, errmsg)
    type(tf_tensor), intent(inout) :: t
    type(tf_context), intent(in) :: ctx
    logical, intent(in), target, contiguous :: x(..)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    logical(c_bool), allocatable, target :: bytes(:)
    logical, pointer :: flat(:)
    allocate(bytes(size(x)))
    if (size(x) > 0) then
      call c_f_pointer(loc_l_(x), flat, [size(x)])
      bytes = logical(flat, c_bool)
    end if
    call from_ptr_(t, ctx, TFE_BOOL, shape(x, c_int64_t), addr_(c_loc(bytes), size(x)), stat, errmsg)
  end subroutine from_l_

  ! Borrowed views (tfe_tensor_from_buffer, no copy). The array must be contiguous, have the
  ! TARGET attribute in the caller, stay unmodified and outlive every tensor that uses its memory:
  ! the view, views of the view, and AD traces that recorded it as an operand.

  subroutine view_r4_(t, ctx, x, stat, errmsg)
    type(tf_tensor), intent(inout) :: t
    type(tf_context), intent(in) :: ctx
    real(c_float), intent(in), target :: x(..)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call view_ptr_(t, ctx, TFE_F32, shape(x, c_int64_t), addr_(loc_r4_(x), size(x)), &
                   is_contiguous(x), stat, errmsg)
  end subroutine view_r4_

  subroutine view_r8_(t, ctx, x, stat, errmsg)
    type(tf_tensor), intent(inout) :: t
    type(tf_context), intent(in) :: ctx
    real(c_double), intent(in), target :: x(..)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call view_ptr_(t, ctx, TFE_F64, shape(x, c_int64_t), addr_(loc_r8_(x), size(x)), &
                   is_contiguous(x), stat, errmsg)
  end subroutine view_r8_

  subroutine view_c4_(t, ctx, x, stat, errmsg)
    type(tf_tensor), intent(inout) :: t
    type(tf_context), intent(in) :: ctx
    complex(c_float_complex), intent(in), target :: x(..)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call view_ptr_(t, ctx, TFE_C32, shape(x, c_int64_t), addr_(loc_c4_(x), size(x)), &
                   is_contiguous(x), stat, errmsg)
  end subroutine view_c4_

  subroutine view_c8_(t, ctx, x, stat, errmsg)
    type(tf_tensor), intent(inout) :: t
    type(tf_context), intent(in) :: ctx
    complex(c_double_complex), intent(in), target :: x(..)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call view_ptr_(t, ctx, TFE_C64, shape(x, c_int64_t), addr_(loc_c8_(x), size(x)), &
                   is_contiguous(x), stat, errmsg)
  end subroutine view_c8_

  subroutine view_i4_(t, ctx, x, stat, errmsg)
    type(tf_tensor), intent(inout) :: t
    type(tf_context), intent(in) :: ctx
    integer(c_int32_t), intent(in), target :: x(..)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call view_ptr_(t, ctx, TFE_I32, shape(x, c_int64_t), addr_(loc_i4_(x), size(x)), &
                   is_contiguous(x), stat, errmsg)
  end subroutine view_i4_

  subroutine view_i8_(t, ctx, x, stat, errmsg)
    type(tf_tensor), intent(inout) :: t
    type(tf_context), intent(in) :: ctx
    integer(c_int64_t), intent(in), target :: x(..)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call view_ptr_(t, ctx, TFE_I64, shape(x, c_int64_t), addr_(loc_i8_(x), size(x)), &
                   is_contiguous(x), stat, errmsg)
  end subroutine view_i8_

  subroutine view_lb_(t, ctx, x, stat, errmsg)
    type(tf_tensor), intent(inout) :: t
    type(tf_context), intent(in) :: ctx
    logical(c_bool), intent(in), target :: x(..)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call view_ptr_(t, ctx, TFE_BOOL, shape(x, c_int64_t), addr_(loc_lb_(x), size(x)), &
                   is_contiguous(x), stat, errmsg)
  end subroutine view_lb_

  subroutine to_r4_(t, x, stat, errmsg)
    class(tf_value), intent(in) :: t
    real(c_float), intent(inout), target, contiguous :: x(..)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call to_ptr_(t, TFE_F32, shape(x, c_int64_t), addr_(loc_r4_(x), size(x)), &
                 int(size(x), c_int64_t) * 4, stat, errmsg)
  end subroutine to_r4_

  subroutine to_r8_(t, x, stat, errmsg)
    class(tf_value), intent(in) :: t
    real(c_double), intent(inout), target, contiguous :: x(..)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call to_ptr_(t, TFE_F64, shape(x, c_int64_t), addr_(loc_r8_(x), size(x)), &
                 int(size(x), c_int64_t) * 8, stat, errmsg)
  end subroutine to_r8_

  subroutine to_c4_(t, x, stat, errmsg)
    class(tf_value), intent(in) :: t
    complex(c_float_complex), intent(inout), target, contiguous :: x(..)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call to_ptr_(t, TFE_C32, shape(x, c_int64_t), addr_(loc_c4_(x), size(x)), &
                 int(size(x), c_int64_t) * 8, stat, errmsg)
  end subroutine to_c4_

  subroutine to_c8_(t, x, stat, errmsg)
    class(tf_value), intent(in) :: t
    complex(c_double_complex), intent(inout), target, contiguous :: x(..)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call to_ptr_(t, TFE_C64, shape(x, c_int64_t), addr_(loc_c8_(x), size(x)), &
                 int(size(x), c_int64_t) * 16, stat, errmsg)
  end subroutine to_c8_

  subroutine to_i4_(t, x, stat, errmsg)
    class(tf_value), intent(in) :: t
    integer(c_int32_t), intent(inout), target, contiguous :: x(..)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call to_ptr_(t, TFE_I32, shape(x, c_int64_t), addr_(loc_i4_(x), size(x)), &
                 int(size(x), c_int64_t) * 4, stat, errmsg)
  end subroutine to_i4_

  subroutine to_i8_(t, x, stat, errmsg)
    class(tf_value), intent(in) :: t
    integer(c_int64_t), intent(inout), target, contiguous :: x(..)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call to_ptr_(t, TFE_I64, shape(x, c_int64_t), addr_(loc_i8_(x), size(x)), &
                 int(size(x), c_int64_t) * 8, stat, errmsg)
  end subroutine to_i8_

  subroutine to_lb_(t, x, stat, errmsg)
    class(tf_value), intent(in) :: t
    logical(c_bool), intent(inout), target, contiguous :: x(..)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call to_ptr_(t, TFE_BOOL, shape(x, c_int64_t), addr_(loc_lb_(x), size(x)), &
                 int(size(x), c_int64_t), stat, errmsg)
  end subroutine to_lb_

  subroutine to_l_(t, x, stat, errmsg)
    class(tf_value), intent(in) :: t
    logical, intent(inout), target, contiguous :: x(..)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    logical(c_bool), allocatable, target :: bytes(:)
    logical, pointer :: flat(:)
    integer :: st
    allocate(bytes(size(x)))
    call to_ptr_(t, TFE_BOOL, shape(x, c_int64_t), addr_(c_loc(bytes), size(x)), &
                 int(size(x), c_int64_t), st, errmsg)
    if (present(stat)) stat = st
    if (st /= TFE_OK) then
      if (.not. present(stat)) error stop tf_last_error()
      return
    end if
    if (size(x) > 0) then
      call c_f_pointer(loc_l_(x), flat, [size(x)])
      flat = logical(bytes)
    end if
  end subroutine to_l_

  ! c_loc of an assumed-rank dummy, one per type: the argument must keep its TARGET attribute
  ! through the call, which a generic helper taking type(*) would not guarantee.
  type(c_ptr) function loc_r4_(x)
    real(c_float), intent(in), target :: x(..)
    loc_r4_ = c_loc(x)
  end function loc_r4_
  type(c_ptr) function loc_r8_(x)
    real(c_double), intent(in), target :: x(..)
    loc_r8_ = c_loc(x)
  end function loc_r8_
  type(c_ptr) function loc_c4_(x)
    complex(c_float_complex), intent(in), target :: x(..)
    loc_c4_ = c_loc(x)
  end function loc_c4_
  type(c_ptr) function loc_c8_(x)
    complex(c_double_complex), intent(in), target :: x(..)
    loc_c8_ = c_loc(x)
  end function loc_c8_
  type(c_ptr) function loc_i4_(x)
    integer(c_int32_t), intent(in), target :: x(..)
    loc_i4_ = c_loc(x)
  end function loc_i4_
  type(c_ptr) function loc_i8_(x)
    integer(c_int64_t), intent(in), target :: x(..)
    loc_i8_ = c_loc(x)
  end function loc_i8_
  type(c_ptr) function loc_lb_(x)
    logical(c_bool), intent(in), target :: x(..)
    loc_lb_ = c_loc(x)
  end function loc_lb_
  type(c_ptr) function loc_l_(x)
    logical, intent(in), target :: x(..)
    loc_l_ = c_loc(x)
  end function loc_l_

  ! ---- creation ------------------------------------------------------------------------------

  subroutine tf_zeros(t, ctx, dtype, shp, stat, errmsg)
    type(tf_tensor), intent(inout) :: t
    type(tf_context), intent(in) :: ctx
    integer, intent(in) :: dtype
    integer, intent(in) :: shp(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: h
    integer(c_int32_t) :: st
    st = tfe_zeros(h, ctx%h, int(dtype, c_int32_t), int(size(shp), c_int32_t), int(shp, c_int64_t))
    call tf_finish_(st, 'tf_zeros', stat, errmsg)
    if (st == TFE_OK) call t%take_(h)
  end subroutine tf_zeros

  subroutine tf_ones(t, ctx, dtype, shp, stat, errmsg)
    type(tf_tensor), intent(inout) :: t
    type(tf_context), intent(in) :: ctx
    integer, intent(in) :: dtype
    integer, intent(in) :: shp(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: h
    integer(c_int32_t) :: st
    st = tfe_ones(h, ctx%h, int(dtype, c_int32_t), int(size(shp), c_int32_t), int(shp, c_int64_t))
    call tf_finish_(st, 'tf_ones', stat, errmsg)
    if (st == TFE_OK) call t%take_(h)
  end subroutine tf_ones

  !> Every element `value`, of dtype (default F64), through a lossy cast for narrower dtypes.
  subroutine full_r8_(t, ctx, value, shp, dtype, stat, errmsg)
    type(tf_tensor), intent(inout) :: t
    type(tf_context), intent(in) :: ctx
    real(c_double), intent(in) :: value
    integer, intent(in) :: shp(:)
    integer, intent(in), optional :: dtype
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    real(c_double), target :: v
    type(c_ptr) :: h, h2
    integer(c_int32_t) :: st, d
    v = value
    d = TFE_F64
    if (present(dtype)) d = int(dtype, c_int32_t)
    st = tfe_full(h, ctx%h, TFE_F64, int(size(shp), c_int32_t), int(shp, c_int64_t), c_loc(v))
    if (st == TFE_OK .and. d /= TFE_F64) then
      st = tfe_cast(h2, h, d)
      call tfe_tensor_release(h)
      h = h2
    end if
    call tf_finish_(st, 'tf_full', stat, errmsg)
    if (st == TFE_OK) call t%take_(h)
  end subroutine full_r8_

  subroutine full_c8_(t, ctx, value, shp, dtype, stat, errmsg)
    type(tf_tensor), intent(inout) :: t
    type(tf_context), intent(in) :: ctx
    complex(c_double_complex), intent(in) :: value
    integer, intent(in) :: shp(:)
    integer, intent(in), optional :: dtype
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    complex(c_double_complex), target :: v
    type(c_ptr) :: h, h2
    integer(c_int32_t) :: st, d
    v = value
    d = TFE_C64
    if (present(dtype)) d = int(dtype, c_int32_t)
    st = tfe_full(h, ctx%h, TFE_C64, int(size(shp), c_int32_t), int(shp, c_int64_t), c_loc(v))
    if (st == TFE_OK .and. d /= TFE_C64) then
      st = tfe_cast(h2, h, d)
      call tfe_tensor_release(h)
      h = h2
    end if
    call tf_finish_(st, 'tf_full', stat, errmsg)
    if (st == TFE_OK) call t%take_(h)
  end subroutine full_c8_

  subroutine tf_eye(t, ctx, n, m, dtype, stat, errmsg)
    type(tf_tensor), intent(inout) :: t
    type(tf_context), intent(in) :: ctx
    integer, intent(in) :: n
    integer, intent(in), optional :: m, dtype
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: h
    integer(c_int32_t) :: st, d
    integer(c_int64_t) :: cols
    cols = n
    if (present(m)) cols = m
    d = TFE_F64
    if (present(dtype)) d = int(dtype, c_int32_t)
    st = tfe_eye(h, ctx%h, d, int(n, c_int64_t), cols)
    call tf_finish_(st, 'tf_eye', stat, errmsg)
    if (st == TFE_OK) call t%take_(h)
  end subroutine tf_eye

  subroutine tf_arange(t, ctx, start, stop, step, dtype, stat, errmsg)
    type(tf_tensor), intent(inout) :: t
    type(tf_context), intent(in) :: ctx
    real(c_double), intent(in) :: start, stop
    real(c_double), intent(in), optional :: step
    integer, intent(in), optional :: dtype
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: h
    integer(c_int32_t) :: st, d
    real(c_double) :: s
    s = 1.0_c_double
    if (present(step)) s = step
    d = TFE_F64
    if (present(dtype)) d = int(dtype, c_int32_t)
    st = tfe_arange(h, ctx%h, d, start, stop, s)
    call tf_finish_(st, 'tf_arange', stat, errmsg)
    if (st == TFE_OK) call t%take_(h)
  end subroutine tf_arange

  subroutine tf_random_uniform(t, ctx, shp, seed, low, high, dtype, stat, errmsg)
    type(tf_tensor), intent(inout) :: t
    type(tf_context), intent(in) :: ctx
    integer, intent(in) :: shp(:)
    integer(c_int64_t), intent(in) :: seed
    real(c_double), intent(in), optional :: low, high
    integer, intent(in), optional :: dtype
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: h
    integer(c_int32_t) :: st, d
    real(c_double) :: lo, hi
    lo = 0.0_c_double
    hi = 1.0_c_double
    if (present(low)) lo = low
    if (present(high)) hi = high
    d = TFE_F64
    if (present(dtype)) d = int(dtype, c_int32_t)
    st = tfe_random_uniform(h, ctx%h, d, int(size(shp), c_int32_t), int(shp, c_int64_t), seed, lo, hi)
    call tf_finish_(st, 'tf_random_uniform', stat, errmsg)
    if (st == TFE_OK) call t%take_(h)
  end subroutine tf_random_uniform

  subroutine tf_random_normal(t, ctx, shp, seed, dtype, stat, errmsg)
    type(tf_tensor), intent(inout) :: t
    type(tf_context), intent(in) :: ctx
    integer, intent(in) :: shp(:)
    integer(c_int64_t), intent(in) :: seed
    integer, intent(in), optional :: dtype
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: h
    integer(c_int32_t) :: st, d
    d = TFE_F64
    if (present(dtype)) d = int(dtype, c_int32_t)
    st = tfe_random_normal(h, ctx%h, d, int(size(shp), c_int32_t), int(shp, c_int64_t), seed)
    call tf_finish_(st, 'tf_random_normal', stat, errmsg)
    if (st == TFE_OK) call t%take_(h)
  end subroutine tf_random_normal

  ! ---- structure -----------------------------------------------------------------------------

  !> Output dim i is input dim perm(i) (dims count from 0, as in C); without perm the dims are
  !> reversed (a matrix transpose for rank 2).
  subroutine tf_transpose(out, x, perm, stat, errmsg)
    type(tf_tensor), intent(inout) :: out
    class(tf_value), intent(in) :: x
    integer, intent(in), optional :: perm(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: h
    integer(c_int32_t) :: st
    st = transpose_(h, x, perm)
    call tf_finish_(st, 'tf_transpose', stat, errmsg)
    if (st == TFE_OK) call out%take_(h)
  end subroutine tf_transpose

  function fn_transpose_(x, perm) result(res)
    class(tf_value), intent(in) :: x
    integer, intent(in), optional :: perm(:)
    type(tf_expr) :: res
    integer(c_int32_t) :: st
    st = transpose_(res%h, x, perm)
    call tf_finish_(st, 'transpose')
  end function fn_transpose_

  integer(c_int32_t) function transpose_(h, x, perm) result(st)
    type(c_ptr), intent(out) :: h
    class(tf_value), intent(in) :: x
    integer, intent(in), optional :: perm(:)
    integer(c_int32_t) :: n
    integer(c_int64_t), allocatable :: p(:)
    integer :: i
    h = c_null_ptr
    st = tfe_tensor_ndim(x%h, n)
    if (st == TFE_OK) then
      if (present(perm)) then
        p = int(perm, c_int64_t)
      else
        p = [(int(n - i, c_int64_t), i = 1, n)]
      end if
      st = tfe_transpose(h, x%h, int(size(p), c_int32_t), p)
    end if
    call tf_consume_(x)
  end function transpose_

  !> A compact column-major copy (shares storage when x already is).
  subroutine tf_contiguous(out, x, stat, errmsg)
    type(tf_tensor), intent(inout) :: out
    class(tf_value), intent(in) :: x
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: h
    integer(c_int32_t) :: st
    st = tfe_tensor_contiguous(h, x%h)
    call tf_consume_(x)
    call tf_finish_(st, 'tf_contiguous', stat, errmsg)
    if (st == TFE_OK) call out%take_(h)
  end subroutine tf_contiguous

  ! ---- operators -----------------------------------------------------------------------------
  ! Fortran scalars take the dtype of the tensor operand when it is a float or complex one (so
  ! 2.0_c_double * x keeps an F32 x in F32), else F64 (real) or the tensor's integer dtype.

  integer(c_int32_t) function binary_(op, h, a, b) result(st)
    character(len=*), intent(in) :: op
    type(c_ptr), intent(out) :: h
    type(c_ptr), intent(in) :: a, b
    select case (op)
    case ('+')
      st = tfe_add(h, a, b)
    case ('-')
      st = tfe_sub(h, a, b)
    case ('*')
      st = tfe_mul(h, a, b)
    case ('/')
      st = tfe_div(h, a, b)
    case default
      st = tfe_pow(h, a, b)
    end select
  end function binary_

  function tt_(op, a, b) result(res)
    character(len=*), intent(in) :: op
    class(tf_value), intent(in) :: a, b
    type(tf_expr) :: res
    integer(c_int32_t) :: st
    st = binary_(op, res%h, a%h, b%h)
    call tf_consume_(a)
    call tf_consume_(b)
    call tf_finish_(st, 'operator(' // op // ')')
  end function tt_

  !> A rank-0 tensor in like's context holding v (real part vr, imaginary 0).
  type(c_ptr) function scalar_like_(like, vr, is_int) result(h)
    type(c_ptr), intent(in) :: like
    real(c_double), intent(in) :: vr
    logical, intent(in) :: is_int
    type(c_ptr) :: ctx, h64
    integer(c_int32_t) :: st, d, want
    real(c_double), target :: v
    integer(c_int64_t) :: noshape(0)
    h = c_null_ptr
    v = vr
    st = tfe_tensor_dtype(like, d)
    call tf_finish_(st, 'operator')
    select case (d)
    case (TFE_F32, TFE_C32)
      want = TFE_F32
    case (TFE_I32, TFE_I64)
      want = merge(d, TFE_F64, is_int)
    case default
      want = TFE_F64
    end select
    st = tfe_tensor_context(ctx, like)
    call tf_finish_(st, 'operator')
    st = tfe_full(h64, ctx, TFE_F64, 0_c_int32_t, noshape, c_loc(v))
    call tfe_context_release(ctx)
    call tf_finish_(st, 'operator')
    if (want == TFE_F64) then
      h = h64
    else
      st = tfe_cast(h, h64, want)
      call tfe_tensor_release(h64)
      call tf_finish_(st, 'operator')
    end if
  end function scalar_like_

  function ts_(op, a, s, scalar_first, is_int) result(res)
    character(len=*), intent(in) :: op
    class(tf_value), intent(in) :: a
    real(c_double), intent(in) :: s
    logical, intent(in) :: scalar_first, is_int
    type(tf_expr) :: res
    type(c_ptr) :: hs
    integer(c_int32_t) :: st
    hs = scalar_like_(a%h, s, is_int)
    if (scalar_first) then
      st = binary_(op, res%h, hs, a%h)
    else
      st = binary_(op, res%h, a%h, hs)
    end if
    call tfe_tensor_release(hs)
    call tf_consume_(a)
    call tf_finish_(st, 'operator(' // op // ')')
  end function ts_

  function op_add_(a, b) result(r)
    class(tf_value), intent(in) :: a, b
    type(tf_expr) :: r
    r = tt_('+', a, b)
  end function op_add_
  function op_add_tr_(a, s) result(r)
    class(tf_value), intent(in) :: a
    real(c_double), intent(in) :: s
    type(tf_expr) :: r
    r = ts_('+', a, s, .false., .false.)
  end function op_add_tr_
  function op_add_rt_(s, a) result(r)
    real(c_double), intent(in) :: s
    class(tf_value), intent(in) :: a
    type(tf_expr) :: r
    r = ts_('+', a, s, .true., .false.)
  end function op_add_rt_

  function op_sub_(a, b) result(r)
    class(tf_value), intent(in) :: a, b
    type(tf_expr) :: r
    r = tt_('-', a, b)
  end function op_sub_
  function op_sub_tr_(a, s) result(r)
    class(tf_value), intent(in) :: a
    real(c_double), intent(in) :: s
    type(tf_expr) :: r
    r = ts_('-', a, s, .false., .false.)
  end function op_sub_tr_
  function op_sub_rt_(s, a) result(r)
    real(c_double), intent(in) :: s
    class(tf_value), intent(in) :: a
    type(tf_expr) :: r
    r = ts_('-', a, s, .true., .false.)
  end function op_sub_rt_
  function op_neg_(a) result(r)
    class(tf_value), intent(in) :: a
    type(tf_expr) :: r
    integer(c_int32_t) :: st
    st = tfe_neg(r%h, a%h)
    call tf_consume_(a)
    call tf_finish_(st, 'operator(-)')
  end function op_neg_

  function op_mul_(a, b) result(r)
    class(tf_value), intent(in) :: a, b
    type(tf_expr) :: r
    r = tt_('*', a, b)
  end function op_mul_
  function op_mul_tr_(a, s) result(r)
    class(tf_value), intent(in) :: a
    real(c_double), intent(in) :: s
    type(tf_expr) :: r
    r = ts_('*', a, s, .false., .false.)
  end function op_mul_tr_
  function op_mul_rt_(s, a) result(r)
    real(c_double), intent(in) :: s
    class(tf_value), intent(in) :: a
    type(tf_expr) :: r
    r = ts_('*', a, s, .true., .false.)
  end function op_mul_rt_

  function op_div_(a, b) result(r)
    class(tf_value), intent(in) :: a, b
    type(tf_expr) :: r
    r = tt_('/', a, b)
  end function op_div_
  function op_div_tr_(a, s) result(r)
    class(tf_value), intent(in) :: a
    real(c_double), intent(in) :: s
    type(tf_expr) :: r
    r = ts_('/', a, s, .false., .false.)
  end function op_div_tr_
  function op_div_rt_(s, a) result(r)
    real(c_double), intent(in) :: s
    class(tf_value), intent(in) :: a
    type(tf_expr) :: r
    r = ts_('/', a, s, .true., .false.)
  end function op_div_rt_

  function op_pow_(a, b) result(r)
    class(tf_value), intent(in) :: a, b
    type(tf_expr) :: r
    r = tt_('**', a, b)
  end function op_pow_
  function op_pow_tr_(a, s) result(r)
    class(tf_value), intent(in) :: a
    real(c_double), intent(in) :: s
    type(tf_expr) :: r
    r = ts_('**', a, s, .false., .false.)
  end function op_pow_tr_
  function op_pow_ti_(a, n) result(r)
    class(tf_value), intent(in) :: a
    integer, intent(in) :: n
    type(tf_expr) :: r
    r = ts_('**', a, real(n, c_double), .false., .true.)
  end function op_pow_ti_

  ! ---- eager AD ------------------------------------------------------------------------------

  !> Makes the leaf t a variable (flag .true., the default) or a plain tensor again.
  subroutine tf_set_requires_grad(t, flag, stat, errmsg)
    type(tf_tensor), intent(in) :: t
    logical, intent(in), optional :: flag
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int32_t) :: st, f
    f = 1
    if (present(flag)) f = merge(1_c_int32_t, 0_c_int32_t, flag)
    st = tfe_tensor_set_requires_grad(t%h, f)
    call tf_finish_(st, 'tf_set_requires_grad', stat, errmsg)
  end subroutine tf_set_requires_grad

  logical function tf_requires_grad(t)
    type(tf_tensor), intent(in) :: t
    integer(c_int32_t) :: st, f
    st = tfe_tensor_requires_grad(t%h, f)
    call tf_finish_(st, 'tf_requires_grad')
    tf_requires_grad = f /= 0
  end function tf_requires_grad

  !> Accumulates d(seed . loss)/d(variable) into every variable's gradient (seed absent: 1).
  subroutine tf_backward(loss, seed, stat, errmsg)
    class(tf_value), intent(in) :: loss
    type(tf_tensor), intent(in), optional :: seed
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int32_t) :: st
    type(c_ptr) :: hs
    hs = c_null_ptr
    if (present(seed)) hs = seed%h
    st = tfe_backward(loss%h, hs)
    call tf_consume_(loss)
    call tf_finish_(st, 'tf_backward', stat, errmsg)
  end subroutine tf_backward

  !> The stored gradient of x; g becomes undefined (tf_is_defined false) when x has none.
  subroutine tf_grad(g, x, stat, errmsg)
    type(tf_tensor), intent(inout) :: g
    type(tf_tensor), intent(in) :: x
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: h
    integer(c_int32_t) :: st
    st = tfe_tensor_grad(h, x%h)
    call tf_finish_(st, 'tf_grad', stat, errmsg)
    if (st == TFE_OK) call g%take_(h)
  end subroutine tf_grad

  subroutine tf_clear_grad(x, stat, errmsg)
    type(tf_tensor), intent(in) :: x
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call tf_finish_(tfe_tensor_clear_grad(x%h), 'tf_clear_grad', stat, errmsg)
  end subroutine tf_clear_grad

  subroutine tf_detach(out, x, stat, errmsg)
    type(tf_tensor), intent(inout) :: out
    class(tf_value), intent(in) :: x
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: h
    integer(c_int32_t) :: st
    st = tfe_tensor_detach(h, x%h)
    call tf_consume_(x)
    call tf_finish_(st, 'tf_detach', stat, errmsg)
    if (st == TFE_OK) call out%take_(h)
  end subroutine tf_detach

  !> grads(i) = d(seed . y)/d(xs(i)); undefined where y does not depend on xs(i).
  subroutine tf_vjp(grads, y, xs, seed, stat, errmsg)
    type(tf_tensor), intent(inout) :: grads(:)
    type(tf_tensor), intent(in) :: y
    type(tf_tensor), intent(in) :: xs(:)
    type(tf_tensor), intent(in), optional :: seed
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: hx(size(xs)), hg(size(xs)), hs
    integer(c_int32_t) :: st
    integer :: i
    if (size(grads) /= size(xs)) then
      call fail_(TFE_ERR_INVALID_ARGUMENT, 'tf_vjp: grads and xs differ in size', stat, errmsg)
      return
    end if
    do i = 1, size(xs)
      hx(i) = xs(i)%h
    end do
    hs = c_null_ptr
    if (present(seed)) hs = seed%h
    st = tfe_vjp(hg, y%h, int(size(xs), c_int32_t), hx, hs)
    call tf_finish_(st, 'tf_vjp', stat, errmsg)
    if (st /= TFE_OK) return
    do i = 1, size(xs)
      call grads(i)%take_(hg(i))
    end do
  end subroutine tf_vjp

  !> The derivative of y along tangents(i) for xs(i) (undefined when y depends on none).
  subroutine tf_jvp(out, y, xs, tangents, stat, errmsg)
    type(tf_tensor), intent(inout) :: out
    type(tf_tensor), intent(in) :: y
    type(tf_tensor), intent(in) :: xs(:), tangents(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: hx(size(xs)), ht(size(xs)), h
    integer(c_int32_t) :: st
    integer :: i
    if (size(tangents) /= size(xs)) then
      call fail_(TFE_ERR_INVALID_ARGUMENT, 'tf_jvp: tangents and xs differ in size', stat, errmsg)
      return
    end if
    do i = 1, size(xs)
      hx(i) = xs(i)%h
      ht(i) = tangents(i)%h
    end do
    st = tfe_jvp(h, y%h, int(size(xs), c_int32_t), hx, ht)
    call tf_finish_(st, 'tf_jvp', stat, errmsg)
    if (st == TFE_OK) call out%take_(h)
  end subroutine tf_jvp

  ! ---- devices (docs/cuda.md) ----

  !> Number of usable CUDA devices: 0 without the CUDA plugin, a driver or a GPU.
  integer function tf_device_count()
    integer(c_int32_t) :: n
    n = 0
    call tf_finish_(tfe_device_count(n), 'tf_device_count')
    tf_device_count = int(n)
  end function tf_device_count

  !> Where t's elements live: kind TFE_DEVICE_CPU or TFE_DEVICE_CUDA, and the ordinal.
  subroutine tf_device(t, kind, ordinal)
    type(tf_tensor), intent(in) :: t
    integer, intent(out) :: kind
    integer, intent(out), optional :: ordinal
    integer(c_int32_t) :: k, o
    k = 0
    o = 0
    call tf_finish_(tfe_tensor_device(t%h, k, o), 'tf_device')
    kind = int(k)
    if (present(ordinal)) ordinal = int(o)
  end subroutine tf_device

  !> out = x on device (kind, ordinal): the one transfer, differentiable like any op.
  subroutine tf_to_device(out, x, kind, ordinal, stat, errmsg)
    type(tf_tensor), intent(inout) :: out
    class(tf_value), intent(in) :: x
    integer, intent(in) :: kind
    integer, intent(in), optional :: ordinal
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: h
    integer(c_int32_t) :: st, o
    o = 0
    if (present(ordinal)) o = int(ordinal, c_int32_t)
    st = tfe_tensor_to_device(h, x%h, int(kind, c_int32_t), o)
    call tf_consume_(x)
    call tf_finish_(st, 'tf_to_device', stat, errmsg)
    if (st == TFE_OK) call out%take_(h)
  end subroutine tf_to_device

  !> Until tf_device_scope_exit, the creation procedures called with ctx on this thread create on
  !> device (kind, ordinal); scopes nest.
  subroutine tf_device_scope_enter(ctx, kind, ordinal, stat, errmsg)
    type(tf_context), intent(in) :: ctx
    integer, intent(in) :: kind
    integer, intent(in), optional :: ordinal
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int32_t) :: o
    o = 0
    if (present(ordinal)) o = int(ordinal, c_int32_t)
    call tf_finish_(tfe_device_scope_enter(ctx%h, int(kind, c_int32_t), o), &
                    'tf_device_scope_enter', stat, errmsg)
  end subroutine tf_device_scope_enter

  subroutine tf_device_scope_exit(ctx, stat, errmsg)
    type(tf_context), intent(in) :: ctx
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call tf_finish_(tfe_device_scope_exit(ctx%h), 'tf_device_scope_exit', stat, errmsg)
  end subroutine tf_device_scope_exit

  subroutine tf_no_grad_enter(ctx, stat, errmsg)
    type(tf_context), intent(in) :: ctx
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call tf_finish_(tfe_no_grad_enter(ctx%h), 'tf_no_grad_enter', stat, errmsg)
  end subroutine tf_no_grad_enter

  subroutine tf_no_grad_exit(ctx, stat, errmsg)
    type(tf_context), intent(in) :: ctx
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call tf_finish_(tfe_no_grad_exit(ctx%h), 'tf_no_grad_exit', stat, errmsg)
  end subroutine tf_no_grad_exit

  subroutine tf_capture_trace_enter(ctx, stat, errmsg)
    type(tf_context), intent(in) :: ctx
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call tf_finish_(tfe_capture_trace_enter(ctx%h), 'tf_capture_trace_enter', stat, errmsg)
  end subroutine tf_capture_trace_enter

  subroutine tf_capture_trace_exit(ctx, stat, errmsg)
    type(tf_context), intent(in) :: ctx
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call tf_finish_(tfe_capture_trace_exit(ctx%h), 'tf_capture_trace_exit', stat, errmsg)
  end subroutine tf_capture_trace_exit

  ! ---- linalg options ------------------------------------------------------------------------

  !> A C options object for one call (NULL when absent: all defaults); the caller releases it.
  type(c_ptr) function tf_opts_make_(opts) result(h)
    type(tf_linalg_options), intent(in), optional :: opts
    integer(c_int32_t) :: st
    h = c_null_ptr
    if (.not. present(opts)) return
    st = tfe_linalg_options_create(h)
    call tf_finish_(st, 'tf_linalg_options')
    st = ior(st, tfe_linalg_options_set_upper(h, b_(opts%upper)))
    st = ior(st, tfe_linalg_options_set_left(h, b_(opts%left)))
    st = ior(st, tfe_linalg_options_set_unit_diagonal(h, b_(opts%unit_diagonal)))
    st = ior(st, tfe_linalg_options_set_transpose(h, int(opts%transpose, c_int32_t)))
    st = ior(st, tfe_linalg_options_set_full_matrices(h, b_(opts%full_matrices)))
    st = ior(st, tfe_linalg_options_set_positive_diagonal(h, b_(opts%positive_diagonal)))
    st = ior(st, tfe_linalg_options_set_derivative_eps(h, opts%derivative_eps))
    st = ior(st, tfe_linalg_options_set_rtol(h, opts%rtol))
    st = ior(st, tfe_linalg_options_set_hermitian(h, b_(opts%hermitian)))
    if (st /= TFE_OK) then
      call tfe_linalg_options_release(h)
      error stop 'tf_linalg_options: ' // tf_last_error()
    end if
  end function tf_opts_make_

  integer(c_int32_t) function b_(flag)
    logical, intent(in) :: flag
    b_ = merge(1_c_int32_t, 0_c_int32_t, flag)
  end function b_

  include 'tenferro_ops.inc'

end module tenferro
