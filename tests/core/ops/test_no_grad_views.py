"""Views made under no_grad, changed in place with grad mode on, compared with PyTorch
2.13 as whole programs (tests/core/support/programs.py): torch cannot tell whether such a
change should be recorded and refuses it ("A view was created in no_grad mode and is
being modified inplace with grad mode enabled. ..."), also for a view made from such a
view ("Output 0 of Slice is a view of a view which was created in no_grad mode ..."),
and when its base or another view was changed ("... its base or another view of its
base has been modified inplace ...", at every reading of its grad_fn; printed as
grad_fn=<Invalid>). The same for an output of a custom Function that is a view (or an
input returned as it is): its change would override the custom backward ("Output 0 of
View is a view and is being modified inplace. This view was created inside a custom
Function ..."). Views of detached tensors are ordinary views."""

from __future__ import annotations

import pytest

from programs import assert_same_run

CHANGES = {
    "mul_(2)": lambda lib, v: v.mul_(2),
    "add_(tensor)": lambda lib, v: v.add_(lib.ones(v.shape[-1:], requires_grad=True)),
    "zero_()": lambda lib, v: v.zero_(),
    "copy_(tensor)": lambda lib, v: v.copy_(lib.ones(v.shape, requires_grad=True)),
    "[0] = 5": lambda lib, v: v.__setitem__(0, 5.0),
    "[[0]] = 5": lambda lib, v: v.__setitem__([0], 5.0),
    "[0] = tensor": lambda lib, v: v.__setitem__(0, lib.tensor(2.0, requires_grad=True)),
    "t_()": lambda lib, v: v.t_(),
    "unsqueeze_(0)": lambda lib, v: v.unsqueeze_(0),
    "exp_()": lambda lib, v: v.exp_(),
}

VIEWS = {
    "[0]": lambda t: t[0],
    "[1:]": lambda t: t[1:],
    "view(-1)": lambda t: t.view(-1),
    "t()": lambda t: t.t(),
    "[0] then [1:] outside": None,  # a view made under no_grad, then a view of it
}

BASES = {
    "a result": lambda lib, rec: rec.leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]) * 2,
    "a leaf": lambda lib, rec: rec.leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
    "no grad": lambda lib, rec: rec.leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=False),
}


def _no_grad_view(lib, base, view):
    with lib.no_grad():
        if VIEWS[view] is None:
            inner = base[0]
        else:
            return VIEWS[view](base)
    return inner[1:]


@pytest.mark.parametrize("base", list(BASES))
@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("change", list(CHANGES))
def test_changing_a_no_grad_view_with_grad_mode_on_is_torchs(change, view, base):
    def program(lib, rec):
        y = BASES[base](lib, rec)
        v = _no_grad_view(lib, y, view)
        rec.show("the view", v)
        rec.show("requires_grad, is_leaf", (v.requires_grad, v.is_leaf))
        CHANGES[change](lib, v)
        rec.show("changed", v)
        rec.show("base", y)
    assert_same_run(program)


@pytest.mark.parametrize("base", list(BASES))
@pytest.mark.parametrize("change", list(CHANGES))
def test_changing_it_under_no_grad_then_reading_it_is_torchs(change, base):
    def program(lib, rec):
        y = BASES[base](lib, rec)
        with lib.no_grad():
            v = y[0]
            CHANGES[change](lib, v)
        rec.show("printed", repr(v))
        rec.show("requires_grad", v.requires_grad)
        rec.show("grad_fn", v.grad_fn)
    assert_same_run(program)


@pytest.mark.parametrize("base", list(BASES))
@pytest.mark.parametrize("where", ["grad mode", "no_grad"])
def test_changing_its_base_is_torchs(base, where):
    def program(lib, rec):
        y = BASES[base](lib, rec)
        with lib.no_grad():
            v = y[0]
        other = y[1:]
        if where == "grad mode" and y.grad_fn is not None:
            y.mul_(2)
        else:
            with lib.no_grad():
                y.mul_(2)
        rec.show("other view", other)
        rec.show("printed", repr(v))
        rec.show("used", v * 2)
    assert_same_run(program)


@pytest.mark.parametrize("change", ["mul_(2)", "add_(tensor)", "[0] = tensor", "t_()"])
def test_views_of_detached_tensors_are_ordinary_views(change):
    def program(lib, rec):
        x = rec.leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        d = (x * 2).detach()
        v = d[0]
        CHANGES[change](lib, v)
        rec.show("view", v)
        rec.show("detached", d)
        if v.requires_grad:
            v.sum().backward()
            rec.show("x.grad", x.grad)
    assert_same_run(program)


def _functions(lib):
    class View(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.view(-1)

        @staticmethod
        def backward(ctx, grad):
            return grad.view(2, 3)

    class Same(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    class Fresh(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 3

        @staticmethod
        def backward(ctx, grad):
            return grad * 3

    return {"View": View, "Same": Same, "Fresh": Fresh}


@pytest.mark.parametrize("how", ["itself", "its base", "a view of it", "under no_grad"])
@pytest.mark.parametrize("function", ["View", "Same", "Fresh"])
def test_changing_a_custom_functions_view_output_is_torchs(function, how):
    def program(lib, rec):
        x = rec.leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        y = x * 2
        out = _functions(lib)[function].apply(y)
        rec.show("out", out)
        rec.show("is a view", out._base is not None)
        if how == "itself":
            out.mul_(2)
        elif how == "its base":
            y.mul_(2)
        elif how == "a view of it":
            out[1:].mul_(2)
        else:
            with lib.no_grad():
                out.mul_(2)
        rec.show("printed", repr(out))
        out.sum().backward()
        rec.show("x.grad", x.grad)
    assert_same_run(program)


@pytest.mark.parametrize("attribute", ["retains_grad", "requires_grad", "is_leaf", "grad_fn",
                                       "grad", "output_nr", "_version"])
def test_what_a_changed_view_made_under_no_grad_tells(attribute):
    """Its node cannot be rebuilt (torch's error), but what torch reads without
    rebuilding it (retains_grad, .grad) it tells."""
    def run(lib):
        x = lib.tensor([-2.0, -2.0, -2.0], requires_grad=True) * 1
        with lib.no_grad():
            view = x[0]
        x[0] = 0.5
        try:
            value = getattr(view, attribute)
        except RuntimeError as error:
            return "error", str(error)
        return "value", repr(value) if attribute != "grad_fn" else value
    import minigrad
    import torch

    assert run(minigrad) == run(torch)
