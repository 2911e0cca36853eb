"""Where the kit's instructor notebooks are (numbered in course order)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "notebooks" / "assignments"
SOURCES = sorted(FOLDER.glob("*.ipynb"))
BY_ASSIGNMENT = {
    "derive_it_by_hand": FOLDER / "01_derive_it_by_hand.ipynb",
    "broadcasting_and_reductions": FOLDER / "02_broadcasting_and_reductions.ipynb",
    "tensors_and_gradients": FOLDER / "03_tensors_and_gradients.ipynb",
    "implement_a_backward": FOLDER / "04_implement_a_backward.ipynb",
}


def with_module(assignment: str, folder) -> None:
    """Put the question module of ``assignment`` in ``folder`` (beside a copied notebook)."""
    module = FOLDER / f"{assignment}.py"
    (Path(folder) / module.name).write_text(module.read_text())
