"""Indexing against PyTorch 2.13: ``x[...]`` reads (values, the chain of nodes torch
records piece by piece, gradients), ``x[...] = value`` writes, and the errors.

Which error ``x[index] = value`` raises when several apply, compared with PyTorch
2.13 at test time: torch makes the view written into first (an index out of bounds,
a slice of a 0-dim tensor; a view made under no_grad whose base changed is refused
there), then shapes the value to it (expand's errors), and only then checks the
write itself (a leaf that requires grad, a view made under no_grad); index_put_
(integer or boolean arrays) checks the write before the value's shape.

x[mask] = value with a one-element value of another dtype, against PyTorch 2.13:
torch's index_put_ writes it with masked_fill_ (value.item()), so the dtypes need not
match, and the backward (create_graph too) writes zeros of the value's dtype the same
way; any other index, or a bigger value, still needs the dtypes to match (checked after
the shapes). Transcripts as in ``transcripts.py``."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, strategies as st

import minigrad as mg

from torch_compare import chain, check, check_error, mirror, rand, outcome
from transcripts import assert_same


X = rand((3, 4, 5), seed=0)
M = rand((3, 4), seed=1)
S = np.asarray(rand((), seed=2))

INDICES = {
    "int": 1, "negative int": -1, "two ints": (1, 2), "three ints": (0, -1, 4),
    "slice": slice(1, None), "full slice": slice(None), "slice 0:3": slice(0, 3),
    "slice -5:10": slice(-5, 10), "empty slice": slice(2, 2), "stepped slice": slice(None, None, 2),
    "stepped from 1": slice(1, None, 2), "negative bounds": slice(-2, -1),
    "tuple of slices": (slice(1, 3), slice(None, None, 3)),
    "tuple of full slices": (slice(None), slice(None)), "tuple 0:3, :": (slice(0, 3), slice(None)),
    "trivial then real slice": (slice(None), slice(1, 3)), "int and slice": (0, slice(1, 3)),
    "slice and int": (slice(1, 3), 0), "None": None, "None first": (None, 0),
    "None in the middle": (slice(None), None, 1), "None after int": (0, None, slice(1, 3)),
    "Ellipsis": Ellipsis, "Ellipsis then int": (Ellipsis, 2), "int then Ellipsis": (1, Ellipsis),
    "Ellipsis and None": (None, 0, Ellipsis, None), "Ellipsis then slice": (Ellipsis, slice(0, 5)),
    "empty tuple": (), "int list": [0, 2], "repeated int list": [0, 0, 2, 0],
    "negative int list": [-1, 0], "list on dim 1": (slice(None), [3, 0, 3]),
    "two lists": ([0, 1, 2], [3, 2, 1]), "broadcast lists": ([[0], [2]], [1, 3]),
    "int then list": (0, [0, 1]), "list then int": ([0, 2], 1),
    "list, slice, list": ([0, 2], slice(None), [1, 4]), "list then slice": ([2, 0], slice(1, 3)),
    "list then None": ([0, 1], None), "True": True, "False": False, "True then int": (True, 0),
    "int then True": (0, True), "None then True": (None, True),
    "range": range(2), "stepped range": range(0, 3, 2), "negative range": range(-1, -4, -1),
    "empty range": range(0), "range and list": (range(3), [0, 1, 3]),
    "range on dim 1": (slice(None), range(1, 4)), "int then range": (1, range(2), 0),
    "range, slice, range": (range(2), slice(1, 3), range(2)), "list of bools": [True, False, True],
    "bools on dim 1": (slice(None), [False, True, True, False]), "negative list entries": ([-3, -1], [-4, 0]),
    "nested list": [[0, 1], [2, 0]], "list of floats": [0, 1.5], "empty list": [],
    "list, Ellipsis, list": ([0, 2], Ellipsis, [1, 4]),
}


@pytest.mark.parametrize("index", list(INDICES.values()), ids=list(INDICES))
def test_getitem(index):
    ours, theirs = check(lambda lib, x: x[index], X)
    assert chain(ours) == chain(theirs)


TENSOR_INDICES = {
    "int tensor": lambda lib: lib.tensor([2, 0, 2]),
    "0-dim int tensor": lambda lib: lib.tensor(1),
    "2-d int tensor": lambda lib: lib.tensor([[0, 1], [2, 2]]),
    "bool tensor": lambda lib: lib.tensor([True, False, True]),
    "0-dim bool tensor": lambda lib: lib.tensor(True),
    "int tensor on dim 1": lambda lib: (slice(None), lib.tensor([1, 3])),
    "0-dim tensor then int tensor": lambda lib: (lib.tensor(2), lib.tensor([0, 3])),
}


@pytest.mark.parametrize("make", list(TENSOR_INDICES.values()), ids=list(TENSOR_INDICES))
def test_getitem_with_tensors(make):
    ours, theirs = check(lambda lib, x: x[make(lib)], X)
    assert chain(ours) == chain(theirs)


def test_boolean_masks():
    for fn in (lambda lib, x: x[x > 0], lambda lib, x: x[0][x[0] > 0],
               lambda lib, x: x[x[:, 0, 0] > 0], lambda lib, x: x[x[..., 0] > 0],
               lambda lib, x: x[:, x[0, :, 0] > 0], lambda lib, x: x[x[:, :, 0] > 0, 1],
               lambda lib, x: x[(x > 0).numpy() if lib is torch else (x > 0)._data]):
        ours, theirs = check(fn, X)
        assert chain(ours) == chain(theirs)


def test_indexing_a_non_leaf_and_0_dim_tensors():
    check(lambda lib, x: (x * 2)[1:, [0, 2]].sum(0), X)
    check(lambda lib, x: x[...], S)
    check(lambda lib, x: x[None], S)
    check(lambda lib, x: x[()], S)
    check(lambda lib, x: x[None, ..., None], S)


def test_gradients_accumulate_at_repeated_positions():
    ours, theirs = check(lambda lib, x: x[[0, 0, 0, 1]], M)
    ours, theirs = check(lambda lib, x: x[[0, 0], [1, 1]], M)


def test_list_with_slices_is_read_as_a_tuple_with_torchs_warning():
    with pytest.warns(UserWarning) as ours:
        check(lambda lib, x: x[[0, slice(None)]], M)
    messages = {str(w.message) for w in ours}
    with pytest.warns(UserWarning) as theirs:
        torch.tensor(M)[[0, slice(None)]]
    assert any(str(w.message).startswith(m) for w in theirs for m in messages)


INDEX_ERRORS = {
    "int out of range": 3, "negative out of range": -4, "second int out of range": (0, 4),
    "too many": (0, 0, 0, 0), "too many with None": (None, 0, 0, 0, 0),
    "list out of range": [0, 3], "list on dim 1 out of range": (slice(None), [4, -5]),
    "mask shape": [True, False], "float": 1.5, "float in tuple": (0, 1.5),
    "lists do not broadcast": ([0, 1], [0, 1, 2]), "string": "a",
}


@pytest.mark.parametrize("index", list(INDEX_ERRORS.values()), ids=list(INDEX_ERRORS))
@pytest.mark.filterwarnings("ignore:Using a non-tuple sequence:UserWarning")  # torch, for "a"
def test_getitem_errors(index):
    check_error(lambda lib, x: x[index], M)


def test_getitem_errors_with_tensors_and_0_dim():
    check_error(lambda lib, x: x[lib.tensor([0.5])], M)
    check_error(lambda lib, x: x[lib.tensor([True, False, True, True])], M)
    check_error(lambda lib, x: x[0], S)
    check_error(lambda lib, x: x[1:], S)
    check_error(lambda lib, x: x[lib.tensor([[True, False]])], M)


@given(data=st.data())
def test_random_basic_indices(data):
    """Random ints, slices (any start/stop/step > 0), None and Ellipsis."""
    shape = data.draw(st.lists(st.integers(1, 4), min_size=1, max_size=4), label="shape")
    items = []
    for size in shape:
        kind = data.draw(st.sampled_from(["int", "slice", "none", "skip"]))
        if kind == "int":
            items.append(data.draw(st.integers(-size, size - 1)))
        elif kind == "slice":
            bound = st.one_of(st.none(), st.integers(-size - 2, size + 2))
            items.append(slice(data.draw(bound), data.draw(bound),
                               data.draw(st.one_of(st.none(), st.integers(1, 3)))))
        elif kind == "none":
            items.extend([None, slice(None)])
        else:
            break
    if data.draw(st.booleans()):  # Ellipsis stands for the dims not indexed yet
        items.append(Ellipsis)
        if data.draw(st.booleans()):
            items.append(None)
    index = tuple(items) if len(items) != 1 or data.draw(st.booleans()) else items[0]
    ours, theirs = check(lambda lib, x: x[index], rand(tuple(shape), seed=3))
    assert chain(ours) == chain(theirs)


@given(data=st.data())
def test_random_advanced_indices(data):
    shape = tuple(data.draw(st.lists(st.integers(1, 4), min_size=1, max_size=3), label="shape"))
    dim = data.draw(st.integers(0, len(shape) - 1))
    length = data.draw(st.integers(0, 5))
    picks = data.draw(st.lists(st.integers(-shape[dim], shape[dim] - 1), min_size=length,
                               max_size=length))
    index = (slice(None),) * dim + (picks,)
    if data.draw(st.booleans()) and dim + 1 < len(shape):
        index += (data.draw(st.integers(0, shape[dim + 1] - 1)),)
    ours, theirs = check(lambda lib, x: x[index], rand(shape, seed=4))
    assert chain(ours) == chain(theirs)


# ---- x[index] = value ------------------------------------------------------------------

def assign(index, value_of=None):
    """x[index] = value on a non-leaf (y = x * 1), returning y."""
    def fn(lib, x, *values):
        y = x * 1
        y[index] = values[0] if values else value_of
        return y
    return fn


SETITEM = {
    "int = number": (1, None, 5.0), "slice = number": (slice(1, 3), None, -1.0),
    "mask = number": ("mask", None, 0.0), "list = number": ([0, 2], None, 2.0),
    "int = row": (0, rand((4,), seed=5), None), "slice = broadcast row": (
        slice(None, 2), rand((4,), seed=6), None),
    "column = column": ((slice(None), 1), rand((3,), seed=7), None),
    "Ellipsis = matrix": (Ellipsis, rand((3, 4), seed=8), None),
}


@pytest.mark.parametrize("index, value, number", list(SETITEM.values()), ids=list(SETITEM))
@pytest.mark.parametrize("value_grad", [True, False], ids=["value-grad", "value-const"])
def test_setitem_on_a_non_leaf(index, value, number, value_grad):
    def fn(lib, x, *values):
        y = x * 1
        position = (x > 0) if isinstance(index, str) else index
        y[position] = values[0] if values else number
        return y
    arrays = [M] if value is None else [M, value]
    check(fn, *arrays, requires_grad=[True] + [value_grad] * (len(arrays) - 1))


def test_setitem_under_no_grad_and_on_plain_tensors():
    def fn(lib, x):
        with lib.no_grad():
            x[0, 1] = 7.0
            x[x < -1] = -1.0
        return x * 1
    check(fn, M)

    def plain(lib, x):
        x[:, 0] = lib.tensor([1.0, 2.0, 3.0])
        x[1] = 0
        return x
    check(plain, M, requires_grad=False)


def test_setitem_errors():
    def on_leaf(lib, x):
        x[0] = 1.0
    check_error(on_leaf, M)

    def wrong_shape(lib, x):
        x[0] = lib.tensor([1.0, 2.0])
    check_error(wrong_shape, M, requires_grad=False)

    def view_of_leaf(lib, x):
        x[0][1] = 2.0
    check_error(view_of_leaf, M)


@given(data=st.data())
def test_random_setitem(data):
    """x[index] = value for random basic/advanced indices and values that broadcast."""
    shape = tuple(data.draw(st.lists(st.integers(1, 4), min_size=1, max_size=3), label="shape"))
    items = []
    for size in shape:
        kind = data.draw(st.sampled_from(["int", "slice", "full", "list", "stop"]))
        if kind == "int":
            items.append(data.draw(st.integers(-size, size - 1)))
        elif kind == "slice":
            items.append(slice(data.draw(st.integers(0, size - 1)), None,
                               data.draw(st.integers(1, 2))))
        elif kind == "full":
            items.append(slice(None))
        elif kind == "list" and not any(isinstance(i, list) for i in items):
            items.append(data.draw(st.lists(st.integers(0, size - 1), min_size=1, max_size=3,
                                            unique=True)))
        else:
            break
    index = tuple(items) if len(items) != 1 or data.draw(st.booleans()) else items[0]
    x = rand(shape, seed=6)
    # (what torch selects: NumPy moves the dims of an advanced index after an int
    # differently, x[0, :, [0]] is (1, 2) in NumPy and [2, 1] in torch)
    target = tuple(torch.from_numpy(x)[index].shape)
    value_shape = target[data.draw(st.integers(0, len(target))):]
    value_shape = tuple(1 if data.draw(st.booleans()) else s for s in value_shape)
    as_number = data.draw(st.booleans())

    def fn(lib, t, *values):
        y = t * 1
        y[index] = 2.5 if as_number else values[0]
        return y

    arrays = [x] if as_number else [x, rand(value_shape, seed=7)]
    ours, theirs = check(fn, *arrays)
    assert chain(ours) == chain(theirs)


# A value that does not broadcast to what an advanced index selects (found by
# test_random_setitem: x[0, :, [0]] selects [2, 1] in torch, so a [2] value fails).
SETITEM_MISMATCHES = {
    "int, slice, list": ((2, 2, 1), (0, slice(None), [0]), (2,)),
    "leading ones dropped": ((2, 2, 1), (0, slice(None), [0]), (1, 2)),
    "list": ((2, 2), ([0, 1],), (3,)),
    "slice then list": ((2, 2), (slice(None), [0, 1]), (3,)),
    "two dims": ((2, 2), ([0, 1],), (2, 3)),
    "more dims than the target": ((2, 2), (slice(None), [0]), (5, 1, 1)),
    "int then list": ((2, 2), (0, [0, 1]), (3,)),
}


@pytest.mark.parametrize("shape, index, value_shape", list(SETITEM_MISMATCHES.values()),
                         ids=list(SETITEM_MISMATCHES))
def test_setitem_value_that_does_not_broadcast(shape, index, value_shape):
    def fn(lib, t, value):
        y = t * 1
        y[index] = value

    check_error(fn, rand(shape, seed=3), rand(value_shape, seed=4))



# ---- x[index] = value: which error comes first -------------------------------------

TARGETS = {
    "a leaf": lambda lib, x, c, v, u: x,
    "a result": lambda lib, x, c, v, u: c,
    "0-dim view under no_grad": lambda lib, x, c, v, u: v,
    "view under no_grad": lambda lib, x, c, v, u: u,
}

WRITES = {
    "[5] = 1": lambda lib, t: t.__setitem__(5, 1.0),
    "[1:] = 1": lambda lib, t: t.__setitem__(slice(1, None), 1.0),
    "[1:] = ones(5)": lambda lib, t: t.__setitem__(slice(1, None), lib.ones(5)),
    "[0] = ones(3)": lambda lib, t: t.__setitem__(0, lib.ones(3)),
    "[...] = ones(5)": lambda lib, t: t.__setitem__(Ellipsis, lib.ones(5)),
    "[None] = ones(2, 5)": lambda lib, t: t.__setitem__(None, lib.ones(2, 5)),
    "[[0]] = ones(5)": lambda lib, t: t.__setitem__([0], lib.ones(5)),
    "[t > 0] = ones(5)": lambda lib, t: t.__setitem__(t > 0, lib.ones(5)),
    "[0] = 1": lambda lib, t: t.__setitem__(0, 1.0),
    "[...] = 1": lambda lib, t: t.__setitem__(Ellipsis, 1.0),
}


@pytest.mark.parametrize("changed", [False, True], ids=["base as made", "base changed"])
@pytest.mark.parametrize("write", list(WRITES))
@pytest.mark.parametrize("target", list(TARGETS))
def test_the_first_error_is_torchs(target, write, changed):
    def run(lib):
        x = lib.tensor([-2.0, 1.0, 3.0], requires_grad=True)
        c = x * 1
        with lib.no_grad():
            v, u = c[0], c[1:]
        if changed:
            c.mul_(2)
        WRITES[write](lib, TARGETS[target](lib, x, c, v, u))
        return c
    assert outcome(run, mg) == outcome(run, torch)


ORDER_INDICES = {"0": 0, "-1": -1, "1": 1, "5": 5, "True": True, "False": False, "None": None,
           "...": Ellipsis, "1:": slice(1, None), "tensor(0)": "tensor(0)",
           "tensor(3)": "tensor(3)"}


@pytest.mark.parametrize("kind", ["read", "write", "read a view"])
@pytest.mark.parametrize("index", list(ORDER_INDICES))
def test_indexing_a_0_dim_tensor_is_torchs(index, kind):
    """(read a view: a 0-dim view of a leaf that requires grad; minigrad counted its
    dims first: "too many indices" for v[-1], wide random program 23858)"""
    def run(lib):
        v = lib.tensor(2.0)
        if kind == "read a view":
            v = lib.tensor([[2.0]], requires_grad=True)[0].squeeze(0)
        i = ORDER_INDICES[index]
        if isinstance(i, str):
            i = lib.tensor(int(i[7:-1]))
        if kind != "write":
            return v[i]
        v[i] = 1.0
        return v
    assert outcome(run, mg) == outcome(run, torch)



# ---- x[mask] = value of another dtype ----------------------------------------------

MASK_INDICES = {
    "row mask": "x[:, 0] > 0", "2-D mask": "x > 0", "0-dim mask": "torch.tensor(True)",
    "uint8 mask": "(x > 0).to(torch.uint8)", "uint8 row mask": "(x[:, 0] > 0).to(torch.uint8)",
    "0-dim False mask": "torch.tensor(False)", "Python True": "True", "int, 0-dim mask": "(0, torch.tensor(True))",
    "mask after a slice": "(slice(None), x[0] > 0)", "int then mask": "(1, x[0] > 0)",
    "mask then Ellipsis": "(x[:, 0] > 0, ...)", "two masks": "(x[:, 0] > 0, x[0] > 0)",
    "int tensor": "torch.tensor([0, 1])", "mask and int tensor": "(x[:, 0] > 0, torch.tensor([0, 1]))",
    "list of bools": "[True, False]", "list of ints": "[1, 0]", "mask in a list": "[x[:, 0] > 0]",
}
VALUES = {
    "float64 0-dim": "torch.tensor(2.0, dtype=torch.float64)",
    "float64 one element": "torch.tensor([2.0], dtype=torch.float64)",
    "float64 [[v]]": "torch.tensor([[2.0]], dtype=torch.float64)",
    "float64 two": "torch.tensor([2.0, 5.0], dtype=torch.float64)",
    "int64 0-dim": "torch.tensor(2)", "float16 0-dim": "torch.tensor(2.5, dtype=torch.float16)",
    "bool 0-dim": "torch.tensor(True)",
    "float64 requiring grad": "torch.tensor(2.0, dtype=torch.float64, requires_grad=True)",
    "float32 requiring grad": "torch.tensor(2.0, requires_grad=True)",
}
CASES = {
    f"{index}, {value}": (
        "a = torch.tensor([[1.0, -2.0], [3.0, 4.0]], requires_grad=True)\nx = a * 1\n"
        f"v = {VALUES[value]}\nx[{MASK_INDICES[index]}] = v\nshow(x)\ngfn(x)\n"
        "(x * x).sum().backward(create_graph=True)\nshow(a.grad, v.grad)\ngfn(a.grad)\n"
        "a.grad.sum().backward()\nshow(a.grad)")
    for index in MASK_INDICES for value in VALUES
}


@pytest.mark.parametrize("name", list(CASES))
def test_setitem_one_element_value(name):
    assert_same(CASES[name])


UINT8 = {  # uint8 tensors as indices: deprecated masks (PyTorch warns, then reads them so)
    "getitem": (
        "x = torch.tensor([[1.0, -2.0], [3.0, 4.0]], requires_grad=True)\n"
        "show(x[torch.tensor(1, dtype=torch.uint8)], x[torch.tensor(0, dtype=torch.uint8)].shape)\n"
        "show(x[torch.tensor([1, 0], dtype=torch.uint8), 1], x[[torch.tensor([1, 0], dtype=torch.uint8)]])\n"
        "r = x[(x > 0).to(torch.uint8)]\ngfn(r)\nr.sum().backward()\nshow(x.grad)"),
    "setitem of a tensor": (
        "y = torch.tensor([[1.0, -2.0], [3.0, 4.0]])\n"
        "y[torch.tensor([1, 0], dtype=torch.uint8)] = torch.tensor([5.0, 6.0])\nshow(y)\n"
        "y[torch.tensor([1, 0], dtype=torch.uint8), torch.tensor([1])] = torch.tensor(7.0)\nshow(y)"),
    "setitem of a number": (
        "y = torch.tensor([[1.0, -2.0], [3.0, 4.0]])\n"
        "y[torch.tensor([1, 0], dtype=torch.uint8), 0] = 5.0"),
    "setitem of a one-element tensor": (
        "y = torch.tensor([[1.0, -2.0], [3.0, 4.0]])\ny[y > 0] = 1.0\nshow(y)\n"
        "y[(y > 1).to(torch.uint8)] = torch.tensor([2.0])"),
}


@pytest.mark.parametrize("name", list(UINT8))
def test_uint8_index(name):
    assert_same(UINT8[name])


# ---- writes and in-place arithmetic with lists and ranges (index_put_) ------------------

LIST_WRITES = {
    "rows by a list": "x[[0, 2]] = 1.0",
    "rows by a range": "x[range(2)] = torch.tensor([5.0, 6.0, 7.0])",
    "the makemore step": "x[range(3), torch.tensor([2, 0, 1])] -= 1",
    "repeated rows, -=": "x[[1, 1]] -= torch.tensor([1.0, 2.0, 3.0])",
    "repeated element, =": "x[[0, 0], [1, 1]] = torch.tensor([5.0, 7.0])",
    "repeated rows, +=": "x[[0, 0, 2]] += 10",
    "bool list": "x[[True, False, True]] = torch.tensor([[1.0], [2.0]])",
    "columns by a list, *=": "x[:, [0, -1]] *= 2",
    "range then int": "x[range(1, 3), 0] = torch.tensor([8.0, 9.0])",
    "out of bounds": "x[[0, 3]] = 1.0",
    "out of bounds in a range": "x[range(4)] -= 1",
    "wrong value shape": "x[[0, 1]] = torch.ones(3, 3)",
}


@pytest.mark.parametrize("name", list(LIST_WRITES))
def test_list_and_range_writes_values_nodes_and_gradients(name):
    assert_same(
        "a = torch.arange(9.0).reshape(3, 3).requires_grad_()\nx = a * 1\n"
        f"{LIST_WRITES[name]}\nshow(x)\ngfn(x)\n"
        "(x * x).sum().backward()\nshow(a.grad)")


def test_list_and_range_writes_on_plain_tensors_and_leaves():
    assert_same("y = torch.zeros(3, 4)\ny[range(3), [0, 1, 2]] = torch.tensor([1.0, 2.0, 3.0])\n"
                "y[[1, 1]] -= 1\ny[[0, -1], 3] += torch.tensor([4, 5])\nshow(y)\n"
                "i = torch.zeros(5, dtype=torch.long)\ni[[0, 0, 4]] += 3\nshow(i)\n"
                "w = torch.ones(3, requires_grad=True)\nw[[0]] = 2.0")


def test_range_indices_in_a_loss_read_like_torchs():
    """makemore's loss: ``-probs[range(n), ys].log().mean()``, values, graph and grads."""
    logits, ys = rand((5, 4), seed=3), np.array([0, 3, 1, 1, 2])
    ours, theirs = check(lambda lib, x: -x.softmax(1)[range(5), lib.tensor(ys)].log().mean(),
                         logits)
    assert chain(ours) == chain(theirs)


@pytest.mark.parametrize("index", ["m, -1", "m, 1:", "m, 0", "m", "-1, m", "..., m", "None, m",
                                   "m, None, 0", "[5], 9", "[5], 1", "[0], 9", "[0, 1], [2, 5]",
                                   "1:, [0, -1]", "[True, False], 7"])
def test_index_arrays_are_checked_after_the_basic_items(index):
    """torch applies the ints, slices and None first and then checks the masks and index
    arrays against the tensor they leave (its mask text names that shape: [2, 1] for
    t[m, -1] of a (2, 1, 4) t; deep random program 843)."""
    def call(lib):
        t, u = lib.ones(2, 1, 4), lib.ones(2, 3)
        m = lib.ones(2, 4) > 0  # noqa: F841 (read by eval)
        target = t if "m" in index else u
        return eval(f"target[{index}]")
    assert outcome(call, mg) == outcome(call, torch)


@pytest.mark.parametrize("index", ["m, -1", "m, 1:", "m, 0", "m", "-1, m", "..., m", "None, m",
                                   "m, None, 0", "[5], 9", "[5], 1", "[0], 9", "[0, 1], [2, 5]",
                                   "1:, [0, -1]", "[True, False], 7", "m[:, 0], 2"])
def test_writes_check_index_arrays_after_the_basic_items(index):
    """(x[index] = value: as the read above; deep random program 100)"""
    def call(lib):
        t, u = lib.zeros(2, 1, 4), lib.zeros(2, 3)
        m = lib.ones(2, 4) > 0  # noqa: F841 (read by exec)
        target = t if "m" in index else u
        exec(f"target[{index}] = 2.5")
        return target
    assert outcome(call, mg) == outcome(call, torch)


@pytest.mark.parametrize("value", [np.float32(1.5), np.float16(1), np.bool_(True), np.complex64(1),
                                   np.array(1.5), np.array([1.5, 2.0]), [1.5, 2.0], (1, 2), None,
                                   "a", np.float64(1.5), np.int64(2), np.uint8(3), True, 2])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "uint8", "bool"])
def test_setitem_takes_tensors_and_python_numbers_only(value, dtype):
    """x[i] = value: torch takes a tensor or a Python number (NumPy integers through
    __index__, numpy.float64 being a float) and refuses anything else with its TypeError
    ("can't assign a numpy.float32 to a torch.FloatTensor"), before it looks at the index
    (fastai course22p2's 01_matmul meets it: a NumPy dot's float32 result)."""
    def assign(lib, index):
        x = lib.zeros(2, 2, dtype=getattr(lib, dtype))
        x[index] = value
        return x
    for index in (0, (1, 1), 7):
        assert outcome(lambda lib: assign(lib, index), mg) == outcome(lambda lib: assign(lib, index), torch)


@pytest.mark.parametrize("layout", ["transposed", "expanded", "row-major"])
def test_masked_scatter_is_row_major_as_torch(layout):
    """torch's masked_scatter fills a contiguous clone of its input: row-major whatever
    the input's layout (minigrad kept a transposed one's, and put an expanded one's
    broadcast dim first: meet seeds 42462, 42774)."""
    def seen(lib):
        x = {"transposed": lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]).t(),
             "expanded": lib.tensor([[1.0, 2.0]]).expand(3, 2),
             "row-major": lib.zeros(3, 2)}[layout]
        out = x.masked_scatter(x > 1.5, lib.arange(6.0).reshape(3, 2))
        return out.stride(), out.tolist()
    assert seen(mg) == seen(torch)
