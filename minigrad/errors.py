"""PyTorch's error and warning texts that several modules raise, or that are too long
to read beside their condition.

The texts are PyTorch 2.13's, word for word, because learners paste them into search
engines. A text raised in one place only stays next to its condition (as PyTorch's
``TORCH_CHECK(condition, message)`` does): an argument error in ``rules/arguments.py``,
a shape error in its op. PyTorch raises ``RuntimeError`` for most of them (and
``IndexError`` for bad dimensions), so minigrad does too; the tests compare every text
with PyTorch's (``tests/core``).
"""

from __future__ import annotations

import sys
import warnings

BACKWARD_TWICE = (
    "Trying to backward through the graph a second time (or directly access saved "
    "tensors after they have already been freed). Saved intermediate values of the "
    "graph are freed when you call .backward() or autograd.grad(). Specify "
    "retain_graph=True if you need to backward through the graph a second time or "
    "if you need to access saved tensors after calling backward."
)
INVALID_GRADIENT = ("Function {name} returned an invalid gradient at index {index} - got {got} "
                    "but expected shape compatible with {expected}")
GRADIENT_COUNT = ("function {name} returned an incorrect number of gradients "
                  "(expected {expected}, got {got})")
GRADIENT_FOR_NUMBER = ("function {name} returned a gradient different than None at position "
                       "{i}, but the corresponding forward input was not a Variable")
IMPLICIT_GRAD_SCALAR_ONLY = "grad can be implicitly created only for scalar outputs"
NUM_THREADS_NOT_INT = "set_num_threads expects an int, but got {}"
NUM_THREADS_NOT_POSITIVE = "set_num_threads expects a positive integer"
DETACH_VIEW_INPLACE = (
    "Can't detach views in-place. Use detach() instead. If you are using "
    "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set as True, "
    "gradients are views of DDP buckets, and hence detach_() cannot be called on these "
    "gradients. To fix this error, please refer to the Optimizer.zero_grad() function in "
    "torch/optim/optimizer.py as the solution."
)
EMPTY_INPUTS = "`inputs` argument to `{}()` cannot be empty."  # backward / grad
LEAF_INPLACE = "a leaf Variable that requires grad is being used in an in-place operation."
LEAF_INPLACE_CUSTOM = "a leaf Variable that requires grad has been used in an in-place operation."
DIRTY_NOT_RETURNED = ("Some elements marked as dirty during the forward method were not "
                      "returned as output. The inputs that are modified inplace must all be "
                      "outputs of the Function.")
DIRTY_NOT_INPUT = ("ctx.mark_dirty() received a tensor that was not an input. Only input "
                   "Tensors that have been mutated should be passed to ctx.mark_dirty().")
ONCE_DIFFERENTIABLE = ("trying to differentiate twice a function that was marked with "
                       "@once_differentiable")
VIEW_OF_LEAF_INPLACE = (
    "a view of a leaf Variable that requires grad is being used in an in-place operation."
)


def view_changed_in_place(made: str, producer: str | None, output_nr: int,
                          indirect: bool) -> str:
    """A view that may not be changed in place was (torch's handle_view_on_rebase):
    ``made`` is "no_grad" (made under no_grad, or from such a view: torch cannot tell
    whether the change should be recorded), "inference" (the same, made in inference mode), "custom Function" (an output of one: its
    backward would be overridden) or "multi-output" (an output of unbind, split, ...:
    their one node cannot tell which output changed); ``producer``: the view's own op,
    if it has a node (``Slice``); ``indirect``: its base or another view of it was changed, not itself."""
    changed = "its base or another view of its base has been" if indirect else "is being"
    if made in ("no_grad", "inference") or producer is None:
        prefix = ("A view was created in" if producer is None else
                  f"Output {output_nr} of {producer} is a view of a view which was created in")
        message = (f"{prefix} inference mode and {changed} modified inplace in normal mode."
                   if made == "inference" else
                   f"{prefix} no_grad mode and {changed} modified inplace with grad mode enabled.")
    else:
        message = f"Output {output_nr} of {producer} is a view and {changed} modified inplace."
    if made == "multi-output":
        return message + (
            " This view is the output of a function that returns multiple views. Such "
            "functions do not allow the output views to be modified inplace. You should "
            "replace the inplace operation by an out-of-place one.")
    if made == "custom Function":
        return message + (
            " This view was created inside a custom Function (or because an input was "
            "returned as-is) and the autograd logic to handle view+inplace would override "
            "the custom backward associated with the custom Function, leading to incorrect "
            "gradients. This behavior is forbidden. You can fix this by cloning the output "
            "of the custom Function.")
    block = "inference_mode" if made == "inference" else "no_grad"
    return message + (
        " Given that this use case is ambiguous and error-prone, it is forbidden. You can "
        f"clarify your code by moving both the view and the inplace either both inside the "
        f"{block} block (if you don't want the inplace to be tracked) or both outside (if you "
        "want the inplace to be tracked).")


# (tensors made in torch.inference_mode(), used outside it)
INFERENCE_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
    "`torch.inference_mode()`.")
INFERENCE_INPLACE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
    "clone to get a normal tensor before doing inplace update.See "
    "https://github.com/pytorch/rfcs/pull/17 for more details.")
INFERENCE_VERSION = "Inference tensors do not track version counter."
INFERENCE_REQUIRES_GRAD = (
    "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.")
ONLY_FLOAT_REQUIRES_GRAD = "only Tensors of floating point dtype can require gradients"
ONLY_FLOAT_REQUIRES_GRAD_FACTORY = (
    "Only Tensors of floating point and complex dtype can require gradients"
)
ONLY_FLOAT_REQUIRES_GRAD_SETTER = (
    "only Tensors of floating point and complex dtype can require gradients"
)
NON_LEAF_REQUIRES_GRAD = (
    "you can only change requires_grad flags of leaf variables. If you want to use a "
    "computed variable in a subgraph that doesn't require differentiation use "
    "var_no_grad = var.detach()."
)
NON_LEAF_REQUIRES_GRAD_TRUE = "you can only change requires_grad flags of leaf variables."
GRAD_SIZE = ("attempting to assign a gradient of size '{}' to a tensor of size '{}'. Please "
             "ensure that the gradient and the tensor are the same size")
GRAD_DTYPE = (
    "attempting to assign a gradient with dtype '{}' to a tensor with grad_dtype '{}'. The "
    "gradient must match the tensor's grad_dtype (defaults to the tensor's dtype). You can "
    "set the tensor's grad_dtype attribute with a specific dtype, or None to allow any dtype. "
    "Set grad_dtype with caution. Diverging the dtypes of a tensor and its gradient may break "
    "downstream systems that assume they match.")
NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its "
    ".grad attribute won't be populated during autograd.backward(). If you indeed want "
    "the .grad field to be populated for a non-leaf Tensor, use .retain_grad() on the "
    "non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure you access "
    "the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more "
    "information. (Triggered internally at "
    "/__w/pytorch/pytorch/build/aten/src/ATen/core/TensorBody.h:493.)"
)  # (PyTorch 2.13's text, with the C++ location its warning names)
INTERNAL_OVERLAP = (
    "unsupported operation: more than one element of the written-to tensor refers to a "
    "single memory location. Please clone() the tensor before performing the operation."
)
PARTIAL_OVERLAP = (
    "unsupported operation: some elements of the input tensor and the written-to tensor "
    "refer to a single memory location. Please clone() the tensor before performing the "
    "operation."
)
EXPANDED_WRITE_WARNING = (
    "Use of {op} on expanded tensors is deprecated. Please clone() the tensor before "
    "performing this operation. This also applies to advanced indexing e.g. "
    "tensor[{index}] = {value}"
)
NO_GRAD_FN = "element {index} of tensors does not require grad and does not have a grad_fn"
COPY_CONSTRUCT = (
    "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() "
    "or sourceTensor.detach().clone().requires_grad_(True), rather than "
    "torch.tensor(sourceTensor)."
)
NON_WRITABLE_BUFFER = (
    "The given buffer is not writable, and PyTorch does not support non-writable tensors. This "
    "means you can write to the underlying (supposedly non-writable) buffer using the tensor. "
    "You may want to copy the buffer to protect its data or make it writable before converting "
    "it to a tensor. This type of warning will be suppressed for the rest of this program."
)
LIST_OF_NDARRAYS = (
    "Creating a tensor from a list of numpy.ndarrays is extremely slow. Please consider "
    "converting the list to a single numpy.ndarray with numpy.array() before converting "
    "to a tensor."
)
ONLY_ONE_ELEMENT_TO_SCALAR = "only one element tensors can be converted to Python scalars"
ARG_REDUCE_BOOL = "{}(): does not support bool input"  # argmax / argmin
SCALAR_REQUIRES_GRAD = (
    "Converting a tensor with requires_grad=True to a scalar may lead to unexpected "
    "behavior.\nConsider using tensor.detach() first."
)
NUMPY_REQUIRES_GRAD = (
    "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
)
INDEX_PUT_SHAPE_MISMATCH = (
    "shape mismatch: value tensor of shape {value} cannot be broadcast to indexing result "
    "of shape {target}"
)
VIEW_NOT_COMPATIBLE = (
    "view size is not compatible with input tensor's size and stride (at least one "
    "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
)
CREATE_GRAPH_CYCLE = (
    "Using backward() with create_graph=True will create a reference cycle between the "
    "parameter and its gradient which can cause a memory leak. We recommend using "
    "autograd.grad when creating the graph to avoid this. If you have to use this "
    "function, make sure to reset the .grad fields of your parameters to None after use "
    "to break the cycle and avoid the leak. (Triggered internally at "
    "/__w/pytorch/pytorch/torch/csrc/autograd/engine.cpp:1307.)"
)
ANOMALY_HINT = (
    "Hint: enable anomaly detection to find the operation that failed to compute its "
    "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False)."
)
ANOMALY_HINT_ON = (  # (the same error in anomaly mode, after its warning)
    "Hint: the backtrace further above shows the operation that failed to compute its "
    "gradient. The variable in question was changed in there or anywhere later. Good luck!"
)

# The legacy API of the 2017 tutorials (Variable, size_average=/reduce=).
VARIABLE_VOLATILE = ("volatile was removed and now has no effect. Use `with torch.no_grad():` "
                     "instead.")
LEGACY_REDUCTION = ("size_average and reduce args will be deprecated, please use "
                    "reduction='{}' instead.")

# Devices: what PyTorch says on a CPU-only build.
NO_ACCELERATOR = "Cannot access accelerator device when none is available."
NOT_CUDA = "Invalid device, must be cuda device"
CUDA_GENERATOR = (
    "Cannot get CUDA generator without ATen_cuda library. PyTorch splits its backend into "
    "two shared libraries: a CPU library and a CUDA library; this error has occurred because "
    "you are trying to use some CUDA functionality, but the CUDA library has not been loaded "
    "by the dynamic linker for some reason.  The CUDA library MUST be loaded, EVEN IF you "
    "don't directly use any symbols from the CUDA library! One common culprit is a lack of "
    "-Wl,--no-as-needed in your link arguments; many dynamic linkers will delete dynamic "
    "library dependencies if you don't depend on any of their symbols.  You can check if "
    "this has occurred by using ldd on your binary to see if there is a dependency on "
    "*_cuda.so library."
)
MTIA_NOT_COMPILED = (
    "Torch not compiled with MTIA enabled. Ensure you have `import "
    "mtia.host_runtime.torch_mtia.dynamic_library` in your python src file and include "
    "`//mtia/host_runtime/torch_mtia:torch_mtia` as your target dependency!"
)


def not_compiled(kind: str) -> str:
    """``torch.zeros(2, device="cuda")`` on a CPU-only build."""
    return f"Torch not compiled with {kind.upper()} enabled"


def not_linked(kind: str) -> str:
    """``x.to("mps")`` on a build without that backend."""
    return f"PyTorch is not linked with support for {kind} devices"


def dispatcher_missing(backend: str) -> str:
    """The first two sentences of the dispatcher's error for a missing backend."""
    return (f"Could not run 'aten::empty.memory_format' with arguments from the '{backend}' "
            "backend. This could be because the operator doesn't exist for this backend, or "
            "was omitted during the selective/custom build process (if using custom build).")


def device_arguments(value) -> str:
    """``torch.device(3.5)``: PyTorch's argument parser lists the two signatures."""
    kind = "NoneType" if value is None else type(value).__name__
    return (f"device() received an invalid combination of arguments - got ({kind}), but "
            f"expected one of:\n * (torch.device device)\n      didn't match because some of "
            f"the arguments have invalid types: (!{kind}!)\n * (str type, int index = -1)\n")


def shape_mismatch_error(size_a: int, size_b: int, dim: int) -> RuntimeError:
    return RuntimeError(
        f"The size of tensor a ({size_a}) must match the size of tensor b ({size_b}) "
        f"at non-singleton dimension {dim}"
    )


def dim_out_of_range(dim: int, ndim: int) -> IndexError:
    low, high = (-ndim, ndim - 1) if ndim else (-1, 0)
    return IndexError(
        f"Dimension out of range (expected to be in range of [{low}, {high}], but got {dim})"
    )


def size_str(shape: tuple[int, ...]) -> str:
    """``torch.Size([2, 2])``, as torch prints shapes."""
    return f"torch.Size([{', '.join(str(s) for s in shape)}])"


def gradient_shape_mismatch(index: int, grad_shape, output_shape) -> RuntimeError:
    return RuntimeError(
        f"Mismatch in shape: grad_output[{index}] has a shape of {size_str(grad_shape)} "
        f"and output[{index}] has a shape of {size_str(output_shape)}."
    )


def modified_by_inplace(type_name: str, shape, producer: str | None, output_nr: int,
                        version: int, expected: int, anomaly: bool = False) -> RuntimeError:
    """A tensor saved for backward was changed in place before backward ran
    (``anomaly``: anomaly mode is on, and its warning has shown the forward line)."""
    dims = ", ".join(str(s) for s in shape)
    made_by = f", which is output {output_nr} of {producer}," if producer else ""
    return RuntimeError(
        "one of the variables needed for gradient computation has been modified by an "
        f"inplace operation: [torch.{type_name} [{dims}]]{made_by} is at version "
        f"{version}; expected version {expected} instead. "
        f"{ANOMALY_HINT_ON if anomaly else ANOMALY_HINT}"
    )


_warned_once: set[str] = set()


def not_differentiable(function: str, argument: str) -> str:
    """torch's refusal of a tensor argument with requires_grad that an op has no
    derivative for (nll_loss's weight)."""
    return (f"The function '{function}' is not differentiable with respect to argument "
            f"'{argument}'. This input cannot have requires_grad True.")


_warn_always = [False]  # torch.set_warn_always(True): TORCH_WARN_ONCE warns every time


NOT_WRITABLE_ARRAY = (
    "The given NumPy array is not writable, and PyTorch does not support non-writable "
    "tensors. This means writing to this tensor will result in undefined behavior. You may "
    "want to copy the array to protect its data or make it writable before converting it to "
    "a tensor. This type of warning will be suppressed for the rest of this program. "
    "(Triggered internally at /__w/pytorch/pytorch/torch/csrc/utils/tensor_numpy.cpp:213.)")

# The code of rules/parser.py's wrappers (it adds them): frames a warning's stacklevel does
# not count, so that a warning meant for the caller's line still reaches it.
TRANSPARENT_FRAMES = set()


def warn(message, category=UserWarning, stacklevel: int = 1) -> None:
    """``warnings.warn``, counting no frame of rules/parser.py's wrappers around the public
    functions (PyTorch's C++ warnings name the calling Python line)."""
    frame, level = sys._getframe(1), 1
    for _ in range(stacklevel - 1):
        frame, level = frame.f_back, level + 1
        while frame is not None and frame.f_code in TRANSPARENT_FRAMES:
            frame, level = frame.f_back, level + 1
        if frame is None:
            break
    warnings.warn(message, category, stacklevel=level + 1)


def warn_at_caller(message, category=UserWarning) -> None:
    """A warning at the line that called into minigrad (its first frame outside the kit),
    as PyTorch's C++ warnings name the calling Python line, however deep the kit's own
    calls are."""
    frame, level = sys._getframe(1), 1
    while frame.f_back is not None and frame.f_globals.get("__name__", "").startswith(
            "minigrad"):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level + 1)


def warn_once_at_caller(message: str) -> None:
    """``warn_once`` at the line that called into minigrad (``warn_at_caller``)."""
    if _warn_always[0]:
        warn_at_caller(message)
    elif message not in _warned_once:
        _warned_once.add(message)
        warn_at_caller(message)


def warn_once(message: str, stacklevel: int = 3) -> None:
    """A UserWarning the first time only, like PyTorch's TORCH_WARN_ONCE (every time
    after ``torch.set_warn_always(True)``, which leaves the first time unspent, as
    PyTorch's does)."""
    if _warn_always[0]:
        warn(message, UserWarning, stacklevel=stacklevel)
    elif message not in _warned_once:
        _warned_once.add(message)
        warn(message, UserWarning, stacklevel=stacklevel)


def set_warn_always(b, /) -> None:
    """``torch.set_warn_always``: warnings PyTorch gives once a process, every time."""
    if not isinstance(b, bool):
        raise RuntimeError(f"setWarnOnlyOnce expects a bool, but got {type(b).__name__}")
    _warn_always[0] = b


def is_warn_always_enabled() -> bool:
    return _warn_always[0]
CHOLESKY_DEPRECATED = (
    "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a "
    "future PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\n"
    "L = torch.linalg.cholesky(A)\nand\nU = torch.cholesky(A, upper=True)\nshould be "
    "replaced with\nU = torch.linalg.cholesky(A).mH\nThis transform will produce equivalent "
    "results for all valid (symmetric positive definite) inputs.")
LU_DEPRECATED = (
    "torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex and "
    "will be removed in a future PyTorch release.\nLU, pivots = torch.lu(A, compute_pivots)\n"
    "should be replaced with\nLU, pivots = torch.linalg.lu_factor(A, compute_pivots)\nand\n"
    "LU, pivots, info = torch.lu(A, compute_pivots, get_infos=True)\nshould be replaced with\n"
    "LU, pivots, info = torch.linalg.lu_factor_ex(A, compute_pivots) (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp:2073.)")
LU_SOLVE_DEPRECATED = (
    "torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a "
    "future PyTorch release.\nNote that torch.linalg.lu_solve has its arguments reversed.\n"
    "X = torch.lu_solve(B, LU, pivots)\nshould be replaced with\n"
    "X = torch.linalg.lu_solve(LU, pivots, B) (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp:2230.)")
# out=: "add(): functions with out=... arguments don't support ..." (function's name first).
OUT_REQUIRES_GRAD = (
    "{function}(): functions with out=... arguments don't support automatic differentiation, "
    "but one of the arguments requires grad."
)
OUT_RESIZED = (
    "An output with one or more elements was resized since it had shape {old}, which does not "
    "match the required output shape {new}. This behavior is deprecated, and in a future "
    "PyTorch release outputs will not be resized unless they have zero elements. You can "
    "explicitly reuse an out tensor t by resizing it, inplace, to zero elements with "
    "t.resize_(0). (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
    "Resize.cpp:30.)"
)
RANGE_OUT_RESIZED = (
    "The number of elements in the out tensor of shape {old} is {numel} which does not match "
    "the computed number of elements {count}. Note that this may occur as a result of rounding "
    "error. The out tensor will be resized to a tensor of shape {shape}. (Triggered internally "
    "at /__w/pytorch/pytorch/aten/src/ATen/native/RangeFactories.cpp:199.)"
)
PIN_MEMORY_WITHOUT_ACCELERATOR = (
    "pin_memory=True requires a CUDA or other accelerator backend; no pinned memory allocator "
    "is available on this system."
)
# nll_loss / cross_entropy with class indices
NLL_TARGET_DTYPE = "expected target dtype to be Long or Byte, but got {}"
NLL_WEIGHT_SIZE = ("weight tensor should be defined either for all {} classes or no classes "
                   "but got weight tensor of shape: {}")
NLL2D_WEIGHT_SIZE = "weight tensor should be defined either for all or no classes"
NOT_IMPLEMENTED_FOR = "\"{}\" not implemented for '{}'"  # kernel, dtype ('Long', 'Bool')
# optimizers: PyTorch's implementation switches minigrad does not have
OPTIMIZER_FUSED = ("fused=True: minigrad's optimizers have one implementation (PyTorch's "
                   "for-loop one); leave fused=None")
OPTIMIZER_DIFFERENTIABLE = ("differentiable=True: minigrad's optimizer steps are not "
                            "recorded for autograd; leave differentiable=False")
OPTIMIZER_CAPTURABLE = ("If capturable=True, params and state_steps must be on supported "
                        "devices: ['cuda', 'xpu', 'hpu', 'privateuseone', 'xla'].")
# a tensor hook's result (torch's check_variable_result)
HOOK_RETURNED = "expected Variable, but hook returned '{}'"
HOOK_CHANGED_TYPE = "hook '{}' has changed the type of value (was {} got {})"
HOOK_CHANGED_SIZE = "hook '{}' has changed the size of value"
POST_ACCUMULATE_HOOK_RETURNED = "Tensor post accumulate grad hooks should return None."
# Node hooks (torch.autograd.graph.Node.register_hook / register_prehook)
NODE_HOOK_RETURNED = "expected tuple, but hook returned '{}'"
NODE_HOOK_COUNT = "hook '{}' has returned an incorrect number of values (got {}, but expected {})"
# torch.autograd.graph.saved_tensors_hooks
UNPACK_HOOK_RESULT = ("Output of saved tensor unpack_hook expected to be a Tensor but got "
                      "result of type {}")
SAVED_HOOKS_SET = ("Calling register_hooks on a saved tensor whose hooks have already been set. "
                   "Hint: only one pair of hooks is allowed at a time.")
SAVED_HOOKS_FREED = ("Calling register_hooks on a saved tensor after it has been freed. Saved "
                     "intermediate values of the graph are freed when you call .backward() or "
                     "autograd.grad(). Specify retain_graph=True if you need to backward through "
                     "the graph a second time or if you need to access saved variables after "
                     "calling backward.")
PACK_HOOK_INPLACE = (
    "A saved tensor pack hook is modifying its input in place. Tensors provided as input to "
    "pack hook cannot be modified by in-place operations as this can lead to unexpected "
    "side-effects. Please open an issue if you need to perform in-place operations on the "
    "input to a pack hook."
)
# uint8 tensors as indices (deprecated masks)
UINT8_INDEX = ("indexing with dtype torch.uint8 is now deprecated, please use a dtype "
               "torch.bool instead.")
MASKED_FILL_UINT8 = "masked_fill_ only supports boolean masks, but got mask with dtype unsigned char"


class _LinAlgError(RuntimeError):
    """torch.linalg.LinAlgError (PyTorch's class is ``torch._C._LinAlgError``): a
    singular matrix, a matrix that is not positive-definite. A RuntimeError, as PyTorch's."""


# PyTorch's meta device, for an op whose result's shape depends on the values.
META_NONZERO = ("The register_meta function for torch.nonzero() raises unimplemented by default, "
                "as a correct data-independent implementation does not exist. This "
                "implementation returns a fake value, assuming all elements of the tensor are "
                "non-zero. To enable this registration, please set "
                "'torch.fx.experimental._config.meta_nonzero_assume_all_nonzero' to True.")
META_NO_KERNEL = ("aten::{}: attempted to run this operator with Meta tensors, but there was "
                  "no fake impl or Meta kernel registered. You may have run into this message "
                  "while using an operator with PT2 compilation APIs (torch.compile/"
                  "torch.export); in order to use this operator with those APIs you'll need to "
                  "add a fake impl. Please see the following for next steps:  "
                  "https://pytorch.org/tutorials/advanced/custom_ops_landing_page.html")

# A saved input that was not a leaf, made one by detach_() before backward read it
SAVED_DETACHED_IN_PLACE = ("Trying to use a saved tensor that has been detached in-place, i.e. "
                           "with .detach_().This is not supported, please use out-of-place "
                           "`.detach()` instead")
