"""Random programs over autograd's machinery (``semantic_programs.py``: views and in-place
writes, hooks, grad modes, the backward/grad API, custom Functions) run under PyTorch 2.13
and minigrad, compared after every step: result or error (type and text), warnings, what
the hooks saw, and every tensor made so far (values, grad_fn, requires_grad, is_leaf,
version, .grad). The differences not fixed are listed in KNOWN, checked to still differ;
below, one regression test per fix the generator led to, each asking torch."""

from __future__ import annotations

import warnings

import pytest
import torch

import minigrad
from semantic_programs import one_program

# seed -> why it still differs (each is checked to differ still, below)
KNOWN = {
    413: "torch's gradients are views made in no_grad mode (SumBackward0 expands), so "
         "writing into one with grad mode on is torch's no_grad-view error; minigrad's "
         "are plain tensors and it refuses the expanded write",
}
# found beyond the seeds run here, not fixed: 1526, 10363, 10383 (t.data = an inference
# tensor makes t one in torch, whose ops then record nothing; its repr may even raise);
# 11715 (an in-place shape change in inference mode leaves torch's AccumulateGrad
# with the old shape); 2158 (float32 matmul's last bits: BLAS order); 3231, 2546 (float32 exp
# and sin last bits, then a cancellation shows in print); 3257 (NumPy's float32 tanh gives
# 0.99999994 for 9.011 <= x < 10 where torch's, and the correctly rounded value, is 1);
# 290, 4766 (retain_grad() then unsqueeze_(): torch's retains_grad stays
# True, its gradient still the old node's; minigrad's says False); session 11 ran
# 30,000-32,000: two parted, both of the kinds above: 30817 (t.data = an inference tensor,
# torch's repr raises), 31817 (a gradient from autograd.grad written in place: torch's is
# a view made in no_grad mode, as 413)

# 1,200 programs, about 30 s on one core
BLOCKS = list(range(0, 1200, 100))


@pytest.mark.parametrize("start", BLOCKS)
def test_semantic_programs_agree_with_torch(start):
    parted = {}
    for seed in range(start, start + 100):
        if seed in KNOWN:
            continue
        problems = one_program(seed)
        if problems:
            parted[seed] = problems
    assert parted == {}


@pytest.mark.parametrize("seed", sorted(KNOWN))
def test_known_differences_still_differ(seed):
    """A KNOWN entry that agrees now is a fix to take off the list."""
    assert one_program(seed), KNOWN[seed]


# Seeds beyond the blocks that parted and agree since a fix (session 22: 44158, a copy_ into
# an expanded view's .data from the view itself, which torch skips as the same data).
FIXED = [44158]


def test_fixed_seeds_agree_with_torch():
    parted = {seed: problems for seed in FIXED if (problems := one_program(seed))}
    assert parted == {}


# ---- regressions: what the generator found, each against torch ---------------------------

def both(fn):
    """``fn(lib)`` under torch and minigrad: results, or (error type, text)."""
    out = []
    for lib in (torch, minigrad):
        try:
            out.append(fn(lib))
        except Exception as e:  # noqa: BLE001 (compared)
            out.append((type(e).__name__, str(e)))
    return out


def agree(fn):
    theirs, ours = both(fn)
    assert ours == theirs
    return theirs


def test_materialize_grads_with_allow_unused_false_is_refused_first():
    def run(lib):
        x = lib.ones(3, requires_grad=True)
        return lib.autograd.grad(x.sum(), [x, lib.ones(2, requires_grad=True)],
                                 allow_unused=False, materialize_grads=True)
    assert agree(run)[0] == "ValueError"


def test_inference_tensors_have_no_version():
    def run(lib):
        with lib.inference_mode():
            t = lib.ones(2) * 2
        return t._version
    assert agree(run)[0] == "RuntimeError"


def test_enable_grad_inside_inference_mode_records_nothing():
    def run(lib):
        x = lib.ones(3, requires_grad=True)
        with lib.inference_mode():
            with lib.enable_grad():
                y = x * 2
                shown = lib.is_grad_enabled()
        return y.requires_grad, y.grad_fn is None, y.is_inference(), shown, lib.is_grad_enabled()
    assert agree(run) == (False, True, True, True, True)


def _dirty(lib):
    class Double(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2
    return Double


def test_mark_dirty_makes_the_input_the_output_and_moves_its_version():
    def run(lib):
        Double = _dirty(lib)
        x = lib.ones(3, requires_grad=True)
        y = x * 1
        z = Double.apply(y)
        seen = [z is y, y._version, type(y.grad_fn).__name__]
        v = y[:2]
        w = Double.apply(v)
        seen += [w is v, v.grad_fn.name(), y.grad_fn.name(), y.grad_fn.next_functions[0][0].name()]
        y.sum().backward()
        return seen + [x.grad.tolist()]
    assert agree(run)[-1] == [4.0, 4.0, 2.0]


def test_mark_dirty_on_a_leaf_that_requires_grad():
    def run(lib):
        x = lib.ones(3, requires_grad=True)
        try:
            _dirty(lib).apply(x)
        except RuntimeError as e:
            error = str(e)
        with lib.no_grad():
            _dirty(lib).apply(x)
        return error, x._version, x.tolist()
    assert agree(run)[1] == 4


def test_once_differentiable_and_setup_context():
    def run(lib):
        class Square(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            @lib.autograd.function.once_differentiable
            def backward(ctx, g):
                x, = ctx.saved_tensors
                return g * 2 * x

        class Scale(lib.autograd.Function):
            @staticmethod
            def forward(x, k):
                return x * k

            @staticmethod
            def setup_context(ctx, inputs, output):
                ctx.k = inputs[1]

            @staticmethod
            def backward(ctx, g):
                return g * ctx.k, None
        x = lib.ones(3, requires_grad=True)
        g, = lib.autograd.grad(Square.apply(x * 1), x, lib.ones(3, requires_grad=True),
                               create_graph=True)
        seen = [repr(g), g.grad_fn.next_functions[0][0].name()]
        try:
            g.sum().backward()
        except RuntimeError as e:
            seen.append(str(e))
        y = Scale.apply(x, 3.0)
        y.sum().backward()
        return seen + [repr(y), x.grad.tolist()]
    agree(run)


def test_data_and_detach_in_inference_mode_are_normal_tensors():
    def run(lib):
        x = lib.ones(3, requires_grad=True) * 1
        with lib.inference_mode():
            d, e, v = x.data, x.detach(), x.view(3)
            made = [d.is_inference(), e.is_inference(), v.is_inference()]
        return made + [d._version, e._version]
    agree(run)


def test_a_view_made_in_inference_mode_then_written_through_its_base():
    def run(lib):
        x = lib.ones(3, requires_grad=True) * 1
        with lib.inference_mode():
            with lib.enable_grad():
                v = x[..., :1]
            a = x.as_strided((2,), (1,))
        x.detach().add_(1)
        seen = []
        for f in (lambda: v.grad_fn, lambda: a.chunk(2)[1].mul_(2)):
            try:
                f()
            except RuntimeError as e:
                seen.append(str(e))
        return seen
    assert len(agree(run)) == 2


def test_copy_of_a_tensor_into_itself_and_materialized_grads_under_create_graph():
    def run(lib):
        e = lib.zeros(1, 3).expand(2, 3)
        e.copy_(e)
        x = lib.ones(3, requires_grad=True)
        g = lib.autograd.grad((x * 2).sum(), [x, lib.ones(2, requires_grad=True)],
                              materialize_grads=True, create_graph=True)
        return e._version, repr(g)
    agree(run)


def test_too_many_indices_come_before_a_changed_views_error():
    def run(lib):
        a = lib.ones(4, requires_grad=True) * 1
        p = a.unbind()[2]
        with lib.no_grad():
            p.mul_(2)
        return p[..., :1]
    assert agree(run)[0] == "IndexError"


def test_mark_dirty_on_views_edges_first_then_forward():
    def run(lib):
        Double = _dirty(lib)
        seen = []
        for make in (lambda: (lib.ones(3, 2, requires_grad=True) * 1).split(1)[1],
                     lambda: lib.ones(3, requires_grad=True)[1:]):
            v = make()
            try:
                Double.apply(v)
            except RuntimeError as e:
                seen.append((str(e), v._version))
        return seen
    assert len(agree(run)) == 2


def test_retain_grad_on_a_view_of_a_leaf_made_in_inference_mode():
    def run(lib):
        x = lib.ones(2, 2, requires_grad=True)
        with lib.inference_mode():
            with lib.enable_grad():
                d = x.diagonal()
        d.retain_grad()
        return d.requires_grad, d.is_leaf, d.retains_grad
    agree(run)


def _broken_split_view(lib):
    """An output of split whose base was changed through another output (in no_grad)."""
    a = lib.ones(3, 2, requires_grad=True) * 1
    parts = a.split(1)
    with lib.no_grad():
        parts[0].mul_(2)
    return parts[1]


def test_requires_grad_and_saved_hooks_on_a_changed_multi_output_view():
    def run(lib):
        p = _broken_split_view(lib)
        packed = []
        seen = [p.requires_grad_(True).shape]
        with lib.autograd.graph.saved_tensors_hooks(lambda t: packed.append(1) or t, lambda t: t):
            try:
                p.sin()
            except RuntimeError as e:
                seen.append(str(e))
        return seen + [len(packed)]
    assert agree(run)[-1] == 0


def test_a_retained_gradient_is_kept_when_the_node_then_fails():
    def run(lib):
        x = lib.ones(3, requires_grad=True)
        y = x ** 3
        y.retain_grad()
        with lib.no_grad():
            x.add_(1)
        try:
            (y * 2).sum().backward()
        except RuntimeError as e:
            error = str(e)
        return error, y.grad.tolist()
    assert agree(run)[1] is not None


def test_split_of_a_custom_functions_view_is_a_multi_output_view():
    def run(lib):
        class Flat(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x.view(-1)

            @staticmethod
            def backward(ctx, g):
                return g.view(2, 2)
        v = Flat.apply(lib.ones(2, 2, requires_grad=True) * 1)
        p = v.split(2)[1]
        with lib.no_grad():
            v.split(2)[0].mul_(2)
        return p.grad_fn
    assert agree(run)[0] == "RuntimeError"


def test_post_accumulate_grad_hooks():
    def run(lib):
        a = lib.ones(3, requires_grad=True)
        seen = []
        h = a.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.tolist()))
        (a * 2).sum().backward()
        (a * 3).sum().backward()
        h.remove()
        (a * 3).sum().backward()
        for t in (a * 2, lib.ones(2)):
            try:
                t.register_post_accumulate_grad_hook(lambda p: None)
            except RuntimeError as e:
                seen.append(str(e))
        b = lib.ones(2, 2, requires_grad=True)
        v = b[-1]
        b.register_post_accumulate_grad_hook(lambda p: seen.append(("after detach_", p.grad)))
        b.detach_()
        (v * 2).sum().backward()
        return seen, a.grad.tolist(), b.grad
    agree(run)


def test_a_leaf_that_stopped_requiring_grad_receives_nothing():
    def run(lib):
        a = lib.ones(3, requires_grad=True)
        b = lib.ones(3, requires_grad=True)
        y = (a * b * 2).sum()
        a.requires_grad_(False)
        b.detach_()
        y.backward()
        return a.grad, b.grad
    assert agree(run) == (None, None)


def test_bare_grad_mode_decorators():
    def run(lib):
        @lib.no_grad
        def g(x):
            return x * 2

        @lib.enable_grad
        def h(x):
            return x * 2
        x = lib.ones(2, requires_grad=True)
        with lib.no_grad():
            y = h(x)
        return g(x).requires_grad, y.requires_grad, g.__name__
    assert agree(run) == (False, True, "g")


def test_backward_checks_every_seed_before_asking_for_a_graph():
    def run(lib):
        t = lib.ones(2, 3)
        seen = []
        for gradient in (lib.ones(5), None):
            try:
                t.backward(gradient)
            except RuntimeError as e:
                seen.append(str(e))
        return seen
    assert len(agree(run)) == 2


def test_custom_function_argument_errors():
    def run(lib):
        class SaveNumber(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x, 2.0)
                return x * 2

            @staticmethod
            def backward(ctx, g):
                return g * 2

        class GradForNumber(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x, k):
                return x * k

            @staticmethod
            def backward(ctx, g):
                return g * 3, g.sum()
        x = lib.ones(2, requires_grad=True)
        seen = [SaveNumber.apply(lib.ones(2)).tolist()]  # (nothing recorded: nothing checked)
        for f in (lambda: SaveNumber.apply(x),
                  lambda: GradForNumber.apply(x, 3.0).sum().backward()):
            try:
                f()
            except (TypeError, RuntimeError) as e:
                seen.append((type(e).__name__, str(e)))
        return seen
    assert len(agree(run)) == 3


def test_node_hooks_see_one_gradient_per_output():
    def run(lib):
        class Two(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2, x * 3

            @staticmethod
            def backward(ctx, ga, gb):
                return ga * 2 + gb * 3
        seen = []
        x = lib.ones(3, 2, requires_grad=True)
        for out in (x.split(1)[1], Two.apply(x)[0]):
            out.grad_fn.register_prehook(lambda go: seen.append(len(go)))
            out.grad_fn.register_hook(lambda gi, go: seen.append([g is None for g in go]))
            out.sum().backward()
        return seen, x.grad.tolist()
    agree(run)


def test_inference_tensors_detach_and_data_count_versions():
    def run(lib):
        with lib.inference_mode():
            t = lib.ones(3) * 2
        seen = []
        for make in (lambda: t.detach(), lambda: t.data, lambda: t[1:]):
            d = make()
            seen.append(d.is_inference())
            for f in (lambda: d._version, lambda: d.add_(1).tolist(), lambda: d._version,
                      lambda: d.requires_grad_()):
                try:
                    seen.append(repr(f()))
                except RuntimeError as e:
                    seen.append(str(e))
        return seen, t.tolist()
    agree(run)


def test_masked_fill_into_an_expanded_tensor_warns_and_writes():
    def run(lib):
        a = lib.zeros(1, 3)
        e = a.expand(2, 3)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            e.masked_fill_(lib.tensor([[True, False, False], [False, False, True]]), 5.0)
        texts = [str(w.message).split(" (Triggered")[0] for w in caught]
        leaf = lib.ones(3, requires_grad=True)
        try:
            leaf.expand(2, 3).masked_fill_(lib.ones(2, 3, dtype=lib.bool), 1.0)
        except RuntimeError as error:
            texts.append(str(error))
        return a.tolist(), texts
    agree(run)


def test_an_input_returned_as_it_is_without_recording_is_an_alias():
    def run(lib):
        class AsIs(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x

            @staticmethod
            def backward(ctx, g):
                return g
        seen = []
        for t in (lib.ones(2, requires_grad=True), lib.ones(2)):
            with lib.no_grad():
                o = AsIs.apply(t)
            seen.append((o is t, o.requires_grad, o.is_leaf))
            o.add_(1)
            seen.append((t.tolist(), t._version))
        return seen
    agree(run)


def test_grad_and_requires_grad_setters_in_torchs_order():
    def run(lib):
        seen = []
        x = lib.ones(2, 3, dtype=lib.float64, requires_grad=True)
        for value in (lib.ones(7), lib.ones(7, dtype=lib.float64)):
            try:
                x.grad = value
            except RuntimeError as e:
                seen.append(str(e))
        p = _broken_split_view(lib)
        try:
            p.requires_grad = False
        except RuntimeError as e:
            seen.append(str(e))
        return seen
    assert len(agree(run)) == 3


def test_a_view_changed_before_its_base_required_grad_is_refused_after():
    def run(lib):
        a = lib.ones(3, 2)
        parts = a.unbind(0)
        with lib.no_grad():
            parts[0].mul_(2)
        seen = [parts[1].grad_fn]  # (nothing to refuse yet: nothing requires grad)
        a.requires_grad_()
        try:
            seen.append(parts[1].grad_fn)
        except RuntimeError as e:
            seen.append(str(e))
        return seen
    assert agree(run)[0] is None


def test_requires_grad_setter_on_an_inference_tensor():
    def run(lib):
        with lib.inference_mode():
            t = lib.ones(2) * 2
        try:
            t.requires_grad = True
        except RuntimeError as e:
            return str(e)
    assert agree(run) is not None


def test_in_place_on_a_view_of_an_inference_tensor_outside_the_mode():
    def run(lib):
        with lib.inference_mode():
            t = lib.ones(3, 2) * 2
        try:
            t.split([1, 2])[1].mul_(2)
        except RuntimeError as e:
            return str(e), t.tolist()
    agree(run)


def test_set_materialize_grads_false_passes_none():
    def run(lib):
        seen = []

        class Lazy(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.set_materialize_grads(False)
                return x * 2, x * 3

            @staticmethod
            def backward(ctx, ga, gb):
                seen.append((ga is None, gb is None))
                return ga * 2

        class Eager(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2, x * 3

            @staticmethod
            def backward(ctx, ga, gb):
                seen.append((ga is None, gb.tolist()))
                return ga * 2
        x = lib.ones(2, requires_grad=True)
        Lazy.apply(x)[0].sum().backward()
        Eager.apply(x)[0].sum().backward()
        return seen, x.grad.tolist()
    agree(run)


@pytest.mark.parametrize("op", ["mul", "input times leaf", "sin", "pow", "view", "exp", "modified"])
def test_saved_input_detached_in_place_as_torch(op):
    """A saved input that was not a leaf, detach_()ed before backward reads it: torch's
    'Trying to use a saved tensor that has been detached in-place' (before the in-place
    modification check); a saved output (exp) or a view's base read by no formula is
    fine. Seed 6 (session 12; it was KNOWN)."""
    seen = []
    for lib in (torch, minigrad):
        x = lib.tensor([1.5, 2.5], requires_grad=True)
        y = x * 2
        z = {"mul": lambda: y * y, "input times leaf": lambda: y * x, "sin": lambda: y.sin(),
             "pow": lambda: y ** 3, "view": lambda: y[0] * y[1], "exp": lambda: y.exp(),
             "modified": lambda: y.sin()}[op]()
        if op == "modified":
            y.add_(1)
        y.detach_()
        try:
            z.sum().backward()
            seen.append(x.grad.tolist())
        except RuntimeError as error:
            seen.append(str(error))
    assert seen[0] == seen[1]



@pytest.mark.parametrize("case", ["leaf", "non-leaf", "converted", "output"])
@pytest.mark.parametrize("walk", ["backward", "reference"])
def test_data_assigned_to_a_saved_input_is_what_backward_reads(case, walk):
    """PyTorch saves an input as the tensor itself: ``t.data = `` after the op (no
    in-place change: no version moves) gives its formula the new values, where a saved
    output keeps its old data (exp's result below). Semantic seed 34879: an SGD step
    after ``t.data = t.data * 2`` moved a weight by half of PyTorch's step.
    ``walk``: backward(), or the reference walk's steps (``backward_steps``)."""
    seen = []
    for lib in (torch, minigrad):
        a = lib.tensor([1.0, -2.0, 3.0], requires_grad=True)
        b = lib.tensor([0.5, 0.25, -1.5], requires_grad=True)
        h = b * 1
        e = h.exp()
        out, replaced = {"leaf": (a * b, b), "non-leaf": (a * h, h),
                         "converted": (a * b.double(), a),  # (a kept as float64)
                         "output": (a * e, e)}[case]
        replaced.data = replaced.data * 2
        if walk == "backward" or lib is torch:
            out.sum().backward()
            seen.append([None if t.grad is None else t.grad.tolist() for t in (a, b)])
        else:
            got = {id(s.node.variable): s.leaf_grad.tolist()
                   for s in minigrad.autograd.backward_steps(out.sum()) if s.leaf_grad is not None}
            seen.append([got.get(id(t)) for t in (a, b)])
    assert seen[1] == seen[0]


@pytest.mark.parametrize("then", ["backward", "read grad_fn"])
def test_a_second_register_hook_on_a_changed_multi_output_view_is_not_refused(then):
    """``register_hook`` on an output of split whose base was changed in place is refused
    (its grad_fn cannot be remade); PyTorch made the tensor's hook dict before asking, so
    a second call adds to it without asking, and no node runs it (semantic seeds 34888,
    22377). A leaf's hooks, and a tensor's after an in-place change, are not that dict."""
    def run(lib):
        log, seen = [], []
        x = lib.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
        b = x * 2
        v, _ = b.split(2)
        b.mul_(3)
        for tag in ("first", "second", "third"):
            try:
                v.register_hook(lambda g, tag=tag: log.append((tag, g.tolist())))
                seen.append("registered")
            except RuntimeError as e:
                seen.append(str(e))
        t = lib.tensor([1.0, 2.0], requires_grad=True)
        t.register_hook(lambda g: log.append(("t, a leaf", g.tolist())))
        t.requires_grad_(False)
        z = lib.tensor([3.0, 5.0], requires_grad=True)
        t.mul_(z)  # (t now comes from MulBackward0: a hook goes there)
        t.register_hook(lambda g: log.append(("t", g.tolist())))
        if then == "read grad_fn":
            seen.append(safe_name(v))
        (b.sum() * 7 + (t * t).sum()).backward()
        return seen, log, x.grad.tolist(), z.grad.tolist()
    assert agree(run)[0][1] == "registered"


def safe_name(t):
    try:
        return t.grad_fn.name()
    except RuntimeError as e:
        return str(e)
