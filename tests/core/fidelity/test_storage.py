"""``x.storage()`` against PyTorch 2.13: the memory under a tensor and its views,
printed, read and written element by element, and PyTorch's once-a-process warning
that TypedStorage is deprecated (Deep Learning with PyTorch's chapter 3 walks through
it: https://github.com/deep-learning-with-pytorch/dlwpt-code p1ch3/1_tensors.ipynb)."""

from __future__ import annotations

import warnings

import pytest
import torch

import minigrad as mg
import minigrad.storage as mg_storage

MAKERS = [
    "torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])",
    "torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]]).t()",
    "torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])[1]",
    "torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]]).t().contiguous()",
    "torch.arange(12).view(3, 4)[:, 1:3]",
    "torch.tensor([1.5, -2.25], dtype=torch.float64)",
    "torch.tensor([1.5, 2.0], dtype=torch.float16)",
    "torch.tensor([True, False])",
    "torch.tensor([1, -2], dtype=torch.int8)",
    "torch.ones(0)",
    "torch.ones(2, 3).expand(4, 2, 3)",
    "torch.tensor(3.5)",
]


def quiet(call):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return call()


@pytest.mark.parametrize("maker", MAKERS)
def test_storage_prints_reads_and_sizes_as_pytorch(maker):
    theirs = quiet(lambda: eval(maker, {"torch": torch}).storage())
    ours = quiet(lambda: eval(maker, {"torch": mg}).storage())
    assert repr(ours) == repr(theirs) and str(ours) == str(theirs)
    assert len(ours) == len(theirs) and ours.size() == theirs.size()
    assert ours.tolist() == theirs.tolist() and list(ours) == list(theirs)
    assert [type(v) for v in ours] == [type(v) for v in theirs]
    assert str(ours.dtype) == str(theirs.dtype) and str(ours.device) == str(theirs.device)


def test_writing_into_the_storage_writes_into_every_view():
    """The book's points_storage[0] = 2.0, and a view's storage is its base's."""
    results = []
    for lib in (mg, torch):
        points = lib.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
        second, transposed = points[1], points.t()
        quiet(lambda: points.storage()).__setitem__(0, 2.0)
        quiet(lambda: second.storage()).__setitem__(3, 7.5)
        storage = quiet(lambda: transposed.storage())
        results.append((repr(points), repr(second), repr(transposed), storage[2], storage[-1],
                        second.storage_offset(), second.stride(), transposed.stride()))
    assert results[0] == results[1]


def test_the_deprecation_warning_is_pytorchs_and_given_once(monkeypatch):
    monkeypatch.setattr(mg_storage, "_WARNED", [])
    monkeypatch.delattr(torch.storage._warn_typed_storage_removal, "has_warned", raising=False)
    said = []
    for lib in (mg, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lib.ones(2).storage()
            lib.ones(2).storage()
        said.append([(w.category, str(w.message), w.filename) for w in caught])
    assert said[0] == said[1] and len(said[0]) == 1 and said[0][0][2] == __file__


@pytest.mark.parametrize("maker", MAKERS)
def test_storage_addresses_and_byte_sizes_are_pytorchs(maker):
    """``data_ptr()`` (the memory's first element: the same for a tensor and every view of
    it, 0 for an empty one), ``nbytes()`` and ``element_size()`` (found missing by the
    session-14 fuzz)."""
    def facts(lib):
        x = eval(maker, {"torch": lib})
        s = quiet(x.storage)
        base = quiet(lambda: (x._base if x._base is not None else x).storage())
        return (s.data_ptr() == base.data_ptr(), s.data_ptr() == 0, s.nbytes(), s.element_size(),
                s.data_ptr() == quiet(x.clone().storage).data_ptr() if x.numel() else None)
    assert facts(mg) == facts(torch)
