"""Each node's formula is data: one ``formula`` attribute, the docstring made from it."""

import inspect

import minigrad
from minigrad.autograd import FORMULAS, Formula, Node, formula_for


def node_classes():
    found, stack = [], [Node]
    while stack:
        for sub in stack.pop().__subclasses__():
            found.append(sub)
            stack.append(sub)
    return [cls for cls in found if cls.__module__.startswith("minigrad.ops")
            and not cls.__name__.startswith("_")]


def test_every_op_node_has_a_formula_and_its_docstring_is_made_from_it():
    classes = node_classes()
    assert len(classes) > 70
    for cls in classes:
        assert isinstance(cls.formula, Formula), cls.__name__
        assert FORMULAS[cls.__name__] is cls.formula
        assert inspect.getdoc(cls) == inspect.cleandoc(cls.formula.docstring())


def test_formulas_are_looked_up_by_the_name_the_learner_sees():
    x = minigrad.ones(2, requires_grad=True)
    node = (x * 3).grad_fn
    formula = formula_for(node.name())
    assert (formula.output, formula.expression) == ("z", "self * other")
    assert formula.inputs == ("self", "other")
    assert formula.term("self") == "dz/dself = other"
    assert type(node).__doc__ == "z = self * other.   dz/dself = other,  dz/dother = self"
    assert formula_for("LinalgEigBackward0") is None  # (an op minigrad does not have)


def test_a_rule_that_is_not_elementwise_says_what_G_is():
    doc = formula_for("MmBackward0").docstring()
    assert doc == ("C = self @ mat2.   grad self = G @ mat2^T,  grad mat2 = self^T @ G   "
                   "(G: the gradient of C)")
