"""Which op's bits differ from PyTorch's: run a program under PyTorch and compute every
op it calls again with minigrad on bit-identical copies of the same inputs.

A program of ``public_tutorials.py`` (or any ``program(torch)``) runs under PyTorch inside a
``TorchFunctionMode``, which sees every public call (``torch.*``, ``F.*``, ``torch.linalg``,
Tensor methods and operators; not the calls inside them). For each call whose result is
a floating tensor, the tensor arguments are copied (their bits, dtype and strides) into
minigrad tensors and minigrad's function of the same name runs on them; the results are
compared bit for bit. Where an input requires grad, a hook on PyTorch's result receives
the gradient the program's real backward sends there, and both libraries' backward of
that one op runs on copies of the same inputs and that same gradient: each node's
backward is compared too. Since each op starts from PyTorch's own inputs, the first
difference reported is where the two libraries part, not where a difference grew.

Run it as a script::

    PYTHONPATH=. python tests/core/support/op_bisect.py examples_vae [more names]

It prints the first differing op (forward or backward: name, dtypes, shapes, strides, how
many elements differ, the largest difference in ulps) and a table of every op that
differed, grouped by name, dtypes and shapes. Random ops (``randn``, ``dropout``, the
``torch.nn.init`` functions) and ``empty`` are not compared (minigrad draws from its own
generator); calls minigrad cannot take as PyTorch's (its error) are counted, not shown.
"""

from __future__ import annotations

import collections
import contextlib
import io
import random
import sys
import warnings

import numpy as np
import torch
from torch.overrides import TorchFunctionMode

import minigrad as mg

RANDOM = ("rand", "randn", "randint", "randperm", "rand_like", "randn_like", "randint_like",
          "normal", "normal_", "uniform_", "bernoulli", "bernoulli_", "multinomial",
          "dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout", "feature_alpha_dropout",
          "rrelu", "exponential_", "geometric_", "cauchy_", "log_normal_", "random_",
          "empty", "empty_like", "new_empty", "empty_strided", "gumbel_softmax",
          "fractional_max_pool2d", "native_dropout", "manual_seed")
NOT_OPS = ("__get__", "__set__", "__repr__", "__format__", "__str__", "item", "tolist",
           "numpy", "backward", "__len__", "__iter__", "__bool__", "__hash__", "dim", "size",
           "numel", "requires_grad_", "retain_grad", "register_hook", "__reduce_ex__",
           "__setstate__", "__deepcopy__", "storage", "untyped_storage", "data_ptr",
           "stride", "storage_offset", "is_contiguous", "element_size", "__index__",
           "__int__", "__float__", "__array__", "__contains__", "__eq__", "__ne__", "copy_",
           "detach", "detach_", "to", "cpu", "clone", "contiguous", "type", "float", "double",
           "half", "share_memory_", "pin_memory", "_is_view", "is_floating_point",
           "apply_", "map_", "set_", "__setitem__", "zero_", "fill_")
NAMESPACES = (("torch.nn.functional", torch.nn.functional), ("torch.linalg", torch.linalg),
              ("torch.special", torch.special), ("torch.fft", torch.fft), ("torch", torch))
MG_NAMESPACES = {"torch.nn.functional": mg.nn.functional, "torch.linalg": mg.linalg,
                 "torch.special": mg.special, "torch.fft": getattr(mg, "fft", None),
                 "torch": mg}
_UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def ulps(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """How many representable floats lie between a and b, element by element (NaN = NaN)."""
    signed = {2: np.int16, 4: np.int32, 8: np.int64}[a.itemsize]

    def magnitude(x):
        i = np.ascontiguousarray(x).view(signed).astype(np.int64)
        return i < 0, i & np.int64((1 << (8 * a.itemsize - 1)) - 1)

    (a_negative, a_size), (b_negative, b_size) = magnitude(a), magnitude(b)
    same_sign = np.abs(a_size - b_size).astype(np.float64)  # (exact in int64)
    across_zero = a_size.astype(np.float64) + b_size.astype(np.float64)
    between = np.where(a_negative == b_negative, same_sign, across_zero)
    return np.where(np.isnan(a) & np.isnan(b), 0.0, between)


def _dtype_name(dtype) -> str:
    return str(dtype).replace("torch.", "")


def _to_mg(value, memo):
    if isinstance(value, torch.Tensor):
        if id(value) in memo:
            return memo[id(value)]
        if value.is_complex() or value.layout != torch.strided:
            raise _Skip("complex or sparse")
        copy = value.detach().clone()
        array = copy.numpy() if copy.dtype != torch.bfloat16 else None
        if array is None:
            raise _Skip("bfloat16")
        twin = mg.from_numpy(array)
        if value.requires_grad and value.is_floating_point():
            twin.requires_grad_(True)
        memo[id(value)] = twin
        return twin
    if isinstance(value, torch.memory_format):
        return getattr(mg, str(value).rsplit(".", 1)[-1])
    if isinstance(value, torch.dtype):
        return getattr(mg, _dtype_name(value))
    if isinstance(value, torch.Size):
        return tuple(value)
    if isinstance(value, torch.device):
        return str(value)
    if isinstance(value, torch.Generator):
        raise _Skip("generator")
    if isinstance(value, (list, tuple)):
        return type(value)(_to_mg(v, memo) for v in value)
    if isinstance(value, dict):
        return {k: _to_mg(v, memo) for k, v in value.items()}
    if callable(value) and not isinstance(value, type):
        raise _Skip("callable argument")
    return value


class _Skip(Exception):
    pass


def _counterpart(func, args):
    """(name, minigrad callable, is_method) for a PyTorch function, or None."""
    name = getattr(func, "__name__", None)
    if name is None or name in NOT_OPS or name in RANDOM \
            or getattr(func, "__module__", "") == "torch.nn.init":
        return None
    if name.startswith("_") and not name.startswith("__"):
        return None
    if args and isinstance(args[0], torch.Tensor) and \
            getattr(torch.Tensor, name, None) is not None:
        tensor_attr = getattr(torch.Tensor, name)
        qual = getattr(func, "__qualname__", "")
        if tensor_attr is func or qual.startswith(("TensorBase.", "Tensor.", "_TensorBase.")):
            return f"Tensor.{name}", name, True
    for where, space in NAMESPACES:
        if getattr(space, name, None) is func:
            mine = MG_NAMESPACES.get(where)
            if mine is None or not hasattr(mine, name):
                return None
            return f"{where}.{name}", getattr(mine, name), False
    return None


def _floats(result):
    """The floating tensors of a result (a tensor or a tuple/list of them), or None."""
    items = result if isinstance(result, (tuple, list)) else (result,)
    if not items or not all(isinstance(t, torch.Tensor) for t in items):
        return None
    return [t for t in items]


def _describe(args, kwargs):
    parts = []

    def walk(v):
        if isinstance(v, torch.Tensor):
            parts.append(f"{_dtype_name(v.dtype)}{list(v.shape)}"
                         + ("" if v.is_contiguous() else f"/strides{list(v.stride())}"))
        elif isinstance(v, (list, tuple)) and any(isinstance(x, torch.Tensor) for x in v):
            for x in v:
                walk(x)
        elif isinstance(v, (int, float, bool)) or v is None:
            parts.append(repr(v))
        elif isinstance(v, (tuple, list)):
            parts.append(repr(tuple(v)))
        else:
            parts.append(type(v).__name__)
    for a in args:
        walk(a)
    for k, v in kwargs.items():
        if isinstance(v, torch.Tensor):
            walk(v)
            parts[-1] = f"{k}={parts[-1]}"
        else:
            parts.append(f"{k}={v!r}" if isinstance(v, (int, float, bool, str, type(None)))
                         else f"{k}={type(v).__name__}")
    return ", ".join(parts)


def _compare(theirs, mine):
    """(differing elements, elements, max ulp) or a string saying why not comparable."""
    their = theirs.detach().numpy() if theirs.dtype != torch.bfloat16 else None
    if their is None:
        return "bfloat16"
    my = mine.detach().numpy() if isinstance(mine, mg.Tensor) else np.asarray(mine)
    if their.shape != my.shape or their.dtype != my.dtype:
        return f"shape/dtype {my.dtype}{my.shape} vs {their.dtype}{their.shape}"
    if their.dtype.kind != "f":
        return (int(np.sum(their != my)), their.size, 0.0)
    same = (their.view(_UINT[their.itemsize]) == my.view(_UINT[my.itemsize])) | \
        (np.isnan(their) & np.isnan(my))
    n = int(np.sum(~same))
    if not n:
        return (0, their.size, 0.0)
    u = ulps(their[~same], my[~same])
    return (n, their.size, float(u.max()))


class Finding:
    def __init__(self, index, phase, name, call, detail, where):
        self.index, self.phase, self.name, self.call = index, phase, name, call
        self.detail, self.where = detail, where

    def __str__(self):
        n, size, ulp = self.detail
        return (f"#{self.index} {self.phase:8s} {self.name}({self.call}) output {self.where}: "
                f"{n} of {size} elements differ, max {ulp:g} ulp")


class Bisector(TorchFunctionMode):
    """Records every op whose minigrad twin's bits differ from PyTorch's."""

    def __init__(self, backward=True):
        super().__init__()
        self.backward = backward
        self.findings: list[Finding] = []
        self.calls = 0
        self.compared = collections.Counter()
        self.refused = collections.Counter()

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        target = _counterpart(func, args)
        if target is None:
            return func(*args, **kwargs)
        label, mine, is_method = target
        # bit-identical copies before the call (an in-place op changes its first argument)
        try:
            with torch._C.DisableTorchFunction():
                memo = {}
                mg_args = _to_mg(args, memo)
                mg_kwargs = _to_mg(kwargs, memo)
                call = _describe(args, kwargs)
                snapshot = [(a.detach().clone(), a.requires_grad) if isinstance(a, torch.Tensor)
                            else a for a in args]
                kw_snapshot = {k: (v.detach().clone(), v.requires_grad)
                               if isinstance(v, torch.Tensor) else v for k, v in kwargs.items()}
        except _Skip:
            return func(*args, **kwargs)
        result = func(*args, **kwargs)
        outputs = _floats(result)
        if outputs is None or not any(t.is_floating_point() for t in outputs):
            return result
        self.calls += 1
        index = self.calls
        with torch._C.DisableTorchFunction():
            try:
                with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()), \
                        mg.set_grad_enabled(torch.is_grad_enabled()):
                    warnings.simplefilter("ignore")
                    if is_method:
                        my_result = getattr(mg_args[0], mine)(*mg_args[1:], **mg_kwargs)
                    else:
                        my_result = mine(*mg_args, **mg_kwargs)
            except Exception as error:  # noqa: BLE001 (counted: minigrad refuses the call)
                self.refused[f"{label}: {type(error).__name__}: {str(error)[:80]}"] += 1
                return result
            my_outputs = my_result if isinstance(my_result, (tuple, list)) else (my_result,)
            self.compared[label] += 1
            for k, (theirs, my) in enumerate(zip(outputs, my_outputs)):
                if not theirs.is_floating_point():
                    continue
                detail = _compare(theirs, my)
                if isinstance(detail, tuple) and detail[0]:
                    self.findings.append(Finding(index, "forward", label, call, detail, k))
            if self.backward and torch.is_grad_enabled() and len(outputs) == 1 \
                    and outputs[0].requires_grad and outputs[0].grad_fn is not None \
                    and not (label.endswith("_") and not label.endswith("__")):
                outputs[0].register_hook(self._backward_check(
                    index, label, call, func, snapshot, kw_snapshot, mine, is_method))
        return result

    def _backward_check(self, index, label, call, func, snapshot, kw_snapshot, mine, is_method):
        def hook(grad):
            with torch._C.DisableTorchFunction(), torch.enable_grad():
                try:
                    self._run_backward(index, label, call, func, snapshot, kw_snapshot, mine,
                                       is_method, grad)
                except _Skip:
                    pass
                except Exception as error:  # noqa: BLE001
                    self.refused[f"{label} backward: {type(error).__name__}: "
                                 f"{str(error)[:80]}"] += 1
            return None
        return hook

    def _run_backward(self, index, label, call, func, snapshot, kw_snapshot, mine, is_method,
                      grad):
        leaves, names = [], []

        def fresh(v, name):
            if isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], torch.Tensor):
                t = v[0].clone().requires_grad_(v[1])
                if v[1]:
                    leaves.append(t)
                    names.append(name)
                return t
            return v
        t_args = [fresh(a, f"argument {k}") for k, a in enumerate(snapshot)]
        t_kwargs = {k: fresh(v, k) for k, v in kw_snapshot.items()}
        if not leaves:
            return
        out = func(*t_args, **t_kwargs)
        their_grads = torch.autograd.grad(out, leaves, grad, allow_unused=True)
        memo = {}
        m_args = _to_mg(t_args, memo)
        m_kwargs = _to_mg(t_kwargs, memo)
        m_leaves = [memo[id(t)] for t in leaves]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            m_out = getattr(m_args[0], mine)(*m_args[1:], **m_kwargs) if is_method \
                else mine(*m_args, **m_kwargs)
            m_out = m_out[0] if isinstance(m_out, (tuple, list)) else m_out
            my_grads = mg.autograd.grad(m_out, m_leaves, _to_mg(grad, {}), allow_unused=True)
        for name, theirs, my in zip(names, their_grads, my_grads):
            if theirs is None or my is None:
                continue
            detail = _compare(theirs, my)
            if isinstance(detail, tuple) and detail[0]:
                self.findings.append(Finding(index, "backward", label, call, detail,
                                             f"grad of {name}"))


def bisect(program, backward=True) -> Bisector:
    """Run ``program(torch)`` as the tutorial tests do (seeded, printing captured) under a
    ``Bisector``, and return it."""
    torch.manual_seed(0)
    random.seed(0)
    bisector = Bisector(backward)
    dtype = torch.get_default_dtype()
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            with bisector:
                program(torch)
        finally:
            torch.set_default_dtype(dtype)
    return bisector


def report(bisector: Bisector, out=sys.stdout) -> None:
    print(f"{bisector.calls} float results, {sum(bisector.compared.values())} compared",
          file=out)
    if not bisector.findings:
        print("no op differs", file=out)
    else:
        first = min(bisector.findings, key=lambda f: (f.phase != "forward", f.index))
        print("first forward difference:" if first.phase == "forward"
              else "first difference (backward):", first, file=out)
        groups = collections.defaultdict(list)
        for f in bisector.findings:
            groups[(f.phase, f.name, f.call, str(f.where))].append(f)
        print("all differing ops (calls, elements differing / total, max ulp):", file=out)
        for (phase, name, call, where), fs in sorted(groups.items(),
                                                     key=lambda kv: kv[1][0].index):
            n = sum(f.detail[0] for f in fs)
            size = sum(f.detail[1] for f in fs)
            ulp = max(f.detail[2] for f in fs)
            print(f"  {phase:8s} {name}({call}) [{where}] x{len(fs)} (first #{fs[0].index}): "
                  f"{n}/{size}, max {ulp:g} ulp", file=out)
    for reason, count in bisector.refused.most_common(8):
        print(f"  not compared x{count}: {reason}", file=out)


def main(names):
    sys.path.insert(0, __file__.rsplit("/", 1)[0])
    import public_tutorials  # noqa: PLC0415 (a script's import of its neighbour)
    programs = {p.__name__: p for p in public_tutorials.PROGRAMS}
    for name in names:
        print(f"== {name}", flush=True)
        report(bisect(programs[name]))
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
