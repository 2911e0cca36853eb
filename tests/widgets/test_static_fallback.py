"""Every widget also offers a static text/html copy of what it shows, for notebook
previews and exports that cannot run widgets."""

import minigrad as torch
from widgets import BackwardStepper, DerivativeCheck, GraphView


def tutorial():
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    return x, (y * y * 3).mean()


def test_stepper_bundle_has_the_live_widget_and_the_current_frame():
    _, out = tutorial()
    stepper = BackwardStepper(out)
    bundle = stepper._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert "<svg" in bundle["text/html"] and "Before backward" in bundle["text/html"]
    stepper.to_end()
    assert "Step 5 of 5" in stepper._repr_mimebundle_()["text/html"]


def test_graph_view_and_derivative_check_bundles():
    _, out = tutorial()
    assert "<svg" in GraphView(out)._repr_mimebundle_()["text/html"]
    check = DerivativeCheck(lambda x: (3 * (x + 2) ** 2).mean(), torch.ones(2, 2),
                            by_hand=lambda x: 1.5 * (x + 2))
    html = check._repr_mimebundle_()["text/html"]
    assert "<table" in html and "PASS" in html
