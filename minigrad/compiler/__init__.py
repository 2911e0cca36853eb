"""``torch.compiler`` and ``torch.compile``: minigrad runs a compiled model or function
eagerly and shows it as PyTorch's compiled one shows (see _dynamo/eval_frame.py)."""

from .._dynamo import config  # noqa: F401
from .._dynamo.eval_frame import (  # noqa: F401
    allow_in_graph, compile, disable, is_compiling, list_backends, reset)

__all__ = ["compile", "reset", "disable", "is_compiling", "is_dynamo_compiling", "is_exporting",
           "allow_in_graph", "assume_constant_result", "list_backends",
           "cudagraph_mark_step_begin"]


def is_dynamo_compiling() -> bool:
    """As ``is_compiling()``."""
    return is_compiling()


def is_exporting() -> bool:
    """False: minigrad has no ``torch.export``."""
    return False


def assume_constant_result(fn):
    """``fn`` itself (nothing is captured, so nothing is assumed)."""
    return fn


def cudagraph_mark_step_begin() -> None:
    """Nothing to mark: minigrad has no CUDA graphs."""
