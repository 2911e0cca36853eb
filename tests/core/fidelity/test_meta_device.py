"""The meta device (``minigrad/kernels/meta.py``, ``autograd/meta.py``): tensors with a
shape and a dtype and no numbers, as PyTorch's ``device="meta"``. Each case runs under
PyTorch and minigrad and must print the same text (or raise the same error)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad

F_CASES = {
    # factories, printing, attributes
    "ones float64": lambda t: t.ones(3, device="meta", dtype=t.float64),
    "half": lambda t: t.ones(2, 3, device="meta").half(),
    "0-dim": lambda t: t.zeros((), device="meta"),
    "int64 prints its dtype": lambda t: t.ones(3, device="meta", dtype=t.int64),
    "empty": lambda t: t.ones(0, device="meta"),
    "requires grad": lambda t: t.randn(2, 2, device="meta", requires_grad=True),
    "tensor(data)": lambda t: t.tensor([1., 2.], device="meta"),
    "full": lambda t: t.full((2,), 3, device="meta"),
    "arange": lambda t: t.arange(5, device="meta"),
    "linspace": lambda t: t.linspace(0, 1, 5, device="meta"),
    "eye": lambda t: t.eye(2, device="meta"),
    "randint": lambda t: t.randint(0, 10, (2, 3), device="meta"),
    "zeros_like keeps meta": lambda t: t.zeros_like(t.ones(2, device="meta")),
    "rand_like": lambda t: t.rand_like(t.ones(2, device="meta")),
    "device": lambda t: (t.ones(1, device="meta").device, t.ones(1, device="meta").is_meta,
                         t.ones(1, device="meta").is_cpu, t.ones(1).is_meta),
    "shape, numel, stride of a contiguous": lambda t: (
        t.empty(2, 3, device="meta").shape, t.empty(2, 3, device="meta").numel()),
    "data_ptr": lambda t: t.ones(3, device="meta").data_ptr(),
    # ops keep shapes and dtypes
    "elementwise": lambda t: (t.ones(2, 3, device="meta") * 2 + 1).exp().tanh(),
    "comparison": lambda t: t.ones(2, 3, device="meta") > 0,
    "reductions": lambda t: (t.ones(2, 3, device="meta").sum(1, keepdim=True),
                             t.ones(2, 3, device="meta").mean(), t.ones(2, 3, device="meta").any()),
    "argmax": lambda t: (t.ones(2, 3, device="meta").argmax(1), t.ones(2, 3, device="meta").argmax()),
    "max with dim": lambda t: t.ones(2, 3, device="meta").max(dim=1),
    "sort, topk": lambda t: (t.ones(2, 3, device="meta").sort(1), t.ones(2, 3, device="meta").topk(2)),
    "matmul": lambda t: t.ones(2, 3, device="meta") @ t.ones(3, 4, device="meta"),
    "matmul 1-d": lambda t: (t.ones(3, device="meta") @ t.ones(3, 4, device="meta"),
                             t.ones(2, 3, device="meta") @ t.ones(3, device="meta")),
    "views": lambda t: (t.ones(4, device="meta").view(2, 2).t().contiguous(),
                        t.ones(2, 3, device="meta")[0], t.ones(2, 3, device="meta")[:, :1].expand(2, 5)),
    "cat, stack": lambda t: (t.cat([t.ones(2, device="meta"), t.ones(3, device="meta")]),
                             t.stack([t.ones(2, device="meta")] * 3, 1)),
    "where, masked_fill": lambda t: (
        t.where(t.ones(2, device="meta") > 0, t.ones(2, device="meta"), 0.),
        t.ones(2, 3, device="meta").masked_fill(t.ones(2, 3, device="meta") > 0, 1.)),
    "gather, index_select": lambda t: (
        t.ones(2, 3, device="meta").gather(1, t.zeros(2, 1, dtype=t.long, device="meta")),
        t.ones(2, 3, device="meta").index_select(1, t.tensor([0, 2], device="meta"))),
    "einsum": lambda t: t.einsum("ij,kj->ik", t.ones(2, 3, device="meta"), t.ones(4, 3, device="meta")),
    "one_hot": lambda t: t.nn.functional.one_hot(t.zeros(3, dtype=t.long, device="meta"), 4),
    "losses": lambda t: (
        t.nn.functional.cross_entropy(t.ones(4, 5, device="meta", requires_grad=True),
                                      t.zeros(4, dtype=t.long, device="meta")),
        t.nn.functional.mse_loss(t.ones(3, device="meta"), t.ones(3, device="meta"))),
    "pooling": lambda t: (t.nn.functional.max_pool2d(t.ones(1, 1, 4, 4, device="meta"), 2),
                          t.nn.functional.adaptive_avg_pool2d(t.ones(1, 1, 4, 4, device="meta"), 1)),
    "a 0-dim CPU tensor joins in, as a number": lambda t: (
        t.ones(2, device="meta") + t.tensor(1.), t.tensor(1.) + t.ones(2, device="meta")),
    "to meta": lambda t: (t.ones(2).to("meta"), t.ones(2, requires_grad=True).to("meta")),
    # no values: what reads them fails, as in PyTorch
    "item": lambda t: t.ones(1, device="meta").item(),
    "float": lambda t: float(t.ones(1, device="meta")),
    "item of 3": lambda t: t.ones(3, device="meta").item(),
    "bool": lambda t: bool(t.ones(2, device="meta").sum() > 0),
    "tolist": lambda t: t.ones(2, 2, device="meta").tolist(),
    "to cpu": lambda t: t.ones(2, device="meta").to("cpu"),
    "cpu": lambda t: t.ones(2, device="meta").cpu(),
    "numpy": lambda t: t.ones(2, device="meta").numpy(),
    "meta + cpu": lambda t: t.ones(2, device="meta") + t.ones(2),
    "cpu + meta": lambda t: t.ones(2) + t.ones(2, device="meta"),
    "nonzero": lambda t: t.nonzero(t.ones(2, device="meta")),
    "masked_select": lambda t: t.ones(2, device="meta").masked_select(
        t.ones(2, dtype=t.bool, device="meta")),
    "unique": lambda t: t.unique(t.zeros(3, dtype=t.long, device="meta")),
    "equal": lambda t: t.equal(t.ones(2, device="meta"), t.ones(2, device="meta")),
    "allclose": lambda t: t.allclose(t.ones(2, device="meta"), t.ones(2, device="meta")),
    # new_* follow the tensor's device; strides are a new tensor's
    "new_*": lambda t: (t.ones(2, device="meta").new_zeros(4), t.ones(2, device="meta").new_ones(2),
                        t.ones(2, device="meta").new_empty(3), t.ones(2, device="meta").new_full((2,), 3.),
                        t.ones(2, device="meta").new_tensor([1., 2.]), t.ones(2).new_zeros(2)),
    "stride, is_contiguous": lambda t: (t.ones(2, 3, device="meta").stride(),
                                        t.ones(2, 3, device="meta").is_contiguous()),
    # copies across the two devices
    "copy_ into meta": lambda t: t.ones(2, device="meta").copy_(t.ones(2)),
    "copy_ out of meta": lambda t: t.ones(2).copy_(t.ones(2, device="meta")),
    "in-place on meta": lambda t: (t.ones(2, device="meta").add_(1), t.ones(2, device="meta").zero_(),
                                   t.ones(2, device="meta").normal_()),
    "state_dict of a meta model": lambda t: t.nn.Linear(2, 2, device="meta").state_dict(),
}


def _text(value) -> str:
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(_text(v) for v in value) + ")"
    return str(value)


def _run(case, library):
    try:
        return _text(case(library))
    except Exception as error:  # noqa: BLE001 - the error is what is compared
        return f"{type(error).__name__}: {str(error).splitlines()[0][:160]}"


@pytest.mark.parametrize("name", list(F_CASES))
def test_meta_case_as_pytorch(name):
    case = F_CASES[name]
    assert _run(case, minigrad) == _run(case, torch)


@pytest.mark.parametrize("library", [torch, minigrad], ids=["torch", "minigrad"])
def test_a_meta_factory_leaves_the_generator_alone(library):
    library.manual_seed(0)
    expected = library.rand(3).tolist()
    library.manual_seed(0)
    library.randn(5, device="meta")
    library.rand(2, 2, device="meta")
    library.nn.Linear(3, 4, device="meta")  # (its init draws nothing: no values)
    assert library.rand(3).tolist() == expected


def test_shapes_of_tensors_no_memory_could_hold():
    """2**10 x 3 x 2**16 x 2**16 float32 would be 48 TiB: a meta tensor of that size, and
    the results of ops on it, are views of one element."""
    t = minigrad.rand(2**10, 3, 2**16, 2**16, device="meta")
    results = [minigrad.nn.Conv2d(3, 5, 2, device="meta")(t), (t * 2 + 1).exp(), t.relu(),
               t.reshape(1024, -1), t.permute(0, 2, 3, 1), t.sum(dim=(2, 3)), t[:, 0],
               t.sigmoid(), t @ minigrad.ones(2**16, 7, device="meta")]
    shapes = [tuple(r.shape) for r in results]
    assert shapes == [(1024, 5, 65535, 65535), t.shape, t.shape, (1024, 3 * 2**32),
                      (1024, 2**16, 2**16, 3), (1024, 3), (1024, 2**16, 2**16), t.shape,
                      (1024, 3, 2**16, 7)]
    assert all(r.is_meta and not any(r._data.strides) for r in results)


def test_what_numpy_cannot_shape_at_that_size_says_so():
    """A NumPy function with no shape rule is run on zeros up to kernels.meta.COMPUTED_LIMIT
    elements, and a kernel that copies its input needs the memory: beyond, a clear error
    rather than an allocation of terabytes."""
    t = minigrad.ones(2**20, 2**20, device="meta")
    with pytest.raises(NotImplementedError, match="on meta arrays of 1099511627776 elements"):
        t.cumsum(0)
    with pytest.raises(NotImplementedError, match="SoftmaxBackward0 on meta tensors: .* memory"):
        minigrad.rand(2**10, 3, 2**16, 2**16, device="meta").softmax(1)


def test_backward_on_meta_gives_meta_gradients():
    for library in (torch, minigrad):
        w = library.ones(3, 3, device="meta", requires_grad=True)
        loss = (w.softmax(-1) @ w).mean()
        loss.backward()
        assert (str(loss), str(w.grad)) == (
            "tensor(..., device='meta', size=(), grad_fn=<MeanBackward0>)",
            "tensor(..., device='meta', size=(3, 3))")
        x = library.ones(2, 3, device="meta", requires_grad=True)
        (x * 2).sum().backward()  # (no meta value on the way: the seed itself is meta)
        assert str(x.grad) == "tensor(..., device='meta', size=(2, 3))"


def test_modules_on_meta_as_pytorch():
    def program(t):
        with t.device("meta"):
            lin, ln = t.nn.Linear(4, 3), t.nn.LayerNorm(3)
            bn, emb = t.nn.BatchNorm1d(3), t.nn.Embedding(10, 4)
            gru = t.nn.GRU(4, 5, batch_first=True)
            ids = t.randint(0, 10, (2, 6))
        moved = t.nn.Linear(2, 2).to("meta")
        return [emb(ids).shape, gru(emb(ids))[0], ln(lin(t.ones(2, 4, device="meta"))),
                bn(t.ones(8, 3, device="meta")), bn.running_mean, bn.num_batches_tracked,
                moved.weight, lin.weight.device, t.nn.Conv1d(2, 3, 3, device="meta").bias]
    assert _text(program(minigrad)) == _text(program(torch))


def test_meta_arrays_keep_cpu_work_unchanged():
    """A program on the CPU after meta tensors exist gives the same numbers as before."""
    x = minigrad.tensor(np.arange(6.0).reshape(2, 3), requires_grad=True)
    before = (x.exp() @ x.t()).sum()
    before.backward()
    grad = x.grad.clone()
    minigrad.ones(2, device="meta")
    x.grad = None
    after = (x.exp() @ x.t()).sum()
    after.backward()
    assert after.item() == before.item() and minigrad.equal(x.grad, grad)
    assert not after.is_meta and not x.grad.is_meta


def _skip_init_program(t):
    """pytorch/tutorials prototype_source/skip_param_init.rst: skip_init, a module that
    passes ``device`` on (parameters, submodules, a buffer), and its two-step pattern (built
    on meta, then ``to_empty``); the generator is left as it was throughout."""
    nn, printed = t.nn, []
    t.manual_seed(0)
    m = nn.utils.skip_init(nn.Linear, 10, 5)
    nn.init.orthogonal_(m.weight)
    printed += [m.weight.device, m.weight.shape, m.weight.requires_grad, type(m.weight).__name__,
                m.weight.stride(), (m.weight @ m.weight.T).diagonal().sum().round(decimals=4)]

    class MyModule(nn.Module):
        def __init__(self, foo, bar, device=None):
            super().__init__()
            self.param1 = nn.Parameter(t.empty((foo, bar), device=device))
            self.register_parameter("param2", nn.Parameter(t.empty(bar, device=device)))
            with t.no_grad():
                nn.init.kaiming_uniform_(self.param1)
                nn.init.uniform_(self.param2)
            self.fc = nn.Linear(bar, 5, device=device)
            self.linears = nn.Sequential(nn.Linear(5, 5, device=device),
                                         nn.Linear(5, 1, device=device))
            self.register_buffer("some_buffer", t.ones(7, device=device))

    mine = nn.utils.skip_init(MyModule, 3, 4)
    printed += [[(n, tuple(p.shape), str(p.device)) for n, p in mine.named_parameters()],
                mine.some_buffer.device]
    m = nn.Linear(10, 5, device="meta")
    printed += [m.to_empty(device="cpu") is m, m.weight.device, m.weight.stride(),
                nn.BatchNorm1d(3, device="meta").to_empty(device="cpu").num_batches_tracked.dtype,
                nn.Linear(2, 2).to_empty(device="meta").weight, t.rand(2)]
    for bad in (lambda: nn.utils.skip_init(int, 3), lambda: nn.utils.skip_init(nn.Identity),
                lambda: nn.Linear(2, 2, device="meta").cpu()):
        try:
            bad()
        except Exception as error:  # noqa: BLE001 - the error is what is compared
            printed.append(f"{type(error).__name__}: {error}")
    return printed


def test_skip_init_and_to_empty_as_pytorch():
    assert _text(_skip_init_program(minigrad)) == _text(_skip_init_program(torch))


def test_a_checkpoint_into_a_meta_model_as_pytorch():
    """Copying into meta parameters does nothing (PyTorch warns, naming assign=True);
    ``assign=True`` makes the checkpoint's tensors the model's, requires_grad kept."""
    def program(t):
        import warnings
        t.manual_seed(0)
        source = t.nn.Linear(2, 2)
        model = t.nn.Linear(2, 2, device="meta")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            keys = model.load_state_dict(source.state_dict())
        said = [str(w.message) for w in caught]
        model.load_state_dict(source.state_dict(), assign=True)
        return [keys, said, model.weight, model.bias.requires_grad,
                type(model.weight).__name__, model(t.ones(1, 2))]
    assert _text(program(minigrad)) == _text(program(torch))
