"""Find long runs of the same operations, so big graphs can be drawn small.

``while y.data.norm() < 1000: y = y * 2`` builds a chain of MulBackward0
nodes; an MLP or RNN unrolled over steps repeats a block such as
TanhBackward0 -> AddBackward0 -> MmBackward0. Laying out thousands of nodes
takes Graphviz tens of seconds, and nobody can read the result, so each run
is drawn once, labelled ``MulBackward0 × 10``.

A run is ``count`` consecutive blocks of ``period`` ops (in the graph's
topological order) where every block looks the same: same op names, the
same edges inside the block, the same edges into the next block, and the
same outside nodes (a shared weight), or a leaf of its own (a fresh leaf per
step). Nothing outside the run may point into the middle of it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .adapter import is_leaf_node

__all__ = ["Run", "find_runs"]


@dataclass(frozen=True)
class Run:
    """``ops[start : start + period * count]``: ``count`` copies of a block."""

    start: int
    period: int
    count: int

    def __contains__(self, position: int) -> bool:
        return self.start <= position < self.start + self.period * self.count

    def block_of(self, position: int) -> int:
        return (position - self.start) // self.period


def find_runs(ops: list, parents: dict, min_count: int = 4, max_period: int = 8) -> list[Run]:
    """Runs of at least ``min_count`` repeated blocks in ``ops`` (a topological
    order); ``parents`` maps each node to the list of nodes pointing at it."""
    runs, start = [], 0
    while start < len(ops):
        for period in range(1, max_period + 1):
            count = _count_blocks(ops, start, period, parents)
            if count >= min_count:
                runs.append(Run(start, period, count))
                start += period * count
                break
        else:
            start += 1
    return runs


def _count_blocks(ops, start, period, parents) -> int:
    """How many blocks starting at ``start`` repeat the first one."""
    names = [node.name() for node in ops[start:start + period]]
    pattern, count = None, 1
    while True:
        block = ops[start + (count - 1) * period:start + count * period]
        after = ops[start + count * period:start + (count + 1) * period]
        if len(after) < period or [node.name() for node in after] != names:
            break
        kinds = _edge_kinds(block, after, parents)
        if ("next",) not in {kind[:1] for kind in kinds} or kinds != (pattern or kinds):
            break
        if not all(parent in block or parent in after
                   for node in after for parent in parents[node]):
            break  # something outside the run points into its middle
        pattern, count = kinds, count + 1
    if count > 1 and not _ends_like(ops[start + (count - 1) * period:start + count * period],
                                    pattern, parents):
        count -= 1
    return count


def _edge_kinds(block, after, parents) -> tuple:
    """What each edge of ``block`` points at, in terms that repeat block to block."""
    inside = {node: j for j, node in enumerate(block)}
    following = {node: j for j, node in enumerate(after)}
    kinds = []
    for node in block:
        for child, _ in node.next_functions:
            if child is None:
                kinds.append(("none",))
            elif child in inside:
                kinds.append(("in", inside[child]))
            elif child in following:
                kinds.append(("next", following[child]))
            elif is_leaf_node(child) and len(parents[child]) == 1:
                kinds.append(("own leaf",))
            else:
                kinds.append(("shared", child))  # equal only if the same node
    return tuple(kinds)


def _ends_like(block, pattern, parents) -> bool:
    """The last block's edges match the pattern (its "next" edges leave the run)."""
    kinds = _edge_kinds(block, [], parents)
    return all(want[0] == "next" or have == want for have, want in zip(kinds, pattern))
