"""``torch.backends.cudnn``: NVIDIA's library, which minigrad does not use.

Its flags exist so that reproducibility boilerplate such as
``torch.backends.cudnn.deterministic = True`` runs; they change nothing here.
"""

enabled = True
deterministic = False
benchmark = False
allow_tf32 = True


def version():
    """None: not built with cuDNN."""
    return None


def is_available() -> bool:
    return False
