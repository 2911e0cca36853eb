"""Views and in-place changes together, whole programs compared with PyTorch 2.13
(``programs.assert_same_run``: values, printed text, grad_fn graphs, errors, warnings).

* writing into an expanded tensor (a gradient of a sum is one): ``fill_``/``zero_``
  work, the other in-place ops refuse, ``index_put_`` warns;
* an in-place change of a non-leaf that has views: the views' ``grad_fn`` is rebuilt
  as ``AsStridedBackward0`` from the base's new node (else gradients through the view
  would skip the change);
* an in-place change through a view of a non-leaf: the base's node becomes
  ``CopySlices`` (wrapping the op's node), the view's ``AsStridedBackward0``;
* partial overlap between the written tensor and an operand is refused as in torch.
"""

import numpy as np
import pytest
import torch

import minigrad as mg

from programs import assert_same_run

X = np.array([[1.0, -2.0, 0.5], [3.0, -0.5, 2.0]])


def _leaf(rec):
    return rec.leaf(X, dtype=np.float64)


# ---- writing into an expanded tensor -----------------------------------------

WRITES = {
    "zero_": lambda lib, e: e.zero_(),
    "fill_ number": lambda lib, e: e.fill_(2.5),
    "fill_ 0-dim tensor": lambda lib, e: e.fill_(lib.tensor(3.0, dtype=lib.float64)),
    "add_": lambda lib, e: e.add_(1),
    "mul_": lambda lib, e: e.mul_(2),
    "clamp_": lambda lib, e: e.clamp_(0, 1),
    "copy_": lambda lib, e: e.copy_(lib.ones(2, 3, dtype=lib.float64)),
    "e[0] = 1.": lambda lib, e: e.__setitem__(0, 1.0),
    "e[:, 0] = 1.": lambda lib, e: e.__setitem__((slice(None), 0), 1.0),
    "e[:] = 1.": lambda lib, e: e.__setitem__(slice(None), 1.0),
    "e[[0]] = 4.": lambda lib, e: e.__setitem__([0], 4.0),
}


@pytest.mark.parametrize("write", list(WRITES.values()), ids=list(WRITES))
def test_write_into_the_gradient_of_a_sum(write):
    def program(lib, rec):
        x = _leaf(rec)
        grad, = lib.autograd.grad(x.sum(), x)
        rec.show("grad", grad)
        write(lib, grad)
        rec.show("written", grad)
    assert_same_run(program)


@pytest.mark.parametrize("write", list(WRITES.values()), ids=list(WRITES))
def test_write_into_an_expanded_tensor(write):
    def program(lib, rec):
        row = rec.leaf([[1.0, 2.0, 3.0]], requires_grad=False, dtype=np.float64)
        expanded = row.expand(2, 3)
        write(lib, expanded)
        rec.show("expanded", expanded)
        rec.show("row", row)
    assert_same_run(program)


def test_backward_into_an_expanded_grad_refuses_as_torch():
    def program(lib, rec):
        x = _leaf(rec)
        grad, = lib.autograd.grad(x.sum(), x)
        x.grad = grad
        (x * 2).sum().backward()
    assert_same_run(program)


# ---- the base changes: its views' grad_fn is rebuilt ------------------------------

VIEWS = {
    "[0]": lambda t: t[0],
    "[1:]": lambda t: t[1:],
    "[:, 1]": lambda t: t[:, 1],
    "t()": lambda t: t.t(),
    "view(6)": lambda t: t.view(6),
    "unsqueeze(1)": lambda t: t.unsqueeze(1),
    "[0][1:]": lambda t: t[0][1:],
    "t()[::2]": lambda t: t.t()[::2],
    "expand": lambda t: t[:1].expand(3, 3),
}

CHANGES = {
    "mul_(2)": lambda lib, y, x: y.mul_(2),
    "add_(x)": lambda lib, y, x: y.add_(x),
    "zero_()": lambda lib, y, x: y.zero_(),
    "y[1] = x[0]": lambda lib, y, x: y.__setitem__(1, x[0]),
    "y[0, 0] = 5.": lambda lib, y, x: y.__setitem__((0, 0), 5.0),
}


@pytest.mark.parametrize("change", list(CHANGES.values()), ids=list(CHANGES))
@pytest.mark.parametrize("view", list(VIEWS.values()), ids=list(VIEWS))
def test_views_of_a_changed_base_get_their_grad_fn_rebuilt(view, change):
    def program(lib, rec):
        x = _leaf(rec)
        y = x * x
        v = view(y)
        rec.show("view before", v)
        change(lib, y, x)
        rec.show("view after", v)
        rec.show("its saved geometry", (v.grad_fn._saved_size, v.grad_fn._saved_stride,
                                        v.grad_fn._saved_storage_offset))
        (v * v).sum().backward(retain_graph=True)
        rec.show("x.grad", x.grad)
        grad, = lib.autograd.grad((v.exp()).sum(), x, create_graph=True)
        rec.show("grad", grad)
        grad.sum().backward()
        rec.show("x.grad", x.grad)
    assert_same_run(program)


def test_a_view_made_before_its_base_joined_the_graph():
    def program(lib, rec):
        w = rec.leaf([1.0, 2.0], dtype=np.float64)
        out = lib.zeros(2, 2, dtype=lib.float64)
        row = out[0]
        rec.show("requires grad before", row.requires_grad)
        out[0] = w * 2
        rec.show("out", out)
        rec.show("requires grad after", row.requires_grad)
        rec.show("row", row)
        (row * 3).sum().backward()
        rec.show("w.grad", w.grad)
    assert_same_run(program)


def test_retain_grad_follows_the_tensor_to_its_new_node():
    def program(lib, rec):
        x = _leaf(rec)
        y = x * 1
        y.retain_grad()
        row = y[0]
        row.retain_grad()
        y.mul_(2)
        rec.show("retains", (y.retains_grad, row.retains_grad))
        (y.sum() + row.sum()).backward()
        rec.show("y.grad", y.grad)
        rec.show("row.grad", row.grad)
    assert_same_run(program)


def test_an_sgd_step_rebuilds_a_kept_view_of_a_parameter():
    def program(lib, rec):
        w = _leaf(rec)
        wt = w.t()
        (wt * wt).sum().backward()
        with lib.no_grad():
            w.sub_(w.grad * 0.1)
        rec.show("kept view", wt)
        w.grad = None
        (wt * wt).sum().backward()
        rec.show("w.grad", w.grad)
    assert_same_run(program)


# ---- the change goes through a view: CopySlices on the base ---------------------

@pytest.mark.parametrize("change", list(CHANGES.values())[:4], ids=list(CHANGES)[:4])
@pytest.mark.parametrize("view", [v for k, v in VIEWS.items() if k not in ("expand", "[0]", "[:, 1]", "[0][1:]")],
                         ids=[k for k in VIEWS if k not in ("expand", "[0]", "[:, 1]", "[0][1:]")])
def test_a_change_through_a_view_is_recorded_on_the_base(view, change):
    def program(lib, rec):
        x = _leaf(rec)
        y = x * x
        v = view(y)
        other = view(x * 1)
        change(lib, v, other)
        rec.show("view", v)
        rec.show("base", y)
        (y * lib.arange(6.0, dtype=lib.float64).reshape(2, 3)).sum().backward(retain_graph=True)
        rec.show("x.grad", x.grad)
        grad, = lib.autograd.grad((v.sigmoid()).sum(), x, create_graph=True)
        rec.show("grad", grad)
        grad.sum().backward()
        rec.show("x.grad", x.grad)
        y.sum().backward()
    assert_same_run(program)


ROW_CHANGES = {
    "mul_(2)": lambda lib, v, x: v.mul_(2),
    "mul_(x[1])": lambda lib, v, x: v.mul_(x[1]),
    "copy_": lambda lib, v, x: v.copy_(x[1] * 3),
    "fill_(x[0, 0])": lambda lib, v, x: v.fill_(x[0, 0]),
    "clamp_": lambda lib, v, x: v.clamp_(-1, 1),
    "v[1:] = x[1, :2]": lambda lib, v, x: v.__setitem__(slice(1, None), x[1, :2]),
}


@pytest.mark.parametrize("change", list(ROW_CHANGES.values()), ids=list(ROW_CHANGES))
def test_a_change_through_a_row_then_backward_twice(change):
    def program(lib, rec):
        x = _leaf(rec)
        y = x * x
        row = y[0]
        change(lib, row, x)
        rec.show("row", row)
        rec.show("y", y)
        out = (y * y).sum()
        out.backward()
        rec.show("x.grad", x.grad)
        out.backward()
    assert_same_run(program)


def test_setitem_on_a_view_and_a_write_into_a_plain_tensor_through_a_view():
    def program(lib, rec):
        x = _leaf(rec)
        y = (x * 2).t()
        y[0, 1:] = x[1, :1]
        rec.show("y", y)
        plain = lib.zeros(3, 2, dtype=lib.float64)
        plain[1:].add_(x.t()[1:])
        rec.show("plain", plain)
        (y.sum() + (plain * plain).sum()).backward()
        rec.show("x.grad", x.grad)
    assert_same_run(program)


# ---- partial overlap --------------------------------------------------------------

OVERLAPS = {
    "b.mul_(b[0])": lambda b: b.mul_(b[0]),
    "b.mul_(b[0, 0])": lambda b: b.mul_(b[0, 0]),
    "b.copy_(b[0])": lambda b: b.copy_(b[0]),
    "b.add_(b.t().t())": lambda b: b.add_(b.t().t()),
    "b.mul_(b)": lambda b: b.mul_(b),
    "b[0].add_(b[1])": lambda b: b[0].add_(b[1]),
    "b.fill_(b[0, 0])": lambda b: b.fill_(b[0, 0]),
    "b[1:] = b[:1]": lambda b: b.__setitem__(slice(1, None), b[:1]),
    "b[[0]] = b[1:]": lambda b: b.__setitem__([0], b[1:]),
    "b[:, 0] = b[0, :2]": lambda b: b.__setitem__((slice(None), 0), b[0, :2]),
}


@pytest.mark.parametrize("write", list(OVERLAPS.values()), ids=list(OVERLAPS))
def test_partial_overlap_is_refused_as_in_torch(write):
    def program(lib, rec):
        b = rec.leaf(X, requires_grad=False, dtype=np.float64) * 1
        write(b)
        rec.show("b", b)
    assert_same_run(program)


# ---- the out-of-place functions, in place -------------------------------------------

IN_PLACE_FUNCTIONS = {
    "neg_": lambda lib, t: t.neg_(),
    "reciprocal_": lambda lib, t: t.reciprocal_(),
    "pow_(2)": lambda lib, t: t.pow_(2),
    "pow_(0.5)": lambda lib, t: t.pow_(0.5),
    "**= 3": lambda lib, t: t.__ipow__(3),
    "exp_": lambda lib, t: t.exp_(),
    "log_": lambda lib, t: t.log_(),
    "sqrt_": lambda lib, t: t.sqrt_(),
    "tanh_": lambda lib, t: t.tanh_(),
    "sigmoid_": lambda lib, t: t.sigmoid_(),
    "relu_": lambda lib, t: t.relu_(),
    "abs_": lambda lib, t: t.abs_(),
    "sin_": lambda lib, t: t.sin_(),
    "cos_": lambda lib, t: t.cos_(),
    "sign_": lambda lib, t: t.sign_(),
    "clip_": lambda lib, t: t.clip_(-1, 1),
    "masked_fill_": lambda lib, t: t.masked_fill_(t > 0, 0.5),
}


@pytest.mark.parametrize("op", list(IN_PLACE_FUNCTIONS.values()), ids=list(IN_PLACE_FUNCTIONS))
def test_in_place_functions_on_a_non_leaf(op):
    def program(lib, rec):
        x = _leaf(rec)
        y = x * 1
        returned = op(lib, y)
        rec.show("y", y)
        rec.show("returned is y", returned is y)
        rec.show("version", y._version)
        grad, = lib.autograd.grad((y * y).sum(), x, create_graph=True)
        rec.show("grad", grad)
        grad.sum().backward()
        rec.show("x.grad", x.grad)
    assert_same_run(program)


@pytest.mark.parametrize("op", list(IN_PLACE_FUNCTIONS.values()), ids=list(IN_PLACE_FUNCTIONS))
def test_in_place_functions_through_a_view(op):
    def program(lib, rec):
        x = _leaf(rec)
        y = x * x
        op(lib, y[1])
        rec.show("y", y)
        (y * lib.arange(6.0, dtype=lib.float64).reshape(2, 3)).sum().backward()
        rec.show("x.grad", x.grad)
    assert_same_run(program)


@pytest.mark.parametrize("op", list(IN_PLACE_FUNCTIONS.values()), ids=list(IN_PLACE_FUNCTIONS))
def test_in_place_functions_refuse_what_torch_refuses(op):
    def on_a_leaf(lib, rec):
        op(lib, _leaf(rec))

    def on_a_saved_tensor(lib, rec):
        y = _leaf(rec) * 1
        out = y.exp()  # saves its result: y's old value is not needed, out is
        out_saved = out * out
        op(lib, out)
        out_saved.sum().backward()

    def on_integers(lib, rec):
        n = lib.tensor([[1, -2, 3]])
        op(lib, n)
        rec.show("n", n)

    def under_no_grad_on_a_leaf(lib, rec):
        x = _leaf(rec)
        with lib.no_grad():
            op(lib, x)
        rec.show("x", x)
        rec.show("version", x._version)
    for program in (on_a_leaf, on_a_saved_tensor, on_integers, under_no_grad_on_a_leaf):
        assert_same_run(program)


def test_a_result_saved_by_an_in_place_op_is_watched_for_later_changes():
    def on_a_tensor(lib, rec):
        y = _leaf(rec) * 1
        y.exp_()
        rec.show("saved result", y.grad_fn._saved_result)
        y.mul_(2)
        y.sum().backward()

    def through_a_view_no_longer_held(lib, rec):
        y = _leaf(rec) * 1
        y[0].exp_()  # (torch's message then names Exp)
        y[0][0] = 0.5
        y.sum().backward()

    def through_a_view_still_held(lib, rec):
        y = _leaf(rec) * 1
        row = y[0]
        row.sigmoid_()  # (torch's message then names the view's AsStrided)
        y[0][0] = 0.5
        y.sum().backward()
    for program in (on_a_tensor, through_a_view_no_longer_held, through_a_view_still_held):
        assert_same_run(program)


# ---- the layout of elementwise results (TensorIterator's) ---------------------------

def _operands(lib):
    c = lib.arange(6.0, dtype=lib.float64).reshape(2, 3)
    d = lib.arange(24.0, dtype=lib.float64).reshape(2, 3, 4)
    return {
        "c.t()": c.t(),
        "ones(3, 2)": lib.ones(3, 2, dtype=lib.float64),
        "c.t().clone()": c.t().clone(),
        "ones(3, 1)": lib.ones(3, 1, dtype=lib.float64),
        "ones(2)": lib.ones(2, dtype=lib.float64),
        "c.t()[:, :1]": c.t()[:, :1],
        "c[:, ::2].t()": c[:, ::2].t(),
        "d.permute(2, 0, 1)[:3, :, :2].sum(0)": d.permute(2, 0, 1)[:3, :, :2].sum(0).t(),
    }


LAYOUT_OPS = {
    "+": lambda lib, a, b: a + b,
    "*": lambda lib, a, b: a * b,
    "**": lambda lib, a, b: a ** b,
    "maximum": lambda lib, a, b: lib.maximum(a, b),
    "where": lambda lib, a, b: lib.where(b > 1, a, b),
    ">": lambda lib, a, b: a > b,
}


@pytest.mark.parametrize("op", list(LAYOUT_OPS.values()), ids=list(LAYOUT_OPS))
def test_elementwise_results_are_laid_out_as_torch_lays_them_out(op):
    def program(lib, rec):
        operands = _operands(lib)
        for left, a in operands.items():
            for right, b in operands.items():
                try:
                    out = op(lib, a, b)
                except RuntimeError as error:
                    rec.show(f"{left}, {right}", str(error))
                    continue
                rec.show(f"{left}, {right}", out)
                rec.show("stride", out.stride())
                rec.show("contiguous", out.is_contiguous())
                try:
                    rec.show("view(-1)", out.view(-1))
                except RuntimeError as error:
                    rec.show("view(-1) refused", str(error))

    assert_same_run(program)


def test_permuted_operands_of_three_dims():
    def program(lib, rec):
        d = lib.arange(24.0, dtype=lib.float64).reshape(2, 3, 4)
        p = d.permute(2, 0, 1)
        q = lib.ones(4, 2, 3, dtype=lib.float64)
        s = d.transpose(0, 2).contiguous().transpose(0, 2).permute(2, 0, 1)
        for name, out in {"p + q": p + q, "q + p": q + p, "p + s": p + s, "s + p": s + p,
                          "p + row": p + lib.ones(3, dtype=lib.float64),
                          "column + p": lib.ones(2, 1, dtype=lib.float64) + p}.items():
            rec.show(name, out)
            rec.show(f"{name} stride", out.stride())
    assert_same_run(program)


# ---- as_strided stays inside its storage -------------------------------------

AS_STRIDED = [((64,), (1,), None), ((2,), (-1,), None), ((2,), (1,), -1), ((0, 5), (100, 100), 3),
              ((2, 2), (3, 1), 1), ((2, 2), (3, 1), 2), ((1000,), (0,), 5),
              ((2, 3, 4), (1,), None), ((-1,), (1,), None), ((2,), (1,), 10 ** 6)]


@pytest.mark.parametrize("size, stride, offset", AS_STRIDED)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("of", ["tensor", "row"])
def test_as_strided_refuses_memory_outside_the_storage(size, stride, offset, dtype, of):
    """NumPy's as_strided checks nothing: a view past the storage read (and wrote) the
    process's other memory. torch's checks, with its texts; the same values inside."""
    import minigrad
    import torch

    results = []
    for lib in (minigrad, torch):
        x = lib.arange(12, dtype=getattr(lib, dtype)).view(3, 4)
        x = x[1] if of == "row" else x
        try:
            y = x.as_strided(size, stride) if offset is None else x.as_strided(size, stride,
                                                                               offset)
            results.append(("ok", tuple(y.shape), y.tolist()))
        except RuntimeError as error:
            results.append(("RuntimeError", str(error)))
    assert results[0] == results[1]


# ---- resize_ (udacity/deep-learning-v2-pytorch's fc_model.py: images.resize_(64, 784)) ----

RESIZES = {
    "flat to a matrix": lambda lib: lib.arange(6.).resize_(2, 3),
    "a tuple, a list, a Size": lambda lib: [lib.ones(4).resize_(s) for s in
                                            ((2, 2), [4], lib.Size([1, 4]))],
    "smaller": lambda lib: lib.arange(6.).reshape(2, 3).resize_(2, 2),
    "the same shape keeps the strides": lambda lib: lib.arange(6.).reshape(2, 3).t().resize_(3, 2),
    "a transposed one read in memory order": lambda lib: lib.arange(6.).reshape(2, 3).t().resize_(6),
    "a view from an offset": lambda lib: lib.arange(6.)[2:].resize_(2, 2),
    "a row of a batch": lambda lib: lib.arange(12.).reshape(3, 4)[1].resize_(2, 2),
    "ints": lambda lib: lib.arange(6).resize_(3, 2),
    "requires grad": lambda lib: lib.ones(2, requires_grad=True).resize_(1),
    "requires grad, no_grad too": lambda lib: _under_no_grad(lib, lambda: lib.ones(
        2, requires_grad=True).resize_(1)),
    "a negative size": lambda lib: lib.ones(4).resize_(-1),
    "resize_as_": lambda lib: lib.arange(6.).resize_as_(lib.ones(3, 2)),
}


def _under_no_grad(lib, f):
    with lib.no_grad():
        return f()


def _resize_facts(lib, case):
    try:
        out = case(lib)
    except RuntimeError as e:
        return "RuntimeError", str(e)
    outs = out if isinstance(out, list) else [out]
    return [(repr(t), tuple(t.shape), t.stride(), t.storage_offset(), t._version,
             t.is_contiguous()) for t in outs]


@pytest.mark.parametrize("name", RESIZES)
def test_resize_is_pytorchs(name):
    import torch

    import minigrad
    ours = _resize_facts(minigrad, RESIZES[name])
    theirs = _resize_facts(torch, RESIZES[name])
    assert str(ours).replace("minigrad", "torch") == str(theirs)


def test_resize_in_place_keeps_the_tensor_and_grows_its_memory():
    """The same object back; a bigger shape keeps the old elements first (PyTorch's new
    ones are uninitialised: not compared), a view of the old memory sees writes before."""
    import torch

    import minigrad
    for lib in (minigrad, torch):
        x = lib.arange(4.)
        assert x.resize_(3, 3) is x and x.shape == (3, 3) and x._version == 1
        assert x.flatten()[:4].tolist() == [0., 1., 2., 3.]
        images = lib.ones(8, 1, 28, 28)
        images.resize_(images.size()[0], 784)
        assert images.shape == (8, 784) and images.sum().item() == 8 * 784


UNSQUEEZED = {
    "expanded, new first dim": lambda lib: lib.zeros(1, 1).expand(2, 1).unsqueeze(0),
    "expanded, then expanded again": lambda lib: lib.zeros(1, 1).expand(2, 1).unsqueeze(0).expand(2, 2, 1),
    "expanded, middle": lambda lib: lib.zeros(1, 1).expand(2, 1).unsqueeze(1),
    "expanded, end": lambda lib: lib.zeros(1, 1).expand(2, 1).unsqueeze(-1),
    "expanded 1-d": lambda lib: lib.zeros(1).expand(3).unsqueeze(1),
    "transposed": lambda lib: lib.zeros(3, 4).t().unsqueeze(1),
    "stepped": lambda lib: lib.zeros(3, 4)[:, ::2].unsqueeze(-1),
    "size-1 dims of a slice": lambda lib: lib.zeros(3, 1, 4)[1:2].unsqueeze(2),
    "0-dim expanded": lambda lib: lib.tensor(1.5).expand(2, 1).unsqueeze(0).unsqueeze(-1),
    "narrowed expansion": lambda lib: lib.arange(3.).unsqueeze(0).expand(2, 3).narrow(0, 0, 1)
    .unsqueeze(0).expand(2, 1, 3),
}


@pytest.mark.parametrize("name", sorted(UNSQUEEZED))
def test_unsqueeze_strides_of_views_as_torch(name):
    """torch's unsqueeze keeps every stride and gives the new dim the next dim's size
    times its stride: NumPy's expand_dims gave the size-1 dim of an expanded tensor
    stride 0 (so the view chain expand, unsqueeze, expand had other strides; session 12)."""
    seen = [(UNSQUEEZED[name](lib).stride(), UNSQUEEZED[name](lib).is_contiguous())
            for lib in (torch, mg)]
    assert seen[0] == seen[1]


SIZE_ONE_RESULTS = {
    "logcumsumexp": lambda t: t.logcumsumexp(0), "2 ** x": lambda t: 2 ** t,
    "masked_fill": lambda t: t.masked_fill(t > 3, 1.0), "cumsum": lambda t: t.cumsum(0),
    "logcumsumexp, last dim": lambda t: t.logcumsumexp(-1),
}


@pytest.mark.parametrize("name", sorted(SIZE_ONE_RESULTS))
def test_row_major_results_of_a_size_one_dim_as_torch(name):
    """A result torch allocates row-major keeps row-major strides on a size-1 dim too
    (NumPy's contiguity flag ignores that stride: logcumsumexp of an offset view (1, 3) gave
    (1, 1) where torch gives (3, 1); session 12's wide random programs, seed 42037)."""
    base = np.arange(9.0, dtype=np.float32).reshape(3, 1, 3)
    seen = [SIZE_ONE_RESULTS[name](lib.tensor(base, requires_grad=True)[1]).stride() for lib in (torch, mg)]
    assert seen[0] == seen[1]
