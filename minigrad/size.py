"""``torch.Size``: a shape, printed as PyTorch prints it (``torch.Size([5, 5])``)."""

from __future__ import annotations

import numpy as np

from . import errors

__all__ = ["Size"]


class Size(tuple):
    """A shape, printed as PyTorch prints it: ``torch.Size([5, 5])``."""

    def __repr__(self) -> str:
        return errors.size_str(self)

    def numel(self) -> int:
        return int(np.prod(self, dtype=np.int64))

    # (slices, sums and repeats of a Size are Sizes, as in torch)
    def __getitem__(self, index):
        item = tuple.__getitem__(self, index)
        return Size(item) if isinstance(index, slice) else item

    def __add__(self, other):
        if not isinstance(other, tuple):
            raise TypeError(f"can only concatenate tuple (not {type(other).__name__}) to torch.Size")
        return Size(tuple.__add__(self, other))

    def __radd__(self, other):
        return Size(tuple.__add__(other, self))

    def __mul__(self, times):
        return Size(tuple(self) * times)

    __rmul__ = __mul__
