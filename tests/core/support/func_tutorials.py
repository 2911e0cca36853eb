"""Programs that follow PyTorch's tutorials on forward-mode AD and ``torch.func`` step for
step, run under PyTorch 2.13 and under ``import minigrad as torch`` by
``tests/core/programs/test_func_tutorials.py``.

Each was checked against the real text of the tutorial named in its docstring (repository
pytorch/tutorials) and is written for this kit in the tutorials' own order of calls. What
differs, the same in every program: on the CPU, smaller sizes (minigrad's vmap is a loop,
and jacfwd/jacrev a backward per column/row, so the tutorials' 2048-wide Jacobians and
their Timer benchmarks are left out), and prints added where the tutorial only asserts.
functorch's ``make_functional_with_buffers`` is written with ``torch.func.functional_call``
(functorch is a separate package), and ensembling's ``base_model.to('meta')`` is left out
(minigrad has no meta device). Each program takes the library as ``torch``, prints, and
returns a dict of the tensors it ends with.
"""

from __future__ import annotations

import functools


def forward_ad_usage(torch):
    """pytorch/tutorials intermediate_source/forward_ad_usage.py (functorch's
    make_functional_with_buffers section written with torch.func.functional_call)."""
    fwAD = torch.autograd.forward_ad
    nn = torch.nn
    primal = torch.randn(10, 10)
    tangent = torch.randn(10, 10)

    def fn(x, y):
        return x ** 2 + y ** 2

    with fwAD.dual_level():
        dual_input = fwAD.make_dual(primal, tangent)
        assert fwAD.unpack_dual(dual_input).tangent is tangent
        dual_input_alt = fwAD.make_dual(primal, tangent.T)
        assert fwAD.unpack_dual(dual_input_alt).tangent is not tangent
        plain_tensor = torch.randn(10, 10)
        dual_output = fn(dual_input, plain_tensor)
        jvp = fwAD.unpack_dual(dual_output).tangent
        print(dual_output[0, :3])
    assert fwAD.unpack_dual(dual_output).tangent is None
    print(jvp[:2])

    model = nn.Linear(5, 5)
    input = torch.randn(16, 5)
    params = {name: p for name, p in model.named_parameters()}
    tangents = {name: torch.rand_like(p) for name, p in params.items()}
    with fwAD.dual_level():
        for name, p in params.items():
            delattr(model, name)
            setattr(model, name, fwAD.make_dual(p, tangents[name]))
        out = model(input)
        jvp = fwAD.unpack_dual(out).tangent
    print(jvp[:2])

    from_func = torch.func.functional_call
    model = nn.Linear(5, 5)
    dual_params = {}
    with fwAD.dual_level():
        for name, p in params.items():
            dual_params[name] = fwAD.make_dual(p, tangents[name])
        out = from_func(model, dual_params, input)
        jvp2 = fwAD.unpack_dual(out).tangent
    print(torch.allclose(jvp, jvp2))

    class Fn(torch.autograd.Function):
        @staticmethod
        def forward(ctx, foo):
            result = torch.exp(foo)
            ctx.result = result
            return result

        @staticmethod
        def jvp(ctx, gI):
            gO = gI * ctx.result
            del ctx.result
            return gO

    fn = Fn.apply
    primal = torch.randn(10, 10, dtype=torch.double, requires_grad=True)
    tangent = torch.randn(10, 10)
    with fwAD.dual_level():
        dual_input = fwAD.make_dual(primal, tangent)
        dual_output = fn(dual_input)
        jvp = fwAD.unpack_dual(dual_output).tangent
    # (printed detached: in PyTorch ctx.result is the Function's output itself, which then
    # requires grad, so this tangent has a graph; minigrad's output is a new tensor)
    print(jvp[0, :4].detach())
    print(torch.autograd.gradcheck(Fn.apply, (primal,), check_forward_ad=True,
                                   check_backward_ad=False, check_undefined_grad=False,
                                   check_batched_grad=False))

    ft = torch.func
    primal0, tangent0 = torch.randn(10, 10), torch.randn(10, 10)
    primal1, tangent1 = torch.randn(10, 10), torch.randn(10, 10)

    def fn(x, y):
        return x ** 2 + y ** 2

    primal_out, tangent_out = ft.jvp(fn, (primal0, primal1), (tangent0, tangent1))
    print(tangent_out[0, :4])
    primal = torch.randn(10, 10)
    tangent = torch.randn(10, 10)
    y = torch.randn(10, 10)
    new_fn = functools.partial(fn, y=y)
    primal_out, tangent_out = ft.jvp(new_fn, (primal,), (tangent,))
    print(primal_out[0, :4], tangent_out[0, :4])

    model = nn.Linear(5, 5)
    input = torch.randn(16, 5)
    params = dict(model.named_parameters())
    tangents = {name: torch.rand_like(p) for name, p in params.items()}

    def func_params_only(params):
        return ft.functional_call(model, params, (input,))

    model_output, jvp_out = ft.jvp(func_params_only, (params,), (tangents,))
    # (detached: PyTorch's per-op formulas give this tangent a graph through the weight,
    # which requires grad; minigrad's jvp only where the tangent depends on it)
    print(model_output[0], jvp_out[0].detach())
    return {"jvp_out": jvp_out, "jvp": jvp}


def jacobians_hessians(torch):
    """pytorch/tutorials intermediate_source/jacobians_hessians.py (the benchmark Timer
    parts left out, the sizes smaller)."""
    F = torch.nn.functional
    from functools import partial
    vmap, vjp, jacrev, jacfwd, hessian = (torch.func.vmap, torch.func.vjp, torch.func.jacrev,
                                          torch.func.jacfwd, torch.func.hessian)

    def predict(weight, bias, x):
        return F.linear(x, weight, bias).tanh()

    D = 16
    weight = torch.randn(D, D)
    bias = torch.randn(D)
    x = torch.randn(D)
    unit_vectors = torch.eye(D)

    def compute_jac(xp):
        jacobian_rows = [torch.autograd.grad(predict(weight, bias, xp), xp, vec)[0]
                         for vec in unit_vectors]
        return torch.stack(jacobian_rows)

    xp = x.clone().requires_grad_()
    jacobian = compute_jac(xp)
    print(jacobian.shape)
    print(jacobian[0])
    _, vjp_fn = vjp(partial(predict, weight, bias), x)
    ft_jacobian, = vmap(vjp_fn)(unit_vectors)
    assert torch.allclose(ft_jacobian, jacobian)
    ft_jacobian = jacrev(predict, argnums=2)(weight, bias, x)
    assert torch.allclose(ft_jacobian, jacobian)
    ft_jac_weight, ft_jac_bias = jacrev(predict, argnums=(0, 1))(weight, bias, x)
    print(ft_jac_weight.shape, ft_jac_bias.shape, ft_jac_bias[0, :4])

    Din, Dout = 8, 24
    weight = torch.randn(Dout, Din)
    bias = torch.randn(Dout)
    x = torch.randn(Din)
    print(weight.shape)
    fwd = jacfwd(predict, argnums=2)(weight, bias, x)
    rev = jacrev(predict, argnums=2)(weight, bias, x)
    print(torch.allclose(fwd, rev), fwd[0, :4])

    Din, Dout = 12, 6
    weight = torch.randn(Dout, Din)
    bias = torch.randn(Dout)
    x = torch.randn(Din)
    hess_api = hessian(predict, argnums=2)(weight, bias, x)
    hess_fwdfwd = jacfwd(jacfwd(predict, argnums=2), argnums=2)(weight, bias, x)
    hess_revrev = jacrev(jacrev(predict, argnums=2), argnums=2)(weight, bias, x)
    print(hess_api.shape, torch.allclose(hess_api, hess_fwdfwd),
          torch.allclose(hess_api, hess_revrev))
    print(hess_api[0, 0, :4])

    batch_size, Din, Dout = 4, 5, 3
    weight = torch.randn(Dout, Din)
    print(f"weight shape = {weight.shape}")
    bias = torch.randn(Dout)
    x = torch.randn(batch_size, Din)
    compute_batch_jacobian = vmap(jacrev(predict, argnums=2), in_dims=(None, None, 0))
    batch_jacobian0 = compute_batch_jacobian(weight, bias, x)

    def predict_with_output_summed(weight, bias, x):
        return predict(weight, bias, x).sum(0)

    batch_jacobian1 = jacrev(predict_with_output_summed, argnums=2)(weight, bias, x).movedim(1, 0)
    assert torch.allclose(batch_jacobian0, batch_jacobian1)
    compute_batch_hessian = vmap(hessian(predict, argnums=2), in_dims=(None, None, 0))
    batch_hess = compute_batch_hessian(weight, bias, x)
    print(batch_hess.shape)

    jvp, grad = torch.func.jvp, torch.func.grad

    def hvp(f, primals, tangents):
        return jvp(grad(f), primals, tangents)[1]

    def f(x):
        return x.sin().sum()

    x = torch.randn(64)
    tangent = torch.randn(64)
    result = hvp(f, (x,), (tangent,))

    def hvp_revrev(f, primals, tangents):
        _, vjp_fn = vjp(grad(f), *primals)
        return vjp_fn(*tangents)

    result_hvp_revrev = hvp_revrev(f, (x,), (tangent,))
    assert torch.allclose(result, result_hvp_revrev[0])
    print(result[:4])
    return {"jacobian": jacobian, "hess": hess_api, "batch_hess": batch_hess, "hvp": result}


def per_sample_grads(torch):
    """pytorch/tutorials intermediate_source/per_sample_grads.py (a smaller CNN and batch,
    on the CPU; the Timer parts left out)."""
    nn, F = torch.nn, torch.nn.functional

    class SimpleCNN(nn.Module):
        def __init__(self):
            super(SimpleCNN, self).__init__()
            self.conv1 = nn.Conv2d(1, 4, 3, 1)
            self.conv2 = nn.Conv2d(4, 8, 3, 1)
            self.fc1 = nn.Linear(8 * 2 * 2, 16)
            self.fc2 = nn.Linear(16, 10)

        def forward(self, x):
            x = self.conv1(x)
            x = F.relu(x)
            x = self.conv2(x)
            x = F.relu(x)
            x = F.max_pool2d(x, 2)
            x = torch.flatten(x, 1)
            x = self.fc1(x)
            x = F.relu(x)
            x = self.fc2(x)
            output = F.log_softmax(x, dim=1)
            return output

    def loss_fn(predictions, targets):
        return F.nll_loss(predictions, targets)

    batch_size = 6
    data = torch.randn(batch_size, 1, 8, 8)
    targets = torch.randint(10, (batch_size,))
    model = SimpleCNN()
    predictions = model(data)
    loss = loss_fn(predictions, targets)
    loss.backward()

    def compute_grad(sample, target):
        sample = sample.unsqueeze(0)
        target = target.unsqueeze(0)
        prediction = model(sample)
        loss = loss_fn(prediction, target)
        return torch.autograd.grad(loss, list(model.parameters()))

    def compute_sample_grads(data, targets):
        sample_grads = [compute_grad(data[i], targets[i]) for i in range(batch_size)]
        sample_grads = zip(*sample_grads)
        return [torch.stack(shards) for shards in sample_grads]

    per_sample_grads = compute_sample_grads(data, targets)
    print(per_sample_grads[0].shape)
    functional_call, vmap, grad = torch.func.functional_call, torch.func.vmap, torch.func.grad
    params = {k: v.detach() for k, v in model.named_parameters()}
    buffers = {k: v.detach() for k, v in model.named_buffers()}

    def compute_loss(params, buffers, sample, target):
        batch = sample.unsqueeze(0)
        targets = target.unsqueeze(0)
        predictions = functional_call(model, (params, buffers), (batch,))
        return loss_fn(predictions, targets)

    ft_compute_grad = grad(compute_loss)
    ft_compute_sample_grad = vmap(ft_compute_grad, in_dims=(None, None, 0, 0))
    ft_per_sample_grads = ft_compute_sample_grad(params, buffers, data, targets)
    for per_sample_grad, ft_per_sample_grad in zip(per_sample_grads, ft_per_sample_grads.values()):
        assert torch.allclose(per_sample_grad, ft_per_sample_grad, atol=3e-3, rtol=1e-5)
    print({k: tuple(v.shape) for k, v in ft_per_sample_grads.items()})
    print(ft_per_sample_grads["fc2.bias"][0])
    return dict(ft_per_sample_grads)


def ensembling(torch):
    """pytorch/tutorials intermediate_source/ensembling.py (smaller MLPs and data, CPU;
    the base model kept on the CPU rather than moved to 'meta'; Timer left out)."""
    nn, F = torch.nn, torch.nn.functional
    import copy

    class SimpleMLP(nn.Module):
        def __init__(self):
            super(SimpleMLP, self).__init__()
            self.fc1 = nn.Linear(49, 16)
            self.fc2 = nn.Linear(16, 16)
            self.fc3 = nn.Linear(16, 10)

        def forward(self, x):
            x = x.flatten(1)
            x = self.fc1(x)
            x = F.relu(x)
            x = self.fc2(x)
            x = F.relu(x)
            x = self.fc3(x)
            return x

    num_models = 4
    data = torch.randn(10, 8, 1, 7, 7)
    targets = torch.randint(10, (80,))
    models = [SimpleMLP() for _ in range(num_models)]
    minibatches = data[:num_models]
    predictions_diff_minibatch_loop = [model(minibatch) for model, minibatch in zip(models, minibatches)]
    minibatch = data[0]
    predictions2 = [model(minibatch) for model in models]
    params, buffers = torch.func.stack_module_state(models)
    base_model = copy.deepcopy(models[0])

    def fmodel(params, buffers, x):
        return torch.func.functional_call(base_model, (params, buffers), (x,))

    print([p.size(0) for p in params.values()])
    assert minibatches.shape == (num_models, 8, 1, 7, 7)
    vmap = torch.vmap
    predictions1_vmap = vmap(fmodel)(params, buffers, minibatches)
    assert torch.allclose(predictions1_vmap, torch.stack(predictions_diff_minibatch_loop), atol=1e-3, rtol=1e-5)
    predictions2_vmap = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatch)
    assert torch.allclose(predictions2_vmap, torch.stack(predictions2), atol=1e-3, rtol=1e-5)
    print(predictions2_vmap[1, 0])
    return {"p1": predictions1_vmap, "p2": predictions2_vmap}


def neural_tangent_kernels(torch):
    """pytorch/tutorials intermediate_source/neural_tangent_kernels.py (a smaller CNN and
    batches, on the CPU)."""
    nn = torch.nn
    functional_call, vmap, vjp, jvp, jacrev = (torch.func.functional_call, torch.func.vmap,
                                               torch.func.vjp, torch.func.jvp, torch.func.jacrev)

    class CNN(nn.Module):
        def __init__(self):
            super(CNN, self).__init__()
            self.conv1 = nn.Conv2d(3, 4, (3, 3))
            self.conv2 = nn.Conv2d(4, 4, (3, 3))
            self.fc = nn.Linear(4 * 2 * 2, 3)

        def forward(self, x):
            x = self.conv1(x)
            x = x.relu()
            x = self.conv2(x)
            x = x.relu()
            x = x.flatten(1)
            x = self.fc(x)
            return x

    x_train = torch.randn(3, 3, 6, 6)
    x_test = torch.randn(2, 3, 6, 6)
    net = CNN()
    params = {k: v.detach() for k, v in net.named_parameters()}

    def fnet_single(params, x):
        return functional_call(net, params, (x.unsqueeze(0),)).squeeze(0)

    def empirical_ntk_jacobian_contraction(fnet_single, params, x1, x2, compute='full'):
        jac1 = vmap(jacrev(fnet_single), (None, 0))(params, x1)
        jac1 = jac1.values()
        jac1 = [j.flatten(2) for j in jac1]
        jac2 = vmap(jacrev(fnet_single), (None, 0))(params, x2)
        jac2 = jac2.values()
        jac2 = [j.flatten(2) for j in jac2]
        einsum_expr = {'full': 'Naf,Mbf->NMab', 'trace': 'Naf,Maf->NM',
                       'diagonal': 'Naf,Maf->NMa'}[compute]
        result = torch.stack([torch.einsum(einsum_expr, j1, j2) for j1, j2 in zip(jac1, jac2)])
        return result.sum(0)

    result = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test)
    print(result.shape)
    result = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test, 'trace')
    print(result.shape)

    def empirical_ntk_ntk_vps(func, params, x1, x2, compute='full'):
        def get_ntk(x1, x2):
            def func_x1(params):
                return func(params, x1)

            def func_x2(params):
                return func(params, x2)

            output, vjp_fn = vjp(func_x1, params)

            def get_ntk_slice(vec):
                vjps = vjp_fn(vec)
                _, jvps = jvp(func_x2, (params,), vjps)
                return jvps

            basis = torch.eye(output.numel(), dtype=output.dtype, device=output.device).view(output.numel(), -1)
            return vmap(get_ntk_slice)(basis)

        result = vmap(vmap(get_ntk, (None, 0)), (0, None))(x1, x2)
        if compute == 'full':
            return result
        if compute == 'trace':
            return torch.einsum('NMKK->NM', result)

    result_from_jacobian_contraction = empirical_ntk_jacobian_contraction(fnet_single, params, x_test, x_train)
    result_from_ntk_vps = empirical_ntk_ntk_vps(fnet_single, params, x_test, x_train)
    assert torch.allclose(result_from_jacobian_contraction, result_from_ntk_vps, atol=1e-5)
    print(result_from_ntk_vps[0, 0])
    return {"ntk": result_from_ntk_vps, "contraction": result_from_jacobian_contraction}


PROGRAMS = [forward_ad_usage, jacobians_hessians, per_sample_grads, ensembling,
            neural_tangent_kernels]
