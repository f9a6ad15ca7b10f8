! Eager AD (variables, backward, grad, vjp, jvp, no_grad) and dataflow contexts, checked against
! derivatives written out by hand.
program test_ad
  use, intrinsic :: iso_c_binding
  use tenferro
  use tf_test_util
  implicit none
  integer, parameter :: dp = c_double
  call run_eager()
  call run_dataflow()
  call run_devices()
  call finish('test_ad')
contains
  ! Placement: the transfer (differentiable), device scopes, and clean failures without a GPU.
  subroutine run_devices()
    type(tf_context) :: ctx
    type(tf_tensor) :: x, y, loss, g, z
    real(dp) :: xv(3) = [0.5_dp, -1.0_dp, 2.0_dp], r(3)
    integer :: kind, ordinal, ierr

    call tf_context_create(ctx)
    call tf_from_array(x, ctx, xv)
    call tf_set_requires_grad(x)
    call tf_to_device(y, x, TFE_DEVICE_CPU)
    call tf_device(y, kind, ordinal)
    call check(kind == TFE_DEVICE_CPU .and. ordinal == 0, 'moved to the host')
    loss = sum(y * y)
    call tf_backward(loss)
    call tf_grad(g, x)
    call tf_to_array(g, r)
    call check_close(r, 2 * xv, 1d-12, 'the gradient flows through the transfer')
    call tf_device_scope_enter(ctx, TFE_DEVICE_CPU)
    call tf_device_scope_enter(ctx, TFE_DEVICE_CPU, 0)
    call tf_zeros(z, ctx, TFE_F64, [2, 2])
    call tf_device(z, kind)
    call check(kind == TFE_DEVICE_CPU, 'created in a host scope')
    call tf_device_scope_exit(ctx)
    call tf_device_scope_exit(ctx)
    call tf_device_scope_exit(ctx, stat=ierr)
    call check(ierr == TFE_ERR_INVALID_ARGUMENT, 'an exit without its enter is refused')
    if (tf_device_count() == 0) then
      call tf_to_device(z, x, TFE_DEVICE_CUDA, 0, stat=ierr)
      call check(ierr == TFE_ERR_DEVICE, 'no GPU: the transfer is a device error')
      call tf_device_scope_enter(ctx, TFE_DEVICE_CUDA, 0, stat=ierr)
      call check(ierr == TFE_ERR_DEVICE, 'no GPU: the scope is a device error')
    end if
    call tf_release(x)
    call tf_release(y)
    call tf_release(loss)
    call tf_release(g)
    call tf_release(z)
    call tf_release(ctx)
  end subroutine run_devices

  subroutine run_eager()
    type(tf_context) :: ctx
    type(tf_tensor) :: x, y, loss, g, gs(2), z, tan(2), jv, xs(2), seed
    real(dp) :: xv(3) = [0.5_dp, -1.0_dp, 2.0_dp], yv(3) = [1.0_dp, 3.0_dp, -2.0_dp], r(3)
    integer :: ierr

    call tf_context_create(ctx)
    call tf_from_array(x, ctx, xv)
    call tf_from_array(y, ctx, yv)
    call tf_set_requires_grad(x)
    call check(tf_requires_grad(x), 'x is a variable')
    call check(.not. tf_requires_grad(y), 'y is not')

    ! L = sum(sin(x) * y + x^2): dL/dx = cos(x) y + 2x
    loss = sum(sin(x) * y + x**2)
    call tf_backward(loss)
    call tf_grad(g, x)
    call check(tf_is_defined(g), 'gradient stored')
    call tf_to_array(g, r)
    call check_close(r, cos(xv) * yv + 2 * xv, 1d-12, 'backward: cos(x) y + 2x')
    call tf_grad(g, y)
    call check(.not. tf_is_defined(g), 'no gradient for a constant')

    ! Accumulation, then clearing.
    call tf_backward(loss)
    call tf_grad(g, x)
    call tf_to_array(g, r)
    call check_close(r, 2 * (cos(xv) * yv + 2 * xv), 1d-12, 'second backward accumulates')
    call tf_clear_grad(x)
    call tf_grad(g, x)
    call check(.not. tf_is_defined(g), 'cleared')

    ! vjp with a seed: z = x * y elementwise, seed s: grads s*y (x) and nothing for y.
    z = x * y
    call tf_from_array(seed, ctx, [1.0_dp, 2.0_dp, 3.0_dp])
    xs(1) = x
    xs(2) = y
    call tf_vjp(gs, z, xs, seed)
    call tf_to_array(gs(1), r)
    call check_close(r, [1.0_dp, 2.0_dp, 3.0_dp] * yv, 1d-12, 'vjp wrt x')
    call check(.not. tf_is_defined(gs(2)), 'vjp: y is not active')

    ! jvp of sum(x^3) along t: 3 x^2 . t
    loss = sum(x**3)
    call tf_from_array(tan(1), ctx, [1.0_dp, 0.0_dp, -1.0_dp])
    call tf_jvp(jv, loss, xs(1:1), tan(1:1))
    call check(abs(tf_item(jv) - sum(3 * xv**2 * [1.0_dp, 0.0_dp, -1.0_dp])) < 1d-12, 'jvp')

    ! no_grad: nothing recorded, so backward has nothing to differentiate.
    call tf_no_grad_enter(ctx)
    loss = sum(x * x)
    call tf_no_grad_exit(ctx)
    call check(.not. tf_requires_grad(loss), 'no_grad result untracked')
    call tf_backward(loss, stat=ierr)
    call check(ierr /= TFE_OK, 'backward of an untracked loss fails')

    ! Gradient through eigh: d(lambda_min)/dA = v v^T for A = [[2,a],[a,2]] at a = 1.
    block
      type(tf_tensor) :: a, w, v
      real(dp) :: m(2, 2), gm(2, 2), vv(2)
      m = reshape([2.0_dp, 1.0_dp, 1.0_dp, 2.0_dp], [2, 2])
      call tf_from_array(a, ctx, m)
      call tf_set_requires_grad(a)
      call tf_linalg_eigh(w, v, a)
      loss = minval(w)
      call tf_backward(loss)
      call tf_grad(g, a)
      call tf_to_array(g, gm)
      vv = [1.0_dp, -1.0_dp] / sqrt(2.0_dp)
      call check_close(reshape(gm, [4]), reshape(spread(vv, 2, 2) * spread(vv, 1, 2), [4]), &
                       1d-10, 'eigh: gradient of the smallest eigenvalue')
    end block
  end subroutine run_eager

  subroutine run_dataflow()
    type(tf_context) :: ctx
    type(tf_tensor) :: x, loss, g
    real(dp) :: xv(4) = [1.0_dp, 2.0_dp, -0.5_dp, 0.25_dp], r(4)
    integer :: sched
    do sched = TFE_SCHEDULER_THREADS, TFE_SCHEDULER_DEBUG
      call tf_context_create(ctx, dataflow=.true., scheduler=sched, threads=merge(2, 1, &
                             sched == TFE_SCHEDULER_THREADS))
      call check(tf_context_mode(ctx) == TFE_CONTEXT_DATAFLOW, 'dataflow mode')
      call tf_from_array(x, ctx, xv)
      call tf_set_requires_grad(x)
      loss = sum(exp(x) * x)
      call tf_backward(loss)
      call tf_grad(g, x)
      call tf_to_array(g, r)
      call check_close(r, exp(xv) * (1 + xv), 1d-12, 'dataflow gradient of sum(exp(x) x)')
      call check(abs(tf_item(loss) - sum(exp(xv) * xv)) < 1d-12, 'dataflow value')
    end do
  end subroutine run_dataflow
end program test_ad
