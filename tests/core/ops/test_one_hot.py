"""``F.one_hot`` against PyTorch 2.13: int64 rows of 0s and one 1, the number of classes
given or inferred, and PyTorch's errors for negative, too big and non-int64 classes."""

from __future__ import annotations

import pytest

from transcripts import assert_same

LINES = [
    "show(F.one_hot(torch.tensor([0, 2, 1])))",
    "show(F.one_hot(torch.tensor([0, 2, 1]), 5), F.one_hot(torch.tensor([0, 2, 1]), num_classes=-1))",
    "show(F.one_hot(torch.tensor([[0, 1], [2, 0]])), F.one_hot(torch.tensor(2), 4))",
    "show(F.one_hot(torch.tensor([], dtype=torch.long), 3))",
    "show(F.one_hot(input=torch.tensor([1]), num_classes=3))",
    "xenc = F.one_hot(torch.tensor([5, 13, 13, 1, 0]), num_classes=27).float()\n"
    "W = torch.ones((27, 27), requires_grad=True)\nlogits = xenc @ W\nshow(xenc.dtype, logits.shape)\n"
    "gfn(logits)\nlogits.sum().backward()\nshow(W.grad.sum(1))",
    "F.one_hot(torch.tensor([0, -1]))", "F.one_hot(torch.tensor([0, -1]), 3)",
    "F.one_hot(torch.tensor([0, 3]), 2)", "F.one_hot(torch.tensor([0, 1]), num_classes=-2)",
    "F.one_hot(torch.tensor([0, 1]), 0)", "F.one_hot(torch.tensor([0., 1.]))",
    "F.one_hot(torch.tensor([0, 1], dtype=torch.int32))", "F.one_hot(torch.tensor([True]))",
    "F.one_hot(torch.tensor([], dtype=torch.long))", "F.one_hot(torch.tensor([], dtype=torch.long), 0)",
    "F.one_hot([0, 1])", "F.one_hot(torch.tensor([0, 1]), 2.5)",
]


@pytest.mark.parametrize("line", LINES)
def test_one_hot_is_torchs(line):
    assert_same(line)
