! Ground-state energy of a 4-site transverse-field Ising chain (open ends),
!   H(h) = -sum_i Z_i Z_{i+1} - h sum_i X_i,
! built as plain Fortran arrays, and dE0/dh by reverse-mode AD through eigh, compared with a
! central finite difference. Exits non-zero when the two disagree.
program ising
  use, intrinsic :: iso_c_binding
  use tenferro
  implicit none
  integer, parameter :: dp = c_double, nsites = 4, dim = 2**nsites
  real(dp), parameter :: field = 0.7_dp, step = 1e-5_dp
  real(dp) :: hzz(dim, dim), hx(dim, dim), e0, de_ad, de_fd
  integer :: status

  call build(hzz, hx)
  call energy_and_gradient(field, e0, de_ad)
  de_fd = (energy(field + step) - energy(field - step)) / (2 * step)
  print '(a,f6.3,a,f14.10)', 'h = ', field, '  E0 = ', e0
  print '(a,f14.10,a,f14.10,a,es9.2)', 'dE0/dh: AD ', de_ad, '  finite difference ', de_fd, &
    '  difference ', abs(de_ad - de_fd)
  status = 0
  if (abs(de_ad - de_fd) > 1e-6_dp) status = 1
  if (tf_live_objects() /= 0) status = 2
  if (status /= 0) error stop status
  print '(a)', 'ising: AD gradient agrees with finite differences'
contains
  subroutine build(zz, x)
    real(dp), intent(out) :: zz(dim, dim), x(dim, dim)
    integer :: s, i, flipped
    zz = 0
    x = 0
    do s = 0, dim - 1
      do i = 0, nsites - 2
        ! Z_i Z_{i+1} is +1 on equal bits, -1 on different ones.
        zz(s + 1, s + 1) = zz(s + 1, s + 1) - merge(1.0_dp, -1.0_dp, &
          btest(s, i) .eqv. btest(s, i + 1))
      end do
      do i = 0, nsites - 1
        flipped = ieor(s, ishft(1, i))
        x(flipped + 1, s + 1) = x(flipped + 1, s + 1) - 1
      end do
    end do
  end subroutine build

  subroutine energy_and_gradient(h, e, de)
    real(dp), intent(in) :: h
    real(dp), intent(out) :: e, de
    type(tf_context) :: ctx
    type(tf_tensor) :: th, tzz, tx, ham, w, v, e0t, g
    call tf_context_create(ctx)
    call tf_from_array(tzz, ctx, hzz)
    call tf_from_array(tx, ctx, hx)
    call tf_from_array(th, ctx, h)
    call tf_set_requires_grad(th)
    ham = tzz + th * tx
    call tf_linalg_eigh(w, v, ham)
    e0t = minval(w)
    e = tf_item(e0t)
    call tf_backward(e0t)
    call tf_grad(g, th)
    de = tf_item(g)
  end subroutine energy_and_gradient

  real(dp) function energy(h)
    real(dp), intent(in) :: h
    real(dp) :: w(dim)
    type(tf_context) :: ctx
    type(tf_tensor) :: ham, tw
    call tf_context_create(ctx)
    call tf_from_array(ham, ctx, hzz + h * hx)
    call tf_linalg_eigvalsh(tw, ham)
    call tf_to_array(tw, w)
    energy = minval(w)
  end function energy
end program ising
