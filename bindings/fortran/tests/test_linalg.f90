! Every linalg function of the module, each checked against values computed here in plain
! Fortran (residuals, reconstructions, closed forms), plus the error path of a singular solve.
program test_linalg
  use, intrinsic :: iso_c_binding
  use tenferro
  use tf_test_util
  implicit none
  integer, parameter :: dp = c_double
  call run()
  call finish('test_linalg')
contains
  function get2(t, m, n) result(x)
    type(tf_tensor), intent(in) :: t
    integer, intent(in) :: m, n
    real(dp) :: x(m, n)
    call tf_to_array(t, x)
  end function get2

  function get1(t, n) result(x)
    type(tf_tensor), intent(in) :: t
    integer, intent(in) :: n
    real(dp) :: x(n)
    call tf_to_array(t, x)
  end function get1

  function eye(n) result(x)
    integer, intent(in) :: n
    real(dp) :: x(n, n)
    integer :: i
    x = 0
    do i = 1, n
      x(i, i) = 1
    end do
  end function eye

  subroutine run()
    type(tf_context) :: ctx
    type(tf_tensor) :: ta, tb, tr, x, q, r, u, s, vh, w, v, l, p, lu, piv, info, sgn, la, tt
    type(tf_tensor) :: xs(3), e, e2
    type(tf_linalg_options) :: opts
    real(dp) :: a(3, 3), spd(3, 3), b(3, 2), tall(4, 2), rhs4(4, 1), s3(3), w3(3)
    real(dp) :: xx(3, 2), m33(3, 3), m42(4, 2), m22(2, 2), m24(2, 4), m32(3, 2), d0, s2(2)
    complex(dp) :: zw(2), zv(2, 2)
    integer(c_int32_t) :: ipiv(3), iinfo
    integer :: ierr, k
    character(len=200) :: msg

    a = reshape([4.0_dp, 1.0_dp, 2.0_dp, 1.0_dp, 3.0_dp, 0.5_dp, 2.0_dp, 0.0_dp, 5.0_dp], [3, 3])
    spd = matmul(transpose(a), a) + eye(3)
    b = reshape([1.0_dp, 2.0_dp, 3.0_dp, -1.0_dp, 0.0_dp, 2.0_dp], [3, 2])
    tall = reshape([1.0_dp, 1.0_dp, 1.0_dp, 1.0_dp, 0.0_dp, 1.0_dp, 2.0_dp, 3.0_dp], [4, 2])
    rhs4(:, 1) = [1.0_dp, 2.0_dp, 2.0_dp, 4.0_dp]

    call tf_context_create(ctx)
    call tf_from_array(ta, ctx, a)
    call tf_from_array(tb, ctx, b)

    call tf_linalg_solve(x, ta, tb)
    xx = get2(x, 3, 2)
    call check_close(reshape(matmul(a, xx), [6]), reshape(b, [6]), 1d-12, 'solve: A X = B')

    tr = linalg_inv(ta)
    call check_close(reshape(matmul(a, get2(tr, 3, 3)), [9]), reshape(eye(3), [9]), 1d-12, 'inv')

    d0 = a(1,1)*(a(2,2)*a(3,3)-a(2,3)*a(3,2)) - a(1,2)*(a(2,1)*a(3,3)-a(2,3)*a(3,1)) &
       + a(1,3)*(a(2,1)*a(3,2)-a(2,2)*a(3,1))
    call check(abs(tf_item(linalg_det(ta)) - d0) < 1d-12, 'det: cofactor expansion')
    call tf_linalg_slogdet(sgn, la, ta)
    call check(abs(tf_item(sgn) * exp(tf_item(la)) - d0) < 1d-11, 'slogdet')

    call tf_from_array(tr, ctx, spd)
    call tf_linalg_cholesky(l, tr)
    m33 = get2(l, 3, 3)
    call check_close(reshape(matmul(m33, transpose(m33)), [9]), reshape(spd, [9]), 1d-12, &
                     'cholesky: L L^T = A')
    opts = tf_linalg_options(upper=.true.)
    call tf_linalg_cholesky_ex(u, tr, opts)
    m33 = get2(u, 3, 3)
    call check_close(reshape(matmul(transpose(m33), m33), [9]), reshape(spd, [9]), 1d-12, &
                     'cholesky_ex upper: U^T U = A')

    call tf_from_array(tt, ctx, tall)
    call tf_linalg_qr(q, r, tt)
    m42 = get2(q, 4, 2)
    call check_close(reshape(matmul(m42, get2(r, 2, 2)), [8]), reshape(tall, [8]), 1d-12, 'qr: QR = A')
    call check_close(reshape(matmul(transpose(m42), m42), [4]), reshape(eye(2), [4]), 1d-12, &
                     'qr: Q orthonormal')
    opts = tf_linalg_options(full_matrices=.true., positive_diagonal=.true.)
    call tf_linalg_qr_ex(q, r, tt, opts)
    call check(all(tf_shape(q) == [4, 4]), 'qr_ex complete Q')
    e = extract_diag(r, 0, 1)
    call check(all(get1(e, 2) >= 0), 'qr_ex positive diagonal')

    call tf_linalg_svd(u, s, vh, tt)
    s2 = get1(s, 2)
    m42 = get2(u, 4, 2)
    m22 = get2(vh, 2, 2)
    do k = 1, 2
      m42(:, k) = m42(:, k) * s2(k)
    end do
    call check_close(reshape(matmul(m42, m22), [8]), reshape(tall, [8]), 1d-12, 'svd: U S Vh = A')
    call check(s2(1) >= s2(2), 'svd: descending')
    e = linalg_svdvals(tt)
    call check_close(get1(e, 2), s2, 1d-12, 'svdvals = svd values')
    opts = tf_linalg_options(full_matrices=.true.)
    call tf_linalg_svd_ex(u, s, vh, tt, opts)
    call check(all(tf_shape(u) == [4, 4]), 'svd_ex full U')

    ! eigh of the symmetric [[2,1],[1,2]]: eigenvalues 1 and 3.
    m22 = reshape([2.0_dp, 1.0_dp, 1.0_dp, 2.0_dp], [2, 2])
    call tf_from_array(tr, ctx, m22)
    call tf_linalg_eigh(w, v, tr)
    call check_close(get1(w, 2), [1.0_dp, 3.0_dp], 1d-12, 'eigh values')
    block
      real(dp) :: vv(2, 2), wv(2)
      vv = get2(v, 2, 2)
      wv = get1(w, 2)
      call check_close(reshape(matmul(m22, vv), [4]), reshape(vv * spread(wv, 1, 2), [4]), 1d-12, &
                       'eigh: A V = V diag(w)')
    end block
    opts = tf_linalg_options(upper=.true.)
    call tf_linalg_eigh_ex(w, v, tr, opts)
    call check_close(get1(w, 2), [1.0_dp, 3.0_dp], 1d-12, 'eigh_ex values')
    e = linalg_eigvalsh(tr)
    call check_close(get1(e, 2), [1.0_dp, 3.0_dp], 1d-12, 'eigvalsh')

    ! eig of the rotation generator [[0,-1],[1,0]]: eigenvalues +-i.
    m22 = reshape([0.0_dp, 1.0_dp, -1.0_dp, 0.0_dp], [2, 2])
    call tf_from_array(tr, ctx, m22)
    call tf_linalg_eig(w, v, tr)
    call tf_to_array(w, zw)
    call tf_to_array(v, zv)
    call check(abs(abs(aimag(zw(1))) - 1) < 1d-12 .and. abs(zw(1) + zw(2)) < 1d-12, 'eig values +-i')
    call check(maxval(abs(matmul(cmplx(m22, 0, dp), zv) - zv * spread(zw, 1, 2))) < 1d-12, &
               'eig: A V = V diag(w)')
    call tf_linalg_eig_ex(w, v, tr, tf_linalg_options())
    call tf_to_array(linalg_eigvals(tr), zw)
    call check(abs(zw(1) * zw(2) - 1) < 1d-12, 'eigvals product = det')

    ! Triangular solve with the lower triangle of a.
    call tf_linalg_solve_triangular(x, ta, tb, tf_linalg_options())
    m33 = a
    m33(1, 2:3) = 0
    m33(2, 3) = 0
    call check_close(reshape(matmul(m33, get2(x, 3, 2)), [6]), reshape(b, [6]), 1d-12, &
                     'solve_triangular (lower)')

    call tf_linalg_lu_factor(lu, piv, info, ta)
    call tf_to_array(piv, ipiv)
    call tf_to_array(info, iinfo)
    call check(iinfo == 0 .and. all(ipiv >= 1 .and. ipiv <= 3), 'lu_factor pivots and info')
    call tf_linalg_lu_solve(x, lu, piv, tb)
    call check_close(reshape(matmul(a, get2(x, 3, 2)), [6]), reshape(b, [6]), 1d-12, 'lu_solve')
    call tf_linalg_lu(p, l, u, ta)
    call check_close(reshape(matmul(get2(p, 3, 3), matmul(get2(l, 3, 3), get2(u, 3, 3))), [9]), &
                     reshape(a, [9]), 1d-12, 'lu: P L U = A')

    ! exp of the nilpotent [[0,1],[0,0]] is I + N.
    m22 = reshape([0.0_dp, 0.0_dp, 1.0_dp, 0.0_dp], [2, 2])
    call tf_from_array(tr, ctx, m22)
    e = linalg_matrix_exp(tr)
    call check_close(reshape(get2(e, 2, 2), [4]), &
                     [1.0_dp, 0.0_dp, 1.0_dp, 1.0_dp], 1d-14, 'matrix_exp')

    call tf_linalg_pinv(x, tt)
    m24 = get2(x, 2, 4)
    call check_close(reshape(matmul(tall, matmul(m24, tall)), [8]), reshape(tall, [8]), 1d-12, &
                     'pinv: A A+ A = A')
    call tf_from_array(tr, ctx, rhs4)
    call tf_linalg_lstsq(x, tt, tr)
    ! The normal equations A^T A x = A^T b, solved here by Cramer's rule.
    block
      real(dp) :: g(2, 2), h(2), sol(2), det
      g = matmul(transpose(tall), tall)
      h = matmul(transpose(tall), rhs4(:, 1))
      det = g(1, 1) * g(2, 2) - g(1, 2) * g(2, 1)
      sol = [(h(1) * g(2, 2) - g(1, 2) * h(2)) / det, (g(1, 1) * h(2) - g(2, 1) * h(1)) / det]
      call check_close(reshape(get2(x, 2, 1), [2]), sol, 1d-12, 'lstsq: normal equations')
    end block

    call check(abs(tf_item(linalg_matrix_norm(ta, TFE_NORM_FRO)) - sqrt(sum(a**2))) < 1d-12, &
               'matrix_norm fro')
    call check(abs(tf_item(linalg_matrix_norm(ta, TFE_NORM_1)) - maxval(sum(abs(a), 1))) < 1d-12, &
               'matrix_norm 1')
    call check(abs(tf_item(linalg_vector_norm(tb, 1.0_dp)) - sum(abs(b))) < 1d-12, 'vector_norm 1')
    e = linalg_vector_norm(tb, 2.0_dp, axes=[0])
    call check_close(get1(e, 2), &
                     sqrt(sum(b**2, 1)), 1d-12, 'vector_norm over axis 0')
    m33 = 0
    m33(1, 1) = 4; m33(2, 2) = 2; m33(3, 3) = 0.5_dp
    call tf_from_array(tr, ctx, m33)
    call check(abs(tf_item(linalg_cond(tr, TFE_NORM_2)) - 8) < 1d-12, 'cond of a diagonal matrix')
    e = linalg_matrix_power(ta, 3)
    call check_close(reshape(get2(e, 3, 3), [9]), &
                     reshape(matmul(a, matmul(a, a)), [9]), 1d-10, 'matrix_power 3')
    e = linalg_matrix_power(ta, -1)
    e2 = linalg_inv(ta)
    call check_close(reshape(get2(e, 3, 3), [9]), &
                     reshape(get2(e2, 3, 3), [9]), 1d-12, 'matrix_power -1')

    xs(1) = ta
    xs(2) = ta
    xs(3) = tb
    e = linalg_multi_dot(xs)
    call check_close(reshape(get2(e, 3, 2), [6]), &
                     reshape(matmul(a, matmul(a, b)), [6]), 1d-10, 'multi_dot')
    e = linalg_vecdot(tb, tb, 0)
    call check_close(get1(e, 2), sum(b * b, 1), 1d-12, 'vecdot')
    s3 = [2.0_dp, 3.0_dp, -1.0_dp]
    call tf_from_array(tr, ctx, s3)
    e = linalg_vander(tr, 3)
    m33 = get2(e, 3, 3)
    call check_close(reshape(m33, [9]), reshape([[1.0_dp, 1.0_dp, 1.0_dp], s3, s3**2], [9]), 0d0, &
                     'vander: column k is x^k')

    ! tensorinv/tensorsolve on a [3,3] operator (ind 1) agree with inv/solve.
    e = linalg_tensorinv(ta, 1)
    e2 = linalg_inv(ta)
    call check_close(reshape(get2(e, 3, 3), [9]), &
                     reshape(get2(e2, 3, 3), [9]), 1d-12, 'tensorinv')
    w3 = [1.0_dp, 0.0_dp, -2.0_dp]
    call tf_from_array(tr, ctx, w3)
    e = linalg_tensorsolve(ta, tr)
    call check_close(matmul(a, get1(e, 3)), w3, 1d-12, 'tensorsolve')

    ! A singular system: the status and the message come back through stat/errmsg.
    m33 = 1
    call tf_from_array(tr, ctx, m33)
    msg = ''
    call tf_linalg_solve(x, tr, tb, stat=ierr, errmsg=msg)
    call check(ierr == TFE_ERR_SINGULAR, 'singular solve status')
    call check(index(msg, 'tfe_linalg_solve') == 1, 'singular solve message: ' // trim(msg))
    call tf_linalg_cholesky(x, ta - 10.0_dp, stat=ierr)
    call check(ierr == TFE_ERR_NUMERICAL, 'cholesky of an indefinite matrix')
    m32 = 0
    call tf_from_array(tr, ctx, m32)
    call tf_linalg_inv(x, tr, stat=ierr)
    call check(ierr == TFE_ERR_SHAPE_MISMATCH, 'inv of a non-square matrix')
  end subroutine run

end program test_linalg
