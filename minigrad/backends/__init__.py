"""``torch.backends``: which backends this build has. minigrad has the CPU only:
``backends.mps.is_available()``, ``backends.cudnn.is_available()`` and
``backends.cuda.is_built()`` are False; their flags (``cudnn.deterministic``,
``cuda.matmul.allow_tf32``) are accepted and change nothing.
"""

from . import cuda, cudnn, mps, precision  # noqa: F401
