"""Nested arguments as lists of tensors (PyTorch's ``torch.utils._pytree``, in short).

``torch.func`` transforms take and return nests of tuples, lists and dicts (a model's
parameters as a dict, several outputs as a tuple). ``flatten`` lists the leaves in order
and keeps the shape of the nest as a ``Spec``; ``unflatten`` puts leaves back in it.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Spec", "flatten", "unflatten", "broadcast"]


@dataclass(frozen=True)
class Spec:
    """The shape of a nest: its kind (None for a leaf), the dict's keys or the
    namedtuple's class, and the children's specs."""

    kind: type | None
    keys: tuple = ()
    children: tuple = ()

    def __str__(self) -> str:
        return self.show(0)

    def pretty(self) -> str:
        """As PyTorch's treespec_pprint: ``(*, *)``, ``{'w': *}``."""
        if self.kind is None:
            return "*"
        parts = [child.pretty() for child in self.children]
        if self.kind is dict:
            return "{" + ", ".join(f"{k!r}: {p}" for k, p in zip(self.keys, parts)) + "}"
        if self.kind is list:
            return "[" + ", ".join(parts) + "]"
        return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"

    def show(self, indent: int) -> str:
        """As PyTorch's TreeSpec prints: ``TreeSpec(tuple, None, [*,\n  *])``."""
        if self.kind is None:
            return "*"
        keys = list(self.keys) if self.kind is dict else None
        indent += 2
        children = [child.show(indent) for child in self.children]
        inside = children[0] + "," if len(children) > 1 else "".join(children[:1])
        inside += ",".join("\n" + " " * indent + child for child in children[1:])
        return f"TreeSpec({self.kind.__name__}, {keys}, [{inside}])"


def _is_namedtuple(value) -> bool:
    return isinstance(value, tuple) and hasattr(type(value), "_fields")


def flatten(tree) -> tuple[list, Spec]:
    """(the leaves in order, the spec)."""
    if isinstance(tree, dict):
        keys = tuple(tree)
        parts = [flatten(tree[k]) for k in keys]
        return [leaf for leaves, _ in parts for leaf in leaves], Spec(dict, keys,
                                                                      tuple(s for _, s in parts))
    if isinstance(tree, (tuple, list)):
        parts = [flatten(item) for item in tree]
        kind = type(tree) if _is_namedtuple(tree) else (tuple if isinstance(tree, tuple) else list)
        return [leaf for leaves, _ in parts for leaf in leaves], Spec(kind, (),
                                                                      tuple(s for _, s in parts))
    return [tree], Spec(None)


def unflatten(leaves, spec: Spec):
    """The nest ``spec`` describes, with ``leaves`` in it."""
    leaves = iter(leaves)
    return _build(leaves, spec)


def _build(leaves, spec: Spec):
    if spec.kind is None:
        return next(leaves)
    items = [_build(leaves, child) for child in spec.children]
    if spec.kind is dict:
        return dict(zip(spec.keys, items))
    if spec.kind is list:
        return items
    if spec.kind is tuple:
        return tuple(items)
    return spec.kind(*items)  # a namedtuple


def broadcast(prefix, tree) -> list | None:
    """One value per leaf of ``tree`` from ``prefix``, a nest shaped as ``tree`` down to
    some depth whose leaves apply to everything below them (vmap's ``in_dims=(0, None)``
    over ``(params_dict, x)``); None when their structures do not match."""
    if not isinstance(prefix, (tuple, list, dict)):
        return [prefix] * len(flatten(tree)[0])
    spec, prefix_spec = flatten(tree)[1], flatten(prefix)[1]
    if prefix_spec.kind is not spec.kind or len(prefix_spec.children) != len(spec.children) \
            or (spec.kind is dict and set(prefix) != set(tree)):
        return None
    pairs = ([(prefix[k], tree[k]) for k in tree] if isinstance(tree, dict)
             else list(zip(prefix, tree)))
    values = []
    for part, subtree in pairs:
        below = broadcast(part, subtree)
        if below is None:
            return None
        values += below
    return values
