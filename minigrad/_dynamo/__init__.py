"""``torch._dynamo``: what programs call on it around ``torch.compile``
(``reset()``, ``list_backends()``, ``config``, ``OptimizedModule``). How minigrad
"compiles" is in eval_frame.py."""

from . import config, exc  # noqa: F401
from .eval_frame import (  # noqa: F401
    OptimizedModule, allow_in_graph, disable, is_compiling, list_backends, mark_dynamic,
    mark_static, optimize, reset)
