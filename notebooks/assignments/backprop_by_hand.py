"""Assignment 5 · Backprop by hand: every gradient of a small MLP with cross-entropy,
written as a formula, in the order of lesson 10.

The network of lesson 10 (an embedding ``C``, a layer ``tanh(s · (embcat @ W1 + b1))``, a
second layer divided by a temperature ``T``, cross-entropy written out step by step, weighted
by ``w`` and averaged or summed over the batch: ``forward_text``), with the student's own
sizes, slope ``s``, temperature ``T``, weight ``w`` and reduction (the variant: they change
the answers of q1, q4, q5 and q7, so one student's solution is wrong for another). The
student writes the gradient of the loss with respect to each named tensor as a **formula in
quotes** over the forward tensors, the sizes, the labels ``X``, ``Y`` and the gradients
already derived above it (``dprobs = "dlogprobs / probs"``).

The answers are data, read from the notebook's text and evaluated by the grader itself
(``formula.py``), on forward tensors it builds from batches it draws for each student
(other seeds, other batch sizes ``n``); each formula's upstream gradients are autograd's,
so one wrong answer costs only its own points. Expected values come from minigrad's
autograd in the grader's process. Then each formula is evaluated at 200 digits on a
small batch, where the grader's reference is a difference quotient at 310 digits
(``exact.py``): a finite difference written as a formula falls short there. Nothing the
notebook computes reaches the grader; a formula can name nothing but the forward tensors.
"""

from __future__ import annotations

import functools

import numpy as np

from grader.data import read
from grader.formula import TENSOR, FormulaError, names_in, parse
from grader.hints import gradient_hint
from grader.i18n import ASSIGNMENTS, N_
from grader.judging import compare, parse_answer
from grader.questions import DATA, Answer, Assignment, Finding, Question, Variant

_ = ASSIGNMENTS.gettext  # the student's language (question texts: notebooks/assignments/locale)

# The forward pass of the notebook's cell `forward`, one step per line (the loss: its mean
# or its sum over the batch, by the student's `reduction`).
FORWARD = (
    ("emb", "C[X]"),
    ("embcat", "emb.view(n, -1)"),
    ("hpre", "embcat @ W1 + b1"),
    ("h", "tanh(s * hpre)"),
    ("logits", "(h @ W2 + b2) / T"),
    ("logit_maxes", "logits.max(1, keepdim=True).values"),
    ("norm_logits", "logits - logit_maxes"),
    ("counts", "exp(norm_logits)"),
    ("counts_sum", "counts.sum(1, keepdim=True)"),
    ("counts_sum_inv", "counts_sum ** -1"),
    ("probs", "counts * counts_sum_inv"),
    ("logprobs", "log(probs)"),
    ("loss", "-mean(logprobs[range(n), Y])"),
)
LOSS = {"mean": "-w * mean(logprobs[range(n), Y])", "sum": "-w * sum(logprobs[range(n), Y])"}
LEAVES = ("C", "W1", "b1", "W2", "b2")
LABELS = ("X", "Y")
SIZES = ("n", "vocab", "dims", "block", "hidden", "s", "T", "w")
NAMED = SIZES[:-3]  # what a formula may name: s, T and w are written as the student's numbers
NUMBERS = SIZES[-3:]
VARIED = ("vocab", "dims", "block", "hidden", "s", "T", "w", "reduction")
TENSORS = LEAVES + tuple(name for name, _text in FORWARD[:-1])
# The gradients in the order of lesson 10, by question.
QUESTIONS = {
    "q1": ("logprobs", "probs"),
    "q2": ("counts_sum_inv", "counts_sum", "counts"),
    "q3": ("norm_logits", "logit_maxes", "logits"),
    "q4": ("h", "W2", "b2"),
    "q5": ("hpre",),
    "q6": ("W1", "b1", "embcat", "emb", "C"),
}
ORDER = tuple(name for names in QUESTIONS.values() for name in names)
ONE_LINE = "dlogits_one_line"  # q7: cross-entropy's gradient from the logits alone
ONE_LINE_VARIABLES = ("logits", "n", "vocab")
# The small batch on which each formula is checked at 200 digits (the sizes by name!).
EXACT_SIZES = {"vocab": 4, "dims": 2, "block": 2, "hidden": 3}
EXACT_N = 3
NOTEBOOK_SEED, NOTEBOOK_N = 42, 32


def answer_for(tensor: str) -> Answer:
    """``d<tensor>``: a formula over the forward tensors, the sizes, the labels and the
    gradients derived before it."""
    before = tuple("d" + name for name in ORDER[:ORDER.index(tensor)])
    return Answer("d" + tensor, TENSORS + NAMED + before, TENSOR, LABELS)


ONE_LINE_ANSWER = Answer(ONE_LINE, ONE_LINE_VARIABLES,
                         ("exp", "log", "sum", "max", "softmax", "log_softmax", "one_hot"),
                         ("Y",))


def draw_numbers(rng: np.random.Generator) -> dict:
    """The student's sizes, slope, temperature, loss weight and reduction (never the
    notebook's 27, 10, 3, 64, 1.0, 1.0 and 1.0; the reduction is the mean or the sum)."""
    return {"vocab": int(rng.choice([12, 15, 20])), "dims": int(rng.choice([4, 6])),
            "block": int(rng.choice([2, 4])), "hidden": int(rng.choice([16, 24, 32])),
            "s": float(rng.choice([0.5, 2.0, 3.0])), "T": float(rng.choice([0.5, 2.0, 4.0])),
            "w": float(rng.choice([0.5, 2.0, 3.0])), "reduction": str(rng.choice(["mean", "sum"]))}


def batch(seed: int, n: int, numbers: dict) -> dict:
    """The network's data and weights for ``seed``: the same numbers as the notebook's
    cell `network` draws (float64 arrays; the labels as int64)."""
    vocab, dims, block, hidden = (int(numbers[k]) for k in ("vocab", "dims", "block",
                                                             "hidden"))
    rng = np.random.default_rng(seed)
    values = {"X": rng.integers(0, vocab, (n, block)), "Y": rng.integers(0, vocab, n)}
    for name, shape, scale in (("C", (vocab, dims), 1.0), ("W1", (dims * block, hidden), 0.3),
                               ("b1", (hidden,), 0.1), ("W2", (hidden, vocab), 0.1),
                               ("b2", (vocab,), 0.1)):
        values[name] = rng.standard_normal(shape) * scale
    values.update(n=n, vocab=vocab, dims=dims, block=block, hidden=hidden,
                  s=float(numbers["s"]), T=float(numbers["T"]), w=float(numbers["w"]),
                  reduction=numbers["reduction"])
    return values


def forward_text(reduction: str = "mean") -> tuple:
    """The forward's steps, (name, formula text), for the reduction ``"mean"`` or ``"sum"``."""
    return FORWARD[:-1] + (("loss", LOSS[reduction]),)


@functools.cache
def _steps(reduction: str = "mean"):
    known = LEAVES + SIZES
    steps = []
    for name, text in forward_text(reduction):
        steps.append((name, parse(text, known, TENSOR, LABELS)))
        known += (name,)
    return tuple(steps)


def forward(values: dict, start: int = 0, evaluate=None) -> dict:
    """``values`` with the forward's tensors from step ``start`` on (NumPy float64, or
    ``evaluate(formula, values)``)."""
    values = dict(values)
    for name, formula in _steps(values.get("reduction", "mean"))[start:]:
        used = {k: values[k] for k in formula.variables + formula.labels}
        values[name] = evaluate(formula, used) if evaluate else formula.evaluate(**used)
    return values


def gradients(values: dict) -> dict:
    """``d<name>`` for every tensor: minigrad's autograd, in float64, in this process."""
    import minigrad

    tensors = {k: minigrad.tensor(np.asarray(values[k], dtype=np.float64), requires_grad=True)
               for k in LEAVES}
    tensors.update({k: minigrad.tensor(values[k]) for k in LABELS})
    tensors.update({k: values[k] for k in SIZES})
    for name, formula in _steps(values.get("reduction", "mean")):
        tensors[name] = formula.on_tensors(
            minigrad, **{k: tensors[k] for k in formula.variables + formula.labels})
    found = minigrad.autograd.grad(tensors["loss"], [tensors[k] for k in ORDER])
    return {"d" + k: g.detach().numpy().astype(np.float64) for k, g in zip(ORDER, found)}


def _factors(tensor: str) -> tuple:
    """The numbers that may multiply or divide ``tensor``'s gradient, for a hint that finds a
    factor: n, w, T and s where a step between the tensor and the loss has them (dlogprobs:
    n and w; dh: T too; dhpre: s too). dlogprobs's factor 2 for w = s = 0.5 was called
    "divided by s", and 1/w² "divided by block"."""
    steps = forward_text()[:-1] + (("loss", LOSS["mean"]),)
    first = next(i for i, (_name, text) in enumerate(steps) if tensor in names_in(text))
    said = {name for _name, text in steps[first:] for name in names_in(text)}
    return tuple(k for k in ("n", "w", "T", "s") if k in said)


def _uses(tensor: str) -> tuple:
    """The forward's steps that read ``tensor``."""
    return tuple(name for name, text in FORWARD if tensor in names_in(text))


def _inputs(seed: int, n: int, exact: bool = False) -> dict:
    return {"seed": seed, "n": n, **({"exact": True} if exact else {})}


PUBLIC = [_inputs(NOTEBOOK_SEED, NOTEBOOK_N), _inputs(7, EXACT_N, exact=True)]


def hidden(rng: np.random.Generator, numbers: dict) -> list:
    """Two batches of other sizes n and one small batch for the 200-digit check, drawn for
    each student."""
    seeds = rng.integers(1000, 10 ** 9, 3).tolist()
    return [_inputs(seeds[0], int(rng.integers(9, 20))),
            _inputs(seeds[1], int(rng.integers(21, 40))),
            _inputs(seeds[2], EXACT_N, exact=True)]


@functools.lru_cache(maxsize=64)
def _drawn(seed: int, n: int, numbers: tuple):
    values = forward(batch(seed, n, dict(numbers)))
    return values, gradients(values)


def _extract(names):
    def extract(namespace, inputs):
        return {name: read(namespace, name) for name in names}
    return extract


def _numbers(env: dict) -> tuple:
    return tuple(sorted((k, env[k]) for k in VARIED))


def judge_answers(answers: tuple):
    """Each answer on every float64 batch (the first that fails speaks), then at 200 digits."""
    def judge(data, inputs, env) -> list[Finding]:
        findings = []
        for answer in answers:
            formula, refused = parse_answer(answer, data[answer.name])
            findings.append(_as_numbers(refused, data[answer.name], env) if refused else
                            _judge_one(answer, formula, inputs, env))
        return findings
    return judge


def _as_numbers(refused: Finding, text, env: dict) -> Finding:
    """A formula that names s, T or w is told to write the student's own numbers instead
    (the refusal alone lists what a formula may use, and leaves out why they are not
    there)."""
    named = [k for k in NUMBERS if k in names_in(text)] if isinstance(text, str) else []
    if not named:
        return refused
    numbers = ", ".join(f"{k} = {float(env[k])}" for k in named)
    return Finding(False, refused.text + _(" — write your own numbers, not their names: "
                                          "{numbers}").format(numbers=numbers))


def _tensor(answer: Answer) -> str:
    return "logits" if answer.name == ONE_LINE else answer.name[1:]


def _judge_one(answer: Answer, formula, inputs: list, env: dict) -> Finding:
    tensor = _tensor(answer)
    for drawn in inputs:
        if drawn.get("exact"):
            continue
        values, grads = _drawn(drawn["seed"], drawn["n"], _numbers(env))
        expected = grads["d" + tensor]
        try:
            got = formula.evaluate(**{k: {**values, **grads}[k]
                                      for k in formula.variables + formula.labels})
        except FormulaError as error:
            return Finding(False, f"{answer.name}: {error}")
        found = compare(answer.name, got, expected, atol=1e-9, rtol=1e-9,
                        reference=_("autograd gives"),
                        where=lambda index, n=drawn["n"]: _(
                            "at index {index} (a batch of n = {n})").format(index=index, n=n))
        if not found[0].ok:
            sizes = {k: values[k] for k in _factors(tensor)}
            uses = _uses(tensor)
            hint = gradient_hint(answer.name, expected.shape, got, expected, sizes, uses)
            return Finding(False, found[0].text + hint)
    for drawn in inputs:
        if drawn.get("exact"):
            verdict = _exactly(answer, formula, drawn["seed"], env)
            if verdict is not None:
                return verdict
    return Finding(True, _("{name} is right").format(name=answer.name))


# --- at 200 digits -------------------------------------------------------------------------
#
# On a small batch, each formula is evaluated at 200 digits and projected on a direction the
# grader draws; the reference is a difference quotient at 310 digits (exact.py). The
# gradients a formula reads (dprobs, ...) are autograd's float64 numbers, taken as exact: the
# reference is then the chain rule's one step, sum over the tensor's uses c of
# <dc, c(tensor + t * direction)>, differentiated at t = 0 (two evaluations of the steps that
# use the tensor). A formula that reaches the same gradient another way (through other
# gradients, or from the forward tensors alone) is checked against the loss itself, with
# the gradients it reads computed at 310 digits too (slower, and only then).

@functools.lru_cache(maxsize=16)
def _exact_world(seed: int, numbers: tuple):
    """The small batch's tensors at 310 digits, its float64 gradients, and a cache of
    gradients at 310 digits."""
    from grader.exact import MPMATH, REFERENCE, precision

    start = batch(seed, EXACT_N, {**dict(numbers), **EXACT_SIZES})
    grads = gradients(forward(start))
    with precision(REFERENCE):
        start.update({k: MPMATH.array(start[k]) for k in LEAVES})  # (converted once)
        values = forward(start, evaluate=_exact)
    return values, grads, {}


def _exact(formula, values):
    return formula.exact(**values)


def _position(tensor: str) -> int:
    """The index of the first forward step after the one that makes ``tensor``."""
    return 0 if tensor in LEAVES else [n for n, _t in FORWARD].index(tensor) + 1


def _loss_from(tensor: str):
    """The loss as a function of the values, with ``tensor`` moved and everything after it
    computed again (the tensor as a node of the graph)."""
    def loss(values):
        return forward(values, _position(tensor), evaluate=_exact)["loss"]
    return loss


def _one_step(tensor: str, grads: dict, reduction: str):
    """sum over the steps c that use ``tensor`` of <dc, c(values)>, dc as given numbers."""
    from grader.exact import MPMATH, inner

    uses = [(name, formula) for name, formula in _steps(reduction)
            if name in _uses(tensor)]

    def chained(values):
        total = 0
        for name, formula in uses:
            made = formula.exact(**{k: values[k] for k in formula.variables + formula.labels})
            weight = 1 if name == "loss" else MPMATH.array(grads["d" + name])
            total += inner(made, weight)
        return np.asarray(total, dtype=object)
    return chained


def _exact_gradient(tensor: str, values: dict, cache: dict) -> np.ndarray:
    """d loss / d tensor at 310 digits, element by element."""
    from grader.exact import directional

    if tensor not in cache:
        shape = np.shape(values[tensor])
        found = np.empty(shape, dtype=object)
        for index in np.ndindex(*shape):
            direction = np.zeros(shape)
            direction[index] = 1.0
            found[index] = directional(_loss_from(tensor), values, tensor, direction)
        cache[tensor] = found
    return cache[tensor]


def _agreement(formula, given: dict, tensor: str, values: dict, reference) -> float:
    from grader.exact import MPMATH, REFERENCE, agreement, directional, evaluate, inner, \
        precision

    got = evaluate(formula, given)
    shape = np.shape(values[tensor])
    if np.shape(got) != shape:
        raise FormulaError("shape")
    direction = np.random.default_rng(len(tensor)).standard_normal(shape).round(4)
    with precision(REFERENCE):
        along = MPMATH.array(direction)
    return agreement(inner(got, along), directional(reference, values, tensor, along))


def _exactly(answer: Answer, formula, seed: int, env: dict) -> Finding | None:
    """None when the formula is the exact gradient on the small batch, else why not."""
    from grader.exact import AGREE, MPMATH, REFERENCE, precision
    from grader.judging import not_exact

    values, grads, cache = _exact_world(seed, _numbers(env))
    tensor = _tensor(answer)
    given = {k: values[k] for k in formula.variables + formula.labels if k in values}
    upstream = [k for k in formula.variables if k not in values]
    try:
        digits = -1.0
        if upstream:  # the chain rule's one step, with autograd's numbers
            with precision(REFERENCE):
                numbers = {k: MPMATH.array(grads[k]) for k in upstream}
            digits = _agreement(formula, {**given, **numbers}, tensor, values,
                                _one_step(tensor, grads, values["reduction"]))
        if digits < AGREE:  # from the loss itself
            exact = {k: _exact_gradient(k[1:], values, cache) for k in upstream}
            digits = _agreement(formula, {**given, **exact}, tensor, values,
                                _loss_from(tensor))
    except FormulaError:
        return Finding(False, _("{name} holds for your sizes but not for others: write the "
                                "sizes by name (n, vocab, dims, block, hidden), not as "
                                "numbers").format(name=answer.name))
    return None if digits >= AGREE else not_exact(answer.name, digits)


def _question(grade_id: str, title: str, tensors: tuple) -> Question:
    answers = tuple(answer_for(t) for t in tensors)
    return Question(grade_id, title, _extract([a.name for a in answers]),
                    judge_answers(answers), public=PUBLIC, hidden=hidden, answers=answers,
                    kind=DATA)


ASSIGNMENT = Assignment(
    name="backprop_by_hand",
    title=N_("Backprop by hand"),
    questions=(
        _question("q1", N_("dlogprobs and dprobs"), QUESTIONS["q1"]),
        _question("q2", N_("The gradient of a broadcast is a sum: dcounts_sum_inv, "
                           "dcounts_sum, dcounts"), QUESTIONS["q2"]),
        _question("q3", N_("dnorm_logits, dlogit_maxes and dlogits"), QUESTIONS["q3"]),
        _question("q4", N_("The second layer: dh, dW2, db2"), QUESTIONS["q4"]),
        _question("q5", N_("The nonlinearity: dhpre"), QUESTIONS["q5"]),
        _question("q6", N_("The first layer and the embedding: dW1, db1, dembcat, demb, dC"),
                  QUESTIONS["q6"]),
        Question("q7", N_("Cross-entropy's gradient in one line"), _extract([ONE_LINE]),
                 judge_answers((ONE_LINE_ANSWER,)), public=PUBLIC, hidden=hidden,
                 answers=(ONE_LINE_ANSWER,), kind=DATA),
    ),
    variant=Variant(default={"vocab": 27, "dims": 10, "block": 3, "hidden": 64, "s": 1.0,
                             "T": 1.0, "w": 1.0, "reduction": "mean"},
                    draw=draw_numbers),
)
