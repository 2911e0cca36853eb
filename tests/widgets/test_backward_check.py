"""BackwardCheck, driven from Python: a whole backward pass derived by hand, checked.

The program is the lesson's (and the lecture's) network: an embedding, a linear
layer, tanh, a second linear layer and cross-entropy written out step by step,
in minigrad and in real torch. Derived right, every tensor is exact or close and
the whole graph is marked so; derived wrong in each of the classic ways, the
check says so, where, and why. Autograd's side is the library's own engine,
proven here equal to what the lecture reads with retain_grad() and backward(),
and (in float64) to central finite differences.
"""

from __future__ import annotations

import re
import textwrap

import minigrad
import numpy as np
import pytest

from widgets import BackwardCheck
from widgets.compare import HINT_WIDTH, Clues, _fill, columns, judge
from widget_svg import groups, texts

LIBRARIES = ["minigrad", "torch"]
V, D, BLOCK, HIDDEN, N = 27, 10, 3, 64, 32


def library(name):
    return minigrad if name == "minigrad" else pytest.importorskip("torch")


def network(lib, dtype=np.float32, n=N):
    """The forward pass, one small step per line, from NumPy's generator (the same
    numbers in minigrad and torch)."""
    rng = np.random.default_rng(0)
    X = lib.tensor(rng.integers(0, V, (n, BLOCK)))
    Y = lib.tensor(rng.integers(0, V, n))

    def param(*shape, scale=1.0):
        return lib.tensor((rng.standard_normal(shape) * scale).astype(dtype), requires_grad=True)

    C, W1, b1 = param(V, D), param(D * BLOCK, HIDDEN, scale=0.3), param(HIDDEN, scale=0.1)
    W2, b2 = param(HIDDEN, V, scale=0.1), param(V, scale=0.1)
    t = {"C": C, "W1": W1, "b1": b1, "W2": W2, "b2": b2}
    t["emb"] = C[X]
    t["embcat"] = t["emb"].view(n, -1)
    t["hpre"] = t["embcat"] @ W1 + b1
    t["h"] = lib.tanh(t["hpre"])
    t["logits"] = t["h"] @ W2 + b2
    t["logit_maxes"] = t["logits"].max(1, keepdim=True).values
    t["norm_logits"] = t["logits"] - t["logit_maxes"]
    t["counts"] = t["norm_logits"].exp()
    t["counts_sum"] = t["counts"].sum(1, keepdim=True)
    t["counts_sum_inv"] = t["counts_sum"] ** -1
    t["probs"] = t["counts"] * t["counts_sum_inv"]
    t["logprobs"] = t["probs"].log()
    loss = -t["logprobs"][lib.arange(n), Y].mean()
    order = ["logprobs", "probs", "counts_sum_inv", "counts_sum", "counts", "norm_logits",
             "logit_maxes", "logits", "h", "W2", "b2", "hpre", "W1", "b1", "embcat", "emb", "C"]
    return loss, {name: t[name] for name in order}, X, Y


def by_hand(lib, t, X, Y, n=N):
    """Every gradient, derived as the lecture derives it."""
    with lib.no_grad():
        g = {}
        g["logprobs"] = lib.zeros_like(t["logprobs"])
        g["logprobs"][lib.arange(n), Y] = -1.0 / n
        g["probs"] = (1.0 / t["probs"]) * g["logprobs"]
        g["counts_sum_inv"] = (t["counts"] * g["probs"]).sum(1, keepdim=True)
        g["counts_sum"] = -t["counts_sum"] ** -2 * g["counts_sum_inv"]
        g["counts"] = t["counts_sum_inv"] * g["probs"] + lib.ones_like(t["counts"]) * g["counts_sum"]
        g["norm_logits"] = t["counts"] * g["counts"]
        g["logit_maxes"] = (-g["norm_logits"]).sum(1, keepdim=True)
        g["logits"] = g["norm_logits"] + (t["logits"] == t["logit_maxes"]) * g["logit_maxes"]
        g["h"] = g["logits"] @ t["W2"].T
        g["W2"] = t["h"].T @ g["logits"]
        g["b2"] = g["logits"].sum(0)
        g["hpre"] = (1.0 - t["h"] ** 2) * g["h"]
        g["W1"] = t["embcat"].T @ g["hpre"]
        g["b1"] = g["hpre"].sum(0)
        g["embcat"] = g["hpre"] @ t["W1"].T
        g["emb"] = g["embcat"].view(t["emb"].shape)
        g["C"] = lib.eye(V)[X.view(-1)].T @ g["emb"].view(-1, D)
    return g


# ---- a whole backward, right ----------------------------------------------------------


@pytest.mark.parametrize("name", LIBRARIES)
def test_a_whole_backward_derived_by_hand_is_marked_right_everywhere(name):
    lib = library(name)
    loss, t, X, Y = network(lib)
    check = BackwardCheck(loss, t)
    assert set(check.counts.items()) == {("missing", 17), ("exact", 0), ("close", 0),
                                         ("wrong", 0)}
    grads = by_hand(lib, t, X, Y)
    for tensor_name, grad in grads.items():
        assert check.add(tensor_name, grad).right, check.verdict(tensor_name)
    assert check.passed
    assert check.summary.startswith("All 17 gradients match autograd's")
    counts = check.counts
    # tanh's backward kernel (torch's, and minigrad's as torch's) rounds 1 - h*h once, a
    # hand-written (1 - h**2) * dh twice: from hpre down they are close, not exact
    assert check.verdict("hpre").status == "close" and check.verdict("h").status == "exact"
    assert counts["exact"] + counts["close"] == 17 and counts["close"] > 0
    nodes = groups(check.svg, "node")
    marked = {box: g for box, g in nodes.items()
              if {"exact", "close"} & set(g.get("class").split())}
    assert len(marked) == 17
    for group in marked.values():
        assert texts(group)[-1] in ("✓ exact", "≈ close")
    # nobody's .grad was touched, nothing was retained, and the graph is still there
    assert all(t[p].grad is None for p in ("C", "W1", "b1", "W2", "b2"))
    assert not any(t[k].retains_grad for k in t if not t[k].is_leaf)
    loss.backward()
    assert np.array_equal(np.asarray(t["W2"].grad), np.asarray(grads["W2"]))


@pytest.mark.parametrize("name", LIBRARIES)
def test_autograds_side_is_what_the_lecture_reads_with_retain_grad(name):
    lib = library(name)
    loss, t, _, _ = network(lib)
    check = BackwardCheck(loss, t)
    for tensor in t.values():
        if not tensor.is_leaf:
            tensor.retain_grad()
    loss.backward()
    for tensor_name, tensor in t.items():
        assert np.array_equal(check._expected[tensor_name], np.asarray(tensor.grad)), tensor_name


def test_autograds_side_in_float64_agrees_with_finite_differences():
    loss, t, X, Y = network(minigrad, np.float64, n=4)
    check = BackwardCheck(loss, {"W2": t["W2"], "b1": t["b1"]})

    def f(W2=None, b1=None):
        h = minigrad.tanh(t["embcat"].detach() @ t["W1"].detach() + b1)
        return minigrad.nn.functional.cross_entropy(h @ W2 + t["b2"].detach(), Y).item()

    eps = 1e-6
    for tensor_name in ("W2", "b1"):
        base = {"W2": t["W2"].detach().numpy().copy(), "b1": t["b1"].detach().numpy().copy()}
        numeric = np.zeros_like(base[tensor_name])
        for index in np.ndindex(numeric.shape):
            plus = {k: v.copy() for k, v in base.items()}
            minus = {k: v.copy() for k, v in base.items()}
            plus[tensor_name][index] += eps
            minus[tensor_name][index] -= eps
            numeric[index] = (f(**{k: minigrad.tensor(v) for k, v in plus.items()})
                              - f(**{k: minigrad.tensor(v) for k, v in minus.items()})) / (2 * eps)
        assert np.allclose(check._expected[tensor_name], numeric, rtol=1e-6, atol=1e-9)


# ---- derived wrong: where and why --------------------------------------------------------


@pytest.fixture(params=LIBRARIES)
def derived(request):
    lib = library(request.param)
    loss, t, X, Y = network(lib)
    return lib, BackwardCheck(loss, t), t, by_hand(lib, t, X, Y), Y


def hint(verdict) -> str:
    assert verdict.status == "wrong", verdict
    return verdict.hint or ""


def test_a_missing_sum_is_named_with_the_shape_it_was_broadcast_to(derived):
    lib, check, t, g, Y = derived
    verdict = check.add("b2", g["logits"])  # the gradient of the broadcast result
    assert verdict.given_shape == (32, 27) and verdict.max_diff is None
    assert hint(verdict) == ("b2 is [27], yours is [32, 27], the shape b2 was broadcast to: the "
                             "gradient of a broadcast is a sum. Summed over dim 0, yours is right.")
    verdict = check.add("counts_sum_inv", t["counts"].detach() * g["probs"])
    assert "Summed over dim 1, yours is right" in hint(verdict)


def test_a_lost_keepdim_and_a_reshape_are_told_apart(derived):
    lib, check, t, g, Y = derived
    assert "keep the summed dimension (sum(..., keepdim=True)) or reshape yours with " \
           ".view(32, 1)" in hint(check.add("counts_sum", g["counts_sum"].view(-1)))
    assert hint(check.add("emb", g["embcat"])).startswith(
        "The right numbers in the wrong shape: emb is [32, 3, 10], yours is [32, 30]")


def test_a_transposed_matrix(derived):
    lib, check, t, g, Y = derived
    assert hint(check.add("W2", g["W2"].T)).startswith("Transposed: yours is the gradient of W2.T")


def test_a_flipped_sign_and_the_batch_size(derived):
    lib, check, t, g, Y = derived
    assert hint(check.add("logprobs", -g["logprobs"])).startswith("The sign is flipped")
    said = hint(check.add("logits", g["logits"] * N))
    assert said.startswith("Yours is 32 × autograd's; 32 is the size of dim 0 of logits")
    assert hint(check.add("W1", g["W1"] / N)).startswith("Yours is 1/32 of autograd's")
    assert hint(check.add("h", g["h"] * 3)) == \
        "Yours is 3 × autograd's everywhere: a constant factor is off."


def test_a_tensor_used_twice_with_one_use_forgotten(derived):
    lib, check, t, g, Y = derived
    only_probs = t["counts_sum_inv"].detach() * g["probs"]
    verdict = check.add("counts", only_probs)
    assert hint(verdict) == (
        "Yours is only the gradient from MulBackward0 (probs); counts is used 2 times, and the "
        "gradients from every use add up (+=): add the one from SumBackward1 (counts_sum).")
    assert verdict.where is not None and verdict.max_diff > 1e-3


def test_the_gradient_before_the_local_derivative(derived):
    lib, check, t, g, Y = derived
    assert hint(check.add("hpre", g["h"])) == (
        "Yours is the gradient of h, the one that arrives at TanhBackward0; multiply it by "
        "TanhBackward0's local derivative (y = tanh(x); dy/dx = 1 - tanh(x)**2 = 1 - y**2).")


def test_zeros_nan_and_a_wrong_entry_per_row(derived):
    lib, check, t, g, Y = derived
    assert hint(check.add("probs", lib.zeros_like(g["probs"]))).startswith("Yours is all zeros")
    broken = g["h"].clone()
    broken[3, 4] = float("nan")
    assert hint(check.add("h", broken)).startswith("Yours has nan at [3, 4]")
    rows = g["logits"].clone()
    rows[lib.arange(N), Y] += 1.0 / N  # the one-hot's -1 forgotten: each row's label entry
    assert "one entry in each row (32 of 864)" in hint(check.add("logits", rows))


def test_a_sum_too_many_and_an_unrelated_shape(derived):
    lib, check, t, g, Y = derived
    assert "the gradient of a sum is a broadcast" in hint(check.add("counts", g["counts_sum"]))
    assert hint(check.add("W1", lib.zeros(5))) == (
        "Yours is [5], but W1 is [30, 64]: a gradient always has the shape of its tensor.")


def test_taking_a_gradient_back_and_changing_the_tolerance(derived):
    lib, check, t, g, Y = derived
    check.add("hpre", g["hpre"] * (1 + 1e-6))
    assert check.verdict("hpre").status == "close"
    check.atol = 0
    check.rtol = 1e-9
    assert check.verdict("hpre").status == "wrong"
    assert "The tolerance is now atol=0, rtol=1e-09. 17 tensors: ✓ 0 exact, ≈ 0 close, ✗ 1 " \
           "wrong" in re.sub(r"<[^>]+>", "", check._live.value)
    assert check._tolerance.boxes["rtol"].value == "1e-09"
    check._tolerance.boxes["atol"].value = "ten"
    assert "atol must be a number" in check._tolerance.typo.value and check.atol == 0
    check.add("hpre", None)
    assert check.verdict("hpre").status == "missing"


# ---- what it says, and to whom -----------------------------------------------------------


def test_the_table_and_the_sentences_say_the_same(derived):
    lib, check, t, g, Y = derived
    check.update({"logprobs": g["logprobs"], "probs": -g["probs"]})
    rows = re.findall(r'<tr class="minigrad-verdict (\w+)" data-name="(\w+)">', check._table.value)
    assert rows[:3] == [("exact", "logprobs"), ("wrong", "probs"), ("missing", "counts_sum_inv")]
    assert "atol=1e-08, rtol=1e-05" in re.sub(r"<[^>]+>", "", check._table.value)
    assert check.summary == "17 tensors: ✓ 1 exact, ≈ 0 close, ✗ 1 wrong, ? 15 not yet."
    lines = check.text.splitlines()
    assert lines[0] == check.summary
    assert lines[1] == "logprobs: ✓ exact, every bit equal to autograd's."
    assert lines[2].startswith("probs: ✗ wrong, max diff") and "The sign is flipped" in lines[2]
    assert lines[3] == "counts_sum_inv: ? not derived yet."
    assert 'role="status"' in check._live.value and "probs: ✗ wrong" in check._live.value
    assert repr(check) == "BackwardCheck(17 tensors: 1 exact, 0 close, 1 wrong, 15 not yet)"
    bundle = check._repr_mimebundle_()
    assert "minigrad-verdict" in bundle["text/html"] and "<svg" in bundle["text/html"]


def test_the_drawing_is_laid_out_once_and_marked_by_colour_and_by_text(derived):
    lib, check, t, g, Y = derived

    def boxes():
        nodes = groups(check.svg, "node")
        return {box: (texts(group), group.get("class").split(),
                      [p.get("points") for p in group.iter("{http://www.w3.org/2000/svg}polygon")])
                for box, group in nodes.items()}

    before = boxes()
    check.update({"logits": g["logits"], "h": -g["h"]})
    after = boxes()
    assert {box: v[2] for box, v in before.items()} == {box: v[2] for box, v in after.items()}
    by_name = {v[0][0].split()[0]: v for v in after.values()}
    assert by_name["logits"][0][-1] in ("✓ exact", "≈ close")
    assert by_name["h"][0][-1] == "✗ wrong" and "wrong" in by_name["h"][1]
    assert by_name["W2"][0][-1] == "? not yet" and "missing" in by_name["W2"][1]
    fills = {v[0][0].split()[0]: group for group in groups(check.svg, "node").values()
             for v in [(texts(group),)]}
    polygon = next(fills["h"].iter("{http://www.w3.org/2000/svg}polygon"))
    assert polygon.get("fill") == "#f4cccc" and polygon.get("stroke-width") == "3"
    dashed = next(fills["W2"].iter("{http://www.w3.org/2000/svg}polygon"))
    assert dashed.get("stroke-dasharray") == "5,3"
    assert "AccumulateGrad" in [texts(group)[0] for group in groups(check.svg, "node").values()]


# ---- bad input ------------------------------------------------------------------------


def test_bad_input_gets_a_clear_error_and_changes_nothing(derived):
    lib, check, t, g, Y = derived
    with pytest.raises(KeyError, match=r"no tensor named 'dlogits' \(give the tensor's own "
                                       r"name: 'logits' for its gradient dlogits\)"):
        check.add("dlogits", g["logits"])
    with pytest.raises(TypeError, match="The gradient for h must be a tensor or an array of "
                                        "numbers, got str"):
        check.add("h", "dh")
    assert check.counts["missing"] == 17


@pytest.mark.parametrize("name", LIBRARIES)
def test_what_cannot_be_checked_says_why(name):
    lib = library(name)
    x = lib.ones(3, requires_grad=True)
    data = lib.ones(3)
    y = x * 2
    with pytest.raises(ValueError, match="one number to differentiate .* shape \\[3\\]"):
        BackwardCheck(y, {"x": x})
    with pytest.raises(ValueError, match="needs the output of a graph"):
        BackwardCheck(data.sum(), {"x": x})
    with pytest.raises(ValueError, match="data does not require grad"):
        BackwardCheck(y.sum(), {"x": x, "data": data})
    other = lib.ones(2, requires_grad=True)
    with pytest.raises(ValueError, match="does not depend on other"):
        BackwardCheck(y.sum(), {"x": x, "other": other})
    loss = (y * y).sum()
    loss.backward()
    with pytest.raises(ValueError, match="freed by an earlier backward"):
        BackwardCheck(loss, {"x": x, "y": y})


def test_a_module_names_its_parameters():
    torch = minigrad
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Tanh(), torch.nn.Linear(3, 1))
    loss = model(torch.ones(4, 2)).sum()
    check = BackwardCheck(loss, model)
    assert list(check.verdicts) == ["0.weight", "0.bias", "2.weight", "2.bias"]
    assert check.add("2.bias", torch.tensor([4.0])).status == "exact"


def test_judge_alone_without_a_graph():
    verdict = judge("w", np.array([2.0, 4.0]), np.array([1.0, 2.0]), Clues(shape=(2,)))
    assert verdict.hint == ("Yours is 2 × autograd's: a factor of 2 missing or extra (as in "
                            "d(x²)/dx = 2x)?")
    assert str(verdict).startswith("w               | ✗ wrong    | max diff 2 at [1]")


@pytest.mark.parametrize("name", LIBRARIES)
def test_a_scalar_tensor_and_the_output_itself(name):
    lib = library(name)
    w = lib.tensor(3.0, requires_grad=True)
    s = w * w
    loss = s * 2
    check = BackwardCheck(loss, {"loss": loss, "s": s, "w": w})
    assert check.add("loss", 1.0).status == "exact"
    assert check.add("s", lib.tensor(2.0)).status == "exact"
    verdict = check.add("w", lib.tensor(6.0))  # 2 * 2w = 12: the 2 of w² forgotten
    assert (verdict.status, verdict.where, verdict.yours, verdict.autograd) == (
        "wrong", (), 6.0, 12.0)
    assert str(verdict).startswith("w               | ✗ wrong    | max diff 6 (yours 6, autograd's 12)")
    nodes = groups(check.svg, "node")
    assert texts(nodes["out0"])[-1] == "✓ exact"
    alone = BackwardCheck(loss, {"w": w})
    assert alone.summary == "1 tensor: ✓ 0 exact, ≈ 0 close, ✗ 0 wrong, ? 1 not yet."
    alone.add("w", 12.0)
    assert alone.summary == "The gradient matches autograd's: ✓ 1 exact, ≈ 0 close."


def test_the_colours_lesson_10_names_are_the_colours_drawn():
    """Lesson 10 says which colour goes with which mark; each is the fill drawn."""
    import colorsys
    from pathlib import Path

    import nbformat

    from widgets.backward_check import LOOK

    lesson = Path(__file__).resolve().parents[2] / "notebooks" / "10_backprop_by_hand.ipynb"
    text = " ".join(c.source for c in nbformat.read(lesson, as_version=4).cells
                    if c.cell_type == "markdown").replace("\n", " ")
    said = dict(re.findall(r"\*\*([a-z ]+)\*\* with (✓|≈|✗)", text))
    assert said == {"green": "✓", "pale green": "≈", "red": "✗"}
    status = {"✓": "exact", "≈": "close", "✗": "wrong"}

    def looks(fill):
        r, g, b = (int(fill[i:i + 2], 16) / 255 for i in (1, 3, 5))
        hue, lightness, saturation = colorsys.rgb_to_hls(r, g, b)
        hue *= 360
        name = "green" if 70 <= hue < 170 else "red" if hue < 15 or hue >= 345 else f"hue {hue}"
        return ("pale " if lightness > 0.85 else "") + name

    fill, border = {m: LOOK[status[m]][0] for m in status}, {m: LOOK[status[m]][1] for m in status}
    assert looks(fill[said["green"]]) == "green"
    assert looks(fill[said["pale green"]]) == "pale green"
    assert looks(border[said["red"]]) == "red" and looks(fill[said["red"]]).endswith("red")


def test_what_lesson_10_says_of_torchs_tanh_backward():
    """torch's tanh backward rounds 1 - h*h once (a fused multiply-add): a hand-written
    (1 - h**2) * dh, rounded twice, is close; the same with 1 - h*h rounded once is exact."""
    torch = pytest.importorskip("torch")
    loss, t, X, Y = network(torch)
    g = by_hand(torch, t, X, Y)
    check = BackwardCheck(loss, t)
    assert check.add("hpre", g["hpre"]).status == "close"
    h = t["h"].detach().numpy().astype(np.float64)
    once = (1 - h * h).astype(np.float32)  # h*h is exact in float64: one rounding in all
    assert check.add("hpre", once * g["h"].numpy()).status == "exact"


def test_one_tensor_is_said_in_the_singular():
    torch = minigrad
    """Lesson 10's check of cross-entropy's one-line gradient printed
    'BackwardCheck(1 tensors: ...)'."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    check = BackwardCheck((x * x).sum(), {"x": x})
    assert repr(check) == "BackwardCheck(1 tensor: 0 exact, 0 close, 0 wrong, 1 not yet)"
    assert check.summary.startswith("1 tensor:")


@pytest.mark.parametrize("name", LIBRARIES)
def test_names_label_the_drawing_and_are_not_checked(name):
    # lesson 10's one-line check of cross-entropy: only logits is checked, and its leaves
    # were drawn as "leaf [64, 27]"; names= gives them the first check's names
    lib = library(name)
    loss, t, X, Y = network(lib)
    first = BackwardCheck(loss, t)
    fast = BackwardCheck(lib.nn.functional.cross_entropy(t["logits"], Y),
                         {"logits": t["logits"]}, names=first.tensors)
    assert list(fast.verdicts) == ["logits"]
    nodes = groups(fast.svg, "node")
    titles = {texts(g)[0].split()[0]: texts(g) for g in nodes.values()}
    for leaf in ("W2", "b2", "W1", "b1", "C", "h", "hpre", "embcat", "emb"):
        assert len(titles[leaf]) == 1, titles[leaf]  # named, with no verdict line
    assert "leaf" not in titles
    assert texts(nodes[fast._drawing.boxes["logits"]])[-1] == "? not yet"
    fast.add("logits", lib.autograd.grad(fast.output, t["logits"], retain_graph=True)[0])
    assert fast.passed and fast.verdicts["logits"].status == "exact"


@pytest.mark.parametrize("name", LIBRARIES)
def test_the_outputs_box_is_the_loss_lesson_10_says_it_takes(name):
    """Lesson 10: "BackwardCheck takes the loss"; its box said "output" (audit 18). The
    output's box is called "loss", unless the caller names it."""
    from pathlib import Path

    import nbformat

    lesson = Path(__file__).resolve().parents[2] / "notebooks" / "10_backprop_by_hand.ipynb"
    text = " ".join(c.source for c in nbformat.read(lesson, as_version=4).cells
                    if c.cell_type == "markdown")
    assert "`BackwardCheck` takes the loss" in text
    lib = library(name)
    loss, t, X, Y = network(lib)
    for check, title in ((BackwardCheck(loss, t), "loss"),
                         (BackwardCheck(loss, t, names={"L": loss}), "L"),
                         (BackwardCheck(loss, {**t, "total": loss}), "total")):
        output = next(texts(g) for g in groups(check.svg, "node").values()
                      if "output" in g.get("class").split())
        assert output[0] == title and "output" not in " ".join(output), output


@pytest.mark.parametrize("name", LIBRARIES)
def test_a_partly_wrong_gradient_names_the_entry_that_is_off(name):
    """tanh's gradient at 6 is 2.5e-05: 1e-07 off there is wrong (rtol 1e-05), while the
    largest difference, 1.2e-07 at [0] of 0.79, is within the tolerance. The hint named no
    entry ("Right in 2 of 3 entries; 1 differ.", audit 20), so the learner looked at [0]."""
    lib = library(name)
    x = lib.tensor([0.5, -2.0, 6.0], requires_grad=True)
    y = x.tanh()
    check = BackwardCheck(y.sum(), {"x": x})
    right = 1 - y.detach() ** 2
    verdict = check.add("x", right + 1e-7)
    assert verdict.status == "wrong" and verdict.where != (2,), verdict
    assert verdict.hint.startswith("Right in 2 of 3 entries; 1 differs, at [2] (yours "), verdict


def test_a_verdict_is_kept_on_one_line():
    """In a narrow output "not yet" was drawn over two lines (audit 20)."""
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    table = BackwardCheck((x * x).sum(), {"x": x})._table.value
    verdict = re.search(r'<td style="([^"]*)">not yet</td>', table)
    assert verdict and "white-space:nowrap" in verdict.group(1), table


def test_a_number_in_scientific_notation_is_not_cut_at_its_hyphen():
    """Lesson 10's table said "(atol=1e-" at a line's end and "08, rtol=..." on the next
    (audit 20, Chromium breaks after a hyphen): every such number, in the rule, the
    differences and the sentence read aloud, sits in a span that does not wrap."""
    x = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    check = BackwardCheck((x * x).sum(), {"x": x})
    check.update({"x": 2 * x.detach() + minigrad.tensor([0.0, 0.0, 2e-5])})
    for markup in (check._table.value, check._live.value):
        numbers = re.findall(r"\d(?:\.\d*)?e[+-]\d+", re.sub(r"<[^>]+>", "", markup))
        kept = re.findall(r'<span style="white-space:nowrap">(-?\d[^<]*)</span>', markup)
        assert numbers and len(kept) == len(numbers), (numbers, kept, markup)
        assert all(re.fullmatch(r"-?\d+(?:\.\d*)?e[+-]\d+", k) for k in kept), kept
    assert "atol=<span" in check._table.value


def test_a_chinese_hint_is_wrapped_by_its_width_on_screen():
    """Lesson 10 in Chinese printed a hint line of 88 characters, 150 columns wide (each
    Chinese character takes two): JupyterLab cut it at the output's edge. Lines are counted
    in columns; an English hint is wrapped as textwrap.fill wraps it."""
    hint = ("你的只有来自 MulBackw... 的梯度；counts 被使用了 2 次，每一处传回的梯度要加在一起"
            "（+=）：再加上来自 SumBackward1 (counts_sum) 的梯度。")
    lines = _fill(hint, HINT_WIDTH, "    ").splitlines()
    assert len(lines) == 2 and all(columns(line) <= HINT_WIDTH for line in lines), lines
    assert " ".join(line.strip() for line in lines) == " ".join(hint.split()), lines
    english = ("Yours has only the gradient from MulBackward0; counts is used 2 times, and the "
               "gradients sent back along each use are summed (+=): add the one from "
               "SumBackward1 (counts_sum).")
    assert _fill(english, HINT_WIDTH, "    ") == textwrap.fill(
        english, HINT_WIDTH, initial_indent="    ", subsequent_indent="    ",
        break_long_words=False, break_on_hyphens=False)


def test_two_values_that_differ_are_written_with_the_digits_that_show_it():
    """A close verdict said "yours 6, autograd's 6" of 6.00002 and 6 (4 significant digits,
    audit 21): where the two differ, as many digits as show the difference."""
    close = judge("w", np.array(6.00002), np.array(6.0), Clues(shape=()))
    assert close.status == "close"
    assert "(yours 6.00002, autograd's 6)" in close.sentence(), close.sentence()
    wrong = judge("w", np.array([1.0, 6.00002, 3.0]), np.array([1.0, 6.0, 3.0]), Clues(shape=(3,)),
                  rtol=1e-7)
    assert "at [1] (yours 6.00002, autograd's 6)" in str(wrong), str(wrong)
    assert wrong.hint.endswith("at [1] (yours 6.00002, autograd's 6)."), wrong.hint
    # equal values, and values 4 digits tell apart, keep 4 digits
    assert "(yours 0.25, autograd's 0.5)" in str(
        judge("w", np.array(0.25), np.array(0.5), Clues(shape=())))
