"""``minigrad.save`` / ``minigrad.load`` in PyTorch's own file format, both ways: what
minigrad saves, PyTorch 2.13 loads with ``weights_only=True`` (and the pickle inside is
the one ``torch.save`` writes, byte for byte); what PyTorch saves, minigrad loads; a model
trained in one continues in the other. Bad files get clear errors, nothing in a file is
ever run, and a save that fails leaves nothing half-written."""

from __future__ import annotations

import collections
import io
import os
import pathlib
import pickle
import zipfile

import numpy as np
import pytest
import torch

import minigrad
from minigrad.serialization import archive

DTYPES = ["float32", "float64", "float16", "int64", "int32", "int16", "int8", "uint8", "bool"]


def saved(lib, obj, name="archive") -> bytes:
    buffer = io.BytesIO()
    lib.save(obj, buffer)
    return buffer.getvalue()


def records(data: bytes) -> dict:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return {name: z.read(name) for name in z.namelist()}


def shown(value):
    """A loaded value as plain data (tensors by dtype, shape, strides, values, flags)."""
    if isinstance(value, (minigrad.Tensor, torch.Tensor)):
        kind = "Parameter" if isinstance(value, (minigrad.nn.Parameter,
                                                  torch.nn.Parameter)) else "Tensor"
        return (kind, str(value.dtype), tuple(value.shape), tuple(value.stride()),
                value.storage_offset(), value.detach().tolist(), value.requires_grad)
    if isinstance(value, dict):
        return (type(value).__name__, [(shown(k), shown(v)) for k, v in value.items()],
                shown(getattr(value, "_metadata", None)))
    if isinstance(value, (list, tuple, set)):
        items = sorted(value) if isinstance(value, set) else value
        return (type(value).__name__, [shown(v) for v in items])
    if isinstance(value, (minigrad.dtype, torch.dtype, minigrad.device, torch.device)):
        return ("named", str(value))
    if isinstance(value, float) and value != value:
        return ("float", "nan")
    return (type(value).__name__, value)


def values(lib, empty_bytes=True):
    """One of everything a checkpoint holds. (PyTorch pickles b"" as a call of bytes(),
    which its own weights_only loader refuses; minigrad writes it as any other bytes.)"""
    base = lib.arange(24.0).reshape(4, 6)
    return {
        "tensors": [lib.ones(3, dtype=getattr(lib, d)) * (2 if d != "bool" else 1) for d in DTYPES],
        "0-dim": lib.tensor(3.5), "empty": lib.zeros(0, 3), "base": base,
        "view": base[1:, ::2], "column": base[:, 3], "transposed": base.t(),
        "expanded": lib.ones(1, 3).expand(4, 3), "again": base,
        "parameter": lib.nn.Parameter(lib.linspace(0, 1, 5)),
        "frozen": lib.nn.Parameter(lib.ones(2), requires_grad=False),
        "requires_grad": lib.ones(2, requires_grad=True),
        "plain": [None, True, False, 0, -1, 255, 65536, -2**31, 2**40, 2**70, -2**70, 1.5,
                  float("inf"), float("nan"), "text", "ünïcödé ✓", b"bytes", b"" if empty_bytes else b"-", bytearray(b"ba"),
                  1 + 2j, (1, (2, 3), ()), {4, 5}, lib.float16, lib.int8, lib.Size([2, 3]),
                  lib.device("cpu"), collections.Counter("aab"), collections.OrderedDict(b=1, a=2)],
        "nested": {"a": {"b": [lib.ones(2), {"c": (lib.zeros(1),)}]}, 3: "int key"},
    }


def test_the_pickle_inside_is_torchs_byte_for_byte():
    for make in (lambda lib: values(lib, empty_bytes=False), lambda lib: lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.Tanh(),
                                                       lib.nn.Linear(4, 1)).state_dict()):
        minigrad.manual_seed(0)
        torch.manual_seed(0)
        mine, theirs = records(saved(minigrad, make(minigrad))), records(saved(torch, make(torch)))
        assert sorted(mine) == sorted(theirs)
        for name in mine:
            if not name.endswith("serialization_id"):
                assert mine[name] == theirs[name], name


def test_pytorch_loads_what_minigrad_saves():
    loaded = torch.load(io.BytesIO(saved(minigrad, values(minigrad))), weights_only=True)
    assert shown(loaded) == shown(values(torch))
    # views of one tensor stay views of one storage
    assert loaded["view"].untyped_storage().data_ptr() == loaded["base"].untyped_storage().data_ptr()
    assert loaded["again"] is loaded["base"]
    loaded["base"][1, 0] = -1
    assert loaded["view"][0, 0].item() == -1


def test_minigrad_loads_what_pytorch_saves():
    loaded = minigrad.load(io.BytesIO(saved(torch, values(torch))))  # (b"" included)
    assert shown(loaded) == shown(values(minigrad))
    assert isinstance(loaded["parameter"], minigrad.nn.Parameter)
    assert loaded["again"] is loaded["base"]
    loaded["base"][1, 0] = -1  # (shared memory, as in PyTorch)
    assert loaded["view"][0, 0].item() == -1 and loaded["transposed"][0, 1].item() == -1


def test_round_trip_in_minigrad():
    original = values(minigrad)
    loaded = minigrad.load(io.BytesIO(saved(minigrad, original)))
    assert shown(loaded) == shown(original)
    assert loaded["base"] is not original["base"]  # (a copy of the memory, not the same)


@pytest.mark.parametrize("optimizer, kwargs", [("SGD", {"lr": 0.1, "momentum": 0.9}),
                                               ("Adam", {"lr": 0.01}), ("AdamW", {"lr": 0.01}),
                                               ("RMSprop", {"lr": 0.01}), ("Adagrad", {"lr": 0.1})])
def test_training_carried_between_the_libraries(optimizer, kwargs, tmp_path):
    """Train 5 steps in one library, save model and optimiser, load them in the other and
    train 5 more: the same losses as 10 steps in either library alone."""
    x = np.random.default_rng(0).normal(size=(16, 4)).astype(np.float32)
    y = np.random.default_rng(1).normal(size=(16, 1)).astype(np.float32)

    def build(lib):
        lib.manual_seed(0)
        model = lib.nn.Sequential(lib.nn.Linear(4, 8), lib.nn.Tanh(), lib.nn.Linear(8, 1))
        return model, getattr(lib.optim, optimizer)(model.parameters(), **kwargs)

    def steps(lib, model, opt, count):
        losses = []
        for _ in range(count):
            opt.zero_grad()
            loss = lib.nn.functional.mse_loss(model(lib.tensor(x)), lib.tensor(y))
            loss.backward()
            opt.step()
            losses.append(loss.item())
        return losses

    alone = steps(torch, *build(torch), 10)
    for first, second in ((minigrad, torch), (torch, minigrad)):
        model, opt = build(first)
        losses = steps(first, model, opt, 5)
        path = tmp_path / f"from-{first.__name__}.pt"
        first.save({"model": model.state_dict(), "optimizer": opt.state_dict()}, path)
        model2, opt2 = build(second)
        checkpoint = second.load(path, weights_only=True)
        model2.load_state_dict(checkpoint["model"])
        opt2.load_state_dict(checkpoint["optimizer"])
        losses += steps(second, model2, opt2, 5)
        np.testing.assert_allclose(losses, alone, rtol=1e-5)


# ---- files, paths, folders ---------------------------------------------------------------------


def test_paths_path_likes_and_file_objects(tmp_path):
    state = {"w": minigrad.arange(3.0)}
    minigrad.save(state, str(tmp_path / "a.pt"))
    minigrad.save(state, tmp_path / "b.pth")
    with open(tmp_path / "c.bin", "wb") as stream:
        minigrad.save(state, stream)
    for name in ("a.pt", "b.pth", "c.bin"):
        for loader in (lambda p: minigrad.load(p), lambda p: minigrad.load(str(p)),
                       lambda p: minigrad.load(open(p, "rb"))):
            assert loader(tmp_path / name)["w"].tolist() == [0.0, 1.0, 2.0]
        assert torch.load(tmp_path / name)["w"].tolist() == [0.0, 1.0, 2.0]
    # the records' folder is named as PyTorch names it
    torch.save({"w": torch.arange(3.0)}, tmp_path / "t.pt")
    for mine, theirs in (("a.pt", "t.pt"),):
        with zipfile.ZipFile(tmp_path / mine) as m, zipfile.ZipFile(tmp_path / theirs) as t:
            assert [n.split("/", 1)[1] for n in m.namelist()] == \
                [n.split("/", 1)[1] for n in t.namelist()]
            assert m.namelist()[0].startswith("a/") and t.namelist()[0].startswith("t/")


def test_storages_are_aligned_as_pytorchs(tmp_path):
    """Every record's bytes start at a multiple of 64, so PyTorch can map them (mmap=True)."""
    minigrad.save({"a": minigrad.ones(5), "b": minigrad.ones(3, dtype=minigrad.int8)},
                  tmp_path / "m.pt")
    data = (tmp_path / "m.pt").read_bytes()
    with zipfile.ZipFile(tmp_path / "m.pt") as z:
        for info in z.infolist():
            start = info.header_offset + 30 + int.from_bytes(
                data[info.header_offset + 26:info.header_offset + 28], "little") + \
                int.from_bytes(data[info.header_offset + 28:info.header_offset + 30], "little")
            assert start % 64 == 0, info.filename
    assert torch.load(tmp_path / "m.pt", mmap=True)["a"].tolist() == [1.0] * 5


@pytest.mark.parametrize("map_location", [None, "cpu", torch.device("cpu"), "device",
                                          {"cpu": "cpu"}, "function"])
def test_map_location_to_the_cpu(map_location):
    data = saved(torch, {"w": torch.ones(2)})
    if map_location == "device":
        map_location = minigrad.device("cpu")
    elif map_location == "function":
        map_location = lambda storage, location: storage  # noqa: E731
    elif isinstance(map_location, torch.device):
        map_location = str(map_location)
    assert minigrad.load(io.BytesIO(data), map_location=map_location)["w"].tolist() == [1.0, 1.0]


def _with_records(data: bytes, change) -> bytes:
    """A copy of an archive with its records changed by ``change(name, bytes)``."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        for name in source.namelist():
            target.writestr(name, change(name, source.read(name)))
    return out.getvalue()


def test_storages_saved_on_a_gpu():
    data = _with_records(saved(torch, {"w": torch.ones(2)}), lambda name, record: record.replace(
        b"X\x03\x00\x00\x00cpu", b"X\x06\x00\x00\x00cuda:0") if name.endswith("data.pkl")
        else record)
    with pytest.raises(RuntimeError) as mine:
        minigrad.load(io.BytesIO(data))
    with pytest.raises(RuntimeError) as theirs:
        torch.load(io.BytesIO(data))
    assert str(mine.value) == str(theirs.value)
    for location in ("cpu", {"cuda:0": "cpu"}, lambda storage, where: storage):
        assert minigrad.load(io.BytesIO(data), map_location=location)["w"].tolist() == [1.0, 1.0]


# ---- what is refused ------------------------------------------------------------------------------


class Halves(minigrad.nn.Module):
    """A program's own class, at module level (where pickle finds it)."""

    def __init__(self):
        super().__init__()
        self.layer = minigrad.nn.Linear(4, 2)
        self.register_buffer("scale", minigrad.full((2,), 0.5))
        self.name = "halves"

    def forward(self, x):
        return self.layer(x) * self.scale


class TorchHalves(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = torch.nn.Linear(4, 2)
        self.register_buffer("scale", torch.full((2,), 0.5))
        self.name = "halves"

    def forward(self, x):
        return self.layer(x) * self.scale


WHOLE = {minigrad: Halves, torch: TorchHalves}


def test_whole_objects_are_saved_and_loaded_with_weights_only_false(tmp_path):
    """torch.save(model) as PyTorch's: saved, refused by the default weights_only=True
    load, and given back by weights_only=False with its class, parameters (without their
    gradients), buffers and attributes; tied weights stay one parameter; NumPy arrays and
    optimizers too."""
    seen = {}
    for lib in (torch, minigrad):
        lib.manual_seed(0)
        model = WHOLE[lib]()
        model(lib.ones(3, 4)).sum().backward()
        tied = lib.nn.Sequential(lib.nn.Embedding(3, 4), lib.nn.Linear(4, 3))
        tied[1].weight = tied[0].weight
        optimizer = lib.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        optimizer.step()
        path = tmp_path / f"{lib.__name__}.pt"
        lib.save({"model": model, "tied": tied, "array": np.arange(3.0),
                  "optimizer": optimizer}, path)
        with pytest.raises(pickle.UnpicklingError) as refused:
            lib.load(path)
        back = lib.load(path, weights_only=False)
        new = back["model"]
        seen[lib] = (type(refused.value).__name__.endswith("UnpicklingError"),
                     "weights_only" in str(refused.value), repr(new).replace("TorchHalves", "Halves"),
                     new.name, shown(dict(new.state_dict())), new.layer.weight.grad,
                     [round(v, 5) for v in new(lib.ones(1, 4)).flatten().tolist()],
                     repr(back["array"]),
                     back["tied"][1].weight is back["tied"][0].weight,
                     shown(back["optimizer"].state_dict()["state"]),
                     back["optimizer"].param_groups[0]["params"][0] is new.layer.weight)
    assert seen[minigrad] == seen[torch]
    assert seen[minigrad][:2] == (True, True)


@pytest.mark.parametrize("value", [lambda: {"f": lambda: 0}, lambda: [len, open]])
def test_what_pickle_cannot_save_fails_as_in_pytorch_and_nothing_is_written(value, tmp_path):
    outcomes = {}
    for lib in (torch, minigrad):
        path = tmp_path / f"{lib.__name__}.pt"
        lib.save({"old": lib.ones(1)}, path)
        before = path.read_bytes()
        buffer = io.BytesIO()
        try:
            lib.save(value(), buffer)
            outcomes[lib] = ("saved", shown(lib.load(io.BytesIO(buffer.getvalue()),
                                                     weights_only=False)))
        except Exception as error:
            outcomes[lib] = (type(error).__name__, str(error))  # (PyTorch leaves half a
            assert lib is torch or buffer.getvalue() == b""  # file in a buffer; minigrad none)
        assert path.read_bytes() == before
    assert outcomes[minigrad] == outcomes[torch]
    assert sorted(os.listdir(tmp_path)) == ["minigrad.pt", "torch.pt"]  # (no temporary file)


def test_a_save_interrupted_midway_leaves_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "model.pt"
    minigrad.save({"w": minigrad.ones(3)}, path)
    before = path.read_bytes()
    original = archive._write_zip

    def broken(stream, folder, records):
        stream.write(b"PK\x03\x04 half a file")
        raise OSError("disk full")

    monkeypatch.setattr(archive, "_write_zip", broken)
    with pytest.raises(OSError, match="disk full"):
        minigrad.save({"w": minigrad.zeros(3)}, path)
    monkeypatch.setattr(archive, "_write_zip", original)
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["model.pt"]
    assert minigrad.load(path)["w"].tolist() == [1.0, 1.0, 1.0]


def test_whole_pickled_modules_are_refused_with_what_to_save_instead(tmp_path):
    torch.save(torch.nn.Linear(2, 2), tmp_path / "model.pt")
    with pytest.raises(minigrad.serialization.UnpicklingError) as error:
        minigrad.load(tmp_path / "model.pt")
    assert "torch.nn.modules.linear.Linear" in str(error.value)
    assert "model.state_dict()" in str(error.value)


class Evil:
    def __reduce__(self):
        return (os.system, ("touch should-not-exist",))


def test_nothing_in_a_file_is_ever_run(tmp_path, monkeypatch):
    """A pickle that calls os.system (as a malicious checkpoint would): refused before
    anything runs, whether or not the global is at the top."""
    monkeypatch.chdir(tmp_path)
    for payload in (Evil(), {"w": [Evil()]}):
        pickled = pickle.dumps(payload, protocol=2)
        data = _with_records(saved(torch, {"w": torch.ones(1)}),
                             lambda name, record: pickled if name.endswith("data.pkl") else record)
        with pytest.raises(minigrad.serialization.UnpicklingError, match="posix.system"):
            minigrad.load(io.BytesIO(data))
        assert not (tmp_path / "should-not-exist").exists()


@pytest.mark.parametrize("dtype", ["bfloat16", "complex64"])
def test_a_tensor_type_minigrad_lacks(dtype):
    data = saved(torch, {"w": torch.zeros(2, dtype=getattr(torch, dtype))})
    with pytest.raises(RuntimeError) as error:
        minigrad.load(io.BytesIO(data))
    assert "minigrad does not have" in str(error.value) and "save again" in str(error.value)


def test_truncated_and_damaged_files_get_pytorchs_errors():
    data = saved(torch, {"w": torch.arange(100.0), "b": torch.ones(3)})
    for cut in (10, 100, len(data) // 2, len(data) - 10, len(data) - 1):
        with pytest.raises(RuntimeError) as mine:
            minigrad.load(io.BytesIO(data[:cut]))
        with pytest.raises(RuntimeError) as theirs:
            torch.load(io.BytesIO(data[:cut]))
        assert str(mine.value) == str(theirs.value)
    # a flipped byte in a storage: the record's checksum fails
    position = data.index(np.arange(100, dtype=np.float32)[50:51].tobytes())
    damaged = data[:position] + b"\xff" + data[position + 1:]
    with pytest.raises(RuntimeError, match="corrupted"):
        minigrad.load(io.BytesIO(damaged))


@pytest.mark.parametrize("content, words", [
    (b"", "empty"),
    (b"hello, this is text", "not a ZIP archive"),
    (pickle.dumps({"w": 1}, protocol=2), "old format"),
    (b"PK\x03\x04garbage", "not a ZIP archive"),
    (b"PK\x03\x04" + b"garbage" * 10, "failed finding central directory"),
])
def test_files_of_other_formats(content, words):
    with pytest.raises(RuntimeError, match=words) as mine:
        minigrad.load(io.BytesIO(content))
    if content.startswith(b"PK"):  # (PyTorch's own text: its reader finds no zip either)
        with pytest.raises(RuntimeError) as theirs:
            torch.load(io.BytesIO(content))
        assert str(mine.value) == str(theirs.value)


def test_a_zip_that_is_not_a_checkpoint():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr("notes.txt", "hello")
    with pytest.raises(RuntimeError) as mine:
        minigrad.load(io.BytesIO(buffer.getvalue()))
    assert "data.pkl" in str(mine.value)


def test_tensors_reaching_beyond_their_storage_are_refused():
    """A file that claims a tensor larger than its storage (to read memory beyond it)."""
    data = saved(torch, {"w": torch.ones(4)})
    bigger = _with_records(data, lambda name, record: record.replace(
        b"K\x04\x85", b"K\x40\x85", 1) if name.endswith("data.pkl") else record)
    with pytest.raises(minigrad.serialization.UnpicklingError, match="beyond its storage"):
        minigrad.load(io.BytesIO(bigger))
    shorter = _with_records(data, lambda name, record: record[:8] if "/data/" in name else record)
    with pytest.raises(RuntimeError, match="damaged"):
        minigrad.load(io.BytesIO(shorter))


def test_missing_file_is_pythons_error(tmp_path):
    with pytest.raises(FileNotFoundError) as mine:
        minigrad.load(tmp_path / "nope.pt")
    with pytest.raises(FileNotFoundError) as theirs:
        torch.load(tmp_path / "nope.pt")
    assert str(mine.value) == str(theirs.value)


def test_old_style_options_are_refused_clearly(tmp_path):
    with pytest.raises(ValueError, match="zip format"):
        minigrad.save({}, tmp_path / "x.pt", _use_new_zipfile_serialization=False)
    with pytest.raises(ValueError, match="protocol"):
        minigrad.save({}, tmp_path / "x.pt", pickle_protocol=1)
    assert not (tmp_path / "x.pt").exists()
    minigrad.save({"a": 1}, tmp_path / "x.pt", pickle_protocol=4)  # (written as protocol 2)
    assert torch.load(tmp_path / "x.pt") == {"a": 1}


def test_pickles_of_newer_protocols_saved_by_pytorch(tmp_path):
    for protocol in (3, 4, 5):
        torch.save({"w": torch.ones(2), "s": {1}, "b": b"x"}, tmp_path / "p.pt",
                   pickle_protocol=protocol)
        loaded = minigrad.load(tmp_path / "p.pt")
        assert loaded["w"].tolist() == [1.0, 1.0] and loaded["s"] == {1} and loaded["b"] == b"x"


def _with_attributes(lib):
    """A tensor carrying attributes of its own (fastai course22p2's x.g = ...), one shared
    by two of them, and a plain tensor beside it."""
    x = lib.arange(3.0, requires_grad=True)
    x.g = lib.ones(3)
    x.note, x.k = "hand-made", 3
    y = lib.zeros(2)
    y.g = x.g
    return {"x": x, "y": y, "plain": lib.ones(1)}


def _attributes(loaded):
    return {name: (shown(t), {k: shown(v) for k, v in vars(t).items()})
            for name, t in loaded.items()}


def test_attributes_of_a_tensor_are_saved_and_loaded_as_pytorch_does():
    """PyTorch pickles a tensor's own attributes through _rebuild_from_type_v2; minigrad
    writes the same pickle, byte for byte, and loads PyTorch's (and its own)."""
    mine, theirs = records(saved(minigrad, _with_attributes(minigrad))), \
        records(saved(torch, _with_attributes(torch)))
    for name in theirs:
        if not name.endswith("serialization_id"):
            assert mine[name] == theirs[name], name
    expected = _attributes(_with_attributes(torch))
    assert _attributes(torch.load(io.BytesIO(saved(minigrad, _with_attributes(minigrad))),
                                  weights_only=True)) == expected
    loaded = minigrad.load(io.BytesIO(saved(torch, _with_attributes(torch))))
    assert _attributes(loaded) == expected and loaded["y"].g is loaded["x"].g
    assert _attributes(minigrad.load(io.BytesIO(saved(minigrad, _with_attributes(minigrad))))) \
        == expected


def test_a_file_cannot_set_a_tensors_own_fields():
    """An attribute named as one of minigrad's tensor fields (_data, grad) is refused."""
    x = torch.ones(2)
    x.__dict__["_data"] = "not an array"
    with pytest.raises(pickle.UnpicklingError, match="'_data' cannot be set from a file"):
        minigrad.load(io.BytesIO(saved(torch, x)))
