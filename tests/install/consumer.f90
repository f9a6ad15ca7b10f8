! Built against an installed tree through pkg-config (tools/test_install.sh): the Fortran module
! computes sum(a*a) and leaves no library object alive.
program consumer
  use tenferro
  implicit none
  call run()
  if (tf_live_objects() /= 0) error stop 2
  print '(a)', "fortran consumer: ok"
contains
  subroutine run()
    type(tf_context) :: ctx
    type(tf_tensor) :: a, s
    call tf_context_create(ctx)
    call tf_from_array(a, ctx, [1d0, 2d0, 3d0])
    s = sum(a * a)
    if (abs(tf_item(s) - 14d0) > 1d-12) error stop 1
  end subroutine
end program
