"""Where the kit's instructor notebooks are."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "notebooks" / "assignments"
SOURCES = sorted(FOLDER.glob("*.ipynb"))
BY_ASSIGNMENT = {
    "tensors_and_gradients": FOLDER / "01_tensors_and_gradients.ipynb",
    "derive_it_by_hand": FOLDER / "02_derive_it_by_hand.ipynb",
    "implement_a_backward": FOLDER / "03_implement_a_backward.ipynb",
    "broadcasting_and_reductions": FOLDER / "04_broadcasting_and_reductions.ipynb",
}


def with_module(assignment: str, folder) -> None:
    """Put the question module of ``assignment`` in ``folder`` (beside a copied notebook)."""
    module = FOLDER / f"{assignment}.py"
    (Path(folder) / module.name).write_text(module.read_text())
