! tf_from_array / tf_to_array for every element type and ranks 0 to 7, borrowed views, logical
! kinds, and the shape checks of tf_to_array.
program test_arrays
  use, intrinsic :: iso_c_binding
  use tenferro
  use tenferro_c, only: tfe_tensor_data, tfe_tensor_stride
  use tf_test_util
  implicit none
  call run()
  call finish('test_arrays')
contains
  subroutine run()
    type(tf_context) :: ctx
    type(tf_tensor) :: t, u
    real(c_double) :: s0, s0b, m(2, 3), m2(2, 3), r7(2, 1, 2, 1, 2, 1, 2), r7b(2, 1, 2, 1, 2, 1, 2)
    real(c_double), target :: buf(3, 2)
    real(c_float) :: f3(2, 2, 2), f3b(2, 2, 2)
    complex(c_float_complex) :: c1(3), c1b(3)
    complex(c_double_complex) :: z2(2, 2), z2b(2, 2)
    integer(c_int32_t) :: i4(4), i4b(4)
    integer(c_int64_t) :: i8(2, 2), i8b(2, 2), stride
    logical(c_bool) :: lb(3), lbb(3)
    logical :: ld(2, 2), ldb(2, 2)
    real(c_double) :: wrong(3, 2)
    real(c_double), allocatable :: empty(:), emptyb(:)
    type(c_ptr) :: p
    integer :: i, ierr
    character(len=200) :: msg

    call tf_context_create(ctx)
    s0 = 4.25d0
    call tf_from_array(t, ctx, s0)
    call check(tf_ndim(t) == 0, 'rank 0')
    call tf_to_array(t, s0b)
    call check(s0b == s0, 'rank-0 round trip')

    m = reshape([(real(i, c_double), i = 1, 6)], [2, 3])
    call tf_from_array(t, ctx, m)
    call check(all(tf_shape(t) == [2, 3]), 'shape taken from the array')
    ! Column-major: stride of dim 0 is 1, of dim 1 is 2, exactly Fortran's layout.
    call check(tfe_tensor_stride(t%h, 1_c_int64_t, stride) == TFE_OK .and. stride == 2, &
               'column-major strides')
    call tf_to_array(t, m2)
    call check(all(m2 == m), 'real64 rank 2')
    u = transpose(t)
    call check(all(tf_shape(u) == [3, 2]), 'transpose shape')
    block
      real(c_double) :: mt(3, 2)
      call tf_to_array(u, mt)
      call check(all(mt == transpose(m)), 'transpose values as Fortran transpose')
    end block

    r7 = reshape([(real(i, c_double), i = 1, 16)], shape(r7))
    call tf_from_array(t, ctx, r7)
    call check(tf_ndim(t) == 7, 'rank 7')
    call tf_to_array(t, r7b)
    call check(all(r7b == r7), 'rank-7 round trip')

    f3 = reshape([(real(i, c_float) / 3, i = 1, 8)], shape(f3))
    call tf_from_array(t, ctx, f3)
    call check(tf_dtype(t) == TFE_F32, 'real32 dtype')
    call tf_to_array(t, f3b)
    call check(all(f3b == f3), 'real32 round trip')

    c1 = [(cmplx(i, -i, c_float_complex), i = 1, 3)]
    call tf_from_array(t, ctx, c1)
    call check(tf_dtype(t) == TFE_C32, 'complex32 dtype')
    call tf_to_array(t, c1b)
    call check(all(c1b == c1), 'complex32 round trip')

    z2 = reshape([(cmplx(i, 2 * i, c_double_complex), i = 1, 4)], [2, 2])
    call tf_from_array(t, ctx, z2)
    call check(tf_dtype(t) == TFE_C64, 'complex64 dtype')
    call tf_to_array(t, z2b)
    call check(all(z2b == z2), 'complex64 round trip')
    call tf_to_array(aimag(t), m2(:, 1:2))
    call check(all(m2(:, 1:2) == aimag(z2)), 'imaginary part through a section')

    i4 = [3, -1, 7, 0]
    call tf_from_array(t, ctx, i4)
    call check(tf_dtype(t) == TFE_I32, 'int32 dtype')
    call tf_to_array(t, i4b)
    call check(all(i4b == i4), 'int32 round trip')

    i8 = reshape([huge(1_c_int64_t), -5_c_int64_t, 0_c_int64_t, 9_c_int64_t], [2, 2])
    call tf_from_array(t, ctx, i8)
    call check(tf_dtype(t) == TFE_I64, 'int64 dtype')
    call tf_to_array(t, i8b)
    call check(all(i8b == i8), 'int64 round trip')

    lb = [.true._c_bool, .false._c_bool, .true._c_bool]
    call tf_from_array(t, ctx, lb)
    call check(tf_dtype(t) == TFE_BOOL, 'logical(c_bool) dtype')
    call tf_to_array(t, lbb)
    call check(logical(all(lbb .eqv. lb)), 'logical(c_bool) round trip')

    ld = reshape([.false., .true., .true., .false.], [2, 2])
    call tf_from_array(t, ctx, ld)
    call check(tf_dtype(t) == TFE_BOOL, 'default logical becomes Bool')
    call tf_to_array(not(t), ldb)
    call check(all(ldb .eqv. .not. ld), 'default logical round trip through not')

    ! An integer tensor read into a real64 array: converted (lossless).
    call tf_from_array(t, ctx, i4)
    block
      real(c_double) :: d4(4)
      call tf_to_array(t, d4)
      call check(all(d4 == real(i4, c_double)), 'int32 read as real64')
    end block

    allocate(empty(0), emptyb(0))
    call tf_from_array(t, ctx, empty)
    call check(tf_numel(t) == 0, 'empty array')
    call tf_to_array(t, emptyb)

    call tf_from_array(t, ctx, m)
    msg = ''
    call tf_to_array(t, wrong, stat=ierr, errmsg=msg)
    call check(ierr == TFE_ERR_SHAPE_MISMATCH, 'to_array into another shape fails')
    call check(index(msg, 'tf_to_array') == 1, 'shape message')
    call tf_from_array(t, ctx, z2)
    call tf_to_array(t, m2(:, 1:2), stat=ierr)
    call check(ierr == TFE_ERR_DTYPE_MISMATCH, 'complex into real is refused')

    ! A borrowed view shares the array's memory.
    buf = reshape([(real(i, c_double), i = 1, 6)], [3, 2])
    call tf_view_array(t, ctx, buf)
    call check(tfe_tensor_data(t%h, p) == TFE_OK, 'data pointer of a view')
    call check(c_associated(p, c_loc(buf)), 'the view does not copy')
    call tf_sum(u, t * 2.0d0)
    call check(tf_item(u) == 42.0d0, 'computing on a view')
    call tf_view_array(u, ctx, buf(1:3:2, :), stat=ierr)
    call check(ierr == TFE_ERR_INVALID_ARGUMENT, 'a non-contiguous section cannot be viewed')
    call tf_release(t)
    call tf_release(u)
  end subroutine run
end program test_arrays
