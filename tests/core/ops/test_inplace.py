"""In-place operations against PyTorch 2.13: add_ sub_ mul_ div_ zero_ fill_ clamp_ copy_
and += -= *= /=.

* inside ``no_grad`` they update leaves (a manual SGD step), bumping the version;
* outside it, on a leaf that requires grad, they fail with torch's message;
* on a non-leaf they are recorded (``grad_fn`` becomes ``AddBackward0``, ...);
* a tensor saved for backward and then modified makes backward fail, with torch's message.

Which saved tensor the in-place modification error names when several saved
tensors of one node were changed: torch's generated nodes unpack their saved
inputs, then their saved outputs, each group in the order of the names, and
fail at the first changed one. Each program saves tensors of different shapes
(views of one base), changes them all in place, and compares the error with
torch's."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import minigrad as mg

from torch_compare import check, check_error, mirror, rand, outcome


X = rand((2, 3), seed=0)
W = rand((2, 3), seed=1, low=0.5, high=2.0)
ROW = rand((3,), seed=2, low=0.5, high=2.0)

INPLACE = {
    "add_": lambda y, w: y.add_(w), "add_ alpha": lambda y, w: y.add_(w, alpha=-2),
    "add_ number": lambda y, w: y.add_(3), "sub_": lambda y, w: y.sub_(w),
    "sub_ alpha": lambda y, w: y.sub_(w, alpha=0.5), "mul_": lambda y, w: y.mul_(w),
    "mul_ number": lambda y, w: y.mul_(2), "div_": lambda y, w: y.div_(w),
    "div_ number": lambda y, w: y.div_(4), "zero_": lambda y, w: y.zero_(),
    "fill_": lambda y, w: y.fill_(2.5), "fill_ 0-dim tensor": lambda y, w: y.fill_(w[0, 0]),
    "clamp_": lambda y, w: y.clamp_(-0.5, 0.5), "clamp_ min": lambda y, w: y.clamp_(min=0.1),
    "copy_": lambda y, w: y.copy_(w), "copy_ broadcast": lambda y, w: y.copy_(w[0]),
    "copy_ 0-dim": lambda y, w: y.copy_(w[0, 0]),
}


def _iadd(y, w):
    y += w
    return y


def _isub(y, w):
    y -= 2
    return y


def _imul(y, w):
    y *= w
    return y


def _idiv(y, w):
    y /= w
    return y


OPERATORS = {"+=": _iadd, "-= number": _isub, "*=": _imul, "/=": _idiv}
ALL = {**INPLACE, **OPERATORS}


@pytest.mark.parametrize("op", list(ALL.values()), ids=list(ALL))
@pytest.mark.parametrize("other_grad", [True, False], ids=["other-grad", "other-const"])
def test_recorded_on_a_non_leaf(op, other_grad):
    """y = x * 1 is not a leaf: the in-place op is recorded and differentiable."""
    def fn(lib, x, w):
        y = x * 1
        result = op(y, w)
        assert result is y
        return y

    check(fn, X, W, requires_grad=[True, other_grad])


@pytest.mark.parametrize("op", list(ALL.values()), ids=list(ALL))
def test_grad_fn_name_and_version(op):
    ours_in, theirs_in = mirror([X, W])
    ours, theirs = ours_in[0] * 1, theirs_in[0] * 1
    op(ours, ours_in[1])
    op(theirs, theirs_in[1])
    assert ours.grad_fn.name() == theirs.grad_fn.name()
    assert [(n.name() if n else None, k) for n, k in ours.grad_fn.next_functions] == \
        [(n.name() if n else None, k) for n, k in theirs.grad_fn.next_functions]
    assert ours._version == theirs._version


@pytest.mark.parametrize("op", list(ALL.values()), ids=list(ALL))
def test_on_a_leaf_that_requires_grad(op):
    check_error(lambda lib, x, w: op(x, w), X, W)


@pytest.mark.parametrize("op", list(ALL.values()), ids=list(ALL))
def test_on_a_view_of_a_leaf(op):
    check_error(lambda lib, x, w: op(x[0], w[0]), X, W)


@pytest.mark.parametrize("op", list(ALL.values()), ids=list(ALL))
def test_under_no_grad_updates_the_leaf(op):
    def step(lib, x, w):
        with lib.no_grad():
            result = op(x, w)
        assert result is x and x.is_leaf and x.requires_grad and x.grad_fn is None
        return x

    ours, theirs = check(step, X, W, graph=False, backward=False)
    assert ours._version == theirs._version == 1


def test_sgd_step_then_a_new_forward():
    def train(lib, w):
        for _ in range(3):
            loss = ((w * 2 - 1) ** 2).sum()
            loss.backward()
            with lib.no_grad():
                w -= 0.1 * w.grad
                w.grad.zero_()
        return (w * 3).sum()
    check(train, X)


@pytest.mark.parametrize("op", list(ALL.values()), ids=list(ALL))
def test_on_plain_tensors(op):
    check(lambda lib, x, w: op(x, w), X, W, requires_grad=False)


def test_a_constant_becomes_part_of_the_graph():
    for op in (INPLACE["add_"], INPLACE["mul_"], INPLACE["copy_"], OPERATORS["*="]):
        check(lambda lib, x, w: op(x, w) * 2, X, W, requires_grad=[False, True])


MODIFIED_SAVED = {
    "exp result": lambda lib, x: _modify(x.exp(), lambda y: y.add_(1), lambda y: y),
    "sigmoid result": lambda lib, x: _modify(x.sigmoid(), lambda y: y.mul_(2), lambda y: y),
    "tanh result, zero_": lambda lib, x: _modify(x.tanh(), lambda y: y.zero_(), lambda y: y),
    "a leaf changed under no_grad": lambda lib, x: _modify_leaf(lib, x),
    "sqrt result, +=": lambda lib, x: _modify((x * x).sqrt(), lambda y: _iadd(y, 1), lambda y: y),
}


def _modify(y, change, finish):
    out = finish(y).sum()
    change(y)
    out.backward()


def _modify_leaf(lib, x):
    out = (x * x).sum()
    with lib.no_grad():
        x.add_(1)
    out.backward()


@pytest.mark.parametrize("fn", list(MODIFIED_SAVED.values()), ids=list(MODIFIED_SAVED))
def test_modified_saved_tensor_fails_at_backward(fn):
    check_error(fn, X)


def test_modified_saved_tensor_message_names_the_current_grad_fn():
    def fn(lib, x):
        y = x * 1
        z = y * y
        y.add_(1)
        z.sum().backward()
    check_error(fn, X)


def test_modified_saved_tensor_of_a_view():
    def fn(lib, x):
        y = x.exp()
        out = y.sum()
        with lib.no_grad():
            y[0].mul_(2)  # a view shares its base's version counter
        out.backward()
    check_error(fn, X)


INPLACE_ERRORS = {
    "int += float": lambda lib, x: _iadd(x.long(), 1.5),
    "int *= float tensor": lambda lib, x: x.long().mul_(x),
    "bool add_ int": lambda lib, x: (x > 0).add_(1),
    "add_ grows the shape": lambda lib, x: x.add_(lib.ones(3, 2, 3)),
    "copy_ grows the shape": lambda lib, x: x.copy_(lib.ones(3, 2, 3)),
    "copy_ wrong shape": lambda lib, x: x.copy_(lib.ones(4)),
    "fill_ with a vector": lambda lib, x: x.fill_(lib.ones(3)),
    "clamp_ no bounds": lambda lib, x: x.clamp_(),
    "into an expanded tensor": lambda lib, x: x[0].expand(2, 3).add_(1),
}


@pytest.mark.parametrize("fn", list(INPLACE_ERRORS.values()), ids=list(INPLACE_ERRORS))
def test_inplace_errors(fn):
    check_error(fn, X, requires_grad=False)


def test_inplace_promotion_keeps_the_tensor_dtype():
    for fn in (lambda lib, x: x.add_(x.double()), lambda lib, x: x.long().add_(True),
               lambda lib, x: x.double().mul_(x), lambda lib, x: _iadd(x.long(), 2),
               lambda lib, x: x.long().copy_(x), lambda lib, x: x.long().fill_(2.7),
               lambda lib, x: x.double().clamp_(0, 1)):
        check(fn, X, requires_grad=False)


def test_views_see_the_change():
    def fn(lib, x):
        view = x[1]
        t = x.t()
        with lib.no_grad():
            x.mul_(2)
        return view + t[0, 1]
    check(fn, X, graph=False, backward=False)
    check(fn, X, requires_grad=False)


def test_backward_twice_after_inplace_needs_retain_graph():
    def fn(lib, x):
        y = x * 1
        y.mul_(2)
        out = (y * y).sum()
        out.backward(retain_graph=True)
        out.backward()
        return x.grad
    ours, theirs = check(fn, X, graph=False, backward=False)
    np.testing.assert_allclose(ours._data, theirs.numpy(), rtol=1e-6)



# ---- which saved tensor the in-place error names -----------------------------------

F = {mg: mg.nn.functional, torch: torch.nn.functional}


def views(lib, a):
    """x = a * 1 and its views of shapes (2, 3), (3,), (3, 4), (2, 3, 4), (4,)."""
    x = a * 1
    return x, x[:6].view(2, 3), x[6:9], x[:12].view(3, 4), x[:24].view(2, 3, 4), x[8:12]


def changed(op, *order):
    """``op(lib, views...)``, then its saved values changed in place in ``order``:
    "inputs" (through their base) and "result"; then backward."""
    def program(lib, a):
        x, *rest = views(lib, a)
        out = op(lib, *rest)
        for what in order:
            if what == "inputs":
                x.add_(1)
            else:
                out.mul_(2)
        out.sum().backward()
    return program


def changed_inputs(op):
    """Its saved inputs all changed."""
    return changed(op, "inputs")


def changed_inputs_and_result(op):
    """Saved inputs and the saved result all changed."""
    return changed(op, "inputs", "result")


def changed_result_then_inputs(op):
    """As above, the result changed first (the order of changes does not matter)."""
    return changed(op, "result", "inputs")


PROGRAMS = {
    "mul": changed_inputs(lambda lib, m, v, *_: m * v),
    "mul, other first": changed_inputs(lambda lib, m, v, *_: v * m),
    "div": changed_inputs(lambda lib, m, v, *_: m / v),
    "div by a 0-dim view": changed_inputs(lambda lib, m, v, *_: v / v[0]),
    "pow(tensor, tensor)": changed_inputs(lambda lib, m, v, *_: m ** v),
    "pow(tensor, tensor), result too": changed_inputs_and_result(lambda lib, m, v, *_: m ** v),
    "pow(number, tensor), result too": changed_inputs_and_result(lambda lib, m, v, *_: 2 ** v),
    "cumprod, result too": changed_inputs_and_result(lambda lib, m, *_: m.cumprod(1)),
    "prod, result too": changed_result_then_inputs(lambda lib, m, *_: m.prod()),
    "prod(dim), result too": changed_inputs_and_result(lambda lib, m, *_: m.prod(1)),
    "max(), result too": changed_inputs_and_result(lambda lib, m, *_: m.max()),
    "min(), result too": changed_inputs_and_result(lambda lib, m, *_: m.min()),
    "std(dim), result too": changed_inputs_and_result(lambda lib, m, *_: m.std(1)),
    "norm(), result too": changed_inputs_and_result(lambda lib, m, *_: m.norm()),
    "logsumexp, result too": changed_inputs_and_result(lambda lib, m, *_: m.logsumexp(1)),
    "mm": changed_inputs(lambda lib, m, v, w, *_: m.mm(w)),
    "matmul 2-D": changed_inputs(lambda lib, m, v, w, *_: m @ w),
    "linear": changed_inputs(lambda lib, m, v, w, c, r: F[lib].linear(m, w.t(), r)),
    "mv": changed_inputs(lambda lib, m, v, *_: m.mv(v)),
    "dot": changed_inputs(lambda lib, m, v, w, c, r: v.dot(r[:3])),
    "bmm": changed_inputs(lambda lib, m, v, w, c, r: c.transpose(1, 2).bmm(c)),
    "maximum": changed_inputs(lambda lib, m, v, *_: lib.maximum(m, v)),
    "minimum": changed_inputs(lambda lib, m, v, *_: lib.minimum(v, m)),
    "clamp(min=, max=)": changed_inputs(lambda lib, m, v, *_: lib.clamp(m, v[:1], v)),
    "nll_loss with weight": changed_inputs(
        lambda lib, m, v, *_: F[lib].nll_loss(m, lib.tensor([0, 2]), weight=v.detach())),
    "mse_loss": changed_inputs(lambda lib, m, v, *_: F[lib].mse_loss(m, v.expand(2, 3))),
    "binary_cross_entropy_with_logits": changed_inputs(
        lambda lib, m, v, *_: F[lib].binary_cross_entropy_with_logits(m, v.expand(2, 3))),
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_the_first_changed_saved_tensor_in_torchs_unpack_order_is_named(name):
    program = PROGRAMS[name]
    base = np.linspace(0.1, 0.9, 24, dtype=np.float32)

    def run(lib):
        return program(lib, lib.tensor(base.copy(), requires_grad=True))

    theirs = outcome(run, torch)
    assert theirs[0] == "error", theirs
    assert outcome(run, mg) == theirs


# ---- a float that requires grad written into an integer or bool tensor ---------------------

WRITES_INTO_INTEGERS = [
    "t[0] = v0", "t[0, 0] = v0", "t[0, :1] = v0", "t[..., 0] = v0", "t[...] = v0", "t[:] = v0",
    "t[0] = v1", "t[0, 0] = v1", "t[:, 0] = v2", "t[0] = v3", "t[t > 0] = v0", "t[[0, 1]] = v0",
    "t.fill_(v0)", "t.copy_(v3.expand(2, 3))", "t.copy_(v3)", "t[0].fill_(v0)",
    "t.masked_fill_(t > 0, v0)", "t[1:] = v0", "t[True] = v0", "t[None] = v0", "t[0, 1:1] = v0",
    "t[0] = v0; t.copy_(v3)", "t[0] = v0; t.copy_(t.detach() + 1)",
]


@pytest.mark.parametrize("dtype", ["int64", "bool"])
@pytest.mark.parametrize("write", WRITES_INTO_INTEGERS)
def test_writing_a_float_that_requires_grad_into_integers_records_as_torch(write, dtype):
    """PyTorch's copy_ into a type without gradients records nothing; fill_ (a 0-dim
    value into a region of another shape, torch's copy_to) and index_put_ record."""
    def program(lib):
        t = lib.tensor([[1, 2, 3], [4, 5, 6]], dtype=getattr(lib, dtype))
        values = {"v0": lib.tensor(2.5, requires_grad=True),
                  "v1": lib.tensor([2.5], requires_grad=True),
                  "v2": lib.tensor([2.5, 3.5], requires_grad=True),
                  "v3": lib.tensor([2.5, 3.5, 1.5], requires_grad=True)}
        exec(write, {"torch": lib, "t": t, **values})
        return t.requires_grad, type(t.grad_fn).__name__, t.tolist(), t._version
    assert outcome(program, mg) == outcome(program, torch)


def test_an_in_place_op_checks_the_broadcast_shape_before_dividing_by_zero():
    """torch refuses an operand broadcasting past x's shape before its kernel runs, so an
    integer division by zero says the shape (minigrad said ZeroDivisionError)."""
    for call in [lambda lib: lib.ones((), dtype=lib.int32).div_(lib.zeros(2, 1, 4, dtype=lib.bool),
                                                                rounding_mode="floor"),
                 lambda lib: lib.ones(3, dtype=lib.long).fmod_(lib.zeros(2, 3, dtype=lib.long)),
                 lambda lib: lib.ones(3, dtype=lib.long).remainder_(lib.zeros(2, 3, dtype=lib.long)),
                 lambda lib: lib.ones(3, dtype=lib.long).div_(lib.zeros(3, dtype=lib.long),
                                                              rounding_mode="trunc"),
                 lambda lib: lib.ones(4).index_add_(0, lib.tensor([0]), lib.ones(2, 0)),
                 lambda lib: lib.tensor(True).__isub__(lib.ones(3, dtype=lib.bool)),
                 lambda lib: lib.tensor(1).__ifloordiv__(lib.zeros(3, dtype=lib.long)),
                 # an expanded x: its memory is refused first (then the shapes, the dtypes)
                 lambda lib: lib.ones(3, dtype=lib.bool).expand(2, 3).add_(1),
                 lambda lib: lib.ones(3).expand(2, 3).add_(lib.ones(3, 3)),
                 lambda lib: lib.ones(3, dtype=lib.long).expand(2, 3).sqrt_(),
                 lambda lib: lib.ones(3, dtype=lib.bool).expand(2, 3).sub_(lib.ones(3, dtype=lib.bool)),
                 lambda lib: lib.ones(3).expand(2, 3).zero_(),
                 # clamp_min_/clamp_max_ with a number name the output's C++ type, as clamp_
                 lambda lib: lib.ones(4, dtype=lib.bool).clamp_min_(0),
                 lambda lib: lib.ones(4, dtype=lib.long).clamp_max_(0.5),
                 lambda lib: lib.ones(4, dtype=lib.long).clamp_max_(lib.tensor(0.5))]:
        assert outcome(call, mg) == outcome(call, torch)


MASKED_FILL_SHAPES = [((2, 3), (4,)), ((3,), (2, 3, 4)), ((3,), (2, 3)), ((3, 1), (3, 2)),
                      ((2, 0), (3,)), ((2, 3), (3,)), ((2, 1, 4), (1, 3))]


@pytest.mark.parametrize("shape, mask_shape", MASKED_FILL_SHAPES)
@pytest.mark.parametrize("grad", [False, True])
def test_masked_fill__names_self_first_in_its_broadcast_error(shape, mask_shape, grad):
    """torch's in-place text names self as tensor a and the mask as b (the out-of-place
    one the other way; minigrad's in-place took that order: deep random programs 17, 259)."""
    def call(lib):
        x = lib.zeros(shape, requires_grad=grad)
        x = x * 1 if grad else x
        return x.masked_fill_(lib.ones(mask_shape) > 0, 1.5), x.masked_fill(lib.ones(mask_shape) > 0, 2)
    assert outcome(call, mg) == outcome(call, torch)


MASKED_FILL_REFUSALS = {
    "int mask, value of 1 dim": lambda lib, x: x.masked_fill(lib.tensor([1, 0, 1]), lib.ones(2)),
    "int mask, value of 1 dim, in place": lambda lib, x: x.masked_fill_(lib.tensor([1, 0, 1]),
                                                                       lib.ones(2)),
    "expanded, int mask, value of 1 dim": lambda lib, x: x.expand(3).masked_fill_(
        lib.tensor([1, 0, 1]), lib.ones(2)),
    "expanded, value of 1 dim": lambda lib, x: x.expand(3).masked_fill_(
        lib.tensor([True, False, True]), lib.ones(2)),
    "expanded, int mask": lambda lib, x: x.expand(3).masked_fill_(lib.tensor([1, 0, 1]), 2.0),
    "expanded, a mask of another shape": lambda lib, x: x.expand(3).masked_fill_(
        lib.tensor([True, False]), 1.0),
    "expanded uint8, 300": lambda lib, x: x.byte().expand(3).masked_fill_(
        lib.tensor([True, False, True]), lib.tensor(300)),
    "int mask of another shape, in place": lambda lib, x: lib.zeros(3).masked_fill_(
        lib.tensor([1, 0]), 1.0),
}


@pytest.mark.parametrize("case", list(MASKED_FILL_REFUSALS))
def test_masked_fill_refuses_in_torchs_order(case):
    """The value's dims, then the mask's dtype, then (into an expanded tensor) the
    warning, then the shapes: minigrad checked the mask first, and warned of an
    expanded tensor before refusing its value (meet seed 30249)."""
    def call(lib):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            seen = outcome(lambda lib: MASKED_FILL_REFUSALS[case](lib, lib.zeros(1)), lib)
        return seen, [str(w.message).split(" (Triggered")[0] for w in caught]
    assert call(mg) == call(torch)


@pytest.mark.parametrize("case", ["hypot_ uint8", "hypot_ long", "hypot_ int32", "atan2_",
                                  "copysign_", "logaddexp_ bool"])
def test_an_in_place_kernels_dtype_refusal_comes_after_the_broadcast_shape(case):
    """torch's iterator checks the output's shape before the kernel refuses the dtype
    (wide random programs 22398, 24215: minigrad named the dtype first)."""
    def call(lib):
        calls = {
            "hypot_ uint8": lambda: lib.tensor([1, 2, 3]).hypot_(lib.tensor([[1], [2], [3]],
                                                                           dtype=lib.uint8)),
            "hypot_ long": lambda: lib.tensor([1, 2, 3]).hypot_(lib.ones(3, dtype=lib.long)),
            "hypot_ int32": lambda: lib.ones(4, dtype=lib.int32).hypot_(lib.ones(2, 3, 4,
                                                                                dtype=lib.long)),
            "atan2_": lambda: lib.tensor([1, 2, 3]).atan2_(lib.ones(3, 1)),
            "copysign_": lambda: lib.ones(2, dtype=lib.long).copysign_(lib.ones(3, 2)),
            "logaddexp_ bool": lambda: lib.ones(2).bool().logaddexp_(lib.ones(3, 2).bool()),
        }
        return calls[case]()
    assert outcome(call, mg) == outcome(call, torch)


NOT_OPERANDS = {"dtype": lambda lib: lib.float32, "str": lambda lib: "a", "None": lambda lib: None}
IN_PLACE_METHODS = ["add_", "sub_", "mul_", "div_", "pow_", "fmod_", "remainder_",
                    "floor_divide_", "lt_", "eq_", "bitwise_or_", "bitwise_and_",
                    "bitwise_left_shift_", "atan2_", "hypot_", "ldexp_", "copysign_",
                    "copysign", "xlogy_", "xlogy", "clamp_min_", "clamp_min", "clamp_max"]
AUGMENTED = ["+=", "-=", "*=", "/=", "**=", "%=", "//=", "|=", "&=", "^=", "<<=", ">>="]


@pytest.mark.parametrize("value", list(NOT_OPERANDS))
def test_an_in_place_method_refuses_what_is_no_operand_as_torch(value):
    """``x.add_("a")``, ``x.pow_(None)``, ``x += torch.float32``: PyTorch's parser's error
    (one signature: "must be Tensor"; several: each one's reason), and for an augmented
    assignment Python's own (the method steps aside); minigrad's in-place op failed
    inside with "'NotImplementedType' object has no attribute '_grad_fn'" (meet seeds
    26041, 27361, 27465), and copysign, xlogy, clamp_min, clamp_max took None or a string
    as a number."""
    for name in IN_PLACE_METHODS:
        def call(lib, name=name):
            x = lib.ones(2, dtype=lib.int64 if "bitwise" in name else lib.float32)
            return getattr(x, name)(NOT_OPERANDS[value](lib))
        assert outcome(call, mg) == outcome(call, torch), name
    for operator in AUGMENTED:
        def assign(lib, operator=operator):
            x = lib.ones(2, dtype=lib.int64 if operator in ("|=", "&=", "^=", "<<=", ">>=")
                         else lib.float32)
            scope = {"x": x, "v": NOT_OPERANDS[value](lib)}
            exec(f"x {operator} v", scope)
            return scope["x"]
        assert outcome(assign, mg) == outcome(assign, torch), operator


@pytest.mark.parametrize("call", ["clamp_(-0.5)", "clamp_(max=0.5)", "clamp_min_(-0.5)",
                                  "clamp_max_(0.5)", "clamp_(1)", "add_(1.5)"])
def test_a_clamp_into_an_expanded_integer_tensor_checks_the_cast_first(call):
    """clamp_ with a float bound into an expanded int16 tensor: the cast's error first, as
    PyTorch's clamp checks it before its iterator sees the shared memory (meet seed 25633);
    other ops the other way round."""
    def run(lib):
        return eval("x." + call, {"x": lib.tensor([-3], dtype=lib.int16).expand(3)})
    assert outcome(run, mg) == outcome(run, torch)


EXPANDED_BOOL_WRITES = {
    "remainder_": lambda lib, b: b.remainder_(b), "fmod_": lambda lib, b: b.fmod_(b),
    "floor_divide_": lambda lib, b: b.floor_divide_(b),
    "bitwise_left_shift_": lambda lib, b: b.bitwise_left_shift_(b),
    "atan2_": lambda lib, b: b.atan2_(b), "sub_": lambda lib, b: b.sub_(b),
    "div_": lambda lib, b: b.div_(b), "lt_": lambda lib, b: b.lt_(b), "exp_": lambda lib, b: b.exp_(),
    "gcd_": lambda lib, b: b.gcd_(b), "hypot_": lambda lib, b: b.hypot_(b),
    "remainder_ of another shape": lambda lib, b: b.remainder_(lib.tensor([True, False])),
}


@pytest.mark.parametrize("case", list(EXPANDED_BOOL_WRITES))
def test_an_expanded_bool_written_in_place_is_refused_for_its_memory_first(case):
    """torch's iterator refuses x's shared memory before the kernel refuses the dtype
    (meet seed 34369: minigrad said '"remainder_cpu" not implemented for 'Bool'')."""
    def call(lib):
        return EXPANDED_BOOL_WRITES[case](lib, lib.tensor([True]).expand(3))
    assert outcome(call, mg) == outcome(call, torch)


ALIASED_OPERANDS = {
    "column minus its first element": lambda lib, w: w.T[0].sub_(w[0, 0]),
    "column times an element below": lambda lib, w: w[:, 0].mul_(w[1, 0]),
    "every other element times one": lambda lib, w: w.reshape(-1)[::2].mul_(w[1, 0]),
    "column divided by its first": lambda lib, w: w.T[1].div_(w[0, 1]),
    "short rows minus an element": lambda lib, w: w[:, :2].sub_(w[0, 0]),
    "strided block minus a corner": lambda lib, w: w[::2, ::2].sub_(w[2, 2]),
    "column plus itself reversed": lambda lib, w: w.T[0].add_(w[:, 0].flip(0)),
    "column clamped by an element": lambda lib, w: w[:, 1].clamp_(max=w[1, 1]),
    "row plus a column (dense written)": lambda lib, w: w[0].add_(w[:, 1]),
    "dense plus a part of itself (refused)": lambda lib, w: w.reshape(-1).sub_(w[0, 0]),
}


@pytest.mark.parametrize("name", sorted(ALIASED_OPERANDS))
def test_an_operand_in_the_memory_written_is_read_as_torchs_loop_reads_it(name):
    """An in-place op whose operand is another part of the tensor's memory: where torch's
    loop takes one element at a time (a written tensor whose fastest dim is not contiguous,
    or short), each element reads the operand as it is then, written elements included
    (``x.T[0].sub_(x[0, 0])`` gives [0, 0, 2] for a column [-1.25, 0, 2]; minigrad read
    every operand before writing: fuzz prog_views seeds 35128, 35277, 35382, 35420, ...)."""
    def call(lib):
        w = lib.tensor([[-1.25, 1.5, 3.0, 2.0], [0.5, -0.0, -7.75, 4.0],
                        [2.0, 0.25, 5.0, -1.0]], dtype=lib.float64)
        ALIASED_OPERANDS[name](lib, w)
        return w
    assert outcome(call, mg) == outcome(call, torch)


@pytest.mark.parametrize("dtype", ["float32", "float16", "float64", "int64", "int32", "uint8", "bool"])
@pytest.mark.parametrize("value", ["L.int16", "'a'", "None", "[1]", "(2,)", "1j", "2 + 0j",
                                   "np.float32(2.5)", "True", "L.tensor(3.)"])
def test_fill_refuses_what_is_no_number_and_complex_values_as_torch(value, dtype):
    """x.fill_ given a dtype, a str, None, a list or a tuple raises its parser's invalid
    combination (minigrad failed inside, or filled a list's element: meet seed 41497); a
    complex number into a real type must have no imaginary part ('value cannot be
    converted to type float without overflow'; minigrad dropped it, warning)."""
    def call(L):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                shown = L.ones(2, dtype=getattr(L, dtype)).fill_(eval(value, {"L": L, "np": np})).tolist()
            except (TypeError, RuntimeError) as error:
                shown = (type(error).__name__, str(error))
        return shown, [str(w.message) for w in caught]
    assert call(mg) == call(torch)


def test_copy_of_the_same_data_into_an_expanded_tensor_is_skipped_as_torch():
    """ATen's copy_ returns at once when src is a view of x's own memory laid out as x
    (another expand of it, its .data), before it checks x for overlapping elements:
    minigrad skipped only src is x, and refused the others (semantic seed 44158: a copy_
    of an expanded view's .data from the view). A half of it, or another layout, is
    refused in both. The versions move as torch's."""
    def calls(lib):
        z = lib.zeros(3)
        v, w = z.expand(2, 3), z.expand(2, 3)
        return [lambda: v.copy_(v), lambda: v.copy_(w), lambda: v.data.copy_(v),
                lambda: w.copy_(v.detach()), lambda: v.copy_(v.half()), lambda: z.copy_(z),
                lambda: lib.zeros(3, 1).expand(3, 3).copy_(lib.zeros(1, 3).expand(3, 3)),
                lambda: z._version]
    got = []
    for lib in (torch, mg):
        seen = []
        for call in calls(lib):
            try:
                result = call()
                seen.append(result if isinstance(result, int) else ("ok", result.tolist()))
            except RuntimeError as e:
                seen.append(("RuntimeError", str(e)))
        got.append(seen)
    assert got[1] == got[0]
