"""Python's operators between a tensor and anything else, in both orders, against
PyTorch 2.13 (the transcript of transcripts.py: value, grad_fn chain, error type and
text). A tensor's operator gives NotImplemented for an operand that is neither a tensor
nor a number, as torch's do, so Python asks the other operand and words the error itself
(``None / x``: "unsupported operand type(s) for /: 'NoneType' and 'Tensor'"; ``'a' * x``
asks x.__index__; ``x + np.ones(2)`` is NumPy's operator, which reads the tensor through
__array__ and wraps its result with __array_wrap__); NumPy scalars count as the Python
numbers torch's parser reads them as."""

from __future__ import annotations

import pytest

from transcripts import assert_same

OPERATORS = ["+", "-", "*", "/", "**", "@", "&", "|", "^", "<", "<=", ">", ">=", "==", "!="]
OTHERS = ["None", "'a'", "[1.0, 2.0]", "(1, 2)", "object()", "2", "2.5", "True", "-0.0",
          "np.float64(2.0)", "np.float32(0.1)", "np.int64(2)", "np.int8(-3)", "np.bool_(True)",
          "np.array([1.0, 2.0])", "np.array(2.0)", "np.array([1, 0])"]
TENSORS = ["torch.tensor([1.5, 2.0], requires_grad=True)", "torch.tensor([1, 2])",
           "torch.tensor([True, False])", "torch.tensor(0.5, dtype=torch.float64, requires_grad=True)",
           "torch.tensor([[1.5, -2.0]], dtype=torch.float32)"]


def _program(left: str, op: str, right: str) -> str:
    return (f"import numpy as np\nv = {left} {op} {right}\nshow(v, type(v).__name__)\n"
            "gfn(v) if hasattr(v, 'grad_fn') else None")


@pytest.mark.parametrize("op", OPERATORS)
def test_operator_with_other_operands(op):
    for tensor in TENSORS:
        for other in OTHERS:
            assert_same(_program(other, op, tensor))
            assert_same(_program(tensor, op, other))


FUNCTIONS = {
    **{f"torch.{name}({args})": f"t = torch.tensor([1.5, 2.0], requires_grad=True)\n"
       f"import numpy as np\nshow(torch.{name}({args}))"
       for name in ("add", "sub", "mul", "div", "pow", "eq", "ne", "lt", "le", "gt", "ge")
       for args in ("t, None", "None, t", "t, 'a'", "t, [1.0, 2.0]", "t, np.float64(2.0)",
                    "np.float64(2.0), t", "2, t", "t, object()", "2, 3")},
    **{f"t.{name}({arg})": f"t = torch.tensor([1.5, 2.0], requires_grad=True)\n"
       f"import numpy as np\nshow(t.{name}({arg}))"
       for name in ("add", "sub", "mul", "div", "pow", "eq", "ne", "lt", "le", "gt", "ge",
                    "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
                    "__truediv__", "__rtruediv__", "__pow__", "__rpow__", "__matmul__",
                    "__rmatmul__", "__and__", "__rand__", "__eq__", "__lt__")
       for arg in ("None", "'a'", "[1.0, 2.0]", "2", "np.int64(3)", "np.array([1.0, 2.0])")},
    **{f"{call} with {f}": (
        f"import numpy as np\nt = torch.ones(2, 2, requires_grad=True)\nshow({call.format(f=f, p=p)})")
       for f, p in (("matmul", "other"), ("mm", "mat2"), ("mv", "vec"), ("dot", "tensor"),
                    ("bmm", "mat2"), ("maximum", "other"), ("minimum", "other"))
       for call in ("torch.{f}(t, None)", "torch.{f}(None, t)", "torch.{f}(t, [1.0, 2.0])",
                    "torch.{f}(2, t)", "torch.{f}(t, 2.5)", "torch.{f}(t, {p}=None)",
                    "torch.{f}(input=None, {p}=t)", "torch.{f}(t, np.ones(2))", "t.{f}(None)",
                    "t.{f}({p}=None)", "t.{f}([1.0])", "t.{f}(2)", "torch.{f}(t, t)", "t.{f}(t)")},
    "a NumPy array reads a tensor that requires grad": (
        "import numpy as np\nnp.asarray(torch.tensor([1.5], requires_grad=True))"),
    "np.sin of a tensor": "import numpy as np\nshow(np.sin(torch.tensor([1.0, 2.0])))",
    "np.greater of a tensor": "import numpy as np\nshow(np.greater(torch.tensor([1, 2]), 1))",
    "NumPy scalar operands keep the tensor's dtype": (
        "import numpy as np\nx = torch.tensor([1.5, 2.0], dtype=torch.float16)\n"
        "show(x * np.float64(2.5), np.float32(0.5) + x, x - np.int64(7), x ** np.float32(2))\n"
        "i = torch.tensor([1, 2], dtype=torch.int8)\n"
        "show(i * np.int64(200), i * np.float64(2.5), i + np.bool_(True), torch.tensor([1, 2]) * np.int8(2))\n"
        "y = torch.tensor([1.5], requires_grad=True) * np.float64(0.1)\nshow(y.grad_fn._saved_other)"),
    "reflected order: 2 - x, 2 / x, 2 ** x and their gradients": (
        "x = torch.tensor([0.5, -2.0, 4.0], requires_grad=True)\n"
        "a, b, c = 2 - x, 2 / x, 2 ** x\nshow(a, b, c)\ngfn(a)\ngfn(b)\ngfn(c)\n"
        "(a * b * c).sum().backward(create_graph=True)\nshow(x.grad)\ngfn(x.grad)"),
}


@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_functions_and_methods_with_other_operands(name):
    assert_same(FUNCTIONS[name])


@pytest.mark.parametrize("call", ["np.array(t)", "np.asarray(t)", "np.array(t, dtype=np.int64)",
                                  "np.asarray(t, dtype=np.float64)", "np.array(t[1:])",
                                  "np.array(t.clone())"])
def test_numpy_reads_a_tensor_as_from_pytorch(call):
    """NumPy 2 asks ``__array__`` for ``copy=``; PyTorch 2.13's takes only ``dtype``, so
    ``np.array(t)`` gives NumPy's DeprecationWarning (pytorch/examples siamese_network's
    ``np.array(self.dataset.targets.clone())``), and minigrad's likewise; memory is shared
    where PyTorch's is."""
    import warnings

    import numpy as np
    import torch

    import minigrad
    seen = {}
    for lib in (torch, minigrad):
        t = lib.tensor([1.0, 2.0, 3.0])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            array = eval(call, {"np": np, "t": t})
        array[-1] = 7
        seen[lib] = ([(w.category, str(w.message)) for w in caught], array.dtype, array.tolist(),
                     t.tolist())
    assert seen[minigrad] == seen[torch]
