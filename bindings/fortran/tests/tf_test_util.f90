! Assertions shared by the Fortran tests: a failed check prints its label and the test exits
! non-zero at the end, so one run reports every failure.
module tf_test_util
  use, intrinsic :: iso_c_binding, only: c_double, c_int64_t
  use tenferro, only: tf_live_objects
  implicit none
  private
  public :: check, check_close, finish
  integer :: failures = 0, checks = 0
contains
  subroutine check(cond, label)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: label
    checks = checks + 1
    if (.not. cond) then
      failures = failures + 1
      print '(a,a)', 'FAIL: ', label
    end if
  end subroutine check

  subroutine check_close(got, want, tol, label)
    real(c_double), intent(in) :: got(:), want(:)
    real(c_double), intent(in) :: tol
    character(len=*), intent(in) :: label
    real(c_double) :: err
    if (size(got) /= size(want)) then
      call check(.false., label // ' (sizes differ)')
      return
    end if
    err = 0
    if (size(got) > 0) err = maxval(abs(got - want))
    if (err > tol) print '(a,a,es10.3)', label, ': max abs error ', err
    call check(err <= tol, label)
  end subroutine check_close

  !> Called after every tensor and context went out of scope: the library must hold no object.
  subroutine finish(name)
    character(len=*), intent(in) :: name
    integer(c_int64_t) :: live
    live = tf_live_objects()
    call check(live == 0, 'no live library objects at exit')
    print '(a,a,i0,a,i0,a,i0)', name, ': checks ', checks, ', failures ', failures, &
      ', live objects ', live
    if (failures /= 0) error stop 1
  end subroutine finish
end module tf_test_util
