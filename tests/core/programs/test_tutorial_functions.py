"""Whole programs in the style of the tutorials that use the functions added for them
(issue 29 item 4), run on minigrad and on PyTorch 2.13 and compared with ``assert_same_run``:
every printed tensor, graph, gradient, warning and error, to float32 precision.

- nearest neighbours by ``cdist`` and ``topk``, votes counted with ``bincount``/``mode``;
- a bigram table counted with ``index_add_``, its rows normalised, read with ``argmax``,
  ``sort``, ``topk``, ``amax``, ``nonzero`` and ``unique``;
- causal attention with ``einsum``, ``amax`` and ``softmax`` (the mask from ``arange``
  comparisons), trained a few SGD steps;
- an embedding table read with ``index_select``, a one-hot made with ``scatter_``, a
  ``repeat_interleave``/``repeat`` batch, and a loss on ``diag``/``trace``;
- coordinates from ``meshgrid`` stacked with ``hstack``/``vstack``, rolled and rotated.
"""

from __future__ import annotations

import pytest

from programs import assert_same_run


def nearest_neighbours(lib, rec):
    points = rec.leaf([[0.1, 0.2], [1.5, 1.4], [0.0, -0.3], [1.2, 1.6], [-0.2, 0.1]],
                      requires_grad=False)
    labels = lib.tensor([0, 1, 0, 1, 0])
    queries = rec.leaf([[0.2, 0.0], [1.3, 1.2]])
    distances = lib.cdist(queries, points)
    rec.show("distances", distances)
    near = distances.topk(3, largest=False)
    rec.show("nearest", near)
    votes = labels[near.indices]
    rec.show("votes", votes)
    rec.show("counts", lib.stack([lib.bincount(v, minlength=2) for v in votes]))
    rec.show("mode", votes.mode(1))
    loss = near.values.sum()
    loss.backward()
    rec.show("grad of queries", queries.grad)


def bigram_counts(lib, rec):
    words = ["emma", "olivia", "ava", "isabella", "sophia", "mia", "amelia"]
    chars = sorted(set("".join(words)))
    stoi = {c: i + 1 for i, c in enumerate(chars)}
    n = len(chars) + 1
    counts = lib.zeros((n, n), dtype=lib.int32)
    for w in words:
        ids = [0] + [stoi[c] for c in w] + [0]
        first, second = lib.tensor(ids[:-1]), lib.tensor(ids[1:])
        flat = first * n + second
        counts.view(-1).index_add_(0, flat, lib.ones(len(flat), dtype=lib.int32))
    rec.show("counts", counts)
    rec.show("row sums", counts.sum(1, keepdim=True))
    probs = (counts + 1).float()
    probs = probs / probs.sum(1, keepdim=True)
    rec.show("most likely next", probs.argmax(1))
    rec.show("sorted first row", probs[0].sort(descending=True))
    rec.show("top 3 of each", probs.topk(3, dim=1).indices)
    rec.show("amax", probs.amax(1))
    rec.show("nonzero pairs", lib.nonzero(counts > 1))
    rec.show("unique counts", lib.unique(counts, return_counts=True))


def attention_steps(lib, rec):
    lib.manual_seed(0)
    # (float64: in float32 a gradient element that cancels down to 1e-6 prints PyTorch's
    # 4 digits only up to the last bits of its vectorised softmax and bmm)
    x = rec.leaf([[[0.1, 0.4, -0.2, 0.3], [0.5, -0.1, 0.2, 0.0], [-0.3, 0.2, 0.1, 0.6]]],
                 requires_grad=False, dtype="float64")
    wq = rec.leaf([[0.2, -0.1, 0.3, 0.1], [0.5, 0.3, -0.4, 0.2], [-0.6, 0.1, 0.2, 0.7],
                   [0.3, -0.8, 0.4, -0.1]], dtype="float64")
    wk = rec.leaf([[0.1, 0.2, -0.2, 0.05], [-0.3, 0.6, 0.1, 0.4], [0.7, -0.2, 0.5, 0.3],
                   [0.2, 0.4, -0.6, 0.9]], dtype="float64")
    target = rec.leaf([[[0.0, 1.0, 0.0, 0.5]] * 3], requires_grad=False, dtype="float64")
    t = x.shape[1]
    future = lib.arange(t).unsqueeze(0) > lib.arange(t).unsqueeze(1)
    for step in range(3):
        q = lib.einsum("btc,cd->btd", x, wq)
        k = lib.einsum("btc,cd->btd", x, wk)
        scores = lib.einsum("bqd,bkd->bqk", q, k) / 2.0
        scores = scores.masked_fill(future, float("-inf"))
        weights = (scores - scores.amax(-1, keepdim=True)).softmax(-1)
        out = lib.einsum("bqk,bkd->bqd", weights, x)
        loss = ((out - target) ** 2).mean()
        rec.show(f"loss {step}", loss)
        wq.grad = wk.grad = None
        loss.backward()
        rec.show(f"grads {step}", (wq.grad, wk.grad))
        with lib.no_grad():
            wq -= 0.5 * wq.grad
            wk -= 0.5 * wk.grad
    rec.show("weights", weights)


def embeddings_and_one_hot(lib, rec):
    table = rec.leaf([[0.1, 0.2, 0.3], [0.4, -0.5, 0.6], [-0.7, 0.8, 0.9], [1.0, 0.1, -0.2]])
    ids = lib.tensor([2, 0, 2, 3])
    rows = table.index_select(0, ids)
    rec.show("rows", rows)
    one_hot = lib.zeros(4, 4).scatter_(1, ids.unsqueeze(1), 1.0)
    rec.show("one hot", one_hot)
    rec.show("same rows", one_hot @ table)
    batch = rows.repeat_interleave(2, dim=0) + rows.repeat(2, 1)
    rec.show("batch", batch)
    gram = batch @ batch.t()
    loss = gram.diag().sum() - gram.trace() * 0.5 + lib.diag(table[:, :3]).sum()
    rec.show("loss", loss)
    loss.backward()
    rec.show("grad of table", table.grad)
    rec.show("clamped", table.clamp_min(0.0).clamp_max(0.5))
    rec.show("index_fill", table.detach().index_fill(1, lib.tensor([0]), -1.0))


def grids(lib, rec):
    xs, ys = lib.linspace(-1, 1, 3), lib.linspace(0, 1, 2)
    gx, gy = lib.meshgrid(xs, ys, indexing="xy")
    rec.show("grid", (gx, gy))
    points = lib.vstack([gx.flatten(), gy.flatten()]).t()
    rec.show("points", points)
    rec.show("hstack", lib.hstack([gx, gy]))
    rec.show("column_stack", lib.column_stack([gx.flatten(), gy.flatten()]))
    rec.show("rolled", points.roll(1, 0))
    rec.show("rotated", gx.rot90())
    rec.show("outer", lib.outer(xs, ys))
    rec.show("nan_to_num", lib.nan_to_num(lib.log(gy)))
    rec.show("count_nonzero", lib.count_nonzero(gx, dim=0))
    rec.show("logical", lib.logical_and(gx > 0, gy > 0))
    rec.show("logspace", lib.logspace(-3, 0, 4))
    rec.show("searchsorted", lib.searchsorted(xs, lib.tensor([-0.5, 0.0, 2.0])))
    rec.show("unwarned meshgrid", lib.meshgrid(xs, ys)[0])


@pytest.mark.parametrize("program", [nearest_neighbours, bigram_counts, attention_steps,
                                     embeddings_and_one_hot, grids])
def test_program_runs_as_on_torch(program):
    assert_same_run(program)
