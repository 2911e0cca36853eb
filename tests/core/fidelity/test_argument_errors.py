"""A call that none of an overloaded function's signatures takes: PyTorch's TypeError
("sum() received an invalid combination of arguments - got (Tensor, float), but expected
one of: ..." or its error for one argument), compared with PyTorch 2.13 at test time.
Calls that are fine (``dim=None`` with ``out=``, a list of dims) are compared too."""

from __future__ import annotations

import ast
import subprocess
import sys
import warnings

import numpy as np
import pytest
import torch

import minigrad
from minigrad.rules import arguments
from torch_compare import outcome as _outcome


def _a(lib):
    return lib.ones(2, 2)


CALLS = {
    # max()/min()'s (input, other) overload by keyword (Dive-into-DL's ReLU:
    # torch.max(input=X, other=torch.tensor(0.0))), and the calls none of them takes
    **{f"{name}{label}": (lambda call: lambda L: call(L, L.tensor([1., -2., 3.])))(call)
       for name in ("max", "min") for label, call in {
           " input= other=": lambda L, t, n=name: getattr(L, n)(input=t, other=L.tensor(0.)),
           " other=": lambda L, t, n=name: getattr(L, n)(t, other=t * 2),
           " other= out=": lambda L, t, n=name: getattr(L, n)(t, other=t, out=L.empty(3)),
           " other= an int": lambda L, t, n=name: getattr(L, n)(t, other=1),
           " other= and dim=": lambda L, t, n=name: getattr(L, n)(t, dim=0, other=t),
           " other= and a dim": lambda L, t, n=name: getattr(L, n)(t, 0, other=t),
           " a str": lambda L, t, n=name: getattr(L, n)(t, "a"),
           " method other=": lambda L, t, n=name: getattr(t, n)(other=L.tensor(0.)),
       }.items()},
    # .requires_grad = and .grad = : the setters' own texts (not requires_grad_()'s)
    "requires_grad = False on a result": lambda L: setattr(
        L.ones(2, requires_grad=True) * 2, "requires_grad", False),
    "requires_grad = True on a result": lambda L: setattr(
        L.ones(2, requires_grad=True) * 2, "requires_grad", True),
    "requires_grad = True on int64": lambda L: setattr(L.ones(2, dtype=L.long),
                                                       "requires_grad", True),
    "requires_grad = 1": lambda L: setattr(L.ones(2), "requires_grad", 1),
    "requires_grad_('yes')": lambda L: L.ones(2).requires_grad_("yes"),
    "requires_grad_() on int64": lambda L: L.ones(2, dtype=L.long).requires_grad_(),
    "grad = another size": lambda L: setattr(L.ones(2, 1, requires_grad=True), "grad", L.ones(2)),
    "grad = another dtype": lambda L: setattr(L.ones(2, requires_grad=True), "grad",
                                              L.ones(2, dtype=L.float64)),
    "grad = an int64 tensor": lambda L: setattr(L.ones(2, requires_grad=True), "grad",
                                                L.ones(2, dtype=L.long)),
    "grad = a number": lambda L: setattr(L.ones(2, requires_grad=True), "grad", 3),
    "sum: out= without dim": lambda L: L.sum(_a(L), out=_a(L)),
    "sum: dim=None with out=": lambda L: L.sum(_a(L), None, out=L.empty(0)),
    "sum: a float dim by keyword": lambda L: L.sum(_a(L), dim=0.5),
    "sum: a str dim with keepdim": lambda L: L.sum(_a(L), "x", True),
    "sum: a float in the dims": lambda L: L.sum(_a(L), (0, 1.5)),
    "sum: a float in a dim list": lambda L: L.sum(_a(L), dim=[1, 0.5]),
    "sum: a list of dims": lambda L: L.sum(_a(L), [0]),
    "sum: dims and keepdim": lambda L: L.sum(_a(L), (0, 1), True),
    "sum: dtype a str with dim": lambda L: L.sum(_a(L), 0, dtype="x"),
    "mean: a float dim": lambda L: L.mean(_a(L), 1.5),
    "mean: a float dim with keepdim": lambda L: L.mean(_a(L), 1.5, True),
    "mean: a str dim": lambda L: L.mean(_a(L), "x"),
    "mean: dtype a str": lambda L: L.mean(_a(L), dtype="x"),
    "max: a str dim": lambda L: L.max(_a(L), "x"),
    "max: a float dim": lambda L: L.max(_a(L), 1.5),
    "max: one tensor out= with dim": lambda L: L.max(_a(L), 0, out=_a(L)),
    "max: other tensor": lambda L: L.max(_a(L), _a(L) * 2),
    "add: other a str": lambda L: L.add(_a(L), "x"),
    "add: other a str by keyword": lambda L: L.add(_a(L), other="x"),
    "add: other None": lambda L: L.add(_a(L), None),
    "add: other a list": lambda L: L.add(_a(L), [1.0, 2.0]),
    "add: input a str": lambda L: L.add("x", _a(L)),
    "add: alpha a str": lambda L: L.add(_a(L), _a(L), alpha="x"),
    "add: alpha None": lambda L: L.add(_a(L), 2, alpha=None),
    "add: a number, alpha": lambda L: L.add(_a(L), 2, alpha=3),
    "sub: other a str": lambda L: L.sub(_a(L), "x"),
    "mul: other a str": lambda L: L.mul(_a(L), "x"),
    "div: other a dict": lambda L: L.div(_a(L), {}),
    "reshape: shape a str": lambda L: L.reshape(_a(L), "a"),
    "reshape: shape None": lambda L: L.reshape(_a(L), None),
    "reshape: shape an int": lambda L: L.reshape(_a(L), 4),
    "reshape: a str in the shape": lambda L: L.reshape(_a(L), (2, "a")),
    "reshape: a float first": lambda L: L.reshape(_a(L), (2.0, 2)),
    "reshape: shape a str by keyword": lambda L: L.reshape(_a(L), shape="a"),
    "reshape: shape missing": lambda L: L.reshape(_a(L)),
    "reshape: three arguments": lambda L: L.reshape(_a(L), (4,), 1),
    "reshape: unknown keyword": lambda L: L.reshape(_a(L), shape=(4,), foo=2),
    "reshape: by keyword": lambda L: L.reshape(input=_a(L), shape=[4]),
    # where(condition) alone is nonzero(condition, as_tuple=True) (the UvA flows tutorial's
    # ``torch.where(orig != reconst)``); one of input/other alone, or out=, is refused
    **{f"where: {case}": (lambda call: lambda L: eval(call, {"L": L, "x": L.tensor([[0, 1], [2, 0]])}))(call)
       for case, call in {
           "the condition alone": "L.where(x > 0)", "a 0-dim condition": "L.where(L.tensor(3) > 0)",
           "a float condition": "L.where(L.tensor([1., 0.]))", "an int condition": "L.where(x)",
           "the condition by keyword": "L.where(condition=x > 0)", "nothing": "L.where()",
           "input alone": "L.where(x > 0, x)", "input alone by keyword": "L.where(x > 0, input=x)",
           "other alone by keyword": "L.where(x > 0, other=x)",
           "the condition with out=": "L.where(x > 0, out=None)",
           "a number other": "L.where(x > 0, x, 0)", "by keywords": "L.where(x > 0, input=x, other=x)",
           "a number other with out=None": "L.where(x > 0, x, 0, out=None)",
           "a number input with out=": "L.where(x > 0, 1.5, x, out=x.clone())",
           "a number other by keyword with out=": "L.where(x > 0, x, other=2, out=x.clone())",
       }.items()},
}

# Tensor methods: x.view(*size) / x.view(dtype), x.reshape(*shape), the arithmetic
# methods and x.sum / x.mean (whose errors name add(), not Tensor.add()).
x = {"torch": torch.ones(2, 3), "minigrad": minigrad.ones(2, 3)}
METHOD_CALLS = {
    "view: a str": "x.view('a')",
    "view: an int, a str": "x.view(2, 'a')",
    "view: a tuple and an int": "x.view((2,), 3)",
    "view: two tuples": "x.view((2, 3), (1,))",
    "view: nothing": "x.view()",
    "view: None": "x.view(None)",
    "view: a bool": "x.view(True)",
    "view: a bool later": "x.view(2, True)",
    "view: a float first": "x.view(2.0, 3)",
    "view: a float later": "x.view(1, 2, 3, 1.5)",
    "view: a float in a list": "x.view([2.0, 3])",
    "view: a float in a tuple": "x.view((2.0, 3))",
    "view: a str in a list": "x.view([2, 'a'])",
    "view: None later": "x.view(2, 3, 1, 1, None)",
    "view: a dtype later": "x.view(2, torch.float32)",
    "view: a dtype first": "x.view(torch.float32, 2)",
    "view: a tensor": "x.view(x)",
    "view: a float tensor of one element": "x.view(torch.tensor(6.))",
    "view: an int tensor": "x.view(torch.tensor(6))",
    "view: int tensors as sizes": "x.view(torch.tensor(2), torch.tensor([3]))",
    "view: NumPy ints": "x.view(np.int64(2), np.int32(3))",
    "view: a NumPy float later": "x.view(2, np.float64(3))",
    "view: a range": "x.view(range(6, 7))",
    "view: a Size": "x.view(torch.Size([3, 2]))",
    "view: size by keyword": "x.view(size=(3, 2))",
    "view: size by keyword, a list": "x.view(size=[6])",
    "view: size an int by keyword": "x.view(size=6)",
    "view: size None by keyword": "x.view(size=None)",
    "view: a str in size by keyword": "x.view(size=(2, 'a'))",
    "view: shape by keyword": "x.view(shape=(6,))",
    "view: dtype a str by keyword": "x.view(dtype='a')",
    "view: unknown keyword": "x.view(2, 3, foo=1)",
    "view: size twice": "x.view((6,), size=(6,))",
    "view: two keywords": "x.view(size=(6,), foo=1)",
    "view: two unknown keywords": "x.view(zz=1, aa=2)",
    "view: -1": "x.view(-1, 2)",
    "view: -2": "x.view(-2, 3)",
    "view: -1 twice": "x.view(-1, -1)",
    "view: -1 twice, then -2": "x.view(-1, -1, -2)",
    "view: -2 after 0": "x.view(0, -2)",
    "view: () of a one-element tensor": "torch.ones(1, 1).view(())",
    "view: wrong size": "x.view(4, 2)",
    "reshape: None": "x.reshape(None)",
    "reshape: a str": "x.reshape('a')",
    "reshape: an int, a str": "x.reshape(2, 'a')",
    "reshape: a tuple and an int": "x.reshape((2,), 3)",
    "reshape: nothing": "x.reshape()",
    "reshape: a float": "x.reshape(6.)",
    "reshape: a float first": "x.reshape(2.0, 3)",
    "reshape: a float first in a tuple": "x.reshape((2.0, 3))",
    "reshape: a float later in a list": "x.reshape([2, 3.5])",
    "reshape: a bool": "x.reshape(True)",
    "reshape: a bool first in a tuple": "x.reshape((True, 6))",
    "reshape: a dtype": "x.reshape(torch.float32)",
    "reshape: None later": "x.reshape(6, None)",
    "reshape: None first": "x.reshape(None, 6)",
    "reshape: a tensor": "x.reshape(x)",
    "reshape: a float tensor later": "x.reshape((2, torch.tensor(3.)))",
    "reshape: an int tensor": "x.reshape(torch.tensor([6]))",
    "reshape: a range": "x.reshape(range(6, 7))",
    "reshape: shape by keyword": "x.reshape(shape=(3, 2))",
    "reshape: shape an int by keyword": "x.reshape(shape=6)",
    "reshape: a float first in shape by keyword": "x.reshape(shape=(2.0, 3))",
    "reshape: a str later in shape by keyword": "x.reshape(shape=(2, 'a'))",
    "reshape: size by keyword": "x.reshape(size=(6,))",
    "reshape: shape twice": "x.reshape(2, 3, shape=(6,))",
    "reshape: unknown keyword": "x.reshape(6, foo=1)",
    "reshape: a str and an unknown keyword": "x.reshape('a', foo=1)",
    "reshape: -2": "x.reshape(-2, 3)",
    # the methods of ``*ints`` that also name their tuple by keyword (the UvA energy
    # models tutorial's ``img.flip(dims=(1, 2))``)
    **{f"{method}: {case}": f"x.{method}({call})"
       for method, keyword, ints in (("permute", "dims", "(1, 0)"), ("flip", "dims", "(1,)"),
                                     ("repeat", "repeats", "(2, 1)"), ("tile", "dims", "(2,)"),
                                     ("expand", "size", "(2, 2, 3)"))
       for case, call in {
           "by keyword": f"{keyword}={ints}", "a list by keyword": f"{keyword}=list({ints})",
           "an int by keyword": f"{keyword}=1", "a float by keyword": f"{keyword}=(1.0, 0)",
           "twice": f"1, {keyword}={ints}", "unknown keyword": f"{keyword}={ints}, foo=1",
           "only an unknown keyword": "foo=1", "positional and unknown": "1, 0, foo=1",
           "nothing": "", "implicit": f"{keyword}={ints}, implicit=True",
           "positional and implicit": "2, 2, 3, implicit=False",
       }.items()},
    "add: a str": "x.add('a')",
    "add: None": "x.add(None)",
    "add: a str by keyword": "x.add(other='a')",
    "add: alpha a str": "x.add(1, alpha='a')",
    "add: nothing": "x.add()",
    "add: only alpha": "x.add(alpha=2)",
    "add: two tensors": "x.add(x, x)",
    "add: three tensors": "x.add(x, x, x)",
    "add: three numbers": "x.add(1, 2, 3)",
    "add: a number, a tensor, a number": "x.add(1, x, 2)",
    "add: four numbers": "x.add(1, 2, 3, 4)",
    "add: other twice": "x.add(x, other=x)",
    "add: unknown keyword": "x.add(other=1, foo=2)",
    "add: two unknown keywords": "x.add(x, foo=1, bar=2)",
    "add: alpha and unknown keywords": "x.add(x, alpha=1, foo=1, bar=2)",
    "add: two arguments and alpha": "x.add(1, x, alpha=2)",
    "add: alpha first (the old order)": "x.add(2, x)",
    "add: alpha first, other by keyword": "x.add(3, other=2)",
    "add: alpha first, other a str": "x.add(1, 'a')",
    "add: a number": "x.add(2, alpha=3)",
    "sub: a str": "x.sub('a')",
    "sub: three tensors": "x.sub(x, x, x)",
    "sub: nothing": "x.sub()",
    "sub: unknown keyword": "x.sub(x, foo=1)",
    "sub: alpha None": "x.sub(x, alpha=None)",
    "sub: alpha first (the old order)": "x.sub(2, x)",
    "mul: a str": "x.mul('a')",
    "mul: two numbers": "x.mul(1, 2)",
    "mul: three numbers": "x.mul(1, 2, 3)",
    "mul: nothing": "x.mul()",
    "mul: only an unknown keyword": "x.mul(foo=1)",
    "mul: unknown keyword": "x.mul(x, foo=1)",
    "mul: alpha": "x.mul(x, alpha=2)",
    "mul: other twice": "x.mul(x, other=x)",
    "mul: by keyword": "x.mul(other=x)",
    "div: a str": "x.div('a')",
    "div: nothing": "x.div()",
    "div: two tensors": "x.div(x, x)",
    "div: unknown keyword": "x.div(x, foo=1)",
    "div: other and an unknown keyword": "x.div(other=x, foo=1)",
    "div: only an unknown keyword": "x.div(foo=1)",
    "div: alpha": "x.div(x, alpha=2)",
    "sum: a str dim": "x.sum('a')",
    "sum: a float dim": "x.sum(0.5)",
    "sum: a float dim by keyword": "x.sum(dim=0.5)",
    "sum: a float in the dims": "x.sum((0, 1.5))",
    "sum: a float in a dim list": "x.sum([1, 0.5])",
    "sum: a bool later in the dims": "x.sum((0, True))",
    "sum: dtype a str with dim": "x.sum(0, dtype='x')",
    "sum: dtype a str": "x.sum(dtype='x')",
    "sum: unknown keyword": "x.sum(0, foo=1)",
    "sum: a str dim with keepdim": "x.sum('x', True)",
    "sum: three arguments": "x.sum(0, True, 3)",
    "sum: keepdim without dim": "x.sum(keepdim=True)",
    "sum: keepdim an int": "x.sum(0, keepdim=1)",
    "sum: keepdim a NumPy bool": "x.sum(0, keepdim=np.bool_(True))",
    "sum: a NumPy int dim": "x.sum(np.int64(0))",
    "sum: dims, keepdim, dtype": "x.sum([0, 1], True, dtype=torch.float64)",
    "sum: no dims": "x.sum(())",
    "mean: a str dim": "x.mean('x')",
    "mean: a float dim": "x.mean(1.5)",
    "mean: a float dim with keepdim": "x.mean(1.5, True)",
    "mean: dtype a str": "x.mean(dtype='x')",
    "mean: keepdim a str": "x.mean(0, 'a')",
    "mean: dims by keyword": "x.mean(dim=[0, 1], keepdim=True)",
    # clamp: two tensors or two numbers (a 0-dim tensor beside a number reads as one)
    **{f"{name}: {case}": f"{'x.clone()' if name.endswith('_') else 'x'}.{name}({call})"
       for name in ("clamp", "clip", "clamp_", "clip_")
       for case, call in {
           "a number and a 1-D tensor": "0.5, torch.tensor([2.0])",
           "a 1-D tensor and a number": "torch.tensor([0.5]), 2.0",
           "by keyword": "min=0.5, max=torch.tensor([2.0])",
           "by keyword, max first": "max=torch.tensor([2.0]), min=0.5",
           "mixed": "0.5, max=torch.tensor([2.0])",
           "a number and a 0-dim tensor": "0.5, torch.tensor(2.0)",
           "NumPy scalars": "np.float32(0.5), np.float64(2)",
           "a str": "0.5, 'a'", "one str": "'a'", "one str by keyword": "min='a'",
           "a list": "[1.0]", "out=": "0.5, out=None", "three": "1, 2, 3",
           "unknown keyword": "foo=1", "none": "",
       }.items()},
    **{f"torch.{name}: {case}": f"torch.{name}(x, {call})"
       for name in ("clamp", "clip")
       for case, call in {
           "a number and a 1-D tensor": "0.5, torch.tensor([2.0])",
           "by keyword": "min=0.5, max=torch.tensor([2.0])", "a str": "'a'",
           "mixed": "0.5, max=torch.tensor([2.0])", "four": "1, 2, 3",
           "unknown keyword": "foo=1", "NumPy scalars": "np.float32(0.5), np.float64(2)",
       }.items()},
}


def _method_outcome(code, lib):
    scope = {"torch": lib, "np": np, "x": x[lib.__name__]}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (the old order's warning: compared below)
        return _outcome(lambda _: eval(code, scope), lib)


@pytest.mark.parametrize("name", list(CALLS))
def test_argument_errors_are_torchs(name):
    assert _outcome(CALLS[name], minigrad) == _outcome(CALLS[name], torch)


@pytest.mark.parametrize("name", list(METHOD_CALLS))
def test_method_argument_errors_are_torchs(name):
    assert _method_outcome(METHOD_CALLS[name], minigrad) == \
        _method_outcome(METHOD_CALLS[name], torch)


def test_the_refused_calls_are_refused():
    refused = [name for name in CALLS if _outcome(CALLS[name], torch)[0] == "error"]
    assert len(refused) >= 20
    refused = [name for name in METHOD_CALLS
               if _method_outcome(METHOD_CALLS[name], torch)[0] == "error"]
    assert len(refused) >= 105


OLD_ORDER = ["x.add(2, x)", "x.sub(3, other=x)", "x.add_(-0.5, x)", "x.sub_(3, x)",
             "x.addcmul_(2, x, x)", "x.addcdiv(0.5, x, x)"]


@pytest.mark.parametrize("code", OLD_ORDER)
def test_the_old_order_warns_as_torch(code):
    """PyTorch's warning, up to where it names the C++ file that raised it. (PyTorch
    warns once a process, so its text is read in a fresh one.)"""
    program = ("import warnings, torch\nx = torch.ones(2)\n"
               "with warnings.catch_warnings(record=True) as caught:\n"
               "    warnings.simplefilter('always')\n"
               f"    {code}\n"
               "print(repr(str(caught[0].message)))")
    printed = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                             check=True).stdout
    theirs = ast.literal_eval(printed).split(" (Triggered internally")[0]
    arguments._deprecations_warned.clear()  # (as in a fresh process)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        eval(code, {"x": minigrad.ones(2)})
    (warning,) = caught
    assert warning.category is UserWarning
    assert warning.filename == "<string>"  # the calling line (eval's), not the kit's
    assert str(warning.message) == theirs


def _old_order_program(library):
    x = library.ones(3)
    x.add_(-0.5, x)  # (old optimizers: p.data.add_(-lr, grad); exp_avg_sq.addcmul_(1 - b, g, g))
    x.sub_(2, library.full((3,), 0.25))
    x.addcmul_(0.5, x, x)
    y = x.add(2, x).addcdiv(3, x, x + 1)
    return y


def test_the_old_order_computes_as_torch_and_warns_once_a_process():
    """The deprecated orders compute as today's (values and the in-place results), and
    PyTorch's single warning flag: of several old-order calls, only the first warns."""
    program = ("import warnings, torch\n"
               "with warnings.catch_warnings(record=True) as caught:\n"
               "    warnings.simplefilter('always')\n"
               "    x = torch.ones(3)\n"
               "    x.add_(-0.5, x); x.sub_(2, x); x.addcmul_(0.5, x, x); x.add(2, x)\n"
               "print(len(caught))")
    counted = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                             check=True).stdout
    arguments._deprecations_warned.clear()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mine = _old_order_program(minigrad)
    assert len(caught) == int(counted) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = _old_order_program(torch)
    assert repr(mine) == repr(theirs)
    np.testing.assert_array_equal(mine.numpy(), theirs.numpy())


@pytest.mark.parametrize("code", ["x.add_(x, 2.)", "x.sub_(x, 1, 2)",
                                  "x.add_(1, x, 2)", "x.add_(x, x)"])
def test_an_extra_positional_argument_in_place_is_torchs_error(code):
    def outcome(library):
        with pytest.raises(TypeError) as raised:
            eval(code, {"x": library.ones(2)})
        return str(raised.value)
    assert outcome(minigrad) == outcome(torch)


@pytest.mark.parametrize("code", [
    "ones(2, 2).view(float64)", "ones(2, 2).view(dtype=int32)", "ones(2, 3).t().view(int32)",
    "ones(2, 3).t().view(int16)", "tensor(1.5).view(int16)", "tensor(1.5).view(int32)",
    "tensor([True, False]).view(uint8)", "tensor([1, 0, 2], dtype=uint8).view(bool)",
    "arange(6, dtype=uint8).view(int16)", "arange(6, dtype=uint8)[1:5].view(int16)",
    "arange(12, dtype=uint8).view(3, 4)[:, 1:3].view(int16)",
    "arange(12, dtype=uint8).view(4, 3)[:, :2].view(int16)", "arange(6, dtype=uint8).view(float16)",
    "zeros(0, dtype=uint8).view(int32)", "tensor([-3, 2, -1], dtype=int8).view(uint8)",
    "ones(2, requires_grad=True).view(int32)", "(ones(2, requires_grad=True) * 1).view(float32)"])
def test_view_as_another_dtype_reads_the_memory_as_torch(code):
    """``x.view(dtype)``: the bytes read as another dtype, without a gradient, with
    PyTorch's checks where the element sizes differ."""
    def outcome(library):
        try:
            v = eval(code, vars(library))
        except RuntimeError as error:
            return str(error)
        return repr(v), v.stride(), v.requires_grad, v.grad_fn
    assert outcome(minigrad) == outcome(torch)


def test_a_dtype_view_shares_memory_and_version():
    def run(library):
        x = library.tensor([-3, 2, -1], dtype=library.int8)
        v = x.view(library.uint8)
        v[0] = 7
        v.add_(1)
        return repr(x), repr(v), x._version, v._version
    assert run(minigrad) == run(torch)


@pytest.mark.parametrize("call", [
    "L.clamp(L.float32, min=L.tensor(1.0))", "L.clamp(L.float32, 1.0)", "L.clamp(3, min=L.tensor(1.0))",
    "L.clip(L.float32, max=L.tensor(1.0))", "L.clamp(None, min=L.tensor(1.0))",
    "L.clamp('a', 0.5)", "L.clamp(input=[1.0], min=0.5)", "L.clamp(L.tensor([1.0, 3.0]), 0.5, 2.0)"])
def test_clamp_of_an_input_that_is_no_tensor_raises_torchs_invalid_combination(call):
    """torch.clamp/clip given a dtype, a number, None, a str or a list as input raise the
    parser's invalid combination; minigrad failed inside ('torch.dtype' object has no
    attribute '_data', or NumPy's '<' between a dtype and a float: meet seed 46105)."""
    seen = []
    for L in (torch, minigrad):
        try:
            seen.append(("value", eval(call).tolist()))
        except Exception as error:  # noqa: BLE001 - the error is what is compared
            seen.append((type(error).__name__, str(error)))
    assert seen[1] == seen[0]


@pytest.mark.parametrize("call", [
    lambda lib, x: x.max(other=1), lambda lib, x: x.min(other=2.5),
    lambda lib, x: x.max(dim=1, other=x), lambda lib, x: x.min(1, other=x)])
def test_max_and_min_with_other_as_torch(call):
    """``x.max(other=...)`` (rules/parser.py's check_max_other): a number, or ``other``
    beside ``dim``, meets PyTorch's parser's texts (keywords alone end with ", ")."""
    x = np.arange(6.0).reshape(2, 3)
    with pytest.raises(TypeError) as theirs:
        call(torch, torch.tensor(x))
    with pytest.raises(TypeError) as ours:
        call(minigrad, minigrad.tensor(x))
    assert str(ours.value) == str(theirs.value)


def test_max_and_min_with_a_tensor_other_as_torch():
    x = np.arange(6.0).reshape(2, 3)
    for lib in (minigrad, torch):
        assert lib.tensor(x).max(other=lib.tensor(x[0]) + 1).tolist() == [[1., 2., 3.], [3., 4., 5.]]
        assert lib.tensor(x).min(other=lib.tensor(x[0]) + 1).tolist() == [[0., 1., 2.], [1., 2., 3.]]
