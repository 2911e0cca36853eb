"""``minigrad.utils.data`` against ``torch.utils.data``: the same datasets, samplers and
loaders, written once and run with each library after the same seed, give the same
batches in the same order (shuffled ones included), with the same types, dtypes and
shapes; the generator is left in the same state after every epoch; errors and warnings
have PyTorch's texts."""

from __future__ import annotations

import collections
import re
import warnings

import numpy as np
import pytest
import torch
import torch.utils.data as torch_data
import torch.utils.data._utils.collate as torch_collate

import minigrad
import minigrad.utils.data as minigrad_data
import minigrad.utils.data._utils.collate as minigrad_collate

LIBRARIES = ((minigrad, minigrad_data), (torch, torch_data))
TRIGGERED = re.compile(r" \(Triggered internally at .*\)$", re.S)
Point = collections.namedtuple("Point", "x y")


def shown(value):
    """A batch as plain data: tensors as (dtype, shape, values), containers by kind."""
    if isinstance(value, (minigrad.Tensor, torch.Tensor)):
        return ("tensor", str(value.dtype).split(".")[-1], tuple(value.shape), value.tolist())
    if isinstance(value, np.ndarray):
        return ("ndarray", str(value.dtype), value.tolist())
    if isinstance(value, dict):
        return (type(value).__name__, {k: shown(v) for k, v in value.items()})
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return (type(value).__name__, [shown(v) for v in value])
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [shown(v) for v in value])
    return (type(value).__name__, value)


def run(program, seed=0):
    """``program(lib, data)`` in each library after ``manual_seed(seed)``: what it gives
    (or raises), its warnings and the default generator's state after."""
    outcomes = []
    for lib, data in LIBRARIES:
        lib.manual_seed(seed)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result = shown(program(lib, data))
            except Exception as error:  # noqa: BLE001 - the error is what is compared
                result = (type(error).__name__, str(error))
        said = [TRIGGERED.sub("", str(w.message)) for w in caught
                if "DataLoader loads every batch in the main process" not in str(w.message)]
        outcomes.append((result, said, lib.get_rng_state().numpy().tobytes()))
    return outcomes


def assert_same(program, seed=0):
    mine, theirs = run(program, seed)
    assert mine[0] == theirs[0]
    assert mine[1] == theirs[1]
    assert mine[2] == theirs[2], "the generator's state differs"


def epochs(loader, count=2):
    return [list(loader) for _ in range(count)]


def table(lib, data, n=10):
    return data.TensorDataset(lib.arange(n * 2.0).reshape(n, 2), lib.arange(n))


# ---- loaders: the same batches in the same order ------------------------------------------------


@pytest.mark.parametrize("n", [1, 7, 10, 64, 1000])
@pytest.mark.parametrize("batch_size", [1, 3, 4, 64])
@pytest.mark.parametrize("shuffle, drop_last", [(False, False), (True, False), (True, True)])
def test_batches_are_torchs(n, batch_size, shuffle, drop_last):
    assert_same(lambda lib, data: epochs(data.DataLoader(
        table(lib, data, n), batch_size=batch_size, shuffle=shuffle, drop_last=drop_last)))


def test_a_shuffle_with_a_generator_of_its_own():
    def program(lib, data):
        loader = data.DataLoader(table(lib, data, 50), batch_size=8, shuffle=True,
                                 generator=lib.Generator().manual_seed(3))
        return epochs(loader, 3), lib.randn(2)  # (the default generator moved as PyTorch's)
    assert_same(program)


def test_sixty_thousand_shuffled():
    assert_same(lambda lib, data: [y[:5] for _, y in data.DataLoader(
        table(lib, data, 60_000), batch_size=1000, shuffle=True)][:3])


def test_len_of_loaders():
    def program(lib, data):
        out = []
        for n, batch_size, drop_last in ((10, 3, False), (10, 3, True), (9, 3, True), (5, 8, True)):
            out.append(len(data.DataLoader(table(lib, data, n), batch_size=batch_size,
                                           drop_last=drop_last)))
        return out
    assert_same(program)


@pytest.mark.parametrize("make", [
    lambda lib, data, ds: data.DataLoader(ds, batch_size=None),
    lambda lib, data, ds: data.DataLoader(ds, batch_size=None, shuffle=True),
    lambda lib, data, ds: data.DataLoader(ds, sampler=data.SubsetRandomSampler([1, 4, 6, 9]),
                                          batch_size=2),
    lambda lib, data, ds: data.DataLoader(ds, sampler=range(9, -1, -3), batch_size=2),
    lambda lib, data, ds: data.DataLoader(ds, batch_sampler=[[0, 1], [5], [9, 2, 3]]),
    lambda lib, data, ds: data.DataLoader(ds, batch_sampler=data.BatchSampler(
        data.RandomSampler(ds, replacement=True, num_samples=13), 4, False)),
    lambda lib, data, ds: data.DataLoader(ds, sampler=data.WeightedRandomSampler(
        [0.1, 0.9, 0.4, 0.7, 3.0, 0.6, 1, 1, 1, 1], 6), batch_size=4),
    lambda lib, data, ds: data.DataLoader(ds, sampler=data.WeightedRandomSampler(
        [0.9, 0.4, 0.05, 0.2, 0.3, 0.1, 1, 1, 1, 1], 5, replacement=False), batch_size=2),
    lambda lib, data, ds: data.DataLoader(ds, batch_size=4, collate_fn=lambda batch: len(batch)),
    lambda lib, data, ds: data.DataLoader(ds, batch_size=3, shuffle=True,
                                          collate_fn=lambda batch: [y for _, y in batch]),
    lambda lib, data, ds: data.DataLoader(data.Subset(ds, [9, 0, 8, 1]), batch_size=3),
    lambda lib, data, ds: data.DataLoader(ds + ds, batch_size=7, shuffle=True),
], ids=["unbatched", "unbatched-shuffled", "subset-random-sampler", "range-sampler",
        "batch-sampler-list", "random-with-replacement", "weighted", "weighted-no-replacement",
        "collate-fn", "collate-fn-shuffled", "subset", "concat"])
def test_samplers_and_collate_functions_are_torchs(make):
    assert_same(lambda lib, data: epochs(make(lib, data, table(lib, data))))


class Samples:
    """A map-style dataset whose samples are of every kind default_collate knows."""

    def __init__(self, lib, kind: str) -> None:
        self.lib, self.kind = lib, kind

    def __len__(self) -> int:
        return 6

    def __getitem__(self, i):
        lib = self.lib
        return {
            "tensor": lambda: lib.tensor([i, i + 0.5]),
            "int": lambda: i, "float": lambda: i / 4, "bool": lambda: i % 2 == 0,
            "str": lambda: f"s{i}", "bytes": lambda: bytes([65 + i]),
            "numpy": lambda: np.arange(3, dtype=np.float32) * i,
            "numpy scalar": lambda: np.float64(i) / 3, "numpy int": lambda: np.int32(i),
            "tuple": lambda: (lib.tensor(float(i)), i, "x"),
            "list": lambda: [lib.tensor([i]), i / 2],
            "dict": lambda: {"image": lib.ones(2, 2) * i, "label": i},
            "ordered dict": lambda: collections.OrderedDict(b=i, a=lib.tensor(i)),
            "namedtuple": lambda: Point(lib.tensor([i]), i),
            "nested": lambda: {"pair": (lib.tensor(i), [i, i + 1]), "meta": {"id": f"{i}"}},
            "int64 tensor": lambda: lib.tensor(i),
            "numpy strings": lambda: np.array(["a", "b"]),
            "object": lambda: object(),
            "ragged lists": lambda: list(range(i)),
            "ragged tensors": lambda: lib.ones(i),
        }[self.kind]()


@pytest.mark.parametrize("kind", ["tensor", "int", "float", "bool", "str", "bytes", "numpy",
                                  "numpy scalar", "numpy int", "tuple", "list", "dict",
                                  "ordered dict", "namedtuple", "nested", "int64 tensor",
                                  "numpy strings", "ragged lists", "ragged tensors"])
def test_default_collation_is_torchs(kind):
    def program(lib, data):
        dataset = Samples(lib, kind)
        return (list(data.DataLoader(dataset, batch_size=3)),
                list(data.DataLoader(dataset, batch_size=None))[:2])
    assert_same(program)


def test_collate_error_for_unknown_objects():
    def program(lib, data):
        return list(data.DataLoader(Samples(lib, "object"), batch_size=2))
    (mine, _, _), (theirs, _, _) = run(program)
    assert mine[0] == theirs[0] == "TypeError"
    # (the type's name differs: 'object' in both; torch names its own classes in full)
    assert mine == theirs


def test_collate_extended_with_a_type_of_ones_own_as_in_torchs_docs():
    """PyTorch's docs extend default_collate by importing ``collate`` and
    ``default_collate_fn_map`` from ``torch.utils.data._utils.collate``."""
    class CustomType:
        def __init__(self, value):
            self.value = value

    seen = []
    for lib, module in ((minigrad, minigrad_collate), (torch, torch_collate)):
        def collate_custom(batch, *, collate_fn_map=None, lib=lib):
            return lib.tensor([item.value for item in batch]) * 10
        fn_map = {CustomType: collate_custom, **module.default_collate_fn_map}
        batch = module.collate([(CustomType(1), 2.5), (CustomType(2), 3.5)], collate_fn_map=fn_map)
        seen.append([repr(part) for part in batch] + [repr(module.default_collate([0, 1])),
                                                      repr(module.default_convert(np.arange(2)))])
    assert seen[0] == seen[1]


class Stream:
    """An iterable dataset of ``n`` numbers (an IterableDataset of each library)."""

    def __init__(self, data, n: int, sized: bool = True):
        class Numbers(data.IterableDataset):
            def __iter__(self):
                return iter(range(n))

        class SizedNumbers(Numbers):
            def __len__(self):
                return n

        self.dataset = SizedNumbers() if sized else Numbers()


@pytest.mark.parametrize("n, batch_size, drop_last", [(10, 3, False), (10, 3, True), (9, 3, True),
                                                     (0, 2, False), (5, None, False)])
def test_iterable_datasets_are_torchs(n, batch_size, drop_last):
    def program(lib, data):
        stream = Stream(data, n).dataset
        loader = data.DataLoader(stream, batch_size=batch_size, drop_last=drop_last)
        chained = data.DataLoader(stream + Stream(data, 3).dataset, batch_size=batch_size or 1)
        return epochs(loader), len(loader), list(chained)
    assert_same(program)


def test_datasets_are_torchs():
    def program(lib, data):
        ds = table(lib, data, 5)
        concat = data.ConcatDataset([ds, data.Subset(ds, [4, 3])])
        stack = data.StackDataset(ds, data.Subset(ds, [0, 1, 2, 3, 4]))
        named = data.StackDataset(a=ds, b=ds)
        return (ds[2], ds[-1], len(ds), concat[5], concat[-1], len(concat),
                concat.cumulative_sizes, stack[1], named[3], len(named),
                data.Subset(ds, [3, 1])[[0, 1]], (ds + ds)[7])
    assert_same(program)


ERRORS = {
    "tensor sizes": lambda lib, data: data.TensorDataset(lib.ones(3), lib.ones(4)),
    "concat empty": lambda lib, data: data.ConcatDataset([]),
    "concat iterable": lambda lib, data: data.ConcatDataset([Stream(data, 3).dataset]),
    "concat index": lambda lib, data: data.ConcatDataset([table(lib, data, 3)])[-4],
    "chain of maps": lambda lib, data: list(data.ChainDataset([table(lib, data, 3)])),
    "stack sizes": lambda lib, data: data.StackDataset(table(lib, data, 3), table(lib, data, 4)),
    "stack both": lambda lib, data: data.StackDataset(table(lib, data), a=table(lib, data)),
    "stack none": lambda lib, data: data.StackDataset(),
    "dataset getitem": lambda lib, data: data.Dataset()[0],
    "batch size 0": lambda lib, data: data.DataLoader(table(lib, data), batch_size=0),
    "batch size bool": lambda lib, data: data.BatchSampler(range(3), True, False),
    "drop_last str": lambda lib, data: data.BatchSampler(range(3), 2, "no"),
    "sampler and shuffle": lambda lib, data: data.DataLoader(
        table(lib, data), sampler=range(10), shuffle=True),
    "batch_sampler and batch_size": lambda lib, data: data.DataLoader(
        table(lib, data), batch_sampler=[[0]], batch_size=2),
    "no batching and drop_last": lambda lib, data: data.DataLoader(
        table(lib, data), batch_size=None, drop_last=True),
    "iterable and shuffle": lambda lib, data: data.DataLoader(Stream(data, 3).dataset,
                                                              shuffle=True),
    "iterable and sampler": lambda lib, data: data.DataLoader(Stream(data, 3).dataset,
                                                              sampler=[0]),
    "workers negative": lambda lib, data: data.DataLoader(table(lib, data), num_workers=-1),
    "timeout negative": lambda lib, data: data.DataLoader(table(lib, data), timeout=-1),
    "prefetch without workers": lambda lib, data: data.DataLoader(table(lib, data),
                                                                  prefetch_factor=2),
    "persistent without workers": lambda lib, data: data.DataLoader(
        table(lib, data), persistent_workers=True),
    "set batch_size": lambda lib, data: setattr(data.DataLoader(table(lib, data)),
                                                "batch_size", 3),
    "random sampler replacement": lambda lib, data: data.RandomSampler(range(3), replacement=1),
    "random sampler num_samples": lambda lib, data: data.RandomSampler(range(3), num_samples=0),
    "weighted shape": lambda lib, data: data.WeightedRandomSampler([[1.0, 2.0]], 2),
    "weighted num_samples": lambda lib, data: data.WeightedRandomSampler([1.0], 0),
    "ragged batch": lambda lib, data: data.default_collate([[1, 2], [3]]),
    "unequal tensors": lambda lib, data: data.default_collate([lib.ones(2), lib.ones(3)]),
    "split sum": lambda lib, data: data.random_split(range(10), [3, 3]),
    "split fraction": lambda lib, data: data.random_split(range(10), [1.5, -0.5]),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_are_torchs(name):
    assert_same(ERRORS[name])


# ---- random_split ---------------------------------------------------------------------------------


@pytest.mark.parametrize("lengths", [[3, 7], [0.3, 0.7], [0.3, 0.3, 0.4], [1 / 3] * 3,
                                     [0.5, 0.5, 0.0], [10, 0], [0.05, 0.95]])
def test_random_split_is_torchs(lengths):
    def program(lib, data):
        parts = data.random_split(range(10), lengths)
        seeded = data.random_split(table(lib, data), lengths,
                                   generator=lib.Generator().manual_seed(42))
        return [list(p) for p in parts], [p.indices for p in seeded], [len(p) for p in seeded]
    assert_same(program)


# ---- workers --------------------------------------------------------------------------------------


def test_workers_run_in_the_main_process_with_one_note(monkeypatch):
    monkeypatch.setattr(minigrad_data.dataloader, "_noted_workers", [])
    dataset = table(minigrad, minigrad_data, 20)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = [y.tolist() for _, y in minigrad_data.DataLoader(dataset, batch_size=4,
                                                                 num_workers=2)]
        again = [y.tolist() for _, y in minigrad_data.DataLoader(dataset, batch_size=4,
                                                                 num_workers=4,
                                                                 persistent_workers=True)]
    notes = [str(w.message) for w in caught if "worker processes in total" not in str(w.message)]
    assert len(notes) == 1 and "main process" in notes[0] and "num_workers=2" in notes[0]
    assert first == again == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15],
                              [16, 17, 18, 19]]
    assert minigrad_data.get_worker_info() is None


def test_more_workers_than_cpus_warn_as_torch(monkeypatch):
    """PyTorch warns when num_workers is more than the CPUs the process may use, when the
    loader is made and at each epoch (d2l's FashionMNIST loader asks for 4 workers)."""
    monkeypatch.setattr(minigrad_data.dataloader, "_noted_workers", [True])

    def said(lib, data, workers, cpus):
        monkeypatch.setattr("os.sched_getaffinity", lambda pid: set(range(cpus)))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            loader = data.DataLoader(data.TensorDataset(lib.arange(6.)), batch_size=3,
                                     num_workers=workers, pin_memory=True)
            batches = [b.tolist() for b, in loader]
        return batches, [(w.category, str(w.message)) for w in caught]

    for workers, cpus in ((2, 1), (2, 2), (3, 64)):
        mine, theirs = said(minigrad, minigrad_data, workers, cpus), said(torch, torch_data,
                                                                           workers, cpus)
        assert mine == theirs
    assert len(said(torch, torch_data, 2, 1)[1]) == 3


def test_shuffled_workers_give_torchs_batches_and_state():
    """With workers PyTorch's main process draws the same numbers as without (the
    workers' own seeds are drawn from it too): so minigrad's batches match it."""
    def program(lib, data):
        return epochs(data.DataLoader(table(lib, data, 30), batch_size=7, shuffle=True,
                                      num_workers=2))
    assert_same(program)


# ---- a whole program ------------------------------------------------------------------------------


def train(lib, data):
    """A seeded training run: the model's initial weights, dropout, a shuffled loader."""
    lib.manual_seed(0)
    rng = np.random.default_rng(0)
    x = lib.tensor(rng.normal(size=(200, 5)).astype(np.float32))
    y = lib.tensor((rng.random(200) * 3).astype(np.int64))
    train_set, test_set = data.random_split(data.TensorDataset(x, y), [0.8, 0.2])
    model = lib.nn.Sequential(lib.nn.Linear(5, 16), lib.nn.ReLU(), lib.nn.Dropout(0.3),
                              lib.nn.Linear(16, 3))
    optimizer = lib.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    loss_fn = lib.nn.CrossEntropyLoss()
    losses = []
    for _ in range(3):
        model.train()
        for xb, yb in data.DataLoader(train_set, batch_size=16, shuffle=True):
            optimizer.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        model.eval()
        with lib.no_grad():
            correct = sum((model(xb).argmax(1) == yb).sum().item()
                          for xb, yb in data.DataLoader(test_set, batch_size=10))
        losses.append(correct)
    return np.array(losses), lib.get_rng_state().numpy().tobytes()


def test_a_seeded_training_program_follows_torchs_run():
    (mine, my_state), (theirs, their_state) = (train(lib, data) for lib, data in LIBRARIES)
    np.testing.assert_allclose(mine, theirs, rtol=1e-5)
    assert my_state == their_state


def test_the_loaders_iterator_as_torch():
    """``iter(loader)``: an iterator object named as PyTorch's, with ``len()``, ``next()``
    on it, the batches it gives after a partial epoch; and ``it.next()`` (yunjey's
    pytorch_basics, written for Python 2) fails with PyTorch's AttributeError."""
    def program(lib, data):
        loader = data.DataLoader(data.TensorDataset(lib.arange(10.)), batch_size=3,
                                 shuffle=True)
        it = iter(loader)
        seen = [type(it).__name__, len(it), next(it), iter(it) is it]
        seen += list(it)
        try:
            it.next()
        except AttributeError as error:
            seen.append(str(error))
        workers = iter(data.DataLoader(data.TensorDataset(lib.arange(4.)), num_workers=1))
        seen += [type(workers).__name__, len(workers)]
        return seen
    assert_same(program)
