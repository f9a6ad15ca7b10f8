! Reference counting of tf_tensor: retaining assignment, moved expression results, operands
! consumed by operators and functions, finalization at scope exit, error paths with stat=.
program test_ownership
  use, intrinsic :: iso_c_binding
  use tenferro
  use tf_test_util
  implicit none
  call run()
  call finish('test_ownership')
contains
  subroutine run()
    type(tf_context) :: ctx, ctx2
    type(tf_tensor) :: a, b, c, d
    type(tf_tensor), allocatable :: many(:)
    real(c_double) :: x(3) = [1.0d0, 2.0d0, 3.0d0], y(3) = [0.5d0, -1.0d0, 4.0d0], r(3)
    integer(c_int64_t) :: base, after
    integer :: i, ierr
    character(len=200) :: msg

    call tf_context_create(ctx)
    call tf_from_array(a, ctx, x)
    call tf_from_array(b, ctx, y)
    base = tf_live_objects()

    ! tensor = tensor retains: releasing one name leaves the other usable.
    c = a
    call check(tf_live_objects() == base, 'assignment shares the handle (no new object)')
    call tf_release(a)
    call check(.not. tf_is_defined(a), 'tf_release undefines')
    call tf_to_array(c, r)
    call check_close(r, x, 0d0, 'value survives release of the other name')
    a = c
    a = a
    call tf_to_array(a, r)
    call check_close(r, x, 0d0, 'self-assignment keeps the tensor')

    ! Expressions: every intermediate is consumed; only the assigned result stays.
    do i = 1, 50
      d = (a + b) * 2.0d0 - exp(a) / (1.0d0 + b**2) + sqrt(abs(b)) - (-a)
    end do
    call tf_to_array(d, r)
    call check_close(r, (x + y) * 2 - exp(x) / (1 + y**2) + sqrt(abs(y)) + x, 1d-12, &
                     'expression value')
    call check(tf_live_objects() == base + 1, 'expressions leave exactly the result alive')

    ! Reassignment releases the previous value.
    d = a * b
    d = d + a
    call check(tf_live_objects() == base + 1, 'reassignment releases the old value')
    call tf_to_array(d, r)
    call check_close(r, x * y + x, 1d-15, 'reassignment value')

    ! A subroutine output that already holds a tensor releases it.
    call tf_exp(d, a)
    call tf_exp(d, d)
    call tf_to_array(d, r)
    call check_close(r, exp(exp(x)), 1d-9, 'subroutine output replaced (aliasing input)')
    call check(tf_live_objects() == base + 1, 'subroutine outputs do not leak')

    ! Function results consumed by subroutines and inspection functions.
    call tf_sum(c, a * b)
    call check(abs(tf_item(c) - sum(x * y)) < 1d-12, 'sum of an expression')
    call check(tf_ndim(a + b) == 1, 'inspection consumes its expression')
    call check(all(tf_shape(matmul(reshape(a, [3, 1]), reshape(b, [1, 3]))) == [3, 3]), &
               'shape of a nested expression')
    call check(tf_live_objects() == base + 2, 'no leak through consumed expressions')

    ! Arrays of tensors are finalized elementwise.
    allocate(many(4))
    do i = 1, 4
      many(i) = a * real(i, c_double)
    end do
    call check(tf_live_objects() == base + 6, 'four tensors in an array')
    deallocate(many)
    call check(tf_live_objects() == base + 2, 'deallocation finalizes the array')

    ! Errors through stat= and errmsg= leave the output alone and leak nothing.
    d = a
    call tf_from_array(c, ctx, [1.0d0, 2.0d0])
    msg = ''
    call tf_add(d, a, c, stat=ierr, errmsg=msg)
    call check(ierr == TFE_ERR_SHAPE_MISMATCH, 'shape mismatch status')
    call check(index(msg, 'tfe_add') == 1, 'message starts with the C function name')
    call tf_to_array(d, r)
    call check_close(r, x, 0d0, 'failed call leaves its output unchanged')
    call tf_add(d, a + b, c, stat=ierr)
    call check(ierr == TFE_ERR_SHAPE_MISMATCH, 'expression operand of a failing call')
    call check(tf_live_objects() == base + 1, 'failing call consumed its expression operand')

    ! Contexts: assignment retains; a tensor keeps its context alive.
    ctx2 = ctx
    call tf_release(ctx)
    call tf_ones(c, ctx2, TFE_F32, [2, 2])
    call check(tf_dtype(c) == TFE_F32, 'ones in a copied context')
    call check(tf_context_mode(ctx2) == TFE_CONTEXT_EAGER, 'eager mode')
    after = tf_live_objects()
    call check(after > 0, 'objects live inside the scope')
  end subroutine run
end program test_ownership
