"""``torch.backends``: which backends this build has. minigrad has the CPU only:
``backends.mps.is_available()`` and ``backends.cudnn.is_available()`` are False.
"""

from . import cudnn, mps  # noqa: F401
