# Tests of the Julia package (run by bindings/julia/test.sh where julia exists).
using Test
using LinearAlgebra
using Tenferro

@testset "Tenferro" begin
    @testset "round trips, column-major" begin
        a = reshape(collect(1.0:6.0), 2, 3)
        t = Tensor(a)
        @test size(t) == (2, 3)
        @test eltype(t) == Float64
        @test ndims(t) == 2
        @test Array(t) == a
        for x in (Float32[1, 2], ComplexF32[1 + 2im], ComplexF64[3 - 1im 2], Int32[4, 5],
                  Int64[7], [true, false], fill(2.5))
            @test Array(Tensor(x)) == x
            @test eltype(Tensor(x)) == eltype(x)
        end
        b = [1.0, 2.0, 3.0]
        v = Tensor(b; copy=false)
        @test Array(v .* 2) == 2 .* b
        @test shared_array(t) == a
    end

    @testset "devices" begin
        x = Tensor([0.5, -1.0, 2.0])
        @test device(x) == (:cpu, 0)
        requires_grad!(x)
        backward!(sum(to_device(x, :cpu) .* to_device(x, :cpu)))
        @test Array(grad(x)) ≈ 2 .* [0.5, -1.0, 2.0]
        @test device(on_device(() -> Tensor([1.0]), :cpu)) == (:cpu, 0)
        if device_count() == 0
            @test_throws DeviceError to_device(x, :cuda)
            @test_throws DeviceError on_device(() -> nothing, :cuda)
        end
    end

    @testset "arithmetic and broadcasting" begin
        x = [0.5, -1.0, 2.0]
        y = [1.0, 3.0, -2.0]
        tx, ty = Tensor(x), Tensor(y)
        @test Array(tx + ty) ≈ x + y
        @test Array(tx .* ty .- 2) ≈ x .* y .- 2
        @test Array(exp.(tx) ./ (1 .+ ty .^ 2)) ≈ exp.(x) ./ (1 .+ y .^ 2)
        m = reshape(collect(1.0:6.0), 2, 3)
        @test Array(Tensor(m) .+ Tensor([10.0, 20.0])) == m .+ [10.0, 20.0]
        @test Array(Tensor(m) * Tensor(m')) ≈ m * m'
        @test_throws ShapeMismatchError Tensor(m) .+ Tensor([1.0, 2.0, 3.0])
        err = try
            Tensor(m) .+ Tensor([1.0, 2.0, 3.0])
        catch e
            e
        end
        @test startswith(err.msg, "tfe_add")
        @test Array(sum(Tensor(m); dims=1)) ≈ vec(sum(m; dims=1))
    end

    @testset "linear algebra" begin
        a = [4.0 1 2; 1 3 0; 2 0.5 5]
        ta = Tensor(a)
        @test Array(det(ta))[] ≈ det(a)
        @test Array(inv(ta)) ≈ inv(a)
        b = [1.0 -1; 2 0; 3 2]
        @test Array(ta \ Tensor(b)) ≈ a \ b
        s = a' * a + I
        @test Array(cholesky(Tensor(s)).L) ≈ cholesky(s).L
        w, v = eigen(Tensor([2.0 1; 1 2]); hermitian=true)
        @test Array(w) ≈ [1.0, 3.0]
        F = svd(ta)
        @test Array(F.S) ≈ svdvals(a)
        Q, R = qr(ta)
        @test Array(Q) * Array(R) ≈ a
        @test_throws SingularError Tensor(ones(3, 3)) \ Tensor(b)
    end

    @testset "eager AD" begin
        x = [0.5, -1.0, 2.0]
        (g,) = gradient(t -> sum(sin.(t) .* t), Tensor(x))
        @test Array(g) ≈ cos.(x) .* x .+ sin.(x)
        tx = requires_grad!(Tensor(x))
        loss = sum(tx .* tx)
        backward!(loss)
        @test Array(grad(tx)) ≈ 2 .* x
        y = tx .^ 3
        gs = vjp(y, [tx]; seed=Tensor(ones(3)))
        @test Array(gs[1]) ≈ 3 .* x .^ 2
        @test Array(jvp(sum(y), [tx], [Tensor([1.0, 0, 0])]))[] ≈ 3 * x[1]^2
    end

    @testset "traced programs and dataflow" begin
        f = traced((a, b) -> sum(a .* b), Float64 => (-1,), Float64 => (-1,))
        @test Array(f(Tensor([1.0, 2.0]), Tensor([3.0, 4.0])))[] ≈ 11.0
        @test Array(f(Tensor([1.0, 2.0, 3.0]), Tensor([1.0, 1.0, 1.0])))[] ≈ 6.0
        ctx = Context(; dataflow=true, scheduler=TFE_SCHEDULER_DEBUG)
        tx = requires_grad!(Tensor([1.0, 2.0]; ctx=ctx))
        backward!(sum(exp.(tx)))
        @test Array(grad(tx)) ≈ exp.([1.0, 2.0])
    end

    @testset "no live objects after collection" begin
        GC.gc(true)
        GC.gc(true)
        # The default context lives for the session; everything else must be gone.
        @test live_objects() <= 1
    end
end
