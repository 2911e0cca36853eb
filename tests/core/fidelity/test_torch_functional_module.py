"""``torch.functional`` (``import torch.functional as F`` in PyTorch's introyt
modelsyt_tutorial.py): the same functions as ``torch.*``, and the same AttributeError for
a name it does not hold (the tutorial's LeNet asks it for max_pool2d)."""

import importlib

import pytest
import torch

import minigrad

MISSING = {"istft", "stft", "lu", "pca_lowrank", "svd_lowrank"}  # not in minigrad


def test_it_imports_as_a_module_and_holds_torch_functions():
    mine = importlib.import_module("minigrad.functional")
    assert minigrad.functional is mine
    assert set(mine.__all__) == set(torch.functional.__all__) - MISSING
    for name in mine.__all__:
        assert getattr(mine, name) is getattr(minigrad, name), name


@pytest.mark.parametrize("library", [minigrad, torch], ids=["minigrad", "torch"])
def test_its_functions_compute_as_torch(library):
    F = library.functional
    a = library.arange(6.).reshape(2, 3)
    got = [F.einsum("ij->j", a), F.norm(a), F.split(a, 2, dim=1)[1],
           F.unique(library.tensor([3, 1, 3])), F.meshgrid(library.arange(2), library.arange(3),
                                                            indexing="ij")[1],
           F.tensordot(a, a.T, dims=1), F.cdist(a, a), F.atleast_3d(a).shape]
    TEXTS.setdefault(library.__name__, [str(g) for g in got])
    with pytest.raises(AttributeError, match="has no attribute 'max_pool2d'"):
        F.max_pool2d  # noqa: B018


TEXTS = {}


def test_the_two_print_the_same():
    for library in (minigrad, torch):
        test_its_functions_compute_as_torch(library)
    assert TEXTS["minigrad"] == TEXTS["torch"]


def test_the_core_classes_print_under_the_librarys_name():
    """``print(type(x))`` (introyt tensors_deeper_tutorial.py's first print): <class
    'torch.Tensor'> in PyTorch, the same words with minigrad's name here; and they still
    pickle (by that name)."""
    import pickle

    def names(library):
        x = library.ones(2)
        return [str(type(v)).replace(library.__name__, "LIB")
                for v in (x, x.shape, x.dtype, x.device)]
    assert names(minigrad) == names(torch)
    x = minigrad.ones(2)
    assert repr(pickle.loads(pickle.dumps((x, x.shape, x.dtype, x.device)))) == \
        repr((x, x.shape, x.dtype, x.device))
