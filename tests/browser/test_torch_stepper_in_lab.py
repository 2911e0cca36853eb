"""Scenario 4: the stepper on a real PyTorch model, clicked through in JupyterLab.

A notebook that imports torch (not minigrad) builds a small ``torch.nn``
classifier with cross-entropy and opens ``BackwardStepper`` on its loss. The
order the gold box must follow is torch's own: recorded in this process with
``register_prehook`` during a real ``backward()`` on the same seeded model,
with the box ids from the drawing's numbering (``GraphModel``).
"""

import nbformat
import pytest
import torch

from conftest import (current_box, open_notebook, run_all, shown_frame, shown_text,
                      step_through)
from widgets.graph import GraphModel

pytestmark = pytest.mark.browser

MODEL = """\
import torch
import torch.nn.functional as F
import widgets

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Tanh(), torch.nn.Linear(3, 2))
points = torch.tensor([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]])
loss = F.cross_entropy(model(points), torch.tensor([0, 1, 1, 0]))
names = {**dict(model.named_parameters()), "loss": loss}
"""


def torch_order():
    """(output box id, [(box id, node name or "AccumulateGrad"), ...] in the order torch runs them)."""
    scope = {}
    exec(MODEL, scope)
    loss = scope["loss"]
    model = GraphModel.build([loss], scope["names"])
    seen, stack, handles, order = set(), [loss.grad_fn], [], []
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        handles.append(node.register_prehook(lambda grads, node=node: order.append(node)))
        stack += [child for child, _ in node.next_functions]
    loss.backward()
    for handle in handles:
        handle.remove()
    facts = {"loss": f"{loss.item():.4g}",
             "0.weight.grad[0, 0]": f"{scope['model'][0].weight.grad[0, 0].item():.4f}"}
    return model.output_ids[0], [
        (model.box_of[node], "AccumulateGrad" if hasattr(node, "variable") else node.name())
        for node in order], facts


def test_step_through_a_torch_models_backward_in_lab(page, lab):
    output_id, expected, facts = torch_order()
    assert [name for _, name in expected][:3] == [
        "NllLossBackward0", "LogSoftmaxBackward0", "AddmmBackward0"]
    total = len(expected)
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(MODEL),
                      nbformat.v4.new_code_cell("widgets.BackwardStepper(loss, names=names)"),
                      nbformat.v4.new_code_cell("import sys; print('minigrad' in sys.modules, "
                                                "all(p.grad is None for p in model.parameters()))")]
    notebook.metadata["kernelspec"] = {"name": "python3", "language": "python",
                                       "display_name": "Python 3 (ipykernel)"}
    nbformat.write(notebook, lab[2] / "torch_stepper.ipynb")

    open_notebook(page, lab, "torch_stepper.ipynb")
    run_all(page)
    stepper = page.locator(".minigrad-stepper").first
    stepper.locator("svg").first.wait_for(timeout=60_000)
    frame = shown_frame(stepper, 0, total)
    assert current_box(stepper, 0, total)[0] == output_id
    assert f"Before backward: loss = {facts['loss']}" in frame.inner_text()

    step_through(page, stepper, expected, "torch", (6, "4-torch-stepper-step-6"))
    weight = shown_text(stepper, "g.node.leaf", has_text="0.weight")
    assert "grad:" in weight and facts["0.weight.grad[0, 0]"] in weight, weight
    # the stepper changed no .grad in the kernel (minigrad was imported by the widgets)
    page.get_by_text("True True").wait_for(timeout=15_000)
