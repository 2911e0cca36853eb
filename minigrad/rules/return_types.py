"""``torch.return_types``: the named tuples some functions return (``max(dim)``'s
values and indices, ``sort``'s, ``frexp``'s, ...), which PyTorch makes as structseq types:
printed field by field, their fields read-only, and a missing attribute named with the
type's full name (``'torch.return_types.max' object has no attribute 'foo'``)."""

from __future__ import annotations

import collections

__all__ = ["return_type"]


def return_type(name: str, fields) -> type:
    """The tuple type ``torch.return_types.<name>`` with these fields."""
    fields = tuple(fields)
    full = f"torch.return_types.{name}"

    def __repr__(self):
        return f"{full}(\n" + ",\n".join(f"{field}={value!r}"
                                         for field, value in zip(fields, self)) + ")"

    def __getattr__(self, attribute):  # (only when the attribute is not found)
        raise AttributeError(f"'{full}' object has no attribute '{attribute}'")

    def __setattr__(self, attribute, value):
        raise AttributeError("readonly attribute" if attribute in fields
                             else f"'{full}' object has no attribute '{attribute}'")

    return type(name, (collections.namedtuple(name, fields),), {
        "__slots__": (), "__repr__": __repr__, "__getattr__": __getattr__,
        "__setattr__": __setattr__, "n_fields": len(fields),
        "n_sequence_fields": len(fields), "n_unnamed_fields": 0})
