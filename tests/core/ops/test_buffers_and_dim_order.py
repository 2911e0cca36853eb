"""torch.frombuffer, torch.empty_permuted and Tensor.dim_order against PyTorch 2.13: the
values and memory a buffer gives (shared with it), the strides of a permuted layout, the
dim order PyTorch reads from strides (its docstring's Examples and the ambiguous cases),
and the error texts of each."""

from __future__ import annotations

import array
import warnings

import numpy as np
import pytest
import torch

import minigrad as mg

from torch_compare import outcome

CALLS = {
    "frombuffer array": lambda lib: lib.frombuffer(array.array("i", [1, 2, 3]), dtype=lib.int32),
    "frombuffer count offset": lambda lib: lib.frombuffer(bytearray(b"\x01\x02\x03\x04"),
                                                          dtype=lib.int8, count=2, offset=1),
    "frombuffer negative count": lambda lib: lib.frombuffer(bytearray(b"\x01\x02\x03\x04"),
                                                            dtype=lib.int16, count=-2),
    "frombuffer float": lambda lib: lib.frombuffer(array.array("d", [0.5, -2.0]),
                                                   dtype=lib.float64, requires_grad=True),
    "frombuffer floats of bytes": lambda lib: lib.frombuffer(
        bytearray(array.array("f", [1.5, 2.5, 3.5]).tobytes()), dtype=lib.float32, offset=4),
    "frombuffer strides": lambda lib: lib.frombuffer(bytearray(8), dtype=lib.float32).stride(),
    "frombuffer count too big": lambda lib: lib.frombuffer(bytearray(4), dtype=lib.int32, count=2),
    "frombuffer offset": lambda lib: lib.frombuffer(bytearray(4), dtype=lib.int16, offset=5),
    "frombuffer negative offset": lambda lib: lib.frombuffer(bytearray(4), dtype=lib.int16,
                                                             offset=-1),
    "frombuffer count 0": lambda lib: lib.frombuffer(bytearray(4), dtype=lib.int16, count=0),
    "frombuffer ragged": lambda lib: lib.frombuffer(bytearray(3), dtype=lib.int16),
    "frombuffer empty": lambda lib: lib.frombuffer(bytearray(0), dtype=lib.int16),
    "frombuffer list": lambda lib: lib.frombuffer([1, 2], dtype=lib.int16),
    "frombuffer int grad": lambda lib: lib.frombuffer(bytearray(4), dtype=lib.int16,
                                                      requires_grad=True),
    "empty_permuted": lambda lib: lib.empty_permuted((2, 3, 5, 7), (0, 2, 3, 1)).stride(),
    "empty_permuted shape": lambda lib: lib.empty_permuted((2, 3, 5, 7), (0, 2, 3, 1)).shape,
    "empty_permuted grad": lambda lib: lib.empty_permuted(
        (2, 3), (1, 0), dtype=lib.float64, requires_grad=True).stride(),
    "empty_permuted empty": lambda lib: lib.empty_permuted((2, 0, 3), (2, 0, 1)).stride(),
    "empty_permuted 0-dim": lambda lib: lib.empty_permuted([], []).shape,
    "empty_permuted dim_order": lambda lib: lib.empty_permuted((2, 3, 4), (2, 0, 1)).dim_order(),
    "empty_permuted length": lambda lib: lib.empty_permuted((2, 3), (0,)),
    "empty_permuted duplicate": lambda lib: lib.empty_permuted((2, 3), (0, 0)),
    "empty_permuted range": lambda lib: lib.empty_permuted((2, 3), (0, 2)),
    "empty_permuted negative": lambda lib: lib.empty_permuted((2, 3), (-1, 0)),
    "empty_permuted int grad": lambda lib: lib.empty_permuted((2, 3), (1, 0), dtype=lib.int64,
                                                              requires_grad=True),
    # (Tensor.dim_order's docstring Examples, channels_last aside: minigrad has not got it)
    "dim_order": lambda lib: lib.empty((2, 3, 5, 7)).dim_order(),
    "dim_order transposed": lambda lib: lib.empty((2, 3, 5, 7)).transpose(1, 2).dim_order(),
    "dim_order size 1": lambda lib: lib.empty((1, 2, 3, 4)).dim_order(),
    "dim_order ambiguous": lambda lib: lib.empty((1, 2, 3, 4)).dim_order(ambiguity_check=True),
    "dim_order formats": lambda lib: lib.empty((1, 2, 3, 4)).dim_order(
        ambiguity_check=[lib.contiguous_format]),
    "dim_order illegal": lambda lib: lib.empty((1, 2, 3, 4)).dim_order(ambiguity_check="ILLEGAL"),
    "dim_order illegal list": lambda lib: lib.empty(2).dim_order(ambiguity_check=[1]),
    "dim_order permuted": lambda lib: lib.empty(2, 3, 4).permute(2, 0, 1).dim_order(),
    "dim_order 0-dim": lambda lib: lib.tensor(1.).dim_order(),
    "dim_order 1-dim": lambda lib: lib.arange(5)[::2].dim_order(ambiguity_check=True),
    "dim_order column": lambda lib: lib.empty(3, 1).t().dim_order(),
    "dim_order expanded": lambda lib: lib.empty(2, 3).expand(4, 2, 3).dim_order(),
    "dim_order expanded checked": lambda lib: lib.empty(2, 3).expand(4, 2, 3).dim_order(
        ambiguity_check=True),
    "dim_order sliced": lambda lib: lib.empty(4, 3)[:, ::2].dim_order(ambiguity_check=True),
    "dim_order square": lambda lib: lib.empty(2, 2).dim_order(ambiguity_check=True),
    "dim_order channels last": lambda lib: lib.empty(2, 3, 4, 5).permute(0, 2, 3, 1)
    .contiguous().permute(0, 3, 1, 2).dim_order(ambiguity_check=True),
    "dim_order empty list": lambda lib: lib.empty(2, 1, 3).dim_order(ambiguity_check=[]),
    "dim_order same strides": lambda lib: lib.empty(3).as_strided((2, 2), (1, 1)).dim_order(),
    "dim_order same strides checked": lambda lib: lib.empty(3).as_strided(
        (2, 2), (1, 1)).dim_order(ambiguity_check=True),
}


@pytest.mark.parametrize("name", CALLS)
def test_calls_give_what_torch_gives(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert outcome(CALLS[name], mg) == outcome(CALLS[name], torch)


def test_frombuffer_shares_the_buffers_memory_as_torch():
    said = []
    for lib in (mg, torch):
        buffer = array.array("i", [1, 2, 3])
        t = lib.frombuffer(buffer, dtype=lib.int32)
        t[0] = -1
        buffer[2] = 30
        said.append((list(buffer), t.tolist()))
    assert said[0] == said[1]


def test_frombuffer_of_bytes_warns_as_torch():
    """A read-only buffer: PyTorch's warning (once a process: both warn here every time
    under set_warn_always) and the values."""
    said = []
    for lib in (mg, torch):
        lib.set_warn_always(True)
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                t = lib.frombuffer(b"\x01\x02\x03\x04", dtype=lib.int32)
        finally:
            lib.set_warn_always(False)
        said.append((repr(t), [str(w.message).split(" (Triggered")[0] for w in caught]))
    assert said[0] == said[1]


def test_frombuffer_of_a_read_only_buffer_shares_its_memory_as_torch():
    """PyTorch warns that the buffer is not writable and shares it all the same: a write to
    the bytearray behind a read-only memoryview shows in the tensor, and the tensor's writes
    (item assignment, an in-place op) reach the bytearray."""
    said = []
    for lib in (mg, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            owner = bytearray(b"\x01\x00\x00\x00\x02\x00\x00\x00\x03\x00")
            t = lib.frombuffer(memoryview(owner).toreadonly(), dtype=lib.int16, offset=2, count=3)
        owner[2] = 7
        seen = t.tolist()
        t[1] = -5
        t.add_(1)
        said.append((seen, t.tolist(), bytes(owner)))
    assert said[0] == said[1]


def _laid_out(t):
    """What a memory format decides: strides, grad_fn, and both contiguity answers."""
    lib = mg if isinstance(t, mg.Tensor) else torch
    fmt = lib.channels_last_3d if t.dim() == 5 else lib.channels_last
    return (t.stride(), t.grad_fn.name() if t.grad_fn is not None else None, t.is_contiguous(),
            t.is_contiguous(memory_format=fmt))


MEMORY_FORMATS = {
    "contiguous channels_last": lambda lib: _laid_out(
        lib.randn(2, 3, 4, 5, requires_grad=True).contiguous(memory_format=lib.channels_last)),
    "to channels_last": lambda lib: _laid_out(
        lib.randn(2, 3, 4, 5, requires_grad=True).to(memory_format=lib.channels_last)),
    "to dtype and channels_last": lambda lib: _laid_out(
        lib.randn(2, 3, 4, 5).to(lib.float64, memory_format=lib.channels_last)),
    "clone channels_last": lambda lib: _laid_out(
        lib.randn(2, 3, 4, 5, requires_grad=True).clone(memory_format=lib.channels_last)),
    "back to contiguous_format": lambda lib: _laid_out(
        lib.randn(2, 3, 4, 5).contiguous(memory_format=lib.channels_last)
        .to(memory_format=lib.contiguous_format)),
    "already channels_last": lambda lib: _laid_out(
        lib.randn(2, 3, 4, 5, requires_grad=True).contiguous(memory_format=lib.channels_last)
        .contiguous(memory_format=lib.channels_last)),
    "channels_last_3d": lambda lib: _laid_out(
        lib.randn(2, 3, 4, 5, 6).contiguous(memory_format=lib.channels_last_3d)),
    "empty channels_last": lambda lib: _laid_out(
        lib.empty(2, 3, 4, 5, memory_format=lib.channels_last)),
    "empty_like channels_last": lambda lib: _laid_out(
        lib.empty_like(lib.randn(2, 3, 4, 5), memory_format=lib.channels_last)),
    "empty_like preserves it": lambda lib: _laid_out(lib.empty_like(
        lib.randn(2, 3, 4, 5).contiguous(memory_format=lib.channels_last))),
    "C == 1 is both": lambda lib: _laid_out(lib.empty(4, 1, 4, 4)),
    "1x1 is both": lambda lib: _laid_out(lib.empty(4, 3, 1, 1)),
    "C == 1 kept": lambda lib: _laid_out(
        lib.randn(2, 1, 3, 3).contiguous(memory_format=lib.channels_last)),
    "an empty batch": lambda lib: _laid_out(
        lib.randn(0, 3, 2, 2).contiguous(memory_format=lib.channels_last)),
    "a permuted NHWC": lambda lib: _laid_out(lib.randn(2, 4, 5, 3).permute(0, 3, 1, 2)),
    "dim_order": lambda lib: lib.randn(2, 3, 4, 5).contiguous(
        memory_format=lib.channels_last).dim_order(),
    "dim_order 3d": lambda lib: lib.randn(2, 3, 4, 5, 6).contiguous(
        memory_format=lib.channels_last_3d).dim_order(),
    "dim_order ambiguous": lambda lib: lib.empty(4, 1, 4, 4).contiguous(
        memory_format=lib.channels_last).dim_order(ambiguity_check=True),
    "rank 3": lambda lib: lib.randn(2, 3, 4).contiguous(memory_format=lib.channels_last),
    "rank 3 to": lambda lib: lib.randn(2, 3, 4).to(memory_format=lib.channels_last),
    "rank 4 as 3d": lambda lib: lib.randn(2, 3, 4, 5).contiguous(memory_format=lib.channels_last_3d),
    "empty rank 3": lambda lib: lib.empty(2, 3, 4, memory_format=lib.channels_last),
    "2-d asked": lambda lib: lib.ones(2, 3).is_contiguous(memory_format=lib.channels_last),
    "printed": lambda lib: (repr(lib.channels_last), repr(lib.channels_last_3d)),
    "contiguous preserve_format": lambda lib: lib.randn(2, 3).contiguous(
        memory_format=lib.preserve_format).stride(),
    "contiguous preserve_format copying": lambda lib: lib.randn(2, 3).t().contiguous(
        memory_format=lib.preserve_format),
    "elementwise keeps it": lambda lib: _laid_out(
        lib.randn(2, 3, 4, 5).contiguous(memory_format=lib.channels_last).relu() + 1),
    "cat of channels_last": lambda lib: _laid_out(lib.cat(
        [lib.randn(2, 3, 4, 5).contiguous(memory_format=lib.channels_last)] * 2, 1)),
    "cat of channels_last_3d": lambda lib: _laid_out(lib.cat(
        [lib.randn(2, 3, 4, 5, 6).contiguous(memory_format=lib.channels_last_3d)] * 2, 2)),
    "cat of mixed formats": lambda lib: _laid_out(lib.cat(
        [lib.randn(2, 3, 4, 5).contiguous(memory_format=lib.channels_last),
         lib.randn(2, 3, 4, 5)], 1)),
    "cat with a legacy empty": lambda lib: _laid_out(lib.cat(
        [lib.randn(2, 3, 4, 5).contiguous(memory_format=lib.channels_last), lib.tensor([])], 1)),
    "a module's 4-d parameters": lambda lib: [
        p.stride() for p in lib.nn.Sequential(lib.nn.Conv2d(3, 4, 3), lib.nn.Linear(2, 2))
        .to(memory_format=lib.channels_last).parameters()],
}


@pytest.mark.parametrize("name", MEMORY_FORMATS)
def test_memory_formats_as_torch(name):
    assert outcome(MEMORY_FORMATS[name], mg) == outcome(MEMORY_FORMATS[name], torch)


def _images(lib, *shape, requires_grad=True):
    """A leaf, and it laid out channels-last (3d for volumes): what the ops below take."""
    leaf = lib.randn(*shape, requires_grad=requires_grad)
    return leaf, leaf.to(memory_format=lib.channels_last if len(shape) == 4
                         else lib.channels_last_3d)


def _through(op, *shape):
    return lambda lib: (lambda leaf, x: (op(lib, x), leaf))(*_images(lib, *shape))


# Ops whose result PyTorch lays out in its input's suggested memory format (or, for
# grid_sample, row-major whatever the input): (result, the leaf its gradient reaches).
KEPT_FORMATS = {
    **{f"interpolate {mode}": _through(
        lambda lib, x, mode=mode: lib.nn.functional.interpolate(x, size=(7, 9), mode=mode),
        2, 3, 4, 5) for mode in ("nearest", "nearest-exact", "bilinear", "bicubic", "area")},
    "Upsample align_corners": _through(lambda lib, x: lib.nn.Upsample(
        scale_factor=2, mode="bilinear", align_corners=True)(x), 2, 3, 4, 5),
    **{f"interpolate 3d {mode}": _through(
        lambda lib, x, mode=mode: lib.nn.functional.interpolate(x, scale_factor=2, mode=mode),
        2, 3, 2, 3, 4) for mode in ("nearest", "trilinear")},
    "group_norm": _through(lambda lib, x: lib.nn.functional.group_norm(x, 2), 2, 4, 3, 5),
    "GroupNorm 3d": _through(lambda lib, x: lib.nn.GroupNorm(2, 4)(x), 2, 4, 3, 2, 3),
    "stack 0": _through(lambda lib, x: lib.stack([x, x * 2]), 2, 4, 3, 5),
    "stack 1": _through(lambda lib, x: lib.stack([x, x * 2, x], 1), 2, 4, 3, 5),
    "stack -2": _through(lambda lib, x: lib.stack([x, x * 2], -2), 2, 4, 3, 5),
    "stack last": _through(lambda lib, x: lib.stack([x, x * 2], -1), 2, 4, 3, 5),
    "stack 1x1": _through(lambda lib, x: lib.stack([x, x * 2]), 2, 4, 1, 1),
    "stack C == 1": _through(lambda lib, x: lib.stack([x, x * 2], 1), 2, 1, 3, 5),
    "stack 3d": _through(lambda lib, x: lib.stack([x, x * 2], 2), 2, 4, 2, 3, 2),
    "view to size-1 dims": _through(lambda lib, x: x.view(2, 1, 4, 1, 1), 2, 4, 1, 1),
    "adaptive_avg_pool2d 1": _through(
        lambda lib, x: lib.nn.functional.adaptive_avg_pool2d(x, 1), 2, 4, 3, 5),
    "AdaptiveAvgPool2d (1, 1) of 1x1": _through(
        lambda lib, x: lib.nn.AdaptiveAvgPool2d((1, 1))(x), 2, 4, 1, 1),
    "adaptive_avg_pool3d 1": _through(
        lambda lib, x: lib.nn.functional.adaptive_avg_pool3d(x, 1), 2, 4, 3, 2, 3),
    "adaptive_avg_pool2d 1 of C == 1": _through(
        lambda lib, x: lib.nn.functional.adaptive_avg_pool2d(x, 1), 2, 1, 3, 5),
    **{f"pad {mode}": _through(
        lambda lib, x, mode=mode: lib.nn.functional.pad(x, (1, 2, 2, 1), mode=mode), 2, 4, 3, 5)
       for mode in ("constant", "reflect", "replicate", "circular")},
    "pad cutting": _through(lambda lib, x: lib.nn.functional.pad(x, (-1, 0, 1, 0)), 2, 4, 3, 5),
    "pad 3d reflect": _through(
        lambda lib, x: lib.nn.functional.pad(x, (1,) * 6, mode="reflect"), 2, 4, 3, 2, 3),
    "channel_shuffle": _through(lambda lib, x: lib.nn.functional.channel_shuffle(x, 2), 2, 4, 3, 5),
    "pixel_shuffle": _through(lambda lib, x: lib.nn.functional.pixel_shuffle(x, 2), 2, 8, 3, 5),
    "pixel_unshuffle": _through(lambda lib, x: lib.nn.functional.pixel_unshuffle(x, 2), 2, 2, 4, 6),
    "pixel_shuffle of a volume": _through(
        lambda lib, x: lib.nn.functional.pixel_shuffle(x, 2), 2, 3, 4, 4, 4),
    "max_unpool2d": _through(lambda lib, x: lib.nn.functional.max_unpool2d(
        *lib.nn.functional.max_pool2d(x, 2, return_indices=True), 2), 2, 4, 4, 6),
    "grid_sample": _through(lambda lib, x: lib.nn.functional.grid_sample(
        x, lib.linspace(-1, 1, 2 * 5 * 6 * 2).view(2, 5, 6, 2), align_corners=False), 2, 4, 3, 5),
    "grid_sample of a row-major image": lambda lib: (lambda x: (lib.nn.functional.grid_sample(
        x, lib.linspace(-1, 1, 2 * 5 * 6 * 2).view(2, 5, 6, 2), mode="nearest",
        align_corners=False), x))(lib.randn(2, 4, 3, 5, requires_grad=True)),
}


@pytest.mark.parametrize("name", KEPT_FORMATS)
def test_ops_keep_the_memory_format_as_torch(name):
    """Strides, node, version, both contiguity answers and values as PyTorch's; then the
    gradient a weighted sum sends back to the leaf."""
    said = []
    for lib in (mg, torch):
        lib.manual_seed(0)
        try:
            y, leaf = KEPT_FORMATS[name](lib)
        except RuntimeError as error:
            said.append(("error", str(error)))
            continue
        laid = _laid_out(y) + (y._version,)
        (y * lib.arange(y.numel(), dtype=y.dtype).view(y.shape).sin()).sum().backward()
        said.append((laid, y.detach().numpy().copy(), leaf.grad.numpy().copy()))
    mine, theirs = said
    assert mine[0] == theirs[0]
    if mine[0] == "error":
        assert mine == theirs
        return
    for a, b in zip(mine[1:], theirs[1:]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


TO_MEMORY_FORMAT = {
    "a transposed matrix to contiguous_format": lambda lib: lib.randn(3, 2).t(),
    "channels-last to contiguous_format": lambda lib: lib.randn(2, 4, 3, 3).to(
        memory_format=lib.channels_last),
    "a permuted image to contiguous_format": lambda lib: lib.randn(2, 3, 4, 5).permute(0, 1, 3, 2),
    "C == 1 to channels_last": lambda lib: lib.randn(2, 1, 3, 3),
    "1x1 to channels_last": lambda lib: lib.randn(2, 3, 1, 1),
    "a strided volume to channels_last_3d": lambda lib: lib.randn(2, 3, 4, 5, 6)[:, :, ::2],
    "C == 1 volume to channels_last_3d": lambda lib: lib.randn(2, 1, 2, 3, 3),
}


@pytest.mark.parametrize("name", TO_MEMORY_FORMAT)
def test_to_memory_format_aliases_as_torch(name):
    """x.to(memory_format=fmt) is x itself exactly when fmt is x's suggested format, as
    PyTorch's to_will_alias decides (not when x is contiguous in fmt)."""
    said = []
    for lib in (mg, torch):
        x = TO_MEMORY_FORMAT[name](lib)
        fmt = (lib.contiguous_format if "contiguous_format" in name else
               lib.channels_last_3d if x.dim() == 5 else lib.channels_last)
        y = x.to(memory_format=fmt)
        said.append((y is x, y.stride()))
    assert said[0] == said[1]


def test_as_strided_in_place_as_torch():
    """x.as_strided_: x takes the view's shape and strides (AsStridedBackward1, its version
    moved on), PyTorch's error on a leaf; the gradient added back where the view reads."""
    said = []
    for lib in (mg, torch):
        a = lib.randn(3, 4, requires_grad=True)
        b = lib.randn(3, 4, requires_grad=True)
        z = a * b
        z.as_strided_((2, 2), (1, 2), 1)
        (z * lib.tensor([[1., 2.], [3., 4.]])).sum().backward()
        said.append((outcome(lambda lib: a.as_strided_((2, 2), (1, 2)), lib), z.shape, z.stride(),
                     z.grad_fn.name(), z.grad_fn._saved_size, z.grad_fn._saved_storage_offset,
                     z._version, a.grad.tolist(), b.grad.tolist()))
    assert said[0] == said[1]


def _convolved(lib, dtype, dims, which):
    """A convolution's output strides when its input, its weight or neither is laid out
    channels-last (PyTorch's suggest_memory_format), and its input's gradient's."""
    fmt = lib.channels_last if dims == 2 else lib.channels_last_3d
    conv = lib.nn.functional.conv2d if dims == 2 else lib.nn.functional.conv3d
    x = lib.randn(2, 4, *(5,) * dims).to(dtype)
    w = lib.randn(6, 4, *(3,) * dims).to(dtype)
    x = (x.contiguous(memory_format=fmt) if which == "input" else x).requires_grad_()
    w = w.contiguous(memory_format=fmt) if which == "weight" else w
    y = conv(x, w)
    y.sum().backward() if dtype != lib.float16 else None
    return y.stride(), None if x.grad is None else x.grad.stride()


@pytest.mark.parametrize("which", ["input", "weight", "neither"])
@pytest.mark.parametrize("dims", [2, 3])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_a_convolution_lays_its_output_out_as_torch(dtype, dims, which):
    assert outcome(lambda lib: _convolved(lib, getattr(lib, dtype), dims, which), mg) == \
        outcome(lambda lib: _convolved(lib, getattr(lib, dtype), dims, which), torch)


POOLS = {2: ["MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d", "AdaptiveMaxPool2d"],
         3: ["MaxPool3d", "AvgPool3d", "AdaptiveAvgPool3d", "AdaptiveMaxPool3d"]}


def _pooled(lib, dtype, dims, name):
    """A pooling layer's output (and indices') strides on a channels-last input, and its
    input's gradient's: PyTorch's 2-d kernels and its 3-d max pooling keep the format."""
    fmt = lib.channels_last if dims == 2 else lib.channels_last_3d
    x = lib.randn(2, 4, *(6,) * dims).to(dtype).contiguous(memory_format=fmt).requires_grad_()
    arguments = {"MaxPool": (2,), "AvgPool": (2,), "AdaptiveAvgPool": (3,), "AdaptiveMaxPool": (2,)}
    kind = name[:-2]
    keywords = {"return_indices": True} if "Max" in kind else {}
    y = getattr(lib.nn, name)(*arguments[kind], **keywords)(x)
    strides = [t.stride() for t in (y if isinstance(y, tuple) else (y,))]
    y = y[0] if isinstance(y, tuple) else y
    (y * lib.arange(y.numel()).reshape(y.shape).to(dtype)).sum().backward()
    return strides, x.grad.stride(), x.grad.sum().item()


@pytest.mark.parametrize("dims, name", [(d, n) for d in POOLS for n in POOLS[d]])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_pooling_lays_its_output_out_as_torch(dtype, dims, name):
    assert outcome(lambda lib: _pooled(lib, getattr(lib, dtype), dims, name), mg) == \
        outcome(lambda lib: _pooled(lib, getattr(lib, dtype), dims, name), torch)
