"""The widgets in a real kernel, as a lesson uses them, on a machine with no system `dot`."""

import os
import shutil
import sys

import nbformat
import pytest
from nbclient import NotebookClient

CELLS = [
    "import minigrad as torch\nimport widgets\n"
    "x = torch.ones(2, 2, requires_grad=True)\ny = x + 2\nout = (y * y * 3).mean()",
    "widgets.draw_graph(out, names={'x': x, 'out': out})",
    "view = widgets.GraphView(out, names={'x': x})\nview",
    "widgets.BackwardStepper(out, names={'x': x})",
    "widgets.DerivativeCheck(lambda x: (3 * (x + 2) ** 2).mean(), x,\n"
    "                        by_hand=lambda x: 1.5 * (x + 2))",
    "out.backward()\nview.refresh()\nprint(x.grad)",
]


@pytest.fixture
def no_system_graphviz(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    assert shutil.which("dot") is None


def test_lesson_cells_display_without_errors(no_system_graphviz, tmp_path):
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    client = NotebookClient(notebook, timeout=60, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}})
    client.execute(cwd=str(tmp_path), env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    outputs = [cell.outputs for cell in notebook.cells]
    assert all(o.output_type != "error" for cell in outputs for o in cell), outputs
    assert "image/svg+xml" in outputs[1][0].data  # drawn by graphviz-pure, no `dot` needed
    assert outputs[1][0].data["text/plain"].startswith("graph of out: 4 operations")
    for index, name in ((2, "GraphView"), (3, "BackwardStepper"), (4, "DerivativeCheck")):
        data = outputs[index][0].data
        assert "application/vnd.jupyter.widget-view+json" in data, name
        assert data["text/plain"].startswith(name) and len(data["text/plain"]) < 600
    assert "4.5000" in outputs[5][0].text
    state = notebook.metadata.widgets["application/vnd.jupyter.widget-state+json"]["state"]
    links = [m for m in state.values() if m["model_name"] == "LinkModel"]
    assert len(links) == 2  # Play <-> slider <-> frames, in the browser: no kernel needed
