"""The Tensor face's transposes and complex-number methods against PyTorch 2.13: ``x.T``,
``x.mT``, ``x.H``, ``x.mH``, ``x.adjoint()`` (results, graphs, the deprecation warnings on
0-dim and (for ``T``) non-matrix tensors, the errors on vectors), ``real``/``conj``/...
(minigrad's dtypes are all real: the tensor itself, as torch gives for a real tensor), and
``size(dim)``/``stride(dim)``, which name no dim of a 0-dim tensor."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
import torch

import minigrad as mg

from torch_compare import check

# Each library in a fresh process: both warn once per process (TORCH_WARN_ONCE), so a test
# run earlier in the same process must not decide which warnings are seen here.
_SEEN = """
import json, sys, warnings
import numpy as np
lib = __import__(sys.argv[1])
out = []
for name in ("T", "mT", "H", "mH", "adjoint()", "torch.adjoint"):
    for shape in ((), (3,), (2, 3), (2, 3, 4)):
        x = lib.tensor(np.arange(float(np.prod(shape))).reshape(shape), requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                y = (lib.adjoint(x) if name == "torch.adjoint" else x.adjoint()
                     if name == "adjoint()" else getattr(x, name))
                seen = [y.tolist(), type(y.grad_fn).__name__, list(y.shape)]
                if "adjoint" not in name:  # (torch's 0-dim adjoint: a new alias)
                    seen.append(y is x)
            except Exception as error:
                seen = [type(error).__name__, str(error)]
        out.append([name, list(shape), seen, [str(w.message) for w in caught]])
print(json.dumps(out))
"""


def _seen_in_a_fresh_process(library: str):
    done = subprocess.run([sys.executable, "-c", _SEEN, library], capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout)


def test_transposes_give_torchs_results_warnings_and_errors():
    ours, theirs = _seen_in_a_fresh_process("minigrad"), _seen_in_a_fresh_process("torch")
    assert len(ours) == 24 and any(warned for *_, warned in theirs)
    for mine, torchs in zip(ours, theirs):
        assert mine == torchs


def test_transposes_differentiate_as_torchs():
    x = np.random.default_rng(0).standard_normal((2, 3, 4)).astype(np.float32)
    check(lambda lib, x: x.mT * 2, x)
    check(lambda lib, x: x.mH.sum(0), x)
    check(lambda lib, x: x[0].H @ x[1], x)
    check(lambda lib, x: x.T.exp(), x)


@pytest.mark.parametrize("call", [
    lambda lib, x: x.real, lambda lib, x: lib.real(x), lambda lib, x: x.conj(),
    lambda lib, x: lib.conj(x), lambda lib, x: x.conj_physical(),
    lambda lib, x: lib.conj_physical(x), lambda lib, x: x.resolve_conj(),
    lambda lib, x: lib.resolve_conj(x), lambda lib, x: x.resolve_neg(),
], ids=["real", "torch.real", "conj", "torch.conj", "conj_physical", "torch.conj_physical",
        "resolve_conj", "torch.resolve_conj", "resolve_neg"])
def test_complex_methods_of_a_real_tensor_are_torchs(call):
    def seen(lib):
        x = lib.tensor(np.arange(6.0).reshape(2, 3), requires_grad=True)
        y = call(lib, x)
        return y.tolist(), y is x, y.requires_grad
    assert seen(mg) == seen(torch)


@pytest.mark.parametrize("call", [
    lambda lib, x: x.imag, lambda lib, x: lib.imag(x), lambda lib, x: x.is_conj(),
    lambda lib, x: x.is_neg(), lambda lib, x: lib.is_conj(x),
    lambda lib, x: x.size(0), lambda lib, x: x.size(-1), lambda lib, x: x.stride(0),
    lambda lib, x: x.stride(-1), lambda lib, x: x[None].size(-2),
    lambda lib, x: x[None].stride(1), lambda lib, x: x[None].size(1),
], ids=["imag", "torch.imag", "is_conj", "is_neg", "torch.is_conj", "size(0)", "size(-1)",
        "stride(0)", "stride(-1)", "vector size(-2)", "vector stride(1)", "vector size(1)"])
def test_questions_of_a_0_dim_tensor_are_answered_as_torch(call):
    def seen(lib):
        x = lib.tensor(1.5)
        try:
            return ("result", call(lib, x))
        except Exception as error:  # noqa: BLE001 - compared
            return (type(error).__name__, str(error))
    assert seen(mg) == seen(torch)
