"""NumPy's parameter names, which PyTorch's argument parser takes for its own in every
function and method written in C++: ``axis`` for ``dim``, ``keepdims`` for ``keepdim``
(d2l writes ``A.sum(axis=1, keepdims=True)``), against PyTorch 2.13: the same results
and graphs, the same error when both names are given, and the functions written in
Python (``torch.norm``, ``F.softmax``) refusing them as PyTorch's do."""

from __future__ import annotations

import pytest

from torch_compare import chain, check, rand
from transcripts import assert_same

X = rand((3, 4), seed=0)

CALLS = {
    "sum": "x.sum(axis=1, keepdims=True)", "torch.sum": "torch.sum(x, axis=(0, 1), keepdims=True)",
    "sum axis 0": "x.sum(axis=0)", "mean": "x.mean(axis=0, keepdims=True)",
    "torch.mean": "torch.mean(x, axis=1, keepdims=True)", "prod": "x.prod(axis=1, keepdims=True)",
    "torch.prod": "torch.prod(x, 0, keepdims=True)", "max": "x.max(axis=1, keepdims=True).values",
    "torch.max": "torch.max(x, 1, keepdims=True)[0]", "min": "x.min(axis=0, keepdims=True)[0]",
    "torch.min": "torch.min(x, axis=0).values", "std": "x.std(axis=1, keepdims=True)",
    "torch.std": "torch.std(x, axis=0, keepdims=True)", "var": "x.var(1, unbiased=False, keepdims=True)",
    "torch.var": "torch.var(x, axis=1, keepdims=True)", "logsumexp": "x.logsumexp(axis=1, keepdims=True)",
    "torch.logsumexp": "torch.logsumexp(x, axis=0, keepdims=True)", "softmax": "x.softmax(axis=1)",
    "torch.softmax": "torch.softmax(x, axis=0)", "log_softmax": "x.log_softmax(axis=1)",
    "torch.log_softmax": "torch.log_softmax(x, axis=1)", "cumsum": "x.cumsum(axis=0)",
    "torch.cumsum": "torch.cumsum(x, axis=1)", "cumprod": "x.cumprod(axis=1)",
    "torch.cumprod": "torch.cumprod(x, axis=0)", "unsqueeze": "x.unsqueeze(axis=1)",
    "torch.unsqueeze": "torch.unsqueeze(x, axis=0)", "squeeze": "x[None].squeeze(axis=0)",
    "torch.squeeze": "torch.squeeze(x[:, None], axis=1)", "cat": "torch.cat([x, x], axis=1)",
    "stack": "torch.stack([x, x], axis=1)",
}


@pytest.mark.parametrize("name", list(CALLS))
def test_numpy_names_give_torchs_results_and_graph(name):
    ours, theirs = check(lambda lib, x: eval(CALLS[name], {"torch": lib, "x": x}), X)
    assert chain(ours) == chain(theirs)


NOT_DIFFERENTIABLE = ["show(x.argmax(axis=1, keepdims=True), torch.argmin(x, axis=0, keepdims=True))",
                      "show((x > 0).all(axis=1, keepdims=True), torch.any(x > 0, axis=0, keepdims=True))",
                      "show(torch.all(x > 0, 1, keepdims=True), (x > 0).any(axis=1))",
                      "show(x.max(axis=1, keepdims=True).indices, torch.min(x, 1, keepdims=True).indices)"]
ERRORS = [
    "x.sum(1, keepdims=True, keepdim=False)", "torch.sum(x, dim=1, axis=1)",
    "x.mean(axis=0, dim=0)", "torch.max(x, 1, keepdim=True, keepdims=True)",
    "x.sum(1, keepdims=1)", "x.sum(keepdims=True)",
    "torch.norm(x, dim=1, keepdims=True)", "x.norm(dim=1, keepdims=True)",
    "F.softmax(x, axis=1)",
]


@pytest.mark.parametrize("line", NOT_DIFFERENTIABLE + ERRORS)
def test_other_calls_and_torchs_errors(line):
    assert_same(f"x = torch.tensor([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]])\n{line}")


def test_a_d2l_cell_normalising_rows():
    assert_same("A = torch.arange(20, dtype=torch.float32).reshape(5, 4)\n"
                "sum_A = A.sum(axis=1, keepdims=True)\nshow(sum_A, A / sum_A)\n"
                "show(A.cumsum(axis=0), A.sum(axis=[0, 1]), A.mean(axis=0), A.sum(axis=0) / A.shape[0])")


@pytest.mark.parametrize("line", ["torch.sum(x, keepdims=True)", "torch.sum(x, keepdim=True)",
                                  "torch.mean(x, keepdims=True)", "x.mean(keepdims=True)",
                                  "x.sum(axis=(0, 'a'), keepdims=True)",
                                  "x.sum(axis=1.5, keepdims=True)", "x.sum(dim='a', keepdim=True)",
                                  "x.mean(1.5, True)"])
def test_keepdim_without_dim_is_refused_naming_the_keyword_as_given(line):
    assert_same(f"x = torch.tensor([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]])\n{line}")
