"""A non-leaf tensor whose array is replaced under the graph by one of another dtype or
shape (``b.data = b.data.half()``, ``b.t_()`` under no_grad, a resized ``out=``).

PyTorch's nodes record the metadata of their outputs once, when made, and its engine
casts each gradient it sends to the metadata of the node it goes to (validate_outputs):
so ``b.grad`` stays float64, and a hook on ``b`` sees float64, though ``b`` now holds
float16. minigrad's nodes check the gradients they send against their inputs' shapes
and dtypes (``Node._input_meta``), read when they are made: once such a replacement
happened, a node made from ``b`` reads the shape and dtype ``b``'s node kept instead.

A tensor a node saved as an input (``c = a * b`` keeps ``b`` for ``a``'s gradient) whose
array ``.data =`` replaces after: PyTorch saves such an input as the tensor itself (not
a copy of its data, SavedVariable's saved_original), so its formula reads the new values
(``b.data = b.data * 2`` doubles ``a.grad``); the formulas on arrays read
``formula_array`` once any ``.data =`` happened.
"""

from __future__ import annotations

__all__ = ["keep_output_meta", "recorded_meta", "forward_input_meta", "note_data_set",
           "formula_array"]

seen = False  # True once a non-leaf's array was replaced (``Node._link`` then asks here)
data_set = False  # True once ``t.data = `` ran (the formulas then read ``formula_array``)


def keep_output_meta(node, output_nr: int, like) -> None:
    """Keep the shape and dtype ``node``'s output ``output_nr`` had when made (``like``:
    its array then), before that tensor's array is replaced by one of another shape or
    dtype (``Tensor._replace_data``); only the first replacement's is kept."""
    global seen
    seen = True
    node.__dict__.setdefault("_kept_output_meta", {}).setdefault(output_nr,
                                                                (like.shape, like.dtype))


def recorded_meta(node, inputs, edges: tuple, meta):
    """``node``'s ``_input_meta`` (``meta``, None for an elementwise op's same shapes
    and dtypes): for an input whose node kept its output's first shape and dtype, that
    one. What forward saw is kept beside it (``forward_input_meta``)."""
    kept = [None if edge is None else edge.__dict__.get("_kept_output_meta", {}).get(output_nr)
            for edge, output_nr in edges]
    if not any(kept):
        return meta
    forward_saw = tuple([None if edge is None else (x._data.shape, x._data.dtype)
                         for x, (edge, _) in zip(inputs, edges)])
    node.__dict__["_forward_input_meta"] = forward_saw
    return tuple([kept_meta or saw for saw, kept_meta in zip(forward_saw, kept)])


def forward_input_meta(node, index: int):
    """The shape and dtype ``node``'s input ``index`` had when forward ran: its
    ``_input_meta``, unless that input's array had been replaced before (then its
    gradient goes on to be cast to what the input was when made). ToCopyBackward0
    converts back to it first, as PyTorch's formula does."""
    seen_by_forward = node.__dict__.get("_forward_input_meta")
    return node._input_meta[index] if seen_by_forward is None else seen_by_forward[index]


def note_data_set() -> None:
    """``t.data = `` ran (``Tensor.data``'s setter): saved inputs may hold another array now."""
    global data_set
    data_set = True


def formula_array(saved):
    """The array a formula reads for ``saved`` (a ``SavedTensor``): the one forward computed
    with, unless ``.data =`` replaced its tensor's array since; then the new one (in the
    dtype forward converted the old one to, if it did)."""
    tensor = saved.tensor
    if tensor is None or tensor._data is saved.source:
        return saved.data
    array = tensor._data
    if saved.data is saved.source or array.shape != saved.data.shape:
        return array
    return array.astype(saved.data.dtype)
