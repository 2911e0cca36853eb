"""Assignment 3 · Tensors and gradients (the autograd tutorial's exercises).

With the student's own numbers (the variant: ``shape`` and ``factor``, shown in the
locked cell ``numbers``):

q1: a tensor ``x`` of size ``shape`` that requires grad, and ``total``, its sum.
q2: ``y``, x multiplied by ``factor``, and ``z``, its sum.
q3: ``retain_grad()`` on ``y`` and ``z``, then ``z.backward()``.
q4: in words, what changed between the two prints (read by the teacher).

The skill is code that uses autograd, so these are ``CODE`` questions: the answer cells
run in a fresh sandbox (with minigrad), and the extract steps read x, total, y and z
there. Whatever computes the right values counts (``y = x + x`` for a factor of 2); a
tensor that does not record how it was made (``torch.no_grad()``, ``detach()``) is
explained.
"""

from __future__ import annotations

import warnings

import numpy as np

from grader.data import read
from grader.i18n import ASSIGNMENTS, N_
from grader.judging import ATOL_32, check_grad, compare, is_tensor, problem, shape_text
from grader.questions import CODE, Assignment, Finding, Question, Variant

_ = ASSIGNMENTS.gettext  # the student's language (question texts: notebooks/assignments/locale)


def draw_numbers(rng: np.random.Generator) -> dict:
    """The student's shape and factor (never the notebook's (5, 5) and 2)."""
    return {"shape": (int(rng.choice([2, 3, 4, 6])), int(rng.choice([2, 3, 4, 6]))),
            "factor": int(rng.choice([3, 4, 5]))}


def _tensor_problem(value, name: str) -> str | None:
    return problem(value, name) or (None if is_tensor(value) else
                                    _("{name} should be a tensor (torch.tensor, torch.ones, ...)")
                                    .format(name=name))


# The steps the questions build, (made, from): each is checked by its values and by its slope
# as autograd records it, d(made · 1)/d(from). Over an x of zeros the values are zeros
# whatever x is multiplied by: y = x * (factor + 1), and z or total of another multiple,
# scored q1 and q2 (and q3, with a second backward()); the slopes say the factor all the
# same.
STEPS = {"q1": (("total", "x"),), "q2": (("y", "x"), ("z", "y"))}


# The tensors q2 was judged on, at its own extract step (in the run's process; a name the
# cells never see). q3 is judged on q2's y and z (below); at q3's step their values are all
# that is left to compare (backward() freed the graph, so autograd shows no slope there), and
# over an x of zeros, or of 1e-6, new x, y and z made in q3's cell with y = x * (factor + 1)
# and a second backward() of (x * factor).sum() passed that comparison and scored q3 over a
# wrong y (red team 6). So q3 also says whether its x, y and z are the very objects q2's
# step read from the same namespace (in a notebook, the ones check("q2") read last).
_JUDGED_AT_Q2: dict = {}
Q2_TENSORS = "x, y, z of q2"


def _read_q3(namespace, inputs):
    found = {name: read(namespace, name) for name in ("x", "y", "z")}
    if _JUDGED_AT_Q2.get("namespace") is namespace:  # (else nothing to say: check("q3")
        # before any check("q2"))
        found[Q2_TENSORS] = all(found[name] is _JUDGED_AT_Q2[name] for name in "xyz")
    return found


def _extract_with_slopes(question: str, *names):
    def extract(namespace, inputs):
        found = {name: read(namespace, name) for name in names}
        if question == "q2":
            _JUDGED_AT_Q2.clear()
            _JUDGED_AT_Q2.update(namespace=namespace, x=found["x"], y=found["y"], z=found["z"])
        for made, source in STEPS[question]:
            found[f"d{made}/d{source}"] = _slope(found[source], found[made])
        return found
    return extract


# The slopes autograd showed, by the tensor they were taken of: id(made) -> (made, its
# grad_fn, source, slope). A step's slope is autograd's record of how made was made from
# source, and after a backward() (which frees the graph) autograd can no longer show it;
# the same objects, with the same grad_fn (an item assignment makes a new one), have the
# same slope, so it is remembered from when autograd could show it: check("q2") right
# after q2's cell, then check_all() at the end of the notebook, after backward().
_SLOPES: dict = {}


# The directions the slopes are taken in: unknown to the student's code, which runs before
# any is drawn (the generator is seeded from the system when the module is loaded, before
# the cells run). Taken along ones, the slope said only that the columns of the Jacobian
# sum to the factor: over x of ones, ``y = x * (factor + 1) - x.flip(0)`` has the values of
# ``factor * x`` and a slope of factor + 1 - 1 along ones, and scored q2 and q3 with allowed
# names (red team 20), though y is not x multiplied by the factor. Along a random direction
# v, d(made · v)/d(source) / v is the factor everywhere only where the Jacobian is the
# factor times the identity (or by a chance of the student's that is nil).
_DIRECTIONS = np.random.default_rng()


def _direction(made, source):
    """What ``made`` is multiplied by before its slope in ``source`` is taken: random,
    between 1 and 2, when ``made`` has ``source``'s shape or is one number, else ones."""
    import minigrad

    if tuple(made.shape) not in ((), tuple(source.shape)) or not made.is_floating_point():
        return minigrad.ones_like(made)
    return minigrad.tensor(_DIRECTIONS.uniform(1.0, 2.0, tuple(made.shape)), dtype=made.dtype)


def _slope(source, made):
    """d(made · v)/d(source) / v by autograd (``_direction``: v random, so that the slope is
    the factor only where made is source times the factor, elementwise; along ones, as
    before, where the shapes differ), or as autograd showed it earlier for the very same
    tensors (None when it cannot say: a backward() freed the graph before any step asked,
    source does not require grad, ...), leaving the graph and the gradients as they were
    (``retain_graph``; ``autograd.grad`` fills a retained ``.grad`` on its way, which is put
    back)."""
    import minigrad

    if not (isinstance(source, minigrad.Tensor) and isinstance(made, minigrad.Tensor)
            and source.requires_grad and made.grad_fn is not None):
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (reading a non-leaf's .grad warns)
        kept = [(t, t.grad) for t in (source, made)]
        try:
            direction = _direction(made, source)
            slope, = minigrad.autograd.grad(made, source, direction,
                                            retain_graph=True, allow_unused=True)
            if slope is not None and tuple(made.shape) in ((), tuple(source.shape)):
                slope = slope / direction  # (elementwise: the factor, where y = factor * x)
        except Exception:  # noqa: BLE001 (the student's graph: anything)
            seen = _SLOPES.get(id(made))
            same = seen is not None and seen[0] is made and seen[1] is made.grad_fn \
                and seen[2] is source
            return seen[3] if same else None
        finally:
            for tensor, grad in kept:
                if tensor.grad is not grad:
                    tensor.grad = grad
    _SLOPES.pop(id(made), None)  # (kept in the order they were last shown)
    while len(_SLOPES) >= 256:  # (a notebook run again and again: the oldest go, one by one;
        del _SLOPES[next(iter(_SLOPES))]  # clearing them all lost the slope q2's check had
    _SLOPES[id(made)] = (made, made.grad_fn, source, slope)  # just remembered, now and then)
    return slope


def _by_slope(data, made: str, source: str, value: float, needed: bool) -> list[Finding]:
    """``made``'s slope in ``source`` is ``value`` everywhere; when autograd could not say
    and ``needed`` (at the question's own step), a failed finding.

    The values never show how ``made`` was made: they are compared within a tolerance,
    and they can be made outside the graph. Close enough to zeros, every multiple agrees:
    an x of zeros (red team 4), then an x of 1e-6 with a ``backward()`` in the cell, which
    freed the graph so that autograd could not say, ``y = x * (factor + 1)`` and ``total =
    (x * 2).sum()``, scored 4 of 4, unflagged (red team 6); a y made from a leaf of its own
    while x did not require grad scored q2. Over x of ones, ``y = x * (factor + 1) -
    torch.tensor(x.tolist())`` has the values of ``factor * x`` and a graph of factor + 1,
    and with a ``backward()`` in the cell scored q2 and q3 (values taken out of the graph
    by ``tolist()``, ``item()``, ``float()``, a repr: no list of names holds them all). So
    only autograd's own record counts, remembered from when it could say (``_SLOPES``)."""
    slope, given = data.get(f"d{made}/d{source}"), data[source]
    if is_tensor(slope) and slope.shape == given.shape:
        return compare(_("d{made}/d{source} (autograd)").format(made=made, source=source),
                       slope.values, np.full(given.shape, float(value)), atol=ATOL_32)
    if needed and data[made].grad_fn is not None:  # (else: "does not record how", below)
        return [Finding(False, _("autograd could not show how {made} was made from {source}: "
                                 "does {source} require grad? Was backward() called in a cell "
                                 "before this check? (In the notebook, the check right after "
                                 "the question's cell, before backward(), is remembered.)")
                        .format(made=made, source=source))]
    return []


def _recorded(name: str, tensor, source: str) -> Finding:
    """``name`` was made from ``source`` by operations that autograd recorded."""
    if tensor.grad_fn is not None:
        return Finding(True, _("{name} was made from {source} and records how ({node})").format(
            name=name, source=source, node=tensor.grad_fn))
    return Finding(False, _("{name} does not record how it was made (its grad_fn is None): it "
                            "was computed under torch.no_grad(), from a detached tensor, or "
                            "made as a new tensor, so backward cannot reach {source} through "
                            "it. Compute it from {source} itself, outside no_grad").format(
        name=name, source=source))


def _shape(numbers: dict) -> tuple:
    return tuple(int(n) for n in numbers["shape"])


def judge_q1(data, inputs, env) -> list[Finding]:
    x, total, expected = data["x"], data["total"], _shape(env)
    why = _tensor_problem(x, "x")
    if why:
        return [Finding(False, why)]
    right = x.shape == expected
    findings = [
        Finding(right, (_("x has shape {shape}") if right else
                        _("x has shape {shape} but expected {expected} (your shape)")).format(
            shape=shape_text(x.shape), expected=shape_text(expected))),
        Finding(x.requires_grad, _("x requires grad") if x.requires_grad else
                _("x does not require grad — create it with requires_grad=True")),
        Finding(x.is_leaf, _("x is a leaf") if x.is_leaf else
                _("x was made by an operation ({node}); create it directly, e.g. "
                  "torch.ones({size}, requires_grad=True)").format(
                    node=x.grad_fn, size=", ".join(map(str, expected)))),
        Finding(x.dtype.startswith("float"), (_("x holds {dtype}") if x.dtype.startswith("float")
                                              else _("x holds {dtype} — only floating point "
                                                     "tensors can require grad; use 1.0, not 1"))
                .format(dtype=x.dtype)),
    ]
    why = _tensor_problem(total, "total")
    if why:
        return findings + [Finding(False, why)]
    findings.append(Finding(total.shape == (), _("total is a single number") if total.shape == ()
                            else _("total has shape {shape}; sum all the values with x.sum()")
                            .format(shape=shape_text(total.shape))))
    if total.shape == ():
        findings += compare("total", total.values, x.values.sum(), atol=ATOL_32,
                            reference=_("{expression} is").format(expression="x.sum()"))
        findings += _by_slope(data, "total", "x", 1.0, needed=True)
        findings.append(_recorded("total", total, "x"))
    return findings


def judge_q2(data, inputs, env) -> list[Finding]:
    return _q2(data, env, slope_needed=True)


def _q2(data, env, slope_needed: bool) -> list[Finding]:
    """q2's findings; ``slope_needed``: y's slope must show the factor (``STEPS``; at q2's
    own extract step: after a backward() autograd cannot say, and q3 counts only once q2
    has: ``Question.after``)."""
    x, y, z = data["x"], data["y"], data["z"]
    for value, name in ((x, "x"), (y, "y"), (z, "z")):
        why = _tensor_problem(value, name)
        if why:
            return [Finding(False, why)]
    factor = env["factor"]
    times = f"{factor} * x"
    findings = compare("y", y.values, factor * x.values, atol=ATOL_32,
                       reference=_("{expression} is").format(expression=times))
    findings += _by_slope(data, "y", "x", factor, slope_needed)
    findings.append(_recorded("y", y, "x"))
    if z.shape != ():
        return findings + [Finding(False, _("z has shape {shape}; it should be one number: "
                                            "z = y.sum()").format(shape=shape_text(z.shape)))]
    findings += compare("z", z.values, y.values.sum(), atol=ATOL_32,
                        reference=_("{expression} is").format(expression="y.sum()"))
    findings += _by_slope(data, "z", "y", 1.0, slope_needed)
    findings.append(_recorded("z", z, "y"))
    return findings


def _kept(name: str, tensor) -> list[Finding]:
    """A non-leaf's .grad must come from retain_grad(), not be assigned by hand."""
    if tensor.grad is not None and not tensor.is_leaf and not tensor.retains_grad:
        return [Finding(False, _("{name}.grad was assigned by hand; call {name}.retain_grad() "
                                 "before z.backward(), so that backward keeps it").format(
            name=name))]
    return []


def judge_q3(data, inputs, env) -> list[Finding]:
    x, y, z = data["x"], data["y"], data["z"]
    for value, name in ((x, "x"), (y, "y"), (z, "z")):
        why = _tensor_problem(value, name)
        if why:
            return [Finding(False, why)]
    if x.grad is None and z.grad_fn is None and not z.requires_grad:
        return [Finding(False, _("z does not require grad, so z.backward() cannot reach x: "
                                 "y or z was computed under torch.no_grad() or from a "
                                 "detached tensor (see q2)"))]
    # x.grad is factor only through q2's y and z: over a wrong y, a right x.grad was put
    # there another way (a hook, a second backward() of another sum, a fresh graph), each
    # of which scored q3, unheld, with plain autograd. So q3 counts only on q2's y and z:
    # the same objects (_JUDGED_AT_Q2), still right.
    if data.get(Q2_TENSORS) is False:
        return [Finding(False, _("q3 is checked on the x, y and z that q2 was checked on, and "
                                 "these are new ones: make x, y and z in q1's and q2's cells "
                                 "only and call retain_grad() and backward() on them here "
                                 "(in the notebook: run those cells and check(\"q2\") again, "
                                 "then this cell)"))]
    if not all(f.ok for f in _q2(data, env, slope_needed=False)):
        return [Finding(False, _("q3 is checked on q2's y and z, which are not right yet: fix "
                                 "q2 first (check(\"q2\")), then run z.backward() again"))]
    found = (check_grad("x", x, np.full(x.shape, float(env["factor"])),
                        how=_("did you call backward()? (z.backward())"))
             + check_grad("y", y, np.ones(y.shape),
                          how=_("call y.retain_grad() before z.backward(): a tensor made by an "
                                "operation keeps its gradient only when asked"))
             + check_grad("z", z, np.ones(z.shape),
                          how=_("call z.retain_grad() before z.backward()")))
    return found + _kept("y", y) + _kept("z", z)


ASSIGNMENT = Assignment(
    name="tensors_and_gradients",
    title=N_("Tensors and gradients"),
    questions=(
        Question("q1", N_("A tensor that requires grad, and its sum"),
                 _extract_with_slopes("q1", "x", "total"), judge_q1, kind=CODE,
                 runs=("setup", "numbers")),
        Question("q2", N_("Multiply, then sum"), _extract_with_slopes("q2", "x", "y", "z"),
                 judge_q2,
                 kind=CODE, runs=("setup", "numbers")),
        Question("q3", N_("retain_grad() and backward()"), _read_q3,
                 judge_q3, kind=CODE, runs=("setup", "numbers"), after=("q2",)),
    ),
    manual={"q4": N_("What changed, and why?")},
    variant=Variant(default={"shape": (5, 5), "factor": 2}, draw=draw_numbers),
)
