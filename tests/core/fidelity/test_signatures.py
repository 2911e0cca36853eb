"""Every public function and method minigrad shares with PyTorch takes PyTorch's keyword
names (``input=``, ``other=``, ``dim=``, ``keepdim=``, ...) in PyTorch's order, read from
PyTorch 2.13 itself (``torch_signatures.py``); an unexpected keyword raises PyTorch's
error. What minigrad leaves out is listed here, with the reason."""

from __future__ import annotations

import inspect
import types
import warnings

import pytest
import torch

import minigrad

from torch_signatures import differences, python_signature, torch_signatures

# PyTorch's parameters for things minigrad does not have: named dimensions. (``out=``,
# ``layout=``, ``pin_memory=``, ``memory_format=``, ``non_blocking=`` are taken wherever
# PyTorch's Python signature has them: test_out.py, test_layouts.py.)
MAY_OMIT = {"names"}
# Keywords PyTorch's parser takes but lists in none of its signatures (checked by
# test_unlisted_keywords_are_taken_by_torch below).
UNLISTED = {"zeros": {"pin_memory"}, "ones": {"pin_memory"}, "full": {"pin_memory"},
            "scalar_tensor": {"requires_grad"}}
# Parameters left out of one function, and why.
OMITTED = {
    "dist": {"out"},  # (torch.dist's signature lists out=, its parser refuses it: tested below)
    # (as_strided_scatter's schema has an out= variant; its Python binding refuses out=, as
    # tests/core/ops/test_view_scatter.py shows for both libraries)
    "as_strided_scatter": {"out"},
    "Tensor.numpy": {"force"},
    "Tensor.type": {"kwargs"},
    "Tensor.copy_": {"other"},  # copy_(other) is another overload's name for copy_(src)
    "Tensor.max": {"other"},  # max(other) is maximum(other) in minigrad
    "Tensor.min": {"other"},
    "max": {"other"},
    "min": {"other"},
    "mm": {"out_dtype"},  # PyTorch's mixed-precision products
    "bmm": {"out_dtype"},
    "Tensor.mm": {"out_dtype"},
    "Tensor.bmm": {"out_dtype"},
    "addmm": {"out_dtype"},
    # (their schemas list out=, but PyTorch's torch.index_put and torch.masked_scatter say
    # "got an unexpected keyword argument 'out'", as minigrad's do)
    "index_put": {"out"},
    "masked_scatter": {"out"},
    "Tensor.addmm": {"out_dtype"},
    "baddbmm": {"out_dtype"},
    "Tensor.baddbmm": {"out_dtype"},
    "Tensor.norm": {"dtype"},
    "norm": {"dtype"},
    "Tensor.view": {"dtype"},
    "result_type": {"scalar", "scalar1", "scalar2"},  # overloads for numbers, same places  # reinterpreting the bytes as another dtype
    "Tensor.new_tensor": {"layout", "pin_memory"},  # in ATen's schema, refused by Python's
    "Tensor.expand": {"implicit"},
    # the names of tensor_split's three overloads: taken by keyword (``sections=2``), but
    # the Python signature shows the documented ``indices_or_sections`` (test_split_views)
    "tensor_split": {"indices", "sections", "tensor_indices_or_sections"},
    "Tensor.tensor_split": {"indices", "sections", "tensor_indices_or_sections"},  # an internal flag of PyTorch's tracer
    # (hsplit, vsplit, dsplit: the same two overloads' names, ``indices`` and ``sections``)
    **{f"{prefix}{name}": {"indices", "sections"} for prefix in ("", "Tensor.")
       for name in ("hsplit", "vsplit", "dsplit")},
    "isin": {"element", "test_element"},  # (the overloads' names when one is a number)
    "F.softmax": {"_stacklevel"},
    "F.log_softmax": {"_stacklevel"},
    "F.mse_loss": {"weight"},
    "F.avg_pool2d": {"out"},  # (torch._C._nn.avg_pool2d's out variant, written to by no lesson)
    "F.avg_pool3d": {"out"},  # (likewise)
    # (torch.threshold and torch.binary_cross_entropy_with_logits: ATen's out variants, which
    # minigrad's top-level layer functions leave to their nn.functional twins' callers)
    "threshold": {"out"},
    "binary_cross_entropy_with_logits": {"out"},
    "embedding": {"out"},
    "scalar_tensor": {"out"},
    "F.linear": {"out"},
    "nn.Module": {"args", "kwargs"},
    "nn.Sigmoid": {"args", "kwargs"},
    "nn.Tanh": {"args", "kwargs"},
    "nn.LogSigmoid": {"args", "kwargs"},
    "nn.Softsign": {"args", "kwargs"},
    "nn.Tanhshrink": {"args", "kwargs"},
    "nn.Softmax2d": {"args", "kwargs"},
    "nn.Parameter": set(),
    "optim.SGD": {"foreach", "differentiable", "fused"},
    "optim.Adam": {"foreach", "differentiable", "fused", "capturable"},
    "optim.AdamW": {"foreach", "differentiable", "fused", "capturable"},
    "optim.RMSprop": {"foreach", "differentiable", "capturable"},
    "optim.Adagrad": {"foreach", "differentiable", "fused"},
}
# PyTorch's parameters named with a Python keyword (``uniform_(from=0, to=1)``): minigrad
# spells the parameter ``from_`` and takes ``from=`` through ``**bounds``.
PYTHON_KEYWORD_NAMES = {"Tensor.uniform_": {"from_": "from"}, "Tensor.random_": {"from_": "from"}}
OMITTED["normal"] = {"input"}  # ATen's normal_functional(self, mean, std): not in Python's torch.normal
# Not functions in PyTorch's sense, or with no signature PyTorch can state.
SKIP = {"FloatTensor", "DoubleTensor", "LongTensor", "IntTensor", "BoolTensor",
        "Tensor.to",  # Tensor.to reads PyTorch's three overloads itself (test_devices.py)
        # Tensor.new, the legacy constructor: PyTorch's C method has no docstring, parser list
        # or schema; its overloads are compared by call in test_creation.py (TENSOR_NEW)
        "Tensor.new",
        # C functions with no docstring or parser list: their arguments and TypeErrors are
        # compared in test_anomaly_and_graph_hooks.py
        "is_anomaly_enabled", "is_anomaly_check_nan_enabled", "set_anomaly_enabled",
        # torch.unique is a Python function that dispatches on return_inverse (its signature
        # is (*args, **kwargs)); Tensor.nonzero's as_tuple= is taken by a Python wrapper
        # that no signature lists. Both are compared by call in tests/core/ops/test_counting.py
        # (unique_consecutive likewise, in tests/core/ops/test_more_names.py)
        "unique", "Tensor.nonzero", "unique_consecutive",
        # torch.norm_except_dim(v, pow=2, dim=0): no docstring, parser list or schema found
        # for it; called with PyTorch's names in tests/nn/test_nn_training_utilities.py
        "norm_except_dim"}
# Tensor subclasses that PyTorch makes in __new__ (its __init__ shows (*args, **kwargs))
TENSOR_CLASSES = {"Parameter", "UninitializedParameter", "UninitializedBuffer"}


def _public_functions():
    for name in sorted(dir(minigrad)):
        value = getattr(minigrad, name)
        if (name.startswith("_") or name in SKIP or isinstance(value, (type, types.ModuleType))
                or not callable(value) or not hasattr(torch, name)):
            continue
        yield name, value, getattr(torch, name), name


def _tensor_methods():
    for name, value in sorted(vars(minigrad.Tensor).items()):
        if name.startswith("_") or isinstance(value, property) or not callable(value):
            continue
        if hasattr(torch.Tensor, name) and f"Tensor.{name}" not in SKIP:
            yield f"Tensor.{name}", getattr(minigrad.Tensor, name), getattr(torch.Tensor, name), name


def _functional():
    for name in minigrad.nn.functional.__all__:
        theirs = getattr(torch.nn.functional, name)
        if theirs.__qualname__ == "boolean_dispatch.<locals>.fn":  # (max_pool2d: (*args,
            theirs = getattr(torch.nn.functional, f"{name}_with_indices")  # **kwargs) around it)
        yield f"F.{name}", getattr(minigrad.nn.functional, name), theirs, name


def _constructors():
    for package in ("nn", "optim"):
        for name in sorted(dir(getattr(minigrad, package))):
            value = getattr(getattr(minigrad, package), name)
            theirs = getattr(getattr(torch, package), name, None)
            if isinstance(value, type) and isinstance(theirs, type) \
                    and name not in TENSOR_CLASSES:
                yield f"{package}.{name}", value.__init__, theirs.__init__, "__init__"


def _python_rejects_out(function) -> bool:
    """ATen has ``out`` variants of ``zeros_like`` and ``clone``, but PyTorch's Python
    functions do not take ``out=`` for them: ask PyTorch's argument parser, which names
    an unexpected ``out`` (or lists the signatures, none with ``out``)."""
    for args in ((torch.ones(2, 2),), (torch.ones(2, 2), [0]), (torch.ones(2, 2), 1.0),
                 (torch.ones(2, 2), 1)):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                function(*args, out=torch.empty(0))
        except Exception as error:  # noqa: BLE001 - only the parser's answer matters
            message = str(error)
            if ("unexpected keyword argument 'out'" in message
                    or ("expected one of" in message and "Tensor out" not in message)):
                return True
    return False


EXPORTED = [*_public_functions(), *_tensor_methods(), *_functional(), *_constructors()]


@pytest.mark.parametrize("label, mine, theirs, name", EXPORTED, ids=[e[0] for e in EXPORTED])
def test_signature_is_torchs(label, mine, theirs, name):
    accepted, documented = torch_signatures(theirs, name, method=label.startswith("Tensor."))
    assert accepted, f"no signature found for torch's {label}"
    may_omit = MAY_OMIT | OMITTED.get(label, set())
    if (not label.startswith("Tensor.") and any("out" in {n for n, _ in o} for o in accepted)
            and _python_rejects_out(theirs)):
        may_omit = may_omit | {"out"}
    documented = documented + [[(n, "keyword") for n in UNLISTED.get(label, ())]]
    spelled = PYTHON_KEYWORD_NAMES.get(label)
    mine = python_signature(mine)
    if spelled:
        mine = [(spelled.get(n, n), kind) for n, kind in mine if kind != "kwargs"]
    problems = differences(mine, accepted, documented, may_omit)
    assert not problems, f"{label}: " + "; ".join(problems)


def test_unlisted_keywords_are_taken_by_torch():
    for name, keywords in UNLISTED.items():
        size = {"full": ((2,), 1.0), "scalar_tensor": (2.0,)}.get(name, (2,))
        for keyword in keywords:
            value = getattr(torch, name)(*size, **{keyword: False})  # no TypeError
            assert tuple(value.shape) == (() if name == "scalar_tensor" else (2,))


def test_the_scan_covers_every_export():
    labels = {e[0] for e in EXPORTED}
    assert {"add", "matmul", "sum", "Tensor.add", "F.mse_loss", "optim.RMSprop",
            "nn.MSELoss"} <= labels
    assert len(labels) > 150


# ---- calls by keyword, and unexpected keywords ----------------------------------------------

A = [[1.0, -2.0], [3.0, 0.5]]
B = [[0.5, 1.0], [-1.0, 2.0]]


def _operands(lib):
    return lib.tensor(A), lib.tensor(B)


KEYWORD_CALLS = {
    "matmul": lambda lib, a, b: lib.matmul(input=a, other=b),
    "add": lambda lib, a, b: lib.add(input=a, other=b, alpha=2),
    "sub": lambda lib, a, b: lib.sub(a, other=b, alpha=0.5),
    "mul": lambda lib, a, b: lib.mul(input=a, other=b),
    "div": lambda lib, a, b: lib.div(input=a, other=b),
    "pow": lambda lib, a, b: lib.pow(input=a, exponent=2),
    "mm": lambda lib, a, b: lib.mm(input=a, mat2=b),
    "mv": lambda lib, a, b: lib.mv(input=a, vec=b[0]),
    "dot": lambda lib, a, b: lib.dot(input=a[0], tensor=b[0]),
    "bmm": lambda lib, a, b: lib.bmm(input=a.unsqueeze(0), mat2=b.unsqueeze(0)),
    "sum": lambda lib, a, b: lib.sum(input=a, dim=1, keepdim=True),
    "mean": lambda lib, a, b: lib.mean(a, dim=(0, 1), keepdim=False),
    "max": lambda lib, a, b: lib.max(input=a, dim=0, keepdim=True),
    "argmax": lambda lib, a, b: lib.argmax(input=a, dim=1),
    "std": lambda lib, a, b: lib.std(input=a, dim=0, correction=0),
    "var": lambda lib, a, b: lib.var(a, dim=1, unbiased=False, keepdim=True),
    "logsumexp": lambda lib, a, b: lib.logsumexp(input=a, dim=1, keepdim=True),
    "softmax": lambda lib, a, b: lib.softmax(input=a, dim=1),
    "log_softmax": lambda lib, a, b: lib.log_softmax(input=a, dim=0, dtype=lib.float64),
    "exp": lambda lib, a, b: lib.exp(input=a),
    "clamp": lambda lib, a, b: lib.clamp(input=a, min=-1, max=1),
    "where": lambda lib, a, b: lib.where(condition=a > 0, input=a, other=b),
    "maximum": lambda lib, a, b: lib.maximum(input=a, other=b),
    "eq": lambda lib, a, b: lib.eq(input=a, other=b),
    "isclose": lambda lib, a, b: lib.isclose(input=a, other=b, atol=0.6),
    "transpose": lambda lib, a, b: lib.transpose(input=a, dim0=0, dim1=1),
    "reshape": lambda lib, a, b: lib.reshape(input=a, shape=(4,)),
    "permute": lambda lib, a, b: lib.permute(input=a, dims=(1, 0)),
    "unsqueeze": lambda lib, a, b: lib.unsqueeze(input=a, dim=0),
    "squeeze": lambda lib, a, b: lib.squeeze(input=a.unsqueeze(0), dim=0),
    "flatten": lambda lib, a, b: lib.flatten(input=a, start_dim=0),
    "narrow": lambda lib, a, b: lib.narrow(input=a, dim=1, start=0, length=1),
    "cat": lambda lib, a, b: lib.cat(tensors=[a, b], dim=1),
    "stack": lambda lib, a, b: lib.stack(tensors=(a, b), dim=0),
    "masked_fill": lambda lib, a, b: lib.masked_fill(input=a, mask=a < 0, value=0.0),
    "ones_like": lambda lib, a, b: lib.ones_like(input=a, dtype=lib.float64),
    "Tensor.mm": lambda lib, a, b: a.mm(mat2=b),
    "Tensor.matmul": lambda lib, a, b: a.matmul(other=b),
    "Tensor.add": lambda lib, a, b: a.add(other=b, alpha=3),
    "Tensor.sum": lambda lib, a, b: a.sum(dim=0, keepdim=True),
    "Tensor.softmax": lambda lib, a, b: a.softmax(dim=0, dtype=lib.float64),
    "Tensor.new_zeros": lambda lib, a, b: a.new_zeros((2, 1), dtype=lib.int64),
    "Tensor.new_full": lambda lib, a, b: a.new_full(size=(2,), fill_value=3.0),
    "F.mse_loss": lambda lib, a, b: lib.nn.functional.mse_loss(input=a, target=b,
                                                               reduction="sum"),
    "F.softmax": lambda lib, a, b: lib.nn.functional.softmax(input=a, dim=1),
    "result_type": lambda lib, a, b: lib.result_type(tensor=a, other=2),
    "promote_types": lambda lib, a, b: lib.promote_types(type1=lib.int64, type2=lib.float32),
}


@pytest.mark.parametrize("call", list(KEYWORD_CALLS))
def test_calls_by_keyword_give_torchs_results(call):
    mine = KEYWORD_CALLS[call](minigrad, *_operands(minigrad))
    theirs = KEYWORD_CALLS[call](torch, *_operands(torch))
    assert repr(mine) == repr(theirs)


UNEXPECTED = {
    "add": lambda lib, a, b: lib.add(a, b, foo=1),
    "matmul": lambda lib, a, b: lib.matmul(a, b, bias=1),
    "exp": lambda lib, a, b: lib.exp(a, x=1),
    "mul": lambda lib, a, b: lib.mul(a, other=b, alpha=2),
    "cat": lambda lib, a, b: lib.cat([a, b], dims=0),
    "ones": lambda lib, a, b: lib.ones(2, shape=1),
    "tensor": lambda lib, a, b: lib.tensor([1.0], grad=True),
    "F.mse_loss": lambda lib, a, b: lib.nn.functional.mse_loss(a, b, reduce_mean=True),
    "F.relu": lambda lib, a, b: lib.nn.functional.relu(a, in_place=True),
    "zeros_like out=": lambda lib, a, b: lib.zeros_like(a, out=b),
    "relu out=": lambda lib, a, b: lib.relu(a, out=b),
    "tensor out=": lambda lib, a, b: lib.tensor([1.0], out=b),
}


def _error(fn):
    try:
        fn()
    except TypeError as error:
        return str(error)
    raise AssertionError("no TypeError")


@pytest.mark.parametrize("call", list(UNEXPECTED))
def test_unexpected_keywords_raise_torchs_error(call):
    mine = _error(lambda: UNEXPECTED[call](minigrad, *_operands(minigrad)))
    theirs = _error(lambda: UNEXPECTED[call](torch, *_operands(torch)))
    assert mine == theirs
