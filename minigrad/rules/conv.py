"""PyTorch's checks on a convolution's and a pooling's arguments, with its texts
("Given groups=1, weight of size [6, 1, 5, 5], expected input[1, 3, 28, 28] to have 1
channels, but got 3 channels instead"), in the order PyTorch makes them."""

from __future__ import annotations

from ..dtypes import C_TYPE_NAMES, SCALAR_NAMES, bool as _BOOL, float16 as _HALF, int64 as _INT64
from ..errors import NOT_IMPLEMENTED_FOR
from ..kernels.conv import output_size

__all__ = ["one_per_dim", "check_dtype", "convolution_kernel", "check_unfold", "check_fold",
           "check_pad", "check_geometry", "check_convolution", "check_conv_transpose", "check_pool",
           "check_adaptive", "check_unpool"]


def _check_weight(x, weight, groups: int) -> None:
    """A convolution's (and a transposed one's) input dims and weight groups, torch's texts."""
    if x.ndim != weight.ndim:
        raise RuntimeError(
            f"Expected {weight.ndim}-dimensional input for {weight.ndim}-dimensional weight "
            f"{_sizes(weight.shape)}, but got {x.ndim}-dimensional input of size "
            f"{_sizes(x.shape)} instead")
    if weight.shape[0] % groups:
        raise RuntimeError(
            f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, "
            f"but got weight of size [{_sizes(weight.shape)}] instead")


def _sizes(shape) -> str:
    return "[" + ", ".join(map(str, shape)) + "]"


# The dtypes each of PyTorch's CPU kernels takes besides the floating ones (its name for
# the kernel, in its error): a convolution any number, pooling fewer.
KERNEL_DTYPES = {
    "slow_conv2d_cpu": "integers", "max_pool2d": "integers", "avg_pool2d": "int64",
    "adaptive_avg_pool2d": "none", "im2col_out_cpu": "bool", "col2im_out_cpu": "bool",
    "max_pool1d_impl": "none", "adaptive_max_pool2d": "none",
    "slow_conv3d_cpu": "integers", "compute_columns3d": "integers",
    "slow_conv_transpose2d_out_cpu": "int64", "slow_conv_transpose3d_out_cpu": "int64",
    "slow_conv_dilated<>": "int64",
    "max_pool3d": "integers", "avg_pool3d_out_frame": "int64, no half",
    "adaptive_avg_pool3d_cpu": "none",
    "adaptive_max_pool3d_cpu": "none", "max_unpool2d": "none", "max_unpool3d": "none",
    "fractional_max_pool2d_out_frame": "none", "fractional_max_pool3d_out_frame": "none",
}


def check_dtype(x, kernel: str) -> None:
    """PyTorch's "\"avg_pool2d\" not implemented for 'Int'" for a dtype its kernel lacks."""
    dtype, takes = x.dtype, KERNEL_DTYPES[kernel]
    if dtype.is_floating_point and not (takes.endswith("no half") and dtype is _HALF) or (
            takes == "integers" and dtype is not _BOOL) or (
            takes.startswith("int64") and dtype is _INT64) or (takes == "bool" and dtype is _BOOL):
        return
    raise NotImplementedError(NOT_IMPLEMENTED_FOR.format(kernel, SCALAR_NAMES[dtype]))


def convolution_kernel(weight, dilation=()) -> str:
    """The name of PyTorch's CPU kernel for a convolution with ``weight`` (in its dtype error):
    a dilated one's takes no integers but int64."""
    if any(d != 1 for d in dilation):
        return "slow_conv_dilated<>"
    if weight.ndim < 5:
        return "slow_conv2d_cpu"
    return "slow_conv3d_cpu" if all(k == 1 for k in weight.shape[2:]) else "compute_columns3d"


def check_pad(x, pad) -> None:
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) > 2 * x.ndim:
        raise RuntimeError(f"Padding length should be less than or equal to two times the input "
                           f"dimension but got padding length {len(pad)} and input of dimension "
                           f"{x.ndim}")


def check_cropping(x, pad) -> None:
    """constant_pad_nd crops with narrow first, for each negative amount (left, then
    right, the last dim first): torch's narrow error for a length below 0."""
    for i in range(len(pad) // 2):
        size = x.shape[x.ndim - 1 - i] if x.ndim > i else 0
        for amount in pad[2 * i:2 * i + 2]:
            if amount < 0:
                size += amount
                if size < 0:
                    raise RuntimeError("narrow(): length must be non-negative.")


def one_per_dim(values, spatial: int) -> tuple:
    """A list of one value for every spatial dim (ATen's expand_param_if_needed)."""
    return tuple(values) * spatial if len(values) == 1 else tuple(values)


def check_geometry(name: str, values, spatial: int) -> None:
    """One value per spatial dim (the weight's dims decide how many)."""
    if len(values) != spatial:
        raise RuntimeError(
            f"expected {name} to be a single integer value or a list of {spatial} values to "
            f"match the convolution dimensions, but got {name}={_sizes(values)}")


def check_convolution(x, weight, bias, stride, padding, dilation, groups) -> None:
    """ATen's convolution checks (Convolution.cpp)."""
    spatial = weight.ndim - 2
    for name, values in (("stride", stride), ("padding", padding), ("dilation", dilation)):
        check_geometry(name, values, spatial)
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError(f"dilation should be greater than zero, but got {_sizes(dilation)}")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if bias is not None and bias.dtype is not x.dtype:  # (before the shapes, as ATen)
        raise RuntimeError(f"Input type ({C_TYPE_NAMES[x.dtype]}) and bias type "
                           f"({C_TYPE_NAMES[bias.dtype]}) should be the same")
    _check_weight(x, weight, groups)
    if x.shape[1] != weight.shape[1] * groups:
        raise RuntimeError(
            f"Given groups={groups}, weight of size {_sizes(weight.shape)}, expected "
            f"input{_sizes(x.shape)} to have {weight.shape[1] * groups} channels, but got "
            f"{x.shape[1]} channels instead")
    if bias is not None and (bias.ndim != 1 or bias.shape[0] != weight.shape[0]):
        raise RuntimeError(
            f"Given weight of size {_sizes(weight.shape)}, expected bias to be 1-dimensional "
            f"with {weight.shape[0]} elements, but got bias of size {_sizes(bias.shape)} instead")
    padded = [n + 2 * p for n, p in zip(x.shape[2:], padding)]
    spans = [d * (k - 1) + 1 for k, d in zip(weight.shape[2:], dilation)]
    if any(n < k for n, k in zip(padded, spans)):
        raise RuntimeError(
            f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). "
            f"Kernel size: ({' x '.join(map(str, spans))}). Kernel size can't be greater than "
            "actual input size")
    _check_empty(x)
    _check_kernel(weight)
    if x.dtype is _BOOL or any(d != 1 for d in dilation):  # (these kernels refuse the
        check_dtype(x, convolution_kernel(weight, dilation))  # input before the weight)
    if x.dtype is not weight.dtype:
        raise RuntimeError(f"expected scalar type {SCALAR_NAMES[x.dtype]} but found "
                           f"{SCALAR_NAMES[weight.dtype]}")


def _check_empty(x) -> None:
    """ATen sends an empty batch or channel dim to its Empty backend; any other empty
    input is refused (a 1-d one named as the 2-d view it computes on)."""
    if x.shape[0] and x.shape[1] and not x.numel():
        shown = x.shape[:2] + (1,) + x.shape[2:] if x.ndim == 3 else x.shape
        raise RuntimeError("Only zero batch or zero channel inputs are supported, but got input "
                           f"shape: {_sizes(shown)}")


def _check_kernel(weight) -> None:
    """The CPU kernels' refusal of a kernel with a size of 0 (a 1-d one named as the 2-d
    view it computes on)."""
    kernel = tuple(weight.shape[2:])
    if 0 not in kernel:
        return
    if len(kernel) == 3:
        raise RuntimeError(f"kernel size should be greater than zero, but got: "
                           f"{' x '.join(map(str, kernel))} (TxHxW)")
    height, width = (1,) + kernel if len(kernel) == 1 else kernel
    raise RuntimeError(f"kernel size should be greater than zero, but got kernel_height: "
                       f"{height} kernel_width: {width}")


def check_output_padding(transposed: bool, output_padding) -> None:
    """A convolution's backward refuses an output_padding without transposed=True (the
    weight term of a transposed convolution's second derivative makes one, in torch too)."""
    if not transposed and any(output_padding):
        raise RuntimeError("output_padding is not supported for non-transposed convolutions; "
                           "got: " + " ".join(str(p) for p in output_padding))


def check_conv_transpose(x, weight, bias, stride, padding, output_padding, dilation,
                         groups) -> None:
    """ATen's checks for a transposed convolution: weight (C_in, C_out / groups, *kernel)."""
    spatial = weight.ndim - 2
    for name, values in (("stride", stride), ("padding", padding), ("dilation", dilation)):
        check_geometry(name, values, spatial)
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    _check_weight(x, weight, groups)
    if x.shape[1] != weight.shape[0]:
        raise RuntimeError(
            f"Given transposed=1, weight of size {_sizes(weight.shape)}, expected "
            f"input{_sizes(x.shape)} to have {weight.shape[0]} channels, but got "
            f"{x.shape[1]} channels instead")
    if bias is not None and (bias.ndim != 1 or bias.shape[0] != weight.shape[1] * groups):
        raise RuntimeError(
            f"Given transposed=1, weight of size {_sizes(weight.shape)}, expected bias to be "
            f"1-dimensional with {weight.shape[1] * groups} elements, but got bias of size "
            f"{_sizes(bias.shape)} instead")
    _check_empty(x)
    _check_kernel(weight)
    sizes = [(n - 1) * s - 2 * p + d * (k - 1) + o + 1 for n, s, p, d, k, o in zip(
        x.shape[2:], stride, padding, dilation, weight.shape[2:], output_padding)]
    if x.numel() and any(n <= 0 for n in sizes):
        given = ([1] if spatial == 1 else []) + list(x.shape[2:])
        raise RuntimeError(f"Given input size per channel: ({' x '.join(map(str, given))}). "
                           f"Calculated output size per channel: "
                           f"({' x '.join(map(str, ([1] if spatial == 1 else []) + sizes))}). "
                           "Output size is too small")
    if bias is not None and bias.dtype is not x.dtype:
        raise RuntimeError(f"Input type ({C_TYPE_NAMES[x.dtype]}) and bias type "
                           f"({C_TYPE_NAMES[bias.dtype]}) should be the same")
    if x.dtype is not weight.dtype:
        raise RuntimeError(f"expected scalar type {SCALAR_NAMES[x.dtype]} but found "
                           f"{SCALAR_NAMES[weight.dtype]}")
    if any(o >= s and o >= d for o, s, d in zip(output_padding, stride, dilation)):
        names = ("depth", "height", "width")[-spatial:]
        parts = [f"{what}_{name}: {v}" for what, values in (
            ("output_padding", output_padding), ("stride", stride), ("dilation", dilation))
            for name, v in zip(names, values)]
        raise RuntimeError("output padding must be smaller than either stride or dilation, but "
                           "got " + " ".join(parts))


def check_max_pool1d(x, kernel: int, stride: int, padding: int, dilation: int,
                     ceil_mode: bool) -> None:
    """ATen's max_pool1d checks (its own 1-d kernel: no indices asked for)."""
    if not (x.ndim == 2 and x.shape[0] and x.shape[1] or x.ndim == 3 and x.shape[1] and x.shape[2]):
        raise RuntimeError("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim "
                           f"batch size for input, but got:{_sizes(x.shape)}")
    for name, value, low in (("kernel_size", kernel, 1), ("stride", stride, 1),
                             ("padding", padding, 0)):
        if value < low:
            raise RuntimeError(f"max_pool1d() {name} must be "
                               f"{'non-negative' if low == 0 else 'greater than zero'}, "
                               f"but got {value}")
    if padding > kernel // 2:
        raise RuntimeError("max_pool1d() padding should be at most half of kernel size, but got "
                           f"padding={padding} and kernel_size={kernel}")
    if dilation <= 0:
        raise RuntimeError(f"max_pool1d() dilation must be greater than zero, but got {dilation}")
    out = output_size(x.shape[-1], kernel, stride, padding, dilation, ceil_mode)
    if out <= 0:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {out}")


def check_pool(x, kernel, stride, padding, dilation, ceil_mode, kind: str = "max") -> None:
    """ATen's pool2d_shape_check and pool3d_shape_check (Pool.h), for max (with dilation)
    and avg pooling (which reads the channels, dim -3, first); 2 or 3 spatial dims, the
    length of ``kernel``."""
    spatial = len(kernel)
    if kind == "avg" and spatial == 2 and x.ndim < 3:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-max(x.ndim, 1)}, "
                         f"{max(x.ndim, 1) - 1}], but got -3)")
    if any(s == 0 for s in stride) or any(k == 0 for k in kernel):
        raise RuntimeError("stride should not be zero")
    if any(d <= 0 for d in dilation):
        names = " ".join(f"dilation{n}: {d}" for n, d in zip("THW"[-spatial:], dilation))
        raise RuntimeError(f"dilation should be greater than zero, but got {names}")
    if x.ndim not in (spatial + 1, spatial + 2):
        raise RuntimeError(f"non-empty {spatial + 1}D or {spatial + 2}D (batch mode) tensor "
                           "expected for input")
    for k, p, d in zip(kernel, padding, dilation):  # (pooling_output_shape's, before
        if p > (d * (k - 1) + 1) // 2:                # the shape checks)
            raise RuntimeError(
                f"pad should be at most half of effective kernel size, but got pad={p}, "
                f"kernel_size={k} and dilation={d}")
    if any(n == 0 for n in x.shape[-spatial - 1:]):
        if spatial == 2:
            raise RuntimeError("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch "
                               f"size for input, but got:{_sizes(x.shape)}")
        name = ("max_pool3d_with_indices_out_cpu_template()" if kind == "max" else
                "avg_pool3d()")
        raise RuntimeError(f"{name}: Expected input's non-batch dimensions to have positive "
                           f"length, but input has a shape of {_sizes(x.shape)} and non-batch "
                           "dimension 0 has length zero!")  # (PyTorch's text says 0, always)
    size = x.shape[-spatial:]
    if kind == "avg" and spatial == 3 and any(n < k for n, k in zip(size, kernel)):
        raise RuntimeError(f"input image (T: {size[0]} H: {size[1]} W: {size[2]}) smaller than "
                           f"kernel size (kT: {kernel[0]} kH: {kernel[1]} kW: {kernel[2]})")
    out = [output_size(*args, ceil_mode) for args in zip(size, kernel, stride, padding,
                                                         dilation)]
    if any(o < 1 for o in out):
        channels = x.shape[-spatial - 1]
        raise RuntimeError(f"Given input size: ({'x'.join(map(str, (channels, *size)))}). "
                           f"Calculated output size: ({'x'.join(map(str, (channels, *out)))}). "
                           "Output size is too small")


def check_unpool(x, indices, size) -> None:
    """ATen's checks of max_unpool2d / 3d's input and indices (MaxUnpooling.cpp), for an
    output of spatial ``size``."""
    spatial = len(size)
    if indices.dtype is not _INT64:
        raise RuntimeError("elements in indices should be type int64" + (
            f" but got: {SCALAR_NAMES[indices.dtype]}" if spatial == 2 else ""))
    if x.ndim not in (spatial + 1, spatial + 2):
        raise RuntimeError(f"Input to max_unpooling{spatial}d should be a {spatial + 1}d or "
                           f"{spatial + 2}d Tensor, but got a tensor with {x.ndim} dimensions.")
    if tuple(x.shape) != tuple(indices.shape):
        raise RuntimeError(f"Expected shape of indices to be same as that of the input tensor "
                           f"({_sizes(x.shape)}) but got indices tensor with shape: "
                           f"{_sizes(indices.shape)}")
    check_dtype(x, f"max_unpool{spatial}d")
    plane = 1
    for n in size:
        plane *= n
    bad = indices._data[(indices._data < 0) | (indices._data >= plane)]
    if bad.size:
        raise RuntimeError(f"Found an invalid max index: {bad.ravel()[-1]} (output volumes are "
                           f"of size {'x'.join(map(str, size))})")


def check_adaptive(x, output_size, kind: str = "avg") -> None:
    """ATen's checks of adaptive pooling's input dims (2 or 3 spatial dims, the length of
    ``output_size``)."""
    spatial = len(output_size)
    if x.ndim not in (spatial + 1, spatial + 2):
        colon = ":" if kind == "max" else ""
        raise RuntimeError(f"adaptive_{kind}_pool{spatial}d(): Expected {spatial + 1}D or "
                           f"{spatial + 2}D tensor, but got{colon} {_sizes(x.shape)}")
    # (2-d average pooling checks only the spatial dims; the others every dim after the first)
    check_adaptive_empty(x, f"adaptive_{kind}_pool{spatial}d()",
                         x.ndim - 2 if kind == "avg" and spatial == 2 else 1)


def check_adaptive_empty(x, name: str, first: int) -> None:
    """ATen's refusal of an empty dim from ``first`` on (adaptive pooling)."""
    for dim in range(first, x.ndim):
        if x.shape[dim] == 0:
            raise RuntimeError(f"{name}: Expected input to have non-zero size for non-batch "
                               f"dimensions, but input has sizes {_sizes(x.shape)} with "
                               f"dimension {dim} being empty")


def _check_positive(kernel, dilation, padding, stride) -> None:
    """ATen's checks shared by im2col and col2im (Im2Col.cpp's im2col_shape_check)."""
    if any(k <= 0 for k in kernel):
        raise RuntimeError(f"kernel size should be greater than zero, but got kernel_height: "
                           f"{kernel[0]} kernel_width: {kernel[1]}")
    if any(s <= 0 for s in stride):
        raise RuntimeError(f"stride should be greater than zero, but got stride_height: "
                           f"{stride[0]} stride_width: {stride[1]}")
    if any(d <= 0 for d in dilation):
        raise RuntimeError(f"dilation should be greater than zero, but got dilation_height: "
                           f"{dilation[0]} dilation_width: {dilation[1]}")
    if any(p < 0 for p in padding):
        raise RuntimeError(f"padding should be non-negative, but got pad_height: {padding[0]} "
                           f"pad_width: {padding[1]}")


def check_unfold(x, kernel, dilation, padding, stride) -> None:
    if x.ndim < 3:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-max(x.ndim, 1)}, "
                         f"{max(x.ndim, 1) - 1}], but got {x.ndim})")
    _check_positive(kernel, dilation, padding, stride)
    if x.ndim not in (3, 4) or 0 in x.shape[-3:]:
        raise RuntimeError(f"Expected 3D or 4D (batch mode) tensor with possibly 0 batch size "
                           f"and other non-zero dimensions for input, but got: {_sizes(x.shape)}")
    out = [output_size(*args) for args in zip(x.shape[-2:], kernel, stride, padding, dilation)]
    if any(o < 1 for o in out):
        raise RuntimeError(
            f"Given input with spatial size ({x.shape[-2]}, {x.shape[-1]}), kernel_size="
            f"({kernel[0]}, {kernel[1]}), dilation=({dilation[0]}, {dilation[1]}), padding="
            f"({padding[0]}, {padding[1]}), calculated shape of the array of sliding blocks as "
            f"({out[0]}, {out[1]}), but its components must be at least one.")


def check_fold(cols, size, kernel, dilation, padding, stride) -> None:
    _check_positive(kernel, dilation, padding, stride)
    if cols.ndim not in (2, 3):
        raise RuntimeError(f"Expected 2D or 3D (batch mode) tensor for input with possibly 0 "
                           f"batch size and non-zero dimensions for input, but got: "
                           f"{_sizes(cols.shape)}")
    out = [output_size(*args) for args in zip(size, kernel, stride, padding, dilation)]
    if cols.shape[-1] != out[0] * out[1]:
        raise RuntimeError(
            f"Given output_size=({size[0]}, {size[1]}), kernel_size=({kernel[0]}, {kernel[1]}), "
            f"dilation=({dilation[0]}, {dilation[1]}), padding=({padding[0]}, {padding[1]}), "
            f"stride=({stride[0]}, {stride[1]}), expected size of input's dimension "
            f"{cols.ndim - 1} to match the calculated number of sliding blocks {out[0]} * "
            f"{out[1]} = {out[0] * out[1]}, but got input.size({cols.ndim - 1})="
            f"{cols.shape[-1]}.")
    if cols.shape[-2] % (kernel[0] * kernel[1]):
        raise RuntimeError(
            f"Expected size of input's dimension {cols.ndim - 2} to be divisible by the product "
            f"of kernel_size, but got input.size({cols.ndim - 2})={cols.shape[-2]} and "
            f"kernel_size=({kernel[0]}, {kernel[1]})")


def fractional_sizes(value, spatial: int, what: str) -> tuple:
    """A kernel or output size of fractional max pooling: one int for every spatial dim, or
    one per dim (ATen's IntArrayRef of ``spatial`` ints, with its text)."""
    sizes = (value,) * spatial if isinstance(value, int) else tuple(value)
    if len(sizes) != spatial:
        ints = "tuple of Ints" if spatial == 2 else "tuple of three Ints"
        raise RuntimeError(f"fractional_max_pool{spatial}d: {what} must either be a single Int "
                           f"or {ints}")
    return sizes


def check_fractional_max_pool(x, kernel_size, output_size, samples) -> None:
    """ATen's checks of fractional max pooling, in its order: the input's dims (none empty but
    the batch), each window inside the input, then the samples: the input's dtype, 3 dims,
    one row per batch element and per channel, one sample per spatial dim."""
    spatial = len(kernel_size)
    name = f"fractional_max_pool{spatial}d" + ("()" if spatial == 2 else "_out()")
    if x.ndim not in (spatial + 1, spatial + 2):
        raise RuntimeError(f"{name}: Expected {spatial + 1}D or {spatial + 2}D tensor, but got: "
                           f"{_sizes(x.shape)}")
    for dim in range(1, x.ndim):
        if x.shape[dim] == 0:
            raise RuntimeError(f"{name}: Expected input to have non-zero size for non-batch "
                               f"dimensions, but got{_sizes(x.shape)} with dimension {dim} being "
                               "empty.")
    names = ("height", "width") if spatial == 2 else ("time", "width", "height")
    for label in names:
        d = {"time": 0, "height": spatial - 2, "width": spatial - 1}[label]
        size = x.shape[x.ndim - spatial + d]
        if output_size[d] + kernel_size[d] - 1 > size - (spatial == 3):
            raise RuntimeError(f"{name}: pool {label} {kernel_size[d]} too large relative to "
                               f"input {label} {size}")
    if samples.dtype is not x.dtype:
        raise RuntimeError("Expect _random_samples to have the same dtype as input")
    if samples.ndim != 3:
        raise RuntimeError(f"Expect _random_samples to have 3 dimensions, got {samples.ndim}")
    batch = x.shape[0] if x.ndim == spatial + 2 else 1
    if samples.shape[0] < batch:
        raise RuntimeError("Expect _random_samples.size(0) no less then input batch size.")
    if samples.shape[1] != x.shape[-spatial - 1]:
        raise RuntimeError("Expect _random_samples.size(1) equals to input channel size.")
    if samples.shape[2] != spatial:
        raise RuntimeError(f"Expect _random_samples.size(2) equals to {spatial}; got "
                           f"{samples.shape[2]}.")
    check_dtype(x, f"fractional_max_pool{spatial}d_out_frame")
